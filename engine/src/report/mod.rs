//! Turns candidates and solver outcomes into the verdict model: ids, statuses, occurrences,
//! warnings, rule coverage, solver diagnostics, `agent_context`, all in the spec's sort orders.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use policies::facts::Confidence;
use policies::model::{Rule, RuleBody, RuleKind};
use policies::smt::{AssertionRole, Slice};
use sha2::{Digest, Sha256};

use crate::report::agent_context::AgentEntry;
use policies::facts::DomainFact;

use crate::families::Evaluation;
use crate::families::{Candidate, Citation, ContractShape, Detail, FactTable, Shape, SliceCause};
use crate::graph::component_graph::FlowGraph;
use crate::graph::file_graph::FileGraph;
use crate::input::extract::Extraction;
use crate::input::options::CheckOptions;
use crate::input::scope::Scope;
use crate::input::spec::LoadedSpec;
use crate::solve::{SliceStatus, SolveOutcome};
use crate::verdict::{
    ArchitectureViolation, ChangeProof, ChangeViolation, ContractProof, ContractViolation,
    Detected, Diff, GraphEvidence, Occurrence, PolicyRuleRef, QueryRef, RuleCoverage, RuleRef,
    SolverDiagnostic, SourceRef, Stats, Tool, Verdict, Warning, WorkflowViolation, Z3Proof,
    SCHEMA_VERSION,
};

pub mod agent_context;
pub mod suppress;

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

fn id_of(fields: &[String]) -> String {
    hashed_id("viol_", &serde_json::to_string(fields).unwrap_or_default())
}

/// The violation id of see Ids in docs/VERDICT.md.
fn violation_id(violation: &ArchitectureViolation, evidence_key: &str, per_pair: bool) -> String {
    let detected = &violation.detected;
    let via = match detected.members.as_ref().or(detected.via_members.as_ref()) {
        Some(members) => {
            let mut members = members.clone();
            members.sort();
            members.join(",")
        }
        None => detected.via.clone().unwrap_or_default(),
    };
    id_of(&[
        violation.violation_type.to_owned(),
        violation.invariant.clone(),
        violation.rule.kind.to_owned(),
        violation.rule.text.clone(),
        detected.from.clone().unwrap_or_default(),
        detected.to.clone().unwrap_or_default(),
        via,
        detected.data.clone().unwrap_or_default(),
        detected.operation.clone().unwrap_or_default(),
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
    ])
}

fn contract_id(violation_type: &str, shape: &ContractShape, file: &str) -> String {
    id_of(&[
        violation_type.to_owned(),
        shape.contract.clone(),
        shape.component.clone(),
        shape.role.to_owned(),
        shape.method.clone(),
        shape.path.clone(),
        file.to_owned(),
    ])
}

/// The `fix_class` of a rule kind (see `policies::model::RuleKind::ALL`).
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
        RuleKind::DependsOn
        | RuleKind::PublicInterface
        | RuleKind::DenyCycle
        | RuleKind::DenyUnresolvedImport => "move_dependency",
    }
}

fn source_ref(location: &policies::model::SourceLocation) -> SourceRef {
    SourceRef {
        file: location.file.clone(),
        line: location.line,
        column: location.column,
    }
}

