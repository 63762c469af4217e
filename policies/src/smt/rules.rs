//! Permanent constraints: the rule part of every slice, rendered alone (no facts).
//!
//! [`permanent_constraint`] calls the same builder functions, with the same arguments and in the
//! same order, as the engine's family for the rule's kind, and stops before the first fact: the
//! result is the rule assertion(s) and the axioms the family adds to every slice of that rule
//! (closures, state members, `distinct` axioms where the family asserts them). Without facts
//! every such slice is satisfiable.
//!
//! Allow-lists are cited by their declaration, not by one rule, so an allow rule renders the
//! allow-list(s) it takes part in, built from every allow rule that the family would pool:
//!
//! | rule kind | permanent constraint |
//! |---|---|
//! | AllowTransition | the allow-list of the machine (every allow rule of the machine), with the state members |
//! | AllowPermission | one allow-list per operation the rule covers, over the allow rules of the permission that cover it; for a `*` rule, one per operation that an allow rule names and one for every other operation; none for an operation that a `*` subject makes public |
//! | WorkflowAction allow | the allow-list of the action and target (every allow rule with both) |
//! | WorkflowPermission allow | the allow-list of the permission (every allow rule naming it) |
//!
//! A rule that the family never evaluates gives a slice without assertions: an operation made
//! public by `allow * -> op`, and `deny permission … : none` (`rule-never-fires`).
//! RequireContractImplementedBy is compile-time only and has none (`None`).

use crate::model::{
    Effect, Lifetime, Literal, Model, Rule, RuleBody, RuleKind, TargetKind, ValueExpr,
    WorkflowAccess, WorkflowActionKind, WorkflowCondition,
};

use super::event_policy::EventScope;
use super::slice::{Slice, SliceBuilder};
use super::value_policy::SmtValue;
use super::workflow_policy::WorkflowMatch;

/// The core name of a rule assertion: `rule <declaration>: <text>`.
pub fn rule_name(rule: &Rule) -> String {
    format!("rule {}: {}", rule.declaration, rule.text)
}

/// The comment line of a rule's slices: `<declaration>: <text>`.
fn rule_comment(rule: &Rule) -> String {
    format!("{}: {}", rule.declaration, rule.text)
}

