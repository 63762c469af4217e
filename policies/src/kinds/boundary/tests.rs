use crate::model::{CycleGroup, DeclarationKind, RuleBody, RuleKind};
use crate::test_support::*;

/// Two more components with layers and boundary keys, after the prelude (which has 11 lines).
const BOUNDED: &str = "component Domain { runs_on: app  paths: \"domain/**\"  layer: Core  public: \"domain/index.ts\", \"domain/api/**\" }\n\
component Infra { runs_on: app  paths: \"infra/**\"  layer: Core  depends_on: Domain, db }\n";

#[test]
fn depends_on_and_public_compile_to_component_rules() {
    let model = assert_clean_with_prelude(BOUNDED);
    let infra = model.component("Infra").unwrap();
    assert_eq!(
        infra.depends_on,
        Some(vec!["Domain".to_owned(), "db".to_owned()])
    );
    let domain = model.component("Domain").unwrap();
    assert_eq!(domain.public, ["domain/index.ts", "domain/api/**"]);
    assert_eq!(domain.depends_on, None);
    let rules: Vec<_> = model
        .rules
        .iter()
        .map(|rule| (rule.kind, rule.declaration.as_str(), rule.text.as_str()))
        .collect();
    assert_eq!(
        rules,
        [
            (
                RuleKind::PublicInterface,
                "Domain",
                "public: \"domain/index.ts\", \"domain/api/**\""
            ),
            (RuleKind::DependsOn, "Infra", "depends_on: Domain, db"),
        ]
    );
    let depends = model.rules.get(1).unwrap();
    assert_eq!(depends.declaration_kind, DeclarationKind::Component);
    assert_eq!((depends.source.line, depends.source.column), (13, 65));
    assert_eq!(
        depends.body,
        RuleBody::Closed {
            component: "Infra".into(),
            allowed: vec!["Domain".into(), "db".into()]
        }
    );
}

#[test]
fn an_empty_depends_on_closes_the_component_completely() {
    let model = assert_clean_with_prelude(
        "component Leaf { runs_on: app  paths: \"leaf/**\"  depends_on: [] }",
    );
    let rule = model.rules.first().unwrap();
    assert_eq!(rule.text, "depends_on: []");
    assert_eq!(
        rule.body,
        RuleBody::Closed {
            component: "Leaf".into(),
            allowed: vec![]
        }
    );
}

#[test]
fn undeclared_dependencies_rule_closes_every_selected_component_and_supersedes_depends_on() {
    let model = assert_clean_with_prelude(&format!(
        "{BOUNDED}invariant Closed {{ deny undeclared dependencies in * }}"
    ));
    let closed: Vec<_> = model
        .rules
        .iter()
        .filter(|rule| rule.kind == RuleKind::DependsOn)
        .map(|rule| (rule.declaration.as_str(), rule.body.clone()))
        .collect();
    let body = |component: &str, allowed: &[&str]| RuleBody::Closed {
        component: component.into(),
        allowed: allowed.iter().map(|name| (*name).to_owned()).collect(),
    };
    assert_eq!(
        closed,
        [
            ("Closed", body("Web", &[])),
            ("Closed", body("Api", &[])),
            ("Closed", body("Repo", &[])),
            ("Closed", body("Domain", &[])),
            ("Closed", body("Infra", &["Domain", "db"])),
        ]
    );
}

#[test]
fn cycle_among_builds_disjoint_vertices() {
    let model = assert_clean_with_prelude(&format!(
        "{BOUNDED}invariant Acyclic {{ deny cycle among layer *, Api, Repo }}"
    ));
    let rule = model
        .rules
        .iter()
        .find(|rule| rule.kind == RuleKind::DenyCycle)
        .unwrap();
    assert_eq!(rule.text, "deny cycle among layer *, Api, Repo");
    let group = |name: &str, components: &[&str]| CycleGroup {
        name: name.into(),
        components: components.iter().map(|name| (*name).to_owned()).collect(),
    };
    assert_eq!(
        rule.body,
        RuleBody::Cycle {
            groups: vec![
                group("layer Ui", &["Web"]),
                group("layer Core", &["Domain", "Infra"]),
                group("Api", &["Api"]),
                group("Repo", &["Repo"]),
            ]
        }
    );
}

