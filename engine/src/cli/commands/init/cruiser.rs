//! `lintel init --from .dependency-cruiser.js` (or `.cjs`, `.mjs`, `.json`): the `forbidden`
//! rules of a dependency-cruiser configuration, read without running JavaScript.
//!
//! The configuration is the object literal after `module.exports =` or `export default`, the
//! constant they name (`export default config`), or the whole JSON file, read as JSON5:
//! comments, unquoted keys, single quotes and trailing commas are fine, and so are string
//! literals joined by `+`. A constant declared at the top level before the export (`const APP =
//! 'src/server/app'`, `const stores = ['^src/db/']`, `const config = { … }`, each made of literals
//! and earlier constants) stands for its value: a string one in a template literal
//! (`` `^${APP}/engine/` ``), joined by `+` or alone. A call of a function without parameters
//! whose body returns at once (`function noCycles() { return { … } }`, hoisted, or `const rule =
//! () => ({ … })`) stands for what it returns. Anything else computed (another variable, a call
//! with arguments, a spread) is skipped, and a rule that is, is listed as such. A path
//! expression is translated when it is a path prefix (`^src/ui`,
//! `^src/db/`, `^src/meta[.]cjs$`), alternatives of them (`^src/(ui|db)`, `^(src|bin)/`), or a
//! prefix with one exception (`^src/api/(?!index)`, which makes `src/api/index` a component of
//! its own). Translated rules:
//! - `to: { circular: true }` → `deny cycle among files` (a cycle of files anywhere, as
//!   dependency-cruiser looks for; a loop of components that no loop of files makes is none),
//!   unless `via…` keys narrow the cycles;
//! - `to: { couldNotResolve: true }` → `deny unresolved imports in *`;
//! - `from: { path: A }`, `to: { path: B }` → `deny flow X -> Y` for every component X in A and
//!   Y in B (`deny reach` with `reachable: true`);
//! - `from: { path: A }`, `to: { pathNot: B }` → each component in A is closed, `depends_on` the
//!   components in B;
//! - `from: { pathNot: A }`, `to: { path: B }` → `deny flow X -> Y` for every component X outside
//!   A and Y in B;
//! - `from: { pathNot: A }`, `to: { path: A, pathNot: P }` → `public: P` on A's component;
//! - a `pathNot` beside a `path` on the same side leaves the files it names out of the rule: a
//!   suffix (`\\.test\\.ts$`) is a component of its own under each folder of the path
//!   (`src/domain/**/*.test.ts`, taken out of the folder's component with a `!` glob), a path
//!   inside it (`src/infra/env/index.ts`) a component of its own;
//! - `options.exclude` → `exclude` globs (an unanchored expression matches anywhere).
//!
//! Every file belongs to a component: the paths the rules name, and `Rest` (`paths: "**"`, the
//! least specific glob) for all others, so cycles and unresolved imports are searched in every
//! file, as dependency-cruiser does. A path segment of any name (`[^/]+`) is the alternatives
//! of the names the project has there when `init` runs, and a `from.path` that captures one
//! (`^src/features/([^/]+)/`, repeated as `$1` in the other expressions) makes one instance of
//! the rule per folder there (see [`segment_instances`]). Every other rule or attribute
//! (`dependencyTypes`, `orphan`, other regular expressions, `allowed`, `extends`) is listed in a
//! comment as not translated, and so is a rule of severity `ignore`, which dependency-cruiser
//! does not check.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use crate::error::EngineError;

/// The most alternatives one path expression may expand to.
const MAX_ALTERNATIVES: usize = 64;

/// One path a rule names: a prefix of the files' paths (`src/ui` matches the folder `src/ui/`
/// and the module `src/ui.ts`), a folder (`src/ui/`) or one file (`src/meta.cjs$`), with at
/// exceptions (`src/api/(?!index)` leaves out `src/api/index`; a rule's `pathNot` beside its
/// `path` leaves out the files it names, or the files of a suffix, `src/domain/**/*.test.ts`).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Prefix {
    path: String,
    kind: Kind,
    /// The paths (or, with `/**/`, globs) left out by a negative lookahead or a `pathNot`: each
    /// a component of its own.
    except: Vec<String>,
    /// Whether the expression starts with `^` (an unanchored one matches anywhere).
    anchored: bool,
}

/// What a prefix's last segment names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// `^src/meta[.]cjs$`: that one file.
    File,
    /// `^src/ui/`: the folder.
    Folder,
    /// `^src/ui`: the folder or the module of that name (`src/ui.ts`).
    FolderOrModule,
    /// `src/domain/**/*.test.ts`: the files of a suffix under a folder (the key is the glob).
    Glob,
}

impl Prefix {
    /// Whether the component whose key is `key` lies inside this prefix.
    fn contains(&self, key: &str) -> bool {
        let inside = |path: &str| key == path || key.starts_with(&format!("{path}/"));
        inside(&self.path) && !self.except.iter().any(|except| inside(except))
    }
}

/// The components the rules name: key (a path, `**` for `Rest`) → name and kind.
#[derive(Clone)]
struct Components {
    entries: BTreeMap<String, (String, Kind)>,
}

impl Components {
    fn new() -> Self {
        Self {
            entries: BTreeMap::from([("**".to_owned(), ("Rest".to_owned(), Kind::Folder))]),
        }
    }

    /// Registers the components of a prefix: its path and its exceptions.
    fn register(&mut self, prefix: &Prefix) {
        self.add(&prefix.path, prefix.kind);
        for except in &prefix.except {
            let kind = match except.contains("/**/") {
                true => Kind::Glob,
                false => Kind::FolderOrModule,
            };
            self.add(except, kind);
        }
    }

    fn add(&mut self, path: &str, kind: Kind) {
        if let Some((_, known)) = self.entries.get_mut(path) {
            *known = (*known).max(kind);
            return;
        }
        // A glob's name: its folder's and its suffix's (`src/domain/**/*.test.ts` is
        // `DomainTestTs`).
        let named = match path.split_once("/**/") {
            Some((folder, suffix)) => format!(
                "{}{}",
                folder.rsplit('/').next().unwrap_or(folder),
                suffix.trim_start_matches('*')
            ),
            None => path.to_owned(),
        };
        let name = component_name(&named, self.entries.values().map(|(name, _)| name.as_str()));
        self.entries.insert(path.to_owned(), (name, kind));
    }

    /// The names of the components inside any of the prefixes, in key order.
    fn inside(&self, prefixes: &[Prefix]) -> Vec<String> {
        self.entries
            .iter()
            .filter(|(key, _)| prefixes.iter().any(|prefix| prefix.contains(key)))
            .map(|(_, (name, _))| name.clone())
            .collect()
    }

    /// The names of the components inside none of the prefixes (`Rest` included).
    fn outside(&self, prefixes: &[Prefix]) -> Vec<String> {
        self.entries
            .iter()
            .filter(|(key, _)| !prefixes.iter().any(|prefix| prefix.contains(key)))
            .map(|(_, (name, _))| name.clone())
            .collect()
    }
}

/// A translated rule, spelled once every component is known.
enum Pending {
    /// `deny flow`/`deny reach` from the components inside `from` (or outside `not_from`) to
    /// those inside `to`.
    Deny {
        name: String,
        verb: &'static str,
        from: Vec<Prefix>,
        outside_from: bool,
        to: Vec<Prefix>,
    },
    /// The components inside `from` may depend only on those inside `allowed`.
    Closed {
        name: String,
        from: Vec<Prefix>,
        allowed: Vec<Prefix>,
    },
    /// Other components may import only the `public` files of `component`.
    Public {
        name: String,
        component: Prefix,
        public: Vec<Prefix>,
    },
    /// A rule that needs no component (cycles, unresolved imports).
    Fixed(String),
}

