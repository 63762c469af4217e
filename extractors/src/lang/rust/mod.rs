//! The Rust extractor: `use` paths and `mod x;` declarations resolved to module files of the
//! project's crates (`context::cargo`), and infrastructure clients.
//!
//! A file's module path comes from its place under its crate's module folder (`src/a/b.rs` and
//! `src/a/b/mod.rs` are `a::b`; a target's root file, `lib.rs`, `main.rs`, `src/bin/x.rs`,
//! `tests/x.rs`…, is the root), followed by the inline modules around the declaration
//! (`mod tests { use super::*; }`). A helper module of a folder of targets (`tests/common/mod.rs`)
//! has no root of its own: a path that reaches it resolves to each target that declares the
//! helper (`pending.rs`). `crate::`, `self::` and `super::` paths are read against it; a
//! path starting with a workspace crate's name (`-` written `_`, or the name a dependency renames
//! it to) goes to that crate, and one starting with a module declared in the file's module
//! (`mod model;` then `use model::User;`, Rust 2018's uniform paths) to that module. `mod x;` is `x.rs` or `x/mod.rs` in the module's folder, or the file
//! its `#[path = "…"]` attribute names. A path through a `#[path]` module goes on in the file the
//! attribute names, whose modules live beside it as a `mod.rs`'s do (`pending.rs`), and a `mod
//! x;` no file holds at its place is taken from beside the declaring file (where rustc looks when
//! a `#[path]` reaches that file). A `use` naming such a module itself (`use crate::schema;`, or a
//! module beside its file) lands on the module's file. In a file a `#[path]` reaches (or one
//! below such a file), `self::` and `super::` paths, and paths that start at a module the file
//! declares, are read against the module path rustc gives the file (the declaring module's
//! child), not against its place (`pending.rs`). The deepest prefix of the path that is a module file is the
//! resolved file (so `use crate::db::Pool` resolves to `src/db.rs`, and `use shop_core::Order`
//! to the crate's root). Other first segments (`std`, `sqlx`, a renamed registry release of a
//! workspace crate) are `external`. One fact per distinct file a declaration's paths reach,
//! with the paths' last segments as `names`.
//!
//! Unresolved (an `import` without `resolved`): `mod x;` with no file (unless a `#[cfg]` or
//! `#[cfg_attr]` makes the file optional or moves it: then no fact), `super::` above the crate
//! root, and a path that goes on through a module no file holds when the deepest module file
//! does not declare that name at its top level (`use crate::missing::X`; `pending.rs`, with
//! the names of `declarations.rs`). The last waits for the second pass, when every extracted
//! file's names are known; a module file lintel did not extract, or one a glob `use` or an
//! `include!` leaves open, keeps the path resolved to it.
//!
//! A name the resolved module only re-exports (`pub use config::CONFIG;` in the crate root) is
//! moved to the file that declares it once every file's facts are in (`reexports.rs`).

pub(crate) mod calls_and_assignments;
pub(crate) mod declarations;
mod pending;
mod recovery;
pub(crate) mod reexports;
pub(crate) mod spec;
pub(crate) mod test_modules;
pub(crate) mod walk;
pub(crate) mod web;

use crate::lang::rust::walk::{field_child, Child};
use std::collections::BTreeMap;

use policies::facts::{Fact, FactKind};
use tree_sitter::Node;

use crate::facts::clients::{ClientImport, ClientMatcher, ClientSite, ClientUse};
use crate::facts::imports::{self, ImportSite};
use crate::language::ExtractionInput;
use crate::query::Field;
use crate::resolve::context::paths::{file_name, parent_dir};
use crate::resolve::context::{attribute_path_target, Crate, Resolution};
use crate::resolve::deferred::{Anchors, Output};
use crate::source_scope;
use crate::syntax::{self, named_children};

/// Use trees nest rarely; deeper input is ignored rather than risking the stack.
const MAX_USE_DEPTH: usize = 32;

/// How many characters of a `use` declaration's tree its facts' `specifier` keeps.
pub(crate) const SPECIFIER_LIMIT: usize = 300;

/// One path of a use tree: its segments and local alias.
#[derive(Debug, Clone)]
struct UsePath {
    segments: Vec<String>,
    alias: Option<String>,
}

