//! The module-boundary rules (`policies::kinds::boundary`): DependsOn (closed components),
//! PublicInterface, DenyCycle (Tarjan's strongly connected sets, one finding per set) and
//! DenyUnresolvedImport, decided on the component edges and the file graph.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

use policies::facts::{Confidence, FactKind};
use policies::model::{CycleGroup, Rule, RuleBody, RuleKind};
use policies::smt::{CycleHop, CycleVertex};

use crate::graph::file_graph::Vertex;
use crate::input::paths::GlobList;

use super::{
    builder_for, fact_name, rule_name, Candidate, Citation, Context, Detail, Evaluation, Family,
    Shape, Site, SliceCause,
};

/// The family.
pub const FAMILY: Family = Family {
    kinds: &[
        RuleKind::DependsOn,
        RuleKind::PublicInterface,
        RuleKind::DenyCycle,
        RuleKind::DenyUnresolvedImport,
    ],
    evaluate,
};

/// At most this many public files are listed in `detected.public_files`.
const MAX_PUBLIC_FILES: usize = 20;

fn evaluate(context: &Context<'_>, evaluation: &mut Evaluation) {
    let mut shared = Shared::default();
    for (index, rule) in context.model.rules.iter().enumerate() {
        match (&rule.kind, &rule.body) {
            (RuleKind::DependsOn, RuleBody::Closed { component, allowed }) => {
                depends_on(context, index, rule, component, allowed, evaluation);
            }
            (RuleKind::PublicInterface, RuleBody::Public { component, globs }) => {
                let imports = shared.imports_into(context);
                public_interface(
                    context,
                    index,
                    rule,
                    (component, globs),
                    imports,
                    evaluation,
                );
            }
            (RuleKind::DenyCycle, RuleBody::Cycle { groups }) => {
                let graph = cycle_graph_among(context, groups, shared.fact_edges(context));
                cycles(context, index, rule, &graph, None, evaluation);
            }
            (RuleKind::DenyCycle, RuleBody::CycleWithin { component }) => {
                let graph = cycle_graph_within(context, component, shared.inner_edges(context));
                cycles(context, index, rule, &graph, Some(component), evaluation);
            }
            (RuleKind::DenyUnresolvedImport, RuleBody::Unresolved { component }) => {
                unresolved(context, index, rule, component, evaluation);
            }
            _ => {}
        }
    }
}

/// Indexes over the file graph that several rules share, built on first use.
#[derive(Default)]
struct Shared {
    /// Import fact → the files (with their owner) its edges reach in another component.
    imports: Option<BTreeMap<usize, Vec<(String, String)>>>,
    /// Fact → the file-graph edges it establishes (names), for `--diff`.
    fact_edges: Option<HashMap<usize, Vec<(String, String)>>>,
    /// Component → the file-graph edges between two of its files.
    inner: Option<BTreeMap<String, Vec<(Vertex, Vertex)>>>,
}

impl Shared {
    fn imports_into(&mut self, context: &Context<'_>) -> &BTreeMap<usize, Vec<(String, String)>> {
        self.imports.get_or_insert_with(|| {
            let chains = context.chains;
            let mut imports: BTreeMap<usize, Vec<(String, String)>> = BTreeMap::new();
            for (from, edge) in chains.edges() {
                let (Some(source), Some(target)) = (chains.owner(from), chains.owner(edge.to))
                else {
                    continue;
                };
                if source == target || !chains.is_file(edge.to) {
                    continue;
                }
                for fact in &edge.facts {
                    let is_import = matches!(
                        context.facts.get(*fact),
                        Some(super::FactRef::Graph(found)) if found.kind == FactKind::Import
                    );
                    if is_import {
                        imports
                            .entry(*fact)
                            .or_default()
                            .push((chains.name(edge.to).to_owned(), target.to_owned()));
                    }
                }
            }
            imports
        })
    }

