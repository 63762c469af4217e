//! A passing and a failing input for every rule form, each finding proved by an UNSAT slice
//! whose core names the rule and a fact.

use policies::facts::{DomainFactBody as Body, FactKind, PropertyValue, Text};

use super::test_support::{domain, fact, model, run, summary, Run};
use super::{ChangeSet, Shape};

const PRELUDE: &str = r#"
node app      : server   { trust: trusted }
node gateway  : api_gateway { trust: trusted auth: jwt }
node db       : postgres { trust: trusted  auth: mtls }
node partner  : rest_api { trust: untrusted }
node phone    : edge_mobile { trust: untrusted }
enum Role { Admin | Member }
enum OrderStatus { Draft | Active | Archived }
data Order   { status: OrderStatus  total: Money  items: List<String> }
data Profile { classification: pii  jurisdiction: eu  id: UUID }
component Web  { runs_on: app  paths: "web/**"  role: presentation }
component Api  { runs_on: app  paths: "api/**"  role: application  handles: Profile }
component Repo { runs_on: app  paths: "repo/**"  role: data_access }
component App  { runs_on: phone  paths: "mobile/**" }
component Gate { runs_on: gateway paths: "gate/**" }
"#;

fn spec(rules: &str) -> policies::model::Model {
    model(&format!("{PRELUDE}{rules}"))
}

fn import(file: &str, line: u32, resolved: &str) -> policies::facts::Fact {
    fact(
        FactKind::Import,
        file,
        line,
        &[("specifier", resolved), ("resolved", resolved)],
    )
}

fn technology(file: &str, line: u32, technology: &str) -> policies::facts::Fact {
    let mut fact = fact(
        FactKind::AccessesTechnology,
        file,
        line,
        &[
            ("package", "sdk"),
            ("client", "Client"),
            ("reason", "constructed"),
        ],
    );
    fact.technology = Some(technology.into());
    fact
}

fn with_targets(
    mut facts: Vec<policies::facts::Fact>,
    model: &policies::model::Model,
) -> Vec<policies::facts::Fact> {
    let map = crate::input::paths::ComponentMap::new(model);
    for fact in &mut facts {
        if fact.kind == FactKind::Import {
            fact.target = fact
                .property_str("resolved")
                .and_then(|resolved| map.owner(resolved))
                .map(Into::into);
        }
    }
    facts
}

fn graph_run(rules: &str, facts: Vec<policies::facts::Fact>) -> Run {
    let model = spec(rules);
    let facts = with_targets(facts, &model);
    let result = run(&model, facts, Vec::new(), ChangeSet::default());
    result.assert_proofs();
    result
}

fn domain_run(rules: &str, facts: Vec<policies::facts::DomainFact>) -> Run {
    let result = run(&spec(rules), Vec::new(), facts, ChangeSet::default());
    result.assert_proofs();
    result
}

fn types(run: &Run) -> Vec<String> {
    summary(run).into_iter().map(|(kind, _, _)| kind).collect()
}

mod data_and_trust {
    use super::*;

    const RULES: &str = "data_policy Privacy { deny classification pii -> untrusted ; deny jurisdiction eu -> partner }";

    #[test]
    fn classified_data_reaching_an_untrusted_node_fails_both_rules() {
        let run = graph_run(RULES, vec![technology("api/sync.ts", 3, "partner")]);
        assert_eq!(
            types(&run),
            ["data_policy_violation", "data_policy_violation"]
        );
        let Shape::Architecture(detail) = &run.findings()[0].shape else {
            panic!()
        };
        assert_eq!(
            detail.path.as_deref(),
            Some(&["Api".to_owned(), "partner".to_owned()][..])
        );
        assert_eq!(detail.via.as_deref(), Some("Api"));
    }

    #[test]
    fn data_that_stays_inside_passes() {
        let run = graph_run(
            RULES,
            vec![
                import("api/a.ts", 1, "repo/r.ts"),
                technology("repo/r.ts", 2, "db"),
            ],
        );
        assert!(run.findings().is_empty());
    }

    #[test]
    fn require_auth_fails_without_an_authenticating_entity_and_passes_through_one() {
        let rules = "trust_policy Edge { require auth untrusted -> trusted }";
        let direct = graph_run(rules, vec![import("mobile/a.ts", 1, "api/x.ts")]);
        assert_eq!(
            summary(&direct),
            [(
                "trust_policy_violation".to_owned(),
                "RequireAuth".to_owned(),
                "require auth untrusted -> trusted".to_owned()
            )]
        );
        // Through the gateway, whose node has auth, the path is authenticated.
        let gated = graph_run(
            rules,
            vec![
                import("mobile/a.ts", 1, "gate/g.ts"),
                import("gate/g.ts", 1, "api/x.ts"),
            ],
        );
        assert!(gated.findings().is_empty(), "{:?}", summary(&gated));
    }

