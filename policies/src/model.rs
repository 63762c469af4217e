//! The checked model: what a valid spec compiles to.
//!
//! Selectors are expanded here: every [`Rule`] is concrete, names declared entities only,
//! and records its declaration, its text as written and its source location.
//! The engine evaluates this model; it never sees syntax trees.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

mod declarations;
mod values;
mod waiver;

pub use declarations::{
    Contract, ContractEndpoint, Data, DataField, Declaration, EndpointArgument, EndpointShape,
    Enum, Machine, Permission, Repo, TypeExpr,
};
pub use values::{
    Effect, Lifetime, Literal, OperationPhase, PathType, Relation, TargetKind, ValueDomain,
    ValueExpr, WorkflowAccess, WorkflowActionKind, WorkflowCondition,
};
pub use waiver::{is_calendar_date, Waiver, WaiverTarget};

/// A location in a spec file: project-relative path (`..` segments allowed), 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SourceLocation {
    /// Project-relative path with `/` separators.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column in Unicode scalar values.
    pub column: u32,
}

impl std::fmt::Display for SourceLocation {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// A trust level (the closed vocabulary of [`crate::vocab`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trust {
    /// `trusted`
    Trusted,
    /// `untrusted`
    Untrusted,
    /// `semi_trusted`
    SemiTrusted,
}

impl Trust {
    /// Parses a trust word.
    pub fn parse(word: &str) -> Option<Self> {
        match word {
            "trusted" => Some(Self::Trusted),
            "untrusted" => Some(Self::Untrusted),
            "semi_trusted" => Some(Self::SemiTrusted),
            _ => None,
        }
    }

    /// The trust word.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Trusted => "trusted",
            Self::Untrusted => "untrusted",
            Self::SemiTrusted => "semi_trusted",
        }
    }
}

/// A node or a resource: a runtime, infrastructure or capability entity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InfraEntity {
    /// Declared name.
    pub name: String,
    /// The node or resource type, e.g. `postgres`.
    pub type_name: String,
    /// The free-form parameter of `k8s_pod(prod)`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub type_parameter: Option<String>,
    /// `trust`, when given.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub trust: Option<Trust>,
    /// `auth` values.
    #[serde(default)]
    pub auth: Vec<String>,
    /// `protocol` values.
    #[serde(default)]
    pub protocol: Vec<String>,
    /// `connectivity`, when given.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub connectivity: Option<String>,
    /// `clients` (see `node` and `resource` in policies/LANGUAGE.md bindings): libraries whose use is access to this entity (`sequelize`,
    /// `org.hibernate`), in the order written.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub clients: Vec<String>,
    /// `urls` (see `node` and `resource` in policies/LANGUAGE.md bindings): URL globs (`https://alertmanager:9093/**`) and configuration names
    /// (`ALERTMANAGER_URL`, `Payments:BaseUrl`: no `/`), in the order written.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub urls: Vec<String>,
    /// Every other key: free-form metadata.
    #[serde(default)]
    pub properties: BTreeMap<String, Vec<String>>,
    /// Where the name is declared.
    pub location: SourceLocation,
}

impl InfraEntity {
    /// Whether `clients` or `urls` bind code to this entity: a binding is exclusive (see Edges under `invariant` in policies/LANGUAGE.md).
    pub fn is_bound(&self) -> bool {
        !self.clients.is_empty() || !self.urls.is_empty()
    }

    /// True when some `auth` value is not `none` (see `node` and `resource` in policies/LANGUAGE.md).
    pub fn has_auth(&self) -> bool {
        self.auth.iter().any(|value| value != "none")
    }
}

