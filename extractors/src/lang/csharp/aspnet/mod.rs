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
//!   method of an interface is a request too, client `Refit`.

mod di;
mod routes;

pub(crate) use di::ConstructorParameters;

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

fn http_call<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
    constants: &mut Option<std::collections::BTreeMap<String, String>>,
) -> Option<HttpCallSite<'tree>> {
    let source = file.source;
    let call = hit.node(Field::Call)?;
    if call.kind() == "attribute" {
        return refit_call(call, hit.node(Field::Method)?, file);
    }
    let mut client = "HttpClient";
    let (method, url) = match hit.node(Field::Receiver) {
        Some(receiver) => {
            let name = simple_name(hit.node(Field::Method)?, source);
            let verb = ["Get", "Post", "Put", "Patch", "Delete"]
                .into_iter()
                .find(|verb| name.starts_with(verb))?;
            let first = crate::lang::csharp::calls_and_assignments::CSharp
                .arguments(hit.node(Field::Arguments)?)
                .into_iter()
                .next()?;
            let url = url_value(first, source)?;
            let receiver = syntax::text(receiver, source).to_lowercase();
            let is_client = receiver.contains("http") || receiver.contains("client");
            if !is_client && !url.starts_with('/') && !url.starts_with("http") {
                return None;
            }
            (verb.to_uppercase(), url)
        }
        // `new HttpRequestMessage(…)`, `new RestRequest(…)`.
        None => {
            let kind = syntax::text(hit.node(Field::Method)?, source);
            if kind.ends_with("RestRequest") {
                client = "RestSharp";
                rest_request(call, source)?
            } else {
                request_message(call, source)?
            }
        }
    };
    let url = web::with_lazy_constants(url, constants, || {
        web::constants_bound_once(
            crate::syntax::descendants(file.root)
                .filter(|node| node.kind() == "field_declaration")
                .flat_map(|field| crate::lang::csharp::const_strings(field, source))
                .map(|(name, value)| (name, Some(value))),
        )
    });
    Some(HttpCallSite {
        node: call,
        method,
        url,
        is_static: true,
        client,
        scope: (file.scope_of)(call),
    })
}

/// A Refit request: `[Get("/users/{id}")]` (`Post`, `Put`, `Patch`, `Delete`, `Head`,
/// `Options`) on a method of an interface, with a string path; client `Refit`, the path relative
/// to the client's base address.
fn refit_call<'tree>(
    attribute: Node<'tree>,
    name: Node<'tree>,
    file: &FileSyntax<'_, 'tree>,
) -> Option<HttpCallSite<'tree>> {
    let source = file.source;
    syntax::interface_of_method_marker(attribute)?;
    let (_, path) = attribute_arguments(attribute, source)
        .into_iter()
        .find(|(argument, _)| argument.is_none())?;
    let url = string_value(path, source)?;
    Some(HttpCallSite {
        node: attribute,
        method: syntax::text(name, source).to_uppercase(),
        url,
        is_static: true,
        client: "Refit",
        scope: (file.scope_of)(attribute),
    })
}

/// The method and URL of `new HttpRequestMessage(method, url)`, or of the `Method` and
/// `RequestUri` its initializer sets; `None` unless both are known. The method is a member of
/// `HttpMethod` (`HttpMethod.Post`) or a literal one (`new HttpMethod("PATCH")`); the URL is a
/// URL argument or `new Uri(url)` (`new Uri(baseUri, "api/x")` is `{baseUri}/api/x`).
fn request_message(creation: Node<'_>, source: &str) -> Option<(String, String)> {
    let (mut method, mut url) = (None, None);
    if let Some(arguments) = creation.child_field("arguments") {
        let arguments = crate::lang::csharp::calls_and_assignments::CSharp.arguments(arguments);
        method = arguments
            .first()
            .and_then(|node| http_method(*node, source));
        url = arguments.get(1).and_then(|node| request_uri(*node, source));
    }
    for (property, value) in initializer_assignments(creation, source) {
        match property {
            "Method" => method = http_method(value, source),
            "RequestUri" => url = request_uri(value, source),
            _ => {}
        }
    }
    Some((method?, url?))
}

