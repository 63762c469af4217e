//! The file graph (see Chains under `invariant` in policies/LANGUAGE.md) and the chains that path rules are judged on.
//!
//! Vertices are the project files that take part in a flow fact (owned or not; excluded files are
//! never extracted) and the declared nodes and resources a fact targets. Edges are the flow facts,
//! file by file: an import to the file it resolves to (type-only imports make none; a Go import
//! to the file that declares the names it uses, one fact per such file, else, when the extractor
//! could not tell them (a blank or dot import, a name no extracted file declares), to every
//! non-test file of its package's folder; a Swift import of a module to every `.swift` file
//! below the module's folder), a
//! constructor injection to the file that declares the injected type, an `accesses_technology`
//! to its target entity, an `http_call` to the files of the implementing component that serve the
//! route (else to its target entity; both with the spec's `clients` and `urls` bindings,
//! `crate::graph::targets`), and a query-emitted `flow` from its file to every file of
//! its `to` component or to its `to` entity. Each edge keeps every fact that establishes it, best
//! first (the representative order of the component edges, see Edges under `invariant` in
//! policies/LANGUAGE.md).
//!
//! A chain from component A to B is a simple path from a file of A to a file of B (or to the
//! entity B) whose interior files belong to neither: the shortest chains always have that shape,
//! and an edge inside A or B alone opens no path between them. Witnesses are found by
//! breadth-first search backwards from B, then read forwards taking the smallest vertex at each
//! step, so the witness is the shortest chain with the lexicographically smallest file sequence.
//! A search may require the chain to use a *marked* edge (one whose fact lies in a narrowed scope,
//! or that the `--diff` base lacks): it then runs over (vertex, marked edge used yet) pairs.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use policies::facts::{Confidence, DomainFactBody, FactKind};
use policies::model::Model;

use crate::graph::component_graph::{fact_rank, resolve_target};
use crate::graph::fact_table::{FactRef, FactTable};

/// A vertex index: files first (sorted by path), then entities (sorted by name).
pub type Vertex = u32;

/// One edge of the file graph.
#[derive(Debug, Clone)]
pub struct FileEdge {
    /// The target vertex.
    pub to: Vertex,
    /// The strongest confidence over its facts.
    pub confidence: Confidence,
    /// The facts that establish it ([`FactTable`] indices), best first.
    pub facts: Vec<usize>,
}

/// The file graph.
#[derive(Debug, Default)]
pub struct FileGraph {
    /// Vertex names: file paths, then entity names.
    names: Vec<String>,
    /// How many vertices are files.
    files: usize,
    /// The owner component of each file vertex.
    owners: Vec<Option<String>>,
    /// Outgoing edges of each vertex, by target.
    out: Vec<Vec<FileEdge>>,
    /// Incoming edges of each vertex: (source, position in the source's `out`).
    incoming: Vec<Vec<(Vertex, u32)>>,
    /// The file vertices of each component.
    component_files: BTreeMap<String, Vec<Vertex>>,
    /// Whether each vertex is a server-only module ([`FileGraph::server_only`]).
    server_only: Vec<bool>,
}

/// The server-only modules of a project, which a framework leaves out of what it builds for a
/// client: a file that imports the `server-only` package (Next.js, React); in a project that
/// uses Remix or React Router's framework (`@remix-run/*`, `@react-router/*`), a `*.server.*`
/// file or one under a `.server/` folder; in a SvelteKit one (`@sveltejs/kit`), a `*.server.*`
/// file or one under `lib/server/`. Read from the extracted facts, before their `external`
/// facts are dropped.
#[derive(Debug, Default)]
pub struct ServerOnly {
    remix: bool,
    svelte_kit: bool,
    files: BTreeSet<String>,
}

impl ServerOnly {
    /// What the `external` facts among `facts` say.
    pub fn of(facts: &[Box<policies::facts::Fact>]) -> Self {
        let mut found = Self::default();
        for fact in facts {
            if fact.kind != FactKind::External {
                continue;
            }
            let package = fact.property_str("package").unwrap_or_default();
            if package == "server-only" {
                found.files.insert(fact.evidence.file.to_string());
            }
            found.remix |=
                package.starts_with("@remix-run/") || package.starts_with("@react-router/");
            found.svelte_kit |= package == "@sveltejs/kit";
        }
        found
    }

