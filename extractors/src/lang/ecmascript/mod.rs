//! The extractor shared by TypeScript, TSX and JavaScript.
//!
//! One file is handled in a fixed order, because later steps read what earlier ones found:
//! 0. `walk` walks the tree once: it finds the matches of the language's query patterns (the
//!    `.scm` files, without running the query, which costs more than the walk) and records how
//!    names are used (`usage`) and the scopes around the matches;
//! 1. `imports` reads every import, re-export, `require` and dynamic `import()` matched by the
//!    query, resolves its specifier against the [`crate::resolve::context::ProjectContext`], and records the local
//!    names it binds (`bindings`; `import_calls` reads what `require` and `import()` results are
//!    bound to);
//! 2. `usage` tells value uses from type uses of those names (type-only imports) and which names
//!    the file declares itself (a local `fetch`);
//! 3. `clients` turns constructions, calls and constructor injections of client packages into
//!    `accesses_technology` facts, and a bare import into a probable one (`traced` follows an
//!    option or connection URL through the file's constants, local functions and calls);
//! 4. `http` turns requests through `fetch`, axios, got and undici into `http_call` facts;
//! 5. `routes` turns Express/Fastify/Koa/Hono registrations and NestJS decorators into `route` facts
//!    (`mounts` records the routers and mounts whose prefixes `crate::resolve::links` applies across files),
//!    `node_http` reads the `if`s of raw `http.createServer` handlers, and `next` turns Next.js
//!    route files (`app/**/route.ts`, `pages/api/**`) into `route` facts.
//!
//! Scopes (`scope`) and literal values (`literals`) are helpers for all of them.

pub(crate) mod calls_and_assignments;
pub(crate) mod javascript_spec;
pub(crate) mod nest_versioning;
pub(crate) mod request_links;
pub(crate) mod router_types;
pub(crate) mod single_file_components;
pub(crate) mod typescript_spec;

mod clients;
mod http;
mod imports;
mod literals;
mod mounts;
mod next;
mod node_http;
mod routes;
mod scope;
mod traced;
mod usage;
mod walk;

#[cfg(test)]
mod tests;

use std::cell::RefCell;
use std::collections::HashMap;
use std::time::Instant;

use policies::facts::{Fact, FactKind};

use crate::facts::FactFactory;
use crate::language::ExtractionInput;
use crate::query::QueryHit;
use crate::resolve::links::PathConstant;

use imports::bindings::Bindings;
use imports::ImportRecord;
use usage::Usage;

/// What the steps of one file's extraction share.
struct FileView<'a, 'tree> {
    /// The extraction input (context, path, source, tree).
    input: &'a ExtractionInput<'a>,
    /// Builds facts with this file's evidence.
    factory: FactFactory<'a>,
    /// Every import of the file, in document order.
    imports: Vec<ImportRecord<'tree>>,
    /// Local names bound by those imports.
    bindings: Bindings,
    /// Value and type uses of names, and the names the file declares.
    usage: Usage<'a>,
    /// The scopes around the query matches.
    scopes: walk::ScopeFrames<'tree>,
    /// The scope of each frame computed so far.
    scope_names: RefCell<HashMap<Option<u32>, Option<String>>>,
}

impl FileView<'_, '_> {
    /// The file's source text.
    fn source(&self) -> &str {
        self.input.source
    }

    /// The enclosing scope of a node, for `evidence.scope`: from the walk's frames for a node
    /// the walk matched (once per frame), else by walking down from the root.
    fn scope_of(&self, node: tree_sitter::Node<'_>) -> Option<String> {
        let Some(frame) = self.scopes.frame_of(node) else {
            return scope::enclosing_scope(node, self.input.tree.root_node(), self.input.source);
        };
        if let Some(known) = self
            .scope_names
            .try_borrow()
            .ok()
            .and_then(|names| names.get(&frame).cloned())
        {
            return known;
        }
        let scope = scope::scope_of_ancestors(self.scopes.chain(frame), self.input.source);
        if let Ok(mut names) = self.scope_names.try_borrow_mut() {
            names.insert(frame, scope.clone());
        }
        scope
    }
}

