//! Git scopes on temporary repositories built with git2: staged, `--diff`, and the whole-graph rule.

use std::path::Path;

use engine::ScopeRequest;
use git2::{IndexAddOption, Repository, Signature};

use crate::check;
use crate::commit_all as commit;

const SPEC: &str = r#"
node app : server
node db  : postgres
component Web  { runs_on: app  paths: "web/**" }
component Api  { runs_on: app  paths: "api/**" }
component Repo { runs_on: app  paths: "repo/**" }
invariant Rules {
  deny flow Web -> db
  deny reach Web -> Repo
}
"#;

fn write(root: &Path, path: &str, text: &str) {
    let full = root.join(path);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(full, text).unwrap();
}

fn stage_all(repository: &Repository) -> git2::Oid {
    let mut index = repository.index().unwrap();
    index.add_all(["*"], IndexAddOption::DEFAULT, None).unwrap();
    index.write().unwrap();
    index.write_tree().unwrap()
}

fn base_repository() -> (tempfile::TempDir, Repository) {
    let dir = tempfile::tempdir().unwrap();
    let repository = Repository::init(dir.path()).unwrap();
    write(dir.path(), "architecture.ag", SPEC);
    write(
        dir.path(),
        "web/page.ts",
        "import { call } from \"../api/client\";\ncall();\n",
    );
    write(
        dir.path(),
        "api/client.ts",
        "export function call() { return 1; }\n",
    );
    write(dir.path(), "repo/orders.ts", "export const orders = [];\n");
    commit(&repository, "base");
    repository
        .branch(
            "main-base",
            &repository.head().unwrap().peel_to_commit().unwrap(),
            true,
        )
        .unwrap();
    (dir, repository)
}

/// A repository whose first commit (branch `main-base`) already violates `deny flow Web -> db`.
fn base_with_violation() -> (tempfile::TempDir, Repository) {
    let dir = tempfile::tempdir().unwrap();
    let repository = Repository::init(dir.path()).unwrap();
    write(dir.path(), "architecture.ag", SPEC);
    write(
        dir.path(),
        "web/page.ts",
        "import { Pool } from \"pg\";\nexport const pool = new Pool();\n",
    );
    commit(&repository, "base with an old violation");
    {
        let head = repository.head().unwrap().peel_to_commit().unwrap();
        repository.branch("main-base", &head, true).unwrap();
    }
    (dir, repository)
}

