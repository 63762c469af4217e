//! `waive`: a reviewed exception to a rule or to one finding, with an owner, a reason and an expiry.
//!
//! ```text
//! waive = "waive" TARGET [ STRING ] "until" DATE "owner" STRING "reason" STRING ;
//! ```
//! `TARGET` is either a finding id as the verdict prints it (`viol_` and 16 hex digits), which
//! waives that one finding, or the name of an invariant, policy or contract, which waives every
//! finding of its rules; the optional string then narrows it to one of its rules, written as the
//! verdict's `rule.text` writes it (`"deny flow Web -> db"`; spaces between tokens do not matter).
//! `DATE` is the last day the waiver holds, `YYYY-MM-DD`, bare or quoted.
//!
//! A waived finding stays in its verdict array, with `blocking: false` and a `waiver` object
//! (`until`, `owner`, `reason`, `expired`, `source`), so the exception stays visible; SARIF output
//! marks it as an accepted in-source suppression. From the day after `until` the waiver has
//! expired: the finding blocks again, its `waiver` says `expired: true`, and the check adds a
//! `waiver-expired` warning at the waiver. A `lintel check --all` that finds nothing a waiver
//! covers warns `waiver-matches-nothing`, so waivers are removed once the code is fixed (a narrower
//! scope reports only the findings it touches, so it cannot tell). `--today YYYY-MM-DD` judges
//! expiry as of another day.
//!
//! # What it checks
//! The target is a finding id or a declared invariant, policy or contract
//! (`unknown-waiver-target`, with a "did you mean" help); the rule string is the text of one of
//! that declaration's rules (`unknown-waiver-rule`, whose help lists them), and a finding id takes
//! no rule string (also `unknown-waiver-rule`); the date is a real calendar day written
//! `YYYY-MM-DD` (`invalid-waiver-date`); owner and reason are not empty (`empty-waiver-field`).
//!
//! # Why
//! A team adopting a rule on an old codebase needs to accept some findings for a while without
//! turning the rule off. Writing the exception in the spec puts it through review, names who owns
//! it and why, and its expiry makes sure it is looked at again. A waiver that names no rule could
//! never apply, so it is an error rather than a silent no-op.
//!
//! # Passing example
//! `waive Layers "deny flow Web -> db" until 2027-03-31 owner "payments" reason "legacy export, ticket 812"`,
//! where `invariant Layers { deny flow Web -> db }` is declared; or
//! `waive viol_3f2a9c0d1e2b4a5f until "2027-03-31" owner "payments" reason "ticket 812"`.
//!
//! # Failing example
//! `waive Layers "deny flow Web -> Db" until 2027-02-30 owner "" reason "x"` gives
//! `unknown-waiver-rule` (the rule is `deny flow Web -> db`), `invalid-waiver-date` (February has
//! no 30th) and `empty-waiver-field` (the owner).
//!
//! # SMT encoding
//! None: waivers do not change what is proved. They are applied to the findings after solving,
//! by id or by the rule that produced them.

use crate::check::Checker;
use crate::error::{Code, SpecError};
use crate::model::{is_calendar_date, Waiver, WaiverTarget};
use crate::syntax::ast::{Decl, WaiveDecl};

/// True when `word` is a finding id: `viol_` and 16 lowercase hex digits.
pub fn is_finding_id(word: &str) -> bool {
    word.strip_prefix("viol_").is_some_and(|hex| {
        hex.len() == 16
            && hex
                .bytes()
                .all(|byte| byte.is_ascii_digit() || (b'a'..=b'f').contains(&byte))
    })
}

/// A rule text with its whitespace runs made single spaces.
fn normalised(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Checker<'_> {
    /// Checks every `waive` declaration and adds the valid ones to the model. Runs after every
    /// other declaration is checked, since a waiver may name a rule declared after it.
    pub fn check_waivers(&mut self, decls: &[Decl]) {
        // A declaration cut short by an error lacks some rules: naming one is then no news.
        let had_errors = self
            .errors
            .iter()
            .any(|error| error.code.severity() == crate::diagnostic::Severity::Error);
        for decl in decls {
            if let Decl::Waive(waive) = decl {
                if let Some(waiver) = self.check_waiver(waive, had_errors) {
                    self.model.waivers.push(waiver);
                }
            }
        }
    }

    fn check_waiver(&mut self, waive: &WaiveDecl, had_errors: bool) -> Option<Waiver> {
        let mut is_valid = true;
        if !is_calendar_date(&waive.until.text) {
            let message = format!(
                "invalid waiver date `{}`: expected a calendar day written YYYY-MM-DD",
                waive.until.text
            );
            self.report(Code::InvalidWaiverDate, waive.until.span, message);
            is_valid = false;
        }
        for (field, literal) in [("owner", &waive.owner), ("reason", &waive.reason)] {
            if literal.value.trim().is_empty() {
                let message = format!("the waiver's `{field}` is empty");
                self.report(Code::EmptyWaiverField, literal.span, message);
                is_valid = false;
            }
        }
        let target = &waive.target;
        let waiver_target = if is_finding_id(&target.text) {
            if let Some(rule) = &waive.rule {
                let message = format!(
                    "a waiver of finding `{}` names no rule: remove `\"{}\"`",
                    target.text, rule.value
                );
                self.report(Code::UnknownWaiverRule, rule.span, message);
                is_valid = false;
            }
            WaiverTarget::Finding {
                id: target.text.clone(),
            }
        } else {
            let declarations: Vec<String> = self
                .model
                .declarations
                .iter()
                .map(|declaration| declaration.name.clone())
                .chain(
                    self.model
                        .contracts
                        .iter()
                        .map(|contract| contract.name.clone()),
                )
                .collect();
            if !declarations.contains(&target.text) {
                let suggestion =
                    self.suggest(&target.text, declarations.iter().map(String::as_str));
                let message = format!(
                    "unknown waiver target `{}`: not a finding id (`viol_` and 16 hex digits) or a declared invariant, policy or contract",
                    target.text
                );
                let error = SpecError::new(Code::UnknownWaiverTarget, target.span, message)
                    .with_suggestion(suggestion);
                self.errors.push(error);
                return None;
            }
            let rule = waive.rule.as_ref().map(|rule| normalised(&rule.value));
            if let (Some(rule), Some(literal)) = (&rule, &waive.rule) {
                let texts: Vec<&str> = self
                    .model
                    .rules
                    .iter()
                    .filter(|candidate| candidate.declaration == target.text)
                    .map(|candidate| candidate.text.as_str())
                    .collect();
                if !had_errors && !texts.iter().any(|text| normalised(text) == *rule) {
                    let listed: Vec<String> =
                        texts.iter().map(|text| format!("`{text}`")).collect();
                    let message = format!("`{}` has no rule `{}`", target.text, literal.value);
                    let help = if listed.is_empty() {
                        format!("`{}` has no rules to waive", target.text)
                    } else {
                        format!("its rules are {}", listed.join(", "))
                    };
                    let error = SpecError::new(Code::UnknownWaiverRule, literal.span, message)
                        .with_help(help);
                    self.errors.push(error);
                    is_valid = false;
                }
            }
            WaiverTarget::Rule {
                declaration: target.text.clone(),
                rule,
            }
        };
        is_valid.then(|| Waiver {
            target: waiver_target,
            until: waive.until.text.clone(),
            owner: waive.owner.value.clone(),
            reason: waive.reason.value.clone(),
            source: self.location(target.span),
        })
    }
}

#[cfg(test)]
mod tests;
