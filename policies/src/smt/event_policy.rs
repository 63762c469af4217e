//! Encoding of event protocols (see `event_policy` in policies/LANGUAGE.md): occurrences of events
//! in scopes, where a scope is data or a component through the injections `data_scope` and
//! `entity_scope` into one `Scope` sort, and the order between occurrences.

use super::slice::{conjunction, disjunction, AssertionRole, SliceBuilder};

/// An event scope: data or a component.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventScope {
    /// A data declaration.
    Data(String),
    /// A component.
    Component(String),
}

impl SliceBuilder {
    fn event_functions(&mut self) {
        self.function("occurs", "(declare-fun occurs (Occurrence Event) Bool)");
        self.function("in_scope", "(declare-fun in_scope (Occurrence Scope) Bool)");
        self.function(
            "precedes",
            "(declare-fun precedes (Occurrence Occurrence) Bool)",
        );
    }

    fn scope_term(&mut self, scope: &EventScope) -> String {
        match scope {
            EventScope::Data(data) => {
                self.function("data_scope", "(declare-fun data_scope (Data) Scope)");
                format!("(data_scope {})", self.data(data))
            }
            EventScope::Component(component) => {
                self.function("entity_scope", "(declare-fun entity_scope (Entity) Scope)");
                format!("(entity_scope {})", self.entity(component))
            }
        }
    }

    /// Fact: occurrence `occurrence` is event `event` in `scope`.
    pub fn event_fact(
        &mut self,
        name: String,
        fact_id: Option<String>,
        occurrence: &str,
        event: &str,
        scope: &EventScope,
    ) {
        self.event_functions();
        let occurrence = self.named("Occurrence", "occurrence", occurrence);
        let event = self.named("Event", "event", event);
        let scope = self.scope_term(scope);
        let formula =
            format!("(and (occurs {occurrence} {event}) (in_scope {occurrence} {scope}))");
        self.track(AssertionRole::Fact, name, formula, fact_id);
    }

    /// RequirePrecededBy(E, P, S): every occurrence of E in S is preceded by an occurrence of P in S.
    pub fn require_preceded_by(
        &mut self,
        name: String,
        event: &str,
        preceded_by: &str,
        scope: &EventScope,
    ) {
        self.event_functions();
        let event = self.named("Event", "event", event);
        let previous = self.named("Event", "event", preceded_by);
        let scope = self.scope_term(scope);
        let formula = format!("(forall ((e Occurrence)) (=> (and (occurs e {event}) (in_scope e {scope})) (exists ((p Occurrence)) (and (occurs p {previous}) (in_scope p {scope}) (precedes p e)))))");
        self.track(AssertionRole::Rule, name, formula, None);
    }

    /// Closed-world fact: the occurrences of `preceded_by` in `scope` are exactly `candidates`,
    /// and none of them precedes `occurrence` (by source position, or none is comparable).
    pub fn no_preceding_fact(
        &mut self,
        name: String,
        occurrence: &str,
        preceded_by: &str,
        scope: &EventScope,
        candidates: &[String],
    ) {
        self.event_functions();
        let occurrence = self.named("Occurrence", "occurrence", occurrence);
        let previous = self.named("Event", "event", preceded_by);
        let scope = self.scope_term(scope);
        let symbols: Vec<String> = candidates
            .iter()
            .map(|candidate| self.named("Occurrence", "occurrence", candidate))
            .collect();
        let membership: Vec<String> = symbols
            .iter()
            .map(|symbol| format!("(= p {symbol})"))
            .collect();
        let mut parts = vec![format!(
            "(forall ((p Occurrence)) (=> (and (occurs p {previous}) (in_scope p {scope})) {}))",
            disjunction(&membership)
        )];
        for symbol in &symbols {
            parts.push(format!("(not (precedes {symbol} {occurrence}))"));
        }
        self.track(AssertionRole::Fact, name, conjunction(&parts), None);
    }
}
