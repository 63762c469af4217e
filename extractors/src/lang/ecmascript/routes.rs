//! `route` facts: the HTTP endpoints a file serves.
//!
//! - Express, Koa, Hono and Fastify verb registrations: `app.get('/x', handler)`,
//!   `router.route('/x').post(handler)`. The file must import one of those frameworks (definite),
//!   or the receiver must be conventionally named (`app`, `router`, `server`, `fastify`, …;
//!   probable). A verb call needs a path literal starting with `/` (or `*`) and a handler argument;
//!   receivers bound to an HTTP client (`axios.get('/x', …)`) are requests, not routes.
//! - Fastify's `fastify.route({ method, url, handler })`, one fact per method.
//! - NestJS and routing-controllers decorators: `@Get(':id')` on a method of a class decorated
//!   `@Controller('orders')` gives `GET /orders/:id`, handler `OrdersController.remove`.
//!
//! - Router prefixes of their own: Koa `new Router({ prefix: '/x' })` or `router.prefix('/x')`
//!   (top-level declarations and statements), Hono `new Hono().basePath('/x')`; NestJS
//!   `app.setGlobalPrefix('api')` mounts every controller route of the project at `/api` (its
//!   `exclude` option is not read), and `app.enableVersioning(…)` with URI versioning puts the
//!   route's version before its controller's path (`super::nest_versioning`).
//!
//! Mount prefixes (`app.use('/api', router)`, in this file or across files) are applied after
//! extraction by `crate::resolve::links` from the records `super::mounts` makes; mounts made in test files
//! (`*.test.*`, `*.spec.*`, `__tests__/`) are left out.

use std::collections::BTreeMap;

use policies::facts::{Confidence, Fact, FactKind};
use tree_sitter::Node;

use super::clients::{record_client, Instances};
use super::literals::{arguments, interpolated, object_property, property_name, static_string};
use super::mounts;
use super::nest_versioning;
use super::FileView;
use crate::facts::route_path;
use crate::facts::set;
use crate::facts::web::{self, join_path};
use crate::query::{Field, QueryHit};
use crate::resolve::links::{
    NestRoute, RouteLinks, RouterMember, RouterMount, RouterPrefix, RouterRef,
};
use crate::syntax::ChildField;
use crate::syntax::{self, named_children};

/// Receivers that are routers by convention when no framework import says so.
const CONVENTIONAL_RECEIVERS: [&str; 8] = [
    "app", "router", "server", "fastify", "api", "routes", "route", "r",
];

/// Methods that mount a router rather than serve a route (`app.use('/api', router)`, Hono's
/// `app.route('/api', books)`, Fastify's `app.register(plugin, { prefix })`).
const MOUNTS: [&str; 3] = ["use", "route", "register"];

/// Nest application methods that shape the paths of every controller route.
const NEST_APPLICATION: [&str; 2] = ["setGlobalPrefix", "enableVersioning"];

/// Argument kinds that can be a route handler.
const HANDLER_KINDS: [&str; 6] = [
    "arrow_function",
    "function_expression",
    "identifier",
    "member_expression",
    "call_expression",
    "object",
];

/// A route about to become a fact.
struct RouteSite<'tree> {
    node: Node<'tree>,
    method: String,
    path: String,
    framework: &'static str,
    handler: Option<String>,
    scope: Option<String>,
    confidence: Confidence,
    /// The router the route hangs off, for mount prefixes (`super::mounts`).
    router: Option<RouterRef>,
}

/// What decides whether a registration is a route, and of which framework.
struct Routing<'a> {
    /// The server framework the file imports (Express, Fastify, Koa, Hono).
    server: Option<&'static str>,
    /// The decorator framework (NestJS unless routing-controllers is imported).
    decorator: &'static str,
    /// Variables holding a client (`const redis = createClient()`), never routers.
    instances: &'a Instances,
}

