//! One reviewed query: its top-level keys, decoded from a YAML document
//! into a typed, validated [`ReviewedQuery`].

use policies::facts::{Confidence, Fact};

use super::diagnostic::{closest, Code, Sink};
use super::emit::{decode_emit, Content, Emit};
use super::matching::{decode_match, Matcher};
use super::yaml::{Document, Entry, Node, ScalarKind, Span, Value};

const TOP_LEVEL_KEYS: [&str; 7] = [
    "id",
    "owner",
    "version",
    "confidence",
    "match",
    "emit",
    "description",
];
const REQUIRED_KEYS: [&str; 6] = ["id", "owner", "version", "confidence", "match", "emit"];

/// A validated reviewed query.
#[derive(Debug, Clone)]
pub struct ReviewedQuery {
    id: String,
    id_span: Span,
    owner: String,
    version: u32,
    confidence: Confidence,
    description: Option<String>,
    file: String,
    document: usize,
    pub(crate) matchers: Vec<Matcher>,
    pub(crate) emit: Emit,
}

/// A literal (non-template) name an emit field gives, for the engine's checks against the
/// compiled spec (`query-unknown-name`): entity names, data, states, scopes.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LiteralField {
    /// The emit field, e.g. `to`.
    pub field: &'static str,
    /// The name as written (after `$$` unescaping).
    pub value: String,
    /// 1-based line of the value in the query file.
    pub line: u32,
    /// 1-based column of the value.
    pub column: u32,
    /// 0-based byte offset of the value.
    pub offset: usize,
    /// 0-based exclusive byte offset of the value's end.
    pub end_offset: usize,
}

impl ReviewedQuery {
    /// The query id, unique across both query trees.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The owning team or person.
    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// The query version (≥ 1).
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The query's own confidence; emitted facts take min(this, graph fact).
    pub fn confidence(&self) -> Confidence {
        self.confidence
    }

    /// The optional description.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The query file, project-relative.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The 0-based index of the query's document in its file.
    pub fn document(&self) -> usize {
        self.document
    }

    /// The 1-based line and column of the `id` value.
    pub fn location(&self) -> (u32, u32) {
        (self.id_span.line, self.id_span.column)
    }

    /// What the query's `match` allows of the generic facts: the kinds, and the callees and
    /// properties it names (`kind`, `callee`/`method`, `property`).
    pub(crate) fn match_shape(&self) -> crate::generic::MatchShape {
        let mut shape = crate::generic::MatchShape::default();
        for matcher in &self.matchers {
            let Some(values) = matcher.wanted_strings() else {
                continue;
            };
            let values = values.into_iter().map(str::to_owned);
            match matcher.key() {
                "kind" => shape.kinds = Some(values.collect()),
                "callee" | "method" => shape.callees.get_or_insert_default().extend(values),
                "property" => shape.properties.get_or_insert_default().extend(values),
                _ => {}
            }
        }
        shape
    }

    /// The emit kind, e.g. `transition`.
    pub fn emit_kind(&self) -> &'static str {
        self.emit.kind.as_str()
    }

    /// The emit fields written as literal strings (no `$var`), in the kind's field order.
    /// Number, Boolean and null `value`s and `authenticated`/`encrypted` are left out.
    pub fn literal_fields(&self) -> Vec<LiteralField> {
        self.emit
            .fields
            .iter()
            .filter_map(|field| match &field.content {
                Content::Template(template) => Some(LiteralField {
                    field: field.name,
                    value: template.literal()?,
                    line: field.span.line,
                    column: field.span.column,
                    offset: field.span.offset,
                    end_offset: field.span.end_offset,
                }),
                Content::Literal(_) | Content::False => None,
            })
            .collect()
    }

    /// The first `match` key the fact fails, or `None` when the fact matches.
    pub(crate) fn first_mismatch(&self, fact: &Fact) -> Option<&str> {
        self.matchers
            .iter()
            .find(|matcher| !matcher.matches(fact))
            .map(Matcher::key)
    }
}

