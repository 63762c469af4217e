//! Web facts of Rust files: Axum and Actix Web routes, and reqwest requests.
//!
//! - `route`, Axum: `.route("/x", get(h).post(h2))` gives one fact per method router in the
//!   chain (`get`, `routing::post`, …; `any` serves `*`), handler the function named;
//!   `.nest("/p", router)` prefixes the routes written inside its argument, in the `let` bound
//!   to a name it nests in the same function, or in a function of the file it nests by call
//!   (`.nest("/p", api())`).
//! - `route`, Actix Web: `#[get("/x")]` (`post`, `put`, `patch`, `delete`, `head`) on a
//!   function (handler: the function); `web::resource("/x").route(web::get().to(h))` and
//!   `.to(h)` (`*`); `App::route("/x", web::post().to(h))`. `web::scope("/p")` prefixes routes
//!   chained on it or registered inside its `.service(…)`, and attribute handlers it registers
//!   by name (`.service(show)`).
//! - Across files: a handler, configuration or router of another module that a file mounts
//!   (`web::scope("/v1").service(handlers::list)`, `.configure(api::config)` with
//!   `use api::config;`, Axum's `.nest("/api", api::router())` and `.merge(health::router())`)
//!   takes the prefixes it is mounted at, through any number of files, by `crate::resolve::links`; a
//!   handler mounted at several prefixes gives one route per prefix.
//! - The framework is `actix` when the file imports `actix_web`, `axum` when it imports `axum`,
//!   else read from the shape (`.to(h)` is Actix).
//! - `http_call`: `reqwest::get(url)` (`reqwest::blocking::get`) and `client.get(url)` (`post`,
//!   `put`, `patch`, `delete`, `head`) in files that name `reqwest`, when the receiver's name
//!   mentions `client` or `http`, or the URL starts with `/` or `http`. The URL is a string
//!   literal or a `format!` template (placeholders become `{…}`); client `reqwest`.

use crate::lang::rust::walk::{field_child, Child};
use std::collections::BTreeMap;

use policies::facts::{Fact, FactKind};
use tree_sitter::Node;

use crate::facts::calls_and_assignments::FileSyntax;
use crate::facts::web::{self, join_path, HttpCallSite, RouteSite};
use crate::facts::FactFactory;
use crate::query::{Field, QueryHit};
use crate::resolve::links::{RouteLinks, RouterMember, RouterMount, RouterRef};
use crate::syntax::{self, named_children};

/// How deep nesting prefixes are followed.
const MAX_NEST_DEPTH: usize = 8;

const VERBS: [&str; 7] = ["get", "post", "put", "patch", "delete", "head", "options"];

/// Finds the project file and item a path written in the file names (`handlers::list`, or
/// `list` imported with `use crate::handlers::list;`), when that is another file.
pub(crate) type ItemResolver<'a> = &'a dyn Fn(&str) -> Option<(String, String)>;

