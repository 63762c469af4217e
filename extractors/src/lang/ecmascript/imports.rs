//! `import` and `external` facts: static imports, side-effect imports, re-exports, import-equals,
//! `require('x')` and `import('x')`, each with its names, alias, bindings and type-only flag.
//!
//! A statement is type-only when it says so (`import type`, `export type … from`) or every one of
//! its named specifiers is `type X`; an `import('x')` inside a type (`typeof import('x')`) is too. In TypeScript files an import is also type-only when the
//! names it binds are used only in type positions, at least one of them (see `usage`); an import
//! whose names are not used at all is a dependency as written. Resolution decides the
//! fact kind: a file or an unresolved internal specifier gives `import` (with `resolved` only for a
//! file), a package outside the project gives `external`.

pub(super) mod bindings;
mod import_calls;

use policies::facts::{Confidence, Fact, FactKind, PropertyValue};
use tree_sitter::Node;

use super::literals::{property_name, string_value};
use super::FileView;
use crate::facts::set;
use crate::language::ExtractionInput;
use crate::query::{Field, QueryHit};
use crate::resolve::context::{Request, Resolution};
use crate::syntax::ChildField;
use crate::syntax::{self, has_token, named_children};
use bindings::{Binding, Imported};

/// The syntactic form of an import.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ImportForm {
    /// `import … from 'x'` or `import 'x'`.
    Static,
    /// `export … from 'x'`.
    ReExport,
    /// `import x = require('x')`.
    ImportEquals,
    /// `require('x')`.
    Require,
    /// `import('x')`.
    Dynamic,
}

/// One import of a file.
#[derive(Debug, Clone)]
pub(super) struct ImportRecord<'tree> {
    /// The statement or call the import is.
    pub node: Node<'tree>,
    /// Its syntactic form.
    pub form: ImportForm,
    /// The module specifier.
    pub specifier: String,
    /// The imported (not local) names.
    pub names: Vec<String>,
    /// The default or namespace alias.
    pub alias: Option<String>,
    /// The local names it binds.
    pub bindings: Vec<Binding>,
    /// Whether the statement is type-only: `import type`, or all its specifiers marked `type`.
    pub is_type_only: bool,
    /// Whether it is type-only only because every specifier is marked `type` (`import { type A }`):
    /// a compiler that preserves imports (`verbatimModuleSyntax`) keeps it as `import {} from`.
    pub only_inline_types: bool,
    /// Where the specifier leads.
    pub resolution: Resolution,
}

impl ImportRecord<'_> {
    /// The package name when the import is of a package outside the project.
    pub fn external_package(&self) -> Option<&str> {
        match &self.resolution {
            Resolution::External { package } => Some(package),
            _ => None,
        }
    }
}

/// Reads every import matched by the query, in document order.
pub(super) fn collect<'tree>(
    input: &ExtractionInput<'_>,
    hits: &[&QueryHit<'tree>],
) -> Vec<ImportRecord<'tree>> {
    let source = input.source;
    let mut records: Vec<ImportRecord<'tree>> = hits
        .iter()
        .filter_map(|hit| {
            let specifier_node = hit.node(Field::Specifier)?;
            // A template literal with `${…}` names no one module.
            if named_children(specifier_node)
                .iter()
                .any(|part| part.kind() == "template_substitution")
            {
                return None;
            }
            let specifier = string_value(specifier_node, source);
            let mut record = if let Some(statement) = hit.node(Field::Statement) {
                read_statement(statement, source, specifier)
            } else {
                import_calls::read_call(hit.node(Field::Call)?, source, specifier)
            };
            let request = match record.form {
                ImportForm::Require | ImportForm::ImportEquals => Request::Require,
                ImportForm::Static | ImportForm::ReExport | ImportForm::Dynamic => Request::Import,
            };
            record.resolution = input
                .context
                .resolve(input.path, &record.specifier, request);
            Some(record)
        })
        .collect();
    records.sort_by_key(|record| record.node.start_byte());
    records
}

