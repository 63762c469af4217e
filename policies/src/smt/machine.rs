//! Encoding of machines (see `machine` in policies/LANGUAGE.md): writes between
//! states, with an unguarded write coming from a distinguished source constant `*` that lies
//! outside the enum. No self-loop is ever asserted.

use super::slice::{conjunction, disjunction, AssertionRole, SliceBuilder};

/// The name of the distinguished source of unguarded writes.
const UNKNOWN_SOURCE: &str = "*";

impl SliceBuilder {
    fn state(&mut self, state: Option<&str>) -> String {
        match state {
            Some(state) => self.named("State", "state", state),
            None => self.named("State", "source", UNKNOWN_SOURCE),
        }
    }

    /// The axiom that the enum's members are exactly `members`, and `*` is not one of them.
    pub fn state_members(&mut self, enum_name: &str, members: &[String]) {
        self.function("member", "(declare-fun member (State) Bool)");
        let alternatives: Vec<String> = members
            .iter()
            .map(|member| format!("(= s {})", self.state(Some(member))))
            .collect();
        let star = self.state(None);
        self.track(
            AssertionRole::Axiom,
            format!("axiom: the states of {enum_name} are {{{}}}, and the unguarded source * is none of them", members.join(", ")),
            format!(
                "(and (forall ((s State)) (= (member s) {})) (not (member {star})))",
                disjunction(&alternatives)
            ),
            None,
        );
    }

    /// Fact: a write from `from` (`None` for an unguarded write) to `to`.
    pub fn write_fact(
        &mut self,
        name: String,
        fact_id: Option<String>,
        from: Option<&str>,
        to: &str,
    ) {
        self.function("writes", "(declare-fun writes (State State) Bool)");
        let formula = format!("(writes {} {})", self.state(from), self.state(Some(to)));
        self.track(AssertionRole::Fact, name, formula, fact_id);
    }

    fn transition_match(&mut self, from: Option<&str>, to: Option<&str>) -> Vec<String> {
        let mut parts = Vec::new();
        if let Some(from) = from {
            parts.push(format!("(= s {})", self.state(Some(from))));
        }
        if let Some(to) = to {
            parts.push(format!("(= t {})", self.state(Some(to))));
        }
        parts
    }

    /// DenyTransition(from, to), `None` for `*`: no state-changing write matches it.
    pub fn deny_transition(&mut self, name: String, from: Option<&str>, to: Option<&str>) {
        self.function("writes", "(declare-fun writes (State State) Bool)");
        let mut parts = vec!["(writes s t)".to_owned(), "(not (= s t))".to_owned()];
        parts.extend(self.transition_match(from, to));
        let formula = format!(
            "(forall ((s State) (t State)) (not {}))",
            conjunction(&parts)
        );
        self.track(AssertionRole::Rule, name, formula, None);
    }

    /// The allow-list of a closed machine: every state-changing write matches an allow rule.
    pub fn transition_allow_list(
        &mut self,
        name: String,
        allows: &[(Option<String>, Option<String>)],
    ) {
        self.function("writes", "(declare-fun writes (State State) Bool)");
        let alternatives: Vec<String> = allows
            .iter()
            .map(|(from, to)| conjunction(&self.transition_match(from.as_deref(), to.as_deref())))
            .collect();
        let formula = format!(
            "(forall ((s State) (t State)) (=> (and (writes s t) (not (= s t))) {}))",
            disjunction(&alternatives)
        );
        self.track(AssertionRole::Rule, name, formula, None);
    }
}
