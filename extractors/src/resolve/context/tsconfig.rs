//! `tsconfig.json` / `jsconfig.json`: the `baseUrl` and `paths` a file's imports resolve with.
//!
//! Each config is read with its `extends` chain (relative paths, a string or an array; later
//! entries and the config itself override earlier ones), the way TypeScript merges
//! `compilerOptions`: `baseUrl` is relative to the config that sets it, and `paths` targets are
//! relative to the effective `baseUrl`, else to the config that sets `paths`. A "solution" config
//! with neither option borrows them from the first of its `references` that has them.
//! A package `extends` is followed when the package is one of the workspace's
//! (`@acme/tsconfig/base.json`, or its `tsconfig.json` for the bare name); others
//! (`@tsconfig/node20`) live in `node_modules` and never set `paths`. `${configDir}` at the start
//! of `baseUrl` or a `paths` target stands for the folder of the config in use, not of the one
//! that sets it (TypeScript 5.5).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde_json::Value;

use super::jsonc;
use super::paths::{join, parent_dir};
use super::read::ConfigReader;

/// The template TypeScript replaces by the folder of the config in use.
const CONFIG_DIR: &str = "${configDir}";

/// How deep `extends` and `references` chains are followed (cycles stop here too).
const MAX_DEPTH: usize = 16;

/// The file names that configure resolution for the files below them, in precedence order.
pub(crate) const CONFIG_NAMES: [&str; 2] = ["tsconfig.json", "jsconfig.json"];

/// One `paths` entry: a pattern with at most one `*`, and its targets (project-relative).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PathMapping {
    /// The pattern text before `*` (the whole pattern when it has none).
    pub prefix: String,
    /// The pattern text after `*`.
    pub suffix: String,
    /// Whether the pattern has a `*`.
    pub has_wildcard: bool,
    /// Project-relative targets, each with at most one `*`.
    pub targets: Vec<String>,
}

impl PathMapping {
    /// The text `*` stands for when the pattern matches `specifier`.
    pub fn capture<'s>(&self, specifier: &'s str) -> Option<&'s str> {
        if !self.has_wildcard {
            return (specifier == self.prefix).then_some("");
        }
        let rest = specifier.strip_prefix(self.prefix.as_str())?;
        if rest.len() < self.suffix.len() {
            return None;
        }
        rest.strip_suffix(self.suffix.as_str())
    }

    /// Whether the pattern is the catch-all `*`, which says nothing about a specifier being internal.
    pub fn is_catch_all(&self) -> bool {
        self.has_wildcard && self.prefix.is_empty() && self.suffix.is_empty()
    }
}

/// The effective resolution options of one config.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct CompilerPaths {
    /// The project-relative `baseUrl` directory.
    pub base_url: Option<String>,
    /// The `paths` entries in declaration order.
    pub paths: Vec<PathMapping>,
    /// Whether the compiler keeps import statements it would otherwise elide
    /// (`verbatimModuleSyntax`, or the older `preserveValueImports` and
    /// `importsNotUsedAsValues: preserve|error`); `None` when no config in the chain says.
    pub preserves_imports: Option<bool>,
    /// `strictNullChecks`, else `strict`; `None` when no config in the chain says.
    pub strict_null_checks: Option<bool>,
    /// The project-relative `outDir` and `rootDir` the compiler builds into and from, when the
    /// chain sets both (`dist` from `lib`): a package entry in `dist/` comes from `lib/`.
    pub output: Option<(String, String)>,
}

impl CompilerPaths {
    /// The entry TypeScript would pick for a specifier: an exact pattern, else the matching
    /// wildcard pattern with the longest prefix; with the text its `*` stands for.
    pub fn best_match<'s>(&self, specifier: &'s str) -> Option<(&PathMapping, &'s str)> {
        let mut best: Option<(&PathMapping, &'s str)> = None;
        for mapping in &self.paths {
            let Some(captured) = mapping.capture(specifier) else {
                continue;
            };
            if !mapping.has_wildcard {
                return Some((mapping, captured));
            }
            if best.is_none_or(|(current, _)| mapping.prefix.len() > current.prefix.len()) {
                best = Some((mapping, captured));
            }
        }
        best
    }
}

