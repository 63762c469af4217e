//! The `emit` block of a reviewed query: the nine kinds and their fields, and decoding with
//! located errors. Producing a fact from a graph fact is in `produce`.

use super::diagnostic::{closest, Code, Sink};
use super::template::Template;
use super::yaml::{Entry, Node, ScalarKind, Span, Value};

/// The six operators of a value relation (see `value_policy` in policies/LANGUAGE.md).
pub(crate) const RELATIONS: [&str; 6] = ["==", "!=", ">=", "<=", ">", "<"];
/// The phases of an operation event.
pub(crate) const PHASES: [&str; 2] = ["before", "after"];

/// The nine emit kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum EmitKind {
    Transition,
    Flow,
    Operation,
    Auth,
    Encryption,
    Dependency,
    Value,
    OperationEvent,
    Event,
}

/// Whether and how a field must be written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Need {
    Required,
    /// Optional; a missing capture in it means no fact (a precondition was not met).
    Optional,
    /// A transition's `from`: a missing capture means an unguarded write.
    Unguarded,
    /// Exactly one of `path` and `field` (for `value` and `operation_event`).
    PathOrField,
}

/// What a field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Type {
    /// A string template.
    Text,
    /// One of [`RELATIONS`], or a template.
    Relation,
    /// One of [`PHASES`], or a template.
    Phase,
    /// A string template, or a number, Boolean or null written as its text.
    Literal,
    /// The YAML value `false`.
    False,
    /// A dotted path template.
    Path,
}

struct FieldSpec {
    name: &'static str,
    need: Need,
    kind: Type,
}

const fn spec(name: &'static str, need: Need, kind: Type) -> FieldSpec {
    FieldSpec { name, need, kind }
}

const TRANSITION: &[FieldSpec] = &[
    spec("data", Need::Required, Type::Text),
    spec("field", Need::Required, Type::Text),
    spec("from", Need::Unguarded, Type::Text),
    spec("to", Need::Required, Type::Text),
];
const FLOW: &[FieldSpec] = &[
    spec("from", Need::Required, Type::Text),
    spec("to", Need::Required, Type::Text),
];
const OPERATION: &[FieldSpec] = &[
    spec("operation", Need::Required, Type::Text),
    spec("component", Need::Required, Type::Text),
    spec("data", Need::Optional, Type::Text),
];
const AUTH: &[FieldSpec] = &[
    spec("from", Need::Required, Type::Text),
    spec("to", Need::Required, Type::Text),
    spec("authenticated", Need::Required, Type::False),
];
const ENCRYPTION: &[FieldSpec] = &[
    spec("from", Need::Required, Type::Text),
    spec("to", Need::Required, Type::Text),
    spec("encrypted", Need::Required, Type::False),
];
const DEPENDENCY: &[FieldSpec] = &[
    spec("from", Need::Required, Type::Text),
    spec("to", Need::Required, Type::Text),
    spec("interface", Need::Optional, Type::Text),
];
const VALUE: &[FieldSpec] = &[
    spec("subject", Need::Required, Type::Text),
    spec("path", Need::PathOrField, Type::Path),
    spec("field", Need::PathOrField, Type::Path),
    spec("relation", Need::Required, Type::Relation),
    spec("value", Need::Required, Type::Literal),
];
const OPERATION_EVENT: &[FieldSpec] = &[
    spec("operation", Need::Required, Type::Text),
    spec("phase", Need::Required, Type::Phase),
    spec("subject", Need::Required, Type::Text),
    spec("path", Need::PathOrField, Type::Path),
    spec("field", Need::PathOrField, Type::Path),
    spec("relation", Need::Required, Type::Relation),
    spec("value", Need::Required, Type::Literal),
];
const EVENT: &[FieldSpec] = &[
    spec("event", Need::Required, Type::Text),
    spec("scope", Need::Optional, Type::Text),
];

impl EmitKind {
    pub(crate) const ALL: [EmitKind; 9] = [
        Self::Transition,
        Self::Flow,
        Self::Operation,
        Self::Auth,
        Self::Encryption,
        Self::Dependency,
        Self::Value,
        Self::OperationEvent,
        Self::Event,
    ];

    /// The wire name, e.g. `operation_event`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Transition => "transition",
            Self::Flow => "flow",
            Self::Operation => "operation",
            Self::Auth => "auth",
            Self::Encryption => "encryption",
            Self::Dependency => "dependency",
            Self::Value => "value",
            Self::OperationEvent => "operation_event",
            Self::Event => "event",
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == name)
    }

    fn fields(self) -> &'static [FieldSpec] {
        match self {
            Self::Transition => TRANSITION,
            Self::Flow => FLOW,
            Self::Operation => OPERATION,
            Self::Auth => AUTH,
            Self::Encryption => ENCRYPTION,
            Self::Dependency => DEPENDENCY,
            Self::Value => VALUE,
            Self::OperationEvent => OPERATION_EVENT,
            Self::Event => EVENT,
        }
    }
}

