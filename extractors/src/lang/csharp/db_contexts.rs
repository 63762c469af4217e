//! EF Core contexts and the providers they are configured with.
//!
//! A class that extends an EF Core context type (`class Orders : DbContext`) is a definite
//! access of the catalogue's `Microsoft.EntityFrameworkCore`, whose store is whatever provider
//! the context is configured with. That configuration is often in another file (a registration
//! in `Program.cs`), so each file records its context classes
//! (`crate::resolve::links::DbContextClass`) and the providers it configures contexts with
//! (`crate::resolve::links::ContextProvider`), and [`link_db_contexts`] joins them by the
//! context's simple name once every file is extracted (a provider configures, among the classes
//! of that name, those whose files share the most leading folders with its own: each service of
//! a repository may name its context `AppDbContext`). A provider is a catalogue call other than
//! EF Core's own (`UseNpgsql`, `UseSqlServer`, `UseSqlite`, `UseMySql`, `UseOracle`,
//! `UseCosmos`, `UseInMemoryDatabase`) made:
//!
//! - inside the arguments of `AddDbContext<T>`, `AddDbContextPool<T>`, `AddDbContextFactory<T>`
//!   or `AddPooledDbContextFactory<T>` (the last type argument is the context:
//!   `AddDbContext<IOrders, Orders>`), or of Aspire's `Add…DbContext<T>`/`Enrich…DbContext<T>`;
//! - on an options builder of the context, created in place or held by a local variable
//!   (`var builder = new DbContextOptionsBuilder<T>(); builder.UseSqlServer(…)`);
//! - inside the `OnConfiguring` method of the context class itself;
//! - inside a helper method that takes the context's `DbContextOptionsBuilder<T>`, or a plain
//!   `DbContextOptionsBuilder` when a registration of the same file names the method
//!   (`AddDbContext<T>(ConfigureDb)`, `AddDbContext<T>(o => ConfigureDb(o))`);
//! - or it is Aspire's registration itself (`AddNpgsqlDbContext<T>("db")`).
//!
//! A context factory a class is given (`IDbContextFactory<Orders>` or
//! `PooledDbContextFactory<Orders>` as a constructor parameter, field or property, whose
//! `CreateDbContext` opens the context) is a definite access too, and takes the store of the
//! context it names, among the classes of that name nearest its file
//! (`crate::resolve::links::RouteLinks::context_factories`).
//!
//! A class given a context the project declares (a constructor parameter of its type,
//! `OrdersController(ShopDb db)`, or the container's answer to `GetRequiredService<ShopDb>()`)
//! accesses the context's store too: [`link_db_contexts`] adds a
//! definite fact at the parameter, with the context's store and driver.
//!
//! A context whose registrations name one category takes it (and names the provider as its
//! fact's `driver`, which a node's `clients` binds); one whose registrations name several
//! stores (`UseNpgsql` in one service and `UseSqlServer` in another), or none the project
//! shows, keeps EF Core's own category, `relational_db`. A provider the catalogue marks
//! `stand_in` (`UseInMemoryDatabase`, for tests and development) counts only when the context
//! has no other: `UseInMemoryDatabase` in one branch and `UseSqlServer` in the other is
//! `mssql`.

use std::borrow::{Borrow, BorrowMut};
use std::collections::{BTreeMap, BTreeSet};

use policies::facts::{Fact, FactKind};
use tree_sitter::Node;

use crate::facts::clients::{ClientMatcher, ClientSite, ClientUse};
use crate::facts::{set, FactFactory};
use crate::resolve::links::{ContextProvider, DbContextClass, RouteLinks};
use crate::syntax::{self, named_children, ChildField};

/// The catalogue library whose types a context extends.
const EF_CORE: &str = "Microsoft.EntityFrameworkCore";

/// The registrations whose arguments configure a context's options.
const REGISTRATIONS: [&str; 4] = [
    "AddDbContext",
    "AddDbContextPool",
    "AddDbContextFactory",
    "AddPooledDbContextFactory",
];

