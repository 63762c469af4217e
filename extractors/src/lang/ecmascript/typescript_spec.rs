//! TypeScript and TSX: the TypeScript grammars of `tree-sitter-typescript`.
//!
//! TypeScript is a superset of JavaScript, so both specs load the JavaScript query files (whose
//! patterns use only node types the two grammars share) plus the TypeScript-only patterns of
//! `queries/typescript/`. Extraction itself is shared with JavaScript in `crate::lang::ecmascript`.

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
        parse_text: None,
        recovery: &[unnamed_parameters],
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
        parse_text: None,
        recovery: &[unnamed_parameters],
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
