//! Workspace packages: every `package.json` with a `name` maps that name to its folder, so that
//! `import { db } from '@acme/db'` resolves to a file of the monorepo instead of an external
//! package.
//!
//! For each package this module records where its entry might be, in preference order:
//! the `exports` root (conditions `source`, `types`, `import`, `module`, `default`, `require`,
//! then any other), `source`, `types`/`typings`, `module`, `main`. The `exports` subpaths
//! (`"./schema"`, `"./*"`) are kept for subpath imports. A `require()` takes the `require`
//! condition before `import` and `module`, so each list is kept for both kinds of request.
//! Turning candidates into files (with extension probing and the `dist/` → `src/` fallback) is
//! the resolver's job.
//!
//! A member is not what every importer finds by its name: a manifest that declares the name
//! with a version range the member's `version` does not satisfy gets the registry's package,
//! as every package manager installs it (see [`WorkspacePackage::links_for`]).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::jsonc;
use super::paths::{join, parent_dir};
use super::read::ConfigReader;
use super::semver;

/// Export conditions in the order lintel prefers them for an `import`: source files first.
const IMPORT_CONDITIONS: [&str; 9] = [
    "source", "types", "typings", "import", "module", "default", "require", "node", "browser",
];

/// Export conditions in the order lintel prefers them for a `require()`.
const REQUIRE_CONDITIONS: [&str; 9] = [
    "source", "types", "typings", "require", "default", "node", "module", "import", "browser",
];

/// How a module is requested, which decides the `exports`/`imports` conditions that apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Request {
    /// `import`, `export … from`, `import()`.
    Import,
    /// `require()`, `import x = require()`.
    Require,
}

impl Request {
    fn conditions(self) -> &'static [&'static str; 9] {
        match self {
            Self::Import => &IMPORT_CONDITIONS,
            Self::Require => &REQUIRE_CONDITIONS,
        }
    }
}

/// A package's entry candidates and `exports` subpaths for one kind of request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Exports {
    /// Project-relative entry candidates, best first.
    pub entries: Vec<String>,
    /// `exports` subpaths: the key without `./` (possibly with one `*`) and its project-relative
    /// targets, best first.
    pub subpaths: Vec<(String, Vec<String>)>,
}

/// Manifest fields that name an entry file, in preference order (after `exports`).
const ENTRY_FIELDS: [&str; 5] = ["source", "types", "typings", "module", "main"];

/// One package of the workspace.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct WorkspacePackage {
    /// The project-relative folder holding its `package.json`.
    pub folder: String,
    /// What an `import` finds.
    pub import: Exports,
    /// What a `require()` finds.
    pub require: Exports,
    /// The folders whose `package.json` declares a dependency on this package's name, each
    /// with whether a package manager links this member there: not when the declared range
    /// does not allow the member's `version` (`"dayjs": "^1.11.13"` beside a member `dayjs` at
    /// `0.0.0` installs the registry's `dayjs`).
    pub declared: BTreeMap<String, bool>,
}

impl WorkspacePackage {
    /// Whether an import in `importer` (a project-relative file) finds this member: the nearest
    /// folder at or above the importer's whose `package.json` declares the name decides, as
    /// Node finds the package in the nearest `node_modules` that holds it; an importer that no
    /// manifest above declares it for finds the member, as a hoisted workspace link.
    pub fn links_for(&self, importer: &str) -> bool {
        super::paths::ancestors(importer)
            .find_map(|folder| self.declared.get(folder).copied())
            .unwrap_or(true)
    }

    /// The entries and subpaths for one kind of request.
    pub fn exports(&self, request: Request) -> &Exports {
        match request {
            Request::Import => &self.import,
            Request::Require => &self.require,
        }
    }
}

/// The `imports` map (`"#internal/*": "./src/internal/*.ts"`) of one `package.json`, named or
/// not: it applies to every file below its folder.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ImportMap {
    /// The project-relative folder holding the `package.json`.
    pub folder: String,
    /// Keys (with their `#`, possibly with one `*`) and project-relative targets, best first,
    /// for an `import`. Targets that name another package (not `./…`) are left out.
    pub entries: Vec<(String, Vec<String>)>,
    /// The same for a `require()`.
    pub require_entries: Vec<(String, Vec<String>)>,
}

impl ImportMap {
    /// The keys and targets for one kind of request.
    pub fn entries(&self, request: Request) -> &[(String, Vec<String>)] {
        match request {
            Request::Import => &self.entries,
            Request::Require => &self.require_entries,
        }
    }
}

