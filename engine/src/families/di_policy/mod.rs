//! di_policy: DenyInject, DenyInjectReach, DenyLifetime, DenyLifetimeReach and DenyResolve
//! (see `di_policy` in policies/LANGUAGE.md), judged on constructor-injection edges between components,
//! on the service graph of registrations, and on service-locator use.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use policies::facts::{Confidence, Fact, FactKind};
use policies::model::{Lifetime, Rule, RuleBody, RuleKind};
use policies::smt::Slice;

use super::{
    builder_for, fact_name, rule_name, Candidate, Citation, Context, Detail, Evaluation, FactRef,
    Family, Shape, Site, SliceCause,
};

mod injection_targets;

pub use injection_targets::{fill_injection_targets, fill_injection_type_files};

/// The family.
pub const FAMILY: Family = Family {
    kinds: &[
        RuleKind::DenyInject,
        RuleKind::DenyInjectReach,
        RuleKind::DenyLifetime,
        RuleKind::DenyLifetimeReach,
        RuleKind::DenyResolve,
    ],
    evaluate,
};

fn evaluate(context: &Context<'_>, evaluation: &mut Evaluation) {
    let services = ServiceGraph::build(context);
    for (index, rule) in context.rules_of(FAMILY.kinds) {
        match (&rule.kind, &rule.body) {
            (RuleKind::DenyInject, RuleBody::Pair { from, to }) => {
                deny_inject(context, index, rule, from, to, evaluation);
            }
            (RuleKind::DenyInjectReach, RuleBody::Pair { from, to }) => {
                deny_inject_reach(context, index, rule, from, to, evaluation);
            }
            (
                RuleKind::DenyLifetime | RuleKind::DenyLifetimeReach,
                RuleBody::Lifetime { from, to },
            ) => {
                deny_lifetime(context, &services, index, rule, (*from, *to), evaluation);
            }
            (RuleKind::DenyResolve, RuleBody::Resolve { service, component }) => {
                deny_resolve(context, index, rule, service, component, evaluation);
            }
            _ => {}
        }
    }
}

#[expect(clippy::too_many_arguments, reason = "the parts of one DI candidate")]
fn push(
    evaluation: &mut Evaluation,
    index: usize,
    rule: &Rule,
    detail: Detail,
    site: Site,
    confidence: Confidence,
    chain: Vec<usize>,
    per_pair: bool,
    slice: Slice,
    components: Vec<String>,
    message: String,
    suggested_fix: String,
) {
    evaluation.candidates.push(Candidate {
        rules: vec![index],
        citation: Citation::rule(rule),
        violation_type: "di_violation",
        shape: Shape::Architecture(detail),
        confidence,
        site,
        occurrences: Vec::new(),
        per_pair,
        message,
        suggested_fix,
        slice,
        path_depth: Some(chain.len()),
        chain,
        components,
        data: None,
        fanout: None,
        cause: SliceCause::DiRegistrations,
    });
}

/// Inject edges: (from, to) → constructor-injection facts, best first.
fn inject_edges(context: &Context<'_>) -> BTreeMap<(String, String), Vec<usize>> {
    let mut edges: BTreeMap<(String, String), Vec<usize>> = BTreeMap::new();
    for (index, fact) in context.facts.of_kind(FactKind::ConstructorInjection) {
        let (Some(from), Some(to)) = (&fact.subject, &fact.target) else {
            continue;
        };
        if from == to || context.model.component(to).is_none() {
            continue;
        }
        edges
            .entry((from.to_string(), to.to_string()))
            .or_default()
            .push(index);
    }
    for facts in edges.values_mut() {
        facts.sort_by_key(|index| {
            context.facts.get(*index).map(|fact| {
                (
                    std::cmp::Reverse(fact.confidence()),
                    fact.evidence().file.clone(),
                    fact.evidence().line,
                )
            })
        });
    }
    edges
}

