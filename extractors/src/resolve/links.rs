//! Route prefixes that cross files: a router declared in one file and mounted in another
//! (`app.use('/api', users)` with `users` imported, `app.include_router(items.router,
//! prefix="/items")`, `app.register_blueprint(bp, url_prefix="/x")`, `fastify.register(routes,
//! { prefix: '/v1' })`).
//!
//! Per-file extraction cannot apply such a prefix, so each file also records, in
//! [`RouteLinks`], which of its routes hang off which named router (`members`), what names its
//! routers are exported under (`exports`), the routers' own prefixes (`routers`) and the mounts
//! it makes (`mounts`), with imported children already resolved to project files. After every
//! file is extracted, [`link_routes`] follows the mounts from each router up to the routers
//! nobody mounts and rewrites the `path`, `normalized` and `route` of its route facts; a router
//! mounted at several prefixes gets one fact per prefix (ids `…#n`). Cycles are cut, chains are
//! followed at most [`MAX_DEPTH`] mounts up, and the outcome is sorted, so the result does not
//! depend on the order of files.
//!
//! ASP.NET Core controllers inherit route templates: a controller's are those of the most
//! derived class in its base chain that declares any `[Route]` (a base API controller with
//! `[Route("api/[controller]")]`). Each C# file records its controller classes
//! (`controllers`) and the routes of its controllers that declare none (`inherited`);
//! [`link_routes`] follows the base classes by name, across files, and prefixes those routes,
//! with `[controller]` and `[action]` taken from the derived controller and its action. A base
//! name that several classes with different templates share is not followed.
//!
//! TS/JS requests cross files too: a call through a client instance another file exports
//! (`instance_requests` against that file's `instances`), a call of a request wrapper of the
//! file or of another one (`wrapper_calls` against `wrappers`), and a URL that reads another
//! file's constant (`url_constants` against `constants`). [`link_routes`] completes or adds
//! those `http_call` facts.

use std::borrow::BorrowMut;
use std::collections::{BTreeMap, BTreeSet};

use policies::facts::{Fact, FactKind, PropertyValue};
use serde::{Deserialize, Serialize};

use crate::facts::route_path;
use crate::facts::web::join_path;

/// How many mounts up a chain is followed.
const MAX_DEPTH: usize = 16;

/// The cross-file routing facts of one file (empty for most files).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteLinks {
    /// Routes registered on a named router of the file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<RouterMember>,
    /// Routers of the file with a prefix of their own, already part of their routes' paths.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routers: Vec<RouterPrefix>,
    /// Names under which other files import the file's routers, when they differ from the local
    /// name (`export default router` → `default`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exports: Vec<RouterExport>,
    /// Routers the file mounts on its own routers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mounts: Vec<RouterMount>,
    /// Path-like string constants of the file that a mount prefix may name
    /// (`API_V1_STR: str = "/api/v1"` in class `Settings`, read through `settings = Settings()`
    /// as `settings.API_V1_STR`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constants: Vec<PathConstant>,
    /// C# controller classes of the file: their own route templates and base class.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub controllers: Vec<ControllerClass>,
    /// Routes of C# controllers with no route template of their own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inherited: Vec<InheritedRoute>,
    /// Requests whose URL reads a string constant another file exports.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub url_constants: Vec<UrlConstant>,
    /// Request clients the file keeps in top-level variables, which other files may import.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instances: Vec<ClientInstance>,
    /// Requests the file makes through a client instance another project file exports.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instance_requests: Vec<InstanceRequest>,
    /// Top-level functions of the file that make a request to a URL built from a parameter.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wrappers: Vec<RequestWrapper>,
    /// Calls of the file that may call a request wrapper, of the file or of another one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wrapper_calls: Vec<WrapperCall>,
    /// Python: the file's module-level type aliases that name a client type.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub client_aliases: Vec<ClientAlias>,
    /// Python: declarations annotated with a name another project file defines, which are
    /// client uses when that file defines the name as a client alias.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alias_uses: Vec<AliasUse>,
    /// Python: the names the file imports from another project file under another name
    /// (`from .db import SessionDep as Db`), through which it may re-export a client alias.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub renamed_imports: Vec<RenamedImport>,
    /// C#: the file's classes that extend an EF Core context type (`class Orders : DbContext`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub db_contexts: Vec<DbContextClass>,
    /// C#: the providers the file configures contexts with (`AddDbContext<Orders>(o =>
    /// o.UseSqlServer(…))`, a context's own `OnConfiguring`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub context_providers: Vec<ContextProvider>,
    /// C#: the file's injections of a context factory (`IDbContextFactory<Orders>`), each named
    /// by its context and placed at its `accesses_technology` fact: they take the context's
    /// store.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub context_factories: Vec<DbContextClass>,
    /// TS/JS: the file's top-level type aliases and classes that may stand for a server
    /// framework's router (`type ManagementApiRouter = Router<…>` of koa-router).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub router_types: Vec<RouterType>,
    /// TS/JS: routes whose router is a parameter typed with project types, which take the
    /// framework those types lead to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub typed_routes: Vec<TypedRoute>,
    /// NestJS: the URI versioning the file's `app.enableVersioning(…)` turns on, which puts a
    /// version into the path of every controller route of its application.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nest_versioning: Option<NestVersioning>,
    /// NestJS: the file's controller routes with the versions they declare.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nest_routes: Vec<NestRoute>,
    /// Go: the exported names the file declares at the package level, sorted, which take the
    /// imports of its package that use them to the file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub package_names: Vec<String>,
    /// Go: the file's top-level string constants (`const apiBaseURL = "https://…"`), which stand
    /// for their values in the request URLs of the other files of its package.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub string_constants: Vec<(String, String)>,
}

