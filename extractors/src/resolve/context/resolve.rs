//! Module specifier resolution, the way TypeScript's bundler/node resolution finds source files.
//!
//! In order: a relative specifier is joined onto the importer's folder; otherwise the nearest
//! config's `paths` (exact pattern, else the longest matching prefix) and then its `baseUrl` are
//! tried, then the `resolve.modules` folders of the nearest webpack configuration, then workspace
//! packages (entry or subpath). A candidate path is probed as is, with a
//! `.js`-family extension mapped to its TypeScript source, with each known extension appended,
//! and as a folder with an `index` file. Only files in the project list count. A `?query`
//! (`./worker.js?worker`) is dropped first.
//!
//! What does not resolve is [`Resolution::External`] when it is a bare package name that no
//! `paths` pattern claimed (Node built-ins included, `node:` dropped), and
//! [`Resolution::Internal`] otherwise (a relative import of a missing file, an alias), except the
//! route types React Router and SvelteKit generate outside the repository (`./+types/root`,
//! `./$types`), which are of the framework's package, and an import that leads where a
//! `.gitignore` puts generated code or build output, [`Resolution::Generated`].

use std::collections::HashSet;

use super::paths::{file_name, join, parent_dir};
use super::workspace::{Request, WorkspacePackage};
use super::{ProjectContext, Resolution};

/// Extensions probed after a specifier without one, in TypeScript's order; then `.json`, which
/// CommonJS `require` and bundlers also try, declaration files, and Vue and Svelte components
/// last (Vue CLI's webpack resolves `./Login` to `Login.vue`).
const EXTENSIONS: [&str; 12] = [
    ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json", ".d.ts", ".vue",
    ".svelte",
];

/// JavaScript output extensions and the source extensions TypeScript maps them back to.
const SOURCE_FOR_OUTPUT: [(&str, &[&str]); 4] = [
    (".js", &[".ts", ".tsx", ".d.ts"]),
    (".jsx", &[".tsx", ".d.ts"]),
    (".mjs", &[".mts", ".d.mts"]),
    (".cjs", &[".cts", ".d.cts"]),
];

/// Extensions stripped from a package entry before retrying it under `src/`.
const ENTRY_EXTENSIONS: [&str; 12] = [
    ".d.ts", ".d.mts", ".d.cts", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs",
    ".json",
];

/// Build-output folders whose files usually come from `src/`.
const OUTPUT_FOLDERS: [&str; 7] = ["dist", "lib", "build", "out", "esm", "cjs", "types"];

impl ProjectContext {
    /// Resolves a specifier imported by the project file `importer`; `request` picks the
    /// `exports`/`imports` conditions (`require` or `import`).
    pub(crate) fn resolve(&self, importer: &str, specifier: &str, request: Request) -> Resolution {
        let answer = self.resolve_unrecorded(importer, specifier, request);
        crate::resolve::context::probes::record(|| {
            crate::resolve::context::probes::Probe::Module {
                importer: importer.to_owned(),
                specifier: specifier.to_owned(),
                require: request == Request::Require,
                answer: answer.answer(),
            }
        });
        answer
    }

