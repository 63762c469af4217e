//! The Go extractor: package imports resolved through `go.mod` modules (`context::go`), and
//! infrastructure clients.
//!
//! Each import spec is one fact; a project package resolves to its representative file (the
//! first non-test `.go` file of the package folder, bytewise), and once every file is extracted
//! to the files that declare the names the importer uses through it ([`package_names`]: one
//! fact per declaring file; a blank or dot import, or a name no file declares, stays on the
//! representative file, which the engine takes for the whole package). Every `.go` file is extracted,
//! whatever the go command would build for one platform: files excluded by build constraints
//! (`//go:build`, `_windows.go`) and `_test.go` files (`package x_test` too) belong to the
//! architecture, and so do folders the go command skips (`testdata`, `vendor`, `_x`, `.x`); the
//! component globs decide what counts. An import of a vendored package stays `external` under its
//! import path (the module's own view, as with `-mod=mod`), and cgo's `import "C"` is an
//! `external` fact for package `C`, never an edge. Client calls `pkg.Name(…)` and
//! composite literals `pkg.Type{…}` are qualified through the file's imports, with major-version
//! segments (`/v9`) dropped: `redis.NewClient` after `import "github.com/redis/go-redis/v9"` is
//! `github.com/redis/go-redis.NewClient`.

pub(crate) mod calls_and_assignments;
pub(crate) mod package_constants;
pub(crate) mod package_names;
pub(crate) mod spec;
pub(crate) mod walk;
pub(crate) mod web;

mod in_process;

use crate::lang::go::walk::{field_child, Child};
use std::collections::{BTreeMap, BTreeSet, HashSet};

use policies::facts::{Confidence, Fact, FactKind};
use tree_sitter::Node;

use crate::facts::clients::{ClientImport, ClientMatcher, ClientSite, ClientUse};
use crate::facts::imports::{self, ImportSite};
use crate::language::ExtractionInput;
use crate::query::Field;
use crate::resolve::context::Resolution;
use crate::source_scope;
use crate::syntax::{self, named_children};