/// The web facts of a Rust file, and (into `links`) the routers it mounts from other files and
/// the routers its routes hang off.
pub(crate) fn facts(
    factory: &FactFactory<'_>,
    hits: &[QueryHit<'_>],
    file: &FileSyntax<'_, '_>,
    resolve_item: ItemResolver<'_>,
    links: &std::cell::RefCell<RouteLinks>,
) -> Vec<Fact> {
    let source = file.source;
    let uses: Vec<&str> = named_children(file.root)
        .into_iter()
        .filter(|child| child.kind() == "use_declaration")
        .map(|declaration| syntax::text(declaration, source))
        .collect();
    let framework = if uses.iter().any(|text| text.contains("actix_web")) {
        Some("actix")
    } else if uses.iter().any(|text| text.contains("axum")) {
        Some("axum")
    } else {
        None
    };
    let mut reader = Reader {
        file,
        framework,
        mounts: None,
        calls: None,
    };
    let mut names_reqwest: Option<bool> = None;
    let mut facts = Vec::new();
    let mut members = Vec::new();
    for hit in hits {
        match hit.kind {
            FactKind::Route => {
                let (sites, router) = reader.routes(hit);
                for site in sites {
                    if let Some(router) = &router {
                        let (line, column) = syntax::start_position(site.node, source);
                        members.push(RouterMember {
                            line,
                            column,
                            router: RouterRef::Local(router.clone()),
                        });
                    }
                    facts.push(web::route_fact(factory, &site));
                }
            }
            FactKind::HttpCall => {
                let names = *names_reqwest.get_or_insert_with(|| {
                    syntax::has_node_with_text(file.root, source, "identifier", "reqwest")
                });
                if let Some(site) = names.then(|| http_call(hit, file)).flatten() {
                    facts.push(web::http_call_fact(factory, &site));
                }
            }
            _ => {}
        }
    }
    // The routers this file mounts (`.service(handlers::list)`, `.configure(api::config)`,
    // `.nest("/api", items::router())`), so that the routes of other files take the prefixes
    // they are mounted at here (`crate::resolve::links`).
    let mounts = if framework.is_some() {
        reader.mounts_for_links(resolve_item)
    } else {
        Vec::new()
    };
    if !members.is_empty() || !mounts.is_empty() {
        if let Ok(mut shared) = links.try_borrow_mut() {
            shared.members.extend(members);
            shared.mounts.extend(mounts);
        }
    }
    facts
}

/// The value of a string literal (`"…"`, `r"…"`).
fn string_value(node: Node<'_>, source: &str) -> Option<String> {
    match node.kind() {
        "string_literal" => Some(
            named_children(node)
                .into_iter()
                .map(|part| syntax::text(part, source))
                .collect(),
        ),
        "raw_string_literal" => named_children(node)
            .into_iter()
            .find(|part| part.kind() == "string_content")
            .map(|part| syntax::text(part, source).to_owned()),
        _ => None,
    }
}

fn arguments_of(call: Node<'_>) -> Vec<Node<'_>> {
    field_child(call, Child::Arguments)
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|argument| !argument.kind().contains("comment"))
        .collect()
}

/// `(receiver, method)` of a method call `receiver.method(…)`.
fn method_call<'tree, 's>(call: Node<'tree>, source: &'s str) -> Option<(Node<'tree>, &'s str)> {
    (call.kind() == "call_expression").then_some(())?;
    let function = field_child(call, Child::Function)
        .filter(|function| function.kind() == "field_expression")?;
    Some((
        field_child(function, Child::Value)?,
        syntax::text(field_child(function, Child::Field)?, source),
    ))
}

/// The last name of a plain function call's path (`web::get()` → `get`).
fn function_name<'source>(call: Node<'_>, source: &'source str) -> Option<&'source str> {
    (call.kind() == "call_expression").then_some(())?;
    let function = field_child(call, Child::Function)?;
    match function.kind() {
        "identifier" => Some(syntax::text(function, source)),
        "scoped_identifier" => {
            field_child(function, Child::Name).map(|name| syntax::text(name, source))
        }
        _ => None,
    }
}

/// The string first argument of a call of the plain function `name` (`web::scope("/p")`).
fn path_call(call: Node<'_>, source: &str, name: &str) -> Option<String> {
    (function_name(call, source)? == name).then_some(())?;
    string_value(*arguments_of(call).first()?, source)
}

/// The handler named by an argument: a function path, not a closure.
fn handler(node: Node<'_>, source: &str) -> Option<String> {
    matches!(node.kind(), "identifier" | "scoped_identifier")
        .then(|| syntax::compact_text(node, source, 120))
}

/// The `(method, handler)` pairs of a method router: Axum's `get(h).post(h2)` or Actix's
/// `web::get().to(h)`; the bool is whether the router was Actix-shaped.
fn method_routers(node: Node<'_>, source: &str) -> (Vec<(String, Option<String>)>, bool) {
    let mut found = Vec::new();
    let mut is_actix = false;
    let mut current = Some(node);
    let mut steps = 0;
    while let Some(call) = current.filter(|_| steps < 32) {
        steps += 1;
        if let Some((receiver, method)) = method_call(call, source) {
            let first = arguments_of(call).first().copied();
            if method == "to" {
                is_actix = true;
                // `web::get().guard(…).to(h)`: the verb is the chain's root call.
                let mut root = receiver;
                while let Some((inner, _)) = method_call(root, source) {
                    root = inner;
                }
                let verb = match function_name(root, source) {
                    Some(verb) if VERBS.contains(&verb) => verb.to_uppercase(),
                    _ => "*".to_owned(),
                };
                found.push((verb, first.and_then(|first| handler(first, source))));
                break;
            }
            if VERBS.contains(&method) || method == "any" {
                found.push((verb_of(method), first.and_then(|h| handler(h, source))));
            }
            current = Some(receiver);
        } else {
            if let Some(name) = function_name(call, source) {
                if VERBS.contains(&name) || name == "any" {
                    let first = arguments_of(call).first().copied();
                    found.push((verb_of(name), first.and_then(|h| handler(h, source))));
                }
            }
            current = None;
        }
    }
    found.reverse();
    (found, is_actix)
}

fn verb_of(name: &str) -> String {
    if name == "any" {
        "*".to_owned()
    } else {
        name.to_uppercase()
    }
}

/// Where routers are mounted: functions and bindings nested or registered under a prefix.
#[derive(Default)]
struct Mounts<'tree> {
    /// A function's name → the nest call and the prefix it mounts the function's router at.
    functions: BTreeMap<String, (Node<'tree>, String)>,
    /// `(binding, nest call, prefix)` of `.nest("/p", name)`.
    bindings: Vec<(String, Node<'tree>, String)>,
}

struct Reader<'a, 'b, 'tree> {
    file: &'a FileSyntax<'b, 'tree>,
    framework: Option<&'static str>,
    mounts: Option<Mounts<'tree>>,
    /// [`mount_calls`], found once.
    calls: Option<Vec<Node<'tree>>>,
}

impl<'tree> Reader<'_, '_, 'tree> {
    /// The route sites of a hit, with the function they are written in or, for an attribute
    /// route, the handler function: the router unit other files may mount.
    fn routes(&mut self, hit: &QueryHit<'tree>) -> (Vec<RouteSite<'tree>>, Option<String>) {
        let source = self.file.source;
        if let Some(attribute) = hit.node(Field::Decorator) {
            let site = self.attribute_route(hit, attribute);
            let unit = site.as_ref().and_then(|site| site.handler.clone());
            return (site.into_iter().collect(), unit);
        }
        let (Some(call), Some(receiver), Some(method)) = (
            hit.node(Field::Call),
            hit.node(Field::Receiver),
            hit.node(Field::Method),
        ) else {
            return (Vec::new(), None);
        };
        let unit = enclosing_function(self.file.root, call)
            .and_then(|function| field_child(function, Child::Name))
            .map(|name| syntax::text(name, source).to_owned());
        (self.chain_routes(call, receiver, method), unit)
    }

    fn chain_routes(
        &mut self,
        call: Node<'tree>,
        receiver: Node<'tree>,
        method: Node<'tree>,
    ) -> Vec<RouteSite<'tree>> {
        let source = self.file.source;
        let arguments = arguments_of(call);
        let own_path = chain_path(receiver, source, "resource");
        let (path, routers) = match (syntax::text(method, source), arguments.as_slice()) {
            ("route", [first, router]) => (
                string_value(*first, source),
                method_routers(*router, source),
            ),
            ("route", [router]) => (own_path, method_routers(*router, source)),
            ("to", [target]) if own_path.is_some() => (
                own_path,
                (vec![("*".to_owned(), handler(*target, source))], true),
            ),
            _ => (None, (Vec::new(), false)),
        };
        let Some(path) = path else {
            return Vec::new();
        };
        let (routers, is_actix) = routers;
        let framework = self
            .framework
            .unwrap_or(if is_actix { "actix" } else { "axum" });
        let scope = chain_path(receiver, source, "scope").unwrap_or_default();
        let prefix = self.prefix(call, MAX_NEST_DEPTH);
        // A chain spans lines: the evidence is the method name, where the route is written.
        routers
            .into_iter()
            .map(|(verb, handler)| RouteSite {
                node: method,
                method: verb,
                path: join_path(&[&prefix, &scope, &path]),
                framework,
                handler,
                scope: (self.file.scope_of)(call),
            })
            .collect()
    }

    fn attribute_route(
        &mut self,
        hit: &QueryHit<'tree>,
        attribute: Node<'tree>,
    ) -> Option<RouteSite<'tree>> {
        let source = self.file.source;
        let verb = syntax::text(hit.node(Field::Method)?, source);
        let path = named_children(hit.node(Field::Arguments)?)
            .into_iter()
            .next()
            .and_then(|first| string_value(first, source))?;
        let mut next = attribute.next_named_sibling();
        while let Some(item) =
            next.filter(|item| item.kind() == "attribute_item" || item.kind().contains("comment"))
        {
            next = item.next_named_sibling();
        }
        let function = next.filter(|item| item.kind() == "function_item")?;
        let name = syntax::text(field_child(function, Child::Name)?, source);
        let prefix = self
            .mounts()
            .functions
            .get(name)
            .cloned()
            .map(|(call, prefix)| join_path(&[&self.prefix(call, MAX_NEST_DEPTH), &prefix]))
            .unwrap_or_default();
        Some(RouteSite {
            node: attribute,
            method: verb.to_uppercase(),
            path: join_path(&[&prefix, &path]),
            framework: "actix",
            handler: Some(name.to_owned()),
            scope: (self.file.scope_of)(function),
        })
    }

    /// The mounts of the file for the linker: each function of the file a mount registers
    /// (`cfg.service(list)` in `fn routes(cfg)`) from the function the mount is written in, at
    /// no prefix (the file's own prefixes are in its routes' paths already), and each function of
    /// another project file a mount registers, at the prefix the file gives it (its scope's or
    /// nest's path after the file's own prefixes).
    fn mounts_for_links(&mut self, resolve_item: ItemResolver<'_>) -> Vec<RouterMount> {
        let (root, source) = (self.file.root, self.file.source);
        let functions = file_functions(root, source);
        let inline = inline_modules(root, source);
        let mut found = Vec::new();
        for call in self.mount_calls() {
            let Some(target) = mount_target(call, source) else {
                continue;
            };
            let Some(parent) = enclosing_function(root, call)
                .and_then(|function| field_child(function, Child::Name))
                .map(|parent| syntax::text(parent, source).to_owned())
            else {
                continue;
            };
            let written = syntax::text(target, source);
            let local = written.strip_prefix("self::").unwrap_or(written);
            // A function of an inline module is the file's own: its prefix is applied above.
            if local
                .split_once("::")
                .is_some_and(|(module, _)| inline.contains(module.trim()))
            {
                continue;
            }
            if functions.contains(local) {
                found.push(RouterMount {
                    parent: RouterRef::Local(parent),
                    prefix: String::new(),
                    replaces_own_prefix: false,
                    child: RouterRef::Local(local.to_owned()),
                    prefix_constant: None,
                });
                continue;
            }
            let Some((file, name)) = resolve_item(written) else {
                continue;
            };
            let Some((receiver, method)) = method_call(call, source) else {
                continue;
            };
            let own = match method {
                "nest" => arguments_of(call)
                    .first()
                    .and_then(|path| string_value(*path, source)),
                "merge" => Some(String::new()),
                _ => Some(chain_path(receiver, source, "scope").unwrap_or_default()),
            };
            let Some(own) = own else {
                continue;
            };
            let outer = self.prefix(call, MAX_NEST_DEPTH);
            found.push(RouterMount {
                parent: RouterRef::Local(parent),
                prefix: join_path(&[&outer, &own]),
                replaces_own_prefix: false,
                child: RouterRef::Imported { file, name },
                prefix_constant: None,
            });
        }
        found
    }

    /// The file's mount calls ([`mount_calls`]), found once for the in-file prefixes and the
    /// linker's mounts.
    fn mount_calls(&mut self) -> Vec<Node<'tree>> {
        let (root, source) = (self.file.root, self.file.source);
        self.calls
            .get_or_insert_with(|| mount_calls(root, source))
            .clone()
    }

    fn mounts(&mut self) -> &Mounts<'tree> {
        let (root, source) = (self.file.root, self.file.source);
        if self.mounts.is_none() {
            let calls = self.mount_calls();
            self.mounts = Some(mounts(&calls, root, source));
        }
        self.mounts.get_or_insert_with(Mounts::default)
    }

    /// The prefix under which the routes of `node` are mounted.
    fn prefix(&mut self, node: Node<'tree>, depth: usize) -> String {
        let Some(depth) = depth.checked_sub(1) else {
            return String::new();
        };
        let source = self.file.source;
        let mut prefixes: Vec<String> = Vec::new();
        let mut child = node;
        for ancestor in syntax::ancestors(self.file.root, node).into_iter().rev() {
            if ancestor.kind() == "arguments" {
                if let Some(own) = ancestor
                    .parent()
                    .and_then(|call| mount_prefix(call, ancestor, child, source))
                {
                    prefixes.push(own);
                }
            }
            if ancestor.kind() == "let_declaration" {
                let name = field_child(ancestor, Child::Pattern)
                    .filter(|pattern| pattern.kind() == "identifier")
                    .map(|pattern| syntax::text(pattern, source).to_owned());
                let root = self.file.root;
                let function = enclosing_function(root, ancestor);
                let found = name.and_then(|name| {
                    self.mounts()
                        .bindings
                        .iter()
                        .find(|(bound, call, _)| {
                            *bound == name
                                && function.is_some_and(|function| {
                                    enclosing_function(root, *call)
                                        .is_some_and(|other| other.id() == function.id())
                                })
                        })
                        .map(|(_, call, prefix)| (*call, prefix.clone()))
                });
                if let Some((call, own)) = found {
                    prefixes.push(own);
                    prefixes.push(self.prefix(call, depth));
                    break;
                }
            }
            if ancestor.kind() == "function_item" {
                let name = field_child(ancestor, Child::Name)
                    .map(|name| syntax::text(name, source).to_owned());
                let found = name.and_then(|name| self.mounts().functions.get(&name).cloned());
                if let Some((call, own)) = found {
                    prefixes.push(own);
                    prefixes.push(self.prefix(call, depth));
                }
                break;
            }
            child = ancestor;
        }
        prefixes.reverse();
        let segments: Vec<&str> = prefixes.iter().map(String::as_str).collect();
        if segments.iter().all(|segment| segment.is_empty()) {
            String::new()
        } else {
            join_path(&segments)
        }
    }
}

