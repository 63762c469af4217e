use crate::test_support::*;

#[test]
fn prelude_compiles_cleanly() {
    let model = assert_clean(PRELUDE);
    assert_eq!(model.nodes.len(), 3);
    assert_eq!(model.components.len(), 3);
    assert_eq!(model.data.len(), 2);
    let profile = model.data_named("Profile").unwrap();
    assert_eq!(profile.classification.as_deref(), Some("pii"));
    assert_eq!(profile.jurisdiction.as_deref(), Some("eu"));
    assert_eq!(profile.fields.len(), 1);
    assert_eq!(
        model.component("Api").unwrap().paths,
        ["api/**", "shared/api/**"]
    );
}

#[test]
fn names_may_be_used_before_they_are_declared() {
    assert_clean("component Api { runs_on: app paths: \"./api/**\" }\nnode app : server");
}

#[test]
fn duplicate_model_names_per_kind() {
    let cases = [
        ("node a : server\nnode a : server", "duplicate-node"),
        ("resource a : sensor\nresource a : sensor", "duplicate-resource"),
        ("node n : server\ncomponent a { runs_on: n paths: \"a\" }\ncomponent a { runs_on: n paths: \"b\" }", "duplicate-component"),
        ("enum a { X }\nenum a { Y }", "duplicate-enum"),
        ("data a { }\ndata a { }", "duplicate-data"),
    ];
    for (source, code) in cases {
        let line = u32::try_from(source.lines().count()).unwrap();
        let column = source
            .lines()
            .last()
            .unwrap()
            .find(" a ")
            .map(|index| index + 2)
            .unwrap();
        let diagnostic = assert_diagnostic(source, code, line, u32::try_from(column).unwrap());
        assert_eq!(
            diagnostic.related.first().unwrap().message,
            "first declared here"
        );
    }
}

#[test]
fn duplicate_names_in_other_namespaces() {
    let cases = [
        ("invariant", "duplicate-invariant", "{ }"),
        ("value_policy", "duplicate-value-policy", "{ }"),
        ("operation_policy", "duplicate-operation-policy", "{ }"),
        ("event_policy", "duplicate-event-policy", "{ }"),
        ("workflow_policy", "duplicate-workflow-policy", "{ }"),
        ("di_policy", "duplicate-di-policy", "{ }"),
        ("data_policy", "duplicate-data-policy", "{ }"),
        ("trust_policy", "duplicate-trust-policy", "{ }"),
        ("change_policy", "duplicate-change-policy", "{ }"),
        ("contract", "duplicate-contract", "{ }"),
        ("repo", "duplicate-repo", "\"u\""),
        ("machine", "duplicate-machine", "on Order.status { }"),
        ("permission", "duplicate-permission", "on Order { }"),
    ];
    for (keyword, code, body) in cases {
        let source = format!("{keyword} X {body}\n{keyword} X {body}");
        let column = u32::try_from(keyword.len() + 2).unwrap();
        let output = compile_with_prelude(&source);
        let found = output
            .diagnostics
            .iter()
            .find(|diagnostic| diagnostic.code == code);
        let found = found.unwrap_or_else(|| panic!("no {code}: {:?}", output.diagnostics));
        assert_eq!(
            (found.line, found.column),
            (PRELUDE_LINES + 2, column),
            "{code}"
        );
    }
}

#[test]
fn the_same_name_in_different_namespaces_is_fine() {
    assert_clean_with_prelude("invariant Api { }\ncontract Api { }\nvalue_policy Api { }");
}

#[test]
fn name_conflict_between_kinds() {
    let diagnostic = assert_diagnostic(
        "node Api : server\ncomponent Api { runs_on: Api paths: \"a\" }",
        "name-conflict",
        2,
        11,
    );
    assert_eq!(
        diagnostic.message,
        "`Api` is declared as both a node and a component"
    );
}

#[test]
fn name_conflict_with_a_primitive() {
    assert_diagnostic("enum String { A }", "name-conflict", 1, 6);
}

#[test]
fn reserved_entity_names() {
    let diagnostic = assert_diagnostic("node role : server", "reserved-name", 1, 6);
    assert_eq!(
        diagnostic.message,
        "entity `role` cannot be named in a rule endpoint: the word starts a selector"
    );
    assert_clean("enum role { A }");
}