/// The rule fields of `rule` for `rule.…` of an architecture violation.
fn rule_ref(citation: &Citation, rule: Option<&Rule>) -> RuleRef {
    let mut reference = RuleRef {
        kind: citation.kind.name(),
        text: citation.text.clone(),
        source: source_ref(&citation.source),
        from: None,
        to: None,
        via: None,
        data: None,
        fields: BTreeMap::new(),
    };
    let Some(rule) = rule else {
        return reference;
    };
    let mut field = |name: &str, value: String| {
        reference.fields.insert(name.to_owned(), value);
    };
    match &rule.body {
        RuleBody::Pair { .. }
        | RuleBody::PairVia { .. }
        | RuleBody::DataTo { .. }
        | RuleBody::ContractImplementedBy { .. }
        | RuleBody::Touched { .. }
        | RuleBody::WorkflowAction { .. }
        | RuleBody::WorkflowPermission { .. }
        | RuleBody::WorkflowStepOrder { .. }
        | RuleBody::Other { .. } => {}
        RuleBody::OperationIn {
            operation, entity, ..
        } => {
            field("operation", operation.clone());
            field("component", entity.clone());
        }
        RuleBody::Dependency { interface, .. } => field("interface", interface.clone()),
        RuleBody::Transition {
            machine,
            field: data_field,
            ..
        } => {
            field("machine", machine.clone());
            field("field", data_field.clone());
        }
        RuleBody::Permission {
            target,
            role_enum,
            role,
            operations,
            when_field,
            ..
        } => {
            field("target", target.clone());
            field(
                "role",
                match (role_enum, role) {
                    (Some(role_enum), Some(role)) => format!("{role_enum}.{role}"),
                    _ => "*".to_owned(),
                },
            );
            field("operations", operations.join("|"));
            if let Some(when_field) = when_field {
                field("when", when_field.clone());
            }
        }
        RuleBody::Value { require, when } => {
            field("subject", require.data.clone());
            field("field", require.path.join("."));
            field("relation", require.relation.as_str().to_owned());
            field("value", literal_text(&require.literal));
            if let Some(when) = when {
                field(
                    "when",
                    format!(
                        "{}.{} {} {}",
                        when.data,
                        when.path.join("."),
                        when.relation.as_str(),
                        literal_text(&when.literal)
                    ),
                );
            }
        }
        RuleBody::OperationCondition {
            operation,
            condition,
            ..
        } => {
            field("operation", operation.clone());
            field("subject", condition.data.clone());
            field("field", condition.path.join("."));
            field("relation", condition.relation.as_str().to_owned());
            field("value", literal_text(&condition.literal));
        }
        RuleBody::EventOrder {
            event,
            preceded_by,
            scope,
            ..
        } => {
            field("event", event.clone());
            field("preceded_by", preceded_by.clone());
            field("scope", scope.clone());
        }
        RuleBody::Lifetime { from, to } => {
            field("from_lifetime", format!("{from:?}").to_lowercase());
            field("to_lifetime", format!("{to:?}").to_lowercase());
        }
        RuleBody::Resolve { service, component } => {
            field("service", service.clone());
            field("component", component.clone());
        }
        RuleBody::Classification {
            classification,
            trust,
        } => {
            field("classification", classification.clone());
            field("trust", trust.as_str().to_owned());
        }
        RuleBody::Jurisdiction {
            jurisdiction,
            entity,
        } => {
            field("jurisdiction", jurisdiction.clone());
            field("entity", entity.clone());
        }
        RuleBody::TrustBoundary { from, to } => {
            field("from_trust", from.as_str().to_owned());
            field("to_trust", to.as_str().to_owned());
        }
        RuleBody::TrustDataFlow {
            from,
            to,
            classification,
        } => {
            field("from_trust", from.as_str().to_owned());
            field("to_trust", to.as_str().to_owned());
            field("classification", classification.clone());
        }
        RuleBody::Closed { component, allowed } => {
            field("component", component.clone());
            field("depends_on", allowed.join(","));
        }
        RuleBody::Public { component, globs } => {
            field("component", component.clone());
            field("public", globs.join(","));
        }
        RuleBody::Cycle { groups } => {
            let names: Vec<&str> = groups.iter().map(|group| group.name.as_str()).collect();
            field("among", names.join(","));
        }
        RuleBody::CycleWithin { component } | RuleBody::Unresolved { component } => {
            field("component", component.clone());
        }
    }
    let (from, to, via, data) = match &rule.body {
        RuleBody::Pair { from, to } | RuleBody::Dependency { from, to, .. } => {
            (Some(from.clone()), Some(to.clone()), None, None)
        }
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
        RuleBody::OperationIn { data, .. } => (None, None, None, data.clone()),
        RuleBody::Transition { data, .. } => (None, None, None, Some(data.clone())),
        RuleBody::Permission {
            target,
            target_kind: policies::model::TargetKind::Data,
            ..
        } => (None, None, None, Some(target.clone())),
        _ => (None, None, None, None),
    };
    if citation.kind == rule.kind && citation.text == rule.text {
        reference.from = from;
        reference.to = to;
        reference.via = via;
        reference.data = data;
    }
    reference
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

/// `suggested_refactor`: the text of the first cause that applies (docs/VERDICT.md).
fn suggested_refactor(diagnostic: &SolverDiagnostic, cause: &SliceCause) -> String {
    match cause {
        SliceCause::DiRegistrations => {
            return format!(
                "many DI registrations in one slice ({} facts): split the composition root by component",
                diagnostic.fact_count
            );
        }
        SliceCause::StateWrites(data) => {
            return format!(
                "many writes to {data} ({} facts): route them through one transition function",
                diagnostic.fact_count
            );
        }
        SliceCause::Generic => {}
    }
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

fn formulas(slice: &Slice, keep: &dyn Fn(&policies::smt::TrackedAssertion) -> bool) -> String {
    slice
        .tracked
        .iter()
        .filter(|tracked| keep(tracked))
        .map(|tracked| format!("(assert (=> |{}| {}))", tracked.literal, tracked.formula))
        .collect::<Vec<_>>()
        .join("\n")
}

fn unsat_core(slice: &Slice, outcome: &SolveOutcome) -> Vec<String> {
    outcome
        .core
        .iter()
        .filter_map(|literal| slice.assertion(literal))
        .map(|tracked| format!("{} {}", tracked.literal, tracked.name))
        .collect()
}

fn z3_proof(slice: &Slice, outcome: &SolveOutcome, slice_id: &str) -> Z3Proof {
    Z3Proof {
        permanent_constraint: formulas(slice, &|tracked| tracked.role != AssertionRole::Fact),
        delta_assertion: formulas(slice, &|tracked| tracked.role == AssertionRole::Fact),
        unsat_core: unsat_core(slice, outcome),
        slice: slice_id.to_owned(),
    }
}

fn change_proof(slice: &Slice, outcome: &SolveOutcome, slice_id: &str) -> ChangeProof {
    let is_missing =
        |tracked: &policies::smt::TrackedAssertion| tracked.formula.starts_with("(not (touched ");
    ChangeProof {
        policy_constraint: formulas(slice, &|tracked| tracked.role != AssertionRole::Fact),
        trigger_assertion: formulas(slice, &|tracked| {
            tracked.role == AssertionRole::Fact && !is_missing(tracked)
        }),
        missing_assertion: formulas(slice, &|tracked| {
            tracked.role == AssertionRole::Fact && is_missing(tracked)
        }),
        unsat_core: unsat_core(slice, outcome),
        slice: slice_id.to_owned(),
    }
}

/// Collects the entries of every array while the candidates are assembled.
#[derive(Default)]
struct Entries {
    violations: BTreeMap<String, ArchitectureViolation>,
    contract_violations: BTreeMap<String, ContractViolation>,
    contract_warnings: BTreeMap<String, ContractViolation>,
    workflow_violations: BTreeMap<String, WorkflowViolation>,
    workflow_warnings: BTreeMap<String, WorkflowViolation>,
    change_violations: BTreeMap<String, ChangeViolation>,
    warnings: Vec<Warning>,
    details: BTreeMap<String, FindingDetail>,
}

fn status_of(id: &str, base_ids: Option<&BTreeSet<String>>) -> &'static str {
    match base_ids {
        Some(base) if base.contains(id) => "existing",
        Some(_) => "new",
        None => "unchanged",
    }
}

fn detected_of(candidate: &Candidate, detail: &Detail, table: &FactTable<'_>) -> Detected {
    let mut occurrences: Vec<Occurrence> = candidate
        .occurrences
        .iter()
        .map(|(file, line)| Occurrence {
            file: file.clone(),
            line: *line,
        })
        .collect();
    occurrences.sort();
    occurrences.dedup();
    let query = candidate
        .site
        .fact
        .and_then(|index| table.get(index))
        .and_then(|fact| fact.query())
        .map(|query| QueryRef {
            id: query.id.clone(),
            version: query.version,
            file: query.file.clone(),
            graph_fact_id: query.graph_fact_id.clone(),
        });
    Detected {
        from: detail.from.clone(),
        to: detail.to.clone(),
        via: detail.via.clone(),
        via_members: detail.via_members.clone(),
        data: detail.data.clone(),
        path: detail.path.clone(),
        files: detail.files.clone(),
        operation: detail.operation.clone(),
        required_component: detail.required_component.clone(),
        interface: detail.interface.clone(),
        field: detail.field.clone(),
        relation: detail.relation.clone(),
        value: detail.value.clone(),
        from_state: detail.from_state.clone(),
        to_state: detail.to_state.clone(),
        illegal_sources: detail.illegal_sources.clone(),
        event: detail.event.clone(),
        preceded_by: detail.preceded_by.clone(),
        scope: detail.scope.clone(),
        role: detail.role.clone(),
        services: detail.services.clone(),
        lifetimes: detail.lifetimes.clone(),
        members: detail.members.clone(),
        public_files: detail.public_files.clone(),
        confidence: candidate.confidence.as_str(),
        evidence: candidate.site.message.clone(),
        file: candidate.site.file.clone(),
        line: candidate.site.line,
        column: candidate.site.column,
        occurrences: (!occurrences.is_empty()).then_some(occurrences),
        query,
    }
}

fn chain_of(candidate: &Candidate, table: &FactTable<'_>) -> Vec<ChainFact> {
    candidate
        .chain
        .iter()
        .filter_map(|index| table.get(*index))
        .map(|fact| ChainFact {
            graph_fact_id: fact.graph_fact_id().to_owned(),
            kind: fact.kind(),
            file: fact.evidence().file.to_string(),
            line: fact.evidence().line,
            evidence: fact.evidence().message.to_string(),
        })
        .collect()
}

fn probable_warning(candidate: &Candidate, from: Option<String>, to: Option<String>) -> Warning {
    Warning {
        code: "probable-fact".into(),
        message: format!("probable: {}", candidate.message),
        file: Some(candidate.site.file.clone()),
        line: Some(candidate.site.line),
        from,
        to,
        evidence: Some(candidate.site.message.clone()),
        violation_type: Some(candidate.violation_type.to_owned()),
        invariant: Some(candidate.citation.declaration.clone()),
        rule: Some(candidate.citation.text.clone()),
    }
}

struct AssembleContext<'a> {
    options: &'a CheckOptions,
    base_ids: Option<&'a BTreeSet<String>>,
    table: FactTable<'a>,
    rules: &'a [Rule],
}

