//! The flow graph of `language.md` §3.5 and the paths of §3.6.
//!
//! Edges come from import facts (not type-only; target = owner of the resolved file) and
//! `accesses_technology`, `http_call` and `constructor_injection` facts (targets:
//! [`crate::targets::fact_targets`]). There is one edge per (from, to): its confidence is the maximum over its
//! facts, and its representative fact the best by confidence, strategy, file, line, column and id.
//! All maps are ordered, so every witness is deterministic.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use policies::facts::{Confidence, DomainFactBody, Fact, FactKind};
use policies::model::Model;

use crate::families::{FactRef, FactTable};

/// The node or resource types a §3.5 category resolves to.
pub(crate) fn category_types(category: &str) -> Vec<&str> {
    match category {
        "postgres" => vec!["postgres", "timescaledb", "relational_db"],
        "mysql" | "mssql" | "sqlite" => vec![category, "relational_db"],
        "relational_db" => vec![
            "postgres",
            "mysql",
            "mssql",
            "sqlite",
            "timescaledb",
            "relational_db",
        ],
        "mongodb" => vec!["mongodb", "document_db", "cosmosdb", "firestore"],
        "dynamodb" => vec!["dynamodb", "document_db"],
        "redis" | "cache" => vec!["redis", "elasticache", "cache", "memcached"],
        "message_queue" => vec!["message_queue", "event_stream", "queue"],
        "message_bus" => vec!["message_bus", "message_queue", "event_stream", "queue"],
        "object_store" => vec!["s3_bucket", "blob_storage", "object_store"],
        "external_api" => vec![
            "external_api",
            "rest_api",
            "api_gateway",
            "grpc_service",
            "graphql_api",
        ],
        "elasticsearch" => vec!["elasticsearch", "opensearch"],
        "neo4j" => vec!["neo4j", "neptune", "graph_db"],
        "vector_db" => vec!["vector_db", "pinecone", "weaviate"],
        "grpc_api" => vec!["grpc_service"],
        "firebase" => vec!["firestore"],
        "local_store" | "local_database" => vec!["local_database", "sqlite"],
        "device_hardware" => vec!["device_hardware", "ble"],
        other => vec![other],
    }
}

