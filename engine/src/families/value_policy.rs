//! value_policy and operation_policy: RequireValue (with `when`), RequireBefore and
//! EnsureAfter on query-emitted value and operation_event facts (see `value_policy` in policies/LANGUAGE.md).
//!
//! Every fact on the rule's subject and path is a candidate; Z3 decides whether it contradicts
//! the requirement (and, with `when`, whether a fact of the same file and scope entails the
//! condition). A SAT slice is a fact that satisfies the rule. Ordering over a non-number is
//! incomparable: no candidate, and the warning `incomparable-value-fact`.

use policies::facts::{Confidence, DomainFact, DomainFactBody};
use policies::model::{Literal, Rule, RuleBody, RuleKind, ValueDomain, ValueExpr};
use policies::smt::{relation_is_ordering, SmtValue};

use super::{
    builder_for, fact_name, rule_name, Candidate, Citation, Context, Detail, Evaluation, FactRef,
    Family, Shape, Site, SliceCause,
};
use crate::verdict::Warning;

/// The family.
pub const FAMILY: Family = Family {
    kinds: &[
        RuleKind::RequireValue,
        RuleKind::RequireBefore,
        RuleKind::EnsureAfter,
    ],
    evaluate,
};

/// A value fact's parts: subject, path, relation, value text.
struct ValueFact<'a> {
    index: usize,
    fact: &'a DomainFact,
    subject: &'a str,
    path: &'a str,
    relation: &'a str,
    value: &'a str,
    operation: Option<(&'a str, &'a str)>,
}

fn value_facts<'a>(context: &'a Context<'_>) -> Vec<ValueFact<'a>> {
    context
        .facts
        .domain_facts()
        .filter_map(|(index, fact)| match &fact.body {
            DomainFactBody::Value {
                subject,
                path,
                relation,
                value,
            } => Some(ValueFact {
                index,
                fact,
                subject,
                path,
                relation,
                value,
                operation: None,
            }),
            DomainFactBody::OperationEvent {
                operation,
                phase,
                subject,
                path,
                relation,
                value,
            } => Some(ValueFact {
                index,
                fact,
                subject,
                path,
                relation,
                value,
                operation: Some((operation, phase)),
            }),
            _ => None,
        })
        .collect()
}

fn is_number(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let mut parts = digits.splitn(2, '.');
    let whole = parts.next().unwrap_or_default();
    let fraction = parts.next();
    !whole.is_empty()
        && whole.chars().all(|character| character.is_ascii_digit())
        && fraction.is_none_or(|fraction| {
            !fraction.is_empty() && fraction.chars().all(|character| character.is_ascii_digit())
        })
}

/// Normalises a fact's value text against the path type (see `value_policy` in policies/LANGUAGE.md).
pub(crate) fn normalize_value(text: &str, expression: &ValueExpr) -> SmtValue {
    let text = text.trim();
    match text {
        "true" => return SmtValue::Bool(true),
        "false" => return SmtValue::Bool(false),
        "null" => return SmtValue::Null,
        _ => {}
    }
    if is_number(text) {
        return SmtValue::Number(text.to_owned());
    }
    if expression.path_type.domain == ValueDomain::Enum {
        if let Some(member) = text.strip_prefix(&format!("{}.", expression.path_type.type_name)) {
            return SmtValue::Text(member.to_owned());
        }
    }
    let unquoted = text
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .or_else(|| {
            text.strip_prefix('\'')
                .and_then(|rest| rest.strip_suffix('\''))
        })
        .unwrap_or(text);
    SmtValue::Text(unquoted.to_owned())
}

fn literal_value(literal: &Literal) -> SmtValue {
    match literal {
        Literal::Number(number) => SmtValue::Number(number.clone()),
        Literal::String(text) => SmtValue::Text(text.clone()),
        Literal::Bool(value) => SmtValue::Bool(*value),
        Literal::Null => SmtValue::Null,
    }
}

fn json_value(value: &SmtValue) -> serde_json::Value {
    match value {
        SmtValue::Number(number) => number
            .parse::<serde_json::Number>()
            .map(serde_json::Value::Number)
            .unwrap_or_else(|_| serde_json::Value::String(number.clone())),
        SmtValue::Text(text) => serde_json::Value::String(text.clone()),
        SmtValue::Bool(value) => serde_json::Value::Bool(*value),
        SmtValue::Null => serde_json::Value::Null,
    }
}

/// True when the pair needs an ordering over a non-number.
fn is_incomparable(fact_relation: &str, fact_value: &SmtValue, expression: &ValueExpr) -> bool {
    let literal = literal_value(&expression.literal);
    let fact_numeric = matches!(fact_value, SmtValue::Number(_));
    let literal_numeric = matches!(literal, SmtValue::Number(_));
    (relation_is_ordering(fact_relation) || expression.relation.is_ordering())
        && !(fact_numeric && literal_numeric)
}

fn matches_expression(fact: &ValueFact<'_>, expression: &ValueExpr) -> bool {
    fact.subject == expression.data && fact.path == expression.path.join(".")
}

