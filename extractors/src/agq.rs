//! Reviewed `.agq.yml` queries (`.lintel/queries/**/*.agq.yml`): committed, human-reviewed files that promote
//! graph facts (syntax level, from the extractors) into domain facts (transitions, flows,
//! operations, values, events, …).
//!
//! [`load_queries`] finds the query files of a project, parses every YAML document into a
//! typed [`ReviewedQuery`] and validates it against the fact schema, reporting every problem
//! with its `file:line:col` ([`QueryDiagnostic`], with a stable code). [`run_queries`] matches each
//! query against every graph fact and emits [`DomainFact`](policies::facts::DomainFact)s with
//! their provenance, plus traces and per-query counts.
//!
//! This module never writes or infers a query, and never looks at the compiled spec: the
//! engine checks literal names ([`ReviewedQuery::literal_fields`], `query-unknown-name`),
//! resolves `from`/`to`/`component`, and drops transitions that no machine governs.
//!
//! Layout: `yaml` builds a located YAML tree; `query`, `matching` and `emit` decode it into
//! typed parts; `fields` and `template` resolve names and `$var`s against a graph fact;
//! `matching` and `produce` do the per-fact work; `load` and `run` are the two entry points.

mod diagnostic;
mod emit;
mod fields;
mod load;
mod matching;
mod produce;
mod query;
mod run;
mod template;
mod yaml;

#[cfg(test)]
mod tests;

pub use diagnostic::QueryDiagnostic;
pub use load::{
    is_query_file, load_queries, load_queries_with, load_query_texts, QuerySet, QUERY_DIRECTORIES,
};
pub use query::{LiteralField, ReviewedQuery};
pub use run::{run_queries, QueryCounts, QueryRun, QueryTrace};