    fn holds(&self, file: &str) -> bool {
        let file_name = file.rsplit('/').next().unwrap_or(file);
        let dotted_server = file_name.contains(".server.");
        let under = |folder: &str| file.starts_with(folder) || file.contains(&format!("/{folder}"));
        self.files.contains(file)
            || (self.remix && (dotted_server || under(".server/")))
            || (self.svelte_kit && (dotted_server || under("lib/server/")))
    }
}

/// A witness chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chain {
    /// The vertices, first to last.
    pub vertices: Vec<Vertex>,
    /// The representative fact of each hop ([`FactTable`] index).
    pub facts: Vec<usize>,
    /// The hop the finding is located at: the first hop, or under a narrowed scope or `--diff`
    /// the first marked one.
    pub site: usize,
    /// The confidence level the chain was found at.
    pub confidence: Confidence,
    /// Under `--diff`: the chain uses an edge the base does not have, and `site` is the first.
    pub opens: bool,
}

/// What a chain search asks for.
pub struct ChainQuery<'q> {
    /// The source component.
    pub from: &'q str,
    /// The target component or entity.
    pub to: &'q str,
    /// The weakest confidence an edge may have.
    pub minimum: Confidence,
    /// Components and entities the chain's interior must avoid (the via set).
    pub blocked: &'q BTreeSet<String>,
    /// Whether the chain may enter a vertex (every vertex after the first, by its owner or entity
    /// name; `None` for an unowned file).
    pub may_enter: &'q dyn Fn(Option<&str>) -> bool,
    /// When set, the chain must use a marked edge: one that the predicate accepts, given its
    /// source vertex, the edge and one of its facts at `minimum` or stronger.
    pub marked: Option<EdgeMark<'q>>,
    /// The source component runs on a client (a browser, mobile, desktop or embedded node): the
    /// chain enters a server-only module only from one of its own files.
    pub client: bool,
}

/// Whether an edge is marked: given its source vertex, the edge and one of its facts.
pub type EdgeMark<'q> = &'q dyn Fn(Vertex, &FileEdge, usize) -> bool;

/// Whether the `--diff` base lacks the edge (source file, target file or entity).
pub type NewEdge<'a> = &'a dyn Fn(&str, &str) -> bool;

/// Unreached, in the distance table.
const FAR: u32 = u32::MAX;

impl FileGraph {
    /// Builds the file graph from the graph facts (with the engine's owners) and the domain facts.
    pub fn build(
        model: &Model,
        table: &FactTable<'_>,
        owners: &BTreeMap<String, String>,
        server_only: &ServerOnly,
    ) -> Self {
        let mut raw: Vec<(String, Target, usize)> = Vec::new();
        let mut routes: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
        for (_, fact) in table.of_kind(FactKind::Route) {
            if let Some((method, path)) = endpoint_of(fact) {
                routes
                    .entry((method, path))
                    .or_default()
                    .insert(fact.evidence.file.to_string());
            }
        }
        let bindings = crate::graph::targets::Bindings::new(model);
        for (index, fact) in table.graph.iter().enumerate() {
            let file = fact.evidence.file.to_string();
            match fact.kind {
                FactKind::Import
                    if !fact.property_flag("typeOnly") && !fact.property_flag("testOnly") =>
                {
                    let Some(resolved) = fact.property_str("resolved") else {
                        continue;
                    };
                    if let Some(folder) = fact.property_str("moduleFolder") {
                        // A Swift import is of the whole module: every `.swift` file below
                        // its folder.
                        raw.push((file, Target::Module(folder.to_owned()), index));
                    } else if fact.property_str("language") == Some("go")
                        && !fact.properties.contains_key("names")
                    {
                        // A Go import whose names lintel could not take to the files that
                        // declare them is of the whole package: every non-test file of its
                        // folder (the fact names one, its representative file).
                        let folder = resolved.rsplit_once('/').map_or("", |(folder, _)| folder);
                        raw.push((file, Target::Package(folder.to_owned()), index));
                    } else if resolved != file {
                        raw.push((file, Target::File(resolved.to_owned()), index));
                    }
                }
                FactKind::ConstructorInjection => {
                    if let Some(declared) = fact.property_str("typeFile") {
                        if declared != file {
                            raw.push((file, Target::File(declared.to_owned()), index));
                        }
                    }
                }
                FactKind::HttpCall => {
                    let targets =
                        crate::graph::targets::fact_targets(model, &bindings, fact).targets;
                    for name in targets {
                        if model.component(&name).is_none() {
                            raw.push((file.clone(), Target::entity(model, name), index));
                            continue;
                        }
                        // A call a contract resolves goes to the files that serve its route.
                        let served: BTreeSet<String> = endpoint_of(fact)
                            .map(|(method, path)| {
                                routes
                                    .iter()
                                    .filter(|((served_method, served_path), _)| {
                                        *served_path == path
                                            && (method == "*"
                                                || served_method == "*"
                                                || *served_method == method)
                                    })
                                    .flat_map(|(_, files)| files)
                                    .filter(|served| owners.get(served.as_str()) == Some(&name))
                                    .cloned()
                                    .collect()
                            })
                            .unwrap_or_default();
                        if served.is_empty() {
                            raw.push((file.clone(), Target::Component(name), index));
                        } else {
                            for served in served {
                                raw.push((file.clone(), Target::File(served), index));
                            }
                        }
                    }
                }
                FactKind::AccessesTechnology => {
                    for entity in
                        crate::graph::targets::fact_targets(model, &bindings, fact).targets
                    {
                        raw.push((file.clone(), Target::entity(model, entity), index));
                    }
                }
                _ => {}
            }
        }
        for (index, fact) in table.domain_facts() {
            let DomainFactBody::Flow { to, .. } = &fact.body else {
                continue;
            };
            for entity in resolve_target(model, to) {
                raw.push((
                    fact.evidence.file.to_string(),
                    Target::entity(model, entity),
                    index,
                ));
            }
        }
        Self::assemble(table, owners, raw, server_only)
    }

