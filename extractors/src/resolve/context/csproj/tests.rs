use std::collections::BTreeMap;

use super::*;

fn discover(files: &[(&str, &str)]) -> CSharpProjects {
    let texts: BTreeMap<String, String> = files
        .iter()
        .map(|(path, text)| ((*path).to_owned(), (*text).to_owned()))
        .collect();
    let reader = ConfigReader::from_source(|path| texts.get(path).cloned());
    CSharpProjects::discover(&reader, texts.keys().map(String::as_str))
}

fn namespaces(usings: Option<&ProjectUsings>) -> Vec<&str> {
    usings
        .map(|usings| usings.namespaces.iter().map(String::as_str).collect())
        .unwrap_or_default()
}

#[test]
fn using_items_are_global_usings_of_the_files_under_the_project() {
    let projects = discover(&[(
        "src/Web/Web.csproj",
        r#"<Project Sdk="Microsoft.NET.Sdk">
  <!-- <Using Include="Commented.Out" /> -->
  <ItemGroup>
    <Using Include="Acme.Domain" />
    <Using Include="Acme.Orders.Order" Alias="Purchase" />
    <Using Include="Acme.Util.Texts" Static="true" />
    <Using Include="Acme.Shared">
      <Alias>Shared</Alias>
    </Using>
    <Using Include="$(RootNamespace).Skipped;Acme.Second" />
    <Using Remove="Acme.Second" />
  </ItemGroup>
</Project>"#,
    )]);
    let usings = projects.usings_of("src/Web/Pages/Index.cs");
    assert_eq!(namespaces(usings), ["Acme.Domain"]);
    let usings = usings.cloned().unwrap_or_default();
    assert_eq!(
        usings.aliases,
        BTreeMap::from([
            ("Purchase".to_owned(), "Acme.Orders.Order".to_owned()),
            ("Shared".to_owned(), "Acme.Shared".to_owned()),
        ])
    );
    assert_eq!(
        usings.statics.iter().collect::<Vec<_>>(),
        ["Acme.Util.Texts"]
    );
    assert!(projects.usings_of("src/Other/File.cs").is_none());
}

