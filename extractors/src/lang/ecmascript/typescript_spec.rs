//! TypeScript and TSX: the TypeScript grammars of `tree-sitter-typescript`.
//!
//! TypeScript is a superset of JavaScript, so both specs load the JavaScript query files (whose
//! patterns use only node types the two grammars share) plus the TypeScript-only patterns of
//! `queries/typescript/`. Extraction itself is shared with JavaScript in `crate::lang::ecmascript`.

use std::borrow::Cow;
use std::sync::LazyLock;

use crate::error::ExtractError;
use crate::language::{Backend, LanguageSpec, TreeSitterBackend};
use crate::query::{CompiledQuery, QueryFile};

/// The query files of TypeScript and TSX.
const QUERIES: &[QueryFile] = &[
    QueryFile {
        name: "javascript/imports.scm",
        text: include_str!("../../../queries/javascript/imports.scm"),
    },
    QueryFile {
        name: "javascript/clients.scm",
        text: include_str!("../../../queries/javascript/clients.scm"),
    },
    QueryFile {
        name: "javascript/http.scm",
        text: include_str!("../../../queries/javascript/http.scm"),
    },
    QueryFile {
        name: "javascript/routes.scm",
        text: include_str!("../../../queries/javascript/routes.scm"),
    },
    QueryFile {
        name: "javascript/graph.scm",
        text: include_str!("../../../queries/javascript/graph.scm"),
    },
    QueryFile {
        name: "typescript/imports.scm",
        text: include_str!("../../../queries/typescript/imports.scm"),
    },
    QueryFile {
        name: "typescript/clients.scm",
        text: include_str!("../../../queries/typescript/clients.scm"),
    },
];

/// TypeScript without JSX (`.ts`, `.mts`, `.cts`, declaration files included).
pub(crate) static TYPESCRIPT: LanguageSpec = LanguageSpec {
    name: "typescript",
    extractor: "typescript",
    // Vue and Svelte components too: their `<script>` blocks (`crate::lang::ecmascript::single_file_components`).
    extensions: &["ts", "mts", "cts", "vue", "svelte"],
    queries: QUERIES,
    backend: Backend::TreeSitter(TreeSitterBackend {
        grammar: || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        extract: crate::lang::ecmascript::extract,
        compiled: &TYPESCRIPT_QUERY,
        parse_text: Some(awaited_generic_calls),
        recovery: &[unnamed_parameters, using_names],
        declarations: None,
        script_text: Some(super::single_file_components::script_text),
    }),
};

/// TypeScript with JSX (`.tsx`); its facts carry `language: typescript`.
pub(crate) static TSX: LanguageSpec = LanguageSpec {
    name: "typescript",
    extractor: "typescript",
    extensions: &["tsx"],
    queries: QUERIES,
    backend: Backend::TreeSitter(TreeSitterBackend {
        grammar: || tree_sitter_typescript::LANGUAGE_TSX.into(),
        extract: crate::lang::ecmascript::extract,
        compiled: &TSX_QUERY,
        parse_text: Some(awaited_generic_calls),
        recovery: &[unnamed_parameters, using_names],
        declarations: None,
        script_text: None,
    }),
};

/// The type keywords a function type's one parameter may be named by.
const TYPE_KEYWORDS: [&str; 10] = [
    "string", "number", "boolean", "any", "unknown", "object", "symbol", "bigint", "never", "void",
];

/// A function type whose one parameter is named like a type keyword, `(string) => void` (a
/// parameter `string` of implicit type, which TypeScript accepts without `noImplicitAny`), read
/// with the keyword's first letter made `_`: tree-sitter-typescript 0.23 takes `(string)` for a
/// parenthesized type and cannot read the `=>` after it, and an arrow function that takes such
/// a callback loses its body. The parameter's name is read from the source as written. The
/// rewrite keeps every byte at its offset.
fn unnamed_parameters(source: &str) -> Option<String> {
    let mut rewritten: Option<Vec<u8>> = None;
    for (open, _) in source.match_indices('(') {
        let rest = source.get(open + 1..).unwrap_or_default();
        let Some(keyword) = TYPE_KEYWORDS
            .iter()
            .find(|keyword| rest.starts_with(**keyword))
        else {
            continue;
        };
        let after = rest.get(keyword.len()..).unwrap_or_default();
        let is_function_type = after
            .strip_prefix(')')
            .is_some_and(|after| after.trim_start().starts_with("=>"));
        if is_function_type {
            let bytes = rewritten.get_or_insert_with(|| source.as_bytes().to_vec());
            if let Some(first) = bytes.get_mut(open + 1) {
                *first = b'_';
            }
        }
    }
    rewritten.and_then(|bytes| String::from_utf8(bytes).ok())
}

