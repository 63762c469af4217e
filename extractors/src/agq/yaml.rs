//! A small YAML tree that remembers where every node came from.
//!
//! `yaml-rust2`'s event parser gives positions but no tree, and `serde_yaml` gives a tree but no
//! positions, so this module builds its own tree from the event stream, with an explicit stack
//! (no recursion on user input). Scalars are typed by the YAML 1.2 core schema. Aliases are
//! rejected rather than expanded, so a query file cannot blow up in memory, and nesting is
//! bounded. Nothing here knows what a query is.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// Collections nest at most this deep; a query needs three levels.
pub(crate) const MAX_DEPTH: usize = 64;

/// A location in a query file: 1-based line and column (in Unicode scalar values) and byte offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub(crate) struct Span {
    pub(crate) line: u32,
    pub(crate) column: u32,
    pub(crate) offset: usize,
    pub(crate) end_offset: usize,
}

/// One YAML node with its location.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    pub(crate) span: Span,
    pub(crate) value: Value,
}

/// The three kinds of YAML node.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Scalar(Scalar),
    Sequence(Vec<Node>),
    /// Entries in source order; keys are unique (duplicates are reported and dropped).
    Mapping(Vec<Entry>),
}

/// One key/value pair of a mapping. Keys are scalars, kept as written.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entry {
    pub(crate) key: String,
    pub(crate) key_span: Span,
    pub(crate) value: Node,
}

/// A scalar: its text as written (after unescaping) and its core-schema type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Scalar {
    pub(crate) text: String,
    pub(crate) kind: ScalarKind,
}

/// The YAML 1.2 core-schema type of a scalar. Quoted scalars and `!!str` are always strings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum ScalarKind {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str,
}

/// One non-empty YAML document of a file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Document {
    /// 0-based position among all documents of the file, empty ones included.
    pub(crate) index: usize,
    pub(crate) root: Node,
}

/// A YAML-level problem: a syntax error, an alias, a duplicate key, too deep a nesting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct YamlProblem {
    pub(crate) span: Span,
    pub(crate) message: String,
    /// A related location, e.g. where a duplicated key first appears.
    pub(crate) related: Option<(Span, String)>,
}

impl Node {
    /// What the node is, for messages: "a string", "a number", "a mapping", …
    pub(crate) fn describe(&self) -> &'static str {
        match &self.value {
            Value::Scalar(scalar) => match scalar.kind {
                ScalarKind::Null => "null",
                ScalarKind::Bool(_) => "a Boolean",
                ScalarKind::Int(_) | ScalarKind::Float(_) => "a number",
                ScalarKind::Str => "a string",
            },
            Value::Sequence(_) => "a sequence",
            Value::Mapping(_) => "a mapping",
        }
    }

    /// The text of a string scalar.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Scalar(Scalar {
                text,
                kind: ScalarKind::Str,
            }) => Some(text),
            _ => None,
        }
    }
}

/// Parses every document of `source`. Documents that parsed completely and cleanly before a
/// syntax error are kept; a document with an alias, a bad key or too deep a nesting is not.
pub(crate) fn parse_documents(source: &str) -> (Vec<Document>, Vec<YamlProblem>) {
    let (text, bom) = match source.strip_prefix('\u{feff}') {
        Some(rest) => (rest, '\u{feff}'.len_utf8()),
        None => (source, 0),
    };
    let positions = Positions::new(text, bom);
    let mut builder = Builder::default();
    let mut parser = Parser::new_from_str(text);
    loop {
        // `yaml-rust2` is fuzzed and has not been seen to panic, but a query file is user input
        // and a panic here would abort the whole check, so a panic becomes a located error.
        let next = catch_unwind(AssertUnwindSafe(|| parser.next_token()));
        match next {
            Ok(Ok((Event::StreamEnd, _))) => break,
            Ok(Ok((event, marker))) => builder.on_event(event, &positions, marker),
            Ok(Err(error)) => {
                let span = positions.point(*error.marker());
                builder.problem(span, format!("invalid YAML: {}", error.info()));
                break;
            }
            Err(_) => {
                builder.problem(
                    positions.point_at_start(),
                    "invalid YAML: the parser could not read this file".to_owned(),
                );
                break;
            }
        }
    }
    (builder.documents, builder.problems)
}

