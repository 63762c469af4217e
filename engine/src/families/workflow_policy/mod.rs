//! workflow_policy: WorkflowAction, WorkflowPermission and WorkflowStepOrder over the
//! `workflow_*` graph facts of GitHub Actions workflow files in scope (see
//! `workflow_policy` in policies/LANGUAGE.md). Probable findings go to `workflow_warnings`.

use std::collections::{BTreeMap, BTreeSet};

use globset::GlobBuilder;
use policies::facts::{Fact, FactKind, PropertyValue};
use policies::model::{
    Effect, Rule, RuleBody, RuleKind, WorkflowAccess, WorkflowActionKind, WorkflowCondition,
};
use policies::smt::{SliceBuilder, WorkflowMatch};

use super::{
    builder_for, fact_name, rule_name, Candidate, Citation, Context, Evaluation, FactRef, Family,
    Shape, Site, SliceCause, WorkflowShape,
};

/// The family.
mod permissions;

use permissions::permissions;

pub const FAMILY: Family = Family {
    kinds: &[
        RuleKind::WorkflowAction,
        RuleKind::WorkflowPermission,
        RuleKind::WorkflowStepOrder,
    ],
    evaluate,
};

fn list(fact: &Fact, name: &str) -> Vec<String> {
    match fact.properties.get(name) {
        Some(PropertyValue::List(values)) => values.iter().map(ToString::to_string).collect(),
        Some(PropertyValue::Str(value)) => vec![value.to_string()],
        _ => Vec::new(),
    }
}

fn property(fact: &Fact, name: &str) -> Option<String> {
    match fact.properties.get(name)? {
        PropertyValue::Str(value) => Some(value.to_string()),
        PropertyValue::Int(value) => Some(value.to_string()),
        PropertyValue::Bool(value) => Some(value.to_string()),
        PropertyValue::List(values) => values.first().map(ToString::to_string),
    }
}

/// `glob` matches `text` (GitHub filter patterns; an invalid glob matches only itself).
fn glob_matches(glob: &str, text: &str) -> bool {
    glob == text
        || policies::limits::glob_size_problem(glob).is_none()
            && GlobBuilder::new(glob)
                .literal_separator(false)
                .build()
                .is_ok_and(|compiled| compiled.compile_matcher().is_match(text))
}

/// The workflow's component: the owner of its file, else `PascalCase(basename) + "Workflow"`.
pub fn workflow_component(context: &Context<'_>, file: &str) -> String {
    if let Some(owner) = context.owner(file) {
        return owner;
    }
    let name = file.rsplit('/').next().unwrap_or(file);
    let stem = name
        .strip_suffix(".yml")
        .or_else(|| name.strip_suffix(".yaml"))
        .unwrap_or(name);
    let mut pascal = String::new();
    for part in stem.split(|character: char| !character.is_ascii_alphanumeric()) {
        let mut characters = part.chars();
        if let Some(first) = characters.next() {
            pascal.extend(first.to_uppercase());
            pascal.push_str(characters.as_str());
        }
    }
    format!("{pascal}Workflow")
}

