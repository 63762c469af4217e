use super::*;

#[test]
fn quoting_escapes_bars_backslashes_percent_and_non_ascii() {
    assert_eq!(quote_symbol("Api"), "|Api|");
    assert_eq!(quote_symbol("a|b"), "|a%7Cb|");
    assert_eq!(quote_symbol("a\\b"), "|a%5Cb|");
    assert_eq!(quote_symbol("100%"), "|100%25|");
    assert_eq!(quote_symbol("é"), "|%C3%A9|");
    assert_eq!(quote_symbol("tab\there"), "|tab%09here|");
}

#[test]
fn quoting_is_injective_on_tricky_pairs() {
    let names = ["a%7Cb", "a|b", "%", "%25", "", " ", "entity:x", "x"];
    let mut quoted: Vec<String> = names.iter().map(|name| quote_symbol(name)).collect();
    quoted.sort();
    quoted.dedup();
    assert_eq!(quoted.len(), names.len());
}

#[test]
fn deny_flow_slice_tracks_rule_and_fact() {
    let mut builder = SliceBuilder::new("deny flow Web -> db");
    builder.deny_edge("rule Layering: deny flow Web -> db".into(), "Web", "db");
    builder.edge_fact(
        "fact typescript:web/a.ts:1:1:import".into(),
        Some("f1".into()),
        "Web",
        "db",
    );
    let slice = builder.finish();
    assert_eq!(slice.assertion_count(), 2);
    assert_eq!(slice.text.matches("(assert ").count(), 2);
    insta::assert_snapshot!(slice.script(), @r"
    ; deny flow Web -> db
    (declare-sort Entity 0)
    (declare-const |entity:Web| Entity)
    (declare-const |entity:db| Entity)
    (declare-fun edge (Entity Entity) Bool)
    ; a!0 = rule Layering: deny flow Web -> db
    (declare-const |a!0| Bool)
    (assert (=> |a!0| (not (edge |entity:Web| |entity:db|))))
    ; a!1 = fact typescript:web/a.ts:1:1:import
    (declare-const |a!1| Bool)
    (assert (=> |a!1| (edge |entity:Web| |entity:db|)))
    (check-sat-assuming (|a!0| |a!1|))
    ");
}

#[test]
fn deny_reach_slice_declares_closure_and_path() {
    let mut builder = SliceBuilder::new("deny reach A -> C");
    builder.deny_reach("rule R: deny reach A -> C".into(), "A", "C");
    builder.reach_closure();
    builder.edge_fact("fact 1".into(), None, "A", "B");
    builder.edge_fact("fact 2".into(), None, "B", "C");
    let slice = builder.finish();
    assert_eq!(slice.assertion_count(), 5);
    assert!(slice
        .text
        .contains("(declare-fun reach (Entity Entity) Bool)"));
    assert!(slice
        .text
        .contains("(assert (=> |a!4| (edge |entity:B| |entity:C|)))"));
    let literals: Vec<_> = slice
        .tracked
        .iter()
        .map(|tracked| tracked.literal.as_str())
        .collect();
    assert_eq!(literals, ["a!0", "a!1", "a!2", "a!3", "a!4"]);
}

#[test]
fn via_closure_lists_members_and_names_with_odd_characters_stay_quoted() {
    let mut builder = SliceBuilder::new("require flow A -> B via V|W");
    builder.via_closure(&["V|W".to_owned(), "X".to_owned()]);
    builder.deny_bypass("rule".into(), "A", "B");
    builder.distinct_entities();
    let slice = builder.finish();
    assert!(slice
        .text
        .contains("(or (= x |entity:V%7CW|) (= x |entity:X|))"));
    assert!(slice
        .text
        .contains("(distinct |entity:A| |entity:B| |entity:V%7CW| |entity:X|)"));
}