/// Reads the `route` facts of a file from the route matches.
pub(super) fn extract(
    view: &FileView<'_, '_>,
    hits: &[&QueryHit<'_>],
    instances: &Instances,
) -> Vec<Fact> {
    let imported = |packages: &[&str]| {
        view.imports
            .iter()
            .filter_map(|record| record.external_package())
            .any(|package| packages.contains(&package))
    };
    let imported_prefix = |prefix: &str| {
        view.imports
            .iter()
            .filter_map(|record| record.external_package())
            .any(|package| package.starts_with(prefix))
    };
    let server_framework = [
        ("express", &["express"][..]),
        ("fastify", &["fastify"][..]),
        ("koa", &["@koa/router", "koa-router", "koa"][..]),
        ("hono", &["hono"][..]),
    ]
    .into_iter()
    .find(|(_, packages)| imported(packages))
    .map(|(framework, _)| framework);
    let routing = Routing {
        server: server_framework,
        decorator: if imported(&["routing-controllers"]) {
            "routing-controllers"
        } else {
            "nestjs"
        },
        instances,
    };
    let mut sites = Vec::new();
    let mut performs = Vec::new();
    let mut links = RouteLinks::default();
    let is_test = is_test_file(view.input.path);
    let uses_nest = imported_prefix("@nestjs/");
    for hit in hits {
        let method_name = hit
            .node(Field::Method)
            .map(|method| syntax::text(method, view.source()));
        if let Some(method) = method_name.filter(|method| NEST_APPLICATION.contains(method)) {
            if uses_nest && !is_test {
                nest_application_call(view, hit, method, &mut links);
            }
            continue;
        }
        let mount_method = hit
            .node(Field::Method)
            .map(|method| syntax::text(method, view.source()))
            .filter(|method| MOUNTS.contains(method))
            .filter(|_| hit.node(Field::Options).is_none());
        if let Some(method) = mount_method {
            if is_test {
                continue;
            }
            if let (Some(receiver), Some(list)) =
                (hit.node(Field::Receiver), hit.node(Field::Arguments))
            {
                links
                    .mounts
                    .extend(mounts::mounts(view, receiver, method, list));
            }
        } else if let Some(decorator) = hit.node(Field::Decorator) {
            let decorated = decorated_routes(view, hit, decorator, routing.decorator);
            // One handler, one verb: its `performs` facts once, whatever its number of paths.
            if let Some(site) = decorated.first() {
                performs.extend(handler_performs(view, decorator, site));
                if uses_nest && routing.decorator == "nestjs" {
                    links.nest_routes.extend(nest_route(view, decorator));
                }
            }
            sites.extend(decorated);
        } else if let Some(options) = hit.node(Field::Options) {
            sites.extend(fastify_routes(view, hit, options, &routing));
        } else {
            let mut site = verb_route(view, hit, &routing);
            // A conventional receiver's guess: a typed parameter may say the framework.
            let receiver = hit.node(Field::Receiver).map(root_object);
            if let (Some(guessed), Some(receiver)) = (site.as_mut(), receiver) {
                if routing.server.is_none() && guessed.confidence == Confidence::Probable {
                    match super::router_types::typed_route(view, guessed.node, receiver) {
                        Some(Ok(framework)) => {
                            guessed.framework = framework;
                            guessed.confidence = Confidence::Definite;
                        }
                        Some(Err(typed)) => links.typed_routes.push(typed),
                        None => {}
                    }
                }
            }
            sites.extend(site);
        }
    }
    super::router_types::record_router_types(view);
    let prefixes = own_prefixes(view, routing.server);
    for site in &mut sites {
        if let Some(RouterRef::Local(name)) = &site.router {
            if let Some(prefix) = prefixes.get(name) {
                site.path = join_path(&[prefix, &site.path]);
            }
        }
    }
    links.routers.extend(
        prefixes
            .into_iter()
            .map(|(router, prefix)| RouterPrefix { router, prefix }),
    );
    for site in &sites {
        if let Some(router) = &site.router {
            let (line, column) = syntax::start_position(site.node, view.source());
            links.members.push(RouterMember {
                line,
                column,
                router: router.clone(),
            });
        }
    }
    mounts::record(view, links);
    let mut facts: Vec<Fact> = sites
        .into_iter()
        .map(|site| route_fact(view, site))
        .collect();
    facts.extend(performs);
    facts
}

/// Nest's application calls that shape every controller route's path: `app.setGlobalPrefix('api')`
/// as a mount of every controller route at `/api`, `app.enableVersioning(…)` as the versions
/// put before their controllers' paths.
fn nest_application_call(
    view: &FileView<'_, '_>,
    hit: &QueryHit<'_>,
    method: &str,
    links: &mut RouteLinks,
) {
    let Some(list) = hit.node(Field::Arguments) else {
        return;
    };
    if method == "enableVersioning" {
        if let Some(versioning) = nest_versioning::versioning(view, list) {
            links.nest_versioning = Some(versioning);
        }
    } else if let Some(mount) = hit
        .node(Field::Receiver)
        .and_then(|receiver| global_prefix(view, receiver, list))
    {
        links.mounts.push(mount);
    }
}

/// The router every NestJS controller route belongs to, project-wide: `app.setGlobalPrefix('api')`
/// mounts it (`crate::resolve::links` keys it by an empty file, which no project file has).
fn nest_application() -> RouterRef {
    RouterRef::Imported {
        file: String::new(),
        name: "@nestjs/global-prefix".to_owned(),
    }
}

/// Nest's `app.setGlobalPrefix('api')` as a mount of every controller route at `/api`.
fn global_prefix(
    view: &FileView<'_, '_>,
    receiver: Node<'_>,
    list: Node<'_>,
) -> Option<RouterMount> {
    let prefix = static_string(*arguments(list).first()?, view.source())?;
    Some(RouterMount {
        parent: mounts::router_name(view, receiver)?,
        prefix: join_path(&[&prefix]),
        replaces_own_prefix: false,
        child: nest_application(),
        prefix_constant: None,
    })
}

/// The routers of the file declared with a prefix of their own, by variable (top-level
/// declarations): Koa's `new Router({ prefix: '/x' })` or `router.prefix('/x')`, and Hono's `new Hono().basePath('/x')` /
/// `app.basePath('/x')`.
fn own_prefixes(view: &FileView<'_, '_>, server: Option<&'static str>) -> BTreeMap<String, String> {
    let source = view.source();
    let mut prefixes = BTreeMap::new();
    if !matches!(server, Some("koa" | "hono")) {
        return prefixes;
    }
    for statement in named_children(view.input.tree.root_node()) {
        if let Some((router, prefix)) = (server == Some("koa"))
            .then(|| koa_prefix_call(statement, source))
            .flatten()
        {
            prefixes.insert(router, prefix);
            continue;
        }
        let declaration = match statement.kind() {
            "export_statement" => statement.child_field("declaration"),
            "lexical_declaration" | "variable_declaration" => Some(statement),
            _ => None,
        };
        let Some(declaration) = declaration else {
            continue;
        };
        for declarator in named_children(declaration)
            .into_iter()
            .filter(|node| node.kind() == "variable_declarator")
        {
            let (Some(name), Some(value)) = (
                declarator
                    .child_field("name")
                    .filter(|name| name.kind() == "identifier"),
                declarator.child_field("value"),
            ) else {
                continue;
            };
            let prefix = match (server, value.kind()) {
                (Some("koa"), "new_expression") => value
                    .child_field("arguments")
                    .and_then(|list| arguments(list).into_iter().next())
                    .and_then(|options| object_property(options, "prefix", source))
                    .and_then(|prefix| static_string(prefix, source)),
                (Some("hono"), "call_expression") => value
                    .child_field("function")
                    .filter(|function| function.kind() == "member_expression")
                    .filter(|function| {
                        function
                            .child_field("property")
                            .is_some_and(|property| syntax::text(property, source) == "basePath")
                    })
                    .and_then(|_| value.child_field("arguments"))
                    .and_then(|list| arguments(list).into_iter().next())
                    .and_then(|prefix| static_string(prefix, source)),
                _ => None,
            };
            if let Some(prefix) = prefix.filter(|prefix| prefix.starts_with('/')) {
                prefixes.insert(syntax::text(name, source).to_owned(), prefix);
            }
        }
    }
    prefixes
}

/// Koa's `router.prefix('/x')` as a top-level statement: (router, prefix).
fn koa_prefix_call(statement: Node<'_>, source: &str) -> Option<(String, String)> {
    let call = statement
        .named_child(0)
        .filter(|_| statement.kind() == "expression_statement")
        .filter(|call| call.kind() == "call_expression")?;
    let function = call
        .child_field("function")
        .filter(|function| function.kind() == "member_expression")?;
    let object = function
        .child_field("object")
        .filter(|object| object.kind() == "identifier")?;
    let is_prefix = function
        .child_field("property")
        .is_some_and(|property| syntax::text(property, source) == "prefix");
    let prefix = arguments(call.child_field("arguments")?)
        .first()
        .and_then(|first| static_string(*first, source))
        .filter(|prefix| is_prefix && prefix.starts_with('/'))?;
    Some((syntax::text(object, source).to_owned(), prefix))
}

/// Whether `path` is a test file (`*.test.*`, `*.spec.*`, under `__tests__/`), whose mounts
/// (a router mounted on a test app) are no part of the application's routing.
fn is_test_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.contains(".test.")
        || name.contains(".spec.")
        || path.split('/').any(|segment| segment == "__tests__")
}