/// A validated `emit` block.
#[derive(Debug, Clone)]
pub(crate) struct Emit {
    pub(crate) kind: EmitKind,
    /// The fields the query wrote, in the kind's field order.
    pub(crate) fields: Vec<WrittenField>,
}

/// One field the query wrote.
#[derive(Debug, Clone)]
pub(crate) struct WrittenField {
    pub(crate) name: &'static str,
    pub(crate) need: Need,
    pub(crate) content: Content,
    pub(crate) span: Span,
}

/// What a written field holds after validation.
#[derive(Debug, Clone)]
pub(crate) enum Content {
    Template(Template),
    /// A number, Boolean or null `value`, as text.
    Literal(String),
    /// `authenticated: false` / `encrypted: false`.
    False,
}

/// Decodes the `emit` mapping. Returns `None` when it has errors (already reported).
pub(crate) fn decode_emit(node: &Node, entries: &[Entry], sink: &mut Sink<'_>) -> Option<Emit> {
    let kind_names: Vec<&str> = EmitKind::ALL.iter().map(|kind| kind.as_str()).collect();
    let expected_kinds = format!("expected one of {}", quoted_list(&kind_names));
    let Some(kind_entry) = entries.iter().find(|entry| entry.key == "kind") else {
        sink.push(
            sink.diagnostic(Code::MissingEmitField, node.span, "`emit` has no `kind`")
                .with_help(expected_kinds),
        );
        return None;
    };
    let Some(kind_name) = kind_entry.value.as_str() else {
        sink.report(
            Code::InvalidEmitField,
            kind_entry.value.span,
            format!(
                "`emit.kind` must be a string, found {}",
                kind_entry.value.describe()
            ),
        );
        return None;
    };
    let Some(kind) = EmitKind::from_name(kind_name) else {
        let help = match closest(kind_name, &kind_names) {
            Some(name) => format!("did you mean `{name}`?"),
            None => expected_kinds,
        };
        sink.push(
            sink.diagnostic(
                Code::UnknownEmitKind,
                kind_entry.value.span,
                format!("unknown emit kind `{kind_name}`"),
            )
            .with_help(help),
        );
        return None;
    };

    let errors_before = sink.error_count();
    let field_names: Vec<&str> = kind.fields().iter().map(|field| field.name).collect();
    let mut written: Vec<WrittenField> = Vec::new();
    let mut invalid: Vec<&str> = Vec::new();
    for entry in entries.iter().filter(|entry| entry.key != "kind") {
        let Some(field) = kind.fields().iter().find(|field| field.name == entry.key) else {
            let help = match closest(&entry.key, &field_names) {
                Some(name) => format!("did you mean `{name}`?"),
                None => format!(
                    "a `{}` emit takes {}",
                    kind.as_str(),
                    quoted_list(&field_names)
                ),
            };
            sink.push(
                sink.diagnostic(
                    Code::UnknownEmitField,
                    entry.key_span,
                    format!(
                        "unknown field `{}` in `{}` emit is ignored",
                        entry.key,
                        kind.as_str()
                    ),
                )
                .with_help(help),
            );
            continue;
        };
        match decode_field(field, &entry.value, sink) {
            Some(content) => written.push(WrittenField {
                name: field.name,
                need: field.need,
                content,
                span: entry.value.span,
            }),
            None => invalid.push(field.name),
        }
    }

    for field in kind.fields() {
        let is_present =
            |name: &str| entries.iter().any(|entry| entry.key == name) || invalid.contains(&name);
        if field.need == Need::Required && !is_present(field.name) {
            sink.report(
                Code::MissingEmitField,
                node.span,
                format!("`{}` emit has no `{}`", kind.as_str(), field.name),
            );
        }
    }
    if kind
        .fields()
        .iter()
        .any(|field| field.need == Need::PathOrField)
    {
        let paths: Vec<&Entry> = entries
            .iter()
            .filter(|entry| entry.key == "path" || entry.key == "field")
            .collect();
        match paths.as_slice() {
            [] => sink.report(
                Code::MissingEmitField,
                node.span,
                format!("`{}` emit needs `path` or `field`", kind.as_str()),
            ),
            [_] => {}
            [_, second, ..] => sink.push(
                sink.diagnostic(
                    Code::InvalidEmitField,
                    second.key_span,
                    format!("`{}` emit has both `path` and `field`", kind.as_str()),
                )
                .with_help("keep one: they mean the same dotted path after the subject"),
            ),
        }
    }
    if sink.error_count() > errors_before {
        return None;
    }
    // Field order is the kind's, whatever the order in the file.
    written.sort_by_key(|field| {
        kind.fields()
            .iter()
            .position(|spec| spec.name == field.name)
    });
    Some(Emit {
        kind,
        fields: written,
    })
}

