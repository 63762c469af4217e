//! ASP.NET Core routes and the `performs` facts of controller actions.
//!
//! - Controllers: each `[Route("…")]` of the class is a prefix. A class with none inherits the
//!   templates of the nearest base class that declares any, which may lie in another file:
//!   the file records its controller classes and such routes in its `RouteLinks`, and
//!   `crate::link_routes` applies them after extraction (no base declares any: the empty
//!   prefix). An
//!   action's `[HttpGet("x")]` (`HttpPost`, …) gives `GET prefix/x`; a verb attribute without
//!   template takes the templates of the action's `[Route]` attributes, else the prefix alone;
//!   an action with only `[Route("x")]` serves `* prefix/x`. A template starting with `/` or
//!   `~/` ignores the prefix. `[controller]` becomes the class name without `Controller`,
//!   lower-cased (ASP.NET matches routes case-insensitively and lintel normalises paths to lower
//!   case); `[action]` becomes the action name: `[ActionName("x")]`, else the method name
//!   without an `Async` suffix (MVC drops it by default). Framework `aspnet`, handler and scope
//!   `Class.Method`.
//! - An action with no template of its own in a class with none (a verb attribute without
//!   template only constrains the method) has no attribute route: the default conventional
//!   route `{area}/{controller=Home}/{action=Index}/{id?}` serves it, so its path is
//!   `/{area}/{controller}/{action}` (the area from `[Area("x")]`), with `/{id}` when it takes
//!   an `id`. A base class's template, once linked, makes it attribute-routed after all. In
//!   such a controller (public, not abstract, `…Controller` or `[Controller]`, not
//!   `[ApiController]`), a public instance method with no verb or route attribute that returns
//!   an action result (`IActionResult`, `Task<ActionResult<T>>`, `ViewResult`, …) is an action
//!   too, serving `*` at its name; `[NonAction]`, static, `override` and generic methods are
//!   not.
//! - Each action route also gives `performs` facts (`crate::facts::web`): the operation of its verb,
//!   and as data each parameter type (except predefined types and `[FromServices]` parameters)
//!   and the return type, unwrapped.
//! - Minimal APIs: `app.MapGet("/x", handler)` (`MapPost`, `MapPut`, `MapPatch`, `MapDelete`;
//!   `Map` serves `*`) with the prefixes of `MapGroup("/p")` receivers, chained or bound to a
//!   local variable of the file. Framework `aspnet-minimal`; the handler is named when it is a
//!   method group. Its `performs` facts take the data from the handler's parameter types (a
//!   lambda's, or those and the return type of a method group declared in the file), and from
//!   `T` of a chained `.Produces<T>()`; scope: the method group, else the registration's scope.
//! - An action whose parameters and return type name no data (`Delete(int id)` returning
//!   `IActionResult`) takes it from `[ProducesResponseType(typeof(T), …)]` or
//!   `[ProducesResponseType<T>]` (definite), else from the controller's name, singular
//!   (`OrdersController` → `Order`, probable).
//! - Data wrappers include generic repositories (`IRepository<T>`, `IReadRepository<T>`,
//!   `DbSet<T>`), so a handler that is given `IRepository<CatalogItem>` works on `CatalogItem`.

use std::collections::{BTreeMap, BTreeSet};

use policies::facts::{Confidence, Fact};
use tree_sitter::Node;

use super::{
    attribute_arguments, attribute_name, attributes_of, simple_type, string_value, Declared,
};
use crate::facts::calls_and_assignments::{CallsAndAssignmentsGrammar, FileSyntax};
use crate::facts::web::{self, join_path, RouteSite};
use crate::facts::FactFactory;
use crate::lang::csharp::calls_and_assignments::{simple_name, CSharp};
use crate::lang::csharp::has_modifier;
use crate::lang::csharp::walk::{self, field_child, Child, Kind};
use crate::query::{Field, QueryHit};
use crate::resolve::links::{ControllerClass, InheritedRoute, RouteLinks};
use crate::syntax::ChildField;
use crate::syntax::{self, named_children};

/// How deep `MapGroup` receivers are followed.
const MAX_GROUP_DEPTH: usize = 16;

