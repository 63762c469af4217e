//! Routes and HTTP requests of Go files.
//!
//! - Routes: `r.GET("/x", h)` (Gin and Echo verbs, `Any` serves `*`), chi's `r.Get("/x", h)`,
//!   and net/http's `HandleFunc`/`Handle` (`http.HandleFunc("/x", h)`, `mux.Handle(…)`, with
//!   Go 1.22 method patterns `"GET /x"`; otherwise `*`). The first argument must be a string
//!   starting with `/` (after the method of a pattern), and there must be a handler argument;
//!   a Gin or Echo verb's path may also follow a configured base, as a group's (below).
//!   Gin/Echo group prefixes bound in the same file (`api := r.Group("/api")`) are applied, and
//!   so are the prefixes of chi's `r.Route("/api", func(r chi.Router) { … })` closures around a
//!   route on the closure's router.
//!   A group's path may be a `+` concatenation, read as a request URL is: a leading operand that
//!   is no literal is a base the configuration gives and is left out (`r.Group(conf.APIBaseURL +
//!   "/api/v1")` is `/api/v1`), a later one a `{…}` hole; without a literal operand, no prefix.
//!   A router handed to a project function (`routes.Register(v1)`, where `func Register(rg
//!   *gin.RouterGroup)` registers routes on `rg` or its groups), or to a method of a project
//!   type (`api.Register(v1)` with `api *routes.API` a parameter, receiver or variable of the
//!   caller: the method `API.Register`, in any file of its package), is a mount that
//!   `crate::resolve::links` applies across files and packages: functions are keyed by their
//!   package directory, and each router parameter by its position, which only the argument at
//!   that position mounts. So is
//!   chi's `r.Mount("/api", api.Routes())` of the router a project function builds and returns
//!   (`r := chi.NewRouter(); r.Get(…); return r`), routes in its `Route`/`Group` closures
//!   included, at the prefixes of the mounting router (its groups and closures) and `/api`.
//!   Mounts made in `_test.go` files are left out.
//!   The framework is `net/http` for `http.Handle`/`http.HandleFunc`, else `gin`, `echo`, `chi`,
//!   `beego` or `fasthttp` (`github.com/fasthttp/router`, whose verbs are Gin's: `r.GET("/x",
//!   h)`) when the file imports it, else `net/http` for `Handle`/`HandleFunc` on a mux;
//!   other verb calls in files without a router import are not routes. Beego's
//!   `web.Router("/api/users/?:id", &UserController{}, "get:Find")` is a route of the verb its
//!   mapping names (`*` for several, for `*` or for none), its optional parameters parameters.
//!   Handler: the handler argument when it is a name or selector.
//! - `http_call`, an `http.Client` value (in files importing `net/http`): `client.Get(url)`,
//!   `c.httpClient.Post(url, …)`, `Head`, on a receiver whose last name mentions `client`, with a
//!   string URL; client `net/http`. Such a call is no route.
//! - `http_call`, resty (in files importing `go-resty/resty`): `client.R().SetBody(b).Post("/x")`
//!   and the other verbs on a request chain that starts at `.R()`; client `resty`.
//! - `http_call`: `http.Get`, `http.Post`, `http.Head`, `http.PostForm` and
//!   `http.NewRequest[WithContext]` with a literal method or net/http's constant
//!   (`http.MethodDelete`), else `*`; client `net/http`. A top-level string `const` of the file
//!   (or, once every file is extracted, of another file of its package:
//!   `crate::lang::go::package_constants`) stands for its value in the URL (`base + "/orders"`, or the name alone), and so does a
//!   `fmt.Sprintf` of a literal format, its verbs holes named by their arguments
//!   (`fmt.Sprintf("%s/artist/%d", base, id)` is `{base}/artist/{id}`, then the constant's value).

mod mounts;
mod requests;

use mounts::*;
pub(crate) use requests::package_constants;
use requests::*;

use crate::lang::go::walk::{field_child, Child};
use crate::syntax::ChildField;
use std::collections::BTreeMap;

use policies::facts::{Fact, FactKind};
use tree_sitter::Node;

