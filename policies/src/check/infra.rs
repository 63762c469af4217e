//! `node` and `resource`: runtime, infrastructure and capability entities.
//!
//! # What it checks
//! The type is in the node-type (or resource-type) vocabulary (`unknown-node-type`,
//! `unknown-resource-type`, with a "did you mean" help); `trust` takes one trust value
//! (`invalid-trust`), `connectivity` one connectivity value (`invalid-connectivity`), `protocol`
//! and `auth` one or more values of their vocabularies (`invalid-protocol`, `invalid-auth`);
//! several values for a single-valued key give `invalid-property-value`, a repeated key
//! `duplicate-key`. Every other key is free-form metadata. The type and the properties
//! validated here are the ones `trust_policy`, `data_policy` and flow-target resolution read.
//!
//! Two keys bind code to the entity (bindings): `clients` lists libraries whose use is access to
//! it (an npm package `sequelize`, a Python distribution or module `celery`, a Go module path
//! `github.com/jackc/pgx/v5`, a JVM or .NET package prefix `org.hibernate`, `Npgsql`, or one
//! type of it, `NBXplorer.ExplorerClient`, when the package's other types are its models, a
//! Rust crate `sqlx`), and `urls` lists URL globs (`https://alertmanager:9093/**`,
//! `*://payments.internal/**`; `*` and `**` as in component paths, matched without the query
//! string) and configuration names (`ALERTMANAGER_URL`, `Payments:BaseUrl`: an environment
//! variable or configuration key, told apart by containing no `/`). A use of a listed library is
//! an access to the entity, even for a library lintel's own catalogue does not know (a listed
//! library overrides the catalogue): definite where its client is constructed, called or
//! injected, in every language (the catalogue's clients; for any other library, whatever a
//! file constructs, calls or injects of it but its errors (a type named `…Error` or
//! `…Exception`, or anything of its errors module: `APICallError.isInstance(e)`,
//! `raise JIRAError(msg)`, `raise InvalidToken()` from `telegram.error`): a TypeScript or
//! JavaScript import's export, a
//! Python call of a path inside it such as `celery.Celery(…)`, a Go call or composite literal
//! of its package such as `nats.Connect(…)`, a Java or Kotlin type of it constructed,
//! called, injected or extended, a C# type of it constructed or injected (a class extending one
//! of its types, often a request model, and a static helper of it are none, unless the binding
//! names that very type), a Rust path into the crate called, a Swift type of the module
//! constructed; in C# and Swift a simple name counts only where no other outside namespace or
//! module but the platform's could supply it, and a name written out in full always does; a
//! bound library the catalogue knows is used at the catalogue's clients only (Swift aside),
//! in C# read by their simple names as the catalogue reads them, so `new RedisKey(…)` of a
//! bound `StackExchange.Redis` is no use while `ConnectionMultiplexer.Connect(…)` is one beside
//! any other `using`; a binding of a catalogue entry leaves the entries nested in it theirs:
//! `clients: "django"` binds Django's ORM, while its cache API and cache backends,
//! `django.core.cache`, keep the cache the settings name),
//! else probable at the file's first import of it (every language; an import for type checkers
//! only, TypeScript's `import type` or Python's `if TYPE_CHECKING:`, is none, and so is a
//! TypeScript or JavaScript import of only the plain values of a library the catalogue knows to
//! export them beside its client, `import { Role } from '@prisma/client'`, whose
//! `new Prisma.Decimal(…)` is no use either, or of only the error classes of a library it does
//! not know); a Go module may be listed
//! with its major version (`…/go-redis/v9`) and a Rust crate with dashes (`async-nats`); an npm
//! module below a package (`aws-sdk/clients/s3`) binds the imports of that module, the longest
//! listed library winning, so it may go to another entity than the package itself. A
//! property's values may be written as a list (`clients: "sequelize", "bullmq"`) or in brackets
//! (`clients: ["sequelize", "bullmq"]`). An HTTP call whose literal URL matches a glob (as written, or
//! once the string constants it reads fill it in: `${BASE}/x` with `const BASE = 'https://…'`,
//! Angular's `${environment.apiUrl}x`), or whose URL is built
//! from a listed name (`process.env.X`, `os.environ["X"]`, `os.Getenv("X")`,
//! `configuration["X"]`, `@Value("${X}")`), targets the entity. A binding is exclusive: an
//! entity with `urls` is the target only of the calls they match, one with `clients` only of
//! the uses of those libraries. A driver's use is the generic API it plugs into: an access to a
//! relational store (`postgres`, `mysql`, `mssql`, `sqlite`, `relational_db`) through Go's
//! `database/sql` (`sql.Open("sqlite", …)`, an injected `*sql.DB`) or another generic SQL API,
//! whose category's bound entities leave it out, uses the bound driver the file imports
//! (`_ "modernc.org/sqlite"`), else, for a driver API such as Go's `database/sql`, the one
//! another file of its folder (its Go package, compiled as one) imports, else the one the
//! project's files of its language import (a Go driver registers itself for the whole program;
//! Python's `sqlite3` drives no Go `*sql.DB`), when those name exactly one of the entities; the
//! fact's `driver`
//! property names it. Otherwise it stays unresolved when every entity of its category is bound,
//! and goes to the unbound ones when some are not, except that a use of a driver API (Go's
//! `database/sql`) beside an unbound entity of the category goes to the bound driver's entity,
//! unless the project also uses a driver of the category that no entity binds, when the access
//! is only probable. Among unbound entities of different types (`node lite : sqlite` and
//! `node pg : postgres`), a driver API's use takes the type of the drivers its file, else its
//! folder, else the project uses in its language (`_ "github.com/lib/pq"` is `postgres`), when
//! they name exactly one type that some but not all of the entities have. An EF Core context whose
//! provider the project shows (`AddDbContext<T>(o => o.UseSqlServer(…))`, its `OnConfiguring`)
//! is an access of that provider's store, and its `driver` is the provider's library, so
//! `clients: "Microsoft.EntityFrameworkCore.SqlServer"` binds it too. Without bindings, a technology
//! that several entities could be is a probable access to each (`ambiguous-technology-target` says how to bind it),
//! and so is a request whose URL says nothing of where it goes (no host, no literal path segment,
//! no filled-in URL or configuration name: `axios.get(path)` in a wrapper, `fetch(form.action)`,
//! `${base}/${id}`) to the one entity of its category. The
//! node a component runs on is never a target of its own code's technology uses: it hosts that code,
//! and what the code calls lies elsewhere (a gateway that runs on `node gw : api_gateway` and calls
//! an outside API with an unbound client uses the other API entity, or, with none declared, an
//! unresolved target, never `gw`). An empty
//! string, or an invalid URL glob, gives `invalid-property-value`; the same library on two
//! entities gives `duplicate-client-binding`.
//!
//! # Why
//! Technology facts resolve to nodes and resources by type, and trust rules read `trust` and
//! `auth`: a misspelt type or trust level would silently match nothing.
//!
//! # Passing example
//! `node cache : redis { trust: trusted  protocol: tcp }`,
//! `resource Prefs : local_preferences { trust: semi_trusted }` and
//! `node orders_db : postgres { clients: "sequelize" }` with
//! `node alerts : rest_api { urls: "https://alertmanager:9093/**", "ALERTMANAGER_URL" }`
//!
//! # Failing example
//! `node cache : redis_cluster` gives `unknown-node-type` (did you mean `redis`?);
//! `node x : server { trust: public }` gives `invalid-trust`; `clients: ""` gives
//! `invalid-property-value`; `node jobs : queue { clients: "sequelize" }` after the `orders_db`
//! above gives `duplicate-client-binding` (`` `sequelize` is already bound to `orders_db` ``).
//!
//! # SMT encoding
//! Each node and resource is a constant of the uninterpreted sort `Entity`; a technology fact
//! that resolves to it is an `edge` assertion into that constant.

