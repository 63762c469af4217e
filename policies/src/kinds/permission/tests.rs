use crate::model::{RuleBody, RuleKind, TargetKind};
use crate::test_support::*;

#[test]
fn passing_permission_from_the_spec() {
    let model = assert_clean_with_prelude("permission OrderAccess on Order { allow Role.Admin -> delete ; deny Role.Member -> delete }");
    assert_eq!(
        model.permissions.first().unwrap().target_kind,
        TargetKind::Data
    );
    let kinds: Vec<RuleKind> = model.rules.iter().map(|rule| rule.kind).collect();
    assert_eq!(kinds, [RuleKind::AllowPermission, RuleKind::DenyPermission]);
}

#[test]
fn wildcards_and_component_targets() {
    let model = assert_clean_with_prelude(
        "permission P on Api { allow * -> * ; deny Role.Member -> read | write }",
    );
    let first = &model.rules.first().unwrap().body;
    let expected = RuleBody::Permission {
        target: "Api".into(),
        target_kind: TargetKind::Component,
        role_enum: None,
        role: None,
        operations: vec!["*".into()],
        when_field: None,
    };
    assert_eq!(first, &expected);
}

#[test]
fn when_field_is_recorded() {
    let model = assert_clean_with_prelude(
        "permission P on Order { allow Role.Admin -> delete when status }",
    );
    let RuleBody::Permission { when_field, .. } = &model.rules.first().unwrap().body else {
        panic!("not a permission")
    };
    assert_eq!(when_field.as_deref(), Some("status"));
}

#[test]
fn unknown_target() {
    let diagnostic =
        assert_diagnostic_with_prelude("permission P on Project { }", "unknown-target", 1, 17);
    assert_eq!(
        diagnostic.message,
        "unknown permission target `Project`: expected data or a component"
    );
}

#[test]
fn not_an_enum() {
    let diagnostic = assert_diagnostic_with_prelude(
        "permission P on Order { allow Roles.Admin -> read }",
        "not-an-enum",
        1,
        31,
    );
    assert_eq!(diagnostic.message, "`Roles` is not a declared enum");
}

#[test]
fn role_value_must_be_a_member() {
    assert_diagnostic_with_prelude(
        "permission P on Order { allow Role.Owner -> read }",
        "enum-value-unknown",
        1,
        36,
    );
}

#[test]
fn when_field_must_exist_on_data() {
    assert_diagnostic_with_prelude(
        "permission P on Order { allow Role.Admin -> read when state }",
        "unknown-field",
        1,
        55,
    );
    assert_diagnostic_with_prelude(
        "permission P on Api { allow Role.Admin -> read when state }",
        "unknown-field",
        1,
        53,
    );
}
