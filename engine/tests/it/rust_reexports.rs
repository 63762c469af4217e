//! Rust names a module only re-exports, through the real binary: vaultwarden's models import
//! `crate::CONFIG` and `crate::Error`, which the crate root binds with `pub use config::CONFIG;`
//! and `pub use error::Error;`. They depend on `config.rs` and `error.rs`, not on the server's
//! entry point, so `deny flow Db -> Main` holds; a name the root declares itself (`VERSION`)
//! is still a use of the root.

use super::{detections, json_run, lintel, write_files};

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            (
                "architecture.ag",
                "node server : server\n\
                 component Main { runs_on: server paths: \"src/main.rs\" }\n\
                 component Config { runs_on: server paths: [\"src/config.rs\", \"src/error.rs\"] }\n\
                 component Db { runs_on: server paths: \"src/db/**\" }\n\
                 component Mail { runs_on: server paths: \"src/mail.rs\" }\n\
                 invariant Layers {\n  deny flow Db -> Main\n  deny flow Mail -> Main\n}\n",
            ),
            (
                "Cargo.toml",
                "[package]\nname = \"vault\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            ),
            (
                "src/main.rs",
                "mod config;\nmod db;\nmod error;\nmod mail;\n\n\
                 pub use config::CONFIG;\npub use error::{Error, MapResult};\n\n\
                 pub const VERSION: &str = \"1\";\n\nfn main() {}\n",
            ),
            ("src/config.rs", "pub static CONFIG: u8 = 0;\n"),
            (
                "src/error.rs",
                "pub struct Error;\npub trait MapResult {}\n",
            ),
            (
                "src/db/mod.rs",
                "pub mod models;\npub use self::models::User;\n",
            ),
            (
                "src/db/models.rs",
                "use crate::{error::MapResult, Error, CONFIG};\n\npub struct User;\n",
            ),
            (
                "src/mail.rs",
                "use crate::{db::User, VERSION, CONFIG};\n",
            ),
        ],
    );
    dir
}

#[test]
fn rust_names_the_crate_root_only_re_exports_are_no_dependency_on_the_root() {
    let project = project();
    let (code, verdict) = json_run(
        lintel()
            .args(["check", "--all", "--json", "--no-cache", "--project"])
            .arg(project.path()),
    );
    assert_eq!(code, 1, "{verdict:#}");
    let found: Vec<(&str, &str, u64)> = detections(&verdict)
        .into_iter()
        .map(|(rule, file, line, _)| (rule, file, line))
        .collect();
    // `Db` names only re-exports of the root; `Mail` names the root's own `VERSION`.
    assert_eq!(found, [("deny flow Mail -> Main", "src/mail.rs", 1)]);
}
