//! The HTML report: one self-contained page (no external requests) with the component graph laid
//! out in layers, the findings grouped by rule with their code frames, and filters.
//!
//! The layout is computed here, so that it is deterministic and tested in Rust: the entities are
//! put in an order with few backward edges, each entity goes on the layer of its longest path from
//! an entity nothing depends on (callers above what they call, data stores at the bottom; a
//! cycle's back edge points up), and the entities of each layer are ordered by the mean position
//! of their neighbours, sweeping down and up a few times. The page's script only draws that layout
//! and handles clicks and filters.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

use serde::Serialize;

use super::text::{frame_of_text, SourceText};
use crate::verdict::Verdict;

/// One entity of the report's graph.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Entity {
    /// Its name in the spec.
    pub name: String,
    /// `component`, `node` or `resource`.
    pub kind: String,
    /// The node or resource type, or the component's node.
    #[serde(rename = "type")]
    pub type_name: String,
    /// How it is drawn: `component`, `runtime`, `store`, `messaging`, `external` or `other`.
    pub shape: &'static str,
}

/// One piece of evidence of an edge: a fact and its code frame.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct EdgeFact {
    /// The fact kind, e.g. `import`.
    pub kind: String,
    /// Project-relative path.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// One flow edge between two entities.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Edge {
    /// The source entity.
    pub from: String,
    /// The target entity.
    pub to: String,
    /// `definite` or `probable`.
    pub confidence: String,
    /// How many facts establish it.
    pub fact_count: usize,
    /// The first facts (at most [`FACTS_PER_EDGE`]), best first.
    pub facts: Vec<EdgeFact>,
    /// Ids of the findings whose witness uses this edge.
    pub violations: Vec<String>,
}

/// Facts listed (with code frames) per edge.
pub const FACTS_PER_EDGE: usize = 5;

/// An entity's place in the layout.
#[derive(Debug, Clone, Serialize, PartialEq)]
struct Placed {
    name: String,
    kind: String,
    #[serde(rename = "type")]
    type_name: String,
    /// The drawing's shape: `component`, `runtime`, `store`, `messaging`, `external` or `other`.
    shape: &'static str,
    layer: usize,
    x: f64,
    y: f64,
    width: f64,
}

/// What the page's script reads.
#[derive(Debug, Serialize)]
struct PageData<'a> {
    title: String,
    verdict: &'a Verdict,
    nodes: Vec<Placed>,
    edges: &'a [Edge],
    /// Per edge, where it crosses the layers between its ends.
    routes: Vec<Vec<[f64; 2]>>,
    width: f64,
    height: f64,
    /// Code frames by `file:line`.
    frames: BTreeMap<String, String>,
    /// The flags of the check, for the `explain` commands the page shows.
    check_flags: &'a str,
}

const LAYER_GAP: f64 = 120.0;
const NODE_GAP: f64 = 36.0;
const NODE_HEIGHT: f64 = 40.0;
const MARGIN: f64 = 40.0;

/// The layout: the placed entities, each edge's route (the points where it crosses the layers
/// between its ends, in the edge's direction; empty for an edge between adjacent layers), and the
/// drawing's width and height.
type Layout = (Vec<Placed>, Vec<Vec<[f64; 2]>>, f64, f64);

/// A long edge's crossing point of a layer takes this much room in its row.
const CROSSING_WIDTH: f64 = 8.0;
/// The gap beside a crossing point.
const CROSSING_GAP: f64 = 10.0;

