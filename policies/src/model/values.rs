//! Typed value expressions of value and operation policies (see `value_policy` and
//! `operation_policy` in policies/LANGUAGE.md),
//! and the small enumerations that rule bodies use.

use serde::{Deserialize, Serialize};

/// A relation of a value expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Relation {
    /// `==`
    #[serde(rename = "==")]
    Eq,
    /// `!=`
    #[serde(rename = "!=")]
    Ne,
    /// `>=`
    #[serde(rename = ">=")]
    Ge,
    /// `<=`
    #[serde(rename = "<=")]
    Le,
    /// `>`
    #[serde(rename = ">")]
    Gt,
    /// `<`
    #[serde(rename = "<")]
    Lt,
}

impl Relation {
    /// The operator as written.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Eq => "==",
            Self::Ne => "!=",
            Self::Ge => ">=",
            Self::Le => "<=",
            Self::Gt => ">",
            Self::Lt => "<",
        }
    }

    /// True for `<`, `<=`, `>`, `>=`.
    pub fn is_ordering(self) -> bool {
        matches!(self, Self::Ge | Self::Le | Self::Gt | Self::Lt)
    }
}

/// A literal, normalised: an enum member written as a name or string is a `String`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Literal {
    /// An exact decimal, as written (`-5`, `1.25`).
    Number(String),
    /// A string, or a bare name (the member name).
    String(String),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
}

/// The broad domain of a value path, for comparisons and the SMT encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueDomain {
    /// `Int`, `Float`, `Money`, or a list `length`.
    Numeric,
    /// `Bool`.
    Bool,
    /// `String`, `UUID`, `Timestamp`, `DateTime`, `Bytes`.
    Text,
    /// An enum.
    Enum,
    /// `Json`: any value.
    Json,
    /// A data type.
    Data,
    /// A `List`.
    List,
    /// A `Map`.
    Map,
    /// A union of types.
    Union,
}

/// The resolved type of a value path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathType {
    /// The type as text, with `Optional` unwrapped: `Int`, `OrderStatus`, `List<Line>`.
    pub type_name: String,
    /// Its domain.
    pub domain: ValueDomain,
    /// True when the path passes through or ends in an `Optional`.
    pub optional: bool,
}

/// `Data.path rel literal`, checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValueExpr {
    /// The data (subject).
    pub data: String,
    /// The path after the data name, e.g. `["items", "length"]`.
    pub path: Vec<String>,
    /// The relation.
    pub relation: Relation,
    /// The literal.
    pub literal: Literal,
    /// The type of the path.
    pub path_type: PathType,
}

/// A DI lifetime (see `di_policy` in policies/LANGUAGE.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lifetime {
    /// `singleton`
    Singleton,
    /// `scoped`
    Scoped,
    /// `transient`
    Transient,
}

impl Lifetime {
    /// Parses a lifetime word.
    pub fn parse(word: &str) -> Option<Self> {
        match word {
            "singleton" => Some(Self::Singleton),
            "scoped" => Some(Self::Scoped),
            "transient" => Some(Self::Transient),
            _ => None,
        }
    }
}

/// Before or after an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OperationPhase {
    /// `require before`
    Before,
    /// `ensure after`
    After,
}

/// Allow or deny.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// `allow`
    Allow,
    /// `deny`
    Deny,
}

/// A workflow token access level; ordered `none < read < write`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkflowAccess {
    /// `none`
    None,
    /// `read`
    Read,
    /// `write`
    Write,
}

/// A workflow action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkflowActionKind {
    /// `publish`
    Publish,
    /// `deploy`
    Deploy,
    /// `release`
    Release,
}

impl WorkflowActionKind {
    /// Parses an action word.
    pub fn parse(word: &str) -> Option<Self> {
        match word {
            "publish" => Some(Self::Publish),
            "deploy" => Some(Self::Deploy),
            "release" => Some(Self::Release),
            _ => None,
        }
    }
}

/// The `when` condition of a workflow rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "on", rename_all = "snake_case")]
pub enum WorkflowCondition {
    /// `when branch "glob"`
    Branch {
        /// The glob.
        pattern: String,
    },
    /// `when tag "glob"`
    Tag {
        /// The glob.
        pattern: String,
    },
    /// `when pull_request`
    PullRequest,
}

/// What an event scope or permission target is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetKind {
    /// A data declaration.
    Data,
    /// A component.
    Component,
}