/// The `performs` facts of a decorated handler: the operation of its verb on each parameter type
/// and its return type, unwrapped (`crate::facts::web`).
fn handler_performs(
    view: &FileView<'_, '_>,
    decorator: Node<'_>,
    site: &RouteSite<'_>,
) -> Vec<Fact> {
    let (Some(method_node), Some(handler)) = (decorated_method(decorator), site.handler.as_deref())
    else {
        return Vec::new();
    };
    let source = view.source();
    let type_text = |annotation: Node<'_>| {
        let text = syntax::compact_text(annotation, source, 200);
        text.trim_start_matches(':').trim().to_owned()
    };
    let parameters = method_node
        .child_field("parameters")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|parameter| parameter.child_field("type"));
    let returned = method_node.child_field("return_type");
    let data: Vec<String> = parameters
        .chain(returned)
        .filter_map(|annotation| web::data_type(&type_text(annotation)))
        .collect();
    web::performs_facts(&view.factory, decorator, handler, &site.method, &data)
}

/// The `checks_role` facts of a NestJS `@Roles('admin')` / `@Roles(Role.Admin)` decorator: one
/// per argument (a string's value, else the expression as written); scope `Class` on a class,
/// `Class.method` on a handler.
pub(super) fn role_facts(view: &FileView<'_, '_>, hits: &[&QueryHit<'_>]) -> Vec<Fact> {
    let source = view.source();
    let mut facts = Vec::new();
    for hit in hits {
        let (Some(decorator), Some(list)) =
            (hit.node(Field::Decorator), hit.node(Field::Arguments))
        else {
            continue;
        };
        let scope = match decorated_method(decorator) {
            Some(method) => {
                let class_name = method
                    .parent()
                    .and_then(|body| body.parent())
                    .and_then(|class| class.child_field("name"))
                    .map(|name| syntax::text(name, source));
                let method_name = method
                    .child_field("name")
                    .map(|name| property_name(name, source));
                match (class_name, method_name) {
                    (Some(class_name), Some(method_name)) => {
                        Some(format!("{class_name}.{method_name}"))
                    }
                    _ => view.scope_of(decorator),
                }
            }
            None => decorated_class(decorator)
                .and_then(|class| class.child_field("name"))
                .map(|name| syntax::text(name, source).to_owned())
                .or_else(|| view.scope_of(decorator)),
        };
        for argument in arguments(list) {
            let role = static_string(argument, source)
                .unwrap_or_else(|| syntax::compact_text(argument, source, 120));
            facts.push(web::role_fact(
                &view.factory,
                decorator,
                &role,
                "`@Roles`",
                scope.clone(),
            ));
        }
    }
    facts
}

/// The class a class decorator applies to (in an `export` statement or on the class itself).
fn decorated_class(decorator: Node<'_>) -> Option<Node<'_>> {
    let parent = decorator.parent()?;
    match parent.kind() {
        "class_declaration" | "class" | "abstract_class_declaration" => Some(parent),
        "export_statement" => parent.child_field("declaration"),
        _ => None,
    }
}

fn http_method(name: &str) -> String {
    match name.to_lowercase().as_str() {
        "all" => "*".to_owned(),
        "del" => "DELETE".to_owned(),
        lower => lower.to_uppercase(),
    }
}

/// The framework and confidence for a registration on `receiver`, if it is a router at all.
fn router_framework(
    view: &FileView<'_, '_>,
    receiver: Node<'_>,
    server_framework: Option<&'static str>,
    instances: &Instances,
) -> Option<(&'static str, Confidence)> {
    let root = root_object(receiver);
    if instances.contains_key(&syntax::compact_text(receiver, view.source(), 120)) {
        return None;
    }
    if root.kind() == "identifier" {
        let root_name = syntax::text(root, view.source());
        let target = view.bindings.resolve(root, view.source());
        let is_client = target
            .and_then(|target| view.imports.get(target.import))
            .is_some_and(|record| record_client(record).is_some());
        if is_client {
            return None;
        }
        if let Some(framework) = server_framework {
            return Some((framework, Confidence::Definite));
        }
        return CONVENTIONAL_RECEIVERS.contains(&root_name).then(|| {
            let framework = if root_name == "fastify" {
                "fastify"
            } else {
                "express"
            };
            (framework, Confidence::Probable)
        });
    }
    server_framework.map(|framework| (framework, Confidence::Definite))
}

/// The innermost object of a chain of calls and member accesses: `app` in `app.route('/x').get`.
fn root_object(node: Node<'_>) -> Node<'_> {
    let mut current = node;
    loop {
        let next = match current.kind() {
            "call_expression" => current.child_field("function"),
            "member_expression" => current.child_field("object"),
            _ => None,
        };
        match next {
            Some(next) => current = next,
            None => return current,
        }
    }
}

/// The path of `.route('/x')` somewhere down a receiver chain.
fn chained_route_path(receiver: Node<'_>, source: &str) -> Option<String> {
    let mut current = receiver;
    while current.kind() == "call_expression" {
        let function = current.child_field("function")?;
        let property = function.child_field("property")?;
        if syntax::text(property, source) == "route" {
            let first = arguments(current.child_field("arguments")?)
                .into_iter()
                .next()?;
            return static_string(first, source);
        }
        current = function.child_field("object")?;
    }
    None
}

fn verb_route<'tree>(
    view: &FileView<'_, 'tree>,
    hit: &QueryHit<'tree>,
    routing: &Routing<'_>,
) -> Option<RouteSite<'tree>> {
    let source = view.source();
    let (call, receiver, method) = (
        hit.node(Field::Call)?,
        hit.node(Field::Receiver)?,
        hit.node(Field::Method)?,
    );
    let arguments = arguments(hit.node(Field::Arguments)?);
    let (first, last) = (arguments.first()?, arguments.last()?);
    let path = match interpolated(*first, source) {
        Some(path) if arguments.len() >= 2 => path.written,
        Some(_) => return None,
        None => chained_route_path(receiver, source)?,
    };
    if !(path.starts_with('/') || path == "*") || !HANDLER_KINDS.contains(&last.kind()) {
        return None;
    }
    // An object is a handler only as Fastify's shorthand, options that hold the `handler`; any
    // other is a request's options (`api.post('/x', { json })` through a client named `api`).
    if last.kind() == "object" && !holds_handler(*last, source) {
        return None;
    }
    let (framework, confidence) =
        router_framework(view, receiver, routing.server, routing.instances)?;
    // A route registered on a chain (`new Hono().get(…).post(…)`, `router.route(p).get(h)`) is
    // where its method is written: the whole call starts where the chain does.
    let node = if matches!(receiver.kind(), "identifier" | "member_expression" | "this") {
        call
    } else {
        method
    };
    Some(RouteSite {
        node,
        method: http_method(syntax::text(method, source)),
        path,
        framework,
        handler: handler_name(*last, source),
        scope: view.scope_of(call),
        confidence,
        router: mounts::router_name(view, receiver),
    })
}

fn fastify_routes<'tree>(
    view: &FileView<'_, 'tree>,
    hit: &QueryHit<'tree>,
    options: Node<'tree>,
    routing: &Routing<'_>,
) -> Vec<RouteSite<'tree>> {
    let source = view.source();
    let (Some(call), Some(receiver)) = (hit.node(Field::Call), hit.node(Field::Receiver)) else {
        return Vec::new();
    };
    let path = ["url", "path"].into_iter().find_map(|key| {
        object_property(options, key, source).and_then(|value| static_string(value, source))
    });
    let (Some(path), Some((framework, confidence))) = (
        path,
        router_framework(
            view,
            receiver,
            routing.server.or(Some("fastify")),
            routing.instances,
        ),
    ) else {
        return Vec::new();
    };
    let methods: Vec<String> = match object_property(options, "method", source) {
        Some(list) if list.kind() == "array" => named_children(list)
            .into_iter()
            .filter_map(|method| static_string(method, source))
            .collect(),
        Some(method) => static_string(method, source).into_iter().collect(),
        None => Vec::new(),
    };
    let handler = object_property(options, "handler", source)
        .and_then(|handler| handler_name(handler, source));
    let router = mounts::router_name(view, receiver);
    methods
        .iter()
        .map(|method| RouteSite {
            node: call,
            method: http_method(method),
            path: path.clone(),
            framework,
            handler: handler.clone(),
            scope: view.scope_of(call),
            confidence,
            router: router.clone(),
        })
        .collect()
}

