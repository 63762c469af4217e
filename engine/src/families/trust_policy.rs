//! trust_policy: RequireAuth (no path into the target trust zone without passing an entity
//! that has auth) and DenyFlowWhenData (labelled data must not cross from one zone to another),
//! decided on the flow graph with witness paths (see `trust_policy` in policies/LANGUAGE.md).

use std::collections::BTreeSet;

use policies::model::{Rule, RuleBody, RuleKind};

use super::data_policy::entities;
use policies::smt::ChainRelation;

use super::flow::{chain_site, path_candidate};
use super::{builder_for, handlers, rule_name, Context, Detail, Evaluation, Family};
use crate::graph::file_graph::Chain;

/// The family.
pub const FAMILY: Family = Family {
    kinds: &[RuleKind::RequireAuth, RuleKind::DenyFlowWhenData],
    evaluate,
};

fn evaluate(context: &Context<'_>, evaluation: &mut Evaluation) {
    for (index, rule) in context.rules_of(FAMILY.kinds) {
        match &rule.body {
            RuleBody::TrustBoundary { from, to } => {
                require_auth(context, index, rule, from.as_str(), to.as_str(), evaluation);
            }
            RuleBody::TrustDataFlow {
                from,
                to,
                classification,
            } => deny_flow_when_data(
                context,
                index,
                rule,
                (from.as_str(), to.as_str()),
                classification,
                evaluation,
            ),
            _ => {}
        }
    }
}

fn at_of(context: &Context<'_>, chain: &Chain) -> String {
    chain_site(context, chain)
        .map(|site| format!("{}:{}", site.file, site.line))
        .unwrap_or_default()
}

/// RequireAuth(τ1, τ2): one finding per (X, Y) with the shortest path on which no entity after X has auth.
fn require_auth(
    context: &Context<'_>,
    index: usize,
    rule: &Rule,
    from_trust: &str,
    to_trust: &str,
    evaluation: &mut Evaluation,
) {
    let all = entities(context);
    let sources: Vec<&String> = all
        .iter()
        .filter(|entity| context.trust(entity) == Some(from_trust))
        .collect();
    let targets: Vec<&String> = all
        .iter()
        .filter(|entity| context.trust(entity) == Some(to_trust))
        .collect();
    // An unowned file runs on no node, so it has no auth.
    let lacks_auth = |entity: Option<&str>| !entity.is_some_and(|entity| context.has_auth(entity));
    for source in &sources {
        for target in &targets {
            if source == target {
                continue;
            }
            let Some(chain) = context.chain_witness(source, target, &BTreeSet::new(), &lacks_auth)
            else {
                continue;
            };
            let mut builder = builder_for(rule);
            builder.require_auth(rule_name(rule), from_trust, to_trust);
            builder.trust_fact(source, from_trust);
            builder.trust_fact(target, to_trust);
            context.add_chain(
                &mut builder,
                ChainRelation::Unauthenticated,
                source,
                target,
                &chain,
            );
            builder.distinct_names();
            let (path, files) = context.chain_paths(&chain);
            let route = path.join(" -> ");
            let message = format!(
                "the {from_trust} `{source}` reaches the {to_trust} `{target}` through {route} without passing an entity that has auth, which `{}` forbids",
                rule.text
            );
            let fix = format!(
                "put authentication on the way from `{source}` to `{target}`: route the call at {} through an entity whose node declares `auth`, or authenticate at `{target}`'s node",
                at_of(context, &chain)
            );
            let detail = Detail {
                from: Some((*source).clone()),
                to: Some((*target).clone()),
                path: Some(path.clone()),
                files: Some(files),
                opens_path: chain.opens,
                ..Detail::default()
            };
            if let Some(candidate) = path_candidate(
                context,
                index,
                rule,
                "trust_policy_violation",
                detail,
                builder.finish(),
                &chain,
                message,
                fix,
            ) {
                evaluation.candidates.push(candidate);
            }
        }
    }
}

/// DenyFlowWhenData(τ1, τ2, cls): one finding per (data, handler, target).
fn deny_flow_when_data(
    context: &Context<'_>,
    index: usize,
    rule: &Rule,
    (from_trust, to_trust): (&str, &str),
    classification: &str,
    evaluation: &mut Evaluation,
) {
    let targets: Vec<String> = entities(context)
        .into_iter()
        .filter(|entity| context.trust(entity) == Some(to_trust))
        .collect();
    for data in &context.model.data {
        if data.classification.as_deref() != Some(classification) {
            continue;
        }
        for handler in handlers(context.model, &data.name) {
            if context.trust(handler) != Some(from_trust) {
                continue;
            }
            for target in &targets {
                if target == handler {
                    continue;
                }
                let Some(chain) = context.chain_between(handler, target, &BTreeSet::new()) else {
                    continue;
                };
                let mut builder = builder_for(rule);
                builder.deny_flow_when_data(rule_name(rule), from_trust, to_trust, classification);
                builder.handles_fact(handler, &data.name);
                builder.label_fact(&data.name, "classification", classification);
                builder.trust_fact(handler, from_trust);
                builder.trust_fact(target, to_trust);
                context.add_chain(&mut builder, ChainRelation::Reach, handler, target, &chain);
                builder.distinct_names();
                let (path, files) = context.chain_paths(&chain);
                let route = path.join(" -> ");
                let message = format!(
                    "`{}` ({classification}) leaves the {from_trust} `{handler}` for the {to_trust} `{target}` through {route}, which `{}` forbids",
                    data.name, rule.text
                );
                let fix = format!(
                    "stop `{}` at the {from_trust} boundary: remove the dependency at {} on the path {route}, or send `{target}` only data that is not `{classification}`",
                    data.name,
                    at_of(context, &chain)
                );
                let detail = Detail {
                    from: Some(handler.to_owned()),
                    to: Some(target.clone()),
                    via: Some(handler.to_owned()),
                    data: Some(data.name.clone()),
                    path: Some(path.clone()),
                    files: Some(files),
                    opens_path: chain.opens,
                    ..Detail::default()
                };
                if let Some(candidate) = path_candidate(
                    context,
                    index,
                    rule,
                    "trust_policy_violation",
                    detail,
                    builder.finish(),
                    &chain,
                    message,
                    fix,
                ) {
                    evaluation.candidates.push(candidate);
                }
            }
        }
    }
}
