//! `lintel init --from tach.toml`: Tach's modules, dependencies, interfaces, layers and excludes
//! as a spec (`docs/MIGRATING.md` maps each key).
//!
//! - A module (`path = "a.b"` under a source root) is a component over the package folder
//!   `a/b/**`, or over the file `a/b.py` when that is what exists; `paths = [...]` makes one
//!   component per path with the same settings.
//! - `depends_on` closes the component. Tach lets a module in a layer use every module of the
//!   lower layers (down to the first closed layer) without declaring it, and a `utility` module
//!   from anywhere: both are added to its `depends_on`. A module without `depends_on` stays open;
//!   an `unchecked` module is never closed.
//! - `cannot_depend_on` is `deny flow A -> B`; `layers` (highest first) give `layer:` and
//!   `deny flow layer low -> layer high` (and past a closed layer, `deny flow layer high -> layer
//!   below`). `forbid_circular_dependencies` makes Tach check the modules' declared
//!   `depends_on` for a cycle, not the imports: a declared cycle is `deny cycle among` its
//!   modules (with a comment, as Tach fails on the configuration alone), and without one the
//!   translation adds no cycle rule, as Tach reports no import cycle.
//! - `[[interfaces]]` make each `from` module `public` through its `__init__.py` and the
//!   submodule or subpackage the first segment of an `expose` pattern names, where one exists
//!   (Tach exposes names, lintel files); a `from` pattern is a module path, or a prefix ending in
//!   `.*`. The deprecated `strict = true` makes the `__init__.py` alone public.
//! - `exclude` paths are globs of files: a folder pattern `**/tests` also gets `**/tests/**`, and
//!   an old regular expression `.*egg-info` becomes `**/*egg-info`.
//! - `visibility = ["x", …]` on a module is `deny flow Y -> M` from each other module `Y` the
//!   list does not name (module paths, `prefix.*`/`prefix.**`, `*`).
//! - `root_module = "allow"` (or `"dependenciesonly"`) makes `<root>`, the code of the source
//!   roots that no module holds, the component `Root` (`paths: "<root>/**/*.py"`; every module's
//!   glob is more specific), with the `<root>` module's settings; `depends_on = ["<root>"]`
//!   lists it (under `"dependenciesonly"`, where Tach forbids that, it is left out).
//! - A `deprecated` dependency stays in `depends_on`: its uses pass, as in Tach.
//! - `# tach-ignore` directives in the code: `init` waives the findings of the imports they
//!   mark (`tach_ignores`).
//! - What has no lintel form is named in a comment of the spec with the reason: `exact`,
//!   `root_module = "forbid"`, `depends_on_external`/`cannot_depend_on_external`, an
//!   interface's `visibility`/`exclusive`, and the deprecated dependencies (whose uses lintel
//!   does not list).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::Deserialize;

