//! `lintel baseline`: checks every file and writes today's blocking findings to the baseline
//! file ([`crate::report::baseline`]), reporting what was added and dropped since the last one.

use clap::Args;
use std::io::Write;
use std::path::PathBuf;

use crate::check::run_check;
use crate::cli::commands::check::{parse_date, report_error, CheckArgs, ColorChoice};
use crate::cli::exit::ExitStatus;
use crate::error::EngineError;
use crate::input::baseline::{load, path_of, render, BaselineEntry};
use crate::solve::Z3Solver;
use crate::verdict::Verdict;

/// `baseline` arguments: the project, the spec and where to write; every file is checked.
#[derive(Debug, Clone, Args)]
pub struct BaselineArgs {
    /// The project root (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// The spec: a `.ag` file or a compiled artifact.
    #[arg(long, value_name = "FILE", alias = "arch")]
    pub spec: Option<PathBuf>,
    /// Where to write (default: `.lintel/baseline.json` in the project).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Probable facts block as well, so their findings are recorded too.
    #[arg(long)]
    pub strict: bool,
    /// Judge the expiry of the spec's `waive` declarations as of this date, `YYYY-MM-DD`
    /// (default: today, UTC).
    #[arg(long, value_name = "DATE", value_parser = parse_date)]
    pub today: Option<String>,
    /// Worker threads (default: all cores); never changes the output.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Ignore and do not write the extraction cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Print the outcome as one JSON document (`{schema_version, file, findings, added, dropped,
    /// undecided}`); an error prints the verdict's error document
    #[arg(long)]
    pub json: bool,
}

impl BaselineArgs {
    /// The `check --all` these arguments run, with no baseline applied.
    fn to_check(&self) -> CheckArgs {
        CheckArgs {
            all: true,
            diff: None,
            file: Vec::new(),
            project: self.project.clone(),
            spec: self.spec.clone(),
            repo_filter: None,
            json: self.json,
            format: None,
            debug_extractors: false,
            include_generated: false,
            strict: self.strict,
            new_only: false,
            threads: self.threads,
            slice_rlimit: 5_000_000,
            slice_timeout_ms: 10_000,
            solve_budget_ms: crate::solve::DEFAULT_SOLVE_BUDGET_MS,
            no_cache: self.no_cache,
            allow_plugins: false,
            baseline: None,
            no_baseline: true,
            today: self.today.clone(),
            color: ColorChoice::Never,
        }
    }
}

/// Runs `lintel baseline`: 0 when the file is written, 1 when it is written but a rule slice is
/// undecided (its findings, if any, cannot be recorded), 2 on an error.
pub fn baseline_command(
    arguments: &BaselineArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> ExitStatus {
    let check = arguments.to_check();
    let mut options = check.to_options();
    let root = options.project.clone();
    let path = path_of(&root, arguments.baseline.as_deref());
    let file = crate::input::paths::relative_to(&path, &root);
    // The previous baseline, for the summary; an unreadable one is replaced, and said so.
    let previous = match load(&root, Some(&path)) {
        Ok(previous) => previous,
        Err(error) => {
            if path.exists() {
                let _ = writeln!(stderr, "warning: replacing {error}");
            }
            None
        }
    };
    let checked = crate::cli::commands::check::with_progress(&mut options, |options| {
        run_check(options, &Z3Solver)
    });
    let run = match checked {
        Ok(run) => run,
        Err(error) => return report_error(&check, &error, stdout, stderr),
    };
    let entries = entries_of(&run.verdict);
    let written = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(&path, render(&entries)));
    if let Err(error) = written {
        let error = EngineError::Usage(format!("cannot write `{file}`: {error}"));
        return report_error(&check, &error, stdout, stderr);
    }
    let (added, dropped) = previous.map_or((entries.len(), 0), |previous| {
        let added = entries
            .iter()
            .filter(|entry| !previous.contains(&entry.id))
            .count();
        let kept = entries.len() - added;
        (added, previous.entries.len().saturating_sub(kept))
    });
    let undecided = run
        .verdict
        .solver_diagnostics
        .iter()
        .filter(|diagnostic| matches!(diagnostic.status, "unknown" | "error"))
        .count();
    if arguments.json {
        let document = serde_json::json!({
            "schema_version": crate::verdict::SCHEMA_VERSION,
            "file": file,
            "findings": entries.len(),
            "added": added,
            "dropped": dropped,
            "undecided": undecided,
        });
        let _ = writeln!(stdout, "{document}");
        let _ = stdout.flush();
        return if undecided > 0 {
            ExitStatus::Violation
        } else {
            ExitStatus::Pass
        };
    }
    let _ = writeln!(
        stdout,
        "wrote {file}: {} finding(s) ({added} added, {dropped} dropped); `lintel check` now blocks only findings it does not list",
        entries.len()
    );
    if undecided > 0 {
        let _ = writeln!(
            stdout,
            "note: {undecided} rule slice(s) are undecided and cannot be recorded; `lintel check --all` lists them"
        );
        return ExitStatus::Violation;
    }
    let _ = stdout.flush();
    ExitStatus::Pass
}

/// The entries a baseline of `verdict` records: every blocking finding of the four blocking
/// arrays that no waiver covers (a waived finding is governed by its waiver, and an expired
/// waiver must block again rather than slip into the baseline), sorted for the file.
pub fn entries_of(verdict: &Verdict) -> Vec<BaselineEntry> {
    let mut entries: Vec<BaselineEntry> = crate::report::suppress::findings(verdict)
        .into_iter()
        .filter(|finding| finding.blocking && !finding.waived)
        .map(|finding| BaselineEntry {
            id: finding.id,
            entry_type: finding.entry_type,
            declaration: finding.declaration,
            rule: finding.rule,
            file: finding.file,
            line: finding.line,
            message: finding.message,
        })
        .collect();
    entries.sort_by(|a, b| {
        (&a.file, &a.declaration, &a.rule, &a.id).cmp(&(&b.file, &b.declaration, &b.rule, &b.id))
    });
    entries.dedup_by(|a, b| a.id == b.id);
    entries
}
