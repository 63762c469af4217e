//! Encodings of the trust policies: trust levels, auth, and the unauthenticated-path closure
//! (RequireAuth, DenyFlowWhenData); the data labels are in [`super::data_policy`].

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
