//! The module-boundary rules end to end: closed components, public interfaces, cycles and
//! unresolved imports on the `module-boundaries` example and on small projects built in temporary
//! directories and git repositories (real tree-sitter, real Z3, the stock `z3` for replays).

use std::path::Path;

use engine::ScopeRequest;
use engine::Z3Solver;
use engine::{run_check, CheckOptions};
use git2::Repository;

use crate::{assert_every_violation_replays_unsat, check, check_example, commit_all, run_cli};

fn write(root: &Path, path: &str, text: &str) {
    let full = root.join(path);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(full, text).unwrap();
}

/// Writes each `(path, text)` under `root`.
fn write_all(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        write(root, path, text);
    }
}

/// Runs `lintel init --from CONFIG --project ROOT` (CONFIG relative to ROOT) and returns the
/// spec it wrote to `ROOT/architecture.ag`.
fn init_from(root: &Path, config: &str) -> String {
    let (code, output) = run_cli(&[
        "init",
        "--from",
        root.join(config).to_str().unwrap(),
        "--project",
        root.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{output}");
    std::fs::read_to_string(root.join("architecture.ag")).unwrap()
}

/// (type, file:line) of every violation of a `check --all` of `root`.
fn kinds_at(root: &std::path::Path) -> Vec<(String, String)> {
    findings(&check(root, ScopeRequest::All, 1))
        .into_iter()
        .map(|(kind, _, at, _)| (kind, at))
        .collect()
}

/// (type, rule text, file:line, members or `from -> to`) of every violation.
fn findings(verdict: &serde_json::Value) -> Vec<(String, String, String, String)> {
    verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| {
            let detected = &violation["detected"];
            let what = match detected["members"].as_array() {
                Some(members) => members
                    .iter()
                    .map(|member| member.as_str().unwrap())
                    .collect::<Vec<_>>()
                    .join(", "),
                None => format!(
                    "{} -> {}",
                    detected["from"].as_str().unwrap_or_default(),
                    detected["to"].as_str().unwrap_or_default()
                ),
            };
            (
                violation["type"].as_str().unwrap().to_owned(),
                violation["rule"]["text"].as_str().unwrap().to_owned(),
                format!(
                    "{}:{}",
                    detected["file"].as_str().unwrap(),
                    detected["line"]
                ),
                what,
            )
        })
        .collect()
}

/// Asserts that the written spec holds each of `lines`.
fn assert_lines(spec: &str, lines: &[&str]) {
    for line in lines {
        assert!(spec.contains(line), "{line}\n{spec}");
    }
}

/// "rule text at file:line" of every violation of a `check --all` of `root`.
fn rules_at(root: &Path) -> Vec<String> {
    findings(&check(root, ScopeRequest::All, 1))
        .into_iter()
        .map(|(_, rule, at, _)| format!("{rule} at {at}"))
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
fn module_boundaries_example_reports_one_finding_of_each_form() {
    let verdict = check_example("module-boundaries");
    assert_eq!(verdict["verdict"], "fail");
    let public = "public: \"packages/billing/src/index.ts\", \"packages/billing/src/api/**\"";
    assert_eq!(
        findings(&verdict),
        owned(&[
            (
                "cycle_violation",
                "deny cycle among layer *",
                "packages/orders/src/order.ts:4",
                "layer Domain, layer Service"
            ),
            (
                "cycle_violation",
                "deny cycle within Orders",
                "packages/orders/src/line.ts:2",
                "packages/orders/src/line.ts, packages/orders/src/order.ts"
            ),
            (
                "dependency_violation",
                "deny undeclared dependencies in *",
                "packages/orders/src/order.ts:4",
                "Orders -> Billing"
            ),
            (
                "interface_violation",
                public,
                "packages/web/src/App.tsx:5",
                "Web -> Billing"
            ),
            (
                "unresolved_import_violation",
                "deny unresolved imports in *",
                "packages/web/src/App.tsx:7",
                "Web -> "
            ),
        ])
    );
    let violations = verdict["violations"].as_array().unwrap();
    let layer_cycle = &violations[0];
    assert_eq!(
        layer_cycle["detected"]["path"],
        serde_json::json!(["layer Domain", "layer Service", "layer Domain"])
    );
    assert_eq!(layer_cycle["rule"]["kind"], "DenyCycle");
    let interface = &violations[3];
    assert_eq!(interface["rule"]["kind"], "PublicInterface");
    assert_eq!(interface["invariant"], "Billing");
    assert_eq!(
        interface["detected"]["files"],
        serde_json::json!(["packages/billing/src/internal/ledger.ts"])
    );
    assert_eq!(
        interface["detected"]["public_files"],
        serde_json::json!([
            "packages/billing/src/api/invoices.ts",
            "packages/billing/src/api/prices.ts",
            "packages/billing/src/index.ts"
        ])
    );
    assert!(violations
        .iter()
        .all(|violation| violation["blocking"] == true && violation["status"] == "unchanged"));
    // Every rule is covered: four closed components, the two cycle rules, four unresolved rules
    // and the public interface.
    let coverage = verdict["rule_coverage"].as_array().unwrap();
    assert_eq!(coverage.len(), 11);
    let failing: Vec<&str> = coverage
        .iter()
        .filter(|entry| entry["status"] == "fail")
        .map(|entry| entry["rule"].as_str().unwrap())
        .collect();
    assert_eq!(
        failing,
        [
            public,
            "deny cycle among layer *",
            "deny cycle within Orders",
            "deny undeclared dependencies in *",
            "deny unresolved imports in *"
        ]
    );
}

#[test]
fn every_boundary_proof_names_rule_and_fact_and_replays_unsat_in_stock_z3() {
    let options = CheckOptions {
        scope: ScopeRequest::All,
        ..CheckOptions::new(tests::example("module-boundaries"))
    };
    let run = run_check(&options, &Z3Solver).unwrap();
    assert_eq!(run.verdict.violations.len(), 5);
    for violation in &run.verdict.violations {
        let core = &violation.z3_proof.unsat_core;
        assert!(
            core.iter().any(|name| name.contains(" rule ")),
            "core names the rule: {core:?}"
        );
        assert!(
            core.iter().any(|name| name.contains(" fact ")),
            "core names a fact: {core:?}"
        );
    }
    assert_every_violation_replays_unsat(&run);
    // explain finds a cycle by its id, and its fix class is the dependency one.
    let cycle = &run.verdict.violations[0];
    let project = tests::example("module-boundaries");
    let (code, output) = run_cli(&[
        "explain",
        "--violation",
        &cycle.id,
        "--all",
        "--json",
        "--project",
        project.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{output}");
    let explained: serde_json::Value = serde_json::from_str(&output).unwrap();
    assert_eq!(explained["rule"], "DenyCycle");
    assert_eq!(explained["fix_class"], "move_dependency");
    assert_eq!(explained["graph_fact_chain"].as_array().unwrap().len(), 2);
}

const CLOSED_SPEC: &str = r#"
node app : server
node db  : postgres
component Api    { runs_on: app  paths: "api/**"     depends_on: Domain }
component Domain { runs_on: app  paths: "domain/**"  public: "domain/index.ts" }
component Infra  { runs_on: app  paths: "infra/**" }
"#;

#[test]
fn a_component_without_depends_on_stays_open_and_public_files_pass() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "architecture.ag", CLOSED_SPEC);
    write_all(
        root,
        &[
            (
                "api/orders.ts",
                "import { order } from \"../domain/index\";\nexport const api = order;\n",
            ),
            (
                "domain/index.ts",
                "import { repo } from \"./repo\";\nexport const order = repo;\n",
            ),
            ("domain/repo.ts", "export const repo = 1;\n"),
        ],
    );
    // Infra is open: it may use anything, the database and Domain's internals included.
    write(
        root,
        "infra/db.ts",
        "import { Pool } from \"pg\";\nimport { repo } from \"../domain/repo\";\nexport const pool = new Pool(repo);\n",
    );
    let verdict = check(root, ScopeRequest::All, 1);
    assert_eq!(
        findings(&verdict),
        owned(&[(
            "interface_violation",
            "public: \"domain/index.ts\"",
            "infra/db.ts:2",
            "Infra -> Domain"
        )])
    );
    // Closing Infra with the database only makes its import of Domain a dependency violation too.
    write(
        root,
        "architecture.ag",
        &CLOSED_SPEC.replace(
            "paths: \"infra/**\" }",
            "paths: \"infra/**\"  depends_on: db }",
        ),
    );
    let verdict = check(root, ScopeRequest::All, 1);
    let types: Vec<String> = findings(&verdict)
        .into_iter()
        .map(|(kind, text, at, what)| format!("{kind} {text} {at} {what}"))
        .collect();
    assert_eq!(
        types,
        [
            "dependency_violation depends_on: db infra/db.ts:2 Infra -> Domain",
            "interface_violation public: \"domain/index.ts\" infra/db.ts:2 Infra -> Domain",
        ]
    );
}

#[test]
fn bad_boundary_specs_are_coded_errors_with_suggestions() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "architecture.ag",
        &format!("{CLOSED_SPEC}component Web {{ runs_on: app  paths: \"web/**\"  depends_on: Domian }}\n"),
    );
    let (code, output) = run_cli(&[
        "check",
        "--all",
        "--json",
        "--project",
        root.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    let verdict: serde_json::Value = serde_json::from_str(&output).unwrap();
    assert_eq!(verdict["error"]["code"], "unknown-entity");
    assert_eq!(verdict["diagnostics"][0]["help"], "did you mean `Domain`?");
}

const CYCLE_SPEC: &str = r#"
node app : server
component A { runs_on: app  paths: "a/**" }
component B { runs_on: app  paths: "b/**" }
component C { runs_on: app  paths: "c/**" }
invariant Acyclic { deny cycle among * }
"#;

fn import(target: &str) -> String {
    format!("import {{ value }} from \"{target}\";\nexport const next = value + 1;\n")
}

fn cycle_repository(files: &[(&str, &str)]) -> (tempfile::TempDir, Repository) {
    let dir = tempfile::tempdir().unwrap();
    let repository = Repository::init(dir.path()).unwrap();
    write(dir.path(), "architecture.ag", CYCLE_SPEC);
    for (path, text) in files {
        write(dir.path(), path, text);
    }
    commit_all(&repository, "base");
    repository
        .branch(
            "main-base",
            &repository.head().unwrap().peel_to_commit().unwrap(),
            true,
        )
        .unwrap();
    (dir, repository)
}

/// (members, status) of every cycle finding.
fn cycles(verdict: &serde_json::Value) -> Vec<(String, String)> {
    verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|violation| violation["type"] == "cycle_violation")
        .map(|violation| {
            (
                violation["detected"]["members"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|member| member.as_str().unwrap())
                    .collect::<Vec<_>>()
                    .join(","),
                violation["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn diff_marks_a_cycle_with_other_members_new_and_an_unchanged_one_existing() {
    let (dir, repository) = cycle_repository(&[
        ("a/a.ts", &import("../b/b")),
        ("b/b.ts", &import("../a/a")),
        ("c/c.ts", "export const value = 3;\n"),
    ]);
    // A change outside the loop reports nothing (no fact of the cycle is in scope, §3.1) …
    write(dir.path(), "c/c.ts", "export const value = 4;\n");
    commit_all(&repository, "touch c");
    let verdict = check(dir.path(), ScopeRequest::Diff("main-base".into()), 1);
    assert_eq!(cycles(&verdict), []);
    // … and a change to a file of the loop that keeps its edges finds the base's cycle {A, B}.
    write(
        dir.path(),
        "a/a.ts",
        &format!("// edited\n{}", import("../b/b")),
    );
    commit_all(&repository, "touch a");
    let verdict = check(dir.path(), ScopeRequest::Diff("main-base".into()), 1);
    assert_eq!(
        cycles(&verdict),
        [("A,B".to_owned(), "existing".to_owned())]
    );
    assert_eq!(verdict["violations"][0]["blocking"], true);
    // B now also uses C, which uses A: one strongly connected set {A, B, C}, a new cycle,
    // although A and B were already in one.
    write(
        dir.path(),
        "b/b.ts",
        "import { value } from \"../a/a\";\nimport { value as third } from \"../c/c\";\nexport const next = value + third;\n",
    );
    write(dir.path(), "c/c.ts", &import("../a/a"));
    commit_all(&repository, "close a longer loop");
    let verdict = check(dir.path(), ScopeRequest::Diff("main-base".into()), 1);
    assert_eq!(cycles(&verdict), [("A,B,C".to_owned(), "new".to_owned())]);
    let violation = &verdict["violations"][0];
    assert_eq!(violation["blocking"], true);
    // Located at a new edge of the loop.
    assert_eq!(violation["detected"]["file"], "b/b.ts");
    assert_eq!(
        violation["detected"]["path"],
        serde_json::json!(["B", "C", "A", "B"])
    );
}

#[test]
fn diff_marks_a_cycle_new_when_a_pull_request_adds_an_edge_inside_the_same_members() {
    let (dir, repository) = cycle_repository(&[
        ("a/a.ts", &import("../b/b")),
        ("b/b.ts", &import("../c/c")),
        ("c/c.ts", &import("../a/a")),
    ]);
    // B -> A closes a second, shorter loop among the same three members.
    write(
        dir.path(),
        "b/b.ts",
        "import { value } from \"../c/c\";\nimport { value as first } from \"../a/a\";\nexport const next = value + first;\n",
    );
    commit_all(&repository, "b uses a");
    let verdict = check(dir.path(), ScopeRequest::Diff("main-base".into()), 1);
    assert_eq!(cycles(&verdict), [("A,B,C".to_owned(), "new".to_owned())]);
    let violation = &verdict["violations"][0];
    assert_eq!(violation["detected"]["file"], "b/b.ts");
    assert_eq!(violation["detected"]["line"], 2);
    assert_eq!(
        violation["detected"]["path"],
        serde_json::json!(["B", "A", "B"])
    );
    // With --all, the one finding of the set: the shortest cycle through its smallest member.
    let verdict = check(dir.path(), ScopeRequest::All, 2);
    assert_eq!(
        cycles(&verdict),
        [("A,B,C".to_owned(), "unchanged".to_owned())]
    );
    assert_eq!(
        verdict["violations"][0]["detected"]["path"],
        serde_json::json!(["A", "B", "A"])
    );
}

#[test]
fn cycle_search_separates_strongly_connected_sets_and_ignores_acyclic_edges() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "architecture.ag",
        r#"
node app : server
component Core { runs_on: app  paths: "core/**" }
invariant Files { deny cycle within Core }
"#,
    );
    // Two separate loops (x <-> y, and p -> q -> r -> p) and a tail z -> x that is in none.
    write(root, "core/x.ts", &import("./y"));
    write(root, "core/y.ts", &import("./x"));
    write(root, "core/z.ts", &import("./x"));
    write(root, "core/p.ts", &import("./q"));
    write(root, "core/q.ts", &import("./r"));
    write(root, "core/r.ts", &import("./p"));
    let verdict = check(root, ScopeRequest::All, 2);
    assert_eq!(
        cycles(&verdict),
        [
            (
                "core/p.ts,core/q.ts,core/r.ts".to_owned(),
                "unchanged".to_owned()
            ),
            ("core/x.ts,core/y.ts".to_owned(), "unchanged".to_owned()),
        ]
    );
    assert_eq!(
        verdict["violations"][0]["detected"]["files"],
        serde_json::json!(["core/p.ts", "core/q.ts", "core/r.ts", "core/p.ts"])
    );
}

#[test]
fn cycle_among_files_finds_file_cycles_across_components_and_none_where_only_components_loop() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "architecture.ag",
        r#"
node app : server
component A { runs_on: app  paths: "a/**" }
component B { runs_on: app  paths: "b/**" }
component C { runs_on: app  paths: "c/**" }
invariant Imports {
  deny cycle among files in A, C
  deny cycle among files
  deny cycle among *
}
"#,
    );
    // A file cycle across A and B; A and C loop as components only (a/p -> c/q, c/r -> a/s);
    // two files no component owns import each other.
    write(root, "a/x.ts", &import("../b/y"));
    write(root, "b/y.ts", &import("../a/x"));
    write(root, "a/p.ts", &import("../c/q"));
    write(root, "c/q.ts", "export const value = 1;\n");
    write(root, "c/r.ts", &import("../a/s"));
    write(root, "a/s.ts", "export const value = 2;\n");
    write(root, "scripts/m.ts", &import("./n"));
    write(root, "scripts/n.ts", &import("./m"));
    let verdict = check(root, ScopeRequest::All, 2);
    assert_eq!(
        findings(&verdict),
        owned(&[
            (
                "cycle_violation",
                "deny cycle among files",
                "a/x.ts:1",
                "a/x.ts, b/y.ts"
            ),
            (
                "cycle_violation",
                "deny cycle among files",
                "scripts/m.ts:1",
                "scripts/m.ts, scripts/n.ts"
            ),
            (
                "cycle_violation",
                "deny cycle among *",
                "a/x.ts:1",
                "A, B, C"
            ),
        ])
    );
    let file_cycle = &verdict["violations"][0];
    assert_eq!(
        file_cycle["detected"]["files"],
        serde_json::json!(["a/x.ts", "b/y.ts", "a/x.ts"])
    );
    assert_eq!(
        file_cycle["message"],
        "import cycle a/x.ts -> b/y.ts -> a/x.ts, which `deny cycle among files` forbids"
    );
    // B's files join the search: the same loop is a finding of the restricted rule too, with
    // the owner of its first file in the proof.
    let spec = std::fs::read_to_string(root.join("architecture.ag")).unwrap();
    write(
        root,
        "architecture.ag",
        &spec.replace(
            "deny cycle among files in A, C",
            "deny cycle among files in A, B",
        ),
    );
    let options = CheckOptions {
        scope: ScopeRequest::All,
        ..CheckOptions::new(root)
    };
    let run = run_check(&options, &Z3Solver).unwrap();
    let restricted: Vec<_> = run
        .verdict
        .violations
        .iter()
        .filter(|violation| violation.rule.text == "deny cycle among files in A, B")
        .collect();
    assert_eq!(restricted.len(), 1);
    let core = &restricted[0].z3_proof.unsat_core;
    assert!(
        core.iter()
            .any(|name| name.contains("`a/x.ts` belongs to `A`")),
        "{core:?}"
    );
    assert_every_violation_replays_unsat(&run);
}

#[test]
fn unresolved_imports_are_reported_in_python_and_go_too() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "architecture.ag",
        r#"
node app : server
component Py { runs_on: app  paths: "py/**" }
component Go { runs_on: app  paths: "svc/**" }
invariant Imports { deny unresolved imports in * }
"#,
    );
    write_all(
        root,
        &[
            ("go.mod", "module example.com/shop\n\ngo 1.22\n"),
            ("svc/main.go", "package main\n\nimport (\n\t\"fmt\"\n\t\"example.com/shop/svc/billing\"\n)\n\nfunc main() { fmt.Println(billing.Total()) }\n"),
            ("py/__init__.py", ""),
            ("py/app.py", "from .models import Order\nimport os\n\nprint(Order, os.getcwd())\n"),
        ],
    );
    let found = kinds_at(root);
    assert_eq!(
        found,
        [
            (
                "unresolved_import_violation".to_owned(),
                "py/app.py:1".to_owned()
            ),
            (
                "unresolved_import_violation".to_owned(),
                "svc/main.go:5".to_owned()
            ),
        ]
    );
}

