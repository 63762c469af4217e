//! A store bound to its Go driver (`clients: "modernc.org/sqlite"`) is what `database/sql`
//! reaches: the driver registers itself for the whole program, so `sql.Open("sqlite", …)` and
//! an injected `*sql.DB` are definite accesses of the store, in the file that imports the driver
//! and in one that does not, through the real binary. With the drivers of two bound stores in the
//! program and none in the file, the access stays unresolved (no guess).

use super::{detections, json_run, lintel, write_files};

const STORE: &str = "package infra\n\nimport (\n\t\"database/sql\"\n\n\t_ \"modernc.org/sqlite\"\n)\n\n\
type Store struct {\n\tdb *sql.DB\n}\n\n\
func Open(path string) (*Store, error) {\n\tdb, err := sql.Open(\"sqlite\", path)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\treturn &Store{db: db}, nil\n}\n";

const DOMAIN: &str = "package domain\n\nimport \"database/sql\"\n\n\
func Count(path string) (int, error) {\n\tdb, err := sql.Open(\"sqlite\", path)\n\tif err != nil {\n\t\treturn 0, err\n\t}\n\tvar n int\n\terr = db.QueryRow(\"SELECT COUNT(*) FROM runs\").Scan(&n)\n\treturn n, err\n}\n";

const CACHE: &str = "package infra\n\nimport _ \"github.com/mattn/go-sqlite3\"\n";

fn project(nodes: &str, more: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let spec = format!(
        "node cli : server\n{nodes}\
         component Domain {{ runs_on: cli paths: \"domain/**\" }}\n\
         component Infra {{ runs_on: cli paths: \"infra/**\" }}\n\
         invariant Layers {{ deny flow Domain -> store  deny flow Infra -> store }}\n"
    );
    write_files(
        dir.path(),
        &[
            ("architecture.ag", &spec),
            ("go.mod", "module example.com/runs\n\ngo 1.22\n"),
            ("infra/store.go", STORE),
            ("domain/count.go", DOMAIN),
        ],
    );
    write_files(dir.path(), more);
    dir
}

/// The verdict of a check of `project`, and its warning codes.
fn check(project: &tempfile::TempDir) -> (serde_json::Value, Vec<String>) {
    let (code, verdict) = json_run(
        lintel()
            .args(["check", "--all", "--json", "--no-cache", "--project"])
            .arg(project.path()),
    );
    assert!(code == 0 || code == 1, "{verdict:#}");
    let warnings = verdict["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|warning| warning["code"].as_str().unwrap().to_owned())
        .collect();
    (verdict, warnings)
}

#[test]
fn database_sql_accesses_are_uses_of_the_bound_driver_in_every_file() {
    let project = project(
        "node store : sqlite { clients: \"modernc.org/sqlite\" }\n",
        &[],
    );
    let (verdict, warnings) = check(&project);
    let violations = detections(&verdict);
    assert_eq!(
        violations,
        [
            (
                "deny flow Domain -> store",
                "domain/count.go",
                6,
                "definite"
            ),
            ("deny flow Infra -> store", "infra/store.go", 10, "definite"),
            ("deny flow Infra -> store", "infra/store.go", 14, "definite"),
        ]
    );
    assert!(
        !warnings.contains(&"unresolved-target".to_owned()),
        "{warnings:?}"
    );
}

#[test]
fn with_two_bound_drivers_in_the_program_a_file_that_imports_none_stays_unresolved() {
    let project = project(
        "node store : sqlite { clients: \"modernc.org/sqlite\" }\n\
         node cache : sqlite { clients: \"github.com/mattn/go-sqlite3\" }\n",
        &[("infra/cache.go", CACHE)],
    );
    let (verdict, warnings) = check(&project);
    let violations = detections(&verdict);
    let files: Vec<&str> = violations.iter().map(|(_, file, ..)| *file).collect();
    assert_eq!(
        files,
        ["infra/store.go", "infra/store.go"],
        "{violations:?}"
    );
    assert!(
        warnings.contains(&"unresolved-target".to_owned()),
        "{warnings:?}"
    );
}

#[test]
fn a_library_bound_in_the_file_is_no_driver_of_an_http_client() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            (
                "architecture.ag",
                "node cli : server\n\
                 resource Jenkins : external_api { clients: \"jenkins\" }\n\
                 component Ops { runs_on: cli paths: \"ops/**\" }\n\
                 invariant Libraries { deny flow Ops -> Jenkins }\n",
            ),
            (
                "ops/status.py",
                "import jenkins\nimport requests\n\n\ndef status(url):\n    return requests.get(url).json()\n",
            ),
        ],
    );
    let (verdict, warnings) = check(&project);
    let violations = detections(&verdict);
    // The bare `import jenkins` is a probable use (a warning); `requests.get` is no use of it.
    assert!(violations.is_empty(), "{violations:?}");
    assert!(
        warnings.contains(&"unresolved-target".to_owned()),
        "{warnings:?}"
    );
}

