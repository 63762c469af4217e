//! `assignment` facts (the fact schema, `policies::facts`): plain `o.p = value` writes to a member, with the
//! enum member written (`valueEnum`/`valueMember`) and, when the syntax tree proves the state
//! before the write, the guard (`guardEnum`/`previousMember`).
//!
//! The guard is found by walking outward from the assignment to the enclosing function, innermost
//! construct first:
//! - (a) the then-branch of an `if` whose condition is `o.p == E.K` (`===`, `is E.K`), or an
//!   `&&` conjunction with such a conjunct;
//! - (b) the arm of a `switch`/`when`/`match` on `o.p` whose only label is `E.K` and that no
//!   previous arm falls into (a Kotlin `when` without subject reads its condition as in (a));
//! - (c) an earlier statement of an enclosing block `if (o.p != E.K) return|throw` (`!==`,
//!   `!(o.p == E.K)`, a negated `is`).
//!
//! A write to the same `o.p` in an earlier statement of any enclosing sequence (a block, an arm)
//! ends the search with no guard: the state is no longer the one tested. Else-branches, negated
//! conditions, disjunctions and arms with several labels never give a guard, and the object must
//! be the same identifier chain (`this.order.status` is not `order.status`).

use policies::facts::{Confidence, Fact, FactKind};
use tree_sitter::Node;

use super::{CallsAndAssignmentsGrammar, Condition, FileSyntax, Ranks, TEXT_LIMIT};
use crate::facts::{set, FactFactory};
use crate::query::{Field, QueryHit};
use crate::syntax;

/// How deep `&&` chains are followed (far from any stack limit).
const MAX_CONDITION_DEPTH: usize = 64;

/// One member assignment of the file.
struct Site<'tree> {
    node: Node<'tree>,
    object: String,
    property: String,
    value: Node<'tree>,
    /// The setter method, when the write is a setter call.
    setter: Option<String>,
}

