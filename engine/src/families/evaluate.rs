//! The thin dispatcher of rule evaluation: builds the [`Context`] of a run and hands it to every
//! policy family of [`crate::families`].

pub use crate::families::{ChangeSet, Evaluation, FactTable, InScope};

use std::collections::BTreeMap;

use policies::facts::{DomainFact, Fact};
use policies::model::Model;

use crate::families::Context;
use crate::graph::component_graph::FlowGraph;
use crate::graph::file_graph::{FileGraph, NewEdge};
use crate::input::paths::ComponentMap;

/// The inputs of one evaluation.
pub struct Inputs<'a> {
    /// The checked model.
    pub model: &'a Model,
    /// Graph facts, sorted by id.
    pub facts: &'a [Box<Fact>],
    /// Query-emitted domain facts.
    pub domain_facts: &'a [DomainFact],
    /// The flow graph (built over the same facts).
    pub graph: &'a FlowGraph,
    /// The file graph of chains (built over the same facts).
    pub chains: &'a FileGraph,
    /// Under `--diff`: true for a file-graph edge (source, target) the base lacks.
    pub new_edge: Option<NewEdge<'a>>,
    /// The check scope.
    pub scope: &'a dyn InScope,
    /// The changed files.
    pub changes: &'a ChangeSet,
    /// Owner of every owned project file.
    pub owners: &'a BTreeMap<String, String>,
    /// The file → component mapping the extraction used (globs compiled once per analysis).
    pub map: &'a ComponentMap,
}

/// Evaluates every rule of the model.
pub fn evaluate(inputs: &Inputs<'_>) -> Evaluation {
    let context = Context {
        model: inputs.model,
        facts: FactTable {
            graph: inputs.facts,
            domain: inputs.domain_facts,
        },
        graph: inputs.graph,
        chains: inputs.chains,
        new_edge: inputs.new_edge,
        scope: inputs.scope,
        changes: inputs.changes,
        owners: inputs.owners,
        map: inputs.map,
    };
    crate::families::evaluate(&context)
}
