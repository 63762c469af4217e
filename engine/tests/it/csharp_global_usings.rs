//! A C# file that takes a client library's namespace from a `global using` of its project (the
//! `GlobalUsings.cs` of .NET 6 templates) uses the library's client as a file that writes the
//! `using` itself does: `ConnectionMultiplexer.Connect(…)` is a definite Redis access there too.

use super::{check_all, write_files};

#[test]
fn a_client_whose_namespace_comes_from_a_global_using_is_a_definite_access() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            (
                "architecture.ag",
                "node app : server\nnode cache : redis\ncomponent Shop { runs_on: app paths: \"Shop/**\" }\ninvariant L { deny flow Shop -> cache }\n",
            ),
            (
                "Shop/Shop.csproj",
                "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup><TargetFramework>net8.0</TargetFramework><ImplicitUsings>enable</ImplicitUsings></PropertyGroup>\n</Project>\n",
            ),
            ("Shop/GlobalUsings.cs", "global using StackExchange.Redis;\n"),
            (
                "Shop/Bus.cs",
                "namespace Shop;\n\npublic class Bus\n{\n    public void Put(string key)\n    {\n        var redis = ConnectionMultiplexer.Connect(\"localhost\");\n        redis.GetDatabase().StringSet(key, \"x\");\n    }\n}\n",
            ),
        ],
    );
    let (code, verdict) = check_all(project.path());
    assert_eq!(code, 1, "{verdict:#}");
    assert_eq!(
        crate::detections(&verdict),
        vec![("deny flow Shop -> cache", "Shop/Bus.cs", 7, "definite")]
    );
}