/// The spec text for a dependency-cruiser configuration; `project` is read only to tell a
/// folder from a module of the same name.
pub fn translate(text: &str, source_name: &str, project: &Path) -> Result<String, EngineError> {
    let exported = ["module.exports", "export default"]
        .iter()
        .filter_map(|marker| text.find(marker).map(|position| (position, marker.len())))
        .min()
        .map(|(position, length)| {
            let rest = text.get(position + length..).unwrap_or_default();
            rest.trim_start()
                .strip_prefix('=')
                .unwrap_or(rest)
                .trim_start()
        });
    let declarations = Declarations::read(text);
    let config = match exported {
        // A JSON file.
        None => Json5::new(text, &declarations).value(),
        // `module.exports = { … }`, `export default { … }`.
        Some(rest) if rest.starts_with('{') => Json5::new(rest, &declarations).value(),
        // `export default config`: a constant declared above.
        Some(rest) => {
            let name: String = rest
                .chars()
                .take_while(|character| {
                    character.is_ascii_alphanumeric() || matches!(character, '_' | '$')
                })
                .collect();
            declarations.constants.get(&name).cloned()
        }
    };
    let config = config
        .filter(Value::is_object)
        .ok_or_else(|| {
            EngineError::Usage(format!(
                "`{source_name}`: no configuration object found (`module.exports = {{ … }}`, `export default {{ … }}` or JSON; a configuration computed by code cannot be read)"
            ))
        })?;
    let mut components = Components::new();
    let mut pending: Vec<Pending> = Vec::new();
    let mut skipped: Vec<String> = Vec::new();
    let forbidden = config
        .get("forbidden")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for (position, rule) in forbidden.iter().enumerate() {
        if !rule.is_object() {
            skipped.push(format!(
                "a rule computed by code (entry {} of `forbidden`)",
                position + 1
            ));
            continue;
        }
        let name = rule
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("unnamed")
            .to_owned();
        if rule.get("severity").and_then(Value::as_str) == Some("ignore") {
            skipped.push(format!(
                "{name} (severity `ignore`: dependency-cruiser does not check it)"
            ));
            continue;
        }
        let instances = match segment_instances(rule, project) {
            Ok(None) => vec![(name.clone(), rule.clone())],
            Ok(Some(instances)) => instances
                .into_iter()
                .map(|(value, rule)| match value {
                    Some(value) => (format!("{name} ($1 = {value})"), rule),
                    None => (name.clone(), rule),
                })
                .collect(),
            Err(why) => {
                skipped.push(format!("{name} ({why})"));
                continue;
            }
        };
        // Every instance of a rule is translated, or none.
        let mut trial = components.clone();
        let translated: Option<Vec<Pending>> = instances
            .iter()
            .map(|(name, rule)| translate_rule(rule, name, &mut trial, project))
            .collect();
        match translated {
            Some(rules) => {
                components = trial;
                pending.extend(rules);
            }
            None => skipped.push(name),
        }
    }
    let options = config.get("options");
    let excluded: Vec<String> = match options.and_then(|options| options.get("exclude")) {
        Some(exclude) => prefixes(exclude.get("path").or(Some(exclude)))
            .unwrap_or_default()
            .iter()
            .flat_map(|prefix| exclude_globs(project, prefix))
            .collect(),
        None => Vec::new(),
    };
    // The files of a suffix that the configuration excludes everywhere (its tests) are no
    // component: a rule's `pathNot` of them leaves out what is not checked anyway.
    components.entries.retain(|key, (_, kind)| {
        *kind != Kind::Glob
            || !key.split_once("/**/").is_some_and(|(_, suffix)| {
                excluded
                    .iter()
                    .any(|glob| glob.strip_prefix("**/") == Some(suffix))
            })
    });
    let owning = owning_components(project, &components, &excluded);
    let mut rules: Vec<String> = Vec::new();
    let mut depends_on: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut public: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for rule in pending {
        match rule {
            Pending::Fixed(text) => rules.push(text),
            Pending::Deny {
                name,
                verb,
                from,
                outside_from,
                to,
            } => {
                let sources = if outside_from {
                    components.outside(&from)
                } else {
                    components.inside(&from)
                };
                let targets = components.inside(&to);
                // Imports between the files of one component have no lintel form.
                let inside: Vec<&str> = sources
                    .iter()
                    .filter(|source| targets.contains(source))
                    .map(String::as_str)
                    .collect();
                let mut lines = vec![if inside.is_empty() {
                    format!("  // {name}")
                } else {
                    format!(
                        "  // {name} (imports inside {} are not checked)",
                        inside.join(", ")
                    )
                }];
                // A component that owns no file (every file of `sets/` lies in a set's own
                // component, or the configuration excludes them) meets no import: its pairs
                // could never fail.
                let mut empty = 0;
                for source in &sources {
                    for target in targets.iter().filter(|target| *target != source) {
                        if owning.contains(source) && owning.contains(target) {
                            lines.push(format!("  deny {verb} {source} -> {target}"));
                        } else {
                            empty += 1;
                        }
                    }
                }
                if lines.len() > 1 {
                    rules.push(lines.join("\n"));
                } else if empty > 0 {
                    skipped.push(format!(
                        "{name} (its components own no file of the project yet)"
                    ));
                } else {
                    skipped.push(format!("{name} (only imports inside one component)"));
                }
            }
            Pending::Closed {
                name,
                from,
                allowed,
            } => {
                let allowed = components.inside(&allowed);
                let closed = components.inside(&from);
                for component in &closed {
                    let mine: BTreeSet<String> = allowed
                        .iter()
                        .filter(|name| *name != component)
                        .cloned()
                        .collect();
                    depends_on
                        .entry(component.clone())
                        .and_modify(|known| *known = known.intersection(&mine).cloned().collect())
                        .or_insert(mine);
                }
                rules.push(format!(
                    "  // {name}: `depends_on` on {}",
                    closed.join(", ")
                ));
            }
            Pending::Public {
                name,
                component,
                public: files,
            } => {
                if let Some((owner, _)) = components.entries.get(&component.path) {
                    let globs = files
                        .iter()
                        .flat_map(|file| globs(project, file))
                        .collect::<Vec<_>>();
                    public
                        .entry(component.path.clone())
                        .or_default()
                        .extend(globs);
                    rules.push(format!("  // {name}: `public` on {owner}"));
                }
            }
        }
    }
    if config.get("allowed").is_some() {
        skipped.push("allowed (close each component with `depends_on`)".to_owned());
    }
    if config.get("extends").is_some() {
        skipped.push("extends (the rules of the configuration it extends are not read)".to_owned());
    }
    if options
        .and_then(|options| options.get("includeOnly"))
        .is_some()
    {
        skipped
            .push("options.includeOnly (lintel checks every file that is not excluded)".to_owned());
    }
    let excludes: Vec<String> = excluded.iter().map(|glob| format!("\"{glob}\"")).collect();
    let mut spec = format!(
        "// Translated from `{source_name}` by `lintel init --from`: review it, then run `lintel check --all`.\n\
         // Each path a rule names is a component, and `Rest` holds every other file.\n\n\
         node app : server\n"
    );
    if !excludes.is_empty() {
        spec.push_str(&format!("\nexclude {}\n", excludes.join(", ")));
    }
    spec.push('\n');
    for (key, (name, kind)) in &components.entries {
        let mut paths = if key == "**" {
            vec![key.clone()]
        } else {
            globs(
                project,
                &Prefix {
                    path: key.clone(),
                    kind: *kind,
                    except: Vec::new(),
                    anchored: true,
                },
            )
        };
        // The files of a suffix under this folder are a component of their own, which
        // `src/domain/**` would match as specifically as `src/domain/**/*.test.ts` does.
        paths.extend(
            components
                .entries
                .iter()
                .filter(|(other, (_, kind))| {
                    *kind == Kind::Glob
                        && other
                            .split_once("/**/")
                            .is_some_and(|(folder, _)| folder == key)
                })
                .map(|(other, _)| format!("!{other}")),
        );
        let mut line = format!(
            "component {name} {{ runs_on: app  paths: {}",
            glob_list(&paths)
        );
        if let Some(allowed) = depends_on.get(name) {
            let allowed = allowed.iter().cloned().collect::<Vec<_>>();
            if allowed.is_empty() {
                line.push_str("  depends_on: []");
            } else {
                line.push_str(&format!("  depends_on: {}", allowed.join(", ")));
            }
        }
        if let Some(files) = public.get(key) {
            line.push_str(&format!("  public: {}", glob_list(files)));
        }
        spec.push_str(&line);
        spec.push_str(" }\n");
    }
    if !rules.is_empty() {
        spec.push_str("\ninvariant DependencyCruiser {\n");
        spec.push_str(&rules.join("\n"));
        spec.push_str("\n}\n");
    }
    if !skipped.is_empty() {
        spec.push_str("\n// Not translated (see docs/MIGRATING.md):\n");
        for name in skipped {
            spec.push_str(&format!("// - {name}\n"));
        }
    }
    Ok(spec)
}

