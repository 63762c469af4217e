//! `accesses_technology` facts for infrastructure clients, shared by the languages other than
//! TypeScript and JavaScript: the libraries are the infrastructure catalogue's entries for the
//! language ([`crate::catalogue`], listed in `docs/CATALOGUE.md`); each language reports the
//! sites where a client may be used, and this module matches them.
//!
//! A site's path is canonical when the language could qualify it through the file's imports
//! (`psycopg2.connect`, `database/sql.Open`, `org.springframework.web.client.RestTemplate`,
//! `sqlx::postgres::PgPoolOptions::new`); then it must start with one of the rule's import
//! prefixes and end with one of its tails. C# and the Apple frameworks cannot be qualified that
//! way (global usings, umbrella imports), so their sites match by the tail alone.
//!
//! A construction, call, injection or base type that matches is a definite fact at that site.
//! A rule with no definite site whose package the file imports gets one probable fact at the
//! first such import.
//!
//! A package the project declares itself is its own code, not an outside client, as in the
//! TypeScript/JavaScript extractor: an import that resolves into the project gives no probable
//! fact, and a site qualified through such an import is no client use (apache/kafka's own
//! `org.apache.kafka.clients`, redis-py's own `redis`).

use std::collections::HashSet;

use policies::facts::{Confidence, Fact, FactKind};
use tree_sitter::Node;

use crate::facts::{set, FactFactory, Located};

/// How a site uses a client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ClientUse {
    /// `new T(…)`, `T(…)` in languages without `new`, a composite literal `T{}`.
    Construct,
    /// A call of a function or method.
    Call,
    /// A constructor parameter, field or property of the client type.
    Inject,
    /// A local variable of the client type, which a getter or builder hands over (Java's
    /// `JdbcTemplate template = service.getJdbcTemplate();`); it matches the rule's `types`.
    Hold,
    /// A class that extends or implements the client type (a Spring Data repository, an EF Core
    /// `DbContext`).
    Extend,
    /// A framework setting names the client class, which the framework constructs (a `BACKEND`
    /// of Django's `CACHES`); it matches the rule's `calls`, as a class call would.
    Configure,
    /// An annotation makes the declaration a client (MyBatis's `@Mapper`, or the `@MapperScan`
    /// of its package); it matches the rule's `types`.
    Annotate,
}

impl ClientUse {
    /// The noun and the verb of a use, for fact messages: ("construction", "constructs").
    fn words(self) -> (&'static str, &'static str) {
        match self {
            Self::Construct => ("construction", "constructs"),
            Self::Call => ("call", "calls"),
            Self::Inject => ("injection", "injects"),
            Self::Hold => ("local variable", "holds"),
            Self::Extend => ("extension", "extends"),
            Self::Configure => ("configuration", "configures"),
            Self::Annotate => ("annotation", "is a client by the annotation"),
        }
    }
}

/// Whether one of a file's qualified import paths brings in a catalogue library of `language`
/// that lists client types to hold (a parameter or field of one is an injection), so that the
/// file's typed parameters are worth reading; `separator` joins a path's segments. Django's
/// `Model` is a type to extend, not to hold a client by.
pub(crate) fn imports_a_client_type<'a>(
    language: &str,
    separator: &str,
    mut qualified: impl Iterator<Item = &'a String>,
) -> bool {
    let libraries = crate::catalogue::catalogue().libraries(language);
    qualified.any(|qualified| {
        libraries
            .iter()
            .filter(|library| {
                library
                    .types
                    .iter()
                    .any(|name| !name.ends_with("models.Model"))
            })
            .flat_map(|library| library.imports.iter())
            .any(|prefix| {
                qualified == prefix
                    || qualified
                        .strip_prefix(prefix)
                        .is_some_and(|rest| rest.starts_with(separator))
            })
    })
}

/// One client of a language's table: an entry of the infrastructure catalogue
/// (`crate::catalogue`).
pub(crate) type ClientRule = crate::catalogue::Library;

/// A place where a client may be used, at a syntax node.
pub(crate) type ClientSite<'tree> = ClientSiteAt<Node<'tree>>;

