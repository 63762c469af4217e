//! `lintel init` without `--from`: a starter spec from what the repository shows.
//!
//! 1. The units of the layout ([`super::layout`]) become components, all on one `app` node.
//! 2. That spec, with no rules, runs through the same in-process pipeline as `check --all` and
//!    `graph` (tree-sitter extraction, the flow graph): its component edges and the
//!    `accesses_technology` facts are read from the analysis.
//! 3. The proposals ([`super::proposals`]): a node per infrastructure technology with definite
//!    client uses (bound by `clients`), a `deny flow` against each edge of the layering that the
//!    graph's acyclic condensation gives, and `deny flow` from UI-like components to data stores
//!    they do not use.
//! 4. The whole spec runs through the pipeline again: a rule with a finding today is dropped (and
//!    said so), so the spec written passes `check --all` on the repository it was made for.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use policies::facts::{Confidence, FactKind};

use super::layout;
use super::proposals::{self, ComponentEdge, Proposals, TechnologyUse};
use crate::check::run_check_with;
use crate::error::EngineError;
use crate::input::options::CheckOptions;
use crate::input::scope::ScopeRequest;
use crate::report::Analysis;
use crate::solve::Z3Solver;

/// What the first run read from the analysis.
#[derive(Debug, Default)]
struct Observed {
    edges: Vec<ComponentEdge>,
    technologies: Vec<TechnologyUse>,
}

/// A component edge and the facts that make it, read from the analysis.
fn observe(analysis: &Analysis) -> Observed {
    let facts = &analysis.extraction.facts;
    let components: BTreeSet<&str> = analysis
        .spec
        .model
        .components
        .iter()
        .map(|component| component.name.as_str())
        .collect();
    let mut edges = Vec::new();
    for (from, targets) in &analysis.graph.edges {
        if !components.contains(from.as_str()) {
            continue;
        }
        for (to, edge) in targets {
            if from == to || !components.contains(to.as_str()) {
                continue;
            }
            let mut kinds: BTreeMap<&'static str, usize> = BTreeMap::new();
            let mut first = None;
            for fact in edge.facts.iter().filter_map(|index| facts.get(*index)) {
                *kinds.entry(fact.kind.as_str()).or_default() += 1;
                if first.is_none() {
                    first = Some(format!("{}:{}", fact.evidence.file, fact.evidence.line));
                }
            }
            edges.push(ComponentEdge {
                from: from.clone(),
                to: to.clone(),
                kinds: kinds
                    .into_iter()
                    .map(|(kind, count)| (kind.to_owned(), count))
                    .collect(),
                example: first.unwrap_or_default(),
            });
        }
    }
    let technologies = facts
        .iter()
        .filter(|fact| fact.kind == FactKind::AccessesTechnology)
        .filter_map(|fact| {
            Some(TechnologyUse {
                technology: fact.technology.as_deref()?.to_owned(),
                package: fact.property_str("package")?.to_owned(),
                definite: fact.confidence == Confidence::Definite,
                file: fact.evidence.file.to_string(),
                subject: fact.subject.as_deref().map(str::to_owned),
            })
        })
        .collect();
    Observed {
        edges,
        technologies,
    }
}

/// The options of an in-process `check --all` of `spec` on `project`.
pub(super) fn check_options(project: &Path, spec: &Path) -> CheckOptions {
    let mut options = CheckOptions::new(project);
    options.spec = Some(spec.to_path_buf());
    options.scope = ScopeRequest::All;
    options.use_baseline = false;
    options
}

/// Writes `text` as a spec in a temporary folder, for an in-process run.
pub(super) fn scratch_spec(
    text: &str,
) -> Result<(tempfile::TempDir, std::path::PathBuf), EngineError> {
    let folder = tempfile::Builder::new()
        .prefix("lintel-init-")
        .tempdir()
        .map_err(|error| EngineError::Internal(format!("cannot make a scratch folder: {error}")))?;
    let path = folder.path().join("architecture.ag");
    std::fs::write(&path, text)
        .map_err(|error| EngineError::Internal(format!("cannot write a scratch spec: {error}")))?;
    Ok((folder, path))
}

/// The starter spec of `project`.
pub fn starter_spec(project: &Path) -> Result<String, EngineError> {
    let scope = crate::input::scope::resolve(project, &ScopeRequest::All)?;
    let read = |path: &str| -> Option<String> {
        let full = project.join(path);
        let metadata = std::fs::metadata(&full).ok()?;
        // Manifests are small; a huge file is not one.
        (metadata.is_file() && metadata.len() < 4 * 1024 * 1024)
            .then(|| std::fs::read_to_string(&full).ok())
            .flatten()
    };
    let layout = layout::discover(&scope.project_files, &read);
    if layout.units.is_empty() {
        return Err(EngineError::Usage(
            "`init` found no source files to make components of (TypeScript, JavaScript, Python, Go, Rust, Java, Kotlin, C# or Swift); write the spec by hand, or use `--from`".to_owned(),
        ));
    }
    let bare = Proposals::default();
    let (_folder, path) = scratch_spec(&proposals::render(&layout, &bare))?;
    let (_, observed) = run_check_with(&check_options(project, &path), &Z3Solver, observe)?;
    let mut proposed = proposals::propose(&layout.units, &observed.edges, &observed.technologies);
    let text = proposals::render(&layout, &proposed);
    // The proposals must hold today: a rule with a finding is dropped.
    let (_folder, path) = scratch_spec(&text)?;
    let run = crate::check::run_check(&check_options(project, &path), &Z3Solver)?;
    let broken: BTreeSet<(String, String)> = run
        .verdict
        .violations
        .iter()
        .filter_map(|violation| {
            Some((
                violation.detected.from.clone()?,
                violation.detected.to.clone()?,
            ))
        })
        .collect();
    if run.verdict.passed {
        return Ok(text);
    }
    proposed.drop_rules(&broken);
    let unexplained = run
        .verdict
        .violations
        .iter()
        .filter(|violation| violation.detected.from.is_none() || violation.detected.to.is_none())
        .count();
    if unexplained > 0 || run.verdict.violations.is_empty() {
        proposed.notes.push(format!(
            "`check --all` did not pass on this spec ({} finding(s) no proposed rule explains, {} undecided slice(s)): run it and review them.",
            unexplained,
            run.verdict
                .solver_diagnostics
                .iter()
                .filter(|diagnostic| matches!(diagnostic.status, "unknown" | "error"))
                .count()
        ));
    }
    Ok(proposals::render(&layout, &proposed))
}
