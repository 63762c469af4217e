//! The syntax tree of one spec file (see policies/LANGUAGE.md): declarations as written, with spans,
//! before any name is resolved. Rule forms are in [`rules`].

pub mod rules;

use super::Span;
pub use rules::*;

/// A word with its span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ident {
    /// The word.
    pub text: String,
    /// Where it is.
    pub span: Span,
}

/// A string literal with its span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StringLiteral {
    /// The unescaped value.
    pub value: String,
    /// Where it is, quotes included.
    pub span: Span,
}

/// One top-level declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decl {
    /// `import "x.ag"`
    Import(StringLiteral),
    /// `node N : type { … }`
    Node(InfraDecl),
    /// `resource N : type { … }`
    Resource(InfraDecl),
    /// `enum N { … }`
    Enum(EnumDecl),
    /// `data N { … }`
    Data(DataDecl),
    /// `component N { … }`
    Component(ComponentDecl),
    /// `contract N { … }`
    Contract(ContractDecl),
    /// `plugin "name"`
    Plugin(StringLiteral),
    /// `repo N "url" [branch = "b"]`
    Repo(RepoDecl),
    /// `invariant N { … }`
    Invariant(RuleBlock<InvariantRule>),
    /// `machine N on D.f { … }`
    Machine(MachineDecl),
    /// `permission N on T { … }`
    Permission(PermissionDecl),
    /// `value_policy N { … }`
    ValuePolicy(RuleBlock<ValueRule>),
    /// `operation_policy N { … }`
    OperationPolicy(RuleBlock<OperationRule>),
    /// `event_policy N { … }`
    EventPolicy(RuleBlock<EventRule>),
    /// `workflow_policy N { … }`
    WorkflowPolicy(RuleBlock<WorkflowRule>),
    /// `di_policy N { … }`
    DiPolicy(RuleBlock<DiRule>),
    /// `data_policy N { … }`
    DataPolicy(RuleBlock<DataPolicyRule>),
    /// `trust_policy N { … }`
    TrustPolicy(RuleBlock<TrustRule>),
    /// `change_policy N { … }`
    ChangePolicy(RuleBlock<ChangeRule>),
    /// `exclude "glob"` or `exclude ["a", "b"]`: files left out of the checked project.
    Exclude(Vec<StringLiteral>),
    /// `waive TARGET ["rule"] until DATE owner "…" reason "…"`: a reviewed exception.
    Waive(WaiveDecl),
    /// `service N { … }` or `test N { … }`: accepted and ignored.
    Ignored {
        /// `service` or `test`.
        keyword: Ident,
        /// The declared name.
        name: Ident,
    },
}

/// A node or resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InfraDecl {
    /// The declared name.
    pub name: Ident,
    /// The type name.
    pub type_name: Ident,
    /// The parameter of `k8s_pod(prod)`.
    pub type_parameter: Option<Ident>,
    /// Properties in source order.
    pub properties: Vec<Property>,
}

/// One `key: value, …` property.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Property {
    /// The key.
    pub key: Ident,
    /// The values (strings unescaped).
    pub values: Vec<Ident>,
}

/// An enum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumDecl {
    /// The declared name.
    pub name: Ident,
    /// The members in order.
    pub values: Vec<Ident>,
}

/// A data declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataDecl {
    /// The declared name.
    pub name: Ident,
    /// Fields and labels in order.
    pub fields: Vec<FieldDecl>,
}

/// One `name: type` entry of a data declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldDecl {
    /// The field name.
    pub name: Ident,
    /// The written type.
    pub type_expr: TypeSyntax,
}

/// A type expression: one or more alternatives joined by `|`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeSyntax {
    /// The alternatives (at least one).
    pub terms: Vec<TypeTerm>,
    /// The whole expression.
    pub span: Span,
}

/// `NAME [ "<" type [ "," type ] ">" ] { "[" "]" }`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeTerm {
    /// The type name.
    pub name: Ident,
    /// Type arguments, when written with `<…>`.
    pub arguments: Option<Vec<TypeSyntax>>,
    /// How many `[]` follow.
    pub array_depth: u32,
}

/// A component.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComponentDecl {
    /// The declared name.
    pub name: Ident,
    /// Entries in source order.
    pub entries: Vec<ComponentEntry>,
    /// True when a parse error cut the body short.
    pub is_truncated: bool,
}

impl ComponentDecl {
    /// The first value of a scalar key such as `role` or `layer`.
    pub fn scalar(&self, key: &str) -> Option<&Ident> {
        self.entries.iter().find_map(|entry| match &entry.value {
            EntryValue::Name(value) if entry.key.text == key => Some(value),
            _ => None,
        })
    }

    /// Every name listed under a list key such as `implements`.
    pub fn listed(&self, key: &str) -> impl Iterator<Item = &Ident> + '_ {
        let key = key.to_owned();
        self.entries
            .iter()
            .filter(move |entry| entry.key.text == key)
            .flat_map(|entry| match &entry.value {
                EntryValue::Names(names) => names.as_slice(),
                _ => &[],
            })
    }
}