/// One workflow file's facts.
#[derive(Default)]
struct Workflow<'a> {
    component: String,
    triggers: Vec<&'a Fact>,
    actions: Vec<(usize, &'a Fact)>,
    permissions: Vec<(usize, &'a Fact)>,
    steps: Vec<(usize, &'a Fact)>,
    jobs: BTreeMap<String, Vec<String>>,
}

fn workflows<'a>(context: &'a Context<'_>) -> BTreeMap<String, Workflow<'a>> {
    let mut workflows: BTreeMap<String, Workflow<'a>> = BTreeMap::new();
    for (index, fact) in context.facts.graph.iter().enumerate() {
        let file = &fact.evidence.file;
        if !matches!(
            fact.kind,
            FactKind::WorkflowTrigger
                | FactKind::WorkflowAction
                | FactKind::WorkflowPermission
                | FactKind::WorkflowStep
                | FactKind::WorkflowJob
        ) || !context.scope.contains_file(file)
        {
            continue;
        }
        let workflow = workflows
            .entry(file.to_string())
            .or_insert_with(|| Workflow {
                component: workflow_component(context, file),
                ..Workflow::default()
            });
        match fact.kind {
            FactKind::WorkflowTrigger => workflow.triggers.push(fact),
            FactKind::WorkflowAction => workflow.actions.push((index, fact)),
            FactKind::WorkflowPermission => workflow.permissions.push((index, fact)),
            FactKind::WorkflowStep => workflow.steps.push((index, fact)),
            FactKind::WorkflowJob => {
                if let Some(job) = property(fact, "job") {
                    workflow.jobs.insert(job, list(fact, "needs"));
                }
            }
            _ => {}
        }
    }
    workflows
}

/// The text of a condition, e.g. `tag v*`.
fn condition_text(condition: &WorkflowCondition) -> String {
    match condition {
        WorkflowCondition::Branch { pattern } => format!("branch {pattern}"),
        WorkflowCondition::Tag { pattern } => format!("tag {pattern}"),
        WorkflowCondition::PullRequest => "pull_request".to_owned(),
    }
}

/// True when some trigger of the workflow satisfies the condition (see `workflow_policy` in policies/LANGUAGE.md).
fn condition_holds(workflow: &Workflow<'_>, condition: &WorkflowCondition) -> bool {
    let filter_matches = |patterns: &[String], wanted: &str| {
        patterns
            .iter()
            .any(|pattern| pattern == wanted || glob_matches(wanted, pattern))
    };
    let not_ignored = |ignored: &[String], wanted: &str| {
        !ignored.is_empty() && !ignored.iter().any(|pattern| glob_matches(pattern, wanted))
    };
    workflow.triggers.iter().any(|trigger| {
        let event = property(trigger, "event").unwrap_or_default();
        let (branches, tags) = (list(trigger, "branches"), list(trigger, "tags"));
        let (branches_ignore, tags_ignore) =
            (list(trigger, "branchesIgnore"), list(trigger, "tagsIgnore"));
        match condition {
            WorkflowCondition::PullRequest => {
                event == "pull_request" || event == "pull_request_target"
            }
            WorkflowCondition::Branch { pattern } => {
                event == "push"
                    && ((branches.is_empty()
                        && tags.is_empty()
                        && branches_ignore.is_empty()
                        && tags_ignore.is_empty())
                        || filter_matches(&branches, pattern)
                        || not_ignored(&branches_ignore, pattern))
            }
            WorkflowCondition::Tag { pattern } => {
                event == "push"
                    && (filter_matches(&tags, pattern) || not_ignored(&tags_ignore, pattern))
            }
        }
    })
}

fn reference_matches(reference: &str, workflow: &Workflow<'_>) -> bool {
    reference == "*" || reference == workflow.component
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

fn access_word(level: u8) -> &'static str {
    match level {
        0 => "none",
        1 => "read",
        _ => "write",
    }
}

fn access_level(access: WorkflowAccess) -> u8 {
    match access {
        WorkflowAccess::None => 0,
        WorkflowAccess::Read => 1,
        WorkflowAccess::Write => 2,
    }
}

fn evaluate(context: &Context<'_>, evaluation: &mut Evaluation) {
    let workflows = workflows(context);
    if workflows.is_empty() {
        return;
    }
    for (file, workflow) in &workflows {
        actions(context, file, workflow, evaluation);
        permissions(context, file, workflow, evaluation);
        step_order(context, file, workflow, evaluation);
    }
}

/// Adds the condition facts of the workflow for every condition the matchers name.
fn add_condition_facts(
    builder: &mut SliceBuilder,
    workflow: &Workflow<'_>,
    conditions: &[&WorkflowCondition],
) {
    let mut seen = BTreeSet::new();
    for condition in conditions {
        let text = condition_text(condition);
        if !seen.insert(text.clone()) {
            continue;
        }
        let holds = condition_holds(workflow, condition);
        builder.condition_fact(
            format!(
                "fact the triggers of {} {} `{text}`",
                workflow.component,
                if holds { "satisfy" } else { "do not satisfy" }
            ),
            &workflow.component,
            &text,
            holds,
        );
    }
}

#[expect(
    clippy::too_many_arguments,
    reason = "the parts of one workflow candidate"
)]
fn push(
    context: &Context<'_>,
    evaluation: &mut Evaluation,
    rules: Vec<usize>,
    citation: Citation,
    fact_index: usize,
    shape: WorkflowShape,
    builder: SliceBuilder,
    message: String,
    suggested_fix: String,
) {
    let (Some(mut site), Some(fact)) = (
        Site::of(&context.facts, fact_index),
        context.facts.get(fact_index),
    ) else {
        return;
    };
    // The extractor names the preferred target (`npm_registry`); the finding's target is the
    // declared node it resolved to (see `workflow_policy` in policies/LANGUAGE.md), and so is its evidence.
    if let (Some(resolved), super::FactRef::Graph(graph)) = (&shape.target, fact) {
        if let Some(preferred) = graph
            .target
            .as_deref()
            .filter(|preferred| *preferred != resolved.as_str())
        {
            site.message = site
                .message
                .replace(&format!("to `{preferred}`"), &format!("to `{resolved}`"));
        }
    }
    let components = vec![shape.workflow.clone()];
    evaluation.candidates.push(Candidate {
        rules,
        citation,
        violation_type: "workflow_violation",
        shape: Shape::Workflow(shape),
        confidence: fact.confidence(),
        site,
        occurrences: Vec::new(),
        chain: vec![fact_index],
        per_pair: false,
        message,
        suggested_fix,
        slice: builder.finish(),
        components,
        data: None,
        path_depth: None,
        fanout: None,
        cause: SliceCause::Generic,
    });
}

