//! One check run, end to end: spec → scope → extraction → graph → candidates → slices → Z3 → verdict.
//!
//! `check`, `explain` and `graph` share this one evaluator, so they cannot disagree.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use std::time::{Duration, Instant};

use policies::model::Model;

use crate::error::EngineError;
use crate::families::evaluate::{evaluate, ChangeSet, FactTable, InScope, Inputs};
use crate::graph::component_graph::FlowGraph;
use crate::graph::file_graph::FileGraph;
use crate::input::extract::extract_project;
use crate::input::options::CheckOptions;
use crate::input::paths::ComponentMap;
use crate::input::scope::{resolve, Scope, Snapshot};
use crate::input::spec::LoadedSpec;
use crate::input::summary;
use crate::report::{assemble, Analysis, CheckRun};
use crate::solve::{Limits, Solver};

/// The files in scope.
struct ScopeFiles {
    everything: bool,
    files: BTreeSet<String>,
}

impl InScope for ScopeFiles {
    fn contains_file(&self, file: &str) -> bool {
        self.everything || self.files.contains(file)
    }

    fn is_everything(&self) -> bool {
        self.everything
    }
}

/// Resolution configs whose change puts every file in scope (docs/CLI.md).
fn is_resolution_config(file: &str) -> bool {
    let name = file.rsplit('/').next().unwrap_or(file);
    (name.starts_with("tsconfig") && name.ends_with(".json"))
        || matches!(
            name,
            "package.json"
                | "jsconfig.json"
                | "go.mod"
                | "go.work"
                | "Cargo.toml"
                | "pyproject.toml"
                | "setup.cfg"
                | "Package.swift"
        )
        || file.starts_with(".lintel/queries/")
        || file.starts_with(".aglang/extractors/")
}

fn scope_files(scope: &Scope, spec: &LoadedSpec) -> ScopeFiles {
    let spec_files: BTreeSet<&str> = spec.spec_files.iter().map(String::as_str).collect();
    let touches_everything = scope
        .changed_files
        .iter()
        .any(|file| spec_files.contains(file.as_str()) || is_resolution_config(file));
    ScopeFiles {
        everything: scope.is_everything() || touches_everything,
        files: scope.changed_files.iter().cloned().collect(),
    }
}

/// Runs a check with the given solver.
pub fn run_check(options: &CheckOptions, solver: &dyn Solver) -> Result<CheckRun, EngineError> {
    run_check_with(options, solver, |_| ()).map(|(run, ())| run)
}

/// Runs a check and lets `inspect` read the intermediate analysis (graph, facts) before the
/// verdict is assembled, so `graph` shares the one evaluator without running it twice.
pub fn run_check_with<T: Send>(
    options: &CheckOptions,
    solver: &dyn Solver,
    inspect: impl FnOnce(&Analysis) -> T + Send,
) -> Result<(CheckRun, T), EngineError> {
    run_check_handing_back(options, solver, inspect, false)
        .map(|(run, inspected, _)| (run, inspected))
}