/// The segment patterns a path expression may hold: a captured segment, which `$1` repeats in
/// the rule's other expressions, and a segment of any name.
const CAPTURED_SEGMENTS: [&str; 2] = ["([^/]+)", "([^/]*)"];
const ANY_SEGMENTS: [&str; 4] = ["([^/]+)", "([^/]*)", "[^/]+", "[^/]*"];

/// One instance of a rule: the captured segment's value (none when nothing is captured) and
/// the rule with its patterns written out.
type Instance = (Option<String>, Value);

/// The instances of a rule whose paths name folders by pattern, with the folders the project
/// has: `Ok(None)` when it names none. A `from.path` that captures one segment
/// (`^src/features/([^/]+)/`, which `$1` repeats in the other expressions) gives one instance
/// per folder there (each with its name), and every other segment of any name (`[^/]+`, also a
/// group in `to`) is the alternatives of the names there; a `to.pathNot` that names exactly
/// some of `to.path`'s alternatives (the sibling rule: `to: { path: "^src/features/([^/]+)/",
/// pathNot: "^src/features/$1/" }`, features never import each other) leaves them out of it.
/// The names are read from the project when `init` runs: a folder added later is in no
/// component, as the closing comment says.
fn segment_instances(rule: &Value, project: &Path) -> Result<Option<Vec<Instance>>, String> {
    let sides = ["from", "to"];
    let keys = ["path", "pathNot"];
    // A rule over other attributes (`orphan`, `circular`, `dependencyTypes`) is left to
    // `translate_rule`, which says what it cannot translate.
    let only_paths = |side: &str, known: &[&str]| {
        rule.get(side)
            .and_then(Value::as_object)
            .is_none_or(|attributes| attributes.keys().all(|key| known.contains(&key.as_str())))
    };
    if !only_paths("from", &keys) || !only_paths("to", &["path", "pathNot", "reachable"]) {
        return Ok(None);
    }
    let mut any_pattern = false;
    for side in sides {
        for key in keys {
            for expression in expressions_of(rule.get(side).and_then(|side| side.get(key))) {
                any_pattern |= ANY_SEGMENTS
                    .iter()
                    .any(|pattern| expression.contains(pattern))
                    || expression.contains("$1");
            }
        }
    }
    if !any_pattern {
        return Ok(None);
    }
    let from_path = rule.get("from").and_then(|from| from.get("path"));
    let captured = from_path.and_then(Value::as_str).and_then(|expression| {
        CAPTURED_SEGMENTS
            .iter()
            .filter_map(|group| expression.find(group).map(|at| (at, *group)))
            .min()
            .map(|(at, group)| (expression.to_owned(), at, group))
    });
    // `$1` is the first capturing group: one before the segment (`^src/(a|b)/([^/]+)/`) is
    // another's.
    if let Some((expression, at, _)) = &captured {
        let before = expression.get(..*at).unwrap_or_default();
        if before.match_indices('(').any(|(index, _)| {
            !before[index + 1..].starts_with('?') && !before[..index].ends_with('\\')
        }) {
            return Err("`$1` captures a group before the path segment".to_owned());
        }
    }
    let values: Vec<Option<String>> = match &captured {
        Some((expression, at, group)) => {
            let after = expression.get(at + group.len()..).unwrap_or_default();
            segment_names(project, expression.get(..*at).unwrap_or_default(), after)?
                .into_iter()
                .map(Some)
                .collect()
        }
        None => vec![None],
    };
    let mut instances = Vec::new();
    for value in values {
        let mut instance = rule.clone();
        for side in sides {
            for key in keys {
                let Some(slot) = instance.get_mut(side).and_then(|side| side.get_mut(key)) else {
                    continue;
                };
                let rewrite = |expression: &str, is_from_path: bool| -> Result<String, String> {
                    let mut expression = expression.to_owned();
                    if let (Some(value), Some((_, at, group))) = (&value, &captured) {
                        if is_from_path {
                            expression.replace_range(*at..at + group.len(), &escaped(value)?);
                        }
                        expression = expression.replace("$1", &escaped(value)?);
                    } else if expression.contains("$1") {
                        return Err("`$1` with no segment captured by `from.path`".to_owned());
                    }
                    any_segments(project, &expression)
                };
                let is_from_path = side == "from" && key == "path";
                let rewritten = match &*slot {
                    Value::String(text) => Value::String(rewrite(text, is_from_path)?),
                    Value::Array(items) => Value::Array(
                        items
                            .iter()
                            .map(|item| match item.as_str() {
                                Some(text) => rewrite(text, false).map(Value::String),
                                None => Ok(item.clone()),
                            })
                            .collect::<Result<_, _>>()?,
                    ),
                    other => other.clone(),
                };
                *slot = rewritten;
            }
        }
        if let Some(to) = instance.get_mut("to") {
            if !leave_out_named_alternatives(to) {
                // Every target is left out: an instance with nothing to check (one feature).
                continue;
            }
        }
        instances.push((value, instance));
    }
    Ok(Some(instances))
}