/// A place where a client may be used, at a syntax node or at the anchor kept of one
/// (`crate::resolve::deferred`).
#[derive(Debug, Clone)]
pub(crate) struct ClientSiteAt<L> {
    /// The construct the evidence spans.
    pub node: L,
    /// How it uses the client.
    pub use_kind: ClientUse,
    /// The canonical path, or the path as written when `is_qualified` is false.
    pub path: String,
    /// Whether `path` was qualified through the file's imports.
    pub is_qualified: bool,
    /// The first string-literal argument, if any.
    pub argument: Option<String>,
    /// Keyword (named) arguments whose value is a string literal, as (name, value).
    pub options: Vec<(String, String)>,
}

/// An import of the file, for probable facts, at a syntax node.
pub(crate) type ClientImport<'tree> = ClientImportAt<Node<'tree>>;

/// An import of the file, for probable facts, at a syntax node or at the anchor kept of one.
#[derive(Debug, Clone)]
pub(crate) struct ClientImportAt<L> {
    /// The import statement.
    pub node: L,
    /// The imported path, written with the language's separator.
    pub path: String,
    /// Whether the import resolves into the project (a file of it, or a module it declares).
    pub is_project: bool,
}

/// Matches a language's sites and imports against its rules.
pub(crate) struct ClientMatcher<'a> {
    /// The language's rules, first match wins.
    pub rules: &'static [ClientRule],
    /// The path separator of the language (`.` or `::`).
    pub separator: &'a str,
}

