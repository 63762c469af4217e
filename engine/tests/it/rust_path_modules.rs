//! Rust modules declared with `#[path = "…"]`, through the real binary: a `use` that names such a
//! module lands on the file the attribute names, and `super::`/`self::` inside that file (and in
//! the files it declares beside it) are read against the module rustc gives it, the declaring
//! module's child, not against the file's place on disk.

use super::{graph_document, json_run, lintel, write_files};

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
    let graph = graph_document(project.path());
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

/// Files that two `#[path]` declarations each reach, level after level, double the ways up to the
/// crate root at every level (2^24 here): each file's module and each path through the modules is
/// worked out once per file, so the run ends quickly, and no path is cut short into a false edge
/// (`super::missing` is unresolved in every file, never resolved to a file on the way).
#[test]
fn rust_path_modules_declared_twice_at_every_level_are_read_in_bounded_time() {
    let dir = tempfile::tempdir().unwrap();
    let levels = 24;
    let mut files: Vec<(String, String)> = vec![
        (
            "architecture.ag".to_owned(),
            "node app : server\ncomponent Rs { runs_on: app paths: \"**\" }\ninvariant Imports { deny unresolved imports in * }\n".to_owned(),
        ),
        (
            "Cargo.toml".to_owned(),
            "[package]\nname = \"deep\"\nversion = \"0.1.0\"\nedition = \"2021\"\n".to_owned(),
        ),
        (
            "src/lib.rs".to_owned(),
            "#[cfg(a)]\n#[path = \"m/l0a.rs\"]\nmod n;\n#[cfg(b)]\n#[path = \"m/l0b.rs\"]\nmod n;\n".to_owned(),
        ),
    ];
    for level in 0..levels {
        let next = level + 1;
        let text = if level + 1 < levels {
            format!("pub struct S;\n#[cfg(a)]\n#[path = \"l{next}a.rs\"]\npub mod n;\n#[cfg(b)]\n#[path = \"l{next}b.rs\"]\npub mod n;\nuse super::missing::Gone;\n")
        } else {
            "pub struct S;\nuse super::S as T;\n".to_owned()
        };
        for side in ["a", "b"] {
            files.push((format!("src/m/l{level}{side}.rs"), text.clone()));
        }
    }
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(path, text)| (path.as_str(), text.as_str()))
        .collect();
    write_files(dir.path(), &borrowed);
    let (code, verdict) = json_run(
        lintel()
            .args(["check", "--all", "--json", "--no-cache", "--project"])
            .arg(dir.path()),
    );
    assert_eq!(code, 1, "{verdict:#}");
    // `super::missing` is unresolved in every file but the last (whose `super::S` holds).
    let unresolved = verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|violation| violation["type"] == "unresolved_import_violation")
        .count();
    assert_eq!(unresolved, 2 * (levels - 1), "{verdict:#}");
}

/// A `#[path]` declaration inside an inline module of a file that a `#[path]` attribute itself
/// reaches: rustc reads that file as a `mod.rs`, so the inline module's folder is beside the file
/// (`src/gen/inner/deep.rs`), not under a folder named after it (`src/gen/schema/inner/`). The
/// declaration, the paths through it and `super::` inside the file it names all resolve, and the
/// one path rustc rejects is the one finding.
#[test]
fn a_path_module_inside_an_inline_module_of_a_path_module_file_is_beside_that_file() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            (
                "architecture.ag",
                "node app : server\n\
                 component Core { runs_on: app paths: \"src/*.rs\" }\n\
                 component Gen { runs_on: app paths: \"src/gen/**\" }\n\
                 invariant Imports { deny unresolved imports in * }\n",
            ),
            (
                "Cargo.toml",
                "[package]\nname = \"plat\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            ),
            (
                "src/lib.rs",
                "#[path = \"gen/schema.rs\"]\npub mod schema;\nuse crate::schema::inner::deep::Deep;\n",
            ),
            (
                "src/gen/schema.rs",
                "pub mod inner {\n    #[path = \"deep.rs\"]\n    pub mod deep;\n}\n\
                 pub struct Table;\nuse self::inner::deep::Deep;\n",
            ),
            (
                "src/gen/inner/deep.rs",
                "pub struct Deep;\nuse super::super::Table;\nuse super::super::gone::Nothing;\n",
            ),
        ],
    );
    let graph = graph_document(dir.path());
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
            (
                "src/gen/inner/deep.rs",
                "super::super::Table",
                "src/gen/schema.rs"
            ),
            (
                "src/gen/inner/deep.rs",
                "super::super::gone::Nothing",
                "(unresolved)"
            ),
            ("src/gen/schema.rs", "deep", "src/gen/inner/deep.rs"),
            (
                "src/gen/schema.rs",
                "self::inner::deep::Deep",
                "src/gen/inner/deep.rs"
            ),
            (
                "src/lib.rs",
                "crate::schema::inner::deep::Deep",
                "src/gen/inner/deep.rs"
            ),
            ("src/lib.rs", "schema", "src/gen/schema.rs"),
        ]
    );
    let (code, verdict) = json_run(
        lintel()
            .args(["check", "--all", "--json", "--no-cache", "--project"])
            .arg(dir.path()),
    );
    assert_eq!(code, 1, "{verdict:#}");
    assert_eq!(
        crate::rules_and_files(&verdict),
        [("deny unresolved imports in *", "src/gen/inner/deep.rs")]
    );
}