use crate::facts::calls_and_assignments::FileSyntax;
use crate::facts::web::{self, join_path, HttpCallSite, RouteSite};
use crate::facts::FactFactory;
use crate::lang::go::walk::RouteSyntax;
use crate::language::ExtractionInput;
use crate::query::{Field, QueryHit};
use crate::resolve::links::{RouteLinks, RouterMember, RouterMount, RouterRef};
use crate::syntax::{self, named_children};

/// How deep group receivers are followed.
const MAX_GROUP_DEPTH: usize = 16;

/// How many calls and variables a resty request's chain is followed through down to `.R()`.
const MAX_CHAIN_STEPS: usize = 64;

/// The route and `http_call` facts of a Go file.
pub(crate) fn facts<'tree>(
    input: &ExtractionInput<'_>,
    factory: &FactFactory<'_>,
    (hits, syntax): (&[QueryHit<'tree>], &RouteSyntax<'tree>),
    file: &FileSyntax<'_, 'tree>,
    (package_dirs, constants): (&BTreeMap<String, String>, &BTreeMap<String, String>),
) -> Vec<Fact> {
    let imports = imports(file.root, file.source);
    let framework = ["gin", "echo", "chi", "beego", "fasthttp"]
        .into_iter()
        .find(|framework| {
            imports.iter().any(|path| match *framework {
                "gin" => path.contains("gin-gonic/gin"),
                "echo" => path.contains("labstack/echo"),
                "beego" => path.contains("beego/beego") || path.contains("astaxie/beego"),
                "fasthttp" => path.contains("fasthttp/router"),
                _ => path.contains("go-chi/chi"),
            })
        });
    let imports_chi = imports.iter().any(|path| path.contains("go-chi/chi"));
    let statements = syntax.statements.as_slice();
    let mut groups: Option<BTreeMap<String, Node<'_>>> = None;
    let mut facts = Vec::new();
    let own_dir = input
        .path
        .rsplit_once('/')
        .map_or("", |(directory, _)| directory);
    let mut links = RouteLinks::default();
    let imports_resty = imports.iter().any(|path| path.contains("go-resty/resty"));
    let imports_net_http = imports.contains(&"net/http");
    let returns = Returns::default();
    for hit in hits {
        match hit.kind {
            FactKind::Route => {
                // An `http.Client`'s `client.Get("https://…")` (`Post`, `Head`), and resty's
                // `client.R().SetBody(b).Post("/x")`, are requests, not routes.
                let request = imports_net_http
                    .then(|| client_call(hit, file, constants))
                    .flatten()
                    .map(|found| (found, "net/http"))
                    .or_else(|| {
                        imports_resty
                            .then(|| resty_call(hit, file))
                            .flatten()
                            .map(|found| (found, "resty"))
                    });
                if let Some(((call, method, url_node), client)) = request {
                    let url = resolved_url(url_node, file, constants);
                    if let Some(url) = url {
                        let site = HttpCallSite {
                            node: call,
                            method,
                            url,
                            is_static: true,
                            client,
                            scope: (file.scope_of)(call),
                        };
                        facts.push(web::http_call_fact(factory, &site));
                    }
                    continue;
                }
                if let Some(site) = route(
                    hit,
                    file,
                    (framework, imports_chi),
                    (statements, &mut groups),
                ) {
                    let declarations =
                        groups.get_or_insert_with(|| group_bindings(statements, file.source));
                    if let Some(router) = hit.node(Field::Receiver).and_then(|receiver| {
                        parameter_router(receiver, file, declarations, own_dir).or_else(|| {
                            returned_router(
                                receiver,
                                file,
                                (declarations, statements, &returns),
                                own_dir,
                            )
                        })
                    }) {
                        let (line, column) = syntax::start_position(site.node, file.source);
                        links.members.push(RouterMember {
                            line,
                            column,
                            router,
                        });
                    }
                    facts.push(web::route_fact(factory, &site));
                }
            }
            FactKind::HttpCall => {
                if let Some(site) = http_call(hit, file, constants) {
                    facts.push(web::http_call_fact(factory, &site));
                }
            }
            _ => {}
        }
    }
    // Tests mount routers at prefixes of their own: they say nothing about the served API.
    let is_test = input.path.ends_with("_test.go");
    if (framework.is_some() || !links.members.is_empty()) && !is_test {
        let declarations = groups.get_or_insert_with(|| group_bindings(statements, file.source));
        links.mounts = mounts(
            &syntax.calls,
            file,
            (declarations, statements, &returns),
            package_dirs,
            own_dir,
        );
    }
    if !links.is_empty() {
        if let Ok(mut shared) = input.links.try_borrow_mut() {
            *shared = links;
        }
    }
    facts
}