/// Lays out the entities that take part in an edge, plus every component. An edge that spans
/// several layers crosses each layer between its ends at a point ordered with the entities of
/// that layer, so that it runs between them instead of through them; the edges that leave the
/// same upper entity in the same direction share those points, and are drawn as one bundle
/// until they part.
fn layout(entities: &[Entity], edges: &[Edge]) -> Layout {
    let connected: BTreeSet<&str> = edges
        .iter()
        .flat_map(|edge| [edge.from.as_str(), edge.to.as_str()])
        .collect();
    let shown: Vec<&Entity> = entities
        .iter()
        .filter(|entity| entity.kind == "component" || connected.contains(entity.name.as_str()))
        .collect();
    let index: BTreeMap<&str, usize> = shown
        .iter()
        .enumerate()
        .map(|(at, entity)| (entity.name.as_str(), at))
        .collect();
    let ends = |edge: &Edge| -> Option<(usize, usize)> {
        let (from, to) = (
            *index.get(edge.from.as_str())?,
            *index.get(edge.to.as_str())?,
        );
        (from != to).then_some((from, to))
    };
    let mut out: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); shown.len()];
    for (from, to) in edges.iter().filter_map(ends) {
        if let Some(targets) = out.get_mut(from) {
            targets.insert(to);
        }
    }
    let mut layers = longest_path_layers(&out);
    let ends_of: Vec<Option<(usize, usize)>> = edges.iter().map(ends).collect();
    let (down, crossings) = crossing_points(&ends_of, &mut layers, shown.len());
    let layer_count = layers.iter().copied().max().map_or(0, |top| top + 1);
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); layer_count];
    for (node, &layer) in layers.iter().enumerate() {
        if let Some(row) = rows.get_mut(layer) {
            row.push(node);
        }
    }
    let names: Vec<&str> = shown.iter().map(|entity| entity.name.as_str()).collect();
    order_rows(&mut rows, &down, &names);
    let widths: Vec<f64> = (0..layers.len())
        .map(|node| {
            names
                .get(node)
                .map_or(CROSSING_WIDTH, |name| node_width(name))
        })
        .collect();
    let (position, width) = place_rows(&rows, &widths, shown.len());
    let placed: Vec<Placed> = shown
        .iter()
        .enumerate()
        .filter_map(|(node, entity)| {
            let [x, y] = *position.get(node)?;
            Some(Placed {
                name: entity.name.clone(),
                kind: entity.kind.clone(),
                type_name: entity.type_name.clone(),
                shape: entity.shape,
                layer: layers.get(node).copied().unwrap_or(0),
                x,
                y,
                width: widths.get(node).copied().unwrap_or(0.0),
            })
        })
        .collect();
    let routes = ends_of
        .iter()
        .zip(crossings)
        .map(|(edge, chain)| {
            let mut points: Vec<[f64; 2]> = chain
                .iter()
                .filter_map(|point| position.get(*point).copied())
                .collect();
            // The chain runs top to bottom; an edge that points up crosses the layers upwards.
            let upward = edge.is_some_and(|(from, to)| layers.get(from) > layers.get(to));
            if upward {
                points.reverse();
            }
            points
        })
        .collect();
    let height = 2.0 * MARGIN + NODE_HEIGHT + layer_count.saturating_sub(1) as f64 * LAYER_GAP;
    (placed, routes, width.max(2.0 * MARGIN), height)
}

/// Breaks each edge that spans several layers at a crossing point of each layer between its ends
/// (nodes numbered after the `entities`, their layers pushed onto `layers`), shared by the edges
/// that leave one upper entity in the same direction. Returns the downward links between
/// consecutive layers and each edge's crossing points from top to bottom.
fn crossing_points(
    ends: &[Option<(usize, usize)>],
    layers: &mut Vec<usize>,
    entities: usize,
) -> (Vec<BTreeSet<usize>>, Vec<Vec<usize>>) {
    let mut down: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); entities];
    let mut crossings: Vec<Vec<usize>> = Vec::with_capacity(ends.len());
    let mut shared: BTreeMap<(usize, usize, bool), usize> = BTreeMap::new();
    for edge in ends {
        let Some((from, to)) = *edge else {
            crossings.push(Vec::new());
            continue;
        };
        let (from_layer, to_layer) = (
            layers.get(from).copied().unwrap_or(0),
            layers.get(to).copied().unwrap_or(0),
        );
        let (upper, lower, top) = if from_layer < to_layer {
            (from, to, from_layer)
        } else {
            (to, from, to_layer)
        };
        let upward = from_layer > to_layer;
        let mut chain = Vec::new();
        let mut previous = upper;
        for step in 1..from_layer.abs_diff(to_layer) {
            // The edges that leave one entity the same way share their crossing points: a bundle.
            let point = *shared
                .entry((upper, top + step, upward))
                .or_insert_with(|| {
                    layers.push(top + step);
                    down.push(BTreeSet::new());
                    layers.len() - 1
                });
            if let Some(links) = down.get_mut(previous) {
                links.insert(point);
            }
            chain.push(point);
            previous = point;
        }
        if let Some(links) = down.get_mut(previous) {
            links.insert(lower);
        }
        crossings.push(chain);
    }
    (down, crossings)
}

