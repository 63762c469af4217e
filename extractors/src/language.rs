//! What a language is to the rest of the crate: its [`Language`] id, its [`LanguageSpec`] (files,
//! grammar, queries, and the hooks through which its behaviour reaches the shared pipeline) and
//! what its extractor is given for one file ([`ExtractionInput`], [`DocumentInput`]). The
//! registry that maps each id to its spec is `crate::lang`; nothing here names a language module.

use std::borrow::Cow;
use std::cell::RefCell;
use std::sync::LazyLock;

use policies::facts::Fact;
use tree_sitter::Tree;

use crate::error::ExtractError;
use crate::facts::FactFactory;
use crate::query::{CompiledQuery, QueryFile, QueryHandle};
use crate::resolve::context::{ProjectContext, TypeDeclarations};
use crate::resolve::deferred::Deferred;
use crate::resolve::links::RouteLinks;

/// A language lintel can extract facts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Language {
    /// TypeScript (`.ts`, `.mts`, `.cts`, `.d.ts`).
    TypeScript,
    /// TypeScript with JSX (`.tsx`).
    Tsx,
    /// JavaScript, JSX included (`.js`, `.jsx`, `.mjs`, `.cjs`).
    JavaScript,
    /// Python (`.py`, `.pyi`).
    Python,
    /// Go (`.go`).
    Go,
    /// Java (`.java`).
    Java,
    /// Kotlin (`.kt`, `.kts`).
    Kotlin,
    /// C# (`.cs`).
    CSharp,
    /// Rust (`.rs`).
    Rust,
    /// Swift (`.swift`).
    Swift,
    /// GitHub Actions workflows: `.github/workflows/*.yml` and `*.yaml` directly under the root.
    GitHubActions,
}

impl Language {
    /// Every language, in registry order.
    pub const ALL: [Language; 11] = [
        Self::TypeScript,
        Self::Tsx,
        Self::JavaScript,
        Self::Python,
        Self::Go,
        Self::Java,
        Self::Kotlin,
        Self::CSharp,
        Self::Rust,
        Self::Swift,
        Self::GitHubActions,
    ];
}

/// Reads what a file (its path, tree and source) declares for the project's type indexes.
pub(crate) type ReadDeclarations = fn(&str, &Tree, &str) -> Option<TypeDeclarations>;

/// Everything lintel needs to know about one language.
#[derive(Clone, Copy)]
pub struct LanguageSpec {
    /// The value of the `language` property on every fact.
    pub name: &'static str,
    /// The extractor name in evidence and fact ids.
    pub extractor: &'static str,
    /// File extensions (without the dot) this language claims.
    pub extensions: &'static [&'static str],
    /// The query files, concatenated and compiled once into one query per language (none for
    /// documents read without tree-sitter).
    pub queries: &'static [QueryFile],
    /// How files of the language are read.
    pub(crate) backend: Backend,
}

/// How a language's files are read.
#[derive(Clone, Copy)]
pub(crate) enum Backend {
    /// Parsed with a tree-sitter grammar and queried with the compiled `.scm` queries.
    TreeSitter(TreeSitterBackend),
    /// A configuration document read by its own parser (GitHub Actions YAML); a malformed
    /// document is an `Err` with a located reason, which becomes [`crate::FileExtraction::skipped`].
    Document(fn(&DocumentInput<'_>) -> Result<Vec<Fact>, String>),
}

/// A tree-sitter language: grammar, extractor and compiled query.
#[derive(Clone, Copy)]
pub(crate) struct TreeSitterBackend {
    /// The tree-sitter grammar.
    pub grammar: fn() -> tree_sitter::Language,
    /// Turns one parsed file and its query matches into facts.
    pub extract: fn(&ExtractionInput<'_>) -> Vec<Fact>,
    /// The compiled query, built from `queries` on first use and shared by every thread.
    pub compiled: &'static LazyLock<Result<CompiledQuery, ExtractError>>,
    /// The text tree-sitter parses, when it is not the source as is (Python's stray column-0
    /// comments after an indented decorator).
    pub parse_text: Option<for<'s> fn(&'s str) -> Cow<'s, str>>,
    /// What a file with parse errors is parsed again as, without what tree-sitter cannot read
    /// (each rewrite in turn, every byte at its offset); the tree with fewer errors is kept.
    pub recovery: &'static [fn(&str) -> Option<String>],
    /// What a file (its path, tree and source) declares for the project's type indexes, when
    /// the language has one (Java, Kotlin, C#).
    pub declarations: Option<ReadDeclarations>,
    /// The text a file embedded in another format is read as, when its path says it is one (a
    /// Vue or Svelte component: its `<script>` blocks, in place).
    pub script_text: Option<fn(&str, &str) -> Option<String>>,
}

impl LanguageSpec {
    /// The tree-sitter grammar, for languages parsed with one.
    pub fn grammar(&self) -> Option<tree_sitter::Language> {
        match self.backend {
            Backend::TreeSitter(backend) => Some((backend.grammar)()),
            Backend::Document(_) => None,
        }
    }

    /// The tree-sitter backend, for languages parsed with one.
    pub(crate) fn tree_sitter(&self) -> Option<&TreeSitterBackend> {
        match &self.backend {
            Backend::TreeSitter(backend) => Some(backend),
            Backend::Document(_) => None,
        }
    }
}

impl std::fmt::Debug for LanguageSpec {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("LanguageSpec")
            .field("name", &self.name)
            .field("extractor", &self.extractor)
            .field("extensions", &self.extensions)
            .field("queries", &self.queries)
            .field("tree_sitter", &self.grammar().is_some())
            .finish_non_exhaustive()
    }
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
    /// The spec of the language the file is read as.
    pub spec: &'static LanguageSpec,
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
    /// Its spec.
    pub spec: &'static LanguageSpec,
    /// The file's syntax tree.
    pub tree: &'a Tree,
    /// The language's query, compiled on first use.
    pub query: &'a QueryHandle,
    /// The file's cross-file routing records, filled by the route readers.
    pub links: RefCell<RouteLinks>,
    /// What waits for the type indexes, set by the Java, Kotlin and C# extractors
    /// (`resolve::deferred::Output::into_facts`).
    pub deferred: RefCell<Option<Deferred>>,
    /// What the file declares, read before extraction when its language has a type index.
    pub declarations: Option<&'a TypeDeclarations>,
}

impl<'a> ExtractionInput<'a> {
    /// A fact factory for the file.
    pub fn fact_factory(&self) -> FactFactory<'a> {
        FactFactory::for_file(self.spec.name, self.spec.extractor, self.path, self.source)
            .sharing(self.context.interner(), self.context.generic())
    }
}
