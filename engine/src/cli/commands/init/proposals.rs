//! What `lintel init` proposes from the extracted graph, and the spec text it writes.
//!
//! - A node per infrastructure technology that some code uses definitely (constructs, calls or
//!   injects a catalogued client), typed by the technology and bound to the libraries used with
//!   `clients`; HTTP clients (`external_api`) are left out: an API's address is not in the code,
//!   and so are the catalogue's stand-ins for a store in tests (EF Core's in-memory provider).
//! - The layering: the component graph's strongly connected components, condensed, form a DAG
//!   of layers (listed in the spec); each edge `A -> B` with no edge `B -> A` becomes
//!   `deny flow B -> A` (the direction the graph respects today), between layers and also
//!   inside a cycle (where `B` reaches `A` only through other components); at most 40 of them,
//!   those between layers first and the best-evidenced first, with a note of how many more.
//! - `deny flow U -> store` for each UI-like component `U` (a folder or name word such as `ui`,
//!   `web`, `frontend`, `app`, `client`, `components`, `pages`, `views`) and each data-store node
//!   it does not use today.
//!
//! Every proposal is written after a comment with its evidence; everything is sorted.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::layout::{words, Layout, Unit};

/// The most layering rules proposed: beyond this a starter spec is too long to review.
const MAX_LAYERING_RULES: usize = 40;

/// The node every component runs on.
pub const APP_NODE: &str = "app";

/// A component-to-component edge of the first run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComponentEdge {
    /// The component that uses.
    pub from: String,
    /// The component used.
    pub to: String,
    /// How many facts of each kind make it (`import` → 14).
    pub kinds: Vec<(String, usize)>,
    /// Where its best fact is (`api/x.ts:3`).
    pub example: String,
}

/// One `accesses_technology` fact of the first run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TechnologyUse {
    /// The fact's technology (category).
    pub technology: String,
    /// The client library.
    pub package: String,
    /// Whether the fact is definite.
    pub definite: bool,
    /// The file it is in.
    pub file: String,
    /// The component that owns the file.
    pub subject: Option<String>,
}

/// A proposed node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeProposal {
    /// Its name (a lowercase identifier).
    pub name: String,
    /// Its node type.
    pub type_name: String,
    /// library → the files that use it definitely (sorted).
    pub clients: BTreeMap<String, BTreeSet<String>>,
}

impl NodeProposal {
    /// Whether it is a data store (not a queue or stream).
    fn is_data_store(&self) -> bool {
        !MESSAGING_TYPES.contains(&self.type_name.as_str())
    }
}

/// A proposed `deny flow`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleProposal {
    /// The source of the denied flow.
    pub from: String,
    /// Its target.
    pub to: String,
    /// The evidence comment.
    pub evidence: String,
}

/// Everything proposed besides the components.
#[derive(Debug, Default)]
pub struct Proposals {
    /// Nodes, by name.
    pub nodes: Vec<NodeProposal>,
    /// The layers of the condensation, bottom first; each lists its components.
    pub layers: Vec<Vec<String>>,
    /// Groups of components in one cycle.
    pub cycles: Vec<Vec<String>>,
    /// The layering rules.
    pub layering: Vec<RuleProposal>,
    /// The UI-to-data-store rules.
    pub ui: Vec<RuleProposal>,
    /// Notes for the header.
    pub notes: Vec<String>,
}

impl Proposals {
    /// Drops the rules that have findings today (and says so).
    pub fn drop_rules(&mut self, broken: &BTreeSet<(String, String)>) {
        let mut dropped = Vec::new();
        for list in [&mut self.layering, &mut self.ui] {
            list.retain(|rule| {
                let keep = !broken.contains(&(rule.from.clone(), rule.to.clone()));
                if !keep {
                    dropped.push(format!("`deny flow {} -> {}`", rule.from, rule.to));
                }
                keep
            });
        }
        if !dropped.is_empty() {
            self.notes.push(format!(
                "left out because `check --all` finds flows the first graph did not show: {}.",
                dropped.join(", ")
            ));
        }
    }
}

/// Node types of queues and streams (not data stores).
const MESSAGING_TYPES: [&str; 4] = ["message_queue", "event_stream", "queue", "message_bus"];

