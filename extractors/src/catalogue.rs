//! The infrastructure catalogue: the libraries whose use is access to a database, a cache, a
//! queue, object storage or an outside API, one data file per ecosystem under
//! `extractors/catalogue/` (`npm.toml`, `pypi.toml`, `go.toml`, `maven.toml`, `nuget.toml`,
//! `crates.toml`, `swift.toml`, and `schemes.toml` for connection strings).
//!
//! Each `[[library]]` entry names the library as its ecosystem does (`name`, reported as the
//! fact's `package`), the constructs that make a definite access (`constructs`, `calls`,
//! `types`), its technology `category` and how a sharper one is derived (`derive`), and a
//! one-line `note`. The files are embedded in the binary, parsed and validated once per process
//! ([`catalogue`]); the extractors read their rules from here and hold no client list of their
//! own. `docs/CATALOGUE.md` is generated from the files ([`reference`]), so it cannot drift.
//!
//! Fields of an entry:
//! - `name`, `category`, `note`: required.
//! - `imports`: the import prefixes (module, package, namespace, crate path) that bring the
//!   library in; default `[name]`. Not used by npm, whose imports are package names.
//! - `constructs`, `calls`, `types`: tails of what a site constructs, calls, or injects or
//!   extends (npm: export paths through the import bindings; a class that extends one of
//!   `constructs` is a use, and a parameter typed with one of `constructs` or `types` is one,
//!   npm's `types` naming client types that are no class, such as axios's `AxiosInstance`).
//! - `derive`: `connection` (the first string argument is a connection URL or driver name, read
//!   through `schemes.toml`), `argument` (the first string argument through the entry's
//!   `arguments` table, `"*"` standing for any other), `options` (npm: a property of an options
//!   object among the arguments, named in `options`, through `schemes.toml`, or a connection URL
//!   as first argument), `prisma-schema` and `drizzle-module` (npm: the project's Prisma schema;
//!   the Drizzle dialect module, through `modules`), `django-settings` (pypi: the `ENGINE` of
//!   the Django settings' `DATABASES`), `django-caches` (pypi: the store of the `BACKEND`s of
//!   the Django settings' `CACHES`, when they agree; a use is none when they name no store, as
//!   an in-process cache), `spring-datasource` (maven: the relational datasource
//!   of the module's Spring Boot, Quarkus or Micronaut configuration, a fact per store its
//!   profiles name), `configured-store` (maven: the same, else the MongoDB connection the
//!   configuration or the module build's MongoDB starter names, for a repository abstraction
//!   that may be either).
//! - `argument_positions` (Go): per call of `calls`, the 1-based position of the string
//!   argument `derive` reads where it is not the first (Beego's `RegisterDataBase(alias,
//!   driver, dsn)` names its driver second: `{ RegisterDataBase = 2 }`); a call not listed reads
//!   its first argument.
//! - `by_name`: the category of a site by the tail it matched (`PgPool::connect` → `postgres`).
//! - `probable_on_import` (default true): whether importing the library alone is a probable
//!   access; `probable_names` (npm, Go, the JVM, C#, Rust and Python): the named imports (Go: the
//!   names a file refers to through the package; the JVM: the type a single-type import names,
//!   of the package or one below it (`software.amazon.awssdk.services.sesv2.model.Destination`);
//!   Rust: the type or trait a `use` names, a module, function or glob always counting; Python:
//!   the names of a `from` import of the package or a module below it, a submodule counting only
//!   when listed, `import m` and `*` always) that make it
//!   one, when the package also exports plain values and types (`@prisma/client`'s enums and
//!   model types are no access, its `PrismaClient` and `Prisma` may be; `database/sql`'s
//!   `NullInt64` and `ErrNoRows` are none, its `DB` and `Rows` may be; `java.sql.Timestamp` is
//!   none, `java.sql.Connection` may be); a default or namespace import always does, and so
//!   does a Go dot or blank import, and a JVM wildcard import or a C# `using` of a namespace
//!   through which the file names one of them (a simple name it uses); `sub_packages` (default true): whether the import prefixes also stand for the
//!   packages below them after `/`; `languages`: the languages of the file an entry applies to,
//!   when not all of them; `requires_import` (default false): a site matched by its name alone
//!   counts only in a file that imports one of `imports`; `extends` (default true): whether a
//!   class that extends or implements one of `types` (npm: `constructs`) is a use (false for an
//!   interface that a class implements to be the store, such as `IDistributedCache`);
//!   `settings` (pypi): the module-level settings that hold the library's connection URL
//!   (`CELERY_BROKER_URL = "redis://…"`, or an app's `conf` attribute: `app.conf.broker_url =
//!   …`), each a definite site that configures the entry's
//!   first `calls` entry, the URL read as its first argument;
//!   `factories` (pypi): the calls that make a session whose methods are the library's
//!   `calls` (boto3's `Session`: `boto3.Session(…).client("s3")`, also through a name or
//!   attribute assigned the session, `session = boto3.Session(…)` then
//!   `session.client("bedrock")`); a session alone is no access, and no bare import either
//!   (`boto3.Session().get_credentials()` reads credentials);
//!   `stand_in` (nuget, default false): an EF Core provider that stands in for the real store
//!   in tests and development (`UseInMemoryDatabase`): a context configured with it and with a
//!   real store takes the real store's category; `driver_api` (default false): a generic SQL
//!   API that reaches its store through a driver the program registers (Go's `database/sql`),
//!   so a driver a node binds names the store of its uses even beside an unbound store;
//!   `min_arguments` (nuget, default 0): how many arguments a call of `calls` takes at least, so
//!   a call with fewer is another library's method of the same name (Dapper's queries take
//!   their SQL; EF Core's `Query()` of a navigation takes nothing); `commands` (npm): the
//!   suffix of the request values the client sends (AWS SDK v3's `Command`): a construction
//!   of one as the argument of a `.send(…)` call, or held by a `const` that the same block
//!   sends, is a use through a client made anywhere (`client.send(new PutObjectCommand(…))`),
//!   while a command built and handed elsewhere is none; `module_exports` (npm): the modules
//!   below the package whose default export is one of its exports, by path below the package
//!   (`"clients/s3" = "S3"`: `const S3 = require('aws-sdk/clients/s3'); new S3()` constructs
//!   the AWS SDK v2's `S3`, as `new AWS.S3()` does).

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Deserialize;

