//! The [`CallsAndAssignmentsGrammar`] of Python.

use tree_sitter::Node;

use crate::facts::calls_and_assignments::{
    last_statement, unwrap_parentheses, Arm, Branch, CallsAndAssignmentsGrammar, Condition,
};
use crate::syntax::ChildField;
use crate::syntax::{self, named_children};

/// Python syntax.
pub(crate) struct Python;

impl CallsAndAssignmentsGrammar for Python {
    fn member<'tree>(&self, node: Node<'tree>) -> Option<(Node<'tree>, Node<'tree>)> {
        (node.kind() == "attribute").then_some(())?;
        Some((node.child_field("object")?, node.child_field("attribute")?))
    }

    /// Decorators (`@app.get("/x")`) are not calls.
    fn is_callee(&self, callee: Node<'_>) -> bool {
        callee
            .parent()
            .and_then(|call| call.parent())
            .is_none_or(|parent| parent.kind() != "decorator")
    }

    /// Keyword arguments are read as their values; a lone generator is one argument.
    fn arguments<'tree>(&self, list: Node<'tree>) -> Vec<Node<'tree>> {
        if list.kind() != "argument_list" {
            return vec![list];
        }
        named_children(list)
            .into_iter()
            .filter(|argument| argument.kind() != "comment")
            .filter_map(|argument| match argument.kind() {
                "keyword_argument" => argument.child_field("value"),
                _ => Some(argument),
            })
            .collect()
    }

    fn condition<'tree>(&self, node: Node<'tree>, source: &str) -> Condition<'tree> {
        let node = unwrap_parentheses(node);
        match node.kind() {
            "boolean_operator" => match (
                node.child_field("left"),
                node.child_field("operator"),
                node.child_field("right"),
            ) {
                (Some(left), Some(operator), Some(right))
                    if syntax::text(operator, source) == "and" =>
                {
                    Condition::And(left, right)
                }
                _ => Condition::Other,
            },
            "not_operator" => node
                .child_field("argument")
                .map_or(Condition::Other, Condition::Not),
            "comparison_operator" => {
                let operands = named_children(node);
                let [left, right] = operands.as_slice() else {
                    return Condition::Other;
                };
                let mut cursor = node.walk();
                let operator: Vec<&str> = node
                    .children_by_field_name("operators", &mut cursor)
                    .map(|token| syntax::text(token, source))
                    .collect();
                let is_negated = match operator.join(" ").as_str() {
                    "==" | "is" => false,
                    "!=" | "is not" => true,
                    _ => return Condition::Other,
                };
                Condition::Equal {
                    left: *left,
                    right: *right,
                    is_negated,
                }
            }
            _ => Condition::Other,
        }
    }

    fn branch<'tree>(&self, node: Node<'tree>) -> Option<Branch<'tree>> {
        matches!(node.kind(), "if_statement" | "elif_clause").then_some(())?;
        Some(Branch {
            condition: node.child_field("condition")?,
            consequence: node.child_field("consequence")?,
        })
    }

    fn arm<'tree>(&self, node: Node<'tree>) -> Option<Arm<'tree>> {
        (node.kind() == "case_clause").then_some(())?;
        let statement = node
            .parent()
            .and_then(|body| body.parent())
            .filter(|statement| statement.kind() == "match_statement")?;
        let mut cursor = statement.walk();
        let subjects: Vec<Node<'_>> = statement
            .children_by_field_name("subject", &mut cursor)
            .collect();
        let labels = named_children(node)
            .into_iter()
            .filter(|child| child.kind() == "case_pattern")
            .flat_map(named_children)
            .collect();
        Some(Arm {
            subject: match subjects.as_slice() {
                [subject] => Some(*subject),
                _ => None,
            },
            labels,
            is_fallthrough_target: false,
        })
        .filter(|arm| arm.subject.is_some())
    }

    fn is_branching(&self, node: Node<'_>) -> bool {
        match node.kind() {
            "if_statement"
            | "elif_clause"
            | "else_clause"
            | "match_statement"
            | "conditional_expression" => true,
            // The body of a `match` lists alternatives, not a sequence.
            "block" => node
                .parent()
                .is_some_and(|parent| parent.kind() == "match_statement"),
            _ => false,
        }
    }

    fn is_exit(&self, node: Node<'_>) -> bool {
        match node.kind() {
            "return_statement" | "raise_statement" => true,
            "block" => last_statement(node).is_some_and(|last| self.is_exit(last)),
            _ => false,
        }
    }

    fn is_function(&self, node: Node<'_>) -> bool {
        matches!(
            node.kind(),
            "function_definition" | "lambda" | "class_definition"
        )
    }

    /// Case patterns write members as dotted names (`case OrderStatus.PAID:`).
    fn enum_member(&self, node: Node<'_>, source: &str) -> Option<(String, String)> {
        if node.kind() == "dotted_name" {
            let names = named_children(node);
            let (last, rest) = names.split_last()?;
            let chain: Vec<&str> = rest
                .iter()
                .map(|name| syntax::text(*name, source))
                .collect();
            return crate::facts::calls_and_assignments::enum_parts(
                &chain.join("."),
                syntax::text(*last, source),
            );
        }
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

    /// A bare name in a case pattern is a capture, not a member.
    fn bare_member(&self, _node: Node<'_>, _source: &str) -> Option<String> {
        None
    }
}