fn types(verdict: &serde_json::Value) -> Vec<(String, String)> {
    verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| {
            (
                violation["rule"]["text"].as_str().unwrap().to_owned(),
                violation["detected"]["file"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn diff_reports_a_path_closed_by_a_changed_file_outside_the_rule_endpoints() {
    let (dir, repository) = base_repository();
    // The change touches only api/: it closes Web -> Api -> Repo, whose first hop is in an unchanged file.
    write(
        dir.path(),
        "api/client.ts",
        "import { orders } from \"../repo/orders\";\nexport function call() { return orders; }\n",
    );
    let head = commit(&repository, "api uses repo");
    let verdict = check(dir.path(), ScopeRequest::Diff("main-base".into()), 2);
    assert_eq!(verdict["diff"]["mode"], "git_ref");
    assert_eq!(verdict["diff"]["base"], "main-base");
    assert_eq!(verdict["diff"]["head_commit"], head.to_string());
    assert_eq!(
        verdict["diff"]["changed_files"],
        serde_json::json!(["api/client.ts"])
    );
    assert_eq!(
        verdict["diff"]["changed_components"],
        serde_json::json!(["Api"])
    );
    // The chain starts in an unchanged file; the finding is located at the edge the change
    // added, the import that opens the path (Chains in policies/LANGUAGE.md).
    assert_eq!(
        types(&verdict),
        [(
            "deny reach Web -> Repo".to_owned(),
            "api/client.ts".to_owned()
        )]
    );
    let violation = &verdict["violations"][0];
    assert_eq!(
        violation["detected"]["path"],
        serde_json::json!(["Web", "Api", "Repo"])
    );
    assert_eq!(
        violation["detected"]["files"],
        serde_json::json!(["web/page.ts", "api/client.ts", "repo/orders.ts"])
    );
    assert_eq!(violation["status"], "new");
}

#[test]
fn diff_ignores_uncommitted_changes_and_a_clean_diff_passes() {
    let (dir, _repository) = base_repository();
    write(
        dir.path(),
        "web/page.ts",
        "import { Pool } from \"pg\";\nnew Pool();\n",
    );
    let verdict = check(dir.path(), ScopeRequest::Diff("main-base".into()), 1);
    assert_eq!(
        verdict["verdict"], "pass",
        "the head side is the HEAD commit, not the work tree"
    );
    assert_eq!(verdict["diff"]["changed_files"], serde_json::json!([]));
}

#[test]
fn staged_scope_reads_the_index_and_reports_only_staged_files() {
    let (dir, repository) = base_repository();
    write(
        dir.path(),
        "web/page.ts",
        "import { Pool } from \"pg\";\nexport const pool = new Pool();\n",
    );
    stage_all(&repository);
    // An unstaged edit after staging must not change what is checked.
    write(dir.path(), "web/page.ts", "export const nothing = 1;\n");
    let verdict = check(dir.path(), ScopeRequest::Staged, 2);
    assert_eq!(verdict["diff"]["mode"], "staged");
    assert_eq!(
        verdict["diff"]["changed_files"],
        serde_json::json!(["web/page.ts"])
    );
    assert_eq!(
        types(&verdict),
        [("deny flow Web -> db".to_owned(), "web/page.ts".to_owned())]
    );
}

#[test]
fn staged_scope_works_before_the_first_commit() {
    let dir = tempfile::tempdir().unwrap();
    let repository = Repository::init(dir.path()).unwrap();
    write(dir.path(), "architecture.ag", SPEC);
    write(
        dir.path(),
        "web/page.ts",
        "import { Pool } from \"pg\";\nexport const pool = new Pool();\n",
    );
    stage_all(&repository);
    let verdict = check(dir.path(), ScopeRequest::Staged, 1);
    assert_eq!(
        verdict["diff"]["changed_files"],
        serde_json::json!(["architecture.ag", "web/page.ts"])
    );
    assert_eq!(verdict["verdict"], "fail");
}

#[test]
fn diff_marks_findings_of_the_merge_base_existing_even_after_a_rename() {
    let (dir, repository) = base_with_violation();
    // The change moves the old file unchanged and adds a new violation in another file.
    std::fs::create_dir_all(dir.path().join("web/pages")).unwrap();
    std::fs::rename(
        dir.path().join("web/page.ts"),
        dir.path().join("web/pages/home.ts"),
    )
    .unwrap();
    write(
        dir.path(),
        "web/cart.ts",
        "import { Pool } from \"pg\";\n\nexport const cartPool = new Pool();\n",
    );
    let mut index = repository.index().unwrap();
    index.remove_path(Path::new("web/page.ts")).unwrap();
    index.write().unwrap();
    commit(&repository, "move page, add cart");

    let verdict = check(dir.path(), ScopeRequest::Diff("main-base".into()), 2);
    let statuses: Vec<(String, String)> = verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| {
            (
                violation["detected"]["file"].as_str().unwrap().to_owned(),
                violation["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        statuses,
        [
            ("web/cart.ts".to_owned(), "new".to_owned()),
            ("web/pages/home.ts".to_owned(), "existing".to_owned())
        ]
    );
    assert_eq!(
        verdict["diff"]["changed_files"],
        serde_json::json!(["web/cart.ts", "web/page.ts", "web/pages/home.ts"])
    );
    assert!(verdict["diff"]["base_commit"]
        .as_str()
        .is_some_and(|commit| commit.len() == 40));
    assert!(verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .all(|violation| violation["blocking"] == true));
}

#[test]
fn new_only_keeps_existing_findings_but_not_blocking() {
    let (dir, repository) = base_with_violation();
    write(dir.path(), "web/page.ts", "import { Pool } from \"pg\";\n// a comment moves the code down\nexport const pool = new Pool();\n");
    commit(&repository, "touch the file");

    let mut options = engine::CheckOptions::new(dir.path());
    options.scope = ScopeRequest::Diff("main-base".into());
    options.new_only = true;
    let run = engine::run_check(&options, &engine::Z3Solver).unwrap();
    assert_eq!(run.verdict.violations.len(), 1);
    let violation = &run.verdict.violations[0];
    assert_eq!(
        violation.status, "existing",
        "moving code within a file keeps the id"
    );
    assert_eq!(violation.detected.line, 3);
    assert!(!violation.blocking);
    assert_eq!(run.verdict.verdict, "pass");
}

#[test]
fn unrelated_histories_and_shallow_clones_are_coded_errors() {
    let (dir, repository) = base_repository();
    // An orphan commit shares no history with HEAD.
    let signature = Signature::now("lintel tests", "tests@example.invalid").unwrap();
    let tree = repository.find_tree(stage_all(&repository)).unwrap();
    let orphan = repository
        .commit(None, &signature, &signature, "orphan", &tree, &[])
        .unwrap();
    repository
        .reference("refs/heads/orphan", orphan, true, "orphan")
        .unwrap();
    let mut options = engine::CheckOptions::new(dir.path());
    options.scope = ScopeRequest::Diff("orphan".into());
    let error = engine::run_check(&options, &engine::Z3Solver).unwrap_err();
    assert_eq!(error.code(), "no-merge-base");

    // A depth-1 clone of a two-commit history cannot see the merge base with the first commit's branch.
    write(
        dir.path(),
        "api/client.ts",
        "export function call() { return 2; }\n",
    );
    commit(&repository, "second");
    let clone_dir = tempfile::tempdir().unwrap();
    let clone_path = clone_dir.path().join("shallow");
    let url = format!("file://{}", dir.path().display());
    let status = std::process::Command::new("git")
        .args(["clone", "-q", "--depth", "1", "--no-single-branch", &url])
        .arg(&clone_path)
        .status()
        .unwrap();
    assert!(status.success());
    let mut options = engine::CheckOptions::new(&clone_path);
    options.scope = ScopeRequest::Diff("origin/main-base".into());
    let error = engine::run_check(&options, &engine::Z3Solver).unwrap_err();
    assert_eq!(error.code(), "missing-merge-base");
    assert!(error.to_string().contains("fetch-depth: 0"));
}

#[test]
fn deleted_files_are_changed_and_their_findings_disappear() {
    let dir = tempfile::tempdir().unwrap();
    let repository = Repository::init(dir.path()).unwrap();
    write(dir.path(), "architecture.ag", SPEC);
    write(
        dir.path(),
        "web/old.ts",
        "import { Pool } from \"pg\";\nexport const pool = new Pool();\n",
    );
    write(dir.path(), "web/page.ts", "export const page = 1;\n");
    commit(&repository, "base with a violation");
    repository
        .branch(
            "main-base",
            &repository.head().unwrap().peel_to_commit().unwrap(),
            true,
        )
        .unwrap();
    std::fs::remove_file(dir.path().join("web/old.ts")).unwrap();
    let mut index = repository.index().unwrap();
    index.remove_path(Path::new("web/old.ts")).unwrap();
    index.write().unwrap();
    commit(&repository, "delete the offender");
    let verdict = check(dir.path(), ScopeRequest::Diff("main-base".into()), 1);
    assert_eq!(
        verdict["diff"]["changed_files"],
        serde_json::json!(["web/old.ts"])
    );
    assert_eq!(
        verdict["diff"]["changed_components"],
        serde_json::json!(["Web"])
    );
    assert_eq!(verdict["verdict"], "pass");
}

#[test]
fn detached_head_diffs_against_a_ref() {
    let (dir, repository) = base_repository();
    write(
        dir.path(),
        "web/page.ts",
        "import { Pool } from \"pg\";\nexport const pool = new Pool();\n",
    );
    let head = commit(&repository, "violation");
    repository.set_head_detached(head).unwrap();
    let verdict = check(dir.path(), ScopeRequest::Diff("main-base".into()), 1);
    assert_eq!(verdict["diff"]["head_commit"], head.to_string());
    assert_eq!(
        types(&verdict),
        [("deny flow Web -> db".to_owned(), "web/page.ts".to_owned())]
    );
    assert_eq!(verdict["violations"][0]["status"], "new");
}

#[test]
fn paths_with_spaces_and_non_ascii_names_are_checked_and_reported_as_written() {
    let (dir, repository) = base_repository();
    let name = "web/pàges and more/çart ünïcode.ts";
    write(
        dir.path(),
        name,
        "import { Pool } from \"pg\";\nexport const pool = new Pool();\n",
    );
    commit(&repository, "odd names");
    let verdict = check(dir.path(), ScopeRequest::Diff("main-base".into()), 2);
    assert_eq!(verdict["diff"]["changed_files"], serde_json::json!([name]));
    assert_eq!(
        types(&verdict),
        [("deny flow Web -> db".to_owned(), name.to_owned())]
    );
    let all = check(dir.path(), ScopeRequest::All, 1);
    assert_eq!(
        types(&all),
        [("deny flow Web -> db".to_owned(), name.to_owned())]
    );
}

#[test]
fn submodules_are_skipped_with_a_warning() {
    let (dir, repository) = base_repository();
    // A gitlink entry (mode 160000) is what `git submodule add` records; no network is needed.
    let mut index = repository.index().unwrap();
    let target = repository.head().unwrap().peel_to_commit().unwrap().id();
    let entry = git2::IndexEntry {
        ctime: git2::IndexTime::new(0, 0),
        mtime: git2::IndexTime::new(0, 0),
        dev: 0,
        ino: 0,
        mode: 0o160000,
        uid: 0,
        gid: 0,
        file_size: 0,
        id: target,
        flags: 0,
        flags_extended: 0,
        path: b"web/vendor-lib".to_vec(),
    };
    index.add(&entry).unwrap();
    index.write().unwrap();
    let tree = repository.find_tree(index.write_tree().unwrap()).unwrap();
    let signature = Signature::now("lintel tests", "tests@example.invalid").unwrap();
    let parent = repository.head().unwrap().peel_to_commit().unwrap();
    repository
        .commit(
            Some("HEAD"),
            &signature,
            &signature,
            "add a submodule",
            &tree,
            &[&parent],
        )
        .unwrap();
    // The submodule's checkout: its own repository, whose code is not the project's.
    write(
        dir.path(),
        "web/vendor-lib/.git",
        "gitdir: ../../.git/modules/vendor-lib\n",
    );
    write(
        dir.path(),
        "web/vendor-lib/db.ts",
        "import { Pool } from \"pg\";\nexport const pool = new Pool();\n",
    );
    for scope in [
        ScopeRequest::Diff("main-base".into()),
        ScopeRequest::All,
        ScopeRequest::Staged,
    ] {
        let verdict = check(dir.path(), scope, 1);
        assert_eq!(verdict["violations"], serde_json::json!([]), "{verdict}");
        assert!(!verdict["diff"]["changed_files"]
            .as_array()
            .unwrap()
            .iter()
            .any(|file| file.as_str().unwrap().starts_with("web/vendor-lib/")));
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
            warnings.contains(&("submodule-skipped", "web/vendor-lib")),
            "{warnings:?}"
        );
    }
}

#[cfg(unix)]
#[test]
fn imports_resolve_through_in_project_symlinks_in_the_work_tree_the_index_and_commits() {
    const LINKED: &str = r#"
node app : server
component Web  { runs_on: app  paths: "web/**" }
component Api  { runs_on: app  paths: "api/**" }
component Repo { runs_on: app  paths: "repo/**" }
invariant Rules {
  deny reach Web -> Repo
  deny reach Api -> Repo
}
"#;
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "orders.ts", "export const orders = [];\n");
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let repository = Repository::init(root).unwrap();
    write(root, "architecture.ag", LINKED);
    write(root, "repo/orders.ts", "export const orders = [];\n");
    // A linked file (Web), a linked folder (Api), and a link that leaves the project (Web).
    write(
        root,
        "web/file-link.ts",
        "import { orders } from \"./shared-orders\";\nexport const a = orders;\n",
    );
    write(
        root,
        "web/outside-link.ts",
        "import { orders } from \"./outside\";\nexport const c = orders;\n",
    );
    write(
        root,
        "api/folder-link.ts",
        "import { orders } from \"./repo-link/orders\";\nexport const b = orders;\n",
    );
    std::os::unix::fs::symlink("../repo/orders.ts", root.join("web/shared-orders.ts")).unwrap();
    std::os::unix::fs::symlink("../repo", root.join("api/repo-link")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("orders.ts"),
        root.join("web/outside.ts"),
    )
    .unwrap();
    let expected = [
        (
            "deny reach Web -> Repo".to_owned(),
            "web/file-link.ts".to_owned(),
        ),
        (
            "deny reach Api -> Repo".to_owned(),
            "api/folder-link.ts".to_owned(),
        ),
    ];
    let work_tree = check(root, ScopeRequest::All, 2);
    assert_eq!(types(&work_tree), expected);
    let text = serde_json::to_string(&work_tree).unwrap();
    assert!(!text.contains(&outside.path().display().to_string()));
    stage_all(&repository);
    assert_eq!(types(&check(root, ScopeRequest::Staged, 2)), expected);
    commit(&repository, "links");
    {
        let head = repository.head().unwrap().peel_to_commit().unwrap();
        repository.branch("main-base", &head, true).unwrap();
    }
    // The change touches the linking file of Web only: its finding is reported, as existing.
    write(
        root,
        "web/file-link.ts",
        "import { orders } from \"./shared-orders\";\nexport const a = orders;\nexport const d = 1;\n",
    );
    commit(&repository, "later");
    let diff = check(root, ScopeRequest::Diff("main-base".into()), 2);
    let statuses: Vec<&str> = diff["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| violation["status"].as_str().unwrap())
        .collect();
    assert_eq!(types(&diff), expected[..1]);
    assert_eq!(statuses, ["existing"]);
}

#[test]
fn diff_reads_the_spec_and_queries_of_head_not_their_uncommitted_edits() {
    let (dir, repository) = base_repository();
    write(
        dir.path(),
        ".lintel/queries/calls.agq.yml",
        "id: CallCalls\nowner: team\nversion: 1\nconfidence: definite\nmatch:\n  kind: call\n  callee: call\nemit:\n  kind: event\n  event: Called\n  scope: Web\n",
    );
    write(
        dir.path(),
        "web/page.ts",
        "import { Pool } from \"pg\";\nexport const pool = new Pool();\n",
    );
    commit(&repository, "web opens a pool");
    // Uncommitted: the rule the change breaks is edited away, and the query file is deleted.
    write(
        dir.path(),
        "architecture.ag",
        &SPEC.replace("deny flow Web -> db", ""),
    );
    std::fs::remove_file(dir.path().join(".lintel/queries/calls.agq.yml")).unwrap();
    let verdict = check(dir.path(), ScopeRequest::Diff("main-base".into()), 2);
    assert_eq!(verdict["verdict"], "fail", "{verdict}");
    assert_eq!(
        types(&verdict),
        [("deny flow Web -> db".to_owned(), "web/page.ts".to_owned())]
    );
    // The work tree's spec is what `--all` checks.
    let verdict = check(dir.path(), ScopeRequest::All, 2);
    assert_eq!(verdict["verdict"], "pass", "{verdict}");
}

#[test]
fn a_component_whose_globs_match_no_file_is_a_warning_of_whole_project_checks_only() {
    let (dir, repository) = base_repository();
    let spec = format!(
        "{SPEC}component Legacy {{ runs_on: app  paths: [\"legacy/**\", \"old/*.ts\"] }}\n"
    );
    write(dir.path(), "architecture.ag", &spec);
    commit(&repository, "a component for code that is gone");
    let unmatched = |verdict: &serde_json::Value| -> Vec<serde_json::Value> {
        verdict["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|warning| warning["code"] == "component-matches-no-files")
            .cloned()
            .collect()
    };
    let verdict = check(dir.path(), ScopeRequest::All, 2);
    let warnings = unmatched(&verdict);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0]["file"], "architecture.ag");
    assert_eq!(warnings[0]["line"], spec.lines().count());
    assert!(warnings[0]["message"]
        .as_str()
        .unwrap()
        .contains("`Legacy` matches no file"));
    // Not evaluated on a partial scope.
    let verdict = check(dir.path(), ScopeRequest::Diff("main-base".into()), 2);
    assert!(unmatched(&verdict).is_empty());
}

#[test]
fn sarif_gives_every_entry_under_diff_its_baseline_state() {
    let dir = tempfile::tempdir().unwrap();
    let repository = Repository::init(dir.path()).unwrap();
    for file in ["architecture.ag", "api/orders.ts", "docs/api.md"] {
        let text = std::fs::read_to_string(tests::example("docs-freshness").join(file)).unwrap();
        write(dir.path(), file, &text);
    }
    commit(&repository, "base");
    {
        let head = repository.head().unwrap().peel_to_commit().unwrap();
        repository.branch("base", &head, true).unwrap();
    }
    write(
        dir.path(),
        "api/orders.ts",
        "export const orders = () => [];\nexport const refunds = () => [];\n",
    );
    commit(&repository, "the api changes, its docs do not");
    let mut options = engine::CheckOptions::new(dir.path());
    options.scope = ScopeRequest::Diff("base".into());
    let run = engine::run_check(&options, &engine::Z3Solver).unwrap();
    let sarif = engine::sarif_document(&run.verdict, &options.check_flags());
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let change: Vec<&serde_json::Value> = results
        .iter()
        .filter(|result| result["properties"]["type"] == "change_violation")
        .collect();
    assert_eq!(change.len(), 1, "{results:?}");
    // Under --diff a change violation is always new (status in docs/VERDICT.md).
    assert_eq!(change[0]["baselineState"], "new");
    // Its explain command carries the scope (explain hints in docs/VERDICT.md).
    let id = change[0]["properties"]["lintelId"].as_str().unwrap();
    assert_eq!(
        change[0]["properties"]["explain"],
        format!("lintel explain --violation {id} --diff base")
    );
}

/// A base that already violates `deny reach Web -> Repo` through `web/page.ts`.
fn base_with_a_reach_violation() -> (tempfile::TempDir, Repository) {
    let dir = tempfile::tempdir().unwrap();
    let repository = Repository::init(dir.path()).unwrap();
    write(dir.path(), "architecture.ag", SPEC);
    write(
        dir.path(),
        "web/page.ts",
        "import { orders } from \"../repo/orders\";\nexport const o = orders;\n",
    );
    write(dir.path(), "web/other.ts", "export const other = 1;\n");
    write(dir.path(), "lib/format.ts", "export const format = 1;\n");
    write(dir.path(), "repo/orders.ts", "export const orders = [];\n");
    write(dir.path(), "repo/users.ts", "export const users = [];\n");
    commit(&repository, "base with a reach violation");
    {
        let head = repository.head().unwrap().peel_to_commit().unwrap();
        repository.branch("main-base", &head, true).unwrap();
    }
    (dir, repository)
}

fn diff_new_only(dir: &Path) -> engine::CheckRun {
    let mut options = engine::CheckOptions::new(dir);
    options.scope = ScopeRequest::Diff("main-base".into());
    options.new_only = true;
    engine::run_check(&options, &engine::Z3Solver).unwrap()
}

#[test]
fn a_pull_request_that_opens_another_path_for_a_violated_pair_is_new_and_blocks() {
    let (dir, repository) = base_with_a_reach_violation();
    // A new chain through a file no component owns: web/other.ts -> lib/format.ts -> repo/users.ts.
    write(
        dir.path(),
        "web/other.ts",
        "import { format } from \"../lib/format\";\nexport const other = format;\n",
    );
    write(
        dir.path(),
        "lib/format.ts",
        "import { users } from \"../repo/users\";\nexport const format = users;\n",
    );
    commit(&repository, "another path into Repo");
    let run = diff_new_only(dir.path());
    let violation = crate::the_new_reach_finding(&run);
    assert_eq!(
        violation.detected.files.as_deref(),
        Some(
            &[
                "web/other.ts".to_owned(),
                "lib/format.ts".to_owned(),
                "repo/users.ts".to_owned()
            ][..]
        )
    );
    // Located at the first edge the base lacks: the change that opens the path.
    assert_eq!(
        (violation.detected.file.as_str(), violation.detected.line),
        ("web/other.ts", 1)
    );
    assert_eq!(run.verdict.verdict, "fail");
}

#[test]
fn a_pull_request_that_opens_no_path_keeps_the_pair_finding_existing() {
    let (dir, repository) = base_with_a_reach_violation();
    // The violating file changes, but the edge it has was on the base already.
    write(
        dir.path(),
        "web/page.ts",
        "// reformatted\nimport { orders } from \"../repo/orders\";\nexport const o = orders;\n",
    );
    commit(&repository, "touch the violating file");
    let run = diff_new_only(dir.path());
    assert_eq!(run.verdict.violations.len(), 1);
    let violation = &run.verdict.violations[0];
    assert_eq!(violation.status, "existing");
    assert!(!violation.blocking);
    assert_eq!(run.verdict.verdict, "pass");
}

#[test]
fn a_staged_import_is_blamed_for_the_paths_it_closes_not_the_untouched_files() {
    let (dir, repository) = base_repository();
    // web/page.ts -> api/client.ts exists; staging api/client.ts -> repo closes the path.
    write(
        dir.path(),
        "api/client.ts",
        "import { orders } from \"../repo/orders\";\nexport function call() { return orders; }\n",
    );
    stage_all(&repository);
    let verdict = check(dir.path(), ScopeRequest::Staged, 2);
    assert_eq!(
        types(&verdict),
        [(
            "deny reach Web -> Repo".to_owned(),
            "api/client.ts".to_owned()
        )]
    );
}