/// The prefix a call mounts the argument `child` of its `arguments` under: the path of an Axum
/// `.nest("/p", child)`, or of the scope an Actix `.service(child)` is chained on.
fn mount_prefix(
    call: Node<'_>,
    arguments: Node<'_>,
    child: Node<'_>,
    source: &str,
) -> Option<String> {
    let (receiver, method) = method_call(call, source)?;
    let first = named_children(arguments).into_iter().next()?;
    match method {
        "nest" if first.id() != child.id() => string_value(first, source),
        "service" => chain_path(receiver, source, "scope"),
        _ => None,
    }
}

/// The path of a `name("/p")` call at the root of a method chain (`web::scope("/api")`).
fn chain_path(receiver: Node<'_>, source: &str, name: &str) -> Option<String> {
    let mut current = receiver;
    let mut steps = 0;
    while let Some((inner, _)) = method_call(current, source).filter(|_| steps < 64) {
        current = inner;
        steps += 1;
    }
    path_call(current, source, name)
}

fn enclosing_function<'tree>(root: Node<'tree>, node: Node<'tree>) -> Option<Node<'tree>> {
    syntax::ancestors(root, node)
        .into_iter()
        .rev()
        .find(|ancestor| ancestor.kind() == "function_item")
}

/// Every `.nest("/p", x)` and scope `.service(x)` of the file whose `x` names a function (called
/// or passed) or a binding.
fn mounts<'tree>(calls: &[Node<'tree>], root: Node<'tree>, source: &str) -> Mounts<'tree> {
    let mut found = Mounts::default();
    let inline = inline_modules(root, source);
    for node in calls.iter().copied() {
        if let Some((receiver, method)) = method_call(node, source) {
            let arguments = arguments_of(node);
            let mount = match (method, arguments.as_slice()) {
                ("nest", [path, target]) => string_value(*path, source).map(|path| (path, *target)),
                ("service" | "configure", [target]) => {
                    chain_path(receiver, source, "scope").map(|path| (path, *target))
                }
                _ => None,
            };
            if let Some((path, target)) = mount {
                // A function of this file, or of one of its inline modules (`v1::hello` with
                // `mod v1 { … }`): a path through a module of another file (`orders::config`)
                // names that file's function, which `crate::resolve::links` follows.
                let written = match target.kind() {
                    "call_expression" => field_child(target, Child::Function)
                        .map(|function| syntax::text(function, source)),
                    "identifier" | "scoped_identifier" => Some(syntax::text(target, source)),
                    _ => None,
                };
                let function = written
                    .map(|written| written.strip_prefix("self::").unwrap_or(written))
                    .filter(|written| {
                        written
                            .split_once("::")
                            .is_none_or(|(module, _)| inline.contains(module.trim()))
                    })
                    .map(|written| written.rsplit("::").next().unwrap_or(written).trim());
                if let Some(function) = function {
                    found
                        .functions
                        .entry(function.to_owned())
                        .or_insert((node, path.clone()));
                }
                if target.kind() == "identifier" {
                    found
                        .bindings
                        .push((syntax::text(target, source).to_owned(), node, path));
                }
            }
        }
    }
    found
}

