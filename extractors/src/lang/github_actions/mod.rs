//! The GitHub Actions extractor (see `workflow_policy` in policies/LANGUAGE.md): triggers, permissions,
//! jobs, steps, publish/deploy/release actions and secrets of one workflow file, all with
//! strategy `config` and extractor `github-actions`.
//!
//! - `workflow_trigger` per event of `on:` (a name, a list or a mapping), with its `branches`,
//!   `tags`, `branchesIgnore` and `tagsIgnore` lists (empty when absent).
//! - `workflow_permission` per granted permission of the top-level and each job's
//!   `permissions:`, with `job` on job-level grants. `write-all` and `read-all` are kept as one
//!   fact with permission `*` (access `write` or `read`); `{}` is one fact with permission `*`
//!   and access `none`, so that an explicit empty grant is visible.
//! - `workflow_job` per job, with its `needs` list, and `uses` when the job calls a reusable
//!   workflow (`uses: org/repo/.github/workflows/deploy.yml@v1` or `./.github/workflows/x.yml`).
//! - `workflow_step` per step, with its 0-based `index` in the job, `name`, `uses` and `run`
//!   when present, and `step`: those three joined with newlines (the step text that step-order
//!   rules search).
//! - `workflow_action` per step that publishes, deploys or releases, by the table of `workflow_policy` (policies/LANGUAGE.md: a `docker/build-push-action` step only when it pushes); the
//!   top-level `target` is the preferred node name and the property `fallbackType` the node type
//!   the engine falls back to when no such node is declared.
//! - `workflow_secret` per `${{ secrets.NAME }}` inside a job (once per name and job).
//!
//! A file that is not valid YAML, or whose document is not a mapping, is an error with its line
//! and column, which the engine reports as a `file-skipped` warning.

pub(crate) mod spec;

use std::collections::BTreeSet;

use policies::facts::{Confidence, Fact, FactKind, PropertyValue, Strategy};

use crate::facts::{set, FactFactory};
use crate::language::DocumentInput;
use crate::syntax::yaml::{self, Node};

/// Extracts the facts of one workflow file (unsorted), or why it cannot be read.
pub(crate) fn extract(input: &DocumentInput<'_>) -> Result<Vec<Fact>, String> {
    let root = yaml::parse(input.source)?.ok_or_else(|| {
        "workflow is empty: expected a YAML mapping at line 1, column 1".to_owned()
    })?;
    if root.entries().is_empty() && root.as_str().is_some() {
        let (line, column) = root.start;
        return Err(format!(
            "workflow is not a YAML mapping at line {line}, column {column}"
        ));
    }
    let factory = FactFactory::for_file(
        input.spec.name,
        input.spec.extractor,
        input.path,
        input.source,
    );
    let writer = Writer { factory };
    let mut facts = Vec::new();
    let triggers = root
        .entries()
        .iter()
        .find(|(key, _)| matches!(key.as_str(), Some("on" | "true")));
    if let Some((key, on)) = triggers {
        writer.triggers(key, on, &mut facts);
    }
    if let Some(permissions) = root.get("permissions") {
        writer.permissions(permissions, None, &mut facts);
    }
    for (job_key, job) in root.get("jobs").map(Node::entries).unwrap_or_default() {
        let Some(job_name) = job_key.as_str() else {
            continue;
        };
        writer.job(job_name, job_key, job, &mut facts);
    }
    Ok(facts)
}

/// Writes workflow facts for one file.
struct Writer<'a> {
    factory: FactFactory<'a>,
}