    /// [`ProjectContext::resolve`], not recorded.
    pub(crate) fn resolve_unrecorded(
        &self,
        importer: &str,
        specifier: &str,
        request: Request,
    ) -> Resolution {
        // A query (`./worker.js?worker`, `./icon.svg?url`) selects how a bundler loads the file,
        // not which file it is.
        let specifier = specifier
            .split_once('?')
            .map_or(specifier, |(path, _)| path);
        // Webpack's inline loaders (`!raw-loader!./icon.svg`, `style-loader!css-loader!./a.css`)
        // and AMD plugins (`text!./row.html`) end with the file they load.
        let specifier = specifier
            .rsplit_once('!')
            .map_or(specifier, |(_, resource)| resource);
        if is_relative(specifier) {
            // `join` drops a trailing `/`, which says the specifier names a folder.
            let names_folder = specifier.ends_with('/');
            let candidate = join(parent_dir(importer), specifier);
            let found = candidate
                .as_deref()
                .and_then(|candidate| match names_folder {
                    true => self.probe_folder(candidate, true),
                    false => self.probe(candidate),
                });
            if let Some(file) = found {
                return Resolution::File(file);
            }
            return match self.route_types(importer, specifier) {
                Resolution::Internal => self.missing(candidate.iter()),
                framework => framework,
            };
        }
        if specifier.is_empty() || specifier.starts_with('/') {
            return Resolution::Internal;
        }
        // A URL (`https://jslib.k6.io/k6-utils/1.4.0/index.js`, Deno and k6 load modules
        // from the web) is outside the project: its host is the package.
        if let Some((_, rest)) = specifier
            .split_once("://")
            .filter(|(scheme, _)| matches!(*scheme, "http" | "https"))
        {
            let host = rest.split('/').next().unwrap_or(rest);
            return Resolution::External {
                package: host.to_owned(),
            };
        }
        if let Some(builtin) = specifier.strip_prefix("node:") {
            let package = builtin.split('/').next().unwrap_or(builtin);
            return Resolution::External {
                package: package.to_owned(),
            };
        }
        let mut claimed_by_alias = false;
        let mut alias_targets: Vec<String> = Vec::new();
        // Where `baseUrl` would put the specifier, when no file is there but the folder of its
        // first segment is the project's.
        let mut base_url_candidate: Option<String> = None;
        if let Some(config) = self.compiler_paths(importer) {
            if let Some((mapping, captured)) = config.best_match(specifier) {
                claimed_by_alias = !mapping.is_catch_all();
                alias_targets = mapping
                    .targets
                    .iter()
                    .filter_map(|target| alias_target(target, captured))
                    .collect();
                let found = alias_targets.iter().find_map(|target| self.probe(target));
                if let Some(file) = found {
                    return Resolution::File(file);
                }
            }
            if let Some(base_url) = &config.base_url {
                let candidate = join(base_url, specifier);
                let found = candidate
                    .as_deref()
                    .and_then(|candidate| self.probe(candidate));
                if let Some(file) = found {
                    return Resolution::File(file);
                }
                let first = specifier.split('/').next().unwrap_or(specifier);
                if join(base_url, first).is_some_and(|folder| self.is_folder(&folder)) {
                    base_url_candidate = candidate;
                }
            }
        }
        // Webpack's `resolve.modules` folders come before the packages it lists after them.
        if let Some(file) =
            self.webpack.candidates(importer).iter().find_map(|folder| {
                join(folder, specifier).and_then(|candidate| self.probe(&candidate))
            })
        {
            return Resolution::File(file);
        }
        if let Some(resolution) = self
            .resolve_svelte_kit(importer, specifier)
            .or_else(|| self.resolve_nuxt(importer, specifier))
        {
            return resolution;
        }
        if specifier.starts_with('#') {
            return self
                .resolve_import_map(importer, specifier, request)
                .map_or(Resolution::Internal, Resolution::File);
        }
        if let Some(package) = virtual_module(specifier) {
            return Resolution::External {
                package: package.to_owned(),
            };
        }
        let Some((name, subpath)) = package_name(specifier) else {
            // `~/helpers/x` through `"~/*"`: no package name, the alias's folder all the same.
            return match claimed_by_alias {
                true => self.missing(alias_targets.iter()),
                false => Resolution::Internal,
            };
        };
        if let Some(package) = self
            .packages
            .get(name)
            .filter(|package| package.links_for(importer))
        {
            return match self.resolve_package(package, subpath, request) {
                Some(file) => Resolution::File(file),
                None => self.missing(
                    subpath
                        .and_then(|subpath| join(&package.folder, subpath))
                        .iter(),
                ),
            };
        }
        if claimed_by_alias {
            return self.missing(alias_targets.iter());
        }
        // `src/generated/prisma/client` under `baseUrl: "./"`, where a `.gitignore` puts a
        // generator's output: the project's generated code, not a package named `src`. Only
        // under a folder the project has: a root `.gitignore` that ignores a `firebase` folder
        // says nothing of the package `firebase/storage`.
        if self.missing(base_url_candidate.iter()) == Resolution::Generated {
            return Resolution::Generated;
        }
        Resolution::External {
            package: name.to_owned(),
        }
    }

