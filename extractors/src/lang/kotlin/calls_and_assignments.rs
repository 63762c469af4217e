//! The [`CallsAndAssignmentsGrammar`] of Kotlin.

use tree_sitter::Node;

use crate::facts::calls_and_assignments::{
    last_statement, unwrap_parentheses, Arm, Branch, CallsAndAssignmentsGrammar, Condition,
};
use crate::syntax::ChildField;
use crate::syntax::{self, has_token, named_children};

/// Kotlin syntax.
pub(crate) struct Kotlin;

impl CallsAndAssignmentsGrammar for Kotlin {
    fn member<'tree>(&self, node: Node<'tree>) -> Option<(Node<'tree>, Node<'tree>)> {
        (node.kind() == "navigation_expression").then_some(())?;
        let children = named_children(node);
        let (object, property) = (children.first()?, children.last()?);
        (children.len() == 2 && property.kind() == "identifier").then_some((*object, *property))
    }

    fn arguments<'tree>(&self, list: Node<'tree>) -> Vec<Node<'tree>> {
        match list.kind() {
            "value_arguments" => named_children(list)
                .into_iter()
                .filter(|argument| argument.kind() == "value_argument")
                .filter_map(|argument| named_children(argument).into_iter().last())
                .collect(),
            _ => vec![list],
        }
    }

    fn condition<'tree>(&self, node: Node<'tree>, source: &str) -> Condition<'tree> {
        let node = unwrap_parentheses(node);
        match node.kind() {
            "binary_expression" | "conjunction_expression" | "equality_expression" => {
                let (Some(left), Some(operator), Some(right)) = (
                    node.child_field("left"),
                    node.child_field("operator"),
                    node.child_field("right"),
                ) else {
                    return Condition::Other;
                };
                match syntax::text(operator, source) {
                    "&&" => Condition::And(left, right),
                    "==" | "===" => Condition::Equal {
                        left,
                        right,
                        is_negated: false,
                    },
                    "!=" | "!==" => Condition::Equal {
                        left,
                        right,
                        is_negated: true,
                    },
                    _ => Condition::Other,
                }
            }
            "unary_expression" | "prefix_expression" => {
                match (node.child_field("operator"), node.child_field("argument")) {
                    (Some(operator), Some(argument)) if syntax::text(operator, source) == "!" => {
                        Condition::Not(argument)
                    }
                    _ => Condition::Other,
                }
            }
            "is_expression" => match (node.child_field("left"), node.child_field("right")) {
                (Some(subject), Some(pattern)) => Condition::Is {
                    subject,
                    pattern,
                    is_negated: has_token(node, "!is"),
                },
                _ => Condition::Other,
            },
            _ => Condition::Other,
        }
    }

    fn branch<'tree>(&self, node: Node<'tree>) -> Option<Branch<'tree>> {
        (node.kind() == "if_expression").then_some(())?;
        let condition = node.child_field("condition")?;
        let consequence = named_children(node)
            .into_iter()
            .filter(|child| !child.kind().contains("comment"))
            .find(|child| child.id() != condition.id())?;
        Some(Branch {
            condition,
            consequence,
        })
    }

    fn arm<'tree>(&self, node: Node<'tree>) -> Option<Arm<'tree>> {
        (node.kind() == "when_entry").then_some(())?;
        let when = node.parent()?;
        let subject = named_children(when)
            .into_iter()
            .find(|child| child.kind() == "when_subject")
            .and_then(|subject| named_children(subject).into_iter().last());
        let mut cursor = node.walk();
        let labels = node
            .children_by_field_name("condition", &mut cursor)
            .collect();
        Some(Arm {
            subject,
            labels,
            is_fallthrough_target: false,
        })
    }

    fn bare_member(&self, node: Node<'_>, source: &str) -> Option<String> {
        (node.kind() == "identifier").then(|| syntax::text(node, source).to_owned())
    }

    fn enum_member(&self, node: Node<'_>, source: &str) -> Option<(String, String)> {
        // `is OrderState.Draft` names a sealed subtype as a user type.
        let node = if node.kind() == "user_type" {
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
        } else {
            node
        };
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

    fn is_branching(&self, node: Node<'_>) -> bool {
        matches!(node.kind(), "if_expression" | "when_expression")
    }

    fn is_exit(&self, node: Node<'_>) -> bool {
        match node.kind() {
            "return_expression" | "throw_expression" => true,
            "jump_expression" => {
                has_token(node, "return") || has_token(node, "throw") || has_token(node, "return@")
            }
            "block" | "control_structure_body" => {
                last_statement(node).is_some_and(|last| self.is_exit(last))
            }
            _ => false,
        }
    }

    fn is_function(&self, node: Node<'_>) -> bool {
        matches!(
            node.kind(),
            "function_declaration"
                | "lambda_literal"
                | "anonymous_function"
                | "class_body"
                | "getter"
                | "setter"
                | "secondary_constructor"
        )
    }
}
