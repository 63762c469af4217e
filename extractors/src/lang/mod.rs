//! The language registry: every supported language, the files it claims, its grammar and queries.
//!
//! Adding a language means one new module here exporting a [`LanguageSpec`], one `Language`
//! variant, one arm in [`Language::spec`], and its query files under `queries/<language>/`.
//! The extraction logic a spec points at may be shared between languages of one family (the
//! TypeScript, TSX and JavaScript specs all use `crate::ecmascript`).

mod javascript;
mod typescript;

use std::sync::LazyLock;

use policies::facts::Fact;

use crate::error::ExtractError;
use crate::query::CompiledQuery;
use crate::ExtractionInput;

/// A language lintel can extract facts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Language {
    /// TypeScript (`.ts`, `.mts`, `.cts`, `.d.ts`).
    TypeScript,
    /// TypeScript with JSX (`.tsx`).
    Tsx,
    /// JavaScript, JSX included (`.js`, `.jsx`, `.mjs`, `.cjs`).
    JavaScript,
}

impl Language {
    /// Every language, in registry order.
    pub const ALL: [Language; 3] = [Self::TypeScript, Self::Tsx, Self::JavaScript];

    /// The language that claims a project-relative path, by its extension.
    pub fn for_path(path: &str) -> Option<Language> {
        let file_name = path.rsplit('/').next().unwrap_or(path);
        let (_, extension) = file_name.rsplit_once('.')?;
        Self::ALL
            .into_iter()
            .find(|language| language.spec().extensions.contains(&extension))
    }

    /// The language's name as used in facts (`typescript` for TSX too, `javascript`).
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The language's specification.
    pub fn spec(self) -> &'static LanguageSpec {
        match self {
            Self::TypeScript => &typescript::TYPESCRIPT,
            Self::Tsx => &typescript::TSX,
            Self::JavaScript => &javascript::JAVASCRIPT,
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
    /// The tree-sitter grammar.
    pub grammar: fn() -> tree_sitter::Language,
    /// The query files, concatenated and compiled once into one query per language.
    pub queries: &'static [QueryFile],
    /// Turns one parsed file and its query matches into facts.
    pub(crate) extract: fn(&ExtractionInput<'_>) -> Vec<Fact>,
    /// The compiled query, built from `queries` on first use and shared by every thread.
    pub(crate) compiled: &'static LazyLock<Result<CompiledQuery, ExtractError>>,
}

impl std::fmt::Debug for LanguageSpec {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("LanguageSpec")
            .field("name", &self.name)
            .field("extractor", &self.extractor)
            .field("extensions", &self.extensions)
            .field("queries", &self.queries)
            .finish_non_exhaustive()
    }
}