/// miniflux's shape: the bound driver's store beside an unbound store of the same category. The
/// project's one driver is bound, so its `*sql.DB` is that store's (before, the unbound store
/// took every access definitely); with an unbound driver of the category in the program too,
/// either store may be meant and the accesses are probable.
#[test]
fn beside_an_unbound_store_of_the_category_the_bound_driver_is_the_store() {
    let nodes = "node store : sqlite { clients: \"modernc.org/sqlite\" }\n\
                 node cache : sqlite\n";
    let project = project(nodes, &[]);
    let spec = std::fs::read_to_string(project.path().join("architecture.ag")).unwrap();
    std::fs::write(
        project.path().join("architecture.ag"),
        spec.replace(
            "deny flow Infra -> store }",
            "deny flow Infra -> store  deny flow Domain -> cache  deny flow Infra -> cache }",
        ),
    )
    .unwrap();
    let (verdict, _) = check(&project);
    let violations = detections(&verdict);
    let rules: Vec<(&str, &str)> = violations
        .iter()
        .map(|(rule, _, _, confidence)| (*rule, *confidence))
        .collect();
    assert_eq!(
        rules,
        [
            ("deny flow Domain -> store", "definite"),
            ("deny flow Infra -> store", "definite"),
            ("deny flow Infra -> store", "definite"),
        ],
        "{violations:?}"
    );
    // An unbound SQLite driver in the program: the accesses may be either store's.
    write_files(project.path(), &[("infra/cache.go", CACHE)]);
    let (verdict, warnings) = check(&project);
    let violations = detections(&verdict);
    assert!(
        violations
            .iter()
            .all(|(rule, ..)| !rule.ends_with("-> cache")),
        "{violations:?}"
    );
    assert!(
        warnings.contains(&"probable-fact".to_owned()),
        "{warnings:?}"
    );
}

/// paperless-ngx's shape: Django's ORM (a generic relational access, no driver API) beside a
/// vector index in an SQLite file bound to `sqlite3`. The ORM's accesses stay the unbound
/// database's: a bound library of the category is a driver only of a driver API (Go's
/// `database/sql`).
#[test]
fn a_bound_sqlite_library_is_no_driver_of_an_orm_beside_an_unbound_database() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            (
                "architecture.ag",
                "node app : server\n\
                 node db : relational_db\n\
                 node vectors : sqlite { clients: \"sqlite3\" }\n\
                 component Documents { runs_on: app paths: \"documents/**\" }\n\
                 component Ai { runs_on: app paths: \"ai/**\" }\n\
                 invariant Stores { deny flow Documents -> vectors  deny flow Ai -> db }\n",
            ),
            (
                "documents/bulk.py",
                "from django.db import transaction\n\n\ndef run():\n    with transaction.atomic():\n        pass\n",
            ),
            (
                "ai/index.py",
                "import sqlite3\n\n\ndef open_index(path):\n    return sqlite3.connect(path)\n",
            ),
        ],
    );
    let (verdict, _) = check(&project);
    let violations = detections(&verdict);
    assert!(violations.is_empty(), "{violations:?}");
}

/// memos' shape: a store driver per Go package (`store/db/mysql`, `store/db/postgres`,
/// `store/db/sqlite`), each importing its driver in one file and querying its `*sql.DB` in the
/// others. A Go package is compiled as one: a driver another file of the package imports is the
/// store of the package's `database/sql` uses, also with several bound drivers in the program
/// (memos' 70 queries were unresolved: no flow edge to any of its three databases).
#[test]
fn a_driver_imported_by_another_file_of_the_go_package_is_the_store_of_its_uses() {
    let project = project(
        "node store : sqlite { clients: \"modernc.org/sqlite\" }\n\
         node cache : sqlite { clients: \"github.com/mattn/go-sqlite3\" }\n",
        &[
            (
                "infra/query.go",
                "package infra\n\nimport \"database/sql\"\n\n\
                 func Names(db *sql.DB) (*sql.Rows, error) {\n\treturn db.Query(\"SELECT name FROM runs\")\n}\n",
            ),
            ("cache/open.go", "package cache\n\nimport (\n\t\"database/sql\"\n\n\t_ \"github.com/mattn/go-sqlite3\"\n)\n\n\
              func Open(path string) (*sql.DB, error) {\n\treturn sql.Open(\"sqlite3\", path)\n}\n"),
        ],
    );
    let (verdict, warnings) = check(&project);
    let violations = detections(&verdict);
    // `domain/count.go`'s package imports no driver: with two in the program it stays unresolved.
    assert_eq!(
        violations,
        [
            ("deny flow Infra -> store", "infra/query.go", 5, "definite"),
            ("deny flow Infra -> store", "infra/store.go", 10, "definite"),
            ("deny flow Infra -> store", "infra/store.go", 14, "definite"),
        ],
        "{violations:?}"
    );
    assert!(
        warnings.contains(&"unresolved-target".to_owned()),
        "{warnings:?}"
    );
}

