//! Runs every fixture project under `tests/fixtures/<language>/<case>/` and checks each source
//! file's facts against its annotations, one to one.

use std::path::{Path, PathBuf};

use std::collections::BTreeMap;

use extractors::{
    extract_files, follow_rust_reexports, link_routes, mark_rust_test_modules, FileExtraction,
    ProjectContext, RouteLinks,
};
use policies::facts::Fact;

use crate::annotations;

/// The fixture root.
pub fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Every file under `directory`, project-relative with `/`, sorted.
pub fn project_files(directory: &Path) -> Vec<String> {
    fn walk(root: &Path, directory: &Path, files: &mut Vec<String>) {
        for entry in std::fs::read_dir(directory).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, files);
            } else {
                let relative = path.strip_prefix(root).unwrap();
                files.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut files = Vec::new();
    walk(directory, directory, &mut files);
    files.sort();
    files
}

/// Extracts every supported file of a fixture project (`<language>/<case>`), then applies the
/// mount prefixes that cross files (`link_routes`) and marks the Rust files only test code
/// declares (`mark_rust_test_modules`), as the engine does.
pub fn extract_project(case: &str) -> Vec<(String, String, FileExtraction)> {
    extract_project_with(case, |_| {})
}

/// [`extract_project`] with the context set up by `configure` first.
pub fn extract_project_with(
    case: &str,
    configure: impl FnOnce(&mut ProjectContext),
) -> Vec<(String, String, FileExtraction)> {
    let root = fixtures_root().join(case);
    let files = project_files(&root);
    let mut context = ProjectContext::discover(&root, &files);
    configure(&mut context);
    let bound = bound_clients(case);
    if !bound.is_empty() {
        let generic = context.generic().clone();
        context.set_generic(
            generic.with_bound_clients(bound.iter().map(|&library| library.to_owned())),
        );
    }
    let mut extracted: Vec<(String, String, FileExtraction)> =
        extract_files(&mut context, &files, |file| {
            std::fs::read_to_string(root.join(file)).ok()
        })
        .into_iter()
        .filter_map(|(file, extraction)| {
            let source = std::fs::read_to_string(root.join(&file)).ok()?;
            Some((file, source, extraction))
        })
        .collect();
    let links: BTreeMap<String, RouteLinks> = extracted
        .iter()
        .filter(|(_, _, extraction)| !extraction.links.is_empty())
        .map(|(file, _, extraction)| (file.clone(), extraction.links.clone()))
        .collect();
    let mut facts: Vec<Fact> = extracted
        .iter_mut()
        .flat_map(|(_, _, extraction)| std::mem::take(&mut extraction.facts))
        .collect();
    link_routes(&mut facts, &links);
    follow_rust_reexports(&mut facts);
    mark_rust_test_modules(&mut facts);
    for fact in facts {
        if let Some((_, _, extraction)) = extracted
            .iter_mut()
            .find(|(file, _, _)| **file == *fact.evidence.file)
        {
            extraction.facts.push(fact);
        }
    }
    extracted
}

/// The libraries a fixture's spec would bind with `clients` (see `node` and `resource` in policies/LANGUAGE.md).
fn bound_clients(case: &str) -> &'static [&'static str] {
    match case {
        "go/bound-clients" => &[
            "github.com/nats-io/nats.go",
            "github.com/acme/queue/v2",
            "github.com/stripe/stripe-go",
        ],
        "java/bound-clients" => &["com.rabbitmq.client", "io.nats", "io.minio"],
        "kotlin/bound-clients" => &["com.rabbitmq.client", "io.nats"],
        "csharp/bound-clients" => &[
            "RabbitMQ.Client",
            "NATS.Client",
            "Acme.Billing.BillingClient",
        ],
        "rust/bound-clients" => &["async_nats", "lapin", "pulsar"],
        "python/bound-clients" => &["nats", "pulsar"],
        "python/bound-catalogue" => &["django", "rq", "sqlalchemy"],
        "swift/bound-clients" => &["NATS", "RabbitMQ"],
        _ => &[],
    }
}

