//! The C# extractor: edges to the project types a file uses, resolved through the namespace
//! type index, and infrastructure clients.
//!
//! A file sees the types of its own namespaces (and their parents), of its `using` directives,
//! of the `global using`s of its project's files and of the usings its project file gives it
//! (`<Using>` items and the SDK's implicit usings of the nearest `.csproj`, `resolve/context/csproj.rs`),
//! declared in its project or a project it references (`<ProjectReference>`, transitively; a
//! file under no `.csproj`, or a project with a reference lintel cannot follow, sees every
//! project's). Each identifier of the file that names such a
//! type declared in another file is an edge: one `import` fact per declaring file (partial
//! classes give several), at the first use, with specifier `<namespace>.<Type>`; so a `using`
//! whose types the file never uses gives no edge. The parts of a partial type get no edges to
//! each other through its name. A `using` of a namespace the project does not declare is an
//! `external` fact with the namespace as `package`, unless it lies under the root namespace of
//! one of the project's `.csproj` files (`<RootNamespace>`, else `<AssemblyName>`, else the
//! file's name) in which the project's files declare namespaces: `using Bit.Core.Missing;` in a
//! project with root namespace `Bit.Core` is an `import` without `resolved` (unresolved). A
//! root whose project has Razor or XAML files, and a `.proto` file's
//! `csharp_namespace`, are left alone: the build generates code there; so is a file that
//! `<Compile Remove>` leaves out of the build; `using X = A.B.C;` and `using static A.B.C;`
//! name a type and resolve to its file directly (a nested `A.B.Outer.Inner` to the file of
//! `Outer`), while `using X = A.B;` of a project namespace is only an alias.
//!
//! A simple name binds as the compiler binds it: in the innermost enclosing namespace that
//! declares it, then through an alias of that name (the file's, a `global using` alias of a file
//! of its project or a project file's `<Using Alias>`), which hides the types of that name the
//! usings' namespaces import (`using Foo = Core.Foo;` beside `using Infra.Models;`: `Foo` is no
//! use of `Infra.Models.Foo`), then in those namespaces. An alias in a namespace body or after a
//! file-scoped namespace comes after the namespaces inside that one only. A type alias's fact is
//! its directive's; in another file, a `global using` alias's first use is the edge.
//!
//! Qualified names are uses too: `Acme.Orders.OrderService`, `global::Acme.Util.Ids.Prefix`,
//! `Orders.Order` relative to an enclosing namespace or through a namespace alias; their later
//! names are no simple uses (`Stripe.PaymentMethod` is no use of the project's `PaymentMethod`);
//! so are those in a member chain's type arguments (`services.AddScoped<Acme.IOrders,
//! Acme.Orders>()`). An attribute
//! `[OrderFilter]` uses the class `OrderFilterAttribute`. The name of a namespace declaration
//! is not a use (`csharp/namespace_names.rs`).
//!
//! A call of an extension method uses its static class: `builder.Services.AddInfrastructure(c)`
//! or `app?.MapOrderEndpoints()` is an edge (specifier `<namespace>.<StaticClass>`) to each
//! file whose top-level static class declares a method of that name whose first parameter is
//! `this`, in a namespace the file sees (or a class named by a project `Static` using), when
//! the call's argument count fits the method's parameters (defaults may be left out, `params`
//! takes any number) and the class is accessible: declared in the file's project or a project
//! it references (`<ProjectReference>`, transitively), and `internal` only in its own. For
//! these calls, as for type uses, a `global using` counts only in its own project. The
//! receiver's type is not known, so a call that fits extension methods of
//! several visible classes is an edge to each, and an instance method of the same name and
//! arity still counts as a use. A `using static` directive is already an edge to its class; a
//! call inside another part of the same partial static class is not an edge.

pub(crate) mod aspnet;
pub(crate) mod calls_and_assignments;
pub(crate) mod spec;
pub(crate) mod walk;

use std::borrow::Cow;
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;
use std::time::Instant;

use policies::facts::{Fact, FactKind};
use tree_sitter::{Node, Tree};

use crate::facts::clients::{ClientImport, ClientMatcher, ClientSite, ClientUse};
use crate::facts::imports::{self, ImportSiteAt};
use crate::language::ExtractionInput;
use crate::query::{Field, QueryHit};
use crate::resolve::context::{Declarations, ExtensionMethod, Resolution, Types};
use crate::resolve::deferred::{
    Anchor, Anchors, Finishing, Output, PackedChains, PackedNames, Reader, WalkKinds, Writer,
};
use crate::resolve::links::RouteLinks;
use crate::syntax::ChildField;
use crate::syntax::{self, has_token, named_children, Fnv};
use crate::walk::FieldAt::{Any, First, Last};
use walk::{field_child, Child, Kind};

