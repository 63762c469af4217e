//! The baseline file (`.lintel/baseline.json`): the blocking findings a team accepted on the day
//! it adopted lintel, so that `check` blocks only new ones while the old ones are fixed.
//!
//! The file is written by `lintel baseline` and read by every checking command. It is JSON with
//! one finding per line, sorted by (file, declaration, rule, id), so that a diff of the file
//! reads as the findings added and removed. Each entry carries the finding's id (what `check`
//! matches on) and enough context for a reviewer to see what was accepted: type, declaration,
//! rule, location and message. Matching the entries against a verdict is [`crate::report::suppress`]'s.
//!
//! ```json
//! {"lintel_baseline":1,"findings":[
//! {"id":"viol_0123456789abcdef","type":"flow_violation","declaration":"Layers","rule":"deny flow Web -> Db","file":"web/page.ts","line":3,"message":"…"}
//! ]}
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::EngineError;

/// The version of the baseline format this lintel reads and writes.
pub const BASELINE_VERSION: u32 = 1;

/// Where the baseline lives by default, relative to the project root.
pub const DEFAULT_BASELINE: &str = ".lintel/baseline.json";

/// One accepted finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaselineEntry {
    /// The finding id (`viol_…`).
    pub id: String,
    /// The finding `type`.
    #[serde(rename = "type")]
    pub entry_type: String,
    /// The invariant, policy or contract it belongs to.
    pub declaration: String,
    /// The rule text (for a contract finding, the declared endpoint or the contract).
    pub rule: String,
    /// Project-relative path of the finding.
    pub file: String,
    /// 1-based line of the finding when it was recorded.
    pub line: u32,
    /// The finding's message when it was recorded.
    pub message: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BaselineDocument {
    lintel_baseline: serde_json::Value,
    findings: Vec<BaselineEntry>,
}

/// A loaded baseline.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Baseline {
    /// The file, project-relative (for warnings that point into it).
    pub file: String,
    /// The entries by id, each with the 1-based line it is written on.
    pub entries: BTreeMap<String, (BaselineEntry, u32)>,
}

impl Baseline {
    /// True when the baseline lists `id`.
    pub fn contains(&self, id: &str) -> bool {
        self.entries.contains_key(id)
    }
}

/// The baseline path for `--baseline FILE` (relative to the current directory) or the default.
pub fn path_of(root: &Path, explicit: Option<&Path>) -> PathBuf {
    explicit.map_or_else(|| root.join(DEFAULT_BASELINE), Path::to_path_buf)
}

/// Loads the baseline: the file given with `--baseline` (which must exist), else the default
/// file when it exists; `None` when there is none.
pub fn load(root: &Path, explicit: Option<&Path>) -> Result<Option<Baseline>, EngineError> {
    let path = path_of(root, explicit);
    let file = crate::input::paths::relative_to(&path, root);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if explicit.is_none() && error.kind() == std::io::ErrorKind::NotFound => {
            return Ok(None)
        }
        Err(error) => {
            return Err(EngineError::BaselineInvalid {
                path: file,
                reason: format!("cannot read it: {error}"),
            })
        }
    };
    parse(&file, &text).map(Some)
}

/// Parses a baseline document.
pub fn parse(file: &str, text: &str) -> Result<Baseline, EngineError> {
    let invalid = |reason: String| EngineError::BaselineInvalid {
        path: file.to_owned(),
        reason,
    };
    let document: BaselineDocument =
        serde_json::from_str(text).map_err(|error| invalid(error.to_string()))?;
    if document.lintel_baseline != serde_json::json!(BASELINE_VERSION) {
        return Err(invalid(format!(
            "`lintel_baseline` is {}, this lintel reads version {BASELINE_VERSION}",
            document.lintel_baseline
        )));
    }
    // The line of each entry, for warnings that point at it: the first line naming its id (one
    // pass over the text, so a baseline of many thousand entries loads in linear time).
    let mut lines: BTreeMap<&str, u32> = BTreeMap::new();
    for (index, line) in text.lines().enumerate() {
        let Some(start) = line.find("\"viol_") else {
            continue;
        };
        let id = line
            .get(start + 1..)
            .and_then(|rest| rest.split('"').next())
            .unwrap_or_default();
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        lines.entry(id).or_insert(number);
    }
    let mut entries = BTreeMap::new();
    for entry in document.findings {
        let line = lines.get(entry.id.as_str()).copied().unwrap_or(1);
        entries.insert(entry.id.clone(), (entry, line));
    }
    Ok(Baseline {
        file: file.to_owned(),
        entries,
    })
}

/// The text of a baseline file: one entry per line.
pub fn render(entries: &[BaselineEntry]) -> String {
    let mut text = format!("{{\"lintel_baseline\":{BASELINE_VERSION},\"findings\":[\n");
    let lines: Vec<String> = entries
        .iter()
        .map(|entry| serde_json::to_string(entry).unwrap_or_default())
        .collect();
    text.push_str(&lines.join(",\n"));
    if !lines.is_empty() {
        text.push('\n');
    }
    text.push_str("]}\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, file: &str) -> BaselineEntry {
        BaselineEntry {
            id: id.into(),
            entry_type: "flow_violation".into(),
            declaration: "Layers".into(),
            rule: "deny flow Web -> Db".into(),
            file: file.into(),
            line: 3,
            message: "`Web` flows to `Db`".into(),
        }
    }

    #[test]
    fn a_rendered_baseline_has_one_entry_per_line_and_parses_back_with_its_lines() {
        let entries = vec![
            entry("viol_00000000000000aa", "a.ts"),
            entry("viol_00000000000000bb", "b.ts"),
        ];
        let text = render(&entries);
        assert_eq!(text.lines().count(), 4, "{text}");
        assert!(text.starts_with(
            "{\"lintel_baseline\":1,\"findings\":[\n{\"id\":\"viol_00000000000000aa\""
        ));
        let baseline = parse(".lintel/baseline.json", &text).expect("parses");
        assert_eq!(baseline.entries.len(), 2);
        assert_eq!(baseline.entries["viol_00000000000000bb"].1, 3);
        assert_eq!(baseline.entries["viol_00000000000000aa"].0, entries[0]);
        let empty = render(&[]);
        assert_eq!(empty, "{\"lintel_baseline\":1,\"findings\":[\n]}\n");
        assert!(parse("b.json", &empty).expect("parses").entries.is_empty());
    }

    #[test]
    fn a_file_that_is_not_a_baseline_is_refused_with_a_reason() {
        let refused = |text: &str| match parse(".lintel/baseline.json", text) {
            Err(error) => (error.code(), error.to_string()),
            Ok(baseline) => panic!("accepted {baseline:?}"),
        };
        let (code, message) = refused("[1, 2]");
        assert_eq!(code, "baseline-invalid");
        assert!(
            message.starts_with("`.lintel/baseline.json` is not a lintel baseline: "),
            "{message}"
        );
        let (_, message) = refused("{\"lintel_baseline\":2,\"findings\":[]}");
        assert!(
            message.contains("`lintel_baseline` is 2, this lintel reads version 1"),
            "{message}"
        );
        let (_, message) = refused("{\"findings\":[]}");
        assert!(message.contains("lintel_baseline"), "{message}");
    }
}
