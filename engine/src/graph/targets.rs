//! Target resolution of technology and HTTP facts (see Edges under `invariant` in policies/LANGUAGE.md), with the bindings of
//! `clients` and `urls` on nodes and resources (see `node` and `resource` in policies/LANGUAGE.md).
//!
//! A fact's targets, in order:
//! An `http_call`: its `target` (the component whose implemented contracts declare the path);
//! else nothing when its URL is relative (`/api/x`, `api/x`: it calls its own origin, never an
//! `external_api` entity), or when its host is only a variable and a route of the project serves
//! its method and path (`ownRoute`, [`prepare`]); else the entities whose `urls` bind its literal URL (as written, or
//! as the constants it reads fill it, `resolvedUrl`) or a configuration name it is built from
//! (`urlFrom`); else nothing.
//!
//! An `accesses_technology` fact:
//! 1. its `target`, or a declared entity its `technology` names;
//! 2. the entity whose `clients` bind the fact's `package` (the longest library wins; a listed
//!    library overrides the built-in catalogue);
//! 3. nothing when requests that resolve decide it (`request`): it is the client side of an
//!    `http_call` at the same place, or an HTTP client's construction or injection in a file
//!    whose requests all resolve; those calls make the edges, so one `fetch` is one edge, to the
//!    right entity;
//! 4. the category's candidates (resources, else nodes), leaving out every entity with bindings:
//!    a binding is exclusive. One candidate is the target; several are all targets, each such
//!    fact capped at `probable` (`ambiguous-technology-target`); none leaves the fact unresolved
//!    (`unresolved-target`).
//!
//! [`prepare`] runs once before the flow graph: it turns the `external` facts of a bound library
//! into `accesses_technology` facts, pairs accesses with requests and caps ambiguous facts.
//! [`fact_targets`] is then a function of the fact alone, which the flow graph and the warnings
//! share.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use policies::bindings::{library_binds, UrlBinding};
use policies::facts::{fact_id, Confidence, Fact, FactKind, PropertyValue};
use policies::model::{InfraEntity, Model};

use crate::graph::fact_table::InScope;
use crate::verdict::Warning;

mod drivers;

/// The node or resource types a category resolves to (see Edges under `invariant` in
/// policies/LANGUAGE.md).
pub fn category_types(category: &str) -> Vec<&str> {
    match category {
        "postgres" => vec!["postgres", "timescaledb", "relational_db"],
        "mysql" | "mssql" | "sqlite" => vec![category, "relational_db"],
        "relational_db" => vec![
            "postgres",
            "mysql",
            "mssql",
            "sqlite",
            "timescaledb",
            "relational_db",
        ],
        "mongodb" => vec!["mongodb", "document_db", "cosmosdb", "firestore"],
        "dynamodb" => vec!["dynamodb", "document_db"],
        "redis" | "cache" => vec!["redis", "elasticache", "cache", "memcached"],
        "message_queue" => vec!["message_queue", "event_stream", "queue"],
        "message_bus" => vec!["message_bus", "message_queue", "event_stream", "queue"],
        "object_store" => vec!["s3_bucket", "blob_storage", "object_store"],
        "external_api" => vec![
            "external_api",
            "rest_api",
            "api_gateway",
            "grpc_service",
            "graphql_api",
        ],
        "elasticsearch" => vec!["elasticsearch", "opensearch"],
        "neo4j" => vec!["neo4j", "neptune", "graph_db"],
        "vector_db" => vec!["vector_db", "pinecone", "weaviate"],
        "grpc_api" => vec!["grpc_service"],
        "firebase" => vec!["firestore"],
        "local_store" | "local_database" => vec!["local_database", "sqlite"],
        "device_hardware" => vec!["device_hardware", "ble"],
        other => vec![other],
    }
}

/// The bindings of a model, compiled.
#[derive(Debug, Default)]
pub struct Bindings<'m> {
    /// (library, entity), every `clients` entry.
    clients: Vec<(&'m str, &'m str)>,
    /// (entry, entity), every valid `urls` entry.
    urls: Vec<(UrlBinding, &'m str)>,
}