/// The expressions of a `path`/`pathNot` value (a string or an array of strings).
fn expressions_of(value: Option<&Value>) -> Vec<&str> {
    match value {
        Some(Value::String(text)) => vec![text.as_str()],
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// `expression` with each segment of any name (`[^/]+`, `([^/]+)`) written as the
/// alternatives of the names the project has there. A top-level alternative that names no
/// such folder of the project (FSD's `^src/features/([^/]+)/@x/` where no slice has an `@x`
/// folder) is left out, unless every one is.
fn any_segments(project: &Path, expression: &str) -> Result<String, String> {
    let alternatives = top_level_alternatives(expression);
    if alternatives.len() < 2 {
        return any_segments_of(project, expression);
    }
    let mut kept = Vec::new();
    let mut failure = None;
    for alternative in alternatives {
        match any_segments_of(project, alternative) {
            Ok(written) => kept.push(written),
            Err(why) => failure = Some(why),
        }
    }
    match failure {
        Some(why) if kept.is_empty() => Err(why),
        _ => Ok(kept.join("|")),
    }
}

/// The alternatives of `expression` outside any group (`^a/|^b/` → `^a/`, `^b/`).
fn top_level_alternatives(expression: &str) -> Vec<&str> {
    let mut alternatives = Vec::new();
    let (mut depth, mut start, mut escaped) = (0_usize, 0, false);
    for (index, character) in expression.char_indices() {
        match character {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            '|' if depth == 0 => {
                alternatives.push(&expression[start..index]);
                start = index + 1;
            }
            _ => {}
        }
    }
    alternatives.push(&expression[start..]);
    alternatives
}

/// [`any_segments`] of one alternative.
fn any_segments_of(project: &Path, expression: &str) -> Result<String, String> {
    let mut expression = expression.to_owned();
    while let Some((at, pattern)) = ANY_SEGMENTS
        .iter()
        .filter_map(|pattern| expression.find(pattern).map(|at| (at, *pattern)))
        .min()
    {
        let after = expression.get(at + pattern.len()..).unwrap_or_default();
        let names = segment_names(project, expression.get(..at).unwrap_or_default(), after)?;
        let names: Vec<String> = names
            .iter()
            .map(|name| escaped(name))
            .collect::<Result<_, _>>()?;
        expression.replace_range(at..at + pattern.len(), &format!("(?:{})", names.join("|")));
    }
    Ok(expression)
}

/// The names of the folders (or, when no `/` follows the segment, also the files) that the
/// project has under the literal path `before` a segment pattern (`^src/features/`), in name
/// order.
fn segment_names(project: &Path, before: &str, after: &str) -> Result<Vec<String>, String> {
    let unsupported = || format!("a segment pattern after `{before}`, which is no folder path");
    let folder = match before.strip_prefix('^') {
        Some("") => String::new(),
        Some(_) => {
            let prefixes = expression_prefixes(before).ok_or_else(unsupported)?;
            let [Prefix {
                path,
                kind: Kind::Folder,
                except,
                ..
            }] = prefixes.as_slice()
            else {
                return Err(unsupported());
            };
            if !except.is_empty() {
                return Err(unsupported());
            }
            path.clone()
        }
        None => return Err(unsupported()),
    };
    let folders_only = after.starts_with('/');
    let mut names: Vec<String> = std::fs::read_dir(project.join(&folder))
        .map_err(|_| format!("no folder `{folder}` in the project"))?
        .flatten()
        .filter(|entry| {
            let Ok(kind) = entry.file_type() else {
                return false;
            };
            kind.is_dir() || (!folders_only && kind.is_file())
        })
        .filter_map(|entry| entry.file_name().to_str().map(str::to_owned))
        .filter(|name| !name.starts_with('.'))
        .collect();
    // The path the rest of the expression goes on into (`/journeys/`, `/index\\.js$`): only
    // the names that hold it (a set without journeys has none to check, a service folder
    // without an `index.js` no barrel).
    if let Some((rest, ending)) = literal_continuation(after) {
        names.retain(|name| {
            let path = project.join(&folder).join(name).join(&rest);
            match ending {
                Ending::Folder => path.is_dir(),
                Ending::File => path.is_file(),
                Ending::Open => {
                    path.exists()
                        || path
                            .file_name()
                            .and_then(|stem| stem.to_str())
                            .is_some_and(|stem| {
                                std::fs::read_dir(path.parent().unwrap_or(&path)).is_ok_and(
                                    |entries| {
                                        entries.flatten().any(|entry| {
                                            entry.file_name().to_str().is_some_and(|name| {
                                                name.starts_with(&format!("{stem}."))
                                            })
                                        })
                                    },
                                )
                            })
                }
            }
        });
    }
    names.sort();
    names.dedup();
    if names.is_empty() {
        return Err(format!("nothing under `{folder}` in the project"));
    }
    if names.len() > MAX_ALTERNATIVES {
        return Err(format!(
            "{} names under `{folder}`, more than {MAX_ALTERNATIVES}",
            names.len()
        ));
    }
    Ok(names)
}

/// How the literal path after a segment pattern ends.
#[derive(Clone, Copy)]
enum Ending {
    /// At a `/`: a folder.
    Folder,
    /// At the expression's `$`: a file.
    File,
    /// At anything else: a folder, a file or a module of that name (`ui` for `ui.ts`).
    Open,
}

/// The literal path that `after` (the text after a segment pattern) goes on into, with `\.`
/// and `[.]` read as dots, and how it ends; `None` when it names none (`/.+`, end of text).
fn literal_continuation(after: &str) -> Option<(String, Ending)> {
    let rest = after.strip_prefix('/')?;
    let bytes = rest.as_bytes();
    let (mut path, mut position) = (String::new(), 0);
    let mut ending = Ending::Open;
    while let Some(&byte) = bytes.get(position) {
        match byte {
            b'\\' if bytes.get(position + 1) == Some(&b'.') => {
                path.push('.');
                position += 2;
            }
            b'[' if bytes.get(position..position + 3) == Some(b"[.]") => {
                path.push('.');
                position += 3;
            }
            b'$' if position + 1 == bytes.len() => {
                ending = Ending::File;
                break;
            }
            b'/' => {
                ending = Ending::Folder;
                break;
            }
            _ if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'@') => {
                path.push(char::from(byte));
                position += 1;
            }
            _ => return None,
        }
    }
    (!path.is_empty()).then_some((path, ending))
}

/// A file or folder name as a path expression matches it: a `.` as `[.]`.
fn escaped(name: &str) -> Result<String, String> {
    if !name.chars().all(|character| {
        character.is_ascii_alphanumeric() || matches!(character, '_' | '-' | '@' | '.')
    }) {
        return Err(format!(
            "the name `{name}`, which a component path cannot hold"
        ));
    }
    Ok(name.replace('.', "[.]"))
}

/// Leaves out of `to.path` the alternatives that `to.pathNot` names exactly, and drops the
/// `pathNot` when it names nothing else (the sibling rule's own folder); `false` when no
/// alternative is left.
fn leave_out_named_alternatives(to: &mut Value) -> bool {
    let (Some(paths), Some(not)) = (prefixes(to.get("path")), prefixes(to.get("pathNot"))) else {
        return true;
    };
    let named = |prefix: &Prefix| not.iter().any(|excluded| excluded == prefix);
    if !paths.iter().any(named)
        || !not.iter().all(|excluded| paths.contains(excluded))
        || paths.iter().any(|prefix| !prefix.except.is_empty())
    {
        return true;
    }
    let kept: Vec<Value> = paths
        .iter()
        .filter(|prefix| !named(prefix))
        .map(|prefix| Value::String(prefix_expression(prefix)))
        .collect();
    if kept.is_empty() {
        return false;
    }
    if let Some(object) = to.as_object_mut() {
        object.remove("pathNot");
        object.insert("path".to_owned(), Value::Array(kept));
    }
    true
}

/// The expression of a prefix without exceptions, as [`expression_prefixes`] reads it back.
fn prefix_expression(prefix: &Prefix) -> String {
    let path = prefix.path.replace('.', "[.]");
    let anchor = if prefix.anchored { "^" } else { "" };
    match prefix.kind {
        Kind::File => format!("{anchor}{path}$"),
        Kind::Folder => format!("{anchor}{path}/"),
        Kind::FolderOrModule | Kind::Glob => format!("{anchor}{path}"),
    }
}

/// The names of the components that own some file of the project that `excluded` leaves in:
/// each file belongs to the most specific component whose path holds it (as the spec's globs
/// give it), `Rest` to the others. Hidden folders and `node_modules` are not read, and at most
/// 200,000 files.
fn owning_components(
    project: &Path,
    components: &Components,
    excluded: &[String],
) -> BTreeSet<String> {
    let mut exclude = globset::GlobSetBuilder::new();
    for glob in excluded {
        if let Ok(glob) = globset::GlobBuilder::new(glob)
            .literal_separator(true)
            .build()
        {
            exclude.add(glob);
        }
    }
    let exclude = exclude
        .build()
        .unwrap_or_else(|_| globset::GlobSet::empty());
    // Whether `file` lies in the folder `folder` (no allocation: this runs for every file and
    // component).
    let inside = |folder: &str, file: &str| {
        file.strip_prefix(folder)
            .is_some_and(|rest| rest.starts_with('/'))
    };
    let holds = |key: &str, kind: Kind, file: &str| match kind {
        Kind::File => file == key,
        Kind::Folder => inside(key, file),
        Kind::FolderOrModule => {
            inside(key, file)
                || file
                    .strip_prefix(key)
                    .and_then(|rest| rest.strip_prefix('.'))
                    .is_some_and(|rest| !rest.contains('/'))
        }
        Kind::Glob => key
            .split_once("/**/*")
            .is_some_and(|(folder, suffix)| inside(folder, file) && file.ends_with(suffix)),
    };
    let mut owning = BTreeSet::new();
    let mut pending = vec![String::new()];
    let mut seen = 0_usize;
    while let Some(folder) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(project.join(&folder)) else {
            continue;
        };
        for entry in entries.flatten() {
            let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
                continue;
            };
            let path = if folder.is_empty() {
                name.clone()
            } else {
                format!("{folder}/{name}")
            };
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if !name.starts_with('.') && name != "node_modules" {
                    pending.push(path);
                }
                continue;
            }
            if !kind.is_file() || exclude.is_match(&path) {
                continue;
            }
            seen += 1;
            if seen > 200_000 {
                return components
                    .entries
                    .values()
                    .map(|(name, _)| name.clone())
                    .collect();
            }
            // The most specific: a glob of a folder's suffix over the folder, else the longest.
            let owner = components
                .entries
                .iter()
                .filter(|(key, (_, kind))| key.as_str() != "**" && holds(key, *kind, &path))
                .max_by_key(|(key, (_, kind))| (*kind == Kind::Glob, key.len()))
                .map_or("Rest", |(_, (name, _))| name.as_str());
            owning.insert(owner.to_owned());
        }
    }
    owning
}

