//! Rule evaluation: for every concrete rule, the candidate instances of `language.md` §3.7 found
//! on the flow graph, each with the rule slice that must prove it (§3.8).
//!
//! The graph search only proposes candidates; a candidate becomes a finding only when its slice
//! is UNSAT. Rule kinds that this module does not evaluate yet are reported by
//! [`Evaluation::unevaluated`], so they are never silently skipped.

use std::collections::{BTreeMap, BTreeSet};

use policies::facts::{Confidence, Fact};
use policies::model::{Model, Rule, RuleBody, RuleKind};
use policies::smt::{Slice, SliceBuilder};

use crate::graph::FlowGraph;

/// The `detected` endpoint fields of a candidate.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Endpoints {
    /// Source entity.
    pub from: Option<String>,
    /// Target entity.
    pub to: Option<String>,
    /// Handler (data findings).
    pub via: Option<String>,
    /// The via set (require-flow findings).
    pub via_members: Option<Vec<String>>,
    /// Data.
    pub data: Option<String>,
    /// Witness path.
    pub path: Option<Vec<String>>,
}

/// One candidate instance of a rule, with its proof obligation.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Index into `model.rules`.
    pub rule: usize,
    /// Violation `type`.
    pub violation_type: &'static str,
    /// The `detected` endpoint fields.
    pub endpoints: Endpoints,
    /// Minimum confidence over the facts that establish it.
    pub confidence: Confidence,
    /// The representative fact (index into the fact list).
    pub evidence_fact: usize,
    /// Further facts with the same finding id (same file and construct), for `occurrences`.
    pub occurrences: Vec<usize>,
    /// Every fact of the witness, one per hop, for `graph_fact_chain`.
    pub chain: Vec<usize>,
    /// True for findings made one per endpoint pair (ids ignore file and evidence key).
    pub per_pair: bool,
    /// The slice that must be UNSAT.
    pub slice: Slice,
    /// Entities of the slice.
    pub components: Vec<String>,
    /// Hops of the witness.
    pub path_depth: Option<usize>,
    /// Largest out-degree among the witness's entities.
    pub fanout: Option<usize>,
}

/// Everything evaluation produced.
#[derive(Debug, Default)]
pub struct Evaluation {
    /// Candidates, in rule order then witness order.
    pub candidates: Vec<Candidate>,
    /// Rule indices whose kind this engine does not evaluate yet.
    pub unevaluated: Vec<usize>,
}

/// Decides which facts are in the check scope.
pub trait InScope {
    /// True when the fact's evidence file is in scope.
    fn contains(&self, fact: &Fact) -> bool;
}

fn violation_type(kind: RuleKind) -> &'static str {
    match kind {
        RuleKind::DenyFlow => "flow_violation",
        RuleKind::DenyReach => "reach_violation",
        RuleKind::RequireFlowVia => "require_flow_violation",
        RuleKind::DenyDataFlow => "dataflow_violation",
        RuleKind::RequireDataFlowVia => "require_dataflow_violation",
        _ => "unsupported",
    }
}

fn rule_name(rule: &Rule) -> String {
    format!("rule {}: {}", rule.declaration, rule.text)
}

fn fact_name(fact: &Fact) -> String {
    format!("fact {}: {}", fact.id, fact.evidence.message)
}

struct Context<'a> {
    model: &'a Model,
    facts: &'a [Fact],
    graph: &'a FlowGraph,
    scope: &'a dyn InScope,
}