/// Every fact of a fixture, one block per fact in (file, line, column, kind, id) order: the
/// position and span, kind, confidence, extractor/strategy, the top-level fields, the enclosing
/// scope, the message, then every property (`language` included) as JSON values.
fn render_case(extractions: &[(String, String, FileExtraction)]) -> String {
    use std::fmt::Write as _;
    let mut facts: Vec<&policies::facts::Fact> = extractions
        .iter()
        .flat_map(|(_, _, extraction)| &extraction.facts)
        .collect();
    facts.sort_by(|a, b| {
        let key = |fact: &policies::facts::Fact| {
            (
                fact.evidence.file.clone(),
                fact.evidence.line,
                fact.evidence.column,
                fact.kind.as_str(),
                fact.id.clone(),
            )
        };
        key(a).cmp(&key(b))
    });
    let mut text = String::new();
    for fact in facts {
        let evidence = &fact.evidence;
        let _ = writeln!(
            text,
            "{}:{}:{}-{}:{} {} [{}] {}/{}",
            evidence.file,
            evidence.line,
            evidence.column,
            evidence.end_line,
            evidence.end_column,
            fact.kind.as_str(),
            fact.confidence.as_str(),
            evidence.extractor,
            serde_json::to_string(&evidence.strategy)
                .unwrap()
                .trim_matches('"'),
        );
        for (name, value) in [
            ("target", fact.target.as_deref()),
            ("technology", fact.technology.as_deref()),
            ("model", fact.model.as_deref()),
            ("route", fact.route.as_deref()),
            ("scope", evidence.scope.as_deref()),
        ] {
            if let Some(value) = value {
                let _ = writeln!(text, "  {name}: {value}");
            }
        }
        let _ = writeln!(text, "  message: {}", evidence.message);
        for (name, value) in &fact.properties {
            let _ = writeln!(
                text,
                "  .{name} = {}",
                serde_json::to_string(value).unwrap()
            );
        }
    }
    text
}

fn check_case(case: &str) {
    check_case_with_parse_errors(case, &[]);
}

/// [`check_case`] for a fixture whose files `with_errors` (and only those) have parse errors:
/// valid code the grammar cannot read, whose recovery the fixture checks.
fn check_case_with_parse_errors(case: &str, with_errors: &[&str]) {
    let mut problems = Vec::new();
    let mut fact_count = 0;
    let extractions = extract_project(case);
    for (file, source, extraction) in &extractions {
        assert_eq!(extraction.skipped, None, "{case}/{file} was skipped");
        if with_errors.contains(&file.as_str()) {
            assert!(extraction.parse_errors > 0, "{case}/{file} parses");
        } else {
            assert_eq!(
                extraction.parse_errors, 0,
                "{case}/{file} has parse errors at {:?}",
                extraction.first_parse_error
            );
        }
        fact_count += extraction.facts.len();
        problems.extend(annotations::check(
            &format!("{case}/{file}"),
            &extraction.facts,
            &annotations::parse(source),
        ));
    }
    assert!(fact_count > 0, "fixture `{case}` produced no facts");
    assert!(
        problems.is_empty(),
        "fixture `{case}`:\n{}",
        problems.join("\n")
    );
    // The annotations pin each fact's kind, line and chosen properties; the snapshot pins the
    // rest (ids aside: spans, messages, extractor, strategy and every property).
    insta::assert_snapshot!(
        format!("fixture__{}", case.replace('/', "__")),
        render_case(&extractions)
    );
}

/// Without the generic facts, walks step over the statements that can add nothing
/// (`ProjectContext::set_pruning`): every fixture gives the very facts it gives when every
/// statement is walked.
#[test]
fn stepping_over_statements_changes_no_fact_of_any_fixture() {
    let mut compared = 0;
    for case in CASES {
        let facts = |pruning: bool| {
            render_case(&extract_project_with(case, |context| {
                context.set_generic_facts(false);
                context.set_pruning(pruning);
            }))
        };
        let walked = facts(false);
        assert_eq!(facts(true), walked, "{case}");
        compared += walked.lines().count();
    }
    assert!(compared > 1000, "only {compared} lines compared");
}

#[test]
fn every_fixture_is_checked() {
    let mut cases: Vec<String> = Vec::new();
    for language in std::fs::read_dir(fixtures_root()).unwrap() {
        let language = language.unwrap();
        for case in std::fs::read_dir(language.path()).unwrap() {
            cases.push(format!(
                "{}/{}",
                language.file_name().to_string_lossy(),
                case.unwrap().file_name().to_string_lossy()
            ));
        }
    }
    cases.sort();
    assert_eq!(cases, CASES, "add new fixture folders to `CASES`");
}

