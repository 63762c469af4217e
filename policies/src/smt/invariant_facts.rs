//! Encodings of the invariant forms judged on reviewed counterexample facts (see
//! `invariant` in policies/LANGUAGE.md): unauthenticated and unencrypted flows, operation placements, and dependencies
//! through interfaces.

use super::slice::{AssertionRole, SliceBuilder};

/// The interface constant of a dependency that names none; it lies outside every interface name.
const NO_INTERFACE: &str = "none";

impl SliceBuilder {
    /// Fact: a reviewed query found the flow `from → to` without authentication
    /// (`relation` = `unauthenticated`) or encryption (`unencrypted`).
    pub fn unprotected_flow_fact(
        &mut self,
        name: String,
        fact_id: Option<String>,
        relation: &str,
        from: &str,
        to: &str,
    ) {
        self.function(
            relation,
            &format!("(declare-fun {relation} (Entity Entity) Bool)"),
        );
        let formula = format!("({relation} {} {})", self.entity(from), self.entity(to));
        self.track(AssertionRole::Fact, name, formula, fact_id);
    }

    /// DenyUnauthenticatedFlow / DenyUnencryptedFlow: `(not (relation from to))`.
    pub fn deny_unprotected_flow(&mut self, name: String, relation: &str, from: &str, to: &str) {
        self.function(
            relation,
            &format!("(declare-fun {relation} (Entity Entity) Bool)"),
        );
        let formula = format!(
            "(not ({relation} {} {}))",
            self.entity(from),
            self.entity(to)
        );
        self.track(AssertionRole::Rule, name, formula, None);
    }

    /// Fact: `operation` (on `data`, when given) happens in `component`.
    pub fn placement_fact(
        &mut self,
        name: String,
        fact_id: Option<String>,
        operation: &str,
        data: Option<&str>,
        component: &str,
    ) {
        let operation = self.named("Operation", "operation", operation);
        let component = self.entity(component);
        let formula = match data {
            Some(data) => {
                self.function(
                    "placed_on",
                    "(declare-fun placed_on (Operation Data Entity) Bool)",
                );
                format!("(placed_on {operation} {} {component})", self.data(data))
            }
            None => {
                self.function("placed", "(declare-fun placed (Operation Entity) Bool)");
                format!("(placed {operation} {component})")
            }
        };
        self.track(AssertionRole::Fact, name, formula, fact_id);
    }

    /// RequireOperationIn / RequireOperationOnDataIn: the operation happens only in `component`.
    pub fn require_placement(
        &mut self,
        name: String,
        operation: &str,
        data: Option<&str>,
        component: &str,
    ) {
        let operation = self.named("Operation", "operation", operation);
        let component = self.entity(component);
        let formula = match data {
            Some(data) => {
                self.function(
                    "placed_on",
                    "(declare-fun placed_on (Operation Data Entity) Bool)",
                );
                format!(
                    "(forall ((c Entity)) (=> (placed_on {operation} {} c) (= c {component})))",
                    self.data(data)
                )
            }
            None => {
                self.function("placed", "(declare-fun placed (Operation Entity) Bool)");
                format!("(forall ((c Entity)) (=> (placed {operation} c) (= c {component})))")
            }
        };
        self.track(AssertionRole::Rule, name, formula, None);
    }

    fn interface(&mut self, interface: Option<&str>) -> String {
        match interface {
            Some(interface) => self.named("Interface", "interface", interface),
            None => self.named("Interface", "no-interface", NO_INTERFACE),
        }
    }

    /// Fact: `from` depends on `to` through `interface` (`None`: through none).
    pub fn dependency_fact(
        &mut self,
        name: String,
        fact_id: Option<String>,
        from: &str,
        to: &str,
        interface: Option<&str>,
    ) {
        self.function(
            "depends_via",
            "(declare-fun depends_via (Entity Entity Interface) Bool)",
        );
        let formula = format!(
            "(depends_via {} {} {})",
            self.entity(from),
            self.entity(to),
            self.interface(interface)
        );
        self.track(AssertionRole::Fact, name, formula, fact_id);
    }

    /// RequireDependencyViaInterface(A, B, I): every dependency from A to B goes through I.
    pub fn require_interface(&mut self, name: String, from: &str, to: &str, interface: &str) {
        self.function(
            "depends_via",
            "(declare-fun depends_via (Entity Entity Interface) Bool)",
        );
        let formula = format!(
            "(forall ((i Interface)) (=> (depends_via {} {} i) (= i {})))",
            self.entity(from),
            self.entity(to),
            self.interface(Some(interface))
        );
        self.track(AssertionRole::Rule, name, formula, None);
    }
}
