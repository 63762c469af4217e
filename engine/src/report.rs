//! Turns candidates and solver outcomes into the verdict model: ids, statuses, occurrences,
//! warnings, rule coverage, solver diagnostics, `agent_context`, all in the spec's sort orders.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use policies::facts::{Confidence, Fact};
use policies::model::{Rule, RuleBody, RuleKind};
use policies::smt::AssertionRole;
use sha2::{Digest, Sha256};

use crate::check::{Analysis, CheckOptions};
use crate::evaluate::Candidate;
use crate::solve::{SliceStatus, SolveOutcome};
use crate::verdict::{
    ArchitectureViolation, Detected, Diff, GraphEvidence, Occurrence, RuleCoverage, RuleRef,
    SolverDiagnostic, SourceRef, Stats, Tool, Verdict, Warning, Z3Proof, SCHEMA_VERSION,
};

/// What `explain` needs about one finding beyond the verdict entry.
#[derive(Debug, Clone)]
pub struct FindingDetail {
    /// The rule.
    pub rule: Rule,
    /// The replayable script.
    pub smt_script: String,
    /// Every fact of the witness.
    pub chain: Vec<Fact>,
    /// `fix_class`.
    pub fix_class: &'static str,
    /// A concrete fix direction.
    pub suggested_fix: String,
}

/// A finished run.
#[derive(Debug, Clone)]
pub struct CheckRun {
    /// The verdict.
    pub verdict: Verdict,
    /// Details by finding id.
    pub details: BTreeMap<String, FindingDetail>,
}

/// `prefix` + the first 16 hex digits of SHA-256 over `text`.
pub fn hashed_id(prefix: &str, text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let hex: String = digest
        .iter()
        .take(8)
        .map(|byte| format!("{byte:02x}"))
        .collect();
    format!("{prefix}{hex}")
}

/// The violation id of `verdict-v2.md` §Ids.
fn violation_id(violation: &ArchitectureViolation, evidence_key: &str, per_pair: bool) -> String {
    let detected = &violation.detected;
    let via = match &detected.via_members {
        Some(members) => {
            let mut members = members.clone();
            members.sort();
            members.join(",")
        }
        None => detected.via.clone().unwrap_or_default(),
    };
    let fields = [
        violation.violation_type.to_owned(),
        violation.invariant.clone(),
        violation.rule.kind.to_owned(),
        violation.rule.text.clone(),
        detected.from.clone().unwrap_or_default(),
        detected.to.clone().unwrap_or_default(),
        via,
        detected.data.clone().unwrap_or_default(),
        String::new(),
        if per_pair {
            String::new()
        } else {
            detected.file.clone()
        },
        if per_pair {
            String::new()
        } else {
            evidence_key.to_owned()
        },
    ];
    hashed_id("viol_", &serde_json::to_string(&fields).unwrap_or_default())
}

pub(crate) fn fix_class(kind: RuleKind) -> &'static str {
    match kind {
        RuleKind::DenyFlow | RuleKind::DenyReach | RuleKind::RequireDependencyViaInterface => {
            "move_dependency"
        }
        RuleKind::RequireFlowVia | RuleKind::RequireDataFlowVia => "route_through_via",
        RuleKind::DenyDataFlow
        | RuleKind::DenyClassification
        | RuleKind::DenyJurisdiction
        | RuleKind::DenyFlowWhenData => "fix_data_boundary",
        RuleKind::RequireOperationIn | RuleKind::RequireOperationOnDataIn => "move_operation",
        RuleKind::RequireTouched => "add_companion_change",
        RuleKind::AllowTransition | RuleKind::DenyTransition => "fix_state_transition",
        RuleKind::RequirePrecededBy => "fix_event_order",
        RuleKind::DenyInject
        | RuleKind::DenyInjectReach
        | RuleKind::DenyLifetime
        | RuleKind::DenyLifetimeReach
        | RuleKind::DenyResolve => "move_registration",
        RuleKind::AllowPermission
        | RuleKind::DenyPermission
        | RuleKind::DenyUnauthenticatedFlow
        | RuleKind::DenyUnencryptedFlow
        | RuleKind::RequireAuth => "fix_auth_policy",
        RuleKind::RequireValue | RuleKind::RequireBefore | RuleKind::EnsureAfter => "fix_value",
        RuleKind::WorkflowAction | RuleKind::WorkflowPermission | RuleKind::WorkflowStepOrder => {
            "fix_workflow"
        }
        RuleKind::RequireContractImplementedBy => "fix_contract",
    }
}