/// `paths` patterns with their unresolved targets, in declaration order.
type PathEntries = Vec<(String, Vec<String>)>;

/// `compilerOptions` as one config and its `extends` chain set them.
#[derive(Debug, Clone, Default)]
struct RawOptions {
    base_url: Option<String>,
    preserves_imports: Option<bool>,
    /// `strictNullChecks` and `strict`, merged each on its own as TypeScript does.
    strict_null_checks: Option<bool>,
    strict: Option<bool>,
    /// `outDir` and `rootDir`, each relative to the config that sets it (or `${configDir}`…).
    out_dir: Option<String>,
    root_dir: Option<String>,
    /// The `paths` object and the directory of the config that set it.
    paths: Option<(PathEntries, String)>,
    references: Vec<String>,
}

/// Loads configs, caching each file's merged options.
pub(crate) struct ConfigLoader<'a> {
    reader: &'a ConfigReader<'a>,
    /// Workspace package folders by name, for package `extends`.
    package_folders: BTreeMap<String, String>,
    cache: HashMap<String, RawOptions>,
}

impl<'a> ConfigLoader<'a> {
    /// A loader reading through `reader`; `package_folders` maps workspace package names to
    /// their folders.
    pub fn new(reader: &'a ConfigReader<'a>, package_folders: BTreeMap<String, String>) -> Self {
        Self {
            reader,
            package_folders,
            cache: HashMap::new(),
        }
    }