    fn assemble(
        table: &FactTable<'_>,
        owners: &BTreeMap<String, String>,
        raw: Vec<(String, Target, usize)>,
        server_only: &ServerOnly,
    ) -> Self {
        let mut graph = Self::with_vertices(owners, &raw);
        let packages = graph.go_packages(&raw);
        let triples = graph.triples(&raw, &packages);
        graph.link(triples, table);
        graph.server_only = graph.server_only_modules(server_only);
        graph
    }

    /// Which files are server-only modules ([`ServerOnly`]).
    fn server_only_modules(&self, server_only: &ServerOnly) -> Vec<bool> {
        self.names
            .iter()
            .enumerate()
            .map(|(position, name)| position < self.files && server_only.holds(name))
            .collect()
    }

    /// Whether `vertex` is a server-only module (see [`FileGraph::server_only_modules`]).
    pub fn is_server_only(&self, vertex: Vertex) -> bool {
        self.server_only
            .get(vertex as usize)
            .copied()
            .unwrap_or(false)
    }

    /// A graph with its vertices and no edge: every file with a fact or an owner, then every
    /// entity an edge reaches; each file's owner, and each component's files.
    fn with_vertices(owners: &BTreeMap<String, String>, raw: &[(String, Target, usize)]) -> Self {
        let mut files: BTreeSet<&str> = owners.keys().map(String::as_str).collect();
        let mut entities: BTreeSet<&str> = BTreeSet::new();
        for (file, target, _) in raw {
            files.insert(file);
            match target {
                Target::File(path) => {
                    files.insert(path);
                }
                Target::Entity(name) => {
                    entities.insert(name);
                }
                Target::Component(_) | Target::Package(_) | Target::Module(_) => {}
            }
        }
        let mut graph = Self {
            files: files.len(),
            ..Self::default()
        };
        graph.names = files
            .iter()
            .chain(entities.iter())
            .map(|name| (*name).to_owned())
            .collect();
        graph.owners = files
            .iter()
            .map(|file| owners.get(*file).cloned())
            .collect();
        for (position, owner) in graph.owners.iter().enumerate() {
            if let (Some(owner), Ok(vertex)) = (owner, Vertex::try_from(position)) {
                graph
                    .component_files
                    .entry(owner.clone())
                    .or_default()
                    .push(vertex);
            }
        }
        graph
    }

    /// The files of each Go package folder, for package imports (none when no edge imports a
    /// package).
    fn go_packages(&self, raw: &[(String, Target, usize)]) -> BTreeMap<&str, Vec<Vertex>> {
        let mut packages: BTreeMap<&str, Vec<Vertex>> = BTreeMap::new();
        if raw
            .iter()
            .any(|(_, target, _)| matches!(target, Target::Package(_)))
        {
            for (position, name) in self.names.iter().take(self.files).enumerate() {
                if name.ends_with(".go") && !name.ends_with("_test.go") {
                    let folder = name.rsplit_once('/').map_or("", |(folder, _)| folder);
                    if let Ok(vertex) = Vertex::try_from(position) {
                        packages.entry(folder).or_default().push(vertex);
                    }
                }
            }
        }
        packages
    }

