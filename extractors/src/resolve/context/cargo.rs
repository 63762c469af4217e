//! Rust crates of the project: every `Cargo.toml` with a `[package]` is a package whose targets
//! are crates, named in `use` paths by the `[lib] name` or the package name with `-` written `_`
//! (or by the name a dependency renames it to: `foo = { package = "bar" }`).
//!
//! A crate's root file is its target's source file, and its modules live in the root file's
//! folder: module `a::b` is `a/b.rs` or `a/b/mod.rs` there. The targets are Cargo's: `[lib]
//! path` (else `src/lib.rs`), `src/main.rs`, `src/bin/*.rs`, `src/bin/*/main.rs`, the same two
//! shapes under `examples/`, `tests/` and `benches/`, `[[bin]]`/`[[example]]`/`[[test]]`/
//! `[[bench]]` paths, and `build.rs` (whose folder is the package's, so it has no module
//! folder). A file that is no target's root belongs to the crate whose module folder is its
//! deepest ancestor; a folder of targets (`tests/`, `benches/`, `examples/`, `src/bin/`) is a
//! crate without a root, so `tests/common/mod.rs` is module `common` of none of them in
//! particular: its crate root (`super::` from `common`) is whichever of the folder's targets
//! declares `mod common;` ([`Crates::shared_roots`]).

use std::collections::{BTreeMap, HashSet};

use super::paths::{ancestors, file_name, is_within, join, parent_dir};
use super::read::ConfigReader;
use super::toml_lite::{self, Entry};

/// One crate.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Crate {
    /// The folder of its modules (the root file's folder).
    pub source_folder: String,
    /// Its root file, if the project has it (`None` for a folder shared by single-file targets).
    pub root_file: Option<String>,
}

/// The crates of the project and its Rust files.
#[derive(Debug, Default)]
pub(crate) struct Crates {
    /// Crate name (with `_`) → the package's library crate, else its `src/main.rs` crate.
    by_name: BTreeMap<String, Crate>,
    /// Target root file → its crate.
    roots: BTreeMap<String, Crate>,
    /// Module folder → its crate (roots' folders and folders of single-file targets).
    folders: BTreeMap<String, Crate>,
    /// Folder of targets (`tests/`…) → the root files of its targets, sorted.
    shared_roots: BTreeMap<String, Vec<String>>,
    /// Package folder → dependency name (with `_`) → the crate name it stands for.
    renames: BTreeMap<String, BTreeMap<String, String>>,
    /// Every `.rs` file.
    files: HashSet<String>,
}

/// Folders whose `*.rs` and `*/main.rs` files are target roots, per package.
const TARGET_FOLDERS: [&str; 4] = ["src/bin", "examples", "tests", "benches"];

