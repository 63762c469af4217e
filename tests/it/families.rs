//! Every policy family end to end on the examples whose facts exist today: data and trust
//! policies and contracts over TypeScript, change policies over a temporary git repository.

use std::path::Path;

use engine::CheckRun;
use engine::ScopeRequest;
use engine::Z3Solver;
use engine::{run_check, CheckOptions};
use git2::Repository;

use crate::{check, check_example, replay_with_z3};

fn run(project: &Path, scope: ScopeRequest) -> CheckRun {
    let options = CheckOptions {
        scope,
        ..CheckOptions::new(project)
    };
    run_check(&options, &Z3Solver).expect("check runs")
}

/// Every entry of the four blocking arrays: its id, slice id and core.
fn blocking_entries(run: &CheckRun) -> Vec<(String, String, Vec<String>)> {
    let verdict = &run.verdict;
    let mut entries: Vec<(String, String, Vec<String>)> = Vec::new();
    for violation in &verdict.violations {
        entries.push((
            violation.id.clone(),
            violation.z3_proof.slice.clone(),
            violation.z3_proof.unsat_core.clone(),
        ));
    }
    for entry in &verdict.contract_violations {
        let proof = entry
            .z3_proof
            .as_ref()
            .expect("contract errors carry a proof");
        entries.push((
            entry.id.clone(),
            proof.slice.clone(),
            proof.unsat_core.clone(),
        ));
    }
    for entry in &verdict.workflow_violations {
        entries.push((
            entry.id.clone(),
            entry.z3_proof.slice.clone(),
            entry.z3_proof.unsat_core.clone(),
        ));
    }
    for entry in &verdict.change_violations {
        entries.push((
            entry.id.clone(),
            entry.z3_proof.slice.clone(),
            entry.z3_proof.unsat_core.clone(),
        ));
    }
    entries
}

/// Every blocking entry: an UNSAT slice whose core names the rule (or declared contract) and a
/// fact, a detail that `explain` finds, and a script the stock `z3` answers `unsat` for.
fn assert_proved(run: &CheckRun, label: &str) {
    let entries = blocking_entries(run);
    assert!(!entries.is_empty(), "{label} has blocking entries");
    for (id, slice, core) in entries {
        let diagnostic = run
            .verdict
            .solver_diagnostics
            .iter()
            .find(|diagnostic| diagnostic.id == slice)
            .unwrap();
        assert_eq!(diagnostic.status, "unsat", "{label}: {id}");
        assert!(
            core.iter().any(|name| name.contains(" rule ")
                || name.contains(" contract ")
                || name.contains(" allow-list ")),
            "{label}: the core names the rule: {core:?}"
        );
        assert!(
            core.iter().any(|name| name.contains(" fact ")),
            "{label}: the core names a fact: {core:?}"
        );
        let detail = run
            .details
            .get(&id)
            .expect("explain finds every blocking entry");
        assert_eq!(replay_with_z3(&detail.smt_script), "unsat", "{label}: {id}");
    }
}

#[test]
fn data_privacy_reports_personal_data_reaching_the_tracker() {
    let verdict = check_example("data-privacy");
    assert_eq!(verdict["verdict"], "fail");
    let findings: Vec<(String, String, String)> = verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| {
            (
                violation["type"].as_str().unwrap().to_owned(),
                violation["rule"]["text"].as_str().unwrap().to_owned(),
                violation["detected"]["path"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|hop| hop.as_str().unwrap())
                    .collect::<Vec<_>>()
                    .join(" -> "),
            )
        })
        .collect();
    let path = "Profiles -> Analytics -> tracker".to_owned();
    assert_eq!(
        findings,
        [
            (
                "data_policy_violation".to_owned(),
                "deny classification pii -> untrusted".to_owned(),
                path.clone()
            ),
            (
                "data_policy_violation".to_owned(),
                "deny jurisdiction eu -> tracker".to_owned(),
                path.clone()
            ),
            (
                "trust_policy_violation".to_owned(),
                "deny flow trusted -> untrusted when data pii".to_owned(),
                path
            ),
        ]
    );
    insta::assert_json_snapshot!("data_privacy_verdict", verdict);
}