    /// The effective options of every config in `config_files`, keyed by its directory; where one
    /// directory has both, `tsconfig.json` wins over `jsconfig.json`.
    pub fn load_all<'f>(
        &mut self,
        config_files: impl Iterator<Item = &'f str>,
    ) -> BTreeMap<String, Arc<CompilerPaths>> {
        let mut by_directory: BTreeMap<String, (usize, Arc<CompilerPaths>)> = BTreeMap::new();
        for path in config_files {
            let name = super::paths::file_name(path);
            let Some(rank) = CONFIG_NAMES.iter().position(|known| *known == name) else {
                continue;
            };
            let directory = parent_dir(path).to_owned();
            if by_directory
                .get(&directory)
                .is_some_and(|(existing, _)| *existing <= rank)
            {
                continue;
            }
            let options = self.effective(path, 0);
            by_directory.insert(directory, (rank, Arc::new(options)));
        }
        by_directory
            .into_iter()
            .map(|(directory, (_, options))| (directory, options))
            .collect()
    }

    fn effective(&mut self, path: &str, depth: usize) -> CompilerPaths {
        let raw = self.raw(path, 0);
        let mut options = finish(&raw, parent_dir(path));
        if depth >= MAX_DEPTH {
            return options;
        }
        // A solution config (`files: []` with `references`, as Vite's templates have) leaves
        // the compiler options to the configs it references.
        if options.preserves_imports.is_none() {
            options.preserves_imports = raw
                .references
                .iter()
                .find_map(|reference| self.effective(reference, depth + 1).preserves_imports);
        }
        if options.strict_null_checks.is_none() {
            options.strict_null_checks = raw
                .references
                .iter()
                .find_map(|reference| self.effective(reference, depth + 1).strict_null_checks);
        }
        if options.base_url.is_some() || !options.paths.is_empty() {
            return options;
        }
        let (preserves_imports, strict_null_checks, output) = (
            options.preserves_imports,
            options.strict_null_checks,
            options.output.clone(),
        );
        raw.references
            .iter()
            .map(|reference| self.effective(reference, depth + 1))
            .find(|referenced| referenced.base_url.is_some() || !referenced.paths.is_empty())
            .map(|mut referenced| {
                referenced.preserves_imports = referenced.preserves_imports.or(preserves_imports);
                referenced.strict_null_checks =
                    referenced.strict_null_checks.or(strict_null_checks);
                referenced.output = output.or(referenced.output);
                referenced
            })
            .unwrap_or(options)
    }

    fn raw(&mut self, path: &str, depth: usize) -> RawOptions {
        if let Some(cached) = self.cache.get(path) {
            return cached.clone();
        }
        // Mark the file as in progress so an `extends` cycle reads it as empty.
        self.cache.insert(path.to_owned(), RawOptions::default());
        let options = self.read_uncached(path, depth);
        self.cache.insert(path.to_owned(), options.clone());
        options
    }

    fn read_uncached(&mut self, path: &str, depth: usize) -> RawOptions {
        let Some(config) = self.reader.read(path).as_deref().and_then(jsonc::parse) else {
            return RawOptions::default();
        };
        let directory = parent_dir(path);
        let mut merged = RawOptions::default();
        if depth < MAX_DEPTH {
            for parent in extends_list(&config) {
                let Some(parent_path) = self.resolve_extends(directory, parent) else {
                    continue;
                };
                let parent_options = self.raw(&parent_path, depth + 1);
                merged.base_url = parent_options.base_url.or(merged.base_url);
                merged.preserves_imports = parent_options
                    .preserves_imports
                    .or(merged.preserves_imports);
                merged.strict_null_checks = parent_options
                    .strict_null_checks
                    .or(merged.strict_null_checks);
                merged.strict = parent_options.strict.or(merged.strict);
                merged.out_dir = parent_options.out_dir.or(merged.out_dir);
                merged.root_dir = parent_options.root_dir.or(merged.root_dir);
                merged.paths = parent_options.paths.or(merged.paths);
            }
        }
        let compiler_options = config.get("compilerOptions");
        if let Some(preserves) = compiler_options.and_then(preserves_imports) {
            merged.preserves_imports = Some(preserves);
        }
        let flag = |name: &str| {
            compiler_options
                .and_then(|options| options.get(name))
                .and_then(Value::as_bool)
        };
        if let Some(strict_null_checks) = flag("strictNullChecks") {
            merged.strict_null_checks = Some(strict_null_checks);
        }
        if let Some(strict) = flag("strict") {
            merged.strict = Some(strict);
        }
        let directory_option = |name: &str| {
            let value = compiler_options?.get(name)?.as_str()?;
            // `${configDir}` is resolved when the config in use is known (`finish`).
            match value.starts_with(CONFIG_DIR) {
                true => Some(value.to_owned()),
                false => join(directory, value),
            }
        };
        if let Some(out_dir) = directory_option("outDir") {
            merged.out_dir = Some(out_dir);
        }
        if let Some(root_dir) = directory_option("rootDir") {
            merged.root_dir = Some(root_dir);
        }
        if let Some(base_url) = compiler_options
            .and_then(|options| options.get("baseUrl"))
            .and_then(Value::as_str)
        {
            // `${configDir}` is resolved when the config in use is known (`finish`).
            merged.base_url = if base_url.starts_with(CONFIG_DIR) {
                Some(base_url.to_owned())
            } else {
                join(directory, base_url)
            };
        }
        if let Some(Value::Object(entries)) =
            compiler_options.and_then(|options| options.get("paths"))
        {
            let paths = entries
                .iter()
                .map(|(pattern, targets)| (pattern.clone(), string_list(targets)))
                .collect();
            merged.paths = Some((paths, directory.to_owned()));
        }
        merged.references = config
            .get("references")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|reference| reference.get("path").and_then(Value::as_str))
            .filter_map(|reference| join(directory, reference))
            .map(|reference| {
                if reference.ends_with(".json") {
                    reference
                } else {
                    join(&reference, "tsconfig.json").unwrap_or(reference)
                }
            })
            .collect();
        merged
    }

    /// An `extends` target: relative, or in a workspace package (its `tsconfig.json` for the
    /// bare name); `.json` is appended when the name has no extension file.
    fn resolve_extends(&self, directory: &str, target: &str) -> Option<String> {
        let path = if target.starts_with('.') {
            join(directory, target)?
        } else {
            let (name, subpath) = super::resolve::package_name(target)?;
            let folder = self.package_folders.get(name)?;
            join(folder, subpath.unwrap_or("tsconfig.json"))?
        };
        if path.ends_with(".json") || self.reader.read(&path).is_some() {
            return Some(path);
        }
        Some(format!("{path}.json"))
    }
}

