//! CLI tests that run the real `lintel` binary: exit codes, one JSON document on every error, help, broken pipe.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "test code: a failed unwrap or index is a failed test"
)]

use std::path::Path;
use std::process::Command;

use assert_cmd::prelude::*;

fn lintel() -> Command {
    Command::cargo_bin("lintel").unwrap()
}

fn example(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("examples")
        .join(name)
}

/// Runs lintel and parses stdout as exactly one JSON document.
/// Writes `files` (path under `project`, text), with their folders.
fn write_files(project: &std::path::Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        std::fs::create_dir_all(project.join(path).parent().unwrap()).unwrap();
        std::fs::write(project.join(path), text).unwrap();
    }
}

fn json_run(command: &mut Command) -> (i32, serde_json::Value) {
    let output = command.output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let mut documents =
        serde_json::Deserializer::from_str(&stdout).into_iter::<serde_json::Value>();
    let document = documents
        .next()
        .expect("one JSON document")
        .expect("valid JSON");
    assert!(
        documents.next().is_none(),
        "exactly one JSON document on stdout: {stdout}"
    );
    assert!(stdout.ends_with("}\n"));
    if document.get("verdict").is_some() {
        let schema = engine::schema::verdict_schema();
        let validator = jsonschema::validator_for(&schema).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&document)
            .map(|error| error.to_string())
            .collect();
        assert!(
            errors.is_empty(),
            "verdict matches `lintel schema verdict`: {errors:?}"
        );
    } else if document.get("found").is_some() {
        let schema = engine::schema::explain_schema();
        let validator = jsonschema::validator_for(&schema).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&document)
            .map(|error| error.to_string())
            .collect();
        assert!(
            errors.is_empty(),
            "explain document matches `lintel schema explain`: {errors:?}"
        );
    }
    (output.status.code().unwrap(), document)
}

fn assert_error_shape(document: &serde_json::Value, code: &str) {
    assert_eq!(document["schema_version"], 2);
    assert_eq!(document["verdict"], "error");
    assert_eq!(document["passed"], false);
    assert_eq!(document["error"]["code"], code, "{document}");
    assert_eq!(document["message"], document["error"]["message"]);
    for array in [
        "violations",
        "contract_violations",
        "workflow_violations",
        "change_violations",
        "warnings",
        "contract_warnings",
        "workflow_warnings",
        "rule_coverage",
        "solver_diagnostics",
    ] {
        assert_eq!(
            document[array],
            serde_json::json!([]),
            "{array} is present and empty"
        );
    }
    assert!(document["agent_context"]
        .as_str()
        .unwrap()
        .starts_with("ERROR: "));
}

#[test]
fn violations_exit_1_with_one_json_document() {
    let (code, document) = json_run(
        lintel()
            .args(["check", "--all", "--json", "--project"])
            .arg(example("layered-api")),
    );
    assert_eq!(code, 1);
    assert_eq!(document["verdict"], "fail");
    assert!(document["agent_context"]
        .as_str()
        .unwrap()
        .starts_with("FAIL: 1 blocking finding(s) in 1 file(s), 0 undecided rule slice(s)"));
    assert!(document["agent_context"]
        .as_str()
        .unwrap()
        .contains("Re-run: lintel check --all"));
}

#[test]
fn a_passing_project_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("architecture.ag"), "node app : server\ncomponent A { runs_on: app paths: \"a/**\" }\ncomponent B { runs_on: app paths: \"b/**\" }\ninvariant I { deny flow A -> B }\n").unwrap();
    std::fs::create_dir_all(dir.path().join("a")).unwrap();
    std::fs::write(dir.path().join("a/x.ts"), "export const x = 1;\n").unwrap();
    let (code, document) = json_run(
        lintel()
            .args(["check", "--all", "--json", "--project"])
            .arg(dir.path()),
    );
    assert_eq!(code, 0);
    assert_eq!(document["verdict"], "pass");
    assert_eq!(
        document["agent_context"].as_str().unwrap().lines().next(),
        Some("PASS")
    );
}

