//! The [`CallsAndAssignmentsGrammar`] of Rust.
//!
//! `matches!(o.p, E::K)` is a guard like `o.p == E::K`; macro arguments are tokens, not
//! expressions, so only a subject `name.field` and a pattern `E::K` (a path, no `|`) are read.
//! `if let E::K = o.p` reads as `o.p == E::K`. Macro calls (`println!`) are not calls.

use tree_sitter::Node;

use crate::facts::calls_and_assignments::{
    last_statement, unwrap_parentheses, Arm, Branch, CallsAndAssignmentsGrammar, Condition,
};
use crate::syntax::ChildField;
use crate::syntax::{self, named_children};

/// Rust syntax.
pub(crate) struct Rust<'a> {
    /// The file's text, to read macro names and tokens.
    pub source: &'a str,
}

impl Rust<'_> {
    /// The tokens of a `matches!` token tree split at top-level commas, parentheses dropped.
    fn macro_parts<'tree>(&self, tokens: Node<'tree>) -> Vec<Vec<Node<'tree>>> {
        let mut parts = vec![Vec::new()];
        let mut cursor = tokens.walk();
        for token in tokens.children(&mut cursor) {
            match token.kind() {
                "(" | ")" => {}
                "," => parts.push(Vec::new()),
                _ => {
                    if let Some(last) = parts.last_mut() {
                        last.push(token);
                    }
                }
            }
        }
        parts
    }

    /// Whether a macro invocation is `name!(…)`.
    fn is_macro(&self, node: Node<'_>, name: &str) -> bool {
        node.kind() == "macro_invocation"
            && node
                .child_field("macro")
                .is_some_and(|macro_name| syntax::text(macro_name, self.source) == name)
    }
}

impl CallsAndAssignmentsGrammar for Rust<'_> {
    /// `o.p`, and the subject `name.field` of a `matches!` token tree.
    fn member<'tree>(&self, node: Node<'tree>) -> Option<(Node<'tree>, Node<'tree>)> {
        match node.kind() {
            "field_expression" => Some((node.child_field("value")?, node.child_field("field")?)),
            "generic_function" => self.member(node.child_field("function")?),
            "token_tree" => {
                let parts = self.macro_parts(node);
                let [object, dot, field] = parts.first()?.as_slice() else {
                    return None;
                };
                (dot.kind() == "." && object.kind() == "identifier").then_some((*object, *field))
            }
            _ => None,
        }
    }

    fn path<'tree>(&self, node: Node<'tree>) -> Option<(Node<'tree>, Node<'tree>)> {
        match node.kind() {
            "scoped_identifier" => Some((node.child_field("path")?, node.child_field("name")?)),
            "generic_function" => self.path(node.child_field("function")?),
            _ => None,
        }
    }

    fn arguments<'tree>(&self, list: Node<'tree>) -> Vec<Node<'tree>> {
        named_children(list)
            .into_iter()
            .filter(|argument| {
                !argument.kind().contains("comment") && argument.kind() != "attribute_item"
            })
            .collect()
    }

    fn condition<'tree>(&self, node: Node<'tree>, source: &str) -> Condition<'tree> {
        let node = unwrap_parentheses(node);
        match node.kind() {
            "binary_expression" => {
                let (Some(left), Some(operator), Some(right)) = (
                    node.child_field("left"),
                    node.child_field("operator"),
                    node.child_field("right"),
                ) else {
                    return Condition::Other;
                };
                match syntax::text(operator, source) {
                    "&&" => Condition::And(left, right),
                    "==" => Condition::Equal {
                        left,
                        right,
                        is_negated: false,
                    },
                    "!=" => Condition::Equal {
                        left,
                        right,
                        is_negated: true,
                    },
                    _ => Condition::Other,
                }
            }
            "unary_expression" if syntax::text(node, source).starts_with('!') => {
                named_children(node)
                    .into_iter()
                    .next()
                    .map_or(Condition::Other, Condition::Not)
            }
            "let_condition" => match (node.child_field("value"), node.child_field("pattern")) {
                (Some(subject), Some(pattern)) => Condition::Is {
                    subject,
                    pattern,
                    is_negated: false,
                },
                _ => Condition::Other,
            },
            "macro_invocation" if self.is_macro(node, "matches") => {
                match named_children(node)
                    .into_iter()
                    .find(|child| child.kind() == "token_tree")
                {
                    Some(tokens) => Condition::Is {
                        subject: tokens,
                        pattern: tokens,
                        is_negated: false,
                    },
                    None => Condition::Other,
                }
            }
            _ => Condition::Other,
        }
    }

    fn branch<'tree>(&self, node: Node<'tree>) -> Option<Branch<'tree>> {
        // An `if` in statement position sits in an expression statement.
        if node.kind() == "expression_statement" {
            return self.branch(named_children(node).into_iter().next()?);
        }
        (node.kind() == "if_expression").then_some(())?;
        Some(Branch {
            condition: node.child_field("condition")?,
            consequence: node.child_field("consequence")?,
        })
    }

    fn arm<'tree>(&self, node: Node<'tree>) -> Option<Arm<'tree>> {
        (node.kind() == "match_arm").then_some(())?;
        let subject = node
            .parent()
            .and_then(|block| block.parent())
            .and_then(|expression| expression.child_field("value"))?;
        let labels = node
            .child_field("pattern")
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .filter(|label| !label.kind().contains("comment"))
            .take(1)
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
            "if_expression" | "else_clause" | "match_expression" | "match_block"
        )
    }

    fn is_exit(&self, node: Node<'_>) -> bool {
        match node.kind() {
            "return_expression" => true,
            "macro_invocation" => ["panic", "unreachable", "bail", "todo"]
                .iter()
                .any(|name| self.is_macro(node, name)),
            "expression_statement" => named_children(node)
                .first()
                .is_some_and(|inner| self.is_exit(*inner)),
            "block" => last_statement(node).is_some_and(|last| self.is_exit(last)),
            _ => false,
        }
    }

    fn is_function(&self, node: Node<'_>) -> bool {
        matches!(node.kind(), "function_item" | "closure_expression")
    }

    /// A bare name in a pattern binds; it is never a member.
    fn bare_member(&self, _node: Node<'_>, _source: &str) -> Option<String> {
        None
    }

    /// `E::K` (any path ending in an upper-case type), and the pattern `E::K` of a `matches!`.
    fn enum_member(&self, node: Node<'_>, source: &str) -> Option<(String, String)> {
        match node.kind() {
            "scoped_identifier" => crate::facts::calls_and_assignments::enum_parts(
                syntax::text(node.child_field("path")?, source),
                syntax::text(node.child_field("name")?, source),
            ),
            "token_tree" => {
                let parts = self.macro_parts(node);
                let [_, pattern] = parts.as_slice() else {
                    return None;
                };
                let text: String = pattern
                    .iter()
                    .map(|token| syntax::text(*token, source))
                    .collect();
                let (path, name) = text.rsplit_once("::")?;
                crate::facts::calls_and_assignments::enum_parts(path, name)
            }
            _ => None,
        }
    }
}
