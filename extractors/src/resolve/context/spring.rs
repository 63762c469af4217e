//! The stores a JVM service module's configuration names: the JDBC (or R2DBC) URL of Spring
//! Boot's `spring.datasource.url`, Quarkus's `quarkus.datasource.jdbc.url` (or `reactive.url`)
//! and `quarkus.datasource.db-kind`, and Micronaut's `datasources.<name>.url`, `db-type` and
//! `dialect`, in `application.properties`, `application.yml` and their profile variants
//! (`application-postgres.properties`), read as data. Spring Boot's `spring.data.mongodb.uri`
//! (`host`, `database`; `spring.mongodb.*` from Boot 4), Quarkus's
//! `quarkus.mongodb.connection-string` and `quarkus.redis.hosts` and Micronaut's `mongodb.uri`
//! and `redis.uri` name a MongoDB or Redis store, and Spring Boot's `spring.cassandra.*`
//! (`contact-points`, `keyspace-name`, `local-datacenter`; `spring.data.cassandra.*` before
//! Boot 3) a Cassandra one, which settles only what may be either (`derive =
//! "configured-store"`: a Spring Data `CrudRepository` or a Micronaut Data repository is a
//! MongoDB or Cassandra one when the module names no relational datasource but such a
//! connection). With no such key (the driver's defaults), a module whose `pom.xml` or
//! `build.gradle(.kts)` (naming a dependency by its coordinate, or as `libs.…` through the Gradle
//! version catalog `gradle/libs.versions.toml` of its folder or the nearest one above) depends,
//! outside its tests, on Spring Boot's MongoDB or Cassandra
//! starter (`spring-boot-starter-data-mongodb`, `-cassandra`, each also `-reactive`) and on no
//! relational starter (`spring-boot-starter-data-jpa`, `-jdbc`, `-data-jdbc`, `-data-r2dbc`)
//! names that connection too; it applies only inside that module. A module whose build has a
//! relational starter never takes another module's MongoDB or Cassandra connection.
//!
//! A configuration file applies to the module it belongs to: the folder above
//! `src/main/resources` (or the file's own folder, or the one above a `config/` folder).
//! Test resources (a `test` folder on the path) configure the tests, not the service, and are
//! left out. A profile is the file name's suffix (a Micronaut environment is named the same
//! way), the `spring.config.activate.on-profile` (or older `spring.profiles`) of a document in
//! a multi-document file, or a Quarkus key's `%dev.` prefix (`"%dev":` in YAML); `default`
//! otherwise. A value may wrap the URL in placeholders with defaults
//! (`${MYSQL_URL:jdbc:mysql://…}`); the default is read, past the sub-protocols of the proxy
//! drivers and pools that wrap another driver's URL (`jdbc:p6spy:mysql://…` is `mysql`; the
//! scheme table's `wrappers`). A URL the scheme table does not know
//! (`jdbc:h2:mem:…`) names a `relational_db`, and so does a database kind it does not know
//! (`db2`).
//!
//! When the default profile names no URL, Spring Boot starts the embedded database on the
//! module's runtime classpath: an H2, HSQLDB or Derby dependency of the module's `pom.xml` or
//! `build.gradle(.kts)` that is not test-scoped gives the default profile that store.

use std::collections::BTreeMap;

use super::paths::{file_name, is_within, parent_dir};
use super::read::ConfigReader;

/// One datasource one profile of a module names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Datasource {
    /// The module folder the configuration applies to.
    root: String,
    /// The profile (`default` for the base configuration).
    pub profile: String,
    /// The category of the store.
    pub category: String,
    /// The URL's scheme, the driver (`postgresql`, `h2`).
    pub scheme: String,
    /// Whether it is a MongoDB or Redis connection rather than a relational datasource.
    pub is_store: bool,
    /// Whether the module's build names it (a starter), not its configuration: it applies only
    /// inside the module, never to a file outside every module.
    from_build: bool,
}

/// The datasources of the Spring Boot modules of a project.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct SpringDatasources {
    datasources: Vec<Datasource>,
    /// The modules whose build has a relational starter: a store that another module's
    /// configuration names is not theirs.
    relational_builds: Vec<String>,
}

