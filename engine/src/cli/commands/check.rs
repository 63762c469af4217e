//! `lintel check` (and `check-file`): its flags, shared by every checking command, the options
//! they make, and the verdict written in the requested format.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::check::run_check;
use crate::cli::exit::ExitStatus;
use crate::error::EngineError;
use crate::input::options::CheckOptions;
use crate::input::paths::relative_to;
use crate::input::progress::{Progress, Ticker};
use crate::input::scope::ScopeRequest;
use crate::render;
use crate::solve::Z3Solver;

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Human text.
    Text,
    /// The verdict JSON.
    Json,
    /// SARIF 2.1.0 for code-scanning upload.
    Sarif,
    /// GitHub workflow commands (`::error …`).
    Github,
    /// Graphviz DOT (`graph` only).
    Dot,
    /// Mermaid flowchart (`graph` only).
    Mermaid,
    /// One self-contained HTML page: the component graph in layers and the findings with their code frames.
    Html,
}

/// Scope, output and check flags shared by every checking command.
#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// Every tracked file plus untracked files that are not ignored.
    #[arg(long, conflicts_with_all = ["diff", "file"])]
    pub all: bool,
    /// Files changed between the merge base of REF and HEAD.
    #[arg(long, value_name = "REF", conflicts_with = "file")]
    pub diff: Option<String>,
    /// The named files (relative to the current directory).
    #[arg(long, num_args = 1.., value_name = "PATH")]
    pub file: Vec<PathBuf>,
    /// The project root (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// The spec: a `.ag` file or a compiled artifact.
    #[arg(long, value_name = "FILE", alias = "arch")]
    pub spec: Option<PathBuf>,
    /// Check only the components tagged `repo: ALIAS`.
    #[arg(long, value_name = "ALIAS")]
    pub repo_filter: Option<String>,
    /// Print the verdict JSON (same as `--format json`).
    #[arg(long)]
    pub json: bool,
    /// Output format.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Add per-file extractor details.
    #[arg(long)]
    pub debug_extractors: bool,
    /// Extract generated files too (skipped by default and counted in `stats.files_generated`).
    #[arg(long)]
    pub include_generated: bool,
    /// Probable facts block as well.
    #[arg(long)]
    pub strict: bool,
    /// With `--diff`: only new findings block.
    #[arg(long)]
    pub new_only: bool,
    /// Worker threads (default: all cores; at most 4 per core); never changes the output.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Z3 resource limit per rule slice.
    #[arg(long, value_name = "N", default_value_t = 5_000_000)]
    pub slice_rlimit: u32,
    /// Wall-clock safety net per rule slice.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub slice_timeout_ms: u32,
    /// Wall-clock budget of the whole solving phase: slices not solved when it runs out are
    /// `unknown` (reason `budget`), and the check fails closed.
    #[arg(long, value_name = "MS", default_value_t = crate::solve::DEFAULT_SOLVE_BUDGET_MS)]
    pub solve_budget_ms: u64,
    /// Ignore and do not write the extraction cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Reserved, no effect: plugins are never run.
    #[arg(long)]
    pub allow_plugins: bool,
    /// The baseline of accepted findings (default: `.lintel/baseline.json` in the project, when it
    /// exists). Listed findings are `existing` and do not block; others are `new`; with `--all`,
    /// entries that no longer occur are `stale-baseline-entry` warnings. Written by
    /// `lintel baseline`.
    #[arg(long, value_name = "FILE", conflicts_with = "no_baseline")]
    pub baseline: Option<PathBuf>,
    /// Ignore the baseline file: every finding blocks.
    #[arg(long)]
    pub no_baseline: bool,
    /// Judge the expiry of the spec's `waive` declarations as of this date, `YYYY-MM-DD`
    /// (default: today, UTC).
    #[arg(long, value_name = "DATE", value_parser = parse_date)]
    pub today: Option<String>,
    /// Colour in text output: `auto` (when stdout is a terminal and `NO_COLOR` is unset),
    /// `always` or `never`.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// When stdout is a terminal and `NO_COLOR` is unset or empty.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl ColorChoice {
    /// Whether text output is coloured, given whether stdout is a terminal and the value of
    /// `NO_COLOR` (no-color.org: present and not empty turns colour off; `--color always` wins).
    pub fn is_on(self, is_terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
        match self {
            Self::Always => true,
            Self::Never => false,
            Self::Auto => is_terminal && no_color.is_none_or(std::ffi::OsStr::is_empty),
        }
    }
}

