//! C# (`.cs`): the grammar of `tree-sitter-c-sharp`; extraction in `crate::lang::csharp`.

use std::sync::LazyLock;

use crate::error::ExtractError;
use crate::language::{Backend, LanguageSpec, TreeSitterBackend};
use crate::query::{CompiledQuery, QueryFile};

/// The query files of C#.
const QUERIES: &[QueryFile] = &[
    QueryFile {
        name: "csharp/imports.scm",
        text: include_str!("../../../queries/csharp/imports.scm"),
    },
    QueryFile {
        name: "csharp/clients.scm",
        text: include_str!("../../../queries/csharp/clients.scm"),
    },
    QueryFile {
        name: "csharp/graph.scm",
        text: include_str!("../../../queries/csharp/graph.scm"),
    },
    QueryFile {
        name: "csharp/di.scm",
        text: include_str!("../../../queries/csharp/di.scm"),
    },
    QueryFile {
        name: "csharp/web.scm",
        text: include_str!("../../../queries/csharp/web.scm"),
    },
];

/// C#.
pub(crate) static CSHARP: LanguageSpec = LanguageSpec {
    name: "csharp",
    extractor: "csharp",
    extensions: &["cs"],
    queries: QUERIES,
    backend: Backend::TreeSitter(TreeSitterBackend {
        grammar: || tree_sitter_c_sharp::LANGUAGE.into(),
        extract: crate::lang::csharp::extract,
        compiled: &CSHARP_QUERY,
        parse_text: None,
        recovery: &[
            crate::conditional::first_branches,
            super::interpolation::escaped_brace_holes,
            super::interpolation::colon_format_holes,
        ],
        declarations: Some(super::type_declarations),
        script_text: None,
    }),
};

/// The compiled query of [`CSHARP`].
static CSHARP_QUERY: LazyLock<Result<CompiledQuery, ExtractError>> =
    LazyLock::new(|| CompiledQuery::compile(CSHARP.name, CSHARP.queries, CSHARP.grammar(), true));