use std::collections::BTreeMap;

use super::Checker;
use crate::bindings::UrlBinding;
use crate::error::{Code, SpecError};
use crate::model::InfraEntity;
use crate::syntax::ast::{Ident, InfraDecl, Property};
use crate::syntax::Span;
use crate::vocab::{self, AUTH, CONNECTIVITY, NODE_TYPES, PROTOCOLS, RESOURCE_TYPES};

impl Checker<'_> {
    /// Checks a node (`is_node`) or resource and returns its model entry.
    pub fn check_infra(&mut self, decl: &InfraDecl, is_node: bool) -> InfraEntity {
        let (vocabulary, code, noun): (&[&str], Code, &str) = if is_node {
            (&NODE_TYPES, Code::UnknownNodeType, "node")
        } else {
            (&RESOURCE_TYPES, Code::UnknownResourceType, "resource")
        };
        let type_name = &decl.type_name.text;
        if !type_name.is_empty() && !vocabulary.contains(&type_name.as_str()) {
            let message = format!("unknown {noun} type `{type_name}`");
            let error = match vocab::suggest_vocabulary(type_name, vocabulary) {
                Some(suggestion) => SpecError::new(code, decl.type_name.span, message)
                    .with_suggestion(Some(suggestion)),
                // Nothing close: say where the list is, with a few of its kinds.
                None => {
                    let examples = if is_node {
                        "`server`, `container`, `lambda`, `edge_mobile`, `postgres`, `redis`, `kafka`, `rest_api`"
                    } else {
                        "`secure_storage`, `local_database`, `external_api`, `message_bus`"
                    };
                    SpecError::new(code, decl.type_name.span, message).with_help(format!(
                        "{noun} types are a fixed vocabulary ({examples}, …): the whole list is in docs/VOCABULARY.md"
                    ))
                }
            };
            self.errors.push(error);
        }
        let mut entity = InfraEntity {
            name: decl.name.text.clone(),
            type_name: type_name.clone(),
            type_parameter: decl
                .type_parameter
                .as_ref()
                .map(|parameter| parameter.text.clone()),
            trust: None,
            auth: Vec::new(),
            protocol: Vec::new(),
            connectivity: None,
            clients: Vec::new(),
            urls: Vec::new(),
            properties: BTreeMap::new(),
            location: self.location(decl.name.span),
        };
        let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
        for property in &decl.properties {
            let key = property.key.text.as_str();
            if let Some(first) = seen.get(key) {
                let message = format!("`{key}` is given twice in {noun} `{}`", decl.name.text);
                let error = SpecError::new(Code::DuplicateKey, property.key.span, message)
                    .with_related(*first, "first given here");
                self.errors.push(error);
                continue;
            }
            seen.insert(key, property.key.span);
            self.apply_property(&mut entity, property);
        }
        entity
    }

    fn apply_property(&mut self, entity: &mut InfraEntity, property: &Property) {
        match property.key.text.as_str() {
            "trust" => {
                if let Some(value) = self.single_value(property) {
                    entity.trust = self.resolve_trust_value(value);
                }
            }
            "connectivity" => {
                if let Some(value) = self.single_value(property) {
                    if self.in_vocabulary(
                        value,
                        &CONNECTIVITY,
                        Code::InvalidConnectivity,
                        "connectivity",
                    ) {
                        entity.connectivity = Some(value.text.clone());
                    }
                }
            }
            "protocol" => {
                for value in &property.values {
                    if self.in_vocabulary(value, &PROTOCOLS, Code::InvalidProtocol, "protocol") {
                        entity.protocol.push(value.text.clone());
                    }
                }
            }
            "auth" => {
                for value in &property.values {
                    if self.in_vocabulary(value, &AUTH, Code::InvalidAuth, "auth") {
                        entity.auth.push(value.text.clone());
                    }
                }
            }
            "clients" => {
                for value in self.binding_values(property) {
                    self.bind_client(entity, value);
                }
            }
            "urls" => {
                for value in self.binding_values(property) {
                    match UrlBinding::parse(&value.text) {
                        Ok(_) if !entity.urls.contains(&value.text) => {
                            entity.urls.push(value.text.clone());
                        }
                        Ok(_) => {}
                        Err(reason) => {
                            let message = format!("invalid URL glob `{}`: {reason}", value.text);
                            self.report(Code::InvalidPropertyValue, value.span, message);
                        }
                    }
                }
            }
            key => {
                let values = property
                    .values
                    .iter()
                    .map(|value| value.text.clone())
                    .collect();
                entity.properties.insert(key.to_owned(), values);
            }
        }
    }

    /// The values of a binding key; an empty one gives `invalid-property-value`.
    fn binding_values<'p>(&mut self, property: &'p Property) -> Vec<&'p Ident> {
        let mut values = Vec::new();
        for value in &property.values {
            if value.text.trim().is_empty() {
                let message = format!("`{}` takes non-empty strings", property.key.text);
                self.report(Code::InvalidPropertyValue, value.span, message);
            } else {
                values.push(value);
            }
        }
        values
    }

    /// Binds a library to an entity; the same library on another entity gives
    /// `duplicate-client-binding`.
    fn bind_client(&mut self, entity: &mut InfraEntity, library: &Ident) {
        match self.client_bindings.get(&library.text) {
            Some((owner, _)) if *owner == entity.name => {}
            Some((owner, first)) => {
                let message = format!("`{}` is already bound to `{owner}`", library.text);
                let error = SpecError::new(Code::DuplicateClientBinding, library.span, message)
                    .with_related(*first, "first bound here")
                    .with_help("a library's uses can reach one entity: keep it in one `clients` list, and bind the other entity with `urls` or a library of its own");
                self.errors.push(error);
            }
            None => {
                self.client_bindings
                    .insert(library.text.clone(), (entity.name.clone(), library.span));
                entity.clients.push(library.text.clone());
            }
        }
    }

    /// The only value of a single-valued key; else `invalid-property-value`.
    fn single_value<'p>(&mut self, property: &'p Property) -> Option<&'p Ident> {
        match property.values.as_slice() {
            [value] => Some(value),
            _ => {
                let message = format!("`{}` takes exactly one value", property.key.text);
                self.report(Code::InvalidPropertyValue, property.key.span, message);
                None
            }
        }
    }

    fn in_vocabulary(
        &mut self,
        value: &Ident,
        vocabulary: &[&str],
        code: Code,
        noun: &str,
    ) -> bool {
        if vocabulary.contains(&value.text.as_str()) {
            return true;
        }
        let suggestion = vocab::suggest_vocabulary(&value.text, vocabulary);
        let message = format!(
            "invalid {noun} `{}`: expected {}",
            value.text,
            vocab::plain_list(vocabulary)
        );
        self.report_with_suggestion(code, value.span, message, suggestion);
        false
    }
}
