//! The invariant forms judged on reviewed counterexample facts (see `invariant` in policies/LANGUAGE.md):
//! DenyUnauthenticatedFlow, DenyUnencryptedFlow, RequireOperationIn, RequireOperationOnDataIn
//! and RequireDependencyViaInterface. No fact, no violation: declared metadata is not evidence.

use policies::facts::{DomainFact, DomainFactBody};
use policies::model::{Rule, RuleBody, RuleKind};
use policies::smt::SliceBuilder;

use super::{
    builder_for, fact_name, rule_name, Candidate, Citation, Context, Detail, Evaluation, FactRef,
    Family, Shape, Site, SliceCause,
};
use crate::graph::component_graph::resolve_target;

/// The family.
pub const FAMILY: Family = Family {
    kinds: &[
        RuleKind::DenyUnauthenticatedFlow,
        RuleKind::DenyUnencryptedFlow,
        RuleKind::RequireOperationIn,
        RuleKind::RequireOperationOnDataIn,
        RuleKind::RequireDependencyViaInterface,
    ],
    evaluate,
};

fn resolves_to(context: &Context<'_>, name: &str, entity: &str) -> bool {
    resolve_target(context.model, name)
        .iter()
        .any(|resolved| resolved == entity)
}

fn evaluate(context: &Context<'_>, evaluation: &mut Evaluation) {
    for (index, rule) in context.rules_of(FAMILY.kinds) {
        for (fact_index, fact) in context.facts.domain_facts() {
            if !context.in_scope(fact_index) {
                continue;
            }
            let subject = Subject {
                index,
                rule,
                fact_index,
                fact,
            };
            match (&rule.kind, &fact.body) {
                (RuleKind::DenyUnauthenticatedFlow, DomainFactBody::Auth { .. })
                | (RuleKind::DenyUnencryptedFlow, DomainFactBody::Encryption { .. }) => {
                    unprotected_flow(context, evaluation, &subject);
                }
                (
                    RuleKind::RequireOperationIn | RuleKind::RequireOperationOnDataIn,
                    DomainFactBody::Operation { .. },
                ) => operation_placement(context, evaluation, &subject),
                (RuleKind::RequireDependencyViaInterface, DomainFactBody::Dependency { .. }) => {
                    dependency_via_interface(context, evaluation, &subject);
                }
                _ => {}
            }
        }
    }
}

/// A rule of the family and a query fact it may be judged on.
struct Subject<'a> {
    index: usize,
    rule: &'a Rule,
    fact_index: usize,
    fact: &'a DomainFact,
}

/// DenyUnauthenticatedFlow and DenyUnencryptedFlow on `auth` and `encryption` facts.
fn unprotected_flow(context: &Context<'_>, evaluation: &mut Evaluation, subject: &Subject<'_>) {
    let &Subject {
        index,
        rule,
        fact_index,
        fact,
    } = subject;
    let (
        RuleBody::Pair { from, to },
        DomainFactBody::Auth {
            from: fact_from,
            to: fact_to,
        }
        | DomainFactBody::Encryption {
            from: fact_from,
            to: fact_to,
        },
    ) = (&rule.body, &fact.body)
    else {
        return;
    };
    if !resolves_to(context, fact_from, from) || !resolves_to(context, fact_to, to) {
        return;
    }
    let (relation, violation_type, what) = if rule.kind == RuleKind::DenyUnauthenticatedFlow {
        (
            "unauthenticated",
            "require_auth_violation",
            "authentication",
        )
    } else {
        ("unencrypted", "require_encryption_violation", "encryption")
    };
    let mut builder = builder_for(rule);
    builder.deny_unprotected_flow(rule_name(rule), relation, from, to);
    builder.unprotected_flow_fact(
        fact_name(FactRef::Domain(fact)),
        Some(fact.id.clone()),
        relation,
        from,
        to,
    );
    builder.distinct_names();
    let detail = Detail {
        from: Some(from.clone()),
        to: Some(to.clone()),
        ..Detail::default()
    };
    let message = format!(
        "`{from}` calls `{to}` without {what}, which `{}` forbids",
        rule.text
    );
    let fix = format!("add {what} to the call from `{from}` to `{to}`");
    push(
        context,
        evaluation,
        index,
        rule,
        fact_index,
        fact,
        violation_type,
        detail,
        builder,
        message,
        fix,
    );
}

