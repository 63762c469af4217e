//! Routers that arrive typed: a route registered on a parameter whose type is a server
//! framework's router, named through the project's type aliases and classes
//! (`router: ManagementApiRouter` with `type ManagementApiRouter = Router<…>` and
//! `import type Router from 'koa-router'` in another file, as Logto's routes take their Koa
//! router). A file that imports no server framework has its routes on conventionally named
//! receivers guessed as Express's (probable); the types its parameters name are recorded
//! (`RouteLinks::typed_routes`), each file records its type aliases and classes that stand for a
//! router (`RouteLinks::router_types`), and the cross-file join gives the routes the framework
//! those types lead to, definite.

use std::borrow::BorrowMut;
use std::collections::BTreeMap;

use policies::facts::{Confidence, Fact, FactKind, PropertyValue};
use tree_sitter::Node;

use super::FileView;
use crate::resolve::context::Resolution;
use crate::resolve::links::{RouteLinks, RouterRef, RouterType, TypedRoute};
use crate::syntax::{self, ChildField};

/// The router types of the server frameworks: (package, export, framework).
const ROUTER_TYPES: [(&str, &str, &str); 4] = [
    ("koa-router", "default", "koa"),
    ("koa-router", "Router", "koa"),
    ("@koa/router", "default", "koa"),
    ("@koa/router", "Router", "koa"),
];

/// How many aliases deep a router type is followed.
const MAX_DEPTH: usize = 8;

