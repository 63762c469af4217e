//! Rust crates of the project: every `Cargo.toml` with a `[package] name` is a crate whose
//! modules live under its `src/` folder, named in `use` paths with `-` written `_`.
//!
//! A module path maps to files by the standard layout: the crate root is `src/lib.rs` (or the
//! `[lib] path`), else `src/main.rs`; module `a::b` is `src/a/b.rs` or `src/a/b/mod.rs`.

use std::collections::{BTreeMap, HashSet};

use super::paths::{file_name, is_within, join, parent_dir};
use super::read::ConfigReader;
use super::toml_lite;

/// One crate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Crate {
    /// The folder of its `src/` modules.
    pub source_folder: String,
    /// Its root file (`lib.rs`, else `main.rs`), if the project has it.
    pub root_file: Option<String>,
}

/// The crates of the project and its Rust files.
#[derive(Debug, Default)]
pub(crate) struct Crates {
    /// Crate name (with `_`) → crate.
    by_name: BTreeMap<String, Crate>,
    /// Every `.rs` file.
    files: HashSet<String>,
}

impl Crates {
    /// Reads every `Cargo.toml` among `files` and indexes the `.rs` files.
    pub fn discover<'f>(reader: &ConfigReader<'_>, files: impl Iterator<Item = &'f str>) -> Self {
        let mut crates = Self::default();
        let mut manifests = Vec::new();
        for path in files {
            if file_name(path) == "Cargo.toml" {
                manifests.push(path.to_owned());
            } else if path.ends_with(".rs") {
                crates.files.insert(path.to_owned());
            }
        }
        for manifest in manifests {
            let Some(text) = reader.read(&manifest) else {
                continue;
            };
            let entries = toml_lite::entries(&text);
            let Some(name) = toml_lite::value(&entries, "package", "name")
                .and_then(|value| toml_lite::strings(value).into_iter().next())
            else {
                continue;
            };
            let folder = parent_dir(&manifest);
            let source_folder = join(folder, "src").unwrap_or_default();
            let lib_path = toml_lite::value(&entries, "lib", "path")
                .and_then(|value| toml_lite::strings(value).into_iter().next())
                .and_then(|path| join(folder, &path));
            let root_file = [
                lib_path,
                join(&source_folder, "lib.rs"),
                join(&source_folder, "main.rs"),
            ]
            .into_iter()
            .flatten()
            .find(|candidate| crates.files.contains(candidate));
            crates
                .by_name
                .entry(name.replace('-', "_"))
                .or_insert(Crate {
                    source_folder,
                    root_file,
                });
        }
        crates
    }

    /// The crate named `name` (with `_`).
    pub fn by_name(&self, name: &str) -> Option<&Crate> {
        self.by_name.get(name)
    }

    /// The crate whose `src/` folder holds `file` (the deepest one), else a crate rooted at the
    /// nearest `src/` folder above the file.
    pub fn containing(&self, file: &str) -> Option<Crate> {
        let known = self
            .by_name
            .values()
            .filter(|candidate| is_within(file, &candidate.source_folder))
            .max_by_key(|candidate| candidate.source_folder.len())
            .cloned();
        known.or_else(|| {
            let mut folder = parent_dir(file);
            loop {
                if file_name(folder) == "src" {
                    let source_folder = folder.to_owned();
                    let root_file = ["lib.rs", "main.rs"]
                        .iter()
                        .filter_map(|name| join(&source_folder, name))
                        .find(|candidate| self.files.contains(candidate));
                    return Some(Crate {
                        source_folder,
                        root_file,
                    });
                }
                if folder.is_empty() {
                    return None;
                }
                folder = parent_dir(folder);
            }
        })
    }

    /// The file of module `segments` of a crate (`[]` is the crate root).
    pub fn module_file(&self, krate: &Crate, segments: &[String]) -> Option<String> {
        if segments.is_empty() {
            return krate.root_file.clone();
        }
        let relative = segments.join("/");
        let base = join(&krate.source_folder, &relative)?;
        [format!("{base}.rs"), format!("{base}/mod.rs")]
            .into_iter()
            .find(|candidate| self.files.contains(candidate))
    }
}
