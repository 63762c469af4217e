//! Requests whose URL the page builds on its own origin: `new URL(path, window.location.origin)`,
//! `${location.origin}/api/x`, `window.location.origin + '/api/x'`, the same through a `const`
//! that holds one (`const url = new URL(path, location.href); fetch(url)`, `url.toString()`,
//! `url.href`), and through a helper of the file that returns one (`fetch(urlFor(path))`,
//! `fetch(this.url_for(path))` of an object or class). Such a request calls the code's own
//! origin, as a relative URL does (`relativeUrl`): never an outside API.

use tree_sitter::Node;

use crate::lang::ecmascript::literals::{
    arguments, declared_value, property_name, top_level_functions,
};
use crate::syntax::{self, named_children, ChildField};

/// The expressions that name the page's own origin, or a URL on it.
const ORIGINS: [&str; 13] = [
    "window.location.origin",
    "location.origin",
    "self.location.origin",
    "globalThis.location.origin",
    "window.origin",
    "document.location.origin",
    "window.location.href",
    "location.href",
    "document.location.href",
    "document.baseURI",
    "window.location",
    "location",
    "document.location",
];

/// How many helpers and constants are followed from a request's URL.
const DEPTH: usize = 4;

/// Whether the URL expression `node` is built on the page's own origin.
pub(super) fn built_on_own_origin(node: Node<'_>, source: &str) -> bool {
    on_origin(node, source, DEPTH)
}

/// Whether `node` names the page's origin: one of [`ORIGINS`], whose global (`window`,
/// `location`, …) the file does not declare a name of its own for (a parameter `location`, React
/// Router's `const location = useLocation()`).
fn is_origin(node: Node<'_>, source: &str) -> bool {
    if !matches!(node.kind(), "identifier" | "member_expression") {
        return false;
    }
    let text = syntax::text(node, source);
    if !ORIGINS.contains(&text) {
        return false;
    }
    let global = text.split('.').next().unwrap_or(text);
    let root = std::iter::successors(Some(node), |node| node.parent())
        .last()
        .unwrap_or(node);
    !crate::lang::ecmascript::traced::declares(root, node, global, source)
}

/// The first named child that is not a comment.
fn inner(node: Node<'_>) -> Option<Node<'_>> {
    named_children(node)
        .into_iter()
        .find(|child| child.kind() != "comment")
}

fn on_origin(node: Node<'_>, source: &str, depth: usize) -> bool {
    if is_origin(node, source) {
        return true;
    }
    let Some(depth) = depth.checked_sub(1) else {
        return false;
    };
    match node.kind() {
        "parenthesized_expression"
        | "await_expression"
        | "non_null_expression"
        | "as_expression"
        | "satisfies_expression" => {
            inner(node).is_some_and(|inner| on_origin(inner, source, depth))
        }
        // `url.href` of a URL built on the origin.
        "member_expression" => {
            node.child_field("property")
                .is_some_and(|property| syntax::text(property, source) == "href")
                && node
                    .child_field("object")
                    .is_some_and(|object| on_origin(object, source, depth))
        }
        // `new URL(path, window.location.origin)`, unless `path` is an absolute literal (which
        // stands alone).
        "new_expression" => {
            let is_url = node
                .child_field("constructor")
                .is_some_and(|constructor| syntax::text(constructor, source) == "URL");
            let arguments: Vec<Node<'_>> = node
                .child_field("arguments")
                .map(arguments)
                .unwrap_or_default();
            is_url
                && arguments.len() == 2
                && arguments
                    .get(1)
                    .is_some_and(|base| is_origin(*base, source))
                && arguments
                    .first()
                    .is_some_and(|path| !is_absolute_literal(*path, source))
        }
        // `${window.location.origin}/api/x`: the origin first.
        "template_string" => {
            let text = syntax::text(node, source);
            text.starts_with("`${")
                && named_children(node)
                    .into_iter()
                    .find(|child| child.kind() == "template_substitution")
                    .and_then(inner)
                    .is_some_and(|first| is_origin(first, source))
        }
        // `window.location.origin + '/api/x'`: the origin leftmost.
        "binary_expression" => {
            node.child_field("operator")
                .is_some_and(|operator| operator.kind() == "+")
                && node
                    .child_field("left")
                    .is_some_and(|left| on_origin(left, source, depth))
        }
        "call_expression" => {
            let Some(function) = node.child_field("function") else {
                return false;
            };
            let arguments = node
                .child_field("arguments")
                .map(arguments)
                .unwrap_or_default();
            // `url.toString()`.
            if function.kind() == "member_expression"
                && arguments.is_empty()
                && function
                    .child_field("property")
                    .is_some_and(|property| syntax::text(property, source) == "toString")
            {
                return function
                    .child_field("object")
                    .is_some_and(|object| on_origin(object, source, depth));
            }
            let returned = helper_returns(function, source);
            !returned.is_empty()
                && returned
                    .into_iter()
                    .all(|value| on_origin(value, source, depth))
        }
        "identifier" => {
            constant_value(node, source).is_some_and(|value| on_origin(value, source, depth))
        }
        _ => false,
    }
}

/// Whether `node` is a string or template that starts as an absolute URL does.
fn is_absolute_literal(node: Node<'_>, source: &str) -> bool {
    if !matches!(node.kind(), "string" | "template_string") {
        return false;
    }
    let body = syntax::text(node, source).get(1..).unwrap_or_default();
    body.starts_with("http:") || body.starts_with("https:") || body.starts_with("//")
}

/// The value of the variable `identifier` names where it is used: a `const`, or a `let` or `var`
/// that nothing assigns again, of the nearest block or the file that declares it.
fn constant_value<'tree>(identifier: Node<'tree>, source: &str) -> Option<Node<'tree>> {
    let name = syntax::text(identifier, source);
    let mut ancestor = identifier.parent();
    while let Some(scope) = ancestor {
        if matches!(scope.kind(), "statement_block" | "program") {
            if let Some((declaration, value)) = declared_in(scope, name, source) {
                let constant = declaration.kind() == "lexical_declaration"
                    && syntax::text(declaration, source).starts_with("const");
                return (constant || !assigns(scope, name, source)).then_some(value);
            }
        }
        ancestor = scope.parent();
    }
    None
}

