//! The [`CallsAndAssignmentsGrammar`] of Java.

use tree_sitter::Node;

use crate::facts::calls_and_assignments::{
    binary_condition, last_statement, not_condition, unwrap_parentheses, Arm, Branch,
    CallsAndAssignmentsGrammar, Condition,
};
use crate::syntax::ChildField;
use crate::syntax::{self, named_children};

/// Java syntax.
pub(crate) struct Java;

/// `(object, property)` of `o.setStatus(…)`-style calls whose method starts with one of
/// `prefixes` followed by an upper-case letter (`status` from `setStatus`).
fn bean_call<'tree>(
    call: Node<'tree>,
    source: &str,
    prefixes: &[&str],
) -> Option<(Node<'tree>, String)> {
    if call.kind() != "method_invocation" {
        return None;
    }
    let object = call.child_field("object")?;
    let name = syntax::text(call.child_field("name")?, source);
    let rest = prefixes
        .iter()
        .find_map(|prefix| name.strip_prefix(prefix))
        .filter(|rest| rest.chars().next().is_some_and(char::is_uppercase))?;
    let mut characters = rest.chars();
    let first = characters.next()?;
    let property: String = first.to_lowercase().chain(characters).collect();
    Some((object, property))
}

impl CallsAndAssignmentsGrammar for Java {
    fn member<'tree>(&self, node: Node<'tree>) -> Option<(Node<'tree>, Node<'tree>)> {
        (node.kind() == "field_access").then_some(())?;
        Some((node.child_field("object")?, node.child_field("field")?))
    }

    fn setter<'tree>(
        &self,
        call: Node<'tree>,
        source: &str,
    ) -> Option<(Node<'tree>, String, Node<'tree>)> {
        let (object, name) = bean_call(call, source, &["set"])?;
        let arguments = self.arguments(call.child_field("arguments")?);
        let [value] = arguments.as_slice() else {
            return None;
        };
        Some((object, name, *value))
    }

    fn getter<'tree>(&self, node: Node<'tree>, source: &str) -> Option<(Node<'tree>, String)> {
        let node = unwrap_parentheses(node);
        let (object, name) = bean_call(node, source, &["get", "is"])?;
        self.arguments(node.child_field("arguments")?)
            .is_empty()
            .then_some((object, name))
    }

    fn arguments<'tree>(&self, list: Node<'tree>) -> Vec<Node<'tree>> {
        named_children(list)
            .into_iter()
            .filter(|argument| !argument.kind().contains("comment"))
            .collect()
    }

    fn condition<'tree>(&self, node: Node<'tree>, source: &str) -> Condition<'tree> {
        let node = unwrap_parentheses(node);
        match node.kind() {
            "binary_expression" => binary_condition(node, source, &["=="], &["!="]),
            "unary_expression" => not_condition(node, source, "operand"),
            _ => Condition::Other,
        }
    }

    fn branch<'tree>(&self, node: Node<'tree>) -> Option<Branch<'tree>> {
        (node.kind() == "if_statement").then_some(())?;
        Some(Branch {
            condition: node.child_field("condition")?,
            consequence: node.child_field("consequence")?,
        })
    }

    fn arm<'tree>(&self, node: Node<'tree>) -> Option<Arm<'tree>> {
        if node.kind() != "switch_block_statement_group" && node.kind() != "switch_rule" {
            return None;
        }
        let subject = node
            .parent()
            .and_then(|body| body.parent())
            .and_then(|switch| switch.child_field("condition"))
            .map(unwrap_parentheses)?;
        let labels = named_children(node)
            .into_iter()
            .filter(|child| child.kind() == "switch_label")
            .flat_map(named_children)
            .collect();
        // `case A: case B: …` may parse as a group without statements before this one.
        let is_fallthrough_target = node.prev_named_sibling().is_some_and(|previous| {
            previous.kind() == "switch_block_statement_group"
                && named_children(previous)
                    .into_iter()
                    .all(|child| child.kind() == "switch_label" || child.kind().contains("comment"))
        });
        Some(Arm {
            subject: Some(subject),
            labels,
            is_fallthrough_target,
        })
    }

    fn is_branching(&self, node: Node<'_>) -> bool {
        matches!(
            node.kind(),
            "if_statement"
                | "switch_expression"
                | "switch_statement"
                | "switch_block"
                | "ternary_expression"
        )
    }

    fn is_exit(&self, node: Node<'_>) -> bool {
        match node.kind() {
            "return_statement" | "throw_statement" => true,
            "block" => last_statement(node).is_some_and(|last| self.is_exit(last)),
            _ => false,
        }
    }

    fn is_function(&self, node: Node<'_>) -> bool {
        matches!(
            node.kind(),
            "method_declaration"
                | "constructor_declaration"
                | "lambda_expression"
                | "class_body"
                | "compact_constructor_declaration"
        )
    }
}
