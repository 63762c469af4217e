//! Exclusions end to end (`!` globs of `component` and `exclude`, see policies/LANGUAGE.md): the real binary on a
//! project whose test file breaks `deny flow Api -> db`.

use super::{graph_document, json_run, lintel, write_files};

/// The spec: `paths` of `Api`, then any other declarations.
fn spec(paths: &str, rest: &str) -> String {
    format!(
        "node app : server\nnode db : postgres\ncomponent Api {{ runs_on: app paths: {paths} }}\ninvariant Layers {{ deny flow Api -> db }}\n{rest}"
    )
}

/// A project: a clean source file, a test that opens a Postgres pool, and a binary-looking
/// vendored file (a `file-skipped` warning whenever it is read).
fn project(architecture: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            ("architecture.ag", architecture),
            ("api/orders.ts", "export const total = 1;\n"),
            (
                "api/orders.test.ts",
                "import { Pool } from \"pg\";\nimport { total } from \"./orders\";\nexport const pool = new Pool(total);\n",
            ),
            ("api/vendor/blob.ts", "export const b = 1;\0\n"),
        ],
    );
    dir
}

fn check(project: &std::path::Path, extra: &[&str]) -> (i32, serde_json::Value) {
    // From the project's folder: `--file` names files relative to the working directory.
    json_run(
        lintel()
            .current_dir(project)
            .args(["check", "--json", "--no-cache", "--project"])
            .arg(project)
            .args(extra),
    )
}