/// The route and `performs` facts of a C# file.
pub(super) fn facts<'tree>(
    factory: &FactFactory<'_>,
    hits: &[QueryHit<'tree>],
    file: &FileSyntax<'_, 'tree>,
    declared: Declared<'_, 'tree>,
    links: &mut RouteLinks,
) -> Vec<Fact> {
    links.controllers.extend(
        declared
            .classes
            .iter()
            .filter_map(|class| controller_class(*class, file.source)),
    );
    let classes = declared.classes;
    let declared = declared.items;
    let mut facts = Vec::new();
    // Each action's facts once, whether an attribute or the conventional route makes it one.
    let mut actions = BTreeSet::new();
    let mut add_action = |method: Node<'tree>, implicit: bool, facts: &mut Vec<Fact>| {
        if actions.insert(method.id()) {
            facts.extend(action_facts(
                factory,
                method,
                file,
                &mut links.inherited,
                implicit,
            ));
        }
    };
    let mut names: Option<FileNames<'_, '_>> = None;
    for hit in hits
        .iter()
        .filter(|hit| hit.kind == policies::facts::FactKind::Route)
    {
        if let Some(attribute) = hit.node(Field::Decorator) {
            let Some(method) = attribute
                .parent()
                .and_then(|list| list.parent())
                .filter(|declaration| declaration.kind() == "method_declaration")
            else {
                continue;
            };
            add_action(method, false, &mut facts);
        } else if let Some((site, handler)) = minimal_route(hit, file, declared, &mut names) {
            facts.push(web::route_fact(factory, &site));
            facts.extend(minimal_performs(
                factory, &site, handler, file, declared, &mut names,
            ));
        }
    }
    // A conventionally routed controller's public methods that return an action result are
    // actions too when no attribute names a verb or a template (MVC's
    // `public IActionResult Index()`): they serve any method. Attribute-routed controllers
    // (a template of their own, or `[ApiController]`) are left alone: a public helper there is
    // seldom meant as an endpoint.
    for class in classes
        .iter()
        .filter(|class| is_conventional_controller(**class, file.source))
    {
        for method in implicit_actions(*class, file.source) {
            add_action(method, true, &mut facts);
        }
    }
    facts
}

/// Whether MVC takes `class` for a conventionally routed controller: a public class that is
/// neither abstract nor static, named `…Controller` or marked `[Controller]`, not
/// `[NonController]` or `[ApiController]` (which requires attribute routes), and with no route
/// template of its own.
fn is_conventional_controller(class: Node<'_>, source: &str) -> bool {
    let Some(name) = class.child_field("name") else {
        return false;
    };
    let attributes: Vec<String> = attributes_of(class)
        .into_iter()
        .map(|attribute| attribute_name(attribute, source))
        .collect();
    let has = |wanted: &str| attributes.iter().any(|name| name == wanted);
    has_modifier(class, "public", source)
        && !has_modifier(class, "abstract", source)
        && !has_modifier(class, "static", source)
        && !has("NonController")
        && !has("ApiController")
        && (syntax::text(name, source).ends_with("Controller") || has("Controller"))
        && own_templates(class, source).is_empty()
}

/// The methods of a controller class that are actions without a verb or route attribute:
/// public, neither static nor abstract nor `override` (`Dispose`, `OnActionExecuting`), not
/// generic and not `[NonAction]`, returning an action result (`IActionResult`,
/// `ActionResult<T>`, `ViewResult`, …, or a task of one).
fn implicit_actions<'tree>(class: Node<'tree>, source: &str) -> Vec<Node<'tree>> {
    let Some(body) = class.child_field("body") else {
        return Vec::new();
    };
    named_children(body)
        .into_iter()
        .filter(|member| member.kind() == "method_declaration")
        .filter(|method| {
            has_modifier(*method, "public", source)
                && !["static", "abstract", "override"]
                    .iter()
                    .any(|word| has_modifier(*method, word, source))
                && method.child_field("type_parameters").is_none()
                && method
                    .child_field("returns")
                    .is_some_and(|returns| returns_action_result(returns, source))
                && attributes_of(*method).into_iter().all(|attribute| {
                    let name = attribute_name(attribute, source);
                    name != "NonAction" && name != "Route" && !name.starts_with("Http")
                })
        })
        .collect()
}

/// One route of an action before the class prefix is applied.
struct ActionRoute<'tree> {
    node: Node<'tree>,
    method: String,
    template: Option<String>,
}

