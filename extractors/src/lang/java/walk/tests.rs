//! The walk finds exactly what the Java query files describe: every Java fixture (and, with
//! `LINTEL_JAVA_WALK_CORPUS=<dir>`, every `.java` file under a directory) is matched both ways
//! and compared (`crate::walk::query_parity`).

use crate::language::Language;
use crate::walk::query_parity::{compare, compare_fixtures_and_corpus};

compare_fixtures_and_corpus!(Language::Java, "LINTEL_JAVA_WALK_CORPUS", 5, 50);

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