/// The centre of every node (entities first, then crossing points) with its rows centred, and the
/// drawing's width. Entities keep `NODE_GAP` between them, a crossing point `CROSSING_GAP`.
fn place_rows(rows: &[Vec<usize>], widths: &[f64], entities: usize) -> (Vec<[f64; 2]>, f64) {
    let gap = |a: usize, b: usize| {
        if a < entities && b < entities {
            NODE_GAP
        } else {
            CROSSING_GAP
        }
    };
    let row_width = |row: &Vec<usize>| -> f64 {
        let nodes: f64 = row
            .iter()
            .map(|node| widths.get(*node).copied().unwrap_or(0.0))
            .sum();
        let gaps: f64 = row
            .windows(2)
            .map(|pair| match pair {
                [a, b] => gap(*a, *b),
                _ => 0.0,
            })
            .sum();
        nodes + gaps
    };
    let width = rows.iter().map(row_width).fold(0.0, f64::max) + 2.0 * MARGIN;
    let mut position = vec![[0.0_f64; 2]; widths.len()];
    for (layer, row) in rows.iter().enumerate() {
        let mut x = (width - row_width(row)) / 2.0;
        let y = MARGIN + NODE_HEIGHT / 2.0 + layer as f64 * LAYER_GAP;
        let mut previous: Option<usize> = None;
        for &node in row {
            if let Some(before) = previous {
                x += gap(before, node);
            }
            let node_width = widths.get(node).copied().unwrap_or(0.0);
            if let Some(slot) = position.get_mut(node) {
                *slot = [x + node_width / 2.0, y];
            }
            x += node_width;
            previous = Some(node);
        }
    }
    (position, width)
}

/// A node's drawn width: its label at about 7.5 pixels a character, plus padding.
fn node_width(name: &str) -> f64 {
    (name.chars().count() as f64 * 7.5 + 28.0).max(70.0)
}

/// An order of the nodes with few edges pointing backwards (the greedy heuristic of Eades, Lin
/// and Smyth): sinks go to the end, sources to the front, and otherwise the node whose out-degree
/// most exceeds its in-degree goes next. Ties take the smaller index, so the order is deterministic.
fn feedback_order(out: &[BTreeSet<usize>]) -> Vec<usize> {
    let count = out.len();
    let mut incoming: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); count];
    for (from, targets) in out.iter().enumerate() {
        for &to in targets {
            if let Some(set) = incoming.get_mut(to) {
                set.insert(from);
            }
        }
    }
    let mut outgoing: Vec<BTreeSet<usize>> = out.to_vec();
    let mut left: BTreeSet<usize> = (0..count).collect();
    let mut front = Vec::new();
    let mut back = Vec::new();
    let remove =
        |node: usize, outgoing: &mut Vec<BTreeSet<usize>>, incoming: &mut Vec<BTreeSet<usize>>| {
            for target in std::mem::take(outgoing.get_mut(node).unwrap_or(&mut BTreeSet::new())) {
                if let Some(set) = incoming.get_mut(target) {
                    set.remove(&node);
                }
            }
            for source in std::mem::take(incoming.get_mut(node).unwrap_or(&mut BTreeSet::new())) {
                if let Some(set) = outgoing.get_mut(source) {
                    set.remove(&node);
                }
            }
        };
    while !left.is_empty() {
        let degree = |set: &[BTreeSet<usize>], node: usize| set.get(node).map_or(0, BTreeSet::len);
        if let Some(&sink) = left.iter().find(|node| degree(&outgoing, **node) == 0) {
            left.remove(&sink);
            remove(sink, &mut outgoing, &mut incoming);
            back.push(sink);
            continue;
        }
        if let Some(&source) = left.iter().find(|node| degree(&incoming, **node) == 0) {
            left.remove(&source);
            remove(source, &mut outgoing, &mut incoming);
            front.push(source);
            continue;
        }
        let best = left.iter().copied().max_by(|a, b| {
            let score =
                |node: usize| degree(&outgoing, node) as i64 - degree(&incoming, node) as i64;
            score(*a).cmp(&score(*b)).then_with(|| b.cmp(a))
        });
        let Some(best) = best else { break };
        left.remove(&best);
        remove(best, &mut outgoing, &mut incoming);
        front.push(best);
    }
    back.reverse();
    front.extend(back);
    front
}

/// Each node's layer: the longest path to it from a node nothing reaches, where an edge that points
/// backwards in [`feedback_order`] counts reversed, so that a cycle is drawn over several layers
/// with its back edges going up.
fn longest_path_layers(out: &[BTreeSet<usize>]) -> Vec<usize> {
    let order = feedback_order(out);
    let mut position = vec![0usize; out.len()];
    for (at, &node) in order.iter().enumerate() {
        if let Some(slot) = position.get_mut(node) {
            *slot = at;
        }
    }
    let mut forward: Vec<Vec<usize>> = vec![Vec::new(); out.len()];
    for (from, targets) in out.iter().enumerate() {
        for &to in targets {
            let (upper, lower) = if position.get(from) < position.get(to) {
                (from, to)
            } else {
                (to, from)
            };
            if let Some(list) = forward.get_mut(upper) {
                list.push(lower);
            }
        }
    }
    let mut layer = vec![0usize; out.len()];
    for &node in &order {
        let here = layer.get(node).copied().unwrap_or(0);
        for &next in forward.get(node).into_iter().flatten() {
            if let Some(slot) = layer.get_mut(next) {
                *slot = (*slot).max(here + 1);
            }
        }
    }
    layer
}

