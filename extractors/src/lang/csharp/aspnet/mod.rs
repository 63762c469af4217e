//! ASP.NET Core and Microsoft.Extensions.DependencyInjection facts of C# files: dependency
//! injection (`di`), routes and the data their actions handle (`routes`), role checks and
//! `HttpClient` requests (here).
//!
//! - `checks_role`: one fact per role of `[Authorize(Roles = "Admin,Manager")]` (scope: the
//!   class, or `Class.Method` on an action) and of `….IsInRole("Admin")` (scope: the enclosing
//!   method). `[Authorize]` without roles or policy (`AuthenticationSchemes` alone counts as
//!   none) admits any authenticated user: one fact with the pseudo-role `Authenticated` and
//!   `authenticatedOnly: true`, so a permission can grant an operation to every signed-in user
//!   with `allow Role.Authenticated -> read` and never mistakes it for a named role; a policy
//!   (`Policy = "…"`, or the positional policy name) checks no role. A `Roles` value may also be
//!   `nameof(Roles.Admin)` (`Admin`), a `const string` of the project
//!   (`Constants.Roles.ADMINISTRATORS`, resolved through the project-wide table of the C# type
//!   index, so the role is its value `Administrators`) or a `+` of those; a value that does not
//!   resolve (a constant of a library, or ambiguous) gives one fact whose role is the expression
//!   as written, confidence `probable` — never a guessed name such as the constant's last
//!   segment, which differs from the value (`ADMINISTRATORS` vs `Administrators`).
//! - `http_call`: `GetAsync`, `PostAsync`, `PutAsync`, `PatchAsync`, `DeleteAsync` and their
//!   `…AsJsonAsync`, `…FromJsonAsync`, `GetStringAsync`-style variants, client `HttpClient`, when
//!   the first argument is a string and either the receiver's name mentions `http` or `client`
//!   or the URL starts with `/` or `http`. A relative URL (`api/orders`) is read against the
//!   client's base address, so its path is `/api/orders`; a leading hole is the base URL
//!   (`$"{baseUrl}/x"` has the path `/x`), and a hole naming a `const string` of the file
//!   stands for its value (`$"{Base}/{id}"` with `const string Base = "api/orders"` →
//!   `/api/orders/{}`). A request message sent with `SendAsync` is a request too, at its
//!   construction: `new HttpRequestMessage(HttpMethod.Post, url)`, or `Method` and `RequestUri`
//!   set by its initializer, when both the method (a member of `HttpMethod`, or a literal
//!   `new HttpMethod("PATCH")`) and the URL (as above, or `new Uri(url)`) are known.
//!   Refit's `[Get("/users/{id}")]` (`Post`, `Put`, `Patch`, `Delete`, `Head`, `Options`) on a
//!   method of an interface is a request too, client `Refit`. In a file that imports Flurl, a
//!   verb method called on a URL (`GetJsonAsync<T>()`, `PostJsonAsync(body)`, `DeleteAsync()`)
//!   through Flurl's builders (`WithHeader`, `WithTimeout`, `AppendPathSegment`, a client's
//!   `Request(…)`) is a request, client `Flurl`, its URL the chain's root with the segments
//!   added (see `flurl.rs`).

mod di;
mod flurl;
mod requests;
mod routes;

pub(crate) use di::ConstructorParameters;
use requests::*;

use policies::facts::{Confidence, Fact, FactKind};
use tree_sitter::Node;

use crate::facts::calls_and_assignments::{CallsAndAssignmentsGrammar, FileSyntax};
use crate::facts::web::{self, HttpCallSite};
use crate::facts::{FactFactory, Located};
use crate::lang::csharp::calls_and_assignments::simple_name;
use crate::query::{Field, QueryHit};
use crate::resolve::deferred::{Anchor, Finishing, Output};
use crate::resolve::links::RouteLinks;
use crate::syntax::ChildField;
use crate::syntax::{self, named_children};

/// The role of an `[Authorize]` that names no role or policy.
const AUTHENTICATED: &str = "Authenticated";