/// The EF Core base types a context class extends.
const CONTEXT_BASES: [&str; 2] = ["DbContext", "IdentityDbContext"];

/// The EF Core types that make a context on request, for the class they are given to.
const CONTEXT_FACTORIES: [&str; 2] = ["IDbContextFactory", "PooledDbContextFactory"];

/// What a C# file tells of EF Core contexts.
pub(crate) struct ContextLinks {
    pub classes: Vec<DbContextClass>,
    pub providers: Vec<ContextProvider>,
    /// Injected context factories, named by their context.
    pub factories: Vec<DbContextClass>,
}

/// The context classes and context providers among a file's client sites (`facts` are the
/// file's client facts: a class counts only where its extension made one).
pub(crate) fn read(
    factory: &FactFactory<'_>,
    matcher: &ClientMatcher<'_>,
    sites: &[ClientSite<'_>],
    facts: &[Fact],
    source: &str,
) -> ContextLinks {
    let mut links = ContextLinks {
        classes: Vec::new(),
        providers: Vec::new(),
        factories: Vec::new(),
    };
    // The place of the EF Core fact a site made, if it made one.
    let made_at = |site: &ClientSite<'_>| {
        let at = factory.fact(
            FactKind::AccessesTechnology,
            site.node,
            policies::facts::Confidence::Definite,
            None,
            "",
        );
        let (line, column) = (at.evidence.line, at.evidence.column);
        facts
            .iter()
            .any(|fact| {
                fact.kind == FactKind::AccessesTechnology
                    && fact.evidence.line == line
                    && fact.evidence.column == column
                    && fact.property_str("package") == Some(EF_CORE)
            })
            .then_some((line, column))
    };
    for site in sites {
        let Some(rule) = matcher.first_rule(site.use_kind, &site.path, site.is_qualified) else {
            continue;
        };
        match site.use_kind {
            ClientUse::Extend if rule.name == EF_CORE && tail_is(&site.path, &CONTEXT_BASES) => {
                let Some(name) = enclosing_class(site.node, source) else {
                    continue;
                };
                if let Some((line, column)) = made_at(site) {
                    links.classes.push(DbContextClass { name, line, column });
                }
            }
            ClientUse::Inject
                if rule.name == EF_CORE && tail_is(&site.path, &CONTEXT_FACTORIES) =>
            {
                let Some(name) = factory_context(site.node, source) else {
                    continue;
                };
                if let Some((line, column)) = made_at(site) {
                    links.factories.push(DbContextClass { name, line, column });
                }
            }
            ClientUse::Call if rule.name != EF_CORE => {
                let Some((context, registers)) = configured_context(site.node, source) else {
                    continue;
                };
                let line = u32::try_from(site.node.start_position().row)
                    .unwrap_or(u32::MAX)
                    .saturating_add(1);
                links.providers.push(ContextProvider {
                    context,
                    package: rule.name.to_owned(),
                    category: rule.category.to_owned(),
                    call: short_call(&site.path),
                    line,
                    registers,
                    stands_in: rule.is_stand_in,
                });
            }
            _ => {}
        }
    }
    links
}

/// Whether a type path's last segment is one of `names`.
fn tail_is(path: &str, names: &[&str]) -> bool {
    let tail = path.rsplit('.').next().unwrap_or(path);
    names.contains(&tail)
}

/// The simple name of the context a factory declaration names (`IDbContextFactory<Orders>` in
/// `IDbContextFactory<Orders> factory` or a field of it, `Shop.Data.Orders` read as `Orders`).
fn factory_context(declaration: Node<'_>, source: &str) -> Option<String> {
    syntax::descendants(declaration).find_map(|node| {
        CONTEXT_FACTORIES
            .iter()
            .find_map(|factory| generic_argument(node, factory, source))
    })
}