    fn fact_edges(&mut self, context: &Context<'_>) -> &HashMap<usize, Vec<(String, String)>> {
        self.fact_edges.get_or_insert_with(|| {
            let mut edges: HashMap<usize, Vec<(String, String)>> = HashMap::new();
            if context.new_edge.is_none() {
                return edges;
            }
            let chains = context.chains;
            for (from, edge) in chains.edges() {
                for fact in &edge.facts {
                    edges.entry(*fact).or_default().push((
                        chains.name(from).to_owned(),
                        chains.name(edge.to).to_owned(),
                    ));
                }
            }
            edges
        })
    }

    fn inner_edges(&mut self, context: &Context<'_>) -> &BTreeMap<String, Vec<(Vertex, Vertex)>> {
        self.inner.get_or_insert_with(|| {
            let chains = context.chains;
            let mut inner: BTreeMap<String, Vec<(Vertex, Vertex)>> = BTreeMap::new();
            for (from, edge) in chains.edges() {
                if let (Some(source), Some(target)) = (chains.owner(from), chains.owner(edge.to)) {
                    if source == target && chains.is_file(edge.to) {
                        inner
                            .entry(source.to_owned())
                            .or_default()
                            .push((from, edge.to));
                    }
                }
            }
            inner
        })
    }
}

/// One finding per fact that makes an edge of a closed component to an entity it does not list.
fn depends_on(
    context: &Context<'_>,
    index: usize,
    rule: &Rule,
    component: &str,
    allowed: &[String],
    evaluation: &mut Evaluation,
) {
    let Some(targets) = context.graph.edges.get(component) else {
        return;
    };
    let listed = if allowed.is_empty() {
        "lists nothing".to_owned()
    } else {
        format!("lists only {}", quoted(allowed.iter().map(String::as_str)))
    };
    for target in targets.keys() {
        if allowed.iter().any(|name| name == target) {
            continue;
        }
        for (first, rest) in fact_groups(
            context,
            context.edge_facts(component, target, Confidence::Probable),
        ) {
            let (Some(fact), Some(site)) =
                (context.facts.get(first), Site::of(&context.facts, first))
            else {
                continue;
            };
            let mut builder = builder_for(rule);
            builder.deny_undeclared(rule_name(rule), component, allowed);
            builder.edge_fact(
                fact_name(fact),
                Some(fact.id().to_owned()),
                component,
                target,
            );
            builder.distinct_names();
            let detail = Detail {
                from: Some(component.to_owned()),
                to: Some(target.clone()),
                ..Detail::default()
            };
            let message = format!(
                "`{component}` depends on `{target}`, but its `depends_on` {listed}: {}",
                site.message
            );
            let fix = format!(
                "remove the dependency of `{component}` on `{target}` at {}:{}: use only what `{component}` may depend on ({}), or move this code into a component that may use `{target}`",
                site.file,
                site.line,
                if allowed.is_empty() { "nothing".to_owned() } else { quoted(allowed.iter().map(String::as_str)) }
            );
            let entities = vec![component.to_owned(), target.clone()];
            evaluation.candidates.push(Candidate {
                rules: vec![index],
                citation: Citation::rule(rule),
                violation_type: "dependency_violation",
                message,
                suggested_fix: fix,
                shape: Shape::Architecture(detail),
                confidence: fact.confidence(),
                occurrences: occurrences(context, &rest),
                site,
                chain: vec![first],
                per_pair: false,
                slice: builder.finish(),
                fanout: context.fanout(entities.get(..1).unwrap_or_default()),
                components: entities,
                data: None,
                path_depth: Some(1),
                cause: SliceCause::Generic,
            });
        }
    }
}

/// Groups in-scope facts by (file, evidence key): the first fact (strongest, then earliest) is
/// the finding, the rest its occurrences (as `deny flow` does).
fn fact_groups(context: &Context<'_>, facts: Vec<usize>) -> Vec<(usize, Vec<usize>)> {
    let mut groups: BTreeMap<(String, String), Vec<usize>> = BTreeMap::new();
    for fact_index in facts {
        let Some(fact) = context.facts.get(fact_index) else {
            continue;
        };
        if !context.in_scope(fact_index) {
            continue;
        }
        groups
            .entry((fact.evidence().file.to_string(), fact.evidence_key()))
            .or_default()
            .push(fact_index);
    }
    groups
        .into_values()
        .filter_map(|mut group| {
            group.sort_by_key(|fact_index| {
                context.facts.get(*fact_index).map(|fact| {
                    (
                        std::cmp::Reverse(fact.confidence()),
                        fact.evidence().line,
                        fact.evidence().column,
                    )
                })
            });
            let (first, rest) = group.split_first()?;
            Some((*first, rest.to_vec()))
        })
        .collect()
}

