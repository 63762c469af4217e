//! Routes and HTTP requests of Python files.
//!
//! - FastAPI (`@app.get("/x")`, `@router.post(…)`, `@app.api_route("/x", methods=[…])`) and
//!   Flask (`@app.route("/x", methods=["GET", "POST"])`, default `GET`; Flask 2's `@app.get`):
//!   the decorator's first argument must be a string. The prefix of a router or blueprint bound
//!   in the same file (`APIRouter(prefix="/p")`, `Blueprint("b", __name__, url_prefix="/p")`) is
//!   applied here; `include_router(r, prefix="/p")` and `register_blueprint(bp, url_prefix="/p")`
//!   (which replaces the blueprint's own prefix) are applied by `crate::resolve::links`, also when the
//!   router is imported (`from app.api.routes import items` … `items.router`, `from app.auth
//!   import bp`), and so is the own prefix of a router imported from the file that binds it. A
//!   mount prefix that is not a string literal is not followed. The framework is
//!   `flask` when the receiver is built with `Flask`/`Blueprint`, or is not built with
//!   `FastAPI`/`APIRouter` and the file imports `flask` or the decorator is `route`; else
//!   `fastapi`. Handler: the decorated function; scope: its enclosing path.
//! - Routes registered by a call: Flask's `app.add_url_rule("/x", view_func=f, methods=[…])` and
//!   FastAPI's `router.add_api_route("/x", f, methods=[…])` (default `GET`), with the receiver's
//!   prefix as for decorators; handler the view as written (the class of `V.as_view("n")`).
//! - Django: `path("orders/<int:pk>/", view)` and `re_path(r"^orders/(?P<pk>\d+)/$", view)` (a
//!   regular expression that is a plain path with named groups) in a file that imports `django`,
//!   method `*`, handler the view as written (the class of `OrderApi.as_view()`). Each pattern belongs to the list it is assigned to
//!   (`urlpatterns`); `path("api/", include("shop.urls"))` (a module named by a string or imported,
//!   or a list) mounts the included module's `urlpatterns` at `api/`, applied by `crate::resolve::links`:
//!   a `urls.py` no other one includes keeps its paths as written (ROOT_URLCONF is not read).
//!   Django REST framework's routers (`router = routers.DefaultRouter()` or `SimpleRouter()`,
//!   in a file that imports `rest_framework`): each module-level `router.register("orders",
//!   OrderViewSet)` serves `orders/` and `orders/<pk>/` (method `*`, handler the viewset), where
//!   `include(router.urls)` mounts the router (of the file, or imported from another) or
//!   `urlpatterns += router.urls` adds it to a list.
//! - `http_call`: `requests.get/post/put/patch/delete/head/options(url)` and the same on `httpx`,
//!   and `requests.request("GET", url)`; the same verbs on a name the file binds to a client
//!   (`session = requests.Session()`, `async with httpx.AsyncClient(…) as client`,
//!   `async with aiohttp.ClientSession() as session`; client `aiohttp`, as is
//!   `aiohttp.request("GET", url)`), and on a client a class keeps in `self`
//!   (`self.http = httpx.AsyncClient(…)`, in every method of the class). A client's `base_url`
//!   comes before a relative URL. An f-string URL keeps its `{…}` holes as parameters; a
//!   leading hole is the base URL (`f"{BASE}/orders"` has the path `/orders`), unless it names
//!   a module-level string the file assigns once, which stands for its value.

mod django;
mod requests;

use django::*;
use requests::*;

use std::collections::BTreeMap;

use policies::facts::{Fact, FactKind};
use tree_sitter::Node;

use crate::facts::calls_and_assignments::FileSyntax;
use crate::facts::web::{self, join_path, HttpCallSite, RouteSite};
use crate::facts::FactFactory;
use crate::language::ExtractionInput;
use crate::query::{Field, QueryHit};
use crate::resolve::context::Resolution;
use crate::resolve::links::{
    PathConstant, RouteLinks, RouterMember, RouterMount, RouterPrefix, RouterRef,
};
use crate::syntax::ChildField;
use crate::syntax::{self, named_children};

/// What the file binds and imports, for prefixes and frameworks.
struct Routers<'a> {
    /// Variable → (constructor, prefix) for `x = APIRouter(prefix=…)`-style bindings.
    bindings: BTreeMap<String, (String, String)>,
    /// The top-level modules the file imports.
    modules: Vec<&'a str>,
}

