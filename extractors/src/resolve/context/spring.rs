//! The relational store a Spring Boot module's configuration names: the JDBC (or R2DBC) URL
//! of `spring.datasource.url` in `application.properties`, `application.yml` and their profile
//! variants (`application-postgres.properties`), read as data.
//!
//! A configuration file applies to the module it belongs to: the folder above
//! `src/main/resources` (or the file's own folder, or the one above a `config/` folder).
//! Test resources (a `test` folder on the path) configure the tests, not the service, and are
//! left out. A profile is the file name's suffix, or the `spring.config.activate.on-profile`
//! (or older `spring.profiles`) of a document in a multi-document file; `default` otherwise.
//! A value may wrap the URL in placeholders with defaults (`${MYSQL_URL:jdbc:mysql://…}`);
//! the default is read. A URL the scheme table does not know (`jdbc:h2:mem:…`) names a
//! `relational_db`.
//!
//! When the default profile names no URL, Spring Boot starts the embedded database on the
//! module's runtime classpath: an H2, HSQLDB or Derby dependency of the module's `pom.xml` or
//! `build.gradle(.kts)` that is not test-scoped gives the default profile that store.

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
}

/// The datasources of the Spring Boot modules of a project.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct SpringDatasources {
    datasources: Vec<Datasource>,
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
            for (document_profile, url) in documents {
                let Some((category, scheme)) = datasource_category(&url) else {
                    continue;
                };
                datasources.push(Datasource {
                    root: root.clone(),
                    profile: document_profile.unwrap_or_else(|| profile.clone()),
                    category: category.to_owned(),
                    scheme,
                });
            }
        }
        for root in roots {
            let has_default = datasources
                .iter()
                .any(|datasource| datasource.root == root && datasource.profile == "default");
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
                .filter(|build| files.contains(&build.as_str()))
                .filter_map(|build| reader.read(build))
                .find_map(|text| embedded_database(&text));
            if let Some(scheme) = embedded {
                datasources.push(Datasource {
                    root,
                    profile: "default".to_owned(),
                    category: "relational_db".to_owned(),
                    scheme: scheme.to_owned(),
                });
            }
        }
        Self { datasources }
    }

    /// The datasources that apply to `file`: those of the nearest module above it, else, when
    /// no module contains it (a shared library module), every module's; in profile order.
    pub fn of(&self, file: &str) -> Vec<&Datasource> {
        let nearest = self
            .datasources
            .iter()
            .filter(|datasource| is_within(file, &datasource.root))
            .map(|datasource| datasource.root.len())
            .max();
        let mut found: Vec<&Datasource> = self
            .datasources
            .iter()
            .filter(|datasource| match nearest {
                Some(length) => {
                    datasource.root.len() == length && is_within(file, &datasource.root)
                }
                None => true,
            })
            .collect();
        found.sort_by(|a, b| (&a.profile, &a.category).cmp(&(&b.profile, &b.category)));
        found.dedup_by(|a, b| a.profile == b.profile && a.category == b.category);
        found
    }
}

/// The embedded databases Spring Boot starts by itself, by the group of their artifact.
const EMBEDDED: [(&str, &str); 3] = [
    ("com.h2database", "h2"),
    ("org.hsqldb", "hsqldb"),
    ("org.apache.derby", "derby"),
];

