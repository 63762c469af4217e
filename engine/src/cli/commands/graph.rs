//! `lintel graph`: the extracted component graph with violations marked, as JSON (with
//! `--facts`, every graph fact), Graphviz DOT or Mermaid. The graph comes from the same
//! evaluator as `check`, in the same run. DOT and Mermaid draw each entity in the shape of its
//! kind (component, runtime, data store, queue or stream, external API), label each edge that
//! breaks a rule with the rule's text, and end with a legend.

use clap::Args;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use crate::check::run_check_handing_back;
use crate::cli::commands::check::{report_error, CheckArgs, Format};
use crate::cli::exit::ExitStatus;
use crate::error::EngineError;
use crate::render;
use crate::report::Analysis;
use crate::solve::Z3Solver;
use crate::verdict::Verdict;

/// `graph` arguments.
#[derive(Debug, Args)]
pub struct GraphArgs {
    /// Scope and check flags.
    #[command(flatten)]
    pub check: CheckArgs,
    /// List every graph fact.
    #[arg(long)]
    pub facts: bool,
    /// Write to a file instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// One flow edge.
#[derive(Debug, Serialize)]
struct GraphEdge {
    from: String,
    to: String,
    confidence: &'static str,
    /// Ids of the graph facts that establish the edge, best first.
    facts: Vec<String>,
    /// Ids of the findings whose witness uses this edge.
    violations: Vec<String>,
}

/// One entity of the graph.
#[derive(Debug, Serialize)]
struct GraphEntity {
    name: String,
    /// `component`, `node` or `resource`.
    kind: &'static str,
    /// The node or resource type, or the component's node.
    #[serde(rename = "type")]
    type_name: String,
}

#[derive(Debug, Serialize)]
struct GraphDocument {
    schema_version: u32,
    verdict: &'static str,
    entities: Vec<GraphEntity>,
    edges: Vec<GraphEdge>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[expect(
        clippy::vec_box,
        reason = "the extraction's boxed facts, taken over without moving each fact"
    )]
    facts: Option<Vec<Box<policies::facts::Fact>>>,
}

/// The ids of the findings that use each edge of their witness (flow findings use their one edge).
fn edge_marks(verdict: &Verdict) -> BTreeMap<(String, String), BTreeSet<String>> {
    let mut marks: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for violation in &verdict.violations {
        let detected = &violation.detected;
        let hops: Vec<(String, String)> = match &detected.path {
            Some(path) => path
                .windows(2)
                .filter_map(|hop| Some((hop.first()?.clone(), hop.get(1)?.clone())))
                .collect(),
            None => detected
                .from
                .clone()
                .zip(detected.to.clone())
                .into_iter()
                .collect(),
        };
        for hop in hops {
            marks.entry(hop).or_default().insert(violation.id.clone());
        }
    }
    marks
}

/// Quotes a DOT identifier.
fn dot_id(name: &str) -> String {
    let escaped = name
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n");
    format!("\"{escaped}\"")
}

/// A Mermaid node id: ASCII letters, digits and `_` only, made unique by position.
fn mermaid_id(index: usize) -> String {
    format!("n{index}")
}

/// What an entity is drawn as: its shape says what it is, and the legend names each shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Shape {
    Component,
    Runtime,
    DataStore,
    Messaging,
    ExternalApi,
    Other,
}

impl Shape {
    const ALL: [Shape; 6] = [
        Shape::Component,
        Shape::Runtime,
        Shape::DataStore,
        Shape::Messaging,
        Shape::ExternalApi,
        Shape::Other,
    ];

