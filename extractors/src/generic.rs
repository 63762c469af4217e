//! Which generic facts a run makes. `call`, `assignment` and `external` facts exist for the
//! reviewed queries (the `match` block, `crate::agq::matching`) and for `graph --facts`: no policy family reads them.
//! A project with queries needs only those its queries may match, and a query's `match` names
//! exact values, so a query that asks for `kind: call` with `callee: acceptConsent` needs the
//! calls of `acceptConsent` alone. On a large project the generic facts outnumber all the
//! others several times over, so making only those saves most of their time and memory.

use std::collections::BTreeSet;
use std::fmt;

/// The generic facts a run makes: none, every one, or those some query may match.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GenericFacts {
    calls: Wanted,
    assignments: Wanted,
    externals: bool,
    /// Libraries the spec binds to an entity with `clients` (see `node` and `resource` in policies/LANGUAGE.md): a construction
    /// or call of what a file imports from one is a client use even when the built-in catalogue
    /// does not know the library, and an import of one makes its `external` fact.
    bound_clients: BTreeSet<String>,
}

/// Which facts of one generic kind are made, by the value of the property that names them
/// (a call's `callee`, an assignment's `property`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) enum Wanted {
    /// None.
    #[default]
    Nothing,
    /// Those whose name is one of these.
    Named(BTreeSet<String>),
    /// Every one.
    Everything,
}

impl Wanted {
    /// Whether a fact with this name is made.
    pub fn contains(&self, name: &str) -> bool {
        match self {
            Self::Nothing => false,
            Self::Named(names) => names.contains(name),
            Self::Everything => true,
        }
    }

    /// What this and `other` want together.
    #[must_use]
    pub fn union(self, other: Self) -> Self {
        match (self, other) {
            (Self::Everything, _) | (_, Self::Everything) => Self::Everything,
            (Self::Nothing, wanted) | (wanted, Self::Nothing) => wanted,
            (Self::Named(mut names), Self::Named(more)) => {
                names.extend(more);
                Self::Named(names)
            }
        }
    }

    fn is_nothing(&self) -> bool {
        matches!(self, Self::Nothing)
    }
}

/// What one query's `match` says of the generic facts it can match: the kinds it allows, and
/// the values it wants of the properties that name calls and assignments.
#[derive(Debug, Default)]
pub(crate) struct MatchShape {
    /// The wanted `kind` values; `None` when the query does not constrain the kind.
    pub kinds: Option<Vec<String>>,
    /// The wanted string values of `callee` or `method` (a call's `method` is its `callee`);
    /// `None` when the query constrains neither.
    pub callees: Option<BTreeSet<String>>,
    /// The wanted string values of `property`; `None` when unconstrained.
    pub properties: Option<BTreeSet<String>>,
}

impl GenericFacts {
    /// No generic fact: a run without queries.
    pub const NONE: Self = Self {
        calls: Wanted::Nothing,
        assignments: Wanted::Nothing,
        externals: false,
        bound_clients: BTreeSet::new(),
    };

    /// Every generic fact: `graph --facts`, `--debug-extractors`.
    pub const ALL: Self = Self {
        calls: Wanted::Everything,
        assignments: Wanted::Everything,
        externals: true,
        bound_clients: BTreeSet::new(),
    };

    /// Every generic fact when `all`, else none.
    pub fn all_or_none(all: bool) -> Self {
        if all {
            Self::ALL
        } else {
            Self::NONE
        }
    }

    /// The generic facts the queries with these `match` shapes may match.
    pub(crate) fn for_matches<'a>(shapes: impl IntoIterator<Item = &'a MatchShape>) -> Self {
        let mut wanted = Self::NONE;
        for shape in shapes {
            let allows = |kind: &str| {
                shape
                    .kinds
                    .as_ref()
                    .is_none_or(|kinds| kinds.iter().any(|wanted| wanted == kind))
            };
            let named = |names: &Option<BTreeSet<String>>| match names {
                Some(names) => Wanted::Named(names.clone()),
                None => Wanted::Everything,
            };
            if allows("call") {
                wanted.calls = std::mem::take(&mut wanted.calls).union(named(&shape.callees));
            }
            if allows("assignment") {
                wanted.assignments =
                    std::mem::take(&mut wanted.assignments).union(named(&shape.properties));
            }
            wanted.externals |= allows("external");
        }
        wanted
    }

    /// These facts, with the libraries the spec binds with `clients`.
    #[must_use]
    pub fn with_bound_clients(mut self, libraries: impl IntoIterator<Item = String>) -> Self {
        self.bound_clients.extend(libraries);
        self
    }

    /// Whether the spec binds any library with `clients`: the extractors look for the uses of
    /// bound libraries only then.
    pub fn has_bound_clients(&self) -> bool {
        !self.bound_clients.is_empty()
    }

    /// The bound library that `package` is or lies below (`org.hibernate` for
    /// `org.hibernate.Session`, `github.com/jackc/pgx/v5` for its `pgxpool`), if any.
    pub fn bound_client(&self, package: &str) -> Option<&str> {
        self.bound_clients
            .iter()
            .filter(|library| {
                package.strip_prefix(library.as_str()).is_some_and(|rest| {
                    rest.is_empty()
                        || rest.starts_with('/')
                        || rest.starts_with('.')
                        || rest.starts_with("::")
                })
            })
            .max_by_key(|library| library.len())
            .map(String::as_str)
    }

    /// The bound library that names a type of `namespace` (`NBXplorer.ExplorerClient` for
    /// `NBXplorer`), the first in order, if any: a C# `using` of the namespace brings its simple
    /// name in, while the namespace's other types stay no library's.
    pub fn bound_type_of(&self, namespace: &str) -> Option<&str> {
        self.bound_clients
            .iter()
            .find(|library| {
                library
                    .strip_prefix(namespace)
                    .and_then(|rest| rest.strip_prefix('.'))
                    .is_some_and(|name| !name.is_empty() && !name.contains('.'))
            })
            .map(String::as_str)
    }

    /// Whether no generic fact is made.
    pub fn is_none(&self) -> bool {
        self.calls.is_nothing()
            && self.assignments.is_nothing()
            && !self.externals
            && self.bound_clients.is_empty()
    }

    /// Whether the `call` fact of a call of `callee` is made.
    pub fn wants_call(&self, callee: &str) -> bool {
        self.calls.contains(callee)
    }

    /// Whether the `assignment` fact of a write to `property` is made.
    pub fn wants_assignment(&self, property: &str) -> bool {
        self.assignments.contains(property)
    }

    /// Whether imports of packages outside the project make `external` facts.
    pub fn wants_externals(&self) -> bool {
        self.externals
    }

    /// Whether an import of the outside package `package` makes its `external` fact: every
    /// one when the queries want them, else those of a bound library and those that tell
    /// which modules a framework keeps out of what it builds for a client ([`is_framework_marker`]).
    pub fn wants_external(&self, package: &str) -> bool {
        self.externals || self.bound_client(package).is_some() || is_framework_marker(package)
    }

    /// Whether any `call` or `assignment` fact may be made: the walks find the calls and
    /// assignments only then.
    pub fn wants_calls_or_assignments(&self) -> bool {
        !self.calls.is_nothing() || !self.assignments.is_nothing()
    }
}