fn suggested_fix(violation: &ArchitectureViolation) -> String {
    let detected = &violation.detected;
    let from = detected.from.clone().unwrap_or_default();
    let to = detected.to.clone().unwrap_or_default();
    let at = format!("{}:{}", detected.file, detected.line);
    let path = detected
        .path
        .as_ref()
        .map(|path| path.join(" -> "))
        .unwrap_or_default();
    match violation.violation_type {
        "flow_violation" => format!(
            "remove the dependency of `{from}` on `{to}` at {at}: move this code into a component that may use `{to}`, or call it through a component the rules allow"
        ),
        "reach_violation" => format!(
            "break the path {path}: remove or invert one of its dependencies (the first is at {at}), for example behind an interface that `{from}` owns"
        ),
        "require_flow_violation" => format!(
            "route `{from}` -> `{to}` through {}: replace the dependency that bypasses it on the path {path} (first hop at {at}) with a call into it",
            detected.via_members.as_ref().map(|members| members.iter().map(|member| format!("`{member}`")).collect::<Vec<_>>().join(" or ")).unwrap_or_default()
        ),
        "dataflow_violation" | "require_dataflow_violation" => format!(
            "stop `{}` from travelling {path}: remove the dependency at {at}, or move the handling of the data out of that path",
            detected.data.clone().unwrap_or_default()
        ),
        _ => format!("change the code at {at} so that it no longer contradicts the rule"),
    }
}

fn message(violation_type: &str, rule: &Rule, detected: &Detected) -> String {
    let from = detected.from.clone().unwrap_or_default();
    let to = detected.to.clone().unwrap_or_default();
    let path = detected
        .path
        .as_ref()
        .map(|path| path.join(" -> "))
        .unwrap_or_default();
    match violation_type {
        "flow_violation" => format!("`{from}` depends on `{to}`, which `{}` forbids: {}", rule.text, detected.evidence),
        "reach_violation" => format!("`{from}` reaches `{to}` through {path}, which `{}` forbids", rule.text),
        "require_flow_violation" => format!("`{from}` reaches `{to}` through {path} without passing the via set of `{}`", rule.text),
        "dataflow_violation" => format!(
            "`{}` handled by `{from}` reaches `{to}` through {path}, which `{}` forbids",
            detected.data.clone().unwrap_or_default(),
            rule.text
        ),
        "require_dataflow_violation" => format!(
            "`{}` handled by `{from}` reaches `{to}` through {path} without passing the via set of `{}`",
            detected.data.clone().unwrap_or_default(),
            rule.text
        ),
        _ => format!("`{}` is violated", rule.text),
    }
}

fn rule_ref(rule: &Rule) -> RuleRef {
    let (from, to, via, data) = match &rule.body {
        RuleBody::Pair { from, to } => (Some(from.clone()), Some(to.clone()), None, None),
        RuleBody::PairVia { from, to, via } => (
            Some(from.clone()),
            Some(to.clone()),
            Some(via.clone()),
            None,
        ),
        RuleBody::DataTo { data, to, via } => (
            None,
            Some(to.clone()),
            (!via.is_empty()).then(|| via.clone()),
            Some(data.clone()),
        ),
        #[allow(
            unreachable_patterns,
            reason = "the language front end may add rule body shapes"
        )]
        _ => (None, None, None, None),
    };
    RuleRef {
        kind: rule.kind.name(),
        text: rule.text.clone(),
        source: SourceRef {
            file: rule.source.file.clone(),
            line: rule.source.line,
            column: rule.source.column,
        },
        from,
        to,
        via,
        data,
    }
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