    /// Each fact's edges as (from, to, fact): a file target is one edge, a component, Go package
    /// or Swift module target one to each of its files.
    fn triples(
        &self,
        raw: &[(String, Target, usize)],
        packages: &BTreeMap<&str, Vec<Vertex>>,
    ) -> Vec<(Vertex, Vertex, usize)> {
        let mut triples: Vec<(Vertex, Vertex, usize)> = Vec::with_capacity(raw.len());
        for (file, target, fact) in raw {
            let Some(from) = self.vertex(file) else {
                continue;
            };
            match target {
                Target::File(path) | Target::Entity(path) => {
                    if let Some(to) = self.vertex(path) {
                        triples.push((from, to, *fact));
                    }
                }
                Target::Component(name) => {
                    for to in self.component_files.get(name).into_iter().flatten() {
                        if *to != from {
                            triples.push((from, *to, *fact));
                        }
                    }
                }
                Target::Package(folder) => {
                    for to in packages.get(folder.as_str()).into_iter().flatten() {
                        if *to != from {
                            triples.push((from, *to, *fact));
                        }
                    }
                }
                Target::Module(folder) => {
                    // File names are sorted: the module's files are one run of them.
                    let prefix = format!("{folder}/");
                    let files = self.names.get(..self.files).unwrap_or_default();
                    let first = files.partition_point(|name| name.as_str() < prefix.as_str());
                    for (offset, name) in files.iter().enumerate().skip(first) {
                        if !name.starts_with(&prefix) {
                            break;
                        }
                        if !name.ends_with(".swift") {
                            continue;
                        }
                        if let Ok(to) = Vertex::try_from(offset) {
                            if to != from {
                                triples.push((from, to, *fact));
                            }
                        }
                    }
                }
            }
        }
        triples
    }

    /// Makes the edges of the sorted, deduplicated triples: one edge per (from, to), its
    /// confidence the best of its facts, its facts best first; and each vertex's incoming edges.
    fn link(&mut self, mut triples: Vec<(Vertex, Vertex, usize)>, table: &FactTable<'_>) {
        triples.sort_unstable();
        triples.dedup();
        self.out = vec![Vec::new(); self.names.len()];
        self.incoming = vec![Vec::new(); self.names.len()];
        for (from, to, fact) in triples {
            let Some(out) = self.out.get_mut(from as usize) else {
                continue;
            };
            let confidence = table
                .get(fact)
                .map_or(Confidence::Possible, |fact| fact.confidence());
            match out.last_mut() {
                Some(edge) if edge.to == to => {
                    edge.confidence = edge.confidence.max(confidence);
                    edge.facts.push(fact);
                }
                _ => out.push(FileEdge {
                    to,
                    confidence,
                    facts: vec![fact],
                }),
            }
        }
        for (from, out) in self.out.iter_mut().enumerate() {
            for (position, edge) in out.iter_mut().enumerate() {
                edge.facts
                    .sort_by(|a, b| match (table.get(*a), table.get(*b)) {
                        (Some(a), Some(b)) => fact_rank(a).cmp(&fact_rank(b)),
                        _ => a.cmp(b),
                    });
                if let (Some(incoming), Ok(from), Ok(position)) = (
                    self.incoming.get_mut(edge.to as usize),
                    Vertex::try_from(from),
                    u32::try_from(position),
                ) {
                    incoming.push((from, position));
                }
            }
        }
    }

    /// The vertex of a file path or entity name.
    pub fn vertex(&self, name: &str) -> Option<Vertex> {
        let files = self.names.get(..self.files).unwrap_or(&self.names);
        if let Ok(position) = files.binary_search_by(|probe| probe.as_str().cmp(name)) {
            return Vertex::try_from(position).ok();
        }
        self.entity_vertex(name)
    }

    /// The vertex of an entity name (never a file's, even where a file has that path).
    fn entity_vertex(&self, name: &str) -> Option<Vertex> {
        let entities = self.names.get(self.files..)?;
        let position = entities
            .binary_search_by(|probe| probe.as_str().cmp(name))
            .ok()?;
        Vertex::try_from(self.files + position).ok()
    }

