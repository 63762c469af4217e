//! Web facts of Kotlin files: Spring and Ktor routes, and Retrofit, Ktor client and OkHttp
//! requests.
//!
//! - `route`, Spring: a function's `@GetMapping` (`Post`, `Put`, `Patch`, `Delete`) or
//!   `@RequestMapping` (its `method = [RequestMethod.X]`, else `*`), each of its paths (`value`,
//!   `path` or the positional value, a string or `[…]`; none is the empty path) under each path
//!   of the class's `@RequestMapping`, as for Java (`crate::lang::jvm::spring`), with the `performs` facts of
//!   the handler. The grammar reads annotations written on their own lines before a class
//!   without other modifiers as an expression before the class; those are read too.
//! - `route`, Ktor: `get("/x") { … }`, `post { … }` (verbs `get` to `options`) inside a
//!   `routing { … }` or `route("/p") { … }` lambda, or in a function extending `Route` or
//!   `Routing`, but not inside another route's handler lambda (kotlinx.html's `head { … }` in
//!   `call.respondHtml { … }`); the paths of the enclosing `route("/p") { … }` lambdas are
//!   prefixed. No handler
//!   (the handler is the lambda). Typed resources: `get<Articles.Id> { … }` serves the path of
//!   `@Resource("/articles") class Articles { @Resource("{id}") class Id(…) }` (nested classes
//!   extend their outer resource's path), declared in the file or, outside `route("/p")`
//!   blocks, in another project file (applied by `crate::resolve::links`).
//! - `http_call`, Retrofit: `@GET("orders/{id}")` (`POST`, `PUT`, `PATCH`, `DELETE`, `HEAD`) on a
//!   function, client `retrofit`; the path is relative to the base URL. `@HTTP(method = "X",
//!   path = "…")` takes its method from `method`; a verb without a path (`@GET`, `@GET("")`) on a
//!   function with a `@Url` parameter is a request to that dynamic URL (`url` `{name}`, no path).
//! - `http_call`, Ktor client: `client.get("/x")` (`post`, `put`, `patch`, `delete`, `head`) with
//!   a string first argument, when the receiver's name mentions `client` or `http`, or the URL
//!   starts with `/` or `http`; client `ktor-client`.
//! - `http_call`, OkHttp: `Request.Builder().url("…")`, method from a `.post(…)`, `.put(…)`,
//!   `.patch(…)`, `.delete(…)` or `.head()` in the same chain, else GET; client `okhttp`.
//!
//! String templates keep their interpolations as `{…}` (`"/o/$id"` → `/o/{id}`).

mod spring;

use spring::*;

use std::collections::BTreeMap;

use policies::facts::{Fact, FactKind};
use tree_sitter::Node;

use crate::facts::calls_and_assignments::FileSyntax;
use crate::facts::web::{self, join_path, HttpCallSite, RouteSite};
use crate::facts::FactFactory;
use crate::language::ExtractionInput;
use crate::query::{Field, QueryHit};
use crate::resolve::deferred::{Finishing, Output};
use crate::resolve::links::{RouteLinks, RouterMember, RouterPrefix, RouterRef};
use crate::syntax::ChildField;
use crate::syntax::{self, has_token, named_children};

/// How deep nested resource classes are followed.
const MAX_RESOURCE_DEPTH: usize = 8;

/// Ktor verbs.
const KTOR_VERBS: [&str; 7] = ["get", "post", "put", "patch", "delete", "head", "options"];

