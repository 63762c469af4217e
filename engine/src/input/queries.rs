//! Reviewed `.agq.yml` queries in the engine (see the reviewed-query format, `extractors::agq`): loading (any load error stops
//! the check with exit 2 and every diagnostic), the checks against the compiled spec that the
//! query engine leaves to us (`query-unknown-name`, `query-unresolved-name`, transitions no
//! machine governs), and running the queries over the graph facts.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use extractors::agq::{
    load_queries, load_queries_with, run_queries, QueryDiagnostic, QuerySet, ReviewedQuery,
};
use policies::diagnostic::RelatedLocation;
use policies::facts::{DomainFact, DomainFactBody, Fact};
use policies::model::Model;
use policies::{Diagnostic, Severity};

use crate::error::EngineError;
use crate::graph::component_graph::resolve_target;
use crate::verdict::Warning;

/// The loaded queries and their load warnings.
#[derive(Debug, Clone, Default)]
pub struct LoadedQueries {
    /// The validated queries.
    pub set: Arc<QuerySet>,
    /// Load and spec-check warnings, reported in `warnings[]` under their own codes.
    pub warnings: Vec<Diagnostic>,
}

fn to_diagnostic(diagnostic: &QueryDiagnostic) -> Diagnostic {
    Diagnostic {
        code: diagnostic.code.clone(),
        severity: if diagnostic.is_error {
            Severity::Error
        } else {
            Severity::Warning
        },
        message: diagnostic.message.clone(),
        file: diagnostic.file.clone(),
        line: diagnostic.line,
        column: diagnostic.column,
        offset: diagnostic.offset,
        end_offset: diagnostic.end_offset,
        help: diagnostic.help.clone(),
        related: diagnostic
            .related
            .iter()
            .map(|(file, line, column, message)| RelatedLocation {
                file: file.clone(),
                line: *line,
                column: *column,
                message: message.clone(),
            })
            .collect(),
    }
}

/// True when `name` is a declared entity or a category that resolves to one (see Edges under
/// `invariant` in policies/LANGUAGE.md).
fn names_an_entity(model: &Model, name: &str) -> bool {
    model.is_entity(name) || !resolve_target(model, name).is_empty()
}

/// The `query-unknown-name` checks over a query's literal names (the reviewed-query format is
/// `extractors::agq`'s).
fn check_names(model: &Model, query: &ReviewedQuery) -> Vec<Diagnostic> {
    let literals = query.literal_fields();
    let literal = |field: &str| {
        literals
            .iter()
            .find(|literal| literal.field == field)
            .map(|literal| literal.value.clone())
    };
    let mut problems = Vec::new();
    let mut report = |field: &extractors::agq::LiteralField, message: String| {
        problems.push(Diagnostic {
            code: "query-unknown-name".into(),
            severity: Severity::Warning,
            message,
            file: query.file().to_owned(),
            line: field.line,
            column: field.column,
            offset: field.offset,
            end_offset: field.end_offset,
            help: None,
            related: Vec::new(),
        });
    };
    let is_data = |name: &str| model.data.iter().any(|data| data.name == name);
    let is_component = |name: &str| model.component(name).is_some();
    let machine = match (query.emit_kind(), literal("data"), literal("field")) {
        ("transition", Some(data), Some(field)) => model
            .machines
            .iter()
            .find(|machine| machine.data == data && machine.field == field),
        _ => None,
    };
    let data_field = literal("data").zip(literal("field"));
    for field in &literals {
        let value = field.value.as_str();
        let problem = match (query.emit_kind(), field.field) {
            ("transition", "field") => match (&data_field, machine) {
                (Some((data, _)), None) => Some(format!(
                    "no machine governs `{data}.{value}`: its transitions are ignored"
                )),
                _ => None,
            },
            ("transition", "data") => None,
            ("transition", "from" | "to") => machine.and_then(|machine| {
                let members = model
                    .enums
                    .iter()
                    .find(|declared| declared.name == machine.enum_name)
                    .map(|declared| &declared.values);
                members
                    .is_some_and(|members| !members.iter().any(|member| member == value))
                    .then(|| format!("`{value}` is not a value of enum `{}`", machine.enum_name))
            }),
            (_, "from" | "to" | "component") => (!names_an_entity(model, value))
                .then(|| format!("`{value}` is not a declared entity or a flow-target category")),
            (_, "subject") => (!is_data(value)).then(|| format!("unknown data `{value}`")),
            (_, "scope") => (!is_data(value) && !is_component(value))
                .then(|| format!("unknown event scope `{value}`: expected data or a component")),
            _ => None,
        };
        if let Some(message) = problem {
            report(field, message);
        }
    }
    problems
}