/// What `lintel emit-context` writes for the project.
fn brief(project: &std::path::Path) -> String {
    let output = lintel()
        .args(["emit-context", "--project"])
        .arg(project)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

fn skipped_files(verdict: &serde_json::Value) -> Vec<&str> {
    verdict["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|warning| warning["code"] == "file-skipped")
        .map(|warning| warning["file"].as_str().unwrap())
        .collect()
}

#[test]
fn without_an_exclusion_the_test_file_breaks_deny_flow() {
    let dir = project(&spec("\"api/**\"", ""));
    let (code, verdict) = check(dir.path(), &["--all"]);
    assert_eq!(code, 1, "{verdict}");
    let files: Vec<&str> = verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| violation["detected"]["file"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["api/orders.test.ts"]);
    assert_eq!(skipped_files(&verdict), ["api/vendor/blob.ts"]);
    assert!(
        verdict["stats"].get("files_excluded").is_none(),
        "no exclusion in the spec, no count: {}",
        verdict["stats"]
    );
    let (_, verdict) = check(dir.path(), &["--file", "api/orders.test.ts"]);
    assert_eq!(
        verdict["diff"]["changed_components"],
        serde_json::json!(["Api"])
    );
}

#[test]
fn negated_globs_leave_the_test_file_and_the_vendored_file_to_no_component() {
    let dir = project(&spec(
        "[\"api/**\", \"!api/**/*.test.ts\", \"!./api/vendor/\"]",
        "",
    ));
    let (code, verdict) = check(dir.path(), &["--all"]);
    assert_eq!(code, 0, "{verdict}");
    assert_eq!(verdict["verdict"], "pass");
    assert_eq!(verdict["violations"], serde_json::json!([]));
    assert_eq!(
        verdict["stats"]["files_excluded"], 2,
        "{}",
        verdict["stats"]
    );
    assert_eq!(skipped_files(&verdict), Vec::<&str>::new());
    let output = lintel()
        .args(["check", "--all", "--no-cache", "--project"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    // The test file a `!` glob leaves to no component is still read for chains (its imports),
    // so two files are scanned; the vendored one is binary and skipped.
    assert!(text.contains("; 2 file(s) (2 excluded), "), "{text}");
    let brief = brief(dir.path());
    assert!(
        brief
            .contains("- `Api`: `api/**` except `api/**/*.test.ts`, `api/vendor/` (runs on `app`)"),
        "{brief}"
    );
}

#[test]
fn exclude_declarations_across_imports_leave_files_unread_and_survive_the_artifact() {
    let dir = project(&spec(
        "\"api/**\"",
        "import \"specs/vendored.ag\"\nexclude \"**/*.test.ts\"\n",
    ));
    write_files(
        dir.path(),
        &[("specs/vendored.ag", "exclude [\"api/vendor/\"]\n")],
    );
    let (code, verdict) = check(dir.path(), &["--all"]);
    assert_eq!(code, 0, "{verdict}");
    assert_eq!(
        verdict["stats"]["files_excluded"], 2,
        "{}",
        verdict["stats"]
    );
    assert_eq!(
        verdict["stats"]["files_scanned"], 1,
        "only `api/orders.ts` is extracted"
    );
    assert_eq!(
        skipped_files(&verdict),
        Vec::<&str>::new(),
        "an excluded file is not read at all"
    );
    // A component whose every file is excluded matches none.
    write_files(
        dir.path(),
        &[(
            "specs/vendored.ag",
            "exclude [\"api/vendor/\"]\ncomponent Vendor { runs_on: app paths: \"api/vendor/**\" }\n",
        )],
    );
    let (_, verdict) = check(dir.path(), &["--all"]);
    let warnings: Vec<&str> = verdict["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|warning| warning["code"] == "component-matches-no-files")
        .map(|warning| warning["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        warnings,
        ["component `Vendor` matches no file under the project root that the spec's `exclude` and `!` globs leave in (paths: `api/vendor/**`)"]
    );
    write_files(
        dir.path(),
        &[("specs/vendored.ag", "exclude [\"api/vendor/\"]\n")],
    );
    // A changed excluded file puts no component in scope.
    let (code, verdict) = check(dir.path(), &["--file", "api/orders.test.ts"]);
    assert_eq!(code, 0, "{verdict}");
    assert_eq!(verdict["diff"]["changed_components"], serde_json::json!([]));

    // The compiled artifact carries the merged globs, and a check that loads it agrees.
    let artifact = dir.path().join("architecture.o");
    let output = lintel()
        .args(["compile"])
        .arg(dir.path().join("architecture.ag"))
        .arg("--project")
        .arg(dir.path())
        .arg("--out")
        .arg(&artifact)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&artifact).unwrap()).unwrap();
    assert_eq!(
        written["model"]["excludes"],
        serde_json::json!(["api/vendor/", "**/*.test.ts"])
    );
    let (code, verdict) = check(dir.path(), &["--all", "--spec", artifact.to_str().unwrap()]);
    assert_eq!(code, 0, "{verdict}");
    assert_eq!(verdict["artifact"], "architecture.o");
    assert_eq!(verdict["stats"]["files_excluded"], 2);

    // The agent brief names what the check leaves out.
    let brief = brief(dir.path());
    assert!(
        brief.contains("Excluded from the check (not read, owned by no component, no rule sees them): `api/vendor/`, `**/*.test.ts`."),
        "{brief}"
    );
}

#[test]
fn an_exclude_with_a_negated_glob_is_a_located_compile_error() {
    let dir = project(&spec(
        "\"api/**\"",
        "exclude [\"**/*.test.ts\", \"!api/keep.test.ts\"]\n",
    ));
    let (code, document) = check(dir.path(), &["--all"]);
    assert_eq!(code, 2, "{document}");
    let diagnostic = &document["diagnostics"][0];
    assert_eq!(diagnostic["code"], "invalid-glob", "{document}");
    assert_eq!(
        (
            diagnostic["file"].as_str(),
            diagnostic["line"].as_u64(),
            diagnostic["column"].as_u64()
        ),
        (Some("architecture.ag"), Some(5), Some(26))
    );
    let dir = project(&spec("\"!api/**/*.test.ts\"", ""));
    let (code, document) = check(dir.path(), &["--all"]);
    assert_eq!(code, 2, "{document}");
    assert_eq!(document["diagnostics"][0]["code"], "invalid-glob");
    assert!(document["diagnostics"][0]["help"]
        .as_str()
        .is_some_and(|help| help.contains("exclude")));
}

#[test]
fn an_excluded_java_file_declares_no_type_to_resolve_to_and_is_not_parsed() {
    let dir = tempfile::tempdir().unwrap();
    let spec = "node n : server\ncomponent App { runs_on: n paths: \"app/**\" }\n";
    write_files(
        dir.path(),
        &[
            (
                "app/Main.java",
                "package com.acme.app;\n\nimport com.acme.lib.Shared;\nimport com.acme.lib.Excluded;\n\nclass Main { Shared shared; Excluded excluded; }\n",
            ),
            ("lib/Shared.java", "package com.acme.lib;\n\npublic class Shared {}\n"),
            ("lib/Excluded.java", "package com.acme.lib;\n\npublic class Excluded {}\n"),
        ],
    );
    // (files bench-parse parses, files the imports resolve to)
    let run = |architecture: &str| -> (u64, Vec<String>) {
        write_files(dir.path(), &[("architecture.ag", architecture)]);
        let graph = graph_document(dir.path());
        let mut resolved: Vec<String> = graph["facts"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|fact| fact["properties"]["resolved"].as_str())
            .map(str::to_owned)
            .collect();
        resolved.sort();
        let output = lintel()
            .args(["bench-parse", "--all", "--project"])
            .arg(dir.path())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        (document["files"].as_u64().unwrap(), resolved)
    };
    assert_eq!(
        run(spec),
        (
            3,
            vec!["lib/Excluded.java".to_owned(), "lib/Shared.java".to_owned()]
        ),
        "an unowned Java file is read for the types it declares"
    );
    assert_eq!(
        run(&format!("{spec}exclude \"lib/Excluded.java\"\n")),
        (2, vec!["lib/Shared.java".to_owned()])
    );
}

#[test]
fn an_import_of_an_excluded_file_is_no_flow_to_the_component_whose_globs_match_it() {
    let dir = tempfile::tempdir().unwrap();
    let spec = "node app : server\ncomponent Web { runs_on: app paths: \"web/**\" }\ncomponent Api { runs_on: app paths: \"api/**\" }\ninvariant I { deny flow Web -> Api }\n";
    write_files(
        dir.path(),
        &[
            (
                "web/app.ts",
                "import { client } from \"../api/gen/client\";\nexport const app = client;\n",
            ),
            ("api/gen/client.ts", "export const client = 1;\n"),
        ],
    );
    write_files(dir.path(), &[("architecture.ag", spec)]);
    let (code, verdict) = check(dir.path(), &["--all"]);
    assert_eq!(code, 1, "{verdict}");
    write_files(
        dir.path(),
        &[("architecture.ag", &format!("{spec}exclude \"api/gen/\"\n"))],
    );
    let (code, verdict) = check(dir.path(), &["--all"]);
    assert_eq!(code, 0, "{verdict}");
    assert_eq!(verdict["stats"]["files_excluded"], 1);
}
