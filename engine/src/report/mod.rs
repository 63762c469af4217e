//! Turns candidates and solver outcomes into the verdict model: ids, statuses, occurrences,
//! warnings, rule coverage, solver diagnostics, `agent_context`, all in the spec's sort orders.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use policies::smt::AssertionRole;

use policies::facts::DomainFact;

use crate::families::Evaluation;
use crate::families::FactTable;
use crate::graph::component_graph::FlowGraph;
use crate::graph::file_graph::FileGraph;
use crate::input::extract::Extraction;
use crate::input::options::CheckOptions;
use crate::input::scope::Scope;
use crate::input::spec::LoadedSpec;
use crate::solve::{SliceStatus, SolveOutcome};
use crate::verdict::{
    ArchitectureViolation, ChangeProof, ChangeViolation, ContractViolation, Diff, SolverDiagnostic,
    Stats, Tool, Verdict, Warning, WorkflowViolation, Z3Proof, SCHEMA_VERSION,
};

pub mod agent_context;
mod coverage;
mod entries;
mod ids;
mod proofs;
mod rules;
mod solver_diagnostics;
pub mod suppress;

pub use ids::hashed_id;

use self::coverage::coverage;
use self::entries::{contract_entry, AssembleContext, Entries};
use self::ids::{contract_id, status_of};
use self::solver_diagnostics::suggested_refactor;

/// One hop of an explained witness.
#[derive(Debug, Clone)]
pub struct ChainFact {
    /// Graph fact id.
    pub graph_fact_id: String,
    /// Fact kind.
    pub kind: &'static str,
    /// Project-relative path.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// Evidence sentence.
    pub evidence: String,
}

/// The proof of an entry, in its array's shape.
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum EntryProof {
    /// Architecture, contract and workflow entries.
    Slice(Z3Proof),
    /// Change entries.
    Change(ChangeProof),
}

/// What `explain` needs about one entry of the four blocking arrays.
#[derive(Debug, Clone)]
pub struct FindingDetail {
    /// Entry `type`.
    pub violation_type: String,
    /// `rule.kind` (a contract entry: its type).
    pub rule_kind: String,
    /// Invariant, policy or contract name.
    pub declaration: String,
    /// `file:line:column` of the rule (or endpoint).
    pub spec_citation: String,
    /// `rule.text` (a contract entry: its declared endpoint, else the contract's name).
    pub rule_text: String,
    /// Evidence file.
    pub file: String,
    /// Evidence line.
    pub line: u32,
    /// Evidence sentence.
    pub evidence: String,
    /// The entry's proof.
    pub proof: EntryProof,
    /// The replayable script.
    pub smt_script: String,
    /// Every fact of the witness.
    pub chain: Vec<ChainFact>,
    /// `fix_class`.
    pub fix_class: &'static str,
    /// A concrete fix direction.
    pub suggested_fix: String,
}

/// The intermediate results of a run, kept for `explain` and `graph`.
pub struct Analysis {
    /// The spec.
    pub spec: LoadedSpec,
    /// The scope.
    pub scope: Scope,
    /// Extraction output.
    pub extraction: Extraction,
    /// Domain facts emitted by reviewed queries (see the reviewed-query format, `extractors::agq`).
    pub domain_facts: Vec<DomainFact>,
    /// The flow graph.
    pub graph: FlowGraph,
    /// The file graph of chains (see Chains under `invariant` in policies/LANGUAGE.md).
    pub chains: FileGraph,
    /// Candidates.
    pub evaluation: Evaluation,
}

/// A finished run.
#[derive(Debug, Clone)]
pub struct CheckRun {
    /// The verdict.
    pub verdict: Verdict,
    /// Details by finding id.
    pub details: BTreeMap<String, FindingDetail>,
    /// The snapshot the run checked: code frames and snippets are read from it
    /// ([`crate::input::scope::Scope::text_reader`]), never from a work tree the check did not read.
    pub scope: crate::input::scope::Scope,
}

/// Renders an RFC 3339 UTC timestamp for the current time.
pub fn timestamp_now() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|duration| duration.as_secs())
        .unwrap_or(0);
    let days = i64::try_from(seconds / 86_400).unwrap_or(0);
    let rest = seconds % 86_400;
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