    #[test]
    fn deny_flow_when_data_fails_for_pii_leaving_the_trusted_zone() {
        let rules = "trust_policy Edge { deny flow trusted -> untrusted when data pii }";
        let failing = graph_run(rules, vec![technology("api/sync.ts", 3, "partner")]);
        assert_eq!(types(&failing), ["trust_policy_violation"]);
        let passing = graph_run(rules, vec![technology("web/sync.ts", 3, "partner")]);
        assert!(passing.findings().is_empty());
    }
}

mod change {
    use super::*;

    const RULES: &str = "component Docs { runs_on: app paths: \"docs/api.md\" }\nchange_policy Fresh { require touched Docs when touched Api }";

    fn changed(files: &[&str]) -> Run {
        let result = run(
            &spec(RULES),
            Vec::new(),
            Vec::new(),
            ChangeSet {
                files: files.iter().map(|file| (*file).to_owned()).collect(),
            },
        );
        result.assert_proofs();
        result
    }

    #[test]
    fn touching_the_trigger_alone_fails_and_with_the_docs_passes() {
        let failing = changed(&["api/x.ts"]);
        assert_eq!(types(&failing), ["change_violation"]);
        let Shape::Change(shape) = &failing.findings()[0].shape else {
            panic!()
        };
        assert_eq!(shape.trigger_files, ["api/x.ts"]);
        assert_eq!(shape.required_globs, ["docs/api.md"]);
        assert!(changed(&["api/x.ts", "docs/api.md"]).findings().is_empty());
        // A deleted docs file still counts as touching the docs.
        assert!(changed(&["api/x.ts", "docs/api.md"])
            .evaluation
            .candidates
            .is_empty());
    }

    #[test]
    fn no_change_touches_nothing() {
        // `--all` and `--file` give an empty change set (`ChangeSet::of_scope`).
        assert!(changed(&[]).evaluation.candidates.is_empty());
    }
}

mod contracts {
    use super::*;

    const RULES: &str = r#"contract OrdersApi { GET "/api/orders" ; POST "/api/orders/{id}" }
component Server { runs_on: app paths: "server/**" implements: OrdersApi }
component Client { runs_on: app paths: "client/**" consumes: OrdersApi }"#;

    fn route(file: &str, line: u32, method: &str, path: &str) -> policies::facts::Fact {
        let mut route = fact(
            FactKind::Route,
            file,
            line,
            &[("method", method), ("path", path), ("framework", "express")],
        );
        route.route = Some(policies::normalize_http_path(path).into());
        route
    }

    #[test]
    fn undeclared_and_missing_routes_are_errors_and_a_complete_server_passes() {
        let complete = graph_run(
            RULES,
            vec![
                route("server/a.ts", 1, "GET", "/api/orders"),
                route("server/a.ts", 2, "POST", "/api/orders/:id"),
            ],
        );
        assert!(complete.findings().is_empty());
        let broken = graph_run(
            RULES,
            vec![
                route("server/a.ts", 1, "GET", "/api/orders"),
                route("server/a.ts", 3, "DELETE", "/api/orders/:id"),
            ],
        );
        assert_eq!(
            types(&broken),
            ["implements_undeclared", "implements_missing"]
        );
    }

    #[test]
    fn consumer_calls_give_warnings_without_proof() {
        let mut call = fact(
            FactKind::HttpCall,
            "client/a.ts",
            4,
            &[
                ("method", "GET"),
                ("url", "/api/order"),
                ("path", "/api/order"),
                ("client", "fetch"),
            ],
        );
        call.properties
            .insert("language", PropertyValue::from("typescript"));
        let wrong_method = fact(
            FactKind::HttpCall,
            "client/a.ts",
            5,
            &[
                ("method", "PUT"),
                ("url", "/api/orders"),
                ("path", "/api/orders"),
                ("client", "fetch"),
            ],
        );
        let fine = fact(
            FactKind::HttpCall,
            "client/a.ts",
            6,
            &[
                ("method", "GET"),
                ("url", "/api/orders"),
                ("path", "/api/orders"),
                ("client", "fetch"),
            ],
        );
        let run = graph_run(RULES, vec![call, wrong_method, fine]);
        let warnings: Vec<&str> = run
            .evaluation
            .contract_warnings
            .iter()
            .map(|warning| warning.violation_type)
            .collect();
        assert_eq!(
            warnings,
            ["consumes_undeclared", "consumes_method_mismatch"]
        );
    }
}

mod workflows {
    use super::*;

    const RULES: &str = r#"node npm : package_registry
component Release { runs_on: app paths: ".github/workflows/release.yml" }
component Docs { runs_on: app paths: ".github/workflows/docs.yml" }
workflow_policy Ship {
  allow publish Release -> npm when tag "v*"
  deny permission * contents: write when pull_request
  require before Release "npm test" -> "npm publish"
}"#;

    fn list_fact(
        kind: FactKind,
        file: &str,
        line: u32,
        properties: &[(&str, &str)],
        lists: &[(&str, &[&str])],
    ) -> policies::facts::Fact {
        let mut fact = fact(kind, file, line, properties);
        for (key, values) in lists {
            fact.properties.insert(
                (*key).to_owned(),
                PropertyValue::List(values.iter().map(|value| Text::from(*value)).collect()),
            );
        }
        fact
    }

