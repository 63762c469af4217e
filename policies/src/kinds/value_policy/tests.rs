use crate::model::{Literal, RuleBody, ValueDomain};
use crate::test_support::*;

#[test]
fn passing_value_policy_from_the_spec() {
    let model = assert_clean_with_prelude(
        "value_policy OrderShape { require Order.items.length == 1 when Order.status == Draft ; require Order.total >= 0 }",
    );
    let RuleBody::Value { require, when } = &model.rules.first().unwrap().body else {
        panic!("not a value rule")
    };
    assert_eq!(require.path, ["items", "length"]);
    assert_eq!(require.path_type.domain, ValueDomain::Numeric);
    assert_eq!(
        when.as_ref().unwrap().literal,
        Literal::String("Draft".into())
    );
}

#[test]
fn literals_of_every_kind() {
    assert_clean(
        "enum S { A }\ndata D { s: S  n: Optional<Int>  b: Bool  t: String  j: Json  f: Float }\n\
         value_policy V { require D.s == \"A\"  require D.n == null  require D.b != true  require D.t == hello  require D.j == 3  require D.f < -1.5 }",
    );
}

#[test]
fn optional_data_paths_unwrap() {
    assert_clean(
        "data A { b: Optional<B> }\ndata B { n: Int }\nvalue_policy V { require A.b.n >= 0 }",
    );
}

#[test]
fn unknown_data_and_field() {
    assert_diagnostic_with_prelude(
        "value_policy V { require Ordr.total >= 0 }",
        "unknown-data",
        1,
        26,
    );
    let diagnostic = assert_diagnostic_with_prelude(
        "value_policy V { require Order.totl >= 0 }",
        "unknown-field",
        1,
        32,
    );
    assert_eq!(diagnostic.help.as_deref(), Some("did you mean `total`?"));
}

#[test]
fn field_on_non_data() {
    let diagnostic = assert_diagnostic_with_prelude(
        "value_policy V { require Order.status.x == 1 }",
        "field-on-non-data",
        1,
        39,
    );
    assert_eq!(
        diagnostic.message,
        "cannot read `x` from `Order.status` of type `OrderStatus`"
    );
}

#[test]
fn length_on_non_list() {
    let diagnostic = assert_diagnostic_with_prelude(
        "value_policy V { require Order.total.length == 1 }",
        "length-on-non-list",
        1,
        38,
    );
    assert_eq!(
        diagnostic.message,
        "`length` applies to lists, but `Order.total` is `Money`"
    );
}

#[test]
fn ordering_on_non_numeric() {
    let diagnostic = assert_diagnostic_with_prelude(
        "value_policy V { require Order.status >= Draft }",
        "ordering-on-non-numeric",
        1,
        39,
    );
    assert_eq!(
        diagnostic.message,
        "`>=` needs a numeric field, but `Order.status` is `OrderStatus`"
    );
}

#[test]
fn enum_literal_must_be_a_member() {
    assert_diagnostic_with_prelude(
        "value_policy V { require Order.status == Shipped }",
        "enum-value-unknown",
        1,
        42,
    );
}

#[test]
fn value_type_mismatch_is_a_warning() {
    let source = "data User { ok: Bool }\nvalue_policy V { require User.ok == 1 }";
    let diagnostic = assert_diagnostic(source, "value-type-mismatch", 2, 37);
    assert_eq!(
        diagnostic.message,
        "comparing `Bool` field `User.ok` with a number"
    );
    assert!(compile(source).model.is_some());
    assert_diagnostic(
        "data U { n: Int }\nvalue_policy V { require U.n == null }",
        "value-type-mismatch",
        2,
        33,
    );
}
