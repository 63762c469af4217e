//! One `TreeCursor` walk that finds the matches of the C# query files (`queries/csharp/*.scm`)
//! without running the query.
//!
//! As for Python (`crate::lang::python::walk`): the query cursor costs several times a plain cursor
//! walk, and compiling the C# query took about 50 ms per run. This walk recognises the patterns
//! by hand and returns the same [`QueryHit`]s in the same order: a match is reported when the
//! walk enters the last node of its pattern, and matches that end on the same node keep their
//! pattern order. The query files stay the reference: a test runs both on every C# fixture and
//! compares the hits, kind by kind and across kinds.
//!
//! The patterns, by the node that ends them:
//! - a `using_directive` → `import`;
//! - the `type` of an `object_creation_expression`, of a `parameter` (then also
//!   `constructor_injection`), of the `variable_declaration` of a `field_declaration`, of a
//!   `property_declaration`; the `name` of the `member_access_expression` callee of an
//!   `invocation_expression`; a child of a `base_list` → `accesses_technology`;
//! - the `arguments` of an `invocation_expression`: (generic) a `call`; for `x.Name(…)` callees,
//!   `Add*`/`TryAdd*`/`AddDbContext` registrations, `GetService`-style resolutions, `Map*`
//!   routes, `IsInRole` checks and `HttpClient` calls;
//! - the `name` of an `attribute`: `[Http*]`/`[Route]` → `route`, `[Authorize]` →
//!   `checks_role`;
//! - the `right` of a `=` `assignment_expression` whose `left` is a `member_access_expression`
//!   → `assignment` (generic).

use std::sync::OnceLock;

use policies::facts::FactKind;
use tree_sitter::Node;
#[cfg(test)]
use tree_sitter::Tree;

use crate::query::{Field, QueryHit};
use crate::syntax;
use crate::walk::{kind_in, kind_table, wild, Ancestor};

/// The node kinds the walk tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Other,
    Using,
    ObjectCreation,
    Invocation,
    MemberAccess,
    Parameter,
    FieldDeclaration,
    VariableDeclaration,
    PropertyDeclaration,
    BaseList,
    ArgumentList,
    Assignment,
    Attribute,
    Identifier,
    /// The kinds below are read by the extractor's other visitors (`csharp::namespace_names`,
    /// `csharp::extensions`, attribute names, type names, scopes), no pattern's.
    QualifiedName,
    GenericName,
    MemberBinding,
    ConditionalAccess,
    Namespace,
    FileScopedNamespace,
    NullableType,
    Argument,
    ClassDeclaration,
    /// The type declarations other than classes (`csharp::TYPE_DECLARATIONS`).
    TypeDeclaration,
    MethodDeclaration,
    LocalFunction,
    VariableDeclarator,
    /// The other declarations that name scopes (`csharp::SCOPE_KINDS`): constructors.
    ScopeDeclaration,
    /// A generic declaration's type parameter (`T` of `class Store<T>`).
    TypeParameter,
}

impl Kind {
    /// Whether the kind declares a type (`csharp::TYPE_DECLARATIONS`).
    pub(crate) fn declares_type(self) -> bool {
        matches!(self, Kind::ClassDeclaration | Kind::TypeDeclaration)
    }

    /// Whether the kind names a scope (`csharp::SCOPE_KINDS`).
    pub(crate) fn names_scope(self) -> bool {
        matches!(
            self,
            Kind::ClassDeclaration
                | Kind::TypeDeclaration
                | Kind::MethodDeclaration
                | Kind::LocalFunction
                | Kind::ScopeDeclaration
        )
    }
}