/// The catalogue files, embedded: (file name, text).
const FILES: [(&str, &str); 7] = [
    ("npm.toml", include_str!("../catalogue/npm.toml")),
    ("pypi.toml", include_str!("../catalogue/pypi.toml")),
    ("go.toml", include_str!("../catalogue/go.toml")),
    ("maven.toml", include_str!("../catalogue/maven.toml")),
    ("nuget.toml", include_str!("../catalogue/nuget.toml")),
    ("crates.toml", include_str!("../catalogue/crates.toml")),
    ("swift.toml", include_str!("../catalogue/swift.toml")),
];

const SCHEMES: (&str, &str) = ("schemes.toml", include_str!("../catalogue/schemes.toml"));

/// The languages an ecosystem file may name.
const LANGUAGES: [&str; 9] = [
    "typescript",
    "javascript",
    "python",
    "go",
    "java",
    "kotlin",
    "csharp",
    "rust",
    "swift",
];

/// How a site's category is derived beyond the entry's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Derive {
    /// The entry's category.
    Fixed,
    /// The first string argument, a connection URL or a driver name, through the scheme table.
    Connection,
    /// The first string argument through the entry's `arguments`.
    Argument,
    /// A property of an options object (or a connection URL first argument), through the
    /// scheme table.
    Options,
    /// The provider of the applicable `schema.prisma`.
    PrismaSchema,
    /// The Drizzle dialect module, through the entry's `modules`.
    DrizzleModule,
    /// The `ENGINE` of the project's Django `DATABASES` setting, when it is a literal.
    DjangoSettings,
    /// The store of the `BACKEND`s of the project's Django `CACHES` setting (a library of the
    /// catalogue that configures it), when they agree; none when they name no store.
    DjangoCaches,
    /// The `spring.datasource.url` of the Spring Boot configuration of the file's module, per
    /// profile (`application-postgres.yml`).
    SpringDatasource,
    /// As [`Derive::SpringDatasource`], else the MongoDB connection of the configuration
    /// (`mongodb.uri`): a repository abstraction over either kind of store (Micronaut Data).
    ConfiguredStore,
}

impl Derive {
    fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "connection" => Self::Connection,
            "argument" => Self::Argument,
            "options" => Self::Options,
            "prisma-schema" => Self::PrismaSchema,
            "drizzle-module" => Self::DrizzleModule,
            "django-settings" => Self::DjangoSettings,
            "django-caches" => Self::DjangoCaches,
            "spring-datasource" => Self::SpringDatasource,
            "configured-store" => Self::ConfiguredStore,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Self::Fixed => "",
            Self::Connection => "connection",
            Self::Argument => "argument",
            Self::Options => "options",
            Self::PrismaSchema => "prisma-schema",
            Self::DrizzleModule => "drizzle-module",
            Self::DjangoSettings => "django-settings",
            Self::DjangoCaches => "django-caches",
            Self::SpringDatasource => "spring-datasource",
            Self::ConfiguredStore => "configured-store",
        }
    }
}

/// A name-to-category table, sorted by name.
pub(crate) type Table = &'static [(&'static str, &'static str)];

/// One library of the catalogue.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Library {
    /// The library as its ecosystem names it; the fact's `package`.
    pub name: &'static str,
    /// The category (or resource type) it reaches.
    pub category: &'static str,
    /// One line on what it is.
    pub note: &'static str,
    /// Import prefixes that bring it in.
    pub imports: &'static [&'static str],
    /// Tails (npm: export paths) of constructed types.
    pub constructs: &'static [&'static str],
    /// Tails (npm: export paths) of called functions or methods.
    pub calls: &'static [&'static str],
    /// Tails of injected or extended types.
    pub types: &'static [&'static str],
    /// How a sharper category is derived.
    pub derive: Derive,
    /// `derive = "argument"`: first argument → category (`*` for any other).
    pub arguments: Table,
    /// Go: per call tail, the 1-based position of the argument `derive` reads, where it is not
    /// the first.
    pub argument_positions: &'static [(&'static str, usize)],
    /// `derive = "options"`: the option properties that name the store.
    pub options: &'static [&'static str],
    /// `derive = "drizzle-module"`: dialect module → category.
    pub modules: Table,
    /// pypi: the module-level settings that hold its connection URL (Celery's
    /// `CELERY_BROKER_URL`), each a site that configures its first `calls` entry.
    pub settings: &'static [&'static str],
    /// pypi: the calls that make a session whose methods are its `calls` (boto3's `Session`).
    pub factories: &'static [&'static str],
    /// A site's category by the tail it matched.
    pub by_name: Table,
    /// Whether importing it alone is a probable access.
    pub is_probable_on_import: bool,
    /// npm and Python: the named imports, Go: the names referred to through the package, that
    /// make importing it alone a probable access (empty: any).
    pub probable_names: &'static [&'static str],
    /// Whether its import prefixes also stand for the packages below them after `/`.
    pub matches_sub_packages: bool,
    /// The languages it applies to (empty: every language of its ecosystem).
    pub languages: &'static [&'static str],
    /// Whether a site matched by its name alone (C#, Swift) counts only in a file that imports
    /// one of `imports` (for names as plain as SQLite.swift's `Connection`).
    pub requires_import: bool,
    /// Whether a class that extends or implements one of `types` uses the library (a Spring Data
    /// repository, a `DbContext`), or only a field or parameter of it does (a class that
    /// implements `IDistributedCache` is a cache, not a user of one).
    pub is_extended_by_use: bool,
    /// nuget: an EF Core provider that stands in for the real store in tests and development, so
    /// a context configured with it and with a real store takes the real store's category.
    pub is_stand_in: bool,
    /// A generic SQL API that reaches its store through a driver the program registers (Go's
    /// `database/sql`): a bound driver names the store of its uses.
    pub is_driver_api: bool,
    /// nuget: how many arguments a call of `calls` takes at least (Dapper's queries their SQL).
    pub min_arguments: usize,
    /// npm: the suffix of the request values its client sends (AWS SDK v3's `Command`): one
    /// constructed as the argument of a `.send(…)` call, or held by a `const` that the same
    /// block sends, is a use, whoever made the client; empty for none.
    pub commands: &'static str,
    /// npm: module below the package → the export its default export is.
    pub module_exports: &'static [(&'static str, &'static str)],
}

