//! The flow invariants: DenyFlow, DenyReach, RequireFlowVia, DenyDataFlow and RequireDataFlowVia,
//! decided on the flow graph (see `invariant` in policies/LANGUAGE.md) with witness paths.

use std::collections::{BTreeMap, BTreeSet};

use policies::facts::Confidence;
use policies::model::{Rule, RuleBody, RuleKind};
use policies::smt::ChainRelation;

use crate::graph::file_graph::Chain;

use super::{
    builder_for, fact_name, handlers, rule_name, Candidate, Citation, Context, Detail, Evaluation,
    Family, Shape, Site, SliceCause,
};

/// The family.
pub const FAMILY: Family = Family {
    kinds: &[
        RuleKind::DenyFlow,
        RuleKind::DenyReach,
        RuleKind::RequireFlowVia,
        RuleKind::DenyDataFlow,
        RuleKind::RequireDataFlowVia,
    ],
    evaluate,
};

fn evaluate(context: &Context<'_>, evaluation: &mut Evaluation) {
    for (index, rule) in context.model.rules.iter().enumerate() {
        match (&rule.kind, &rule.body) {
            (RuleKind::DenyFlow, RuleBody::Pair { from, to }) => {
                deny_flow(context, index, rule, from, to, evaluation);
            }
            (RuleKind::DenyReach, RuleBody::Pair { from, to }) => {
                path_rule(context, index, rule, from, to, &[], evaluation);
            }
            (RuleKind::RequireFlowVia, RuleBody::PairVia { from, to, via }) => {
                path_rule(context, index, rule, from, to, via, evaluation);
            }
            (
                RuleKind::DenyDataFlow | RuleKind::RequireDataFlowVia,
                RuleBody::DataTo { data, to, via },
            ) => {
                data_rule(context, index, rule, data, to, via, evaluation);
            }
            _ => {}
        }
    }
}

fn violation_type(kind: RuleKind) -> &'static str {
    match kind {
        RuleKind::DenyFlow => "flow_violation",
        RuleKind::DenyReach => "reach_violation",
        RuleKind::RequireFlowVia => "require_flow_violation",
        RuleKind::DenyDataFlow => "dataflow_violation",
        _ => "require_dataflow_violation",
    }
}

/// The message of a flow-family finding.
fn message(violation_type: &str, rule: &Rule, detail: &Detail, evidence: &str) -> String {
    let from = detail.from.clone().unwrap_or_default();
    let to = detail.to.clone().unwrap_or_default();
    let path = detail
        .path
        .as_ref()
        .map(|path| path.join(" -> "))
        .unwrap_or_default();
    let data = detail.data.clone().unwrap_or_default();
    match violation_type {
        "flow_violation" => format!(
            "`{from}` depends on `{to}`, which `{}` forbids: {evidence}",
            rule.text
        ),
        "reach_violation" => format!(
            "`{from}` reaches `{to}` through {path}, which `{}` forbids",
            rule.text
        ),
        "require_flow_violation" => format!(
            "`{from}` reaches `{to}` through {path} without passing the via set of `{}`",
            rule.text
        ),
        "dataflow_violation" => format!(
            "`{data}` handled by `{from}` reaches `{to}` through {path}, which `{}` forbids",
            rule.text
        ),
        _ => format!(
            "`{data}` handled by `{from}` reaches `{to}` through {path} without passing the via set of `{}`",
            rule.text
        ),
    }
}

fn suggested_fix(violation_type: &str, detail: &Detail, site: &Site) -> String {
    let from = detail.from.clone().unwrap_or_default();
    let to = detail.to.clone().unwrap_or_default();
    let at = format!("{}:{}", site.file, site.line);
    let path = detail
        .path
        .as_ref()
        .map(|path| path.join(" -> "))
        .unwrap_or_default();
    match violation_type {
        "flow_violation" => format!(
            "remove the dependency of `{from}` on `{to}` at {at}: move this code into a component that may use `{to}`, or call it through a component the rules allow"
        ),
        "reach_violation" => format!(
            "break the path {path}: remove or invert one of its dependencies (the first is at {at}), for example behind an interface that `{from}` owns"
        ),
        "require_flow_violation" => format!(
            "route `{from}` -> `{to}` through {}: replace the dependency that bypasses it on the path {path} (first hop at {at}) with a call into it",
            detail
                .via_members
                .as_ref()
                .map(|members| members
                    .iter()
                    .map(|member| format!("`{member}`"))
                    .collect::<Vec<_>>()
                    .join(" or "))
                .unwrap_or_default()
        ),
        _ => format!(
            "stop `{}` from travelling {path}: remove the dependency at {at}, or move the handling of the data out of that path",
            detail.data.clone().unwrap_or_default()
        ),
    }
}

/// Builds a candidate for a finding of a chain family, located at the chain's site (see Chains under `invariant` in policies/LANGUAGE.md).
#[expect(
    clippy::too_many_arguments,
    reason = "one constructor for every chain-shaped finding"
)]
pub(crate) fn path_candidate(
    context: &Context<'_>,
    index: usize,
    rule: &Rule,
    violation_type: &'static str,
    detail: Detail,
    slice: policies::smt::Slice,
    chain: &Chain,
    message: String,
    suggested_fix: String,
) -> Option<Candidate> {
    let site = Site::of(&context.facts, *chain.facts.get(chain.site)?)?;
    let path = detail.path.clone().unwrap_or_default();
    Some(Candidate {
        rules: vec![index],
        citation: Citation::rule(rule),
        violation_type,
        confidence: context.path_confidence(&chain.facts),
        site,
        occurrences: Vec::new(),
        per_pair: true,
        message,
        suggested_fix,
        data: detail.data.clone(),
        shape: Shape::Architecture(detail),
        slice,
        fanout: context.fanout(&path),
        path_depth: Some(chain.facts.len()),
        components: path,
        chain: chain.facts.clone(),
        cause: SliceCause::Generic,
    })
}

