//! Rust modules declared with `#[path = "…"]`, through the real binary: a `use` that names such a
//! module lands on the file the attribute names, and `super::`/`self::` inside that file (and in
//! the files it declares beside it) are read against the module rustc gives it, the declaring
//! module's child, not against the file's place on disk.

use super::{json_run, lintel, write_files};

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            (
                "architecture.ag",
                "node app : server\n\
                 component Core { runs_on: app paths: \"src/*.rs\" }\n\
                 component Gen { runs_on: app paths: \"src/gen/**\" }\n\
                 component Routes { runs_on: app paths: \"src/handlers/routes.rs\" }\n\
                 component Handlers { runs_on: app paths: \"src/handlers/mod.rs\" }\n\
                 invariant Imports { deny unresolved imports in * }\n\
                 invariant Layers { deny flow Routes -> Handlers }\n",
            ),
            (
                "Cargo.toml",
                "[package]\nname = \"plat\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            ),
            (
                "src/lib.rs",
                "#[path = \"gen/schema.rs\"]\npub mod schema;\npub mod net;\n\
                 use crate::schema as tables;\nuse crate::schema::columns;\n\
                 pub mod api {\n    pub struct Api;\n    #[path = \"../handlers/routes.rs\"]\n    pub mod routes;\n}\n",
            ),
            ("src/net.rs", "pub struct Socket;\nuse super::schema;\n"),
            // Module `schema`: `super` is the crate root, not the folder `gen` (which has no
            // module file); its `mod columns;` lives beside it.
            (
                "src/gen/schema.rs",
                "pub mod columns;\npub struct Table;\nuse super::net::Socket;\nuse self::columns::Column;\nuse super::gen::Nothing;\n",
            ),
            // Module `schema::columns`: `super` is `schema`.
            (
                "src/gen/columns.rs",
                "pub struct Column;\nuse super::Table;\n",
            ),
            // Module `api::routes`: `super` is the inline `api` of `lib.rs`, not the
            // `handlers/mod.rs` beside the file, which no module declares (a false edge there
            // breaks `Layers`).
            ("src/handlers/routes.rs", "use super::Api;\n"),
            ("src/handlers/mod.rs", "pub struct Api;\n"),
        ],
    );
    dir
}

#[test]
fn rust_uses_of_path_attribute_modules_and_super_inside_them_follow_the_module_tree() {
    let project = project();
    let output = lintel()
        .args(["graph", "--all", "--facts", "--no-cache", "--project"])
        .arg(project.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let graph: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let mut edges: Vec<(&str, &str, &str)> = graph["facts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|fact| fact["kind"] == "import")
        .map(|fact| {
            (
                fact["evidence"]["file"].as_str().unwrap(),
                fact["properties"]["specifier"].as_str().unwrap(),
                fact["properties"]["resolved"]
                    .as_str()
                    .unwrap_or("(unresolved)"),
            )
        })
        .collect();
    edges.sort_unstable();
    assert_eq!(
        edges,
        [
            ("src/gen/columns.rs", "super::Table", "src/gen/schema.rs"),
            ("src/gen/schema.rs", "columns", "src/gen/columns.rs"),
            (
                "src/gen/schema.rs",
                "self::columns::Column",
                "src/gen/columns.rs"
            ),
            ("src/gen/schema.rs", "super::gen::Nothing", "(unresolved)"),
            ("src/gen/schema.rs", "super::net::Socket", "src/net.rs"),
            ("src/handlers/routes.rs", "super::Api", "src/lib.rs"),
            ("src/lib.rs", "crate::schema as tables", "src/gen/schema.rs"),
            ("src/lib.rs", "crate::schema::columns", "src/gen/columns.rs"),
            ("src/lib.rs", "net", "src/net.rs"),
            ("src/lib.rs", "routes", "src/handlers/routes.rs"),
            ("src/lib.rs", "schema", "src/gen/schema.rs"),
            ("src/net.rs", "super::schema", "src/gen/schema.rs"),
        ]
    );
    // The check: the one path rustc rejects is the one finding.
    let (code, verdict) = json_run(
        lintel()
            .args(["check", "--all", "--json", "--no-cache", "--project"])
            .arg(project.path()),
    );
    assert_eq!(code, 1, "{verdict:#}");
    let found: Vec<(&str, &str, i64)> = verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| {
            (
                violation["type"].as_str().unwrap(),
                violation["detected"]["file"].as_str().unwrap(),
                violation["detected"]["line"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [("unresolved_import_violation", "src/gen/schema.rs", 5)]
    );
}
