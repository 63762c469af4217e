//! permission: AllowPermission and DenyPermission, judged on `performs` and `checks_role`
//! facts (see `permission` in policies/LANGUAGE.md): governed facts, applicable checks, role matching, deny beats
//! allow, and allow-lists encoded closed-world.

use std::collections::BTreeSet;

use policies::facts::{Fact, FactKind};
use policies::model::{Permission, Rule, RuleBody, RuleKind, TargetKind};

use super::{
    builder_for, fact_name, rule_name, Candidate, Citation, Context, Detail, Evaluation, FactRef,
    Family, Shape, Site, SliceCause,
};
use policies::smt::SliceBuilder;

/// The family.
pub const FAMILY: Family = Family {
    kinds: &[RuleKind::AllowPermission, RuleKind::DenyPermission],
    evaluate,
};

/// The parts of a permission rule.
struct PermissionRule<'a> {
    index: usize,
    rule: &'a Rule,
    /// `E.V`, or `None` for the `*` subject.
    role: Option<String>,
    role_member: Option<String>,
    role_enum: Option<String>,
    operations: &'a [String],
}

impl PermissionRule<'_> {
    fn covers(&self, operation: &str) -> bool {
        self.operations
            .iter()
            .any(|covered| covered == "*" || covered == operation)
    }

    /// A check's role r matches `E.V` when r is `V`, `E.V` or `E__V` (see `permission` in policies/LANGUAGE.md).
    fn matches_check(&self, checked: &str) -> bool {
        match (&self.role_enum, &self.role_member) {
            (Some(role_enum), Some(member)) => {
                checked == member
                    || checked == format!("{role_enum}.{member}")
                    || checked == format!("{role_enum}__{member}")
            }
            _ => true,
        }
    }
}

fn rules_of<'a>(context: &'a Context<'_>, permission: &Permission) -> Vec<PermissionRule<'a>> {
    context
        .rules_of(FAMILY.kinds)
        .filter(|(_, rule)| rule.declaration == permission.name)
        .filter_map(|(index, rule)| match &rule.body {
            RuleBody::Permission {
                role_enum,
                role,
                operations,
                ..
            } => Some(PermissionRule {
                index,
                rule,
                role: match (role_enum, role) {
                    (Some(role_enum), Some(role)) => Some(format!("{role_enum}.{role}")),
                    _ => None,
                },
                role_member: role.clone(),
                role_enum: role_enum.clone(),
                operations,
            }),
            _ => None,
        })
        .collect()
}

/// True when the check applies to the `performs` fact (see `permission` in policies/LANGUAGE.md).
fn applies(check: &Fact, performs: &Fact) -> bool {
    if check.subject != performs.subject {
        return false;
    }
    let same_file = check.evidence.file == performs.evidence.file;
    match (&check.evidence.scope, &performs.evidence.scope) {
        (_, None) => true,
        (None, Some(_)) => same_file,
        (Some(check_scope), Some(scope)) => {
            same_file && (scope == check_scope || scope.starts_with(&format!("{check_scope}.")))
        }
    }
}