/// A component: a named set of source files (see `component` in policies/LANGUAGE.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Component {
    /// Declared name.
    pub name: String,
    /// The node it runs on.
    pub runs_on: String,
    /// Its globs, with a leading `./` removed. A glob that starts with `!` removes the files it
    /// matches (see `component` in policies/LANGUAGE.md), kept as `!` and the glob, its own `./` removed too.
    pub paths: Vec<String>,
    /// `role`, when given.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub role: Option<String>,
    /// `layer`, when given.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub layer: Option<String>,
    /// `repo`, when given.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub repo: Option<String>,
    /// Contracts it implements.
    #[serde(default)]
    pub implements: Vec<String>,
    /// Contracts it consumes.
    #[serde(default)]
    pub consumes: Vec<String>,
    /// Data it handles.
    #[serde(default)]
    pub handles: Vec<String>,
    /// `depends_on`, when given: the entities it may depend on (it is then closed).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub depends_on: Option<Vec<String>>,
    /// `public`: the globs of its public files, a leading `./` removed; empty when every file
    /// is public.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub public: Vec<String>,
    /// Where the name is declared.
    pub location: SourceLocation,
}

impl Component {
    /// The globs that add files: those that do not start with `!`.
    pub fn positive_paths(&self) -> impl Iterator<Item = &str> {
        self.paths
            .iter()
            .filter(|glob| !glob.starts_with('!'))
            .map(String::as_str)
    }

    /// The globs that remove files from the positive ones (`!` globs), without their `!`.
    pub fn negated_paths(&self) -> impl Iterator<Item = &str> {
        self.paths.iter().filter_map(|glob| glob.strip_prefix('!'))
    }
}

/// Every rule kind the rule forms compile to (see `invariant` in policies/LANGUAGE.md), with its stable kebab-case code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum RuleKind {
    /// `deny flow A -> B`
    DenyFlow,
    /// `deny reach A -> B`
    DenyReach,
    /// `deny dataflow D -> T`
    DenyDataFlow,
    /// `require flow A -> B via V`
    RequireFlowVia,
    /// `require dataflow D -> T via V`
    RequireDataFlowVia,
    /// `require auth on flow A -> B`
    DenyUnauthenticatedFlow,
    /// `require encryption on flow A -> B`
    DenyUnencryptedFlow,
    /// `require operation OP in E`
    RequireOperationIn,
    /// `require operation OP on D in E`
    RequireOperationOnDataIn,
    /// `require dependency A -> B via interface I`
    RequireDependencyViaInterface,
    /// `require contract K implemented_by C` (compile time only)
    RequireContractImplementedBy,
    /// machine `allow transition`
    AllowTransition,
    /// machine `deny transition`
    DenyTransition,
    /// permission `allow`
    AllowPermission,
    /// permission `deny`
    DenyPermission,
    /// value_policy `require`
    RequireValue,
    /// operation_policy `require before`
    RequireBefore,
    /// operation_policy `ensure after`
    EnsureAfter,
    /// event_policy `require event … preceded_by … by …`
    RequirePrecededBy,
    /// workflow_policy publish/deploy/release
    WorkflowAction,
    /// workflow_policy permission
    WorkflowPermission,
    /// workflow_policy `require before`
    WorkflowStepOrder,
    /// di_policy `deny inject`
    DenyInject,
    /// di_policy `deny inject_reach`
    DenyInjectReach,
    /// di_policy `deny lifetime`
    DenyLifetime,
    /// di_policy `deny lifetime_reach`
    DenyLifetimeReach,
    /// di_policy `deny resolve`
    DenyResolve,
    /// data_policy `deny classification`
    DenyClassification,
    /// data_policy `deny jurisdiction`
    DenyJurisdiction,
    /// trust_policy `require auth`
    RequireAuth,
    /// trust_policy `deny flow … when data`
    DenyFlowWhenData,
    /// change_policy `require touched`
    RequireTouched,
    /// component `depends_on`, invariant `deny undeclared dependencies in …`
    DependsOn,
    /// component `public`
    PublicInterface,
    /// invariant `deny cycle among …` / `deny cycle within …`
    DenyCycle,
    /// invariant `deny unresolved imports in …`
    DenyUnresolvedImport,
}

