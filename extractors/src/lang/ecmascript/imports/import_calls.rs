//! `require('x')` and `import('x')`: what the call's result is bound to.
//!
//! `const m = require('x')` binds the module object, `const { a, b: c } = require('x')` and
//! `const a = require('x').a` bind named exports, through `await` for dynamic imports. An
//! `import('x')` inside a type (`typeof import('x')`, `import('x').T`) is a type-only reference,
//! and so is a `typeof import('x')` the grammar misread as an expression.

use tree_sitter::Node;

use super::bindings::Binding;
use super::{bind_module, empty_record, named, ImportForm, ImportRecord};
use crate::lang::ecmascript::literals::property_name;
use crate::lang::ecmascript::usage::is_in_type_position;
use crate::syntax::ChildField;
use crate::syntax::{self, named_children};

/// Reads `require('x')` or `import('x')` and what its result is bound to:
/// `const m = …`, `const { a, b: c } = …`, `const a = require('x').a`, through `await`.
pub(in crate::lang::ecmascript) fn read_call<'tree>(
    call: Node<'tree>,
    source: &str,
    specifier: String,
) -> ImportRecord<'tree> {
    let is_dynamic = call
        .child_field("function")
        .is_some_and(|function| function.kind() == "import");
    let form = if is_dynamic {
        ImportForm::Dynamic
    } else {
        ImportForm::Require
    };
    let mut record = empty_record(call, form, specifier);
    // `typeof import('./x')` and `import('./x').T` in a type are type-only references.
    if is_dynamic && (is_in_type_position(call) || is_misparsed_type_query(call)) {
        record.is_type_only = true;
        return record;
    }
    let mut value = call;
    let mut member = None;
    while let Some(parent) = value.parent() {
        match parent.kind() {
            "await_expression" | "parenthesized_expression" => value = parent,
            "member_expression"
                if member.is_none()
                    && parent
                        .child_field("object")
                        .is_some_and(|object| object.id() == value.id()) =>
            {
                member = parent
                    .child_field("property")
                    .map(|property| syntax::text(property, source).to_owned());
                value = parent;
            }
            _ => break,
        }
    }
    let Some(declarator) = value
        .parent()
        .filter(|parent| parent.kind() == "variable_declarator")
    else {
        return record;
    };
    let Some(pattern) = declarator.child_field("name") else {
        return record;
    };
    match (pattern.kind(), member) {
        ("identifier", Some(member)) => {
            record.bindings.push(Binding {
                local: syntax::text(pattern, source).to_owned(),
                imported: named(&member),
                is_type_only: false,
            });
            record.names.push(member);
        }
        ("identifier", None) => bind_module(&mut record, syntax::text(pattern, source), false),
        ("object_pattern", None) => read_object_pattern(&mut record, pattern, source),
        _ => {}
    }
    record
}

/// `f<typeof import('./x')>()`: the grammar reads these type arguments as comparisons, leaving
/// `typeof import('./x')` as a `typeof` unary expression (and the file with an error). A real
/// `typeof import('./x')` expression would only ever yield `"object"`, so this is the type.
fn is_misparsed_type_query(call: Node<'_>) -> bool {
    call.parent().is_some_and(|parent| {
        parent.kind() == "unary_expression"
            && parent
                .child_field("operator")
                .is_some_and(|operator| operator.kind() == "typeof")
    })
}

fn read_object_pattern(record: &mut ImportRecord<'_>, pattern: Node<'_>, source: &str) {
    for property in named_children(pattern) {
        let (name, local) = match property.kind() {
            "shorthand_property_identifier_pattern" => {
                let name = syntax::text(property, source).to_owned();
                (name.clone(), name)
            }
            "object_assignment_pattern" => {
                let Some(left) = property.child_field("left") else {
                    continue;
                };
                let name = syntax::text(left, source).to_owned();
                (name.clone(), name)
            }
            "pair_pattern" => {
                let (Some(key), Some(value)) =
                    (property.child_field("key"), property.child_field("value"))
                else {
                    continue;
                };
                let target = match value.kind() {
                    "assignment_pattern" => value.child_field("left").unwrap_or(value),
                    _ => value,
                };
                if target.kind() != "identifier" {
                    continue;
                }
                (
                    property_name(key, source),
                    syntax::text(target, source).to_owned(),
                )
            }
            _ => continue,
        };
        record.bindings.push(Binding {
            local,
            imported: named(&name),
            is_type_only: false,
        });
        record.names.push(name);
    }
}
