//! The [`CallsAndAssignmentsGrammar`] of Go.

use std::collections::BTreeMap;

use tree_sitter::Node;

use crate::facts::calls_and_assignments::{
    binary_condition, last_statement, not_condition, unwrap_parentheses, Arm, Branch,
    CallsAndAssignmentsGrammar, Condition,
};
use crate::syntax::ChildField;
use crate::syntax::{self, named_children};

/// Go syntax, with the typed constants of the file (Go's enums).
pub(crate) struct Go<'a> {
    /// Constant name → its declared type, for `const ( Draft Status = iota; Active )`.
    constants: BTreeMap<String, String>,
    /// The file's text, to tell `panic(…)` calls.
    source: &'a str,
}

impl<'a> Go<'a> {
    /// The adapter for a file: reads its top-level typed constants.
    pub(crate) fn new(root: Node<'_>, source: &'a str) -> Self {
        let mut constants = BTreeMap::new();
        for declaration in named_children(root)
            .into_iter()
            .filter(|child| child.kind() == "const_declaration")
        {
            // In a group, a spec without type and value repeats the previous one's.
            let mut current: Option<String> = None;
            for spec in named_children(declaration)
                .into_iter()
                .filter(|spec| spec.kind() == "const_spec")
            {
                match (spec.child_field("type"), spec.child_field("value")) {
                    (Some(type_node), _) => {
                        current = Some(syntax::text(type_node, source).to_owned());
                    }
                    (None, Some(_)) => current = None,
                    (None, None) => {}
                }
                let Some(type_name) = current.clone() else {
                    continue;
                };
                let mut cursor = spec.walk();
                for name in spec.children_by_field_name("name", &mut cursor) {
                    constants
                        .entry(syntax::text(name, source).to_owned())
                        .or_insert_with(|| type_name.clone());
                }
            }
        }
        Go { constants, source }
    }
}

impl CallsAndAssignmentsGrammar for Go<'_> {
    fn member<'tree>(&self, node: Node<'tree>) -> Option<(Node<'tree>, Node<'tree>)> {
        (node.kind() == "selector_expression").then_some(())?;
        Some((node.child_field("operand")?, node.child_field("field")?))
    }

    fn arguments<'tree>(&self, list: Node<'tree>) -> Vec<Node<'tree>> {
        named_children(list)
            .into_iter()
            .filter(|argument| argument.kind() != "comment")
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
        if node.kind() != "expression_case" && node.kind() != "default_case" {
            return None;
        }
        let switch = node
            .parent()
            .filter(|switch| switch.kind() == "expression_switch_statement")?;
        let labels = node
            .child_field("value")
            .map(named_children)
            .unwrap_or_default();
        // A previous case ending in `fallthrough` runs into this one.
        let is_fallthrough_target = node.prev_named_sibling().is_some_and(|previous| {
            named_children(previous)
                .into_iter()
                .rfind(|child| child.kind() == "statement_list")
                .and_then(last_statement)
                .is_some_and(|last| last.kind() == "fallthrough_statement")
        });
        Some(Arm {
            subject: Some(unwrap_parentheses(switch.child_field("value")?)),
            labels,
            is_fallthrough_target,
        })
    }

    fn is_branching(&self, node: Node<'_>) -> bool {
        matches!(
            node.kind(),
            "if_statement"
                | "expression_switch_statement"
                | "type_switch_statement"
                | "select_statement"
        )
    }

    fn is_exit(&self, node: Node<'_>) -> bool {
        match node.kind() {
            "return_statement" => true,
            // `panic(…)` leaves the function like a throw.
            "expression_statement" => named_children(node).first().is_some_and(|call| {
                call.kind() == "call_expression"
                    && call
                        .child_field("function")
                        .is_some_and(|function| syntax::text(function, self.source) == "panic")
            }),
            "block" | "statement_list" => {
                last_statement(node).is_some_and(|last| self.is_exit(last))
            }
            _ => false,
        }
    }

    fn is_function(&self, node: Node<'_>) -> bool {
        matches!(
            node.kind(),
            "function_declaration" | "method_declaration" | "func_literal"
        )
    }

    /// A typed constant of the file is a member of its type; `pkg.Name` reads as `E.M` only when
    /// the chain ends in an upper-case name that is not a package.
    fn enum_member(&self, node: Node<'_>, source: &str) -> Option<(String, String)> {
        if node.kind() == "identifier" {
            let name = syntax::text(node, source);
            return self
                .constants
                .get(name)
                .map(|type_name| (type_name.clone(), name.to_owned()));
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
}
