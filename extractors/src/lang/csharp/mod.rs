//! The C# extractor: edges to the project types a file uses, resolved through the namespace
//! type index, and infrastructure clients.
//!
//! A file sees the types of its own namespaces (and their parents), of its `using` directives,
//! of the `global using`s of its project's files and of the usings its project file gives it
//! (`<Using>` items and the SDK's implicit usings of the nearest `.csproj`, `context/csproj.rs`),
//! declared in its project or a project it references (`<ProjectReference>`, transitively; a
//! file under no `.csproj`, or a project with a reference lintel cannot follow, sees every
//! project's). Each identifier of the file that names such a
//! type declared in another file is an edge: one `import` fact per declaring file (partial
//! classes give several), at the first use, with specifier `<namespace>.<Type>`; so a `using`
//! whose types the file never uses gives no edge. The parts of a partial type get no edges to
//! each other through its name. A `using` of a namespace the project does not declare is an
//! `external` fact with the namespace as `package`; `using X = A.B.C;` and `using static A.B.C;`
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
use crate::resolve::context::{Declarations, ExtensionMethod, Resolution, TypeIndex};
use crate::resolve::deferred::{
    Anchor, Anchors, Finishing, Output, PackedChains, PackedNames, Reader, WalkKinds, Writer,
};
use crate::resolve::links::RouteLinks;
use crate::syntax::ChildField;
use crate::syntax::{self, has_token, named_children, Fnv};
use crate::walk::FieldAt::{Any, First, Last};
use walk::{field_child, Child, Kind};