#[test]
fn rest_contract_reports_undeclared_and_missing_routes_and_warns_about_calls() {
    let verdict = check_example("rest-contract");
    assert_eq!(verdict["verdict"], "fail");
    let entries = |array: &str| -> Vec<(String, serde_json::Value, serde_json::Value)> {
        verdict[array]
            .as_array()
            .unwrap()
            .iter()
            .map(|entry| {
                (
                    entry["type"].as_str().unwrap().to_owned(),
                    entry["declared"].clone(),
                    entry["extracted"].clone(),
                )
            })
            .collect()
    };
    assert_eq!(
        entries("contract_violations"),
        [
            (
                "implements_missing".to_owned(),
                "POST /api/orders".into(),
                serde_json::Value::Null
            ),
            (
                "implements_undeclared".to_owned(),
                serde_json::Value::Null,
                "DELETE /api/orders/{}".into()
            ),
        ]
    );
    assert_eq!(
        entries("contract_warnings"),
        [
            (
                "consumes_method_mismatch".to_owned(),
                "GET /api/orders/{}".into(),
                "DELETE /api/orders/{}".into()
            ),
            (
                "consumes_undeclared".to_owned(),
                serde_json::Value::Null,
                "GET /api/invoices/{}".into()
            ),
        ]
    );
    assert!(verdict["contract_warnings"]
        .as_array()
        .unwrap()
        .iter()
        .all(|entry| entry["blocking"] == false && entry.get("z3_proof").is_none()));
    insta::assert_json_snapshot!("rest_contract_verdict", verdict);
}

#[test]
fn every_blocking_entry_of_the_family_examples_is_proved_and_replays_unsat() {
    for example in [
        "data-privacy",
        "rest-contract",
        "di-service",
        "checkout-machines",
    ] {
        assert_proved(&run(&tests::example(example), ScopeRequest::All), example);
    }
}

/// The docs-freshness example as a repository with a `main-base` branch.
fn docs_repository() -> (tempfile::TempDir, Repository) {
    let dir = tempfile::tempdir().unwrap();
    tests::copy_tree(&tests::example("docs-freshness"), dir.path()).unwrap();
    let repository = Repository::init(dir.path()).unwrap();
    crate::commit_all(&repository, "base");
    {
        let head = repository.head().unwrap().peel_to_commit().unwrap();
        repository.branch("main-base", &head, true).unwrap();
    }
    (dir, repository)
}

#[test]
fn docs_freshness_fails_a_change_to_the_api_alone() {
    let (dir, repository) = docs_repository();
    let api = dir.path().join("api/orders.ts");
    let text = std::fs::read_to_string(&api).unwrap();
    std::fs::write(&api, text.replace("order.total", "Math.round(order.total)")).unwrap();
    crate::commit_all(&repository, "round totals");
    let checked = run(dir.path(), ScopeRequest::Diff("main-base".into()));
    assert_proved(&checked, "docs-freshness");
    let mut verdict = serde_json::to_value(&checked.verdict).unwrap();
    crate::assert_valid_verdict(&verdict);
    assert_eq!(verdict["verdict"], "fail");
    let entry = &verdict["change_violations"][0];
    assert_eq!(entry["status"], "new");
    assert_eq!(entry["trigger_files"], serde_json::json!(["api/orders.ts"]));
    assert_eq!(entry["required_glob"], "docs/api.md");
    tests::redact(&mut verdict);
    insta::assert_json_snapshot!(
        "docs_freshness_change_violations",
        verdict["change_violations"]
    );
    assert!(!serde_json::to_string(&verdict)
        .unwrap()
        .contains(dir.path().to_str().unwrap()));
}