impl<'m> Bindings<'m> {
    /// Compiles the bindings of every node and resource.
    pub fn new(model: &'m Model) -> Self {
        let mut bindings = Self::default();
        for entity in model.nodes.iter().chain(&model.resources) {
            for library in &entity.clients {
                bindings.clients.push((library, &entity.name));
            }
            for url in &entity.urls {
                if let Ok(binding) = UrlBinding::parse(url) {
                    bindings.urls.push((binding, &entity.name));
                }
            }
        }
        bindings
    }

    /// Every library some entity lists in `clients`.
    pub fn libraries(&self) -> impl Iterator<Item = &'m str> + '_ {
        self.clients.iter().map(|(library, _)| *library)
    }

    /// The library and entity whose `clients` bind `package` (the longest library); a catalogue
    /// entry nested in a bound one (`django.core.cache` in `django`) is none of its packages.
    pub fn client(&self, package: &str) -> Option<(&'m str, &'m str)> {
        self.clients
            .iter()
            .filter(|(library, _)| {
                library_binds(library, package)
                    && !extractors::catalogue::is_separate_entry(library, package)
            })
            .max_by_key(|(library, _)| library.len())
            .copied()
    }

    /// The entities whose `urls` bind a call with this literal URL and configuration names.
    fn url_entities(&self, url: Option<&str>, names: &[&str]) -> BTreeSet<&'m str> {
        self.urls
            .iter()
            .filter(|(binding, _)| binding.binds(url, names))
            .map(|(_, entity)| *entity)
            .collect()
    }
}

/// How a fact's targets were found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A filled target or a declared entity name.
    Named,
    /// An entity whose `clients` or `urls` bind the fact.
    Bound,
    /// The one candidate of the category.
    Single,
    /// Several candidates of the category (or several bound entities): each edge is probable.
    Ambiguous {
        /// The category (or `urls` when several `urls` bind the call).
        category: String,
    },
    /// A category with no candidate left.
    Unresolved {
        /// The name that did not resolve.
        name: String,
        /// Entities of the category left out because their bindings do not bind the fact.
        excluded: Vec<String>,
    },
    /// A relative URL that no implemented contract declares: the code's own origin.
    SameOrigin,
    /// Nothing to resolve (an `http_call` with no target and no binding, other kinds).
    Nothing,
}

/// A fact's targets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    /// The entities, sorted.
    pub targets: Vec<String>,
    /// How they were found.
    pub outcome: Outcome,
}

impl Resolution {
    fn of(targets: Vec<String>, outcome: Outcome) -> Self {
        Self { targets, outcome }
    }
}

/// The configuration names a call's URL is built from (the `urlFrom` list).
fn url_names(fact: &Fact) -> Vec<&str> {
    match fact.properties.get("urlFrom") {
        Some(PropertyValue::List(names)) => names.iter().map(|name| name.as_str()).collect(),
        Some(PropertyValue::Str(name)) => vec![name.as_str()],
        _ => Vec::new(),
    }
}

/// Whether a request URL calls the code's own origin: rooted (`/api/x`, not `//host/x`),
/// `./x`, `../x`, or a first segment with no scheme, host, port or hole (`api/x`).
pub fn is_same_origin(url: &str) -> bool {
    let url = url.trim();
    if url.starts_with("//") {
        return false;
    }
    if url.starts_with('/') || url.starts_with("./") || url.starts_with("../") {
        return true;
    }
    match url.split_once('/') {
        Some((first, _)) => {
            !first.is_empty()
                && first
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        }
        None => false,
    }
}

/// The declared, unbound candidates of a category: its resources, else its nodes; and the
/// entities of the category that bindings leave out.
fn candidates<'m>(model: &'m Model, category: &str) -> (Vec<&'m str>, Vec<String>) {
    let types = category_types(category);
    let in_category = |entity: &&InfraEntity| types.contains(&entity.type_name.as_str());
    let excluded: Vec<String> = model
        .resources
        .iter()
        .chain(&model.nodes)
        .filter(in_category)
        .filter(|entity| entity.is_bound())
        .map(|entity| entity.name.clone())
        .collect();
    let unbound = |entities: &'m [InfraEntity]| -> Vec<&'m str> {
        entities
            .iter()
            .filter(in_category)
            .filter(|entity| !entity.is_bound())
            .map(|entity| entity.name.as_str())
            .collect()
    };
    let resources = unbound(&model.resources);
    if resources.is_empty() {
        (unbound(&model.nodes), excluded)
    } else {
        (resources, excluded)
    }
}