#[test]
fn node_properties_are_validated() {
    assert_clean("node db : postgres { trust: semi_trusted connectivity: offline_first protocol: tcp, udp auth: none }");
    assert_diagnostic("node x : server { trust: public }", "invalid-trust", 1, 26);
    assert_diagnostic(
        "node x : server { connectivity: sometimes }",
        "invalid-connectivity",
        1,
        33,
    );
    assert_diagnostic(
        "node x : server { protocol: tcp ftp }",
        "invalid-protocol",
        1,
        33,
    );
    assert_diagnostic(
        "node x : server { auth: jwt password }",
        "invalid-auth",
        1,
        29,
    );
    let diagnostic = assert_diagnostic(
        "node x : server { trust: trusted untrusted }",
        "invalid-property-value",
        1,
        19,
    );
    assert_eq!(diagnostic.message, "`trust` takes exactly one value");
}

#[test]
fn repeated_property_keys() {
    let diagnostic = assert_diagnostic(
        "node db : postgres { trust: trusted\n trust: trusted }",
        "duplicate-key",
        2,
        2,
    );
    assert_eq!(diagnostic.message, "`trust` is given twice in node `db`");
}

#[test]
fn bindings_are_kept_in_the_model() {
    let model = assert_clean(
        "node orders_db : postgres { clients: \"sequelize\", \"pg\" }\n\
         resource alerts : external_api { urls: \"https://alertmanager:9093/**\" \"ALERTMANAGER_URL\" }",
    );
    let db = model.node("orders_db").unwrap();
    assert_eq!(db.clients, ["sequelize", "pg"]);
    assert!(db.urls.is_empty() && db.properties.is_empty());
    let alerts = model.resource("alerts").unwrap();
    assert_eq!(
        alerts.urls,
        ["https://alertmanager:9093/**", "ALERTMANAGER_URL"]
    );
}

#[test]
fn property_values_may_be_a_bracketed_list() {
    let model = assert_clean(
        "node orders_db : postgres { clients: [\"sequelize\", \"pg\",] trust: trusted }\n\
         resource alerts : external_api { urls: [\"https://alertmanager:9093/**\"] }",
    );
    let db = model.node("orders_db").unwrap();
    assert_eq!(db.clients, ["sequelize", "pg"]);
    assert_eq!(db.trust.map(|trust| trust.as_str()), Some("trusted"));
    assert_eq!(
        model.resource("alerts").unwrap().urls,
        ["https://alertmanager:9093/**"]
    );
    assert_diagnostic(
        "node db : postgres { clients: [\"pg\" \"x\"] }",
        "unexpected-token",
        1,
        37,
    );
}

#[test]
fn bindings_reject_empty_strings_and_bad_globs() {
    let diagnostic = assert_diagnostic(
        "node db : postgres { clients: \"pg\" \"\" }",
        "invalid-property-value",
        1,
        36,
    );
    assert_eq!(diagnostic.message, "`clients` takes non-empty strings");
    assert_diagnostic(
        "node api : rest_api { urls: \"https://x/[\" }",
        "invalid-property-value",
        1,
        29,
    );
}

#[test]
fn one_library_binds_one_entity() {
    let diagnostic = assert_diagnostic(
        "node orders_db : postgres { clients: \"sequelize\" }\n\
         node jobs : queue { clients: \"bullmq\", \"sequelize\" }",
        "duplicate-client-binding",
        2,
        40,
    );
    assert_eq!(
        diagnostic.message,
        "`sequelize` is already bound to `orders_db`"
    );
}

#[test]
fn resources_validate_connectivity_too() {
    assert_diagnostic(
        "resource P : local_preferences { connectivity: often }",
        "invalid-connectivity",
        1,
        48,
    );
}

