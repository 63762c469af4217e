//! One `TreeCursor` walk that finds the matches of the Swift query files (`queries/swift/*.scm`)
//! without running the query.
//!
//! As for Python (`crate::lang::python::walk`): the query cursor costs several times a plain cursor
//! walk, and compiling the Swift query alone took about 90 ms per run. This walk recognises the
//! patterns by hand and returns the same [`QueryHit`]s in the same order for each fact kind
//! (`swift_web` reads routes and HTTP calls together, which this order also keeps): a match is
//! reported when the walk enters the last node of its pattern, and matches that end on the same
//! node keep their pattern order. The query files stay the reference: a test runs both on every
//! Swift fixture and compares the hits.
//!
//! The patterns, by the node that ends them:
//! - an `import_declaration` → `import` (`statement`);
//! - the first named child of a `call_expression`, a `simple_identifier` or
//!   `navigation_expression` → `accesses_technology` (`call`, `function`);
//! - the `suffix` name of the `navigation_suffix` of a `navigation_expression` whose `target` is
//!   a `simple_identifier` (`Type.member`) → `accesses_technology` (`construction`, `type`,
//!   `method`);
//! - a `call_suffix` of a `call_expression`: for every earlier `navigation_expression` child
//!   `x.m`, a route (`m` an HTTP verb) and an HTTP call (`m` a `URLSession` method); and
//!   (generic) a call whose callee is the first named child and the `call_suffix` the next;
//! - the `result` of a `=` `assignment` whose target holds a `navigation_expression` →
//!   `assignment` (generic), one per such child.

use std::sync::OnceLock;

use policies::facts::FactKind;
use tree_sitter::{Node, Tree};

use crate::query::{Field, QueryHit};
use crate::syntax;
use crate::syntax::ChildField;
use crate::walk::{kind_in, kind_table, preorder, wild};

/// The node kinds the walk tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Other,
    Import,
    Call,
    CallSuffix,
    Navigation,
    NavigationSuffix,
    SimpleIdentifier,
    Assignment,
    Assignable,
}

/// Swift node kind ids → [`Kind`], by name (one name may have several ids).
fn kinds() -> &'static [Kind] {
    static KINDS: OnceLock<Vec<Kind>> = OnceLock::new();
    KINDS.get_or_init(|| {
        kind_table(
            &tree_sitter_swift::LANGUAGE.into(),
            Kind::Other,
            |name| match name {
                "import_declaration" => Kind::Import,
                "call_expression" => Kind::Call,
                "call_suffix" => Kind::CallSuffix,
                "navigation_expression" => Kind::Navigation,
                "navigation_suffix" => Kind::NavigationSuffix,
                "simple_identifier" => Kind::SimpleIdentifier,
                "assignment" => Kind::Assignment,
                "directly_assignable_expression" => Kind::Assignable,
                _ => Kind::Other,
            },
        )
    })
}

/// The kinds whose children's fields the matcher reads (no other field is asked for).
const FIELD_PARENTS: &[Kind] = &[Kind::NavigationSuffix, Kind::Navigation, Kind::Assignment];

fn kind_of(node: Node<'_>, kinds: &[Kind]) -> Kind {
    kind_in(node, kinds, Kind::Other)
}

const ROUTE_METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];
const SESSION_METHODS: [&str; 8] = [
    "data",
    "dataTask",
    "download",
    "downloadTask",
    "upload",
    "uploadTask",
    "bytes",
    "request",
];

