//! One `TreeCursor` walk that finds the matches of the Rust query files (`queries/rust/*.scm`)
//! without running the query.
//!
//! As for Python (`crate::lang::python::walk`): the query cursor costs several times a plain cursor
//! walk. This walk recognises the patterns by hand and returns the same [`QueryHit`]s in the same
//! order for each fact kind (`rust_web` reads routes and HTTP calls together, which this order
//! also keeps): a match is reported when the walk enters the last node of its pattern, and
//! matches that end on the same node keep their pattern order. The query files stay the
//! reference: a test runs both on every Rust fixture and compares the hits.
//!
//! The patterns, by the node that ends them:
//! - a `use_declaration` → `import` (`statement`); the `name` of a `mod_item` without a body, an
//!   `identifier` → `import` (`statement`, `specifier`);
//! - the `function` of a `call_expression`, a `scoped_identifier` or `identifier` →
//!   `accesses_technology` (`call`, `function`);
//! - the `arguments` of a `call_expression`: `x.route(…)`/`x.to(…)` routes, `reqwest::get(…)`
//!   and `x.get(…)`-style HTTP calls, and (generic) any call;
//! - the `arguments` token tree of an `attribute` inside an `attribute_item` whose name is an
//!   HTTP verb (`#[get("/x")]`) → `route` (`decorator`, `method`, `arguments`);
//! - the `right` of an `assignment_expression` whose `left` is a `field_expression` →
//!   `assignment` (generic).

use std::sync::OnceLock;

use policies::facts::FactKind;
use tree_sitter::{Node, Tree};

use crate::query::{Field, QueryHit};
use crate::syntax;
use crate::walk::{kind_in, kind_table, preorder, wild};

/// The node kinds the walk tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Other,
    UseDeclaration,
    ModItem,
    Call,
    Arguments,
    Identifier,
    ScopedIdentifier,
    FieldExpression,
    FieldIdentifier,
    Assignment,
    AttributeItem,
    Attribute,
    TokenTree,
    Comment,
}

/// Rust node kind ids → [`Kind`], by name (one name may have several ids).
fn kinds() -> &'static [Kind] {
    static KINDS: OnceLock<Vec<Kind>> = OnceLock::new();
    KINDS.get_or_init(|| {
        kind_table(
            &tree_sitter_rust::LANGUAGE.into(),
            Kind::Other,
            |name| match name {
                "use_declaration" => Kind::UseDeclaration,
                "mod_item" => Kind::ModItem,
                "call_expression" => Kind::Call,
                "arguments" => Kind::Arguments,
                "identifier" => Kind::Identifier,
                "scoped_identifier" => Kind::ScopedIdentifier,
                "field_expression" => Kind::FieldExpression,
                "field_identifier" => Kind::FieldIdentifier,
                "assignment_expression" => Kind::Assignment,
                "attribute_item" => Kind::AttributeItem,
                "attribute" => Kind::Attribute,
                "token_tree" => Kind::TokenTree,
                "line_comment" | "block_comment" => Kind::Comment,
                _ => Kind::Other,
            },
        )
    })
}

crate::walk::field_table!(tree_sitter_rust::LANGUAGE.into();
    Alias => "alias",
    Argument => "argument",
    Arguments => "arguments",
    Body => "body",
    Field => "field",
    Function => "function",
    Left => "left",
    List => "list",
    Macro => "macro",
    Name => "name",
    Path => "path",
    Pattern => "pattern",
    Type => "type",
    Value => "value",
);

/// The kinds whose children's fields the matcher reads (no other field is asked for).
const FIELD_PARENTS: &[Kind] = &[Kind::ModItem, Kind::Call, Kind::Attribute, Kind::Assignment];

fn kind_of(node: Node<'_>, kinds: &[Kind]) -> Kind {
    kind_in(node, kinds, Kind::Other)
}

const VERBS: [&str; 6] = ["get", "post", "put", "patch", "delete", "head"];

