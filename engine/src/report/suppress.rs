//! Findings a team has accepted: the baseline file ([`crate::report::baseline`]) and the spec's waivers.
//!
//! Both run over the assembled entries of the four blocking arrays, after statuses are set and
//! before `passed` and `agent_context` are decided, so that every renderer sees the same result:
//! - a waiver that holds (its `until` day is not past) makes the finding non-blocking and
//!   carries the waiver in `waiver`; an expired one leaves it blocking, with `waiver.expired`
//!   and a `waiver-expired` warning;
//! - a baseline entry makes the finding `existing`, `baselined` and non-blocking; with a baseline
//!   in effect, every other finding of a scope without a merge base (staged, `--all`, `--file`)
//!   is `new` rather than `unchanged`, since the baseline is then the base it is compared with;
//! - when every file and rule is in scope (`--all`, no `--repo-filter`), a baseline entry or a
//!   waiver that matches no finding is a warning (`stale-baseline-entry`,
//!   `waiver-matches-nothing`), so both shrink as the code is fixed. A narrower scope reports only
//!   the findings it touches, so there it warns about none.

use std::collections::BTreeSet;

use policies::model::{Waiver, WaiverTarget};

use crate::input::baseline::Baseline;
use crate::verdict::{
    ArchitectureViolation, ChangeViolation, ContractViolation, SourceRef, Verdict, WaiverRef,
    Warning, WorkflowViolation,
};

/// What the baseline and the waivers read of one entry of the four blocking arrays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FindingView {
    /// Entry id.
    pub id: String,
    /// Entry `type`.
    pub entry_type: String,
    /// The invariant, policy or contract.
    pub declaration: String,
    /// The rule text (for a contract entry, its declared endpoint or the contract).
    pub rule: String,
    /// Where it was found.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// Message.
    pub message: String,
    /// Whether it blocks.
    pub blocking: bool,
    /// Whether a waiver (held or expired) covers it.
    pub waived: bool,
    /// Whether the baseline lists it.
    pub baselined: bool,
}

/// The mutable state of an entry that suppression sets.
struct EntryState<'a> {
    status: &'a mut &'static str,
    blocking: &'a mut bool,
    baselined: &'a mut Option<bool>,
    waiver: &'a mut Option<WaiverRef>,
}

/// An entry of one of the four blocking arrays.
trait Finding {
    fn view(&self) -> FindingView;
    fn state(&mut self) -> EntryState<'_>;
}

macro_rules! state_of {
    ($entry:expr) => {
        EntryState {
            status: &mut $entry.status,
            blocking: &mut $entry.blocking,
            baselined: &mut $entry.baselined,
            waiver: &mut $entry.waiver,
        }
    };
}

impl Finding for ArchitectureViolation {
    fn view(&self) -> FindingView {
        FindingView {
            id: self.id.clone(),
            entry_type: self.violation_type.to_owned(),
            declaration: self.invariant.clone(),
            rule: self.rule.text.clone(),
            file: self.detected.file.clone(),
            line: self.detected.line,
            message: self.message.clone(),
            blocking: self.blocking,
            waived: self.waiver.is_some(),
            baselined: self.baselined == Some(true),
        }
    }
    fn state(&mut self) -> EntryState<'_> {
        state_of!(self)
    }
}

impl Finding for ContractViolation {
    fn view(&self) -> FindingView {
        FindingView {
            id: self.id.clone(),
            entry_type: self.violation_type.to_owned(),
            declaration: self.contract.clone(),
            rule: self
                .declared
                .clone()
                .unwrap_or_else(|| self.contract.clone()),
            file: self.file.clone().unwrap_or_default(),
            line: self.line.unwrap_or(1),
            message: self.message.clone(),
            blocking: self.blocking,
            waived: self.waiver.is_some(),
            baselined: self.baselined == Some(true),
        }
    }
    fn state(&mut self) -> EntryState<'_> {
        state_of!(self)
    }
}

impl Finding for WorkflowViolation {
    fn view(&self) -> FindingView {
        FindingView {
            id: self.id.clone(),
            entry_type: self.violation_type.to_owned(),
            declaration: self.policy.clone(),
            rule: self.rule.text.clone(),
            file: self.file.clone(),
            line: self.line.unwrap_or(1),
            message: self.message.clone(),
            blocking: self.blocking,
            waived: self.waiver.is_some(),
            baselined: self.baselined == Some(true),
        }
    }
    fn state(&mut self) -> EntryState<'_> {
        state_of!(self)
    }
}