impl Library {
    /// An entry with no tails, for tests of the matchers.
    #[cfg(test)]
    pub const fn new(
        name: &'static str,
        category: &'static str,
        imports: &'static [&'static str],
    ) -> Self {
        Self {
            name,
            category,
            note: "",
            imports,
            constructs: &[],
            calls: &[],
            types: &[],
            derive: Derive::Fixed,
            arguments: &[],
            argument_positions: &[],
            options: &[],
            modules: &[],
            settings: &[],
            factories: &[],
            by_name: &[],
            is_probable_on_import: true,
            probable_names: &[],
            matches_sub_packages: true,
            languages: &[],
            requires_import: false,
            is_extended_by_use: true,
            is_stand_in: false,
            is_driver_api: false,
            min_arguments: 0,
            commands: "",
            module_exports: &[],
        }
    }

    /// The export path of `export_path` of the module `specifier` in the package's own terms:
    /// the default export of a module its `module_exports` lists is that export
    /// (`aws-sdk/clients/s3`'s `default` is `S3`, and `default.x` is `S3.x`).
    pub fn export_path_of(&self, specifier: &str, export_path: &str) -> Option<String> {
        let module = specifier.strip_prefix(self.name)?.strip_prefix('/')?;
        let export = lookup(self.module_exports, module)?;
        let rest = export_path.strip_prefix("default")?;
        (rest.is_empty() || rest.starts_with('.')).then(|| format!("{export}{rest}"))
    }

    /// The category of a site that matched `tail` with first string argument `argument`.
    pub fn category_of(
        &self,
        tail: Option<&str>,
        argument: Option<&str>,
        options: &[(String, String)],
    ) -> &'static str {
        if let Some(category) = tail.and_then(|tail| lookup(self.by_name, tail)) {
            return category;
        }
        let derived = match self.derive {
            Derive::Connection => argument.and_then(connection_category),
            Derive::Options => argument.and_then(connection_category).or_else(|| {
                self.options.iter().find_map(|option| {
                    options
                        .iter()
                        .find(|(name, _)| name == option)
                        .and_then(|(_, value)| connection_category(value))
                })
            }),
            Derive::Argument => argument.and_then(|argument| self.argument_category(argument)),
            Derive::Fixed
            | Derive::PrismaSchema
            | Derive::DrizzleModule
            | Derive::DjangoSettings
            | Derive::DjangoCaches
            | Derive::SpringDatasource
            | Derive::ConfiguredStore => None,
        };
        derived.unwrap_or(self.category)
    }

    /// The 1-based position of the argument `derive` reads in a call of `path` (a call tail
    /// of `argument_positions` that `path` ends with after a `.`, else 1).
    pub fn argument_position(&self, path: &str) -> usize {
        self.argument_positions
            .iter()
            .find(|(tail, _)| {
                path.strip_suffix(tail)
                    .is_some_and(|head| head.is_empty() || head.ends_with('.'))
            })
            .map_or(1, |(_, position)| *position)
    }

    /// The category `arguments` gives a first argument: its own entry, else `*`'s for any
    /// non-empty argument.
    pub fn argument_category(&self, argument: &str) -> Option<&'static str> {
        lookup(self.arguments, argument).or_else(|| {
            (!argument.is_empty())
                .then(|| lookup(self.arguments, "*"))
                .flatten()
        })
    }

    /// Whether the library applies to files of `language`.
    fn applies_to(&self, language: &str) -> bool {
        self.languages.is_empty() || self.languages.contains(&language)
    }
}

/// One ecosystem file.
#[derive(Debug)]
pub(crate) struct Ecosystem {
    /// Its name (`npm`, `pypi`, …).
    pub name: &'static str,
    /// The file it was read from.
    pub file: &'static str,
    /// The file's header comment, for the reference.
    pub description: String,
    /// The languages it serves.
    pub languages: Vec<&'static str>,
    /// Its libraries, in file order: the first that matches a site wins.
    pub libraries: Vec<Library>,
}

