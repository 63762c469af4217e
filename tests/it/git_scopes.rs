//! Git scopes on temporary repositories built with git2: staged, `--diff`, and the whole-graph rule.

use std::path::Path;

use engine::scope::ScopeRequest;
use git2::{IndexAddOption, Repository, Signature};

use crate::check;

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

fn commit(repository: &Repository, message: &str) -> git2::Oid {
    let tree = repository.find_tree(stage_all(repository)).unwrap();
    let signature = Signature::now("lintel tests", "tests@example.invalid").unwrap();
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
    // The finding is evidenced by the first hop (an unchanged file); the changed file closed the path.
    assert_eq!(
        types(&verdict),
        [(
            "deny reach Web -> Repo".to_owned(),
            "web/page.ts".to_owned()
        )]
    );
    let violation = &verdict["violations"][0];
    assert_eq!(
        violation["detected"]["path"],
        serde_json::json!(["Web", "Api", "Repo"])
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