/// The rule's permanent constraint as a slice without facts, or `None` for the compile-time
/// kind RequireContractImplementedBy (and for a body that does not fit the kind).
pub fn permanent_constraint(rule: &Rule, model: &Model) -> Option<Slice> {
    let name = rule_name(rule);
    let mut builder = SliceBuilder::new(&rule_comment(rule));
    match (rule.kind, &rule.body) {
        (RuleKind::RequireContractImplementedBy, _) => return None,
        (RuleKind::DenyFlow, RuleBody::Pair { from, to }) => {
            builder.deny_edge(name, from, to);
        }
        (RuleKind::DenyReach, RuleBody::Pair { from, to }) => {
            builder.deny_reach(name, from, to);
        }
        (RuleKind::RequireFlowVia, RuleBody::PairVia { from, to, via }) => {
            if via.is_empty() {
                builder.deny_reach(name, from, to);
            } else {
                builder.deny_bypass(name, from, to);
            }
        }
        (
            RuleKind::DenyDataFlow | RuleKind::RequireDataFlowVia,
            RuleBody::DataTo { data, to, via },
        ) => {
            builder.deny_data_reach(name, data, to, !via.is_empty());
        }
        (RuleKind::DenyUnauthenticatedFlow, RuleBody::Pair { from, to }) => {
            builder.deny_unprotected_flow(name, "unauthenticated", from, to);
            builder.distinct_names();
        }
        (RuleKind::DenyUnencryptedFlow, RuleBody::Pair { from, to }) => {
            builder.deny_unprotected_flow(name, "unencrypted", from, to);
            builder.distinct_names();
        }
        (
            RuleKind::RequireOperationIn | RuleKind::RequireOperationOnDataIn,
            RuleBody::OperationIn {
                operation,
                data,
                entity,
            },
        ) => {
            builder.require_placement(name, operation, data.as_deref(), entity);
            builder.distinct_names();
        }
        (
            RuleKind::RequireDependencyViaInterface,
            RuleBody::Dependency {
                from,
                to,
                interface,
            },
        ) => {
            builder.require_interface(name, from, to, interface);
            builder.distinct_names();
        }
        (RuleKind::DenyTransition | RuleKind::AllowTransition, RuleBody::Transition { .. }) => {
            transition(&mut builder, rule, model)?;
        }
        (RuleKind::DenyPermission, RuleBody::Permission { operations, .. }) => {
            builder.deny_permission(name, operations, permission_role(&rule.body).as_deref());
            builder.distinct_names();
        }
        (RuleKind::AllowPermission, RuleBody::Permission { operations, .. }) => {
            return Some(allow_permission(rule, operations, model));
        }
        (RuleKind::RequireValue, RuleBody::Value { require, when }) => {
            let (requirement, when) = (value_triple(require), when.as_ref().map(value_triple));
            builder.require_value(
                name,
                requirement.as_parts(),
                when.as_ref().map(ValueTriple::as_parts),
            );
        }
        (
            RuleKind::RequireBefore | RuleKind::EnsureAfter,
            RuleBody::OperationCondition { condition, .. },
        ) => {
            builder.require_value(name, value_triple(condition).as_parts(), None);
        }
        (
            RuleKind::RequirePrecededBy,
            RuleBody::EventOrder {
                event,
                preceded_by,
                scope,
                scope_kind,
            },
        ) => {
            let scope = match scope_kind {
                TargetKind::Data => EventScope::Data(scope.clone()),
                TargetKind::Component => EventScope::Component(scope.clone()),
            };
            builder.require_preceded_by(name, event, preceded_by, &scope);
            builder.distinct_names();
        }
        (RuleKind::WorkflowAction, RuleBody::WorkflowAction { .. }) => {
            return workflow_action(rule, model);
        }
        (RuleKind::WorkflowPermission, RuleBody::WorkflowPermission { .. }) => {
            return workflow_permission(rule, model);
        }
        (RuleKind::WorkflowStepOrder, RuleBody::WorkflowStepOrder { .. }) => {
            builder.require_step_order(name);
            builder.distinct_names();
        }
        (RuleKind::DenyInject, RuleBody::Pair { from, to }) => {
            builder.deny_inject(name, from, to);
            builder.distinct_names();
        }
        (RuleKind::DenyInjectReach, RuleBody::Pair { from, to }) => {
            builder.deny_inject_reach(name, from, to);
            builder.distinct_names();
        }
        (RuleKind::DenyLifetime | RuleKind::DenyLifetimeReach, RuleBody::Lifetime { from, to }) => {
            let reach = rule.kind == RuleKind::DenyLifetimeReach;
            builder.deny_lifetime(name, lifetime_word(*from), lifetime_word(*to), reach);
            builder.distinct_names();
        }
        (RuleKind::DenyResolve, RuleBody::Resolve { service, component }) => {
            builder.deny_resolve(
                name,
                component,
                (service != "*").then_some(service.as_str()),
            );
            builder.distinct_names();
        }
        (
            RuleKind::DenyClassification,
            RuleBody::Classification {
                classification,
                trust,
            },
        ) => {
            builder.deny_classification(name, classification, trust.as_str());
            builder.distinct_names();
        }
        (
            RuleKind::DenyJurisdiction,
            RuleBody::Jurisdiction {
                jurisdiction,
                entity,
            },
        ) => {
            builder.deny_jurisdiction(name, jurisdiction, entity);
            builder.distinct_names();
        }
        (RuleKind::RequireAuth, RuleBody::TrustBoundary { from, to }) => {
            builder.require_auth(name, from.as_str(), to.as_str());
            builder.distinct_names();
        }
        (
            RuleKind::DenyFlowWhenData,
            RuleBody::TrustDataFlow {
                from,
                to,
                classification,
            },
        ) => {
            builder.deny_flow_when_data(name, from.as_str(), to.as_str(), classification);
            builder.distinct_names();
        }
        (RuleKind::RequireTouched, RuleBody::Touched { required, trigger }) => {
            builder.require_touched(name, required, trigger);
            builder.touched_axiom();
            builder.distinct_names();
        }
        (RuleKind::DependsOn, RuleBody::Closed { component, allowed }) => {
            builder.deny_undeclared(name, component, allowed);
            builder.distinct_names();
        }
        (RuleKind::PublicInterface, RuleBody::Public { component, .. }) => {
            builder.require_public(name, component);
        }
        (RuleKind::DenyCycle, RuleBody::Cycle { .. }) => {
            builder.deny_cycle(name, None);
        }
        (RuleKind::DenyCycle, RuleBody::CycleWithin { component }) => {
            builder.deny_cycle(name, Some(std::slice::from_ref(component)));
        }
        (RuleKind::DenyCycle, RuleBody::CycleFiles { components }) => {
            builder.deny_cycle(name, components.as_deref());
        }
        (RuleKind::DenyUnresolvedImport, RuleBody::Unresolved { component }) => {
            builder.deny_unresolved(name, component);
        }
        _ => return None,
    }
    Some(builder.finish())
}