impl SpringDatasources {
    /// Reads the `application*.properties` and `application*.yml` files among `files`.
    pub fn discover<'f>(reader: &ConfigReader<'_>, files: impl Iterator<Item = &'f str>) -> Self {
        let files: Vec<&str> = files.collect();
        let mut datasources = Vec::new();
        let mut roots: Vec<String> = Vec::new();
        for path in files.iter().copied() {
            let Some((profile, is_yaml)) = config_profile(path) else {
                continue;
            };
            if path
                .split('/')
                .any(|segment| matches!(segment, "test" | "tests" | "node_modules"))
            {
                continue;
            }
            let Some(text) = reader.read(path) else {
                continue;
            };
            let root = module_root(path);
            if !roots.contains(&root) {
                roots.push(root.clone());
            }
            let documents = if is_yaml {
                yaml_documents(&text)
            } else {
                properties_documents(&text)
            };
            for (document_profile, key, value) in documents {
                let Some((category, scheme)) = key.category(&value) else {
                    continue;
                };
                let (key_profiles, _) = key_profiles(&key.written);
                let profiles = match key_profiles {
                    Some(profiles) => profiles,
                    None => vec![document_profile.clone().unwrap_or_else(|| profile.clone())],
                };
                for profile in profiles {
                    datasources.push(Datasource {
                        root: root.clone(),
                        profile,
                        category: category.to_owned(),
                        scheme: scheme.clone(),
                        is_store: matches!(key.names, Names::Store(_)),
                        from_build: false,
                    });
                }
            }
        }
        // Each build file's runtime dependencies, read and parsed once for both uses below (the
        // embedded database of a configured module, the starters of a JVM project's modules).
        let jvm = files
            .iter()
            .any(|path| path.ends_with(".java") || path.ends_with(".kt"));
        let mut catalogs = Catalogs::new(reader, &files);
        let builds: BTreeMap<&str, Vec<Dependency>> = files
            .iter()
            .copied()
            .filter(|path| (jvm || !roots.is_empty()) && is_build_file(path))
            .filter_map(|build| {
                let text = reader.read(build)?;
                // A Gradle build may name its dependencies through the version catalog.
                let catalog = if !build.ends_with(".xml") && text.contains("libs.") {
                    catalogs.of(build)
                } else {
                    None
                };
                Some((build, runtime_dependencies(&text, catalog)))
            })
            .collect();
        for root in roots {
            let has_default = datasources.iter().any(|datasource| {
                datasource.root == root && datasource.profile == "default" && !datasource.is_store
            });
            if has_default {
                continue;
            }
            let build_files = ["pom.xml", "build.gradle", "build.gradle.kts"].map(|name| {
                if root.is_empty() {
                    name.to_owned()
                } else {
                    format!("{root}/{name}")
                }
            });
            let embedded = build_files
                .iter()
                .filter_map(|build| builds.get(build.as_str()))
                .find_map(|dependencies| embedded_database(dependencies));
            if let Some(scheme) = embedded {
                datasources.push(Datasource {
                    root,
                    profile: "default".to_owned(),
                    category: "relational_db".to_owned(),
                    scheme: scheme.to_owned(),
                    is_store: false,
                    from_build: false,
                });
            }
        }
        // A module whose build puts Spring Boot's MongoDB (or Cassandra) starter, and no
        // relational one, on its classpath connects to that store (by the driver's defaults
        // when no key names it).
        let mut relational_builds = Vec::new();
        for (build, dependencies) in builds.iter().filter(|_| jvm) {
            if build
                .split('/')
                .any(|segment| matches!(segment, "test" | "tests" | "node_modules"))
            {
                continue;
            }
            let root = parent_dir(build);
            let named = |category: &str| {
                datasources.iter().any(|datasource| {
                    datasource.root == root
                        && datasource.is_store
                        && datasource.category == category
                })
            };
            let unnamed: Vec<(&str, &[&str])> = [
                ("mongodb", &MONGODB_STARTERS[..]),
                ("cassandra", &CASSANDRA_STARTERS[..]),
            ]
            .into_iter()
            .filter(|(category, _)| !named(category))
            .collect();
            let has = |names: &[&str]| {
                dependencies
                    .iter()
                    .any(|(_, artifact)| names.contains(&artifact.as_str()))
            };
            if has(&RELATIONAL_STARTERS) {
                relational_builds.push(root.to_owned());
                continue;
            }
            for (category, starters) in unnamed {
                if has(starters) {
                    datasources.push(Datasource {
                        root: root.to_owned(),
                        profile: "default".to_owned(),
                        category: category.to_owned(),
                        scheme: category.to_owned(),
                        is_store: true,
                        from_build: true,
                    });
                }
            }
        }
        Self {
            datasources,
            relational_builds,
        }
    }

    /// The datasources that apply to `file`: those of the nearest module above it, else, when
    /// no module contains it (a shared library module), every module's configured ones (but
    /// other modules' MongoDB or Cassandra connections, in a module whose build has a
    /// relational starter); in profile order.
    pub fn of(&self, file: &str) -> Vec<&Datasource> {
        let nearest = self
            .datasources
            .iter()
            .filter(|datasource| is_within(file, &datasource.root))
            .map(|datasource| datasource.root.len())
            .max();
        let relational_build = self
            .relational_builds
            .iter()
            .any(|root| is_within(file, root));
        let mut found: Vec<&Datasource> = self
            .datasources
            .iter()
            .filter(|datasource| match nearest {
                Some(length) => {
                    datasource.root.len() == length && is_within(file, &datasource.root)
                }
                None => !(datasource.from_build || (relational_build && datasource.is_store)),
            })
            .collect();
        found.sort_by(|a, b| (&a.profile, &a.category).cmp(&(&b.profile, &b.category)));
        found.dedup_by(|a, b| a.profile == b.profile && a.category == b.category);
        found
    }
}

/// Spring Boot's MongoDB starters, by artifact.
const MONGODB_STARTERS: [&str; 2] = [
    "spring-boot-starter-data-mongodb",
    "spring-boot-starter-data-mongodb-reactive",
];

/// Spring Boot's Cassandra starters, by artifact.
const CASSANDRA_STARTERS: [&str; 2] = [
    "spring-boot-starter-data-cassandra",
    "spring-boot-starter-data-cassandra-reactive",
];

/// Spring Boot's starters of a relational datasource, by artifact.
const RELATIONAL_STARTERS: [&str; 4] = [
    "spring-boot-starter-data-jpa",
    "spring-boot-starter-jdbc",
    "spring-boot-starter-data-jdbc",
    "spring-boot-starter-data-r2dbc",
];

