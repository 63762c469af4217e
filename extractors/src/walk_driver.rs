//! What the node-by-node query matchers of Java, Kotlin and C# (`*_walk::Matcher`) see: every
//! node of a tree in preorder, with its field in its parent and its ancestors. Extraction feeds
//! them from [`crate::deferred::Anchors::walk_with`], which reads first uses, dotted chains and
//! scopes in the same pass; the tests that compare them with the queries use [`preorder`].

use tree_sitter::Node;
#[cfg(test)]
use tree_sitter::Tree;

/// One ancestor of a node: the ancestor and its field in its own parent.
pub(crate) type Ancestor<'tree> = (Node<'tree>, Option<&'static str>);

/// Calls `visit(node, field, ancestors)` for every node of `tree` in preorder; `ancestors` are
/// the node's ancestors with their fields, the parent last.
#[cfg(test)]
pub(crate) fn preorder<'tree>(
    tree: &'tree Tree,
    mut visit: impl FnMut(Node<'tree>, Option<&'static str>, &[Ancestor<'tree>]),
) {
    let mut ancestors: Vec<Ancestor<'tree>> = Vec::new();
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        let field = cursor.field_name();
        visit(node, field, &ancestors);
        if cursor.goto_first_child() {
            ancestors.push((node, field));
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
            ancestors.pop();
        }
    }
}