impl Entries {
    fn add_proved(
        &mut self,
        assemble: &AssembleContext<'_>,
        candidate: &Candidate,
        outcome: &SolveOutcome,
        slice_id: &str,
    ) {
        let table = &assemble.table;
        let citation = &candidate.citation;
        let is_probable = candidate.confidence < Confidence::Definite;
        if candidate.confidence < Confidence::Probable {
            return;
        }
        let strict = assemble.options.strict;
        let base_detail = |proof: EntryProof, file: &str, line: u32| FindingDetail {
            violation_type: candidate.violation_type.to_owned(),
            rule_kind: citation.kind.name().to_owned(),
            declaration: citation.declaration.clone(),
            spec_citation: citation.source.to_string(),
            rule_text: citation.text.clone(),
            file: file.to_owned(),
            line,
            evidence: candidate.site.message.clone(),
            proof,
            smt_script: candidate.slice.script(),
            chain: chain_of(candidate, table),
            fix_class: fix_class(citation.kind),
            suggested_fix: candidate.suggested_fix.clone(),
        };
        match &candidate.shape {
            Shape::Architecture(detail) => {
                if is_probable && !strict {
                    self.warnings.push(probable_warning(
                        candidate,
                        detail.from.clone(),
                        detail.to.clone(),
                    ));
                    return;
                }
                let rule = candidate
                    .rules
                    .first()
                    .and_then(|index| assemble.rules.get(*index));
                let detected = detected_of(candidate, detail, table);
                let graph_evidence =
                    candidate
                        .site
                        .fact
                        .and_then(|index| table.get(index))
                        .map(|fact| GraphEvidence {
                            graph_fact_id: fact.graph_fact_id().to_owned(),
                            kind: fact.kind(),
                            extractor: fact.evidence().extractor.to_string(),
                            file: fact.evidence().file.to_string(),
                            line: fact.evidence().line,
                            evidence: fact.evidence().message.to_string(),
                        });
                let mut violation = ArchitectureViolation {
                    id: String::new(),
                    violation_type: candidate.violation_type,
                    status: "unchanged",
                    blocking: true,
                    baselined: None,
                    waiver: None,
                    invariant: citation.declaration.clone(),
                    rule: rule_ref(citation, rule),
                    detected,
                    graph_evidence,
                    message: candidate.message.clone(),
                    z3_proof: z3_proof(&candidate.slice, outcome, slice_id),
                };
                violation.id =
                    violation_id(&violation, &candidate.site.evidence_key, candidate.per_pair);
                violation.status = match &candidate.shape {
                    // A pair finding whose witness opens a path the base lacks is new work,
                    // whatever the base held for the pair (see Status and blocking in docs/VERDICT.md).
                    Shape::Architecture(detail)
                        if detail.opens_path && assemble.base_ids.is_some() =>
                    {
                        "new"
                    }
                    _ => status_of(&violation.id, assemble.base_ids),
                };
                if !self.violations.contains_key(&violation.id) {
                    let detail = base_detail(
                        EntryProof::Slice(violation.z3_proof.clone()),
                        &violation.detected.file,
                        violation.detected.line,
                    );
                    self.details.insert(violation.id.clone(), detail);
                }
                merge_violation(&mut self.violations, violation);
            }
            Shape::Contract(shape) => {
                if is_probable && !strict {
                    self.warnings.push(probable_warning(
                        candidate,
                        Some(shape.component.clone()),
                        None,
                    ));
                    return;
                }
                let id = contract_id(candidate.violation_type, shape, &candidate.site.file);
                let proof = z3_proof(&candidate.slice, outcome, slice_id);
                let mut detail = base_detail(
                    EntryProof::Slice(proof.clone()),
                    &candidate.site.file,
                    candidate.site.line,
                );
                detail.rule_kind = candidate.violation_type.to_owned();
                detail.declaration = shape.contract.clone();
                detail.rule_text = shape
                    .declared
                    .clone()
                    .unwrap_or_else(|| shape.contract.clone());
                detail.fix_class = "fix_contract";
                self.details.entry(id.clone()).or_insert(detail);
                let entry = contract_entry(
                    candidate.violation_type,
                    shape,
                    &candidate.site,
                    &candidate.message,
                    Some(proof),
                    status_of(&id, assemble.base_ids),
                    id,
                );
                self.contract_violations
                    .entry(entry.id.clone())
                    .or_insert(entry);
            }
            Shape::Workflow(shape) => {
                let file = candidate.site.file.clone();
                let id = id_of(&[
                    candidate.violation_type.to_owned(),
                    citation.declaration.clone(),
                    citation.text.clone(),
                    file.clone(),
                    shape.job.clone(),
                    shape
                        .step
                        .clone()
                        .or_else(|| shape.permission.clone())
                        .unwrap_or_default(),
                ]);
                let proof = z3_proof(&candidate.slice, outcome, slice_id);
                let warning = is_probable && !strict;
                let entry = WorkflowViolation {
                    id: id.clone(),
                    violation_type: candidate.violation_type,
                    status: status_of(&id, assemble.base_ids),
                    blocking: !warning,
                    baselined: None,
                    waiver: None,
                    policy: citation.declaration.clone(),
                    rule: PolicyRuleRef {
                        kind: citation.kind.name(),
                        text: citation.text.clone(),
                        source: source_ref(&citation.source),
                    },
                    workflow: shape.workflow.clone(),
                    file,
                    line: Some(candidate.site.line),
                    job: shape.job.clone(),
                    step: shape.step.clone(),
                    action: shape.action.clone(),
                    target: shape.target.clone(),
                    permission: shape.permission.clone(),
                    access: shape.access.clone(),
                    message: candidate.message.clone(),
                    evidence: candidate.site.message.clone(),
                    z3_proof: proof.clone(),
                };
                if warning {
                    self.workflow_warnings.entry(id).or_insert(entry);
                } else {
                    let detail = base_detail(
                        EntryProof::Slice(proof),
                        &candidate.site.file,
                        candidate.site.line,
                    );
                    self.details.entry(id.clone()).or_insert(detail);
                    self.workflow_violations.entry(id).or_insert(entry);
                }
            }
            Shape::Change(shape) => {
                let id = id_of(&[
                    candidate.violation_type.to_owned(),
                    citation.declaration.clone(),
                    shape.trigger.clone(),
                    shape.required.clone(),
                ]);
                let proof = change_proof(&candidate.slice, outcome, slice_id);
                let detail = base_detail(
                    EntryProof::Change(proof.clone()),
                    &candidate.site.file,
                    candidate.site.line,
                );
                self.details.entry(id.clone()).or_insert(detail);
                let entry = ChangeViolation {
                    id: id.clone(),
                    violation_type: candidate.violation_type,
                    // Under --diff a change violation is always new.
                    status: if assemble.base_ids.is_some() {
                        "new"
                    } else {
                        "unchanged"
                    },
                    blocking: true,
                    baselined: None,
                    waiver: None,
                    policy: citation.declaration.clone(),
                    rule: PolicyRuleRef {
                        kind: citation.kind.name(),
                        text: citation.text.clone(),
                        source: source_ref(&citation.source),
                    },
                    trigger: shape.trigger.clone(),
                    required: shape.required.clone(),
                    message: candidate.message.clone(),
                    trigger_files: shape.trigger_files.clone(),
                    required_globs: shape.required_globs.clone(),
                    required_glob: shape.required_globs.first().cloned().unwrap_or_default(),
                    z3_proof: proof,
                };
                self.change_violations.entry(id).or_insert(entry);
            }
        }
    }
}

