//! The JSON renderer: exactly one document on stdout, followed by a newline, on success and on error.

use std::io::Write;

use crate::error::EngineError;
use crate::report::timestamp_now;
use crate::verdict::{Diff, ErrorInfo, Stats, Tool, Verdict, SCHEMA_VERSION};

/// Writes one JSON document and a newline.
pub fn write<T: serde::Serialize>(out: &mut dyn Write, document: &T) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(document).map_err(std::io::Error::other)?;
    out.write_all(text.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}

/// The full-shape error verdict: every array present and empty, `verdict: "error"`, `error` and `message`.
pub fn error_verdict(
    error: &EngineError,
    mode: &'static str,
    base: String,
    rerun_command: &str,
) -> Verdict {
    let message = error.to_string();
    let (file, line, column) = match error.location() {
        Some((file, line, column)) => (Some(file), Some(line), Some(column)),
        None => (None, None, None),
    };
    let diagnostics = error.diagnostics();
    Verdict {
        schema_version: SCHEMA_VERSION,
        verdict: "error",
        passed: false,
        timestamp: timestamp_now(),
        tool: Tool {
            name: "lintel",
            version: env!("CARGO_PKG_VERSION"),
        },
        artifact: String::new(),
        diff: Diff {
            base,
            mode,
            ..Diff::default()
        },
        violations: Vec::new(),
        contract_violations: Vec::new(),
        workflow_violations: Vec::new(),
        change_violations: Vec::new(),
        warnings: Vec::new(),
        contract_warnings: Vec::new(),
        workflow_warnings: Vec::new(),
        rule_coverage: Vec::new(),
        solver_diagnostics: Vec::new(),
        smt_model: None,
        agent_context: crate::report::agent_context::error_context(&message, rerun_command),
        stats: Stats::default(),
        extractor_debug: None,
        error: Some(ErrorInfo {
            code: error.code(),
            message: message.clone(),
            file,
            line,
            column,
        }),
        diagnostics: Some(diagnostics),
        message: Some(message),
    }
}
