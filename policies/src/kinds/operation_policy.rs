//! `operation_policy`: preconditions and postconditions of operations.
//!
//! # What it checks
//! The operation name is free-form; the condition is checked as a `value_policy` expression.
//!
//! # Why
//! A condition over a path that does not exist could never be contradicted.
//!
//! # Passing example
//! `operation_policy Submit { require before submitOrder Order.status == Draft }`
//!
//! # Failing example
//! `ensure after submitOrder Order.state == Active` gives `unknown-field`.
//!
//! # SMT encoding
//! See [`crate::smt`]: as for value policies, over `operation_event` facts of the phase.

use crate::check::Checker;
use crate::model::{DeclarationKind, OperationPhase, RuleBody, RuleKind};
use crate::syntax::ast::{OperationRule, RuleBlock};

impl Checker<'_> {
    /// Checks an operation policy and adds its rules to the model.
    pub fn check_operation_policy(&mut self, block: &RuleBlock<OperationRule>) {
        self.declare(DeclarationKind::OperationPolicy, &block.name);
        for parsed in &block.rules {
            let rule = &parsed.rule;
            let Some(condition) = self.check_value_expr(&rule.condition) else {
                continue;
            };
            let kind = match rule.phase {
                OperationPhase::Before => RuleKind::RequireBefore,
                OperationPhase::After => RuleKind::EnsureAfter,
            };
            let body = RuleBody::OperationCondition {
                operation: rule.operation.text.clone(),
                phase: rule.phase,
                condition,
            };
            self.push_rule(
                kind,
                DeclarationKind::OperationPolicy,
                &block.name,
                parsed,
                body,
            );
        }
    }
}

#[cfg(test)]
mod tests;