/// Whether a path is a Maven or Gradle build file.
fn is_build_file(path: &str) -> bool {
    matches!(
        file_name(path),
        "pom.xml" | "build.gradle" | "build.gradle.kts"
    )
}

/// Most dependencies one build file is read for.
const MAX_ARTIFACTS: usize = 10_000;

/// One dependency of a build: its group (empty when a Maven block names none) and artifact.
type Dependency = (String, String);

/// A Gradle version catalog (`gradle/libs.versions.toml`, read as data): its libraries and
/// bundles by the accessor a build names them with (`libs.spring.boot.starter.data.mongodb` for
/// the alias `spring-boot-starter-data-mongodb`, `libs.bundles.persistence`).
#[derive(Debug, Default, PartialEq, Eq)]
struct VersionCatalog {
    /// Each library's (group, artifact), by its accessor after `libs.`.
    libraries: BTreeMap<String, Dependency>,
    /// Each bundle's libraries' accessors, by the bundle's accessor after `libs.bundles.`.
    bundles: BTreeMap<String, Vec<String>>,
}

impl VersionCatalog {
    /// Reads a catalog's `[libraries]` (`"group:artifact:version"`, `{ module = "group:artifact"
    /// }` or `{ group = …, name = … }`) and `[bundles]`; nothing when the text is no TOML.
    fn read(text: &str) -> Self {
        let mut catalog = Self::default();
        let Ok(table) = text.parse::<toml::Table>() else {
            return catalog;
        };
        let accessor = |alias: &str| alias.replace(['-', '_'], ".");
        if let Some(libraries) = table.get("libraries").and_then(toml::Value::as_table) {
            for (alias, library) in libraries.iter().take(MAX_ARTIFACTS) {
                let coordinate = |written: &str| {
                    let mut parts = written.split(':');
                    let group = parts.next()?.trim();
                    let artifact = parts.next()?.trim();
                    Some((group.to_owned(), artifact.to_owned()))
                };
                let dependency = match library {
                    toml::Value::String(written) => coordinate(written),
                    toml::Value::Table(fields) => {
                        match fields.get("module").and_then(toml::Value::as_str) {
                            Some(module) => coordinate(module),
                            None => fields
                                .get("group")
                                .and_then(toml::Value::as_str)
                                .zip(fields.get("name").and_then(toml::Value::as_str))
                                .map(|(group, name)| (group.to_owned(), name.to_owned())),
                        }
                    }
                    _ => None,
                };
                if let Some(dependency) = dependency {
                    catalog.libraries.insert(accessor(alias), dependency);
                }
            }
        }
        if let Some(bundles) = table.get("bundles").and_then(toml::Value::as_table) {
            for (alias, members) in bundles.iter().take(MAX_ARTIFACTS) {
                let members = members
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(toml::Value::as_str)
                    .map(accessor)
                    .collect();
                catalog.bundles.insert(accessor(alias), members);
            }
        }
        catalog
    }

    /// The dependencies a `libs.…` accessor names: one library, or a bundle's.
    fn resolve(&self, accessor: &str) -> Vec<Dependency> {
        if let Some(bundle) = accessor.strip_prefix("bundles.") {
            return self
                .bundles
                .get(bundle)
                .into_iter()
                .flatten()
                .filter_map(|member| self.libraries.get(member).cloned())
                .collect();
        }
        self.libraries.get(accessor).cloned().into_iter().collect()
    }
}

/// The project's Gradle version catalogs (`gradle/libs.versions.toml` beside a build's
/// `settings.gradle`), each read on first use.
struct Catalogs<'r> {
    reader: &'r ConfigReader<'r>,
    /// The folder of each catalog's build (`""` for the project's root), with the catalog once
    /// read.
    found: BTreeMap<String, Option<VersionCatalog>>,
}

impl<'r> Catalogs<'r> {
    fn new(reader: &'r ConfigReader<'r>, files: &[&str]) -> Self {
        let found = files
            .iter()
            .filter_map(|path| {
                let folder = path.strip_suffix("libs.versions.toml")?;
                let folder = folder.strip_suffix("gradle/")?;
                (folder.is_empty() || folder.ends_with('/'))
                    .then(|| (folder.trim_end_matches('/').to_owned(), None))
            })
            .collect();
        Self { reader, found }
    }

    /// The catalog a build file reads: the one of its folder or the nearest folder above.
    fn of(&mut self, build: &str) -> Option<&VersionCatalog> {
        let mut folder = parent_dir(build);
        let root = loop {
            if self.found.contains_key(folder) {
                break folder.to_owned();
            }
            if folder.is_empty() {
                return None;
            }
            folder = parent_dir(folder);
        };
        let reader = self.reader;
        let entry = self.found.get_mut(&root)?;
        if entry.is_none() {
            let path = if root.is_empty() {
                "gradle/libs.versions.toml".to_owned()
            } else {
                format!("{root}/gradle/libs.versions.toml")
            };
            *entry = Some(
                reader
                    .read(&path)
                    .map(|text| VersionCatalog::read(&text))
                    .unwrap_or_default(),
            );
        }
        entry.as_ref()
    }
}

