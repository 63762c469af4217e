//! Encodings of workflow policies (see `workflow_policy` in policies/LANGUAGE.md): actions, trigger
//! conditions, token grants as integer levels (`none` 0 < `read` 1 < `write` 2), and step order.

use super::slice::{conjunction, disjunction, AssertionRole, SliceBuilder};

/// A workflow reference of a rule (`None` is `*`) with its optional condition text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkflowMatch {
    /// The workflow's component, or `None` for `*`.
    pub workflow: Option<String>,
    /// The condition, e.g. `tag v*`, or `None` when the rule has none.
    pub condition: Option<String>,
}

impl SliceBuilder {
    fn workflow_match(&mut self, variable: &str, matcher: &WorkflowMatch) -> Vec<String> {
        let mut parts = Vec::new();
        if let Some(workflow) = &matcher.workflow {
            parts.push(format!("(= {variable} {})", self.entity(workflow)));
        }
        if let Some(condition) = &matcher.condition {
            self.function("holds", "(declare-fun holds (Entity Condition) Bool)");
            let condition = self.named("Condition", "condition", condition);
            parts.push(format!("(holds {variable} {condition})"));
        }
        parts
    }

    /// Fact: the workflow's triggers satisfy (or do not satisfy) a condition.
    pub fn condition_fact(&mut self, name: String, workflow: &str, condition: &str, holds: bool) {
        self.function("holds", "(declare-fun holds (Entity Condition) Bool)");
        let workflow = self.entity(workflow);
        let condition = self.named("Condition", "condition", condition);
        let atom = format!("(holds {workflow} {condition})");
        let formula = if holds { atom } else { format!("(not {atom})") };
        self.track(AssertionRole::Fact, name, formula, None);
    }

    /// Fact: a step of `workflow` performs `action` on `target`.
    pub fn action_fact(
        &mut self,
        name: String,
        fact_id: Option<String>,
        workflow: &str,
        action: &str,
        target: &str,
    ) {
        self.function("acts", "(declare-fun acts (Entity Action Entity) Bool)");
        let formula = format!(
            "(acts {} {} {})",
            self.entity(workflow),
            self.named("Action", "action", action),
            self.entity(target)
        );
        self.track(AssertionRole::Fact, name, formula, fact_id);
    }

    /// A deny action rule: no matching workflow performs `action` on `target`.
    pub fn deny_action(
        &mut self,
        name: String,
        action: &str,
        target: &str,
        matcher: &WorkflowMatch,
    ) {
        self.function("acts", "(declare-fun acts (Entity Action Entity) Bool)");
        let action = self.named("Action", "action", action);
        let target = self.entity(target);
        let mut parts = vec![format!("(acts w {action} {target})")];
        parts.extend(self.workflow_match("w", matcher));
        let formula = format!("(forall ((w Entity)) (not {}))", conjunction(&parts));
        self.track(AssertionRole::Rule, name, formula, None);
    }

    /// The allow-list of `action` on `target`, closed-world: every workflow that performs it
    /// matches some allow rule.
    pub fn action_allow_list(
        &mut self,
        name: String,
        action: &str,
        target: &str,
        allows: &[WorkflowMatch],
    ) {
        self.function("acts", "(declare-fun acts (Entity Action Entity) Bool)");
        let action = self.named("Action", "action", action);
        let target = self.entity(target);
        let alternatives: Vec<String> = allows
            .iter()
            .map(|matcher| conjunction(&self.workflow_match("w", matcher)))
            .collect();
        let formula = format!(
            "(forall ((w Entity)) (=> (acts w {action} {target}) {}))",
            disjunction(&alternatives)
        );
        self.track(AssertionRole::Rule, name, formula, None);
    }

    /// Fact: `job` of `workflow` is granted `permission` at `level` (0, 1 or 2).
    pub fn grant_fact(
        &mut self,
        name: String,
        fact_id: Option<String>,
        job: &str,
        workflow: &str,
        permission: &str,
        level: u8,
    ) {
        self.function("job_in", "(declare-fun job_in (Job Entity) Bool)");
        self.function("level", "(declare-fun level (Job Permission) Int)");
        let job = self.named("Job", "job", job);
        let formula = format!(
            "(and (job_in {job} {}) (= (level {job} {}) {level}))",
            self.entity(workflow),
            self.named("Permission", "permission", permission)
        );
        self.track(AssertionRole::Fact, name, formula, fact_id);
    }