/// The properties an object initializer sets, with their values: `new X { A = 1, B = y }` →
/// `[("A", 1), ("B", y)]`.
fn initializer_assignments<'tree, 's>(
    creation: Node<'tree>,
    source: &'s str,
) -> Vec<(&'s str, Node<'tree>)> {
    let initializer = creation.child_field("initializer");
    initializer
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|assignment| {
            let left = assignment.child_field("left")?;
            let right = assignment.child_field("right")?;
            Some((syntax::text(left, source), right))
        })
        .collect()
}

/// An HTTP method as a request message names it: `HttpMethod.Get`, `new HttpMethod("PATCH")`,
/// `HttpMethod.Parse("PATCH")`; in upper case.
fn http_method(node: Node<'_>, source: &str) -> Option<String> {
    const METHODS: [&str; 8] = [
        "Get", "Post", "Put", "Patch", "Delete", "Head", "Options", "Trace",
    ];
    let literal_argument = |node: Node<'_>| {
        let arguments = node.child_field("arguments")?;
        let first = crate::lang::csharp::calls_and_assignments::CSharp
            .arguments(arguments)
            .into_iter()
            .next()?;
        string_value(first, source)
            .map(|method| method.trim().to_uppercase())
            .filter(|method| !method.is_empty() && method.chars().all(|c| c.is_ascii_alphabetic()))
    };
    match node.kind() {
        "member_access_expression" => {
            let (owner, name) = syntax::text(node, source).rsplit_once('.')?;
            let owner = owner.trim();
            (owner == "HttpMethod" || owner.ends_with(".HttpMethod"))
                .then(|| METHODS.into_iter().find(|method| *method == name.trim()))
                .flatten()
                .map(str::to_uppercase)
        }
        "object_creation_expression" => node
            .child_field("type")
            .filter(|kind| syntax::text(*kind, source).ends_with("HttpMethod"))
            .and_then(|_| literal_argument(node)),
        "invocation_expression" => node
            .child_field("function")
            .filter(|function| syntax::text(*function, source).ends_with("HttpMethod.Parse"))
            .and_then(|_| literal_argument(node)),
        _ => None,
    }
}

/// The method and URL of a RestSharp request: `new RestRequest(resource[, method])`, or the
/// `Resource` and `Method` its initializer sets. The resource is a URL argument or a `Uri`
/// ([`request_uri`]); the method a member of RestSharp's `Method` (`Method.Post`, or `Method.POST`
/// before RestSharp 107). A request handed straight to a client call takes that call's method
/// ([`rest_sent_with`]): `client.PostAsync(new RestRequest("x"))` is a POST whatever the request
/// says; so does a request kept in a local variable that a later statement of its block sends
/// ([`rest_sent_later`]). `None` when the resource or the method is only known at run time, and
/// for a request that names no method and that no call of its block sends (or two send
/// differently): the call that sends it decides.
fn rest_request(creation: Node<'_>, source: &str) -> Option<(String, String)> {
    let mut method = None;
    let mut url = None;
    if let Some(arguments) = creation.child_field("arguments") {
        let arguments = crate::lang::csharp::calls_and_assignments::CSharp.arguments(arguments);
        url = arguments
            .first()
            .and_then(|node| request_uri(*node, source));
        if let Some(named) = arguments.get(1) {
            method = Some(rest_method(*named, source));
        }
    }
    for (property, value) in initializer_assignments(creation, source) {
        match property {
            "Method" => method = Some(rest_method(value, source)),
            "Resource" => url = request_uri(value, source),
            _ => {}
        }
    }
    let sent = match rest_sent_with(creation, source) {
        Some(sent) => Some(sent),
        None => match rest_sent_later(creation, source) {
            Later::Sent(sent, assigned) => {
                // `request.Method = Method.Post;` between the construction and the send.
                if let Some(assigned) = assigned {
                    method = Some(assigned);
                }
                Some(sent)
            }
            Later::NotSent => None,
            Later::Unknown => return None,
        },
    };
    let method = match sent {
        Some(Sent::Verb(verb)) => Some(verb),
        Some(Sent::AsRequested) => method.unwrap_or(Some("GET".to_owned())),
        None => method.flatten(),
    };
    Some((method?, url?))
}