/// The accessor after `libs.` a Gradle dependency line names (`implementation(libs.spring.boot
/// .starter.data.mongodb)` → `spring.boot.starter.data.mongodb`), if any.
fn catalog_accessor(line: &str) -> Option<&str> {
    let (before, after) = line.split_once("libs.")?;
    if before
        .chars()
        .next_back()
        .is_some_and(|previous| previous.is_alphanumeric() || previous == '_' || previous == '.')
    {
        return None;
    }
    let end = after
        .find(|character: char| {
            !(character.is_ascii_alphanumeric() || matches!(character, '.' | '_' | '-'))
        })
        .unwrap_or(after.len());
    let accessor = after.get(..end)?.trim_end_matches('.');
    // `libs.x.get()` in a Kotlin script names the same library.
    Some(accessor.strip_suffix(".get").unwrap_or(accessor))
}

/// The dependencies (`groupId` and `artifactId`, or a Gradle `group:artifact[:version]`
/// coordinate, or a `libs.…` accessor of the build's version `catalog`) a Maven or Gradle build
/// has outside its tests, read as text: Maven `<dependency>` blocks that are not test-scoped,
/// outside `<dependencyManagement>` (which only manages versions) and comments; Gradle
/// dependency lines whose configuration is not a test one (`testImplementation`,
/// `integrationTestRuntimeOnly`), outside comments.
fn runtime_dependencies(build: &str, catalog: Option<&VersionCatalog>) -> Vec<Dependency> {
    let mut artifacts = Vec::new();
    if build.contains("<dependency>") {
        let text = without_blocks(build, "<!--", "-->");
        let text = without_blocks(&text, "<dependencyManagement>", "</dependencyManagement>");
        for block in text.split("<dependency>").skip(1).take(MAX_ARTIFACTS) {
            let block = block.split("</dependency>").next().unwrap_or_default();
            if block.contains("<scope>test</scope>") {
                continue;
            }
            let element = |name: &str| {
                block
                    .split_once(&format!("<{name}>"))
                    .and_then(|(_, rest)| rest.split_once(&format!("</{name}>")))
                    .map(|(value, _)| value.trim().to_owned())
            };
            if let Some(artifact) = element("artifactId") {
                artifacts.push((element("groupId").unwrap_or_default(), artifact));
            }
        }
        return artifacts;
    }
    let text = without_blocks(build, "/*", "*/");
    for line in text.lines().take(MAX_ARTIFACTS) {
        let line = line.trim();
        let configuration: String = line
            .chars()
            .take_while(|character| character.is_ascii_alphanumeric() || *character == '_')
            .collect();
        if configuration.is_empty() || configuration.to_ascii_lowercase().contains("test") {
            continue;
        }
        // The first quoted string of the line, a `group:artifact[:version]` coordinate.
        let quoted = line
            .split(['"', '\''])
            .nth(1)
            .and_then(|coordinate| coordinate.split_once(':'))
            .map(|(group, rest)| (group, rest.split(':').next().unwrap_or_default()));
        if let Some((group, artifact)) = quoted {
            artifacts.push((group.trim().to_owned(), artifact.trim().to_owned()));
        } else if let Some(accessor) = catalog.and(catalog_accessor(line)) {
            artifacts.extend(
                catalog
                    .into_iter()
                    .flat_map(|catalog| catalog.resolve(accessor)),
            );
        }
    }
    artifacts
}

/// `text` without the parts from each `open` to the next `close` (an unclosed one to the end).
fn without_blocks(text: &str, open: &str, close: &str) -> String {
    let mut kept = String::with_capacity(text.len());
    let mut rest = text;
    while let Some((before, after)) = rest.split_once(open) {
        kept.push_str(before);
        rest = after.split_once(close).map_or("", |(_, after)| after);
    }
    kept.push_str(rest);
    kept
}

/// The embedded databases Spring Boot starts by itself, by the group of their artifact.
const EMBEDDED: [(&str, &str); 3] = [
    ("com.h2database", "h2"),
    ("org.hsqldb", "hsqldb"),
    ("org.apache.derby", "derby"),
];

/// The embedded database a build's runtime dependencies ([`runtime_dependencies`]) put on the
/// classpath.
fn embedded_database(dependencies: &[Dependency]) -> Option<&'static str> {
    dependencies.iter().find_map(|(group, _)| {
        EMBEDDED
            .iter()
            .find(|(embedded, _)| embedded == group)
            .map(|(_, scheme)| *scheme)
    })
}

/// The profile a configuration file's name gives (`application.yml` → `default`,
/// `application-mysql.properties` → `mysql`) and whether it is YAML; `None` for other files.
fn config_profile(path: &str) -> Option<(String, bool)> {
    let name = file_name(path);
    let stem = name.strip_prefix("application")?;
    let (stem, is_yaml) = if let Some(stem) = stem.strip_suffix(".properties") {
        (stem, false)
    } else if let Some(stem) = stem
        .strip_suffix(".yml")
        .or_else(|| stem.strip_suffix(".yaml"))
    {
        (stem, true)
    } else {
        return None;
    };
    let profile = if stem.is_empty() {
        "default"
    } else {
        stem.strip_prefix('-')
            .filter(|profile| !profile.is_empty())?
    };
    Some((profile.to_owned(), is_yaml))
}

