//! The graph-fact schema: the one vocabulary that extractors produce,
//! reviewed queries match, and the engine evaluates.
//!
//! Extractors key facts by file (`evidence.file`, and the `resolved` property of imports);
//! the engine fills `subject` and `target` with the owner component of those files (see `component` in policies/LANGUAGE.md).
//! Nothing here depends on tree-sitter, Z3 or the file system.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

mod values;

pub use values::{Interner, Properties, PropertyValue, Text};

/// How sure an extractor is that a fact holds at run time (see Status and blocking in docs/VERDICT.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// Debug-only evidence; never reported.
    Possible,
    /// Reported as a `probable-fact` warning unless `--strict`.
    Probable,
    /// Blocks.
    Definite,
}

impl Confidence {
    /// The wire name (`definite`, `probable`, `possible`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Possible => "possible",
            Self::Probable => "probable",
            Self::Definite => "definite",
        }
    }
}

/// How a fact was found; used to break ties between facts for one edge (`ast` first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// Read from a syntax tree.
    Ast,
    /// Derived from other facts.
    Graph,
    /// Read from a configuration file (workflow YAML, manifests).
    Config,
    /// Matched textually (no built-in extractor uses this).
    Regex,
}

impl Strategy {
    /// Rank for tie-breaks: lower is better (`ast` > `graph` > `config` > `regex`).
    pub fn rank(self) -> u8 {
        match self {
            Self::Ast => 0,
            Self::Graph => 1,
            Self::Config => 2,
            Self::Regex => 3,
        }
    }
}

/// The built-in graph fact kinds, plus the plugin kinds that queries may match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FactKind {
    /// A module import; `target` is the owner of the resolved file.
    Import,
    /// An import of a package outside the project (no edge).
    External,
    /// A function or method call.
    Call,
    /// A property assignment.
    Assignment,
    /// A DI container registration.
    DiRegistration,
    /// A constructor parameter injected by DI.
    ConstructorInjection,
    /// A service-locator lookup.
    ServiceResolution,
    /// An HTTP route handled by the file.
    Route,
    /// An HTTP request made by the file: `method`, `url`, `path`?, `client`, and `urlFrom`?, the
    /// environment variables and configuration keys its URL is built from (they bind it to the
    /// entity whose `urls` list one, see `node` and `resource` in policies/LANGUAGE.md).
    HttpCall,
    /// Use of an infrastructure client (database, cache, queue, storage, HTTP): `package`?,
    /// `client`?, `reason`; the engine adds `request`, the id of the `http_call` made at the same
    /// place, when that call decides the target (see Edges under `invariant` in policies/LANGUAGE.md).
    AccessesTechnology,
    /// An authorization role check.
    ChecksRole,
    /// An operation performed on data.
    Performs,
    /// A workflow trigger.
    WorkflowTrigger,
    /// A workflow token permission grant.
    WorkflowPermission,
    /// A publish/deploy/release action in a workflow step.
    WorkflowAction,
    /// One step of a workflow job.
    WorkflowStep,
    /// A workflow job.
    WorkflowJob,
    /// A secret referenced by a workflow job.
    WorkflowSecret,
}

impl FactKind {
    /// Every built-in kind, in schema order.
    pub const ALL: [FactKind; 18] = [
        Self::Import,
        Self::External,
        Self::Call,
        Self::Assignment,
        Self::DiRegistration,
        Self::ConstructorInjection,
        Self::ServiceResolution,
        Self::Route,
        Self::HttpCall,
        Self::AccessesTechnology,
        Self::ChecksRole,
        Self::Performs,
        Self::WorkflowTrigger,
        Self::WorkflowPermission,
        Self::WorkflowAction,
        Self::WorkflowStep,
        Self::WorkflowJob,
        Self::WorkflowSecret,
    ];

