//! `accesses_technology` facts for the npm packages of the infrastructure catalogue
//! (`extractors/catalogue/npm.toml`, listed in `docs/CATALOGUE.md`).
//!
//! A construction (`new Pool()`), a call (`createClient()`, `axios.get(…)`, `drizzle(…)`), a
//! constructor injection (`constructor(private prisma: PrismaClient)`) or a class that extends
//! a client class (`class Cache extends Redis`) of a client export is a definite fact at that
//! site; so is a call of the global `fetch` (not imported, not declared in
//! the file). A client package that is imported (not `import type`) but never used that way gets
//! one probable fact at its first import. A named import of `PrismaClient` from a generated
//! client inside the project counts as `@prisma/client`.
//!
//! Variables and fields that hold a client (`const api = axios.create()`) are remembered as
//! instances, so that `http` can read requests made through them.
//!
//! A class that extends a client class is a client type for the other files too: NestJS's
//! `class PrismaService extends PrismaClient`, injected elsewhere as
//! `constructor(private prisma: PrismaService)`. Each file records its client classes
//! (`RouteLinks::client_aliases`) and its constructor injections of classes it imports from
//! project files (`RouteLinks::alias_uses`); the cross-file join that every run makes gives
//! each such injection the class's fact (`crate::lang::python::typed::link_client_aliases`).
//! The same join gives a client export that a project file re-exports (`export { drizzle } from
//! 'drizzle-orm/mysql2'` in a workspace's database package) to the constructions and calls of it
//! in the files that import it from there (`drizzle(pool)` in an app).

use std::collections::{HashMap, HashSet};

use policies::facts::{Confidence, Fact, FactKind};
use tree_sitter::Node;

use super::imports::bindings::{member_chain, Imported};
use super::imports::{brings_a_client, is_type_only, ImportRecord};
use super::literals;
use super::traced;
use super::FileView;
use crate::catalogue::{catalogue, connection_category, Derive, Library};
use crate::facts::clients::definite_access;
use crate::facts::set;
use crate::query::{Field, QueryHit};
use crate::resolve::context::Resolution;
use crate::resolve::links::{AliasUse, ClientAlias};
use crate::syntax;
use crate::syntax::ChildField;

/// Receivers that hold a client (`api`, `this.http`), with the client's package.
pub(super) type Instances = HashMap<String, &'static str>;

/// The client facts of a file and the client instances it keeps.
pub(super) struct ClientFacts {
    /// `accesses_technology` facts.
    pub facts: Vec<Fact>,
    /// Variables and fields holding a client.
    pub instances: Instances,
    /// The file's classes that extend a client class, each with the fact an injection of it
    /// makes (placed at the injection by the cross-file join).
    pub classes: Vec<ClientAlias>,
    /// The file's constructor injections of classes it imports from project files.
    pub injected: Vec<AliasUse>,
}