    /// The shape of an entity of this kind (`component`, `node`, `resource`) and type.
    fn of(entity: &GraphEntity) -> Self {
        if entity.kind == "component" {
            return Self::Component;
        }
        match entity.type_name.as_str() {
            "server" | "container" | "k8s_pod" | "lambda" | "edge_function" | "edge_mobile"
            | "edge_desktop" | "edge_embedded" | "edge_wearable" | "gpu_node" | "cluster"
            | "serverless" | "agent_runtime" | "ci_runner" | "static_host" => Self::Runtime,
            "postgres" | "mysql" | "mssql" | "sqlite" | "dynamodb" | "mongodb" | "firestore"
            | "cosmosdb" | "redis" | "memcached" | "elasticache" | "elasticsearch"
            | "opensearch" | "clickhouse" | "bigquery" | "cassandra" | "timescaledb"
            | "influxdb" | "neo4j" | "neptune" | "vector_db" | "pinecone" | "weaviate"
            | "s3_bucket" | "blob_storage" | "object_store" | "relational_db" | "document_db"
            | "time_series_db" | "cache" | "graph_db" | "spatial_db" | "rag_store"
            | "model_registry" | "package_registry" | "container_registry" | "secure_storage"
            | "local_preferences" | "local_database" | "file_system" => Self::DataStore,
            "event_stream" | "message_queue" | "queue" | "message_bus" | "reactive_stream" => {
                Self::Messaging
            }
            "rest_api" | "graphql_api" | "grpc_service" | "websocket_server" | "external_api"
            | "api_gateway" | "oauth_provider" | "identity_server" | "jwt_issuer"
            | "inference_endpoint" => Self::ExternalApi,
            _ => Self::Other,
        }
    }

    /// The HTML report's name for it.
    fn key(self) -> &'static str {
        match self {
            Self::Component => "component",
            Self::Runtime => "runtime",
            Self::DataStore => "store",
            Self::Messaging => "messaging",
            Self::ExternalApi => "external",
            Self::Other => "other",
        }
    }

    /// The legend's word for it.
    fn name(self) -> &'static str {
        match self {
            Self::Component => "component",
            Self::Runtime => "runtime",
            Self::DataStore => "data store",
            Self::Messaging => "queue or stream",
            Self::ExternalApi => "external API",
            Self::Other => "other node",
        }
    }

    /// Graphviz node attributes.
    fn dot(self) -> &'static str {
        match self {
            Self::Component => "shape=box, style=\"rounded,filled\", fillcolor=\"#eef3fb\"",
            Self::Runtime => "shape=box3d",
            Self::DataStore => "shape=cylinder",
            Self::Messaging => "shape=cds",
            Self::ExternalApi => "shape=hexagon",
            Self::Other => "shape=ellipse",
        }
    }

    /// A Mermaid node with this shape and (already escaped) label.
    fn mermaid(self, id: &str, label: &str) -> String {
        match self {
            Self::Component => format!("{id}[\"{label}\"]"),
            Self::Runtime => format!("{id}[[\"{label}\"]]"),
            Self::DataStore => format!("{id}[(\"{label}\")]"),
            Self::Messaging => format!("{id}>\"{label}\"]"),
            Self::ExternalApi => format!("{id}{{{{\"{label}\"}}}}"),
            Self::Other => format!("{id}(\"{label}\")"),
        }
    }
}

/// The label of an edge: the rules its findings break, each once, with how many findings
/// (`deny flow Api -> Db (3 findings)`); empty for an edge that breaks none.
fn rule_label(edge: &GraphEdge, rules: &BTreeMap<String, String>) -> Vec<String> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for id in &edge.violations {
        if let Some(rule) = rules.get(id) {
            *counts.entry(rule.as_str()).or_default() += 1;
        }
    }
    counts
        .into_iter()
        .map(|(rule, count)| match count {
            1 => rule.to_owned(),
            _ => format!("{rule} ({count} findings)"),
        })
        .collect()
}

/// The shapes present, in legend order.
fn shapes_present(document: &GraphDocument) -> Vec<Shape> {
    let present: BTreeSet<Shape> = document.entities.iter().map(Shape::of).collect();
    Shape::ALL
        .into_iter()
        .filter(|shape| present.contains(shape))
        .collect()
}

