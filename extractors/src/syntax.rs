//! Grammar-independent syntax helpers: the thread-local parser, parse-error counting, positions
//! in Unicode scalar values, and node text.
//!
//! Language-specific reading of nodes (string literals, scopes, imports) lives with each
//! language family's extractor.

use std::cell::RefCell;

use tree_sitter::{Node, Parser, Tree};

thread_local! {
    static PARSER: RefCell<Parser> = RefCell::new(Parser::new());
    /// Field ids by (language, name), direct-mapped: see [`field_id`].
    static FIELD_IDS: RefCell<[FieldSlot; FIELD_SLOTS]> =
        const { RefCell::new([FieldSlot { language: 0, name: 0, length: 0, id: 0 }; FIELD_SLOTS]) };
}

/// A cached field id: the language's and the name's addresses, the name's length, and the id
/// (0: the language has no such field).
#[derive(Clone, Copy)]
struct FieldSlot {
    language: usize,
    name: usize,
    length: usize,
    id: u16,
}

const FIELD_SLOTS: usize = 256;

/// A node's child by field name, with the name's id looked up once per language and thread:
/// `Node::child_by_field_name` scans the grammar's field names at every call, and those scans
/// cost a tenth of the extraction of a TypeScript project.
pub(crate) trait ChildField<'tree> {
    /// The child in field `name`, as `Node::child_by_field_name` finds it.
    fn child_field(&self, name: &'static str) -> Option<Node<'tree>>;
}

impl<'tree> ChildField<'tree> for Node<'tree> {
    fn child_field(&self, name: &'static str) -> Option<Node<'tree>> {
        let id = field_id(&self.language(), name)?;
        self.child_by_field_id(id)
    }
}

/// The id of field `name` in `language`, from the calling thread's cache. Names are keyed by
/// address and length (a `&'static str` literal is the key), so a miss only costs the lookup
/// tree-sitter would have made.
fn field_id(language: &tree_sitter::Language, name: &'static str) -> Option<u16> {
    let language_key = language.clone().into_raw().addr();
    let name_key = name.as_ptr().addr();
    let slot = ((name_key >> 3) ^ (language_key >> 4) ^ name.len()) % FIELD_SLOTS;
    let cached = FIELD_IDS.with(|cell| {
        cell.try_borrow()
            .ok()
            .and_then(|slots| slots.get(slot).copied())
    });
    let id = match cached {
        Some(entry)
            if entry.language == language_key
                && entry.name == name_key
                && entry.length == name.len() =>
        {
            entry.id
        }
        _ => {
            let id = language.field_id_for_name(name).map_or(0, |id| id.get());
            FIELD_IDS.with(|cell| {
                if let Ok(mut slots) = cell.try_borrow_mut() {
                    if let Some(entry) = slots.get_mut(slot) {
                        *entry = FieldSlot {
                            language: language_key,
                            name: name_key,
                            length: name.len(),
                            id,
                        };
                    }
                }
            });
            id
        }
    };
    (id != 0).then_some(id)
}

/// Parses `source` with the calling thread's parser. `None` only when the grammar cannot be
/// loaded or parsing is cancelled; tree-sitter recovers from every syntax error.
pub(crate) fn parse(grammar: fn() -> tree_sitter::Language, source: &str) -> Option<Tree> {
    let run = |parser: &mut Parser| {
        parser.set_language(&grammar()).ok()?;
        parser.parse(source, None)
    };
    PARSER.with(|cell| match cell.try_borrow_mut() {
        Ok(mut parser) => run(&mut parser),
        // Only a re-entrant call could find the parser borrowed; give it its own parser.
        Err(_) => run(&mut Parser::new()),
    })
}

/// The parse errors of a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct ParseErrors {
    /// The number of `ERROR` and `MISSING` nodes.
    pub count: usize,
    /// The 1-based line and column of the first one in document order.
    pub first: Option<(u32, u32)>,
}

/// Counts `ERROR` and `MISSING` nodes, descending only into subtrees that contain errors.
///
/// Linear in the nodes it visits, however many errors a file has: each node is taken with its
/// parent (`Node::parent` walks down from the root, so asking it for every error of a file of
/// thousands made the count quadratic), and only the first error's column is counted.
pub(crate) fn count_parse_errors(tree: &Tree, source: &str) -> ParseErrors {
    let mut count = 0;
    let mut first: Option<Node<'_>> = None;
    let mut pending = vec![(tree.root_node(), None)];
    let mut cursor = tree.walk();
    while let Some((node, parent)) = pending.pop() {
        if (node.is_error() || node.is_missing()) && !is_grammar_gap(node, parent, source) {
            count += 1;
            if first.is_none_or(|first| node.start_byte() < first.start_byte()) {
                first = Some(node);
            }
        }
        if node.has_error() {
            pending.extend(
                node.children(&mut cursor)
                    .filter(Node::has_error)
                    .map(|child| (child, Some(node))),
            );
        }
    }
    ParseErrors {
        count,
        first: first.map(|node| start_position(node, source)),
    }
}

/// Whether an error node stands for valid code that the grammar cannot parse, with the tree
/// around it as the code means it, so that it is no syntax error of the file (`parent` is the
/// node's parent):
/// - TypeScript's generic tagged template, `` styled.div<Props>`…` ``: tree-sitter-typescript
///   0.23 reads it as a call of `styled.div<Props>!` with the template as its arguments, the
///   `!` missing. (With type arguments it cannot take for a comparison, such as `<{ a: A }>`;
///   `` f<T>`…` `` parses, as comparisons.)
/// - Swift's empty tuple `()` ([`is_empty_swift_tuple`]).
/// - A bare `&` in JSX text (`<p>Terms & conditions</p>`), which JSX reads as text and
///   tree-sitter's JSX only as the start of a character reference: an `ERROR` child of the
///   element that begins with the `&` and holds text only (no `{`, `}`, `<` or `>`).
/// - TypeScript forms tree-sitter-typescript 0.23 does not know, each recognised by the whole
///   shape the parser leaves: `export type * from` ([`is_type_star_export`]), variance modifiers
///   on type parameters ([`is_variance_modifier`]) and an array of an import type
///   (`import('m').T[]`, [`is_import_type_array`]).
fn is_grammar_gap(node: Node<'_>, parent: Option<Node<'_>>, source: &str) -> bool {
    if node.is_error() {
        let in_element =
            parent.is_some_and(|parent| matches!(parent.kind(), "jsx_element" | "jsx_fragment"));
        let text = self::text(node, source);
        return (in_element && text.starts_with('&') && !text.contains(['{', '}', '<', '>']))
            || is_type_star_export(node, parent, source)
            || is_variance_modifier(node, parent, source)
            || is_import_type_array(node, parent, source)
            || is_typeof_import_call(node, source);
    }
    if node.is_missing() && node.kind() != "!" {
        return is_import_type_array(node, parent, source);
    }
    if !node.is_missing() {
        return false;
    }
    if let Some(bang) = parent.filter(|parent| parent.kind() == "bang") {
        return is_empty_swift_tuple(bang, source);
    }
    let Some(assertion) = parent.filter(|parent| parent.kind() == "non_null_expression") else {
        return false;
    };
    let instantiated = assertion
        .named_child(0)
        .is_some_and(|child| child.kind() == "instantiation_expression");
    let tagged = assertion.parent().is_some_and(|call| {
        call.kind() == "call_expression"
            && call.child_field("function") == Some(assertion)
            && call
                .child_field("arguments")
                .is_some_and(|arguments| arguments.kind() == "template_string")
    });
    instantiated && tagged
}

