//! The human renderer: findings with source code frames, the rule citation, and a summary line.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

use crate::error::EngineError;
use crate::verdict::{ArchitectureViolation, Detected, Verdict};

/// Lines of context on each side of the evidence line in a code frame.
const FRAME_CONTEXT: usize = 2;

/// The text of a project file as the check read it (`crate::scope::Scope::text_reader`): under
/// the staged and `--diff` scopes the git blob that was checked, never the work tree.
pub type SourceText<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The evidence line (1-based) with `FRAME_CONTEXT` lines on each side, as written in the file.
pub fn source_lines(source: SourceText<'_>, file: &str, line: u32) -> Option<String> {
    let text = source(file)?;
    let lines: Vec<&str> = text.lines().collect();
    let target = usize::try_from(line).ok()?.checked_sub(1)?;
    lines.get(target)?;
    let first = target.saturating_sub(FRAME_CONTEXT);
    let last = (target + FRAME_CONTEXT).min(lines.len().saturating_sub(1));
    Some(lines.get(first..=last)?.join("\n"))
}

/// The source lines around `line` (1-based), numbered, with a marker on `line`.
pub fn code_frame(
    source: SourceText<'_>,
    file: &str,
    line: u32,
    column: Option<u32>,
) -> Option<String> {
    let text = source(file)?;
    let lines: Vec<&str> = text.lines().collect();
    let target = usize::try_from(line).ok()?.checked_sub(1)?;
    lines.get(target)?;
    let first = target.saturating_sub(FRAME_CONTEXT);
    let last = (target + FRAME_CONTEXT).min(lines.len().saturating_sub(1));
    let width = (last + 1).to_string().len();
    let mut frame = String::new();
    for (index, source) in lines.iter().enumerate().take(last + 1).skip(first) {
        let marker = if index == target { ">" } else { " " };
        frame.push_str(&format!("  {marker} {:>width$} | {source}\n", index + 1));
        if index == target {
            if let Some(column) = column {
                let pad = usize::try_from(column).unwrap_or(1).saturating_sub(1);
                frame.push_str(&format!("    {:>width$} | {}^\n", "", " ".repeat(pad)));
            }
        }
    }
    Some(frame)
}

/// Writes the human report; each `explain` hint carries `check_flags`, the flags of the check
/// (`crate::agent::check_flags`).
///
/// Findings located at the same edge, when chain findings are among them (the change that closes
/// forbidden paths), are written together under that edge, where the first of them stands, so a
/// reviewer sees the change first: "import of `x` closes 3 forbidden path(s)".
pub fn write(
    out: &mut dyn Write,
    verdict: &Verdict,
    source: SourceText<'_>,
    check_flags: &str,
) -> std::io::Result<()> {
    let site = |violation: &ArchitectureViolation| {
        let detected = &violation.detected;
        (
            detected.file.clone(),
            detected.line,
            detected.column,
            detected.evidence.clone(),
        )
    };
    // Findings at one site, where a chain finding is among them: the edge closes paths (a
    // `deny flow` finding of the same import stands with them).
    let mut closers: BTreeMap<_, Vec<&ArchitectureViolation>> = BTreeMap::new();
    for violation in &verdict.violations {
        closers.entry(site(violation)).or_default().push(violation);
    }
    closers.retain(|_, group| {
        group.len() > 1 && group.iter().any(|member| member.detected.files.is_some())
    });
    let mut written: BTreeSet<&str> = BTreeSet::new();
    for violation in &verdict.violations {
        if written.contains(violation.id.as_str()) {
            continue;
        }
        let group = closers.get(&site(violation));
        let Some(group) = group else {
            write_violation(out, violation, source, check_flags, true)?;
            continue;
        };
        let detected = &violation.detected;
        let blocking = group.iter().filter(|member| member.blocking).count();
        let paths = group
            .iter()
            .filter(|member| member.detected.files.is_some())
            .count();
        let others = group.len() - paths;
        writeln!(
            out,
            "{}[closes-paths]: {} closes {paths} forbidden path(s){}{}",
            if blocking > 0 { "error" } else { "note" },
            detected.evidence,
            if others == 0 {
                String::new()
            } else {
                format!(" and breaks {others} other rule(s)")
            },
            if blocking == group.len() {
                String::new()
            } else {
                format!(" ({blocking} blocking)")
            }
        )?;
        write_location(out, detected, source)?;
        for member in group {
            written.insert(member.id.as_str());
            write_violation(out, member, source, check_flags, false)?;
        }
    }
    for warning in &verdict.warnings {
        let location = match (&warning.file, warning.line) {
            (Some(file), Some(line)) => format!("{file}:{line}: "),
            (Some(file), None) => format!("{file}: "),
            _ => String::new(),
        };
        writeln!(
            out,
            "{location}warning[{}]: {}",
            warning.code, warning.message
        )?;
    }
    if !verdict.warnings.is_empty() {
        writeln!(out)?;
    }
    for diagnostic in &verdict.solver_diagnostics {
        if matches!(diagnostic.status, "unknown" | "error") {
            writeln!(
                out,
                "undecided[{}]: slice {} for `{}` ({}): {}",
                diagnostic.status,
                diagnostic.id,
                diagnostic.rule,
                diagnostic.reason.clone().unwrap_or_default(),
                diagnostic.suggested_refactor.clone().unwrap_or_default()
            )?;
        }
    }
    write_other_entries(out, verdict, check_flags)?;
    let blocking = crate::render::blocking_entries(verdict).len();
    let undecided = verdict
        .solver_diagnostics
        .iter()
        .filter(|diagnostic| matches!(diagnostic.status, "unknown" | "error"))
        .count();
    let summary = if verdict.passed { "PASS" } else { "FAIL" };
    let excluded = verdict
        .stats
        .files_excluded
        .map(|count| format!(" ({count} excluded)"))
        .unwrap_or_default();
    writeln!(
        out,
        "{summary}: {blocking} blocking finding(s), {} warning(s), {undecided} undecided slice(s); {} file(s){excluded}, {} fact(s), {} slice(s) in {} ms",
        verdict.warnings.len(),
        verdict.stats.files_scanned,
        verdict.stats.facts,
        verdict.stats.slices,
        verdict.stats.elapsed_ms
    )?;
    out.flush()
}