/// Reads the `imports` map of every `package.json` outside `node_modules`, deepest folder first.
pub(crate) fn discover_import_maps<'f>(
    reader: &ConfigReader<'_>,
    files: impl Iterator<Item = &'f str>,
) -> Vec<ImportMap> {
    let mut maps: Vec<ImportMap> = files
        .filter(|path| super::paths::file_name(path) == "package.json")
        .filter(|path| !path.split('/').any(|segment| segment == "node_modules"))
        .filter_map(|manifest_path| {
            let manifest = reader
                .read(manifest_path)
                .as_deref()
                .and_then(jsonc::parse)?;
            let Some(Value::Object(imports)) = manifest.get("imports") else {
                return None;
            };
            let folder = parent_dir(manifest_path).to_owned();
            let entries = |request: Request| {
                imports
                    .iter()
                    .filter(|(key, _)| key.starts_with('#'))
                    .map(|(key, value)| {
                        let targets = condition_targets(value, request)
                            .into_iter()
                            .filter(|target| target.starts_with("./"))
                            .filter_map(|target| join(&folder, &target))
                            .collect();
                        (key.clone(), targets)
                    })
                    .collect()
            };
            Some(ImportMap {
                entries: entries(Request::Import),
                require_entries: entries(Request::Require),
                folder,
            })
        })
        .collect();
    maps.sort_by(|a, b| {
        b.folder
            .matches('/')
            .count()
            .cmp(&a.folder.matches('/').count())
            .then(b.folder.len().cmp(&a.folder.len()))
            .then(a.folder.cmp(&b.folder))
    });
    maps
}

/// The entry fields (`source`, `types`, `typings`, `module`, `main`, in that order) of every
/// `package.json` outside `node_modules`, project-relative, by folder: what an import of the
/// folder itself finds before its `index` file. `exports` does not apply to such imports.
pub(crate) fn discover_folder_entries<'f>(
    reader: &ConfigReader<'_>,
    files: impl Iterator<Item = &'f str>,
) -> BTreeMap<String, Vec<String>> {
    files
        .filter(|path| super::paths::file_name(path) == "package.json")
        .filter(|path| !path.split('/').any(|segment| segment == "node_modules"))
        .filter_map(|manifest_path| {
            let manifest = reader
                .read(manifest_path)
                .as_deref()
                .and_then(jsonc::parse)?;
            let folder = parent_dir(manifest_path).to_owned();
            let entries: Vec<String> = ENTRY_FIELDS
                .iter()
                .filter_map(|field| manifest.get(*field).and_then(Value::as_str))
                .filter_map(|entry| join(&folder, entry))
                .filter(|entry| *entry != folder)
                .collect();
            (!entries.is_empty()).then_some((folder, entries))
        })
        .collect()
}

/// Reads every `package.json` outside `node_modules`; the shallowest folder wins a name clash.
/// A workspace's root manifest (one with `workspaces`, or beside a `pnpm-workspace.yaml`) is
/// no package unless it has `exports`: package managers link the members, never the root, and
/// Node finds a package's own name only through its `exports`. Its name is the registry's
/// package of that name (langfuse's root is `langfuse`, and its apps import the `langfuse` SDK).
pub(crate) fn discover<'f>(
    reader: &ConfigReader<'_>,
    files: impl Iterator<Item = &'f str>,
) -> BTreeMap<String, WorkspacePackage> {
    let files: Vec<&str> = files
        .filter(|path| !path.split('/').any(|segment| segment == "node_modules"))
        .collect();
    let pnpm_roots: std::collections::BTreeSet<&str> = files
        .iter()
        .filter(|path| super::paths::file_name(path) == "pnpm-workspace.yaml")
        .map(|path| parent_dir(path))
        .collect();
    let mut manifest_paths: Vec<&str> = files
        .into_iter()
        .filter(|path| super::paths::file_name(path) == "package.json")
        .collect();
    manifest_paths.sort_by_key(|path| (path.matches('/').count(), *path));
    let manifests: Vec<(&str, Value)> = manifest_paths
        .into_iter()
        .filter_map(|path| Some((path, reader.read(path).as_deref().and_then(jsonc::parse)?)))
        .collect();
    let mut packages = BTreeMap::new();
    let mut versions = BTreeMap::new();
    for (manifest_path, manifest) in &manifests {
        let manifest_path = *manifest_path;
        let Some(name) = manifest.get("name").and_then(Value::as_str) else {
            continue;
        };
        if name.is_empty() || packages.contains_key(name) {
            continue;
        }
        let is_workspace_root =
            manifest.get("workspaces").is_some() || pnpm_roots.contains(parent_dir(manifest_path));
        if is_workspace_root && manifest.get("exports").is_none() {
            continue;
        }
        let folder = parent_dir(manifest_path).to_owned();
        let package = WorkspacePackage {
            import: read_exports(manifest, &folder, Request::Import),
            require: read_exports(manifest, &folder, Request::Require),
            folder,
            declared: BTreeMap::new(),
        };
        if let Some(version) = manifest.get("version").and_then(Value::as_str) {
            versions.insert(name.to_owned(), version.to_owned());
        }
        packages.insert(name.to_owned(), package);
    }
    for (manifest_path, manifest) in &manifests {
        for (name, spec) in declared_dependencies(manifest) {
            let Some(package) = packages.get_mut(name) else {
                continue;
            };
            let links = versions
                .get(name)
                .and_then(|version| semver::allows(spec, version))
                .unwrap_or(true);
            package
                .declared
                .insert(parent_dir(manifest_path).to_owned(), links);
        }
    }
    packages
}

