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
//!   one `import` per file at the first use, with specifier `<package>.<Type>`. The annotations
//!   of a `package-info.java` package declaration count as uses.
//! - A fully qualified use without an import (`com.acme.orders.OrderService svc`, `extends
//!   com.acme.Base`, `com.acme.util.formatMoney(1)`) is an edge to the declaring file at its
//!   first use, unless an earlier site of the file already reaches that file.
//! - Java names no Kotlin top-level function or property by its simple name (it goes through
//!   the `…Kt` facade class), so a Java identifier never matches a lowercase Kotlin declaration.
//!   A facade named by `@file:JvmName("X")` is indexed as the type `X` of the file; the default
//!   facade `FooKt` (imported, static-imported or used in the same package) is the file `Foo.kt`.

pub(crate) mod roles;
pub(crate) mod spring;

pub(crate) use crate::resolve::deferred::chains::ChainKinds;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use policies::facts::Fact;
use tree_sitter::Node;

use crate::facts::clients::{ClientImportAt, ClientMatcher, ClientRule, ClientSiteAt, ClientUse};
use crate::facts::imports::{self, ImportSiteAt};
use crate::generic::GenericFacts;
use crate::resolve::context::{Resolution, Types};
use crate::resolve::deferred::{
    Anchor, Anchors, ChainPacker, Chains, Finishing, NameAnchors, PackedChains, PackedNames,
};

/// One import directive of a Java or Kotlin file.
#[derive(Debug, Clone)]
pub(crate) struct JvmImport {
    /// The directive.
    pub node: Anchor,
    /// The dotted path without `.*`.
    pub path: String,
    /// Whether it ends with `.*`.
    pub is_wildcard: bool,
    /// The Kotlin `as` alias.
    pub alias: Option<String>,
}

/// The imports as the client matcher reads them; an import the file's import sites (from
/// [`import_sites`]) resolve into the project is the project's own.
pub(crate) fn client_imports(
    imports: &[JvmImport],
    sites: &[ImportSiteAt<Anchor>],
) -> Vec<ClientImportAt<Anchor>> {
    imports
        .iter()
        .map(|import| ClientImportAt {
            node: import.node,
            path: import.path.clone(),
            is_project: sites.iter().any(|site| {
                site.node == import.node && !matches!(site.resolution, Resolution::External { .. })
            }),
        })
        .collect()
}

/// What a Java or Kotlin file needs from the type index, kept from its first pass
/// (`crate::resolve::deferred`): what it offers for resolution, and its client sites.
#[derive(Debug)]
pub(crate) struct PendingJvm {
    /// The package (`""` for the default package).
    pub package: String,
    /// The import directives.
    pub imports: Vec<JvmImport>,
    /// The first use of each identifier outside the directives.
    pub uses: PackedNames,
    /// The dotted chains that may name a project type (`resolvable_chains`), in order.
    pub chains: PackedChains,
    /// Whether the file is Java, which cannot name a Kotlin top-level function or property
    /// by its simple name (it goes through the `…Kt` facade class).
    pub is_java: bool,
    /// The client sites that may match a rule once their names are qualified.
    pub clients: Vec<PendingClient>,
    /// The name of each top-level interface not annotated `@Mapper`: a MyBatis mapper when a
    /// `@MapperScan` of the project names its package.
    pub interfaces: Vec<Anchor>,
    /// The client rules of the language, first match wins.
    pub rules: &'static [ClientRule],
    /// Whether the file names Spring Boot's datasource settings (`spring.datasource`,
    /// `DataSourceProperties`): a pool it builds itself may be the configured one.
    pub reads_datasource_settings: bool,
}

/// Whether a source names Spring Boot's datasource settings ([`PendingJvm`]).
pub(crate) fn reads_datasource_settings(source: &str) -> bool {
    source.contains("spring.datasource") || source.contains("DataSourceProperties")
}

/// A client site whose name the imports qualify (`qualify`).
#[derive(Debug)]
pub(crate) struct PendingClient {
    /// The construct the evidence spans.
    pub node: Anchor,
    /// How it uses the client.
    pub use_kind: ClientUse,
    /// The name as written (`KafkaTemplate`, `DriverManager.getConnection`).
    pub name: String,
    /// The first string-literal argument, if any.
    pub argument: Option<String>,
}