fn deny_inject(
    context: &Context<'_>,
    index: usize,
    rule: &Rule,
    from: &str,
    to: &str,
    evaluation: &mut Evaluation,
) {
    let edges = inject_edges(context);
    let Some(facts) = edges.get(&(from.to_owned(), to.to_owned())) else {
        return;
    };
    for fact_index in facts {
        let (Some(fact), Some(site)) = (
            context.facts.get(*fact_index),
            Site::of(&context.facts, *fact_index),
        ) else {
            continue;
        };
        if !context.in_scope(*fact_index) {
            continue;
        }
        let mut builder = builder_for(rule);
        builder.deny_inject(rule_name(rule), from, to);
        builder.inject_fact(fact_name(fact), Some(fact.id().to_owned()), from, to);
        builder.distinct_names();
        let message = format!(
            "`{from}` gets `{to}` injected, which `{}` forbids: {}",
            rule.text, site.message
        );
        let fix = format!(
            "inject an abstraction that `{from}` may depend on instead of the `{to}` type at {}:{}, and register its implementation in the composition root",
            site.file, site.line
        );
        let detail = Detail {
            from: Some(from.to_owned()),
            to: Some(to.to_owned()),
            ..Detail::default()
        };
        push(
            evaluation,
            index,
            rule,
            detail,
            site,
            fact.confidence(),
            vec![*fact_index],
            false,
            builder.finish(),
            vec![from.to_owned(), to.to_owned()],
            message,
            fix,
        );
    }
}

fn deny_inject_reach(
    context: &Context<'_>,
    index: usize,
    rule: &Rule,
    from: &str,
    to: &str,
    evaluation: &mut Evaluation,
) {
    let edges = inject_edges(context);
    for minimum in [Confidence::Definite, Confidence::Probable] {
        let usable: BTreeMap<&str, Vec<&str>> = edges
            .iter()
            .filter(|(_, facts)| {
                facts.iter().any(|index| {
                    context
                        .facts
                        .get(*index)
                        .is_some_and(|fact| fact.confidence() >= minimum)
                })
            })
            .fold(BTreeMap::new(), |mut map, ((a, b), _)| {
                map.entry(a.as_str())
                    .or_insert_with(Vec::new)
                    .push(b.as_str());
                map
            });
        let Some(path) = shortest(&usable, from, to) else {
            continue;
        };
        let chain: Vec<usize> = path
            .windows(2)
            .filter_map(|hop| {
                let facts = edges.get(&(hop.first()?.to_string(), hop.get(1)?.to_string()))?;
                facts
                    .iter()
                    .copied()
                    .filter(|index| {
                        context
                            .facts
                            .get(*index)
                            .is_some_and(|fact| fact.confidence() >= minimum)
                    })
                    .find(|index| context.in_scope(*index))
                    .or_else(|| facts.first().copied())
            })
            .collect();
        if !context.touches_scope(&chain) {
            return;
        }
        let mut builder = builder_for(rule);
        builder.deny_inject_reach(rule_name(rule), from, to);
        for (hop, fact_index) in path.windows(2).zip(&chain) {
            if let (Some(a), Some(b), Some(fact)) =
                (hop.first(), hop.get(1), context.facts.get(*fact_index))
            {
                builder.inject_fact(fact_name(fact), Some(fact.id().to_owned()), a, b);
            }
        }
        builder.distinct_names();
        let Some(site) = chain
            .first()
            .and_then(|first| Site::of(&context.facts, *first))
        else {
            return;
        };
        let route = path.join(" -> ");
        let message = format!(
            "`{from}` reaches `{to}` through the injections {route}, which `{}` forbids",
            rule.text
        );
        let fix = format!("break the injection chain {route}: inject an abstraction at {}:{} instead of the concrete type", site.file, site.line);
        let detail = Detail {
            from: Some(from.to_owned()),
            to: Some(to.to_owned()),
            path: Some(path.clone()),
            ..Detail::default()
        };
        let confidence = context.path_confidence(&chain);
        push(
            evaluation,
            index,
            rule,
            detail,
            site,
            confidence,
            chain,
            true,
            builder.finish(),
            path,
            message,
            fix,
        );
        return;
    }
}