/// The module a configuration file applies to: the folder above `src/main/resources`, else
/// its folder (the one above, for a `config/` folder).
fn module_root(path: &str) -> String {
    let folder = parent_dir(path);
    if let Some(index) = folder.find("src/main/resources") {
        let before = folder.get(..index).unwrap_or_default();
        if before.is_empty() || before.ends_with('/') {
            return before.trim_end_matches('/').to_owned();
        }
    }
    if file_name(folder) == "config" {
        return parent_dir(folder).to_owned();
    }
    folder.to_owned()
}

/// What a configuration key names.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Names {
    /// A datasource URL (`spring.datasource.url`, `quarkus.datasource.jdbc.url`,
    /// `datasources.default.url`).
    Url,
    /// A datasource's database kind (`quarkus.datasource.db-kind`, `datasources.default.db-type`
    /// or `dialect`).
    Kind,
    /// A MongoDB or Redis connection, of that category.
    Store(&'static str),
}

/// A key of a configuration file that names a store, as written (with a Quarkus profile
/// prefix), and what it names.
#[derive(Debug, Clone, PartialEq, Eq)]
struct StoreKey {
    written: String,
    names: Names,
}

impl StoreKey {
    /// The key, when it names a store.
    fn read(written: &str) -> Option<Self> {
        let (_, key) = key_profiles(written);
        let segments: Vec<&str> = key.split('.').collect();
        let last = segments.last().copied().unwrap_or_default();
        let names = if (key.starts_with("spring.datasource.") || key.starts_with("spring.r2dbc."))
            && ["url", "jdbc-url", "jdbcUrl", "jdbc_url", "jdbcurl"].contains(&last)
        {
            Names::Url
        } else if let Some(rest) = key.strip_prefix("quarkus.datasource.") {
            // `quarkus.datasource.jdbc.url`, `quarkus.datasource."users".db-kind`.
            if rest.ends_with("jdbc.url") || rest.ends_with("reactive.url") {
                Names::Url
            } else if last == "db-kind" {
                Names::Kind
            } else {
                return None;
            }
        } else if matches!(
            segments.as_slice(),
            ["spring", "data", "mongodb", "uri" | "host" | "database"]
                | ["spring", "mongodb", "uri" | "host" | "database"]
        ) {
            // Spring Boot's MongoDB connection (`spring.mongodb.*` from Boot 4).
            Names::Store("mongodb")
        } else if matches!(
            segments.as_slice(),
            [
                "spring",
                "cassandra",
                "contact-points" | "keyspace-name" | "local-datacenter"
            ] | [
                "spring",
                "data",
                "cassandra",
                "contact-points" | "keyspace-name" | "local-datacenter"
            ]
        ) {
            // Spring Boot's Cassandra session (`spring.data.cassandra.*` before Boot 3).
            Names::Store("cassandra")
        } else if key.starts_with("quarkus.mongodb.") && last == "connection-string" {
            Names::Store("mongodb")
        } else if key.starts_with("quarkus.redis.") && last == "hosts" {
            Names::Store("redis")
        } else if let ["datasources", _, field] | ["r2dbc", "datasources", _, field] =
            segments.as_slice()
        {
            // Micronaut: `datasources.default.url`, `r2dbc.datasources.default.dialect`.
            match *field {
                "url" | "jdbc-url" => Names::Url,
                "db-type" | "dialect" => Names::Kind,
                _ => return None,
            }
        } else if matches!(
            segments.as_slice(),
            ["mongodb", "uri"] | ["mongodb", "servers", _, "uri"]
        ) {
            Names::Store("mongodb")
        } else if matches!(
            segments.as_slice(),
            ["redis", "uri"] | ["redis", "servers", _, "uri"]
        ) {
            Names::Store("redis")
        } else {
            return None;
        };
        Some(Self {
            written: written.trim().to_owned(),
            names,
        })
    }

    /// The category and scheme (driver) the key's value names; `None` when no literal value
    /// is left of a URL or kind (`${DATABASE_URL}`).
    fn category(&self, value: &str) -> Option<(&'static str, String)> {
        match self.names {
            Names::Url => datasource_category(value),
            Names::Kind => {
                let kind = without_placeholders(value)?
                    .to_ascii_lowercase()
                    .replace('_', "");
                if kind.is_empty() || !kind.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                    return None;
                }
                let category =
                    crate::catalogue::connection_category(&kind).unwrap_or("relational_db");
                Some((category, kind))
            }
            // The key names the store, whatever its value (often a placeholder).
            Names::Store(category) => {
                let scheme = without_placeholders(value)
                    .and_then(|url| url.split_once("://"))
                    .map(|(scheme, _)| {
                        scheme
                            .split('+')
                            .next()
                            .unwrap_or(scheme)
                            .to_ascii_lowercase()
                    })
                    .filter(|scheme| {
                        crate::catalogue::connection_category(scheme) == Some(category)
                    })
                    .unwrap_or_else(|| category.to_owned());
                Some((category, scheme))
            }
        }
    }
}

/// The Quarkus profiles a key's `%dev.` prefix names (`%dev,test.` names two), and the key
/// without it.
fn key_profiles(written: &str) -> (Option<Vec<String>>, &str) {
    let written = written.trim().trim_matches(['"', '\'']);
    match written
        .strip_prefix('%')
        .and_then(|rest| rest.split_once('.'))
    {
        Some((profiles, key)) => (
            Some(
                profiles
                    .split(',')
                    .map(|profile| profile.trim().to_owned())
                    .filter(|profile| !profile.is_empty())
                    .collect(),
            ),
            key,
        ),
        None => (None, written),
    }
}

