//! Go modules: `go.mod` module paths (with local `replace` directives), `go.work` `use` folders,
//! and the file that stands for each package folder.
//!
//! An import path resolves the way the go command finds the module that provides a package:
//! every module whose path is a prefix of the import path is tried, longest first, and the rest
//! of the path is a folder under the module's folder. A module provides that folder only when it
//! holds a package and no other `go.mod` lies between the two (a subfolder with its own `go.mod`
//! is another module, whatever its module path says). A package is a folder, but facts name
//! files, so the package's file is its first `.go` file that is not a `_test.go`, in bytewise
//! order of the file name: the engine maps that file to its component, and every file of one
//! folder normally has one owner. A path no module claims is `External`, its package the whole
//! import path; a path a module claims but none provides is `Internal` (unresolved).
//!
//! When several manifests name the same module path, a `go.work` `use` wins, then a `go.mod`
//! outside the folders the go command never builds (`testdata`, `vendor`, names starting with
//! `_` or `.`), then a local `replace` target, then the rest; ties go to the first in path order.

use std::collections::{BTreeMap, BTreeSet};

use super::paths::{ancestors, file_name, is_within, join, parent_dir};
use super::read::ConfigReader;
use super::Resolution;

/// How a module's folder was found, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Claim {
    /// A `go.work` `use` folder's `go.mod`.
    WorkspaceUse,
    /// A `go.mod` in a folder the go command builds.
    Module,
    /// The target of a local `replace` directive.
    Replacement,
    /// A `go.mod` under `testdata`, `vendor` or a folder starting with `_` or `.`.
    IgnoredModule,
}

/// The Go modules of the project.
#[derive(Debug, Default)]
pub(crate) struct GoModules {
    /// Module path → how it was found and its project-relative folder.
    modules: BTreeMap<String, (Claim, String)>,
    /// Every folder holding a `go.mod`: module boundaries.
    module_folders: BTreeSet<String>,
    /// Package folder → its representative file.
    package_files: BTreeMap<String, String>,
}

