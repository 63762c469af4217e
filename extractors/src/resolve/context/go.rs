//! Go modules: `go.mod` module paths (with local `replace` directives), `go.work` `use` folders,
//! and the file that stands for each package folder.
//!
//! An import path resolves the way the go command finds the module that provides a package, in
//! the build of the importing file's module (the nearest folder above it with a `go.mod`). That
//! build sees, in the project, its own module, or every `use` module of the nearest `go.work`
//! that lists it, plus the targets of the local `replace` directives of those `go.mod` files
//! (and of the `go.work`). Every module of the view whose path is a prefix of the import path is
//! tried, longest first, and the rest of the path is a folder under the module's folder. A module
//! provides that folder only when it holds a package and no other `go.mod` lies between the two
//! (a subfolder with its own `go.mod` is another module, whatever its module path says). A
//! project module outside the view is a requirement the go command takes from the module cache
//! (or `vendor/`), not from the folder: a package only such a module provides is `External`.
//! A file in no module sees every module of the project.
//!
//! A package is a folder, but facts name files, so the package's file is its first `.go` file
//! that is not a `_test.go`, in bytewise order of the file name. It stands for the package until
//! every file is extracted: then the Go extractor's cross-file step moves the import to the
//! files that declare the names the importer uses (the files of one folder may belong to
//! different components, as a spec splits a large package by file name), and an import it
//! cannot move stays on this file, which the engine's file graph takes for the whole package. A path no module claims is
//! `External`, its package the whole import path; a path a module claims but none provides is
//! `Internal` (unresolved), or `Generated` when a `.gitignore` of the project ignores the package
//! folder it was looked for at (code a generator writes at build time, such as harbor's
//! go-swagger server and models under an ignored `src/server/v2.0/restapi/`).
//!
//! When several manifests name the same module path in one view, the first wins (the module
//! itself or the `use` folders, then `go.work` replacements, then `go.mod` ones). For a file in
//! no module, a `go.work` `use` wins, then a `go.mod` outside the folders the go command never
//! builds (`testdata`, `vendor`, names starting with `_` or `.`), then a local `replace` target,
//! then the rest; ties go to the first in path order.

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
    /// Module path → how it was found and its project-relative folder (every manifest).
    modules: BTreeMap<String, (Claim, String)>,
    /// Every folder holding a `go.mod`: module boundaries.
    module_folders: BTreeSet<String>,
    /// Package folder → its representative file.
    package_files: BTreeMap<String, String>,
    /// What the build of each module sees: module path → folder (a workspace shares one).
    views: Vec<BTreeMap<String, String>>,
    /// Module folder → its view in `views`.
    view_of_module: BTreeMap<String, usize>,
}

/// One `go.mod` as read: its folder, module path and local replacements (module path → folder).
struct Manifest {
    folder: String,
    module: Option<String>,
    replacements: Vec<(String, String)>,
}