fn owned(names: impl IntoIterator<Item = impl AsRef<str>>) -> Vec<String> {
    let mut names: Vec<String> = names
        .into_iter()
        .map(|name| name.as_ref().to_owned())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The targets of one `accesses_technology` or `http_call` fact (an injection's edge goes to
/// the file that declares its type, `typeFile`, and is no target resolution).
pub fn fact_targets(model: &Model, bindings: &Bindings<'_>, fact: &Fact) -> Resolution {
    match fact.kind {
        FactKind::AccessesTechnology => technology_targets(model, bindings, fact),
        FactKind::HttpCall => http_targets(bindings, fact),
        _ => Resolution::of(Vec::new(), Outcome::Nothing),
    }
}

fn technology_targets(model: &Model, bindings: &Bindings<'_>, fact: &Fact) -> Resolution {
    if let Some(target) = fact.target.as_deref() {
        return Resolution::of(vec![target.to_owned()], Outcome::Named);
    }
    let Some(name) = fact.technology.as_deref() else {
        return Resolution::of(Vec::new(), Outcome::Nothing);
    };
    if model.is_entity(name) {
        return Resolution::of(vec![name.to_owned()], Outcome::Named);
    }
    if let Some((_, entity)) = ["package", "driver"].into_iter().find_map(|key| {
        fact.property_str(key)
            .and_then(|package| bindings.client(package))
    }) {
        return Resolution::of(vec![entity.to_owned()], Outcome::Bound);
    }
    if fact.properties.contains_key("request") {
        return Resolution::of(Vec::new(), Outcome::Nothing);
    }
    let (mut candidates, excluded) = candidates(model, name);
    // The node a component runs on hosts its code: what the code calls lies elsewhere. An
    // unbound HTTP client of a gateway that runs on `node gw : api_gateway` is no use of `gw`
    // (petclinic's gateway), and beside another API it left every call ambiguous.
    if let Some(host) = fact
        .subject
        .as_deref()
        .and_then(|subject| model.component(subject))
        .map(|component| component.runs_on.as_str())
    {
        candidates.retain(|candidate| *candidate != host);
    }
    match candidates.len() {
        0 => Resolution::of(
            Vec::new(),
            Outcome::Unresolved {
                name: name.to_owned(),
                excluded,
            },
        ),
        1 => Resolution::of(owned(candidates), Outcome::Single),
        _ => Resolution::of(
            owned(candidates),
            Outcome::Ambiguous {
                category: name.to_owned(),
            },
        ),
    }
}

fn http_targets(bindings: &Bindings<'_>, fact: &Fact) -> Resolution {
    if let Some(target) = fact.target.as_deref() {
        return Resolution::of(vec![target.to_owned()], Outcome::Named);
    }
    let url = fact.property_str("url");
    // Relative as written, or once the file's constants fill it (`${BASE}/x`, `BASE = ''`).
    if url.is_some_and(is_same_origin)
        || fact.property_flag("relativeUrl")
        || fact.property_flag("ownRoute")
    {
        return Resolution::of(Vec::new(), Outcome::SameOrigin);
    }
    // The URL as written, or as the constants it reads fill it (`${BASE}/x`, Angular's
    // `${environment.apiUrl}x`): `resolvedUrl`.
    let names = url_names(fact);
    let mut bound = bindings.url_entities(url, &names);
    if let Some(resolved) = fact.property_str("resolvedUrl") {
        bound.extend(bindings.url_entities(Some(resolved), &names));
    }
    match bound.len() {
        0 => Resolution::of(Vec::new(), Outcome::Nothing),
        1 => Resolution::of(owned(bound), Outcome::Bound),
        _ => Resolution::of(
            owned(bound),
            Outcome::Ambiguous {
                category: "urls".to_owned(),
            },
        ),
    }
}

/// Readies the graph facts for target resolution (once, before the flow graph):
/// - the `external` facts of a library that some entity's `clients` list become one probable
///   `accesses_technology` fact per file and library, at its first import, unless the file's
///   extractor already reports that library's uses; the `external` facts themselves stay only
///   when `keep_externals` (a reviewed query or `graph --facts` reads them);
/// - an `external_api` access that resolving requests decide (at the same place, or a client's
///   construction in a file whose requests all resolve) is left to them (its `request`);
/// - a fact with several candidate targets is capped at `probable` (see Edges under `invariant` in policies/LANGUAGE.md).
#[expect(
    clippy::vec_box,
    reason = "facts are boxed so that gathering them moves pointers, never the facts"
)]
pub fn prepare(model: &Model, facts: &mut Vec<Box<Fact>>, keep_externals: bool) {
    let bindings = Bindings::new(model);
    drivers::bind_drivers(model, &bindings, facts);
    drivers::narrow_driver_api_uses(model, facts);
    let added = bound_client_facts(&bindings, facts);
    let mut changed = !added.is_empty();
    facts.extend(added.into_iter().map(Box::new));
    if !keep_externals && facts.iter().any(|fact| fact.kind == FactKind::External) {
        facts.retain(|fact| fact.kind != FactKind::External);
        changed = true;
    }
    if changed {
        facts.sort_unstable_by(|a, b| a.id.cmp(&b.id));
    }
    mark_own_routes(facts);
    pair_requests(&bindings, facts);
    for fact in facts.iter_mut() {
        if !matches!(fact.kind, FactKind::AccessesTechnology | FactKind::HttpCall) {
            continue;
        }
        let resolution = fact_targets(model, &bindings, fact);
        // Several candidates, or one the category alone names for a request whose URL says
        // nothing of where it goes (authelia's portal calls its own API through wrappers and
        // constants it computes at run time, and each call had become a definite use of the one
        // outside API its spec declares, Duo).
        let unknown_single =
            resolution.outcome == Outcome::Single && fact.property_flag("urlUnknown");
        if matches!(resolution.outcome, Outcome::Ambiguous { .. }) || unknown_single {
            fact.confidence = fact.confidence.min(Confidence::Probable);
        }
    }
}

