//! The [`CallsAndAssignmentsGrammar`] of C#.

use tree_sitter::Node;

use crate::facts::calls_and_assignments::{
    binary_condition, last_statement, unwrap_parentheses, Arm, Branch, CallsAndAssignmentsGrammar,
    Condition,
};
use crate::lang::csharp::walk::{self, field_child, Child, Kind};
use crate::syntax::ChildField;
use crate::syntax::{self, named_children};

/// C# syntax.
pub(crate) struct CSharp;

impl CallsAndAssignmentsGrammar for CSharp {
    // Kinds and fields by id (`csharp_walk`): these read every call of a file.
    fn member<'tree>(&self, node: Node<'tree>) -> Option<(Node<'tree>, Node<'tree>)> {
        match walk::kind(node) {
            Kind::MemberAccess => Some((
                field_child(node, Child::Expression)?,
                field_child(node, Child::Name)?,
            )),
            // `a?.B`: the object is the condition, the name sits in the member binding.
            Kind::ConditionalAccess => {
                let binding = named_children(node)
                    .into_iter()
                    .find(|child| walk::kind(*child) == Kind::MemberBinding)?;
                Some((
                    field_child(node, Child::Condition)?,
                    field_child(binding, Child::Name)?,
                ))
            }
            _ => None,
        }
    }

    fn arguments<'tree>(&self, list: Node<'tree>) -> Vec<Node<'tree>> {
        named_children(list)
            .into_iter()
            .filter(|argument| walk::kind(*argument) == Kind::Argument)
            .filter_map(|argument| {
                let name = field_child(argument, Child::Name).map(|name| name.id());
                // The expression is the argument's last named child that is not its name.
                (0..argument.named_child_count())
                    .rev()
                    .filter_map(|index| argument.named_child(index))
                    .find(|child| Some(child.id()) != name)
            })
            .collect()
    }

    fn name(&self, node: Node<'_>, source: &str) -> String {
        simple_name(node, source)
    }

    fn condition<'tree>(&self, node: Node<'tree>, source: &str) -> Condition<'tree> {
        let node = unwrap_parentheses(node);
        match node.kind() {
            "binary_expression" => binary_condition(node, source, &["=="], &["!="]),
            "prefix_unary_expression" if syntax::text(node, source).starts_with('!') => {
                named_children(node)
                    .into_iter()
                    .next()
                    .map_or(Condition::Other, Condition::Not)
            }
            "is_pattern_expression" => {
                let (Some(subject), Some(pattern)) =
                    (node.child_field("expression"), node.child_field("pattern"))
                else {
                    return Condition::Other;
                };
                let (pattern, is_negated) = if pattern.kind() == "negated_pattern" {
                    match named_children(pattern).into_iter().next() {
                        Some(inner) => (inner, true),
                        None => return Condition::Other,
                    }
                } else {
                    (pattern, false)
                };
                match constant_of(pattern) {
                    Some(pattern) => Condition::Is {
                        subject,
                        pattern,
                        is_negated,
                    },
                    None => Condition::Other,
                }
            }
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
        (node.kind() == "switch_section").then_some(())?;
        let subject = node
            .parent()
            .and_then(|body| body.parent())
            .and_then(|switch| switch.child_field("value"))
            .map(unwrap_parentheses)?;
        let labels = named_children(node)
            .into_iter()
            .filter(|child| child.kind().ends_with("pattern"))
            .map(|label| constant_of(label).unwrap_or(label))
            .collect();
        // `case A: case B: …` parses as a section without statements before this one.
        let is_fallthrough_target = node.prev_named_sibling().is_some_and(|previous| {
            previous.kind() == "switch_section"
                && named_children(previous).into_iter().all(|child| {
                    let kind = child.kind();
                    kind.ends_with("pattern") || kind == "when_clause" || kind == "comment"
                })
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
                | "switch_statement"
                | "switch_body"
                | "conditional_expression"
                | "switch_expression"
        )
    }

    fn is_exit(&self, node: Node<'_>) -> bool {
        match node.kind() {
            "return_statement" | "throw_statement" => true,
            "block" => last_statement(node).is_some_and(|last| self.is_exit(last)),
            "expression_statement" => named_children(node)
                .into_iter()
                .next()
                .is_some_and(|inner| inner.kind() == "throw_expression"),
            _ => false,
        }
    }

    fn is_function(&self, node: Node<'_>) -> bool {
        matches!(
            node.kind(),
            "method_declaration"
                | "constructor_declaration"
                | "local_function_statement"
                | "lambda_expression"
                | "anonymous_method_expression"
                | "accessor_declaration"
                | "declaration_list"
        )
    }
}

/// The expression of a constant pattern (`OrderStatus.Draft` in `case OrderStatus.Draft:`);
/// `None` for any other pattern (a label that is no constant still counts as a label).
fn constant_of(pattern: Node<'_>) -> Option<Node<'_>> {
    match pattern.kind() {
        "constant_pattern" => named_children(pattern).into_iter().next(),
        "member_access_expression" | "identifier" => Some(pattern),
        _ => None,
    }
}

/// A name without type arguments: `AddScoped<IOrders, Orders>` → `AddScoped`.
pub(crate) fn simple_name(node: Node<'_>, source: &str) -> String {
    let node = if walk::kind(node) == Kind::GenericName {
        node.named_child(0).unwrap_or(node)
    } else {
        node
    };
    syntax::compact_text(
        node,
        source,
        crate::facts::calls_and_assignments::TEXT_LIMIT,
    )
}
