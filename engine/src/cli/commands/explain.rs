//! `lintel explain --violation ID`: re-runs the scope and explains one finding, with the slice
//! text a stock `z3` binary answers `unsat` for.

use clap::Args;
use std::io::Write;

use schemars::JsonSchema;
use serde::Serialize;

use crate::check::run_check;
use crate::cli::commands::check::{report_error, CheckArgs};
use crate::cli::exit::ExitStatus;
use crate::render;
use crate::report::EntryProof;
use crate::solve::Z3Solver;
use crate::verdict::Diff;

/// `explain` arguments.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The finding id.
    #[arg(long, value_name = "ID")]
    pub violation: String,
    /// Scope and check flags.
    #[command(flatten)]
    pub check: CheckArgs,
}

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
    /// The entry's proof (a change entry has the change-proof shape).
    pub z3_proof: EntryProof,
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
    let mut options = arguments.check.to_options();
    let checked = crate::cli::commands::check::with_progress(&mut options, |options| {
        run_check(options, &Z3Solver)
    });
    let run = match checked {
        Ok(run) => run,
        Err(error) => return report_error(&arguments.check, &error, stdout, stderr),
    };
    let wanted = arguments.violation.as_str();
    let verdict = &run.verdict;
    let listed = verdict.violations.iter().any(|entry| entry.id == wanted)
        || verdict
            .contract_violations
            .iter()
            .any(|entry| entry.id == wanted)
        || verdict
            .workflow_violations
            .iter()
            .any(|entry| entry.id == wanted)
        || verdict
            .change_violations
            .iter()
            .any(|entry| entry.id == wanted);
    let Some(detail) = run.details.get(wanted).filter(|_| listed) else {
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
    // `snippet` is the evidence line with 2 lines on each side, as written (see The explain document in docs/VERDICT.md).
    // It comes from the snapshot the check read (the checked blob when staged or under `--diff`).
    let source = run.scope.text_reader(&options.project);
    let snippet =
        render::text::source_lines(&source, &detail.file, detail.line).unwrap_or_default();
    let explanation = Explanation {
        schema_version: 2,
        found: true,
        violation_id: wanted.to_owned(),
        violation_type: detail.violation_type.clone(),
        rule: detail.rule_kind.clone(),
        declaration: detail.declaration.clone(),
        spec_citation: detail.spec_citation.clone(),
        rule_text: detail.rule_text.clone(),
        source: ExplainSource {
            file: detail.file.clone(),
            line: detail.line,
            evidence: detail.evidence.clone(),
            snippet,
        },
        graph_fact_chain: detail
            .chain
            .iter()
            .map(|fact| ChainLink {
                graph_fact_id: fact.graph_fact_id.clone(),
                kind: fact.kind,
                file: fact.file.clone(),
                line: fact.line,
                evidence: fact.evidence.clone(),
            })
            .collect(),
        z3_proof: detail.proof.clone(),
        smt_script: detail.smt_script.clone(),
        fix_class: detail.fix_class.to_owned(),
        suggested_fix: detail.suggested_fix.clone(),
        diff: run.verdict.diff.clone(),
    };
    if arguments.check.wants_json() {
        let _ = render::json::write(stdout, &explanation);
    } else {
        let _ = write_text(stdout, &explanation, &source);
    }
    ExitStatus::Pass
}

fn write_text(
    out: &mut dyn Write,
    explanation: &Explanation,
    source: render::text::SourceText<'_>,
) -> std::io::Result<()> {
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
    let frame = render::text::code_frame(
        source,
        &explanation.source.file,
        explanation.source.line,
        None,
    );
    write!(out, "{}", frame.unwrap_or_default())?;
    writeln!(out, "witness:")?;
    for link in &explanation.graph_fact_chain {
        writeln!(
            out,
            "  {}:{} {} ({})",
            link.file, link.line, link.evidence, link.graph_fact_id
        )?;
    }
    let (slice, core) = match &explanation.z3_proof {
        EntryProof::Slice(proof) => (&proof.slice, &proof.unsat_core),
        EntryProof::Change(proof) => (&proof.slice, &proof.unsat_core),
    };
    writeln!(out, "proof: slice {slice} is unsat; unsat core:")?;
    for name in core {
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
