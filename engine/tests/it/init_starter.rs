//! `lintel init` without `--from`, end to end through the real binary: a git repository with
//! TypeScript workspace packages, Python packages and Go packages gets components, a node bound
//! to the client it uses and the rules that hold today; the spec passes `check --all`, and a
//! change that breaks a proposed rule fails it. `--print`, `--force` and `--from` as well.

use std::path::Path;

use super::{git, json_run, lintel, write_files};

/// A committed repository: `packages/web` uses `packages/core`, which uses `packages/db`, which
/// opens a PostgreSQL pool; the Python package `etl` uses `analytics`; the Go command `cli`
/// uses the package tree `lib`. A test of the web package reads the database directly: tests
/// are left out of the architecture.
fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_files(
        root,
        &[
            (
                "package.json",
                "{ \"name\": \"shop\", \"private\": true, \"workspaces\": [\"packages/*\"] }\n",
            ),
            ("packages/web/package.json", "{ \"name\": \"@shop/web\" }\n"),
            (
                "packages/web/src/page.ts",
                "import { total } from \"../../core/src/cart\";\nexport const page = () => total();\n",
            ),
            (
                "packages/web/src/page.test.ts",
                "import { query } from \"../../db/src/pool\";\nexport const seed = () => query(\"insert\");\n",
            ),
            ("packages/core/package.json", "{ \"name\": \"@shop/core\" }\n"),
            (
                "packages/core/src/cart.ts",
                "import { query } from \"../../db/src/pool\";\nexport const total = () => query(\"select 1\");\n",
            ),
            (
                "packages/core/src/price.ts",
                "import { query } from \"../../db/src/pool\";\nexport const price = () => query(\"select 2\");\n",
            ),
            ("packages/db/package.json", "{ \"name\": \"@shop/db\" }\n"),
            (
                "packages/db/src/pool.ts",
                "import { Pool } from \"pg\";\nconst pool = new Pool();\nexport const query = (text: string) => pool.query(text);\n",
            ),
            ("analytics/__init__.py", ""),
            ("analytics/report.py", "def build():\n    return 1\n"),
            ("etl/__init__.py", ""),
            (
                "etl/run.py",
                "from analytics.report import build\n\n\ndef run():\n    return build()\n",
            ),
            (
                "lib/text/text_test.go",
                "package text\n\nimport \"testing\"\n\nfunc TestSay(t *testing.T) { Say() }\n",
            ),
            ("go.mod", "module example.com/shop\n\ngo 1.22\n"),
            (
                "cli/main.go",
                "package main\n\nimport \"example.com/shop/lib/text\"\n\nfunc main() { text.Say() }\n",
            ),
            (
                "lib/text/text.go",
                "package text\n\nimport \"fmt\"\n\nfunc Say() { fmt.Println(\"hi\") }\n",
            ),
        ],
    );
    git(root, &["init", "-q", "-b", "main"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "base"]);
    dir
}

