//! machine: AllowTransition and DenyTransition on query-emitted transition facts
//! (see `machine` in policies/LANGUAGE.md). Deny rules win; a closed machine's allow rules form an allow-list
//! cited by its declaration; an unguarded write is judged against `*` sources only, and a
//! write that keeps the state never violates.

use policies::facts::DomainFactBody;
use policies::model::{Machine, Rule, RuleBody, RuleKind};
use policies::smt::SliceBuilder;

use super::{
    fact_name, rule_name, Candidate, Citation, Context, Detail, Evaluation, Family, Shape, Site,
    SliceCause,
};
use crate::verdict::Warning;

/// The family.
pub const FAMILY: Family = Family {
    kinds: &[RuleKind::AllowTransition, RuleKind::DenyTransition],
    evaluate,
};

/// A machine rule: its index, effect and states (`None` is `*`).
struct TransitionRule<'a> {
    index: usize,
    rule: &'a Rule,
    from: Option<String>,
    to: Option<String>,
}

impl TransitionRule<'_> {
    /// Matches a write; an unknown source (`None`) is matched only by a `*` source.
    fn matches(&self, from: Option<&str>, to: &str) -> bool {
        let from_matches = match (&self.from, from) {
            (None, _) => true,
            (Some(rule_from), Some(from)) => rule_from == from,
            (Some(_), None) => false,
        };
        from_matches && self.to.as_deref().is_none_or(|rule_to| rule_to == to)
    }
}

fn state(word: &str) -> Option<String> {
    (word != "*").then(|| word.to_owned())
}

fn rules_of<'a>(context: &'a Context<'_>, machine: &Machine) -> Vec<TransitionRule<'a>> {
    context
        .rules_of(FAMILY.kinds)
        .filter_map(|(index, rule)| match &rule.body {
            RuleBody::Transition {
                machine: name,
                from,
                to,
                ..
            } if *name == machine.name => Some(TransitionRule {
                index,
                rule,
                from: state(from),
                to: state(to),
            }),
            _ => None,
        })
        .collect()
}

/// Why a write is illegal: the deny rule that matches it, or the allow-list.
enum Verdict<'a> {
    Denied(&'a TransitionRule<'a>),
    NotAllowed,
}

fn judge<'a>(
    rules: &'a [TransitionRule<'a>],
    closed: bool,
    from: Option<&str>,
    to: &str,
) -> Option<Verdict<'a>> {
    if from == Some(to) {
        return None;
    }
    let denies = rules
        .iter()
        .filter(|rule| rule.rule.kind == RuleKind::DenyTransition);
    if let Some(deny) = denies.into_iter().find(|rule| rule.matches(from, to)) {
        return Some(Verdict::Denied(deny));
    }
    let allowed = !closed
        || rules
            .iter()
            .filter(|rule| rule.rule.kind == RuleKind::AllowTransition)
            .any(|rule| rule.matches(from, to));
    (!allowed).then_some(Verdict::NotAllowed)
}

