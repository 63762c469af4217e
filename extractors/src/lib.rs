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
mod gitattributes;
mod lang;
mod language;
mod query;
mod resolve;
mod source_scope;
mod syntax;
mod walk;

pub use error::{ExtractError, QueryCompileError, UnknownCaptureError};
pub use generated::is_generated;
pub use generic::{is_framework_marker, GenericFacts};
pub use lang::{compile_queries, follow_rust_reexports, link_routes, mark_rust_test_modules};
pub use language::{Language, LanguageSpec};
pub use query::{capture_vocabulary, QueryFile, QueryTiming};
pub use resolve::context::{
    csharp_project_input, probes, GitAttributes, ProjectContext, TypeDeclarations,
};
pub use resolve::links::{
    ControllerClass, InheritedRoute, PathConstant, RouteLinks, RouterExport, RouterMember,
    RouterMount, RouterPrefix, RouterRef,
};

use std::cell::RefCell;

use policies::facts::Fact;
use rayon::prelude::*;

use language::{Backend, DocumentInput, ExtractionInput, TreeSitterBackend};

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
    let backend = Language::for_path(path)?.spec().tree_sitter()?;
    let script = backend
        .script_text
        .and_then(|script_text| script_text(path, source));
    let source = script.as_deref().unwrap_or(source);
    let (_, errors) = parse_source(backend, source)?;
    Some(errors.count)
}

/// Parses a file of `language` as extraction reads it (its spec's `parse_text`), with its parse
/// errors. A file with errors is parsed again without what tree-sitter cannot read (its spec's
/// `recovery` rewrites, each in turn, every byte at its offset), and that tree is kept when it
/// has fewer errors: C# takes the first branch of each `#if` group and blanks the escaped `{{`
/// of an interpolated string's `{{{` and the second colon of a hole's `::` format, Swift blanks its `#if`
/// directive lines, its `#warning`/`#error` lines and the `await` of `switch await x.y {`, Kotlin drops its context parameter lists,
/// multi-dollar string prefixes and the annotations that start an accessor's or a
/// constructor's line, ends a property before a `get(…)` call's line and reads an explicit
/// backing field as a getter, TypeScript reads `(string) => void` with a parameter `_tring` and a `using` that names
/// something (`const using = …`) as `_sing`, Java
/// blanks the type annotations of a varargs parameter (`String @Nullable ... items`), Rust
/// blanks an attribute on a field of a struct pattern, Go reads Go 1.26's `new(expr)` whose
/// argument holds a call as a call of `ne_` (see each
/// language's folder under `lang/`). A NUL byte is read as a space in every language.
fn parse_source(
    backend: &TreeSitterBackend,
    original: &str,
) -> Option<(tree_sitter::Tree, syntax::ParseErrors)> {
    // tree-sitter's lexers take a NUL byte for the end of the input, and lose the rest of the
    // file to error nodes; where a compiler takes one, it stands in a string or a comment
    // (langfuse's bench script marks output with "\0RESULT\0"), so it is parsed as a space, at
    // its offset. The facts read the file's own text.
    let blanked = original.contains('\0').then(|| original.replace('\0', " "));
    let source = blanked.as_deref().unwrap_or(original);
    let text = match backend.parse_text {
        Some(parse_text) => parse_text(source),
        None => std::borrow::Cow::Borrowed(source),
    };
    let tree = syntax::parse(backend.grammar, &text)?;
    let errors = syntax::count_parse_errors(&tree, original);
    if errors.count > 0 {
        let retried = rewritten(source, backend.recovery).and_then(|text| {
            let tree = syntax::parse(backend.grammar, &text)?;
            let errors = syntax::count_parse_errors(&tree, original);
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

/// Parses a Java, Kotlin or C# file that is not extracted (not owned, generated, skipped) for
/// what it declares: the project's imports may still name its types. `None` for other files,
/// and for Entity Framework migration artefacts, whose types code never names.
pub fn read_declarations(path: &str, source: &str) -> Option<TypeDeclarations> {
    if !reads_declarations(path) {
        return None;
    }
    let backend = Language::for_path(path)?.spec().tree_sitter()?;
    let declarations = backend.declarations?;
    let (tree, _) = parse_source(backend, source)?;
    declarations(path, &tree, source)
}

/// Whether [`read_declarations`] parses the file at `path` (project-relative): a Java, Kotlin
/// or C# file, but no EF Core migration artefact. Generated and unowned files are parsed for
/// their declarations too, since other files may name their types. Rust files are not: what
/// an extracted Rust file declares only tells a missing module from an item, and a module file
/// lintel does not extract leaves that question open.
pub fn reads_declarations(path: &str) -> bool {
    Language::for_path(path)
        .filter(|language| *language != Language::Rust)
        .and_then(|language| language.spec().tree_sitter())
        .is_some_and(|backend| backend.declarations.is_some())
        && !generated::is_ef_migration_artefact(path)
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
                extraction.language.spec().name,
                extraction.language.spec().extractor,
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
    let spec = language.spec();
    let done = |extraction: FileExtraction| FirstPass {
        path: path.into(),
        extraction,
        declarations: None,
        deferred: None,
    };
    let backend = match &spec.backend {
        Backend::TreeSitter(backend) => backend,
        Backend::Document(read) => {
            let input = DocumentInput {
                context,
                path,
                source,
                spec,
            };
            let (mut facts, skipped) = match read(&input) {
                Ok(facts) => (facts, None),
                Err(reason) => (Vec::new(), Some(reason)),
            };
            facts::finish(&mut facts);
            return Some(done(FileExtraction {
                language,
                facts,
                parse_errors: 0,
                first_parse_error: None,
                skipped,
                queries: Vec::new(),
                links: RouteLinks::default(),
            }));
        }
    };
    // A Vue or Svelte component is read as its `<script>` blocks, in place.
    let script = backend
        .script_text
        .and_then(|script_text| script_text(path, source));
    let source = script.as_deref().unwrap_or(source);
    let Some((tree, errors)) = parse_source(backend, source) else {
        // Only a cancelled or misconfigured parse returns no tree; report it as one parse error
        // so the engine records a `parse-errors` warning instead of silently dropping the file.
        return Some(done(FileExtraction {
            language,
            facts: Vec::new(),
            parse_errors: 1,
            first_parse_error: Some((1, 1)),
            skipped: None,
            queries: Vec::new(),
            links: RouteLinks::default(),
        }));
    };
    let declarations = backend
        .declarations
        .and_then(|declarations| declarations(path, &tree, source));
    let query = query::QueryHandle::new(spec.name, context.query_timing());
    // Every tree-sitter language matches its patterns with a hand-written walk that finds what
    // its query files describe (`walk.rs` in each language's folder); the compiled queries are
    // what the walk tests compare the walks against.
    let input = ExtractionInput {
        context,
        path,
        source,
        language,
        spec,
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
    let links = input.links.into_inner();
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