    /// SvelteKit's own aliases, which it writes into a tsconfig it generates (`.svelte-kit/`, no
    /// part of a repository) when no config `paths` claimed them: in an app (a `svelte.config.*`
    /// in the importer's folder or above) `$lib` is its `src/lib`; `$app/*`, `$env/*` and
    /// `$service-worker` are the framework's modules, of the package `@sveltejs/kit`.
    fn resolve_svelte_kit(&self, importer: &str, specifier: &str) -> Option<Resolution> {
        let rest = specifier.strip_prefix('$')?;
        let (name, path) = rest.split_once('/').unwrap_or((rest, ""));
        match name {
            "lib" => {
                let app = self.svelte_kit_app(importer)?;
                let lib = join(app, "src/lib")?;
                let candidate = if path.is_empty() {
                    Some(lib)
                } else {
                    join(&lib, path)
                };
                Some(
                    candidate
                        .and_then(|candidate| self.probe(&candidate))
                        .map_or(Resolution::Internal, Resolution::File),
                )
            }
            "app" | "env" | "service-worker" => Some(Resolution::External {
                package: "@sveltejs/kit".to_owned(),
            }),
            _ => None,
        }
    }

    /// Whether a project file lies in `folder` (project-relative, at any depth below it).
    fn is_folder(&self, folder: &str) -> bool {
        self.folders
            .get_or_init(|| {
                let mut folders = HashSet::new();
                for file in &self.files {
                    let mut current = parent_dir(file);
                    while !current.is_empty() && folders.insert(current.to_owned()) {
                        current = parent_dir(current);
                    }
                }
                folders
            })
            .contains(folder)
    }