/// Converts parser markers (character index, 1-based line, 0-based column) to spans.
struct Positions<'a> {
    text: &'a str,
    /// Byte offset of each line start in `text`.
    line_starts: Vec<usize>,
    /// Bytes stripped before `text` (a byte-order mark), added back to every offset.
    bom: usize,
}

impl<'a> Positions<'a> {
    fn new(text: &'a str, bom: usize) -> Self {
        // Line breaks are `\r\n`, `\n` or a lone `\r`, as the YAML scanner counts them.
        let mut line_starts = vec![0];
        let bytes = text.as_bytes();
        let mut index = 0;
        while let Some(&byte) = bytes.get(index) {
            index += 1;
            match byte {
                b'\n' => line_starts.push(index),
                b'\r' if bytes.get(index) != Some(&b'\n') => line_starts.push(index),
                _ => {}
            }
        }
        Self {
            text,
            line_starts,
            bom,
        }
    }

    fn point_at_start(&self) -> Span {
        Span {
            line: 1,
            column: 1,
            offset: self.bom,
            end_offset: self.bom,
        }
    }

    /// The empty span at a marker.
    fn point(&self, marker: Marker) -> Span {
        let line_index = marker.line().saturating_sub(1);
        let line_start = self
            .line_starts
            .get(line_index)
            .copied()
            .unwrap_or(self.text.len());
        let rest = self.text.get(line_start..).unwrap_or_default();
        let column_bytes: usize = rest.chars().take(marker.col()).map(char::len_utf8).sum();
        let offset = line_start + column_bytes + self.bom;
        Span {
            line: u32::try_from(marker.line()).unwrap_or(u32::MAX).max(1),
            column: u32::try_from(marker.col().saturating_add(1)).unwrap_or(u32::MAX),
            offset,
            end_offset: offset,
        }
    }

    /// The end of the line that holds `offset` (exclusive, before the line break).
    fn line_end(&self, offset: usize) -> usize {
        let local = offset.saturating_sub(self.bom);
        let rest = self.text.get(local..).unwrap_or_default();
        let length = rest.find(['\n', '\r']).unwrap_or(rest.len());
        offset + length
    }
}

/// A collection under construction.
enum Frame {
    Sequence {
        span: Span,
        items: Vec<Node>,
    },
    Mapping {
        span: Span,
        entries: Vec<Entry>,
        key: KeyState,
        seen: BTreeMap<String, Span>,
    },
}

/// What a mapping frame expects next.
enum KeyState {
    /// The next node is a key.
    Expecting,
    /// The next node is the value of this key.
    Key(String, Span),
    /// The next node is the value of a rejected key and is dropped.
    Skipped,
}

#[derive(Default)]
struct Builder {
    documents: Vec<Document>,
    problems: Vec<YamlProblem>,
    stack: Vec<Frame>,
    root: Option<Node>,
    /// How many documents have started.
    document_count: usize,
    /// The current document had a problem and is not kept.
    is_poisoned: bool,
    /// Depth of a collection being skipped because it nests too deep (0: not skipping).
    skip_depth: usize,
    skip_span: Span,
}

impl Builder {
    fn problem(&mut self, span: Span, message: String) {
        self.is_poisoned = true;
        self.problems.push(YamlProblem {
            span,
            message,
            related: None,
        });
    }