#[test]
fn a_bad_spec_prints_the_error_verdict_with_every_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("architecture.ag"), "node app : server\ncomponent A { runs_on: ap paths: \"a/**\" }\ninvariant I { deny flow A -> Ghost }\n").unwrap();
    let (code, document) = json_run(
        lintel()
            .args(["check", "--all", "--json", "--project"])
            .arg(dir.path()),
    );
    assert_eq!(code, 2);
    assert_error_shape(&document, "unknown-node");
    assert_eq!(document["error"]["file"], "architecture.ag");
    assert_eq!(document["error"]["line"], 2);
    let codes: Vec<&str> = document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|diagnostic| diagnostic["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["unknown-node", "unknown-entity"]);
}

#[test]
fn git_errors_are_coded_json_documents() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(
        outside.path().join("architecture.ag"),
        "node app : server\n",
    )
    .unwrap();
    let (code, document) = json_run(
        lintel()
            .args(["check", "--diff", "main", "--json", "--project"])
            .arg(outside.path()),
    );
    assert_eq!(code, 2);
    assert_error_shape(&document, "not-a-git-repository");
    assert_eq!(document["diff"]["mode"], "git_ref");

    let repository = git2::Repository::init(outside.path()).unwrap();
    let mut index = repository.index().unwrap();
    index.add_path(Path::new("architecture.ag")).unwrap();
    let tree = repository.find_tree(index.write_tree().unwrap()).unwrap();
    let signature = git2::Signature::now("t", "t@example.invalid").unwrap();
    repository
        .commit(Some("HEAD"), &signature, &signature, "one", &tree, &[])
        .unwrap();
    let (code, document) = json_run(
        lintel()
            .args(["check", "--diff", "no-such-ref", "--json", "--project"])
            .arg(outside.path()),
    );
    assert_eq!(code, 2);
    assert_error_shape(&document, "unknown-ref");
}

#[test]
fn usage_errors_print_json_when_json_is_asked_for() {
    let (code, document) = json_run(lintel().args(["check", "--json", "--no-such-flag"]));
    assert_eq!(code, 2);
    assert_error_shape(&document, "usage-error");
    let (code, document) = json_run(
        lintel()
            .args(["check", "--all", "--json", "--project"])
            .arg(example("layered-api"))
            .args(["--spec", "missing.ag"]),
    );
    assert_eq!(code, 2);
    assert_error_shape(&document, "spec-unreadable");
}

#[test]
fn help_lists_the_commands() {
    let output = lintel().arg("--help").output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    for command in ["check", "explain", "compile", "graph"] {
        assert!(text.contains(command), "{command} in help");
    }
}

#[test]
fn explain_finds_a_reported_id_and_refuses_an_unknown_one() {
    let (_, verdict) = json_run(
        lintel()
            .args(["check", "--all", "--json", "--project"])
            .arg(example("monorepo-reach")),
    );
    let id = verdict["violations"][0]["id"].as_str().unwrap().to_owned();
    let (code, explanation) = json_run(
        lintel()
            .args([
                "explain",
                "--violation",
                &id,
                "--all",
                "--json",
                "--project",
            ])
            .arg(example("monorepo-reach")),
    );
    assert_eq!(code, 0);
    assert_eq!(explanation["found"], true);
    assert_eq!(explanation["violation_id"], id);
    assert!(explanation["spec_citation"]
        .as_str()
        .unwrap()
        .starts_with("architecture.ag:"));
    assert_eq!(explanation["fix_class"], "move_dependency");
    assert!(explanation["smt_script"]
        .as_str()
        .unwrap()
        .contains("(check-sat-assuming ("));
    let snippet = explanation["source"]["snippet"].as_str().unwrap();
    assert_eq!(
        snippet.lines().count(),
        5,
        "the evidence line with 2 lines on each side: {snippet}"
    );
    assert!(
        snippet.lines().nth(2).unwrap().starts_with("import "),
        "{snippet}"
    );
    assert!(!explanation["graph_fact_chain"]
        .as_array()
        .unwrap()
        .is_empty());
    let (code, missing) = json_run(
        lintel()
            .args([
                "explain",
                "--violation",
                "viol_0000000000000000",
                "--all",
                "--json",
                "--project",
            ])
            .arg(example("monorepo-reach")),
    );
    assert_eq!(code, 2);
    assert_eq!(missing["found"], false);
}

