//! Full fact snapshots (ids, evidence spans, messages, every property) of two fixture files,
//! reviewed field by field; the annotations check the rest of the fixtures.

use crate::fixtures::extract_project;

fn facts_of(case: &str, file: &str) -> Vec<policies::facts::Fact> {
    extract_project(case)
        .into_iter()
        .find(|(path, _, _)| path == file)
        .map(|(_, _, extraction)| extraction.facts)
        .unwrap()
}

#[test]
fn client_facts_of_a_pg_module() {
    insta::assert_json_snapshot!(facts_of("typescript/clients", "src/pg.ts"));
}

#[test]
fn request_facts_of_global_fetch_calls() {
    insta::assert_json_snapshot!(facts_of("typescript/http", "src/global-fetch.ts"));
}
