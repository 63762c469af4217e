//! The [`CallsAndAssignmentsGrammar`] of Swift.
//!
//! `guard o.p == E.K else { return }` is the early exit `if o.p != E.K { return }`. The grammar
//! reads `o.p == .k && x` as `o.p == (.k && x)`; the member of such a misread conjunction is
//! its left operand, for equalities only (never for `!=`).

use std::collections::BTreeMap;

use tree_sitter::Node;

use crate::facts::calls_and_assignments::{
    last_statement, unwrap_parentheses, Arm, Branch, CallsAndAssignmentsGrammar, Condition,
};
use crate::syntax::ChildField;
use crate::syntax::{self, named_children};

/// Swift syntax, with the declared types of the file's properties.
pub(crate) struct Swift<'a> {
    /// Property name → declared type (`var status: OrderStatus`), for `.paid` shorthands.
    property_types: BTreeMap<String, String>,
    /// The file's text.
    source: &'a str,
}

impl<'a> Swift<'a> {
    /// The adapter for a file: reads the simple declared types of its properties; a name
    /// declared with two different types has none.
    pub(crate) fn new(root: Node<'_>, source: &'a str) -> Self {
        let mut property_types: BTreeMap<String, Option<String>> = BTreeMap::new();
        let mut cursor = root.walk();
        loop {
            let node = cursor.node();
            if node.kind() == "property_declaration" {
                let name = node
                    .child_field("name")
                    .and_then(|pattern| pattern.child_field("bound_identifier"));
                let declared = named_children(node)
                    .into_iter()
                    .find(|child| child.kind() == "type_annotation")
                    .and_then(|annotation| named_children(annotation).into_iter().next())
                    .filter(|type_node| type_node.kind() == "user_type")
                    .map(|type_node| syntax::text(type_node, source).to_owned());
                if let (Some(name), Some(declared)) = (name, declared) {
                    let entry = property_types
                        .entry(syntax::text(name, source).to_owned())
                        .or_insert_with(|| Some(declared.clone()));
                    if entry.as_deref() != Some(declared.as_str()) {
                        *entry = None;
                    }
                }
            }
            if cursor.goto_first_child() {
                continue;
            }
            let mut done = false;
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    done = true;
                    break;
                }
            }
            if done {
                break;
            }
        }
        Swift {
            property_types: property_types
                .into_iter()
                .filter_map(|(name, declared)| Some((name, declared?)))
                .collect(),
            source,
        }
    }

    fn equality<'tree>(&self, node: Node<'tree>) -> Option<(Node<'tree>, &str, Node<'tree>)> {
        let left = node.child_field("lhs")?;
        let right = node.child_field("rhs")?;
        let operator = syntax::text(node.child_field("op")?, self.source);
        Some((left, operator, right))
    }
}