/// One `key: value` entry of a component.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComponentEntry {
    /// The key.
    pub key: Ident,
    /// The value(s).
    pub value: EntryValue,
}

/// The value of a component entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryValue {
    /// `runs_on`, `role`, `layer`, `repo`.
    Name(Ident),
    /// `paths`.
    Globs(Vec<StringLiteral>),
    /// `implements`, `consumes`, `handles`.
    Names(Vec<Ident>),
    /// Any other key: free-form values.
    Other(Vec<Ident>),
}

/// A contract.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractDecl {
    /// The declared name.
    pub name: Ident,
    /// Endpoints in order.
    pub endpoints: Vec<EndpointDecl>,
}

/// One contract endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EndpointDecl {
    /// `GET "/path" [-> return]`
    Http {
        /// The method.
        method: Ident,
        /// The path.
        path: StringLiteral,
        /// The return type, tokens joined without spaces.
        returns: Option<String>,
    },
    /// `query|mutation|subscription name(args) [-> return]`
    GraphQl {
        /// `query`, `mutation` or `subscription`.
        operation: Ident,
        /// The name.
        name: Ident,
        /// Arguments with their written types.
        arguments: Vec<(Ident, String)>,
        /// The return type.
        returns: Option<String>,
    },
    /// `rpc Name(Request) -> Response`
    Rpc {
        /// The keyword.
        keyword: Ident,
        /// The method name.
        name: Ident,
        /// The request type.
        request: Ident,
        /// The response type.
        response: Ident,
    },
    /// `publishes: "topic"` or `subscribes: "topic"`
    Message {
        /// `publishes` or `subscribes`.
        direction: Ident,
        /// The topic.
        topic: StringLiteral,
    },
}

/// A waiver: a reviewed exception to a rule or to one finding (`kinds::waiver`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaiveDecl {
    /// A finding id (`viol_…`), or the invariant, policy or contract whose findings it covers.
    pub target: Ident,
    /// One rule of that declaration, as written.
    pub rule: Option<StringLiteral>,
    /// The last day it holds, as written (checked to be `YYYY-MM-DD`).
    pub until: Ident,
    /// Who owns the exception.
    pub owner: StringLiteral,
    /// Why it is accepted.
    pub reason: StringLiteral,
}

/// A repo alias.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepoDecl {
    /// The alias.
    pub name: Ident,
    /// The URL.
    pub url: StringLiteral,
    /// The branch, when given.
    pub branch: Option<StringLiteral>,
}

/// A machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachineDecl {
    /// The machine name.
    pub name: Ident,
    /// The governed data.
    pub data: Ident,
    /// The governed field.
    pub field: Ident,
    /// The transition rules.
    pub rules: Vec<ParsedRule<TransitionRule>>,
}

/// A permission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PermissionDecl {
    /// The permission name.
    pub name: Ident,
    /// The data or component it gates.
    pub target: Ident,
    /// The rules.
    pub rules: Vec<ParsedRule<PermissionRule>>,
}

/// A declaration that is only a name and a block of rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleBlock<R> {
    /// The declared name.
    pub name: Ident,
    /// The rules that parsed.
    pub rules: Vec<ParsedRule<R>>,
}

/// One rule with its written text and span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedRule<R> {
    /// The tokens of the rule joined by single spaces.
    pub text: String,
    /// From the first token to the last.
    pub span: Span,
    /// The form.
    pub rule: R,
}

impl Decl {
    /// The declared name, for declarations that have one.
    pub fn name(&self) -> Option<&Ident> {
        match self {
            Decl::Import(_)
            | Decl::Plugin(_)
            | Decl::Exclude(_)
            | Decl::Waive(_)
            | Decl::Ignored { .. } => None,
            Decl::Node(decl) | Decl::Resource(decl) => Some(&decl.name),
            Decl::Enum(decl) => Some(&decl.name),
            Decl::Data(decl) => Some(&decl.name),
            Decl::Component(decl) => Some(&decl.name),
            Decl::Contract(decl) => Some(&decl.name),
            Decl::Repo(decl) => Some(&decl.name),
            Decl::Invariant(block) => Some(&block.name),
            Decl::Machine(decl) => Some(&decl.name),
            Decl::Permission(decl) => Some(&decl.name),
            Decl::ValuePolicy(block) => Some(&block.name),
            Decl::OperationPolicy(block) => Some(&block.name),
            Decl::EventPolicy(block) => Some(&block.name),
            Decl::WorkflowPolicy(block) => Some(&block.name),
            Decl::DiPolicy(block) => Some(&block.name),
            Decl::DataPolicy(block) => Some(&block.name),
            Decl::TrustPolicy(block) => Some(&block.name),
            Decl::ChangePolicy(block) => Some(&block.name),
        }
    }
}
