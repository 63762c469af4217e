//! The walk finds exactly what the Go query files describe: every Go fixture (and, with
//! `LINTEL_GO_WALK_CORPUS=<dir>`, every `.go` file under a directory) is matched both ways and
//! compared (`crate::walk::query_parity`).

use crate::language::Language;
use crate::walk::query_parity::{compare, compare_fixtures_and_corpus};

compare_fixtures_and_corpus!(Language::Go, "LINTEL_GO_WALK_CORPUS", 5, 50);

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
