//! The compiled artifact: compile → load → identical model, checks from the artifact, refusal of other versions.

use engine::load_spec;
use engine::ScopeRequest;
use engine::{run_check, CheckOptions};
use engine::{Limits, SliceStatus, Solver, Z3Solver};
use policies::model::{Model, RuleKind};
use policies::smt::permanent_constraint;

use crate::run_cli;

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
    assert_rule_smt(&written, &from_source);

    // An artifact written before rules carried their SMT text still loads.
    let mut without_smt = written.clone();
    for entry in without_smt["rule_smt"].as_array_mut().unwrap() {
        entry.as_object_mut().unwrap().remove("smt");
    }
    let older = out.path().join("older.o");
    std::fs::write(&older, without_smt.to_string()).unwrap();
    assert_eq!(
        load_spec(&project, Some(&older)).unwrap().model,
        from_source
    );

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

/// Every rule with a runtime part has its permanent constraint in the artifact, as
/// `permanent_constraint` renders it; the compile-time kind has none.
fn assert_rule_smt(written: &serde_json::Value, model: &Model) {
    let rules = written["rule_smt"].as_array().unwrap();
    assert_eq!(rules.len(), model.rules.len());
    for (entry, rule) in rules.iter().zip(&model.rules) {
        assert_eq!(entry["text"], rule.text.as_str());
        assert_eq!(entry["kind"], rule.kind.code());
        if rule.kind == RuleKind::RequireContractImplementedBy {
            assert!(entry["smt"].is_null(), "{}: compile-time only", rule.text);
            continue;
        }
        let smt = entry["smt"]
            .as_str()
            .unwrap_or_else(|| panic!("`{}` has no SMT text in the artifact", rule.text));
        assert!(
            smt.starts_with(&format!("; {}: {}", rule.declaration, rule.text)),
            "{smt}"
        );
        assert_eq!(smt, permanent_constraint(rule, model).unwrap().text);
    }
}

/// A spec with at least one rule of every kind.
const EVERY_KIND: &str = r#"node app     : server           { trust: trusted }
node db      : postgres         { trust: trusted  auth: mtls }
node partner : rest_api         { trust: untrusted }
node npm     : package_registry
node pages   : static_host
enum Role { Admin | Member }
enum OrderStatus { Draft | Active | Archived }
data Order   { status: OrderStatus  total: Money  items: List<String> }
data Profile { classification: pii  jurisdiction: eu  id: UUID }
contract OrdersApi { GET "/api/orders" }
component Web     { runs_on: app  paths: "web/**"  layer: Ui  depends_on: Api, Repo }
component Api     { runs_on: app  paths: "api/**"  handles: Profile  implements: OrdersApi  public: "api/index.ts" }
component Repo    { runs_on: app  paths: "api/repo/**" }
component Docs    { runs_on: app  paths: "docs/**" }
component Release { runs_on: app  paths: ".github/workflows/release.yml" }
invariant Layering {
  deny flow Web -> db
  deny reach Web -> db
  deny dataflow Profile -> partner
  require flow Web -> db via Repo
  require dataflow Profile -> db via Repo
  require auth on flow Web -> Api
  require encryption on flow Api -> db
  require operation charge in Api
  require operation purge on Order in Repo
  require dependency Web -> Repo via interface IOrders
  require contract OrdersApi implemented_by Api
  deny cycle among *
  deny cycle within Api
  deny unresolved imports in layer Ui
}
machine OrderLife on Order.status {
  allow transition Draft -> Active
  allow transition * -> Draft
  deny  transition Archived -> *
}
permission OrderAccess on Order {
  allow Role.Admin -> *
  allow Role.Member -> read
  deny Role.Member -> delete
}
value_policy OrderShape { require Order.items.length == 1 when Order.status == Draft }
operation_policy Submit {
  require before submitOrder Order.status == Draft
  ensure after submitOrder Order.status == Active
}
event_policy Consent { require event AcceptConsent preceded_by ShowConsent by Api }
workflow_policy Ship {
  allow publish Release -> npm when tag "v*"
  deny deploy * -> pages when pull_request
  allow permission Release id_token: write
  deny permission * contents: write when pull_request
  require before Release "npm test" -> "npm publish"
}
di_policy Di {
  deny inject Web -> Repo
  deny inject_reach Web -> Repo
  deny lifetime singleton -> scoped
  deny lifetime_reach singleton -> transient
  deny resolve * from Web
}
data_policy Privacy {
  deny classification pii -> untrusted
  deny jurisdiction eu -> partner
}
trust_policy Edge {
  require auth untrusted -> trusted
  deny flow trusted -> untrusted when data pii
}
change_policy Fresh { require touched Docs when touched Api }
"#;