/// The `assignment` facts of a file's assignment hits, and of its setter calls among
/// `call_hits`.
pub(super) fn facts(
    factory: &FactFactory<'_>,
    grammar: &dyn CallsAndAssignmentsGrammar,
    hits: &[&QueryHit<'_>],
    call_hits: &[&QueryHit<'_>],
    file: &FileSyntax<'_, '_>,
) -> Vec<Fact> {
    let source = file.source;
    let setters = call_hits.iter().filter_map(|hit| {
        let call = hit.node(Field::Call)?;
        let (object, property, value) = grammar.setter(call, source)?;
        Some(Site {
            node: call,
            object: syntax::compact_text(object, source, TEXT_LIMIT),
            property,
            value,
            setter: hit
                .node(Field::Method)
                .map(|method| syntax::text(method, source).to_owned()),
        })
    });
    let sites: Vec<Site<'_>> = hits
        .iter()
        .filter_map(|hit| {
            let (object, property) = grammar.member(hit.node(Field::Target)?)?;
            Some(Site {
                node: hit.node(Field::Statement)?,
                object: syntax::compact_text(object, source, TEXT_LIMIT),
                property: grammar.name(property, source),
                value: hit.node(Field::Value)?,
                setter: None,
            })
        })
        .chain(setters)
        .collect();
    let mut facts = Vec::new();
    let mut ranks = Ranks::default();
    for site in &sites {
        // Counted before the run's queries choose: a write keeps its id whichever are made.
        let rank = ranks.next(site.node);
        if !factory.generic().wants_assignment(&site.property) {
            continue;
        }
        let value_enum = grammar.enum_member(site.value, source).or_else(|| {
            let member = grammar.shorthand_member(site.value, source)?;
            Some((
                grammar.shorthand_enum(&site.property).unwrap_or_default(),
                member,
            ))
        });
        let guard = Guard {
            grammar,
            source,
            site,
            value_enum: value_enum.as_ref().map(|(enum_name, _)| enum_name.as_str()),
        };
        let previous = guard.find(file.root, &sites);
        let place = format!("{}.{}", site.object, site.property);
        let mut fact = factory.fact(
            FactKind::Assignment,
            site.node,
            Confidence::Definite,
            (file.scope_of)(site.node),
            format!("assignment to `{place}`"),
        );
        Ranks::mark(&mut fact, rank);
        set(&mut fact, "object", site.object.as_str());
        set(&mut fact, "property", site.property.as_str());
        set(
            &mut fact,
            "value",
            syntax::compact_text(site.value, source, TEXT_LIMIT),
        );
        if let Some(setter) = &site.setter {
            set(&mut fact, "setter", setter.as_str());
        }
        // An empty enum is a shorthand member whose enum is unknown (Swift's `.paid`).
        if let Some((enum_name, member)) = value_enum {
            if !enum_name.is_empty() {
                set(&mut fact, "valueEnum", enum_name);
            }
            set(&mut fact, "valueMember", member);
        }
        if let Some((enum_name, member)) = previous {
            if !enum_name.is_empty() {
                set(&mut fact, "guardEnum", enum_name);
            }
            set(&mut fact, "previousMember", member);
        }
        facts.push(fact);
    }
    facts
}

/// The guard search for one assignment.
struct Guard<'a> {
    grammar: &'a dyn CallsAndAssignmentsGrammar,
    source: &'a str,
    site: &'a Site<'a>,
    /// The enum of the assigned value, for bare case labels.
    value_enum: Option<&'a str>,
}

impl Guard<'_> {
    /// The `(E, K)` the syntax around the assignment proves `o.p` holds before it.
    fn find(&self, root: Node<'_>, sites: &[Site<'_>]) -> Option<(String, String)> {
        let writes: Vec<Node<'_>> = sites
            .iter()
            .filter(|other| {
                other.node.id() != self.site.node.id()
                    && other.object == self.site.object
                    && other.property == self.site.property
            })
            .map(|other| other.node)
            .collect();
        let mut child = self.site.node;
        for ancestor in syntax::ancestors(root, self.site.node).into_iter().rev() {
            if self.grammar.is_function(ancestor) {
                return None;
            }
            if let Some(branch) = self.grammar.branch(ancestor) {
                if branch.consequence.id() == child.id() {
                    if let Some(found) = self.positive(branch.condition, MAX_CONDITION_DEPTH) {
                        return Some(found);
                    }
                }
            } else if let Some(arm) = self.grammar.arm(ancestor) {
                let is_label = arm.labels.iter().any(|label| label.id() == child.id());
                if let (false, [label]) = (is_label, arm.labels.as_slice()) {
                    let found = match arm.subject {
                        Some(subject) if !arm.is_fallthrough_target && self.is_place(subject) => {
                            self.member_of(*label)
                        }
                        Some(_) => None,
                        None => self.positive(*label, MAX_CONDITION_DEPTH),
                    };
                    if found.is_some() {
                        return found;
                    }
                }
            }
            if !self.grammar.is_branching(ancestor) {
                // The statements before `child`, nearest first: listed from the parent once,
                // where each `prev_named_sibling` would walk down from the root again.
                let siblings = syntax::named_children(ancestor);
                let before = siblings
                    .iter()
                    .position(|sibling| sibling.id() == child.id())
                    .and_then(|position| siblings.get(..position))
                    .unwrap_or_default();
                for statement in before.iter().rev() {
                    if writes.iter().any(|write| contains(*statement, *write)) {
                        return None;
                    }
                    if let Some(found) = self.early_exit(*statement) {
                        return Some(found);
                    }
                }
            }
            child = ancestor;
        }
        None
    }

    /// `(E, K)` when `statement` is `if (o.p != E.K) return|throw`.
    fn early_exit(&self, statement: Node<'_>) -> Option<(String, String)> {
        let branch = self.grammar.branch(statement)?;
        if !self.grammar.is_exit(branch.consequence) {
            return None;
        }
        match self.grammar.condition(branch.condition, self.source) {
            Condition::Equal {
                left,
                right,
                is_negated: true,
            } => self.compared(left, right),
            Condition::Is {
                subject,
                pattern,
                is_negated: true,
            } if self.is_place(subject) => self.member_of(pattern),
            Condition::Not(inner) => match self.grammar.condition(inner, self.source) {
                Condition::Equal {
                    left,
                    right,
                    is_negated: false,
                } => self.compared(left, right),
                Condition::Is {
                    subject,
                    pattern,
                    is_negated: false,
                } if self.is_place(subject) => self.member_of(pattern),
                _ => None,
            },
            _ => None,
        }
    }

    /// `(E, K)` when `condition` asserts `o.p == E.K`, alone or as a conjunct.
    fn positive(&self, condition: Node<'_>, depth: usize) -> Option<(String, String)> {
        let depth = depth.checked_sub(1)?;
        match self.grammar.condition(condition, self.source) {
            Condition::And(left, right) => self
                .positive(left, depth)
                .or_else(|| self.positive(right, depth)),
            Condition::Equal {
                left,
                right,
                is_negated: false,
            } => self.compared(left, right),
            Condition::Is {
                subject,
                pattern,
                is_negated: false,
            } if self.is_place(subject) => self.member_of(pattern),
            _ => None,
        }
    }

    /// The member compared with `o.p`, on either side.
    fn compared(&self, left: Node<'_>, right: Node<'_>) -> Option<(String, String)> {
        if self.is_place(left) {
            self.member_of(right)
        } else if self.is_place(right) {
            self.member_of(left)
        } else {
            None
        }
    }

    /// Whether `node` is the assigned place `o.p` (or its getter `o.getP()`).
    fn is_place(&self, node: Node<'_>) -> bool {
        let is_member = self.grammar.member(node).is_some_and(|(object, property)| {
            syntax::compact_text(object, self.source, TEXT_LIMIT) == self.site.object
                && self.grammar.name(property, self.source) == self.site.property
        });
        is_member
            || self
                .grammar
                .getter(node, self.source)
                .is_some_and(|(object, property)| {
                    syntax::compact_text(object, self.source, TEXT_LIMIT) == self.site.object
                        && property == self.site.property
                })
    }

    /// `(E, K)` of an enum member, or of a bare member of the assigned value's enum; a shorthand
    /// member (Swift's `.paid`) takes the value's enum, else the property's, else none (`""`).
    fn member_of(&self, node: Node<'_>) -> Option<(String, String)> {
        if let Some(found) = self.grammar.enum_member(node, self.source) {
            return Some(found);
        }
        if let Some(member) = self.grammar.shorthand_member(node, self.source) {
            let enum_name = self
                .value_enum
                .filter(|enum_name| !enum_name.is_empty())
                .map(str::to_owned)
                .or_else(|| self.grammar.shorthand_enum(&self.site.property))
                .unwrap_or_default();
            return Some((enum_name, member));
        }
        let member = self.grammar.bare_member(node, self.source)?;
        Some((self.value_enum?.to_owned(), member))
    }
}

/// Whether `inner` lies within `outer`.
fn contains(outer: Node<'_>, inner: Node<'_>) -> bool {
    outer.start_byte() <= inner.start_byte() && inner.end_byte() <= outer.end_byte()
}
