//! DenyCycle: the component graph of the files a cycle rule selects (among components, or
//! within one), its strongly connected sets (Tarjan), and one finding per set with the
//! shortest cycle through it as the witness.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

use policies::facts::Confidence;
use policies::model::{CycleGroup, Rule};
use policies::smt::{CycleHop, CycleVertex, SliceBuilder};

use crate::graph::file_graph::Vertex;

use crate::families::{
    builder_for, fact_name, rule_name, Candidate, Citation, Context, Detail, Evaluation, Shape,
    Site, SliceCause,
};

/// One edge of a cycle graph: the hop that stands for it.
#[derive(Debug, Clone)]
pub(super) struct Hop {
    /// The edge's source: a component (among) or a file (within).
    pub(super) from: String,
    /// Its target.
    pub(super) to: String,
    /// The facts that establish it, best first.
    pub(super) facts: Vec<usize>,
    /// Under `--diff`: the base has no such edge.
    pub(super) is_new: bool,
}

/// The graph a cycle rule searches: vertices sorted by name, edges sorted by target.
#[derive(Debug, Default)]
pub(super) struct CycleGraph {
    pub(super) names: Vec<String>,
    /// Each vertex is a component (`among` with a single-component vertex), a layer or role
    /// vertex, or a file.
    pub(super) kinds: Vec<VertexKind>,
    pub(super) out: Vec<Vec<(usize, Hop)>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum VertexKind {
    Component,
    Group,
    File,
}

impl CycleGraph {
    fn hop(&self, from: usize, to: usize) -> Option<&Hop> {
        let out = self.out.get(from)?;
        let position = out.binary_search_by_key(&to, |(target, _)| *target).ok()?;
        out.get(position).map(|(_, hop)| hop)
    }
}

pub(super) fn cycle_graph_among(
    context: &Context<'_>,
    groups: &[CycleGroup],
    fact_edges: &HashMap<usize, Vec<(String, String)>>,
) -> CycleGraph {
    let mut order: Vec<&CycleGroup> = groups.iter().collect();
    order.sort_by(|a, b| a.name.cmp(&b.name));
    let mut vertex_of: BTreeMap<&str, usize> = BTreeMap::new();
    for (position, group) in order.iter().enumerate() {
        for component in &group.components {
            vertex_of.insert(component, position);
        }
    }
    let is_new_fact = |fact: &usize| match context.new_edge {
        None => false,
        Some(new_edge) => fact_edges
            .get(fact)
            .is_some_and(|edges| edges.iter().all(|(from, to)| new_edge(from, to))),
    };
    let mut edges: BTreeMap<(usize, usize), Hop> = BTreeMap::new();
    for (from, targets) in &context.graph.edges {
        let Some(&source) = vertex_of.get(from.as_str()) else {
            continue;
        };
        for (to, edge) in targets {
            let Some(&target) = vertex_of.get(to.as_str()) else {
                continue;
            };
            if source == target {
                continue;
            }
            let is_new = edge.facts.iter().all(is_new_fact);
            let candidate = Hop {
                from: from.clone(),
                to: to.clone(),
                facts: edge.facts.clone(),
                is_new,
            };
            edges
                .entry((source, target))
                .and_modify(|hop| {
                    // The strongest component edge stands for the vertex edge; the vertex edge
                    // is new only when every component edge under it is.
                    let strength = |hop: &Hop| {
                        hop.facts
                            .first()
                            .and_then(|fact| context.facts.get(*fact))
                            .map(|fact| fact.confidence())
                    };
                    let is_new = hop.is_new && candidate.is_new;
                    if strength(&candidate) > strength(hop) {
                        *hop = candidate.clone();
                    }
                    hop.is_new = is_new;
                })
                .or_insert_with(|| candidate.clone());
        }
    }
    let mut graph = CycleGraph {
        names: order.iter().map(|group| group.name.clone()).collect(),
        kinds: order
            .iter()
            .map(|group| {
                if group.components.len() == 1 && group.components.first() == Some(&group.name) {
                    VertexKind::Component
                } else {
                    VertexKind::Group
                }
            })
            .collect(),
        out: vec![Vec::new(); order.len()],
    };
    for ((source, target), hop) in edges {
        if let Some(out) = graph.out.get_mut(source) {
            out.push((target, hop));
        }
    }
    graph
}

/// What a cycle rule's graph is made of.
#[derive(Debug, Clone, Copy)]
pub(super) enum Over<'a> {
    /// Components, layers or roles (`deny cycle among …`).
    Components,
    /// The files of one component (`deny cycle within …`).
    Within(&'a str),
    /// The files of some components together, or every file (`deny cycle among files …`).
    Files(Option<&'a [String]>),
}

impl Over<'_> {
    fn is_files(self) -> bool {
        !matches!(self, Over::Components)
    }
}

/// The file-graph edges between two files of the selected components (every file for `None`).
pub(super) fn file_edges(
    context: &Context<'_>,
    components: Option<&[String]>,
) -> Vec<(Vertex, Vertex)> {
    let chains = context.chains;
    let selected = |vertex: Vertex| match components {
        None => true,
        Some(components) => chains.owner(vertex).is_some_and(|owner| {
            components
                .binary_search_by(|c| c.as_str().cmp(owner))
                .is_ok()
        }),
    };
    chains
        .edges()
        .filter(|(from, edge)| {
            *from != edge.to
                && chains.is_file(*from)
                && chains.is_file(edge.to)
                && selected(*from)
                && selected(edge.to)
        })
        .map(|(from, edge)| (from, edge.to))
        .collect()
}

/// The graph of files that `edges` connect.
pub(super) fn cycle_graph_files(context: &Context<'_>, edges: &[(Vertex, Vertex)]) -> CycleGraph {
    let chains = context.chains;
    // Vertex indices of the file graph are sorted by path, so sorting them sorts the names.
    let vertices: BTreeSet<Vertex> = edges.iter().flat_map(|(a, b)| [*a, *b]).collect();
    let position: BTreeMap<Vertex, usize> = vertices
        .iter()
        .enumerate()
        .map(|(position, vertex)| (*vertex, position))
        .collect();
    let mut graph = CycleGraph {
        names: vertices
            .iter()
            .map(|vertex| chains.name(*vertex).to_owned())
            .collect(),
        kinds: vec![VertexKind::File; vertices.len()],
        out: vec![Vec::new(); vertices.len()],
    };
    for (from, to) in edges {
        let (Some(&source), Some(&target), Some(edge)) = (
            position.get(from),
            position.get(to),
            chains.edge(*from, *to),
        ) else {
            continue;
        };
        let from_name = chains.name(*from);
        let to_name = chains.name(*to);
        let hop = Hop {
            from: from_name.to_owned(),
            to: to_name.to_owned(),
            facts: edge.facts.clone(),
            is_new: context
                .new_edge
                .is_some_and(|new_edge| new_edge(from_name, to_name)),
        };
        if let Some(out) = graph.out.get_mut(source) {
            out.push((target, hop));
        }
    }
    for out in &mut graph.out {
        out.sort_by_key(|(target, _)| *target);
    }
    graph
}

/// The strongly connected sets of two or more vertices (Tarjan's algorithm, iterative: linear
/// in the edges), each sorted, in order of their smallest vertex.
pub(super) fn strongly_connected(graph: &CycleGraph) -> Vec<Vec<usize>> {
    const UNSEEN: usize = usize::MAX;
    let count = graph.names.len();
    let mut index_of = vec![UNSEEN; count];
    let mut low = vec![0_usize; count];
    let mut on_stack = vec![false; count];
    let mut stack: Vec<usize> = Vec::new();
    let mut sets: Vec<Vec<usize>> = Vec::new();
    let mut next_index = 0_usize;
    for root in 0..count {
        if index_of.get(root) != Some(&UNSEEN) {
            continue;
        }
        // (vertex, position of the next out-edge to look at)
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some(&(vertex, edge)) = work.last() {
            if edge == 0 && index_of.get(vertex) == Some(&UNSEEN) {
                if let (Some(slot), Some(lowest), Some(flag)) = (
                    index_of.get_mut(vertex),
                    low.get_mut(vertex),
                    on_stack.get_mut(vertex),
                ) {
                    *slot = next_index;
                    *lowest = next_index;
                    *flag = true;
                }
                next_index += 1;
                stack.push(vertex);
            }
            let out = graph.out.get(vertex).map(Vec::as_slice).unwrap_or_default();
            if let Some((target, _)) = out.get(edge) {
                if let Some(top) = work.last_mut() {
                    top.1 += 1;
                }
                let target = *target;
                if index_of.get(target) == Some(&UNSEEN) {
                    work.push((target, 0));
                } else if on_stack.get(target) == Some(&true) {
                    let target_index = index_of.get(target).copied().unwrap_or(UNSEEN);
                    if let Some(lowest) = low.get_mut(vertex) {
                        *lowest = (*lowest).min(target_index);
                    }
                }
                continue;
            }
            work.pop();
            let vertex_low = low.get(vertex).copied().unwrap_or(0);
            if let Some(&(parent, _)) = work.last() {
                if let Some(lowest) = low.get_mut(parent) {
                    *lowest = (*lowest).min(vertex_low);
                }
            }
            if Some(&vertex_low) == index_of.get(vertex) {
                let mut set = Vec::new();
                while let Some(member) = stack.pop() {
                    if let Some(flag) = on_stack.get_mut(member) {
                        *flag = false;
                    }
                    set.push(member);
                    if member == vertex {
                        break;
                    }
                }
                if set.len() > 1 {
                    set.sort_unstable();
                    sets.push(set);
                }
            }
        }
    }
    sets.sort();
    sets
}

/// The shortest cycle inside `set` that starts with the edge `start → first` (or, without
/// `first`, passes `start`), with the smallest vertex sequence: its vertices from `start`.
pub(super) fn shortest_cycle(
    graph: &CycleGraph,
    set: &BTreeSet<usize>,
    start: usize,
    first: Option<usize>,
) -> Option<Vec<usize>> {
    // Distances to `start` inside the set, by a breadth-first search on the reversed edges.
    let mut incoming: HashMap<usize, Vec<usize>> = HashMap::new();
    for source in set {
        for (target, _) in graph.out.get(*source).into_iter().flatten() {
            if set.contains(target) {
                incoming.entry(*target).or_default().push(*source);
            }
        }
    }
    // A map, not a table of every vertex: the sets are disjoint, so all the searches of a rule
    // together stay linear in its edges.
    let mut distance: HashMap<usize, usize> = HashMap::from([(start, 0)]);
    let mut queue = VecDeque::from([start]);
    while let Some(vertex) = queue.pop_front() {
        let here = distance.get(&vertex).copied().unwrap_or(usize::MAX);
        for source in incoming.get(&vertex).into_iter().flatten() {
            if !distance.contains_key(source) {
                distance.insert(*source, here + 1);
                queue.push_back(*source);
            }
        }
    }
    let distance_of = |vertex: usize| distance.get(&vertex).copied().unwrap_or(usize::MAX);
    let successors = |vertex: usize| {
        graph
            .out
            .get(vertex)
            .into_iter()
            .flatten()
            .map(|(target, _)| *target)
            .filter(|target| set.contains(target))
    };
    let first = match first {
        Some(first) => first,
        None => successors(start)
            .filter(|next| distance_of(*next) != usize::MAX)
            .min_by_key(|next| (distance_of(*next), *next))?,
    };
    let mut remaining = distance_of(first);
    if remaining == usize::MAX {
        return None;
    }
    let mut cycle = vec![start];
    let mut current = first;
    while current != start {
        cycle.push(current);
        remaining = remaining.checked_sub(1)?;
        current = successors(current)
            .filter(|next| distance_of(*next) == remaining)
            .min()?;
    }
    Some(cycle)
}

pub(super) fn cycles(
    context: &Context<'_>,
    index: usize,
    rule: &Rule,
    graph: &CycleGraph,
    over: Over<'_>,
    evaluation: &mut Evaluation,
) {
    let hop_in_scope = |hop: &Hop| hop.facts.iter().any(|fact| context.in_scope(*fact));
    for set in strongly_connected(graph) {
        let members: BTreeSet<usize> = set.iter().copied().collect();
        let edges_in_set = || {
            set.iter().flat_map(|source| {
                graph
                    .out
                    .get(*source)
                    .into_iter()
                    .flatten()
                    .filter(|(target, _)| members.contains(target))
                    .map(move |(target, hop)| (*source, *target, hop))
            })
        };
        // Under `--diff`, a cycle through an edge the base lacks first; under a narrowed scope,
        // one through an edge whose fact is in scope; else the cycle through the smallest member.
        let opening = edges_in_set().find(|(_, _, hop)| hop.is_new);
        let located = opening.or_else(|| {
            (!context.scope.is_everything())
                .then(|| edges_in_set().find(|(_, _, hop)| hop_in_scope(hop)))
                .flatten()
        });
        let cycle = match located {
            Some((source, target, _)) => shortest_cycle(graph, &members, source, Some(target)),
            None if context.scope.is_everything() => {
                let smallest = set.first().copied().unwrap_or(0);
                shortest_cycle(graph, &members, smallest, None)
            }
            None => None,
        };
        let Some(cycle) = cycle else {
            continue;
        };
        let Some(hops) = hops_of(context, graph, &cycle, located.is_some()) else {
            return;
        };
        let Some(&(_, first_fact)) = hops.first() else {
            continue;
        };
        let Some(site) = Site::of(&context.facts, first_fact) else {
            continue;
        };
        let names: Vec<&str> = cycle
            .iter()
            .map(|vertex| graph.names.get(*vertex).map_or("", String::as_str))
            .collect();
        let builder = cycle_builder(context, rule, graph, &cycle, &names, &hops, over);
        let mut path: Vec<String> = names.iter().map(|name| (*name).to_owned()).collect();
        path.extend(names.first().map(|name| (*name).to_owned()));
        let sorted_members: Vec<String> = set
            .iter()
            .filter_map(|vertex| graph.names.get(*vertex).cloned())
            .collect();
        let confidence = hops
            .iter()
            .filter_map(|(_, fact)| context.facts.get(*fact).map(|fact| fact.confidence()))
            .min()
            .unwrap_or(Confidence::Possible);
        let shown = path.join(" -> ");
        let message = match over {
            Over::Within(component) => format!(
                "the files of `{component}` form a cycle: {shown}, which `{}` forbids",
                rule.text
            ),
            Over::Files(_) => format!("import cycle {shown}, which `{}` forbids", rule.text),
            Over::Components => format!("dependency cycle {shown}, which `{}` forbids", rule.text),
        };
        let fix = format!(
            "break the cycle {shown}: remove or invert one of its dependencies (the first is at {}:{}), for example by moving the shared code into a module that both use, or behind an interface the depending side owns",
            site.file, site.line
        );
        let components = match over {
            Over::Within(component) => vec![component.to_owned()],
            Over::Files(_) => names
                .iter()
                .filter_map(|name| context.chains.vertex(name))
                .filter_map(|vertex| context.chains.owner(vertex))
                .map(str::to_owned)
                .collect(),
            Over::Components => hops.iter().map(|(hop, _)| hop.from.clone()).collect(),
        };
        let detail = Detail {
            path: Some(path),
            files: over.is_files().then(|| {
                let mut files: Vec<String> = names.iter().map(|name| (*name).to_owned()).collect();
                files.extend(names.first().map(|name| (*name).to_owned()));
                files
            }),
            members: Some(sorted_members),
            opens_path: opening.is_some(),
            ..Detail::default()
        };
        evaluation.candidates.push(Candidate {
            rules: vec![index],
            citation: Citation::rule(rule),
            violation_type: "cycle_violation",
            message,
            suggested_fix: fix,
            shape: Shape::Architecture(detail),
            confidence,
            occurrences: Vec::new(),
            site,
            chain: hops.iter().map(|(_, fact)| *fact).collect(),
            per_pair: true,
            slice: builder.finish(),
            fanout: context.fanout(&components),
            components: crate::families::sorted(components),
            data: None,
            path_depth: Some(hops.len()),
            cause: SliceCause::Generic,
        });
    }
}

/// The hops of `cycle` in order, each with the fact it stands on (the located first hop on an
/// in-scope fact where it has one); `None` when a hop has no edge or no fact.
fn hops_of<'g>(
    context: &Context<'_>,
    graph: &'g CycleGraph,
    cycle: &[usize],
    located: bool,
) -> Option<Vec<(&'g Hop, usize)>> {
    let mut hops: Vec<(&Hop, usize)> = Vec::with_capacity(cycle.len());
    for (position, vertex) in cycle.iter().enumerate() {
        let next = cycle
            .get(position + 1)
            .or(cycle.first())
            .copied()
            .unwrap_or(0);
        let hop = graph.hop(*vertex, next)?;
        // The located hop stands on an in-scope fact where it has one.
        let fact = if position == 0 && located {
            hop.facts
                .iter()
                .copied()
                .find(|fact| context.in_scope(*fact))
                .or(hop.facts.first().copied())
        } else {
            hop.facts.first().copied()
        };
        let fact = fact?;
        hops.push((hop, fact));
    }
    Some(hops)
}

