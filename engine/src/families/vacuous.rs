//! The check-time warning `vacuous-rule` (see `policies::error::Code`): a flow, reach, via,
//! data-flow, data-policy or trust-policy rule that cannot fail on this project because an
//! endpoint it names meets no fact — a component that owns no file, or a node or resource that
//! no fact targets (`deny flow Ui -> db` where no database client is found anywhere). A rule
//! over trust levels is vacuous when no entity of one of its levels meets a fact. A node whose
//! clients are recognised only in files no component owns is named with the first such file.
//!
//! Given with every scope (it is about the whole project), once per rule; the rule's
//! `rule_coverage` status is untouched.

use std::collections::{BTreeMap, BTreeSet};

use policies::facts::{Fact, FactKind};
use policies::model::{Model, Rule, RuleBody, RuleKind, Trust};

use crate::graph::component_graph::FlowGraph;
use crate::graph::targets::quoted;
use crate::verdict::Warning;

/// What the endpoints of one rule are.
enum Endpoints<'r> {
    /// Named entities.
    Entities(Vec<&'r str>),
    /// Every entity of these trust levels.
    Trusts(Vec<Trust>),
}

fn endpoints(rule: &Rule) -> Option<Endpoints<'_>> {
    let endpoints = match (&rule.body, rule.kind) {
        (
            RuleBody::Pair { from, to },
            RuleKind::DenyFlow
            | RuleKind::DenyReach
            | RuleKind::DenyUnauthenticatedFlow
            | RuleKind::DenyUnencryptedFlow,
        )
        | (RuleBody::PairVia { from, to, .. }, _) => Endpoints::Entities(vec![from, to]),
        (RuleBody::DataTo { to, .. }, _) => Endpoints::Entities(vec![to]),
        (RuleBody::Jurisdiction { entity, .. }, _) => Endpoints::Entities(vec![entity]),
        (RuleBody::Classification { trust, .. }, _) => Endpoints::Trusts(vec![*trust]),
        (RuleBody::TrustBoundary { from, to }, _)
        | (RuleBody::TrustDataFlow { from, to, .. }, _) => Endpoints::Trusts(vec![*from, *to]),
        _ => return None,
    };
    Some(endpoints)
}

/// Which entities meet a fact: components that own a file, and nodes and resources that some
/// flow edge enters.
struct Met<'a> {
    owning: BTreeSet<&'a str>,
    targeted: BTreeSet<&'a str>,
}

impl Met<'_> {
    fn entity(&self, model: &Model, name: &str) -> bool {
        match model.component(name) {
            Some(_) => self.owning.contains(name),
            None => self.targeted.contains(name),
        }
    }
}

/// The first fact (by file and position) of a client of `category` (a node's type) in a file
/// no component owns.
fn unowned_use<'f>(facts: &'f [Box<Fact>], category: &str) -> Option<&'f Fact> {
    facts
        .iter()
        .map(Box::as_ref)
        .filter(|fact| {
            fact.kind == FactKind::AccessesTechnology
                && fact.subject.is_none()
                && fact.technology.as_deref().is_some_and(|technology| {
                    crate::graph::targets::category_types(technology).contains(&category)
                })
        })
        .min_by(|a, b| {
            (&a.evidence.file, a.evidence.line, a.evidence.column).cmp(&(
                &b.evidence.file,
                b.evidence.line,
                b.evidence.column,
            ))
        })
}

/// Why an entity meets no fact, for the message.
fn why_not(model: &Model, name: &str, facts: &[Box<Fact>]) -> String {
    if model.component(name).is_some() {
        return format!("component `{name}` owns no file");
    }
    let (kind, entity) = match model.node(name) {
        Some(node) => ("node", node),
        None => match model.resource(name) {
            Some(resource) => ("resource", resource),
            None => return format!("`{name}` meets no fact"),
        },
    };
    let category = &entity.type_name;
    let is_api = crate::graph::targets::category_types("external_api").contains(&category.as_str());
    if let Some(fact) =
        unowned_use(facts, category).filter(|_| entity.clients.is_empty() && entity.urls.is_empty())
    {
        // Its clients are known, in code no component owns (a shared folder the spec's
        // components leave out): binding a library would not help.
        return format!(
            "no fact targets {kind} `{name}` (category `{category}`): its clients were recognised only in files no component owns (first `{}:{}`)",
            fact.evidence.file, fact.evidence.line
        );
    }
    if entity.clients.is_empty() && entity.urls.is_empty() {
        let or_urls = if is_api {
            format!(", or its requests with `urls: \"https://host/**\"` (or the variable that holds its URL) on `{name}`")
        } else {
            String::new()
        };
        format!(
            "no fact targets {kind} `{name}` (category `{category}`): no client of it was recognised; if the code uses a library lintel does not know, bind it with `clients: \"<library>\"` on `{name}`{or_urls}"
        )
    } else if entity.clients.is_empty() {
        format!(
            "no fact targets {kind} `{name}` (category `{category}`): no request matches its `urls` ({})",
            quoted(&entity.urls)
        )
    } else {
        format!(
            "no fact targets {kind} `{name}` (category `{category}`): no use of its `clients` ({}) was found",
            quoted(&entity.clients)
        )
    }
}

/// Whether some entity of trust level `trust` meets a fact.
fn trust_met(model: &Model, met: &Met<'_>, trust: Trust) -> bool {
    let infra = model.nodes.iter().chain(&model.resources);
    infra
        .filter(|entity| entity.trust == Some(trust))
        .any(|entity| met.targeted.contains(entity.name.as_str()))
        || model.components.iter().any(|component| {
            let node_trust = model
                .node(&component.runs_on)
                .or_else(|| model.resource(&component.runs_on))
                .and_then(|node| node.trust);
            node_trust == Some(trust) && met.owning.contains(component.name.as_str())
        })
}

/// One `vacuous-rule` warning per rule that cannot fail on this project.
pub fn warnings(
    model: &Model,
    graph: &FlowGraph,
    owners: &BTreeMap<String, String>,
    facts: &[Box<Fact>],
) -> Vec<Warning> {
    let met = Met {
        owning: owners.values().map(String::as_str).collect(),
        targeted: graph
            .edges
            .values()
            .flat_map(|targets| targets.keys())
            .map(String::as_str)
            .collect(),
    };
    let mut warnings = Vec::new();
    for rule in &model.rules {
        let Some(endpoints) = endpoints(rule) else {
            continue;
        };
        let reasons: Vec<String> = match endpoints {
            Endpoints::Entities(names) => {
                let mut seen = BTreeSet::new();
                names
                    .into_iter()
                    .filter(|name| seen.insert(*name) && !met.entity(model, name))
                    .map(|name| why_not(model, name, facts))
                    .collect()
            }
            Endpoints::Trusts(levels) => levels
                .into_iter()
                .filter(|level| !trust_met(model, &met, *level))
                .map(|level| {
                    format!(
                        "no entity of trust `{}` meets a fact (no owned file, no targeting fact)",
                        level.as_str()
                    )
                })
                .collect(),
        };
        if reasons.is_empty() {
            continue;
        }
        warnings.push(Warning {
            code: "vacuous-rule".into(),
            message: format!(
                "`{}` cannot fail on this project: {}",
                rule.text,
                reasons.join("; ")
            ),
            file: Some(rule.source.file.clone()),
            line: Some(rule.source.line),
            invariant: Some(rule.declaration.clone()),
            rule: Some(rule.text.clone()),
            ..Warning::default()
        });
    }
    warnings
}
