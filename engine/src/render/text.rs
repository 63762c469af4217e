//! The human renderer: findings with source code frames, the rule citation, and a summary line.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

use crate::error::EngineError;
use crate::verdict::{ArchitectureViolation, Detected, Verdict};

/// Lines of context on each side of the evidence line in a code frame.
const FRAME_CONTEXT: usize = 2;

/// The text of a project file as the check read it (`crate::input::scope::Scope::text_reader`): under
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
    frame_of_text(&source(file)?, line, column)
}

/// [`code_frame`] over a file's `text`, already read.
pub fn frame_of_text(text: &str, line: u32, column: Option<u32>) -> Option<String> {
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
/// (`crate::input::options::check_flags`).
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
    let accepted = crate::report::suppress::findings(verdict)
        .iter()
        .filter(|finding| !finding.blocking && (finding.baselined || finding.waived))
        .count();
    let accepted = if accepted == 0 {
        String::new()
    } else {
        format!(" ({accepted} accepted by the baseline or a waiver)")
    };
    let excluded = verdict
        .stats
        .files_excluded
        .map(|count| format!(" ({count} excluded)"))
        .unwrap_or_default();
    writeln!(
        out,
        "{summary}: {blocking} blocking finding(s){accepted}, {} warning(s), {undecided} undecided slice(s); {} file(s){excluded}, {} fact(s), {} slice(s) in {} ms",
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
    write_error_in(out, error, None);
}

/// [`write_error`], with a code frame under each spec diagnostic when `root` (the project the
/// spec's paths are relative to) is known.
pub fn write_error_in(out: &mut dyn Write, error: &EngineError, root: Option<&std::path::Path>) {
    let diagnostics = error.diagnostics();
    if diagnostics.is_empty() {
        let _ = writeln!(out, "error[{}]: {error}", error.code());
        return;
    }
    let _ = write_diagnostics(out, &diagnostics, root);
    let errors = diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.is_error())
        .count();
    let _ = writeln!(
        out,
        "error: the spec has {errors} error(s); nothing was checked"
    );
}

/// Spec diagnostics, each with its headline, the spec line it points at with the span
/// underlined (when `root` is known and the file can be read), then its help and related notes.
/// Each spec file is read once, however many diagnostics point into it.
pub fn write_diagnostics(
    out: &mut dyn Write,
    diagnostics: &[policies::Diagnostic],
    root: Option<&std::path::Path>,
) -> std::io::Result<()> {
    let mut texts: std::collections::BTreeMap<&str, Option<String>> =
        std::collections::BTreeMap::new();
    for diagnostic in diagnostics {
        writeln!(out, "{}", diagnostic.headline())?;
        if let Some(root) = root {
            let text = texts
                .entry(diagnostic.file.as_str())
                .or_insert_with(|| read_spec(root, &diagnostic.file));
            if let Some(frame) = text.as_deref().and_then(|text| frame_in(text, diagnostic)) {
                write!(out, "{frame}")?;
            }
        }
        if let Some(help) = &diagnostic.help {
            writeln!(out, "  = help: {help}")?;
        }
        for related in &diagnostic.related {
            writeln!(
                out,
                "  = note: {}:{}:{}: {}",
                related.file, related.line, related.column, related.message
            )?;
        }
    }
    Ok(())
}

/// A spec file, read as the spec was: a regular file, bounded by the spec size limit.
fn read_spec(root: &std::path::Path, file: &str) -> Option<String> {
    let bytes =
        policies::read::read_regular_file(&root.join(file), policies::load::MAX_FILE_BYTES).ok()?;
    String::from_utf8(bytes).ok()
}

/// The most characters of a spec line a code frame shows.
const FRAME_WIDTH: usize = 120;

/// The spec line a diagnostic points at, numbered, with `^` under its span (to the end of the
/// line when the span runs on), as miette and rustc draw it:
/// ```text
///    |
///  2 | component Api { runs_on: app paths: "api/**"
///    |               ^
/// ```
#[cfg(test)]
pub fn spec_frame(root: &std::path::Path, diagnostic: &policies::Diagnostic) -> Option<String> {
    frame_in(&read_spec(root, &diagnostic.file)?, diagnostic)
}