/// memos' shape with its three databases declared by type and bound to nothing
/// (`node sqlite : sqlite`, `node mysql : mysql`, `node postgres : postgres`): a `database/sql`
/// use is of the store whose driver its file, else its Go package, else the program imports
/// (`_ "github.com/lib/pq"` is PostgreSQL's), when those name exactly one store type. Before,
/// each of memos' 75 queries was a probable access of all three databases.
#[test]
fn unbound_stores_of_different_types_take_the_uses_of_their_drivers_package() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            (
                "architecture.ag",
                "node cli : server\n\
                 node lite : sqlite\n\
                 node pg : postgres\n\
                 component Lite { runs_on: cli paths: \"lite/**\" }\n\
                 component Pg { runs_on: cli paths: \"pg/**\" }\n\
                 component Shared { runs_on: cli paths: \"shared/**\" }\n\
                 invariant Stores { deny flow Lite -> pg  deny flow Pg -> lite  deny flow Lite -> lite  deny flow Shared -> lite }\n",
            ),
            ("go.mod", "module example.com/notes\n\ngo 1.22\n"),
            ("lite/open.go", "package lite\n\nimport _ \"modernc.org/sqlite\"\n"),
            (
                "lite/query.go",
                "package lite\n\nimport \"database/sql\"\n\n\
                 func Names(db *sql.DB) (*sql.Rows, error) {\n\treturn db.Query(\"SELECT name FROM notes\")\n}\n",
            ),
            ("pg/open.go", "package pg\n\nimport _ \"github.com/lib/pq\"\n"),
            (
                "pg/query.go",
                "package pg\n\nimport \"database/sql\"\n\n\
                 func Names(db *sql.DB) (*sql.Rows, error) {\n\treturn db.Query(\"SELECT name FROM notes\")\n}\n",
            ),
            (
                "shared/driver.go",
                "package shared\n\nimport \"database/sql\"\n\n\
                 type Driver interface {\n\tDB() *sql.DB\n}\n\nfunc Close(db *sql.DB) error {\n\treturn db.Close()\n}\n",
            ),
        ],
    );
    let (verdict, warnings) = check(&project);
    let violations = detections(&verdict);
    // `lite/open.go`'s blank import is a probable use of SQLite (a warning); `shared/driver.go`'s
    // package imports no driver and the program both: either store may be meant.
    assert_eq!(
        violations,
        [("deny flow Lite -> lite", "lite/query.go", 5, "definite")],
        "{violations:?}"
    );
    assert!(
        warnings.contains(&"ambiguous-technology-target".to_owned()),
        "{warnings:?}"
    );
}

/// The drivers of the program are its language's: a Python script's SQLite beside a Go program
/// whose one driver is PostgreSQL's leaves a `*sql.DB` of the program PostgreSQL's.
#[test]
fn another_languages_store_is_no_driver_of_the_program() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            (
                "architecture.ag",
                "node cli : server\n\
                 node lite : sqlite\n\
                 node pg : postgres\n\
                 component App { runs_on: cli paths: \"app/**\" }\n\
                 component Tools { runs_on: cli paths: [\"tools/**\", \"pg/**\"] }\n\
                 invariant Stores { deny flow App -> pg  deny flow App -> lite }\n",
            ),
            ("go.mod", "module example.com/notes\n\ngo 1.22\n"),
            ("pg/open.go", "package pg\n\nimport _ \"github.com/lib/pq\"\n"),
            (
                "app/query.go",
                "package app\n\nimport \"database/sql\"\n\n\
                 func Names(db *sql.DB) (*sql.Rows, error) {\n\treturn db.Query(\"SELECT name FROM notes\")\n}\n",
            ),
            (
                "tools/seed.py",
                "import sqlite3\n\n\ndef seed(path):\n    return sqlite3.connect(path)\n",
            ),
        ],
    );
    let (verdict, _) = check(&project);
    let violations = detections(&verdict);
    assert_eq!(
        violations,
        [("deny flow App -> pg", "app/query.go", 5, "definite")],
        "{violations:?}"
    );
}

/// A bound library of another language is no driver of the program either: Python's `sqlite3`
/// bound to a node names no store of a Go `*sql.DB` (no Go driver in the project: unresolved).
#[test]
fn a_bound_library_of_another_language_is_no_driver_of_the_program() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            (
                "architecture.ag",
                "node cli : server\n\
                 node store : sqlite { clients: \"sqlite3\" }\n\
                 component App { runs_on: cli paths: \"app/**\" }\n\
                 component Tools { runs_on: cli paths: \"tools/**\" }\n\
                 invariant Stores { deny flow App -> store }\n",
            ),
            ("go.mod", "module example.com/notes\n\ngo 1.22\n"),
            (
                "app/query.go",
                "package app\n\nimport \"database/sql\"\n\n\
                 func Names(db *sql.DB) (*sql.Rows, error) {\n\treturn db.Query(\"SELECT name FROM notes\")\n}\n",
            ),
            (
                "tools/seed.py",
                "import sqlite3\n\n\ndef seed(path):\n    return sqlite3.connect(path)\n",
            ),
        ],
    );
    let (verdict, warnings) = check(&project);
    let violations = detections(&verdict);
    assert!(violations.is_empty(), "{violations:?}");
    assert!(
        warnings.contains(&"unresolved-target".to_owned()),
        "{warnings:?}"
    );
}