const CASES: [&str; 110] = [
    "csharp/aliases",
    "csharp/aspnet",
    "csharp/bound-clients",
    "csharp/catalogue",
    "csharp/conditional",
    "csharp/conventional",
    "csharp/extension_blocks",
    "csharp/extensions",
    "csharp/global-usings",
    "csharp/graph",
    "csharp/interpolation",
    "csharp/members",
    "csharp/namespaces",
    "csharp/nested",
    "csharp/projects",
    "csharp/unresolved",
    "csharp/usings",
    "csharp/webapi",
    "github_actions/workflows",
    "go/bound-clients",
    "go/boundaries",
    "go/catalogue",
    "go/chi-mounts",
    "go/graph",
    "go/method-mounts",
    "go/modules",
    "go/mounts",
    "go/package-names",
    "go/requires",
    "go/web",
    "java/bound-clients",
    "java/catalogue",
    "java/datasources",
    "java/graph",
    "java/imports",
    "java/modules",
    "java/mongo-starters",
    "java/nested",
    "java/own-clients",
    "java/spring",
    "java/web",
    "kotlin/android",
    "kotlin/bound-clients",
    "kotlin/catalogue",
    "kotlin/context",
    "kotlin/graph",
    "kotlin/imports",
    "kotlin/nested",
    "kotlin/recovery",
    "kotlin/scripts",
    "kotlin/split-packages",
    "kotlin/web",
    "python/bound-catalogue",
    "python/bound-clients",
    "python/catalogue",
    "python/clients",
    "python/comments",
    "python/graph",
    "python/imports",
    "python/mounts",
    "python/namespace",
    "python/own-package",
    "python/subpackages",
    "python/weak-roots",
    "python/web",
    "rust/bound-clients",
    "rust/catalogue",
    "rust/graph",
    "rust/mounts",
    "rust/nests",
    "rust/own-crate",
    "rust/path-modules",
    "rust/pattern-attributes",
    "rust/reexports",
    "rust/shared-targets",
    "rust/targets",
    "rust/test-modules",
    "rust/unresolved",
    "rust/web",
    "rust/workspace",
    "swift/bound-clients",
    "swift/catalogue",
    "swift/conditional",
    "swift/graph",
    "swift/own-module",
    "swift/package",
    "swift/web",
    "typescript/catalogue",
    "typescript/clients",
    "typescript/components",
    "typescript/decorator_metadata",
    "typescript/generated_imports",
    "typescript/graph",
    "typescript/http",
    "typescript/javascript",
    "typescript/mounts",
    "typescript/nest_versioning",
    "typescript/next",
    "typescript/node_http",
    "typescript/nuxt",
    "typescript/prefixes",
    "typescript/relative",
    "typescript/route_types",
    "typescript/routes",
    "typescript/sveltekit",
    "typescript/tsconfig_paths",
    "typescript/verbatim",
    "typescript/virtual_modules",
    "typescript/webpack_modules",
    "typescript/workspace",
];

#[test]
fn relative_imports_resolve_with_extension_probing_and_index_files() {
    check_case("typescript/relative");
}

#[test]
fn tsconfig_paths_and_base_url_resolve_through_extends_and_nested_configs() {
    check_case("typescript/tsconfig_paths");
}

#[test]
fn verbatim_module_syntax_keeps_imports_used_only_as_types() {
    check_case("typescript/verbatim");
}

#[test]
fn workspace_packages_resolve_to_their_source_entries_and_subpaths() {
    check_case("typescript/workspace");
}

/// Every Python library of the infrastructure catalogue: definite when called or (a Django
/// model) extended, the store read from a URL, a `broker` keyword, a driver class or the
/// project's Django settings; probable for a bare import.
#[test]
fn catalogue_python_libraries_are_definite_when_used_and_probable_when_only_imported() {
    check_case("python/catalogue");
}

