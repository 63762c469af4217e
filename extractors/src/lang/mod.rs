//! The language registry: every supported language, the files it claims, its grammar and queries.
//!
//! Adding a language means one new module here exporting a [`LanguageSpec`], one `Language`
//! variant, one arm in [`Language::spec`], and its query files under `queries/<language>/`.
//! The extraction logic a spec points at may be shared between languages of one family (the
//! TypeScript, TSX and JavaScript specs all use `crate::lang::ecmascript`).

pub(crate) mod csharp;
pub(crate) mod ecmascript;
pub(crate) mod github_actions;
pub(crate) mod go;
pub(crate) mod java;
pub(crate) mod jvm;
pub(crate) mod kotlin;
pub(crate) mod python;
pub(crate) mod rust;
pub(crate) mod swift;

use std::sync::LazyLock;

use policies::facts::Fact;

use crate::error::ExtractError;
use crate::query::CompiledQuery;
use crate::ExtractionInput;

pub(crate) use swift::spec::SWIFT;

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

    /// The language that claims a project-relative path: a workflow file by its place, any other
    /// file by its extension.
    pub fn for_path(path: &str) -> Option<Language> {
        if github_actions::spec::is_workflow_path(path) {
            return Some(Self::GitHubActions);
        }
        let file_name = path.rsplit('/').next().unwrap_or(path);
        let (_, extension) = file_name.rsplit_once('.')?;
        Self::ALL
            .into_iter()
            .find(|language| language.spec().extensions.contains(&extension))
    }

    /// The language's name as used in facts (`typescript` for TSX too, `javascript`, `yaml` for
    /// workflows).
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The language's specification.
    pub fn spec(self) -> &'static LanguageSpec {
        match self {
            Self::TypeScript => &ecmascript::typescript_spec::TYPESCRIPT,
            Self::Tsx => &ecmascript::typescript_spec::TSX,
            Self::JavaScript => &ecmascript::javascript_spec::JAVASCRIPT,
            Self::Python => &python::spec::PYTHON,
            Self::Go => &go::spec::GO,
            Self::Java => &java::spec::JAVA,
            Self::Kotlin => &kotlin::spec::KOTLIN,
            Self::CSharp => &csharp::spec::CSHARP,
            Self::Rust => &rust::spec::RUST,
            Self::Swift => &swift::spec::SWIFT,
            Self::GitHubActions => &github_actions::spec::GITHUB_ACTIONS,
        }
    }
}

/// One query file of a language, named relative to `extractors/queries/`.
#[derive(Debug, Clone, Copy)]
pub struct QueryFile {
    /// Path relative to `extractors/queries/`, e.g. `javascript/imports.scm`.
    pub name: &'static str,
    /// The file's text.
    pub text: &'static str,
}

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
    Document(fn(&crate::DocumentInput<'_>) -> Result<Vec<Fact>, String>),
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