/// The route and `http_call` facts of a Python file.
pub(crate) fn facts(
    input: &ExtractionInput<'_>,
    factory: &FactFactory<'_>,
    hits: &[QueryHit<'_>],
    file: &FileSyntax<'_, '_>,
) -> Vec<Fact> {
    let routers = routers(file.root, file.source);
    let mut facts = Vec::new();
    let mut links = RouteLinks::default();
    let mut imported: Option<BTreeMap<String, ImportedName>> = None;
    let mut clients: Option<ClientBindings> = None;
    let mut constants: Option<BTreeMap<String, String>> = None;
    for hit in hits {
        match hit.kind {
            FactKind::Route => {
                let method = hit
                    .node(Field::Method)
                    .map(|method| syntax::text(method, file.source));
                if let Some(method @ ("include_router" | "register_blueprint")) = method {
                    let imported = imported.get_or_insert_with(|| imported_names(input, hits));
                    links
                        .mounts
                        .extend(mount(hit, method, file.source, imported));
                    continue;
                }
                let sites = if hit.node(Field::Decorator).is_some() {
                    decorated_routes(hit, file, &routers)
                } else if let Some(method @ ("add_url_rule" | "add_api_route")) = method {
                    registered_routes(hit, method, file, &routers)
                } else {
                    let Some(django) = django_route(hit, file, &routers) else {
                        continue;
                    };
                    let list = Some(RouterRef::Local(patterns_list(django.call, file.source)));
                    match django.view {
                        DjangoView::Site(site) => {
                            if let Some(router) = list {
                                let (line, column) = syntax::start_position(site.node, file.source);
                                links.members.push(RouterMember {
                                    line,
                                    column,
                                    router,
                                });
                            }
                            facts.push(web::route_fact(factory, &site));
                        }
                        DjangoView::Include(included, prefix) => {
                            let imported =
                                imported.get_or_insert_with(|| imported_names(input, hits));
                            let child = included_patterns(input, included, imported);
                            if let (Some(parent), Some(child)) = (list, child) {
                                links.mounts.push(RouterMount {
                                    parent,
                                    prefix,
                                    replaces_own_prefix: false,
                                    child,
                                    prefix_constant: None,
                                });
                            }
                        }
                    }
                    continue;
                };
                if let (Some(site), Some(receiver)) = (sites.first(), hit.node(Field::Receiver)) {
                    let imported = imported.get_or_insert_with(|| imported_names(input, hits));
                    if let Some(router) = router_ref(receiver, file.source, imported) {
                        let (line, column) = syntax::start_position(site.node, file.source);
                        links.members.push(RouterMember {
                            line,
                            column,
                            router,
                        });
                    }
                }
                facts.extend(sites.iter().map(|site| web::route_fact(factory, site)));
            }
            FactKind::HttpCall => {
                let clients =
                    clients.get_or_insert_with(|| client_bindings(file.root, file.source));
                if let Some(site) = http_call(hit, file, clients, &mut constants) {
                    facts.push(web::http_call_fact(factory, &site));
                }
            }
            _ => {}
        }
    }
    let rest_routers = rest_routers(&routers);
    if !rest_routers.is_empty() {
        for (router, site) in rest_routes(file, &rest_routers) {
            let (line, column) = syntax::start_position(site.node, file.source);
            links.members.push(RouterMember {
                line,
                column,
                router: RouterRef::Local(router),
            });
            facts.push(web::route_fact(factory, &site));
        }
    }
    if file.source.contains(".urls") {
        for (list, router) in rest_mounts(file.root, file.source) {
            let imported = imported.get_or_insert_with(|| imported_names(input, hits));
            let child = match imported.get(syntax::text(router, file.source)) {
                Some(ImportedName::Name(file, name)) => Some(RouterRef::Imported {
                    file: file.clone(),
                    name: name.clone(),
                }),
                Some(ImportedName::Module(_)) => None,
                None => (router.kind() == "identifier")
                    .then(|| RouterRef::Local(syntax::text(router, file.source).to_owned())),
            };
            if let Some(child) = child {
                links.mounts.push(RouterMount {
                    parent: RouterRef::Local(list),
                    prefix: String::new(),
                    replaces_own_prefix: false,
                    child,
                    prefix_constant: None,
                });
            }
        }
    }
    links.constants = path_constants(file.root, file.source);
    if !links.members.is_empty() || !links.mounts.is_empty() || !links.constants.is_empty() {
        links.routers = routers
            .bindings
            .iter()
            .filter(|(_, (_, prefix))| !prefix.is_empty())
            .map(|(router, (_, prefix))| RouterPrefix {
                router: router.clone(),
                prefix: prefix.clone(),
            })
            .collect();
        if let Ok(mut shared) = input.links.try_borrow_mut() {
            *shared = links;
        }
    }
    facts
}

/// What a local name bound by an import of a project file stands for.
enum ImportedName {
    /// A module (`from app.api.routes import items` → `app/api/routes/items.py`).
    Module(String),
    /// A name defined in a module (`from app.auth import bp` → (`app/auth/__init__.py`, `bp`)).
    Name(String, String),
}

/// The local names the file's imports of project files bind, anywhere in the file (Flask apps
/// import their blueprints inside `create_app`).
fn imported_names(
    input: &ExtractionInput<'_>,
    hits: &[QueryHit<'_>],
) -> BTreeMap<String, ImportedName> {
    let source = input.source;
    let mut names = BTreeMap::new();
    for statement in hits
        .iter()
        .filter(|hit| hit.kind == FactKind::Import)
        .filter_map(|hit| hit.node(Field::Statement))
    {
        let entries = crate::lang::python::imported_names(statement, source);
        if statement.kind() == "import_statement" {
            for (module, alias) in entries {
                let Some(alias) = alias else { continue };
                if let Resolution::File(file) =
                    input.context.resolve_python(input.path, 0, &module, None)
                {
                    names.insert(alias, ImportedName::Module(file));
                }
            }
            continue;
        }
        let Some(module_node) = statement.child_field("module_name") else {
            continue;
        };
        let (level, module) = crate::lang::python::relative_module(module_node, source);
        for (name, alias) in entries {
            let Resolution::File(file) =
                input
                    .context
                    .resolve_python(input.path, level, &module, Some(&name))
            else {
                continue;
            };
            let is_module = file.ends_with(&format!("/{name}.py"))
                || file == format!("{name}.py")
                || file.ends_with(&format!("/{name}/__init__.py"))
                || file == format!("{name}/__init__.py");
            let local = alias.unwrap_or_else(|| name.clone());
            let bound = if is_module {
                ImportedName::Module(file)
            } else {
                ImportedName::Name(file, name)
            };
            names.insert(local, bound);
        }
    }
    names
}

/// The router an expression names: a local variable, a name imported from a project file, or an
/// attribute of an imported project module (`items.router`).
fn router_ref(
    node: Node<'_>,
    source: &str,
    imported: &BTreeMap<String, ImportedName>,
) -> Option<RouterRef> {
    match node.kind() {
        "identifier" => {
            let name = syntax::text(node, source);
            match imported.get(name) {
                Some(ImportedName::Name(file, name)) => Some(RouterRef::Imported {
                    file: file.clone(),
                    name: name.clone(),
                }),
                Some(ImportedName::Module(_)) => None,
                None => Some(RouterRef::Local(name.to_owned())),
            }
        }
        "attribute" => {
            let object = node.child_field("object")?;
            let attribute = node.child_field("attribute")?;
            match imported.get(syntax::text(object, source))? {
                ImportedName::Module(file) => Some(RouterRef::Imported {
                    file: file.clone(),
                    name: syntax::text(attribute, source).to_owned(),
                }),
                ImportedName::Name(..) => None,
            }
        }
        _ => None,
    }
}

/// The mount of `parent.include_router(child, prefix=…)` or `parent.register_blueprint(child,
/// url_prefix=…)`.
fn mount(
    hit: &QueryHit<'_>,
    method: &str,
    source: &str,
    imported: &BTreeMap<String, ImportedName>,
) -> Option<RouterMount> {
    let list = hit.node(Field::Arguments)?;
    let parent = router_ref(hit.node(Field::Receiver)?, source, imported)?;
    let child = router_ref(*positional(list).first()?, source, imported)?;
    let key = if method == "register_blueprint" {
        "url_prefix"
    } else {
        "prefix"
    };
    let written = named_children(list)
        .into_iter()
        .filter(|argument| argument.kind() == "keyword_argument")
        .find(|argument| {
            argument
                .child_field("name")
                .is_some_and(|name| syntax::text(name, source) == key)
        })
        .and_then(|argument| argument.child_field("value"));
    let (prefix, prefix_constant) = match written {
        Some(value) => match string_value(value, source) {
            Some(prefix) => (prefix, None),
            None => (String::new(), Some(constant_ref(value, source, imported)?)),
        },
        None => (String::new(), None),
    };
    Some(RouterMount {
        parent,
        replaces_own_prefix: method == "register_blueprint" && written.is_some(),
        prefix,
        child,
        prefix_constant,
    })
}

/// The constant a prefix expression names: `API_PREFIX`, `settings.API_V1_STR` (local or
/// imported), `config.API_PREFIX` (an imported module).
fn constant_ref(
    node: Node<'_>,
    source: &str,
    imported: &BTreeMap<String, ImportedName>,
) -> Option<RouterRef> {
    let (root, rest) = match node.kind() {
        "identifier" => (syntax::text(node, source), None),
        "attribute" => {
            let object = node.child_field("object")?;
            let attribute = node.child_field("attribute")?;
            if object.kind() != "identifier" {
                return None;
            }
            (
                syntax::text(object, source),
                Some(syntax::text(attribute, source)),
            )
        }
        _ => return None,
    };
    Some(match (imported.get(root), rest) {
        (Some(ImportedName::Name(file, name)), None) => RouterRef::Imported {
            file: file.clone(),
            name: name.clone(),
        },
        (Some(ImportedName::Name(file, name)), Some(rest)) => RouterRef::Imported {
            file: file.clone(),
            name: format!("{name}.{rest}"),
        },
        (Some(ImportedName::Module(file)), Some(rest)) => RouterRef::Imported {
            file: file.clone(),
            name: rest.to_owned(),
        },
        (Some(ImportedName::Module(_)), None) => return None,
        (None, None) => RouterRef::Local(root.to_owned()),
        (None, Some(rest)) => RouterRef::Local(format!("{root}.{rest}")),
    })
}

/// The file's path-like string constants (values starting with `/`): module-level
/// `NAME = "/x"` and `NAME: str = "/x"`, class-level ones as `Class.NAME`, and those of a class
/// of the file through a module-level instance (`settings = Settings()` → `settings.NAME`).
fn path_constants(root: Node<'_>, source: &str) -> Vec<PathConstant> {
    let mut constants = Vec::new();
    let mut by_class: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    let mut instances = Vec::new();
    for statement in named_children(root) {
        match statement.kind() {
            "expression_statement" => {
                let Some((name, value)) = assignment_of(statement, source) else {
                    continue;
                };
                match value.kind() {
                    "string" => {
                        if let Some(text) =
                            string_value(value, source).filter(|v| v.starts_with('/'))
                        {
                            constants.push(PathConstant { name, value: text });
                        }
                    }
                    "call" => {
                        if let Some(function) = value
                            .child_field("function")
                            .filter(|function| function.kind() == "identifier")
                        {
                            instances.push((name, syntax::text(function, source).to_owned()));
                        }
                    }
                    _ => {}
                }
            }
            "class_definition" => {
                let (Some(class), Some(body)) =
                    (statement.child_field("name"), statement.child_field("body"))
                else {
                    continue;
                };
                let class = syntax::text(class, source).to_owned();
                for member in named_children(body) {
                    let Some((name, value)) = assignment_of(member, source) else {
                        continue;
                    };
                    if let Some(text) = string_value(value, source).filter(|v| v.starts_with('/')) {
                        by_class
                            .entry(class.clone())
                            .or_default()
                            .push((name, text));
                    }
                }
            }
            _ => {}
        }
    }
    for (class, members) in &by_class {
        for (name, value) in members {
            constants.push(PathConstant {
                name: format!("{class}.{name}"),
                value: value.clone(),
            });
        }
    }
    for (instance, class) in instances {
        for (name, value) in by_class.get(&class).into_iter().flatten() {
            constants.push(PathConstant {
                name: format!("{instance}.{name}"),
                value: value.clone(),
            });
        }
    }
    constants
}

/// `name = value` or `name: type = value` in an expression statement, for a plain name.
fn assignment_of<'tree>(statement: Node<'tree>, source: &str) -> Option<(String, Node<'tree>)> {
    if statement.kind() != "expression_statement" {
        return None;
    }
    let assignment = statement
        .named_child(0)
        .filter(|child| child.kind() == "assignment")?;
    let left = assignment
        .child_field("left")
        .filter(|left| left.kind() == "identifier")?;
    let right = assignment.child_field("right")?;
    Some((syntax::text(left, source).to_owned(), right))
}

fn routers<'a>(root: Node<'_>, source: &'a str) -> Routers<'a> {
    let mut bindings = BTreeMap::new();
    let mut modules = Vec::new();
    for statement in named_children(root) {
        match statement.kind() {
            "import_statement" | "import_from_statement" => {
                let module = statement
                    .child_field("module_name")
                    .or_else(|| statement.child_field("name"))
                    .map(|name| syntax::text(name, source));
                if let Some(module) = module {
                    modules.push(module.split('.').next().unwrap_or(module));
                }
            }
            "expression_statement" => {
                let Some(assignment) = named_children(statement)
                    .into_iter()
                    .find(|child| child.kind() == "assignment")
                else {
                    continue;
                };
                let (Some(left), Some(call)) = (
                    assignment.child_field("left"),
                    assignment.child_field("right"),
                ) else {
                    continue;
                };
                if left.kind() != "identifier" || call.kind() != "call" {
                    continue;
                }
                let constructor = call
                    .child_field("function")
                    .map(|function| syntax::text(function, source))
                    .unwrap_or_default();
                let constructor = constructor.rsplit('.').next().unwrap_or(constructor);
                let prefix = call
                    .child_field("arguments")
                    .and_then(|list| {
                        keyword(list, "prefix", source)
                            .or_else(|| keyword(list, "url_prefix", source))
                    })
                    .unwrap_or_default();
                bindings.insert(
                    syntax::text(left, source).to_owned(),
                    (constructor.to_owned(), prefix),
                );
            }
            _ => {}
        }
    }
    Routers { bindings, modules }
}

/// The string value of keyword argument `name`.
fn keyword(list: Node<'_>, name: &str, source: &str) -> Option<String> {
    keyword_value(list, name, source).and_then(|value| string_value(value, source))
}

/// The value of the keyword argument `name` of an argument list, whatever it is.
fn keyword_value<'tree>(list: Node<'tree>, name: &str, source: &str) -> Option<Node<'tree>> {
    named_children(list)
        .into_iter()
        .filter(|argument| argument.kind() == "keyword_argument")
        .find(|argument| {
            argument
                .child_field("name")
                .is_some_and(|key| syntax::text(key, source) == name)
        })
        .and_then(|argument| argument.child_field("value"))
}