/// Every Go module of the infrastructure catalogue: definite when called or built as a composite
/// literal (the store of `database/sql` and sqlx read from the driver name), probable for a
/// blank or bare import, and nothing for a gRPC server or a request to an `httptest` server the
/// test starts itself.
#[test]
fn catalogue_go_modules_are_definite_when_used_and_probable_when_only_imported() {
    check_case("go/catalogue");
}

/// The JVM libraries of the infrastructure catalogue in Java: definite when constructed, called
/// or injected (the store of jOOQ read from its JDBC URL), nothing for an entity class that only
/// imports JPA's annotations.
#[test]
fn catalogue_java_libraries_are_definite_when_used() {
    check_case("java/catalogue");
}

/// The relational store of a Spring Boot module is the `spring.datasource.url` of its
/// configuration, read as data (placeholder defaults, YAML and `.properties`, profile files and
/// profile documents, test resources left out, the build's embedded database for a default
/// profile without a URL): a fact per store the profiles name.
#[test]
fn spring_quarkus_and_micronaut_datasources_name_the_store_per_profile() {
    check_case("java/datasources");
}

/// A Spring Data store-neutral repository takes the MongoDB or Cassandra store its module's
/// build starter (or Cassandra keyspace key) names when the module names no relational one; a
/// module with a relational starter keeps `relational_db`, whatever other modules name.
#[test]
fn spring_store_neutral_repositories_of_a_module_whose_build_has_only_the_mongodb_or_cassandra_starter_are_that_store(
) {
    check_case("java/mongo-starters");
}

/// The JVM libraries of the infrastructure catalogue in Kotlin: class calls, a Spring Data
/// repository interface, and Exposed's store read from its JDBC URL.
#[test]
fn catalogue_kotlin_libraries_are_definite_when_used() {
    check_case("kotlin/catalogue");
}

/// The .NET libraries of the infrastructure catalogue: Aspire client integrations, cache and
/// bus registrations, EF Core providers, ADO.NET connections, injected SDK clients, a
/// probable fact for a bare `using Dapper;`, and no outside API for the `HttpClient`s of an
/// ASP.NET Core test host (`WebApplicationFactory`, `TestServer`).
#[test]
fn catalogue_dotnet_libraries_are_definite_when_used_and_probable_when_only_imported() {
    check_case("csharp/catalogue");
}

/// A .NET library the catalogue counts only where a file imports it (Stripe.net's services,
/// Dapper's query methods) is used in a file that sees it through another file's `global using`
/// or its project file's `<Using>`, and in no file of another project.
#[test]
fn catalogue_dotnet_libraries_are_seen_through_their_project_s_global_usings() {
    check_case("csharp/global-usings");
}

/// The Rust crates of the infrastructure catalogue: definite when a client is connected or
/// built, probable for a bare `use`, nothing for a gRPC server.
#[test]
fn catalogue_rust_crates_are_definite_when_used_and_probable_when_only_imported() {
    check_case("rust/catalogue");
}

/// The Swift modules of the infrastructure catalogue: definite when a store is opened, and a name
/// as plain as SQLite.swift's `Connection` only in a file that imports the module.
#[test]
fn catalogue_swift_modules_are_definite_when_used_and_plain_names_need_their_import() {
    check_case("swift/catalogue");
}

/// Every npm library of the infrastructure catalogue: definite when constructed or called (the
/// store read from a connection URL or an options object where the entry says so), probable
/// for a bare import.
#[test]
fn catalogue_npm_libraries_are_definite_when_used_and_probable_when_only_imported() {
    check_case("typescript/catalogue");
}

#[test]
fn client_packages_are_definite_when_used_and_probable_when_only_imported() {
    check_case("typescript/clients");
}

#[test]
fn decorator_metadata_keeps_only_the_types_it_serializes() {
    check_case("typescript/decorator_metadata");
}

#[test]
fn http_calls_carry_method_url_and_normalised_path() {
    check_case("typescript/http");
}

#[test]
fn mount_prefixes_cross_files() {
    check_case("typescript/mounts");
}

#[test]
fn next_route_handlers_route_by_their_folders() {
    check_case("typescript/next");
}

#[test]
fn koa_hono_and_nest_global_prefixes_apply() {
    check_case("typescript/prefixes");
}

#[test]
fn nest_uri_versions_go_between_the_global_prefix_and_the_controller_path() {
    check_case("typescript/nest_versioning");
}