/// The slice of one cycle: the rule, and the cycle's vertices and hops as facts.
fn cycle_builder(
    context: &Context<'_>,
    rule: &Rule,
    graph: &CycleGraph,
    cycle: &[usize],
    names: &[&str],
    hops: &[(&Hop, usize)],
    over: Over<'_>,
) -> SliceBuilder {
    // The component that owns the cycle's first file, asserted when the rule names components.
    let first_owner = match over {
        Over::Within(component) => Some(component),
        Over::Files(Some(_)) => names
            .first()
            .and_then(|name| context.chains.vertex(name))
            .and_then(|vertex| context.chains.owner(vertex)),
        _ => None,
    };

    let vertices: Vec<CycleVertex<'_>> = cycle
        .iter()
        .zip(names)
        .map(|(vertex, name)| match graph.kinds.get(*vertex) {
            Some(VertexKind::Group) => CycleVertex::Group(name),
            Some(VertexKind::File) => CycleVertex::File(name),
            _ => CycleVertex::Component(name),
        })
        .collect();
    let cycle_hops: Vec<CycleHop> = hops
        .iter()
        .filter_map(|(hop, fact)| {
            let found = context.facts.get(*fact)?;
            Some(CycleHop {
                name: fact_name(found),
                fact_id: Some(found.id().to_owned()),
                from: hop.from.clone(),
                to: hop.to.clone(),
            })
        })
        .collect();
    let mut builder = builder_for(rule);
    match over {
        Over::Within(component) => {
            builder.deny_cycle(
                rule_name(rule),
                Some(std::slice::from_ref(&component.to_owned())),
            );
        }
        Over::Files(components) => builder.deny_cycle(rule_name(rule), components),
        Over::Components => builder.deny_cycle(rule_name(rule), None),
    }
    builder.cycle(&vertices, &cycle_hops, first_owner);
    builder
}
