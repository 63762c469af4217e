//! FastAPI's dependency aliases through the real binary: a route whose parameter is annotated
//! with a client alias another project file defines (`session: SessionDep` with `from
//! app.deps import SessionDep`) uses the database, so `deny flow Routes -> db` fails at the route
//! with a definite edge. With the extraction cache, a route file read from the cache follows
//! the alias file as it is now: once that file's alias no longer names a session, the rule
//! passes again.

use super::{json_run, lintel, write_files};

const SPEC: &str = "node app : server\n\
                    node db : postgres\n\
                    component Routes { runs_on: app paths: \"app/routes/**\" }\n\
                    component Deps { runs_on: app paths: \"app/*.py\" }\n\
                    invariant Layering { deny flow Routes -> db }\n";

const DEPS: &str = "from typing import Annotated\n\nfrom fastapi import Depends\nfrom sqlmodel import Session\n\n\ndef get_db():\n    return None\n\n\nSessionDep = Annotated[Session, Depends(get_db)]\n";

const ROUTES: &str = "from app.deps import SessionDep\n\n\ndef read_items(session: SessionDep):\n    return session.exec(None)\n";

/// `check --all --json` with the cache under `home`: the exit code, each violation's (rule,
/// file, line) and how many files came from the cache.
fn violations(
    project: &std::path::Path,
    home: &std::path::Path,
) -> (i32, Vec<(String, String, u64)>, u64) {
    let (code, verdict) = json_run(
        lintel()
            .args(["check", "--all", "--json", "--project"])
            .arg(project)
            .env("XDG_CACHE_HOME", home),
    );
    let found = crate::detections(&verdict)
        .into_iter()
        .map(|(rule, file, line, _)| (rule.to_owned(), file.to_owned(), line))
        .collect();
    (
        code,
        found,
        verdict["stats"]["files_cached"].as_u64().unwrap(),
    )
}

#[test]
fn a_parameter_annotated_with_another_files_client_alias_uses_the_client() {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            ("architecture.ag", SPEC),
            ("app/__init__.py", ""),
            ("app/deps.py", DEPS),
            ("app/routes/__init__.py", ""),
            ("app/routes/items.py", ROUTES),
        ],
    );
    let expected = vec![(
        "deny flow Routes -> db".to_owned(),
        "app/routes/items.py".to_owned(),
        4,
    )];
    assert_eq!(
        violations(project.path(), home.path()),
        (1, expected.clone(), 0)
    );
    // Warm: every file comes from the cache, and the route still joins the alias.
    assert_eq!(violations(project.path(), home.path()), (1, expected, 4));
    // The alias now names a plain value: the cached route file makes no use of the database.
    std::fs::write(
        project.path().join("app/deps.py"),
        DEPS.replace("Annotated[Session,", "Annotated[str,"),
    )
    .unwrap();
    assert_eq!(violations(project.path(), home.path()), (0, Vec::new(), 3));
}

