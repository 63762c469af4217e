//! Helpers for family unit tests: compile a spec from text, construct facts, evaluate and
//! solve every slice with Z3.

use std::collections::BTreeMap;

use policies::facts::{
    Confidence, DomainFact, DomainFactBody, Evidence, Fact, FactKind, PropertyValue,
    QueryProvenance, Strategy,
};
use policies::model::Model;

use super::{evaluate, Candidate, ChangeSet, Context, Evaluation, FactTable, InScope};
use crate::graph::component_graph::FlowGraph;
use crate::graph::file_graph::FileGraph;
use crate::input::paths::ComponentMap;
use crate::solve::{Limits, SliceStatus, SolveOutcome, Solver, Z3Solver};

/// Compiles `source` (must be valid).
pub fn model(source: &str) -> Model {
    let output = policies::compile_source("architecture.ag", source);
    let diagnostics: Vec<String> = output
        .diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.is_error())
        .map(|diagnostic| diagnostic.headline())
        .collect();
    output
        .model
        .unwrap_or_else(|| panic!("spec does not compile: {diagnostics:?}"))
}

fn evidence(file: &str, line: u32, scope: Option<&str>, message: &str) -> Evidence {
    Evidence {
        extractor: "test".into(),
        strategy: Strategy::Ast,
        file: file.into(),
        line,
        column: 1,
        end_line: line,
        end_column: 2,
        scope: scope.map(Into::into),
        message: message.into(),
    }
}

/// A graph fact at `file:line` with string properties.
pub fn fact(kind: FactKind, file: &str, line: u32, properties: &[(&str, &str)]) -> Fact {
    Fact {
        id: format!("test:{file}:{line}:1:{}", kind.as_str()),
        kind,
        subject: None,
        target: None,
        technology: None,
        model: None,
        route: None,
        properties: properties
            .iter()
            .map(|(key, value)| ((*key).to_owned(), PropertyValue::from(*value)))
            .collect(),
        confidence: Confidence::Definite,
        evidence: evidence(
            file,
            line,
            None,
            &format!("{} at line {line}", kind.as_str()),
        ),
    }
}

/// A domain fact at `file:line`, optionally in a function scope.
pub fn domain(body: DomainFactBody, file: &str, line: u32, scope: Option<&str>) -> DomainFact {
    DomainFact {
        id: format!("q:test:{file}:{line}"),
        body,
        confidence: Confidence::Definite,
        evidence: evidence(
            file,
            line,
            scope,
            &format!("query `q` v1 emitted a fact at line {line}"),
        ),
        subject_component: None,
        query: QueryProvenance {
            id: "q".into(),
            version: 1,
            file: ".lintel/queries/q.agq.yml".into(),
            graph_fact_id: format!("test:{file}:{line}:1:call"),
        },
        evidence_key: format!("{file}:{line}"),
    }
}

struct Everything;

impl InScope for Everything {
    fn contains_file(&self, _file: &str) -> bool {
        true
    }

    fn is_everything(&self) -> bool {
        true
    }
}

/// Every candidate with its solver outcome.
pub struct Run {
    /// The evaluation.
    pub evaluation: Evaluation,
    /// One outcome per candidate.
    pub outcomes: Vec<SolveOutcome>,
}

impl Run {
    /// The UNSAT candidates (the findings).
    pub fn findings(&self) -> Vec<&Candidate> {
        self.evaluation
            .candidates
            .iter()
            .zip(&self.outcomes)
            .filter(|(_, outcome)| outcome.status == SliceStatus::Unsat)
            .map(|(candidate, _)| candidate)
            .collect()
    }

    /// Asserts every UNSAT slice's core names the rule (or allow-list) and at least one fact,
    /// and that no slice is undecided.
    pub fn assert_proofs(&self) {
        for (candidate, outcome) in self.evaluation.candidates.iter().zip(&self.outcomes) {
            assert!(
                matches!(outcome.status, SliceStatus::Sat | SliceStatus::Unsat),
                "undecided slice {outcome:?}:\n{}",
                candidate.slice.text
            );
            if outcome.status != SliceStatus::Unsat {
                continue;
            }
            let roles: Vec<_> = outcome
                .core
                .iter()
                .filter_map(|literal| candidate.slice.assertion(literal))
                .map(|tracked| tracked.role)
                .collect();
            assert!(
                roles.contains(&policies::smt::AssertionRole::Rule),
                "core without the rule: {:?}\n{}",
                outcome.core,
                candidate.slice.text
            );
            assert!(
                roles.contains(&policies::smt::AssertionRole::Fact),
                "core without a fact: {:?}\n{}",
                outcome.core,
                candidate.slice.text
            );
        }
    }
}

/// Fills subjects from the model's globs, evaluates (everything in scope) and solves.
pub fn run(
    model: &Model,
    facts: Vec<Fact>,
    domain_facts: Vec<DomainFact>,
    changes: ChangeSet,
) -> Run {
    let map = ComponentMap::new(model);
    let mut facts: Vec<Box<Fact>> = facts.into_iter().map(Box::new).collect();
    let mut owners = BTreeMap::new();
    for fact in &mut facts {
        if let Some(owner) = map.owner(&fact.evidence.file) {
            owners.insert(fact.evidence.file.to_string(), owner.clone());
            if fact.subject.is_none() {
                fact.subject = Some(owner.into());
            }
        }
        // Every project file has its owner, as in a check: the files imports resolve to too.
        if let Some(resolved) = fact.property_str("resolved") {
            if let Some(owner) = map.owner(resolved) {
                owners.insert(resolved.to_owned(), owner);
            }
        }
    }
    let mut domain_facts = domain_facts;
    for fact in &mut domain_facts {
        if fact.subject_component.is_none() {
            fact.subject_component = map.owner(&fact.evidence.file);
        }
    }
    super::di_policy::fill_injection_targets(&mut facts, &owners);
    super::di_policy::fill_injection_type_files(&mut facts);
    super::contract::fill_http_call_targets(model, &mut facts);
    let table = FactTable {
        graph: &facts,
        domain: &domain_facts,
    };
    let graph = FlowGraph::build(model, &table, &owners);
    let chains = FileGraph::build(
        model,
        &table,
        &owners,
        &crate::graph::file_graph::ServerOnly::default(),
    );
    let context = Context {
        model,
        facts: table,
        graph: &graph,
        chains: &chains,
        new_edge: None,
        scope: &Everything,
        changes: &changes,
        owners: &owners,
        map: &map,
    };
    let evaluation = evaluate(&context);
    let limits = Limits {
        rlimit: 5_000_000,
        timeout_ms: 10_000,
    };
    let outcomes = evaluation
        .candidates
        .iter()
        .map(|candidate| Z3Solver.solve(&candidate.slice, limits))
        .collect();
    Run {
        evaluation,
        outcomes,
    }
}

/// `(type, rule kind, citation text)` of every finding.
pub fn summary(run: &Run) -> Vec<(String, String, String)> {
    run.findings()
        .iter()
        .map(|candidate| {
            (
                candidate.violation_type.to_owned(),
                candidate.citation.kind.name().to_owned(),
                candidate.citation.text.clone(),
            )
        })
        .collect()
}
