//! How a query name (a `match` key or a `$var`) reads a graph fact.
//!
//! `kind`, `subject`, `target`, `technology`, `model` and `route` read the fact itself;
//! `extractor`, `strategy` and `file` read its evidence; every other name reads `properties`.

use policies::facts::{Fact, PropertyValue, Strategy, Text};

/// Which part of a graph fact a name reads.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum FieldRef {
    Kind,
    Subject,
    Target,
    Technology,
    Model,
    Route,
    /// `evidence.extractor`; in `match`, also any alias the extractor declares.
    Extractor,
    /// `evidence.strategy`.
    Strategy,
    /// `evidence.file`; in `match`, a glob.
    File,
    /// `properties[name]`.
    Property(String),
}

/// A value read from a graph fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FieldValue<'a> {
    Str(&'a str),
    Int(i64),
    Bool(bool),
    List(&'a [Text]),
}

impl FieldRef {
    /// Resolves a name: the fact's own fields first, then its properties.
    pub(crate) fn for_name(name: &str) -> Self {
        match name {
            "kind" => Self::Kind,
            "subject" => Self::Subject,
            "target" => Self::Target,
            "technology" => Self::Technology,
            "model" => Self::Model,
            "route" => Self::Route,
            "extractor" => Self::Extractor,
            "strategy" => Self::Strategy,
            "file" => Self::File,
            other => Self::Property(other.to_owned()),
        }
    }

    /// Reads the field; `None` when the fact does not have it.
    pub(crate) fn read<'a>(&self, fact: &'a Fact) -> Option<FieldValue<'a>> {
        let text = |value: &'a Option<Box<str>>| value.as_deref().map(FieldValue::Str);
        match self {
            Self::Kind => Some(FieldValue::Str(fact.kind.as_str())),
            Self::Subject => fact.subject.as_deref().map(FieldValue::Str),
            Self::Target => fact.target.as_deref().map(FieldValue::Str),
            Self::Technology => text(&fact.technology),
            Self::Model => text(&fact.model),
            Self::Route => text(&fact.route),
            Self::Extractor => Some(FieldValue::Str(&fact.evidence.extractor)),
            Self::Strategy => Some(FieldValue::Str(strategy_name(fact.evidence.strategy))),
            Self::File => Some(FieldValue::Str(&fact.evidence.file)),
            Self::Property(name) => fact.properties.get(name).map(|value| match value {
                PropertyValue::Str(text) => FieldValue::Str(text),
                PropertyValue::Int(number) => FieldValue::Int(*number),
                PropertyValue::Bool(flag) => FieldValue::Bool(*flag),
                PropertyValue::List(items) => FieldValue::List(items),
            }),
        }
    }

    /// The text a `$var` substitutes: a list gives its first element, a number or Boolean its
    /// canonical text. `None` for a missing capture (absent or empty).
    pub(crate) fn capture(&self, fact: &Fact) -> Option<String> {
        let text = match self.read(fact)? {
            FieldValue::Str(text) => text.to_owned(),
            FieldValue::Int(number) => number.to_string(),
            FieldValue::Bool(flag) => flag.to_string(),
            FieldValue::List(items) => items.first()?.to_string(),
        };
        (!text.is_empty()).then_some(text)
    }
}

/// The wire name of a strategy (`ast`, `graph`, `config`, `regex`).
pub(crate) fn strategy_name(strategy: Strategy) -> &'static str {
    match strategy {
        Strategy::Ast => "ast",
        Strategy::Graph => "graph",
        Strategy::Config => "config",
        Strategy::Regex => "regex",
    }
}

/// The anchor's analyzer names, declared as aliases by lintel's built-in extractors, so
/// anchor queries that match on `extractor` keep working.
const EXTRACTOR_ALIASES: [(&str, &str); 9] = [
    ("typescript", "TypeScript/Node.js server analyzer"),
    ("csharp", "C# AST/regex analyzer"),
    ("kotlin", "Kotlin regex analyzer"),
    ("python", "Python AST/regex analyzer"),
    ("go", "Go AST/regex analyzer"),
    ("rust", "Rust AST/regex analyzer"),
    ("java", "Java/Spring AST/regex analyzer"),
    ("scala", "Scala regex analyzer"),
    ("swift", "Swift iOS AST/regex analyzer"),
];

/// True when `name` is the extractor itself or one of its declared aliases.
pub(crate) fn extractor_answers_to(extractor: &str, name: &str) -> bool {
    extractor == name
        || EXTRACTOR_ALIASES
            .iter()
            .any(|&(built_in, alias)| built_in == extractor && alias == name)
}