/// [`spec_frame`] over the spec file's `text`.
fn frame_in(text: &str, diagnostic: &policies::Diagnostic) -> Option<String> {
    let index = usize::try_from(diagnostic.line).ok()?.checked_sub(1)?;
    let line = text.lines().nth(index)?;
    // A tab counts as one column (spans count Unicode scalar values): show it as one space.
    let shown: Vec<char> = line.replace('\t', " ").chars().collect();
    let column = usize::try_from(diagnostic.column).ok()?.max(1);
    let span = text
        .get(diagnostic.offset..diagnostic.end_offset.max(diagnostic.offset))
        .unwrap_or_default();
    let span_width = span.lines().next().unwrap_or_default().chars().count();
    // A long line is shown as a window around the span, so that a frame stays one screen wide
    // whatever the line (a spec of one two-megabyte line must not print it once per error).
    let start = if shown.len() > FRAME_WIDTH {
        (column - 1)
            .saturating_sub(FRAME_WIDTH / 3)
            .min(shown.len())
    } else {
        0
    };
    let end = shown.len().min(start + FRAME_WIDTH);
    let window: String = shown.get(start..end).unwrap_or_default().iter().collect();
    let (before, after) = (
        if start > 0 { "…" } else { "" },
        if end < shown.len() { "…" } else { "" },
    );
    let shown = format!("{before}{window}{after}");
    let in_window = column - start;
    let room = (end - start).saturating_sub(in_window - 1);
    let carets = span_width.min(room).max(1);
    let column = in_window + before.chars().count();
    let number = diagnostic.line.to_string();
    let gutter = " ".repeat(number.len());
    Some(format!(
        " {gutter} |\n {number} | {shown}\n {gutter} | {}{}\n",
        " ".repeat(column - 1),
        "^".repeat(carets)
    ))
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
    if let Some(note) = crate::render::acceptance(violation.baselined, violation.waiver.as_ref()) {
        writeln!(out, "  = {note}")?;
    }
    if let (Some(files), Some(public)) = (&detected.files, &detected.public_files) {
        writeln!(out, "  = imports: {}", files.join(", "))?;
        writeln!(out, "  = public files: {}", public.join(", "))?;
    } else if let Some(files) = &detected.files {
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
        crate::report::agent_context::explain_command(&violation.id, check_flags)
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
            "{}[{}]: {}\n  --> {}:{}",
            if entry.blocking { "error" } else { "warning" },
            entry.entry_type,
            entry.message,
            entry.file,
            entry.line,
        )?;
        if let Some(note) = &entry.acceptance {
            writeln!(out, "  = {note}")?;
        }
        writeln!(
            out,
            "  = explain: {}",
            crate::report::agent_context::explain_command(&entry.id, check_flags)
        )?;
    }
    Ok(())
}

/// ANSI styles of the text report.
mod style {
    pub const ERROR: &str = "1;31";
    pub const WARNING: &str = "1;33";
    pub const NOTE: &str = "1;36";
    pub const PASS: &str = "1;32";
    pub const LOCATION: &str = "34";
    pub const LABEL: &str = "1";
    pub const MARKER: &str = "1;31";
}

fn painted(style: &str, text: &str) -> String {
    format!("\x1b[{style}m{text}\x1b[0m")
}

/// The style of a severity word at the start of a headline (`error[`, `warning[`, `note[`,
/// `undecided[`), with its length.
fn severity_style(text: &str) -> Option<(&'static str, usize)> {
    [
        ("error[", style::ERROR),
        ("warning[", style::WARNING),
        ("note[", style::NOTE),
        ("undecided[", style::ERROR),
    ]
    .into_iter()
    .find(|(word, _)| text.starts_with(word))
    .map(|(word, style)| (style, word.len() - 1))
}

/// One line of the plain report, coloured: severity words, `-->` locations, `= label:` names,
/// the marker line of a code frame, and the summary's PASS or FAIL. Source text and messages
/// keep their own characters.
fn colored_line(line: &str) -> String {
    if let Some(rest) = line.strip_prefix("PASS:") {
        return format!("{}{rest}", painted(style::PASS, "PASS:"));
    }
    if let Some(rest) = line.strip_prefix("FAIL:") {
        return format!("{}{rest}", painted(style::ERROR, "FAIL:"));
    }
    if let Some(rest) = line.strip_prefix("  --> ") {
        return format!(
            "  {} {}",
            painted(style::LOCATION, "-->"),
            painted(style::LOCATION, rest)
        );
    }
    if let Some(rest) = line.strip_prefix("  > ") {
        return format!("  {} {rest}", painted(style::MARKER, ">"));
    }
    if let Some(rest) = line.strip_prefix("  = ") {
        if let Some((label, text)) = rest.split_once(':') {
            if !label.contains(' ') {
                return format!("  = {}:{text}", painted(style::LABEL, label));
            }
        }
        return line.to_owned();
    }
    let (indent, body) = match line.strip_prefix("  - ") {
        Some(body) => ("  - ", body),
        None => ("", line),
    };
    if let Some((style, length)) = severity_style(body) {
        let (word, rest) = body.split_at(length);
        return format!("{indent}{}{rest}", painted(style, word));
    }
    // `file:line: warning[code]: …`
    if let Some(index) = line.find(": warning[") {
        let (location, rest) = line.split_at(index + 2);
        let word = "warning";
        return format!(
            "{}: {}{}",
            painted(style::LOCATION, location.trim_end_matches(": ")),
            painted(style::WARNING, word),
            rest.get(word.len()..).unwrap_or_default()
        );
    }
    line.to_owned()
}

