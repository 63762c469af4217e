use crate::model::{Effect, RuleBody, RuleKind, WorkflowAccess, WorkflowCondition};
use crate::test_support::*;

const SHIP: &str = "node npm : package_registry\ncomponent Release { runs_on: app  paths: \".github/workflows/release.yml\" }\n";

#[test]
fn passing_workflow_policy_from_the_spec() {
    let model = assert_clean_with_prelude(&format!(
        "{SHIP}workflow_policy Ship {{\n  allow publish Release -> npm when tag \"v*\"\n  deny permission * contents: write when pull_request\n  require before Release \"npm test\" -> \"npm publish\"\n}}"
    ));
    let kinds: Vec<RuleKind> = model.rules.iter().map(|rule| rule.kind).collect();
    assert_eq!(
        kinds,
        [
            RuleKind::WorkflowAction,
            RuleKind::WorkflowPermission,
            RuleKind::WorkflowStepOrder
        ]
    );
    let expected = RuleBody::WorkflowPermission {
        effect: Effect::Deny,
        workflow: "*".into(),
        permission: "contents".into(),
        access: WorkflowAccess::Write,
        condition: Some(WorkflowCondition::PullRequest),
    };
    assert_eq!(model.rules.get(1).unwrap().body, expected);
}

#[test]
fn underscore_and_dash_permissions_are_equivalent() {
    let model = assert_clean_with_prelude("workflow_policy W { allow permission * id_token: write  allow permission * \"pull-requests\": read }");
    let RuleBody::WorkflowPermission { permission, .. } = &model.rules.first().unwrap().body else {
        panic!()
    };
    assert_eq!(permission, "id-token");
}

#[test]
fn unknown_component_and_node() {
    assert_diagnostic_with_prelude(
        &format!("{SHIP}workflow_policy W {{ allow publish Relase -> npm }}"),
        "unknown-component",
        3,
        35,
    );
    let diagnostic = assert_diagnostic_with_prelude(
        &format!("{SHIP}workflow_policy W {{ allow publish Release -> Keys }}"),
        "unknown-node",
        3,
        46,
    );
    assert_eq!(diagnostic.message, "`Keys` is a resource, not a node");
}

#[test]
fn invalid_permission_access() {
    let diagnostic = assert_diagnostic_with_prelude(
        "workflow_policy W { deny permission * contents: admin }",
        "invalid-permission-access",
        1,
        49,
    );
    assert_eq!(
        diagnostic.message,
        "invalid access `admin`: expected read, write or none"
    );
}

#[test]
fn unknown_workflow_permission_is_a_warning() {
    let diagnostic = assert_diagnostic_with_prelude(
        "workflow_policy W { deny permission * content: write }",
        "unknown-workflow-permission",
        1,
        39,
    );
    assert_eq!(diagnostic.help.as_deref(), Some("did you mean `contents`?"));
}

#[test]
fn deny_none_never_fires() {
    let diagnostic = assert_diagnostic_with_prelude(
        "workflow_policy W { deny permission * contents: none }",
        "rule-never-fires",
        1,
        49,
    );
    assert_eq!(
        diagnostic.message,
        "a deny rule for access `none` never matches"
    );
}

#[test]
fn branch_patterns_must_be_globs() {
    assert_diagnostic_with_prelude(
        &format!("{SHIP}workflow_policy W {{ deny publish * -> npm when branch \"[main\" }}"),
        "invalid-glob",
        3,
        55,
    );
}
