//! `workflow_policy`: what CI workflows may publish, deploy or release, their permissions, step order.
//!
//! # What it checks
//! Workflow references are components or `*` (`unknown-component`); action targets are nodes
//! (`unknown-node`); accesses are `read`, `write` or `none` (`invalid-permission-access`);
//! branch and tag patterns are globs (`invalid-glob`). Warnings: a permission outside the
//! GitHub token permissions (`unknown-workflow-permission`; `_` and `-` are equivalent) and
//! `deny permission … : none` (`rule-never-fires`).
//!
//! # Why
//! A rule over an unknown workflow or node could never match a workflow fact.
//!
//! # Actions
//! A step of a workflow under `.github/workflows/` is an action by what it runs or uses:
//!
//! | Step | Action | Target node | Else the first node of type |
//! |---|---|---|---|
//! | `npm publish`, or an `npm-publish` action | publish | `npm_registry` | `package_registry` |
//! | `docker push`, or `docker/build-push-action` that pushes | publish | `container_registry` | `container_registry` |
//! | `gh release create`, `softprops/action-gh-release`, `actions/create-release` | release | `github_releases` | `release_host` |
//! | `peaceiris/actions-gh-pages`, `actions/deploy-pages`, the text `github-pages` | deploy | `github_pages` | `static_host` |
//!
//! `docker/build-push-action` pushes when its `push` input is `true` or an expression
//! (`${{ github.event_name != 'pull_request' }}`), or, with no `push` input (its default is
//! `false`), when an `outputs` entry pushes (`type=registry`, `push=true`); a step that only
//! builds an image (`push: false`, or no `push`) publishes nothing. The target is the node named
//! in the table when the spec declares one, else the first declared node of the type.
//!
//! # Passing example
//! `workflow_policy Ship { allow publish Release -> npm when tag "v*" }`
//!
//! # Failing example
//! `deny permission * contents: admin` gives `invalid-permission-access`.
//!
//! # SMT encoding
//! See [`crate::smt`]: deny rules, closed-world allow-lists and step orders as slices.

use globset::GlobBuilder;

use crate::check::Checker;
use crate::error::Code;
use crate::model::{
    DeclarationKind, Effect, RuleBody, RuleKind, WorkflowActionKind, WorkflowCondition,
};
use crate::syntax::ast::{
    parse_access, Ident, RuleBlock, StringLiteral, WorkflowRule, WorkflowWhen,
};
use crate::vocab::{self, WORKFLOW_PERMISSIONS};