fn render_dot(document: &GraphDocument, rules: &BTreeMap<String, String>) -> String {
    let mut text = String::from(
        "digraph lintel {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n",
    );
    for entity in &document.entities {
        text.push_str(&format!(
            "  {} [{}, label={}];\n",
            dot_id(&entity.name),
            Shape::of(entity).dot(),
            dot_id(&format!("{}\n{}", entity.name, entity.type_name))
        ));
    }
    for edge in &document.edges {
        let style = match (edge.violations.is_empty(), edge.confidence) {
            (false, _) => ", color=red, fontcolor=red, penwidth=2",
            (true, "definite") => "",
            (true, _) => ", style=dashed",
        };
        let broken = rule_label(edge, rules);
        let label = if broken.is_empty() {
            String::new()
        } else {
            format!(", label={}", dot_id(&broken.join("\n")))
        };
        text.push_str(&format!(
            "  {} -> {}[tooltip={}{style}{label}];\n",
            dot_id(&edge.from),
            dot_id(&edge.to),
            dot_id(&format!("{} fact(s)", edge.facts.len()))
        ));
    }
    // The legend: one sample of each shape drawn, and the three kinds of edge.
    text.push_str("  subgraph cluster_legend {\n    label=\"Legend\";\n    style=dashed;\n    fontname=\"Helvetica\";\n");
    for (index, shape) in shapes_present(document).into_iter().enumerate() {
        text.push_str(&format!(
            "    legend_shape_{index} [{}, label={}];\n",
            shape.dot(),
            dot_id(shape.name())
        ));
    }
    text.push_str(
        "    legend_from [shape=point, width=0.05];\n    legend_definite [shape=plaintext, label=\"definite flow\"];\n    legend_probable [shape=plaintext, label=\"probable flow\"];\n    legend_broken [shape=plaintext, label=\"breaks the rule on it\", fontcolor=red];\n    legend_from -> legend_definite;\n    legend_from -> legend_probable [style=dashed];\n    legend_from -> legend_broken [color=red, penwidth=2];\n  }\n}\n",
    );
    text
}

fn render_mermaid(document: &GraphDocument, rules: &BTreeMap<String, String>) -> String {
    let ids: BTreeMap<&str, String> = document
        .entities
        .iter()
        .enumerate()
        .map(|(index, entity)| (entity.name.as_str(), mermaid_id(index)))
        .collect();
    let label = |text: &str| text.replace('"', "#quot;");
    let mut text = String::from("flowchart LR\n");
    for entity in &document.entities {
        let id = ids.get(entity.name.as_str()).cloned().unwrap_or_default();
        let shown = format!("{}<br/>{}", label(&entity.name), label(&entity.type_name));
        text.push_str(&format!("  {}\n", Shape::of(entity).mermaid(&id, &shown)));
    }
    let mut violating = Vec::new();
    let mut emitted = 0_usize;
    for edge in &document.edges {
        let (Some(from), Some(to)) = (ids.get(edge.from.as_str()), ids.get(edge.to.as_str()))
        else {
            continue;
        };
        let broken = rule_label(edge, rules);
        let arrow = match (edge.confidence == "definite", broken.is_empty()) {
            (true, true) => "-->".to_owned(),
            (false, true) => "-.->".to_owned(),
            (true, false) => format!("-->|\"{}\"|", label(&broken.join("<br/>"))),
            (false, false) => format!("-.->|\"{}\"|", label(&broken.join("<br/>"))),
        };
        text.push_str(&format!("  {from} {arrow} {to}\n"));
        if !edge.violations.is_empty() {
            violating.push(emitted.to_string());
        }
        emitted += 1;
    }
    // The legend: one sample of each shape drawn, and the three kinds of edge.
    text.push_str("  subgraph legend [Legend]\n");
    for (index, shape) in shapes_present(document).into_iter().enumerate() {
        text.push_str(&format!(
            "    {}\n",
            shape.mermaid(&format!("legend_shape_{index}"), shape.name())
        ));
    }
    text.push_str("    legend_a[\" \"] -->|definite flow| legend_b[\" \"]\n    legend_c[\" \"] -.->|probable flow| legend_d[\" \"]\n    legend_e[\" \"] -->|breaks the rule on it| legend_f[\" \"]\n  end\n");
    violating.push((emitted + 2).to_string());
    text.push_str(&format!(
        "  linkStyle {} stroke:#d00,stroke-width:3px,color:#d00\n",
        violating.join(",")
    ));
    text
}