/// Manifest array tables whose `path` is a target root.
const TARGET_TABLES: [&str; 4] = ["bin", "example", "test", "bench"];

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
        let mut packages: BTreeMap<String, Vec<Entry>> = BTreeMap::new();
        let mut workspace_renames: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        for manifest in manifests {
            let Some(text) = reader.read(&manifest) else {
                continue;
            };
            let folder = parent_dir(&manifest).to_owned();
            let entries = toml_lite::entries(&text);
            let workspace = renamed_dependencies(&entries, "workspace.dependencies");
            if !workspace.is_empty() {
                workspace_renames.insert(folder.clone(), workspace);
            }
            if let Some(name) = string_value(&entries, "package", "name") {
                crates.add_package(&folder, &name, &entries);
                packages.insert(folder, entries);
            }
        }
        for (folder, entries) in &packages {
            let inherited = ancestors(&format!("{folder}/Cargo.toml"))
                .find_map(|ancestor| workspace_renames.get(ancestor))
                .cloned()
                .unwrap_or_default();
            let mut renames = BTreeMap::new();
            for section in dependency_sections(entries) {
                for (name, value) in section_dependencies(entries, &section) {
                    if let Some(package) = local_package(&value) {
                        renames.insert(name, package);
                    } else if is_inherited(&value) {
                        if let Some(package) = inherited.get(&name) {
                            renames.insert(name, package.clone());
                        }
                    }
                }
            }
            crates.renames.insert(folder.clone(), renames);
        }
        crates
    }

    /// Records the targets of the package in `folder`.
    fn add_package(&mut self, folder: &str, name: &str, entries: &[Entry]) {
        let source = join(folder, "src").unwrap_or_default();
        let lib_root = string_value(entries, "lib", "path")
            .and_then(|path| join(folder, &path))
            .or_else(|| join(&source, "lib.rs"))
            .filter(|root| self.files.contains(root));
        let main_root = join(&source, "main.rs").filter(|root| self.files.contains(root));
        let mut roots: Vec<String> = [lib_root.clone(), main_root.clone()]
            .into_iter()
            .flatten()
            .collect();
        roots.extend(
            entries
                .iter()
                .filter(|entry| {
                    entry.key == "path" && TARGET_TABLES.contains(&entry.section.as_str())
                })
                .filter_map(|entry| toml_lite::strings(&entry.value).into_iter().next())
                .filter_map(|path| join(folder, &path)),
        );
        for target_folder in TARGET_FOLDERS {
            let Some(target_folder) = join(folder, target_folder) else {
                continue;
            };
            let mut targets = Vec::new();
            for file in &self.files {
                let Some(rest) = file
                    .strip_prefix(target_folder.as_str())
                    .and_then(|rest| rest.strip_prefix('/'))
                else {
                    continue;
                };
                if matches!(
                    rest.split('/').collect::<Vec<_>>()[..],
                    [_] | [_, "main.rs"]
                ) {
                    targets.push(file.clone());
                }
            }
            if !targets.is_empty() {
                // The folder's other files are modules its targets declare (`mod common;`).
                self.folders
                    .entry(target_folder.clone())
                    .or_insert_with(|| Crate {
                        source_folder: target_folder.clone(),
                        root_file: None,
                    });
                targets.sort();
                roots.extend(targets.iter().cloned());
                self.shared_roots.entry(target_folder).or_insert(targets);
            }
        }
        for root in roots {
            if !self.files.contains(&root) {
                continue;
            }
            let krate = Crate {
                source_folder: parent_dir(&root).to_owned(),
                root_file: Some(root.clone()),
            };
            self.folders
                .entry(krate.source_folder.clone())
                .or_insert_with(|| krate.clone());
            self.roots.entry(root).or_insert(krate);
        }
        // A build script is a crate of its own; its folder is the package's, shared by others.
        if let Some(build) = join(folder, "build.rs").filter(|file| self.files.contains(file)) {
            let krate = Crate {
                source_folder: folder.to_owned(),
                root_file: Some(build.clone()),
            };
            self.roots.entry(build).or_insert(krate);
        }
        // Without a library or main file the package's modules still live under `src/`.
        let named = lib_root
            .or(main_root)
            .and_then(|root| self.roots.get(&root).cloned())
            .unwrap_or(Crate {
                source_folder: source,
                root_file: None,
            });
        let lib_name = string_value(entries, "lib", "name");
        for crate_name in lib_name.iter().map(String::as_str).chain([name]) {
            self.by_name
                .entry(crate_name.replace('-', "_"))
                .or_insert_with(|| named.clone());
        }
    }

    /// The crate that `name` (with `_`) names in `file`: a dependency renamed in the manifest of
    /// the file's package, else the crate of that name.
    pub fn by_name_from(&self, file: &str, name: &str) -> Option<&Crate> {
        // Every package has an entry, so the nearest one is the file's own package.
        let renamed = ancestors(file)
            .find_map(|folder| self.renames.get(folder))
            .and_then(|renames| renames.get(name));
        self.by_name.get(renamed.map_or(name, String::as_str))
    }

    /// The crate of `file`: the target it is the root of, else the crate whose module folder is
    /// its deepest ancestor, else a crate rooted at the nearest `src/` folder above the file.
    pub fn containing(&self, file: &str) -> Option<Crate> {
        if let Some(krate) = self.roots.get(file) {
            return Some(krate.clone());
        }
        let known = ancestors(file).find_map(|folder| self.folders.get(folder).cloned());
        let known = known.or_else(|| {
            self.by_name
                .values()
                .filter(|candidate| is_within(file, &candidate.source_folder))
                .max_by_key(|candidate| candidate.source_folder.len())
                .cloned()
        });
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
        self.module_file_in(&krate.source_folder, segments)
    }

    /// The file of module `segments` (not empty) under the module folder `folder`: `a/b.rs` or
    /// `a/b/mod.rs` for `a::b`.
    pub fn module_file_in(&self, folder: &str, segments: &[String]) -> Option<String> {
        if segments.is_empty() {
            return None;
        }
        let relative = segments.join("/");
        let base = join(folder, &relative)?;
        [format!("{base}.rs"), format!("{base}/mod.rs")]
            .into_iter()
            .find(|candidate| self.files.contains(candidate))
    }

    /// The root files of the targets that may declare a module of a crate without a root (a
    /// folder of targets such as `tests/`), sorted; none for another crate.
    pub fn shared_roots(&self, krate: &Crate) -> &[String] {
        match krate.root_file {
            Some(_) => &[],
            None => self
                .shared_roots
                .get(&krate.source_folder)
                .map_or(&[], Vec::as_slice),
        }
    }

    /// Whether `path` is one of the project's Rust files.
    pub fn has_file(&self, path: &str) -> bool {
        self.files.contains(path)
    }
}

