//! The example projects: the findings each README promises, proofs replayed in a stock z3, snapshots.

use engine::ScopeRequest;
use engine::Z3Solver;
use engine::{run_check, CheckOptions};

use crate::{check_example, replay_with_z3};

fn findings(verdict: &serde_json::Value) -> Vec<(String, String, String, String)> {
    verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| {
            (
                violation["type"].as_str().unwrap().to_owned(),
                violation["rule"]["text"].as_str().unwrap().to_owned(),
                violation["detected"]["file"].as_str().unwrap().to_owned(),
                violation["detected"]["path"]
                    .as_array()
                    .map(|path| {
                        path.iter()
                            .map(|hop| hop.as_str().unwrap())
                            .collect::<Vec<_>>()
                            .join(" -> ")
                    })
                    .unwrap_or_else(|| {
                        format!(
                            "{} -> {}",
                            violation["detected"]["from"].as_str().unwrap(),
                            violation["detected"]["to"].as_str().unwrap()
                        )
                    }),
            )
        })
        .collect()
}

#[test]
fn layered_api_reports_the_controller_that_opens_a_pool() {
    let verdict = check_example("layered-api");
    assert_eq!(verdict["verdict"], "fail");
    assert_eq!(
        findings(&verdict),
        [(
            "flow_violation".to_owned(),
            "deny flow role presentation -> db".to_owned(),
            "src/controllers/orders.ts".to_owned(),
            "Controllers -> db".to_owned()
        )]
    );
    let violation = &verdict["violations"][0];
    assert_eq!(
        violation["detected"]["line"], 15,
        "the `new Pool` line, not the import"
    );
    assert_eq!(violation["detected"]["confidence"], "definite");
    assert_eq!(violation["status"], "unchanged");
    assert!(violation["id"].as_str().unwrap().starts_with("viol_"));
    // The type-only import of a repository type is not a runtime flow.
    let coverage = verdict["rule_coverage"].as_array().unwrap();
    let controllers_to_repositories = coverage
        .iter()
        .find(|entry| entry["rule"] == "deny flow Controllers -> Repositories")
        .unwrap();
    assert_eq!(controllers_to_repositories["status"], "pass");
    // `exclude "**/*.test.ts"` leaves out the test that seeds the database through its own pool.
    assert_eq!(verdict["stats"]["files_excluded"], 1);
    insta::assert_json_snapshot!("layered_api_verdict", verdict);
}

#[test]
fn monorepo_reports_transitive_reach_through_workspace_packages() {
    let verdict = check_example("monorepo-reach");
    assert_eq!(verdict["verdict"], "fail");
    assert_eq!(
        findings(&verdict),
        [
            (
                "reach_violation".to_owned(),
                "deny reach layer Ui -> Db".to_owned(),
                "packages/api-client/src/orders.ts".to_owned(),
                "ApiClient -> Db".to_owned()
            ),
            (
                "reach_violation".to_owned(),
                "deny reach layer Ui -> Db".to_owned(),
                "packages/web/src/App.tsx".to_owned(),
                "Web -> ApiClient -> Db".to_owned()
            ),
            (
                "reach_violation".to_owned(),
                "deny reach Web -> db".to_owned(),
                "packages/web/src/App.tsx".to_owned(),
                "Web -> ApiClient -> Db -> db".to_owned()
            ),
        ]
    );
    insta::assert_json_snapshot!("monorepo_reach_verdict", verdict);
}

#[test]
fn clean_architecture_allows_the_di_wiring_and_reports_the_direct_infrastructure_uses() {
    let verdict = check_example("clean-architecture");
    assert_eq!(verdict["verdict"], "fail");
    assert_eq!(
        findings(&verdict),
        [
            (
                "flow_violation".to_owned(),
                "deny flow Application -> Infrastructure".to_owned(),
                "src/Ordering.Application/Orders/ExportOrders.cs".to_owned(),
                "Application -> Infrastructure".to_owned()
            ),
            (
                "flow_violation".to_owned(),
                "deny flow Application -> Infrastructure".to_owned(),
                "src/Ordering.Application/Orders/ExportOrders.cs".to_owned(),
                "Application -> Infrastructure".to_owned()
            ),
            (
                "flow_violation".to_owned(),
                "deny flow Api -> db".to_owned(),
                "src/Ordering.Api/Controllers/HealthController.cs".to_owned(),
                "Api -> db".to_owned()
            ),
            (
                "reach_violation".to_owned(),
                "deny reach Application -> db".to_owned(),
                "src/Ordering.Application/Orders/ExportOrders.cs".to_owned(),
                "Application -> Infrastructure -> db".to_owned()
            ),
        ]
    );
    let violations = verdict["violations"].as_array().unwrap();
    // The field of the concrete repository type, then the constructor parameter that injects it.
    assert_eq!(violations[0]["detected"]["line"], 10);
    assert_eq!(violations[1]["detected"]["line"], 12);
    assert_eq!(
        violations[1]["graph_evidence"]["kind"],
        "constructor_injection"
    );
    // `new NpgsqlConnection(…)` in the health probe.
    assert_eq!(violations[2]["detected"]["line"], 21);
    // The reach witness is a chain of files, ending at the database node.
    assert_eq!(
        violations[3]["detected"]["files"],
        serde_json::json!([
            "src/Ordering.Application/Orders/ExportOrders.cs",
            "src/Ordering.Infrastructure/Persistence/OrderRepository.cs",
            "db"
        ])
    );
    // PlaceOrder and CancelOrder inject IOrderRepository, which Program.cs registers as the
    // Infrastructure OrderRepository: the injection flows to the Domain file that declares the
    // interface, so it is no finding, and no chain leads from it to the database.
    for violation in violations {
        let file = violation["detected"]["file"].as_str().unwrap();
        assert!(
            !file.ends_with("PlaceOrder.cs") && !file.ends_with("CancelOrder.cs"),
            "{violation}"
        );
    }
    let coverage = verdict["rule_coverage"].as_array().unwrap();
    let status = |rule: &str| {
        coverage
            .iter()
            .find(|entry| entry["rule"] == rule)
            .unwrap_or_else(|| panic!("{rule} in rule_coverage"))["status"]
            .clone()
    };
    assert_eq!(status("deny reach Domain -> Infrastructure"), "pass");
    assert_eq!(status("deny inject Api -> Infrastructure"), "pass");
    assert_eq!(status("deny lifetime singleton -> scoped"), "pass");
    // `exclude "tests/**"` leaves out the test project (its `.cs` and `.csproj` files).
    assert_eq!(verdict["stats"]["files_excluded"], 2);
    insta::assert_json_snapshot!("clean_architecture_verdict", verdict);
}