/// The call as a fact's `client` shows it: its last two segments (`options.UseNpgsql`).
fn short_call(path: &str) -> String {
    let mut segments = path.rsplitn(3, '.');
    match (segments.next(), segments.next()) {
        (Some(method), Some(receiver)) => format!("{receiver}.{method}"),
        (Some(method), None) => method.to_owned(),
        _ => path.to_owned(),
    }
}

/// The simple name of the class (or record) that declares `node`'s base list.
fn enclosing_class(node: Node<'_>, source: &str) -> Option<String> {
    let mut current = node.parent();
    while let Some(ancestor) = current {
        if matches!(ancestor.kind(), "class_declaration" | "record_declaration") {
            return ancestor
                .child_field("name")
                .map(|name| syntax::text(name, source).to_owned());
        }
        current = ancestor.parent();
    }
    None
}

/// The context a provider call at `call` configures: the one a registration around it (or the
/// call itself, Aspire's `AddNpgsqlDbContext<T>`: then with `true`) names, the one of the
/// options builder it is called on (`new DbContextOptionsBuilder<T>().UseSqlite(…)`), the
/// class whose `OnConfiguring` makes it, or the context a design-time factory whose method
/// makes it creates (`class F : IDesignTimeDbContextFactory<T>`).
fn configured_context(call: Node<'_>, source: &str) -> Option<(String, bool)> {
    if let Some(context) = built_options_context(call, source) {
        return Some((context, false));
    }
    let mut current = Some(call);
    while let Some(node) = current {
        match node.kind() {
            "invocation_expression" => {
                if let Some(context) = registered_context(node, source) {
                    return Some((context, node.id() == call.id()));
                }
            }
            "method_declaration" => {
                let name = node.child_field("name")?;
                let context = if syntax::text(name, source) == "OnConfiguring" {
                    enclosing_class(node, source)
                } else {
                    design_time_context(node, source).or_else(|| helper_context(node, source))
                };
                return context.map(|class| (class, false));
            }
            "local_function_statement"
            | "constructor_declaration"
            | "class_declaration"
            | "record_declaration"
            | "struct_declaration"
            | "property_declaration"
            | "field_declaration" => return None,
            _ => {}
        }
        current = node.parent();
    }
    None
}

/// The context a helper method configures, for a provider call in it: the context of its
/// `DbContextOptionsBuilder<T>` parameter, else, for a plain `DbContextOptionsBuilder`
/// parameter, that of a registration of the same file that names the method
/// (`AddDbContext<T>(ConfigureDb)`, `AddDbContext<T>(o => ConfigureDb(o, config))`).
fn helper_context(method: Node<'_>, source: &str) -> Option<String> {
    let parameters = method.child_field("parameters")?;
    let mut takes_builder = false;
    for parameter in named_children(parameters) {
        let Some(type_node) = parameter.child_field("type") else {
            continue;
        };
        if let Some(context) = generic_argument(type_node, "DbContextOptionsBuilder", source) {
            return Some(context);
        }
        takes_builder |= syntax::text(type_node, source)
            .rsplit('.')
            .next()
            .is_some_and(|name| name == "DbContextOptionsBuilder");
    }
    if !takes_builder {
        return None;
    }
    let name = syntax::text(method.child_field("name")?, source);
    let mut root = method;
    while let Some(parent) = root.parent() {
        root = parent;
    }
    // The registrations of the file whose arguments name the method; one context, or none.
    let mut contexts = std::collections::BTreeSet::new();
    let mut cursor = root.walk();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.kind() == "invocation_expression" && node.id() != method.id() {
            if let Some(context) = registered_context(node, source) {
                let names_method = node.child_field("arguments").is_some_and(|arguments| {
                    syntax::has_node_with_text(arguments, source, "identifier", name)
                });
                if names_method {
                    contexts.insert(context);
                }
            }
        }
        stack.extend(node.named_children(&mut cursor));
    }
    let mut contexts = contexts.into_iter();
    match (contexts.next(), contexts.next()) {
        (Some(context), None) => Some(context),
        _ => None,
    }
}

