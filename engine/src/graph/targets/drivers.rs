//! The drivers through which a generic SQL API's uses reach their store (Go's `database/sql`
//! and the other driver APIs of the catalogue): a driver a node binds names the store of the
//! uses ([`bind_drivers`]), and without bindings, the store type the drivers of the file, its Go
//! package or the program name picks among stores of different types
//! ([`narrow_driver_api_uses`]).

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use policies::facts::{Confidence, Fact, FactKind};
use policies::model::Model;

use super::{candidates, category_types, technology_targets, Bindings, Outcome};

/// Names the bound driver of each SQL access that its category's bound entities leave out
/// (`node store : sqlite { clients: "modernc.org/sqlite" }` and Go's `sql.Open("sqlite", …)`, a
/// `*sql.DB`): a generic SQL API reaches the store through a driver, which the file imports or,
/// as Go's `database/sql` drivers register themselves for the whole program, another file does.
/// When the file's bound libraries (else, for a driver API, those of its folder, the Go package
/// compiled with it; else the project's, in the file's language) belong to exactly one of the entities
/// left out, the access is a use of that library (its `driver` property): for a driver API (the
/// catalogue's `driver_api`, Go's `database/sql`) also when an unbound entity of the category
/// would otherwise take it (miniflux's `*sql.DB` with
/// `node db : postgres { clients: "github.com/lib/pq" }` beside an unbound `node cache : sqlite`
/// is the PostgreSQL database), unless the project uses a driver of the category that no entity
/// binds, when either store may be meant and the access is only probable.
pub(super) fn bind_drivers(model: &Model, bindings: &Bindings<'_>, facts: &mut [Box<Fact>]) {
    if bindings.clients.is_empty() {
        return;
    }
    // The bound libraries each file imports or uses, with their entities, by language: the
    // program a driver registers itself for is one language's (Python's bound `sqlite3` is no
    // driver of a Go `*sql.DB`).
    let mut imported: HashMap<(String, Arc<str>), Bound<'_>> = HashMap::new();
    for fact in facts.iter() {
        if !matches!(fact.kind, FactKind::External | FactKind::AccessesTechnology) {
            continue;
        }
        if let Some(bound) = fact
            .property_str("package")
            .and_then(|package| bindings.client(package))
        {
            imported
                .entry((language_of(fact).to_owned(), fact.evidence.file.clone()))
                .or_default()
                .insert(bound);
        }
    }
    if imported.is_empty() {
        return;
    }
    // The bound libraries of each folder's files: a driver API's folder is its Go package,
    // compiled as one, so a driver another file of the package imports is the package's.
    let mut by_folder: HashMap<(&str, &str), Bound<'_>> = HashMap::new();
    let mut everywhere: HashMap<&str, Bound<'_>> = HashMap::new();
    for ((language, file), libraries) in &imported {
        by_folder
            .entry((language.as_str(), folder_of(file)))
            .or_default()
            .extend(libraries.iter().copied());
        everywhere
            .entry(language.as_str())
            .or_default()
            .extend(libraries.iter().copied());
    }
    // The one bound library among `libraries` whose entity is left out, if they name one entity.
    let driver = |libraries: &BTreeSet<(&str, &str)>, excluded: &[String]| -> Option<String> {
        let drivers: BTreeSet<(&str, &str)> = libraries
            .iter()
            .filter(|(_, entity)| excluded.iter().any(|name| name == entity))
            .copied()
            .collect();
        let entities: BTreeSet<&str> = drivers.iter().map(|(_, entity)| *entity).collect();
        (entities.len() == 1)
            .then(|| drivers.first().map(|(library, _)| (*library).to_owned()))
            .flatten()
    };
    let relational = category_types("relational_db");
    // The libraries of a specific relational store that no entity binds (a SQLite driver
    // beside a bound PostgreSQL one).
    let unbound_drivers: BTreeSet<String> = facts
        .iter()
        .filter(|fact| fact.kind == FactKind::AccessesTechnology)
        .filter(|fact| {
            fact.technology.as_deref().is_some_and(|technology| {
                technology != "relational_db" && relational.contains(&technology)
            })
        })
        .filter_map(|fact| fact.property_str("package"))
        .filter(|package| bindings.client(package).is_none())
        .map(str::to_owned)
        .collect();
    for fact in facts.iter_mut() {
        if fact.kind != FactKind::AccessesTechnology
            || !fact
                .technology
                .as_deref()
                .is_some_and(|technology| relational.contains(&technology))
        {
            continue;
        }
        let resolution = technology_targets(model, bindings, fact);
        let (excluded, has_candidates) = match resolution.outcome {
            Outcome::Unresolved { excluded, .. } => (excluded, false),
            // Beside an unbound store of the category, only the uses of a driver API (Go's
            // `database/sql`) take a bound driver's store: Django's ORM beside a bound `sqlite3`
            // vector index is still the unbound database's.
            Outcome::Single | Outcome::Ambiguous { .. }
                if fact
                    .property_str("package")
                    .is_some_and(extractors::catalogue::is_driver_api) =>
            {
                let category = fact.technology.as_deref().unwrap_or_default();
                (candidates(model, category).1, true)
            }
            _ => continue,
        };
        if excluded.is_empty() {
            continue;
        }
        let driver_api = fact
            .property_str("package")
            .is_some_and(extractors::catalogue::is_driver_api);
        let language = language_of(fact).to_owned();
        let found = match imported.get(&(language.clone(), fact.evidence.file.clone())) {
            Some(libraries) => driver(libraries, &excluded),
            None => None,
        }
        .or_else(|| {
            by_folder
                .get(&(language.as_str(), folder_of(&fact.evidence.file)))
                .filter(|_| driver_api)
                .and_then(|libraries| driver(libraries, &excluded))
        })
        .or_else(|| {
            everywhere
                .get(language.as_str())
                .and_then(|libraries| driver(libraries, &excluded))
        });
        let Some(library) = found else {
            continue;
        };
        // Beside an unbound store of the category, the bound driver is the store unless the
        // project also uses a driver of the category no entity binds: then either may be, and
        // the access is only probable.
        if has_candidates
            && unbound_drivers
                .iter()
                .any(|package| Some(package.as_str()) != fact.property_str("package"))
        {
            fact.confidence = fact.confidence.min(Confidence::Probable);
            continue;
        }
        fact.properties.insert("driver", library.into());
    }
}