/// The whole catalogue.
#[derive(Debug, Default)]
pub(crate) struct Catalogue {
    /// One entry per ecosystem file.
    pub ecosystems: Vec<Ecosystem>,
    /// Connection-string schemes, driver and dialect names → category, sorted.
    pub schemes: Table,
    /// The sub-protocols of proxy drivers and pools that wrap another driver's URL
    /// (`jdbc:p6spy:mysql://…`).
    pub wrappers: &'static [&'static str],
    /// Per language (as named in [`LANGUAGES`]), its libraries in order.
    by_language: BTreeMap<&'static str, &'static [Library]>,
    /// Per language, the last segment of every client type its libraries list (`Pool` of
    /// `pgxpool.Pool`, `PgPool` of `PgPool`): the first test of an injection site.
    type_names: BTreeMap<&'static str, std::collections::HashSet<&'static str>>,
    /// Per language, every client export its libraries construct or call by a plain name
    /// (`PostHog`, `drizzle`, `createClient`; not `default` nor a member path): the names a
    /// project file may re-export for other files to construct or call.
    client_names: BTreeMap<&'static str, std::collections::HashSet<&'static str>>,
    /// Problems found while reading the files (empty when they are sound; a test holds that).
    pub problems: Vec<String>,
}

impl Catalogue {
    /// The libraries that apply to files of `language`, in match order.
    pub fn libraries(&self, language: &str) -> &'static [Library] {
        self.by_language.get(language).copied().unwrap_or(&[])
    }

    /// Whether some library of `language` lists a client type whose last segment is `name`
    /// (a parameter or field of another type is no injection of a client).
    pub fn is_client_type_name(&self, language: &str, name: &str) -> bool {
        self.type_names
            .get(language)
            .is_some_and(|names| names.contains(name))
    }

    /// Whether some library of `language` constructs or calls a client export named `name` (a
    /// plain name, see `client_names`).
    pub fn is_client_name(&self, language: &str, name: &str) -> bool {
        self.client_names
            .get(language)
            .is_some_and(|names| names.contains(name))
    }

    /// The library of `language` whose construct a configuration names by its full path (a
    /// Django `BACKEND`, `django_redis.cache.RedisCache`): one of its import prefixes, then one of
    /// its `calls` or `constructs` tails; with the category of the site that names it.
    pub fn configured(
        &self,
        language: &str,
        path: &str,
    ) -> Option<(&'static Library, &'static str)> {
        self.libraries(language).iter().find_map(|library| {
            let rest = library.imports.iter().find_map(|prefix| {
                path.strip_prefix(prefix)
                    .and_then(|rest| rest.strip_prefix('.'))
            })?;
            let tail = library
                .calls
                .iter()
                .chain(library.constructs)
                .find(|tail| {
                    rest.strip_suffix(**tail)
                        .is_some_and(|head| head.is_empty() || head.ends_with('.'))
                })?;
            Some((library, library.category_of(Some(tail), None, &[])))
        })
    }

    /// The npm library named `package`.
    pub fn npm(&self, package: &str) -> Option<&'static Library> {
        self.libraries("typescript")
            .iter()
            .find(|library| library.name == package)
    }
}

/// The catalogue, read once per process.
pub(crate) fn catalogue() -> &'static Catalogue {
    static CATALOGUE: LazyLock<Catalogue> = LazyLock::new(load);
    &CATALOGUE
}

/// The category a connection URL or driver name names (`postgresql+asyncpg://…` → `postgres`,
/// `jdbc:mysql://…` → `mysql`, `pgx` → `postgres`, `jdbc:p6spy:mysql://…` → `mysql`), when the
/// scheme table lists it.
pub(crate) fn connection_category(text: &str) -> Option<&'static str> {
    let text = text.trim();
    let text = without_wrappers(text.strip_prefix("jdbc:").unwrap_or(text));
    let scheme = match text.split_once(':') {
        Some((scheme, _)) => scheme,
        None => text,
    };
    let scheme = scheme
        .split('+')
        .next()
        .unwrap_or(scheme)
        .to_ascii_lowercase();
    lookup(catalogue().schemes, &scheme)
}

/// A JDBC or R2DBC URL past its `jdbc:` (or `r2dbc:`) prefix, past the sub-protocols of the
/// proxy drivers and pools that wrap another driver's URL (`p6spy:mysql://…` → `mysql://…`).
pub(crate) fn without_wrappers(mut rest: &str) -> &str {
    while let Some((head, tail)) = rest.split_once(':') {
        if tail.starts_with("//")
            || !catalogue()
                .wrappers
                .iter()
                .any(|wrapper| wrapper.eq_ignore_ascii_case(head))
        {
            break;
        }
        rest = tail;
    }
    rest
}

fn lookup(table: Table, name: &str) -> Option<&'static str> {
    table
        .binary_search_by(|(key, _)| (*key).cmp(name))
        .ok()
        .and_then(|index| table.get(index))
        .map(|(_, category)| *category)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    ecosystem: String,
    languages: Vec<String>,
    #[serde(default)]
    library: Vec<RawLibrary>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSchemes {
    #[serde(default)]
    wrappers: Vec<String>,
    schemes: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLibrary {
    name: String,
    category: String,
    note: String,
    imports: Option<Vec<String>>,
    #[serde(default)]
    constructs: Vec<String>,
    #[serde(default)]
    calls: Vec<String>,
    #[serde(default)]
    types: Vec<String>,
    derive: Option<String>,
    #[serde(default)]
    arguments: BTreeMap<String, String>,
    #[serde(default)]
    argument_positions: BTreeMap<String, usize>,
    #[serde(default)]
    options: Vec<String>,
    #[serde(default)]
    modules: BTreeMap<String, String>,
    #[serde(default)]
    settings: Vec<String>,
    #[serde(default)]
    factories: Vec<String>,
    #[serde(default)]
    by_name: BTreeMap<String, String>,
    probable_on_import: Option<bool>,
    #[serde(default)]
    probable_names: Vec<String>,
    sub_packages: Option<bool>,
    requires_import: Option<bool>,
    extends: Option<bool>,
    stand_in: Option<bool>,
    driver_api: Option<bool>,
    min_arguments: Option<usize>,
    commands: Option<String>,
    #[serde(default)]
    module_exports: BTreeMap<String, String>,
    #[serde(default)]
    languages: Vec<String>,
}

fn leak(text: String) -> &'static str {
    text.leak()
}