mod bound;
mod extensions;
mod namespace_names;

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
    // It also collects the attribute names, which name classes (`[OrderFilter]`), and the
    // first member call of each method name and argument count, which may call an extension
    // method (`services.AddInfrastructure(configuration)`).
    let mut attributes = Vec::new();
    let mut member_calls: BTreeMap<(&str, usize), (Node<'_>, u32)> = BTreeMap::new();
    // The scope of each `using` directive, by node id.
    let mut using_scopes: Vec<(usize, u32)> = Vec::new();
    // The variable declarators, methods and local functions, in order, where minimal-API
    // routes look up the names of groups and handlers (`aspnet::routes`).
    let mut declared = Vec::new();
    // The class declarations, whose route templates controllers inherit (`aspnet::routes`).
    let mut classes = Vec::new();
    // And the constructor parameters with their ancestors, for the DI facts.
    let mut constructor_parameters = crate::lang::csharp::aspnet::ConstructorParameters::default();
    // And it notes the names of namespace declarations, which are not uses.
    let mut namespace_names = namespace_names::NamespaceNames::default();
    // And the names of the types declared inside other types.
    let mut nested = Vec::new();

    let walked = out
        .anchors
        .walk_scoped(&WALK_KINDS, None, |node, field, ancestors, visited| {
            // The kinds of the node and of its parent, for every visitor.
            let scope = visited.scope;
            let kind = walk::kind_for(visited.kind_id);
            let parent_kind = visited.parent_kind_id.map_or(Kind::Other, walk::kind_for);
            matcher.visit_kinds(node, kind, parent_kind, field, ancestors);
            // A type declared inside another shadows the namespaces' types of its name.
            if kind.declares_type()
                && ancestors
                    .iter()
                    .any(|(ancestor, _)| walk::kind(*ancestor).declares_type())
            {
                nested.extend(name_text(node, source));
            }
            match kind {
                Kind::Using => using_scopes.push((node.id(), scope)),
                Kind::VariableDeclarator | Kind::MethodDeclaration | Kind::LocalFunction => {
                    declared.push(node);
                }
                Kind::ClassDeclaration => classes.push(node),
                Kind::Parameter => constructor_parameters.visit(node, ancestors),
                _ => {}
            }
            if let Some(name) = attribute_name(node, kind, parent_kind, field, source) {
                attributes.push((name, node, scope));
            }
            if let Some((identifier, name, arguments)) =
                extensions::member_call(node, kind, parent_kind, field, ancestors, source)
            {
                member_calls
                    .entry((name, arguments))
                    .or_insert((identifier, scope));
            }
            namespace_names.visit(node, kind, parent_kind, field, ancestors, source);
        });
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
    // The file's own declarations, read before extraction (`crate::declarations_of`).
    let own = match input
        .declarations
        .and_then(|declared| declared.csharp_types())
    {
        Some(types) => types.clone(),
        None => declarations(input.tree, source).types,
    };
    let (mut uses, mut chains) = (walked.uses, walked.chains);
    // A nested type's name, where the file uses it, names that type (C# looks in the
    // enclosing types before the namespaces).
    for name in &nested {
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
                let scope = out.anchors.scope_of(node);
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
                    .or_insert_with(|| (node, out.anchors.walked_scope_of(node, scope)));
            }
            Some((qualifier, last)) => {
                let mut segments: Vec<String> = qualifier.split('.').map(str::to_owned).collect();
                segments.push(format!("{last}Attribute"));
                chains.push((segments, node, out.anchors.walked_scope_of(node, scope)));
            }
        }
    }
    let chains = distinct_chains(chains);
    let anchored_usings: Vec<Using<Anchor>> = usings
        .iter()
        .map(|using| Using {
            node: match using_scopes.iter().find(|(id, _)| *id == using.node.id()) {
                Some((_, scope)) => out.anchors.at_walked(using.node, *scope),
                None => out.anchors.at(using.node),
            },
            alias: using.alias.clone(),
            path: using.path.clone(),
            is_static: using.is_static,
            depth: using.depth,
        })
        .collect();
    let calls: Vec<MemberCall> = member_calls
        .into_iter()
        .map(|((name, arguments), (node, scope))| MemberCall {
            name: name.into(),
            arguments,
            anchor: out.anchors.at_walked(node, scope),
        })
        .collect();
    let has_bound_clients = factory.generic().has_bound_clients();
    let bound_sites: Vec<bound::BoundSite> = if has_bound_clients {
        hits.iter()
            .filter(|hit| hit.kind == FactKind::AccessesTechnology)
            .filter_map(|hit| client_site(hit, source, None))
            .map(|site| {
                let anchor = out.anchors.with_scope(site.node, scope_of(site.node));
                (anchor, site.use_kind, site.path)
            })
            .collect()
    } else {
        Vec::new()
    };
    let pending = PendingUses {
        usings: pack_usings(&anchored_usings),
        own,
        uses: PackedNames::new(uses, &out.anchors),
        chains: PackedChains::new(&chains, &out.anchors),
        member_calls: pack_member_calls(&calls),
        bound_sites,
    };
    out.defer(Box::new(pending));
    let matcher = ClientMatcher {
        rules: crate::catalogue::catalogue().libraries("csharp"),
        separator: ".",
    };
    let client_sites: Vec<ClientSite<'_>> = hits
        .iter()
        .filter(|hit| hit.kind == FactKind::AccessesTechnology)
        .filter_map(|hit| client_site(hit, source, Some(&matcher)))
        .collect();
    let client_imports: Vec<ClientImport<'_>> = usings
        .iter()
        .map(|using| ClientImport {
            node: using.node,
            path: using.path.clone(),
            is_project: false,
        })
        .collect();
    out.facts
        .extend(matcher.facts(&factory, &client_sites, &client_imports, &scope_of));
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
    let mut links = RouteLinks::default();
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
        }
    }
    out.into_facts(&input.deferred)
}

/// What a C# file needs from the type index, kept from its first pass (`crate::resolve::deferred`).
///
/// A file sees the types of its own namespaces (and their parents), of its `using` directives,
/// of every `global using` in the project and of its project file's usings; `finish` makes its
/// `using`, type-use and extension-call facts.
#[derive(Debug)]
pub(crate) struct PendingUses {
    /// The `using` directives ([`pack_usings`]).
    usings: Box<[u8]>,
    /// The file's own declarations.
    own: Declarations,
    /// The first use of each identifier outside `using`s (`[OrderFilter]` as
    /// `OrderFilterAttribute`).
    uses: PackedNames,
    /// The dotted chains of names, in order, then the qualified attribute names.
    chains: PackedChains,
    /// The first member call of each method name and argument count, sorted, packed
    /// ([`pack_member_calls`]).
    member_calls: Box<[u8]>,
    /// The sites that may use a library the spec binds (none when it binds nothing).
    bound_sites: Vec<bound::BoundSite>,
}