/// The hits of the Swift query files on `tree`; without `generic`, those of `graph.scm` (`call`
/// and `assignment`) are left out, as the query compiled without that file does.
pub(crate) fn hits<'tree>(tree: &'tree Tree, source: &str, generic: bool) -> Vec<QueryHit<'tree>> {
    let kinds = kinds();
    let mut hits = Vec::new();
    preorder(tree, kinds, FIELD_PARENTS, |node, field, ancestors| {
        let kind = kind_of(node, kinds);
        if kind == Kind::Import {
            hits.push(QueryHit::new(FactKind::Import, [(Field::Statement, node)]));
        }
        if let Some(&(parent, parent_field)) = ancestors.last() {
            match kind_of(parent, kinds) {
                Kind::Call
                    if matches!(kind, Kind::SimpleIdentifier | Kind::Navigation)
                        && first_named_child(parent)
                            .is_some_and(|first| first.id() == node.id()) =>
                {
                    hits.push(QueryHit::new(
                        FactKind::AccessesTechnology,
                        [(Field::Call, parent), (Field::Function, node)],
                    ));
                }
                Kind::Call if kind == Kind::CallSuffix => {
                    call_suffix_hits(&mut hits, parent, node, source, kinds, generic);
                }
                Kind::NavigationSuffix
                    if field == Some("suffix")
                        && kind == Kind::SimpleIdentifier
                        && parent_field == Some("suffix") =>
                {
                    let navigation = ancestors
                        .len()
                        .checked_sub(2)
                        .and_then(|index| ancestors.get(index))
                        .map(|(navigation, _)| *navigation)
                        .filter(|navigation| kind_of(*navigation, kinds) == Kind::Navigation);
                    let target = navigation.and_then(|navigation| {
                        navigation
                            .child_field("target")
                            .filter(|target| kind_of(*target, kinds) == Kind::SimpleIdentifier)
                    });
                    if let (Some(navigation), Some(target)) = (navigation, target) {
                        hits.push(QueryHit::new(
                            FactKind::AccessesTechnology,
                            [
                                (Field::Construction, navigation),
                                (Field::Type, target),
                                (Field::Method, node),
                            ],
                        ));
                    }
                }
                Kind::Assignment if generic && field == Some("result") && wild(node) => {
                    assignment_hits(&mut hits, parent, node, kinds);
                }
                _ => {}
            }
        }
        true
    });
    hits
}

fn first_named_child(node: Node<'_>) -> Option<Node<'_>> {
    node.named_child(0)
}

/// The matches that end at a `call_suffix` of `call`, in pattern order.
fn call_suffix_hits<'tree>(
    hits: &mut Vec<QueryHit<'tree>>,
    call: Node<'tree>,
    suffix: Node<'tree>,
    source: &str,
    kinds: &[Kind],
    generic: bool,
) {
    let mut cursor = call.walk();
    let before: Vec<Node<'tree>> = call
        .named_children(&mut cursor)
        .take_while(|child| child.id() != suffix.id())
        .collect();
    // `x.m` callees before the suffix: (navigation, receiver, method name node).
    let members: Vec<(Node<'tree>, Node<'tree>, Node<'tree>)> = before
        .iter()
        .filter(|child| kind_of(**child, kinds) == Kind::Navigation)
        .filter_map(|navigation| {
            let receiver = navigation
                .child_field("target")
                .filter(|target| wild(*target))?;
            let navigation_suffix = navigation
                .child_field("suffix")
                .filter(|suffix| kind_of(*suffix, kinds) == Kind::NavigationSuffix)?;
            let method = navigation_suffix
                .child_field("suffix")
                .filter(|method| kind_of(*method, kinds) == Kind::SimpleIdentifier)?;
            Some((*navigation, receiver, method))
        })
        .collect();
    for (table, kind) in [
        (&ROUTE_METHODS[..], FactKind::Route),
        (&SESSION_METHODS[..], FactKind::HttpCall),
    ] {
        for (_, receiver, method) in &members {
            if table.contains(&syntax::text(*method, source)) {
                hits.push(QueryHit::new(
                    kind,
                    [
                        (Field::Call, call),
                        (Field::Receiver, *receiver),
                        (Field::Method, *method),
                        (Field::Arguments, suffix),
                    ],
                ));
            }
        }
    }
    // graph.scm: the callee first, the suffix right after it.
    if generic {
        if let [function] = before.as_slice() {
            if matches!(
                kind_of(*function, kinds),
                Kind::SimpleIdentifier | Kind::Navigation
            ) {
                hits.push(QueryHit::new(
                    FactKind::Call,
                    [
                        (Field::Call, call),
                        (Field::Function, *function),
                        (Field::Arguments, suffix),
                    ],
                ));
            }
        }
    }
}

/// graph.scm: `x.y = value`, one hit per `navigation_expression` child of the target.
fn assignment_hits<'tree>(
    hits: &mut Vec<QueryHit<'tree>>,
    statement: Node<'tree>,
    value: Node<'tree>,
    kinds: &[Kind],
) {
    if statement
        .child_field("operator")
        .is_none_or(|operator| operator.kind() != "=")
    {
        return;
    }
    let Some(target) = statement
        .child_field("target")
        .filter(|target| kind_of(*target, kinds) == Kind::Assignable)
    else {
        return;
    };
    let mut cursor = target.walk();
    for navigation in target
        .named_children(&mut cursor)
        .filter(|child| kind_of(*child, kinds) == Kind::Navigation)
    {
        hits.push(QueryHit::assignment(statement, navigation, value));
    }
}

#[cfg(test)]
mod tests;
