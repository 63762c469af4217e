//! The names of namespace declarations are not uses: `namespace Microsoft.Extensions.Hosting;`
//! does not use a class `Extensions` that a visible namespace declares (the Aspire template's
//! `Microsoft.Extensions.Hosting.Extensions`), and `Acme.Orders` there is not a qualified use.
//!
//! The one walk (`crate::resolve::deferred::Anchors::walk_with`) reads every identifier outside `using`
//! directives as a use; this module, riding the same walk, notes the identifiers and chains of
//! namespace names and the first other use of each of their segments, so that the file's first
//! uses and chains can be corrected afterwards.

use std::collections::{BTreeMap, BTreeSet};

use tree_sitter::Node;

use crate::lang::csharp::walk::{kind_of, kinds, Kind};
use crate::syntax;
use crate::walk::Ancestor;

/// What the walk finds about the namespace names of one file.
#[derive(Default)]
pub(super) struct NamespaceNames<'tree, 's> {
    /// The nodes (identifiers and qualified names) inside namespace names, by id.
    nodes: BTreeSet<usize>,
    /// The segments of namespace names, with their first use outside namespace names and
    /// `using` directives, if any yet.
    segments: BTreeMap<&'s str, Option<Node<'tree>>>,
    /// The segments with no such use yet: a file names a few, and most identifiers are
    /// compared with none once their first uses are found.
    unused: Vec<&'s str>,
}

impl<'tree, 's> NamespaceNames<'tree, 's> {
    /// Notes `node` of `kind` (its field in its parent, its ancestors parent last), if it is
    /// inside a namespace name or a use of one of their segments.
    pub fn visit(
        &mut self,
        node: Node<'tree>,
        kind: Kind,
        parent_kind: Kind,
        field: Option<&'static str>,
        ancestors: &[Ancestor<'tree>],
        source: &'s str,
    ) {
        // By kind id (`Node::kind` validates the name's UTF-8 on every call, and the walk asks
        // of every node).
        if !matches!(kind, Kind::Identifier | Kind::QualifiedName) {
            return;
        }
        let in_name = matches!(
            parent_kind,
            Kind::QualifiedName | Kind::Namespace | Kind::FileScopedNamespace
        ) && is_namespace_name(field, ancestors);
        if in_name {
            self.nodes.insert(node.id());
            if kind == Kind::Identifier {
                let segment = syntax::text(node, source);
                if !self.segments.contains_key(segment) {
                    self.segments.insert(segment, None);
                    self.unused.push(segment);
                }
            }
            return;
        }
        if kind != Kind::Identifier || self.unused.is_empty() {
            return;
        }
        let text = syntax::text(node, source);
        let Some(position) = self.unused.iter().position(|segment| *segment == text) else {
            return;
        };
        let in_using = ancestors
            .iter()
            .any(|(ancestor, _)| kind_of(*ancestor, kinds()) == Kind::Using);
        if !in_using {
            self.unused.swap_remove(position);
            if let Some(first) = self.segments.get_mut(text) {
                *first = Some(node);
            }
        }
    }

    /// Whether `node` was inside a namespace name.
    pub fn contains(&self, node: Node<'_>) -> bool {
        self.nodes.contains(&node.id())
    }

    /// The segments of the file's namespace names, each with its first other use.
    pub fn segments(&self) -> impl Iterator<Item = (&'s str, Option<Node<'tree>>)> + '_ {
        self.segments.iter().map(|(name, first)| (*name, *first))
    }
}

/// Whether a node in `field` of the last of `ancestors` lies in the `name` of a
/// `namespace_declaration` or `file_scoped_namespace_declaration`, through qualified names.
fn is_namespace_name(field: Option<&'static str>, ancestors: &[Ancestor<'_>]) -> bool {
    let mut field = field;
    for (ancestor, ancestor_field) in ancestors.iter().rev() {
        match kind_of(*ancestor, kinds()) {
            Kind::QualifiedName => field = *ancestor_field,
            Kind::Namespace | Kind::FileScopedNamespace => return field == Some("name"),
            _ => return false,
        }
    }
    false
}
