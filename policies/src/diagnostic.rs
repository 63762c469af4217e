//! Located spec diagnostics: one shape for lexer, parser, checker and
//! import errors, rendered by the engine as text or as JSON ([`Diagnostic`] serialized).

use serde::{Deserialize, Serialize};

/// How bad a diagnostic is: errors make the spec invalid, warnings never change the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The spec is invalid.
    Error,
    /// Reported, not fatal.
    Warning,
}

/// A location related to a diagnostic, such as "first declared here".
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RelatedLocation {
    /// Project-relative path.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// What this location is.
    pub message: String,
}

/// One diagnostic in the JSON format of `lintel compile --json` (see docs/VERDICT.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// Stable kebab-case code, e.g. `unknown-entity`.
    pub code: String,
    /// Error or warning.
    pub severity: Severity,
    /// One line, lowercase start, names in backticks, no final period.
    pub message: String,
    /// Project-relative path of the spec file.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column in Unicode scalar values.
    pub column: u32,
    /// 0-based byte offset of the start.
    pub offset: usize,
    /// 0-based exclusive byte offset of the end.
    pub end_offset: usize,
    /// How to fix it, e.g. "did you mean `Api`?".
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub help: Option<String>,
    /// Related locations.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub related: Vec<RelatedLocation>,
}

impl Diagnostic {
    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The human format's first line: `path:line:col: error[code]: message`.
    pub fn headline(&self) -> String {
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        format!(
            "{}:{}:{}: {severity}[{}]: {}",
            self.file, self.line, self.column, self.code, self.message
        )
    }
}
