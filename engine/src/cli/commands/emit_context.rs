//! `lintel emit-context [--out AGENTS.md]`: the agent brief. It states the components and every
//! rule of the spec in plain words, with where each rule is written, and how to check a change,
//! so a coding agent can respect the architecture before it runs the check.

use clap::Args;
use std::io::Write;
use std::path::PathBuf;

use policies::model::{Model, Rule, RuleKind};

use crate::cli::exit::ExitStatus;
use crate::input::paths::relative_to;
use crate::input::spec::load_spec;

/// The project and spec of a command that reads only the spec.
#[derive(Debug, Clone, Args)]
pub struct OutputArgs {
    /// The project root (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// The spec: a `.ag` file or a compiled artifact.
    #[arg(long, value_name = "FILE", alias = "arch")]
    pub spec: Option<PathBuf>,
}

/// What one rule asks of the code, in one sentence.
fn plain_words(rule: &Rule) -> String {
    let text = &rule.text;
    let endpoints = || {
        let mut words = text.split_whitespace().skip_while(|word| {
            !matches!(
                *word,
                "flow" | "reach" | "dependency" | "inject" | "inject_reach"
            )
        });
        let _ = words.next();
        let rest: Vec<&str> = words.collect();
        rest.join(" ")
    };
    match rule.kind {
        RuleKind::DenyFlow => format!("no direct dependency `{}` (no import, client or call across it)", endpoints()),
        RuleKind::DenyReach => format!("no dependency path `{}`: no chain of imports, injections, clients or calls leading file by file from the first into the second, directly or through other code", endpoints()),
        RuleKind::RequireFlowVia => "every dependency path between these components must pass through the via component(s)".to_owned(),
        RuleKind::DenyDataFlow => "the named data must not reach the target through any dependency path".to_owned(),
        RuleKind::RequireDataFlowVia => "the named data may reach the target only through the via component(s)".to_owned(),
        RuleKind::DenyUnauthenticatedFlow => "calls between these entities must be authenticated".to_owned(),
        RuleKind::DenyUnencryptedFlow => "calls between these entities must be encrypted".to_owned(),
        RuleKind::RequireOperationIn | RuleKind::RequireOperationOnDataIn => "the operation may only be performed in the named component".to_owned(),
        RuleKind::RequireDependencyViaInterface => "the dependency must go through the named interface".to_owned(),
        RuleKind::RequireContractImplementedBy => "the component must implement the contract (checked when the spec compiles)".to_owned(),
        RuleKind::AllowTransition => "state writes must follow the machine's allowed transitions (others are violations)".to_owned(),
        RuleKind::DenyTransition => "this state transition must never be written".to_owned(),
        RuleKind::AllowPermission if text.starts_with("allow * ") => "anyone may perform the operation (no role check needed)".to_owned(),
        RuleKind::AllowPermission => "the operation needs a role check for one of the allowed roles".to_owned(),
        RuleKind::DenyPermission => "the operation must not be granted to this role".to_owned(),
        RuleKind::RequireValue => "runtime values must satisfy this condition".to_owned(),
        RuleKind::RequireBefore => "this condition must hold before the operation runs".to_owned(),
        RuleKind::EnsureAfter => "this condition must hold after the operation runs".to_owned(),
        RuleKind::RequirePrecededBy => "the event must be preceded by the other event in the same scope".to_owned(),
        RuleKind::WorkflowAction => "CI workflows may publish, deploy or release only as allowed here".to_owned(),
        RuleKind::WorkflowPermission => "CI workflow token permissions are limited as stated".to_owned(),
        RuleKind::WorkflowStepOrder => "in CI workflows, the first step must run before the second".to_owned(),
        RuleKind::DenyInject => "no constructor injection across this boundary, judged by the implementation DI registers for each injected service (an interface counts where its implementation is)".to_owned(),
        RuleKind::DenyInjectReach => "no chain of constructor injections across this boundary".to_owned(),
        RuleKind::DenyLifetime | RuleKind::DenyLifetimeReach => "a service of the first lifetime must not depend on one of the second (captive dependency)".to_owned(),
        RuleKind::DenyResolve => "no service-locator resolution here; inject dependencies instead".to_owned(),
        RuleKind::DenyClassification | RuleKind::DenyJurisdiction => "labelled data must not reach these entities".to_owned(),
        RuleKind::RequireAuth => "entering this trust zone needs an authenticating entity on the way".to_owned(),
        RuleKind::DenyFlowWhenData => "labelled data must not cross between these trust zones".to_owned(),
        RuleKind::RequireTouched => "a change to the trigger component must also change the required one".to_owned(),
        RuleKind::DependsOn => "the component may depend only on what its `depends_on` lists (nothing, when it lists nothing)".to_owned(),
        RuleKind::PublicInterface => "code outside the component may import only its public files".to_owned(),
        RuleKind::DenyCycle if text.contains(" within ") => "no import cycle among the files of the component".to_owned(),
        RuleKind::DenyCycle if text.contains(" among files in ") => "no import cycle among the files of these components, even one that runs through several of them".to_owned(),
        RuleKind::DenyCycle if text.ends_with(" among files") => "no import cycle among any files of the project".to_owned(),
        RuleKind::DenyCycle => "no dependency cycle among these components, layers or roles".to_owned(),
        RuleKind::DenyUnresolvedImport => "every import meant to be inside the project must resolve to a file".to_owned(),
    }
}