/// The breadth-first tree from `from` over sorted successors: each service reached (other than
/// `from`) → the service it was first reached from. The tree paths are those [`shortest`] finds.
fn breadth_first<'a>(
    successors: &BTreeMap<&'a str, Vec<&'a str>>,
    from: &'a str,
) -> BTreeMap<&'a str, &'a str> {
    let mut previous: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(node) = queue.pop_front() {
        let mut next: Vec<&str> = successors.get(node).cloned().unwrap_or_default();
        next.sort_unstable();
        for successor in next {
            if successor != from && !previous.contains_key(successor) {
                previous.insert(successor, node);
                queue.push_back(successor);
            }
        }
    }
    previous
}

/// The path from `from` to `to` (≠ `from`) in a [`breadth_first`] tree, if `to` was reached.
fn path_to(previous: &BTreeMap<&str, &str>, from: &str, to: &str) -> Option<Vec<String>> {
    let mut path = vec![to.to_owned()];
    let mut current = *previous.get(to)?;
    path.push(current.to_owned());
    while current != from {
        current = previous.get(current)?;
        path.push(current.to_owned());
    }
    path.reverse();
    Some(path)
}

/// Shortest path (≥ 1 edge) by BFS over sorted successors: ties go to the smaller name sequence.
fn shortest(successors: &BTreeMap<&str, Vec<&str>>, from: &str, to: &str) -> Option<Vec<String>> {
    let mut previous: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    let mut seen = BTreeSet::from([from]);
    while let Some(node) = queue.pop_front() {
        let mut next: Vec<&str> = successors.get(node).cloned().unwrap_or_default();
        next.sort_unstable();
        for successor in next {
            if successor == to {
                let mut path = vec![to.to_owned(), node.to_owned()];
                let mut current = node;
                while let Some(before) = previous.get(current) {
                    path.push((*before).to_owned());
                    current = before;
                }
                path.reverse();
                return Some(path);
            }
            if seen.insert(successor) {
                previous.insert(successor, node);
                queue.push_back(successor);
            }
        }
    }
    None
}

/// Registrations and the service edges between them.
struct ServiceGraph {
    /// service → (lifetime word, registration fact index).
    registrations: BTreeMap<String, (String, usize)>,
    /// (S1, S2) → constructor-injection fact index.
    edges: BTreeMap<(String, String), usize>,
}

fn lifetime_word(fact: &Fact) -> Option<String> {
    let word = fact
        .property_str("lifetime")
        .map(str::to_lowercase)
        .or_else(|| {
            let method = fact.property_str("method")?.to_lowercase();
            ["singleton", "scoped", "transient"]
                .into_iter()
                .find(|lifetime| method.contains(lifetime))
                .map(str::to_owned)
        })?;
    Lifetime::parse(&word).map(|_| word)
}

fn lifetime_name(lifetime: Lifetime) -> &'static str {
    match lifetime {
        Lifetime::Singleton => "singleton",
        Lifetime::Scoped => "scoped",
        Lifetime::Transient => "transient",
    }
}

impl ServiceGraph {
    fn build(context: &Context<'_>) -> Self {
        let mut registrations = BTreeMap::new();
        let mut implementation_of: BTreeMap<String, String> = BTreeMap::new();
        for (index, fact) in context.facts.of_kind(FactKind::DiRegistration) {
            let (Some(service), Some(lifetime)) =
                (fact.property_str("service"), lifetime_word(fact))
            else {
                continue;
            };
            registrations
                .entry(service.to_owned())
                .or_insert((lifetime, index));
            if let Some(implementation) = fact.property_str("implementation") {
                implementation_of
                    .entry(service.to_owned())
                    .or_insert_with(|| implementation.to_owned());
            }
        }
        // implementation → the services registered with it, in service order.
        let mut services_of: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (service, implementation) in &implementation_of {
            services_of
                .entry(implementation.as_str())
                .or_default()
                .push(service.as_str());
        }
        let mut edges = BTreeMap::new();
        for (index, fact) in context.facts.of_kind(FactKind::ConstructorInjection) {
            let (Some(class), Some(parameter)) = (
                fact.property_str("class"),
                fact.property_str("parameterType"),
            ) else {
                continue;
            };
            if !registrations.contains_key(parameter) {
                continue;
            }
            for service in services_of.get(class).into_iter().flatten() {
                if *service != parameter {
                    edges
                        .entry(((*service).to_owned(), parameter.to_owned()))
                        .or_insert(index);
                }
            }
        }
        Self {
            registrations,
            edges,
        }
    }

