//! Routes and HTTP requests of Go files.
//!
//! - Routes: `r.GET("/x", h)` (Gin and Echo verbs, `Any` serves `*`), chi's `r.Get("/x", h)`,
//!   and net/http's `HandleFunc`/`Handle` (`http.HandleFunc("/x", h)`, `mux.Handle(…)`, with
//!   Go 1.22 method patterns `"GET /x"`; otherwise `*`). The first argument must be a string
//!   starting with `/` (after the method of a pattern), and there must be a handler argument.
//!   Gin/Echo group prefixes bound in the same file (`api := r.Group("/api")`) are applied, and
//!   so are the prefixes of chi's `r.Route("/api", func(r chi.Router) { … })` closures around a
//!   route on the closure's router.
//!   A router handed to a project function (`routes.Register(v1)`, where `func Register(rg
//!   *gin.RouterGroup)` registers routes on `rg` or its groups) is a mount that `crate::resolve::links`
//!   applies across files and packages: functions are keyed by their package directory. So is
//!   chi's `r.Mount("/api", api.Routes())` of the router a project function builds and returns
//!   (`r := chi.NewRouter(); r.Get(…); return r`), routes in its `Route`/`Group` closures
//!   included, at the prefixes of the mounting router (its groups and closures) and `/api`.
//!   Mounts made in `_test.go` files are left out.
//!   The framework is `net/http` for `http.Handle`/`http.HandleFunc`, else `gin`, `echo` or
//!   `chi` when the file imports it, else `net/http` for `Handle`/`HandleFunc` on a mux; other
//!   verb calls in files without a router import are not routes.
//!   Handler: the handler argument when it is a name or selector.
//! - `http_call`, an `http.Client` value (in files importing `net/http`): `client.Get(url)`,
//!   `c.httpClient.Post(url, …)`, `Head`, on a receiver whose last name mentions `client`, with a
//!   string URL; client `net/http`. Such a call is no route.
//! - `http_call`, resty (in files importing `go-resty/resty`): `client.R().SetBody(b).Post("/x")`
//!   and the other verbs on a request chain that starts at `.R()`; client `resty`.
//! - `http_call`: `http.Get`, `http.Post`, `http.Head`, `http.PostForm` and
//!   `http.NewRequest[WithContext]` with a literal method or net/http's constant
//!   (`http.MethodDelete`); client `net/http`. A top-level string `const` of the file stands
//!   for its value in the URL (`base + "/orders"`).

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
    package_dirs: &BTreeMap<String, String>,
) -> Vec<Fact> {
    let imports = imports(file.root, file.source);
    let framework = ["gin", "echo", "chi"].into_iter().find(|framework| {
        imports.iter().any(|path| match *framework {
            "gin" => path.contains("gin-gonic/gin"),
            "echo" => path.contains("labstack/echo"),
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
    let mut constants: Option<BTreeMap<String, String>> = None;
    let imports_resty = imports.iter().any(|path| path.contains("go-resty/resty"));
    let imports_net_http = imports.contains(&"net/http");
    let returns = Returns::default();
    for hit in hits {
        match hit.kind {
            FactKind::Route => {
                // An `http.Client`'s `client.Get("https://…")` (`Post`, `Head`), and resty's
                // `client.R().SetBody(b).Post("/x")`, are requests, not routes.
                let request = imports_net_http
                    .then(|| client_call(hit, file))
                    .flatten()
                    .map(|found| (found, "net/http"))
                    .or_else(|| {
                        imports_resty
                            .then(|| resty_call(hit, file))
                            .flatten()
                            .map(|found| (found, "resty"))
                    });
                if let Some(((call, method, url_node), client)) = request {
                    let url = url_value(url_node, file.source).map(|url| {
                        web::with_lazy_constants(url, &mut constants, || {
                            package_constants(file.root, file.source)
                        })
                    });
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
                if let Some(site) = http_call(hit, file, &mut constants) {
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

/// The router a route receiver hangs off when its group chain starts at a parameter of the
/// enclosing function (`func Register(rg *gin.RouterGroup) { users := rg.Group("/users");
/// users.GET(…) }`): that function, keyed by its package directory (`dir/`), since Go callers
/// name functions by package.
fn parameter_router(
    receiver: Node<'_>,
    file: &FileSyntax<'_, '_>,
    bindings: &BTreeMap<String, Node<'_>>,
    own_dir: &str,
) -> Option<RouterRef> {
    let source = file.source;
    let root = chain_root(receiver, source, bindings, MAX_GROUP_DEPTH)?;
    let name = syntax::text(root, source);
    let function = syntax::ancestors(file.root, receiver)
        .into_iter()
        .rev()
        .find(|node| matches!(node.kind(), "function_declaration" | "method_declaration"))?;
    if function.kind() != "function_declaration" {
        return None;
    }
    let is_parameter = field_child(function, Child::Parameters)
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|parameter| parameter.kind() == "parameter_declaration")
        .flat_map(|parameter| {
            let mut cursor = parameter.walk();
            parameter
                .children_by_field_name("name", &mut cursor)
                .collect::<Vec<_>>()
        })
        .any(|parameter| syntax::text(parameter, source) == name);
    is_parameter.then(|| RouterRef::Imported {
        file: format!("{own_dir}/"),
        name: field_child(function, Child::Name)
            .map(|name| syntax::text(name, source).to_owned())
            .unwrap_or_default(),
    })
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

/// The calls that hand a router to a function of the project (`routes.Register(v1)`,
/// `registerUsers(api.Group("/users"))`): each is a mount of that function, keyed by its
/// package directory, under the router the argument's chain starts at, with the argument's group
/// prefix. An argument counts when it is a group chain, or a variable or parameter whose chain
/// starts at a parameter of the enclosing function, or bound to `gin.Default()`-style
/// constructors (`Default`, `New`, `NewRouter`, `NewServeMux`).
///
/// chi's `r.Mount("/api", api.Routes())` mounts the router a function of the project returns
/// (`func Routes() chi.Router { r := chi.NewRouter(); …; return r }`) at its prefix.
fn mounts(
    calls: &[Node<'_>],
    file: &FileSyntax<'_, '_>,
    context: (&BTreeMap<String, Node<'_>>, &[Node<'_>], &Returns),
    package_dirs: &BTreeMap<String, String>,
    own_dir: &str,
) -> Vec<RouterMount> {
    calls
        .iter()
        .flat_map(|call| {
            let mut found = mount_of(*call, file, context.0, package_dirs, own_dir);
            found.extend(returned_mount_of(
                *call,
                file,
                context,
                package_dirs,
                own_dir,
            ));
            found
        })
        .collect()
}

/// The project function a call names, by its package directory: `routes()` in the file's own
/// package, `api.Routes()` in the package the file imports as `api`.
fn project_function(
    call: Node<'_>,
    source: &str,
    package_dirs: &BTreeMap<String, String>,
    own_dir: &str,
) -> Option<(String, String)> {
    let function = field_child(call, Child::Function)?;
    match function.kind() {
        "identifier" => Some((
            own_dir.to_owned(),
            syntax::text(function, source).to_owned(),
        )),
        "selector_expression" => {
            let operand = field_child(function, Child::Operand)?;
            let field = field_child(function, Child::Field)?;
            let directory = package_dirs.get(syntax::text(operand, source))?;
            Some((directory.clone(), syntax::text(field, source).to_owned()))
        }
        _ => None,
    }
}

/// chi's `x.Mount("/p", f())` with `f` a function of the project: a mount of the router `f`
/// returns under the router `x` is (a parameter's, a returned one's, or a constructed
/// variable's), at `x`'s prefixes and `/p`.
fn returned_mount_of(
    call: Node<'_>,
    file: &FileSyntax<'_, '_>,
    (bindings, statements, returns): (&BTreeMap<String, Node<'_>>, &[Node<'_>], &Returns),
    package_dirs: &BTreeMap<String, String>,
    own_dir: &str,
) -> Option<RouterMount> {
    let source = file.source;
    let function = field_child(call, Child::Function)
        .filter(|function| function.kind() == "selector_expression")?;
    if syntax::text(field_child(function, Child::Field)?, source) != "Mount" {
        return None;
    }
    let receiver = field_child(function, Child::Operand)?;
    let arguments: Vec<Node<'_>> = field_child(call, Child::Arguments)
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|argument| argument.kind() != "comment")
        .collect();
    let [pattern, handler] = arguments.as_slice() else {
        return None;
    };
    let pattern = string_value(*pattern, source)?;
    if handler.kind() != "call_expression" {
        return None;
    }
    let (directory, name) = project_function(*handler, source, package_dirs, own_dir)?;
    let parent = parameter_router(receiver, file, bindings, own_dir)
        .or_else(|| returned_router(receiver, file, (bindings, statements, returns), own_dir))
        .or_else(|| {
            let root = chain_root(receiver, source, bindings, MAX_GROUP_DEPTH)?;
            let root_name = syntax::text(root, source);
            bindings
                .get(root_name)
                .is_some_and(|value| is_constructor(*value, source))
                .then(|| RouterRef::Local(root_name.to_owned()))
        })?;
    let prefix = join_path(&[
        &closure_prefix(file, call, receiver),
        &group_prefix(receiver, source, bindings, MAX_GROUP_DEPTH),
        &pattern,
    ]);
    Some(RouterMount {
        parent,
        prefix,
        replaces_own_prefix: false,
        child: RouterRef::Imported {
            file: format!("{directory}/"),
            name,
        },
        prefix_constant: None,
    })
}

/// Whether a value is a router constructor call (`gin.Default()`, `echo.New()`,
/// `chi.NewRouter()`, `http.NewServeMux()`).
fn is_constructor(value: Node<'_>, source: &str) -> bool {
    value.kind() == "call_expression"
        && field_child(value, Child::Function)
            .map(|callee| syntax::text(callee, source))
            .and_then(|callee| callee.rsplit('.').next())
            .is_some_and(|last| matches!(last, "Default" | "New" | "NewRouter" | "NewServeMux"))
}

/// The router a route or mount receiver hangs off when the enclosing function builds it and
/// returns it (`func Routes() chi.Router { r := chi.NewRouter(); r.Get(…); return r }`), also
/// from inside the closures of its `r.Route("/p", func(r chi.Router) {…})` and `r.Group(…)`:
/// that function, keyed by its package directory (`dir/`), as [`parameter_router`] keys it.
fn returned_router(
    receiver: Node<'_>,
    file: &FileSyntax<'_, '_>,
    (bindings, statements, returns): (&BTreeMap<String, Node<'_>>, &[Node<'_>], &Returns),
    own_dir: &str,
) -> Option<RouterRef> {
    let source = file.source;
    let root = chain_root(receiver, source, bindings, MAX_GROUP_DEPTH)?;
    let mut name = syntax::text(root, source);
    let ancestors = syntax::ancestors(file.root, receiver);
    // Out of the closures that declare the name and are the handlers of `x.Route`/`x.Group`.
    for (index, ancestor) in ancestors.iter().enumerate().rev() {
        if ancestor.kind() == "function_declaration" {
            break;
        }
        if ancestor.kind() != "func_literal" || !declares_parameter(*ancestor, name, source) {
            continue;
        }
        let operand = index
            .checked_sub(2)
            .and_then(|at| ancestors.get(at))
            .filter(|node| node.kind() == "call_expression")
            .and_then(|call| field_child(*call, Child::Function))
            .filter(|function| function.kind() == "selector_expression")
            .filter(|function| {
                field_child(*function, Child::Field)
                    .is_some_and(|field| matches!(syntax::text(field, source), "Route" | "Group"))
            })
            .and_then(|function| field_child(function, Child::Operand))
            .filter(|operand| operand.kind() == "identifier")?;
        name = syntax::text(operand, source);
    }
    let function = ancestors
        .iter()
        .rev()
        .find(|node| node.kind() == "function_declaration")?;
    let within = |node: &Node<'_>| {
        node.start_byte() >= function.start_byte() && node.end_byte() <= function.end_byte()
    };
    // Built in the function …
    let built = statements
        .iter()
        .filter(|statement| within(statement))
        .any(|statement| {
            let left = field_child(*statement, Child::Left).map(named_children);
            let right = field_child(*statement, Child::Right).map(named_children);
            matches!(
                (left.as_deref(), right.as_deref()),
                (Some([bound]), Some([value]))
                    if syntax::text(*bound, source) == name && is_constructor(*value, source)
            )
        });
    // … and returned by it.
    let returned = built
        && returns
            .of(*function, source)
            .iter()
            .any(|value| value == name);
    returned.then(|| RouterRef::Imported {
        file: format!("{own_dir}/"),
        name: field_child(*function, Child::Name)
            .map(|name| syntax::text(name, source).to_owned())
            .unwrap_or_default(),
    })
}

/// The names each function of a file returns (`return r`, `return r, nil`), read once per
/// function however many routes and mounts ask ([`returned_router`]).
#[derive(Default)]
struct Returns(std::cell::RefCell<BTreeMap<usize, Vec<String>>>);

impl Returns {
    fn of(&self, function: Node<'_>, source: &str) -> Vec<String> {
        self.0
            .borrow_mut()
            .entry(function.id())
            .or_insert_with(|| {
                syntax::descendants(function)
                    .filter(|node| node.kind() == "return_statement")
                    .flat_map(named_children)
                    .flat_map(|list| {
                        if list.kind() == "expression_list" {
                            named_children(list)
                        } else {
                            vec![list]
                        }
                    })
                    .filter(|value| value.kind() == "identifier")
                    .map(|value| syntax::text(value, source).to_owned())
                    .collect()
            })
            .clone()
    }
}

/// Whether a function literal declares a parameter `name`.
fn declares_parameter(literal: Node<'_>, name: &str, source: &str) -> bool {
    literal
        .child_field("parameters")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .flat_map(|parameter| {
            named_children(parameter)
                .into_iter()
                .filter(|child| child.kind() == "identifier")
        })
        .any(|parameter| syntax::text(parameter, source) == name)
}

fn mount_of(
    call: Node<'_>,
    file: &FileSyntax<'_, '_>,
    bindings: &BTreeMap<String, Node<'_>>,
    package_dirs: &BTreeMap<String, String>,
    own_dir: &str,
) -> Vec<RouterMount> {
    let source = file.source;
    let Some((directory, name)) = project_function(call, source, package_dirs, own_dir) else {
        return Vec::new();
    };
    let arguments = field_child(call, Child::Arguments)
        .map(named_children)
        .unwrap_or_default();
    let mut found = Vec::new();
    for argument in arguments {
        let Some(root) = chain_root(argument, source, bindings, MAX_GROUP_DEPTH) else {
            continue;
        };
        let root_name = syntax::text(root, source);
        let parent = match parameter_router(argument, file, bindings, own_dir) {
            Some(parent) => parent,
            None => {
                let constructed = bindings
                    .get(root_name)
                    .is_some_and(|value| is_constructor(*value, source));
                if !constructed {
                    continue;
                }
                RouterRef::Local(root_name.to_owned())
            }
        };
        found.push(RouterMount {
            parent,
            prefix: group_prefix(argument, source, bindings, MAX_GROUP_DEPTH),
            replaces_own_prefix: false,
            child: RouterRef::Imported {
                file: format!("{directory}/"),
                name: name.to_owned(),
            },
            prefix_constant: None,
        });
    }
    found
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
    let pattern = string_value(*first, source)?;
    let is_net_http = name == "Handle" || name == "HandleFunc";
    let (method, path) = if is_net_http {
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
                .and_then(|first| string_value(first, source))
                .unwrap_or_default();
            join_path(&[&outer, &own])
        }
        _ => String::new(),
    }
}

/// The file's top-level string constants (`const base = "http://orders/api"`, also inside a
/// `const ( … )` block); a name declared twice is left out.
fn package_constants(root: Node<'_>, source: &str) -> BTreeMap<String, String> {
    let mut bindings = Vec::new();
    for spec in named_children(root)
        .into_iter()
        .filter(|node| node.kind() == "const_declaration")
        .flat_map(named_children)
        .filter(|node| node.kind() == "const_spec")
    {
        let names = named_children(spec)
            .into_iter()
            .filter(|child| child.kind() == "identifier");
        let values = spec
            .child_field("value")
            .map(named_children)
            .unwrap_or_default();
        bindings.extend(names.zip(values).map(|(name, value)| {
            (
                syntax::text(name, source).to_owned(),
                string_value(value, source),
            )
        }));
    }
    web::constants_bound_once(bindings)
}

fn http_call<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
    constants: &mut Option<BTreeMap<String, String>>,
) -> Option<HttpCallSite<'tree>> {
    let source = file.source;
    let call = hit.node(Field::Call)?;
    let name = syntax::text(hit.node(Field::Method)?, source);
    let arguments: Vec<Node<'_>> = named_children(hit.node(Field::Arguments)?)
        .into_iter()
        .filter(|argument| argument.kind() != "comment")
        .collect();
    // A literal method, or net/http's constant (`http.MethodPost`).
    let method_of = |node: Node<'_>| {
        string_value(node, source)
            .or_else(|| {
                syntax::text(node, source)
                    .strip_prefix("http.Method")
                    .map(str::to_owned)
            })
            .map(|method| method.to_uppercase())
    };
    let (method, url_node) = match name {
        "NewRequest" => (method_of(*arguments.first()?), arguments.get(1)?),
        "NewRequestWithContext" => (method_of(*arguments.get(1)?), arguments.get(2)?),
        "PostForm" => (Some("POST".to_owned()), arguments.first()?),
        verb => (Some(verb.to_uppercase()), arguments.first()?),
    };
    let url = web::with_lazy_constants(url_value(*url_node, source)?, constants, || {
        package_constants(file.root, source)
    });
    Some(HttpCallSite {
        node: call,
        method: method.unwrap_or_else(|| "*".to_owned()),
        url,
        is_static: true,
        client: "net/http",
        scope: (file.scope_of)(call),
    })
}

/// A request of an `http.Client` value: `client.Get(url)`, `c.httpClient.Post(url, type, body)`,
/// `client.Head(url)` on a receiver whose last name mentions `client`, with a URL (a string, or a
/// concatenation starting with one or with a name) as its first argument; the call, method and
/// URL node.
fn client_call<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
) -> Option<(Node<'tree>, String, Node<'tree>)> {
    let source = file.source;
    let call = hit.node(Field::Call)?;
    let method = match syntax::text(hit.node(Field::Method)?, source) {
        "Get" => "GET",
        "Post" => "POST",
        "Head" => "HEAD",
        _ => return None,
    };
    let receiver = syntax::text(hit.node(Field::Receiver)?, source);
    let last = receiver.rsplit('.').next().unwrap_or(receiver);
    if !last.to_lowercase().contains("client") {
        return None;
    }
    let first = named_children(hit.node(Field::Arguments)?)
        .into_iter()
        .find(|argument| argument.kind() != "comment")?;
    let url = url_value(first, source)?;
    (url.starts_with("http") || url.starts_with('/') || url.starts_with('{')).then_some(())?;
    Some((call, method.to_owned(), first))
}

/// A resty request: a verb (`Get`, `Post`, `Put`, `Patch`, `Delete`, `Head`, `Options`) with one
/// URL argument called on a request chain that starts at `x.R()`; the call, method and URL node.
fn resty_call<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
) -> Option<(Node<'tree>, String, Node<'tree>)> {
    let source = file.source;
    let call = hit.node(Field::Call)?;
    let verb = syntax::text(hit.node(Field::Method)?, source);
    if !matches!(
        verb,
        "Get" | "Post" | "Put" | "Patch" | "Delete" | "Head" | "Options"
    ) {
        return None;
    }
    let arguments: Vec<Node<'_>> = named_children(hit.node(Field::Arguments)?)
        .into_iter()
        .filter(|argument| argument.kind() != "comment")
        .collect();
    let [url] = arguments.as_slice() else {
        return None;
    };
    // Down the receiver's chain of calls to `.R()`, through the variables the request is kept in
    // (`req := client.R().SetHeader(…)`, then `req.Get(url)`).
    let mut current = hit.node(Field::Receiver)?;
    let mut before = call;
    for _ in 0..MAX_CHAIN_STEPS {
        if current.kind() == "identifier" {
            let function = enclosing_function(file.root, before)?;
            if declared_request(function, current, before, source) {
                return Some((call, verb.to_uppercase(), *url));
            }
            let (value, binding) = bound_value(function, current, before, source)?;
            current = value;
            before = binding;
            continue;
        }
        let function = field_child(current, Child::Function)
            .filter(|function| function.kind() == "selector_expression")?;
        if field_child(function, Child::Field)
            .is_some_and(|field| syntax::text(field, source) == "R")
        {
            return Some((call, verb.to_uppercase(), *url));
        }
        current = field_child(function, Child::Operand)?;
    }
    None
}