/// Extracts the facts of one Go file (unsorted).
pub(crate) fn extract(input: &ExtractionInput<'_>) -> Vec<Fact> {
    let source = input.source;
    let mut route_syntax = crate::lang::go::walk::RouteSyntax::default();
    let hits = input.query.walked(|| {
        let (hits, found) =
            crate::lang::go::walk::walk(input.tree, source, input.context.generic_facts());
        route_syntax = found;
        hits
    });
    let factory = input.fact_factory();
    let root = input.tree.root_node();
    let scope_of = |node: Node<'_>| source_scope::enclosing(node, root, source, scope_name);
    let referred = Referred::new(&route_syntax.selectors, source);
    let mut facts = Vec::new();
    let Imports {
        bindings,
        written_paths,
        bound_imports,
        package_dirs,
        client_imports,
    } = read_imports(input, &factory, &hits, &scope_of, &referred, &mut facts);
    let matcher = ClientMatcher {
        rules: crate::catalogue::catalogue().libraries("go"),
        separator: ".",
    };
    let mut bound_sites: Vec<ClientSite<'_>> = Vec::new();
    let sites: Vec<ClientSite<'_>> = hits
        .iter()
        .filter(|hit| hit.kind == FactKind::AccessesTechnology)
        .filter_map(|hit| {
            let (site_node, use_kind, local, member) = client_call(hit, source)?;
            if let Some(written) = written_paths.get(local) {
                bound_sites.push(ClientSite {
                    node: site_node,
                    use_kind,
                    path: format!("{written}.{member}"),
                    is_qualified: true,
                    argument: None,
                    options: Vec::new(),
                });
            }
            // A parameter or field whose type no catalogue entry lists (`ctx context.Context`,
            // the project's own types) is no client: it is not matched.
            if use_kind == ClientUse::Inject
                && !crate::catalogue::catalogue().is_client_type_name("go", &member)
            {
                return None;
            }
            let qualified = bindings.get(local)?;
            let path = format!("{qualified}.{member}");
            // The argument the entry reads the store from: the first, or the one its
            // `argument_positions` names (Beego's `RegisterDataBase(alias, "sqlite3", dsn)`).
            let position = matcher
                .first_rule(use_kind, &path, true)
                .map_or(1, |rule| rule.argument_position(&path));
            let argument = field_child(site_node, Child::Arguments)
                .and_then(|arguments| {
                    named_children(arguments)
                        .into_iter()
                        .filter(|argument| argument.kind() != "comment")
                        .nth(position.saturating_sub(1))
                })
                .filter(|first| first.kind() == "interpreted_string_literal")
                .map(|first| string_content(first, source));
            Some(ClientSite {
                node: site_node,
                use_kind,
                path,
                is_qualified: true,
                argument,
                options: Vec::new(),
            })
        })
        .collect();
    // Requests to a test server the file starts (`httptest.NewServer`) stay in the process.
    let httptest = bindings
        .iter()
        .find(|(_, path)| path.as_str() == "net/http/httptest")
        .map(|(local, _)| local.as_str());
    let sites = if httptest.is_some() && sites.iter().any(is_net_http) {
        let in_process = in_process::InProcess::read(root, source, httptest);
        sites
            .into_iter()
            // A client handed to a function or kept in a struct of such a file is taken for
            // the test server's (a helper that sends the test's requests).
            .filter(|site| {
                !(is_net_http(site)
                    && (site.use_kind == ClientUse::Inject || in_process.holds(site.node, source)))
            })
            .collect()
    } else {
        sites
    };
    let client_imports = probable_imports(client_imports, &bindings, &referred);
    // A bound library the catalogue knows is judged by its entries on imports too: ntfy's user
    // package keeps a `stripe.SubscriptionStatus`, which brings no Stripe client. The engine
    // makes no probable access of such an import either (`noClient`).
    let written: Vec<String> = bound_imports
        .iter()
        .map(|import| import.path.clone())
        .collect();
    let bound_imports = probable_imports(bound_imports, &written_paths, &referred);
    let no_client: BTreeSet<String> = written
        .into_iter()
        .filter(|path| !bound_imports.iter().any(|import| import.path == *path))
        .collect();
    if !no_client.is_empty() {
        for fact in facts.iter_mut().filter(|fact| {
            fact.kind == FactKind::External
                && fact
                    .property_str("specifier")
                    .is_some_and(|specifier| no_client.contains(specifier))
        }) {
            crate::facts::set(fact, "noClient", true);
        }
    }
    // A parameter its function never names holds the client only to fit a signature (pop's
    // `AfterFind(*pop.Connection)` callbacks, a transaction's `func(ctx, _ *pop.Connection)`):
    // no access, though its import is no bare one either.
    let unused = |site: &ClientSite<'_>| {
        site.use_kind == ClientUse::Inject && is_unused_parameter(site.node, source)
    };
    bound_sites.retain(|site| !unused(site));
    let mut client_facts =
        matcher.facts_muting(&factory, &sites, &client_imports, &scope_of, &unused);
    // A bound library the catalogue knows is used at its catalogue clients (a `redis.NewScript`
    // of a bound go-redis makes no connection). Where the catalogue made a fact of the same
    // confidence at the same place, that fact is the use, and the binding names its target:
    // the binding's own would repeat it (two findings for one `redis.NewClient`).
    let bound = matcher.bound_facts(&factory, &bound_sites, &bound_imports, &scope_of);
    let made_at: HashSet<(u32, u32, Confidence)> = client_facts
        .iter()
        .map(|fact| (fact.evidence.line, fact.evidence.column, fact.confidence))
        .collect();
    client_facts.extend(bound.into_iter().filter(|fact| {
        !made_at.contains(&(fact.evidence.line, fact.evidence.column, fact.confidence))
    }));
    facts.extend(without_opened_dialects(client_facts));
    let file = crate::facts::calls_and_assignments::FileSyntax {
        source,
        root,
        scope_of: &scope_of,
    };
    if input.context.generic_facts() {
        let grammar = crate::lang::go::calls_and_assignments::Go::new(root, source);
        facts.extend(crate::facts::calls_and_assignments::facts(
            &factory, &grammar, &hits, &file,
        ));
    }
    // The file's top-level string constants: its request URLs read them, and so do those of
    // the other files of its package (`package_constants`).
    let constants = web::package_constants(root, source);
    facts.extend(crate::lang::go::web::facts(
        input,
        &factory,
        (&hits, &route_syntax),
        &file,
        (&package_dirs, &constants),
    ));
    if let Ok(mut links) = input.links.try_borrow_mut() {
        links.package_names = package_names::declared(root, source);
        links.string_constants = constants.into_iter().collect();
    }
    facts
}

