//! `call` facts (the fact schema, `policies::facts`): every call of a function or method, with its callee,
//! receiver, qualified name and argument texts, so a reviewed query can match
//! `callee: acceptConsent` or `qualified: orders.submit` or `argumentEnum: OrderStatus`.

use policies::facts::{Confidence, Fact, FactKind, PropertyValue};

use super::{CallsAndAssignmentsGrammar, FileSyntax, Ranks, TEXT_LIMIT};
use crate::facts::{set, FactFactory};
use crate::query::{Field, QueryHit};
use crate::syntax;

/// The `call` facts of a file's call hits.
pub(super) fn facts(
    factory: &FactFactory<'_>,
    grammar: &dyn CallsAndAssignmentsGrammar,
    hits: &[&QueryHit<'_>],
    file: &FileSyntax<'_, '_>,
) -> Vec<Fact> {
    let source = file.source;
    let mut facts = Vec::new();
    let mut ranks = Ranks::default();
    for hit in hits {
        let Some(call) = hit.node(Field::Call) else {
            continue;
        };
        let mut separator = ".";
        let (receiver, callee) = if let Some(method) = hit.node(Field::Method) {
            (hit.node(Field::Receiver), grammar.name(method, source))
        } else if let Some(function) = hit.node(Field::Function) {
            if !grammar.is_callee(function) {
                continue;
            }
            match (grammar.member(function), grammar.path(function)) {
                (Some((object, property)), _) => (Some(object), grammar.name(property, source)),
                (None, Some((path, name))) => {
                    separator = "::";
                    (Some(path), grammar.name(name, source))
                }
                (None, None) => (None, syntax::compact_text(function, source, TEXT_LIMIT)),
            }
        } else {
            continue;
        };
        if callee.is_empty() {
            continue;
        }
        // Counted before the run's queries choose: a call keeps its id whichever others are made.
        let rank = ranks.next(call);
        if !factory.generic().wants_call(&callee) {
            continue;
        }
        let receiver = receiver.map(|node| syntax::compact_text(node, source, TEXT_LIMIT));
        let qualified = match &receiver {
            Some(receiver) => {
                syntax::truncate(&format!("{receiver}{separator}{callee}"), TEXT_LIMIT)
            }
            None => callee.clone(),
        };
        let arguments = hit
            .node(Field::Arguments)
            .map(|list| grammar.arguments(list))
            .unwrap_or_default();
        let mut fact = factory.fact(
            FactKind::Call,
            call,
            Confidence::Definite,
            (file.scope_of)(call),
            format!("call of `{qualified}`"),
        );
        Ranks::mark(&mut fact, rank);
        set(&mut fact, "callee", callee.as_str());
        set(&mut fact, "method", callee.as_str());
        if let Some(receiver) = &receiver {
            set(&mut fact, "receiver", receiver.as_str());
        }
        set(&mut fact, "qualified", qualified);
        set(
            &mut fact,
            "argumentCount",
            i64::try_from(arguments.len()).unwrap_or(i64::MAX),
        );
        let texts: Vec<String> = arguments
            .iter()
            .map(|argument| syntax::compact_text(*argument, source, TEXT_LIMIT))
            .collect();
        set(&mut fact, "arguments", PropertyValue::from(texts));
        // The first argument, at any position, of the form `E.M` (Swift's `.m` included):
        // `submitOrder(cartId, CartPhase.Review)` gives `CartPhase`/`Review`.
        let enum_argument = arguments.iter().find_map(|argument| {
            grammar
                .enum_member(*argument, source)
                .map(|(enum_name, member)| (Some(enum_name), member))
                .or_else(|| {
                    grammar
                        .shorthand_member(*argument, source)
                        .map(|member| (None, member))
                })
        });
        if let Some((enum_name, member)) = enum_argument {
            if let Some(enum_name) = enum_name {
                set(&mut fact, "argumentEnum", enum_name);
            }
            set(&mut fact, "argumentMember", member);
        }
        facts.push(fact);
    }
    facts
}