    fn trigger(file: &str, event: &str, tags: &[&str]) -> policies::facts::Fact {
        list_fact(
            FactKind::WorkflowTrigger,
            file,
            2,
            &[("event", event)],
            &[
                ("branches", &[]),
                ("tags", tags),
                ("branchesIgnore", &[]),
                ("tagsIgnore", &[]),
            ],
        )
    }

    fn publish(file: &str, line: u32) -> policies::facts::Fact {
        let mut action = fact(
            FactKind::WorkflowAction,
            file,
            line,
            &[
                ("action", "publish"),
                ("step", "npm publish"),
                ("job", "ship"),
            ],
        );
        action.target = Some("npm".into());
        action
    }

    fn step(file: &str, index: i64, run_text: &str) -> policies::facts::Fact {
        let mut step = fact(
            FactKind::WorkflowStep,
            file,
            10 + u32::try_from(index).unwrap(),
            &[("job", "ship"), ("run", run_text)],
        );
        step.properties.insert("index", PropertyValue::Int(index));
        step
    }

    #[test]
    fn publishing_from_a_tag_workflow_passes_and_from_docs_on_main_fails() {
        let release = ".github/workflows/release.yml";
        let passing = graph_run(
            RULES,
            vec![
                trigger(release, "push", &["v*"]),
                publish(release, 5),
                step(release, 0, "npm test"),
                step(release, 1, "npm publish"),
            ],
        );
        assert!(passing.findings().is_empty(), "{:?}", summary(&passing));
        let docs = ".github/workflows/docs.yml";
        let failing = graph_run(RULES, vec![trigger(docs, "push", &[]), publish(docs, 5)]);
        assert_eq!(
            summary(&failing),
            [(
                "workflow_violation".to_owned(),
                "WorkflowAction".to_owned(),
                "workflow_policy Ship: publish Docs -> npm is not allowed".to_owned()
            )]
        );
    }

    #[test]
    fn write_all_on_pull_request_fails_the_deny_rule() {
        let file = ".github/workflows/docs.yml";
        let job = list_fact(
            FactKind::WorkflowJob,
            file,
            3,
            &[("job", "build")],
            &[("needs", &[])],
        );
        let write_all = fact(
            FactKind::WorkflowPermission,
            file,
            4,
            &[("permission", "write-all"), ("access", "write")],
        );
        let failing = graph_run(
            RULES,
            vec![
                trigger(file, "pull_request", &[]),
                job.clone(),
                write_all.clone(),
            ],
        );
        assert_eq!(types(&failing), ["workflow_violation"]);
        let Shape::Workflow(shape) = &failing.findings()[0].shape else {
            panic!()
        };
        assert_eq!(
            (shape.job.as_str(), shape.access.as_deref()),
            ("build", Some("write"))
        );
        let read = fact(
            FactKind::WorkflowPermission,
            file,
            4,
            &[("permission", "contents"), ("access", "read")],
        );
        assert!(
            graph_run(RULES, vec![trigger(file, "pull_request", &[]), job, read])
                .findings()
                .is_empty()
        );
    }

    #[test]
    fn publishing_before_testing_fails_the_step_order() {
        let release = ".github/workflows/release.yml";
        let failing = graph_run(
            RULES,
            vec![
                trigger(release, "push", &["v*"]),
                step(release, 0, "npm publish"),
                step(release, 1, "npm test"),
            ],
        );
        assert_eq!(
            summary(&failing),
            [(
                "workflow_violation".to_owned(),
                "WorkflowStepOrder".to_owned(),
                "require before Release \"npm test\" -> \"npm publish\"".to_owned()
            )]
        );
    }
}

mod di {
    use super::*;

    const RULES: &str = "di_policy Di { deny inject Web -> Repo ; deny inject_reach Web -> Repo ; deny lifetime singleton -> scoped ; deny lifetime_reach singleton -> scoped ; deny resolve IServiceProvider from Api }";

    fn injection(
        file: &str,
        line: u32,
        class: &str,
        parameter_type: &str,
    ) -> policies::facts::Fact {
        fact(
            FactKind::ConstructorInjection,
            file,
            line,
            &[
                ("class", class),
                ("parameter", "p"),
                ("parameterType", parameter_type),
            ],
        )
    }

    fn registration(
        line: u32,
        service: &str,
        implementation: &str,
        lifetime: &str,
    ) -> policies::facts::Fact {
        fact(
            FactKind::DiRegistration,
            "api/Startup.cs",
            line,
            &[
                ("service", service),
                ("implementation", implementation),
                ("lifetime", lifetime),
                ("method", "Add"),
            ],
        )
    }

