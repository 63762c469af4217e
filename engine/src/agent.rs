//! `agent_context`: plain text for a coding agent (`verdict-v2.md` §agent_context), at most 4,000
//! Unicode scalar values, deterministic.

use std::collections::{BTreeMap, BTreeSet};

use crate::report::FindingDetail;
use crate::verdict::ArchitectureViolation;

/// The limit in Unicode scalar values.
pub const LIMIT: usize = 4_000;

fn block(
    number: usize,
    violation: &ArchitectureViolation,
    detail: Option<&FindingDetail>,
) -> String {
    let detected = &violation.detected;
    let source = &violation.rule.source;
    let fix = detail
        .map(|detail| detail.suggested_fix.clone())
        .unwrap_or_default();
    format!(
        "{number}. {}: {}\n   at: {}:{}\n   rule: {} ({}:{}, in `{}`)\n   fix: {fix}\n   explain: lintel explain --violation {}\n",
        violation.violation_type,
        violation.message,
        detected.file,
        detected.line,
        violation.rule.text,
        source.file,
        source.line,
        violation.invariant,
        violation.id
    )
}

/// Builds the `agent_context` text for a finished check.
pub fn agent_context(
    violations: &[ArchitectureViolation],
    undecided: usize,
    details: &BTreeMap<String, FindingDetail>,
    rerun_command: &str,
) -> String {
    let blocking: Vec<&ArchitectureViolation> = violations
        .iter()
        .filter(|violation| violation.blocking)
        .collect();
    let footer = format!("\nRe-run: {rerun_command}\n");
    if blocking.is_empty() && undecided == 0 {
        return format!("PASS\n{footer}");
    }
    let files: BTreeSet<&str> = blocking
        .iter()
        .map(|violation| violation.detected.file.as_str())
        .collect();
    let mut text = format!(
        "FAIL: {} blocking finding(s) in {} file(s), {undecided} undecided rule slice(s)\n",
        blocking.len(),
        files.len()
    );
    if undecided > 0 {
        text.push_str("Undecided slices fail the check closed: see solver_diagnostics[] for the slices and their suggested_refactor.\n");
    }
    let mut shown = 0;
    for (index, violation) in blocking.iter().enumerate() {
        let entry = format!(
            "\n{}",
            block(index + 1, violation, details.get(&violation.id))
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
