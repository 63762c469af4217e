//! Helpers for lintel's end-to-end tests: example paths, in-process checks, redaction.

use std::path::{Path, PathBuf};

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// An example project's directory.
pub fn example(name: &str) -> PathBuf {
    workspace_root().join("examples").join(name)
}

/// Replaces the run-dependent fields (`timestamp`, every `elapsed_ms`) so documents compare byte for byte.
pub fn redact(document: &mut serde_json::Value) {
    match document {
        serde_json::Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                if key == "timestamp" {
                    *value = serde_json::Value::String("[timestamp]".into());
                } else if key == "elapsed_ms" {
                    *value = serde_json::Value::from(0);
                } else {
                    redact(value);
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(redact),
        _ => {}
    }
}

/// Copies a directory tree (files and folders only).
pub fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else if entry.file_type()?.is_file() {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}
