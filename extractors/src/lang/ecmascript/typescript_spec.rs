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
        recovery: &[],
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
        recovery: &[],
        declarations: None,
        script_text: None,
    }),
};

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