impl ClientMatcher<'_> {
    /// The `accesses_technology` facts of a file.
    pub fn facts<L: Located>(
        &self,
        factory: &FactFactory<'_>,
        sites: &[ClientSiteAt<L>],
        imports: &[ClientImportAt<L>],
        scope_of: &dyn Fn(L) -> Option<String>,
    ) -> Vec<Fact> {
        self.facts_muting(factory, sites, imports, scope_of, &|_| false)
    }

    /// [`Self::facts`], where a site that `muted` holds (a test's mock) is no access: it makes
    /// no fact, but it is a use of its library, so the library's import is no bare one either.
    pub fn facts_muting<L: Located>(
        &self,
        factory: &FactFactory<'_>,
        sites: &[ClientSiteAt<L>],
        imports: &[ClientImportAt<L>],
        scope_of: &dyn Fn(L) -> Option<String>,
        muted: &dyn Fn(&ClientSiteAt<L>) -> bool,
    ) -> Vec<Fact> {
        let mut facts = Vec::new();
        let mut used: HashSet<&'static str> = HashSet::new();
        let project_paths: Vec<&str> = imports
            .iter()
            .filter(|import| import.is_project)
            .map(|import| import.path.as_str())
            .collect();
        for site in sites {
            if !self.may_match(site.use_kind, &site.path) {
                continue;
            }
            if site.is_qualified
                && project_paths
                    .iter()
                    .any(|path| self.has_prefix(&site.path, path, true))
            {
                continue;
            }
            let Some(rule) = self.rules.iter().find(|rule| {
                !is_overridden(factory, rule)
                    && self.site_matches(rule, site.use_kind, &site.path, site.is_qualified)
                    && (site.is_qualified || !rule.requires_import || self.imported(rule, imports))
            }) else {
                continue;
            };
            // A site matched by its name alone belongs to the project when the file imports
            // the rule's package from the project (Alamofire's own `AF.request`).
            if !site.is_qualified
                && project_paths.iter().any(|path| {
                    rule.imports
                        .iter()
                        .any(|prefix| self.has_prefix(path, prefix, true))
                })
            {
                continue;
            }
            used.insert(rule.name);
            if muted(site) {
                continue;
            }
            facts.push(definite_fact(
                factory,
                self,
                rule,
                site,
                scope_of(site.node),
            ));
        }
        let mut reported: HashSet<&'static str> = HashSet::new();
        // An import of an exception or error type alone (`java.sql.SQLException`) handles a
        // failure; it says nothing of a client.
        for import in imports
            .iter()
            .filter(|import| !import.is_project && !names_an_error_type(&import.path))
        {
            for rule in self.rules {
                if used.contains(rule.name)
                    || !rule.is_probable_on_import
                    || is_overridden(factory, rule)
                    || !rule.imports.iter().any(|prefix| {
                        self.has_prefix(&import.path, prefix, rule.matches_sub_packages)
                            && self.may_bring_client(rule, &import.path, prefix)
                    })
                    || !reported.insert(rule.name)
                {
                    continue;
                }
                facts.push(probable_fact(factory, rule, import, scope_of(import.node)));
            }
        }
        facts
    }

    /// Whether a site matched by its name alone makes no fact only because the file does not
    /// import the package of a rule that requires it: no rule takes it with the file's own
    /// `imports`, while one that `requires_import` names it (C#'s `new PaymentIntentService()`
    /// in a file that sees `Stripe` through another file's `global using`).
    pub fn waits_for_import<L>(
        &self,
        factory: &FactFactory<'_>,
        site: &ClientSiteAt<L>,
        imports: &[ClientImportAt<L>],
    ) -> bool {
        if site.is_qualified || !self.may_match(site.use_kind, &site.path) {
            return false;
        }
        let names = |rule: &&ClientRule| {
            !is_overridden(factory, rule)
                && self.site_matches(rule, site.use_kind, &site.path, false)
        };
        let taken = self
            .rules
            .iter()
            .filter(names)
            .any(|rule| !rule.requires_import || self.imported(rule, imports));
        !taken
            && self
                .rules
                .iter()
                .filter(names)
                .any(|rule| rule.requires_import)
    }

    /// Whether the file imports the rule's package from outside the project (for a rule whose
    /// sites matched by name alone need it: SQLite.swift's `Connection`).
    fn imported<L>(&self, rule: &ClientRule, imports: &[ClientImportAt<L>]) -> bool {
        imports.iter().any(|import| {
            !import.is_project
                && rule
                    .imports
                    .iter()
                    .any(|prefix| self.has_prefix(&import.path, prefix, true))
        })
    }

    /// Whether a site used as `use_kind` whose path ends in the segment `last` (after the last
    /// separator or `/`) may match a rule: a path ends with a rule's tail only if their last
    /// segments are equal. A cheap test for the many sites no rule names.
    pub fn may_end_with(&self, use_kind: ClientUse, last: &str) -> bool {
        // `last` holds no separator, so a tail ends with it as a segment exactly when the
        // tail's last segment is `last`. The tails' last segments are gathered once per thread
        // and rule list: a file has many sites, a language some hundred tails.
        thread_local! {
            static LAST_SEGMENTS: std::cell::RefCell<Vec<LastSegments>> =
                const { std::cell::RefCell::new(Vec::new()) };
        }
        LAST_SEGMENTS.with(|cache| {
            let mut cache = cache.borrow_mut();
            let position = cache.iter().position(|segments| {
                std::ptr::eq(segments.rules, self.rules) && segments.separator == self.separator
            });
            let segments = match position {
                Some(position) => cache.get(position),
                None => {
                    cache.push(LastSegments::of(self));
                    cache.last()
                }
            };
            segments.is_some_and(|segments| segments.of_use(use_kind).contains(last))
        })
    }

    /// The last segment of `path`, after its last separator or `/`.
    pub fn last_segment<'p>(&self, path: &'p str) -> &'p str {
        let after_slash = path.rsplit('/').next().unwrap_or(path);
        after_slash
            .rsplit(self.separator)
            .next()
            .unwrap_or(after_slash)
    }

    fn tails(rule: &ClientRule, use_kind: ClientUse) -> &'static [&'static str] {
        match use_kind {
            ClientUse::Construct => rule.constructs,
            ClientUse::Call | ClientUse::Configure => rule.calls,
            ClientUse::Inject | ClientUse::Hold | ClientUse::Annotate => rule.types,
            ClientUse::Extend if rule.is_extended_by_use => rule.types,
            ClientUse::Extend => &[],
        }
    }

    /// The last segments of every rule's tails, of every use: a site whose last segment is none
    /// of these matches no rule ([`ClientMatcher::may_end_with`]).
    pub fn last_segments(&self) -> Vec<&'static str> {
        let of_uses = LastSegments::of(self);
        let mut segments: Vec<&'static str> = [&of_uses.constructs, &of_uses.calls, &of_uses.types]
            .into_iter()
            .flatten()
            .copied()
            .collect();
        segments.sort_unstable();
        segments.dedup();
        segments
    }

    /// The first rule a site used as `use_kind` with `path` matches, the spec's bindings and
    /// the rule's import requirement aside (C# reads EF Core's contexts and providers by it).
    pub fn first_rule(
        &self,
        use_kind: ClientUse,
        path: &str,
        is_qualified: bool,
    ) -> Option<&'static ClientRule> {
        if !self.may_match(use_kind, path) {
            return None;
        }
        self.rules
            .iter()
            .find(|rule| self.site_matches(rule, use_kind, path, is_qualified))
    }

    /// Whether a site used as `use_kind` with `path` matches any rule.
    pub fn matches_any(&self, use_kind: ClientUse, path: &str, is_qualified: bool) -> bool {
        self.may_match(use_kind, path)
            && self
                .rules
                .iter()
                .any(|rule| self.site_matches(rule, use_kind, path, is_qualified))
    }

    /// Whether a site used as `use_kind` with `path` may match a rule at all: its last segment
    /// is some tail's ([`Self::may_end_with`]). Most sites (every call through an imported
    /// package in Go) are no client's, and the rules are some hundred.
    fn may_match(&self, use_kind: ClientUse, path: &str) -> bool {
        self.may_end_with(use_kind, self.last_segment(path))
    }

    fn site_matches(
        &self,
        rule: &ClientRule,
        use_kind: ClientUse,
        path: &str,
        is_qualified: bool,
    ) -> bool {
        Self::tails(rule, use_kind)
            .iter()
            .any(|tail| self.has_tail(path, tail))
            && (!is_qualified
                || rule
                    .imports
                    .iter()
                    .any(|prefix| self.has_prefix(path, prefix, rule.matches_sub_packages)))
    }

    /// Whether `path` is `prefix` or continues it after a separator, or after `/` when
    /// `sub_packages`.
    /// Whether an import of `path` under the rule's `prefix` may bring its client: a JVM
    /// import of one type of the package or of a package below it (`java.sql.Timestamp`, the
    /// AWS SDK's `software.amazon.awssdk.services.sesv2.model.Destination`) does only when the
    /// type is one of the rule's `probable_names` (`Connection`, `SesV2Client`), when it lists
    /// them; a wildcard import always may. A type's name starts with a capital letter, a
    /// package's does not.
    fn may_bring_client(&self, rule: &ClientRule, path: &str, prefix: &str) -> bool {
        if rule.probable_names.is_empty() || self.separator != "." {
            return true;
        }
        let Some(rest) = path
            .strip_prefix(prefix)
            .and_then(|rest| rest.strip_prefix('.'))
        else {
            return true;
        };
        let type_path: Vec<&str> = rest
            .split('.')
            .skip_while(|segment| !segment.starts_with(|c: char| c.is_ascii_uppercase()))
            .collect();
        match type_path.first() {
            Some(name) if !rest.ends_with('*') => rule.probable_names.contains(name),
            _ => true,
        }
    }

    /// Whether an import of a whole package or namespace (a JVM wildcard,
    /// `com.baomidou.mybatisplus.annotation.*`; a C# `using Npgsql;`) of libraries that list
    /// `probable_names` brings none that the file uses (`is_used`): then it can bring no client,
    /// and is no probable access. JeecgBoot's entities import MyBatis-Plus's annotation package
    /// so for `@TableName` and `@TableId`, Radarr's Sentry target `Npgsql` for an
    /// `NpgsqlException`. One of a library that lists none, or through which the file names one
    /// (`java.sql.*` for a `Connection`), may. `package` is the import's path without its `.*`.
    pub fn package_brings_no_client(&self, package: &str, is_used: &dyn Fn(&str) -> bool) -> bool {
        if self.separator != "." {
            return false;
        }
        let mut rules = self
            .rules
            .iter()
            .filter(|rule| {
                rule.imports
                    .iter()
                    .any(|prefix| self.has_prefix(package, prefix, rule.matches_sub_packages))
            })
            .peekable();
        rules.peek().is_some()
            && rules.all(|rule| {
                !rule.probable_names.is_empty()
                    && !rule.probable_names.iter().any(|name| is_used(name))
            })
    }

    fn has_prefix(&self, path: &str, prefix: &str, sub_packages: bool) -> bool {
        path.strip_prefix(prefix).is_some_and(|rest| {
            rest.is_empty()
                || rest.starts_with(self.separator)
                || (sub_packages && rest.starts_with('/'))
        })
    }

    /// Whether `path` is `tail` or ends with it after a separator or `/`.
    fn has_tail(&self, path: &str, tail: &str) -> bool {
        path.strip_suffix(tail).is_some_and(|rest| {
            rest.is_empty() || rest.ends_with(self.separator) || rest.ends_with('/')
        })
    }
}