/// Turns merged raw options into project-relative mappings for the config in `config_dir`.
fn finish(raw: &RawOptions, config_dir: &str) -> CompilerPaths {
    // `${configDir}/x` is `x` in the folder of the config in use.
    let place = |base: &str, target: &str| match target.strip_prefix(CONFIG_DIR) {
        Some(rest) => join(config_dir, rest.trim_start_matches('/')),
        None => join(base, target),
    };
    let base_url =
        raw.base_url
            .as_deref()
            .and_then(|base_url| match base_url.starts_with(CONFIG_DIR) {
                true => place(config_dir, base_url),
                false => Some(base_url.to_owned()),
            });
    let paths = raw
        .paths
        .as_ref()
        .map(|(entries, paths_directory)| {
            let base = base_url.as_deref().unwrap_or(paths_directory);
            entries
                .iter()
                .map(|(pattern, targets)| {
                    let (prefix, suffix, has_wildcard) = match pattern.split_once('*') {
                        Some((prefix, suffix)) => (prefix.to_owned(), suffix.to_owned(), true),
                        None => (pattern.clone(), String::new(), false),
                    };
                    PathMapping {
                        prefix,
                        suffix,
                        has_wildcard,
                        targets: targets
                            .iter()
                            .filter_map(|target| place(base, target))
                            .collect(),
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    let folder = |directory: &Option<String>| {
        directory
            .as_deref()
            .and_then(|directory| match directory.starts_with(CONFIG_DIR) {
                true => place(config_dir, directory),
                false => Some(directory.to_owned()),
            })
    };
    CompilerPaths {
        base_url,
        paths,
        preserves_imports: raw.preserves_imports,
        strict_null_checks: raw.strict_null_checks.or(raw.strict),
        output: folder(&raw.out_dir).zip(folder(&raw.root_dir)),
    }
}

/// Whether `compilerOptions` keep the import statements the compiler would elide:
/// `verbatimModuleSyntax` when set, else `preserveValueImports: true` or
/// `importsNotUsedAsValues: "preserve"`/`"error"` (TypeScript 4.x); `None` when none is set.
fn preserves_imports(options: &Value) -> Option<bool> {
    if let Some(verbatim) = options.get("verbatimModuleSyntax").and_then(Value::as_bool) {
        return Some(verbatim);
    }
    let preserve_values = options.get("preserveValueImports").and_then(Value::as_bool);
    let not_used = options
        .get("importsNotUsedAsValues")
        .and_then(Value::as_str)
        .map(|mode| matches!(mode, "preserve" | "error"));
    match (preserve_values, not_used) {
        (None, None) => None,
        (values, not_used) => Some(values.unwrap_or(false) || not_used.unwrap_or(false)),
    }
}

fn extends_list(config: &Value) -> Vec<&str> {
    match config.get("extends") {
        Some(Value::String(single)) => vec![single.as_str()],
        Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn string_list(value: &Value) -> Vec<String> {
    match value {
        Value::String(single) => vec![single.clone()],
        Value::Array(many) => many
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preserves(options: &str) -> Option<bool> {
        let value = jsonc::parse(options).unwrap_or_else(|| panic!("bad JSON: {options}"));
        preserves_imports(&value)
    }

    #[test]
    fn verbatim_module_syntax_and_its_predecessors_preserve_imports() {
        assert_eq!(preserves(r#"{ "strict": true }"#), None);
        assert_eq!(preserves(r#"{ "verbatimModuleSyntax": true }"#), Some(true));
        assert_eq!(
            preserves(r#"{ "verbatimModuleSyntax": false }"#),
            Some(false)
        );
        // `verbatimModuleSyntax` decides when it is set.
        assert_eq!(
            preserves(r#"{ "verbatimModuleSyntax": false, "preserveValueImports": true }"#),
            Some(false)
        );
        assert_eq!(preserves(r#"{ "preserveValueImports": true }"#), Some(true));
        assert_eq!(
            preserves(r#"{ "importsNotUsedAsValues": "preserve" }"#),
            Some(true)
        );
        assert_eq!(
            preserves(r#"{ "importsNotUsedAsValues": "error" }"#),
            Some(true)
        );
        assert_eq!(
            preserves(r#"{ "importsNotUsedAsValues": "remove" }"#),
            Some(false)
        );
    }
}
