//! A C# `using` alias hides the types of its name that `using` namespaces import
//! (bitwarden/server's `GrantedAccessPolicyRequest.cs`): the real binary on a project whose Api
//! aliases the Core entity `Foo` beside a using of Infra's namespace, which declares a `Foo` too.

use super::{graph_document, json_run, lintel, write_files};

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            (
                "architecture.ag",
                "node app : server\n\
                 component Api { runs_on: app paths: \"Api/**\" }\n\
                 component Infra { runs_on: app paths: \"Infra/**\" }\n\
                 component Core { runs_on: app paths: \"Core/**\" }\n\
                 invariant L { deny flow Api -> Infra }\n",
            ),
            (
                "Infra/Foo.cs",
                "namespace Infra.Models; public class Foo : Core.Entities.Foo {}\n",
            ),
            (
                "Core/Foo.cs",
                "namespace Core.Entities; public class Foo {}\n",
            ),
            (
                "Api/Req.cs",
                "using Infra.Models; using Foo = Core.Entities.Foo; namespace Api; public class Req { public Foo Make() => new Foo(); }\n",
            ),
        ],
    );
    dir
}

#[test]
fn a_csharp_alias_hides_the_type_of_its_name_a_using_imports_and_flows_to_its_own() {
    let project = project();
    let (code, verdict) = json_run(
        lintel()
            .args(["check", "--all", "--json", "--no-cache", "--project"])
            .arg(project.path()),
    );
    assert_eq!(code, 0, "{verdict:#}");
    assert_eq!(verdict["verdict"], "pass");
    assert_eq!(verdict["violations"].as_array().map(Vec::len), Some(0));
    // Api/Req.cs's edges: the alias's, to Core's file; none to Infra's `Foo`.
    let graph = graph_document(project.path());
    let mut edges: Vec<(&str, &str)> = graph["facts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|fact| fact["kind"] == "import")
        .map(|fact| {
            (
                fact["evidence"]["file"].as_str().unwrap(),
                fact["properties"]["resolved"].as_str().unwrap(),
            )
        })
        .collect();
    edges.sort_unstable();
    assert_eq!(
        edges,
        [
            ("Api/Req.cs", "Core/Foo.cs"),
            ("Infra/Foo.cs", "Core/Foo.cs")
        ]
    );
}
