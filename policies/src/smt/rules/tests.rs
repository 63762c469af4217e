//! One small spec per rule kind, its rules rendered with [`permanent_constraint`] (no solver).

use crate::model::{Model, RuleKind};
use crate::test_support::compile_with_prelude;

use super::permanent_constraint;

/// Extra declarations the workflow and change specs need.
const WORKFLOWS: &str = r#"node npm   : package_registry
node pages : static_host
component Release { runs_on: app  paths: ".github/workflows/release.yml" }
component Docs    { runs_on: app  paths: ".github/workflows/docs.yml" }
"#;

/// One small spec (after the prelude) per rule kind.
fn spec_for(kind: RuleKind) -> String {
    let body = match kind {
        RuleKind::DenyFlow => "invariant Layering { deny flow Web -> db }",
        RuleKind::DenyReach => "invariant Layering { deny reach Web -> db }",
        RuleKind::DenyDataFlow => "invariant Privacy { deny dataflow Profile -> partner }",
        RuleKind::RequireFlowVia => "invariant Layering { require flow Web -> db via Repo }",
        RuleKind::RequireDataFlowVia => {
            "invariant Privacy { require dataflow Profile -> db via Repo }"
        }
        RuleKind::DenyUnauthenticatedFlow => "invariant Edge { require auth on flow Web -> Api }",
        RuleKind::DenyUnencryptedFlow => "invariant Edge { deny unencrypted flow Api -> db }",
        RuleKind::RequireOperationIn => "invariant Placement { require operation charge in Api }",
        RuleKind::RequireOperationOnDataIn => {
            "invariant Placement { deny operation purge on Order outside Repo }"
        }
        RuleKind::RequireDependencyViaInterface => {
            "invariant Seams { require dependency Web -> Repo via interface IOrders }"
        }
        RuleKind::RequireContractImplementedBy => {
            "contract OrdersApi { GET \"/api/orders\" }\n\
             component Gateway { runs_on: app  paths: \"gateway/**\"  implements: OrdersApi }\n\
             invariant Contracts { require contract OrdersApi implemented_by Gateway }"
        }
        RuleKind::AllowTransition | RuleKind::DenyTransition => {
            "machine OrderLife on Order.status {\n\
               allow transition Draft -> Active\n\
               allow transition * -> Draft\n\
               deny  transition Archived -> *\n\
               deny  transition * -> Archived\n\
             }"
        }
        RuleKind::AllowPermission => {
            "permission OrderAccess on Order {\n\
               allow Role.Admin -> *\n\
               allow Role.Member -> read | update\n\
               allow * -> list\n\
             }"
        }
        RuleKind::DenyPermission => {
            "permission OrderAccess on Order {\n\
               deny Role.Member -> delete | update\n\
               deny * -> purge\n\
             }"
        }
        RuleKind::RequireValue => {
            "value_policy OrderShape {\n\
               require Order.items.length == 1 when Order.status == Draft\n\
               require Order.total >= 0\n\
             }"
        }
        RuleKind::RequireBefore => {
            "operation_policy Submit { require before submitOrder Order.status == Draft }"
        }
        RuleKind::EnsureAfter => {
            "operation_policy Submit { ensure after submitOrder Order.status == \"Active\" }"
        }
        RuleKind::RequirePrecededBy => {
            "event_policy Consent {\n\
               require event AcceptConsent preceded_by ShowConsent by Api\n\
               require event Ship preceded_by Pay by Order\n\
             }"
        }
        RuleKind::WorkflowAction => {
            "workflow_policy Ship {\n\
               allow publish Release -> npm when tag \"v*\"\n\
               allow publish * -> npm when branch \"main\"\n\
               deny deploy * -> pages when pull_request\n\
               deny release Docs -> npm\n\
             }"
        }
        RuleKind::WorkflowPermission => {
            "workflow_policy Tokens {\n\
               deny permission * contents: write when pull_request\n\
               deny permission Docs * : write\n\
               allow permission Release id_token: write when tag \"v*\"\n\
               allow permission * \"id-token\": read\n\
             }"
        }
        RuleKind::WorkflowStepOrder => {
            "workflow_policy Ship { require before Release \"npm test\" -> \"npm publish\" }"
        }
        RuleKind::DenyInject => "di_policy Di { deny inject Web -> Repo }",
        RuleKind::DenyInjectReach => "di_policy Di { deny inject_reach Web -> Repo }",
        RuleKind::DenyLifetime => "di_policy Di { deny lifetime singleton -> scoped }",
        RuleKind::DenyLifetimeReach => {
            "di_policy Di { deny lifetime_reach singleton -> transient }"
        }
        RuleKind::DenyResolve => {
            "di_policy Di { deny resolve IServiceProvider from Api\n deny resolve * from Web }"
        }
        RuleKind::DenyClassification => {
            "data_policy Privacy { deny classification pii -> untrusted }"
        }
        RuleKind::DenyJurisdiction => "data_policy Privacy { deny jurisdiction eu -> partner }",
        RuleKind::RequireAuth => "trust_policy Edge { require auth untrusted -> trusted }",
        RuleKind::DenyFlowWhenData => {
            "trust_policy Edge { deny flow trusted -> untrusted when data pii }"
        }
        RuleKind::RequireTouched => {
            "component ApiDocs { runs_on: app  paths: \"docs/api.md\" }\n\
             change_policy Fresh { require touched ApiDocs when touched Api }"
        }
        RuleKind::DependsOn => {
            "component Billing { runs_on: app  paths: \"billing/**\"  depends_on: Api, db }\n\
             invariant Closed { deny undeclared dependencies in Web }"
        }
        RuleKind::PublicInterface => {
            "component Billing { runs_on: app  paths: \"billing/**\"  public: \"billing/index.ts\", \"billing/api/**\" }"
        }
        RuleKind::DenyCycle => {
            "invariant Acyclic { deny cycle among layer *, Api, Repo\n deny cycle within Api\n deny cycle among files in Api, Repo\n deny cycle among files }"
        }
        RuleKind::DenyUnresolvedImport => "invariant Imports { deny unresolved imports in role application }",
    };
    let extra = match kind {
        RuleKind::WorkflowAction | RuleKind::WorkflowPermission | RuleKind::WorkflowStepOrder => {
            WORKFLOWS
        }
        _ => "",
    };
    format!("{extra}{body}\n")
}