/// The named children of a node, without a cursor (these nodes have few children).
fn named_children(node: tree_sitter::Node<'_>) -> impl Iterator<Item = tree_sitter::Node<'_>> {
    (0..node.named_child_count()).map_while(move |index| node.named_child(index))
}

/// Extracts the facts of one TypeScript, TSX or JavaScript file (unsorted).
/// The value a CommonJS statement `module.exports = value` exports, when `statement` is one.
fn module_exports_value<'tree>(
    statement: tree_sitter::Node<'tree>,
    source: &str,
) -> Option<tree_sitter::Node<'tree>> {
    let assignment = statement
        .named_child(0)
        .filter(|child| child.kind() == "assignment_expression")?;
    let left = crate::syntax::ChildField::child_field(&assignment, "left")?;
    (crate::syntax::text(left, source) == "module.exports")
        .then(|| crate::syntax::ChildField::child_field(&assignment, "right"))
        .flatten()
}

pub(crate) fn extract(input: &ExtractionInput<'_>) -> Vec<Fact> {
    let started = input.query.is_timed().then(Instant::now);
    let walk::Walked {
        hits,
        usage,
        scopes,
        ..
    } = walk::walk(
        input.language,
        input.tree,
        input.source,
        input.context.generic_facts(),
    );
    input.query.record_walk(&hits, started);
    let of_kind = |kind: FactKind| -> Vec<&QueryHit<'_>> {
        hits.iter().filter(|hit| hit.kind == kind).collect()
    };
    let imports = imports::collect(input, &of_kind(FactKind::Import));
    let view = FileView {
        input,
        factory: input.fact_factory(),
        bindings: Bindings::new(&imports),
        usage,
        scopes,
        scope_names: RefCell::new(HashMap::new()),
        imports,
    };
    let mut facts = imports::facts(&view);
    let clients = clients::extract(&view, &of_kind(FactKind::AccessesTechnology));
    facts.extend(http::extract(
        &view,
        &of_kind(FactKind::HttpCall),
        &clients.instances,
    ));
    facts.extend(routes::extract(
        &view,
        &of_kind(FactKind::Route),
        &clients.instances,
    ));
    facts.extend(node_http::extract(&view, &of_kind(FactKind::HttpCall)));
    facts.extend(next::extract(&view));
    facts.extend(routes::role_facts(&view, &of_kind(FactKind::ChecksRole)));
    facts.extend(clients.facts);
    if !clients.classes.is_empty() || !clients.injected.is_empty() {
        if let Ok(mut shared) = input.links.try_borrow_mut() {
            shared.client_aliases.extend(clients.classes);
            shared.alias_uses.extend(clients.injected);
        }
    }
    let scope_of = |node: tree_sitter::Node<'_>| view.scope_of(node);
    let file = crate::facts::calls_and_assignments::FileSyntax {
        source: input.source,
        root: input.tree.root_node(),
        scope_of: &scope_of,
    };
    if view.input.context.generic_facts() {
        facts.extend(crate::facts::calls_and_assignments::facts(
            &view.factory,
            &crate::lang::ecmascript::calls_and_assignments::EcmaScript,
            &hits,
            &file,
        ));
    }
    // The URL constants the file exports, which requests of other files may read (`crate::resolve::links`).
    if input.source.contains("export") {
        let exported = literals::Constants::exported_urls(file.root, input.source);
        if !exported.is_empty() {
            if let Ok(mut shared) = input.links.try_borrow_mut() {
                shared.constants.extend(
                    exported
                        .into_iter()
                        .map(|(name, value)| PathConstant { name, value }),
                );
            }
        }
    }
    facts
}

pub(crate) use http::{based_url, instance_client, note_url_text, static_path, url_path};