/// Node types that stand for remote APIs: not proposed (their address is configuration).
const API_TYPES: [&str; 6] = [
    "external_api",
    "rest_api",
    "api_gateway",
    "grpc_service",
    "graphql_api",
    "websocket_server",
];

/// Words of folders and names that mark a UI.
const UI_WORDS: [&str; 10] = [
    "ui",
    "web",
    "webapp",
    "frontend",
    "app",
    "client",
    "components",
    "pages",
    "views",
    "www",
];

/// The node type of a technology: itself when it is one, else the first type it resolves to.
pub fn node_type(technology: &str) -> Option<&'static str> {
    std::iter::once(technology)
        .chain(crate::graph::targets::category_types(technology))
        .find_map(|candidate| {
            policies::vocab::NODE_TYPES
                .iter()
                .find(|known| **known == candidate)
                .copied()
        })
        .filter(|found| !API_TYPES.contains(found))
}

/// A lowercase identifier for a node.
fn node_name(technology: &str) -> String {
    let mut name: String = technology
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) || name == APP_NODE {
        name.insert_str(0, "infra_");
    }
    name
}

/// The nodes: each library with definite uses goes to its most used technology.
fn nodes(uses: &[TechnologyUse]) -> Vec<NodeProposal> {
    let mut by_library: BTreeMap<&str, BTreeMap<&str, BTreeSet<&str>>> = BTreeMap::new();
    for found in uses.iter().filter(|found| found.definite) {
        // A stand-in for a store in tests (EF Core's in-memory provider) is no node.
        if node_type(&found.technology).is_none()
            || found.package.trim().is_empty()
            || extractors::catalogue::is_stand_in(&found.package)
        {
            continue;
        }
        by_library
            .entry(found.package.as_str())
            .or_default()
            .entry(found.technology.as_str())
            .or_default()
            .insert(found.file.as_str());
    }
    let mut nodes: BTreeMap<String, NodeProposal> = BTreeMap::new();
    for (library, mut technologies) in by_library {
        join_generic_uses(&mut technologies);
        let Some((technology, files)) = technologies
            .iter()
            .max_by(|a, b| a.1.len().cmp(&b.1.len()).then(b.0.cmp(a.0)))
        else {
            continue;
        };
        let Some(type_name) = node_type(technology) else {
            continue;
        };
        let name = node_name(technology);
        let node = nodes.entry(name.clone()).or_insert_with(|| NodeProposal {
            name,
            type_name: type_name.to_owned(),
            clients: BTreeMap::new(),
        });
        node.clients.insert(
            library.to_owned(),
            files.iter().map(|file| (*file).to_owned()).collect(),
        );
    }
    // A generic technology (`relational_db` for an ORM) joins the one specific node of its
    // family (`postgres`), when there is exactly one: it is the same database.
    let generic: Vec<String> = nodes
        .values()
        .filter(|node| GENERIC_TYPES.contains(&node.type_name.as_str()))
        .map(|node| node.name.clone())
        .collect();
    for name in generic {
        let Some(type_name) = nodes.get(&name).map(|node| node.type_name.clone()) else {
            continue;
        };
        let family = crate::graph::targets::category_types(&type_name);
        let specific: Vec<String> = nodes
            .values()
            .filter(|node| node.name != name && family.contains(&node.type_name.as_str()))
            .filter(|node| !GENERIC_TYPES.contains(&node.type_name.as_str()))
            // An embedded SQLite file is a side store as often as the database (paperless-ngx
            // keeps a vector index in one beside its Django database): no ORM joins it.
            .filter(|node| node.type_name != "sqlite")
            .map(|node| node.name.clone())
            .collect();
        let [only] = specific.as_slice() else {
            continue;
        };
        if let Some(node) = nodes.remove(&name) {
            if let Some(target) = nodes.get_mut(only) {
                target.clients.extend(node.clients);
            }
        }
    }
    nodes.into_values().collect()
}

/// A library's generic uses (`relational_db`: a `*sql.DB` it is handed) are uses of the one
/// store of that family its other uses name (`sql.Open("postgres", dsn)`), when they name
/// exactly one: the program opens that database.
fn join_generic_uses<'a>(technologies: &mut BTreeMap<&'a str, BTreeSet<&'a str>>) {
    for generic in GENERIC_TYPES {
        let family = crate::graph::targets::category_types(generic);
        let specific: Vec<&str> = technologies
            .keys()
            .copied()
            .filter(|technology| *technology != generic && family.contains(technology))
            .filter(|technology| !GENERIC_TYPES.contains(technology))
            .collect();
        let [only] = specific.as_slice() else {
            continue;
        };
        if let Some(files) = technologies.remove(generic) {
            technologies.entry(only).or_default().extend(files);
        }
    }
}