impl Writer<'_> {
    fn fact(&self, kind: FactKind, node: &Node, scope: Option<&str>, message: String) -> Fact {
        self.factory.fact_at(
            kind,
            Strategy::Config,
            (node.start, node.end()),
            Confidence::Definite,
            scope.map(str::to_owned),
            message,
        )
    }

    fn triggers(&self, key: &Node, on: &Node, facts: &mut Vec<Fact>) {
        let mut events: Vec<(&Node, Option<&Node>)> = Vec::new();
        match &on.value {
            yaml::Value::Scalar(_) => events.push((on, None)),
            yaml::Value::Sequence(items) => events.extend(items.iter().map(|item| (item, None))),
            yaml::Value::Mapping(entries) => {
                events.extend(
                    entries
                        .iter()
                        .map(|(event, filters)| (event, Some(filters))),
                );
            }
            yaml::Value::Alias => events.push((key, None)),
        }
        for (event_node, filters) in events {
            let Some(event) = event_node.as_str() else {
                continue;
            };
            let mut fact = self.fact(
                FactKind::WorkflowTrigger,
                event_node,
                None,
                format!("workflow trigger `{event}`"),
            );
            set(&mut fact, "event", event);
            for (property, key) in [
                ("branches", "branches"),
                ("tags", "tags"),
                ("branchesIgnore", "branches-ignore"),
                ("tagsIgnore", "tags-ignore"),
            ] {
                let values = filters
                    .and_then(|filters| filters.get(key))
                    .map(Node::string_list)
                    .unwrap_or_default();
                set(&mut fact, property, PropertyValue::from(values));
            }
            facts.push(fact);
        }
    }

    fn permissions(&self, permissions: &Node, job: Option<&str>, facts: &mut Vec<Fact>) {
        let mut grants: Vec<(&Node, String, String)> = Vec::new();
        match &permissions.value {
            yaml::Value::Scalar(level) => {
                let access = match level.as_str() {
                    "write-all" => "write",
                    "read-all" => "read",
                    _ => "none",
                };
                grants.push((permissions, "*".to_owned(), access.to_owned()));
            }
            yaml::Value::Mapping(entries) if entries.is_empty() => {
                grants.push((permissions, "*".to_owned(), "none".to_owned()));
            }
            yaml::Value::Mapping(entries) => {
                for (name, access) in entries {
                    if let (Some(permission), Some(access)) = (name.as_str(), access.as_str()) {
                        grants.push((name, permission.to_owned(), access.to_owned()));
                    }
                }
            }
            yaml::Value::Sequence(_) | yaml::Value::Alias => {}
        }
        for (node, permission, access) in grants {
            let place = job.map_or_else(|| "workflow".to_owned(), |job| format!("job `{job}`"));
            let mut fact = self.fact(
                FactKind::WorkflowPermission,
                node,
                job,
                format!("{place} grants `{permission}: {access}`"),
            );
            set(&mut fact, "permission", permission);
            set(&mut fact, "access", access);
            if let Some(job) = job {
                set(&mut fact, "job", job);
            }
            facts.push(fact);
        }
    }

    fn job(&self, job_name: &str, job_key: &Node, job: &Node, facts: &mut Vec<Fact>) {
        let needs = job.get("needs").map(Node::string_list).unwrap_or_default();
        let mut fact = self.fact(
            FactKind::WorkflowJob,
            job_key,
            Some(job_name),
            format!("workflow job `{job_name}`"),
        );
        set(&mut fact, "job", job_name);
        set(&mut fact, "needs", PropertyValue::from(needs));
        // A job that calls a reusable workflow has `uses` instead of steps.
        if let Some(uses) = job.get("uses").and_then(Node::as_str) {
            set(&mut fact, "uses", uses);
        }
        facts.push(fact);
        if let Some(permissions) = job.get("permissions") {
            self.permissions(permissions, Some(job_name), facts);
        }
        let steps = job.get("steps").map(Node::items).unwrap_or_default();
        for (index, step) in steps.iter().enumerate() {
            self.step(job_name, index, step, facts);
        }
        let mut secrets = BTreeSet::new();
        for scalar in job.scalars() {
            for name in secret_names(scalar.as_str().unwrap_or_default()) {
                if !secrets.insert(name.clone()) {
                    continue;
                }
                let mut fact = self.fact(
                    FactKind::WorkflowSecret,
                    scalar,
                    Some(job_name),
                    format!("job `{job_name}` reads secret `{name}`"),
                );
                set(&mut fact, "name", name);
                set(&mut fact, "job", job_name);
                facts.push(fact);
            }
        }
    }

    fn step(&self, job_name: &str, index: usize, step: &Node, facts: &mut Vec<Fact>) {
        let field = |key: &str| step.get(key).and_then(Node::as_str).map(str::to_owned);
        let (name, uses, run) = (field("name"), field("uses"), field("run"));
        let text = [&name, &uses, &run]
            .into_iter()
            .flatten()
            .cloned()
            .collect::<Vec<_>>()
            .join("\n");
        // A step is named by its `name`, else its `uses`, else the first line of its `run`.
        let first_run_line = run
            .as_deref()
            .and_then(|run| run.lines().map(str::trim).find(|line| !line.is_empty()));
        let label = name
            .clone()
            .or_else(|| uses.clone())
            .or_else(|| first_run_line.map(|line| line.chars().take(80).collect()))
            .unwrap_or_else(|| format!("#{index}"));
        let mut fact = self.fact(
            FactKind::WorkflowStep,
            step,
            Some(job_name),
            format!("step `{label}` of job `{job_name}`"),
        );
        set(&mut fact, "job", job_name);
        set(
            &mut fact,
            "index",
            PropertyValue::Int(i64::try_from(index).unwrap_or(i64::MAX)),
        );
        for (property, value) in [("name", &name), ("uses", &uses), ("run", &run)] {
            if let Some(value) = value {
                set(&mut fact, property, value.as_str());
            }
        }
        set(&mut fact, "step", text.as_str());
        facts.push(fact);
        if let Some(action) =
            detect_action(uses.as_deref(), run.as_deref(), step.get("with"), &text)
        {
            let mut fact = self.fact(
                FactKind::WorkflowAction,
                step,
                Some(job_name),
                format!(
                    "step `{label}` of job `{job_name}` {} to `{}`",
                    match action.action {
                        "publish" => "publishes",
                        "deploy" => "deploys",
                        _ => "releases",
                    },
                    action.target
                ),
            );
            fact.target = Some(action.target.into());
            set(&mut fact, "action", action.action);
            set(&mut fact, "step", text.as_str());
            set(&mut fact, "job", job_name);
            set(&mut fact, "fallbackType", action.fallback_type);
            facts.push(fact);
        }
    }
}