/// The class as a controller class of `RouteLinks`: kept when it declares route templates, or
/// when it has a base class and is named or marked as a controller (so chains of base
/// controllers are followed).
fn controller_class(class: Node<'_>, source: &str) -> Option<ControllerClass> {
    let name = syntax::text(class.child_field("name")?, source);
    let templates = own_templates(class, source);
    let base = base_class(class, source);
    let is_controller = name.contains("Controller")
        || attributes_of(class)
            .into_iter()
            .any(|attribute| attribute_name(attribute, source) == "ApiController");
    (!templates.is_empty() || (base.is_some() && is_controller)).then(|| ControllerClass {
        name: name.to_owned(),
        base,
        templates,
    })
}

/// The area of a controller class (`[Area("Admin")]`), lower-cased as `[controller]` is.
fn area(class: Node<'_>, source: &str) -> Option<String> {
    attributes_of(class)
        .into_iter()
        .filter(|attribute| attribute_name(*attribute, source) == "Area")
        .find_map(|attribute| template_of(attribute, source))
        .map(|area| area.to_lowercase())
}

/// The path the default conventional route gives an action: `/{area}/{controller}/{action}`,
/// with `/{id}` when the action takes an `id` (the route's optional last segment).
fn conventional_path(
    area: Option<&str>,
    controller: &str,
    action: &str,
    method: Node<'_>,
    source: &str,
) -> String {
    let takes_id = method
        .child_field("parameters")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|parameter| parameter.kind() == "parameter")
        .filter_map(|parameter| parameter.child_field("name"))
        .any(|name| syntax::text(name, source) == "id");
    let action = action.to_lowercase();
    let mut segments = vec![area.unwrap_or_default(), controller, action.as_str()];
    if takes_id {
        segments.push("{id}");
    }
    join_path(&segments)
}

/// Whether a return type is an action result: a type named `…Result` (`IActionResult`,
/// `ActionResult<Order>`, `JsonResult`), or a `Task`/`ValueTask` of one.
fn returns_action_result(returns: Node<'_>, source: &str) -> bool {
    let written = simple_type(returns, source);
    let unwrapped = ["Task<", "ValueTask<"]
        .iter()
        .find_map(|wrapper| {
            written
                .strip_prefix(wrapper)
                .and_then(|inner| inner.strip_suffix('>'))
        })
        .unwrap_or(&written);
    let name = unwrapped.split('<').next().unwrap_or_default();
    let name = name.rsplit('.').next().unwrap_or(name);
    name.ends_with("Result") && name != "Result"
}

/// The templates of a declaration's own `[Route("…")]` attributes.
fn own_templates(declaration: Node<'_>, source: &str) -> Vec<String> {
    attributes_of(declaration)
        .into_iter()
        .filter(|attribute| attribute_name(*attribute, source) == "Route")
        .filter_map(|attribute| template_of(attribute, source))
        .collect()
}

/// The first unnamed string argument of an attribute.
fn template_of(attribute: Node<'_>, source: &str) -> Option<String> {
    attribute_arguments(attribute, source)
        .into_iter()
        .find(|(name, _)| name.is_none())
        .and_then(|(_, value)| string_value(value, source))
}

/// The simple name of a class's base class (the first type of its base list, generic
/// arguments dropped), unless it is MVC's own `Controller`, `ControllerBase` or `object`: none
/// of those declares a route.
fn base_class(class: Node<'_>, source: &str) -> Option<String> {
    let list = named_children(class)
        .into_iter()
        .find(|child| child.kind() == "base_list")?;
    let first = named_children(list).into_iter().next()?;
    let first = match first.kind() {
        "primary_constructor_base_type" => named_children(first).into_iter().next()?,
        _ => first,
    };
    let simple = simple_type(first, source);
    let name = simple.split('<').next().unwrap_or_default();
    (!name.is_empty() && !matches!(name, "Controller" | "ControllerBase" | "object" | "Object"))
        .then(|| name.to_owned())
}