/// The accesses of bound libraries read from `external` facts.
fn bound_client_facts(bindings: &Bindings<'_>, facts: &[Box<Fact>]) -> Vec<Fact> {
    if bindings.clients.is_empty() {
        return Vec::new();
    }
    // (file, library) pairs the extractors already report.
    let mut reported: HashSet<(Arc<str>, &str)> = HashSet::new();
    for fact in facts.iter() {
        if fact.kind != FactKind::AccessesTechnology {
            continue;
        }
        if let Some((library, _)) = fact
            .property_str("package")
            .and_then(|package| bindings.client(package))
        {
            reported.insert((fact.evidence.file.clone(), library));
        }
    }
    let mut first: BTreeMap<(Arc<str>, &str), &Fact> = BTreeMap::new();
    for fact in facts.iter() {
        // An import for type checkers only (`import type`, `if TYPE_CHECKING:`) loads nothing,
        // and one of a library's plain values only (`noClient`: the enums of `@prisma/client`)
        // brings no client.
        if fact.kind != FactKind::External
            || fact.property_flag("typeOnly")
            || fact.property_flag("noClient")
        {
            continue;
        }
        // A module of the package that a longer binding names (`aws-sdk/clients/s3` beside
        // `aws-sdk`) is that binding's; a package below a library whose catalogue entry stands
        // for itself only is another library (`database/sql/driver`'s `Valuer` beside a bound
        // `database/sql`).
        let module = fact
            .property_str("specifier")
            .zip(fact.property_str("package"))
            .filter(|(specifier, package)| specifier.starts_with(package))
            .and_then(|(specifier, package)| {
                bindings
                    .client(specifier)
                    .filter(|(library, _)| library.len() > package.len())
            });
        let Some((library, _)) = module.or_else(|| {
            fact.property_str("package").and_then(|package| {
                bindings.client(package).filter(|(library, _)| {
                    *library == package || !extractors::catalogue::has_no_sub_packages(library)
                })
            })
        }) else {
            continue;
        };
        let key = (fact.evidence.file.clone(), library);
        if reported.contains(&key) {
            continue;
        }
        let earlier = |other: &&Fact| {
            (other.evidence.line, other.evidence.column)
                <= (fact.evidence.line, fact.evidence.column)
        };
        if !first.get(&key).is_some_and(earlier) {
            first.insert(key, fact);
        }
    }
    let ids: HashSet<&str> = facts.iter().map(|fact| fact.id.as_str()).collect();
    first
        .into_iter()
        .map(|((_, library), external)| bound_import_fact(external, library, &ids))
        .collect()
}

