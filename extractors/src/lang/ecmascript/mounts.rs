//! Cross-file routing records of a JavaScript/TypeScript file (`crate::resolve::links`).
//!
//! - Members: a route registered on `router.get(…)` belongs to router `router`; one registered on
//!   a parameter of a function (`export default async function routes(fastify) {
//!   fastify.get(…) }`, a Fastify plugin) belongs to that function (`routes`, or `default` when
//!   anonymous and exported by default).
//! - Mounts: Express and Koa `parent.use('/p', child, …)` (every argument after the path, or
//!   every argument without one; Koa's `child.routes()` is `child`), Hono `parent.route('/p',
//!   child)`, Fastify `parent.register(child, { prefix: '/p' })`. A child is a local name, an
//!   imported binding (`import users from './users'`, `const { users } = require('./r')`,
//!   `ns.users`) or an inline `require('./x')`/`import('./x')`, resolved to its project file.
//! - Exports: `export default router`, `module.exports = router`, `export { router as users }`,
//!   `exports.users = router`, `module.exports = { users: router }`, Koa's `module.exports =
//!   router.routes()`; a name exported as itself needs no record.

use tree_sitter::Node;

use super::imports::ImportRecord;
use super::literals::{arguments, object_property, static_string};
use super::FileView;
use crate::resolve::context::Resolution;
use crate::resolve::links::{RouteLinks, RouterExport, RouterMount, RouterRef};
use crate::syntax::ChildField;
use crate::syntax::{self, named_children};

/// Function kinds whose parameters can be a plugin's router.
const FUNCTIONS: [&str; 5] = [
    "function_declaration",
    "function_expression",
    "function",
    "arrow_function",
    "generator_function_declaration",
];

/// The router a route or mount registered on `receiver` belongs to: its root variable; the
/// function whose parameter it is; the router imported from a project file; or, for a chain
/// that starts at a factory of an outside package (`Router().use(a).use(b)`), the variable the
/// chain is assigned to (`default` for `export default …`).
pub(super) fn router_name(view: &FileView<'_, '_>, receiver: Node<'_>) -> Option<RouterRef> {
    let source = view.source();
    let mut root = receiver;
    loop {
        let next = match root.kind() {
            "call_expression" => root.child_field("function"),
            "member_expression" => root.child_field("object"),
            "parenthesized_expression" | "await_expression" | "non_null_expression" => {
                root.named_child(0)
            }
            "new_expression" => root.child_field("constructor"),
            _ => None,
        };
        match next {
            Some(next) => root = next,
            None => break,
        }
    }
    if root.kind() != "identifier" {
        return None;
    }
    let name = syntax::text(root, source);
    let ancestors = syntax::ancestors(view.input.tree.root_node(), root);
    if view.bindings.is_bound(name) {
        let target = view
            .bindings
            .resolve(receiver, source)
            .or_else(|| view.bindings.resolve(root, source))?;
        let record = view.imports.get(target.import)?;
        if let Some(file) = project_file(record) {
            return Some(RouterRef::Imported {
                file,
                name: target.export_path,
            });
        }
        return chain_owner(receiver, &ancestors, source).map(RouterRef::Local);
    }
    for function in ancestors
        .iter()
        .rev()
        .filter(|node| FUNCTIONS.contains(&node.kind()))
    {
        if has_parameter(*function, name, source) {
            return function_name(*function, &ancestors, source).map(RouterRef::Local);
        }
    }
    Some(RouterRef::Local(name.to_owned()))
}

/// The variable a chain that contains `receiver` is assigned to (`const api = Router().use(…)`),
/// or `default` when the chain is the default export.
fn chain_owner(receiver: Node<'_>, ancestors: &[Node<'_>], source: &str) -> Option<String> {
    let start = ancestors
        .iter()
        .rposition(|node| node.id() == receiver.id())
        .unwrap_or(ancestors.len());
    let outside = ancestors
        .get(..start)?
        .iter()
        .rev()
        .find(|node| !matches!(node.kind(), "call_expression" | "member_expression"))?;
    match outside.kind() {
        "variable_declarator" => outside
            .child_field("name")
            .filter(|name| name.kind() == "identifier")
            .map(|name| syntax::text(name, source).to_owned()),
        "export_statement" => Some("default".to_owned()),
        "assignment_expression" => outside
            .child_field("left")
            .and_then(|left| exported_name(left, source))
            .map(str::to_owned),
        _ => None,
    }
}

fn has_parameter(function: Node<'_>, name: &str, source: &str) -> bool {
    if let Some(single) = function.child_field("parameter") {
        return syntax::text(single, source) == name;
    }
    function
        .child_field("parameters")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .any(|parameter| {
            let pattern = parameter.child_field("pattern").unwrap_or(parameter);
            pattern.kind() == "identifier" && syntax::text(pattern, source) == name
        })
}

