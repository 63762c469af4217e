//! `value_policy`: invariants over runtime values.
//!
//! # What it checks
//! Each expression's path types through data fields, `Optional` and list `length`
//! (`unknown-data`, `unknown-field`, `field-on-non-data`, `length-on-non-list`); ordering
//! relations need a numeric path (`ordering-on-non-numeric`); enum literals are members
//! (`enum-value-unknown`); other literal mismatches are warnings (`value-type-mismatch`).
//!
//! # Why
//! A requirement over a path that does not exist could never be contradicted by a fact.
//!
//! # Passing example
//! `value_policy OrderShape { require Order.total >= 0 }`
//!
//! # Failing example
//! `require Order.status >= 1` gives `ordering-on-non-numeric`.
//!
//! # SMT encoding
//! See [`crate::smt`]: values are encoded over `Int`/`Real`/`String`/`Bool`, so the solver
//! decides contradiction and entailment.

use crate::check::Checker;
use crate::model::{DeclarationKind, RuleBody, RuleKind};
use crate::syntax::ast::{RuleBlock, ValueRule};

impl Checker<'_> {
    /// Checks a value policy and adds its rules to the model.
    pub fn check_value_policy(&mut self, block: &RuleBlock<ValueRule>) {
        self.declare(DeclarationKind::ValuePolicy, &block.name);
        for parsed in &block.rules {
            let require = self.check_value_expr(&parsed.rule.require);
            let when = parsed
                .rule
                .when
                .as_ref()
                .map(|when| self.check_value_expr(when));
            let when = match when {
                None => None,
                Some(Some(when)) => Some(when),
                Some(None) => continue,
            };
            let Some(require) = require else { continue };
            let body = RuleBody::Value { require, when };
            self.push_rule(
                RuleKind::RequireValue,
                DeclarationKind::ValuePolicy,
                &block.name,
                parsed,
                body,
            );
        }
    }
}

#[cfg(test)]
mod tests;
