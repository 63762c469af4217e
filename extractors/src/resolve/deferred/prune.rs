//! Statements a walk may step over: those that can add nothing to what it collects.
//!
//! The walk of a Java file ([`super::Anchors::walk_scoped`]) visits every named node, for the
//! first use of each name, the dotted chains that may name a project type, and the matcher's
//! patterns. Most statements of a method body add none of these: every name in them was used
//! before, they hold no lowercase dotted chain, and no word or character that starts a pattern.
//! Such a statement is stepped over without visiting its nodes, which a test shows gives the
//! very facts the full walk gives (`deferred::tests`).
//!
//! Whether a statement is one is read from its text, lexed as tree-sitter-java lexes it: its
//! words outside string and character literals and comments are its names (Java has no other
//! words than names and keywords), and a dotted run of words `a.b.c` is a chain unless it ends
//! a call's name (`a.b(`: the call's object `a` alone is no chain). Anything the lexing is not
//! sure of (a `\u` escape, a string template, an unterminated literal, a syntax error in the
//! statement) keeps the statement walked.

use std::collections::HashMap;

use crate::syntax::Fnv;

/// What a word is to [`Prune::skippable`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Word {
    /// A reserved word: never a name.
    Keyword,
    /// A word a pattern of the language's matcher starts with, or that declares a type.
    Trigger,
}

/// The words and kinds a language's statements are stepped over by.
#[derive(Debug)]
pub(crate) struct Prune {
    words: HashMap<&'static str, Word, Fnv>,
}

/// Java's reserved words that are never triggers (JLS §3.9, with the literals `true`, `false`
/// and `null`). Contextual keywords (`var`, `record`, `yield`…) may be names: they are read as
/// names.
pub(crate) const JAVA_KEYWORDS: [&str; 49] = [
    "abstract",
    "assert",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "extends",
    "final",
    "finally",
    "float",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "long",
    "native",
    "new",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "try",
    "void",
    "volatile",
    "while",
    "true",
    "false",
];

impl Prune {
    /// Prune rules from a language's keywords and its trigger words (a trigger wins).
    pub fn new(
        keywords: &[&'static str],
        triggers: impl IntoIterator<Item = &'static str>,
    ) -> Self {
        let mut words: HashMap<&'static str, Word, Fnv> = HashMap::default();
        for keyword in keywords {
            words.insert(keyword, Word::Keyword);
        }
        words.insert("null", Word::Keyword);
        for trigger in triggers {
            words.insert(trigger, Word::Trigger);
        }
        Self { words }
    }

    /// Whether a statement with Java text `text` can add nothing to a walk that has seen the
    /// names `known`: every name in it is known, it holds no trigger word, no `@`, and no dotted
    /// chain starting with a lowercase name.
    pub fn skippable<V>(&self, text: &str, known: &HashMap<&str, V, Fnv>) -> bool {
        let bytes = text.as_bytes();
        let mut index = 0;
        // Whether the last token was a `.`: a word after it continues a dotted run.
        let mut after_dot = false;
        while let Some(&byte) = bytes.get(index) {
            match byte {
                b' ' | b'\t' | b'\n' | b'\r' | 0x0c => index += 1,
                b'/' if bytes.get(index + 1) == Some(&b'/') => {
                    index = bytes
                        .get(index..)
                        .and_then(|rest| rest.iter().position(|byte| *byte == b'\n'))
                        .map_or(bytes.len(), |end| index + end);
                }
                b'/' if bytes.get(index + 1) == Some(&b'*') => {
                    let Some(end) = find(bytes, index + 2, b"*/") else {
                        return false;
                    };
                    index = end + 2;
                }
                b'"' => {
                    let Some(end) = literal_end(bytes, index) else {
                        return false;
                    };
                    index = end;
                    after_dot = false;
                }
                b'\'' => {
                    let Some(end) = quoted_end(bytes, index + 1, b'\'') else {
                        return false;
                    };
                    index = end;
                    after_dot = false;
                }
                b'\\' => return false,
                b'.' => {
                    after_dot = true;
                    index += 1;
                }
                b'0'..=b'9' => {
                    // A number, with its suffix, exponent and fraction (`1.5e3f`, `0x1F`).
                    while bytes.get(index).is_some_and(|byte| {
                        byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'.')
                    }) {
                        index += 1;
                    }
                    after_dot = false;
                }
                byte if is_word_start(byte) => {
                    let end = word_end(bytes, index);
                    let Some(word) = text.get(index..end) else {
                        return false;
                    };
                    // `record Point(…)` declares a type; `record.key()` names a variable.
                    let declares_record = word == "record"
                        && bytes
                            .get(skip_spaces(bytes, end))
                            .is_some_and(|byte| is_word_start(*byte));
                    if declares_record {
                        return false;
                    }
                    match self.words.get(word) {
                        Some(Word::Trigger) => return false,
                        Some(Word::Keyword) => {}
                        None => {
                            if !known.contains_key(word) {
                                return false;
                            }
                            if !after_dot
                                && byte.is_ascii_lowercase()
                                && starts_lowercase_chain(bytes, end)
                            {
                                return false;
                            }
                        }
                    }
                    index = end;
                    after_dot = false;
                }
                _ => {
                    index += 1;
                    after_dot = false;
                }
            }
        }
        true
    }
}