impl Checker<'_> {
    /// Checks a workflow policy and adds its rules to the model.
    pub fn check_workflow_policy(&mut self, block: &RuleBlock<WorkflowRule>) {
        self.declare(DeclarationKind::WorkflowPolicy, &block.name);
        for parsed in &block.rules {
            let checked = match &parsed.rule {
                WorkflowRule::Action {
                    is_allow,
                    action,
                    workflow,
                    target,
                    when,
                } => {
                    let workflow = self.check_workflow_ref(workflow.as_ref());
                    let is_target_known = self.resolve_node(target);
                    let condition = self.check_workflow_when(when.as_ref());
                    let action = WorkflowActionKind::parse(&action.text);
                    match (workflow, condition, action) {
                        (Some(workflow), Some(condition), Some(action)) if is_target_known => {
                            let body = RuleBody::WorkflowAction {
                                effect: effect(*is_allow),
                                action,
                                workflow,
                                target: target.text.clone(),
                                condition,
                            };
                            Some((RuleKind::WorkflowAction, body))
                        }
                        _ => None,
                    }
                }
                WorkflowRule::Permission {
                    is_allow,
                    workflow,
                    permission,
                    access,
                    when,
                } => {
                    let workflow = self.check_workflow_ref(workflow.as_ref());
                    let permission = self.check_workflow_permission(permission.as_ref());
                    let checked_access = parse_access(&access.text);
                    match checked_access {
                        None => {
                            let message = format!(
                                "invalid access `{}`: expected read, write or none",
                                access.text
                            );
                            self.report(Code::InvalidPermissionAccess, access.span, message);
                        }
                        Some(crate::model::WorkflowAccess::None) if !*is_allow => {
                            let message = "a deny rule for access `none` never matches".to_owned();
                            self.report(Code::RuleNeverFires, access.span, message);
                        }
                        Some(_) => {}
                    }
                    let condition = self.check_workflow_when(when.as_ref());
                    match (workflow, checked_access, condition) {
                        (Some(workflow), Some(access), Some(condition)) => {
                            let body = RuleBody::WorkflowPermission {
                                effect: effect(*is_allow),
                                workflow,
                                permission,
                                access,
                                condition,
                            };
                            Some((RuleKind::WorkflowPermission, body))
                        }
                        _ => None,
                    }
                }
                WorkflowRule::StepOrder {
                    workflow,
                    before,
                    after,
                } => self.check_workflow_ref(workflow.as_ref()).map(|workflow| {
                    let body = RuleBody::WorkflowStepOrder {
                        workflow,
                        before: before.value.clone(),
                        after: after.value.clone(),
                    };
                    (RuleKind::WorkflowStepOrder, body)
                }),
            };
            if let Some((kind, body)) = checked {
                self.push_rule(
                    kind,
                    DeclarationKind::WorkflowPolicy,
                    &block.name,
                    parsed,
                    body,
                );
            }
        }
    }

    /// A component or `*`.
    fn check_workflow_ref(&mut self, workflow: Option<&Ident>) -> Option<String> {
        match workflow {
            None => Some("*".to_owned()),
            Some(component) => self
                .resolve_component(component)
                .then(|| component.text.clone()),
        }
    }

    /// The permission with `_` written as `-`, or `*`; warns outside the GitHub vocabulary.
    fn check_workflow_permission(&mut self, permission: Option<&Ident>) -> String {
        let Some(permission) = permission else {
            return "*".to_owned();
        };
        let normalized = permission.text.replace('_', "-");
        if !WORKFLOW_PERMISSIONS.contains(&normalized.as_str()) {
            let suggestion = vocab::suggest_vocabulary(&normalized, &WORKFLOW_PERMISSIONS);
            let message = format!("unknown workflow permission `{}`", permission.text);
            self.report_with_suggestion(
                Code::UnknownWorkflowPermission,
                permission.span,
                message,
                suggestion,
            );
        }
        normalized
    }

    /// The condition; `None` when a pattern is not a valid glob (the outer `Option` is the
    /// check result, the inner one whether a condition was written).
    fn check_workflow_when(
        &mut self,
        when: Option<&WorkflowWhen>,
    ) -> Option<Option<WorkflowCondition>> {
        let Some(when) = when else { return Some(None) };
        let condition = match when {
            WorkflowWhen::Branch(pattern) => WorkflowCondition::Branch {
                pattern: self.check_pattern(pattern)?,
            },
            WorkflowWhen::Tag(pattern) => WorkflowCondition::Tag {
                pattern: self.check_pattern(pattern)?,
            },
            WorkflowWhen::PullRequest => WorkflowCondition::PullRequest,
        };
        Some(Some(condition))
    }

    fn check_pattern(&mut self, pattern: &StringLiteral) -> Option<String> {
        if let Some(problem) = crate::limits::glob_size_problem(&pattern.value) {
            let glob = crate::limits::quoted_glob(&pattern.value);
            let message = format!("invalid glob `{glob}`: {problem}");
            self.report(Code::InvalidGlob, pattern.span, message);
            return None;
        }
        let compiled = GlobBuilder::new(&pattern.value)
            .literal_separator(true)
            .build();
        let problem = match compiled {
            _ if pattern.value.is_empty() => Some("a pattern cannot be empty".to_owned()),
            Ok(_) => None,
            Err(error) => Some(error.kind().to_string()),
        };
        if let Some(problem) = problem {
            let message = format!("invalid glob `{}`: {problem}", pattern.value);
            self.report(Code::InvalidGlob, pattern.span, message);
            return None;
        }
        Some(pattern.value.clone())
    }
}

fn effect(is_allow: bool) -> Effect {
    if is_allow {
        Effect::Allow
    } else {
        Effect::Deny
    }
}

#[cfg(test)]
mod tests;
