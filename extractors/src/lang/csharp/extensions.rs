//! C# extension methods: the declarations the type index learns (`static` methods of top-level
//! static classes whose first parameter is `this`), the member calls a file makes, and the
//! uses of static classes those calls are once the index is complete (`super::PendingUses`).

use std::collections::BTreeSet;

use tree_sitter::Node;

use super::{has_modifier, qualified, FileUses, EXTENSION_CALL};
use crate::lang::csharp::walk::{self, field_child, Child, Kind};
use crate::resolve::context::{Declarations, ExtensionMethod, Types};
use crate::resolve::deferred::Anchor;
use crate::source_scope;
use crate::syntax::{self, has_token, named_children};
use crate::walk::Ancestor;

/// The first call `x.Name(…)` (or `x?.Name(…)`, `x.Name<T>(…)`) of a method name with a number
/// of arguments, which may call an extension method.
#[derive(Debug)]
pub(super) struct MemberCall {
    pub name: Box<str>,
    pub arguments: usize,
    /// The method's name in the call.
    pub anchor: Anchor,
}

/// The method's identifier, name and argument count of a member call when `node` is its
/// name: the `name` (an identifier, or the identifier of a generic name) of a `member_access_expression` that is
/// the `function` of an `invocation_expression`, or of the `member_binding_expression` of a
/// `conditional_access_expression` that is (`x?.Name(…)`).
pub(super) fn member_call<'tree, 's>(
    node: Node<'tree>,
    kind: Kind,
    parent_kind: Kind,
    field: Option<&'static str>,
    ancestors: &[Ancestor<'_>],
    source: &'s str,
) -> Option<(Node<'tree>, &'s str, usize)> {
    // By kind id: the walk asks of every node, and `Node::kind` validates the name's UTF-8.
    if field != Some("name") || !matches!(kind, Kind::Identifier | Kind::GenericName) {
        return None;
    }
    let mut outer = ancestors.iter().rev();
    let (_, parent_field) = outer.next()?;
    let function_field = match parent_kind {
        Kind::MemberAccess => *parent_field,
        Kind::MemberBinding => {
            let (conditional, conditional_field) = outer.next()?;
            if walk::kind(*conditional) != Kind::ConditionalAccess {
                return None;
            }
            *conditional_field
        }
        _ => return None,
    };
    let (call, _) = outer.next()?;
    if function_field != Some("function") || walk::kind(*call) != Kind::Invocation {
        return None;
    }
    let name = if kind == Kind::GenericName {
        named_children(node)
            .into_iter()
            .find(|child| walk::kind(*child) == Kind::Identifier)?
    } else {
        node
    };
    let arguments = field_child(*call, Child::Arguments)?;
    let count = named_children(arguments)
        .into_iter()
        .filter(|child| walk::kind(*child) == Kind::Argument)
        .count();
    Some((name, syntax::text(name, source), count))
}

/// The extension methods of a top-level class, if it is static: its static methods whose first
/// parameter has the modifier `this`, with how many more arguments a call passes (parameters
/// with a default may be left out; a `params` array takes any number).
pub(super) fn extension_methods(
    class: Node<'_>,
    source: &str,
    namespace: &str,
    class_name: &str,
    extensions: &mut Vec<ExtensionMethod>,
) {
    let Some(body) = field_child(class, Child::Body) else {
        return;
    };
    if !has_modifier(class, "static", source) {
        return;
    }
    let is_public = has_modifier(class, "public", source);
    for method in named_children(body) {
        if walk::kind(method) != Kind::MethodDeclaration || !has_modifier(method, "static", source)
        {
            continue;
        }
        let (Some(name), Some(parameters)) = (
            source_scope::field_text(method, "name", source),
            field_child(method, Child::Parameters),
        ) else {
            continue;
        };
        let listed: Vec<Node<'_>> = named_children(parameters)
            .into_iter()
            .filter(|child| walk::kind(*child) == Kind::Parameter)
            .collect();
        let Some((receiver, others)) = listed.split_first() else {
            continue;
        };
        // `this` can only modify the first parameter, and a `params` array comes last.
        let is_first = named_children(parameters)
            .into_iter()
            .find(|child| child.kind() != "attribute_list")
            .is_some_and(|first| first.id() == receiver.id());
        if !is_first || !has_modifier(*receiver, "this", source) {
            continue;
        }
        let optional = others
            .iter()
            .filter(|parameter| has_token(**parameter, "="))
            .count();
        extensions.push(ExtensionMethod {
            name,
            namespace: namespace.to_owned(),
            class: class_name.to_owned(),
            min_arguments: others.len().saturating_sub(optional),
            max_arguments: (!has_token(parameters, "params")).then_some(others.len()),
            is_public,
        });
    }
}

/// What decides which extension methods a file sees.
pub(super) struct ExtensionScope<'a> {
    /// The file.
    pub path: &'a str,
    /// Its own declarations (a part of a partial static class does not use the other parts).
    pub own: &'a Declarations,
    /// The namespaces its own usings, project file and namespaces make visible.
    pub visible: &'a BTreeSet<&'a str>,
    /// The namespaces of the `global using`s of its own project's files (of every file when it
    /// is in no project), which it sees too.
    pub global_usings: &'a BTreeSet<String>,
    /// The classes of its project file's `Static` usings.
    pub statics: Option<&'a BTreeSet<String>>,
    /// Whether the file can see a class of another file, `public` or not (its project and
    /// the projects it references, `context::csproj`).
    pub sees: &'a dyn Fn(&str, bool) -> bool,
}

/// Records the extension-method calls of a file as uses of the static classes declaring them:
/// a method of the call's name whose class is visible and accessible (in the file's project or
/// a project it references; an `internal` one only in its own) and whose parameters fit the
/// call's argument count. The receiver's type is not
/// known, so every such class is used.
pub(super) fn add_calls(
    uses: &mut FileUses,
    index: Types<'_>,
    calls: &[MemberCall],
    scope: &ExtensionScope<'_>,
) {
    for call in calls {
        for (method, declaring) in index.extension_methods(&call.name) {
            let class = qualified(&method.namespace, &method.class);
            let is_visible = scope.visible.contains(method.namespace.as_str())
                || scope.global_usings.contains(&method.namespace)
                || scope
                    .statics
                    .is_some_and(|statics| statics.contains(&class));
            let is_own_part = scope.own.iter().any(|(declared_in, declared)| {
                *declared_in == method.namespace && *declared == method.class
            });
            let is_accessible = (scope.sees)(declaring, method.is_public);
            if declaring == scope.path
                || !is_visible
                || !is_accessible
                || is_own_part
                || !method.accepts(call.arguments)
            {
                continue;
            }
            uses.add(
                declaring,
                call.anchor,
                || class.clone(),
                EXTENSION_CALL,
                &method.class,
            );
        }
    }
}