/// Extracts the facts of one Rust file (unsorted).
pub(crate) fn extract(input: &ExtractionInput<'_>) -> Vec<Fact> {
    let source = input.source;
    let hits = input.query.walked(|| {
        crate::lang::rust::walk::hits(input.tree, source, input.context.generic_facts())
    });
    let factory = input.fact_factory();
    let root = input.tree.root_node();
    let scope_of = |node: Node<'_>| source_scope::enclosing(node, root, source, scope_name);
    let crates = input.context.crates();
    let own_crate = crates.containing(input.path);
    let own_module = own_crate
        .as_ref()
        .map(|krate| module_of(input.path, krate))
        .unwrap_or_default();
    // A `use` through a module no file holds waits for what the other files declare.
    let mut out = Output::new(Anchors::new(root, source, scope_name));
    let facts = &mut out.facts;
    let mut deferred = Vec::new();
    let mut bindings: BTreeMap<String, String> = BTreeMap::new();
    let mut client_imports = Vec::new();
    let local = LocalNames::new(&hits, source, root);
    // The modules the file declares (`mod x;`), by the inline modules around them: a path may
    // start at one (`#[path = "unix.rs"] mod imp;` then `use imp::Pipe;`), and is then read
    // against the file's module like a `self::` path.
    let declared_modules: Vec<(Vec<String>, String)> = hits
        .iter()
        .filter(|hit| hit.kind == FactKind::Import)
        .filter_map(|hit| Some((hit.node(Field::Statement)?, hit.node(Field::Specifier)?)))
        .map(|(statement, name)| {
            (
                inline_modules(statement, source),
                syntax::text(name, source).to_owned(),
            )
        })
        .collect();
    for hit in hits.iter().filter(|hit| hit.kind == FactKind::Import) {
        let Some(statement) = hit.node(Field::Statement) else {
            continue;
        };
        let inline = inline_modules(statement, source);
        if let Some(name) = hit.node(Field::Specifier) {
            let name = syntax::text(name, source).to_owned();
            let Some(resolution) = module_file(
                input,
                (crates, own_crate.as_ref()),
                &own_module,
                statement,
                &inline,
                &name,
            ) else {
                continue;
            };
            let site = ImportSite::new(
                statement,
                name,
                resolution,
                test_modules::MODULE_DECLARATION,
            );
            if imports::kept(&factory, &site.resolution) {
                let mut fact = imports::fact(&factory, &site, scope_of(statement));
                // `#[cfg(test)] mod tests;`: the module's file is test code (`test_modules`).
                if is_test_code(statement, source) {
                    fact.properties
                        .insert("testOnly", policies::facts::PropertyValue::Bool(true));
                }
                facts.push(fact);
            }
            continue;
        }
        let Some(argument) = field_child(statement, Child::Argument) else {
            continue;
        };
        let mut paths = Vec::new();
        expand(argument, source, &[], None, 0, &mut paths);
        let mut module = own_module.clone();
        module.extend(inline.iter().cloned());
        let mut groups: Vec<(Resolved, Vec<String>)> = Vec::new();
        for path in &paths {
            let starts_at_module = path.segments.len() > 1
                && path.segments.first().is_some_and(|first| {
                    declared_modules
                        .iter()
                        .any(|(modules, name)| *modules == inline && name == first)
                });
            let segments = if starts_at_module {
                std::iter::once("self".to_owned())
                    .chain(path.segments.iter().cloned())
                    .collect()
            } else {
                path.segments.clone()
            };
            let resolved = match local.rooted(&segments, &inline, statement) {
                Rooted::Path(segments) => resolve(input, own_crate.as_ref(), &module, &segments),
                Rooted::Here => Resolution::File(input.path.to_owned()).into(),
            };
            let resolution = &resolved.resolution;
            if let Some(last) = path.segments.last().filter(|last| *last != "*") {
                let local = path.alias.clone().unwrap_or_else(|| last.clone());
                bindings.insert(local, path.segments.join("::"));
            }
            client_imports.push(ClientImport {
                node: statement,
                path: path.segments.join("::"),
                is_project: !matches!(resolution, Resolution::External { .. }),
            });
            let name = path.segments.last().cloned().unwrap_or_default();
            match groups.iter_mut().find(|(known, _)| *known == resolved) {
                Some((_, names)) => names.push(name),
                None => groups.push((resolved, vec![name])),
            }
        }
        if groups.iter().any(|(resolved, _)| resolved.waits()) {
            deferred.push(pending::PendingUse::new(
                &mut out.anchors,
                statement,
                syntax::compact_text(argument, source, SPECIFIER_LIMIT),
                groups,
                (inline, is_test_code(statement, source)),
            ));
            continue;
        }
        let groups = groups
            .into_iter()
            .map(|(resolved, names)| (resolved.resolution, names))
            .collect();
        facts.extend(use_facts(&factory, statement, argument, groups, &scope_of));
    }
    let sites: Vec<ClientSite<'_>> = hits
        .iter()
        .filter(|hit| hit.kind == FactKind::AccessesTechnology)
        .filter_map(|hit| {
            let call = hit.node(Field::Call)?;
            let callee = without_turbofish(&syntax::unspaced_text(
                hit.node(Field::Function)?,
                source,
                300,
            ));
            let path = client_path(&callee, &bindings, crates, input.path)?;
            Some(ClientSite {
                node: call,
                use_kind: ClientUse::Call,
                path,
                is_qualified: true,
                argument: None,
                options: Vec::new(),
            })
        })
        .collect();
    let mut sites = sites;
    sites.extend(method_sites(root, source, &client_imports));
    let generic = input.context.generic();
    // A library the spec binds with `clients` has no type list: any of its types is a client.
    let bound = |path: &str| generic.bound_client(path).is_some();
    let bound: Option<&dyn Fn(&str) -> bool> = generic.has_bound_clients().then_some(&bound);
    if crate::facts::clients::imports_a_client_type("rust", "::", bindings.values())
        || bound.is_some_and(|bound| bindings.values().any(|path| bound(path)))
    {
        sites.extend(typed_sites(
            root,
            source,
            &bindings,
            (crates, input.path),
            bound,
        ));
    }
    let matcher = ClientMatcher {
        rules: crate::catalogue::catalogue().libraries("rust"),
        separator: "::",
    };
    let probable_imports = probable_imports(&client_imports);
    facts.extend(matcher.facts(&factory, &sites, &probable_imports, &scope_of));
    facts.extend(matcher.bound_facts(&factory, &sites, &probable_imports, &scope_of));
    let file = crate::facts::calls_and_assignments::FileSyntax {
        source,
        root,
        scope_of: &scope_of,
    };
    if input.context.generic_facts() {
        let grammar = crate::lang::rust::calls_and_assignments::Rust { source };
        facts.extend(crate::facts::calls_and_assignments::facts(
            &factory, &grammar, &hits, &file,
        ));
    }
    let resolve_item =
        |written: &str| item_file(input, own_crate.as_ref(), &own_module, &bindings, written);
    facts.extend(crate::lang::rust::web::facts(
        &factory,
        &hits,
        &file,
        &resolve_item,
        &input.links,
    ));
    for part in deferred {
        out.defer(Box::new(part));
    }
    out.into_facts(&input.deferred)
}