/// A file's `using`s packed while it waits for the type index, as its first uses are
/// (`crate::resolve::deferred::PackedNames`): a path is written after the one before it, which it
/// mostly begins like.
fn pack_usings(usings: &[Using<Anchor>]) -> Box<[u8]> {
    let mut writer = Writer::default();
    writer.number(usings.len());
    let mut previous = "";
    for using in usings {
        writer.number(usize::from(using.is_static) | usize::from(using.alias.is_some()) << 1);
        writer.text_after(previous, &using.path);
        if let Some(alias) = &using.alias {
            writer.text_after("", alias);
            writer.number(using.depth);
        }
        writer.anchor(using.node);
        previous = &using.path;
    }
    writer.into_bytes()
}

/// The `using`s of [`pack_usings`].
fn unpack_usings(bytes: &[u8]) -> Vec<Using<Anchor>> {
    let mut reader = Reader::new(bytes);
    let count = reader.number().unwrap_or(0);
    // Each entry takes a byte at least: no count read back reserves more than that.
    let mut usings: Vec<Using<Anchor>> = Vec::with_capacity(count.min(bytes.len()));
    for _ in 0..count {
        let Some(using) = (|| {
            let flags = reader.number()?;
            let previous = usings.last().map_or("", |using| using.path.as_str());
            let path = reader.text_following(previous)?;
            let (alias, depth) = match flags & 2 {
                0 => (None, 0),
                _ => (Some(reader.text_following("")?), reader.number()?),
            };
            Some(Using {
                node: reader.anchor()?,
                alias,
                path,
                is_static: flags & 1 != 0,
                depth,
            })
        })() else {
            break;
        };
        usings.push(using);
    }
    usings
}

/// A file's member calls (sorted by name, then argument count), packed like its `using`s.
fn pack_member_calls(calls: &[MemberCall]) -> Box<[u8]> {
    let mut writer = Writer::default();
    writer.number(calls.len());
    let mut previous = "";
    for call in calls {
        writer.text_after(previous, &call.name);
        writer.number(call.arguments);
        writer.anchor(call.anchor);
        previous = &call.name;
    }
    writer.into_bytes()
}

/// The member calls of [`pack_member_calls`].
fn unpack_member_calls(bytes: &[u8]) -> Vec<MemberCall> {
    let mut reader = Reader::new(bytes);
    let count = reader.number().unwrap_or(0);
    let mut calls: Vec<MemberCall> = Vec::with_capacity(count.min(bytes.len()));
    for _ in 0..count {
        let Some(call) = (|| {
            let previous = calls.last().map_or("", |call| &*call.name);
            let name = reader.text_following(previous)?;
            Some(MemberCall {
                name: name.into_boxed_str(),
                arguments: reader.number()?,
                anchor: reader.anchor()?,
            })
        })() else {
            break;
        };
        calls.push(call);
    }
    calls
}