/// How many configuring calls a context's fact names.
const MAX_SHOWN: usize = 3;

/// How many calls chained on an options builder are followed back to it.
const MAX_CHAIN: usize = 64;

/// The context of the options builder a call is made on, through calls chained on it:
/// `new DbContextOptionsBuilder<T>().UseSqlite(…)`.
fn built_options_context(call: Node<'_>, source: &str) -> Option<String> {
    let mut receiver = call.child_field("function")?;
    for _ in 0..MAX_CHAIN {
        match receiver.kind() {
            "member_access_expression" => receiver = receiver.child_field("expression")?,
            "invocation_expression" => receiver = receiver.child_field("function")?,
            "object_creation_expression" => {
                return generic_argument(
                    receiver.child_field("type")?,
                    "DbContextOptionsBuilder",
                    source,
                );
            }
            // A local variable that holds one: `var builder = new DbContextOptionsBuilder<T>();`
            // then `builder.UseSqlServer(…)`.
            "identifier" => return local_options_context(receiver, source),
            _ => return None,
        }
    }
    None
}

/// The context of the options builder a local variable named `identifier` is initialized with,
/// in a block around it (`var builder = new DbContextOptionsBuilder<T>();`).
fn local_options_context(identifier: Node<'_>, source: &str) -> Option<String> {
    let name = syntax::text(identifier, source);
    let mut current = identifier.parent();
    while let Some(node) = current {
        match node.kind() {
            "block" => {
                let created = named_children(node)
                    .into_iter()
                    .filter(|statement| {
                        statement.kind() == "local_declaration_statement"
                            && statement.start_byte() < identifier.start_byte()
                    })
                    .flat_map(|statement| {
                        syntax::descendants(statement)
                            .filter(|declarator| declarator.kind() == "variable_declarator")
                    })
                    .filter(|declarator| {
                        declarator
                            .child_field("name")
                            .is_some_and(|declared| syntax::text(declared, source) == name)
                    })
                    .find_map(|declarator| {
                        named_children(declarator)
                            .into_iter()
                            .find(|value| value.kind() == "object_creation_expression")
                    });
                if let Some(created) = created {
                    return generic_argument(
                        created.child_field("type")?,
                        "DbContextOptionsBuilder",
                        source,
                    );
                }
            }
            "method_declaration"
            | "local_function_statement"
            | "constructor_declaration"
            | "lambda_expression"
            | "class_declaration" => return None,
            _ => {}
        }
        current = node.parent();
    }
    None
}

/// The context a design-time factory creates, for a method of it:
/// `class F : IDesignTimeDbContextFactory<T>`.
fn design_time_context(method: Node<'_>, source: &str) -> Option<String> {
    let mut current = method.parent();
    while let Some(node) = current {
        if matches!(node.kind(), "class_declaration" | "record_declaration") {
            let bases = named_children(node)
                .into_iter()
                .find(|child| child.kind() == "base_list")?;
            return syntax::descendants(bases)
                .find_map(|base| generic_argument(base, "IDesignTimeDbContextFactory", source));
        }
        current = node.parent();
    }
    None
}

/// The simple name of the last type argument of `node` when it is the generic type `generic`
/// (possibly qualified): `T` of `DbContextOptionsBuilder<T>`.
fn generic_argument(node: Node<'_>, generic: &str, source: &str) -> Option<String> {
    let node = if node.kind() == "qualified_name" {
        node.child_field("name")?
    } else {
        node
    };
    if node.kind() != "generic_name" {
        return None;
    }
    let children = named_children(node);
    if syntax::text(*children.first()?, source) != generic {
        return None;
    }
    last_type_argument(&children, source)
}

