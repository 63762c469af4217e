//! The walk finds exactly what the Go query files describe: every Go fixture (and, with
//! `LINTEL_GO_WALK_CORPUS=<dir>`, every `.go` file under a directory) is matched both ways and
//! compared (`crate::walk_check`).

use std::path::Path;

use crate::walk_check::{compare, compare_all};
use crate::Language;

#[test]
fn the_walk_matches_the_query_on_every_go_fixture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let (files, hits) = compare_all(&root, Language::Go, super::hits);
    assert!(files > 5 && hits > 50, "{files} files, {hits} hits");
}

#[test]
fn the_walk_matches_the_query_on_a_corpus() {
    let Some(root) = std::env::var_os("LINTEL_GO_WALK_CORPUS") else {
        return;
    };
    let (files, _) = compare_all(Path::new(&root), Language::Go, super::hits);
    assert!(files > 0, "no Go under the corpus");
}

#[test]
fn routes_requests_clients_and_assignments_keep_the_query_order() {
    let source = r#"package main

import (
	"net/http"
	db "example.com/shop/db"
	_ `github.com/lib/pq`
)

func main() {
	r.GET("/a", h).Use(m)
	http.HandleFunc("/b", func(w http.ResponseWriter, q *http.Request) { http.Get(u) })
	c := &http.Client{Transport: &http.Transport{}}
	req, _ := http.NewRequest("GET", url, nil)
	http.Get(fmt.Sprintf("%s", http.Head(u)))
	o.Status = StatusActive
	o.A, o.B = 1, 2
	o.C = x /* c */
	o.D += 1
	f(g(h(1)))[0].Get("/x", db.New(
		// comment
		a))
	generic[int](x)
}
"#;
    let hits = compare(Language::Go, super::hits, "inline", source)
        .unwrap_or_else(|failure| panic!("{failure}"));
    assert!(hits > 20, "{hits}");
}

#[test]
fn broken_source_matches_the_query_too() {
    for source in [
        "package a\nimport (\n\"x\"\nfunc f( { r.GET(\"/x\"\n",
        "package a\nfunc f() { o.X = \nhttp.Get( }\n",
        "package a\nvar x = &http.Client{\n",
    ] {
        compare(Language::Go, super::hits, source, source)
            .unwrap_or_else(|failure| panic!("{failure}"));
    }
}