/// What a file's imports bind, by the local name it uses each package by.
struct Imports<'tree> {
    /// The import paths without major versions.
    bindings: BTreeMap<String, String>,
    /// The import paths as written (major versions kept), for the libraries the spec binds with
    /// `clients` (see `node` and `resource` in policies/LANGUAGE.md): read only when it binds
    /// some.
    written_paths: BTreeMap<String, String>,
    bound_imports: Vec<ClientImport<'tree>>,
    /// Project packages' folders, for route mounts across packages.
    package_dirs: BTreeMap<String, String>,
    client_imports: Vec<ClientImport<'tree>>,
}

/// Reads the file's import specs: one fact each in `facts` (those of project packages the file
/// binds to a name with the names it uses through them, [`package_names`]), and what they bind.
fn read_imports<'tree>(
    input: &ExtractionInput<'tree>,
    factory: &crate::facts::FactFactory<'_>,
    hits: &[crate::query::QueryHit<'tree>],
    scope_of: &dyn Fn(Node<'tree>) -> Option<String>,
    referred: &Referred<'_, '_>,
    facts: &mut Vec<Fact>,
) -> Imports<'tree> {
    let source = input.source;
    let has_bound_clients = factory.generic().has_bound_clients();
    let mut read = Imports {
        bindings: BTreeMap::new(),
        written_paths: BTreeMap::new(),
        bound_imports: Vec::new(),
        package_dirs: BTreeMap::new(),
        client_imports: Vec::new(),
    };
    // The import facts of project packages the file binds to a name, with that name.
    let mut named_imports: Vec<(usize, String)> = Vec::new();
    for hit in hits.iter().filter(|hit| hit.kind == FactKind::Import) {
        let (Some(spec), Some(path_node)) =
            (hit.node(Field::Statement), hit.node(Field::Specifier))
        else {
            continue;
        };
        let import_path = string_content(path_node, source);
        if import_path.is_empty() {
            continue;
        }
        let alias =
            field_child(spec, Child::Name).map(|name| syntax::text(name, source).to_owned());
        let canonical = without_major_versions(&import_path);
        let local = alias
            .clone()
            .unwrap_or_else(|| default_package_name(&canonical));
        read.bindings.insert(local.clone(), canonical.clone());
        let resolution = input.context.resolve_go(input.path, &import_path);
        let is_project = !matches!(resolution, Resolution::External { .. });
        if has_bound_clients {
            read.written_paths
                .insert(local.clone(), import_path.clone());
            read.bound_imports.push(ClientImport {
                node: spec,
                path: import_path.clone(),
                is_project,
            });
        }
        read.client_imports.push(ClientImport {
            node: spec,
            path: canonical,
            is_project,
        });
        let named = matches!(resolution, Resolution::File(_)) && local != "_" && local != ".";
        if let Resolution::File(file) = &resolution {
            let directory = file.rsplit_once('/').map_or("", |(directory, _)| directory);
            read.package_dirs
                .insert(local.clone(), directory.to_owned());
        }
        let mut site = ImportSite::new(spec, import_path, resolution, "import of");
        site.alias = alias;
        if imports::kept(factory, &site.resolution) {
            if named {
                named_imports.push((facts.len(), local));
            }
            facts.push(imports::fact(factory, &site, scope_of(spec)));
        }
    }
    if !named_imports.is_empty() {
        package_names::note_uses(factory, facts, &named_imports, referred.names());
    }
    read
}