/// NestJS URI versioning (`app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' })`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NestVersioning {
    /// The versions of a route that declares none, the empty one for `VERSION_NEUTRAL`; none
    /// when no default is given (such a route has no version).
    pub defaults: Vec<String>,
    /// What comes before a version in the path (`v`, Nest's default).
    pub prefix: String,
}

/// A NestJS controller route, at its `route` fact, with the versions its handler or its
/// controller declares (`@Version('2')`, the empty one for `VERSION_NEUTRAL`); none when it
/// declares none, so the default applies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NestRoute {
    /// 1-based line of the fact's evidence.
    pub line: u32,
    /// 1-based column of the fact's evidence.
    pub column: u32,
    /// The declared versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub versions: Option<Vec<String>>,
}

/// A C# class that extends an EF Core context type: its `accesses_technology` fact (at the
/// base type) takes the store of the provider the project configures the context with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DbContextClass {
    /// The class's simple name.
    pub name: String,
    /// 1-based line of the fact's evidence.
    pub line: u32,
    /// 1-based column of the fact's evidence.
    pub column: u32,
}

/// A provider a C# file configures a context with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContextProvider {
    /// The context class's simple name.
    pub context: String,
    /// The provider's catalogue library (`Npgsql.EntityFrameworkCore.PostgreSQL`).
    pub package: String,
    /// The provider's category (`postgres`).
    pub category: String,
    /// The provider call as the facts show it (`options.UseNpgsql`).
    pub call: String,
    /// 1-based line of the call.
    pub line: u32,
    /// Whether the call is the registration itself (Aspire's `AddNpgsqlDbContext<T>`), not a
    /// provider method inside one (`UseNpgsql`), which names the provider more exactly.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub registers: bool,
    /// Whether the provider stands in for the real store in tests and development (EF Core's
    /// in-memory provider): the context's other providers, if any, name its store.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stands_in: bool,
}

/// A module-level type alias of a Python file that names client types, for the files that
/// import it: the facts a declaration annotated with it makes (their place aside), one per
/// client type it names (`Annotated[Session | Redis, …]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientAlias {
    /// The alias's name.
    pub name: String,
    /// The `accesses_technology` facts of a use, at the alias's definition.
    pub facts: Vec<Fact>,
}

/// A declaration annotated with a name another project file defines (`session: SessionDep` with
/// `from app.api.deps import SessionDep`): a definite use when that file defines the name as a
/// client alias.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AliasUse {
    /// Project-relative path of the file that defines the name.
    pub file: String,
    /// The name in that file.
    pub name: String,
    /// The fact's place (id, evidence) at the declaration.
    pub fact: Fact,
}