/// The machine rules: a deny rule, or the allow-list of the rule's machine, with the enum's
/// members and the `distinct` axioms.
fn transition(builder: &mut SliceBuilder, rule: &Rule, model: &Model) -> Option<()> {
    let RuleBody::Transition {
        machine: machine_name,
        from,
        to,
        ..
    } = &rule.body
    else {
        return None;
    };
    let machine = model
        .machines
        .iter()
        .find(|machine| machine.name == *machine_name)?;
    if rule.kind == RuleKind::DenyTransition {
        builder.deny_transition(rule_name(rule), state(from), state(to));
    } else {
        let allows: Vec<&Rule> = model
            .rules
            .iter()
            .filter(|other| {
                other.kind == RuleKind::AllowTransition
                    && matches!(&other.body, RuleBody::Transition { machine, .. } if machine == machine_name)
            })
            .collect();
        let pairs: Vec<(Option<String>, Option<String>)> = allows
            .iter()
            .filter_map(|allow| match &allow.body {
                RuleBody::Transition { from, to, .. } => {
                    Some((state(from).map(str::to_owned), state(to).map(str::to_owned)))
                }
                _ => None,
            })
            .collect();
        builder.transition_allow_list(
            format!(
                "allow-list machine {}: {}",
                machine.name,
                allows
                    .iter()
                    .map(|allow| allow.text.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            &pairs,
        );
    }
    let members: Vec<String> = model
        .enum_named(&machine.enum_name)
        .map(|declared| declared.values.clone())
        .unwrap_or_default();
    builder.state_members(&machine.enum_name, &members);
    builder.distinct_names();
    Some(())
}

/// A machine state, `None` for `*`.
fn state(word: &str) -> Option<&str> {
    (word != "*").then_some(word)
}

/// The `E.V` role of a permission rule, `None` for the `*` subject.
fn permission_role(body: &RuleBody) -> Option<String> {
    match body {
        RuleBody::Permission {
            role_enum: Some(role_enum),
            role: Some(role),
            ..
        } => Some(format!("{role_enum}.{role}")),
        _ => None,
    }
}

/// An allow rule of a permission: its role (`None` for `*`) and operations.
struct PermissionAllow<'a> {
    role: Option<String>,
    operations: &'a [String],
}

impl PermissionAllow<'_> {
    fn is_wildcard(&self) -> bool {
        self.operations.iter().any(|operation| operation == "*")
    }

    fn covers(&self, operation: &str) -> bool {
        self.is_wildcard() || self.operations.iter().any(|covered| covered == operation)
    }
}

