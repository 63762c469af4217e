//! One walk over the named nodes of a file's tree that does the work of the
//! TypeScript/JavaScript query and of the name-use analysis at once.
//!
//! Running the compiled query costs more than twice a plain cursor walk whatever its patterns
//! (the query cursor computes fields, supertypes and sibling status for every node), and the use
//! analysis walked the tree a second time. This walk recognises the patterns of
//! `queries/javascript/*.scm` and `queries/typescript/*.scm` by hand and returns the same
//! [`QueryHit`]s, in the same order for each fact kind (extractors read the hits kind by kind): a
//! query match is reported when the walk enters the last node of its pattern, so a hit waits in
//! `pending` until the walk enters that node (hits that finish on the same node keep the order of
//! their roots, outer first, then of their patterns). A match whose last node is entered with no
//! other named node in between is reported at that earlier node: a call's callee right after the
//! call, and its first argument right after its argument list. The query files stay the
//! reference: a test runs both on every fixture and compares the hits of each kind.
//!
//! On the way it records how names are used (`usage`) and, for every hit's root, the innermost
//! function, class or object around it (`ScopeFrames`), so that `evidence.scope` needs no walk
//! from the root per fact.
//!
//! The walk does not descend into subtrees that cannot hold anything it looks for ([`Triggers`]):
//! every pattern root spells a character or word of its own (a call `(` or a template, `new`,
//! a decorator `@`, a statement `import`/`export`, a class's `extends`, an assignment `=`), and the name uses matter
//! only for the names imports bind (and `fetch`), which a byte scan finds. Subtrees with syntax
//! errors, and subtrees holding the last node of a pending match, are always entered.

mod constructs;
mod grammar;
mod triggers;

use grammar::*;
use triggers::*;

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use policies::facts::FactKind;
use tree_sitter::{Node, Tree};

use super::named_children;
use super::usage::{self, Metadata, Usage};
use crate::language::Language;
use crate::query::{Field, QueryHit};
use crate::syntax;

/// Whether an identifier is the name a declaration introduces: the `name` of a variable,
/// function or class declaration, the `pattern` of a parameter, any identifier directly in a
/// parameter list, the `left` of a default, the `parameter` of an arrow function.
fn is_declaration(identifier: Node<'_>, parent: &Level<'_>) -> bool {
    if !parent.kind.may_declare() {
        return false;
    }
    let is_field = |field: &str| {
        parent
            .node
            .child_by_field_name(field)
            .is_some_and(|named| named.id() == identifier.id())
    };
    match parent.node.kind() {
        "variable_declarator"
        | "function_declaration"
        | "generator_function_declaration"
        | "class_declaration" => is_field("name"),
        "required_parameter" | "optional_parameter" => is_field("pattern"),
        "formal_parameters" => true,
        "assignment_pattern" => is_field("left"),
        "arrow_function" => is_field("parameter"),
        _ => false,
    }
}

/// A module specifier `require`/`import()` patterns accept: a string or a template literal.
fn is_specifier_literal(grammar: &Grammar, node: Node<'_>) -> bool {
    grammar.named_kind(node) == Kind::String || node.kind() == "template_string"
}

/// A node a wildcard pattern `(_)` matches: named, not an `ERROR`.
fn is_wildcard(node: Node<'_>) -> bool {
    node.is_named() && !node.is_error()
}

/// The functions, classes and object literals around the hits' roots, for `evidence.scope`.
#[derive(Debug, Default)]
pub(super) struct ScopeFrames<'tree> {
    /// One entry per function, class, method or object literal met, with its parent node and
    /// the frame around it.
    frames: Vec<Frame<'tree>>,
    /// The innermost frame among the ancestors of each hit root (absent: none).
    by_node: HashMap<usize, Option<u32>>,
}

#[derive(Debug, Clone, Copy)]
struct Frame<'tree> {
    node: Node<'tree>,
    parent: Option<Node<'tree>>,
    outer: Option<u32>,
}

