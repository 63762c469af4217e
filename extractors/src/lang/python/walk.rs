//! One `TreeCursor` walk that finds the matches of the Python query files
//! (`queries/python/*.scm`) without running the query.
//!
//! The query cursor costs several times a plain cursor walk (it tracks fields, supertypes and
//! sibling state for every node and every pattern), and every Python call is a candidate of the
//! client pattern, so on a real Django project the query cost a fifth of the whole run. The
//! patterns are few and shallow, so this walk recognises them by hand and returns the same
//! [`QueryHit`]s in the same order for each fact kind (the extractors read the hits kind by kind;
//! `python_web` reads routes and HTTP calls together, which this order also keeps): a match is
//! reported when the walk enters the last node of its pattern, and matches that end on the same
//! node keep the order of their roots, outer first, then of their patterns. The query files stay
//! the reference: a test runs both on every Python fixture and compares the hits.
//!
//! The patterns, by the node that ends them:
//! - `import_statement`, `import_from_statement` → `import` (`statement`);
//! - the `function` of a `call`, an `identifier` or `attribute` → `accesses_technology`
//!   (`call`, `function`);
//! - the `arguments` of a `call` → `call` (generic; `call`, `function`, `arguments`); when it is an
//!   `argument_list`: a FastAPI/Flask decorator route (`decorator`, `receiver`, `method`,
//!   `arguments`), a Django `path`/`re_path` route, an `include_router`/`register_blueprint`
//!   mount or an `add_url_rule`/`add_api_route` registration, a `requests`/`httpx` call;
//! - the `right` of an `assignment` whose `left` is an `attribute` → `assignment` (generic).

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
    Import,
    Call,
    Attribute,
    Identifier,
    ArgumentList,
    Decorator,
    Assignment,
    String,
    TypedParameter,
    ExpressionStatement,
    Block,
    ClassDefinition,
    FunctionDefinition,
    TypeAlias,
}

/// Python node kind ids → [`Kind`], by name (one name may have several ids).
fn kinds() -> &'static [Kind] {
    static KINDS: OnceLock<Vec<Kind>> = OnceLock::new();
    KINDS.get_or_init(|| {
        kind_table(
            &tree_sitter_python::LANGUAGE.into(),
            Kind::Other,
            |name| match name {
                "import_statement" | "import_from_statement" => Kind::Import,
                "call" => Kind::Call,
                "attribute" => Kind::Attribute,
                "identifier" => Kind::Identifier,
                "argument_list" => Kind::ArgumentList,
                "decorator" => Kind::Decorator,
                "assignment" => Kind::Assignment,
                "string" => Kind::String,
                "typed_parameter" | "typed_default_parameter" => Kind::TypedParameter,
                "expression_statement" => Kind::ExpressionStatement,
                "block" => Kind::Block,
                "class_definition" => Kind::ClassDefinition,
                "function_definition" => Kind::FunctionDefinition,
                "type_alias_statement" => Kind::TypeAlias,
                _ => Kind::Other,
            },
        )
    })
}

/// The kinds whose children's fields the matcher reads (no other field is asked for).
const FIELD_PARENTS: &[Kind] = &[Kind::Call, Kind::Assignment];

fn kind_of(node: Node<'_>, kinds: &[Kind]) -> Kind {
    kind_in(node, kinds, Kind::Other)
}

crate::walk::field_table!(tree_sitter_python::LANGUAGE.into();
    Function => "function",
    Object => "object",
    Attribute => "attribute",
    Left => "left",
);

const ROUTE_METHODS: [&str; 9] = [
    "get",
    "post",
    "put",
    "patch",
    "delete",
    "head",
    "options",
    "route",
    "api_route",
];
const HTTP_METHODS: [&str; 8] = [
    "get", "post", "put", "patch", "delete", "head", "options", "request",
];

/// The hits of the Python query files on `tree`; without `generic`, those of `graph.scm`
/// (`call` and `assignment`) are left out, as the query compiled without that file does.
#[cfg(test)]
pub(crate) fn hits<'tree>(tree: &'tree Tree, source: &str, generic: bool) -> Vec<QueryHit<'tree>> {
    hits_and_typed(tree, source, generic).0
}

/// The declarations a client may be handed in by, found in the same walk (no query file
/// describes them): the typed parameters of functions, the annotated assignments of class
/// bodies (`db: Session`) and of function bodies (`self.db: Session = db`, for `typed` to tell
/// apart), each with where it stands and the function or class it belongs to (the
/// declarations of one share their enclosing scope).
pub(crate) type Typed<'tree> = Vec<(Node<'tree>, TypedIn, Node<'tree>)>;

