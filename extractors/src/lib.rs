#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

//! # Entry points
//!
//! [`ProjectContext::discover`] reads the project's resolution configuration once per run;
//! [`extract_file`] parses one file and returns its facts. Both are deterministic: the same
//! input gives the same facts in the same order, whatever the thread.

mod context;
mod ecmascript;
mod error;
mod facts_out;
mod lang;
mod query;
mod route_path;
mod syntax;

pub use context::ProjectContext;
pub use error::{ExtractError, QueryCompileError, UnknownCaptureError};
pub use lang::{Language, LanguageSpec, QueryFile};
pub use query::{capture_vocabulary, compile_queries};

use policies::facts::Fact;

/// The result of extracting one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileExtraction {
    /// The language the file was parsed as.
    pub language: Language,
    /// The file's graph facts, sorted by (line, column, kind), with unique ids.
    pub facts: Vec<Fact>,
    /// The number of `ERROR` and `MISSING` nodes in the syntax tree.
    pub parse_errors: usize,
    /// The 1-based line and column of the first parse error, if any.
    pub first_parse_error: Option<(u32, u32)>,
}

/// Extracts the graph facts of one project file.
///
/// `path` is project-relative with `/` separators. The file is parsed once with a thread-local
/// parser and queried once with the language's compiled query, so rayon workers may call this
/// concurrently. Returns `None` when no supported language claims the path. Never panics:
/// broken source still yields the facts tree-sitter could recover, plus a parse-error count.
pub fn extract_file(context: &ProjectContext, path: &str, source: &str) -> Option<FileExtraction> {
    let language = Language::for_path(path)?;
    let spec = language.spec();
    let Some(tree) = syntax::parse(spec, source) else {
        // Only a cancelled or misconfigured parse returns no tree; report it as one parse error
        // so the engine records a `parse-errors` warning instead of silently dropping the file.
        return Some(FileExtraction {
            language,
            facts: Vec::new(),
            parse_errors: 1,
            first_parse_error: Some((1, 1)),
        });
    };
    let errors = syntax::count_parse_errors(&tree, source);
    let facts = match query::compiled(language) {
        Ok(compiled) => {
            let input = ExtractionInput {
                context,
                path,
                source,
                language,
                tree: &tree,
                query: compiled,
            };
            let mut facts = (spec.extract)(&input);
            facts_out::finish(&mut facts);
            facts
        }
        // A query that does not compile is an internal error that `compile_queries` reports and
        // the test suite catches; a file must not fail because of it.
        Err(_) => Vec::new(),
    };
    Some(FileExtraction {
        language,
        facts,
        parse_errors: errors.count,
        first_parse_error: errors.first,
    })
}

/// Everything a language's extractor needs for one file.
pub(crate) struct ExtractionInput<'a> {
    /// Project-wide resolution configuration.
    pub context: &'a ProjectContext,
    /// Project-relative path of the file.
    pub path: &'a str,
    /// The file's text.
    pub source: &'a str,
    /// The language the file is parsed as.
    pub language: Language,
    /// The file's syntax tree.
    pub tree: &'a tree_sitter::Tree,
    /// The language's compiled query.
    pub query: &'a query::CompiledQuery,
}