fn action_facts(
    factory: &FactFactory<'_>,
    method: Node<'_>,
    file: &FileSyntax<'_, '_>,
    inherited: &mut Vec<InheritedRoute>,
    implicit: bool,
) -> Vec<Fact> {
    let source = file.source;
    let Some(class) = method.parent().and_then(|body| body.parent()) else {
        return Vec::new();
    };
    let (Some(class_name), Some(method_name)) = (
        class
            .child_field("name")
            .map(|name| syntax::text(name, source)),
        method
            .child_field("name")
            .map(|name| syntax::text(name, source)),
    ) else {
        return Vec::new();
    };
    let template_of = |attribute: Node<'_>| template_of(attribute, source);
    let mut prefixes = own_templates(class, source);
    // With no template on the class or the action, the action has no attribute route (a verb
    // attribute without template only constrains the method): the app's conventional route
    // serves it, `{area}/{controller=Home}/{action=Index}/{id?}` by default — unless a base
    // class declares a template, which `crate::link_routes` applies to the attribute path.
    let conventional_prefix = prefixes.is_empty().then(|| area(class, source));
    // No template of its own: its routes take those of its base classes once linked.
    let inherits_from = prefixes
        .is_empty()
        .then(|| base_class(class, source))
        .flatten();
    if prefixes.is_empty() {
        prefixes.push(String::new());
    }
    let routes = action_routes(method, source, implicit);
    let controller = class_name
        .strip_suffix("Controller")
        .unwrap_or(class_name)
        .to_lowercase();
    // The action's name: `[ActionName("x")]`, else the method's without the `Async` suffix
    // (MVC's `SuppressAsyncSuffixInActionNames`, on by default).
    let action = attributes_of(method)
        .into_iter()
        .filter(|attribute| attribute_name(*attribute, source) == "ActionName")
        .find_map(template_of)
        .unwrap_or_else(|| {
            method_name
                .strip_suffix("Async")
                .filter(|name| !name.is_empty())
                .unwrap_or(method_name)
                .to_owned()
        });
    let replace_tokens = |path: &str| {
        path.replace("[controller]", &controller)
            .replace("[action]", &action)
    };
    let handler = format!("{class_name}.{method_name}");
    let (data, confidence) = performed_data(method, class_name, source);
    let mut facts = Vec::new();
    for route in &routes {
        let is_absolute = route
            .template
            .as_deref()
            .is_some_and(|template| template.starts_with('/') || template.starts_with("~/"));
        for prefix in &prefixes {
            let path = match route.template.as_deref() {
                Some(template) if is_absolute => join_path(&[template.trim_start_matches('~')]),
                Some(template) => join_path(&[prefix, template]),
                None => join_path(&[prefix]),
            };
            let attribute_path = replace_tokens(&path);
            let conventional = match (&conventional_prefix, &route.template) {
                (Some(area), None) => Some(conventional_path(
                    area.as_deref(),
                    &controller,
                    &action,
                    method,
                    source,
                )),
                _ => None,
            };
            let site = RouteSite {
                node: route.node,
                method: route.method.clone(),
                path: conventional
                    .clone()
                    .unwrap_or_else(|| attribute_path.clone()),
                framework: "aspnet",
                handler: Some(handler.clone()),
                scope: (file.scope_of)(route.node),
            };
            let mut fact = web::route_fact(factory, &site);
            if conventional.is_some() {
                fact.evidence.message = format!(
                    "route `{} {}` (aspnet, conventional route {{controller}}/{{action}})",
                    site.method, site.path
                )
                .into();
            }
            if let Some(base) = inherits_from.as_ref().filter(|_| !is_absolute) {
                inherited.push(InheritedRoute {
                    line: fact.evidence.line,
                    column: fact.evidence.column,
                    base: base.clone(),
                    controller: controller.clone(),
                    action: action.clone(),
                    attribute_path: conventional.is_some().then_some(attribute_path),
                });
            }
            facts.push(fact);
        }
        facts.extend(web::performs_facts_with(
            factory,
            route.node,
            web::PerformsOf {
                handler: &handler,
                scope: Some(handler.clone()),
                confidence,
            },
            &route.method,
            &data,
        ));
    }
    facts
}

