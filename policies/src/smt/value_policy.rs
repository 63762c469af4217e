//! Encoding of runtime values (see `value_policy` in policies/LANGUAGE.md):
//! every value path is a variable of the datatype `Val`, whose constructors carry a `Real`,
//! a `String`, a `Bool`, or nothing (`null`), so values from different domains are unequal
//! and Z3 decides contradiction and entailment.

use super::slice::{AssertionRole, SliceBuilder};

/// The declaration of the value datatype.
const VALUE_DATATYPE: &str = "(declare-datatypes () ((Val (num (num_of Real)) (str (str_of String)) (bool (bool_of Bool)) (nil))))";

/// A normalised value (see `value_policy` in policies/LANGUAGE.md).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum SmtValue {
    /// An exact decimal as written (`-5`, `1.25`).
    Number(String),
    /// A string (enum members are their member name).
    Text(String),
    /// A Boolean.
    Bool(bool),
    /// `null`.
    Null,
}

/// One of the six relations, as written.
pub fn relation_is_ordering(relation: &str) -> bool {
    matches!(relation, "<" | "<=" | ">" | ">=")
}

/// A decimal as an SMT-LIB `Real` term: `5` → `5.0`, `-1.25` → `(- 1.25)`.
fn real_term(number: &str) -> String {
    let (negative, digits) = match number.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, number),
    };
    let digits: String = digits
        .chars()
        .filter(|character| character.is_ascii_digit() || *character == '.')
        .collect();
    let digits = if digits.is_empty() {
        "0.0".to_owned()
    } else if digits.contains('.') {
        digits
    } else {
        format!("{digits}.0")
    };
    if negative {
        format!("(- {digits})")
    } else {
        digits
    }
}

/// An SMT-LIB string literal: `"` doubled, and every character outside printable ASCII, and
/// the backslash, written as `\u{…}`, so any text is one literal.
pub fn string_literal(text: &str) -> String {
    let mut literal = String::from("\"");
    for character in text.chars() {
        match character {
            '"' => literal.push_str("\"\""),
            ' '..='~' if character != '\\' => literal.push(character),
            other => literal.push_str(&format!("\\u{{{:x}}}", u32::from(other))),
        }
    }
    literal.push('"');
    literal
}

/// The `Val` term of a value.
fn value_term(value: &SmtValue) -> String {
    match value {
        SmtValue::Number(number) => format!("(num {})", real_term(number)),
        SmtValue::Text(text) => format!("(str {})", string_literal(text)),
        SmtValue::Bool(value) => format!("(bool {value})"),
        SmtValue::Null => "nil".to_owned(),
    }
}

/// The constraint `variable relation value`. Ordering relations are defined between numbers
/// only (the engine never emits one over another domain: such a pair is incomparable).
pub fn value_constraint(variable: &str, relation: &str, value: &SmtValue) -> String {
    let term = value_term(value);
    match relation {
        "==" => format!("(= {variable} {term})"),
        "!=" => format!("(not (= {variable} {term}))"),
        ordering => {
            let number = match value {
                SmtValue::Number(number) => real_term(number),
                _ => "0.0".to_owned(),
            };
            format!("(and ((_ is num) {variable}) ({ordering} (num_of {variable}) {number}))")
        }
    }
}

impl SliceBuilder {
    /// The variable that stands for the value at `subject.path`.
    pub fn value_variable(&mut self, subject: &str, path: &str) -> String {
        self.datatype("Val", VALUE_DATATYPE);
        self.unnamed("Val", "value", &format!("{subject}.{path}"))
    }

    /// Fact: the value at `subject.path` satisfies `relation value`.
    pub fn value_fact(
        &mut self,
        name: String,
        fact_id: Option<String>,
        subject: &str,
        path: &str,
        relation: &str,
        value: &SmtValue,
    ) {
        let variable = self.value_variable(subject, path);
        let formula = value_constraint(&variable, relation, value);
        self.track(AssertionRole::Fact, name, formula, fact_id);
    }

    /// The requirement `subject.path relation value`, under `when` (another such triple) if given.
    pub fn require_value(
        &mut self,
        name: String,
        requirement: (&str, &str, &str, &SmtValue),
        when: Option<(&str, &str, &str, &SmtValue)>,
    ) {
        let (subject, path, relation, value) = requirement;
        let variable = self.value_variable(subject, path);
        let required = value_constraint(&variable, relation, value);
        let formula = match when {
            Some((subject, path, relation, value)) => {
                let variable = self.value_variable(subject, path);
                format!(
                    "(=> {} {required})",
                    value_constraint(&variable, relation, value)
                )
            }
            None => required,
        };
        self.track(AssertionRole::Rule, name, formula, None);
    }
}