fn suggested_refactor(diagnostic: &SolverDiagnostic) -> String {
    if diagnostic.path_depth.is_some_and(|depth| depth >= 8) {
        return format!(
            "long dependency paths ({} hops): add a boundary component, or state the rule between nearer components",
            diagnostic.path_depth.unwrap_or_default()
        );
    }
    if diagnostic.fanout.is_some_and(|fanout| fanout >= 16) {
        return format!(
            "high fan-out ({} edges from one component): split that component, or select fewer components in the rule",
            diagnostic.fanout.unwrap_or_default()
        );
    }
    format!(
        "large slice ({} facts): split {} into narrower rules",
        diagnostic.fact_count, diagnostic.declaration
    )
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
    let Analysis {
        spec,
        scope,
        extraction,
        graph,
        evaluation,
    } = analysis;
    let model = &spec.model;
    let facts = &extraction.facts;

    let mut violations: BTreeMap<String, ArchitectureViolation> = BTreeMap::new();
    let mut details = BTreeMap::new();
    let mut warnings: Vec<Warning> = Vec::new();
    let mut solver_diagnostics: BTreeMap<String, SolverDiagnostic> = BTreeMap::new();
    let mut rule_status: BTreeMap<usize, (&'static str, Vec<String>)> = BTreeMap::new();

    for (candidate, outcome) in evaluation.candidates.iter().zip(outcomes) {
        let Some(rule) = model.rules.get(candidate.rule) else {
            continue;
        };
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
            rule: rule.text.clone(),
            declaration: rule.declaration.clone(),
            source_file: Some(rule.source.file.clone()),
            line: Some(rule.source.line),
            components: {
                let mut components = candidate.components.clone();
                components.sort();
                components.dedup();
                components
            },
            data: candidate.endpoints.data.clone(),
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
            diagnostic.suggested_refactor = Some(suggested_refactor(&diagnostic));
        }
        solver_diagnostics.insert(slice_id.clone(), diagnostic);
        let entry = rule_status
            .entry(candidate.rule)
            .or_insert(("pass", Vec::new()));
        match outcome.status {
            SliceStatus::Unknown | SliceStatus::Error => entry.0 = "unknown",
            SliceStatus::Unsat if entry.0 == "pass" => entry.0 = "fail",
            _ => {}
        }
        if outcome.status != SliceStatus::Unsat {
            continue;
        }
        let Some(fact) = facts.get(candidate.evidence_fact) else {
            continue;
        };
        if entry.1.len() < 5 {
            entry.1.push(format!(
                "{}:{}: {}",
                fact.evidence.file, fact.evidence.line, fact.evidence.message
            ));
        }
        if let Some(mut violation) =
            build_violation(candidate, outcome, rule, fact, facts, &slice_id)
        {
            violation.status = match base_ids {
                Some(base) if base.contains(&violation.id) => "existing",
                Some(_) => "new",
                None => "unchanged",
            };
            if candidate.confidence < Confidence::Definite && !options.strict {
                if candidate.confidence == Confidence::Probable {
                    warnings.push(Warning {
                        code: "probable-fact".into(),
                        message: format!("probable: {}", violation.message),
                        file: Some(violation.detected.file.clone()),
                        line: Some(violation.detected.line),
                        from: violation.detected.from.clone(),
                        to: violation.detected.to.clone(),
                        evidence: Some(violation.detected.evidence.clone()),
                        violation_type: Some(violation.violation_type.to_owned()),
                        invariant: Some(violation.invariant.clone()),
                        rule: Some(violation.rule.text.clone()),
                    });
                }
                continue;
            }
            let chain = candidate
                .chain
                .iter()
                .filter_map(|index| facts.get(*index).cloned())
                .collect();
            details.insert(
                violation.id.clone(),
                FindingDetail {
                    rule: rule.clone(),
                    smt_script: candidate.slice.script(),
                    chain,
                    fix_class: fix_class(rule.kind),
                    suggested_fix: suggested_fix(&violation),
                },
            );
            merge_violation(&mut violations, violation);
        }
    }

    warnings.extend(extraction.warnings.iter().cloned());
    for diagnostic in &spec.warnings {
        warnings.push(Warning {
            code: diagnostic.code.clone(),
            message: diagnostic.message.clone(),
            file: Some(diagnostic.file.clone()),
            line: Some(diagnostic.line),
            ..Warning::default()
        });
    }
    for unresolved in &graph.unresolved {
        let Some(fact) = facts.get(unresolved.fact) else {
            continue;
        };
        warnings.push(Warning {
            code: "unresolved-target".into(),
            message: format!("`{}` is not a declared entity and no declared node or resource has a type in that category: no flow edge", unresolved.target),
            file: Some(fact.evidence.file.clone()),
            line: Some(fact.evidence.line),
            from: fact.subject.clone(),
            to: Some(unresolved.target.clone()),
            evidence: Some(fact.evidence.message.clone()),
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

    let mut violations: Vec<ArchitectureViolation> = violations.into_values().collect();
    for violation in &mut violations {
        if options.new_only && violation.status == "existing" {
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

    let rule_coverage = coverage(model, &rule_status, &scope, &extraction.owners);
    let solver_diagnostics: Vec<SolverDiagnostic> = solver_diagnostics.into_values().collect();
    let undecided: Vec<&SolverDiagnostic> = solver_diagnostics
        .iter()
        .filter(|diagnostic| matches!(diagnostic.status, "unknown" | "error"))
        .collect();
    let smt_model = (!undecided.is_empty()).then(|| {
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
    });
    let blocking = violations
        .iter()
        .filter(|violation| violation.blocking)
        .count();
    let passed = blocking == 0 && undecided.is_empty();
    let changed_components: Vec<String> = scope
        .changed_files
        .iter()
        .filter_map(|file| {
            extraction
                .owners
                .get(file)
                .cloned()
                .or_else(|| crate::paths::ComponentMap::new(model).owner(file))
        })
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let diff = Diff {
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
    };
    let agent_context =
        crate::agent::agent_context(&violations, undecided.len(), &details, &options.rerun());
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
        violations,
        contract_violations: Vec::new(),
        workflow_violations: Vec::new(),
        change_violations: Vec::new(),
        warnings,
        contract_warnings: Vec::new(),
        workflow_warnings: Vec::new(),
        rule_coverage,
        stats: Stats {
            files_scanned: extraction.files_scanned,
            files_skipped: extraction.files_skipped,
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
    CheckRun { verdict, details }
}

fn build_violation(
    candidate: &Candidate,
    outcome: &SolveOutcome,
    rule: &Rule,
    fact: &Fact,
    facts: &[Fact],
    slice_id: &str,
) -> Option<ArchitectureViolation> {
    let endpoints = &candidate.endpoints;
    let mut occurrences: Vec<Occurrence> = candidate
        .occurrences
        .iter()
        .filter_map(|index| facts.get(*index))
        .map(|other| Occurrence {
            file: other.evidence.file.clone(),
            line: other.evidence.line,
        })
        .collect();
    occurrences.sort();
    occurrences.dedup();
    let detected = Detected {
        from: endpoints.from.clone(),
        to: endpoints.to.clone(),
        via: endpoints.via.clone(),
        via_members: endpoints.via_members.clone(),
        data: endpoints.data.clone(),
        path: endpoints.path.clone(),
        confidence: candidate.confidence.as_str(),
        evidence: fact.evidence.message.clone(),
        file: fact.evidence.file.clone(),
        line: fact.evidence.line,
        column: Some(fact.evidence.column),
        occurrences: (!occurrences.is_empty()).then_some(occurrences),
    };
    let slice = &candidate.slice;
    let formulas = |roles: &[AssertionRole]| {
        slice
            .tracked
            .iter()
            .filter(|tracked| roles.contains(&tracked.role))
            .map(|tracked| format!("(assert (=> |{}| {}))", tracked.literal, tracked.formula))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let unsat_core = outcome
        .core
        .iter()
        .filter_map(|literal| slice.assertion(literal))
        .map(|tracked| format!("{} {}", tracked.literal, tracked.name))
        .collect();
    let mut violation = ArchitectureViolation {
        id: String::new(),
        violation_type: candidate.violation_type,
        status: "unchanged",
        blocking: true,
        invariant: rule.declaration.clone(),
        rule: rule_ref(rule),
        message: message(candidate.violation_type, rule, &detected),
        detected,
        graph_evidence: Some(GraphEvidence {
            graph_fact_id: fact.id.clone(),
            kind: fact.kind.as_str(),
            extractor: fact.evidence.extractor.clone(),
            file: fact.evidence.file.clone(),
            line: fact.evidence.line,
            evidence: fact.evidence.message.clone(),
        }),
        z3_proof: Z3Proof {
            permanent_constraint: formulas(&[AssertionRole::Rule, AssertionRole::Axiom]),
            delta_assertion: formulas(&[AssertionRole::Fact]),
            unsat_core,
            slice: slice_id.to_owned(),
        },
    };
    violation.id = violation_id(&violation, &fact.evidence_key(), candidate.per_pair);
    Some(violation)
}

/// Two findings with one id are one finding with `occurrences`.
fn merge_violation(
    violations: &mut BTreeMap<String, ArchitectureViolation>,
    violation: ArchitectureViolation,
) {
    match violations.get_mut(&violation.id) {
        None => {
            violations.insert(violation.id.clone(), violation);
        }
        Some(existing) => {
            let mut occurrences = existing.detected.occurrences.take().unwrap_or_default();
            occurrences.push(Occurrence {
                file: violation.detected.file.clone(),
                line: violation.detected.line,
            });
            occurrences.extend(violation.detected.occurrences.unwrap_or_default());
            occurrences.sort();
            occurrences.dedup();
            occurrences.retain(|occurrence| {
                occurrence.file != existing.detected.file
                    || occurrence.line != existing.detected.line
            });
            existing.detected.occurrences = (!occurrences.is_empty()).then_some(occurrences);
        }
    }
}

fn rule_components(rule: &Rule) -> Vec<String> {
    let mut components: Vec<String> = match &rule.body {
        RuleBody::Pair { from, to } => vec![from.clone(), to.clone()],
        RuleBody::PairVia { from, to, via } => {
            let mut names = vec![from.clone(), to.clone()];
            names.extend(via.iter().cloned());
            names
        }
        RuleBody::DataTo { to, via, .. } => {
            let mut names = vec![to.clone()];
            names.extend(via.iter().cloned());
            names
        }
        #[allow(
            unreachable_patterns,
            reason = "the language front end may add rule body shapes"
        )]
        _ => Vec::new(),
    };
    components.sort();
    components.dedup();
    components
}

fn coverage(
    model: &policies::model::Model,
    rule_status: &BTreeMap<usize, (&'static str, Vec<String>)>,
    scope: &crate::scope::Scope,
    owners: &BTreeMap<String, String>,
) -> Vec<RuleCoverage> {
    let touched: BTreeSet<&str> = scope
        .changed_files
        .iter()
        .filter_map(|file| owners.get(file).map(String::as_str))
        .collect();
    let mut coverage: Vec<RuleCoverage> = model
        .rules
        .iter()
        .enumerate()
        .filter_map(|(index, rule)| {
            let components = rule_components(rule);
            let status = rule_status.get(&index);
            let meets_scope = scope.is_everything()
                || status.is_some()
                || components
                    .iter()
                    .any(|name| touched.contains(name.as_str()));
            if !meets_scope {
                return None;
            }
            let (status, evidence) = status.cloned().unwrap_or(("pass", Vec::new()));
            Some(RuleCoverage {
                rule: rule.text.clone(),
                declaration: rule.declaration.clone(),
                components,
                evidence,
                status,
            })
        })
        .collect();
    coverage.sort_by(|a, b| {
        (&a.declaration, &a.rule, &a.components).cmp(&(&b.declaration, &b.rule, &b.components))
    });
    coverage
}
