//! What a Rust file's module declares at its top level, for telling a missing module in a
//! `use` path from an item of an existing module (`crate::lang::rust`): `use crate::missing::X`
//! names a module `missing` that no file holds, while `use crate::Mode::Fast` names an enum of
//! the crate root.
//!
//! The names are those of the file's top-level items (functions, types, traits, constants,
//! statics, modules with or without a body, `macro_rules!`), the names its `use` declarations
//! bind (an alias, else the last segment), `extern crate` names and aliases, and every identifier
//! inside a top-level macro invocation or `macro_rules!` definition (`cfg_rt! { pub mod runtime;
//! }`, a macro that declares `mod generated`: any name a macro mentions may be one it declares).
//! A glob `use` (`pub use inner::*;`) or an `include!` (a build script's generated code) anywhere
//! at the top level, macro bodies included, and a top-level macro invocation that names nothing
//! (`declare_modules!();`, whose definition elsewhere may declare anything) leave the module
//! open: it may declare names nobody can list without expanding it, so no path through it is
//! called missing.
//!
//! The modules declared with a `#[path = "…"]` attribute, at the top level or inside inline
//! modules, are listed with their paths as written, so that a path through one leads to the
//! file the attribute names (`pending.rs`).

use tree_sitter::{Node, Tree};

use crate::lang::rust::walk::{field_child, Child};
use crate::resolve::context::{RustNames, TypeDeclarations};
use crate::syntax::{self, named_children};

/// Item kinds whose `name` field is a name of the module.
const NAMED_ITEMS: [&str; 11] = [
    "function_item",
    "function_signature_item",
    "struct_item",
    "enum_item",
    "union_item",
    "trait_item",
    "type_item",
    "const_item",
    "static_item",
    "mod_item",
    "macro_definition",
];

/// Top-level names are few; a hostile file with more is treated as open.
const MAX_NAMES: usize = 100_000;

/// What the file declares at the top level of its module ([`RustNames`]).
pub(crate) fn module_names(_path: &str, tree: &Tree, source: &str) -> Option<TypeDeclarations> {
    let mut names = RustNames::default();
    let mut file = FileMacros::default();
    for item in named_children(tree.root_node()) {
        read_item(item, source, &mut names, &mut file);
    }
    // A macro that names nothing declares what its definition does: known when the file
    // defines it (its body's names are in), anything otherwise.
    if file
        .anonymous
        .iter()
        .any(|invoked| !file.defined.contains(invoked))
    {
        names.open = true;
    }
    names.names.sort_unstable();
    names.names.dedup();
    if names.names.len() > MAX_NAMES {
        names = RustNames {
            names: Vec::new(),
            open: true,
            path_modules: Vec::new(),
        };
    }
    Some(TypeDeclarations::rust(names))
}

/// The file's top-level `macro_rules!` definitions and the macros it invokes with no name of
/// their own (`fixed!();`), by name.
#[derive(Default)]
struct FileMacros {
    defined: Vec<String>,
    anonymous: Vec<String>,
}

/// Adds the names one top-level node declares.
fn read_item(item: Node<'_>, source: &str, names: &mut RustNames, file: &mut FileMacros) {
    let kind = item.kind();
    if NAMED_ITEMS.contains(&kind) {
        if let Some(name) = field_child(item, Child::Name) {
            names.names.push(syntax::text(name, source).to_owned());
            if kind == "macro_definition" {
                file.defined.push(syntax::text(name, source).to_owned());
            }
        }
        if kind == "macro_definition" {
            macro_names(item, source, names);
        }
        if kind == "mod_item" {
            path_modules(item, source, &mut Vec::new(), &mut names.path_modules);
        }
        return;
    }
    match kind {
        "use_declaration" => {
            let Some(argument) = field_child(item, Child::Argument) else {
                return;
            };
            let mut paths = Vec::new();
            super::expand(argument, source, &[], None, 0, &mut paths);
            for path in paths {
                match path.segments.last().map(String::as_str) {
                    Some("*") => names.open = true,
                    Some(last) => names
                        .names
                        .push(path.alias.clone().unwrap_or_else(|| last.to_owned())),
                    None => {}
                }
            }
        }
        "extern_crate_declaration" => {
            for child in [Child::Name, Child::Alias] {
                if let Some(name) = field_child(item, child) {
                    names.names.push(syntax::text(name, source).to_owned());
                }
            }
        }
        "macro_invocation" | "expression_statement" => {
            let before = names.names.len();
            macro_names(item, source, names);
            // The macro's own name is no name it declares.
            let named = names.names.get(before..).unwrap_or_default();
            let invocation = match kind {
                "expression_statement" => named_children(item).into_iter().next(),
                _ => Some(item),
            };
            let macro_name = invocation
                .and_then(|invocation| field_child(invocation, Child::Macro))
                .map(|name| syntax::text(name, source))
                .unwrap_or_default();
            if named.iter().all(|name| macro_name.ends_with(name.as_str())) {
                let last = macro_name.rsplit("::").next().unwrap_or(macro_name);
                file.anonymous.push(last.trim().to_owned());
            }
        }
        _ => {}
    }
}

/// Every identifier inside a top-level macro invocation; an `include!` or a glob `use` inside
/// it opens the module.
fn macro_names(item: Node<'_>, source: &str, names: &mut RustNames) {
    let text = syntax::text(item, source);
    if text.contains("include!") || text.contains("::*") || text.contains(":: *") {
        names.open = true;
    }
    // By kind id: a macro's body may be long, and `Node::kind` measures and checks the name's
    // text.
    static IDENTIFIERS: std::sync::OnceLock<Vec<bool>> = std::sync::OnceLock::new();
    let identifiers = IDENTIFIERS.get_or_init(|| {
        crate::walk::kind_table(&tree_sitter_rust::LANGUAGE.into(), false, |name| {
            name == "identifier"
        })
    });
    for node in syntax::descendants(item) {
        if crate::walk::kind_in(node, identifiers, false) {
            let name = syntax::text(node, source);
            if name == "include" {
                names.open = true;
            }
            names.names.push(name.to_owned());
        }
    }
}

/// Inline modules nest rarely; deeper ones are not searched for `#[path]` modules.
const MAX_INLINE_DEPTH: usize = 16;

/// Adds the `#[path]` modules of a `mod` item (itself, or those declared inside its body) with
/// their module paths under `inline`.
fn path_modules(
    item: Node<'_>,
    source: &str,
    inline: &mut Vec<String>,
    found: &mut Vec<(Vec<String>, String)>,
) {
    let Some(name) = field_child(item, Child::Name) else {
        return;
    };
    let name = syntax::text(name, source).to_owned();
    match field_child(item, Child::Body) {
        None => {
            if let Some(path) = super::path_attribute(item, source) {
                let mut module = inline.clone();
                module.push(name);
                found.push((module, path));
            }
        }
        // An inline module's own `#[path]` names a folder; what it declares there is not followed.
        Some(body)
            if inline.len() < MAX_INLINE_DEPTH && super::path_attribute(item, source).is_none() =>
        {
            inline.push(name);
            for child in named_children(body) {
                if child.kind() == "mod_item" {
                    path_modules(child, source, inline, found);
                }
            }
            inline.pop();
        }
        Some(_) => {}
    }
}