/// The simple name of the last type argument among a generic name's children.
fn last_type_argument(children: &[Node<'_>], source: &str) -> Option<String> {
    let arguments = children
        .iter()
        .find(|child| child.kind() == "type_argument_list")
        .map(|list| named_children(*list))?;
    let context = arguments.last()?;
    let written: String = syntax::text(*context, source)
        .chars()
        .filter(|character| !character.is_whitespace())
        .collect();
    let written = written.strip_prefix("global::").unwrap_or(&written);
    let head = written.split('<').next().unwrap_or(written);
    let simple = head.rsplit('.').next().unwrap_or(head);
    (!simple.is_empty()).then(|| simple.to_owned())
}

/// The context a registration call names by its last type argument (`AddDbContext<Orders>`,
/// `AddDbContextFactory<IOrders, Orders>`, Aspire's `AddNpgsqlDbContext<Orders>`).
fn registered_context(invocation: Node<'_>, source: &str) -> Option<String> {
    let function = invocation.child_field("function")?;
    let name = match function.kind() {
        "member_access_expression" => function.child_field("name")?,
        _ => function,
    };
    if name.kind() != "generic_name" {
        return None;
    }
    let children = named_children(name);
    let method = syntax::text(*children.first()?, source);
    let aspire = (method.starts_with("Add") || method.starts_with("Enrich"))
        && method.ends_with("DbContext");
    if !(REGISTRATIONS.contains(&method) || aspire) {
        return None;
    }
    last_type_argument(&children, source)
}

/// How many leading folders the paths `a` and `b` share.
fn shared_folders(a: &str, b: &str) -> usize {
    fn folder(path: &str) -> &str {
        path.rsplit_once('/').map_or("", |(folder, _)| folder)
    }
    folder(a)
        .split('/')
        .zip(folder(b).split('/'))
        .take_while(|(x, y)| x == y)
        .count()
}

/// A provider with the file that configures it.
type Configured<'a> = (&'a str, &'a ContextProvider);

/// Where a fact is: its file, line and column.
type Place<'a> = (&'a str, u32, u32);

/// The context classes of each name, with their files.
type ClassesByName<'a> = BTreeMap<&'a str, Vec<(&'a str, &'a DbContextClass)>>;

/// The classes named `name` whose files share the most leading folders with `file`.
fn nearest_classes<'a>(
    classes: &ClassesByName<'a>,
    name: &str,
    file: &str,
) -> Vec<(&'a str, &'a DbContextClass)> {
    let named = classes.get(name).map(Vec::as_slice).unwrap_or_default();
    let nearest = named
        .iter()
        .map(|(class_file, _)| shared_folders(class_file, file))
        .max()
        .unwrap_or_default();
    named
        .iter()
        .copied()
        .filter(|(class_file, _)| shared_folders(class_file, file) == nearest)
        .collect()
}

/// The libraries of the registrations (`registers`) or of the provider methods among `found`.
fn packages_of<'a>(found: &[Configured<'a>], registers: bool) -> BTreeSet<&'a str> {
    found
        .iter()
        .filter(|(_, provider)| provider.registers == registers)
        .map(|(_, provider)| provider.package.as_str())
        .collect()
}

