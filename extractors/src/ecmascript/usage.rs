//! How a file uses names: in value positions, in type positions, or as its own declarations.
//!
//! Recorded by the file's one walk (`walk`), import statements and re-exports left out. An
//! identifier inside a type annotation, type arguments, an interface, a type alias, `implements`
//! or `typeof` in a type is a type use; every other reference is a value use. Inside a decorated
//! class every type use also counts as a value use, because `emitDecoratorMetadata` turns those
//! types into runtime references (NestJS injects by them); a class is decorated when it, its
//! members or its parameters carry a decorator, or the `export` wrapping it does. Declared names
//! (variables, functions, classes, parameters) let callers tell a local `fetch` from the global
//! one.

use std::collections::HashSet;

use tree_sitter::Node;

use super::walk::Fnv;

/// Node kinds whose whole subtree is a type position.
pub(super) const TYPE_CONTEXTS: [&str; 13] = [
    "type_annotation",
    "type_arguments",
    "type_parameters",
    "type_alias_declaration",
    "interface_declaration",
    "implements_clause",
    "type_query",
    "nested_type_identifier",
    "generic_type",
    "type_predicate",
    "asserts_annotation",
    "ambient_declaration",
    "abstract_method_signature",
];

/// The name uses of one file.
#[derive(Debug, Default)]
pub(super) struct Usage<'source> {
    pub value_uses: HashSet<&'source str, Fnv>,
    pub type_uses: HashSet<&'source str, Fnv>,
    pub declared: HashSet<&'source str, Fnv>,
}

impl Usage<'_> {
    /// Whether `name` is never used as a value: only in type positions, or not at all.
    pub fn is_never_a_value(&self, name: &str) -> bool {
        !self.value_uses.contains(name)
    }

    /// Whether the file declares `name` itself (variable, function, class or parameter).
    pub fn is_declared(&self, name: &str) -> bool {
        self.declared.contains(name)
    }
}

/// Whether a node lies in a type position (`let a: import('./x').T`, `typeof import('./x')`).
pub(super) fn is_in_type_position(node: Node<'_>) -> bool {
    let mut current = node.parent();
    while let Some(ancestor) = current {
        if TYPE_CONTEXTS.contains(&ancestor.kind()) {
            return true;
        }
        current = ancestor.parent();
    }
    false
}
