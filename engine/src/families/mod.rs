//! Rule evaluation by policy family: for every concrete rule, the candidate instances of
//! its rule (see the rule's section of policies/LANGUAGE.md), each with the rule slice that must
//! prove it (`policies::smt`).
//!
//! Each family lives in its own module and adds [`Candidate`]s to an [`Evaluation`]; the
//! registry is [`FAMILIES`]. A family only proposes candidates: a candidate becomes a finding
//! only when its slice is UNSAT. Contract warnings, which need no proof, are the one exception
//! ([`Evaluation::contract_warnings`]).

use std::collections::{BTreeMap, BTreeSet};

use policies::facts::Confidence;
use policies::model::{Declaration, Model, Rule, RuleKind, SourceLocation};
use policies::smt::{ChainHop, ChainRelation, ChainVertex, Slice, SliceBuilder};

use crate::graph::component_graph::FlowGraph;
use crate::graph::file_graph::{Chain, ChainQuery, EdgeMark, FileEdge, FileGraph, NewEdge, Vertex};
use crate::input::paths::ComponentMap;
use crate::verdict::Warning;

pub mod evaluate;
pub use crate::graph::fact_table::{FactRef, FactTable, InScope};
pub mod vacuous;

pub mod boundary;
pub mod change_policy;
pub mod contract;
pub mod data_policy;
pub mod di_policy;
pub mod event_policy;
pub mod flow;
pub mod invariant_facts;
pub mod machine;
pub mod permission;
pub mod trust_policy;
pub mod value_policy;
pub mod workflow_policy;

#[cfg(test)]
pub(crate) mod test_support;

/// One policy family: the rule kinds it decides and its evaluator.
pub struct Family {
    /// The rule kinds it evaluates.
    pub kinds: &'static [RuleKind],
    /// Adds the family's candidates (and warnings) to the evaluation.
    pub evaluate: fn(&Context<'_>, &mut Evaluation),
}

/// Every family, in the order of `policies::model::RuleKind::ALL`. Every rule kind but the compile-time
/// RequireContractImplementedBy belongs to exactly one of them.
pub const FAMILIES: &[Family] = &[
    flow::FAMILY,
    boundary::FAMILY,
    invariant_facts::FAMILY,
    machine::FAMILY,
    permission::FAMILY,
    value_policy::FAMILY,
    event_policy::FAMILY,
    workflow_policy::FAMILY,
    di_policy::FAMILY,
    data_policy::FAMILY,
    trust_policy::FAMILY,
    change_policy::FAMILY,
    contract::FAMILY,
];

/// Where a finding is: its evidence construct.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// Project-relative path.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: Option<u32>,
    /// One sentence naming the construct.
    pub message: String,
    /// The id key of the construct (see Ids in docs/VERDICT.md).
    pub evidence_key: String,
    /// The fact behind it (a [`FactTable`] index), if any.
    pub fact: Option<usize>,
}

impl Site {
    /// The site of fact `index`.
    pub fn of(table: &FactTable<'_>, index: usize) -> Option<Self> {
        let fact = table.get(index)?;
        let evidence = fact.evidence();
        Some(Self {
            file: evidence.file.to_string(),
            line: evidence.line,
            column: Some(evidence.column),
            message: evidence.message.to_string(),
            evidence_key: fact.evidence_key(),
            fact: Some(index),
        })
    }

    /// A site in the spec (a declaration), with no fact behind it.
    pub fn spec(location: &SourceLocation, message: String, evidence_key: String) -> Self {
        Self {
            file: location.file.clone(),
            line: location.line,
            column: Some(location.column),
            message,
            evidence_key,
            fact: None,
        }
    }
}

/// What a finding cites: the rule it violates, or the declaration of an allow-list (see the rule's section of policies/LANGUAGE.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Citation {
    /// `rule.kind`.
    pub kind: RuleKind,
    /// `rule.text`.
    pub text: String,
    /// `rule.source`.
    pub source: SourceLocation,
    /// The invariant or policy name.
    pub declaration: String,
}

impl Citation {
    /// Cites a rule as written.
    pub fn rule(rule: &Rule) -> Self {
        Self {
            kind: rule.kind,
            text: rule.text.clone(),
            source: rule.source.clone(),
            declaration: rule.declaration.clone(),
        }
    }