#[test]
fn every_rule_kind_has_its_permanent_constraint_in_the_artifact_and_it_loads_in_z3() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("architecture.ag");
    std::fs::write(&spec, EVERY_KIND).unwrap();
    let artifact = dir.path().join("architecture.o");
    let (code, stdout) = run_cli(&[
        "compile",
        spec.to_str().unwrap(),
        "--out",
        artifact.to_str().unwrap(),
        "--json",
        "--project",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&artifact).unwrap()).unwrap();
    let model = load_spec(dir.path(), Some(&artifact)).unwrap().model;
    for kind in RuleKind::ALL {
        assert!(
            model.rules.iter().any(|rule| rule.kind == kind),
            "the spec has no {} rule",
            kind.name()
        );
    }
    assert_rule_smt(&written, &model);
    // Without facts every permanent constraint is satisfiable, and Z3 loads every assertion.
    let limits = Limits {
        rlimit: 10_000_000,
        timeout_ms: 10_000,
    };
    for rule in &model.rules {
        let Some(slice) = permanent_constraint(rule, &model) else {
            continue;
        };
        let outcome = Z3Solver.solve(&slice, limits);
        assert_eq!(
            outcome.status,
            SliceStatus::Sat,
            "{}: {:?}\n{}",
            rule.text,
            outcome.reason,
            slice.text
        );
    }
}

/// The tracked formulas of a slice script whose names start with `prefix` (`rule `, `allow-list `).
fn tracked_formulas(script: &str, prefixes: &[&str]) -> Vec<String> {
    let lines: Vec<&str> = script.lines().collect();
    lines
        .windows(3)
        .filter_map(|window| {
            let name = window[0].strip_prefix("; ")?.split_once(" = ")?.1;
            if !prefixes.iter().any(|prefix| name.starts_with(prefix)) {
                return None;
            }
            let assertion = window[2].strip_prefix("(assert (=> |")?;
            let (_, formula) = assertion.split_once("| ")?;
            Some(formula.strip_suffix("))")?.to_owned())
        })
        .collect()
}

#[test]
fn the_rule_assertions_of_every_finding_are_in_the_permanent_constraints() {
    let mut examples: Vec<std::path::PathBuf> =
        std::fs::read_dir(tests::workspace_root().join("examples"))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|project| project.join("architecture.ag").is_file())
            .collect();
    examples.sort();
    let mut checked = 0;
    for project in examples {
        let name = project.file_name().unwrap().to_string_lossy().into_owned();
        let model = policies::compile_spec(&project.join("architecture.ag"), &project)
            .model
            .unwrap();
        let permanent: Vec<String> = model
            .rules
            .iter()
            .filter_map(|rule| permanent_constraint(rule, &model))
            .flat_map(|slice| tracked_formulas(&slice.text, &["rule ", "allow-list "]))
            .collect();
        let mut options = CheckOptions::new(&project);
        options.scope = ScopeRequest::All;
        let run = run_check(&options, &Z3Solver).unwrap();
        for (id, detail) in &run.details {
            for formula in tracked_formulas(&detail.smt_script, &["rule ", "allow-list "]) {
                assert!(
                    permanent.contains(&formula),
                    "{name} {id}: `{formula}` is in no permanent constraint"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "the examples have findings");
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
