//! Swift (`.swift`): the grammar of `tree-sitter-swift`; extraction in `crate::lang::swift`.

use std::sync::LazyLock;

use crate::error::ExtractError;
use crate::language::{Backend, LanguageSpec, TreeSitterBackend};
use crate::query::{CompiledQuery, QueryFile};

/// The query files of Swift.
const QUERIES: &[QueryFile] = &[
    QueryFile {
        name: "swift/imports.scm",
        text: include_str!("../../../queries/swift/imports.scm"),
    },
    QueryFile {
        name: "swift/clients.scm",
        text: include_str!("../../../queries/swift/clients.scm"),
    },
    QueryFile {
        name: "swift/web.scm",
        text: include_str!("../../../queries/swift/web.scm"),
    },
    QueryFile {
        name: "swift/graph.scm",
        text: include_str!("../../../queries/swift/graph.scm"),
    },
];

/// Swift.
pub(crate) static SWIFT: LanguageSpec = LanguageSpec {
    name: "swift",
    extractor: "swift",
    extensions: &["swift"],
    queries: QUERIES,
    backend: Backend::TreeSitter(TreeSitterBackend {
        grammar: || tree_sitter_swift::LANGUAGE.into(),
        extract: crate::lang::swift::extract,
        compiled: &SWIFT_QUERY,
        parse_text: None,
        recovery: &[
            super::without_diagnostics,
            crate::conditional::without_directives,
            super::without_switch_await,
        ],
        declarations: None,
        script_text: None,
    }),
};

/// The compiled query of [`SWIFT`].
static SWIFT_QUERY: LazyLock<Result<CompiledQuery, ExtractError>> =
    LazyLock::new(|| CompiledQuery::compile(SWIFT.name, SWIFT.queries, SWIFT.grammar(), true));