    /// What an import that is meant to be inside the project but names no file leads to:
    /// [`Resolution::Generated`] when a `.gitignore` ignores one of the paths it was looked for
    /// at (generated code or build output, which the repository does not hold), else
    /// [`Resolution::Internal`].
    /// A path without extension is generated when its TypeScript source is ignored (`./graphql`
    /// as `graphql.ts` or `graphql.tsx`, a generator's output, or as a folder whose `index.ts`
    /// is, the folder being ignored whole), and so is a `.js` path (its ESM name,
    /// `./package-json.js` for an ignored `package-json.ts`): a `.gitignore` that ignores the
    /// compiled `*.js` alone, or the declarations `*.d.ts`, leaves a missing source missing. A
    /// `.gitignore` line that names the compiled file itself, without a wildcard, says a tool
    /// writes it (`index.js`, `index.cjs` and `index.d.ts` of a native addon's loader,
    /// tensorzero's node bindings): that path, and the path without extension of such a `.js` or
    /// `.d.ts`, is generated.
    fn missing<'c>(&self, candidates: impl Iterator<Item = &'c String>) -> Resolution {
        let mut candidates = candidates;
        // A generator's TypeScript output ignored by name (`graphql.ts`) is generated code
        // whatever becomes of the `.js`; an ignored `*.js` alone is only the build. A folder
        // ignored whole (a `paths` target `libs/client/dist` under a `dist` rule) is too: its
        // index is the build's.
        let extensionless = |candidate: &String| {
            let ignores =
                |extension: &str| self.gitignores.ignores(&[candidate, extension].concat());
            let names = |extension: &str| self.gitignores.names(&[candidate, extension].concat());
            [".ts", ".tsx", "/index.ts"].into_iter().any(ignores)
                || [".js", ".mjs", ".cjs", ".d.ts"].into_iter().any(names)
        };
        let ignored = |candidate: &String| {
            let name = file_name(candidate);
            let output = SOURCE_FOR_OUTPUT
                .iter()
                .find(|(output, _)| name.len() > output.len() && name.ends_with(output));
            let extension = name.get(1..).is_some_and(|rest| rest.contains('.'));
            match (output, extension) {
                (Some((output, sources)), _) => {
                    let stem = candidate
                        .get(..candidate.len() - output.len())
                        .unwrap_or_default();
                    sources
                        .iter()
                        .filter(|source| !source.starts_with(".d."))
                        .any(|source| self.gitignores.ignores(&[stem, source].concat()))
                        || self.gitignores.names(candidate)
                }
                // A dot in a name is no extension for the resolver unless one is probed as is:
                // TanStack Router's `./routeTree.gen` is its `routeTree.gen.ts`.
                (None, true) => self.gitignores.ignores(candidate) || extensionless(candidate),
                (None, false) => extensionless(candidate),
            }
        };
        match candidates.any(ignored) {
            true => Resolution::Generated,
            false => Resolution::Internal,
        }
    }

    /// A relative import that names no project file: the route types a framework generates next
    /// to each route, outside the repository, and puts beside it through the `rootDirs` of a
    /// tsconfig: React Router's typegen writes `./+types/<route>` (into `.react-router/types/`),
    /// SvelteKit writes `./$types` (into `.svelte-kit/types/`, in an app only). Such an import is
    /// of the framework's package, as its other generated modules are (`$app/*`, `#build/*`);
    /// any other is [`Resolution::Internal`].
    fn route_types(&self, importer: &str, specifier: &str) -> Resolution {
        let mut segments = specifier.rsplit('/');
        let name = segments.next().unwrap_or(specifier);
        let folder = segments.next();
        if folder == Some("+types") && !name.is_empty() {
            return Resolution::External {
                package: "react-router".to_owned(),
            };
        }
        let sveltekit_types = matches!(name, "$types" | "$types.js" | "$types.d.ts" | "$types.ts");
        if sveltekit_types && self.svelte_kit_app(importer).is_some() {
            return Resolution::External {
                package: "@sveltejs/kit".to_owned(),
            };
        }
        Resolution::Internal
    }

    /// The folder of the SvelteKit app `importer` is in: the nearest with a `svelte.config.*`.
    fn svelte_kit_app<'i>(&self, importer: &'i str) -> Option<&'i str> {
        self.app_folder(
            importer,
            &[
                "svelte.config.js",
                "svelte.config.mjs",
                "svelte.config.cjs",
                "svelte.config.ts",
            ],
        )
    }

    /// Nuxt's own aliases, which it writes into a tsconfig it generates (`.nuxt/`) when no
    /// config `paths` claimed them: in an app (a `nuxt.config.*` in the importer's folder or
    /// above) `~/x` and `@/x` are in its source folder (the app's folder, else its `app/`, as
    /// Nuxt 4 lays it out), `~~/x` and `@@/x` in the app's folder; `#app`, `#imports`,
    /// `#components`, `#build/…` and the other `#` modules Nuxt makes are of the package `nuxt`.
    fn resolve_nuxt(&self, importer: &str, specifier: &str) -> Option<Resolution> {
        let root_relative = specifier
            .strip_prefix("~~/")
            .or_else(|| specifier.strip_prefix("@@/"));
        let source_relative = specifier
            .strip_prefix("~/")
            .or_else(|| specifier.strip_prefix("@/"));
        let is_nuxt_module = specifier.strip_prefix('#').is_some_and(|rest| {
            let module = rest.split('/').next().unwrap_or(rest);
            matches!(
                module,
                "app" | "imports" | "components" | "build" | "head" | "internal" | "vue-router"
            ) || module.starts_with("app-")
        });
        if root_relative.is_none() && source_relative.is_none() && !is_nuxt_module {
            return None;
        }
        let app = self.app_folder(
            importer,
            &["nuxt.config.ts", "nuxt.config.js", "nuxt.config.mjs"],
        )?;
        if is_nuxt_module {
            return Some(Resolution::External {
                package: "nuxt".to_owned(),
            });
        }
        let found = match (root_relative, source_relative) {
            (Some(path), _) => join(app, path).and_then(|candidate| self.probe(&candidate)),
            (None, Some(path)) => [Some(app.to_owned()), join(app, "app")]
                .into_iter()
                .flatten()
                .find_map(|folder| {
                    join(&folder, path).and_then(|candidate| self.probe(&candidate))
                }),
            (None, None) => None,
        };
        Some(found.map_or(Resolution::Internal, Resolution::File))
    }

    /// The nearest folder at or above `importer`'s with one of `configs`.
    fn app_folder<'i>(&self, importer: &'i str, configs: &[&str]) -> Option<&'i str> {
        let mut folder = parent_dir(importer);
        loop {
            let found = configs.iter().any(|config| {
                join(folder, config).is_some_and(|path| self.existing_file(&path).is_some())
            });
            if found {
                return Some(folder);
            }
            if folder.is_empty() {
                return None;
            }
            folder = parent_dir(folder);
        }
    }

    /// A `#subpath` specifier through the `imports` map of the nearest `package.json` above the
    /// importer that has one (exact key first, else the longest `*` pattern).
    fn resolve_import_map(
        &self,
        importer: &str,
        specifier: &str,
        request: Request,
    ) -> Option<String> {
        let map = self.import_maps.iter().find(|map| {
            map.folder.is_empty()
                || importer
                    .strip_prefix(map.folder.as_str())
                    .is_some_and(|rest| rest.starts_with('/'))
        })?;
        let entries = map.entries(request);
        let exact = entries
            .iter()
            .find(|(key, _)| key == specifier)
            .map(|(_, targets)| (targets, ""));
        let pattern = || {
            entries
                .iter()
                .filter_map(|(key, targets)| {
                    let (prefix, suffix) = key.split_once('*')?;
                    let captured = specifier.strip_prefix(prefix)?.strip_suffix(suffix)?;
                    Some((prefix.len(), targets, captured))
                })
                .max_by_key(|(prefix_length, _, _)| *prefix_length)
                .map(|(_, targets, captured)| (targets, captured))
        };
        let (targets, captured) = exact.or_else(pattern)?;
        prefer_runtime(
            targets
                .iter()
                .map(|target| self.probe(&target.replacen('*', captured, 1))),
        )
    }

    fn resolve_package(
        &self,
        package: &WorkspacePackage,
        subpath: Option<&str>,
        request: Request,
    ) -> Option<String> {
        let exports = package.exports(request);
        let Some(subpath) = subpath else {
            let entries = exports
                .entries
                .iter()
                .map(|entry| self.probe_entry(package, entry));
            let fallbacks = ["src/index", "index"].iter().map(|fallback| {
                join(&package.folder, fallback).and_then(|candidate| self.probe(&candidate))
            });
            return prefer_runtime(entries.chain(fallbacks));
        };
        let exported = exports.subpaths.iter().find_map(|(key, targets)| {
            let captured = match key.split_once('*') {
                Some((prefix, suffix)) => subpath.strip_prefix(prefix)?.strip_suffix(suffix)?,
                None if key == subpath => "",
                None => return None,
            };
            let found: Vec<Option<String>> = targets
                .iter()
                .map(|target| self.probe_entry(package, &target.replacen('*', captured, 1)))
                .collect();
            found.iter().any(Option::is_some).then_some(found)
        });
        let fallbacks = ["", "src"].iter().map(|folder| {
            join(&package.folder, folder)
                .and_then(|base| join(&base, subpath))
                .and_then(|candidate| self.probe(&candidate))
        });
        prefer_runtime(exported.into_iter().flatten().chain(fallbacks))
    }

    /// Probes a package entry; an entry in a build-output folder that is not in the project is
    /// retried where the package's `tsconfig.json` builds it from (`outDir: "dist"` with
    /// `rootDir: "lib"`: `dist/index.js` → `lib/index.ts`), else under `src/`
    /// (`dist/index.js` → `src/index.ts`), then in the package's folder, for a build whose
    /// output mirrors it (`dist/src/features/query/index.js` → `src/features/query/index.ts`,
    /// tsc with `rootDir: "."`).
    fn probe_entry(&self, package: &WorkspacePackage, entry: &str) -> Option<String> {
        if let Some(file) = self.probe(entry) {
            return Some(file);
        }
        let built_from = self
            .configs
            .get(package.folder.as_str())
            .and_then(|config| config.output.as_ref())
            .and_then(|(out_dir, root_dir)| {
                let rest = entry.strip_prefix(out_dir.as_str())?.strip_prefix('/')?;
                let stem = ENTRY_EXTENSIONS
                    .iter()
                    .find_map(|extension| rest.strip_suffix(extension))
                    .unwrap_or(rest);
                self.probe(&join(root_dir, stem)?)
            });
        if built_from.is_some() {
            return built_from;
        }
        let inner = if package.folder.is_empty() {
            entry
        } else {
            entry
                .strip_prefix(package.folder.as_str())?
                .strip_prefix('/')?
        };
        let (first, rest) = inner.split_once('/')?;
        if !OUTPUT_FOLDERS.contains(&first) {
            return None;
        }
        let stem = ENTRY_EXTENSIONS
            .iter()
            .find_map(|extension| rest.strip_suffix(extension))
            .unwrap_or(rest);
        ["src", ""].iter().find_map(|folder| {
            let candidate = join(&package.folder, folder).and_then(|base| join(&base, stem))?;
            self.probe(&candidate)
        })
    }

    /// The project file a candidate path names: the file itself, else the TypeScript source of
    /// a `.js`-family name (`./x.js` → `x.ts`, a declaration file last), else with an extension
    /// appended, else as a folder: the entry its own `package.json` names (`main`, `module`,
    /// `types`), then its `index` file. A named file that exists wins over its TypeScript
    /// source: it is what runs (`entrypoints.js` wrapping `entrypoints.ts`).
    fn probe(&self, base: &str) -> Option<String> {
        self.probe_with(base, true)
    }

    /// [`Self::probe`]; `manifests` says whether a folder's `package.json` entry is followed
    /// (not when probing that entry itself).
    fn probe_with(&self, base: &str, manifests: bool) -> Option<String> {
        // A trailing `/` (`@components/draft/`) names a folder, never a file beside it.
        if let Some(folder) = base.strip_suffix('/') {
            return self.probe_folder(folder.trim_end_matches('/'), manifests);
        }
        if !base.is_empty() {
            if let Some(file) = self.existing_file(base) {
                return Some(file);
            }
        }
        let mapped_source = SOURCE_FOR_OUTPUT.iter().find_map(|(output, sources)| {
            let stem = base.strip_suffix(output)?;
            sources
                .iter()
                .find_map(|source| self.existing_file(&format!("{stem}{source}")))
        });
        if mapped_source.is_some() {
            return mapped_source;
        }
        if !base.is_empty() {
            if let Some(file) = self.with_extension(base) {
                if !is_declaration(&file) {
                    return Some(file);
                }
                // A declaration shim beside a folder (`test.d.ts` next to `test/index.ts`, for
                // older resolvers): the folder's entry is what runs.
                return prefer_runtime(
                    [Some(file), self.probe_folder(base, manifests)].into_iter(),
                );
            }
        }
        self.probe_folder(base, manifests)
    }

    /// A folder's entry: the one its own `package.json` names (when `manifests`), then its
    /// `index` file.
    fn probe_folder(&self, base: &str, manifests: bool) -> Option<String> {
        let folder_entries = self
            .folder_entries
            .get(base)
            .filter(|_| manifests)
            .into_iter()
            .flatten()
            .map(|entry| self.probe_with(entry, false));
        let index = if base.is_empty() {
            "index".to_owned()
        } else {
            format!("{base}/index")
        };
        prefer_runtime(folder_entries.chain(std::iter::once_with(|| self.with_extension(&index))))
    }

    /// The first project file named `stem` plus one of [`EXTENSIONS`].
    fn with_extension(&self, stem: &str) -> Option<String> {
        // One buffer for every candidate (`format!` would allocate and grow one for each).
        let mut candidate = String::with_capacity(stem.len() + 8);
        EXTENSIONS.iter().find_map(|extension| {
            candidate.clear();
            candidate.push_str(stem);
            candidate.push_str(extension);
            self.existing_file(&candidate)
        })
    }
}