mod bound;
pub(crate) mod db_contexts;
mod declarations;
mod extensions;
mod in_process;
mod interpolation;
mod namespace_names;
mod pending;
mod static_calls;

pub(crate) use declarations::*;
pub(crate) use pending::*;

use extensions::{ExtensionScope, MemberCall};

/// One `using` directive.
#[derive(Debug)]
struct Using<L> {
    node: L,
    alias: Option<String>,
    path: String,
    is_static: bool,
    /// How many segments the namespace whose declaration holds the directive has: 0 in the
    /// compilation unit, 2 in `namespace Acme.Web { … }` or after `namespace Acme.Web;`.
    depth: usize,
}

impl<L: Copy> Using<L> {
    /// The directive as the client matchers read an import (`is_project`: its namespace is
    /// the project's own code).
    fn client_import(&self, is_project: bool) -> crate::facts::clients::ClientImportAt<L> {
        crate::facts::clients::ClientImportAt {
            node: self.node,
            path: self.path.clone(),
            is_project,
        }
    }
}

/// Extracts the facts of one C# file (unsorted); its `using`s and type uses wait for the type
/// index ([`PendingUses`], `crate::resolve::deferred`).
pub(crate) fn extract(input: &ExtractionInput<'_>) -> Vec<Fact> {
    let source = input.source;
    let factory = input.fact_factory();
    let root = input.tree.root_node();
    let mut out = Output::new(Anchors::new(root, source, scope_name));
    // One walk finds the query's matches, the first uses, the dotted chains and their scopes.
    let mut matcher = crate::lang::csharp::walk::matcher(source, input.context.generic_facts());
    let started = input.query.is_timed().then(Instant::now);
    // It also gathers what the other readers need ([`Gathered`]).
    let mut gathered = Gathered::default();
    let walked = out
        .anchors
        .walk_scoped(&WALK_KINDS, None, |node, field, ancestors, visited| {
            // The kinds of the node and of its parent, for every visitor.
            let kind = walk::kind_for(visited.kind_id);
            let parent_kind = visited.parent_kind_id.map_or(Kind::Other, walk::kind_for);
            matcher.visit_kinds(node, kind, parent_kind, field, ancestors);
            let kinds = (kind, parent_kind);
            gathered.visit(node, kinds, field, ancestors, visited.scope, source);
        });
    let Gathered {
        attributes,
        member_calls,
        using_scopes,
        declared,
        classes,
        constructor_parameters,
        namespace_names,
        nested,
    } = gathered;
    let hits = matcher.hits;
    input.query.record_walk(&hits, started);
    // The facts of calls, assignments and attributes (generic `call` facts, registrations,
    // routes) name their scopes, which the walk knew.
    let walked_scopes = out.anchors.walked_scopes(walked.scoped);
    let scope_of = |node: Node<'_>| walked_scopes.scope_of(node);
    let usings: Vec<Using<Node<'_>>> = hits
        .iter()
        .filter(|hit| hit.kind == FactKind::Import)
        .filter_map(|hit| read_using(hit.node(Field::Statement)?, source))
        .collect();
    // The file's own declarations, read before extraction (its spec's `declarations` hook,
    // `type_declarations`).
    let own = match input
        .declarations
        .and_then(|declared| declared.csharp_types())
    {
        Some(types) => types.clone(),
        None => declarations(input.tree, source).types,
    };
    let (uses, chains) = used_names(
        &mut out.anchors,
        walked.uses,
        walked.chains,
        &nested,
        &namespace_names,
        attributes,
    );
    // The simple names the file uses that some library's `probable_names` lists, for its
    // `using`s of whole namespaces.
    let probable_names_used: BTreeSet<String> = {
        let rules = crate::catalogue::catalogue().libraries("csharp");
        uses.keys()
            .filter(|name| {
                rules
                    .iter()
                    .any(|rule| rule.probable_names.contains(&name.as_ref()))
            })
            .map(|name| name.to_string())
            .collect()
    };
    let mut pending = pending_uses(
        &mut out.anchors,
        &usings,
        &using_scopes,
        member_calls,
        Names {
            own,
            uses,
            chains,
            shadowed: nested,
        },
        factory
            .generic()
            .has_bound_clients()
            .then_some((&hits[..], source)),
        &scope_of,
    );
    let (clients, contexts, (maybe_static, awaiting_import)) = client_facts(
        &factory,
        &hits,
        (&usings, &probable_names_used),
        (root, source),
        &scope_of,
    );
    pending.static_calls = static_calls::StaticCalls::kept(
        (maybe_static, awaiting_import),
        &clients,
        &mut out.anchors,
        &scope_of,
    );
    out.defer(Box::new(pending));
    out.facts.extend(clients);
    let file = crate::facts::calls_and_assignments::FileSyntax {
        source,
        root,
        scope_of: &scope_of,
    };
    if input.context.generic_facts() {
        out.facts.extend(crate::facts::calls_and_assignments::facts(
            &factory,
            &crate::lang::csharp::calls_and_assignments::CSharp,
            &hits,
            &file,
        ));
    }
    let mut links = RouteLinks {
        db_contexts: contexts.classes,
        context_providers: contexts.providers,
        context_factories: contexts.factories,
        ..RouteLinks::default()
    };
    crate::lang::csharp::aspnet::facts(
        &factory,
        &hits,
        &file,
        crate::lang::csharp::aspnet::Declared {
            items: &declared,
            classes: &classes,
        },
        &constructor_parameters,
        &mut out,
        &mut links,
    );
    if !links.is_empty() {
        if let Ok(mut shared) = input.links.try_borrow_mut() {
            shared.controllers.append(&mut links.controllers);
            shared.inherited.append(&mut links.inherited);
            shared.db_contexts.append(&mut links.db_contexts);
            shared
                .context_providers
                .append(&mut links.context_providers);
            shared
                .context_factories
                .append(&mut links.context_factories);
        }
    }
    out.into_facts(&input.deferred)
}

