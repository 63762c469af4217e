//! The evidence every rule is judged on: graph facts followed by query-emitted domain facts, in
//! one index space ([`FactTable`]), and which evidence files are in the check scope ([`InScope`]).

use policies::facts::{Confidence, DomainFact, Evidence, Fact, QueryProvenance};

/// Decides which evidence files are in the check scope (the scope flags of `lintel check` in docs/CLI.md).
pub trait InScope {
    /// True when `file` is in scope.
    fn contains_file(&self, file: &str) -> bool;

    /// True when every file is in scope (`--all`, or a change that puts everything in scope).
    fn is_everything(&self) -> bool {
        false
    }
}

/// Graph facts followed by query-emitted domain facts: one index space for evidence.
#[derive(Clone, Copy)]
pub struct FactTable<'a> {
    /// Graph facts, sorted by id.
    pub graph: &'a [Box<Fact>],
    /// Domain facts emitted by reviewed queries.
    pub domain: &'a [DomainFact],
}

/// One fact of a [`FactTable`].
#[derive(Clone, Copy)]
pub enum FactRef<'a> {
    /// An extracted graph fact.
    Graph(&'a Fact),
    /// A query-emitted domain fact.
    Domain(&'a DomainFact),
}

impl<'a> FactTable<'a> {
    /// The fact at `index` (graph facts first, then domain facts).
    pub fn get(&self, index: usize) -> Option<FactRef<'a>> {
        match index.checked_sub(self.graph.len()) {
            None => self.graph.get(index).map(|fact| FactRef::Graph(fact)),
            Some(domain) => self.domain.get(domain).map(FactRef::Domain),
        }
    }

    /// The table index of domain fact `index`.
    pub fn domain_index(&self, index: usize) -> usize {
        self.graph.len() + index
    }

    /// Domain facts with their table indices.
    pub fn domain_facts(&self) -> impl Iterator<Item = (usize, &'a DomainFact)> + '_ {
        let offset = self.graph.len();
        self.domain
            .iter()
            .enumerate()
            .map(move |(index, fact)| (offset + index, fact))
    }

    /// Graph facts of `kind` with their indices.
    pub fn of_kind(
        &self,
        kind: policies::facts::FactKind,
    ) -> impl Iterator<Item = (usize, &'a Fact)> + '_ {
        self.graph
            .iter()
            .enumerate()
            .filter(move |(_, fact)| fact.kind == kind)
            .map(|(index, fact)| (index, &**fact))
    }
}

impl<'a> FactRef<'a> {
    /// The fact id.
    pub fn id(&self) -> &'a str {
        match self {
            Self::Graph(fact) => &fact.id,
            Self::Domain(fact) => &fact.id,
        }
    }

    /// Its confidence.
    pub fn confidence(&self) -> Confidence {
        match self {
            Self::Graph(fact) => fact.confidence,
            Self::Domain(fact) => fact.confidence,
        }
    }

    /// Its evidence.
    pub fn evidence(&self) -> &'a Evidence {
        match self {
            Self::Graph(fact) => &fact.evidence,
            Self::Domain(fact) => &fact.evidence,
        }
    }

    /// The key for violation ids (see Ids in docs/VERDICT.md).
    pub fn evidence_key(&self) -> String {
        match self {
            Self::Graph(fact) => fact.evidence_key(),
            // Already `query id:graph fact key` (`DomainFact::evidence_key`).
            Self::Domain(fact) => fact.evidence_key.clone(),
        }
    }

    /// The wire kind: the graph fact's kind, or the emitted kind of a domain fact.
    pub fn kind(&self) -> &'static str {
        use policies::facts::DomainFactBody as Body;
        match self {
            Self::Graph(fact) => fact.kind.as_str(),
            Self::Domain(fact) => match fact.body {
                Body::Transition { .. } => "transition",
                Body::Flow { .. } => "flow",
                Body::Operation { .. } => "operation",
                Body::Auth { .. } => "auth",
                Body::Encryption { .. } => "encryption",
                Body::Dependency { .. } => "dependency",
                Body::Value { .. } => "value",
                Body::OperationEvent { .. } => "operation_event",
                Body::Event { .. } => "event",
            },
        }
    }

    /// The query that emitted a domain fact.
    pub fn query(&self) -> Option<&'a QueryProvenance> {
        match self {
            Self::Graph(_) => None,
            Self::Domain(fact) => Some(&fact.query),
        }
    }

    /// The graph fact id behind the fact.
    pub fn graph_fact_id(&self) -> &'a str {
        match self {
            Self::Graph(fact) => &fact.id,
            Self::Domain(fact) => &fact.query.graph_fact_id,
        }
    }
}