/// How a client call sends the request it is handed.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Sent {
    /// With this method, whatever the request names.
    Verb(String),
    /// With the request's own method, GET unless it names one.
    AsRequested,
}

/// How the call that `creation` is the first argument of sends it: `client.PostAsync(request)`,
/// `Post<T>`, `ExecutePostAsync`, `ExecuteGetTaskAsync` with their method; `Execute(request,
/// Method.Put)` with the one named; `Execute`, `ExecuteAsync` (and `ExecuteTaskAsync`) with the
/// request's. `None` when `creation` is not such an argument.
fn rest_sent_with(creation: Node<'_>, source: &str) -> Option<Sent> {
    sent_as_first_argument(creation, source)
}

/// What follows a request kept in a local variable, as far as its method goes.
enum Later {
    /// Every call of the block that sends the variable sends it so; with the method the block
    /// sets on it in between (`request.Method = Method.Post`), when it sets one.
    Sent(Sent, Option<Option<String>>),
    /// Nothing of the block sends it (it is returned, or handed to a helper).
    NotSent,
    /// Sends that disagree, or a method set that is not a `Method` member: no method is sure.
    Unknown,
}

/// How the request `creation` makes is sent when it is first kept in a local variable: `var
/// request = new RestRequest("x")`, maybe with RestSharp's fluent `Add…` calls chained on it
/// (`.AddJsonBody(body)`), then `client.PostAsync(request)` in a later statement of the same
/// block. Any `request.Method = …` of the block after the declaration counts as the method the
/// request names.
fn rest_sent_later(creation: Node<'_>, source: &str) -> Later {
    // `new RestRequest("x").AddJsonBody(body).AddHeader(…)`: the request is the chain's value.
    let mut value = creation;
    while let Some((access, call)) = value
        .parent()
        .filter(|access| {
            access.kind() == "member_access_expression"
                && access.child_field("expression").map(|e| e.id()) == Some(value.id())
        })
        .and_then(|access| Some((access, access.parent()?)))
        .filter(|(_, call)| call.kind() == "invocation_expression")
    {
        let fluent = access
            .child_field("name")
            .is_some_and(|name| simple_name(name, source).starts_with("Add"));
        if !fluent {
            break;
        }
        value = call;
    }
    let Some(declarator) = value
        .parent()
        .filter(|declarator| declarator.kind() == "variable_declarator")
    else {
        return Later::NotSent;
    };
    let Some(statement) = declarator
        .parent()
        .and_then(|declaration| declaration.parent())
        .filter(|statement| statement.kind() == "local_declaration_statement")
    else {
        return Later::NotSent;
    };
    let Some(name) = declarator
        .child_field("name")
        .map(|name| syntax::text(name, source))
    else {
        return Later::NotSent;
    };
    let mut sends: Vec<Sent> = Vec::new();
    let mut assigned = None;
    let mut later = statement.next_named_sibling();
    while let Some(next) = later {
        for node in syntax::descendants(next) {
            match node.kind() {
                "identifier" if syntax::text(node, source) == name => {
                    if let Some(sent) = sent_as_first_argument(node, source) {
                        if !sends.contains(&sent) {
                            sends.push(sent);
                        }
                    }
                }
                "assignment_expression" => {
                    let sets_method = node.child_field("left").is_some_and(|left| {
                        left.kind() == "member_access_expression"
                            && syntax::text(left, source).split_once('.').is_some_and(
                                |(owner, member)| owner.trim() == name && member.trim() == "Method",
                            )
                    });
                    if sets_method {
                        let Some(method) = node
                            .child_field("right")
                            .and_then(|right| rest_method(right, source))
                        else {
                            return Later::Unknown;
                        };
                        assigned = Some(Some(method));
                    }
                }
                _ => {}
            }
        }
        later = next.next_named_sibling();
    }
    match sends.as_slice() {
        [] => Later::NotSent,
        [sent] => Later::Sent(sent.clone(), assigned),
        _ => Later::Unknown,
    }
}

