//! WorkflowPermission: the `permissions:` each job is granted (its own, else the workflow's),
//! judged against deny rules and against the allow-lists of `workflow_policy` declarations.

use std::collections::{BTreeMap, BTreeSet};

use policies::facts::Fact;
use policies::model::{Effect, Rule, RuleBody, RuleKind, WorkflowCondition};
use policies::smt::{SliceBuilder, WorkflowMatch};

use super::{
    access_level, access_word, add_condition_facts, condition_holds, property, push,
    reference_matches, workflow_match, Workflow,
};
use crate::families::{
    builder_for, fact_name, rule_name, Citation, Context, Evaluation, WorkflowShape,
};

/// The effective grants of each job: its own permissions, else the top-level ones; jobs with
/// neither are not evaluated. `*` stands for `write-all`/`read-all`.
fn effective_grants<'a>(
    workflow: &Workflow<'a>,
) -> BTreeMap<String, Vec<(String, u8, usize, &'a Fact)>> {
    let grant_of = |fact: &Fact| -> Option<(String, u8)> {
        let permission = property(fact, "permission").unwrap_or_default();
        let access = property(fact, "access").unwrap_or_default();
        let word = |text: &str| match text {
            "write-all" => Some(("*".to_owned(), 2)),
            "read-all" => Some(("*".to_owned(), 1)),
            "{}" => Some(("*".to_owned(), 0)),
            _ => None,
        };
        word(&permission).or_else(|| word(&access)).or_else(|| {
            let level = match access.as_str() {
                "write" => 2,
                "read" => 1,
                _ => 0,
            };
            Some((permission.replace('_', "-"), level))
        })
    };
    let mut top_level = Vec::new();
    let mut per_job: BTreeMap<String, Vec<(String, u8, usize, &Fact)>> = BTreeMap::new();
    for (index, fact) in &workflow.permissions {
        let Some((permission, level)) = grant_of(fact) else {
            continue;
        };
        match property(fact, "job").filter(|job| !job.is_empty()) {
            Some(job) => per_job
                .entry(job)
                .or_default()
                .push((permission, level, *index, fact)),
            None => top_level.push((permission, level, *index, *fact)),
        }
    }
    let mut jobs: BTreeSet<String> = workflow.jobs.keys().cloned().collect();
    jobs.extend(per_job.keys().cloned());
    let mut grants = BTreeMap::new();
    for job in jobs {
        match per_job.get(&job) {
            Some(own) => {
                grants.insert(job, own.clone());
            }
            None if !top_level.is_empty() => {
                grants.insert(job, top_level.clone());
            }
            None => {}
        }
    }
    grants
}

fn level_of(grants: &[(String, u8, usize, &Fact)], permission: &str) -> Option<(u8, usize)> {
    grants
        .iter()
        .filter(|(granted, _, _, _)| granted == permission || granted == "*")
        .map(|(_, level, index, _)| (*level, *index))
        .max()
}

pub(super) fn permissions(
    context: &Context<'_>,
    file: &str,
    workflow: &Workflow<'_>,
    evaluation: &mut Evaluation,
) {
    let rules = permission_rules(context);
    for (job, grants) in effective_grants(workflow) {
        deny_grants(context, file, workflow, &job, &grants, &rules, evaluation);
        allow_list_grants(context, file, workflow, &job, &grants, &rules, evaluation);
    }
}

/// A `WorkflowPermission` rule: its index, the rule, its effect, workflow reference, permission
/// (`-` for `_`), access level and condition.
type PermissionRule<'a> = (
    usize,
    &'a Rule,
    Effect,
    &'a str,
    String,
    u8,
    Option<&'a WorkflowCondition>,
);

/// Every `WorkflowPermission` rule of the model.
fn permission_rules<'a>(context: &'a Context<'a>) -> Vec<PermissionRule<'a>> {
    context
        .rules_of(&[RuleKind::WorkflowPermission])
        .filter_map(|(index, rule)| match &rule.body {
            RuleBody::WorkflowPermission {
                effect,
                workflow,
                permission,
                access,
                condition,
            } => Some((
                index,
                rule,
                *effect,
                workflow.as_str(),
                permission.replace('_', "-"),
                access_level(*access),
                condition.as_ref(),
            )),
            _ => None,
        })
        .collect()
}

