//! `event_policy`: temporal protocols between events.
//!
//! # What it checks
//! The scope is data or a component (`unknown-scope`); an event preceded by itself is a warning
//! (`self-precedence`).
//!
//! # Why
//! An unknown scope would match no event fact, so the rule could never fire.
//!
//! # Passing example
//! `event_policy Consent { require event AcceptConsent preceded_by ShowConsent by Profile }`
//!
//! # Failing example
//! `… by Session` gives `unknown-scope` when `Session` is neither data nor a component.
//!
//! # SMT encoding
//! See [`crate::smt`]: scopes are sort-correct (data and components are distinct families).

use crate::check::Checker;
use crate::error::Code;
use crate::model::{DeclarationKind, RuleBody, RuleKind};
use crate::syntax::ast::{EventRule, RuleBlock};

impl Checker<'_> {
    /// Checks an event policy and adds its rules to the model.
    pub fn check_event_policy(&mut self, block: &RuleBlock<EventRule>) {
        self.declare(DeclarationKind::EventPolicy, &block.name);
        for parsed in &block.rules {
            let rule = &parsed.rule;
            if rule.event.text == rule.preceded_by.text {
                let message = format!("event `{}` cannot be preceded by itself", rule.event.text);
                self.report(Code::SelfPrecedence, parsed.span, message);
            }
            let Some(scope_kind) = self.data_or_component(&rule.scope.text) else {
                let suggestion = self.suggest_data_or_component(&rule.scope.text);
                let message = format!(
                    "unknown event scope `{}`: expected data or a component",
                    rule.scope.text
                );
                self.report_with_suggestion(
                    Code::UnknownScope,
                    rule.scope.span,
                    message,
                    suggestion.as_deref(),
                );
                continue;
            };
            let body = RuleBody::EventOrder {
                event: rule.event.text.clone(),
                preceded_by: rule.preceded_by.text.clone(),
                scope: rule.scope.text.clone(),
                scope_kind,
            };
            self.push_rule(
                RuleKind::RequirePrecededBy,
                DeclarationKind::EventPolicy,
                &block.name,
                parsed,
                body,
            );
        }
    }
}

#[cfg(test)]
mod tests;