/// The method calls of a file that a catalogue entry names by their method alone, to count
/// only in a file that imports the entry (`requires_import`): diesel's queries run on a
/// connection, `insert_into(t).values(v).execute(conn)`, `.load::<T>(conn)`, `.get_result(conn)`,
/// `.first(conn)`; sea-orm's `.one(&db)`, `.all(&db)`. Such a call takes exactly one argument
/// (the connection), and an atomic's `load(Ordering::…)` or an iterator's `all(|x| …)` (a
/// closure) is none. The sites are unqualified: the matcher keeps them only for an entry the
/// file imports.
fn method_sites<'tree>(
    root: Node<'tree>,
    source: &str,
    imports: &[ClientImport<'tree>],
) -> Vec<ClientSite<'tree>> {
    let libraries = crate::catalogue::catalogue().libraries("rust");
    let methods: Vec<&str> = libraries
        .iter()
        .filter(|library| {
            library.requires_import
                && imports.iter().any(|import| {
                    library.imports.iter().any(|prefix| {
                        import.path == *prefix
                            || import
                                .path
                                .strip_prefix(prefix)
                                .is_some_and(|rest| rest.starts_with("::"))
                    })
                })
        })
        .flat_map(|library| library.calls.iter().copied())
        .filter(|tail| !tail.contains("::"))
        .collect();
    if methods.is_empty() {
        return Vec::new();
    }
    let mut sites = Vec::new();
    let mut cursor = root.walk();
    let mut pending = vec![root];
    while let Some(node) = pending.pop() {
        pending.extend(node.named_children(&mut cursor));
        if node.kind() != "call_expression" {
            continue;
        }
        let Some(function) = node.child_by_field_name("function") else {
            continue;
        };
        let function = if function.kind() == "generic_function" {
            match function.child_by_field_name("function") {
                Some(inner) => inner,
                None => continue,
            }
        } else {
            function
        };
        let Some(method) = function
            .child_by_field_name("field")
            .filter(|_| function.kind() == "field_expression")
            .map(|field| syntax::text(field, source))
            .filter(|method| methods.contains(method))
        else {
            continue;
        };
        let arguments: Vec<Node<'tree>> = node
            .child_by_field_name("arguments")
            .map(|arguments| {
                named_children(arguments)
                    .into_iter()
                    .filter(|argument| !argument.kind().ends_with("comment"))
                    .collect()
            })
            .unwrap_or_default();
        let [argument] = arguments.as_slice() else {
            continue;
        };
        if argument.kind() == "closure_expression"
            || syntax::text(*argument, source).contains("Ordering")
        {
            continue;
        }
        sites.push(ClientSite {
            node,
            use_kind: ClientUse::Call,
            path: method.to_owned(),
            is_qualified: false,
            argument: None,
            options: Vec::new(),
        });
    }
    sites.sort_by_key(|site| site.node.start_byte());
    sites
}

/// The parameters of the file's functions with a body, and the fields of its structs, whose type
/// names a client type through the file's `use` declarations: `pool: &PgPool`,
/// `db: web::Data<PgPool>`, axum's `State(pool): State<PgPool>`, `client: Arc<redis::Client>`
/// (injection sites). Trait method signatures have no body to use them.
fn typed_sites<'tree>(
    root: Node<'tree>,
    source: &str,
    bindings: &BTreeMap<String, String>,
    (crates, path): (&crate::resolve::context::Crates, &str),
    bound: Option<&dyn Fn(&str) -> bool>,
) -> Vec<ClientSite<'tree>> {
    let mut sites = Vec::new();
    let mut cursor = root.walk();
    let mut pending = vec![root];
    while let Some(node) = pending.pop() {
        let declarations: Vec<Node<'tree>> = match node.kind() {
            "function_item" => node
                .child_by_field_name("parameters")
                .map(|parameters| {
                    named_children(parameters)
                        .into_iter()
                        .filter(|parameter| parameter.kind() == "parameter")
                        .collect()
                })
                .unwrap_or_default(),
            "field_declaration" => vec![node],
            _ => Vec::new(),
        };
        for declaration in declarations {
            let Some((written, store)) = declaration
                .child_by_field_name("type")
                .and_then(|written| held_type(written, source))
            else {
                continue;
            };
            // A type no catalogue entry lists (`String`, the project's own) is no client,
            // unless it comes from a library the spec binds.
            let name = written.rsplit("::").next().unwrap_or(&written);
            let listed = crate::catalogue::catalogue().is_client_type_name("rust", name);
            if !listed && bound.is_none() {
                continue;
            }
            if let Some(qualified) = client_path(&written, bindings, crates, path)
                .filter(|qualified| listed || bound.is_some_and(|bound| bound(qualified)))
            {
                sites.push(ClientSite {
                    node: declaration,
                    use_kind: ClientUse::Inject,
                    path: qualified,
                    is_qualified: true,
                    argument: store,
                    options: Vec::new(),
                });
            }
        }
        // Only items hold functions and structs: bodies and expressions are not entered.
        pending.extend(
            node.named_children(&mut cursor)
                .filter(|child| HOLDS_ITEMS.contains(&child.kind())),
        );
    }
    sites
}

/// The imports whose bare `use` may be a probable access. A `use` of a crate's error types alone
/// (`use diesel::result::Error`, `sea_orm::DbErr`) maps what the store raises and holds no
/// connection; nor does a type or trait a crate's catalogue entry leaves out of its
/// `probable_names` (sqlx's `Row`, `FromRow`, `postgres::PgRow`: atuin's server reads its records
/// from rows so). A module, a function or a glob (`use sqlx::query;`, `prelude::*`) always may.
fn probable_imports<'tree>(imports: &[ClientImport<'tree>]) -> Vec<ClientImport<'tree>> {
    let libraries = crate::catalogue::catalogue().libraries("rust");
    let probable_names = |path: &str| {
        libraries
            .iter()
            .find(|library| {
                library.imports.iter().any(|prefix| {
                    path.strip_prefix(prefix)
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with("::"))
                })
            })
            .map(|library| library.probable_names)
            .filter(|names| !names.is_empty())
    };
    imports
        .iter()
        .filter(|import| {
            let item = import.path.rsplit("::").next().unwrap_or_default();
            if import.is_project || !item.starts_with(|first: char| first.is_ascii_uppercase()) {
                return true;
            }
            !names_an_error(item)
                && probable_names(&import.path).is_none_or(|names| names.contains(&item))
        })
        .cloned()
        .collect()
}

/// Whether an imported item is an error type by its name: `Error`, `ErrorKind`, `RedisError`,
/// sea-orm's `DbErr`.
fn names_an_error(name: &str) -> bool {
    name.starts_with(|first: char| first.is_ascii_uppercase())
        && (name.ends_with("Error") || name.ends_with("Err") || name == "ErrorKind")
}

