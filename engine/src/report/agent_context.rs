//! `agent_context`: plain text for a coding agent (see `agent_context` in docs/VERDICT.md), at most 4,000
//! Unicode scalar values, deterministic.

use std::collections::{BTreeMap, BTreeSet};

use super::FindingDetail;
use crate::verdict::{
    ArchitectureViolation, ChangeViolation, ContractViolation, WorkflowViolation,
};

/// The limit in Unicode scalar values.
pub const LIMIT: usize = 4_000;

/// One blocking entry of the four blocking arrays, as the agent sees it.
#[derive(Debug, Clone)]
pub struct AgentEntry {
    /// Entry `type`.
    pub violation_type: String,
    /// One-sentence message.
    pub message: String,
    /// Evidence file.
    pub file: String,
    /// Evidence line.
    pub line: u32,
    /// The rule text (a contract entry: its declared endpoint or contract).
    pub rule_text: String,
    /// Where the rule is written, `file:line`.
    pub rule_at: String,
    /// Invariant, policy or contract name.
    pub declaration: String,
    /// Entry id.
    pub id: String,
    /// A concrete fix direction.
    pub fix: String,
}

/// The `explain` command for entry `id` with `check_flags` (from [`crate::input::options::check_flags`]), the flags of
/// the check that found it, so that pasting it from the project root re-runs that scope
/// (see The explain document in docs/VERDICT.md).
pub fn explain_command(id: &str, check_flags: &str) -> String {
    format!("lintel explain --violation {id}{check_flags}")
}

fn block(number: usize, entry: &AgentEntry, check_flags: &str) -> String {
    format!(
        "{number}. {}: {}\n   at: {}:{}\n   rule: {} ({}, in `{}`)\n   fix: {}\n   explain: {}\n",
        entry.violation_type,
        entry.message,
        entry.file,
        entry.line,
        entry.rule_text,
        entry.rule_at,
        entry.declaration,
        entry.fix,
        explain_command(&entry.id, check_flags)
    )
}

/// Builds the `agent_context` text for a finished check from its blocking entries, in array order.
pub fn agent_context(
    blocking: &[AgentEntry],
    undecided_slices: &[&crate::verdict::SolverDiagnostic],
    rerun_command: &str,
) -> String {
    let undecided = undecided_slices.len();
    let footer = format!("\nRe-run: {rerun_command}\n");
    if blocking.is_empty() && undecided == 0 {
        return format!("PASS\n{footer}");
    }
    let files: BTreeSet<&str> = blocking.iter().map(|entry| entry.file.as_str()).collect();
    let mut text = format!(
        "FAIL: {} blocking finding(s) in {} file(s), {undecided} undecided rule slice(s)\n",
        blocking.len(),
        files.len()
    );
    if undecided > 0 {
        text.push_str("Undecided slices fail the check closed (see solver_diagnostics[]):\n");
        for slice in undecided_slices.iter().take(5) {
            text.push_str(&format!(
                "- `{}` in `{}` ({}:{}): {} ({}); {}\n",
                slice.rule,
                slice.declaration,
                slice.source_file.clone().unwrap_or_default(),
                slice.line.unwrap_or_default(),
                slice.status,
                slice.reason.clone().unwrap_or_default(),
                slice.suggested_refactor.clone().unwrap_or_default()
            ));
        }
        if undecided > 5 {
            text.push_str(&format!(
                "- ... and {} more undecided slice(s)\n",
                undecided - 5
            ));
        }
    }
    let mut shown = 0;
    for (index, entry) in blocking.iter().enumerate() {
        let entry = format!(
            "\n{}",
            block(
                index + 1,
                entry,
                crate::input::options::check_flags(rerun_command)
            )
        );
        let remaining = blocking.len() - index;
        let tail = format!("\n... and {remaining} more (see violations[])\n");
        let projected = text.chars().count() + entry.chars().count() + footer.chars().count();
        let tail_room = if remaining > 1 {
            tail.chars().count()
        } else {
            0
        };
        if projected + tail_room > LIMIT {
            break;
        }
        text.push_str(&entry);
        shown += 1;
    }
    if shown < blocking.len() {
        text.push_str(&format!(
            "\n... and {} more (see violations[])\n",
            blocking.len() - shown
        ));
    }
    text.push_str(&footer);
    truncate(text)
}

/// An error verdict's `agent_context`.
pub fn error_context(message: &str, rerun_command: &str) -> String {
    truncate(format!("ERROR: {message}\n\nRe-run: {rerun_command}\n"))
}

fn truncate(text: String) -> String {
    if text.chars().count() <= LIMIT {
        return text;
    }
    text.chars().take(LIMIT).collect()
}

/// The blocking entries of the four arrays, in array order, for `agent_context`.
pub(super) fn agent_entries(
    violations: &[ArchitectureViolation],
    contracts: &[ContractViolation],
    workflows: &[WorkflowViolation],
    changes: &[ChangeViolation],
    details: &BTreeMap<String, FindingDetail>,
) -> Vec<AgentEntry> {
    let fix = |id: &str| {
        details
            .get(id)
            .map(|detail| detail.suggested_fix.clone())
            .unwrap_or_default()
    };
    let citation = |id: &str| {
        details
            .get(id)
            .map(|detail| detail.spec_citation.clone())
            .unwrap_or_default()
    };
    let mut entries = Vec::new();
    for violation in violations.iter().filter(|entry| entry.blocking) {
        let source = &violation.rule.source;
        entries.push(AgentEntry {
            violation_type: violation.violation_type.to_owned(),
            message: violation.message.clone(),
            file: violation.detected.file.clone(),
            line: violation.detected.line,
            rule_text: violation.rule.text.clone(),
            rule_at: format!("{}:{}", source.file, source.line),
            declaration: violation.invariant.clone(),
            id: violation.id.clone(),
            fix: fix(&violation.id),
        });
    }
    for entry in contracts.iter().filter(|entry| entry.blocking) {
        let at = citation(&entry.id);
        entries.push(AgentEntry {
            violation_type: entry.violation_type.to_owned(),
            message: entry.message.clone(),
            file: entry.file.clone().unwrap_or_default(),
            line: entry.line.unwrap_or(1),
            rule_text: entry
                .declared
                .clone()
                .unwrap_or_else(|| entry.contract.clone()),
            rule_at: at
                .rsplit_once(':')
                .map(|(head, _)| head.to_owned())
                .unwrap_or(at),
            declaration: entry.contract.clone(),
            id: entry.id.clone(),
            fix: fix(&entry.id),
        });
    }
    for entry in workflows.iter().filter(|entry| entry.blocking) {
        entries.push(AgentEntry {
            violation_type: entry.violation_type.to_owned(),
            message: entry.message.clone(),
            file: entry.file.clone(),
            line: entry.line.unwrap_or(1),
            rule_text: entry.rule.text.clone(),
            rule_at: format!("{}:{}", entry.rule.source.file, entry.rule.source.line),
            declaration: entry.policy.clone(),
            id: entry.id.clone(),
            fix: fix(&entry.id),
        });
    }
    for entry in changes.iter().filter(|entry| entry.blocking) {
        entries.push(AgentEntry {
            violation_type: entry.violation_type.to_owned(),
            message: entry.message.clone(),
            file: entry.trigger_files.first().cloned().unwrap_or_default(),
            line: 1,
            rule_text: entry.rule.text.clone(),
            rule_at: format!("{}:{}", entry.rule.source.file, entry.rule.source.line),
            declaration: entry.policy.clone(),
            id: entry.id.clone(),
            fix: fix(&entry.id),
        });
    }
    entries
}