/// The methods a `methods=["GET", "POST"]` argument lists, upper-cased; none without one.
fn listed_methods(list: Node<'_>, source: &str) -> Vec<String> {
    keyword_value(list, "methods", source)
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|method| string_value(method, source))
        .map(|method| method.to_uppercase())
        .collect()
}

/// The positional arguments of an argument list.
fn positional(list: Node<'_>) -> Vec<Node<'_>> {
    named_children(list)
        .into_iter()
        .filter(|argument| !matches!(argument.kind(), "keyword_argument" | "comment"))
        .collect()
}

/// The value of a plain string literal (no interpolation).
fn string_value(node: Node<'_>, source: &str) -> Option<String> {
    let parts = named_children(node);
    let is_plain =
        node.kind() == "string" && !parts.iter().any(|part| part.kind() == "interpolation");
    is_plain.then(|| {
        parts
            .into_iter()
            .filter(|part| matches!(part.kind(), "string_content" | "escape_sequence"))
            .map(|part| syntax::text(part, source))
            .collect()
    })
}

/// A string or f-string: its text with holes kept as `{…}`. A leading hole is the base URL
/// (`f"{BASE}/orders/{id}"` has the path `/orders/{}`), as in the other languages; one that no
/// `/` follows leaves the path unknown (`crate::facts::web`).
fn interpolated(node: Node<'_>, source: &str) -> Option<String> {
    if node.kind() != "string" {
        return None;
    }
    let mut text = String::new();
    for part in named_children(node) {
        match part.kind() {
            "string_content" | "escape_sequence" | "interpolation" => {
                text.push_str(syntax::text(part, source));
            }
            _ => {}
        }
    }
    Some(text)
}

fn decorated_routes<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
    routers: &Routers<'_>,
) -> Vec<RouteSite<'tree>> {
    let source = file.source;
    let (Some(decorator), Some(receiver), Some(verb), Some(list)) = (
        hit.node(Field::Decorator),
        hit.node(Field::Receiver),
        hit.node(Field::Method),
        hit.node(Field::Arguments),
    ) else {
        return Vec::new();
    };
    let Some(path) = positional(list)
        .first()
        .and_then(|first| string_value(*first, source))
    else {
        return Vec::new();
    };
    let Some(function) = decorator
        .parent()
        .and_then(|decorated| decorated.child_field("definition"))
        .filter(|definition| definition.kind() == "function_definition")
    else {
        return Vec::new();
    };
    let (constructor, prefix) = routers
        .bindings
        .get(syntax::text(receiver, source))
        .cloned()
        .unwrap_or_default();
    let verb = syntax::text(verb, source);
    // `@x.route(…)` is Flask's decorator (FastAPI's is `api_route`), also on a blueprint
    // imported from another module.
    let framework = if matches!(constructor.as_str(), "Flask" | "Blueprint")
        || (!matches!(constructor.as_str(), "FastAPI" | "APIRouter")
            && (routers.modules.contains(&"flask") || verb == "route"))
    {
        "flask"
    } else {
        "fastapi"
    };
    let methods: Vec<String> = if verb == "route" || verb == "api_route" {
        let listed = listed_methods(list, source);
        if listed.is_empty() {
            vec![if verb == "route" { "GET" } else { "*" }.to_owned()]
        } else {
            listed
        }
    } else {
        vec![verb.to_uppercase()]
    };
    let handler = function
        .child_field("name")
        .map(|name| syntax::text(name, source).to_owned());
    let scope = (file.scope_of)(function)
        .map(|outer| match &handler {
            Some(handler) => format!("{outer}.{handler}"),
            None => outer,
        })
        .or_else(|| handler.clone());
    methods
        .into_iter()
        .map(|method| RouteSite {
            node: decorator,
            method,
            path: join_path(&[&prefix, &path]),
            framework,
            handler: handler.clone(),
            scope: scope.clone(),
        })
        .collect()
}

