//! Encodings of the data and trust policies: trust levels, data labels, auth, and the
//! unauthenticated-path closure (`language.md` §3.7 DenyClassification … RequireAuth).

use super::slice::{AssertionRole, SliceBuilder};

impl SliceBuilder {
    /// The constant of a trust level.
    pub fn trust_level(&mut self, trust: &str) -> String {
        self.named("Trust", "trust", trust)
    }

    /// Spec fact `(= (trust E) |trust:τ|)`.
    pub fn trust_fact(&mut self, entity: &str, trust: &str) {
        self.function("trust", "(declare-fun trust (Entity) Trust)");
        let formula = format!(
            "(= (trust {}) {})",
            self.entity(entity),
            self.trust_level(trust)
        );
        self.track(
            AssertionRole::Fact,
            format!("spec: {entity} is {trust}"),
            formula,
            None,
        );
    }

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

    /// Spec fact `(not (has_auth E))`: no `auth` value of the entity is other than `none`.
    pub fn no_auth_fact(&mut self, entity: &str) {
        self.function("has_auth", "(declare-fun has_auth (Entity) Bool)");
        let formula = format!("(not (has_auth {}))", self.entity(entity));
        self.track(
            AssertionRole::Fact,
            format!("spec: {entity} has no auth"),
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

    /// DenyFlowWhenData(τ1, τ2, cls): no handler of trust τ1 carries data labelled `cls` to an
    /// entity of trust τ2.
    pub fn deny_flow_when_data(
        &mut self,
        name: String,
        from: &str,
        to: &str,
        classification: &str,
    ) {
        self.function("handles", "(declare-fun handles (Entity Data) Bool)");
        self.function("reach", "(declare-fun reach (Entity Entity) Bool)");
        self.function("trust", "(declare-fun trust (Entity) Trust)");
        self.function(
            "classification",
            "(declare-fun classification (Data) Label)",
        );
        let label = self.named("Label", "classification", classification);
        let source = self.trust_level(from);
        let target = self.trust_level(to);
        let formula = format!("(forall ((h Entity) (d Data) (t Entity)) (not (and (handles h d) (= (classification d) {label}) (= (trust h) {source}) (= (trust t) {target}) (reach h t))))");
        self.track(AssertionRole::Rule, name, formula, None);
    }

    /// RequireAuth(τ1, τ2): no unauthenticated path leads from trust τ1 to another entity of trust τ2.
    pub fn require_auth(&mut self, name: String, from: &str, to: &str) {
        self.function("trust", "(declare-fun trust (Entity) Trust)");
        self.function(
            "unauth_reach",
            "(declare-fun unauth_reach (Entity Entity) Bool)",
        );
        let source = self.trust_level(from);
        let target = self.trust_level(to);
        let formula = format!("(forall ((x Entity) (y Entity)) (not (and (= (trust x) {source}) (= (trust y) {target}) (not (= x y)) (unauth_reach x y))))");
        self.track(AssertionRole::Rule, name, formula, None);
    }
}