/// Swift's empty tuple, `()` (the `Void` value, as in `promise.succeed(())`), which
/// tree-sitter-swift 0.7 reads as a tuple holding a `!` that is missing.
fn is_empty_swift_tuple(bang: Node<'_>, source: &str) -> bool {
    bang.byte_range().is_empty()
        && bang.parent().is_some_and(|tuple| {
            tuple.kind() == "tuple_expression"
                && tuple.named_child_count() == 1
                && text(tuple, source)
                    .chars()
                    .filter(|character| !character.is_whitespace())
                    .eq("()".chars())
        })
}

/// A call with no arguments and a module's type as its type argument,
/// `` importOriginal<typeof import('./x')>() `` (vitest's `vi.mock` factories): the grammar reads
/// `importOriginal < typeof import('./x')` as a comparison, and the `>()` after it as an `ERROR`.
fn is_typeof_import_call(error: Node<'_>, source: &str) -> bool {
    // Compared without copying: the error may span much of a broken file, and a file may have
    // thousands of errors.
    let is_unspaced = |text: &str, expected: &str| {
        text.chars()
            .filter(|character| !character.is_whitespace())
            .eq(expected.chars())
    };
    if !is_unspaced(text(error, source), ">()") {
        return false;
    }
    // The type argument, from the last `<` within a bounded distance before the error.
    let before = source.get(..error.start_byte()).unwrap_or_default();
    let window = before.len().saturating_sub(MAX_TYPE_ARGUMENT);
    let Some(open) = before
        .as_bytes()
        .get(window..)
        .and_then(|bytes| bytes.iter().rposition(|byte| *byte == b'<'))
    else {
        return false;
    };
    let argument: String = before
        .get(window + open + 1..)
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    argument
        .strip_prefix("typeofimport(")
        .and_then(|rest| rest.strip_suffix(')'))
        .is_some_and(|module| {
            let mut characters = module.chars();
            match (characters.next(), characters.next_back()) {
                (Some(quote @ ('\'' | '"' | '`')), Some(close)) => {
                    close == quote && !characters.as_str().contains(quote)
                }
                _ => false,
            }
        })
}

/// The longest `typeof import('…')` type argument [`is_typeof_import_call`] reads back for.
const MAX_TYPE_ARGUMENT: usize = 512;

/// `export type * from './x'` and `export type * as ns from './x'` (TypeScript 5.0): an `ERROR`
/// holding just `type` in an `export_statement` that has its `*` (or `* as ns`) and its source.
fn is_type_star_export(error: Node<'_>, parent: Option<Node<'_>>, source: &str) -> bool {
    let Some(statement) = parent.filter(|parent| parent.kind() == "export_statement") else {
        return false;
    };
    text(error, source) == "type"
        && statement.child_field("source").is_some()
        && error
            .next_sibling()
            .is_some_and(|next| matches!(next.kind(), "*" | "namespace_export"))
}

/// Variance modifiers on type parameters (`<in T>`, `<out O = unknown>`, `<in out T>`,
/// TypeScript 4.7): an `ERROR` of identifiers in the type parameters that, with the parameter
/// the parser made of a modifier, reads as modifiers followed by one name.
fn is_variance_modifier(error: Node<'_>, parent: Option<Node<'_>>, source: &str) -> bool {
    let Some(parent) = parent else {
        return false;
    };
    let children = named_children(error);
    if children.is_empty() || children.iter().any(|child| child.kind() != "identifier") {
        return false;
    }
    let words: Vec<&str> = children.iter().map(|child| text(*child, source)).collect();
    let is_modifier = |word: &str| matches!(word, "in" | "out");
    // The modifiers then the name (`T`), or modifiers only when the parameter follows.
    let (name, modifiers) = match words.split_last() {
        Some((last, rest)) if !is_modifier(last) => (Some(*last), rest),
        _ => (None, words.as_slice()),
    };
    if !modifiers.iter().all(|word| is_modifier(word)) {
        return false;
    }
    let bare_modifier = |parameter: Node<'_>| {
        parameter.kind() == "type_parameter" && is_modifier(text(parameter, source))
    };
    match (parent.kind(), name) {
        // `<in T = never>`: the parameter is named `in`, its real name in the error.
        ("type_parameter", Some(_)) => parent
            .child_field("name")
            .is_some_and(|named| is_modifier(text(named, source))),
        // `<in out T>`: a parameter `in`, then `out T` in the error.
        ("type_parameters", Some(_)) => error.prev_named_sibling().is_some_and(bare_modifier),
        // `<out Output = unknown>`: `out` alone, then the parameter.
        ("type_parameters", None) => error
            .next_named_sibling()
            .is_some_and(|next| next.kind() == "type_parameter"),
        _ => false,
    }
}

/// An array of an import type, `import('m').T[]`, which the grammar reads as the expression
/// `import('m').T` followed by `[]`: in a parameter, property or return type as an `ERROR` of that
/// expression before an empty tuple type; in a variable's type as a `;` missing before the `[]`;
/// after `as` or `satisfies` as an index missing from `[]`.
fn is_import_type_array(node: Node<'_>, parent: Option<Node<'_>>, source: &str) -> bool {
    let is_import_member = |expression: Node<'_>| {
        expression.kind() == "member_expression"
            && expression
                .child_field("object")
                .filter(|object| object.kind() == "call_expression")
                .and_then(|call| call.child_field("function"))
                .is_some_and(|function| function.kind() == "import")
    };
    let Some(parent) = parent else {
        return false;
    };
    let rest = source.get(node.end_byte()..).unwrap_or_default();
    let brackets_follow = |rest: &str| {
        rest.trim_start()
            .strip_prefix('[')
            .is_some_and(|after| after.trim_start().starts_with(']'))
    };
    if node.is_error() {
        let children = named_children(node);
        return parent.kind() == "type_annotation"
            && matches!(children.as_slice(), [only] if is_import_member(*only))
            && node.next_named_sibling().is_some_and(|next| {
                next.kind() == "tuple_type" && named_children(next).is_empty()
            });
    }
    match (node.kind(), parent.kind()) {
        (";", "lexical_declaration" | "variable_declaration") => {
            node.prev_named_sibling().is_some_and(|declarator| {
                declarator
                    .child_field("type")
                    .and_then(|annotation| annotation.named_child(0))
                    .is_some_and(is_import_member)
                    && declarator.child_field("value").is_none()
            }) && brackets_follow(rest)
        }
        ("identifier", "subscript_expression") => {
            text(parent, source).ends_with(']')
                && parent
                    .child_field("object")
                    .filter(|object| {
                        matches!(object.kind(), "as_expression" | "satisfies_expression")
                    })
                    .and_then(|object| object.named_child(1))
                    .is_some_and(is_import_member)
                && source
                    .get(..node.start_byte())
                    .is_some_and(|before| before.trim_end().ends_with('['))
        }
        _ => false,
    }
}