    #[test]
    fn injecting_a_repository_into_the_view_fails_inject_and_inject_reach() {
        let facts = vec![
            injection("web/OrderView.cs", 3, "OrderView", "OrderRepository"),
            injection("repo/OrderRepository.cs", 3, "OrderRepository", "IClock"),
        ];
        let run = graph_run(RULES, facts);
        let kinds: Vec<String> = summary(&run).into_iter().map(|(_, kind, _)| kind).collect();
        assert_eq!(kinds, ["DenyInject", "DenyInjectReach"]);
        let passing = graph_run(
            RULES,
            vec![injection(
                "web/OrderView.cs",
                3,
                "OrderView",
                "IOrderService",
            )],
        );
        assert!(passing.findings().is_empty());
    }

    #[test]
    fn an_injection_flows_to_the_type_it_names_while_di_rules_follow_the_registration() {
        // `OrderView` injects `IOrderService`, declared in Api; DI registers Repo's
        // `OrderService` for it. The view depends on Api, not on Repo: no flow or reach into
        // Repo, while the DI rule still sees the injection of Repo's implementation.
        let named = |file: &str, resolved: &str, name: &str| {
            let mut uses = import(file, 1, resolved);
            uses.properties
                .insert("names", PropertyValue::from(vec![name.to_owned()]));
            uses
        };
        let facts = vec![
            registration(2, "IOrderService", "OrderService", "scoped"),
            named("api/Startup.cs", "repo/OrderService.cs", "OrderService"),
            injection("web/OrderView.cs", 3, "OrderView", "IOrderService"),
            named(
                "repo/OrderService.cs",
                "api/IOrderService.cs",
                "IOrderService",
            ),
        ];
        let rules = "invariant Layers { deny flow Web -> Repo ; deny reach Web -> Repo ; deny flow Web -> Api }\ndi_policy Di { deny inject Web -> Repo }";
        let run = graph_run(rules, facts.clone());
        let kinds: Vec<String> = summary(&run).into_iter().map(|(_, kind, _)| kind).collect();
        assert_eq!(kinds, ["DenyFlow", "DenyInject"]);
        let Shape::Architecture(detail) = &run.findings()[0].shape else {
            panic!()
        };
        assert_eq!(detail.to.as_deref(), Some("Api"));
        // A type no project file declares (an outside library's) gives no flow edge at all.
        let outside = vec![injection(
            "web/OrderView.cs",
            3,
            "OrderView",
            "IDistributedCache",
        )];
        assert!(graph_run(rules, outside).findings().is_empty());
    }

    #[test]
    fn an_implementation_without_constructor_parameters_resolves_through_the_registrations_imports()
    {
        // `PaymentGateway` has no constructor, so no injection declares it; the composition
        // root's use of the type (an import of its file) says where it lives.
        let mut uses = import("api/Startup.cs", 1, "repo/PaymentGateway.cs");
        uses.properties.insert(
            "names".to_owned(),
            PropertyValue::from(vec![
                "IPaymentGateway".to_owned(),
                "PaymentGateway".to_owned(),
            ]),
        );
        let facts = vec![
            registration(2, "IPaymentGateway", "PaymentGateway", "transient"),
            uses,
            injection("web/CheckoutView.cs", 3, "CheckoutView", "IPaymentGateway"),
        ];
        let run = graph_run(RULES, facts.clone());
        let kinds: Vec<String> = summary(&run).into_iter().map(|(_, kind, _)| kind).collect();
        assert_eq!(kinds, ["DenyInject", "DenyInjectReach"]);
        // Without the import nothing says where `PaymentGateway` is declared: no edge.
        let unknown: Vec<_> = facts
            .into_iter()
            .filter(|fact| fact.kind != FactKind::Import)
            .collect();
        assert!(graph_run(RULES, unknown).findings().is_empty());
    }

    #[test]
    fn a_type_declared_in_two_components_gives_no_injection_edge() {
        // Two files of different components both declare a `PaymentGateway`, as the imports of
        // the composition root say: which one is injected is unknown, so no edge is inferred.
        let named = |line: u32, resolved: &str| {
            let mut uses = import("api/Startup.cs", line, resolved);
            uses.properties.insert(
                "names",
                PropertyValue::from(vec!["PaymentGateway".to_owned()]),
            );
            uses
        };
        let one = vec![
            registration(1, "IPaymentGateway", "PaymentGateway", "transient"),
            named(2, "repo/PaymentGateway.cs"),
            injection("web/CheckoutView.cs", 3, "CheckoutView", "IPaymentGateway"),
        ];
        let mut two = one.clone();
        two.push(named(4, "api/PaymentGateway.cs"));
        let kinds = |facts| -> Vec<String> {
            summary(&graph_run(RULES, facts))
                .into_iter()
                .map(|(_, kind, _)| kind)
                .collect()
        };
        assert_eq!(kinds(one), ["DenyInject", "DenyInjectReach"]);
        assert!(kinds(two).is_empty());
    }

