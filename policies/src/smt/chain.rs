//! Ground chain encodings (see Chains under `invariant` in policies/LANGUAGE.md): a witness chain of the file graph, its edge
//! facts, and the instances of the path axioms along it, with no quantifier left to instantiate.
//!
//! A chain `f0 → f1 → … → t` runs from a file `f0` of component `A` to a file `t` of `B` or to
//! the entity `B`. Files are constants of the `Entity` sort, `|file:<path>|`: vertices of the
//! file graph, like the entities a chain may end at. The slice holds:
//!
//! | source | tracked assertion | role |
//! |---|---|---|
//! | file f owned by C | `(owned_by f C)` | fact (mapping) |
//! | the edge fact of hop i | `(edge v_i v_i+1)` | fact |
//! | the last hop | `(=> (edge v t) (R v t))` | axiom instance |
//! | every earlier hop | `(=> (and (edge v_i v_i+1) cond(v_i+1) (R v_i+1 t)) (R v_i t))` | axiom instance |
//! | the endpoints | `(=> (and (owned_by f0 A) (owned_by t B) (R f0 t)) (R A B))` | axiom instance |
//!
//! `R` is `reach` (any chain; `cond` is `true`), `free` (a bypass of the via set:
//! `cond(v)` = `(not (via v))` for the files strictly inside) or `unauth_reach` (no vertex after
//! the first has auth: `cond(v)` = `(not (has_auth v))`, the last hop included). A condition on a
//! file comes from its component: `(=> (and (owned_by f C) (not (via C))) (not (via f)))` with
//! the axiom `(not (via C))` for a component outside the via set (and the same with `has_auth`,
//! whose `(not (has_auth C))` is a spec fact); a file no component owns is outside every via set
//! and has no auth (an axiom each).
//!
//! Every assertion the chain adds is needed: each derives the one atom the next step needs (the
//! chain is simple, so no atom has a second derivation), so the minimal core holds them all
//! whenever the rule's conclusion is needed. They are marked [`super::TrackedAssertion::necessary`].

use std::collections::BTreeSet;

use super::slice::{conjunction, AssertionRole, SliceBuilder};
use super::symbol::quote_symbol;

/// A vertex of a witness chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChainVertex<'a> {
    /// A project file and its owner component, if any.
    File {
        /// Project-relative path.
        path: &'a str,
        /// The owner component.
        owner: Option<&'a str>,
    },
    /// A declared entity (a node or resource the chain ends at).
    Entity(&'a str),
}

/// One hop of a chain: the fact that establishes the edge into the next vertex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainHop {
    /// The core name of the edge fact.
    pub name: String,
    /// The graph fact id.
    pub fact_id: Option<String>,
}

/// What a chain proves about its endpoints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChainRelation<'a> {
    /// `(reach A B)`: a chain.
    Reach,
    /// `(free A B)`: a chain whose interior avoids the via set.
    Bypass {
        /// The via set.
        via: &'a [String],
    },
    /// `(unauth_reach A B)`: a chain on which no vertex after the first has auth.
    Unauthenticated,
}

impl ChainRelation<'_> {
    fn function(self) -> &'static str {
        match self {
            Self::Reach => "reach",
            Self::Bypass { .. } => "free",
            Self::Unauthenticated => "unauth_reach",
        }
    }

    fn condition(self) -> Option<&'static str> {
        match self {
            Self::Reach => None,
            Self::Bypass { .. } => Some("via"),
            Self::Unauthenticated => Some("has_auth"),
        }
    }
}

impl SliceBuilder {
    /// The constant of a file vertex, `|file:<path>|` of sort `Entity`.
    pub fn file(&mut self, path: &str) -> String {
        self.unnamed("Entity", "file", path)
    }

    fn vertex(&mut self, vertex: ChainVertex<'_>) -> String {
        match vertex {
            ChainVertex::File { path, .. } => self.file(path),
            ChainVertex::Entity(name) => self.entity(name),
        }
    }