#[test]
fn webpack_inline_loaders_and_amd_plugins_resolve_to_the_file_they_load() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "architecture.ag",
        r#"
node app : server
component Ui { runs_on: app  paths: "ui/**" }
component Assets { runs_on: app  paths: "assets/**" }
invariant Imports {
  deny unresolved imports in *
  deny flow Ui -> Assets
}
"#,
    );
    write_all(
        root,
        &[
            ("assets/logo.svg", "<svg/>\n"),
            ("ui/row.html", "<tr></tr>\n"),
            ("ui/icons.ts", "import logo from \"!raw-loader!../assets/logo.svg\";\nimport row from \"text!./row.html\";\nimport gone from \"!!url-loader!./gone.png\";\nexport const icons = [logo, row, gone];\n"),
        ],
    );
    let verdict = check(root, ScopeRequest::All, 1);
    assert_eq!(
        findings(&verdict),
        owned(&[
            (
                "flow_violation",
                "deny flow Ui -> Assets",
                "ui/icons.ts:1",
                "Ui -> Assets"
            ),
            (
                "unresolved_import_violation",
                "deny unresolved imports in *",
                "ui/icons.ts:3",
                "Ui -> "
            ),
        ])
    );
}

#[test]
fn unresolved_imports_are_reported_in_rust_and_csharp_with_a_proof() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "architecture.ag",
        r#"