    #[test]
    fn a_singleton_capturing_a_scoped_service_fails_both_lifetime_rules() {
        let facts = vec![
            registration(1, "ICache", "Cache", "singleton"),
            registration(2, "IOrders", "Orders", "scoped"),
            injection("api/Cache.cs", 3, "Cache", "IOrders"),
        ];
        let run = graph_run(RULES, facts);
        let kinds: Vec<String> = summary(&run).into_iter().map(|(_, kind, _)| kind).collect();
        assert_eq!(kinds, ["DenyLifetime", "DenyLifetimeReach"]);
        let Shape::Architecture(detail) = &run.findings()[0].shape else {
            panic!()
        };
        assert_eq!(
            detail.services.as_deref(),
            Some(&["ICache".to_owned(), "IOrders".to_owned()][..])
        );
        assert_eq!(
            detail.lifetimes.as_deref(),
            Some(&["singleton".to_owned(), "scoped".to_owned()][..])
        );
        let fine = graph_run(
            RULES,
            vec![
                registration(1, "ICache", "Cache", "singleton"),
                registration(2, "IOrders", "Orders", "singleton"),
                injection("api/Cache.cs", 3, "Cache", "IOrders"),
            ],
        );
        assert!(fine.findings().is_empty());
    }

    #[test]
    fn resolving_the_service_provider_fails_deny_resolve() {
        let resolve = fact(
            FactKind::ServiceResolution,
            "api/Handler.cs",
            7,
            &[("service", "IServiceProvider"), ("method", "GetService")],
        );
        assert_eq!(types(&graph_run(RULES, vec![resolve])), ["di_violation"]);
        let other = fact(
            FactKind::ServiceResolution,
            "web/Handler.cs",
            7,
            &[("service", "IServiceProvider"), ("method", "GetService")],
        );
        assert!(graph_run(RULES, vec![other]).findings().is_empty());
    }
}

mod chains {
    use super::*;

    const RULES: &str =
        "invariant Layers { deny reach Web -> Repo ; require flow Web -> Repo via Api }";

    fn chain_of(run: &Run, index: usize) -> (Vec<String>, Vec<String>, String) {
        let finding = &run.findings()[index];
        let Shape::Architecture(detail) = &finding.shape else {
            panic!("not an architecture finding")
        };
        (
            detail.path.clone().unwrap_or_default(),
            detail.files.clone().unwrap_or_default(),
            format!("{}:{}", finding.site.file, finding.site.line),
        )
    }

    #[test]
    fn component_hops_that_no_file_chain_joins_are_no_path() {
        // Web's file reaches `api/a.ts`, and another file of Api reaches Repo: the component
        // graph has Web -> Api -> Repo, but no code runs from `web/x.ts` into Repo.
        let run = graph_run(
            RULES,
            vec![
                import("web/x.ts", 1, "api/a.ts"),
                import("api/b.ts", 1, "repo/r.ts"),
            ],
        );
        assert!(run.findings().is_empty());
    }

    #[test]
    fn a_chain_through_a_file_no_component_owns_is_a_path_and_a_bypass() {
        let run = graph_run(
            RULES,
            vec![
                import("web/x.ts", 4, "lib/u.ts"),
                import("lib/u.ts", 2, "repo/r.ts"),
            ],
        );
        assert_eq!(types(&run), ["reach_violation", "require_flow_violation"]);
        for index in 0..2 {
            let (path, files, site) = chain_of(&run, index);
            assert_eq!(path, ["Web", "Repo"]);
            assert_eq!(files, ["web/x.ts", "lib/u.ts", "repo/r.ts"]);
            assert_eq!(site, "web/x.ts:4");
        }
    }

    #[test]
    fn a_chain_through_the_via_component_holds_the_via_rule_only() {
        let run = graph_run(
            RULES,
            vec![
                import("web/x.ts", 1, "api/a.ts"),
                import("api/a.ts", 1, "repo/r.ts"),
            ],
        );
        assert_eq!(types(&run), ["reach_violation"]);
        let (path, files, _) = chain_of(&run, 0);
        assert_eq!(path, ["Web", "Api", "Repo"]);
        assert_eq!(files, ["web/x.ts", "api/a.ts", "repo/r.ts"]);
    }

    #[test]
    fn the_shortest_chain_is_the_witness_and_ties_go_to_the_smallest_files() {
        let run = graph_run(
            "invariant Layers { deny reach Web -> Repo }",
            vec![
                import("web/b.ts", 1, "lib/1.ts"),
                import("lib/1.ts", 1, "lib/2.ts"),
                import("lib/2.ts", 1, "repo/r.ts"),
                import("web/c.ts", 1, "lib/3.ts"),
                import("lib/3.ts", 1, "repo/r.ts"),
                import("web/c.ts", 2, "lib/0.ts"),
                import("lib/0.ts", 1, "repo/s.ts"),
            ],
        );
        let (_, files, site) = chain_of(&run, 0);
        assert_eq!(files, ["web/c.ts", "lib/0.ts", "repo/s.ts"]);
        assert_eq!(site, "web/c.ts:2");
    }