/// The first candidate found that is not a declaration file, else the first declaration file: a
/// package's `types` entry (`types/index.d.ts`) is what TypeScript checks against, its `main`
/// (`src/index.js`) is what runs. A `dist/index.d.ts` entry that maps back to `src/index.ts` is
/// not a declaration file any more.
fn prefer_runtime(candidates: impl Iterator<Item = Option<String>>) -> Option<String> {
    let mut declaration = None;
    for file in candidates.flatten() {
        if !is_declaration(&file) {
            return Some(file);
        }
        declaration.get_or_insert(file);
    }
    declaration
}

fn is_declaration(path: &str) -> bool {
    [".d.ts", ".d.mts", ".d.cts"]
        .iter()
        .any(|suffix| path.ends_with(suffix))
}

/// Whether a specifier is relative (`./x`, `../x`, `.`, `..`).
fn is_relative(specifier: &str) -> bool {
    specifier == "."
        || specifier == ".."
        || specifier.starts_with("./")
        || specifier.starts_with("../")
}

/// Splits a bare specifier into its package name (scope included) and subpath:
/// `@acme/db/schema` → (`@acme/db`, `schema`). `None` when the name is not a valid package name
/// (aliases such as `~/x`, `#internal`, `$lib/x`, URLs).
/// A `paths` target with its `*` filled in, as the compiler reads it: `.`, `..` and empty
/// segments of the capture are path steps (`@modules/.` through `src/modules/*` is the folder
/// `src/modules/`, `~/../meta` through `src/*` is `meta`); `None` when it leaves the project.
fn alias_target(target: &str, captured: &str) -> Option<String> {
    let filled = target.replacen('*', captured, 1);
    // `@/components/base//BaseButton.vue` (vikunja) is `src/components/base/BaseButton.vue`.
    let stepped = filled
        .split('/')
        .any(|segment| matches!(segment, "." | ".."))
        || filled.trim_end_matches('/').contains("//");
    if !stepped {
        return Some(filled);
    }
    let names_folder = filled.ends_with("/.") || filled.ends_with("/..") || filled.ends_with('/');
    let mut path = join("", &filled)?;
    if names_folder && !path.is_empty() {
        path.push('/');
    }
    Some(path)
}

