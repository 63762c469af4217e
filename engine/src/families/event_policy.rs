//! event_policy: RequirePrecededBy(E, P, S) on query-emitted event facts (see
//! `event_policy` in policies/LANGUAGE.md): every occurrence of E in scope S needs an occurrence of P in S before it, by source
//! position where the two can be ordered, else anywhere.

use policies::facts::{DomainFact, DomainFactBody};
use policies::model::{RuleBody, RuleKind, TargetKind};
use policies::smt::EventScope;

use super::{
    builder_for, fact_name, rule_name, Candidate, Citation, Context, Detail, Evaluation, FactRef,
    Family, Shape, Site, SliceCause,
};

/// The family.
pub const FAMILY: Family = Family {
    kinds: &[RuleKind::RequirePrecededBy],
    evaluate,
};

fn event_of(fact: &DomainFact) -> Option<(&str, Option<&str>)> {
    match &fact.body {
        DomainFactBody::Event { event, scope } => Some((event, scope.as_deref())),
        _ => None,
    }
}

/// True when the fact is in scope S (see `event_policy` in policies/LANGUAGE.md): its scope is S, or it has none, S is a component
/// and S owns the fact's file.
fn in_event_scope(context: &Context<'_>, fact: &DomainFact, scope: &str, kind: TargetKind) -> bool {
    match event_of(fact) {
        Some((_, Some(fact_scope))) => fact_scope == scope,
        Some((_, None)) => {
            kind == TargetKind::Component
                && context.owner(&fact.evidence.file).as_deref() == Some(scope)
        }
        None => false,
    }
}

fn is_comparable(a: &DomainFact, b: &DomainFact) -> bool {
    a.evidence.file == b.evidence.file && a.evidence.scope == b.evidence.scope
}

fn evaluate(context: &Context<'_>, evaluation: &mut Evaluation) {
    for (index, rule) in context.rules_of(FAMILY.kinds) {
        let RuleBody::EventOrder {
            event,
            preceded_by,
            scope,
            scope_kind,
        } = &rule.body
        else {
            continue;
        };
        let events: Vec<(usize, &DomainFact)> = context
            .facts
            .domain_facts()
            .filter(|(_, fact)| in_event_scope(context, fact, scope, *scope_kind))
            .collect();
        let candidates: Vec<(usize, &DomainFact)> = events
            .iter()
            .copied()
            .filter(|(_, fact)| event_of(fact).is_some_and(|(name, _)| name == preceded_by))
            .collect();
        for (fact_index, fact) in events.iter().copied() {
            if event_of(fact).is_none_or(|(name, _)| name != event) || !context.in_scope(fact_index)
            {
                continue;
            }
            let comparable: Vec<&DomainFact> = candidates
                .iter()
                .map(|(_, candidate)| *candidate)
                .filter(|candidate| is_comparable(candidate, fact))
                .collect();
            let position = |fact: &DomainFact| (fact.evidence.line, fact.evidence.column);
            let satisfied = if comparable.is_empty() {
                !candidates.is_empty()
            } else {
                comparable
                    .iter()
                    .any(|candidate| position(candidate) < position(fact))
            };
            if satisfied {
                continue;
            }
            let Some(site) = Site::of(&context.facts, fact_index) else {
                continue;
            };
            let event_scope = match scope_kind {
                TargetKind::Data => EventScope::Data(scope.clone()),
                TargetKind::Component => EventScope::Component(scope.clone()),
            };
            let mut builder = builder_for(rule);
            builder.require_preceded_by(rule_name(rule), event, preceded_by, &event_scope);
            builder.event_fact(
                fact_name(FactRef::Domain(fact)),
                Some(fact.id.clone()),
                &fact.id,
                event,
                &event_scope,
            );
            let candidate_ids: Vec<String> = candidates
                .iter()
                .map(|(_, candidate)| candidate.id.clone())
                .collect();
            builder.no_preceding_fact(
                format!(
                    "fact the {preceded_by} events in {scope} are exactly {{{}}}, none of them before {}",
                    candidate_ids.join(", "),
                    fact.id
                ),
                &fact.id,
                preceded_by,
                &event_scope,
                &candidate_ids,
            );
            builder.distinct_names();
            let message = if candidates.is_empty() {
                format!("`{event}` happens in `{scope}` with no `{preceded_by}` anywhere in that scope, which `{}` requires first", rule.text)
            } else {
                format!("`{event}` happens before any `{preceded_by}` in the same function, which `{}` forbids", rule.text)
            };
            let suggested_fix = format!(
                "emit `{preceded_by}` before `{event}` at {}:{} (in the same function), or refuse `{event}` until `{preceded_by}` happened",
                site.file, site.line
            );
            let detail = Detail {
                from: fact.subject_component.clone(),
                event: Some(event.clone()),
                preceded_by: Some(preceded_by.clone()),
                scope: Some(scope.clone()),
                ..Detail::default()
            };
            evaluation.candidates.push(Candidate {
                rules: vec![index],
                citation: Citation::rule(rule),
                violation_type: "event_policy_violation",
                data: (*scope_kind == TargetKind::Data).then(|| scope.clone()),
                shape: Shape::Architecture(detail),
                confidence: fact.confidence,
                site,
                occurrences: Vec::new(),
                chain: vec![fact_index],
                per_pair: false,
                message,
                suggested_fix,
                slice: builder.finish(),
                components: fact.subject_component.iter().cloned().collect(),
                path_depth: None,
                fanout: None,
                cause: SliceCause::Generic,
            });
        }
    }
}
