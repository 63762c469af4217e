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
//! - `http_call`: `requests.get/post/put/patch/delete/head/options(url)` and the same on `httpx`,
//!   and `requests.request("GET", url)`; the same verbs on a name the file binds to a client
//!   (`session = requests.Session()`, `async with httpx.AsyncClient(…) as client`,
//!   `async with aiohttp.ClientSession() as session`; client `aiohttp`, as is
//!   `aiohttp.request("GET", url)`), and on a client a class keeps in `self`
//!   (`self.http = httpx.AsyncClient(…)`, in every method of the class). A client's `base_url`
//!   comes before a relative URL. An f-string URL keeps its `{…}` holes as parameters; a
//!   leading hole is the base URL (`f"{BASE}/orders"` has the path `/orders`), unless it names
//!   a module-level string the file assigns once, which stands for its value.

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

/// A Django URL pattern: a view served at a path, or an `include()` mounted at a prefix.
struct DjangoPattern<'tree> {
    call: Node<'tree>,
    view: DjangoView<'tree>,
}

enum DjangoView<'tree> {
    Site(RouteSite<'tree>),
    /// The `include()` argument and the prefix as written.
    Include(Node<'tree>, String),
}

fn django_route<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
    routers: &Routers<'_>,
) -> Option<DjangoPattern<'tree>> {
    if !routers.modules.contains(&"django") {
        return None;
    }
    let source = file.source;
    let call = hit.node(Field::Call)?;
    let arguments = positional(hit.node(Field::Arguments)?);
    let written = string_value(*arguments.first()?, source)?;
    let path = if hit
        .node(Field::Method)
        .is_some_and(|method| syntax::text(method, source) == "re_path")
    {
        regex_path(&written)?
    } else {
        written
    };
    let view = arguments.get(1)?;
    let included = (view.kind() == "call")
        .then(|| {
            view.child_field("function")
                .filter(|function| syntax::text(*function, source) == "include")
                .and_then(|_| view.child_field("arguments"))
        })
        .flatten();
    if let Some(list) = included {
        let first = positional(list).into_iter().next()?;
        return Some(DjangoPattern {
            call,
            view: DjangoView::Include(first, path),
        });
    }
    Some(DjangoPattern {
        call,
        view: DjangoView::Site(RouteSite {
            node: call,
            method: "*".to_owned(),
            path: join_path(&[&path]),
            framework: "django",
            handler: view_name(*view, source),
            scope: (file.scope_of)(call),
        }),
    })
}

/// The view of a URL pattern or a registered route as written: a function (`views.detail`),
/// or the class of a class-based view (`OrderApi.as_view()` → `OrderApi`).
fn view_name(view: Node<'_>, source: &str) -> Option<String> {
    match view.kind() {
        "identifier" | "attribute" => Some(syntax::compact_text(view, source, 120)),
        "call" => {
            let function = view
                .child_field("function")
                .filter(|function| function.kind() == "attribute")?;
            let is_as_view = function
                .child_field("attribute")
                .is_some_and(|attribute| syntax::text(attribute, source) == "as_view");
            let class = function.child_field("object")?;
            (is_as_view && matches!(class.kind(), "identifier" | "attribute"))
                .then(|| syntax::compact_text(class, source, 120))
        }
        _ => None,
    }
}

/// The path a `re_path` regular expression matches, when it is a plain path with named groups:
/// `^orders/(?P<pk>[0-9]+)/$` → `orders/<pk>/`; `None` for any other regular expression.
fn regex_path(pattern: &str) -> Option<String> {
    let pattern = pattern.strip_prefix('^').unwrap_or(pattern);
    let pattern = pattern.strip_suffix('$').unwrap_or(pattern);
    let mut path = String::new();
    let mut characters = pattern.chars().peekable();
    while let Some(character) = characters.next() {
        match character {
            '(' => {
                let rest: String = characters.clone().take(3).collect();
                if rest != "?P<" {
                    return None;
                }
                characters.nth(2);
                let name: String = characters.by_ref().take_while(|c| *c != '>').collect();
                let mut depth = 1usize;
                for inner in characters.by_ref() {
                    match inner {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                if depth != 0 || name.is_empty() {
                    return None;
                }
                path.push('<');
                path.push_str(&name);
                path.push('>');
            }
            '\\' => match characters.next() {
                Some(escaped @ ('.' | '/' | '-')) => path.push(escaped),
                _ => return None,
            },
            '/' if characters.peek() == Some(&'?') => {
                characters.next();
                path.push('/');
            }
            '[' | ']' | '*' | '+' | '?' | '|' | '{' | '}' | '.' | ')' | '$' | '^' => return None,
            _ => path.push(character),
        }
    }
    Some(path)
}

/// The variable a URL pattern's list is assigned to (`urlpatterns = [...]`, `urlpatterns +=
/// [...]`, `api_patterns = [...]`), or the name of the inline list of an `include([...])` around
/// it; `urlpatterns` when there is none.
fn patterns_list(call: Node<'_>, source: &str) -> String {
    let mut current = call.parent();
    while let Some(node) = current {
        if let Some(include) = inline_include(node, source) {
            return inline_name(include);
        }
        if matches!(node.kind(), "assignment" | "augmented_assignment") {
            if let Some(left) = node
                .child_field("left")
                .filter(|left| left.kind() == "identifier")
            {
                return syntax::text(left, source).to_owned();
            }
            break;
        }
        if matches!(node.kind(), "function_definition" | "class_definition") {
            break;
        }
        current = node.parent();
    }
    "urlpatterns".to_owned()
}

/// The `include()` call whose inline list `node` is (`include([...])`, `include(([...], "ns"))`).
fn inline_include<'tree>(node: Node<'tree>, source: &str) -> Option<Node<'tree>> {
    if node.kind() != "list" {
        return None;
    }
    let mut parent = node.parent()?;
    if parent.kind() == "tuple" {
        parent = parent.parent()?;
    }
    let call = parent
        .parent()
        .filter(|_| parent.kind() == "argument_list")?;
    call.child_field("function")
        .is_some_and(|function| syntax::text(function, source) == "include")
        .then_some(call)
}