#[test]
fn a_product_name_for_a_node_type_suggests_its_kind() {
    for (product, kind) in [
        ("rabbitmq", "message_queue"),
        ("kafka", "event_stream"),
        ("sqs", "message_queue"),
        ("mongo", "mongodb"),
        ("sqlserver", "mssql"),
        ("SqlServer", "mssql"),
        ("browser", "edge_desktop"),
        ("service_bus", "message_queue"),
    ] {
        let diagnostic =
            assert_diagnostic(&format!("node q : {product}"), "unknown-node-type", 1, 10);
        assert_eq!(
            diagnostic.help.as_deref(),
            Some(format!("did you mean `{kind}`?").as_str()),
            "{product}"
        );
    }
}

#[test]
fn unknown_node_type_with_help() {
    let diagnostic = assert_diagnostic("node cache : redis_cluster", "unknown-node-type", 1, 14);
    assert_eq!(diagnostic.help.as_deref(), Some("did you mean `redis`?"));
}

#[test]
fn unknown_node_type_without_a_near_kind_points_at_the_vocabulary() {
    let diagnostic = assert_diagnostic("node phone : client", "unknown-node-type", 1, 14);
    let help = diagnostic.help.as_deref().unwrap_or_default();
    assert!(help.contains("docs/VOCABULARY.md"), "{help}");
    assert!(help.contains("`edge_mobile`"), "{help}");
    let diagnostic = assert_diagnostic("resource R : gizmo {}", "unknown-resource-type", 1, 14);
    let help = diagnostic.help.as_deref().unwrap_or_default();
    assert!(help.contains("`secure_storage`"), "{help}");
}

#[test]
fn unknown_resource_type() {
    assert_clean("resource Prefs : local_preferences { trust: semi_trusted }");
    assert_diagnostic(
        "resource Prefs : preferences {}",
        "unknown-resource-type",
        1,
        18,
    );
}

#[test]
fn component_required_keys() {
    let diagnostic = assert_diagnostic(
        "component Worker { paths: \"worker/**\" }",
        "missing-required-key",
        1,
        11,
    );
    assert_eq!(diagnostic.message, "component `Worker` has no `runs_on`");
    assert_diagnostic(
        "node n : server\ncomponent W { runs_on: n }",
        "missing-required-key",
        2,
        11,
    );
}

#[test]
fn component_references() {
    let base = "node app : server\nresource Keys : sensor\n";
    let unknown_node = assert_diagnostic(
        &format!("{base}component W {{ runs_on: Keys paths: \"w\" }}"),
        "unknown-node",
        3,
        24,
    );
    assert_eq!(unknown_node.message, "`Keys` is a resource, not a node");
    assert_diagnostic(
        &format!("{base}component W {{ runs_on: app paths: \"w\" repo: Backnd }}"),
        "unknown-repo",
        3,
        45,
    );
    assert_diagnostic(
        &format!("{base}component W {{ runs_on: app paths: \"w\" implements: K }}"),
        "unknown-contract",
        3,
        51,
    );
    assert_diagnostic(
        &format!("{base}component W {{ runs_on: app paths: \"w\" handles: [P] }}"),
        "unknown-data",
        3,
        49,
    );
    let role = assert_diagnostic(
        &format!("{base}component W {{ runs_on: app paths: \"w\" role: screen }}"),
        "unknown-role",
        3,
        45,
    );
    assert!(role
        .message
        .starts_with("unknown role `screen`: expected presentation, application"));
    assert_clean(&format!(
        "{base}repo R \"u\"\ncontract K {{ }}\ndata P {{ }}\ncomponent W {{ runs_on: app paths: [\"w/**\",] role: domain repo: R implements: K consumes: [K] handles: P }}"
    ));
}

#[test]
fn component_repeated_scalar_key_and_merged_lists() {
    let source = "node app : server\ndata D { }\ndata E { }\ncomponent W { runs_on: app paths: \"w\" handles: D handles: E, D }";
    let model = assert_clean(source);
    assert_eq!(model.component("W").unwrap().handles, ["D", "E"]);
    assert_diagnostic(
        "node app : server\ncomponent W { runs_on: app runs_on: app paths: \"w\" }",
        "duplicate-key",
        2,
        28,
    );
}

