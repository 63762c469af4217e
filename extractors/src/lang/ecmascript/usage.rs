//! How a file uses names: in value positions, in type positions, or as its own declarations.
//!
//! Recorded by the file's one walk (`walk`), import statements and re-exports left out. An
//! identifier inside a type annotation, type arguments, an interface, a type alias, `implements`
//! or `typeof` in a type is a type use; every other reference is a value use. A type that
//! `emitDecoratorMetadata` serializes is a value use too, because the compiler turns it into a
//! runtime reference (NestJS injects by it): see [`metadata_reference`]. Declared names
//! (variables, functions, classes, parameters) let callers tell a local `fetch` from the global
//! one.

use crate::syntax::ChildField;
use std::collections::HashSet;

use tree_sitter::Node;

use super::named_children;
use crate::syntax::Fnv;

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
    /// Names decorator metadata serializes only without `strictNullChecks` (`x: Dto | null`).
    pub nullable_metadata_uses: HashSet<&'source str, Fnv>,
}

impl Usage<'_> {
    /// Whether `name` is never used as a value: only in type positions, or not at all.
    /// `strict_null_checks` is the compiler option, which decides whether decorator metadata
    /// serializes a nullable type (`Dto | null`).
    pub fn is_never_a_value(&self, name: &str, strict_null_checks: bool) -> bool {
        !self.value_uses.contains(name)
            && (strict_null_checks || !self.nullable_metadata_uses.contains(name))
    }

    /// Whether `name` is used in a type position.
    pub fn is_a_type(&self, name: &str) -> bool {
        self.type_uses.contains(name)
    }

    /// Whether the file declares `name` itself (variable, function, class or parameter).
    pub fn is_declared(&self, name: &str) -> bool {
        self.declared.contains(name)
    }
}

/// Whether a node lies in a type position (`let a: import('./x').T`, `typeof import('./x')`),
/// including the type operand of `as` and `satisfies`, which the grammar may read as an
/// expression (`{} as import('./x').T`): anything after the operand expression.
pub(super) fn is_in_type_position(node: Node<'_>) -> bool {
    let mut child = node;
    let mut current = node.parent();
    while let Some(ancestor) = current {
        let kind = ancestor.kind();
        if TYPE_CONTEXTS.contains(&kind)
            || (matches!(kind, "as_expression" | "satisfies_expression")
                && ancestor
                    .named_child(0)
                    .is_some_and(|operand| operand.id() != child.id()))
        {
            return true;
        }
        child = ancestor;
        current = ancestor.parent();
    }
    false
}

/// Whether `emitDecoratorMetadata` serializes a type use as a runtime reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Metadata {
    /// A plain type use.
    No,
    /// Serialized (`design:paramtypes`, `design:type`, `design:returntype`).
    Serialized,
    /// Serialized only without `strictNullChecks`: the type is a union of one reference with
    /// `null`/`undefined`, which the compiler otherwise serializes as `Object`.
    SerializedIfNullable,
}

/// Whether the identifier `node` (innermost ancestor first in `ancestors`) is a type
/// TypeScript's decorator metadata turns into a runtime reference, as a per-file compiler
/// (`transpileModule`, SWC) emits it: the head of the type annotation of a constructor parameter
/// when the class or one of those parameters is decorated, of a method parameter or return type
/// when the method or one of its parameters is decorated, of a decorated property. `ns.Dto`
/// references `ns`, `Repository<Dto>` only `Repository`; arrays, functions, literals and other
/// unions serialize as built-ins.
pub(super) fn metadata_reference<'tree>(
    node: Node<'tree>,
    mut ancestors: impl Iterator<Item = Node<'tree>>,
    source: &str,
) -> Metadata {
    metadata_slot(node, &mut ancestors, source).unwrap_or(Metadata::No)
}

fn metadata_slot<'tree>(
    node: Node<'tree>,
    ancestors: &mut impl Iterator<Item = Node<'tree>>,
    source: &str,
) -> Option<Metadata> {
    let is_field = |parent: Node<'tree>, field: &str, child: Node<'tree>| {
        parent
            .child_by_field_name(field)
            .is_some_and(|named| named.id() == child.id())
    };
    let mut child = node;
    let mut parent = ancestors.next()?;
    if parent.kind() == "nested_type_identifier" {
        if !is_field(parent, "module", child) {
            return None;
        }
        child = parent;
        parent = ancestors.next()?;
    } else if node.kind() != "type_identifier" {
        return None;
    }
    if parent.kind() == "generic_type" {
        if !is_field(parent, "name", child) {
            return None;
        }
        child = parent;
        parent = ancestors.next()?;
    }
    let mut metadata = Metadata::Serialized;
    while matches!(parent.kind(), "parenthesized_type" | "union_type") {
        if parent.kind() == "union_type" {
            let others_are_nullish = named_children(parent)
                .filter(|other| other.id() != child.id())
                .all(is_nullish);
            if !others_are_nullish {
                return None;
            }
            metadata = Metadata::SerializedIfNullable;
        }
        child = parent;
        parent = ancestors.next()?;
    }
    if parent.kind() != "type_annotation" {
        return None;
    }
    let owner = ancestors.next()?;
    let is_serialized = match owner.kind() {
        "required_parameter" | "optional_parameter" => {
            let parameters = ancestors.next()?;
            let method = ancestors.next()?;
            if parameters.kind() != "formal_parameters" || method.kind() != "method_definition" {
                return None;
            }
            let is_constructor = method
                .child_field("name")
                .is_some_and(|name| crate::syntax::text(name, source) == "constructor");
            // A class's decorators are its children, or the `export` statement's before it.
            let class_is_decorated = is_constructor && {
                let body = ancestors.next();
                let class = ancestors.next();
                let wrapper = ancestors.next();
                body.is_some_and(|body| body.kind() == "class_body")
                    && (class.is_some_and(has_decorator)
                        || wrapper.is_some_and(|wrapper| {
                            wrapper.kind() == "export_statement" && has_decorator(wrapper)
                        }))
            };
            class_is_decorated
                || (!is_constructor && is_decorated_method(method))
                || named_children(parameters).any(has_decorator)
        }
        "method_definition" => {
            is_field(owner, "return_type", parent)
                && (is_decorated_method(owner)
                    || owner
                        .child_field("parameters")
                        .is_some_and(|parameters| named_children(parameters).any(has_decorator)))
        }
        "public_field_definition" => has_decorator(owner),
        _ => false,
    };
    is_serialized.then_some(metadata)
}

/// Whether a node carries a decorator of its own.
fn has_decorator(node: Node<'_>) -> bool {
    named_children(node).any(|child| child.kind() == "decorator")
}

/// Whether a method is decorated: in TypeScript its decorators are the siblings before it in the
/// class body, in JavaScript its children.
fn is_decorated_method(method: Node<'_>) -> bool {
    if has_decorator(method) {
        return true;
    }
    let mut previous = method.prev_named_sibling();
    while let Some(sibling) = previous {
        match sibling.kind() {
            "decorator" => return true,
            "comment" => previous = sibling.prev_named_sibling(),
            _ => return false,
        }
    }
    false
}

/// Whether a union member is `null` or `undefined`.
fn is_nullish(member: Node<'_>) -> bool {
    match member.kind() {
        "literal_type" => {
            named_children(member).all(|child| matches!(child.kind(), "null" | "undefined"))
        }
        "undefined" | "null" => true,
        _ => false,
    }
}
