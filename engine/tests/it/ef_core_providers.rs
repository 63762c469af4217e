//! EF Core contexts take the store of their provider through the real binary: a `DbContext`
//! subclass registered with `AddDbContextPool<T>(o => o.UseSqlServer(…))` in another file, one
//! registered with `AddDbContextFactory<IReports, T>` and Aspire's `AddNpgsqlDbContext<T>`, one
//! configured in its own `OnConfiguring`, one by a design-time factory and one by a
//! `new DbContextOptionsBuilder<T>().UseNpgsql(…)`, each bind to the one node of their store in a spec with
//! a SQL Server and a PostgreSQL node, so `deny flow` fails definitely at the context, and only
//! for that node. A context whose provider the project does not show, or whose registrations name
//! two stores, stays a generic relational access: a probable one to each node.

use super::{check_all, json_run, lintel, write_files};

const SPEC: &str = "node app : server\n\
                    node sqlserver : mssql\n\
                    node pg : postgres\n\
                    component Api { runs_on: app paths: \"Api/**\" }\n\
                    component Data { runs_on: app paths: \"Data/**\" }\n\
                    invariant Stores { deny flow Data -> pg  deny flow Data -> sqlserver }\n";

const PROGRAM: &str = "using Microsoft.EntityFrameworkCore;\n\
using Acme.Data;\n\
\n\
var builder = WebApplication.CreateBuilder(args);\n\
builder.Services.AddDbContextPool<OrdersContext>(options =>\n\
    options.UseSqlServer(builder.Configuration.GetConnectionString(\"orders\")));\n\
builder.Services.AddDbContextFactory<IReports, ReportsContext>(o => o.UseSqlServer(\"reports\"));\n\
builder.AddNpgsqlDbContext<Acme.Data.SearchContext>(\"search\");\n\
builder.Services.AddDbContext<MixedContext>(o => o.UseSqlite(\"Data Source=mixed.db\"));\n\
builder.Services.AddDbContext<MixedContext>(o => o.UseSqlServer(\"mixed\"));\n\
var app = builder.Build();\n\
app.Run();\n\
var archive = new DbContextOptionsBuilder<ArchiveContext>().UseNpgsql(\"archive\").Options;\n";

/// A context class of `Data/` whose constructor takes its options.
fn context(name: &str) -> String {
    format!(
        "using Microsoft.EntityFrameworkCore;\n\nnamespace Acme.Data;\n\n\
         public class {name} : DbContext\n{{\n    \
         public {name}(DbContextOptions<{name}> options) : base(options) {{ }}\n}}\n"
    )
}

const CATALOG: &str = "using Microsoft.EntityFrameworkCore;\n\
\n\
namespace Acme.Data;\n\
\n\
public class CatalogContext : DbContext\n\
{\n\
    protected override void OnConfiguring(DbContextOptionsBuilder optionsBuilder)\n\
    {\n\
        optionsBuilder.UseNpgsql(\"Host=db;Database=catalog\");\n\
    }\n\
}\n";

const AUDIT_FACTORY: &str = "using Microsoft.EntityFrameworkCore;\n\
using Microsoft.EntityFrameworkCore.Design;\n\
\n\
namespace Acme.Data;\n\
\n\
public class AuditFactory : IDesignTimeDbContextFactory<AuditContext>\n\
{\n\
    public AuditContext CreateDbContext(string[] args)\n\
    {\n\
        var builder = new DbContextOptionsBuilder<AuditContext>();\n\
        builder.UseSqlServer(\"audit\");\n\
        return new AuditContext(builder.Options);\n\
    }\n\
}\n";

