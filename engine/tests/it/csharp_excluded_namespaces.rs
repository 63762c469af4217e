//! A C# `using` of a namespace that only files the spec excludes declare: Kavita's
//! `AutoMapperProfiles.cs` has `using API.Data.Migrations;`, and a spec that excludes the EF Core
//! migrations (`API/Data/Migrations/**`, never read) made it an unresolved import. A file the
//! spec excludes may declare the namespace its folder names, so the `using` is neither reported
//! nor an outside package's;
//! a namespace whose folder holds no file at all still is.

use super::{check_all, graph_document, write_files};

const SPEC: &str = "node app : server\n\
                    component Api { runs_on: app paths: \"API/**\" }\n\
                    invariant Modules { deny unresolved imports in * }\n\
                    exclude [\"API/Data/Migrations/**\"]\n";

#[test]
fn a_using_of_a_namespace_only_excluded_files_declare_is_no_unresolved_import() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            ("architecture.ag", SPEC),
            ("API/API.csproj", "<Project Sdk=\"Microsoft.NET.Sdk.Web\"></Project>\n"),
            (
                "API/Data/DataContext.cs",
                "namespace API.Data;\npublic class DataContext {}\n",
            ),
            (
                "API/Data/Migrations/20240101_Initial.cs",
                "namespace API.Data.Migrations;\npublic partial class Initial {}\n",
            ),
            (
                "API/Helpers/Profiles.cs",
                "using API.Data;\nusing API.Data.Migrations;\nnamespace API.Helpers;\npublic class Profiles { DataContext context; }\n",
            ),
        ],
    );
    let (code, verdict) = check_all(project.path());
    assert_eq!(code, 0, "{verdict:#}");
    assert_eq!(crate::detections(&verdict), Vec::new());
    // Nor is it an outside package's: the `using` makes no fact.
    let graph = graph_document(project.path());
    let named: Vec<&str> = graph["facts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|fact| fact["properties"]["specifier"] == "API.Data.Migrations")
        .map(|fact| fact["kind"].as_str().unwrap())
        .collect();
    assert_eq!(named, Vec::<&str>::new());
    // A namespace no file may declare is still missing.
    crate::assert_one_unresolved_after_writing(
        project.path(),
        "API/Helpers/Profiles.cs",
        "using API.Data;\nusing API.Data.Gone;\nnamespace API.Helpers;\npublic class Profiles { DataContext context; }\n",
        2,
    );
}
