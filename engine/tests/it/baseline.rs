//! Baselines end to end: `lintel baseline` records today's blocking findings, and `check` in
//! every scope then marks them `existing` and non-blocking, blocks new ones, and (with `--all`)
//! warns about entries that no longer occur; SARIF and GitHub output say the same.

use std::path::Path;

use super::{git, json_run, lintel, write_files};

const SPEC: &str = "node app : server
component Api { runs_on: app paths: \"api/**\" }
component Db  { runs_on: app paths: \"db/**\" }
invariant Layers { deny flow Api -> Db }
";

const IMPORTS_DB: &str = "import { q } from '../db/q';\nexport const value = q;\n";

/// A committed repository where `api/a.ts` and `api/b.ts` break `deny flow Api -> Db`.
fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_files(
        root,
        &[
            ("architecture.ag", SPEC),
            ("db/q.ts", "export const q = 1;\n"),
            ("api/a.ts", IMPORTS_DB),
            ("api/b.ts", IMPORTS_DB),
            ("api/clean.ts", "export const clean = 1;\n"),
        ],
    );
    git(root, &["init", "-q", "-b", "main"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "base"]);
    dir
}

fn check(root: &Path, extra: &[&str]) -> (i32, serde_json::Value) {
    json_run(
        lintel()
            .current_dir(root)
            .args(["check", "--json", "--no-cache", "--project"])
            .arg(root)
            .args(extra),
    )
}

fn run_baseline(root: &Path, extra: &[&str]) -> String {
    let output = lintel()
        .current_dir(root)
        .args(["baseline", "--no-cache", "--project"])
        .arg(root)
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// (file, status, blocking, baselined) of each violation.
fn states(verdict: &serde_json::Value) -> Vec<(String, String, bool, bool)> {
    verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| {
            (
                violation["detected"]["file"].as_str().unwrap().to_owned(),
                violation["status"].as_str().unwrap().to_owned(),
                violation["blocking"].as_bool().unwrap(),
                violation["baselined"] == true,
            )
        })
        .collect()
}

fn state(
    file: &str,
    status: &str,
    blocking: bool,
    baselined: bool,
) -> (String, String, bool, bool) {
    (file.to_owned(), status.to_owned(), blocking, baselined)
}

#[test]
fn baseline_records_todays_findings_one_per_line_and_check_then_passes() {
    let dir = repository();
    let root = dir.path();
    let (code, before) = check(root, &["--all"]);
    assert_eq!(code, 1, "{before}");

    let summary = run_baseline(root, &[]);
    assert!(
        summary.starts_with("wrote .lintel/baseline.json: 2 finding(s) (2 added, 0 dropped)"),
        "{summary}"
    );
    let text = std::fs::read_to_string(root.join(".lintel/baseline.json")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(lines[0], "{\"lintel_baseline\":1,\"findings\":[");
    let first: serde_json::Value = serde_json::from_str(lines[1].trim_end_matches(',')).unwrap();
    let violation = &before["violations"][0];
    assert_eq!(first["id"], violation["id"]);
    assert_eq!(first["type"], "flow_violation");
    assert_eq!(first["declaration"], "Layers");
    assert_eq!(first["rule"], "deny flow Api -> Db");
    assert_eq!(first["file"], "api/a.ts");
    assert_eq!(first["line"], violation["detected"]["line"]);
    assert_eq!(first["message"], violation["message"]);
    assert!(lines[2].contains("\"file\":\"api/b.ts\""), "{text}");
    // Running it again changes nothing: the order is stable.
    let again = run_baseline(root, &[]);
    assert!(
        again.contains("2 finding(s) (0 added, 0 dropped)"),
        "{again}"
    );
    assert_eq!(
        std::fs::read_to_string(root.join(".lintel/baseline.json")).unwrap(),
        text
    );

    let (code, after) = check(root, &["--all"]);
    assert_eq!(code, 0, "{after}");
    assert_eq!(
        states(&after),
        [
            state("api/a.ts", "existing", false, true),
            state("api/b.ts", "existing", false, true)
        ]
    );
    assert!(after["agent_context"].as_str().unwrap().starts_with("PASS"));
    assert!(after["warnings"].as_array().unwrap().is_empty(), "{after}");
    let output = lintel()
        .current_dir(root)
        .args(["check", "--all", "--no-cache"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        text.matches("\n  = accepted: listed in the baseline\n")
            .count(),
        2,
        "{text}"
    );
    assert!(
        text.contains(
            "PASS: 0 blocking finding(s) (2 accepted by the baseline or a waiver), 0 warning(s)"
        ),
        "{text}"
    );
    // `--no-baseline` sees every finding again.
    let (code, _) = check(root, &["--all", "--no-baseline"]);
    assert_eq!(code, 1);
}

#[test]
fn a_new_finding_blocks_in_every_scope_while_baselined_ones_do_not() {
    let dir = repository();
    let root = dir.path();
    run_baseline(root, &[]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "baseline"]);
    git(root, &["branch", "base"]);
    // A third importer, staged.
    write_files(
        root,
        &[
            ("api/c.ts", IMPORTS_DB),
            ("api/a.ts", &format!("{IMPORTS_DB}// touched\n")),
        ],
    );
    git(root, &["add", "-A"]);

    let (code, staged) = check(root, &[]);
    assert_eq!(code, 1, "{staged}");
    assert_eq!(staged["diff"]["mode"], "staged");
    assert_eq!(
        states(&staged),
        [
            state("api/a.ts", "existing", false, true),
            state("api/c.ts", "new", true, false)
        ]
    );

    let (code, all) = check(root, &["--all"]);
    assert_eq!(code, 1);
    assert_eq!(
        states(&all),
        [
            state("api/a.ts", "existing", false, true),
            state("api/b.ts", "existing", false, true),
            state("api/c.ts", "new", true, false)
        ]
    );

    let (code, files) = check(root, &["--file", "api/c.ts", "api/b.ts"]);
    assert_eq!(code, 1);
    assert_eq!(
        states(&files),
        [
            state("api/b.ts", "existing", false, true),
            state("api/c.ts", "new", true, false)
        ]
    );

    git(root, &["commit", "-q", "-m", "c imports the database"]);
    let (code, diff) = check(root, &["--diff", "base"]);
    assert_eq!(code, 1, "{diff}");
    assert_eq!(
        states(&diff),
        [
            state("api/a.ts", "existing", false, true),
            state("api/c.ts", "new", true, false)
        ]
    );

    // SARIF: `baselineState` follows the status, and the baselined result is a note.
    let output = lintel()
        .current_dir(root)
        .args(["check", "--all", "--no-cache", "--format", "sarif"])
        .output()
        .unwrap();
    let sarif: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let results: Vec<(String, String, String)> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| {
            (
                result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
                result["level"].as_str().unwrap().to_owned(),
                result["baselineState"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let result = |file: &str, level: &str, state: &str| {
        (file.to_owned(), level.to_owned(), state.to_owned())
    };
    assert_eq!(
        results,
        [
            result("api/a.ts", "note", "unchanged"),
            result("api/b.ts", "note", "unchanged"),
            result("api/c.ts", "error", "new")
        ]
    );
    assert_eq!(
        sarif["runs"][0]["results"][0]["properties"]["baselined"],
        true
    );

    // GitHub: one error for the new finding, a warning that says why for each baselined one.
    let output = lintel()
        .current_dir(root)
        .args(["check", "--all", "--no-cache", "--format", "github"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("::warning file=api/a.ts,"), "{text}");
    assert!(
        lines[0].contains("(accepted: listed in the baseline)"),
        "{text}"
    );
    assert!(lines[2].starts_with("::error file=api/c.ts,"), "{text}");
}

#[test]
fn entries_that_no_longer_occur_are_warned_about_with_all_and_dropped_by_a_new_baseline() {
    let dir = repository();
    let root = dir.path();
    run_baseline(root, &[]);
    write_files(root, &[("api/b.ts", "export const value = 2;\n")]);
    let (code, verdict) = check(root, &["--all"]);
    assert_eq!(code, 0, "{verdict}");
    let warnings = verdict["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{verdict}");
    assert_eq!(warnings[0]["code"], "stale-baseline-entry");
    assert_eq!(warnings[0]["file"], ".lintel/baseline.json");
    assert_eq!(
        warnings[0]["line"], 3,
        "b.ts is the second entry, on line 3"
    );
    let message = warnings[0]["message"].as_str().unwrap();
    assert!(
        message.contains("(flow_violation of `deny flow Api -> Db` at api/b.ts:1): run `lintel baseline` to drop it"),
        "{message}"
    );
    // A staged check reports only the findings its files touch, so it cannot tell: no warning.
    git(root, &["add", "api/b.ts"]);
    let (_, staged) = check(root, &[]);
    assert!(
        staged["warnings"].as_array().unwrap().is_empty(),
        "{staged}"
    );

    let summary = run_baseline(root, &[]);
    assert!(
        summary.contains("1 finding(s) (0 added, 1 dropped)"),
        "{summary}"
    );
    let (_, verdict) = check(root, &["--all"]);
    assert!(verdict["warnings"].as_array().unwrap().is_empty());
}

#[test]
fn a_baseline_given_with_a_flag_is_read_and_a_broken_one_is_a_coded_error() {
    let dir = repository();
    let root = dir.path();
    run_baseline(root, &["--baseline", "accepted.json"]);
    assert!(root.join("accepted.json").is_file());
    assert!(!root.join(".lintel").exists());
    let (code, verdict) = check(root, &["--all", "--baseline", "accepted.json"]);
    assert_eq!(code, 0, "{verdict}");
    assert!(verdict["agent_context"]
        .as_str()
        .unwrap()
        .contains("Re-run: lintel check --all --baseline accepted.json"));
    // Without the flag the default file is read, and there is none.
    let (code, _) = check(root, &["--all"]);
    assert_eq!(code, 1);

    let (code, verdict) = check(root, &["--all", "--baseline", "missing.json"]);
    assert_eq!(code, 2);
    assert_eq!(verdict["error"]["code"], "baseline-invalid");
    write_files(root, &[(".lintel/baseline.json", "{\"findings\": 3}")]);
    let (code, verdict) = check(root, &["--all"]);
    assert_eq!(code, 2);
    assert_eq!(verdict["error"]["code"], "baseline-invalid");
    assert!(verdict["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("`.lintel/baseline.json` is not a lintel baseline: "));
}

#[test]
fn help_for_check_documents_the_baseline() {
    let output = lintel().args(["help", "check"]).output().unwrap();
    let help = String::from_utf8(output.stdout).unwrap();
    assert!(help.contains("--baseline <FILE>"), "{help}");
    assert!(help.contains(".lintel/baseline.json"), "{help}");
    assert!(help.contains("--no-baseline"), "{help}");
    let output = lintel().args(["help", "baseline"]).output().unwrap();
    let help = String::from_utf8(output.stdout).unwrap();
    assert!(help.contains("Record today's blocking findings"), "{help}");
}

#[test]
fn a_repo_filter_that_drops_a_rule_does_not_call_its_baseline_entries_stale() {
    let dir = repository();
    let root = dir.path();
    write_files(
        root,
        &[(
            "architecture.ag",
            &format!("{SPEC}repo Front \"https://example.invalid/front.git\"\ncomponent Web {{ runs_on: app paths: \"web/**\" repo: Front }}\n"),
        )],
    );
    run_baseline(root, &[]);
    let (code, verdict) = check(root, &["--all", "--repo-filter", "Front"]);
    assert_eq!(code, 0, "{verdict}");
    let codes: Vec<&str> = verdict["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|warning| warning["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["component-matches-no-files"], "{verdict}");
}

#[test]
fn baseline_json_prints_one_document_on_success_and_on_error() {
    let dir = repository();
    let root = dir.path();
    let (code, document) = json_run(
        lintel()
            .current_dir(root)
            .args(["baseline", "--json", "--no-cache", "--project"])
            .arg(root),
    );
    assert_eq!(code, 0, "{document}");
    assert_eq!(
        document,
        serde_json::json!({"schema_version": 2, "file": ".lintel/baseline.json", "findings": 2,
            "added": 2, "dropped": 0, "undecided": 0})
    );
    write_files(root, &[("api/b.ts", "export const value = 2;\n")]);
    let (_, document) = json_run(
        lintel()
            .current_dir(root)
            .args(["baseline", "--json", "--no-cache", "--project"])
            .arg(root),
    );
    assert_eq!(document["findings"], 1);
    assert_eq!(document["dropped"], 1);
    // An error is the verdict's error document, still one JSON document on stdout.
    let (code, document) = json_run(
        lintel()
            .current_dir(root)
            .args([
                "baseline",
                "--json",
                "--no-cache",
                "--spec",
                "missing.ag",
                "--project",
            ])
            .arg(root),
    );
    assert_eq!(code, 2);
    assert_eq!(document["verdict"], "error");
    assert_eq!(document["error"]["code"], "spec-unreadable");
}