/// C# node kind ids → [`Kind`], by name (one name may have several ids).
pub(crate) fn kinds() -> &'static [Kind] {
    static KINDS: OnceLock<Vec<Kind>> = OnceLock::new();
    KINDS.get_or_init(|| {
        kind_table(
            &tree_sitter_c_sharp::LANGUAGE.into(),
            Kind::Other,
            |name| match name {
                "using_directive" => Kind::Using,
                "object_creation_expression" => Kind::ObjectCreation,
                "invocation_expression" => Kind::Invocation,
                "member_access_expression" => Kind::MemberAccess,
                "parameter" => Kind::Parameter,
                "field_declaration" => Kind::FieldDeclaration,
                "variable_declaration" => Kind::VariableDeclaration,
                "property_declaration" => Kind::PropertyDeclaration,
                "base_list" => Kind::BaseList,
                "argument_list" => Kind::ArgumentList,
                "assignment_expression" => Kind::Assignment,
                "attribute" => Kind::Attribute,
                "identifier" => Kind::Identifier,
                "qualified_name" => Kind::QualifiedName,
                "generic_name" => Kind::GenericName,
                "member_binding_expression" => Kind::MemberBinding,
                "conditional_access_expression" => Kind::ConditionalAccess,
                "namespace_declaration" => Kind::Namespace,
                "file_scoped_namespace_declaration" => Kind::FileScopedNamespace,
                "nullable_type" => Kind::NullableType,
                "argument" => Kind::Argument,
                "class_declaration" => Kind::ClassDeclaration,
                "method_declaration" => Kind::MethodDeclaration,
                "local_function_statement" => Kind::LocalFunction,
                "variable_declarator" => Kind::VariableDeclarator,
                "type_parameter" => Kind::TypeParameter,
                name if crate::lang::csharp::TYPE_DECLARATIONS.contains(&name) => {
                    Kind::TypeDeclaration
                }
                name if crate::lang::csharp::SCOPE_KINDS.contains(&name) => Kind::ScopeDeclaration,
                _ => Kind::Other,
            },
        )
    })
}

pub(crate) fn kind_of(node: Node<'_>, kinds: &[Kind]) -> Kind {
    kind_in(node, kinds, Kind::Other)
}

/// The [`Kind`] of `node` (by kind id: `Node::kind` validates the name's UTF-8 on every call).
pub(crate) fn kind(node: Node<'_>) -> Kind {
    kind_in(node, kinds(), Kind::Other)
}

/// The [`Kind`] of the kind id `id`.
pub(crate) fn kind_for(id: u16) -> Kind {
    kinds().get(usize::from(id)).copied().unwrap_or(Kind::Other)
}

crate::walk::field_table!(tree_sitter_c_sharp::LANGUAGE.into();
    Function => "function",
    Arguments => "arguments",
    Name => "name",
    Expression => "expression",
    Left => "left",
    Operator => "operator",
    Type => "type",
    Body => "body",
    Parameters => "parameters",
    Condition => "condition",
);

/// Whether `text` starts with one of `prefixes` followed by the end or a character that is
/// not an ASCII letter: the queries' `^(…)([^A-Za-z]|$)`.
fn starts_with_word(text: &str, prefixes: &[&str]) -> bool {
    prefixes.iter().any(|prefix| {
        text.strip_prefix(prefix).is_some_and(|rest| {
            rest.chars()
                .next()
                .is_none_or(|next| !next.is_ascii_alphabetic())
        })
    })
}

/// `^((TryAdd|Add)(Singleton|Scoped|Transient)|AddDbContext)([^A-Za-z]|$)`.
const REGISTRATIONS: [&str; 7] = [
    "TryAddSingleton",
    "TryAddScoped",
    "TryAddTransient",
    "AddSingleton",
    "AddScoped",
    "AddTransient",
    "AddDbContext",
];
/// `^Get(Required)?Services?([^A-Za-z]|$)`.
const RESOLUTIONS: [&str; 4] = [
    "GetService",
    "GetServices",
    "GetRequiredService",
    "GetRequiredServices",
];
/// `^(Http(Get|Post|Put|Patch|Delete|Head|Options)|Route)$`.
/// Refit's request attributes.
const REFIT_ATTRIBUTES: [&str; 7] = ["Get", "Post", "Put", "Patch", "Delete", "Head", "Options"];
const ROUTE_ATTRIBUTES: [&str; 8] = [
    "HttpGet",
    "HttpPost",
    "HttpPut",
    "HttpPatch",
    "HttpDelete",
    "HttpHead",
    "HttpOptions",
    "Route",
];
/// `^Map(Get|Post|Put|Patch|Delete)?$`.
const MAPS: [&str; 6] = [
    "Map",
    "MapGet",
    "MapPost",
    "MapPut",
    "MapPatch",
    "MapDelete",
];
const HTTP_VERBS: [&str; 5] = ["Get", "Post", "Put", "Patch", "Delete"];
const HTTP_SUFFIXES: [&str; 10] = [
    "Async",
    "AsJsonAsync",
    "FromJsonAsync",
    "StringAsync",
    "StreamAsync",
    "ByteArrayAsync",
    "JsonAsync",
    "BytesAsync",
    "UrlEncodedAsync",
    "MultipartAsync",
];

