//! The rule side of an entry: its `rule` fields, where it is written, and its `fix_class`.

use std::collections::BTreeMap;

use policies::model::{Rule, RuleBody, RuleKind};

use crate::families::Citation;
use crate::verdict::{RuleRef, SourceRef};

/// The `fix_class` of a rule kind (see `policies::model::RuleKind::ALL`).
pub(crate) fn fix_class(kind: RuleKind) -> &'static str {
    match kind {
        RuleKind::DenyFlow | RuleKind::DenyReach | RuleKind::RequireDependencyViaInterface => {
            "move_dependency"
        }
        RuleKind::RequireFlowVia | RuleKind::RequireDataFlowVia => "route_through_via",
        RuleKind::DenyDataFlow
        | RuleKind::DenyClassification
        | RuleKind::DenyJurisdiction
        | RuleKind::DenyFlowWhenData => "fix_data_boundary",
        RuleKind::RequireOperationIn | RuleKind::RequireOperationOnDataIn => "move_operation",
        RuleKind::RequireTouched => "add_companion_change",
        RuleKind::AllowTransition | RuleKind::DenyTransition => "fix_state_transition",
        RuleKind::RequirePrecededBy => "fix_event_order",
        RuleKind::DenyInject
        | RuleKind::DenyInjectReach
        | RuleKind::DenyLifetime
        | RuleKind::DenyLifetimeReach
        | RuleKind::DenyResolve => "move_registration",
        RuleKind::AllowPermission
        | RuleKind::DenyPermission
        | RuleKind::DenyUnauthenticatedFlow
        | RuleKind::DenyUnencryptedFlow
        | RuleKind::RequireAuth => "fix_auth_policy",
        RuleKind::RequireValue | RuleKind::RequireBefore | RuleKind::EnsureAfter => "fix_value",
        RuleKind::WorkflowAction | RuleKind::WorkflowPermission | RuleKind::WorkflowStepOrder => {
            "fix_workflow"
        }
        RuleKind::RequireContractImplementedBy => "fix_contract",
        RuleKind::DependsOn
        | RuleKind::PublicInterface
        | RuleKind::DenyCycle
        | RuleKind::DenyUnresolvedImport => "move_dependency",
    }
}

pub(super) fn source_ref(location: &policies::model::SourceLocation) -> SourceRef {
    SourceRef {
        file: location.file.clone(),
        line: location.line,
        column: location.column,
    }
}