/// One `forbidden` rule, or `None` when it has no lintel form.
fn translate_rule(
    rule: &Value,
    name: &str,
    components: &mut Components,
    project: &Path,
) -> Option<Pending> {
    let from = rule.get("from").cloned().unwrap_or(Value::Null);
    let to = rule.get("to").cloned().unwrap_or(Value::Null);
    let flag = |key: &str| to.get(key).and_then(Value::as_bool) == Some(true);
    let scoped = |side: &Value| side.as_object().is_some_and(|keys| !keys.is_empty());
    let from_note = if scoped(&from) {
        " (its `from` is not translated: every file is checked)"
    } else {
        ""
    };
    if flag("circular") {
        // `via`, `viaOnly`, `viaNot`, `viaSomeNot` narrow the cycles: no lintel form.
        if to.as_object().is_some_and(|keys| keys.len() > 1) {
            return None;
        }
        return Some(Pending::Fixed(format!(
            "  // {name}{from_note}\n  deny cycle among files"
        )));
    }
    if flag("couldNotResolve") {
        return Some(Pending::Fixed(format!(
            "  // {name}{from_note}\n  deny unresolved imports in *"
        )));
    }
    let has_other = |side: &Value, known: &[&str]| {
        side.as_object()
            .is_some_and(|keys| keys.keys().any(|key| !known.contains(&key.as_str())))
    };
    if has_other(&from, &["path", "pathNot"])
        || has_other(&to, &["path", "pathNot", "reachable"])
        || to
            .get("reachable")
            .is_some_and(|reachable| reachable != &Value::Bool(true))
    {
        return None;
    }
    // `Some(None)`: the key is there but its expression has no lintel form.
    let read = |side: &Value, key: &str| side.get(key).map(|value| prefixes(Some(value)));
    let from_path = read(&from, "path");
    let from_not = read(&from, "pathNot");
    let to_path = read(&to, "path");
    let to_not = read(&to, "pathNot");
    let verb = if flag("reachable") { "reach" } else { "flow" };
    let pending = match (from_path, from_not, to_path, to_not) {
        (Some(Some(from)), None, Some(Some(to)), None) => Pending::Deny {
            name: name.to_owned(),
            verb,
            from,
            outside_from: false,
            to,
        },
        (None, Some(Some(from)), Some(Some(to)), None) => Pending::Deny {
            name: name.to_owned(),
            verb,
            from,
            outside_from: true,
            to,
        },
        (Some(Some(from)), None, None, Some(Some(allowed))) if verb == "flow" => Pending::Closed {
            name: name.to_owned(),
            from,
            allowed,
        },
        (None, Some(Some(outside)), Some(Some(to)), Some(Some(files)))
            if verb == "flow"
                && outside.len() == 1
                && to.len() == 1
                && outside.first().map(|prefix| &prefix.path)
                    == to.first().map(|prefix| &prefix.path)
                && to
                    .iter()
                    .all(|prefix| prefix.except.is_empty() && prefix.anchored)
                && files.iter().all(|file| {
                    to.first()
                        .is_some_and(|component| component.contains(&file.path))
                }) =>
        {
            let component = to.into_iter().next()?;
            components.register(&component);
            return Some(Pending::Public {
                name: name.to_owned(),
                component,
                public: files,
            });
        }
        // A `path` with a `pathNot` beside it on either side: the files it names are left out.
        (Some(Some(from)), from_not, Some(Some(to)), to_not) => {
            let side = |paths: Vec<Prefix>, not: Option<Option<Vec<Prefix>>>| match not {
                None => Some(paths),
                Some(not) => with_exceptions(paths, not?),
            };
            Pending::Deny {
                name: name.to_owned(),
                verb,
                from: side(from, from_not)?,
                outside_from: false,
                to: side(to, to_not)?,
            }
        }
        _ => return None,
    };
    let named: Vec<&Prefix> = match &pending {
        Pending::Deny { from, to, .. } => from.iter().chain(to).collect(),
        Pending::Closed { from, allowed, .. } => from.iter().chain(allowed).collect(),
        Pending::Public { .. } | Pending::Fixed(_) => Vec::new(),
    };
    // An unanchored expression matches anywhere in a path: no component has that shape.
    if !named.iter().all(|prefix| prefix.anchored) {
        return None;
    }
    // A target that names no file of the project is a package (`^fs$`), not a component.
    let targets = match &pending {
        Pending::Deny { to, .. } => to.as_slice(),
        Pending::Closed { .. } | Pending::Public { .. } | Pending::Fixed(_) => &[],
    };
    if !targets.iter().all(|prefix| exists(project, prefix)) {
        return None;
    }
    for prefix in named {
        components.register(prefix);
    }
    Some(pending)
}

/// `paths` without the files `not` names: each must lie inside one of them (a path, or an
/// unanchored one that starts with theirs: `src/infra/env/index.ts`), or be a suffix of files
/// (`\\.test\\.ts$`, `[.](?:spec|test)[.]ts$`), left out under every folder of `paths`;
/// `None` for anything else.
fn with_exceptions(mut paths: Vec<Prefix>, not: Vec<Prefix>) -> Option<Vec<Prefix>> {
    for excluded in not {
        if !excluded.except.is_empty() {
            return None;
        }
        let is_suffix = !excluded.anchored
            && excluded.kind == Kind::File
            && excluded.path.starts_with('.')
            && !excluded.path.contains('/');
        if is_suffix {
            for path in &mut paths {
                if path.kind == Kind::File {
                    continue;
                }
                path.except
                    .push(format!("{}/**/*{}", path.path, excluded.path));
            }
            continue;
        }
        let owner = paths.iter_mut().find(|path| {
            path.kind != Kind::File && excluded.path.starts_with(&format!("{}/", path.path))
        })?;
        owner.except.push(excluded.path);
    }
    Some(paths)
}

/// The globs of a prefix. A prefix that may be a folder or a module is the folder, the module
/// (`src/ui.*`) when the project has such a file, or both.
fn globs(project: &Path, prefix: &Prefix) -> Vec<String> {
    let path = &prefix.path;
    match prefix.kind {
        Kind::File | Kind::Glob => vec![path.clone()],
        Kind::Folder => vec![format!("{path}/**")],
        Kind::FolderOrModule if project.join(path).is_file() => vec![path.clone()],
        Kind::FolderOrModule => {
            let folder = project.join(path).is_dir();
            let (parent, stem) = path.rsplit_once('/').unwrap_or(("", path));
            let module = std::fs::read_dir(project.join(parent)).is_ok_and(|entries| {
                entries.flatten().any(|entry| {
                    entry.path().is_file()
                        && entry
                            .file_name()
                            .to_str()
                            .is_some_and(|name| name.starts_with(&format!("{stem}.")))
                })
            });
            let mut globs = Vec::new();
            if folder || !module {
                globs.push(format!("{path}/**"));
            }
            if module {
                globs.push(format!("{path}.*"));
            }
            globs
        }
    }
}