/// The function a mount call registers, as written: `.service(list)`, `.configure(api::config)`,
/// `.nest("/p", items::router())`, `.merge(items::router())`.
fn mount_target<'tree>(call: Node<'tree>, source: &str) -> Option<Node<'tree>> {
    let (_, method) = method_call(call, source)?;
    let target = match (method, arguments_of(call).as_slice()) {
        ("nest", [_, target]) | ("service" | "configure" | "merge", [target]) => *target,
        _ => return None,
    };
    match target.kind() {
        "identifier" | "scoped_identifier" => Some(target),
        "call_expression" => field_child(target, Child::Function)
            .filter(|function| matches!(function.kind(), "identifier" | "scoped_identifier")),
        _ => None,
    }
}

/// The names of the modules declared with a body at the top of the file (`mod v1 { … }`).
fn inline_modules<'s>(root: Node<'_>, source: &'s str) -> std::collections::BTreeSet<&'s str> {
    named_children(root)
        .into_iter()
        .filter(|item| item.kind() == "mod_item" && field_child(*item, Child::Body).is_some())
        .filter_map(|module| field_child(module, Child::Name))
        .map(|name| syntax::text(name, source))
        .collect()
}

/// The names of the functions declared at the top of the file.
fn file_functions<'s>(root: Node<'_>, source: &'s str) -> std::collections::BTreeSet<&'s str> {
    named_children(root)
        .into_iter()
        .filter(|item| item.kind() == "function_item")
        .filter_map(|function| field_child(function, Child::Name))
        .map(|name| syntax::text(name, source))
        .collect()
}