/// What the first pass's walk gathers besides the query's matches and the names used.
#[derive(Default)]
struct Gathered<'tree, 's> {
    /// The attribute names, which name classes (`[OrderFilter]`), with their nodes and scopes.
    attributes: Vec<(String, Node<'tree>, u32)>,
    /// The first member call of each method name and argument count, which may call an
    /// extension method (`services.AddInfrastructure(configuration)`).
    member_calls: BTreeMap<(&'s str, usize), (Node<'tree>, u32)>,
    /// The scope of each `using` directive, by node id.
    using_scopes: Vec<(usize, u32)>,
    /// The variable declarators, methods and local functions, in order, where minimal-API
    /// routes look up the names of groups and handlers (`aspnet::routes`).
    declared: Vec<Node<'tree>>,
    /// The class declarations, whose route templates controllers inherit (`aspnet::routes`).
    classes: Vec<Node<'tree>>,
    /// The constructor parameters with their ancestors, for the DI facts.
    constructor_parameters: crate::lang::csharp::aspnet::ConstructorParameters<'tree>,
    /// The names of namespace declarations, which are not uses.
    namespace_names: namespace_names::NamespaceNames<'tree, 's>,
    /// The names of the types declared inside other types.
    nested: Vec<String>,
}

impl<'tree, 's> Gathered<'tree, 's> {
    /// Gathers from `node` (of `kind`, under a parent of `parent_kind`, in `scope`).
    fn visit(
        &mut self,
        node: Node<'tree>,
        (kind, parent_kind): (Kind, Kind),
        field: Option<&'static str>,
        ancestors: &[crate::walk::Ancestor<'tree>],
        scope: u32,
        source: &'s str,
    ) {
        // A type declared inside another shadows the namespaces' types of its name, and so
        // does a type parameter (`T` of `class Store<T>`), which is no type of any namespace.
        if (kind.declares_type()
            && ancestors
                .iter()
                .any(|(ancestor, _)| walk::kind(*ancestor).declares_type()))
            || kind == Kind::TypeParameter
        {
            self.nested.extend(name_text(node, source));
        }
        match kind {
            Kind::Using => self.using_scopes.push((node.id(), scope)),
            Kind::VariableDeclarator | Kind::MethodDeclaration | Kind::LocalFunction => {
                self.declared.push(node);
            }
            Kind::ClassDeclaration => self.classes.push(node),
            Kind::Parameter => self.constructor_parameters.visit(node, ancestors),
            _ => {}
        }
        if let Some(name) = attribute_name(node, kind, parent_kind, field, source) {
            self.attributes.push((name, node, scope));
        }
        if let Some((identifier, name, arguments)) =
            extensions::member_call(node, kind, parent_kind, field, ancestors, source)
        {
            self.member_calls
                .entry((name, arguments))
                .or_insert((identifier, scope));
        }
        self.namespace_names
            .visit(node, kind, parent_kind, field, ancestors, source);
    }
}

/// The names and dotted chains a file uses (first use, scope), as the walk found them,
/// adjusted to what C# binds: a nested type's name names that type, a segment of a namespace
/// declaration's name is used where it next appears, and `[OrderFilter]` names the class
/// `OrderFilterAttribute`.
#[expect(
    clippy::type_complexity,
    reason = "the walk's own shapes, passed through"
)]
fn used_names<'a>(
    anchors: &mut Anchors<'a>,
    mut uses: BTreeMap<Cow<'a, str>, (Node<'a>, u32)>,
    mut chains: Vec<(Vec<String>, Node<'a>, u32)>,
    nested: &[String],
    namespace_names: &namespace_names::NamespaceNames<'a, '_>,
    attributes: Vec<(String, Node<'a>, u32)>,
) -> (
    BTreeMap<Cow<'a, str>, (Node<'a>, u32)>,
    Vec<(Vec<String>, Node<'a>, u32)>,
) {
    // A nested type's name, where the file uses it, names that type (C# looks in the
    // enclosing types before the namespaces).
    for name in nested {
        uses.remove(name.as_str());
    }
    // A segment of a namespace name is used where it next appears, if anywhere.
    for (segment, next_use) in namespace_names.segments() {
        if !uses
            .get(segment)
            .is_some_and(|(node, _)| namespace_names.contains(*node))
        {
            continue;
        }
        match next_use {
            Some(node) => {
                let scope = anchors.scope_of(node);
                uses.insert(Cow::Owned(segment.to_owned()), (node, scope));
            }
            None => {
                uses.remove(segment);
            }
        }
    }
    chains.retain(|(_, node, _)| !namespace_names.contains(*node));
    // `[OrderFilter]` names the class `OrderFilterAttribute`.
    for (name, node, scope) in attributes {
        match name.rsplit_once('.') {
            None => {
                uses.entry(Cow::Owned(format!("{name}Attribute")))
                    .or_insert_with(|| (node, anchors.walked_scope_of(node, scope)));
            }
            Some((qualifier, last)) => {
                let mut segments: Vec<String> = qualifier.split('.').map(str::to_owned).collect();
                segments.push(format!("{last}Attribute"));
                chains.push((segments, node, anchors.walked_scope_of(node, scope)));
            }
        }
    }
    (uses, distinct_chains(chains))
}

/// The file's infrastructure client facts: the catalogue's C# libraries at the hits' sites,
/// with the file's usings as the imports they may come through; what they tell of EF Core
/// contexts (`db_contexts`); and the calls that may be a project type's static methods, which
/// wait for the type index, and the sites of a library the file does not import itself, which
/// wait for its project's `global using`s (`static_calls`).
fn client_facts<'tree>(
    factory: &crate::facts::FactFactory<'_>,
    hits: &[QueryHit<'tree>],
    (usings, probable_names_used): (&[Using<Node<'_>>], &BTreeSet<String>),
    (root, source): (Node<'_>, &str),
    scope_of: &dyn Fn(Node<'_>) -> Option<String>,
) -> (
    Vec<Fact>,
    db_contexts::ContextLinks,
    (Vec<ClientSite<'tree>>, Vec<ClientSite<'tree>>),
) {
    let matcher = ClientMatcher {
        rules: crate::catalogue::catalogue().libraries("csharp"),
        separator: ".",
    };
    let client_sites: Vec<ClientSite<'_>> = hits
        .iter()
        .filter(|hit| hit.kind == FactKind::AccessesTechnology)
        .filter_map(|hit| {
            let site = client_site(hit, source, Some(&matcher))?;
            // A call with fewer arguments than its library's calls take is another library's
            // method of that name (EF Core's `entry.Collection(…).Query()` beside Dapper), and
            // so is one whose first argument, which such calls take as their SQL or connection,
            // is a function (Polly's `pipeline.Execute(state => …, state)` around a query).
            let other_library = site.use_kind == ClientUse::Call
                && matcher
                    .first_rule(ClientUse::Call, &site.path, false)
                    .is_some_and(|rule| {
                        rule.min_arguments > 0
                            && (call_arguments(site.node) < rule.min_arguments
                                || first_argument_is_function(site.node))
                    });
            (!other_library).then_some(site)
        })
        .collect();
    // An `HttpClient` of an ASP.NET Core test host calls the application in the test process,
    // and a test's mock (or a client built on a mocked handler) calls nothing: no access.
    // The file is read for them only once a site matches a rule (the reading walks its tree).
    let in_process = std::cell::OnceCell::new();
    // A call that may be a project type's static method makes no fact yet, but counts as a use.
    let muted = |site: &ClientSite<'_>| {
        let http = matcher.last_segment(&site.path) == "HttpClient";
        in_process
            .get_or_init(|| in_process::InProcess::read(root, source))
            .holds(site.node, source, http)
            || static_calls::may_be_static(&matcher, site)
    };
    // A `using` of a namespace through which the file names none of its library's
    // `probable_names` brings no client (`using Npgsql;` for an `NpgsqlException`).
    let client_imports: Vec<ClientImport<'_>> = usings
        .iter()
        .filter(|using| {
            using.alias.is_some()
                || using.is_static
                || !matcher.package_brings_no_client(&using.path, &|name| {
                    probable_names_used.contains(name)
                })
        })
        .map(|using| using.client_import(false))
        .collect();
    let facts = matcher.facts_muting(factory, &client_sites, &client_imports, scope_of, &muted);
    let contexts = db_contexts::read(factory, &matcher, &client_sites, &facts, source);
    // A site whose library the file does not import itself may see it through a `global
    // using` of another file of its project (or its project file's `<Using>`): it waits for
    // the project's usings.
    let mut maybe_static = Vec::new();
    let mut awaiting_import = Vec::new();
    for site in client_sites {
        if static_calls::may_be_static(&matcher, &site) {
            maybe_static.push(site);
        } else if matcher.waits_for_import(factory, &site, &client_imports)
            && !in_process
                .get_or_init(|| in_process::InProcess::read(root, source))
                .holds(
                    site.node,
                    source,
                    matcher.last_segment(&site.path) == "HttpClient",
                )
        {
            awaiting_import.push(site);
        }
    }
    (facts, contexts, (maybe_static, awaiting_import))
}

/// A client site of a hit, if some rule may match it: sites are matched by the path as
/// written, which ends with a rule's tail only if their last segments are equal, so the many
/// sites no rule names are dropped before their path is built; without a matcher (the uses of
/// bound libraries, `bound`) none is.
fn client_site<'tree>(
    hit: &QueryHit<'tree>,
    source: &str,
    matcher: Option<&ClientMatcher<'_>>,
) -> Option<ClientSite<'tree>> {
    let typed = |node: Node<'tree>, use_kind: ClientUse| {
        let name = type_name(node, source);
        matcher
            .is_none_or(|matcher| matcher.may_end_with(use_kind, matcher.last_segment(&name)))
            .then(|| name.into_owned())
    };
    let (node, use_kind, path) = if let Some(base) = hit.node(Field::Base) {
        (base, ClientUse::Extend, typed(base, ClientUse::Extend)?)
    } else if let Some(construction) = hit.node(Field::Construction) {
        let path = typed(hit.node(Field::Type)?, ClientUse::Construct)?;
        (construction, ClientUse::Construct, path)
    } else if let Some(call) = hit.node(Field::Call) {
        let method = typed(hit.node(Field::Method)?, ClientUse::Call)?;
        let receiver = syntax::compact_text(hit.node(Field::Type)?, source, 200);
        (call, ClientUse::Call, format!("{receiver}.{method}"))
    } else {
        let path = typed(hit.node(Field::Type)?, ClientUse::Inject)?;
        (hit.node(Field::Parameter)?, ClientUse::Inject, path)
    };
    Some(ClientSite {
        node,
        use_kind,
        path,
        is_qualified: false,
        argument: None,
        options: Vec::new(),
    })
}

/// How many arguments an invocation passes (`connection.Query(sql, args)`: 2).
fn call_arguments(call: Node<'_>) -> usize {
    call.child_by_field_name("arguments")
        .map_or(0, |arguments| {
            named_children(arguments)
                .into_iter()
                .filter(|child| child.kind() == "argument")
                .count()
        })
}

/// Whether an invocation's first argument is a lambda or an anonymous method
/// (`pipeline.Execute(static (state, _) => …, state)`, `Execute(delegate { … })`).
fn first_argument_is_function(call: Node<'_>) -> bool {
    call.child_by_field_name("arguments")
        .and_then(|arguments| {
            named_children(arguments)
                .into_iter()
                .find(|child| child.kind() == "argument")
        })
        .is_some_and(|argument| {
            named_children(argument).into_iter().any(|value| {
                matches!(
                    value.kind(),
                    "lambda_expression" | "anonymous_method_expression"
                )
            })
        })
}

/// A type's name without type arguments or nullability (`IMongoCollection<Order>?` →
/// `IMongoCollection`).
fn type_name<'source>(node: Node<'_>, source: &'source str) -> std::borrow::Cow<'source, str> {
    let node = match walk::kind(node) {
        Kind::GenericName | Kind::NullableType => {
            named_children(node).into_iter().next().unwrap_or(node)
        }
        _ => node,
    };
    let node = if walk::kind(node) == Kind::GenericName {
        named_children(node).into_iter().next().unwrap_or(node)
    } else {
        node
    };
    syntax::unspaced(node, source, 200)
}

/// Resolves the type of `using X = A.B.C;` or `using static A.B.C;`; a nested type
/// `A.B.Outer.Inner` resolves to the file of `Outer`, and a name relative to a namespace an
/// earlier `using` imports (`using static StripeConstants;` after `using Bit.Core.Billing;`)
/// through it. Not found, it is unresolved when `is_projects` says its namespace is the
/// project's to declare (`using X = Acme.Shop.Missing.Type;`), else external: a namespace alias
/// of a library (`using DP = Microsoft.AspNetCore.DataProtection;`) or a name the file reads
/// relative to its own namespace.
fn resolve_type(
    index: Types<'_>,
    path: &str,
    visible: &BTreeSet<&str>,
    is_projects: &dyn Fn(&str) -> bool,
) -> Resolution {
    let path = path.split('<').next().unwrap_or(path);
    if let Some(file) = type_file(index, path) {
        return Resolution::File(file);
    }
    // The innermost (longest) namespace first, as the compiler looks outward.
    let mut relative: Vec<&str> = visible.iter().copied().collect();
    relative.sort_by_key(|namespace| std::cmp::Reverse(namespace.len()));
    if let Some(file) = relative
        .iter()
        .find_map(|namespace| type_file(index, &format!("{namespace}.{path}")))
    {
        return Resolution::File(file);
    }
    let namespace = path
        .rsplit_once('.')
        .map_or(path, |(namespace, _)| namespace);
    if is_projects(namespace) {
        Resolution::Internal
    } else {
        Resolution::External {
            package: namespace.to_owned(),
        }
    }
}

/// The file of the type a qualified name names (the longest split `Namespace.Type` the index
/// declares, a nested type in its outer type's file), or of a type of the global namespace.
fn type_file(index: Types<'_>, path: &str) -> Option<String> {
    let segments: Vec<&str> = path.split('.').collect();
    for split in (1..segments.len()).rev() {
        let (Some(namespace), Some(name)) = (segments.get(..split), segments.get(split)) else {
            continue;
        };
        if let Some(file) = index
            .files_of(&namespace.join("."), name)
            .and_then(|files| files.iter().next())
        {
            return Some(file.clone());
        }
    }
    index
        .files_of("", path)
        .and_then(|files| files.iter().next())
        .cloned()
}

/// Whether the project declares types in `namespace`.
fn declares_namespace(index: Types<'_>, namespace: &str) -> bool {
    index.declares_package(namespace)
}

/// The aliases a file's qualified names start from.
struct Aliases<'a> {
    /// Alias → the project namespace it names.
    namespaces: &'a BTreeMap<&'a str, &'a str>,
    /// Every alias, with the depth of the namespace whose declaration holds it.
    depths: &'a BTreeMap<&'a str, usize>,
}