#[test]
fn a_closed_stdout_pipe_stops_quietly_with_the_verdict_exit_code() {
    use std::process::Stdio;
    let mut child = lintel()
        .args(["check", "--all", "--project"])
        .arg(example("layered-api"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(!String::from_utf8_lossy(&output.stderr).contains("panicked"));
}

#[test]
fn sarif_output_validates_against_the_sarif_2_1_0_schema() {
    let output = lintel()
        .args(["check", "--all", "--format", "sarif", "--project"])
        .arg(example("monorepo-reach"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let sarif: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    // The OASIS SARIF 2.1.0 schema (rtm.5), as shipped in the npm package @microsoft/jest-sarif.
    let mut schema: serde_json::Value =
        serde_json::from_str(include_str!("../data/sarif-2.1.0-rtm.5.json")).unwrap();
    // rtm.5's `language` patterns have a stray `]` that strict regex checks of the schema itself
    // reject; lintel never writes `language`, so the intended pattern stands in for them.
    for definition in ["run", "toolComponent"] {
        schema["definitions"][definition]["properties"]["language"]["pattern"] =
            serde_json::json!("^[a-zA-Z]{2}(-[a-zA-Z]{2})?$");
    }
    let validator = jsonschema::draft7::new(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&sarif)
        .map(|error| format!("{error} at {}", error.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let run = &sarif["runs"][0];
    let results = run["results"].as_array().unwrap();
    let findings: Vec<&serde_json::Value> = results
        .iter()
        .filter(|result| result["level"] == "error")
        .collect();
    assert_eq!(findings.len(), 3);
    for finding in &findings {
        let id = finding["partialFingerprints"]["lintelFindingId/v1"]
            .as_str()
            .unwrap();
        assert!(id.starts_with("viol_"));
        assert!(
            finding.get("baselineState").is_none(),
            "--all findings are unchanged: no baseline state"
        );
        let rule = &run["tool"]["driver"]["rules"][finding["ruleIndex"].as_u64().unwrap() as usize];
        assert_eq!(rule["id"], finding["ruleId"]);
    }
    let rule_ids: std::collections::BTreeSet<&str> = findings
        .iter()
        .map(|finding| finding["ruleId"].as_str().unwrap())
        .collect();
    // `deny reach layer Ui -> Db` is one rule as written (two after selector expansion), plus `deny reach Web -> db`.
    assert_eq!(
        rule_ids.len(),
        2,
        "one SARIF rule per policy rule as written"
    );
}

#[test]
fn github_format_prints_one_error_command_per_blocking_finding() {
    let output = lintel()
        .args(["check", "--all", "--format", "github", "--project"])
        .arg(example("layered-api"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8(output.stdout).unwrap();
    let errors: Vec<&str> = text
        .lines()
        .filter(|line| line.starts_with("::error "))
        .collect();
    assert_eq!(errors.len(), 1);
    assert!(errors[0].starts_with("::error file=src/controllers/orders.ts,line=15,col=16,title=flow_violation (deny flow role presentation -> db)::"), "{}", errors[0]);
}

#[test]
fn schema_command_prints_both_schemas() {
    for which in ["verdict", "explain"] {
        let output = lintel().args(["schema", which]).output().unwrap();
        assert_eq!(output.status.code(), Some(0));
        let schema: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert!(schema["$schema"]
            .as_str()
            .unwrap()
            .contains("json-schema.org"));
    }
}

#[test]
fn graph_lists_facts_with_resolved_files_and_marks_violating_edges() {
    let output = lintel()
        .args(["graph", "--all", "--facts", "--project"])
        .arg(example("monorepo-reach"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let graph: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let facts = graph["facts"].as_array().unwrap();
    let mappers = facts
        .iter()
        .find(|fact| fact["properties"]["specifier"] == "@acme/db/mappers")
        .unwrap();
    assert_eq!(mappers["kind"], "import");
    assert_eq!(
        mappers["properties"]["resolved"],
        "packages/db/src/mappers.ts"
    );
    assert_eq!(mappers["subject"], "ApiClient");
    assert_eq!(mappers["target"], "Db");
    let edge = graph["edges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|edge| edge["from"] == "ApiClient" && edge["to"] == "Db")
        .unwrap();
    assert_eq!(
        edge["violations"].as_array().unwrap().len(),
        3,
        "every witness of the example passes ApiClient -> Db"
    );
    let shared = graph["edges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|edge| edge["to"] == "Shared")
        .unwrap();
    assert_eq!(shared["violations"], serde_json::json!([]));

    let dot = lintel()
        .args(["graph", "--all", "--format", "dot", "--project"])
        .arg(example("monorepo-reach"))
        .output()
        .unwrap();
    let dot = String::from_utf8(dot.stdout).unwrap();
    assert!(
        dot.starts_with("digraph lintel {")
            && dot.contains("\"ApiClient\" -> \"Db\"")
            && dot.contains("color=red")
    );
    let mermaid = lintel()
        .args(["graph", "--all", "--format", "mermaid", "--project"])
        .arg(example("monorepo-reach"))
        .output()
        .unwrap();
    let mermaid = String::from_utf8(mermaid.stdout).unwrap();
    assert!(mermaid.starts_with("flowchart LR\n") && mermaid.contains("linkStyle"));
    let html = lintel()
        .args(["graph", "--all", "--format", "html", "--project"])
        .arg(example("monorepo-reach"))
        .output()
        .unwrap();
    assert_eq!(html.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&html.stderr).contains("not-implemented"));
}

#[test]
fn a_spec_outside_the_root_is_named_with_dotdot_and_files_outside_are_refused() {
    let workspace = tempfile::tempdir().unwrap();
    let project = workspace.path().join("project");
    std::fs::create_dir_all(project.join("a")).unwrap();
    std::fs::write(project.join("a/x.ts"), "export const x = 1;\n").unwrap();
    let specs = workspace.path().join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    std::fs::write(
        specs.join("arch.ag"),
        "node app : server\ncomponent A { runs_on: app paths: \"a/**\" }\n",
    )
    .unwrap();
    let (code, document) = json_run(
        lintel()
            .args(["check", "--all", "--json", "--project"])
            .arg(&project)
            .arg("--spec")
            .arg(specs.join("arch.ag")),
    );
    assert_eq!(code, 0);
    assert_eq!(document["artifact"], "../specs/arch.ag");
    let text = serde_json::to_string(&document).unwrap();
    assert!(
        !text.contains(&*workspace.path().to_string_lossy()),
        "no absolute path in the verdict"
    );

    let (code, document) = json_run(
        lintel()
            .current_dir(&project)
            .args(["check", "--json", "--spec"])
            .arg(specs.join("arch.ag"))
            .args(["--file", "../specs/arch.ag"]),
    );
    assert_eq!(code, 2);
    assert_error_shape(&document, "path-outside-project");
}

#[test]
fn an_exhausted_resource_limit_fails_closed_and_names_the_undecided_slices() {
    let (code, document) = json_run(
        lintel()
            .args([
                "check",
                "--all",
                "--json",
                "--slice-rlimit",
                "1",
                "--project",
            ])
            .arg(example("monorepo-reach")),
    );
    assert_eq!(code, 1);
    assert_eq!(document["verdict"], "fail");
    assert_eq!(document["violations"], serde_json::json!([]));
    let statuses: Vec<&str> = document["solver_diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|slice| slice["status"].as_str().unwrap())
        .collect();
    assert!(!statuses.is_empty() && statuses.iter().all(|status| *status == "unknown"));
    assert!(document["solver_diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .all(|slice| slice["reason"] == "rlimit" && slice["suggested_refactor"].is_string()));
    assert_eq!(
        document["smt_model"].as_str().unwrap().lines().count(),
        statuses.len()
    );
    let context = document["agent_context"].as_str().unwrap();
    assert!(context.starts_with(&format!(
        "FAIL: 0 blocking finding(s) in 0 file(s), {} undecided rule slice(s)",
        statuses.len()
    )));
    assert!(context.contains("`deny reach Web -> db` in `Boundaries`"));
    assert!(context.contains("Re-run: lintel check --all --slice-rlimit 1"));
}

#[test]
fn emit_context_writes_the_rules_in_plain_words() {
    let out = tempfile::tempdir().unwrap();
    let path = out.path().join("AGENTS.md");
    let output = lintel()
        .args(["emit-context", "--out"])
        .arg(&path)
        .arg("--project")
        .arg(example("monorepo-reach"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let brief = std::fs::read_to_string(&path).unwrap();
    assert!(
        brief.contains("- `Web`: `packages/web/**` (runs on `browser`, layer `Ui`)"),
        "{brief}"
    );
    assert!(brief.contains("- `deny reach layer Ui -> Db` (`Boundaries`, architecture.ag:15): no dependency path `layer Ui -> Db`"), "{brief}");
    assert_eq!(
        brief.matches("deny reach layer Ui -> Db").count(),
        1,
        "a selector rule is stated once"
    );
    assert!(brief.contains("lintel check --diff origin/main --json"));
}

#[test]
fn debug_extractors_lists_every_extracted_file_with_its_query_passes() {
    let (_, document) = json_run(
        lintel()
            .args([
                "check",
                "--all",
                "--json",
                "--debug-extractors",
                "--project",
            ])
            .arg(example("layered-api")),
    );
    let debug = document["extractor_debug"].as_array().unwrap();
    let files: Vec<&str> = debug
        .iter()
        .map(|entry| entry["file"].as_str().unwrap())
        .collect();
    assert_eq!(
        files,
        [
            "src/controllers/orders.ts",
            "src/repositories/orders.ts",
            "src/services/orders.ts"
        ]
    );
    for entry in debug {
        assert_eq!(entry["language"], "typescript");
        let queries = entry["queries"].as_array().unwrap();
        assert_eq!(queries.len(), 1, "one walk per TypeScript file");
        assert_eq!(queries[0]["id"], "typescript.walk");
        assert!(queries[0]["matched"].as_u64().unwrap() > 0);
        assert!(queries[0]["elapsed_ms"].is_u64());
    }
    let (_, plain) = json_run(
        lintel()
            .args(["check", "--all", "--json", "--project"])
            .arg(example("layered-api")),
    );
    assert!(
        plain.get("extractor_debug").is_none(),
        "only with --debug-extractors"
    );
}

#[test]
fn check_file_and_repo_filter_narrow_what_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(
        root.join("architecture.ag"),
        "repo Front \"github.com/acme/front\"\nrepo Back \"github.com/acme/back\"\nnode app : server\nnode db : postgres\n\
         component Web { runs_on: app paths: \"web/**\" repo: Front }\ncomponent Api { runs_on: app paths: \"api/**\" repo: Back }\n\
         invariant I { deny flow Web -> db\n deny flow Api -> db }\n",
    )
    .unwrap();
    for folder in ["web", "api"] {
        std::fs::create_dir_all(root.join(folder)).unwrap();
        std::fs::write(
            root.join(folder).join("x.ts"),
            "import { Pool } from \"pg\";\nexport const pool = new Pool();\n",
        )
        .unwrap();
    }
    let files = |document: &serde_json::Value| -> Vec<String> {
        document["violations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|violation| violation["detected"]["file"].as_str().unwrap().to_owned())
            .collect()
    };
    let (code, document) =
        json_run(
            lintel()
                .current_dir(root)
                .args(["check-file", "--file", "web/x.ts", "--json"]),
        );
    assert_eq!(code, 1);
    assert_eq!(document["diff"]["mode"], "files");
    assert_eq!(files(&document), ["web/x.ts"]);
    assert!(document["agent_context"]
        .as_str()
        .unwrap()
        .contains("Re-run: lintel check --file web/x.ts"));
    let (code, document) = json_run(lintel().current_dir(root).args([
        "check",
        "--all",
        "--repo-filter",
        "Back",
        "--json",
    ]));
    assert_eq!(code, 1);
    assert_eq!(files(&document), ["api/x.ts"]);
    assert!(document["agent_context"]
        .as_str()
        .unwrap()
        .contains("--repo-filter Back"));
}

#[test]
fn imports_resolve_to_types_of_files_that_are_not_extracted() {
    // Only `app/**` is owned, and the generated model is left out: their types still resolve.
    let workspace = tempfile::tempdir().unwrap();
    let project = workspace.path();
    write_files(
        project,
        &[
        (
            "arch.ag",
            "node n : server\ncomponent App { runs_on: n paths: \"app/**\" }\n",
        ),
        (
            "app/Main.java",
            "package com.acme.app;\n\nimport com.acme.lib.Shared;\nimport com.acme.gen.Model;\n\nclass Main { Shared shared; Model model; }\n",
        ),
        ("lib/Shared.java", "package com.acme.lib;\n\npublic class Shared {}\n"),
        (
            "app/gen/Model.java",
            "// @generated by a tool\npackage com.acme.gen;\n\npublic class Model {}\n",
        ),
        (
            "app/Program.cs",
            "using Acme.Lib;\n\nclass Program { Widget widget; }\n",
        ),
        ("lib/Widget.cs", "namespace Acme.Lib { public class Widget {} }\n"),
        ],
    );
    let resolved = |extra: &[&str]| -> Vec<(String, String)> {
        let output = lintel()
            .args(["graph", "--all", "--facts", "--no-cache", "--project"])
            .arg(project)
            .arg("--spec")
            .arg(project.join("arch.ag"))
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0));
        let graph: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        graph["facts"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|fact| fact["kind"] == "import")
            .map(|fact| {
                (
                    fact["evidence"]["file"].as_str().unwrap().to_owned(),
                    fact["properties"]["resolved"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    let expected = [
        ("app/Main.java", "lib/Shared.java"),
        ("app/Main.java", "app/gen/Model.java"),
        ("app/Program.cs", "lib/Widget.cs"),
    ]
    .map(|(file, resolved)| (file.to_owned(), resolved.to_owned()));
    let mut found = resolved(&[]);
    found.sort();
    let mut sorted = expected.to_vec();
    sorted.sort();
    assert_eq!(found, sorted);
    // One thread gives the same facts.
    let mut single = resolved(&["--threads", "1"]);
    single.sort();
    assert_eq!(single, sorted);
}

#[test]
fn bench_parse_parses_exactly_the_files_check_parses() {
    // Owned and extracted: `app/a.ts`. Parsed for their declarations: the generated and the
    // unowned Java and C# files. Not parsed: generated TypeScript, an unowned Python file, an
    // EF migration designer file (unless generated files are kept).
    let workspace = tempfile::tempdir().unwrap();
    let project = workspace.path();
    write_files(
        project,
        &[
            (
                "arch.ag",
                "node n : server\ncomponent App { runs_on: n paths: \"app/**\" }\n",
            ),
            ("app/a.ts", "export const a = 1;\n"),
            (
                "app/gen.ts",
                "// @generated by a tool\nexport const g = 1;\n",
            ),
            (
                "app/gen/Model.java",
                "// @generated by a tool\npackage com.acme.gen;\n\npublic class Model {}\n",
            ),
            (
                "app/Migrations/1_Initial.Designer.cs",
                "// <auto-generated />\nnamespace Acme.Migrations { partial class Initial {} }\n",
            ),
            (
                "lib/Shared.java",
                "package com.acme.lib;\n\npublic class Shared {}\n",
            ),
            (
                "lib/Widget.cs",
                "namespace Acme.Lib { public class Widget {} }\n",
            ),
            ("lib/util.py", "def f():\n    return 1\n"),
        ],
    );
    let parsed = |extra: &[&str]| -> u64 {
        let output = lintel()
            .args(["bench-parse", "--all", "--project"])
            .arg(project)
            .arg("--spec")
            .arg(project.join("arch.ag"))
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0));
        let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        document["files"].as_u64().unwrap()
    };
    assert_eq!(parsed(&[]), 4);
    // Kept generated files are extracted, so parsed: the TypeScript and the designer file too.
    assert_eq!(parsed(&["--include-generated"]), 6);
}