/// Whether some file of the project lies in the prefix (its folder, module or file).
fn exists(project: &Path, prefix: &Prefix) -> bool {
    let path = project.join(&prefix.path);
    match prefix.kind {
        Kind::File => path.is_file(),
        Kind::Folder => path.is_dir(),
        Kind::Glob => true,
        Kind::FolderOrModule => {
            path.exists()
                || globs(project, prefix)
                    .iter()
                    .any(|glob| glob.ends_with(".*"))
        }
    }
}

/// The `exclude` globs of a prefix: an unanchored expression matches anywhere in a path.
fn exclude_globs(project: &Path, prefix: &Prefix) -> Vec<String> {
    if prefix.anchored {
        return globs(project, prefix);
    }
    let path = &prefix.path;
    match prefix.kind {
        Kind::File => vec![format!("**/*{path}")],
        Kind::Glob => vec![path.clone()],
        Kind::Folder => vec![format!("**/*{path}/**")],
        Kind::FolderOrModule => vec![format!("**/*{path}*/**"), format!("**/*{path}*")],
    }
}

/// A glob or a list of globs, as `paths` and `public` take them.
fn glob_list(globs: &[String]) -> String {
    match globs {
        [one] => format!("\"{one}\""),
        _ => format!(
            "[{}]",
            globs
                .iter()
                .map(|glob| format!("\"{glob}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The prefixes a `path` expression (a string or an array of strings) names, when each has a
/// lintel form; `None` otherwise.
fn prefixes(value: Option<&Value>) -> Option<Vec<Prefix>> {
    let expressions: Vec<&str> = match value? {
        Value::String(text) => vec![text.as_str()],
        Value::Array(items) => items.iter().map(Value::as_str).collect::<Option<_>>()?,
        _ => return None,
    };
    let mut all = Vec::new();
    for expression in expressions {
        all.extend(expression_prefixes(expression)?);
    }
    (!all.is_empty()).then_some(all)
}

/// One alternative of a path expression while it is read.
#[derive(Debug, Clone, Default)]
struct Alternative {
    text: String,
    except: Option<String>,
    /// Ended by a `$` inside a group (`evaluator(\\.js$|/)`): one file, nothing may follow.
    exact: bool,
}

/// The prefixes of one regular expression: literal path characters (with `\.`, `[.]` and `\/`
/// escapes), groups of alternatives (`(a|b)`, `(?:a|b)`), one negative lookahead at the end of
/// an alternative (`(?!index)`), a `$` at the end of an alternative inside a group
/// (`(evaluator(\\.js$|/)|state\\.js$)`) and a final `$`.
fn expression_prefixes(expression: &str) -> Option<Vec<Prefix>> {
    let (anchored, rest) = match expression.strip_prefix('^') {
        Some(rest) => (true, rest),
        None => (false, expression),
    };
    let (exact, rest) = match rest.strip_suffix('$') {
        Some(rest) if !rest.ends_with('\\') => (true, rest),
        _ => (false, rest),
    };
    // Anything inside a folder (`^src/features/[^/]+/.+`) is the folder.
    let (exact, rest) = match rest
        .strip_suffix("/.+")
        .or_else(|| rest.strip_suffix("/.*"))
    {
        Some(folder) => (false, &rest[..=folder.len()]),
        None => (exact, rest),
    };
    let bytes = rest.as_bytes();
    let mut position = 0;
    let alternatives = sequence(bytes, &mut position, 0)?;
    if position != bytes.len() {
        return None;
    }
    alternatives
        .into_iter()
        .map(|alternative| {
            let folder = alternative.text.ends_with('/');
            let path = alternative.text.trim_end_matches('/').to_owned();
            let except = alternative.except.map(|except| {
                if folder {
                    format!("{path}/{except}")
                } else {
                    format!("{path}{except}")
                }
            });
            let plain = |path: &str| {
                !path.is_empty()
                    && path.chars().all(|character| {
                        character.is_ascii_alphanumeric()
                            || matches!(character, '/' | '_' | '-' | '.' | '@')
                    })
                    && !path
                        .split('/')
                        .any(|segment| segment.is_empty() || segment == "..")
            };
            if !plain(&path) || !except.as_deref().is_none_or(plain) || (exact && except.is_some())
            {
                return None;
            }
            let exact = exact || alternative.exact;
            let kind = if exact {
                Kind::File
            } else if folder {
                Kind::Folder
            } else {
                Kind::FolderOrModule
            };
            Some(Prefix {
                path,
                kind,
                except: except.into_iter().collect(),
                anchored,
            })
        })
        .collect()
}

/// Reads alternatives up to an unmatched `)` or the end.
fn sequence(bytes: &[u8], position: &mut usize, depth: usize) -> Option<Vec<Alternative>> {
    if depth > 4 {
        return None;
    }
    let mut done: Vec<Alternative> = Vec::new();
    let mut current: Vec<Alternative> = vec![Alternative::default()];
    while let Some(&byte) = bytes.get(*position) {
        match byte {
            b')' => break,
            b'|' => {
                *position += 1;
                done.append(&mut current);
                current = vec![Alternative::default()];
            }
            b'(' => {
                let rest = bytes.get(*position..)?;
                if rest.starts_with(b"(?!") {
                    *position += 3;
                    let inner = sequence(bytes, position, depth + 1)?;
                    if bytes.get(*position) != Some(&b')') {
                        return None;
                    }
                    *position += 1;
                    let [Alternative {
                        text,
                        except: None,
                        exact: false,
                    }] = inner.as_slice()
                    else {
                        return None;
                    };
                    // The lookahead ends its alternative.
                    if !matches!(bytes.get(*position), None | Some(b')' | b'|')) {
                        return None;
                    }
                    for alternative in &mut current {
                        if alternative.except.is_some() || alternative.exact {
                            return None;
                        }
                        alternative.except = Some(text.clone());
                    }
                    continue;
                }
                *position += if rest.starts_with(b"(?:") { 3 } else { 1 };
                let inner = sequence(bytes, position, depth + 1)?;
                if bytes.get(*position) != Some(&b')') {
                    return None;
                }
                *position += 1;
                let mut product = Vec::new();
                for head in &current {
                    for tail in &inner {
                        if head.except.is_some() || head.exact {
                            return None;
                        }
                        product.push(Alternative {
                            text: format!("{}{}", head.text, tail.text),
                            except: tail.except.clone(),
                            exact: tail.exact,
                        });
                    }
                }
                if product.len() + done.len() > MAX_ALTERNATIVES {
                    return None;
                }
                current = product;
            }
            // A `$` that ends an alternative inside a group.
            b'$' if depth > 0 && matches!(bytes.get(*position + 1), Some(b')' | b'|')) => {
                *position += 1;
                for alternative in &mut current {
                    if alternative.except.is_some() {
                        return None;
                    }
                    alternative.exact = true;
                }
            }
            _ => {
                let character = match byte {
                    b'\\' => {
                        let escaped = *bytes.get(*position + 1)?;
                        *position += 2;
                        if !matches!(escaped, b'.' | b'/' | b'-' | b'@' | b'_') {
                            return None;
                        }
                        escaped
                    }
                    b'[' => {
                        let class = bytes.get(*position..*position + 3)?;
                        let [b'[', inner, b']'] = class else {
                            return None;
                        };
                        *position += 3;
                        if !matches!(inner, b'.' | b'/' | b'-' | b'@' | b'_') {
                            return None;
                        }
                        *inner
                    }
                    _ => {
                        // An unescaped `.` between two letters or digits is a file name's dot
                        // (`src/env/index.ts`): it matches any character, which real paths do
                        // not tell apart.
                        let name_dot = byte == b'.'
                            && position
                                .checked_sub(1)
                                .and_then(|before| bytes.get(before))
                                .is_some_and(u8::is_ascii_alphanumeric)
                            && bytes
                                .get(*position + 1)
                                .is_some_and(u8::is_ascii_alphanumeric);
                        *position += 1;
                        if !(byte.is_ascii_alphanumeric()
                            || matches!(byte, b'/' | b'_' | b'-' | b'@')
                            || name_dot)
                        {
                            return None;
                        }
                        byte
                    }
                };
                for alternative in &mut current {
                    if alternative.except.is_some() || alternative.exact {
                        return None;
                    }
                    alternative.text.push(char::from(character));
                }
            }
        }
    }
    done.append(&mut current);
    Some(done)
}

/// The component name of a path: its last segment in PascalCase, or when another component
/// has that name its last two (`src/features/cart/internal` beside `…/auth/internal` is
/// `CartInternal`), made unique.
fn component_name<'a>(path: &str, taken: impl Iterator<Item = &'a str> + Clone) -> String {
    let last = path.rsplit('/').next().unwrap_or(path);
    let name = segment_name(last, taken.clone());
    if name == pascal_case(last) {
        return name;
    }
    match path.rsplit('/').nth(1) {
        Some(parent) => segment_name(&format!("{parent}-{last}"), taken),
        None => name,
    }
}

/// `text` in PascalCase, made unique among `taken`.
fn segment_name<'a>(text: &str, taken: impl Iterator<Item = &'a str> + Clone) -> String {
    let base = pascal_case(text);
    let mut name = base.clone();
    let mut counter = 2;
    while taken.clone().any(|known| known == name) {
        name = format!("{base}{counter}");
        counter += 1;
    }
    name
}

/// `text` in PascalCase, starting with a letter (`M` before a digit).
fn pascal_case(text: &str) -> String {
    let mut base: String = text
        .split(|character: char| !character.is_ascii_alphanumeric())
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut characters = part.chars();
            characters.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + characters.as_str()
            })
        })
        .collect();
    if !base.starts_with(|character: char| character.is_ascii_alphabetic()) {
        base.insert(0, 'M');
    }
    base
}