/// `^(Get|Post|Put|Patch|Delete)(Async|AsJsonAsync|…)([^A-Za-z]|$)`, or Flurl's
/// `DownloadFileAsync`.
fn is_http_method(text: &str) -> bool {
    text == "DownloadFileAsync"
        || HTTP_VERBS.iter().any(|verb| {
            text.strip_prefix(verb)
                .is_some_and(|rest| starts_with_word(rest, &HTTP_SUFFIXES))
        })
}

/// The hits of the C# query files on `tree`; without `generic`, those of `graph.scm` (`call`
/// and `assignment`) are left out, as the query compiled without that file does.
#[cfg(test)]
pub(crate) fn hits<'tree>(
    tree: &'tree Tree,
    source: &'tree str,
    generic: bool,
) -> Vec<QueryHit<'tree>> {
    // The file's one walk, as the extractor runs it (it does not enter imports).
    let mut matcher = matcher(source, generic);
    crate::lang::csharp::walk(tree, source, |node, field, ancestors| {
        matcher.visit(node, field, ancestors);
    });
    matcher.hits
}

/// The C# patterns, matched node by node in any preorder walk that reports each node with
/// its field and ancestors ([`crate::walk`]).
pub(crate) type Matcher<'tree, 's> = crate::walk::Matcher<'tree, 's, Kind>;

/// A matcher for a file with text `source`; `generic` as for [`hits`].
pub(crate) fn matcher<'tree>(source: &str, generic: bool) -> Matcher<'tree, '_> {
    Matcher::new(source, generic, kinds())
}

