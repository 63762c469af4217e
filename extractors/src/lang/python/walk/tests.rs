//! The walk finds exactly what the Python query files describe: every Python fixture (and, with
//! `LINTEL_PYTHON_WALK_CORPUS=<dir>`, every `.py` file under a directory) is matched both ways
//! and compared (`crate::walk::query_parity`).

use crate::language::Language;
use crate::walk::query_parity::{compare, compare_fixtures_and_corpus};

compare_fixtures_and_corpus!(Language::Python, "LINTEL_PYTHON_WALK_CORPUS", 10, 100);

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
    let hits = compare(Language::Python, super::hits, "inline", source)
        .unwrap_or_else(|failure| panic!("{failure}"));
    assert!(hits > 25, "{hits}");
}

#[test]
fn broken_source_matches_the_query_too() {
    for source in [
        "def f(:\n  requests.get(\n",
        "@app.get(\nclass\nimport\nfrom . import\n",
        "o.p = \npath(\"x\" v)\n",
    ] {
        compare(Language::Python, super::hits, source, source)
            .unwrap_or_else(|failure| panic!("{failure}"));
    }
}

#[test]
fn calls_inside_format_strings_are_found_and_plain_strings_are_not_entered() {
    let source = r#"
a = f"{requests.get(u)}" + F'{o.p(x)}' + rf"{path('x', v)}" + t"{m.n(k)}"
b = "{requests.get(u)}" + r'{o.p(x)}' + b"{q(x)}" + u"""{r(y)}"""
c = f"{'nested' + g(f'{h(z)}')}"
"#;
    let hits = compare(Language::Python, super::hits, "strings", source)
        .unwrap_or_else(|failure| panic!("{failure}"));
    let tree = crate::syntax::parse(|| tree_sitter_python::LANGUAGE.into(), source).expect("tree");
    let calls = super::hits(&tree, source, false)
        .iter()
        .filter(|hit| hit.kind == policies::facts::FactKind::AccessesTechnology)
        .count();
    assert_eq!(calls, 6, "{hits} hits");
}

#[test]
fn wide_nodes_are_walked_in_order_with_their_fields() {
    // More named children than `walk::WIDE` in the module, a list and a call's
    // arguments: those are listed by a cursor, the narrow ones by index.
    let calls: Vec<String> = (0..40)
        .map(|index| format!("requests.get(u{index})"))
        .collect();
    let assignments: Vec<String> = (0..40).map(|index| format!("o.p{index} = v")).collect();
    let source = format!(
        "{}\nx = [{}]\nf({})\n",
        assignments.join("\n"),
        calls.join(", "),
        calls.join(", ")
    );
    let hits = compare(Language::Python, super::hits, "wide", &source)
        .unwrap_or_else(|failure| panic!("{failure}"));
    let tree = crate::syntax::parse(|| tree_sitter_python::LANGUAGE.into(), &source).expect("tree");
    let walked = super::hits(&tree, &source, true);
    let count = |kind| walked.iter().filter(|hit| hit.kind == kind).count();
    assert_eq!(
        count(policies::facts::FactKind::AccessesTechnology),
        81,
        "{hits} hits"
    );
    assert_eq!(
        count(policies::facts::FactKind::Assignment),
        40,
        "{hits} hits"
    );
}