/// The web facts of a Kotlin file, added to `out`. A typed-resource route whose resource the
/// file does not declare waits for the type index ([`PendingResource`]).
pub(crate) fn facts(
    input: &ExtractionInput<'_>,
    factory: &FactFactory<'_>,
    hits: &[QueryHit<'_>],
    file: &FileSyntax<'_, '_>,
    out: &mut Output<'_>,
) {
    let mut resources: Option<BTreeMap<String, String>> = None;
    let mut links = RouteLinks::default();
    for hit in hits {
        match hit.kind {
            FactKind::Route if hit.node(Field::Decorator).is_some() => {
                out.facts.extend(spring_facts(factory, hit, file));
            }
            FactKind::Route if hit.node(Field::Receiver).is_some() => {
                let resources =
                    resources.get_or_insert_with(|| resource_paths(file.root, file.source));
                match resource_route(hit, file, resources) {
                    Some(ResourceRoute::Declared(site)) => {
                        out.facts.push(web::route_fact(factory, &site));
                    }
                    Some(ResourceRoute::Elsewhere {
                        site,
                        outer,
                        resource,
                    }) => {
                        let (line, column) = syntax::start_position(site.node, file.source);
                        out.defer(Box::new(PendingResource {
                            outer,
                            resource,
                            line,
                            column,
                            fact: web::route_fact(factory, &site),
                        }));
                    }
                    None => {}
                }
            }
            FactKind::Route => {
                if let Some(site) = ktor_route(hit, file) {
                    out.facts.push(web::route_fact(factory, &site));
                }
            }
            FactKind::HttpCall => {
                if let Some(site) = http_call(hit, file) {
                    out.facts.push(web::http_call_fact(factory, &site));
                }
            }
            _ => {}
        }
    }
    // Typed resources this file declares, for routes in other files that name them.
    let declared = resources.unwrap_or_else(|| {
        if file.source.contains("Resource") {
            resource_paths(file.root, file.source)
        } else {
            BTreeMap::new()
        }
    });
    links.routers = declared
        .into_iter()
        .map(|(router, prefix)| RouterPrefix { router, prefix })
        .collect();
    if !links.is_empty() {
        if let Ok(mut shared) = input.links.try_borrow_mut() {
            *shared = links;
        }
    }
}

/// A typed-resource route (`get<Articles.Id> { … }`) outside `route("/p")` blocks whose
/// resource the file does not declare: a route when the file names a project type `outer`
/// (imported, or of its package), with a link member to that type's file.
#[derive(Debug)]
pub(crate) struct PendingResource {
    /// The outermost name of the resource (`Articles`).
    outer: String,
    /// The resource as written (`Articles.Id`).
    resource: String,
    /// Where the route is.
    line: u32,
    column: u32,
    /// The route fact, path `/` until `crate::resolve::links` applies the resource's prefix.
    fact: Fact,
}

impl PendingResource {
    /// The route and its link member, when the file names the resource's project type.
    pub fn finish(self, finishing: &mut Finishing<'_>, facts: &mut Vec<Fact>) {
        let Some(declared_in) = finishing.types.get(&self.outer) else {
            return;
        };
        finishing.links.members.push(RouterMember {
            line: self.line,
            column: self.column,
            router: RouterRef::Imported {
                file: declared_in.clone(),
                name: self.resource,
            },
        });
        facts.push(self.fact);
    }
}

/// A typed-resource route: its resource declared in the file, or maybe in another file.
enum ResourceRoute<'tree> {
    Declared(RouteSite<'tree>),
    Elsewhere {
        site: RouteSite<'tree>,
        outer: String,
        resource: String,
    },
}

/// The paths of the file's `@Resource("/x")` classes by dotted name (`Articles`,
/// `Articles.Id`); a resource nested in a resource class extends its path.
fn resource_paths(root: Node<'_>, source: &str) -> BTreeMap<String, String> {
    let mut paths = BTreeMap::new();
    let mut pending: Vec<(Node<'_>, String, String, usize)> = named_children(root)
        .into_iter()
        .map(|node| (node, String::new(), String::new(), 0))
        .collect();
    while let Some((node, outer_name, outer_path, depth)) = pending.pop() {
        if node.kind() != "class_declaration" || depth > MAX_RESOURCE_DEPTH {
            continue;
        }
        let Some(name) = node
            .child_field("name")
            .map(|name| syntax::text(name, source))
        else {
            continue;
        };
        let dotted = if outer_name.is_empty() {
            name.to_owned()
        } else {
            format!("{outer_name}.{name}")
        };
        let own = named_children(node)
            .into_iter()
            .filter(|child| child.kind() == "modifiers")
            .flat_map(named_children)
            .filter(|modifier| modifier.kind() == "annotation")
            .find_map(|annotation| {
                let invocation = named_children(annotation)
                    .into_iter()
                    .find(|child| child.kind() == "constructor_invocation")?;
                let parts = named_children(invocation);
                let type_name = parts.first().map(|part| syntax::text(*part, source))?;
                if type_name != "Resource" {
                    return None;
                }
                let list = parts
                    .into_iter()
                    .find(|part| part.kind() == "value_arguments")?;
                let (_, value) = elements(list, source).into_iter().next()?;
                string_value(value, source)
            });
        let path = match &own {
            Some(own) => {
                let path = join_path(&[&outer_path, own]);
                paths.insert(dotted.clone(), path.clone());
                path
            }
            None => outer_path,
        };
        for body in named_children(node)
            .into_iter()
            .filter(|child| child.kind() == "class_body")
        {
            for member in named_children(body) {
                pending.push((member, dotted.clone(), path.clone(), depth + 1));
            }
        }
    }
    paths
}

/// A Ktor typed-resource route, `get<Articles.Id> { … }` (which the grammar reads as
/// `(get < Articles.Id) > { … }`), inside the same router contexts as `get("/x")`. The path is
/// the resource's, when the file declares it; a resource of another project file gives the route
/// a link member whose own prefix `crate::resolve::links` applies (only outside `route("/p")` blocks),
/// once the type index tells which file that is ([`PendingResource`]).
fn resource_route<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
    resources: &BTreeMap<String, String>,
) -> Option<ResourceRoute<'tree>> {
    let source = file.source;
    let call = hit.node(Field::Call)?;
    let verb = syntax::text(hit.node(Field::Method)?, source);
    let resource: String = syntax::text(hit.node(Field::Receiver)?, source)
        .chars()
        .filter(|character| !character.is_whitespace())
        .collect();
    let inner = named_children(call).into_iter().next()?;
    let is_typed = syntax::text(call, source)
        .get(inner.end_byte() - call.start_byte()..)
        .is_some_and(|rest| rest.trim_start().starts_with('>'))
        && syntax::text(inner, source)
            .get(verb.len()..)
            .is_some_and(|rest| rest.trim_start().starts_with('<'));
    if !KTOR_VERBS.contains(&verb) || !is_typed {
        return None;
    }
    let prefixes = ktor_prefixes(call, file)?;
    let mut segments: Vec<&str> = prefixes.iter().map(String::as_str).collect();
    let site = |path: String| RouteSite {
        node: call,
        method: verb.to_uppercase(),
        path,
        framework: "ktor",
        handler: None,
        scope: (file.scope_of)(call),
    };
    match resources.get(&resource) {
        Some(path) => {
            segments.push(path);
            Some(ResourceRoute::Declared(site(join_path(&segments))))
        }
        None if prefixes.is_empty() => Some(ResourceRoute::Elsewhere {
            site: site("/".to_owned()),
            outer: resource.split('.').next().unwrap_or(&resource).to_owned(),
            resource,
        }),
        None => None,
    }
}

