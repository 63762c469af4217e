//! The targets of constructor injections: the component that owns the class a parameter type
//! names (known from the classes whose constructors inject and from the type declarations), filled
//! before rules are evaluated.

use std::collections::{BTreeMap, HashMap, HashSet};

use policies::facts::{Fact, FactKind, PropertyValue};
use rayon::prelude::*;

/// Who declares a name: nobody yet, one owner, or more than one (then nothing is inferred).
#[derive(Clone, Copy)]
pub(super) enum Owner<'a> {
    One(&'a str),
    Many,
}

impl<'a> Owner<'a> {
    fn with(slot: Option<Self>, owner: &'a str) -> Self {
        match slot {
            None => Self::One(owner),
            Some(Self::One(known)) if known == owner => Self::One(known),
            Some(_) => Self::Many,
        }
    }

    /// What two readings of the same name make together, whichever came first.
    fn merge(slot: Option<Self>, other: Self) -> Self {
        match other {
            Self::One(owner) => Self::with(slot, owner),
            Self::Many => Self::Many,
        }
    }

    fn single(slot: Option<&Self>) -> Option<&'a str> {
        match slot {
            Some(Self::One(owner)) => Some(owner),
            _ => None,
        }
    }
}

/// The owners of the types each language's files declare, keyed by (language, type): a class
/// with a constructor is declared in the file of its injections, and an import that resolves to
/// a project file names types that file declares (a C# use of a type is an import of its file,
/// so a class without constructor parameters, named in a registration, is found too). Only
/// whether a type has one owner matters, so the map borrows from the facts and keeps no sets;
/// and only the names in `wanted` are kept (a project imports far more names than it injects).
pub(super) fn class_owners<'a>(
    facts: &'a [Box<Fact>],
    owners: &'a BTreeMap<String, String>,
    wanted: &HashSet<&str>,
) -> HashMap<(&'a str, &'a str), Owner<'a>> {
    // Read in parallel: a C# project has an import per type use.
    facts
        .par_iter()
        .fold(HashMap::new, |mut declared, fact| {
            let mut add = |key: (&'a str, &'a str), owner: &'a str| {
                declared
                    .entry(key)
                    .and_modify(|slot| *slot = Owner::with(Some(*slot), owner))
                    .or_insert(Owner::One(owner));
            };
            match fact.kind {
                FactKind::ConstructorInjection => {
                    if let (Some(class), Some(subject)) =
                        (fact.property_str("class"), &fact.subject)
                    {
                        if wanted.contains(class) {
                            let language = fact.property_str("language").unwrap_or_default();
                            add((language, class), subject);
                        }
                    }
                }
                FactKind::Import => {
                    let Some(PropertyValue::List(names)) = fact.properties.get("names") else {
                        return declared;
                    };
                    let mut names = names
                        .iter()
                        .map(|name| name.as_str())
                        .filter(|name| wanted.contains(name))
                        .peekable();
                    if names.peek().is_none() {
                        return declared;
                    }
                    // Extraction set the target of an import to the owner of its resolved file.
                    let Some(owner) = fact.target.as_deref().or_else(|| {
                        fact.property_str("resolved")
                            .and_then(|resolved| owners.get(resolved))
                            .map(String::as_str)
                    }) else {
                        return declared;
                    };
                    let language = fact.property_str("language").unwrap_or_default();
                    for name in names {
                        add((language, name), owner);
                    }
                }
                _ => {}
            }
            declared
        })
        .reduce(HashMap::new, |mut merged, part| {
            for (key, owner) in part {
                let slot = merged.get(&key).copied();
                merged.insert(key, Owner::merge(slot, owner));
            }
            merged
        })
}

