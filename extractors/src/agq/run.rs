//! Running reviewed queries over graph facts (substitution, the checks after it and provenance).
//!
//! Every query looks at every graph fact, in (file, document) order over facts sorted by id,
//! so the output is the same whatever order the facts arrive in. Checks against the compiled
//! spec (names, machines, enum members) are left to the engine.

use std::collections::BTreeMap;

use policies::facts::{DomainFact, Evidence, Fact, QueryProvenance};

use super::diagnostic::{located, Code, QueryDiagnostic};
use super::load::QuerySet;
use super::produce::Emission;
use super::query::ReviewedQuery;

/// One (query, graph fact) pair that was looked at.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct QueryTrace {
    /// The query id.
    pub query: String,
    /// The graph fact id.
    pub graph_fact: String,
    /// Each `$var` the emit used that resolved, with its value.
    pub substitutions: BTreeMap<String, String>,
    /// The emitted fact id, or why nothing was emitted: ``missing capture(s): `a`, `b` ``,
    /// `dropped: …` (with a `query-invalid-fact` warning), or, for non-matching pairs kept for
    /// debugging, ``not matched: `key` `` naming the first key that failed.
    pub outcome: String,
}

/// Per-query totals.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct QueryCounts {
    /// The query id.
    pub query: String,
    /// Graph facts looked at (all of them).
    pub considered: usize,
    /// Graph facts that matched every key.
    pub matched: usize,
    /// Domain facts emitted.
    pub emitted: usize,
    /// Matched facts that gave no domain fact (missing captures or dropped).
    pub skipped: usize,
}

/// What running the queries gives.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QueryRun {
    /// The emitted domain facts, in query order, then graph fact id order.
    pub facts: Vec<DomainFact>,
    /// One trace per matched pair (and per non-matching pair when asked), in the same order.
    pub traces: Vec<QueryTrace>,
    /// One entry per query, in query order.
    pub counts: Vec<QueryCounts>,
    /// Check-time `query-invalid-fact` warnings, located at the query field that
    /// produced the bad value, with the graph fact's location as a related note.
    pub warnings: Vec<QueryDiagnostic>,
}

/// Runs every query over the graph facts (sorted by id here), in (file, document) order.
///
/// `subject` of the graph facts must already hold the owner component; it becomes the emitted
/// fact's `subject_component`. Traces of pairs that do not match are kept only when
/// `keep_non_matching_traces` is set (`--debug-extractors`). Deterministic.
///
/// The facts may be owned or boxed (`F` is `Fact` or `Box<Fact>`).
pub fn run_queries<F: std::borrow::Borrow<Fact>>(
    queries: &QuerySet,
    facts: &[F],
    keep_non_matching_traces: bool,
) -> QueryRun {
    let mut sorted: Vec<&Fact> = facts.iter().map(F::borrow).collect();
    sorted.sort_by(|left, right| left.id.cmp(&right.id));
    let mut run = QueryRun::default();
    for query in queries.queries() {
        let mut counts = QueryCounts {
            query: query.id().to_owned(),
            considered: sorted.len(),
            matched: 0,
            emitted: 0,
            skipped: 0,
        };
        for &fact in &sorted {
            if let Some(key) = query.first_mismatch(fact) {
                if keep_non_matching_traces {
                    run.traces.push(QueryTrace {
                        query: query.id().to_owned(),
                        graph_fact: fact.id.clone(),
                        substitutions: BTreeMap::new(),
                        outcome: format!("not matched: `{key}`"),
                    });
                }
                continue;
            }
            counts.matched += 1;
            let mut substitutions = BTreeMap::new();
            let outcome = match query.emit.produce(fact, &mut substitutions) {
                Emission::Emitted(body) => {
                    let domain_fact = domain_fact(query, fact, body);
                    counts.emitted += 1;
                    let id = domain_fact.id.clone();
                    run.facts.push(domain_fact);
                    id
                }
                Emission::Skipped(reason) => {
                    counts.skipped += 1;
                    reason
                }
                Emission::Dropped { reason, field_span } => {
                    counts.skipped += 1;
                    let evidence = &fact.evidence;
                    let mut warning = located(
                        Code::InvalidFact,
                        query.file(),
                        field_span,
                        format!(
                            "query `{}` dropped the fact from `{}`: {reason}",
                            query.id(),
                            fact.id
                        ),
                    );
                    warning.related.push((
                        evidence.file.to_string(),
                        evidence.line,
                        evidence.column,
                        "graph fact matched here".to_owned(),
                    ));
                    run.warnings.push(warning);
                    format!("dropped: {reason}")
                }
            };
            run.traces.push(QueryTrace {
                query: query.id().to_owned(),
                graph_fact: fact.id.clone(),
                substitutions,
                outcome,
            });
        }
        run.counts.push(counts);
    }
    run
}

/// Wraps an emitted body with its confidence and provenance.
fn domain_fact(
    query: &ReviewedQuery,
    fact: &Fact,
    body: policies::facts::DomainFactBody,
) -> DomainFact {
    let evidence = Evidence {
        message: format!(
            "query `{}` v{} emitted {} from {}: {}",
            query.id(),
            query.version(),
            query.emit_kind(),
            fact.kind.as_str(),
            fact.evidence.message
        )
        .into(),
        ..fact.evidence.clone()
    };
    DomainFact {
        id: format!("{}:{}", query.id(), fact.id),
        body,
        confidence: query.confidence().min(fact.confidence),
        evidence,
        subject_component: fact.subject.as_deref().map(str::to_owned),
        query: QueryProvenance {
            id: query.id().to_owned(),
            version: query.version(),
            file: query.file().to_owned(),
            graph_fact_id: fact.id.clone(),
        },
        evidence_key: format!("{}:{}", query.id(), fact.evidence_key()),
    }
}