/// The ASP.NET and DI facts of a C# file, added to `out`.
pub(crate) fn facts<'tree>(
    factory: &FactFactory<'_>,
    hits: &[QueryHit<'tree>],
    file: &FileSyntax<'_, 'tree>,
    declared: Declared<'_, 'tree>,
    constructor_parameters: &ConstructorParameters<'tree>,
    out: &mut Output<'tree>,
    links: &mut RouteLinks,
) {
    out.facts
        .extend(di::facts(factory, hits, file, constructor_parameters));
    out.facts
        .extend(routes::facts(factory, hits, file, declared, links));
    // The file's `const string`s, for URLs built from them (`$"{Base}/{id}"`).
    let mut constants: Option<std::collections::BTreeMap<String, String>> = None;
    for hit in hits {
        match hit.kind {
            FactKind::ChecksRole => role_facts(factory, hit, file, out),
            FactKind::HttpCall => {
                if let Some(site) = http_call(hit, file, &mut constants) {
                    out.facts.push(web::http_call_fact(factory, &site));
                }
            }
            _ => {}
        }
    }
}

fn role_facts<'tree>(
    factory: &FactFactory<'_>,
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
    out: &mut Output<'tree>,
) {
    let source = file.source;
    let (node, construct, roles) = if let Some(attribute) = hit.node(Field::Decorator) {
        let values: Vec<(RolesValue, String)> = attribute_arguments(attribute, source)
            .into_iter()
            .filter(|(name, _)| name.as_deref() == Some("Roles"))
            .map(|(_, value)| {
                (
                    roles_value(value, source),
                    syntax::compact_text(value, source, 120),
                )
            })
            .collect();
        let restricts = attribute_arguments(attribute, source)
            .into_iter()
            .any(|(name, _)| matches!(name.as_deref(), Some("Roles" | "Policy")) || name.is_none());
        if !restricts {
            // `[Authorize]` alone: any authenticated user, the pseudo-role `Authenticated`.
            let mut fact = web::role_fact(
                factory,
                attribute,
                AUTHENTICATED,
                "`[Authorize]`",
                (file.scope_of)(attribute),
            );
            fact.evidence.message = "`[Authorize]` requires an authenticated user".into();
            crate::facts::set(&mut fact, "authenticatedOnly", true);
            out.facts.push(fact);
            return;
        }
        if values.iter().any(|(value, _)| value.names_constant()) {
            // A `const string` of the project: its value is in the C# type index.
            let node = out
                .anchors
                .with_scope(attribute, (file.scope_of)(attribute));
            out.defer(Box::new(PendingRoles { node, values }));
            return;
        }
        let roles = attribute_roles(values, &|_| None);
        (attribute, "`[Authorize]`", roles)
    } else {
        let Some(call) = hit.node(Field::Call) else {
            return;
        };
        let role = hit
            .node(Field::Arguments)
            .and_then(|list| {
                crate::lang::csharp::calls_and_assignments::CSharp
                    .arguments(list)
                    .into_iter()
                    .next()
            })
            .and_then(|first| string_value(first, source));
        let roles = role.map(|role| (role, Confidence::Definite));
        (call, "`IsInRole`", roles.into_iter().collect())
    };
    out.facts.extend(role_check_facts(
        factory,
        node,
        construct,
        &roles,
        (file.scope_of)(node),
    ));
}

/// One fact per role of a role check.
fn role_check_facts(
    factory: &FactFactory<'_>,
    node: impl Located,
    construct: &str,
    roles: &[(String, Confidence)],
    scope: Option<String>,
) -> Vec<Fact> {
    roles
        .iter()
        .map(|(role, confidence)| {
            let mut fact = web::role_fact(factory, node, role, construct, scope.clone());
            fact.confidence = *confidence;
            fact
        })
        .collect()
}

