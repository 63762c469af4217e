//! Architecture rule: `extractors` depends only on `policies::facts` (style guide invariants), and
//! on `policies::read`, the bounded reader of regular files every crate shares.

use std::path::Path;

fn rust_files(directory: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(directory).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            files.push(path);
        }
    }
}

#[test]
fn extractors_use_only_the_fact_schema_of_policies() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (index, _) in text.match_indices("policies::") {
            let rest = &text[index + "policies::".len()..];
            // `policies::read` (the bounded reader of regular files) and `policies::limits` (the size
            // limits on globs) are shared by every crate that reads user input.
            assert!(
                rest.starts_with("facts")
                    || rest.starts_with("read::")
                    || rest.starts_with("limits::"),
                "{}: uses `policies::` outside `facts`, `read` and `limits`",
                file.display()
            );
        }
    }
}