/// The imports whose bare import may be a probable access. An outside package whose catalogue
/// entry lists `probable_names` is one only where the file refers to one of them through it
/// (`sql.DB`, `sql.Rows`): miniflux's model imports `database/sql` for a `sql.NullInt64` it
/// keeps, which holds a column's value, no connection. A dot or blank import names nothing
/// and stays.
fn probable_imports<'tree>(
    imports: Vec<ClientImport<'tree>>,
    bindings: &BTreeMap<String, String>,
    referred: &Referred<'_, '_>,
) -> Vec<ClientImport<'tree>> {
    let libraries = crate::catalogue::catalogue().libraries("go");
    let probable_names = |path: &str| {
        libraries
            .iter()
            .find(|library| {
                library.imports.iter().any(|prefix| {
                    path.strip_prefix(prefix).is_some_and(|rest| {
                        rest.is_empty() || (library.matches_sub_packages && rest.starts_with('/'))
                    })
                })
            })
            .map(|library| library.probable_names)
            .filter(|names| !names.is_empty())
    };
    if !imports
        .iter()
        .any(|import| !import.is_project && probable_names(&import.path).is_some())
    {
        return imports;
    }
    let referred = referred.names();
    imports
        .into_iter()
        .filter(|import| {
            let Some(names) = probable_names(&import.path).filter(|_| !import.is_project) else {
                return true;
            };
            let mut locals = bindings
                .iter()
                .filter(|(_, path)| **path == import.path)
                .map(|(local, _)| local)
                .peekable();
            // No binding left: a blank or dot import whose `_` or `.` a later one of the file
            // took (`_ "github.com/go-sql-driver/mysql"` before `_ "github.com/mattn/go-sqlite3"`).
            locals.peek().is_none()
                || locals.any(|local| {
                    local == "."
                        || local == "_"
                        || referred
                            .get(local.as_str())
                            .is_some_and(|used| used.iter().any(|name| names.contains(name)))
                })
        })
        .collect()
}

/// The names a file refers to through each package name (`sql.NullInt64`, `sql.ErrNoRows` →
/// `sql`: `ErrNoRows`, `NullInt64`): qualified types and selectors on a plain identifier, read
/// from the nodes the file's walk collected, and only once a reader asks.
pub(crate) struct Referred<'tree, 's> {
    selectors: &'tree [Node<'tree>],
    source: &'s str,
    names: std::cell::OnceCell<BTreeMap<&'s str, BTreeSet<&'s str>>>,
}

impl<'tree, 's> Referred<'tree, 's> {
    fn new(selectors: &'tree [Node<'tree>], source: &'s str) -> Self {
        Self {
            selectors,
            source,
            names: std::cell::OnceCell::new(),
        }
    }

    /// The names referred to, by the package name they go through.
    fn names(&self) -> &BTreeMap<&'s str, BTreeSet<&'s str>> {
        self.names.get_or_init(|| {
            let mut referred: BTreeMap<&'s str, BTreeSet<&'s str>> = BTreeMap::new();
            for node in self.selectors {
                if let Some((package, name)) = crate::lang::go::walk::package_and_name(*node) {
                    referred
                        .entry(syntax::text(package, self.source))
                        .or_default()
                        .insert(syntax::text(name, self.source));
                }
            }
            referred
        })
    }
}

/// Whether a site goes through the standard `net/http` package.
fn is_net_http(site: &ClientSite<'_>) -> bool {
    site.path
        .strip_prefix("net/http.")
        .is_some_and(|member| !member.is_empty())
}

/// The call, construction or injection (a parameter or struct field of the type) of a client
/// hit, with the local package name it goes through and
/// the member it names: `sql.Open` is (`sql`, `Open`); a package variable's method
/// (`http.DefaultClient.Do`) is the package's member `DefaultClient.Do`.
fn client_call<'tree, 's>(
    hit: &crate::query::QueryHit<'tree>,
    source: &'s str,
) -> Option<(Node<'tree>, ClientUse, &'s str, std::borrow::Cow<'s, str>)> {
    let (site_node, named, use_kind) = match (hit.node(Field::Call), hit.node(Field::Parameter)) {
        (Some(call), _) => (call, hit.node(Field::Function)?, ClientUse::Call),
        // A parameter or struct field of the client type: the client is injected.
        (None, Some(declaration)) => (declaration, hit.node(Field::Type)?, ClientUse::Inject),
        (None, None) => (
            hit.node(Field::Construction)?,
            hit.node(Field::Type)?,
            ClientUse::Construct,
        ),
    };
    let (package, member) = match named.kind() {
        "selector_expression" => (
            field_child(named, Child::Operand)?,
            field_child(named, Child::Field)?,
        ),
        _ => (
            field_child(named, Child::Package)?,
            field_child(named, Child::Name)?,
        ),
    };
    // A package variable's method (`http.DefaultClient.Do`) is the package's member
    // `DefaultClient.Do`.
    let (local, member) = match package.kind() {
        "selector_expression" => {
            let inner = field_child(package, Child::Operand)?;
            let field = field_child(package, Child::Field)?;
            if inner.kind() != "identifier" {
                return None;
            }
            (
                syntax::text(inner, source),
                std::borrow::Cow::Owned(format!(
                    "{}.{}",
                    syntax::text(field, source),
                    syntax::text(member, source)
                )),
            )
        }
        _ => (
            syntax::text(package, source),
            std::borrow::Cow::Borrowed(syntax::text(member, source)),
        ),
    };
    Some((site_node, use_kind, local, member))
}

