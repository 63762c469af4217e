//! `enum` and `data`: closed value sets and domain types.
//!
//! # What it checks
//! An enum has at least one value (`empty-enum`) and no repeats (`duplicate-enum-value`).
//! A data declaration's fields are unique (`duplicate-field`) and their types resolve to
//! primitives, `List<T>`, `Optional<T>`, `Map<K, V>`, `T[]`, unions, or declared enums and data
//! (`unknown-type`, `invalid-type-expr` for a wrong number of type arguments).
//! `classification: pii` and `jurisdiction: eu` (a lowercase single word) are labels, not fields.
//!
//! # Why
//! Machines, value policies and permissions type-check their states, paths and literals
//! against these declarations, and data and trust policies read the labels.
//!
//! # Passing example
//! `enum Phase { Empty | Single | Multi }` and
//! `data Cart { classification: pii  phase: Phase  lines: Line[]  note: Optional<String> }`
//!
//! # Failing example
//! `enum Phase { A | A }` gives `duplicate-enum-value`; `lines: Lst<Line>` gives `unknown-type`.
//!
//! # SMT encoding
//! Data names are constants of the uninterpreted sort `Data`; enum members are the states of
//! machine slices; value paths are encoded over `Int`, `Real`, `String` and `Bool`.

use std::collections::BTreeMap;

use super::names::{ModelKind, Symbols};
use super::Checker;
use crate::error::{Code, SpecError};
use crate::model::{Data, DataField, Enum, TypeExpr};
use crate::syntax::ast::{DataDecl, EnumDecl, FieldDecl, TypeSyntax, TypeTerm};
use crate::syntax::Span;
use crate::vocab::{self, PRIMITIVE_TYPES};

/// True when a data entry is a `classification` or `jurisdiction` label: its type is one
/// lowercase (or `_`) name without arguments or `[]`.
pub fn is_label(field: &FieldDecl) -> bool {
    if !matches!(field.name.text.as_str(), "classification" | "jurisdiction") {
        return false;
    }
    match field.type_expr.terms.as_slice() {
        [term] => {
            term.arguments.is_none()
                && term.array_depth == 0
                && term
                    .name
                    .text
                    .starts_with(|first: char| first.is_ascii_lowercase() || first == '_')
        }
        _ => false,
    }
}

/// A problem in a type expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeProblem {
    /// `unknown-type` or `invalid-type-expr`.
    pub code: Code,
    /// Where.
    pub span: Span,
    /// The message, without the field context.
    pub message: String,
    /// A suggested type name.
    pub suggestion: Option<String>,
}

/// Resolves a written type against the declared enums and data.
pub fn lower_type(symbols: &Symbols<'_>, syntax: &TypeSyntax) -> Result<TypeExpr, TypeProblem> {
    let mut members = Vec::new();
    for term in &syntax.terms {
        members.push(lower_term(symbols, term)?);
    }
    if members.len() == 1 {
        if let Some(only) = members.pop() {
            return Ok(only);
        }
    }
    Ok(TypeExpr::Union { members })
}

fn lower_term(symbols: &Symbols<'_>, term: &TypeTerm) -> Result<TypeExpr, TypeProblem> {
    let name = term.name.text.as_str();
    let mut lowered = match (&term.arguments, declared_type(symbols, name)) {
        (Some(arguments), _) if is_generic(name) => lower_generic(symbols, term, arguments)?,
        (None, Some(found)) => found,
        (None, None) if is_generic(name) => return Err(arity_problem(term)),
        (Some(_), Some(_)) => {
            let message = format!("`{name}` takes no type arguments");
            return Err(TypeProblem {
                code: Code::InvalidTypeExpr,
                span: term.name.span,
                message,
                suggestion: None,
            });
        }
        (_, None) => return Err(unknown_type(symbols, term)),
    };
    for _ in 0..term.array_depth {
        lowered = TypeExpr::List {
            element: Box::new(lowered),
        };
    }
    Ok(lowered)
}

fn is_generic(name: &str) -> bool {
    matches!(name, "List" | "Optional" | "Map")
}

fn arity_problem(term: &TypeTerm) -> TypeProblem {
    let name = term.name.text.as_str();
    let count = if name == "Map" {
        "two type arguments"
    } else {
        "one type argument"
    };
    TypeProblem {
        code: Code::InvalidTypeExpr,
        span: term.name.span,
        message: format!("`{name}` needs {count}"),
        suggestion: None,
    }
}

fn unknown_type(symbols: &Symbols<'_>, term: &TypeTerm) -> TypeProblem {
    let name = term.name.text.as_str();
    let candidates = PRIMITIVE_TYPES
        .iter()
        .copied()
        .chain(["List", "Optional", "Map"])
        .chain(symbols.names_of(ModelKind::Enum))
        .chain(symbols.names_of(ModelKind::Data));
    let suggestion = vocab::suggest(name, candidates).map(str::to_owned);
    TypeProblem {
        code: Code::UnknownType,
        span: term.name.span,
        message: format!("unknown type `{name}`"),
        suggestion,
    }
}