fn run(root: &Path, arguments: &[&str]) -> (i32, String, String) {
    let output = lintel().current_dir(root).args(arguments).output().unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn init_proposes_units_nodes_and_rules_that_pass_check_all_and_catch_a_new_flow() {
    let dir = repository();
    let root = dir.path();
    let (code, stdout, stderr) = run(root, &["init"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("wrote `architecture.ag`: review it, then run `lintel check --all`"),
        "{stderr}"
    );
    let spec = std::fs::read_to_string(root.join("architecture.ag")).unwrap();
    for line in [
        "// Tests may cross the layers: they are left out of the architecture (2 files).\nexclude [\"**/*.test.ts\", \"**/*_test.go\"]\n",
        "node app : server\n",
        "// pg in packages/db/src/pool.ts\nnode postgres : postgres { clients: \"pg\" }\n",
        "// Python package, 2 source files.\ncomponent Analytics { runs_on: app  paths: \"analytics/**\" }\n",
        "// Go package, 1 source file.\ncomponent Cli       { runs_on: app  paths: \"cli/**\" }\n",
        "component Etl       { runs_on: app  paths: \"etl/**\" }\n",
        "component Lib       { runs_on: app  paths: \"lib/**\" }\n",
        "// Workspace package, 2 source files.\ncomponent Core      { runs_on: app  paths: \"packages/core/**\" }\n",
        "component Db        { runs_on: app  paths: \"packages/db/**\" }\n",
        "component Web       { runs_on: app  paths: \"packages/web/**\" }\n",
        "  // 1 import from Etl to Analytics, none back (e.g. etl/run.py:1)\n  deny flow Analytics -> Etl\n",
        "  // 2 imports from Core to Db, none back (e.g. packages/core/src/cart.ts:1)\n  deny flow Db -> Core\n",
        "  // 1 import from Cli to Lib, none back (e.g. cli/main.go:3)\n  deny flow Lib -> Cli\n",
        "  // 1 import from Web to Core, none back (e.g. packages/web/src/page.ts:1)\n  deny flow Core -> Web\n",
        "  // Web looks like UI (`web` in `packages/web`) and no code of it uses postgres today\n  deny flow Web -> postgres\n",
        "//   0: Analytics, Db, Lib\n//   1: Cli, Core, Etl\n//   2: Web\n",
    ] {
        assert!(spec.contains(line), "{line}\nin:\n{spec}");
    }
    assert_eq!(spec.matches("deny flow").count(), 5, "{spec}");
    assert_eq!(spec.matches("\ncomponent ").count(), 7, "{spec}");
    // The spec compiles and holds on the repository it was made for.
    let (code, document) = json_run(
        lintel()
            .current_dir(root)
            .args(["check", "--all", "--json"]),
    );
    assert_eq!(code, 0, "{document}");
    assert_eq!(document["verdict"], "pass");
    assert_eq!(document["rule_coverage"].as_array().unwrap().len(), 5);
    // A second run proposes the same spec, byte for byte.
    let (code, printed, _) = run(root, &["init", "--print"]);
    assert_eq!(code, 0);
    assert_eq!(printed, spec);
    // The proposed rules are live: the database package using the core breaks one.
    write_files(
        root,
        &[(
            "packages/db/src/audit.ts",
            "import { price } from \"../../core/src/price\";\nexport const audit = price;\n",
        )],
    );
    let (code, document) = json_run(
        lintel()
            .current_dir(root)
            .args(["check", "--all", "--json"]),
    );
    assert_eq!(code, 1, "{document}");
    let broken: Vec<&str> = document["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| violation["rule"]["text"].as_str().unwrap())
        .collect();
    assert_eq!(broken, ["deny flow Db -> Core"], "{document}");
}

#[test]
fn init_print_writes_to_stdout_and_no_file() {
    let dir = repository();
    let root = dir.path();
    let (code, stdout, stderr) = run(root, &["init", "--print"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with("// A starter spec written by `lintel init`"),
        "{stdout}"
    );
    assert!(stdout.contains("deny flow Db -> Core"), "{stdout}");
    assert!(!root.join("architecture.ag").exists());
}

#[test]
fn init_refuses_to_overwrite_a_spec_without_force() {
    let dir = repository();
    let root = dir.path();
    std::fs::write(root.join("architecture.ag"), "// mine\n").unwrap();
    let (code, stdout, stderr) = run(root, &["init"]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert_eq!(
        stderr,
        "error[usage-error]: `architecture.ag` exists: pass `--force` to overwrite it, `--out FILE`, or `--print`\n"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("architecture.ag")).unwrap(),
        "// mine\n"
    );
    let (code, _, stderr) = run(root, &["init", "--force"]);
    assert_eq!(code, 0, "{stderr}");
    let spec = std::fs::read_to_string(root.join("architecture.ag")).unwrap();
    assert!(spec.contains("deny flow Lib -> Cli"), "{spec}");
    // `--out` names another file, which is refused the same way once it exists.
    let (code, _, _) = run(root, &["init", "--out", "other.ag"]);
    assert_eq!(code, 0);
    let (code, _, stderr) = run(root, &["init", "--out", "other.ag"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("`other.ag` exists"), "{stderr}");
}

#[test]
fn init_from_a_tach_config_still_translates_it_and_prints_it_with_print() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_files(
        root,
        &[
            (
                "tach.toml",
                "[[modules]]\npath = \"app.api\"\ndepends_on = [\"app.core\"]\n\n[[modules]]\npath = \"app.core\"\ndepends_on = []\n",
            ),
            ("app/__init__.py", ""),
            ("app/api/__init__.py", "from app.core import x\n"),
            ("app/core/__init__.py", "x = 1\n"),
        ],
    );
    let (code, printed, stderr) = run(root, &["init", "--from", "tach.toml", "--print"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        printed.contains(
            "component AppApi { runs_on: app  paths: \"app/api/**\"  depends_on: AppCore }"
        ),
        "{printed}"
    );
    assert!(!root.join("architecture.ag").exists());
    let (code, _, stderr) = run(root, &["init", "--from", "tach.toml"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read_to_string(root.join("architecture.ag")).unwrap(),
        printed
    );
}

#[test]
fn init_in_a_folder_without_sources_is_a_coded_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("README.md"), "# nothing\n").unwrap();
    let (code, _, stderr) = run(dir.path(), &["init"]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("error[usage-error]: `init` found no source files"),
        "{stderr}"
    );
    assert!(!dir.path().join("architecture.ag").exists());
}

/// eShopOnWeb's shape: the context is registered with the in-memory provider on a switch and
/// with SQL Server otherwise. The starter proposes the SQL Server node, bound to EF Core and its
/// provider, and no node for the in-memory stand-in.
#[test]
fn init_proposes_no_node_for_a_store_that_stands_in_for_tests() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_files(
        root,
        &[
            ("Data/Data.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\"></Project>\n"),
            (
                "Data/ShopContext.cs",
                "using Microsoft.EntityFrameworkCore;\nnamespace Shop.Data;\npublic class ShopContext : DbContext\n{\n    public ShopContext(DbContextOptions<ShopContext> options) : base(options) { }\n}\n",
            ),
            (
                "Data/Dependencies.cs",
                "using Microsoft.EntityFrameworkCore;\nusing Microsoft.Extensions.DependencyInjection;\nnamespace Shop.Data;\npublic static class Dependencies\n{\n    public static void Configure(IServiceCollection services, bool inMemory)\n    {\n        if (inMemory)\n            services.AddDbContext<ShopContext>(c => c.UseInMemoryDatabase(\"Shop\"));\n        else\n            services.AddDbContext<ShopContext>(c => c.UseSqlServer(\"shop\"));\n    }\n}\n",
            ),
            ("Web/Web.csproj", "<Project Sdk=\"Microsoft.NET.Sdk.Web\"></Project>\n"),
            ("Web/Program.cs", "var app = WebApplication.CreateBuilder(args).Build();\napp.Run();\n"),
        ],
    );
    git(root, &["init", "-q"]);
    git(root, &["add", "."]);
    let (code, printed, stderr) = run(root, &["init", "--print"]);
    assert_eq!(code, 0, "{stderr}");
    let nodes: Vec<&str> = printed
        .lines()
        .filter(|line| line.starts_with("node "))
        .collect();
    assert_eq!(
        nodes,
        [
            "node app : server",
            "node mssql : mssql { clients: [\"Microsoft.EntityFrameworkCore\", \"Microsoft.EntityFrameworkCore.SqlServer\"] }",
        ],
        "{printed}"
    );
}
