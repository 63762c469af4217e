//! The module-boundary rules (`policies::kinds::boundary`): DependsOn (closed components),
//! PublicInterface, DenyCycle (Tarjan's strongly connected sets, one finding per set) and
//! DenyUnresolvedImport, decided on the component edges and the file graph.

use std::collections::{BTreeMap, HashMap};

use policies::facts::{Confidence, FactKind};
use policies::model::{Rule, RuleBody, RuleKind};

use crate::graph::file_graph::Vertex;
use crate::input::paths::GlobList;

use super::{
    builder_for, fact_name, rule_name, Candidate, Citation, Context, Detail, Evaluation, Family,
    Shape, Site, SliceCause,
};

mod cycles;

use cycles::{cycle_graph_among, cycle_graph_files, cycles, file_edges, Over};

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
                cycles(context, index, rule, &graph, Over::Components, evaluation);
            }
            (RuleKind::DenyCycle, RuleBody::CycleWithin { component }) => {
                let edges = shared.inner_edges(context).get(component);
                let graph =
                    cycle_graph_files(context, edges.map(Vec::as_slice).unwrap_or_default());
                cycles(
                    context,
                    index,
                    rule,
                    &graph,
                    Over::Within(component),
                    evaluation,
                );
            }
            (RuleKind::DenyCycle, RuleBody::CycleFiles { components }) => {
                let edges = file_edges(context, components.as_deref());
                let graph = cycle_graph_files(context, &edges);
                let over = Over::Files(components.as_deref());
                cycles(context, index, rule, &graph, over, evaluation);
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
/// to no file, unless it leads where a `.gitignore` puts generated code (`generated: true`).
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
                && !fact.property_flag("generated")
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
            "fix the import of `{specifier}` at {}:{}: point it at an existing file or module, restore the missing file or module (a Rust `mod`, a C# namespace), or declare the path alias in the resolution config (tsconfig paths, go.mod, pyproject)",
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

#[cfg(test)]
mod tests {
    use super::cycles::*;
    use std::collections::BTreeSet;

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