#[test]
fn docs_freshness_passes_when_the_docs_change_too_even_by_a_rename() {
    let (dir, repository) = docs_repository();
    std::fs::write(
        dir.path().join("api/orders.ts"),
        "export const version = 2;\n",
    )
    .unwrap();
    std::fs::rename(
        dir.path().join("docs/api.md"),
        dir.path().join("docs/api-v1.md"),
    )
    .unwrap();
    crate::commit_all(&repository, "api v2, old docs moved away");
    let verdict = check(dir.path(), ScopeRequest::Diff("main-base".into()), 2);
    assert_eq!(
        verdict["change_violations"],
        serde_json::json!([]),
        "the old path of the renamed docs counts"
    );
    assert_eq!(verdict["verdict"], "pass");
    // `--all` and `--file` carry no change, so the policy holds (change policies in policies/LANGUAGE.md).
    let all = check(&tests::example("docs-freshness"), ScopeRequest::All, 2);
    assert_eq!(all["verdict"], "pass");
    let coverage = &all["rule_coverage"][0];
    assert_eq!(coverage["rule"], "require touched ApiDocs when touched Api");
    assert_eq!(coverage["status"], "pass");
    let api_alone = check(
        &tests::example("docs-freshness"),
        ScopeRequest::Files(vec![tests::example("docs-freshness").join("api/orders.ts")]),
        2,
    );
    assert_eq!(api_alone["change_violations"], serde_json::json!([]));
    assert_eq!(api_alone["verdict"], "pass");
}

#[test]
fn release_workflow_reports_pull_request_publishing_write_tokens_and_untested_publish() {
    let verdict = check_example("release-workflow");
    assert_eq!(verdict["verdict"], "fail");
    let entries: Vec<(String, String, String)> = verdict["workflow_violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            (
                entry["rule"]["kind"].as_str().unwrap().to_owned(),
                entry["file"].as_str().unwrap().to_owned(),
                entry["job"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(entries.len(), 3, "{entries:?}");
    for kind in ["WorkflowAction", "WorkflowPermission", "WorkflowStepOrder"] {
        assert!(
            entries.contains(&(
                kind.to_owned(),
                ".github/workflows/preview.yml".to_owned(),
                "preview".to_owned()
            )),
            "{kind} in {entries:?}"
        );
    }
    assert!(
        verdict["workflow_violations"]
            .as_array()
            .unwrap()
            .iter()
            .all(|entry| entry["file"] != ".github/workflows/release.yml"),
        "the tag-triggered release workflow passes"
    );
    let run = run(&tests::example("release-workflow"), ScopeRequest::All);
    assert_proved(&run, "release-workflow");
    insta::assert_json_snapshot!("release_workflow_verdict", verdict);
}

/// `(type, rule kind, rule text, file:line)` of every violation, in verdict order.
fn violation_summary(verdict: &serde_json::Value) -> Vec<(String, String, String, String)> {
    verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| {
            (
                violation["type"].as_str().unwrap().to_owned(),
                violation["rule"]["kind"].as_str().unwrap().to_owned(),
                violation["rule"]["text"].as_str().unwrap().to_owned(),
                format!(
                    "{}:{}",
                    violation["detected"]["file"].as_str().unwrap(),
                    violation["detected"]["line"]
                ),
            )
        })
        .collect()
}

fn owned(rows: &[(&str, &str, &str, &str)]) -> Vec<(String, String, String, String)> {
    rows.iter()
        .map(|(a, b, c, d)| {
            (
                (*a).to_owned(),
                (*b).to_owned(),
                (*c).to_owned(),
                (*d).to_owned(),
            )
        })
        .collect()
}

#[test]
fn di_service_reports_injection_lifetime_locator_and_permission_mistakes() {
    let verdict = check_example("di-service");
    assert_eq!(verdict["verdict"], "fail");
    let web = "src/Shop.Web/Controllers/BackofficeController.cs";
    let application = "src/Shop.Application";
    let mut expected = owned(&[
        (
            "di_violation",
            "DenyInject",
            "deny inject Web -> Data",
            &format!("{web}:15"),
        ),
        (
            "di_violation",
            "DenyLifetime",
            "deny lifetime singleton -> scoped",
            &format!("{application}/PriceCatalog.cs:17"),
        ),
        (
            "di_violation",
            "DenyLifetimeReach",
            "deny lifetime_reach singleton -> scoped",
            &format!("{application}/PriceCatalog.cs:17"),
        ),
        (
            "di_violation",
            "DenyLifetimeReach",
            "deny lifetime_reach singleton -> scoped",
            &format!("{application}/Reports.cs:35"),
        ),
        (
            "di_violation",
            "DenyResolve",
            "deny resolve * from Application",
            &format!("{application}/Checkout.cs:26"),
        ),
        (
            "di_violation",
            "DenyResolve",
            "deny resolve * from Application",
            &format!("{application}/Checkout.cs:33"),
        ),
        (
            "permission_violation",
            "AllowPermission",
            "permission OrderAccess: delete on Order without Role.Admin is not allowed",
            &format!("{web}:24"),
        ),
        (
            "permission_violation",
            "DenyPermission",
            "deny Role.Clerk -> delete",
            &format!("{web}:37"),
        ),
    ]);
    let mut found = violation_summary(&verdict);
    found.sort();
    expected.sort();
    assert_eq!(found, expected);
    let chain = verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|violation| violation["detected"]["file"] == "src/Shop.Application/Reports.cs")
        .unwrap();
    assert_eq!(
        chain["detected"]["services"],
        serde_json::json!(["IReportScheduler", "IReportBuilder", "ShopDbContext"])
    );
    assert_eq!(
        chain["detected"]["lifetimes"],
        serde_json::json!(["singleton", "transient", "scoped"])
    );
    // The passing counterparts: `OrdersController` takes `IOrderService` (implemented in
    // Application) and checks the roles `OrderAccess` allows for update and delete,
    // `ICurrencyRates` is a singleton over a singleton, and the factory in Program.cs resolves
    // from the container outside Application (no finding sits in Program.cs).
    let text = serde_json::to_string(&verdict["violations"]).unwrap();
    assert!(!text.contains("\"file\":\"src/Shop.Web/Program.cs\",\"line\""));
    for passing in ["OrdersController", "ICurrencyRates"] {
        assert!(!text.contains(passing), "{passing} passes");
    }
    assert_eq!(verdict["warnings"], serde_json::json!([]));
    insta::assert_json_snapshot!("di_service_verdict", verdict);
}

