//! Waivers end to end: a `waive` in the spec makes the findings it covers non-blocking and lists
//! them with the waiver; an expired waiver blocks again and says so; a waiver that matches
//! nothing is a warning (with `--all`); `--today` fixes the date the check judges expiry on.

use super::{json_run, lintel, write_files};

const SPEC: &str = "node app : server
component Api { runs_on: app paths: \"api/**\" }
component Db  { runs_on: app paths: \"db/**\" }
component Web { runs_on: app paths: \"web/**\" }
invariant Layers { deny flow Api -> Db  deny flow Web -> Db }
";

const IMPORTS_DB: &str = "import { q } from '../db/q';\nexport const value = q;\n";

fn project(waivers: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            ("architecture.ag", &format!("{SPEC}{waivers}")),
            ("db/q.ts", "export const q = 1;\n"),
            ("api/a.ts", IMPORTS_DB),
            ("web/w.ts", IMPORTS_DB),
        ],
    );
    dir
}

fn check(root: &std::path::Path, extra: &[&str]) -> (i32, serde_json::Value) {
    json_run(
        lintel()
            .current_dir(root)
            .args(["check", "--all", "--json", "--no-cache"])
            .args(extra),
    )
}

/// (file, blocking, waiver.expired) of each violation.
fn states(verdict: &serde_json::Value) -> Vec<(String, bool, Option<bool>)> {
    verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| {
            (
                violation["detected"]["file"].as_str().unwrap().to_owned(),
                violation["blocking"].as_bool().unwrap(),
                violation["waiver"]["expired"].as_bool(),
            )
        })
        .collect()
}