/// [`run_check_with`], handing back the run's graph facts when `hand_back` (`graph --facts`
/// prints them after the verdict is assembled, without a copy).
pub fn run_check_handing_back<T: Send>(
    options: &CheckOptions,
    solver: &dyn Solver,
    inspect: impl FnOnce(&Analysis) -> T + Send,
    hand_back: bool,
) -> Result<(CheckRun, T, Vec<Box<policies::facts::Fact>>), EngineError> {
    let started = Instant::now();
    let loaded;
    let options = if options.use_baseline && options.baseline.is_none() {
        loaded = CheckOptions {
            baseline: crate::input::baseline::load(
                &options.project,
                options.baseline_file.as_deref(),
            )?,
            ..options.clone()
        };
        &loaded
    } else {
        options
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.unwrap_or(0))
        .stack_size(crate::input::extract::WORKER_STACK_BYTES)
        .build()
        .map_err(|error| EngineError::Internal(format!("cannot start worker threads: {error}")))?;
    pool.install(|| {
        // The solver's set-up (a Z3 context) is made ahead for a small project, once its files
        // are listed, while its spec is read and its files extracted ([`PREWARM_MAX_FILES`]).
        // Not before: the listing runs on one core, but the thousands of page faults of making
        // a context hold the process's memory map, and the listing of Apache Kafka took twice as
        // long beside it (45 ms against 22). It starts after the workers for the same reason:
        // starting a thread (its stack) waits for the map too.
        let (spec, mut scope) = prepare(options, |files| {
            if files <= PREWARM_MAX_FILES {
                solver.warm_up();
            }
        })?;
        // `--all` with the user's cache keeps what it finds for the base side of a later
        // `--diff` from this commit ([`summary`]), with the content of every file it reads.
        let summary = options
            .cache
            .as_ref()
            .filter(|cache| {
                cache.is_shared()
                    && scope.mode == "all"
                    && scope.snapshot == Snapshot::Worktree
                    && !options.debug_extractors
            })
            .map(|cache| {
                let log = std::sync::Arc::new(crate::input::scope::ReadLog::default());
                scope.reads = Some(std::sync::Arc::clone(&log));
                (cache, summary::key(options, &spec, &scope), log)
            });
        // Under `--diff` the merge base is checked first: its findings' ids decide `existing`,
        // and its file-graph edges tell the chains a pull request opens (see Status and blocking in docs/VERDICT.md).
        // Both sides share one cache, so a blob the two trees share is extracted once: the
        // entries the base extracts are kept in memory (up to a bound) for the head to take.
        // With `--no-cache`, a directory of the run's own holds what memory cannot (deleted
        // at the end of the run).
        let private =
            (scope.mode == "git_ref" && options.cache.is_none() && !options.debug_extractors)
                .then(|| {
                    tempfile::Builder::new()
                        .prefix("lintel-diff-")
                        .tempdir()
                        .ok()
                })
                .flatten();
        let diff_cache = (scope.mode == "git_ref" && !options.debug_extractors).then(|| {
            match (&options.cache, &private) {
                (Some(cache), _) => cache.remembering(),
                (None, Some(directory)) => {
                    crate::input::cache::ExtractionCache::at(directory.path())
                        .remembering()
                        .spilling()
                }
                (None, None) => crate::input::cache::ExtractionCache::in_memory(),
            }
        });
        let cache = diff_cache.as_ref().or(options.cache.as_ref());
        let base = match scope.mode {
            "git_ref" => Some(base_findings(options, &spec, &scope, solver, cache)?),
            _ => None,
        };
        if let Some(cache) = &diff_cache {
            cache.stop_remembering();
        }
        let edges = base.as_ref().map(|(_, edges)| edges);
        let analysis = analyse_scope(options, spec, scope, &BTreeMap::new(), edges, cache);
        drop(diff_cache);
        drop(private);
        let base_ids = base.map(|(ids, _)| ids);
        let outcomes = solve_candidates(options, &analysis, solver);
        let edges = summary
            .as_ref()
            .filter(|_| all_decided(&outcomes))
            .map(|_| BaseEdges::of(&analysis.chains, &BTreeMap::new()).parts());
        let inspected = inspect(&analysis);
        let (run, facts) = crate::report::assemble_handing_back(
            options,
            analysis,
            &outcomes,
            base_ids.as_ref(),
            started,
            hand_back,
        );
        if let (Some((cache, key, log)), Some((names, edges))) = (summary, edges) {
            let found = summary::Found {
                ids: finding_ids(&run.verdict),
                names,
                edges,
            };
            summary::store(cache, &key, summary::Reads::Logged(&log), &found);
        }
        Ok((run, inspected, facts))
    })
}

fn solve_candidates(
    options: &CheckOptions,
    analysis: &Analysis,
    solver: &dyn Solver,
) -> Vec<crate::solve::SolveOutcome> {
    let slices: Vec<&policies::smt::Slice> = analysis
        .evaluation
        .candidates
        .iter()
        .map(|candidate| &candidate.slice)
        .collect();
    let limits = Limits {
        rlimit: options.rlimit,
        timeout_ms: options.timeout_ms,
    };
    let progress = options.progress.as_deref();
    if let Some(progress) = progress {
        progress.add_slices(slices.len());
    }
    crate::solve::solve_all_reporting(
        solver,
        &slices,
        limits,
        Duration::from_millis(options.solve_budget_ms),
        &|count| {
            if let Some(progress) = progress {
                progress.slices_done(count);
            }
        },
    )
}

/// The file-graph edges of the merge base, (source file, target file or entity) with base
/// paths mapped to head paths; as a predicate, true for an edge the base does not have. Each
/// name is kept once and an edge as a pair of numbers: a large project's base has some hundred
/// thousand edges, held while the head is extracted.
#[derive(Debug, Default)]
pub struct BaseEdges {
    names: HashMap<String, u32>,
    edges: HashSet<(u32, u32)>,
}

