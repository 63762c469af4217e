//! Reviewed `.agq.yml` queries end to end: query facts feed the rules, load errors stop the check.

use engine::ScopeRequest;

use crate::check;

fn write(root: &std::path::Path, path: &str, text: &str) {
    let full = root.join(path);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(full, text).unwrap();
}

const SPEC: &str = r#"
node app      : server
node db       : postgres
node payments : rest_api { trust: untrusted }
component Checkout { runs_on: app  paths: "src/checkout/**" }
component Orders   { runs_on: app  paths: "src/orders/**" }
invariant Boundaries {
  deny flow Checkout -> payments
  require operation write_orders in Orders
}
"#;

const QUERIES: &str = r#"
id: AcmePayIsThePaymentProvider
owner: payments-team
version: 1
confidence: definite
match:
  kind: external
  package: "@acme/pay"
emit:
  kind: flow
  from: "$subject"
  to: payments
---
id: PostgresWritesAreOrderWrites
owner: payments-team
version: 2
confidence: definite
match:
  kind: accesses_technology
  technology: postgres
emit:
  kind: operation
  operation: write_orders
  component: "$subject"
"#;

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "architecture.ag", SPEC);
    write(dir.path(), ".lintel/queries/payments.agq.yml", QUERIES);
    write(
        dir.path(),
        "src/checkout/pay.ts",
        "import AcmePay from \"@acme/pay\";\nexport const pay = new AcmePay(\"key\");\n",
    );
    write(dir.path(), "src/checkout/save.ts", "import { Pool } from \"pg\";\nconst pool = new Pool();\nexport const save = () => pool.query(\"insert\");\n");
    write(
        dir.path(),
        "src/orders/repo.ts",
        "import { Pool } from \"pg\";\nexport const pool = new Pool();\n",
    );
    dir
}