pub(super) fn empty_record<'tree>(
    node: Node<'tree>,
    form: ImportForm,
    specifier: String,
) -> ImportRecord<'tree> {
    ImportRecord {
        node,
        form,
        specifier,
        names: Vec::new(),
        alias: None,
        bindings: Vec::new(),
        is_type_only: false,
        only_inline_types: false,
        resolution: Resolution::Internal,
    }
}

fn read_statement<'tree>(
    statement: Node<'tree>,
    source: &str,
    specifier: String,
) -> ImportRecord<'tree> {
    let is_export = statement.kind() == "export_statement";
    let form = if is_export {
        ImportForm::ReExport
    } else {
        ImportForm::Static
    };
    let mut record = empty_record(statement, form, specifier);
    let statement_is_type = has_token(statement, "type")
        || has_token(statement, "typeof")
        || is_type_star_export(statement);
    let mut specifier_flags = Vec::new();
    let mut binds_module = false;
    for child in named_children(statement) {
        match child.kind() {
            "import_require_clause" => {
                record.form = ImportForm::ImportEquals;
                if let Some(local) = named_children(child)
                    .into_iter()
                    .find(|node| node.kind() == "identifier")
                {
                    bind_module(&mut record, syntax::text(local, source), statement_is_type);
                    binds_module = true;
                }
            }
            "import_clause" => {
                for part in named_children(child) {
                    match part.kind() {
                        "identifier" => {
                            bind_module(&mut record, syntax::text(part, source), statement_is_type);
                            binds_module = true;
                        }
                        "namespace_import" => {
                            if let Some(local) = named_children(part)
                                .into_iter()
                                .find(|node| node.kind() == "identifier")
                            {
                                bind_module(
                                    &mut record,
                                    syntax::text(local, source),
                                    statement_is_type,
                                );
                                binds_module = true;
                            }
                        }
                        "named_imports" => {
                            for specifier in named_children(part)
                                .into_iter()
                                .filter(|node| node.kind() == "import_specifier")
                            {
                                let is_type = statement_is_type || has_token(specifier, "type");
                                specifier_flags.push(is_type);
                                read_specifier(&mut record, specifier, source, is_type, true);
                            }
                        }
                        _ => {}
                    }
                }
            }
            "export_clause" => {
                for specifier in named_children(child)
                    .into_iter()
                    .filter(|node| node.kind() == "export_specifier")
                {
                    let is_type = statement_is_type || has_token(specifier, "type");
                    specifier_flags.push(is_type);
                    read_specifier(&mut record, specifier, source, is_type, false);
                }
            }
            "namespace_export" => {
                record.alias = named_children(child)
                    .into_iter()
                    .last()
                    .map(|alias| property_name(alias, source));
            }
            _ => {}
        }
    }
    record.only_inline_types = !statement_is_type
        && !binds_module
        && !specifier_flags.is_empty()
        && specifier_flags.iter().all(|flag| *flag);
    record.is_type_only = statement_is_type || record.only_inline_types;
    record
}

/// `export type * from 'x'` (TypeScript 5.0), which the grammar does not know: it parses the
/// statement with its `type` keyword alone in an `ERROR` node before the `*`.
fn is_type_star_export(statement: Node<'_>) -> bool {
    statement.kind() == "export_statement"
        && named_children(statement).into_iter().any(|child| {
            child.is_error()
                && child.child_count() == 1
                && child.child(0).is_some_and(|token| token.kind() == "type")
                && child
                    .next_sibling()
                    .is_some_and(|next| matches!(next.kind(), "*" | "namespace_export"))
        })
}

pub(super) fn bind_module(record: &mut ImportRecord<'_>, local: &str, is_type_only: bool) {
    record.alias = Some(local.to_owned());
    record.bindings.push(Binding {
        local: local.to_owned(),
        imported: Imported::Module,
        is_type_only,
    });
}

