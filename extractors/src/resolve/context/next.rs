//! Next.js applications: the folders whose files Next routes by their place on disk
//! (`app/**/route.ts`, `pages/api/**`).
//!
//! A folder is a Next application when its `package.json` lists `next` among its dependencies
//! (`dependencies`, `devDependencies` or `peerDependencies`) or it holds a `next.config.*`. A
//! file belongs to the application of the nearest such folder above it, unless a nearer
//! `package.json` without `next` comes first (another package of a monorepo).

use std::collections::BTreeSet;

use serde_json::Value;

use super::jsonc;
use super::paths::{ancestors, file_name, parent_dir};
use super::read::ConfigReader;

/// `next.config.*` file names.
const CONFIG_NAMES: [&str; 5] = [
    "next.config.js",
    "next.config.mjs",
    "next.config.cjs",
    "next.config.ts",
    "next.config.mts",
];

/// The Next applications of a project.
#[derive(Debug, Default)]
pub(crate) struct NextApps {
    /// Folders that are Next applications.
    roots: BTreeSet<String>,
    /// Folders with a `package.json`.
    packages: BTreeSet<String>,
}

impl NextApps {
    /// Finds the applications among `files` (outside `node_modules`).
    pub fn discover<'f>(reader: &ConfigReader<'_>, files: impl Iterator<Item = &'f str>) -> Self {
        let mut apps = NextApps::default();
        for path in files.filter(|path| !path.split('/').any(|segment| segment == "node_modules")) {
            let name = file_name(path);
            let folder = parent_dir(path).to_owned();
            if CONFIG_NAMES.contains(&name) {
                // Read only so that it is listed among the configuration files (change detection).
                drop(reader.read(path));
                apps.roots.insert(folder);
            } else if name == "package.json" {
                let depends = reader
                    .read(path)
                    .as_deref()
                    .and_then(jsonc::parse)
                    .is_some_and(|manifest| depends_on_next(&manifest));
                if depends {
                    apps.roots.insert(folder.clone());
                }
                apps.packages.insert(folder);
            }
        }
        apps
    }

    /// The folder of the Next application `file` belongs to.
    pub fn root_of(&self, file: &str) -> Option<&str> {
        for folder in ancestors(file) {
            if let Some(root) = self.roots.get(folder) {
                return Some(root.as_str());
            }
            if self.packages.contains(folder) {
                return None;
            }
        }
        None
    }
}

fn depends_on_next(manifest: &Value) -> bool {
    ["dependencies", "devDependencies", "peerDependencies"]
        .into_iter()
        .filter_map(|section| manifest.get(section))
        .any(|section| section.get("next").is_some())
}

#[cfg(test)]
mod tests {
    use super::NextApps;
    use crate::resolve::context::read::ConfigReader;

    #[test]
    fn the_nearest_package_decides() {
        let reader = ConfigReader::from_source(|path| match path {
            "web/package.json" => Some(r#"{"dependencies": {"next": "14.0.0"}}"#.to_owned()),
            "api/package.json" => Some(r#"{"dependencies": {"express": "4"}}"#.to_owned()),
            _ => None,
        });
        let files = [
            "web/package.json",
            "api/package.json",
            "docs/next.config.mjs",
        ];
        let apps = NextApps::discover(&reader, files.into_iter());
        assert_eq!(apps.root_of("web/app/api/route.ts"), Some("web"));
        assert_eq!(apps.root_of("api/app/route.ts"), None);
        assert_eq!(apps.root_of("docs/pages/api/x.ts"), Some("docs"));
        assert_eq!(apps.root_of("app/route.ts"), None);
    }
}