/// A name a Python file imports from another project file under another name (`from .db import
/// SessionDep as Db`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RenamedImport {
    /// The name in the importing file (`Db`).
    pub local: String,
    /// Project-relative path of the file imported from.
    pub file: String,
    /// The name in that file (`SessionDep`).
    pub name: String,
}

/// A function that makes a request to a URL built from one of its parameters
/// (`export const request = (path, init) => fetch(`${API}${path}`, init)`): its calls are
/// requests to that URL with their argument in the parameter's place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestWrapper {
    /// The function's local name.
    pub name: String,
    /// The client of the request it makes (`fetch`, `axios`).
    pub client: String,
    /// The index of the parameter the URL is built from.
    pub url_parameter: usize,
    /// The URL as a request's `url` writes it, with the parameter as `${name}`.
    pub url_written: String,
    /// The parameter's name.
    pub parameter: String,
    /// The URL as read for its path, the parameter marked by `\u{1}`, when it is a literal or
    /// template.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url_text: Option<String>,
    /// Where the request's method comes from.
    pub method: WrapperMethod,
    /// The base URL of the client instance the request goes through (written, read), which
    /// comes before a URL that is not absolute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<(String, String)>,
}

/// Where the method of a wrapper's request comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum WrapperMethod {
    /// The wrapper's own (`axios.post`, `{ method: 'PUT' }`, none: `GET`).
    Fixed(String),
    /// A parameter holding the method (`request(method, path)`): a call's string argument.
    Parameter(usize),
    /// A parameter holding the request's options (`fetch(url, init)`, `{ ...init }`): a call's
    /// object argument's `method`, `GET` without one.
    Options(usize),
}

/// A call with an argument that reads as a URL (`request('/users', { method: 'POST' })`), which
/// is a request when it calls a [`RequestWrapper`]: its fact, with no `url` or `client` yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WrapperCall {
    /// The function called: a function of the file, or another file's export.
    pub wrapper: RouterRef,
    /// What the call's first arguments read as.
    pub arguments: Vec<WrapperArgument>,
    /// The fact.
    pub fact: Fact,
}

/// One argument of a [`WrapperCall`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WrapperArgument {
    /// As a URL: written as a request's `url` writes it, and read for its path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<(String, String)>,
    /// As a method: a string's value, or an object's literal `method`, upper case; `GET` for an
    /// object without `method`, `*` for one whose `method` is not a literal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
}

/// A type alias or class that may stand for a server framework's router: its name, and the
/// framework whose router type it names, or the type it names (of the file or another one),
/// which may be one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouterType {
    /// The name (`default` too for a default export).
    pub name: String,
    /// The framework (`koa`) when it names a framework's router type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub framework: Option<String>,
    /// The project type it names otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub of: Option<RouterRef>,
}

/// A route registered on a parameter typed with project types (`router: ManagementApiRouter`),
/// at the route fact's place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypedRoute {
    /// The route fact's line.
    pub line: u32,
    /// The route fact's column.
    pub column: u32,
    /// The types the parameter's annotation names.
    pub types: Vec<RouterRef>,
}

/// A request client kept in a variable (`const api = axios.create({ baseURL: '/api' })`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientInstance {
    /// The variable's local name.
    pub name: String,
    /// The package the client comes from (`axios`, `ky`).
    pub package: String,
    /// Its base URL, as a request's `url` writes it and as read for its path (a dynamic part
    /// marked as in `crate::lang::ecmascript`), when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<(String, String)>,
}

/// A request made through a client instance of another file (`api.get('/users')` with
/// `import { api } from './api'`): its fact, with no `client` yet, is kept here and joins the
/// facts only when that file exports a client instance under that name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstanceRequest {
    /// The instance: the file and the name it is exported under.
    pub instance: RouterRef,
    /// The instance's method called (`get`, `del`).
    pub member: String,
    /// The URL as read for its path, when it is a literal or template (else no base comes
    /// before it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url_text: Option<String>,
    /// The fact.
    pub fact: Fact,
}