#[test]
fn checkout_machines_reports_transitions_consent_order_and_totals_from_reviewed_queries() {
    let verdict = check_example("checkout-machines");
    assert_eq!(verdict["verdict"], "fail");
    let viewmodel = "android/app/src/main/kotlin/com/example/shop/checkout/CartViewModel.kt";
    let consent = "android/app/src/main/kotlin/com/example/shop/consent/ConsentScreen.kt";
    let checkout = "web/src/checkout/checkout.ts";
    let mut expected = owned(&[
        (
            "event_policy_violation",
            "RequirePrecededBy",
            "require event AcceptConsent preceded_by ShowConsent by Profile",
            &format!("{consent}:23"),
        ),
        (
            "state_machine_violation",
            "AllowTransition",
            "machine CartLife: Paid -> Filled is not allowed",
            &format!("{viewmodel}:30"),
        ),
        (
            "state_machine_violation",
            "AllowTransition",
            "machine CartLife: Empty -> Paid is not allowed",
            &format!("{checkout}:26"),
        ),
        (
            "state_machine_violation",
            "AllowTransition",
            "machine CartLife: * -> Paid is not allowed",
            &format!("{checkout}:33"),
        ),
        (
            "value_policy_violation",
            "RequireValue",
            "require Cart.total > 0 when Cart.phase == Paid",
            &format!("{checkout}:25"),
        ),
    ]);
    let mut found = violation_summary(&verdict);
    found.sort();
    expected.sort();
    assert_eq!(found, expected);
    let unguarded = verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|violation| violation["rule"]["text"] == "machine CartLife: * -> Paid is not allowed")
        .unwrap();
    assert_eq!(
        unguarded["detected"]["illegal_sources"],
        serde_json::json!(["Empty", "Filled"])
    );
    // Every finding comes from a reviewed query over a TypeScript or Kotlin graph fact.
    for violation in verdict["violations"].as_array().unwrap() {
        let query = violation["detected"]["query"]["id"].as_str().unwrap();
        assert!(
            [
                "AcceptConsentCalls",
                "CartPhaseTransitions",
                "CartTotalValues"
            ]
            .contains(&query),
            "{query}"
        );
    }
    assert_eq!(verdict["warnings"], serde_json::json!([]));
    insta::assert_json_snapshot!("checkout_machines_verdict", verdict);
}