/// Orders each layer by the mean position of the node's neighbours in the layer above (sweeping
/// down) and below (sweeping up); ties keep the name order, so the result is deterministic.
fn order_rows(rows: &mut [Vec<usize>], out: &[BTreeSet<usize>], names: &[&str]) {
    let mut incoming: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); out.len()];
    for (from, targets) in out.iter().enumerate() {
        for &to in targets {
            if let Some(set) = incoming.get_mut(to) {
                set.insert(from);
            }
        }
    }
    // Crossing points have no name: among themselves they keep their creation order.
    let name = |node: usize| names.get(node).copied().unwrap_or_default();
    for row in rows.iter_mut() {
        row.sort_by(|a, b| name(*a).cmp(name(*b)));
    }
    for sweep in 0..8 {
        let downward = sweep % 2 == 0;
        let mut position = vec![f64::NAN; out.len()];
        for row in rows.iter() {
            for (at, &node) in row.iter().enumerate() {
                if let Some(p) = position.get_mut(node) {
                    *p = at as f64;
                }
            }
        }
        let layer_order: Vec<usize> = if downward {
            (1..rows.len()).collect()
        } else {
            (0..rows.len().saturating_sub(1)).rev().collect()
        };
        for layer in layer_order {
            let Some(row) = rows.get_mut(layer) else {
                continue;
            };
            let neighbours = if downward { &incoming } else { out };
            let mut keyed: Vec<(f64, usize)> = row
                .iter()
                .enumerate()
                .map(|(at, &node)| {
                    let near: Vec<f64> = neighbours
                        .get(node)
                        .into_iter()
                        .flatten()
                        .filter_map(|other| position.get(*other).copied())
                        .filter(|p| !p.is_nan())
                        .collect();
                    let key = if near.is_empty() {
                        at as f64
                    } else {
                        near.iter().sum::<f64>() / near.len() as f64
                    };
                    (key, node)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| name(a.1).cmp(name(b.1))));
            *row = keyed.into_iter().map(|(_, node)| node).collect();
            for (at, &node) in row.iter().enumerate() {
                if let Some(p) = position.get_mut(node) {
                    *p = at as f64;
                }
            }
        }
    }
}

/// The code frames the page shows: each finding's location and each listed edge fact's.
fn frames(verdict: &Verdict, edges: &[Edge], source: SourceText<'_>) -> BTreeMap<String, String> {
    let mut places: BTreeSet<(String, u32, Option<u32>)> = BTreeSet::new();
    for violation in &verdict.violations {
        let detected = &violation.detected;
        places.insert((detected.file.clone(), detected.line, detected.column));
    }
    for entry in super::other_entries(verdict) {
        places.insert((entry.file, entry.line, None));
    }
    for edge in edges {
        for fact in &edge.facts {
            places.insert((fact.file.clone(), fact.line, Some(fact.column)));
        }
    }
    // The places are sorted by file: each file is read once, for all its frames.
    let mut frames = BTreeMap::new();
    let mut read: Option<(String, Option<String>)> = None;
    for (file, line, column) in places {
        if file.is_empty() {
            continue;
        }
        if read.as_ref().is_none_or(|(name, _)| *name != file) {
            read = Some((file.clone(), source(&file)));
        }
        let frame = read
            .as_ref()
            .and_then(|(_, text)| frame_of_text(text.as_deref()?, line, column));
        if let Some(frame) = frame {
            frames.entry(format!("{file}:{line}")).or_insert(frame);
        }
    }
    frames
}