fn leak_all(texts: Vec<String>) -> &'static [&'static str] {
    texts.into_iter().map(leak).collect::<Vec<_>>().leak()
}

fn leak_table(table: BTreeMap<String, String>) -> Table {
    table
        .into_iter()
        .map(|(key, value)| (leak(key), leak(value)))
        .collect::<Vec<_>>()
        .leak()
}

/// The comment lines at the head of a file, without their `#`.
fn header(text: &str) -> String {
    text.lines()
        .take_while(|line| line.starts_with('#'))
        .map(|line| line.trim_start_matches('#').trim_start())
        .collect::<Vec<_>>()
        .join("\n")
}

fn load() -> Catalogue {
    let mut problems = Vec::new();
    let (schemes, wrappers) = match toml::from_str::<RawSchemes>(SCHEMES.1) {
        Ok(raw) => (leak_table(raw.schemes), leak_all(raw.wrappers)),
        Err(error) => {
            problems.push(format!("{}: {error}", SCHEMES.0));
            (&[] as Table, &[] as &'static [&'static str])
        }
    };
    let mut ecosystems = Vec::new();
    for (file, text) in FILES {
        match toml::from_str::<RawFile>(text) {
            Ok(raw) => ecosystems.push(ecosystem(file, text, raw, &mut problems)),
            Err(error) => problems.push(format!("{file}: {error}")),
        }
    }
    let mut by_language = BTreeMap::new();
    let mut type_names = BTreeMap::new();
    let mut client_names = BTreeMap::new();
    for language in LANGUAGES {
        let libraries: Vec<Library> = ecosystems
            .iter()
            .filter(|ecosystem| ecosystem.languages.contains(&language))
            .flat_map(|ecosystem| ecosystem.libraries.iter())
            .filter(|library| library.applies_to(language))
            .copied()
            .collect();
        let libraries: &'static [Library] = libraries.leak();
        type_names.insert(
            language,
            libraries
                .iter()
                .flat_map(|library| library.types.iter())
                .map(|path| path.rsplit(['.', ':']).next().unwrap_or(path))
                .collect(),
        );
        client_names.insert(
            language,
            libraries
                .iter()
                .flat_map(|library| library.constructs.iter().chain(library.calls))
                .filter(|path| **path != "default" && !path.contains(['.', ':']))
                .copied()
                .collect(),
        );
        by_language.insert(language, libraries);
    }
    Catalogue {
        ecosystems,
        schemes,
        wrappers,
        by_language,
        type_names,
        client_names,
        problems,
    }
}

fn ecosystem(
    file: &'static str,
    text: &str,
    raw: RawFile,
    problems: &mut Vec<String>,
) -> Ecosystem {
    let languages: Vec<&'static str> = raw
        .languages
        .iter()
        .filter_map(|language| {
            let known = LANGUAGES.iter().find(|known| **known == language.as_str());
            if known.is_none() {
                problems.push(format!("{file}: unknown language `{language}`"));
            }
            known.copied()
        })
        .collect();
    let is_npm = raw.ecosystem == "npm";
    let is_pypi = raw.ecosystem == "pypi";
    let raw_ecosystem = raw.ecosystem.clone();
    let mut names = std::collections::BTreeSet::new();
    let libraries = raw
        .library
        .into_iter()
        .map(|library| {
            let at = format!("{file}: library `{}`", library.name);
            if !names.insert(library.name.clone()) {
                problems.push(format!("{at}: listed twice"));
            }
            check_library(&at, &library, &languages, &raw_ecosystem, problems);
            let derive = match library.derive.as_deref() {
                None => Derive::Fixed,
                Some(name) => Derive::parse(name).unwrap_or(Derive::Fixed),
            };
            if matches!(derive, Derive::DjangoSettings | Derive::DjangoCaches) && !is_pypi {
                problems.push(format!(
                    "{at}: `derive = \"{}\"` is for Python",
                    derive.name()
                ));
            }
            if matches!(derive, Derive::SpringDatasource | Derive::ConfiguredStore)
                && raw_ecosystem != "maven"
            {
                problems.push(format!(
                    "{at}: `derive = \"{}\"` is for JVM libraries",
                    derive.name()
                ));
            }
            let imports = library.imports.unwrap_or_else(|| {
                if is_npm {
                    Vec::new()
                } else {
                    vec![library.name.clone()]
                }
            });
            Library {
                name: leak(library.name),
                category: leak(library.category),
                note: leak(library.note),
                imports: leak_all(imports),
                constructs: leak_all(library.constructs),
                calls: leak_all(library.calls),
                types: leak_all(library.types),
                derive,
                arguments: leak_table(library.arguments),
                argument_positions: library
                    .argument_positions
                    .into_iter()
                    .map(|(tail, position)| (leak(tail), position))
                    .collect::<Vec<_>>()
                    .leak(),
                options: leak_all(library.options),
                modules: leak_table(library.modules),
                settings: leak_all(library.settings),
                factories: leak_all(library.factories),
                by_name: leak_table(library.by_name),
                is_probable_on_import: library.probable_on_import.unwrap_or(true),
                probable_names: leak_all(library.probable_names),
                matches_sub_packages: library.sub_packages.unwrap_or(true),
                languages: leak_all(library.languages),
                requires_import: library.requires_import.unwrap_or(false),
                is_extended_by_use: library.extends.unwrap_or(true),
                is_stand_in: library.stand_in.unwrap_or(false),
                is_driver_api: library.driver_api.unwrap_or(false),
                min_arguments: library.min_arguments.unwrap_or(0),
                commands: library.commands.map_or("", leak),
                module_exports: leak_table(library.module_exports),
            }
        })
        .collect();
    Ecosystem {
        name: leak(raw.ecosystem),
        file,
        description: header(text),
        languages,
        libraries,
    }
}

