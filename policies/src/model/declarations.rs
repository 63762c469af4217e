//! Checked declarations other than entities and rules: enums, data, machines, permissions,
//! contracts, repos, and the list of every rule-holding declaration.

use serde::{Deserialize, Serialize};

use super::{DeclarationKind, SourceLocation, TargetKind};

/// An enum (see `enum` and `data` in policies/LANGUAGE.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Enum {
    /// Declared name.
    pub name: String,
    /// Members, in order.
    pub values: Vec<String>,
    /// Where the name is declared.
    pub location: SourceLocation,
}

/// A checked type expression (see `enum` and `data` in policies/LANGUAGE.md). `T[]` is a `List`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TypeExpr {
    /// A primitive such as `Int`.
    Primitive {
        /// The primitive name.
        name: String,
    },
    /// A declared enum.
    Enum {
        /// The enum name.
        name: String,
    },
    /// A declared data type.
    Data {
        /// The data name.
        name: String,
    },
    /// `List<T>` or `T[]`.
    List {
        /// The element type.
        element: Box<TypeExpr>,
    },
    /// `Optional<T>`.
    Optional {
        /// The inner type.
        inner: Box<TypeExpr>,
    },
    /// `Map<K, V>`.
    Map {
        /// The key type.
        key: Box<TypeExpr>,
        /// The value type.
        value: Box<TypeExpr>,
    },
    /// `A | B`.
    Union {
        /// The alternatives.
        members: Vec<TypeExpr>,
    },
}

impl std::fmt::Display for TypeExpr {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Primitive { name } | Self::Enum { name } | Self::Data { name } => {
                formatter.write_str(name)
            }
            Self::List { element } => write!(formatter, "List<{element}>"),
            Self::Optional { inner } => write!(formatter, "Optional<{inner}>"),
            Self::Map { key, value } => write!(formatter, "Map<{key}, {value}>"),
            Self::Union { members } => {
                for (index, member) in members.iter().enumerate() {
                    if index > 0 {
                        formatter.write_str(" | ")?;
                    }
                    write!(formatter, "{member}")?;
                }
                Ok(())
            }
        }
    }
}

/// One field of a data declaration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataField {
    /// Field name.
    pub name: String,
    /// Its type.
    pub type_expr: TypeExpr,
    /// Where the field name is.
    pub location: SourceLocation,
}

/// A data declaration (see `enum` and `data` in policies/LANGUAGE.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Data {
    /// Declared name.
    pub name: String,
    /// Fields in order (labels excluded).
    pub fields: Vec<DataField>,
    /// The `classification` label.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub classification: Option<String>,
    /// The `jurisdiction` label.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub jurisdiction: Option<String>,
    /// Where the name is declared.
    pub location: SourceLocation,
}

impl Data {
    /// The field with this name.
    pub fn field(&self, name: &str) -> Option<&DataField> {
        self.fields.iter().find(|field| field.name == name)
    }
}

/// A machine (see `machine` in policies/LANGUAGE.md); its rules are in [`super::Model::rules`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Machine {
    /// Machine name.
    pub name: String,
    /// The governed data.
    pub data: String,
    /// The governed field.
    pub field: String,
    /// The enum of the field.
    pub enum_name: String,
    /// True when the machine has at least one allow rule (closed allow-list).
    pub is_closed: bool,
    /// Where the name is declared.
    pub location: SourceLocation,
}

/// A permission (see `permission` in policies/LANGUAGE.md); its rules are in [`super::Model::rules`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Permission {
    /// Permission name.
    pub name: String,
    /// The gated data or component.
    pub target: String,
    /// What the target is.
    pub target_kind: TargetKind,
    /// Where the name is declared.
    pub location: SourceLocation,
}

/// One contract endpoint (see `contract` in policies/LANGUAGE.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "protocol", rename_all = "snake_case")]
pub enum EndpointShape {
    /// `GET "/path" -> T`
    Http {
        /// Uppercase method.
        method: String,
        /// The path as written.
        path: String,
        /// The path normalised per (see `contract` in policies/LANGUAGE.md).
        normalized_path: String,
        /// The return type, verbatim.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        returns: Option<String>,
    },
    /// `query|mutation|subscription name(args) -> T`
    Graphql {
        /// `query`, `mutation` or `subscription`.
        operation: String,
        /// The name.
        name: String,
        /// Arguments: name and type text.
        arguments: Vec<EndpointArgument>,
        /// The return type, verbatim.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        returns: Option<String>,
    },
    /// `rpc Name(Request) -> Response`
    Rpc {
        /// Method name.
        name: String,
        /// Request type.
        request: String,
        /// Response type.
        response: String,
    },
    /// `publishes: "topic"` or `subscribes: "topic"`
    Message {
        /// `publishes` or `subscribes`.
        direction: String,
        /// The topic.
        topic: String,
    },
}

/// A GraphQL endpoint argument.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndpointArgument {
    /// Argument name.
    pub name: String,
    /// Its type, verbatim.
    pub type_text: String,
}

/// A contract endpoint with its location.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContractEndpoint {
    /// What it declares.
    pub shape: EndpointShape,
    /// Where it starts.
    pub location: SourceLocation,
}

/// A contract (see `contract` in policies/LANGUAGE.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contract {
    /// Contract name.
    pub name: String,
    /// Endpoints in order.
    pub endpoints: Vec<ContractEndpoint>,
    /// Where the name is declared.
    pub location: SourceLocation,
}

/// A repo alias (see Other declarations in policies/LANGUAGE.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Repo {
    /// Alias.
    pub name: String,
    /// URL.
    pub url: String,
    /// Branch, when given.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub branch: Option<String>,
    /// Where the name is declared.
    pub location: SourceLocation,
}

/// A rule-holding declaration (invariant or policy), even one without rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Declaration {
    /// Its kind.
    pub kind: DeclarationKind,
    /// Its name.
    pub name: String,
    /// Where the name is declared (allow-list findings cite this).
    pub location: SourceLocation,
}