#[test]
fn implicit_usings_follow_the_sdk_and_the_last_definition() {
    let projects = discover(&[
        (
            "Directory.Build.props",
            "<Project><PropertyGroup><ImplicitUsings>enable</ImplicitUsings></PropertyGroup></Project>",
        ),
        (
            "src/Api/Api.csproj",
            r#"<Project Sdk="Microsoft.NET.Sdk.Web">
  <ItemGroup><Using Remove="System.Net.Http" /></ItemGroup>
</Project>"#,
        ),
        ("src/Core/Core.csproj", r#"<Project Sdk="Microsoft.NET.Sdk"></Project>"#),
        (
            "src/Legacy/Legacy.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><ImplicitUsings>disable</ImplicitUsings></PropertyGroup></Project>",
        ),
        (
            "src/Jobs/Jobs.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk.Worker/1.0\"></Project>",
        ),
    ]);
    let api = namespaces(projects.usings_of("src/Api/Program.cs"));
    assert!(api.contains(&"Microsoft.Extensions.DependencyInjection"));
    assert!(api.contains(&"Microsoft.AspNetCore.Builder"));
    assert!(api.contains(&"System.Linq"));
    assert!(!api.contains(&"System.Net.Http"), "removed by the project");
    let core = namespaces(projects.usings_of("src/Core/Entities/Order.cs"));
    let mut expected = BASE_USINGS.to_vec();
    expected.sort_unstable();
    assert_eq!(core, expected);
    assert!(namespaces(projects.usings_of("src/Legacy/A.cs")).is_empty());
    let jobs = namespaces(projects.usings_of("src/Jobs/Worker.cs"));
    assert!(jobs.contains(&"Microsoft.Extensions.Hosting"));
    assert!(!jobs.contains(&"Microsoft.AspNetCore.Builder"));
}

#[test]
fn the_nearest_props_file_applies_and_imports_the_one_above_only_when_asked() {
    let props = |body: &str| format!("<Project><ItemGroup>{body}</ItemGroup></Project>");
    let root = props(r#"<Using Include="Root.Namespace" />"#);
    let tests = props(r#"<Using Include="Tests.Namespace" />"#);
    let chained = "<Project><Import Project=\"$([MSBuild]::GetPathOfFileAbove('Directory.Build.props', '$(MSBuildThisFileDirectory)../'))\" /><ItemGroup><Using Include=\"Samples.Namespace\" /></ItemGroup></Project>";
    let projects = discover(&[
        ("Directory.Build.props", root.as_str()),
        ("tests/Directory.Build.props", tests.as_str()),
        (
            "tests/Unit/Unit.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\" />",
        ),
        ("samples/Directory.Build.props", chained),
        (
            "samples/App/App.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\" />",
        ),
        (
            "src/App/App.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\" />",
        ),
    ]);
    assert_eq!(
        namespaces(projects.usings_of("tests/Unit/OrderTests.cs")),
        ["Tests.Namespace"]
    );
    assert_eq!(
        namespaces(projects.usings_of("samples/App/Program.cs")),
        ["Root.Namespace", "Samples.Namespace"]
    );
    assert_eq!(
        namespaces(projects.usings_of("src/App/Program.cs")),
        ["Root.Namespace"]
    );
}

#[test]
fn tags_skip_comments_and_keep_quoted_angle_brackets() {
    let file = MsBuildFile::parse(
        "<?xml version=\"1.0\"?>\n<!-- <ImplicitUsings>enable</ImplicitUsings> -->\n<Project Sdk='Microsoft.NET.Sdk.Web'>\n<ItemGroup Condition=\"'$(A)' > '1'\"><Using Include=\"A&amp;B\"/></ItemGroup>\n<![CDATA[<Using Include=\"Hidden\" />]]></Project>",
    );
    assert_eq!(file.implicit_usings, None);
    assert_eq!(file.sdks, ["Microsoft.NET.Sdk.Web"]);
    assert_eq!(
        file.operations,
        [Operation::Include(UsingItem::namespace("A&B"))]
    );
}

#[test]
fn a_project_sees_the_projects_it_references_and_their_references() {
    let projects = discover(&[
        (
            "src/Web/Web.csproj",
            r#"<Project Sdk="Microsoft.NET.Sdk.Web"><ItemGroup><ProjectReference Include="..\Infrastructure\Infrastructure.csproj" /></ItemGroup></Project>"#,
        ),
        (
            "src/Infrastructure/Infrastructure.csproj",
            r#"<Project Sdk="Microsoft.NET.Sdk"><ItemGroup><ProjectReference Include="../Domain/Domain.csproj" /></ItemGroup></Project>"#,
        ),
        (
            "src/Domain/Domain.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\" />",
        ),
        ("tools/Tool.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\" />"),
    ]);
    let (web, infrastructure, domain, tool) = (
        Some("src/Web"),
        Some("src/Infrastructure"),
        Some("src/Domain"),
        Some("tools"),
    );
    assert!(projects.sees(web, infrastructure, true));
    assert!(projects.sees(web, domain, true), "transitively");
    assert!(!projects.sees(domain, web, true), "not backwards");
    assert!(!projects.sees(web, tool, true));
    assert!(!projects.sees(web, infrastructure, false), "internal");
    assert!(projects.sees(domain, domain, false));
    assert!(projects.sees(None, domain, true), "outside every project");
    assert_eq!(projects.project_of("src/Web/Pages/Index.cs"), web);
}

#[test]
fn a_project_whose_references_are_not_all_known_sees_every_project() {
    let projects = discover(&[
        (
            "src/Web/Web.csproj",
            r#"<Project Sdk="Microsoft.NET.Sdk.Web"><ItemGroup><ProjectReference Include="$(RepoRoot)src/Infrastructure/Infrastructure.csproj" /></ItemGroup></Project>"#,
        ),
        (
            "src/Api/Api.csproj",
            r#"<Project Sdk="Microsoft.NET.Sdk.Web"><ItemGroup><ProjectReference Include="..\Web\Web.csproj" /></ItemGroup></Project>"#,
        ),
        (
            "src/Infrastructure/Infrastructure.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\" />",
        ),
        (
            "src/Domain/Domain.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\" />",
        ),
        // A reference in a props file counts for every project below it, relative to the
        // project's folder.
        (
            "tests/Directory.Build.props",
            r#"<Project><ItemGroup><ProjectReference Include="..\..\src\Domain\Domain.csproj" /></ItemGroup></Project>"#,
        ),
        (
            "tests/Unit/Unit.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\" />",
        ),
    ]);
    let (web, api, infrastructure, domain, unit) = (
        Some("src/Web"),
        Some("src/Api"),
        Some("src/Infrastructure"),
        Some("src/Domain"),
        Some("tests/Unit"),
    );
    assert!(projects.sees(web, infrastructure, true));
    assert!(
        projects.sees(web, domain, true),
        "a `$(…)` reference may be any project"
    );
    assert!(!projects.sees(web, infrastructure, false), "internal");
    assert!(
        projects.sees(api, domain, true),
        "through a project that references it"
    );
    assert!(!projects.sees(infrastructure, domain, true));
    assert!(projects.sees(unit, domain, true), "from the props file");
    assert!(!projects.sees(unit, web, true));
}

/// MSBuild imports the nearest `Directory.Build.targets` at or above a project after the project
/// file, and its `<ProjectReference>` items are the project's (kgrzybek/modular-monolith-with-ddd
/// declares every reference there: its API's `Startup` calls each module's
/// `MeetingsStartup.Initialize(…)`, which no reference in a project file shows). Their
/// conditions are not evaluated, so a reference there counts for every project below it, and
/// one through a wildcard folder (`..\..\Modules\**\Infrastructure\*.csproj`) may be any
/// project.
#[test]
fn references_of_a_build_targets_file_count_for_the_projects_below_it() {
    let projects = discover(&[
        (
            "src/Directory.Build.targets",
            r#"<Project>
  <ItemGroup Condition="$(MSBuildProjectName.EndsWith('Application'))">
    <ProjectReference Include="..\Domain\*.csproj" />
  </ItemGroup>
</Project>"#,
        ),
        (
            "src/Orders/Application/Orders.Application.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\" />",
        ),
        (
            "src/Orders/Domain/Orders.Domain.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\" />",
        ),
        (
            "src/Billing/Domain/Billing.Domain.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\" />",
        ),
        (
            "host/Directory.Build.targets",
            r#"<Project><ItemGroup><ProjectReference Include="..\src\**\Application\*.csproj" /></ItemGroup></Project>"#,
        ),
        (
            "host/Api/Api.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk.Web\" />",
        ),
        ("tools/Tool.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\" />"),
    ]);
    let (application, domain, billing, api, tool) = (
        Some("src/Orders/Application"),
        Some("src/Orders/Domain"),
        Some("src/Billing/Domain"),
        Some("host/Api"),
        Some("tools"),
    );
    assert!(projects.sees(application, domain, true));
    assert!(!projects.sees(application, billing, true));
    assert!(!projects.sees(domain, application, true), "not backwards");
    assert!(
        projects.sees(api, application, true),
        "a wildcard folder may be any project"
    );
    assert!(projects.sees(api, billing, true));
    assert!(
        !projects.sees(tool, domain, true),
        "no targets file above it"
    );
    assert!(is_project_input("src/Directory.Build.targets"));
}