/// Decodes one YAML document into a query; errors and warnings go to `sink`. Returns `None`
/// when the document has errors.
pub(crate) fn decode_query(document: &Document, sink: &mut Sink<'_>) -> Option<ReviewedQuery> {
    let root = &document.root;
    let Value::Mapping(entries) = &root.value else {
        sink.push(
            sink.diagnostic(
                Code::NotAMapping,
                root.span,
                format!("query document is {}, not a mapping", root.describe()),
            )
            .with_help("a query is a mapping with `id`, `owner`, `version`, `confidence`, `match` and `emit`"),
        );
        return None;
    };
    let errors_before = sink.error_count();
    let find = |key: &str| entries.iter().find(|entry| entry.key == key);

    for entry in entries {
        if !TOP_LEVEL_KEYS.contains(&entry.key.as_str()) {
            let help = match closest(&entry.key, &TOP_LEVEL_KEYS) {
                Some(name) => format!("did you mean `{name}`?"),
                None => "a query has `id`, `owner`, `version`, `confidence`, `match`, `emit` and `description`".into(),
            };
            sink.push(
                sink.diagnostic(
                    Code::UnknownKey,
                    entry.key_span,
                    format!("unknown key `{}` in query is ignored", entry.key),
                )
                .with_help(help),
            );
        }
    }
    let id_text = find("id").and_then(|entry| entry.value.as_str());
    for key in REQUIRED_KEYS {
        if find(key).is_none() {
            let message = match id_text {
                Some(id) if !id.is_empty() => format!("query `{id}` has no `{key}`"),
                _ => format!("query has no `{key}`"),
            };
            sink.report(Code::MissingKey, root.span, message);
        }
    }

    let id = find("id").and_then(|entry| decode_id(entry, sink));
    let owner = find("owner").and_then(|entry| decode_text(entry, sink));
    let version = find("version").and_then(|entry| decode_version(entry, sink));
    let confidence = find("confidence").and_then(|entry| decode_confidence(entry, sink));
    let description = match find("description") {
        Some(entry) if is_null(&entry.value) => None,
        Some(entry) => entry.value.as_str().map(str::to_owned).or_else(|| {
            report_type(entry, "a string", sink);
            None
        }),
        None => None,
    };
    let matchers = find("match").and_then(|entry| match &entry.value.value {
        Value::Mapping(match_entries) => Some(decode_match(&entry.value, match_entries, sink)),
        _ => {
            report_type(entry, "a mapping of fact fields to values", sink);
            None
        }
    });
    let emit = find("emit").and_then(|entry| match &entry.value.value {
        Value::Mapping(emit_entries) => decode_emit(&entry.value, emit_entries, sink),
        _ => {
            report_type(entry, "a mapping with a `kind`", sink);
            None
        }
    });

    if sink.error_count() > errors_before {
        return None;
    }
    let (id, id_span) = id?;
    Some(ReviewedQuery {
        id,
        id_span,
        owner: owner?,
        version: version?,
        confidence: confidence?,
        description,
        file: sink.file().to_owned(),
        document: document.index,
        matchers: matchers?,
        emit: emit?,
    })
}

fn is_null(node: &Node) -> bool {
    matches!(&node.value, Value::Scalar(scalar) if scalar.kind == ScalarKind::Null)
}

/// Reports a top-level key whose value has the wrong type.
fn report_type(entry: &Entry, expected: &str, sink: &mut Sink<'_>) {
    sink.report(
        Code::InvalidValue,
        entry.value.span,
        format!(
            "`{}` must be {expected}, found {}",
            entry.key,
            entry.value.describe()
        ),
    );
}

/// A non-empty string (`owner`).
fn decode_text(entry: &Entry, sink: &mut Sink<'_>) -> Option<String> {
    let Some(text) = entry.value.as_str() else {
        report_type(entry, "a string", sink);
        return None;
    };
    if text.trim().is_empty() {
        sink.report(
            Code::InvalidValue,
            entry.value.span,
            format!("`{}` is empty", entry.key),
        );
        return None;
    }
    Some(text.to_owned())
}

/// The `id` a document gives as a string, with the span of its value, whatever else is wrong
/// with the document: duplicate ids are found among every document (all errors at once).
pub(crate) fn document_id(document: &Document) -> Option<(String, Span)> {
    let Value::Mapping(entries) = &document.root.value else {
        return None;
    };
    let entry = entries.iter().find(|entry| entry.key == "id")?;
    let id = entry.value.as_str().filter(|id| !id.is_empty())?;
    Some((id.to_owned(), entry.value.span))
}

fn decode_id(entry: &Entry, sink: &mut Sink<'_>) -> Option<(String, Span)> {
    let id = decode_text(entry, sink)?;
    let is_valid = id
        .bytes()
        .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'.' | b'-'));
    if !is_valid {
        sink.push(
            sink.diagnostic(
                Code::InvalidValue,
                entry.value.span,
                format!("invalid query id `{id}`: use only letters, digits, `_`, `.` and `-`"),
            )
            .with_help("ids appear in fact ids and violation ids, so they stay plain"),
        );
        return None;
    }
    Some((id, entry.value.span))
}

fn decode_version(entry: &Entry, sink: &mut Sink<'_>) -> Option<u32> {
    let number = match &entry.value.value {
        Value::Scalar(scalar) => match scalar.kind {
            ScalarKind::Int(number) => Some(number),
            _ => None,
        },
        Value::Sequence(_) | Value::Mapping(_) => None,
    };
    let Some(number) = number else {
        sink.push(
            sink.diagnostic(
                Code::InvalidValue,
                entry.value.span,
                format!(
                    "`version` must be an integer, found {}",
                    entry.value.describe()
                ),
            )
            .with_help(
                "write a whole number such as `version: 1`, and bump it when the meaning changes",
            ),
        );
        return None;
    };
    match u32::try_from(number) {
        Ok(version) if version >= 1 => Some(version),
        _ => {
            sink.report(
                Code::InvalidValue,
                entry.value.span,
                format!(
                    "`version` must be at least 1 and at most {}, found `{number}`",
                    u32::MAX
                ),
            );
            None
        }
    }
}

fn decode_confidence(entry: &Entry, sink: &mut Sink<'_>) -> Option<Confidence> {
    let confidence = match entry.value.as_str() {
        Some("definite") => Some(Confidence::Definite),
        Some("probable") => Some(Confidence::Probable),
        Some("possible") => Some(Confidence::Possible),
        _ => None,
    };
    if confidence.is_none() {
        let found = match entry.value.as_str() {
            Some(text) => format!("`{text}`"),
            None => entry.value.describe().to_owned(),
        };
        sink.push(
            sink.diagnostic(
                Code::InvalidValue,
                entry.value.span,
                format!("unknown confidence {found}"),
            )
            .with_help("expected `definite`, `probable` or `possible`"),
        );
    }
    confidence
}
