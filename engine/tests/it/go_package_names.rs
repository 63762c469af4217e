//! A Go import of a project package, through the real binary, is of the files that declare the
//! names the importer uses: heroiclabs/nakama's `migrate/migrate.go` imports its `server`
//! package for `server.NewJSONLogger` alone (declared in `server/logger.go`), and was a
//! dependency on the API layer its spec carves out of that package by file name
//! (`server/api*.go`), because `server/api.go` is the package's first file. A blank import
//! names nothing and stays an import of the whole package, for component edges and chains alike.

use super::{check_all, detections, git, json_run, lintel, write_files};

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            (
                "architecture.ag",
                "node app : server\n\
                 component Api { runs_on: app paths: \"server/api*.go\" }\n\
                 component Core { runs_on: app paths: \"server/core_*.go\" }\n\
                 component Server { runs_on: app paths: \"server/**\" }\n\
                 component Store { runs_on: app paths: \"store/**\" }\n\
                 component Migrate { runs_on: app paths: \"migrate/**\" }\n\
                 component Tools { runs_on: app paths: \"tools/**\" }\n\
                 component Plugins { runs_on: app paths: \"plugins/**\" }\n\
                 invariant Layers {\n\
                 \x20 deny flow Migrate -> Api\n\
                 \x20 deny flow Tools -> Api\n\
                 \x20 deny flow Plugins -> Api\n\
                 \x20 deny reach Migrate -> Store\n\
                 \x20 deny reach Tools -> Store\n\
                 \x20 deny reach Plugins -> Store\n\
                 }\n",
            ),
            ("go.mod", "module example.com/app\n\ngo 1.22\n"),
            ("server/api.go", "package server\n\nfunc NewApi() {}\n"),
            (
                "server/core_store.go",
                "package server\n\nimport \"example.com/app/store\"\n\n\
                 type Store struct{}\n\nfunc Open() *Store { store.Connect(); return nil }\n",
            ),
            (
                "server/logger.go",
                "package server\n\nfunc NewJSONLogger() {}\n",
            ),
            ("store/store.go", "package store\n\nfunc Connect() {}\n"),
            (
                "migrate/migrate.go",
                "package migrate\n\nimport \"example.com/app/server\"\n\n\
                 func Run() { server.NewJSONLogger() }\n",
            ),
            (
                "migrate/seed.go",
                "package migrate\n\nimport \"example.com/app/server\"\n\n\
                 func Seed(db *server.Store) { server.Open() }\n",
            ),
            (
                "tools/tool.go",
                "package tools\n\nimport \"example.com/app/server\"\n\n\
                 var Log = server.NewJSONLogger\n",
            ),
            (
                "plugins/plugins.go",
                "package plugins\n\nimport _ \"example.com/app/server\"\n",
            ),
        ],
    );
    dir
}

#[test]
fn a_go_import_depends_on_the_files_that_declare_the_names_it_uses() {
    let project = project();
    let (code, verdict) = check_all(project.path());
    assert_eq!(code, 1, "{verdict:#}");
    let found: Vec<(&str, &str, u64)> = detections(&verdict)
        .into_iter()
        .map(|(rule, file, line, _)| (rule, file, line))
        .collect();
    // `Migrate` and `Tools` name nothing of `server/api.go`; `Tools` names only the logger,
    // which reaches no store. The blank import is of the whole package.
    assert_eq!(
        found,
        [
            ("deny flow Plugins -> Api", "plugins/plugins.go", 3),
            ("deny reach Migrate -> Store", "migrate/seed.go", 3),
            ("deny reach Plugins -> Store", "plugins/plugins.go", 3),
        ],
        "{verdict:#}"
    );
    let chain = |rule: &str| -> Vec<String> {
        let violation = verdict["violations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|violation| violation["rule"]["text"] == rule)
            .unwrap();
        violation["detected"]["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|file| file.as_str().unwrap().to_owned())
            .collect()
    };
    // The chain runs through the file that declares `Open`, the one `seed.go` names.
    assert_eq!(
        chain("deny reach Migrate -> Store"),
        ["migrate/seed.go", "server/core_store.go", "store/store.go"]
    );
    assert_eq!(
        chain("deny reach Plugins -> Store"),
        [
            "plugins/plugins.go",
            "server/core_store.go",
            "store/store.go"
        ]
    );
}

/// Under a narrowed scope (staged, `--diff`) every file of the snapshot is still extracted, so
/// the imports of the changed files link to the same declaring files: no finding appears or
/// disappears because the package's files are out of scope.
#[test]
fn a_narrowed_scope_links_go_imports_as_a_whole_project_check_does() {
    let project = project();
    let root = project.path();
    git(root, &["init", "-q", "-b", "main"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "base"]);
    for file in ["migrate/migrate.go", "tools/tool.go", "plugins/plugins.go"] {
        let path = root.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{text}\n// changed\n")).unwrap();
    }
    git(root, &["add", "-A"]);
    let run = |extra: &[&str]| {
        let (code, verdict) = json_run(
            lintel()
                .current_dir(root)
                .args(["check", "--json", "--no-cache", "--project"])
                .arg(root)
                .args(extra),
        );
        assert!(code == 0 || code == 1, "{verdict:#}");
        detections(&verdict)
            .into_iter()
            .map(|(rule, file, line, _)| (rule.to_owned(), file.to_owned(), line))
            .collect::<Vec<_>>()
    };
    let expected = [
        ("deny flow Plugins -> Api", "plugins/plugins.go", 3),
        ("deny reach Plugins -> Store", "plugins/plugins.go", 3),
    ]
    .map(|(rule, file, line)| (rule.to_owned(), file.to_owned(), line));
    assert_eq!(run(&[]), expected, "staged");
    git(root, &["commit", "-q", "-m", "change the importers"]);
    git(root, &["branch", "base", "HEAD~1"]);
    assert_eq!(run(&["--diff", "base"]), expected, "--diff base");
}
