use crate::model::{OperationPhase, RuleBody, RuleKind};
use crate::test_support::*;

#[test]
fn passing_operation_policy_from_the_spec() {
    let model = assert_clean_with_prelude(
        "operation_policy Submit { require before submitOrder Order.status == Draft ; ensure after submitOrder Order.status == Active }",
    );
    let kinds: Vec<RuleKind> = model.rules.iter().map(|rule| rule.kind).collect();
    assert_eq!(kinds, [RuleKind::RequireBefore, RuleKind::EnsureAfter]);
    let RuleBody::OperationCondition {
        phase, operation, ..
    } = &model.rules.last().unwrap().body
    else {
        panic!()
    };
    assert_eq!(
        (phase, operation.as_str()),
        (&OperationPhase::After, "submitOrder")
    );
}

#[test]
fn conditions_are_type_checked() {
    assert_diagnostic_with_prelude(
        "operation_policy S { ensure after submit Order.state == Active }",
        "unknown-field",
        1,
        48,
    );
}