/// Gives each context class the store of the providers the project configures it with, when
/// they name one category: its `technology`, and its `driver` when they name one library.
pub(crate) fn link_db_contexts<F>(facts: &mut Vec<F>, links: &BTreeMap<String, RouteLinks>)
where
    F: BorrowMut<Fact> + From<Fact>,
{
    // The context classes of each name, with their files.
    let mut classes: ClassesByName<'_> = BTreeMap::new();
    for (file, file_links) in links {
        for class in &file_links.db_contexts {
            classes
                .entry(class.name.as_str())
                .or_default()
                .push((file.as_str(), class));
        }
    }
    if classes.is_empty() {
        return;
    }
    // Each provider configures the classes of its context's name nearest its file: several
    // services of one repository may each name their context `AppDbContext`.
    let mut settled: BTreeMap<Place<'_>, Vec<Configured<'_>>> = BTreeMap::new();
    for (file, file_links) in links {
        for provider in &file_links.context_providers {
            for (class_file, class) in nearest_classes(&classes, &provider.context, file) {
                settled
                    .entry((class_file, class.line, class.column))
                    .or_default()
                    .push((file.as_str(), provider));
            }
        }
    }
    // A context factory takes the providers of the classes of its context's name nearest its
    // own file.
    let mut factories: Vec<(Place<'_>, Vec<Configured<'_>>)> = Vec::new();
    for (file, file_links) in links {
        for used in &file_links.context_factories {
            let found: Vec<Configured<'_>> = nearest_classes(&classes, &used.name, file)
                .into_iter()
                .filter_map(|(class_file, class)| {
                    settled.get(&(class_file, class.line, class.column))
                })
                .flatten()
                .copied()
                .collect();
            if !found.is_empty() {
                factories.push(((file.as_str(), used.line, used.column), found));
            }
        }
    }
    for (key, found) in factories {
        settled.entry(key).or_default().extend(found);
    }
    settle_contexts(facts, &settled);
    let injected = injected_contexts(facts, &classes);
    facts.extend(injected.into_iter().map(F::from));
}

/// Gives the facts of the context classes and factories in `settled` the store of the providers
/// that configure them, when they name one category.
fn settle_contexts<F>(facts: &mut [F], settled: &BTreeMap<Place<'_>, Vec<Configured<'_>>>)
where
    F: BorrowMut<Fact>,
{
    if settled.is_empty() {
        return;
    }
    for fact in facts.iter_mut() {
        let fact = fact.borrow_mut();
        if fact.kind != FactKind::AccessesTechnology
            || fact.property_str("package") != Some(EF_CORE)
        {
            continue;
        }
        let key = (
            &*fact.evidence.file,
            fact.evidence.line,
            fact.evidence.column,
        );
        let Some(found) = settled.get(&key) else {
            continue;
        };
        // A stand-in (the in-memory provider a test or a development switch configures) names
        // the store only when nothing else does.
        let real: Vec<Configured<'_>> = found
            .iter()
            .filter(|(_, provider)| !provider.stands_in)
            .copied()
            .collect();
        let found = if real.is_empty() { found } else { &real };
        let categories: BTreeSet<&str> = found
            .iter()
            .map(|(_, provider)| provider.category.as_str())
            .collect();
        let [category] = categories.into_iter().collect::<Vec<_>>()[..] else {
            continue;
        };
        // The provider's library: a provider method's over a registration's (`UseNpgsql`'s
        // `Npgsql.EntityFrameworkCore.PostgreSQL` over Aspire's `Aspire.Npgsql`).
        let mut packages = packages_of(found, false);
        if packages.is_empty() {
            packages = packages_of(found, true);
        }
        // The configuring calls in a stable order, whatever the order of files.
        let calls: BTreeSet<String> = found
            .iter()
            .map(|(file, provider)| format!("`{}` ({file}:{})", provider.call, provider.line))
            .collect();
        let count = calls.len();
        let mut shown = calls
            .into_iter()
            .take(MAX_SHOWN)
            .collect::<Vec<_>>()
            .join(", ");
        if count > MAX_SHOWN {
            shown.push_str(&format!(" and {} more", count - MAX_SHOWN));
        }
        fact.technology = Some(category.into());
        if let [package] = packages.into_iter().collect::<Vec<_>>()[..] {
            set(fact, "driver", package);
        }
        let reason = match fact.property_str("reason") {
            Some(reason) => format!("{reason}, configured with {shown}"),
            None => format!("configured with {shown}"),
        };
        set(fact, "reason", reason);
        fact.evidence.message =
            format!("{}, configured with {shown}", fact.evidence.message).into();
    }
}