#[test]
fn a_context_binds_to_the_node_of_the_provider_it_is_configured_with() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            ("architecture.ag", SPEC),
            ("Api/Program.cs", PROGRAM),
            ("Data/OrdersContext.cs", &context("OrdersContext")),
            ("Data/ReportsContext.cs", &context("ReportsContext")),
            ("Data/SearchContext.cs", &context("SearchContext")),
            ("Data/MixedContext.cs", &context("MixedContext")),
            ("Data/LegacyContext.cs", &context("LegacyContext")),
            ("Data/CatalogContext.cs", CATALOG),
            ("Data/ArchiveContext.cs", &context("ArchiveContext")),
            ("Data/AuditContext.cs", &context("AuditContext")),
            ("Data/AuditFactory.cs", AUDIT_FACTORY),
        ],
    );
    let (code, verdict) = check_all(project.path());
    assert_eq!(code, 1, "{verdict:#}");
    assert_eq!(
        crate::detections(&verdict),
        [
            (
                "deny flow Data -> pg",
                "Data/ArchiveContext.cs",
                5,
                "definite"
            ),
            (
                "deny flow Data -> pg",
                "Data/CatalogContext.cs",
                5,
                "definite"
            ),
            (
                "deny flow Data -> pg",
                "Data/CatalogContext.cs",
                9,
                "definite"
            ),
            (
                "deny flow Data -> pg",
                "Data/SearchContext.cs",
                5,
                "definite"
            ),
            (
                "deny flow Data -> sqlserver",
                "Data/AuditContext.cs",
                5,
                "definite"
            ),
            (
                "deny flow Data -> sqlserver",
                "Data/AuditFactory.cs",
                11,
                "definite"
            ),
            (
                "deny flow Data -> sqlserver",
                "Data/OrdersContext.cs",
                5,
                "definite"
            ),
            (
                "deny flow Data -> sqlserver",
                "Data/ReportsContext.cs",
                5,
                "definite"
            ),
        ]
    );
    // The contexts whose store is not known are probable accesses of both nodes.
    let probable: Vec<(&str, &str)> = verdict["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|warning| warning["code"] == "probable-fact")
        .map(|warning| {
            (
                warning["file"].as_str().unwrap(),
                warning["message"].as_str().unwrap(),
            )
        })
        .filter(|(file, _)| file.starts_with("Data/"))
        .collect();
    for file in ["Data/LegacyContext.cs", "Data/MixedContext.cs"] {
        for node in ["pg", "sqlserver"] {
            assert!(
                probable.iter().any(|(found, message)| *found == file
                    && message.contains(&format!("deny flow Data -> {node}"))),
                "{file} {node}: {probable:?}"
            );
        }
    }
}

#[test]
fn the_context_fact_names_its_provider_as_driver_and_where_it_is_configured() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            ("architecture.ag", SPEC),
            ("Api/Program.cs", PROGRAM),
            ("Data/OrdersContext.cs", &context("OrdersContext")),
        ],
    );
    let graph = crate::graph_document(project.path());
    let fact = graph["facts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|fact| {
            fact["kind"] == "accesses_technology"
                && fact["evidence"]["file"] == "Data/OrdersContext.cs"
        })
        .unwrap();
    assert_eq!(fact["technology"], "mssql");
    assert_eq!(
        fact["properties"]["driver"],
        "Microsoft.EntityFrameworkCore.SqlServer"
    );
    assert_eq!(
        fact["evidence"]["message"],
        "extension of `DbContext` from `Microsoft.EntityFrameworkCore`, configured with \
         `options.UseSqlServer` (Api/Program.cs:6)"
    );
}

#[test]
fn a_cached_context_follows_the_registration_as_it_is_now() {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            ("architecture.ag", SPEC),
            ("Api/Program.cs", PROGRAM),
            ("Data/OrdersContext.cs", &context("OrdersContext")),
        ],
    );
    let run = || {
        let (_, verdict) = json_run(
            lintel()
                .args(["check", "--all", "--json", "--project"])
                .arg(project.path())
                .env("XDG_CACHE_HOME", home.path()),
        );
        let found: Vec<(String, String)> = crate::rules_and_files(&verdict)
            .into_iter()
            .map(|(rule, file)| (rule.to_owned(), file.to_owned()))
            .collect();
        (found, verdict["stats"]["files_cached"].as_u64().unwrap())
    };
    let orders = |node: &str| {
        vec![(
            format!("deny flow Data -> {node}"),
            "Data/OrdersContext.cs".to_owned(),
        )]
    };
    assert_eq!(run(), (orders("sqlserver"), 0));
    assert_eq!(run(), (orders("sqlserver"), 2));
    // The registration moves the context to PostgreSQL; the context's file comes from the cache.
    std::fs::write(
        project.path().join("Api/Program.cs"),
        PROGRAM.replace("options.UseSqlServer(builder", "options.UseNpgsql(builder"),
    )
    .unwrap();
    assert_eq!(run(), (orders("pg"), 1));
}