/// An action rule: index, rule, effect, action word, workflow reference, target, condition.
type ActionRule<'a> = (
    usize,
    &'a Rule,
    Effect,
    &'static str,
    &'a str,
    &'a str,
    Option<&'a WorkflowCondition>,
);

fn action_rules<'a>(context: &'a Context<'_>) -> Vec<ActionRule<'a>> {
    context
        .rules_of(&[RuleKind::WorkflowAction])
        .filter_map(|(index, rule)| match &rule.body {
            RuleBody::WorkflowAction {
                effect,
                action,
                workflow,
                target,
                condition,
            } => Some((
                index,
                rule,
                *effect,
                action_word(*action),
                workflow.as_str(),
                target.as_str(),
                condition.as_ref(),
            )),
            _ => None,
        })
        .collect()
}

fn actions(
    context: &Context<'_>,
    file: &str,
    workflow: &Workflow<'_>,
    evaluation: &mut Evaluation,
) {
    let rules = action_rules(context);
    for (fact_index, fact) in &workflow.actions {
        let (Some(action), Some(target)) =
            (property(fact, "action"), action_target(context.model, fact))
        else {
            continue;
        };
        let job = property(fact, "job").unwrap_or_default();
        let step = property(fact, "step");
        let shape = WorkflowShape {
            workflow: workflow.component.clone(),
            job: job.clone(),
            step: step.clone(),
            action: Some(action.clone()),
            target: Some(target.clone()),
            ..WorkflowShape::default()
        };
        let relevant: Vec<_> = rules
            .iter()
            .filter(|(_, _, _, rule_action, _, rule_target, _)| {
                *rule_action == action && *rule_target == target
            })
            .collect();
        let step = ActionStep {
            fact_index: *fact_index,
            fact,
            action,
            target,
            job,
            shape,
        };
        deny_actions(context, file, workflow, &step, &relevant, evaluation);
        allow_list_actions(context, file, workflow, step, &relevant, evaluation);
    }
}

/// One action step of a workflow: its fact, what it does to which target, in which job.
struct ActionStep<'a> {
    fact_index: usize,
    fact: &'a Fact,
    action: String,
    target: String,
    job: String,
    shape: WorkflowShape,
}