impl PendingClient {
    /// The site, unless no rule of `matcher` can match it whatever the type index holds and
    /// it names nothing of a library the spec binds (`generic`), imported or written out in
    /// full (`new com.rabbitmq.client.ConnectionFactory()`).
    pub fn new<'a>(
        site: (Node<'a>, ClientUse, String, Option<String>),
        imports: &ImportNames<'_>,
        matcher: &ClientMatcher<'_>,
        generic: &GenericFacts,
        anchor: impl FnOnce(Node<'a>) -> Anchor,
    ) -> Option<Self> {
        let (node, use_kind, name, argument) = site;
        let candidates = imports.candidates(&name);
        let is_bound = || {
            generic.has_bound_clients()
                && (generic.bound_client(&name).is_some()
                    || candidates
                        .iter()
                        .any(|path| generic.bound_client(path).is_some()))
        };
        (candidates
            .iter()
            .any(|path| matcher.matches_any(use_kind, path, true))
            || is_bound())
        .then(|| Self {
            node: anchor(node),
            use_kind,
            name,
            argument,
        })
    }
}

impl PendingJvm {
    /// The file's import facts, then its client facts (Kotlin: and the project types it names,
    /// in `finishing.types`).
    pub fn finish(self, finishing: &mut Finishing<'_>, facts: &mut Vec<Fact>) {
        let index = finishing.context.jvm_types();
        let (uses, chains) = (self.uses.unpack(), self.chains.unpack());
        let file = JvmFile {
            path: finishing.path,
            package: &self.package,
            imports: &self.imports,
            uses: &uses,
            chains: &chains,
            is_java: self.is_java,
        };
        let mut sites = import_sites(index, &file);
        // A project type no source file declares may be code the build generates into a
        // folder the repository ignores: no missing file.
        for site in &mut sites {
            if site.resolution == Resolution::Internal
                && !site.specifier.ends_with(".*")
                && finishing
                    .context
                    .jvm_generated(finishing.path, &site.specifier)
            {
                site.resolution = Resolution::Generated;
            }
        }
        if !self.is_java {
            finishing.types = sites
                .iter()
                .filter_map(|site| match &site.resolution {
                    Resolution::File(file) => {
                        let name = site.specifier.rsplit('.').next().unwrap_or(&site.specifier);
                        Some((name.to_owned(), file.clone()))
                    }
                    _ => None,
                })
                .collect();
        }
        let finishing: &Finishing<'_> = finishing;
        let scope_of = |anchor: Anchor| finishing.scope(anchor);
        facts.extend(
            sites
                .iter()
                .filter(|site| imports::kept(&finishing.factory, &site.resolution))
                .map(|site| imports::fact(&finishing.factory, site, scope_of(site.node))),
        );
        let generic = finishing.factory.generic();
        let matcher = ClientMatcher {
            rules: self.rules,
            separator: ".",
        };
        let mut bound_sites: Vec<ClientSiteAt<Anchor>> = Vec::new();
        let client_sites: Vec<ClientSiteAt<Anchor>> = self
            .clients
            .into_iter()
            .filter_map(|site| {
                let (qualified, bound) = site_paths(
                    qualify(&site.name, &self.imports, index, &self.package),
                    site.use_kind,
                    &matcher,
                    generic,
                );
                if generic.has_bound_clients() {
                    // A name written out in full is its own path.
                    let path = bound
                        .or_else(|| generic.bound_client(&site.name).map(|_| site.name.clone()))
                        .filter(|path| generic.bound_client(path).is_some());
                    if let Some(path) = path {
                        bound_sites.push(ClientSiteAt {
                            node: site.node,
                            use_kind: bound_use(site.use_kind, &path, self.is_java),
                            path,
                            is_qualified: true,
                            argument: None,
                            options: Vec::new(),
                        });
                    }
                }
                Some(ClientSiteAt {
                    node: site.node,
                    use_kind: site.use_kind,
                    path: qualified?,
                    is_qualified: true,
                    argument: site.argument,
                    options: Vec::new(),
                })
            })
            .collect();
        let mut client_sites = client_sites;
        if !self.interfaces.is_empty() && index.is_mapper_package(&self.package) {
            client_sites.extend(self.interfaces.iter().map(|interface| ClientSiteAt {
                node: *interface,
                use_kind: ClientUse::Annotate,
                path: MAPPER_SCAN.to_owned(),
                is_qualified: true,
                argument: None,
                options: Vec::new(),
            }));
        }
        let imports = client_imports(&self.imports, &sites);
        let probable_imports: Vec<ClientImportAt<Anchor>> = imports
            .iter()
            .zip(&self.imports)
            .filter(|(_, directive)| {
                !(directive.is_wildcard
                    && matcher.package_brings_no_client(&directive.path, &|name| {
                        uses.get(name).is_some()
                    }))
            })
            .map(|(import, _)| import.clone())
            .collect();
        let client_facts = matcher.facts(
            &finishing.factory,
            &client_sites,
            &probable_imports,
            &scope_of,
        );
        // A file that builds its own connection pool (`new HikariDataSource(config)`) from
        // settings other than Spring Boot's datasource ones connects where those settings say
        // (apache/hertzbeat's Doris, TDengine and DuckDB stores), not to the configured
        // datasource.
        let builds_own_pool = !self.reads_datasource_settings
            && client_sites.iter().any(|site| {
                matcher
                    .first_rule(site.use_kind, &site.path, site.is_qualified)
                    .is_some_and(|rule| {
                        rule.derive == crate::catalogue::Derive::SpringDatasource
                            && constructs(rule, site.use_kind, &site.path)
                    })
            });
        facts.extend(if builds_own_pool {
            client_facts
        } else {
            settle_spring_datasources(client_facts, self.rules, finishing.context, finishing.path)
        });
        facts.extend(matcher.bound_facts(&finishing.factory, &bound_sites, &imports, &scope_of));
    }
}

/// Whether a site constructs one of the rule's `constructs`: `new HikariDataSource(…)`, or
/// Kotlin's `HikariDataSource(…)`, a call of the type.
fn constructs(rule: &ClientRule, use_kind: ClientUse, path: &str) -> bool {
    let last = path.rsplit('.').next().unwrap_or(path);
    matches!(use_kind, ClientUse::Construct | ClientUse::Call)
        && rule
            .constructs
            .iter()
            .any(|name| name.rsplit('.').next() == Some(last))
}

/// The annotation that makes the interfaces of the packages it names MyBatis mappers.
pub(crate) const MAPPER_SCAN: &str = "org.mybatis.spring.annotation.MapperScan";

/// The annotation that makes an interface a MyBatis mapper.
pub(crate) const MAPPER: &str = "org.apache.ibatis.annotations.Mapper";

/// Whether an annotation written `name` is the one whose qualified name is `qualified`: its
/// simple name, or the qualified name written out.
pub(crate) fn names_annotation(name: &str, qualified: &str) -> bool {
    name == qualified || qualified.rsplit('.').next() == Some(name)
}

/// Whether an annotation written `name` on a class or its methods may be a client use of a
/// catalogue library (`@RabbitListener`, `@KafkaListener`), never `@MapperScan` (which names
/// packages of mappers, read apart).
pub(crate) fn is_client_annotation(matcher: &ClientMatcher<'_>, name: &str) -> bool {
    matcher.may_end_with(ClientUse::Annotate, matcher.last_segment(name))
        && !names_annotation(name, MAPPER_SCAN)
}

/// Client facts whose library reaches the configured datasource (`derive =
/// "spring-datasource"` or `"configured-store"`) and kept the entry's own category take the
/// store of the module's Spring Boot, Quarkus or Micronaut configuration: one fact per store its
/// profiles name (`mysql` for `application-mysql.yml`, `postgres` for
/// `application-postgres.yml`), each with the `profiles` that name it and the `datasource`
/// drivers. A `configured-store` library of a module that names no relational datasource takes
/// its MongoDB connection instead (a key, or the MongoDB starter of its build). Without a literal URL or kind the fact stays as it is.
fn settle_spring_datasources(
    facts: Vec<Fact>,
    rules: &[ClientRule],
    context: &crate::resolve::context::ProjectContext,
    path: &str,
) -> Vec<Fact> {
    use crate::catalogue::Derive;
    let derive_of = |fact: &Fact| {
        let package = fact
            .properties
            .get("package")
            .and_then(|value| value.as_str());
        rules
            .iter()
            .find(|rule| {
                Some(rule.name) == package
                    && matches!(
                        rule.derive,
                        Derive::SpringDatasource | Derive::ConfiguredStore
                    )
                    && fact.technology.as_deref() == Some(rule.category)
            })
            .map(|rule| rule.derive)
    };
    if !facts.iter().any(|fact| derive_of(fact).is_some()) {
        return facts;
    }
    // Each store with the profiles and drivers that name it: the relational datasources, and
    // the MongoDB and Cassandra connections apart.
    type Stores<'a> = BTreeMap<&'a str, (BTreeSet<&'a str>, BTreeSet<&'a str>)>;
    let mut relational: Stores<'_> = BTreeMap::new();
    let mut non_relational: Stores<'_> = BTreeMap::new();
    for datasource in context.spring_datasources(path) {
        let stores = match (datasource.is_store, datasource.category.as_str()) {
            (false, _) => &mut relational,
            (true, "mongodb" | "cassandra") => &mut non_relational,
            (true, _) => continue,
        };
        let (profiles, drivers) = stores.entry(datasource.category.as_str()).or_default();
        profiles.insert(datasource.profile.as_str());
        drivers.insert(datasource.scheme.as_str());
    }
    if relational.is_empty() && non_relational.is_empty() {
        return facts;
    }
    let mut settled = Vec::with_capacity(facts.len() + relational.len());
    for fact in facts {
        let stores = match derive_of(&fact) {
            Some(_) if !relational.is_empty() => &relational,
            Some(Derive::ConfiguredStore) if !non_relational.is_empty() => &non_relational,
            _ => {
                settled.push(fact);
                continue;
            }
        };
        for (category, (profiles, drivers)) in stores {
            let mut store = fact.clone();
            store.technology = Some((*category).into());
            let list = |names: &BTreeSet<&str>| -> Vec<String> {
                names.iter().map(|name| (*name).to_owned()).collect()
            };
            crate::facts::set(&mut store, "profiles", list(profiles));
            crate::facts::set(&mut store, "datasource", list(drivers));
            settled.push(store);
        }
    }
    settled
}

/// How a site uses a bound library: a Kotlin call of a type (`ConnectionFactory()`, its last
/// segment capitalised) constructs it.
fn bound_use(use_kind: ClientUse, path: &str, is_java: bool) -> ClientUse {
    let last = path.rsplit('.').next().unwrap_or(path);
    if !is_java
        && use_kind == ClientUse::Call
        && last.chars().next().is_some_and(char::is_uppercase)
    {
        ClientUse::Construct
    } else {
        use_kind
    }
}

/// The chains that may name a project type, for `PendingJvm::chains`: those whose first name
/// starts lowercase (`qualified_target` takes no other), each once (a repeat reaches no file
/// the first did not).
pub(crate) fn resolvable_chains<'a>(
    chains: &[(Vec<String>, Node<'a>, u32)],
    anchors: &Anchors<'a>,
) -> PackedChains {
    let mut seen: HashSet<&[String]> = HashSet::new();
    let mut kept = ChainPacker::default();
    for (segments, node, scope) in chains {
        let starts_lowercase = segments
            .first()
            .is_some_and(|first| first.starts_with(|c: char| c.is_ascii_lowercase()));
        if starts_lowercase && seen.insert(segments) {
            kept.push(segments, anchors.at_scope(*node, *scope));
        }
    }
    kept.finish()
}

/// What a Java or Kotlin file offers for resolution.
pub(crate) struct JvmFile<'file> {
    /// The project-relative path.
    pub path: &'file str,
    /// The package (`""` for the default package).
    pub package: &'file str,
    /// The import directives.
    pub imports: &'file [JvmImport],
    /// The first use of each identifier outside the directives.
    pub uses: &'file NameAnchors,
    /// The dotted chains of identifiers (`com.acme.Foo`, `com.acme.util.format`), in order.
    pub chains: &'file Chains,
    /// Whether the file is Java, which cannot name a Kotlin top-level function or property
    /// by its simple name (it goes through the `…Kt` facade class).
    pub is_java: bool,
}

/// The import sites of a file: its directives, then same-package uses, then fully qualified
/// uses of project types that no earlier site reaches.
/// The names that are both among a file's first uses and a package's types, in name order,
/// with the files declaring the type and the name's first use. Looked up from the smaller side:
/// a file uses a few hundred names, a package can hold thousands of types.
pub(crate) fn used_types<'i>(
    uses: &'i NameAnchors,
    types: &'i BTreeMap<String, BTreeSet<String>>,
) -> Vec<(&'i str, &'i BTreeSet<String>, Anchor)> {
    if uses.len() <= types.len() {
        uses.iter()
            .filter_map(|(name, first_use)| types.get(name).map(|files| (name, files, first_use)))
            .collect()
    } else {
        types
            .iter()
            .filter_map(|(name, files)| {
                uses.get(name)
                    .map(|first_use| (name.as_str(), files, first_use))
            })
            .collect()
    }
}