/// A router mounted from another file serves its routes under the mount prefix, so the contract
/// matches them; the links that carry the prefix survive the extraction cache.
#[test]
fn contract_routes_take_mount_prefixes_from_other_files_also_from_the_cache() {
    let project = project_of(&[
        (
            "architecture.ag",
            "node app : server\n\
         contract OrdersApi {\n  GET \"/api/orders\"\n  DELETE \"/api/orders/{id}\"\n}\n\
         component Backend { runs_on: app paths: \"backend/**\" implements: OrdersApi }\n",
        ),
        (
            "backend/app.js",
            "const express = require('express');\n\
         const orders = require('./orders');\n\
         const app = express();\n\
         app.use('/api', orders);\n",
        ),
        (
            "backend/orders.js",
            "const express = require('express');\n\
         const router = express.Router();\n\
         router.get('/orders', (req, res) => res.json([]));\n\
         router.post('/orders', (req, res) => res.end());\n\
         module.exports = router;\n",
        ),
    ]);
    let root = project.path();
    let contract_findings = |cache: Option<&Path>| {
        let mut options = CheckOptions::new(root);
        options.scope = ScopeRequest::All;
        options.cache = cache.map(engine::ExtractionCache::at);
        let run = run_check(&options, &Z3Solver).expect("check runs");
        let verdict = serde_json::to_value(&run.verdict).expect("verdict serializes");
        let mut found: Vec<(String, String)> = verdict["contract_violations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|entry| {
                let shown = if entry["extracted"].is_null() {
                    &entry["declared"]
                } else {
                    &entry["extracted"]
                };
                (
                    entry["type"].as_str().unwrap().to_owned(),
                    shown.as_str().unwrap().to_owned(),
                )
            })
            .collect();
        found.sort();
        found
    };
    let expected = vec![
        (
            "implements_missing".to_owned(),
            "DELETE /api/orders/{}".to_owned(),
        ),
        (
            "implements_undeclared".to_owned(),
            "POST /api/orders".to_owned(),
        ),
    ];
    assert_eq!(contract_findings(None), expected);
    let cache = tempfile::tempdir().expect("cache directory");
    assert_eq!(
        contract_findings(Some(cache.path())),
        expected,
        "cold cache"
    );
    assert_eq!(
        contract_findings(Some(cache.path())),
        expected,
        "warm cache"
    );
}

