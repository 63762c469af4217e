//! The walk finds exactly what the Python query files describe: every Python fixture (and, with
//! `LINTEL_PYTHON_WALK_CORPUS=<dir>`, every `.py` file under a directory) is matched both ways
//! and compared hit by hit, kind by kind, in order, with and without the generic patterns.

use std::path::{Path, PathBuf};

use policies::facts::FactKind;

use crate::query::{self, QueryHit};
use crate::syntax;
use crate::Language;

fn sources(root: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|entry| entry.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, found);
        } else if Language::for_path(&path.to_string_lossy()) == Some(Language::Python) {
            found.push(path);
        }
    }
}

/// The hits, kind by kind (each kind in order), with their captures by field.
fn describe(hits: &[QueryHit<'_>]) -> Vec<String> {
    let mut hits: Vec<&QueryHit<'_>> = hits.iter().collect();
    hits.sort_by_key(|hit| hit.kind);
    hits.iter()
        .map(|hit| {
            let mut captures: Vec<String> = hit
                .captures()
                .iter()
                .map(|(field, node)| {
                    format!("{field:?}@{}..{}", node.start_byte(), node.end_byte())
                })
                .collect();
            captures.sort();
            format!("{:?} {}", hit.kind, captures.join(" "))
        })
        .collect()
}

/// The route and HTTP-call hits in their joint order, which `python_web` reads.
fn web_order(hits: &[QueryHit<'_>]) -> Vec<String> {
    hits.iter()
        .filter(|hit| matches!(hit.kind, FactKind::Route | FactKind::HttpCall))
        .map(|hit| {
            let first = hit.captures().first().map(|(_, node)| node.start_byte());
            format!("{:?}@{first:?}", hit.kind)
        })
        .collect()
}

fn compare(name: &str, source: &str) -> Result<usize, String> {
    let tree = syntax::parse(|| tree_sitter_python::LANGUAGE.into(), source).ok_or("no tree")?;
    let compiled = query::compiled(Language::Python)
        .ok_or("no query")?
        .map_err(|error| error.to_string())?;
    let all = compiled.hits(&tree, source);
    let without_generic: Vec<QueryHit<'_>> = all
        .iter()
        .filter(|hit| !matches!(hit.kind, FactKind::Call | FactKind::Assignment))
        .cloned()
        .collect();
    for (expected, generic) in [(&all, true), (&without_generic, false)] {
        let walked = super::hits(&tree, source, generic);
        let (expected_hits, actual) = (describe(expected), describe(&walked));
        if expected_hits != actual {
            let first = expected_hits
                .iter()
                .zip(&actual)
                .position(|(left, right)| left != right)
                .unwrap_or(expected_hits.len().min(actual.len()));
            return Err(format!(
                "{name} (generic {generic}): hits differ at {first} (query {}, walk {}):\n  query: {:?}\n  walk:  {:?}",
                expected_hits.len(),
                actual.len(),
                expected_hits.get(first),
                actual.get(first)
            ));
        }
        if web_order(expected) != web_order(&walked) {
            return Err(format!(
                "{name}: routes and HTTP calls come in another order"
            ));
        }
    }
    Ok(all.len())
}

fn check_all(root: &Path) -> (usize, usize) {
    let mut files = Vec::new();
    sources(root, &mut files);
    let mut failures = Vec::new();
    let mut hits = 0;
    for file in &files {
        let name = file.to_string_lossy().into_owned();
        let Ok(source) = std::fs::read_to_string(file) else {
            continue;
        };
        match compare(&name, &source) {
            Ok(count) => hits += count,
            Err(failure) => failures.push(failure),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    (files.len(), hits)
}

#[test]
fn the_walk_matches_the_query_on_every_python_fixture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let (files, hits) = check_all(&root);
    assert!(files > 10 && hits > 100, "{files} files, {hits} hits");
}

#[test]
fn the_walk_matches_the_query_on_a_corpus() {
    let Some(root) = std::env::var_os("LINTEL_PYTHON_WALK_CORPUS") else {
        return;
    };
    let (files, _) = check_all(Path::new(&root));
    assert!(files > 0, "no Python under the corpus");
}

#[test]
fn nested_decorators_mounts_and_chains_keep_the_query_order() {
    let source = r#"
import requests, httpx as h
from . import views
from ..api import (router as api_router)
@app.get("/a")
@router.post("/b", response_model=requests.get(u))
def f(): return requests.get(path("x", include(path("y", v))))
app.include_router(api_router, prefix="/api").include_router(x)
path("p", v).include_router(q)
urlpatterns = [path("", views.index), re_path(r"^x/$", views.x)]
o.p = q.r = s
o.p: int = (yield)
x = (a.b)(c)(d)
requests.request("GET", url, timeout=h.get(u))
bp.register_blueprint(api, url_prefix="/v1")
@app.route(
  # comment
  "/c", methods=["GET"])
def g(): pass
"#;
    let hits = compare("inline", source).unwrap_or_else(|failure| panic!("{failure}"));
    assert!(hits > 25, "{hits}");
}

#[test]
fn broken_source_matches_the_query_too() {
    for source in [
        "def f(:\n  requests.get(\n",
        "@app.get(\nclass\nimport\nfrom . import\n",
        "o.p = \npath(\"x\" v)\n",
    ] {
        compare(source, source).unwrap_or_else(|failure| panic!("{failure}"));
    }
}
