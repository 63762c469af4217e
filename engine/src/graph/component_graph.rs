//! The flow graph (see Edges under `invariant` in policies/LANGUAGE.md): component edges, for the direct-edge rules (DenyFlow and
//! the others); path rules are judged on file chains (`chains.rs`).
//!
//! Edges come from import facts (not type-only; target = owner of the resolved file),
//! constructor injections (target = owner of the file that declares the injected type), and
//! `accesses_technology` and `http_call` facts (targets: [`crate::graph::targets::fact_targets`], with
//! the bindings of the spec). There is one edge per (from, to): its confidence is the maximum over its
//! facts, and its representative fact the best by confidence, strategy, file, line, column and id.
//! All maps are ordered, so every choice is deterministic.

use std::collections::BTreeMap;

use policies::facts::{Confidence, DomainFactBody, Fact, FactKind};
use policies::model::Model;

use crate::graph::fact_table::{FactRef, FactTable};
use crate::graph::targets::category_types;

/// Resolves a flow target name (see Edges under `invariant` in policies/LANGUAGE.md): a declared entity, else a category's resources, else its nodes.
pub fn resolve_target(model: &Model, name: &str) -> Vec<String> {
    if model.is_entity(name) {
        return vec![name.to_owned()];
    }
    let types = category_types(name);
    let resources: Vec<String> = model
        .resources
        .iter()
        .filter(|resource| types.contains(&resource.type_name.as_str()))
        .map(|resource| resource.name.clone())
        .collect();
    if !resources.is_empty() {
        return resources;
    }
    model
        .nodes
        .iter()
        .filter(|node| types.contains(&node.type_name.as_str()))
        .map(|node| node.name.clone())
        .collect()
}

/// One flow edge with every fact that establishes it (indices into the fact list).
#[derive(Debug, Clone)]
pub struct Edge {
    /// Maximum confidence over its facts.
    pub confidence: Confidence,
    /// Indices of the facts that establish the edge, best first.
    pub facts: Vec<usize>,
}

/// The flow graph.
#[derive(Debug, Default)]
pub struct FlowGraph {
    /// from → to → edge.
    pub edges: BTreeMap<String, BTreeMap<String, Edge>>,
}

/// Orders facts for the representative choice: confidence (high first), strategy, file, line, column, id.
pub(crate) fn fact_rank<'a>(
    fact: FactRef<'a>,
) -> (
    std::cmp::Reverse<Confidence>,
    u8,
    &'a str,
    u32,
    u32,
    &'a str,
) {
    let evidence = fact.evidence();
    (
        std::cmp::Reverse(fact.confidence()),
        evidence.strategy.rank(),
        &*evidence.file,
        evidence.line,
        evidence.column,
        fact.id(),
    )
}

impl FlowGraph {
    /// Builds the graph from graph facts whose `subject` and `target` the engine has filled, and
    /// from query-emitted `flow` facts (indices into `table`).
    pub fn build(model: &Model, table: &FactTable<'_>, owners: &BTreeMap<String, String>) -> Self {
        let mut graph = Self::build_from_graph_facts(model, table.graph, owners);
        for (index, fact) in table.domain_facts() {
            let DomainFactBody::Flow { from, to } = &fact.body else {
                continue;
            };
            for from in resolve_target(model, from) {
                for to in resolve_target(model, to) {
                    graph.add_edge(model, &from, to, index, fact.confidence);
                }
            }
        }
        graph.sort_edge_facts(table);
        graph
    }

    fn add_edge(
        &mut self,
        model: &Model,
        from: &str,
        to: String,
        index: usize,
        confidence: Confidence,
    ) {
        if to == from || !model.is_entity(&to) || !model.is_entity(from) {
            return;
        }
        let edge = self
            .edges
            .entry(from.to_owned())
            .or_default()
            .entry(to)
            .or_insert(Edge {
                confidence,
                facts: Vec::new(),
            });
        edge.confidence = edge.confidence.max(confidence);
        edge.facts.push(index);
    }

    fn sort_edge_facts(&mut self, table: &FactTable<'_>) {
        for targets in self.edges.values_mut() {
            for edge in targets.values_mut() {
                edge.facts
                    .sort_by(|a, b| match (table.get(*a), table.get(*b)) {
                        (Some(a), Some(b)) => fact_rank(a).cmp(&fact_rank(b)),
                        _ => a.cmp(b),
                    });
            }
        }
    }

    fn build_from_graph_facts(
        model: &Model,
        facts: &[Box<Fact>],
        owners: &BTreeMap<String, String>,
    ) -> Self {
        let mut graph = Self::default();
        let bindings = crate::graph::targets::Bindings::new(model);
        for (index, fact) in facts.iter().enumerate() {
            let Some(from) = fact.subject.as_deref() else {
                continue;
            };
            let targets = match fact.kind {
                FactKind::Import
                    if !fact.property_flag("typeOnly") && !fact.property_flag("testOnly") =>
                {
                    fact.target
                        .iter()
                        .map(|target| target.to_string())
                        .collect()
                }
                // Code depends on the type it names (see Edges under `invariant` in policies/LANGUAGE.md): the owner of the file that
                // declares the injected type, never the implementation DI registers for it.
                FactKind::ConstructorInjection => fact
                    .property_str("typeFile")
                    .and_then(|file| owners.get(file))
                    .cloned()
                    .into_iter()
                    .collect(),
                FactKind::AccessesTechnology | FactKind::HttpCall => {
                    crate::graph::targets::fact_targets(model, &bindings, fact).targets
                }
                _ => Vec::new(),
            };
            for to in targets {
                graph.add_edge(model, from, to, index, fact.confidence);
            }
        }
        graph
    }

    /// The edge `from → to`, if any.
    pub fn edge(&self, from: &str, to: &str) -> Option<&Edge> {
        self.edges.get(from)?.get(to)
    }

    /// Out-degree of an entity.
    pub fn fanout(&self, entity: &str) -> usize {
        self.edges.get(entity).map_or(0, BTreeMap::len)
    }
}

#[cfg(test)]
mod tests {
    use crate::graph::targets::category_types;

    /// Every category the infrastructure catalogue can give a fact is one the spec's nodes and
    /// resources can answer: a category of the flow-graph table, or a node or resource type.
    #[test]
    fn every_catalogue_category_is_known_to_the_language() {
        let vocabulary: Vec<&str> = policies::vocab::NODE_TYPES
            .iter()
            .chain(policies::vocab::RESOURCE_TYPES.iter())
            .copied()
            .collect();
        let unknown: Vec<String> = extractors::catalogue::categories()
            .into_iter()
            .filter(|(_, category)| {
                category_types(category) == vec![*category] && !vocabulary.contains(category)
            })
            .map(|(at, category)| format!("{at}: unknown category `{category}`"))
            .collect();
        assert_eq!(unknown, Vec::<String>::new());
        assert!(category_types("no_such_store") == vec!["no_such_store"]);
    }
}