fn elapsed_ms(started: Instant) -> u64 {
    u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// Builds the verdict.
/// `base_ids` holds the merge-base findings under `--diff`: a finding is `existing` when its id is
/// among them, else `new`; other scopes mark findings `unchanged`.
pub fn assemble(
    options: &CheckOptions,
    analysis: Analysis,
    outcomes: &[SolveOutcome],
    base_ids: Option<&BTreeSet<String>>,
    started: Instant,
) -> CheckRun {
    assemble_handing_back(options, analysis, outcomes, base_ids, started, false).0
}

/// [`assemble`], handing back the run's graph facts when `hand_back` (else they are freed with
/// the rest of the run), so that a caller that prints them needs no copy.
#[expect(
    clippy::vec_box,
    reason = "facts are boxed so that gathering them moves pointers, never the facts"
)]
pub fn assemble_handing_back(
    options: &CheckOptions,
    analysis: Analysis,
    outcomes: &[SolveOutcome],
    base_ids: Option<&BTreeSet<String>>,
    started: Instant,
    hand_back: bool,
) -> (CheckRun, Vec<Box<policies::facts::Fact>>) {
    let Analysis {
        spec,
        scope,
        mut extraction,
        domain_facts,
        graph,
        chains,
        evaluation,
    } = analysis;
    let model = &spec.model;
    let facts = &extraction.facts;
    let table = FactTable {
        graph: facts,
        domain: &domain_facts,
    };
    let assemble_context = AssembleContext {
        options,
        base_ids,
        table,
        rules: &model.rules,
    };

    let Judged {
        mut entries,
        solver_diagnostics,
        rule_status,
    } = judge(&assemble_context, &evaluation, outcomes);
    add_contract_warnings(&mut entries, &evaluation, base_ids);
    let mut warnings = gathered_warnings(&mut entries, &extraction, &evaluation, &spec, &scope);
    let (mut arrays, details) = sorted_arrays(entries, options.new_only);
    warnings.extend(accept(options, model, &scope, base_ids, &mut arrays));
    sort_warnings(&mut warnings);

    let rule_coverage = coverage(model, &rule_status, &scope, &extraction.owners);
    let solver_diagnostics: Vec<SolverDiagnostic> = solver_diagnostics.into_values().collect();
    let undecided: Vec<&SolverDiagnostic> = solver_diagnostics
        .iter()
        .filter(|diagnostic| matches!(diagnostic.status, "unknown" | "error"))
        .collect();
    let smt_model = smt_model(&undecided);
    let agent_entries = agent_context::agent_entries(
        &arrays.violations,
        &arrays.contract_violations,
        &arrays.workflow_violations,
        &arrays.change_violations,
        &details,
    );
    let passed = agent_entries.is_empty() && undecided.is_empty();
    let diff = diff_of(&scope, &extraction.owners, model);
    let agent_context =
        crate::report::agent_context::agent_context(&agent_entries, &undecided, &options.rerun());
    let verdict = Verdict {
        schema_version: SCHEMA_VERSION,
        verdict: if passed { "pass" } else { "fail" },
        passed,
        timestamp: timestamp_now(),
        tool: Tool {
            name: "lintel",
            version: env!("CARGO_PKG_VERSION"),
        },
        artifact: spec.artifact.clone(),
        diff,
        violations: arrays.violations,
        contract_violations: arrays.contract_violations,
        workflow_violations: arrays.workflow_violations,
        change_violations: arrays.change_violations,
        warnings,
        contract_warnings: arrays.contract_warnings,
        workflow_warnings: arrays.workflow_warnings,
        rule_coverage,
        stats: Stats {
            files_scanned: extraction.files_scanned,
            files_skipped: extraction.files_skipped,
            files_excluded: extraction.files_excluded,
            files_generated: extraction.files_generated,
            files_cached: options.cache.as_ref().map(|_| extraction.files_cached),
            facts: facts.len(),
            slices: solver_diagnostics.len(),
            elapsed_ms: elapsed_ms(started),
        },
        solver_diagnostics,
        smt_model,
        agent_context,
        extractor_debug: options.debug_extractors.then(|| extraction.debug.clone()),
        error: None,
        diagnostics: None,
        message: None,
    };
    // The run's facts and graph are freed on another thread while the verdict is written (on a
    // project of 5,000 files, tens of milliseconds of frees); if no thread can be started, here.
    let facts = if hand_back {
        std::mem::take(&mut extraction.facts)
    } else {
        Vec::new()
    };
    let leftovers = (extraction, domain_facts, graph, chains, evaluation);
    drop(std::thread::Builder::new().spawn(move || drop(leftovers)));
    (
        CheckRun {
            verdict,
            details,
            scope,
        },
        facts,
    )
}