/// The type a qualified chain names: the longest split `Namespace.Type` the index declares,
/// with the namespace taken as written, through a namespace alias, or relative to a namespace
/// the file declares types in (and its parents). A chain that starts with an alias is read
/// relative to the namespaces deeper than the alias's declaration, then through the alias: a
/// type alias's nested names (`Purchase.Line`) or an outside one's are no project type.
fn qualified_target<'index, 'chain>(
    index: Types<'index>,
    segments: &[&'chain str],
    own: &Declarations,
    aliases: &Aliases<'_>,
) -> Option<(String, &'chain str, &'index BTreeSet<String>)> {
    let (first, rest) = segments.split_first()?;
    // Only a segment after the first can be the type's name, and only a declared name.
    if !rest.iter().any(|name| index.declares_name(name)) {
        return None;
    }
    let mut prefixes: Vec<String> = vec![String::new()];
    for (namespace, _) in own {
        let mut current = namespace.as_str();
        while !current.is_empty() {
            if !prefixes.iter().any(|known| known == current) {
                prefixes.push(current.to_owned());
            }
            current = current.rsplit_once('.').map_or("", |(parent, _)| parent);
        }
    }
    for split in (1..segments.len()).rev() {
        let (Some(written), Some(name)) = (segments.get(..split), segments.get(split)) else {
            continue;
        };
        if !index.declares_name(name) {
            continue;
        }
        let written = written.join(".");
        let alias_depth = aliases.depths.get(first);
        let mut candidates: Vec<String> = prefixes
            .iter()
            .filter(|prefix| alias_depth.is_none_or(|alias| depth(prefix) > *alias))
            .map(|prefix| qualified(prefix, &written))
            .collect();
        if let Some(target) = aliases.namespaces.get(first) {
            let rest = written.strip_prefix(first).unwrap_or_default();
            candidates.push(format!("{target}{rest}"));
        }
        for namespace in candidates {
            if let Some(files) = index.files_of(&namespace, name) {
                return Some((namespace, *name, files));
            }
        }
    }
    None
}

/// The name of an attribute when `node` is one (`[Authorize]`, `[Acme.OrderFilter]`): an
/// identifier or qualified name in the `name` field of an `attribute`, without spaces.
fn attribute_name(
    node: Node<'_>,
    kind: Kind,
    parent_kind: Kind,
    field: Option<&'static str>,
    source: &str,
) -> Option<String> {
    (field == Some("name")
        && matches!(kind, Kind::Identifier | Kind::QualifiedName)
        && parent_kind == Kind::Attribute)
        .then(|| syntax::unspaced_text(node, source, 400))
}

fn read_using<'tree>(directive: Node<'tree>, source: &str) -> Option<Using<Node<'tree>>> {
    let name = field_child(directive, Child::Name);
    let alias = name.map(|name| syntax::text(name, source).to_owned());
    let target = named_children(directive)
        .into_iter()
        .rfind(|child| Some(child.id()) != name.map(|name| name.id()))?;
    // Only the place of an alias or a `using static` is read (a directive's namespace counts
    // for the names it declares, and for a type it names relative to the namespace).
    let is_static = using_keywords(directive, source).1;
    let depth = if alias.is_some() || is_static {
        namespace_depth(directive, source)
    } else {
        0
    };
    Some(Using {
        node: directive,
        alias,
        path: syntax::unspaced_text(target, source, 400),
        is_static,
        depth,
    })
}