/// The node kinds a function or struct (or a struct's fields) may stand in.
const HOLDS_ITEMS: [&str; 8] = [
    "mod_item",
    "declaration_list",
    "impl_item",
    "function_item",
    "struct_item",
    "field_declaration_list",
    "field_declaration",
    "source_file",
];

/// The wrappers whose first type argument is the value a parameter holds: `&T` aside, an
/// `Arc<T>`, actix-web's `web::Data<T>`, axum's `State<T>` and `Extension<T>`.
const HOLDERS: [&str; 9] = [
    "Arc",
    "Rc",
    "Box",
    "Option",
    "Data",
    "State",
    "Extension",
    "Mutex",
    "RwLock",
];

/// The path of the type a parameter's or field's type `node` holds (through references and the
/// [`HOLDERS`]), without its generic arguments: `&mut PgConnection` → `PgConnection`,
/// `web::Data<sqlx::PgPool>` → `sqlx::PgPool`, `Pool<Postgres>` → `Pool`; with the last
/// segment of its first type argument, which may name its store as a driver name does
/// (sqlx's `Pool<sqlx::postgres::Postgres>`, `Transaction<'_, Sqlite>`; lifetimes skipped).
fn held_type(node: Node<'_>, source: &str) -> Option<(String, Option<String>)> {
    let mut node = node;
    for _ in 0..8 {
        match node.kind() {
            "reference_type" => node = node.child_by_field_name("type")?,
            "generic_type" => {
                let head = node.child_by_field_name("type")?;
                let name = syntax::text(head, source);
                let last = name.rsplit("::").next().unwrap_or(name);
                let arguments = node.child_by_field_name("type_arguments");
                if HOLDERS.contains(&last) {
                    node = named_children(arguments?).into_iter().next()?;
                } else {
                    let store = arguments.and_then(|arguments| {
                        named_children(arguments)
                            .into_iter()
                            .find(|argument| argument.kind() != "lifetime")
                            .filter(|argument| {
                                matches!(
                                    argument.kind(),
                                    "type_identifier" | "scoped_type_identifier"
                                )
                            })
                            .map(|argument| {
                                let text = syntax::text(argument, source);
                                text.rsplit("::").next().unwrap_or(text).trim().to_owned()
                            })
                    });
                    return Some((syntax::unspaced_text(head, source, 200), store));
                }
            }
            "type_identifier" | "scoped_type_identifier" => {
                return Some((syntax::unspaced_text(node, source, 200), None))
            }
            _ => return None,
        }
    }
    None
}