    /// A deny permission rule: no job of a matching workflow holds `permission` (any, for `None`)
    /// at `access` or above.
    pub fn deny_permission_grant(
        &mut self,
        name: String,
        permission: Option<&str>,
        access: u8,
        matcher: &WorkflowMatch,
    ) {
        self.function("job_in", "(declare-fun job_in (Job Entity) Bool)");
        self.function("level", "(declare-fun level (Job Permission) Int)");
        let (binders, permission) = match permission {
            Some(permission) => (
                "(j Job) (w Entity)".to_owned(),
                self.named("Permission", "permission", permission),
            ),
            None => (
                "(j Job) (w Entity) (q Permission)".to_owned(),
                "q".to_owned(),
            ),
        };
        let mut parts = vec!["(job_in j w)".to_owned()];
        parts.extend(self.workflow_match("w", matcher));
        parts.push(format!("(>= (level j {permission}) {access})"));
        let formula = format!("(forall ({binders}) (not {}))", conjunction(&parts));
        self.track(AssertionRole::Rule, name, formula, None);
    }

    /// The allow-list of `permission`, closed-world: a job granted it at read or above is covered
    /// by a matching allow rule whose access is at least the grant.
    pub fn permission_allow_list(
        &mut self,
        name: String,
        permission: &str,
        allows: &[(WorkflowMatch, u8)],
    ) {
        self.function("job_in", "(declare-fun job_in (Job Entity) Bool)");
        self.function("level", "(declare-fun level (Job Permission) Int)");
        let permission = self.named("Permission", "permission", permission);
        let alternatives: Vec<String> = allows
            .iter()
            .map(|(matcher, access)| {
                let mut parts = self.workflow_match("w", matcher);
                parts.push(format!("(<= (level j {permission}) {access})"));
                conjunction(&parts)
            })
            .collect();
        let formula = format!(
            "(forall ((j Job) (w Entity)) (=> (and (job_in j w) (>= (level j {permission}) 1)) {}))",
            disjunction(&alternatives)
        );
        self.track(AssertionRole::Rule, name, formula, None);
    }

    fn step_functions(&mut self) {
        self.function("has_after", "(declare-fun has_after (Step) Bool)");
        self.function("has_before", "(declare-fun has_before (Step) Bool)");
        self.function("earlier", "(declare-fun earlier (Step Step) Bool)");
    }

    /// WorkflowStepOrder: every step containing the later text has an earlier step containing
    /// the first text (in its job or a job it transitively needs).
    pub fn require_step_order(&mut self, name: String) {
        self.step_functions();
        self.track(
            AssertionRole::Rule,
            name,
            "(forall ((s Step)) (=> (has_after s) (exists ((p Step)) (and (has_before p) (earlier p s)))))".to_owned(),
            None,
        );
    }

    /// Fact: `step` contains the later text.
    pub fn later_step_fact(&mut self, name: String, fact_id: Option<String>, step: &str) {
        self.step_functions();
        let formula = format!("(has_after {})", self.named("Step", "step", step));
        self.track(AssertionRole::Fact, name, formula, fact_id);
    }

    /// Closed-world fact: the steps of the workflow containing the first text are exactly
    /// `earlier_candidates`, and none of them comes before `step`.
    pub fn no_earlier_step_fact(
        &mut self,
        name: String,
        step: &str,
        earlier_candidates: &[String],
    ) {
        self.step_functions();
        let step = self.named("Step", "step", step);
        let candidates: Vec<String> = earlier_candidates
            .iter()
            .map(|candidate| self.named("Step", "step", candidate))
            .collect();
        let membership: Vec<String> = candidates
            .iter()
            .map(|candidate| format!("(= p {candidate})"))
            .collect();
        let mut parts = vec![format!(
            "(forall ((p Step)) (=> (has_before p) {}))",
            disjunction(&membership)
        )];
        for candidate in &candidates {
            parts.push(format!("(not (earlier {candidate} {step}))"));
        }
        self.track(AssertionRole::Fact, name, conjunction(&parts), None);
    }
}