use crate::error::EngineError;

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct TachConfig {
    modules: Vec<ModuleConfig>,
    interfaces: Vec<InterfaceConfig>,
    layers: Vec<LayerConfig>,
    exclude: Vec<String>,
    source_roots: Vec<String>,
    forbid_circular_dependencies: bool,
    exact: bool,
    root_module: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ModuleConfig {
    path: Option<String>,
    paths: Vec<String>,
    depends_on: Option<Vec<Dependency>>,
    cannot_depend_on: Option<Vec<String>>,
    layer: Option<String>,
    utility: bool,
    unchecked: bool,
    strict: bool,
    visibility: Option<Vec<String>>,
    depends_on_external: Option<Vec<String>>,
    cannot_depend_on_external: Option<Vec<String>>,
}

/// The settings of `<root>` when the config gives it none.
static ROOT_DEFAULTS: ModuleConfig = ModuleConfig {
    path: None,
    paths: Vec::new(),
    depends_on: None,
    cannot_depend_on: None,
    layer: None,
    utility: false,
    unchecked: false,
    strict: false,
    visibility: None,
    depends_on_external: None,
    cannot_depend_on_external: None,
};

/// Tach's name of the root module.
const ROOT: &str = "<root>";

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Dependency {
    Path(String),
    Detailed {
        path: String,
        #[serde(default)]
        deprecated: bool,
    },
}

impl Dependency {
    fn path(&self) -> &str {
        match self {
            Self::Path(path) | Self::Detailed { path, .. } => path,
        }
    }

    fn is_deprecated(&self) -> bool {
        matches!(
            self,
            Self::Detailed {
                deprecated: true,
                ..
            }
        )
    }
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum LayerConfig {
    Name(String),
    Detailed {
        name: String,
        #[serde(default)]
        closed: bool,
    },
}

impl LayerConfig {
    fn name(&self) -> &str {
        match self {
            Self::Name(name) | Self::Detailed { name, .. } => name,
        }
    }

    fn is_closed(&self) -> bool {
        matches!(self, Self::Detailed { closed: true, .. })
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct InterfaceConfig {
    expose: Vec<String>,
    from: Vec<String>,
    visibility: Option<Vec<String>>,
    exclusive: bool,
}

/// One component of the translation.
struct Module<'a> {
    /// The Tach module path (`a.b`).
    path: String,
    name: String,
    /// Its glob, and whether it is a package folder.
    glob: String,
    folder: Option<String>,
    config: &'a ModuleConfig,
    public: BTreeSet<String>,
}

/// The spec text for a `tach.toml` (`source_name` is its project-relative name).
pub fn translate(text: &str, source_name: &str, project: &Path) -> Result<String, EngineError> {
    let config: TachConfig = toml::from_str(text).map_err(|error| {
        EngineError::Usage(format!(
            "`{source_name}` is not a valid tach.toml: {}",
            error.message()
        ))
    })?;
    let roots: Vec<String> = if config.source_roots.is_empty() {
        vec![".".to_owned()]
    } else {
        config.source_roots.clone()
    };
    let root_mode = RootMode::of(config.root_module.as_deref());
    let modules = modules_of(&config, &roots, project, root_mode);
    let by_path: BTreeMap<&str, &str> = modules
        .iter()
        .map(|module| (module.path.as_str(), module.name.as_str()))
        .collect();
    let layer_names: Vec<&str> = config.layers.iter().map(LayerConfig::name).collect();
    let layer_index = |layer: Option<&String>| {
        layer.and_then(|layer| layer_names.iter().position(|name| name == layer))
    };
    let utilities: Vec<&str> = modules
        .iter()
        .filter(|module| module.config.utility)
        .map(|module| module.name.as_str())
        .collect();

    let mut spec = format!(
        "// Translated from `{source_name}` by `lintel init --from`: review it, then run `lintel check --all`.\n\
         // Each Tach module is a component; `depends_on` closes it (a module without one stays open).\n\n\
         node app : server\n"
    );
    let excludes = exclude_globs(&config.exclude);
    if !excludes.is_empty() {
        spec.push_str(&format!("\nexclude {}\n", quoted(&excludes)));
    }
    spec.push('\n');
    let mut rules: Vec<String> = Vec::new();
    for module in &modules {
        let mut entry = format!(
            "component {} {{ runs_on: app  paths: \"{}\"",
            module.name, module.glob
        );
        if let Some(layer) = &module.config.layer {
            entry.push_str(&format!("  layer: {}", identifier(layer)));
        }
        if let (Some(declared), false) = (&module.config.depends_on, module.config.unchecked) {
            let mut allowed: Vec<&str> = Vec::new();
            let mut unknown: Vec<&str> = Vec::new();
            for dependency in declared {
                if dependency.path() == ROOT && root_mode == RootMode::DependenciesOnly {
                    rules.push(format!(
                        "  // `{}` depends_on `<root>`: left out, as `root_module = \"dependenciesonly\"` forbids it",
                        module.path
                    ));
                    continue;
                }
                if dependency.is_deprecated() {
                    rules.push(format!(
                        "  // `{}` depends_on `{}` is deprecated: kept in `depends_on`, so its uses pass as in Tach; lintel does not list them",
                        module.path,
                        dependency.path()
                    ));
                }
                match by_path.get(dependency.path()) {
                    Some(name) => allowed.push(name),
                    None => unknown.push(dependency.path()),
                }
            }
            // A module may use the lower layers (down to the first closed one) and utilities.
            if let Some(own) = layer_index(module.config.layer.as_ref()) {
                for other in &modules {
                    if let Some(index) = layer_index(other.config.layer.as_ref()) {
                        let is_reachable = index > own
                            && !config
                                .layers
                                .get(own + 1..index)
                                .unwrap_or_default()
                                .iter()
                                .any(LayerConfig::is_closed);
                        if is_reachable {
                            allowed.push(&other.name);
                        }
                    }
                }
            }
            allowed.extend(utilities.iter().copied());
            let mut seen = BTreeSet::new();
            allowed.retain(|name| *name != module.name && seen.insert(*name));
            if allowed.is_empty() {
                entry.push_str("  depends_on: []");
            } else {
                entry.push_str(&format!("  depends_on: {}", allowed.join(", ")));
            }
            for path in unknown {
                rules.push(format!(
                    "  // `{}` depends_on `{path}`, which is no module of the config",
                    module.path
                ));
            }
        }
        if !module.public.is_empty() {
            let globs: Vec<String> = module.public.iter().cloned().collect();
            entry.push_str(&format!("  public: {}", quoted(&globs)));
        }
        entry.push_str(" }\n");
        spec.push_str(&entry);
        if module.config.unchecked {
            continue;
        }
        for forbidden in module.config.cannot_depend_on.iter().flatten() {
            if let Some(name) = by_path.get(forbidden.as_str()) {
                rules.push(format!("  deny flow {} -> {name}", module.name));
            }
        }
    }
    rules.extend(visibility_rules(&modules));
    rules.extend(layer_rules(&config, &modules));
    rules.extend(untranslated(&config, &modules, root_mode));
    if config.forbid_circular_dependencies {
        rules.extend(cycle_rules(&modules));
    }
    if rules
        .iter()
        .any(|rule| !rule.trim_start().starts_with("//"))
    {
        spec.push_str("\ninvariant Tach {\n");
        for rule in rules {
            spec.push_str(&rule);
            spec.push('\n');
        }
        spec.push_str("}\n");
    } else {
        for rule in rules {
            spec.push_str(&rule);
            spec.push('\n');
        }
    }
    Ok(spec)
}

/// The rules of `forbid_circular_dependencies`: Tach checks that the modules' declared
/// `depends_on` (as written, without the layers and utilities Tach adds to what a module may
/// use) form no cycle, and never looks for a cycle of imports. Each cycle of the declared graph
/// (a strongly connected set of two or more modules, or a module that lists itself) becomes
/// `deny cycle among` its members, which finds the cycle once the code has it; a comment says
/// that Tach fails on the configuration alone. Without a declared cycle there is no rule.
fn cycle_rules(modules: &[Module<'_>]) -> Vec<String> {
    let names: BTreeMap<&str, &str> = modules
        .iter()
        .map(|module| (module.path.as_str(), module.name.as_str()))
        .collect();
    let declared: BTreeMap<&str, BTreeSet<&str>> = modules
        .iter()
        .map(|module| {
            let targets = module
                .config
                .depends_on
                .iter()
                .flatten()
                .map(Dependency::path)
                .filter(|path| names.contains_key(path))
                .collect();
            (module.path.as_str(), targets)
        })
        .collect();
    // What each module reaches through declared dependencies (a config has tens of modules).
    let reached = |start: &str| -> BTreeSet<&str> {
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        let mut queue: Vec<&str> = vec![start];
        while let Some(path) = queue.pop() {
            for target in declared.get(path).into_iter().flatten() {
                if seen.insert(target) {
                    queue.push(target);
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&str, BTreeSet<&str>> =
        declared.keys().map(|path| (*path, reached(path))).collect();
    let mut grouped: BTreeSet<&str> = BTreeSet::new();
    let mut rules = Vec::new();
    for (path, reachable) in &reaches {
        if grouped.contains(path) || !reachable.contains(path) {
            continue;
        }
        // The modules on a cycle through `path`: those it reaches that reach it back.
        let members: Vec<&str> = reachable
            .iter()
            .copied()
            .filter(|other| reaches.get(other).is_some_and(|back| back.contains(path)))
            .collect();
        grouped.extend(members.iter().copied());
        rules.push(format!(
            "  // The declared depends_on of `{}` form a cycle, which `tach check` reports whatever the imports are",
            members.join("`, `")
        ));
        if members.len() > 1 {
            let components: Vec<&str> = members
                .iter()
                .filter_map(|member| names.get(member).copied())
                .collect();
            rules.push(format!("  deny cycle among {}", components.join(", ")));
        }
    }
    if rules.is_empty() {
        rules.push(
            "  // forbid_circular_dependencies: the declared depends_on form no cycle (Tach checks those, not the imports; `deny cycle among *` would also forbid import cycles)".to_owned(),
        );
    }
    rules
}

/// How Tach treats the code of the source roots that no module holds (`root_module`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RootMode {
    /// `"ignore"` (the default): no check concerns it.
    Ignore,
    /// `"allow"`: a module of its own, `<root>`.
    Allow,
    /// `"dependenciesonly"`: a module of its own that no module may list.
    DependenciesOnly,
    /// `"forbid"`: every file must be in a module.
    Forbid,
}

impl RootMode {
    fn of(value: Option<&str>) -> Self {
        match value {
            Some("allow") => Self::Allow,
            Some("dependenciesonly" | "dependencies_only") => Self::DependenciesOnly,
            Some("forbid") => Self::Forbid,
            _ => Self::Ignore,
        }
    }

    fn is_module(self) -> bool {
        matches!(self, Self::Allow | Self::DependenciesOnly)
    }
}

/// The components of the config's modules (one per path; `<root>` only when `root_module`
/// makes it a module), with their public files: a strict module's `__init__.py`, and what its
/// interfaces expose.
fn modules_of<'c>(
    config: &'c TachConfig,
    roots: &[String],
    project: &Path,
    root_mode: RootMode,
) -> Vec<Module<'c>> {
    let mut modules: Vec<Module<'_>> = Vec::new();
    let mut names: BTreeSet<String> = BTreeSet::new();
    if root_mode.is_module() {
        let config = config
            .modules
            .iter()
            .find(|module| {
                module.path.as_deref() == Some(ROOT) || module.paths.iter().any(|path| path == ROOT)
            })
            .unwrap_or(&ROOT_DEFAULTS);
        let globs: Vec<String> = roots
            .iter()
            .map(|root| {
                let root = root.trim_start_matches("./").trim_end_matches('/');
                if root.is_empty() || root == "." {
                    "**/*.py".to_owned()
                } else {
                    format!("{root}/**/*.py")
                }
            })
            .collect();
        modules.push(Module {
            path: ROOT.to_owned(),
            name: unique("Root".to_owned(), &mut names),
            glob: globs.join("\", \""),
            folder: None,
            config,
            public: BTreeSet::new(),
        });
    }
    for module in &config.modules {
        let paths: Vec<&String> = module.path.iter().chain(&module.paths).collect();
        for path in paths {
            if path == ROOT {
                continue;
            }
            let (glob, folder) = locate(path, roots, project);
            let name = unique(component_name(path), &mut names);
            modules.push(Module {
                path: path.clone(),
                name,
                glob,
                folder,
                config: module,
                public: BTreeSet::new(),
            });
        }
    }
    // Tach's deprecated strict mode: only the package's `__init__.py` is public.
    for module in &mut modules {
        if let (true, Some(folder)) = (module.config.strict, &module.folder) {
            module.public.insert(format!("{folder}/__init__.py"));
        }
    }
    for interface in &config.interfaces {
        for module in &mut modules {
            if !interface
                .from
                .iter()
                .any(|pattern| matches(pattern, &module.path))
            {
                continue;
            }
            let Some(folder) = &module.folder else {
                continue;
            };
            if interface.expose.iter().any(|pattern| pattern == ".*") {
                continue;
            }
            module.public.insert(format!("{folder}/__init__.py"));
            for pattern in &interface.expose {
                let segment: String = pattern
                    .chars()
                    .take_while(|character| character.is_ascii_alphanumeric() || *character == '_')
                    .collect();
                if segment.is_empty() {
                    continue;
                }
                // A name the package's `__init__.py` exports is public through it; a submodule
                // or subpackage of that name is public itself.
                if project.join(format!("{folder}/{segment}.py")).is_file() {
                    module.public.insert(format!("{folder}/{segment}.py"));
                }
                if project.join(format!("{folder}/{segment}")).is_dir() {
                    module.public.insert(format!("{folder}/{segment}/**"));
                }
            }
        }
    }
    modules
}

/// `deny flow Y -> M` for each module `M` with `visibility` and each other checked module `Y`
/// the list does not name.
fn visibility_rules(modules: &[Module<'_>]) -> Vec<String> {
    let mut rules = Vec::new();
    for module in modules {
        let Some(visible_to) = &module.config.visibility else {
            continue;
        };
        for other in modules {
            if other.name == module.name || other.config.unchecked {
                continue;
            }
            if !visible_to
                .iter()
                .any(|pattern| visibility_matches(pattern, &other.path))
            {
                rules.push(format!("  deny flow {} -> {}", other.name, module.name));
            }
        }
    }
    rules
}

/// A Tach `visibility` pattern against a module path: equal, `*`/`**` (every module), or a
/// prefix ending in `.*` or `.**`.
fn visibility_matches(pattern: &str, path: &str) -> bool {
    if pattern == "*" || pattern == "**" {
        return true;
    }
    match pattern
        .strip_suffix(".**")
        .or_else(|| pattern.strip_suffix(".*"))
    {
        Some(prefix) => path == prefix || path.starts_with(&format!("{prefix}.")),
        None => pattern == path,
    }
}

/// Comments naming what the config says that lintel has no form for, with the reason.
fn untranslated(config: &TachConfig, modules: &[Module<'_>], root_mode: RootMode) -> Vec<String> {
    let mut notes = Vec::new();
    if config.exact {
        notes.push("  // `exact = true`: not translated: lintel reports uses a component does not declare, not declared dependencies it leaves unused".to_owned());
    }
    if root_mode == RootMode::Forbid {
        notes.push("  // `root_module = \"forbid\"`: not translated: lintel does not require every file to be in a component (a file outside them is owned by none, and its imports are not checked)".to_owned());
    }
    for module in modules {
        for (key, packages) in [
            ("depends_on_external", &module.config.depends_on_external),
            (
                "cannot_depend_on_external",
                &module.config.cannot_depend_on_external,
            ),
        ] {
            if let Some(packages) = packages {
                notes.push(format!(
                    "  // `{}` {key} = [{}]: not translated: lintel checks a third-party package only as a node that binds it with `clients` (list the node in `depends_on`, or `deny flow` to it)",
                    module.path,
                    packages.join(", ")
                ));
            }
        }
    }
    for interface in &config.interfaces {
        if interface.visibility.is_some() || interface.exclusive {
            notes.push(format!(
                "  // the interface of [{}] exposing [{}] has `visibility`/`exclusive`: not translated: a lintel component's `public` files are public to every other component",
                interface.from.join(", "),
                interface.expose.join(", ")
            ));
        }
    }
    notes
}

/// The layering rules of the layers the modules use: no lower layer uses a higher one, and no
/// layer reaches past a closed one below it.
fn layer_rules(config: &TachConfig, modules: &[Module<'_>]) -> Vec<String> {
    let mut rules = Vec::new();
    let used_layers: BTreeSet<&str> = modules
        .iter()
        .filter_map(|module| module.config.layer.as_deref())
        .collect();
    let present: Vec<(usize, &LayerConfig)> = config
        .layers
        .iter()
        .enumerate()
        .filter(|(_, layer)| used_layers.contains(layer.name()))
        .collect();
    for (high_index, high) in &present {
        for (low_index, low) in &present {
            if low_index > high_index {
                rules.push(format!(
                    "  deny flow layer {} -> layer {}",
                    identifier(low.name()),
                    identifier(high.name())
                ));
                let skips_closed = config
                    .layers
                    .get(high_index + 1..*low_index)
                    .unwrap_or_default()
                    .iter()
                    .any(LayerConfig::is_closed);
                if skips_closed {
                    rules.push(format!(
                        "  deny flow layer {} -> layer {}",
                        identifier(high.name()),
                        identifier(low.name())
                    ));
                }
            }
        }
    }
    rules
}

/// The glob of a module, and its folder when it is a package: the first of `root/a/b/` and
/// `root/a/b.py` that exists, else the folder.
fn locate(path: &str, roots: &[String], project: &Path) -> (String, Option<String>) {
    let relative = path.replace('.', "/");
    let under = |root: &str| {
        let root = root.trim_start_matches("./").trim_end_matches('/');
        if root.is_empty() || root == "." {
            relative.clone()
        } else {
            format!("{root}/{relative}")
        }
    };
    for root in roots {
        let folder = under(root);
        if project.join(&folder).is_dir() {
            return (format!("{folder}/**"), Some(folder));
        }
        let file = format!("{folder}.py");
        if project.join(&file).is_file() {
            return (file, None);
        }
    }
    let folder = roots
        .first()
        .map_or_else(|| relative.clone(), |root| under(root));
    (format!("{folder}/**"), Some(folder))
}

/// `shop.orders_api` → `ShopOrdersApi`.
fn component_name(path: &str) -> String {
    let mut name = String::new();
    for part in path.split(|character: char| !character.is_ascii_alphanumeric()) {
        let mut characters = part.chars();
        if let Some(first) = characters.next() {
            name.push(first.to_ascii_uppercase());
            name.extend(characters);
        }
    }
    if !name.starts_with(|character: char| character.is_ascii_alphabetic()) {
        name.insert(0, 'M');
    }
    name
}

fn unique(name: String, taken: &mut BTreeSet<String>) -> String {
    let mut candidate = name.clone();
    let mut counter = 2;
    while !taken.insert(candidate.clone()) {
        candidate = format!("{name}{counter}");
        counter += 1;
    }
    candidate
}

/// A layer name as a word of the language.
fn identifier(text: &str) -> String {
    let mut word: String = text
        .chars()
        .map(|character| {
            if character.is_ascii_alphanumeric() {
                character
            } else {
                '_'
            }
        })
        .collect();
    if !word.starts_with(|character: char| character.is_ascii_alphabetic() || character == '_') {
        word.insert(0, '_');
    }
    word
}

/// A Tach `from` pattern against a module path: equal, or a prefix ending in `.*`.
fn matches(pattern: &str, path: &str) -> bool {
    if pattern == ".*" {
        return true;
    }
    match pattern.strip_suffix(".*") {
        Some(prefix) => path == prefix || path.starts_with(&format!("{prefix}.")),
        None => pattern == path,
    }
}

fn exclude_globs(patterns: &[String]) -> Vec<String> {
    let mut globs: Vec<String> = Vec::new();
    for pattern in patterns {
        let pattern = pattern.trim_start_matches("./").trim_end_matches('/');
        // Tach before 0.9 took regular expressions: `.*__pycache__` is `**/*__pycache__`.
        let pattern = match pattern.strip_prefix(".*") {
            Some(rest) => format!("**/*{rest}"),
            None => pattern.to_owned(),
        };
        let pattern = pattern.as_str();
        if pattern.is_empty() || pattern.starts_with('/') || pattern.contains("..") {
            continue;
        }
        globs.push(pattern.to_owned());
        let last = pattern.rsplit('/').next().unwrap_or(pattern);
        if !last.contains('.') && !pattern.ends_with("**") {
            globs.push(format!("{pattern}/**"));
        }
    }
    globs
}

fn quoted(globs: &[String]) -> String {
    globs
        .iter()
        .map(|glob| format!("\"{}\"", glob.replace('\\', "\\\\").replace('"', "\\\"")))
        .collect::<Vec<_>>()
        .join(", ")
}