/// The import facts of one `use` declaration (`argument` is its tree): one per resolution of
/// its paths, with the names it imports from there; `testOnly` in `#[cfg(test)]` code.
fn use_facts(
    factory: &crate::facts::FactFactory<'_>,
    statement: Node<'_>,
    argument: Node<'_>,
    groups: Vec<(Resolution, Vec<String>)>,
    scope_of: &dyn Fn(Node<'_>) -> Option<String>,
) -> Vec<Fact> {
    let source = factory.source();
    let mut facts = Vec::new();
    let specifier = syntax::compact_text(argument, source, SPECIFIER_LIMIT);
    // A `use` in `#[cfg(test)]` code is compiled for tests only (a dev-dependency).
    let test_only = is_test_code(statement, source);
    for (resolution, names) in groups {
        let mut site = ImportSite::new(statement, specifier.clone(), resolution, "use of");
        site.names = names;
        if imports::kept(factory, &site.resolution) {
            let mut fact = imports::fact(factory, &site, scope_of(statement));
            if test_only {
                fact.properties
                    .insert("testOnly", policies::facts::PropertyValue::Bool(true));
            }
            facts.push(fact);
        }
    }
    facts
}

/// The path a client call's `callee` names, its first segment read through the file's `use`
/// `bindings`; `None` for a path through the project's own crates, which is its own code, not
/// a client (`redis::Client::open` in redis-rs's examples).
fn client_path(
    callee: &str,
    bindings: &BTreeMap<String, String>,
    crates: &crate::resolve::context::Crates,
    path: &str,
) -> Option<String> {
    let (first, rest) = callee.split_once("::").unwrap_or((callee, ""));
    let qualified = match bindings.get(first) {
        Some(bound) => bound.clone(),
        // A path through the project's own crates is its own code, not a client
        // (`redis::Client::open` in redis-rs's examples).
        None if matches!(first, "crate" | "self" | "super")
            || crates.by_name_from(path, first).is_some() =>
        {
            return None
        }
        None => first.to_owned(),
    };
    Some(if rest.is_empty() {
        qualified
    } else {
        format!("{qualified}::{rest}")
    })
}

/// The file a `mod name;` declaration (inside the `inline` modules of `statement`) names: its
/// `#[path]` attribute's file, else the module file of its place in the crate; `Internal` when
/// no file is there. `None` (no fact) when no file is there but the declaration is compiled
/// only under a condition (`#[cfg(…)]`: rustc looks for the file only when it holds) or its
/// path depends on one (`#[cfg_attr(…, path = "…")]`).
fn module_file(
    input: &ExtractionInput<'_>,
    (crates, own_crate): (&crate::resolve::context::Crates, Option<&Crate>),
    own_module: &[String],
    statement: Node<'_>,
    inline: &[String],
    name: &str,
) -> Option<Resolution> {
    match path_attribute(statement, input.source) {
        Some(path) => {
            let is_mod_rs = file_name(input.path) == "mod.rs"
                || own_crate
                    .as_ref()
                    .is_some_and(|krate| krate.root_file.as_deref() == Some(input.path));
            attribute_path_target(input.path, is_mod_rs, inline, &path, |file| {
                crates.has_file(file)
            })
        }
        None => {
            let mut segments = own_module.to_vec();
            segments.extend(inline.iter().cloned());
            segments.push(name.to_owned());
            own_crate
                .and_then(|krate| crates.module_file(krate, &segments))
                // A file a `#[path]` attribute reaches (which only the declaring file tells)
                // declares its modules beside it, as a `mod.rs` does: one found there is taken.
                .or_else(|| {
                    let mut beside = inline.to_vec();
                    beside.push(name.to_owned());
                    crates.module_file_in(parent_dir(input.path), &beside)
                })
        }
    }
    .map(Resolution::File)
    .or_else(|| (!is_conditional(statement, input.source)).then_some(Resolution::Internal))
}

/// Whether an item carries a `#[cfg(…)]` or `#[cfg_attr(…)]` attribute.
fn is_conditional(item: Node<'_>, source: &str) -> bool {
    let mut sibling = item.prev_named_sibling();
    while let Some(node) = sibling {
        match node.kind() {
            "attribute_item" => {
                let text: String = syntax::text(node, source)
                    .chars()
                    .filter(|character| !character.is_whitespace())
                    .collect();
                if text.starts_with("#[cfg(") || text.starts_with("#[cfg_attr(") {
                    return true;
                }
            }
            "line_comment" | "block_comment" => {}
            _ => return false,
        }
        sibling = node.prev_named_sibling();
    }
    false
}

/// The project file and item name a path in an expression names, when that is another file:
/// `handlers::list` (the module `handlers` of the file's module, or bound by a `use`), `list`
/// bound by `use crate::handlers::list;`, `crate::api::config`, `shop_api::routes`. A single
/// name no `use` binds is the file's own (or a glob's) and gives `None`.
fn item_file(
    input: &ExtractionInput<'_>,
    own_crate: Option<&Crate>,
    own_module: &[String],
    bindings: &BTreeMap<String, String>,
    written: &str,
) -> Option<(String, String)> {
    let segments: Vec<String> = written
        .split("::")
        .map(|segment| segment.trim().to_owned())
        .filter(|segment| !segment.is_empty())
        .collect();
    let (first, rest) = segments.split_first()?;
    let mut full: Vec<String> = match bindings.get(first) {
        Some(bound) => bound.split("::").map(str::to_owned).collect(),
        None if rest.is_empty() => return None,
        None => vec![first.clone()],
    };
    full.extend(rest.iter().cloned());
    let (name, module) = full.split_last()?;
    let crates = input.context.crates();
    // A path that does not start at a crate is relative to the file's module (Rust 2018).
    let relative = !matches!(
        module.first().map(String::as_str),
        Some("crate" | "self" | "super")
    ) && module
        .first()
        .is_some_and(|first| crates.by_name_from(input.path, first).is_none());
    let file = if relative {
        let mut path = own_module.to_vec();
        path.extend(module.iter().cloned());
        own_crate.and_then(|krate| crates.module_file(krate, &path))
    } else {
        match resolve(input, own_crate, own_module, module).resolution {
            Resolution::File(file) => Some(file),
            _ => None,
        }
    }?;
    (file != input.path).then(|| (file, name.clone()))
}

/// Expands a use tree into its paths.
fn expand(
    node: Node<'_>,
    source: &str,
    prefix: &[String],
    alias: Option<String>,
    depth: usize,
    paths: &mut Vec<UsePath>,
) {
    if depth > MAX_USE_DEPTH {
        return;
    }
    let with = |extra: Vec<String>| {
        let mut segments = prefix.to_vec();
        segments.extend(extra);
        segments
    };
    match node.kind() {
        "use_as_clause" => {
            let alias =
                field_child(node, Child::Alias).map(|alias| syntax::text(alias, source).to_owned());
            if let Some(path) = field_child(node, Child::Path) {
                expand(path, source, prefix, alias, depth + 1, paths);
            }
        }
        "use_wildcard" => {
            let mut segments = named_children(node)
                .into_iter()
                .next()
                .map(|path| with(path_segments(path, source)))
                .unwrap_or_else(|| prefix.to_vec());
            segments.push("*".to_owned());
            paths.push(UsePath {
                segments,
                alias: None,
            });
        }
        "scoped_use_list" => {
            let base = field_child(node, Child::Path)
                .map(|path| with(path_segments(path, source)))
                .unwrap_or_else(|| prefix.to_vec());
            if let Some(list) = field_child(node, Child::List) {
                expand(list, source, &base, None, depth + 1, paths);
            }
        }
        "use_list" => {
            for item in named_children(node) {
                expand(item, source, prefix, None, depth + 1, paths);
            }
        }
        // `use a::{self}` names the module itself.
        "self" if !prefix.is_empty() => paths.push(UsePath {
            segments: prefix.to_vec(),
            alias,
        }),
        _ => paths.push(UsePath {
            segments: with(path_segments(node, source)),
            alias,
        }),
    }
}

/// The segments of a path node (`crate::db::Pool` → `crate`, `db`, `Pool`).
fn path_segments(node: Node<'_>, source: &str) -> Vec<String> {
    syntax::compact_text(node, source, 300)
        .replace(' ', "")
        .split("::")
        .filter(|segment| !segment.is_empty())
        .map(str::to_owned)
        .collect()
}

/// What a `use` path's first name is bound to in the file, besides a module the file declares
/// (which [`resolve`] reads): since Rust 2018 a path may start at any name in scope (uniform
/// paths), such as an enum of the module (`use Mode::*;`, `use FastMatchResult::*;` inside a
/// function) or a name another `use` brings in (`use crate::ast::Kind;` then `use Kind::*;`).
/// Before, such a path was read as an external package named after the enum.
struct LocalNames<'hits, 'tree, 'source> {
    hits: &'hits [crate::query::QueryHit<'tree>],
    source: &'source str,
    root: Node<'tree>,
    /// Every use path's binding, worked out on the first path that may need them.
    uses: std::cell::OnceCell<Vec<UseBinding>>,
    /// The enums and inline modules the file declares, by the inline modules around them,
    /// worked out on the first path that may need them.
    items: std::cell::OnceCell<Vec<(Vec<String>, String)>>,
}

/// One name a `use` binds: the inline modules around it, the function around it (its node
/// id), the name and the path it binds the name to.
struct UseBinding {
    modules: Vec<String>,
    function: Option<usize>,
    name: String,
    path: Vec<String>,
}

/// A `use` path with its first name read in the file's scope.
enum Rooted {
    /// The path to resolve (the written one, or one through another `use`).
    Path(Vec<String>),
    /// An item the file itself declares.
    Here,
}