/// [`write`], with ANSI colours when `color` (`--color`, see `crate::cli`).
pub fn write_styled(
    out: &mut dyn Write,
    verdict: &Verdict,
    source: SourceText<'_>,
    check_flags: &str,
    color: bool,
) -> std::io::Result<()> {
    if !color {
        return write(out, verdict, source, check_flags);
    }
    let mut plain = Vec::new();
    write(&mut plain, verdict, source, check_flags)?;
    let plain = String::from_utf8_lossy(&plain);
    for line in plain.lines() {
        writeln!(out, "{}", colored_line(line))?;
    }
    out.flush()
}

#[cfg(test)]
mod frame_tests {
    use super::spec_frame;

    #[test]
    fn a_spec_frame_underlines_the_span_on_its_line() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("architecture.ag"),
            "node app : server\ncomponent Api {\truns_on: ap paths: \"a/**\" }\n",
        )
        .unwrap();
        let output = policies::compile_spec(&dir.path().join("architecture.ag"), dir.path());
        let diagnostic = output.diagnostics.first().unwrap();
        assert_eq!(diagnostic.code, "unknown-node");
        assert_eq!(
            spec_frame(dir.path(), diagnostic).unwrap(),
            "   |\n 2 | component Api { runs_on: ap paths: \"a/**\" }\n   |                          ^^\n"
        );
        let mut moved = diagnostic.clone();
        moved.file = "missing.ag".into();
        assert_eq!(spec_frame(dir.path(), &moved), None);
    }

    #[test]
    fn a_frame_of_a_long_line_shows_a_window_around_the_span() {
        let dir = tempfile::tempdir().unwrap();
        let line = format!("node app : server {{ trust: {}x }}", "a".repeat(5_000));
        std::fs::write(dir.path().join("architecture.ag"), &line).unwrap();
        let output = policies::compile_spec(&dir.path().join("architecture.ag"), dir.path());
        let diagnostic = output.diagnostics.first().unwrap();
        let frame = spec_frame(dir.path(), diagnostic).unwrap();
        let lines: Vec<&str> = frame.lines().collect();
        assert!(lines[1].chars().count() < 140, "{}", lines[1]);
        assert!(lines[1].contains('…'));
        // The carets stand under the span's first character as shown.
        let caret = lines[2].find('^').unwrap();
        assert_eq!(lines[1].chars().nth(caret), Some('a'), "{frame}");
    }
}

#[cfg(test)]
mod color_tests {
    use super::colored_line;

    #[test]
    fn headlines_locations_labels_and_the_summary_are_coloured_and_source_is_not() {
        assert_eq!(
            colored_line("error[flow_violation]: `Api` depends on `Db`"),
            "\x1b[1;31merror\x1b[0m[flow_violation]: `Api` depends on `Db`"
        );
        assert_eq!(
            colored_line("  - note[reach_violation]: x"),
            "  - \x1b[1;36mnote\x1b[0m[reach_violation]: x"
        );
        assert_eq!(
            colored_line("  --> api/a.ts:1:1"),
            "  \x1b[34m-->\x1b[0m \x1b[34mapi/a.ts:1:1\x1b[0m"
        );
        assert_eq!(
            colored_line("  = rule: `deny flow Api -> Db` in `Layers`"),
            "  = \x1b[1mrule\x1b[0m: `deny flow Api -> Db` in `Layers`"
        );
        assert_eq!(
            colored_line("architecture.ag:6: warning[waiver-expired]: the waiver"),
            "\x1b[34marchitecture.ag:6\x1b[0m: \x1b[1;33mwarning\x1b[0m[waiver-expired]: the waiver"
        );
        assert_eq!(
            colored_line("PASS: 0 blocking finding(s)"),
            "\x1b[1;32mPASS:\x1b[0m 0 blocking finding(s)"
        );
        assert_eq!(
            colored_line("  > 1 | import { q } from '../db/q';"),
            "  \x1b[1;31m>\x1b[0m 1 | import { q } from '../db/q';"
        );
        // Source lines of a frame are left alone, even when they look like a headline.
        assert_eq!(colored_line("    2 | error[x]: y"), "    2 | error[x]: y");
    }
}