/// The router name of an inline `include([...])` list: `include@line:column`.
fn inline_name(include: Node<'_>) -> String {
    let position = include.start_position();
    format!("include@{}:{}", position.row + 1, position.column + 1)
}

/// The URL patterns an `include()` argument names: the `urlpatterns` of a module named by a
/// string (`include("shop.urls")`, also `include(("shop.urls", "shop"))`) or imported
/// (`from shop import urls as shop_urls` … `include(shop_urls)`), a list of the file or
/// imported from another (`include(api_patterns)`), or an inline list (`include([path(…)])`).
fn included_patterns(
    input: &ExtractionInput<'_>,
    argument: Node<'_>,
    imported: &BTreeMap<String, ImportedName>,
) -> Option<RouterRef> {
    let source = input.source;
    let patterns_of = |file: String| RouterRef::Imported {
        file,
        name: "urlpatterns".to_owned(),
    };
    match argument.kind() {
        "string" => {
            let module = string_value(argument, source)?;
            match input.context.resolve_python(input.path, 0, &module, None) {
                Resolution::File(file) => Some(patterns_of(file)),
                _ => None,
            }
        }
        "tuple" => included_patterns(input, *named_children(argument).first()?, imported),
        "list" => {
            inline_include(argument, source).map(|include| RouterRef::Local(inline_name(include)))
        }
        "identifier" => match imported.get(syntax::text(argument, source)) {
            Some(ImportedName::Module(file)) => Some(patterns_of(file.clone())),
            Some(ImportedName::Name(file, name)) => Some(RouterRef::Imported {
                file: file.clone(),
                name: name.clone(),
            }),
            None => Some(RouterRef::Local(syntax::text(argument, source).to_owned())),
        },
        "attribute" => {
            let object = argument.child_field("object")?;
            let attribute = argument.child_field("attribute")?;
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

/// The names a file binds to a `requests`, `httpx` or `aiohttp` client, with that module:
/// `session = requests.Session()`, `client = httpx.Client(…)`,
/// `with httpx.Client() as client`, `async with httpx.AsyncClient(…) as client`,
/// `async with aiohttp.ClientSession() as session` (or `ClientSession()` imported from it).
/// Each binding holds in the function it is made in (or the module), and a name bound in
/// several functions may hold a different client in each.
fn client_bindings(root: Node<'_>, source: &str) -> ClientBindings {
    // Every constructor below names one of these in its text: a file without them (most files
    // with a `.get(…)` call) binds no client, and its tree is not walked again.
    if !["requests.", "httpx.", "ClientSession"]
        .iter()
        .any(|constructor| source.contains(constructor))
    {
        return ClientBindings::default();
    }
    let imports_aiohttp = source.contains("aiohttp");
    let client_of = |value: Node<'_>| {
        (value.kind() == "call").then_some(())?;
        match syntax::text(value.child_field("function")?, source) {
            "requests.Session" | "requests.session" => Some("requests"),
            "httpx.Client" | "httpx.AsyncClient" => Some("httpx"),
            "aiohttp.ClientSession" => Some("aiohttp"),
            "ClientSession" if imports_aiohttp => Some("aiohttp"),
            _ => None,
        }
    };
    // `httpx.Client(base_url="https://api.example.com")`: its base URL, a string, an f-string
    // or a name (a hole, as a leading one in a URL).
    let base_of = |value: Node<'_>| {
        let value = keyword_value(value.child_field("arguments")?, "base_url", source)?;
        interpolated(value, source).or_else(|| {
            matches!(value.kind(), "identifier" | "attribute")
                .then(|| format!("{{{}}}", syntax::text(value, source)))
        })
    };
    let mut bindings: BTreeMap<String, Vec<Bound>> = BTreeMap::new();
    for node in syntax::descendants(root) {
        let (name, value) = match node.kind() {
            "assignment" => (node.child_field("left"), node.child_field("right")),
            "as_pattern" => (
                node.child_field("alias")
                    .and_then(|alias| named_children(alias).into_iter().next()),
                named_children(node).into_iter().next(),
            ),
            _ => continue,
        };
        // `self.client = httpx.AsyncClient(…)` holds in the class, in every method.
        let attribute = name.filter(|name| {
            name.kind() == "attribute"
                && name
                    .child_field("object")
                    .is_some_and(|object| syntax::text(object, source) == "self")
        });
        let (Some(name), Some((value, client))) = (
            name.filter(|name| name.kind() == "identifier")
                .or(attribute),
            value.and_then(|value| Some((value, client_of(value)?))),
        ) else {
            continue;
        };
        let holder = if attribute.is_some() {
            "class_definition"
        } else {
            "function_definition"
        };
        let scope = syntax::ancestors(root, node)
            .into_iter()
            .rev()
            .find(|ancestor| ancestor.kind() == holder)
            .unwrap_or(root);
        bindings
            .entry(syntax::text(name, source).to_owned())
            .or_default()
            .push(Bound {
                start: scope.start_byte(),
                end: scope.end_byte(),
                client,
                base: base_of(value),
            });
    }
    ClientBindings(bindings)
}

/// One binding of a name to a client: the byte range of the function, class (for `self.x`) or
/// module it holds in, the client and its base URL.
struct Bound {
    start: usize,
    end: usize,
    client: &'static str,
    base: Option<String>,
}

/// [`client_bindings`]: for each name, its bindings.
#[derive(Default)]
struct ClientBindings(BTreeMap<String, Vec<Bound>>);

impl ClientBindings {
    /// The client `name` holds at `node`, with its base URL: the binding of the innermost
    /// function (or class) around it that binds the name, else the module's.
    fn at(&self, name: &str, node: Node<'_>) -> Option<(&'static str, Option<&str>)> {
        let at = node.start_byte();
        self.0
            .get(name)?
            .iter()
            .filter(|bound| bound.start <= at && at < bound.end)
            .min_by_key(|bound| bound.end - bound.start)
            .map(|bound| (bound.client, bound.base.as_deref()))
    }
}

/// The module-level names a file assigns a plain string once (`BASE_URL = "https://x/api"`).
fn module_constants(root: Node<'_>, source: &str) -> BTreeMap<String, String> {
    let bindings = named_children(root)
        .into_iter()
        .filter(|statement| statement.kind() == "expression_statement")
        .flat_map(named_children)
        .filter(|node| node.kind() == "assignment")
        .filter_map(|assignment| {
            let name = assignment
                .child_field("left")
                .filter(|left| left.kind() == "identifier")?;
            let value = assignment.child_field("right")?;
            Some((
                syntax::text(name, source).to_owned(),
                string_value(value, source),
            ))
        });
    web::constants_bound_once(bindings)
}

fn http_call<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
    clients: &ClientBindings,
    constants: &mut Option<BTreeMap<String, String>>,
) -> Option<HttpCallSite<'tree>> {
    let source = file.source;
    let call = hit.node(Field::Call)?;
    let (client, base) = match syntax::text(hit.node(Field::Receiver)?, source) {
        "requests" => ("requests", None),
        "httpx" => ("httpx", None),
        "aiohttp" => ("aiohttp", None),
        name => clients.at(name, call)?,
    };
    let verb = syntax::text(hit.node(Field::Method)?, source);
    let arguments = positional(hit.node(Field::Arguments)?);
    let (method, url_node) = if verb == "request" {
        let method = arguments
            .first()
            .and_then(|method| string_value(*method, source))
            .map_or_else(|| "*".to_owned(), |method| method.to_uppercase());
        (method, arguments.get(1)?)
    } else {
        (verb.to_uppercase(), arguments.first()?)
    };
    let mut url = interpolated(*url_node, source)?;
    // A client's base URL comes before a relative URL (httpx and aiohttp join them).
    if let Some(base) = base {
        let absolute = url.starts_with("http://") || url.starts_with("https://");
        if !absolute && !url.starts_with('{') {
            url = web::joined_url(base, &url);
        }
    }
    let url = web::with_lazy_constants(url, constants, || module_constants(file.root, source));
    Some(HttpCallSite {
        node: call,
        method,
        url,
        is_static: true,
        client,
        scope: (file.scope_of)(call),
    })
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