/// How many segments the namespace whose declaration holds `directive` has: those of the
/// block namespaces around it (`namespace Acme { namespace Web { … } }`: 2), or of the
/// file-scoped namespace declared before it in the compilation unit (`namespace Acme.Web;`),
/// 0 in the compilation unit itself.
fn namespace_depth(directive: Node<'_>, source: &str) -> usize {
    let segments = |name: Node<'_>| syntax::unspaced_text(name, source, 400).split('.').count();
    let mut depth = 0;
    let mut file_scoped = false;
    let mut node = directive;
    while let Some(parent) = node.parent() {
        // A file-scoped namespace stands before the directive in the compilation unit, or
        // before the conditional group (`#if`) that holds it.
        let mut sibling = node.prev_named_sibling();
        while let (Some(before), false) = (sibling, file_scoped) {
            if walk::kind(before) == Kind::FileScopedNamespace {
                depth += field_child(before, Child::Name).map_or(0, segments);
                file_scoped = true;
            }
            sibling = before.prev_named_sibling();
        }
        if walk::kind(parent) == Kind::Namespace {
            depth += field_child(parent, Child::Name).map_or(0, segments);
        }
        node = parent;
    }
    depth
}

/// Whether a `using` directive is `global` and whether it is `static`: read from the keywords
/// before its first named child (`global`, `using`, `static`, `unsafe`, all the grammar allows
/// there), or from its tokens when a comment or an error stands among them.
fn using_keywords(directive: Node<'_>, source: &str) -> (bool, bool) {
    let prefix = directive
        .named_child(0)
        .filter(|first| !first.is_extra() && !directive.has_error())
        .and_then(|first| source.get(directive.start_byte()..first.start_byte()))
        .filter(|prefix| {
            prefix
                .split_whitespace()
                .all(|word| matches!(word, "global" | "using" | "static" | "unsafe"))
        });
    match prefix {
        Some(prefix) => (
            prefix.split_whitespace().any(|word| word == "global"),
            prefix.split_whitespace().any(|word| word == "static"),
        ),
        None => (
            has_token(directive, "global"),
            has_token(directive, "static"),
        ),
    }
}