node app : server
component Rs { runs_on: app  paths: "rs/**" }
component Cs { runs_on: app  paths: "cs/**" }
invariant Imports { deny unresolved imports in * }
"#,
    );
    write(
        root,
        "rs/Cargo.toml",
        "[package]\nname = \"shop\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    // A missing module is unresolved; an item of an existing module, an enum's variant and an
    // external crate are not.
    write_all(
        root,
        &[
            ("rs/src/lib.rs", "pub mod orders;\npub enum Mode { Fast }\nuse crate::missing::Thing;\nuse crate::orders::Order;\nuse crate::Mode::Fast;\nuse serde::Deserialize;\n"),
            ("rs/src/orders.rs", "pub struct Order;\nuse super::gone::Lost;\n"),
            ("cs/Shop/Shop.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <RootNamespace>Acme.Shop</RootNamespace>\n  </PropertyGroup>\n</Project>\n"),
            ("cs/Shop/Orders/Order.cs", "namespace Acme.Shop.Orders;\n\npublic class Order { }\n"),
        ],
    );
    // Under the project's root namespace `Acme.Shop`, nothing declares `Acme.Shop.Missing`;
    // `Microsoft.Extensions.Logging` is a library's.
    write(
        root,
        "cs/Shop/Checkout.cs",
        "using System.Text;\nusing Acme.Shop.Orders;\nusing Acme.Shop.Missing;\nusing Microsoft.Extensions.Logging;\n\nnamespace Acme.Shop;\n\npublic class Checkout { public Order Current { get; set; } }\n",
    );
    let mut found = kinds_at(root);
    found.sort();
    let expected: Vec<(String, String)> = [
        "cs/Shop/Checkout.cs:3",
        "rs/src/lib.rs:3",
        "rs/src/orders.rs:2",
    ]
    .iter()
    .map(|at| ("unresolved_import_violation".to_owned(), (*at).to_owned()))
    .collect();
    assert_eq!(found, expected);
    // Each finding is proved: the core names the rule and the import, and stock z3 agrees.
    let options = CheckOptions {
        scope: ScopeRequest::All,
        ..CheckOptions::new(root.to_path_buf())
    };
    let run = run_check(&options, &Z3Solver).unwrap();
    assert_eq!(run.verdict.violations.len(), 3);
    for violation in &run.verdict.violations {
        let core = &violation.z3_proof.unsat_core;
        assert!(core.iter().any(|name| name.contains(" rule ")), "{core:?}");
        assert!(core.iter().any(|name| name.contains(" fact ")), "{core:?}");
    }
    assert_every_violation_replays_unsat(&run);
}

#[test]
fn rust_helper_modules_of_test_bench_and_example_targets_are_not_unresolved() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_all(
        root,
        &[
            ("architecture.ag", "node app : server\ncomponent Rs { runs_on: app  paths: \"**\" }\ninvariant Imports { deny unresolved imports in * }\n"),
            ("Cargo.toml", "[package]\nname = \"kit\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"),
            ("src/lib.rs", "pub struct Engine;\n"),
        ],
    );
    // Each `tests/*.rs` is a crate root that declares `mod common;`: `super` in the helper is
    // that root, whose items are no module of any file.
    write_all(
        root,
        &[
            (
                "tests/api.rs",
                "mod common;\npub fn setup() {}\npub mod support { pub struct Db; }\n",
            ),
            (
                "tests/common/mod.rs",
                "use super::setup;\nuse super::support::Db;\nuse crate::common::gone::Lost;\n",
            ),
        ],
    );
    // No target declares `mod orphan;`: lintel cannot know its root and stays silent.
    write_all(
        root,
        &[
            ("tests/orphan/mod.rs", "use super::anything::Here;\n"),
            ("benches/load.rs", "mod shared;\npub struct Config;\n"),
            ("benches/shared/mod.rs", "use super::Config;\n"),
            (
                "examples/demo.rs",
                "mod util;\npub struct Config;\nfn main() {}\n",
            ),
            ("examples/util/mod.rs", "use crate::Config;\n"),
        ],
    );
    let found = kinds_at(root);
    // Only the module no file holds and the root does not declare is unresolved.
    assert_eq!(
        found,
        [(
            "unresolved_import_violation".to_owned(),
            "tests/common/mod.rs:3".to_owned()
        )]
    );
}

#[test]
fn rust_paths_through_path_attribute_modules_land_on_the_file_the_attribute_names() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_all(
        root,
        &[
            ("architecture.ag", "node app : server\ncomponent Core { runs_on: app  paths: \"src/*.rs\" }\ncomponent Gen { runs_on: app  paths: \"src/gen/**\" }\ninvariant Imports { deny unresolved imports in * }\n"),
            ("Cargo.toml", "[package]\nname = \"plat\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"),
            ("src/lib.rs", "#[path = \"gen/schema.rs\"]\npub mod schema;\nuse crate::schema::columns::Column;\nuse crate::schema::missing::Gone;\n"),
        ],
    );
    // The target's own `mod columns;` is beside it, as a `mod.rs`'s would be.
    write_all(
        root,
        &[
            ("src/gen/schema.rs", "pub mod columns;\n"),
            ("src/gen/columns.rs", "pub struct Column;\n"),
        ],
    );
    let found = kinds_at(root);
    assert_eq!(
        found,
        [(
            "unresolved_import_violation".to_owned(),
            "src/lib.rs:4".to_owned()
        )]
    );
}