/// A JSON5-ish reader: objects, arrays, strings in any quotes, numbers, `true`/`false`/`null`,
/// comments and trailing commas. A value it cannot read (an identifier, a call, a regular
/// expression literal) is skipped to the next `,` or closing bracket and reads as `null`.
struct Json5<'a> {
    text: &'a [u8],
    position: usize,
    /// The file's constants and functions ([`Declarations`]).
    declarations: &'a Declarations<'a>,
    /// Set when a template literal read since the flag was last cleared substitutes something
    /// that is no known constant: its value is computed.
    computed: bool,
    /// How many calls of declared functions deep this reader is.
    calls: usize,
}

/// What a configuration file declares at its top level, read without running it: constants
/// (`const APP = 'src/server/app'`, `const permitted = ["src/env.ts"]`, `const config = { … }`),
/// each from literals and earlier constants, in order, and functions without parameters whose
/// body returns at once (`function noCycles() { return { … } }`, `const rule = () => ({ … })`),
/// which a call `noCycles()` in the configuration stands for. A declaration computed otherwise
/// is left out.
struct Declarations<'a> {
    constants: BTreeMap<String, Value>,
    /// Function name → the text after its `return` (or its arrow).
    functions: BTreeMap<String, &'a str>,
}

/// The most nested calls of declared functions one value may make.
const MAX_CALLS: usize = 8;

impl<'a> Declarations<'a> {
    fn read(text: &'a str) -> Self {
        let mut declarations = Declarations {
            constants: BTreeMap::new(),
            functions: BTreeMap::new(),
        };
        // Functions first: a declaration is hoisted, so a configuration may call one declared
        // below it.
        for (offset, line) in line_starts(text) {
            let trimmed = line.trim_start();
            let Some(declaration) = trimmed
                .strip_prefix("export ")
                .unwrap_or(trimmed)
                .strip_prefix("function ")
            else {
                continue;
            };
            let Some((name, rest)) = declaration.split_once('(') else {
                continue;
            };
            let name = name.trim();
            if !is_identifier(name) || !rest.trim_start().starts_with(')') {
                continue;
            }
            let start = offset + (line.len() - declaration.len());
            if let Some(body) = text.get(start..).and_then(returned_text) {
                declarations.functions.insert(name.to_owned(), body);
            }
        }
        let end = ["module.exports", "export default"]
            .iter()
            .filter_map(|marker| text.find(marker))
            .min()
            .unwrap_or(text.len());
        for (offset, line) in line_starts(text) {
            if offset >= end {
                break;
            }
            let trimmed = line.trim_start();
            let Some(declaration) = ["const ", "let ", "var "]
                .iter()
                .find_map(|keyword| trimmed.strip_prefix(keyword))
            else {
                continue;
            };
            let Some((name, after)) = declaration.split_once('=') else {
                continue;
            };
            let name = name.trim();
            if !is_identifier(name) || after.starts_with(['=', '>']) {
                continue;
            }
            let start = offset + (line.len() - after.len());
            let Some(value_text) = text.get(start..) else {
                continue;
            };
            // An arrow function without parameters: `() => ({ … })`, `() => { return … }`.
            if let Some(arrow) = value_text.trim_start().strip_prefix("()") {
                if let Some(body) = arrow.trim_start().strip_prefix("=>") {
                    let body = body.trim_start();
                    let returned = match body.starts_with('{') {
                        true => returned_text(body),
                        false => Some(body),
                    };
                    if let Some(returned) = returned {
                        declarations.functions.insert(name.to_owned(), returned);
                    }
                }
                continue;
            }
            let mut reader = Json5::new(value_text, &declarations);
            let read = reader.value();
            let complete = !std::mem::take(&mut reader.computed) && reader.statement_ends();
            if let (Some(value), true) = (read, complete) {
                if !value.is_null() {
                    declarations.constants.insert(name.to_owned(), value);
                }
            }
        }
        declarations
    }
}

/// Each line of `text` (without its line break) with the offset it starts at.
fn line_starts(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut offset = 0;
    text.split_inclusive('\n').map(move |line| {
        let start = offset;
        offset += line.len();
        (start, line.trim_end_matches(['\n', '\r']))
    })
}

fn is_identifier(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|character: char| character.is_ascii_digit())
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'$')
}

/// The text after the `return` of the function body that opens at `text`'s first `{`, when
/// the body returns before anything else (comments aside); `None` otherwise.
fn returned_text(text: &str) -> Option<&str> {
    let open = text.find('{')?;
    let mut body = text.get(open + 1..)?.trim_start();
    loop {
        if let Some(rest) = body.strip_prefix("//") {
            body = rest
                .split_once('\n')
                .map_or("", |(_, rest)| rest)
                .trim_start();
        } else if let Some(rest) = body.strip_prefix("/*") {
            body = rest
                .split_once("*/")
                .map_or("", |(_, rest)| rest)
                .trim_start();
        } else {
            break;
        }
    }
    let rest = body.strip_prefix("return")?;
    rest.starts_with(|character: char| {
        character.is_whitespace() || matches!(character, '{' | '(' | '[')
    })
    .then_some(rest)
}

impl<'a> Json5<'a> {
    fn new(text: &'a str, declarations: &'a Declarations<'a>) -> Self {
        Self {
            text: text.as_bytes(),
            position: 0,
            declarations,
            computed: false,
            calls: 0,
        }
    }

    /// Whether the statement read ends here (`;`, a line break, a comment or the end).
    fn statement_ends(&mut self) -> bool {
        while self
            .peek()
            .is_some_and(|byte| byte == b' ' || byte == b'\t')
        {
            self.position += 1;
        }
        matches!(self.peek(), None | Some(b';' | b'\n' | b'\r'))
            || (self.peek() == Some(b'/')
                && matches!(self.text.get(self.position + 1), Some(b'/' | b'*')))
    }