    #[test]
    fn a_go_import_is_of_the_whole_package_so_a_chain_runs_through_any_of_its_files() {
        // `web/a.go` imports package `lib/b`, represented by its first file `lib/b/b1.go`; the
        // package's other file `lib/b/b2.go` imports `repo`. Go links the whole package.
        let go_import = |file: &str, resolved: &str| {
            fact(
                FactKind::Import,
                file,
                1,
                &[
                    ("specifier", resolved),
                    ("resolved", resolved),
                    ("language", "go"),
                ],
            )
        };
        let run = graph_run(
            "invariant Layers { deny reach Web -> Repo }",
            vec![
                go_import("web/a.go", "lib/b/b1.go"),
                go_import("lib/b/b2.go", "repo/r.go"),
                go_import("lib/b/b2_test.go", "repo/r.go"),
            ],
        );
        let (_, files, site) = chain_of(&run, 0);
        assert_eq!(files, ["web/a.go", "lib/b/b2.go", "repo/r.go"]);
        assert_eq!(site, "web/a.go:1");
        // A package's test files are not part of what an importer links.
        let run = graph_run(
            "invariant Layers { deny reach Web -> Repo }",
            vec![
                go_import("web/a.go", "lib/b/b1.go"),
                go_import("lib/b/b2_test.go", "repo/r.go"),
            ],
        );
        assert!(run.findings().is_empty());
    }

    #[test]
    fn a_go_import_with_names_is_of_the_files_that_declare_them_alone() {
        // `web/a.go` names only what `lib/b/b1.go` declares: the package's other file
        // `lib/b/b2.go`, which imports `repo`, is no step of a chain from it.
        let names = policies::facts::PropertyValue::from(vec!["Open".to_owned()]);
        let mut named = fact(
            FactKind::Import,
            "web/a.go",
            1,
            &[
                ("specifier", "lib/b"),
                ("resolved", "lib/b/b1.go"),
                ("language", "go"),
            ],
        );
        named.properties.insert("names", names.clone());
        let to_repo = fact(
            FactKind::Import,
            "lib/b/b2.go",
            1,
            &[
                ("specifier", "repo"),
                ("resolved", "repo/r.go"),
                ("language", "go"),
            ],
        );
        let run = graph_run(
            "invariant Layers { deny reach Web -> Repo }",
            vec![named.clone(), to_repo.clone()],
        );
        assert!(run.findings().is_empty());
        // Named in `lib/b/b2.go`, the chain runs through that file.
        named.properties.insert(
            "resolved",
            policies::facts::PropertyValue::from("lib/b/b2.go"),
        );
        let run = graph_run(
            "invariant Layers { deny reach Web -> Repo }",
            vec![named, to_repo],
        );
        let (_, files, _) = chain_of(&run, 0);
        assert_eq!(files, ["web/a.go", "lib/b/b2.go", "repo/r.go"]);
    }

    #[test]
    fn a_swift_import_is_of_the_whole_module() {
        // `web/App.swift` imports module `Lib` (folder `lib/Lib`), represented by its first file;
        // another file of the module, in a subfolder, reaches Repo.
        let swift_import = |file: &str, resolved: &str, folder: Option<&str>| {
            let mut properties = vec![
                ("specifier", resolved),
                ("resolved", resolved),
                ("language", "swift"),
            ];
            properties.extend(folder.map(|folder| ("moduleFolder", folder)));
            fact(FactKind::Import, file, 1, &properties)
        };
        let run = graph_run(
            "invariant Layers { deny reach Web -> Repo }",
            vec![
                swift_import("web/App.swift", "lib/Lib/A.swift", Some("lib/Lib")),
                swift_import("lib/Lib/Deep/B.swift", "repo/R.swift", None),
            ],
        );
        let (_, files, _) = chain_of(&run, 0);
        assert_eq!(
            files,
            ["web/App.swift", "lib/Lib/Deep/B.swift", "repo/R.swift"]
        );
    }

    #[test]
    fn an_import_compiled_for_tests_only_makes_no_edge() {
        let mut test_use = import("web/x.rs", 1, "repo/r.rs");
        test_use
            .properties
            .insert("testOnly", PropertyValue::Bool(true));
        let rules = "invariant Layers { deny flow Web -> Repo ; deny reach Web -> Repo }";
        assert!(graph_run(rules, vec![test_use]).findings().is_empty());
        assert_eq!(
            types(&graph_run(rules, vec![import("web/x.rs", 1, "repo/r.rs")])),
            ["flow_violation", "reach_violation"]
        );
    }

    #[test]
    fn a_chain_ends_at_the_node_its_last_file_accesses() {
        let run = graph_run(
            "invariant Layers { deny reach Web -> db }",
            vec![
                import("web/x.ts", 1, "lib/u.ts"),
                technology("lib/u.ts", 3, "postgres"),
            ],
        );
        let (path, files, _) = chain_of(&run, 0);
        assert_eq!(path, ["Web", "db"]);
        assert_eq!(files, ["web/x.ts", "lib/u.ts", "db"]);
    }
}

mod permissions {
    use super::*;

    const RULES: &str = "permission OrderAccess on Order { allow Role.Admin -> delete ; deny Role.Member -> delete }";

    fn performs(line: u32) -> policies::facts::Fact {
        let mut performs = fact(
            FactKind::Performs,
            "api/Orders.cs",
            line,
            &[("operation", "delete"), ("data", "Order")],
        );
        performs.evidence.scope = Some("OrdersController.Remove".into());
        performs
    }