/// A module a bundler plugin or the runtime makes up, which no config `paths` claimed: a
/// `scheme:name` specifier (Vite's `virtual:` convention, `virtual:pwa-register`; a runtime's
/// own modules, `bun:test`, `cloudflare:workers`; a framework's, `astro:content`) and
/// unplugin-icons' `~icons/<collection>/<icon>`. Neither is a project file nor a missing one;
/// the name up to its first `/` (`virtual:pwa-register`, `bun:test`, `~icons`) stands for the
/// package. A one-letter scheme is a Windows drive, not a module.
fn virtual_module(specifier: &str) -> Option<&str> {
    let name = specifier.split('/').next().unwrap_or(specifier);
    let is_name = |rest: &str| {
        !rest.is_empty()
            && rest.chars().all(|character| {
                character.is_ascii_alphanumeric() || matches!(character, '-' | '_' | '.' | ':')
            })
    };
    let is_scheme = |scheme: &str| {
        scheme.len() > 1
            && scheme.starts_with(|character: char| character.is_ascii_lowercase())
            && scheme.chars().all(|character| {
                character.is_ascii_lowercase() || character.is_ascii_digit() || character == '-'
            })
    };
    let scheme_name = name
        .split_once(':')
        .is_some_and(|(scheme, rest)| is_scheme(scheme) && is_name(rest));
    let icons = name == "~icons" && specifier.len() > name.len() + 1;
    (scheme_name || icons).then_some(name)
}

pub(crate) fn package_name(specifier: &str) -> Option<(&str, Option<&str>)> {
    let is_valid = |segment: &str| {
        !segment.is_empty()
            && !segment.starts_with('.')
            && segment.chars().all(|character| {
                character.is_ascii_alphanumeric() || matches!(character, '-' | '_' | '.')
            })
    };
    let name_end = if let Some(scoped) = specifier.strip_prefix('@') {
        let (scope, rest) = scoped.split_once('/')?;
        let name = rest.split('/').next().unwrap_or(rest);
        if !is_valid(scope) || !is_valid(name) {
            return None;
        }
        1 + scope.len() + 1 + name.len()
    } else {
        let name = specifier.split('/').next().unwrap_or(specifier);
        if !is_valid(name) {
            return None;
        }
        name.len()
    };
    let name = specifier.get(..name_end)?;
    let subpath = specifier
        .get(name_end + 1..)
        .filter(|subpath| !subpath.is_empty());
    Some((name, subpath))
}
