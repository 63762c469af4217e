//! GitHub Actions workflow commands: `::error file=…,line=…,title=…::message` for each blocking
//! finding and `::warning …` for each warning and non-blocking finding.

use std::io::Write;

use crate::verdict::Verdict;

/// Escapes a workflow-command message (`%`, CR, LF).
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow-command property (also `:` and `,`).
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// Writes one command per finding and warning.
pub fn write(out: &mut dyn Write, verdict: &Verdict) -> std::io::Result<()> {
    for violation in &verdict.violations {
        let command = if violation.blocking {
            "error"
        } else {
            "warning"
        };
        let detected = &violation.detected;
        let title = format!("{} ({})", violation.violation_type, violation.rule.text);
        let note = crate::render::acceptance(violation.baselined, violation.waiver.as_ref())
            .map(|note| format!(" ({note})"))
            .unwrap_or_default();
        writeln!(
            out,
            "::{command} file={},line={},col={},title={}::{}{note} [{}]",
            escape_property(&detected.file),
            detected.line,
            detected.column.unwrap_or(1),
            escape_property(&title),
            escape_data(&violation.message),
            violation.id
        )?;
    }
    for entry in crate::render::other_entries(verdict) {
        let note = entry
            .acceptance
            .as_ref()
            .map(|note| format!(" ({note})"))
            .unwrap_or_default();
        writeln!(
            out,
            "::{} file={},line={},title={}::{}{} [{}]",
            if entry.blocking { "error" } else { "warning" },
            escape_property(&entry.file),
            entry.line,
            escape_property(&entry.entry_type),
            escape_data(&entry.message),
            escape_data(&note),
            entry.id
        )?;
    }
    for warning in &verdict.warnings {
        let mut properties = Vec::new();
        if let Some(file) = &warning.file {
            properties.push(format!("file={}", escape_property(file)));
            properties.push(format!("line={}", warning.line.unwrap_or(1)));
        }
        properties.push(format!("title={}", escape_property(&warning.code)));
        writeln!(
            out,
            "::warning {}::{}",
            properties.join(","),
            escape_data(&warning.message)
        )?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_escape_separators_and_newlines() {
        assert_eq!(escape_property("a,b:c\nd%"), "a%2Cb%3Ac%0Ad%25");
        assert_eq!(escape_data("50% done\nnext"), "50%25 done%0Anext");
    }
}