/// The allow-lists an AllowPermission rule takes part in (one per operation it covers).
fn allow_permission(rule: &Rule, operations: &[String], model: &Model) -> Slice {
    let allows: Vec<PermissionAllow<'_>> = model
        .rules
        .iter()
        .filter(|other| {
            other.kind == RuleKind::AllowPermission && other.declaration == rule.declaration
        })
        .filter_map(|other| match &other.body {
            RuleBody::Permission { operations, .. } => Some(PermissionAllow {
                role: permission_role(&other.body),
                operations,
            }),
            _ => None,
        })
        .collect();
    let is_wildcard = operations.iter().any(|operation| operation == "*");
    // The operations that some allow rule names, in first-seen order.
    let mut named: Vec<String> = Vec::new();
    for allow in &allows {
        for operation in allow.operations {
            if operation != "*" && !named.contains(operation) {
                named.push(operation.clone());
            }
        }
    }
    let covered: Vec<String> = if is_wildcard {
        named.clone()
    } else {
        operations.to_vec()
    };
    let roles_for = |covering: &dyn Fn(&PermissionAllow<'_>) -> bool| -> Option<Vec<String>> {
        let covering: Vec<&PermissionAllow<'_>> =
            allows.iter().filter(|allow| covering(allow)).collect();
        if covering.iter().any(|allow| allow.role.is_none()) {
            return None;
        }
        Some(
            covering
                .iter()
                .filter_map(|allow| allow.role.clone())
                .collect(),
        )
    };
    let mut lists: Vec<(Option<String>, Vec<String>)> = covered
        .iter()
        .filter_map(|operation| {
            roles_for(&|allow: &PermissionAllow<'_>| allow.covers(operation))
                .map(|roles| (Some(operation.clone()), roles))
        })
        .collect();
    if is_wildcard {
        if let Some(roles) = roles_for(&|allow: &PermissionAllow<'_>| allow.is_wildcard()) {
            lists.push((None, roles));
        }
    }
    let comment = if lists.is_empty() {
        format!(
            "{} (no runtime constraint: `*` makes every covered operation public)",
            rule_comment(rule)
        )
    } else {
        rule_comment(rule)
    };
    let mut builder = SliceBuilder::new(&comment);
    for (operation, roles) in &lists {
        let needs = roles.join(" or ");
        match operation {
            Some(operation) => builder.allow_permission(
                format!("allow-list {}: {operation} needs {needs}", rule.declaration),
                std::slice::from_ref(operation),
                roles,
            ),
            None => builder.allow_other_operations(
                format!(
                    "allow-list {}: every other operation needs {needs}",
                    rule.declaration
                ),
                &named,
                roles,
            ),
        }
    }
    if !lists.is_empty() {
        builder.distinct_names();
    }
    builder.finish()
}

/// The text of a workflow condition, e.g. `tag v*`.
fn condition_text(condition: &WorkflowCondition) -> String {
    match condition {
        WorkflowCondition::Branch { pattern } => format!("branch {pattern}"),
        WorkflowCondition::Tag { pattern } => format!("tag {pattern}"),
        WorkflowCondition::PullRequest => "pull_request".to_owned(),
    }
}

fn workflow_match(reference: &str, condition: Option<&WorkflowCondition>) -> WorkflowMatch {
    WorkflowMatch {
        workflow: (reference != "*").then(|| reference.to_owned()),
        condition: condition.map(condition_text),
    }
}

fn action_word(action: WorkflowActionKind) -> &'static str {
    match action {
        WorkflowActionKind::Publish => "publish",
        WorkflowActionKind::Deploy => "deploy",
        WorkflowActionKind::Release => "release",
    }
}

fn access_level(access: WorkflowAccess) -> u8 {
    match access {
        WorkflowAccess::None => 0,
        WorkflowAccess::Read => 1,
        WorkflowAccess::Write => 2,
    }
}