impl PendingUses {
    /// The file's `using` and type-use facts.
    pub fn finish(self, finishing: &Finishing<'_>, facts: &mut Vec<Fact>) {
        let index = finishing.context.csharp_types();
        let path = finishing.path;
        let (usings, uses, chains) = (
            unpack_usings(&self.usings),
            self.uses.unpack(),
            self.chains.unpack(),
        );
        let member_calls = unpack_member_calls(&self.member_calls);
        let (usings, own, uses, chains) = (&usings, &self.own, &uses, &chains);
        let mut sites = Vec::new();
        // The namespaces the file sees, `global using`s of other files aside (borrowed: a file
        // sees every project's global usings, a few hundred names to copy per file).
        let mut visible: BTreeSet<&str> = BTreeSet::new();
        // `using Orders = Acme.Orders;`: alias → project namespace.
        let mut namespace_aliases: BTreeMap<&str, &str> = BTreeMap::new();
        // Every alias (of a type, a namespace, or a name from outside the project), with the
        // depth of the namespace whose declaration holds it ([`Using::depth`]): it hides the
        // types of that name the usings' namespaces import.
        let mut alias_depths: BTreeMap<&str, usize> = BTreeMap::new();
        let project = finishing.context.csharp_project_usings(path);
        if let Some(project) = project {
            visible.extend(project.namespaces.iter().map(String::as_str));
        }
        for using in usings {
            if let (Some(alias), false) = (&using.alias, using.is_static) {
                let depth = alias_depths.entry(alias).or_insert(using.depth);
                *depth = (*depth).min(using.depth);
                if declares_namespace(index, &using.path) {
                    namespace_aliases.insert(alias, &using.path);
                    continue;
                }
            }
            if using.alias.is_some() || using.is_static {
                let resolution = resolve_type(index, &using.path);
                let mut site =
                    ImportSiteAt::new(using.node, using.path.clone(), resolution, "using of");
                site.alias = using.alias.clone();
                sites.push(site);
                continue;
            }
            visible.insert(using.path.as_str());
            if !index.owns_package(&using.path) {
                sites.push(ImportSiteAt::new(
                    using.node,
                    using.path.clone(),
                    Resolution::External {
                        package: using.path.clone(),
                    },
                    "using of",
                ));
            }
        }
        // The namespaces around the file's declarations, the global one included.
        let mut enclosing: BTreeSet<&str> = BTreeSet::from([""]);
        for (namespace, _) in own {
            let mut current = namespace.as_str();
            loop {
                visible.insert(current);
                enclosing.insert(current);
                match current.rsplit_once('.') {
                    Some((parent, _)) => current = parent,
                    None => break,
                }
            }
        }
        visible.insert("");
        // The file sees the `global using`s of its own project (every file's when it is in
        // none), as the compiler does, looked up where needed rather than copied into each
        // file's set (a few hundred names); and the types of its project and of the projects
        // it references (`<ProjectReference>`, transitively; every project's when it is in none
        // or its references are not all known).
        let context = finishing.context;
        let own_project = context.csharp_project_of(path);
        let global_usings = context.csharp_project_global_usings(own_project);
        let sees_file = |declaring: &str| context.csharp_project_sees(own_project, declaring);
        // `<Using Include="Acme.Orders" Alias="Orders" />` in the project file, then `global
        // using Orders = Acme.Orders;` in a file of the project: an alias of a project
        // namespace, unless the file has its own alias of that name (or the project file did).
        let global_aliases = context.csharp_project_global_aliases(own_project);
        let mut project_type_aliases: Vec<(&str, &str)> = Vec::new();
        for (alias, target) in project
            .into_iter()
            .flat_map(|project| &project.aliases)
            .chain(global_aliases)
        {
            if alias_depths.contains_key(alias.as_str()) {
                continue;
            }
            alias_depths.insert(alias, 0);
            if declares_namespace(index, target) {
                namespace_aliases.insert(alias, target);
            } else {
                project_type_aliases.push((alias, target));
            }
        }
        // The names an alias binds where the file uses them.
        let mut aliased: BTreeSet<&str> = BTreeSet::new();
        let mut by_file = FileUses::default();
        // The (name, namespace) pairs where a visible namespace declares a name the file uses,
        // in name then namespace order: looked up from each name the file uses (a few hundred)
        // to the few namespaces that declare it, as a file sees many namespaces.
        let mut used: Vec<(&str, &str, &BTreeSet<String>, Anchor)> = Vec::new();
        for (name, first_use) in uses.iter() {
            let candidates: Vec<(&str, &BTreeSet<String>)> = index
                .packages_declaring(name)
                .iter()
                .filter(|namespace| {
                    visible.contains(namespace.as_str())
                        || global_usings.contains(namespace.as_str())
                })
                .filter_map(|namespace| {
                    let files = index.package(namespace)?.get(name)?;
                    files
                        .iter()
                        .any(|file| sees_file(file))
                        .then_some((namespace.as_str(), files))
                })
                .collect();
            // C# binds a simple name in the innermost enclosing namespace that declares it (the
            // global one last) before any `using` is looked at; only when none does do the
            // usings' namespaces compete (`Acme.Sales.Order` over `Acme.Order` in `Acme.Sales`).
            // An alias of the name (`using Order = Acme.Legacy.Order;`) comes between: it is
            // looked at with its namespace declaration, after the namespaces inside that one
            // and before any using of a namespace, whose types it hides; its own `using` fact
            // is the edge to what it names.
            let innermost = candidates
                .iter()
                .filter(|(namespace, _)| enclosing.contains(namespace))
                .max_by_key(|(namespace, _)| depth(namespace));
            let alias_depth = alias_depths.get(name);
            match (innermost, alias_depth) {
                (Some((namespace, files)), _)
                    if alias_depth.is_none_or(|alias| depth(namespace) > *alias) =>
                {
                    used.push((name, namespace, files, first_use));
                }
                (_, Some(_)) => {
                    aliased.insert(name);
                }
                (_, None) => used.extend(
                    candidates
                        .into_iter()
                        .map(|(namespace, files)| (name, namespace, files, first_use)),
                ),
            }
        }
        used.sort_by(|left, right| left.0.cmp(right.0).then_with(|| left.1.cmp(right.1)));
        for (name, namespace, files, first_use) in used {
            {
                // A part of a partial type does not depend on the other parts through its name.
                if own
                    .iter()
                    .any(|(declared_in, declared)| declared_in == namespace && declared == name)
                {
                    continue;
                }
                for declaring in files.iter().filter(|file| *file != path && sees_file(file)) {
                    by_file.add(
                        declaring,
                        first_use,
                        || qualified(namespace, name),
                        TYPE_USE,
                        name,
                    );
                }
            }
        }
        // `<Using Include="Acme.Orders.Order" Alias="Purchase" />` or `global using Purchase =
        // Acme.Orders.Order;` in another file: `Purchase` names the type.
        for (alias, target) in project_type_aliases {
            let Some(first_use) = uses.get(alias).filter(|_| aliased.contains(alias)) else {
                continue;
            };
            if let Resolution::File(declaring) = resolve_type(index, target) {
                if declaring != path {
                    let name = target.rsplit('.').next().unwrap_or(target);
                    by_file.add(&declaring, first_use, || target.to_owned(), TYPE_USE, name);
                }
            }
        }
        // Qualified uses: `Acme.Orders.OrderService`, `global::Acme.X`, relative to an
        // enclosing namespace (`Orders.OrderService` inside `namespace Acme`) or through a
        // namespace alias.
        let file_aliases = Aliases {
            namespaces: &namespace_aliases,
            depths: &alias_depths,
        };
        let (no_namespaces, no_depths) = (BTreeMap::new(), BTreeMap::new());
        let no_aliases = Aliases {
            namespaces: &no_namespaces,
            depths: &no_depths,
        };
        for (segments, node) in chains.iter() {
            // `global::` looks in the global namespace, past every alias.
            let (segments, aliases): (&[&str], _) = match segments.split_first() {
                Some((first, rest)) if *first == "global" => (rest, &no_aliases),
                _ => (&segments, &file_aliases),
            };
            let Some((namespace, name, files)) = qualified_target(index, segments, own, aliases)
            else {
                continue;
            };
            for declaring in files.iter().filter(|file| *file != path && sees_file(file)) {
                by_file.add(
                    declaring,
                    node,
                    || qualified(&namespace, name),
                    TYPE_USE,
                    name,
                );
            }
        }
        let statics = project.map(|project| &project.statics);
        extensions::add_calls(
            &mut by_file,
            index,
            &member_calls,
            &ExtensionScope {
                path,
                own,
                visible: &visible,
                global_usings,
                statics,
                sees: &|declaring, is_public| context.csharp_sees(path, declaring, is_public),
            },
        );
        for (declaring, used) in by_file.0 {
            let mut site = ImportSiteAt::new(
                used.first,
                used.specifier,
                Resolution::File(declaring),
                used.construct,
            );
            site.names = used.names;
            sites.push(site);
        }
        facts.extend(
            sites
                .iter()
                .filter(|site| imports::kept(&finishing.factory, &site.resolution))
                .map(|site| imports::fact(&finishing.factory, site, finishing.scope(site.node))),
        );
        if !self.bound_sites.is_empty() {
            bound::facts(finishing, index, usings, self.bound_sites, facts);
        }
    }
}