    fn on_event(&mut self, event: Event, positions: &Positions<'_>, marker: Marker) {
        let span = positions.point(marker);
        if self.skip_depth > 0 {
            match event {
                Event::SequenceStart(..) | Event::MappingStart(..) => self.skip_depth += 1,
                Event::SequenceEnd | Event::MappingEnd => {
                    self.skip_depth -= 1;
                    if self.skip_depth == 0 {
                        let placeholder = null_node(self.skip_span);
                        self.finish_node(placeholder);
                    }
                }
                _ => {}
            }
            return;
        }
        match event {
            Event::DocumentStart => {
                self.stack.clear();
                self.root = None;
                self.is_poisoned = false;
                self.document_count += 1;
            }
            Event::DocumentEnd => self.finish_document(),
            Event::Alias(_) => {
                self.problem(
                    span,
                    "aliases (`*name`) are not supported in queries: write the value out".into(),
                );
                self.finish_node(null_node(span));
            }
            Event::Scalar(text, style, _anchor, tag) => {
                let is_string_tag =
                    tag.is_some_and(|tag| tag.suffix == "str" && tag.handle.ends_with(':'));
                let is_quoted = !matches!(style, TScalarStyle::Plain);
                let kind = if is_quoted || is_string_tag {
                    ScalarKind::Str
                } else {
                    resolve_plain(&text)
                };
                let quotes = if matches!(
                    style,
                    TScalarStyle::SingleQuoted | TScalarStyle::DoubleQuoted
                ) {
                    2
                } else {
                    0
                };
                let end = (span.offset + text.len() + quotes).min(positions.line_end(span.offset));
                let node = Node {
                    span: Span {
                        end_offset: end.max(span.offset),
                        ..span
                    },
                    value: Value::Scalar(Scalar { text, kind }),
                };
                self.finish_node(node);
            }
            Event::SequenceStart(..) | Event::MappingStart(..) if self.stack.len() >= MAX_DEPTH => {
                self.problem(
                    span,
                    format!("invalid YAML: nesting is deeper than {MAX_DEPTH} levels"),
                );
                self.skip_depth = 1;
                self.skip_span = span;
            }
            Event::SequenceStart(..) => self.stack.push(Frame::Sequence {
                span,
                items: Vec::new(),
            }),
            Event::MappingStart(..) => self.stack.push(Frame::Mapping {
                span,
                entries: Vec::new(),
                key: KeyState::Expecting,
                seen: BTreeMap::new(),
            }),
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(frame) = self.stack.pop() {
                    let node = match frame {
                        Frame::Sequence { span: start, items } => Node {
                            span: Span {
                                end_offset: span.offset.max(start.offset),
                                ..start
                            },
                            value: Value::Sequence(items),
                        },
                        Frame::Mapping {
                            span: start,
                            entries,
                            ..
                        } => Node {
                            span: Span {
                                end_offset: span.offset.max(start.offset),
                                ..start
                            },
                            value: Value::Mapping(entries),
                        },
                    };
                    self.finish_node(node);
                }
            }
            Event::Nothing | Event::StreamStart | Event::StreamEnd => {}
        }
    }

    /// Attaches a completed node to the enclosing collection, or makes it the document root.
    fn finish_node(&mut self, node: Node) {
        let Some(frame) = self.stack.last_mut() else {
            self.root = Some(node);
            return;
        };
        let mut problem = None;
        match frame {
            Frame::Sequence { items, .. } => items.push(node),
            Frame::Mapping {
                span,
                entries,
                key,
                seen,
            } => match std::mem::replace(key, KeyState::Expecting) {
                KeyState::Expecting => match node.value {
                    Value::Scalar(scalar) => {
                        // A block mapping's start marker lies after its first key.
                        if node.span.offset < span.offset {
                            *span = Span {
                                end_offset: span.end_offset,
                                ..node.span
                            };
                        }
                        *key = KeyState::Key(scalar.text, node.span);
                    }
                    Value::Sequence(_) | Value::Mapping(_) => {
                        *key = KeyState::Skipped;
                        problem = Some(YamlProblem {
                            span: node.span,
                            message: "invalid YAML: mapping keys must be scalars".into(),
                            related: None,
                        });
                    }
                },
                KeyState::Key(name, key_span) => {
                    // An empty value (`key:`) has no text of its own; the parser places it at
                    // the next token, often on another line, so it is located at its key.
                    let mut node = node;
                    if matches!(&node.value, Value::Scalar(Scalar { text, kind: ScalarKind::Null }) if text.is_empty())
                    {
                        node.span = key_span;
                    }
                    if let Some(first) = seen.get(&name) {
                        problem = Some(YamlProblem {
                            span: key_span,
                            message: format!("invalid YAML: duplicate key `{name}`"),
                            related: Some((*first, "first given here".into())),
                        });
                    } else {
                        seen.insert(name.clone(), key_span);
                        entries.push(Entry {
                            key: name,
                            key_span,
                            value: node,
                        });
                    }
                }
                KeyState::Skipped => {}
            },
        }
        if let Some(problem) = problem {
            self.is_poisoned = true;
            self.problems.push(problem);
        }
    }

    fn finish_document(&mut self) {
        let root = self.root.take();
        self.stack.clear();
        if self.is_poisoned {
            return;
        }
        let Some(root) = root else {
            return;
        };
        let is_empty = matches!(
            &root.value,
            Value::Scalar(Scalar { text, kind: ScalarKind::Null }) if text.is_empty()
        );
        if !is_empty {
            self.documents.push(Document {
                index: self.document_count.saturating_sub(1),
                root,
            });
        }
    }
}

