#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

//! # Entry points
//!
//! [`ProjectContext::discover`] reads the project's resolution configuration once per run.
//! Java, Kotlin and C# imports resolve through type indexes of the whole project, so a file is
//! extracted in two passes that parse it once: [`first_pass`] parses it, reads what it declares
//! ([`FirstPass::take_declarations`], for [`ProjectContext::add_declarations`]) and extracts all
//! that needs no index; once every file's declarations are in, [`FirstPass::finish`] resolves
//! the rest without the tree or the source. [`extract_files`] runs both passes over a set of
//! files; [`extract_file`] runs both over one file against the indexes as they are. All are
//! deterministic: the same input gives the same facts in the same order, whatever the thread.

pub mod agq;
pub mod catalogue;
mod conditional;
mod error;
mod facts;
mod generated;
mod generic;
mod lang;
pub mod probes;
mod query;
mod resolve;
mod source_scope;
mod syntax;
mod walk;

pub use error::{ExtractError, QueryCompileError, UnknownCaptureError};
pub use generated::is_generated;
pub use generic::GenericFacts;
pub use lang::{Language, LanguageSpec, QueryFile};
pub use query::{capture_vocabulary, compile_queries, QueryTiming};
pub use resolve::context::{GitAttributes, ProjectContext};
pub use resolve::links::{
    link_routes, ControllerClass, InheritedRoute, PathConstant, RouteLinks, RouterExport,
    RouterMember, RouterMount, RouterPrefix, RouterRef,
};

use std::cell::RefCell;

use policies::facts::Fact;
use rayon::prelude::*;

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
    let language = Language::for_path(path)?;
    let script = lang::ecmascript::single_file_components::script_text(path, source);
    let source = script.as_deref().unwrap_or(source);
    let lang::Backend::TreeSitter(backend) = language.spec().backend else {
        return None;
    };
    let (_, errors) = parse_source(language, backend.grammar, source)?;
    Some(errors.count)
}

/// Parses a file of `language` as extraction reads it ([`parse_text`]), with its parse errors.
/// A file with errors is parsed again without what tree-sitter cannot read, and that tree is
/// kept when it has fewer errors, every byte at its offset: a C# file with the first branch of
/// each `#if` group taken ([`conditional::first_branches`]: a group that splits an expression
/// is an error only to tree-sitter); a Swift file with its `#if` directive lines blanked and
/// every branch kept ([`conditional::without_directives`]: tree-sitter-swift reads a group only
/// where a statement or member may stand, not one that gives a declaration different
/// attributes, nor some conditions), and without its `#warning`/`#error` lines
/// ([`lang::swift::without_diagnostics`]: read among statements only); a Kotlin file without its
/// context parameter lists ([`lang::kotlin::without_context_parameters`]), the `$` prefixes of its
/// multi-dollar strings ([`lang::kotlin::without_multi_dollar_prefixes`]) and the annotations that
/// start an accessor's or a constructor's line ([`lang::kotlin::without_accessor_annotations`]).
fn parse_source(
    language: Language,
    grammar: fn() -> tree_sitter::Language,
    source: &str,
) -> Option<(tree_sitter::Tree, syntax::ParseErrors)> {
    let tree = syntax::parse(grammar, &parse_text(language, source))?;
    let errors = syntax::count_parse_errors(&tree, source);
    if errors.count > 0 {
        let variant = match language {
            Language::CSharp => conditional::first_branches(source),
            Language::Swift => rewritten(
                source,
                &[
                    lang::swift::without_diagnostics,
                    conditional::without_directives,
                ],
            ),
            Language::Kotlin => rewritten(
                source,
                &[
                    lang::kotlin::without_context_parameters,
                    lang::kotlin::without_multi_dollar_prefixes,
                    lang::kotlin::without_accessor_annotations,
                ],
            ),
            _ => None,
        };
        let retried = variant.and_then(|text| {
            let tree = syntax::parse(grammar, &text)?;
            let errors = syntax::count_parse_errors(&tree, source);
            Some((tree, errors))
        });
        if let Some(retried) = retried.filter(|(_, fewer)| fewer.count < errors.count) {
            return Some(retried);
        }
    }
    Some((tree, errors))
}

/// `source` after each of `rewrites` in turn (one that changes nothing passes the text on);
/// `None` when none changed it.
fn rewritten(source: &str, rewrites: &[fn(&str) -> Option<String>]) -> Option<String> {
    rewrites.iter().fold(None, |text, rewrite| {
        rewrite(text.as_deref().unwrap_or(source)).or(text)
    })
}

/// The text tree-sitter parses for a file of `language`: its source, but for Python's stray
/// column-0 comments after an indented decorator ([`lang::python::parse_text`]).
fn parse_text(language: Language, source: &str) -> std::borrow::Cow<'_, str> {
    match language {
        Language::Python => lang::python::parse_text(source),
        _ => std::borrow::Cow::Borrowed(source),
    }
}