/// The value of a string literal, interpolations written `{…}`.
pub(crate) fn string_value(node: Node<'_>, source: &str) -> Option<String> {
    (node.kind() == "string_literal").then_some(())?;
    let mut value = String::new();
    for part in named_children(node) {
        match part.kind() {
            "interpolation" => {
                let inner = named_children(part)
                    .into_iter()
                    .next()
                    .map(|inner| syntax::compact_text(inner, source, 80))
                    .unwrap_or_default();
                value.push('{');
                value.push_str(&inner);
                value.push('}');
            }
            _ => value.push_str(syntax::text(part, source)),
        }
    }
    Some(simple_templates(&value))
}

/// `$name` → `{name}`.
fn simple_templates(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut characters = value.chars().peekable();
    while let Some(character) = characters.next() {
        let starts_name = characters
            .peek()
            .is_some_and(|next| next.is_alphabetic() || *next == '_');
        if character == '$' && starts_name {
            out.push('{');
            while let Some(next) = characters.peek().copied() {
                if !(next.is_alphanumeric() || next == '_') {
                    break;
                }
                out.push(next);
                characters.next();
            }
            out.push('}');
        } else {
            out.push(character);
        }
    }
    out
}

/// The strings of an annotation value: a string or `[…]` of strings.
fn strings(node: Node<'_>, source: &str) -> Vec<String> {
    match node.kind() {
        "collection_literal" => named_children(node)
            .into_iter()
            .filter_map(|element| string_value(element, source))
            .collect(),
        _ => string_value(node, source).into_iter().collect(),
    }
}

/// The `(key, value)` arguments of a `value_arguments` list; positional ones have key `value`.
fn elements<'tree>(list: Node<'tree>, source: &str) -> Vec<(String, Node<'tree>)> {
    named_children(list)
        .into_iter()
        .filter(|argument| argument.kind() == "value_argument")
        .filter_map(|argument| {
            let children = named_children(argument);
            let value = *children.last()?;
            let key = match children.first() {
                Some(name) if has_token(argument, "=") && children.len() >= 2 => {
                    syntax::text(*name, source).to_owned()
                }
                _ => "value".to_owned(),
            };
            Some((key, value))
        })
        .collect()
}