    /// Cites an allow-list: `<keyword> <Name>: <what> is not allowed` at the declaration's name.
    pub fn allow_list(
        kind: RuleKind,
        keyword: &str,
        name: &str,
        location: &SourceLocation,
        what: &str,
    ) -> Self {
        Self {
            kind,
            text: format!("{keyword} {name}: {what} is not allowed"),
            source: location.clone(),
            declaration: name.to_owned(),
        }
    }
}

/// The `detected` fields of an architecture finding (docs/VERDICT.md).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Detail {
    /// Source entity (or service, state owner…).
    pub from: Option<String>,
    /// Target entity.
    pub to: Option<String>,
    /// Handler (data findings).
    pub via: Option<String>,
    /// The via set (require-flow findings).
    pub via_members: Option<Vec<String>>,
    /// Data.
    pub data: Option<String>,
    /// Witness path: the entities along the witness.
    pub path: Option<Vec<String>>,
    /// The witness chain's files, ending with its target entity when that is a node or resource.
    pub files: Option<Vec<String>>,
    /// Under `--diff`: the witness chain uses an edge the base does not have, so the finding is
    /// `new` even when its pair was violated on the base (see Status and blocking in docs/VERDICT.md). Not output.
    pub opens_path: bool,
    /// Operation.
    pub operation: Option<String>,
    /// Required component (operation findings).
    pub required_component: Option<String>,
    /// Interface (dependency findings).
    pub interface: Option<String>,
    /// Dotted path after the subject.
    pub field: Option<String>,
    /// Relation of a value fact.
    pub relation: Option<String>,
    /// Value of a value fact.
    pub value: Option<serde_json::Value>,
    /// Transition source.
    pub from_state: Option<String>,
    /// Transition target.
    pub to_state: Option<String>,
    /// Illegal sources of an unguarded write.
    pub illegal_sources: Option<Vec<String>>,
    /// Event.
    pub event: Option<String>,
    /// Required preceding event.
    pub preceded_by: Option<String>,
    /// Event scope.
    pub scope: Option<String>,
    /// Role (permission findings).
    pub role: Option<String>,
    /// Service chain (DI findings).
    pub services: Option<Vec<String>>,
    /// Lifetimes of the chain.
    pub lifetimes: Option<Vec<String>>,
    /// The members of a cycle, sorted (cycle findings; their id hashes them).
    pub members: Option<Vec<String>>,
    /// The public files of the target component (interface findings).
    pub public_files: Option<Vec<String>>,
}

/// The fields of a contract entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractShape {
    /// The contract.
    pub contract: String,
    /// The implementing or consuming component.
    pub component: String,
    /// `implements` or `consumes`.
    pub role: &'static str,
    /// `"<METHOD> <path>"` of the declared endpoint.
    pub declared: Option<String>,
    /// `"<METHOD> <path>"` of the extracted route or call.
    pub extracted: Option<String>,
    /// The method for the id.
    pub method: String,
    /// The normalised path for the id.
    pub path: String,
    /// `proof.contract_assertion`.
    pub contract_assertion: String,
    /// `proof.extractor_result`.
    pub extractor_result: String,
    /// `proof.explanation`.
    pub explanation: String,
}

/// The fields of a workflow entry.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WorkflowShape {
    /// The workflow's component.
    pub workflow: String,
    /// The job.
    pub job: String,
    /// The step's text.
    pub step: Option<String>,
    /// The action.
    pub action: Option<String>,
    /// The action target.
    pub target: Option<String>,
    /// The permission.
    pub permission: Option<String>,
    /// The granted access.
    pub access: Option<String>,
}

/// The fields of a change entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeShape {
    /// The trigger component.
    pub trigger: String,
    /// The required component.
    pub required: String,
    /// The changed files of the trigger.
    pub trigger_files: Vec<String>,
    /// The required component's globs.
    pub required_globs: Vec<String>,
}

/// Which verdict array a finding goes to, with its array-specific fields.
#[derive(Debug, Clone, PartialEq)]
#[expect(
    clippy::large_enum_variant,
    reason = "candidates are few and short-lived; boxing would only add noise"
)]
pub enum Shape {
    /// `violations`.
    Architecture(Detail),
    /// `contract_violations`.
    Contract(ContractShape),
    /// `workflow_violations` (probable: `workflow_warnings`).
    Workflow(WorkflowShape),
    /// `change_violations`.
    Change(ChangeShape),
}

