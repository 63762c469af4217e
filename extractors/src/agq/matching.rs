//! The `match` block of a reviewed query: decoding with located errors, and matching.
//!
//! A graph fact matches when every key matches. A value is a scalar or a non-empty list of
//! scalars ("any of"); scalars compare with their types, so a number never equals a string.
//! A list property matches when it contains a wanted value. `file` takes globs (the glob syntax of `component` in policies/LANGUAGE.md).

use globset::{GlobBuilder, GlobMatcher};
use policies::facts::Fact;

use super::diagnostic::{Code, Sink};
use super::fields::{extractor_answers_to, FieldRef, FieldValue};
use super::yaml::{Entry, Node, ScalarKind, Value};

/// Brace expansion stops at this many alternatives per glob.
const MAX_ALTERNATIVES: usize = 64;

/// One `match` key with its wanted values.
#[derive(Debug, Clone)]
pub(crate) struct Matcher {
    key: String,
    field: FieldRef,
    test: Test,
}

#[derive(Debug, Clone)]
enum Test {
    /// Any of these scalars.
    AnyOf(Vec<Wanted>),
    /// Any of these globs, against `evidence.file`.
    Globs(Vec<Vec<GlobMatcher>>),
}

/// A scalar from the query, typed.
#[derive(Debug, Clone, PartialEq)]
enum Wanted {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
}

impl Matcher {
    /// The key as written, for traces.
    pub(crate) fn key(&self) -> &str {
        &self.key
    }

    /// The wanted string values, when the key compares values (not globs); a number or a
    /// Boolean never equals a string, so those are left out.
    pub(crate) fn wanted_strings(&self) -> Option<Vec<&str>> {
        match &self.test {
            Test::Globs(_) => None,
            Test::AnyOf(wanted) => Some(
                wanted
                    .iter()
                    .filter_map(|wanted| match wanted {
                        Wanted::Str(text) => Some(text.as_str()),
                        _ => None,
                    })
                    .collect(),
            ),
        }
    }

    /// True when the fact's field matches one of the wanted values.
    pub(crate) fn matches(&self, fact: &Fact) -> bool {
        match &self.test {
            Test::Globs(globs) => globs.iter().any(|alternatives| {
                alternatives
                    .iter()
                    .any(|glob| glob.is_match(&*fact.evidence.file))
            }),
            Test::AnyOf(wanted) => {
                // An absent field never matches.
                let Some(actual) = self.field.read(fact) else {
                    return false;
                };
                let is_extractor = self.field == FieldRef::Extractor;
                wanted
                    .iter()
                    .any(|wanted| scalar_matches(actual, wanted, is_extractor))
            }
        }
    }
}

fn scalar_matches(actual: FieldValue<'_>, wanted: &Wanted, is_extractor: bool) -> bool {
    match (actual, wanted) {
        (FieldValue::Str(actual), Wanted::Str(wanted)) => {
            actual == wanted || (is_extractor && extractor_answers_to(actual, wanted))
        }
        (FieldValue::Int(actual), Wanted::Int(wanted)) => actual == *wanted,
        (FieldValue::Int(actual), Wanted::Float(wanted)) => int_equals_float(actual, *wanted),
        (FieldValue::Bool(actual), Wanted::Bool(wanted)) => actual == *wanted,
        (FieldValue::List(items), Wanted::Str(wanted)) => {
            items.iter().any(|item| item.as_str() == wanted.as_str())
        }
        _ => false,
    }
}

/// Numeric equality of an integer and a float, exact (no rounding of large integers).
fn int_equals_float(integer: i64, float: f64) -> bool {
    if float.fract() != 0.0 || !float.is_finite() {
        return false;
    }
    // i64::MIN..=i64::MAX as f64 is [-2^63, 2^63]; 2^63 itself is outside i64.
    let limit = 9_223_372_036_854_775_808.0_f64;
    if float < -limit || float >= limit {
        return false;
    }
    #[expect(
        clippy::cast_possible_truncation,
        reason = "the float is integral and in range, so the cast is exact"
    )]
    let converted = float as i64;
    converted == integer
}

/// Decodes the entries of the `match` mapping; errors and warnings go to `sink`.
pub(crate) fn decode_match(node: &Node, entries: &[Entry], sink: &mut Sink<'_>) -> Vec<Matcher> {
    if entries.is_empty() {
        sink.push(
            sink.diagnostic(
                Code::MatchesEverything,
                node.span,
                "empty `match` matches every graph fact",
            )
            .with_help("add a `kind` and the properties that identify the construct"),
        );
    }
    let mut matchers = Vec::new();
    for entry in entries {
        let field = FieldRef::for_name(&entry.key);
        let test = if field == FieldRef::File {
            decode_globs(entry, sink).map(Test::Globs)
        } else {
            decode_values(entry, sink).map(Test::AnyOf)
        };
        if let Some(test) = test {
            matchers.push(Matcher {
                key: entry.key.clone(),
                field,
                test,
            });
        }
    }
    matchers
}