/// Loads the project's queries; any load error is an error verdict carrying every diagnostic.
pub fn load(
    root: &Path,
    files: &[String],
    model: &Model,
    snapshot: Option<crate::input::scope::SnapshotReader<'_>>,
) -> Result<LoadedQueries, EngineError> {
    let (set, diagnostics) = match snapshot {
        Some(read) => load_queries_with(files, read),
        None => load_queries(root, files),
    };
    let mut diagnostics: Vec<Diagnostic> = diagnostics.iter().map(to_diagnostic).collect();
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Err(EngineError::Queries(first_diagnostics(diagnostics)));
    }
    for query in set.queries() {
        diagnostics.extend(check_names(model, query));
    }
    Ok(LoadedQueries {
        set: Arc::new(set),
        warnings: diagnostics,
    })
}

/// The first `policies::compile::MAX_DIAGNOSTICS` diagnostics, each message cut as a spec's
/// are, and one `too-many-diagnostics` warning counting the rest: a query file of thousands of
/// broken documents gives an error document of bounded size.
fn first_diagnostics(mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let limit = policies::compile::MAX_DIAGNOSTICS;
    let hidden = diagnostics.len().saturating_sub(limit);
    let summary = diagnostics.get(limit).map(|first_hidden| Diagnostic {
        code: policies::error::Code::TooManyDiagnostics
            .as_str()
            .to_owned(),
        severity: policies::Severity::Warning,
        message: format!("{hidden} more diagnostic(s) are not reported (the first {limit} are)"),
        help: None,
        related: Vec::new(),
        ..first_hidden.clone()
    });
    diagnostics.truncate(limit);
    for diagnostic in &mut diagnostics {
        if diagnostic.message.len() > policies::compile::MAX_MESSAGE_BYTES {
            diagnostic.message =
                policies::read::excerpt(&diagnostic.message, policies::compile::MAX_MESSAGE_BYTES);
        }
    }
    diagnostics.extend(summary);
    diagnostics
}

fn warning(code: &str, message: String, file: &str, line: u32) -> Warning {
    Warning {
        code: code.to_owned(),
        message,
        file: Some(file.to_owned()),
        line: Some(line),
        ..Warning::default()
    }
}

/// Runs the queries over the graph facts: fills each emitted fact's component, drops
/// transitions that no machine governs (silently, see the reviewed-query format, `extractors::agq`) and facts whose names do not resolve
/// (`query-unresolved-name`).
pub fn run(
    queries: &LoadedQueries,
    facts: &[Box<Fact>],
    owners: &BTreeMap<String, String>,
    model: &Model,
    keep_traces: bool,
) -> (Vec<DomainFact>, Vec<Warning>) {
    if queries.set.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let run = run_queries(&queries.set, facts, keep_traces);
    let mut warnings: Vec<Warning> = run
        .warnings
        .iter()
        .map(|diagnostic| {
            warning(
                &diagnostic.code,
                diagnostic.message.clone(),
                &diagnostic.file,
                diagnostic.line,
            )
        })
        .collect();
    let mut kept = Vec::new();
    for mut fact in run.facts {
        fact.subject_component = owners.get(&*fact.evidence.file).cloned();
        // A file no component owns serves chains only (see Chains under `invariant` in policies/LANGUAGE.md): its facts promote
        // nothing (workflow files, read whoever owns them, excepted).
        if fact.subject_component.is_none()
            && extractors::Language::for_path(&fact.evidence.file)
                != Some(extractors::Language::GitHubActions)
        {
            continue;
        }
        let names: Vec<&str> = match &fact.body {
            DomainFactBody::Transition { data, field, .. } => {
                if !model
                    .machines
                    .iter()
                    .any(|machine| &machine.data == data && &machine.field == field)
                {
                    continue;
                }
                Vec::new()
            }
            DomainFactBody::Flow { from, to }
            | DomainFactBody::Auth { from, to }
            | DomainFactBody::Encryption { from, to } => {
                vec![from, to]
            }
            DomainFactBody::Dependency { from, to, .. } => vec![from, to],
            DomainFactBody::Operation { component, .. } => vec![component],
            _ => Vec::new(),
        };
        if let Some(unresolved) = names.iter().find(|name| !names_an_entity(model, name)) {
            warnings.push(warning(
                "query-unresolved-name",
                format!("query `{}` emitted `{unresolved}`, which is not a declared entity or category: the fact is dropped", fact.query.id),
                &fact.evidence.file,
                fact.evidence.line,
            ));
            continue;
        }
        kept.push(fact);
    }
    (kept, warnings)
}