/// The structural checks of one entry; categories are checked against the language's
/// vocabulary by the engine's tests, which see it.
fn check_library(
    at: &str,
    library: &RawLibrary,
    languages: &[&str],
    ecosystem: &str,
    problems: &mut Vec<String>,
) {
    let is_npm = ecosystem == "npm";
    let mut problem = |text: String| problems.push(format!("{at}: {text}"));
    if library.name.trim().is_empty() || library.note.trim().is_empty() {
        problem("`name` and `note` must not be empty".to_owned());
    }
    let derive = library
        .derive
        .as_deref()
        .map(|name| (name, Derive::parse(name)));
    if let Some((name, None)) = derive {
        problem(format!("unknown `derive` `{name}`"));
    }
    let derive = derive
        .and_then(|(_, derive)| derive)
        .unwrap_or(Derive::Fixed);
    let unused = [
        (
            !library.arguments.is_empty() && derive != Derive::Argument,
            "arguments",
        ),
        (
            !library.argument_positions.is_empty()
                && (languages != ["go"]
                    || !matches!(derive, Derive::Connection | Derive::Argument)),
            "argument_positions",
        ),
        (
            !library.options.is_empty() && derive != Derive::Options,
            "options",
        ),
        (
            !library.modules.is_empty() && derive != Derive::DrizzleModule,
            "modules",
        ),
        (
            !library.settings.is_empty() && (ecosystem != "pypi" || library.calls.is_empty()),
            "settings",
        ),
        (
            !library.factories.is_empty() && (ecosystem != "pypi" || library.calls.is_empty()),
            "factories",
        ),
        (is_npm && library.imports.is_some(), "imports"),
        (is_npm && library.sub_packages.is_some(), "sub_packages"),
        (
            !is_npm && !library.module_exports.is_empty(),
            "module_exports",
        ),
        (
            library.stand_in.is_some() && (ecosystem != "nuget" || library.calls.is_empty()),
            "stand_in",
        ),
        (
            library.driver_api.is_some() && library.category != "relational_db",
            "driver_api",
        ),
        (
            library.min_arguments.is_some() && (ecosystem != "nuget" || library.calls.is_empty()),
            "min_arguments",
        ),
        (
            library
                .commands
                .as_deref()
                .is_some_and(|suffix| !is_npm || suffix.trim().is_empty()),
            "commands",
        ),
        (
            !library.probable_names.is_empty()
                && (!(is_npm
                    || languages == ["go"]
                    || ecosystem == "maven"
                    || ecosystem == "crates"
                    || ecosystem == "pypi"
                    || ecosystem == "nuget")
                    || library.probable_on_import == Some(false)),
            "probable_names",
        ),
    ];
    for (is_unused, field) in unused {
        if is_unused {
            problem(format!("`{field}` is not used here"));
        }
    }
    for (tail, position) in &library.argument_positions {
        if !library.calls.contains(tail) || *position < 2 {
            problem(format!(
                "`argument_positions` names `{tail} = {position}`: a call of `calls` and a position after the first"
            ));
        }
    }
    if derive == Derive::Argument && library.arguments.is_empty() {
        problem("`derive = \"argument\"` needs an `arguments` table".to_owned());
    }
    if derive == Derive::Options && library.options.is_empty() {
        problem("`derive = \"options\"` needs `options`".to_owned());
    }
    if derive == Derive::DrizzleModule && library.modules.is_empty() {
        problem("`derive = \"drizzle-module\"` needs a `modules` table".to_owned());
    }
    if !is_npm && matches!(derive, Derive::PrismaSchema | Derive::DrizzleModule) {
        problem(format!(
            "`derive = \"{}\"` is for npm packages",
            derive.name()
        ));
    }
    let tails: Vec<&String> = library
        .constructs
        .iter()
        .chain(&library.calls)
        .chain(&library.types)
        .collect();
    for (module, export) in &library.module_exports {
        if module.trim().is_empty() || !tails.contains(&export) {
            problem(format!(
                "`module_exports` names `{module} = {export}`: a module and a construct, call or type"
            ));
        }
    }
    for name in library.by_name.keys() {
        if !tails.contains(&name) {
            problem(format!(
                "`by_name` names `{name}`, which no construct, call or type lists"
            ));
        }
    }
    if tails.is_empty() && library.probable_on_import == Some(false) {
        problem(
            "no construct, call or type, and no probable fact on import: it can never match"
                .to_owned(),
        );
    }
    for language in &library.languages {
        if !languages.contains(&language.as_str()) {
            problem(format!("language `{language}` is not one of the file's"));
        }
    }
    for list in [&library.constructs, &library.calls, &library.types] {
        let mut seen = std::collections::BTreeSet::new();
        for tail in list {
            if tail.trim().is_empty() || !seen.insert(tail) {
                problem(format!("empty or repeated tail `{tail}`"));
            }
        }
    }
}

/// Every category the catalogue can give a fact: the entries' own, their tables' and the
/// scheme table's (for the vocabulary test).
pub fn categories() -> Vec<(String, &'static str)> {
    let catalogue = catalogue();
    let mut categories = Vec::new();
    for ecosystem in &catalogue.ecosystems {
        for library in &ecosystem.libraries {
            let at = format!("{}: library `{}`", ecosystem.file, library.name);
            categories.push((at.clone(), library.category));
            for (_, category) in library
                .arguments
                .iter()
                .chain(library.modules)
                .chain(library.by_name)
            {
                categories.push((at.clone(), *category));
            }
        }
    }
    for (scheme, category) in catalogue.schemes {
        categories.push((format!("schemes.toml: `{scheme}`"), *category));
    }
    categories
}