/// What the solved candidates give: the entries of every array, the solver diagnostics by slice
/// id, and each rule's coverage status with its first evidence.
struct Judged {
    entries: Entries,
    solver_diagnostics: BTreeMap<String, SolverDiagnostic>,
    rule_status: BTreeMap<usize, (&'static str, BTreeSet<String>)>,
}

/// Judges every candidate by its slice's outcome: a `solver_diagnostics` entry per slice, the
/// coverage status of its rules, and an entry of its array when the slice is UNSAT.
fn judge(
    assemble_context: &AssembleContext<'_>,
    evaluation: &Evaluation,
    outcomes: &[SolveOutcome],
) -> Judged {
    let options = assemble_context.options;
    let mut entries = Entries::default();
    let mut solver_diagnostics: BTreeMap<String, SolverDiagnostic> = BTreeMap::new();
    let mut rule_status: BTreeMap<usize, (&'static str, BTreeSet<String>)> = BTreeMap::new();

    for (candidate, outcome) in evaluation.candidates.iter().zip(outcomes) {
        let slice_id = hashed_id("slice_", &candidate.slice.text);
        let fact_count = candidate
            .slice
            .tracked
            .iter()
            .filter(|tracked| tracked.role == AssertionRole::Fact)
            .count();
        let mut diagnostic = SolverDiagnostic {
            id: slice_id.clone(),
            status: outcome.status.as_str(),
            elapsed_ms: outcome.elapsed_ms,
            rule: candidate.citation.text.clone(),
            declaration: candidate.citation.declaration.clone(),
            source_file: Some(candidate.citation.source.file.clone()),
            line: Some(candidate.citation.source.line),
            components: crate::families::sorted(candidate.components.clone()),
            data: candidate.data.clone(),
            fact_count,
            path_depth: candidate.path_depth,
            fanout: candidate.fanout,
            reason: outcome.reason.clone(),
            suggested_refactor: None,
        };
        let heavy = outcome
            .rlimit_used
            .is_some_and(|used| used.saturating_mul(10) > u64::from(options.rlimit));
        if matches!(outcome.status, SliceStatus::Unknown | SliceStatus::Error) || heavy {
            diagnostic.suggested_refactor = Some(suggested_refactor(&diagnostic, &candidate.cause));
        }
        solver_diagnostics.insert(slice_id.clone(), diagnostic);
        for rule in &candidate.rules {
            let entry = rule_status
                .entry(*rule)
                .or_insert(("pass", BTreeSet::new()));
            match outcome.status {
                SliceStatus::Unknown | SliceStatus::Error => entry.0 = "unknown",
                SliceStatus::Unsat if entry.0 == "pass" => entry.0 = "fail",
                _ => {}
            }
            if outcome.status == SliceStatus::Unsat {
                let site = &candidate.site;
                let evidence = format!("{}:{}: {}", site.file, site.line, site.message);
                entry.1.insert(evidence);
                // At most 5, the bytewise first (see `rule_coverage` in docs/VERDICT.md).
                if entry.1.len() > 5 {
                    entry.1.pop_last();
                }
            }
        }
        if outcome.status == SliceStatus::Unsat {
            entries.add_proved(assemble_context, candidate, outcome, &slice_id);
        }
    }
    Judged {
        entries,
        solver_diagnostics,
        rule_status,
    }
}

/// `contract_warnings`: the contract findings that need no proof.
fn add_contract_warnings(
    entries: &mut Entries,
    evaluation: &Evaluation,
    base_ids: Option<&BTreeSet<String>>,
) {
    for unproved in &evaluation.contract_warnings {
        let id = contract_id(
            unproved.violation_type,
            &unproved.shape,
            &unproved.site.file,
        );
        let entry = contract_entry(
            unproved.violation_type,
            &unproved.shape,
            &unproved.site,
            &unproved.message,
            None,
            status_of(&id, base_ids),
            id.clone(),
        );
        entries.contract_warnings.entry(id).or_insert(entry);
    }
}

/// The `warnings` gathered before the baseline and waivers add theirs: probable facts, extraction
/// and evaluation warnings, the spec's warnings, plugins, submodules and unevaluated rules.
fn gathered_warnings(
    entries: &mut Entries,
    extraction: &Extraction,
    evaluation: &Evaluation,
    spec: &LoadedSpec,
    scope: &Scope,
) -> Vec<Warning> {
    let model = &spec.model;
    let mut warnings = std::mem::take(&mut entries.warnings);
    warnings.extend(extraction.warnings.iter().cloned());
    warnings.extend(evaluation.warnings.iter().cloned());
    for diagnostic in &spec.warnings {
        warnings.push(Warning {
            code: diagnostic.code.clone(),
            message: diagnostic.message.clone(),
            file: Some(diagnostic.file.clone()),
            line: Some(diagnostic.line),
            ..Warning::default()
        });
    }
    for plugin in &model.plugins {
        warnings.push(Warning {
            code: "plugin-not-enabled".into(),
            message: format!("plugin `{plugin}` is not run: plugin execution is not implemented"),
            ..Warning::default()
        });
    }
    for submodule in &scope.submodules {
        warnings.push(Warning {
            code: "submodule-skipped".into(),
            message: format!("submodule `{submodule}` is not checked"),
            file: Some(submodule.clone()),
            ..Warning::default()
        });
    }
    for index in &evaluation.unevaluated {
        let Some(rule) = model.rules.get(*index) else {
            continue;
        };
        warnings.push(Warning {
            code: "rule-not-evaluated".into(),
            message: format!(
                "`{}` ({}) is not evaluated by this version of lintel",
                rule.text,
                rule.kind.code()
            ),
            file: Some(rule.source.file.clone()),
            line: Some(rule.source.line),
            invariant: Some(rule.declaration.clone()),
            rule: Some(rule.text.clone()),
            ..Warning::default()
        });
    }
    warnings
}

/// The four blocking arrays and the two warning arrays, each in its sort order; under
/// `--new-only`, `existing` entries do not block.
struct Arrays {
    violations: Vec<ArchitectureViolation>,
    contract_violations: Vec<ContractViolation>,
    contract_warnings: Vec<ContractViolation>,
    workflow_violations: Vec<WorkflowViolation>,
    workflow_warnings: Vec<WorkflowViolation>,
    change_violations: Vec<ChangeViolation>,
}

/// Sorts the entries of every array (see [`Arrays`]) and hands back the `explain` details.
fn sorted_arrays(entries: Entries, new_only: bool) -> (Arrays, BTreeMap<String, FindingDetail>) {
    let mut violations: Vec<ArchitectureViolation> = entries.violations.into_values().collect();
    for violation in &mut violations {
        if new_only && violation.status == "existing" {
            violation.blocking = false;
        }
    }
    violations.sort_by(|a, b| {
        (
            a.violation_type,
            &a.invariant,
            &a.rule.source,
            &a.detected.file,
            a.detected.line,
            a.detected.column,
            &a.id,
        )
            .cmp(&(
                b.violation_type,
                &b.invariant,
                &b.rule.source,
                &b.detected.file,
                b.detected.line,
                b.detected.column,
                &b.id,
            ))
    });
    let sort_contracts = |map: BTreeMap<String, ContractViolation>| {
        let mut list: Vec<ContractViolation> = map.into_values().collect();
        for entry in &mut list {
            if new_only && entry.status == "existing" {
                entry.blocking = false;
            }
        }
        list.sort_by(|a, b| {
            (a.violation_type, &a.contract, &a.file, a.line, &a.id).cmp(&(
                b.violation_type,
                &b.contract,
                &b.file,
                b.line,
                &b.id,
            ))
        });
        list
    };
    let contract_violations = sort_contracts(entries.contract_violations);
    let contract_warnings = sort_contracts(entries.contract_warnings);
    let sort_workflows = |map: BTreeMap<String, WorkflowViolation>| {
        let mut list: Vec<WorkflowViolation> = map.into_values().collect();
        for entry in &mut list {
            if new_only && entry.status == "existing" {
                entry.blocking = false;
            }
        }
        list.sort_by(|a, b| {
            (a.violation_type, &a.policy, &a.file, a.line, &a.id).cmp(&(
                b.violation_type,
                &b.policy,
                &b.file,
                b.line,
                &b.id,
            ))
        });
        list
    };
    let workflow_violations = sort_workflows(entries.workflow_violations);
    let workflow_warnings = sort_workflows(entries.workflow_warnings);
    let mut change_violations: Vec<ChangeViolation> =
        entries.change_violations.into_values().collect();
    change_violations.sort_by(|a, b| {
        (a.violation_type, &a.policy, a.trigger_files.first(), &a.id).cmp(&(
            b.violation_type,
            &b.policy,
            b.trigger_files.first(),
            &b.id,
        ))
    });
    (
        Arrays {
            violations,
            contract_violations,
            contract_warnings,
            workflow_violations,
            workflow_warnings,
            change_violations,
        },
        entries.details,
    )
}

/// Applies the baseline and the spec's waivers to the blocking arrays (see `crate::report::suppress`);
/// returns their warnings (stale baseline entries, expired waivers).
fn accept(
    options: &CheckOptions,
    model: &policies::model::Model,
    scope: &Scope,
    base_ids: Option<&BTreeSet<String>>,
    arrays: &mut Arrays,
) -> Vec<Warning> {
    let today = options
        .today
        .clone()
        .unwrap_or_else(|| timestamp_now().chars().take(10).collect());
    crate::report::suppress::apply(
        &crate::report::suppress::Accepted {
            baseline: options.baseline.as_ref(),
            waivers: &model.waivers,
            today: &today,
            // `--repo-filter` drops the other repos' rules, whose findings then cannot occur.
            is_everything: scope.is_everything() && options.repo_filter.is_none(),
            has_base: base_ids.is_some(),
        },
        &mut crate::report::suppress::Arrays {
            violations: &mut arrays.violations,
            contracts: &mut arrays.contract_violations,
            workflows: &mut arrays.workflow_violations,
            changes: &mut arrays.change_violations,
        },
    )
}

/// Sorts `warnings` by code, file, line and message, and drops repeats.
fn sort_warnings(warnings: &mut Vec<Warning>) {
    warnings.sort_by(|a, b| {
        (
            &a.code,
            a.file.as_deref().unwrap_or(""),
            a.line.unwrap_or(0),
            &a.message,
        )
            .cmp(&(
                &b.code,
                b.file.as_deref().unwrap_or(""),
                b.line.unwrap_or(0),
                &b.message,
            ))
    });
    warnings.dedup();
}

/// `smt_model`: one line per undecided slice, when there is one.
fn smt_model(undecided: &[&SolverDiagnostic]) -> Option<String> {
    (!undecided.is_empty()).then(|| {
        undecided
            .iter()
            .map(|diagnostic| {
                format!(
                    "{}: {} ({})",
                    diagnostic.id,
                    diagnostic.status,
                    diagnostic.reason.clone().unwrap_or_default()
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// `diff`: the scope's mode, base and commits, and the changed files with their components.
fn diff_of(
    scope: &Scope,
    owners: &BTreeMap<String, String>,
    model: &policies::model::Model,
) -> Diff {
    // Deleted files are not in `owners` (which covers the snapshot's files): map them with the
    // same globs, compiled once.
    let map = crate::input::paths::ComponentMap::new(model);
    let changed_components: Vec<String> = scope
        .changed_files
        .iter()
        .filter_map(|file| owners.get(file).cloned().or_else(|| map.owner(file)))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    Diff {
        base: scope.base.clone(),
        mode: scope.mode,
        base_commit: scope.base_commit.clone(),
        // HEAD matters for the git scopes only: `--all` and `--file` read the work tree.
        head_commit: if matches!(scope.mode, "git_ref" | "staged") {
            scope.head_commit.clone()
        } else {
            None
        },
        changed_files: scope.changed_files.clone(),
        changed_components,
    }
}