/// The declaration of `name` among the statements of `scope`, and its value.
fn declared_in<'tree>(
    scope: Node<'tree>,
    name: &str,
    source: &str,
) -> Option<(Node<'tree>, Node<'tree>)> {
    named_children(scope).into_iter().find_map(|statement| {
        let statement = match statement.kind() {
            "export_statement" => statement.child_field("declaration")?,
            _ => statement,
        };
        if !matches!(
            statement.kind(),
            "lexical_declaration" | "variable_declaration"
        ) {
            return None;
        }
        declared_value(statement, name, source).map(|value| (statement, value))
    })
}

/// Whether some code in `scope` assigns `name` (`name = …`, `name += …`).
fn assigns(scope: Node<'_>, name: &str, source: &str) -> bool {
    let mut stack = vec![scope];
    while let Some(node) = stack.pop() {
        if matches!(
            node.kind(),
            "assignment_expression" | "augmented_assignment_expression"
        ) && node
            .child_field("left")
            .is_some_and(|left| syntax::text(left, source) == name)
        {
            return true;
        }
        stack.extend(named_children(node));
    }
    false
}

/// The values a helper of the file returns, when `function` (a call's callee) names one: a
/// function of the file's top level (`urlFor`), or a method of the object or class whose code
/// calls it (`this.url_for`). Empty when it names none, or one that may return something else.
fn helper_returns<'tree>(function: Node<'tree>, source: &str) -> Vec<Node<'tree>> {
    let helper = match function.kind() {
        "identifier" => {
            let name = syntax::text(function, source);
            // A name declared twice may stand for either.
            let [helper] = top_level_functions(function, name, source)[..] else {
                return Vec::new();
            };
            Some(helper)
        }
        "member_expression"
            if function
                .child_field("object")
                .is_some_and(|object| object.kind() == "this") =>
        {
            let Some(name) = function
                .child_field("property")
                .map(|property| syntax::text(property, source))
            else {
                return Vec::new();
            };
            std::iter::successors(function.parent(), |node| node.parent())
                .find(|node| matches!(node.kind(), "object" | "class_body"))
                .and_then(|owner| member_function(owner, name, source))
        }
        _ => None,
    };
    helper.map_or_else(Vec::new, returned_values)
}

/// The method `name` of an object literal (`{ url_for(url) { … } }`, `{ url_for: (url) => … }`)
/// or a class body, when it declares exactly one.
fn member_function<'tree>(owner: Node<'tree>, name: &str, source: &str) -> Option<Node<'tree>> {
    let mut found = named_children(owner)
        .into_iter()
        .filter_map(|member| match member.kind() {
            "method_definition" => member
                .child_field("name")
                .is_some_and(|declared| syntax::text(declared, source) == name)
                .then_some(member),
            "pair" => {
                let key = member.child_field("key")?;
                let value = member.child_field("value")?;
                (property_name(key, source) == name
                    && matches!(
                        value.kind(),
                        "arrow_function" | "function_expression" | "function"
                    ))
                .then_some(value)
            }
            _ => None,
        });
    let function = found.next()?;
    found.next().is_none().then_some(function)
}

/// What a function returns: an arrow function's expression body, else the values of the
/// `return` statements of its own body (not of the functions it holds). Empty when a `return`
/// gives no value.
fn returned_values(function: Node<'_>) -> Vec<Node<'_>> {
    let Some(body) = function.child_field("body") else {
        return Vec::new();
    };
    if body.kind() != "statement_block" {
        return vec![body];
    }
    let mut values = Vec::new();
    let mut stack = vec![body];
    while let Some(node) = stack.pop() {
        for child in named_children(node) {
            match child.kind() {
                "return_statement" => match inner(child) {
                    Some(value) => values.push(value),
                    None => return Vec::new(),
                },
                "function_declaration"
                | "function_expression"
                | "function"
                | "arrow_function"
                | "class_declaration"
                | "class"
                | "method_definition" => {}
                _ => stack.push(child),
            }
        }
    }
    values
}
