//! What a C# file declares for the project's type index: its namespaces and top-level types,
//! `global using`s, `const string` fields and the extension methods of its static classes.

use super::*;

pub(crate) const TYPE_DECLARATIONS: [&str; 7] = [
    "class_declaration",
    "interface_declaration",
    "struct_declaration",
    "enum_declaration",
    "record_declaration",
    "record_struct_declaration",
    "delegate_declaration",
];

/// What a C# file declares, for the type index.
pub(crate) struct FileDeclarations {
    /// The `(namespace, type)` pairs of its top-level types.
    pub types: Declarations,
    /// The namespaces of its `global using` directives (not aliases, not `static`).
    pub global_usings: Vec<String>,
    /// The aliases of its `global using` directives (not `static`), with what they name.
    pub global_aliases: Vec<(String, String)>,
    /// The extension methods of its top-level static classes.
    pub extensions: Vec<ExtensionMethod>,
    /// The `const string` fields of its types, keyed by their type path and name without the
    /// namespace (`Constants.Roles.ADMINISTRATORS` → `Administrators`), for attribute
    /// arguments that name a constant (`[Authorize(Roles = Constants.Roles.ADMINISTRATORS)]`).
    pub constants: Vec<(String, String)>,
}

/// The `(namespace, type)` declarations of a C# file, its `global using` namespaces, its
/// extension methods and its string constants, for the type index. Nested types are not
/// indexed: they are reached through their outer type.
///
/// One pass over the containers of declarations (namespaces and type bodies), without
/// recursion.
pub(crate) fn declarations(tree: &Tree, source: &str) -> FileDeclarations {
    let mut declared = FileDeclarations {
        types: Vec::new(),
        global_usings: Vec::new(),
        global_aliases: Vec::new(),
        extensions: Vec::new(),
        constants: Vec::new(),
    };
    let mut pending: Vec<Container<'_>> =
        vec![(tree.root_node(), Some(String::new()), String::new())];
    while let Some((container, namespace, outer)) = pending.pop() {
        let mut current = namespace.clone();
        for child in named_children(container) {
            let kind = walk::kind(child);
            match kind {
                Kind::FileScopedNamespace => {
                    if let (Some(_), Some(name)) = (&current, field_child(child, Child::Name)) {
                        current = Some(syntax::unspaced_text(name, source, 400));
                    }
                }
                Kind::Namespace => {
                    let name = field_child(child, Child::Name);
                    let body = field_child(child, Child::Body);
                    match (&current, name, body) {
                        (Some(current), Some(name), Some(body)) => {
                            let name = syntax::unspaced_text(name, source, 400);
                            pending.push((body, Some(qualified(current, &name)), outer.clone()));
                        }
                        _ => pending.push((body.unwrap_or(child), None, outer.clone())),
                    }
                }
                _ if kind.declares_type() => {
                    let Some(name) = name_text(child, source) else {
                        continue;
                    };
                    if let Some(current) = &current {
                        if kind == Kind::ClassDeclaration {
                            extensions::extension_methods(
                                child,
                                source,
                                current,
                                &name,
                                &mut declared.extensions,
                            );
                        }
                        declared.types.push((current.clone(), name.clone()));
                    }
                    if let Some(body) = field_child(child, Child::Body) {
                        let path = if outer.is_empty() {
                            name
                        } else {
                            format!("{outer}.{name}")
                        };
                        pending.push((body, None, path));
                    }
                }
                Kind::Using
                    if current.is_some() && using_keywords(child, source) == (true, false) =>
                {
                    let name = field_child(child, Child::Name);
                    let target = named_children(child)
                        .into_iter()
                        .rfind(|target| Some(target.id()) != name.map(|name| name.id()));
                    let Some(target) = target else {
                        continue;
                    };
                    let target = syntax::unspaced_text(target, source, 400);
                    match name {
                        Some(name) => declared
                            .global_aliases
                            .push((syntax::text(name, source).to_owned(), target)),
                        None => declared.global_usings.push(target),
                    }
                }
                Kind::FieldDeclaration if !outer.is_empty() => {
                    declared.constants.extend(
                        const_strings(child, source)
                            .into_iter()
                            .map(|(name, value)| (format!("{outer}.{name}"), value)),
                    );
                }
                _ => {}
            }
        }
    }
    declared
}

/// The `(name, value)` of each declarator of a `const string` field with a literal value.
/// Whether a declaration has the modifier `word` (`static`, `this`, `public`, `const`).
pub(crate) fn has_modifier(node: Node<'_>, word: &str, source: &str) -> bool {
    named_children(node)
        .into_iter()
        .any(|child| child.kind() == "modifier" && syntax::text(child, source) == word)
}

pub(crate) fn const_strings(field: Node<'_>, source: &str) -> Vec<(String, String)> {
    let is_const = has_modifier(field, "const", source);
    let Some(declaration) = named_children(field)
        .into_iter()
        .find(|child| child.kind() == "variable_declaration")
    else {
        return Vec::new();
    };
    let is_string = declaration.child_field("type").is_some_and(|kind| {
        matches!(
            syntax::text(kind, source),
            "string" | "String" | "System.String"
        )
    });
    if !(is_const && is_string) {
        return Vec::new();
    }
    named_children(declaration)
        .into_iter()
        .filter(|child| child.kind() == "variable_declarator")
        .filter_map(|declarator| {
            let name = declarator
                .child_field("name")
                .or_else(|| {
                    named_children(declarator)
                        .into_iter()
                        .find(|child| child.kind() == "identifier")
                })
                .map(|name| syntax::text(name, source).to_owned())?;
            let value = named_children(declarator)
                .into_iter()
                .flat_map(|child| {
                    if child.kind() == "equals_value_clause" {
                        named_children(child)
                    } else {
                        vec![child]
                    }
                })
                .find_map(|child| crate::lang::csharp::aspnet::string_value(child, source))?;
            Some((name, value))
        })
        .collect()
}

/// What a C# file declares, for the project's type index.
pub(crate) fn type_declarations(
    _path: &str,
    tree: &Tree,
    source: &str,
) -> Option<crate::resolve::context::TypeDeclarations> {
    let declared = declarations(tree, source);
    Some(crate::resolve::context::TypeDeclarations::csharp(
        declared.types,
        declared.global_usings,
        declared.global_aliases,
        declared.constants,
        declared.extensions,
    ))
}
