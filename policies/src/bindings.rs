//! What the `clients` and `urls` bindings of a node or resource mean (see `node` and `resource` in policies/LANGUAGE.md),
//! shared by the checker (which validates them) and the engine (which resolves facts with them).
//!
//! A library binds a package when the package is the library or lies below it: `sequelize` binds
//! `sequelize`, `org.hibernate` binds `org.hibernate.Session`, `github.com/jackc/pgx/v5` binds
//! `github.com/jackc/pgx/v5/pgxpool`, `Npgsql` binds `Npgsql.NpgsqlConnection`, `sqlx` binds
//! `sqlx::postgres`, `@google-cloud/storage` binds `@google-cloud/storage/build/src`.
//! A `urls` entry is a configuration name when it contains no `/` (`ALERTMANAGER_URL`,
//! `Payments:BaseUrl`), else a URL glob (`*` and `**` as in component paths, see `component` in policies/LANGUAGE.md) matched against a URL without
//! its query string and fragment.

use globset::{GlobBuilder, GlobMatcher};

/// One `urls` entry, compiled.
#[derive(Debug, Clone)]
pub enum UrlBinding {
    /// An environment variable or configuration key (no `/`).
    Name(String),
    /// A URL glob.
    Glob(GlobMatcher),
}

impl UrlBinding {
    /// Compiles one `urls` entry; `Err` says why the glob is invalid.
    pub fn parse(text: &str) -> Result<Self, String> {
        if !text.contains('/') {
            return Ok(Self::Name(text.to_owned()));
        }
        if let Some(problem) = crate::limits::glob_size_problem(text) {
            return Err(problem);
        }
        GlobBuilder::new(text)
            .literal_separator(true)
            .build()
            .map(|glob| Self::Glob(glob.compile_matcher()))
            .map_err(|error| error.kind().to_string())
    }

    /// Whether a call whose literal URL is `url` (`None` when not known) and which is built
    /// from the configuration names `names` is bound by this entry.
    pub fn binds(&self, url: Option<&str>, names: &[&str]) -> bool {
        match self {
            Self::Name(name) => names.iter().any(|used| used == name),
            Self::Glob(glob) => url.is_some_and(|url| {
                let url = without_query(url);
                // `https://host/**` also binds the bare origin `https://host`.
                glob.is_match(url) || !url.ends_with('/') && glob.is_match(format!("{url}/"))
            }),
        }
    }
}

/// A URL without its query string and fragment.
pub fn without_query(url: &str) -> &str {
    let end = url.find(['?', '#']).unwrap_or(url.len());
    url.get(..end).unwrap_or(url)
}

/// Whether the library `library` of a `clients` list binds the package `package` of a fact:
/// the package is the library or lies below it (after `/`, `.` or `::`). A library may be
/// written as its users know it: a Go module path with its major version (`…/go-redis/v9`,
/// whose clients lintel names without it) and a Rust crate with dashes (`async-nats`, which the
/// code writes `async_nats`).
pub fn library_binds(library: &str, package: &str) -> bool {
    let below = |library: &str| match package.strip_prefix(library) {
        Some("") => true,
        Some(rest) => rest.starts_with('/') || rest.starts_with('.') || rest.starts_with("::"),
        None => false,
    };
    let without_major = library.rsplit_once("/v").and_then(|(base, version)| {
        (!version.is_empty() && version.bytes().all(|byte| byte.is_ascii_digit())).then_some(base)
    });
    below(library)
        || without_major.is_some_and(below)
        || (library.contains('-') && !library.contains('/') && below(&library.replace('-', "_")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_library_binds_itself_and_what_lies_below_it() {
        assert!(library_binds("sequelize", "sequelize"));
        assert!(!library_binds("sequelize", "sequelize-typescript"));
        assert!(library_binds("org.hibernate", "org.hibernate.Session"));
        assert!(library_binds(
            "github.com/jackc/pgx/v5",
            "github.com/jackc/pgx/v5/pgxpool"
        ));
        assert!(library_binds("sqlx", "sqlx::postgres"));
        assert!(!library_binds("pg", "pgx"));
        // A Go module's major version, which lintel's client names leave out.
        assert!(library_binds(
            "github.com/redis/go-redis/v9",
            "github.com/redis/go-redis"
        ));
        assert!(!library_binds("github.com/acme/vnext", "github.com/acme"));
        // A Rust crate written with dashes binds the name the code uses.
        assert!(library_binds("async-nats", "async_nats"));
        assert!(library_binds("async-nats", "async_nats::jetstream"));
        assert!(!library_binds("@scope/a-b", "@scope/a_b"));
    }

    #[test]
    fn a_url_glob_binds_literal_urls_and_a_name_binds_configuration() {
        let glob = UrlBinding::parse("https://alertmanager:9093/**").unwrap();
        assert!(glob.binds(Some("https://alertmanager:9093/api/v2/alerts?x=1"), &[]));
        assert!(glob.binds(Some("https://alertmanager:9093"), &[]));
        assert!(!glob.binds(Some("https://other:9093/api"), &[]));
        assert!(!glob.binds(None, &["ALERTMANAGER_URL"]));
        let any_scheme = UrlBinding::parse("*://payments.internal/**").unwrap();
        assert!(any_scheme.binds(Some("http://payments.internal/v1/charges"), &[]));
        let name = UrlBinding::parse("ALERTMANAGER_URL").unwrap();
        assert!(name.binds(None, &["ALERTMANAGER_URL"]));
        assert!(!name.binds(Some("ALERTMANAGER_URL"), &[]));
        assert!(UrlBinding::parse("https://x/[").is_err());
    }
}