/// The accesses of the classes a project's EF Core context is given to (a constructor
/// parameter of a context class, `OrdersController(ShopDb db)`, or the container's answer to
/// `GetRequiredService<ShopDb>()`): the context is a session of its
/// store, as a context factory opens one, so the class uses the store directly (a controller
/// that queries the context, not only the data layer that declares it). Each is a definite fact
/// at the injection, with the store and driver of the context's own fact (among the classes of
/// that name nearest the injecting file; EF Core's own category when they disagree).
fn injected_contexts<F>(facts: &[F], classes: &ClassesByName<'_>) -> Vec<Fact>
where
    F: Borrow<Fact>,
{
    let context_facts: BTreeMap<Place<'_>, &Fact> = facts
        .iter()
        .map(Borrow::borrow)
        .filter(|fact| {
            fact.kind == FactKind::AccessesTechnology
                && fact.property_str("package") == Some(EF_CORE)
        })
        .map(|fact| {
            let place = (
                &*fact.evidence.file,
                fact.evidence.line,
                fact.evidence.column,
            );
            (place, fact)
        })
        .collect();
    let mut taken: BTreeSet<String> = BTreeSet::new();
    let mut found: Vec<Fact> = Vec::new();
    for injection in facts.iter().map(Borrow::borrow) {
        // A context a class asks the container for (`services.GetRequiredService<ShopDb>()`,
        // ardalis/CleanArchitecture's start-up migration) is given to it as an injected one is.
        let (name, resolved) = match injection.kind {
            FactKind::ConstructorInjection => (injection.property_str("parameterType"), false),
            FactKind::ServiceResolution
                if injection
                    .property_str("method")
                    .is_some_and(|method| method != "inject") =>
            {
                (injection.property_str("service"), true)
            }
            _ => continue,
        };
        let Some(name) = name else {
            continue;
        };
        let file = &*injection.evidence.file;
        let contexts: Vec<(&str, &Fact)> = nearest_classes(classes, name, file)
            .into_iter()
            .filter_map(|(class_file, class)| {
                let fact = context_facts.get(&(class_file, class.line, class.column))?;
                Some((class_file, *fact))
            })
            .collect();
        let Some((declared_in, first)) = contexts.first().copied() else {
            continue;
        };
        let agree = contexts
            .iter()
            .all(|(_, fact)| fact.technology == first.technology);
        let mut fact = injection.clone();
        fact.kind = FactKind::AccessesTechnology;
        fact.properties = policies::facts::Properties::new();
        if let Some(language) = injection.properties.get("language") {
            fact.properties.insert("language", language.clone());
        }
        if agree {
            fact.technology = first.technology.clone();
            if let Some(driver) = first.property_str("driver") {
                set(&mut fact, "driver", driver);
            }
        } else {
            fact.technology = crate::catalogue::catalogue()
                .libraries("csharp")
                .iter()
                .find(|library| library.name == EF_CORE)
                .map(|library| library.category.into());
        }
        set(&mut fact, "package", EF_CORE);
        set(&mut fact, "client", name);
        let (verb, noun) = if resolved {
            ("resolves", "resolution")
        } else {
            ("is given", "injection")
        };
        set(
            &mut fact,
            "reason",
            format!("{verb} the EF Core context `{name}` ({declared_in})"),
        );
        fact.evidence.message = format!("{noun} of the EF Core context `{name}`").into();
        fact.id = policies::facts::fact_id(
            &fact.evidence.extractor,
            file,
            fact.evidence.line,
            fact.evidence.column,
            FactKind::AccessesTechnology,
        );
        found.push(fact);
    }
    if found.is_empty() {
        return found;
    }
    // An id another fact holds (a catalogue client at the same parameter) gets a suffix.
    taken.extend(facts.iter().map(|fact| fact.borrow().id.clone()));
    for fact in &mut found {
        if taken.contains(&fact.id) {
            fact.id = crate::resolve::links::free_id(&fact.id, &taken);
        }
        taken.insert(fact.id.clone());
    }
    found
}
