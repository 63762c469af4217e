//! The [`CallsAndAssignmentsGrammar`] of TypeScript, TSX and JavaScript.

use tree_sitter::Node;

use crate::facts::calls_and_assignments::{
    binary_condition, last_statement, not_condition, unwrap_parentheses, Arm, Branch,
    CallsAndAssignmentsGrammar, Condition,
};
use crate::syntax::named_children;
use crate::syntax::ChildField;

/// TypeScript and JavaScript syntax.
pub(crate) struct EcmaScript;

impl CallsAndAssignmentsGrammar for EcmaScript {
    fn member<'tree>(&self, node: Node<'tree>) -> Option<(Node<'tree>, Node<'tree>)> {
        let node = unwrap_non_null(node);
        (node.kind() == "member_expression").then_some(())?;
        Some((node.child_field("object")?, node.child_field("property")?))
    }

    fn is_callee(&self, callee: Node<'_>) -> bool {
        // A dynamic `import()` is an import, and a decorator (`@Get(':id')`) is metadata.
        let is_decorator = callee
            .parent()
            .and_then(|call| call.parent())
            .is_some_and(|parent| parent.kind() == "decorator");
        callee.kind() != "import" && !is_decorator
    }

    fn arguments<'tree>(&self, list: Node<'tree>) -> Vec<Node<'tree>> {
        if list.kind() != "arguments" {
            // A tagged template: the template is the one argument.
            return vec![list];
        }
        named_children(list)
            .into_iter()
            .filter(|argument| argument.kind() != "comment")
            .collect()
    }

    fn condition<'tree>(&self, node: Node<'tree>, source: &str) -> Condition<'tree> {
        let node = unwrap_parentheses(node);
        match node.kind() {
            "binary_expression" => binary_condition(node, source, &["==", "==="], &["!=", "!=="]),
            "unary_expression" => not_condition(node, source, "argument"),
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
        if node.kind() != "switch_case" && node.kind() != "switch_default" {
            return None;
        }
        let subject = node
            .parent()
            .and_then(|body| body.parent())
            .and_then(|switch| switch.child_field("value"))
            .map(unwrap_parentheses)?;
        let previous = node.prev_named_sibling();
        let is_fallthrough_target = previous.is_some_and(|previous| {
            matches!(previous.kind(), "switch_case" | "switch_default")
                && previous.child_field("body").is_none()
        });
        Some(Arm {
            subject: Some(subject),
            labels: node.child_field("value").into_iter().collect(),
            is_fallthrough_target,
        })
    }

    fn is_branching(&self, node: Node<'_>) -> bool {
        matches!(
            node.kind(),
            "if_statement"
                | "else_clause"
                | "switch_statement"
                | "switch_body"
                | "ternary_expression"
        )
    }

    fn is_exit(&self, node: Node<'_>) -> bool {
        match node.kind() {
            "return_statement" | "throw_statement" => true,
            "statement_block" => last_statement(node).is_some_and(|last| self.is_exit(last)),
            _ => false,
        }
    }

    fn is_function(&self, node: Node<'_>) -> bool {
        matches!(
            node.kind(),
            "function_declaration"
                | "function_expression"
                | "arrow_function"
                | "method_definition"
                | "generator_function"
                | "generator_function_declaration"
                | "class_body"
        )
    }
}

/// A non-null assertion around a member (`o.status!`) is seen through.
fn unwrap_non_null(node: Node<'_>) -> Node<'_> {
    if node.kind() == "non_null_expression" {
        named_children(node).into_iter().next().unwrap_or(node)
    } else {
        node
    }
}
