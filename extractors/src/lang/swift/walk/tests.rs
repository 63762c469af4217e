//! The walk finds exactly what the Swift query files describe: every Swift fixture (and, with
//! `LINTEL_SWIFT_WALK_CORPUS=<dir>`, every `.swift` file under a directory) is matched both ways
//! and compared (`crate::walk::query_parity`).

use crate::language::Language;
use crate::walk::query_parity::{compare, compare_fixtures_and_corpus};

compare_fixtures_and_corpus!(Language::Swift, "LINTEL_SWIFT_WALK_CORPUS", 3, 30);

#[test]
fn routes_sessions_members_and_assignments_keep_the_query_order() {
    let source = r#"
import Foundation
import Vapor
func routes(_ app: Application) throws {
    app.get("a", ":id") { req in try await req.db.query(User.self).all() }
    let api = app.grouped("api")
    api.post("b", use: create).put("c") { _ in "" }
    let (data, _) = try await URLSession.shared.data(from: url)
    URLSession.shared.dataTask(with: request) { _, _, _ in }.resume()
    self.state = .active
    model.user.name = UserDefaults.standard.string(forKey: "k") ?? ""
    x += 1
    let f = foo(bar(1))(2)
    Keychain.save(/* comment */ key)
}
"#;
    let hits = compare(Language::Swift, super::hits, "inline", source)
        .unwrap_or_else(|failure| panic!("{failure}"));
    assert!(hits > 20, "{hits}");
}

#[test]
fn broken_source_matches_the_query_too() {
    for source in [
        "import\nfunc f( { app.get(\"x\"\n",
        "let x = URLSession.shared.data(\nself.a = \n",
        "app.post(\"y\") { req in\n",
    ] {
        compare(Language::Swift, super::hits, source, source)
            .unwrap_or_else(|failure| panic!("{failure}"));
    }
}