/// What `suggested_refactor` blames when the slice is heavy (see `solver_diagnostics` in docs/VERDICT.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SliceCause {
    /// A di_policy slice.
    DiRegistrations,
    /// A machine slice over writes to this data.
    StateWrites(String),
    /// Anything else (path depth, fan-out, generic).
    Generic,
}

/// One candidate instance of a rule, with its proof obligation.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// The rules (indices into `model.rules`) whose coverage this slice decides.
    pub rules: Vec<usize>,
    /// What the finding cites.
    pub citation: Citation,
    /// Finding `type`.
    pub violation_type: &'static str,
    /// The verdict array and its fields.
    pub shape: Shape,
    /// Minimum confidence over the facts that establish it.
    pub confidence: Confidence,
    /// The evidence site.
    pub site: Site,
    /// Further places with the same finding id.
    pub occurrences: Vec<(String, u32)>,
    /// Every fact of the witness, for `graph_fact_chain` ([`FactTable`] indices).
    pub chain: Vec<usize>,
    /// True for findings made one per endpoint pair (ids ignore file and evidence key).
    pub per_pair: bool,
    /// The one-line message.
    pub message: String,
    /// A concrete fix direction.
    pub suggested_fix: String,
    /// The slice that must be UNSAT.
    pub slice: Slice,
    /// Names of the slice's entities.
    pub components: Vec<String>,
    /// Data of the slice.
    pub data: Option<String>,
    /// Hops of the witness.
    pub path_depth: Option<usize>,
    /// Largest out-degree among the witness's entities.
    pub fanout: Option<usize>,
    /// What a heavy slice is blamed on.
    pub cause: SliceCause,
}

/// A contract warning: no proof needed.
#[derive(Debug, Clone)]
pub struct Unproved {
    /// `consumes_undeclared` or `consumes_method_mismatch`.
    pub violation_type: &'static str,
    /// The entry's fields.
    pub shape: ContractShape,
    /// The call site.
    pub site: Site,
    /// The message.
    pub message: String,
}

/// Everything evaluation produced.
#[derive(Debug, Default)]
pub struct Evaluation {
    /// Candidates, in family order, then rule order, then witness order.
    pub candidates: Vec<Candidate>,
    /// Contract warnings.
    pub contract_warnings: Vec<Unproved>,
    /// Check-time warnings raised while evaluating (`incomparable-value-fact`, …).
    pub warnings: Vec<Warning>,
    /// Rules no family evaluates (none but the compile-time kind).
    pub unevaluated: Vec<usize>,
}

/// The changed files of the scope, for change policies (see `change_policy` in policies/LANGUAGE.md).
#[derive(Debug, Clone, Default)]
pub struct ChangeSet {
    /// The scope's changed files (both paths of a rename, deleted files included); empty under
    /// `--all` and `--file`, which carry no change.
    pub files: Vec<String>,
}

impl ChangeSet {
    /// The change a scope carries: the changed files of a git scope (staged, `--diff`), nothing
    /// for `--all` and `--file`, which name files to check, not a change (docs/CLI.md).
    pub fn of_scope(scope: &crate::input::scope::Scope) -> Self {
        let carries_change = matches!(scope.mode, "staged" | "git_ref");
        Self {
            files: if carries_change {
                scope.changed_files.clone()
            } else {
                Vec::new()
            },
        }
    }
}

/// What every family reads.
pub struct Context<'a> {
    /// The checked model.
    pub model: &'a Model,
    /// Graph and domain facts.
    pub facts: FactTable<'a>,
    /// The flow graph.
    pub graph: &'a FlowGraph,
    /// The file graph of chains (see Chains under `invariant` in policies/LANGUAGE.md).
    pub chains: &'a FileGraph,
    /// Under `--diff`: true for an edge of the file graph (source file, target file or entity)
    /// that the base does not have (see Status and blocking in docs/VERDICT.md).
    pub new_edge: Option<NewEdge<'a>>,
    /// The check scope.
    pub scope: &'a dyn InScope,
    /// The changed files.
    pub changes: &'a ChangeSet,
    /// Owner of every owned project file.
    pub owners: &'a BTreeMap<String, String>,
    /// The file → component mapping (for files that no longer exist).
    pub map: &'a ComponentMap,
}