/// The identifier a group chain starts at (`rg` for `users` after `users := rg.Group("/u")`).
fn chain_root<'tree>(
    node: Node<'tree>,
    source: &str,
    bindings: &BTreeMap<String, Node<'tree>>,
    depth: usize,
) -> Option<Node<'tree>> {
    let depth = depth.checked_sub(1)?;
    match node.kind() {
        "identifier" => match bindings.get(syntax::text(node, source)) {
            Some(value) if is_group_call(*value, source) => {
                chain_root(*value, source, bindings, depth)
            }
            _ => Some(node),
        },
        "call_expression" => {
            let function = field_child(node, Child::Function)?;
            let operand = field_child(function, Child::Operand)?;
            chain_root(operand, source, bindings, depth)
        }
        _ => None,
    }
}

/// Whether `node` is `x.Group(…)` (Gin, Echo) or `x.Route(…)` (chi).
fn is_group_call(node: Node<'_>, source: &str) -> bool {
    node.kind() == "call_expression"
        && field_child(node, Child::Function)
            .filter(|function| function.kind() == "selector_expression")
            .and_then(|function| field_child(function, Child::Field))
            .is_some_and(|field| matches!(syntax::text(field, source), "Group" | "Route"))
}

fn imports<'a>(root: Node<'_>, source: &'a str) -> Vec<&'a str> {
    let mut paths = Vec::new();
    for declaration in named_children(root)
        .into_iter()
        .filter(|child| child.kind() == "import_declaration")
    {
        let mut pending = vec![declaration];
        while let Some(node) = pending.pop() {
            if node.kind() == "import_spec" {
                if let Some(path) = field_child(node, Child::Path) {
                    paths.push(syntax::text(path, source).trim_matches(['"', '`']));
                }
            } else {
                pending.extend(named_children(node));
            }
        }
    }
    paths
}

/// The value of a Go string literal (interpreted or raw).
fn string_value(node: Node<'_>, source: &str) -> Option<String> {
    match node.kind() {
        "interpreted_string_literal" => Some(
            named_children(node)
                .into_iter()
                .map(|part| syntax::text(part, source))
                .collect(),
        ),
        "raw_string_literal" => Some(syntax::text(node, source).trim_matches('`').to_owned()),
        _ => None,
    }
}

/// Whether `name` is a verb written as chi writes it (`Get`, `Post`, …).
fn is_title_case_verb(name: &str) -> bool {
    matches!(
        name,
        "Get" | "Post" | "Put" | "Patch" | "Delete" | "Head" | "Options" | "Connect" | "Trace"
    )
}