/// The routes of an action: one per verb attribute (`[HttpGet("x")]`), each at its own template
/// or at every `[Route]` template of the action; with neither, `implicit` (an action of a
/// controller with no attribute route) serves any method at its name, and a `[Route]` alone
/// any method at its templates.
fn action_routes<'tree>(
    method: Node<'tree>,
    source: &str,
    implicit: bool,
) -> Vec<ActionRoute<'tree>> {
    let mut verbs = Vec::new();
    let mut templates = Vec::new();
    for attribute in attributes_of(method) {
        let name = attribute_name(attribute, source);
        if name == "Route" {
            templates.extend(template_of(attribute, source).map(|template| (attribute, template)));
        } else if let Some(verb) = name.strip_prefix("Http") {
            verbs.push((
                attribute,
                verb.to_uppercase(),
                template_of(attribute, source),
            ));
        }
    }
    let mut routes = Vec::new();
    for (node, verb, template) in &verbs {
        match template {
            Some(template) => routes.push(ActionRoute {
                node: *node,
                method: verb.clone(),
                template: Some(template.clone()),
            }),
            None if templates.is_empty() => routes.push(ActionRoute {
                node: *node,
                method: verb.clone(),
                template: None,
            }),
            None => routes.extend(templates.iter().map(|(_, template)| ActionRoute {
                node: *node,
                method: verb.clone(),
                template: Some(template.clone()),
            })),
        }
    }
    if implicit {
        // An action with no verb or route attribute, at its name, serving any method.
        routes.extend(method.child_field("name").map(|name| ActionRoute {
            node: name,
            method: "*".to_owned(),
            template: None,
        }));
    } else if verbs.is_empty() {
        routes.extend(templates.iter().map(|(node, template)| ActionRoute {
            node: *node,
            method: "*".to_owned(),
            template: Some(template.clone()),
        }));
    }
    routes
}

/// What an action performs: the data of its parameters and results, else the types of its
/// `[ProducesResponseType]` attributes, else (probable) the singular of its controller's name.
fn performed_data(method: Node<'_>, class_name: &str, source: &str) -> (Vec<String>, Confidence) {
    let mut data = action_data(method, source);
    let mut confidence = Confidence::Definite;
    if data.is_empty() {
        data = response_types(method, source);
    }
    if data.is_empty() {
        // Only ids and plumbing: the controller's name says what it serves.
        data.extend(singular(
            class_name.strip_suffix("Controller").unwrap_or(class_name),
        ));
        confidence = Confidence::Probable;
    }
    (data, confidence)
}

/// The types of an action's `[ProducesResponseType(typeof(T), …)]` and
/// `[ProducesResponseType<T>(…)]` attributes.
fn response_types(method: Node<'_>, source: &str) -> Vec<String> {
    let mut found = Vec::new();
    for attribute in attributes_of(method) {
        let Some(name) = attribute.child_field("name") else {
            continue;
        };
        if name.kind() == "generic_name" {
            let is_produces = named_children(name).first().is_some_and(|identifier| {
                syntax::text(*identifier, source) == "ProducesResponseType"
            });
            if is_produces {
                found.extend(
                    named_children(name)
                        .into_iter()
                        .filter(|child| child.kind() == "type_argument_list")
                        .flat_map(named_children)
                        .filter_map(|argument| web::data_type(&simple_type(argument, source))),
                );
            }
            continue;
        }
        if attribute_name(attribute, source) != "ProducesResponseType" {
            continue;
        }
        found.extend(
            attribute_arguments(attribute, source)
                .into_iter()
                .filter(|(name, value)| name.is_none() && value.kind() == "typeof_expression")
                .filter_map(|(_, value)| value.child_field("type"))
                .filter_map(|type_node| web::data_type(&simple_type(type_node, source))),
        );
    }
    found
}

/// The singular of a plural type name (`Orders` → `Order`, `Categories` → `Category`,
/// `Addresses` → `Address`); a name that is not plural stays; `None` for an empty name.
fn singular(name: &str) -> Option<String> {
    if name.is_empty() {
        return None;
    }
    if let Some(stem) = name.strip_suffix("ies") {
        return Some(format!("{stem}y"));
    }
    for ending in ["sses", "shes", "ches", "xes"] {
        if name.ends_with(ending) {
            return name.strip_suffix("es").map(str::to_owned);
        }
    }
    if name.ends_with("ss") || name.ends_with("us") {
        return Some(name.to_owned());
    }
    Some(name.strip_suffix('s').unwrap_or(name).to_owned())
}

