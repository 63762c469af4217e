//! `data_policy`: where labelled data may go.
//!
//! # What it checks
//! Classifications and jurisdictions are labels that some data uses (`unknown-classification`,
//! `unknown-jurisdiction`); trust levels are valid (`invalid-trust`) and, as a warning, used by
//! some entity (`trust-level-unused`); a jurisdiction target is an entity (`unknown-entity`).
//!
//! # Why
//! A label no data carries would never reach anything, so the rule could never fire.
//!
//! # Data reach
//! Data starts at the components that declare `handles: D` and travels along chains of files in
//! the direction of the edges, from caller to callee (see `invariant`: a chain is a sequence of
//! edges between files, never two component edges that no file joins). Data D reaches T via its
//! handler H when a chain leads from a file of H to a file of T, or to the entity T. Each finding
//! is one (data, handler, target) with the shortest chain as witness: `detected.path` lists the
//! components and entities along it, `detected.files` its files.
//!
//! # Passing example
//! `data_policy Privacy { deny classification pii -> untrusted ; deny jurisdiction eu -> partner }`
//!
//! # Failing example
//! `deny classification phi -> untrusted` gives `unknown-classification`.
//!
//! # SMT encoding
//! See [`crate::smt`]: the handler's `(handles H D)` and the witness chain from H to the target,
//! with the path axioms instantiated along it, as for `invariant`'s chain rules.

use crate::check::Checker;
use crate::model::{DeclarationKind, RuleBody, RuleKind};
use crate::syntax::ast::{DataPolicyRule, RuleBlock};

impl Checker<'_> {
    /// Checks a data policy and adds its rules to the model.
    pub fn check_data_policy(&mut self, block: &RuleBlock<DataPolicyRule>) {
        self.declare(DeclarationKind::DataPolicy, &block.name);
        for parsed in &block.rules {
            let checked = match &parsed.rule {
                DataPolicyRule::Classification { label, trust } => {
                    let is_label_known = self.resolve_classification(label);
                    let trust = self.resolve_rule_trust(trust);
                    trust.filter(|_| is_label_known).map(|trust| {
                        let body = RuleBody::Classification {
                            classification: label.text.clone(),
                            trust,
                        };
                        (RuleKind::DenyClassification, body)
                    })
                }
                DataPolicyRule::Jurisdiction { label, entity } => {
                    let is_label_known = self.resolve_jurisdiction(label);
                    let is_entity_known = self.resolve_entity(entity);
                    (is_label_known && is_entity_known).then(|| {
                        let body = RuleBody::Jurisdiction {
                            jurisdiction: label.text.clone(),
                            entity: entity.text.clone(),
                        };
                        (RuleKind::DenyJurisdiction, body)
                    })
                }
            };
            if let Some((kind, body)) = checked {
                self.push_rule(kind, DeclarationKind::DataPolicy, &block.name, parsed, body);
            }
        }
    }
}

#[cfg(test)]
mod tests;
