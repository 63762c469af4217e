//! JavaScript, JSX included: the grammar of `tree-sitter-javascript`.
//!
//! The JavaScript query files use only node types that the TypeScript grammars share, so the
//! TypeScript specs load them too, except `javascript/classes.scm`, which matches the JavaScript
//! grammar's `class_heritage` (the TypeScript grammars' is matched in `typescript/clients.scm`). Extraction is shared with TypeScript in `crate::lang::ecmascript`;
//! facts carry `language: javascript` and the extractor name `typescript`.

use std::sync::LazyLock;

use crate::error::ExtractError;
use crate::language::{Backend, LanguageSpec, TreeSitterBackend};
use crate::query::{CompiledQuery, QueryFile};

/// The query files of JavaScript.
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
        name: "javascript/classes.scm",
        text: include_str!("../../../queries/javascript/classes.scm"),
    },
];

/// JavaScript (`.js`, `.jsx`, `.mjs`, `.cjs`).
pub(crate) static JAVASCRIPT: LanguageSpec = LanguageSpec {
    name: "javascript",
    extractor: "typescript",
    extensions: &["js", "jsx", "mjs", "cjs"],
    queries: QUERIES,
    backend: Backend::TreeSitter(TreeSitterBackend {
        grammar: || tree_sitter_javascript::LANGUAGE.into(),
        extract: crate::lang::ecmascript::extract,
        compiled: &JAVASCRIPT_QUERY,
        parse_text: None,
        recovery: &[],
        declarations: None,
        script_text: None,
    }),
};

/// The compiled query of [`JAVASCRIPT`].
static JAVASCRIPT_QUERY: LazyLock<Result<CompiledQuery, ExtractError>> = LazyLock::new(|| {
    CompiledQuery::compile(
        JAVASCRIPT.name,
        JAVASCRIPT.queries,
        JAVASCRIPT.grammar(),
        true,
    )
});