/// Reads `name` / `name as alias` of an import or export specifier; only imports bind names.
fn read_specifier(
    record: &mut ImportRecord<'_>,
    specifier: Node<'_>,
    source: &str,
    is_type_only: bool,
    binds: bool,
) {
    let Some(name_node) = specifier.child_field("name") else {
        return;
    };
    let name = property_name(name_node, source);
    let local = specifier
        .child_field("alias")
        .map_or_else(|| name.clone(), |alias| property_name(alias, source));
    if binds {
        record.bindings.push(Binding {
            local,
            imported: named(&name),
            is_type_only,
        });
    }
    record.names.push(name);
}

pub(super) fn named(name: &str) -> Imported {
    if name == "default" {
        Imported::Module
    } else {
        Imported::Named(name.to_owned())
    }
}

/// The `import` and `external` facts of a file.
pub(super) fn facts(view: &FileView<'_, '_>) -> Vec<Fact> {
    view.imports
        .iter()
        .filter(|record| crate::facts::imports::kept(&view.factory, &record.resolution))
        .map(|record| {
            let scope = view.scope_of(record.node);
            let construct = match record.form {
                ImportForm::Static | ImportForm::ImportEquals => "import of",
                ImportForm::ReExport => "re-export from",
                ImportForm::Require => "require of",
                ImportForm::Dynamic => "dynamic import of",
            };
            let message = format!("{construct} `{}`", record.specifier);
            if let Resolution::External { package } = &record.resolution {
                let mut fact = view.factory.fact(
                    FactKind::External,
                    record.node,
                    Confidence::Definite,
                    scope,
                    format!("{message} (external package `{package}`)"),
                );
                set(&mut fact, "specifier", record.specifier.as_str());
                set(&mut fact, "package", package.as_str());
                // As `facts::imports` marks them: a library the code imports for types only,
                // also where the compiler elides the import (its names used only as types).
                if record.is_type_only
                    || is_declaration_file(view.input.path)
                    || is_type_only(view, record)
                {
                    set(&mut fact, "typeOnly", true);
                }
                if brings_no_bound_client(view, record) {
                    set(&mut fact, "noClient", true);
                }
                return fact;
            }
            let mut fact = view.factory.fact(
                FactKind::Import,
                record.node,
                Confidence::Definite,
                scope,
                message,
            );
            set(&mut fact, "specifier", record.specifier.as_str());
            match &record.resolution {
                Resolution::File(resolved) => set(&mut fact, "resolved", resolved.as_str()),
                Resolution::Generated => set(&mut fact, "generated", true),
                Resolution::Internal | Resolution::External { .. } => {}
            }
            if !record.names.is_empty() {
                set(
                    &mut fact,
                    "names",
                    PropertyValue::from(record.names.clone()),
                );
            }
            if let Some(alias) = &record.alias {
                set(&mut fact, "alias", alias.as_str());
            }
            set(&mut fact, "typeOnly", is_type_only(view, record));
            fact
        })
        .collect()
}

/// Whether an import of a library the spec binds names only plain values and types of it (see
/// [`brings_a_client`]), or only error classes of a library the catalogue does not know
/// ([`brings_only_error_classes`]): its `external` fact says so (`noClient`), so
/// that the engine, which makes a probable access of each file's first import of a bound
/// library, makes none of it.
fn brings_no_bound_client(view: &FileView<'_, '_>, record: &ImportRecord<'_>) -> bool {
    record.external_package().is_some_and(|package| {
        view.factory.generic().bound_client(package).is_some()
            && match crate::catalogue::catalogue().npm(package) {
                Some(client) => !brings_a_client(client, record),
                None => brings_only_error_classes(record),
            }
    })
}