/// The `http_call` fact at one position has a URL substitution that names a constant of
/// another file (`${API_URL}/orders` with `import { API_URL } from './config'`): the constant's
/// value, when that file records it in its `constants`, stands for the substitution.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UrlConstant {
    /// 1-based line of the fact's evidence.
    pub line: u32,
    /// 1-based column of the fact's evidence.
    pub column: u32,
    /// The substitution as the fact's `url` writes it (`API_URL`, `cfg.API_URL`).
    pub written: String,
    /// The constant: the file that exports it and its exported name.
    pub constant: RouterRef,
    /// What follows the constant in the value read: a class field initialised with
    /// `environment.apiUrl + 'config/'` and read as `this.baseUrl` is the constant's value and
    /// `config/`.
    #[serde(default)]
    pub suffix: String,
    /// The value the substitution has in its own file, when it names no constant of another
    /// file (`${this.resourceName}` with `resourceName = 'tags'`): put in with the others once
    /// one of them is known.
    #[serde(default)]
    pub value: Option<String>,
}

impl RouteLinks {
    /// Whether the file records nothing.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
            && self.routers.is_empty()
            && self.exports.is_empty()
            && self.mounts.is_empty()
            && self.constants.is_empty()
            && self.controllers.is_empty()
            && self.inherited.is_empty()
            && self.url_constants.is_empty()
            && self.instances.is_empty()
            && self.instance_requests.is_empty()
            && self.wrappers.is_empty()
            && self.wrapper_calls.is_empty()
            && self.client_aliases.is_empty()
            && self.alias_uses.is_empty()
            && self.renamed_imports.is_empty()
            && self.db_contexts.is_empty()
            && self.context_providers.is_empty()
            && self.context_factories.is_empty()
            && self.router_types.is_empty()
            && self.typed_routes.is_empty()
            && self.nest_versioning.is_none()
            && self.nest_routes.is_empty()
            && self.package_names.is_empty()
            && self.string_constants.is_empty()
    }
}

/// A C# controller class (or a base class of controllers).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ControllerClass {
    /// The class's simple name.
    pub name: String,
    /// The simple name of its base class, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    /// The templates of its own `[Route]` attributes, as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub templates: Vec<String>,
}

/// The route facts at one position belong to an action of a controller that declares no route
/// template, so it takes its base classes'.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InheritedRoute {
    /// 1-based line of the route fact's evidence.
    pub line: u32,
    /// 1-based column of the route fact's evidence.
    pub column: u32,
    /// The simple name of the controller's base class.
    pub base: String,
    /// What `[controller]` stands for in the controller (its name without `Controller`).
    pub controller: String,
    /// What `[action]` stands for (the action method's name).
    pub action: String,
    /// The action's path under the base's templates when the fact holds another: the
    /// conventional route of an action that has no template of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attribute_path: Option<String>,
}

/// The route facts at one position belong to `router`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouterMember {
    /// 1-based line of the route fact's evidence.
    pub line: u32,
    /// 1-based column of the route fact's evidence.
    pub column: u32,
    /// The router: a variable of the file, the function a plugin's routes are registered in, or
    /// a router imported from another file (`from app.auth import bp`).
    pub router: RouterRef,
}

/// A router's own prefix (`APIRouter(prefix="/items")`, `Blueprint(url_prefix="/x")`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouterPrefix {
    /// The router's local name.
    pub router: String,
    /// Its prefix as written.
    pub prefix: String,
}

/// A router exported under another name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouterExport {
    /// The name importers use (`default` for `export default` and `module.exports =`).
    pub exported: String,
    /// The local name.
    pub local: String,
}

/// `parent` mounts `child` at `prefix`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouterMount {
    /// The mounting router (`app`, `api_router`).
    pub parent: RouterRef,
    /// The mount prefix as written (empty for none).
    pub prefix: String,
    /// Whether the prefix replaces the child's own prefix (Flask's `url_prefix=`) instead of
    /// preceding it.
    #[serde(default)]
    pub replaces_own_prefix: bool,
    /// The mounted router.
    pub child: RouterRef,
    /// The constant the prefix is read from when it is not a literal (`prefix=settings.API_V1_STR`);
    /// a mount whose constant does not resolve is not followed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix_constant: Option<RouterRef>,
}

