//! Dapper's queries are extension methods on any `IDbConnection`, so a query handler that takes
//! its connection from a factory names no provider type; its `QueryAsync` call is still a
//! definite database access, and a domain rule against the database blocks on it, through the
//! real binary. A method of the same name in a file without `using Dapper;` is no access.

use super::{json_run, lintel, write_files};

const SPEC: &str = "node app : server\n\
                    node db : mssql\n\
                    component Domain { runs_on: app paths: \"src/Domain/**\" }\n\
                    component Jobs { runs_on: app paths: \"src/Jobs/**\" }\n\
                    invariant Layers { deny flow Domain -> db  deny flow Jobs -> db }\n";

const HANDLER: &str = "using System.Data;\nusing Dapper;\n\nnamespace Shop.Domain;\n\n\
public class OrderCount\n{\n    private readonly IDbConnection _connection;\n\n\
    public OrderCount(IDbConnection connection) => _connection = connection;\n\n\
    public async Task<int> RunAsync()\n    {\n        var sql = \"SELECT COUNT(*) FROM orders\";\n\
        return await _connection.QuerySingleAsync<int>(sql);\n    }\n}\n";

const JOB: &str = "namespace Shop.Jobs;\n\npublic interface ICommand { void Execute(); }\n\n\
public class Runner\n{\n    public void Run(ICommand command) => command.Execute();\n}\n";

#[test]
fn a_dapper_query_on_a_factory_connection_is_a_definite_access_that_blocks() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            ("architecture.ag", SPEC),
            ("src/Domain/OrderCount.cs", HANDLER),
            ("src/Jobs/Runner.cs", JOB),
        ],
    );
    let (code, verdict) = json_run(
        lintel()
            .args(["check", "--all", "--json", "--no-cache", "--project"])
            .arg(project.path()),
    );
    assert_eq!(code, 1, "{verdict:#}");
    let found = crate::detections(&verdict);
    assert_eq!(
        found,
        [(
            "deny flow Domain -> db",
            "src/Domain/OrderCount.cs",
            15,
            "definite"
        )]
    );
    assert_eq!(
        verdict["warnings"].as_array().unwrap().len(),
        0,
        "{verdict:#}"
    );
}