impl Context<'_> {
    /// Facts of the edge at or above `minimum`.
    fn edge_facts(&self, from: &str, to: &str, minimum: Confidence) -> Vec<usize> {
        self.graph
            .edge(from, to)
            .map(|edge| {
                edge.facts
                    .iter()
                    .copied()
                    .filter(|index| {
                        self.facts
                            .get(*index)
                            .is_some_and(|fact| fact.confidence >= minimum)
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The representative fact of each hop of `path` at `minimum`, preferring facts in scope.
    fn hop_facts(&self, path: &[String], minimum: Confidence) -> Vec<usize> {
        path.windows(2)
            .filter_map(|hop| {
                let (from, to) = (hop.first()?, hop.get(1)?);
                let candidates = self.edge_facts(from, to, minimum);
                candidates
                    .iter()
                    .copied()
                    .find(|index| {
                        self.facts
                            .get(*index)
                            .is_some_and(|fact| self.scope.contains(fact))
                    })
                    .or_else(|| candidates.first().copied())
            })
            .collect()
    }

    fn touches_scope(&self, chain: &[usize]) -> bool {
        chain.iter().any(|index| {
            self.facts
                .get(*index)
                .is_some_and(|fact| self.scope.contains(fact))
        })
    }

    fn fanout(&self, entities: &[String]) -> Option<usize> {
        entities
            .iter()
            .map(|entity| self.graph.fanout(entity))
            .max()
    }

    fn path_confidence(&self, chain: &[usize]) -> Confidence {
        chain
            .iter()
            .filter_map(|index| self.facts.get(*index).map(|fact| fact.confidence))
            .min()
            .unwrap_or(Confidence::Possible)
    }

    /// A witness path that touches the scope: the shortest one if it does, else the shortest through an in-scope edge.
    fn scoped_witness(
        &self,
        from: &str,
        to: &str,
        blocked: &BTreeSet<String>,
    ) -> Option<(Vec<String>, Vec<usize>)> {
        for minimum in [Confidence::Definite, Confidence::Probable] {
            let Some(path) = self.graph.shortest_path(from, to, minimum, blocked) else {
                continue;
            };
            let chain = self.hop_facts(&path, minimum);
            if self.touches_scope(&chain) {
                return Some((path, chain));
            }
            // Try paths through each in-scope edge, shortest first, then by name sequence.
            let mut best: Option<Vec<String>> = None;
            for (edge_from, targets) in &self.graph.edges {
                for (edge_to, edge) in targets {
                    let in_scope = edge.facts.iter().any(|index| {
                        self.facts.get(*index).is_some_and(|fact| {
                            fact.confidence >= minimum && self.scope.contains(fact)
                        })
                    });
                    if !in_scope
                        || blocked.contains(edge_from) && edge_from != from
                        || blocked.contains(edge_to) && edge_to != to
                    {
                        continue;
                    }
                    let head = if edge_from == from {
                        Some(vec![from.to_owned()])
                    } else {
                        self.graph.shortest_path(from, edge_from, minimum, blocked)
                    };
                    let tail = if edge_to == to {
                        Some(vec![to.to_owned()])
                    } else {
                        self.graph.shortest_path(edge_to, to, minimum, blocked)
                    };
                    let (Some(head), Some(tail)) = (head, tail) else {
                        continue;
                    };
                    let mut candidate = head;
                    candidate.extend(tail);
                    let unique: BTreeSet<&String> = candidate.iter().collect();
                    if unique.len() != candidate.len() {
                        continue;
                    }
                    let better = best.as_ref().is_none_or(|current| {
                        (candidate.len(), &candidate) < (current.len(), current)
                    });
                    if better {
                        best = Some(candidate);
                    }
                }
            }
            if let Some(path) = best {
                let chain = self.hop_facts(&path, minimum);
                return Some((path, chain));
            }
        }
        None
    }
}

/// Evaluates every rule of the model.
pub fn evaluate(
    model: &Model,
    facts: &[Fact],
    graph: &FlowGraph,
    scope: &dyn InScope,
) -> Evaluation {
    let context = Context {
        model,
        facts,
        graph,
        scope,
    };
    let mut evaluation = Evaluation::default();
    for (index, rule) in model.rules.iter().enumerate() {
        match (&rule.kind, &rule.body) {
            (RuleKind::DenyFlow, RuleBody::Pair { from, to }) => {
                deny_flow(&context, index, rule, from, to, &mut evaluation)
            }
            (RuleKind::DenyReach, RuleBody::Pair { from, to }) => {
                path_rule(&context, index, rule, from, to, &[], &mut evaluation);
            }
            (RuleKind::RequireFlowVia, RuleBody::PairVia { from, to, via }) => {
                path_rule(&context, index, rule, from, to, via, &mut evaluation);
            }
            (
                RuleKind::DenyDataFlow | RuleKind::RequireDataFlowVia,
                RuleBody::DataTo { data, to, via },
            ) => {
                data_rule(&context, index, rule, data, to, via, &mut evaluation);
            }
            _ => evaluation.unevaluated.push(index),
        }
    }
    evaluation
}

fn deny_flow(
    context: &Context<'_>,
    index: usize,
    rule: &Rule,
    from: &str,
    to: &str,
    evaluation: &mut Evaluation,
) {
    // One finding per establishing fact; facts with the same file and construct share an id.
    let mut groups: BTreeMap<(String, String), Vec<usize>> = BTreeMap::new();
    for fact_index in context.edge_facts(from, to, Confidence::Probable) {
        let Some(fact) = context.facts.get(fact_index) else {
            continue;
        };
        if !context.scope.contains(fact) {
            continue;
        }
        groups
            .entry((fact.evidence.file.clone(), fact.evidence_key()))
            .or_default()
            .push(fact_index);
    }
    for group in groups.into_values() {
        let mut group = group;
        group.sort_by_key(|fact_index| {
            context.facts.get(*fact_index).map(|fact| {
                (
                    std::cmp::Reverse(fact.confidence),
                    fact.evidence.line,
                    fact.evidence.column,
                )
            })
        });
        let Some((&first, rest)) = group.split_first() else {
            continue;
        };
        let Some(fact) = context.facts.get(first) else {
            continue;
        };
        let mut builder = SliceBuilder::new(&format!("{}: {}", rule.declaration, rule.text));
        builder.deny_edge(rule_name(rule), from, to);
        builder.edge_fact(fact_name(fact), Some(fact.id.clone()), from, to);
        let entities = vec![from.to_owned(), to.to_owned()];
        evaluation.candidates.push(Candidate {
            rule: index,
            violation_type: violation_type(rule.kind),
            endpoints: Endpoints {
                from: Some(from.to_owned()),
                to: Some(to.to_owned()),
                ..Endpoints::default()
            },
            confidence: fact.confidence,
            evidence_fact: first,
            occurrences: rest.to_vec(),
            chain: vec![first],
            per_pair: false,
            slice: builder.finish(),
            fanout: context.fanout(&entities[..1]),
            components: entities,
            path_depth: Some(1),
        });
    }
}

/// DenyReach (`via` empty) and RequireFlowVia: one finding per (from, to) with the shortest (bypass) path.
fn path_rule(
    context: &Context<'_>,
    index: usize,
    rule: &Rule,
    from: &str,
    to: &str,
    via: &[String],
    evaluation: &mut Evaluation,
) {
    let blocked: BTreeSet<String> = via
        .iter()
        .filter(|member| *member != from && *member != to)
        .cloned()
        .collect();
    let Some((path, chain)) = context.scoped_witness(from, to, &blocked) else {
        return;
    };
    let Some(&first) = chain.first() else { return };
    let mut builder = SliceBuilder::new(&format!("{}: {}", rule.declaration, rule.text));
    if via.is_empty() {
        builder.deny_reach(rule_name(rule), from, to);
        builder.reach_closure();
    } else {
        builder.deny_bypass(rule_name(rule), from, to);
        builder.via_closure(via);
    }
    add_path_facts(context, &mut builder, &path, &chain);
    builder.distinct_entities();
    let via_members = (!via.is_empty()).then(|| {
        let mut members = via.to_vec();
        members.sort();
        members
    });
    evaluation.candidates.push(Candidate {
        rule: index,
        violation_type: violation_type(rule.kind),
        endpoints: Endpoints {
            from: Some(from.to_owned()),
            to: Some(to.to_owned()),
            via_members,
            path: Some(path.clone()),
            ..Endpoints::default()
        },
        confidence: context.path_confidence(&chain),
        evidence_fact: first,
        occurrences: Vec::new(),
        per_pair: true,
        slice: builder.finish(),
        fanout: context.fanout(&path),
        path_depth: Some(path.len().saturating_sub(1)),
        components: path,
        chain,
    });
}

fn add_path_facts(
    context: &Context<'_>,
    builder: &mut SliceBuilder,
    path: &[String],
    chain: &[usize],
) {
    for (hop, fact_index) in path.windows(2).zip(chain) {
        let (Some(hop_from), Some(hop_to), Some(fact)) =
            (hop.first(), hop.get(1), context.facts.get(*fact_index))
        else {
            continue;
        };
        builder.edge_fact(fact_name(fact), Some(fact.id.clone()), hop_from, hop_to);
    }
}

/// DenyDataFlow (`via` empty) and RequireDataFlowVia: one finding per (data, handler, target).
fn data_rule(
    context: &Context<'_>,
    index: usize,
    rule: &Rule,
    data: &str,
    to: &str,
    via: &[String],
    evaluation: &mut Evaluation,
) {
    let handlers = context
        .model
        .components
        .iter()
        .filter(|component| component.handles.iter().any(|handled| handled == data));
    for handler in handlers {
        let handler = handler.name.as_str();
        if handler == to || via.iter().any(|member| member == handler) {
            continue;
        }
        let blocked: BTreeSet<String> =
            via.iter().filter(|member| *member != to).cloned().collect();
        let Some((path, chain)) = context.scoped_witness(handler, to, &blocked) else {
            continue;
        };
        let Some(&first) = chain.first() else {
            continue;
        };
        let mut builder = SliceBuilder::new(&format!("{}: {}", rule.declaration, rule.text));
        builder.deny_data_reach(rule_name(rule), data, to, !via.is_empty());
        if via.is_empty() {
            builder.reach_closure();
        } else {
            builder.via_closure(via);
        }
        builder.handles_fact(handler, data);
        add_path_facts(context, &mut builder, &path, &chain);
        builder.distinct_entities();
        let via_members = (!via.is_empty()).then(|| {
            let mut members = via.to_vec();
            members.sort();
            members
        });
        evaluation.candidates.push(Candidate {
            rule: index,
            violation_type: violation_type(rule.kind),
            endpoints: Endpoints {
                from: Some(handler.to_owned()),
                to: Some(to.to_owned()),
                via: via.is_empty().then(|| handler.to_owned()),
                via_members,
                data: Some(data.to_owned()),
                path: Some(path.clone()),
            },
            confidence: context.path_confidence(&chain),
            evidence_fact: first,
            occurrences: Vec::new(),
            per_pair: true,
            slice: builder.finish(),
            fanout: context.fanout(&path),
            path_depth: Some(path.len().saturating_sub(1)),
            components: path,
            chain,
        });
    }
}