    fn vertex_name(vertex: ChainVertex<'_>) -> &str {
        match vertex {
            ChainVertex::File { path, .. } => path,
            ChainVertex::Entity(name) => name,
        }
    }

    fn necessary(
        &mut self,
        role: AssertionRole,
        name: String,
        formula: String,
        id: Option<String>,
    ) {
        self.track(role, name, formula, id);
        self.mark_last_necessary();
    }

    fn ownership(&mut self, path: &str, owner: &str, owned: &mut BTreeSet<String>) -> String {
        let file = self.file(path);
        let component = self.entity(owner);
        let formula = format!("(owned_by {file} {component})");
        if owned.insert(path.to_owned()) {
            self.necessary(
                AssertionRole::Fact,
                format!("mapping: `{path}` belongs to `{owner}`"),
                formula.clone(),
                None,
            );
        }
        formula
    }

    /// Asserts the chain `vertices` (joined by `hops`, one fewer) from component `from` to `to`
    /// and the ground path axioms that make it `relation` between them (module doc).
    /// `vertices` starts with a file owned by `from` and ends with a file owned by `to` or with
    /// the entity `to`; a chain of the wrong shape adds nothing.
    pub fn chain(
        &mut self,
        relation: ChainRelation<'_>,
        from: &str,
        to: &str,
        vertices: &[ChainVertex<'_>],
        hops: &[ChainHop],
    ) {
        if hops.is_empty() || hops.len() + 1 != vertices.len() {
            return;
        }
        let (Some(ChainVertex::File { path: first, .. }), Some(&last)) =
            (vertices.first(), vertices.last())
        else {
            return;
        };
        self.function("edge", "(declare-fun edge (Entity Entity) Bool)");
        self.function("owned_by", "(declare-fun owned_by (Entity Entity) Bool)");
        let function = relation.function();
        self.function(
            function,
            &format!("(declare-fun {function} (Entity Entity) Bool)"),
        );
        let mut owned = BTreeSet::new();
        let start = self.ownership(first, from, &mut owned);
        let end = match last {
            ChainVertex::File { path, .. } => Some(self.ownership(path, to, &mut owned)),
            ChainVertex::Entity(_) => None,
        };
        let symbols: Vec<String> = vertices.iter().map(|vertex| self.vertex(*vertex)).collect();
        for (pair, hop) in symbols.windows(2).zip(hops) {
            let (Some(a), Some(b)) = (pair.first(), pair.get(1)) else {
                continue;
            };
            self.necessary(
                AssertionRole::Fact,
                hop.name.clone(),
                format!("(edge {a} {b})"),
                hop.fact_id.clone(),
            );
        }
        // The condition on each vertex the relation asks it of.
        let conditions = self.conditions(relation, vertices, &mut owned);
        let Some(target) = symbols.last().cloned() else {
            return;
        };
        let last_name = Self::vertex_name(last).to_owned();
        for position in (0..hops.len()).rev() {
            let (Some(a), Some(b)) = (symbols.get(position), symbols.get(position + 1)) else {
                continue;
            };
            let name_a = vertices
                .get(position)
                .map(|vertex| Self::vertex_name(*vertex).to_owned())
                .unwrap_or_default();
            let mut premises = vec![format!("(edge {a} {b})")];
            if let Some(Some(condition)) = conditions.get(position + 1) {
                premises.push(condition.clone());
            }
            let (formula, name) = if position + 1 == hops.len() {
                (
                    format!("(=> {} ({function} {a} {b}))", conjunction(&premises)),
                    format!("axiom: an edge is a `{function}` step (`{name_a}` -> `{last_name}`)"),
                )
            } else {
                premises.push(format!("({function} {b} {target})"));
                (
                    format!("(=> {} ({function} {a} {target}))", conjunction(&premises)),
                    format!(
                        "axiom: an edge followed by a `{function}` chain is one (from `{name_a}`)"
                    ),
                )
            };
            self.necessary(AssertionRole::Axiom, name, formula, None);
        }
        let source = self.entity(from);
        let destination = self.entity(to);
        let first_symbol = symbols.first().cloned().unwrap_or_default();
        let mut premises = vec![start];
        premises.extend(end);
        premises.push(format!("({function} {first_symbol} {target})"));
        self.necessary(
            AssertionRole::Axiom,
            format!("axiom: a chain from a file of `{from}` to `{to}` is a `{function}` path between them"),
            format!(
                "(=> {} ({function} {source} {destination}))",
                conjunction(&premises)
            ),
            None,
        );
    }

    /// The condition formula of each vertex (by position) the relation constrains, with the
    /// assertions that establish it.
    fn conditions(
        &mut self,
        relation: ChainRelation<'_>,
        vertices: &[ChainVertex<'_>],
        owned: &mut BTreeSet<String>,
    ) -> Vec<Option<String>> {
        let Some(predicate) = relation.condition() else {
            return Vec::new();
        };
        self.function(
            predicate,
            &format!("(declare-fun {predicate} (Entity) Bool)"),
        );
        let last = vertices.len().saturating_sub(1);
        let mut established: BTreeSet<String> = BTreeSet::new();
        let mut conditions = Vec::with_capacity(vertices.len());
        for (position, vertex) in vertices.iter().enumerate() {
            let constrained = match relation {
                ChainRelation::Bypass { .. } => position > 0 && position < last,
                _ => position > 0,
            };
            if !constrained {
                conditions.push(None);
                continue;
            }
            let symbol = self.vertex(*vertex);
            let condition = format!("(not ({predicate} {symbol}))");
            match *vertex {
                ChainVertex::File {
                    path,
                    owner: Some(owner),
                } => {
                    let owner_symbol = self.entity(owner);
                    let owner_condition = format!("(not ({predicate} {owner_symbol}))");
                    if established.insert(owner.to_owned()) {
                        self.component_condition(relation, owner, owner_condition.clone());
                    }
                    let ownership = self.ownership(path, owner, owned);
                    self.necessary(
                        AssertionRole::Axiom,
                        format!("axiom: a file of `{owner}` is as its component (`{path}`)"),
                        format!("(=> (and {ownership} {owner_condition}) {condition})"),
                        None,
                    );
                }
                ChainVertex::File { path, owner: None } => {
                    let what = match relation {
                        ChainRelation::Bypass { .. } => "is outside the via set",
                        _ => "has no auth",
                    };
                    self.necessary(
                        AssertionRole::Axiom,
                        format!("axiom: `{path}` belongs to no component, so it {what}"),
                        condition.clone(),
                        None,
                    );
                }
                ChainVertex::Entity(name) => {
                    if established.insert(name.to_owned()) {
                        self.component_condition(relation, name, condition.clone());
                    }
                }
            }
            conditions.push(Some(condition));
        }
        conditions
    }

    /// The axiom that `entity` is outside the via set (a handler outside it, whose data starts a
    /// bypass).
    pub fn outside_via(&mut self, entity: &str, via: &[String]) {
        self.function("via", "(declare-fun via (Entity) Bool)");
        let symbol = self.entity(entity);
        self.component_condition(
            ChainRelation::Bypass { via },
            entity,
            format!("(not (via {symbol}))"),
        );
    }

    /// `(not (via E))` (an axiom: E is outside the via set) or `(not (has_auth E))` (a spec fact).
    fn component_condition(&mut self, relation: ChainRelation<'_>, entity: &str, formula: String) {
        match relation {
            ChainRelation::Bypass { via } => {
                self.necessary(
                    AssertionRole::Axiom,
                    format!(
                        "axiom: `{entity}` is not in the via set {{{}}}",
                        via.join(", ")
                    ),
                    formula,
                    None,
                );
            }
            ChainRelation::Unauthenticated => {
                self.necessary(
                    AssertionRole::Fact,
                    format!("spec: {entity} has no auth"),
                    formula,
                    None,
                );
            }
            ChainRelation::Reach => {}
        }
    }
}

/// The symbol of a file vertex (for tests and readers of slice text).
pub fn file_symbol(path: &str) -> String {
    quote_symbol(&format!("file:{path}"))
}