/// How many segments a namespace has (the global one none).
fn depth(namespace: &str) -> usize {
    if namespace.is_empty() {
        0
    } else {
        namespace.split('.').count()
    }
}

fn qualified(namespace: &str, name: &str) -> String {
    if namespace.is_empty() {
        name.to_owned()
    } else {
        format!("{namespace}.{name}")
    }
}

/// The declarations that name scopes: types, methods, constructors and local functions.
pub(crate) const SCOPE_KINDS: [&str; 10] = [
    "class_declaration",
    "interface_declaration",
    "struct_declaration",
    "enum_declaration",
    "record_declaration",
    "record_struct_declaration",
    "delegate_declaration",
    "method_declaration",
    "constructor_declaration",
    "local_function_statement",
];

/// Types, methods, constructors and local functions name scopes.
pub(crate) fn scope_name(node: Node<'_>, source: &str) -> Option<String> {
    if walk::kind(node).names_scope() {
        name_text(node, source)
    } else {
        None
    }
}

/// The text of a declaration's `name`, unless empty.
fn name_text(node: Node<'_>, source: &str) -> Option<String> {
    field_child(node, Child::Name)
        .map(|name| syntax::text(name, source).to_owned())
        .filter(|name| !name.is_empty())
}

/// A container [`declarations`] has still to read: the node, its namespace when its types
/// are top-level ones (`None` inside a type), and the type path around it.
type Container<'tree> = (Node<'tree>, Option<String>, String);