/// Evaluates every rule of the model, family by family.
pub fn evaluate(context: &Context<'_>) -> Evaluation {
    let mut evaluation = Evaluation::default();
    for family in FAMILIES {
        (family.evaluate)(context, &mut evaluation);
    }
    for (index, rule) in context.model.rules.iter().enumerate() {
        let decided = rule.kind == RuleKind::RequireContractImplementedBy
            || FAMILIES
                .iter()
                .any(|family| family.kinds.contains(&rule.kind));
        if !decided {
            evaluation.unevaluated.push(index);
        }
    }
    evaluation
}

/// The core name of a rule assertion.
pub fn rule_name(rule: &Rule) -> String {
    format!("rule {}: {}", rule.declaration, rule.text)
}

/// The core name of a fact assertion.
pub fn fact_name(fact: FactRef<'_>) -> String {
    format!("fact {}: {}", fact.id(), fact.evidence().message)
}

/// A new slice builder named after a rule.
pub fn builder_for(rule: &Rule) -> SliceBuilder {
    SliceBuilder::new(&format!("{}: {}", rule.declaration, rule.text))
}

/// The declaration of this kind and name.
pub fn declaration<'a>(model: &'a Model, name: &str) -> Option<&'a Declaration> {
    model
        .declarations
        .iter()
        .find(|declaration| declaration.name == name)
}