/// Where a typed declaration stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TypedIn {
    /// A function's parameter.
    Parameter,
    /// An annotated assignment in a class body.
    Class,
    /// An annotated assignment in a function body.
    Function,
    /// A module-level statement that may define a type alias: `type X = …`, or an assignment
    /// whose text names `Annotated[` or `TypeAlias` (the node is the statement).
    Alias,
}

/// [`hits`], with the typed declarations of the file ([`Typed`]).
pub(crate) fn hits_and_typed<'tree>(
    tree: &'tree Tree,
    source: &str,
    generic: bool,
) -> (Vec<QueryHit<'tree>>, Typed<'tree>) {
    let kinds = kinds();
    let mut hits = Vec::new();
    let mut typed = Vec::new();
    preorder(tree, kinds, FIELD_PARENTS, |node, field, ancestors| {
        let kind = kind_of(node, kinds);
        if kind == Kind::TypedParameter {
            // Its ancestors end with the function and its `parameters`.
            if let Some((function, _)) = ancestors
                .len()
                .checked_sub(2)
                .and_then(|index| ancestors.get(index))
            {
                typed.push((node, TypedIn::Parameter, *function));
            }
        } else if kind == Kind::Assignment {
            if let Some((body, owner)) = annotated_in_body(node, ancestors, kinds, source) {
                typed.push((node, body, owner));
            } else if let [_, (statement, _)] = ancestors {
                let text = source
                    .get(node.start_byte()..node.end_byte())
                    .unwrap_or_default();
                if kind_of(*statement, kinds) == Kind::ExpressionStatement
                    && (text.contains("Annotated[") || text.contains("TypeAlias"))
                {
                    typed.push((*statement, TypedIn::Alias, *statement));
                }
            }
        } else if kind == Kind::TypeAlias && ancestors.len() == 1 {
            typed.push((node, TypedIn::Alias, node));
        }
        if kind == Kind::Import {
            hits.push(QueryHit::new(FactKind::Import, [(Field::Statement, node)]));
        }
        if let (Some(field), Some(parent)) = (field, ancestors.last().map(|(parent, _)| *parent)) {
            let parent_kind = kind_of(parent, kinds);
            match field {
                "function" if parent_kind == Kind::Call => {
                    if matches!(kind, Kind::Identifier | Kind::Attribute) {
                        hits.push(QueryHit::new(
                            FactKind::AccessesTechnology,
                            [(Field::Call, parent), (Field::Function, node)],
                        ));
                    }
                }
                "arguments" if parent_kind == Kind::Call => {
                    let grandparent = ancestors
                        .len()
                        .checked_sub(2)
                        .and_then(|index| ancestors.get(index))
                        .map(|(node, _)| *node);
                    arguments_hits(
                        &mut hits,
                        (parent, node, kind),
                        grandparent,
                        source,
                        kinds,
                        generic,
                    );
                }
                "right" if parent_kind == Kind::Assignment && generic && wild(node) => {
                    if let Some(left) = field_child(parent, Child::Left)
                        .filter(|left| kind_of(*left, kinds) == Kind::Attribute)
                    {
                        hits.push(QueryHit::assignment(parent, left, node));
                    }
                }
                _ => {}
            }
        }
        // No pattern ends below an import (only dotted names and aliases) nor in a string
        // without interpolations: only a format string (an `f` or `t` prefix) has them.
        match kind {
            Kind::Import => false,
            Kind::String => is_format_string(node, source),
            _ => true,
        }
    });
    (hits, typed)
}

/// Whether the string literal `node` may hold interpolations: it is a format string (its
/// prefix, the letters before the quote, holds `f` or `t` in either case, as the grammar's
/// scanner decides), or it does not start as a literal does (a quote within three bytes).
fn is_format_string(node: Node<'_>, source: &str) -> bool {
    let start = source
        .as_bytes()
        .get(node.start_byte()..)
        .unwrap_or_default();
    match start
        .iter()
        .take(4)
        .position(|byte| matches!(byte, b'"' | b'\''))
    {
        Some(quote) => start
            .iter()
            .take(quote)
            .any(|byte| matches!(byte, b'f' | b'F' | b't' | b'T')),
        None => true,
    }
}

