//! The databases behind ORM clients: the `provider` of a Prisma schema, the `dialect` of a
//! Drizzle config and the `ENGINE` of a Django settings module's `DATABASES`, mapped to
//! categories through the catalogue's scheme table.
//!
//! Each schema or config applies to the package it sits in (a schema in a `prisma/` folder
//! applies to that folder's parent). A file takes the setting of the nearest such package above
//! it; when none contains it, a setting all schemas agree on; else none (the caller falls back
//! to `relational_db`).

use super::paths::{file_name, is_within, parent_dir};
use super::read::ConfigReader;

/// Where a database setting applies and the category it names.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Setting {
    root: String,
    category: String,
}

/// Where a Django cache setting applies, and the category of one of its backends with the
/// library that backend belongs to (`django_redis`); `None` for an in-process backend.
#[derive(Debug, Clone, PartialEq, Eq)]
struct CacheSetting {
    root: String,
    store: Option<(&'static str, &'static str)>,
}

/// The Prisma and Drizzle settings of a project.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Datastores {
    prisma: Vec<Setting>,
    drizzle: Vec<Setting>,
    django: Vec<Setting>,
    django_caches: Vec<CacheSetting>,
}

impl Datastores {
    /// Reads every `*.prisma` schema and `drizzle.config.*` among `files`.
    pub fn discover<'f>(reader: &ConfigReader<'_>, files: impl Iterator<Item = &'f str>) -> Self {
        let mut datastores = Self::default();
        for path in files {
            if path.split('/').any(|segment| segment == "node_modules") {
                continue;
            }
            let name = file_name(path);
            if name.ends_with(".prisma") {
                if let Some(category) = reader.read(path).as_deref().and_then(prisma_provider) {
                    datastores.prisma.push(Setting {
                        root: package_root(parent_dir(path)),
                        category: prisma_category(&category),
                    });
                }
            } else if name.ends_with(".py")
                && (name == "settings.py"
                    || file_name(parent_dir(path)) == "settings"
                    || name.starts_with("settings_"))
            {
                let text = reader.read(path);
                // Settings apply to the project the settings package belongs to: the folder
                // above the one holding `settings.py` (or the `settings/` package).
                let package = parent_dir(path);
                let package = if file_name(package) == "settings" {
                    parent_dir(package)
                } else {
                    package
                };
                let root = parent_dir(package);
                let engines = text.as_deref().map(django_engines);
                for category in engines.into_iter().flatten() {
                    datastores.django.push(Setting {
                        root: root.to_owned(),
                        category,
                    });
                }
                let caches = text.as_deref().map(django_caches);
                for store in caches.into_iter().flatten() {
                    datastores.django_caches.push(CacheSetting {
                        root: root.to_owned(),
                        store,
                    });
                }
            } else if name.starts_with("drizzle.config.") {
                if let Some(category) = reader.read(path).as_deref().and_then(drizzle_category) {
                    datastores.drizzle.push(Setting {
                        root: parent_dir(path).to_owned(),
                        category,
                    });
                }
            }
        }
        datastores
    }

    /// The category of the Prisma provider that applies to `file`.
    pub fn prisma_category(&self, file: &str) -> Option<&str> {
        applicable(&self.prisma, file)
    }

    /// The store of the Django cache that applies to `file`: the category the `BACKEND`s of the
    /// nearest settings' `CACHES` name, when they agree, with their library when they name one
    /// (`django_redis`); `None` when they name no store (only in-process caches) or disagree.
    pub fn django_cache(&self, file: &str) -> Option<(&str, Option<&str>)> {
        let nearest = self
            .django_caches
            .iter()
            .filter(|setting| is_within(file, &setting.root))
            .map(|setting| setting.root.len())
            .max();
        let stores: Vec<(&str, &str)> = self
            .django_caches
            .iter()
            .filter(|setting| match nearest {
                Some(length) => setting.root.len() == length && is_within(file, &setting.root),
                None => true,
            })
            .filter_map(|setting| setting.store)
            .collect();
        let (category, library) = *stores.first()?;
        if stores.iter().any(|(other, _)| *other != category) {
            return None;
        }
        let library = stores
            .iter()
            .all(|(_, other)| *other == library)
            .then_some(library);
        Some((category, library))
    }

    /// The category of the Django database engine that applies to `file`: the engines of the
    /// nearest settings when they agree.
    pub fn django_category(&self, file: &str) -> Option<&str> {
        let nearest = self
            .django
            .iter()
            .filter(|setting| is_within(file, &setting.root))
            .map(|setting| setting.root.len())
            .max();
        let settings: Vec<&Setting> = match nearest {
            Some(length) => self
                .django
                .iter()
                .filter(|setting| setting.root.len() == length && is_within(file, &setting.root))
                .collect(),
            None => self.django.iter().collect(),
        };
        let first = settings.first()?;
        settings
            .iter()
            .all(|setting| setting.category == first.category)
            .then_some(first.category.as_str())
    }

    /// The category of the Drizzle dialect that applies to `file`.
    pub fn drizzle_category(&self, file: &str) -> Option<&str> {
        applicable(&self.drizzle, file)
    }
}

