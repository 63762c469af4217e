//! Every diagnostic code ([`Code`]), and the located error that the lexer, parser,
//! loader and checker produce before it is rendered as a [`crate::Diagnostic`].
//!
//! [`Code`] is the one registry of codes: each has a stable kebab-case name and a severity.
//! Codes are public API; never rename or reuse one.

use crate::diagnostic::Severity;
use crate::span::Span;

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal, $severity:ident; )*) => {
        /// A stable diagnostic code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Code {
            $( $(#[$doc])* $variant, )*
        }

        impl Code {
            /// Every code, in catalogue order.
            pub const ALL: &'static [Code] = &[ $( Code::$variant, )* ];

            /// The kebab-case code, e.g. `unknown-entity`.
            pub fn as_str(self) -> &'static str {
                match self { $( Code::$variant => $name, )* }
            }

            /// Whether the code is an error or a warning.
            pub fn severity(self) -> Severity {
                match self { $( Code::$variant => Severity::$severity, )* }
            }
        }
    };
}

codes! {
    /// The file is not UTF-8.
    InvalidUtf8 = "invalid-utf8", Error;
    /// The file is larger than 4 MiB.
    FileTooLarge = "file-too-large", Error;
    /// More than 64 nested brackets.
    NestingTooDeep = "nesting-too-deep", Error;
    /// A character outside the token set.
    InvalidCharacter = "invalid-character", Error;
    /// A newline or end of file inside a string.
    UnterminatedString = "unterminated-string", Error;
    /// An unknown backslash escape.
    InvalidEscape = "invalid-escape", Error;
    /// `/*` without `*/`.
    UnterminatedComment = "unterminated-comment", Error;
    /// A signed run that is not a number.
    InvalidNumber = "invalid-number", Error;
    /// A grammar mismatch.
    UnexpectedToken = "unexpected-token", Error;
    /// The file ends inside a declaration.
    UnexpectedEof = "unexpected-eof", Error;
    /// A top-level word that is not a declaration keyword.
    UnknownDeclaration = "unknown-declaration", Error;
    /// A component without `runs_on` or `paths`.
    MissingRequiredKey = "missing-required-key", Error;
    /// A repeated scalar key or label.
    DuplicateKey = "duplicate-key", Error;
    /// An unknown key in a component.
    UnknownComponentKey = "unknown-component-key", Warning;
    /// A `service` or `test` declaration.
    UnsupportedDeclaration = "unsupported-declaration", Warning;
    /// An absolute import path or one that does not end in `.ag`.
    InvalidImportPath = "invalid-import-path", Error;
    /// An unreadable import.
    ImportNotFound = "import-not-found", Error;
    /// An import of a file on the import stack.
    ImportCycle = "import-cycle", Error;
    /// A node name declared twice.
    DuplicateNode = "duplicate-node", Error;
    /// A resource name declared twice.
    DuplicateResource = "duplicate-resource", Error;
    /// A component name declared twice.
    DuplicateComponent = "duplicate-component", Error;
    /// An enum name declared twice.
    DuplicateEnum = "duplicate-enum", Error;
    /// A data name declared twice.
    DuplicateData = "duplicate-data", Error;
    /// An invariant name declared twice.
    DuplicateInvariant = "duplicate-invariant", Error;
    /// A machine name declared twice.
    DuplicateMachine = "duplicate-machine", Error;
    /// A permission name declared twice.
    DuplicatePermission = "duplicate-permission", Error;
    /// A contract name declared twice.
    DuplicateContract = "duplicate-contract", Error;
    /// A repo name declared twice.
    DuplicateRepo = "duplicate-repo", Error;
    /// A value policy name declared twice.
    DuplicateValuePolicy = "duplicate-value-policy", Error;
    /// An operation policy name declared twice.
    DuplicateOperationPolicy = "duplicate-operation-policy", Error;
    /// An event policy name declared twice.
    DuplicateEventPolicy = "duplicate-event-policy", Error;
    /// A workflow policy name declared twice.
    DuplicateWorkflowPolicy = "duplicate-workflow-policy", Error;
    /// A DI policy name declared twice.
    DuplicateDiPolicy = "duplicate-di-policy", Error;
    /// A data policy name declared twice.
    DuplicateDataPolicy = "duplicate-data-policy", Error;
    /// A trust policy name declared twice.
    DuplicateTrustPolicy = "duplicate-trust-policy", Error;
    /// A change policy name declared twice.
    DuplicateChangePolicy = "duplicate-change-policy", Error;
    /// One model name declared by two kinds, or a primitive name.
    NameConflict = "name-conflict", Error;
    /// An entity named `role`, `layer` or `resource`.
    ReservedName = "reserved-name", Warning;
    /// An endpoint, target or placement that is not an entity.
    UnknownEntity = "unknown-entity", Error;
    /// A node was expected.
    UnknownNode = "unknown-node", Error;
    /// A component was expected.
    UnknownComponent = "unknown-component", Error;
    /// Data was expected.
    UnknownData = "unknown-data", Error;
    /// A contract was expected.
    UnknownContract = "unknown-contract", Error;
    /// A repo was expected.
    UnknownRepo = "unknown-repo", Error;
    /// `resource x` names neither a resource nor a resource type.
    UnknownResource = "unknown-resource", Error;
    /// A permission target that is neither data nor a component.
    UnknownTarget = "unknown-target", Error;
    /// An event scope that is neither data nor a component.
    UnknownScope = "unknown-scope", Error;
    /// A missing field.
    UnknownField = "unknown-field", Error;
    /// An undeclared field type.
    UnknownType = "unknown-type", Error;
    /// A permission role enum that is not an enum.
    NotAnEnum = "not-an-enum", Error;
    /// A node type outside the vocabulary.
    UnknownNodeType = "unknown-node-type", Error;
    /// A resource type outside the vocabulary.
    UnknownResourceType = "unknown-resource-type", Error;
    /// A role outside the vocabulary.
    UnknownRole = "unknown-role", Error;
    /// A trust value outside the vocabulary.
    InvalidTrust = "invalid-trust", Error;
    /// A connectivity value outside the vocabulary.
    InvalidConnectivity = "invalid-connectivity", Error;
    /// A protocol value outside the vocabulary.
    InvalidProtocol = "invalid-protocol", Error;
    /// An auth value outside the vocabulary.
    InvalidAuth = "invalid-auth", Error;
    /// Several values for a single-valued key.
    InvalidPropertyValue = "invalid-property-value", Error;
    /// One library in the `clients` of two entities.
    DuplicateClientBinding = "duplicate-client-binding", Error;
    /// A workflow access other than `read`, `write` or `none`.
    InvalidPermissionAccess = "invalid-permission-access", Error;
    /// Not a GitHub token permission.
    UnknownWorkflowPermission = "unknown-workflow-permission", Warning;
    /// An enum without values.
    EmptyEnum = "empty-enum", Error;
    /// A repeated enum member.
    DuplicateEnumValue = "duplicate-enum-value", Error;
    /// A repeated data field.
    DuplicateField = "duplicate-field", Error;
    /// A wrong number of type arguments.
    InvalidTypeExpr = "invalid-type-expr", Error;
    /// A machine field that is not an enum.
    NotAnEnumField = "not-an-enum-field", Error;
    /// A state, role value or literal that is not an enum member.
    EnumValueUnknown = "enum-value-unknown", Error;
    /// A path segment after a non-data type.
    FieldOnNonData = "field-on-non-data", Error;
    /// `length` after a non-list.
    LengthOnNonList = "length-on-non-list", Error;
    /// An ordering relation on a non-numeric path.
    OrderingOnNonNumeric = "ordering-on-non-numeric", Error;
    /// A literal that does not fit the path type.
    ValueTypeMismatch = "value-type-mismatch", Warning;
    /// A selector that selects nothing.
    SelectorMatchesNothing = "selector-matches-nothing", Error;
    /// A rule that relates something to itself.
    SelfReferentialRule = "self-referential-rule", Warning;
    /// A via set containing an endpoint of its rule.
    ViaIsEndpoint = "via-is-endpoint", Warning;
    /// `require contract K implemented_by C` without `implements: K`.
    ContractNotImplemented = "contract-not-implemented", Error;
    /// A second machine on the same field.
    DuplicateMachineTarget = "duplicate-machine-target", Error;
    /// A transition `X -> X`.
    SelfTransitionRule = "self-transition-rule", Warning;
    /// A transition both allowed and denied.
    ConflictingTransitionRules = "conflicting-transition-rules", Warning;
    /// An event preceded by itself.
    SelfPrecedence = "self-precedence", Warning;
    /// A classification that no data uses.
    UnknownClassification = "unknown-classification", Error;
    /// A jurisdiction that no data uses.
    UnknownJurisdiction = "unknown-jurisdiction", Error;
    /// A trust level that no entity has.
    TrustLevelUnused = "trust-level-unused", Warning;
    /// A deny rule for access `none`.
    RuleNeverFires = "rule-never-fires", Warning;
    /// A bad, absolute or escaping glob.
    InvalidGlob = "invalid-glob", Error;
    /// Two components whose globs may own the same files equally.
    AmbiguousPaths = "ambiguous-paths", Warning;
    /// An HTTP path without a leading `/`.
    InvalidRoute = "invalid-route", Warning;
    /// The same method and normalised path twice in a contract.
    DuplicateEndpoint = "duplicate-endpoint", Warning;
    /// An empty plugin string.
    InvalidPluginName = "invalid-plugin-name", Error;
    /// An empty repo URL.
    InvalidRepoUrl = "invalid-repo-url", Error;
    /// A `{` still open when the next declaration starts.
    UnclosedBrace = "unclosed-brace", Error;
    /// A waiver target that is neither a finding id nor a declared invariant, policy or contract.
    UnknownWaiverTarget = "unknown-waiver-target", Error;
    /// A waiver rule that the declaration does not have, or a rule on a finding waiver.
    UnknownWaiverRule = "unknown-waiver-rule", Error;
    /// A waiver date that is not a calendar day written `YYYY-MM-DD`.
    InvalidWaiverDate = "invalid-waiver-date", Error;
    /// A waiver with an empty owner or reason.
    EmptyWaiverField = "empty-waiver-field", Error;
    /// A component in two groups of one `deny cycle among` rule.
    CycleGroupOverlap = "cycle-group-overlap", Error;
    /// More diagnostics than a run reports: the first are reported, this one counts the rest.
    TooManyDiagnostics = "too-many-diagnostics", Warning;
}

/// A located spec error or warning, before its file id is resolved to a path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SpecError {
    /// The stable code.
    pub code: Code,
    /// One line, lowercase start, names in backticks.
    pub message: String,
    /// Where it is.
    pub span: Span,
    /// How to fix it.
    pub help: Option<String>,
    /// Related locations, such as "first declared here".
    pub related: Vec<(Span, String)>,
}

impl SpecError {
    /// A new error or warning (the severity follows from the code).
    pub fn new(code: Code, span: Span, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            span,
            help: None,
            related: Vec::new(),
        }
    }

    /// Adds a help line.
    #[must_use]
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Adds an optional "did you mean" help.
    #[must_use]
    pub fn with_suggestion(mut self, suggestion: Option<&str>) -> Self {
        if let Some(name) = suggestion {
            self.help = Some(format!("did you mean `{name}`?"));
        }
        self
    }

    /// Adds a related location.
    #[must_use]
    pub fn with_related(mut self, span: Span, message: impl Into<String>) -> Self {
        self.related.push((span, message.into()));
        self
    }
}

#[cfg(test)]
mod tests;
