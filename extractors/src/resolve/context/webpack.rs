//! Webpack configurations: the folders `resolve.modules` lists, where webpack looks a bare
//! specifier up before (or instead of) `node_modules`. PhotoPrism's frontend writes
//! `modules: [PATHS.src, PATHS.modules]` with `src: path.join(__dirname, "src")`, so
//! `import Api from "common/api"` is its file `src/common/api.js`, no package `common`.
//!
//! A `webpack.config.*` (or `webpack.<name>.*`: `webpack.common.js`) is read as text, never
//! run. The entries of each `modules:` key are read when they are written out: a call
//! `path.join(__dirname, "src")` or `path.resolve(__dirname, "src")`, a constant or an object
//! property set to one in the same file (`SRC`, `PATHS.src`), or a folder name (`"src"`), which
//! webpack looks for in the importer's folder and each folder above it, as it does
//! `node_modules`. Any other entry is left out. With `preferRelative: true` a bare specifier is
//! first the importer's own file (`import Model from "model.js"` beside `model.js`). The
//! folders apply to the files under the configuration's folder.

use super::paths::{ancestors, file_name, is_within, join, parent_dir};
use super::read::ConfigReader;

/// How far a value is read (a folder entry is a short call), and how many `modules:` keys and
/// assignments of a name are read: a configuration of a megabyte of `modules:` keys or unclosed
/// brackets costs a bounded number of short scans.
const VALUE_LIMIT: usize = 4096;
const KEY_LIMIT: usize = 64;

/// Where one configuration's `resolve.modules` sends bare specifiers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ModuleRoot {
    /// A folder of the project (`path.join(__dirname, "src")`).
    Folder(String),
    /// A folder name looked up in the importer's folder and each one above it (`"src"`); the
    /// empty name is the importer's folder itself (`preferRelative`).
    Name(String),
}

/// The `resolve.modules` folders of every webpack configuration of a project.
#[derive(Debug, Default)]
pub(crate) struct WebpackRoots {
    /// Each configuration's folder with its roots, in the order written (the importer's folder
    /// first under `preferRelative: true`), deepest folder first.
    configs: Vec<(String, Vec<ModuleRoot>)>,
}

impl WebpackRoots {
    /// Reads the webpack configurations among `files` (outside `node_modules`).
    pub fn discover<'f>(reader: &ConfigReader<'_>, files: impl Iterator<Item = &'f str>) -> Self {
        let mut configs: Vec<(String, Vec<ModuleRoot>)> = Vec::new();
        for path in files.filter(|path| !path.split('/').any(|segment| segment == "node_modules")) {
            if !is_config_name(file_name(path)) {
                continue;
            }
            let Some(text) = reader.read(path) else {
                continue;
            };
            let folder = parent_dir(path);
            let mut roots = module_roots(&text, folder);
            if prefers_relative(&text) {
                roots.insert(0, ModuleRoot::Name(String::new()));
            }
            if !roots.is_empty() {
                configs.push((folder.to_owned(), roots));
            }
        }
        configs.sort_by(|(a, _), (b, _)| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        WebpackRoots { configs }
    }

    /// The folders where a bare specifier of `importer` may lie, in webpack's order: those of
    /// the nearest configuration above it.
    pub fn candidates(&self, importer: &str) -> Vec<String> {
        let Some((_, roots)) = self
            .configs
            .iter()
            .find(|(folder, _)| is_within(importer, folder))
        else {
            return Vec::new();
        };
        let mut folders = Vec::new();
        for root in roots {
            match root {
                ModuleRoot::Folder(folder) => folders.push(folder.clone()),
                ModuleRoot::Name(name) if name.is_empty() => {
                    folders.push(parent_dir(importer).to_owned());
                }
                ModuleRoot::Name(name) => folders
                    .extend(ancestors(importer).filter_map(|directory| join(directory, name))),
            }
        }
        folders
    }
}

/// Whether the configuration sets `preferRelative: true`.
fn prefers_relative(text: &str) -> bool {
    text.match_indices("preferRelative").any(|(at, _)| {
        text.get(at + "preferRelative".len()..)
            .map(str::trim_start)
            .and_then(|rest| rest.strip_prefix(':'))
            .is_some_and(|value| value.trim_start().starts_with("true"))
    })
}