/// The candidate data types of an action: its parameters' types, then its return type.
fn action_data(method: Node<'_>, source: &str) -> Vec<String> {
    let parameters = method
        .child_field("parameters")
        .map(named_children)
        .unwrap_or_default();
    let from_parameters = parameters
        .into_iter()
        .filter(|parameter| parameter.kind() == "parameter")
        .filter(|parameter| {
            !attributes_of(*parameter)
                .into_iter()
                .any(|attribute| attribute_name(attribute, source) == "FromServices")
        })
        .filter_map(|parameter| parameter.child_field("type"))
        .filter_map(|type_node| web::data_type(&simple_type(type_node, source)));
    let returned = method
        .child_field("returns")
        .or_else(|| {
            (method.kind() == "local_function_statement")
                .then(|| method.child_field("type"))
                .flatten()
        })
        .and_then(|type_node| web::data_type(&simple_type(type_node, source)));
    from_parameters.chain(returned).collect()
}

fn minimal_route<'tree, 's>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'s, 'tree>,
    declared: &[Node<'tree>],
    names: &mut Option<FileNames<'tree, 's>>,
) -> Option<(RouteSite<'tree>, Node<'tree>)> {
    let source = file.source;
    let (call, receiver, name) = (
        hit.node(Field::Call)?,
        hit.node(Field::Receiver)?,
        hit.node(Field::Method)?,
    );
    let arguments = CSharp.arguments(hit.node(Field::Arguments)?);
    let (first, handler) = (arguments.first()?, arguments.get(1)?);
    let template = string_value(*first, source)?;
    let method = match syntax::text(name, source).strip_prefix("Map") {
        Some("") | None => "*".to_owned(),
        Some(verb) => verb.to_uppercase(),
    };
    let names = names.get_or_insert_with(|| file_names(declared, source));
    let prefix = group_prefix(receiver, source, &names.values, MAX_GROUP_DEPTH);
    let handler_name = matches!(handler.kind(), "identifier" | "member_access_expression")
        .then(|| syntax::compact_text(*handler, source, 120));
    let site = RouteSite {
        node: call,
        method,
        path: join_path(&[&prefix, &template]),
        framework: "aspnet-minimal",
        handler: handler_name,
        scope: (file.scope_of)(call),
    };
    Some((site, *handler))
}

/// The `performs` facts of a minimal-API route: the operation of its verb on the handler's
/// parameter types (a lambda's, or those of a method group declared in the file, with its return
/// type) and on `T` of a chained `.Produces<T>()`. Scope: the method group, else the scope of
/// the registration (where a lambda's `[Authorize]` also lands).
fn minimal_performs<'tree, 's>(
    factory: &FactFactory<'_>,
    site: &RouteSite<'_>,
    handler: Node<'_>,
    file: &FileSyntax<'s, 'tree>,
    declared: &[Node<'tree>],
    names: &mut Option<FileNames<'tree, 's>>,
) -> Vec<Fact> {
    let source = file.source;
    let mut data = match handler.kind() {
        "lambda_expression" => parameter_data(handler, source),
        "identifier" | "member_access_expression" => {
            let name = syntax::text(handler, source);
            let name = name.rsplit('.').next().unwrap_or(name);
            names
                .get_or_insert_with(|| file_names(declared, source))
                .methods
                .get(name)
                .map(|method| action_data(*method, source))
                .unwrap_or_default()
        }
        _ => Vec::new(),
    };
    data.extend(produced_types(site.node, source));
    let label = format!("{} {}", site.method, site.path);
    let (handler, scope) = match &site.handler {
        Some(handler) => (handler.as_str(), Some(handler.clone())),
        None => (label.as_str(), site.scope.clone()),
    };
    web::performs_facts_with(
        factory,
        site.node,
        web::PerformsOf {
            handler,
            scope,
            confidence: Confidence::Definite,
        },
        &site.method,
        &data,
    )
}

/// The candidate data types of a lambda's or method's typed parameters (not `[FromServices]`).
fn parameter_data(function: Node<'_>, source: &str) -> Vec<String> {
    function
        .child_field("parameters")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|parameter| parameter.kind() == "parameter")
        .filter(|parameter| {
            !attributes_of(*parameter)
                .into_iter()
                .any(|attribute| attribute_name(attribute, source) == "FromServices")
        })
        .filter_map(|parameter| parameter.child_field("type"))
        .filter_map(|type_node| web::data_type(&simple_type(type_node, source)))
        .collect()
}