/// A publish, deploy or release action of the table of `workflow_policy` (policies/LANGUAGE.md).
struct Action {
    action: &'static str,
    target: &'static str,
    fallback_type: &'static str,
}

fn detect_action(
    uses: Option<&str>,
    run: Option<&str>,
    with: Option<&Node>,
    text: &str,
) -> Option<Action> {
    let uses = uses.unwrap_or_default();
    let run = run.unwrap_or_default();
    let action = |action, target, fallback_type| {
        Some(Action {
            action,
            target,
            fallback_type,
        })
    };
    if run.contains("npm publish") || uses.contains("npm-publish") {
        return action("publish", "npm_registry", "package_registry");
    }
    if run.contains("docker push")
        || (uses.starts_with("docker/build-push-action") && build_push_pushes(with))
    {
        return action("publish", "container_registry", "container_registry");
    }
    if run.contains("gh release create")
        || uses.starts_with("softprops/action-gh-release")
        || uses.starts_with("actions/create-release")
    {
        return action("release", "github_releases", "release_host");
    }
    if uses.starts_with("peaceiris/actions-gh-pages")
        || uses.starts_with("actions/deploy-pages")
        || text.contains("github-pages")
    {
        return action("deploy", "github_pages", "static_host");
    }
    None
}

/// Whether a `docker/build-push-action` step pushes what it builds: its `push` input is `true`
/// or an expression (`${{ github.event_name != 'pull_request' }}` pushes on some triggers), or,
/// without `push` (whose default is `false`), an `outputs` entry pushes (`type=registry`,
/// `push=true`). A step with `push: false`, or with no `push` at all, only builds.
fn build_push_pushes(with: Option<&Node>) -> bool {
    let input = |key: &str| {
        with.and_then(|with| with.get(key))
            .and_then(Node::as_str)
            .map(str::trim)
    };
    match input("push") {
        Some(push) => !push.eq_ignore_ascii_case("false"),
        None => ["outputs", "output"].into_iter().any(|key| {
            input(key).is_some_and(|outputs| {
                outputs.contains("type=registry") || outputs.contains("push=true")
            })
        }),
    }
}

/// The names in `${{ secrets.NAME }}` expressions of a text (also `secrets['NAME']`).
fn secret_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("secrets") {
        let after = rest.get(start + "secrets".len()..).unwrap_or_default();
        let preceded_by_word = rest
            .get(..start)
            .and_then(|before| before.chars().last())
            .is_some_and(|character| character.is_alphanumeric() || character == '_');
        let name: String = if let Some(dotted) = after.strip_prefix('.') {
            dotted
                .chars()
                .take_while(|character| {
                    character.is_alphanumeric() || *character == '_' || *character == '-'
                })
                .collect()
        } else if let Some(indexed) = after.strip_prefix("['") {
            indexed
                .chars()
                .take_while(|character| *character != '\'')
                .collect()
        } else {
            String::new()
        };
        if !name.is_empty() && !preceded_by_word && is_inside_expression(text, rest, start) {
            names.push(name);
        }
        rest = after;
    }
    names
}

/// Whether the match at `start` of `rest` (a suffix of `text`) lies inside `${{ … }}`.
fn is_inside_expression(text: &str, rest: &str, start: usize) -> bool {
    let offset = text.len() - rest.len() + start;
    let before = text.get(..offset).unwrap_or_default();
    match (before.rfind("${{"), before.rfind("}}")) {
        (Some(open), Some(close)) => open > close,
        (Some(_), None) => true,
        _ => false,
    }
}