/// A raw Node `http` server that serves `GET /api/runs/:id` by a prefix test of the path
/// (`url.pathname.startsWith('/api/runs/')`) implements that endpoint: `check --all` from the
/// CLI reports no missing endpoint, and without the branch it does.
#[test]
fn a_raw_node_server_implements_an_endpoint_it_serves_by_a_path_prefix() {
    let spec = "node app : server\n\
         contract RunsApi {\n  GET \"/api/runs\"\n  GET \"/api/runs/:id\"\n}\n\
         component Ui { runs_on: app paths: \"ui/**\" implements: RunsApi }\n";
    let server = "import http from 'node:http';\n\
         const server = http.createServer((req, res) => {\n\
           const url = new URL(req.url ?? '/', 'http://localhost');\n\
           if (req.method === 'GET' && url.pathname === '/api/runs') {\n\
             res.end('[]');\n\
           } else if (req.method === 'GET' && url.pathname.startsWith('/api/runs/')) {\n\
             res.end(url.pathname.slice('/api/runs/'.length));\n\
           }\n\
         });\n\
         server.listen(4000);\n";
    let contract_entries = |server: &str| {
        let project = project_of(&[("architecture.ag", spec), ("ui/server.ts", server)]);
        let argv = ["lintel", "check", "--all", "--json", "--project"]
            .iter()
            .map(|argument| (*argument).to_owned())
            .chain([project.path().to_str().unwrap().to_owned()])
            .collect();
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        let status = engine::run(argv, &mut stdout, &mut stderr);
        let verdict: serde_json::Value = serde_json::from_slice(&stdout).unwrap();
        crate::assert_valid_verdict(&verdict);
        let mut entries: Vec<String> = verdict["contract_violations"]
            .as_array()
            .unwrap()
            .iter()
            .chain(verdict["contract_warnings"].as_array().unwrap())
            .map(|entry| {
                format!(
                    "{} {}",
                    entry["type"].as_str().unwrap(),
                    entry["declared"].as_str().unwrap_or_default()
                )
            })
            .collect();
        entries.sort();
        (status.code(), entries)
    };
    assert_eq!(contract_entries(server), (0, Vec::new()));
    let without_prefix_branch = server.replace("url.pathname.startsWith('/api/runs/')", "false");
    assert_eq!(
        contract_entries(&without_prefix_branch),
        (1, vec!["implements_missing GET /api/runs/{}".to_owned()])
    );
}

/// A request made through a client instance that another file exports (`api.delete(…)` with
/// `import { api } from './api'`), or through a request wrapper it exports (`apiFetch(path,
/// init)`), is a request of the consuming component, after the instance's `baseURL` or the
/// wrapper's URL; the links that carry them survive the extraction cache.
#[test]
fn consumed_contracts_see_requests_through_client_instances_and_wrappers_of_other_files_also_from_the_cache(
) {
    let project = project_of(&[
        (
            "architecture.ag",
            "node browser : edge_desktop\n\
         contract OrdersApi {\n  GET \"/api/orders\"\n  GET \"/api/orders/{id}\"\n}\n\
         component Frontend { runs_on: browser paths: \"frontend/**\" consumes: OrdersApi }\n",
        ),
        (
            "frontend/api.ts",
            "import axios from 'axios';\n\
         export const api = axios.create({ baseURL: '/api' });\n",
        ),
        (
            "frontend/http.ts",
            "export const apiFetch = (path: string, init?: RequestInit) =>\n\
         fetch(`/api${path}`, init);\n",
        ),
        (
            "frontend/orders.ts",
            "import { api } from './api';\n\
         import { apiFetch } from './http';\n\
         export const list = () => api.get('/orders');\n\
         export const cancel = (id: string) => api.delete(`/orders/${id}`);\n\
         export const invoice = (id: string) => api.get(`/invoices/${id}`);\n\
         export const one = (id: string) => apiFetch(`/orders/${id}`);\n\
         export const replace = (id: string) => apiFetch(`/orders/${id}`, { method: 'PUT' });\n",
        ),
    ]);
    let root = project.path();
    let warnings = |cache: Option<&Path>| {
        let mut options = CheckOptions::new(root);
        options.scope = ScopeRequest::All;
        options.cache = cache.map(engine::ExtractionCache::at);
        let run = run_check(&options, &Z3Solver).expect("check runs");
        let verdict = serde_json::to_value(&run.verdict).expect("verdict serializes");
        let mut found: Vec<(String, String, String)> = verdict["contract_warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|entry| {
                (
                    entry["type"].as_str().unwrap().to_owned(),
                    entry["extracted"].as_str().unwrap_or_default().to_owned(),
                    format!(
                        "{}:{}",
                        entry["file"].as_str().unwrap_or_default(),
                        entry["line"]
                    ),
                )
            })
            .collect();
        found.sort();
        found
    };
    let expected = vec![
        (
            "consumes_method_mismatch".to_owned(),
            "DELETE /api/orders/{}".to_owned(),
            "frontend/orders.ts:4".to_owned(),
        ),
        (
            "consumes_method_mismatch".to_owned(),
            "PUT /api/orders/{}".to_owned(),
            "frontend/orders.ts:7".to_owned(),
        ),
        (
            "consumes_undeclared".to_owned(),
            "GET /api/invoices/{}".to_owned(),
            "frontend/orders.ts:5".to_owned(),
        ),
    ];
    assert_eq!(warnings(None), expected);
    let cache = tempfile::tempdir().expect("cache directory");
    assert_eq!(warnings(Some(cache.path())), expected, "cold cache");
    assert_eq!(warnings(Some(cache.path())), expected, "warm cache");
}