    fn check(role: &str, scope: &str) -> policies::facts::Fact {
        let mut check = fact(FactKind::ChecksRole, "api/Orders.cs", 3, &[("role", role)]);
        check.evidence.scope = Some(scope.into());
        check
    }

    #[test]
    fn admin_check_passes_no_check_and_member_check_fail() {
        assert!(
            graph_run(RULES, vec![performs(5), check("Admin", "OrdersController")])
                .findings()
                .is_empty()
        );
        let unchecked = graph_run(RULES, vec![performs(5)]);
        assert_eq!(
            summary(&unchecked),
            [(
                "permission_violation".to_owned(),
                "AllowPermission".to_owned(),
                "permission OrderAccess: delete on Order without Role.Admin is not allowed"
                    .to_owned()
            )]
        );
        let member = graph_run(
            RULES,
            vec![
                performs(5),
                check("Role__Member", "OrdersController.Remove"),
            ],
        );
        assert_eq!(
            summary(&member),
            [(
                "permission_violation".to_owned(),
                "DenyPermission".to_owned(),
                "deny Role.Member -> delete".to_owned()
            )]
        );
    }
}

mod machines {
    use super::*;

    const RULES: &str = "machine OrderLife on Order.status { allow transition Draft -> Active ; allow transition * -> Draft ; deny transition Archived -> * }";

    fn write(from: Option<&str>, to: &str, line: u32) -> policies::facts::DomainFact {
        domain(
            Body::Transition {
                data: "Order".into(),
                field: "status".into(),
                from: from.map(str::to_owned),
                to: to.into(),
            },
            "api/orders.ts",
            line,
            None,
        )
    }

    #[test]
    fn allowed_writes_pass_and_the_others_cite_the_machine_or_the_deny_rule() {
        assert!(domain_run(
            RULES,
            vec![
                write(Some("Draft"), "Active", 1),
                write(None, "Draft", 2),
                write(Some("Active"), "Active", 3)
            ]
        )
        .findings()
        .is_empty());
        let run = domain_run(
            RULES,
            vec![
                write(Some("Active"), "Archived", 1),
                write(Some("Archived"), "Draft", 2),
                write(None, "Active", 3),
            ],
        );
        let cited: Vec<String> = summary(&run)
            .into_iter()
            .map(|(_, kind, text)| format!("{kind}: {text}"))
            .collect();
        assert_eq!(
            cited,
            [
                "AllowTransition: machine OrderLife: Active -> Archived is not allowed",
                "DenyTransition: deny transition Archived -> *",
                "AllowTransition: machine OrderLife: * -> Active is not allowed",
            ]
        );
        let Shape::Architecture(detail) = &run.findings()[2].shape else {
            panic!()
        };
        assert_eq!(
            detail.illegal_sources.as_deref(),
            Some(&["Archived".to_owned()][..])
        );
        assert_eq!(detail.from_state, None);
    }

    #[test]
    fn the_illegal_sources_of_an_unguarded_write_are_sorted_bytewise() {
        let run = domain_run(RULES, vec![write(None, "Archived", 1)]);
        let Shape::Architecture(detail) = &run.findings()[0].shape else {
            panic!()
        };
        // The enum declares Draft before Active; string arrays sort bytewise (docs/VERDICT.md).
        assert_eq!(
            detail.illegal_sources.as_deref(),
            Some(&["Active".to_owned(), "Draft".to_owned()][..])
        );
    }
}

mod values {
    use super::*;

    const RULES: &str = "value_policy OrderShape { require Order.items.length == 1 when Order.status == Draft ; require Order.total >= 0 }\noperation_policy Submit { require before submitOrder Order.status == Draft ; ensure after submitOrder Order.status == Active }";

    fn value(path: &str, relation: &str, value: &str, line: u32) -> policies::facts::DomainFact {
        domain(
            Body::Value {
                subject: "Order".into(),
                path: path.into(),
                relation: relation.into(),
                value: value.into(),
            },
            "api/orders.ts",
            line,
            Some("submit"),
        )
    }

    fn event(phase: &str, value: &str) -> policies::facts::DomainFact {
        domain(
            Body::OperationEvent {
                operation: "submitOrder".into(),
                phase: phase.into(),
                subject: "Order".into(),
                path: "status".into(),
                relation: "==".into(),
                value: value.into(),
            },
            "api/orders.ts",
            9,
            None,
        )
    }

    #[test]
    fn contradicting_values_fail_and_consistent_ones_pass() {
        let passing = domain_run(
            RULES,
            vec![
                value("status", "==", "Draft", 1),
                value("items.length", "==", "1", 2),
                value("total", ">=", "3", 3),
            ],
        );
        assert!(passing.findings().is_empty());
        let failing = domain_run(
            RULES,
            vec![
                value("total", "==", "-5", 1),
                value("status", "==", "OrderStatus.Draft", 2),
                value("items.length", "==", "2", 3),
            ],
        );
        assert_eq!(
            types(&failing),
            ["value_policy_violation", "value_policy_violation"]
        );
    }