fn null_node(span: Span) -> Node {
    Node {
        span,
        value: Value::Scalar(Scalar {
            text: String::new(),
            kind: ScalarKind::Null,
        }),
    }
}

/// Types a plain scalar by the YAML 1.2 core schema.
fn resolve_plain(text: &str) -> ScalarKind {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return ScalarKind::Null,
        "true" | "True" | "TRUE" => return ScalarKind::Bool(true),
        "false" | "False" | "FALSE" => return ScalarKind::Bool(false),
        ".nan" | ".NaN" | ".NAN" => return ScalarKind::Float(f64::NAN),
        _ => {}
    }
    let (sign, unsigned) = match text.strip_prefix(['-', '+']) {
        Some(rest) => (text.get(..1).unwrap_or_default(), rest),
        None => ("", text),
    };
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return ScalarKind::Float(if sign == "-" {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
    }
    if sign.is_empty() {
        for (prefix, radix) in [("0o", 8), ("0x", 16)] {
            if let Some(digits) = text.strip_prefix(prefix) {
                return match i64::from_str_radix(digits, radix) {
                    Ok(value) if !digits.starts_with(['+', '-']) => ScalarKind::Int(value),
                    _ => ScalarKind::Str,
                };
            }
        }
    }
    if !unsigned.is_empty() && unsigned.bytes().all(|byte| byte.is_ascii_digit()) {
        return match text.parse::<i64>() {
            Ok(value) => ScalarKind::Int(value),
            Err(_) => text
                .parse::<f64>()
                .map_or(ScalarKind::Str, ScalarKind::Float),
        };
    }
    if is_core_float(unsigned) {
        if let Ok(value) = text.parse::<f64>() {
            return ScalarKind::Float(value);
        }
    }
    ScalarKind::Str
}

/// `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` without the sign.
fn is_core_float(text: &str) -> bool {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(index) => (
            text.get(..index).unwrap_or_default(),
            Some(text.get(index + 1..).unwrap_or_default()),
        ),
        None => (text, None),
    };
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some(("", fraction)) => digits(fraction),
        Some((whole, fraction)) => {
            digits(whole) && (fraction.is_empty() || fraction.bytes().all(|b| b.is_ascii_digit()))
        }
        None => digits(mantissa),
    };
    let exponent_ok = exponent
        .is_none_or(|exponent| digits(exponent.strip_prefix(['-', '+']).unwrap_or(exponent)));
    mantissa_ok && exponent_ok
}