/// The callee name of a call whose first child is a plain identifier.
fn plain_callee<'source>(call: Node<'_>, source: &'source str) -> Option<&'source str> {
    let callee = named_children(call).into_iter().next()?;
    (callee.kind() == "identifier").then(|| syntax::text(callee, source))
}

/// The string first argument of a call's `value_arguments`, if any.
fn first_string(call: Node<'_>, source: &str) -> Option<String> {
    let list = named_children(call)
        .into_iter()
        .find(|child| child.kind() == "value_arguments")?;
    let (_, value) = elements(list, source).into_iter().next()?;
    string_value(value, source)
}

/// The call a trailing lambda belongs to, with the call it completes (`route("/p") { … }` is a
/// call of the call `route("/p")`).
fn lambda_owner<'tree>(lambda: Node<'tree>) -> Option<(Node<'tree>, Node<'tree>)> {
    let annotated = lambda
        .parent()
        .filter(|parent| parent.kind() == "annotated_lambda")?;
    let outer = annotated.parent()?;
    let head = named_children(outer).into_iter().next()?;
    let inner = if head.kind() == "call_expression" {
        head
    } else {
        outer
    };
    Some((outer, inner))
}

/// The prefixes of the `route("/p") { … }` lambdas around a Ktor route, outermost first;
/// `None` when the call is not inside `routing { … }`, `route(…) { … }` or a function extending
/// `Route` or `Routing`.
fn ktor_prefixes(call: Node<'_>, file: &FileSyntax<'_, '_>) -> Option<Vec<String>> {
    let source = file.source;
    let mut prefixes = Vec::new();
    let mut in_router = false;
    for ancestor in syntax::ancestors(file.root, call).into_iter().rev() {
        match ancestor.kind() {
            "lambda_literal" => {
                let Some((_, inner)) = lambda_owner(ancestor) else {
                    continue;
                };
                match plain_callee(inner, source) {
                    Some("routing") => in_router = true,
                    Some("route") => {
                        in_router = true;
                        prefixes.push(first_string(inner, source).unwrap_or_default());
                    }
                    // Inside a route's handler (`get("/") { call.respondHtml { head { … } } }`,
                    // kotlinx.html's `head`): a request is being answered, no route declared.
                    Some(verb) if !in_router && KTOR_VERBS.contains(&verb) => return None,
                    _ => {}
                }
            }
            "function_declaration" => {
                let receiver = named_children(ancestor)
                    .into_iter()
                    .take_while(|child| child.kind() != "function_value_parameters")
                    .find(|child| child.kind() == "user_type")
                    .map(|receiver| syntax::text(receiver, source));
                in_router |= matches!(receiver, Some("Route" | "Routing"));
                break;
            }
            _ => {}
        }
    }
    if !in_router {
        return None;
    }
    prefixes.reverse();
    Some(prefixes)
}

fn ktor_route<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
) -> Option<RouteSite<'tree>> {
    let source = file.source;
    let call = hit.node(Field::Call)?;
    let verb = syntax::text(hit.node(Field::Method)?, source);
    if !KTOR_VERBS.contains(&verb) {
        return None;
    }
    let arguments = hit.node(Field::Arguments)?;
    let path = if arguments.kind() == "annotated_lambda" {
        String::new()
    } else {
        let outer = call
            .parent()
            .filter(|outer| outer.kind() == "call_expression")?;
        named_children(outer)
            .into_iter()
            .any(|child| child.kind() == "annotated_lambda")
            .then_some(())?;
        match elements(arguments, source).first() {
            Some((_, first)) => string_value(*first, source)?,
            None => String::new(),
        }
    };
    let prefixes = ktor_prefixes(call, file)?;
    let mut segments: Vec<&str> = prefixes.iter().map(String::as_str).collect();
    segments.push(&path);
    Some(RouteSite {
        node: call,
        method: verb.to_uppercase(),
        path: join_path(&segments),
        framework: "ktor",
        handler: None,
        scope: (file.scope_of)(call),
    })
}