pub(crate) fn import_sites(index: Types<'_>, jvm: &JvmFile<'_>) -> Vec<ImportSiteAt<Anchor>> {
    let (file, imports, uses) = (jvm.path, jvm.imports, jvm.uses);
    let visible = |name: &str, declaring: &str| {
        !(jvm.is_java
            && (declaring.ends_with(".kt") || declaring.ends_with(".kts"))
            && !name.starts_with(|c: char| c.is_ascii_uppercase()))
    };
    let mut sites = Vec::new();
    let mut imported_names = BTreeSet::new();
    for import in imports {
        if import.is_wildcard {
            if let Some(types) = index.package(&import.path) {
                let mut by_file: BTreeMap<&str, Vec<String>> = BTreeMap::new();
                for (name, files, _) in used_types(uses, types) {
                    if let Some(first) = nearest(
                        files
                            .iter()
                            .filter(|declaring| *declaring != file && visible(name, declaring)),
                        file,
                    ) {
                        by_file.entry(first).or_default().push(name.to_owned());
                    }
                }
                if by_file.is_empty() {
                    sites.push(ImportSiteAt::new(
                        import.node,
                        format!("{}.*", import.path),
                        Resolution::Internal,
                        "import of",
                    ));
                }
                for (resolved, names) in by_file {
                    let mut site = ImportSiteAt::new(
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
        let mut resolution = resolve_type_path(index, &import.path, file);
        // `import kotlin.coroutines.*` of a package the project does not declare (only a
        // package below it, `kotlin.coroutines.jvm.internal`): the library's package.
        if import.is_wildcard
            && resolution == Resolution::Internal
            && !index.owns_package_itself(&import.path)
        {
            resolution = Resolution::External {
                package: import.path.clone(),
            };
        }
        // `import io.minio.*` names the package `io.minio` whole (its last segment is no type),
        // which a binding of `io.minio` meets; `import static a.B.*` stays under `a`.
        if let Resolution::External { package } = &mut resolution {
            if import.is_wildcard
                && !import
                    .path
                    .split('.')
                    .any(|segment| segment.starts_with(|c: char| c.is_ascii_uppercase()))
            {
                package.clone_from(&import.path);
            }
        }
        if let Some(last) = import.path.rsplit('.').next() {
            imported_names.insert(import.alias.clone().unwrap_or_else(|| last.to_owned()));
        }
        let specifier = if import.is_wildcard {
            format!("{}.*", import.path)
        } else {
            import.path.clone()
        };
        let mut site = ImportSiteAt::new(import.node, specifier, resolution, "import of");
        site.alias = import.alias.clone();
        sites.push(site);
    }
    sites.extend(same_package_sites(index, jvm, &imported_names, &visible));
    let mut reached: BTreeSet<String> = sites
        .iter()
        .filter_map(|site| match &site.resolution {
            Resolution::File(resolved) => Some(resolved.clone()),
            _ => None,
        })
        .collect();
    reached.insert(file.to_owned());
    for (segments, node) in jvm.chains.iter() {
        let Some((package, name, declaring)) = qualified_target(index, &segments, file) else {
            continue;
        };
        if !visible(name, declaring) || !reached.insert(declaring.to_owned()) {
            continue;
        }
        let mut site = ImportSiteAt::new(
            node,
            qualified(&package, name),
            Resolution::File(declaring.to_owned()),
            "qualified use of",
        );
        site.names = vec![name.to_owned()];
        sites.push(site);
    }
    sites
}

/// The uses of types declared in the file's own package by another file (no import needed),
/// one site per declaring file at its first use; `Kt` facades of Kotlin top-level functions
/// too. Names the file imports are the imports'.
fn same_package_sites(
    index: Types<'_>,
    jvm: &JvmFile<'_>,
    imported_names: &BTreeSet<String>,
    visible: &dyn Fn(&str, &str) -> bool,
) -> Vec<ImportSiteAt<Anchor>> {
    let (file, package, uses) = (jvm.path, jvm.package, jvm.uses);
    let Some(types) = index.package(package) else {
        return Vec::new();
    };
    let mut by_file: BTreeMap<&str, (Anchor, Vec<String>)> = BTreeMap::new();
    for (name, files, first_use) in used_types(uses, types) {
        if files.contains(file) || imported_names.contains(name) {
            continue;
        }
        let Some(declaring) = nearest(
            files.iter().filter(|declaring| visible(name, declaring)),
            file,
        ) else {
            continue;
        };
        let entry = by_file
            .entry(declaring)
            .or_insert_with(|| (first_use, Vec::new()));
        if first_use.start_byte() < entry.0.start_byte() {
            entry.0 = first_use;
        }
        entry.1.push(name.to_owned());
    }
    for (name, first_use) in uses.iter() {
        if !name.ends_with("Kt") || imported_names.contains(name) || types.contains_key(name) {
            continue;
        }
        let Some(declaring) = declaring_file(index, package, name, file) else {
            continue;
        };
        if declaring == file {
            continue;
        }
        let entry = by_file
            .entry(declaring)
            .or_insert_with(|| (first_use, Vec::new()));
        if first_use.start_byte() < entry.0.start_byte() {
            entry.0 = first_use;
        }
        entry.1.push(name.to_owned());
    }
    let mut same_package: Vec<ImportSiteAt<Anchor>> = by_file
        .into_iter()
        .map(|(declaring, (node, names))| {
            let specifier = names
                .first()
                .map(|name| qualified(package, name))
                .unwrap_or_default();
            let mut site = ImportSiteAt::new(
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
    same_package
}

/// The declaration a fully qualified chain names: the first split `package.Name` (the package
/// starting lowercase, as packages do) that the index declares.
fn qualified_target<'index, 'chain>(
    index: Types<'index>,
    segments: &[&'chain str],
    importer: &str,
) -> Option<(String, &'chain str, &'index str)> {
    if !segments
        .first()?
        .starts_with(|c: char| c.is_ascii_lowercase())
    {
        return None;
    }
    // The package grows by one segment per split, in one buffer.
    let mut package = String::new();
    for (split, name) in segments.iter().enumerate().skip(1) {
        if split > 1 {
            package.push('.');
        }
        package.push_str(segments.get(split - 1)?);
        if let Some(first) = declaring_file(index, &package, name, importer) {
            return Some((package, *name, first));
        }
    }
    None
}

/// Of the files that declare one name, the one nearest `importer`: the most leading path
/// segments in common (its own module or source set, when several modules of a project copy a
/// class), the first in path order on a tie.
pub(crate) fn nearest<'a>(
    files: impl IntoIterator<Item = &'a String>,
    importer: &str,
) -> Option<&'a str> {
    let shared = |file: &str| {
        file.split('/')
            .zip(importer.split('/'))
            .take_while(|(a, b)| a == b)
            .count()
    };
    let mut best: Option<(&str, usize)> = None;
    for file in files {
        let common = shared(file);
        if best.is_none_or(|(_, most)| common > most) {
            best = Some((file, common));
        }
    }
    best.map(|(file, _)| file)
}

/// The file declaring `name` in `package` nearest `importer`, or for `FooKt` the Kotlin file
/// `Foo.kt` of the package, whose top-level functions and properties Java reaches through that
/// facade.
fn declaring_file<'index>(
    index: Types<'index>,
    package: &str,
    name: &str,
    importer: &str,
) -> Option<&'index str> {
    if let Some(first) = index
        .files_of(package, name)
        .and_then(|files| nearest(files, importer))
    {
        return Some(first);
    }
    let stem = name.strip_suffix("Kt").filter(|stem| !stem.is_empty())?;
    let kotlin_file = format!("{stem}.kt");
    index
        .package(package)?
        .values()
        .flatten()
        .find(|file| file.rsplit('/').next() == Some(kotlin_file.as_str()))
        .map(String::as_str)
}

/// Resolves `a.b.C` (or a member `a.b.C.D.e`) to the file declaring the outermost type.
pub(crate) fn resolve_type_path(index: Types<'_>, path: &str, importer: &str) -> Resolution {
    // Each split is `package.Name` with the package a prefix of the path and the name the
    // segment after it, read in place.
    for (dot, _) in path.match_indices('.') {
        let (Some(package), Some(rest)) = (path.get(..dot), path.get(dot + 1..)) else {
            continue;
        };
        let name = rest.split('.').next().unwrap_or(rest);
        if let Some(first) = declaring_file(index, package, name, importer) {
            return Resolution::File(first.to_owned());
        }
    }
    let segments: Vec<&str> = path.split('.').collect();
    let package = package_part(&segments);
    if index.owns_package(&package) {
        Resolution::Internal
    } else {
        Resolution::External { package }
    }
}

/// The package of a dotted path: the segments before the first capitalised one, else all but
/// the last. A capitalised second segment (`org.HdrHistogram.Histogram`) is part of the
/// package: a one-segment package such as `org` would claim every `org.*` of the project.
fn package_part(segments: &[&str]) -> String {
    let capitalised = segments
        .iter()
        .position(|segment| segment.starts_with(|c: char| c.is_ascii_uppercase()));
    let all_but_last = segments.len().saturating_sub(1);
    let end = match capitalised {
        Some(1) if segments.len() >= 3 => all_but_last,
        Some(position) => position,
        None => all_but_last,
    }
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

/// Where a name as written comes from through the file's imports.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Qualified {
    /// Through an explicit import (or its alias): the one path.
    Explicit(String),
    /// Through the wildcard imports: the name under each wildcard package outside the project
    /// that can supply it, in order (none when it cannot be a type of one).
    Wildcard(Vec<String>),
}

/// Types every Java or Kotlin file names without an import (`java.lang`, Kotlin's default
/// imports): a wildcard import of a library never supplies them (a compiled file cannot name
/// both).
const DEFAULT_IMPORTED_TYPES: &[&str] = &[
    "Any",
    "Array",
    "ArrayList",
    "AssertionError",
    "AutoCloseable",
    "Boolean",
    "Byte",
    "Char",
    "CharSequence",
    "Character",
    "Class",
    "ClassCastException",
    "ClassLoader",
    "Cloneable",
    "Comparable",
    "Comparator",
    "Deprecated",
    "Double",
    "Enum",
    "Error",
    "Exception",
    "Float",
    "FunctionalInterface",
    "HashMap",
    "HashSet",
    "IllegalArgumentException",
    "IllegalStateException",
    "IndexOutOfBoundsException",
    "Int",
    "Integer",
    "InterruptedException",
    "Iterable",
    "LinkedHashMap",
    "LinkedHashSet",
    "List",
    "Long",
    "Map",
    "Math",
    "MutableList",
    "MutableMap",
    "MutableSet",
    "Nothing",
    "NullPointerException",
    "Number",
    "NumberFormatException",
    "Object",
    "Override",
    "Pair",
    "Record",
    "Regex",
    "Result",
    "Runnable",
    "Runtime",
    "RuntimeException",
    "Sequence",
    "Set",
    "Short",
    "String",
    "StringBuffer",
    "StringBuilder",
    "SuppressWarnings",
    "System",
    "Thread",
    "ThreadLocal",
    "Throwable",
    "Triple",
    "Unit",
    "UnsupportedOperationException",
    "Void",
];

/// The first segment of a name as written (`Type` of `Type.member`, `T` of `T`).
pub(crate) fn head(name: &str) -> &str {
    name.split(['.', '<', '(']).next().unwrap_or(name)
}

/// Qualifies a name as written (`Type`, `Type.member`, `receiver.method`) through the file's
/// imports, as Java and Kotlin resolve a simple name: an explicit import, then a type of the
/// file's own package (the project's, so no library's), then the wildcard imports of packages
/// outside the project. Through a wildcard only a type can come, so a head that reads as a
/// variable (a receiver `minioClient.putObject`, `e.getMessage`, a constant `LOGGER.info`:
/// lowercase, or without a lowercase letter) or a default-imported type (`String`) is no
/// library's.
pub(crate) fn qualify(
    name: &str,
    imports: &[JvmImport],
    index: Types<'_>,
    package: &str,
) -> Qualified {
    let (head, rest) = name.split_once('.').unwrap_or((name, ""));
    if let Some(base) = explicit_import(head, imports) {
        return Qualified::Explicit(with_rest(base, rest));
    }
    let reads_as_type = rest.is_empty()
        || (head.starts_with(|c: char| c.is_ascii_uppercase())
            && head.contains(|c: char| c.is_ascii_lowercase()));
    if !reads_as_type
        || DEFAULT_IMPORTED_TYPES.binary_search(&head).is_ok()
        || index.files_of(package, head).is_some()
    {
        return Qualified::Wildcard(Vec::new());
    }
    Qualified::Wildcard(
        imports
            .iter()
            .filter(|import| import.is_wildcard && index.package(&import.path).is_none())
            .map(|import| with_rest(format!("{}.{head}", import.path), rest))
            .collect(),
    )
}

/// The paths of a site for the catalogue and for the bound libraries. Through wildcards, the
/// catalogue takes the candidate one of its rules knows (which wildcard comes first does not
/// matter), else the first; a bound library takes the name when every wildcard that can supply it
/// is of that library, else only a candidate the catalogue knows in it (`MinioClient` of
/// `io.minio.*` beside `org.springframework.web.bind.annotation.*`), since lintel does not read
/// the libraries to know which one declares a name.
fn site_paths(
    qualified: Qualified,
    use_kind: ClientUse,
    matcher: &ClientMatcher<'_>,
    generic: &GenericFacts,
) -> (Option<String>, Option<String>) {
    match qualified {
        Qualified::Explicit(path) => (Some(path.clone()), Some(path)),
        Qualified::Wildcard(candidates) => {
            let known = candidates
                .iter()
                .find(|path| matcher.matches_any(use_kind, path, true))
                .cloned();
            let libraries: Vec<Option<&str>> = candidates
                .iter()
                .map(|path| generic.bound_client(path))
                .collect();
            let bound = match libraries.split_first() {
                Some((Some(library), rest)) if rest.iter().all(|other| *other == Some(library)) => {
                    candidates.first().cloned()
                }
                _ => known
                    .clone()
                    .filter(|path| generic.bound_client(path).is_some()),
            };
            (known.or_else(|| candidates.into_iter().next()), bound)
        }
    }
}

/// A file's imports as `qualify` reads them, for its many client sites: the first explicit
/// import of each simple name or alias, and the wildcard packages in order.
pub(crate) struct ImportNames<'i> {
    explicit: HashMap<&'i str, &'i str>,
    wildcards: Vec<&'i str>,
}

impl<'i> ImportNames<'i> {
    /// Reads `imports`.
    pub fn new(imports: &'i [JvmImport]) -> Self {
        let mut names = Self {
            explicit: HashMap::new(),
            wildcards: Vec::new(),
        };
        for import in imports {
            if import.is_wildcard {
                names.wildcards.push(&import.path);
            } else {
                let name = match &import.alias {
                    Some(alias) => alias.as_str(),
                    None => import.path.rsplit('.').next().unwrap_or(&import.path),
                };
                names.explicit.entry(name).or_insert(&import.path);
            }
        }
        names
    }

    /// What `qualify` may give for `name` whatever the type index holds: the explicit import,
    /// else the name under each wildcard package.
    pub(crate) fn candidates(&self, name: &str) -> Vec<String> {
        let (head, rest) = name.split_once('.').unwrap_or((name, ""));
        match self.explicit.get(head) {
            Some(base) => vec![with_rest((*base).to_owned(), rest)],
            None => self
                .wildcards
                .iter()
                .map(|package| with_rest(format!("{package}.{head}"), rest))
                .collect(),
        }
    }
}

/// The path of the non-wildcard import that names `head` (by alias, or by its last segment).
fn explicit_import(head: &str, imports: &[JvmImport]) -> Option<String> {
    imports
        .iter()
        .filter(|import| !import.is_wildcard)
        .find(|import| {
            import.alias.as_deref() == Some(head)
                || (import.alias.is_none() && import.path.rsplit('.').next() == Some(head))
        })
        .map(|import| import.path.clone())
}

fn with_rest(base: String, rest: &str) -> String {
    if rest.is_empty() {
        base
    } else {
        format!("{base}.{rest}")
    }
}

impl crate::resolve::deferred::Part for PendingJvm {
    fn finish(
        self: Box<Self>,
        finishing: &mut crate::resolve::deferred::Finishing<'_>,
        facts: &mut Vec<Fact>,
    ) {
        PendingJvm::finish(*self, finishing, facts);
    }
}