fn warning_codes(verdict: &serde_json::Value) -> Vec<String> {
    verdict["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|warning| warning["code"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_rule_waiver_makes_its_findings_non_blocking_and_listed_until_it_expires() {
    let dir = project(
        "waive Layers \"deny flow Web -> Db\" until 2027-03-31 owner \"web team\" reason \"legacy page, ticket 812\"\n",
    );
    let root = dir.path();
    let (code, verdict) = check(root, &["--today", "2027-03-31"]);
    assert_eq!(code, 1, "the Api finding still blocks: {verdict}");
    assert_eq!(
        states(&verdict),
        [
            ("api/a.ts".to_owned(), true, None),
            ("web/w.ts".to_owned(), false, Some(false))
        ]
    );
    let waiver = &verdict["violations"][1]["waiver"];
    assert_eq!(
        waiver,
        &serde_json::json!({
            "until": "2027-03-31", "owner": "web team", "reason": "legacy page, ticket 812",
            "expired": false, "source": { "file": "architecture.ag", "line": 6, "column": 7 }
        })
    );
    assert!(warning_codes(&verdict).is_empty(), "{verdict}");
    assert!(verdict["agent_context"]
        .as_str()
        .unwrap()
        .starts_with("FAIL: 1 blocking finding(s) in 1 file(s)"));

    // The day after `until`, the finding blocks again and the check says why.
    let (code, verdict) = check(root, &["--today", "2027-04-01"]);
    assert_eq!(code, 1);
    assert_eq!(
        states(&verdict),
        [
            ("api/a.ts".to_owned(), true, None),
            ("web/w.ts".to_owned(), true, Some(true))
        ]
    );
    assert_eq!(warning_codes(&verdict), ["waiver-expired"]);
    let warning = &verdict["warnings"][0];
    assert_eq!(warning["file"], "architecture.ag");
    assert_eq!(warning["line"], 6);
    assert_eq!(
        warning["message"],
        "the waiver of `Layers` (`deny flow Web -> Db`) expired on 2027-03-31 (owner web team): its 1 finding(s) block again; fix them or extend the waiver"
    );
    let output = lintel()
        .current_dir(root)
        .args(["check", "--all", "--no-cache", "--today", "2027-04-01"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("  = waiver expired on 2027-03-31 (owner web team, architecture.ag:6): this finding blocks again\n"),
        "{text}"
    );
}

#[test]
fn a_finding_waiver_covers_that_finding_and_sarif_marks_it_suppressed() {
    let dir = project("");
    let root = dir.path();
    let (_, verdict) = check(root, &[]);
    let id = verdict["violations"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(verdict["violations"][0]["detected"]["file"], "api/a.ts");
    write_files(
        root,
        &[(
            "architecture.ag",
            &format!("{SPEC}waive {id} until \"2027-03-31\" owner \"payments\" reason \"legacy export\"\nwaive Layers until 2027-03-31 owner \"web team\" reason \"moving pages\"\n"),
        )],
    );
    let (code, verdict) = check(root, &["--today", "2026-12-06"]);
    assert_eq!(code, 0, "{verdict}");
    // The id waiver wins over the declaration-wide one for the finding it names.
    assert_eq!(verdict["violations"][0]["waiver"]["owner"], "payments");
    assert_eq!(verdict["violations"][1]["waiver"]["owner"], "web team");

    let output = lintel()
        .current_dir(root)
        .args([
            "check",
            "--all",
            "--no-cache",
            "--format",
            "sarif",
            "--today",
            "2026-12-06",
        ])
        .output()
        .unwrap();
    let sarif: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let result = &sarif["runs"][0]["results"][0];
    assert_eq!(result["level"], "note");
    assert_eq!(
        result["suppressions"],
        serde_json::json!([{
            "kind": "inSource", "status": "accepted",
            "justification": "legacy export (owner payments, until 2027-03-31)",
            "location": { "physicalLocation": { "artifactLocation": { "uri": "architecture.ag", "uriBaseId": "%SRCROOT%" }, "region": { "startLine": 6, "startColumn": 7 } } }
        }])
    );
    let output = lintel()
        .current_dir(root)
        .args([
            "check",
            "--all",
            "--no-cache",
            "--format",
            "github",
            "--today",
            "2026-12-06",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.lines().next().unwrap().contains("(accepted: waived until 2027-03-31 (owner payments, architecture.ag:6): legacy export)"),
        "{text}"
    );
    assert!(!text.contains("::error"), "{text}");
}

#[test]
fn a_waiver_that_matches_nothing_is_a_warning_with_all_only() {
    let dir = project(
        "invariant Quiet { deny flow Db -> Api }\nwaive Quiet until 2027-03-31 owner \"o\" reason \"r\"\n",
    );
    let root = dir.path();
    let (_, verdict) = check(root, &["--today", "2026-12-06"]);
    assert_eq!(warning_codes(&verdict), ["waiver-matches-nothing"]);
    assert_eq!(
        verdict["warnings"][0]["message"],
        "the waiver of `Quiet` matches no finding: remove it"
    );
    assert_eq!(verdict["warnings"][0]["line"], 7);
    let (_, verdict) = json_run(lintel().current_dir(root).args([
        "check",
        "--json",
        "--no-cache",
        "--file",
        "api/a.ts",
    ]));
    assert!(warning_codes(&verdict).is_empty(), "{verdict}");
}

#[test]
fn a_bad_waiver_stops_the_check_with_its_code_and_a_bad_today_is_a_usage_error() {
    let dir =
        project("waive Layers \"deny flow Api -> db\" until 2027-02-30 owner \"o\" reason \"r\"\n");
    let (code, verdict) = check(dir.path(), &[]);
    assert_eq!(code, 2);
    let codes: Vec<&str> = verdict["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|diagnostic| diagnostic["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["unknown-waiver-rule", "invalid-waiver-date"]);
    let (code, verdict) = check(dir.path(), &["--today", "tomorrow"]);
    assert_eq!(code, 2);
    assert_eq!(verdict["error"]["code"], "usage-error");
}

#[test]
fn lintel_baseline_leaves_waived_findings_to_their_waiver() {
    let dir = project(
        "waive Layers \"deny flow Web -> Db\" until 2027-01-31 owner \"web team\" reason \"r\"\n",
    );
    let root = dir.path();
    let output = lintel()
        .current_dir(root)
        .args(["baseline", "--no-cache", "--today", "2027-02-01"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let text = std::fs::read_to_string(root.join(".lintel/baseline.json")).unwrap();
    // Only the Api finding: the Web one has a waiver, expired or not.
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(text.contains("\"file\":\"api/a.ts\""), "{text}");
    let (code, verdict) = check(root, &["--today", "2027-02-01"]);
    assert_eq!(code, 1, "the expired waiver still blocks: {verdict}");
    assert_eq!(
        states(&verdict),
        [
            ("api/a.ts".to_owned(), false, None),
            ("web/w.ts".to_owned(), true, Some(true))
        ]
    );
}