impl Context<'_> {
    /// True when the fact at `index` has its evidence in scope.
    pub fn in_scope(&self, index: usize) -> bool {
        self.facts
            .get(index)
            .is_some_and(|fact| self.scope.contains_file(&fact.evidence().file))
    }

    /// The rules of a kind, with their indices.
    pub fn rules_of<'m>(
        &'m self,
        kinds: &'m [RuleKind],
    ) -> impl Iterator<Item = (usize, &'m Rule)> + 'm {
        self.model
            .rules
            .iter()
            .enumerate()
            .filter(move |(_, rule)| kinds.contains(&rule.kind))
    }

    /// The trust word of an entity (see `node` and `resource` in policies/LANGUAGE.md): its own, or its node's for a component.
    pub fn trust(&self, entity: &str) -> Option<&'static str> {
        let infra = |name: &str| self.model.node(name).or_else(|| self.model.resource(name));
        match self.model.component(entity) {
            Some(component) => infra(&component.runs_on)?.trust.map(|trust| trust.as_str()),
            None => infra(entity)?.trust.map(|trust| trust.as_str()),
        }
    }

    /// `has_auth` of an entity (see `node` and `resource` in policies/LANGUAGE.md).
    pub fn has_auth(&self, entity: &str) -> bool {
        let infra = |name: &str| self.model.node(name).or_else(|| self.model.resource(name));
        match self.model.component(entity) {
            Some(component) => infra(&component.runs_on).is_some_and(|node| node.has_auth()),
            None => infra(entity).is_some_and(|entity| entity.has_auth()),
        }
    }

    /// The owner of a file, also for files that are no longer in the project.
    pub fn owner(&self, file: &str) -> Option<String> {
        self.owners
            .get(file)
            .cloned()
            .or_else(|| self.map.owner(file))
    }

    /// Facts of the edge at or above `minimum`.
    pub fn edge_facts(&self, from: &str, to: &str, minimum: Confidence) -> Vec<usize> {
        self.graph
            .edge(from, to)
            .map(|edge| {
                edge.facts
                    .iter()
                    .copied()
                    .filter(|index| {
                        self.facts
                            .get(*index)
                            .is_some_and(|fact| fact.confidence() >= minimum)
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The largest out-degree among `entities`.
    pub fn fanout(&self, entities: &[String]) -> Option<usize> {
        entities
            .iter()
            .map(|entity| self.graph.fanout(entity))
            .max()
    }

    /// The minimum confidence over the chain.
    pub fn path_confidence(&self, chain: &[usize]) -> Confidence {
        chain
            .iter()
            .filter_map(|index| self.facts.get(*index).map(|fact| fact.confidence()))
            .min()
            .unwrap_or(Confidence::Possible)
    }

    /// True when some fact of the chain is in scope.
    pub fn touches_scope(&self, chain: &[usize]) -> bool {
        chain.iter().any(|index| self.in_scope(*index))
    }

    /// The witness chain of `reaches(from, to)` (see Chains under `invariant` in policies/LANGUAGE.md) whose interior avoids the components and
    /// entities in `blocked` and enters only what `may_enter` accepts (by owner or entity name;
    /// `None` for an unowned file): on definite edges first, then on definite and probable ones.
    /// Under a narrowed scope the chain must have an edge whose fact is in scope, and its site is
    /// the first such edge; under `--diff` a chain with an edge the base lacks comes first.
    pub fn chain_witness(
        &self,
        from: &str,
        to: &str,
        blocked: &BTreeSet<String>,
        may_enter: &dyn Fn(Option<&str>) -> bool,
    ) -> Option<Chain> {
        let in_scope = |_: Vertex, _: &FileEdge, fact: usize| self.in_scope(fact);
        let in_scope: EdgeMark<'_> = &in_scope;
        let opens = |from: Vertex, edge: &FileEdge, _: usize| {
            self.new_edge
                .is_some_and(|new_edge| new_edge(self.chains.name(from), self.chains.name(edge.to)))
        };
        let opens: EdgeMark<'_> = &opens;
        let client = self.runs_on_client(from);
        for minimum in [Confidence::Definite, Confidence::Probable] {
            // Under `--diff`, a chain through an edge the base lacks first (see Status and
            // blocking in docs/VERDICT.md): a pull request that opens another forbidden path is new work.
            let mut markings: Vec<(Option<EdgeMark<'_>>, bool)> = Vec::new();
            if self.new_edge.is_some() {
                markings.push((Some(opens), true));
            }
            markings.push(((!self.scope.is_everything()).then_some(in_scope), false));
            for (marked, opening) in markings {
                let query = ChainQuery {
                    from,
                    to,
                    minimum,
                    blocked,
                    may_enter,
                    marked,
                    client,
                };
                if let Some(mut chain) = self.chains.witness(&query, &self.facts) {
                    chain.opens = opening;
                    return Some(chain);
                }
            }
        }
        None
    }

    /// Whether `component` runs on a client node (`edge_desktop`, `edge_mobile`,
    /// `edge_embedded`, `edge_wearable`): a browser, an app or a device, not a server.
    fn runs_on_client(&self, component: &str) -> bool {
        self.model
            .component(component)
            .and_then(|declared| self.model.node(&declared.runs_on))
            .is_some_and(|node| {
                matches!(
                    node.type_name.as_str(),
                    "edge_desktop" | "edge_mobile" | "edge_embedded" | "edge_wearable"
                )
            })
    }

    /// As [`Context::chain_witness`], entering anything.
    pub fn chain_between(&self, from: &str, to: &str, blocked: &BTreeSet<String>) -> Option<Chain> {
        self.chain_witness(from, to, blocked, &|_| true)
    }

    /// `detected.path` and `detected.files` of a chain (see Chains under `invariant` in policies/LANGUAGE.md).
    pub fn chain_paths(&self, chain: &Chain) -> (Vec<String>, Vec<String>) {
        (
            self.chains.entity_path(&chain.vertices),
            self.chains.file_path(&chain.vertices),
        )
    }

    /// Adds a chain's edge facts and the ground path axioms along it (`policies::smt` chain
    /// encoding) that make it `relation` from `from` to `to`.
    pub fn add_chain(
        &self,
        builder: &mut SliceBuilder,
        relation: ChainRelation<'_>,
        from: &str,
        to: &str,
        chain: &Chain,
    ) {
        let vertices: Vec<ChainVertex<'_>> = chain
            .vertices
            .iter()
            .map(|vertex| {
                if self.chains.is_file(*vertex) {
                    ChainVertex::File {
                        path: self.chains.name(*vertex),
                        owner: self.chains.owner(*vertex),
                    }
                } else {
                    ChainVertex::Entity(self.chains.name(*vertex))
                }
            })
            .collect();
        let hops: Vec<ChainHop> = chain
            .facts
            .iter()
            .filter_map(|index| self.facts.get(*index))
            .map(|fact| ChainHop {
                name: fact_name(fact),
                fact_id: Some(fact.id().to_owned()),
            })
            .collect();
        builder.chain(relation, from, to, &vertices, &hops);
    }
}

/// Handlers of a data type (see `node` and `resource` in policies/LANGUAGE.md), in declaration order.
pub fn handlers<'a>(model: &'a Model, data: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    model
        .components
        .iter()
        .filter(move |component| component.handles.iter().any(|handled| handled == data))
        .map(|component| component.name.as_str())
}

/// Sorted, de-duplicated copy.
pub fn sorted(mut names: Vec<String>) -> Vec<String> {
    names.sort();
    names.dedup();
    names
}

#[cfg(test)]
mod tests;
