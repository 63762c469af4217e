//! End-to-end tests over `examples/`: the whole pipeline in-process, real tree-sitter, real Z3, real git.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    reason = "test code: a failed unwrap or index is a failed test"
)]

mod artifact;
mod bindings;
mod boundaries;
mod cache;
mod determinism;
mod examples;
mod families;
mod git_scopes;
mod ids;
mod queries;
mod recording;
mod robustness;
mod tidy;

use std::path::Path;

use engine::ScopeRequest;
use engine::Z3Solver;
use engine::{run_check, CheckOptions};

/// Runs `check` in-process and returns the verdict as JSON.
pub fn check(project: &Path, scope: ScopeRequest, threads: usize) -> serde_json::Value {
    let mut options = CheckOptions::new(project);
    options.scope = scope;
    options.threads = Some(threads);
    let run = run_check(&options, &Z3Solver).expect("check runs");
    let verdict = serde_json::to_value(&run.verdict).expect("verdict serializes");
    assert_valid_verdict(&verdict);
    verdict
}

/// Runs the CLI in-process with these arguments; returns the exit code and stdout.
pub fn run_cli(arguments: &[&str]) -> (i32, String) {
    let mut argv = vec!["lintel".to_owned()];
    argv.extend(arguments.iter().map(|argument| (*argument).to_owned()));
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let status = engine::run(argv, &mut stdout, &mut stderr);
    (status.code(), String::from_utf8(stdout).unwrap())
}

/// The one reach finding of a run, asserted `new` and blocking (a pull request's new chain).
pub fn the_new_reach_finding(run: &engine::CheckRun) -> &engine::verdict::ArchitectureViolation {
    let reach: Vec<_> = run
        .verdict
        .violations
        .iter()
        .filter(|violation| violation.violation_type == "reach_violation")
        .collect();
    assert_eq!(reach.len(), 1, "{:?}", run.verdict.violations);
    let violation = reach[0];
    assert_eq!(violation.status, "new");
    assert!(violation.blocking);
    violation
}

/// Validates a verdict against the published schema (`lintel schema verdict`).
pub fn assert_valid_verdict(verdict: &serde_json::Value) {
    let schema = engine::verdict_schema();
    let validator = jsonschema::validator_for(&schema).expect("the verdict schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(verdict)
        .map(|error| format!("{error} at {}", error.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "verdict does not match its schema: {errors:?}"
    );
    // Other string arrays sort bytewise (sort orders in docs/VERDICT.md).
    for coverage in verdict["rule_coverage"].as_array().into_iter().flatten() {
        let evidence: Vec<&str> = coverage["evidence"]
            .as_array()
            .unwrap()
            .iter()
            .map(|text| text.as_str().unwrap())
            .collect();
        let mut sorted = evidence.clone();
        sorted.sort_unstable();
        assert_eq!(evidence, sorted, "rule_coverage evidence sorts bytewise");
    }
}

/// Runs `check --all` on an example and returns the redacted verdict.
pub fn check_example(name: &str) -> serde_json::Value {
    let mut verdict = check(&tests::example(name), ScopeRequest::All, 2);
    tests::redact(&mut verdict);
    verdict
}

/// Replays an `smt_script` through the stock `z3` binary and returns its first line.
pub fn replay_with_z3(script: &str) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new("z3")
        .arg("-in")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the stock `z3` binary is installed (scripts/setup.sh installs it)");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("write script");
    let output = child.wait_with_output().expect("z3 finishes");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// Asserts that the proof script of every violation of `run` replays `unsat` in stock z3.
pub fn assert_every_violation_replays_unsat(run: &engine::CheckRun) {
    for violation in &run.verdict.violations {
        let detail = &run.details[&violation.id];
        assert_eq!(
            replay_with_z3(&detail.smt_script),
            "unsat",
            "{}",
            violation.id
        );
    }
}

/// Stages every change of the work tree (additions, edits and deletions) and commits it on HEAD.
pub fn commit_all(repository: &git2::Repository, message: &str) -> git2::Oid {
    let mut index = repository.index().unwrap();
    index
        .add_all(["*"], git2::IndexAddOption::DEFAULT, None)
        .unwrap();
    index.update_all(["*"], None).unwrap();
    index.write().unwrap();
    let tree = repository.find_tree(index.write_tree().unwrap()).unwrap();
    let signature = git2::Signature::now("lintel tests", "tests@example.invalid").unwrap();
    let parents: Vec<git2::Commit<'_>> = repository
        .head()
        .ok()
        .and_then(|head| head.peel_to_commit().ok())
        .into_iter()
        .collect();
    let parents: Vec<&git2::Commit<'_>> = parents.iter().collect();
    repository
        .commit(
            Some("HEAD"),
            &signature,
            &signature,
            message,
            &tree,
            &parents,
        )
        .unwrap()
}