fn evaluate(context: &Context<'_>, evaluation: &mut Evaluation) {
    let checks: Vec<&Fact> = context
        .facts
        .of_kind(FactKind::ChecksRole)
        .map(|(_, fact)| fact)
        .collect();
    for permission in &context.model.permissions {
        let rules = rules_of(context, permission);
        if rules.is_empty() {
            continue;
        }
        for (fact_index, performs) in context.facts.of_kind(FactKind::Performs) {
            let governed = match permission.target_kind {
                TargetKind::Data => {
                    performs.property_str("data") == Some(permission.target.as_str())
                }
                TargetKind::Component => {
                    performs.subject.as_deref() == Some(permission.target.as_str())
                }
            };
            let Some(operation) = performs.property_str("operation") else {
                continue;
            };
            if !governed || !context.in_scope(fact_index) {
                continue;
            }
            let applicable: Vec<&Fact> = checks
                .iter()
                .copied()
                .filter(|check| applies(check, performs))
                .collect();
            // The rule roles the applicable checks grant.
            let granted: BTreeSet<String> = rules
                .iter()
                .filter_map(|rule| {
                    let role = rule.role.clone()?;
                    applicable
                        .iter()
                        .any(|check| {
                            check
                                .property_str("role")
                                .is_some_and(|checked| rule.matches_check(checked))
                        })
                        .then_some(role)
                })
                .collect();
            let granted: Vec<String> = granted.into_iter().collect();
            let denied = rules.iter().find(|rule| {
                rule.rule.kind == RuleKind::DenyPermission
                    && rule.covers(operation)
                    && rule.role.as_ref().is_none_or(|role| granted.contains(role))
            });
            let governed = Governed {
                permission,
                performs,
                fact_index,
                operation,
                granted,
                applicable,
            };
            if let Some(deny) = denied {
                deny_finding(context, evaluation, &governed, deny);
                continue;
            }
            allow_list_finding(context, evaluation, &governed, &rules);
        }
    }
}

/// A `performs` fact a permission governs, with the roles its applicable checks grant.
struct Governed<'a> {
    permission: &'a Permission,
    performs: &'a Fact,
    fact_index: usize,
    operation: &'a str,
    granted: Vec<String>,
    applicable: Vec<&'a Fact>,
}

/// A deny rule that covers the operation for a granted role (or every role): a finding.
fn deny_finding(
    context: &Context<'_>,
    evaluation: &mut Evaluation,
    governed: &Governed<'_>,
    deny: &PermissionRule<'_>,
) {
    let Governed {
        permission,
        performs,
        fact_index,
        operation,
        granted,
        applicable,
    } = governed;
    let (permission, performs, fact_index, operation) =
        (*permission, *performs, *fact_index, *operation);
    let mut builder = builder_for(deny.rule);
    builder.deny_permission(rule_name(deny.rule), deny.operations, deny.role.as_deref());
    add_facts(
        &mut builder,
        performs,
        fact_index,
        operation,
        granted,
        applicable,
    );
    let role_text = deny.role.clone().unwrap_or_else(|| "*".to_owned());
    let message = match &deny.role {
        Some(role) => format!(
            "`{operation}` on `{}` is granted to the denied role `{role}` ({})",
            permission.target, deny.rule.text
        ),
        None => format!(
            "`{operation}` on `{}` is denied to every role ({})",
            permission.target, deny.rule.text
        ),
    };
    push(
        context,
        evaluation,
        vec![deny.index],
        Citation::rule(deny.rule),
        permission,
        performs,
        fact_index,
        operation,
        Some(role_text),
        message,
        builder,
    );
}