/// How many `use` bindings a path is followed through (`use a::B as C; use C::D as E; …`).
const MAX_REBINDS: usize = 4;

impl<'hits, 'tree, 'source> LocalNames<'hits, 'tree, 'source> {
    fn new(
        hits: &'hits [crate::query::QueryHit<'tree>],
        source: &'source str,
        root: Node<'tree>,
    ) -> Self {
        Self {
            hits,
            source,
            root,
            uses: std::cell::OnceCell::new(),
            items: std::cell::OnceCell::new(),
        }
    }

    /// Whether [`LocalNames::rooted`] may read a path other than as written: its first name
    /// starts uppercase (a crate or module name starts lowercase, so no crate of that name can
    /// make the path ambiguous) and something follows it.
    fn may_root(segments: &[String]) -> bool {
        segments.len() >= 2
            && segments
                .first()
                .is_some_and(|first| first.starts_with(|c: char| c.is_ascii_uppercase()))
    }

    /// `segments` (a path written in the `use` `statement` inside the inline modules `inline`)
    /// with its first name followed through the file's other `use`s, or [`Rooted::Here`] when
    /// it names an enum or inline module the file declares. A name bound in the same function
    /// wins over one bound in the module.
    fn rooted(&self, segments: &[String], inline: &[String], statement: Node<'_>) -> Rooted {
        let mut segments = segments.to_vec();
        if !Self::may_root(&segments) {
            return Rooted::Path(segments);
        }
        let function = enclosing_function(statement);
        for _ in 0..MAX_REBINDS {
            if !Self::may_root(&segments) {
                break;
            }
            let Some(first) = segments.first() else {
                break;
            };
            let bound = |scope: Option<usize>| {
                self.uses().iter().find(|binding| {
                    binding.modules == inline
                        && binding.function == scope
                        && binding.name == *first
                        && binding.path.first() != Some(first)
                })
            };
            match bound(function).or_else(|| function.and_then(|_| bound(None))) {
                Some(binding) => {
                    let mut through = binding.path.clone();
                    through.extend(segments.get(1..).unwrap_or_default().iter().cloned());
                    segments = through;
                }
                None => {
                    let declared = self
                        .items()
                        .iter()
                        .any(|(modules, name)| modules == inline && name == first);
                    if declared {
                        return Rooted::Here;
                    }
                    break;
                }
            }
        }
        Rooted::Path(segments)
    }

    fn uses(&self) -> &[UseBinding] {
        self.uses.get_or_init(|| {
            let mut uses = Vec::new();
            for statement in self
                .hits
                .iter()
                .filter(|hit| hit.kind == FactKind::Import && hit.node(Field::Specifier).is_none())
                .filter_map(|hit| hit.node(Field::Statement))
            {
                let Some(argument) = field_child(statement, Child::Argument) else {
                    continue;
                };
                let mut paths = Vec::new();
                expand(argument, self.source, &[], None, 0, &mut paths);
                let modules = inline_modules(statement, self.source);
                let function = enclosing_function(statement);
                for path in paths {
                    if let Some(last) = path.segments.last().filter(|last| *last != "*") {
                        uses.push(UseBinding {
                            modules: modules.clone(),
                            function,
                            name: path.alias.clone().unwrap_or_else(|| last.clone()),
                            path: path.segments,
                        });
                    }
                }
            }
            uses
        })
    }

    /// The enums and inline modules of the file, with the inline modules around each.
    fn items(&self) -> &[(Vec<String>, String)] {
        self.items.get_or_init(|| {
            syntax::descendants(self.root)
                .filter(|node| match node.kind() {
                    "enum_item" => true,
                    "mod_item" => field_child(*node, Child::Body).is_some(),
                    _ => false,
                })
                .filter_map(|node| {
                    let name = field_child(node, Child::Name)?;
                    Some((
                        inline_modules(node, self.source),
                        syntax::text(name, self.source).to_owned(),
                    ))
                })
                .collect()
        })
    }
}

/// The id of the function a node is in, if any.
fn enclosing_function(node: Node<'_>) -> Option<usize> {
    let mut current = node.parent();
    while let Some(ancestor) = current {
        if ancestor.kind() == "function_item" {
            return Some(ancestor.id());
        }
        current = ancestor.parent();
    }
    None
}

/// Where a use path leads.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Resolved {
    resolution: Resolution,
    /// When the path goes on through modules no file holds (`missing` in `use
    /// crate::missing::X`, resolved to the crate root), those names: the resolved file may still
    /// declare the first (an inline module, an enum, a re-export, a `#[path]` module), which only
    /// its declarations tell.
    through: Vec<String>,
    /// When the path reaches the root of a crate without one (`use super::setup;` in
    /// `tests/common/mod.rs`), the targets that may be that root.
    shared: Option<SharedRoot>,
    /// The path's last name when it may be a module that the file the path reaches declares
    /// with a `#[path]` attribute, or that lives beside such a file (`use crate::schema;`,
    /// `use crate::schema::columns;`): the path then lands on that module's file.
    last: Option<String>,
    /// A path read against the file's own module (`self::`, `super::`, a module the file
    /// declares), to be read again against the module path rustc gives the file when a `#[path]`
    /// attribute reaches it or a module above it.
    relative: Option<Relative>,
}

/// A path relative to the module of the file (and the inline modules around the `use`): how
/// many `super`s it climbs, then the names that follow.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Relative {
    up: usize,
    rest: Vec<String>,
}

/// The possible roots of a module shared by a folder of targets: `tests/common/mod.rs` is
/// module `common` of every integration test that declares `mod common;`, and its `super` is
/// that test's root file.
#[derive(Debug, Clone, PartialEq, Eq)]
struct SharedRoot {
    /// The outermost module of the importing file (`common`), which a root must declare.
    module: String,
    /// The folder's target roots, sorted.
    roots: Vec<String>,
}

impl Resolved {
    /// Whether the path's facts wait for the second pass.
    fn waits(&self) -> bool {
        !self.through.is_empty()
            || self.shared.is_some()
            || self.last.is_some()
            || self.relative.is_some()
    }
}