fn evaluate(context: &Context<'_>, evaluation: &mut Evaluation) {
    let facts = value_facts(context);
    for (index, rule) in context.rules_of(FAMILY.kinds) {
        let (requirement, when, operation) = match &rule.body {
            RuleBody::Value { require, when } => (require, when.as_ref(), None),
            RuleBody::OperationCondition {
                operation,
                phase,
                condition,
            } => {
                let phase = match phase {
                    policies::model::OperationPhase::Before => "before",
                    policies::model::OperationPhase::After => "after",
                };
                (condition, None, Some((operation.as_str(), phase)))
            }
            _ => continue,
        };
        for fact in &facts {
            if fact.operation != operation
                || !matches_expression(fact, requirement)
                || !context.in_scope(fact.index)
            {
                continue;
            }
            if !["==", "!=", ">=", "<=", ">", "<"].contains(&fact.relation) {
                continue;
            }
            let value = normalize_value(fact.value, requirement);
            if is_incomparable(fact.relation, &value, requirement) {
                evaluation.warnings.push(incomparable_warning(rule, fact));
                continue;
            }
            match when {
                None => push(
                    context,
                    evaluation,
                    index,
                    rule,
                    fact,
                    &value,
                    requirement,
                    None,
                ),
                Some(condition) => {
                    for witness in facts.iter().filter(|other| {
                        other.operation.is_none()
                            && matches_expression(other, condition)
                            && other.fact.evidence.file == fact.fact.evidence.file
                            && (other.fact.evidence.scope.is_none()
                                || fact.fact.evidence.scope.is_none()
                                || other.fact.evidence.scope == fact.fact.evidence.scope)
                    }) {
                        let witness_value = normalize_value(witness.value, condition);
                        if is_incomparable(witness.relation, &witness_value, condition) {
                            evaluation
                                .warnings
                                .push(incomparable_warning(rule, witness));
                            continue;
                        }
                        push(
                            context,
                            evaluation,
                            index,
                            rule,
                            fact,
                            &value,
                            requirement,
                            Some((witness, &witness_value, condition)),
                        );
                    }
                }
            }
        }
    }
}

fn incomparable_warning(rule: &Rule, fact: &ValueFact<'_>) -> Warning {
    Warning {
        code: "incomparable-value-fact".into(),
        message: format!(
            "`{}.{} {} {}` cannot be compared with `{}`: ordering is defined only between numbers",
            fact.subject, fact.path, fact.relation, fact.value, rule.text
        ),
        file: Some(fact.fact.evidence.file.to_string()),
        line: Some(fact.fact.evidence.line),
        invariant: Some(rule.declaration.clone()),
        rule: Some(rule.text.clone()),
        ..Warning::default()
    }
}

#[expect(
    clippy::too_many_arguments,
    reason = "the parts of one value candidate"
)]
fn push(
    context: &Context<'_>,
    evaluation: &mut Evaluation,
    index: usize,
    rule: &Rule,
    fact: &ValueFact<'_>,
    value: &SmtValue,
    requirement: &ValueExpr,
    when: Option<(&ValueFact<'_>, &SmtValue, &ValueExpr)>,
) {
    let Some(site) = Site::of(&context.facts, fact.index) else {
        return;
    };
    let requirement_path = requirement.path.join(".");
    let literal = literal_value(&requirement.literal);
    let mut builder = builder_for(rule);
    let when_triple = when.map(|(_, _, condition)| {
        (
            condition,
            condition.path.join("."),
            literal_value(&condition.literal),
        )
    });
    builder.require_value(
        rule_name(rule),
        (
            &requirement.data,
            &requirement_path,
            requirement.relation.as_str(),
            &literal,
        ),
        when_triple.as_ref().map(|(condition, path, literal)| {
            (
                condition.data.as_str(),
                path.as_str(),
                condition.relation.as_str(),
                literal,
            )
        }),
    );
    builder.value_fact(
        fact_name(FactRef::Domain(fact.fact)),
        Some(fact.fact.id.clone()),
        fact.subject,
        fact.path,
        fact.relation,
        value,
    );
    let mut chain = vec![fact.index];
    let mut confidence = fact.fact.confidence;
    if let Some((witness, witness_value, _)) = when {
        builder.value_fact(
            fact_name(FactRef::Domain(witness.fact)),
            Some(witness.fact.id.clone()),
            witness.subject,
            witness.path,
            witness.relation,
            witness_value,
        );
        chain.push(witness.index);
        confidence = confidence.min(witness.fact.confidence);
    }
    let (violation_type, kind_text) = match fact.operation {
        Some((operation, phase)) => (
            "operation_policy_violation",
            format!("{phase} `{operation}`, "),
        ),
        None => ("value_policy_violation", String::new()),
    };
    let message = format!(
        "{kind_text}`{}.{} {} {}` contradicts `{}`",
        fact.subject, fact.path, fact.relation, fact.value, rule.text
    );
    let suggested_fix = format!(
        "make the value at {}:{} satisfy `{}.{requirement_path} {} {}`, or refuse the operation before it is reached",
        site.file,
        site.line,
        requirement.data,
        requirement.relation.as_str(),
        json_value(&literal)
    );
    let detail = Detail {
        from: fact.fact.subject_component.clone(),
        data: Some(fact.subject.to_owned()),
        operation: fact.operation.map(|(operation, _)| operation.to_owned()),
        field: Some(fact.path.to_owned()),
        relation: Some(fact.relation.to_owned()),
        value: Some(json_value(value)),
        ..Detail::default()
    };
    let confidence = if confidence < Confidence::Probable {
        Confidence::Possible
    } else {
        confidence
    };
    evaluation.candidates.push(Candidate {
        rules: vec![index],
        citation: Citation::rule(rule),
        violation_type,
        data: Some(fact.subject.to_owned()),
        shape: Shape::Architecture(detail),
        confidence,
        site,
        occurrences: Vec::new(),
        chain,
        per_pair: false,
        message,
        suggested_fix,
        slice: builder.finish(),
        components: fact.fact.subject_component.iter().cloned().collect(),
        path_depth: None,
        fanout: None,
        cause: SliceCause::Generic,
    });
}