#[test]
fn cycle_within_and_unresolved_expand_per_component() {
    let model = assert_clean_with_prelude(&format!(
        "{BOUNDED}invariant Files {{ deny cycle within layer Core\n deny unresolved imports in role application }}"
    ));
    let bodies: Vec<_> = model
        .rules
        .iter()
        .filter(|rule| rule.declaration == "Files")
        .map(|rule| rule.body.clone())
        .collect();
    assert_eq!(
        bodies,
        [
            RuleBody::CycleWithin {
                component: "Domain".into()
            },
            RuleBody::CycleWithin {
                component: "Infra".into()
            },
            RuleBody::Unresolved {
                component: "Api".into()
            },
        ]
    );
}

#[test]
fn cycle_among_files_is_one_rule_over_the_selected_components_or_every_file() {
    let model = assert_clean_with_prelude(&format!(
        "{BOUNDED}invariant Files {{ deny cycle among files in layer Core, Api, Domain\n deny cycle among files }}"
    ));
    let rules: Vec<_> = model
        .rules
        .iter()
        .filter(|rule| rule.declaration == "Files")
        .map(|rule| (rule.kind, rule.text.as_str(), rule.body.clone()))
        .collect();
    assert_eq!(
        rules,
        [
            (
                RuleKind::DenyCycle,
                "deny cycle among files in layer Core, Api, Domain",
                RuleBody::CycleFiles {
                    components: Some(vec!["Api".into(), "Domain".into(), "Infra".into()])
                }
            ),
            (
                RuleKind::DenyCycle,
                "deny cycle among files",
                RuleBody::CycleFiles { components: None }
            ),
        ]
    );
}

#[test]
fn a_component_named_files_is_still_a_vertex_when_a_list_follows() {
    let model = assert_clean_with_prelude(
        "component files { runs_on: app  paths: \"files/**\" }\ninvariant C { deny cycle among files, Api }",
    );
    let rule = model
        .rules
        .iter()
        .find(|rule| rule.kind == RuleKind::DenyCycle)
        .unwrap();
    assert!(
        matches!(&rule.body, RuleBody::Cycle { groups } if groups.len() == 2),
        "{:?}",
        rule.body
    );
}

#[test]
fn cycle_among_files_in_an_unknown_component_suggests_one() {
    let diagnostic = assert_diagnostic_with_prelude(
        "invariant C { deny cycle among files in Apii }",
        "unknown-component",
        1,
        41,
    );
    assert!(
        diagnostic.message.contains("Apii"),
        "{}",
        diagnostic.message
    );
}

#[test]
fn unknown_dependency_suggests_a_declared_entity() {
    let diagnostic = assert_diagnostic_with_prelude(
        "component Billing { runs_on: app  paths: \"billing/**\"  depends_on: Api, Repp }",
        "unknown-entity",
        1,
        73,
    );
    assert_eq!(diagnostic.help.as_deref(), Some("did you mean `Repo`?"));
}

#[test]
fn boundary_diagnostics() {
    assert_diagnostic_with_prelude(
        "component Billing { runs_on: app  paths: \"billing/**\"  depends_on: Billing }",
        "self-referential-rule",
        1,
        68,
    );
    assert_diagnostic_with_prelude(
        "component Billing { runs_on: app  paths: \"billing/**\"  public: \"!billing/x.ts\" }",
        "invalid-glob",
        1,
        64,
    );
    let overlap = assert_diagnostic_with_prelude(
        "invariant Acyclic { deny cycle among layer Ui, Web }",
        "cycle-group-overlap",
        1,
        48,
    );
    assert_eq!(
        overlap.message,
        "component `Web` is in two vertices of this rule: `layer Ui` and `Web`"
    );
    let unknown = assert_diagnostic_with_prelude(
        "invariant Acyclic { deny cycle within Wbe }",
        "unknown-component",
        1,
        39,
    );
    assert_eq!(unknown.help.as_deref(), Some("did you mean `Web`?"));
    assert_diagnostic_with_prelude(
        "invariant Acyclic { deny cycle among Web }",
        "rule-never-fires",
        1,
        38,
    );
    assert_diagnostic_with_prelude(
        "invariant Imports { deny unresolved imports in layer Nope }",
        "selector-matches-nothing",
        1,
        48,
    );
    assert_diagnostic_with_prelude(
        "invariant Imports { deny unresolved imports in resource Keys }",
        "unknown-component",
        1,
        48,
    );
    assert_diagnostic_with_prelude(
        "invariant Imports { deny unresolved imports Api }",
        "unexpected-token",
        1,
        45,
    );
}