/// Sets the `typeFile` of every constructor injection: the one project file that declares its
/// parameter type (see Edges under `invariant` in policies/LANGUAGE.md), known from the classes whose constructors inject
/// and from the imports that name the type (in C#, every use of a project type is such an
/// import). A type declared in two files, or only outside the project, gets none. Flow and chain
/// edges of injections go there: code depends on the type it names, whatever DI registers for
/// it (that wiring is what di_policy judges, through `target`).
pub fn fill_injection_type_files(facts: &mut [Box<Fact>]) {
    let injects = |fact: &Fact| fact.kind == FactKind::ConstructorInjection;
    if !facts.iter().any(|fact| injects(fact)) {
        return;
    }
    let files: Vec<(usize, String)> = {
        let wanted: HashSet<(&str, &str)> = facts
            .iter()
            .filter(|fact| injects(fact))
            .filter_map(|fact| {
                Some((
                    fact.property_str("language").unwrap_or_default(),
                    fact.property_str("parameterType")?,
                ))
            })
            .collect();
        let mut declared: HashMap<(&str, &str), Owner<'_>> = HashMap::new();
        // Reading order does not matter: only whether a name has one file is kept.
        for fact in facts.iter() {
            let language = fact.property_str("language").unwrap_or_default();
            match fact.kind {
                FactKind::ConstructorInjection => {
                    if let Some(class) = fact.property_str("class") {
                        if wanted.contains(&(language, class)) {
                            let slot = declared.get(&(language, class)).copied();
                            declared
                                .insert((language, class), Owner::with(slot, &fact.evidence.file));
                        }
                    }
                }
                FactKind::Import => {
                    let (Some(PropertyValue::List(names)), Some(resolved)) =
                        (fact.properties.get("names"), fact.property_str("resolved"))
                    else {
                        continue;
                    };
                    for name in names.iter().map(|name| name.as_str()) {
                        if let Some(key) = wanted.get(&(language, name)) {
                            let slot = declared.get(key).copied();
                            declared.insert(*key, Owner::with(slot, resolved));
                        }
                    }
                }
                _ => {}
            }
        }
        facts
            .iter()
            .enumerate()
            .filter(|(_, fact)| injects(fact))
            .filter_map(|(index, fact)| {
                let key = (
                    fact.property_str("language").unwrap_or_default(),
                    fact.property_str("parameterType")?,
                );
                let file = Owner::single(declared.get(&key))?;
                Some((index, file.to_owned()))
            })
            .collect()
    };
    for (index, file) in files {
        if let Some(fact) = facts.get_mut(index) {
            fact.properties
                .insert("typeFile", PropertyValue::from(file.as_str()));
        }
    }
}

/// Fills the `target` of constructor injections that have none (see `di_policy` in policies/LANGUAGE.md): the
/// owner of the parameter type's single registered implementation, else of the type's single
/// declaration, else nothing.
pub fn fill_injection_targets(facts: &mut [Box<Fact>], owners: &BTreeMap<String, String>) {
    let untargeted =
        |fact: &Fact| fact.kind == FactKind::ConstructorInjection && fact.target.is_none();
    // Most projects inject nothing: the declared classes are read only when something is.
    if !facts.iter().any(|fact| untargeted(fact)) {
        return;
    }
    let targets: Vec<(usize, Option<String>)> = {
        let mut implementations: HashMap<&str, Owner<'_>> = HashMap::new();
        for fact in facts.iter() {
            if fact.kind != FactKind::DiRegistration {
                continue;
            }
            if let (Some(service), Some(implementation)) = (
                fact.property_str("service"),
                fact.property_str("implementation"),
            ) {
                let slot = implementations.get(service).copied();
                implementations.insert(service, Owner::with(slot, implementation));
            }
        }
        // The names whose owners are asked for: each injected type, and the implementation
        // registered for it when there is a single one.
        let mut wanted: HashSet<&str> = HashSet::new();
        for fact in facts.iter().filter(|fact| untargeted(fact)) {
            if let Some(parameter_type) = fact.property_str("parameterType") {
                wanted.insert(parameter_type);
                wanted.extend(Owner::single(implementations.get(parameter_type)));
            }
        }
        let declared = class_owners(facts, owners, &wanted);
        facts
            .iter()
            .enumerate()
            .filter(|(_, fact)| untargeted(fact))
            .filter_map(|(index, fact)| {
                let parameter_type = fact.property_str("parameterType")?;
                let language = fact.property_str("language").unwrap_or_default();
                let declared_in =
                    |name: &str| Owner::single(declared.get(&(language, name))).map(str::to_owned);
                let target = match Owner::single(implementations.get(parameter_type)) {
                    Some(implementation) => declared_in(implementation),
                    None => declared_in(parameter_type),
                };
                Some((index, target))
            })
            .collect()
    };
    for (index, target) in targets {
        if let Some(fact) = facts.get_mut(index) {
            fact.target = target.map(Into::into);
        }
    }
}