impl CallsAndAssignmentsGrammar for Swift<'_> {
    /// The grammar reads `try await Todo.query(on: db).all()` with `try await` inside the
    /// target of `.all`; the receiver is the expression they mark.
    fn member<'tree>(&self, node: Node<'tree>) -> Option<(Node<'tree>, Node<'tree>)> {
        (node.kind() == "navigation_expression").then_some(())?;
        let name = node.child_field("suffix")?.child_field("suffix")?;
        let mut target = node.child_field("target")?;
        while matches!(target.kind(), "try_expression" | "await_expression") {
            target = target.child_field("expr")?;
        }
        Some((target, name))
    }

    /// Labelled arguments are read as their values; a trailing closure is an argument.
    fn arguments<'tree>(&self, list: Node<'tree>) -> Vec<Node<'tree>> {
        let mut arguments = Vec::new();
        for child in named_children(list) {
            match child.kind() {
                "value_arguments" => arguments.extend(
                    named_children(child)
                        .into_iter()
                        .filter_map(|argument| argument.child_field("value")),
                ),
                "lambda_literal" => arguments.push(child),
                _ => {}
            }
        }
        arguments
    }

    fn condition<'tree>(&self, node: Node<'tree>, source: &str) -> Condition<'tree> {
        let node = unwrap_parentheses(node);
        match node.kind() {
            // `guard c else { … }` leaves unless `c`.
            "guard_statement" => node
                .child_field("condition")
                .map_or(Condition::Other, Condition::Not),
            "conjunction_expression" => match (node.child_field("lhs"), node.child_field("rhs")) {
                (Some(left), Some(right)) => Condition::And(left, right),
                _ => Condition::Other,
            },
            "equality_expression" | "infix_expression" => {
                let Some((left, operator, right)) = self.equality(node) else {
                    return Condition::Other;
                };
                let is_negated = match operator {
                    "==" | "===" => false,
                    "!=" | "!==" if right.kind() != "conjunction_expression" => true,
                    _ => return Condition::Other,
                };
                Condition::Equal {
                    left,
                    right,
                    is_negated,
                }
            }
            "prefix_expression" => match node.child_field("operation") {
                Some(operation) if syntax::text(operation, source) == "!" => node
                    .child_field("target")
                    .map_or(Condition::Other, Condition::Not),
                _ => Condition::Other,
            },
            // `!(…)` reads as a call of `!`.
            "call_expression" => {
                let children = named_children(node);
                match children.as_slice() {
                    [bang, suffix] if bang.kind() == "bang" => self
                        .arguments(*suffix)
                        .first()
                        .map_or(Condition::Other, |inner| Condition::Not(*inner)),
                    _ => Condition::Other,
                }
            }
            _ => Condition::Other,
        }
    }

    fn branch<'tree>(&self, node: Node<'tree>) -> Option<Branch<'tree>> {
        let children = named_children(node);
        match node.kind() {
            "if_statement" => Some(Branch {
                condition: node.child_field("condition")?,
                consequence: *children.iter().find(|child| child.kind() == "statements")?,
            }),
            "guard_statement" => Some(Branch {
                condition: node,
                consequence: *children.iter().find(|child| child.kind() == "statements")?,
            }),
            _ => None,
        }
    }

    fn arm<'tree>(&self, node: Node<'tree>) -> Option<Arm<'tree>> {
        (node.kind() == "switch_entry").then_some(())?;
        let subject = node.parent()?.child_field("expr")?;
        let labels = named_children(node)
            .into_iter()
            .filter(|child| child.kind() == "switch_pattern")
            .flat_map(named_children)
            .collect();
        Some(Arm {
            subject: Some(unwrap_parentheses(subject)),
            labels,
            is_fallthrough_target: false,
        })
    }

    fn is_branching(&self, node: Node<'_>) -> bool {
        matches!(
            node.kind(),
            "if_statement" | "guard_statement" | "switch_statement" | "ternary_expression"
        )
    }

    fn is_exit(&self, node: Node<'_>) -> bool {
        match node.kind() {
            "control_transfer_statement" => {
                let text = syntax::text(node, self.source);
                text.starts_with("return") || text.starts_with("throw")
            }
            "call_expression" => named_children(node)
                .first()
                .is_some_and(|callee| syntax::text(*callee, self.source) == "fatalError"),
            "statements" => last_statement(node).is_some_and(|last| self.is_exit(last)),
            _ => false,
        }
    }

    fn is_function(&self, node: Node<'_>) -> bool {
        matches!(
            node.kind(),
            "function_declaration"
                | "init_declaration"
                | "lambda_literal"
                | "computed_property"
                | "class_body"
        )
    }

    fn bare_member(&self, _node: Node<'_>, _source: &str) -> Option<String> {
        None
    }

    /// `.paid` (an expression, or a case pattern).
    fn shorthand_member(&self, node: Node<'_>, source: &str) -> Option<String> {
        match node.kind() {
            "prefix_expression" => {
                let operation = node.child_field("operation")?;
                let target = node.child_field("target")?;
                (syntax::text(operation, source) == "." && target.kind() == "simple_identifier")
                    .then(|| syntax::text(target, source).to_owned())
            }
            "pattern" => {
                let children = named_children(node);
                let [name] = children.as_slice() else {
                    return None;
                };
                (name.kind() == "simple_identifier"
                    && syntax::text(node, source).trim_start().starts_with('.'))
                .then(|| syntax::text(*name, source).to_owned())
            }
            // `o.p == (.k && x)` as misread by the grammar.
            "conjunction_expression" => self.shorthand_member(node.child_field("lhs")?, source),
            _ => None,
        }
    }

    fn shorthand_enum(&self, property: &str) -> Option<String> {
        self.property_types.get(property).cloned()
    }

    fn enum_member(&self, node: Node<'_>, source: &str) -> Option<(String, String)> {
        match node.kind() {
            "conjunction_expression" => self.enum_member(node.child_field("lhs")?, source),
            // `case OrderStatus.paid:`
            "pattern" => {
                let text: String = syntax::text(node, source)
                    .chars()
                    .filter(|character| !character.is_whitespace())
                    .collect();
                let (chain, member) = text.rsplit_once('.')?;
                crate::facts::calls_and_assignments::enum_parts(chain, member)
            }
            _ => {
                let (object, property) = self.member(node)?;
                crate::facts::calls_and_assignments::enum_parts(
                    &syntax::compact_text(
                        object,
                        source,
                        crate::facts::calls_and_assignments::TEXT_LIMIT,
                    ),
                    syntax::text(property, source),
                )
            }
        }
    }
}