/// The routes of a decorated controller method: each path of the method's decorator (a string,
/// or an array of them: `@Get(['a', 'b'])`) under each path of the class's `@Controller`.
fn decorated_routes<'tree>(
    view: &FileView<'_, 'tree>,
    hit: &QueryHit<'tree>,
    decorator: Node<'tree>,
    framework: &'static str,
) -> Vec<RouteSite<'tree>> {
    let source = view.source();
    let Some(method_node) = decorated_method(decorator) else {
        return Vec::new();
    };
    let Some(class) = method_node.parent().and_then(|body| body.parent()) else {
        return Vec::new();
    };
    let (Some(class_name), Some(prefixes), Some(method_name), Some(verb)) = (
        class
            .child_field("name")
            .map(|name| syntax::text(name, source)),
        controller_prefixes(class, source),
        method_node
            .child_field("name")
            .map(|name| property_name(name, source)),
        hit.node(Field::Method),
    ) else {
        return Vec::new();
    };
    let own_paths = hit
        .node(Field::Arguments)
        .and_then(|list| arguments(list).into_iter().next())
        .map(|first| paths_of(first, source))
        .filter(|paths| !paths.is_empty())
        .unwrap_or_else(|| vec![String::new()]);
    let handler = format!("{class_name}.{method_name}");
    let method = http_method(syntax::text(verb, source));
    let mut sites = Vec::new();
    for prefix in &prefixes {
        for own_path in &own_paths {
            let segments: Vec<&str> = [prefix.as_str(), own_path.as_str()]
                .into_iter()
                .map(|segment| segment.trim_matches('/'))
                .filter(|segment| !segment.is_empty())
                .collect();
            sites.push(RouteSite {
                node: decorator,
                method: method.clone(),
                path: format!("/{}", segments.join("/")),
                framework,
                handler: Some(handler.clone()),
                scope: Some(handler.clone()),
                confidence: Confidence::Definite,
                router: (framework == "nestjs").then(nest_application),
            });
        }
    }
    sites
}

