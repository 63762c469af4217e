//! `trust_policy`: trust-zone boundaries.
//!
//! # What it checks
//! Trust levels are valid (`invalid-trust`) and, as a warning, used by some entity
//! (`trust-level-unused`); the classification is used by some data (`unknown-classification`).
//!
//! # Why
//! A rule over a zone no entity is in could never fire.
//!
//! # Chains
//! Both rules are judged on chains of files (see `invariant`). `require auth τ1 -> τ2` is
//! violated by a chain from an entity X of trust τ1 to an entity Y of trust τ2 on which nothing
//! after X has auth: neither the components that own the files along it nor Y, so a path
//! through an authenticating gateway passes. `deny flow τ1 -> τ2 when data cls` is violated when
//! data of that classification reaches, along a chain, from its handler in τ1 to an entity in
//! τ2. Each finding carries the shortest such chain in `detected.path` and `detected.files`.
//!
//! # Passing example
//! `trust_policy Edge { require auth untrusted -> trusted ; deny flow trusted -> untrusted when data pii }`
//!
//! # Failing example
//! `require auth public -> trusted` gives `invalid-trust`.
//!
//! # SMT encoding
//! See [`crate::smt`]: `require auth` is `unauth_reach` over the witness chain (no vertex after
//! the first has auth), `deny flow … when data` a data reach; both with the path axioms
//! instantiated along the chain, as for `invariant`'s chain rules.

use crate::check::Checker;
use crate::model::{DeclarationKind, RuleBody, RuleKind};
use crate::syntax::ast::{RuleBlock, TrustRule};

impl Checker<'_> {
    /// Checks a trust policy and adds its rules to the model.
    pub fn check_trust_policy(&mut self, block: &RuleBlock<TrustRule>) {
        self.declare(DeclarationKind::TrustPolicy, &block.name);
        for parsed in &block.rules {
            let checked = match &parsed.rule {
                TrustRule::RequireAuth { from, to } => {
                    let from = self.resolve_rule_trust(from);
                    let to = self.resolve_rule_trust(to);
                    from.zip(to).map(|(from, to)| {
                        (RuleKind::RequireAuth, RuleBody::TrustBoundary { from, to })
                    })
                }
                TrustRule::DenyFlowWhenData {
                    from,
                    to,
                    classification,
                } => {
                    let from = self.resolve_rule_trust(from);
                    let to = self.resolve_rule_trust(to);
                    let is_label_known = self.resolve_classification(classification);
                    from.zip(to).filter(|_| is_label_known).map(|(from, to)| {
                        let body = RuleBody::TrustDataFlow {
                            from,
                            to,
                            classification: classification.text.clone(),
                        };
                        (RuleKind::DenyFlowWhenData, body)
                    })
                }
            };
            if let Some((kind, body)) = checked {
                self.push_rule(
                    kind,
                    DeclarationKind::TrustPolicy,
                    &block.name,
                    parsed,
                    body,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests;
