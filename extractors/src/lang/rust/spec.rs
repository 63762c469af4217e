//! Rust (`.rs`): the grammar of `tree-sitter-rust`; extraction in `crate::lang::rust`.

use std::sync::LazyLock;

use crate::error::ExtractError;
use crate::language::{Backend, LanguageSpec, TreeSitterBackend};
use crate::query::{CompiledQuery, QueryFile};

/// The query files of Rust.
const QUERIES: &[QueryFile] = &[
    QueryFile {
        name: "rust/imports.scm",
        text: include_str!("../../../queries/rust/imports.scm"),
    },
    QueryFile {
        name: "rust/clients.scm",
        text: include_str!("../../../queries/rust/clients.scm"),
    },
    QueryFile {
        name: "rust/web.scm",
        text: include_str!("../../../queries/rust/web.scm"),
    },
    QueryFile {
        name: "rust/graph.scm",
        text: include_str!("../../../queries/rust/graph.scm"),
    },
];

/// Rust.
pub(crate) static RUST: LanguageSpec = LanguageSpec {
    name: "rust",
    extractor: "rust",
    extensions: &["rs"],
    queries: QUERIES,
    backend: Backend::TreeSitter(TreeSitterBackend {
        grammar: || tree_sitter_rust::LANGUAGE.into(),
        extract: crate::lang::rust::extract,
        compiled: &RUST_QUERY,
        parse_text: None,
        recovery: &[super::recovery::field_attributes],
        declarations: Some(crate::lang::rust::declarations::module_names),
        script_text: None,
    }),
};

/// The compiled query of [`RUST`].
static RUST_QUERY: LazyLock<Result<CompiledQuery, ExtractError>> =
    LazyLock::new(|| CompiledQuery::compile(RUST.name, RUST.queries, RUST.grammar(), true));