impl From<Resolution> for Resolved {
    fn from(resolution: Resolution) -> Self {
        Self {
            resolution,
            through: Vec::new(),
            shared: None,
            last: None,
            relative: None,
        }
    }
}

/// Resolves one use path: to the file of the deepest module of the path that is a file.
fn resolve(
    input: &ExtractionInput<'_>,
    own_crate: Option<&Crate>,
    own_module: &[String],
    segments: &[String],
) -> Resolved {
    let crates = input.context.crates();
    let Some(first) = segments.first() else {
        return Resolution::Internal.into();
    };
    let mut relative = None;
    let (krate, module): (Option<Crate>, Vec<String>) = match first.as_str() {
        "crate" => (
            own_crate.cloned(),
            segments.get(1..).unwrap_or_default().to_vec(),
        ),
        "self" | "super" => {
            let mut module = own_module.to_vec();
            let mut rest = segments;
            let mut up = 0;
            let mut above = false;
            while let Some((head, tail)) = rest.split_first() {
                match head.as_str() {
                    "self" => {}
                    "super" => {
                        up += 1;
                        above |= module.pop().is_none();
                    }
                    _ => break,
                }
                rest = tail;
            }
            relative = Some(Relative {
                up,
                rest: rest.to_vec(),
            });
            if above {
                // Above the crate root by the file's place; its module by a `#[path]` may be
                // deeper.
                return Resolved {
                    relative,
                    ..Resolution::Internal.into()
                };
            }
            module.extend(rest.iter().cloned());
            (own_crate.cloned(), module)
        }
        // Since Rust 2018 a path may start at a module declared in the current one
        // (`mod routes;` then `use routes::config;`), which a crate of that name cannot shadow.
        name if own_crate.is_some_and(|krate| {
            let mut child = own_module.to_vec();
            child.push(name.to_owned());
            crates.module_file(krate, &child).is_some()
        }) =>
        {
            let mut module = own_module.to_vec();
            module.extend(segments.iter().cloned());
            (own_crate.cloned(), module)
        }
        name => match crates.by_name_from(input.path, name) {
            Some(krate) => (
                Some(krate.clone()),
                segments.get(1..).unwrap_or_default().to_vec(),
            ),
            None => {
                return Resolution::External {
                    package: name.to_owned(),
                }
                .into()
            }
        },
    };
    let Some(krate) = krate else {
        return Resolved {
            relative,
            ..Resolution::Internal.into()
        };
    };
    let glob = segments.last().is_some_and(|last| last == "*");
    Resolved {
        relative,
        ..locate(crates, (own_crate, own_module), &krate, module, glob)
    }
}

/// Where the module path `module` of `krate` leads (the names of a path past its crate; `glob`
/// when the path ends in `*`): the file of its deepest module that is a file, with the names
/// past it.
fn locate(
    crates: &crate::resolve::context::Crates,
    (own_crate, own_module): (Option<&Crate>, &[String]),
    krate: &Crate,
    module: Vec<String>,
    glob: bool,
) -> Resolved {
    // A glob's path names a module (or an enum) whole; another path's last name is an item.
    let module: Vec<String> = module
        .into_iter()
        .filter(|segment| segment != "*")
        .collect();
    let modules = module.len().saturating_sub(usize::from(!glob));
    let found = (0..=module.len()).rev().find_map(|length| {
        crates
            .module_file(krate, module.get(..length)?)
            .map(|file| (length, file))
    });
    // An item's name that may be a module's (modules are named in lower case).
    let last = module
        .get(modules..)
        .filter(|_| !glob)
        .and_then(<[String]>::first)
        .filter(|name| name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_'))
        .filter(|_| found.as_ref().is_none_or(|(length, _)| *length <= modules))
        .cloned();
    let Some((length, file)) = found else {
        // The root of the file's own crate when it has none (`super::` in a helper module of
        // `tests/`): whichever target declares the file's outermost module, or none lintel knows.
        if krate.root_file.is_none() && own_crate == Some(krate) {
            if let Some(outermost) = own_module.first() {
                return Resolved {
                    resolution: Resolution::Internal,
                    through: module.get(..modules).unwrap_or_default().to_vec(),
                    shared: Some(SharedRoot {
                        module: outermost.clone(),
                        roots: crates.shared_roots(krate).to_vec(),
                    }),
                    last,
                    relative: None,
                };
            }
        }
        return Resolution::Internal.into();
    };
    Resolved {
        resolution: Resolution::File(file),
        through: module.get(length..modules).unwrap_or_default().to_vec(),
        shared: None,
        last,
        relative: None,
    }
}

/// Whether an item is compiled for tests only: it, or an inline module around it, carries a
/// `#[cfg(…)]` whose condition requires `test` (`cfg(test)`, `cfg(all(test, not(loom)))`; not
/// `cfg(not(test))` or `cfg(any(test, …))`).
fn is_test_code(item: Node<'_>, source: &str) -> bool {
    let requires_test = |node: Node<'_>| {
        let mut sibling = node.prev_named_sibling();
        while let Some(attribute) = sibling {
            match attribute.kind() {
                "attribute_item" => {
                    let text: String = syntax::text(attribute, source)
                        .chars()
                        .filter(|character| !character.is_whitespace())
                        .collect();
                    let parts: Vec<&str> = text.split([',', '(']).collect();
                    let required = parts.windows(2).any(|pair| {
                        pair.get(1)
                            .is_some_and(|part| part.trim_end_matches([')', ']']) == "test")
                            && pair.first() != Some(&"not")
                    });
                    if text == "#[cfg(test)]" || (text.starts_with("#[cfg(all(") && required) {
                        return true;
                    }
                }
                "line_comment" | "block_comment" => {}
                _ => return false,
            }
            sibling = attribute.prev_named_sibling();
        }
        false
    };
    let mut current = Some(item);
    while let Some(node) = current {
        if (node == item || node.kind() == "mod_item") && requires_test(node) {
            return true;
        }
        current = node.parent();
    }
    false
}