/// Whether `declaration` is a parameter of a function, method or function literal that its body
/// never uses itself: unnamed (`AfterFind(*pop.Connection)`), blank (`_ *pop.Connection`), a
/// name no identifier of the body refers to, or one that each reference hands on as an argument
/// of a call (`func run(db *sql.DB) error { return migrate(ctx, db) }`: `migrate` makes the
/// queries). A method call, a field or a struct literal of it is a use. A struct field is never
/// one.
fn is_unused_parameter(declaration: Node<'_>, source: &str) -> bool {
    if declaration.kind() != "parameter_declaration" {
        return false;
    }
    let Some(body) = declaration
        .parent()
        .and_then(|list| list.parent())
        .and_then(|function| function.child_by_field_name("body"))
    else {
        return false;
    };
    let mut cursor = declaration.walk();
    let names: Vec<&str> = declaration
        .children_by_field_name("name", &mut cursor)
        .map(|name| syntax::text(name, source))
        .collect();
    names.iter().all(|name| {
        *name == "_"
            || syntax::only_handed_on(body, source, name, |node| {
                node.parent()
                    .is_some_and(|parent| parent.kind() == "argument_list")
            })
    })
}

/// Go 1.26's `new(expr)` (`new(sqlxx.NullTime(time.Now()))`, `new(httpx.ClientIP(r))`), which
/// tree-sitter-go reads only with a type inside: each `new(` whose argument holds a call, or
/// starts with a string, rune or number literal (`new("")`, as hydra's CLI output fills its
/// optional fields), is read as a call of `ne_`, every byte at its offset (kratos had seven
/// files with error nodes). A `new(T)` of a type, calls aside, is left as written.
pub(crate) fn new_of_expressions(source: &str) -> Option<String> {
    if !source.contains("new(") {
        return None;
    }
    let bytes = source.as_bytes();
    let mut text = bytes.to_vec();
    let mut changed = false;
    for (at, _) in source.match_indices("new(") {
        let before = at.checked_sub(1).and_then(|index| bytes.get(index));
        if before.is_some_and(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'.')) {
            continue;
        }
        if argument_holds_a_call(bytes, at + 4) || argument_is_a_literal(bytes, at + 4) {
            if let Some(slot) = text.get_mut(at + 2) {
                *slot = b'_';
                changed = true;
            }
        }
    }
    changed.then(|| String::from_utf8(text).ok()).flatten()
}

/// Whether the parenthesised argument that starts at `start` (after its `(`) starts with a
/// string, rune or number literal (after spaces), which no type does.
fn argument_is_a_literal(bytes: &[u8], start: usize) -> bool {
    bytes
        .get(start..)
        .unwrap_or_default()
        .iter()
        .find(|byte| !matches!(byte, b' ' | b'\t'))
        .is_some_and(|byte| matches!(byte, b'"' | b'`' | b'\'' | b'0'..=b'9'))
}

/// Whether the parenthesised argument that starts at `start` (after its `(`) holds a `(` of
/// its own before its closing one, strings and runes skipped; `false` when it does not close
/// on its line.
fn argument_holds_a_call(bytes: &[u8], start: usize) -> bool {
    let mut quote: Option<u8> = None;
    let mut escaped = false;
    for &byte in bytes.get(start..).unwrap_or_default() {
        match quote {
            Some(open) => {
                if escaped {
                    escaped = false;
                } else if byte == b'\\' && open != b'`' {
                    escaped = true;
                } else if byte == open {
                    quote = None;
                }
            }
            None => match byte {
                b'"' | b'`' | b'\'' => quote = Some(byte),
                b'(' => return true,
                b')' | b'\n' => return false,
                _ => {}
            },
        }
    }
    false
}

/// The text inside a Go string literal (escapes kept as written; import paths have none).
fn string_content(literal: Node<'_>, source: &str) -> String {
    syntax::text(literal, source)
        .trim_matches(['"', '`'])
        .to_owned()
}

/// An import path without major-version segments (`/v2`, `/v10`) and `gopkg.in` suffixes.
fn without_major_versions(import_path: &str) -> String {
    import_path
        .split('/')
        .filter(|segment| !is_major_version(segment))
        .collect::<Vec<_>>()
        .join("/")
}