/// Whether a configuration key names the profile of its document.
fn is_profile_key(key: &str) -> bool {
    matches!(
        key.trim(),
        "spring.config.activate.on-profile" | "spring.profiles"
    )
}

/// The store keys of a `.properties` file with their values, each with the profile of its
/// document (`#---` separates documents, each may name its `spring.config.activate.on-profile`).
fn properties_documents(text: &str) -> Vec<(Option<String>, StoreKey, String)> {
    let mut found = Vec::new();
    let mut profile: Option<String> = None;
    let mut values: Vec<(StoreKey, String)> = Vec::new();
    let mut flush = |profile: &mut Option<String>, values: &mut Vec<(StoreKey, String)>| {
        for (key, value) in values.drain(..) {
            found.push((profile.clone(), key, value));
        }
        *profile = None;
    };
    for line in text.lines() {
        let line = line.trim();
        if line == "#---" || line == "!---" {
            flush(&mut profile, &mut values);
            continue;
        }
        if line.starts_with('#') || line.starts_with('!') {
            continue;
        }
        let Some(split) = line.find(['=', ':']) else {
            continue;
        };
        let (key, value) = (
            line.get(..split).unwrap_or_default(),
            line.get(split + 1..).unwrap_or_default().trim(),
        );
        if let Some(key) = StoreKey::read(key) {
            values.push((key, value.to_owned()));
        } else if is_profile_key(key) {
            profile = Some(value.to_owned());
        }
    }
    flush(&mut profile, &mut values);
    found
}

/// The store keys of a YAML file with their values, each with the profile of its document.
fn yaml_documents(text: &str) -> Vec<(Option<String>, StoreKey, String)> {
    use crate::syntax::yaml::{self, Node};
    let Ok(documents) = yaml::parse_all(text) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for document in &documents {
        // Every scalar value with its dotted key (`spring: {datasource: {url: …}}` and
        // `spring.datasource.url: …` alike), without recursion.
        let mut pending: Vec<(String, &Node)> = vec![(String::new(), document)];
        let mut profile = None;
        let mut values = Vec::new();
        while let Some((prefix, node)) = pending.pop() {
            if let Some(value) = node.as_str() {
                if let Some(key) = StoreKey::read(&prefix) {
                    values.push((key, value.to_owned()));
                } else if is_profile_key(&prefix) {
                    profile = Some(value.to_owned());
                }
                continue;
            }
            for (key, value) in node.entries().iter().rev() {
                let Some(key) = key.as_str() else {
                    continue;
                };
                let path = if prefix.is_empty() {
                    key.to_owned()
                } else {
                    format!("{prefix}.{key}")
                };
                pending.push((path, value));
            }
        }
        found.extend(
            values
                .into_iter()
                .map(|(key, value)| (profile.clone(), key, value)),
        );
    }
    found
}

/// A configuration value through placeholders with defaults (`${NAME:default}`, as often as
/// they nest), unquoted; `None` when a placeholder has no default.
fn without_placeholders(value: &str) -> Option<&str> {
    let mut value = value.trim().trim_matches(['"', '\'']);
    while let Some(inner) = value.strip_prefix("${") {
        let (_, default) = inner.split_once(':')?;
        value = default.strip_suffix('}').unwrap_or(default);
    }
    Some(value)
}