/// The probable use of the bound `library` at the import `external` (of the library or of a
/// package inside it): named by the library, as the extractors name its other uses.
fn bound_import_fact(external: &Fact, library: &str, ids: &HashSet<&str>) -> Fact {
    let package = external.property_str("package").unwrap_or_default();
    let evidence = &external.evidence;
    let mut id = fact_id(
        &evidence.extractor,
        &evidence.file,
        evidence.line,
        evidence.column,
        FactKind::AccessesTechnology,
    );
    if ids.contains(id.as_str()) {
        id.push_str("#client");
    }
    let mut fact = Fact {
        id,
        kind: FactKind::AccessesTechnology,
        subject: external.subject.clone(),
        target: None,
        technology: Some(library.into()),
        model: None,
        route: None,
        properties: policies::facts::Properties::new(),
        confidence: Confidence::Probable,
        evidence: evidence.clone(),
    };
    fact.evidence.message = if package == library {
        format!("import of bound client `{library}`")
    } else {
        format!("import of bound client `{library}` (`{package}`)")
    }
    .into();
    if let Some(language) = external.properties.get("language") {
        fact.properties.insert("language", language.clone());
    }
    fact.properties.insert("package", library.into());
    let reason = if package == library {
        format!("imports `{library}`, a library bound with `clients`")
    } else {
        format!("imports `{package}`, of the library `{library}` bound with `clients`")
    };
    fact.properties.insert("reason", reason.into());
    fact
}

/// Leaves an `external_api` access to the requests that decide its target, as its `request`
/// (the id of such an `http_call`), so one request makes one edge, to the right entity:
/// - an access at the place of an `http_call` that resolves (a component, a same-origin URL, a
///   bound URL) is that call's client side;
/// - an access elsewhere (the construction or injection of an HTTP client, `new RestTemplate()`)
///   in a file whose requests all resolve is access to what they call, and adds nothing.
///
/// An access at an unresolved request, or in a file with one, keeps its category's candidates.
/// Marks `ownRoute` the requests whose host is only a variable (`${instance}/api/v1/config`,
/// `{base}/orders`, or a constant of another file that is such a URL) and whose method and path
/// a route of the project serves: they call the
/// project's own server, as a relative URL does, never an outside API (linkwarden's mobile app
/// and React Query hooks fetch `${instance}/api/v1/…` of a self-hosted instance, which its
/// Next.js API routes serve). A host the file's constants fill in (`resolvedUrl`) is an address,
/// and a path the project does not serve stays an outside API's.
fn mark_own_routes(facts: &mut [Box<Fact>]) {
    let trimmed = |path: &str| path.trim_end_matches('/').to_owned();
    let served: HashSet<(String, String)> = facts
        .iter()
        .filter(|fact| fact.kind == FactKind::Route)
        .filter_map(|fact| {
            let method = fact.property_str("method")?.to_ascii_uppercase();
            let path = fact.property_str("normalized")?;
            Some((method, trimmed(path)))
        })
        .collect();
    if served.is_empty() {
        return;
    }
    for fact in facts.iter_mut() {
        if fact.kind != FactKind::HttpCall
            || fact.target.is_some()
            || fact.properties.contains_key("resolvedUrl")
        {
            continue;
        }
        let (Some(url), Some(path)) = (fact.property_str("url"), fact.property_str("path")) else {
            continue;
        };
        // The host is a hole of the URL: its text before the first `/` is a substitution, or
        // the URL is a name alone whose constant another file declares as a path on a base
        // computed at run time (`basePath + "/api/state"`, which gave the path).
        let host = url.split('/').next().unwrap_or_default();
        if url.contains("://") || url.starts_with('/') || (url.contains('/') && !host.contains('{'))
        {
            continue;
        }
        let method = fact
            .property_str("method")
            .unwrap_or("GET")
            .to_ascii_uppercase();
        let path = trimmed(path);
        if served.contains(&(method, path.clone())) || served.contains(&("*".to_owned(), path)) {
            fact.properties.insert("ownRoute", true.into());
        }
    }
}