fn evaluate(context: &Context<'_>, evaluation: &mut Evaluation) {
    for machine in &context.model.machines {
        let rules = rules_of(context, machine);
        let members: Vec<String> = context
            .model
            .enum_named(&machine.enum_name)
            .map(|declared| declared.values.clone())
            .unwrap_or_default();
        for (fact_index, fact) in context.facts.domain_facts() {
            let DomainFactBody::Transition {
                data,
                field,
                from,
                to,
            } = &fact.body
            else {
                continue;
            };
            if *data != machine.data || *field != machine.field || !context.in_scope(fact_index) {
                continue;
            }
            let unknown: Vec<&String> = from
                .iter()
                .chain([to])
                .filter(|state| !members.contains(state))
                .collect();
            if !unknown.is_empty() {
                evaluation.warnings.push(Warning {
                    code: "query-invalid-fact".into(),
                    message: format!(
                        "query `{}` emitted a transition of `{data}.{field}` with `{}`, which is not a value of enum `{}`: the fact is dropped",
                        fact.query.id,
                        unknown.iter().map(|state| state.as_str()).collect::<Vec<_>>().join("`, `"),
                        machine.enum_name
                    ),
                    file: Some(fact.evidence.file.to_string()),
                    line: Some(fact.evidence.line),
                    ..Warning::default()
                });
                continue;
            }
            let Some(verdict) = judge(&rules, machine.is_closed, from.as_deref(), to) else {
                continue;
            };
            let Some(site) = Site::of(&context.facts, fact_index) else {
                continue;
            };
            let shown_from = from.clone().unwrap_or_else(|| "*".to_owned());
            let (citation, covered, mut builder, reason) =
                cited(machine, &rules, verdict, &shown_from, to);
            builder.state_members(&machine.enum_name, &members);
            builder.write_fact(
                fact_name(super::FactRef::Domain(fact)),
                Some(fact.id.clone()),
                from.as_deref(),
                to,
            );
            builder.distinct_names();
            let illegal_sources = from.is_none().then(|| {
                members
                    .iter()
                    .filter(|source| {
                        *source != to
                            && judge(&rules, machine.is_closed, Some(source), to).is_some()
                    })
                    .cloned()
                    // Bytewise, like every string array but the sequences (docs/VERDICT.md).
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect::<Vec<_>>()
            });
            let message = match from {
                Some(from) => format!("`{data}.{field}` goes from `{from}` to `{to}`: {reason}"),
                None => format!("`{data}.{field}` is set to `{to}` without a guard on its previous state: {reason}"),
            };
            let suggested_fix = match from {
                Some(from) => format!(
                    "do not move `{data}.{field}` from `{from}` to `{to}` at {}:{}: go through a transition that machine `{}` allows, or refuse the write in this state",
                    site.file, site.line, machine.name
                ),
                None => format!(
                    "guard the write at {}:{} with a check of the current `{field}` (e.g. `if (x.{field} === {}.<allowed source>)`) so that only allowed transitions reach it",
                    site.file, site.line, machine.enum_name
                ),
            };
            let detail = Detail {
                from: fact.subject_component.clone(),
                data: Some(data.clone()),
                field: Some(field.clone()),
                from_state: from.clone(),
                to_state: Some(to.clone()),
                illegal_sources,
                ..Detail::default()
            };
            evaluation.candidates.push(Candidate {
                rules: covered,
                citation,
                violation_type: "state_machine_violation",
                data: Some(data.clone()),
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
                cause: SliceCause::StateWrites(data.clone()),
            });
        }
    }
}

/// What a transition's finding cites: the deny rule, or the machine's allow-list; the rules it
/// covers, the slice builder with the rule's assertion, and the reason in words.
fn cited(
    machine: &Machine,
    rules: &[TransitionRule<'_>],
    verdict: Verdict<'_>,
    shown_from: &str,
    to: &str,
) -> (Citation, Vec<usize>, SliceBuilder, String) {
    match verdict {
        Verdict::Denied(deny) => {
            let mut builder =
                SliceBuilder::new(&format!("{}: {}", deny.rule.declaration, deny.rule.text));
            builder.deny_transition(
                rule_name(deny.rule),
                deny.from.as_deref(),
                deny.to.as_deref(),
            );
            (
                Citation::rule(deny.rule),
                vec![deny.index],
                builder,
                format!("`{}` denies it", deny.rule.text),
            )
        }
        Verdict::NotAllowed => {
            let what = format!("{shown_from} -> {to}");
            let citation = Citation::allow_list(
                RuleKind::AllowTransition,
                "machine",
                &machine.name,
                &machine.location,
                &what,
            );
            let allows: Vec<&TransitionRule<'_>> = rules
                .iter()
                .filter(|rule| rule.rule.kind == RuleKind::AllowTransition)
                .collect();
            let mut builder =
                SliceBuilder::new(&format!("{}: {}", citation.declaration, citation.text));
            builder.transition_allow_list(
                format!(
                    "allow-list machine {}: {}",
                    machine.name,
                    allows
                        .iter()
                        .map(|rule| rule.rule.text.as_str())
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
                &allows
                    .iter()
                    .map(|rule| (rule.from.clone(), rule.to.clone()))
                    .collect::<Vec<_>>(),
            );
            let covered = allows.iter().map(|rule| rule.index).collect();
            (
                citation,
                covered,
                builder,
                format!("machine `{}` allows no such transition", machine.name),
            )
        }
    }
}