/// A string constant that looks like a path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathConstant {
    /// Its name as other code reads it (`API_PREFIX`, `settings.API_V1_STR`).
    pub name: String,
    /// Its value.
    pub value: String,
}

/// Where a router is declared.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum RouterRef {
    /// A router of the file that names it, by its local name.
    Local(String),
    /// A router of another project file, by the name that file exports it under.
    Imported {
        /// Project-relative path of the file.
        file: String,
        /// The exported name.
        name: String,
    },
}

/// A router: (file, local name).
type RouterKey = (String, String);

/// One way a router is reached: the prefix before its routes' paths, and whether its own prefix
/// is dropped from them.
type Reach = (String, bool);

struct Linker<'a> {
    links: &'a BTreeMap<String, RouteLinks>,
    /// For each router, the mounts of it: (parent, prefix, replaces own prefix).
    mounted_by: BTreeMap<RouterKey, Vec<(RouterKey, String, bool)>>,
}

impl Linker<'_> {
    fn own_prefix(&self, (file, name): &RouterKey) -> &str {
        self.links
            .get(file)
            .and_then(|links| links.routers.iter().find(|router| router.router == *name))
            .map_or("", |router| router.prefix.as_str())
    }

    /// The ways `router` is reached from the routers nobody mounts; `[("", false)]` when nobody
    /// mounts it.
    fn reaches(&self, router: &RouterKey, visiting: &mut Vec<RouterKey>) -> BTreeSet<Reach> {
        let mut found = BTreeSet::new();
        let Some(mounts) = self.mounted_by.get(router) else {
            found.insert((String::new(), false));
            return found;
        };
        if visiting.len() >= MAX_DEPTH || visiting.contains(router) {
            return found;
        }
        visiting.push(router.clone());
        for (parent, prefix, replaces) in mounts {
            let parent_own = self.own_prefix(parent).to_owned();
            for (outer, drops_own) in self.reaches(parent, visiting) {
                let parent_prefix = if drops_own { "" } else { parent_own.as_str() };
                let joined = join_path(&[&outer, parent_prefix, prefix]);
                found.insert((joined, *replaces));
            }
        }
        visiting.pop();
        found
    }
}

pub(crate) fn resolve_target(
    links: &BTreeMap<String, RouteLinks>,
    naming_file: &str,
    target: &RouterRef,
) -> RouterKey {
    match target {
        RouterRef::Local(name) => (naming_file.to_owned(), name.clone()),
        RouterRef::Imported { file, name } => {
            let local = links
                .get(file)
                .and_then(|links| links.exports.iter().find(|export| export.exported == *name))
                .map_or_else(|| name.clone(), |export| export.local.clone());
            (file.clone(), local)
        }
    }
}

/// The value of a path constant named from `naming_file`.
pub(crate) fn constant_value(
    links: &BTreeMap<String, RouteLinks>,
    naming_file: &str,
    constant: &RouterRef,
) -> Option<String> {
    let (file, name) = match constant {
        RouterRef::Local(name) => (naming_file, name),
        RouterRef::Imported { file, name } => (file.as_str(), name),
    };
    links
        .get(file)?
        .constants
        .iter()
        .find(|candidate| candidate.name == *name)
        .map(|constant| constant.value.clone())
}