#[test]
fn unknown_component_key_is_a_warning() {
    let diagnostic = assert_diagnostic(
        "node app : server\ncomponent Api { runs_on: app paths: \"a\" owner: team }",
        "unknown-component-key",
        2,
        41,
    );
    assert_eq!(
        diagnostic.message,
        "unknown key `owner` in component `Api` is ignored"
    );
    assert!(
        compile("node app : server\ncomponent Api { runs_on: app paths: \"a\" owner: team }")
            .model
            .is_some()
    );
}

#[test]
fn invalid_globs() {
    let base = "node app : server\ncomponent W { runs_on: app paths: ";
    let diagnostic = assert_diagnostic(&format!("{base}\"/srv/**\" }}"), "invalid-glob", 2, 35);
    assert_eq!(
        diagnostic.message,
        "invalid glob `/srv/**`: globs are relative to the project root"
    );
    assert_diagnostic(
        &format!("{base}[\"ok/**\", \"a/../b\"] }}"),
        "invalid-glob",
        2,
        45,
    );
    assert_diagnostic(&format!("{base}\"a/[b\" }}"), "invalid-glob", 2, 35);
    assert_diagnostic(
        &format!("{base}\"{{a,{{b,c}}}}\" }}"),
        "invalid-glob",
        2,
        35,
    );
}

#[test]
fn negated_component_globs_remove_files_and_keep_their_bang() {
    let model = assert_clean(
        "node app : server\ncomponent S { runs_on: app paths: [\"./server/**\", \"!./server/**/*.test.ts\"] paths: \"!server/fixtures/\" }",
    );
    let server = model.component("S").unwrap();
    assert_eq!(
        server.paths,
        ["server/**", "!server/**/*.test.ts", "!server/fixtures/"]
    );
    assert_eq!(server.positive_paths().collect::<Vec<_>>(), ["server/**"]);
    assert_eq!(
        server.negated_paths().collect::<Vec<_>>(),
        ["server/**/*.test.ts", "server/fixtures/"]
    );
    assert!(model.has_exclusions());
    assert!(
        !assert_clean("node app : server\ncomponent S { runs_on: app paths: \"s/**\" }")
            .has_exclusions()
    );
}

#[test]
fn a_component_whose_globs_are_all_negated_is_an_invalid_glob() {
    let base = "node app : server\ncomponent W { runs_on: app paths: ";
    let diagnostic = assert_diagnostic(
        &format!("{base}[\"!w/**/*.test.ts\", \"!w/gen/**\"] }}"),
        "invalid-glob",
        2,
        36,
    );
    assert_eq!(
        diagnostic.message,
        "every glob in the paths of component `W` starts with `!`, so it owns no file"
    );
    assert!(diagnostic.help.as_deref().is_some_and(|help| help
        .contains("paths: [\"server/**\", \"!server/**/*.test.ts\"]")
        && help.contains("exclude")));
    // A positive glob in a second `paths` entry counts: repeated list keys merge.
    assert_clean(&format!("{base}\"!w/gen/**\" paths: \"w/**\" }}"));
    // What follows the `!` is checked as any glob, and a glob has one `!` at most.
    let diagnostic = assert_diagnostic(
        &format!("{base}[\"w/**\", \"!/srv/**\"] }}"),
        "invalid-glob",
        2,
        44,
    );
    assert_eq!(
        diagnostic.message,
        "invalid glob `!/srv/**`: globs are relative to the project root"
    );
    assert_diagnostic(
        &format!("{base}[\"w/**\", \"!!w/x\"] }}"),
        "invalid-glob",
        2,
        44,
    );
    assert_diagnostic(
        &format!("{base}[\"w/**\", \"!\"] }}"),
        "invalid-glob",
        2,
        44,
    );
}

#[test]
fn exclude_takes_one_glob_a_list_or_a_comma_list_and_merges() {
    let model = assert_clean(
        "exclude \"**/*.test.ts\"\nexclude [\"./gen/**\", \"vendor/\",]\nexclude \"a/**\", \"b/**\"\nexclude \"gen/**\"\n",
    );
    assert_eq!(
        model.excludes,
        ["**/*.test.ts", "gen/**", "vendor/", "a/**", "b/**"]
    );
    assert!(model.has_exclusions());
    assert!(assert_clean("node app : server").excludes.is_empty());
}

