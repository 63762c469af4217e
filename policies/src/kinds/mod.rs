//! One module per policy declaration kind: each holds the kind's type-check
//! rules, documented under the headings *What it checks*, *Why*, *Passing example*, *Failing
//! example* and *SMT encoding*. The SMT encodings themselves live in [`crate::smt`].
//!
//! [`REGISTRY`] lists every kind explicitly; nothing is discovered by file scanning.

pub mod boundary;
pub mod change_policy;
pub mod contract;
pub mod data_policy;
pub mod di_policy;
pub mod event_policy;
pub mod invariant;
pub mod machine;
pub mod operation_policy;
pub mod permission;
pub mod trust_policy;
pub mod value_policy;
pub mod waiver;
pub mod workflow_policy;

use crate::model::{DeclarationKind, RuleKind};

/// One rule-holding declaration kind and the rule kinds it compiles to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindEntry {
    /// The declaration keyword.
    pub keyword: &'static str,
    /// The declaration kind.
    pub declaration_kind: DeclarationKind,
    /// The rule kinds its rules compile to.
    pub rule_kinds: &'static [RuleKind],
}

/// Every rule-holding declaration kind, in the order of policies/LANGUAGE.md.
pub const REGISTRY: [KindEntry; 12] = [
    KindEntry {
        keyword: "invariant",
        declaration_kind: DeclarationKind::Invariant,
        rule_kinds: &[
            RuleKind::DenyFlow,
            RuleKind::DenyReach,
            RuleKind::DenyDataFlow,
            RuleKind::RequireFlowVia,
            RuleKind::RequireDataFlowVia,
            RuleKind::DenyUnauthenticatedFlow,
            RuleKind::DenyUnencryptedFlow,
            RuleKind::RequireOperationIn,
            RuleKind::RequireOperationOnDataIn,
            RuleKind::RequireDependencyViaInterface,
            RuleKind::RequireContractImplementedBy,
            RuleKind::DenyCycle,
            RuleKind::DenyUnresolvedImport,
        ],
    },
    KindEntry {
        keyword: "machine",
        declaration_kind: DeclarationKind::Machine,
        rule_kinds: &[RuleKind::AllowTransition, RuleKind::DenyTransition],
    },
    KindEntry {
        keyword: "permission",
        declaration_kind: DeclarationKind::Permission,
        rule_kinds: &[RuleKind::AllowPermission, RuleKind::DenyPermission],
    },
    KindEntry {
        keyword: "value_policy",
        declaration_kind: DeclarationKind::ValuePolicy,
        rule_kinds: &[RuleKind::RequireValue],
    },
    KindEntry {
        keyword: "operation_policy",
        declaration_kind: DeclarationKind::OperationPolicy,
        rule_kinds: &[RuleKind::RequireBefore, RuleKind::EnsureAfter],
    },
    KindEntry {
        keyword: "event_policy",
        declaration_kind: DeclarationKind::EventPolicy,
        rule_kinds: &[RuleKind::RequirePrecededBy],
    },
    KindEntry {
        keyword: "workflow_policy",
        declaration_kind: DeclarationKind::WorkflowPolicy,
        rule_kinds: &[
            RuleKind::WorkflowAction,
            RuleKind::WorkflowPermission,
            RuleKind::WorkflowStepOrder,
        ],
    },
    KindEntry {
        keyword: "di_policy",
        declaration_kind: DeclarationKind::DiPolicy,
        rule_kinds: &[
            RuleKind::DenyInject,
            RuleKind::DenyInjectReach,
            RuleKind::DenyLifetime,
            RuleKind::DenyLifetimeReach,
            RuleKind::DenyResolve,
        ],
    },
    KindEntry {
        keyword: "data_policy",
        declaration_kind: DeclarationKind::DataPolicy,
        rule_kinds: &[RuleKind::DenyClassification, RuleKind::DenyJurisdiction],
    },
    KindEntry {
        keyword: "trust_policy",
        declaration_kind: DeclarationKind::TrustPolicy,
        rule_kinds: &[RuleKind::RequireAuth, RuleKind::DenyFlowWhenData],
    },
    KindEntry {
        keyword: "change_policy",
        declaration_kind: DeclarationKind::ChangePolicy,
        rule_kinds: &[RuleKind::RequireTouched],
    },
    KindEntry {
        keyword: "component",
        declaration_kind: DeclarationKind::Component,
        rule_kinds: &[RuleKind::DependsOn, RuleKind::PublicInterface],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_covers_every_rule_kind_once() {
        let mut covered: Vec<RuleKind> = REGISTRY
            .iter()
            .flat_map(|entry| entry.rule_kinds.iter().copied())
            .collect();
        covered.sort();
        let mut all = RuleKind::ALL.to_vec();
        all.sort();
        assert_eq!(covered, all);
    }
}
