//! The walk finds exactly what the Rust query files describe: every Rust fixture (and, with
//! `LINTEL_RUST_WALK_CORPUS=<dir>`, every `.rs` file under a directory) is matched both ways and
//! compared (`crate::walk::query_parity`).

use crate::language::Language;
use crate::walk::query_parity::{compare, compare_fixtures_and_corpus};

compare_fixtures_and_corpus!(Language::Rust, "LINTEL_RUST_WALK_CORPUS", 5, 50);

#[test]
fn routes_requests_modules_and_assignments_keep_the_query_order() {
    let source = r#"
use crate::db::{self, Pool};
mod orders;
mod inline { use super::*; }
#[get("/a")]
#[post("/b")] #[head("/c")]
async fn f() { reqwest::get(url).await; client.get(u).send(); }
fn main() {
    let app = Router::new().route("/x", get(h)).route("/y", post(h).get(g));
    web::resource("/z").to(h);
    reqwest::blocking::get(client.post(u));
    self.state = State::Active;
    a.b = c.d = 1;
    x.y += 1;
    redis::Client::open("redis://x");
    f(g(h(1)))[0].get("/w");
    Pool::new::<u8>(1)
}
"#;
    let hits = compare(Language::Rust, super::hits, "inline", source)
        .unwrap_or_else(|failure| panic!("{failure}"));
    assert!(hits > 25, "{hits}");
}

#[test]
fn broken_source_matches_the_query_too() {
    for source in [
        "use a::{\nfn f( { x.get(\n",
        "#[get(\"/x\"\nfn f() { o.x = }\nmod\n",
        "fn f() { reqwest::get( ; a.route(\n",
    ] {
        compare(Language::Rust, super::hits, source, source)
            .unwrap_or_else(|failure| panic!("{failure}"));
    }
}
