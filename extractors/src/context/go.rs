//! Go modules: `go.mod` module paths (with local `replace` directives), `go.work` `use` folders,
//! and the file that stands for each package folder.
//!
//! An import path resolves through the module whose path is its longest prefix; the rest of the
//! path is a folder under the module's folder. A package is a folder, but facts name files, so
//! the package's file is its first `.go` file that is not a `_test.go`, in bytewise order of the
//! file name: the engine maps that file to its component, and every file of one folder normally
//! has one owner. A path no module claims is `External`, its package the whole import path.

use std::collections::BTreeMap;

use super::paths::{file_name, join, parent_dir};
use super::read::ConfigReader;
use super::Resolution;

/// The Go modules of the project.
#[derive(Debug, Default)]
pub(crate) struct GoModules {
    /// Module path → project-relative folder.
    modules: BTreeMap<String, String>,
    /// Package folder → its representative file.
    package_files: BTreeMap<String, String>,
}

impl GoModules {
    /// Reads every `go.mod` and `go.work` among `files` and indexes the `.go` files.
    pub fn discover<'f>(reader: &ConfigReader<'_>, files: impl Iterator<Item = &'f str>) -> Self {
        let mut index = Self::default();
        let mut manifests = Vec::new();
        for path in files {
            let name = file_name(path);
            if name == "go.mod" || name == "go.work" {
                manifests.push(path.to_owned());
            } else if name.ends_with(".go") && !name.ends_with("_test.go") {
                let folder = parent_dir(path).to_owned();
                let slot = index
                    .package_files
                    .entry(folder)
                    .or_insert_with(|| path.to_owned());
                if file_name(path) < file_name(slot) {
                    path.clone_into(slot);
                }
            }
        }
        let mut work_uses = Vec::new();
        for manifest in &manifests {
            let folder = parent_dir(manifest);
            if file_name(manifest) == "go.work" {
                if let Some(text) = reader.read(manifest) {
                    work_uses.extend(
                        directive_values(&text, "use")
                            .iter()
                            .filter_map(|used| join(folder, used)),
                    );
                }
            }
        }
        let mut module_files: Vec<String> = manifests
            .into_iter()
            .filter(|manifest| file_name(manifest) == "go.mod")
            .collect();
        for used in work_uses {
            let candidate = join(&used, "go.mod").unwrap_or_default();
            if !module_files.contains(&candidate) {
                module_files.push(candidate);
            }
        }
        for manifest in module_files {
            let Some(text) = reader.read(&manifest) else {
                continue;
            };
            let folder = parent_dir(&manifest);
            if let Some(module) = directive_values(&text, "module").into_iter().next() {
                index
                    .modules
                    .entry(module)
                    .or_insert_with(|| folder.to_owned());
            }
            for replacement in directive_values(&text, "replace") {
                let Some((from, to)) = replacement.split_once("=>") else {
                    continue;
                };
                let to = to.trim();
                if to.starts_with("./") || to.starts_with("../") {
                    let from = from
                        .split_whitespace()
                        .next()
                        .unwrap_or_default()
                        .to_owned();
                    if let Some(target) = join(folder, to) {
                        index.modules.entry(from).or_insert(target);
                    }
                }
            }
        }
        index
    }

    /// Resolves an import path.
    pub fn resolve(&self, import_path: &str) -> Resolution {
        let claimed = self
            .modules
            .iter()
            .filter(|(module, _)| {
                import_path
                    .strip_prefix(module.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
            })
            .max_by_key(|(module, _)| module.len());
        let Some((module, folder)) = claimed else {
            return Resolution::External {
                package: import_path.to_owned(),
            };
        };
        let rest = import_path
            .get(module.len()..)
            .unwrap_or_default()
            .trim_start_matches('/');
        join(folder, rest)
            .and_then(|package| self.package_files.get(&package).cloned())
            .map_or(Resolution::Internal, Resolution::File)
    }
}

/// The values of a `go.mod`/`go.work` directive, single-line (`module x`) or block
/// (`use ( ./a ./b )`), without comments or quotes.
fn directive_values(text: &str, directive: &str) -> Vec<String> {
    let mut values = Vec::new();
    let mut in_block = false;
    for raw_line in text.lines() {
        let line = raw_line.split("//").next().unwrap_or_default().trim();
        if in_block {
            if line.starts_with(')') {
                in_block = false;
            } else if !line.is_empty() {
                values.push(line.trim_matches('"').to_owned());
            }
            continue;
        }
        let Some(rest) = line.strip_prefix(directive) else {
            continue;
        };
        if !rest.starts_with([' ', '\t', '(']) {
            continue;
        }
        let rest = rest.trim();
        if rest == "(" {
            in_block = true;
        } else if !rest.is_empty() {
            values.push(rest.trim_matches('"').to_owned());
        }
    }
    values
}