/// The 1-based (line, column) of a node's start, the column counted in Unicode scalar values.
pub(crate) fn start_position(node: Node<'_>, source: &str) -> (u32, u32) {
    let point = node.start_position();
    position(source, node.start_byte(), point.row, point.column)
}

/// A line at least this many bytes long keeps running character counts (see [`Columns`]).
const LONG_LINE: usize = 4096;

/// The bytes between two running character counts of a long line.
const COUNT_STRIDE: usize = 1024;

/// The 1-based positions of the starts and ends of many nodes of one source, as
/// [`start_position`] gives a start. A column counts the characters before the node on its line:
/// counted afresh for each node, a long line (minified or generated code, a chain of thousands
/// of calls) would cost its length for each of its nodes, so a long line keeps the count at
/// every [`COUNT_STRIDE`] bytes, made when a node on it is first placed.
pub(crate) struct Columns<'a> {
    source: &'a str,
    /// Each long line met: its first byte, and the characters before each stride of it.
    long_lines: RefCell<Vec<(usize, Vec<usize>)>>,
}

impl<'a> Columns<'a> {
    /// The file's text.
    pub(crate) fn source(&self) -> &'a str {
        self.source
    }

    pub(crate) fn new(source: &'a str) -> Self {
        Self {
            source,
            long_lines: RefCell::new(Vec::new()),
        }
    }

    /// The 1-based (line, column) of a node's start and of its end.
    pub(crate) fn span(&self, node: Node<'_>) -> ((u32, u32), (u32, u32)) {
        let (start, end) = (node.start_position(), node.end_position());
        (
            self.position(node.start_byte(), start.row, start.column),
            self.position(node.end_byte(), end.row, end.column),
        )
    }

    /// What [`position`] gives, from the nearest running count on a long line.
    fn position(&self, byte: usize, row: usize, byte_column: usize) -> (u32, u32) {
        let Some(line_start) = byte.checked_sub(byte_column) else {
            return position(self.source, byte, row, byte_column);
        };
        let bytes = self.source.as_bytes();
        if byte_column < LONG_LINE
            || !self.source.is_char_boundary(line_start)
            || !self.source.is_char_boundary(byte)
        {
            return position(self.source, byte, row, byte_column);
        }
        let mut lines = self.long_lines.borrow_mut();
        // From the last line met: nodes are placed mostly in the order of the text.
        let index = match lines.iter().rposition(|(start, _)| *start == line_start) {
            Some(index) => index,
            None => {
                lines.push((line_start, running_counts(bytes, line_start)));
                lines.len() - 1
            }
        };
        let counts = lines.get(index).map(|(_, counts)| counts.as_slice());
        let (stride, before) = counts
            .and_then(|counts| {
                let stride = (byte_column / COUNT_STRIDE).min(counts.len().checked_sub(1)?);
                Some((stride, *counts.get(stride)?))
            })
            .unwrap_or((0, 0));
        let from = line_start + stride * COUNT_STRIDE;
        let characters = before + scalar_starts(bytes.get(from..byte).unwrap_or_default());
        (to_u32(row + 1), to_u32(characters + 1))
    }
}

/// The bytes of `bytes` that start a character (all but UTF-8 continuation bytes): the number
/// of characters, when `bytes` is UTF-8 text cut at character boundaries.
fn scalar_starts(bytes: &[u8]) -> usize {
    bytes.iter().filter(|byte| **byte & 0xC0 != 0x80).count()
}

/// The characters before each multiple of [`COUNT_STRIDE`] bytes into the line that starts at
/// `line_start`, to the line's end: the first is 0.
fn running_counts(bytes: &[u8], line_start: usize) -> Vec<usize> {
    let rest = bytes.get(line_start..).unwrap_or_default();
    let line = rest.split(|byte| *byte == b'\n').next().unwrap_or_default();
    let mut counts = Vec::with_capacity(line.len() / COUNT_STRIDE + 1);
    let mut total = 0;
    counts.push(total);
    for stride in line.chunks(COUNT_STRIDE) {
        total += scalar_starts(stride);
        counts.push(total);
    }
    counts
}

fn position(source: &str, byte: usize, row: usize, byte_column: usize) -> (u32, u32) {
    let line_start = byte.saturating_sub(byte_column);
    let characters = source
        .get(line_start..byte)
        .map_or(byte_column, |text| text.chars().count());
    (to_u32(row + 1), to_u32(characters + 1))
}

fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// The source text of a node (empty if its range is not on character boundaries).
pub(crate) fn text<'source>(node: Node<'_>, source: &'source str) -> &'source str {
    source.get(node.byte_range()).unwrap_or_default()
}

/// A node's text with whitespace removed and cut to at most `limit` characters, for property
/// values such as a callee `axios.get` or an argument. Comments inside the node are left out
/// (`http /* retry */ .retry` reads `http .retry`): a chain written over several lines with a
/// comment between its calls names the calls, not the comment.
pub(crate) fn compact_text(node: Node<'_>, source: &str, limit: usize) -> String {
    let written = text(node, source);
    compact_chars(CommentFree::new(node, source), written.len(), limit)
}

/// The characters of a node's text with each comment inside it read as one space. A comment
/// starts at a comment marker (`//`, `/*`, `#`) where the tree has a comment node; the markers
/// are looked up as the characters are read, so a caller that stops early (a text cut to a
/// limit) reads no further: a node may span a whole file.
struct CommentFree<'tree, 'source> {
    node: Node<'tree>,
    written: &'source str,
    /// The node's first byte in the source.
    start: usize,
    /// The byte of `written` read next.
    at: usize,
}

impl<'tree, 'source> CommentFree<'tree, 'source> {
    fn new(node: Node<'tree>, source: &'source str) -> Self {
        Self {
            node,
            written: text(node, source),
            start: node.start_byte(),
            at: 0,
        }
    }

    /// The end (in the node's text) of the comment that starts at `self.at`, where `rest`
    /// begins, if one does.
    fn comment_end(&self, rest: &str) -> Option<usize> {
        if !(rest.starts_with("//") || rest.starts_with("/*") || rest.starts_with('#')) {
            return None;
        }
        let offset = self.start + self.at;
        let found = self.node.descendant_for_byte_range(offset, offset + 1)?;
        (found.kind().contains("comment") && found.start_byte() == offset)
            .then(|| found.end_byte().saturating_sub(self.start))
    }
}

impl Iterator for CommentFree<'_, '_> {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        let rest = self.written.get(self.at..)?;
        let character = rest.chars().next()?;
        let after = self.at + character.len_utf8();
        if let Some(end) = self.comment_end(rest) {
            self.at = end.max(after);
            return Some(' ');
        }
        self.at = after;
        Some(character)
    }
}