/// Node types that stand for a family of technologies.
const GENERIC_TYPES: [&str; 5] = [
    "relational_db",
    "document_db",
    "cache",
    "message_queue",
    "object_store",
];

/// The UI word of a unit's folder (its last segment) or name, if it has one: its first or last
/// word (`web`, `excalidraw-app`, `WebAppComponents`; not `eShop.AppHost`). `app` counts only
/// for a unit of mostly TypeScript or JavaScript (a Python or Go `app` is rarely a front end).
fn ui_word(unit: &Unit) -> Option<String> {
    let last = unit.dir.rsplit('/').next().unwrap_or(&unit.dir);
    [words(last), words(&unit.name)]
        .into_iter()
        .flat_map(|words| {
            let first = words.first().cloned();
            let last = words.last().cloned();
            [first, last]
        })
        .flatten()
        .find(|word| UI_WORDS.contains(&word.as_str()) && (word != "app" || unit.mostly_scripts))
}

/// For each component, the components it reaches (itself included).
fn reach(
    names: &[&str],
    out: &BTreeMap<&str, BTreeSet<&str>>,
) -> BTreeMap<String, BTreeSet<String>> {
    let mut reached = BTreeMap::new();
    for start in names {
        let mut seen: BTreeSet<&str> = BTreeSet::from([*start]);
        let mut stack = vec![*start];
        while let Some(next) = stack.pop() {
            for target in out.get(next).into_iter().flatten() {
                if seen.insert(target) {
                    stack.push(target);
                }
            }
        }
        reached.insert(
            (*start).to_owned(),
            seen.into_iter().map(str::to_owned).collect(),
        );
    }
    reached
}

/// "14 imports and 2 constructor injections".
fn describe(kinds: &[(String, usize)]) -> String {
    let parts: Vec<String> = kinds
        .iter()
        .map(|(kind, count)| {
            let word = match kind.as_str() {
                "import" => "import",
                "constructor_injection" => "constructor injection",
                "http_call" => "HTTP call",
                "flow" => "query flow",
                other => other,
            };
            let plural = if *count == 1 { "" } else { "s" };
            format!("{count} {word}{plural}")
        })
        .collect();
    match parts.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => "no fact".to_owned(),
    }
}