/// How the client call that `request` (an expression) is the first argument of sends it; see
/// [`rest_sent_with`].
fn sent_as_first_argument(request: Node<'_>, source: &str) -> Option<Sent> {
    const VERBS: [&str; 7] = ["Get", "Post", "Put", "Patch", "Delete", "Head", "Options"];
    let argument = request
        .parent()
        .filter(|argument| argument.kind() == "argument")?;
    let list = argument
        .parent()
        .filter(|list| list.kind() == "argument_list")?;
    let arguments = crate::lang::csharp::calls_and_assignments::CSharp.arguments(list);
    if arguments.first().map(Node::id) != Some(request.id()) {
        return None;
    }
    let call = list
        .parent()
        .filter(|call| call.kind() == "invocation_expression")?;
    let function = call
        .child_field("function")
        .filter(|function| function.kind() == "member_access_expression")?;
    let name = crate::lang::csharp::calls_and_assignments::simple_name(
        function.child_field("name")?,
        source,
    );
    // `ExecutePostTaskAsync` → `Post`, `ExecuteAsync` → ``.
    let bare = name.strip_prefix("Execute").unwrap_or(&name);
    let bare = bare.strip_suffix("Async").unwrap_or(bare);
    let bare = bare.strip_suffix("Task").unwrap_or(bare);
    if let Some(verb) = VERBS.into_iter().find(|verb| *verb == bare) {
        return Some(Sent::Verb(verb.to_uppercase()));
    }
    if !name.starts_with("Execute") || !bare.is_empty() {
        return None;
    }
    // A second argument that is no `Method` member is a cancellation token or the like.
    Some(
        arguments
            .get(1)
            .and_then(|named| rest_method(*named, source))
            .map_or(Sent::AsRequested, Sent::Verb),
    )
}

/// A member of RestSharp's `Method` enum (`Method.Get`, `RestSharp.Method.POST`), upper case.
fn rest_method(node: Node<'_>, source: &str) -> Option<String> {
    const METHODS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
    if node.kind() != "member_access_expression" {
        return None;
    }
    let (owner, name) = syntax::text(node, source).rsplit_once('.')?;
    let owner = owner.trim();
    if owner != "Method" && owner != "RestSharp.Method" {
        return None;
    }
    let name = name.trim().to_uppercase();
    METHODS.contains(&name.as_str()).then_some(name)
}

/// A request message's URL: a URL argument, `new Uri(url[, kind])` or `new Uri(baseUri, url)`.
fn request_uri(node: Node<'_>, source: &str) -> Option<String> {
    if node.kind() != "object_creation_expression" {
        return url_value(node, source);
    }
    let kind = node.child_field("type")?;
    if !matches!(syntax::text(kind, source), "Uri" | "System.Uri") {
        return None;
    }
    let arguments = crate::lang::csharp::calls_and_assignments::CSharp
        .arguments(node.child_field("arguments")?);
    match arguments.as_slice() {
        [url] => url_value(*url, source),
        [first, second] if syntax::text(*second, source).contains("UriKind") => {
            url_value(*first, source)
        }
        [base, relative] => {
            let relative = url_value(*relative, source)?;
            Some(format!(
                "{{{}}}/{}",
                syntax::text(*base, source),
                relative.trim_start_matches('/')
            ))
        }
        _ => None,
    }
}

/// A URL argument: a string literal, an interpolated string, or a `+` concatenation of them
/// with other operands (`crate::facts::web::concatenated_url`); a leading hole is the base URL.
fn url_value<'tree>(node: Node<'tree>, source: &str) -> Option<String> {
    // `"https://host/orders/" + id`, `baseUrl + "/orders"`: literals and holes.
    let plus = |node: Node<'tree>| web::plus_operands(node, source);
    let literal =
        |part: Node<'tree>| string_value(part, source).or_else(|| interpolated_value(part, source));
    web::concatenated_url(node, source, &literal, &plus)
}

/// The text of an interpolated string (`$"{baseUrl}/orders/{id}"`) between its quotes, holes
/// kept as written.
fn interpolated_value(node: Node<'_>, source: &str) -> Option<String> {
    if node.kind() != "interpolated_string_expression" {
        return None;
    }
    let text = syntax::text(node, source);
    let inner = text
        .trim_start_matches(['$', '@'])
        .strip_prefix('"')?
        .strip_suffix('"')?;
    Some(inner.to_owned())
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