impl GoModules {
    /// Reads every `go.mod` and `go.work` among `files` and indexes the `.go` files.
    pub fn discover<'f>(reader: &ConfigReader<'_>, files: impl Iterator<Item = &'f str>) -> Self {
        let mut index = Self::default();
        let mut module_files = Vec::new();
        let mut work_files = Vec::new();
        for path in files {
            let name = file_name(path);
            if name == "go.mod" {
                module_files.push(path.to_owned());
                index.module_folders.insert(parent_dir(path).to_owned());
            } else if name == "go.work" {
                work_files.push(path.to_owned());
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
        let mut work_uses = BTreeSet::new();
        for work_file in &work_files {
            let Some(text) = reader.read(work_file) else {
                continue;
            };
            let folder = parent_dir(work_file);
            for used in directive_values(&text, "use") {
                if let Some(used) = join(folder, &used) {
                    let manifest = join(&used, "go.mod").unwrap_or_default();
                    if !module_files.contains(&manifest) {
                        module_files.push(manifest);
                    }
                    work_uses.insert(used);
                }
            }
        }
        for manifest in &module_files {
            let Some(text) = reader.read(manifest) else {
                continue;
            };
            let folder = parent_dir(manifest);
            if let Some(module) = directive_values(&text, "module").into_iter().next() {
                let claim = if work_uses.contains(folder) {
                    Claim::WorkspaceUse
                } else if is_ignored_by_go(folder) {
                    Claim::IgnoredModule
                } else {
                    Claim::Module
                };
                index.claim(module, claim, folder);
            }
            index.add_replacements(&text, folder);
        }
        index
    }

    /// Records the local `replace` directives of the `go.mod` in `folder`.
    fn add_replacements(&mut self, text: &str, folder: &str) {
        for replacement in directive_values(text, "replace") {
            let Some((from, to)) = replacement.split_once("=>") else {
                continue;
            };
            let Some(from) = from.split_whitespace().next() else {
                continue;
            };
            if let Some(target) = local_replacement(to).and_then(|to| join(folder, to)) {
                self.claim(from.to_owned(), Claim::Replacement, &target);
            }
        }
    }

    /// Keeps the better of two claims on a module path (the first one on a tie).
    fn claim(&mut self, module: String, claim: Claim, folder: &str) {
        let slot = self
            .modules
            .entry(module)
            .or_insert_with(|| (claim, folder.to_owned()));
        if claim < slot.0 {
            *slot = (claim, folder.to_owned());
        }
    }

    /// Resolves an import path.
    pub fn resolve(&self, import_path: &str) -> Resolution {
        let mut claimed: Vec<(&String, &String)> = self
            .modules
            .iter()
            .filter(|(module, _)| {
                import_path
                    .strip_prefix(module.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
            })
            .map(|(module, (_, folder))| (module, folder))
            .collect();
        if claimed.is_empty() {
            return Resolution::External {
                package: import_path.to_owned(),
            };
        }
        claimed.sort_by_key(|(module, _)| std::cmp::Reverse(module.len()));
        claimed
            .into_iter()
            .find_map(|(module, folder)| {
                let rest = import_path
                    .get(module.len()..)
                    .unwrap_or_default()
                    .trim_start_matches('/');
                let package = join(folder, rest)?;
                if self.crosses_module_boundary(folder, &package) {
                    return None;
                }
                self.package_files.get(&package).cloned()
            })
            .map_or(Resolution::Internal, Resolution::File)
    }

    /// Whether a `go.mod` lies below `module_folder`, at or above `package`: then the package
    /// belongs to that nested module, not to the one in `module_folder`.
    fn crosses_module_boundary(&self, module_folder: &str, package: &str) -> bool {
        if package == module_folder || !is_within(package, module_folder) {
            return false;
        }
        std::iter::once(package)
            .chain(ancestors(package))
            .take_while(|folder| *folder != module_folder)
            .any(|folder| self.module_folders.contains(folder))
    }
}

/// The folder of a local `replace` target (`./x`, `../x`, `.`, `..`), `None` for a module
/// version or an absolute path.
fn local_replacement(target: &str) -> Option<&str> {
    let target = target.trim().trim_matches('"');
    let is_local =
        matches!(target, "." | "..") || target.starts_with("./") || target.starts_with("../");
    is_local.then_some(target)
}

/// Whether the go command skips `folder` when it lists packages: a `testdata` or `vendor`
/// segment, or one starting with `_` or `.`.
fn is_ignored_by_go(folder: &str) -> bool {
    folder.split('/').any(|segment| {
        segment == "testdata"
            || segment == "vendor"
            || segment.starts_with('_')
            || (segment.starts_with('.') && segment != "." && segment != "..")
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_are_read_in_line_and_block_form() {
        let text = "module \"example.com/m\" // the module\n\nreplace (\n\texample.com/a v1.0.0 => ../a\n\texample.com/b => example.com/c v1.2.0\n)\nreplace example.com/d => ..\n";
        assert_eq!(directive_values(text, "module"), ["example.com/m"]);
        assert_eq!(
            directive_values(text, "replace"),
            [
                "example.com/a v1.0.0 => ../a",
                "example.com/b => example.com/c v1.2.0",
                "example.com/d => .."
            ]
        );
    }

    #[test]
    fn only_folder_replacements_are_local() {
        assert_eq!(local_replacement(" ../a"), Some("../a"));
        assert_eq!(local_replacement(" .."), Some(".."));
        assert_eq!(local_replacement("."), Some("."));
        assert_eq!(local_replacement("./lib"), Some("./lib"));
        assert_eq!(local_replacement(" example.com/c v1.2.0"), None);
        assert_eq!(local_replacement("/abs/path"), None);
        assert_eq!(local_replacement(".hidden"), None);
    }

    #[test]
    fn folders_the_go_command_skips() {
        assert!(is_ignored_by_go("pkg/testdata/mod"));
        assert!(is_ignored_by_go("vendor/example.com/x"));
        assert!(is_ignored_by_go("_examples"));
        assert!(is_ignored_by_go("tools/.cache"));
        assert!(!is_ignored_by_go(""));
        assert!(!is_ignored_by_go("internal/data_test"));
    }
}