/// The name of an allow-list of a workflow policy: `allow-list workflow_policy <P>: <texts>`.
fn workflow_allow_list_name(allows: &[&Rule]) -> String {
    let declaration = allows
        .first()
        .map(|rule| rule.declaration.as_str())
        .unwrap_or_default();
    format!(
        "allow-list workflow_policy {declaration}: {}",
        allows
            .iter()
            .map(|rule| rule.text.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    )
}

/// WorkflowAction: a deny rule, or the allow-list of its action and target.
fn workflow_action(rule: &Rule, model: &Model) -> Option<Slice> {
    let RuleBody::WorkflowAction {
        effect,
        action,
        workflow,
        target,
        condition,
    } = &rule.body
    else {
        return None;
    };
    let action_name = action_word(*action);
    let mut builder = SliceBuilder::new(&rule_comment(rule));
    match effect {
        Effect::Deny => builder.deny_action(
            rule_name(rule),
            action_name,
            target,
            &workflow_match(workflow, condition.as_ref()),
        ),
        Effect::Allow => {
            let allows: Vec<&Rule> = model
                .rules
                .iter()
                .filter(|other| match &other.body {
                    RuleBody::WorkflowAction {
                        effect: Effect::Allow,
                        action: other_action,
                        target: other_target,
                        ..
                    } => {
                        other.kind == RuleKind::WorkflowAction
                            && other_action == action
                            && other_target == target
                    }
                    _ => false,
                })
                .collect();
            let matchers: Vec<WorkflowMatch> = allows
                .iter()
                .filter_map(|allow| match &allow.body {
                    RuleBody::WorkflowAction {
                        workflow,
                        condition,
                        ..
                    } => Some(workflow_match(workflow, condition.as_ref())),
                    _ => None,
                })
                .collect();
            builder.action_allow_list(
                workflow_allow_list_name(&allows),
                action_name,
                target,
                &matchers,
            );
        }
    }
    builder.distinct_names();
    Some(builder.finish())
}

/// WorkflowPermission: a deny rule, or the allow-list of its permission.
fn workflow_permission(rule: &Rule, model: &Model) -> Option<Slice> {
    let RuleBody::WorkflowPermission {
        effect,
        workflow,
        permission,
        access,
        condition,
    } = &rule.body
    else {
        return None;
    };
    let permission = permission.replace('_', "-");
    let level = access_level(*access);
    match effect {
        Effect::Deny if level == 0 => {
            let comment = format!(
                "{} (no runtime constraint: a deny at `none` never fires)",
                rule_comment(rule)
            );
            Some(SliceBuilder::new(&comment).finish())
        }
        Effect::Deny => {
            let mut builder = SliceBuilder::new(&rule_comment(rule));
            builder.deny_permission_grant(
                rule_name(rule),
                (permission != "*").then_some(permission.as_str()),
                level,
                &workflow_match(workflow, condition.as_ref()),
            );
            builder.distinct_names();
            Some(builder.finish())
        }
        Effect::Allow => {
            let allows: Vec<(&Rule, WorkflowMatch, u8)> = model
                .rules
                .iter()
                .filter_map(|other| match &other.body {
                    RuleBody::WorkflowPermission {
                        effect: Effect::Allow,
                        workflow,
                        permission: other_permission,
                        access,
                        condition,
                    } if other.kind == RuleKind::WorkflowPermission
                        && other_permission.replace('_', "-") == permission =>
                    {
                        Some((
                            other,
                            workflow_match(workflow, condition.as_ref()),
                            access_level(*access),
                        ))
                    }
                    _ => None,
                })
                .collect();
            let rules: Vec<&Rule> = allows.iter().map(|(allow, _, _)| *allow).collect();
            let matchers: Vec<(WorkflowMatch, u8)> = allows
                .into_iter()
                .map(|(_, matcher, level)| (matcher, level))
                .collect();
            let mut builder = SliceBuilder::new(&rule_comment(rule));
            builder.permission_allow_list(workflow_allow_list_name(&rules), &permission, &matchers);
            builder.distinct_names();
            Some(builder.finish())
        }
    }
}

fn lifetime_word(lifetime: Lifetime) -> &'static str {
    match lifetime {
        Lifetime::Singleton => "singleton",
        Lifetime::Scoped => "scoped",
        Lifetime::Transient => "transient",
    }
}

/// `Data.path rel literal` as the builder's parts.
struct ValueTriple {
    data: String,
    path: String,
    relation: &'static str,
    value: SmtValue,
}

impl ValueTriple {
    fn as_parts(&self) -> (&str, &str, &str, &SmtValue) {
        (&self.data, &self.path, self.relation, &self.value)
    }
}

fn value_triple(expression: &ValueExpr) -> ValueTriple {
    ValueTriple {
        data: expression.data.clone(),
        path: expression.path.join("."),
        relation: expression.relation.as_str(),
        value: match &expression.literal {
            Literal::Number(number) => SmtValue::Number(number.clone()),
            Literal::String(text) => SmtValue::Text(text.clone()),
            Literal::Bool(value) => SmtValue::Bool(*value),
            Literal::Null => SmtValue::Null,
        },
    }
}

#[cfg(test)]
mod tests;