    fn lifetime(&self, service: &str) -> Option<&str> {
        self.registrations
            .get(service)
            .map(|(lifetime, _)| lifetime.as_str())
    }
}

fn deny_lifetime(
    context: &Context<'_>,
    services: &ServiceGraph,
    index: usize,
    rule: &Rule,
    (from, to): (Lifetime, Lifetime),
    evaluation: &mut Evaluation,
) {
    let (from, to) = (lifetime_name(from), lifetime_name(to));
    let reach = rule.kind == RuleKind::DenyLifetimeReach;
    let chains = lifetime_chains(services, from, to, reach);
    for chain_services in chains {
        let edge_facts: Vec<usize> = chain_services
            .windows(2)
            .filter_map(|hop| {
                services
                    .edges
                    .get(&(hop.first()?.clone(), hop.get(1)?.clone()))
                    .copied()
            })
            .collect();
        let (Some(first), Some(last)) = (chain_services.first(), chain_services.last()) else {
            continue;
        };
        let (Some((_, first_registration)), Some((_, last_registration))) = (
            services.registrations.get(first),
            services.registrations.get(last),
        ) else {
            continue;
        };
        let mut chain = edge_facts.clone();
        chain.push(*first_registration);
        chain.push(*last_registration);
        if !context.touches_scope(&chain) {
            continue;
        }
        let mut builder = builder_for(rule);
        builder.deny_lifetime(rule_name(rule), from, to, reach);
        for (service, registration) in [(first, first_registration), (last, last_registration)] {
            if let Some(fact) = context.facts.get(*registration) {
                let lifetime = services.lifetime(service).unwrap_or_default().to_owned();
                builder.registration_fact(
                    fact_name(fact),
                    Some(fact.id().to_owned()),
                    service,
                    &lifetime,
                );
            }
        }
        for (hop, fact_index) in chain_services.windows(2).zip(&edge_facts) {
            if let (Some(a), Some(b), Some(fact)) =
                (hop.first(), hop.get(1), context.facts.get(*fact_index))
            {
                builder.service_dependency_fact(fact_name(fact), Some(fact.id().to_owned()), a, b);
            }
        }
        builder.distinct_names();
        let Some(site) = edge_facts
            .first()
            .and_then(|first| Site::of(&context.facts, *first))
        else {
            continue;
        };
        let lifetimes: Vec<String> = chain_services
            .iter()
            .map(|service| services.lifetime(service).unwrap_or_default().to_owned())
            .collect();
        let route = chain_services.join(" -> ");
        let message = format!(
            "the {from} `{first}` captures the {to} `{last}` through {route}, which `{}` forbids",
            rule.text
        );
        let fix = format!(
            "do not let the {from} `{first}` hold the {to} `{last}`: register `{first}` with a shorter lifetime, or take a factory for `{last}` instead of the instance (constructor at {}:{})",
            site.file, site.line
        );
        let detail = Detail {
            from: Some(first.clone()),
            to: Some(last.clone()),
            services: Some(chain_services.clone()),
            lifetimes: Some(lifetimes),
            path: reach.then(|| chain_services.clone()),
            ..Detail::default()
        };
        let confidence = context.path_confidence(&chain);
        push(
            evaluation,
            index,
            rule,
            detail,
            site,
            confidence,
            chain,
            reach,
            builder.finish(),
            Vec::new(),
            message,
            fix,
        );
    }
}