/// Resolves a flow target name (§3.5): a declared entity, else a category's resources, else its nodes.
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
fn fact_rank<'a>(
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
    pub fn build(model: &Model, table: &FactTable<'_>) -> Self {
        let mut graph = Self::build_from_graph_facts(model, table.graph);
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

    fn build_from_graph_facts(model: &Model, facts: &[Box<Fact>]) -> Self {
        let mut graph = Self::default();
        let bindings = crate::targets::Bindings::new(model);
        for (index, fact) in facts.iter().enumerate() {
            let Some(from) = fact.subject.as_deref() else {
                continue;
            };
            let targets = match fact.kind {
                FactKind::Import if !fact.property_flag("typeOnly") => fact
                    .target
                    .iter()
                    .map(|target| target.to_string())
                    .collect(),
                FactKind::AccessesTechnology
                | FactKind::HttpCall
                | FactKind::ConstructorInjection => {
                    crate::targets::fact_targets(model, &bindings, fact).targets
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

    fn successors<'a>(
        &'a self,
        node: &str,
        minimum: Confidence,
    ) -> impl Iterator<Item = &'a str> + 'a {
        self.edges
            .get(node)
            .into_iter()
            .flat_map(move |targets| {
                targets
                    .iter()
                    .filter(move |(_, edge)| edge.confidence >= minimum)
            })
            .map(|(to, _)| to.as_str())
    }

    /// Distances to `target` over edges of at least `minimum` confidence, never entering `blocked`
    /// (the blocked set never contains `target`).
    fn distances_to(
        &self,
        target: &str,
        minimum: Confidence,
        blocked: &BTreeSet<String>,
        may_enter: &dyn Fn(&str) -> bool,
    ) -> BTreeMap<String, usize> {
        let mut reverse: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (from, targets) in &self.edges {
            for (to, edge) in targets {
                if edge.confidence >= minimum {
                    reverse.entry(to.as_str()).or_default().push(from.as_str());
                }
            }
        }
        let mut distances = BTreeMap::from([(target.to_owned(), 0)]);
        let mut queue = VecDeque::from([target.to_owned()]);
        while let Some(node) = queue.pop_front() {
            let distance = distances.get(&node).copied().unwrap_or(0);
            if node != target && blocked.contains(&node) || !may_enter(&node) {
                continue;
            }
            for &predecessor in reverse
                .get(node.as_str())
                .map(Vec::as_slice)
                .unwrap_or_default()
            {
                if !distances.contains_key(predecessor) {
                    distances.insert(predecessor.to_owned(), distance + 1);
                    queue.push_back(predecessor.to_owned());
                }
            }
        }
        distances
    }

    /// The shortest path `from → … → to` (at least one edge) over edges of at least `minimum`
    /// confidence whose interior avoids `blocked`; ties go to the lexicographically smallest
    /// sequence of entity names (§3.6).
    pub fn shortest_path(
        &self,
        from: &str,
        to: &str,
        minimum: Confidence,
        blocked: &BTreeSet<String>,
    ) -> Option<Vec<String>> {
        self.shortest_path_where(from, to, minimum, blocked, &|_| true)
    }

    /// As [`FlowGraph::shortest_path`], entering only entities that `may_enter` accepts (every
    /// entity after `from`, `to` included).
    pub fn shortest_path_where(
        &self,
        from: &str,
        to: &str,
        minimum: Confidence,
        blocked: &BTreeSet<String>,
        may_enter: &dyn Fn(&str) -> bool,
    ) -> Option<Vec<String>> {
        let distances = self.distances_to(to, minimum, blocked, may_enter);
        // The path needs at least one edge, so from == to never has a witness here.
        if from == to {
            return None;
        }
        let mut length = *distances.get(from)?;
        let mut path = vec![from.to_owned()];
        let mut current = from.to_owned();
        while length > 0 {
            let next = self
                .successors(&current, minimum)
                .filter(|next| (*next == to || !blocked.contains(*next)) && may_enter(next))
                .find(|next| distances.get(*next) == Some(&(length - 1)))?
                .to_owned();
            path.push(next.clone());
            current = next;
            length -= 1;
        }
        Some(path)
    }

    /// The witness of `reaches(from, to)`: definite edges first, then definite and probable.
    pub fn witness(
        &self,
        from: &str,
        to: &str,
        blocked: &BTreeSet<String>,
    ) -> Option<(Vec<String>, Confidence)> {
        for minimum in [Confidence::Definite, Confidence::Probable] {
            if let Some(path) = self.shortest_path(from, to, minimum, blocked) {
                return Some((path, minimum));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(edges: &[(&str, &str, Confidence)]) -> FlowGraph {
        let mut graph = FlowGraph::default();
        for (from, to, confidence) in edges {
            graph.edges.entry((*from).to_owned()).or_default().insert(
                (*to).to_owned(),
                Edge {
                    confidence: *confidence,
                    facts: vec![],
                },
            );
        }
        graph
    }

    #[test]
    fn shortest_path_breaks_ties_lexicographically() {
        use Confidence::Definite as D;
        let g = graph(&[
            ("A", "C", D),
            ("A", "B", D),
            ("B", "D", D),
            ("C", "D", D),
            ("A", "X", D),
            ("X", "Y", D),
            ("Y", "D", D),
        ]);
        let path = g.shortest_path("A", "D", D, &BTreeSet::new()).unwrap();
        assert_eq!(path, ["A", "B", "D"]);
    }

    #[test]
    fn blocked_interior_forces_a_bypass_or_nothing() {
        use Confidence::Definite as D;
        let g = graph(&[
            ("A", "V", D),
            ("V", "B", D),
            ("A", "W", D),
            ("W", "X", D),
            ("X", "B", D),
        ]);
        let blocked = BTreeSet::from(["V".to_owned()]);
        assert_eq!(
            g.shortest_path("A", "B", D, &blocked).unwrap(),
            ["A", "W", "X", "B"]
        );
        let blocked = BTreeSet::from(["V".to_owned(), "X".to_owned()]);
        assert_eq!(g.shortest_path("A", "B", D, &blocked), None);
    }

    #[test]
    fn witness_prefers_definite_paths() {
        use Confidence::{Definite as D, Probable as P};
        let g = graph(&[("A", "B", P), ("A", "C", D), ("C", "D", D), ("D", "B", D)]);
        let (path, confidence) = g.witness("A", "B", &BTreeSet::new()).unwrap();
        assert_eq!(path, ["A", "C", "D", "B"]);
        assert_eq!(confidence, D);
        let g = graph(&[("A", "B", P)]);
        assert_eq!(g.witness("A", "B", &BTreeSet::new()).unwrap().1, P);
    }
}