/// The matches that end at the `arguments` of `call`, roots outer first, then in pattern order.
fn arguments_hits<'tree>(
    hits: &mut Vec<QueryHit<'tree>>,
    (call, arguments, arguments_kind): (Node<'tree>, Node<'tree>, Kind),
    grandparent: Option<Node<'tree>>,
    source: &str,
    kinds: &[Kind],
    generic: bool,
) {
    let Some(function) = field_child(call, Child::Function) else {
        return;
    };
    let is_list = arguments_kind == Kind::ArgumentList;
    let function_kind = kind_of(function, kinds);
    // `object.attribute` callees: (object, its kind, attribute) when the attribute is a name.
    let member = (function_kind == Kind::Attribute)
        .then(|| {
            let object = field_child(function, Child::Object)?;
            let attribute = field_child(function, Child::Attribute)
                .filter(|attribute| kind_of(*attribute, kinds) == Kind::Identifier)?;
            Some((object, kind_of(object, kinds), attribute))
        })
        .flatten();
    let text = |node: Node<'_>| syntax::text(node, source);
    // web.scm: a FastAPI/Flask decorator (its root, the decorator, is the outermost).
    if let (true, Some(decorator), Some((object, Kind::Identifier, method))) =
        (is_list, grandparent, member)
    {
        if kind_of(decorator, kinds) == Kind::Decorator && ROUTE_METHODS.contains(&text(method)) {
            hits.push(QueryHit::new(
                FactKind::Route,
                [
                    (Field::Decorator, decorator),
                    (Field::Receiver, object),
                    (Field::Method, method),
                    (Field::Arguments, arguments),
                ],
            ));
        }
    }
    // web.scm: Django `path(…)`/`re_path(…)`.
    if is_list && function_kind == Kind::Identifier && matches!(text(function), "path" | "re_path")
    {
        hits.push(QueryHit::new(
            FactKind::Route,
            [
                (Field::Call, call),
                (Field::Method, function),
                (Field::Arguments, arguments),
            ],
        ));
    }
    if let (true, Some((object, object_kind, method))) = (is_list, member) {
        // web.scm: router mounts.
        if matches!(
            text(method),
            "include_router" | "register_blueprint" | "add_url_rule" | "add_api_route"
        ) && wild(object)
        {
            hits.push(QueryHit::new(
                FactKind::Route,
                [
                    (Field::Call, call),
                    (Field::Receiver, object),
                    (Field::Method, method),
                    (Field::Arguments, arguments),
                ],
            ));
        }
        // web.scm: `requests`/`httpx` calls, and the same verbs on any name or attribute of a
        // name (a client bound in the file, `self.http`, which `python_web` tells apart).
        let named = object_kind == Kind::Identifier
            || (object_kind == Kind::Attribute
                && field_child(object, Child::Object)
                    .is_some_and(|inner| kind_of(inner, kinds) == Kind::Identifier));
        if named && HTTP_METHODS.contains(&text(method)) {
            hits.push(QueryHit::new(
                FactKind::HttpCall,
                [
                    (Field::Call, call),
                    (Field::Receiver, object),
                    (Field::Method, method),
                    (Field::Arguments, arguments),
                ],
            ));
        }
    }
    // graph.scm: every call with arguments.
    if generic && wild(function) && wild(arguments) {
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

/// Where an `assignment` with an annotation (`left: type [= right]`, its left a name or an
/// attribute) stands, with the class or function whose body holds it, when it is a statement
/// of a class body or of a function body.
fn annotated_in_body<'tree>(
    assignment: Node<'tree>,
    ancestors: &[crate::walk::Ancestor<'tree>],
    kinds: &[Kind],
    source: &str,
) -> Option<(TypedIn, Node<'tree>)> {
    let mut above = ancestors.iter().rev().map(|(node, _)| *node);
    let statement = above.next()?;
    let block = above.next()?;
    let owner = above.next()?;
    if kind_of(statement, kinds) != Kind::ExpressionStatement
        || kind_of(block, kinds) != Kind::Block
    {
        return None;
    }
    let body = match kind_of(owner, kinds) {
        Kind::ClassDefinition => TypedIn::Class,
        Kind::FunctionDefinition => TypedIn::Function,
        _ => return None,
    };
    // The byte after a dotted name: an annotation's `:` (read as text, not as a child).
    let text = source
        .as_bytes()
        .get(assignment.start_byte()..assignment.end_byte())
        .unwrap_or_default();
    let colon = text
        .iter()
        .find(|byte| !(byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'.' | b' ' | b'\t')));
    (colon == Some(&b':')).then_some((body, owner))
}

#[cfg(test)]
mod tests;
