//! The units a repository shows, for `lintel init` without `--from`: workspace packages, Nx
//! projects, Cargo crates, Gradle and Maven modules, `.csproj` projects, Go and Python packages,
//! SwiftPM targets, else top-level source folders; then the granularity a starter spec wants (3
//! to 30 components).
//!
//! Everything is read from the project's file list (project-relative, `/`) and the text of a few
//! manifests, so the answer is a function of the snapshot and is sorted.

use std::collections::{BTreeMap, BTreeSet};

use globset::{Glob, GlobMatcher};

/// Fewer components than this and the biggest one is split into its folders.
pub const MIN_UNITS: usize = 3;
/// More than this and units are merged by top-level folder, then the smallest left unowned.
pub const MAX_UNITS: usize = 30;

/// The extensions of the languages lintel extracts.
const SOURCE_EXTENSIONS: [&str; 15] = [
    "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "py", "go", "rs", "java", "kt", "cs",
    "swift",
];

/// Folders that are never units: dependencies, build output, version control.
const SKIPPED_FOLDERS: [&str; 12] = [
    "node_modules",
    "vendor",
    "dist",
    "build",
    "target",
    "out",
    "bin",
    "obj",
    ".git",
    "__pycache__",
    ".venv",
    "third_party",
];

/// One proposed component: a folder (or a Rust module's file and folder) of the project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// The component name (PascalCase, a valid identifier).
    pub name: String,
    /// The project-relative folder, without a trailing `/`.
    pub dir: String,
    /// The globs of `paths`.
    pub globs: Vec<String>,
    /// What showed it (`Cargo workspace member`, `top-level folder`…).
    pub why: String,
    /// Its source files.
    pub files: usize,
    /// Whether most of the files under its folder are TypeScript or JavaScript (where an `app`
    /// folder is a front end; a Python or Go `app` rarely is).
    pub mostly_scripts: bool,
}

/// The units, and what was left out.
#[derive(Debug, Default)]
pub struct Layout {
    /// Sorted by folder.
    pub units: Vec<Unit>,
    /// Notes for the spec's header (what was merged or left unowned).
    pub notes: Vec<String>,
    /// The `exclude` globs of the tests, sorted, and how many files they leave out.
    pub tests: (Vec<String>, usize),
}

/// The test folders and files of the project: an `exclude` glob for each folder name whose
/// words include `test` or `tests` (`tests`, `__tests__`, `jvmTest`, `Ordering.UnitTests`,
/// `container-tests`) and for each test-file pattern met (`*.test.ts`, `*_test.go`,
/// `test_*.py`); and the files they match.
pub fn test_globs(files: &[String]) -> (Vec<String>, BTreeSet<String>) {
    let mut globs: BTreeSet<String> = BTreeSet::new();
    let mut matched: BTreeSet<String> = BTreeSet::new();
    let mut folder_names: BTreeSet<String> = BTreeSet::new();
    for path in files {
        let segments: Vec<&str> = path.split('/').collect();
        let (file, folders) = match segments.split_last() {
            Some((file, folders)) => (*file, folders),
            None => continue,
        };
        if let Some(folder) = folders.iter().find(|folder| is_test_word(folder)) {
            folder_names.insert((*folder).to_owned());
            matched.insert(path.clone());
            continue;
        }
        if let Some(pattern) = test_file_pattern(file) {
            globs.insert(pattern);
            matched.insert(path.clone());
        }
    }
    // Three or more names that share their start up to the test word and a separator are one
    // glob (`upgrade-system-tests-0100`, `-0101`… are `**/upgrade-system-tests-*/**`).
    let mut by_prefix: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for name in folder_names {
        match test_prefix(&name) {
            Some(prefix) => by_prefix.entry(prefix).or_default().push(name),
            None => {
                globs.insert(format!("**/{name}/**"));
            }
        }
    }
    for (prefix, names) in by_prefix {
        if names.len() >= 3 {
            globs.insert(format!("**/{prefix}*/**"));
        } else {
            globs.extend(names.into_iter().map(|name| format!("**/{name}/**")));
        }
    }
    (globs.into_iter().collect(), matched)
}