/// The calls `x.nest(…)`, `x.service(…)`, `x.configure(…)` and `x.merge(…)` of the file, in preorder (the
/// order a walk meets them). They are found from the places the source spells the method names,
/// each checked in the tree, instead of by walking every node of the file a second time.
fn mount_calls<'tree>(root: Node<'tree>, source: &str) -> Vec<Node<'tree>> {
    let mut calls = Vec::new();
    for method in ["nest", "service", "configure", "merge"] {
        for (start, _) in source.match_indices(method) {
            let end = start + method.len();
            let Some(name) = root.descendant_for_byte_range(start, end).filter(|name| {
                name.start_byte() == start
                    && name.end_byte() == end
                    && name.kind() == "field_identifier"
            }) else {
                continue;
            };
            let Some(function) = name
                .parent()
                .filter(|function| function.kind() == "field_expression")
                .filter(|function| {
                    field_child(*function, Child::Field)
                        .is_some_and(|field| field.id() == name.id())
                })
            else {
                continue;
            };
            let call = function.parent().filter(|call| {
                call.kind() == "call_expression"
                    && field_child(*call, Child::Function)
                        .is_some_and(|callee| callee.id() == function.id())
            });
            calls.extend(call);
        }
    }
    calls.sort_by_key(|call| (call.start_byte(), std::cmp::Reverse(call.end_byte())));
    calls.dedup_by_key(|call| call.id());
    calls
}