/// Applies the route templates controllers inherit and the mount prefixes of `links` (keyed by
/// file) to the `route` facts among `facts`; copies for further prefixes are appended.
pub(crate) fn link_prefixes<F>(facts: &mut Vec<F>, links: &BTreeMap<String, RouteLinks>)
where
    F: BorrowMut<Fact> + From<Fact>,
{
    let inherits = links.values().any(|links| !links.inherited.is_empty());
    let mounts = links.values().any(|links| !links.members.is_empty());
    if !inherits && !mounts {
        return;
    }
    // The ids facts have, for the copies' free `#n` suffixes: one set for both passes.
    let mut taken: BTreeSet<String> = facts.iter().map(|fact| fact.borrow().id.clone()).collect();
    if inherits {
        inherit_controller_templates(facts, links, &mut taken);
    }
    if !mounts {
        return;
    }
    let mut mounted_by: BTreeMap<RouterKey, Vec<(RouterKey, String, bool)>> = BTreeMap::new();
    for (file, file_links) in links {
        for mount in &file_links.mounts {
            let prefix = match &mount.prefix_constant {
                None => mount.prefix.clone(),
                Some(constant) => match constant_value(links, file, constant) {
                    Some(value) => value,
                    None => continue,
                },
            };
            let child = resolve_target(links, file, &mount.child);
            let parent = resolve_target(links, file, &mount.parent);
            if child == parent {
                continue;
            }
            mounted_by
                .entry(child)
                .or_default()
                .push((parent, prefix, mount.replaces_own_prefix));
        }
    }
    for mounts in mounted_by.values_mut() {
        mounts.sort();
        mounts.dedup();
    }
    let linker = Linker { links, mounted_by };
    let mut reach_cache: BTreeMap<RouterKey, BTreeSet<Reach>> = BTreeMap::new();
    let mut added = Vec::new();
    for fact in facts.iter_mut() {
        let fact: &mut Fact = fact.borrow_mut();
        if fact.kind != FactKind::Route {
            continue;
        }
        let file = &*fact.evidence.file;
        let Some(member) = links.get(file).and_then(|file_links| {
            file_links.members.iter().find(|member| {
                member.line == fact.evidence.line && member.column == fact.evidence.column
            })
        }) else {
            continue;
        };
        let key = resolve_target(links, file, &member.router);
        let own = linker.own_prefix(&key).to_owned();
        // The per-file pass applied the router's own prefix only where the router is bound.
        let applied_here = key.0 == file;
        let mounted = linker.mounted_by.contains_key(&key);
        if !mounted && (applied_here || own.is_empty()) {
            continue;
        }
        let reaches = if mounted {
            reach_cache
                .entry(key.clone())
                .or_insert_with(|| linker.reaches(&key, &mut Vec::new()))
                .clone()
        } else {
            BTreeSet::from([(String::new(), false)])
        };
        let written = fact.property_str("path").unwrap_or_default().to_owned();
        let rest = if applied_here {
            strip_prefix(&written, &own)
        } else {
            written.clone()
        };
        let mut paths: Vec<String> = reaches
            .iter()
            .map(|(outer, drops_own)| {
                let own = if *drops_own { "" } else { own.as_str() };
                if outer.trim_matches('/').is_empty() && own.trim_matches('/').is_empty() {
                    rest.clone()
                } else {
                    join_path(&[outer, own, &rest])
                }
            })
            .collect();
        paths.sort();
        paths.dedup();
        if paths.len() == 1 && paths.first() == Some(&written) {
            continue;
        }
        give_paths(fact, &paths, "mounted", &mut taken, &mut added);
    }
    facts.extend(added);
}

/// Gives a route fact the first of `paths` and a copy of it (with the next free id) each of the
/// others, noted in their messages.
pub(crate) fn give_paths<F: From<Fact>>(
    fact: &mut Fact,
    paths: &[String],
    note: &str,
    taken: &mut BTreeSet<String>,
    added: &mut Vec<F>,
) {
    let Some((first, rest)) = paths.split_first() else {
        return;
    };
    for path in rest {
        let mut copy = fact.clone();
        set_path(&mut copy, path, note);
        copy.id = free_id(&copy.id, taken);
        taken.insert(copy.id.clone());
        added.push(F::from(copy));
    }
    set_path(fact, first, note);
}

