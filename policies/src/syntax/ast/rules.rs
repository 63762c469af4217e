//! Rule forms as written (see `invariant` in policies/LANGUAGE.md–(see `change_policy` in policies/LANGUAGE.md)), before selectors are expanded and names
//! resolved.

use super::{Ident, StringLiteral};
use crate::model::{Lifetime, OperationPhase, Relation, RuleKind, WorkflowAccess};
use crate::syntax::Span;

/// Which entities a `role`, `layer` or `resource` selector picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SelectorKind {
    /// `role r`
    Role,
    /// `layer L`
    Layer,
    /// `resource x`
    Resource,
}

impl SelectorKind {
    /// The keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            Self::Role => "role",
            Self::Layer => "layer",
            Self::Resource => "resource",
        }
    }
}

/// An endpoint position (see `invariant` in policies/LANGUAGE.md): a plain name or a selector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EndpointSyntax {
    /// A plain entity name.
    Name(Ident),
    /// `role r`, `layer L` or `resource x`.
    Selector {
        /// Which selector.
        kind: SelectorKind,
        /// The selected value.
        value: Ident,
        /// From the keyword to the value.
        span: Span,
    },
}

impl EndpointSyntax {
    /// The whole endpoint.
    pub fn span(&self) -> Span {
        match self {
            Self::Name(name) => name.span,
            Self::Selector { span, .. } => *span,
        }
    }
}

/// A position of the boundary rules (`deny cycle among …`, `… in …`, `… within …`): a plain
/// name or selector, `*`, or `layer *` / `role *`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GroupSyntax {
    /// `*`: every component.
    Every(Span),
    /// `layer *` or `role *`: every layer or role (each one group in `deny cycle among`).
    EverySelector {
        /// `layer` or `role`.
        kind: SelectorKind,
        /// From the keyword to the `*`.
        span: Span,
    },
    /// A plain name or a selector.
    Endpoint(EndpointSyntax),
}

impl GroupSyntax {
    /// The whole position.
    pub fn span(&self) -> Span {
        match self {
            Self::Every(span) | Self::EverySelector { span, .. } => *span,
            Self::Endpoint(endpoint) => endpoint.span(),
        }
    }
}

/// An invariant rule (see `invariant` in policies/LANGUAGE.md), one variant per group of forms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InvariantRule {
    /// `deny flow`, `deny reach`, and the auth and encryption forms.
    Pair {
        /// DenyFlow, DenyReach, DenyUnauthenticatedFlow or DenyUnencryptedFlow.
        kind: RuleKind,
        /// Source.
        from: EndpointSyntax,
        /// Target.
        to: EndpointSyntax,
    },
    /// `require flow A -> B via V` (and `deny path_without_via`).
    FlowVia {
        /// Source.
        from: EndpointSyntax,
        /// Target.
        to: EndpointSyntax,
        /// The via set.
        via: EndpointSyntax,
    },
    /// `deny dataflow D -> T` and `require dataflow D -> T via V` (and `deny data_path_without_via`).
    DataFlow {
        /// The data.
        data: Ident,
        /// Target.
        to: EndpointSyntax,
        /// The via set, for the via forms.
        via: Option<EndpointSyntax>,
    },
    /// `require operation OP [on D] in E` (and `deny operation … outside E`).
    Operation {
        /// The free-form operation name.
        operation: Ident,
        /// The data, for the `on D` forms.
        data: Option<Ident>,
        /// The required entity.
        entity: Ident,
    },
    /// `require dependency A -> B via interface I` (and `deny dependency … without interface I`).
    Dependency {
        /// Source.
        from: EndpointSyntax,
        /// Target.
        to: EndpointSyntax,
        /// The free-form interface name.
        interface: Ident,
    },
    /// `deny undeclared dependencies in G`: closes the selected components.
    Undeclared {
        /// The selected components.
        scope: GroupSyntax,
    },
    /// `deny unresolved imports in G`.
    Unresolved {
        /// The selected components.
        scope: GroupSyntax,
    },
    /// `deny cycle among G { "," G }`.
    CycleAmong {
        /// The groups, as written.
        groups: Vec<GroupSyntax>,
    },
    /// `deny cycle within G`: among the files of each selected component.
    CycleWithin {
        /// The selected components.
        scope: GroupSyntax,
    },
    /// `deny cycle among files [in G { "," G }]`: among the files of the selected components
    /// together (every file of the project without `in`).
    CycleFiles {
        /// The groups after `in`; empty for every file.
        scopes: Vec<GroupSyntax>,
    },
    /// `require contract K implemented_by C`.
    Contract {
        /// The contract.
        contract: Ident,
        /// The component.
        component: Ident,
    },
}

/// A machine state: a name or `*`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StateSyntax {
    /// A member name.
    Name(Ident),
    /// `*`
    Any(Span),
}

impl StateSyntax {
    /// The text, `*` for the wildcard.
    pub fn text(&self) -> &str {
        match self {
            Self::Name(name) => &name.text,
            Self::Any(_) => "*",
        }
    }

    /// Where it is.
    pub fn span(&self) -> Span {
        match self {
            Self::Name(name) => name.span,
            Self::Any(span) => *span,
        }
    }
}

/// `(allow|deny) transition S -> S`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransitionRule {
    /// True for `allow`.
    pub is_allow: bool,
    /// Source state.
    pub from: StateSyntax,
    /// Target state.
    pub to: StateSyntax,
}

