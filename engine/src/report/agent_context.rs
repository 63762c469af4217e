//! `agent_context`: plain text for a coding agent (see `agent_context` in docs/VERDICT.md), at most 4,000
//! Unicode scalar values, deterministic.

use std::collections::BTreeSet;

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
