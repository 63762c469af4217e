//! One `TreeCursor` walk that finds the matches of the Go query files (`queries/go/*.scm`)
//! without running the query.
//!
//! As for Python (`crate::lang::python::walk`): the query cursor costs several times a plain cursor
//! walk, and every Go call is a candidate of the client pattern. This walk recognises the
//! patterns by hand and returns the same [`QueryHit`]s in the same order for each fact kind
//! (`go_web` reads routes and HTTP calls together, which this order also keeps): a match is
//! reported when the walk enters the last node of its pattern, and matches that end on the same
//! node keep their pattern order. The query files stay the reference: a test runs both on every
//! Go fixture and compares the hits.
//!
//! The patterns, by the node that ends them:
//! - the `path` of an `import_spec`, a string literal → `import` (`statement`, `specifier`);
//! - the `function` of a `call_expression`, a `selector_expression` → `accesses_technology`
//!   (`call`, `function`); the `type` of a `composite_literal`, a `qualified_type` →
//!   `accesses_technology` (`construction`, `type`); a `qualified_type` (or one behind a
//!   `pointer_type`) that is the `type` of a struct's `field_declaration` or of a
//!   `parameter_declaration` in the `parameters` of a function, method or function literal →
//!   `accesses_technology` (`parameter`, `type`);
//! - the `arguments` of a `call_expression`, an `argument_list`: a route registration whose
//!   callee is `x.M` with `M` a router method, an `http.M` request, and (generic) any call;
//! - the one expression on the right of a `=` assignment whose left is one selector →
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
    ImportSpec,
    StringLiteral,
    Call,
    Selector,
    CompositeLiteral,
    QualifiedType,
    ArgumentList,
    Assignment,
    ExpressionList,
    FieldIdentifier,
    Identifier,
    ShortVarDeclaration,
    ParameterDeclaration,
    FieldDeclaration,
    PointerType,
    ParameterList,
    /// A function declaration, a method declaration or a function literal: a body that may
    /// use its parameters.
    FunctionWithBody,
}

/// Go node kind ids → [`Kind`], by name (one name may have several ids).
fn kinds() -> &'static [Kind] {
    static KINDS: OnceLock<Vec<Kind>> = OnceLock::new();
    KINDS.get_or_init(|| {
        kind_table(
            &tree_sitter_go::LANGUAGE.into(),
            Kind::Other,
            |name| match name {
                "import_spec" => Kind::ImportSpec,
                "interpreted_string_literal" | "raw_string_literal" => Kind::StringLiteral,
                "call_expression" => Kind::Call,
                "selector_expression" => Kind::Selector,
                "composite_literal" => Kind::CompositeLiteral,
                "qualified_type" => Kind::QualifiedType,
                "argument_list" => Kind::ArgumentList,
                "assignment_statement" => Kind::Assignment,
                "expression_list" => Kind::ExpressionList,
                "field_identifier" => Kind::FieldIdentifier,
                "identifier" => Kind::Identifier,
                "short_var_declaration" => Kind::ShortVarDeclaration,
                "parameter_declaration" => Kind::ParameterDeclaration,
                "field_declaration" => Kind::FieldDeclaration,
                "pointer_type" => Kind::PointerType,
                "parameter_list" => Kind::ParameterList,
                "function_declaration" | "method_declaration" | "func_literal" => {
                    Kind::FunctionWithBody
                }
                _ => Kind::Other,
            },
        )
    })
}

crate::walk::field_table!(tree_sitter_go::LANGUAGE.into();
    Function => "function",
    Operand => "operand",
    Field => "field",
    Right => "right",
    Operator => "operator",
    Left => "left",
    Name => "name",
    Package => "package",
    Arguments => "arguments",
    Receiver => "receiver",
    Type => "type",
    Parameters => "parameters",
    Path => "path",
    Value => "value",
);

/// The kinds whose children's fields the matcher reads (no other field is asked for).
const FIELD_PARENTS: &[Kind] = &[
    Kind::ImportSpec,
    Kind::Call,
    Kind::CompositeLiteral,
    Kind::Assignment,
];

fn kind_of(node: Node<'_>, kinds: &[Kind]) -> Kind {
    kind_in(node, kinds, Kind::Other)
}