/// `webpack.config.js`, `webpack.common.js`, `webpack.config.ts`…
fn is_config_name(name: &str) -> bool {
    name.strip_prefix("webpack.").is_some_and(|rest| {
        [".js", ".cjs", ".mjs", ".ts"]
            .iter()
            .any(|extension| rest.len() > extension.len() && rest.ends_with(extension))
    })
}

/// The roots of every `modules:` key of a configuration in `folder`, each once, in order.
fn module_roots(text: &str, folder: &str) -> Vec<ModuleRoot> {
    let mut roots: Vec<ModuleRoot> = Vec::new();
    for (at, _) in text.match_indices("modules").take(KEY_LIMIT) {
        let before = text.get(..at).and_then(|head| head.chars().next_back());
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
            continue;
        }
        let Some(value) = text
            .get(at + "modules".len()..)
            .map(str::trim_start)
            .and_then(|rest| rest.strip_prefix(':'))
        else {
            continue;
        };
        for entry in entries(property_value(value)) {
            if let Some(root) = root_of(entry, text, folder) {
                if !roots.contains(&root) {
                    roots.push(root);
                }
            }
        }
    }
    roots
}

/// The text of a property's or a constant's value: up to the first `,`, `;` or `}` outside
/// brackets, parentheses and strings.
fn property_value(value: &str) -> &str {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    for (index, c) in value.char_indices() {
        if index >= VALUE_LIMIT {
            return value.get(..index).unwrap_or_default();
        }
        match (quote, c) {
            (Some(open), _) if c == open => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '[' | '(' | '{') => depth += 1,
            (None, ']' | ')') => depth = depth.saturating_sub(1),
            (None, '}') if depth == 0 => return value.get(..index).unwrap_or(value),
            (None, '}') => depth -= 1,
            (None, ',' | ';') if depth == 0 => return value.get(..index).unwrap_or(value),
            _ => {}
        }
    }
    value
}

/// The entries of the arrays in a value (`[A, B]`, `x ? [A, B] : [C]`): the comma-separated
/// parts inside its brackets, trimmed.
fn entries(value: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut depth = 0usize;
    let mut start: Option<usize> = None;
    let mut quote: Option<char> = None;
    for (index, c) in value.char_indices() {
        match (quote, c) {
            (Some(open), _) if c == open => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '[') if depth == 0 => {
                depth = 1;
                start = Some(index + 1);
            }
            (None, '[' | '(' | '{') => depth += 1,
            (None, ']') if depth == 1 => {
                found.extend(start.take().and_then(|from| value.get(from..index)));
                depth = 0;
            }
            (None, ',') if depth == 1 => {
                found.extend(start.and_then(|from| value.get(from..index)));
                start = Some(index + 1);
            }
            (None, ']' | ')' | '}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    found
        .into_iter()
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .collect()
}

/// The root an entry names, if it is written out (see the module doc).
fn root_of(entry: &str, text: &str, folder: &str) -> Option<ModuleRoot> {
    if let Some(name) = string_literal(entry) {
        return (name != "node_modules" && !name.starts_with('/'))
            .then(|| match name.strip_prefix("./") {
                Some(relative) => join(folder, relative).map(ModuleRoot::Folder),
                None => Some(ModuleRoot::Name(name.to_owned())),
            })
            .flatten();
    }
    if let Some(relative) = dirname_path(entry) {
        return folder_root(folder, &relative);
    }
    let is_name = |part: &str| {
        !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
    };
    let (object, property) = match entry.split_once('.') {
        Some((object, property)) if is_name(object) && is_name(property) => (object, property),
        None if is_name(entry) => ("", entry),
        _ => return None,
    };
    let relative = if object.is_empty() {
        assigned(text, entry, &["const ", "let ", "var "], '=')
    } else {
        assigned(text, property, &[""], ':')
    }?;
    folder_root(folder, &relative)
}

/// `node_modules` (the packages) is no root of the project's files.
fn folder_root(folder: &str, relative: &str) -> Option<ModuleRoot> {
    let joined = join(folder, relative)?;
    (file_name(&joined) != "node_modules").then_some(ModuleRoot::Folder(joined))
}

/// The folder `path.join(__dirname, "a", "b")` or `path.resolve(__dirname, "a/b")` names,
/// relative to the configuration's folder (`a/b`).
fn dirname_path(call: &str) -> Option<String> {
    let arguments = ["path.join(", "path.resolve("]
        .iter()
        .find_map(|head| call.strip_prefix(head))?
        .strip_suffix(')')?;
    let mut parts = arguments.split(',').map(str::trim);
    if parts.next()? != "__dirname" {
        return None;
    }
    let segments: Option<Vec<&str>> = parts.map(string_literal).collect();
    let segments = segments?;
    (!segments.is_empty()).then(|| segments.join("/"))
}

/// The folder a name is set to in the file (`const SRC = path.join(__dirname, "src")`, or
/// `src: path.join(__dirname, "src")` for a property), when one such assignment names one.
fn assigned(text: &str, name: &str, prefixes: &[&str], operator: char) -> Option<String> {
    let mut found: Option<String> = None;
    let mut read = 0;
    for (at, _) in text.match_indices(name) {
        let before = text.get(..at).unwrap_or_default();
        let declared = prefixes.iter().any(|prefix| {
            before.strip_suffix(prefix).is_some_and(|head| {
                head.chars()
                    .next_back()
                    .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '.'))
            })
        });
        let Some(value) = text
            .get(at + name.len()..)
            .map(str::trim_start)
            .and_then(|rest| rest.strip_prefix(operator))
        else {
            continue;
        };
        if !declared || value.starts_with('=') {
            continue;
        }
        read += 1;
        if read > KEY_LIMIT {
            return None;
        }
        let value = property_value(value).trim().trim_end_matches(';').trim();
        if let Some(relative) = dirname_path(value) {
            if found.as_ref().is_some_and(|earlier| *earlier != relative) {
                return None;
            }
            found = Some(relative);
        }
    }
    found
}