fn pair_requests(bindings: &Bindings<'_>, facts: &mut [Box<Fact>]) {
    type Place = (Arc<str>, u32, u32);
    // Each request place: the call's id when it resolves.
    let mut requests: HashMap<Place, Option<String>> = HashMap::new();
    // Each file with requests: the first resolved one, unless some request does not resolve.
    let mut files: HashMap<Arc<str>, Option<String>> = HashMap::new();
    // The places of requests whose URL tells nothing of where they go.
    let mut unknown: HashSet<Place> = HashSet::new();
    for fact in facts.iter() {
        if fact.kind != FactKind::HttpCall {
            continue;
        }
        let evidence = &fact.evidence;
        let resolved =
            (http_targets(bindings, fact).outcome != Outcome::Nothing).then(|| fact.id.clone());
        let place = (evidence.file.clone(), evidence.line, evidence.column);
        if resolved.is_none() && has_unknown_url(fact) {
            unknown.insert(place.clone());
        }
        let slot = requests.entry(place).or_insert_with(|| resolved.clone());
        if resolved.is_none() {
            *slot = None;
        }
        let file = files
            .entry(evidence.file.clone())
            .or_insert_with(|| resolved.clone());
        if resolved.is_none() {
            *file = None;
        } else if file
            .as_ref()
            .is_some_and(|id| resolved.as_ref().is_some_and(|new| new < id))
        {
            *file = resolved;
        }
    }
    if requests.is_empty() {
        return;
    }
    for fact in facts.iter_mut() {
        if fact.kind != FactKind::AccessesTechnology
            || fact.technology.as_deref() != Some("external_api")
            || fact.target.is_some()
        {
            continue;
        }
        let evidence = &fact.evidence;
        let place = (evidence.file.clone(), evidence.line, evidence.column);
        let request = match requests.get(&place) {
            Some(at_place) => at_place.clone(),
            None => files.get(&evidence.file).cloned().flatten(),
        };
        if let Some(request) = request {
            fact.properties.insert("request", request.into());
        } else if unknown.contains(&place) {
            fact.properties.insert("urlUnknown", true.into());
        }
    }
}

/// Whether a request's URL says nothing of where it goes: no host, no filled-in URL, no
/// configuration name, and no path segment of literal text, only a name or expression
/// (`axios.get(path)` in a wrapper that takes it, `fetch(form.action)`, `${base}/${id}`), or a
/// name alone whose constant another file declares as a path on a base computed at run time
/// (`basePath + '/api/oidc/device-authorization'`) that no route of the project serves: the
/// project may serve it through a route lintel cannot read (authelia registers that one under a
/// constant of another Go package).
fn has_unknown_url(request: &Fact) -> bool {
    let url = request.property_str("url").unwrap_or_default();
    let literal_path = request.property_str("path").is_some_and(|path| {
        path.split('/')
            .any(|segment| !segment.is_empty() && segment != "{}")
    });
    (!literal_path || !url.contains('/'))
        && !url.contains("://")
        && !url.starts_with('/')
        && !request.properties.contains_key("resolvedUrl")
        && !request.properties.contains_key("urlFrom")
}

/// How many facts, the first (by file, line, column), and the packages they name.
struct Tally<'f> {
    count: usize,
    first: &'f Fact,
    packages: BTreeSet<&'f str>,
}

impl<'f> Tally<'f> {
    fn new(fact: &'f Fact) -> Self {
        Self {
            count: 0,
            first: fact,
            packages: BTreeSet::new(),
        }
    }

    fn add(&mut self, fact: &'f Fact) {
        let place = |fact: &Fact| {
            (
                fact.evidence.file.clone(),
                fact.evidence.line,
                fact.evidence.column,
            )
        };
        self.count += 1;
        self.packages.extend(fact.property_str("package"));
        if place(fact) < place(self.first) {
            self.first = fact;
        }
    }
}