/// What a type name (a type alias's head, a class's base, a parameter's type) refers to: a
/// router type of a framework, or a type of a project file (this one or another).
enum Named {
    Framework(&'static str),
    Project(RouterRef),
}

fn named(view: &FileView<'_, '_>, node: Node<'_>, as_type: bool) -> Option<Named> {
    let source = view.source();
    let target = if as_type {
        view.bindings.resolve_type(node, source)
    } else {
        view.bindings.resolve(node, source)
    };
    let Some(target) = target else {
        return (node.kind() == "type_identifier" || node.kind() == "identifier")
            .then(|| Named::Project(RouterRef::Local(syntax::text(node, source).to_owned())));
    };
    let record = view.imports.get(target.import)?;
    match &record.resolution {
        Resolution::File(file) => Some(Named::Project(RouterRef::Imported {
            file: file.clone(),
            name: target.export_path,
        })),
        _ => {
            let package = record.external_package()?;
            ROUTER_TYPES
                .iter()
                .find(|(known, export, _)| *known == package && *export == target.export_path)
                .map(|(_, _, framework)| Named::Framework(framework))
        }
    }
}

/// The head of a type: `Router` of `Router<unknown, Ctx>`.
fn type_head(value: Node<'_>) -> Option<Node<'_>> {
    match value.kind() {
        "generic_type" => value.child_field("name"),
        "type_identifier" | "nested_type_identifier" => Some(value),
        _ => None,
    }
}

/// Records the file's top-level type aliases and classes that may stand for a router: those
/// whose head type or base class is a framework's router type or a type of a project file.
pub(super) fn record_router_types(view: &FileView<'_, '_>) {
    let source = view.source();
    if !source.contains("Router") {
        return;
    }
    let mut found = Vec::new();
    for statement in syntax::named_children(view.input.tree.root_node()) {
        let (declaration, is_default) = match statement.kind() {
            "export_statement" => match statement.child_field("declaration") {
                Some(declaration) => (declaration, syntax::has_token(statement, "default")),
                None => continue,
            },
            _ => (statement, false),
        };
        let Some(name) = declaration.child_field("name") else {
            continue;
        };
        let name = syntax::text(name, source);
        let refers = match declaration.kind() {
            "type_alias_declaration" => declaration
                .child_field("value")
                .and_then(type_head)
                .and_then(|head| named(view, head, true)),
            "class_declaration" | "abstract_class_declaration" => {
                syntax::named_children(declaration)
                    .into_iter()
                    .find(|child| child.kind() == "class_heritage")
                    .and_then(|heritage| {
                        syntax::named_children(heritage)
                            .into_iter()
                            .find(|child| child.kind() == "extends_clause")
                    })
                    .and_then(|extends| extends.child_field("value"))
                    .and_then(|value| named(view, value, false))
            }
            _ => None,
        };
        let Some(refers) = refers else {
            continue;
        };
        let (framework, of) = match refers {
            Named::Framework(framework) => (Some(framework.to_owned()), None),
            Named::Project(of) => (None, Some(of)),
        };
        let mut names = vec![name.to_owned()];
        if is_default {
            names.push("default".to_owned());
        }
        for name in names {
            found.push(RouterType {
                name,
                framework: framework.clone(),
                of: of.clone(),
            });
        }
    }
    if found.is_empty() {
        return;
    }
    if let Ok(mut shared) = view.input.links.try_borrow_mut() {
        shared.router_types.extend(found);
    }
}

/// The types the parameter a route's receiver (`router` of `router.get(…)`) is names: the
/// type names of its annotation, with the constraints of the type parameters among them
/// (`<T extends ManagementApiRouter>(...[router]: RouterInitArgs<T>)` names `RouterInitArgs`
/// and `ManagementApiRouter`), as project types; `None` when the receiver is no typed
/// parameter or a name refers to another framework's type. A framework's router type among
/// them gives the framework at once.
pub(super) fn typed_route(
    view: &FileView<'_, '_>,
    site: Node<'_>,
    root: Node<'_>,
) -> Option<Result<&'static str, TypedRoute>> {
    let source = view.source();
    if root.kind() != "identifier" {
        return None;
    }
    let mut name = syntax::text(root, source);
    let mut current = root;
    let (function, annotation) = loop {
        current = current.parent()?;
        // `const [router, tenant] = args` of a typed `...args`, or `const router = new
        // SchemaRouter(…)` of a project class.
        if current.kind() == "statement_block" {
            match local_source(current, name, source) {
                Some(Local::Name(from)) => name = from,
                Some(Local::Construction(class)) => {
                    let types = match named(view, class, false)? {
                        Named::Framework(framework) => return Some(Ok(framework)),
                        Named::Project(project) => vec![project],
                    };
                    let (line, column) = syntax::start_position(site, source);
                    return Some(Err(TypedRoute {
                        line,
                        column,
                        types,
                    }));
                }
                None => {}
            }
            continue;
        }
        if !matches!(
            current.kind(),
            "function_declaration"
                | "function_expression"
                | "function"
                | "arrow_function"
                | "method_definition"
                | "generator_function_declaration"
        ) {
            continue;
        }
        let Some(parameters) = current.child_field("parameters") else {
            continue;
        };
        let typed = syntax::named_children(parameters)
            .into_iter()
            .filter(|parameter| {
                matches!(
                    parameter.kind(),
                    "required_parameter" | "optional_parameter"
                )
            })
            .find(|parameter| {
                parameter
                    .child_field("pattern")
                    .is_some_and(|pattern| binds(pattern, name, source))
            });
        if let Some(parameter) = typed {
            break (current, parameter.child_field("type")?);
        }
    };
    let constraint_of = |type_name: &str| -> Option<Node<'_>> {
        let mut scope = Some(function);
        while let Some(node) = scope {
            if let Some(parameters) = node.child_field("type_parameters") {
                for parameter in syntax::named_children(parameters) {
                    let declared = parameter
                        .child_field("name")
                        .is_some_and(|declared| syntax::text(declared, source) == type_name);
                    if declared {
                        return parameter.child_field("constraint");
                    }
                }
            }
            scope = node.parent();
        }
        None
    };
    let mut names: Vec<Node<'_>> = Vec::new();
    let mut pending = vec![(annotation, 0)];
    while let Some((node, depth)) = pending.pop() {
        for child in syntax::descendants(node) {
            if child.kind() != "type_identifier"
                || child
                    .parent()
                    .is_some_and(|parent| parent.kind() == "nested_type_identifier")
            {
                if child.kind() == "nested_type_identifier" {
                    names.push(child);
                }
                continue;
            }
            match constraint_of(syntax::text(child, source)) {
                Some(constraint) if depth < MAX_DEPTH => pending.push((constraint, depth + 1)),
                Some(_) => {}
                None => names.push(child),
            }
        }
    }
    let mut types = Vec::new();
    for node in names {
        match named(view, node, true)? {
            Named::Framework(framework) => return Some(Ok(framework)),
            Named::Project(project) => types.push(project),
        }
    }
    if types.is_empty() {
        return None;
    }
    types.sort();
    types.dedup();
    let (line, column) = syntax::start_position(site, source);
    Some(Err(TypedRoute {
        line,
        column,
        types,
    }))
}