/// The rule fields of `rule` for `rule.…` of an architecture violation.
pub(super) fn rule_ref(citation: &Citation, rule: Option<&Rule>) -> RuleRef {
    let mut reference = RuleRef {
        kind: citation.kind.name(),
        text: citation.text.clone(),
        source: source_ref(&citation.source),
        from: None,
        to: None,
        via: None,
        data: None,
        fields: BTreeMap::new(),
    };
    let Some(rule) = rule else {
        return reference;
    };
    let mut field = |name: &str, value: String| {
        reference.fields.insert(name.to_owned(), value);
    };
    match &rule.body {
        RuleBody::Pair { .. }
        | RuleBody::PairVia { .. }
        | RuleBody::DataTo { .. }
        | RuleBody::ContractImplementedBy { .. }
        | RuleBody::Touched { .. }
        | RuleBody::WorkflowAction { .. }
        | RuleBody::WorkflowPermission { .. }
        | RuleBody::WorkflowStepOrder { .. }
        | RuleBody::Other { .. } => {}
        RuleBody::OperationIn {
            operation, entity, ..
        } => {
            field("operation", operation.clone());
            field("component", entity.clone());
        }
        RuleBody::Dependency { interface, .. } => field("interface", interface.clone()),
        RuleBody::Transition {
            machine,
            field: data_field,
            ..
        } => {
            field("machine", machine.clone());
            field("field", data_field.clone());
        }
        RuleBody::Permission {
            target,
            role_enum,
            role,
            operations,
            when_field,
            ..
        } => {
            field("target", target.clone());
            field(
                "role",
                match (role_enum, role) {
                    (Some(role_enum), Some(role)) => format!("{role_enum}.{role}"),
                    _ => "*".to_owned(),
                },
            );
            field("operations", operations.join("|"));
            if let Some(when_field) = when_field {
                field("when", when_field.clone());
            }
        }
        RuleBody::Value { require, when } => {
            field("subject", require.data.clone());
            field("field", require.path.join("."));
            field("relation", require.relation.as_str().to_owned());
            field("value", literal_text(&require.literal));
            if let Some(when) = when {
                field(
                    "when",
                    format!(
                        "{}.{} {} {}",
                        when.data,
                        when.path.join("."),
                        when.relation.as_str(),
                        literal_text(&when.literal)
                    ),
                );
            }
        }
        RuleBody::OperationCondition {
            operation,
            condition,
            ..
        } => {
            field("operation", operation.clone());
            field("subject", condition.data.clone());
            field("field", condition.path.join("."));
            field("relation", condition.relation.as_str().to_owned());
            field("value", literal_text(&condition.literal));
        }
        RuleBody::EventOrder {
            event,
            preceded_by,
            scope,
            ..
        } => {
            field("event", event.clone());
            field("preceded_by", preceded_by.clone());
            field("scope", scope.clone());
        }
        RuleBody::Lifetime { from, to } => {
            field("from_lifetime", format!("{from:?}").to_lowercase());
            field("to_lifetime", format!("{to:?}").to_lowercase());
        }
        RuleBody::Resolve { service, component } => {
            field("service", service.clone());
            field("component", component.clone());
        }
        RuleBody::Classification {
            classification,
            trust,
        } => {
            field("classification", classification.clone());
            field("trust", trust.as_str().to_owned());
        }
        RuleBody::Jurisdiction {
            jurisdiction,
            entity,
        } => {
            field("jurisdiction", jurisdiction.clone());
            field("entity", entity.clone());
        }
        RuleBody::TrustBoundary { from, to } => {
            field("from_trust", from.as_str().to_owned());
            field("to_trust", to.as_str().to_owned());
        }
        RuleBody::TrustDataFlow {
            from,
            to,
            classification,
        } => {
            field("from_trust", from.as_str().to_owned());
            field("to_trust", to.as_str().to_owned());
            field("classification", classification.clone());
        }
        RuleBody::Closed { component, allowed } => {
            field("component", component.clone());
            field("depends_on", allowed.join(","));
        }
        RuleBody::Public { component, globs } => {
            field("component", component.clone());
            field("public", globs.join(","));
        }
        RuleBody::Cycle { groups } => {
            let names: Vec<&str> = groups.iter().map(|group| group.name.as_str()).collect();
            field("among", names.join(","));
        }
        RuleBody::CycleWithin { component } | RuleBody::Unresolved { component } => {
            field("component", component.clone());
        }
        RuleBody::CycleFiles { components } => {
            field("among", "files".to_owned());
            if let Some(components) = components {
                field("in", components.join(","));
            }
        }
    }
    let (from, to, via, data) = match &rule.body {
        RuleBody::Pair { from, to } | RuleBody::Dependency { from, to, .. } => {
            (Some(from.clone()), Some(to.clone()), None, None)
        }
        RuleBody::PairVia { from, to, via } => (
            Some(from.clone()),
            Some(to.clone()),
            Some(via.clone()),
            None,
        ),
        RuleBody::DataTo { data, to, via } => (
            None,
            Some(to.clone()),
            (!via.is_empty()).then(|| via.clone()),
            Some(data.clone()),
        ),
        RuleBody::OperationIn { data, .. } => (None, None, None, data.clone()),
        RuleBody::Transition { data, .. } => (None, None, None, Some(data.clone())),
        RuleBody::Permission {
            target,
            target_kind: policies::model::TargetKind::Data,
            ..
        } => (None, None, None, Some(target.clone())),
        _ => (None, None, None, None),
    };
    if citation.kind == rule.kind && citation.text == rule.text {
        reference.from = from;
        reference.to = to;
        reference.via = via;
        reference.data = data;
    }
    reference
}

/// A value literal as written in the spec (`Draft`, `"x"`, `-5`, `true`, `null`).
pub(super) fn literal_text(literal: &policies::model::Literal) -> String {
    match literal {
        policies::model::Literal::Number(number) => number.clone(),
        policies::model::Literal::String(text) => text.clone(),
        policies::model::Literal::Bool(value) => value.to_string(),
        policies::model::Literal::Null => "null".to_owned(),
    }
}
