//! Go (`.go`): the grammar of `tree-sitter-go`; extraction in `crate::lang::go`.

use std::sync::LazyLock;

use crate::error::ExtractError;
use crate::language::{Backend, LanguageSpec, TreeSitterBackend};
use crate::query::{CompiledQuery, QueryFile};

/// The query files of Go.
const QUERIES: &[QueryFile] = &[
    QueryFile {
        name: "go/imports.scm",
        text: include_str!("../../../queries/go/imports.scm"),
    },
    QueryFile {
        name: "go/clients.scm",
        text: include_str!("../../../queries/go/clients.scm"),
    },
    QueryFile {
        name: "go/web.scm",
        text: include_str!("../../../queries/go/web.scm"),
    },
    QueryFile {
        name: "go/graph.scm",
        text: include_str!("../../../queries/go/graph.scm"),
    },
];

/// Go.
pub(crate) static GO: LanguageSpec = LanguageSpec {
    name: "go",
    extractor: "go",
    extensions: &["go"],
    queries: QUERIES,
    backend: Backend::TreeSitter(TreeSitterBackend {
        grammar: || tree_sitter_go::LANGUAGE.into(),
        extract: crate::lang::go::extract,
        compiled: &GO_QUERY,
        parse_text: None,
        recovery: &[crate::lang::go::new_of_expressions],
        declarations: None,
        script_text: None,
    }),
};

/// The compiled query of [`GO`].
static GO_QUERY: LazyLock<Result<CompiledQuery, ExtractError>> =
    LazyLock::new(|| CompiledQuery::compile(GO.name, GO.queries, GO.grammar(), true));