/// Two services of one repository each name their context `AppDbContext`: a registration
/// configures the context of its name nearest its own file, so each binds to its own store.
#[test]
fn contexts_of_one_name_take_the_registrations_nearest_them() {
    let project = tempfile::tempdir().unwrap();
    let program = |provider: &str| {
        format!(
            "using Microsoft.EntityFrameworkCore;\n\nvar builder = WebApplication.CreateBuilder(args);\n\
             builder.Services.AddDbContext<AppDbContext>(o => o.{provider}(\"db\"));\n"
        )
    };
    write_files(
        project.path(),
        &[
            (
                "architecture.ag",
                "node app : server\nnode sqlserver : mssql\nnode pg : postgres\n\
                 component Orders { runs_on: app paths: \"services/orders/**\" }\n\
                 component Search { runs_on: app paths: \"services/search/**\" }\n\
                 invariant Stores { deny flow Orders -> pg  deny flow Search -> sqlserver  \
                 deny flow Orders -> sqlserver  deny flow Search -> pg }\n",
            ),
            ("services/orders/Api/Program.cs", &program("UseSqlServer")),
            (
                "services/orders/Data/AppDbContext.cs",
                &context("AppDbContext"),
            ),
            ("services/search/Api/Program.cs", &program("UseNpgsql")),
            (
                "services/search/Data/AppDbContext.cs",
                &context("AppDbContext"),
            ),
        ],
    );
    let (code, verdict) = check_all(project.path());
    assert_eq!(code, 1, "{verdict:#}");
    let mut found = crate::detections(&verdict);
    found.sort_unstable();
    assert_eq!(
        found,
        [
            (
                "deny flow Orders -> sqlserver",
                "services/orders/Api/Program.cs",
                4,
                "definite"
            ),
            (
                "deny flow Orders -> sqlserver",
                "services/orders/Data/AppDbContext.cs",
                5,
                "definite"
            ),
            (
                "deny flow Search -> pg",
                "services/search/Api/Program.cs",
                4,
                "definite"
            ),
            (
                "deny flow Search -> pg",
                "services/search/Data/AppDbContext.cs",
                5,
                "definite"
            ),
        ]
    );
}