#[test]
fn raw_node_servers_route_by_their_conditions() {
    check_case("typescript/node_http");
}

#[test]
fn gin_groups_handed_to_functions_of_other_packages() {
    check_case("go/mounts");
}

#[test]
fn gin_groups_handed_to_methods_of_router_structs_with_a_configured_base() {
    check_case("go/method-mounts");
}

#[test]
fn include_router_and_register_blueprint_prefixes_cross_files() {
    check_case("python/mounts");
}

#[test]
fn routes_of_express_fastify_and_nestjs_are_extracted() {
    check_case("typescript/routes");
}

#[test]
fn javascript_files_use_require_jsx_and_jsconfig() {
    check_case("typescript/javascript");
}

#[test]
fn bare_specifiers_resolve_through_webpack_resolve_modules() {
    check_case("typescript/webpack_modules");
}

#[test]
fn python_imports_resolve_through_source_roots_packages_and_relative_levels() {
    check_case("python/imports");
}

#[test]
fn a_python_folder_without_init_inside_a_package_is_a_subpackage_not_a_root() {
    check_case("python/subpackages");
}

#[test]
fn python_namespace_packages_attribute_imports_and_type_checking_blocks() {
    check_case("python/namespace");
}

#[test]
fn python_clients_are_qualified_through_imports() {
    check_case("python/clients");
}

#[test]
fn go_imports_resolve_through_go_mod_go_work_and_replace() {
    check_case("go/modules");
}

/// A Go import of a project package is of the files that declare the names the importer uses
/// through it (one fact per file, every build variant), not of the package's first file; a
/// blank or dot import, or a name no file it can see declares, keeps the package's first file.
#[test]
fn go_imports_of_project_packages_go_to_the_files_that_declare_the_names_used() {
    check_case("go/package-names");
}

#[test]
fn rust_modules_resolve_from_every_cargo_target_inline_module_path_attribute_and_renamed_dependency(
) {
    check_case("rust/targets");
}

#[test]
fn rust_helper_modules_of_tests_benches_and_examples_resolve_super_to_each_target_that_declares_them(
) {
    check_case("rust/shared-targets");
}

#[test]
fn rust_paths_through_a_path_attribute_module_go_on_in_the_file_it_names() {
    check_case("rust/path-modules");
}

#[test]
fn csharp_usings_under_a_project_root_namespace_that_nothing_declares_are_unresolved() {
    check_case("csharp/unresolved");
}

/// A name a module only re-exports (`pub use config::CONFIG;` in the crate root) is a use of
/// the file that declares it, through every re-exporting module; renamed, glob and type-member
/// paths stay with the module.
#[test]
fn rust_names_a_module_only_re_exports_resolve_to_their_declaring_files() {
    check_case("rust/reexports");
}

#[test]
fn rust_files_that_only_cfg_test_mod_declarations_reach_are_test_code() {
    check_case("rust/test-modules");
}

#[test]
fn rust_paths_through_a_module_no_file_holds_and_the_module_does_not_declare_are_unresolved() {
    check_case("rust/unresolved");
}

#[test]
fn go_imports_resolve_to_the_module_that_provides_the_package() {
    check_case("go/boundaries");
}

#[test]
fn go_uses_of_bound_libraries_are_definite_and_their_bare_imports_probable() {
    check_case("go/bound-clients");
}

#[test]
fn java_uses_of_bound_libraries_are_definite_and_their_bare_imports_probable() {
    check_case("java/bound-clients");
}

#[test]
fn kotlin_uses_of_bound_libraries_are_definite_and_their_bare_imports_probable() {
    check_case("kotlin/bound-clients");
}

#[test]
fn csharp_uses_of_bound_libraries_are_definite_and_their_bare_usings_probable() {
    check_case("csharp/bound-clients");
}

#[test]
fn rust_uses_of_bound_libraries_are_definite_and_their_bare_uses_probable() {
    check_case("rust/bound-clients");
}

/// A bound library the catalogue knows (`django`, `sqlalchemy`): the catalogue still says which
/// of its uses are clients (a form field, `render` or a `cast` expression is none), and the
/// binding names their store.
#[test]
fn python_bound_catalogue_libraries_are_used_only_at_their_clients() {
    check_case("python/bound-catalogue");
}