/// The names of the inline modules (`mod tests { … }`) around a node, outermost first.
fn inline_modules(node: Node<'_>, source: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut current = node.parent();
    while let Some(ancestor) = current {
        if ancestor.kind() == "mod_item" && field_child(ancestor, Child::Body).is_some() {
            if let Some(name) = field_child(ancestor, Child::Name) {
                names.push(syntax::text(name, source).to_owned());
            }
        }
        current = ancestor.parent();
    }
    names.reverse();
    names
}

/// The path of a `#[path = "…"]` attribute on a `mod` declaration.
fn path_attribute(item: Node<'_>, source: &str) -> Option<String> {
    let mut sibling = item.prev_named_sibling();
    while let Some(node) = sibling {
        match node.kind() {
            "attribute_item" => {
                let value = named_children(node)
                    .into_iter()
                    .find(|child| child.kind() == "attribute")
                    .filter(|attribute| {
                        named_children(*attribute)
                            .first()
                            .is_some_and(|name| syntax::text(*name, source) == "path")
                    })
                    .and_then(|attribute| field_child(attribute, Child::Value))
                    .filter(|value| {
                        matches!(value.kind(), "string_literal" | "raw_string_literal")
                    });
                if let Some(value) = value {
                    let text = syntax::text(value, source);
                    let text = text
                        .trim_start_matches('r')
                        .trim_matches('#')
                        .trim_matches('"');
                    return Some(text.to_owned());
                }
            }
            "line_comment" | "block_comment" => {}
            _ => return None,
        }
        sibling = node.prev_named_sibling();
    }
    None
}

/// The module path of a file under its crate's module folder (`[]` for the crate root).
fn module_of(file: &str, krate: &Crate) -> Vec<String> {
    if krate.root_file.as_deref() == Some(file) {
        return Vec::new();
    }
    let relative = file
        .strip_prefix(krate.source_folder.as_str())
        .map_or(file, |rest| rest.trim_start_matches('/'));
    let mut segments: Vec<String> = relative.split('/').map(str::to_owned).collect();
    let name = file_name(file);
    segments.pop();
    if segments.is_empty() && matches!(name, "lib.rs" | "main.rs") {
        return segments;
    }
    if name != "mod.rs" {
        if let Some(stem) = name.strip_suffix(".rs") {
            segments.push(stem.to_owned());
        }
    }
    segments
}

/// Functions, impl blocks (by type), traits and inline modules name scopes.
fn scope_name(node: Node<'_>, source: &str) -> Option<String> {
    match node.kind() {
        "function_item" | "trait_item" | "mod_item" => {
            source_scope::field_text(node, "name", source)
        }
        "impl_item" => field_child(node, Child::Type).map(|implemented| {
            syntax::text(implemented, source)
                .split('<')
                .next()
                .unwrap_or_default()
                .trim()
                .to_owned()
        }),
        _ => None,
    }
}

/// A callee path without its generic arguments: `Manager::<PgConnection>::new` is
/// `Manager::new`, as a client's tail names it.
fn without_turbofish(callee: &str) -> String {
    let mut path = String::with_capacity(callee.len());
    let mut depth = 0_usize;
    let mut rest = callee;
    while let Some(character) = rest.chars().next() {
        if depth == 0 && rest.starts_with("::<") {
            depth = 1;
            rest = rest.get(3..).unwrap_or_default();
            continue;
        }
        match character {
            '<' if depth > 0 => depth += 1,
            '>' if depth > 0 => depth -= 1,
            _ if depth == 0 => path.push(character),
            _ => {}
        }
        rest = rest.get(character.len_utf8()..).unwrap_or_default();
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolve::context::attribute_path_file;

    #[test]
    fn turbofish_arguments_are_left_out_of_a_callee() {
        assert_eq!(
            without_turbofish("AsyncDieselConnectionManager::<AsyncPgConnection>::new"),
            "AsyncDieselConnectionManager::new"
        );
        assert_eq!(
            without_turbofish("Vec::<Option<u8>>::with_capacity"),
            "Vec::with_capacity"
        );
        assert_eq!(
            without_turbofish("redis::Client::open"),
            "redis::Client::open"
        );
    }

    #[test]
    fn path_attributes_are_relative_to_the_declaring_file_and_its_inline_modules() {
        let inline = ["a".to_owned(), "b".to_owned()];
        assert_eq!(
            attribute_path_file("src/lib.rs", true, &[], "gen/x.rs").as_deref(),
            Some("src/gen/x.rs")
        );
        assert_eq!(
            attribute_path_file("src/net.rs", false, &[], "../x.rs").as_deref(),
            Some("x.rs")
        );
        assert_eq!(
            attribute_path_file("src/lib.rs", true, &inline, "x.rs").as_deref(),
            Some("src/a/b/x.rs")
        );
        assert_eq!(
            attribute_path_file("src/net.rs", false, &inline, "x.rs").as_deref(),
            Some("src/net/a/b/x.rs")
        );
    }

    #[test]
    fn a_path_attribute_in_an_inline_module_of_a_plain_file_falls_back_beside_the_file() {
        let inline = ["inner".to_owned()];
        let under = |files: &'static [&'static str]| move |file: &str| files.contains(&file);
        // The folder named after the file first, as rustc reads a file `mod x;` reaches.
        assert_eq!(
            attribute_path_target(
                "src/gen/schema.rs",
                false,
                &inline,
                "deep.rs",
                under(&["src/gen/schema/inner/deep.rs", "src/gen/inner/deep.rs"])
            )
            .as_deref(),
            Some("src/gen/schema/inner/deep.rs")
        );
        // Beside the file, as rustc reads a file a `#[path]` attribute reaches.
        assert_eq!(
            attribute_path_target(
                "src/gen/schema.rs",
                false,
                &inline,
                "deep.rs",
                under(&["src/gen/inner/deep.rs"])
            )
            .as_deref(),
            Some("src/gen/inner/deep.rs")
        );
        // Outside inline modules, and in a `mod.rs`, there is one place only.
        assert_eq!(
            attribute_path_target("src/net.rs", false, &[], "x.rs", under(&["src/net/x.rs"])),
            None
        );
        assert_eq!(
            attribute_path_target(
                "src/lib.rs",
                true,
                &inline,
                "x.rs",
                under(&["src/lib/inner/x.rs"])
            ),
            None
        );
    }
}