#[test]
fn every_spec_of_the_migration_guide_compiles_without_a_diagnostic() {
    let guide = std::fs::read_to_string(tests::workspace_root().join("docs/MIGRATING.md")).unwrap();
    let blocks: Vec<&str> = guide
        .split("```ag\n")
        .skip(1)
        .filter_map(|block| block.split("```").next())
        .collect();
    assert_eq!(blocks.len(), 3, "one spec per tool");
    for block in blocks {
        // The guide's snippets name the node they run on only once; add it when they do not.
        let source = if block.contains("node app") {
            block.to_owned()
        } else {
            format!("node app : server\n{block}")
        };
        let output = policies::compile::compile_source("architecture.ag", &source);
        let diagnostics: Vec<String> = output
            .diagnostics
            .iter()
            .map(|diagnostic| diagnostic.headline())
            .collect();
        assert!(diagnostics.is_empty(), "{diagnostics:?}\n{source}");
    }
}

const TACH_TOML: &str = r#"
exclude = ["**/tests", "**/__pycache__"]
source_roots = ["."]
layers = ["api", "domain", "infra"]
forbid_circular_dependencies = true

[[modules]]
path = "shop.api"
layer = "api"
depends_on = ["shop.orders"]

[[modules]]
path = "shop.orders"
layer = "domain"
depends_on = []
cannot_depend_on = ["shop.api"]

[[modules]]
path = "shop.billing"
layer = "domain"
depends_on = [{ path = "shop.orders" }]

[[modules]]
path = "shop.db"
layer = "infra"

[[modules]]
path = "shop.utils"
utility = true

[[interfaces]]
expose = ["api.*"]
from = ["shop.billing"]
"#;

/// A Python project laid out as `TACH_TOML` describes, with three violations Tach reports: an
/// undeclared dependency of a domain module on another of its layer, through billing's
/// internals, and a lower layer importing a higher one. A test file that would break the layers
/// is excluded. `tach check` (0.35.3) on this project reports exactly these three: the interface
/// and the dependency at `shop/orders/model.py:1`, the layer at `shop/db/session.py:1`.
fn tach_project(root: &Path) {
    write(root, "tach.toml", TACH_TOML);
    for package in [
        "",
        "api/",
        "orders/",
        "billing/",
        "billing/internal/",
        "billing/api/",
        "utils/",
        "db/",
    ] {
        write(root, &format!("shop/{package}__init__.py"), "");
    }
    write_all(
        root,
        &[
            ("shop/api/views.py", "from shop.orders.model import Order\nfrom shop.billing.api.prices import price_of\nfrom shop.utils.text import slug\n\n\ndef show(sku):\n    return slug(str(Order(sku).total(price_of)))\n"),
            ("shop/orders/model.py", "from shop.billing.internal.ledger import LEDGER\n\n\nclass Order:\n    def __init__(self, sku):\n        self.sku = sku\n\n    def total(self, price_of):\n        return price_of(self.sku) + LEDGER.get(self.sku, 0)\n"),
            ("shop/billing/api/prices.py", "from shop.billing.internal.ledger import LEDGER\n\n\ndef price_of(sku):\n    return LEDGER.get(sku, 0)\n"),
            ("shop/billing/internal/ledger.py", "LEDGER = {\"book\": 12}\n"),
            ("shop/db/session.py", "from shop.orders.model import Order\n\n\ndef load(sku):\n    return Order(sku)\n"),
            ("shop/utils/text.py", "def slug(text):\n    return text.lower()\n"),
            ("shop/orders/tests/test_model.py", "from shop.api.views import show\n"),
        ],
    );
}

#[test]
fn init_from_tach_toml_writes_a_spec_that_reports_what_tach_reports() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    tach_project(root);
    let project = root.to_str().unwrap();
    let from = root.join("tach.toml");
    let (code, _) = run_cli(&[
        "init",
        "--from",
        from.to_str().unwrap(),
        "--project",
        project,
    ]);
    assert_eq!(code, 0);
    let spec = std::fs::read_to_string(root.join("architecture.ag")).unwrap();
    // Higher layers use lower ones and utilities without declaring them, as in Tach.
    assert!(spec.contains(
        "component ShopApi { runs_on: app  paths: \"shop/api/**\"  layer: api  depends_on: ShopOrders, ShopBilling, ShopDb, ShopUtils }"
    ), "{spec}");
    assert!(
        spec.contains("public: \"shop/billing/__init__.py\", \"shop/billing/api/**\""),
        "{spec}"
    );
    assert!(
        spec.contains("component ShopDb { runs_on: app  paths: \"shop/db/**\"  layer: infra }"),
        "{spec}"
    );
    for rule in [
        "deny flow ShopOrders -> ShopApi",
        "deny flow layer infra -> layer domain",
    ] {
        assert!(spec.contains(rule), "{rule}: {spec}");
    }
    // Tach's `forbid_circular_dependencies` checks the declared `depends_on`, which form no
    // cycle here; it never looks for import cycles, so neither does the translation.
    assert!(!spec.contains("\n  deny cycle"), "{spec}");
    assert!(
        spec.contains("// forbid_circular_dependencies: the declared depends_on form no cycle"),
        "{spec}"
    );
    let verdict = check(root, ScopeRequest::All, 2);
    assert_eq!(
        findings(&verdict),
        owned(&[
            (
                "dependency_violation",
                "depends_on: ShopDb, ShopUtils",
                "shop/orders/model.py:1",
                "ShopOrders -> ShopBilling"
            ),
            (
                "flow_violation",
                "deny flow layer infra -> layer domain",
                "shop/db/session.py:1",
                "ShopDb -> ShopOrders"
            ),
            (
                "interface_violation",
                "public: \"shop/billing/__init__.py\", \"shop/billing/api/**\"",
                "shop/orders/model.py:1",
                "ShopOrders -> ShopBilling"
            ),
        ])
    );
    // A second init keeps the reviewed spec unless told to overwrite it.
    let (code, _) = run_cli(&[
        "init",
        "--from",
        from.to_str().unwrap(),
        "--project",
        project,
    ]);
    assert_eq!(code, 2);
    let (code, _) = run_cli(&[
        "init",
        "--from",
        from.to_str().unwrap(),
        "--project",
        project,
        "--force",
    ]);
    assert_eq!(code, 0);
}

/// Two modules that declare each other (a cycle `tach check` reports from the configuration
/// alone, with `forbid_circular_dependencies`), and a third whose imports of them are undeclared.
/// Tach (0.35.3) reports the two modules' circular dependency and stops there; without the
/// setting it reports `shop/c/__init__.py:4`, and skips the import at line 2, which a
/// `# tach-ignore` directive marks. lintel reports the cycle of imports the declared one allows.
#[test]
fn init_from_tach_toml_keeps_a_declared_cycle_and_waives_what_tach_ignore_marks() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_all(
        root,
        &[
            ("tach.toml", "forbid_circular_dependencies = true\n\n[[modules]]\npath = \"shop.a\"\ndepends_on = [\"shop.b\"]\n\n[[modules]]\npath = \"shop.b\"\ndepends_on = [\"shop.a\"]\n\n[[modules]]\npath = \"shop.c\"\ndepends_on = []\n"),
            ("shop/__init__.py", ""),
            ("shop/a/__init__.py", "from shop.b import B\n\nA = 1\n"),
            ("shop/b/__init__.py", "B = 2\n\n\ndef f():\n    from shop.a import A\n    return A\n"),
            ("shop/c/__init__.py", "# tach-ignore\nfrom shop.a import A\n\nfrom shop.b import B  # pylint: disable=unused-import\n"),
        ],
    );
    let spec = init_from(root, "tach.toml");
    assert!(spec.contains("  deny cycle among ShopA, ShopB\n"), "{spec}");
    assert!(
        spec.contains("// The declared depends_on of `shop.a`, `shop.b` form a cycle"),
        "{spec}"
    );
    let waivers: Vec<&str> = spec
        .lines()
        .filter(|line| line.starts_with("waive "))
        .collect();
    assert_eq!(waivers.len(), 1, "{spec}");
    assert!(
        waivers[0]
            .ends_with("owner \"tach-ignore\" reason \"`# tach-ignore` at shop/c/__init__.py:1\""),
        "{spec}"
    );
    let verdict = check(root, ScopeRequest::All, 2);
    let blocking: Vec<(String, String, String, String)> = findings(&verdict)
        .into_iter()
        .zip(verdict["violations"].as_array().unwrap())
        .filter(|(_, violation)| violation["blocking"] == true)
        .map(|(finding, _)| finding)
        .collect();
    assert_eq!(
        blocking,
        [
            (
                "cycle_violation".to_owned(),
                "deny cycle among ShopA, ShopB".to_owned(),
                "shop/a/__init__.py:1".to_owned(),
                "ShopA, ShopB".to_owned()
            ),
            (
                "dependency_violation".to_owned(),
                "depends_on: []".to_owned(),
                "shop/c/__init__.py:4".to_owned(),
                "ShopC -> ShopB".to_owned()
            ),
        ]
    );
    let waived: Vec<&serde_json::Value> = verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|violation| violation["waiver"].is_object())
        .collect();
    assert_eq!(waived.len(), 1);
    assert_eq!(waived[0]["detected"]["line"], 2);
    assert_eq!(waived[0]["blocking"], false);
}