    /// The wire name, e.g. `accesses_technology`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Import => "import",
            Self::External => "external",
            Self::Call => "call",
            Self::Assignment => "assignment",
            Self::DiRegistration => "di_registration",
            Self::ConstructorInjection => "constructor_injection",
            Self::ServiceResolution => "service_resolution",
            Self::Route => "route",
            Self::HttpCall => "http_call",
            Self::AccessesTechnology => "accesses_technology",
            Self::ChecksRole => "checks_role",
            Self::Performs => "performs",
            Self::WorkflowTrigger => "workflow_trigger",
            Self::WorkflowPermission => "workflow_permission",
            Self::WorkflowAction => "workflow_action",
            Self::WorkflowStep => "workflow_step",
            Self::WorkflowJob => "workflow_job",
            Self::WorkflowSecret => "workflow_secret",
        }
    }

    /// Parses a wire name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == name)
    }
}

/// Where a fact comes from. Lines and columns are 1-based; columns count Unicode scalar values.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Evidence {
    /// The extractor's name, e.g. `typescript` (borrowed: every extractor's name is fixed).
    pub extractor: Cow<'static, str>,
    /// How the fact was found.
    pub strategy: Strategy,
    /// Project-relative path with `/` separators, shared by the facts of one file.
    pub file: Arc<str>,
    /// 1-based line of the construct's start.
    pub line: u32,
    /// 1-based column of the construct's start.
    pub column: u32,
    /// 1-based line of the construct's end.
    pub end_line: u32,
    /// 1-based column of the construct's end.
    pub end_column: u32,
    /// Enclosing function or method as a dotted path, e.g. `OrdersController.Remove`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub scope: Option<Box<str>>,
    /// One sentence naming the construct, e.g. ``import `./db` `` (shared between the facts
    /// of one construct in many files, such as the imports of one type).
    pub message: Text,
}

/// One graph fact.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Fact {
    /// `<extractor>:<file>:<line>:<column>:<kind>`, with `#n` for repeats at one position.
    pub id: String,
    /// The fact kind.
    pub kind: FactKind,
    /// The owner component of the evidence file; filled by the engine (one shared name per
    /// component).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub subject: Option<Arc<str>>,
    /// The target entity or component; for imports the owner of the resolved file (filled by the engine).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub target: Option<Arc<str>>,
    /// For `accesses_technology`: a category or entity name (see Edges under `invariant` in
    /// policies/LANGUAGE.md).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub technology: Option<Box<str>>,
    /// A model/data name, where the construct names one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub model: Option<Box<str>>,
    /// For `route`: the normalised path.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub route: Option<Box<str>>,
    /// Kind-specific properties; every fact has `language`.
    pub properties: Properties,
    /// How sure the extractor is.
    pub confidence: Confidence,
    /// Where the fact comes from.
    pub evidence: Evidence,
}

impl Fact {
    /// A string property.
    pub fn property_str(&self, name: &str) -> Option<&str> {
        self.properties.get(name).and_then(PropertyValue::as_str)
    }

    /// A Boolean property (absent reads as `false`).
    pub fn property_flag(&self, name: &str) -> bool {
        self.properties
            .get(name)
            .and_then(PropertyValue::as_bool)
            .unwrap_or(false)
    }