/// One entry per distinct chain, in the order of first appearance, placed at its earliest use:
/// a chain resolves the same wherever it stands in the file (`PendingUses::finish` reads no
/// position), and only its earliest use can place a fact, so the repeats would only take memory
/// until the type indexes are ready.
fn distinct_chains<'a>(
    mut chains: Vec<(Vec<String>, Node<'a>, u32)>,
) -> Vec<(Vec<String>, Node<'a>, u32)> {
    // Each distinct chain's first appearance and earliest use, found by borrowing the segments.
    let mut picks: Vec<(usize, usize)> = Vec::with_capacity(chains.len());
    {
        let mut slot: HashMap<&[String], usize, Fnv> =
            HashMap::with_capacity_and_hasher(chains.len(), Fnv::default());
        for (index, (segments, node, _)) in chains.iter().enumerate() {
            match slot.entry(segments.as_slice()) {
                Entry::Occupied(at) => {
                    let earlier = picks
                        .get(*at.get())
                        .and_then(|(_, earliest)| chains.get(*earliest));
                    if earlier
                        .is_some_and(|(_, earliest, _)| node.start_byte() < earliest.start_byte())
                    {
                        if let Some(pick) = picks.get_mut(*at.get()) {
                            pick.1 = index;
                        }
                    }
                }
                Entry::Vacant(vacant) => {
                    vacant.insert(picks.len());
                    picks.push((index, index));
                }
            }
        }
    }
    picks
        .into_iter()
        .filter_map(|(first, earliest)| {
            let (node, scope) = chains
                .get(earliest)
                .map(|(_, node, scope)| (*node, *scope))?;
            let segments = std::mem::take(&mut chains.get_mut(first)?.0);
            Some((segments, node, scope))
        })
        .collect()
}

