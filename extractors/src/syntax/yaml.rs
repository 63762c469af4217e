//! A YAML document as a small tree with 1-based positions, built from `yaml-rust2`'s marked
//! event parser without recursion. Aliases stay unexpanded (an alias node has no value), so a
//! document cannot blow up through references.

use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;

/// A YAML value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Value {
    /// A scalar, as written (no type resolution: `on` stays `on`).
    Scalar(String),
    /// A sequence.
    Sequence(Vec<Node>),
    /// A mapping, in document order.
    Mapping(Vec<(Node, Node)>),
    /// An alias (`*anchor`), not expanded.
    Alias,
}

/// A YAML node and where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Node {
    /// Its value.
    pub value: Value,
    /// 1-based line and column of its first character.
    pub start: (u32, u32),
}

impl Node {
    /// The scalar text, if the node is a scalar.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Scalar(text) => Some(text),
            _ => None,
        }
    }

    /// The value of `key` in a mapping node.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entries()
            .iter()
            .find(|(name, _)| name.as_str() == Some(key))
            .map(|(_, value)| value)
    }

    /// The entries of a mapping node (empty otherwise).
    pub fn entries(&self) -> &[(Node, Node)] {
        match &self.value {
            Value::Mapping(entries) => entries,
            _ => &[],
        }
    }

    /// The items of a sequence node (empty otherwise).
    pub fn items(&self) -> &[Node] {
        match &self.value {
            Value::Sequence(items) => items,
            _ => &[],
        }
    }

    /// A scalar as a one-item list, a sequence's scalars as a list, anything else empty.
    pub fn string_list(&self) -> Vec<String> {
        match &self.value {
            Value::Scalar(text) => vec![text.clone()],
            Value::Sequence(items) => items
                .iter()
                .filter_map(|item| item.as_str().map(str::to_owned))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The (1-based) end of the node's first line: after the scalar for a scalar.
    pub fn end(&self) -> (u32, u32) {
        let (line, column) = self.start;
        match &self.value {
            Value::Scalar(text) => {
                let first_line = text.lines().next().unwrap_or_default();
                let width = u32::try_from(first_line.chars().count()).unwrap_or(u32::MAX);
                (line, column.saturating_add(width))
            }
            _ => (line, column.saturating_add(1)),
        }
    }

    /// Every scalar in the subtree, in document order (an explicit stack, no recursion).
    pub fn scalars(&self) -> Vec<&Node> {
        let mut found = Vec::new();
        let mut pending = vec![self];
        while let Some(node) = pending.pop() {
            match &node.value {
                Value::Scalar(_) => found.push(node),
                Value::Sequence(items) => pending.extend(items.iter().rev()),
                Value::Mapping(entries) => {
                    for (key, value) in entries.iter().rev() {
                        pending.push(value);
                        pending.push(key);
                    }
                }
                Value::Alias => {}
            }
        }
        found
    }
}

/// An open collection while the tree is being built.
enum Open {
    Sequence(Vec<Node>, (u32, u32)),
    Mapping(Vec<Node>, (u32, u32)),
}

#[derive(Default)]
struct Builder {
    stack: Vec<Open>,
    /// The root of each document read.
    roots: Vec<Node>,
}

impl Builder {
    fn push_value(&mut self, node: Node) {
        match self.stack.last_mut() {
            Some(Open::Sequence(items, _) | Open::Mapping(items, _)) => items.push(node),
            None => self.roots.push(node),
        }
    }
}

fn position(mark: Marker) -> (u32, u32) {
    let line = u32::try_from(mark.line()).unwrap_or(u32::MAX);
    let column = u32::try_from(mark.col() + 1).unwrap_or(u32::MAX);
    (line.max(1), column)
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, event: Event, mark: Marker) {
        let start = position(mark);
        match event {
            Event::Scalar(text, ..) => self.push_value(Node {
                value: Value::Scalar(text),
                start,
            }),
            Event::Alias(_) => self.push_value(Node {
                value: Value::Alias,
                start,
            }),
            Event::SequenceStart(..) => self.stack.push(Open::Sequence(Vec::new(), start)),
            Event::MappingStart(..) => self.stack.push(Open::Mapping(Vec::new(), start)),
            Event::SequenceEnd | Event::MappingEnd => {
                let node = match self.stack.pop() {
                    Some(Open::Sequence(items, start)) => Node {
                        value: Value::Sequence(items),
                        start,
                    },
                    Some(Open::Mapping(flat, start)) => {
                        let mut entries = Vec::with_capacity(flat.len() / 2);
                        let mut flat = flat.into_iter();
                        while let (Some(key), Some(value)) = (flat.next(), flat.next()) {
                            entries.push((key, value));
                        }
                        Node {
                            value: Value::Mapping(entries),
                            start,
                        }
                    }
                    None => return,
                };
                self.push_value(node);
            }
            Event::Nothing
            | Event::StreamStart
            | Event::StreamEnd
            | Event::DocumentStart
            | Event::DocumentEnd => {}
        }
    }
}