/// Bound libraries, each with the entity that binds it (`("github.com/lib/pq", "db")`).
type Bound<'m> = BTreeSet<(&'m str, &'m str)>;

/// The language of the file a fact was read from (its `language`).
fn language_of(fact: &Fact) -> &str {
    fact.property_str("language").unwrap_or_default()
}

/// The folder of a project-relative path (`store/db/mysql` of `store/db/mysql/memo.go`).
fn folder_of(file: &str) -> &str {
    file.rsplit_once('/').map_or("", |(folder, _)| folder)
}

/// The specific relational stores some drivers name, each with its driver's library
/// (`("mysql", "github.com/go-sql-driver/mysql")`).
type Drivers<'f> = BTreeSet<(&'f str, &'f str)>;

/// Picks the store type of each driver API use that stores of several types could take
/// (memos' `node sqlite : sqlite`, `node mysql : mysql`, `node postgres : postgres`, bound to
/// nothing, and a `*sql.DB` of `store/db/mysql`): the specific relational store the drivers of
/// its file name (`_ "github.com/go-sql-driver/mysql"` is `mysql`), else those of its folder
/// (the Go package, compiled as one), else those of the project (a Go driver registers itself
/// for the whole program), each in the use's language, when they name exactly one type and
/// some but not all candidates have it. The
/// fact's `technology` becomes that type, and its `driver` the driver's library when one
/// library names it. Uses a driver binds ([`bind_drivers`]) are left as they are.
pub(super) fn narrow_driver_api_uses(model: &Model, facts: &mut [Box<Fact>]) {
    let relational = category_types("relational_db");
    let (generic, _) = candidates(model, "relational_db");
    if generic.len() < 2 {
        return;
    }
    // The specific stores (with their libraries) the drivers each file uses name, by language:
    // a Python script's SQLite is no driver of the Go program beside it.
    let language = |fact: &Fact| language_of(fact).to_owned();
    let mut by_file: HashMap<(String, Arc<str>), Drivers<'_>> = HashMap::new();
    for fact in facts.iter() {
        let (Some(technology), Some(package)) =
            (fact.technology.as_deref(), fact.property_str("package"))
        else {
            continue;
        };
        if fact.kind == FactKind::AccessesTechnology
            && technology != "relational_db"
            && relational.contains(&technology)
            && !extractors::catalogue::is_driver_api(package)
        {
            by_file
                .entry((language(fact), fact.evidence.file.clone()))
                .or_default()
                .insert((technology, package));
        }
    }
    if by_file.is_empty() {
        return;
    }
    let mut by_folder: HashMap<(&str, &str), Drivers<'_>> = HashMap::new();
    let mut everywhere: HashMap<&str, Drivers<'_>> = HashMap::new();
    for ((language, file), drivers) in &by_file {
        by_folder
            .entry((language, folder_of(file)))
            .or_default()
            .extend(drivers.iter().copied());
        everywhere
            .entry(language)
            .or_default()
            .extend(drivers.iter().copied());
    }
    // The one store type `drivers` name, with their one library if they name one.
    let named = |drivers: &Drivers<'_>| -> Option<(String, Option<String>)> {
        let types: BTreeSet<&str> = drivers.iter().map(|(technology, _)| *technology).collect();
        let [technology] = types.into_iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        let (narrowed, _) = candidates(model, technology);
        if narrowed.is_empty() || narrowed.len() == generic.len() {
            return None;
        }
        let library = (drivers.len() == 1)
            .then(|| drivers.first().map(|(_, library)| (*library).to_owned()))
            .flatten();
        Some((technology.to_owned(), library))
    };
    let mut picks: Vec<(usize, (String, Option<String>))> = Vec::new();
    for (index, fact) in facts.iter().enumerate() {
        if fact.kind != FactKind::AccessesTechnology
            || fact.technology.as_deref() != Some("relational_db")
            || fact.properties.contains_key("driver")
            || !fact
                .property_str("package")
                .is_some_and(extractors::catalogue::is_driver_api)
        {
            continue;
        }
        let key = (language(fact), fact.evidence.file.clone());
        let pick = by_file
            .get(&key)
            .and_then(&named)
            .or_else(|| {
                by_folder
                    .get(&(key.0.as_str(), folder_of(&key.1)))
                    .and_then(&named)
            })
            .or_else(|| everywhere.get(key.0.as_str()).and_then(&named));
        if let Some(pick) = pick {
            picks.push((index, pick));
        }
    }
    for (index, (technology, library)) in picks {
        let Some(fact) = facts.get_mut(index) else {
            continue;
        };
        fact.technology = Some(technology.into());
        if let Some(library) = library {
            fact.properties.insert("driver", library.into());
        }
    }
}
