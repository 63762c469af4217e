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

fn two_hop_chain(relation: ChainRelation<'_>) -> Slice {
    let mut builder = SliceBuilder::new("chain");
    builder.deny_reach("rule R: deny reach App -> Server".into(), "App", "Server");
    builder.chain(
        relation,
        "App",
        "Server",
        &[
            ChainVertex::File {
                path: "app/a.ts",
                owner: Some("App"),
            },
            ChainVertex::File {
                path: "shared/b.ts",
                owner: None,
            },
            ChainVertex::File {
                path: "server/c.ts",
                owner: Some("Server"),
            },
        ],
        &[
            ChainHop {
                name: "fact f1".into(),
                fact_id: Some("f1".into()),
            },
            ChainHop {
                name: "fact f2".into(),
                fact_id: Some("f2".into()),
            },
        ],
    );
    builder.finish()
}

#[test]
fn a_file_chain_is_ground_path_axioms_along_its_edges() {
    let slice = two_hop_chain(ChainRelation::Reach);
    assert!(!slice.text.contains("forall"), "{}", slice.text);
    insta::assert_snapshot!(slice.text, @r"
    ; chain
    (declare-sort Entity 0)
    (declare-const |entity:App| Entity)
    (declare-const |entity:Server| Entity)
    (declare-const |file:app/a.ts| Entity)
    (declare-const |file:server/c.ts| Entity)
    (declare-const |file:shared/b.ts| Entity)
    (declare-fun edge (Entity Entity) Bool)
    (declare-fun reach (Entity Entity) Bool)
    (declare-fun owned_by (Entity Entity) Bool)
    ; a!0 = rule R: deny reach App -> Server
    (declare-const |a!0| Bool)
    (assert (=> |a!0| (not (reach |entity:App| |entity:Server|))))
    ; a!1 = mapping: `app/a.ts` belongs to `App`
    (declare-const |a!1| Bool)
    (assert (=> |a!1| (owned_by |file:app/a.ts| |entity:App|)))
    ; a!2 = mapping: `server/c.ts` belongs to `Server`
    (declare-const |a!2| Bool)
    (assert (=> |a!2| (owned_by |file:server/c.ts| |entity:Server|)))
    ; a!3 = fact f1
    (declare-const |a!3| Bool)
    (assert (=> |a!3| (edge |file:app/a.ts| |file:shared/b.ts|)))
    ; a!4 = fact f2
    (declare-const |a!4| Bool)
    (assert (=> |a!4| (edge |file:shared/b.ts| |file:server/c.ts|)))
    ; a!5 = axiom: an edge is a `reach` step (`shared/b.ts` -> `server/c.ts`)
    (declare-const |a!5| Bool)
    (assert (=> |a!5| (=> (edge |file:shared/b.ts| |file:server/c.ts|) (reach |file:shared/b.ts| |file:server/c.ts|))))
    ; a!6 = axiom: an edge followed by a `reach` chain is one (from `app/a.ts`)
    (declare-const |a!6| Bool)
    (assert (=> |a!6| (=> (and (edge |file:app/a.ts| |file:shared/b.ts|) (reach |file:shared/b.ts| |file:server/c.ts|)) (reach |file:app/a.ts| |file:server/c.ts|))))
    ; a!7 = axiom: a chain from a file of `App` to `Server` is a `reach` path between them
    (declare-const |a!7| Bool)
    (assert (=> |a!7| (=> (and (owned_by |file:app/a.ts| |entity:App|) (owned_by |file:server/c.ts| |entity:Server|) (reach |file:app/a.ts| |file:server/c.ts|)) (reach |entity:App| |entity:Server|))))
    ");
    // Every assertion but the rule is a step of the chain.
    let necessary: Vec<bool> = slice
        .tracked
        .iter()
        .map(|tracked| tracked.necessary)
        .collect();
    assert_eq!(necessary, [false, true, true, true, true, true, true, true]);
}

#[test]
fn a_bypass_chain_asks_its_interior_files_to_be_outside_the_via_set() {
    let via = ["Gateway".to_owned()];
    let slice = two_hop_chain(ChainRelation::Bypass { via: &via });
    assert!(!slice.text.contains("forall"));
    assert!(
        slice
            .text
            .contains("(assert (=> |a!5| (not (via |file:shared/b.ts|))))"),
        "{}",
        slice.text
    );
    assert!(slice.text.contains("(=> (and (edge |file:app/a.ts| |file:shared/b.ts|) (not (via |file:shared/b.ts|)) (free |file:shared/b.ts| |file:server/c.ts|)) (free |file:app/a.ts| |file:server/c.ts|))"), "{}", slice.text);
}

#[test]
fn a_chain_of_the_wrong_shape_adds_nothing() {
    let mut builder = SliceBuilder::new("chain");
    builder.chain(
        ChainRelation::Reach,
        "App",
        "db",
        &[ChainVertex::Entity("db")],
        &[],
    );
    assert!(builder.finish().tracked.is_empty());
}
