//! `lintel baseline`: checks every file and writes today's blocking findings to the baseline
//! file ([`crate::baseline`]), reporting what was added and dropped since the last one.

use std::io::Write;

use crate::baseline::{entries_of, load, path_of, render};
use crate::check::run_check;
use crate::cli::{report_error, BaselineArgs, CheckArgs, ColorChoice, ExitStatus};
use crate::error::EngineError;
use crate::solve::Z3Solver;

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
    let file = crate::paths::relative_to(&path, &root);
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
    let checked =
        crate::progress::with_progress(&mut options, |options| run_check(options, &Z3Solver));
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