impl BaseEdges {
    fn of(chains: &FileGraph, renames: &BTreeMap<String, String>) -> Self {
        let mut base = Self::default();
        let number = |names: &mut HashMap<String, u32>, name: &str| -> u32 {
            let name = renames.get(name).map_or(name, String::as_str);
            if let Some(number) = names.get(name) {
                return *number;
            }
            let number = u32::try_from(names.len()).unwrap_or(u32::MAX);
            names.insert(name.to_owned(), number);
            number
        };
        for (from, edge) in chains.edges() {
            let from = number(&mut base.names, chains.name(from));
            let to = number(&mut base.names, chains.name(edge.to));
            base.edges.insert((from, to));
        }
        base
    }

    /// Edges kept by a summary ([`summary::Found`]).
    fn from_parts(names: Vec<String>, edges: Vec<(u32, u32)>) -> Self {
        let names = names
            .into_iter()
            .enumerate()
            .map(|(number, name)| (name, u32::try_from(number).unwrap_or(u32::MAX)))
            .collect();
        Self {
            names,
            edges: edges.into_iter().collect(),
        }
    }

    /// The names by number and the edges, sorted, as a summary keeps them.
    fn parts(&self) -> (Vec<String>, Vec<(u32, u32)>) {
        let mut names = vec![String::new(); self.names.len()];
        for (name, number) in &self.names {
            if let Some(slot) = usize::try_from(*number)
                .ok()
                .and_then(|number| names.get_mut(number))
            {
                slot.clone_from(name);
            }
        }
        let mut edges: Vec<(u32, u32)> = self.edges.iter().copied().collect();
        edges.sort_unstable();
        (names, edges)
    }

    /// True when the base has no edge `from → to`.
    pub fn lacks(&self, from: &str, to: &str) -> bool {
        match (self.names.get(from), self.names.get(to)) {
            (Some(from), Some(to)) => !self.edges.contains(&(*from, *to)),
            _ => true,
        }
    }
}

/// The ids of the findings of the merge-base tree, checked as a whole (as with `--all`) with the
/// head's spec, after mapping base paths to head paths with git's rename detection, and the
/// base's file-graph edges.
fn base_findings(
    options: &CheckOptions,
    spec: &LoadedSpec,
    scope: &Scope,
    solver: &dyn Solver,
    cache: Option<&crate::input::cache::ExtractionCache>,
) -> Result<(BTreeSet<String>, BaseEdges), EngineError> {
    let (base_scope, renames) = crate::input::scope::merge_base_scope(scope)?;
    // What a whole-project check of the same tree found, when the user's cache keeps it (a
    // `check --all` of the base commit, or an earlier `--diff` from it): renamed files are
    // checked under their head paths, so only a range without renames can use it.
    let summary = cache
        .filter(|cache| cache.is_shared() && renames.is_empty() && !options.debug_extractors)
        .map(|cache| (cache, summary::key(options, spec, &base_scope)));
    if let Some((cache, key)) = &summary {
        if let Some(found) = summary::load(cache, key, &base_scope) {
            return Ok((found.ids, BaseEdges::from_parts(found.names, found.edges)));
        }
    }
    let base = analyse_scope(options, spec.clone(), base_scope, &renames, None, cache);
    let edges = BaseEdges::of(&base.chains, &renames);
    let outcomes = solve_candidates(options, &base, solver);
    let run = assemble(options, base, &outcomes, None, Instant::now());
    let ids = finding_ids(&run.verdict);
    if let Some((cache, key)) = summary.filter(|_| all_decided(&outcomes)) {
        let (names, pairs) = edges.parts();
        let found = summary::Found {
            ids,
            names,
            edges: pairs,
        };
        summary::store(cache, &key, summary::Reads::Snapshot(&run.scope), &found);
        return Ok((found.ids, edges));
    }
    Ok((ids, edges))
}

/// Whether the solver decided every slice (a summary is kept only then).
fn all_decided(outcomes: &[crate::solve::SolveOutcome]) -> bool {
    outcomes.iter().all(|outcome| {
        matches!(
            outcome.status,
            crate::solve::SliceStatus::Sat | crate::solve::SliceStatus::Unsat
        )
    })
}

/// The ids of a verdict's findings: its violations, and its contract and workflow violations
/// and warnings.
fn finding_ids(verdict: &crate::verdict::Verdict) -> BTreeSet<String> {
    let mut ids: BTreeSet<String> = verdict
        .violations
        .iter()
        .map(|violation| violation.id.clone())
        .collect();
    ids.extend(
        verdict
            .contract_violations
            .iter()
            .chain(&verdict.contract_warnings)
            .map(|entry| entry.id.clone()),
    );
    ids.extend(
        verdict
            .workflow_violations
            .iter()
            .chain(&verdict.workflow_warnings)
            .map(|entry| entry.id.clone()),
    );
    ids
}

