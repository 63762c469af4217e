//! Expected-fact annotations in fixture sources (style §7).
//!
//! A comment line `// ^ fact: <kind> key=value !key …` (`# ^ fact:` in Python and YAML) describes
//! one fact produced by the nearest line above it that is not itself an annotation. `key` is a
//! property name, or one of `confidence`, `technology`, `route`, `target`, `scope`, `column`;
//! lists are written `[a,b]`, values with spaces in double quotes, `\n` stands for a newline;
//! `!key` requires the key to be absent. Every fact of a fixture must match exactly one annotation.

use policies::facts::{Fact, PropertyValue};

/// One expected fact.
#[derive(Debug, Clone)]
pub struct Annotation {
    pub line: u32,
    pub kind: String,
    pub present: Vec<(String, String)>,
    pub absent: Vec<String>,
}

/// The annotations of one source file.
pub fn parse(source: &str) -> Vec<Annotation> {
    let mut annotations = Vec::new();
    let mut code_line = 0;
    for (index, line) in source.lines().enumerate() {
        let trimmed = line.trim_start();
        let Some(body) = trimmed
            .strip_prefix("// ^ fact:")
            .or_else(|| trimmed.strip_prefix("# ^ fact:"))
        else {
            code_line = u32::try_from(index + 1).unwrap();
            continue;
        };
        let mut tokens = tokenize(body).into_iter();
        let kind = tokens.next().expect("an annotation names a fact kind");
        let mut annotation = Annotation {
            line: code_line,
            kind,
            present: Vec::new(),
            absent: Vec::new(),
        };
        for token in tokens {
            if let Some(key) = token.strip_prefix('!') {
                annotation.absent.push(key.to_owned());
            } else {
                let (key, value) = token
                    .split_once('=')
                    .expect("annotation tokens are key=value or !key");
                annotation
                    .present
                    .push((key.to_owned(), value.replace("\\n", "\n")));
            }
        }
        annotations.push(annotation);
    }
    annotations
}

/// Splits on whitespace outside double quotes and removes the quotes.
fn tokenize(body: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for character in body.chars() {
        match character {
            '"' => quoted = !quoted,
            _ if character.is_whitespace() && !quoted => {
                if !current.is_empty() {
                    tokens.push(std::mem::take(&mut current));
                }
            }
            _ => current.push(character),
        }
    }
    if !current.is_empty() {
        tokens.push(current);
    }
    tokens
}

/// The value a fact has for an annotation key, rendered as annotations write it.
fn value_of(fact: &Fact, key: &str) -> Option<String> {
    match key {
        "confidence" => Some(fact.confidence.as_str().to_owned()),
        "technology" => fact.technology.as_deref().map(str::to_owned),
        "route" => fact.route.as_deref().map(str::to_owned),
        "scope" => fact.evidence.scope.as_deref().map(str::to_owned),
        "column" => Some(fact.evidence.column.to_string()),
        "target" => fact.target.as_deref().map(str::to_owned),
        _ => fact.properties.get(key).map(|value| match value {
            PropertyValue::Str(text) => text.to_string(),
            PropertyValue::Bool(flag) => flag.to_string(),
            PropertyValue::Int(number) => number.to_string(),
            PropertyValue::List(items) => format!(
                "[{}]",
                items
                    .iter()
                    .map(|item| item.as_str())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        }),
    }
}

impl Annotation {
    /// Whether `fact` is the fact this annotation describes.
    pub fn matches(&self, fact: &Fact) -> bool {
        fact.evidence.line == self.line
            && fact.kind.as_str() == self.kind
            && self
                .present
                .iter()
                .all(|(key, expected)| value_of(fact, key).as_deref() == Some(expected.as_str()))
            && self.absent.iter().all(|key| value_of(fact, key).is_none())
    }
}

/// Matches facts to annotations one to one; returns a description of every mismatch.
pub fn check(file: &str, facts: &[Fact], annotations: &[Annotation]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut used = vec![false; facts.len()];
    for annotation in annotations {
        let found = facts
            .iter()
            .enumerate()
            .find(|(index, fact)| !used[*index] && annotation.matches(fact));
        match found {
            Some((index, _)) => used[index] = true,
            None => {
                let candidates: Vec<String> = facts
                    .iter()
                    .filter(|fact| fact.evidence.line == annotation.line)
                    .map(describe)
                    .collect();
                problems.push(format!(
                    "{file}:{}: no fact matches `{} {:?} !{:?}`; facts on that line: {candidates:#?}",
                    annotation.line, annotation.kind, annotation.present, annotation.absent
                ));
            }
        }
    }
    for (fact, _) in facts.iter().zip(&used).filter(|(_, used)| !**used) {
        problems.push(format!(
            "{file}:{}: unannotated fact {}",
            fact.evidence.line,
            describe(fact)
        ));
    }
    problems
}

/// A one-line description of a fact for failure messages.
pub fn describe(fact: &Fact) -> String {
    let properties: Vec<String> = fact
        .properties
        .keys()
        .filter(|key| *key != "language")
        .map(|key| format!("{key}={}", value_of(fact, key).unwrap_or_default()))
        .collect();
    format!(
        "{} confidence={} technology={:?} route={:?} scope={:?} column={} {}",
        fact.kind.as_str(),
        fact.confidence.as_str(),
        fact.technology,
        fact.route,
        fact.evidence.scope,
        fact.evidence.column,
        properties.join(" ")
    )
}