/// Prefixes the routes of controllers that declare no route template with the templates of the
/// nearest base class that does (`ASP.NET Core`'s rule), copies for further templates appended.
fn inherit_controller_templates<F>(
    facts: &mut Vec<F>,
    links: &BTreeMap<String, RouteLinks>,
    taken: &mut BTreeSet<String>,
) where
    F: BorrowMut<Fact> + From<Fact>,
{
    let mut classes: BTreeMap<&str, Vec<&ControllerClass>> = BTreeMap::new();
    for class in links.values().flat_map(|links| &links.controllers) {
        classes.entry(class.name.as_str()).or_default().push(class);
    }
    // The templates a base class passes down, by its name; `None` when the chain is unknown,
    // ambiguous, cyclic or deeper than `MAX_DEPTH`.
    let templates_of = |base: &str| -> Option<(Vec<String>, String)> {
        let mut name = base;
        for _ in 0..MAX_DEPTH {
            let candidates = classes.get(name)?;
            let first = candidates.first()?;
            if candidates
                .iter()
                .any(|other| other.templates != first.templates || other.base != first.base)
            {
                return None;
            }
            if !first.templates.is_empty() {
                let mut templates = first.templates.clone();
                templates.sort();
                templates.dedup();
                return Some((templates, first.name.clone()));
            }
            name = first.base.as_deref()?;
        }
        None
    };
    let mut added = Vec::new();
    for fact in facts.iter_mut() {
        let fact: &mut Fact = fact.borrow_mut();
        if fact.kind != FactKind::Route {
            continue;
        }
        let Some(inherited) = links.get(&*fact.evidence.file).and_then(|file_links| {
            file_links.inherited.iter().find(|inherited| {
                inherited.line == fact.evidence.line && inherited.column == fact.evidence.column
            })
        }) else {
            continue;
        };
        let Some((templates, declaring)) = templates_of(&inherited.base) else {
            continue;
        };
        let written = match &inherited.attribute_path {
            Some(path) => path.clone(),
            None => fact.property_str("path").unwrap_or_default().to_owned(),
        };
        let paths: Vec<String> = templates
            .iter()
            .map(|template| {
                let prefix = template
                    .replace("[controller]", &inherited.controller)
                    .replace("[action]", &inherited.action);
                join_path(&[&prefix, &written])
            })
            .collect();
        let note = format!("route template inherited from `{declaring}`");
        give_paths(fact, &paths, &note, taken, &mut added);
    }
    facts.extend(added);
}

/// `path` without the router's own prefix `own` (a whole-segment prefix), rooted.
fn strip_prefix(path: &str, own: &str) -> String {
    let own = own.trim_end_matches('/');
    if own.is_empty() || own == "/" {
        return path.to_owned();
    }
    match path.strip_prefix(own) {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => join_path(&[rest]),
        _ => path.to_owned(),
    }
}

/// The first `base#n` (base without any `#n`) that no fact has.
pub(crate) fn free_id(id: &str, taken: &BTreeSet<String>) -> String {
    let base = id.split_once('#').map_or(id, |(base, _)| base);
    (1u32..)
        .map(|n| format!("{base}#{n}"))
        .find(|candidate| !taken.contains(candidate))
        .unwrap_or_else(|| format!("{base}#0"))
}

/// Sets a route fact's path, its normalised form and its message, which ends with `note`.
fn set_path(fact: &mut Fact, path: &str, note: &str) {
    let normalized = route_path::normalize(path);
    let method = fact.property_str("method").unwrap_or("*").to_owned();
    let framework = fact
        .property_str("framework")
        .unwrap_or_default()
        .to_owned();
    fact.route = Some(normalized.as_str().into());
    fact.properties.insert("path", PropertyValue::from(path));
    fact.properties
        .insert("normalized", PropertyValue::from(normalized));
    fact.evidence.message = format!("route `{method} {path}` ({framework}, {note})").into();
}

#[cfg(test)]
mod tests {
    use super::{free_id, strip_prefix};
    use std::collections::BTreeSet;

    #[test]
    fn own_prefixes_strip_on_segment_boundaries() {
        assert_eq!(strip_prefix("/items/{id}", "/items"), "/{id}");
        assert_eq!(strip_prefix("/items", "/items/"), "/");
        assert_eq!(strip_prefix("/itemsx", "/items"), "/itemsx");
        assert_eq!(strip_prefix("/a", ""), "/a");
    }

    #[test]
    fn copies_get_the_next_free_counter() {
        let taken: BTreeSet<String> = ["a:1:1:route", "a:1:1:route#1"]
            .into_iter()
            .map(str::to_owned)
            .collect();
        assert_eq!(free_id("a:1:1:route#1", &taken), "a:1:1:route#2");
    }
}