/// The kinds of the one walk that finds first uses, dotted chains and scopes.
/// The extractor's walk of `tree` alone, with `visit` called on the way (for the matcher's
/// comparison with the query files).
#[cfg(test)]
pub(crate) fn walk<'tree>(
    tree: &'tree Tree,
    source: &'tree str,
    visit: impl FnMut(Node<'tree>, Option<&'static str>, &[crate::walk::Ancestor<'tree>]),
) {
    Anchors::new(tree.root_node(), source, scope_name).walk_with(&WALK_KINDS, visit);
}

pub(crate) static WALK_KINDS: WalkKinds<'static> = WalkKinds {
    names: &["identifier"],
    scopes: &SCOPE_KINDS,
    chains: &crate::lang::jvm::ChainKinds {
        chain: &[
            "qualified_name",
            "member_access_expression",
            "alias_qualified_name",
            "generic_name",
        ],
        leaf: &["identifier"],
        ignored: &["type_argument_list"],
        // `using`s are read apart; below a string or character literal there are only its
        // contents and escapes, where no pattern ends and no name is used.
        skipped: &[
            "using_directive",
            "string_literal",
            "raw_string_literal",
            "character_literal",
        ],
    },
    // The parents whose children's fields are read, with those fields and where the grammar
    // puts them (`tree-sitter-c-sharp`'s `grammar.js`): by the matcher
    // (`crate::lang::csharp::walk`), member calls (`extensions::member_call`), attribute names and
    // namespace names (`namespace_names`, which reads the fields of the qualified names around
    // a node, not those under them).
    field_parents: Some(&[
        ("object_creation_expression", &[First("type")]),
        ("member_access_expression", &[Last("name")]),
        ("member_binding_expression", &[Last("name")]),
        (
            "invocation_expression",
            &[First("function"), Last("arguments")],
        ),
        ("parameter", &[Any("type"), Any("name")]),
        ("variable_declarator", &[First("name")]),
        ("variable_declaration", &[First("type")]),
        ("property_declaration", &[Any("type"), Any("name")]),
        ("attribute", &[First("name")]),
        ("assignment_expression", &[First("left"), Last("right")]),
        ("namespace_declaration", &[First("name")]),
        ("file_scoped_namespace_declaration", &[First("name")]),
        ("qualified_name", &[Last("name")]),
    ]),
    // `x.Timeout`, `x?.Timeout`, `int Timeout { get; }`, a local or parameter `Timeout`, and
    // `Timeout = 5` (an object initializer's member, a local, a property): never the class
    // named `Timeout`.
    member_names: &[
        ("member_access_expression", "name"),
        ("member_binding_expression", "name"),
        ("property_declaration", "name"),
        ("variable_declarator", "name"),
        ("parameter", "name"),
        ("assignment_expression", "left"),
    ],
    // The later names of `Acme.Http.Timeout`, which the chain resolves as a whole (`Stripe.
    // PaymentMethod` is no use of the project's `PaymentMethod`).
    chain_member_names: &[("qualified_name", "name")],
    later_segments: &[],
    // The nodes whose facts name their scopes: calls, assignments, attributes.
    scoped: &[
        "invocation_expression",
        "assignment_expression",
        "attribute",
    ],
    prune_parents: &[],
    ids: OnceLock::new(),
};

#[cfg(test)]
mod tests;