#[test]
fn init_reads_old_tach_configs_strict_modules_and_regular_expression_excludes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_all(
        root,
        &[
            ("tach.toml", "exclude = [\".*__pycache__\", \"docs\"]\n\n[[modules]]\npath = \"<root>\"\ndepends_on = [{ path = \"app.core\" }]\n\n[[modules]]\npath = \"app.core\"\nstrict = true\ndepends_on = []\n\n[[modules]]\npath = \"app.settings\"\n"),
            ("app/core/__init__.py", ""),
            ("app/settings.py", "DEBUG = True\n"),
        ],
    );
    let out = root.join("lintel.ag");
    let (code, _) = run_cli(&[
        "init",
        "--from",
        root.join("tach.toml").to_str().unwrap(),
        "--project",
        root.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let spec = std::fs::read_to_string(&out).unwrap();
    assert!(
        spec.contains(
            "exclude \"**/*__pycache__\", \"**/*__pycache__/**\", \"docs\", \"docs/**\"\n"
        ),
        "{spec}"
    );
    assert!(spec.contains("component AppCore { runs_on: app  paths: \"app/core/**\"  depends_on: []  public: \"app/core/__init__.py\" }"), "{spec}");
    // A module file, and Tach's `<root>` module left out.
    assert!(
        spec.contains("component AppSettings { runs_on: app  paths: \"app/settings.py\" }"),
        "{spec}"
    );
    assert!(!spec.contains("root"), "{spec}");
    let output = policies::compile::compile_source("lintel.ag", &spec);
    assert!(output.diagnostics.is_empty(), "{:?}", output.diagnostics);
}

const TACH_NEWER_KEYS: &str = r#"
source_roots = ["src"]
exact = true
root_module = "allow"

[[modules]]
path = "<root>"
depends_on = ["core"]

[[modules]]
path = "core"
depends_on = []
visibility = ["api"]

[[modules]]
path = "api"
depends_on = ["core", { path = "legacy", deprecated = true }, "<root>"]
depends_on_external = ["requests"]

[[modules]]
path = "legacy"
depends_on = ["core"]

[[modules]]
path = "jobs"
depends_on = ["core"]

[[interfaces]]
expose = ["services.*"]
from = ["core"]
visibility = ["api"]
"#;

#[test]
fn init_translates_tach_visibility_root_module_and_deprecated_and_names_what_it_cannot() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "tach.toml", TACH_NEWER_KEYS);
    for package in ["core", "api", "legacy", "jobs"] {
        write(root, &format!("src/{package}/__init__.py"), "");
    }
    write(root, "src/core/services.py", "def run():\n    return 1\n");
    // The api uses what it declares: core, the deprecated legacy and the root module.
    write(
        root,
        "src/api/views.py",
        "from core.services import run\nfrom legacy.old import legacy\nfrom settings import DEBUG\n\n\ndef show():\n    return run() if DEBUG else legacy()\n",
    );
    // legacy declares core, but core is visible to the api alone.
    write(
        root,
        "src/legacy/old.py",
        "from core.services import run\n\n\ndef legacy():\n    return run()\n",
    );
    // jobs uses root code without declaring `<root>`.
    write_all(
        root,
        &[
            (
                "src/jobs/nightly.py",
                "from settings import DEBUG\n\n\ndef nightly():\n    return DEBUG\n",
            ),
            ("src/settings.py", "DEBUG = False\n"),
        ],
    );
    let spec = init_from(root, "tach.toml");
    for expected in [
        "component Root { runs_on: app  paths: \"src/**/*.py\"  depends_on: Core }",
        "component Api { runs_on: app  paths: \"src/api/**\"  depends_on: Core, Legacy, Root }",
        "deny flow Legacy -> Core",
        "deny flow Jobs -> Core",
        "deny flow Root -> Core",
        "// `api` depends_on `legacy` is deprecated: kept in `depends_on`",
        "// `exact = true`: not translated",
        "// `api` depends_on_external = [requests]: not translated",
        "// the interface of [core] exposing [services.*] has `visibility`/`exclusive`: not translated",
    ] {
        assert!(spec.contains(expected), "{expected}\n{spec}");
    }
    assert!(!spec.contains("deny flow Api -> Core"), "{spec}");
    let verdict = check(root, ScopeRequest::All, 1);
    assert_eq!(
        findings(&verdict),
        owned(&[
            (
                "dependency_violation",
                "depends_on: Core",
                "src/jobs/nightly.py:1",
                "Jobs -> Root"
            ),
            (
                "flow_violation",
                "deny flow Legacy -> Core",
                "src/legacy/old.py:1",
                "Legacy -> Core"
            ),
        ])
    );
    // `dependenciesonly`: `<root>` stays a component, but no module may list it; `forbid` has
    // no lintel form.
    for (mode, expected, absent) in [
        (
            "dependenciesonly",
            "// `api` depends_on `<root>`: left out, as `root_module = \"dependenciesonly\"` forbids it",
            "depends_on: Core, Legacy, Root",
        ),
        (
            "forbid",
            "// `root_module = \"forbid\"`: not translated",
            "component Root",
        ),
    ] {
        let variant = TACH_NEWER_KEYS.replace("root_module = \"allow\"", &format!("root_module = \"{mode}\""));
        write(root, &format!("{mode}/tach.toml"), &variant);
        let out = root.join(format!("{mode}.ag"));
        let (code, _) = run_cli(&[
            "init",
            "--from",
            root.join(format!("{mode}/tach.toml")).to_str().unwrap(),
            "--project",
            root.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0);
        let spec = std::fs::read_to_string(&out).unwrap();
        assert!(spec.contains(expected), "{mode}: {spec}");
        assert!(!spec.contains(absent), "{mode}: {spec}");
        let output = policies::compile::compile_source("lintel.ag", &spec);
        assert!(output.diagnostics.is_empty(), "{mode}: {:?}", output.diagnostics);
    }
}

#[test]
fn init_rejects_unknown_configs_and_bad_toml_and_still_plans_the_layout_starter() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let project = root.to_str().unwrap();
    write_all(
        root,
        &[
            ("tach.toml", "modules = ["),
            ("eslint.config.js", "export default [];"),
            (".dependency-cruiser.js", "module.exports = 42;"),
        ],
    );
    for from in ["tach.toml", "eslint.config.js", ".dependency-cruiser.js"] {
        let path = root.join(from);
        let (code, _) = run_cli(&[
            "init",
            "--from",
            path.to_str().unwrap(),
            "--project",
            project,
        ]);
        assert_eq!(code, 2, "{from}");
    }
    let (code, _) = run_cli(&["init", "--project", project]);
    assert_eq!(code, 2);
    assert!(!root.join("architecture.ag").exists());
}