#[test]
fn clean_architecture_pull_request_that_opens_another_path_to_the_database_is_new() {
    let dir = tempfile::tempdir().unwrap();
    tests::copy_tree(&tests::example("clean-architecture"), dir.path()).unwrap();
    let repository = git2::Repository::init(dir.path()).unwrap();
    crate::commit_all(&repository, "base");
    let base = repository.head().unwrap().peel_to_commit().unwrap();
    repository.branch("main-base", &base, true).unwrap();
    // The README's pull request: PlaceOrder takes the concrete repository too.
    let place_order = dir
        .path()
        .join("src/Ordering.Application/Orders/PlaceOrder.cs");
    let text = std::fs::read_to_string(&place_order)
        .unwrap()
        .replace(
            "using Ordering.Domain.Orders;",
            "using Ordering.Domain.Orders;\nusing Ordering.Infrastructure.Persistence;",
        )
        .replace("IOrderRepository _orders;", "OrderRepository _orders;")
        .replace(
            "PlaceOrder(IOrderRepository orders",
            "PlaceOrder(OrderRepository orders",
        );
    std::fs::write(&place_order, text).unwrap();
    crate::commit_all(&repository, "PlaceOrder takes the Postgres repository");

    let mut options = CheckOptions::new(dir.path());
    options.scope = ScopeRequest::Diff("main-base".into());
    options.new_only = true;
    let run = run_check(&options, &Z3Solver).unwrap();
    assert_eq!(run.verdict.verdict, "fail");
    // Application -> db was violated on the base already (through ExportOrders.cs, the smaller
    // file sequence), but this chain uses an edge the base lacks: new, blocking, located there.
    let violation = crate::the_new_reach_finding(&run);
    assert_eq!(
        violation.detected.files.as_deref(),
        Some(
            &[
                "src/Ordering.Application/Orders/PlaceOrder.cs".to_owned(),
                "src/Ordering.Infrastructure/Persistence/OrderRepository.cs".to_owned(),
                "db".to_owned()
            ][..]
        )
    );
    assert_eq!(
        (violation.detected.file.as_str(), violation.detected.line),
        ("src/Ordering.Application/Orders/PlaceOrder.cs", 10)
    );
    // And the two new uses of OrderRepository in PlaceOrder.cs break deny flow, the field and
    // the constructor parameter; ExportOrders.cs is not in the change.
    let flows: Vec<(&str, u32, &str)> = run
        .verdict
        .violations
        .iter()
        .filter(|violation| violation.violation_type == "flow_violation")
        .map(|violation| {
            (
                violation.detected.file.as_str(),
                violation.detected.line,
                violation.status,
            )
        })
        .collect();
    assert_eq!(
        flows,
        [
            ("src/Ordering.Application/Orders/PlaceOrder.cs", 10, "new"),
            ("src/Ordering.Application/Orders/PlaceOrder.cs", 13, "new"),
        ]
    );
}

#[test]
fn every_proof_is_an_unsat_core_with_rule_and_fact_and_replays_unsat_in_stock_z3() {
    for example in ["layered-api", "monorepo-reach", "clean-architecture"] {
        let options = CheckOptions {
            scope: ScopeRequest::All,
            ..CheckOptions::new(tests::example(example))
        };
        let run = run_check(&options, &Z3Solver).unwrap();
        assert!(!run.verdict.violations.is_empty(), "{example} has findings");
        for violation in &run.verdict.violations {
            let core = &violation.z3_proof.unsat_core;
            assert!(
                core.iter().any(|name| name.contains(" rule ")),
                "{example}: core names the rule: {core:?}"
            );
            assert!(
                core.iter().any(|name| name.contains(" fact ")),
                "{example}: core names a fact: {core:?}"
            );
            let diagnostic = run
                .verdict
                .solver_diagnostics
                .iter()
                .find(|diagnostic| diagnostic.id == violation.z3_proof.slice)
                .unwrap();
            assert_eq!(diagnostic.status, "unsat");
            let detail = &run.details[&violation.id];
            assert_eq!(
                replay_with_z3(&detail.smt_script),
                "unsat",
                "{example}: {}",
                violation.id
            );
        }
    }
}
