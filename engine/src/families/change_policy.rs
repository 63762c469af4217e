//! change_policy: RequireTouched(R, T) over the scope's changed files (see `change_policy` in policies/LANGUAGE.md).
//!
//! `touched(C)` holds when some changed file is owned by C; a deleted or renamed file counts
//! under its old and new path (the scope lists both). Only the git scopes (staged, `--diff`)
//! carry a change: under `--all` and `--file` nothing is touched, so no change policy is
//! violated (the change set is empty there, see [`super::ChangeSet::of_scope`]).

use std::collections::BTreeSet;

use policies::model::{RuleBody, RuleKind};

use super::{
    builder_for, rule_name, Candidate, ChangeShape, Citation, Context, Evaluation, Family, Shape,
    Site, SliceCause,
};

/// The family.
pub const FAMILY: Family = Family {
    kinds: &[RuleKind::RequireTouched],
    evaluate,
};

/// The changed files owned by `component`.
fn touching_files(context: &Context<'_>, component: &str) -> Vec<String> {
    let files: BTreeSet<String> = context
        .changes
        .files
        .iter()
        .filter(|file| context.owner(file).as_deref() == Some(component))
        .cloned()
        .collect();
    files.into_iter().collect()
}

fn evaluate(context: &Context<'_>, evaluation: &mut Evaluation) {
    for (index, rule) in context.rules_of(FAMILY.kinds) {
        let RuleBody::Touched { required, trigger } = &rule.body else {
            continue;
        };
        let trigger_files = touching_files(context, trigger);
        if trigger_files.is_empty() || !touching_files(context, required).is_empty() {
            continue;
        }
        let mut builder = builder_for(rule);
        builder.require_touched(rule_name(rule), required, trigger);
        builder.touched_axiom();
        for file in &trigger_files {
            builder.changed_file_fact(file, trigger);
        }
        builder.untouched_fact(required);
        builder.distinct_names();
        let required_globs = context
            .model
            .component(required)
            .map(|component| {
                component
                    .positive_paths()
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        let first = trigger_files.first().cloned().unwrap_or_default();
        let site = Site {
            file: first.clone(),
            line: 1,
            column: None,
            message: format!("changed file `{first}` is owned by `{trigger}`"),
            evidence_key: String::new(),
            fact: None,
        };
        let message = format!(
            "the change touches `{trigger}` ({} file(s), first `{first}`) but not `{required}`, which `{}` requires",
            trigger_files.len(),
            rule.text
        );
        let suggested_fix = format!(
            "update `{required}` in the same change: edit a file matching {} so that it stays in step with `{trigger}`",
            required_globs
                .iter()
                .map(|glob| format!("`{glob}`"))
                .collect::<Vec<_>>()
                .join(" or ")
        );
        evaluation.candidates.push(Candidate {
            rules: vec![index],
            citation: Citation::rule(rule),
            violation_type: "change_violation",
            shape: Shape::Change(ChangeShape {
                trigger: trigger.clone(),
                required: required.clone(),
                trigger_files,
                required_globs,
            }),
            confidence: policies::facts::Confidence::Definite,
            site,
            occurrences: Vec::new(),
            chain: Vec::new(),
            per_pair: true,
            message,
            suggested_fix,
            slice: builder.finish(),
            components: vec![required.clone(), trigger.clone()],
            data: None,
            path_depth: None,
            fanout: None,
            cause: SliceCause::Generic,
        });
    }
}
