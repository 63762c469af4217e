use crate::model::RuleBody;
use crate::test_support::*;

#[test]
fn passing_change_policy_from_the_spec() {
    let model = assert_clean_with_prelude(
        "component ApiDocs { runs_on: app  paths: \"docs/api.md\" }\nchange_policy Fresh { require touched ApiDocs when touched Api }",
    );
    let expected = RuleBody::Touched {
        required: "ApiDocs".into(),
        trigger: "Api".into(),
    };
    assert_eq!(model.rules.first().unwrap().body, expected);
}

#[test]
fn unknown_component() {
    let diagnostic = assert_diagnostic_with_prelude(
        "change_policy F { require touched Docs when touched Api }",
        "unknown-component",
        1,
        35,
    );
    assert_eq!(diagnostic.message, "unknown component `Docs`");
}

#[test]
fn same_component_on_both_sides_warns() {
    assert_diagnostic_with_prelude(
        "change_policy F { require touched Api when touched Api }",
        "self-referential-rule",
        1,
        19,
    );
}
