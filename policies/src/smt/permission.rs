//! Encoding of permissions (see `permission` in policies/LANGUAGE.md): each
//! governed `performs` fact is an `Act` that does an operation, and the roles its applicable
//! checks grant are stated closed-world.

use super::slice::{conjunction, disjunction, AssertionRole, SliceBuilder};

impl SliceBuilder {
    fn permission_functions(&mut self) {
        self.function("governed", "(declare-fun governed (Act) Bool)");
        self.function("does", "(declare-fun does (Act Operation) Bool)");
        self.function("granted", "(declare-fun granted (Act Role) Bool)");
    }

    fn operation_cover(&mut self, variable: &str, operations: &[String]) -> String {
        if operations.iter().any(|operation| operation == "*") {
            return "true".to_owned();
        }
        let alternatives: Vec<String> = operations
            .iter()
            .map(|operation| {
                format!(
                    "(= {variable} {})",
                    self.named("Operation", "operation", operation)
                )
            })
            .collect();
        disjunction(&alternatives)
    }

    /// Fact: the governed act `act` performs `operation`.
    pub fn performs_fact(
        &mut self,
        name: String,
        fact_id: Option<String>,
        act: &str,
        operation: &str,
    ) {
        self.permission_functions();
        let act = self.named("Act", "act", act);
        let operation = self.named("Operation", "operation", operation);
        let formula = format!("(and (governed {act}) (does {act} {operation}))");
        self.track(AssertionRole::Fact, name, formula, fact_id);
    }

    /// Closed-world fact: the applicable role checks of `act` grant exactly `roles`.
    pub fn grants_fact(&mut self, name: String, act: &str, roles: &[String]) {
        self.permission_functions();
        let act = self.named("Act", "act", act);
        let members: Vec<String> = roles
            .iter()
            .map(|role| format!("(= r {})", self.named("Role", "role", role)))
            .collect();
        let formula = format!(
            "(forall ((r Role)) (= (granted {act} r) {}))",
            disjunction(&members)
        );
        self.track(AssertionRole::Fact, name, formula, None);
    }

    /// The allow rules of an operation set, closed-world: a governed act doing a covered
    /// operation is granted one of the allowed roles.
    pub fn allow_permission(&mut self, name: String, operations: &[String], roles: &[String]) {
        let cover = self.operation_cover("o", operations);
        self.allow_permission_over(name, cover, roles);
    }

    /// The allow rules whose operation list is `*`, for the operations that no allow rule names
    /// (`named`), closed-world: a governed act doing any other operation is granted one of `roles`.
    pub fn allow_other_operations(&mut self, name: String, named: &[String], roles: &[String]) {
        let cover = if named.is_empty() {
            "true".to_owned()
        } else {
            format!("(not {})", self.operation_cover("o", named))
        };
        self.allow_permission_over(name, cover, roles);
    }

    fn allow_permission_over(&mut self, name: String, cover: String, roles: &[String]) {
        self.permission_functions();
        let grants: Vec<String> = roles
            .iter()
            .map(|role| format!("(granted x {})", self.named("Role", "role", role)))
            .collect();
        let formula = format!(
            "(forall ((x Act) (o Operation)) (=> (and (governed x) (does x o) {cover}) {}))",
            disjunction(&grants)
        );
        self.track(AssertionRole::Rule, name, formula, None);
    }

    /// A deny rule: no governed act doing a covered operation is granted `role` (for `None`,
    /// the `*` subject, no governed act does a covered operation at all).
    pub fn deny_permission(&mut self, name: String, operations: &[String], role: Option<&str>) {
        self.permission_functions();
        let cover = self.operation_cover("o", operations);
        let mut parts = vec!["(governed x)".to_owned(), "(does x o)".to_owned(), cover];
        if let Some(role) = role {
            parts.push(format!("(granted x {})", self.named("Role", "role", role)));
        }
        let formula = format!(
            "(forall ((x Act) (o Operation)) (not {}))",
            conjunction(&parts)
        );
        self.track(AssertionRole::Rule, name, formula, None);
    }
}