/// RequireOperationIn and RequireOperationOnDataIn on `operation` facts.
fn operation_placement(context: &Context<'_>, evaluation: &mut Evaluation, subject: &Subject<'_>) {
    let &Subject {
        index,
        rule,
        fact_index,
        fact,
    } = subject;
    let (
        RuleBody::OperationIn {
            operation,
            data,
            entity,
        },
        DomainFactBody::Operation {
            operation: fact_operation,
            component,
            data: fact_data,
        },
    ) = (&rule.body, &fact.body)
    else {
        return;
    };
    if fact_operation != operation || data.is_some() && fact_data != data {
        return;
    }
    let Some(placed) = resolve_target(context.model, component)
        .into_iter()
        .find(|resolved| resolved != entity)
    else {
        return;
    };
    let mut builder = builder_for(rule);
    builder.require_placement(rule_name(rule), operation, data.as_deref(), entity);
    builder.placement_fact(
        fact_name(FactRef::Domain(fact)),
        Some(fact.id.clone()),
        operation,
        data.as_deref(),
        &placed,
    );
    builder.distinct_names();
    let detail = Detail {
        from: Some(placed.clone()),
        operation: Some(operation.clone()),
        required_component: Some(entity.clone()),
        data: data.clone(),
        ..Detail::default()
    };
    let message = format!(
        "`{operation}` happens in `{placed}`, but `{}` requires it in `{entity}`",
        rule.text
    );
    let fix = format!("move `{operation}` into `{entity}` and call it from `{placed}`");
    push(
        context,
        evaluation,
        index,
        rule,
        fact_index,
        fact,
        "require_operation_violation",
        detail,
        builder,
        message,
        fix,
    );
}

/// RequireDependencyViaInterface on `dependency` facts.
fn dependency_via_interface(
    context: &Context<'_>,
    evaluation: &mut Evaluation,
    subject: &Subject<'_>,
) {
    let &Subject {
        index,
        rule,
        fact_index,
        fact,
    } = subject;
    let (
        RuleBody::Dependency {
            from,
            to,
            interface,
        },
        DomainFactBody::Dependency {
            from: fact_from,
            to: fact_to,
            interface: used,
        },
    ) = (&rule.body, &fact.body)
    else {
        return;
    };
    if !resolves_to(context, fact_from, from)
        || !resolves_to(context, fact_to, to)
        || used.as_ref() == Some(interface)
    {
        return;
    }
    let mut builder = builder_for(rule);
    builder.require_interface(rule_name(rule), from, to, interface);
    builder.dependency_fact(
        fact_name(FactRef::Domain(fact)),
        Some(fact.id.clone()),
        from,
        to,
        used.as_deref(),
    );
    builder.distinct_names();
    let detail = Detail {
        from: Some(from.clone()),
        to: Some(to.clone()),
        interface: used.clone(),
        ..Detail::default()
    };
    let through = used
        .as_ref()
        .map(|used| format!("through `{used}`"))
        .unwrap_or_else(|| "directly".to_owned());
    let message = format!(
        "`{from}` depends on `{to}` {through}, but `{}` requires the interface `{interface}`",
        rule.text
    );
    let fix = format!("depend on `{interface}` instead of the concrete `{to}` type, and bind the implementation in the composition root");
    push(
        context,
        evaluation,
        index,
        rule,
        fact_index,
        fact,
        "require_dependency_violation",
        detail,
        builder,
        message,
        fix,
    );
}

#[expect(clippy::too_many_arguments, reason = "the parts of one candidate")]
fn push(
    context: &Context<'_>,
    evaluation: &mut Evaluation,
    index: usize,
    rule: &Rule,
    fact_index: usize,
    fact: &DomainFact,
    violation_type: &'static str,
    detail: Detail,
    builder: SliceBuilder,
    message: String,
    fix: String,
) {
    let Some(site) = Site::of(&context.facts, fact_index) else {
        return;
    };
    let suggested_fix = format!("{fix} (at {}:{})", site.file, site.line);
    let components: Vec<String> = detail
        .from
        .iter()
        .chain(detail.to.iter())
        .cloned()
        .collect();
    evaluation.candidates.push(Candidate {
        rules: vec![index],
        citation: Citation::rule(rule),
        violation_type,
        data: detail.data.clone(),
        shape: Shape::Architecture(detail),
        confidence: fact.confidence,
        site,
        occurrences: Vec::new(),
        chain: vec![fact_index],
        per_pair: false,
        message,
        suggested_fix,
        slice: builder.finish(),
        components,
        path_depth: None,
        fanout: None,
        cause: SliceCause::Generic,
    });
}