/// The proposals for these units, edges and technology uses.
pub fn propose(units: &[Unit], edges: &[ComponentEdge], uses: &[TechnologyUse]) -> Proposals {
    let mut proposals = Proposals {
        nodes: nodes(uses),
        ..Proposals::default()
    };
    let names: Vec<&str> = units.iter().map(|unit| unit.name.as_str()).collect();
    let mut out: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for edge in edges {
        out.entry(edge.from.as_str())
            .or_default()
            .insert(edge.to.as_str());
    }
    let reached = reach(&names, &out);
    let (group_of, groups, layer) = condensation(&names, edges, &reached);
    let layer_of = |name: &str| {
        group_of
            .get(name)
            .and_then(|group| layer.get(*group))
            .copied()
            .unwrap_or(0)
    };
    let top = layer.iter().copied().max().unwrap_or(0);
    proposals.layers = (0..=top)
        .map(|level| {
            let mut members: Vec<String> = names
                .iter()
                .filter(|name| layer_of(name) == level)
                .map(|name| (*name).to_owned())
                .collect();
            members.sort();
            members
        })
        .filter(|members| !members.is_empty())
        .collect();
    proposals.cycles = groups
        .iter()
        .filter(|members| members.len() > 1)
        .map(|members| {
            let mut members = members.clone();
            members.sort();
            members
        })
        .collect();
    proposals.cycles.sort();
    // (inside a cycle, facts behind the edge, the rule)
    let mut layering: Vec<(bool, usize, RuleProposal)> = Vec::new();
    for edge in edges {
        let back = out
            .get(edge.to.as_str())
            .is_some_and(|targets| targets.contains(edge.from.as_str()));
        if back {
            continue;
        }
        let cycle = group_of
            .get(&edge.from)
            .filter(|group| group_of.get(&edge.to) == Some(*group))
            .and_then(|group| groups.get(*group))
            .map_or_else(String::new, |members| {
                format!(
                    "; {} reaches {} only through their cycle of {} components",
                    edge.to,
                    edge.from,
                    members.len()
                )
            });
        let weight = edge.kinds.iter().map(|(_, count)| count).sum();
        let rule = RuleProposal {
            from: edge.to.clone(),
            to: edge.from.clone(),
            evidence: format!(
                "{} from {} to {}, none back (e.g. {}){cycle}",
                describe(&edge.kinds),
                edge.from,
                edge.to,
                edge.example
            ),
        };
        layering.push((!cycle.is_empty(), weight, rule));
    }
    // A dense graph has more one-way edges than anyone reviews: keep the edges between layers
    // before those inside a cycle, and the best-evidenced first.
    if layering.len() > MAX_LAYERING_RULES {
        layering.sort_by(|a, b| {
            (a.0, std::cmp::Reverse(a.1), &a.2.from, &a.2.to).cmp(&(
                b.0,
                std::cmp::Reverse(b.1),
                &b.2.from,
                &b.2.to,
            ))
        });
        let left_out = layering.len() - MAX_LAYERING_RULES;
        layering.truncate(MAX_LAYERING_RULES);
        proposals.notes.push(format!(
            "{left_out} more one-way edges could each be denied the same way; the {MAX_LAYERING_RULES} \
             proposed are those between layers first, then those inside a cycle, most facts first."
        ));
    }
    proposals.layering = layering.into_iter().map(|(_, _, rule)| rule).collect();
    proposals.layering.sort_by(|a, b| {
        (layer_of(&a.from), &a.from, layer_of(&a.to), &a.to).cmp(&(
            layer_of(&b.from),
            &b.from,
            layer_of(&b.to),
            &b.to,
        ))
    });
    proposals.ui = ui_rules(units, &proposals.nodes, uses);
    proposals
}

/// The component graph's strongly connected groups (the components each one reaches and is
/// reached by), each component's group, and each group's layer: one above the highest group it
/// uses (0: uses no other group).
fn condensation(
    names: &[&str],
    edges: &[ComponentEdge],
    reached: &BTreeMap<String, BTreeSet<String>>,
) -> (BTreeMap<String, usize>, Vec<Vec<String>>, Vec<usize>) {
    let reaches = |a: &str, b: &str| reached.get(a).is_some_and(|set| set.contains(b));
    let mut group_of: BTreeMap<String, usize> = BTreeMap::new();
    let mut groups: Vec<Vec<String>> = Vec::new();
    for name in names {
        if group_of.contains_key(*name) {
            continue;
        }
        let members: Vec<String> = names
            .iter()
            .filter(|other| reaches(name, other) && reaches(other, name))
            .map(|other| (*other).to_owned())
            .collect();
        for member in &members {
            group_of.insert(member.clone(), groups.len());
        }
        groups.push(members);
    }
    // Layers: a group's layer is one above the highest group it uses (0: uses no other group).
    let mut layer = vec![0_usize; groups.len()];
    for _ in 0..groups.len() {
        for edge in edges {
            let (Some(from), Some(to)) = (group_of.get(&edge.from), group_of.get(&edge.to)) else {
                continue;
            };
            let below = layer.get(*to).copied().unwrap_or(0) + 1;
            if from != to {
                if let Some(slot) = layer.get_mut(*from) {
                    *slot = (*slot).max(below);
                }
            }
        }
    }
    (group_of, groups, layer)
}

/// `deny flow U -> store` for each UI-like unit and each data store it does not use today.
fn ui_rules(units: &[Unit], nodes: &[NodeProposal], uses: &[TechnologyUse]) -> Vec<RuleProposal> {
    let mut rules = Vec::new();
    for unit in units {
        let Some(word) = ui_word(unit) else {
            continue;
        };
        for node in nodes.iter().filter(|node| node.is_data_store()) {
            let used = uses.iter().any(|found| {
                found.subject.as_deref() == Some(unit.name.as_str())
                    && node.clients.contains_key(&found.package)
            });
            if used {
                continue;
            }
            rules.push(RuleProposal {
                from: unit.name.clone(),
                to: node.name.clone(),
                evidence: format!(
                    "{} looks like UI (`{word}` in `{}`) and no code of it uses {} today",
                    unit.name, unit.dir, node.name
                ),
            });
        }
    }
    rules
}