impl Finding for ChangeViolation {
    fn view(&self) -> FindingView {
        FindingView {
            id: self.id.clone(),
            entry_type: self.violation_type.to_owned(),
            declaration: self.policy.clone(),
            rule: self.rule.text.clone(),
            file: self.trigger_files.first().cloned().unwrap_or_default(),
            line: 1,
            message: self.message.clone(),
            blocking: self.blocking,
            waived: self.waiver.is_some(),
            baselined: self.baselined == Some(true),
        }
    }
    fn state(&mut self) -> EntryState<'_> {
        state_of!(self)
    }
}

/// Every entry of the four blocking arrays of `verdict`, in array order.
pub fn findings(verdict: &Verdict) -> Vec<FindingView> {
    let mut views: Vec<FindingView> = verdict.violations.iter().map(Finding::view).collect();
    views.extend(verdict.contract_violations.iter().map(Finding::view));
    views.extend(verdict.workflow_violations.iter().map(Finding::view));
    views.extend(verdict.change_violations.iter().map(Finding::view));
    views
}

/// The four blocking arrays of a verdict being assembled.
pub struct Arrays<'a> {
    /// `violations`.
    pub violations: &'a mut [ArchitectureViolation],
    /// `contract_violations`.
    pub contracts: &'a mut [ContractViolation],
    /// `workflow_violations`.
    pub workflows: &'a mut [WorkflowViolation],
    /// `change_violations`.
    pub changes: &'a mut [ChangeViolation],
}

impl Arrays<'_> {
    fn for_each(&mut self, mut visit: impl FnMut(&mut dyn Finding)) {
        for entry in self.violations.iter_mut() {
            visit(entry);
        }
        for entry in self.contracts.iter_mut() {
            visit(entry);
        }
        for entry in self.workflows.iter_mut() {
            visit(entry);
        }
        for entry in self.changes.iter_mut() {
            visit(entry);
        }
    }
}

/// What the suppression of one run needs besides the entries.
pub struct Accepted<'a> {
    /// The baseline in effect, if any.
    pub baseline: Option<&'a Baseline>,
    /// The spec's waivers.
    pub waivers: &'a [Waiver],
    /// The day waivers are judged on, `YYYY-MM-DD`.
    pub today: &'a str,
    /// True when every file and every rule is in scope (`--all` without `--repo-filter`), so that
    /// an entry that matches nothing is known stale.
    pub is_everything: bool,
    /// True when the scope has a merge base (`--diff`), which then decides `new`/`existing`.
    pub has_base: bool,
}

/// The waiver that covers `view`: one naming its id first, then one naming its rule, then one
/// naming its whole declaration; among equals, the first written.
fn waiver_for(waivers: &[Waiver], view: &FindingView) -> Option<usize> {
    let rank = |waiver: &Waiver| match &waiver.target {
        WaiverTarget::Finding { id } => (*id == view.id).then_some(0),
        WaiverTarget::Rule { declaration, rule } if *declaration == view.declaration => {
            match rule {
                Some(rule) => (*rule == view.rule).then_some(1),
                None => Some(2),
            }
        }
        WaiverTarget::Rule { .. } => None,
    };
    waivers
        .iter()
        .enumerate()
        .filter_map(|(index, waiver)| rank(waiver).map(|rank| (rank, index)))
        .min()
        .map(|(_, index)| index)
}

/// What a waiver covers, for messages: `finding \`viol_…\`` or `\`Layers\` (\`deny flow …\`)`.
fn described(target: &WaiverTarget) -> String {
    match target {
        WaiverTarget::Finding { id } => format!("finding `{id}`"),
        WaiverTarget::Rule {
            declaration,
            rule: Some(rule),
        } => format!("`{declaration}` (`{rule}`)"),
        WaiverTarget::Rule {
            declaration,
            rule: None,
        } => format!("`{declaration}`"),
    }
}