/// The router name of a function: its own name, the variable it is assigned to, or `default`
/// when it is the default export.
fn function_name(function: Node<'_>, ancestors: &[Node<'_>], source: &str) -> Option<String> {
    if let Some(name) = function.child_field("name") {
        return Some(syntax::text(name, source).to_owned());
    }
    let index = ancestors
        .iter()
        .position(|node| node.id() == function.id())?;
    let parent = *ancestors.get(index.checked_sub(1)?)?;
    match parent.kind() {
        "variable_declarator" => parent
            .child_field("name")
            .filter(|name| name.kind() == "identifier")
            .map(|name| syntax::text(name, source).to_owned()),
        "export_statement" => Some("default".to_owned()),
        "assignment_expression" => parent
            .child_field("left")
            .and_then(|left| exported_name(left, source))
            .map(str::to_owned),
        _ => None,
    }
}

/// The name an assignment target exports: `module.exports` → `default`, `exports.x` and
/// `module.exports.x` → `x`.
fn exported_name<'source>(left: Node<'_>, source: &'source str) -> Option<&'source str> {
    let text = syntax::text(left, source);
    if text == "module.exports" {
        return Some("default");
    }
    text.strip_prefix("module.exports.")
        .or_else(|| text.strip_prefix("exports."))
        .filter(|name| !name.contains('.'))
}

/// The mounts of a `use`/`route`/`register` call on `receiver`.
pub(super) fn mounts(
    view: &FileView<'_, '_>,
    receiver: Node<'_>,
    method: &str,
    list: Node<'_>,
) -> Vec<RouterMount> {
    let source = view.source();
    let Some(parent) = router_name(view, receiver) else {
        return Vec::new();
    };
    let arguments = arguments(list);
    let (prefix, children): (String, Vec<Node<'_>>) = match method {
        "use" => match arguments
            .first()
            .and_then(|first| static_string(*first, source))
        {
            Some(path) => (path, arguments.get(1..).unwrap_or_default().to_vec()),
            None if arguments
                .first()
                .is_some_and(|first| matches!(first.kind(), "string" | "template_string")) =>
            {
                return Vec::new()
            }
            None => (String::new(), arguments),
        },
        "route" if arguments.len() == 2 => {
            let (Some(path), Some(child)) = (
                arguments
                    .first()
                    .and_then(|first| static_string(*first, source)),
                arguments.get(1),
            ) else {
                return Vec::new();
            };
            (path, vec![*child])
        }
        "register" => {
            let prefix = arguments
                .get(1)
                .and_then(|options| object_property(*options, "prefix", source))
                .and_then(|prefix| static_string(prefix, source))
                .unwrap_or_default();
            (prefix, arguments.first().copied().into_iter().collect())
        }
        _ => return Vec::new(),
    };
    if !(prefix.is_empty() || prefix.starts_with('/')) {
        return Vec::new();
    }
    children
        .into_iter()
        .filter_map(|child| mount_target(view, child))
        .map(|child| RouterMount {
            parent: parent.clone(),
            prefix: prefix.clone(),
            replaces_own_prefix: false,
            child,
            prefix_constant: None,
        })
        .collect()
}

/// The router a mount argument names.
fn mount_target(view: &FileView<'_, '_>, argument: Node<'_>) -> Option<RouterRef> {
    let source = view.source();
    match argument.kind() {
        "member_expression"
            if argument
                .child_field("object")
                .is_some_and(|object| object.kind() == "call_expression") =>
        {
            // `require('./routes').users`.
            let object = argument.child_field("object")?;
            let property = argument.child_field("property")?;
            match mount_target(view, object)? {
                RouterRef::Imported { file, name } if name == "default" => {
                    Some(RouterRef::Imported {
                        file,
                        name: syntax::text(property, source).to_owned(),
                    })
                }
                _ => None,
            }
        }
        "identifier" | "member_expression" => {
            let root = if argument.kind() == "identifier" {
                argument
            } else {
                let mut root = argument;
                while root.kind() == "member_expression" {
                    root = root.child_field("object")?;
                }
                root
            };
            if root.kind() != "identifier" {
                return None;
            }
            if !view.bindings.is_bound(syntax::text(root, source)) {
                return (argument.kind() == "identifier")
                    .then(|| RouterRef::Local(syntax::text(argument, source).to_owned()));
            }
            let target = view.bindings.resolve(argument, source)?;
            let file = project_file(view.imports.get(target.import)?)?;
            Some(RouterRef::Imported {
                file,
                name: target.export_path,
            })
        }
        "call_expression" => {
            let function = argument.child_field("function")?;
            let is_import = function.kind() == "import"
                || (function.kind() == "identifier" && syntax::text(function, source) == "require");
            if is_import {
                let record = view
                    .imports
                    .iter()
                    .find(|record| record.node.id() == argument.id())?;
                return Some(RouterRef::Imported {
                    file: project_file(record)?,
                    name: "default".to_owned(),
                });
            }
            // Koa: `app.use(router.routes())`.
            let property = function.child_field("property")?;
            (function.kind() == "member_expression" && syntax::text(property, source) == "routes")
                .then(|| function.child_field("object"))
                .flatten()
                .and_then(|object| mount_target(view, object))
        }
        "await_expression" | "parenthesized_expression" => {
            mount_target(view, argument.named_child(0)?)
        }
        _ => None,
    }
}