/// Whether `name` is a parameter of `function` (the function or function literal around
/// `before`), or a variable it declares before `before`, of type `*resty.Request`
/// (`req *resty.Request`).
fn declared_request(function: Node<'_>, name: Node<'_>, before: Node<'_>, source: &str) -> bool {
    let name = syntax::text(name, source);
    syntax::descendants(function)
        .take_while(|node| node.start_byte() < before.start_byte())
        .filter(|node| matches!(node.kind(), "parameter_declaration" | "var_spec"))
        .any(|declaration| {
            let typed = field_child(declaration, Child::Type).is_some_and(|kind| {
                syntax::text(kind, source)
                    .trim_start_matches('*')
                    .ends_with("resty.Request")
            });
            typed
                && named_children(declaration).into_iter().any(|child| {
                    child.kind() == "identifier" && syntax::text(child, source) == name
                })
        })
}

/// The innermost function declaration, method declaration or function literal around `node`.
fn enclosing_function<'tree>(root: Node<'tree>, node: Node<'tree>) -> Option<Node<'tree>> {
    syntax::ancestors(root, node)
        .into_iter()
        .rev()
        .find(|node| {
            matches!(
                node.kind(),
                "function_declaration" | "method_declaration" | "func_literal"
            )
        })
}

/// The value the variable `name` holds where `before` starts: that of the last statement of
/// `function` (the function or function literal around `before`) that binds it before
/// `before` (`name := v`, `name, err = v, nil`, `var name = v`), with that statement. `None`
/// when nothing there binds it, or binds it from a call of several results.
fn bound_value<'tree>(
    function: Node<'tree>,
    name: Node<'tree>,
    before: Node<'tree>,
    source: &str,
) -> Option<(Node<'tree>, Node<'tree>)> {
    let name = syntax::text(name, source);
    let mut bound = None;
    for statement in syntax::descendants(function) {
        if statement.start_byte() >= before.start_byte() {
            break;
        }
        let (names, values) = match statement.kind() {
            "short_var_declaration" | "assignment_statement" => (
                field_child(statement, Child::Left).map(named_children),
                field_child(statement, Child::Right).map(named_children),
            ),
            "var_spec" => (
                Some(
                    named_children(statement)
                        .into_iter()
                        .filter(|child| {
                            child.kind() == "identifier"
                                && field_child(statement, Child::Type)
                                    .is_none_or(|kind| kind.id() != child.id())
                        })
                        .collect(),
                ),
                field_child(statement, Child::Value).map(named_children),
            ),
            _ => continue,
        };
        let (Some(names), Some(values)) = (names, values) else {
            continue;
        };
        let Some(index) = names
            .iter()
            .position(|bound| bound.kind() == "identifier" && syntax::text(*bound, source) == name)
        else {
            continue;
        };
        bound = (names.len() == values.len())
            .then(|| values.get(index).copied())
            .flatten()
            .map(|value| (value, statement));
    }
    bound
}

/// A URL argument: a string literal, or a `+` concatenation of literals and other operands
/// (`crate::facts::web::concatenated_url`); a leading hole is the base URL.
fn url_value<'tree>(node: Node<'tree>, source: &str) -> Option<String> {
    let plus = |node: Node<'tree>| web::plus_operands(node, source);
    web::concatenated_url(node, source, &|part| string_value(part, source), &plus)
}