    /// The name of a vertex (a file path or an entity name).
    pub fn name(&self, vertex: Vertex) -> &str {
        self.names.get(vertex as usize).map_or("", String::as_str)
    }

    /// True when the vertex is a file.
    pub fn is_file(&self, vertex: Vertex) -> bool {
        (vertex as usize) < self.files
    }

    /// The owner component of a file vertex.
    pub fn owner(&self, vertex: Vertex) -> Option<&str> {
        self.owners.get(vertex as usize)?.as_deref()
    }

    /// The entity a vertex stands for in rules: a file's owner, or the entity itself.
    pub fn entity(&self, vertex: Vertex) -> Option<&str> {
        if self.is_file(vertex) {
            self.owner(vertex)
        } else {
            Some(self.name(vertex))
        }
    }

    /// The edge `from → to`.
    pub fn edge(&self, from: Vertex, to: Vertex) -> Option<&FileEdge> {
        let out = self.out.get(from as usize)?;
        let position = out.binary_search_by_key(&to, |edge| edge.to).ok()?;
        out.get(position)
    }

    /// Every edge, as (from, edge).
    pub fn edges(&self) -> impl Iterator<Item = (Vertex, &FileEdge)> + '_ {
        self.out.iter().enumerate().flat_map(|(from, out)| {
            let from = Vertex::try_from(from).unwrap_or(Vertex::MAX);
            out.iter().map(move |edge| (from, edge))
        })
    }

    /// The number of edges.
    pub fn edge_count(&self) -> usize {
        self.out.iter().map(Vec::len).sum()
    }

    /// The entities along a chain (`detected.path`, see Chains under `invariant` in policies/LANGUAGE.md): each file's owner (unowned files left
    /// out) or the entity, consecutive repeats merged.
    pub fn entity_path(&self, vertices: &[Vertex]) -> Vec<String> {
        let mut path: Vec<String> = Vec::new();
        for vertex in vertices {
            if let Some(entity) = self.entity(*vertex) {
                if path.last().map(String::as_str) != Some(entity) {
                    path.push(entity.to_owned());
                }
            }
        }
        path
    }

    /// The names along a chain (`detected.files`, see Chains under `invariant` in policies/LANGUAGE.md).
    pub fn file_path(&self, vertices: &[Vertex]) -> Vec<String> {
        vertices
            .iter()
            .map(|vertex| self.name(*vertex).to_owned())
            .collect()
    }

    /// The shortest chain of `query` with the smallest vertex sequence (module doc), with the
    /// representative fact of each hop (a marked one where the hop has one).
    pub fn witness(&self, query: &ChainQuery<'_>, table: &FactTable<'_>) -> Option<Chain> {
        let starts = self.component_files.get(query.from)?;
        let search = ChainSearch {
            graph: self,
            query,
            table,
        };
        let dist = search.distances();
        let vertices = search.shortest(&dist, starts)?;
        let (facts, site) = search.hop_facts(&vertices)?;
        if query.marked.is_some() && site.is_none() {
            return None;
        }
        Some(Chain {
            vertices,
            facts,
            site: site.unwrap_or(0),
            confidence: query.minimum,
            opens: false,
        })
    }

    /// The representative fact of a hop at the query's confidence: a marked one when the hop is
    /// the chain's marked hop, else the best (a marked one first when the hop has one).
    fn hop_fact(
        &self,
        from: Vertex,
        edge: &FileEdge,
        query: &ChainQuery<'_>,
        table: &FactTable<'_>,
        must_be_marked: bool,
    ) -> Option<usize> {
        let strong = |fact: &usize| {
            table
                .get(*fact)
                .is_some_and(|found: FactRef<'_>| found.confidence() >= query.minimum)
        };
        let marked = |fact: &usize| query.marked.is_some_and(|marked| marked(from, edge, *fact));
        let preferred = edge
            .facts
            .iter()
            .copied()
            .find(|fact| strong(fact) && marked(fact));
        if must_be_marked {
            return preferred;
        }
        preferred.or_else(|| edge.facts.iter().copied().find(strong))
    }
}

/// Where a raw edge goes, before vertices are numbered.
enum Target {
    File(String),
    Entity(String),
    Component(String),
    /// Every non-test `.go` file of a folder (a Go package).
    Package(String),
    /// Every `.swift` file below a folder (a Swift module).
    Module(String),
}

