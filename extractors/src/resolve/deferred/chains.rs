//! Dotted chains (`a.b.C`, `a?.b`): the node kinds that form them in one grammar and their
//! reading, shared by the walks of the languages with a type index.

use tree_sitter::Node;

/// The node kinds of dotted chains in one grammar.
pub(crate) struct ChainKinds<'kinds> {
    pub chain: &'kinds [&'kinds str],
    pub leaf: &'kinds [&'kinds str],
    pub ignored: &'kinds [&'kinds str],
    pub skipped: &'kinds [&'kinds str],
}

/// The grammar's kind ids of a [`ChainKinds`] (one name may stand for several ids), so that
/// reading a chain compares numbers, not kind names.
#[derive(Debug, Default)]
pub(crate) struct ChainIds {
    pub chain: Vec<u16>,
    pub leaf: Vec<u16>,
    pub ignored: Vec<u16>,
}

/// The leaf texts of a chain node in order, `None` unless its named descendants are all chain
/// or leaf nodes (ignored subtrees and comments left out). `pending` is a buffer, reused.
pub(crate) fn chain_segments<'tree>(
    node: Node<'tree>,
    source: &str,
    kinds: &ChainIds,
    pending: &mut Vec<Node<'tree>>,
) -> Option<Vec<String>> {
    let text = crate::syntax::text(node, source);
    if cannot_be_chain(text) {
        return None;
    }
    let kind = node.kind_id();
    if kinds.leaf.contains(&kind) {
        return Some(vec![text.to_owned()]);
    }
    if !kinds.chain.contains(&kind) {
        return None;
    }
    // The named descendants in preorder, entering chain nodes only, by index (chains are
    // narrow: a cursor's steps would cost more).
    let mut segments = Vec::new();
    pending.clear();
    push_named_children_reversed(node, pending);
    while let Some(current) = pending.pop() {
        if current.is_extra() {
            continue;
        }
        let kind = current.kind_id();
        if kinds.ignored.contains(&kind) {
        } else if kinds.leaf.contains(&kind) {
            segments.push(crate::syntax::text(current, source).to_owned());
        } else if kinds.chain.contains(&kind) {
            push_named_children_reversed(current, pending);
        } else {
            return None;
        }
    }
    Some(segments)
}

/// Pushes the named children of `node`, the first on top.
fn push_named_children_reversed<'tree>(node: Node<'tree>, pending: &mut Vec<Node<'tree>>) {
    pending.extend(
        (0..node.named_child_count())
            .rev()
            .filter_map(|index| node.named_child(index)),
    );
}

/// Whether a node's text shows at once that it is no chain: a chain's text is names, dots,
/// `?`, `:` and spaces, with type arguments, comments and backticked names (from a `<`, `/` or
/// backtick on, anything may follow), so a bracket, quote, `=`, `+`, `,`, `;` or `!` before the
/// first of those means some other node is inside (a call, an index, a literal). Most
/// navigations are `a.b(…).c`, rejected without a second walk. One pass that stops at the first
/// telling byte: every member access below a chain of thousands of calls asks.
pub(crate) fn cannot_be_chain(text: &str) -> bool {
    for byte in text.bytes() {
        match byte {
            b'<' | b'/' | b'`' => return false,
            b'(' | b')' | b'[' | b']' | b'{' | b'}' | b'"' | b'\'' | b'=' | b'+' | b',' | b';'
            | b'!' => return true,
            _ => {}
        }
    }
    false
}