/// The site of a chain: its located hop.
pub(crate) fn chain_site(context: &Context<'_>, chain: &Chain) -> Option<Site> {
    Site::of(&context.facts, *chain.facts.get(chain.site)?)
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
        if !context.in_scope(fact_index) {
            continue;
        }
        groups
            .entry((fact.evidence().file.to_string(), fact.evidence_key()))
            .or_default()
            .push(fact_index);
    }
    for group in groups.into_values() {
        let mut group = group;
        group.sort_by_key(|fact_index| {
            context.facts.get(*fact_index).map(|fact| {
                (
                    std::cmp::Reverse(fact.confidence()),
                    fact.evidence().line,
                    fact.evidence().column,
                )
            })
        });
        let Some((&first, rest)) = group.split_first() else {
            continue;
        };
        let (Some(fact), Some(site)) = (context.facts.get(first), Site::of(&context.facts, first))
        else {
            continue;
        };
        let mut builder = builder_for(rule);
        builder.deny_edge(rule_name(rule), from, to);
        builder.edge_fact(fact_name(fact), Some(fact.id().to_owned()), from, to);
        let entities = vec![from.to_owned(), to.to_owned()];
        let detail = Detail {
            from: Some(from.to_owned()),
            to: Some(to.to_owned()),
            ..Detail::default()
        };
        let violation_type = violation_type(rule.kind);
        evaluation.candidates.push(Candidate {
            rules: vec![index],
            citation: Citation::rule(rule),
            violation_type,
            message: message(violation_type, rule, &detail, &site.message),
            suggested_fix: suggested_fix(violation_type, &detail, &site),
            shape: Shape::Architecture(detail),
            confidence: fact.confidence(),
            occurrences: rest
                .iter()
                .filter_map(|other| context.facts.get(*other))
                .map(|other| (other.evidence().file.to_string(), other.evidence().line))
                .collect(),
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

/// DenyReach (`via` empty) and RequireFlowVia: one finding per (from, to) with the shortest
/// (bypass) chain.
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
    let Some(chain) = context.chain_between(from, to, &blocked) else {
        return;
    };
    let mut builder = builder_for(rule);
    let relation = if via.is_empty() {
        builder.deny_reach(rule_name(rule), from, to);
        ChainRelation::Reach
    } else {
        builder.deny_bypass(rule_name(rule), from, to);
        ChainRelation::Bypass { via }
    };
    context.add_chain(&mut builder, relation, from, to, &chain);
    let (path, files) = context.chain_paths(&chain);
    let via_members = (!via.is_empty()).then(|| super::sorted(via.to_vec()));
    let detail = Detail {
        from: Some(from.to_owned()),
        to: Some(to.to_owned()),
        via_members,
        path: Some(path),
        files: Some(files),
        opens_path: chain.opens,
        ..Detail::default()
    };
    push_path_candidate(
        context,
        index,
        rule,
        detail,
        builder.finish(),
        &chain,
        evaluation,
    );
}

fn push_path_candidate(
    context: &Context<'_>,
    index: usize,
    rule: &Rule,
    detail: Detail,
    slice: policies::smt::Slice,
    chain: &Chain,
    evaluation: &mut Evaluation,
) {
    let violation_type = violation_type(rule.kind);
    let Some(site) = chain_site(context, chain) else {
        return;
    };
    let message = message(violation_type, rule, &detail, &site.message);
    let fix = suggested_fix(violation_type, &detail, &site);
    if let Some(candidate) = path_candidate(
        context,
        index,
        rule,
        violation_type,
        detail,
        slice,
        chain,
        message,
        fix,
    ) {
        evaluation.candidates.push(candidate);
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
    for handler in handlers(context.model, data) {
        if handler == to || via.iter().any(|member| member == handler) {
            continue;
        }
        let blocked: BTreeSet<String> =
            via.iter().filter(|member| *member != to).cloned().collect();
        let Some(chain) = context.chain_between(handler, to, &blocked) else {
            continue;
        };
        let mut builder = builder_for(rule);
        builder.deny_data_reach(rule_name(rule), data, to, !via.is_empty());
        builder.handles_fact(handler, data);
        let relation = if via.is_empty() {
            ChainRelation::Reach
        } else {
            builder.outside_via(handler, via);
            ChainRelation::Bypass { via }
        };
        context.add_chain(&mut builder, relation, handler, to, &chain);
        let (path, files) = context.chain_paths(&chain);
        let via_members = (!via.is_empty()).then(|| super::sorted(via.to_vec()));
        let detail = Detail {
            from: Some(handler.to_owned()),
            to: Some(to.to_owned()),
            via: via.is_empty().then(|| handler.to_owned()),
            via_members,
            data: Some(data.to_owned()),
            path: Some(path),
            files: Some(files),
            opens_path: chain.opens,
            ..Detail::default()
        };
        push_path_candidate(
            context,
            index,
            rule,
            detail,
            builder.finish(),
            &chain,
            evaluation,
        );
    }
}