/// One `go.work` as read: its folder, `use` folders and local replacements.
struct Workspace {
    folder: String,
    uses: Vec<String>,
    replacements: Vec<(String, String)>,
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
        let mut workspaces = Vec::new();
        let mut work_uses = BTreeSet::new();
        for work_file in &work_files {
            let Some(text) = reader.read(work_file) else {
                continue;
            };
            let folder = parent_dir(work_file);
            let mut uses = Vec::new();
            for used in directive_values(&text, "use") {
                if let Some(used) = join(folder, &used) {
                    let manifest = join(&used, "go.mod").unwrap_or_default();
                    if !module_files.contains(&manifest) {
                        module_files.push(manifest);
                    }
                    work_uses.insert(used.clone());
                    uses.push(used);
                }
            }
            workspaces.push(Workspace {
                folder: folder.to_owned(),
                uses,
                replacements: local_replacements(&text, folder),
            });
        }
        let mut manifests = Vec::new();
        for manifest in &module_files {
            let Some(text) = reader.read(manifest) else {
                continue;
            };
            let folder = parent_dir(manifest);
            let module = directive_values(&text, "module").into_iter().next();
            if let Some(module) = &module {
                let claim = if work_uses.contains(folder) {
                    Claim::WorkspaceUse
                } else if is_ignored_by_go(folder) {
                    Claim::IgnoredModule
                } else {
                    Claim::Module
                };
                index.claim(module.clone(), claim, folder);
            }
            let replacements = local_replacements(&text, folder);
            for (from, target) in &replacements {
                index.claim(from.clone(), Claim::Replacement, target);
            }
            manifests.push(Manifest {
                folder: folder.to_owned(),
                module,
                replacements,
            });
        }
        index.add_views(&manifests, &workspaces);
        index
    }

    /// Builds the view of every module: its workspace's when the nearest `go.work` above it
    /// uses it (one view per workspace), else its own.
    fn add_views(&mut self, manifests: &[Manifest], workspaces: &[Workspace]) {
        let by_folder: BTreeMap<&str, &Manifest> = manifests
            .iter()
            .map(|manifest| (manifest.folder.as_str(), manifest))
            .collect();
        let by_work_folder: BTreeMap<&str, usize> = workspaces
            .iter()
            .enumerate()
            .map(|(position, workspace)| (workspace.folder.as_str(), position))
            .collect();
        let mut workspace_views: BTreeMap<usize, usize> = BTreeMap::new();
        for manifest in manifests {
            let own_go_mod = join(&manifest.folder, "go.mod").unwrap_or_default();
            let workspace = ancestors(&own_go_mod)
                .find_map(|folder| by_work_folder.get(folder).copied())
                .filter(|position| {
                    workspaces
                        .get(*position)
                        .is_some_and(|workspace| workspace.uses.contains(&manifest.folder))
                });
            let next = self.views.len();
            let position = match workspace {
                Some(workspace) => *workspace_views.entry(workspace).or_insert_with(|| {
                    let members = workspaces
                        .get(workspace)
                        .map(|workspace| workspace_view(workspace, &by_folder))
                        .unwrap_or_default();
                    self.views.push(members);
                    next
                }),
                None => {
                    self.views.push(module_view(std::iter::once(manifest), &[]));
                    next
                }
            };
            self.view_of_module
                .insert(manifest.folder.clone(), position);
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

    /// Resolves an import path in the build of `importer`'s module; `ignored` tells whether a
    /// package folder that holds no file is one a `.gitignore` ignores.
    pub fn resolve(
        &self,
        importer: &str,
        import_path: &str,
        ignored: &dyn Fn(&str) -> bool,
    ) -> Resolution {
        let every_module = || {
            self.modules
                .iter()
                .map(|(module, (_, folder))| (module.as_str(), folder.as_str()))
        };
        let view = ancestors(importer)
            .find(|folder| self.module_folders.contains(*folder))
            .and_then(|folder| self.view_of_module.get(folder))
            .and_then(|position| self.views.get(*position));
        let Some(view) = view else {
            return self.resolve_among(every_module(), import_path, ignored);
        };
        let resolution = self.resolve_among(
            view.iter()
                .map(|(module, folder)| (module.as_str(), folder.as_str())),
            import_path,
            ignored,
        );
        if !matches!(resolution, Resolution::File(_))
            && matches!(
                self.resolve_among(every_module(), import_path, ignored),
                Resolution::File(_)
            )
        {
            // A project module this build does not see: its required version comes from the
            // module cache or `vendor/`.
            return Resolution::External {
                package: import_path.to_owned(),
            };
        }
        resolution
    }

    /// Resolves an import path among `(module path, folder)` candidates: `Generated` when no
    /// candidate folder holds the package and `ignored` says one of them is ignored.
    fn resolve_among<'m>(
        &self,
        candidates: impl Iterator<Item = (&'m str, &'m str)>,
        import_path: &str,
        ignored: &dyn Fn(&str) -> bool,
    ) -> Resolution {
        let mut claimed: Vec<(&str, &str)> = candidates
            .filter(|(module, _)| {
                import_path
                    .strip_prefix(*module)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
            })
            .collect();
        if claimed.is_empty() {
            return Resolution::External {
                package: import_path.to_owned(),
            };
        }
        claimed.sort_by_key(|(module, _)| std::cmp::Reverse(module.len()));
        let mut missing: Vec<String> = Vec::new();
        let found = claimed.into_iter().find_map(|(module, folder)| {
            let rest = import_path
                .get(module.len()..)
                .unwrap_or_default()
                .trim_start_matches('/');
            let package = join(folder, rest)?;
            if self.crosses_module_boundary(folder, &package) {
                return None;
            }
            let file = self.package_files.get(&package).cloned();
            if file.is_none() {
                missing.push(package);
            }
            file
        });
        match found {
            Some(file) => Resolution::File(file),
            None if missing.iter().any(|package| ignored(package)) => Resolution::Generated,
            None => Resolution::Internal,
        }
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

/// What the build of a workspace sees: its `use` modules, then the replacements of the
/// `go.work`, then those of each module's `go.mod` (the first claim on a module path wins).
fn workspace_view(
    workspace: &Workspace,
    by_folder: &BTreeMap<&str, &Manifest>,
) -> BTreeMap<String, String> {
    let members = workspace
        .uses
        .iter()
        .filter_map(|used| by_folder.get(used.as_str()).copied());
    module_view(members, &workspace.replacements)
}

/// The modules `members` see: themselves, then `first_replacements`, then each member's own
/// replacements, the first claim on a module path winning.
fn module_view<'m>(
    members: impl Iterator<Item = &'m Manifest> + Clone,
    first_replacements: &[(String, String)],
) -> BTreeMap<String, String> {
    let mut view = BTreeMap::new();
    for member in members.clone() {
        if let Some(module) = &member.module {
            view.entry(module.clone())
                .or_insert_with(|| member.folder.clone());
        }
    }
    let replacements = first_replacements
        .iter()
        .chain(members.flat_map(|member| member.replacements.iter()));
    for (from, target) in replacements {
        view.entry(from.clone()).or_insert_with(|| target.clone());
    }
    view
}

/// The local `replace` directives of a `go.mod` or `go.work` in `folder`: replaced module path
/// → target folder.
fn local_replacements(text: &str, folder: &str) -> Vec<(String, String)> {
    directive_values(text, "replace")
        .iter()
        .filter_map(|replacement| {
            let (from, to) = replacement.split_once("=>")?;
            let from = from.split_whitespace().next()?;
            let target = join(folder, local_replacement(to)?)?;
            Some((from.to_owned(), target))
        })
        .collect()
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