/// `T` of the `.Produces<T>()` calls chained on a route registration.
fn produced_types(call: Node<'_>, source: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut current = call;
    for _ in 0..MAX_GROUP_DEPTH {
        let Some(access) = current
            .parent()
            .filter(|parent| parent.kind() == "member_access_expression")
        else {
            break;
        };
        let Some(invocation) = access
            .parent()
            .filter(|parent| parent.kind() == "invocation_expression")
        else {
            break;
        };
        if let Some(name) = access
            .child_field("name")
            .filter(|name| name.kind() == "generic_name")
        {
            let is_produces = named_children(name)
                .first()
                .is_some_and(|identifier| syntax::text(*identifier, source) == "Produces");
            if is_produces {
                found.extend(
                    named_children(name)
                        .into_iter()
                        .filter(|child| child.kind() == "type_argument_list")
                        .flat_map(named_children)
                        .filter_map(|argument| web::data_type(&simple_type(argument, source))),
                );
            }
        }
        current = invocation;
    }
    found
}

/// The path prefix of a route receiver: `app.MapGroup("/api")`, or a variable bound to one.
fn group_prefix(
    receiver: Node<'_>,
    source: &str,
    declarations: &BTreeMap<String, Node<'_>>,
    depth: usize,
) -> String {
    let Some(depth) = depth.checked_sub(1) else {
        return String::new();
    };
    match receiver.kind() {
        "identifier" => declarations
            .get(syntax::text(receiver, source))
            .map(|value| group_prefix(*value, source, declarations, depth))
            .unwrap_or_default(),
        "invocation_expression" => {
            let Some((object, name)) = receiver
                .child_field("function")
                .and_then(|function| CSharp.member(function))
            else {
                return String::new();
            };
            let outer = group_prefix(object, source, declarations, depth);
            if simple_name(name, source) != "MapGroup" {
                return outer;
            }
            let own = receiver
                .child_field("arguments")
                .and_then(|list| CSharp.arguments(list).into_iter().next())
                .and_then(|first| string_value(first, source))
                .unwrap_or_default();
            join_path(&[&outer, &own])
        }
        _ => String::new(),
    }
}

/// What the minimal-API routes of a file look names up in, from one walk of the file.
struct FileNames<'tree, 's> {
    /// The values of the file's local variables by name (`var orders =
    /// app.MapGroup("/orders")`), the first declaration of a name winning.
    values: BTreeMap<String, Node<'tree>>,
    /// The methods and local functions by name, the first of a name winning (the method groups
    /// routes name as handlers).
    methods: BTreeMap<&'s str, Node<'tree>>,
}

/// The [`FileNames`] of a file from its variable declarators, methods and local functions,
/// in the order of the file (as the extractor's walk collects them).
fn file_names<'tree, 's>(declared: &[Node<'tree>], source: &'s str) -> FileNames<'tree, 's> {
    let mut names = FileNames {
        values: BTreeMap::new(),
        methods: BTreeMap::new(),
    };
    for node in declared.iter().copied() {
        let name = field_child(node, Child::Name);
        match walk::kind(node) {
            Kind::VariableDeclarator => {
                let value = named_children(node)
                    .into_iter()
                    .rfind(|child| Some(child.id()) != name.map(|name| name.id()));
                if let (Some(name), Some(value)) = (name, value) {
                    names
                        .values
                        .entry(syntax::text(name, source).to_owned())
                        .or_insert(value);
                }
            }
            Kind::MethodDeclaration | Kind::LocalFunction => {
                if let Some(declared) = name {
                    names
                        .methods
                        .entry(syntax::text(declared, source))
                        .or_insert(node);
                }
            }
            _ => {}
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::singular;

    #[test]
    fn controller_names_become_singular() {
        assert_eq!(singular("Orders").as_deref(), Some("Order"));
        assert_eq!(singular("Categories").as_deref(), Some("Category"));
        assert_eq!(singular("Addresses").as_deref(), Some("Address"));
        assert_eq!(singular("Boxes").as_deref(), Some("Box"));
        assert_eq!(singular("Status").as_deref(), Some("Status"));
        assert_eq!(singular("Basket").as_deref(), Some("Basket"));
        assert_eq!(singular(""), None);
    }
}