fn applicable<'s>(settings: &'s [Setting], file: &str) -> Option<&'s str> {
    let nearest = settings
        .iter()
        .filter(|setting| is_within(file, &setting.root))
        .max_by_key(|setting| setting.root.len());
    if let Some(setting) = nearest {
        return Some(&setting.category);
    }
    let first = settings.first()?;
    settings
        .iter()
        .all(|setting| setting.category == first.category)
        .then_some(first.category.as_str())
}

/// The folder a schema belongs to: its own, or the parent of a `prisma/` (or `prisma/schema/`) folder.
fn package_root(directory: &str) -> String {
    let mut root = directory;
    for folder in ["schema", "prisma"] {
        if file_name(root) == folder {
            root = parent_dir(root);
        }
    }
    root.to_owned()
}

/// The `provider` of the `datasource` block of a Prisma schema, when it is a name: a template's
/// placeholder (`"{{PRISMA_PROVIDER}}"`, which a script fills in) names no store.
fn prisma_provider(schema: &str) -> Option<String> {
    let mut in_datasource = false;
    for line in schema.lines() {
        let line = line.split("//").next().unwrap_or_default().trim();
        if line.starts_with("datasource") {
            in_datasource = true;
        } else if in_datasource && line.starts_with('}') {
            in_datasource = false;
        } else if in_datasource {
            if let Some(value) = line.strip_prefix("provider") {
                return quoted(value.trim_start().strip_prefix('=')?).filter(|provider| {
                    !provider.is_empty() && provider.chars().all(|c| c.is_ascii_alphanumeric())
                });
            }
        }
    }
    None
}

/// The category of a Prisma provider through the catalogue's scheme table (`postgresql` →
/// `postgres`, `sqlserver` → `mssql`), others by name.
fn prisma_category(provider: &str) -> String {
    crate::catalogue::connection_category(provider)
        .map_or_else(|| provider.to_owned(), str::to_owned)
}

/// The category of the `dialect` (or older `driver`) of a Drizzle config.
fn drizzle_category(config: &str) -> Option<String> {
    for key in ["dialect", "driver"] {
        let mut rest = config;
        while let Some(index) = rest.find(key) {
            rest = rest.get(index + key.len()..).unwrap_or_default();
            let after_key = rest.trim_start_matches(['"', '\'']).trim_start();
            if let Some(value) = after_key.strip_prefix(':').and_then(quoted) {
                return Some(
                    crate::catalogue::connection_category(&value)
                        .unwrap_or("relational_db")
                        .to_owned(),
                );
            }
        }
    }
    None
}

/// The categories of the literal database engines a Django settings module names
/// (`'ENGINE': 'django.db.backends.postgresql'` → `postgres`; `postgis` counts as `postgres`),
/// also through a backend that wraps Django's under its own package
/// (`django_prometheus.db.backends.postgresql`). Only a string literal's module path counts:
/// an import of `django.db.backends.base` names no engine.
fn django_engines(settings: &str) -> Vec<String> {
    const MARKER: &str = "db.backends.";
    let mut categories = Vec::new();
    let mut offset = 0;
    while let Some(index) = settings.get(offset..).and_then(|rest| rest.find(MARKER)) {
        let start = offset + index;
        offset = start + MARKER.len();
        // The module path before the marker, back to the opening quote of the literal.
        let before = settings.get(..start).unwrap_or_default();
        let module = before.trim_end_matches(|character: char| {
            character.is_ascii_alphanumeric() || "_.".contains(character)
        });
        if !module.ends_with(['\'', '"']) {
            continue;
        }
        let rest = settings.get(offset..).unwrap_or_default();
        let engine: String = rest
            .chars()
            .take_while(|character| character.is_ascii_alphanumeric() || *character == '_')
            .collect();
        let engine = engine.split('_').next().unwrap_or_default();
        let engine = if engine == "postgis" {
            "postgres"
        } else {
            engine
        };
        categories.push(
            crate::catalogue::connection_category(engine)
                .unwrap_or("relational_db")
                .to_owned(),
        );
    }
    categories
}

/// The stores a Django settings module's top-level `CACHES` assignment names: each literal
/// `BACKEND`, with its category and library when a catalogue library configures it
/// (`django_redis.cache.RedisCache` → `redis`, `django_redis`), in order; an in-process backend
/// (`locmem`, `dummy`, `filebased`) names no library and no store (`None`). The assignment runs from its `CACHES =` line at column 0 to the next
/// line that starts another statement there.
fn django_caches(settings: &str) -> Vec<Option<(&'static str, &'static str)>> {
    let mut found = Vec::new();
    let mut in_caches = false;
    for line in settings.lines() {
        let starts_statement = line
            .chars()
            .next()
            .is_some_and(|first| !first.is_whitespace() && !matches!(first, '}' | ')' | ']' | '#'));
        if starts_statement {
            in_caches = line
                .strip_prefix("CACHES")
                .is_some_and(|rest| rest.trim_start().starts_with('='));
        }
        if !in_caches {
            continue;
        }
        let mut rest = line;
        while let Some(index) = rest.find("BACKEND") {
            rest = rest.get(index + "BACKEND".len()..).unwrap_or_default();
            let after_key = rest.trim_start_matches(['"', '\'']).trim_start();
            let Some(backend) = after_key.strip_prefix(':').and_then(quoted) else {
                continue;
            };
            found.push(
                crate::catalogue::catalogue()
                    .configured("python", &backend)
                    .map(|(library, category)| (category, library.name)),
            );
        }
    }
    found
}

