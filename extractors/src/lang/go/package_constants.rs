//! Go string constants across the files of a package: a request URL that reads a constant
//! another file of its package declares (`authBaseURL + "/login/anonymous"` in navidrome's
//! `adapters/deezer/client_auth.go`, with `const authBaseURL = "https://auth.deezer.com"` in
//! `client.go`) has that value in place of the name, as a constant of its own file has.
//!
//! One file's extraction sees only its own constants, so each Go file records its top-level
//! string constants in its [`RouteLinks`] (`string_constants`), and [`link`] fills the holes of
//! the `http_call` facts of the other files of the same folder once every file is extracted. A
//! `_test.go` file's constants count only for the test files of its folder; a name that two
//! files declare with different values (one per build tag) stays a hole.

use std::borrow::BorrowMut;
use std::collections::BTreeMap;

use policies::facts::{Fact, FactKind, PropertyValue};

use crate::facts::web;
use crate::resolve::links::RouteLinks;

/// The constants of one folder's files: by name, the value, or `None` when files disagree.
type FolderConstants<'a> = BTreeMap<&'a str, Option<&'a str>>;

/// Fills the holes of Go `http_call` URLs that name string constants of other files of the
/// same package (folder), and recomputes their paths.
pub(crate) fn link<F: BorrowMut<Fact>>(facts: &mut [F], links: &BTreeMap<String, RouteLinks>) {
    let mut folders: BTreeMap<(&str, bool), FolderConstants<'_>> = BTreeMap::new();
    for (file, file_links) in links {
        if !file.ends_with(".go") || file_links.string_constants.is_empty() {
            continue;
        }
        let key = (folder_of(file), file.ends_with("_test.go"));
        let constants = folders.entry(key).or_default();
        for (name, value) in &file_links.string_constants {
            constants
                .entry(name.as_str())
                .and_modify(|known| {
                    if *known != Some(value.as_str()) {
                        *known = None;
                    }
                })
                .or_insert(Some(value.as_str()));
        }
    }
    for fact in facts.iter_mut() {
        let fact: &mut Fact = fact.borrow_mut();
        if fact.kind != FactKind::HttpCall || !fact.evidence.file.ends_with(".go") {
            continue;
        }
        let Some(url) = fact
            .property_str("url")
            .filter(|url| url.contains('{'))
            .map(str::to_owned)
        else {
            continue;
        };
        let file = &*fact.evidence.file;
        let folder = folder_of(file);
        let mut known: BTreeMap<String, String> = BTreeMap::new();
        let keys: &[bool] = if file.ends_with("_test.go") {
            &[false, true]
        } else {
            &[false]
        };
        for key in keys {
            if let Some(constants) = folders.get(&(folder, *key)) {
                known.extend(constants.iter().filter_map(|(name, value)| {
                    value.map(|value| ((*name).to_owned(), value.to_owned()))
                }));
            }
        }
        let filled = web::with_constants(&url, &known);
        if filled == url {
            continue;
        }
        let path = web::static_path(&filled);
        let method = fact.property_str("method").unwrap_or("*").to_owned();
        let client = fact.property_str("client").unwrap_or_default().to_owned();
        let shown = path.as_deref().unwrap_or(&filled);
        fact.evidence.message = format!("http call `{method} {shown}` via `{client}`").into();
        fact.properties.insert(
            "url",
            PropertyValue::from(crate::syntax::truncate(&filled, 120).as_str()),
        );
        crate::facts::set_path(fact, path.as_deref());
    }
}

/// The folder of a project-relative path (`""` at the root).
fn folder_of(file: &str) -> &str {
    file.rsplit_once('/').map_or("", |(folder, _)| folder)
}