/// The prefixes of the chi `Route("/p", func(r chi.Router) { … })` closures whose router
/// parameter `receiver` names, outermost first: each closure's prefix joined to that of the
/// receiver of its own `Route` call.
fn closure_prefix(file: &FileSyntax<'_, '_>, call: Node<'_>, receiver: Node<'_>) -> String {
    let source = file.source;
    if receiver.kind() != "identifier" {
        return String::new();
    }
    let mut name = syntax::text(receiver, source);
    let mut prefixes: Vec<String> = Vec::new();
    let ancestors = syntax::ancestors(file.root, call);
    for (index, ancestor) in ancestors.iter().enumerate().rev() {
        if ancestor.kind() != "func_literal" {
            continue;
        }
        // The literal's parameters: is `name` one of them?
        if !declares_parameter(*ancestor, name, source) {
            // A closure that does not declare the name leaves it to an outer one.
            continue;
        }
        // … and is it the handler of a `x.Route("/p", …)` call?
        let route_call = index
            .checked_sub(2)
            .and_then(|at| ancestors.get(at))
            .filter(|node| node.kind() == "call_expression");
        let Some((operand, field, arguments)) = route_call.and_then(|route_call| {
            let function = field_child(*route_call, Child::Function)
                .filter(|function| function.kind() == "selector_expression")?;
            Some((
                field_child(function, Child::Operand)?,
                field_child(function, Child::Field)?,
                field_child(*route_call, Child::Arguments)?,
            ))
        }) else {
            break;
        };
        if syntax::text(field, source) != "Route" || operand.kind() != "identifier" {
            break;
        }
        let Some(prefix) = named_children(arguments)
            .into_iter()
            .next()
            .and_then(|first| string_value(first, source))
        else {
            break;
        };
        prefixes.push(prefix);
        name = syntax::text(operand, source);
    }
    prefixes.reverse();
    let parts: Vec<&str> = prefixes.iter().map(String::as_str).collect();
    if parts.is_empty() {
        String::new()
    } else {
        join_path(&parts)
    }
}

fn route<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
    (framework, imports_chi): (Option<&'static str>, bool),
    (statements, groups): (&[Node<'tree>], &mut Option<BTreeMap<String, Node<'tree>>>),
) -> Option<RouteSite<'tree>> {
    let source = file.source;
    let (call, receiver, name) = (
        hit.node(Field::Call)?,
        hit.node(Field::Receiver)?,
        syntax::text(hit.node(Field::Method)?, source),
    );
    let arguments: Vec<Node<'_>> = named_children(hit.node(Field::Arguments)?)
        .into_iter()
        .filter(|argument| argument.kind() != "comment")
        .collect();
    let (first, handler) = (arguments.first()?, arguments.last()?);
    if arguments.len() < 2 {
        return None;
    }
    // Gin's and Echo's verbs (`GET`, `Any`) may also take a path after a configured base
    // (`r.GET(conf.APIBaseURL+"/installation/init", h)`), read as a group's path is; the other
    // verbs are also requests' (`http.Post(base+"/x", …)`), and take a string only.
    let pattern = match string_value(*first, source) {
        Some(pattern) => pattern,
        None if name == "Any" || name.chars().all(|letter| letter.is_ascii_uppercase()) => {
            group_path(*first, source)?
        }
        None => return None,
    };
    let is_net_http = name == "Handle" || name == "HandleFunc";
    // Beego's `web.Router("/api/users", &UserController{}, "get:List;post:Add")`: the mapping
    // names the verbs (`*` for any, or none: the controller's methods answer every verb).
    let is_beego_router = name == "Router";
    if is_beego_router && framework != Some("beego") {
        return None;
    }
    let (method, path) = if is_beego_router {
        // An optional parameter (`/api/orders/?:id`) is a parameter: `?` starts no query here.
        (
            beego_method(arguments.get(2).copied(), source),
            pattern.replace("/?:", "/:"),
        )
    } else if is_net_http {
        match pattern.split_once(' ') {
            Some((method, path)) => (method.to_owned(), path.trim().to_owned()),
            None => ("*".to_owned(), pattern),
        }
    } else {
        let method = match name {
            "Any" => "*".to_owned(),
            verb => verb.to_uppercase(),
        };
        (method, pattern)
    };
    if !path.starts_with('/') {
        return None;
    }
    let is_http_package =
        receiver.kind() == "identifier" && syntax::text(receiver, source) == "http";
    let framework = match framework {
        _ if is_net_http && is_http_package => "net/http",
        // chi's verbs are capitalised words (`Get`), Gin's and Echo's upper case (`GET`).
        Some("gin" | "echo") if imports_chi && is_title_case_verb(name) => "chi",
        Some(framework) => framework,
        None if is_net_http => "net/http",
        None => return None,
    };
    let declarations = groups.get_or_insert_with(|| group_bindings(statements, source));
    let bound = group_prefix(receiver, source, declarations, MAX_GROUP_DEPTH);
    // chi's `r.Route("/api", func(r chi.Router) { r.Get(…) })`: the closure's router (only chi
    // routes by closure, so only its routes look up their ancestors).
    let prefix = if framework == "chi" {
        join_path(&[&closure_prefix(file, call, receiver), &bound])
    } else {
        bound
    };
    Some(RouteSite {
        node: call,
        method,
        path: join_path(&[&prefix, &path]),
        framework,
        handler: matches!(handler.kind(), "identifier" | "selector_expression")
            .then(|| syntax::compact_text(*handler, source, 120)),
        scope: (file.scope_of)(call),
    })
}

