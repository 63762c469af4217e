//! Every `lintel explain …` command a check prints carries the check's scope flags, so that
//! pasting it from the project root finds the entry (see The explain document in docs/VERDICT.md); and change
//! policies judge only the git scopes (see `change_policy` in policies/LANGUAGE.md).

use std::path::Path;

use super::{git, json_run, lintel, write_files};

/// `Api` must not import `Db`, and a change to `Api` must change `Docs`, which owns no file yet
/// (as a `CHANGELOG` component before the first release): under `--all` and `--file` nothing is
/// changed, so the change policy holds there.
const SPEC: &str = "node app : server
component Api  { runs_on: app paths: \"api/**\" }
component Db   { runs_on: app paths: \"db/**\" }
component Docs { runs_on: app paths: \"docs/**\" }
invariant Layers { deny flow Api -> Db }
change_policy Fresh { require touched Docs when touched Api }
";

const IMPORTS_DB: &str = "import { q } from '../db/q';\nexport const value = q;\n";

/// A repository with branch `base` (one violating import) and a commit on it that adds
/// `api/b.ts`, another violating import, without touching `docs/`.
fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_files(
        root,
        &[
            ("architecture.ag", SPEC),
            ("policy/layers.ag", SPEC),
            ("db/q.ts", "export const q = 1;\n"),
            ("api/a.ts", IMPORTS_DB),
        ],
    );
    git(root, &["init", "-q"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "base"]);
    git(root, &["branch", "base"]);
    write_files(root, &[("api/b.ts", IMPORTS_DB)]);
    git(root, &["add", "-A"]);
    git(
        root,
        &["commit", "-q", "-m", "api/b.ts imports the database"],
    );
    dir
}

/// Runs a printed command (`lintel explain --violation … --all`) from `cwd`, with `--json`.
fn run_printed(command: &str, cwd: &Path) -> (i32, serde_json::Value) {
    let words: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(words.first(), Some(&"lintel"), "{command}");
    json_run(
        lintel()
            .current_dir(cwd)
            .args(words.iter().skip(1))
            .arg("--json"),
    )
}

/// The explain commands in `text`, after `marker` on a line.
fn explain_commands(text: &str, marker: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| line.trim().strip_prefix(marker))
        .map(|command| command.trim().to_owned())
        .collect()
}

/// Runs `lintel <arguments>` from `cwd` as text and as JSON; checks that every printed explain
/// command (text output, `agent_context`, SARIF) carries `flags`, and finds its entry when run
/// from the project root `root`. Returns the JSON verdict.
fn assert_hints_find_entries(
    root: &Path,
    cwd: &Path,
    arguments: &[&str],
    flags: &str,
) -> serde_json::Value {
    let output = lintel().current_dir(cwd).args(arguments).output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let from_text = explain_commands(&text, "= explain:");
    let (_, verdict) = json_run(lintel().current_dir(cwd).args(arguments).arg("--json"));
    let agent_context = verdict["agent_context"].as_str().unwrap();
    let from_agent = explain_commands(agent_context, "explain:");
    let sarif: serde_json::Value = serde_json::from_slice(
        &lintel()
            .current_dir(cwd)
            .args(arguments)
            .args(["--format", "sarif"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let from_sarif: Vec<String> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|result| result["properties"]["explain"].as_str())
        .map(str::to_owned)
        .collect();
    for rule in sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
    {
        if let Some(help) = rule["help"]["text"].as_str() {
            assert!(
                help.contains(&format!("`lintel explain --violation <id>{flags}`")),
                "{help}"
            );
        }
    }
    let blocking = verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .chain(verdict["change_violations"].as_array().unwrap())
        .count();
    assert!(blocking > 0, "{arguments:?}: {verdict}");
    for (source, commands) in [
        ("text", &from_text),
        ("agent_context", &from_agent),
        ("sarif", &from_sarif),
    ] {
        assert_eq!(
            commands.len(),
            blocking,
            "{source} of {arguments:?}: {text}"
        );
        for command in commands {
            assert!(
                command.ends_with(flags) && command.starts_with("lintel explain --violation viol_"),
                "{source}: `{command}` carries `{flags}`"
            );
            assert!(
                !command.contains("--project")
                    && !command.contains("--json")
                    && !command.contains(root.to_str().unwrap()),
                "{source}: `{command}`"
            );
            let (code, explained) = run_printed(command, root);
            assert_eq!(code, 0, "{source}: `{command}`: {explained}");
            assert_eq!(explained["found"], true, "{source}: `{command}`");
        }
    }
    verdict
}

fn types(verdict: &serde_json::Value) -> Vec<String> {
    let mut types: Vec<String> = verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .chain(verdict["change_violations"].as_array().unwrap())
        .map(|entry| {
            format!(
                "{} {}",
                entry["type"].as_str().unwrap(),
                entry["detected"]["file"]
                    .as_str()
                    .or(entry["trigger_files"][0].as_str())
                    .unwrap()
            )
        })
        .collect();
    types.sort();
    types
}

#[test]
fn explain_hints_of_every_scope_find_their_entries_from_the_project_root() {
    let dir = repository();
    let root = dir.path();

    let all = assert_hints_find_entries(root, root, &["check", "--all"], " --all");
    assert_eq!(
        types(&all),
        ["flow_violation api/a.ts", "flow_violation api/b.ts"],
        "no change under --all, so the change policy holds"
    );
    let coverage: Vec<(&str, &str, usize)> = all["rule_coverage"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            (
                entry["rule"].as_str().unwrap(),
                entry["status"].as_str().unwrap(),
                entry["evidence"].as_array().unwrap().len(),
            )
        })
        .collect();
    assert_eq!(
        coverage,
        [
            ("require touched Docs when touched Api", "pass", 0),
            ("deny flow Api -> Db", "fail", 2)
        ]
    );
    let evidence = &all["rule_coverage"][1]["evidence"];
    assert!(
        evidence[0].as_str().unwrap() < evidence[1].as_str().unwrap(),
        "bytewise: {evidence}"
    );

    let diff = assert_hints_find_entries(root, root, &["check", "--diff", "base"], " --diff base");
    assert_eq!(
        types(&diff),
        ["change_violation api/b.ts", "flow_violation api/b.ts"]
    );

    // `--file` named from a subfolder with `--project`: the hint names the file from the root.
    let files = assert_hints_find_entries(
        root,
        &root.join("api"),
        &["check", "--project", "..", "--file", "a.ts"],
        " --file api/a.ts",
    );
    assert_eq!(
        types(&files),
        ["flow_violation api/a.ts"],
        "no change under --file, so the change policy holds"
    );

    // A spec that is not the default.
    let spec = assert_hints_find_entries(
        root,
        root,
        &["check", "--all", "--spec", "policy/layers.ag"],
        " --all --spec policy/layers.ag",
    );
    assert_eq!(types(&spec), types(&all));

    // Staged: a new file in the index.
    write_files(root, &[("api/c.ts", IMPORTS_DB)]);
    git(root, &["add", "api/c.ts"]);
    let staged = assert_hints_find_entries(root, root, &["check"], "");
    assert_eq!(
        types(&staged),
        ["change_violation api/c.ts", "flow_violation api/c.ts"]
    );
}

#[test]
fn emit_context_names_the_spec_in_every_command() {
    let dir = repository();
    let output = lintel()
        .current_dir(dir.path())
        .args(["emit-context", "--spec", "policy/layers.ag"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let brief = String::from_utf8(output.stdout).unwrap();
    for command in [
        "`lintel check --spec policy/layers.ag`",
        "`lintel check --all --spec policy/layers.ag --json`",
        "`lintel explain --violation <id> --all --spec policy/layers.ag`",
    ] {
        assert!(brief.contains(command), "{command} in {brief}");
    }
}