/// Nodes bound to the provider libraries with `clients`: a context binds through its `driver`,
/// and one whose provider is not known stays unresolved (both nodes are bound, no guess).
#[test]
fn a_context_binds_to_the_node_whose_clients_name_its_provider() {
    let project = tempfile::tempdir().unwrap();
    let spec = SPEC
        .replace(
            "node sqlserver : mssql\n",
            "node sqlserver : mssql { clients: \"Microsoft.EntityFrameworkCore.SqlServer\" }\n",
        )
        .replace(
            "node pg : postgres\n",
            "node pg : postgres { clients: \"Npgsql.EntityFrameworkCore.PostgreSQL\" }\n",
        );
    write_files(
        project.path(),
        &[
            ("architecture.ag", &spec),
            ("Api/Program.cs", PROGRAM),
            ("Data/OrdersContext.cs", &context("OrdersContext")),
            ("Data/LegacyContext.cs", &context("LegacyContext")),
            ("Data/CatalogContext.cs", CATALOG),
        ],
    );
    let (code, verdict) = check_all(project.path());
    assert_eq!(code, 1, "{verdict:#}");
    assert_eq!(
        crate::rules_and_files(&verdict),
        [
            ("deny flow Data -> pg", "Data/CatalogContext.cs"),
            ("deny flow Data -> pg", "Data/CatalogContext.cs"),
            ("deny flow Data -> sqlserver", "Data/OrdersContext.cs"),
        ]
    );
    // `LegacyContext` (and Program.cs's bare import) bind to neither node: no guess.
    assert!(
        verdict["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|warning| warning["code"] == "unresolved-target"),
        "{verdict:#}"
    );
}

#[test]
fn an_injected_context_factory_takes_the_store_of_its_context() {
    const SERVICES_SPEC: &str = "node app : server\n\
                                 node sqlserver : mssql\n\
                                 node pg : postgres\n\
                                 component Api { runs_on: app paths: \"Api/**\" }\n\
                                 component Data { runs_on: app paths: \"Data/**\" }\n\
                                 component Services { runs_on: app paths: \"Services/**\" }\n\
                                 invariant Stores { deny flow Services -> pg  deny flow Services -> sqlserver }\n";
    const ORDERS: &str = "using Microsoft.EntityFrameworkCore;\n\
using Acme.Data;\n\
\n\
namespace Acme.Services;\n\
\n\
public class OrderService\n\
{\n\
    private readonly IDbContextFactory<OrdersContext> _orders;\n\
\n\
    public int Count()\n\
    {\n\
        using var db = _orders.CreateDbContext();\n\
        return 0;\n\
    }\n\
}\n";
    const SEARCH: &str = "using Microsoft.EntityFrameworkCore;\n\
\n\
namespace Acme.Services;\n\
\n\
public class SearchService(IDbContextFactory<Acme.Data.SearchContext> search)\n\
{\n\
}\n";
    const LEGACY: &str = "using Microsoft.EntityFrameworkCore;\n\
using Acme.Data;\n\
\n\
namespace Acme.Services;\n\
\n\
public class LegacyService(IDbContextFactory<LegacyContext> legacy)\n\
{\n\
}\n";
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            ("architecture.ag", SERVICES_SPEC),
            ("Api/Program.cs", PROGRAM),
            ("Data/OrdersContext.cs", &context("OrdersContext")),
            ("Data/SearchContext.cs", &context("SearchContext")),
            ("Data/LegacyContext.cs", &context("LegacyContext")),
            ("Services/OrderService.cs", ORDERS),
            ("Services/SearchService.cs", SEARCH),
            ("Services/LegacyService.cs", LEGACY),
        ],
    );
    let (code, verdict) = check_all(project.path());
    assert_eq!(code, 1, "{verdict:#}");
    assert_eq!(
        crate::detections(&verdict),
        [
            (
                "deny flow Services -> pg",
                "Services/SearchService.cs",
                5,
                "definite"
            ),
            (
                "deny flow Services -> sqlserver",
                "Services/OrderService.cs",
                8,
                "definite"
            ),
        ]
    );
    // The factory of a context whose store is not known is a probable access of both nodes.
    let probable: Vec<&str> = verdict["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|warning| {
            warning["code"] == "probable-fact" && warning["file"] == "Services/LegacyService.cs"
        })
        .map(|warning| warning["message"].as_str().unwrap())
        .collect();
    for node in ["pg", "sqlserver"] {
        assert!(
            probable
                .iter()
                .any(|message| message.contains(&format!("deny flow Services -> {node}"))),
            "{node}: {probable:?}"
        );
    }
}

/// eShopOnWeb's shape: a helper method registers the context with the in-memory provider when a
/// setting asks for it, and with SQL Server otherwise.
const DEPENDENCIES: &str = "using Microsoft.EntityFrameworkCore;\n\
using Microsoft.Extensions.Configuration;\n\
using Microsoft.Extensions.DependencyInjection;\n\
\n\
namespace Acme.Data;\n\
\n\
public static class Dependencies\n\
{\n\
    public static void ConfigureServices(IConfiguration configuration, IServiceCollection services)\n\
    {\n\
        if (configuration[\"UseOnlyInMemoryDatabase\"] != null)\n\
        {\n\
            services.AddDbContext<ShopContext>(c => c.UseInMemoryDatabase(\"Shop\"));\n\
        }\n\
        else\n\
        {\n\
            services.AddDbContext<ShopContext>(c =>\n\
                c.UseSqlServer(configuration.GetConnectionString(\"ShopConnection\")));\n\
        }\n\
        services.AddDbContext<ScratchContext>(c => c.UseInMemoryDatabase(\"Scratch\"));\n\
    }\n\
}\n";

