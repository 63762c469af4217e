//! Encoding of change policies (see `change_policy` in policies/LANGUAGE.md): changed files, their
//! owners, and the implication `touched(trigger) ⇒ touched(required)`.

use super::slice::{AssertionRole, SliceBuilder};

impl SliceBuilder {
    /// The axiom: a component that owns a changed file is touched.
    pub fn touched_axiom(&mut self) {
        self.function("changed", "(declare-fun changed (File) Bool)");
        self.function("owns", "(declare-fun owns (File Entity) Bool)");
        self.function("touched", "(declare-fun touched (Entity) Bool)");
        self.track(
            AssertionRole::Axiom,
            "axiom: a component that owns a changed file is touched".to_owned(),
            "(forall ((f File) (c Entity)) (=> (and (changed f) (owns f c)) (touched c)))"
                .to_owned(),
            None,
        );
    }

    /// Trigger fact: `file` is changed and owned by `owner`.
    pub fn changed_file_fact(&mut self, file: &str, owner: &str) {
        self.function("changed", "(declare-fun changed (File) Bool)");
        self.function("owns", "(declare-fun owns (File Entity) Bool)");
        let file_symbol = self.named("File", "file", file);
        let formula = format!(
            "(and (changed {file_symbol}) (owns {file_symbol} {}))",
            self.entity(owner)
        );
        self.track(
            AssertionRole::Fact,
            format!("fact changed file {file} (owned by {owner})"),
            formula,
            Some(file.to_owned()),
        );
    }

    /// Missing fact (closed world over the scope's changed files): `component` is not touched.
    pub fn untouched_fact(&mut self, component: &str) {
        self.function("touched", "(declare-fun touched (Entity) Bool)");
        let formula = format!("(not (touched {}))", self.entity(component));
        self.track(
            AssertionRole::Fact,
            format!("fact no changed file is owned by {component}"),
            formula,
            None,
        );
    }

    /// RequireTouched(R, T): `(=> (touched T) (touched R))`.
    pub fn require_touched(&mut self, name: String, required: &str, trigger: &str) {
        self.function("touched", "(declare-fun touched (Entity) Bool)");
        let formula = format!(
            "(=> (touched {}) (touched {}))",
            self.entity(trigger),
            self.entity(required)
        );
        self.track(AssertionRole::Rule, name, formula, None);
    }
}
