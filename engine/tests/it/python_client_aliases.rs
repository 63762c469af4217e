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
