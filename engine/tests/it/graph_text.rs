//! `graph --format dot|mermaid`: shapes by kind, edges labelled with the rule they break, and a
//! legend.

use super::{example, lintel};

fn graph(format: &str, project: &std::path::Path) -> String {
    let output = lintel()
        .args([
            "graph",
            "--all",
            "--no-cache",
            "--format",
            format,
            "--project",
        ])
        .arg(project)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// A project with one entity of every shape: a component, its server, a database, a queue, an
/// external API and a CDN, and an edge that breaks a rule.
fn shapes_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    super::write_files(
        dir.path(),
        &[
            (
                "architecture.ag",
                "node app : server\nnode db : postgres\nnode jobs : message_queue\nnode partner : rest_api\nnode edge : cdn\n\
                 component Api { runs_on: app paths: \"api/**\" }\ncomponent Db { runs_on: app paths: \"db/**\" }\n\
                 invariant Layers { deny flow Api -> Db }\n",
            ),
            ("db/q.ts", "export const q = 1;\n"),
            ("api/a.ts", "import { q } from '../db/q';\nexport const value = q;\n"),
            ("api/b.ts", "import { q } from '../db/q';\nexport const other = q;\n"),
        ],
    );
    dir
}

#[test]
fn dot_draws_each_kind_in_its_shape_labels_broken_edges_with_the_rule_and_has_a_legend() {
    let dir = shapes_project();
    let dot = graph("dot", dir.path());
    for line in [
        "  \"Api\" [shape=box, style=\"rounded,filled\", fillcolor=\"#eef3fb\", label=\"Api\\napp\"];",
        "  \"app\" [shape=box3d, label=\"app\\nserver\"];",
        "  \"db\" [shape=cylinder, label=\"db\\npostgres\"];",
        "  \"jobs\" [shape=cds, label=\"jobs\\nmessage_queue\"];",
        "  \"partner\" [shape=hexagon, label=\"partner\\nrest_api\"];",
        "  \"edge\" [shape=ellipse, label=\"edge\\ncdn\"];",
        "  \"Api\" -> \"Db\"[tooltip=\"2 fact(s)\", color=red, fontcolor=red, penwidth=2, label=\"deny flow Api -> Db (2 findings)\"];",
        "  subgraph cluster_legend {",
        "    legend_shape_3 [shape=cds, label=\"queue or stream\"];",
        "    legend_from -> legend_broken [color=red, penwidth=2];",
    ] {
        assert!(dot.lines().any(|candidate| candidate == line), "no `{line}` in:\n{dot}");
    }
    assert!(!dot.contains("viol_"), "no ids in the picture:\n{dot}");
}

#[test]
fn mermaid_draws_each_kind_in_its_shape_labels_broken_edges_with_the_rule_and_has_a_legend() {
    let dir = shapes_project();
    let mermaid = graph("mermaid", dir.path());
    for line in [
        "  n0[\"Api<br/>app\"]",
        "  n2[[\"app<br/>server\"]]",
        "  n3[(\"db<br/>postgres\")]",
        "  n4>\"jobs<br/>message_queue\"]",
        "  n5{{\"partner<br/>rest_api\"}}",
        "  n6(\"edge<br/>cdn\")",
        "  n0 -->|\"deny flow Api -> Db (2 findings)\"| n1",
        "  subgraph legend [Legend]",
        "    legend_shape_4{{\"external API\"}}",
        "  linkStyle 0,3 stroke:#d00,stroke-width:3px,color:#d00",
    ] {
        assert!(
            mermaid.lines().any(|candidate| candidate == line),
            "no `{line}` in:\n{mermaid}"
        );
    }
    assert!(!mermaid.contains("viol_"));
    // Only the shapes present are in the legend.
    let reach = graph("mermaid", &example("monorepo-reach"));
    assert!(
        reach.contains("legend_shape_2[(\"data store\")]"),
        "{reach}"
    );
    assert!(!reach.contains("external API"), "{reach}");
}