/// The roles of an `[Authorize]`'s `Roles = …` arguments: each value's comma-separated roles,
/// or, for a value that does not resolve, the expression as written (probable). `constant`
/// gives the value of a project `const string`.
fn attribute_roles(
    values: Vec<(RolesValue, String)>,
    constant: &dyn Fn(&str) -> Option<String>,
) -> Vec<(String, Confidence)> {
    values
        .into_iter()
        .flat_map(|(value, written)| match value.value(constant) {
            Some(roles) => roles
                .split(',')
                .map(str::trim)
                .filter(|role| !role.is_empty())
                .map(|role| (role.to_owned(), Confidence::Definite))
                .collect::<Vec<_>>(),
            None => vec![(written, Confidence::Probable)],
        })
        .collect()
}

/// The role facts of an `[Authorize(Roles = …)]` that names a `const string`, kept from the
/// first pass until the C# type index is complete (`crate::resolve::deferred`).
#[derive(Debug)]
pub(crate) struct PendingRoles {
    /// The attribute.
    node: Anchor,
    /// Each `Roles = …` value, with the expression as written.
    values: Vec<(RolesValue, String)>,
}

impl PendingRoles {
    /// The attribute's role facts.
    pub fn finish(self, finishing: &Finishing<'_>, facts: &mut Vec<Fact>) {
        let types = finishing.context.csharp_types();
        let roles = attribute_roles(self.values, &|written| {
            types.string_constant(written).map(str::to_owned)
        });
        facts.extend(role_check_facts(
            &finishing.factory,
            self.node,
            "`[Authorize]`",
            &roles,
            finishing.scope(self.node),
        ));
    }
}

/// A `Roles = …` value as read from the syntax: a string, `nameof(Roles.Admin)` (`Admin`), a
/// project `const string` (`Constants.Roles.ADMINISTRATORS`, resolved through the C# type
/// index) or a `+` of those.
#[derive(Debug)]
enum RolesValue {
    /// Known without the index; `None` when the expression is something else.
    Known(Option<String>),
    /// A name that may be a project `const string`, as written.
    Constant(String),
    /// `left + right`.
    Concat(Box<RolesValue>, Box<RolesValue>),
}

impl RolesValue {
    /// Whether the value needs the type index.
    fn names_constant(&self) -> bool {
        match self {
            Self::Known(_) => false,
            Self::Constant(_) => true,
            Self::Concat(left, right) => left.names_constant() || right.names_constant(),
        }
    }

    /// The value, `None` when any part is not a string; `constant` reads a `const string`.
    fn value(&self, constant: &dyn Fn(&str) -> Option<String>) -> Option<String> {
        match self {
            Self::Known(value) => value.clone(),
            Self::Constant(written) => constant(written),
            Self::Concat(left, right) => {
                let left = left.value(constant)?;
                let right = right.value(constant)?;
                Some(format!("{left}{right}"))
            }
        }
    }
}

/// Reads a `Roles = …` value.
fn roles_value(node: Node<'_>, source: &str) -> RolesValue {
    if let Some(text) = string_value(node, source) {
        return RolesValue::Known(Some(text));
    }
    match node.kind() {
        "identifier" | "member_access_expression" | "qualified_name" => {
            RolesValue::Constant(syntax::text(node, source).to_owned())
        }
        "parenthesized_expression" => match node.named_child(0) {
            Some(inner) => roles_value(inner, source),
            None => RolesValue::Known(None),
        },
        "binary_expression" => {
            let is_plus = node
                .child_field("operator")
                .is_some_and(|operator| syntax::text(operator, source) == "+");
            match (is_plus, node.child_field("left"), node.child_field("right")) {
                (true, Some(left), Some(right)) => RolesValue::Concat(
                    Box::new(roles_value(left, source)),
                    Box::new(roles_value(right, source)),
                ),
                _ => RolesValue::Known(None),
            }
        }
        "invocation_expression" => RolesValue::Known(nameof_value(node, source)),
        _ => RolesValue::Known(None),
    }
}

/// The name `nameof(Roles.Admin)` gives (`Admin`).
fn nameof_value(node: Node<'_>, source: &str) -> Option<String> {
    let function = node.child_field("function")?;
    if syntax::text(function, source) != "nameof" {
        return None;
    }
    let argument = node
        .child_field("arguments")
        .and_then(|list| named_children(list).into_iter().next())?;
    let written = syntax::text(argument, source);
    written
        .rsplit('.')
        .next()
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty())
}