/// `value`'s words joined by single spaces (as `split_whitespace` splits them), cut to at most
/// `limit` characters: in one pass, with one allocation.
#[cfg(test)]
pub(crate) fn compact(value: &str, limit: usize) -> String {
    compact_chars(value.chars(), value.len(), limit)
}

/// [`compact`] of the characters `characters` (of `bytes` bytes), read only as far as the
/// limit.
fn compact_chars(characters: impl Iterator<Item = char>, bytes: usize, limit: usize) -> String {
    let mut compacted = String::with_capacity(bytes.min(limit.saturating_mul(4)));
    let mut count = 0;
    let mut space = false;
    for character in characters {
        if character.is_whitespace() {
            space = !compacted.is_empty();
            continue;
        }
        if space {
            if count == limit {
                break;
            }
            compacted.push(' ');
            count += 1;
            space = false;
        }
        if count == limit {
            break;
        }
        compacted.push(character);
        count += 1;
    }
    compacted
}

/// [`compact_text`] with its spaces removed: the node's words run together, cut where the
/// compacted text would pass `limit` characters. One pass and one allocation (this reads the
/// callee of every call).
pub(crate) fn unspaced_text(node: Node<'_>, source: &str, limit: usize) -> String {
    unspaced(node, source, limit).into_owned()
}

/// [`unspaced_text`], borrowed from `source` when the node's text is already compact (short,
/// ASCII and without whitespace, as most names are), so a caller that may drop it allocates
/// nothing.
pub(crate) fn unspaced<'source>(
    node: Node<'_>,
    source: &'source str,
    limit: usize,
) -> std::borrow::Cow<'source, str> {
    let written = text(node, source);
    // Short, ASCII, without whitespace and without a comment marker, as most names are.
    let compact = written.len() <= limit
        && written
            .bytes()
            .all(|byte| byte.is_ascii() && !matches!(byte, b'\t'..=b'\r' | b' ' | b'/' | b'#'));
    if compact {
        return std::borrow::Cow::Borrowed(written);
    }
    let mut out = String::with_capacity(written.len().min(limit));
    // Characters of the compacted text so far, its single spaces between words included.
    let mut counted = 0_usize;
    let mut space_pending = false;
    for character in CommentFree::new(node, source) {
        if character.is_whitespace() {
            space_pending = counted > 0;
            continue;
        }
        if space_pending {
            space_pending = false;
            counted += 1;
        }
        if counted >= limit {
            break;
        }
        out.push(character);
        counted += 1;
    }
    std::borrow::Cow::Owned(out)
}

/// Cuts a string to at most `limit` characters.
pub(crate) fn truncate(value: &str, limit: usize) -> String {
    value.chars().take(limit).collect()
}

/// The ancestors of `node` from `root` down to its parent. One walk down from the root, where
/// repeated `Node::parent` calls would each walk down again.
pub(crate) fn ancestors<'tree>(root: Node<'tree>, node: Node<'tree>) -> Vec<Node<'tree>> {
    let mut chain = Vec::new();
    ancestors_into(root, node, &mut chain);
    chain
}

/// The first named child of `node` whose kind is `kind`: a cursor steps only as far as it,
/// where [`named_children`] lists them all (a file's package header comes before its many
/// imports and declarations).
pub(crate) fn first_named_child<'tree>(node: Node<'tree>, kind: &str) -> Option<Node<'tree>> {
    let mut cursor = node.walk();
    if !cursor.goto_first_child() {
        return None;
    }
    loop {
        let child = cursor.node();
        if child.is_named() && child.kind() == kind {
            return Some(child);
        }
        if !cursor.goto_next_sibling() {
            return None;
        }
    }
}

/// [`ancestors`] of `node` into `chain`, which holds those of the node asked before: the
/// nodes of that chain whose range strictly contains the (non-empty) range of `node` are its
/// ancestors too, the top of its chain, so the walk down from the root starts below them (the
/// facts of a file are mostly asked for in source order, in the same declarations).
pub(crate) fn ancestors_into<'tree>(
    root: Node<'tree>,
    node: Node<'tree>,
    chain: &mut Vec<Node<'tree>>,
) {
    let (start, end) = (node.start_byte(), node.end_byte());
    let kept = if start == end {
        0
    } else {
        chain
            .iter()
            .take_while(|ancestor| {
                let (from, to) = (ancestor.start_byte(), ancestor.end_byte());
                from <= start && end <= to && (from < start || end < to)
            })
            .count()
    };
    chain.truncate(kept);
    let mut current = chain.pop().unwrap_or(root);
    while current.id() != node.id() {
        chain.push(current);
        match current.child_with_descendant(node) {
            Some(child) => current = child,
            None => break,
        }
    }
}

/// Every node of the subtree under `root`, `root` first, in pre-order: a cursor walk, no
/// recursion, so deep trees cannot overflow the stack.
pub(crate) fn descendants(root: Node<'_>) -> Descendants<'_> {
    Descendants {
        cursor: root.walk(),
        done: false,
    }
}

/// The iterator of [`descendants`].
pub(crate) struct Descendants<'tree> {
    cursor: tree_sitter::TreeCursor<'tree>,
    done: bool,
}

impl<'tree> Iterator for Descendants<'tree> {
    type Item = Node<'tree>;

    fn next(&mut self) -> Option<Node<'tree>> {
        if self.done {
            return None;
        }
        let node = self.cursor.node();
        if !self.cursor.goto_first_child() {
            loop {
                if self.cursor.goto_next_sibling() {
                    break;
                }
                // A cursor never leaves the node it was created on.
                if !self.cursor.goto_parent() {
                    self.done = true;
                    break;
                }
            }
        }
        Some(node)
    }
}

/// The interface whose method a marker is on, in the grammars (C#, Java) where a method's
/// attributes or annotations sit in a list inside the `method_declaration` and the method in the
/// body of an `interface_declaration`: `[Get("/x")]` → attribute list → method → body →
/// interface. `None` for a marker anywhere else.
pub(crate) fn interface_of_method_marker(marker: Node<'_>) -> Option<Node<'_>> {
    marker
        .parent()
        .and_then(|list| list.parent())
        .filter(|declaration| declaration.kind() == "method_declaration")?
        .parent()
        .and_then(|body| body.parent())
        .filter(|owner| owner.kind() == "interface_declaration")
}

/// The named children of a node, by index as the walks read them (`walk::WIDE`): a new
/// cursor's steps cost several times a `named_child` call on the narrow nodes most calls ask
/// about.
pub(crate) fn named_children<'tree>(node: Node<'tree>) -> Vec<Node<'tree>> {
    let count = node.named_child_count();
    if count <= crate::walk::WIDE {
        (0..count)
            .filter_map(|index| node.named_child(index))
            .collect()
    } else {
        let mut cursor = node.walk();
        node.named_children(&mut cursor).collect()
    }
}