/// Whether an export path of a library names one of its error classes (`APICallError`,
/// `APICallError.isInstance`, `errors.StripeError`): a class (a capitalised segment) whose name
/// ends in `Error` or `Exception` ([`crate::facts::clients::names_an_error_type`]), not a
/// function such as `captureException`. Building, throwing or recognising an error of a library
/// the catalogue does not know is no use of its client.
pub(super) fn names_an_error_class(export_path: &str) -> bool {
    export_path.split('.').any(|segment| {
        segment.starts_with(|first: char| first.is_ascii_uppercase())
            && crate::facts::clients::names_an_error_type(segment)
    })
}

/// Whether every name an import binds is an error class ([`names_an_error_class`]): such an
/// import of a bound library brings no client, not even probably.
pub(super) fn brings_only_error_classes(record: &ImportRecord<'_>) -> bool {
    !record.bindings.is_empty()
        && record
            .bindings
            .iter()
            .all(|binding| match &binding.imported {
                Imported::Module => false,
                Imported::Named(name) => names_an_error_class(name),
            })
}

/// Whether an import of a client package may bring in a client: a default or namespace import
/// does, and one whose names are not read (a `require` kept whole, a dynamic `import()`); a
/// named one when it names one of the library's `probable_names` (any name, when it lists none).
/// `import { Role } from '@prisma/client'` takes an enum the schema generates, no client.
pub(super) fn brings_a_client(
    client: &crate::catalogue::Library,
    record: &ImportRecord<'_>,
) -> bool {
    client.probable_names.is_empty()
        || record.alias.is_some()
        || record.names.is_empty()
        || record
            .names
            .iter()
            .any(|name| client.probable_names.contains(&name.as_str()))
}

/// Whether an import is seen by the type checker alone: written `import type`, in a declaration
/// file, or one the compiler elides: every specifier marked `type`, or (TypeScript) no bound name
/// used as a value. A config that preserves imports (`verbatimModuleSyntax`, or the older
/// `preserveValueImports`/`importsNotUsedAsValues: preserve`) makes the compiler keep those last
/// two as written, so they load their module at run time.
pub(super) fn is_type_only(view: &FileView<'_, '_>, record: &ImportRecord<'_>) -> bool {
    if is_declaration_file(view.input.path) {
        return true;
    }
    if view.input.context.preserves_imports(view.input.path) {
        return record.is_type_only && !record.only_inline_types;
    }
    record.is_type_only || is_used_as_type_only(view, record)
}

/// Whether the file is a TypeScript declaration file (`.d.ts`, `.d.mts`, `.d.cts`): it has no
/// runtime, so everything it imports is type-only.
fn is_declaration_file(path: &str) -> bool {
    [".d.ts", ".d.mts", ".d.cts"]
        .iter()
        .any(|suffix| path.ends_with(suffix))
}

/// Whether a TypeScript import is used only in type positions: some name it binds is used in a
/// type, and none as a value. The compiler elides such an import (unless the config preserves
/// imports), so it is no runtime dependency. An import none of whose names is used at all is
/// still an import of the module as written (a dependency its author declared, which the
/// architecture judges whatever the compiler drops); a side-effect import (`import './x'`)
/// binds nothing and always stays. In a Vue or Svelte component only `import type` is
/// type-only: its template may use any name its script imports.
fn is_used_as_type_only(view: &FileView<'_, '_>, record: &ImportRecord<'_>) -> bool {
    let strict_null_checks = view.input.context.strict_null_checks(view.input.path);
    // A Vue or Svelte component's template uses what its script imports, unseen by the walk.
    view.input.language != crate::language::Language::JavaScript
        && !crate::lang::ecmascript::single_file_components::is_component(view.input.path)
        && matches!(record.form, ImportForm::Static | ImportForm::ImportEquals)
        && !record.bindings.is_empty()
        && record.bindings.iter().all(|binding| {
            view.usage
                .is_never_a_value(&binding.local, strict_null_checks)
        })
        && record
            .bindings
            .iter()
            .any(|binding| view.usage.is_a_type(&binding.local))
}