#[test]
fn python_uses_of_bound_libraries_are_definite_and_their_bare_imports_probable() {
    check_case("python/bound-clients");
}

#[test]
fn swift_uses_of_bound_libraries_are_definite_and_their_bare_imports_probable() {
    check_case("swift/bound-clients");
}

#[test]
fn go_imports_resolve_in_the_build_of_the_importing_module() {
    check_case("go/requires");
}

#[test]
fn java_imports_wildcards_and_same_package_uses_resolve_through_the_type_index() {
    check_case("java/spring");
}

#[test]
fn kotlin_imports_resolve_to_kotlin_and_java_declarations() {
    check_case("kotlin/android");
}

#[test]
fn csharp_edges_follow_the_types_a_file_uses_through_usings_and_namespaces() {
    check_case("csharp/webapi");
}

#[test]
fn rust_use_paths_and_mod_declarations_resolve_to_module_files_of_workspace_crates() {
    check_case("rust/workspace");
}

#[test]
fn swift_imports_resolve_to_swiftpm_targets_and_module_folders() {
    check_case("swift/package");
}

#[test]
fn github_actions_workflows_give_triggers_permissions_jobs_steps_actions_and_secrets() {
    check_case("github_actions/workflows");
}

#[test]
fn typescript_calls_and_assignments_carry_enum_members_and_syntactic_guards() {
    check_case("typescript/graph");
}

#[test]
fn csharp_calls_and_assignments_carry_enum_members_and_syntactic_guards() {
    check_case("csharp/graph");
}

#[test]
fn java_calls_and_assignments_carry_enum_members_and_syntactic_guards() {
    check_case("java/graph");
}

#[test]
fn kotlin_calls_and_assignments_carry_enum_members_and_syntactic_guards() {
    check_case("kotlin/graph");
}

#[test]
fn aspnet_gives_injections_registrations_resolutions_routes_roles_operations_and_requests() {
    check_case("csharp/aspnet");
}

#[test]
fn spring_gives_routes_roles_operations_and_requests() {
    check_case("java/web");
}

#[test]
fn python_routes_of_fastapi_flask_and_django_and_requests_of_requests_and_httpx() {
    check_case("python/web");
}

#[test]
fn go_routes_of_gin_and_net_http_and_requests_of_net_http() {
    check_case("go/web");
}

#[test]
fn kotlin_routes_of_spring_and_ktor_and_requests_of_retrofit_ktor_and_okhttp() {
    check_case("kotlin/web");
}

#[test]
fn rust_routes_of_axum_and_actix_and_requests_of_reqwest() {
    check_case("rust/web");
}

#[test]
fn chi_mounts_the_routers_functions_return_across_packages_and_closures() {
    check_case("go/chi-mounts");
}

#[test]
fn actix_handlers_and_configurations_of_other_files_take_the_scopes_they_are_mounted_in() {
    check_case("rust/mounts");
}

#[test]
fn axum_routers_of_other_files_take_the_prefixes_they_are_nested_at() {
    check_case("rust/nests");
}

#[test]
fn swift_routes_of_vapor_and_requests_of_url_session() {
    check_case("swift/web");
}

#[test]
fn python_calls_and_assignments_carry_enum_members_and_syntactic_guards() {
    check_case("python/graph");
}

#[test]
fn go_calls_and_assignments_carry_enum_members_and_syntactic_guards() {
    check_case("go/graph");
}

#[test]
fn a_rust_struct_pattern_field_with_an_attribute_is_read() {
    check_case("rust/pattern-attributes");
}

#[test]
fn rust_calls_and_assignments_carry_enum_members_and_syntactic_guards() {
    check_case("rust/graph");
}

#[test]
fn swift_calls_and_assignments_carry_enum_members_and_syntactic_guards() {
    check_case("swift/graph");
}

#[test]
fn java_qualified_static_nested_and_same_package_uses_resolve() {
    check_case("java/imports");
}

#[test]
fn kotlin_top_level_functions_aliases_objects_and_qualified_uses_resolve() {
    check_case("kotlin/imports");
}

#[test]
fn csharp_qualified_names_aliases_attributes_and_partial_classes_resolve() {
    check_case("csharp/usings");
}

