//! `lintel graph`: the extracted component graph, and with `--facts` every graph fact.

use std::io::Write;

use serde::Serialize;

use crate::check::analyse;
use crate::cli::{report_error, ExitStatus, Format, GraphArgs};
use crate::error::EngineError;

#[derive(Debug, Serialize)]
struct GraphEdge {
    from: String,
    to: String,
    confidence: &'static str,
    facts: Vec<String>,
}

#[derive(Debug, Serialize)]
struct GraphDocument<'a> {
    schema_version: u32,
    components: Vec<String>,
    edges: Vec<GraphEdge>,
    #[serde(skip_serializing_if = "Option::is_none")]
    facts: Option<&'a [policies::facts::Fact]>,
}

/// Runs `graph`.
pub fn graph_command(
    arguments: &GraphArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> ExitStatus {
    if matches!(arguments.check.format, Some(Format::Sarif | Format::Github)) {
        return report_error(
            &arguments.check,
            &EngineError::NotImplemented("this graph format".into()),
            stdout,
            stderr,
        );
    }
    let options = arguments.check.to_options();
    let analysis = match analyse(&options) {
        Ok(analysis) => analysis,
        Err(error) => return report_error(&arguments.check, &error, stdout, stderr),
    };
    let facts = &analysis.extraction.facts;
    let edges = analysis
        .graph
        .edges
        .iter()
        .flat_map(|(from, targets)| {
            targets.iter().map(move |(to, edge)| GraphEdge {
                from: from.clone(),
                to: to.clone(),
                confidence: edge.confidence.as_str(),
                facts: edge
                    .facts
                    .iter()
                    .filter_map(|index| facts.get(*index).map(|fact| fact.id.clone()))
                    .collect(),
            })
        })
        .collect();
    let document = GraphDocument {
        schema_version: 2,
        components: analysis
            .spec
            .model
            .components
            .iter()
            .map(|component| component.name.clone())
            .collect(),
        edges,
        facts: arguments.facts.then_some(facts.as_slice()),
    };
    let written = match &arguments.out {
        Some(path) => serde_json::to_string_pretty(&document)
            .map_err(std::io::Error::other)
            .and_then(|text| std::fs::write(path, text + "\n")),
        None => crate::render::json::write(stdout, &document),
    };
    if let Err(error) = written {
        let _ = writeln!(stderr, "error[internal-error]: {error}");
        return ExitStatus::Error;
    }
    ExitStatus::Pass
}