/// Projects with more files than this make no Z3 context ahead ([`run_check_handing_back`]): their
/// extraction takes seconds, against which making a context is nothing, and a context kept
/// through it holds memory (about 17 MB). Made after extraction instead, while the graphs are
/// built, it raised a staged check's peak on bitwarden/server from 92 to 120 MB.
const PREWARM_MAX_FILES: usize = 2_000;

/// Resolves the scope and loads the spec and the reviewed queries (everything before
/// extraction); `listed` is told how many files the project has as soon as they are listed.
fn prepare(
    options: &CheckOptions,
    listed: impl FnOnce(usize),
) -> Result<(LoadedSpec, Scope), EngineError> {
    let root = options.project.as_path();
    if !root.is_dir() {
        return Err(EngineError::Usage(format!(
            "project `{}` is not a directory",
            root.display()
        )));
    }
    let scope = resolve(root, &options.scope)?;
    listed(scope.project_files.len());
    // The spec and the reviewed queries are read from the snapshot the scope reads the project
    // from (HEAD under `--diff`, the index when staged), like every other file of the project.
    let repository = match scope.snapshot {
        Snapshot::Worktree => None,
        Snapshot::Index | Snapshot::Commit(_) => scope
            .git_root
            .as_ref()
            .and_then(|path| git2::Repository::open(path).ok()),
    };
    let read_snapshot = |path: &str| {
        let repository = repository.as_ref()?;
        scope.blobs.get(path)?;
        Some(crate::input::scope::read_file(
            &scope,
            root,
            Some(repository),
            path,
            crate::input::spec::MAX_ARTIFACT_BYTES,
        ))
    };
    let snapshot: Option<crate::input::scope::SnapshotReader<'_>> =
        repository.as_ref().map(|_| &read_snapshot as _);
    let files = snapshot.map_or_else(crate::input::spec::SpecFiles::disk, |read| {
        crate::input::spec::SpecFiles::snapshot(root, read)
    });
    let spec = crate::input::spec::load_spec_from(root, options.spec.as_deref(), &files)?;
    // An alias the spec does not declare would filter every rule away and pass: a typo in a CI
    // configuration must not silently turn the check off.
    if let Some(alias) = options.repo_filter.as_deref() {
        if !spec.model.repos.iter().any(|repo| repo.name == alias) {
            let declared: Vec<String> = spec
                .model
                .repos
                .iter()
                .map(|repo| format!("`{}`", repo.name))
                .collect();
            return Err(EngineError::Usage(if declared.is_empty() {
                format!("--repo-filter `{alias}`: the spec declares no repo")
            } else {
                format!(
                    "--repo-filter `{alias}` is not a declared repo (declared: {})",
                    declared.join(", ")
                )
            }));
        }
    }
    let mut spec = LoadedSpec {
        model: filtered_model(&spec.model, options.repo_filter.as_deref()),
        ..spec
    };
    let queries = crate::input::queries::load(root, &scope.project_files, &spec.model, snapshot)?;
    spec.warnings.extend(queries.warnings.iter().cloned());
    spec.queries = queries;
    Ok((spec, scope))
}

