use crate::model::{RuleBody, RuleKind};
use crate::test_support::*;

fn bodies(source: &str) -> Vec<(RuleKind, RuleBody)> {
    assert_clean_with_prelude(source)
        .rules
        .into_iter()
        .map(|rule| (rule.kind, rule.body))
        .collect()
}

fn pair(from: &str, to: &str) -> RuleBody {
    RuleBody::Pair {
        from: from.to_owned(),
        to: to.to_owned(),
    }
}

#[test]
fn passing_invariant_from_the_spec() {
    let rules =
        bodies("invariant Layering {\n  deny flow Web -> db\n  require flow Api -> db via Repo\n}");
    assert_eq!(
        rules,
        [
            (RuleKind::DenyFlow, pair("Web", "db")),
            (
                RuleKind::RequireFlowVia,
                RuleBody::PairVia {
                    from: "Api".into(),
                    to: "db".into(),
                    via: vec!["Repo".into()]
                }
            ),
        ]
    );
}

#[test]
fn both_spellings_compile_to_one_kind_and_keep_their_text() {
    let model = assert_clean_with_prelude(
        "invariant I { require auth on flow Web -> Api  deny unauthenticated flow Web -> Api }",
    );
    let kinds: Vec<RuleKind> = model.rules.iter().map(|rule| rule.kind).collect();
    assert_eq!(
        kinds,
        [
            RuleKind::DenyUnauthenticatedFlow,
            RuleKind::DenyUnauthenticatedFlow
        ]
    );
    assert_eq!(
        model.rules.get(1).unwrap().text,
        "deny unauthenticated flow Web -> Api"
    );
    assert_eq!(model.rules.first().unwrap().declaration, "I");
}

#[test]
fn selectors_expand_to_a_cross_product_without_self_pairs() {
    let rules = bodies("invariant I { deny flow role application -> layer Ui  deny reach resource secure_storage -> role data_access }");
    assert_eq!(
        rules,
        [
            (RuleKind::DenyFlow, pair("Api", "Web")),
            (RuleKind::DenyReach, pair("Keys", "Repo"))
        ]
    );
    let rules = bodies("component Api2 { runs_on: app paths: \"x/**\" role: application }\ninvariant I { deny flow role application -> role application }");
    assert_eq!(
        rules,
        [
            (RuleKind::DenyFlow, pair("Api", "Api2")),
            (RuleKind::DenyFlow, pair("Api2", "Api"))
        ]
    );
}

#[test]
fn resource_selector_by_name() {
    let rules = bodies("invariant I { deny flow Web -> resource Keys }");
    assert_eq!(rules, [(RuleKind::DenyFlow, pair("Web", "Keys"))]);
}

#[test]
fn via_positions_expand_to_a_set() {
    let rules = bodies("component R2 { runs_on: app paths: \"r2/**\" role: data_access }\ninvariant I { require dataflow Profile -> db via role data_access }");
    let via = vec!["Repo".to_owned(), "R2".to_owned()];
    assert_eq!(
        rules,
        [(
            RuleKind::RequireDataFlowVia,
            RuleBody::DataTo {
                data: "Profile".into(),
                to: "db".into(),
                via
            }
        )]
    );
}

#[test]
fn dataflow_targets_accept_selectors() {
    let rules = bodies("invariant I { deny dataflow Profile -> role presentation }");
    let body = RuleBody::DataTo {
        data: "Profile".into(),
        to: "Web".into(),
        via: Vec::new(),
    };
    assert_eq!(rules, [(RuleKind::DenyDataFlow, body)]);
}

#[test]
fn operation_dependency_and_contract_forms() {
    let prelude_with_contract =
        PRELUDE.replace("role: application", "role: application implements: Orders");
    let source = format!(
        "{prelude_with_contract}contract Orders {{ }}\ninvariant I {{ deny operation submit on Order outside Api  require dependency Web -> Api via interface IApi  require contract Orders implemented_by Api }}"
    );
    let rules: Vec<(RuleKind, RuleBody)> = assert_clean(&source)
        .rules
        .into_iter()
        .map(|rule| (rule.kind, rule.body))
        .collect();
    assert_eq!(
        rules,
        [
            (
                RuleKind::RequireOperationOnDataIn,
                RuleBody::OperationIn {
                    operation: "submit".into(),
                    data: Some("Order".into()),
                    entity: "Api".into()
                }
            ),
            (
                RuleKind::RequireDependencyViaInterface,
                RuleBody::Dependency {
                    from: "Web".into(),
                    to: "Api".into(),
                    interface: "IApi".into()
                }
            ),
            (
                RuleKind::RequireContractImplementedBy,
                RuleBody::ContractImplementedBy {
                    contract: "Orders".into(),
                    component: "Api".into()
                }
            ),
        ]
    );
}

