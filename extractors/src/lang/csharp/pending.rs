//! What a C# file keeps for the second pass ([`PendingUses`]): its `using`s, the names it uses
//! and its extension-method calls, packed without the tree, and their resolution once the type
//! index is complete.

use super::*;
use crate::resolve::context::ProjectUsings;
use crate::resolve::deferred::{Chains, NameAnchors};

/// What a C# file needs from the type index, kept from its first pass (`crate::resolve::deferred`).
///
/// A file sees the types of its own namespaces (and their parents), of its `using` directives,
/// of every `global using` in the project and of its project file's usings; `finish` makes its
/// `using`, type-use and extension-call facts.
#[derive(Debug)]
pub(crate) struct PendingUses {
    /// The `using` directives ([`pack_usings`]).
    pub(super) usings: Box<[u8]>,
    /// The file's own declarations.
    pub(super) own: Declarations,
    /// The first use of each identifier outside `using`s (`[OrderFilter]` as
    /// `OrderFilterAttribute`).
    pub(super) uses: PackedNames,
    /// The dotted chains of names, in order, then the qualified attribute names.
    pub(super) chains: PackedChains,
    /// The first member call of each method name and argument count, sorted, packed
    /// ([`pack_member_calls`]).
    pub(super) member_calls: Box<[u8]>,
    /// The sites that may use a library the spec binds (none when it binds nothing).
    pub(super) bound_sites: Vec<bound::BoundSite>,
    /// The catalogue calls that may be a project type's static methods.
    pub(super) static_calls: static_calls::StaticCalls,
}

/// A file's `using`s packed while it waits for the type index, as its first uses are
/// (`crate::resolve::deferred::PackedNames`): a path is written after the one before it, which it
/// mostly begins like.
pub(super) fn pack_usings(usings: &[Using<Anchor>]) -> Box<[u8]> {
    let mut writer = Writer::default();
    writer.number(usings.len());
    let mut previous = "";
    for using in usings {
        writer.number(usize::from(using.is_static) | usize::from(using.alias.is_some()) << 1);
        writer.text_after(previous, &using.path);
        if let Some(alias) = &using.alias {
            writer.text_after("", alias);
        }
        if using.alias.is_some() || using.is_static {
            writer.number(using.depth);
        }
        writer.anchor(using.node);
        previous = &using.path;
    }
    writer.into_bytes()
}

