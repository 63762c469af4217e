//! Encodings of the data policies: data labels and where labelled data may go
//! (DenyClassification, DenyJurisdiction); trust levels are in [`super::trust_policy`].

use super::slice::{AssertionRole, SliceBuilder};

impl SliceBuilder {
    /// Spec fact `(= (classification D) |classification:L|)` (or `jurisdiction`).
    pub fn label_fact(&mut self, data: &str, key: &str, label: &str) {
        self.function(key, &format!("(declare-fun {key} (Data) Label)"));
        let formula = format!(
            "(= ({key} {}) {})",
            self.data(data),
            self.named("Label", key, label)
        );
        self.track(
            AssertionRole::Fact,
            format!("spec: {data} has {key} {label}"),
            formula,
            None,
        );
    }

    /// DenyClassification(cls, τ): no handler of data labelled `cls` reaches an entity of trust τ.
    pub fn deny_classification(&mut self, name: String, classification: &str, trust: &str) {
        self.function("handles", "(declare-fun handles (Entity Data) Bool)");
        self.function("reach", "(declare-fun reach (Entity Entity) Bool)");
        self.function("trust", "(declare-fun trust (Entity) Trust)");
        self.function(
            "classification",
            "(declare-fun classification (Data) Label)",
        );
        let label = self.named("Label", "classification", classification);
        let level = self.trust_level(trust);
        let formula = format!("(forall ((h Entity) (d Data) (t Entity)) (not (and (handles h d) (= (classification d) {label}) (= (trust t) {level}) (reach h t))))");
        self.track(AssertionRole::Rule, name, formula, None);
    }

    /// DenyJurisdiction(j, E): no handler of data with jurisdiction `j` reaches E.
    pub fn deny_jurisdiction(&mut self, name: String, jurisdiction: &str, entity: &str) {
        self.function("handles", "(declare-fun handles (Entity Data) Bool)");
        self.function("reach", "(declare-fun reach (Entity Entity) Bool)");
        self.function("jurisdiction", "(declare-fun jurisdiction (Data) Label)");
        let label = self.named("Label", "jurisdiction", jurisdiction);
        let target = self.entity(entity);
        let formula = format!("(forall ((h Entity) (d Data)) (not (and (handles h d) (= (jurisdiction d) {label}) (reach h {target}))))");
        self.track(AssertionRole::Rule, name, formula, None);
    }
}