/// The first string of `key` in `section`.
fn string_value(entries: &[Entry], section: &str, key: &str) -> Option<String> {
    toml_lite::value(entries, section, key)
        .and_then(|value| toml_lite::strings(value).into_iter().next())
}

/// The value of `key` among the `key = "value"` pairs of an inline table.
fn pairs_value(value: &str, key: &str) -> Option<String> {
    toml_lite::pairs(value)
        .into_iter()
        .find(|(found, _)| found == key)
        .map(|(_, text)| text)
}

/// The package (with `_`) a dependency renames when it is a path dependency: `core = {
/// package = "shop-core", path = "../core" }`. A renamed registry or git dependency
/// (`api_019 = { package = "shop-api", version = "0.19" }`, an older release of a workspace
/// crate) is another crate than the workspace's, outside the project.
fn local_package(value: &str) -> Option<String> {
    pairs_value(value, "path")?;
    pairs_value(value, "package").map(|package| package.replace('-', "_"))
}

/// Whether a dependency is `{ workspace = true }` (or `foo.workspace = true`).
fn is_inherited(value: &str) -> bool {
    value
        .split([',', '{', '}'])
        .filter_map(|part| part.split_once('='))
        .any(|(key, flag)| key.trim() == "workspace" && flag.trim() == "true")
}

/// The dependency tables of a manifest (`dependencies`, `dev-dependencies`,
/// `build-dependencies`, `target.'cfg(…)'.dependencies`).
fn dependency_sections(entries: &[Entry]) -> Vec<String> {
    let mut sections: Vec<String> = entries
        .iter()
        .filter_map(|entry| {
            let table = entry
                .section
                .rsplit_once('.')
                .filter(|(_, last)| !last.ends_with("dependencies"))
                .map_or(entry.section.as_str(), |(table, _)| table);
            (!table.starts_with("workspace")
                && (table == "dependencies"
                    || table == "dev-dependencies"
                    || table == "build-dependencies"
                    || table.ends_with(".dependencies")
                    || table.ends_with(".dev-dependencies")
                    || table.ends_with(".build-dependencies")))
            .then(|| table.to_owned())
        })
        .collect();
    sections.sort();
    sections.dedup();
    sections
}