/// The hits of the Rust query files on `tree`; without `generic`, those of `graph.scm` (`call`
/// and `assignment`) are left out, as the query compiled without that file does.
pub(crate) fn hits<'tree>(tree: &'tree Tree, source: &str, generic: bool) -> Vec<QueryHit<'tree>> {
    let kinds = kinds();
    let mut hits = Vec::new();
    preorder(tree, kinds, FIELD_PARENTS, |node, field, ancestors| {
        let kind = kind_of(node, kinds);
        if kind == Kind::UseDeclaration {
            hits.push(QueryHit::new(FactKind::Import, [(Field::Statement, node)]));
        }
        if let Some(parent) = ancestors.last().map(|(parent, _)| *parent) {
            let parent_kind = kind_of(parent, kinds);
            match (field, parent_kind) {
                (Some("name"), Kind::ModItem)
                    if kind == Kind::Identifier && field_child(parent, Child::Body).is_none() =>
                {
                    hits.push(QueryHit::new(
                        FactKind::Import,
                        [(Field::Statement, parent), (Field::Specifier, node)],
                    ));
                }
                (Some("function"), Kind::Call)
                    if matches!(kind, Kind::Identifier | Kind::ScopedIdentifier) =>
                {
                    hits.push(QueryHit::new(
                        FactKind::AccessesTechnology,
                        [(Field::Call, parent), (Field::Function, node)],
                    ));
                }
                (Some("arguments"), Kind::Call) if kind == Kind::Arguments => {
                    arguments_hits(&mut hits, parent, node, source, kinds, generic);
                }
                (Some("arguments"), Kind::Attribute) if kind == Kind::TokenTree => {
                    let item = ancestors
                        .len()
                        .checked_sub(2)
                        .and_then(|index| ancestors.get(index))
                        .map(|(node, _)| *node)
                        .filter(|item| kind_of(*item, kinds) == Kind::AttributeItem);
                    if let Some(item) = item {
                        attribute_route(&mut hits, item, parent, node, source, kinds);
                    }
                }
                (Some("right"), Kind::Assignment) if generic && wild(node) => {
                    if let Some(left) = field_child(parent, Child::Left)
                        .filter(|left| kind_of(*left, kinds) == Kind::FieldExpression)
                    {
                        hits.push(QueryHit::assignment(parent, left, node));
                    }
                }
                _ => {}
            }
        }
        // No pattern ends below a token tree (macro and attribute arguments: only tokens and
        // nested token trees; the tree itself is visited, attribute routes end on it), a
        // `use` declaration (only paths; the import pattern is the declaration) or a comment.
        !matches!(kind, Kind::TokenTree | Kind::UseDeclaration | Kind::Comment)
    });
    hits
}

/// The matches that end at the `arguments` of `call`, in pattern order.
fn arguments_hits<'tree>(
    hits: &mut Vec<QueryHit<'tree>>,
    call: Node<'tree>,
    arguments: Node<'tree>,
    source: &str,
    kinds: &[Kind],
    generic: bool,
) {
    let Some(function) = field_child(call, Child::Function) else {
        return;
    };
    let text = |node: Node<'_>| syntax::text(node, source);
    let function_kind = kind_of(function, kinds);
    // `value.field(…)` callees, the field a name.
    let method_call = (function_kind == Kind::FieldExpression)
        .then(|| {
            let value = field_child(function, Child::Value).filter(|value| wild(*value))?;
            let field = field_child(function, Child::Field)
                .filter(|field| kind_of(*field, kinds) == Kind::FieldIdentifier)?;
            Some((value, field))
        })
        .flatten();
    // web.scm: `.route(…)`/`.to(…)`.
    if let Some((value, field)) = method_call {
        if matches!(text(field), "route" | "to") {
            hits.push(QueryHit::new(
                FactKind::Route,
                [
                    (Field::Call, call),
                    (Field::Receiver, value),
                    (Field::Method, field),
                    (Field::Arguments, arguments),
                ],
            ));
        }
    }
    // web.scm: `reqwest::get(…)`.
    if function_kind == Kind::ScopedIdentifier {
        let path = field_child(function, Child::Path).filter(|path| wild(*path));
        let name = field_child(function, Child::Name)
            .filter(|name| kind_of(*name, kinds) == Kind::Identifier);
        if let (Some(path), Some(name)) = (path, name) {
            if text(path).starts_with("reqwest") && text(name) == "get" {
                hits.push(QueryHit::new(
                    FactKind::HttpCall,
                    [
                        (Field::Call, call),
                        (Field::Receiver, path),
                        (Field::Method, name),
                        (Field::Arguments, arguments),
                    ],
                ));
            }
        }
    }
    // web.scm: `client.get(…)`-style calls.
    if let Some((value, field)) = method_call {
        if VERBS.contains(&text(field)) {
            hits.push(QueryHit::new(
                FactKind::HttpCall,
                [
                    (Field::Call, call),
                    (Field::Receiver, value),
                    (Field::Method, field),
                    (Field::Arguments, arguments),
                ],
            ));
        }
    }
    // graph.scm: every call.
    if generic && wild(function) {
        hits.push(QueryHit::new(
            FactKind::Call,
            [
                (Field::Call, call),
                (Field::Function, function),
                (Field::Arguments, arguments),
            ],
        ));
    }
}

/// web.scm: `#[get("/x")]`: an `identifier` child of the attribute before its `arguments`.
fn attribute_route<'tree>(
    hits: &mut Vec<QueryHit<'tree>>,
    item: Node<'tree>,
    attribute: Node<'tree>,
    arguments: Node<'tree>,
    source: &str,
    kinds: &[Kind],
) {
    let mut cursor = attribute.walk();
    let methods: Vec<Node<'tree>> = attribute
        .named_children(&mut cursor)
        .take_while(|child| child.id() != arguments.id())
        .filter(|child| {
            kind_of(*child, kinds) == Kind::Identifier
                && VERBS.contains(&syntax::text(*child, source))
        })
        .collect();
    for method in methods {
        hits.push(QueryHit::new(
            FactKind::Route,
            [
                (Field::Decorator, item),
                (Field::Method, method),
                (Field::Arguments, arguments),
            ],
        ));
    }
}

#[cfg(test)]
mod tests;