/// The value of a C# string literal (regular, verbatim or raw), escapes kept as written except
/// `\"` and `\\`.
pub(crate) fn string_value(node: Node<'_>, source: &str) -> Option<String> {
    match node.kind() {
        "string_literal" => Some(
            named_children(node)
                .into_iter()
                .map(|part| match part.kind() {
                    "escape_sequence" => {
                        let escape = syntax::text(part, source);
                        escape.strip_prefix('\\').unwrap_or(escape).to_owned()
                    }
                    _ => syntax::text(part, source).to_owned(),
                })
                .collect(),
        ),
        "verbatim_string_literal" => {
            let text = syntax::text(node, source);
            Some(
                text.strip_prefix("@\"")?
                    .strip_suffix('"')?
                    .replace("\"\"", "\""),
            )
        }
        "raw_string_literal" => Some(
            syntax::text(node, source)
                .trim_matches('"')
                .trim()
                .to_owned(),
        ),
        _ => None,
    }
}

/// The `(name, value)` arguments of an attribute (`Roles = "Admin"` has a name).
pub(crate) fn attribute_arguments<'tree>(
    attribute: Node<'tree>,
    source: &str,
) -> Vec<(Option<String>, Node<'tree>)> {
    let Some(list) = named_children(attribute)
        .into_iter()
        .find(|child| child.kind() == "attribute_argument_list")
    else {
        return Vec::new();
    };
    named_children(list)
        .into_iter()
        .filter(|argument| argument.kind() == "attribute_argument")
        .filter_map(|argument| {
            let name = argument
                .child_field("name")
                .map(|name| syntax::text(name, source).to_owned());
            let name_id = argument.child_field("name").map(|name| name.id());
            let value = named_children(argument)
                .into_iter()
                .rfind(|child| Some(child.id()) != name_id)?;
            Some((name, value))
        })
        .collect()
}

/// What the walk found declared in a C# file.
#[derive(Clone, Copy)]
pub(crate) struct Declared<'a, 'tree> {
    /// The variable declarators, methods and local functions, in order (minimal APIs' groups
    /// and handlers).
    pub items: &'a [Node<'tree>],
    /// The class declarations, in order.
    pub classes: &'a [Node<'tree>],
}

/// The attributes on a declaration, in order.
pub(crate) fn attributes_of(declaration: Node<'_>) -> Vec<Node<'_>> {
    named_children(declaration)
        .into_iter()
        .filter(|child| child.kind() == "attribute_list")
        .flat_map(named_children)
        .filter(|attribute| attribute.kind() == "attribute")
        .collect()
}

/// The name of an attribute without namespace and `Attribute` suffix (`HttpGetAttribute` →
/// `HttpGet`).
pub(crate) fn attribute_name(attribute: Node<'_>, source: &str) -> String {
    let name = attribute
        .child_field("name")
        .map(|name| syntax::text(name, source))
        .unwrap_or_default();
    let name = name.rsplit('.').next().unwrap_or(name);
    name.strip_suffix("Attribute").unwrap_or(name).to_owned()
}

/// A type as DI and data facts name it: whitespace, nullability, `global::` and the namespace
/// of the outer name removed (`Shop.Data.IRepository<Order>?` → `IRepository<Order>`).
pub(crate) fn simple_type(node: Node<'_>, source: &str) -> String {
    let text: String = syntax::text(node, source)
        .chars()
        .filter(|character| !character.is_whitespace())
        .collect();
    let text = text.trim_end_matches('?');
    let text = text.strip_prefix("global::").unwrap_or(text);
    let (head, rest) = match text.find('<') {
        Some(index) => text.split_at(index),
        None => (text, ""),
    };
    let head = head.rsplit('.').next().unwrap_or(head);
    format!("{head}{rest}")
}

impl crate::resolve::deferred::Part for PendingRoles {
    fn finish(
        self: Box<Self>,
        finishing: &mut crate::resolve::deferred::Finishing<'_>,
        facts: &mut Vec<Fact>,
    ) {
        PendingRoles::finish(*self, finishing, facts);
    }
}
