//! GitHub Actions workflows (`.github/workflows/*.yml` and `*.yaml` directly under the project
//! root): read with `yaml-rust2`'s marked event parser, not tree-sitter; extraction in
//! `crate::lang::github_actions`. Facts carry `language: yaml` and the extractor name `github-actions`.

use crate::language::{Backend, LanguageSpec};

/// GitHub Actions workflows.
pub(crate) static GITHUB_ACTIONS: LanguageSpec = LanguageSpec {
    name: "yaml",
    extractor: "github-actions",
    extensions: &[],
    queries: &[],
    backend: Backend::Document(crate::lang::github_actions::extract),
};

/// Whether a project-relative path is a workflow file: `.github/workflows/<name>.yml` or
/// `.yaml`, directly in that folder.
pub(crate) fn is_workflow_path(path: &str) -> bool {
    path.strip_prefix(".github/workflows/").is_some_and(|name| {
        !name.contains('/')
            && (name.ends_with(".yml") || name.ends_with(".yaml"))
            && name.len() > ".yml".len()
    })
}