/// A test folder name's start up to its test word and the separator after it, when more
/// follows (`upgrade-system-tests-0100` is `upgrade-system-tests-`; `tests` has none).
fn test_prefix(name: &str) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    let end = ["tests", "test"]
        .iter()
        .filter_map(|word| lower.find(word).map(|at| at + word.len()))
        .max()?;
    let separator = name.get(end..=end)?;
    if !["-", "_", "."].contains(&separator) || name.len() <= end + 1 {
        return None;
    }
    name.get(..=end).map(str::to_owned)
}

/// Whether a folder name is a test folder's.
fn is_test_word(folder: &str) -> bool {
    words(folder)
        .iter()
        .any(|word| word == "test" || word == "tests")
}

/// The glob of a test file's naming convention, when it follows one.
fn test_file_pattern(file: &str) -> Option<String> {
    let (stem, extension) = file.rsplit_once('.')?;
    if !SOURCE_EXTENSIONS.contains(&extension) {
        return None;
    }
    for marker in [".test", ".spec"] {
        if stem.ends_with(marker) {
            return Some(format!("**/*{marker}.{extension}"));
        }
    }
    match extension {
        "go" if stem.ends_with("_test") => Some("**/*_test.go".to_owned()),
        "py" if stem.starts_with("test_") => Some("**/test_*.py".to_owned()),
        "py" if stem.ends_with("_test") => Some("**/*_test.py".to_owned()),
        "py" if stem == "conftest" => Some("**/conftest.py".to_owned()),
        _ => None,
    }
}

/// Whether a path lies in a folder that is never a unit (`node_modules`, `target`…).
fn in_skipped_folder(path: &str) -> bool {
    path.split('/')
        .any(|segment| SKIPPED_FOLDERS.contains(&segment))
}

/// Whether a path is a source file lintel reads.
pub fn is_source(path: &str) -> bool {
    let Some((_, extension)) = path.rsplit_once('.') else {
        return false;
    };
    SOURCE_EXTENSIONS.contains(&extension) && !in_skipped_folder(path)
}

/// The words of a name or folder segment, lowercased: `excalidraw-app` and `ExcalidrawApp` are
/// `excalidraw`, `app`.
pub fn words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in text.chars() {
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && previous_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        current.push(c.to_ascii_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// Whether a folder name would be read as glob syntax (or break the spec's string), so that
/// `folder/**` would not mean the folder: such a folder is no unit.
fn has_glob_syntax(dir: &str) -> bool {
    dir.contains(['*', '?', '[', ']', '{', '}', '"', '\\'])
        || dir.split('/').any(|segment| segment.starts_with('!'))
}

/// The folder of a project-relative path (`""` at the root).
fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(folder, _)| folder)
}

/// Whether `path` lies in folder `dir`.
fn inside(path: &str, dir: &str) -> bool {
    dir.is_empty()
        || path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// A PascalCase identifier from a folder or project name: `group-coordinator` is
/// `GroupCoordinator`, `Ordering.API` is `OrderingAPI`, `@excalidraw/math` is `Math`.
pub fn pascal(text: &str) -> String {
    let last = text.rsplit('/').next().unwrap_or(text);
    let mut name = String::new();
    for word in last.split(|c: char| !c.is_ascii_alphanumeric()) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            name.push(first.to_ascii_uppercase());
            name.extend(chars);
        }
    }
    match name.chars().next() {
        None => "Root".to_owned(),
        Some(first) if first.is_ascii_digit() => format!("M{name}"),
        Some(_) => name,
    }
}

/// The unit candidates of each kind of manifest: folder → what showed it.
type Found = BTreeMap<String, String>;