/// The dependencies of one table as (name with `_`, inline value): `foo = { … }`,
/// `foo.package = "bar"` and the `[dependencies.foo]` table form.
fn section_dependencies(entries: &[Entry], table: &str) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = Vec::new();
    for entry in entries {
        let (name, value) = if entry.section == table {
            match entry.key.split_once('.') {
                Some((name, key)) => (name.to_owned(), format!("{key} = {}", entry.value)),
                None => (entry.key.clone(), entry.value.clone()),
            }
        } else if let Some(name) = entry
            .section
            .strip_prefix(table)
            .and_then(|rest| rest.strip_prefix('.'))
        {
            (name.to_owned(), format!("{} = {}", entry.key, entry.value))
        } else {
            continue;
        };
        let name = name.trim_matches(['"', '\'']).replace('-', "_");
        match found.iter_mut().find(|(known, _)| *known == name) {
            Some((_, known)) => {
                known.push(',');
                known.push_str(&value);
            }
            None => found.push((name, value)),
        }
    }
    found
}

/// The renamed dependencies of a table: name (with `_`) → package name (with `_`).
fn renamed_dependencies(entries: &[Entry], table: &str) -> BTreeMap<String, String> {
    section_dependencies(entries, table)
        .into_iter()
        .filter_map(|(name, value)| local_package(&value).map(|package| (name, package)))
        .collect()
}

/// The file a `#[path]` attribute names: relative to the declaring file's folder, and inside
/// inline modules to their folders under it (under the module's own folder for a file that is not
/// a `mod.rs` or a crate root), as rustc reads it.
pub(crate) fn attribute_path_file(
    file: &str,
    is_mod_rs: bool,
    inline: &[String],
    path: &str,
) -> Option<String> {
    let mut folder = parent_dir(file).to_owned();
    if !inline.is_empty() {
        if !is_mod_rs {
            let stem = file_name(file).strip_suffix(".rs").unwrap_or_default();
            folder = join(&folder, stem)?;
        }
        for module in inline {
            folder = join(&folder, module)?;
        }
    }
    join(&folder, path)
}

/// The file a `#[path]` attribute names ([`attribute_path_file`]) among the files `exists`
/// holds. Inside an inline module of a file that is not a `mod.rs` or a crate root, where rustc
/// looks depends on how the file itself was reached: under the module's own folder, except in a
/// file a `#[path]` attribute reaches, which rustc reads as a `mod.rs` (only the declaring file
/// tells which), so when no file is under the module's folder the one beside the file is taken.
pub(crate) fn attribute_path_target(
    file: &str,
    is_mod_rs: bool,
    inline: &[String],
    path: &str,
    exists: impl Fn(&str) -> bool,
) -> Option<String> {
    let found = attribute_path_file(file, is_mod_rs, inline, path).filter(|target| exists(target));
    if found.is_some() || is_mod_rs || inline.is_empty() {
        return found;
    }
    attribute_path_file(file, true, inline, path).filter(|target| exists(target))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renamed_dependencies_in_every_table_form() {
        let text = "[package]\nname = \"api\"\n\n[dependencies]\ncore = { package = \"shop-core\", path = \"../core\" }\nplain = { path = \"../plain\" }\nold = { package = \"shop-core\", version = \"0.19\" }\nlog.workspace = true\n\n[dev-dependencies.fixtures]\npackage = \"test-fixtures\"\npath = \"../fixtures\"\n\n[target.'cfg(unix)'.dependencies]\nsys = { package = \"shop-sys\", path = \"../sys\" }\n";
        let entries = toml_lite::entries(text);
        assert_eq!(
            dependency_sections(&entries),
            [
                "dependencies",
                "dev-dependencies",
                "target.cfg(unix).dependencies"
            ]
        );
        assert_eq!(
            renamed_dependencies(&entries, "dependencies"),
            BTreeMap::from([("core".to_owned(), "shop_core".to_owned())])
        );
        assert_eq!(
            renamed_dependencies(&entries, "dev-dependencies"),
            BTreeMap::from([("fixtures".to_owned(), "test_fixtures".to_owned())])
        );
        assert_eq!(
            renamed_dependencies(&entries, "target.cfg(unix).dependencies"),
            BTreeMap::from([("sys".to_owned(), "shop_sys".to_owned())])
        );
        let log = section_dependencies(&entries, "dependencies")
            .into_iter()
            .find(|(name, _)| name == "log")
            .map(|(_, value)| value)
            .unwrap_or_default();
        assert!(is_inherited(&log));
    }
}