/// The manifest fields that declare dependencies, in the order a package manager installs them
/// (a name in several keeps its first).
const DEPENDENCY_FIELDS: [&str; 4] = [
    "dependencies",
    "devDependencies",
    "optionalDependencies",
    "peerDependencies",
];

/// The names a manifest declares as dependencies, each with its first declared spec.
fn declared_dependencies(manifest: &Value) -> BTreeMap<&str, &str> {
    let mut declared = BTreeMap::new();
    for field in DEPENDENCY_FIELDS {
        let Some(Value::Object(dependencies)) = manifest.get(field) else {
            continue;
        };
        for (name, spec) in dependencies {
            if let Some(spec) = spec.as_str() {
                declared.entry(name.as_str()).or_insert(spec);
            }
        }
    }
    declared
}

fn read_exports(manifest: &Value, folder: &str, request: Request) -> Exports {
    let mut root_targets = Vec::new();
    let mut subpaths = Vec::new();
    match manifest.get("exports") {
        Some(Value::Object(map)) if map.keys().any(|key| key.starts_with('.')) => {
            for (key, value) in map {
                let targets = condition_targets(value, request);
                if key == "." {
                    root_targets = targets;
                } else if let Some(subpath) = key.strip_prefix("./") {
                    subpaths.push((subpath.to_owned(), targets));
                }
            }
        }
        Some(value) => root_targets = condition_targets(value, request),
        None => {}
    }
    root_targets.extend(
        ENTRY_FIELDS
            .iter()
            .filter_map(|field| manifest.get(*field).and_then(Value::as_str))
            .map(str::to_owned),
    );
    let in_folder = |targets: Vec<String>| -> Vec<String> {
        let mut joined: Vec<String> = Vec::new();
        for target in targets {
            if let Some(path) = join(folder, &target) {
                if !joined.contains(&path) {
                    joined.push(path);
                }
            }
        }
        joined
    };
    Exports {
        entries: in_folder(root_targets),
        subpaths: subpaths
            .into_iter()
            .map(|(key, targets)| (key, in_folder(targets)))
            .collect(),
    }
}

/// The file targets of an `exports` value (a string, an array of fallbacks, or conditions),
/// preferred conditions first.
fn condition_targets(value: &Value, request: Request) -> Vec<String> {
    let mut targets = Vec::new();
    collect_targets(value, request, &mut targets, 0);
    targets
}

fn collect_targets(value: &Value, request: Request, targets: &mut Vec<String>, depth: usize) {
    if depth > 8 {
        return;
    }
    match value {
        Value::String(target) => targets.push(target.clone()),
        Value::Array(fallbacks) => {
            for fallback in fallbacks {
                collect_targets(fallback, request, targets, depth + 1);
            }
        }
        Value::Object(conditions) => {
            for condition in ordered_conditions(conditions, request) {
                collect_targets(condition, request, targets, depth + 1);
            }
        }
        _ => {}
    }
}

fn ordered_conditions(conditions: &Map<String, Value>, request: Request) -> Vec<&Value> {
    let preference = request.conditions();
    let preferred = preference
        .iter()
        .filter_map(|condition| conditions.get(*condition));
    let others = conditions
        .iter()
        .filter(|(condition, _)| !preference.contains(&condition.as_str()))
        .map(|(_, value)| value);
    preferred.chain(others).collect()
}