/// Expands workspace globs (`packages/*`, `crates/**`) to the folders that hold `marker`.
fn expand(patterns: &[String], folders_with_marker: &BTreeSet<String>) -> BTreeSet<String> {
    let mut positive: Vec<GlobMatcher> = Vec::new();
    let mut negative: Vec<GlobMatcher> = Vec::new();
    for pattern in patterns {
        let trimmed = pattern
            .trim()
            .trim_start_matches("./")
            .trim_end_matches('/');
        let (list, glob) = match trimmed.strip_prefix('!') {
            Some(rest) => (&mut negative, rest),
            None => (&mut positive, trimmed),
        };
        if let Ok(glob) = Glob::new(glob) {
            list.push(glob.compile_matcher());
        }
    }
    folders_with_marker
        .iter()
        .filter(|folder| !folder.is_empty())
        .filter(|folder| positive.iter().any(|glob| glob.is_match(folder.as_str())))
        .filter(|folder| !negative.iter().any(|glob| glob.is_match(folder.as_str())))
        .cloned()
        .collect()
}

/// The folders holding a file of this name.
fn folders_with(files: &[String], file_name: &str) -> BTreeSet<String> {
    files
        .iter()
        .filter(|path| path.rsplit('/').next() == Some(file_name))
        .filter(|path| !in_skipped_folder(path))
        .map(|path| parent(path).to_owned())
        .collect()
}

/// npm, yarn and pnpm workspaces: the root `package.json`'s `workspaces` (a list, or
/// `{ packages: [...] }`) and `pnpm-workspace.yaml`'s `packages`.
fn npm_workspaces(files: &[String], read: &dyn Fn(&str) -> Option<String>) -> Found {
    let mut patterns: Vec<String> = Vec::new();
    if let Some(manifest) =
        read("package.json").and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
    {
        let workspaces = manifest.get("workspaces");
        let list = workspaces
            .and_then(serde_json::Value::as_array)
            .or_else(|| {
                workspaces
                    .and_then(|value| value.get("packages"))
                    .and_then(serde_json::Value::as_array)
            });
        for pattern in list.into_iter().flatten() {
            if let Some(pattern) = pattern.as_str() {
                patterns.push(pattern.to_owned());
            }
        }
    }
    if let Some(text) = read("pnpm-workspace.yaml") {
        let mut in_packages = false;
        for line in text.lines() {
            let trimmed = line.trim();
            if !line.starts_with(' ') && !line.starts_with('-') && !trimmed.is_empty() {
                in_packages = trimmed.starts_with("packages:");
                continue;
            }
            if let (true, Some(item)) = (in_packages, trimmed.strip_prefix('-')) {
                patterns.push(
                    item.trim()
                        .trim_matches(|c| c == '\'' || c == '"')
                        .to_owned(),
                );
            }
        }
    }
    let packages = folders_with(files, "package.json");
    expand(&patterns, &packages)
        .into_iter()
        .map(|folder| (folder, "workspace package".to_owned()))
        .collect()
}

/// An Nx workspace's projects (a root `nx.json`): each folder below the root with a
/// `project.json`, whether or not the root `package.json` lists npm workspaces.
fn nx_projects(files: &[String]) -> Found {
    if !files.iter().any(|path| path == "nx.json") {
        return Found::new();
    }
    folders_with(files, "project.json")
        .into_iter()
        .filter(|folder| !folder.is_empty())
        .map(|folder| (folder, "Nx project".to_owned()))
        .collect()
}