    /// The key that names the construct behind this fact for violation ids
    /// (see Ids in docs/VERDICT.md): never a line number or an absolute path.
    pub fn evidence_key(&self) -> String {
        let prop = |name: &str| self.property_str(name).unwrap_or_default().to_owned();
        match self.kind {
            FactKind::Import | FactKind::External => prop("specifier"),
            FactKind::AccessesTechnology => format!("{}:{}", prop("package"), prop("client")),
            FactKind::ConstructorInjection => {
                format!("{}:{}", prop("class"), prop("parameterType"))
            }
            FactKind::DiRegistration => format!("{}:{}", prop("service"), prop("implementation")),
            FactKind::ServiceResolution => prop("service"),
            FactKind::Route => format!(
                "{} {}",
                prop("method"),
                self.route
                    .as_deref()
                    .map_or_else(|| prop("normalized"), str::to_owned)
            ),
            FactKind::HttpCall => format!("{} {}", prop("method"), prop("path")),
            FactKind::Call => prop("qualified"),
            FactKind::Assignment => {
                format!("{}.{}={}", prop("object"), prop("property"), prop("value"))
            }
            FactKind::Performs => format!("{}:{}", prop("operation"), prop("data")),
            FactKind::ChecksRole => prop("role"),
            FactKind::WorkflowTrigger
            | FactKind::WorkflowPermission
            | FactKind::WorkflowAction
            | FactKind::WorkflowStep
            | FactKind::WorkflowJob
            | FactKind::WorkflowSecret => format!("{}:{}", prop("job"), prop("step")),
        }
    }
}

/// Where a query-emitted fact comes from (see the reviewed-query format, `extractors::agq`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct QueryProvenance {
    /// The query id.
    pub id: String,
    /// The query version.
    pub version: u32,
    /// The query file, project-relative.
    pub file: String,
    /// The graph fact the query matched.
    #[serde(rename = "graphFactId")]
    pub graph_fact_id: String,
}

/// The kind-specific fields of a domain fact emitted by a reviewed query (see the reviewed-query format, `extractors::agq`).
/// Names are as emitted after `$var` substitution; the engine resolves entity names (see Edges under `invariant` in policies/LANGUAGE.md).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DomainFactBody {
    /// A write of `data.field`; no `from` means an unguarded write.
    Transition {
        /// Data name.
        data: String,
        /// Field name.
        field: String,
        /// Previous state, when known.
        from: Option<String>,
        /// New state.
        to: String,
    },
    /// A flow edge.
    Flow {
        /// Source entity or category.
        from: String,
        /// Target entity or category.
        to: String,
    },
    /// An operation placement.
    Operation {
        /// Operation name.
        operation: String,
        /// The component (entity name) it happens in.
        component: String,
        /// Data it acts on.
        data: Option<String>,
    },
    /// An unauthenticated flow (`authenticated: false`).
    Auth {
        /// Source.
        from: String,
        /// Target.
        to: String,
    },
    /// An unencrypted flow (`encrypted: false`).
    Encryption {
        /// Source.
        from: String,
        /// Target.
        to: String,
    },
    /// A dependency, possibly through an interface.
    Dependency {
        /// Source.
        from: String,
        /// Target.
        to: String,
        /// The interface used, when any.
        interface: Option<String>,
    },
    /// A runtime value: `subject.path relation value`.
    Value {
        /// Data name.
        subject: String,
        /// Dotted path after the subject, e.g. `items.length`.
        path: String,
        /// One of `== != >= <= > <`.
        relation: String,
        /// The value as text (`null`, `true`, numbers and strings as written).
        value: String,
    },
    /// A value before or after an operation.
    OperationEvent {
        /// Operation name.
        operation: String,
        /// `before` or `after`.
        phase: String,
        /// Data name.
        subject: String,
        /// Dotted path after the subject.
        path: String,
        /// One of `== != >= <= > <`.
        relation: String,
        /// The value as text.
        value: String,
    },
    /// An event occurrence.
    Event {
        /// Event name.
        event: String,
        /// Data or component scope.
        scope: Option<String>,
    },
}

/// A domain fact emitted by a reviewed `.agq.yml` query from one graph fact.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct DomainFact {
    /// `<query id>:<graph fact id>`.
    pub id: String,
    /// The emitted fields.
    pub body: DomainFactBody,
    /// min(query confidence, graph fact confidence).
    pub confidence: Confidence,
    /// The graph fact's evidence (file, line, column, scope), with the message
    /// ``query `<id>` v<version> emitted <kind> from <graph kind>: <graph message>``.
    pub evidence: Evidence,
    /// The owner component of the evidence file, filled by the engine.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub subject_component: Option<String>,
    /// Which query emitted it.
    pub query: QueryProvenance,
    /// The evidence key of the graph fact, for violation ids (`query id:key`).
    pub evidence_key: String,
}

