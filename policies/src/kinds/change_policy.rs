//! `change_policy`: co-change coupling between components.
//!
//! # What it checks
//! Both names are components (`unknown-component`); the same component on both sides is a
//! warning (`self-referential-rule`).
//!
//! # Why
//! A misspelt component would never be touched, so the rule would never fire.
//!
//! # Passing example
//! `change_policy Fresh { require touched ApiDocs when touched Api }`
//!
//! # Failing example
//! `require touched Docs when touched Api` gives `unknown-component` when `Docs` is undeclared.
//!
//! # SMT encoding
//! See [`crate::smt`]: `touched(T) ⇒ touched(R)` as an implication slice.

use crate::check::Checker;
use crate::error::Code;
use crate::model::{DeclarationKind, RuleBody, RuleKind};
use crate::syntax::ast::{ChangeRule, RuleBlock};

impl Checker<'_> {
    /// Checks a change policy and adds its rules to the model.
    pub fn check_change_policy(&mut self, block: &RuleBlock<ChangeRule>) {
        self.declare(DeclarationKind::ChangePolicy, &block.name);
        for parsed in &block.rules {
            let rule = &parsed.rule;
            let is_required_known = self.resolve_component(&rule.required);
            let is_trigger_known = self.resolve_component(&rule.trigger);
            if rule.required.text == rule.trigger.text {
                let message = format!("rule relates `{}` to itself", rule.required.text);
                self.report(Code::SelfReferentialRule, parsed.span, message);
            }
            if !(is_required_known && is_trigger_known) {
                continue;
            }
            let body = RuleBody::Touched {
                required: rule.required.text.clone(),
                trigger: rule.trigger.text.clone(),
            };
            self.push_rule(
                RuleKind::RequireTouched,
                DeclarationKind::ChangePolicy,
                &block.name,
                parsed,
                body,
            );
        }
    }
}

#[cfg(test)]
mod tests;