/// Writes the report: `title` names the project, `check_flags` are the check's scope flags.
pub fn write(
    out: &mut dyn Write,
    title: &str,
    verdict: &Verdict,
    entities: &[Entity],
    edges: &[Edge],
    source: SourceText<'_>,
    check_flags: &str,
) -> std::io::Result<()> {
    let (nodes, routes, width, height) = layout(entities, edges);
    let data = PageData {
        title: title.to_owned(),
        verdict,
        nodes,
        edges,
        routes,
        width,
        height,
        frames: frames(verdict, edges, source),
        check_flags,
    };
    let json = serde_json::to_string(&data).map_err(std::io::Error::other)?;
    // `<` never appears raw inside the script element, so no text can close it.
    let json = json.replace('<', "\\u003c");
    let page = TEMPLATE
        .replace("{{TITLE}}", &escape_html(title))
        .replacen("{{DATA}}", &json, 1);
    out.write_all(page.as_bytes())?;
    out.flush()
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The page: styles, the data, and the script that draws it.
const TEMPLATE: &str = include_str!("html_report.html");

#[cfg(test)]
mod tests {
    use super::{layout, Edge, Entity};

    fn entity(name: &str, kind: &str, type_name: &str) -> Entity {
        let shape = if kind == "component" {
            "component"
        } else if type_name == "postgres" {
            "store"
        } else {
            "other"
        };
        Entity {
            name: name.into(),
            kind: kind.into(),
            type_name: type_name.into(),
            shape,
        }
    }

    fn edge(from: &str, to: &str) -> Edge {
        Edge {
            from: from.into(),
            to: to.into(),
            confidence: "definite".into(),
            fact_count: 1,
            facts: Vec::new(),
            violations: Vec::new(),
        }
    }

    #[test]
    fn callers_sit_above_what_they_call_and_a_cycle_spans_layers() {
        let entities = vec![
            entity("Web", "component", "srv"),
            entity("Api", "component", "srv"),
            entity("Domain", "component", "srv"),
            entity("Infra", "component", "srv"),
            entity("db", "node", "postgres"),
            entity("unused_queue", "node", "queue"),
        ];
        let edges = vec![
            edge("Web", "Api"),
            edge("Api", "Domain"),
            edge("Api", "Infra"),
            edge("Infra", "Domain"),
            edge("Domain", "Infra"),
            edge("Infra", "db"),
            edge("Web", "db"),
        ];
        let (nodes, routes, width, height) = layout(&entities, &edges);
        let layer = |name: &str| {
            nodes
                .iter()
                .find(|node| node.name == name)
                .map(|node| node.layer)
        };
        assert_eq!(layer("Web"), Some(0));
        assert_eq!(layer("Api"), Some(1));
        // Domain and Infra form a cycle: one of them sits above the other, and db below both.
        let (domain, infra) = (layer("Domain").unwrap(), layer("Infra").unwrap());
        assert_ne!(domain, infra);
        assert_eq!(domain.min(infra), 2);
        assert_eq!(layer("db"), Some(domain.max(infra) + 1));
        // A node no edge touches is left out; every component is shown.
        assert_eq!(layer("unused_queue"), None);
        assert_eq!(
            nodes
                .iter()
                .find(|node| node.name == "db")
                .map(|node| node.shape),
            Some("store")
        );
        assert!(width > 0.0 && height > 4.0 * super::LAYER_GAP);
        // No two nodes of a layer overlap.
        for a in &nodes {
            for b in &nodes {
                if a.name != b.name && a.layer == b.layer {
                    assert!(
                        (a.x - b.x).abs() >= (a.width + b.width) / 2.0,
                        "{} and {} overlap",
                        a.name,
                        b.name
                    );
                }
            }
        }
        // The same input gives the same layout.
        assert_eq!(layout(&entities, &edges).0, nodes);
        // An edge between adjacent layers has no crossing points; Web → db crosses every layer
        // between, beside the entities there, never through one.
        assert!(routes[0].is_empty(), "Web → Api");
        let web_to_db = &routes[6];
        assert_eq!(web_to_db.len(), layer("db").unwrap() - 1);
        for point in web_to_db {
            for node in nodes.iter().filter(|node| (node.y - point[1]).abs() < 1e-9) {
                assert!(
                    (node.x - point[0]).abs() >= node.width / 2.0,
                    "the route crosses {}",
                    node.name
                );
            }
        }
        // An upward edge (the cycle's back edge) lists its crossings bottom to top.
        assert_eq!(routes.len(), edges.len());
    }

    #[test]
    fn ordering_follows_the_neighbours_to_avoid_crossings() {
        // A → X, B → Y with names that sort the other way round in the lower layer.
        let entities = vec![
            entity("A", "component", "s"),
            entity("B", "component", "s"),
            entity("Xb", "component", "s"),
            entity("Xa", "component", "s"),
        ];
        let edges = vec![edge("A", "Xb"), edge("B", "Xa")];
        let (nodes, _, _, _) = layout(&entities, &edges);
        let x = |name: &str| {
            nodes
                .iter()
                .find(|node| node.name == name)
                .map(|node| node.x)
                .unwrap_or_default()
        };
        assert!(x("A") < x("B"));
        assert!(
            x("Xb") < x("Xa"),
            "the lower layer follows the upper one: no crossing"
        );
    }
}