#[test]
fn exclude_globs_are_checked_as_paths_and_cannot_be_negated() {
    let diagnostic = assert_diagnostic("exclude \"/abs/**\"", "invalid-glob", 1, 9);
    assert_eq!(
        diagnostic.message,
        "invalid glob `/abs/**`: globs are relative to the project root"
    );
    assert_diagnostic("exclude [\"ok/**\", \"a/../b\"]", "invalid-glob", 1, 19);
    assert_diagnostic("exclude \"ok/**\", \"a/[b\"", "invalid-glob", 1, 18);
    let diagnostic = assert_diagnostic(
        "node app : server\nexclude [\"gen/**\", \"!gen/keep.ts\"]",
        "invalid-glob",
        2,
        20,
    );
    assert_eq!(
        diagnostic.message,
        "invalid glob `!gen/keep.ts`: an `exclude` glob cannot start with `!`"
    );
    assert!(diagnostic
        .help
        .as_deref()
        .is_some_and(|help| help.contains("narrow that glob")));
    assert_diagnostic("exclude []", "unexpected-token", 1, 10);
    assert_diagnostic("exclude gen", "unexpected-token", 1, 9);
}

#[test]
fn ambiguous_paths_ignores_negated_globs() {
    // The two `!` globs are equal, but a `!` glob removes files: it cannot make two components
    // own one file.
    assert_clean("node app : server\ncomponent A { runs_on: app paths: [\"src/a/**\", \"!src/**/*.test.ts\"] }\ncomponent B { runs_on: app paths: [\"src/b/**\", \"!src/**/*.test.ts\"] }");
    let source = "node app : server\ncomponent A { runs_on: app paths: [\"src/*.ts\", \"!src/x.ts\"] }\ncomponent B { runs_on: app paths: \"src/**\" }";
    assert_diagnostic(source, "ambiguous-paths", 3, 35);
    // A component whose `!` glob removes every file of the other's glob shares none with it
    // (harbor's DAOs beside the rest of `src/pkg`), in either order of declaration.
    assert_clean("node app : server\ncomponent Dao { runs_on: app paths: \"src/pkg/**/dao/**\" }\ncomponent Pkg { runs_on: app paths: [\"src/pkg/**\", \"!src/pkg/**/dao/**\"] }");
    assert_clean("node app : server\ncomponent Pkg { runs_on: app paths: [\"src/pkg/**\", \"!src/pkg/**/dao/**\"] }\ncomponent Dao { runs_on: app paths: \"src/pkg/**/dao/**\" }");
    // One that removes only some of them still may own the rest.
    let source = "node app : server\ncomponent Dao { runs_on: app paths: \"src/pkg/**/dao/**\" }\ncomponent Pkg { runs_on: app paths: [\"src/pkg/**\", \"!src/pkg/user/dao/**\"] }";
    assert_diagnostic(source, "ambiguous-paths", 3, 38);
}

#[test]
fn ambiguous_paths_is_a_warning_for_equal_prefixes() {
    let source = "node app : server\ncomponent A { runs_on: app paths: \"src/*.ts\" }\ncomponent B { runs_on: app paths: \"src/**\" }";
    let diagnostic = assert_diagnostic(source, "ambiguous-paths", 3, 35);
    assert_eq!(
        diagnostic.message,
        "paths of `A` and `B` may own the same files equally: `A` (declared first) wins"
    );
    assert_clean("node app : server\ncomponent A { runs_on: app paths: \"src/*.ts\" }\ncomponent B { runs_on: app paths: \"src/*.js\" }");
    assert_clean("node app : server\ncomponent A { runs_on: app paths: \"api/**\" }\ncomponent B { runs_on: app paths: \"api/repo/**\" }");
    // Sibling folders under a wildcard share no file (outline's plugins/*/client, */server).
    assert_clean("node app : server\ncomponent A { runs_on: app paths: \"plugins/*/client/**\" }\ncomponent B { runs_on: app paths: \"plugins/*/server/**\" }");
    // Equal non-empty tails still warn: `src/*/x.ts` and `src/**/x.ts` can both own `src/a/x.ts`.
    let source = "node app : server\ncomponent A { runs_on: app paths: \"src/*/x.ts\" }\ncomponent B { runs_on: app paths: \"src/**/x.ts\" }";
    assert_diagnostic(source, "ambiguous-paths", 3, 35);
}