impl RuleKind {
    /// Every rule kind, in the order of the verdict's `rule_coverage` (see docs/VERDICT.md).
    pub const ALL: [RuleKind; 36] = [
        Self::DenyFlow,
        Self::DenyReach,
        Self::DenyDataFlow,
        Self::RequireFlowVia,
        Self::RequireDataFlowVia,
        Self::DenyUnauthenticatedFlow,
        Self::DenyUnencryptedFlow,
        Self::RequireOperationIn,
        Self::RequireOperationOnDataIn,
        Self::RequireDependencyViaInterface,
        Self::RequireContractImplementedBy,
        Self::AllowTransition,
        Self::DenyTransition,
        Self::AllowPermission,
        Self::DenyPermission,
        Self::RequireValue,
        Self::RequireBefore,
        Self::EnsureAfter,
        Self::RequirePrecededBy,
        Self::WorkflowAction,
        Self::WorkflowPermission,
        Self::WorkflowStepOrder,
        Self::DenyInject,
        Self::DenyInjectReach,
        Self::DenyLifetime,
        Self::DenyLifetimeReach,
        Self::DenyResolve,
        Self::DenyClassification,
        Self::DenyJurisdiction,
        Self::RequireAuth,
        Self::DenyFlowWhenData,
        Self::RequireTouched,
        Self::DependsOn,
        Self::PublicInterface,
        Self::DenyCycle,
        Self::DenyUnresolvedImport,
    ];

    /// The name used in `rule.kind` of the verdict, e.g. `DenyFlow`.
    pub fn name(self) -> &'static str {
        match self {
            Self::DenyFlow => "DenyFlow",
            Self::DenyReach => "DenyReach",
            Self::DenyDataFlow => "DenyDataFlow",
            Self::RequireFlowVia => "RequireFlowVia",
            Self::RequireDataFlowVia => "RequireDataFlowVia",
            Self::DenyUnauthenticatedFlow => "DenyUnauthenticatedFlow",
            Self::DenyUnencryptedFlow => "DenyUnencryptedFlow",
            Self::RequireOperationIn => "RequireOperationIn",
            Self::RequireOperationOnDataIn => "RequireOperationOnDataIn",
            Self::RequireDependencyViaInterface => "RequireDependencyViaInterface",
            Self::RequireContractImplementedBy => "RequireContractImplementedBy",
            Self::AllowTransition => "AllowTransition",
            Self::DenyTransition => "DenyTransition",
            Self::AllowPermission => "AllowPermission",
            Self::DenyPermission => "DenyPermission",
            Self::RequireValue => "RequireValue",
            Self::RequireBefore => "RequireBefore",
            Self::EnsureAfter => "EnsureAfter",
            Self::RequirePrecededBy => "RequirePrecededBy",
            Self::WorkflowAction => "WorkflowAction",
            Self::WorkflowPermission => "WorkflowPermission",
            Self::WorkflowStepOrder => "WorkflowStepOrder",
            Self::DenyInject => "DenyInject",
            Self::DenyInjectReach => "DenyInjectReach",
            Self::DenyLifetime => "DenyLifetime",
            Self::DenyLifetimeReach => "DenyLifetimeReach",
            Self::DenyResolve => "DenyResolve",
            Self::DenyClassification => "DenyClassification",
            Self::DenyJurisdiction => "DenyJurisdiction",
            Self::RequireAuth => "RequireAuth",
            Self::DenyFlowWhenData => "DenyFlowWhenData",
            Self::RequireTouched => "RequireTouched",
            Self::DependsOn => "DependsOn",
            Self::PublicInterface => "PublicInterface",
            Self::DenyCycle => "DenyCycle",
            Self::DenyUnresolvedImport => "DenyUnresolvedImport",
        }
    }

    /// The stable kebab-case code, e.g. `deny-flow`.
    pub fn code(self) -> &'static str {
        match self {
            Self::DenyFlow => "deny-flow",
            Self::DenyReach => "deny-reach",
            Self::DenyDataFlow => "deny-dataflow",
            Self::RequireFlowVia => "require-flow-via",
            Self::RequireDataFlowVia => "require-dataflow-via",
            Self::DenyUnauthenticatedFlow => "deny-unauthenticated-flow",
            Self::DenyUnencryptedFlow => "deny-unencrypted-flow",
            Self::RequireOperationIn => "require-operation-in",
            Self::RequireOperationOnDataIn => "require-operation-on-data-in",
            Self::RequireDependencyViaInterface => "require-dependency-via-interface",
            Self::RequireContractImplementedBy => "require-contract-implemented-by",
            Self::AllowTransition => "allow-transition",
            Self::DenyTransition => "deny-transition",
            Self::AllowPermission => "allow-permission",
            Self::DenyPermission => "deny-permission",
            Self::RequireValue => "require-value",
            Self::RequireBefore => "require-before",
            Self::EnsureAfter => "ensure-after",
            Self::RequirePrecededBy => "require-preceded-by",
            Self::WorkflowAction => "workflow-action",
            Self::WorkflowPermission => "workflow-permission",
            Self::WorkflowStepOrder => "workflow-step-order",
            Self::DenyInject => "deny-inject",
            Self::DenyInjectReach => "deny-inject-reach",
            Self::DenyLifetime => "deny-lifetime",
            Self::DenyLifetimeReach => "deny-lifetime-reach",
            Self::DenyResolve => "deny-resolve",
            Self::DenyClassification => "deny-classification",
            Self::DenyJurisdiction => "deny-jurisdiction",
            Self::RequireAuth => "require-auth",
            Self::DenyFlowWhenData => "deny-flow-when-data",
            Self::RequireTouched => "require-touched",
            Self::DependsOn => "depends-on",
            Self::PublicInterface => "public-interface",
            Self::DenyCycle => "deny-cycle",
            Self::DenyUnresolvedImport => "deny-unresolved-import",
        }
    }
}

