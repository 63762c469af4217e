//! Kotlin (`.kt`, `.kts`): the grammar of `tree-sitter-kotlin-ng`; extraction in `crate::lang::kotlin`.

use std::sync::LazyLock;

use crate::error::ExtractError;
use crate::language::{Backend, LanguageSpec, TreeSitterBackend};
use crate::query::{CompiledQuery, QueryFile};

/// The query files of Kotlin.
const QUERIES: &[QueryFile] = &[
    QueryFile {
        name: "kotlin/imports.scm",
        text: include_str!("../../../queries/kotlin/imports.scm"),
    },
    QueryFile {
        name: "kotlin/clients.scm",
        text: include_str!("../../../queries/kotlin/clients.scm"),
    },
    QueryFile {
        name: "kotlin/graph.scm",
        text: include_str!("../../../queries/kotlin/graph.scm"),
    },
    QueryFile {
        name: "kotlin/web.scm",
        text: include_str!("../../../queries/kotlin/web.scm"),
    },
];

/// Kotlin.
pub(crate) static KOTLIN: LanguageSpec = LanguageSpec {
    name: "kotlin",
    extractor: "kotlin",
    extensions: &["kt", "kts"],
    queries: QUERIES,
    backend: Backend::TreeSitter(TreeSitterBackend {
        grammar: || tree_sitter_kotlin_ng::LANGUAGE.into(),
        extract: crate::lang::kotlin::extract,
        compiled: &KOTLIN_QUERY,
        parse_text: None,
        recovery: &[
            super::without_context_parameters,
            super::without_multi_dollar_prefixes,
            super::without_accessor_annotations,
            super::with_calls_after_properties,
            super::with_backing_fields_as_getters,
        ],
        declarations: Some(super::type_declarations),
        script_text: None,
    }),
};

/// The compiled query of [`KOTLIN`].
static KOTLIN_QUERY: LazyLock<Result<CompiledQuery, ExtractError>> =
    LazyLock::new(|| CompiledQuery::compile(KOTLIN.name, KOTLIN.queries, KOTLIN.grammar(), true));