/// `(allow|deny) (E.V | *) -> (* | op | op …) [when f]`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PermissionRule {
    /// True for `allow`.
    pub is_allow: bool,
    /// The role `E.V`, or `None` for `*`.
    pub role: Option<(Ident, Ident)>,
    /// The operations, or `None` for `*`.
    pub operations: Option<Vec<Ident>>,
    /// The `when` field.
    pub when: Option<Ident>,
}

/// A literal in a value expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LiteralSyntax {
    /// A number, as written.
    Number(Ident),
    /// A string.
    Str(StringLiteral),
    /// `true` or `false`.
    Bool(bool, Span),
    /// `null`.
    Null(Span),
    /// Any other word.
    Name(Ident),
}

impl LiteralSyntax {
    /// Where it is.
    pub fn span(&self) -> Span {
        match self {
            Self::Number(ident) | Self::Name(ident) => ident.span,
            Self::Str(string) => string.span,
            Self::Bool(_, span) | Self::Null(span) => *span,
        }
    }
}

/// `D.f.g rel literal`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueExprSyntax {
    /// The data name.
    pub data: Ident,
    /// The path segments after the data name.
    pub path: Vec<Ident>,
    /// The relation and its span.
    pub relation: (Relation, Span),
    /// The literal.
    pub literal: LiteralSyntax,
    /// The whole expression.
    pub span: Span,
}

/// `require EXPR [when EXPR]`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueRule {
    /// The requirement.
    pub require: ValueExprSyntax,
    /// The condition.
    pub when: Option<ValueExprSyntax>,
}

/// `require before OP EXPR` or `ensure after OP EXPR`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperationRule {
    /// Before or after.
    pub phase: OperationPhase,
    /// The operation name.
    pub operation: Ident,
    /// The condition.
    pub condition: ValueExprSyntax,
}

/// `require event E preceded_by P by S`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRule {
    /// The event.
    pub event: Ident,
    /// The required predecessor.
    pub preceded_by: Ident,
    /// The scope.
    pub scope: Ident,
}

/// A workflow reference: a component or `*` (`None`).
pub type WorkflowRef = Option<Ident>;

/// `when branch "g"`, `when tag "g"` or `when pull_request`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkflowWhen {
    /// `branch "glob"`
    Branch(StringLiteral),
    /// `tag "glob"`
    Tag(StringLiteral),
    /// `pull_request`
    PullRequest,
}

/// A workflow policy rule (see `workflow_policy` in policies/LANGUAGE.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkflowRule {
    /// `(allow|deny) (publish|deploy|release) W -> N [when …]`
    Action {
        /// True for `allow`.
        is_allow: bool,
        /// `publish`, `deploy` or `release`.
        action: Ident,
        /// The workflow.
        workflow: WorkflowRef,
        /// The target node.
        target: Ident,
        /// The condition.
        when: Option<WorkflowWhen>,
    },
    /// `(allow|deny) permission W perm: access [when …]`
    Permission {
        /// True for `allow`.
        is_allow: bool,
        /// The workflow.
        workflow: WorkflowRef,
        /// The permission name (a word or string value), `None` for `*`.
        permission: Option<Ident>,
        /// The access and its span.
        access: Ident,
        /// The condition.
        when: Option<WorkflowWhen>,
    },
    /// `require before W "a" -> "b"`
    StepOrder {
        /// The workflow.
        workflow: WorkflowRef,
        /// The earlier step text.
        before: StringLiteral,
        /// The later step text.
        after: StringLiteral,
    },
}

/// Parsed access word of a workflow permission; checked later.
pub fn parse_access(word: &str) -> Option<WorkflowAccess> {
    match word {
        "read" => Some(WorkflowAccess::Read),
        "write" => Some(WorkflowAccess::Write),
        "none" => Some(WorkflowAccess::None),
        _ => None,
    }
}

/// A DI policy rule (see `di_policy` in policies/LANGUAGE.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiRule {
    /// `deny inject A -> B` and `deny inject_reach A -> B`.
    Inject {
        /// True for `inject_reach`.
        is_reach: bool,
        /// The injecting component.
        from: Ident,
        /// The injected component.
        to: Ident,
    },
    /// `deny lifetime L -> L` and `deny lifetime_reach L -> L`.
    Lifetime {
        /// True for `lifetime_reach`.
        is_reach: bool,
        /// The capturing lifetime.
        from: Lifetime,
        /// The captured lifetime.
        to: Lifetime,
    },
    /// `deny resolve S from C`.
    Resolve {
        /// The service, `None` for `*`.
        service: Option<Ident>,
        /// The component.
        component: Ident,
    },
}

/// A data policy rule (see `data_policy` in policies/LANGUAGE.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DataPolicyRule {
    /// `deny classification C -> trust`
    Classification {
        /// The classification label.
        label: Ident,
        /// The trust level.
        trust: Ident,
    },
    /// `deny jurisdiction J -> entity`
    Jurisdiction {
        /// The jurisdiction label.
        label: Ident,
        /// The entity.
        entity: Ident,
    },
}

/// A trust policy rule (see `trust_policy` in policies/LANGUAGE.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrustRule {
    /// `require auth T1 -> T2`
    RequireAuth {
        /// Source trust level.
        from: Ident,
        /// Target trust level.
        to: Ident,
    },
    /// `deny flow T1 -> T2 when data C`
    DenyFlowWhenData {
        /// Source trust level.
        from: Ident,
        /// Target trust level.
        to: Ident,
        /// The classification.
        classification: Ident,
    },
}

/// `require touched R when touched T` (see `change_policy` in policies/LANGUAGE.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeRule {
    /// The component that must be touched.
    pub required: Ident,
    /// The trigger component.
    pub trigger: Ident,
}