/// Where a block's own `const` or `let` of a name takes its value from.
enum Local<'t> {
    /// Another name, destructured or copied (`const [router] = args`, `const router = args`).
    Name(&'t str),
    /// A construction of a class (`new SchemaRouter(…)`): the class.
    Construction(Node<'t>),
}

fn local_source<'t>(block: Node<'t>, name: &str, source: &'t str) -> Option<Local<'t>> {
    for statement in syntax::named_children(block) {
        if !matches!(
            statement.kind(),
            "lexical_declaration" | "variable_declaration"
        ) {
            continue;
        }
        for declarator in syntax::named_children(statement) {
            let (Some(pattern), Some(value)) = (
                declarator.child_field("name"),
                declarator.child_field("value"),
            ) else {
                continue;
            };
            if !binds(pattern, name, source) {
                continue;
            }
            return match value.kind() {
                "identifier" => Some(Local::Name(syntax::text(value, source))),
                "new_expression" => value
                    .child_field("constructor")
                    .filter(|class| matches!(class.kind(), "identifier" | "member_expression"))
                    .map(Local::Construction),
                _ => None,
            };
        }
    }
    None
}

/// Whether a parameter's pattern binds `name`: the name itself, or an element of an array or
/// object pattern (`...[router, { queries }]`, `{ router }`).
fn binds(pattern: Node<'_>, name: &str, source: &str) -> bool {
    match pattern.kind() {
        "identifier" => syntax::text(pattern, source) == name,
        "rest_pattern" | "array_pattern" | "object_pattern" | "pair_pattern"
        | "assignment_pattern" => syntax::descendants(pattern).into_iter().any(|node| {
            matches!(
                node.kind(),
                "identifier" | "shorthand_property_identifier_pattern"
            ) && syntax::text(node, source) == name
                && node.parent().is_none_or(|parent| {
                    parent.kind() != "pair_pattern" || parent.child_field("key") != Some(node)
                })
        }),
        _ => false,
    }
}

/// Gives the routes whose receiver is a parameter of a type that leads to a framework's router
/// type (through type aliases and classes of project files) that framework, definite.
pub(crate) fn link_router_types<F: BorrowMut<Fact>>(
    facts: &mut [F],
    links: &BTreeMap<String, RouteLinks>,
) {
    let mut by_file: BTreeMap<&str, BTreeMap<(u32, u32), String>> = BTreeMap::new();
    for (file, file_links) in links {
        for route in &file_links.typed_routes {
            let framework = route
                .types
                .iter()
                .find_map(|named| framework_of(links, file, named, 0));
            if let Some(framework) = framework {
                by_file
                    .entry(file.as_str())
                    .or_default()
                    .insert((route.line, route.column), framework);
            }
        }
    }
    if by_file.is_empty() {
        return;
    }
    for fact in facts.iter_mut() {
        let fact: &mut Fact = fact.borrow_mut();
        if fact.kind != FactKind::Route {
            continue;
        }
        let Some(framework) = by_file
            .get(&*fact.evidence.file)
            .and_then(|routes| routes.get(&(fact.evidence.line, fact.evidence.column)))
        else {
            continue;
        };
        let was = fact
            .property_str("framework")
            .unwrap_or_default()
            .to_owned();
        fact.evidence.message = fact
            .evidence
            .message
            .replace(&format!("({was})"), &format!("({framework})"))
            .into();
        fact.properties
            .insert("framework", PropertyValue::from(framework.as_str()));
        fact.confidence = Confidence::Definite;
    }
}

/// The framework a type named from `file` leads to, through router types.
fn framework_of(
    links: &BTreeMap<String, RouteLinks>,
    file: &str,
    named: &RouterRef,
    depth: usize,
) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    let (file, name) = match named {
        RouterRef::Local(name) => (file, name.as_str()),
        RouterRef::Imported { file, name } => (file.as_str(), name.as_str()),
    };
    let router_type = links
        .get(file)?
        .router_types
        .iter()
        .find(|router_type| router_type.name == name)?;
    match (&router_type.framework, &router_type.of) {
        (Some(framework), _) => Some(framework.clone()),
        (None, Some(of)) => framework_of(links, file, of, depth + 1),
        (None, None) => None,
    }
}