/// A client alias another module only re-exports: `app/deps/__init__.py` imports `SessionDep`
/// from `app/deps/db.py` (also as `Db`; or `app/deps/cache.py` re-exports everything of
/// `app/deps/redis.py` through `app/deps/__init__.py`), and the routes import the alias from
/// `app.deps`.
#[test]
fn a_client_alias_is_followed_through_the_modules_that_re_export_it() {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let spec = "node app : server\n\
                node db : postgres\n\
                node cache : redis\n\
                component Routes { runs_on: app paths: \"app/routes/**\" }\n\
                component Deps { runs_on: app paths: \"app/deps/**\" }\n\
                invariant Layering { deny flow Routes -> db  deny flow Routes -> cache }\n";
    write_files(
        project.path(),
        &[
            ("architecture.ag", spec),
            ("app/__init__.py", ""),
            (
                "app/deps/__init__.py",
                "from .db import SessionDep\nfrom .db import SessionDep as Db\nfrom .cache import *\n",
            ),
            (
                "app/routes/more.py",
                "from app.deps import Db\n\n\ndef read_more(session: Db):\n    return session\n",
            ),
            ("app/deps/db.py", DEPS),
            ("app/deps/cache.py", "from app.deps.redis import *\n"),
            (
                "app/deps/redis.py",
                "from typing import Annotated\n\nfrom redis import Redis\n\nCacheDep = Annotated[Redis, \"cache\"]\n",
            ),
            ("app/routes/__init__.py", ""),
            (
                "app/routes/items.py",
                "from app.deps import CacheDep, SessionDep\n\n\n\
                 def read_items(session: SessionDep):\n    return session.exec(None)\n\n\n\
                 def cached(cache: CacheDep):\n    return cache.get(\"x\")\n",
            ),
        ],
    );
    let expected = vec![
        (
            "deny flow Routes -> db".to_owned(),
            "app/routes/items.py".to_owned(),
            4,
        ),
        (
            "deny flow Routes -> db".to_owned(),
            "app/routes/more.py".to_owned(),
            4,
        ),
        (
            "deny flow Routes -> cache".to_owned(),
            "app/routes/items.py".to_owned(),
            8,
        ),
    ];
    assert_eq!(
        violations(project.path(), home.path()),
        (1, expected.clone(), 0)
    );
    // The package stops re-exporting the session alias: the cached route file follows it.
    std::fs::write(
        project.path().join("app/deps/__init__.py"),
        "from .cache import *\n",
    )
    .unwrap();
    assert_eq!(
        violations(project.path(), home.path()),
        (1, expected[2..].to_vec(), 7)
    );
}

/// An alias that names two client types (`Annotated[Session | Redis, …]`, `Union[…]`) is a use of
/// both, in the file that defines it and in one that imports it.
#[test]
fn an_alias_that_names_several_client_types_uses_each_of_them() {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let spec = "node app : server\n\
                node db : postgres\n\
                node cache : redis\n\
                component Routes { runs_on: app paths: \"app/routes/**\" }\n\
                component Deps { runs_on: app paths: \"app/*.py\" }\n\
                invariant Layering { deny flow Routes -> db  deny flow Routes -> cache }\n";
    let deps = "from typing import Annotated, Union\n\nfrom fastapi import Depends\nfrom redis import Redis\n\
                from sqlmodel import Session\n\n\ndef get_store():\n    return None\n\n\n\
                StoreDep = Annotated[Session | Redis, Depends(get_store)]\n\
                EitherDep = Annotated[Union[Session, Redis], Depends(get_store)]\n";
    write_files(
        project.path(),
        &[
            ("architecture.ag", spec),
            ("app/__init__.py", ""),
            ("app/deps.py", deps),
            ("app/routes/__init__.py", ""),
            (
                "app/routes/items.py",
                "from app.deps import StoreDep\n\n\n\
                 def read_items(store: StoreDep):\n    return store\n",
            ),
            (
                "app/routes/more.py",
                "from app import deps\n\n\n\
                 def read_more(store: deps.EitherDep):\n    return store\n",
            ),
            (
                "app/routes/local.py",
                "from typing import Annotated\n\nfrom redis import Redis\nfrom sqlmodel import Session\n\n\
                 LocalDep = Annotated[Session | Redis, \"store\"]\n\n\n\
                 def read_local(store: LocalDep):\n    return store\n",
            ),
        ],
    );
    let (code, found, _) = violations(project.path(), home.path());
    assert_eq!(code, 1);
    let mut found: Vec<(String, String, u64)> = found;
    found.sort();
    let expected: Vec<(String, String, u64)> = [
        ("deny flow Routes -> cache", "app/routes/items.py", 4),
        ("deny flow Routes -> cache", "app/routes/local.py", 9),
        ("deny flow Routes -> cache", "app/routes/more.py", 4),
        ("deny flow Routes -> db", "app/routes/items.py", 4),
        ("deny flow Routes -> db", "app/routes/local.py", 9),
        ("deny flow Routes -> db", "app/routes/more.py", 4),
    ]
    .into_iter()
    .map(|(rule, file, line)| (rule.to_owned(), file.to_owned(), line))
    .collect();
    assert_eq!(found, expected);
}
