//! Encodings of DI policies (see `di_policy` in policies/LANGUAGE.md): inject edges between components,
//! the service graph with lifetimes, and service-locator resolutions.

use super::slice::{AssertionRole, SliceBuilder};

impl SliceBuilder {
    /// Fact: a constructor injection makes the inject edge `from → to`.
    pub fn inject_fact(&mut self, name: String, fact_id: Option<String>, from: &str, to: &str) {
        self.function("inject", "(declare-fun inject (Entity Entity) Bool)");
        let formula = format!("(inject {} {})", self.entity(from), self.entity(to));
        self.track(AssertionRole::Fact, name, formula, fact_id);
    }

    /// DenyInject(A, B): `(not (inject A B))`.
    pub fn deny_inject(&mut self, name: String, from: &str, to: &str) {
        self.function("inject", "(declare-fun inject (Entity Entity) Bool)");
        let formula = format!("(not (inject {} {}))", self.entity(from), self.entity(to));
        self.track(AssertionRole::Rule, name, formula, None);
    }

    /// DenyInjectReach(A, B): the closure of inject edges, and `(not (inject_reach A B))`.
    pub fn deny_inject_reach(&mut self, name: String, from: &str, to: &str) {
        self.function("inject", "(declare-fun inject (Entity Entity) Bool)");
        self.function(
            "inject_reach",
            "(declare-fun inject_reach (Entity Entity) Bool)",
        );
        let formula = format!(
            "(not (inject_reach {} {}))",
            self.entity(from),
            self.entity(to)
        );
        self.track(AssertionRole::Rule, name, formula, None);
        self.closure("inject", "inject_reach", "Entity", "an injection path");
    }

    /// Fact: `service` is registered with `lifetime`.
    pub fn registration_fact(
        &mut self,
        name: String,
        fact_id: Option<String>,
        service: &str,
        lifetime: &str,
    ) {
        self.function("lifetime", "(declare-fun lifetime (Service) Lifetime)");
        let formula = format!(
            "(= (lifetime {}) {})",
            self.named("Service", "service", service),
            self.named("Lifetime", "lifetime", lifetime)
        );
        self.track(AssertionRole::Fact, name, formula, fact_id);
    }

    /// Fact: the implementation of `from` takes a constructor parameter of service type `to`.
    pub fn service_dependency_fact(
        &mut self,
        name: String,
        fact_id: Option<String>,
        from: &str,
        to: &str,
    ) {
        self.function("depends", "(declare-fun depends (Service Service) Bool)");
        let formula = format!(
            "(depends {} {})",
            self.named("Service", "service", from),
            self.named("Service", "service", to)
        );
        self.track(AssertionRole::Fact, name, formula, fact_id);
    }

    /// DenyLifetime(L1, L2) (or, with `reach`, DenyLifetimeReach): no service of lifetime L1
    /// depends (transitively) on a service of lifetime L2.
    pub fn deny_lifetime(&mut self, name: String, from: &str, to: &str, reach: bool) {
        self.function("lifetime", "(declare-fun lifetime (Service) Lifetime)");
        self.function("depends", "(declare-fun depends (Service Service) Bool)");
        let relation = if reach {
            self.function(
                "depends_reach",
                "(declare-fun depends_reach (Service Service) Bool)",
            );
            "depends_reach"
        } else {
            "depends"
        };
        let from = self.named("Lifetime", "lifetime", from);
        let to = self.named("Lifetime", "lifetime", to);
        let formula = format!("(forall ((x Service) (y Service)) (not (and ({relation} x y) (= (lifetime x) {from}) (= (lifetime y) {to}))))");
        self.track(AssertionRole::Rule, name, formula, None);
        if reach {
            self.closure("depends", "depends_reach", "Service", "a service chain");
        }
    }

    /// Fact: code in `component` resolves `service` from the container.
    pub fn resolve_fact(
        &mut self,
        name: String,
        fact_id: Option<String>,
        component: &str,
        service: &str,
    ) {
        self.function("resolves", "(declare-fun resolves (Entity Service) Bool)");
        let formula = format!(
            "(resolves {} {})",
            self.entity(component),
            self.named("Service", "service", service)
        );
        self.track(AssertionRole::Fact, name, formula, fact_id);
    }

    /// DenyResolve(S, C): `component` resolves no `service` (any service for `None`).
    pub fn deny_resolve(&mut self, name: String, component: &str, service: Option<&str>) {
        self.function("resolves", "(declare-fun resolves (Entity Service) Bool)");
        let component = self.entity(component);
        let formula = match service {
            Some(service) => format!(
                "(not (resolves {component} {}))",
                self.named("Service", "service", service)
            ),
            None => format!("(forall ((s Service)) (not (resolves {component} s)))"),
        };
        self.track(AssertionRole::Rule, name, formula, None);
    }
}