/// Applies the waivers, then the baseline, to the entries and returns the warnings they raise.
pub fn apply(accepted: &Accepted<'_>, arrays: &mut Arrays<'_>) -> Vec<Warning> {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    // Per waiver: how many findings it covers.
    let mut covered = vec![0_usize; accepted.waivers.len()];
    arrays.for_each(|entry| {
        let view = entry.view();
        seen.insert(view.id.clone());
        let state = entry.state();
        if let Some(index) = waiver_for(accepted.waivers, &view) {
            let Some(waiver) = accepted.waivers.get(index) else {
                return;
            };
            if let Some(count) = covered.get_mut(index) {
                *count += 1;
            }
            // INVARIANT: both dates are checked `YYYY-MM-DD`, so text order is day order.
            let is_expired = accepted.today > waiver.until.as_str();
            if !is_expired {
                *state.blocking = false;
            }
            *state.waiver = Some(WaiverRef {
                until: waiver.until.clone(),
                owner: waiver.owner.clone(),
                reason: waiver.reason.clone(),
                expired: is_expired,
                source: SourceRef {
                    file: waiver.source.file.clone(),
                    line: waiver.source.line,
                    column: waiver.source.column,
                },
            });
            return;
        }
        let Some(baseline) = accepted.baseline else {
            return;
        };
        if baseline.contains(&view.id) {
            *state.status = "existing";
            *state.blocking = false;
            *state.baselined = Some(true);
        } else if !accepted.has_base && *state.status == "unchanged" {
            *state.status = "new";
        }
    });
    let mut warnings = Vec::new();
    for (waiver, count) in accepted.waivers.iter().zip(&covered) {
        let is_expired = accepted.today > waiver.until.as_str();
        if *count > 0 && is_expired {
            warnings.push(Warning {
                code: "waiver-expired".into(),
                message: format!(
                    "the waiver of {} expired on {} (owner {}): its {count} finding(s) block again; fix them or extend the waiver",
                    described(&waiver.target),
                    waiver.until,
                    waiver.owner
                ),
                file: Some(waiver.source.file.clone()),
                line: Some(waiver.source.line),
                ..Warning::default()
            });
        } else if *count == 0 && accepted.is_everything {
            warnings.push(Warning {
                code: "waiver-matches-nothing".into(),
                message: format!(
                    "the waiver of {} matches no finding: remove it",
                    described(&waiver.target)
                ),
                file: Some(waiver.source.file.clone()),
                line: Some(waiver.source.line),
                ..Warning::default()
            });
        }
    }
    let Some(baseline) = accepted.baseline else {
        return warnings;
    };
    if !accepted.is_everything {
        return warnings;
    }
    warnings.extend(
        baseline
            .entries
            .iter()
            .filter(|(id, _)| !seen.contains(*id))
            .map(|(id, (entry, line))| Warning {
                code: "stale-baseline-entry".into(),
                message: format!(
                    "baseline entry `{id}` no longer occurs ({} of `{}` at {}:{}): run `lintel baseline` to drop it",
                    entry.entry_type, entry.rule, entry.file, entry.line
                ),
                file: Some(baseline.file.clone()),
                line: Some(*line),
                ..Warning::default()
            }),
    );
    warnings
}

#[cfg(test)]
mod tests {
    use policies::model::{SourceLocation, Waiver, WaiverTarget};

    use super::{waiver_for, FindingView};

    fn waiver(target: WaiverTarget, line: u32) -> Waiver {
        Waiver {
            target,
            until: "2027-03-31".into(),
            owner: "o".into(),
            reason: "r".into(),
            source: SourceLocation {
                file: "architecture.ag".into(),
                line,
                column: 1,
            },
        }
    }

    fn rule(declaration: &str, rule: Option<&str>) -> WaiverTarget {
        WaiverTarget::Rule {
            declaration: declaration.into(),
            rule: rule.map(str::to_owned),
        }
    }

    #[test]
    fn an_id_waiver_beats_a_rule_waiver_which_beats_a_declaration_waiver() {
        let view = FindingView {
            id: "viol_00000000000000aa".into(),
            entry_type: "flow_violation".into(),
            declaration: "Layers".into(),
            rule: "deny flow Api -> Db".into(),
            file: "api/a.ts".into(),
            line: 1,
            message: String::new(),
            blocking: true,
            waived: false,
            baselined: false,
        };
        let whole = waiver(rule("Layers", None), 1);
        let other_rule = waiver(rule("Layers", Some("deny flow Web -> Db")), 2);
        let this_rule = waiver(rule("Layers", Some("deny flow Api -> Db")), 3);
        let other_declaration = waiver(rule("Other", None), 4);
        let by_id = waiver(
            WaiverTarget::Finding {
                id: "viol_00000000000000aa".into(),
            },
            5,
        );
        let all = [
            whole.clone(),
            other_rule.clone(),
            this_rule.clone(),
            other_declaration.clone(),
            by_id,
        ];
        assert_eq!(waiver_for(&all, &view), Some(4));
        assert_eq!(waiver_for(all.get(..4).unwrap(), &view), Some(2));
        assert_eq!(waiver_for(all.get(..2).unwrap(), &view), Some(0));
        // Among equals the first written wins.
        assert_eq!(waiver_for(&[whole.clone(), whole], &view), Some(0));
        assert_eq!(waiver_for(&[other_rule, other_declaration], &view), None);
    }
}