/// Whether a node has a direct anonymous child token of the given kind (such as `type`).
pub(crate) fn has_token(node: Node<'_>, token: &str) -> bool {
    let mut cursor = node.walk();
    let found = node
        .children(&mut cursor)
        .any(|child| !child.is_named() && child.kind() == token);
    found
}

/// Whether some node of kind `kind` under `root` has exactly the text `text`: only the places
/// where the source holds the text are looked at (the deepest node spanning each), not the tree.
pub(crate) fn has_node_with_text(root: Node<'_>, source: &str, kind: &str, text: &str) -> bool {
    let range = root.byte_range();
    source
        .get(range.clone())
        .unwrap_or_default()
        .match_indices(text)
        .any(|(offset, _)| {
            let start = range.start + offset;
            root.descendant_for_byte_range(start, start + text.len())
                .is_some_and(|node| {
                    node.kind() == kind && node.byte_range() == (start..start + text.len())
                })
        })
}

/// The first node of each distinct text among the descendants of `root` whose kind is in
/// `kinds`, not looking inside nodes whose kind is in `skipped` (import declarations). One
/// cursor walk, no recursion, so deep trees cannot overflow the stack.
pub(crate) fn first_uses<'tree>(
    root: Node<'tree>,
    source: &str,
    kinds: &[&str],
    skipped: &[&str],
) -> std::collections::BTreeMap<String, Node<'tree>> {
    // Kinds compared by id: every symbol (aliases included) whose name is listed.
    let language = root.language();
    let ids_of = |names: &[&str]| -> Vec<u16> {
        (0..u16::try_from(language.node_kind_count()).unwrap_or(u16::MAX))
            .filter(|id| {
                language
                    .node_kind_for_id(*id)
                    .is_some_and(|name| names.contains(&name))
            })
            .collect()
    };
    let (kind_ids, skipped_ids) = (ids_of(kinds), ids_of(skipped));
    let mut uses = std::collections::BTreeMap::new();
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        let id = node.kind_id();
        let skip = skipped_ids.contains(&id);
        if kind_ids.contains(&id) {
            let name = text(node, source);
            // An empty name (a `MISSING` identifier of broken code) names no type.
            if !name.is_empty() && !uses.contains_key(name) {
                uses.insert(name.to_owned(), node);
            }
        }
        if !skip && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return uses;
            }
        }
    }
}

/// FNV-1a, for the sets of short names a file uses (keys come from the file itself).
#[derive(Debug, Clone, Copy)]
pub(crate) struct FnvHasher(u64);