/// The last segments of a rule list's tails, by use ([`ClientMatcher::may_end_with`]).
struct LastSegments {
    rules: &'static [ClientRule],
    separator: String,
    constructs: HashSet<&'static str>,
    calls: HashSet<&'static str>,
    types: HashSet<&'static str>,
}

impl LastSegments {
    fn of(matcher: &ClientMatcher<'_>) -> Self {
        let of = |use_kind| {
            matcher
                .rules
                .iter()
                .flat_map(|rule| ClientMatcher::tails(rule, use_kind))
                .map(|tail| matcher.last_segment(tail))
                .collect()
        };
        Self {
            rules: matcher.rules,
            separator: matcher.separator.to_owned(),
            constructs: of(ClientUse::Construct),
            calls: of(ClientUse::Call),
            types: of(ClientUse::Inject),
        }
    }

    fn of_use(&self, use_kind: ClientUse) -> &HashSet<&'static str> {
        match use_kind {
            ClientUse::Construct => &self.constructs,
            ClientUse::Call | ClientUse::Configure => &self.calls,
            ClientUse::Inject | ClientUse::Hold | ClientUse::Extend | ClientUse::Annotate => {
                &self.types
            }
        }
    }
}

fn definite_fact<L: Located>(
    factory: &FactFactory<'_>,
    matcher: &ClientMatcher<'_>,
    rule: &ClientRule,
    site: &ClientSiteAt<L>,
    scope: Option<String>,
) -> Fact {
    let (noun, verb) = site.use_kind.words();
    let tail = ClientMatcher::tails(rule, site.use_kind)
        .iter()
        .copied()
        .find(|tail| matcher.has_tail(&site.path, tail));
    let client = match tail {
        _ if site.use_kind == ClientUse::Call => short_name(&site.path),
        // A static member that holds the client is named with its type (Swift's
        // `URLSession.shared`, not `shared`).
        Some(tail)
            if site.use_kind == ClientUse::Construct
                && tail.contains('.')
                && tail.rsplit('.').next().is_some_and(|member| {
                    member.starts_with(|first: char| first.is_lowercase())
                }) =>
        {
            tail.to_owned()
        }
        _ => last_segment(&site.path).to_owned(),
    };
    let package = rule.name;
    let technology = rule.category_of(tail, site.argument.as_deref(), &site.options);
    definite_access(
        factory,
        (site.node, scope),
        (technology, package, &client),
        (
            format!("{noun} of `{client}` from `{package}`"),
            format!("{verb} `{client}` from `{package}`"),
        ),
    )
}

