//! `data_policy` (`language.md` §2.18): where labelled data may go.
//!
//! # What it checks
//! Classifications and jurisdictions are labels that some data uses (`unknown-classification`,
//! `unknown-jurisdiction`); trust levels are valid (`invalid-trust`) and, as a warning, used by
//! some entity (`trust-level-unused`); a jurisdiction target is an entity (`unknown-entity`).
//!
//! # Why
//! A label no data carries would never reach anything, so the rule could never fire.
//!
//! # Passing example
//! `data_policy Privacy { deny classification pii -> untrusted ; deny jurisdiction eu -> partner }`
//!
//! # Failing example
//! `deny classification phi -> untrusted` gives `unknown-classification`.
//!
//! # SMT encoding
//! See [`crate::smt`]: data reach over `handles` and the reach closure.

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