/// The value nodes of a match entry: the scalar itself or the list's items.
fn value_nodes<'a>(entry: &'a Entry, sink: &mut Sink<'_>) -> Option<Vec<&'a Node>> {
    let key = &entry.key;
    match &entry.value.value {
        Value::Mapping(_) => {
            sink.push(
                sink.diagnostic(
                    Code::InvalidMatch,
                    entry.value.span,
                    format!(
                        "`match.{key}` is a mapping: match values are scalars or lists of scalars"
                    ),
                )
                .with_help(
                    "match nested data through a property name, e.g. `valueEnum: OrderStatus`",
                ),
            );
            None
        }
        Value::Sequence(items) if items.is_empty() => {
            sink.report(
                Code::InvalidMatch,
                entry.value.span,
                format!("`match.{key}` is an empty list: it would match nothing"),
            );
            None
        }
        Value::Sequence(items) => {
            let mut is_valid = true;
            for item in items {
                if !matches!(&item.value, Value::Scalar(scalar) if scalar.kind != ScalarKind::Null)
                {
                    sink.report(
                        Code::InvalidMatch,
                        item.span,
                        format!(
                            "`match.{key}` lists {}: list items must be strings, numbers or Booleans",
                            item.describe()
                        ),
                    );
                    is_valid = false;
                }
            }
            is_valid.then(|| items.iter().collect())
        }
        Value::Scalar(scalar) if scalar.kind == ScalarKind::Null => {
            sink.push(
                sink.diagnostic(
                    Code::InvalidMatch,
                    entry.value.span,
                    format!("`match.{key}` is null: an absent field never matches"),
                )
                .with_help(format!("give `{key}` a value, or remove the key")),
            );
            None
        }
        Value::Scalar(_) => Some(vec![&entry.value]),
    }
}

fn decode_values(entry: &Entry, sink: &mut Sink<'_>) -> Option<Vec<Wanted>> {
    let nodes = value_nodes(entry, sink)?;
    Some(
        nodes
            .into_iter()
            .filter_map(|node| match &node.value {
                Value::Scalar(scalar) => match scalar.kind {
                    ScalarKind::Str => Some(Wanted::Str(scalar.text.clone())),
                    ScalarKind::Int(number) => Some(Wanted::Int(number)),
                    ScalarKind::Float(number) => Some(Wanted::Float(number)),
                    ScalarKind::Bool(flag) => Some(Wanted::Bool(flag)),
                    ScalarKind::Null => None,
                },
                Value::Sequence(_) | Value::Mapping(_) => None,
            })
            .collect(),
    )
}

fn decode_globs(entry: &Entry, sink: &mut Sink<'_>) -> Option<Vec<Vec<GlobMatcher>>> {
    let nodes = value_nodes(entry, sink)?;
    let mut globs = Vec::new();
    let mut is_valid = true;
    for node in nodes {
        let Some(pattern) = node.as_str() else {
            sink.report(
                Code::InvalidGlob,
                node.span,
                format!("`match.file` takes glob strings, found {}", node.describe()),
            );
            is_valid = false;
            continue;
        };
        match compile_glob(pattern) {
            Ok(alternatives) => globs.push(alternatives),
            Err(reason) => {
                let quoted = policies::limits::quoted_glob(pattern);
                sink.push(
                    sink.diagnostic(
                        Code::InvalidGlob,
                        node.span,
                        format!("invalid glob `{quoted}`: {reason}"),
                    )
                    .with_help("globs use `*`, `?`, `**`, `[...]` and `{a,b}`, relative to the project root"),
                );
                is_valid = false;
            }
        }
    }
    is_valid.then_some(globs)
}

/// Compiles a `file` glob with the glob syntax of `component` (policies/LANGUAGE.md): `./` is stripped, braces are expanded (no
/// nesting), a trailing `/` means `dir/**`, and `*`/`?` never cross `/`.
fn compile_glob(pattern: &str) -> Result<Vec<GlobMatcher>, String> {
    if let Some(problem) = policies::limits::glob_size_problem(pattern) {
        return Err(problem);
    }
    let mut stripped = pattern;
    while let Some(rest) = stripped.strip_prefix("./") {
        stripped = rest;
    }
    if stripped.is_empty() {
        return Err("a glob cannot be empty".into());
    }
    let bytes = stripped.as_bytes();
    let has_drive =
        bytes.get(1) == Some(&b':') && bytes.first().is_some_and(u8::is_ascii_alphabetic);
    if stripped.starts_with(['/', '\\']) || has_drive {
        return Err("globs are relative to the project root".into());
    }
    if stripped.split('/').any(|segment| segment == "..") {
        return Err("globs cannot leave the project root with `..`".into());
    }
    if policies::limits::has_nested_alternatives(stripped) {
        return Err("`{…}` alternatives cannot nest".into());
    }
    expand_braces(stripped)
        .into_iter()
        .map(|alternative| {
            let alternative = if alternative.ends_with('/') {
                format!("{alternative}**")
            } else {
                alternative
            };
            GlobBuilder::new(&alternative)
                .literal_separator(true)
                .build()
                .map(|glob| glob.compile_matcher())
                .map_err(|error| error.kind().to_string())
        })
        .collect()
}

/// Expands non-nested `{a,b}` groups, as the component mapping does; a group without a closing
/// `}` is left to the glob compiler, which rejects it.
fn expand_braces(glob: &str) -> Vec<String> {
    let mut alternatives = vec![String::new()];
    let mut rest = glob;
    while let Some(open) = rest.find('{') {
        let (before, after_open) = rest.split_at(open);
        let Some(close) = after_open.find('}') else {
            break;
        };
        for alternative in &mut alternatives {
            alternative.push_str(before);
        }
        let group = after_open.get(1..close).unwrap_or_default();
        let mut expanded = Vec::new();
        for alternative in &alternatives {
            for choice in group.split(',') {
                if expanded.len() < MAX_ALTERNATIVES {
                    expanded.push(format!("{alternative}{choice}"));
                }
            }
        }
        alternatives = expanded;
        rest = after_open.get(close + 1..).unwrap_or_default();
    }
    for alternative in &mut alternatives {
        alternative.push_str(rest);
    }
    alternatives
}