/// "`a`, `b`"
fn quoted<'a>(globs: impl Iterator<Item = &'a str>) -> String {
    globs
        .map(|glob| format!("`{glob}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Renders the brief. `spec_flag` (` --spec FILE` or empty) goes into every command it shows,
/// so that they check and explain against the same spec.
pub fn brief(model: &Model, spec_path: &str, spec_flag: &str) -> String {
    let mut text = format!(
        "# Architecture rules\n\n\
         This repository declares its architecture in `{spec_path}`, and `lintel` checks every change against it.\n\
         Every finding lintel reports is proven by the Z3 solver from the code: fix the code, not the spec.\n"
    );
    text.push_str("\n## Components\n\n");
    for component in &model.components {
        let mut paths = quoted(component.positive_paths());
        let negated = quoted(component.negated_paths());
        if !negated.is_empty() {
            paths.push_str(&format!(" except {negated}"));
        }
        let mut line = format!(
            "- `{}`: {paths} (runs on `{}`",
            component.name, component.runs_on
        );
        if let Some(role) = &component.role {
            line.push_str(&format!(", role `{role}`"));
        }
        if let Some(layer) = &component.layer {
            line.push_str(&format!(", layer `{layer}`"));
        }
        // Closed by its `depends_on` or by a `deny undeclared dependencies` rule.
        let closed = model.rules.iter().find_map(|rule| match &rule.body {
            policies::model::RuleBody::Closed {
                component: name,
                allowed,
            } if *name == component.name => Some(allowed.as_slice()),
            _ => None,
        });
        match closed {
            Some([]) => line.push_str(", may depend on nothing"),
            Some(allowed) => line.push_str(&format!(
                ", may depend only on {}",
                quoted(allowed.iter().map(String::as_str))
            )),
            None => {}
        }
        if !component.public.is_empty() {
            line.push_str(&format!(
                ", others may import only {}",
                quoted(component.public.iter().map(String::as_str))
            ));
        }
        line.push_str(")\n");
        text.push_str(&line);
    }
    if !model.excludes.is_empty() {
        text.push_str(&format!(
            "\nExcluded from the check (not read, owned by no component, no rule sees them): {}.\n",
            quoted(model.excludes.iter().map(String::as_str))
        ));
    }
    let infrastructure: Vec<String> = model
        .nodes
        .iter()
        .chain(&model.resources)
        .map(|entity| format!("`{}` ({})", entity.name, entity.type_name))
        .collect();
    if !infrastructure.is_empty() {
        text.push_str(&format!(
            "\nInfrastructure: {}.\n",
            infrastructure.join(", ")
        ));
    }
    text.push_str("\n## Rules\n\n");
    let mut seen = std::collections::BTreeSet::new();
    for rule in &model.rules {
        // Selector expansion gives several concrete rules for one written rule: state it once.
        if !seen.insert((
            rule.declaration.clone(),
            rule.text.clone(),
            rule.source.clone(),
        )) {
            continue;
        }
        text.push_str(&format!(
            "- `{}` (`{}`, {}:{}): {}.\n",
            rule.text,
            rule.declaration,
            rule.source.file,
            rule.source.line,
            plain_words(rule)
        ));
    }
    text.push_str(&format!(
        "\n## How to check a change\n\n\
         Run these from the project root.\n\n\
         - Before committing: `lintel check{spec_flag}` (the staged files; every rule still sees the whole project).\n\
         - The whole repository: `lintel check --all{spec_flag} --json`, then read `agent_context` and `violations[]`.\n\
         - A branch or pull request: `lintel check --diff origin/main{spec_flag} --json` (`--new-only` ignores findings that already exist on the base).\n\
         - One finding: `lintel explain --violation <id>` with the scope flags of the check that reported it (`lintel explain --violation <id> --all{spec_flag}` for a finding of `lintel check --all{spec_flag}`) shows the rule, the evidence, the unsat core and a replayable SMT-LIB script. Every check prints this command, with its flags, under each finding.\n\
         - Exit codes: 0 pass, 1 a blocking finding or an undecided solver slice, 2 an error.\n\
         - Accepted findings: one listed in `.lintel/baseline.json` (`baselined`) or covered by a `waive` declaration of the spec (`waiver`) does not block. Accepting a finding is the team's decision: do not add baseline entries or waivers to make a check pass.\n"
    ));
    text
}

/// Runs `emit-context`.
pub fn emit_context_command(
    arguments: &OutputArgs,
    out: Option<&PathBuf>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> ExitStatus {
    let root = arguments
        .project
        .clone()
        .unwrap_or_else(|| PathBuf::from("."));
    let spec = match load_spec(&root, arguments.spec.as_deref()) {
        Ok(spec) => spec,
        Err(error) => {
            crate::render::text::write_error_in(stderr, &error, Some(&root));
            return ExitStatus::Error;
        }
    };
    let spec_flag = crate::cli::commands::check::spec_flag(arguments.spec.as_deref(), &root)
        .map(|flag| format!(" {flag}"))
        .unwrap_or_default();
    let text = brief(&spec.model, &spec.artifact, &spec_flag);
    let written = match out {
        Some(path) => std::fs::write(path, &text),
        None => stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush()),
    };
    match written {
        Ok(()) => {
            if let Some(path) = out {
                let _ = writeln!(stderr, "wrote `{}`", relative_to(path, &root));
            }
            ExitStatus::Pass
        }
        Err(error) => {
            let _ = writeln!(stderr, "error[internal-error]: {error}");
            ExitStatus::Error
        }
    }
}