fn http_call<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
) -> Option<HttpCallSite<'tree>> {
    let source = file.source;
    let call = hit.node(Field::Call)?;
    let receiver = hit.node(Field::Receiver)?;
    let method = syntax::text(hit.node(Field::Method)?, source);
    let (url, is_static) = url_value(*arguments_of(call).first()?, source)?;
    let receiver_text = syntax::text(receiver, source).to_lowercase();
    if receiver.kind() == "scoped_identifier" || receiver_text == "reqwest" {
        // `reqwest::get(url)`: only `get` is a free function.
        (receiver_text.starts_with("reqwest") && method == "get").then_some(())?;
    } else {
        let is_client = receiver_text.contains("client") || receiver_text.contains("http");
        (is_client || url.starts_with('/') || url.starts_with("http")).then_some(())?;
    }
    Some(HttpCallSite {
        node: call,
        method: method.to_uppercase(),
        url,
        is_static,
        client: "reqwest",
        scope: (file.scope_of)(call),
    })
}

/// A URL argument: a string literal (static), a reference to one, or a `format!` template whose
/// placeholders become `{…}` (static when it starts with `/` or `http`).
fn url_value(node: Node<'_>, source: &str) -> Option<(String, bool)> {
    if let Some(value) = string_value(node, source) {
        return Some((value, true));
    }
    match node.kind() {
        "reference_expression" => url_value(field_child(node, Child::Value)?, source),
        "macro_invocation" => {
            let name = syntax::text(field_child(node, Child::Macro)?, source);
            (name == "format").then_some(())?;
            let tokens = named_children(node)
                .into_iter()
                .find(|child| child.kind() == "token_tree")?;
            let children = named_children(tokens);
            let template = string_value(*children.first()?, source)?;
            let mut arguments = children
                .iter()
                .skip(1)
                .map(|argument| syntax::text(*argument, source));
            let url = fill_template(&template, &mut arguments);
            let is_static = url.starts_with('/') || url.starts_with("http");
            Some((url, is_static))
        }
        _ => None,
    }
}

/// `{}` placeholders filled with `{argument}`; named ones (`{id}`) kept.
fn fill_template<'a>(template: &str, arguments: &mut impl Iterator<Item = &'a str>) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(index) = rest.find("{}") {
        out.push_str(rest.get(..index).unwrap_or_default());
        out.push('{');
        out.push_str(arguments.next().unwrap_or_default());
        out.push('}');
        rest = rest.get(index + 2..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::fill_template;

    #[test]
    fn format_templates_name_their_arguments() {
        let mut arguments = ["base", "id"].into_iter();
        assert_eq!(
            fill_template("{}/orders/{}?x={n}", &mut arguments),
            "{base}/orders/{id}?x={n}"
        );
    }
}
