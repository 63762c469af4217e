//! Encoding of HTTP contracts (see `contract` in policies/LANGUAGE.md): served endpoints as
//! `(serves Entity Method Path)` and the declared endpoint set as a closed-world constraint.

use super::slice::{conjunction, disjunction, AssertionRole, SliceBuilder};

/// One endpoint: a method (`None` for a route that accepts any method) and a normalised path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpEndpoint {
    /// Uppercase method, or `None` for `*`.
    pub method: Option<String>,
    /// Normalised path.
    pub path: String,
}

impl SliceBuilder {
    fn serves_function(&mut self) {
        self.function("serves", "(declare-fun serves (Entity Method Path) Bool)");
    }

    fn endpoint_terms(&mut self, endpoint: &HttpEndpoint) -> (Option<String>, String) {
        let method = endpoint
            .method
            .as_deref()
            .map(|method| self.named("Method", "method", method));
        let path = self.named("Path", "path", &endpoint.path);
        (method, path)
    }

    fn endpoint_set(&mut self, endpoints: &[HttpEndpoint]) -> String {
        let alternatives: Vec<String> = endpoints
            .iter()
            .map(|endpoint| {
                let (method, path) = self.endpoint_terms(endpoint);
                let mut parts = Vec::new();
                if let Some(method) = method {
                    parts.push(format!("(= m {method})"));
                }
                parts.push(format!("(= p {path})"));
                conjunction(&parts)
            })
            .collect();
        disjunction(&alternatives)
    }

    /// Route fact: `component` serves `endpoint`. A route for any method serves the path with
    /// a method constant that no `distinct` axiom separates from the declared ones.
    pub fn route_fact(
        &mut self,
        name: String,
        fact_id: Option<String>,
        component: &str,
        endpoint: &HttpEndpoint,
    ) {
        self.serves_function();
        let component = self.entity(component);
        let (method, path) = self.endpoint_terms(endpoint);
        let method = method.unwrap_or_else(|| self.unnamed("Method", "any-method", "route"));
        let formula = format!("(serves {component} {method} {path})");
        self.track(AssertionRole::Fact, name, formula, fact_id);
    }

    /// The contract constraint of `implements`: `component` serves only declared endpoints.
    pub fn declared_endpoints(&mut self, name: String, component: &str, declared: &[HttpEndpoint]) {
        self.serves_function();
        let component = self.entity(component);
        let set = self.endpoint_set(declared);
        let formula = format!("(forall ((m Method) (p Path)) (=> (serves {component} m p) {set}))");
        self.track(AssertionRole::Rule, name, formula, None);
    }

    /// The contract constraint of completeness: `component` serves the declared `endpoint`.
    pub fn require_endpoint(&mut self, name: String, component: &str, endpoint: &HttpEndpoint) {
        self.serves_function();
        let component = self.entity(component);
        let (method, path) = self.endpoint_terms(endpoint);
        let method = method.unwrap_or_else(|| self.unnamed("Method", "any-method", "declared"));
        let formula = format!("(serves {component} {method} {path})");
        self.track(AssertionRole::Rule, name, formula, None);
    }

    /// Closed-world fact: the routes extracted from `component`'s files are exactly `routes`.
    pub fn extracted_routes(&mut self, name: String, component: &str, routes: &[HttpEndpoint]) {
        self.serves_function();
        let component = self.entity(component);
        let set = self.endpoint_set(routes);
        let formula = format!("(forall ((m Method) (p Path)) (=> (serves {component} m p) {set}))");
        self.track(AssertionRole::Fact, name, formula, None);
    }
}