/// The `using`s of [`pack_usings`].
pub(super) fn unpack_usings(bytes: &[u8]) -> Vec<Using<Anchor>> {
    let mut reader = Reader::new(bytes);
    let count = reader.number().unwrap_or(0);
    // Each entry takes a byte at least: no count read back reserves more than that.
    let mut usings: Vec<Using<Anchor>> = Vec::with_capacity(count.min(bytes.len()));
    for _ in 0..count {
        let Some(using) = (|| {
            let flags = reader.number()?;
            let previous = usings.last().map_or("", |using| using.path.as_str());
            let path = reader.text_following(previous)?;
            let alias = match flags & 2 {
                0 => None,
                _ => Some(reader.text_following("")?),
            };
            let depth = match flags {
                0 => 0,
                _ => reader.number()?,
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
pub(super) fn pack_member_calls(calls: &[MemberCall]) -> Box<[u8]> {
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
pub(super) fn unpack_member_calls(bytes: &[u8]) -> Vec<MemberCall> {
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
        let project = finishing.context.csharp_project_usings(path);
        // A file the build leaves out (`<Compile Remove>`) has no unresolved using.
        let compile_removed = finishing.context.csharp_compile_removed(path);
        let UsingScope {
            mut sites,
            mut visible,
            mut namespace_aliases,
            mut alias_depths,
        } = UsingScope::read(
            index,
            usings,
            project,
            &ProjectNamespaces {
                enclosing: enclosing_namespaces(own, &mut BTreeSet::new()),
                is_missing: &|namespace| {
                    !compile_removed && finishing.context.csharp_namespace_is_missing(namespace)
                },
                is_projects: &|namespace| {
                    !compile_removed
                        && finishing
                            .context
                            .csharp_namespace_is_the_projects(namespace)
                },
                may_be_unread: &|namespace| {
                    finishing.context.csharp_namespace_may_be_unread(namespace)
                },
            },
        );
        let enclosing = enclosing_namespaces(own, &mut visible);
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
        let mut by_file = FileUses::default();
        // The names an alias binds where the file uses them.
        let aliased = add_simple_name_uses(
            &mut by_file,
            index,
            uses,
            &SimpleNameScope {
                visible: &visible,
                global_usings,
                enclosing: &enclosing,
                alias_depths: &alias_depths,
                own,
                path,
            },
            &sees_file,
        );
        // `<Using Include="Acme.Orders.Order" Alias="Purchase" />` or `global using Purchase =
        // Acme.Orders.Order;` in another file: `Purchase` names the type.
        for (alias, target) in project_type_aliases {
            let Some(first_use) = uses.get(alias).filter(|_| aliased.contains(alias)) else {
                continue;
            };
            if let Resolution::File(declaring) =
                resolve_type(index, target, &BTreeSet::new(), &|_| false)
            {
                if declaring != path {
                    let name = target.rsplit('.').next().unwrap_or(target);
                    by_file.add(&declaring, first_use, || target.to_owned(), TYPE_USE, name);
                }
            }
        }
        add_qualified_uses(
            &mut by_file,
            index,
            chains,
            own,
            &namespace_aliases,
            &alias_depths,
            path,
            &sees_file,
        );
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
        if !self.static_calls.is_empty() {
            let project_usings: Vec<&str> = global_usings
                .iter()
                .chain(project.into_iter().flat_map(|project| &project.namespaces))
                .map(String::as_str)
                .collect();
            static_calls::facts(
                finishing,
                index,
                (usings, &project_usings),
                self.static_calls,
                facts,
            );
        }
    }
}

/// The namespaces around the file's declarations (`own`), the global one included; the file
/// sees them all (added to `visible`).
fn enclosing_namespaces<'a>(
    own: &'a Declarations,
    visible: &mut BTreeSet<&'a str>,
) -> BTreeSet<&'a str> {
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
    enclosing
}

/// Where a file's simple names may bind: the namespaces it sees (its own, its usings', its
/// project's `global using`s), the namespaces around its declarations and its aliases.
struct SimpleNameScope<'s> {
    visible: &'s BTreeSet<&'s str>,
    global_usings: &'s BTreeSet<String>,
    enclosing: &'s BTreeSet<&'s str>,
    alias_depths: &'s BTreeMap<&'s str, usize>,
    own: &'s Declarations,
    path: &'s str,
}

/// Adds the uses of the file's simple names (`uses`: each name with its first use) to
/// `by_file`, bound as the compiler binds them; returns the names an alias binds instead.
fn add_simple_name_uses<'u>(
    by_file: &mut FileUses,
    index: Types<'_>,
    uses: &'u NameAnchors,
    scope: &SimpleNameScope<'_>,
    sees_file: &dyn Fn(&str) -> bool,
) -> BTreeSet<&'u str> {
    let SimpleNameScope {
        visible,
        global_usings,
        enclosing,
        alias_depths,
        own,
        path,
    } = *scope;
    let mut aliased: BTreeSet<&str> = BTreeSet::new();
    // The (name, namespace) pairs where a visible namespace declares a name the file uses,
    // in name then namespace order: looked up from each name the file uses (a few hundred)
    // to the few namespaces that declare it, as a file sees many namespaces.
    let mut used: Vec<(&str, &str, &BTreeSet<String>, Anchor)> = Vec::new();
    for (name, first_use) in uses.iter() {
        let candidates: Vec<(&str, &BTreeSet<String>)> = index
            .packages_declaring(name)
            .iter()
            .filter(|namespace| {
                visible.contains(namespace.as_str()) || global_usings.contains(namespace.as_str())
            })
            .filter_map(|namespace| {
                // Asked by name: a file depends on the types it names, not on the rest of
                // each namespace it sees.
                let files = index.files_of(namespace, name)?;
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
    aliased
}

/// What a file's own `using`s give.
struct UsingScope<'a> {
    /// Their facts: `using` aliases of types and `using static` (edges to the type's file),
    /// and the namespaces the project does not declare (`external`).
    sites: Vec<ImportSiteAt<Anchor>>,
    /// The namespaces the file sees, `global using`s of other files aside (borrowed: a file
    /// sees every project's global usings, a few hundred names to copy per file).
    visible: BTreeSet<&'a str>,
    /// `using Orders = Acme.Orders;`: alias → project namespace.
    namespace_aliases: BTreeMap<&'a str, &'a str>,
    /// Every alias (of a type, a namespace, or a name from outside the project), with the
    /// depth of the namespace whose declaration holds it ([`Using::depth`]): it hides the
    /// types of that name the usings' namespaces import.
    alias_depths: BTreeMap<&'a str, usize>,
}

/// Which namespaces are the project's to declare (`ProjectContext::csharp_namespace_is_the_projects`).
struct ProjectNamespaces<'a> {
    /// The namespaces the file declares types in, with the namespaces above them, innermost
    /// first: a `using` inside a namespace may name a type relative to them.
    enclosing: BTreeSet<&'a str>,
    /// The namespace is the project's, and nothing declares it or a namespace below it.
    is_missing: &'a dyn Fn(&str) -> bool,
    /// The namespace is the project's.
    is_projects: &'a dyn Fn(&str) -> bool,
    /// A file lintel does not read may declare the namespace (one the spec excludes).
    may_be_unread: &'a dyn Fn(&str) -> bool,
}

impl<'a> UsingScope<'a> {
    /// Reads the file's `usings` (and the namespaces its `project` file gives it) against the
    /// type index; `namespaces` tells the namespaces that are the project's to declare.
    fn read(
        index: Types<'_>,
        usings: &'a [Using<Anchor>],
        project: Option<&'a ProjectUsings>,
        context: &ProjectNamespaces<'_>,
    ) -> Self {
        let mut sites = Vec::new();
        let mut visible: BTreeSet<&str> = BTreeSet::new();
        let mut namespace_aliases: BTreeMap<&str, &str> = BTreeMap::new();
        let mut alias_depths: BTreeMap<&str, usize> = BTreeMap::new();
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
                let mut relative: BTreeSet<&str> = visible.clone();
                if using.depth > 0 {
                    relative.extend(
                        context
                            .enclosing
                            .iter()
                            .filter(|namespace| !namespace.is_empty()),
                    );
                }
                let resolution = resolve_type(index, &using.path, &relative, context.is_projects);
                let mut site =
                    ImportSiteAt::new(using.node, using.path.clone(), resolution, "using of");
                site.alias = using.alias.clone();
                sites.push(site);
                continue;
            }
            visible.insert(using.path.as_str());
            if (context.is_missing)(&using.path) {
                // A namespace that only files the spec excludes may declare is the project's:
                // no fact, as for a namespace whose types the file's uses reach.
                if !(context.may_be_unread)(&using.path) {
                    sites.push(ImportSiteAt::new(
                        using.node,
                        using.path.clone(),
                        Resolution::Internal,
                        "using of",
                    ));
                }
            } else if !index.owns_package(&using.path) {
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
        Self {
            sites,
            visible,
            namespace_aliases,
            alias_depths,
        }
    }
}

/// Adds the file's qualified uses to `by_file`: `Acme.Orders.OrderService`, `global::Acme.X`,
/// relative to an enclosing namespace (`Orders.OrderService` inside `namespace Acme`) or
/// through a namespace alias.
#[expect(
    clippy::too_many_arguments,
    reason = "the parts of one file's resolution, borrowed"
)]
fn add_qualified_uses(
    by_file: &mut FileUses,
    index: Types<'_>,
    chains: &Chains,
    own: &Declarations,
    namespace_aliases: &BTreeMap<&str, &str>,
    alias_depths: &BTreeMap<&str, usize>,
    path: &str,
    sees_file: &dyn Fn(&str) -> bool,
) {
    let file_aliases = Aliases {
        namespaces: namespace_aliases,
        depths: alias_depths,
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
        let Some((namespace, name, files)) = qualified_target(index, segments, own, aliases) else {
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
}

/// The project files a file uses, each with the first use, its specifier, the construct it is
/// (for the message) and the names used.
#[derive(Default)]
pub(super) struct FileUses(pub(super) BTreeMap<String, FileUse>);

/// The uses of one project file.
pub(super) struct FileUse {
    pub(super) first: Anchor,
    pub(super) specifier: String,
    pub(super) construct: &'static str,
    pub(super) names: Vec<String>,
}

/// The construct of a type use, for the message.
pub(super) const TYPE_USE: &str = "use of type";

/// The construct of an extension-method call, for the message.
pub(super) const EXTENSION_CALL: &str = "call of an extension method of";

impl FileUses {
    /// Records a use of `name` (specifier `specifier()`, a `construct`) at `anchor` of a type
    /// of `declaring`: the earliest use gives the fact's place, specifier and message.
    pub(super) fn add(
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

impl crate::resolve::deferred::Part for PendingUses {
    fn finish(
        self: Box<Self>,
        finishing: &mut crate::resolve::deferred::Finishing<'_>,
        facts: &mut Vec<Fact>,
    ) {
        PendingUses::finish(*self, finishing, facts);
    }
}

/// The names a file uses, for [`PendingUses`]: its own declarations, the first use of each
/// simple name and the dotted chains.
pub(super) struct Names<'a> {
    pub(super) own: Declarations,
    pub(super) uses: BTreeMap<Cow<'a, str>, (Node<'a>, u32)>,
    pub(super) chains: Vec<(Vec<String>, Node<'a>, u32)>,
    /// The names the file's nested types and type parameters take from the namespaces
    /// (`T` of `class Store<T>`): no bound library's.
    pub(super) shadowed: Vec<String>,
}

/// What the file keeps for the second pass: its usings, names, extension-method calls and
/// (`bound_clients`: the hits and the source, when the spec binds libraries) the sites of
/// bound clients, anchored in this order.
pub(super) fn pending_uses<'a>(
    anchors: &mut Anchors<'a>,
    usings: &[Using<Node<'a>>],
    using_scopes: &[(usize, u32)],
    member_calls: BTreeMap<(&str, usize), (Node<'a>, u32)>,
    names: Names<'a>,
    bound_clients: Option<(&[QueryHit<'a>], &str)>,
    scope_of: &dyn Fn(Node<'_>) -> Option<String>,
) -> PendingUses {
    let anchored_usings: Vec<Using<Anchor>> = usings
        .iter()
        .map(|using| Using {
            node: match using_scopes.iter().find(|(id, _)| *id == using.node.id()) {
                Some((_, scope)) => anchors.at_walked(using.node, *scope),
                None => anchors.at(using.node),
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
            anchor: anchors.at_walked(node, scope),
        })
        .collect();
    let bound_sites: Vec<bound::BoundSite> = if let Some((hits, source)) = bound_clients {
        hits.iter()
            .filter(|hit| hit.kind == FactKind::AccessesTechnology)
            .filter_map(|hit| client_site(hit, source, None))
            .filter(|site| {
                let head = site.path.split(['.', '<']).next().unwrap_or(&site.path);
                !names.shadowed.iter().any(|name| name == head)
            })
            .map(|site| {
                let anchor = anchors.with_scope(site.node, scope_of(site.node));
                (anchor, site.use_kind, site.path)
            })
            .collect()
    } else {
        Vec::new()
    };
    PendingUses {
        usings: pack_usings(&anchored_usings),
        own: names.own,
        uses: PackedNames::new(names.uses, anchors),
        chains: PackedChains::new(&names.chains, anchors),
        member_calls: pack_member_calls(&calls),
        bound_sites,
        static_calls: static_calls::StaticCalls::default(),
    }
}