/// Global objects through which `fetch` is the global one.
const GLOBAL_OBJECTS: [&str; 4] = ["globalThis", "window", "self", "global"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Use {
    Construct,
    Call,
    Inject,
    /// A parameter of a function or method (not a constructor) typed with a client type.
    Parameter,
    /// A class extends the client class (its instances are clients).
    Extend,
}

/// Reads client uses from the `accesses_technology` matches and the file's imports.
pub(super) fn extract(view: &FileView<'_, '_>, hits: &[&QueryHit<'_>]) -> ClientFacts {
    let source = view.source();
    let mut facts = Vec::new();
    let mut instances = Instances::new();
    let mut classes = reexported_clients(view);
    let mut injected = project_injections(view, hits);
    let mut used: HashSet<&'static str> = HashSet::new();
    let mut used_bound: HashSet<&str> = HashSet::new();
    // A site is a client use only through the global `fetch` or an import of a client package;
    // without either, no call needs reading.
    let may_use_client = source.contains("fetch")
        || view.imports.iter().any(|record| {
            record_client(record).is_some()
                || bound_package(view, record).is_some()
                || imports_a_client_name(record)
        });
    let hits = if may_use_client { hits } else { &[] };
    // Parameters are looked for only where an import binds a client type or module.
    let may_take_client = view.imports.iter().any(|record| {
        record_client(record).is_some_and(|client| {
            record
                .bindings
                .iter()
                .any(|binding| match &binding.imported {
                    Imported::Module => true,
                    // The type itself, or a namespace of it (`Prisma` of
                    // `Prisma.TransactionClient`).
                    Imported::Named(name) => {
                        client.constructs.iter().chain(client.types).any(|path| {
                            path.strip_prefix(name.as_str())
                                .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
                        })
                    }
                })
        })
    });
    let parameters = if may_take_client {
        typed_parameters(view)
    } else {
        Vec::new()
    };
    let sites = hits
        .iter()
        .filter_map(|hit| {
            [
                (Field::Construction, Field::Constructor, Use::Construct),
                (Field::Call, Field::Function, Use::Call),
                (Field::Parameter, Field::Type, Use::Inject),
            ]
            .into_iter()
            .find_map(|(site_field, callee_field, client_use)| {
                Some((hit.node(site_field)?, hit.node(callee_field)?, client_use))
            })
            .or_else(|| hit.node(Field::Base).map(|base| (base, base, Use::Extend)))
        })
        // An injected union names several types, each a use when it is a client type.
        .flat_map(|(site, callee, client_use)| match client_use {
            Use::Inject => named_types(callee)
                .into_iter()
                .map(|type_node| (site, type_node, client_use))
                .collect(),
            _ => vec![(site, callee, client_use)],
        })
        .chain(
            parameters
                .into_iter()
                .map(|(parameter, type_node)| (parameter, type_node, Use::Parameter)),
        );
    for (site, callee, client_use) in sites {
        if client_use == Use::Call && is_global_fetch(view, callee) {
            facts.push(global_fetch_fact(view, site, callee));
            continue;
        }
        let target = match client_use {
            Use::Inject | Use::Parameter => view.bindings.resolve_type(callee, source),
            Use::Construct | Use::Call | Use::Extend => view.bindings.resolve(callee, source),
        };
        let Some(target) = target else {
            continue;
        };
        let Some(record) = view.imports.get(target.import) else {
            continue;
        };
        if let Some(used) =
            project_client_use(view, (site, client_use), record, &target.export_path)
        {
            injected.push(used);
            continue;
        }
        let catalogued = record_client(record).filter(|_| bound_package(view, record).is_none());
        // The default export of a module below the package that stands for one of its
        // exports (`aws-sdk/clients/s3`'s `S3`).
        let module_export = record_client(record)
            .and_then(|client| client.export_path_of(&record.specifier, &target.export_path));
        let export_path = module_export.as_deref().unwrap_or(&target.export_path);
        let Some(client) = catalogued else {
            // A library the spec binds with `clients` (`policies/LANGUAGE.md`): a library the
            // catalogue knows is used where its entry sees a client (or a class of it is
            // extended); of any other, whatever the file constructs, calls or injects.
            if let Some(package) = bound_package(view, record) {
                // A typed parameter is read for the catalogue's client types only.
                let is_use = match record_client(record) {
                    Some(client) => {
                        is_bound_client_use(client, client_use, export_path)
                            || sends_command(client, client_use, export_path, site, source)
                    }
                    None => {
                        client_use != Use::Parameter
                            && !super::imports::names_an_error_class(export_path)
                    }
                };
                if !is_use {
                    continue;
                }
                used_bound.insert(package);
                facts.push(bound_fact(view, site, callee, client_use, package));
            }
            continue;
        };
        let is_command = !accepts(client, client_use, export_path);
        if is_command && !sends_command(client, client_use, export_path, site, source) {
            continue;
        }
        used.insert(client.name);
        // A command sent is no client another request may go through.
        if matches!(client_use, Use::Construct | Use::Call) && !is_command {
            if let Some(key) = instance_key(site, source) {
                instances.entry(key).or_insert(client.name);
            }
        }
        let fact = definite_fact(
            view,
            (site, callee, client_use),
            client,
            record,
            export_path,
        );
        if client_use == Use::Extend {
            classes.extend(client_class(site, source, &fact));
        }
        facts.push(fact);
    }
    let mut reported: HashSet<&'static str> = HashSet::new();
    for record in &view.imports {
        let Some(client) = record_client(record).filter(|_| bound_package(view, record).is_none())
        else {
            continue;
        };
        // An import the compiler elides (`import type`, or one whose names are used only as
        // types) loads nothing at run time: `import { JobStatus } from 'bull'` in a browser
        // component names a string union, no queue. One of error classes alone (`import {
        // HTTPError } from 'ky'`) tells failures apart and calls nothing. Nor is one of a library
        // whose entry says an import alone is none (`probable_on_import = false`).
        if used.contains(client.name)
            || !client.is_probable_on_import
            || !brings_a_client(client, record)
            || super::imports::brings_only_error_classes(record)
            || record.is_type_only
            || is_type_only(view, record)
            || !reported.insert(client.name)
        {
            continue;
        }
        facts.push(probable_fact(view, client, record));
    }
    for record in &view.imports {
        let Some(package) = bound_package(view, record) else {
            continue;
        };
        if used_bound.contains(package)
            || record_client(record).is_some_and(|client| !brings_a_client(client, record))
            || (record_client(record).is_none()
                && super::imports::brings_only_error_classes(record))
            || record.is_type_only
            || is_type_only(view, record)
            || !used_bound.insert(package)
        {
            continue;
        }
        facts.push(bound_import_fact(view, record, package));
    }
    ClientFacts {
        facts,
        instances,
        classes,
        injected,
    }
}

/// The client class a class declaration whose heritage is at `site` makes, with the fact an
/// injection of it makes elsewhere (the extension's technology and package).
fn client_class(site: Node<'_>, source: &str, extension: &Fact) -> Option<ClientAlias> {
    let mut current = site.parent();
    while let Some(node) = current {
        if matches!(
            node.kind(),
            "class_declaration" | "abstract_class_declaration"
        ) {
            let name = syntax::text(node.child_field("name")?, source).to_owned();
            let client = extension.property_str("client").unwrap_or_default();
            let package = extension.property_str("package").unwrap_or_default();
            let mut template = extension.clone();
            template.evidence.message = format!(
                "injection of `{name}`, a client class (it extends `{client}` from `{package}`)"
            )
            .into();
            set(
                &mut template,
                "reason",
                format!("injects `{name}`, which extends `{client}` from `{package}`"),
            );
            set(&mut template, "client", name.as_str());
            return Some(ClientAlias {
                name,
                facts: vec![template],
            });
        }
        if matches!(node.kind(), "class" | "program") {
            return None;
        }
        current = node.parent();
    }
    None
}

/// The constructor injections of classes the file imports by name from project files
/// (`constructor(private prisma: PrismaService)` after `import { PrismaService } from
/// './prisma.service'`): each may be of a client class of that file, which the cross-file join
/// tells.
fn project_injections(view: &FileView<'_, '_>, hits: &[&QueryHit<'_>]) -> Vec<AliasUse> {
    let source = view.source();
    hits.iter()
        .filter_map(|hit| Some((hit.node(Field::Parameter)?, hit.node(Field::Type)?)))
        .flat_map(|(site, union)| {
            named_types(union)
                .into_iter()
                .map(move |type_node| (site, type_node))
        })
        .filter_map(|(site, type_node)| {
            let target = view.bindings.resolve_type(type_node, source)?;
            let record = view.imports.get(target.import)?;
            let Resolution::File(file) = &record.resolution else {
                return None;
            };
            if record.is_type_only || target.export_path.contains('.') {
                return None;
            }
            Some(AliasUse {
                file: file.clone(),
                name: target.export_path,
                fact: view.factory.fact(
                    FactKind::AccessesTechnology,
                    site,
                    Confidence::Definite,
                    view.scope_of(site),
                    "injection of a client class",
                ),
            })
        })
        .collect()
}

/// Whether an import of a project file binds a name that a catalogued library constructs or
/// calls (`import { drizzle } from '@acme/db'`): the file may re-export that library's client.
fn imports_a_client_name(record: &ImportRecord<'_>) -> bool {
    matches!(record.resolution, Resolution::File(_))
        && !record.is_type_only
        && record.bindings.iter().any(|binding| {
            matches!(&binding.imported, Imported::Named(name)
                if catalogue().is_client_name("typescript", name))
        })
}

/// A construction or call of a name imported from a project file that a catalogued library
/// constructs or calls by that name (`drizzle(pool)` after `import { drizzle } from '@acme/db'`,
/// `new PostHog(key)` after `import { PostHog } from '@acme/analytics/server'`): a use of that
/// library's client when the file re-exports it, which the cross-file join tells.
fn project_client_use(
    view: &FileView<'_, '_>,
    (site, client_use): (Node<'_>, Use),
    record: &ImportRecord<'_>,
    export_path: &str,
) -> Option<AliasUse> {
    let Resolution::File(file) = &record.resolution else {
        return None;
    };
    // A generated Prisma client inside the project is `@prisma/client` itself.
    if !matches!(client_use, Use::Construct | Use::Call)
        || record.is_type_only
        || record_client(record).is_some()
        || !catalogue().is_client_name("typescript", export_path)
    {
        return None;
    }
    Some(AliasUse {
        file: file.clone(),
        name: export_path.to_owned(),
        fact: view.factory.fact(
            FactKind::AccessesTechnology,
            site,
            Confidence::Definite,
            view.scope_of(site),
            "use of a client another project file re-exports",
        ),
    })
}

/// The clients of outside libraries the file re-exports, each with the fact a construction or
/// call of it in another file makes: `export { drizzle } from 'drizzle-orm/mysql2'`, `export *
/// from 'ioredis'` (each client export of the library by its plain name), `import { PostHog }
/// from 'posthog-node'; export { PostHog };`. Only exports the library's catalogue entry names
/// as a client (any for a library the spec binds and the catalogue does not know, named one by
/// one); a type-only re-export makes none.
fn reexported_clients(view: &FileView<'_, '_>) -> Vec<ClientAlias> {
    let local_exports = if view.source().contains("export {") || view.source().contains("export{") {
        local_export_names(view)
    } else {
        Vec::new()
    };
    let mut aliases: Vec<ClientAlias> = Vec::new();
    let is_star = |record: &&ImportRecord<'_>| {
        record.form == super::imports::ImportForm::ReExport
            && record.alias.is_none()
            && record.names.is_empty()
    };
    // A name the file exports itself hides a star re-export's, as in JavaScript: explicit
    // re-exports first.
    let explicit = view.imports.iter().filter(|record| !is_star(record));
    for record in explicit.chain(view.imports.iter().filter(is_star)) {
        if record.is_type_only {
            continue;
        }
        let bound = bound_package(view, record);
        let client = record_client(record).filter(|_| bound.is_none());
        if client.is_none() && bound.is_none() {
            continue;
        }
        // (exported name, the library's export path)
        let pairs: Vec<(String, String)> = match record.form {
            super::imports::ImportForm::ReExport if record.alias.is_some() => Vec::new(),
            super::imports::ImportForm::ReExport if record.names.is_empty() => client
                .into_iter()
                .flat_map(|client| client.constructs.iter().chain(client.calls))
                .filter(|path| **path != "default" && !path.contains('.'))
                .map(|path| ((*path).to_owned(), (*path).to_owned()))
                .collect(),
            super::imports::ImportForm::ReExport => export_specifiers(record.node, view.source()),
            super::imports::ImportForm::Static => record
                .bindings
                .iter()
                .filter(|binding| !binding.is_type_only)
                .flat_map(|binding| {
                    let original = match &binding.imported {
                        Imported::Named(name) => name.clone(),
                        Imported::Module => "default".to_owned(),
                    };
                    local_exports
                        .iter()
                        .filter(move |(local, _)| *local == binding.local)
                        .map(move |(_, exported)| (exported.clone(), original.clone()))
                })
                .collect(),
            _ => Vec::new(),
        };
        for (exported, original) in pairs {
            if exported == "default" || aliases.iter().any(|alias| alias.name == exported) {
                continue;
            }
            let is_client = match client {
                Some(client) => {
                    client.constructs.contains(&original.as_str())
                        || client.calls.contains(&original.as_str())
                        || client.types.contains(&original.as_str())
                }
                None => !super::imports::names_an_error_class(&original),
            };
            if !is_client {
                continue;
            }
            let (package, technology) = match client {
                Some(client) => (
                    client.name,
                    match client.by_name.iter().find(|(name, _)| *name == original) {
                        Some((_, category)) => (*category).to_owned(),
                        None => technology(view, client, record, None),
                    },
                ),
                None => {
                    let package = bound.unwrap_or_default();
                    (package, package.to_owned())
                }
            };
            let path = view.input.path;
            let fact = definite_access(
                &view.factory,
                (record.node, None),
                (&technology, package, &exported),
                (
                    format!("use of `{exported}` from `{package}`, which `{path}` re-exports"),
                    format!("uses `{exported}` from `{package}`, re-exported by `{path}`"),
                ),
            );
            aliases.push(ClientAlias {
                name: exported,
                facts: vec![fact],
            });
        }
    }
    aliases
}

/// The `(name, exported name)` pairs of an `export { a, b as c } from '…'` statement.
fn export_specifiers(statement: Node<'_>, source: &str) -> Vec<(String, String)> {
    syntax::named_children(statement)
        .into_iter()
        .filter(|child| child.kind() == "export_clause")
        .flat_map(syntax::named_children)
        .filter(|specifier| {
            specifier.kind() == "export_specifier" && !syntax::has_token(*specifier, "type")
        })
        .filter_map(|specifier| {
            let name = syntax::text(specifier.child_field("name")?, source).to_owned();
            let exported = specifier.child_field("alias").map_or_else(
                || name.clone(),
                |alias| syntax::text(alias, source).to_owned(),
            );
            Some((name, exported))
        })
        .collect()
}

/// The `(local name, exported name)` pairs of the file's top-level `export { a, b as c };`
/// statements (without `from`).
fn local_export_names(view: &FileView<'_, '_>) -> Vec<(String, String)> {
    let source = view.source();
    syntax::named_children(view.input.tree.root_node())
        .into_iter()
        .filter(|node| node.kind() == "export_statement" && node.child_field("source").is_none())
        .flat_map(|statement| export_specifiers(statement, source))
        .collect()
}

/// Whether the catalogue takes a use of an export of `client` for a use of its client. A class
/// that extends one the library constructs is a client of its own; the entry's `extends = false`
/// says when it is not.
fn accepts(client: &Library, client_use: Use, export_path: &str) -> bool {
    match client_use {
        Use::Construct => client.constructs.contains(&export_path),
        // A client type that is no class (`AxiosInstance`) is taken or injected too.
        Use::Inject | Use::Parameter => {
            client.constructs.contains(&export_path) || client.types.contains(&export_path)
        }
        Use::Extend => client.is_extended_by_use && client.constructs.contains(&export_path),
        Use::Call => client.calls.contains(&export_path),
    }
}

/// Whether the construction `site` of `export_path` builds a request value that its library's
/// client sends ([`Library::commands`]): the argument of a `.send(…)` call
/// (`await client.send(new CopyObjectCommand(params))`, the client made by another file), or a
/// `const` that a `.send(…)` of the same block takes (`const command = new PutObjectCommand(…);
/// await s3.send(command)`). A command built and handed elsewhere sends nothing here.
fn sends_command(
    client: &Library,
    client_use: Use,
    export_path: &str,
    site: Node<'_>,
    source: &str,
) -> bool {
    if client_use != Use::Construct
        || client.commands.is_empty()
        || export_path.contains('.')
        || !export_path.ends_with(client.commands)
    {
        return false;
    }
    let mut node = site;
    let mut parent = site.parent();
    while let Some(above) = parent.filter(|above| {
        matches!(
            above.kind(),
            "parenthesized_expression" | "as_expression" | "satisfies_expression"
        )
    }) {
        node = above;
        parent = above.parent();
    }
    let Some(parent) = parent else {
        return false;
    };
    match parent.kind() {
        "arguments" => parent.parent().is_some_and(|call| is_send(call, source)),
        "variable_declarator" if parent.child_field("value") == Some(node) => {
            let Some(name) = parent
                .child_field("name")
                .filter(|name| name.kind() == "identifier")
            else {
                return false;
            };
            let block = std::iter::successors(parent.parent(), |above| above.parent())
                .find(|above| matches!(above.kind(), "statement_block" | "program"));
            block.is_some_and(|block| {
                sends_name(
                    source
                        .get(block.start_byte()..block.end_byte())
                        .unwrap_or(""),
                    syntax::text(name, source),
                )
            })
        }
        _ => false,
    }
}

/// Whether `call` is a call of a `send` method (`client.send(…)`, `this.s3.send(…)`).
fn is_send(call: Node<'_>, source: &str) -> bool {
    call.kind() == "call_expression"
        && call
            .child_field("function")
            .filter(|function| function.kind() == "member_expression")
            .and_then(|function| function.child_field("property"))
            .is_some_and(|property| syntax::text(property, source) == "send")
}

/// Whether `text` holds a `.send(name` call whose first argument is the name alone.
fn sends_name(text: &str, name: &str) -> bool {
    text.match_indices(".send(").any(|(at, call)| {
        let rest = text.get(at + call.len()..).unwrap_or("").trim_start();
        rest.strip_prefix(name)
            .is_some_and(|after| after.trim_start().starts_with([')', ',']))
    })
}

/// Whether a use of an export of a library the spec binds, which the catalogue also knows, is a
/// use of its client: the catalogue judges it, as without the binding (which names the store).
/// `types.setTypeParser(…)` of a bound `pg` sets a parser; `new Prisma.Decimal(x)` of a bound
/// `@prisma/client` builds a number. A class of the library that the file extends is one, as
/// the catalogue lists few of the classes a model extends (a Sequelize `Model`), unless the
/// catalogue says the package also exports plain values (its `probable_names`, the only names
/// that may bring a client) and the class is none of them.
fn is_bound_client_use(client: &Library, client_use: Use, export_path: &str) -> bool {
    if accepts(client, client_use, export_path) {
        return true;
    }
    // A function's parameter is read for the catalogue's client types only: bullmq's
    // `(options: QueueOptions)` takes options.
    if client_use == Use::Parameter {
        return false;
    }
    // A class of the library extended (a Sequelize `Model`) is one.
    if client_use == Use::Extend {
        let root = export_path.split('.').next().unwrap_or(export_path);
        return client.probable_names.is_empty() || client.probable_names.contains(&root);
    }
    false
}

/// The outside package an import brings in when the spec binds it with `clients`: the binding
/// overrides the catalogue, and every construction, call or injection of the package is a use.
/// A binding of a module below the package (`clients: "aws-sdk/clients/s3"` beside a node that
/// binds `aws-sdk`) is the longer one, and names the uses of its imports.
fn bound_package<'r>(view: &FileView<'_, '_>, record: &'r ImportRecord<'_>) -> Option<&'r str> {
    let package = record.external_package()?;
    let generic = view.factory.generic();
    if record.specifier.len() > package.len() && record.specifier.starts_with(package) {
        if let Some(module) = generic
            .bound_client(&record.specifier)
            .filter(|library| library.len() > package.len())
            .and_then(|library| record.specifier.get(..library.len()))
        {
            return Some(module);
        }
    }
    generic.bound_client(package).is_some().then_some(package)
}

/// A definite use of a bound library's client. Its technology is the package: the engine
/// resolves the fact through the entity whose `clients` list the library.
fn bound_fact(
    view: &FileView<'_, '_>,
    site: Node<'_>,
    callee: Node<'_>,
    client_use: Use,
    package: &str,
) -> Fact {
    let from = format!("bound client `{package}`");
    use_fact(
        view,
        (site, callee),
        client_use,
        package,
        package.to_owned(),
        &from,
    )
}

/// A bare import of a bound library: a probable use of its client.
fn bound_import_fact(view: &FileView<'_, '_>, record: &ImportRecord<'_>, package: &str) -> Fact {
    let message = format!("import of bound client `{package}`");
    import_fact(view, record, package, package.to_owned(), message)
}

/// The client package an import brings in, if any.
pub(super) fn record_client(record: &ImportRecord<'_>) -> Option<&'static Library> {
    match record.external_package() {
        Some(package) => client_package(package),
        None => record
            .bindings
            .iter()
            .any(|binding| binding.imported == Imported::Named("PrismaClient".to_owned()))
            .then(|| client_package("@prisma/client"))
            .flatten(),
    }
}

/// The typed parameters of the file's functions and methods, constructors left out (their
/// parameters are injections, read from the query matches): `function list(api: AxiosInstance)`,
/// `(db: PrismaClient) => …`, `(redis: Redis | null = null)`, with each type it names (a name or
/// `pkg.Name`, see `named_types`). Signatures without a body
/// (overloads, `declare`, interfaces, function types) take nothing, and neither does a
/// parameter the body never names (vendure's TypeORM logger ignores its query runner).
fn typed_parameters<'a>(view: &FileView<'a, '_>) -> Vec<(Node<'a>, Node<'a>)> {
    let source = view.source();
    let mut found = Vec::new();
    for node in syntax::descendants(view.input.tree.root_node()) {
        if node.kind() != "formal_parameters" {
            continue;
        }
        let Some(function) = node.parent() else {
            continue;
        };
        let is_function = match function.kind() {
            "function_declaration"
            | "function_expression"
            | "function"
            | "arrow_function"
            | "generator_function_declaration"
            | "generator_function" => true,
            "method_definition" => function
                .child_field("name")
                .is_some_and(|name| syntax::text(name, source) != "constructor"),
            _ => false,
        };
        let Some(body) = function.child_field("body").filter(|_| is_function) else {
            continue;
        };
        for parameter in syntax::named_children(node) {
            if !matches!(
                parameter.kind(),
                "required_parameter" | "optional_parameter"
            ) {
                continue;
            }
            // Taken only to fit a signature: the body never names it.
            if parameter
                .child_field("pattern")
                .filter(|pattern| pattern.kind() == "identifier")
                .is_some_and(|pattern| !names(body, syntax::text(pattern, source), source))
            {
                continue;
            }
            let annotated = parameter
                .child_field("type")
                .and_then(|annotation| syntax::named_children(annotation).into_iter().next());
            for type_node in annotated.map(named_types).unwrap_or_default() {
                found.push((parameter, type_node));
            }
        }
    }
    found
}

/// Whether `body` names `name` (an identifier, or a shorthand property `{ name }`).
fn names(body: Node<'_>, name: &str, source: &str) -> bool {
    syntax::descendants(body).into_iter().any(|node| {
        matches!(node.kind(), "identifier" | "shorthand_property_identifier")
            && syntax::text(node, source) == name
    })
}

/// The types a parameter's type names: a name (`Redis`, `pg.Pool`), a generic type's name
/// (`Model<User>` is a `Model`), and those of each member of a union or parenthesized type
/// (`Redis | Cluster`, `(Redis | Cluster) | undefined`; `null`, `string`… name none) and of
/// each property of an object type (`{ db: Pool; id: string }`).
fn named_types(node: Node<'_>) -> Vec<Node<'_>> {
    match node.kind() {
        "type_identifier" | "nested_type_identifier" => vec![node],
        "generic_type" => node
            .child_by_field_name("name")
            .filter(|name| matches!(name.kind(), "type_identifier" | "nested_type_identifier"))
            .into_iter()
            .collect(),
        "union_type" | "parenthesized_type" => syntax::named_children(node)
            .into_iter()
            .flat_map(named_types)
            .collect(),
        // A parameter object's properties (`params: { prisma: PrismaClient; id: string }`).
        "object_type" => syntax::named_children(node)
            .into_iter()
            .filter(|member| member.kind() == "property_signature")
            .filter_map(|property| property.child_field("type"))
            .filter_map(|annotation| syntax::named_children(annotation).into_iter().next())
            .flat_map(named_types)
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether a callee is the global `fetch` (`fetch`, `globalThis.fetch`, `window.fetch`).
pub(super) fn is_global_fetch(view: &FileView<'_, '_>, callee: Node<'_>) -> bool {
    match member_chain(callee, view.source()) {
        Some(("fetch", members)) if members.is_empty() => {
            !view.bindings.is_bound("fetch") && !view.usage.is_declared("fetch")
        }
        Some((root, members)) => {
            members == ["fetch"] && GLOBAL_OBJECTS.contains(&root) && !view.bindings.is_bound(root)
        }
        None => false,
    }
}

/// Where a client created at `site` is kept: `const api = …`, `api = …`, `this.http = …`, a
/// class field `http = …` (as `this.http`), or the file's default export (`export default …`,
/// as `default`).
pub(super) fn instance_key(site: Node<'_>, source: &str) -> Option<String> {
    let mut value = site;
    while let Some(parent) = value.parent() {
        if !matches!(
            parent.kind(),
            "await_expression"
                | "parenthesized_expression"
                | "as_expression"
                | "non_null_expression"
                | "satisfies_expression"
        ) {
            break;
        }
        value = parent;
    }
    let parent = value.parent()?;
    let key = match parent.kind() {
        "variable_declarator" => syntax::text(parent.child_field("name")?, source).to_owned(),
        "public_field_definition" => {
            format!("this.{}", syntax::text(parent.child_field("name")?, source))
        }
        "field_definition" => format!(
            "this.{}",
            syntax::text(parent.child_field("property")?, source)
        ),
        "assignment_expression" => syntax::compact_text(parent.child_field("left")?, source, 120),
        // `export default axios.create(…)`: the file's default export.
        "export_statement" => "default".to_owned(),
        _ => return None,
    };
    Some(key)
}

/// The npm library of the catalogue named `package`.
fn client_package(package: &str) -> Option<&'static Library> {
    catalogue().npm(package)
}

/// The technology of a use of `client` imported by `record`, at `site` when the use is a
/// construction or call (whose arguments may name the store).
fn technology(
    view: &FileView<'_, '_>,
    client: &Library,
    record: &ImportRecord<'_>,
    site: Option<Node<'_>>,
) -> String {
    let path = view.input.path;
    let context = view.input.context;
    let derived = match client.derive {
        Derive::Fixed
        | Derive::DjangoSettings
        | Derive::DjangoCaches
        | Derive::SpringDatasource
        | Derive::ConfiguredStore => None,
        Derive::PrismaSchema => context.prisma_category(path),
        Derive::DrizzleModule => drizzle_module(client, &record.specifier)
            .or_else(|| {
                view.imports
                    .iter()
                    .find_map(|other| drizzle_module(client, &other.specifier))
            })
            .or_else(|| context.drizzle_category(path)),
        Derive::Connection | Derive::Options | Derive::Argument => {
            site.and_then(|site| argument_category(view, client, site))
        }
    };
    derived.unwrap_or(client.category).to_owned()
}

/// The category of a Drizzle dialect module (`drizzle-orm/node-postgres` → `postgres`).
fn drizzle_module(client: &Library, specifier: &str) -> Option<&'static str> {
    let module = specifier
        .strip_prefix(client.name)?
        .strip_prefix('/')?
        .split('/')
        .next()?;
    client
        .modules
        .iter()
        .find(|(name, _)| *name == module)
        .map(|(_, category)| *category)
}

/// The category the arguments of a construction or call name: a connection URL or driver name
/// as first argument (`new Sequelize('postgres://…')`), the first argument through the entry's
/// `arguments`, or an option property of an options object (`{ dialect: 'postgres' }`), these
/// last traced through the file's constants, local functions and calls (`traced`).
fn argument_category(
    view: &FileView<'_, '_>,
    client: &Library,
    site: Node<'_>,
) -> Option<&'static str> {
    let source = view.source();
    let arguments = literals::arguments(site.child_field("arguments")?);
    let first = arguments
        .first()
        .and_then(|argument| literals::static_string(*argument, source));
    match client.derive {
        Derive::Argument => first.and_then(|first| client.argument_category(&first)),
        Derive::Connection => first.as_deref().and_then(connection_category),
        Derive::Options => traced::category(
            view.input.tree.root_node(),
            source,
            client.options,
            &arguments,
        ),
        Derive::Fixed
        | Derive::PrismaSchema
        | Derive::DrizzleModule
        | Derive::DjangoSettings
        | Derive::DjangoCaches
        | Derive::SpringDatasource
        | Derive::ConfiguredStore => None,
    }
}

fn definite_fact(
    view: &FileView<'_, '_>,
    (site, callee, client_use): (Node<'_>, Node<'_>, Use),
    client: &Library,
    record: &ImportRecord<'_>,
    export_path: &str,
) -> Fact {
    let package = client.name;
    let technology = match client.by_name.iter().find(|(name, _)| *name == export_path) {
        Some((_, category)) => (*category).to_owned(),
        None => technology(view, client, record, Some(site)),
    };
    use_fact(
        view,
        (site, callee),
        client_use,
        package,
        technology,
        &format!("`{package}`"),
    )
}

/// The definite fact of a construction, call or injection of a client from `package`; `from`
/// names the package in the message.
fn use_fact(
    view: &FileView<'_, '_>,
    (site, callee): (Node<'_>, Node<'_>),
    client_use: Use,
    package: &str,
    technology: String,
    from: &str,
) -> Fact {
    let client_name = view.bindings.canonical_text(callee, view.source());
    let (noun, verb) = match client_use {
        Use::Construct => ("construction", "constructs"),
        Use::Call => ("call", "calls"),
        Use::Inject => ("injection", "injects"),
        Use::Parameter => ("parameter", "takes"),
        Use::Extend => ("extension", "extends"),
    };
    definite_access(
        &view.factory,
        (site, view.scope_of(site)),
        (&technology, package, &client_name),
        (
            format!("{noun} of `{client_name}` from {from}"),
            format!("{verb} `{client_name}` from `{package}`"),
        ),
    )
}

fn global_fetch_fact(view: &FileView<'_, '_>, site: Node<'_>, callee: Node<'_>) -> Fact {
    let source = view.source();
    let client_name = syntax::compact_text(callee, source, 120);
    let mut fact = view.factory.fact(
        FactKind::AccessesTechnology,
        site,
        Confidence::Definite,
        view.scope_of(site),
        format!("call of global `{client_name}`"),
    );
    fact.technology = Some("external_api".into());
    set(&mut fact, "client", client_name.as_str());
    set(&mut fact, "reason", format!("calls global `{client_name}`"));
    fact
}

fn probable_fact(view: &FileView<'_, '_>, client: &Library, record: &ImportRecord<'_>) -> Fact {
    let package = client.name;
    let message = format!("import of client package `{package}`");
    import_fact(
        view,
        record,
        package,
        technology(view, client, record, None),
        message,
    )
}

/// The probable fact of an import of a client package that the file never uses as a client.
fn import_fact(
    view: &FileView<'_, '_>,
    record: &ImportRecord<'_>,
    package: &str,
    technology: String,
    message: String,
) -> Fact {
    let mut fact = view.factory.fact(
        FactKind::AccessesTechnology,
        record.node,
        Confidence::Probable,
        view.scope_of(record.node),
        message,
    );
    fact.technology = Some(technology.into());
    set(&mut fact, "package", package);
    set(
        &mut fact,
        "reason",
        format!("imports `{package}` without constructing or calling a client"),
    );
    fact
}