/// `List<T>`, `Optional<T>`, `Map<K, V>`.
fn lower_generic(
    symbols: &Symbols<'_>,
    term: &TypeTerm,
    arguments: &[TypeSyntax],
) -> Result<TypeExpr, TypeProblem> {
    let mut lowered = Vec::new();
    for argument in arguments {
        lowered.push(Box::new(lower_type(symbols, argument)?));
    }
    let mut lowered = lowered.into_iter();
    match (term.name.text.as_str(), lowered.next(), lowered.next()) {
        ("Map", Some(key), Some(value)) => Ok(TypeExpr::Map { key, value }),
        ("List", Some(element), None) => Ok(TypeExpr::List { element }),
        ("Optional", Some(inner), None) => Ok(TypeExpr::Optional { inner }),
        _ => Err(arity_problem(term)),
    }
}

fn declared_type(symbols: &Symbols<'_>, name: &str) -> Option<TypeExpr> {
    if PRIMITIVE_TYPES.contains(&name) {
        return Some(TypeExpr::Primitive {
            name: name.to_owned(),
        });
    }
    match symbols.model_kind(name) {
        Some(ModelKind::Enum) => Some(TypeExpr::Enum {
            name: name.to_owned(),
        }),
        Some(ModelKind::Data) => Some(TypeExpr::Data {
            name: name.to_owned(),
        }),
        _ => None,
    }
}

impl Checker<'_> {
    /// Checks an enum and adds it to the model.
    pub fn check_enum(&mut self, decl: &EnumDecl) {
        if decl.values.is_empty() {
            let message = format!("enum `{}` has no values", decl.name.text);
            self.report(Code::EmptyEnum, decl.name.span, message);
        }
        let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
        let mut values = Vec::new();
        for value in &decl.values {
            if let Some(first) = seen.get(value.text.as_str()) {
                let message = format!("enum `{}` repeats `{}`", decl.name.text, value.text);
                let error = SpecError::new(Code::DuplicateEnumValue, value.span, message)
                    .with_related(*first, "first declared here");
                self.errors.push(error);
                continue;
            }
            seen.insert(&value.text, value.span);
            values.push(value.text.clone());
        }
        let location = self.location(decl.name.span);
        self.model.enums.push(Enum {
            name: decl.name.text.clone(),
            values,
            location,
        });
    }

    /// Checks a data declaration and adds it to the model.
    pub fn check_data(&mut self, decl: &DataDecl) {
        let mut data = Data {
            name: decl.name.text.clone(),
            fields: Vec::new(),
            classification: None,
            jurisdiction: None,
            location: self.location(decl.name.span),
        };
        let mut labels: BTreeMap<&str, Span> = BTreeMap::new();
        let mut fields: BTreeMap<&str, Span> = BTreeMap::new();
        for field in &decl.fields {
            let key = field.name.text.as_str();
            if is_label(field) {
                if let Some(first) = labels.get(key) {
                    let message = format!("`{key}` is given twice in data `{}`", decl.name.text);
                    let error = SpecError::new(Code::DuplicateKey, field.name.span, message)
                        .with_related(*first, "first given here");
                    self.errors.push(error);
                    continue;
                }
                labels.insert(key, field.name.span);
                let value = field
                    .type_expr
                    .terms
                    .first()
                    .map(|term| term.name.text.clone());
                if key == "classification" {
                    data.classification = value;
                } else {
                    data.jurisdiction = value;
                }
                continue;
            }
            if let Some(first) = fields.get(key) {
                let message = format!("data `{}` repeats field `{key}`", decl.name.text);
                let error = SpecError::new(Code::DuplicateField, field.name.span, message)
                    .with_related(*first, "first declared here");
                self.errors.push(error);
                continue;
            }
            fields.insert(key, field.name.span);
            match lower_type(&self.symbols, &field.type_expr) {
                Ok(type_expr) => {
                    let location = self.location(field.name.span);
                    data.fields.push(DataField {
                        name: key.to_owned(),
                        type_expr,
                        location,
                    });
                }
                Err(problem) => {
                    let message = if problem.code == Code::UnknownType {
                        format!(
                            "{} in field `{key}` of `{}`",
                            problem.message, decl.name.text
                        )
                    } else {
                        problem.message
                    };
                    self.report_with_suggestion(
                        problem.code,
                        problem.span,
                        message,
                        problem.suggestion.as_deref(),
                    );
                }
            }
        }
        self.model.data.push(data);
    }
}
