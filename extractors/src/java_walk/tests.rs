//! The walk finds exactly what the Java query files describe: every Java fixture (and, with
//! `LINTEL_JAVA_WALK_CORPUS=<dir>`, every `.java` file under a directory) is matched both ways
//! and compared (`crate::walk_check`).

use std::path::Path;

use crate::walk_check::{compare, compare_all};
use crate::Language;

#[test]
fn the_walk_matches_the_query_on_every_java_fixture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let (files, hits) = compare_all(&root, Language::Java, super::hits);
    assert!(files > 5 && hits > 50, "{files} files, {hits} hits");
}

#[test]
fn the_walk_matches_the_query_on_a_corpus() {
    let Some(root) = std::env::var_os("LINTEL_JAVA_WALK_CORPUS") else {
        return;
    };
    let (files, _) = compare_all(Path::new(&root), Language::Java, super::hits);
    assert!(files > 0, "no Java under the corpus");
}

#[test]
fn clients_routes_roles_and_calls_keep_the_query_order() {
    let source = r#"
package com.acme.orders;
import java.sql.DriverManager;
import static org.junit.Assert.*;
@RestController @RequestMapping("/orders")
public class Orders extends Base<T> implements Api, /* c */ Other {
  private final RestTemplate rest = new RestTemplate(new Factory());
  private KafkaTemplate<String, String> kafka;
  Orders(JdbcTemplate jdbc, @Value("x") String y) { this.jdbc = jdbc; super.x = 1; }
  @GetMapping("/{id}") @PreAuthorize("hasRole('ADMIN')")
  Order find(@PathVariable long id) {
    DriverManager.getConnection(url).prepareStatement("x");
    rest.getForObject(base + "/x", Order.class);
    client.get().uri("/y").retrieve();
    foo(bar(1)).exchange(u);
    a.b = c.d = 1; x += 1;
    return this.<T>generic(x);
  }
  @PostMapping void save() {}
}
interface Service extends A, B { @GET("users/{id}") Call<User> user(); @DELETE void rm(); @HTTP(method = "X") void h(); }
"#;
    let hits = compare(Language::Java, super::hits, "inline", source)
        .unwrap_or_else(|failure| panic!("{failure}"));
    assert!(hits > 30, "{hits}");
}

#[test]
fn broken_source_matches_the_query_too() {
    for source in [
        "import a.b\nclass A extends { void f( { x.get().uri(\n",
        "class A { @GetMapping( void f() { this.a = ; new ; } }\n",
        "class A implements B, { C c; @Secured( }\n",
    ] {
        compare(Language::Java, super::hits, source, source)
            .unwrap_or_else(|failure| panic!("{failure}"));
    }
}