fn uses(count: usize) -> String {
    if count == 1 {
        "1 fact".to_owned()
    } else {
        format!("{count} facts")
    }
}

/// Names in backticks, joined with commas.
pub(crate) fn quoted(names: &[String]) -> String {
    names
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A warning located at its first fact, from that fact's component to `to`.
fn warning_at(code: &str, message: String, first: &Fact, to: String) -> Warning {
    Warning {
        code: code.into(),
        message,
        file: Some(first.evidence.file.to_string()),
        line: Some(first.evidence.line),
        from: first.subject.as_deref().map(str::to_owned),
        to: Some(to),
        evidence: Some(first.evidence.message.to_string()),
        ..Warning::default()
    }
}

/// The check-time warnings of target resolution over the facts in scope:
/// `ambiguous-technology-target` once per (category, candidate set) and `unresolved-target`
/// once per target name, each with the number of facts and the first place.
pub fn warnings(model: &Model, facts: &[Box<Fact>], scope: &dyn InScope) -> Vec<Warning> {
    let bindings = Bindings::new(model);
    let mut ambiguous: BTreeMap<(String, Vec<String>), Tally<'_>> = BTreeMap::new();
    let mut unresolved: BTreeMap<String, (Tally<'_>, Vec<String>)> = BTreeMap::new();
    for fact in facts {
        if fact.subject.is_none()
            || !matches!(fact.kind, FactKind::AccessesTechnology | FactKind::HttpCall)
            || !scope.contains_file(&fact.evidence.file)
        {
            continue;
        }
        let resolution = fact_targets(model, &bindings, fact);
        match resolution.outcome {
            Outcome::Ambiguous { category } => ambiguous
                .entry((category, resolution.targets))
                .or_insert_with(|| Tally::new(fact))
                .add(fact),
            Outcome::Unresolved { name, excluded } if fact.kind == FactKind::AccessesTechnology => {
                unresolved
                    .entry(name)
                    .or_insert_with(|| (Tally::new(fact), excluded))
                    .0
                    .add(fact);
            }
            _ => {}
        }
    }
    let mut warnings = Vec::new();
    for ((category, candidates), tally) in ambiguous {
        let first = tally.first;
        let libraries: Vec<String> = owned(tally.packages);
        let how = if category == "urls" {
            "make their `urls` globs disjoint".to_owned()
        } else if libraries.is_empty() {
            "bind each to its code with `clients: \"<library>\"` or, for HTTP calls, `urls: \"https://host/**\"` or the name of the variable that holds its URL".to_owned()
        } else {
            format!(
                "bind each to its code with `clients` (these uses come from {}) or, for HTTP calls, `urls`",
                quoted(&libraries)
            )
        };
        let message = format!(
            "`{category}` may be any of {}: each of its {} is a probable access to every one (first in `{}`); {how}",
            quoted(&candidates),
            uses(tally.count),
            first.evidence.file,
        );
        warnings.push(warning_at(
            "ambiguous-technology-target",
            message,
            first,
            category,
        ));
    }
    for (name, (tally, excluded)) in unresolved {
        let first = tally.first;
        let why = if excluded.is_empty() {
            "is not a declared entity and no declared node or resource has a type in that category"
                .to_owned()
        } else {
            format!(
                "is not a declared entity, and the bindings of {} (its category's entities) do not bind these uses",
                quoted(&excluded)
            )
        };
        let message = format!(
            "`{name}` {why}: no flow edge ({}, first in `{}`)",
            uses(tally.count),
            first.evidence.file,
        );
        warnings.push(warning_at("unresolved-target", message, first, name));
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_urls_call_their_own_origin() {
        for url in ["/api/orders", "api/orders", "./x/y", "/api/{id}"] {
            assert!(is_same_origin(url), "{url}");
        }
        for url in [
            "https://api.example.com/x",
            "//cdn.example.com/x",
            "{baseUrl}/orders",
            "${API}/orders",
            "localhost:3000/x",
            "orders",
            "api.example.com/x",
        ] {
            assert!(!is_same_origin(url), "{url}");
        }
    }
}