/// Writes an error for humans: spec diagnostics in the `path:line:col: error[code]: message` format.
pub fn write_error(out: &mut dyn Write, error: &EngineError) {
    let diagnostics = error.diagnostics();
    if diagnostics.is_empty() {
        let _ = writeln!(out, "error[{}]: {error}", error.code());
        return;
    }
    for diagnostic in &diagnostics {
        let _ = writeln!(out, "{}", diagnostic.headline());
        if let Some(help) = &diagnostic.help {
            let _ = writeln!(out, "  = help: {help}");
        }
        for related in &diagnostic.related {
            let _ = writeln!(
                out,
                "  = note: {}:{}:{}: {}",
                related.file, related.line, related.column, related.message
            );
        }
    }
    let errors = diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.is_error())
        .count();
    let _ = writeln!(
        out,
        "error: the spec has {errors} error(s); nothing was checked"
    );
}

fn write_location(
    out: &mut dyn Write,
    detected: &Detected,
    source: SourceText<'_>,
) -> std::io::Result<()> {
    writeln!(
        out,
        "  --> {}:{}:{}",
        detected.file,
        detected.line,
        detected.column.unwrap_or(1)
    )?;
    if let Some(frame) = code_frame(source, &detected.file, detected.line, detected.column) {
        write!(out, "{frame}")?;
    }
    Ok(())
}

/// One architecture finding; with `located` false, under its group's location, as an item.
fn write_violation(
    out: &mut dyn Write,
    violation: &ArchitectureViolation,
    source: SourceText<'_>,
    check_flags: &str,
    located: bool,
) -> std::io::Result<()> {
    let detected = &violation.detected;
    let severity = if violation.blocking { "error" } else { "note" };
    if located {
        writeln!(
            out,
            "{severity}[{}]: {}",
            violation.violation_type, violation.message
        )?;
        write_location(out, detected, source)?;
    } else {
        writeln!(
            out,
            "  - {severity}[{}]: {}",
            violation.violation_type, violation.message
        )?;
    }
    if let Some(files) = &detected.files {
        writeln!(out, "  = chain: {}", files.join(" -> "))?;
    } else if let Some(path) = &detected.path {
        writeln!(out, "  = path: {}", path.join(" -> "))?;
    }
    if let Some(occurrences) = &detected.occurrences {
        let places: Vec<String> = occurrences
            .iter()
            .map(|occurrence| format!("{}:{}", occurrence.file, occurrence.line))
            .collect();
        writeln!(out, "  = also at: {}", places.join(", "))?;
    }
    let source = &violation.rule.source;
    writeln!(
        out,
        "  = rule: `{}` in `{}` ({}:{}:{})",
        violation.rule.text, violation.invariant, source.file, source.line, source.column
    )?;
    writeln!(
        out,
        "  = proof: slice {} is unsat; core: {}",
        violation.z3_proof.slice,
        violation.z3_proof.unsat_core.join("; ")
    )?;
    writeln!(
        out,
        "  = explain: {}",
        crate::agent::explain_command(&violation.id, check_flags)
    )?;
    writeln!(out)
}

/// Contract, workflow and change entries: one headline and location each.
fn write_other_entries(
    out: &mut dyn Write,
    verdict: &Verdict,
    check_flags: &str,
) -> std::io::Result<()> {
    for entry in crate::render::other_entries(verdict) {
        writeln!(
            out,
            "{}[{}]: {}\n  --> {}:{}\n  = explain: {}",
            if entry.blocking { "error" } else { "warning" },
            entry.entry_type,
            entry.message,
            entry.file,
            entry.line,
            crate::agent::explain_command(&entry.id, check_flags)
        )?;
    }
    Ok(())
}
