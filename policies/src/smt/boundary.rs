//! Encodings of the module-boundary rules (`kinds::boundary`): closed components, public
//! interfaces, cycles and unresolved imports.
//!
//! | source | tracked assertion | role |
//! |---|---|---|
//! | component edge fact A→X | `(edge A X)` | fact |
//! | file f owned by C | `(owned_by f C)` | fact (mapping) |
//! | file f not owned by B | `(not (owned_by f B))` | fact (mapping) |
//! | file t of B that no `public` glob matches | `(not (public t))` | fact (spec) |
//! | component C in a layer or role vertex G | `(in_group C G)` | fact (spec) |
//! | hop i of a witness cycle | `(=> (and (edge a b) [(in_group a Gi)] [(in_group b Gi+1)]) (step Gi Gi+1))` | axiom instance |
//! | the closure along the cycle | `(=> (step v w) (cycle_reach v v0))`, `(=> (and (step v w) (cycle_reach w v0)) (cycle_reach v v0))` | axiom instances |
//! | unresolved import of s in f | `(unresolved f s)` | fact |

use super::slice::{conjunction, disjunction, AssertionRole, SliceBuilder};

/// A vertex of a witness cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CycleVertex<'a> {
    /// A component, itself a vertex of the rule.
    Component(&'a str),
    /// A layer or role vertex (`layer Web`).
    Group(&'a str),
    /// A file (`deny cycle within`).
    File(&'a str),
}

/// One hop of a witness cycle: the edge fact from a member of one vertex to a member of the
/// next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CycleHop {
    /// The core name of the edge fact.
    pub name: String,
    /// The graph fact id.
    pub fact_id: Option<String>,
    /// The edge's source: a component (or the file, for file cycles).
    pub from: String,
    /// The edge's target.
    pub to: String,
}

impl SliceBuilder {
    /// DependsOn(C, allowed): `(forall ((x Entity)) (=> (edge C x) (or (= x D1) …)))`.
    pub fn deny_undeclared(&mut self, name: String, component: &str, allowed: &[String]) {
        self.function("edge", "(declare-fun edge (Entity Entity) Bool)");
        let source = self.entity(component);
        let options: Vec<String> = allowed
            .iter()
            .map(|entity| format!("(= x {})", self.entity(entity)))
            .collect();
        let formula = format!(
            "(forall ((x Entity)) (=> (edge {source} x) {}))",
            disjunction(&options)
        );
        self.track(AssertionRole::Rule, name, formula, None);
    }

    /// PublicInterface(B): an edge from outside B into a file of B ends at a public file.
    pub fn require_public(&mut self, name: String, component: &str) {
        self.function("edge", "(declare-fun edge (Entity Entity) Bool)");
        self.function("owned_by", "(declare-fun owned_by (Entity Entity) Bool)");
        self.function("public", "(declare-fun public (Entity) Bool)");
        let owner = self.entity(component);
        let formula = format!(
            "(forall ((f Entity) (t Entity)) (=> (and (edge f t) (owned_by t {owner}) (not (owned_by f {owner}))) (public t)))"
        );
        self.track(AssertionRole::Rule, name, formula, None);
    }

    /// The facts of one import into B: `(owned_by f A)` is recorded as `(not (owned_by f B))`,
    /// and for each reached file t of B, `(edge f t)`, `(owned_by t B)` and `(not (public t))`.
    pub fn deep_import(
        &mut self,
        edge_name: String,
        fact_id: Option<String>,
        (file, owner): (&str, &str),
        component: &str,
        reached: &[String],
    ) {
        self.function("edge", "(declare-fun edge (Entity Entity) Bool)");
        self.function("owned_by", "(declare-fun owned_by (Entity Entity) Bool)");
        self.function("public", "(declare-fun public (Entity) Bool)");
        let source = self.file(file);
        let target_owner = self.entity(component);
        self.track(
            AssertionRole::Fact,
            format!("mapping: `{file}` belongs to `{owner}`, not to `{component}`"),
            format!("(not (owned_by {source} {target_owner}))"),
            None,
        );
        for target in reached {
            let symbol = self.file(target);
            self.track(
                AssertionRole::Fact,
                edge_name.clone(),
                format!("(edge {source} {symbol})"),
                fact_id.clone(),
            );
            self.track(
                AssertionRole::Fact,
                format!("mapping: `{target}` belongs to `{component}`"),
                format!("(owned_by {symbol} {target_owner})"),
                None,
            );
            self.track(
                AssertionRole::Fact,
                format!("spec: `{target}` matches no `public` glob of `{component}`"),
                format!("(not (public {symbol}))"),
                None,
            );
        }
    }

    /// DenyCycle: `(forall ((x Entity)) (not (cycle_reach x x)))`, or for the files of some
    /// components `(forall ((x Entity)) (=> (owned_by x C) (not (cycle_reach x x))))` (with one
    /// `owned_by` per component under an `or`).
    pub fn deny_cycle(&mut self, name: String, owners: Option<&[String]>) {
        self.function(
            "cycle_reach",
            "(declare-fun cycle_reach (Entity Entity) Bool)",
        );
        let formula = match owners {
            Some(components) if !components.is_empty() => {
                self.function("owned_by", "(declare-fun owned_by (Entity Entity) Bool)");
                let owned: Vec<String> = components
                    .iter()
                    .map(|component| format!("(owned_by x {})", self.entity(component)))
                    .collect();
                let owned = match owned.as_slice() {
                    [one] => one.clone(),
                    _ => format!("(or {})", owned.join(" ")),
                };
                format!("(forall ((x Entity)) (=> {owned} (not (cycle_reach x x))))")
            }
            _ => "(forall ((x Entity)) (not (cycle_reach x x)))".to_owned(),
        };
        self.track(AssertionRole::Rule, name, formula, None);
    }

    fn cycle_vertex(&mut self, vertex: CycleVertex<'_>) -> String {
        match vertex {
            CycleVertex::Component(name) => self.entity(name),
            CycleVertex::Group(name) => self.unnamed("Entity", "group", name),
            CycleVertex::File(path) => self.file(path),
        }
    }

    /// A witness cycle `v0 → v1 → … → v0`: `vertices` holds v0 … vk-1 and `hops` the k edges
    /// (hop i from vertex i to vertex i+1, the last back to v0). `owner` names the component
    /// that owns v0 when the rule is restricted to some components' files (its
    /// `(owned_by v0 C)` is asserted).
    pub fn cycle(&mut self, vertices: &[CycleVertex<'_>], hops: &[CycleHop], owner: Option<&str>) {
        if vertices.len() < 2 || hops.len() != vertices.len() {
            return;
        }
        self.function("edge", "(declare-fun edge (Entity Entity) Bool)");
        self.function("step", "(declare-fun step (Entity Entity) Bool)");
        self.function(
            "cycle_reach",
            "(declare-fun cycle_reach (Entity Entity) Bool)",
        );
        let symbols: Vec<String> = vertices
            .iter()
            .map(|vertex| self.cycle_vertex(*vertex))
            .collect();
        let Some(first) = symbols.first().cloned() else {
            return;
        };
        if let (Some(component), Some(CycleVertex::File(path))) = (owner, vertices.first()) {
            self.function("owned_by", "(declare-fun owned_by (Entity Entity) Bool)");
            let owner = self.entity(component);
            self.track(
                AssertionRole::Fact,
                format!("mapping: `{path}` belongs to `{component}`"),
                format!("(owned_by {first} {owner})"),
                None,
            );
            self.mark_last_necessary();
        }
        let mut grouped: std::collections::BTreeSet<(String, String)> = Default::default();
        let mut steps: Vec<String> = Vec::with_capacity(hops.len());
        for (position, hop) in hops.iter().enumerate() {
            let (Some(here), Some(there)) = (
                symbols.get(position),
                symbols.get((position + 1) % symbols.len()),
            ) else {
                return;
            };
            let (Some(vertex), Some(next)) = (
                vertices.get(position),
                vertices.get((position + 1) % vertices.len()),
            ) else {
                return;
            };
            let (source, target) = match vertex {
                CycleVertex::File(_) => (here.clone(), there.clone()),
                _ => (self.entity(&hop.from), self.entity(&hop.to)),
            };
            self.track(
                AssertionRole::Fact,
                hop.name.clone(),
                format!("(edge {source} {target})"),
                hop.fact_id.clone(),
            );
            self.mark_last_necessary();
            let mut premises = vec![format!("(edge {source} {target})")];
            for (member, group_vertex, symbol) in
                [(&hop.from, vertex, here), (&hop.to, next, there)]
            {
                if let CycleVertex::Group(group) = group_vertex {
                    self.function("in_group", "(declare-fun in_group (Entity Entity) Bool)");
                    let member_symbol = self.entity(member);
                    let formula = format!("(in_group {member_symbol} {symbol})");
                    if grouped.insert((member.clone(), (*group).to_owned())) {
                        self.track(
                            AssertionRole::Fact,
                            format!("spec: `{member}` is in `{group}`"),
                            formula.clone(),
                            None,
                        );
                        self.mark_last_necessary();
                    }
                    premises.push(formula);
                }
            }
            let step = format!("(step {here} {there})");
            self.track(
                AssertionRole::Axiom,
                format!(
                    "axiom: an edge between members is a step between vertices (hop {})",
                    position + 1
                ),
                format!("(=> {} {step})", conjunction(&premises)),
                None,
            );
            self.mark_last_necessary();
            steps.push(step);
        }
        for position in (0..hops.len()).rev() {
            let (Some(here), Some(step)) = (symbols.get(position), steps.get(position)) else {
                continue;
            };
            let formula = if position + 1 == hops.len() {
                format!("(=> {step} (cycle_reach {here} {first}))")
            } else {
                let Some(there) = symbols.get(position + 1) else {
                    continue;
                };
                format!(
                    "(=> (and {step} (cycle_reach {there} {first})) (cycle_reach {here} {first}))"
                )
            };
            self.track(
                AssertionRole::Axiom,
                format!(
                    "axiom: a step followed by a path back is a path back (hop {})",
                    position + 1
                ),
                formula,
                None,
            );
            self.mark_last_necessary();
        }
    }

    /// DenyUnresolvedImport(C): `(forall ((f Entity) (s Specifier)) (=> (owned_by f C) (not (unresolved f s))))`.
    pub fn deny_unresolved(&mut self, name: String, component: &str) {
        self.function("owned_by", "(declare-fun owned_by (Entity Entity) Bool)");
        self.function(
            "unresolved",
            "(declare-fun unresolved (Entity Specifier) Bool)",
        );
        let owner = self.entity(component);
        let formula = format!(
            "(forall ((f Entity) (s Specifier)) (=> (owned_by f {owner}) (not (unresolved f s))))"
        );
        self.track(AssertionRole::Rule, name, formula, None);
    }

    /// The facts of an unresolved import: `(owned_by f C)` and `(unresolved f s)`.
    pub fn unresolved_import(
        &mut self,
        name: String,
        fact_id: Option<String>,
        (file, component): (&str, &str),
        specifier: &str,
    ) {
        self.function("owned_by", "(declare-fun owned_by (Entity Entity) Bool)");
        self.function(
            "unresolved",
            "(declare-fun unresolved (Entity Specifier) Bool)",
        );
        let symbol = self.file(file);
        let owner = self.entity(component);
        self.track(
            AssertionRole::Fact,
            format!("mapping: `{file}` belongs to `{component}`"),
            format!("(owned_by {symbol} {owner})"),
            None,
        );
        let specifier = self.unnamed("Specifier", "specifier", specifier);
        self.track(
            AssertionRole::Fact,
            name,
            format!("(unresolved {symbol} {specifier})"),
            fact_id,
        );
    }
}