fn occurrences(context: &Context<'_>, facts: &[usize]) -> Vec<(String, u32)> {
    facts
        .iter()
        .filter_map(|other| context.facts.get(*other))
        .map(|other| (other.evidence().file.to_string(), other.evidence().line))
        .collect()
}

fn quoted<'a>(names: impl Iterator<Item = &'a str>) -> String {
    names
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One finding per import from another component into `component` that reaches none of its
/// public files.
fn public_interface(
    context: &Context<'_>,
    index: usize,
    rule: &Rule,
    (component, globs): (&str, &[String]),
    imports: &BTreeMap<usize, Vec<(String, String)>>,
    evaluation: &mut Evaluation,
) {
    let public = GlobList::new(globs.iter().map(String::as_str));
    let mut public_files: Vec<String> = context
        .owners
        .iter()
        .filter(|(file, owner)| owner.as_str() == component && public.is_match(file))
        .map(|(file, _)| file.clone())
        .collect();
    public_files.truncate(MAX_PUBLIC_FILES);
    let mut deep: Vec<usize> = Vec::new();
    for (fact_index, reached) in imports {
        let into: Vec<&String> = reached
            .iter()
            .filter(|(_, owner)| owner == component)
            .map(|(file, _)| file)
            .collect();
        if into.is_empty() || into.iter().any(|file| public.is_match(file)) {
            continue;
        }
        deep.push(*fact_index);
    }
    for (first, rest) in fact_groups(context, deep) {
        let (Some(fact), Some(site)) = (context.facts.get(first), Site::of(&context.facts, first))
        else {
            continue;
        };
        let Some(source) = context.owner(&site.file) else {
            continue;
        };
        let mut reached: Vec<String> = imports
            .get(&first)
            .into_iter()
            .flatten()
            .filter(|(_, owner)| owner == component)
            .map(|(file, _)| file.clone())
            .collect();
        reached.sort();
        reached.dedup();
        let mut builder = builder_for(rule);
        builder.require_public(rule_name(rule), component);
        builder.deep_import(
            fact_name(fact),
            Some(fact.id().to_owned()),
            (&site.file, &source),
            component,
            &reached,
        );
        let shown = reached.first().cloned().unwrap_or_default();
        let message = format!(
            "`{}` imports `{shown}`, a file of `{component}` that is not public: {}",
            site.file, site.message
        );
        let public_text = if public_files.is_empty() {
            format!("no file of `{component}` matches its `public` globs yet")
        } else {
            let listed: Vec<&str> = public_files.iter().take(5).map(String::as_str).collect();
            let more = public_files.len().saturating_sub(listed.len());
            let mut text = format!("its public files are {}", quoted(listed.into_iter()));
            if more > 0 {
                text.push_str(&format!(" and {more} more"));
            }
            text
        };
        let fix = format!(
            "import `{component}` through its public interface at {}:{} instead of `{shown}`: {public_text} (export what `{source}` needs from one of them)",
            site.file, site.line
        );
        let detail = Detail {
            from: Some(source.clone()),
            to: Some(component.to_owned()),
            files: Some(reached),
            public_files: Some(public_files.clone()),
            ..Detail::default()
        };
        let entities = vec![source, component.to_owned()];
        evaluation.candidates.push(Candidate {
            rules: vec![index],
            citation: Citation::rule(rule),
            violation_type: "interface_violation",
            message,
            suggested_fix: fix,
            shape: Shape::Architecture(detail),
            confidence: fact.confidence(),
            occurrences: occurrences(context, &rest),
            site,
            chain: vec![first],
            per_pair: false,
            slice: builder.finish(),
            fanout: context.fanout(entities.get(..1).unwrap_or_default()),
            components: entities,
            data: None,
            path_depth: Some(1),
            cause: SliceCause::Generic,
        });
    }
}

/// One finding per import in a file of `component` that is meant to be internal but resolves
/// to no file.
fn unresolved(
    context: &Context<'_>,
    index: usize,
    rule: &Rule,
    component: &str,
    evaluation: &mut Evaluation,
) {
    let found: Vec<usize> = context
        .facts
        .of_kind(FactKind::Import)
        .filter(|(_, fact)| {
            fact.property_str("resolved").is_none()
                && context.owners.get(&*fact.evidence.file).map(String::as_str) == Some(component)
        })
        .map(|(fact_index, _)| fact_index)
        .collect();
    for (first, rest) in fact_groups(context, found) {
        let (Some(super::FactRef::Graph(fact)), Some(site)) =
            (context.facts.get(first), Site::of(&context.facts, first))
        else {
            continue;
        };
        let specifier = fact
            .property_str("specifier")
            .unwrap_or_default()
            .to_owned();
        let mut builder = builder_for(rule);
        builder.deny_unresolved(rule_name(rule), component);
        builder.unresolved_import(
            fact_name(super::FactRef::Graph(fact)),
            Some(fact.id.clone()),
            (&site.file, component),
            &specifier,
        );
        let message = format!(
            "`{}` imports `{specifier}`, which is meant to be inside the project but resolves to no file",
            site.file
        );
        let fix = format!(
            "fix the import of `{specifier}` at {}:{}: point it at an existing file, restore the missing file, or declare the path alias in the resolution config (tsconfig paths, go.mod, pyproject)",
            site.file, site.line
        );
        let detail = Detail {
            from: Some(component.to_owned()),
            ..Detail::default()
        };
        evaluation.candidates.push(Candidate {
            rules: vec![index],
            citation: Citation::rule(rule),
            violation_type: "unresolved_import_violation",
            message,
            suggested_fix: fix,
            shape: Shape::Architecture(detail),
            confidence: fact.confidence,
            occurrences: occurrences(context, &rest),
            site,
            chain: vec![first],
            per_pair: false,
            slice: builder.finish(),
            fanout: None,
            components: vec![component.to_owned()],
            data: None,
            path_depth: Some(1),
            cause: SliceCause::Generic,
        });
    }
}

/// One edge of a cycle graph: the hop that stands for it.
#[derive(Debug, Clone)]
struct Hop {
    /// The edge's source: a component (among) or a file (within).
    from: String,
    /// Its target.
    to: String,
    /// The facts that establish it, best first.
    facts: Vec<usize>,
    /// Under `--diff`: the base has no such edge.
    is_new: bool,
}

/// The graph a cycle rule searches: vertices sorted by name, edges sorted by target.
#[derive(Debug, Default)]
struct CycleGraph {
    names: Vec<String>,
    /// Each vertex is a component (`among` with a single-component vertex), a layer or role
    /// vertex, or a file.
    kinds: Vec<VertexKind>,
    out: Vec<Vec<(usize, Hop)>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum VertexKind {
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

fn cycle_graph_among(
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

fn cycle_graph_within(
    context: &Context<'_>,
    component: &str,
    inner: &BTreeMap<String, Vec<(Vertex, Vertex)>>,
) -> CycleGraph {
    let chains = context.chains;
    let edges = inner.get(component).map(Vec::as_slice).unwrap_or_default();
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
fn strongly_connected(graph: &CycleGraph) -> Vec<Vec<usize>> {
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
fn shortest_cycle(
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

fn cycles(
    context: &Context<'_>,
    index: usize,
    rule: &Rule,
    graph: &CycleGraph,
    within: Option<&str>,
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
        let mut hops: Vec<(&Hop, usize)> = Vec::with_capacity(cycle.len());
        for (position, vertex) in cycle.iter().enumerate() {
            let next = cycle
                .get(position + 1)
                .or(cycle.first())
                .copied()
                .unwrap_or(0);
            let Some(hop) = graph.hop(*vertex, next) else {
                return;
            };
            // The located hop stands on an in-scope fact where it has one.
            let fact = if position == 0 && located.is_some() {
                hop.facts
                    .iter()
                    .copied()
                    .find(|fact| context.in_scope(*fact))
                    .or(hop.facts.first().copied())
            } else {
                hop.facts.first().copied()
            };
            let Some(fact) = fact else {
                return;
            };
            hops.push((hop, fact));
        }
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
        let vertices: Vec<CycleVertex<'_>> = cycle
            .iter()
            .zip(&names)
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
        builder.deny_cycle(rule_name(rule), within);
        builder.cycle(&vertices, &cycle_hops, within);
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
        let message = match within {
            Some(component) => format!(
                "the files of `{component}` form a cycle: {shown}, which `{}` forbids",
                rule.text
            ),
            None => format!("dependency cycle {shown}, which `{}` forbids", rule.text),
        };
        let fix = format!(
            "break the cycle {shown}: remove or invert one of its dependencies (the first is at {}:{}), for example by moving the shared code into a module that both use, or behind an interface the depending side owns",
            site.file, site.line
        );
        let components = match within {
            Some(component) => vec![component.to_owned()],
            None => hops.iter().map(|(hop, _)| hop.from.clone()).collect(),
        };
        let detail = Detail {
            path: Some(path),
            files: within.is_some().then(|| {
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
            components: super::sorted(components),
            data: None,
            path_depth: Some(hops.len()),
            cause: SliceCause::Generic,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(count: usize, edges: &[(usize, usize)]) -> CycleGraph {
        let mut graph = CycleGraph {
            names: (0..count).map(|vertex| format!("v{vertex:06}")).collect(),
            kinds: vec![VertexKind::File; count],
            out: vec![Vec::new(); count],
        };
        for (from, to) in edges {
            let hop = Hop {
                from: format!("v{from:06}"),
                to: format!("v{to:06}"),
                facts: vec![0],
                is_new: false,
            };
            graph.out[*from].push((*to, hop));
        }
        for out in &mut graph.out {
            out.sort_by_key(|(target, _)| *target);
        }
        graph
    }

    #[test]
    fn tarjan_finds_each_set_once_and_ignores_acyclic_vertices() {
        // 0 <-> 1, 2 -> 0 (a tail), 3 -> 4 -> 5 -> 3, 5 -> 6 (a tail).
        let graph = graph(7, &[(0, 1), (1, 0), (2, 0), (3, 4), (4, 5), (5, 3), (5, 6)]);
        assert_eq!(strongly_connected(&graph), [vec![0, 1], vec![3, 4, 5]]);
        let set: BTreeSet<usize> = [3, 4, 5].into();
        assert_eq!(shortest_cycle(&graph, &set, 3, None), Some(vec![3, 4, 5]));
        assert_eq!(
            shortest_cycle(&graph, &set, 5, Some(3)),
            Some(vec![5, 3, 4])
        );
    }

    #[test]
    fn a_ring_of_two_hundred_thousand_vertices_is_one_set_without_recursion() {
        let count = 200_000;
        let edges: Vec<(usize, usize)> = (0..count)
            .map(|vertex| (vertex, (vertex + 1) % count))
            .collect();
        let graph = graph(count, &edges);
        let sets = strongly_connected(&graph);
        assert_eq!(sets.len(), 1);
        assert_eq!(sets[0].len(), count);
        let set: BTreeSet<usize> = sets[0].iter().copied().collect();
        let cycle = shortest_cycle(&graph, &set, 0, None).unwrap();
        assert_eq!(cycle.len(), count);
    }

    #[test]
    fn the_shortest_cycle_through_the_smallest_member_wins_ties_by_name() {
        // 0 -> 1 -> 0 and 0 -> 2 -> 0: both of length two; the smaller sequence is 0, 1.
        let graph = graph(3, &[(0, 1), (1, 0), (0, 2), (2, 0)]);
        let set: BTreeSet<usize> = [0, 1, 2].into();
        assert_eq!(strongly_connected(&graph), [vec![0, 1, 2]]);
        assert_eq!(shortest_cycle(&graph, &set, 0, None), Some(vec![0, 1]));
    }
}
