//! Python (`.py`, `.pyi`): the grammar of `tree-sitter-python`; extraction in `crate::lang::python`.

use std::sync::LazyLock;

use crate::error::ExtractError;
use crate::language::{Backend, LanguageSpec, TreeSitterBackend};
use crate::query::{CompiledQuery, QueryFile};

/// The query files of Python.
const QUERIES: &[QueryFile] = &[
    QueryFile {
        name: "python/imports.scm",
        text: include_str!("../../../queries/python/imports.scm"),
    },
    QueryFile {
        name: "python/clients.scm",
        text: include_str!("../../../queries/python/clients.scm"),
    },
    QueryFile {
        name: "python/web.scm",
        text: include_str!("../../../queries/python/web.scm"),
    },
    QueryFile {
        name: "python/graph.scm",
        text: include_str!("../../../queries/python/graph.scm"),
    },
];

/// Python.
pub(crate) static PYTHON: LanguageSpec = LanguageSpec {
    name: "python",
    extractor: "python",
    extensions: &["py", "pyi"],
    queries: QUERIES,
    backend: Backend::TreeSitter(TreeSitterBackend {
        grammar: || tree_sitter_python::LANGUAGE.into(),
        extract: crate::lang::python::extract,
        compiled: &PYTHON_QUERY,
        parse_text: Some(super::parse_text),
        recovery: &[],
        declarations: None,
        script_text: None,
    }),
};

/// The compiled query of [`PYTHON`].
static PYTHON_QUERY: LazyLock<Result<CompiledQuery, ExtractError>> =
    LazyLock::new(|| CompiledQuery::compile(PYTHON.name, PYTHON.queries, PYTHON.grammar(), true));