/// The embedded database a Maven or Gradle build puts on the runtime classpath: a dependency on
/// one that is not test-scoped (`<scope>test</scope>`, `testImplementation`).
fn embedded_database(build: &str) -> Option<&'static str> {
    if build.contains("<dependency>") {
        // Maven: each `<dependency>` block.
        return build.split("<dependency>").skip(1).find_map(|block| {
            let block = block.split("</dependency>").next().unwrap_or_default();
            if block.contains("<scope>test</scope>") {
                return None;
            }
            EMBEDDED
                .iter()
                .find(|(group, _)| block.contains(&format!("<groupId>{group}</groupId>")))
                .map(|(_, scheme)| *scheme)
        });
    }
    // Gradle: a dependency line whose configuration is not a test one.
    build.lines().find_map(|line| {
        let line = line.trim();
        if line.starts_with("test") || line.starts_with("//") {
            return None;
        }
        EMBEDDED
            .iter()
            .find(|(group, _)| line.contains(&format!("{group}:")))
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

/// Whether a configuration key names a datasource URL (`spring.datasource.url`,
/// `spring.datasource.hikari.jdbc-url`, `spring.r2dbc.url`).
fn is_url_key(key: &str) -> bool {
    let key = key.trim();
    (key.starts_with("spring.datasource.") || key.starts_with("spring.r2dbc."))
        && ["url", "jdbc-url", "jdbcUrl", "jdbc_url", "jdbcurl"]
            .iter()
            .any(|last| key.rsplit('.').next() == Some(last))
}

/// Whether a configuration key names the profile of its document.
fn is_profile_key(key: &str) -> bool {
    matches!(
        key.trim(),
        "spring.config.activate.on-profile" | "spring.profiles"
    )
}

/// The URLs of a `.properties` file, each with the profile of its document (`#---` separates
/// documents, each may name its `spring.config.activate.on-profile`).
fn properties_documents(text: &str) -> Vec<(Option<String>, String)> {
    let mut found = Vec::new();
    let mut profile: Option<String> = None;
    let mut urls: Vec<String> = Vec::new();
    let mut flush = |profile: &mut Option<String>, urls: &mut Vec<String>| {
        for url in urls.drain(..) {
            found.push((profile.clone(), url));
        }
        *profile = None;
    };
    for line in text.lines() {
        let line = line.trim();
        if line == "#---" || line == "!---" {
            flush(&mut profile, &mut urls);
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
        if is_url_key(key) {
            urls.push(value.to_owned());
        } else if is_profile_key(key) {
            profile = Some(value.to_owned());
        }
    }
    flush(&mut profile, &mut urls);
    found
}

/// The URLs of a YAML file, each with the profile of its document.
fn yaml_documents(text: &str) -> Vec<(Option<String>, String)> {
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
        let mut urls = Vec::new();
        while let Some((prefix, node)) = pending.pop() {
            if let Some(value) = node.as_str() {
                if is_url_key(&prefix) {
                    urls.push(value.to_owned());
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
        found.extend(urls.into_iter().map(|url| (profile.clone(), url)));
    }
    found
}

/// The category and scheme a datasource URL names, through placeholders with defaults
/// (`${DB_URL:jdbc:postgresql://db/app}`); `None` when no literal URL is left.
fn datasource_category(value: &str) -> Option<(&'static str, String)> {
    let mut url = value.trim().trim_matches(['"', '\'']);
    // `${NAME:default}`: the default, as often as placeholders nest.
    while let Some(inner) = url.strip_prefix("${") {
        let (_, default) = inner.split_once(':')?;
        url = default.strip_suffix('}').unwrap_or(default);
    }
    let rest = url
        .strip_prefix("jdbc:")
        .or_else(|| url.strip_prefix("r2dbc:"))?;
    let rest = rest.strip_prefix("pool:").unwrap_or(rest);
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
    fn embedded_databases_are_read_from_runtime_dependencies() {
        let pom = "<dependencies><dependency>\n<groupId>com.h2database</groupId>\n<artifactId>h2</artifactId>\n<scope>test</scope>\n</dependency>\n<dependency><groupId>org.hsqldb</groupId><artifactId>hsqldb</artifactId></dependency></dependencies>";
        assert_eq!(embedded_database(pom), Some("hsqldb"));
        assert_eq!(
            embedded_database("dependencies {\n  testImplementation 'com.h2database:h2'\n}"),
            None
        );
        assert_eq!(
            embedded_database("dependencies {\n  runtimeOnly(\"com.h2database:h2\")\n}"),
            Some("h2")
        );
    }

    #[test]
    fn properties_and_yaml_documents_name_their_profiles() {
        let properties = "# base\nspring.datasource.url=jdbc:postgresql://db/app\n#---\nspring.config.activate.on-profile=local\nspring.datasource.url = jdbc:h2:mem:x\n";
        assert_eq!(
            properties_documents(properties),
            [
                (None, "jdbc:postgresql://db/app".to_owned()),
                (Some("local".to_owned()), "jdbc:h2:mem:x".to_owned()),
            ]
        );
        let yaml = "spring:\n  datasource:\n    url: jdbc:mysql://db/app\n---\nspring:\n  config:\n    activate:\n      on-profile: ci\n  datasource.url: jdbc:postgresql://ci/app\n";
        assert_eq!(
            yaml_documents(yaml),
            [
                (None, "jdbc:mysql://db/app".to_owned()),
                (Some("ci".to_owned()), "jdbc:postgresql://ci/app".to_owned()),
            ]
        );
        assert!(yaml_documents("spring: [").is_empty());
    }
}