/// Parses the first document of a YAML text; the error names the line and column.
pub(crate) fn parse(text: &str) -> Result<Option<Node>, String> {
    Ok(load(text, false)?.roots.into_iter().next())
}

/// Parses every document of a YAML text (`---` separated), in order.
pub(crate) fn parse_all(text: &str) -> Result<Vec<Node>, String> {
    Ok(load(text, true)?.roots)
}

/// How many closing brackets [`load`] re-indents before it gives up.
const MAX_REINDENTS: usize = 32;

/// Loads a YAML text. A flow collection whose closing bracket stands alone on a line at its
/// key's indentation (`test-case: [` … `]`, as DefectDojo's integration tests list their cases)
/// is outside YAML's indentation rule, but GitHub and libyaml read it: the line is read at the
/// indentation of the entry before it (the line numbers, and every node's position, stay).
fn load(text: &str, multi: bool) -> Result<Builder, String> {
    let mut rewritten: Option<String> = None;
    let mut reindents = 0;
    loop {
        let current = rewritten.as_deref().unwrap_or(text);
        let mut builder = Builder::default();
        let mut parser = Parser::new_from_str(current);
        let Err(error) = parser.load(&mut builder, multi) else {
            return Ok(builder);
        };
        let (line, column) = position(*error.marker());
        if reindents < MAX_REINDENTS {
            if let Some(fixed) = reindent_closing_bracket(current, line) {
                rewritten = Some(fixed);
                reindents += 1;
                continue;
            }
        }
        return Err(format!(
            "invalid YAML at line {line}, column {column}: {}",
            error.info()
        ));
    }
}

/// The text with its 1-based `line` indented as the last entry before it, when that line holds
/// only closing brackets (`]`, `}`, with commas) and is indented less than that entry.
fn reindent_closing_bracket(text: &str, line: u32) -> Option<String> {
    let index = usize::try_from(line).ok()?.checked_sub(1)?;
    let lines: Vec<&str> = text.split('\n').collect();
    let target = *lines.get(index)?;
    let body = target.trim_start_matches(' ');
    let closes = body
        .trim_end()
        .chars()
        .all(|character| matches!(character, ']' | '}' | ',' | ' '));
    if body.trim().is_empty() || !closes {
        return None;
    }
    let indentation = |row: &str| row.len() - row.trim_start_matches(' ').len();
    let entry = lines.get(..index)?.iter().rev().find(|row| {
        let content = row.trim();
        !content.is_empty() && !content.starts_with('#')
    })?;
    let wanted = indentation(entry);
    if wanted <= indentation(target) {
        return None;
    }
    let mut fixed = String::with_capacity(text.len() + wanted);
    for (number, row) in lines.iter().enumerate() {
        if number > 0 {
            fixed.push('\n');
        }
        if number == index {
            fixed.extend(std::iter::repeat_n(' ', wanted));
            fixed.push_str(body);
        } else {
            fixed.push_str(row);
        }
    }
    Some(fixed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flow_sequence_closed_at_its_keys_indentation_is_read_in_place() {
        let text = "matrix:\n  cases: [\n    \"a\",\n    \"b\",\n  ]\n  os: [debian]\n";
        let root = parse(text).unwrap().unwrap();
        let cases = root.get("matrix").unwrap().get("cases").unwrap();
        let items: Vec<_> = cases.items().iter().map(|item| item.as_str()).collect();
        assert_eq!(items, [Some("a"), Some("b")]);
        assert_eq!(cases.items()[1].start, (4, 5));
        assert_eq!(root.get("matrix").unwrap().get("os").unwrap().start, (6, 7));
    }

    #[test]
    fn other_errors_are_still_errors() {
        let error = parse("a: [1, 2\nb: 3\n").unwrap_err();
        assert!(error.starts_with("invalid YAML at line "), "{error}");
        assert!(parse("a:\n  b: 1\n c: 2\n").is_err());
    }
}
