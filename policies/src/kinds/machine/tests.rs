use crate::model::{RuleBody, RuleKind};
use crate::test_support::*;

const LIFE: &str = "machine OrderLife on Order.status {\n  allow transition Draft -> Active\n  allow transition * -> Draft\n  deny  transition Archived -> *\n}";

#[test]
fn passing_machine_from_the_spec() {
    let model = assert_clean_with_prelude(LIFE);
    let machine = model.machines.first().unwrap();
    assert_eq!(
        (machine.enum_name.as_str(), machine.is_closed),
        ("OrderStatus", true)
    );
    assert_eq!(model.rules.len(), 3);
    let last = model.rules.last().unwrap();
    assert_eq!(last.kind, RuleKind::DenyTransition);
    let expected = RuleBody::Transition {
        machine: "OrderLife".into(),
        data: "Order".into(),
        field: "status".into(),
        from: "Archived".into(),
        to: "*".into(),
    };
    assert_eq!(last.body, expected);
}

#[test]
fn optional_enum_fields_may_be_governed() {
    assert_clean(
        "enum S { A | B }\ndata D { s: Optional<S> }\nmachine M on D.s { deny transition A -> B }",
    );
}

#[test]
fn unknown_data_and_field() {
    assert_diagnostic_with_prelude("machine M on Ordr.status { }", "unknown-data", 1, 14);
    let diagnostic =
        assert_diagnostic_with_prelude("machine M on Order.state { }", "unknown-field", 1, 20);
    assert_eq!(diagnostic.message, "data `Order` has no field `state`");
}

#[test]
fn not_an_enum_field() {
    let diagnostic =
        assert_diagnostic_with_prelude("machine M on Order.total { }", "not-an-enum-field", 1, 20);
    assert_eq!(
        diagnostic.message,
        "field `Order.total` has type `Money`: a machine needs an enum field"
    );
}

#[test]
fn states_must_be_members() {
    let diagnostic = assert_diagnostic_with_prelude(
        "machine M on Order.status { allow transition Draft -> Shipped }",
        "enum-value-unknown",
        1,
        55,
    );
    assert_eq!(
        diagnostic.message,
        "`Shipped` is not a value of enum `OrderStatus`"
    );
}

#[test]
fn duplicate_machine_target() {
    let diagnostic = assert_diagnostic_with_prelude(
        "machine A on Order.status { }\nmachine B on Order.status { }",
        "duplicate-machine-target",
        2,
        14,
    );
    assert_eq!(
        diagnostic.message,
        "`Order.status` is already governed by machine `A`"
    );
}

#[test]
fn self_transition_is_a_warning_and_has_no_effect() {
    let source = "machine M on Order.status { allow transition Draft -> Draft }";
    let diagnostic = assert_diagnostic_with_prelude(source, "self-transition-rule", 1, 29);
    assert_eq!(
        diagnostic.message,
        "transition `Draft -> Draft` has no effect"
    );
    let model = compile_with_prelude(source).model.unwrap();
    assert!(model.rules.is_empty());
}

#[test]
fn conflicting_transitions_warn() {
    let source = "machine M on Order.status { allow transition Draft -> Active\n deny transition Draft -> Active }";
    let diagnostic = assert_diagnostic_with_prelude(source, "conflicting-transition-rules", 2, 2);
    assert_eq!(
        diagnostic.message,
        "`Draft -> Active` is both allowed and denied: deny wins"
    );
}
