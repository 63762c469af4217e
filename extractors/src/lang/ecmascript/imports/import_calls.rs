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
            // `import('x').then(m => m.default)`: the promise's value, or the member it picks.
            "member_expression"
                if is_dynamic && member.is_none() && then_pick(parent, value, source).is_some() =>
            {
                if let Some((then_call, picked)) = then_pick(parent, value, source) {
                    member = picked;
                    value = then_call;
                }
            }
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
    // `this.AWS = await import('x')`: the field holds the module (`new this.AWS.S3Client(…)`).
    if let Some(field) = this_field_assigned(value, source) {
        match member {
            Some(member) => {
                record.bindings.push(Binding {
                    local: field,
                    imported: named(&member),
                    is_type_only: false,
                });
                record.names.push(member);
            }
            None => bind_module(&mut record, &field, false),
        }
        return record;
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

/// `import('x').then(m => m.default)` (or `.then(m => m)`), with `object` the import call:
/// the `then` call and the member its callback picks (`None` for the module itself); `None`
/// for any other member or callback.
fn then_pick<'tree>(
    member: Node<'tree>,
    object: Node<'tree>,
    source: &str,
) -> Option<(Node<'tree>, Option<String>)> {
    let is_then = member
        .child_field("object")
        .is_some_and(|receiver| receiver.id() == object.id())
        && member
            .child_field("property")
            .is_some_and(|property| syntax::text(property, source) == "then");
    let then_call = member
        .parent()
        .filter(|parent| parent.kind() == "call_expression")
        .filter(|call| {
            call.child_field("function")
                .is_some_and(|function| function.id() == member.id())
        })?;
    if !is_then {
        return None;
    }
    let arguments = then_call.child_field("arguments")?;
    let [callback] = named_children(arguments)[..] else {
        return None;
    };
    if callback.kind() != "arrow_function" {
        return None;
    }
    let parameter = match callback.child_field("parameter") {
        Some(parameter) => parameter,
        None => {
            let parameters = callback.child_field("parameters")?;
            let [only] = named_children(parameters)[..] else {
                return None;
            };
            only.child_field("pattern").unwrap_or(only)
        }
    };
    if parameter.kind() != "identifier" {
        return None;
    }
    let parameter = syntax::text(parameter, source);
    let body = callback.child_field("body")?;
    match body.kind() {
        "identifier" if syntax::text(body, source) == parameter => Some((then_call, None)),
        "member_expression" => {
            let receiver = body.child_field("object")?;
            let property = body.child_field("property")?;
            (receiver.kind() == "identifier"
                && syntax::text(receiver, source) == parameter
                && property.kind() == "property_identifier")
                .then(|| (then_call, Some(syntax::text(property, source).to_owned())))
        }
        _ => None,
    }
}

/// The field `this.NAME` that an assignment of `value` sets (`this.AWS = await import('x')`),
/// as the binding's local name `this.NAME`.
fn this_field_assigned(value: Node<'_>, source: &str) -> Option<String> {
    let assignment = value
        .parent()
        .filter(|parent| parent.kind() == "assignment_expression")?;
    if assignment.child_field("right")?.id() != value.id() {
        return None;
    }
    let left = assignment.child_field("left")?;
    let object = left.child_field("object")?;
    let property = left.child_field("property")?;
    (left.kind() == "member_expression"
        && object.kind() == "this"
        && property.kind() == "property_identifier")
        .then(|| format!("this.{}", syntax::text(property, source)))
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