fn probable_fact<L: Located>(
    factory: &FactFactory<'_>,
    rule: &ClientRule,
    import: &ClientImportAt<L>,
    scope: Option<String>,
) -> Fact {
    let package = rule.name;
    let mut fact = factory.fact(
        FactKind::AccessesTechnology,
        import.node,
        Confidence::Probable,
        scope,
        format!("import of client package `{package}`"),
    );
    fact.technology = Some(rule.category.into());
    set(&mut fact, "package", package);
    set(
        &mut fact,
        "reason",
        format!("imports `{package}` without constructing or calling a client"),
    );
    fact
}

/// Whether an import names an exception or error type (`java.sql.SQLException`).
pub(crate) fn names_an_error_type(path: &str) -> bool {
    let last = last_segment(path);
    last.ends_with("Exception") || (last.ends_with("Error") && last.len() > "Error".len())
}

/// Whether a path into a library names one of its errors: a type (a capitalised segment) whose
/// name ends in `Error` or `Exception` (`jira.exceptions.JIRAError`, `pulsar.PulsarError`), or
/// anything of its errors module (`telegram.error.InvalidToken`, `nats.errors.NoServersError`).
/// Raising, catching or typing a parameter with what a library raises is no use of its client
/// (DefectDojo's `raise JIRAError(msg)`, OnCall's `raise InvalidToken()`).
pub(crate) fn names_a_library_error(path: &str) -> bool {
    let mut segments = path
        .split(['.', ':', '/'])
        .filter(|segment| !segment.is_empty());
    segments.next();
    segments.any(|segment| {
        is_an_errors_module(segment)
            || (segment.starts_with(|first: char| first.is_ascii_uppercase())
                && names_an_error_type(segment))
    })
}

