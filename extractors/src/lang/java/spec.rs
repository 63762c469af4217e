//! Java (`.java`): the grammar of `tree-sitter-java`; extraction in `crate::lang::java`.

use std::sync::LazyLock;

use crate::error::ExtractError;
use crate::language::{Backend, LanguageSpec, TreeSitterBackend};
use crate::query::{CompiledQuery, QueryFile};

/// The query files of Java.
const QUERIES: &[QueryFile] = &[
    QueryFile {
        name: "java/imports.scm",
        text: include_str!("../../../queries/java/imports.scm"),
    },
    QueryFile {
        name: "java/clients.scm",
        text: include_str!("../../../queries/java/clients.scm"),
    },
    QueryFile {
        name: "java/graph.scm",
        text: include_str!("../../../queries/java/graph.scm"),
    },
    QueryFile {
        name: "java/web.scm",
        text: include_str!("../../../queries/java/web.scm"),
    },
];

/// Java.
pub(crate) static JAVA: LanguageSpec = LanguageSpec {
    name: "java",
    extractor: "java",
    extensions: &["java"],
    queries: QUERIES,
    backend: Backend::TreeSitter(TreeSitterBackend {
        grammar: || tree_sitter_java::LANGUAGE.into(),
        extract: crate::lang::java::extract,
        compiled: &JAVA_QUERY,
        parse_text: None,
        recovery: &[super::without_vararg_annotations],
        declarations: Some(super::type_declarations),
        script_text: None,
    }),
};

/// The compiled query of [`JAVA`].
static JAVA_QUERY: LazyLock<Result<CompiledQuery, ExtractError>> =
    LazyLock::new(|| CompiledQuery::compile(JAVA.name, JAVA.queries, JAVA.grammar(), true));
