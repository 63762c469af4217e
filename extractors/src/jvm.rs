//! What Java and Kotlin share: imports resolved through the project's type index
//! (`context::TypeIndex`), edges to same-package types the file uses, and the client table.
//!
//! - `import a.b.C` resolves to the file declaring `C` in package `a.b` (a nested or static
//!   member `a.b.C.D` to the file of `C`); a name the index lacks is an unresolved `import` when
//!   its package belongs to the project (`TypeIndex::owns_package`), else `external` with the
//!   package part (the segments before the first capitalised one) as `package`.
//! - `import a.b.*` gives one fact per file of `a.b` declaring a type the file uses (names
//!   matched against the syntax tree's identifiers); none used gives one unresolved `import`.
//! - Types of the file's own package that it uses (declared in another file) are edges too:
//!   one `import` per file at the first use, with specifier `<package>.<Type>`.

use std::collections::{BTreeMap, BTreeSet};

use tree_sitter::Node;

use crate::clients::ClientRule;
use crate::context::{Resolution, TypeIndex};
use crate::imports_out::ImportSite;

/// One import directive of a Java or Kotlin file.
#[derive(Debug, Clone)]
pub(crate) struct JvmImport<'tree> {
    /// The directive.
    pub node: Node<'tree>,
    /// The dotted path without `.*`.
    pub path: String,
    /// Whether it ends with `.*`.
    pub is_wildcard: bool,
    /// The Kotlin `as` alias.
    pub alias: Option<String>,
}

/// The import sites of a file: its directives, then same-package uses.
pub(crate) fn import_sites<'tree>(
    index: &TypeIndex,
    file: &str,
    package: &str,
    imports: &[JvmImport<'tree>],
    uses: &BTreeMap<String, Node<'tree>>,
) -> Vec<ImportSite<'tree>> {
    let mut sites = Vec::new();
    let mut imported_names = BTreeSet::new();
    for import in imports {
        if import.is_wildcard {
            if let Some(types) = index.package(&import.path) {
                let mut by_file: BTreeMap<&str, Vec<String>> = BTreeMap::new();
                for (name, files) in types {
                    if uses.contains_key(name) {
                        if let Some(first) = files.iter().find(|declaring| *declaring != file) {
                            by_file.entry(first).or_default().push(name.clone());
                        }
                    }
                }
                if by_file.is_empty() {
                    sites.push(ImportSite::new(
                        import.node,
                        format!("{}.*", import.path),
                        Resolution::Internal,
                        "import of",
                    ));
                }
                for (resolved, names) in by_file {
                    let mut site = ImportSite::new(
                        import.node,
                        format!("{}.*", import.path),
                        Resolution::File(resolved.to_owned()),
                        "import of",
                    );
                    site.names = names;
                    sites.push(site);
                }
                continue;
            }
        }
        let resolution = resolve_type_path(index, &import.path);
        if let Some(last) = import.path.rsplit('.').next() {
            imported_names.insert(import.alias.clone().unwrap_or_else(|| last.to_owned()));
        }
        let specifier = if import.is_wildcard {
            format!("{}.*", import.path)
        } else {
            import.path.clone()
        };
        let mut site = ImportSite::new(import.node, specifier, resolution, "import of");
        site.alias = import.alias.clone();
        sites.push(site);
    }
    if let Some(types) = index.package(package) {
        let mut by_file: BTreeMap<&str, (Node<'tree>, Vec<String>)> = BTreeMap::new();
        for (name, files) in types {
            if files.contains(file) || imported_names.contains(name) {
                continue;
            }
            let (Some(first_use), Some(declaring)) = (uses.get(name), files.iter().next()) else {
                continue;
            };
            let entry = by_file
                .entry(declaring)
                .or_insert_with(|| (*first_use, Vec::new()));
            if first_use.start_byte() < entry.0.start_byte() {
                entry.0 = *first_use;
            }
            entry.1.push(name.clone());
        }
        let mut same_package: Vec<ImportSite<'tree>> = by_file
            .into_iter()
            .map(|(declaring, (node, names))| {
                let specifier = names
                    .first()
                    .map(|name| qualified(package, name))
                    .unwrap_or_default();
                let mut site = ImportSite::new(
                    node,
                    specifier,
                    Resolution::File(declaring.to_owned()),
                    "same-package use of",
                );
                site.names = names;
                site
            })
            .collect();
        same_package.sort_by_key(|site| site.node.start_byte());
        sites.extend(same_package);
    }
    sites
}

/// Resolves `a.b.C` (or a member `a.b.C.D.e`) to the file declaring the outermost type.
pub(crate) fn resolve_type_path(index: &TypeIndex, path: &str) -> Resolution {
    let segments: Vec<&str> = path.split('.').collect();
    for split in 1..segments.len() {
        let (Some(package), Some(name)) = (segments.get(..split), segments.get(split)) else {
            continue;
        };
        if let Some(first) = index
            .files_of(&package.join("."), name)
            .and_then(|files| files.iter().next())
        {
            return Resolution::File(first.clone());
        }
    }
    let package = package_part(&segments);
    if index.owns_package(&package) {
        Resolution::Internal
    } else {
        Resolution::External { package }
    }
}

