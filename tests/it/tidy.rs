//! Layout rules read from the source: no module cycles in any crate.
//!
//! A module depends on another when its code names a path into it (`crate::a::b`, `super::x`,
//! `self::x`, grouped `use` trees included). Dependencies between a module and its own ancestors are
//! the module tree itself and are not counted; every other dependency is lifted to the two sibling
//! modules it runs between (`a::x` naming `b::y` makes `a` depend on `b`), and the siblings of each
//! folder must form no cycle. Test modules (`#[cfg(test)] mod …`) are left out: a test may reach
//! anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The module cycles each crate still has, as `parent: a, b, c` (the siblings of one cycle, sorted).
/// The house redesign empties this list; a new cycle fails the test, and so does a listed one that
/// is gone (take it off the list).
const ALLOWED_CYCLES: &[(&str, &[&str])] =
    &[("policies", &[]), ("extractors", &[]), ("engine", &[])];

#[test]
fn no_crate_has_a_module_cycle_beyond_the_listed_ones() {
    let root = tests::workspace_root();
    let mut problems = Vec::new();
    for (krate, allowed) in ALLOWED_CYCLES {
        let src = root.join(krate).join("src");
        let dependencies = dependencies(&src);
        let found = cycles_of(&dependencies);
        let allowed: BTreeSet<String> = allowed.iter().map(|cycle| (*cycle).to_owned()).collect();
        for cycle in found.difference(&allowed) {
            problems.push(format!("{krate}: new module cycle `{cycle}`, through:"));
            let (parent, members) = cycle.split_once(": ").unwrap_or_default();
            let members: BTreeSet<&str> = members.split(", ").collect();
            for ((from_parent, from, to), (file, path)) in &dependencies {
                if from_parent == parent
                    && members.contains(from.as_str())
                    && members.contains(to.as_str())
                {
                    problems.push(format!("    {from} -> {to}: {file} names `{path}`"));
                }
            }
        }
        for cycle in allowed.difference(&found) {
            problems.push(format!(
                "{krate}: the listed cycle `{cycle}` is gone; take it off ALLOWED_CYCLES"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_cycle_check_sees_use_trees_super_paths_and_lifts_to_siblings() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    let write = |path: &str, text: &str| {
        let file = src.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    };
    write(
        "lib.rs",
        "pub mod a;\npub mod b;\npub mod c;\npub mod d;\n#[cfg(test)]\nmod support;\n",
    );
    // A module declared under `#[cfg(test)]` is test code: support → a and a → support make no cycle.
    write("support.rs", "use crate::a::A;\n");
    // a → b through a grouped use tree in a child module; b → a through `super`.
    write("a/mod.rs", "mod inner;\npub struct A;\n");
    write(
        "a/inner.rs",
        "use crate::{c::C, b::{self, B}};\nfn f() -> crate::support::S { todo!() }\n",
    );
    write("b.rs", "pub struct B;\nfn f() -> super::a::A { todo!() }\n");
    // c → d only in a comment, a string and a test module: no dependency.
    write(
        "c.rs",
        "pub struct C;\n// crate::d::D\nconst S: &str = \"crate::d::D\";\n#[cfg(test)]\nmod tests {\n    use crate::d::D;\n}\n",
    );
    write("d.rs", "pub struct D;\nuse crate::c::C;\n");
    let cycles = module_cycles(src);
    assert_eq!(
        cycles.into_iter().collect::<Vec<_>>(),
        vec!["crate: a, b".to_owned()]
    );

    // A dependency on an ancestor is the module tree, not a cycle.
    write("b.rs", "pub struct B;\n");
    write("a/mod.rs", "mod inner;\npub struct A;\nuse inner::X;\n");
    write(
        "a/inner.rs",
        "pub struct X;\nuse super::A;\nuse crate::b::B;\n",
    );
    assert!(module_cycles(src).is_empty());
}

/// The module path of every `.rs` file under `src` (`a/mod.rs` and `a.rs` are `a`).
fn modules(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut found = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().and_then(|e| e.to_str()) != Some("rs") {
                continue;
            }
            let relative = path.strip_prefix(src).unwrap();
            let mut segments: Vec<String> = relative
                .iter()
                .map(|s| s.to_string_lossy().into_owned())
                .collect();
            let file = segments.pop().unwrap();
            let stem = file.trim_end_matches(".rs");
            let top = segments.is_empty() && (stem == "lib" || stem == "main");
            if stem != "mod" && !top {
                segments.push(stem.to_owned());
            }
            found.insert(segments, path);
        }
    }
    found
}

/// Each sibling dependency of the crate at `src` (`(parent, from, to)`, the parent `crate` for the
/// root) with the first file and path that makes it.
fn dependencies(src: &Path) -> BTreeMap<(String, String, String), (String, String)> {
    let mut modules = modules(src);
    let texts: BTreeMap<Vec<String>, String> = modules
        .iter()
        .map(|(module, file)| (module.clone(), std::fs::read_to_string(file).unwrap()))
        .collect();
    // Modules declared under `#[cfg(test)]` (test modules and test helpers) are test code.
    let mut test_only = Vec::new();
    for (module, text) in &texts {
        let tokens = tokens(text);
        for (at, _) in tokens.iter().enumerate() {
            if let Some(name) = test_module_at(&tokens, at) {
                let mut child = module.clone();
                child.push(name.to_owned());
                test_only.push(child);
            }
        }
    }
    modules.retain(|module, _| !test_only.iter().any(|test| module.starts_with(test)));
    let mut found = BTreeMap::new();
    for (module, file) in &modules {
        let text = code_only(texts.get(module).map(String::as_str).unwrap_or_default());
        for path in paths_in(&text) {
            let Some(target) = resolve(module, &path, &modules) else {
                continue;
            };
            let common = module
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            if common == module.len() || common == target.len() {
                continue;
            }
            let parent = if common == 0 {
                "crate".to_owned()
            } else {
                module[..common].join("::")
            };
            let shown = file
                .strip_prefix(src)
                .unwrap_or(file)
                .to_string_lossy()
                .replace('\\', "/");
            found
                .entry((parent, module[common].clone(), target[common].clone()))
                .or_insert_with(|| (shown, path.join("::")));
        }
    }
    found
}

/// The name of the file module declared at `tokens[at]` under `#[cfg(test)]`, if one is.
fn test_module_at(tokens: &[String], at: usize) -> Option<&str> {
    let attribute = ["#", "[", "cfg", "(", "test", ")", "]"];
    if tokens
        .get(at..at + attribute.len())?
        .iter()
        .zip(attribute)
        .any(|(token, want)| token != want)
    {
        return None;
    }
    let mut next = at + attribute.len();
    if tokens.get(next)? == "pub" {
        next += 1;
        if tokens.get(next)? == "(" {
            next += tokens.get(next..)?.iter().position(|t| t == ")")? + 1;
        }
    }
    (tokens.get(next)? == "mod" && tokens.get(next + 2)? == ";")
        .then(|| tokens.get(next + 1).map(String::as_str))?
}

/// The sibling cycles of the crate at `src`, as `parent: a, b` lines.
fn module_cycles(src: &Path) -> BTreeSet<String> {
    cycles_of(&dependencies(src))
}

/// The sibling cycles of a crate's [`dependencies`].
fn cycles_of(
    dependencies: &BTreeMap<(String, String, String), (String, String)>,
) -> BTreeSet<String> {
    let mut graphs: BTreeMap<&str, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (parent, from, to) in dependencies.keys() {
        graphs
            .entry(parent.as_str())
            .or_default()
            .entry(from.clone())
            .or_default()
            .insert(to.clone());
    }
    let mut cycles = BTreeSet::new();
    for (parent, graph) in &graphs {
        for component in strongly_connected(graph) {
            if component.len() > 1 {
                cycles.insert(format!(
                    "{parent}: {}",
                    component.into_iter().collect::<Vec<_>>().join(", ")
                ));
            }
        }
    }
    cycles
}

/// The longest module prefix of a path named in `module` (`crate::…`, `super::…`, `self::…`).
fn resolve(
    module: &[String],
    path: &[String],
    modules: &BTreeMap<Vec<String>, PathBuf>,
) -> Option<Vec<String>> {
    let (first, rest) = path.split_first()?;
    let mut base: Vec<String> = match first.as_str() {
        "crate" => Vec::new(),
        "self" => module.to_vec(),
        "super" => module[..module.len().checked_sub(1)?].to_vec(),
        _ => return None,
    };
    let mut segments = rest.iter().peekable();
    while segments.peek().is_some_and(|s| *s == "super") {
        base.pop()?;
        segments.next();
    }
    let mut best = None;
    let mut candidate = base.clone();
    if modules.contains_key(&candidate) {
        best = Some(candidate.clone());
    }
    for segment in segments {
        candidate.push(segment.clone());
        if modules.contains_key(&candidate) {
            best = Some(candidate.clone());
        } else {
            break;
        }
    }
    best
}

/// The text without comments, string and char literals, and test modules.
fn code_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        let next = bytes.get(i + 1).copied();
        if byte == b'/' && next == Some(b'/') {
            while bytes.get(i).is_some_and(|b| *b != b'\n') {
                i += 1;
            }
        } else if byte == b'/' && next == Some(b'*') {
            let mut depth = 0;
            while i < bytes.len() {
                if bytes.get(i..i + 2) == Some(b"/*") {
                    depth += 1;
                    i += 2;
                } else if bytes.get(i..i + 2) == Some(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if byte == b'r' && matches!(next, Some(b'"' | b'#')) && !ident_before(bytes, i) {
            // A raw string: r"…", r#"…"#.
            let hashes = bytes[i + 1..].iter().take_while(|b| **b == b'#').count();
            let open = i + 1 + hashes;
            if bytes.get(open) == Some(&b'"') {
                let close: Vec<u8> = std::iter::once(b'"')
                    .chain(std::iter::repeat_n(b'#', hashes))
                    .collect();
                i = open + 1;
                while i < bytes.len() && bytes.get(i..i + close.len()) != Some(&close[..]) {
                    i += 1;
                }
                i += close.len();
                out.push_str("\"\"");
            } else {
                out.push('r');
                i += 1;
            }
        } else if byte == b'"' {
            i += 1;
            while let Some(&b) = bytes.get(i) {
                i += if b == b'\\' { 2 } else { 1 };
                if b == b'"' {
                    break;
                }
            }
            out.push_str("\"\"");
        } else if byte == b'\'' && is_char_literal(bytes, i) {
            i += 1;
            while let Some(&b) = bytes.get(i) {
                i += if b == b'\\' { 2 } else { 1 };
                if b == b'\'' {
                    break;
                }
            }
            out.push_str("' '");
        } else {
            let start = i;
            i += 1;
            while bytes.get(i).is_some_and(|b| !b"/\"'r".contains(b)) {
                i += 1;
            }
            out.push_str(&text[start..i]);
        }
    }
    without_test_modules(&out)
}

fn ident_before(bytes: &[u8], i: usize) -> bool {
    i > 0
        && bytes
            .get(i - 1)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
}

/// A `'` that opens a char literal (`'a'`, `'\n'`), not a lifetime (`'a`, `'static`).
fn is_char_literal(bytes: &[u8], i: usize) -> bool {
    match bytes.get(i + 1) {
        Some(b'\\') => true,
        Some(_) => {
            // One character (possibly multi-byte) then a closing quote.
            let rest = &bytes[i + 1..];
            let width = match rest.first().copied().unwrap_or(0) {
                lead if lead < 0x80 => 1,
                lead if lead >= 0xF0 => 4,
                lead if lead >= 0xE0 => 3,
                _ => 2,
            };
            rest.get(width) == Some(&b'\'')
        }
        None => false,
    }
}

/// Cuts every `#[cfg(test)]` item (a test module or function) out of comment-free text.
fn without_test_modules(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        // Skip to the item's end: its `;` or its balanced `{ … }`.
        let mut depth = 0usize;
        let mut end = after.len();
        for (offset, ch) in after.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = offset + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = offset + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Every path that starts at `crate`, `super` or `self`, with `use` trees expanded.
fn paths_in(text: &str) -> Vec<Vec<String>> {
    let tokens = tokens(text);
    let mut paths = Vec::new();
    let mut i = 0;
    while let Some(token) = tokens.get(i) {
        let starts = matches!(token.as_str(), "crate" | "super" | "self")
            && tokens.get(i + 1).is_some_and(|t| t == "::")
            && !(i > 0 && tokens.get(i - 1).is_some_and(|t| t == "::"));
        if starts {
            let mut prefix = Vec::new();
            i = tree(&tokens, i, &mut prefix, &mut paths);
        } else {
            i += 1;
        }
    }
    paths
}

/// Reads a path or use tree starting at `tokens[i]` under `prefix`; returns the index after it.
fn tree(
    tokens: &[String],
    mut i: usize,
    prefix: &mut Vec<String>,
    paths: &mut Vec<Vec<String>>,
) -> usize {
    let depth = prefix.len();
    loop {
        match tokens.get(i).map(String::as_str) {
            Some("{") => {
                i += 1;
                loop {
                    match tokens.get(i).map(String::as_str) {
                        Some("}") => {
                            i += 1;
                            break;
                        }
                        Some(",") => i += 1,
                        None => break,
                        Some(_) => i = tree(tokens, i, prefix, paths),
                    }
                }
                break;
            }
            Some(token) if is_ident(token) => {
                prefix.push(token.to_owned());
                i += 1;
                if tokens.get(i).is_some_and(|t| t == "::") {
                    i += 1;
                    continue;
                }
                paths.push(prefix.clone());
                break;
            }
            Some("*") => {
                paths.push(prefix.clone());
                i += 1;
                break;
            }
            _ => {
                paths.push(prefix.clone());
                break;
            }
        }
    }
    prefix.truncate(depth);
    i
}

fn is_ident(token: &str) -> bool {
    token
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// Identifiers, `::` and single punctuation characters.
fn tokens(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((start, ch)) = chars.next() {
        if ch.is_alphanumeric() || ch == '_' {
            let mut end = start + ch.len_utf8();
            while let Some(&(at, next)) = chars.peek() {
                if next.is_alphanumeric() || next == '_' {
                    end = at + next.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            tokens.push(text[start..end].to_owned());
        } else if ch == ':' && chars.peek().is_some_and(|(_, c)| *c == ':') {
            chars.next();
            tokens.push("::".to_owned());
        } else if !ch.is_whitespace() {
            tokens.push(ch.to_string());
        }
    }
    tokens
}

/// Tarjan's strongly connected components of a small graph, each sorted.
fn strongly_connected(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    struct State<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        components: Vec<BTreeSet<String>>,
    }
    fn visit<'g>(state: &mut State<'g>, node: &'g str) {
        let at = state.index.len();
        state.index.insert(node, at);
        state.low.insert(node, at);
        state.stack.push(node);
        state.on_stack.insert(node);
        let graph = state.graph;
        for next in graph.get(node).into_iter().flatten() {
            if !state.index.contains_key(next.as_str()) {
                visit(state, next);
                let low = state.low[node].min(state.low[next.as_str()]);
                state.low.insert(node, low);
            } else if state.on_stack.contains(next.as_str()) {
                let low = state.low[node].min(state.index[next.as_str()]);
                state.low.insert(node, low);
            }
        }
        if state.low[node] == state.index[node] {
            let mut component = BTreeSet::new();
            while let Some(member) = state.stack.pop() {
                state.on_stack.remove(member);
                component.insert(member.to_owned());
                if member == node {
                    break;
                }
            }
            state.components.push(component);
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    let nodes: BTreeSet<&str> = graph
        .iter()
        .flat_map(|(from, to)| std::iter::once(from.as_str()).chain(to.iter().map(String::as_str)))
        .collect();
    for node in nodes {
        if !state.index.contains_key(node) {
            visit(&mut state, node);
        }
    }
    state.components
}