/// The chains of services from a service of lifetime `from` to one of lifetime `to`: direct
/// dependencies, or with `reach` the shortest path to each.
fn lifetime_chains(services: &ServiceGraph, from: &str, to: &str, reach: bool) -> Vec<Vec<String>> {
    let successors: BTreeMap<&str, Vec<&str>> =
        services
            .edges
            .keys()
            .fold(BTreeMap::new(), |mut map, (a, b)| {
                map.entry(a.as_str())
                    .or_insert_with(Vec::new)
                    .push(b.as_str());
                map
            });
    let mut chains: Vec<Vec<String>> = Vec::new();
    for (first, (lifetime, _)) in &services.registrations {
        if lifetime != from {
            continue;
        }
        if reach {
            // One search from `first` gives its shortest path to every service.
            let previous = breadth_first(&successors, first);
            for (last, (last_lifetime, _)) in &services.registrations {
                if last_lifetime == to && last != first {
                    if let Some(path) = path_to(&previous, first, last) {
                        chains.push(path);
                    }
                }
            }
        } else {
            for next in successors.get(first.as_str()).cloned().unwrap_or_default() {
                if services.lifetime(next) == Some(to) {
                    chains.push(vec![first.clone(), next.to_owned()]);
                }
            }
        }
    }
    chains
}

fn deny_resolve(
    context: &Context<'_>,
    index: usize,
    rule: &Rule,
    service: &str,
    component: &str,
    evaluation: &mut Evaluation,
) {
    for (fact_index, fact) in context.facts.of_kind(FactKind::ServiceResolution) {
        if fact.subject.as_deref() != Some(component) || !context.in_scope(fact_index) {
            continue;
        }
        let Some(resolved) = fact.property_str("service") else {
            continue;
        };
        if service != "*" && resolved != service {
            continue;
        }
        let Some(site) = Site::of(&context.facts, fact_index) else {
            continue;
        };
        let mut builder = builder_for(rule);
        builder.deny_resolve(
            rule_name(rule),
            component,
            (service != "*").then_some(service),
        );
        builder.resolve_fact(
            fact_name(FactRef::Graph(fact)),
            Some(fact.id.clone()),
            component,
            resolved,
        );
        builder.distinct_names();
        let message = format!(
            "`{component}` resolves `{resolved}` from the container, which `{}` forbids: {}",
            rule.text, site.message
        );
        let fix = format!(
            "take `{resolved}` as a constructor parameter of the class at {}:{} instead of resolving it from the service provider",
            site.file, site.line
        );
        let detail = Detail {
            from: Some(component.to_owned()),
            to: Some(resolved.to_owned()),
            services: Some(vec![resolved.to_owned()]),
            ..Detail::default()
        };
        push(
            evaluation,
            index,
            rule,
            detail,
            site,
            fact.confidence,
            vec![fact_index],
            false,
            builder.finish(),
            vec![component.to_owned()],
            message,
            fix,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every path one breadth-first tree gives is the path a search for that one target finds,
    /// on graphs with ties (diamonds), cycles back to the start and unreachable services.
    #[test]
    fn one_search_from_a_service_gives_the_shortest_path_to_each_other() {
        let graphs: [&[(&str, &str)]; 3] = [
            &[
                ("a", "c"),
                ("a", "b"),
                ("b", "d"),
                ("c", "d"),
                ("d", "e"),
                ("c", "e"),
            ],
            &[
                ("a", "b"),
                ("b", "a"),
                ("b", "c"),
                ("c", "b"),
                ("c", "d"),
                ("x", "a"),
            ],
            &[
                ("s", "t"),
                ("t", "u"),
                ("u", "s"),
                ("s", "v"),
                ("v", "u"),
                ("w", "w"),
            ],
        ];
        let mut compared = 0;
        for edges in graphs {
            let mut successors: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
            for (a, b) in edges {
                successors.entry(a).or_default().push(b);
            }
            let names: BTreeSet<&str> = edges.iter().flat_map(|(a, b)| [*a, *b]).collect();
            for from in &names {
                let previous = breadth_first(&successors, from);
                for to in names.iter().filter(|to| *to != from) {
                    assert_eq!(
                        path_to(&previous, from, to),
                        shortest(&successors, from, to),
                        "{from} -> {to} in {edges:?}"
                    );
                    compared += usize::from(shortest(&successors, from, to).is_some());
                }
            }
        }
        assert!(compared > 20, "only {compared} reachable pairs compared");
    }
}
