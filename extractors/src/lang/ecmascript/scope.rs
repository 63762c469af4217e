//! The enclosing scope of a construct as a dotted path (`OrdersController.remove`, `submit`,
//! `handlers.submit`), for `evidence.scope`.
//!
//! Named functions, methods and classes contribute their names; an anonymous function takes the
//! name it is bound to (a variable, an object key, an assigned member such as `exports.handler`,
//! a class field); a callback passed as an argument contributes nothing. An object literal bound
//! to a variable prefixes the methods inside it.

use tree_sitter::Node;

use super::literals::property_name;
use crate::syntax;
use crate::syntax::ChildField;

/// The dotted path of the functions, methods and classes around `node`, outermost first;
/// `root` is the root of its tree. Walks down from the root: the file's walk records the scope
/// frames of the nodes facts are made for (`walk::ScopeFrames`), this is for any other node.
pub(super) fn enclosing_scope(node: Node<'_>, root: Node<'_>, source: &str) -> Option<String> {
    let chain = syntax::ancestors(root, node);
    let inner_first = (0..chain.len()).rev().filter_map(|index| {
        let ancestor = chain.get(index).copied()?;
        let parent = index
            .checked_sub(1)
            .and_then(|above| chain.get(above))
            .copied();
        Some((ancestor, parent))
    });
    scope_of_ancestors(inner_first, source)
}

/// The dotted path named by `ancestors`, each with its own parent, innermost first. Ancestors
/// other than functions, methods, classes and object literals contribute nothing, so they may
/// be left out.
pub(super) fn scope_of_ancestors<'tree>(
    ancestors: impl Iterator<Item = (Node<'tree>, Option<Node<'tree>>)>,
    source: &str,
) -> Option<String> {
    let mut names: Vec<String> = Vec::new();
    for (ancestor, parent) in ancestors {
        let binding_name = |expression: Node<'_>| binding_name(expression, parent?, source);
        match ancestor.kind() {
            "method_definition" | "function_declaration" | "generator_function_declaration" => {
                if let Some(name) = ancestor.child_field("name") {
                    names.push(property_name(name, source));
                }
            }
            "function_expression" | "arrow_function" | "generator_function" => {
                let own_name = ancestor
                    .child_field("name")
                    .map(|name| syntax::text(name, source).to_owned());
                if let Some(name) = own_name.or_else(|| binding_name(ancestor)) {
                    names.push(name);
                }
            }
            "class_declaration" | "class" | "abstract_class_declaration" => {
                let own_name = ancestor
                    .child_field("name")
                    .map(|name| syntax::text(name, source).to_owned());
                if let Some(name) = own_name.or_else(|| binding_name(ancestor)) {
                    names.push(name);
                }
            }
            "object" if !names.is_empty() => {
                if let Some(name) = binding_name(ancestor) {
                    names.push(name);
                }
            }
            _ => {}
        }
    }
    names.reverse();
    (!names.is_empty()).then(|| names.join("."))
}

/// The name an expression is bound to by its parent: `const name = …`, `{ name: … }`,
/// `exports.name = …`, `name = …` in a class body.
fn binding_name(expression: Node<'_>, parent: Node<'_>, source: &str) -> Option<String> {
    let name_node = match parent.kind() {
        "variable_declarator" => parent
            .child_field("name")
            .filter(|name| name.kind() == "identifier"),
        "pair" => parent.child_field("key"),
        "assignment_expression" => parent.child_field("left").map(|left| {
            if left.kind() == "member_expression" {
                left.child_field("property").unwrap_or(left)
            } else {
                left
            }
        }),
        "public_field_definition" => parent.child_field("name"),
        "field_definition" => parent.child_field("property"),
        _ => None,
    }?;
    let is_value = [parent.child_field("value"), parent.child_field("right")]
        .into_iter()
        .flatten()
        .any(|value| value.id() == expression.id());
    is_value.then(|| property_name(name_node, source))
}