/// The declaration kinds that hold rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeclarationKind {
    /// `invariant`
    Invariant,
    /// `machine`
    Machine,
    /// `permission`
    Permission,
    /// `value_policy`
    ValuePolicy,
    /// `operation_policy`
    OperationPolicy,
    /// `event_policy`
    EventPolicy,
    /// `workflow_policy`
    WorkflowPolicy,
    /// `di_policy`
    DiPolicy,
    /// `data_policy`
    DataPolicy,
    /// `trust_policy`
    TrustPolicy,
    /// `change_policy`
    ChangePolicy,
    /// `component` (its `depends_on` and `public` keys)
    Component,
}

/// The kind-specific fields of a concrete rule. Endpoint names are declared entity names
/// (selectors are already expanded). Kinds the engine does not evaluate yet carry [`RuleBody::Other`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "snake_case")]
pub enum RuleBody {
    /// DenyFlow, DenyReach, DenyUnauthenticatedFlow, DenyUnencryptedFlow, DenyInject, DenyInjectReach.
    Pair {
        /// Source entity.
        from: String,
        /// Target entity.
        to: String,
    },
    /// RequireFlowVia: every path from `from` to `to` passes a member of `via`.
    PairVia {
        /// Source entity.
        from: String,
        /// Target entity.
        to: String,
        /// The via set (any member satisfies the rule).
        via: Vec<String>,
    },
    /// DenyDataFlow (`via` empty) and RequireDataFlowVia.
    DataTo {
        /// The data name.
        data: String,
        /// Target entity.
        to: String,
        /// The via set (empty for DenyDataFlow).
        via: Vec<String>,
    },
    /// RequireOperationIn (`data` absent) and RequireOperationOnDataIn.
    OperationIn {
        /// The free-form operation name.
        operation: String,
        /// The data, for the `on D` form.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        data: Option<String>,
        /// The entity where the operation must happen.
        entity: String,
    },
    /// RequireDependencyViaInterface.
    Dependency {
        /// Source entity.
        from: String,
        /// Target entity.
        to: String,
        /// The required interface.
        interface: String,
    },
    /// RequireContractImplementedBy (compile time only).
    ContractImplementedBy {
        /// The contract.
        contract: String,
        /// The component that implements it.
        component: String,
    },
    /// AllowTransition and DenyTransition; `*` is the wildcard state.
    Transition {
        /// The machine.
        machine: String,
        /// The governed data.
        data: String,
        /// The governed field.
        field: String,
        /// Source state or `*`.
        from: String,
        /// Target state or `*`.
        to: String,
    },
    /// AllowPermission and DenyPermission.
    Permission {
        /// The gated data or component.
        target: String,
        /// What the target is.
        target_kind: TargetKind,
        /// The role enum, absent for the `*` subject.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        role_enum: Option<String>,
        /// The role member, absent for the `*` subject.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        role: Option<String>,
        /// The operations; `["*"]` means every operation.
        operations: Vec<String>,
        /// The `when` field (recorded only).
        #[serde(skip_serializing_if = "Option::is_none", default)]
        when_field: Option<String>,
    },
    /// RequireValue.
    Value {
        /// The requirement.
        require: ValueExpr,
        /// The `when` condition.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        when: Option<ValueExpr>,
    },
    /// RequireBefore and EnsureAfter.
    OperationCondition {
        /// The operation.
        operation: String,
        /// Before or after.
        phase: OperationPhase,
        /// The condition.
        condition: ValueExpr,
    },
    /// RequirePrecededBy.
    EventOrder {
        /// The event.
        event: String,
        /// The event that must precede it.
        preceded_by: String,
        /// The scope.
        scope: String,
        /// What the scope is.
        scope_kind: TargetKind,
    },
    /// WorkflowAction.
    WorkflowAction {
        /// Allow or deny.
        effect: Effect,
        /// The action.
        action: WorkflowActionKind,
        /// The workflow's component, or `*`.
        workflow: String,
        /// The target node.
        target: String,
        /// The condition.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        condition: Option<WorkflowCondition>,
    },
    /// WorkflowPermission.
    WorkflowPermission {
        /// Allow or deny.
        effect: Effect,
        /// The workflow's component, or `*`.
        workflow: String,
        /// The permission with `_` written as `-` (`id-token`), or `*`.
        permission: String,
        /// The access.
        access: WorkflowAccess,
        /// The condition.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        condition: Option<WorkflowCondition>,
    },
    /// WorkflowStepOrder.
    WorkflowStepOrder {
        /// The workflow's component, or `*`.
        workflow: String,
        /// Text of the step that must come first.
        before: String,
        /// Text of the step that must come later.
        after: String,
    },
    /// DenyLifetime and DenyLifetimeReach.
    Lifetime {
        /// The capturing lifetime.
        from: Lifetime,
        /// The captured lifetime.
        to: Lifetime,
    },
    /// DenyResolve.
    Resolve {
        /// The service, or `*`.
        service: String,
        /// The component.
        component: String,
    },
    /// DenyClassification.
    Classification {
        /// The classification label.
        classification: String,
        /// The forbidden trust level.
        trust: Trust,
    },
    /// DenyJurisdiction.
    Jurisdiction {
        /// The jurisdiction label.
        jurisdiction: String,
        /// The forbidden entity.
        entity: String,
    },
    /// RequireAuth.
    TrustBoundary {
        /// Source trust level.
        from: Trust,
        /// Target trust level.
        to: Trust,
    },
    /// DenyFlowWhenData.
    TrustDataFlow {
        /// Source trust level.
        from: Trust,
        /// Target trust level.
        to: Trust,
        /// The classification.
        classification: String,
    },
    /// RequireTouched.
    Touched {
        /// The component that must be touched too.
        required: String,
        /// The trigger component.
        trigger: String,
    },
    /// DependsOn: the component may depend only on the `allowed` entities.
    Closed {
        /// The closed component.
        component: String,
        /// Its `depends_on` list (empty: it may depend on nothing).
        allowed: Vec<String>,
    },
    /// PublicInterface: code outside the component may use only its files that match `globs`.
    Public {
        /// The component.
        component: String,
        /// Its `public` globs.
        globs: Vec<String>,
    },
    /// DenyCycle among groups of components (`deny cycle among …`).
    Cycle {
        /// The groups, in the order written; each is one vertex of the cycle search.
        groups: Vec<CycleGroup>,
    },
    /// DenyCycle among the files of one component (`deny cycle within …`).
    CycleWithin {
        /// The component.
        component: String,
    },
    /// DenyCycle among the files of several components together (`deny cycle among files in
    /// …`), or of the whole project (`deny cycle among files`).
    CycleFiles {
        /// The components whose files are searched, sorted; `None` for every file.
        components: Option<Vec<String>>,
    },
    /// DenyUnresolvedImport in one component.
    Unresolved {
        /// The component.
        component: String,
    },
    /// Anything else: the fields as name/value pairs, in source order.
    Other {
        /// Field names and values, e.g. `operation` → `submit`.
        fields: BTreeMap<String, String>,
    },
}