/// Validates one field's value; reports and returns `None` when it is wrong.
fn decode_field(field: &FieldSpec, value: &Node, sink: &mut Sink<'_>) -> Option<Content> {
    let name = field.name;
    if field.kind == Type::False {
        if matches!(&value.value, Value::Scalar(scalar) if scalar.kind == ScalarKind::Bool(false)) {
            return Some(Content::False);
        }
        sink.push(
            sink.diagnostic(
                Code::InvalidEmitField,
                value.span,
                format!("`emit.{name}` must be `false`, found {}", value_text(value)),
            )
            .with_help(format!(
                "this emit records a flow that is not {name}: write `{name}: false`"
            )),
        );
        return None;
    }
    if field.kind == Type::Literal {
        if let Value::Scalar(scalar) = &value.value {
            let text = match scalar.kind {
                ScalarKind::Str => return Some(Content::Template(Template::parse(&scalar.text))),
                ScalarKind::Null => "null".to_owned(),
                ScalarKind::Bool(flag) => flag.to_string(),
                ScalarKind::Int(number) => number.to_string(),
                ScalarKind::Float(number) => float_text(&scalar.text, number),
            };
            return Some(Content::Literal(text));
        }
    }
    let Some(text) = value.as_str() else {
        let allowed = if field.kind == Type::Literal {
            "a string, a number, a Boolean or null"
        } else {
            "a string"
        };
        sink.push(
            sink.diagnostic(
                Code::InvalidEmitField,
                value.span,
                format!(
                    "`emit.{name}` must be {allowed}, found {}",
                    value.describe()
                ),
            )
            .with_optional_help(
                matches!(value.value, Value::Scalar(_))
                    .then(|| format!("quote it: `{name}: \"{}\"`", value_text(value))),
            ),
        );
        return None;
    };
    if text.trim().is_empty() {
        sink.report(
            Code::InvalidEmitField,
            value.span,
            format!("`emit.{name}` is empty"),
        );
        return None;
    }
    let template = Template::parse(text);
    if let Some(literal) = template.literal() {
        let problem = match field.kind {
            Type::Relation if !RELATIONS.contains(&literal.as_str()) => Some(format!(
                "invalid relation `{literal}`: expected {}",
                quoted_list(&RELATIONS)
            )),
            Type::Phase if !PHASES.contains(&literal.as_str()) => Some(format!(
                "invalid phase `{literal}`: expected `before` or `after`"
            )),
            Type::Path if literal.split('.').any(str::is_empty) => Some(format!(
                "`emit.{name}` `{literal}` is not a dotted path such as `items.length`"
            )),
            _ => None,
        };
        if let Some(problem) = problem {
            sink.report(Code::InvalidEmitField, value.span, problem);
            return None;
        }
    }
    Some(Content::Template(template))
}

/// A scalar's text for messages (`true`, `5`, `null`), or its description for collections.
fn value_text(value: &Node) -> String {
    match &value.value {
        Value::Scalar(scalar) if scalar.kind == ScalarKind::Null => "null".to_owned(),
        Value::Scalar(scalar) => format!("`{}`", scalar.text),
        Value::Sequence(_) | Value::Mapping(_) => value.describe().to_owned(),
    }
}

/// A float `value` as text: as written when it is a plain decimal (the engine reads
/// `-?\d+(\.\d+)?` as an exact number), otherwise Rust's shortest round-trip text.
fn float_text(written: &str, number: f64) -> String {
    let unsigned = written.strip_prefix('-').unwrap_or(written);
    let is_plain_decimal = match unsigned.split_once('.') {
        Some((whole, fraction)) => {
            !whole.is_empty()
                && !fraction.is_empty()
                && whole.bytes().all(|byte| byte.is_ascii_digit())
                && fraction.bytes().all(|byte| byte.is_ascii_digit())
        }
        None => false,
    };
    if is_plain_decimal {
        written.to_owned()
    } else {
        number.to_string()
    }
}

/// `` `a`, `b` or `c` ``.
pub(crate) fn quoted_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}