/// Extracts and evaluates one snapshot; `renames` maps evidence paths (base → head) before
/// evaluation; `base` (under `--diff`) holds the file-graph edges of the merge base.
fn analyse_scope(
    options: &CheckOptions,
    spec: LoadedSpec,
    scope: Scope,
    renames: &BTreeMap<String, String>,
    base: Option<&BaseEdges>,
    cache: Option<&crate::input::cache::ExtractionCache>,
) -> Analysis {
    let model = &spec.model;
    let map = ComponentMap::new(model);
    let generic = if options.keep_all_facts {
        extractors::GenericFacts::ALL
    } else {
        spec.queries.set.generic_facts()
    };
    let keep_externals = generic.wants_externals();
    let bindings = crate::graph::targets::Bindings::new(model);
    let generic = generic.with_bound_clients(bindings.libraries().map(str::to_owned));
    let mut extraction = extract_project(
        &options.project,
        &scope,
        &map,
        options.include_generated,
        &generic,
        options.debug_extractors,
        cache,
        options.progress.as_deref(),
    );
    // `component-matches-no-files` (see `policies::error::Code`), evaluated only when every file is in scope.
    if scope.is_everything() {
        extraction
            .warnings
            .extend(unmatched_components(model, &map, &scope));
    }
    if !renames.is_empty() {
        for fact in &mut extraction.facts {
            if let Some(renamed) = renames.get(&*fact.evidence.file) {
                fact.evidence.file = renamed.as_str().into();
            }
        }
    }
    crate::families::di_policy::fill_injection_targets(&mut extraction.facts, &extraction.owners);
    crate::families::di_policy::fill_injection_type_files(&mut extraction.facts);
    crate::families::contract::fill_http_call_targets(model, &mut extraction.facts);
    let server_only = crate::graph::file_graph::ServerOnly::of(&extraction.facts);
    crate::graph::targets::prepare(model, &mut extraction.facts, keep_externals);
    let (domain_facts, query_warnings) = crate::input::queries::run(
        &spec.queries,
        &extraction.facts,
        &extraction.owners,
        model,
        options.debug_extractors,
    );
    extraction.warnings.extend(query_warnings);
    let table = FactTable {
        graph: &extraction.facts,
        domain: &domain_facts,
    };
    // The two graphs are independent: each is built on a worker of its own.
    let (graph, chains) = rayon::join(
        || FlowGraph::build(model, &table, &extraction.owners),
        || FileGraph::build(model, &table, &extraction.owners, &server_only),
    );
    let in_scope = scope_files(&scope, &spec);
    let changes = ChangeSet::of_scope(&scope);
    let lacks = |from: &str, to: &str| base.is_some_and(|base| base.lacks(from, to));
    let mut evaluation = evaluate(&Inputs {
        model,
        facts: &extraction.facts,
        domain_facts: &domain_facts,
        graph: &graph,
        chains: &chains,
        new_edge: base
            .is_some()
            .then_some(&lacks as &dyn Fn(&str, &str) -> bool),
        scope: &in_scope,
        changes: &changes,
        owners: &extraction.owners,
        map: &map,
    });
    evaluation.warnings.extend(crate::graph::targets::warnings(
        model,
        &extraction.facts,
        &in_scope,
    ));
    evaluation
        .warnings
        .extend(crate::families::vacuous::warnings(
            model,
            &graph,
            &extraction.owners,
            &extraction.facts,
        ));
    Analysis {
        spec,
        scope,
        extraction,
        domain_facts,
        graph,
        chains,
        evaluation,
    }
}

/// `component-matches-no-files`: a component whose globs match no file of the project (judged
/// only when every file is in scope).
fn unmatched_components(
    model: &Model,
    map: &ComponentMap,
    scope: &Scope,
) -> Vec<crate::verdict::Warning> {
    model
        .components
        .iter()
        .filter(|component| !map.matches_any(&component.name, &scope.project_files))
        .map(|component| crate::verdict::Warning {
            code: "component-matches-no-files".into(),
            message: format!(
                "component `{}` matches no file under the project root{} (paths: {})",
                component.name,
                if model.has_exclusions() {
                    " that the spec's `exclude` and `!` globs leave in"
                } else {
                    ""
                },
                component
                    .paths
                    .iter()
                    .map(|glob| format!("`{glob}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            file: Some(component.location.file.clone()),
            line: Some(component.location.line),
            ..crate::verdict::Warning::default()
        })
        .collect()
}

/// `--repo-filter ALIAS`: keeps the rules whose endpoints are all components tagged with the
/// alias or infrastructure entities. Every component stays: the file → component mapping, the
/// flow graph (a path through an untagged component) and the stats are the whole project's.
fn filtered_model(model: &Model, repo_filter: Option<&str>) -> Model {
    let Some(alias) = repo_filter else {
        return model.clone();
    };
    let mut filtered = model.clone();
    let dropped: BTreeSet<&str> = model
        .components
        .iter()
        .filter(|component| component.repo.as_deref() != Some(alias))
        .map(|component| component.name.as_str())
        .collect();
    filtered.rules.retain(|rule| {
        let names: Vec<&str> = match &rule.body {
            policies::model::RuleBody::Pair { from, to } => vec![from, to],
            policies::model::RuleBody::PairVia { from, to, .. } => vec![from, to],
            policies::model::RuleBody::DataTo { to, .. } => vec![to],
            policies::model::RuleBody::Closed { component, .. }
            | policies::model::RuleBody::Public { component, .. }
            | policies::model::RuleBody::CycleWithin { component }
            | policies::model::RuleBody::Unresolved { component } => vec![component],
            policies::model::RuleBody::Cycle { groups } => groups
                .iter()
                .flat_map(|group| &group.components)
                .map(String::as_str)
                .collect(),
            policies::model::RuleBody::CycleFiles { components } => {
                components.iter().flatten().map(String::as_str).collect()
            }
            _ => vec![],
        };
        names.iter().all(|name| !dropped.contains(name))
    });
    filtered
}