#[test]
fn text_output_names_the_imported_and_the_public_files() {
    let project = tests::example("module-boundaries");
    let (code, output) = run_cli(&["check", "--all", "--project", project.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        output.contains("  = imports: packages/billing/src/internal/ledger.ts\n  = public files: packages/billing/src/api/invoices.ts, packages/billing/src/api/prices.ts, packages/billing/src/index.ts\n"),
        "{output}"
    );
    assert!(
        output.contains("  = path: layer Domain -> layer Service -> layer Domain\n"),
        "{output}"
    );
}

#[test]
fn diff_marks_a_new_undeclared_dependency_new_and_the_base_one_existing() {
    let dir = tempfile::tempdir().unwrap();
    let repository = Repository::init(dir.path()).unwrap();
    write(dir.path(), "architecture.ag", CLOSED_SPEC);
    // Api may use Domain only; on the base it already uses Infra.
    write_all(
        dir.path(),
        &[
            (
                "api/orders.ts",
                "import { pool } from \"../infra/db\";\nexport const api = pool;\n",
            ),
            ("infra/db.ts", "export const pool = 1;\n"),
            ("domain/index.ts", "export const order = 2;\n"),
        ],
    );
    commit_all(&repository, "base");
    repository
        .branch(
            "main-base",
            &repository.head().unwrap().peel_to_commit().unwrap(),
            true,
        )
        .unwrap();
    write_all(
        dir.path(),
        &[
            ("infra/cache.ts", "export const cache = 3;\n"),
            ("api/orders.ts", "import { pool } from \"../infra/db\";\nimport { cache } from \"../infra/cache\";\nexport const api = pool + cache;\n"),
        ],
    );
    commit_all(&repository, "api uses the cache too");
    let verdict = check(dir.path(), ScopeRequest::Diff("main-base".into()), 1);
    let statuses: Vec<(String, String)> = verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| {
            (
                format!(
                    "{} {}:{}",
                    violation["type"].as_str().unwrap(),
                    violation["detected"]["file"].as_str().unwrap(),
                    violation["detected"]["line"]
                ),
                violation["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        statuses,
        [
            (
                "dependency_violation api/orders.ts:1".to_owned(),
                "existing".to_owned()
            ),
            (
                "dependency_violation api/orders.ts:2".to_owned(),
                "new".to_owned()
            ),
        ]
    );
}

#[test]
fn the_agent_brief_states_what_each_component_may_use_and_expose() {
    let project = tests::example("module-boundaries");
    let (code, output) = run_cli(&["emit-context", "--project", project.to_str().unwrap()]);
    assert_eq!(code, 0);
    for line in [
        "- `Shared`: `packages/shared/**` (runs on `backend`, layer `Domain`, may depend on nothing)\n",
        "- `Orders`: `packages/orders/**` (runs on `backend`, layer `Domain`, may depend only on `Shared`)\n",
        "others may import only `packages/billing/src/index.ts`, `packages/billing/src/api/**`)\n",
        "- `deny cycle within Orders` (`Boundaries`, architecture.ag:23): no import cycle among the files of the component.\n",
    ] {
        assert!(output.contains(line), "{line}\n{output}");
    }
}

const CRUISER_JS: &str = r#"/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'warn',
      comment:
        'This dependency is part of a circular relationship. You might want to revise ' +
        'your solution (i.e. use dependency inversion) ',
      from: {},
      to: { circular: true },
    },
    { name: "not-to-unresolvable", severity: "error", from: {}, to: { couldNotResolve: true } },
    // The UI never imports the database directly, nor reaches it.
    { name: 'ui-not-to-db', severity: 'error', from: { path: '^src/ui' }, to: { path: '^src/db/' } },
    { name: 'ui-never-reaches-db', from: { path: "^src/ui" }, to: { path: "^src/db", reachable: true } },
    { name: 'no-orphans', severity: 'warn', from: { orphan: true, pathNot: ['[.]d[.]ts$'] }, to: {} },
    { name: 'not-to-dev-dep', from: { path: '^(src)' }, to: { dependencyTypes: ['npm-dev'] } },
    // Switched off, and a cycle rule narrowed to some files: neither becomes a lintel rule.
    { name: 'api-not-to-ui', severity: 'ignore', from: { path: '^src/api' }, to: { path: '^src/ui' } },
    { name: 'no-ui-cycles', from: {}, to: { circular: true, viaOnly: { path: '^src/ui' } } },
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: '^src/generated' },
    tsConfig: { fileName: 'tsconfig.json' },
    ...require('./shared-options'),
  },
};
// generated: dependency-cruiser@17.3.4
"#;

/// A project that runs `depcruise --ignore-known`: the import its known violations list is
/// waived by `init`, the other one of the same rule still blocks.
#[test]
fn init_from_a_dependency_cruiser_config_waives_its_known_violations() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        ".dependency-cruiser.js",
        "module.exports = { forbidden: [ { name: 'ui-not-to-db', severity: 'error', from: { path: '^src/ui' }, to: { path: '^src/db/' } } ] };\n",
    );
    write(
        root,
        ".dependency-cruiser-known-violations.json",
        r#"[
  { "type": "dependency", "from": "src/ui/page.ts", "to": "src/db/query.ts", "rule": { "severity": "error", "name": "ui-not-to-db" } },
  { "type": "dependency", "from": "src/ui/gone.ts", "to": "src/db/query.ts", "rule": { "severity": "error", "name": "ui-not-to-db" } }
]"#,
    );
    write_all(
        root,
        &[
            ("src/db/query.ts", "export const q = 1;\n"),
            (
                "src/ui/page.ts",
                "import { q } from \"../db/query\";\nexport const page = q;\n",
            ),
            (
                "src/ui/list.ts",
                "import { q } from \"../db/query\";\nexport const list = q;\n",
            ),
        ],
    );
    let spec = init_from(root, ".dependency-cruiser.js");
    let waivers: Vec<&str> = spec
        .lines()
        .filter(|line| line.starts_with("waive "))
        .collect();
    assert_eq!(waivers.len(), 1, "{spec}");
    assert!(
        waivers[0].ends_with("owner \"dependency-cruiser\" reason \"known violation of ui-not-to-db in .dependency-cruiser-known-violations.json\""),
        "{spec}"
    );
    let verdict = check(root, ScopeRequest::All, 1);
    let states: Vec<(String, bool)> = verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| {
            (
                violation["detected"]["file"].as_str().unwrap().to_owned(),
                violation["blocking"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        states,
        [
            ("src/ui/list.ts".to_owned(), true),
            ("src/ui/page.ts".to_owned(), false)
        ]
    );
}

/// A configuration that names its paths through string constants, in template literals and
/// joined by `+` (DEFRA's trade-imports-animals-frontend writes `` `^${APP}/bridge/` ``): the
/// constants stand for their values; a substitution of anything else leaves the rule out.
#[test]
fn init_from_a_dependency_cruiser_config_reads_its_string_constants() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_all(
        root,
        &[
            (".dependency-cruiser.cjs", "// The layers of the app.\nconst APP = 'src/app'\nconst FLOW = APP + \"/flow\";\nlet computed = require('./x').path\n\nmodule.exports = {\n  forbidden: [\n    { name: 'bridge-no-up', severity: 'error', from: { path: `^${APP}/bridge/` }, to: { path: `^${FLOW}/` } },\n    { name: 'engine-no-up', from: { path: '^' + APP + '/engine/' }, to: { path: [`^${APP}/flow/`] } },\n    { name: 'unknown', from: { path: `^${computed}/x/` }, to: { path: '^src/app/flow/' } },\n  ],\n}\n"),
            ("src/app/flow/step.js", "export const step = 1;\n"),
            ("src/app/bridge/scope.js", "import { step } from '../flow/step.js';\nexport const scope = step;\n"),
            ("src/app/engine/run.js", "import { step } from '../flow/step.js';\nexport const run = step;\n"),
        ],
    );
    let spec = init_from(root, ".dependency-cruiser.cjs");
    assert_lines(
        &spec,
        &[
            "  // bridge-no-up\n  deny flow Bridge -> Flow\n",
            "  // engine-no-up\n  deny flow Engine -> Flow\n",
            "// - unknown\n",
        ],
    );
    assert_eq!(
        rules_at(root),
        [
            "deny flow Bridge -> Flow at src/app/bridge/scope.js:1",
            "deny flow Engine -> Flow at src/app/engine/run.js:1"
        ]
    );
}

/// A configuration assembled from declarations: an object constant exported by name, rules
/// made by functions without parameters (declared below the object, or as arrows above it) and
/// an array constant of paths.
#[test]
fn init_from_a_dependency_cruiser_config_reads_its_declared_objects_and_rule_functions() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        ".dependency-cruiser.mjs",
        r#"const stores = ["^src/db/", "^src/cache/"];
const noCycles = () => ({ name: "no-circular", from: {}, to: { circular: true } });
const helper = (x) => ({ name: x });

const rules = {
  forbidden: [
    uiNotToStores(),
    noCycles(),
    helper("computed"),
    { name: "api-not-to-ui", from: { path: "^src/api/" }, to: { path: "^src/ui/" } },
  ],
};

export default rules;

