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

/// The Prisma and Drizzle settings of a project.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Datastores {
    prisma: Vec<Setting>,
    drizzle: Vec<Setting>,
    django: Vec<Setting>,
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
                let engines = reader.read(path).as_deref().map(django_engines);
                for category in engines.into_iter().flatten() {
                    // Settings apply to the project the settings package belongs to: the folder
                    // above the one holding `settings.py` (or the `settings/` package).
                    let package = parent_dir(path);
                    let package = if file_name(package) == "settings" {
                        parent_dir(package)
                    } else {
                        package
                    };
                    datastores.django.push(Setting {
                        root: parent_dir(package).to_owned(),
                        category,
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

/// The `provider` of the `datasource` block of a Prisma schema.
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
                return quoted(value.trim_start().strip_prefix('=')?);
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
/// (`'ENGINE': 'django.db.backends.postgresql'` → `postgres`; `postgis` counts as `postgres`).
fn django_engines(settings: &str) -> Vec<String> {
    let mut categories = Vec::new();
    for marker in ["django.db.backends.", "django.contrib.gis.db.backends."] {
        let mut rest = settings;
        while let Some(index) = rest.find(marker) {
            rest = rest.get(index + marker.len()..).unwrap_or_default();
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
    }
    categories
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