#[test]
fn csharp_extension_method_calls_and_project_file_usings_resolve() {
    check_case("csharp/extensions");
}

#[test]
fn vue_and_svelte_components_are_read_as_their_scripts_and_resolve_as_modules() {
    check_case("typescript/components");
}

#[test]
fn sveltekit_aliases_resolve_inside_an_app_only() {
    check_case("typescript/sveltekit");
}

#[test]
fn generated_route_types_of_react_router_and_sveltekit_are_the_framework_s_modules() {
    check_case("typescript/route_types");
}

#[test]
fn an_import_that_leads_where_a_gitignore_puts_generated_code_is_generated_not_missing() {
    check_case("typescript/generated_imports");
}

#[test]
fn a_bundler_plugin_s_virtual_module_is_no_missing_project_file() {
    check_case("typescript/virtual_modules");
}

#[test]
fn nuxt_aliases_resolve_inside_an_app() {
    check_case("typescript/nuxt");
}

#[test]
fn a_kotlin_wildcard_import_of_a_package_above_the_project_s_is_external() {
    check_case("kotlin/split-packages");
}

#[test]
fn csharp_types_are_seen_through_project_references_and_own_global_usings() {
    check_case("csharp/projects");
}

#[test]
fn a_client_package_the_project_declares_itself_is_no_outside_client_in_java() {
    check_case("java/own-clients");
}

#[test]
fn a_client_package_the_project_declares_itself_is_no_outside_client_in_python() {
    check_case("python/own-package");
}

#[test]
fn a_client_crate_the_project_declares_itself_is_no_outside_client_in_rust() {
    check_case("rust/own-crate");
}

#[test]
fn a_client_module_the_project_declares_itself_is_no_outside_client_in_swift() {
    check_case("swift/own-module");
}

#[test]
fn folders_off_the_path_never_shadow_the_standard_library_and_stubs_answer_only_stubs() {
    check_case("python/weak-roots");
}

#[test]
fn a_class_that_several_modules_copy_resolves_to_the_importer_s_own_module() {
    check_case("java/modules");
}

#[test]
fn kotlin_build_scripts_declare_nothing_other_scripts_import() {
    check_case("kotlin/scripts");
}

#[test]
fn kotlin_context_parameters_are_read_and_their_types_stay_used() {
    check_case("kotlin/context");
}

#[test]
fn a_kotlin_class_the_parser_gives_up_on_is_declared_and_its_members_are_not() {
    check_case_with_parse_errors("kotlin/recovery", &["p/Spec.kt"]);
}

#[test]
fn a_csharp_name_binds_in_the_innermost_enclosing_namespace_before_the_usings() {
    check_case("csharp/namespaces");
}

#[test]
fn a_csharp_alias_hides_the_types_of_its_name_the_usings_namespaces_import() {
    check_case("csharp/aliases");
}

#[test]
fn a_csharp_conditional_group_that_splits_an_expression_is_read_with_its_first_branch() {
    check_case("csharp/conditional");
}

#[test]
fn a_csharp_interpolated_string_whose_escaped_brace_runs_into_a_hole_is_read() {
    check_case("csharp/interpolation");
}

#[test]
fn swift_directives_and_diagnostics_the_grammar_cannot_read_are_read_with_every_branch() {
    check_case("swift/conditional");
}

#[test]
fn a_csharp_14_extension_block_uses_its_receiver_type_and_injects_nothing() {
    check_case("csharp/extension_blocks");
}

#[test]
fn a_csharp_member_named_like_a_class_is_no_use_of_it() {
    check_case("csharp/members");
}

#[test]
fn a_java_type_declared_inside_another_shadows_the_package_s_type_of_its_name() {
    check_case("java/nested");
}

#[test]
fn a_kotlin_class_or_object_declared_inside_another_shadows_the_package_s_of_its_name() {
    check_case("kotlin/nested");
}

#[test]
fn aspnet_actions_without_a_route_template_take_the_conventional_route() {
    check_case("csharp/conventional");
}

#[test]
fn a_csharp_type_declared_inside_another_shadows_the_namespace_s_type_of_its_name() {
    check_case("csharp/nested");
}

#[test]
fn a_python_comment_at_column_0_after_an_indented_decorator_is_no_syntax_error() {
    check_case("python/comments");
}
