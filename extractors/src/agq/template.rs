//! `$var` templates in emit strings of reviewed queries.
//!
//! `$name` (name: `[A-Za-z_][A-Za-z0-9_]*`) is replaced by the named field of the graph fact,
//! resolved like a `match` key; `$$` is a literal `$`. A `$` followed by anything else is kept
//! as written.

use std::collections::BTreeMap;

use policies::facts::Fact;

use super::fields::FieldRef;

/// A parsed emit string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Template {
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    Capture { name: String, field: FieldRef },
}

impl Template {
    /// Parses an emit string. Parsing never fails: every string is a valid template.
    pub(crate) fn parse(source: &str) -> Self {
        let mut parts = Vec::new();
        let mut text = String::new();
        let mut rest = source;
        while let Some(dollar) = rest.find('$') {
            text.push_str(rest.get(..dollar).unwrap_or_default());
            let after = rest.get(dollar + 1..).unwrap_or_default();
            if let Some(tail) = after.strip_prefix('$') {
                text.push('$');
                rest = tail;
                continue;
            }
            let name_length = capture_name_length(after);
            if name_length == 0 {
                text.push('$');
                rest = after;
                continue;
            }
            let name = after.get(..name_length).unwrap_or_default();
            if !text.is_empty() {
                parts.push(Part::Text(std::mem::take(&mut text)));
            }
            parts.push(Part::Capture {
                name: name.to_owned(),
                field: FieldRef::for_name(name),
            });
            rest = after.get(name_length..).unwrap_or_default();
        }
        text.push_str(rest);
        if !text.is_empty() {
            parts.push(Part::Text(text));
        }
        Self { parts }
    }

    /// The text, when the template has no captures (a literal, after `$$` unescaping).
    pub(crate) fn literal(&self) -> Option<String> {
        let mut literal = String::new();
        for part in &self.parts {
            match part {
                Part::Text(text) => literal.push_str(text),
                Part::Capture { .. } => return None,
            }
        }
        Some(literal)
    }

    /// Substitutes the captures from `fact`. Every capture that resolved is recorded in
    /// `substitutions`. Returns the missing capture names (absent or empty) when any is missing.
    pub(crate) fn substitute(
        &self,
        fact: &Fact,
        substitutions: &mut BTreeMap<String, String>,
    ) -> Result<String, Vec<String>> {
        let mut output = String::new();
        let mut missing: Vec<String> = Vec::new();
        for part in &self.parts {
            match part {
                Part::Text(text) => output.push_str(text),
                Part::Capture { name, field } => match field.capture(fact) {
                    Some(value) => {
                        output.push_str(&value);
                        substitutions.insert(name.clone(), value);
                    }
                    None => {
                        if !missing.contains(name) {
                            missing.push(name.clone());
                        }
                    }
                },
            }
        }
        if missing.is_empty() {
            Ok(output)
        } else {
            Err(missing)
        }
    }
}

/// The byte length of the capture name at the start of `text` (0 when there is none).
fn capture_name_length(text: &str) -> usize {
    let mut length = 0;
    for (index, character) in text.char_indices() {
        let is_name_char = if index == 0 {
            character.is_ascii_alphabetic() || character == '_'
        } else {
            character.is_ascii_alphanumeric() || character == '_'
        };
        if !is_name_char {
            break;
        }
        length = index + character.len_utf8();
    }
    length
}