/// Each `using` that names something, read as `_sing`: tree-sitter-typescript 0.23 takes every
/// `using` for the keyword of TypeScript 5.2's `using` declarations, so a variable, parameter
/// or property of that name (`const using = …`, `if (!using)`, `{ using }`: chainlit's chat step
/// component) leaves the file in error, a whole component body lost. A `using` that starts a
/// declaration (`using res = open()`, `using res: Res = …`, `for (using x of xs)`) is kept. The
/// name is read from the source as written; every byte stays at its offset.
fn using_names(source: &str) -> Option<String> {
    const WORD: &str = "using";
    let bytes = source.as_bytes();
    let mut rewritten: Option<Vec<u8>> = None;
    for (at, _) in source.match_indices(WORD) {
        let before = at.checked_sub(1).and_then(|index| bytes.get(index));
        let end = at + WORD.len();
        if before.is_some_and(|byte| is_name_byte(*byte))
            || bytes.get(end).is_some_and(|byte| is_name_byte(*byte))
        {
            continue;
        }
        if starts_declaration(bytes, end) {
            continue;
        }
        let text = rewritten.get_or_insert_with(|| bytes.to_vec());
        if let Some(first) = text.get_mut(at) {
            *first = b'_';
        }
    }
    rewritten.and_then(|bytes| String::from_utf8(bytes).ok())
}

/// Whether the text at `from`, right after a `using`, makes it a declaration's keyword: blanks
/// on the same line, a binding name, then `=` (not `==` or `=>`), a type annotation's `:` or
/// `of`.
fn starts_declaration(bytes: &[u8], from: usize) -> bool {
    let mut at = from;
    let blanks = |at: &mut usize| {
        while bytes
            .get(*at)
            .is_some_and(|byte| matches!(byte, b' ' | b'\t'))
        {
            *at += 1;
        }
    };
    blanks(&mut at);
    if at == from
        || !bytes
            .get(at)
            .is_some_and(|byte| is_name_byte(*byte) && !byte.is_ascii_digit())
    {
        return false;
    }
    let name_start = at;
    while bytes.get(at).is_some_and(|byte| is_name_byte(*byte)) {
        at += 1;
    }
    let name = bytes.get(name_start..at).unwrap_or_default();
    if matches!(name, b"in" | b"instanceof" | b"as" | b"satisfies") {
        return false;
    }
    blanks(&mut at);
    match bytes.get(at) {
        Some(b':') => true,
        Some(b'=') => !matches!(bytes.get(at + 1), Some(b'=' | b'>')),
        Some(b'o') => bytes.get(at..at + 3).is_some_and(|of| {
            of.get(..2) == Some(b"of") && !of.get(2).is_some_and(|byte| is_name_byte(*byte))
        }),
        _ => false,
    }
}

/// The text a TypeScript file is parsed as: with the `await` of each awaited generic call
/// blanked (every byte at its offset). tsc reads `await axios.get<Info>(url)` as the await of a
/// generic call; tree-sitter-typescript 0.23 reads it as a generic call of `await axios.get`, so
/// no client, request or callee was seen (halo's console: `await axios.get<Info>(url)`,
/// `await paginate<Request, Menu>(…)`). Without its `await` the call is read as tsc reads it, its
/// type arguments kept (the names they use are type uses); no fact reads the `await` of a call.
/// The callee is a plain chain (`a`, `this.http.get`, `a?.b`, over lines too), the arguments
/// follow the closing `>` on the same line.
fn awaited_generic_calls(source: &str) -> Cow<'_, str> {
    let bytes = source.as_bytes();
    let mut blanked: Option<Vec<u8>> = None;
    for (at, _) in source.match_indices("await") {
        let before = at.checked_sub(1).and_then(|index| bytes.get(index));
        if before.is_some_and(|byte| is_name_byte(*byte) || *byte == b'.') {
            continue;
        }
        let Some(open) = generic_callee_end(bytes, at + "await".len()) else {
            continue;
        };
        if type_arguments_end(bytes, open).is_none() {
            continue;
        }
        let text = blanked.get_or_insert_with(|| bytes.to_vec());
        for byte in text.iter_mut().skip(at).take("await".len()) {
            *byte = b' ';
        }
    }
    match blanked.map(String::from_utf8) {
        Some(Ok(text)) => Cow::Owned(text),
        _ => Cow::Borrowed(source),
    }
}

/// Whether `byte` may stand in a JavaScript name (ASCII; a name with other letters is left as
/// written).
const fn is_name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'$')
}