/// The package name and the name a qualified type (`sql.DB`) or a selector on a plain
/// identifier (`sql.ErrNoRows`) refers to; `None` for any other node.
pub(crate) fn package_and_name(node: Node<'_>) -> Option<(Node<'_>, Node<'_>)> {
    let kinds = kinds();
    match kind_of(node, kinds) {
        Kind::QualifiedType => Some((
            field_child(node, Child::Package)?,
            field_child(node, Child::Name)?,
        )),
        Kind::Selector => Some((
            field_child(node, Child::Operand)
                .filter(|operand| kind_of(*operand, kinds) == Kind::Identifier)?,
            field_child(node, Child::Field)?,
        )),
        _ => None,
    }
}

const ROUTE_METHODS: [&str; 18] = [
    "GET",
    "POST",
    "PUT",
    "PATCH",
    "DELETE",
    "HEAD",
    "OPTIONS",
    "Any",
    "Get",
    "Post",
    "Put",
    "Patch",
    "Delete",
    "Head",
    "Options",
    "Handle",
    "HandleFunc",
    "Router",
];
const HTTP_METHODS: [&str; 6] = [
    "Get",
    "Post",
    "Head",
    "PostForm",
    "NewRequest",
    "NewRequestWithContext",
];

/// The hits of the Go query files on `tree`; without `generic`, those of `graph.scm` (`call`
/// and `assignment`) are left out, as the query compiled without that file does.
#[cfg(test)]
pub(crate) fn hits<'tree>(tree: &'tree Tree, source: &str, generic: bool) -> Vec<QueryHit<'tree>> {
    walk(tree, source, generic).0
}

/// What the walk finds for the route groups and router mounts of `crate::lang::go::web`, in source
/// order.
#[derive(Default)]
pub(crate) struct RouteSyntax<'tree> {
    /// The `x := …` and `x = …` statements.
    pub(crate) statements: Vec<Node<'tree>>,
    /// The calls.
    pub(crate) calls: Vec<Node<'tree>>,
    /// The selector expressions and qualified types (`sql.ErrNoRows`, `sql.DB`): what the file
    /// names through a package ([`package_and_name`]).
    pub(crate) selectors: Vec<Node<'tree>>,
}

/// [`hits`], with the [`RouteSyntax`] the same walk finds.
pub(crate) fn walk<'tree>(
    tree: &'tree Tree,
    source: &str,
    generic: bool,
) -> (Vec<QueryHit<'tree>>, RouteSyntax<'tree>) {
    let kinds = kinds();
    let mut hits = Vec::new();
    let mut found = RouteSyntax::default();
    preorder(tree, kinds, FIELD_PARENTS, |node, field, ancestors| {
        let kind = kind_of(node, kinds);
        match kind {
            Kind::ShortVarDeclaration | Kind::Assignment => found.statements.push(node),
            Kind::Call => found.calls.push(node),
            Kind::Selector | Kind::QualifiedType => found.selectors.push(node),
            _ => {}
        }
        if let Some(&(parent, parent_field)) = ancestors.last() {
            let parent_kind = kind_of(parent, kinds);
            match (field, parent_kind) {
                (Some("path"), Kind::ImportSpec) if kind == Kind::StringLiteral => {
                    hits.push(QueryHit::new(
                        FactKind::Import,
                        [(Field::Statement, parent), (Field::Specifier, node)],
                    ));
                }
                (Some("function"), Kind::Call) if kind == Kind::Selector => {
                    hits.push(QueryHit::new(
                        FactKind::AccessesTechnology,
                        [(Field::Call, parent), (Field::Function, node)],
                    ));
                }
                (Some("type"), Kind::CompositeLiteral) if kind == Kind::QualifiedType => {
                    hits.push(QueryHit::new(
                        FactKind::AccessesTechnology,
                        [(Field::Construction, parent), (Field::Type, node)],
                    ));
                }
                (_, Kind::ParameterDeclaration | Kind::FieldDeclaration | Kind::PointerType)
                    if kind == Kind::QualifiedType =>
                {
                    if let Some(declaration) = injected_declaration(node, ancestors, kinds) {
                        hits.push(QueryHit::new(
                            FactKind::AccessesTechnology,
                            [(Field::Parameter, declaration), (Field::Type, node)],
                        ));
                    }
                }
                (Some("arguments"), Kind::Call) if kind == Kind::ArgumentList => {
                    arguments_hits(&mut hits, parent, node, source, kinds, generic);
                }
                (None, Kind::ExpressionList)
                    if generic && parent_field == Some("right") && wild(node) =>
                {
                    let statement = ancestors
                        .len()
                        .checked_sub(2)
                        .and_then(|index| ancestors.get(index))
                        .map(|(statement, _)| *statement)
                        .filter(|statement| kind_of(*statement, kinds) == Kind::Assignment);
                    if let Some(hit) =
                        statement.and_then(|statement| assignment(statement, parent, node, kinds))
                    {
                        hits.push(hit);
                    }
                }
                _ => {}
            }
        }
        // A string literal (the import pattern ends on it) holds only its text and escapes.
        kind != Kind::StringLiteral
    });
    (hits, found)
}

