//! `rule_coverage`: every rule with its status, the components it names and its first evidence.

use std::collections::{BTreeMap, BTreeSet};

use policies::model::{Rule, RuleBody};

use crate::verdict::RuleCoverage;

/// The components (and other entities) a rule names.
fn rule_components(rule: &Rule) -> Vec<String> {
    let names: Vec<String> = match &rule.body {
        RuleBody::Pair { from, to } | RuleBody::Dependency { from, to, .. } => {
            vec![from.clone(), to.clone()]
        }
        RuleBody::PairVia { from, to, via } => {
            let mut names = vec![from.clone(), to.clone()];
            names.extend(via.iter().cloned());
            names
        }
        RuleBody::DataTo { to, via, .. } => {
            let mut names = vec![to.clone()];
            names.extend(via.iter().cloned());
            names
        }
        RuleBody::OperationIn { entity, .. } => vec![entity.clone()],
        RuleBody::ContractImplementedBy { component, .. } => vec![component.clone()],
        RuleBody::Permission {
            target,
            target_kind: policies::model::TargetKind::Component,
            ..
        } => vec![target.clone()],
        RuleBody::EventOrder {
            scope,
            scope_kind: policies::model::TargetKind::Component,
            ..
        } => vec![scope.clone()],
        RuleBody::WorkflowAction {
            workflow, target, ..
        } => [workflow.clone(), target.clone()]
            .into_iter()
            .filter(|name| name != "*")
            .collect(),
        RuleBody::WorkflowPermission { workflow, .. }
        | RuleBody::WorkflowStepOrder { workflow, .. } => [workflow.clone()]
            .into_iter()
            .filter(|name| name != "*")
            .collect(),
        RuleBody::Resolve { component, .. } => vec![component.clone()],
        RuleBody::Jurisdiction { entity, .. } => vec![entity.clone()],
        RuleBody::Touched { required, trigger } => vec![required.clone(), trigger.clone()],
        RuleBody::Closed { component, allowed } => {
            let mut names = vec![component.clone()];
            names.extend(allowed.iter().cloned());
            names
        }
        RuleBody::Public { component, .. }
        | RuleBody::CycleWithin { component }
        | RuleBody::Unresolved { component } => vec![component.clone()],
        RuleBody::Cycle { groups } => groups
            .iter()
            .flat_map(|group| group.components.iter().cloned())
            .collect(),
        RuleBody::CycleFiles { components } => components.clone().unwrap_or_default(),
        _ => Vec::new(),
    };
    crate::families::sorted(names)
}

pub(super) fn coverage(
    model: &policies::model::Model,
    rule_status: &BTreeMap<usize, (&'static str, BTreeSet<String>)>,
    scope: &crate::input::scope::Scope,
    owners: &BTreeMap<String, String>,
) -> Vec<RuleCoverage> {
    let touched: BTreeSet<&str> = scope
        .changed_files
        .iter()
        .filter_map(|file| owners.get(file).map(String::as_str))
        .collect();
    let mut coverage: Vec<RuleCoverage> = model
        .rules
        .iter()
        .enumerate()
        .filter_map(|(index, rule)| {
            let components = rule_components(rule);
            let status = rule_status.get(&index);
            let meets_scope = scope.is_everything()
                || status.is_some()
                || components.is_empty() && !touched.is_empty()
                || components
                    .iter()
                    .any(|name| touched.contains(name.as_str()));
            if !meets_scope {
                return None;
            }
            let (status, evidence) = status
                .map(|(status, evidence)| (*status, evidence.iter().cloned().collect()))
                .unwrap_or(("pass", Vec::new()));
            Some(RuleCoverage {
                rule: rule.text.clone(),
                declaration: rule.declaration.clone(),
                components,
                evidence,
                status,
            })
        })
        .collect();
    coverage.sort_by(|a, b| {
        (&a.declaration, &a.rule, &a.components).cmp(&(&b.declaration, &b.rule, &b.components))
    });
    coverage
}
