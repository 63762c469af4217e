use crate::model::{RuleBody, Trust};
use crate::test_support::*;

#[test]
fn passing_trust_policy_from_the_spec() {
    let model = assert_clean_with_prelude("trust_policy Edge { require auth untrusted -> trusted ; deny flow trusted -> untrusted when data pii }");
    assert_eq!(
        model.rules.first().unwrap().body,
        RuleBody::TrustBoundary {
            from: Trust::Untrusted,
            to: Trust::Trusted
        }
    );
    let expected = RuleBody::TrustDataFlow {
        from: Trust::Trusted,
        to: Trust::Untrusted,
        classification: "pii".into(),
    };
    assert_eq!(model.rules.get(1).unwrap().body, expected);
}

#[test]
fn invalid_trust_and_unknown_classification() {
    let diagnostic = assert_diagnostic_with_prelude(
        "trust_policy T { require auth public -> trusted }",
        "invalid-trust",
        1,
        31,
    );
    assert_eq!(
        diagnostic.message,
        "invalid trust `public`: expected trusted, untrusted or semi_trusted"
    );
    assert_diagnostic_with_prelude(
        "trust_policy T { deny flow trusted -> untrusted when data phi }",
        "unknown-classification",
        1,
        59,
    );
    assert_diagnostic_with_prelude(
        "trust_policy T { require auth semi_trusted -> trusted }",
        "trust-level-unused",
        1,
        31,
    );
}
