use crate::model::{RuleBody, Trust};
use crate::test_support::*;

#[test]
fn passing_data_policy_from_the_spec() {
    let model = assert_clean_with_prelude("data_policy Privacy { deny classification pii -> untrusted ; deny jurisdiction eu -> partner }");
    let expected = RuleBody::Classification {
        classification: "pii".into(),
        trust: Trust::Untrusted,
    };
    assert_eq!(model.rules.first().unwrap().body, expected);
}

#[test]
fn unknown_labels() {
    let diagnostic = assert_diagnostic_with_prelude(
        "data_policy P { deny classification phi -> untrusted }",
        "unknown-classification",
        1,
        37,
    );
    assert_eq!(diagnostic.message, "no data is classified `phi`");
    let diagnostic = assert_diagnostic_with_prelude(
        "data_policy P { deny jurisdiction us -> partner }",
        "unknown-jurisdiction",
        1,
        35,
    );
    assert_eq!(diagnostic.message, "no data has jurisdiction `us`");
}

#[test]
fn trust_and_target() {
    assert_diagnostic_with_prelude(
        "data_policy P { deny classification pii -> public }",
        "invalid-trust",
        1,
        44,
    );
    assert_diagnostic_with_prelude(
        "data_policy P { deny jurisdiction eu -> nowhere }",
        "unknown-entity",
        1,
        41,
    );
    let diagnostic = assert_diagnostic_with_prelude(
        "data_policy P { deny classification pii -> semi_trusted }",
        "trust-level-unused",
        1,
        44,
    );
    assert_eq!(
        diagnostic.message,
        "no entity is `semi_trusted`: the rule cannot fire"
    );
}
