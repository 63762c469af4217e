//! Imports of generated code through the real binary: documenso/documenso imports the types its
//! Prisma generators write into `packages/prisma/generated/` (`@documenso/prisma/generated/types`),
//! which its `.gitignore` leaves out of the repository. Such an import is generated code, not a
//! missing file: `deny unresolved imports` passes on it (148 false findings there), while an
//! import of a file that is simply missing still fails it; `graph --facts` marks the import
//! `generated`.

use super::{check_all, graph_document, write_files};

/// The `import` facts of a `graph --facts` document marked `generated`, as (file, specifier).
fn generated_imports(graph: &serde_json::Value) -> Vec<(&str, &str)> {
    graph["facts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|fact| fact["kind"] == "import" && fact["properties"]["generated"] == true)
        .map(|fact| {
            (
                fact["evidence"]["file"].as_str().unwrap(),
                fact["properties"]["specifier"].as_str().unwrap(),
            )
        })
        .collect()
}

const SPEC: &str = "node app : server\n\
                    component App { runs_on: app paths: \"packages/app/**\" }\n\
                    component Db { runs_on: app paths: \"packages/db/**\" }\n\
                    invariant Modules { deny unresolved imports in * }\n";

#[test]
fn an_import_where_a_gitignore_puts_generated_code_is_no_unresolved_import() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            ("architecture.ag", SPEC),
            (".gitignore", "node_modules\ngenerated/\n"),
            ("package.json", "{ \"private\": true, \"workspaces\": [\"packages/*\"] }\n"),
            ("packages/db/package.json", "{ \"name\": \"@acme/db\", \"main\": \"./index.ts\" }\n"),
            ("packages/db/index.ts", "export * from './generated/types';\n"),
            ("packages/app/package.json", "{ \"name\": \"@acme/app\" }\n"),
            (
                "packages/app/src/user.ts",
                "import { Role } from '@acme/db/generated/types';\nimport { db } from '@acme/db';\nexport const admin = [Role, db];\n",
            ),
            // The generator's output, present on a developer's machine: ignored all the same.
            ("packages/db/generated/types.ts", "export const Role = { Admin: 'ADMIN' };\n"),
        ],
    );
    let (code, verdict) = check_all(project.path());
    assert_eq!(code, 0, "{verdict:#}");
    assert_eq!(crate::detections(&verdict), Vec::new());
    assert_eq!(
        generated_imports(&graph_document(project.path())),
        vec![
            ("packages/app/src/user.ts", "@acme/db/generated/types"),
            ("packages/db/index.ts", "./generated/types"),
        ]
    );
    // A file of the package that is simply missing is still an unresolved import.
    crate::assert_one_unresolved_after_writing(
        project.path(),
        "packages/app/src/user.ts",
        "import { Role } from '@acme/db/generated/types';\nimport { gone } from '@acme/db/gone';\nexport const admin = [Role, gone];\n",
        2,
    );
}

/// goharbor/harbor's API handlers import the server and models go-swagger generates at build
/// time into `src/server/v2.0/restapi/` and `models/`, which its `.gitignore` leaves out: those
/// are generated packages (92 false findings there), while a package that is simply missing is
/// still an unresolved import.
#[test]
fn a_go_import_of_a_package_where_a_gitignore_puts_generated_code_is_no_unresolved_import() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            (
                "architecture.ag",
                "node app : server\n\
                 component Server { runs_on: app paths: \"src/server/**\" }\n\
                 invariant Modules { deny unresolved imports in Server }\n",
            ),
            (".gitignore", "src/server/restapi/\nsrc/server/models/\n"),
            ("src/go.mod", "module example.com/harbor/src\n\ngo 1.22\n"),
            (
                "src/server/handler/user.go",
                "package handler\n\nimport (\n\t\"example.com/harbor/src/server/models\"\n\t\"example.com/harbor/src/server/restapi/operations/user\"\n\t\"example.com/harbor/src/server/missing\"\n)\n\nvar _ = models.User{}\nvar _ = user.NewListUsersOK\nvar _ = missing.X\n",
            ),
            // The generator's output, present on a developer's machine: ignored all the same.
            ("src/server/models/user.go", "package models\n\ntype User struct{}\n"),
        ],
    );
    let (code, verdict) = check_all(project.path());
    assert_eq!(code, 1, "{verdict:#}");
    assert_eq!(
        crate::detections(&verdict),
        vec![(
            "deny unresolved imports in Server",
            "src/server/handler/user.go",
            6,
            "definite"
        )]
    );
}

/// apache/kafka's clients import the message classes its build generates from JSON schemas into
/// `clients/src/generated/java/`, which its `**/src/generated` rule ignores (2,236 false
/// findings of `deny unresolved imports` there). A type of the project's packages that no source
/// file declares and that would lie in such an ignored folder of the importer's module is
/// generated code; in a module none of whose generated folders is ignored, a missing type stays
/// an unresolved import.
#[test]
fn a_java_import_of_a_type_the_build_generates_into_an_ignored_folder_is_no_unresolved_import() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            ("architecture.ag", SPEC),
            (".gitignore", "packages/app/src/generated\n"),
            (
                "packages/app/src/main/java/org/acme/clients/Request.java",
                "package org.acme.clients;\n\nimport org.acme.common.message.RequestHeaderData;\nimport org.acme.common.Node;\n\npublic class Request {\n  RequestHeaderData header;\n  Node node;\n}\n",
            ),
            (
                "packages/app/src/main/java/org/acme/common/Node.java",
                "package org.acme.common;\n\npublic class Node {}\n",
            ),
            (
                "packages/db/src/main/java/org/acme/db/Store.java",
                "package org.acme.db;\n\nimport org.acme.common.message.RequestHeaderData;\n\npublic class Store {\n  RequestHeaderData header;\n}\n",
            ),
        ],
    );
    let (code, verdict) = check_all(project.path());
    assert_eq!(code, 1, "{verdict:#}");
    assert_eq!(
        crate::detections(&verdict),
        vec![(
            "deny unresolved imports in *",
            "packages/db/src/main/java/org/acme/db/Store.java",
            3,
            "definite"
        )]
    );
    assert_eq!(
        generated_imports(&graph_document(project.path())),
        vec![(
            "packages/app/src/main/java/org/acme/clients/Request.java",
            "org.acme.common.message.RequestHeaderData"
        )]
    );
    // Once the build's output folders are ignored everywhere (Gradle's `build/`), the other
    // module's type is generated code too.
    std::fs::write(
        project.path().join(".gitignore"),
        "packages/app/src/generated\nbuild/\n",
    )
    .unwrap();
    let (code, verdict) = check_all(project.path());
    assert_eq!(code, 0, "{verdict:#}");
}
