#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

//! # Entry points
//!
//! [`ProjectContext::discover`] reads the project's resolution configuration once per run;
//! [`extract_file`] parses one file and returns its facts. Both are deterministic: the same
//! input gives the same facts in the same order, whatever the thread.

pub mod agq;
mod aspnet;
mod clients;
mod context;
mod csharp;
mod csharp_walk;
mod ecmascript;
mod error;
mod facts_out;
mod generated;
mod go;
mod go_walk;
mod go_web;
mod graph;
mod imports_out;
mod java;
mod java_walk;
mod jvm;
mod kotlin;
mod kotlin_walk;
mod kotlin_web;
mod lang;
mod links;
mod python;
mod python_walk;
mod python_web;
mod query;
mod route_path;
mod rust;
mod rust_walk;
mod rust_web;
mod source_scope;
mod spring;
mod swift;
mod swift_walk;
mod swift_web;
mod syntax;
#[cfg(test)]
mod walk_check;
mod web_out;
mod workflow;

pub use context::{GitAttributes, ProjectContext};
pub use error::{ExtractError, QueryCompileError, UnknownCaptureError};
pub use generated::is_generated;
pub use lang::{Language, LanguageSpec, QueryFile};
pub use links::{
    link_routes, PathConstant, RouteLinks, RouterExport, RouterMember, RouterMount, RouterPrefix,
    RouterRef,
};
pub use query::{capture_vocabulary, compile_queries, QueryTiming};

use std::cell::RefCell;

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
    /// Why the file could not be read at all (a workflow that is not valid YAML), with the
    /// 1-based line and column in the text: the engine reports it as a `file-skipped` warning.
    /// `facts` is empty then.
    pub skipped: Option<String>,
    /// The query passes over the file, timed, when
    /// [`ProjectContext::set_query_timing`] asked for them (`--debug-extractors`); empty
    /// otherwise, and for files read without tree-sitter.
    pub queries: Vec<QueryTiming>,
    /// What [`link_routes`] needs to apply route prefixes that cross files (mounts of routers
    /// declared elsewhere); empty for most files.
    pub links: RouteLinks,
}

/// Parses `path` with its grammar and nothing else, returning the number of error nodes:
/// the floor that benchmarks compare the whole pipeline against. `None` for files no
/// tree-sitter grammar reads.
pub fn parse_only(path: &str, source: &str) -> Option<usize> {
    let lang::Backend::TreeSitter(backend) = Language::for_path(path)?.spec().backend else {
        return None;
    };
    let tree = syntax::parse(backend.grammar, source)?;
    Some(syntax::count_parse_errors(&tree, source).count)
}

/// Extracts the graph facts of one project file.
///
/// `path` is project-relative with `/` separators. The file is parsed once with a thread-local
/// parser and queried once with the language's compiled query (every language: one walk
/// that finds the same matches), so rayon workers may call this
/// concurrently. Returns `None` when no supported language claims the path. Never panics:
/// broken source still yields the facts tree-sitter could recover, plus a parse-error count.
pub fn extract_file(context: &ProjectContext, path: &str, source: &str) -> Option<FileExtraction> {
    let language = Language::for_path(path)?;
    let spec = language.spec();
    let backend = match spec.backend {
        lang::Backend::TreeSitter(backend) => backend,
        lang::Backend::Document(read) => {
            let input = DocumentInput {
                context,
                path,
                source,
                language,
            };
            let (mut facts, skipped) = match read(&input) {
                Ok(facts) => (facts, None),
                Err(reason) => (Vec::new(), Some(reason)),
            };
            facts_out::finish(&mut facts);
            return Some(FileExtraction {
                language,
                facts,
                parse_errors: 0,
                first_parse_error: None,
                skipped,
                queries: Vec::new(),
                links: RouteLinks::default(),
            });
        }
    };
    let Some(tree) = syntax::parse(backend.grammar, source) else {
        // Only a cancelled or misconfigured parse returns no tree; report it as one parse error
        // so the engine records a `parse-errors` warning instead of silently dropping the file.
        return Some(FileExtraction {
            language,
            facts: Vec::new(),
            parse_errors: 1,
            first_parse_error: Some((1, 1)),
            skipped: None,
            queries: Vec::new(),
            links: RouteLinks::default(),
        });
    };
    let errors = syntax::count_parse_errors(&tree, source);
    let query = query::QueryHandle::new(language, context.generic_facts(), context.query_timing());
    // A query that does not compile is an internal error that `compile_queries` reports and the
    // test suite catches; a file must not fail because of it. Every tree-sitter language now
    // matches its patterns with a hand-written walk that finds what its query files describe (`ecmascript::walk`, `python_walk`, `go_walk`, `rust_walk`,
    // `swift_walk`, `java_walk`, `kotlin_walk`, `csharp_walk`), so those never compile it.
    let (facts, links) = if walks_instead_of_query(language) || query.compiled().is_some() {
        let input = ExtractionInput {
            context,
            path,
            source,
            language,
            tree: &tree,
            query: &query,
            links: RefCell::new(RouteLinks::default()),
        };
        let mut facts = (backend.extract)(&input);
        facts_out::finish(&mut facts);
        (facts, input.links.into_inner())
    } else {
        (Vec::new(), RouteLinks::default())
    };
    Some(FileExtraction {
        language,
        facts,
        parse_errors: errors.count,
        first_parse_error: errors.first,
        skipped: None,
        queries: query.into_timings(),
        links,
    })
}

/// Whether `language` finds its query matches with a hand-written walk instead of its query.
fn walks_instead_of_query(language: Language) -> bool {
    ecmascript::reads_without_query(language)
        || matches!(
            language,
            Language::Python
                | Language::Go
                | Language::Rust
                | Language::Swift
                | Language::Java
                | Language::Kotlin
                | Language::CSharp
        )
}

/// Everything a document reader (a language without tree-sitter) needs for one file.
pub(crate) struct DocumentInput<'a> {
    /// Project-wide configuration.
    #[expect(dead_code, reason = "kept for readers that need project configuration")]
    pub context: &'a ProjectContext,
    /// Project-relative path of the file.
    pub path: &'a str,
    /// The file's text.
    pub source: &'a str,
    /// The language the file is read as.
    pub language: Language,
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
    /// The language's query, compiled on first use.
    pub query: &'a query::QueryHandle,
    /// The file's cross-file routing records, filled by the route readers.
    pub links: RefCell<RouteLinks>,
}