/// The verb of a Beego `Router` registration from its method mapping (`"get:List"`); `*` when
/// the mapping is absent, is not a plain string, or names several verbs or `*`.
fn beego_method(mapping: Option<Node<'_>>, source: &str) -> String {
    let verbs: Vec<String> = mapping
        .and_then(|mapping| string_value(mapping, source))
        .map(|mapping| {
            mapping
                .split(';')
                .flat_map(|pair| {
                    pair.split_once(':')
                        .map_or("", |(verbs, _)| verbs)
                        .split(',')
                })
                .map(|verb| verb.trim().to_uppercase())
                .collect()
        })
        .unwrap_or_default();
    match verbs.as_slice() {
        [verb] if !verb.is_empty() && verb != "*" => verb.clone(),
        _ => "*".to_owned(),
    }
}

/// `name := value` bindings of the file, first one wins, from its `:=` and `=` statements in
/// order (found by the file's one walk).
fn group_bindings<'tree>(
    statements: &[Node<'tree>],
    source: &str,
) -> BTreeMap<String, Node<'tree>> {
    let mut bindings = BTreeMap::new();
    for node in statements {
        let left = field_child(*node, Child::Left).map(named_children);
        let right = field_child(*node, Child::Right).map(named_children);
        if let (Some([name]), Some([value])) = (left.as_deref(), right.as_deref()) {
            bindings
                .entry(syntax::text(*name, source).to_owned())
                .or_insert(*value);
        }
    }
    bindings
}

/// The prefix of a receiver bound to `x.Group("/p")` (Gin, Echo) or `x.Route("/p", …)`.
fn group_prefix(
    receiver: Node<'_>,
    source: &str,
    bindings: &BTreeMap<String, Node<'_>>,
    depth: usize,
) -> String {
    let Some(depth) = depth.checked_sub(1) else {
        return String::new();
    };
    match receiver.kind() {
        "identifier" => bindings
            .get(syntax::text(receiver, source))
            .map(|value| group_prefix(*value, source, bindings, depth))
            .unwrap_or_default(),
        "call_expression" => {
            let Some(function) = field_child(receiver, Child::Function)
                .filter(|function| function.kind() == "selector_expression")
            else {
                return String::new();
            };
            let (Some(operand), Some(field)) = (
                field_child(function, Child::Operand),
                field_child(function, Child::Field),
            ) else {
                return String::new();
            };
            let outer = group_prefix(operand, source, bindings, depth);
            if syntax::text(field, source) != "Group" {
                return outer;
            }
            let own = field_child(receiver, Child::Arguments)
                .and_then(|list| named_children(list).into_iter().next())
                .and_then(|first| group_path(first, source))
                .unwrap_or_default();
            join_path(&[&outer, &own])
        }
        _ => String::new(),
    }
}

/// A group's path: a string, or a `+` concatenation read as request URLs are
/// (`crate::facts::web::concatenated_url`): a leading operand that is no literal is a base the
/// configuration gives (`uiConf.APIBaseURL + "/answer/api/v1"` serves `/answer/api/v1` under
/// it) and is left out, as a request URL's dynamic base is; a later one is a `{…}` hole
/// (`"/api/" + version` is `/api/{version}`). `None` when no operand is a literal, or the path
/// is not known after a leading operand: no prefix is applied rather than a wrong one.
fn group_path(node: Node<'_>, source: &str) -> Option<String> {
    let written = url_value(node, source)?;
    web::after_dynamic_base(&written).map(std::borrow::Cow::into_owned)
}