fn http_call<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
) -> Option<HttpCallSite<'tree>> {
    let source = file.source;
    let call = hit.node(Field::Call)?;
    let name = syntax::text(hit.node(Field::Method)?, source);
    let arguments = hit
        .node(Field::Arguments)
        .map(|list| elements(list, source))
        .unwrap_or_default();
    let first = arguments
        .iter()
        .find(|(key, _)| key == "value" || key == "urlString" || key == "path");
    let url = first.and_then(|(_, value)| string_value(*value, source));
    if call.kind() == "annotation" {
        return retrofit_call(call, name, &arguments, url, file);
    }
    let (method, url, client) = if name == "url" {
        let receiver = syntax::compact_text(hit.node(Field::Receiver)?, source, 200);
        receiver.starts_with("Request.Builder()").then_some(())?;
        (okhttp_method(call, source), url?, "okhttp")
    } else {
        let url = url?;
        let receiver = syntax::text(hit.node(Field::Receiver)?, source).to_lowercase();
        let is_client = receiver.contains("client") || receiver.contains("http");
        (is_client || url.starts_with('/') || url.starts_with("http")).then_some(())?;
        (name.to_uppercase(), url, "ktor-client")
    };
    Some(HttpCallSite {
        node: call,
        method,
        url,
        is_static: true,
        client,
        scope: (file.scope_of)(call),
    })
}

/// A Retrofit request: `@GET("x")`, `@HTTP(method = "DELETE", path = "x")`, or a verb without a
/// path whose function takes the URL as a `@Url` parameter (a dynamic URL, no path).
fn retrofit_call<'tree>(
    annotation: Node<'tree>,
    name: &str,
    arguments: &[(String, Node<'_>)],
    url: Option<String>,
    file: &FileSyntax<'_, 'tree>,
) -> Option<HttpCallSite<'tree>> {
    let source = file.source;
    let method = if name == "HTTP" {
        let (_, method) = arguments.iter().find(|(key, _)| key == "method")?;
        string_value(*method, source)?.to_uppercase()
    } else {
        name.to_owned()
    };
    let (url, is_static) = match url.filter(|url| !url.is_empty()) {
        Some(url) => (url, true),
        None => (format!("{{{}}}", url_parameter(annotation, source)?), false),
    };
    Some(HttpCallSite {
        node: annotation,
        method,
        url,
        is_static,
        client: "retrofit",
        scope: (file.scope_of)(annotation),
    })
}

/// The name of the `@Url` parameter of the function an annotation is on.
fn url_parameter(annotation: Node<'_>, source: &str) -> Option<String> {
    let function = annotation
        .parent()
        .filter(|modifiers| modifiers.kind() == "modifiers")?
        .parent()
        .filter(|function| function.kind() == "function_declaration")?;
    let parameters = named_children(function)
        .into_iter()
        .find(|child| child.kind() == "function_value_parameters")?;
    let mut marked = false;
    for child in named_children(parameters) {
        match child.kind() {
            "parameter_modifiers" => {
                marked = named_children(child).into_iter().any(|modifier| {
                    modifier.kind() == "annotation"
                        && syntax::text(modifier, source).trim_start_matches('@') == "Url"
                });
            }
            "parameter" if marked => {
                return named_children(child)
                    .into_iter()
                    .find(|part| part.kind() == "identifier")
                    .map(|name| syntax::text(name, source).to_owned());
            }
            _ => marked = false,
        }
    }
    None
}

/// The verb of an OkHttp request chain: a `.post(…)`-style call anywhere in the chain, else GET.
fn okhttp_method(url_call: Node<'_>, source: &str) -> String {
    let mut top = url_call;
    while let Some(parent) = top
        .parent()
        .filter(|parent| matches!(parent.kind(), "navigation_expression" | "call_expression"))
    {
        top = parent;
    }
    let mut pending = vec![top];
    let mut verbs = Vec::new();
    while let Some(node) = pending.pop() {
        if node.kind() == "navigation_expression" {
            if let Some(name) = named_children(node).last() {
                let name = syntax::text(*name, source);
                if matches!(name, "post" | "put" | "patch" | "delete" | "head") {
                    verbs.push(name.to_uppercase());
                }
            }
        }
        if matches!(node.kind(), "navigation_expression" | "call_expression") {
            pending.extend(named_children(node).into_iter().take(1));
        }
    }
    verbs.pop().unwrap_or_else(|| "GET".to_owned())
}

impl crate::resolve::deferred::Part for PendingResource {
    fn finish(
        self: Box<Self>,
        finishing: &mut crate::resolve::deferred::Finishing<'_>,
        facts: &mut Vec<Fact>,
    ) {
        PendingResource::finish(*self, finishing, facts);
    }
}

#[cfg(test)]
mod tests {
    use super::simple_templates;

    #[test]
    fn simple_templates_become_parameters() {
        assert_eq!(simple_templates("/o/$id/x"), "/o/{id}/x");
        assert_eq!(simple_templates("a$ b"), "a$ b");
    }
}