/// A list of strings as spec values: `"a"` or `["a", "b"]`.
fn quoted(values: &[String]) -> String {
    match values {
        [one] => format!("\"{one}\""),
        _ => format!(
            "[{}]",
            values
                .iter()
                .map(|value| format!("\"{value}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// "src/db/pool.ts (and 3 more files)": the first file outside hidden folders, if any.
fn files_of(files: &BTreeSet<String>) -> String {
    let hidden = |file: &&String| file.starts_with('.') || file.contains("/.");
    let first = files
        .iter()
        .find(|file| !hidden(file))
        .or_else(|| files.iter().next())
        .cloned()
        .unwrap_or_default();
    match files.len() {
        0 | 1 => first,
        2 => format!("{first} (and 1 more file)"),
        count => format!("{first} (and {} more files)", count - 1),
    }
}

/// The spec text.
pub fn render(layout: &Layout, proposals: &Proposals) -> String {
    let mut text = String::new();
    text.push_str(
        "// A starter spec written by `lintel init` from what this repository shows today.\n\
         // Review it: keep the rules that say what you mean, delete the rest, name things your\n\
         // way; then run `lintel check --all`. What each part is and why: docs/INIT.md.\n",
    );
    for note in layout.notes.iter().chain(&proposals.notes) {
        let _ = writeln!(text, "// Note: {note}");
    }
    if !layout.tests.0.is_empty() {
        let _ = writeln!(
            text,
            "\n// Tests may cross the layers: they are left out of the architecture ({} file{}).\nexclude {}",
            layout.tests.1,
            if layout.tests.1 == 1 { "" } else { "s" },
            quoted(&layout.tests.0)
        );
    }
    let _ = writeln!(
        text,
        "\n// Every component runs on one node; split it when the code deploys as several.\nnode {APP_NODE} : server\n"
    );
    if !proposals.nodes.is_empty() {
        text.push_str("// Infrastructure the code uses (definite client uses only).\n");
        for node in &proposals.nodes {
            for (library, files) in &node.clients {
                let _ = writeln!(text, "// {library} in {}", files_of(files));
            }
            let clients: Vec<String> = node.clients.keys().cloned().collect();
            let _ = writeln!(
                text,
                "node {} : {} {{ clients: {} }}",
                node.name,
                node.type_name,
                quoted(&clients)
            );
        }
        text.push('\n');
    }
    let width = layout
        .units
        .iter()
        .map(|unit| unit.name.len())
        .max()
        .unwrap_or(0);
    for unit in &layout.units {
        let _ = writeln!(
            text,
            "// {}, {} source file{}.",
            capitalised(&unit.why),
            unit.files,
            if unit.files == 1 { "" } else { "s" }
        );
        let _ = writeln!(
            text,
            "component {:width$} {{ runs_on: {APP_NODE}  paths: {} }}",
            unit.name,
            quoted(&unit.globs)
        );
    }
    if !proposals.layering.is_empty() {
        text.push_str("\n// The layering the component graph shows today: its strongly connected components, condensed,\n// in layers from the bottom (a component uses only lower layers, or its own cycle):\n");
        for (level, members) in proposals.layers.iter().enumerate() {
            let _ = writeln!(text, "//   {level}: {}", members.join(", "));
        }
        for cycle in &proposals.cycles {
            let _ = writeln!(text, "// In one cycle today: {}.", cycle.join(", "));
        }
        text.push_str("invariant Layering {\n");
        for rule in &proposals.layering {
            let _ = writeln!(
                text,
                "  // {}\n  deny flow {} -> {}",
                rule.evidence, rule.from, rule.to
            );
        }
        text.push_str("}\n");
    }
    if !proposals.ui.is_empty() {
        text.push_str("\n// The UI keeps away from the data stores.\ninvariant DataAccess {\n");
        for rule in &proposals.ui {
            let _ = writeln!(
                text,
                "  // {}\n  deny flow {} -> {}",
                rule.evidence, rule.from, rule.to
            );
        }
        text.push_str("}\n");
    }
    text
}

/// The text with its first letter in upper case.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

#[cfg(test)]
mod tests;