/// One vertex of a `deny cycle among …` rule: a component, or the components of a layer or role.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CycleGroup {
    /// The group's name: the component's, or `layer L` / `role r`.
    pub name: String,
    /// Its components, in declaration order.
    pub components: Vec<String>,
}

/// One concrete rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rule {
    /// The rule kind.
    pub kind: RuleKind,
    /// The kind of declaration that holds it.
    pub declaration_kind: DeclarationKind,
    /// The invariant or policy name.
    pub declaration: String,
    /// The rule as written (selectors unexpanded), tokens joined by single spaces, e.g. `deny flow Api -> db`;
    /// `.` joins its neighbours directly (`allow Role.Admin -> delete`) and `:` attaches to the token before it.
    pub text: String,
    /// Where the rule starts in the spec.
    pub source: SourceLocation,
    /// Kind-specific fields.
    pub body: RuleBody,
}

/// A valid, checked specification.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Model {
    /// Every loaded spec file, project-relative, in merged (DFS) order; the first is the root file.
    pub files: Vec<String>,
    /// Nodes in merged declaration order.
    pub nodes: Vec<InfraEntity>,
    /// Resources in merged declaration order.
    pub resources: Vec<InfraEntity>,
    /// Components in merged declaration order.
    pub components: Vec<Component>,
    /// Concrete rules, in merged declaration order.
    pub rules: Vec<Rule>,
    /// Declared plugin names, de-duplicated, in order.
    pub plugins: Vec<String>,
    /// Enums in merged declaration order.
    #[serde(default)]
    pub enums: Vec<Enum>,
    /// Data declarations in merged declaration order.
    #[serde(default)]
    pub data: Vec<Data>,
    /// Machines in merged declaration order.
    #[serde(default)]
    pub machines: Vec<Machine>,
    /// Permissions in merged declaration order.
    #[serde(default)]
    pub permissions: Vec<Permission>,
    /// Contracts in merged declaration order.
    #[serde(default)]
    pub contracts: Vec<Contract>,
    /// Repo aliases in merged declaration order.
    #[serde(default)]
    pub repos: Vec<Repo>,
    /// The globs of every `exclude` declaration (see `exclude` in policies/LANGUAGE.md), merged in declaration
    /// order across the imported files, a leading `./` removed: the files they match are not
    /// part of the checked project.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excludes: Vec<String>,
    /// Every invariant and policy, in merged declaration order.
    #[serde(default)]
    pub declarations: Vec<Declaration>,
    /// Every `waive` declaration, in merged declaration order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waivers: Vec<Waiver>,
}

