//! The compiled artifact: compile → load → identical model, checks from the artifact, refusal of other versions.

use engine::check::{run_check, CheckOptions};
use engine::config::load_spec;
use engine::scope::ScopeRequest;
use engine::solve::Z3Solver;

fn run_cli(arguments: &[&str]) -> (i32, String) {
    let mut argv = vec!["lintel".to_owned()];
    argv.extend(arguments.iter().map(|argument| (*argument).to_owned()));
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let status = engine::cli::run(argv, &mut stdout, &mut stderr);
    (status.code(), String::from_utf8(stdout).unwrap())
}

#[test]
fn compile_then_load_gives_the_identical_model_and_the_same_findings() {
    let project = tests::example("monorepo-reach");
    let out = tempfile::tempdir().unwrap();
    let artifact = out.path().join("architecture.o");
    let spec = project.join("architecture.ag");
    let (code, stdout) = run_cli(&[
        "compile",
        spec.to_str().unwrap(),
        "--out",
        artifact.to_str().unwrap(),
        "--json",
        "--project",
        project.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["ok"], true);

    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&artifact).unwrap()).unwrap();
    assert_eq!(written["lintel_artifact"], 1);
    assert_eq!(
        written["sources"],
        serde_json::json!(["architecture.ag"]),
        "source paths are project-relative"
    );

    let from_source = policies::compile_spec(&spec, &project).model.unwrap();
    let from_artifact = load_spec(&project, Some(&artifact)).unwrap().model;
    assert_eq!(from_source, from_artifact);

    let findings = |spec: Option<std::path::PathBuf>| {
        let mut options = CheckOptions::new(&project);
        options.scope = ScopeRequest::All;
        options.spec = spec;
        let run = run_check(&options, &Z3Solver).unwrap();
        run.verdict
            .violations
            .iter()
            .map(|violation| violation.id.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(findings(None), findings(Some(artifact)));
}

#[test]
fn artifacts_of_another_version_or_shape_are_refused_whole() {
    let project = tests::example("layered-api");
    let dir = tempfile::tempdir().unwrap();
    let other_version = dir.path().join("old.o");
    std::fs::write(&other_version, r#"{"lintel_artifact": 2, "model": {}}"#).unwrap();
    let error = load_spec(&project, Some(&other_version)).unwrap_err();
    assert_eq!(error.code(), "artifact-version-mismatch");
    let not_an_artifact = dir.path().join("data.json");
    std::fs::write(&not_an_artifact, r#"{"model": {}}"#).unwrap();
    assert_eq!(
        load_spec(&project, Some(&not_an_artifact))
            .unwrap_err()
            .code(),
        "artifact-invalid"
    );
    let half = dir.path().join("half.o");
    std::fs::write(&half, r#"{"lintel_artifact": 1, "model": {"files": 3}}"#).unwrap();
    assert_eq!(
        load_spec(&project, Some(&half)).unwrap_err().code(),
        "artifact-invalid"
    );
}

#[test]
fn compile_json_lists_every_diagnostic_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("architecture.ag");
    std::fs::write(&spec, "node app : servr\ncomponent A { runs_on: app paths: \"a/**\" }\ninvariant I { deny flow A -> Ghost }\n").unwrap();
    let (code, stdout) = run_cli(&[
        "compile",
        spec.to_str().unwrap(),
        "--json",
        "--project",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["ok"], false);
    let located: Vec<(String, u64, u64)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|diagnostic| {
            (
                diagnostic["code"].as_str().unwrap().to_owned(),
                diagnostic["line"].as_u64().unwrap(),
                diagnostic["column"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        located,
        [
            ("unknown-node-type".to_owned(), 1, 12),
            ("unknown-entity".to_owned(), 3, 30)
        ]
    );
    assert!(
        !dir.path().join("architecture.o").exists(),
        "no artifact from an invalid spec"
    );
}