fn is_major_version(segment: &str) -> bool {
    segment
        .strip_prefix('v')
        .is_some_and(|digits| !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()))
}

/// The name a package is used by without an alias, guessed from its path as Go's tools guess it
/// (gopls, goimports): the last segment without a `go-` prefix, up to its first character that
/// cannot be in an identifier (`github.com/redis/go-redis` → `redis`, `gopkg.in/yaml.v3` →
/// `yaml`, `github.com/nats-io/nats.go` → `nats`, `github.com/segmentio/kafka-go` → `kafka`,
/// `github.com/rpadovani/sqlx-v2` → `sqlx`, `github.com/PaddleHQ/paddle-go-sdk` → `paddle`).
fn default_package_name(canonical: &str) -> String {
    let last = canonical.rsplit('/').next().unwrap_or(canonical);
    let last = last.strip_prefix("go-").unwrap_or(last);
    let end = last
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(last.len());
    match last.get(..end) {
        Some(name) if !name.is_empty() => name.to_owned(),
        _ => last.to_owned(),
    }
}

/// Functions, and methods as `Receiver.method`, name scopes.
fn scope_name(node: Node<'_>, source: &str) -> Option<String> {
    match node.kind() {
        "function_declaration" => source_scope::field_text(node, "name", source),
        "method_declaration" => {
            let name = source_scope::field_text(node, "name", source)?;
            let receiver = field_child(node, Child::Receiver)
                .and_then(|receiver| named_children(receiver).into_iter().next())
                .and_then(|parameter| field_child(parameter, Child::Type))
                .map(|receiver_type| {
                    syntax::text(receiver_type, source)
                        .trim_start_matches('*')
                        .split('[')
                        .next()
                        .unwrap_or_default()
                        .to_owned()
                });
            Some(match receiver {
                Some(receiver) if !receiver.is_empty() => format!("{receiver}.{name}"),
                _ => name,
            })
        }
        _ => None,
    }
}

/// GORM's own fact at `gorm.Open(mysql.Open(dsn), …)` is left out where the dialect call among
/// its arguments made one: that one names the store (`mysql`), and the generic `relational_db`
/// beside it would reach every relational node, or none that the spec binds to a dialect.
fn without_opened_dialects(mut facts: Vec<Fact>) -> Vec<Fact> {
    const GORM: &str = "gorm.io/gorm";
    const DIALECTS: &str = "gorm.io/driver/";
    let span = |fact: &Fact| {
        let evidence = &fact.evidence;
        (
            (evidence.line, evidence.column),
            (evidence.end_line, evidence.end_column),
        )
    };
    let dialects: Vec<_> = facts
        .iter()
        .filter(|fact| {
            fact.kind == FactKind::AccessesTechnology
                && fact
                    .property_str("package")
                    .is_some_and(|package| package.starts_with(DIALECTS))
        })
        .map(span)
        .collect();
    if dialects.is_empty() {
        return facts;
    }
    facts.retain(|fact| {
        if fact.kind != FactKind::AccessesTechnology || fact.property_str("package") != Some(GORM) {
            return true;
        }
        let (start, end) = span(fact);
        !dialects
            .iter()
            .any(|(inner_start, inner_end)| start < *inner_start && *inner_end <= end)
    });
    facts
}

#[cfg(test)]
mod package_name_tests {
    use super::default_package_name;

    #[test]
    fn a_package_name_is_guessed_as_gos_tools_guess_it() {
        for (path, name) in [
            ("github.com/redis/go-redis", "redis"),
            ("gopkg.in/yaml.v3", "yaml"),
            ("github.com/nats-io/nats.go", "nats"),
            ("github.com/segmentio/kafka-go", "kafka"),
            ("github.com/rabbitmq/amqp091-go", "amqp091"),
            ("github.com/rpadovani/sqlx-v2", "sqlx"),
            ("github.com/PaddleHQ/paddle-go-sdk", "paddle"),
            ("github.com/go-redis/redis_rate", "redis_rate"),
            ("github.com/mattn/go-sqlite3", "sqlite3"),
            ("github.com/lib/pq", "pq"),
            ("github.com/json-iterator/go", "go"),
        ] {
            assert_eq!(default_package_name(path), name, "{path}");
        }
    }
}
