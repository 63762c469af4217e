//! Swift modules: SwiftPM targets declared in `Package.swift` (`.target(name: "X", path: …)`,
//! with the default folder `Sources/X`, or `Tests/X` for a test target), else a folder named like
//! the module. A module stands for its first `.swift` file in bytewise order of the path.

use std::collections::BTreeMap;

use super::paths::{file_name, is_within, join, parent_dir};
use super::read::ConfigReader;
use super::Resolution;
use crate::lang::SWIFT;
use crate::syntax;

/// The Swift modules of the project.
#[derive(Debug, Default)]
pub(crate) struct SwiftModules {
    /// Module name → its first file and its folder, from `Package.swift` targets.
    targets: BTreeMap<String, (String, String)>,
    /// Folder name → the first `.swift` file under the bytewise-first folder of that name, and
    /// that folder.
    folders: BTreeMap<String, (String, String)>,
}

impl SwiftModules {
    /// Reads every `Package.swift` among `files` and indexes the `.swift` folders.
    pub fn discover<'f>(reader: &ConfigReader<'_>, files: impl Iterator<Item = &'f str>) -> Self {
        let mut modules = Self::default();
        let mut swift_files: Vec<&str> = Vec::new();
        let mut manifests = Vec::new();
        for path in files {
            if file_name(path) == "Package.swift" {
                manifests.push(path);
            } else if path.ends_with(".swift") {
                swift_files.push(path);
            }
        }
        swift_files.sort_unstable();
        let first_under = |folder: &str| {
            swift_files
                .iter()
                .find(|file| is_within(file, folder))
                .map(|file| (*file).to_owned())
        };
        for manifest in manifests {
            let Some(text) = reader.read(manifest) else {
                continue;
            };
            let Some(backend) = SWIFT.tree_sitter() else {
                continue;
            };
            let Some(tree) = syntax::parse(backend.grammar, &text) else {
                continue;
            };
            let package_folder = parent_dir(manifest);
            for target in crate::lang::swift::package_targets(&tree, &text) {
                let default_folder = if target.is_test {
                    format!("Tests/{}", target.name)
                } else {
                    format!("Sources/{}", target.name)
                };
                let folder = join(
                    package_folder,
                    target.path.as_deref().unwrap_or(&default_folder),
                );
                if let Some(folder) = folder {
                    if let Some(first) = first_under(&folder) {
                        modules
                            .targets
                            .entry(target.name)
                            .or_insert((first, folder));
                    }
                }
            }
        }
        for file in &swift_files {
            let mut folder = parent_dir(file);
            while !folder.is_empty() {
                modules
                    .folders
                    .entry(file_name(folder).to_owned())
                    .or_insert_with(|| ((*file).to_owned(), folder.to_owned()));
                folder = parent_dir(folder);
            }
        }
        modules
    }

    /// Resolves `import Module`.
    pub fn resolve(&self, module: &str) -> Resolution {
        self.targets
            .get(module)
            .or_else(|| self.folders.get(module))
            .map_or_else(
                || Resolution::External {
                    package: module.to_owned(),
                },
                |(file, _)| Resolution::File(file.clone()),
            )
    }

    /// The folder of a project module: every `.swift` file below it belongs to the module.
    pub fn folder(&self, module: &str) -> Option<&str> {
        self.targets
            .get(module)
            .or_else(|| self.folders.get(module))
            .map(|(_, folder)| folder.as_str())
    }
}