impl<'tree> ScopeFrames<'tree> {
    /// The innermost frame around `node`'s ancestors when the walk recorded it.
    pub fn frame_of(&self, node: Node<'_>) -> Option<Option<u32>> {
        self.by_node.get(&node.id()).copied()
    }

    /// The frames from `frame` outwards, each with its node's parent.
    pub fn chain(
        &self,
        frame: Option<u32>,
    ) -> impl Iterator<Item = (Node<'tree>, Option<Node<'tree>>)> + '_ {
        let mut next = frame;
        std::iter::from_fn(move || {
            let frame = self.frames.get(usize::try_from(next?).ok()?)?;
            next = frame.outer;
            Some((frame.node, frame.parent))
        })
    }
}

/// What the walk found.
pub(super) struct Walked<'tree, 'source> {
    /// The query matches, in the query's order.
    pub hits: Vec<QueryHit<'tree>>,
    /// How the file uses names.
    pub usage: Usage<'source>,
    /// The scopes around the hits.
    pub scopes: ScopeFrames<'tree>,
    /// Whether subtrees were skipped ([`Triggers`]): `usage` then knows only the names imports
    /// bind and `fetch`.
    #[cfg_attr(not(test), expect(dead_code, reason = "read by the tests"))]
    pub pruned: bool,
}

/// One node on the path from the root to the walk's position.
struct Level<'tree> {
    node: Node<'tree>,
    kind: Kind,
    /// Inside a type position.
    in_type: bool,
    /// The innermost scope frame among this node and its ancestors.
    frame: Option<u32>,
}

/// A match waiting for the walk to enter its last node.
struct Pending<'tree> {
    finish: usize,
    /// The byte range of the last node, so that the walk descends to it.
    finish_range: (usize, usize),
    hit: QueryHit<'tree>,
}

pub(super) use crate::syntax::Fnv;

struct Walker<'g, 'tree, 'source> {
    grammar: &'g Grammar,
    /// `None`: enter every subtree.
    triggers: Option<Triggers>,
    source: &'source str,
    generic: bool,
    hits: Vec<QueryHit<'tree>>,
    pending: Vec<Pending<'tree>>,
    usage: Usage<'source>,
    scopes: ScopeFrames<'tree>,
}

/// Walks `tree` once: the query hits (without the generic `call` and `assignment` ones unless
/// `generic`), the name uses and the scope frames.
pub(super) fn walk<'tree, 'source>(
    language: Language,
    tree: &'tree Tree,
    source: &'source str,
    generic: bool,
) -> Walked<'tree, 'source> {
    let uncached;
    let grammar = match Grammar::cached(language) {
        Some(cell) => cell.get_or_init(|| Grammar::new(&tree.language())),
        None => {
            uncached = Grammar::new(&tree.language());
            &uncached
        }
    };
    let triggers = Triggers::scan(source, tree.root_node(), grammar, generic);
    let pruned = triggers.is_some();
    let mut walker = Walker {
        grammar,
        triggers,
        source,
        generic,
        hits: Vec::new(),
        pending: Vec::new(),
        usage: Usage::default(),
        scopes: ScopeFrames::default(),
    };
    let mut levels: Vec<Level<'tree>> = Vec::new();
    // The named nodes the walk is inside, each with the next of its named children to read; the
    // last of `levels` is the last of them.
    let mut inside: Vec<Children<'tree>> = Vec::new();
    walker.visit(tree.root_node(), &mut levels, &mut inside);
    while let Some(children) = inside.last_mut() {
        // Nothing after the child just left matters: the rest of the parent is not read.
        let rest_matters = children
            .left_at
            .is_none_or(|end| walker.matters_after(end, levels.last()));
        let child = if rest_matters { children.next() } else { None };
        match child {
            Some(child) => {
                children.left_at = Some(child.end_byte());
                walker.visit(child, &mut levels, &mut inside);
            }
            None => {
                inside.pop();
                levels.pop();
            }
        }
    }
    let Walker {
        hits,
        usage,
        scopes,
        ..
    } = walker;
    Walked {
        hits,
        usage,
        scopes,
        pruned,
    }
}

