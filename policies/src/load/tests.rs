use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::compile::{compile_source_in, compile_spec, CompileOutput};

/// A temporary project directory, removed on drop.
struct TempProject(PathBuf);

impl TempProject {
    fn new() -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let unique = COUNTER.fetch_add(1, Ordering::SeqCst);
        let path = std::env::temp_dir().join(format!(
            "lintel-policies-load-{}-{unique}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        Self(path)
    }

    fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, contents).unwrap();
        path
    }

    fn compile(&self, root: &str) -> CompileOutput {
        compile_spec(&self.0.join(root), &self.0)
    }
}

impl Drop for TempProject {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn codes_at(output: &CompileOutput) -> Vec<(String, String, u32, u32)> {
    output
        .diagnostics
        .iter()
        .map(|diagnostic| {
            (
                diagnostic.code.clone(),
                diagnostic.file.clone(),
                diagnostic.line,
                diagnostic.column,
            )
        })
        .collect()
}

#[test]
fn imports_merge_depth_first_and_deduplicate() {
    let project = TempProject::new();
    project.write("base/topology.ag", "node app : server\n");
    project.write(
        "base/shared.ag",
        "import \"topology.ag\"\nnode db : postgres\n",
    );
    project.write(
        "architecture.ag",
        "component Api { runs_on: app paths: \"api/**\" }\nimport \"base/shared.ag\"\nimport \"base/topology.ag\"\n",
    );
    let output = project.compile("architecture.ag");
    assert!(output.diagnostics.is_empty(), "{:?}", output.diagnostics);
    let model = output.model.unwrap();
    assert_eq!(
        model.files,
        ["architecture.ag", "base/shared.ag", "base/topology.ag"]
    );
    let nodes: Vec<&str> = model.nodes.iter().map(|node| node.name.as_str()).collect();
    assert_eq!(nodes, ["app", "db"]);
    assert_eq!(
        model.components.first().unwrap().location.file,
        "architecture.ag"
    );
}

#[test]
fn exclude_declarations_merge_across_imported_files() {
    let project = TempProject::new();
    project.write("tests.ag", "exclude \"**/*.test.ts\"\n");
    project.write(
        "gen.ag",
        "exclude [\"gen/**\", \"**/*.test.ts\"]\nexclude \"/gen/**\"\n",
    );
    project.write(
        "architecture.ag",
        "exclude \"vendor/**\"\nimport \"tests.ag\"\nnode app : server\n",
    );
    let output = project.compile("architecture.ag");
    assert!(output.diagnostics.is_empty(), "{:?}", output.diagnostics);
    assert_eq!(
        output.model.unwrap().excludes,
        ["**/*.test.ts", "vendor/**"],
        "an imported file's declarations come first (merged order)"
    );
    project.write(
        "architecture.ag",
        "exclude \"vendor/**\"\nimport \"tests.ag\"\nimport \"gen.ag\"\n",
    );
    let output = project.compile("architecture.ag");
    assert_eq!(
        codes_at(&output),
        [("invalid-glob".to_owned(), "gen.ag".to_owned(), 2, 9)],
        "an imported file's glob is located in that file"
    );
}

#[test]
fn import_cycle_names_the_cycle() {
    let project = TempProject::new();
    project.write("a.ag", "import \"b.ag\"\nnode app : server\n");
    project.write("b.ag", "node db : postgres\nimport \"a.ag\"\n");
    let output = project.compile("a.ag");
    assert_eq!(
        codes_at(&output),
        [("import-cycle".to_owned(), "b.ag".to_owned(), 2, 8)]
    );
    assert_eq!(
        output.diagnostics.first().unwrap().message,
        "import cycle: `a.ag` -> `b.ag` -> `a.ag`"
    );
}

#[test]
fn import_not_found_continues_loading() {
    let project = TempProject::new();
    project.write("a.ag", "import \"missing.ag\"\nnode app : serverr\n");
    let output = project.compile("a.ag");
    let codes = codes_at(&output);
    assert_eq!(
        codes.first().unwrap(),
        &("import-not-found".to_owned(), "a.ag".to_owned(), 1, 8)
    );
    assert!(output
        .diagnostics
        .first()
        .unwrap()
        .message
        .starts_with("cannot read imported file `missing.ag`: "));
    assert_eq!(codes.get(1).unwrap().0, "unknown-node-type");
}

#[test]
fn invalid_import_paths() {
    let project = TempProject::new();
    project.write(
        "a.ag",
        "import \"/etc/x.ag\"\nimport \"notes.txt\"\nimport \"ok.ag\"\n",
    );
    project.write("ok.ag", "node app : server\n");
    let output = project.compile("a.ag");
    let codes = codes_at(&output);
    assert_eq!(
        codes,
        [
            ("invalid-import-path".to_owned(), "a.ag".to_owned(), 1, 8),
            ("invalid-import-path".to_owned(), "a.ag".to_owned(), 2, 8)
        ]
    );
    assert_eq!(
        output.diagnostics.get(1).unwrap().message,
        "import path `notes.txt` must be relative and end in `.ag`"
    );
}

#[test]
fn files_outside_the_root_get_parent_segments() {
    let project = TempProject::new();
    project.write("specs/shared.ag", "node app : server\n");
    project.write(
        "repo/architecture.ag",
        "import \"../specs/shared.ag\"\nnode db : postgress\n",
    );
    let output = compile_spec(
        &project.0.join("repo/architecture.ag"),
        &project.0.join("repo"),
    );
    assert_eq!(
        codes_at(&output),
        [(
            "unknown-node-type".to_owned(),
            "architecture.ag".to_owned(),
            2,
            11
        )]
    );
    let output = compile_spec(
        &project.0.join("repo/../specs/shared.ag"),
        &project.0.join("repo"),
    );
    assert_eq!(output.model.unwrap().files, ["../specs/shared.ag"]);
}

#[test]
fn diagnostics_sort_by_merged_file_order_then_offset() {
    let project = TempProject::new();
    project.write("b.ag", "node x : bogus\n");
    project.write("a.ag", "node y : bogus2\nimport \"b.ag\"\n");
    let output = project.compile("a.ag");
    let files: Vec<&str> = output
        .diagnostics
        .iter()
        .map(|diagnostic| diagnostic.file.as_str())
        .collect();
    assert_eq!(files, ["a.ag", "b.ag"]);
}

#[test]
fn invalid_utf8_stops_lexing_that_file() {
    let project = TempProject::new();
    project.write("a.ag", b"node app : server\nnode \xff : x\n".as_slice());
    let output = project.compile("a.ag");
    assert_eq!(
        codes_at(&output),
        [("invalid-utf8".to_owned(), "a.ag".to_owned(), 2, 6)]
    );
    assert_eq!(
        output.diagnostics.first().unwrap().message,
        "file is not valid UTF-8: invalid byte at offset `23`"
    );
}

#[test]
fn imported_file_too_large() {
    let project = TempProject::new();
    project.write("big.ag", vec![b' '; 4 * 1024 * 1024 + 1]);
    project.write("a.ag", "import \"big.ag\"\n");
    let output = project.compile("a.ag");
    assert_eq!(
        codes_at(&output),
        [("file-too-large".to_owned(), "big.ag".to_owned(), 1, 1)]
    );
}

#[test]
fn missing_root_file_is_reported() {
    let project = TempProject::new();
    let output = project.compile("absent.ag");
    assert_eq!(
        codes_at(&output),
        [("import-not-found".to_owned(), "absent.ag".to_owned(), 1, 1)]
    );
    assert!(output.model.is_none());
}

#[test]
fn in_memory_sources_resolve_imports_on_disk() {
    let project = TempProject::new();
    project.write("specs/base.ag", "node app : server\n");
    let output = compile_source_in(
        "specs/main.ag",
        "import \"base.ag\"\ncomponent A { runs_on: app paths: \"a/**\" }",
        &project.0,
    );
    assert!(output.diagnostics.is_empty(), "{:?}", output.diagnostics);
    assert_eq!(
        output.model.unwrap().files,
        ["specs/main.ag", "specs/base.ag"]
    );
}

#[test]
fn no_output_path_is_absolute() {
    let project = TempProject::new();
    project.write("a.ag", "import \"b.ag\"\nnode app : server\n");
    project.write("b.ag", "import \"a.ag\"\n");
    let output = project.compile("a.ag");
    let json = serde_json::to_string(&output.diagnostics).unwrap();
    assert!(!json.contains(&project.0.display().to_string()), "{json}");
    assert!(!Path::new(&output.diagnostics.first().unwrap().file).is_absolute());
}
