//! The local names a file's imports bind, and what a callee expression refers to through them.
//!
//! `import pg from 'pg'`, `import * as pg from 'pg'` and `const pg = require('pg')` bind `pg` to
//! the module object; `import { Pool as P } from 'pg'` and `const { Pool: P } = require('pg')`
//! bind `P` to the export `Pool`. A callee then reads as an export path of the module:
//! `new pg.Pool()` and `new P()` are both `Pool`, `axios(…)` is `default`, `axios.get(…)` is `get`,
//! `MongoClient.connect(…)` is `MongoClient.connect`.

use std::collections::HashMap;

use tree_sitter::Node;

use super::ImportRecord;
use crate::syntax;
use crate::syntax::ChildField;

/// What an imported local name stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::lang::ecmascript) enum Imported {
    /// The module object (default or namespace import, `require` result).
    Module,
    /// A named export.
    Named(String),
}

/// One local name bound by an import.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::lang::ecmascript) struct Binding {
    /// The local name.
    pub local: String,
    /// What it stands for.
    pub imported: Imported,
    /// Whether it was imported with `type` (usable in type positions only).
    pub is_type_only: bool,
}

/// A callee resolved through an import binding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::lang::ecmascript) struct Target {
    /// Index of the import record in the file's import list.
    pub import: usize,
    /// The export path within the module: `default`, `Pool`, `MongoClient.connect`.
    pub export_path: String,
}

/// Local names bound by a file's imports (the first binding of a name wins).
#[derive(Debug, Default)]
pub(in crate::lang::ecmascript) struct Bindings {
    by_local: HashMap<String, (usize, Imported)>,
}

impl Bindings {
    /// Collects the bindings of every import record.
    pub fn new(imports: &[ImportRecord<'_>]) -> Self {
        let mut by_local = HashMap::new();
        for (index, record) in imports.iter().enumerate() {
            for binding in &record.bindings {
                by_local
                    .entry(binding.local.clone())
                    .or_insert_with(|| (index, binding.imported.clone()));
            }
        }
        Self { by_local }
    }

    /// Whether an import binds `local`.
    pub fn is_bound(&self, local: &str) -> bool {
        self.by_local.contains_key(local)
    }

    /// The text of a callee or type reference with an aliased named import spelled by its export
    /// name: `new PgClient()` after `import { Client as PgClient } from 'pg'` reads `Client`. A
    /// member chain split over lines (`axios\n  .create()`) reads as written on one line
    /// (`axios.create`): its spaces are layout, not part of a name.
    pub fn canonical_text(&self, node: Node<'_>, source: &str) -> String {
        let written = syntax::compact_text(node, source, 120);
        let member_chain = written.chars().all(|character| {
            character.is_alphanumeric() || matches!(character, '_' | '$' | '#' | '.' | '?' | ' ')
        });
        let written = match member_chain && written.contains(' ') {
            true => written.replace(' ', ""),
            false => written,
        };
        let (root, rest) = match written.split_once('.') {
            Some((root, rest)) => (root, Some(rest)),
            None => (written.as_str(), None),
        };
        match self.by_local.get(root) {
            Some((_, Imported::Named(name))) if name != root => match rest {
                Some(rest) => format!("{name}.{rest}"),
                None => name.clone(),
            },
            _ => written,
        }
    }

    /// What an identifier or member chain (`P`, `pg.Pool`, `Redis.Cluster`) refers to.
    pub fn resolve(&self, callee: Node<'_>, source: &str) -> Option<Target> {
        let (root, members) = match member_chain(callee, source) {
            Some((root, members)) => (root.to_owned(), members),
            // A field that holds a module (`new this.AWS.S3Client(…)` after
            // `this.AWS = await import('@aws-sdk/client-s3')`).
            None => this_field_chain(callee, source)?,
        };
        let (import, imported) = self.by_local.get(&root)?;
        let export_path = match (imported, members.is_empty()) {
            (Imported::Module, true) => "default".to_owned(),
            (Imported::Module, false) => members.join("."),
            (Imported::Named(name), true) => name.clone(),
            (Imported::Named(name), false) => format!("{name}.{}", members.join(".")),
        };
        Some(Target {
            import: *import,
            export_path,
        })
    }

    /// What a type reference (`PrismaClient`, `pg.Pool`) refers to.
    pub fn resolve_type(&self, type_node: Node<'_>, source: &str) -> Option<Target> {
        match type_node.kind() {
            "type_identifier" => {
                let (import, imported) = self.by_local.get(syntax::text(type_node, source))?;
                let export_path = match imported {
                    Imported::Module => "default".to_owned(),
                    Imported::Named(name) => name.clone(),
                };
                Some(Target {
                    import: *import,
                    export_path,
                })
            }
            "nested_type_identifier" => {
                let text: String = syntax::text(type_node, source).split_whitespace().collect();
                let (root, rest) = text.split_once('.')?;
                let (import, imported) = self.by_local.get(root)?;
                let export_path = match imported {
                    Imported::Module => rest.to_owned(),
                    Imported::Named(name) => format!("{name}.{rest}"),
                };
                Some(Target {
                    import: *import,
                    export_path,
                })
            }
            _ => None,
        }
    }
}

/// Splits `this.a.b` into the field `this.a` and the member names after it; `None` for
/// anything else.
fn this_field_chain<'s>(node: Node<'_>, source: &'s str) -> Option<(String, Vec<&'s str>)> {
    let mut members = Vec::new();
    let mut current = node;
    loop {
        if current.kind() != "member_expression" {
            return None;
        }
        let property = current.child_field("property")?;
        if property.kind() != "property_identifier" {
            return None;
        }
        let object = current.child_field("object")?;
        if object.kind() == "this" {
            members.reverse();
            return Some((format!("this.{}", syntax::text(property, source)), members));
        }
        members.push(syntax::text(property, source));
        current = object;
    }
}

/// Splits `a.b.c` into its root identifier and member names; `None` for anything else
/// (calls, `this`, computed members, optional chains are read through).
pub(in crate::lang::ecmascript) fn member_chain<'s>(
    node: Node<'_>,
    source: &'s str,
) -> Option<(&'s str, Vec<&'s str>)> {
    // Iterative, so that a pathological chain cannot exhaust the stack.
    let mut members = Vec::new();
    let mut current = node;
    loop {
        match current.kind() {
            "identifier" => {
                members.reverse();
                return Some((syntax::text(current, source), members));
            }
            "member_expression" => {
                let property = current.child_field("property")?;
                if property.kind() != "property_identifier" {
                    return None;
                }
                members.push(syntax::text(property, source));
                current = current.child_field("object")?;
            }
            "parenthesized_expression" | "non_null_expression" => {
                current = syntax::named_children(current)
                    .into_iter()
                    .find(|child| child.kind() != "comment")?;
            }
            _ => return None,
        }
    }
}