/// Builds the stable fact id `<extractor>:<file>:<line>:<column>:<kind>` (without the `#n` suffix).
pub fn fact_id(extractor: &str, file: &str, line: u32, column: u32, kind: FactKind) -> String {
    use std::fmt::Write as _;
    let kind = kind.as_str();
    // Sized exactly: ids live as long as their facts (a run holds hundreds of thousands).
    let digits = |number: u32| {
        number
            .checked_ilog10()
            .map_or(1, |log| usize::try_from(log).unwrap_or(9) + 1)
    };
    let mut id = String::with_capacity(
        extractor.len() + file.len() + kind.len() + digits(line) + digits(column) + 4,
    );
    let _ = write!(id, "{extractor}:{file}:{line}:{column}:{kind}");
    id
}

/// Appends `#n` to ids that repeat (same position and kind), in input order, so every id is unique.
pub fn disambiguate_ids(facts: &mut [Fact]) {
    let mut seen: BTreeMap<String, u32> = BTreeMap::new();
    for fact in facts.iter_mut() {
        let count = seen.entry(fact.id.clone()).or_insert(0);
        *count += 1;
        if *count > 1 {
            fact.id = format!("{}#{}", fact.id, *count - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fact_ids_are_sized_exactly() {
        for (line, column) in [
            (0, 1),
            (1, 9),
            (10, 99),
            (100, 1_000),
            (u32::MAX, 4_294_967),
        ] {
            let id = fact_id(
                "python",
                "app/models.py",
                line,
                column,
                FactKind::AccessesTechnology,
            );
            assert_eq!(
                id,
                format!("python:app/models.py:{line}:{column}:accesses_technology")
            );
            assert_eq!(id.capacity(), id.len(), "{id}");
        }
    }

    #[test]
    fn property_values_read_back_as_they_were_written_by_the_kind_of_json_value() {
        let values = [
            PropertyValue::Bool(true),
            PropertyValue::Int(-3),
            PropertyValue::Int(i64::MAX),
            PropertyValue::from("pg"),
            PropertyValue::from(""),
            PropertyValue::List(vec![Text::Owned("a".into()), Text::Owned("b".into())].into()),
            PropertyValue::List(Vec::new().into()),
        ];
        for value in values {
            let text = serde_json::to_string(&value).unwrap();
            assert_eq!(
                serde_json::from_str::<PropertyValue>(&text).unwrap(),
                value,
                "{text}"
            );
        }
        for invalid in ["1.5", "{}", "null", "[1]", "18446744073709551615"] {
            assert!(
                serde_json::from_str::<PropertyValue>(invalid).is_err(),
                "{invalid}"
            );
        }
    }

    #[test]
    fn a_property_is_five_words_at_most() {
        // Facts hold hundreds of thousands of properties: a name is one `&'static str` and a
        // value fits in three words (a list is a boxed slice, so it fits beside the string's tag).
        assert_eq!(std::mem::size_of::<PropertyValue>(), 24);
        assert_eq!(std::mem::size_of::<(&'static str, PropertyValue)>(), 40);
    }

    #[test]
    fn a_property_name_made_at_run_time_is_the_vocabulary_one() {
        let mut properties = Properties::new();
        properties.insert(String::from("specifier"), PropertyValue::fixed("a"));
        properties.insert("names", vec![String::from("x")].into());
        let mut again = Properties::new();
        again.insert(String::from("specifier"), PropertyValue::fixed("a"));
        assert_eq!(
            properties.keys().collect::<Vec<_>>(),
            ["names", "specifier"]
        );
        // Both `specifier` names, made from two strings, are the one vocabulary string.
        let first = properties.keys().nth(1).unwrap();
        let second = again.keys().next().unwrap();
        assert!(std::ptr::eq(first, second));
    }

    #[test]
    fn fact_kinds_round_trip_through_their_names() {
        for kind in FactKind::ALL {
            assert_eq!(FactKind::from_name(kind.as_str()), Some(kind));
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.as_str()));
        }
    }

    #[test]
    fn repeated_ids_get_a_counter_suffix() {
        let evidence = Evidence {
            extractor: "typescript".into(),
            strategy: Strategy::Ast,
            file: "a.ts".into(),
            line: 1,
            column: 1,
            end_line: 1,
            end_column: 2,
            scope: None,
            message: Text::default(),
        };
        let fact = Fact {
            id: fact_id("typescript", "a.ts", 1, 1, FactKind::Import),
            kind: FactKind::Import,
            subject: None,
            target: None,
            technology: None,
            model: None,
            route: None,
            properties: Properties::new(),
            confidence: Confidence::Definite,
            evidence,
        };
        let mut facts = vec![fact.clone(), fact.clone(), fact];
        disambiguate_ids(&mut facts);
        let ids: Vec<_> = facts.iter().map(|fact| fact.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "typescript:a.ts:1:1:import",
                "typescript:a.ts:1:1:import#1",
                "typescript:a.ts:1:1:import#2"
            ]
        );
    }

    /// Every string interned from several threads at once comes back as one shared string,
    /// whichever shard it falls in, and strings that differ only past eight bytes, or in length,
    /// stay apart.
    #[test]
    fn strings_interned_from_several_threads_are_shared_once() {
        let interner = Interner::default();
        let texts: Vec<String> = (0..400)
            .map(|index| format!("src/module_{}/file.ts", index % 100))
            .chain(["", "a", "abcdefgh", "abcdefgh\0", "abcdefghi", "abcdefgj"].map(String::from))
            .collect();
        let results: Vec<Vec<Arc<str>>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..4)
                .map(|_| scope.spawn(|| texts.iter().map(|text| interner.intern(text)).collect()))
                .collect();
            handles
                .into_iter()
                .map(|handle| handle.join().unwrap())
                .collect()
        });
        for (index, text) in texts.iter().enumerate() {
            let first = &results[0][index];
            assert_eq!(&**first, text.as_str());
            for result in &results {
                assert!(
                    Arc::ptr_eq(first, &result[index]),
                    "{text} was shared twice"
                );
            }
            assert!(Arc::ptr_eq(first, &interner.intern(text)));
        }
        let distinct: std::collections::HashSet<*const u8> =
            results[0].iter().map(|text| text.as_ptr()).collect();
        // 100 paths and the 6 short ones (the empty string's pointer may be any).
        assert!(distinct.len() >= 105, "{} distinct", distinct.len());
        let shards_used = interner
            .0
            .iter()
            .filter(|shard| !shard.lock().unwrap().is_empty())
            .count();
        assert!(shards_used > 1, "all strings in one shard");
    }

    #[test]
    fn interned_strings_are_shared_and_read_like_any_other() {
        let interner = Interner::default();
        let first = interner.intern("src/db.ts");
        let second = interner.intern("src/db.ts");
        assert!(Arc::ptr_eq(&first, &second));
        assert!(!Arc::ptr_eq(&first, &interner.intern("src/api.ts")));
        let shared = PropertyValue::shared(first);
        let owned = PropertyValue::from("src/db.ts");
        assert_eq!(shared, owned);
        assert_eq!(shared.as_str(), Some("src/db.ts"));
        assert_eq!(
            serde_json::to_string(&shared).unwrap(),
            serde_json::to_string(&owned).unwrap()
        );
        assert_eq!(
            PropertyValue::fixed("b").cmp(&PropertyValue::from("a")),
            std::cmp::Ordering::Greater
        );
    }
}