/// A NestJS controller route at its verb decorator, with the versions it declares; none when
/// they cannot be read.
fn nest_route(view: &FileView<'_, '_>, decorator: Node<'_>) -> Option<NestRoute> {
    let method = decorated_method(decorator)?;
    let class = method.parent()?.parent()?;
    let versions = nest_versioning::declared_versions(method, class, view.source())?;
    let (line, column) = syntax::start_position(decorator, view.source());
    Some(NestRoute {
        line,
        column,
        versions,
    })
}

/// The paths a decorator argument names: a string, or each string of an array; none when it
/// is neither.
fn paths_of(node: Node<'_>, source: &str) -> Vec<String> {
    if node.kind() == "array" {
        named_children(node)
            .into_iter()
            .filter_map(|element| static_string(element, source))
            .collect()
    } else {
        static_string(node, source).into_iter().collect()
    }
}

/// The method a decorator applies to: its parent in JavaScript, the next method in a TypeScript
/// class body (where decorators are siblings of the method).
fn decorated_method(decorator: Node<'_>) -> Option<Node<'_>> {
    let parent = decorator.parent()?;
    if parent.kind() == "method_definition" {
        return Some(parent);
    }
    let mut next = decorator.next_named_sibling();
    while let Some(sibling) = next {
        match sibling.kind() {
            "method_definition" => return Some(sibling),
            "decorator" | "comment" => next = sibling.next_named_sibling(),
            _ => return None,
        }
    }
    None
}

/// The paths of a class's `@Controller('x')` / `@JsonController('x')` (a string, an array, or
/// the `path` of an options object; the empty path when none is written); `None` without one.
fn controller_prefixes(class: Node<'_>, source: &str) -> Option<Vec<String>> {
    let wrapper = class
        .parent()
        .filter(|parent| parent.kind() == "export_statement");
    let decorators = named_children(class)
        .into_iter()
        .chain(wrapper.map(named_children).unwrap_or_default())
        .filter(|node| node.kind() == "decorator");
    decorators.into_iter().find_map(|decorator| {
        let call = named_children(decorator)
            .into_iter()
            .find(|node| node.kind() == "call_expression")?;
        let function = syntax::text(call.child_field("function")?, source);
        if function != "Controller" && function != "JsonController" {
            return None;
        }
        let first = call
            .child_field("arguments")
            .and_then(|list| arguments(list).into_iter().next());
        let paths = match first {
            Some(object) if object.kind() == "object" => object_property(object, "path", source)
                .map(|path| paths_of(path, source))
                .unwrap_or_default(),
            Some(path) => paths_of(path, source),
            None => Vec::new(),
        };
        Some(if paths.is_empty() {
            vec![String::new()]
        } else {
            paths
        })
    })
}

/// Whether an options object holds a route's `handler` (`{ schema, handler }`, `{ handler() {…} }`).
fn holds_handler(options: Node<'_>, source: &str) -> bool {
    object_property(options, "handler", source).is_some()
        || named_children(options).into_iter().any(|member| {
            member.kind() == "method_definition"
                && member
                    .child_field("name")
                    .is_some_and(|name| property_name(name, source) == "handler")
        })
}

fn handler_name(handler: Node<'_>, source: &str) -> Option<String> {
    matches!(handler.kind(), "identifier" | "member_expression")
        .then(|| syntax::compact_text(handler, source, 120))
}

fn route_fact(view: &FileView<'_, '_>, site: RouteSite<'_>) -> Fact {
    let normalized = route_path::normalize(&site.path);
    let mut fact = view.factory.fact(
        FactKind::Route,
        site.node,
        site.confidence,
        site.scope,
        format!("route `{} {}` ({})", site.method, site.path, site.framework),
    );
    fact.route = Some(normalized.as_str().into());
    set(&mut fact, "method", site.method);
    set(&mut fact, "path", site.path);
    set(&mut fact, "normalized", normalized);
    set(&mut fact, "framework", site.framework);
    if let Some(handler) = site.handler {
        set(&mut fact, "handler", handler);
    }
    fact
}