#[test]
fn enums() {
    let model = assert_clean("enum Phase { Empty | Single, Multi before }");
    assert_eq!(
        model.enums.first().unwrap().values,
        ["Empty", "Single", "Multi", "before"]
    );
    let diagnostic = assert_diagnostic("enum Phase { A | A }", "duplicate-enum-value", 1, 18);
    assert_eq!(diagnostic.message, "enum `Phase` repeats `A`");
    let diagnostic = assert_diagnostic("enum Phase { }", "empty-enum", 1, 6);
    assert_eq!(diagnostic.message, "enum `Phase` has no values");
}

#[test]
fn data_types() {
    let model = assert_clean(
        "enum Phase { A }\ndata Line { }\ndata Cart { phase: Phase  lines: Line[]  note: Optional<String>  m: Map<String, Int>  u: A | B  self: Cart  classification: String }\ndata A { }\ndata B { }",
    );
    let cart = model.data_named("Cart").unwrap();
    let types: Vec<String> = cart
        .fields
        .iter()
        .map(|field| field.type_expr.to_string())
        .collect();
    assert_eq!(
        types,
        [
            "Phase",
            "List<Line>",
            "Optional<String>",
            "Map<String, Int>",
            "A | B",
            "Cart",
            "String"
        ]
    );
    assert_eq!(cart.classification, None);
    let diagnostic = assert_diagnostic("data Cart { lines: Lst<Line> }", "unknown-type", 1, 20);
    assert_eq!(
        diagnostic.message,
        "unknown type `Lst` in field `lines` of `Cart`"
    );
    assert_eq!(diagnostic.help.as_deref(), Some("did you mean `List`?"));
    let diagnostic = assert_diagnostic("data Cart { m: Map<String> }", "invalid-type-expr", 1, 16);
    assert_eq!(diagnostic.message, "`Map` needs two type arguments");
    assert_diagnostic("data Cart { m: Int<String> }", "invalid-type-expr", 1, 16);
    let diagnostic = assert_diagnostic(
        "data Order { total: Money\n total: Int }",
        "duplicate-field",
        2,
        2,
    );
    assert_eq!(diagnostic.message, "data `Order` repeats field `total`");
    assert_diagnostic(
        "data P { classification: pii classification: phi }",
        "duplicate-key",
        1,
        30,
    );
}

#[test]
fn plugins_merge_and_must_be_named() {
    let model = assert_clean("plugin \"@acme/x\"\nplugin \"@acme/x\"\nplugin \"b\"");
    assert_eq!(model.plugins, ["@acme/x", "b"]);
    let diagnostic = assert_diagnostic("plugin \"\"", "invalid-plugin-name", 1, 8);
    assert_eq!(diagnostic.message, "plugin name is empty");
}

#[test]
fn repos() {
    let model = assert_clean("repo Backend \"github.com/acme/backend\" branch = \"main\"");
    assert_eq!(model.repos.first().unwrap().branch.as_deref(), Some("main"));
    let diagnostic = assert_diagnostic("repo Backend \"\"", "invalid-repo-url", 1, 14);
    assert_eq!(diagnostic.message, "repo `Backend` has an empty URL");
}

#[test]
fn service_and_test_are_ignored_with_a_warning() {
    let diagnostic = assert_diagnostic(
        "service Billing { runs_on: app { x } }",
        "unsupported-declaration",
        1,
        1,
    );
    assert_eq!(
        diagnostic.message,
        "`service` declarations are not supported: `Billing` is ignored"
    );
    assert_diagnostic(
        "node a : server\ntest T { }",
        "unsupported-declaration",
        2,
        1,
    );
}

#[test]
fn model_round_trips_through_json() {
    let model = assert_clean_with_prelude("invariant I { deny flow Web -> db }");
    let json = serde_json::to_string(&model).unwrap();
    let back: crate::model::Model = serde_json::from_str(&json).unwrap();
    assert_eq!(back, model);
}