/// The project files a file uses, each with the first use, its specifier, the construct it is
/// (for the message) and the names used.
#[derive(Default)]
struct FileUses(BTreeMap<String, FileUse>);

/// The uses of one project file.
struct FileUse {
    first: Anchor,
    specifier: String,
    construct: &'static str,
    names: Vec<String>,
}

/// The construct of a type use, for the message.
const TYPE_USE: &str = "use of type";
/// The construct of an extension-method call, for the message.
const EXTENSION_CALL: &str = "call of an extension method of";

impl FileUses {
    /// Records a use of `name` (specifier `specifier()`, a `construct`) at `anchor` of a type
    /// of `declaring`: the earliest use gives the fact's place, specifier and message.
    fn add(
        &mut self,
        declaring: &str,
        anchor: Anchor,
        specifier: impl FnOnce() -> String,
        construct: &'static str,
        name: &str,
    ) {
        let entry = match self.0.get_mut(declaring) {
            Some(entry) => {
                if anchor.start_byte() < entry.first.start_byte() {
                    entry.first = anchor;
                    entry.specifier = specifier();
                    entry.construct = construct;
                }
                entry
            }
            None => self
                .0
                .entry(declaring.to_owned())
                .or_insert_with(|| FileUse {
                    first: anchor,
                    specifier: specifier(),
                    construct,
                    names: Vec::new(),
                }),
        };
        if !entry.names.iter().any(|known| known == name) {
            entry.names.push(name.to_owned());
        }
    }
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
/// `A.B.Outer.Inner` resolves to the file of `Outer`.
fn resolve_type(index: &TypeIndex, path: &str) -> Resolution {
    let path = path.split('<').next().unwrap_or(path);
    let segments: Vec<&str> = path.split('.').collect();
    for split in (1..segments.len()).rev() {
        let (Some(namespace), Some(name)) = (segments.get(..split), segments.get(split)) else {
            continue;
        };
        if let Some(file) = index
            .files_of(&namespace.join("."), name)
            .and_then(|files| files.iter().next())
        {
            return Resolution::File(file.clone());
        }
    }
    let (namespace, _) = path.rsplit_once('.').unwrap_or(("", path));
    match index
        .files_of("", path)
        .and_then(|files| files.iter().next())
    {
        Some(file) => Resolution::File(file.clone()),
        None if index.owns_package(namespace) => Resolution::Internal,
        None => Resolution::External {
            package: namespace.to_owned(),
        },
    }
}

/// Whether the project declares types in `namespace`.
fn declares_namespace(index: &TypeIndex, namespace: &str) -> bool {
    index.package(namespace).is_some()
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
    index: &'index TypeIndex,
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
    // Only an alias's place is read (a directive's namespace counts only for the names it
    // declares).
    let depth = match alias {
        Some(_) => namespace_depth(directive, source),
        None => 0,
    };
    Some(Using {
        node: directive,
        alias,
        path: syntax::unspaced_text(target, source, 400),
        is_static: using_keywords(directive, source).1,
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
    // The nodes whose facts name their scopes: calls, assignments, attributes.
    scoped: &[
        "invocation_expression",
        "assignment_expression",
        "attribute",
    ],
    prune_parents: &[],
    ids: OnceLock::new(),
};

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

impl crate::resolve::deferred::Part for PendingUses {
    fn finish(
        self: Box<Self>,
        finishing: &mut crate::resolve::deferred::Finishing<'_>,
        facts: &mut Vec<Fact>,
    ) {
        PendingUses::finish(*self, finishing, facts);
    }
}

#[cfg(test)]
mod tests {
    use super::{
        pack_member_calls, pack_usings, unpack_member_calls, unpack_usings, Anchor, MemberCall,
        Using,
    };

    /// The `using`s and member calls a file keeps for its second pass come back as they were:
    /// aliases, `using static`, paths that share a prefix with the one before, or none.
    #[test]
    fn packed_usings_and_member_calls_come_back() {
        let anchors = crate::resolve::deferred::test_anchors();
        let usings: Vec<Using<Anchor>> = [
            ("System", None, false),
            ("System.Linq", None, false),
            ("Bit.Core.Entities", Some("Entities"), false),
            ("Bit.Core.Utilities.CoreHelpers", None, true),
            ("Élan", Some("É"), true),
            ("", None, false),
        ]
        .iter()
        .zip(anchors.iter().cycle())
        .map(|((path, alias, is_static), anchor)| Using {
            node: *anchor,
            alias: alias.map(str::to_owned),
            path: (*path).to_owned(),
            is_static: *is_static,
            depth: usize::from(alias.is_some()) * 2,
        })
        .collect();
        let read = unpack_usings(&pack_usings(&usings));
        let fields = |using: &Using<Anchor>| {
            (
                using.node,
                using.alias.clone(),
                using.path.clone(),
                using.is_static,
                using.depth,
            )
        };
        assert_eq!(
            read.iter().map(fields).collect::<Vec<_>>(),
            usings.iter().map(fields).collect::<Vec<_>>()
        );

        let calls: Vec<MemberCall> = [("AddScoped", 0), ("AddScoped", 2), ("AddSingleton", 1)]
            .iter()
            .zip(anchors.iter().cycle())
            .map(|((name, arguments), anchor)| MemberCall {
                name: (*name).into(),
                arguments: *arguments,
                anchor: *anchor,
            })
            .collect();
        let read = unpack_member_calls(&pack_member_calls(&calls));
        let fields = |call: &MemberCall| (call.name.clone(), call.arguments, call.anchor);
        assert_eq!(
            read.iter().map(fields).collect::<Vec<_>>(),
            calls.iter().map(fields).collect::<Vec<_>>()
        );
    }

    /// `global` and `static` are read from the keywords before the name, or from the tokens
    /// when a comment stands among them.
    #[test]
    fn using_keywords_are_read_before_the_name() {
        let cases = [
            ("using A.B;", (false, false)),
            ("using static A.B;", (false, true)),
            ("global using A.B;", (true, false)),
            ("global  using\n static A.B;", (true, true)),
            ("using /* static */ A.B;", (false, false)),
            ("using /* c */ static A.B;", (false, true)),
            ("global /* c */ using A.B;", (true, false)),
            ("using unsafe static A.B;", (false, true)),
            ("global using X = A.B;", (true, false)),
            ("using X = global::A.B;", (false, false)),
        ];
        let grammar = crate::language::Language::CSharp
            .spec()
            .tree_sitter()
            .expect("C# is a tree-sitter language")
            .grammar;
        for (source, expected) in cases {
            let tree = crate::syntax::parse(grammar, source).expect("a tree");
            let directive = crate::syntax::named_children(tree.root_node())
                .into_iter()
                .find(|node| node.kind() == "using_directive")
                .expect("a using directive");
            assert_eq!(
                super::using_keywords(directive, source),
                expected,
                "{source}"
            );
        }
    }

    crate::walk::query_parity::check_fields_test!(
        crate::language::Language::CSharp,
        &super::WALK_KINDS,
        "LINTEL_CSHARP_WALK_CORPUS",
        100,
        [
            "class A { void F() { x.Y = ; a.( ; new (); [Route(] int P { get; } } }",
            "namespace /* c */ A . B { class C { void F() { a /* c */ . b /* c */ (c) ; } } }",
            "namespace A; class C { C(int a = 1, [X] ref int b) { x = y = z; m?.N(1); } }",
        ]
    );
}