/// `--today DATE`: a calendar date written `YYYY-MM-DD`.
pub(crate) fn parse_date(text: &str) -> Result<String, String> {
    if policies::model::is_calendar_date(text) {
        Ok(text.to_owned())
    } else {
        Err(format!("`{text}` is not a date written YYYY-MM-DD"))
    }
}

impl CheckArgs {
    /// True when output is JSON.
    pub fn wants_json(&self) -> bool {
        self.json || self.format == Some(Format::Json)
    }

    fn project_root(&self) -> PathBuf {
        self.project.clone().unwrap_or_else(|| PathBuf::from("."))
    }

    /// The command that re-runs this check from the project root.
    pub fn rerun_command(&self) -> String {
        let mut command = vec!["lintel".to_owned(), "check".to_owned()];
        let root = self.project_root();
        if self.all {
            command.push("--all".into());
        }
        if let Some(reference) = &self.diff {
            command.push("--diff".into());
            command.push(shell_word(reference));
        }
        if !self.file.is_empty() {
            command.push("--file".into());
            for file in &self.file {
                let absolute = std::env::current_dir().unwrap_or_default().join(file);
                command.push(shell_word(&relative_to(&absolute, &root)));
            }
        }
        if let Some(alias) = &self.repo_filter {
            command.push("--repo-filter".into());
            command.push(shell_word(alias));
        }
        command.extend(spec_flag(self.spec.as_deref(), &root));
        if self.strict {
            command.push("--strict".into());
        }
        if self.new_only {
            command.push("--new-only".into());
        }
        if let Some(baseline) = &self.baseline {
            let absolute = std::env::current_dir().unwrap_or_default().join(baseline);
            command.push("--baseline".into());
            command.push(shell_word(&relative_to(&absolute, &root)));
        }
        if self.no_baseline {
            command.push("--no-baseline".into());
        }
        if let Some(today) = &self.today {
            command.push(format!("--today {today}"));
        }
        if self.slice_rlimit != 5_000_000 {
            command.push(format!("--slice-rlimit {}", self.slice_rlimit));
        }
        if self.slice_timeout_ms != 10_000 {
            command.push(format!("--slice-timeout-ms {}", self.slice_timeout_ms));
        }
        if self.solve_budget_ms != crate::solve::DEFAULT_SOLVE_BUDGET_MS {
            command.push(format!("--solve-budget-ms {}", self.solve_budget_ms));
        }
        command.join(" ")
    }

    /// The check options for these flags.
    pub fn to_options(&self) -> CheckOptions {
        let scope = if self.all {
            ScopeRequest::All
        } else if let Some(reference) = &self.diff {
            ScopeRequest::Diff(reference.clone())
        } else if !self.file.is_empty() {
            ScopeRequest::Files(self.file.clone())
        } else {
            ScopeRequest::Staged
        };
        CheckOptions {
            project: self.project_root(),
            spec: self.spec.clone(),
            scope,
            strict: self.strict,
            new_only: self.new_only,
            threads: self.threads.map(capped_threads),
            rlimit: self.slice_rlimit,
            timeout_ms: self.slice_timeout_ms,
            solve_budget_ms: self.solve_budget_ms,
            debug_extractors: self.debug_extractors,
            include_generated: self.include_generated,
            keep_all_facts: self.debug_extractors,
            cache: if self.no_cache {
                None
            } else {
                crate::input::cache::ExtractionCache::locate()
            },
            repo_filter: self.repo_filter.clone(),
            rerun_command: Some(self.rerun_command()),
            baseline: None,
            use_baseline: !self.no_baseline,
            baseline_file: self.baseline.clone(),
            today: self.today.clone(),
            progress: None,
        }
    }

    fn scope_mode(&self) -> (&'static str, String) {
        if self.all {
            ("all", "workspace".into())
        } else if let Some(reference) = &self.diff {
            ("git_ref", reference.clone())
        } else if !self.file.is_empty() {
            ("files", "files".into())
        } else {
            ("staged", "staged".into())
        }
    }
}