/** The UI reaches no store. */
function uiNotToStores() {
  // Stores are for the API.
  return {
    name: "ui-not-to-stores",
    from: { path: "^src/ui/" },
    to: { path: stores },
  };
}
"#,
    );
    write_all(
        root,
        &[
            ("src/ui/page.ts", "import { q } from \"../db/query\";\nimport { c } from \"../cache/get\";\nexport const ui = q + c;\n"),
            ("src/db/query.ts", "export const q = 1;\n"),
            ("src/cache/get.ts", "export const c = 2;\n"),
            ("src/api/handler.ts", "export const h = 3;\n"),
        ],
    );
    let spec = init_from(root, ".dependency-cruiser.mjs");
    assert_lines(
        &spec,
        &[
            "  // ui-not-to-stores\n  deny flow Ui -> Cache\n  deny flow Ui -> Db\n",
            "  // no-circular\n  deny cycle among files\n",
            "  // api-not-to-ui\n  deny flow Api -> Ui\n",
            "// - a rule computed by code (entry 3 of `forbidden`)\n",
        ],
    );
    assert_eq!(
        rules_at(root),
        [
            "deny flow Ui -> Cache at src/ui/page.ts:2",
            "deny flow Ui -> Db at src/ui/page.ts:1"
        ]
    );
}

/// A `pathNot` beside a `path` leaves files out of the rule: a suffix (the tests) under every
/// folder of the path, or the files it names.
#[test]
fn init_from_a_dependency_cruiser_config_expands_captured_and_any_name_segments_over_the_folders() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_all(
        root,
        &[
            (
                ".dependency-cruiser.js",
                r#"module.exports = {
  forbidden: [
    { name: "no-cross-feature", from: { path: "^src/features/([^/]+)/.+" },
      to: { path: "^src/features/([^/]+)/.+", pathNot: "^src/features/$1/.+|^src/features/([^/]+)/@x/" } },
    { name: "no-cross-slice", from: { path: "^src/(features|widgets)/([^/]+)/" },
      to: { path: "^src/$1/", pathNot: "^src/$1/$2/" } },
    { name: "no-feature-internals", from: { path: "^src/app/" }, to: { path: "^src/features/[^/]+/internal/" } },
    { name: "no-stray-capture", from: { path: "^src/app/" }, to: { path: "^src/lib/$1" } },
    { name: "app-not-to-auth-or-cart-index", from: { path: "^src/app/" }, to: { path: "^src/features/(cart/index\\.ts$|auth/)" } },
    { name: "no-orphans", from: { orphan: true, pathNot: ["(^|/)[.][^/]+[.](?:js|cjs|mjs|ts|json)$"] }, to: {} },
  ],
};
"#,
            ),
            ("src/features/auth/index.ts", "import { b } from \"../billing/index\";\nexport const a = b;\n"),
            ("src/features/auth/internal/x.ts", "export const x = 1;\n"),
            ("src/features/billing/index.ts", "import { y } from \"./internal/y\";\nexport const b = y;\n"),
            ("src/features/billing/internal/y.ts", "export const y = 2;\n"),
            ("src/features/cart/index.ts", "export const c = 3;\n"),
            ("src/features/cart/internal/z.ts", "export const z = 3;\n"),
            ("src/features/README.md", "Each folder is a feature.\n"),
            ("src/app/main.ts", "import { z } from \"../features/cart/internal/z\";\nimport { a } from \"../features/auth/index\";\nexport const m = z + a;\n"),
        ],
    );
    let spec = init_from(root, ".dependency-cruiser.js");
    assert_lines(
        &spec,
        &[
            "component Auth { runs_on: app  paths: \"src/features/auth/**\" }\n",
            "component CartInternal { runs_on: app  paths: \"src/features/cart/internal/**\" }\n",
            "  // no-cross-feature ($1 = auth)\n  deny flow Auth -> Billing\n",
            // `Cart` owns no file (its index and internals are components of their own): no
            // pair of it is written.
            "  // no-cross-feature ($1 = cart)\n  deny flow IndexTs -> Auth\n",
            "  // no-feature-internals\n  deny flow App -> Internal\n  deny flow App -> BillingInternal\n  deny flow App -> CartInternal\n",
            // A rule over other attributes is named as it is, whatever segments it holds.
            "// - no-cross-slice (`$1` captures a group before the path segment)\n// - no-stray-capture (`$1` with no segment captured by `from.path`)\n// - no-orphans\n",
            // A `$` that ends an alternative inside a group names one file.
            "  // app-not-to-auth-or-cart-index\n  deny flow App -> Auth\n  deny flow App -> Internal\n  deny flow App -> IndexTs\n",
            "component IndexTs { runs_on: app  paths: \"src/features/cart/index.ts\" }\n",
        ],
    );
    // A feature's own files, and its own internals, are no sibling; the file beside the
    // folders is no feature.
    assert!(
        !spec.contains("deny flow Auth -> Auth")
            && !spec.contains("deny flow Cart ->")
            && !spec.contains("README"),
        "{spec}"
    );
    assert_eq!(
        rules_at(root),
        [
            "deny flow Auth -> Billing at src/features/auth/index.ts:1",
            "deny flow App -> CartInternal at src/app/main.ts:1",
            "deny flow App -> Auth at src/app/main.ts:2",
        ]
    );
}

#[test]
fn init_from_a_dependency_cruiser_config_leaves_out_what_path_not_names_beside_a_path() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        ".dependency-cruiser.js",
        r#"const permitted = ["src/infra/env/index.ts"];
module.exports = {
  forbidden: [
    { name: "domain-not-to-app", from: { path: "^src/domain", pathNot: ["\\.test\\.ts$"] }, to: { path: "^src/application" } },
    { name: "domain-not-to-infra", from: { path: "^src/domain", pathNot: "\\.test\\.ts$" }, to: { path: "^src/infra", pathNot: permitted } },
  ],
};
"#,
    );
    write_all(
        root,
        &[
            ("src/domain/order.ts", "import { a } from \"../application/use\";\nimport { env } from \"../infra/env/index\";\nimport { db } from \"../infra/db\";\nexport const o = a + env + db;\n"),
            ("src/domain/order.test.ts", "import { a } from \"../application/use\";\nimport { db } from \"../infra/db\";\nexport const t = a + db;\n"),
            ("src/application/use.ts", "export const a = 1;\n"),
            ("src/infra/env/index.ts", "export const env = 2;\n"),
            ("src/infra/db.ts", "export const db = 3;\n"),
        ],
    );
    let spec = init_from(root, ".dependency-cruiser.js");
    assert_lines(
        &spec,
        &[
            "component Domain { runs_on: app  paths: [\"src/domain/**\", \"!src/domain/**/*.test.ts\"] }\n",
            "component DomainTestTs { runs_on: app  paths: \"src/domain/**/*.test.ts\" }\n",
            "component IndexTs { runs_on: app  paths: \"src/infra/env/index.ts\" }\n",
            "  // domain-not-to-app\n  deny flow Domain -> Application\n  // domain-not-to-infra\n  deny flow Domain -> Infra\n}",
        ],
    );
    // The test file and the permitted file are left out, as dependency-cruiser leaves them.
    assert_eq!(
        rules_at(root),
        [
            "deny flow Domain -> Application at src/domain/order.ts:1",
            "deny flow Domain -> Infra at src/domain/order.ts:3"
        ]
    );
}