/// What a Java, Kotlin or C# file declares, for the project's type indexes
/// ([`ProjectContext::add_declarations`]): its packages or namespaces and top-level types (Kotlin:
/// top-level functions, properties, type aliases and the `@file:JvmName` facade; C#: `global
/// using` namespaces, `const string` fields and the extension methods of static classes).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TypeDeclarations(Declared);

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
enum Declared {
    Jvm(resolve::context::Declarations),
    CSharp {
        declarations: resolve::context::Declarations,
        global_usings: Vec<String>,
        global_aliases: Vec<(String, String)>,
        constants: Vec<(String, String)>,
        extensions: Vec<resolve::context::ExtensionMethod>,
    },
}

impl TypeDeclarations {
    /// The `(namespace, type)` pairs of the file's top-level C# types; `None` for Java and
    /// Kotlin.
    pub(crate) fn csharp_types(&self) -> Option<&resolve::context::Declarations> {
        match &self.0 {
            Declared::CSharp { declarations, .. } => Some(declarations),
            Declared::Jvm(_) => None,
        }
    }
}

/// Reads what `tree` (the file `path`) declares when `language` has a type index. A Kotlin
/// script (`build.gradle.kts`, `*.main.kts`) declares nothing other files can import: its
/// top-level `val`s are the script's own, not members of one default package that every build
/// script of the project shares.
fn declarations_of(
    language: Language,
    path: &str,
    tree: &tree_sitter::Tree,
    source: &str,
) -> Option<TypeDeclarations> {
    if language == Language::Kotlin && path.ends_with(".kts") {
        return None;
    }
    let declared = match language {
        Language::Java => Declared::Jvm(lang::java::declarations(tree, source)),
        Language::Kotlin => Declared::Jvm(lang::kotlin::declarations(tree, source)),
        Language::CSharp => {
            let declared = lang::csharp::declarations(tree, source);
            Declared::CSharp {
                declarations: declared.types,
                global_usings: declared.global_usings,
                global_aliases: declared.global_aliases,
                constants: declared.constants,
                extensions: declared.extensions,
            }
        }
        _ => return None,
    };
    Some(TypeDeclarations(declared))
}

/// Parses a Java, Kotlin or C# file that is not extracted (not owned, generated, skipped) for
/// what it declares: the project's imports may still name its types. `None` for other files,
/// and for Entity Framework migration artefacts, whose types code never names.
pub fn read_declarations(path: &str, source: &str) -> Option<TypeDeclarations> {
    if !reads_declarations(path) {
        return None;
    }
    let language = Language::for_path(path)?;
    let backend = language.spec().tree_sitter()?;
    let (tree, _) = parse_source(language, backend.grammar, source)?;
    declarations_of(language, path, &tree, source)
}

/// Whether [`read_declarations`] parses the file at `path` (project-relative): a Java, Kotlin
/// or C# file, but no EF Core migration artefact. Generated and unowned files are parsed for
/// their declarations too, since other files may name their types.
pub fn reads_declarations(path: &str) -> bool {
    matches!(
        Language::for_path(path),
        Some(Language::Java | Language::Kotlin | Language::CSharp)
    ) && !generated::is_ef_migration_artefact(path)
}

/// A file after the first pass: what it declares, the facts that need no type index, and
/// (Java, Kotlin, C#) the rest kept without the tree or the source, for [`FirstPass::finish`].
pub struct FirstPass {
    path: Box<str>,
    extraction: FileExtraction,
    declarations: Option<TypeDeclarations>,
    deferred: Option<Box<resolve::deferred::Deferred>>,
}

impl FirstPass {
    /// What the file declares, for [`ProjectContext::add_declarations`] (taken once).
    pub fn take_declarations(&mut self) -> Option<TypeDeclarations> {
        self.declarations.take()
    }

    /// The language the file was parsed as.
    pub fn language(&self) -> Language {
        self.extraction.language
    }

    /// Whether the file's facts wait for the type indexes.
    pub fn needs_types(&self) -> bool {
        self.deferred.is_some()
    }

    /// The file's extraction, resolved against the type indexes of `context` (complete once
    /// every file's declarations were added).
    pub fn finish(self, context: &ProjectContext) -> FileExtraction {
        let mut extraction = self.extraction;
        if let Some(deferred) = self.deferred {
            let mut facts = resolve::deferred::finish(
                *deferred,
                std::mem::take(&mut extraction.facts),
                extraction.language,
                &self.path,
                context,
                &mut extraction.links,
            );
            facts::finish(&mut facts);
            extraction.facts = facts;
        }
        extraction
    }
}

/// Extracts the graph facts of one project file, resolving Java, Kotlin and C# imports against
/// the type indexes of `context` as they are (the file's own declarations are not added): the
/// two passes of [`first_pass`] in one call.
///
/// `path` is project-relative with `/` separators. Returns `None` when no supported language
/// claims the path. Never panics: broken source still yields the facts tree-sitter could
/// recover, plus a parse-error count.
pub fn extract_file(context: &ProjectContext, path: &str, source: &str) -> Option<FileExtraction> {
    first_pass(context, path, source).map(|first| first.finish(context))
}

