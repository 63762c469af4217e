use crate::model::{Lifetime, RuleBody, RuleKind};
use crate::test_support::*;

#[test]
fn passing_di_policy_from_the_spec() {
    let model = assert_clean_with_prelude(
        "di_policy Di { deny inject Web -> Repo ; deny inject_reach Web -> Repo ; deny lifetime singleton -> scoped ; deny lifetime_reach singleton -> transient ; deny resolve IServiceProvider from Api ; deny resolve * from Web }",
    );
    let kinds: Vec<RuleKind> = model.rules.iter().map(|rule| rule.kind).collect();
    assert_eq!(
        kinds,
        [
            RuleKind::DenyInject,
            RuleKind::DenyInjectReach,
            RuleKind::DenyLifetime,
            RuleKind::DenyLifetimeReach,
            RuleKind::DenyResolve,
            RuleKind::DenyResolve
        ]
    );
    assert_eq!(
        model.rules.get(2).unwrap().body,
        RuleBody::Lifetime {
            from: Lifetime::Singleton,
            to: Lifetime::Scoped
        }
    );
    assert_eq!(
        model.rules.get(5).unwrap().body,
        RuleBody::Resolve {
            service: "*".into(),
            component: "Web".into()
        }
    );
}

#[test]
fn unknown_component() {
    let diagnostic = assert_diagnostic_with_prelude(
        "di_policy Di { deny inject Web -> Repos }",
        "unknown-component",
        1,
        35,
    );
    assert_eq!(diagnostic.help.as_deref(), Some("did you mean `Repo`?"));
}

#[test]
fn lifetimes_are_keywords() {
    let diagnostic = assert_diagnostic_with_prelude(
        "di_policy Di { deny lifetime forever -> scoped }",
        "unexpected-token",
        1,
        30,
    );
    assert_eq!(
        diagnostic.message,
        "expected `singleton`, `scoped` or `transient`, found `forever`"
    );
}