/// Runs `graph`.
pub fn graph_command(
    arguments: &GraphArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> ExitStatus {
    run_graph(arguments, stdout, stderr, false)
}

/// Runs `check --format html`: the graph's HTML report, with the check's exit status.
pub fn check_html(
    arguments: &CheckArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> ExitStatus {
    let arguments = GraphArgs {
        check: arguments.clone(),
        facts: false,
        out: None,
    };
    run_graph(&arguments, stdout, stderr, true)
}

/// Runs `graph`; with `verdict_exit`, exits as `check` does (1 when the verdict fails).
fn run_graph(
    arguments: &GraphArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
    verdict_exit: bool,
) -> ExitStatus {
    let format = match (arguments.check.wants_json(), arguments.check.format) {
        (true, _) | (false, None) => Format::Json,
        (false, Some(format)) => format,
    };
    if !matches!(
        format,
        Format::Json | Format::Dot | Format::Mermaid | Format::Html
    ) {
        let error = EngineError::Usage("`graph` writes `json`, `dot`, `mermaid` or `html`".into());
        return report_error(&arguments.check, &error, stdout, stderr);
    }
    let mut options = arguments.check.to_options();
    // Every graph fact is listed, so that users can write queries against it.
    options.keep_all_facts |= arguments.facts;
    let keep_facts = arguments.facts;
    let inspected = run_check_handing_back(&options, &Z3Solver, collected, keep_facts);
    let (run, (entities, edges), facts) = match inspected {
        Ok(result) => result,
        Err(error) => return report_error(&arguments.check, &error, stdout, stderr),
    };
    let marks = edge_marks(&run.verdict);
    let rules: BTreeMap<String, String> = run
        .verdict
        .violations
        .iter()
        .map(|violation| (violation.id.clone(), violation.rule.text.clone()))
        .collect();
    let mut shown_facts = Vec::with_capacity(edges.len());
    let edges = edges
        .into_iter()
        .map(|(from, to, confidence, facts, shown)| {
            let violations = marks
                .get(&(from.clone(), to.clone()))
                .map(|ids| ids.iter().cloned().collect())
                .unwrap_or_default();
            shown_facts.push(shown);
            GraphEdge {
                from,
                to,
                confidence,
                facts,
                violations,
            }
        })
        .collect();
    let document = GraphDocument {
        schema_version: 2,
        verdict: run.verdict.verdict,
        entities,
        edges,
        facts: keep_facts.then_some(facts),
    };
    // JSON is written as it is serialised: with `--facts` on a large project the document is
    // hundreds of megabytes, which are never held as one string.
    let out = arguments.out.as_deref();
    let written = match format {
        Format::Dot => write_bytes(out, stdout, render_dot(&document, &rules).as_bytes()),
        Format::Mermaid => write_bytes(out, stdout, render_mermaid(&document, &rules).as_bytes()),
        Format::Html => {
            let source = run.scope.text_reader(&options.project);
            let mut page = Vec::new();
            write_html(
                &mut page,
                &document,
                shown_facts,
                &run.verdict,
                &source,
                &options,
            )
            .and_then(|()| write_bytes(out, stdout, &page))
        }
        _ => match out {
            Some(path) => std::fs::File::create(path)
                .and_then(|file| write_json(&mut std::io::BufWriter::new(file), &document)),
            None => write_json(stdout, &document),
        },
    };
    if let Err(error) = written {
        // A path the user named that cannot be written is a bad argument, not a bug of lintel;
        // with JSON asked for, the error document still goes to stdout.
        let message = match out {
            Some(path) => format!("cannot write `{}`: {error}", path.display()),
            None => format!("cannot write the graph: {error}"),
        };
        return report_error(
            &arguments.check,
            &EngineError::Usage(message),
            stdout,
            stderr,
        );
    }
    if verdict_exit && !run.verdict.passed {
        return ExitStatus::Violation;
    }
    ExitStatus::Pass
}

/// The entities of the model and the component edges of the run, with each edge's fact ids and
/// the first facts the HTML page shows.
fn collected(analysis: &Analysis) -> (Vec<GraphEntity>, Vec<CollectedEdge>) {
    let facts = &analysis.extraction.facts;
    let model = &analysis.spec.model;
    let mut entities: Vec<GraphEntity> = model
        .components
        .iter()
        .map(|component| GraphEntity {
            name: component.name.clone(),
            kind: "component",
            type_name: component.runs_on.clone(),
        })
        .collect();
    entities.extend(model.nodes.iter().map(|node| GraphEntity {
        name: node.name.clone(),
        kind: "node",
        type_name: node.type_name.clone(),
    }));
    entities.extend(model.resources.iter().map(|resource| GraphEntity {
        name: resource.name.clone(),
        kind: "resource",
        type_name: resource.type_name.clone(),
    }));
    let edges: Vec<CollectedEdge> = analysis
        .graph
        .edges
        .iter()
        .flat_map(|(from, targets)| {
            targets.iter().map(move |(to, edge)| {
                let ids = edge
                    .facts
                    .iter()
                    .filter_map(|index| facts.get(*index).map(|fact| fact.id.clone()))
                    .collect();
                let shown = edge
                    .facts
                    .iter()
                    .filter_map(|index| facts.get(*index))
                    .take(render::html::FACTS_PER_EDGE)
                    .map(|fact| render::html::EdgeFact {
                        kind: fact.kind.as_str().to_owned(),
                        file: fact.evidence.file.to_string(),
                        line: fact.evidence.line,
                        column: fact.evidence.column,
                    })
                    .collect();
                (
                    from.clone(),
                    to.clone(),
                    edge.confidence.as_str(),
                    ids,
                    shown,
                )
            })
        })
        .collect();
    (entities, edges)
}

/// One edge as the extraction hands it back: endpoints, confidence, fact ids, the first facts.
type CollectedEdge = (
    String,
    String,
    &'static str,
    Vec<String>,
    Vec<render::html::EdgeFact>,
);

/// Writes the HTML report of a graph document.
fn write_html(
    out: &mut dyn Write,
    document: &GraphDocument,
    shown_facts: Vec<Vec<render::html::EdgeFact>>,
    verdict: &Verdict,
    source: render::text::SourceText<'_>,
    options: &crate::input::options::CheckOptions,
) -> std::io::Result<()> {
    let entities: Vec<render::html::Entity> = document
        .entities
        .iter()
        .map(|entity| render::html::Entity {
            name: entity.name.clone(),
            kind: entity.kind.to_owned(),
            type_name: entity.type_name.clone(),
            shape: Shape::of(entity).key(),
        })
        .collect();
    let edges: Vec<render::html::Edge> = document
        .edges
        .iter()
        .zip(shown_facts)
        .map(|(edge, facts)| render::html::Edge {
            from: edge.from.clone(),
            to: edge.to.clone(),
            confidence: edge.confidence.to_owned(),
            fact_count: edge.facts.len(),
            facts,
            violations: edge.violations.clone(),
        })
        .collect();
    let title = format!("lintel report: {}", verdict.artifact);
    render::html::write(
        out,
        &title,
        verdict,
        &entities,
        &edges,
        source,
        &options.check_flags(),
    )
}

/// Writes `bytes` to the file `out`, else to `stdout`.
fn write_bytes(
    out: Option<&std::path::Path>,
    stdout: &mut dyn Write,
    bytes: &[u8],
) -> std::io::Result<()> {
    match out {
        Some(path) => std::fs::write(path, bytes),
        None => stdout.write_all(bytes).and_then(|()| stdout.flush()),
    }
}

/// Writes `document` as pretty JSON and a newline, streaming.
fn write_json(out: &mut dyn Write, document: &GraphDocument) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, document).map_err(std::io::Error::other)?;
    out.write_all(b"\n")?;
    out.flush()
}
