//! The language registry: every supported language, the files it claims, its grammar and queries.
//!
//! Each language lives in its own folder here (`lang/<language>/`: its spec, walk, web and
//! graph facts, parse recovery and the resolution only it needs); code a family shares has a
//! folder of its own (`jvm` for Java and Kotlin, `ecmascript` for TypeScript, TSX and
//! JavaScript). This module is the only shared code that names them: [`Language::spec`] maps each
//! [`Language`] to its [`LanguageSpec`], whose hooks carry the language's behaviour into the
//! pipeline. Adding a language: see "Adding a language" in docs/ARCHITECTURE.md.

pub(crate) mod csharp;
pub(crate) mod ecmascript;
pub(crate) mod github_actions;
pub(crate) mod go;
pub(crate) mod java;
pub(crate) mod jvm;
pub(crate) mod kotlin;
pub(crate) mod python;
pub(crate) mod rust;

pub use rust::reexports::follow_reexports as follow_rust_reexports;
pub use rust::test_modules::mark_test_modules as mark_rust_test_modules;
pub(crate) mod swift;

#[cfg(test)]
use std::sync::OnceLock;

use std::borrow::BorrowMut;
use std::collections::BTreeMap;

use policies::facts::Fact;

use crate::error::ExtractError;
use crate::language::{Language, LanguageSpec};
use crate::query::CompiledQuery;
use crate::resolve::links::RouteLinks;

impl Language {
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

#[cfg(test)]
/// Compiles the query files of `spec` (see [`CompiledQuery::compile`]).
pub(crate) fn compile(
    spec: &'static LanguageSpec,
    generic: bool,
) -> Result<CompiledQuery, ExtractError> {
    CompiledQuery::compile(spec.name, spec.queries, spec.grammar(), generic)
}

/// The compiled query of a tree-sitter language (compiled on first use); `None` for languages
/// read without tree-sitter.
pub(crate) fn compiled(
    language: Language,
) -> Option<Result<&'static CompiledQuery, &'static ExtractError>> {
    let backend = language.spec().tree_sitter()?;
    Some(std::sync::LazyLock::force(backend.compiled).as_ref())
}

#[cfg(test)]
/// The compiled queries without the generic patterns, one per entry of [`Language::ALL`].
static WITHOUT_GENERIC: [OnceLock<Result<CompiledQuery, ExtractError>>; Language::ALL.len()] =
    [const { OnceLock::new() }; Language::ALL.len()];

#[cfg(test)]
/// The compiled query of a tree-sitter language without the `graph.scm` patterns (compiled on
/// first use): what a run without generic facts matches, since their hits would be dropped.
pub(crate) fn compiled_without_generic(
    language: Language,
) -> Option<Result<&'static CompiledQuery, &'static ExtractError>> {
    language.spec().tree_sitter()?;
    let position = Language::ALL.iter().position(|known| *known == language)?;
    let cell = WITHOUT_GENERIC.get(position)?;
    Some(
        cell.get_or_init(|| compile(language.spec(), false))
            .as_ref(),
    )
}

/// Compiles every language's query and checks its captures; the engine may call this at start-up
/// to turn a broken bundled query into an internal error instead of silently missing facts.
pub fn compile_queries() -> Result<(), ExtractError> {
    for language in Language::ALL {
        if let Some(result) = compiled(language) {
            result.map_err(Clone::clone)?;
        }
    }
    Ok(())
}

/// Applies the mount prefixes of `links` (keyed by file) to the `route` facts among `facts`.
///
/// The facts may be owned or boxed (`F` is `Fact` or `Box<Fact>`); copies for further prefixes
/// are appended. The cross-file steps of one language come first (TypeScript and JavaScript
/// requests through instances, wrappers and constants of other files; Go imports taken to the
/// files that declare the names they use), then the steps every language shares
/// (`crate::resolve::links`).
pub fn link_routes<F>(facts: &mut Vec<F>, links: &BTreeMap<String, RouteLinks>)
where
    F: BorrowMut<Fact> + From<Fact>,
{
    if links
        .values()
        .any(|links| !links.instance_requests.is_empty() || !links.wrapper_calls.is_empty())
    {
        ecmascript::request_links::link_requests(facts, links);
    }
    if links.values().any(|links| !links.url_constants.is_empty()) {
        ecmascript::request_links::link_url_constants(facts, links);
    }
    if links.values().any(|links| !links.alias_uses.is_empty()) {
        python::typed::link_client_aliases(facts, links);
    }
    if links.values().any(|links| !links.db_contexts.is_empty()) {
        csharp::db_contexts::link_db_contexts(facts, links);
    }
    if links.values().any(|links| !links.typed_routes.is_empty()) {
        ecmascript::router_types::link_router_types(facts, links);
    }
    if links.values().any(|links| links.nest_versioning.is_some()) {
        ecmascript::nest_versioning::link_versions(facts, links);
    }
    if links.values().any(|links| !links.package_names.is_empty()) {
        go::package_names::link(facts, links);
    }
    if links
        .values()
        .any(|links| !links.string_constants.is_empty())
    {
        go::package_constants::link(facts, links);
    }
    crate::resolve::links::link_prefixes(facts, links);
}