/// Whether a byte starts a Java name as the scan reads one: ASCII letters, `_`, `$` and every
/// non-ASCII byte (so a name's text is always one whole word).
fn is_word_start(byte: u8) -> bool {
    byte.is_ascii_alphabetic() || matches!(byte, b'_' | b'$') || byte >= 0x80
}

fn word_end(bytes: &[u8], start: usize) -> usize {
    let mut end = start;
    while bytes
        .get(end)
        .is_some_and(|byte| is_word_start(*byte) || byte.is_ascii_digit())
    {
        end += 1;
    }
    end
}

fn skip_spaces(bytes: &[u8], mut index: usize) -> usize {
    while bytes
        .get(index)
        .is_some_and(|byte| matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0c))
    {
        index += 1;
    }
    index
}

/// Whether the word that ends at `end` (not after a `.`) starts a dotted run that the grammar
/// reads as a chain of two names or more: `a.b`, `a.b.c`, `a.b.c(…)`, but not `a.b(…)`, a call
/// of `b` on `a`. Anything else after a dot (`a.<T>b()`, a comment) counts as a chain.
fn starts_lowercase_chain(bytes: &[u8], end: usize) -> bool {
    let mut index = skip_spaces(bytes, end);
    let mut words = 1;
    while bytes.get(index) == Some(&b'.') {
        index = skip_spaces(bytes, index + 1);
        match bytes.get(index) {
            Some(byte) if is_word_start(*byte) => {
                index = skip_spaces(bytes, word_end(bytes, index));
                words += 1;
            }
            _ => return true,
        }
    }
    if words == 1 {
        return false;
    }
    let calls = bytes.get(index) == Some(&b'(');
    if calls {
        words >= 3
    } else {
        true
    }
}

/// The first index at or after `from` where `needle` starts.
fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes
        .get(from..)?
        .windows(needle.len())
        .position(|window| window == needle)
        .map(|offset| from + offset)
}

/// The index after the string literal or text block that starts at `start` (a `"`); `None`
/// when it does not end, or holds an escape the scan does not read as tree-sitter does (`\u`, a
/// template's `\{`).
fn literal_end(bytes: &[u8], start: usize) -> Option<usize> {
    if bytes.get(start..start + 3) == Some(b"\"\"\"") {
        let mut index = start + 3;
        loop {
            match bytes.get(index)? {
                b'\\' => {
                    if matches!(bytes.get(index + 1)?, b'u' | b'{') {
                        return None;
                    }
                    index += 2;
                }
                b'"' if bytes.get(index..index + 3) == Some(b"\"\"\"") => return Some(index + 3),
                _ => index += 1,
            }
        }
    }
    quoted_end(bytes, start + 1, b'"')
}

/// The index after the `quote` that closes a literal whose text starts at `from`; `None` at a
/// line end, the end of the text, or an escape the scan does not read (see [`literal_end`]).
fn quoted_end(bytes: &[u8], from: usize, quote: u8) -> Option<usize> {
    let mut index = from;
    loop {
        match *bytes.get(index)? {
            b'\\' => {
                if matches!(bytes.get(index + 1)?, b'u' | b'{' | b'\n' | b'\r') {
                    return None;
                }
                index += 2;
            }
            b'\n' | b'\r' => return None,
            byte if byte == quote => return Some(index + 1),
            _ => index += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::{Prune, JAVA_KEYWORDS};
    use crate::syntax::Fnv;

    fn known(names: &[&'static str]) -> HashMap<&'static str, (), Fnv> {
        names.iter().map(|name| (*name, ())).collect()
    }

    #[test]
    fn a_statement_is_skippable_only_when_it_can_add_nothing() {
        let prune = Prune::new(
            &JAVA_KEYWORDS,
            ["class", "get", "getForObject", "GetMapping"],
        );
        let names = known(&[
            "x", "y", "foo", "bar", "log", "debug", "Foo", "out", "System", "record",
        ]);
        let skippable = [
            "x = y;",
            "foo.bar(x);",
            "log.debug(\"Unknown words {} here\", x);",
            "if (x == null) { return y; }",
            "Foo.bar(x).foo(y);",
            "System.out.bar(x); // a comment with words",
            "x = 'a' + '\\'' + \"\\\"quoted\\\"\";",
            "x = \"\"\"\n  text \"block\" words\n  \"\"\";",
            "x = 1.5e3f + 0x1F + 10L;",
            "x(/* block comment */ y);",
            "x = new Foo(y);",
            "@Foo x = y;",
            "x = record.foo(y);",
        ];
        for text in skippable {
            assert!(prune.skippable(text, &names), "{text} should be skippable");
        }
        let walked = [
            "x = z;",
            "foo.bar.baz(x);",
            "x = foo.bar;",
            "x = new Foo(z);",
            "Foo y = x;\nclass",
            "x = foo . bar ;",
            "@GetMapping x = y;",
            "record Foo(x) {}",
            "x = \"\\u0022\";",
            "x = \"unterminated;",
            "foo.<Foo>bar(x);",
            "x.get(y);",
            "x = \"\\{y}\";",
            "x = y; /* unterminated",
            "x = \\u0079;",
        ];
        for text in walked {
            assert!(!prune.skippable(text, &names), "{text} should be walked");
        }
    }
}