impl<'tree> Matcher<'tree, '_> {
    /// The matches that end at `node` (its field in its parent, its ancestors parent last).
    #[cfg(test)]
    pub fn visit(
        &mut self,
        node: Node<'tree>,
        field: Option<&'static str>,
        ancestors: &[Ancestor<'tree>],
    ) {
        let kind = kind_of(node, self.kinds);
        let parent_kind = ancestors
            .last()
            .map_or(Kind::Other, |(parent, _)| kind_of(*parent, self.kinds));
        self.visit_kinds(node, kind, parent_kind, field, ancestors);
    }

    /// [`Matcher::visit`] with the kinds of `node` and of its parent (`Kind::Other` for none)
    /// already known: the extractor's visitors share them (each kind costs a call into
    /// tree-sitter).
    pub fn visit_kinds(
        &mut self,
        node: Node<'tree>,
        kind: Kind,
        parent_kind: Kind,
        field: Option<&'static str>,
        ancestors: &[Ancestor<'tree>],
    ) {
        let (kinds, source, generic) = (self.kinds, self.source, self.generic);
        let hits = &mut self.hits;
        if kind == Kind::Using {
            hits.push(QueryHit::new(FactKind::Import, [(Field::Statement, node)]));
        }
        if let Some(&(parent, parent_field)) = ancestors.last() {
            let grandparent = || {
                ancestors
                    .len()
                    .checked_sub(2)
                    .and_then(|index| ancestors.get(index))
                    .map(|(node, _)| *node)
            };
            let named = wild(node);
            match (parent_kind, field) {
                (Kind::ObjectCreation, Some("type")) if named => {
                    hits.push(QueryHit::new(
                        FactKind::AccessesTechnology,
                        [(Field::Construction, parent), (Field::Type, node)],
                    ));
                    // web.scm: a request message, or a RestSharp request.
                    if matches!(
                        syntax::text(node, source),
                        "HttpRequestMessage"
                            | "System.Net.Http.HttpRequestMessage"
                            | "RestRequest"
                            | "RestSharp.RestRequest"
                    ) {
                        hits.push(QueryHit::new(
                            FactKind::HttpCall,
                            [(Field::Call, parent), (Field::Method, node)],
                        ));
                    }
                }
                (Kind::MemberAccess, Some("name")) if named && parent_field == Some("function") => {
                    let call =
                        grandparent().filter(|call| kind_of(*call, kinds) == Kind::Invocation);
                    let expression = field_child(parent, Child::Expression)
                        .filter(|expression| wild(*expression));
                    if let (Some(call), Some(expression)) = (call, expression) {
                        hits.push(QueryHit::new(
                            FactKind::AccessesTechnology,
                            [
                                (Field::Call, call),
                                (Field::Type, expression),
                                (Field::Method, node),
                            ],
                        ));
                    }
                }
                (Kind::Parameter, Some("type")) if named => {
                    hits.push(QueryHit::new(
                        FactKind::AccessesTechnology,
                        [(Field::Parameter, parent), (Field::Type, node)],
                    ));
                    hits.push(QueryHit::new(
                        FactKind::ConstructorInjection,
                        [(Field::Parameter, parent), (Field::Type, node)],
                    ));
                }
                (Kind::VariableDeclaration, Some("type")) if named => {
                    if let Some(declaration) = grandparent()
                        .filter(|field| kind_of(*field, kinds) == Kind::FieldDeclaration)
                    {
                        hits.push(QueryHit::new(
                            FactKind::AccessesTechnology,
                            [(Field::Parameter, declaration), (Field::Type, node)],
                        ));
                    }
                }
                (Kind::PropertyDeclaration, Some("type")) if named => hits.push(QueryHit::new(
                    FactKind::AccessesTechnology,
                    [(Field::Parameter, parent), (Field::Type, node)],
                )),
                (Kind::BaseList, _) if named => hits.push(QueryHit::new(
                    FactKind::AccessesTechnology,
                    [(Field::Base, node)],
                )),
                (Kind::Invocation, Some("arguments")) if kind == Kind::ArgumentList => {
                    arguments_hits(hits, parent, node, source, kinds, generic);
                }
                (Kind::Attribute, Some("name")) if named => {
                    let name = syntax::text(node, source);
                    if ROUTE_ATTRIBUTES.contains(&name) {
                        hits.push(QueryHit::new(
                            FactKind::Route,
                            [(Field::Decorator, parent), (Field::Method, node)],
                        ));
                    }
                    if name == "Authorize" {
                        hits.push(QueryHit::new(
                            FactKind::ChecksRole,
                            [(Field::Decorator, parent), (Field::Method, node)],
                        ));
                    }
                    // web.scm: Refit's `[Get("/x")]` on an interface method.
                    if REFIT_ATTRIBUTES.contains(&name) {
                        hits.push(QueryHit::new(
                            FactKind::HttpCall,
                            [(Field::Call, parent), (Field::Method, node)],
                        ));
                    }
                }
                (Kind::Assignment, Some("right")) if generic && named => {
                    let target = field_child(parent, Child::Left)
                        .filter(|left| kind_of(*left, kinds) == Kind::MemberAccess);
                    let is_plain = field_child(parent, Child::Operator)
                        .is_some_and(|operator| operator.kind() == "=");
                    if let (Some(target), true) = (target, is_plain) {
                        hits.push(QueryHit::assignment(parent, target, node));
                    }
                }
                _ => {}
            }
        }
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
    if kind_of(function, kinds) != Kind::MemberAccess {
        return;
    }
    let Some(name) = field_child(function, Child::Name).filter(|name| wild(*name)) else {
        return;
    };
    let expression =
        field_child(function, Child::Expression).filter(|expression| wild(*expression));
    let text = syntax::text(name, source);
    let is_identifier = kind_of(name, kinds) == Kind::Identifier;
    let mut push = |kind: FactKind, receiver: Option<Node<'tree>>| {
        let captures = [
            Some((Field::Call, call)),
            receiver.map(|receiver| (Field::Receiver, receiver)),
            Some((Field::Method, name)),
            Some((Field::Arguments, arguments)),
        ];
        hits.push(QueryHit::new(kind, captures.into_iter().flatten()));
    };
    // di.scm.
    if starts_with_word(text, &REGISTRATIONS) {
        push(FactKind::DiRegistration, None);
    }
    if starts_with_word(text, &RESOLUTIONS) {
        push(FactKind::ServiceResolution, None);
    }
    // web.scm.
    if let (true, Some(receiver), true) = (is_identifier, expression, MAPS.contains(&text)) {
        push(FactKind::Route, Some(receiver));
    }
    if is_identifier && text == "IsInRole" {
        push(FactKind::ChecksRole, None);
    }
    if let (Some(receiver), true) = (expression, is_http_method(text)) {
        push(FactKind::HttpCall, Some(receiver));
    }
}

#[cfg(test)]
mod tests;