#[test]
fn the_in_memory_provider_beside_a_real_one_leaves_the_context_the_real_store() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            ("architecture.ag", SPEC),
            ("Data/Dependencies.cs", DEPENDENCIES),
            ("Data/ShopContext.cs", &context("ShopContext")),
            ("Data/ScratchContext.cs", &context("ScratchContext")),
        ],
    );
    let graph = crate::graph_document(project.path());
    let technology = |file: &str| definite_technologies(&graph, file);
    // The context configured with SQL Server and, on a switch, the in-memory provider is SQL
    // Server's; the one only the in-memory provider configures stays in-process.
    assert_eq!(technology("Data/ShopContext.cs"), ["mssql"]);
    assert_eq!(technology("Data/ScratchContext.cs"), ["local_database"]);
    let (code, verdict) = check_all(project.path());
    assert_eq!(code, 1, "{verdict:#}");
    let detections = crate::detections(&verdict);
    assert!(
        detections.contains(&(
            "deny flow Data -> sqlserver",
            "Data/ShopContext.cs",
            5,
            "definite"
        )),
        "{detections:?}"
    );
    assert!(
        !detections
            .iter()
            .any(|(rule, file, _, _)| *rule == "deny flow Data -> pg"
                || *file == "Data/ScratchContext.cs"),
        "{detections:?}"
    );
}

/// The provider in a helper method: one takes the context's generic options builder, the other
/// a plain builder and is named by the registration (a method group, or a call in a lambda).
const HELPERS: &str = "using Microsoft.EntityFrameworkCore;\n\
using Microsoft.Extensions.DependencyInjection;\n\
\n\
namespace Acme.Data;\n\
\n\
public static class Registrations\n\
{\n\
    public static void AddStores(IServiceCollection services)\n\
    {\n\
        services.AddDbContext<BillingContext>(ConfigureBilling);\n\
        services.AddDbContext<LedgerContext>((sp, o) => ConfigureLedger(o, \"ledger\"));\n\
    }\n\
\n\
    private static void ConfigureBilling(DbContextOptionsBuilder options) =>\n\
        options.UseSqlServer(\"billing\");\n\
\n\
    private static void ConfigureLedger(DbContextOptionsBuilder options, string name)\n\
    {\n\
        options.UseNpgsql(name);\n\
    }\n\
\n\
    public static void ConfigureArchive(DbContextOptionsBuilder<ArchiveContext> options)\n\
    {\n\
        options.UseNpgsql(\"archive\");\n\
    }\n\
}\n";

#[test]
fn a_provider_in_a_helper_method_configures_the_context_it_is_registered_for() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            ("architecture.ag", SPEC),
            ("Api/Registrations.cs", HELPERS),
            ("Data/BillingContext.cs", &context("BillingContext")),
            ("Data/LedgerContext.cs", &context("LedgerContext")),
            ("Data/ArchiveContext.cs", &context("ArchiveContext")),
        ],
    );
    let graph = crate::graph_document(project.path());
    let technology = |file: &str| definite_technologies(&graph, file);
    assert_eq!(technology("Data/BillingContext.cs"), ["mssql"]);
    assert_eq!(technology("Data/LedgerContext.cs"), ["postgres"]);
    assert_eq!(technology("Data/ArchiveContext.cs"), ["postgres"]);
}

/// The technologies of the definite `accesses_technology` facts of `file` in a graph document.
fn definite_technologies(graph: &serde_json::Value, file: &str) -> Vec<String> {
    graph["facts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|fact| {
            fact["kind"] == "accesses_technology"
                && fact["evidence"]["file"] == file
                && fact["confidence"] == "definite"
        })
        .map(|fact| fact["technology"].as_str().unwrap().to_owned())
        .collect()
}