/// Whether a module's name says it holds a library's errors (`sqlalchemy.exc`,
/// `redis.exceptions`, `psycopg2.errors`, `telegram.error`).
pub(crate) fn is_an_errors_module(name: &str) -> bool {
    matches!(name, "exc" | "exceptions" | "errors" | "error")
}

/// The last segment of a path (`org.springframework.kafka.core.KafkaTemplate` → `KafkaTemplate`).
fn last_segment(path: &str) -> &str {
    path.rsplit(['.', ':', '/']).next().unwrap_or(path)
}

/// The client of a call as shown in facts: the last two segments of a canonical path
/// (`DriverManager.getConnection`, `sql.Open`, `PgPoolOptions::new`).
fn short_name(path: &str) -> String {
    // Where the last segment starts: after the last separator outside the arguments of a call
    // in the chain (`Collection(c => c.Credits).Query` keeps its lambda whole).
    let last_segment_start = |text: &str| {
        let mut depth = 0usize;
        for (index, character) in text.char_indices().rev() {
            match character {
                ')' | ']' => depth += 1,
                '(' | '[' => depth = depth.saturating_sub(1),
                '.' | ':' | '/' if depth == 0 => return index + 1,
                _ => {}
            }
        }
        0
    };
    let last = last_segment_start(path);
    let head = path
        .get(..last)
        .unwrap_or_default()
        .trim_end_matches([':', '.']);
    let previous = last_segment_start(head);
    path.get(previous..).unwrap_or(path).to_owned()
}

/// Whether the spec binds the library of a catalogue rule with `clients`: its binding overrides
/// the catalogue, and [`ClientMatcher::bound_facts`] reads its uses instead. A rule known by its calls
/// alone (no import prefix, such as an EF Core provider method) stays.
/// A binding of an entry that holds the rule's entry (`django` around Django's cache API) leaves
/// it to the catalogue ([`crate::catalogue::is_separate_entry`]).
fn is_overridden(factory: &FactFactory<'_>, rule: &ClientRule) -> bool {
    let generic = factory.generic();
    generic.has_bound_clients()
        && rule.imports.iter().any(|prefix| {
            generic
                .bound_client(prefix)
                .is_some_and(|library| !crate::catalogue::is_separate_entry(library, rule.name))
        })
}