impl Target {
    fn entity(model: &Model, name: String) -> Self {
        if model.component(&name).is_some() {
            Self::Component(name)
        } else {
            Self::Entity(name)
        }
    }
}

/// The method and normalised path of a route or static http_call.
pub(crate) fn endpoint_of(fact: &policies::facts::Fact) -> Option<(String, String)> {
    let method = fact.property_str("method")?.to_uppercase();
    let path = match fact.kind {
        FactKind::Route => fact
            .route
            .as_deref()
            .map(str::to_owned)
            .or_else(|| fact.property_str("normalized").map(str::to_owned))
            .or_else(|| fact.property_str("path").map(policies::normalize_http_path))?,
        _ => policies::normalize_http_path(fact.property_str("path")?),
    };
    Some((method, path))
}

/// One chain search: the graph, the query and the facts, with the predicates of its steps.
struct ChainSearch<'s, 'q, 't> {
    graph: &'s FileGraph,
    query: &'s ChainQuery<'q>,
    table: &'s FactTable<'t>,
}

impl ChainSearch<'_, '_, '_> {
    /// Whether the chain may end at `vertex`: a file of the target component, or the target entity.
    fn goal(&self, vertex: Vertex) -> bool {
        if self.graph.is_file(vertex) {
            self.graph.owner(vertex) == Some(self.query.to)
        } else {
            self.graph.name(vertex) == self.query.to
        }
    }

    /// The interior: files of neither endpoint, not in the blocked set, enterable.
    fn interior(&self, vertex: Vertex) -> bool {
        if !self.graph.is_file(vertex) {
            return false;
        }
        let owner = self.graph.owner(vertex);
        owner != Some(self.query.from)
            && owner != Some(self.query.to)
            && !owner.is_some_and(|owner| self.query.blocked.contains(owner))
            && (self.query.may_enter)(owner)
    }

    fn enterable_goal(&self, vertex: Vertex) -> bool {
        self.goal(vertex) && (self.query.may_enter)(self.graph.entity(vertex))
    }

    fn usable(&self, edge: &FileEdge) -> bool {
        edge.confidence >= self.query.minimum
    }

    /// Whether the chain may take the edge `source → target` as far as the client side goes: a
    /// client's code never loads a server-only module through another module (the framework
    /// leaves it out of the client's build; an import of one in the client's own files stays,
    /// which the build rejects).
    fn client_may_step(&self, source: Vertex, target: Vertex) -> bool {
        !(self.query.client && self.graph.is_server_only(target) && !self.is_start(source))
    }

    fn is_marked(&self, from: Vertex, edge: &FileEdge) -> bool {
        match self.query.marked {
            None => false,
            Some(marked) => edge.facts.iter().any(|fact| {
                self.table
                    .get(*fact)
                    .is_some_and(|found| found.confidence() >= self.query.minimum)
                    && marked(from, edge, *fact)
            }),
        }
    }

    fn is_start(&self, vertex: Vertex) -> bool {
        self.graph.owner(vertex) == Some(self.query.from) && self.graph.is_file(vertex)
    }

    /// Two layers when the chain must use a marked edge (layer 1: still needed), else one.
    fn layers(&self) -> usize {
        if self.query.marked.is_some() {
            2
        } else {
            1
        }
    }

    /// The breadth-first distances backwards from the goals: `dist[layer * count + v]` is the
    /// hops from (v, layer) to a goal, where layer 1 means a marked edge is still needed.
    fn distances(&self) -> Vec<u32> {
        let layers = self.layers();
        let count = self.graph.names.len();
        let mut dist = vec![FAR; count * layers];
        let mut queue: VecDeque<(Vertex, usize)> = VecDeque::new();
        // The goals are the target's files and the target entity: seeded from them, not by
        // testing every vertex, which a spec of many rules (thousands of component pairs)
        // paid once per pair. A breadth-first search's distances do not depend on the order
        // its sources are queued in.
        let entity = self.graph.entity_vertex(self.query.to);
        let goals = self
            .graph
            .component_files
            .get(self.query.to)
            .into_iter()
            .flatten()
            .copied()
            .chain(entity);
        for vertex in goals {
            if self.enterable_goal(vertex) {
                if let Some(slot) = dist.get_mut(vertex as usize) {
                    *slot = 0;
                    queue.push_back((vertex, 0));
                }
            }
        }
        while let Some((vertex, layer)) = queue.pop_front() {
            let here = dist
                .get(layer * count + vertex as usize)
                .copied()
                .unwrap_or(FAR);
            // Only goals and interior vertices continue backwards; a start ends the chain.
            if here > 0 && !self.interior(vertex) {
                continue;
            }
            for (source, position) in self
                .graph
                .incoming
                .get(vertex as usize)
                .into_iter()
                .flatten()
            {
                let Some(edge) = self
                    .graph
                    .out
                    .get(*source as usize)
                    .and_then(|out| out.get(*position as usize))
                else {
                    continue;
                };
                if !self.usable(edge) || !self.client_may_step(*source, vertex) {
                    continue;
                }
                if !(self.is_start(*source) || self.interior(*source)) {
                    continue;
                }
                // Forward: (source, l) --edge--> (vertex, layer) when layer == l, or l == 1 and
                // the edge is marked (then layer == 0).
                let mut sources = vec![layer];
                if layers == 2 && layer == 0 && self.is_marked(*source, edge) {
                    sources.push(1);
                }
                for source_layer in sources {
                    let slot = source_layer * count + *source as usize;
                    if dist.get(slot) == Some(&FAR) {
                        if let Some(entry) = dist.get_mut(slot) {
                            *entry = here + 1;
                        }
                        queue.push_back((*source, source_layer));
                    }
                }
            }
        }
        dist
    }

    /// The forward walk from the best start: the smallest next vertex that some state of the
    /// frontier (at most one per layer) can step to on a shortest completion.
    fn shortest(&self, dist: &[u32], starts: &[Vertex]) -> Option<Vec<Vertex>> {
        let layers = self.layers();
        let count = self.graph.names.len();
        let start_layer = layers - 1;
        let distance_of = |vertex: Vertex, layer: usize| {
            dist.get(layer * count + vertex as usize)
                .copied()
                .unwrap_or(FAR)
        };
        let (mut length, start) = starts
            .iter()
            .map(|start| (distance_of(*start, start_layer), *start))
            .filter(|(length, _)| *length != FAR && *length > 0)
            .min()?;
        let mut vertices = vec![start];
        let mut frontier: Vec<usize> = vec![start_layer];
        let mut current = start;
        while length > 0 {
            let out = self.graph.out.get(current as usize)?;
            let mut step: Option<(Vertex, Vec<usize>)> = None;
            for edge in out
                .iter()
                .filter(|edge| self.usable(edge) && self.client_may_step(current, edge.to))
            {
                let next = edge.to;
                let allowed = if length == 1 {
                    self.enterable_goal(next)
                } else {
                    self.interior(next)
                };
                if !allowed {
                    continue;
                }
                let mut layers_next: Vec<usize> = Vec::new();
                for layer in &frontier {
                    let mut reachable = vec![*layer];
                    if *layer == 1 && self.is_marked(current, edge) {
                        reachable = vec![0, 1];
                    }
                    for next_layer in reachable {
                        if distance_of(next, next_layer) == length - 1
                            && !layers_next.contains(&next_layer)
                        {
                            layers_next.push(next_layer);
                        }
                    }
                }
                if !layers_next.is_empty() {
                    step = Some((next, layers_next));
                    break;
                }
            }
            let (next, layers_next) = step?;
            vertices.push(next);
            frontier = layers_next;
            current = next;
            length -= 1;
        }
        Some(vertices)
    }

    /// The representative fact of each hop, and the located hop: the first marked one (a chain
    /// that had to use one has one).
    fn hop_facts(&self, vertices: &[Vertex]) -> Option<(Vec<usize>, Option<usize>)> {
        let mut facts = Vec::with_capacity(vertices.len());
        let mut site: Option<usize> = None;
        for (hop, pair) in vertices.windows(2).enumerate() {
            let (Some(from), Some(to)) = (pair.first(), pair.get(1)) else {
                continue;
            };
            let edge = self.graph.edge(*from, *to)?;
            let marked =
                self.query.marked.is_some() && site.is_none() && self.is_marked(*from, edge);
            if marked {
                site = Some(hop);
            }
            facts.push(
                self.graph
                    .hop_fact(*from, edge, self.query, self.table, marked)?,
            );
        }
        Some((facts, site))
    }
}