    /// The identifier at the reading position, without moving.
    fn identifier_ahead(&self) -> Option<&'a str> {
        let text: &'a [u8] = self.text;
        let rest = text.get(self.position..)?;
        let length = rest
            .iter()
            .take_while(|byte| byte.is_ascii_alphanumeric() || **byte == b'_' || **byte == b'$')
            .count();
        std::str::from_utf8(rest.get(..length)?)
            .ok()
            .filter(|name| is_identifier(name))
    }

    /// A declared constant that is no string, or a call without arguments of a declared
    /// function, at the reading position: its value, read.
    fn declared_value(&mut self) -> Option<Value> {
        let name = self.identifier_ahead()?;
        let after = self.position + name.len();
        let rest = std::str::from_utf8(self.text.get(after..)?).ok()?;
        let call_end = rest
            .trim_start()
            .strip_prefix('(')
            .map(str::trim_start)
            .and_then(|rest| rest.strip_prefix(')'))
            .map(|rest| self.text.len() - rest.len());
        match call_end {
            Some(end) => {
                let body = *self.declarations.functions.get(name)?;
                if self.calls >= MAX_CALLS {
                    return None;
                }
                let mut reader = Json5::new(body, self.declarations);
                reader.calls = self.calls + 1;
                let value = reader.value()?;
                self.position = end;
                Some(value)
            }
            None => {
                let value = self.declarations.constants.get(name)?;
                if value.is_string() {
                    return None;
                }
                self.position = after;
                Some(value.clone())
            }
        }
    }

    /// The known constant named by the identifier at the reading position, read.
    fn constant(&mut self) -> Option<String> {
        let name = self.identifier_ahead()?;
        let value = self.declarations.constants.get(name)?.as_str()?.to_owned();
        self.position += name.len();
        Some(value)
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.position).copied()
    }

    fn skip_space(&mut self) {
        loop {
            match (self.peek(), self.text.get(self.position + 1).copied()) {
                (Some(byte), _) if byte.is_ascii_whitespace() => self.position += 1,
                (Some(b'/'), Some(b'/')) => {
                    while self.peek().is_some_and(|byte| byte != b'\n') {
                        self.position += 1;
                    }
                }
                (Some(b'/'), Some(b'*')) => {
                    self.position += 2;
                    while self.position < self.text.len()
                        && !(self.peek() == Some(b'*')
                            && self.text.get(self.position + 1) == Some(&b'/'))
                    {
                        self.position += 1;
                    }
                    self.position += 2;
                }
                _ => return,
            }
        }
    }

    fn value(&mut self) -> Option<Value> {
        self.value_at(0)
    }

    fn value_at(&mut self, depth: usize) -> Option<Value> {
        if depth > 64 {
            return None;
        }
        self.skip_space();
        match self.peek()? {
            b'{' => {
                self.position += 1;
                let mut object = serde_json::Map::new();
                loop {
                    self.skip_space();
                    let before = self.position;
                    match self.peek()? {
                        b'}' => {
                            self.position += 1;
                            return Some(Value::Object(object));
                        }
                        b',' => self.position += 1,
                        _ => {
                            let key = self.key()?;
                            self.skip_space();
                            if self.peek() != Some(b':') {
                                // A shorthand or spread entry: skip it; a stray closer ends
                                // the read.
                                self.skip_unknown();
                                if self.position == before {
                                    return None;
                                }
                                continue;
                            }
                            self.position += 1;
                            let value = self.value_at(depth + 1)?;
                            object.insert(key, value);
                        }
                    }
                }
            }
            b'[' => {
                self.position += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_space();
                    let before = self.position;
                    match self.peek()? {
                        b']' => {
                            self.position += 1;
                            return Some(Value::Array(items));
                        }
                        b',' => self.position += 1,
                        _ => items.push(self.value_at(depth + 1)?),
                    }
                    if self.position == before {
                        return None;
                    }
                }
            }
            b'"' | b'\'' | b'`' => self.string_expression(),
            _ if self.constant_ahead() => self.string_expression(),
            b'(' => {
                // A parenthesized value: the body of `() => ({ … })`.
                self.position += 1;
                let value = self.value_at(depth + 1)?;
                self.skip_space();
                if self.peek() == Some(b')') {
                    self.position += 1;
                }
                Some(value)
            }
            _ => {
                if let Some(value) = self.declared_value() {
                    return Some(value);
                }
                let start = self.position;
                self.skip_unknown();
                let word = std::str::from_utf8(self.text.get(start..self.position)?)
                    .ok()?
                    .trim();
                Some(match word {
                    "true" => Value::Bool(true),
                    "false" => Value::Bool(false),
                    _ => word
                        .parse::<f64>()
                        .ok()
                        .and_then(serde_json::Number::from_f64)
                        .map_or(Value::Null, Value::Number),
                })
            }
        }
    }

    /// Whether a known constant's name is at the reading position (and not a longer name).
    fn constant_ahead(&self) -> bool {
        self.identifier_ahead().is_some_and(|name| {
            self.declarations
                .constants
                .get(name)
                .is_some_and(Value::is_string)
        })
    }

    /// String literals and known constants joined by `+` (`'^src/' + 'ui'`, `APP + '/engine'`)
    /// as one string; `null` when an operand is computed (another variable, a call).
    fn string_expression(&mut self) -> Option<Value> {
        self.computed = false;
        let mut text = String::new();
        loop {
            self.skip_space();
            match self.peek() {
                Some(b'"' | b'\'' | b'`') => text.push_str(&self.string()?),
                _ => match self.constant() {
                    Some(value) => text.push_str(&value),
                    None => {
                        self.skip_unknown();
                        return Some(Value::Null);
                    }
                },
            }
            let before = self.position;
            self.skip_space();
            if self.peek() != Some(b'+') {
                self.position = before;
                break;
            }
            self.position += 1;
        }
        if std::mem::take(&mut self.computed) {
            self.skip_unknown();
            return Some(Value::Null);
        }
        Some(Value::String(text))
    }

    fn key(&mut self) -> Option<String> {
        match self.peek()? {
            b'"' | b'\'' | b'`' => self.string(),
            _ => {
                let start = self.position;
                while self.peek().is_some_and(|byte| {
                    byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'$'
                }) {
                    self.position += 1;
                }
                if self.position == start {
                    return Some(String::new());
                }
                std::str::from_utf8(self.text.get(start..self.position)?)
                    .ok()
                    .map(str::to_owned)
            }
        }
    }

    fn string(&mut self) -> Option<String> {
        let quote = self.peek()?;
        self.position += 1;
        let mut bytes = Vec::new();
        loop {
            let byte = self.peek()?;
            self.position += 1;
            match byte {
                b'\\' => {
                    let escaped = self.peek()?;
                    self.position += 1;
                    bytes.push(match escaped {
                        b'n' => b'\n',
                        b't' => b'\t',
                        other => other,
                    });
                }
                _ if byte == quote => break,
                b'$' if quote == b'`' && self.peek() == Some(b'{') => {
                    // A substitution: a known constant's value, else the string is computed.
                    self.position += 1;
                    let start = self.position;
                    while self.peek().is_some_and(|byte| byte != b'}' && byte != b'`') {
                        self.position += 1;
                    }
                    let name = std::str::from_utf8(self.text.get(start..self.position)?)
                        .ok()?
                        .trim();
                    match self
                        .declarations
                        .constants
                        .get(name)
                        .and_then(Value::as_str)
                    {
                        Some(value) => bytes.extend_from_slice(value.as_bytes()),
                        None => self.computed = true,
                    }
                    if self.peek() == Some(b'}') {
                        self.position += 1;
                    }
                }
                _ => bytes.push(byte),
            }
        }
        String::from_utf8(bytes).ok()
    }

    /// Skips an unreadable value: to the next `,`, `}` or `]` outside brackets and strings.
    fn skip_unknown(&mut self) {
        let mut depth = 0_usize;
        while let Some(byte) = self.peek() {
            match byte {
                b'"' | b'\'' | b'`' => {
                    if self.string().is_none() {
                        return;
                    }
                    continue;
                }
                b'(' | b'{' | b'[' => depth += 1,
                b')' | b'}' | b']' if depth == 0 => return,
                b')' | b'}' | b']' => depth -= 1,
                b',' if depth == 0 => return,
                _ => {}
            }
            self.position += 1;
        }
    }
}