/// A temporary project holding `files` (path, text).
fn project_of(files: &[(&str, &str)]) -> tempfile::TempDir {
    let project = tempfile::tempdir().expect("temporary directory");
    for (path, text) in files {
        let path = project.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    project
}

/// A Remix app: a browser component imports a route module, whose loader uses a `.server`
/// service that holds the database client. Remix leaves `.server` modules out of the browser's
/// build, so the browser never reaches the database that way; the same chain from server code,
/// and a browser file's own import of a `.server` module, still count.
#[test]
fn a_browser_component_reaches_no_server_only_module_through_another_module() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let write = |path: &str, text: &str| {
        let full = root.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    };
    let spec = |ui_node: &str| {
        format!(
            r#"
node browser : edge_desktop
node app     : server
node db      : postgres {{ clients: "@prisma/client" }}
component WebUi  {{ runs_on: {ui_node}  paths: "app/components/**" }}
component Routes {{ runs_on: app  paths: "app/routes/**" }}
component Web    {{ runs_on: app  paths: "app/**" }}
invariant Layers {{
  deny reach WebUi -> db
  deny reach Routes -> db
}}
"#
        )
    };
    write("architecture.ag", &spec("browser"));
    write(
        "app/components/Panel.tsx",
        "import { Form } from \"@remix-run/react\";\nimport { loader } from \"../routes/branches\";\nexport const Panel = () => [Form, loader];\n",
    );
    write(
        "app/routes/branches.tsx",
        "import { upsert } from \"../services/upsert.server\";\nexport const loader = () => upsert();\n",
    );
    write(
        "app/services/upsert.server.ts",
        "import { prisma } from \"../db.server\";\nexport const upsert = () => prisma.branch.upsert({});\n",
    );
    write(
        "app/db.server.ts",
        "import { PrismaClient } from \"@prisma/client\";\nexport const prisma = new PrismaClient();\n",
    );
    // Sorted: the verdict orders findings by id.
    let reach = |verdict: &serde_json::Value| -> Vec<String> {
        let mut found: Vec<String> = verdict["violations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|violation| {
                format!(
                    "{} at {}",
                    violation["rule"]["text"].as_str().unwrap(),
                    violation["detected"]["file"].as_str().unwrap()
                )
            })
            .collect();
        found.sort();
        found
    };
    // From the browser, no chain; from the routes (server code), the same modules reach it.
    assert_eq!(
        reach(&check(root, ScopeRequest::All, 1)),
        ["deny reach Routes -> db at app/routes/branches.tsx"]
    );
    // The same component on a server node: the chain counts.
    write("architecture.ag", &spec("app"));
    assert_eq!(
        reach(&check(root, ScopeRequest::All, 1)),
        [
            "deny reach Routes -> db at app/routes/branches.tsx",
            "deny reach WebUi -> db at app/components/Panel.tsx"
        ]
    );
    // A browser file's own import of a `.server` module stays an edge (Remix's build rejects it).
    write("architecture.ag", &spec("browser"));
    write(
        "app/components/Panel.tsx",
        "import { Form } from \"@remix-run/react\";\nimport { prisma } from \"../db.server\";\nexport const Panel = () => [Form, prisma];\n",
    );
    assert_eq!(
        reach(&check(root, ScopeRequest::All, 1)),
        [
            "deny reach Routes -> db at app/routes/branches.tsx",
            "deny reach WebUi -> db at app/components/Panel.tsx"
        ]
    );
}