/// Packages whose import says which modules a framework keeps out of the client's build (the
/// engine's server-only modules): `server-only`, Remix's and React Router's framework packages
/// and SvelteKit.
pub fn is_framework_marker(package: &str) -> bool {
    package == "server-only"
        || package == "@sveltejs/kit"
        || package.starts_with("@remix-run/")
        || package.starts_with("@react-router/")
}

/// A canonical text (the extraction cache keys on it): `none`, `all`, or the wanted names.
impl fmt::Display for GenericFacts {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Self::NONE {
            return formatter.write_str("none");
        }
        if *self == Self::ALL {
            return formatter.write_str("all");
        }
        let wanted = |wanted: &Wanted| match wanted {
            Wanted::Nothing => "-".to_owned(),
            Wanted::Everything => "*".to_owned(),
            Wanted::Named(names) => names
                .iter()
                .map(|name| format!("{name:?}"))
                .collect::<Vec<_>>()
                .join(","),
        };
        write!(
            formatter,
            "calls[{}] assignments[{}] externals[{}]",
            wanted(&self.calls),
            wanted(&self.assignments),
            self.externals
        )?;
        if !self.bound_clients.is_empty() {
            let libraries: Vec<String> = self
                .bound_clients
                .iter()
                .map(|library| format!("{library:?}"))
                .collect();
            write!(formatter, " clients[{}]", libraries.join(","))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::{GenericFacts, MatchShape};

    fn names(values: &[&str]) -> Option<BTreeSet<String>> {
        Some(values.iter().map(|value| (*value).to_owned()).collect())
    }

    #[test]
    fn a_query_wants_the_generic_facts_its_match_allows() {
        let consent = MatchShape {
            kinds: Some(vec!["call".to_owned()]),
            callees: names(&["showConsent", "acceptConsent"]),
            properties: None,
        };
        let wanted = GenericFacts::for_matches([&consent]);
        assert!(wanted.wants_call("acceptConsent"));
        assert!(!wanted.wants_call("save"));
        assert!(!wanted.wants_assignment("status"));
        assert!(!wanted.wants_externals());
        assert!(wanted.wants_calls_or_assignments());

        // A query that does not name the callee wants every call; one without a kind wants
        // every generic kind.
        let any_call = MatchShape {
            kinds: Some(vec!["call".to_owned(), "import".to_owned()]),
            ..MatchShape::default()
        };
        assert!(GenericFacts::for_matches([&consent, &any_call]).wants_call("save"));
        let status = MatchShape {
            kinds: None,
            callees: None,
            properties: names(&["status"]),
        };
        let wanted = GenericFacts::for_matches([&consent, &status]);
        assert!(
            wanted.wants_call("save"),
            "no kind: every call (no callee asked)"
        );
        assert!(wanted.wants_assignment("status"));
        assert!(!wanted.wants_assignment("total"));
        assert!(wanted.wants_externals());

        // Queries of other kinds want none.
        let imports = MatchShape {
            kinds: Some(vec!["import".to_owned()]),
            ..MatchShape::default()
        };
        let wanted = GenericFacts::for_matches([&imports]);
        assert!(wanted.is_none());
        assert_eq!(wanted, GenericFacts::NONE);
        assert_eq!(GenericFacts::for_matches([]), GenericFacts::NONE);
    }

    #[test]
    fn the_canonical_text_tells_every_demand_apart() {
        let consent = MatchShape {
            kinds: Some(vec!["call".to_owned()]),
            callees: names(&["b", "a"]),
            properties: None,
        };
        assert_eq!(GenericFacts::NONE.to_string(), "none");
        assert_eq!(GenericFacts::ALL.to_string(), "all");
        assert_eq!(
            GenericFacts::for_matches([&consent]).to_string(),
            "calls[\"a\",\"b\"] assignments[-] externals[false]"
        );
    }
}
