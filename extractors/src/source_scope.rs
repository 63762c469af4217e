//! The enclosing scope of a construct (`OrdersController.Remove`, `Server.Run`) for the
//! languages other than TypeScript and JavaScript: every enclosing declaration that the
//! language's `name_of` names contributes, outermost first.

use tree_sitter::Node;

use crate::syntax;

/// Names a declaration node that opens a scope (class, function, method…), or `None`.
pub(crate) type ScopeNamer = fn(Node<'_>, &str) -> Option<String>;

/// The dotted path of the declarations around `node`; `root` is the root of its tree.
pub(crate) fn enclosing(
    node: Node<'_>,
    root: Node<'_>,
    source: &str,
    name_of: ScopeNamer,
) -> Option<String> {
    within(&syntax::ancestors(root, node), source, name_of)
}

/// The dotted path of the declarations among `ancestors` (root first) that `name_of` names.
pub(crate) fn within(ancestors: &[Node<'_>], source: &str, name_of: ScopeNamer) -> Option<String> {
    let names: Vec<String> = ancestors
        .iter()
        .filter_map(|ancestor| name_of(*ancestor, source))
        .collect();
    (!names.is_empty()).then(|| names.join("."))
}

/// The text of a node's `name` field.
pub(crate) fn field_text(node: Node<'_>, field: &str, source: &str) -> Option<String> {
    node.child_by_field_name(field)
        .map(|name| syntax::text(name, source).to_owned())
        .filter(|name| !name.is_empty())
}