/// The deny rules that match the step's workflow and conditions: one finding each.
fn deny_actions(
    context: &Context<'_>,
    file: &str,
    workflow: &Workflow<'_>,
    step: &ActionStep<'_>,
    relevant: &[&ActionRule<'_>],
    evaluation: &mut Evaluation,
) {
    let ActionStep {
        action,
        target,
        job,
        ..
    } = step;
    for (index, rule, effect, _, reference, _, condition) in relevant {
        if *effect != Effect::Deny
            || !reference_matches(reference, workflow)
            || condition.is_some_and(|condition| !condition_holds(workflow, condition))
        {
            continue;
        }
        let mut builder = builder_for(rule);
        builder.deny_action(
            rule_name(rule),
            action,
            target,
            &workflow_match(reference, *condition),
        );
        builder.action_fact(
            fact_name(FactRef::Graph(step.fact)),
            Some(step.fact.id.clone()),
            &workflow.component,
            action,
            target,
        );
        add_condition_facts(
            &mut builder,
            workflow,
            &condition.iter().copied().collect::<Vec<_>>(),
        );
        builder.distinct_names();
        let message = format!(
            "`{}` ({file}) runs `{action}` to `{target}` in job `{job}`, which `{}` forbids",
            workflow.component, rule.text
        );
        let fix = format!("remove the {action} step from job `{job}` of {file}, or move it to a workflow that the policy allows");
        push(
            context,
            evaluation,
            vec![*index],
            Citation::rule(rule),
            step.fact_index,
            step.shape.clone(),
            builder,
            message,
            fix,
        );
    }
}

/// The allow rules for the step's action and target: a finding, cited by the declaration, when
/// none covers the step's workflow.
fn allow_list_actions(
    context: &Context<'_>,
    file: &str,
    workflow: &Workflow<'_>,
    step: ActionStep<'_>,
    relevant: &[&ActionRule<'_>],
    evaluation: &mut Evaluation,
) {
    let (action, target, job) = (&step.action, &step.target, &step.job);
    let allows: Vec<_> = relevant
        .iter()
        .filter(|rule| rule.2 == Effect::Allow)
        .collect();
    let covered = allows.iter().any(|(_, _, _, _, reference, _, condition)| {
        reference_matches(reference, workflow)
            && condition.is_none_or(|condition| condition_holds(workflow, condition))
    });
    if allows.is_empty() || covered {
        return;
    }
    let Some(declaration) = allows
        .first()
        .and_then(|rule| super::declaration(context.model, &rule.1.declaration))
    else {
        return;
    };
    let what = format!("{action} {} -> {target}", workflow.component);
    let citation = Citation::allow_list(
        RuleKind::WorkflowAction,
        "workflow_policy",
        &declaration.name,
        &declaration.location,
        &what,
    );
    let mut builder = SliceBuilder::new(&format!("{}: {}", citation.declaration, citation.text));
    let matchers: Vec<WorkflowMatch> = allows
        .iter()
        .map(|rule| workflow_match(rule.4, rule.6))
        .collect();
    builder.action_allow_list(
        format!(
            "allow-list workflow_policy {}: {}",
            declaration.name,
            allows
                .iter()
                .map(|rule| rule.1.text.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        ),
        action,
        target,
        &matchers,
    );
    builder.action_fact(
        fact_name(FactRef::Graph(step.fact)),
        Some(step.fact.id.clone()),
        &workflow.component,
        action,
        target,
    );
    let conditions: Vec<&WorkflowCondition> = allows.iter().filter_map(|rule| rule.6).collect();
    add_condition_facts(&mut builder, workflow, &conditions);
    builder.distinct_names();
    let message = format!("`{}` ({file}) runs `{action}` to `{target}` in job `{job}`, which no allow rule of `{}` covers", workflow.component, declaration.name);
    let fix = format!("publish from the workflow and trigger that `{}` allows (its allow rules for {action} -> {target}), or drop the step from {file}", declaration.name);
    let rules_covered = allows.iter().map(|rule| rule.0).collect();
    push(
        context,
        evaluation,
        rules_covered,
        citation,
        step.fact_index,
        step.shape,
        builder,
        message,
        fix,
    );
}

/// The text of a step: its name, uses and run joined with newlines.
fn step_text(fact: &Fact) -> String {
    ["name", "uses", "run"]
        .iter()
        .filter_map(|key| property(fact, key))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The jobs `job` transitively needs.
fn needed_jobs(workflow: &Workflow<'_>, job: &str) -> BTreeSet<String> {
    let mut needed = BTreeSet::new();
    let mut stack: Vec<String> = workflow.jobs.get(job).cloned().unwrap_or_default();
    while let Some(next) = stack.pop() {
        if needed.insert(next.clone()) {
            stack.extend(workflow.jobs.get(&next).cloned().unwrap_or_default());
        }
    }
    needed
}

fn step_order(
    context: &Context<'_>,
    file: &str,
    workflow: &Workflow<'_>,
    evaluation: &mut Evaluation,
) {
    for (index, rule) in context.rules_of(&[RuleKind::WorkflowStepOrder]) {
        let RuleBody::WorkflowStepOrder {
            workflow: reference,
            before,
            after,
        } = &rule.body
        else {
            continue;
        };
        if !reference_matches(reference, workflow) {
            continue;
        }
        let steps: Vec<(usize, &Fact, String, String, i64)> = workflow
            .steps
            .iter()
            .map(|(fact_index, fact)| {
                let position = match fact.properties.get("index") {
                    Some(PropertyValue::Int(value)) => *value,
                    other => other
                        .and_then(|value| value.as_str())
                        .and_then(|text| text.parse().ok())
                        .unwrap_or(0),
                };
                (
                    *fact_index,
                    *fact,
                    property(fact, "job").unwrap_or_default(),
                    step_text(fact),
                    position,
                )
            })
            .collect();
        let step_id = |job: &str, position: i64| format!("{file}#{job}#{position}");
        for (fact_index, fact, job, text, position) in &steps {
            if !text.contains(after.as_str()) {
                continue;
            }
            let needed = needed_jobs(workflow, job);
            let firsts: Vec<&(usize, &Fact, String, String, i64)> = steps
                .iter()
                .filter(|step| step.3.contains(before.as_str()))
                .collect();
            let satisfied = firsts.iter().any(|(_, _, first_job, _, first_position)| {
                (first_job == job && first_position < position) || needed.contains(first_job)
            });
            if satisfied {
                continue;
            }
            let mut builder = builder_for(rule);
            builder.require_step_order(rule_name(rule));
            builder.later_step_fact(
                fact_name(FactRef::Graph(fact)),
                Some(fact.id.clone()),
                &step_id(job, *position),
            );
            let candidates: Vec<String> =
                firsts.iter().map(|step| step_id(&step.2, step.4)).collect();
            builder.no_earlier_step_fact(
                format!("fact the steps containing `{before}` in {file} are exactly {{{}}}, none of them earlier in job `{job}` or in a job it needs", candidates.join(", ")),
                &step_id(job, *position),
                &candidates,
            );
            builder.distinct_names();
            let message = format!("step `{}` of job `{job}` in {file} runs `{after}` with no earlier step running `{before}`, which `{}` requires", text.lines().next().unwrap_or_default(), rule.text);
            let fix = format!("add a step running `{before}` before this step in job `{job}` of {file}, or in a job that `{job}` needs");
            let shape = WorkflowShape {
                workflow: workflow.component.clone(),
                job: job.clone(),
                step: Some(text.clone()),
                ..WorkflowShape::default()
            };
            push(
                context,
                evaluation,
                vec![index],
                Citation::rule(rule),
                *fact_index,
                shape,
                builder,
                message,
                fix,
            );
        }
    }
}

/// The target of an action fact (see `workflow_policy` in policies/LANGUAGE.md): the preferred name if such a node is
/// declared; otherwise the first declared node of the fallback type; otherwise the preferred name.
fn action_target(model: &policies::model::Model, fact: &Fact) -> Option<String> {
    let preferred = fact.target.as_deref()?.to_owned();
    if model.node(&preferred).is_some() {
        return Some(preferred);
    }
    let fallback = fact.property_str("fallbackType").unwrap_or_default();
    Some(
        model
            .nodes
            .iter()
            .find(|node| !fallback.is_empty() && node.type_name == fallback)
            .map_or(preferred, |node| node.name.clone()),
    )
}
