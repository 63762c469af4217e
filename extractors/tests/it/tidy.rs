//! Architecture rule: `extractors` depends only on `policies::facts` (style guide invariants), and
//! on `policies::read`, the bounded reader of regular files every crate shares.

use std::path::Path;

fn rust_files(directory: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(directory).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            files.push(path);
        }
    }
}

#[test]
fn extractors_use_only_the_fact_schema_of_policies() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (index, _) in text.match_indices("policies::") {
            let rest = &text[index + "policies::".len()..];
            // `policies::read` (the bounded reader of regular files) and `policies::limits` (the size
            // limits on globs) are shared by every crate that reads user input.
            assert!(
                rest.starts_with("facts")
                    || rest.starts_with("read::")
                    || rest.starts_with("limits::"),
                "{}: uses `policies::` outside `facts`, `read` and `limits`",
                file.display()
            );
        }
    }
}

/// The crate's source files, each with its module path (`lang::kotlin::walk`) and its code
/// without test modules and comments: test files (`tests.rs`, `walk/query_parity.rs`) and what
/// follows a file's `#[cfg(test)] mod tests {` are left out.
fn modules() -> Vec<(String, String)> {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&source, &mut files);
    let mut modules = Vec::new();
    for file in files {
        let relative = file.strip_prefix(&source).unwrap().with_extension("");
        let mut segments: Vec<String> = relative
            .components()
            .map(|part| part.as_os_str().to_string_lossy().into_owned())
            .collect();
        if segments
            .last()
            .is_some_and(|last| last == "mod" || last == "lib")
        {
            segments.pop();
        }
        if segments.iter().any(|segment| segment == "tests") || relative.ends_with("query_parity") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let code = text
            .split("#[cfg(test)]\nmod tests {")
            .next()
            .unwrap_or_default()
            .lines()
            .map(|line| line.split("//").next().unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n");
        modules.push((segments.join("::"), code));
    }
    modules
}

/// The languages: the folders under `src/lang/`.
fn languages() -> Vec<String> {
    let lang = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lang");
    let mut languages: Vec<String> = std::fs::read_dir(lang)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    languages.sort();
    languages
}

/// The shared machinery (everything outside `src/lang/`) never names a language module: a
/// language reaches it through its registry entry (`lang/mod.rs`) and the hooks of its
/// `LanguageSpec`.
#[test]
fn shared_folders_name_no_language_module() {
    let languages = languages();
    assert!(languages.contains(&"kotlin".to_owned()), "{languages:?}");
    for (module, code) in modules() {
        if module == "lang" || module.starts_with("lang::") {
            continue;
        }
        for language in &languages {
            let path = format!("lang::{language}");
            assert!(
                !code.contains(&path),
                "`{module}` names `{path}`: shared code reaches a language only through its \
                 LanguageSpec (see \"Adding a language\" in docs/ARCHITECTURE.md)"
            );
        }
    }
}

/// The part of the crate a module belongs to: its top-level module, or under `lang/` and
/// `resolve/` (folders that only group) the folder below.
fn part_of(module: &str) -> String {
    let segments: Vec<&str> = module.split("::").filter(|s| !s.is_empty()).collect();
    match segments.as_slice() {
        [] => "lib".to_owned(),
        [group @ ("lang" | "resolve"), inner, ..] => format!("{group}::{inner}"),
        [first, ..] => (*first).to_owned(),
    }
}

/// No import cycle between the parts of the crate (the top-level modules, each language's folder,
/// the registry, each folder of `resolve/`): a `crate::…` path in one part's code is an edge to
/// the part that defines it (`crate::Item` of the crate root is the part `lib`).
#[test]
fn the_parts_of_the_crate_form_no_cycle() {
    let modules = modules();
    let names: std::collections::BTreeSet<&str> =
        modules.iter().map(|(module, _)| module.as_str()).collect();
    let mut edges: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        std::collections::BTreeMap::new();
    for (module, code) in &modules {
        let from = part_of(module);
        for (index, _) in code.match_indices("crate::") {
            let path: String = code[index + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
            let target = (0..=segments.len())
                .rev()
                .map(|count| segments[..count].join("::"))
                .find(|prefix| prefix.is_empty() || names.contains(prefix.as_str()))
                .unwrap_or_default();
            let to = part_of(&target);
            if to != from {
                edges.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    // A depth-first search that reports the first cycle it closes.
    fn visit(
        part: &str,
        edges: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut std::collections::BTreeSet<String>,
    ) {
        if let Some(start) = path.iter().position(|seen| seen == part) {
            panic!("module cycle: {} -> {part}", path[start..].join(" -> "));
        }
        if done.contains(part) {
            return;
        }
        path.push(part.to_owned());
        for next in edges.get(part).into_iter().flatten() {
            visit(next, edges, path, done);
        }
        path.pop();
        done.insert(part.to_owned());
    }
    let mut done = std::collections::BTreeSet::new();
    for part in edges.keys() {
        visit(part, &edges, &mut Vec::new(), &mut done);
    }
    assert!(edges.contains_key("lang::kotlin"), "{edges:?}");
}