fn contract_entry(
    violation_type: &'static str,
    shape: &ContractShape,
    site: &crate::families::Site,
    message: &str,
    z3_proof: Option<Z3Proof>,
    status: &'static str,
    id: String,
) -> ContractViolation {
    ContractViolation {
        id,
        violation_type,
        severity: if z3_proof.is_some() {
            "error"
        } else {
            "warning"
        },
        status,
        blocking: z3_proof.is_some(),
        baselined: None,
        waiver: None,
        contract: shape.contract.clone(),
        component: shape.component.clone(),
        role: shape.role,
        declared: shape.declared.clone(),
        extracted: shape.extracted.clone(),
        file: Some(site.file.clone()),
        line: Some(site.line),
        message: message.to_owned(),
        proof: ContractProof {
            contract_assertion: shape.contract_assertion.clone(),
            extractor_result: shape.extractor_result.clone(),
            explanation: shape.explanation.clone(),
        },
        z3_proof,
    }
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
        chains: _,
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
            entries.add_proved(&assemble_context, candidate, outcome, &slice_id);
        }
    }
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

    let new_only = options.new_only;
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
    let mut contract_violations = sort_contracts(entries.contract_violations);
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
    let mut workflow_violations = sort_workflows(entries.workflow_violations);
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

    let today = options
        .today
        .clone()
        .unwrap_or_else(|| timestamp_now().chars().take(10).collect());
    warnings.extend(crate::report::suppress::apply(
        &crate::report::suppress::Accepted {
            baseline: options.baseline.as_ref(),
            waivers: &model.waivers,
            today: &today,
            // `--repo-filter` drops the other repos' rules, whose findings then cannot occur.
            is_everything: scope.is_everything() && options.repo_filter.is_none(),
            has_base: base_ids.is_some(),
        },
        &mut crate::report::suppress::Arrays {
            violations: &mut violations,
            contracts: &mut contract_violations,
            workflows: &mut workflow_violations,
            changes: &mut change_violations,
        },
    ));
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
    let agent_entries = agent_entries(
        &violations,
        &contract_violations,
        &workflow_violations,
        &change_violations,
        &entries.details,
    );
    let passed = agent_entries.is_empty() && undecided.is_empty();
    // Deleted files are not in `owners` (which covers the snapshot's files): map them with the
    // same globs, compiled once.
    let map = crate::input::paths::ComponentMap::new(model);
    let changed_components: Vec<String> = scope
        .changed_files
        .iter()
        .filter_map(|file| {
            extraction
                .owners
                .get(file)
                .cloned()
                .or_else(|| map.owner(file))
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
        violations,
        contract_violations,
        workflow_violations,
        change_violations,
        warnings,
        contract_warnings,
        workflow_warnings,
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
    let leftovers = (extraction, domain_facts, graph, evaluation);
    drop(std::thread::Builder::new().spawn(move || drop(leftovers)));
    (
        CheckRun {
            verdict,
            details: entries.details,
            scope,
        },
        facts,
    )
}

/// The blocking entries of the four arrays, in array order, for `agent_context`.
fn agent_entries(
    violations: &[ArchitectureViolation],
    contracts: &[ContractViolation],
    workflows: &[WorkflowViolation],
    changes: &[ChangeViolation],
    details: &BTreeMap<String, FindingDetail>,
) -> Vec<AgentEntry> {
    let fix = |id: &str| {
        details
            .get(id)
            .map(|detail| detail.suggested_fix.clone())
            .unwrap_or_default()
    };
    let citation = |id: &str| {
        details
            .get(id)
            .map(|detail| detail.spec_citation.clone())
            .unwrap_or_default()
    };
    let mut entries = Vec::new();
    for violation in violations.iter().filter(|entry| entry.blocking) {
        let source = &violation.rule.source;
        entries.push(AgentEntry {
            violation_type: violation.violation_type.to_owned(),
            message: violation.message.clone(),
            file: violation.detected.file.clone(),
            line: violation.detected.line,
            rule_text: violation.rule.text.clone(),
            rule_at: format!("{}:{}", source.file, source.line),
            declaration: violation.invariant.clone(),
            id: violation.id.clone(),
            fix: fix(&violation.id),
        });
    }
    for entry in contracts.iter().filter(|entry| entry.blocking) {
        let at = citation(&entry.id);
        entries.push(AgentEntry {
            violation_type: entry.violation_type.to_owned(),
            message: entry.message.clone(),
            file: entry.file.clone().unwrap_or_default(),
            line: entry.line.unwrap_or(1),
            rule_text: entry
                .declared
                .clone()
                .unwrap_or_else(|| entry.contract.clone()),
            rule_at: at
                .rsplit_once(':')
                .map(|(head, _)| head.to_owned())
                .unwrap_or(at),
            declaration: entry.contract.clone(),
            id: entry.id.clone(),
            fix: fix(&entry.id),
        });
    }
    for entry in workflows.iter().filter(|entry| entry.blocking) {
        entries.push(AgentEntry {
            violation_type: entry.violation_type.to_owned(),
            message: entry.message.clone(),
            file: entry.file.clone(),
            line: entry.line.unwrap_or(1),
            rule_text: entry.rule.text.clone(),
            rule_at: format!("{}:{}", entry.rule.source.file, entry.rule.source.line),
            declaration: entry.policy.clone(),
            id: entry.id.clone(),
            fix: fix(&entry.id),
        });
    }
    for entry in changes.iter().filter(|entry| entry.blocking) {
        entries.push(AgentEntry {
            violation_type: entry.violation_type.to_owned(),
            message: entry.message.clone(),
            file: entry.trigger_files.first().cloned().unwrap_or_default(),
            line: 1,
            rule_text: entry.rule.text.clone(),
            rule_at: format!("{}:{}", entry.rule.source.file, entry.rule.source.line),
            declaration: entry.policy.clone(),
            id: entry.id.clone(),
            fix: fix(&entry.id),
        });
    }
    entries
}

/// Two findings with one id are one finding with `occurrences`; the one first in (file, line,
/// column) is the finding, whatever order they come in, and the others its occurrences.
fn merge_violation(
    violations: &mut BTreeMap<String, ArchitectureViolation>,
    violation: ArchitectureViolation,
) {
    match violations.get_mut(&violation.id) {
        None => {
            violations.insert(violation.id.clone(), violation);
        }
        Some(existing) => {
            let mut violation = violation;
            let place = |violation: &ArchitectureViolation| {
                (
                    violation.detected.file.clone(),
                    violation.detected.line,
                    violation.detected.column,
                )
            };
            if place(&violation) < place(existing) {
                std::mem::swap(existing, &mut violation);
            }
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

/// The components (and other entities) a rule names.
fn rule_components(rule: &Rule) -> Vec<String> {
    let names: Vec<String> = match &rule.body {
        RuleBody::Pair { from, to } | RuleBody::Dependency { from, to, .. } => {
            vec![from.clone(), to.clone()]
        }
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
        RuleBody::OperationIn { entity, .. } => vec![entity.clone()],
        RuleBody::ContractImplementedBy { component, .. } => vec![component.clone()],
        RuleBody::Permission {
            target,
            target_kind: policies::model::TargetKind::Component,
            ..
        } => vec![target.clone()],
        RuleBody::EventOrder {
            scope,
            scope_kind: policies::model::TargetKind::Component,
            ..
        } => vec![scope.clone()],
        RuleBody::WorkflowAction {
            workflow, target, ..
        } => [workflow.clone(), target.clone()]
            .into_iter()
            .filter(|name| name != "*")
            .collect(),
        RuleBody::WorkflowPermission { workflow, .. }
        | RuleBody::WorkflowStepOrder { workflow, .. } => [workflow.clone()]
            .into_iter()
            .filter(|name| name != "*")
            .collect(),
        RuleBody::Resolve { component, .. } => vec![component.clone()],
        RuleBody::Jurisdiction { entity, .. } => vec![entity.clone()],
        RuleBody::Touched { required, trigger } => vec![required.clone(), trigger.clone()],
        RuleBody::Closed { component, allowed } => {
            let mut names = vec![component.clone()];
            names.extend(allowed.iter().cloned());
            names
        }
        RuleBody::Public { component, .. }
        | RuleBody::CycleWithin { component }
        | RuleBody::Unresolved { component } => vec![component.clone()],
        RuleBody::Cycle { groups } => groups
            .iter()
            .flat_map(|group| group.components.iter().cloned())
            .collect(),
        _ => Vec::new(),
    };
    crate::families::sorted(names)
}

fn coverage(
    model: &policies::model::Model,
    rule_status: &BTreeMap<usize, (&'static str, BTreeSet<String>)>,
    scope: &crate::input::scope::Scope,
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
                || components.is_empty() && !touched.is_empty()
                || components
                    .iter()
                    .any(|name| touched.contains(name.as_str()));
            if !meets_scope {
                return None;
            }
            let (status, evidence) = status
                .map(|(status, evidence)| (*status, evidence.iter().cloned().collect()))
                .unwrap_or(("pass", Vec::new()));
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

/// A value literal as written in the spec (`Draft`, `"x"`, `-5`, `true`, `null`).
fn literal_text(literal: &policies::model::Literal) -> String {
    match literal {
        policies::model::Literal::Number(number) => number.clone(),
        policies::model::Literal::String(text) => text.clone(),
        policies::model::Literal::Bool(value) => value.to_string(),
        policies::model::Literal::Null => "null".to_owned(),
    }
}
