//! `lintel explain --violation ID`: re-runs the scope and explains one finding, with the slice
//! text a stock `z3` binary answers `unsat` for.

use std::io::Write;

use schemars::JsonSchema;
use serde::Serialize;

use crate::check::run_check;
use crate::cli::{report_error, ExitStatus, ExplainArgs};
use crate::render;
use crate::solve::Z3Solver;
use crate::verdict::{Diff, Z3Proof};

/// `source` of the explain document.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ExplainSource {
    /// Project-relative path.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// Evidence sentence.
    pub evidence: String,
    /// The evidence line with 2 lines on each side.
    pub snippet: String,
}

/// One hop of `graph_fact_chain`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ChainLink {
    /// Graph fact id.
    #[serde(rename = "graphFactId")]
    pub graph_fact_id: String,
    /// Fact kind.
    pub kind: &'static str,
    /// Project-relative path.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// Evidence sentence.
    pub evidence: String,
}

/// The explain document for a found id.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Explanation {
    /// Always 2.
    pub schema_version: u32,
    /// True.
    pub found: bool,
    /// The id asked for.
    pub violation_id: String,
    /// Violation type.
    #[serde(rename = "type")]
    pub violation_type: String,
    /// `rule.kind`.
    pub rule: String,
    /// Invariant or policy name.
    pub declaration: String,
    /// `file:line:column` of the rule.
    pub spec_citation: String,
    /// `rule.text`.
    pub rule_text: String,
    /// Where the evidence is.
    pub source: ExplainSource,
    /// Every fact of the witness.
    pub graph_fact_chain: Vec<ChainLink>,
    /// The proof.
    pub z3_proof: Z3Proof,
    /// The slice text plus `(check-sat-assuming (…))`.
    pub smt_script: String,
    /// Fix class.
    pub fix_class: String,
    /// A concrete fix direction.
    pub suggested_fix: String,
    /// The re-run scope.
    pub diff: Diff,
}

/// The explain document for an unknown id.
#[derive(Debug, Serialize, JsonSchema)]
pub struct NotFound {
    /// Always 2.
    pub schema_version: u32,
    /// False.
    pub found: bool,
    /// The id asked for.
    pub violation_id: String,
    /// The re-run scope.
    pub diff: Diff,
    /// What happened.
    pub message: String,
}

/// Runs `explain`.
pub fn explain_command(
    arguments: &ExplainArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> ExitStatus {
    let options = arguments.check.to_options();
    let run = match run_check(&options, &Z3Solver) {
        Ok(run) => run,
        Err(error) => return report_error(&arguments.check, &error, stdout, stderr),
    };
    let wanted = arguments.violation.as_str();
    let found = run
        .verdict
        .violations
        .iter()
        .find(|violation| violation.id == wanted);
    let (Some(violation), Some(detail)) = (found, run.details.get(wanted)) else {
        let message = format!("no finding with id `{wanted}` in this scope: re-run with the scope flags of the check that reported it");
        if arguments.check.wants_json() {
            let document = NotFound {
                schema_version: 2,
                found: false,
                violation_id: wanted.to_owned(),
                diff: run.verdict.diff.clone(),
                message,
            };
            let _ = render::json::write(stdout, &document);
        } else {
            let _ = writeln!(stderr, "error[violation-not-found]: {message}");
        }
        return ExitStatus::Error;
    };
    let detected = &violation.detected;
    let snippet = render::text::code_frame(&options.project, &detected.file, detected.line, None)
        .unwrap_or_default();
    let source = &violation.rule.source;
    let explanation = Explanation {
        schema_version: 2,
        found: true,
        violation_id: violation.id.clone(),
        violation_type: violation.violation_type.to_owned(),
        rule: violation.rule.kind.to_owned(),
        declaration: violation.invariant.clone(),
        spec_citation: format!("{}:{}:{}", source.file, source.line, source.column),
        rule_text: violation.rule.text.clone(),
        source: ExplainSource {
            file: detected.file.clone(),
            line: detected.line,
            evidence: detected.evidence.clone(),
            snippet,
        },
        graph_fact_chain: detail
            .chain
            .iter()
            .map(|fact| ChainLink {
                graph_fact_id: fact.id.clone(),
                kind: fact.kind.as_str(),
                file: fact.evidence.file.clone(),
                line: fact.evidence.line,
                evidence: fact.evidence.message.clone(),
            })
            .collect(),
        z3_proof: violation.z3_proof.clone(),
        smt_script: detail.smt_script.clone(),
        fix_class: detail.fix_class.to_owned(),
        suggested_fix: detail.suggested_fix.clone(),
        diff: run.verdict.diff.clone(),
    };
    if arguments.check.wants_json() {
        let _ = render::json::write(stdout, &explanation);
    } else {
        let _ = write_text(stdout, &explanation);
    }
    ExitStatus::Pass
}

fn write_text(out: &mut dyn Write, explanation: &Explanation) -> std::io::Result<()> {
    writeln!(
        out,
        "{} {}",
        explanation.violation_type, explanation.violation_id
    )?;
    writeln!(
        out,
        "rule: `{}` ({}) in `{}` at {}",
        explanation.rule_text, explanation.rule, explanation.declaration, explanation.spec_citation
    )?;
    writeln!(
        out,
        "evidence: {} at {}:{}",
        explanation.source.evidence, explanation.source.file, explanation.source.line
    )?;
    write!(out, "{}", explanation.source.snippet)?;
    writeln!(out, "witness:")?;
    for link in &explanation.graph_fact_chain {
        writeln!(
            out,
            "  {}:{} {} ({})",
            link.file, link.line, link.evidence, link.graph_fact_id
        )?;
    }
    writeln!(
        out,
        "proof: slice {} is unsat; unsat core:",
        explanation.z3_proof.slice
    )?;
    for name in &explanation.z3_proof.unsat_core {
        writeln!(out, "  {name}")?;
    }
    writeln!(
        out,
        "fix ({}): {}",
        explanation.fix_class, explanation.suggested_fix
    )?;
    writeln!(
        out,
        "\nSMT-LIB (replay with `z3 -in`):\n{}",
        explanation.smt_script
    )?;
    out.flush()
}
