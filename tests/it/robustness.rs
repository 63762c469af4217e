//! Odd files never stop a check: they become located warnings, and walks never leave the project.

use engine::ScopeRequest;

use crate::check;

#[test]
fn unreadable_binary_huge_and_broken_files_are_warnings_and_symlinks_stay_inside() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(
        outside.path().join("secret.ts"),
        "import { Pool } from \"pg\";\nexport const p = new Pool();\n",
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(
        root.join("architecture.ag"),
        "node app : server\nnode db : postgres\ncomponent Web { runs_on: app paths: \"web/**\" }\ninvariant I { deny flow Web -> db }\n",
    )
    .unwrap();
    std::fs::create_dir_all(root.join("web")).unwrap();
    std::fs::write(root.join("web/binary.ts"), b"export const x = 1;\0\x01\x02").unwrap();
    std::fs::write(root.join("web/latin1.ts"), b"export const caf\xe9 = 1;\n").unwrap();
    // Python declares its encoding (PEP 263): a declared Latin-1 file is read, columns kept.
    std::fs::write(
        root.join("web/declared.py"),
        b"# -*- coding: latin-1 -*-\nname = 'caf\xe9'\nimport psycopg2\nconnection = psycopg2.connect('db')\n",
    )
    .unwrap();
    std::fs::write(
        root.join("web/undeclared.py"),
        b"name = 'caf\xe9'\nimport psycopg2\nconnection = psycopg2.connect('db')\n",
    )
    .unwrap();
    std::fs::write(root.join("web/huge.ts"), "// x\n".repeat(600_000)).unwrap();
    std::fs::write(
        root.join("web/broken.ts"),
        "import { Pool } from \"pg\";\nexport const p = new Pool(;\nfunction (\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(outside.path().join("secret.ts"), root.join("web/linked.ts"))
            .unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("web/linked-dir")).unwrap();
    }
    let verdict = check(root, ScopeRequest::All, 2);
    let warnings: Vec<(String, String)> = verdict["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|warning| {
            (
                warning["code"].as_str().unwrap().to_owned(),
                warning["file"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    for (code, file) in [
        ("file-skipped", "web/binary.ts"),
        ("file-skipped", "web/huge.ts"),
        ("file-skipped", "web/latin1.ts"),
        ("file-skipped", "web/undeclared.py"),
        ("parse-errors", "web/broken.ts"),
        // A link out of the project is never followed, and never dropped silently.
        ("file-skipped", "web/linked.ts"),
        ("file-skipped", "web/linked-dir"),
    ] {
        assert!(
            warnings.contains(&(code.to_owned(), file.to_owned())),
            "{code} {file} in {warnings:?}"
        );
    }
    assert_eq!(verdict["stats"]["files_skipped"], 6);
    assert!(
        !warnings.iter().any(|(_, file)| file == "web/declared.py"),
        "a declared Latin-1 Python file is read: {warnings:?}"
    );
    // The broken file is kept: its `new Pool(` still establishes the edge.
    let files: Vec<&str> = verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| violation["detected"]["file"].as_str().unwrap())
        .collect();
    assert_eq!(
        files,
        ["web/broken.ts", "web/declared.py"],
        "nothing from the symlinked file outside the project"
    );
    let declared = verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|violation| violation["detected"]["file"] == "web/declared.py")
        .unwrap();
    assert_eq!(
        (
            &declared["detected"]["line"],
            &declared["detected"]["column"]
        ),
        (&serde_json::json!(4), &serde_json::json!(14)),
        "the definite client call, located as in the file"
    );
    let text = serde_json::to_string(&verdict).unwrap();
    assert!(
        !text.contains("secret.ts") && !text.contains("linked-dir/"),
        "symlinks are not followed"
    );
}