/// The parameter or struct field that a qualified type `node` is the type of, directly or
/// behind one `*`: a field of any struct, a parameter of a function, method or function literal
/// (not of an interface method or a function type, which have no body to use it; nor a method's
/// receiver or a named result). The fields are asked of these few nodes only, not read for every
/// child of every declaration the walk passes.
fn injected_declaration<'tree>(
    node: Node<'tree>,
    ancestors: &[crate::walk::Ancestor<'tree>],
    kinds: &[Kind],
) -> Option<Node<'tree>> {
    let mut up = ancestors.iter().rev().map(|(ancestor, _)| *ancestor);
    let parent = up.next()?;
    let (typed, declaration) = match kind_of(parent, kinds) {
        Kind::PointerType => (parent, up.next()?),
        _ => (node, parent),
    };
    if field_child(declaration, Child::Type) != Some(typed) {
        return None;
    }
    match kind_of(declaration, kinds) {
        Kind::FieldDeclaration => Some(declaration),
        Kind::ParameterDeclaration => {
            let list = up.next()?;
            let function = up.next()?;
            (kind_of(list, kinds) == Kind::ParameterList
                && kind_of(function, kinds) == Kind::FunctionWithBody
                && field_child(function, Child::Parameters) == Some(list))
            .then_some(declaration)
        }
        _ => None,
    }
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
    let member = (kind_of(function, kinds) == Kind::Selector)
        .then(|| {
            let operand = field_child(function, Child::Operand).filter(|operand| wild(*operand))?;
            let method = field_child(function, Child::Field)
                .filter(|field| kind_of(*field, kinds) == Kind::FieldIdentifier)?;
            Some((operand, method))
        })
        .flatten();
    if let Some((operand, method)) = member {
        let method_name = syntax::text(method, source);
        // web.scm: router registrations.
        if ROUTE_METHODS.contains(&method_name) {
            hits.push(QueryHit::new(
                FactKind::Route,
                [
                    (Field::Call, call),
                    (Field::Receiver, operand),
                    (Field::Method, method),
                    (Field::Arguments, arguments),
                ],
            ));
        }
        // web.scm: net/http requests.
        if kind_of(operand, kinds) == Kind::Identifier
            && syntax::text(operand, source) == "http"
            && HTTP_METHODS.contains(&method_name)
        {
            hits.push(QueryHit::new(
                FactKind::HttpCall,
                [
                    (Field::Call, call),
                    (Field::Receiver, operand),
                    (Field::Method, method),
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

/// graph.scm: `x.F = value`, one selector on the left and one expression on the right, entered
/// at `value` (the only named child of the `right` list).
fn assignment<'tree>(
    statement: Node<'tree>,
    right: Node<'tree>,
    value: Node<'tree>,
    kinds: &[Kind],
) -> Option<QueryHit<'tree>> {
    let only_named = |list: Node<'tree>| -> Option<Node<'tree>> {
        let mut cursor = list.walk();
        let mut named = list.named_children(&mut cursor);
        let first = named.next()?;
        named.next().is_none().then_some(first)
    };
    if only_named(right)?.id() != value.id() {
        return None;
    }
    if field_child(statement, Child::Right)?.id() != right.id()
        || field_child(statement, Child::Operator)?.kind() != "="
    {
        return None;
    }
    let left = field_child(statement, Child::Left)
        .filter(|left| kind_of(*left, kinds) == Kind::ExpressionList)?;
    let target = only_named(left).filter(|target| kind_of(*target, kinds) == Kind::Selector)?;
    Some(QueryHit::assignment(statement, target, value))
}

#[cfg(test)]
mod tests;
