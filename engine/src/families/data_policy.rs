//! data_policy: DenyClassification and DenyJurisdiction, decided on data reach over the flow
//! graph (see `data_policy` in policies/LANGUAGE.md): labelled data must not reach an entity of a trust level, or a
//! named entity. One finding per (data, handler, target), with the witness path.

use std::collections::BTreeSet;

use policies::model::{Rule, RuleBody, RuleKind};

use policies::smt::ChainRelation;

use super::flow::{chain_site, path_candidate};
use super::{builder_for, handlers, rule_name, Context, Detail, Evaluation, Family};

/// The family.
pub const FAMILY: Family = Family {
    kinds: &[RuleKind::DenyClassification, RuleKind::DenyJurisdiction],
    evaluate,
};

/// Every entity name in declaration order: components, nodes, resources.
pub(crate) fn entities(context: &Context<'_>) -> Vec<String> {
    let model = context.model;
    model
        .components
        .iter()
        .map(|component| component.name.clone())
        .chain(model.nodes.iter().map(|node| node.name.clone()))
        .chain(model.resources.iter().map(|resource| resource.name.clone()))
        .collect()
}

fn evaluate(context: &Context<'_>, evaluation: &mut Evaluation) {
    for (index, rule) in context.rules_of(FAMILY.kinds) {
        match &rule.body {
            RuleBody::Classification {
                classification,
                trust,
            } => {
                let targets: Vec<String> = entities(context)
                    .into_iter()
                    .filter(|entity| context.trust(entity) == Some(trust.as_str()))
                    .collect();
                for data in &context.model.data {
                    if data.classification.as_deref() != Some(classification.as_str()) {
                        continue;
                    }
                    for target in &targets {
                        let label = ("classification", classification.as_str());
                        data_reach(
                            context,
                            index,
                            rule,
                            &data.name,
                            label,
                            target,
                            Some(trust.as_str()),
                            evaluation,
                        );
                    }
                }
            }
            RuleBody::Jurisdiction {
                jurisdiction,
                entity,
            } => {
                for data in &context.model.data {
                    if data.jurisdiction.as_deref() != Some(jurisdiction.as_str()) {
                        continue;
                    }
                    let label = ("jurisdiction", jurisdiction.as_str());
                    data_reach(
                        context, index, rule, &data.name, label, entity, None, evaluation,
                    );
                }
            }
            _ => {}
        }
    }
}

/// One finding per handler of `data` that reaches `target`.
#[expect(
    clippy::too_many_arguments,
    reason = "the parts of one data-policy instance"
)]
fn data_reach(
    context: &Context<'_>,
    index: usize,
    rule: &Rule,
    data: &str,
    (label_key, label): (&str, &str),
    target: &str,
    target_trust: Option<&str>,
    evaluation: &mut Evaluation,
) {
    for handler in handlers(context.model, data) {
        if handler == target {
            continue;
        }
        let Some(chain) = context.chain_between(handler, target, &BTreeSet::new()) else {
            continue;
        };
        let mut builder = builder_for(rule);
        match target_trust {
            Some(trust) => {
                builder.deny_classification(rule_name(rule), label, trust);
                builder.handles_fact(handler, data);
                builder.label_fact(data, label_key, label);
                builder.trust_fact(target, trust);
            }
            None => {
                builder.deny_jurisdiction(rule_name(rule), label, target);
                builder.handles_fact(handler, data);
                builder.label_fact(data, label_key, label);
            }
        }
        context.add_chain(&mut builder, ChainRelation::Reach, handler, target, &chain);
        builder.distinct_names();
        let (path, files) = context.chain_paths(&chain);
        let detail = Detail {
            from: Some(handler.to_owned()),
            to: Some(target.to_owned()),
            via: Some(handler.to_owned()),
            data: Some(data.to_owned()),
            path: Some(path.clone()),
            files: Some(files),
            opens_path: chain.opens,
            ..Detail::default()
        };
        let route = path.join(" -> ");
        let what = match target_trust {
            Some(trust) => format!("the {trust} entity `{target}`"),
            None => format!("`{target}`"),
        };
        let message = format!(
            "`{data}` ({label_key} {label}) handled by `{handler}` reaches {what} through {route}, which `{}` forbids",
            rule.text
        );
        let at = chain_site(context, &chain)
            .map(|site| format!("{}:{}", site.file, site.line))
            .unwrap_or_default();
        let fix = format!(
            "keep `{data}` away from `{target}`: remove the dependency at {at} on the path {route}, or send only data without the {label_key} `{label}` (for example an anonymised projection) across that boundary"
        );
        if let Some(candidate) = path_candidate(
            context,
            index,
            rule,
            "data_policy_violation",
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