/// Compiles the spec of `kind`; it must have no error and at least one rule of the kind.
fn model_for(kind: RuleKind) -> Model {
    let output = compile_with_prelude(&spec_for(kind));
    let errors: Vec<String> = output
        .diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.is_error())
        .map(|diagnostic| diagnostic.headline())
        .collect();
    assert!(errors.is_empty(), "{}: {errors:?}", kind.name());
    let model = output.model.expect("a model");
    assert!(
        model.rules.iter().any(|rule| rule.kind == kind),
        "{}: no rule of the kind",
        kind.name()
    );
    model
}

/// The permanent constraints of every rule of `kind` in its spec, one after the other.
fn render(kind: RuleKind) -> String {
    let model = model_for(kind);
    model
        .rules
        .iter()
        .filter(|rule| rule.kind == kind)
        .map(|rule| {
            let slice = permanent_constraint(rule, &model)
                .unwrap_or_else(|| panic!("{}: no constraint for `{}`", kind.name(), rule.text));
            assert_eq!(
                slice.text.matches("(assert ").count(),
                slice.assertion_count(),
                "every assertion is tracked"
            );
            assert!(
                slice
                    .tracked
                    .iter()
                    .all(|tracked| tracked.role != crate::smt::AssertionRole::Fact),
                "no facts in a permanent constraint"
            );
            assert_balanced(&slice.text);
            slice.text
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Parentheses balance outside comments, quoted symbols and string literals.
fn assert_balanced(text: &str) {
    for line in text.lines().filter(|line| !line.starts_with(';')) {
        let mut depth = 0i64;
        let (mut in_symbol, mut in_string) = (false, false);
        for character in line.chars() {
            match character {
                '|' if !in_string => in_symbol = !in_symbol,
                '"' if !in_symbol => in_string = !in_string,
                '(' if !in_symbol && !in_string => depth += 1,
                ')' if !in_symbol && !in_string => {
                    depth -= 1;
                    assert!(depth >= 0, "unbalanced: {line}");
                }
                _ => {}
            }
        }
        assert_eq!(depth, 0, "unbalanced: {line}");
        assert!(!in_symbol && !in_string, "unterminated: {line}");
    }
}

#[test]
fn every_kind_with_a_runtime_part_has_a_permanent_constraint() {
    for kind in RuleKind::ALL {
        let model = model_for(kind);
        for rule in model.rules.iter().filter(|rule| rule.kind == kind) {
            let constraint = permanent_constraint(rule, &model);
            if kind == RuleKind::RequireContractImplementedBy {
                assert!(constraint.is_none(), "{} is compile-time only", kind.name());
            } else {
                let slice = constraint.unwrap_or_else(|| {
                    panic!("{}: no constraint for `{}`", kind.name(), rule.text)
                });
                assert!(
                    slice.text.starts_with(&format!("; {}: ", rule.declaration)),
                    "{}",
                    slice.text
                );
            }
        }
    }
}

macro_rules! snapshot_kinds {
    ($($test:ident => $kind:ident),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                insta::assert_snapshot!(render(RuleKind::$kind));
            }
        )*
    };
}

snapshot_kinds! {
    deny_flow => DenyFlow,
    deny_reach => DenyReach,
    deny_dataflow => DenyDataFlow,
    require_flow_via => RequireFlowVia,
    require_dataflow_via => RequireDataFlowVia,
    deny_unauthenticated_flow => DenyUnauthenticatedFlow,
    deny_unencrypted_flow => DenyUnencryptedFlow,
    require_operation_in => RequireOperationIn,
    require_operation_on_data_in => RequireOperationOnDataIn,
    require_dependency_via_interface => RequireDependencyViaInterface,
    allow_transition => AllowTransition,
    deny_transition => DenyTransition,
    allow_permission => AllowPermission,
    deny_permission => DenyPermission,
    require_value => RequireValue,
    require_before => RequireBefore,
    ensure_after => EnsureAfter,
    require_preceded_by => RequirePrecededBy,
    workflow_action => WorkflowAction,
    workflow_permission => WorkflowPermission,
    workflow_step_order => WorkflowStepOrder,
    deny_inject => DenyInject,
    deny_inject_reach => DenyInjectReach,
    deny_lifetime => DenyLifetime,
    deny_lifetime_reach => DenyLifetimeReach,
    deny_resolve => DenyResolve,
    deny_classification => DenyClassification,
    deny_jurisdiction => DenyJurisdiction,
    require_auth => RequireAuth,
    deny_flow_when_data => DenyFlowWhenData,
    require_touched => RequireTouched,
    depends_on => DependsOn,
    public_interface => PublicInterface,
    deny_cycle => DenyCycle,
    deny_unresolved_import => DenyUnresolvedImport,
}