#[test]
fn unknown_entity_with_suggestion() {
    let diagnostic = assert_diagnostic_with_prelude(
        "invariant I { deny flow Wbe -> db }",
        "unknown-entity",
        1,
        25,
    );
    assert_eq!(
        diagnostic.message,
        "unknown entity `Wbe`: not a declared node, resource or component"
    );
    assert_eq!(diagnostic.help.as_deref(), Some("did you mean `Web`?"));
    let diagnostic = assert_diagnostic_with_prelude(
        "invariant I { deny flow Web -> Ghost }",
        "unknown-entity",
        1,
        32,
    );
    assert_eq!(diagnostic.help, None);
    assert_diagnostic_with_prelude(
        "invariant I { require operation x in Ghost }",
        "unknown-entity",
        1,
        38,
    );
}

#[test]
fn unknown_role_in_a_selector() {
    assert_diagnostic_with_prelude(
        "invariant I { deny flow role screen -> db }",
        "unknown-role",
        1,
        30,
    );
}

#[test]
fn unknown_resource_in_a_selector() {
    let diagnostic = assert_diagnostic_with_prelude(
        "invariant I { deny flow Web -> resource vault }",
        "unknown-resource",
        1,
        41,
    );
    assert_eq!(
        diagnostic.message,
        "unknown resource `vault`: not a declared resource or resource type"
    );
}

#[test]
fn selectors_that_match_nothing() {
    let diagnostic = assert_diagnostic_with_prelude(
        "invariant I { deny flow layer Data -> db }",
        "selector-matches-nothing",
        1,
        25,
    );
    assert_eq!(
        diagnostic.message,
        "selector `layer Data` matches no component"
    );
    assert_diagnostic_with_prelude(
        "invariant I { deny flow role domain -> db }",
        "selector-matches-nothing",
        1,
        25,
    );
    assert_diagnostic_with_prelude(
        "invariant I { deny flow Web -> resource sensor }",
        "selector-matches-nothing",
        1,
        32,
    );
}

#[test]
fn unknown_data_in_dataflow() {
    let diagnostic = assert_diagnostic_with_prelude(
        "invariant I { deny dataflow Profil -> db }",
        "unknown-data",
        1,
        29,
    );
    assert_eq!(diagnostic.help.as_deref(), Some("did you mean `Profile`?"));
}

#[test]
fn contract_rules_are_checked_at_compile_time() {
    assert_diagnostic_with_prelude(
        "invariant I { require contract Nope implemented_by Api }",
        "unknown-contract",
        1,
        32,
    );
    assert_diagnostic_with_prelude(
        "contract K { }\ninvariant I { require contract K implemented_by Apx }",
        "unknown-component",
        2,
        49,
    );
    let diagnostic = assert_diagnostic_with_prelude(
        "contract K { }\ninvariant I { require contract K implemented_by Api }",
        "contract-not-implemented",
        2,
        49,
    );
    assert_eq!(diagnostic.message, "component `Api` does not implement `K`");
}

#[test]
fn self_referential_rule_is_a_warning() {
    let diagnostic = assert_diagnostic_with_prelude(
        "invariant I { deny flow Api -> Api }",
        "self-referential-rule",
        1,
        15,
    );
    assert_eq!(diagnostic.message, "rule relates `Api` to itself");
    let model = compile_with_prelude("invariant I { deny flow Api -> Api }")
        .model
        .unwrap();
    assert!(model.rules.is_empty());
}

#[test]
fn via_is_endpoint_is_a_warning() {
    let diagnostic = assert_diagnostic_with_prelude(
        "invariant I { require flow Api -> db via Api }",
        "via-is-endpoint",
        1,
        42,
    );
    assert_eq!(
        diagnostic.message,
        "via `Api` is an endpoint of this rule and can never be passed through"
    );
}
