//! Serialize-only wire types of the schema_version 2 verdict (docs/VERDICT.md describes it).
//!
//! Internal types are converted into these; nothing else is serialized to stdout.
//! Field order here is the order in the JSON document. Optional fields are omitted when absent.
//!
//! A passing document looks like this (abridged):
//! ```json
//! {"schema_version":2,"verdict":"pass","passed":true,"timestamp":"2026-11-29T14:03:00Z",
//!  "tool":{"name":"lintel","version":"0.1.0"},"artifact":"architecture.ag",
//!  "diff":{"base":"workspace","mode":"all","changed_files":[],"changed_components":[]},
//!  "violations":[],"contract_violations":[],"workflow_violations":[],"change_violations":[],
//!  "warnings":[],"contract_warnings":[],"workflow_warnings":[],"rule_coverage":[],
//!  "solver_diagnostics":[],"smt_model":null,"agent_context":"PASS\n…",
//!  "stats":{"files_scanned":3,"files_skipped":0,"facts":7,"slices":0,"elapsed_ms":12}}
//! ```

use schemars::JsonSchema;
use serde::Serialize;

/// The schema version this module writes.
pub const SCHEMA_VERSION: u32 = 2;

/// The whole verdict document.
#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
pub struct Verdict {
    /// Always 2.
    pub schema_version: u32,
    /// `pass`, `fail` or `error`.
    pub verdict: &'static str,
    /// True exactly when `verdict` is `pass`.
    pub passed: bool,
    /// RFC 3339 UTC.
    pub timestamp: String,
    /// The tool's name and version.
    pub tool: Tool,
    /// The spec or artifact used, project-relative.
    pub artifact: String,
    /// The scope.
    pub diff: Diff,
    /// Architecture findings.
    pub violations: Vec<ArchitectureViolation>,
    /// Contract findings (errors).
    pub contract_violations: Vec<ContractViolation>,
    /// Workflow findings.
    pub workflow_violations: Vec<WorkflowViolation>,
    /// Change findings.
    pub change_violations: Vec<ChangeViolation>,
    /// Warnings.
    pub warnings: Vec<Warning>,
    /// Contract warnings.
    pub contract_warnings: Vec<ContractViolation>,
    /// Probable workflow findings.
    pub workflow_warnings: Vec<WorkflowViolation>,
    /// Per-rule outcome.
    pub rule_coverage: Vec<RuleCoverage>,
    /// One entry per solved slice.
    pub solver_diagnostics: Vec<SolverDiagnostic>,
    /// Names each unknown/error slice and its reason, one per line; null otherwise.
    pub smt_model: Option<String>,
    /// Plain text summary for coding agents.
    pub agent_context: String,
    /// Counters.
    pub stats: Stats,
    /// Per-file extractor details, only with `--debug-extractors`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extractor_debug: Option<Vec<ExtractorDebug>>,
    /// The error, on an error verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
    /// Spec and query diagnostics, on an error verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Vec<serde_json::Value>>")]
    pub diagnostics: Option<Vec<policies::Diagnostic>>,
    /// Same text as `error.message`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// `tool`.
#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
pub struct Tool {
    /// `lintel`.
    pub name: &'static str,
    /// The crate version.
    pub version: &'static str,
}

/// `diff`.
#[derive(Debug, Clone, Serialize, PartialEq, Default, JsonSchema)]
pub struct Diff {
    /// The ref as given, `staged`, `workspace` or `files`.
    pub base: String,
    /// `git_ref`, `staged`, `all` or `files`.
    pub mode: &'static str,
    /// Merge-base commit for `git_ref`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_commit: Option<String>,
    /// HEAD commit, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_commit: Option<String>,
    /// The scope's files.
    pub changed_files: Vec<String>,
    /// Owners of the scope's files.
    pub changed_components: Vec<String>,
}

/// `error`.
#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
pub struct ErrorInfo {
    /// Stable code.
    pub code: String,
    /// One-line message.
    pub message: String,
    /// Spec file, for spec errors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// 1-based line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// 1-based column.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
}

/// `stats`.
#[derive(Debug, Clone, Serialize, PartialEq, Default, JsonSchema)]
pub struct Stats {
    /// Files extracted (whole project).
    pub files_scanned: usize,
    /// `file-skipped` warnings.
    pub files_skipped: usize,
    /// Files the spec leaves out (its `exclude` declarations and `!` globs): those an `exclude` glob matches,
    /// which are not read, and those a component's `!` glob removes that no other component
    /// owns. Present whenever the spec has an `exclude` declaration or a `!` glob.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files_excluded: Option<usize>,
    /// Files whose facts came from the extraction cache rather than a parse; present whenever
    /// the run used the cache (not with `--no-cache`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files_cached: Option<usize>,
    /// Generated files left out (`<auto-generated>`, `DO NOT EDIT` headers, `linguist-generated`, …);
    /// `--include-generated` keeps them.
    pub files_generated: usize,
    /// Graph facts extracted.
    pub facts: usize,
    /// Slices solved.
    pub slices: usize,
    /// Wall time.
    pub elapsed_ms: u64,
}

/// `rule.source`, `detected` locations.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, PartialOrd, Ord, JsonSchema)]
pub struct SourceRef {
    /// Project-relative path.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// `waiver` of a finding: the reviewed exception in the spec that covers it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct WaiverRef {
    /// The last day the waiver holds, `YYYY-MM-DD`.
    pub until: String,
    /// Who owns the exception.
    pub owner: String,
    /// Why it is accepted.
    pub reason: String,
    /// True when the check date is after `until`: the finding blocks again.
    pub expired: bool,
    /// Where the waiver is written in the spec.
    pub source: SourceRef,
}

/// `rule` of an architecture violation.
#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
pub struct RuleRef {
    /// Rule kind name, e.g. `DenyFlow`.
    pub kind: &'static str,
    /// The rule as written.
    pub text: String,
    /// Where it is written.
    pub source: SourceRef,
    /// Rule endpoints.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Rule endpoints.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// The via set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<Vec<String>>,
    /// Data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    /// Further kind-specific rule fields (operation, interface, machine, role, …).
    #[serde(flatten)]
    pub fields: std::collections::BTreeMap<String, String>,
}

/// One further place with the same finding.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, PartialOrd, Ord, JsonSchema)]
pub struct Occurrence {
    /// Project-relative path.
    pub file: String,
    /// 1-based line.
    pub line: u32,
}

/// `detected`.
#[derive(Debug, Clone, Serialize, PartialEq, Default, JsonSchema)]
pub struct Detected {
    /// Source entity.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Target entity.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Handler for data findings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// The via set of require-flow findings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via_members: Option<Vec<String>>,
    /// Data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    /// Proof path, every hop: the entities along the witness.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<String>>,
    /// The witness chain's files, first to last, ending with its target entity when that is a
    /// node or resource (chain-based types only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<String>>,
    /// Operation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation: Option<String>,
    /// Required component of an operation finding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_component: Option<String>,
    /// Interface of a dependency finding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interface: Option<String>,
    /// Dotted path after the subject, for value and operation_event facts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// Relation of a value fact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relation: Option<String>,
    /// Value of a value fact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<serde_json::Value>,
    /// Transition source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_state: Option<String>,
    /// Transition target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_state: Option<String>,
    /// Illegal sources of an unguarded write.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub illegal_sources: Option<Vec<String>>,
    /// Event.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// The event that must precede it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preceded_by: Option<String>,
    /// Event scope.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// Role of a permission finding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// Service chain of a DI finding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub services: Option<Vec<String>>,
    /// Lifetimes of the chain, one per service.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lifetimes: Option<Vec<String>>,
    /// The members of a cycle (components, layers or roles, or files), sorted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub members: Option<Vec<String>>,
    /// The public files of the component an interface finding imports into (at most 20, sorted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub public_files: Option<Vec<String>>,
    /// `definite` or `probable`.
    pub confidence: &'static str,
    /// One sentence naming the construct.
    pub evidence: String,
    /// Project-relative path.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    /// Further places with the same id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub occurrences: Option<Vec<Occurrence>>,
    /// The reviewed query behind a query-emitted fact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<QueryRef>,
}

impl Detected {
    /// Every place the finding stands at: its own (`file`, `line`), then its occurrences.
    pub fn places(&self) -> impl Iterator<Item = (&str, u32)> {
        std::iter::once((self.file.as_str(), self.line)).chain(
            self.occurrences
                .iter()
                .flatten()
                .map(|occurrence| (occurrence.file.as_str(), occurrence.line)),
        )
    }
}

/// `detected.query`: the reviewed `.agq.yml` query that emitted the fact.
#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
pub struct QueryRef {
    /// Query id.
    pub id: String,
    /// Query version.
    pub version: u32,
    /// Query file, project-relative.
    pub file: String,
    /// The graph fact it matched.
    #[serde(rename = "graphFactId")]
    pub graph_fact_id: String,
}

/// `rule` of a workflow or change entry.
#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
pub struct PolicyRuleRef {
    /// Rule kind name, e.g. `WorkflowAction`.
    pub kind: &'static str,
    /// The rule as written (for an allow-list finding, the allow-list declaration).
    pub text: String,
    /// Where it is written.
    pub source: SourceRef,
}

/// `proof` of a contract entry: the human explanation.
#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
pub struct ContractProof {
    /// What the contract declares.
    pub contract_assertion: String,
    /// What the extractor found.
    pub extractor_result: String,
    /// Why they disagree.
    pub explanation: String,
}

/// One contract entry (`contract_violations` and `contract_warnings`).
#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
pub struct ContractViolation {
    /// `viol_` + 16 hex.
    pub id: String,
    /// `implements_undeclared`, `implements_missing`, `consumes_undeclared` or `consumes_method_mismatch`.
    #[serde(rename = "type")]
    pub violation_type: &'static str,
    /// `error` or `warning`.
    pub severity: &'static str,
    /// `new`, `existing` or `unchanged`.
    pub status: &'static str,
    /// Whether it blocks.
    pub blocking: bool,
    /// True when the baseline file lists this finding: it is then `existing` and does not block
    /// (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baselined: Option<bool>,
    /// The spec's waiver that covers this finding: it does not block until the waiver expires.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waiver: Option<WaiverRef>,
    /// The contract.
    pub contract: String,
    /// The implementing or consuming component.
    pub component: String,
    /// `implements` or `consumes`.
    pub role: &'static str,
    /// `"<METHOD> <path>"` of the declared endpoint, or null.
    pub declared: Option<String>,
    /// `"<METHOD> <path>"` of the extracted route or call, or null.
    pub extracted: Option<String>,
    /// Project-relative path (for `implements_missing`, the endpoint's declaration in the spec).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// 1-based line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// One-line message.
    pub message: String,
    /// The human explanation.
    pub proof: ContractProof,
    /// The solver proof; absent in `contract_warnings`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub z3_proof: Option<Z3Proof>,
}

/// One workflow entry (`workflow_violations` and `workflow_warnings`).
#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
pub struct WorkflowViolation {
    /// `viol_` + 16 hex.
    pub id: String,
    /// Always `workflow_violation`.
    #[serde(rename = "type")]
    pub violation_type: &'static str,
    /// `new`, `existing` or `unchanged`.
    pub status: &'static str,
    /// Whether it blocks.
    pub blocking: bool,
    /// True when the baseline file lists this finding: it is then `existing` and does not block
    /// (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baselined: Option<bool>,
    /// The spec's waiver that covers this finding: it does not block until the waiver expires.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waiver: Option<WaiverRef>,
    /// The workflow policy.
    pub policy: String,
    /// The rule (or allow-list declaration).
    pub rule: PolicyRuleRef,
    /// The workflow's component.
    pub workflow: String,
    /// The workflow file.
    pub file: String,
    /// 1-based line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The job.
    pub job: String,
    /// The step's text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
    /// The action.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// The action target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The permission.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permission: Option<String>,
    /// The granted access.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access: Option<String>,
    /// One-line message.
    pub message: String,
    /// One sentence naming the construct.
    pub evidence: String,
    /// The proof.
    pub z3_proof: Z3Proof,
}

/// `z3_proof` of a change entry.
#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
pub struct ChangeProof {
    /// The policy's implication.
    pub policy_constraint: String,
    /// The changed files of the trigger.
    pub trigger_assertion: String,
    /// The required component is not touched.
    pub missing_assertion: String,
    /// Names of the tracked assertions Z3 returned as the core.
    pub unsat_core: Vec<String>,
    /// The slice id.
    pub slice: String,
}

/// One change entry.
#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
pub struct ChangeViolation {
    /// `viol_` + 16 hex.
    pub id: String,
    /// Always `change_violation`.
    #[serde(rename = "type")]
    pub violation_type: &'static str,
    /// `new`, `existing` or `unchanged`.
    pub status: &'static str,
    /// Whether it blocks.
    pub blocking: bool,
    /// True when the baseline file lists this finding: it is then `existing` and does not block
    /// (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baselined: Option<bool>,
    /// The spec's waiver that covers this finding: it does not block until the waiver expires.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waiver: Option<WaiverRef>,
    /// The change policy.
    pub policy: String,
    /// The rule.
    pub rule: PolicyRuleRef,
    /// The trigger component.
    pub trigger: String,
    /// The component that must be touched too.
    pub required: String,
    /// One-line message.
    pub message: String,
    /// The changed files of the trigger.
    pub trigger_files: Vec<String>,
    /// The required component's globs.
    pub required_globs: Vec<String>,
    /// The first of them.
    pub required_glob: String,
    /// The proof.
    pub z3_proof: ChangeProof,
}

/// `graph_evidence`.
#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
pub struct GraphEvidence {
    /// The graph fact id.
    #[serde(rename = "graphFactId")]
    pub graph_fact_id: String,
    /// Its kind.
    pub kind: &'static str,
    /// Its extractor.
    pub extractor: String,
    /// Project-relative path.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// Its message.
    pub evidence: String,
}

/// `z3_proof`.
#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
pub struct Z3Proof {
    /// The rule's SMT-LIB assertion(s).
    pub permanent_constraint: String,
    /// The fact assertion(s) that contradict it.
    pub delta_assertion: String,
    /// Names of the tracked assertions Z3 returned as the core.
    pub unsat_core: Vec<String>,
    /// The slice id.
    pub slice: String,
}

/// One architecture finding.
#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
pub struct ArchitectureViolation {
    /// `viol_` + 16 hex.
    pub id: String,
    /// e.g. `flow_violation`.
    #[serde(rename = "type")]
    pub violation_type: &'static str,
    /// `new`, `existing` or `unchanged`.
    pub status: &'static str,
    /// Whether it blocks.
    pub blocking: bool,
    /// True when the baseline file lists this finding: it is then `existing` and does not block
    /// (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baselined: Option<bool>,
    /// The spec's waiver that covers this finding: it does not block until the waiver expires.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waiver: Option<WaiverRef>,
    /// The invariant or policy name.
    pub invariant: String,
    /// The rule.
    pub rule: RuleRef,
    /// What was found.
    pub detected: Detected,
    /// The graph fact behind it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub graph_evidence: Option<GraphEvidence>,
    /// One-line message.
    pub message: String,
    /// The proof.
    pub z3_proof: Z3Proof,
}

/// One warning.
#[derive(Debug, Clone, Serialize, PartialEq, Default, JsonSchema)]
pub struct Warning {
    /// Stable code.
    pub code: String,
    /// Message.
    pub message: String,
    /// Project-relative path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// 1-based line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// Source entity.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Target entity.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Evidence sentence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
    /// Violation type, for `probable-fact`.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub violation_type: Option<String>,
    /// Invariant, for `probable-fact`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invariant: Option<String>,
    /// Rule text, for `probable-fact`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// One `rule_coverage` entry.
#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
pub struct RuleCoverage {
    /// Rule text.
    pub rule: String,
    /// Invariant or policy name.
    pub declaration: String,
    /// Components the rule names.
    pub components: Vec<String>,
    /// At most 5 evidence strings.
    pub evidence: Vec<String>,
    /// `pass`, `fail` or `unknown`.
    pub status: &'static str,
}

/// One `solver_diagnostics` entry.
#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
pub struct SolverDiagnostic {
    /// `slice_` + 16 hex.
    pub id: String,
    /// `sat`, `unsat`, `unknown` or `error`.
    pub status: &'static str,
    /// Wall time of the solve.
    pub elapsed_ms: u64,
    /// Rule text.
    pub rule: String,
    /// Invariant or policy name.
    pub declaration: String,
    /// Spec file of the rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_file: Option<String>,
    /// Line of the rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// Entities of the slice.
    pub components: Vec<String>,
    /// Data, for data rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    /// Tracked fact assertions.
    pub fact_count: usize,
    /// Hops of the witness path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_depth: Option<usize>,
    /// Largest out-degree among the slice's entities in the flow graph.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fanout: Option<usize>,
    /// Why unknown/error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// How to make the slice smaller.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggested_refactor: Option<String>,
}

/// One `extractor_debug` entry.
#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
pub struct ExtractorDebug {
    /// Project-relative path.
    pub file: String,
    /// Language name.
    pub language: String,
    /// Error nodes.
    pub parse_errors: usize,
    /// Facts per kind.
    pub facts_by_kind: std::collections::BTreeMap<String, usize>,
    /// Per-query counters.
    pub queries: Vec<serde_json::Value>,
}