/// Whether `library` is a generic SQL API that reaches its store through a registered driver
/// (`driver_api`: Go's `database/sql`), in any ecosystem.
pub fn is_driver_api(library: &str) -> bool {
    any_entry_named(library, |entry| entry.is_driver_api)
}

/// Whether `library` is an entry that stands in for a real store in tests and development
/// (`stand_in`: EF Core's in-memory provider), in any ecosystem.
pub fn is_stand_in(library: &str) -> bool {
    any_entry_named(library, |entry| entry.is_stand_in)
}

/// Whether `library` is an entry whose import prefixes stand for themselves only
/// (`sub_packages = false`: Go's `database/sql` is not `database/sql/driver`), in any ecosystem.
pub fn has_no_sub_packages(library: &str) -> bool {
    any_entry_named(library, |entry| !entry.matches_sub_packages)
}

/// Whether `package` names a catalogue entry of its own inside the entry a binding names
/// (`django.core.cache` and `django.core.cache.cache`, Django's cache backends and cache API,
/// inside `django`, its ORM), in one ecosystem: a binding of the outer entry (`clients:
/// "django"`) names that entry's store, and the nested entry stays the catalogue's, with its own
/// store (DefectDojo's Redis cache had become an access of the PostgreSQL node bound to Django).
pub fn is_separate_entry(binding: &str, package: &str) -> bool {
    let inside = package
        .strip_prefix(binding)
        .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('/'));
    inside
        && catalogue().ecosystems.iter().any(|ecosystem| {
            let named = |name: &str| ecosystem.libraries.iter().any(|entry| entry.name == name);
            named(binding) && named(package)
        })
}

/// Whether some ecosystem's entry named `library` is one `test` accepts.
fn any_entry_named(library: &str, test: impl Fn(&Library) -> bool) -> bool {
    catalogue()
        .ecosystems
        .iter()
        .flat_map(|ecosystem| ecosystem.libraries.iter())
        .any(|entry| entry.name == library && test(entry))
}

/// Problems found in the catalogue files (none in a sound build).
pub fn problems() -> &'static [String] {
    &catalogue().problems
}

/// A fingerprint of the catalogue's text, for caches keyed by what the extractors know.
pub fn fingerprint() -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for (file, text) in FILES.iter().chain([&SCHEMES]) {
        file.hash(&mut hasher);
        text.hash(&mut hasher);
    }
    hasher.finish()
}

