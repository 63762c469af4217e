use crate::model::{RuleBody, TargetKind};
use crate::test_support::*;

#[test]
fn passing_event_policy_from_the_spec() {
    let model = assert_clean_with_prelude(
        "event_policy Consent { require event AcceptConsent preceded_by ShowConsent by Profile }",
    );
    let RuleBody::EventOrder { scope_kind, .. } = &model.rules.first().unwrap().body else {
        panic!()
    };
    assert_eq!(scope_kind, &TargetKind::Data);
    let model =
        assert_clean_with_prelude("event_policy E { require event A preceded_by B by Api }");
    let RuleBody::EventOrder { scope_kind, .. } = &model.rules.first().unwrap().body else {
        panic!()
    };
    assert_eq!(scope_kind, &TargetKind::Component);
}

#[test]
fn unknown_scope() {
    let diagnostic = assert_diagnostic_with_prelude(
        "event_policy E { require event A preceded_by B by Session }",
        "unknown-scope",
        1,
        51,
    );
    assert_eq!(
        diagnostic.message,
        "unknown event scope `Session`: expected data or a component"
    );
}

#[test]
fn self_precedence_is_a_warning() {
    let diagnostic = assert_diagnostic_with_prelude(
        "event_policy E { require event Show preceded_by Show by Api }",
        "self-precedence",
        1,
        18,
    );
    assert_eq!(
        diagnostic.message,
        "event `Show` cannot be preceded by itself"
    );
}