impl ClientMatcher<'_> {
    /// The `accesses_technology` facts of the libraries the spec binds with `clients`
    /// (`policies/LANGUAGE.md`, `clients`), which override the catalogue: a construction, call, injection or
    /// base type whose qualified path lies inside one (`celery.Celery(…)` after `import celery`,
    /// `nats.Connect(…)` after `import "github.com/nats-io/nats.go"`, `new ConnectionFactory()`
    /// after `import com.rabbitmq.client.ConnectionFactory;`) is a definite use, else the file's
    /// first import of it a probable one. The technology is the library: the engine resolves the
    /// fact through the entity that lists it. A library the file imports from the project is its
    /// own code, not an outside client.
    ///
    /// The catalogue of the language judges the uses of a bound library it knows, as sites are
    /// qualified as its import prefixes are written: such a library (`django`, `sqlalchemy`) is
    /// used only where its catalogue entries see a client (a model class, a transaction,
    /// `create_engine`), and only an import inside their prefixes is a probable use. The binding
    /// still names the store. A form field, `render` or a `cast(…)` expression of the library is
    /// no access (healthchecks bound `django`, and every view had become one).
    pub fn bound_facts<L: Located>(
        &self,
        factory: &FactFactory<'_>,
        sites: &[ClientSiteAt<L>],
        imports: &[ClientImportAt<L>],
        scope_of: &dyn Fn(L) -> Option<String>,
    ) -> Vec<Fact> {
        let generic = factory.generic();
        if !generic.has_bound_clients() {
            return Vec::new();
        }
        let known = |library: &str| self.known_rules(factory, library);
        // A site of a library the catalogue knows is a use only where one of its entries sees a
        // client; an import, only inside the prefixes of an entry that makes a bare import probable.
        let is_client = |library: &str, site: &ClientSiteAt<L>| {
            let rules = known(library);
            rules.is_empty()
                || rules
                    .iter()
                    .any(|rule| self.site_matches(rule, site.use_kind, &site.path, true))
        };
        let is_client_import = |library: &str, path: &str| {
            let rules = known(library);
            rules.is_empty() || self.is_client_import(&rules, path)
        };
        let bound = |path: &str| generic.bound_client(path).map(str::to_owned);
        let is_own = |library: &str| {
            imports.iter().any(|import| {
                import.is_project && generic.bound_client(&import.path) == Some(library)
            })
        };
        let mut facts = Vec::new();
        let mut used: HashSet<String> = HashSet::new();
        for site in sites.iter().filter(|site| site.is_qualified) {
            let Some(library) = bound(&site.path) else {
                continue;
            };
            if is_own(&library) || names_a_library_error(&site.path) || !is_client(&library, site) {
                continue;
            }
            facts.push(bound_use_fact(factory, site, &library, scope_of(site.node)));
            used.insert(library);
        }
        for import in imports.iter().filter(|import| !import.is_project) {
            let Some(library) = bound(&import.path) else {
                continue;
            };
            if !is_client_import(&library, &import.path) || !used.insert(library.clone()) {
                continue;
            }
            let mut fact = factory.fact(
                FactKind::AccessesTechnology,
                import.node,
                Confidence::Probable,
                scope_of(import.node),
                format!("import of bound client `{library}`"),
            );
            fact.technology = Some(library.as_str().into());
            set(&mut fact, "package", library.as_str());
            set(
                &mut fact,
                "reason",
                format!("imports `{library}` without calling a client"),
            );
            facts.push(fact);
        }
        facts
    }

    /// Whether an import of `path` is of a bound library the catalogue knows, outside the
    /// prefixes of its entries that make a bare import probable (`django.shortcuts` of a bound
    /// `django`, whose entries are `django.db` and Django's cache): it brings no client.
    pub fn brings_no_bound_client(&self, factory: &FactFactory<'_>, path: &str) -> bool {
        factory.generic().bound_client(path).is_some_and(|library| {
            let rules = self.known_rules(factory, library);
            !rules.is_empty() && !self.is_client_import(&rules, path)
        })
    }

    /// Whether the catalogue knows the bound `library` (an entry's import prefix is bound to it):
    /// its uses are then judged by the catalogue's clients.
    pub fn knows_bound(&self, factory: &FactFactory<'_>, library: &str) -> bool {
        !self.known_rules(factory, library).is_empty()
    }

    /// Whether an import of `path` lies inside the prefixes of one of `rules` that makes a bare
    /// import probable.
    fn is_client_import(&self, rules: &[&'static ClientRule], path: &str) -> bool {
        rules.iter().any(|rule| {
            rule.is_probable_on_import
                && rule
                    .imports
                    .iter()
                    .any(|prefix| self.has_prefix(path, prefix, rule.matches_sub_packages))
        })
    }

    /// The catalogue entries whose import prefixes the bound `library` covers.
    fn known_rules(&self, factory: &FactFactory<'_>, library: &str) -> Vec<&'static ClientRule> {
        let generic = factory.generic();
        // A binding may also name a path inside an entry's prefix: a Go module's major version
        // (`github.com/redis/go-redis/v9` for the entry `github.com/redis/go-redis`).
        let inside = |prefix: &str| {
            library
                .strip_prefix(prefix)
                .is_some_and(|rest| rest.starts_with('/'))
        };
        self.rules
            .iter()
            .filter(|rule| {
                rule.imports
                    .iter()
                    .any(|prefix| generic.bound_client(prefix) == Some(library) || inside(prefix))
                    && !crate::catalogue::is_separate_entry(library, rule.name)
            })
            .collect()
    }
}

/// A definite use of a bound library at a site: its client is the site's qualified path.
fn bound_use_fact<L: Located>(
    factory: &FactFactory<'_>,
    site: &ClientSiteAt<L>,
    library: &str,
    scope: Option<String>,
) -> Fact {
    let (noun, verb) = site.use_kind.words();
    let client = &site.path;
    definite_access(
        factory,
        (site.node, scope),
        (library, library, client),
        (
            format!("{noun} of `{client}` from bound client `{library}`"),
            format!("{verb} `{client}` from `{library}`"),
        ),
    )
}

/// A definite access of `technology` at `node` through the client `client` of `package`, with
/// its message and reason.
pub(crate) fn definite_access(
    factory: &FactFactory<'_>,
    (node, scope): (impl Located, Option<String>),
    (technology, package, client): (&str, &str, &str),
    (message, reason): (String, String),
) -> Fact {
    let mut fact = factory.fact(
        FactKind::AccessesTechnology,
        node,
        Confidence::Definite,
        scope,
        message,
    );
    fact.technology = Some(technology.into());
    set(&mut fact, "package", package);
    set(&mut fact, "client", client);
    set(&mut fact, "reason", reason);
    fact
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A call's client is its last two segments, a segment ending where the chain's separators
    /// are, not inside the arguments of a call in it (btcpayserver's
    /// `ctx.Entry(sub).Collection(c => c.Credits).Query()` was `Credits).Query`).
    #[test]
    fn a_short_name_keeps_the_arguments_of_its_segments_whole() {
        assert_eq!(
            short_name("DriverManager.getConnection"),
            "DriverManager.getConnection"
        );
        assert_eq!(
            short_name("java.sql.DriverManager.getConnection"),
            "DriverManager.getConnection"
        );
        assert_eq!(short_name("sqlx::PgPool::connect"), "PgPool::connect");
        assert_eq!(
            short_name("db.GetDbConnection().ExecuteAsync"),
            "GetDbConnection().ExecuteAsync"
        );
        assert_eq!(
            short_name("ctx.Entry(sub).Collection(c => c.Credits).Query"),
            "Collection(c => c.Credits).Query"
        );
        assert_eq!(short_name("a.b(x.y(z.w)).c"), "b(x.y(z.w)).c");
        assert_eq!(short_name("open"), "open");
    }

    static FIRST: [ClientRule; 2] = [
        ClientRule {
            constructs: &["pkg/sub.Pool", "Client"],
            calls: &["sql.Open", "pkg::connect"],
            types: &["IDatabase"],
            ..ClientRule::new("first", "postgres", &["pkg"])
        },
        ClientRule {
            constructs: &["other.Thing"],
            types: &["a.b.IThing", "x/IOther"],
            ..ClientRule::new("second", "redis", &["other"])
        },
    ];

    static SECOND: [ClientRule; 1] = [ClientRule {
        constructs: &["Pool"],
        ..ClientRule::new("third", "mongodb", &["third"])
    }];

    /// What `may_end_with` answers, worked out from every tail without the per-thread sets.
    fn by_every_tail(matcher: &ClientMatcher<'_>, use_kind: ClientUse, last: &str) -> bool {
        matcher.rules.iter().any(|rule| {
            ClientMatcher::tails(rule, use_kind)
                .iter()
                .any(|tail| matcher.has_tail(tail, last))
        })
    }

    /// The last segments gathered once per rule list answer as every tail does, for each use,
    /// separator and rule list; two lists do not share their sets.
    #[test]
    fn last_segments_answer_as_every_tail_does() {
        let names = [
            "Pool",
            "Client",
            "Open",
            "connect",
            "IDatabase",
            "Thing",
            "IThing",
            "IOther",
            "sub",
            "pkg",
            "Other",
            "",
            "Po",
        ];
        let uses = [
            ClientUse::Construct,
            ClientUse::Call,
            ClientUse::Inject,
            ClientUse::Hold,
            ClientUse::Extend,
            ClientUse::Configure,
            ClientUse::Annotate,
        ];
        let mut agreed = 0;
        for (rules, separator) in [(&FIRST[..], "."), (&FIRST[..], "::"), (&SECOND[..], ".")] {
            let matcher = ClientMatcher { rules, separator };
            for use_kind in uses {
                for name in names {
                    let expected = by_every_tail(&matcher, use_kind, name);
                    assert_eq!(
                        matcher.may_end_with(use_kind, name),
                        expected,
                        "{name} as {use_kind:?} with `{separator}`"
                    );
                    agreed += usize::from(expected);
                }
            }
        }
        // Matches found, so the comparison is not all `false`.
        assert!(agreed >= 10, "{agreed}");
        let second = ClientMatcher {
            rules: &SECOND,
            separator: ".",
        };
        assert!(second.may_end_with(ClientUse::Construct, "Pool"));
        assert!(!second.may_end_with(ClientUse::Construct, "Client"));
    }
}
