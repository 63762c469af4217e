//! The byte scan that tells which statements may hold something the walk looks for, so the walk
//! skips the rest without entering them.

use super::*;

/// The byte offsets in a file where something the walk looks for may start: a subtree without
/// one (and without errors) holds no pattern root and no use of a name that matters.
pub(super) struct Triggers {
    /// Sorted.
    pub(super) positions: Vec<usize>,
    /// The index [`Triggers::first_from`] last answered: the walk asks in document order (a
    /// node's start, then the ends and starts after it), so the next answer is at most a few
    /// steps on, and a binary search each time cost 5% of the walk.
    pub(super) hint: std::cell::Cell<usize>,
}

impl Triggers {
    /// Scans `source`; `None` when every subtree must be entered (the file has an import
    /// statement that is not at the top level, or binds a name the scan cannot spell).
    ///
    /// The uses the walk records matter for the names import statements bind (is the import
    /// type-only?) and for `fetch`: the names a `require(…)` or `import(…)` call binds are never
    /// asked about, and the calls themselves are pattern roots with a trigger of their own.
    pub(super) fn scan(
        source: &str,
        root: Node<'_>,
        grammar: &Grammar,
        generic: bool,
    ) -> Option<Triggers> {
        // The names whose uses matter: those top-level import statements bind (every identifier
        // in them, to be safe) and `fetch`.
        let mut statements: Vec<(usize, usize)> = Vec::new();
        let mut names: HashSet<&[u8], Fnv> = HashSet::default();
        names.insert(b"fetch");
        let mut cursor = root.walk();
        if cursor.goto_first_child() {
            loop {
                let child = cursor.node();
                if grammar.kind(child) == Kind::ImportStatement {
                    statements.push((child.start_byte(), child.end_byte()));
                    // The statement's nodes in order, with the same cursor, back on the
                    // statement at the end.
                    let mut depth = 0_usize;
                    'statement: loop {
                        let node = cursor.node();
                        if grammar.named_kind(node) == Kind::Identifier {
                            names.insert(source.get(node.byte_range())?.as_bytes());
                        }
                        if cursor.goto_first_child() {
                            depth += 1;
                            continue;
                        }
                        loop {
                            if depth == 0 {
                                break 'statement;
                            }
                            if cursor.goto_next_sibling() {
                                break;
                            }
                            cursor.goto_parent();
                            depth -= 1;
                        }
                    }
                }
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        // For each first byte, the lengths of the names that start with it (bit `n` for length
        // `n`, bit 63 for any longer): a word is looked up only when one may be it.
        let mut lengths = [0_u64; 256];
        for name in &names {
            let first = *name.first()?;
            if let Some(slot) = lengths.get_mut(usize::from(first)) {
                *slot |= length_bit(name.len());
            }
        }
        let bytes = source.as_bytes();
        let mut positions = Vec::new();
        let mut statement = statements.iter().peekable();
        // Each `import` outside the statements costs a descent from the root, as deep as the
        // tree: past a few, the file is walked whole instead, so the scan stays linear.
        let mut lookups_left = 32_usize;
        let mut index = 0;
        loop {
            let rest = bytes.get(index..).unwrap_or_default();
            let Some(skipped) = rest.iter().position(|byte| class_of(*byte) != OTHER) else {
                break;
            };
            index += skipped;
            let Some(&byte) = bytes.get(index) else {
                break;
            };
            match class_of(byte) {
                WORD => {
                    let start = index;
                    let rest = bytes.get(start..).unwrap_or_default();
                    let length = rest
                        .iter()
                        .position(|byte| class_of(*byte) != WORD)
                        .unwrap_or(rest.len());
                    index += length;
                    let word = rest.get(..length).unwrap_or_default();
                    match word {
                        b"require" => positions.push(start),
                        b"import" => {
                            while statement.next_if(|(_, end)| *end <= start).is_some() {}
                            let inside = statement
                                .peek()
                                .is_some_and(|(statement_start, _)| *statement_start <= start);
                            if !inside {
                                lookups_left = lookups_left.checked_sub(1)?;
                                if !starts_no_statement(root, start, length) {
                                    return None;
                                }
                            }
                            positions.push(start);
                        }
                        b"new" | b"export" | b"extends" => positions.push(start),
                        _ => {
                            let may_be_name = lengths
                                .get(usize::from(byte))
                                .is_some_and(|lengths| lengths & length_bit(word.len()) != 0);
                            if may_be_name && names.contains(word) {
                                positions.push(start);
                            }
                        }
                    }
                    continue;
                }
                TRIGGER => positions.push(index),
                EQUALS if generic => positions.push(index),
                _ => {}
            }
            index += 1;
        }
        Some(Triggers {
            positions,
            hint: std::cell::Cell::new(0),
        })
    }

    /// Whether a trigger starts in `start..end`.
    pub(super) fn any_within(&self, start: usize, end: usize) -> bool {
        self.first_from(start)
            .is_some_and(|position| position < end)
    }

    /// The first trigger at or after `from`: a few steps on from the last answer when that is
    /// before `from`, else a binary search.
    pub(super) fn first_from(&self, from: usize) -> Option<usize> {
        const STEPS: usize = 8;
        let positions = &self.positions;
        let hint = self.hint.get();
        let before = |index: usize| {
            positions
                .get(index)
                .is_some_and(|position| *position < from)
        };
        let from_hint = (hint == 0 || before(hint - 1))
            .then(|| (hint..hint + STEPS).find(|index| !before(*index)))
            .flatten();
        let index =
            from_hint.unwrap_or_else(|| positions.partition_point(|position| *position < from));
        self.hint.set(index);
        positions.get(index).copied()
    }
}

/// Whether the word `import` at `start`, outside the file's top-level import statements,
/// starts no import statement: it is in a comment, a string, a regular expression or JSX text,
/// a property's name (`options.import`), `import.meta`, or an `import(…)` call (a type's too). An
/// import statement elsewhere (in a namespace or an ambient module) binds names the scan does
/// not collect, so any other such word keeps the walk from pruning the file. The lookup goes
/// down from the root: [`Triggers::scan`] makes a few a file at most.
pub(super) fn starts_no_statement(root: Node<'_>, start: usize, length: usize) -> bool {
    root.named_descendant_for_byte_range(start, start + length)
        .is_some_and(|node| {
            matches!(
                node.kind(),
                "comment"
                    | "string_fragment"
                    | "regex_pattern"
                    | "jsx_text"
                    | "property_identifier"
                    | "meta_property"
                    | "import"
            ) && !node.has_error()
        })
}

pub(super) const OTHER: u8 = 0;

pub(super) const WORD: u8 = 1;

pub(super) const TRIGGER: u8 = 2;

pub(super) const EQUALS: u8 = 3;

/// What a byte is to the scan: an identifier byte (ASCII letters, digits, `_`, `$`, `\\` and
/// every non-ASCII byte, so that an identifier's text is always one whole word), a character that
/// starts a pattern root (`(`, a backquote, `@`; `=` for generic facts), or anything else.
pub(super) const fn byte_class(byte: u8) -> u8 {
    match byte {
        b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' | b'$' | b'\\' | 0x80..=0xff => WORD,
        b'(' | b'`' | b'@' => TRIGGER,
        b'=' => EQUALS,
        _ => OTHER,
    }
}

/// [`byte_class`] of every byte, looked up.
pub(super) static BYTE_CLASSES: [u8; 256] = {
    let mut classes = [OTHER; 256];
    let mut byte = 0;
    while byte < 256 {
        #[allow(
            clippy::cast_possible_truncation,
            clippy::indexing_slicing,
            reason = "`byte` is below 256, the table's length (no `get_mut` in a constant)"
        )]
        {
            classes[byte] = byte_class(byte as u8);
        }
        byte += 1;
    }
    classes
};

pub(super) fn class_of(byte: u8) -> u8 {
    BYTE_CLASSES
        .get(usize::from(byte))
        .copied()
        .unwrap_or(OTHER)
}

/// The bit of a name's length in [`Triggers::scan`]'s length sets.
pub(super) fn length_bit(length: usize) -> u64 {
    1 << length.min(63)
}
