//! How a file uses names: in value positions, in type positions, or as its own declarations.
//!
//! One walk over the tree, import statements and re-exports left out. An identifier inside a type annotation,
//! type arguments, an interface, a type alias, `implements` or `typeof` in a type is a type use;
//! every other reference is a value use. Inside a decorated class every type use also counts as a
//! value use, because `emitDecoratorMetadata` turns those types into runtime references (NestJS
//! injects by them). Declared names (variables, functions, classes, parameters) let callers tell a
//! local `fetch` from the global one.

use std::collections::HashSet;

use tree_sitter::{Node, Tree};

use crate::syntax::{self, named_children};

/// Node kinds whose whole subtree is a type position.
const TYPE_CONTEXTS: [&str; 13] = [
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

/// Node kinds that are classes.
const CLASS_KINDS: [&str; 3] = ["class_declaration", "class", "abstract_class_declaration"];

/// The name uses of one file.
#[derive(Debug, Default)]
pub(super) struct Usage {
    value_uses: HashSet<String>,
    type_uses: HashSet<String>,
    declared: HashSet<String>,
}

impl Usage {
    /// Whether `name` is used at least once, and never as a value.
    pub fn is_type_use_only(&self, name: &str) -> bool {
        self.type_uses.contains(name) && !self.value_uses.contains(name)
    }

    /// Whether the file declares `name` itself (variable, function, class or parameter).
    pub fn is_declared(&self, name: &str) -> bool {
        self.declared.contains(name)
    }
}

/// A node waiting to be visited, with what its ancestors say about it.
#[derive(Clone, Copy)]
struct Pending<'tree> {
    node: Node<'tree>,
    /// The node's parent; carried along because `Node::parent` costs a walk from the root.
    parent: Option<Node<'tree>>,
    in_type: bool,
    in_decorated_class: bool,
}

/// Walks a file's tree once and records how each name is used.
pub(super) fn analyze(tree: &Tree, source: &str) -> Usage {
    let mut usage = Usage::default();
    let mut pending = vec![Pending {
        node: tree.root_node(),
        parent: None,
        in_type: false,
        in_decorated_class: false,
    }];
    while let Some(Pending {
        node,
        parent,
        in_type,
        in_decorated_class,
    }) = pending.pop()
    {
        let kind = node.kind();
        let is_reexport =
            kind == "export_statement" && node.child_by_field_name("source").is_some();
        if kind == "import_statement" || kind == "comment" || is_reexport {
            continue;
        }
        let in_type = in_type || TYPE_CONTEXTS.contains(&kind);
        let in_decorated_class =
            in_decorated_class || (CLASS_KINDS.contains(&kind) && is_decorated(node, parent));
        match kind {
            "identifier" | "type_identifier" | "shorthand_property_identifier" => {
                let name = syntax::text(node, source).to_owned();
                if parent.is_some_and(|parent| is_declaration(node, parent)) {
                    usage.declared.insert(name.clone());
                }
                let is_type_position = kind == "type_identifier" || in_type;
                if is_type_position && !in_decorated_class {
                    usage.type_uses.insert(name);
                } else {
                    usage.value_uses.insert(name);
                }
            }
            "shorthand_property_identifier_pattern" => {
                usage.declared.insert(syntax::text(node, source).to_owned());
            }
            _ => {
                let mut cursor = node.walk();
                pending.extend(node.children(&mut cursor).map(|child| Pending {
                    node: child,
                    parent: Some(node),
                    in_type,
                    in_decorated_class,
                }));
            }
        }
    }
    usage
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

/// Whether an identifier is the name a declaration introduces.
fn is_declaration(identifier: Node<'_>, parent: Node<'_>) -> bool {
    let is_field = |field: &str| {
        parent
            .child_by_field_name(field)
            .is_some_and(|named| named.id() == identifier.id())
    };
    match parent.kind() {
        "variable_declarator"
        | "function_declaration"
        | "generator_function_declaration"
        | "class_declaration" => is_field("name"),
        "required_parameter" | "optional_parameter" => is_field("pattern"),
        "formal_parameters" => true,
        "assignment_pattern" => is_field("left"),
        "arrow_function" => is_field("parameter"),
        _ => false,
    }
}

/// Whether a class, its members or its parameters carry a decorator, or the `export` wrapping
/// it does.
fn is_decorated(class: Node<'_>, parent: Option<Node<'_>>) -> bool {
    let wrapper_is_decorated = parent
        .filter(|parent| parent.kind() == "export_statement")
        .is_some_and(|parent| {
            named_children(parent)
                .iter()
                .any(|child| child.kind() == "decorator")
        });
    wrapper_is_decorated || contains_decorator(class)
}

fn contains_decorator(node: Node<'_>) -> bool {
    let mut pending = vec![node];
    while let Some(current) = pending.pop() {
        if current.kind() == "decorator" {
            return true;
        }
        let mut cursor = current.walk();
        pending.extend(current.named_children(&mut cursor));
    }
    false
}