/// Deny rules: a grant at or above the denied access is a finding.
fn deny_grants(
    context: &Context<'_>,
    file: &str,
    workflow: &Workflow<'_>,
    job: &str,
    grants: &[(String, u8, usize, &Fact)],
    rules: &[PermissionRule<'_>],
    evaluation: &mut Evaluation,
) {
    for (index, rule, effect, reference, permission, access, condition) in rules {
        if *effect != Effect::Deny
            || *access == 0
            || !reference_matches(reference, workflow)
            || condition.is_some_and(|condition| !condition_holds(workflow, condition))
        {
            continue;
        }
        let hits: Vec<(String, u8, usize)> = if permission == "*" {
            grants
                .iter()
                .filter(|(_, level, _, _)| *level >= *access)
                .map(|(name, level, index, _)| (name.clone(), *level, *index))
                .collect()
        } else {
            level_of(grants, permission)
                .filter(|(level, _)| *level >= *access)
                .map(|(level, index)| vec![(permission.clone(), level, index)])
                .unwrap_or_default()
        };
        for (granted_permission, level, fact_index) in hits {
            let Some(fact) = context.facts.get(fact_index) else {
                continue;
            };
            let mut builder = builder_for(rule);
            builder.deny_permission_grant(
                rule_name(rule),
                (permission != "*").then_some(permission.as_str()),
                *access,
                &workflow_match(reference, *condition),
            );
            let smt_permission = if permission == "*" {
                granted_permission.as_str()
            } else {
                permission.as_str()
            };
            builder.grant_fact(
                fact_name(fact),
                Some(fact.id().to_owned()),
                &format!("{file}#{job}"),
                &workflow.component,
                smt_permission,
                level,
            );
            add_condition_facts(
                &mut builder,
                workflow,
                &condition.iter().copied().collect::<Vec<_>>(),
            );
            builder.distinct_names();
            let shown = if granted_permission == "*" {
                "every permission".to_owned()
            } else {
                format!("`{granted_permission}`")
            };
            let message = format!(
                "job `{job}` of `{}` ({file}) is granted {shown} at `{}`, which `{}` forbids",
                workflow.component,
                access_word(level),
                rule.text
            );
            let fix = format!("lower the `permissions:` of job `{job}` in {file} to what it needs (e.g. `contents: read`)");
            let shape = WorkflowShape {
                workflow: workflow.component.clone(),
                job: job.to_owned(),
                permission: Some(granted_permission.clone()),
                access: Some(access_word(level).to_owned()),
                ..WorkflowShape::default()
            };
            push(
                context,
                evaluation,
                vec![*index],
                Citation::rule(rule),
                fact_index,
                shape,
                builder,
                message,
                fix,
            );
        }
    }
}

/// Allow-lists, per granted permission that allow rules name: a grant no allow rule covers is a
/// finding, cited by the declaration.
fn allow_list_grants(
    context: &Context<'_>,
    file: &str,
    workflow: &Workflow<'_>,
    job: &str,
    grants: &[(String, u8, usize, &Fact)],
    rules: &[PermissionRule<'_>],
    evaluation: &mut Evaluation,
) {
    let granted: BTreeSet<String> = grants
        .iter()
        .map(|(permission, _, _, _)| permission.clone())
        .collect();
    for permission in &granted {
        let allows: Vec<_> = rules
            .iter()
            .filter(|rule| {
                rule.2 == Effect::Allow
                    && (rule.4 == *permission || rule.4 == "*" && permission == "*")
            })
            .collect();
        let Some((level, fact_index)) = level_of(grants, permission) else {
            continue;
        };
        if allows.is_empty() || level == 0 {
            continue;
        }
        let covered = allows.iter().any(|rule| {
            reference_matches(rule.3, workflow)
                && rule
                    .6
                    .is_none_or(|condition| condition_holds(workflow, condition))
                && rule.5 >= level
        });
        let Some(declaration) = allows
            .first()
            .and_then(|rule| crate::families::declaration(context.model, &rule.1.declaration))
        else {
            continue;
        };
        let Some(fact) = context.facts.get(fact_index) else {
            continue;
        };
        if covered {
            continue;
        }
        let what = format!(
            "permission {permission}: {} for {}/{job}",
            access_word(level),
            workflow.component
        );
        let citation = Citation::allow_list(
            RuleKind::WorkflowPermission,
            "workflow_policy",
            &declaration.name,
            &declaration.location,
            &what,
        );
        let mut builder =
            SliceBuilder::new(&format!("{}: {}", citation.declaration, citation.text));
        let matchers: Vec<(WorkflowMatch, u8)> = allows
            .iter()
            .map(|rule| (workflow_match(rule.3, rule.6), rule.5))
            .collect();
        builder.permission_allow_list(
            format!(
                "allow-list workflow_policy {}: {}",
                declaration.name,
                allows
                    .iter()
                    .map(|rule| rule.1.text.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            permission,
            &matchers,
        );
        builder.grant_fact(
            fact_name(fact),
            Some(fact.id().to_owned()),
            &format!("{file}#{job}"),
            &workflow.component,
            permission,
            level,
        );
        let conditions: Vec<&WorkflowCondition> = allows.iter().filter_map(|rule| rule.6).collect();
        add_condition_facts(&mut builder, workflow, &conditions);
        builder.distinct_names();
        let message = format!("job `{job}` of `{}` ({file}) is granted `{permission}: {}`, which no allow rule of `{}` covers", workflow.component, access_word(level), declaration.name);
        let fix = format!(
            "grant job `{job}` in {file} at most what `{}` allows for `{permission}`",
            declaration.name
        );
        let shape = WorkflowShape {
            workflow: workflow.component.clone(),
            job: job.to_owned(),
            permission: Some(permission.clone()),
            access: Some(access_word(level).to_owned()),
            ..WorkflowShape::default()
        };
        let rules_covered = allows.iter().map(|rule| rule.0).collect();
        push(
            context,
            evaluation,
            rules_covered,
            citation,
            fact_index,
            shape,
            builder,
            message,
            fix,
        );
    }
}