    #[test]
    fn ordering_over_a_string_is_incomparable_not_a_violation() {
        let run = domain_run(RULES, vec![value("total", "==", "\"lots\"", 1)]);
        assert!(run.findings().is_empty());
        assert_eq!(run.evaluation.warnings[0].code, "incomparable-value-fact");
    }

    #[test]
    fn operation_preconditions_and_postconditions() {
        assert!(domain_run(
            RULES,
            vec![event("before", "Draft"), event("after", "Active")]
        )
        .findings()
        .is_empty());
        let failing = domain_run(RULES, vec![event("before", "Archived")]);
        assert_eq!(
            summary(&failing),
            [(
                "operation_policy_violation".to_owned(),
                "RequireBefore".to_owned(),
                "require before submitOrder Order.status == Draft".to_owned()
            )]
        );
    }
}

mod events {
    use super::*;

    const RULES: &str = "event_policy Consent { require event AcceptConsent preceded_by ShowConsent by Profile }\nevent_policy Session { require event Logout preceded_by Login by Web }";

    fn event(
        name: &str,
        scope: Option<&str>,
        file: &str,
        line: u32,
    ) -> policies::facts::DomainFact {
        domain(
            Body::Event {
                event: name.into(),
                scope: scope.map(str::to_owned),
            },
            file,
            line,
            Some("flow"),
        )
    }

    #[test]
    fn order_within_a_function_decides() {
        let ok = domain_run(
            RULES,
            vec![
                event("ShowConsent", Some("Profile"), "api/c.ts", 1),
                event("AcceptConsent", Some("Profile"), "api/c.ts", 2),
            ],
        );
        assert!(ok.findings().is_empty());
        let reversed = domain_run(
            RULES,
            vec![
                event("AcceptConsent", Some("Profile"), "api/c.ts", 1),
                event("ShowConsent", Some("Profile"), "api/c.ts", 2),
            ],
        );
        assert_eq!(types(&reversed), ["event_policy_violation"]);
        // A component scope: facts without a scope in the component's files are in it.
        let missing = domain_run(RULES, vec![event("Logout", None, "web/s.ts", 4)]);
        assert_eq!(types(&missing), ["event_policy_violation"]);
    }
}

mod counterexamples {
    use super::*;

    const RULES: &str = "invariant Calls {\n require auth on flow Web -> Api\n require encryption on flow Api -> db\n require operation submit in Api\n require operation submit on Order in Api\n require dependency Web -> Api via interface IOrders\n}";

    #[test]
    fn reviewed_counterexamples_fail_and_matching_facts_pass() {
        let failing = domain_run(
            RULES,
            vec![
                domain(
                    Body::Auth {
                        from: "Web".into(),
                        to: "Api".into(),
                    },
                    "web/a.ts",
                    1,
                    None,
                ),
                domain(
                    Body::Encryption {
                        from: "Api".into(),
                        to: "postgres".into(),
                    },
                    "api/b.ts",
                    2,
                    None,
                ),
                domain(
                    Body::Operation {
                        operation: "submit".into(),
                        component: "Web".into(),
                        data: Some("Order".into()),
                    },
                    "web/c.ts",
                    3,
                    None,
                ),
                domain(
                    Body::Dependency {
                        from: "Web".into(),
                        to: "Api".into(),
                        interface: None,
                    },
                    "web/d.ts",
                    4,
                    None,
                ),
            ],
        );
        assert_eq!(
            types(&failing),
            [
                "require_auth_violation",
                "require_encryption_violation",
                "require_operation_violation",
                "require_operation_violation",
                "require_dependency_violation",
            ]
        );
        let passing = domain_run(
            RULES,
            vec![
                domain(
                    Body::Operation {
                        operation: "submit".into(),
                        component: "Api".into(),
                        data: Some("Order".into()),
                    },
                    "api/c.ts",
                    3,
                    None,
                ),
                domain(
                    Body::Dependency {
                        from: "Web".into(),
                        to: "Api".into(),
                        interface: Some("IOrders".into()),
                    },
                    "web/d.ts",
                    4,
                    None,
                ),
            ],
        );
        assert!(passing.findings().is_empty());
    }

    #[test]
    fn query_flow_facts_are_flow_edges() {
        let result = domain_run(
            "invariant L { deny flow Web -> db }",
            vec![domain(
                Body::Flow {
                    from: "Web".into(),
                    to: "postgres".into(),
                },
                "web/a.ts",
                1,
                None,
            )],
        );
        assert_eq!(types(&result), ["flow_violation"]);
    }
}

#[test]
fn every_rule_kind_but_the_compile_time_one_belongs_to_a_family() {
    use policies::model::RuleKind;
    for kind in RuleKind::ALL {
        let families = super::FAMILIES
            .iter()
            .filter(|family| family.kinds.contains(&kind))
            .count();
        let expected = usize::from(kind != RuleKind::RequireContractImplementedBy);
        assert_eq!(families, expected, "{kind:?}");
    }
}