/// The user reference of the catalogue (`docs/CATALOGUE.md`), generated from the files.
pub fn reference() -> String {
    let catalogue = catalogue();
    let mut out = String::from(
        "# The infrastructure catalogue\n\n\
         <!-- Generated from extractors/catalogue/*.toml by `LINTEL_BLESS=1 cargo test -p extractors catalogue`; do not edit. -->\n\n\
         lintel knows these libraries as infrastructure clients. A use of one is an `accesses_technology` fact: \
         `definite` when the code constructs, calls or injects (or extends) what the entry lists, \
         `probable` for a bare import (where the entry allows it). The fact's technology is the entry's category, \
         made sharper where the entry says how (a connection URL's scheme, a driver or dialect name, an AWS service name, \
         the type used). A library that a node or resource of the spec lists in `clients` is that entity's, \
         whatever its category here.\n\n\
         Categories resolve to the spec's nodes and resources as the language reference's \"Flow graph\" table says \
         (`postgres` reaches a node of type `postgres`, `timescaledb` or `relational_db`, and so on).\n",
    );
    for ecosystem in &catalogue.ecosystems {
        out.push_str(&format!(
            "\n## {} ({})\n\n{}\n\n| library | category | definite on | note |\n|---|---|---|---|\n",
            ecosystem.name,
            ecosystem.languages.join(", "),
            ecosystem.description,
        ));
        for library in &ecosystem.libraries {
            let mut on: Vec<String> = Vec::new();
            for (label, list) in [
                ("new", library.constructs),
                ("call", library.calls),
                ("type", library.types),
            ] {
                if !list.is_empty() {
                    let names: Vec<String> = list.iter().map(|name| format!("`{name}`")).collect();
                    on.push(format!("{label} {}", names.join(", ")));
                }
            }
            if !library.settings.is_empty() {
                let names: Vec<String> = library
                    .settings
                    .iter()
                    .map(|name| format!("`{name}`"))
                    .collect();
                on.push(format!("setting {}", names.join(", ")));
            }
            if !library.factories.is_empty() {
                let names: Vec<String> = library
                    .factories
                    .iter()
                    .map(|name| format!("`{name}`"))
                    .collect();
                on.push(format!("(the calls of a session of {})", names.join(", ")));
            }
            if library.is_driver_api {
                on.push(
                    "(a driver API: a driver a node binds names the store of its uses)".to_owned(),
                );
            }
            if !library.argument_positions.is_empty() {
                let read: Vec<String> = library
                    .argument_positions
                    .iter()
                    .map(|(tail, position)| format!("argument {position} of `{tail}`"))
                    .collect();
                on.push(format!("(the store read from {})", read.join(", ")));
            }
            if library.min_arguments > 0 {
                on.push(format!(
                    "(a call with at least {} argument{})",
                    library.min_arguments,
                    if library.min_arguments == 1 { "" } else { "s" }
                ));
            }
            if !library.module_exports.is_empty() {
                let modules: Vec<String> = library
                    .module_exports
                    .iter()
                    .map(|(module, export)| format!("`{}/{module}` (`{export}`)", library.name))
                    .collect();
                on.push(format!("the default export of {}", modules.join(", ")));
            }
            if !library.commands.is_empty() {
                on.push(format!(
                    "a `…{}` it constructs and sends (`.send(new X{}(…))`, or a `const` the same block sends)",
                    library.commands, library.commands
                ));
            }
            if library.is_stand_in {
                on.push(
                    "(a stand-in: a context configured with a real store too takes that store's category)"
                        .to_owned(),
                );
            }
            if !library.is_probable_on_import {
                on.push("(no probable fact on import)".to_owned());
            } else if !library.probable_names.is_empty() {
                let names: Vec<String> = library
                    .probable_names
                    .iter()
                    .map(|name| format!("`{name}`"))
                    .collect();
                on.push(format!(
                    "(a probable fact on importing {} only)",
                    names.join(", ")
                ));
            }
            let mut category = format!("`{}`", library.category);
            if library.derive != Derive::Fixed {
                category.push_str(&format!(", or by `{}`", library.derive.name()));
            }
            if !library.by_name.is_empty() {
                category.push_str(", or by the type used");
            }
            let mut name = format!("`{}`", library.name);
            if !library.languages.is_empty() {
                name.push_str(&format!(" ({} only)", library.languages.join(", ")));
            }
            out.push_str(&format!(
                "| {name} | {category} | {} | {} |\n",
                on.join("; ").replace('|', "\\|"),
                library.note.replace('|', "\\|"),
            ));
        }
    }
    out.push_str(
        "\n## Connection strings, drivers and dialects\n\n| name | category |\n|---|---|\n",
    );
    for (scheme, category) in catalogue.schemes {
        out.push_str(&format!("| `{scheme}` | `{category}` |\n"));
    }
    let wrappers: Vec<String> = catalogue
        .wrappers
        .iter()
        .map(|wrapper| format!("`{wrapper}`"))
        .collect();
    out.push_str(&format!(
        "\nA JDBC or R2DBC URL is read past the sub-protocols of the proxy drivers and pools that \
         wrap another driver's URL (`jdbc:p6spy:mysql://…` names `mysql`): {}.\n",
        wrappers.join(", ")
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_files_are_sound() {
        assert_eq!(problems(), &[] as &[String]);
        assert_eq!(catalogue().ecosystems.len(), FILES.len());
    }

    #[test]
    fn the_checks_find_unknown_fields_duplicates_and_unused_tables() {
        let text = "ecosystem = \"pypi\"\nlanguages = [\"python\"]\n\
            [[library]]\nname = \"a\"\ncategory = \"redis\"\nnote = \"n\"\ncalls = [\"x\"]\nmodules = { x = \"sqlite\" }\n\
            [[library]]\nname = \"a\"\ncategory = \"redis\"\nnote = \"n\"\nprobable_on_import = false\n\
            [[library]]\nname = \"b\"\ncategory = \"redis\"\nnote = \"n\"\ncalls = [\"x\"]\nprobable_names = [\"X\"]\nprobable_on_import = false\n\
            [[library]]\nname = \"c\"\ncategory = \"redis\"\nnote = \"n\"\ncalls = [\"x\"]\nstand_in = true\n\
            [[library]]\nname = \"d\"\ncategory = \"redis\"\nnote = \"n\"\ncalls = [\"x\"]\ndriver_api = true\n";
        let mut problems = Vec::new();
        let raw: RawFile = toml::from_str(text).unwrap();
        ecosystem("test.toml", text, raw, &mut problems);
        assert!(
            problems
                .iter()
                .any(|problem| problem.contains("listed twice")),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|problem| problem.contains("`modules` is not used")),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|problem| problem.contains("can never match")),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|problem| problem.contains("`probable_names` is not used")),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|problem| problem.contains("library `c`: `stand_in` is not used")),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|problem| problem.contains("library `d`: `driver_api` is not used")),
            "{problems:?}"
        );
        let unknown = "ecosystem = \"go\"\nlanguages = [\"go\"]\n[[library]]\nname = \"a\"\ncategory = \"redis\"\nnote = \"n\"\nconstruct = [\"x\"]\n";
        assert!(toml::from_str::<RawFile>(unknown).is_err());
    }

    #[test]
    fn connection_strings_and_driver_names_give_their_store() {
        assert_eq!(
            connection_category("postgresql+asyncpg://u@h/db"),
            Some("postgres")
        );
        assert_eq!(connection_category("jdbc:mysql://h/db"), Some("mysql"));
        assert_eq!(connection_category("pgx"), Some("postgres"));
        assert_eq!(
            connection_category("mongodb+srv://cluster"),
            Some("mongodb")
        );
        assert_eq!(connection_category("Redis://h"), Some("redis"));
        assert_eq!(connection_category("./local.db"), None);
    }

    #[test]
    fn libraries_of_a_language_keep_file_order_and_language_filters() {
        let kotlin: Vec<&str> = catalogue()
            .libraries("kotlin")
            .iter()
            .map(|l| l.name)
            .collect();
        let java: Vec<&str> = catalogue()
            .libraries("java")
            .iter()
            .map(|l| l.name)
            .collect();
        assert!(kotlin.contains(&"room") && !java.contains(&"room"));
        assert!(java.contains(&"java.sql") && kotlin.contains(&"java.sql"));
        assert!(catalogue().npm("pg").is_some());
    }

    #[test]
    fn the_reference_is_up_to_date() {
        let expected = reference();
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/CATALOGUE.md");
        if std::env::var_os("LINTEL_BLESS").is_some() {
            std::fs::write(&path, &expected).unwrap();
        }
        let actual = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            actual == expected,
            "docs/CATALOGUE.md is out of date: run `LINTEL_BLESS=1 cargo test -p extractors catalogue`"
        );
    }
}