/// Where the `<` of a generic call's type arguments is, after `await` and blanks at `from`: past
/// a callee chain of names joined by `.`, `?.` or `!.` (blanks around them), the `<` right after
/// the last name.
fn generic_callee_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    let blank = |at: usize| bytes.get(at).is_some_and(u8::is_ascii_whitespace);
    if !blank(at) {
        return None;
    }
    while blank(at) {
        at += 1;
    }
    loop {
        let start = at;
        while bytes.get(at).copied().is_some_and(is_name_byte) {
            at += 1;
        }
        if at == start || bytes.get(start).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        if bytes.get(at) == Some(&b'<') {
            return Some(at);
        }
        // A chain may go on on the next line (`await client\n  .get<T>(…)`), past line comments.
        at = past_blanks(bytes, at);
        match (bytes.get(at), bytes.get(at + 1)) {
            (Some(b'.'), _) => at += 1,
            (Some(b'?' | b'!'), Some(b'.')) => at += 2,
            _ => return None,
        }
        at = past_blanks(bytes, at);
    }
}

/// The first byte from `at` on that is no blank and starts no line comment.
fn past_blanks(bytes: &[u8], mut at: usize) -> usize {
    loop {
        match (bytes.get(at), bytes.get(at + 1)) {
            (Some(byte), _) if byte.is_ascii_whitespace() => at += 1,
            (Some(b'/'), Some(b'/')) => {
                while bytes.get(at).is_some_and(|byte| *byte != b'\n') {
                    at += 1;
                }
            }
            _ => return at,
        }
    }
}

/// The closing `>` of the type arguments that open at `open`, when a `(` follows it on the same
/// line: angle brackets balanced (an arrow's `=>` is none), no `;` outside braces, at most 2000
/// bytes.
fn type_arguments_end(bytes: &[u8], open: usize) -> Option<usize> {
    let (mut angles, mut brackets) = (0_usize, 0_usize);
    let mut at = open;
    while at < open + 2000 {
        let byte = *bytes.get(at)?;
        match byte {
            b'<' => angles += 1,
            b'>' if at > open && bytes.get(at - 1) == Some(&b'=') => {}
            b'>' => {
                angles = angles.checked_sub(1)?;
                if angles == 0 {
                    let mut next = at + 1;
                    while bytes
                        .get(next)
                        .is_some_and(|byte| matches!(byte, b' ' | b'\t'))
                    {
                        next += 1;
                    }
                    return (bytes.get(next) == Some(&b'(') && brackets == 0).then_some(at);
                }
            }
            b'(' | b'[' | b'{' => brackets += 1,
            b')' | b']' | b'}' => brackets = brackets.checked_sub(1)?,
            b';' if brackets == 0 => return None,
            _ => {}
        }
        at += 1;
    }
    None
}

/// The compiled query of [`TYPESCRIPT`].
static TYPESCRIPT_QUERY: LazyLock<Result<CompiledQuery, ExtractError>> = LazyLock::new(|| {
    CompiledQuery::compile(
        TYPESCRIPT.name,
        TYPESCRIPT.queries,
        TYPESCRIPT.grammar(),
        true,
    )
});

/// The compiled query of [`TSX`].
static TSX_QUERY: LazyLock<Result<CompiledQuery, ExtractError>> =
    LazyLock::new(|| CompiledQuery::compile(TSX.name, TSX.queries, TSX.grammar(), true));

#[cfg(test)]
mod tests {
    use super::{awaited_generic_calls, using_names};

    #[test]
    fn a_using_that_names_something_is_read_as_a_name_and_a_declaration_keeps_its_keyword() {
        let read = |source: &str| using_names(source);
        assert_eq!(
            read("const using = a && !b;\nif (!using) f(using);").as_deref(),
            Some("const _sing = a && !b;\nif (!_sing) f(_sing);")
        );
        assert_eq!(
            read("function t(using: boolean) { return { using }; }").as_deref(),
            Some("function t(_sing: boolean) { return { _sing }; }")
        );
        assert_eq!(
            read("x = using ? 1 : using == 2;").as_deref(),
            Some("x = _sing ? 1 : _sing == 2;")
        );
        for unchanged in [
            "using res = open();",
            "await using conn: Conn = await connect();",
            "for (using x of xs) {}",
            "const isUsing = usingCount + reusing;",
            "y.usingX = 1;",
        ] {
            assert_eq!(read(unchanged), None, "{unchanged}");
        }
    }

    #[test]
    fn the_await_of_a_generic_call_is_blanked_and_nothing_else() {
        let blanked = |source: &str| awaited_generic_calls(source).into_owned();
        assert_eq!(
            blanked("const a = await axios.get<Info>(url);"),
            "const a =       axios.get<Info>(url);"
        );
        assert_eq!(
            blanked("x = await this.http?.get<{ a: () => void }>('/x')"),
            "x =       this.http?.get<{ a: () => void }>('/x')"
        );
        assert_eq!(
            blanked("await client\n  .get<Array<T>>(u)"),
            "      client\n  .get<Array<T>>(u)"
        );
        for unchanged in [
            "await a < b;",
            "await x.y<T>;",
            "awaits<T>(x);",
            "obj.await<T>(x);",
            "await f(x)<T>(y);",
            "await 1<2>(3);",
            "await f<T; U>(x);",
        ] {
            assert_eq!(blanked(unchanged), unchanged);
        }
    }
}