/// A Cargo workspace's members (or a single crate's top-level modules, under `src/`).
fn cargo_members(files: &[String], read: &dyn Fn(&str) -> Option<String>) -> Found {
    let Some(manifest) = read("Cargo.toml").and_then(|text| text.parse::<toml::Table>().ok())
    else {
        return Found::new();
    };
    let members: Vec<String> = manifest
        .get("workspace")
        .and_then(|workspace| workspace.get("members"))
        .and_then(toml::Value::as_array)
        .map(|members| {
            members
                .iter()
                .filter_map(|member| member.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let crates = folders_with(files, "Cargo.toml");
    let mut found: Found = expand(&members, &crates)
        .into_iter()
        .map(|folder| (folder, "Cargo workspace member".to_owned()))
        .collect();
    if manifest.contains_key("package") && files.iter().any(|path| inside(path, "src")) {
        found.insert("src".to_owned(), "the root crate".to_owned());
    }
    found
}

/// The quoted strings of a line.
fn quoted_strings(line: &str) -> Vec<String> {
    let mut strings = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find(['"', '\'']) {
        let quote = rest.get(start..=start).unwrap_or("\"");
        let after = rest.get(start + 1..).unwrap_or("");
        let Some(end) = after.find(quote) else {
            break;
        };
        strings.push(after.get(..end).unwrap_or("").to_owned());
        rest = after.get(end + 1..).unwrap_or("");
    }
    strings
}

/// Gradle's `include` lines (`include(":a", ":b:c")`, `include 'a'`) and Maven's `<module>`s,
/// down from the root `pom.xml`.
fn jvm_modules(files: &[String], read: &dyn Fn(&str) -> Option<String>) -> Found {
    let mut found = Found::new();
    let known: BTreeSet<&str> = files.iter().map(|path| parent(path)).collect();
    let exists = |folder: &str| {
        known
            .iter()
            .any(|dir| *dir == folder || inside(dir, folder))
    };
    for settings in ["settings.gradle", "settings.gradle.kts"] {
        let Some(text) = read(settings) else {
            continue;
        };
        // An `include` statement runs on while its line ends with a comma or its parenthesis
        // is open (`include 'clients',\n    'core'`).
        let mut statements: Vec<String> = Vec::new();
        let mut open = false;
        for line in text.lines() {
            let trimmed = line.trim();
            if open {
                if let Some(statement) = statements.last_mut() {
                    statement.push(' ');
                    statement.push_str(trimmed);
                }
            } else if trimmed.starts_with("include") && !trimmed.starts_with("includeBuild") {
                statements.push(trimmed.to_owned());
            } else {
                continue;
            }
            let statement = statements.last().map_or("", String::as_str);
            open = trimmed.ends_with(',')
                || statement.matches('(').count() > statement.matches(')').count();
        }
        for statement in &statements {
            for module in quoted_strings(statement) {
                let folder = module.trim_start_matches(':').replace(':', "/");
                if !folder.is_empty() && exists(&folder) {
                    found.insert(folder, "Gradle module".to_owned());
                }
            }
        }
    }
    let mut poms = vec![String::new()];
    let mut seen = BTreeSet::new();
    while let Some(folder) = poms.pop() {
        if !seen.insert(folder.clone()) || seen.len() > 1_000 {
            continue;
        }
        let pom = if folder.is_empty() {
            "pom.xml".to_owned()
        } else {
            format!("{folder}/pom.xml")
        };
        let Some(text) = read(&pom) else {
            continue;
        };
        for piece in text.split("<module>").skip(1) {
            let Some((module, _)) = piece.split_once("</module>") else {
                continue;
            };
            let module = module.trim().trim_end_matches('/');
            let child = if folder.is_empty() {
                module.to_owned()
            } else {
                format!("{folder}/{module}")
            };
            if !child.contains("..") && exists(&child) {
                found.insert(child.clone(), "Maven module".to_owned());
                poms.push(child);
            }
        }
    }
    found
}

/// Each `.csproj` project's folder, named after the project.
fn csharp_projects(files: &[String]) -> (Found, BTreeMap<String, String>) {
    let mut found = Found::new();
    let mut names = BTreeMap::new();
    for path in files.iter().filter(|path| path.ends_with(".csproj")) {
        let folder = parent(path);
        if folder.is_empty() {
            continue;
        }
        let stem = path
            .rsplit('/')
            .next()
            .and_then(|name| name.strip_suffix(".csproj"))
            .unwrap_or(folder);
        found.insert(folder.to_owned(), ".csproj project".to_owned());
        names.insert(folder.to_owned(), stem.to_owned());
    }
    (found, names)
}

/// Python packages: the folders with an `__init__.py` right inside a source root: the top level,
/// `src/`, and a Django project's folder (one holding `manage.py`, which Django puts first on
/// the path: netbox keeps its apps in `netbox/`, beside `netbox/manage.py`).
fn python_packages(files: &[String]) -> Found {
    let mut roots: BTreeSet<&str> = ["", "src"].into_iter().collect();
    roots.extend(
        files
            .iter()
            .filter_map(|path| path.strip_suffix("/manage.py"))
            .filter(|folder| !folder.contains('/') && !in_skipped_folder(folder)),
    );
    files
        .iter()
        .filter_map(|path| path.strip_suffix("/__init__.py"))
        .filter(|folder| {
            let parent = folder.rsplit_once('/').map_or("", |(parent, _)| parent);
            roots.contains(parent)
        })
        .filter(|folder| !in_skipped_folder(folder))
        .map(|folder| (folder.to_owned(), "Python package".to_owned()))
        .collect()
}

/// SwiftPM targets: the folders under `Sources/` when the root has a `Package.swift`.
fn swift_targets(files: &[String]) -> Found {
    if !files.iter().any(|path| path == "Package.swift") {
        return Found::new();
    }
    files
        .iter()
        .filter_map(|path| path.strip_prefix("Sources/"))
        .filter_map(|rest| rest.split_once('/').map(|(target, _)| target))
        .map(|target| (format!("Sources/{target}"), "SwiftPM target".to_owned()))
        .collect()
}

/// Go: with a `go.mod`, the top-level folders holding Go files (each a package tree).
fn go_packages(files: &[String]) -> Found {
    if !files.iter().any(|path| path == "go.mod") {
        return Found::new();
    }
    files
        .iter()
        .filter(|path| path.ends_with(".go") && is_source(path))
        .filter_map(|path| path.split_once('/').map(|(top, _)| top))
        .filter(|top| !top.starts_with('.'))
        .map(|top| (top.to_owned(), "Go package".to_owned()))
        .collect()
}

/// The units of the repository, at a granularity of [`MIN_UNITS`] to [`MAX_UNITS`] where the
/// layout allows it.
pub fn discover(files: &[String], read: &dyn Fn(&str) -> Option<String>) -> Layout {
    let (test_globs, tests) = test_globs(files);
    let sources: Vec<&str> = files
        .iter()
        .map(String::as_str)
        .filter(|path| is_source(path) && !tests.contains(*path))
        .collect();
    let count = |dir: &str| sources.iter().filter(|path| inside(path, dir)).count();
    let (csharp, csharp_names) = csharp_projects(files);
    let mut found = Found::new();
    for kind in [
        npm_workspaces(files, read),
        nx_projects(files),
        cargo_members(files, read),
        jvm_modules(files, read),
        csharp,
        python_packages(files),
        swift_targets(files),
        go_packages(files),
    ] {
        for (folder, why) in kind {
            found.entry(folder).or_insert(why);
        }
    }
    // Top-level folders that no unit covers and that hold a tenth of the sources (or all of
    // them, when no manifest showed a unit) are units too.
    let mut tops: BTreeMap<&str, usize> = BTreeMap::new();
    for path in &sources {
        if let Some((top, _)) = path.split_once('/') {
            *tops.entry(top).or_default() += 1;
        }
    }
    let manifest_units = !found.is_empty();
    for (top, files_in) in tops {
        let covered = found
            .keys()
            .any(|folder| inside(folder, top) || folder == top || inside(top, folder));
        let big = !manifest_units || files_in * 10 >= sources.len();
        if !covered && big && !top.starts_with('.') {
            found.insert(top.to_owned(), "top-level source folder".to_owned());
        }
    }
    let mut units: Vec<Unit> = found
        .into_iter()
        .map(|(dir, why)| {
            let name = csharp_names
                .get(&dir)
                .map_or_else(|| pascal(&dir), |stem| pascal(stem));
            Unit {
                name,
                globs: vec![format!("{dir}/**")],
                files: count(&dir),
                dir,
                why,
                mostly_scripts: false,
            }
        })
        .filter(|unit| unit.files > 0 && !has_glob_syntax(&unit.dir))
        .collect();
    let mut notes = Vec::new();
    split_small(&mut units, &sources, &mut notes);
    merge_large(&mut units, &mut notes);
    units.retain(|unit| unit.files > 0);
    for unit in &mut units {
        let under: Vec<&&str> = sources
            .iter()
            .filter(|path| inside(path, &unit.dir))
            .collect();
        let scripts = under
            .iter()
            .filter(|path| {
                path.rsplit_once('.').is_some_and(|(_, extension)| {
                    ["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"].contains(&extension)
                })
            })
            .count();
        unit.mostly_scripts = scripts * 2 > under.len();
    }
    name_uniquely(&mut units);
    units.sort_by(|a, b| a.dir.cmp(&b.dir));
    Layout {
        units,
        notes,
        tests: (test_globs, tests.len()),
    }
}

/// While there are fewer than [`MIN_UNITS`] units, the biggest is split into its sub-folders (its
/// source root: the first folder down that holds more than one sub-folder or any file). A Rust
/// crate's `src` is split into its modules (`src/a.rs` with `src/a/**`).
fn split_small(units: &mut Vec<Unit>, sources: &[&str], notes: &mut Vec<String>) {
    for _ in 0..3 {
        if units.len() >= MIN_UNITS {
            return;
        }
        let Some(biggest) = units
            .iter()
            .enumerate()
            .max_by(|(_, a), (_, b)| a.files.cmp(&b.files).then(b.dir.cmp(&a.dir)))
            .map(|(index, _)| index)
        else {
            return;
        };
        let Some(unit) = units.get(biggest).cloned() else {
            return;
        };
        let children = sub_units(&unit, sources);
        if children.len() < 2 {
            return;
        }
        notes.push(format!(
            "`{}` is split into its {} sub-folders (fewer than {MIN_UNITS} units otherwise).",
            unit.dir,
            children.len()
        ));
        // The parent keeps the files of its root (and of folders too small to name).
        let covered: usize = children.iter().map(|child| child.files).sum();
        if unit.files > covered || units.len() + children.len() > MAX_UNITS {
            if let Some(parent) = units.get_mut(biggest) {
                parent.files -= covered.min(parent.files);
            }
        } else {
            units.remove(biggest);
        }
        units.extend(children);
    }
}

/// The sub-units of a unit, at its source root.
fn sub_units(unit: &Unit, sources: &[&str]) -> Vec<Unit> {
    let mut root = unit.dir.clone();
    loop {
        let mut children: BTreeMap<String, usize> = BTreeMap::new();
        let mut direct = 0_usize;
        for path in sources.iter().filter(|path| inside(path, &root)) {
            let rest = path.get(root.len() + 1..).unwrap_or("");
            match rest.split_once('/') {
                Some((child, _)) => *children.entry(child.to_owned()).or_default() += 1,
                None => direct += 1,
            }
        }
        if direct == 0 && children.len() == 1 {
            if let Some(only) = children.keys().next() {
                root = format!("{root}/{only}");
                continue;
            }
        }
        let under_root = || sources.iter().filter(|path| inside(path, &root));
        let rust = under_root().count() > 0 && under_root().all(|path| path.ends_with(".rs"));
        let mut units: Vec<Unit> = children
            .into_iter()
            .filter(|(child, _)| !SKIPPED_FOLDERS.contains(&child.as_str()))
            .map(|(child, files)| {
                let dir = format!("{root}/{child}");
                let mut globs = vec![format!("{dir}/**")];
                let module_file = rust && sources.contains(&format!("{dir}.rs").as_str());
                if module_file {
                    globs.insert(0, format!("{dir}.rs"));
                }
                Unit {
                    name: pascal(&child),
                    dir,
                    globs,
                    why: format!("a sub-folder of `{}`", unit.dir),
                    files: files + usize::from(module_file),
                    mostly_scripts: false,
                }
            })
            .collect();
        if rust {
            // Single-file modules (`src/a.rs` with no `src/a/`) are units too.
            let with_folder: BTreeSet<String> = units
                .iter()
                .map(|unit| format!("{}.rs", unit.dir))
                .collect();
            for path in sources.iter().filter(|path| parent(path) == root) {
                let Some(stem) = path.rsplit('/').next().and_then(|n| n.strip_suffix(".rs")) else {
                    continue;
                };
                if with_folder.contains(*path) || ["lib", "main", "mod"].contains(&stem) {
                    continue;
                }
                units.push(Unit {
                    name: pascal(stem),
                    dir: format!("{root}/{stem}"),
                    globs: vec![(*path).to_owned()],
                    why: format!("a module of `{}`", unit.dir),
                    files: 1,
                    mostly_scripts: false,
                });
            }
        }
        return units;
    }
}

/// Above [`MAX_UNITS`], units that share a top-level folder become one unit of that folder; if
/// that is still too many, the smallest are left to no component (their files are still read).
fn merge_large(units: &mut Vec<Unit>, notes: &mut Vec<String>) {
    if units.len() <= MAX_UNITS {
        return;
    }
    let mut groups: BTreeMap<String, Vec<Unit>> = BTreeMap::new();
    for unit in units.iter() {
        let top = unit.dir.split('/').next().unwrap_or("").to_owned();
        groups.entry(top).or_default().push(unit.clone());
    }
    // The smallest groups of several units under one top-level folder are merged first, until
    // few enough are left (a folder of most of the code stays split); merging helps only when it
    // leaves several components (one Python package split into its forty subpackages would
    // merge back into one).
    let mut mergeable: Vec<(usize, String, Vec<Unit>)> = groups
        .into_iter()
        .filter(|(_, group)| group.len() > 1)
        .map(|(top, group)| (group.iter().map(|unit| unit.files).sum(), top, group))
        .collect();
    mergeable.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    for (files, top, group) in mergeable {
        let after = units.len() + 1 - group.len();
        if units.len() <= MAX_UNITS || after < MIN_UNITS {
            break;
        }
        units.retain(|unit| unit.dir.split('/').next() != Some(top.as_str()));
        notes.push(format!(
            "the {} units under `{top}/` are one component (more than {MAX_UNITS} units otherwise).",
            group.len()
        ));
        units.push(Unit {
            name: pascal(&top),
            globs: vec![format!("{top}/**")],
            dir: top,
            why: "top-level folder of several units".to_owned(),
            files,
            mostly_scripts: false,
        });
    }
    if units.len() <= MAX_UNITS {
        return;
    }
    // The biggest are kept, and every unit that holds another (its globs take in the files of
    // the units left out under it).
    let holds = |unit: &Unit, all: &[Unit]| {
        all.iter()
            .any(|other| other.dir != unit.dir && inside(&other.dir, &unit.dir))
    };
    let snapshot = units.clone();
    units.sort_by(|a, b| {
        holds(b, &snapshot)
            .cmp(&holds(a, &snapshot))
            .then(b.files.cmp(&a.files))
            .then(a.dir.cmp(&b.dir))
    });
    let left: Vec<Unit> = units.split_off(MAX_UNITS);
    let mut unowned = Vec::new();
    let mut folded: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for unit in left {
        let holder = units
            .iter_mut()
            .filter(|kept| inside(&unit.dir, &kept.dir))
            .max_by_key(|kept| kept.dir.len());
        match holder {
            Some(kept) => {
                kept.files += unit.files;
                folded
                    .entry(kept.name.clone())
                    .or_default()
                    .push(format!("`{}`", unit.dir));
            }
            None => unowned.push(format!("`{}`", unit.dir)),
        }
    }
    for (name, dirs) in folded {
        notes.push(format!(
            "the {} smallest sub-folders stay in {name} (more than {MAX_UNITS} units otherwise): {}.",
            dirs.len(),
            dirs.join(", ")
        ));
    }
    if !unowned.is_empty() {
        notes.push(format!(
            "the {} smallest units are left to no component (still read for chains): {}.",
            unowned.len(),
            unowned.join(", ")
        ));
    }
}

/// Names each unit uniquely: on a clash, the parent folder's name goes in front.
fn name_uniquely(units: &mut [Unit]) {
    let mut taken: BTreeSet<String> = BTreeSet::new();
    let mut clashes: BTreeMap<String, usize> = BTreeMap::new();
    for unit in units.iter() {
        *clashes.entry(unit.name.clone()).or_default() += 1;
    }
    for unit in units.iter_mut() {
        if clashes.get(&unit.name).copied().unwrap_or(0) > 1 {
            let parent_name = pascal(parent(&unit.dir));
            if parent_name != "Root" {
                unit.name = format!("{parent_name}{}", unit.name);
            }
        }
        let mut name = unit.name.clone();
        let mut number = 2;
        while !taken.insert(name.clone()) {
            name = format!("{}{number}", unit.name);
            number += 1;
        }
        unit.name = name;
    }
}

#[cfg(test)]
mod tests;