impl Model {
    /// True when the spec leaves files out: an `exclude` declaration or a component's `!` glob
    /// (see `component` and `exclude` in policies/LANGUAGE.md; the verdict then has `stats.files_excluded`).
    pub fn has_exclusions(&self) -> bool {
        !self.excludes.is_empty()
            || self
                .components
                .iter()
                .any(|component| component.negated_paths().next().is_some())
    }

    /// The component with this name.
    pub fn component(&self, name: &str) -> Option<&Component> {
        self.components
            .iter()
            .find(|component| component.name == name)
    }

    /// The node with this name.
    pub fn node(&self, name: &str) -> Option<&InfraEntity> {
        self.nodes.iter().find(|node| node.name == name)
    }

    /// The resource with this name.
    pub fn resource(&self, name: &str) -> Option<&InfraEntity> {
        self.resources.iter().find(|resource| resource.name == name)
    }

    /// The data declaration with this name.
    pub fn data_named(&self, name: &str) -> Option<&Data> {
        self.data.iter().find(|data| data.name == name)
    }

    /// The enum with this name.
    pub fn enum_named(&self, name: &str) -> Option<&Enum> {
        self.enums.iter().find(|declared| declared.name == name)
    }

    /// The contract with this name.
    pub fn contract(&self, name: &str) -> Option<&Contract> {
        self.contracts.iter().find(|contract| contract.name == name)
    }

    /// True when `name` is a declared node, resource or component.
    pub fn is_entity(&self, name: &str) -> bool {
        self.component(name).is_some() || self.node(name).is_some() || self.resource(name).is_some()
    }
}