fn project_file(record: &ImportRecord<'_>) -> Option<String> {
    match &record.resolution {
        Resolution::File(file) => Some(file.clone()),
        _ => None,
    }
}

/// The file's router exports under other names (top-level statements only).
pub(super) fn exports(view: &FileView<'_, '_>) -> Vec<RouterExport> {
    let source = view.source();
    let mut found = Vec::new();
    let mut export = |exported: &str, local: &str| {
        if exported != local {
            found.push(RouterExport {
                exported: exported.to_owned(),
                local: local.to_owned(),
            });
        }
    };
    for statement in named_children(view.input.tree.root_node()) {
        match statement.kind() {
            "export_statement" => {
                if let Some(value) = statement.child_field("value") {
                    if let Some(local) = exported_router(value, source) {
                        export("default", local);
                    }
                }
                let is_default = syntax::has_token(statement, "default");
                if let Some(declaration) = statement.child_field("declaration") {
                    if is_default {
                        if let Some(name) = declaration.child_field("name") {
                            export("default", syntax::text(name, source));
                        }
                    }
                }
                for clause in named_children(statement)
                    .into_iter()
                    .filter(|child| child.kind() == "export_clause")
                {
                    for specifier in named_children(clause) {
                        let name = specifier.child_field("name");
                        let alias = specifier.child_field("alias");
                        if let (Some(name), Some(alias)) = (name, alias) {
                            export(syntax::text(alias, source), syntax::text(name, source));
                        }
                    }
                }
            }
            "expression_statement" => {
                let Some(assignment) = statement
                    .named_child(0)
                    .filter(|child| child.kind() == "assignment_expression")
                else {
                    continue;
                };
                let (Some(left), Some(right)) = (
                    assignment.child_field("left"),
                    assignment.child_field("right"),
                ) else {
                    continue;
                };
                let Some(exported) = exported_name(left, source) else {
                    continue;
                };
                match right.kind() {
                    "identifier" | "call_expression" => {
                        if let Some(local) = exported_router(right, source) {
                            export(exported, local);
                        }
                    }
                    "object" if exported == "default" => {
                        for member in named_children(right) {
                            match member.kind() {
                                "pair" => {
                                    let key = member.child_field("key");
                                    let value = member.child_field("value");
                                    if let (Some(key), Some(value)) = (key, value) {
                                        if value.kind() == "identifier" {
                                            export(
                                                syntax::text(key, source),
                                                syntax::text(value, source),
                                            );
                                        }
                                    }
                                }
                                "shorthand_property_identifier" => {}
                                _ => {}
                            }
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    found
}

/// The local router an exported value names: `router`, or Koa's `router.routes()` /
/// `router.middleware()`.
fn exported_router<'source>(value: Node<'_>, source: &'source str) -> Option<&'source str> {
    match value.kind() {
        "identifier" => Some(syntax::text(value, source)),
        "call_expression" => {
            let function = value
                .child_field("function")
                .filter(|function| function.kind() == "member_expression")?;
            let property = syntax::text(function.child_field("property")?, source);
            let object = function
                .child_field("object")
                .filter(|object| object.kind() == "identifier")?;
            matches!(property, "routes" | "middleware").then(|| syntax::text(object, source))
        }
        _ => None,
    }
}

/// Records the file's links when it has any route or mount.
pub(super) fn record(view: &FileView<'_, '_>, mut links: RouteLinks) {
    if links.members.is_empty()
        && links.mounts.is_empty()
        && links.typed_routes.is_empty()
        && links.nest_versioning.is_none()
    {
        return;
    }
    links.exports = exports(view);
    if let Ok(mut shared) = view.input.links.try_borrow_mut() {
        // The requests' constants were noted before the routes.
        links.url_constants.append(&mut shared.url_constants);
        links.constants.append(&mut shared.constants);
        links.instances.append(&mut shared.instances);
        links
            .instance_requests
            .append(&mut shared.instance_requests);
        links.wrappers.append(&mut shared.wrappers);
        links.wrapper_calls.append(&mut shared.wrapper_calls);
        links.router_types.append(&mut shared.router_types);
        *shared = links;
    }
}