/// `--spec FILE` with the file project-relative, when a spec is given (`--arch` too).
pub fn spec_flag(spec: Option<&std::path::Path>, root: &std::path::Path) -> Option<String> {
    spec.map(|spec| format!("--spec {}", shell_word(&relative_to(spec, root))))
}

pub(crate) fn shell_word(word: &str) -> String {
    let is_plain = !word.is_empty()
        && word
            .chars()
            .all(|character| character.is_ascii_alphanumeric() || "-_./:@=+,".contains(character));
    if is_plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Worker threads per core at most: more never helps (the work is CPU-bound), and each worker
/// reserves a 32 MiB stack, so `--threads 100000` would exhaust memory before doing anything.
const MAX_THREADS_PER_CORE: usize = 4;

/// `--threads N`, capped at [`MAX_THREADS_PER_CORE`] times the cores (the output never depends
/// on the thread count, so the cap changes only the time a run takes).
fn capped_threads(requested: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    requested.min(cores.saturating_mul(MAX_THREADS_PER_CORE))
}

/// Reports an error in the requested output format; returns exit 2.
pub fn report_error(
    arguments: &CheckArgs,
    error: &EngineError,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> ExitStatus {
    if arguments.wants_json() {
        let (mode, base) = arguments.scope_mode();
        let mut verdict =
            render::json::error_verdict(error, mode, base, &arguments.rerun_command());
        let options = arguments.to_options();
        verdict.artifact =
            crate::input::spec::spec_artifact(&options.project, options.spec.as_deref());
        let _ = render::json::write(stdout, &verdict);
    } else {
        render::text::write_error_in(stderr, error, Some(&arguments.project_root()));
    }
    ExitStatus::Error
}

pub(crate) fn check_command(
    arguments: &CheckArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> ExitStatus {
    if matches!(arguments.format, Some(Format::Dot | Format::Mermaid)) && !arguments.wants_json() {
        let error = EngineError::Usage("`--format dot|mermaid` applies to `lintel graph`".into());
        return report_error(arguments, &error, stdout, stderr);
    }
    let mut options = arguments.to_options();
    let checked = crate::cli::commands::check::with_progress(&mut options, |options| {
        run_check(options, &Z3Solver)
    });
    match checked {
        Ok(run) => {
            let status = if run.verdict.passed {
                ExitStatus::Pass
            } else {
                ExitStatus::Violation
            };
            let check_flags = options.check_flags();
            let _ = match arguments.format {
                _ if arguments.wants_json() => render::json::write(stdout, &run.verdict),
                Some(Format::Sarif) => render::sarif::write(stdout, &run.verdict, &check_flags),
                Some(Format::Github) => render::github::write(stdout, &run.verdict),
                _ => {
                    let source = run.scope.text_reader(&options.project);
                    render::text::write_styled(
                        stdout,
                        &run.verdict,
                        &source,
                        &check_flags,
                        arguments.color.is_on(
                            crate::terminal::stdout_is_terminal(),
                            std::env::var_os("NO_COLOR").as_deref(),
                        ),
                    )
                }
            };
            status
        }
        Err(error) => report_error(arguments, &error, stdout, stderr),
    }
}

/// Gives `options` progress counters and draws them while `run` runs (when stderr is a
/// terminal); the line is erased before this returns.
pub fn with_progress<T>(options: &mut CheckOptions, run: impl FnOnce(&CheckOptions) -> T) -> T {
    let progress = std::sync::Arc::new(Progress::default());
    options.progress = Some(std::sync::Arc::clone(&progress));
    let ticker = Ticker::start(&progress);
    let result = run(options);
    drop(ticker);
    result
}

#[cfg(test)]
mod tests {
    use super::ColorChoice;

    #[test]
    fn colour_follows_the_flag_the_terminal_and_no_color() {
        let set = Some(std::ffi::OsStr::new("1"));
        let empty = Some(std::ffi::OsStr::new(""));
        assert!(ColorChoice::Auto.is_on(true, None));
        assert!(ColorChoice::Auto.is_on(true, empty));
        assert!(!ColorChoice::Auto.is_on(true, set));
        assert!(!ColorChoice::Auto.is_on(false, None));
        assert!(ColorChoice::Always.is_on(false, set));
        assert!(!ColorChoice::Never.is_on(true, None));
    }
}
