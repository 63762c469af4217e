//! `lintel schema verdict|explain`: JSON Schemas generated from the wire types, so the published
//! schema cannot drift from what lintel writes.

use std::io::Write;

use schemars::JsonSchema;

use crate::cli::commands::explain::{Explanation, NotFound};
use crate::cli::exit::ExitStatus;
use crate::verdict::Verdict;

/// Either explain document.
#[derive(JsonSchema)]
#[serde(untagged)]
#[expect(dead_code, reason = "only its schema is used")]
enum ExplainDocument {
    Found(Box<Explanation>),
    NotFound(NotFound),
}

/// The JSON Schema of the verdict.
pub fn verdict_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(Verdict)).unwrap_or_default()
}

/// The JSON Schema of the explain document.
pub fn explain_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(ExplainDocument)).unwrap_or_default()
}

/// Runs `schema`.
pub fn schema_command(which: &str, stdout: &mut dyn Write, stderr: &mut dyn Write) -> ExitStatus {
    let schema = match which {
        "verdict" => verdict_schema(),
        "explain" => explain_schema(),
        other => {
            let _ = writeln!(
                stderr,
                "error[usage-error]: unknown schema `{other}`: expected `verdict` or `explain`"
            );
            return ExitStatus::Error;
        }
    };
    match crate::render::json::write(stdout, &schema) {
        Ok(()) => ExitStatus::Pass,
        Err(_) => ExitStatus::Error,
    }
}