/// The named children of a node the walk is inside, read one at a time by index (a cursor's
/// steps cost several times a `named_child` call), or listed at once with a cursor for a wide
/// node (`walk::WIDE`), where indexing from the first child each time would be quadratic.
struct Children<'tree> {
    node: Node<'tree>,
    /// The index of the next child.
    next: usize,
    count: usize,
    /// A wide node's named children.
    listed: Vec<Node<'tree>>,
    /// The end of the child the walk last left, if any.
    left_at: Option<usize>,
}

impl<'tree> Children<'tree> {
    fn of(node: Node<'tree>) -> Self {
        let count = node.named_child_count();
        let listed = if count > crate::walk::WIDE {
            syntax::named_children(node)
        } else {
            Vec::new()
        };
        Self {
            node,
            next: 0,
            count: if listed.is_empty() {
                count
            } else {
                listed.len()
            },
            listed,
            left_at: None,
        }
    }

    fn next(&mut self) -> Option<Node<'tree>> {
        if self.next >= self.count {
            return None;
        }
        let child = if self.listed.is_empty() {
            self.node.named_child(self.next)
        } else {
            self.listed.get(self.next).copied()
        };
        self.next += 1;
        child
    }
}

impl<'tree, 'source> Walker<'_, 'tree, 'source> {
    /// Reaches the named node `node` (its parent is the last of `levels`): unless nothing in it
    /// matters, enters it and, if anything below it may matter, goes inside (`inside`). Only
    /// named nodes are reached: no pattern node is anonymous, and no anonymous node has named
    /// children in these grammars.
    fn visit(
        &mut self,
        node: Node<'tree>,
        levels: &mut Vec<Level<'tree>>,
        inside: &mut Vec<Children<'tree>>,
    ) {
        if self.is_prunable(node) {
            return;
        }
        let (level, descend) = self.enter(node, levels);
        if descend && !self.is_prunable(node) && self.may_descend(node) {
            levels.push(level);
            inside.push(Children::of(node));
        }
    }

    /// Visits `node` (its parent is the last of `levels`): finishes the matches that end here,
    /// starts those rooted here, records name uses. Returns the node's level and whether to
    /// descend into it.
    fn enter(&mut self, node: Node<'tree>, levels: &[Level<'tree>]) -> (Level<'tree>, bool) {
        if !self.pending.is_empty() {
            self.finish(node.id());
        }
        let kind = self.grammar.kind(node);
        let parent = levels.last();
        let parent_frame = parent.and_then(|parent| parent.frame);
        // The use analysis leaves out imports, comments and re-exports, and no pattern but
        // their own looks inside them.
        let skipped = match kind {
            Kind::ImportStatement | Kind::Comment => true,
            Kind::ExportStatement => self.grammar.child(node, self.grammar.source).is_some(),
            _ => false,
        };
        if node.is_named() {
            self.start_matches(node, kind, parent_frame);
        }
        let frame = if kind.opens_scope() && node.is_named() {
            let index = u32::try_from(self.scopes.frames.len()).ok();
            self.scopes.frames.push(Frame {
                node,
                parent: parent.map(|parent| parent.node),
                outer: parent_frame,
            });
            index
        } else {
            parent_frame
        };
        let mut level = Level {
            node,
            kind,
            in_type: false,
            frame,
        };
        if skipped {
            // No pattern but the statement's own looks inside, and those finished at once.
            return (level, false);
        }
        let in_type = parent.is_some_and(|parent| parent.in_type) || kind.is_type_context();
        level.in_type = in_type;
        match kind {
            Kind::Identifier | Kind::TypeIdentifier | Kind::ShorthandPropertyIdentifier => {
                let name = syntax::text(node, self.source);
                if parent.is_some_and(|parent| is_declaration(node, parent)) {
                    self.usage.declared.insert(name);
                }
                let is_type_position = kind == Kind::TypeIdentifier || in_type;
                let ancestors = levels.iter().rev().map(|level| level.node);
                if !is_type_position {
                    self.usage.value_uses.insert(name);
                } else {
                    match usage::metadata_reference(node, ancestors, self.source) {
                        Metadata::Serialized => {
                            self.usage.value_uses.insert(name);
                        }
                        Metadata::SerializedIfNullable => {
                            self.usage.nullable_metadata_uses.insert(name);
                            self.usage.type_uses.insert(name);
                        }
                        Metadata::No => {
                            self.usage.type_uses.insert(name);
                        }
                    }
                }
                (level, false)
            }
            Kind::ShorthandPropertyIdentifierPattern => {
                self.usage.declared.insert(syntax::text(node, self.source));
                (level, false)
            }
            _ => (level, true),
        }
    }

    /// Whether nothing below `node` matters: no trigger, no syntax error, no pending match's
    /// last node.
    fn is_prunable(&self, node: Node<'_>) -> bool {
        let Some(triggers) = &self.triggers else {
            return false;
        };
        let (start, end) = (node.start_byte(), node.end_byte());
        // A node's own opening `(` or backquote (and a template's closing one) starts no
        // pattern root inside it: such a root has a trigger of its own further in.
        let bytes = self.source.as_bytes();
        let opening = bytes.get(start).copied();
        let inner_start = if matches!(opening, Some(b'(' | b'`')) {
            start + 1
        } else {
            start
        };
        let inner_end = if opening == Some(b'`')
            && end > inner_start
            && bytes.get(end - 1).copied() == Some(b'`')
        {
            end - 1
        } else {
            end
        };
        !triggers.any_within(inner_start, inner_end)
            && !node.has_error()
            && !self
                .pending
                .iter()
                .any(|pending| pending.finish_range.0 >= start && pending.finish_range.1 <= end)
    }

    /// The first offset at or after `from` where something may matter: a trigger or the start of
    /// a pending match's last node.
    fn next_position(&self, from: usize) -> Option<usize> {
        let trigger = self
            .triggers
            .as_ref()
            .and_then(|triggers| triggers.first_from(from));
        let pending = self
            .pending
            .iter()
            .map(|pending| pending.finish_range.0)
            .filter(|start| *start >= from)
            .min();
        match (trigger, pending) {
            (Some(trigger), Some(pending)) => Some(trigger.min(pending)),
            (trigger, pending) => trigger.or(pending),
        }
    }

    /// Whether anything below `node` may matter: a trigger or a pending last node before its
    /// end (the children before the next one hold neither, and are stepped over as prunable).
    /// Inside a subtree with errors, which may hold zero-width missing nodes, always.
    fn may_descend(&self, node: Node<'tree>) -> bool {
        if self.triggers.is_none() || node.has_error() {
            return true;
        }
        self.next_position(node.start_byte())
            .is_some_and(|position| position < node.end_byte())
    }

    /// Whether anything after offset `from` inside `parent` may matter, so that the walk goes on
    /// to the next sibling instead of leaving the parent.
    fn matters_after(&self, from: usize, parent: Option<&Level<'tree>>) -> bool {
        let Some(parent) = parent else {
            return true;
        };
        if self.triggers.is_none() || parent.node.has_error() {
            return true;
        }
        self.next_position(from)
            .is_some_and(|position| position < parent.node.end_byte())
    }

    /// Moves the pending matches that end at node `id` to the hits, in their order.
    fn finish(&mut self, id: usize) {
        while let Some(index) = self.pending.iter().position(|pending| pending.finish == id) {
            let pending = self.pending.remove(index);
            self.hits.push(pending.hit);
        }
    }

    /// A match that ends where nothing else can end before it (inside an import statement the
    /// walk does not enter, at a call's callee): a hit at once.
    fn push_now(
        &mut self,
        kind: FactKind,
        captures: impl IntoIterator<Item = (Field, Node<'tree>)>,
    ) {
        self.hits.push(QueryHit::new(kind, captures));
    }

    fn push(
        &mut self,
        finish: Node<'tree>,
        kind: FactKind,
        captures: impl IntoIterator<Item = (Field, Node<'tree>)>,
    ) {
        self.pending.push(Pending {
            finish: finish.id(),
            finish_range: (finish.start_byte(), finish.end_byte()),
            hit: QueryHit::new(kind, captures),
        });
    }

    /// Starts the matches of every pattern rooted at `node`, in the order of the patterns in the
    /// query files.
    fn start_matches(&mut self, node: Node<'tree>, kind: Kind, frame: Option<u32>) {
        let before = self.pending.len() + self.hits.len();
        match kind {
            Kind::ImportStatement => self.import_statement(node),
            Kind::ExportStatement => {
                // `javascript/imports.scm`: re-exports.
                if let Some(source) = self.string_child(node, self.grammar.source) {
                    self.push_now(
                        FactKind::Import,
                        [(Field::Statement, node), (Field::Specifier, source)],
                    );
                }
            }
            Kind::CallExpression => self.call_expression(node),
            Kind::NewExpression => {
                // `javascript/clients.scm`: constructions (ending at the constructor, the first
                // named child).
                let grammar = self.grammar;
                if let Some(constructor) = grammar.child(node, grammar.constructor).filter(|c| {
                    matches!(
                        grammar.named_kind(*c),
                        Kind::Identifier | Kind::MemberExpression
                    )
                }) {
                    self.push_now(
                        FactKind::AccessesTechnology,
                        [
                            (Field::Construction, node),
                            (Field::Constructor, constructor),
                        ],
                    );
                }
            }
            Kind::Decorator => self.decorator(node),
            Kind::ClassHeritage | Kind::ExtendsClause => self.class_bases(node, kind, frame),
            Kind::AssignmentExpression if self.generic => {
                // `javascript/graph.scm`: assignments to a member.
                let grammar = self.grammar;
                let left = grammar
                    .child(node, grammar.left)
                    .filter(|left| grammar.named_kind(*left) == Kind::MemberExpression);
                let right = grammar
                    .child(node, grammar.right)
                    .filter(|r| is_wildcard(*r));
                if let (Some(left), Some(right)) = (left, right) {
                    if left.end_byte() <= right.start_byte() {
                        self.push(
                            right,
                            FactKind::Assignment,
                            [
                                (Field::Statement, node),
                                (Field::Target, left),
                                (Field::Value, right),
                            ],
                        );
                    }
                }
            }
            Kind::MethodDefinition => {
                let method_frame = u32::try_from(self.scopes.frames.len()).ok();
                self.constructor_injection(node, method_frame);
            }
            _ => {}
        }
        if self.pending.len() + self.hits.len() > before {
            self.scopes.by_node.insert(node.id(), frame);
        }
    }
}

#[cfg(test)]
mod trigger_tests {
    use super::Triggers;

    /// `first_from` answers as a binary search does, for queries in document order with the
    /// walk's small steps back, and for queries that jump anywhere.
    #[test]
    fn the_first_trigger_from_an_offset_is_the_binary_search_one() {
        let positions: Vec<usize> = (0..200).map(|index| index * 7 + index % 3).collect();
        let triggers = Triggers {
            positions: positions.clone(),
            hint: std::cell::Cell::new(0),
        };
        let expected = |from: usize| {
            positions
                .get(positions.partition_point(|position| *position < from))
                .copied()
        };
        // Document order, each start asked again one byte on (a node's own parenthesis).
        for from in (0..1500).flat_map(|from| [from, from + 1, from]) {
            assert_eq!(triggers.first_from(from), expected(from), "{from}");
        }
        // Jumps back and far ahead.
        let mut from = 1_400;
        for _ in 0..500 {
            from = (from * 31 + 17) % 1_500;
            assert_eq!(triggers.first_from(from), expected(from), "{from}");
        }
    }
}