#[test]
fn init_from_a_dependency_cruiser_config_translates_its_forbidden_rules_without_running_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, ".dependency-cruiser.js", CRUISER_JS);
    write_all(
        root,
        &[
            ("src/ui/page.ts", "import { q } from \"../db/query\";\nimport { a } from \"../api/client\";\nexport const ui = q + a;\n"),
            ("src/api/client.ts", "import { ui } from \"../ui/page\";\nexport const a = () => ui;\n"),
            ("src/db/query.ts", "import { nope } from \"./missing\";\nexport const q = nope;\n"),
            ("src/generated/client.ts", "import { gone } from \"./gone\";\nexport const g = gone;\n"),
        ],
    );
    let project = root.to_str().unwrap();
    let from = root.join(".dependency-cruiser.js");
    let (code, _) = run_cli(&[
        "init",
        "--from",
        from.to_str().unwrap(),
        "--project",
        project,
    ]);
    assert_eq!(code, 0);
    let spec = std::fs::read_to_string(root.join("architecture.ag")).unwrap();
    assert_lines(
        &spec,
        &[
            "exclude \"src/generated/**\"\n",
            "component Rest { runs_on: app  paths: \"**\" }\n",
            "component Db { runs_on: app  paths: \"src/db/**\" }\n",
            "component Ui { runs_on: app  paths: \"src/ui/**\" }\n",
            "  // no-circular\n  deny cycle among files\n",
            "  // not-to-unresolvable\n  deny unresolved imports in *\n",
            "  deny flow Ui -> Db\n",
            "  deny reach Ui -> Db\n",
            "// - no-orphans\n// - not-to-dev-dep\n// - api-not-to-ui (severity `ignore`: dependency-cruiser does not check it)\n// - no-ui-cycles\n",
        ],
    );
    let verdict = check(root, ScopeRequest::All, 1);
    assert_eq!(
        findings(&verdict),
        owned(&[
            (
                "cycle_violation",
                "deny cycle among files",
                "src/api/client.ts:1",
                "src/api/client.ts, src/ui/page.ts"
            ),
            (
                "flow_violation",
                "deny flow Ui -> Db",
                "src/ui/page.ts:1",
                "Ui -> Db"
            ),
            (
                "reach_violation",
                "deny reach Ui -> Db",
                "src/ui/page.ts:1",
                "Ui -> Db"
            ),
            // The configuration is code of the project too: its `require` of a missing file.
            (
                "unresolved_import_violation",
                "deny unresolved imports in *",
                ".dependency-cruiser.js:27",
                "Rest -> "
            ),
            (
                "unresolved_import_violation",
                "deny unresolved imports in *",
                "src/db/query.ts:1",
                "Db -> "
            ),
        ])
    );
    // The same rules as JSON.
    write(
        root,
        ".dependency-cruiser.json",
        r#"{ "forbidden": [ { "name": "no-circular", "from": {}, "to": { "circular": true } } ] }"#,
    );
    let out = root.join("from-json.ag");
    let from = root.join(".dependency-cruiser.json");
    let (code, _) = run_cli(&[
        "init",
        "--from",
        from.to_str().unwrap(),
        "--project",
        project,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let spec = std::fs::read_to_string(out).unwrap();
    assert!(
        spec.contains("  // no-circular\n  deny cycle among files\n"),
        "{spec}"
    );
}

const CRUISER_MJS: &str = r#"/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  extends: "dependency-cruiser/configs/recommended-strict",
  forbidden: [
    { name: "no-circular", severity: "error", from: {}, to: { circular: true } },
    { name: "not-to-unresolvable", from: {}, to: { couldNotResolve: true } },
    // Outside `src/api`, only its index may be imported.
    { name: "api-only-through-index", from: { pathNot: "^src/api" }, to: { path: "^src/api/(?!index)" } },
    { name: "utils-only-depends-on-utils", from: { path: "^src/utils" }, to: { pathNot: "^src/" + '(utils|state/recorder)' } },
    { name: "computed-path", from: { path: base + "/x" }, to: { path: "^src/db" } },
    {
      name: "billing-via-index",
      from: { pathNot: "^src/billing" },
      to: { path: "^src/billing/", pathNot: "^src/billing/index[.]ts$" },
    },
    { name: "ui-and-api-not-to-db", from: { path: "^src/(ui|api)/" }, to: { path: "^src/db" } },
    { name: "billing-not-to-db", from: { path: "^src/billing" }, to: { path: "^src/(billing|db)" } },
    { name: "ui-not-to-fs", from: { path: "^src/ui" }, to: { path: "^fs$" } },
    { name: "db-reachable-from-ui", from: { path: "^src/ui" }, to: { path: "^src/db", reachable: false } },
    { name: "no-sibling-features", from: { path: "^src/features/([^/]+)/" }, to: { path: "^src/features/", pathNot: "^src/features/$1/" } },
  ],
  options: { exclude: { path: "\\.build\\.ts$" }, includeOnly: "^src" },
};
"#;

#[test]
fn init_translates_path_alternatives_exceptions_closed_and_public_rules_of_a_dependency_cruiser_mjs(
) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, ".dependency-cruiser.mjs", CRUISER_MJS);
    write_all(
        root,
        &[
            ("src/api/index.ts", "export * from \"./orders\";\n"),
            ("src/api/orders.ts", "import { q } from \"../db/query\";\nexport const orders = q;\n"),
            ("src/ui/page.ts", "import { orders } from \"../api/orders\";\nimport { bill } from \"../billing/internal/tax\";\nimport { api } from \"../api\";\nimport { total } from \"../billing\";\nimport * as fs from \"fs\";\nexport const page = [orders, bill, api, total, fs];\n"),
            ("src/ui/gen.build.ts", "import { nope } from \"./nope\";\nexport const g = nope;\n"),
            ("src/billing/index.ts", "export const total = 1;\n"),
            ("src/billing/internal/tax.ts", "export const bill = 2;\n"),
            ("src/utils/format.ts", "import { record } from \"../state/recorder\";\nimport { x } from \"../state/store\";\nexport const f = [record, x];\n"),
            ("src/state/recorder.ts", "export const record = 1;\n"),
            ("src/state/store.ts", "export const x = 1;\n"),
            ("src/db/query.ts", "export const q = 1;\n"),
        ],
    );
    let project = root.to_str().unwrap();
    let from = root.join(".dependency-cruiser.mjs");
    let (code, _) = run_cli(&[
        "init",
        "--from",
        from.to_str().unwrap(),
        "--project",
        project,
    ]);
    assert_eq!(code, 0);
    let spec = std::fs::read_to_string(root.join("architecture.ag")).unwrap();
    assert_lines(
        &spec,
        &[
            // An unanchored expression matches anywhere.
            "exclude \"**/*.build.ts\"\n",
            "component Rest { runs_on: app  paths: \"**\" }\n",
            "component Api { runs_on: app  paths: \"src/api/**\" }\n",
            // The exception `(?!index)` is a component of its own; `index` is a module there.
            "component Index { runs_on: app  paths: \"src/api/index.*\" }\n",
            "component Billing { runs_on: app  paths: \"src/billing/**\"  public: \"src/billing/index.ts\" }\n",
            // `^src/state/recorder` names the module `recorder.ts`, not a folder.
            "component Recorder { runs_on: app  paths: \"src/state/recorder.*\" }\n",
            "component Utils { runs_on: app  paths: \"src/utils/**\"  depends_on: Recorder }\n",
            "  // api-only-through-index\n  deny flow Rest -> Api\n  deny flow Billing -> Api\n  deny flow Db -> Api\n  deny flow Recorder -> Api\n  deny flow Ui -> Api\n  deny flow Utils -> Api\n",
            "  // utils-only-depends-on-utils: `depends_on` on Utils\n",
            "  // billing-via-index: `public` on Billing\n",
            "  // ui-and-api-not-to-db\n  deny flow Api -> Db\n  deny flow Index -> Db\n  deny flow Ui -> Db\n",
            // `^src/billing` to itself has no lintel form; the rest of the rule has.
            "  // billing-not-to-db (imports inside Billing are not checked)\n  deny flow Billing -> Db\n",
            "// - computed-path\n// - ui-not-to-fs\n// - db-reachable-from-ui\n// - no-sibling-features (no folder `src/features` in the project)\n",
            "// - extends (the rules of the configuration it extends are not read)\n// - options.includeOnly (lintel checks every file that is not excluded)\n",
        ],
    );
    let verdict = check(root, ScopeRequest::All, 1);
    assert_eq!(
        findings(&verdict),
        owned(&[
            (
                "dependency_violation",
                "depends_on: Recorder",
                "src/utils/format.ts:2",
                "Utils -> Rest"
            ),
            (
                "flow_violation",
                "deny flow Ui -> Api",
                "src/ui/page.ts:1",
                "Ui -> Api"
            ),
            (
                "flow_violation",
                "deny flow Api -> Db",
                "src/api/orders.ts:1",
                "Api -> Db"
            ),
            (
                "interface_violation",
                "public: \"src/billing/index.ts\"",
                "src/ui/page.ts:2",
                "Ui -> Billing"
            ),
        ])
    );
}

#[test]
fn init_from_a_dependency_cruiser_config_computed_by_code_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        ".dependency-cruiser.mjs",
        "const rules = build({ forbidden: [] });\nfunction x() { return { a: 1 }; }\nexport default rules;\n",
    );
    let from = root.join(".dependency-cruiser.mjs");
    let argv = [
        "lintel",
        "init",
        "--from",
        from.to_str().unwrap(),
        "--print",
    ];
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let status = engine::run(
        argv.iter().map(|argument| (*argument).to_owned()).collect(),
        &mut stdout,
        &mut stderr,
    );
    let stderr = String::from_utf8(stderr).unwrap();
    assert_eq!(status.code(), 2, "{stderr}");
    assert!(stdout.is_empty());
    // `rules` is computed by a call, and the first `{` after `export default` is the function's
    // body, not a configuration: nothing is translated.
    assert!(
        stderr.contains("a configuration computed by code cannot be read"),
        "{stderr}"
    );
}
