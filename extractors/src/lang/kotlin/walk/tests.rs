//! The walk finds exactly what the Kotlin query files describe: every Kotlin fixture (and, with
//! `LINTEL_KOTLIN_WALK_CORPUS=<dir>`, every `.kt`/`.kts` file under a directory) is matched both
//! ways and compared (`crate::walk::query_parity`).

use crate::language::Language;
use crate::walk::query_parity::{compare, compare_fixtures_and_corpus};

compare_fixtures_and_corpus!(Language::Kotlin, "LINTEL_KOTLIN_WALK_CORPUS", 3, 30);

#[test]
fn clients_routes_and_calls_keep_the_query_order() {
    let source = r#"
package com.acme
import io.ktor.server.routing.*
import okhttp3.OkHttpClient as Http
@RestController
class Orders(private val repo: OrderRepository, val http: Http) : Base(), Api by impl {
    @GetMapping("/{id}") @org.springframework.web.bind.annotation.PostMapping
    fun find(id: Long) = client.get("/x").also { x.url(u) }
    fun Route.routes() {
        get("/a") { call.respond(1) }
        post("/b", { }) { }
        route("/c") { put { } }
    }
}
interface Api { @GET("users/{id}") fun user(): Call<User>; @DELETE fun rm(); @HTTP(method = "X") fun h() }
fun main() {
    val c = Request.Builder().url(u).build()
    this.state = State.Active
    a.b = 1; x += 1
    f(g(1)) { }
    get ("/x") { }
}
"#;
    let hits = compare(Language::Kotlin, super::hits, "inline", source)
        .unwrap_or_else(|failure| panic!("{failure}"));
    assert!(hits > 25, "{hits}");
}

#[test]
fn broken_source_matches_the_query_too() {
    for source in [
        "import a.\nclass A( : B( { fun f( { x.get(\n",
        "@GetMapping(\nfun f() { this.a = }\n",
        "get(\"/x\" {\n",
    ] {
        compare(Language::Kotlin, super::hits, source, source)
            .unwrap_or_else(|failure| panic!("{failure}"));
    }
}