/// The category and scheme a datasource URL names, through placeholders with defaults
/// (`${DB_URL:jdbc:postgresql://db/app}`); `None` when no literal URL is left.
fn datasource_category(value: &str) -> Option<(&'static str, String)> {
    let url = without_placeholders(value)?;
    let prefixed = url
        .strip_prefix("jdbc:")
        .or_else(|| url.strip_prefix("r2dbc:"))
        .or_else(|| url.strip_prefix("vertx-reactive:"));
    // A bare URL (a Quarkus `reactive.url`, `postgresql://db/app`) counts when the scheme
    // table knows its scheme.
    let rest = match prefixed {
        Some(rest) => rest,
        None if url.contains("://") && crate::catalogue::connection_category(url).is_some() => url,
        None => return None,
    };
    let rest = crate::catalogue::without_wrappers(rest);
    let scheme = rest.split([':', '/']).next()?.to_ascii_lowercase();
    if scheme.is_empty()
        || !scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-')
    {
        return None;
    }
    let category = crate::catalogue::connection_category(&scheme).unwrap_or("relational_db");
    Some((category, scheme))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_come_from_file_names() {
        assert_eq!(
            config_profile("src/main/resources/application.properties"),
            Some(("default".to_owned(), false))
        );
        assert_eq!(
            config_profile("a/src/main/resources/application-mysql.yml"),
            Some(("mysql".to_owned(), true))
        );
        assert_eq!(config_profile("src/main/resources/application-.yml"), None);
        assert_eq!(config_profile("src/main/resources/applications.yml"), None);
        assert_eq!(config_profile("docs/application.md"), None);
        assert_eq!(
            module_root("mall-admin/src/main/resources/application.yml"),
            "mall-admin"
        );
        assert_eq!(module_root("src/main/resources/application.yml"), "");
        assert_eq!(module_root("svc/config/application.yml"), "svc");
    }

    #[test]
    fn urls_are_read_through_placeholder_defaults() {
        assert_eq!(
            datasource_category("${MYSQL_URL:jdbc:mysql://localhost/petclinic}"),
            Some(("mysql", "mysql".to_owned()))
        );
        assert_eq!(
            datasource_category("jdbc:postgresql://db:5432/app"),
            Some(("postgres", "postgresql".to_owned()))
        );
        assert_eq!(
            datasource_category("jdbc:h2:mem:testdb"),
            Some(("relational_db", "h2".to_owned()))
        );
        assert_eq!(
            datasource_category("r2dbc:pool:postgresql://db/app"),
            Some(("postgres", "postgresql".to_owned()))
        );
        assert_eq!(datasource_category("${DATABASE_URL}"), None);
        assert_eq!(
            datasource_category("${A:${B:jdbc:mariadb://x/y}}"),
            Some(("mysql", "mariadb".to_owned()))
        );
    }

    #[test]
    fn runtime_artifacts_leave_out_tests_managed_versions_and_comments() {
        let pom = "<project><dependencyManagement><dependencies><dependency><artifactId>spring-boot-starter-data-jpa</artifactId></dependency></dependencies></dependencyManagement>\n<dependencies>\n<!-- <dependency><artifactId>spring-boot-starter-jdbc</artifactId></dependency> -->\n<dependency>\n  <groupId>org.springframework.boot</groupId>\n  <artifactId> spring-boot-starter-data-mongodb </artifactId>\n</dependency>\n<dependency><artifactId>spring-boot-starter-data-r2dbc</artifactId><scope>test</scope></dependency>\n</dependencies></project>";
        let artifacts = |build: &str| -> Vec<String> {
            runtime_dependencies(build, None)
                .into_iter()
                .map(|(_, artifact)| artifact)
                .collect()
        };
        assert_eq!(artifacts(pom), ["spring-boot-starter-data-mongodb"]);
        let gradle = "plugins { id 'java' }\ndependencies {\n  implementation(\"org.springframework.boot:spring-boot-starter-data-mongodb-reactive\")\n  // implementation 'org.springframework.boot:spring-boot-starter-data-jpa'\n  /* runtimeOnly 'org.springframework.boot:spring-boot-starter-jdbc' */\n  testImplementation 'org.springframework.boot:spring-boot-starter-data-jdbc'\n  integrationTestImplementation(\"org.springframework.boot:spring-boot-starter-data-jpa\")\n  api 'com.acme:lib:1.0'\n}\n";
        assert_eq!(
            artifacts(gradle),
            ["spring-boot-starter-data-mongodb-reactive", "lib"]
        );
        assert_eq!(without_blocks("a<!-- b -->c<!-- d", "<!--", "-->"), "ac");
    }

    #[test]
    fn gradle_version_catalog_accessors_name_their_libraries_and_bundles() {
        let catalog = VersionCatalog::read(
            "[versions]\nboot = \"3.3.0\"\n\n[libraries]\nspring-boot-starter-data-mongodb = { module = \"org.springframework.boot:spring-boot-starter-data-mongodb\", version.ref = \"boot\" }\nspring_boot_starter_data_jpa = { group = \"org.springframework.boot\", name = \"spring-boot-starter-data-jpa\" }\nh2 = \"com.h2database:h2:2.2.224\"\nbroken = 3\n\n[bundles]\npersistence = [\"spring-boot-starter-data-mongodb\", \"spring-boot-starter-data-jpa\", \"unknown\"]\n",
        );
        let artifacts = |build: &str| -> Vec<String> {
            runtime_dependencies(build, Some(&catalog))
                .into_iter()
                .map(|(group, artifact)| format!("{group}:{artifact}"))
                .collect()
        };
        assert_eq!(
            artifacts("dependencies {\n  implementation(libs.spring.boot.starter.data.mongodb)\n  testImplementation(libs.spring.boot.starter.data.jpa)\n  runtimeOnly libs.h2\n  implementation(mylibs.h2)\n  implementation(libs.unknown)\n}\n"),
            [
                "org.springframework.boot:spring-boot-starter-data-mongodb",
                "com.h2database:h2"
            ]
        );
        assert_eq!(
            artifacts("dependencies {\n  implementation(libs.bundles.persistence)\n  implementation(platform(libs.h2.get()))\n}\n"),
            [
                "org.springframework.boot:spring-boot-starter-data-mongodb",
                "org.springframework.boot:spring-boot-starter-data-jpa",
                "com.h2database:h2"
            ]
        );
        // Without a catalog, or with text that is no TOML, an accessor names nothing.
        assert!(
            runtime_dependencies("dependencies {\n  implementation(libs.h2)\n}", None).is_empty()
        );
        assert_eq!(
            VersionCatalog::read("[libraries\nx = "),
            VersionCatalog::default()
        );
    }

    #[test]
    fn embedded_databases_are_read_from_runtime_dependencies() {
        let pom = "<dependencies><dependency>\n<groupId>com.h2database</groupId>\n<artifactId>h2</artifactId>\n<scope>test</scope>\n</dependency>\n<dependency><groupId>org.hsqldb</groupId><artifactId>hsqldb</artifactId></dependency></dependencies>";
        let embedded = |build: &str| embedded_database(&runtime_dependencies(build, None));
        assert_eq!(embedded(pom), Some("hsqldb"));
        assert_eq!(
            embedded("dependencies {\n  testImplementation 'com.h2database:h2'\n}"),
            None
        );
        assert_eq!(
            embedded("dependencies {\n  runtimeOnly(\"com.h2database:h2\")\n}"),
            Some("h2")
        );
    }

    /// The documents' profiles and values, for comparison.
    fn values(documents: Vec<(Option<String>, StoreKey, String)>) -> Vec<(Option<String>, String)> {
        documents
            .into_iter()
            .map(|(profile, _, value)| (profile, value))
            .collect()
    }

    #[test]
    fn properties_and_yaml_documents_name_their_profiles() {
        let properties = "# base\nspring.datasource.url=jdbc:postgresql://db/app\n#---\nspring.config.activate.on-profile=local\nspring.datasource.url = jdbc:h2:mem:x\n";
        assert_eq!(
            values(properties_documents(properties)),
            [
                (None, "jdbc:postgresql://db/app".to_owned()),
                (Some("local".to_owned()), "jdbc:h2:mem:x".to_owned()),
            ]
        );
        let yaml = "spring:\n  datasource:\n    url: jdbc:mysql://db/app\n---\nspring:\n  config:\n    activate:\n      on-profile: ci\n  datasource.url: jdbc:postgresql://ci/app\n";
        assert_eq!(
            values(yaml_documents(yaml)),
            [
                (None, "jdbc:mysql://db/app".to_owned()),
                (Some("ci".to_owned()), "jdbc:postgresql://ci/app".to_owned()),
            ]
        );
        assert!(yaml_documents("spring: [").is_empty());
    }

    #[test]
    fn quarkus_and_micronaut_keys_name_their_stores() {
        let category =
            |key: &str, value: &str| StoreKey::read(key).and_then(|key| key.category(value));
        let postgres = Some(("postgres", "postgresql".to_owned()));
        assert_eq!(
            category("quarkus.datasource.db-kind", "postgresql"),
            postgres
        );
        assert_eq!(
            category(
                "%prod.quarkus.datasource.jdbc.url",
                "jdbc:postgresql://db/app"
            ),
            postgres
        );
        assert_eq!(
            category(
                "quarkus.datasource.\"users\".reactive.url",
                "postgresql://db/app"
            ),
            postgres
        );
        assert_eq!(
            category("quarkus.datasource.db-kind", "db2"),
            Some(("relational_db", "db2".to_owned()))
        );
        assert_eq!(category("quarkus.datasource.username", "app"), None);
        assert_eq!(category("quarkus.datasource.db-kind", "${DB_KIND}"), None);
        assert_eq!(
            category("quarkus.mongodb.connection-string", "mongodb+srv://x/y"),
            Some(("mongodb", "mongodb".to_owned()))
        );
        assert_eq!(
            category("spring.data.mongodb.uri", "mongodb://db:27017/shop"),
            Some(("mongodb", "mongodb".to_owned()))
        );
        assert_eq!(
            category("spring.data.mongodb.database", "shop"),
            Some(("mongodb", "mongodb".to_owned()))
        );
        assert_eq!(
            category("spring.data.mongodb.auto-index-creation", "true"),
            None
        );
        assert_eq!(
            category("spring.cassandra.keyspace-name", "rides"),
            Some(("cassandra", "cassandra".to_owned()))
        );
        assert_eq!(
            category("spring.data.cassandra.contact-points", "cassandra:9042"),
            Some(("cassandra", "cassandra".to_owned()))
        );
        assert_eq!(category("spring.cassandra.request.timeout", "5s"), None);
        assert_eq!(
            category("quarkus.redis.hosts", "${REDIS_HOSTS}"),
            Some(("redis", "redis".to_owned()))
        );
        assert_eq!(
            category("datasources.default.url", "jdbc:mysql://db/app"),
            Some(("mysql", "mysql".to_owned()))
        );
        assert_eq!(
            category("datasources.default.db-type", "postgres"),
            Some(("postgres", "postgres".to_owned()))
        );
        assert_eq!(
            category("datasources.default.dialect", "SQL_SERVER"),
            Some(("mssql", "sqlserver".to_owned()))
        );
        assert_eq!(
            category("r2dbc.datasources.default.url", "r2dbc:mariadb://db/app"),
            Some(("mysql", "mariadb".to_owned()))
        );
        assert_eq!(
            category("mongodb.uri", "mongodb://db/app"),
            Some(("mongodb", "mongodb".to_owned()))
        );
        assert_eq!(
            category("redis.uri", "rediss://cache"),
            Some(("redis", "rediss".to_owned()))
        );
        assert_eq!(category("datasources.default.password", "x"), None);
        assert_eq!(
            category("other.datasources.default.url", "jdbc:mysql://x"),
            None
        );
        assert_eq!(
            key_profiles("%dev,test.quarkus.datasource.db-kind"),
            (
                Some(vec!["dev".to_owned(), "test".to_owned()]),
                "quarkus.datasource.db-kind"
            )
        );
        let yaml = "\"%dev\":\n  quarkus:\n    datasource:\n      db-kind: h2\nquarkus:\n  datasource:\n    db-kind: postgresql\n";
        let documents = yaml_documents(yaml);
        let keys: Vec<(Option<Vec<String>>, String)> = documents
            .iter()
            .map(|(_, key, value)| (key_profiles(&key.written).0, value.clone()))
            .collect();
        assert_eq!(
            keys,
            [
                (Some(vec!["dev".to_owned()]), "h2".to_owned()),
                (None, "postgresql".to_owned()),
            ]
        );
    }
}