/// The text of a single- or double-quoted string literal without escapes.
fn string_literal(text: &str) -> Option<&str> {
    let inner = text
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .or_else(|| {
            text.strip_prefix('\'')
                .and_then(|rest| rest.strip_suffix('\''))
        })?;
    (!inner.contains(['"', '\'', '\\'])).then_some(inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn photoprisms_paths_object_names_the_source_folder() {
        let text = "const PATHS = {\n  src: path.join(__dirname, \"src\"),\n  modules: path.join(__dirname, \"node_modules\"),\n};\nconst config = {\n  resolve: {\n    modules: isCustom ? [PATHS.custom, PATHS.src, PATHS.modules] : [PATHS.src, PATHS.modules],\n    preferRelative: true,\n  },\n};\n";
        assert_eq!(
            module_roots(text, "frontend"),
            vec![ModuleRoot::Folder("frontend/src".to_owned())]
        );
    }

    #[test]
    fn literal_names_calls_and_constants_are_roots_and_other_entries_are_not() {
        let text = "const SRC = path.resolve(__dirname, 'app', 'js');\nmodule.exports = { resolve: { modules: [SRC, 'shared', './lib', path.join(__dirname, 'vendor'), 'node_modules', process.env.X, path.join(root, 'x')] }, module: { rules: [] } };\n";
        assert_eq!(
            module_roots(text, "web"),
            vec![
                ModuleRoot::Folder("web/app/js".to_owned()),
                ModuleRoot::Name("shared".to_owned()),
                ModuleRoot::Folder("web/lib".to_owned()),
                ModuleRoot::Folder("web/vendor".to_owned()),
            ]
        );
    }

    #[test]
    fn css_modules_flags_and_unrelated_keys_name_no_root() {
        let text = "module.exports = { module: { rules: [{ options: { modules: true } }] }, cssModules: ['a'] };\n";
        assert!(module_roots(text, "").is_empty());
    }

    #[test]
    fn a_long_unclosed_configuration_is_read_in_bounded_time() {
        let text = "modules: [PATHS.src],\n".to_owned()
            + &"modules: [[[[(".repeat(50_000)
            + &"src: [[[(".repeat(100_000);
        let started = std::time::Instant::now();
        assert!(module_roots(&text, "").is_empty());
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn config_names_are_webpack_files() {
        assert!(is_config_name("webpack.config.js"));
        assert!(is_config_name("webpack.common.cjs"));
        assert!(!is_config_name("webpack.js"));
        assert!(!is_config_name("rollup.config.js"));
    }
}