/// The routes a call registers: Flask's `app.add_url_rule("/x", "name", view, methods=[…])`
/// (default `GET`) and FastAPI's `router.add_api_route("/x", endpoint, methods=[…])` (default
/// `GET`), with the prefix of the receiver bound in the file. The handler is the view or
/// endpoint as written (the class of `View.as_view("name")`).
fn registered_routes<'tree>(
    hit: &QueryHit<'tree>,
    method: &str,
    file: &FileSyntax<'_, 'tree>,
    routers: &Routers<'_>,
) -> Vec<RouteSite<'tree>> {
    let source = file.source;
    let (Some(call), Some(receiver), Some(list)) = (
        hit.node(Field::Call),
        hit.node(Field::Receiver),
        hit.node(Field::Arguments),
    ) else {
        return Vec::new();
    };
    let flask = method == "add_url_rule";
    let positional = positional(list);
    let (path_key, handler_key, handler_at) = if flask {
        ("rule", "view_func", 2)
    } else {
        ("path", "endpoint", 1)
    };
    let Some(path) = keyword(list, path_key, source).or_else(|| {
        positional
            .first()
            .and_then(|first| string_value(*first, source))
    }) else {
        return Vec::new();
    };
    let handler = keyword_value(list, handler_key, source)
        .or_else(|| positional.get(handler_at).copied())
        .and_then(|view| view_name(view, source));
    let listed = listed_methods(list, source);
    let methods = if listed.is_empty() {
        vec!["GET".to_owned()]
    } else {
        listed
    };
    let (_, prefix) = routers
        .bindings
        .get(syntax::text(receiver, source))
        .cloned()
        .unwrap_or_default();
    let scope = (file.scope_of)(call);
    methods
        .into_iter()
        .map(|method| RouteSite {
            node: call,
            method,
            path: join_path(&[&prefix, &path]),
            framework: if flask { "flask" } else { "fastapi" },
            handler: handler.clone(),
            scope: scope.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::regex_path;

    #[test]
    fn plain_regular_expressions_become_paths() {
        assert_eq!(
            regex_path(r"^orders/(?P<pk>[0-9]+)/$").as_deref(),
            Some("orders/<pk>/")
        );
        assert_eq!(regex_path(r"^api/").as_deref(), Some("api/"));
        assert_eq!(regex_path(r"^a\.b/?$").as_deref(), Some("a.b/"));
        assert_eq!(regex_path(r"^feed\.(rss|atom)$"), None);
        assert_eq!(regex_path(r"^x/\d+$"), None);
        assert_eq!(
            regex_path(r"^(?P<a>(x|y))/(?P<b>[a-z]{2})$").as_deref(),
            Some("<a>/<b>")
        );
    }
}
