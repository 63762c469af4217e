//! Grammar-independent syntax helpers: the thread-local parser, parse-error counting, positions
//! in Unicode scalar values, and node text; and a small YAML tree (`yaml`) for the GitHub
//! Actions extractor and the Spring Boot configuration.
//!
//! Language-specific reading of nodes (string literals, scopes, imports) lives with each
//! language family's extractor.

use std::cell::RefCell;

use tree_sitter::{Node, Parser, Tree};

mod parse_errors;
pub(crate) mod yaml;

pub(crate) use parse_errors::{count_parse_errors, ParseErrors};

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

/// The nodes of kind `kind` under `root` whose text is exactly `text`: only the places where the
/// source holds the text are looked at (the deepest node spanning each), not the tree.
fn nodes_with_text<'tree, 'a>(
    root: Node<'tree>,
    source: &'a str,
    kind: &'a str,
    text: &'a str,
) -> impl Iterator<Item = Node<'tree>> + 'a
where
    'tree: 'a,
{
    let range = root.byte_range();
    source
        .get(range.clone())
        .unwrap_or_default()
        .match_indices(text)
        .filter_map(move |(offset, _)| {
            let start = range.start + offset;
            root.descendant_for_byte_range(start, start + text.len())
                .filter(|node| {
                    node.kind() == kind && node.byte_range() == (start..start + text.len())
                })
        })
}

/// Whether some node of kind `kind` under `root` has exactly the text `text`.
pub(crate) fn has_node_with_text(root: Node<'_>, source: &str, kind: &str, text: &str) -> bool {
    nodes_with_text(root, source, kind, text).next().is_some()
}

/// Whether every identifier `name` in `root` is handed on, as `handed_on` says of it (an
/// argument of a call): the code under `root` makes no use of the value itself. True when no
/// identifier of that name is there at all (a longer name, a string or a comment holding the
/// text is none).
pub(crate) fn only_handed_on(
    root: Node<'_>,
    source: &str,
    name: &str,
    handed_on: impl Fn(Node<'_>) -> bool,
) -> bool {
    nodes_with_text(root, source, "identifier", name).all(handed_on)
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
mod tests;