/// Extracts `files` (project-relative, `/` separators) in both passes, reading each once
/// through `read` (`None`: unreadable) on rayon workers: every Java, Kotlin and C# file's
/// declarations are added to `context` (in file order) before any file is finished. Returns the
/// extraction of each file a supported language claims, in the order of `files`.
pub fn extract_files(
    context: &mut ProjectContext,
    files: &[String],
    read: impl Fn(&str) -> Option<String> + Sync,
) -> Vec<(String, FileExtraction)> {
    let shared: &ProjectContext = context;
    let mut first: Vec<(&String, FirstPass)> = files
        .par_iter()
        // One file per rayon job: files' costs differ a hundredfold, and rayon's adaptive
        // splitting could leave one worker alone on a long run of them at the end.
        .with_max_len(1)
        .filter_map(|file| {
            let source = read(file)?;
            Some((file, first_pass(shared, file, &source)?))
        })
        .collect();
    for (file, pass) in &mut first {
        if let Some(declarations) = pass.take_declarations() {
            context.add_declarations(file, declarations);
        }
    }
    let context: &ProjectContext = context;
    first
        .into_par_iter()
        .with_max_len(1)
        .map(|(file, pass)| (file.clone(), pass.finish(context)))
        .collect()
}

/// The first pass over one project file (see [`FirstPass`]): parses it once with a
/// thread-local parser, reads what it declares, and matches the language's patterns once (every
/// language: one walk that finds what its query files describe), so rayon workers may call this
/// concurrently. Returns `None` when no supported language claims the
/// path.
pub fn first_pass(context: &ProjectContext, path: &str, source: &str) -> Option<FirstPass> {
    let language = Language::for_path(path)?;
    // A Vue or Svelte component is read as its `<script>` blocks, in place.
    let script = lang::ecmascript::single_file_components::script_text(path, source);
    let source = script.as_deref().unwrap_or(source);
    let spec = language.spec();
    let done = |extraction: FileExtraction, declarations: Option<TypeDeclarations>| FirstPass {
        path: path.into(),
        extraction,
        declarations,
        deferred: None,
    };
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
            facts::finish(&mut facts);
            return Some(done(
                FileExtraction {
                    language,
                    facts,
                    parse_errors: 0,
                    first_parse_error: None,
                    skipped,
                    queries: Vec::new(),
                    links: RouteLinks::default(),
                },
                None,
            ));
        }
    };
    let Some((tree, errors)) = parse_source(language, backend.grammar, source) else {
        // Only a cancelled or misconfigured parse returns no tree; report it as one parse error
        // so the engine records a `parse-errors` warning instead of silently dropping the file.
        return Some(done(
            FileExtraction {
                language,
                facts: Vec::new(),
                parse_errors: 1,
                first_parse_error: Some((1, 1)),
                skipped: None,
                queries: Vec::new(),
                links: RouteLinks::default(),
            },
            None,
        ));
    };
    let declarations = declarations_of(language, path, &tree, source);
    let query = query::QueryHandle::new(language, context.generic_facts(), context.query_timing());
    // A query that does not compile is an internal error that `compile_queries` reports and the
    // test suite catches; a file must not fail because of it. Every tree-sitter language now
    // matches its patterns with a hand-written walk that finds what its query files describe (`ecmascript::walk`, `python_walk`, `go_walk`, `rust_walk`,
    // `swift_walk`, `java_walk`, `kotlin_walk`, `csharp_walk`), so those never compile it.
    let (facts, links, deferred) = if walks_instead_of_query(language) || query.compiled().is_some()
    {
        let input = ExtractionInput {
            context,
            path,
            source,
            language,
            tree: &tree,
            query: &query,
            links: RefCell::new(RouteLinks::default()),
            deferred: RefCell::new(None),
            declarations: declarations.as_ref(),
        };
        let mut facts = (backend.extract)(&input);
        let deferred = input.deferred.into_inner();
        if deferred.is_none() {
            facts::finish(&mut facts);
        }
        (facts, input.links.into_inner(), deferred)
    } else {
        (Vec::new(), RouteLinks::default(), None)
    };
    Some(FirstPass {
        path: path.into(),
        extraction: FileExtraction {
            language,
            facts,
            parse_errors: errors.count,
            first_parse_error: errors.first,
            skipped: None,
            queries: query.into_timings(),
            links,
        },
        declarations,
        deferred: deferred.map(Box::new),
    })
}

/// Whether `language` finds its query matches with a hand-written walk instead of its query.
fn walks_instead_of_query(language: Language) -> bool {
    lang::ecmascript::reads_without_query(language)
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
    /// What waits for the type indexes, set by the Java, Kotlin and C# extractors
    /// (`resolve::deferred::Output::into_facts`).
    pub deferred: RefCell<Option<resolve::deferred::Deferred>>,
    /// What the file declares, read before extraction when its language has a type index.
    pub declarations: Option<&'a TypeDeclarations>,
}