/// The package of a dotted path: the segments before the first capitalised one, else all but
/// the last.
fn package_part(segments: &[&str]) -> String {
    let capitalised = segments
        .iter()
        .position(|segment| segment.starts_with(|c: char| c.is_ascii_uppercase()));
    let end = capitalised
        .unwrap_or(segments.len().saturating_sub(1))
        .max(1);
    segments
        .get(..end.min(segments.len()))
        .unwrap_or_default()
        .join(".")
}

fn qualified(package: &str, name: &str) -> String {
    if package.is_empty() {
        name.to_owned()
    } else {
        format!("{package}.{name}")
    }
}

/// Qualifies a simple type name through the file's imports: an explicit import, else the first
/// wildcard package outside the project.
pub(crate) fn qualify(name: &str, imports: &[JvmImport<'_>], index: &TypeIndex) -> Option<String> {
    let (head, rest) = name.split_once('.').unwrap_or((name, ""));
    let base = imports
        .iter()
        .filter(|import| !import.is_wildcard)
        .find(|import| {
            import.alias.as_deref() == Some(head)
                || (import.alias.is_none() && import.path.rsplit('.').next() == Some(head))
        })
        .map(|import| import.path.clone())
        .or_else(|| {
            imports
                .iter()
                .filter(|import| import.is_wildcard && index.package(&import.path).is_none())
                .map(|import| format!("{}.{head}", import.path))
                .next()
        })?;
    Some(if rest.is_empty() {
        base
    } else {
        format!("{base}.{rest}")
    })
}

/// The category of a JDBC URL (`jdbc:postgresql://…` → `postgres`).
fn jdbc_url_category(url: &str) -> Option<&'static str> {
    let driver = url.strip_prefix("jdbc:")?.split(':').next()?;
    match driver {
        "postgresql" => Some("postgres"),
        "mysql" | "mariadb" => Some("mysql"),
        "sqlserver" => Some("mssql"),
        "sqlite" => Some("sqlite"),
        _ => None,
    }
}

/// Java clients (Kotlin uses them too), first match wins.
pub(crate) const JAVA_CLIENTS: [ClientRule; 12] = [
    ClientRule {
        calls: &["DriverManager.getConnection"],
        refine: Some(jdbc_url_category),
        ..ClientRule::new("java.sql", "relational_db", &["java.sql"])
    },
    ClientRule {
        types: &["DataSource"],
        is_probable_on_import: false,
        ..ClientRule::new("javax.sql", "relational_db", &["javax.sql"])
    },
    ClientRule {
        types: &["JdbcTemplate", "NamedParameterJdbcTemplate"],
        ..ClientRule::new(
            "spring-jdbc",
            "relational_db",
            &["org.springframework.jdbc"],
        )
    },
    ClientRule {
        types: &["JpaRepository"],
        ..ClientRule::new(
            "spring-data-jpa",
            "relational_db",
            &["org.springframework.data.jpa"],
        )
    },
    ClientRule {
        types: &["CrudRepository", "PagingAndSortingRepository"],
        is_probable_on_import: false,
        ..ClientRule::new(
            "spring-data-commons",
            "relational_db",
            &["org.springframework.data.repository"],
        )
    },
    ClientRule {
        types: &[
            "MongoRepository",
            "MongoTemplate",
            "ReactiveMongoRepository",
        ],
        ..ClientRule::new(
            "spring-data-mongodb",
            "mongodb",
            &["org.springframework.data.mongodb"],
        )
    },
    ClientRule {
        calls: &["MongoClients.create"],
        types: &["MongoClient", "MongoDatabase"],
        ..ClientRule::new("mongodb-driver", "mongodb", &["com.mongodb"])
    },
    ClientRule {
        types: &["KafkaTemplate"],
        ..ClientRule::new(
            "spring-kafka",
            "message_queue",
            &["org.springframework.kafka"],
        )
    },
    ClientRule {
        constructs: &["KafkaProducer", "KafkaConsumer"],
        types: &["KafkaProducer", "KafkaConsumer", "Producer", "Consumer"],
        ..ClientRule::new(
            "kafka-clients",
            "message_queue",
            &["org.apache.kafka.clients"],
        )
    },
    ClientRule {
        constructs: &["RestTemplate"],
        calls: &["RestClient.create", "RestClient.builder"],
        types: &["RestTemplate", "RestClient"],
        ..ClientRule::new(
            "spring-web",
            "external_api",
            &["org.springframework.web.client"],
        )
    },
    ClientRule {
        calls: &["WebClient.create", "WebClient.builder"],
        types: &["WebClient"],
        ..ClientRule::new(
            "spring-webflux",
            "external_api",
            &["org.springframework.web.reactive.function.client"],
        )
    },
    ClientRule {
        types: &["RedisTemplate", "StringRedisTemplate"],
        ..ClientRule::new(
            "spring-data-redis",
            "redis",
            &["org.springframework.data.redis"],
        )
    },
];