impl Default for FnvHasher {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for FnvHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = (self.0 ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// Builds [`FnvHasher`]s.
pub(crate) type Fnv = std::hash::BuildHasherDefault<FnvHasher>;

#[cfg(test)]
mod tests {
    use super::{compact, compact_text, descendants, parse, unspaced_text, ChildField};

    /// `child_field` finds what `child_by_field_name` finds, for every node of trees in three
    /// grammars whose ids for the same field names differ, read in turn so that the cache holds
    /// each language's ids side by side, and for a name no grammar has.
    #[test]
    fn child_field_finds_the_child_by_field_name_finds_in_every_grammar() {
        type Grammar = fn() -> tree_sitter::Language;
        let sources: [(Grammar, &str); 3] = [
            (
                || tree_sitter_python::LANGUAGE.into(),
                "def f(a, b=1):\n    x.y = g(a, k=b)\n    return [v for v in a if v]\n",
            ),
            (
                || tree_sitter_go::LANGUAGE.into(),
                "package p\nfunc (s *S) F(a int) int { s.x = g(a); return a }\n",
            ),
            (
                || tree_sitter_java::LANGUAGE.into(),
                "class A { int f(int a) { this.x = g(a); return new B(a).c(); } }\n",
            ),
        ];
        let names: [&'static str; 12] = [
            "name",
            "body",
            "function",
            "arguments",
            "value",
            "left",
            "right",
            "object",
            "parameters",
            "result",
            "type",
            "no_such_field",
        ];
        let trees: Vec<_> = sources
            .iter()
            .map(|(grammar, source)| parse(*grammar, source).expect("the grammar loads"))
            .collect();
        let mut compared = 0;
        for _ in 0..2 {
            for tree in &trees {
                for node in descendants(tree.root_node()) {
                    for name in names {
                        assert_eq!(
                            node.child_field(name),
                            node.child_by_field_name(name),
                            "{name} of {}",
                            node.kind()
                        );
                        compared += usize::from(node.child_field(name).is_some());
                    }
                }
            }
        }
        assert!(compared > 40, "only {compared} fields found");
    }

    /// `compact` is the words joined by single spaces, then cut to the limit in characters.
    #[test]
    fn compact_joins_the_words_and_cuts_at_the_limit() {
        let values = [
            "",
            "   ",
            "a",
            "  a  b\n\t c  ",
            "new Foo(\n    a,\n    b)",
            "x\u{00a0}y\u{2003}z",
            "héllo wörld ∑ ok",
            "ab cd",
            "ab  cd ef",
        ];
        for value in values {
            for limit in 0..12 {
                let words: Vec<&str> = value.split_whitespace().collect();
                let expected: String = words.join(" ").chars().take(limit).collect();
                assert_eq!(compact(value, limit), expected, "{value:?} cut to {limit}");
            }
        }
    }

    /// On a line long enough to keep running counts, with characters of one to four bytes
    /// before, across and after the counts' strides, every node's span is the one counting
    /// each node's line afresh gives, in any order of asking (the counts are made by the first
    /// node placed on the line, wherever it is).
    #[test]
    fn columns_on_long_lines_are_the_characters_before_the_node() {
        let mut line = String::new();
        for index in 0..1500 {
            let text = ["\"é\"", "\"∑\"", "\"😀\"", "\"a\""][index % 4];
            line.push_str(&format!("x{index}.f({text}); "));
        }
        let source = format!("let a = 1;\n{line}\nlet b = \"ü\"; {line}\n");
        assert!(line.len() > 4 * super::LONG_LINE);
        let tree = parsed(crate::language::Language::TypeScript, &source);
        let nodes: Vec<_> = super::descendants(tree.root_node()).collect();
        let afresh = |node: tree_sitter::Node<'_>| {
            let end = node.end_position();
            (
                super::start_position(node, &source),
                super::position(&source, node.end_byte(), end.row, end.column),
            )
        };
        let long = nodes
            .iter()
            .filter(|node| node.start_position().column >= super::LONG_LINE)
            .count();
        assert!(long > 1000, "{long} nodes far into a long line");
        for order in [nodes.clone(), nodes.iter().rev().copied().collect()] {
            let columns = super::Columns::new(&source);
            for node in &order {
                assert_eq!(columns.span(*node), afresh(*node), "{node:?}");
            }
            assert_eq!(
                columns.long_lines.borrow().len(),
                2,
                "one count table per long line"
            );
        }
    }

    /// The eager reading [`super::CommentFree`] replaced: the whole text, each comment cut out
    /// for a space, before any cut to a limit.
    fn without_comments(node: tree_sitter::Node<'_>, source: &str) -> Option<String> {
        let written = super::text(node, source);
        if !written.bytes().any(|byte| matches!(byte, b'/' | b'#')) {
            return None;
        }
        // The comments start where the text has a comment marker: each is found from there.
        let start = node.start_byte();
        let mut cuts: Vec<(usize, usize)> = Vec::new();
        for (offset, _) in written.match_indices(['/', '#']) {
            let marker = written.get(offset..).unwrap_or_default();
            if !(marker.starts_with("//") || marker.starts_with("/*") || marker.starts_with('#'))
                || cuts.last().is_some_and(|(_, end)| offset < *end)
            {
                continue;
            }
            let Some(found) = node.descendant_for_byte_range(start + offset, start + offset + 1)
            else {
                continue;
            };
            if found.kind().contains("comment") && found.start_byte() == start + offset {
                cuts.push((offset, found.end_byte().saturating_sub(start)));
            }
        }
        if cuts.is_empty() {
            return None;
        }
        let mut kept = String::with_capacity(written.len());
        let mut at = 0;
        for (from, to) in cuts {
            kept.push_str(written.get(at..from).unwrap_or_default());
            kept.push(' ');
            at = to;
        }
        kept.push_str(written.get(at..).unwrap_or_default());
        Some(kept)
    }

    /// Reading a node's text lazily, comment by comment, as far as a limit, gives what cutting
    /// the comments out of the whole text first and then compacting gives, for every node of
    /// sources with line, block and `#` comments, division, and markers inside strings.
    #[test]
    fn lazy_comment_removal_reads_as_the_eager_one() {
        let cases = [
            (
                crate::language::Language::Java,
                "class A { void f() { http /* retry */ .retry(a / b, \"//x\")\n  // c\n  .go(); } }\n",
            ),
            (
                crate::language::Language::Kotlin,
                "fun f() { a\n  // one\n  .b(/* two */ c)\n  .d(\"#e\", 4 / 2) }\n",
            ),
            (
                crate::language::Language::Python,
                "x = (a  # one\n  .b(c / d, '#')\n  .e)\n",
            ),
            (
                crate::language::Language::TypeScript,
                "const x = a /* one */ .b(`//${c}`) // two\n  .d(e / f);\n",
            ),
        ];
        let mut compared = 0;
        for (language, source) in cases {
            let tree = parsed(language, source);
            for node in super::descendants(tree.root_node()) {
                let eager = without_comments(node, source);
                let text = eager.as_deref().unwrap_or(super::text(node, source));
                for limit in [0, 1, 2, 3, 5, 8, 13, 21, 34, 1000] {
                    assert_eq!(
                        super::compact_text(node, source, limit),
                        compact(text, limit),
                        "{language:?} {node:?} {limit}"
                    );
                    // The unspaced text stops where the compacted one, with its single
                    // spaces, would pass the limit.
                    assert_eq!(
                        super::unspaced_text(node, source, limit),
                        compact(text, limit).replace(' ', ""),
                        "{language:?} {node:?} {limit}"
                    );
                    compared += 1;
                }
            }
        }
        assert!(compared > 500, "{compared}");
    }

    /// `source` parsed as `language`.
    fn parsed(language: crate::language::Language, source: &str) -> tree_sitter::Tree {
        language
            .spec()
            .tree_sitter()
            .and_then(|backend| super::parse(backend.grammar, source))
            .expect("the grammar parses")
    }

    /// `first_named_child` finds what a search of `named_children` finds, for every node and
    /// every kind of a tree.
    #[test]
    fn first_named_child_is_the_first_of_named_children() {
        let source = "// c\npackage a.b;\nimport x.Y;\nimport z.*;\nclass C { void f() {} }\n";
        let tree = parsed(crate::language::Language::Java, source);
        let nodes: Vec<_> = super::descendants(tree.root_node()).collect();
        let kinds: std::collections::BTreeSet<&str> =
            nodes.iter().map(|node| node.kind()).collect();
        let mut found = 0;
        for node in &nodes {
            for kind in &kinds {
                let expected = super::named_children(*node)
                    .into_iter()
                    .find(|child| child.kind() == *kind);
                let first = super::first_named_child(*node, kind);
                assert_eq!(first.map(|n| n.id()), expected.map(|n| n.id()), "{kind}");
                found += usize::from(first.is_some());
            }
        }
        assert!(found > 10, "{found}");
        assert!(super::first_named_child(tree.root_node(), "package_declaration").is_some());
    }

    /// `ancestors_into` gives every node the chain `ancestors` gives it, whatever node was
    /// asked before (in source order, backwards, a descendant with the same range), and for
    /// empty (`MISSING`) nodes.
    #[test]
    fn ancestors_into_is_ancestors_after_any_node() {
        // Java with `MISSING` nodes; Python where a statement, its expression and a name
        // share one range.
        let cases = [
            (
                crate::language::Language::Java,
                "class A {\n  void f() { int x = q.r }\n  class B { void g() { return } }\n  \
                 int z = p.\n  void h() { x.y(z -> { w(); }); }\n}\n",
            ),
            (
                crate::language::Language::Python,
                "x\nif a:\n    b\n    c.d(e)\n",
            ),
        ];
        let mut missing = false;
        for (language, source) in cases {
            let tree = parsed(language, source);
            let nodes: Vec<_> = super::descendants(tree.root_node()).collect();
            missing |= nodes.iter().any(|node| node.is_missing());
            let ids = |chain: &[tree_sitter::Node<'_>]| {
                chain.iter().map(|node| node.id()).collect::<Vec<_>>()
            };
            // Source order, backwards, and each node right after its deepest first descendant.
            let mut deep_first = Vec::new();
            for node in &nodes {
                let mut leaf = *node;
                while let Some(child) = leaf.child(0) {
                    leaf = child;
                }
                deep_first.extend([leaf, *node]);
            }
            for order in [
                nodes.clone(),
                nodes.iter().rev().copied().collect(),
                deep_first,
            ] {
                let mut chain = Vec::new();
                for node in order {
                    super::ancestors_into(tree.root_node(), node, &mut chain);
                    assert_eq!(
                        ids(&chain),
                        ids(&super::ancestors(tree.root_node(), node)),
                        "{} at {}",
                        node.kind(),
                        node.start_position()
                    );
                }
            }
        }
        assert!(missing, "a MISSING node");
    }

    /// Comments inside a node are no part of its compact text; a `//` in a string is.
    #[test]
    fn compact_text_leaves_comments_out() {
        let source = "api /* client */\n  .get('http://x/y') // all\n  .then(f);\n";
        let tree = parsed(crate::language::Language::TypeScript, source);
        let statement = tree.root_node().named_child(0).unwrap();
        assert_eq!(
            compact_text(statement, source, 200),
            "api .get('http://x/y') .then(f);"
        );
        assert_eq!(
            unspaced_text(statement, source, 200),
            "api.get('http://x/y').then(f);"
        );
        let python = "f(a,  # first\n  b)\n";
        let tree = parsed(crate::language::Language::Python, python);
        assert_eq!(
            compact_text(tree.root_node(), python, 200),
            "f(a, b)",
            "a Python comment"
        );
    }

    /// `unspaced_text` is `compact_text` without its spaces, for every node and limit.
    #[test]
    fn unspaced_text_is_compact_text_without_spaces() {
        let source =
            "fun f() {\n  val x =  Request . Builder ( )\n\t.url( \"a  b\" )  // c\n  é.ü .x }\n";
        let tree = parsed(crate::language::Language::Kotlin, source);
        let mut pending = vec![tree.root_node()];
        let mut compared = 0;
        while let Some(node) = pending.pop() {
            for limit in [0, 1, 2, 3, 4, 7, 12, 400] {
                assert_eq!(
                    unspaced_text(node, source, limit),
                    compact_text(node, source, limit).replace(' ', ""),
                    "{node:?} at {limit}"
                );
                compared += 1;
            }
            let mut cursor = node.walk();
            pending.extend(node.children(&mut cursor));
        }
        assert!(compared > 100, "{compared}");
    }

    /// Errors counted in `source`, parsed as the file `path`.
    fn errors_in(path: &str, source: &str) -> usize {
        let language = crate::language::Language::for_path(path).expect("a source path");
        super::count_parse_errors(&parsed(language, source), source).count
    }

    /// The errors of `source`, parsed as the file `path`: their count and the first's position.
    fn errors_of(path: &str, source: &str) -> super::ParseErrors {
        let language = crate::language::Language::for_path(path).expect("a source path");
        super::count_parse_errors(&parsed(language, source), source)
    }

    #[test]
    fn the_first_parse_error_is_the_earliest_in_the_file_however_many_there_are() {
        // Thousands of errors down a deep tree (`x && x && …` is a chain of Python syntax
        // errors): each counted once, the first where the file has it.
        let chain = format!("x{}\n", " && x".repeat(3000));
        let errors = errors_of("a.py", &chain);
        assert_eq!((errors.count, errors.first), (3000, Some((1, 4))));
        // The walk meets later errors first (the stack pops the last child first): the earliest
        // is still the first, its column counted in characters.
        let errors = errors_of("a.py", "a = 1\nbé = )\nc = 2\nd = )\n");
        assert_eq!((errors.count, errors.first), (2, Some((2, 6))));
        let errors = errors_of("a.ts", "const ok = 1;\nconst b = ;\nconst c = ;\n");
        assert_eq!((errors.count, errors.first), (2, Some((2, 9))));
    }

    /// tree-sitter-swift reads `#warning(…)` and `#error(…)` among statements but not among a
    /// type's members: extraction reads such a file without them (their lines blanked), and
    /// places what follows where it is written; a file whose errors are elsewhere keeps them.
    #[test]
    fn swift_compiler_diagnostics_among_members_are_read_without_them() {
        let source = "class A {\n    func f() {}\n    #warning(\"é later\")\n    #error (\"no\")\n    func g() {}\n}\n";
        assert_read_around_a_gap("a.swift", source);
        let blanked = crate::lang::swift::without_diagnostics(source).expect("two diagnostics");
        assert_eq!(blanked.len(), source.len());
        assert_eq!(blanked.lines().count(), source.lines().count());
        assert_eq!(
            blanked.find("func g()"),
            source.find("func g()"),
            "what follows keeps its offset"
        );
        assert_eq!(
            crate::lang::swift::without_diagnostics("func f() {}\n"),
            None
        );
        // A `#warning` in a string is no directive line, and other errors stay.
        assert_eq!(
            crate::lang::swift::without_diagnostics("let s = \"#warning(x)\"\n"),
            None
        );
        let broken = "class A {\n    #warning(\"x\")\n    let = \n}\n";
        assert!(crate::parse_only("a.swift", broken).is_some_and(|errors| errors > 0));
    }

    /// A Swift `#if` group that gives a declaration different attributes is an error to
    /// tree-sitter-swift; extraction reads the file with the directive lines blanked and every
    /// branch kept (the attributes of all branches stand before the declaration).
    #[test]
    fn swift_groups_that_split_attributes_from_their_declaration_are_read_with_every_branch() {
        let source = "struct S {\n  #if Deprecations\n    @available(*, deprecated, message: \"m\")\n  #elseif os(iOS)\n    @available(iOS, deprecated: 9999)\n  #else\n    @available(\n      macOS,\n      deprecated: 9999\n    )\n  #endif\n  public func f() {}\n  #warning(\"w\")\n}\n";
        assert_read_around_a_gap("a.swift", source);
    }

    /// Kotlin 2.2's context parameters are errors to tree-sitter-kotlin-ng (and its context
    /// receivers among a class's members): extraction reads a list of plain types as an
    /// annotation naming them, and blanks any other.
    #[test]
    fn kotlin_context_parameter_lists_are_read_as_annotations_or_without_them() {
        let source = "context(project: Project)\nfun f() {}\n\nclass A {\n    context(a: A<B, C>, log: (String) -> Unit)\n    fun g() = 1\n    context(Scope, _: Other) fun h() = \"é\"\n}\n";
        assert_kotlin_rewrite(
            crate::lang::kotlin::without_context_parameters,
            source,
            &[
                "@ontext(         Project)",
                "fun f() {}",
                "",
                "class A {",
                "",
                "fun g() = 1",
                "@ontext(Scope,    Other) fun h() = \"é\"",
                "}",
            ],
            // A call of a function named `context`, or a list not closed on its line.
            &[
                "val c = context(a)\n",
                "fun f() = context(x)\n",
                "context(\n  a: A,\n)\nfun f() {}\n",
            ],
        );
    }

    /// Kotlin 2.1's multi-dollar strings are errors to tree-sitter-kotlin-ng: extraction reads
    /// them with their `$` prefix blanked, as strings of the same text.
    #[test]
    fn kotlin_multi_dollar_strings_are_read_without_their_prefix() {
        let source = "class A {\n    val json = $$\"\"\"\n      {\"id\": \"$$id\", \"cost\": \"$9\"}\n    \"\"\"\n    fun f(name: String) = name.endsWith($$$\"$$$serializer\")\n}\n";
        assert_kotlin_rewrite(
            crate::lang::kotlin::without_multi_dollar_prefixes,
            source,
            &[
                "class A {",
                "val json =   \"\"\"",
                "{\"id\": \"$$id\", \"cost\": \"$9\"}",
                "\"\"\"",
                "fun f(name: String) = name.endsWith(   \"$$$serializer\")",
                "}",
            ],
            // A string that ends in `$$` starts none; a file without a prefix.
            &["val s = \"a$$\"\n", "val s = \"$x\"\n"],
        );
    }

    /// Annotated accessors and a constructor whose line starts with an annotation or `actual`
    /// end their declaration early to tree-sitter-kotlin-ng: extraction reads them with those
    /// annotations and modifiers blanked.
    #[test]
    fn kotlin_annotated_accessors_and_constructors_are_read_without_their_annotations() {
        let source = "class Q {\n  var v: Int = 0\n    @Synchronized get() = field\n    @Synchronized set(value) { field = value }\n  var w = 1\n    private set\n}\n\nclass Foo\n  @RequiresApi(37)\n  internal constructor(val x: Int)\n\nactual class Baz\nactual constructor(val y: Int) {\n  fun g() = y\n}\n";
        assert_kotlin_rewrite(
            crate::lang::kotlin::without_accessor_annotations,
            source,
            &[
                "class Q {",
                "var v: Int = 0",
                "get() = field",
                "set(value) { field = value }",
                "var w = 1",
                "private set",
                "}",
                "",
                "class Foo",
                "",
                "internal constructor(val x: Int)",
                "",
                "actual class Baz",
                "constructor(val y: Int) {",
                "fun g() = y",
                "}",
            ],
            // An annotated declaration, or a call of `get`.
            &[
                "@Deprecated(\"x\")\nfun get() = 1\n",
                "val x = map.get(1)\n",
                "@Inject lateinit var s: S\n",
            ],
        );
    }

    /// Asserts that the Kotlin file `source` has parse errors to the grammar and none as
    /// extraction reads it, that `rewrite` keeps its length and gives the lines `expected`
    /// (trimmed), and that it leaves each of `unchanged` alone.
    fn assert_kotlin_rewrite(
        rewrite: fn(&str) -> Option<String>,
        source: &str,
        expected: &[&str],
        unchanged: &[&str],
    ) {
        assert_read_around_a_gap("a.kt", source);
        let read = rewrite(source).expect("a rewrite");
        assert_eq!(read.len(), source.len());
        assert_eq!(read.lines().map(str::trim).collect::<Vec<_>>(), expected);
        for text in unchanged {
            assert_eq!(rewrite(text), None, "{text}");
        }
    }

    /// Asserts that `source` has parse errors to the grammar of `path` but none as extraction
    /// reads it (`crate::parse_source`).
    fn assert_read_around_a_gap(path: &str, source: &str) {
        assert!(
            errors_in(path, source) > 0,
            "the grammar's gap is still there"
        );
        assert_eq!(crate::parse_only(path, source), Some(0));
    }

    /// Asserts that each of `sources` parses without errors as every file of `paths`.
    fn assert_no_errors(paths: &[&str], sources: &[&str]) {
        for source in sources {
            for path in paths {
                assert_eq!(errors_in(path, source), 0, "{path}: {source}");
            }
        }
    }

    /// Asserts that each of `sources` has parse errors as every file of `paths`.
    fn assert_errors(paths: &[&str], sources: &[&str]) {
        for source in sources {
            for path in paths {
                assert!(errors_in(path, source) > 0, "{path}: {source}");
            }
        }
    }

    #[test]
    fn a_call_with_a_module_type_argument_is_no_syntax_error() {
        assert_no_errors(
            &["a.ts", "a.tsx"],
            &[
                "const m = await importOriginal<typeof import('./x')>();\n",
                "vi.mock('@a/b', async (importOriginal) => {\n  const actual = await importOriginal<typeof import(\"@a/b\")>();\n  return { ...actual, f: vi.fn() };\n});\n",
                "const n = f< typeof import('m') >( );\n",
            ],
        );
        // Anything else after such a comparison is still an error.
        assert_errors(
            &["a.ts"],
            &[
                "const m = a < typeof import('./x') >();\nconst b = ;\n",
                "const m = a < typeof import(x) >();\n",
            ],
        );
    }

    #[test]
    fn a_generic_tagged_template_is_no_syntax_error() {
        assert_no_errors(
            &["a.ts", "a.tsx"],
            &[
                "const A = styled.span<{ yellow?: boolean }>`\n  color: red;\n`;",
                "const B = styled(Link)<{ $on: boolean }>`x ${(p) => p.$on} y`;",
                "const C = styled.div<{\n  grow?: boolean;\n}>`min-height: 1px;`;",
                "const D = css<Props>`x`;",
            ],
        );
        // A `!` really missing elsewhere, and broken code next to a tagged template, still count.
        assert_eq!(
            errors_in("a.ts", "const A = styled.div<{ a: A }>`x`;\nconst b = ;"),
            1
        );
        assert!(errors_in("a.ts", "const A = (x as any).;") > 0);
    }

    #[test]
    fn a_bare_ampersand_in_jsx_text_is_no_syntax_error() {
        assert_no_errors(
            &["a.tsx", "a.jsx"],
            &[
                "const A = <div>Runtime & Build</div>;",
                "const B = <p>{x} & {y}</p>;",
                "const C = <p>Tom &\n Jerry</p>;",
                "const D = <>Tom & Jerry</>;",
                "const E = <p>a &amp b</p>;",
            ],
        );
        // Where the parser's recovery breaks the element apart (`&copy;` after a bare `&`), the
        // tree is not what the code means, and the errors count.
        assert_errors(
            &["a.tsx"],
            &[
                "const A = <p>a & {</p>;",
                "const B = <div>& <span></div>;",
                "const D = <p>a &amp b &copy; c</p>;",
            ],
        );
    }

    #[test]
    fn swift_s_empty_tuple_is_no_syntax_error() {
        for source in [
            "let x = foo(())",
            "p.succeed(( ))\nlet y = 2",
            "func f() async throws {\n    try await done(.success(()))\n}",
            "let v: Void = ()",
        ] {
            assert_eq!(errors_in("a.swift", source), 0, "{source}");
        }
        assert!(errors_in("a.swift", "let x = foo(()\nlet y = ") > 0);
    }

    #[test]
    fn typescript_forms_the_grammar_does_not_know_are_no_syntax_errors() {
        for source in [
            "export type * from '../types/index';",
            "export type * as ns from './x';",
            "interface C<in T = never> { a: T }",
            "interface Z<out O = unknown, out I = unknown> { o: O }",
            "type S<out Output = unknown, in Input> = { o: Output };",
            "class K<in out T> {}",
            "const identifiers: import('ts-morph').Node[] = [];",
            "let entries: import('node:fs').Dirent[];",
            "function f(a: import('m').B[]): import('m').B[] { return a; }",
            "class P { items: import('m').B[] = []; }",
            "type Q = { items: import('m').B[] };",
            "const d = [] as import('../src/types').Diagnostic[];",
        ] {
            assert_eq!(errors_in("a.ts", source), 0, "{source}");
            assert_eq!(errors_in("a.tsx", source), 0, "{source}");
        }
        // Broken code of the same shapes still counts.
        for broken in [
            "export type from './x';",
            "interface C<in T U> { a: T }",
            "interface C<T U> { a: T }",
            "const identifiers: import('m').Node[0] = [];",
            "let entries: import('node:fs').Dirent[] = ;",
            "const d = [] as import('m').D[0;",
            "function f(a: import('m').B[x]) {}",
        ] {
            assert!(errors_in("a.ts", broken) > 0, "{broken}");
        }
    }
}