/// The first quoted string at the start of `text` (after whitespace).
fn quoted(text: &str) -> Option<String> {
    let text = text.trim_start();
    let quote = text
        .chars()
        .next()
        .filter(|quote| matches!(quote, '"' | '\'' | '`'))?;
    let body = text.get(quote.len_utf8()..)?;
    body.split(quote).next().map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prisma_provider_is_read_from_the_datasource_block() {
        let schema = "generator client {\n  provider = \"prisma-client-js\"\n}\n\ndatasource db {\n  provider = \"postgresql\" // main\n  url = env(\"DATABASE_URL\")\n}\n";
        assert_eq!(prisma_provider(schema).as_deref(), Some("postgresql"));
        assert_eq!(prisma_category("sqlserver"), "mssql");
        assert_eq!(package_root("apps/api/prisma"), "apps/api");
    }

    /// A schema template whose provider a script fills in names no store: teable keeps
    /// `prisma/template.prisma` with `provider = "{{PRISMA_PROVIDER}}"` beside the
    /// `postgres/` and `sqlite/` schemas it is made into, and every Prisma client of its
    /// database package was an access of a store named `{{PRISMA_PROVIDER}}`.
    #[test]
    fn a_templated_prisma_provider_names_no_store() {
        let template = "datasource db {\n  provider = \"{{PRISMA_PROVIDER}}\"\n  url = env(\"PRISMA_DATABASE_URL\")\n}\n";
        assert_eq!(prisma_provider(template), None);
        assert_eq!(
            prisma_provider("datasource db {\n  provider = \"${PROVIDER}\"\n}\n"),
            None
        );
        assert_eq!(
            prisma_provider("datasource db {\n  provider = \"cockroachdb\"\n}\n").as_deref(),
            Some("cockroachdb")
        );
    }

    #[test]
    fn django_caches_are_read_from_the_top_level_setting() {
        let settings = "CACHES = {\n    'default': {\n        'BACKEND': 'django_redis.cache.RedisCache',\n        'OPTIONS': {'CLIENT_CLASS': 'django_redis.client.DefaultClient'},\n    },\n    \"local\": {\"BACKEND\": \"django.core.cache.backends.locmem.LocMemCache\"},\n}\nCHANNEL_LAYERS = {'default': {'BACKEND': 'channels_redis.core.RedisChannelLayer'}}\n";
        assert_eq!(
            django_caches(settings),
            [Some(("redis", "django_redis")), None]
        );
        let memcached = "CACHES = {'default': {'BACKEND': 'django.core.cache.backends.memcached.PyMemcacheCache'}}\n";
        assert_eq!(
            django_caches(memcached),
            [Some(("cache", "django.core.cache"))]
        );
    }

    #[test]
    fn django_engines_are_read_from_the_settings() {
        let settings = "DATABASES = {\n    'default': {\n        'ENGINE': 'django.db.backends.postgresql_psycopg2',\n    },\n    'cache': {'ENGINE': 'django.db.backends.sqlite3'},\n}\n";
        assert_eq!(django_engines(settings), ["postgres", "sqlite"]);
        assert_eq!(
            django_engines("ENGINE = 'django.contrib.gis.db.backends.postgis'"),
            ["postgres"]
        );
        assert!(django_engines("DATABASES = env.db()").is_empty());
    }

    /// A database backend that wraps Django's (django-prometheus instruments the connection)
    /// names the same engine: wger's development settings use
    /// `django_prometheus.db.backends.postgresql`, and only its CI settings' `sqlite3` was read,
    /// so every model of the project was a definite SQLite access. An import of Django's backend
    /// module is no engine.
    #[test]
    fn django_engines_of_wrapping_backends_are_read() {
        let settings = "DBCONFIG_PG = {\n    'ENGINE': 'django_prometheus.db.backends.postgresql',\n}\nDBCONFIG_SQLITE = {\n    \"ENGINE\": \"django_prometheus.db.backends.sqlite3\",\n}\n";
        assert_eq!(django_engines(settings), ["postgres", "sqlite"]);
        assert!(django_engines(
            "from django.db.backends.base.schema import BaseDatabaseSchemaEditor\n"
        )
        .is_empty());
    }

    #[test]
    fn drizzle_dialect_is_read_from_the_config() {
        let config = "export default defineConfig({\n  schema: './src/schema.ts',\n  dialect: 'postgresql',\n});\n";
        assert_eq!(drizzle_category(config).as_deref(), Some("postgres"));
        assert_eq!(
            drizzle_category("{ \"dialect\": \"sqlite\" }").as_deref(),
            Some("sqlite")
        );
        assert_eq!(drizzle_category("export default {}"), None);
    }
}