/// The allow rules that cover the operation: a finding when none of their roles is granted.
fn allow_list_finding(
    context: &Context<'_>,
    evaluation: &mut Evaluation,
    governed: &Governed<'_>,
    rules: &[PermissionRule<'_>],
) {
    let Governed {
        permission,
        performs,
        fact_index,
        operation,
        granted,
        applicable,
    } = governed;
    let (permission, performs, fact_index, operation) =
        (*permission, *performs, *fact_index, *operation);
    let allows: Vec<&PermissionRule<'_>> = rules
        .iter()
        .filter(|rule| rule.rule.kind == RuleKind::AllowPermission && rule.covers(operation))
        .collect();
    if allows.is_empty() || allows.iter().any(|rule| rule.role.is_none()) {
        return;
    }
    let allowed_roles: Vec<String> = allows.iter().filter_map(|rule| rule.role.clone()).collect();
    if allowed_roles.iter().any(|role| granted.contains(role)) {
        return;
    }
    let what = format!(
        "{operation} on {} without {}",
        permission.target,
        allowed_roles.join(" or ")
    );
    let citation = Citation::allow_list(
        RuleKind::AllowPermission,
        "permission",
        &permission.name,
        &permission.location,
        &what,
    );
    let mut builder = SliceBuilder::new(&format!("{}: {}", citation.declaration, citation.text));
    builder.allow_permission(
        format!(
            "allow-list {}: {operation} needs {}",
            permission.name,
            allowed_roles.join(" or ")
        ),
        &[operation.to_owned()],
        &allowed_roles,
    );
    add_facts(
        &mut builder,
        performs,
        fact_index,
        operation,
        granted,
        applicable,
    );
    let checked: Vec<String> = applicable
        .iter()
        .filter_map(|check| check.property_str("role").map(str::to_owned))
        .collect();
    let message = if checked.is_empty() {
        format!(
            "`{operation}` on `{}` has no role check, and `{}` allows it only for {}",
            permission.target,
            permission.name,
            allowed_roles.join(" or ")
        )
    } else {
        format!(
            "`{operation}` on `{}` checks {} but `{}` allows it only for {}",
            permission.target,
            checked.join(", "),
            permission.name,
            allowed_roles.join(" or ")
        )
    };
    let rules_covered = allows.iter().map(|rule| rule.index).collect();
    push(
        context,
        evaluation,
        rules_covered,
        citation,
        permission,
        performs,
        fact_index,
        operation,
        checked.first().cloned(),
        message,
        builder,
    );
}

fn add_facts(
    builder: &mut SliceBuilder,
    performs: &Fact,
    fact_index: usize,
    operation: &str,
    granted: &[String],
    applicable: &[&Fact],
) {
    let _ = fact_index;
    let act = performs.id.clone();
    builder.performs_fact(
        fact_name(FactRef::Graph(performs)),
        Some(performs.id.clone()),
        &act,
        operation,
    );
    let checks: Vec<String> = applicable
        .iter()
        .map(|check| {
            format!(
                "{} ({})",
                check.property_str("role").unwrap_or_default(),
                check.id
            )
        })
        .collect();
    builder.grants_fact(
        format!(
            "fact the applicable role checks of {} grant exactly {{{}}} (checks: {})",
            performs.id,
            granted.join(", "),
            if checks.is_empty() {
                "none".to_owned()
            } else {
                checks.join(", ")
            }
        ),
        &act,
        granted,
    );
    builder.distinct_names();
}

#[expect(
    clippy::too_many_arguments,
    reason = "the parts of one permission candidate"
)]
fn push(
    context: &Context<'_>,
    evaluation: &mut Evaluation,
    rules: Vec<usize>,
    citation: Citation,
    permission: &Permission,
    performs: &Fact,
    fact_index: usize,
    operation: &str,
    role: Option<String>,
    message: String,
    builder: SliceBuilder,
) {
    let Some(site) = Site::of(&context.facts, fact_index) else {
        return;
    };
    let component = performs.subject.as_deref().unwrap_or_default().to_owned();
    let suggested_fix = format!(
        "guard `{operation}` at {}:{} with a role check for a role that `{}` allows (an authorization attribute or an explicit check in the same method)",
        site.file, site.line, permission.name
    );
    let detail = Detail {
        from: Some(component.clone()),
        operation: Some(operation.to_owned()),
        data: performs.property_str("data").map(str::to_owned),
        role,
        ..Detail::default()
    };
    evaluation.candidates.push(Candidate {
        rules,
        citation,
        violation_type: "permission_violation",
        data: detail.data.clone(),
        shape: Shape::Architecture(detail),
        confidence: performs.confidence,
        site,
        occurrences: Vec::new(),
        chain: vec![fact_index],
        per_pair: false,
        message,
        suggested_fix,
        slice: builder.finish(),
        components: vec![component],
        path_depth: None,
        fanout: None,
        cause: SliceCause::Generic,
    });
}