#[test]
fn query_facts_feed_flow_and_operation_rules_with_provenance() {
    let dir = project();
    let verdict = check(dir.path(), ScopeRequest::All, 2);
    let findings: Vec<(String, String, String)> = verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| {
            (
                violation["type"].as_str().unwrap().to_owned(),
                violation["rule"]["text"].as_str().unwrap().to_owned(),
                violation["detected"]["file"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        findings,
        [
            (
                "flow_violation".to_owned(),
                "deny flow Checkout -> payments".to_owned(),
                "src/checkout/pay.ts".to_owned()
            ),
            (
                "require_operation_violation".to_owned(),
                "require operation write_orders in Orders".to_owned(),
                "src/checkout/save.ts".to_owned()
            ),
        ]
    );
    let flow = &verdict["violations"][0];
    assert_eq!(
        flow["detected"]["query"]["id"],
        "AcmePayIsThePaymentProvider"
    );
    assert_eq!(flow["detected"]["query"]["version"], 1);
    assert_eq!(
        flow["detected"]["query"]["file"],
        ".lintel/queries/payments.agq.yml"
    );
    assert!(flow["detected"]["evidence"]
        .as_str()
        .unwrap()
        .starts_with("query `AcmePayIsThePaymentProvider` v1 emitted flow from external"));
    let operation = &verdict["violations"][1];
    assert_eq!(operation["detected"]["from"], "Checkout");
    assert_eq!(operation["detected"]["required_component"], "Orders");
}

#[test]
fn a_file_no_component_owns_promotes_nothing() {
    // `scripts/seed.ts` writes to Postgres too, but it belongs to no component: its facts are
    // read for chains only, so the operation query emits nothing from it.
    let dir = project();
    write(
        dir.path(),
        "scripts/seed.ts",
        "import { Pool } from \"pg\";\nconst pool = new Pool();\nexport const seed = () => pool.query(\"insert\");\n",
    );
    // A query that names its component outright would otherwise place the seed's write there.
    write(
        dir.path(),
        ".lintel/queries/seed.agq.yml",
        "id: WritesBelongToCheckout\nowner: payments-team\nversion: 1\nconfidence: definite\nmatch:\n  kind: accesses_technology\n  technology: postgres\nemit:\n  kind: operation\n  operation: write_orders\n  component: Checkout\n",
    );
    let verdict = check(dir.path(), ScopeRequest::All, 2);
    let files: Vec<&str> = verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| violation["detected"]["file"].as_str().unwrap())
        .collect();
    assert!(!files.contains(&"scripts/seed.ts"), "{files:?}");
    assert!(files.contains(&"src/orders/repo.ts"), "{files:?}");
    // Nor does a query speak of it (it would emit an operation of no component).
    let warned: Vec<&serde_json::Value> = verdict["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|warning| warning["file"] == "scripts/seed.ts")
        .collect();
    assert!(warned.is_empty(), "{warned:?}");
}

#[test]
fn a_broken_query_file_stops_the_check_with_every_located_diagnostic() {
    let dir = project();
    write(
        dir.path(),
        ".lintel/queries/broken.agq.yml",
        "id: Broken\nowner: me\nversion: 0\nconfidence: sure\nmatch: {}\nemit:\n  kind: teleport\n",
    );
    let mut options = engine::CheckOptions::new(dir.path());
    options.scope = ScopeRequest::All;
    let error = engine::run_check(&options, &engine::Z3Solver).unwrap_err();
    let diagnostics = error.diagnostics();
    let codes: Vec<(&str, &str, u32)> = diagnostics
        .iter()
        .map(|diagnostic| {
            (
                diagnostic.code.as_str(),
                diagnostic.file.as_str(),
                diagnostic.line,
            )
        })
        .collect();
    assert!(
        codes.contains(&("query-invalid-value", ".lintel/queries/broken.agq.yml", 3)),
        "{codes:?}"
    );
    assert!(
        codes.contains(&("query-invalid-value", ".lintel/queries/broken.agq.yml", 4)),
        "{codes:?}"
    );
    assert!(
        codes.contains(&(
            "query-unknown-emit-kind",
            ".lintel/queries/broken.agq.yml",
            7
        )),
        "{codes:?}"
    );
    assert_eq!(
        error.code(),
        diagnostics
            .iter()
            .find(|diagnostic| diagnostic.is_error())
            .unwrap()
            .code
    );
}

#[test]
fn unknown_names_in_queries_are_warnings() {
    let dir = project();
    write(
        dir.path(),
        ".lintel/queries/typo.agq.yml",
        "id: Typo\nowner: me\nversion: 1\nconfidence: definite\nmatch:\n  kind: import\nemit:\n  kind: flow\n  from: \"$subject\"\n  to: paymnts\n",
    );
    let verdict = check(dir.path(), ScopeRequest::All, 1);
    let warnings: Vec<(&str, &str)> = verdict["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|warning| {
            (
                warning["code"].as_str().unwrap(),
                warning["file"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert!(
        warnings.contains(&("query-unknown-name", ".lintel/queries/typo.agq.yml")),
        "{warnings:?}"
    );
}

#[test]
fn a_finding_at_several_places_is_reported_at_the_first_and_lists_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let files = [
        (
            "architecture.ag",
            "node app : server { trust: trusted }\ndata Order { total: Money }\n\
             component Api { runs_on: app paths: \"api/**\" }\n\
             value_policy P { require Order.total >= 0 }\n",
        ),
        (
            ".lintel/queries/v.agq.yml",
            "id: total\nowner: t\nversion: 1\nconfidence: definite\n\
             match: { kind: assignment, property: total }\n\
             emit: { kind: value, subject: Order, path: total, relation: \"==\", value: \"$value\" }\n",
        ),
        // The same write at lines 9 and 10: fact ids order `…:10:…` before `…:9:…` as text.
        (
            "api/o.ts",
            "//\n//\n//\n//\n//\n//\n//\n//\nexport function a(o: any) { o.total = -5; }\n\
             export function b(o: any) { o.total = -5; }\n",
        ),
    ];
    for (path, text) in files {
        std::fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
        std::fs::write(root.join(path), text).unwrap();
    }
    let verdict = crate::check(root, engine::ScopeRequest::All, 2);
    let violations = verdict["violations"].as_array().unwrap();
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert_eq!(violations[0]["detected"]["line"], 9);
    assert_eq!(
        violations[0]["detected"]["occurrences"],
        serde_json::json!([{ "file": "api/o.ts", "line": 10 }])
    );
}
