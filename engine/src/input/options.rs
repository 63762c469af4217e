//! The options of one check run, made from the command-line flags (`crate::cli::commands::check`)
//! or by a test.

use std::path::PathBuf;

use crate::input::scope::ScopeRequest;

/// Everything a check needs from the command line.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// The project root.
    pub project: PathBuf,
    /// `--spec`, when given.
    pub spec: Option<PathBuf>,
    /// The scope.
    pub scope: ScopeRequest,
    /// `--strict`.
    pub strict: bool,
    /// `--new-only`.
    pub new_only: bool,
    /// `--threads`.
    pub threads: Option<usize>,
    /// `--slice-rlimit`.
    pub rlimit: u32,
    /// `--slice-timeout-ms`.
    pub timeout_ms: u32,
    /// `--solve-budget-ms`: wall-clock budget of the whole solving phase.
    pub solve_budget_ms: u64,
    /// `--debug-extractors`.
    pub debug_extractors: bool,
    /// `--include-generated`: extract generated files too.
    pub include_generated: bool,
    /// Keep the generic `call`/`assignment` facts even when no reviewed query could use them
    /// (`graph --facts`, `--debug-extractors`).
    pub keep_all_facts: bool,
    /// The extraction cache; `None` with `--no-cache` (and by default in the library).
    pub cache: Option<crate::input::cache::ExtractionCache>,
    /// `--repo-filter`.
    pub repo_filter: Option<String>,
    /// The command that re-runs this check from the project root (for `agent_context`);
    /// derived from the scope when not given.
    pub rerun_command: Option<String>,
    /// The baseline in effect, once loaded; [`run_check`] loads it when `use_baseline`.
    pub baseline: Option<crate::input::baseline::Baseline>,
    /// Whether to read a baseline (`--no-baseline` turns it off).
    pub use_baseline: bool,
    /// `--baseline FILE`; `.lintel/baseline.json` in the project when `None`.
    pub baseline_file: Option<PathBuf>,
    /// The date waivers are judged on, `YYYY-MM-DD` (`--today`); today's UTC date when `None`.
    pub today: Option<String>,
    /// Counters for the progress line, when one is drawn.
    pub progress: Option<std::sync::Arc<crate::input::progress::Progress>>,
}

impl CheckOptions {
    /// Defaults for a project root: staged scope, default limits.
    pub fn new(project: impl Into<PathBuf>) -> Self {
        Self {
            project: project.into(),
            spec: None,
            scope: ScopeRequest::Staged,
            strict: false,
            new_only: false,
            threads: None,
            rlimit: 5_000_000,
            timeout_ms: 10_000,
            solve_budget_ms: crate::solve::DEFAULT_SOLVE_BUDGET_MS,
            debug_extractors: false,
            include_generated: false,
            keep_all_facts: false,
            cache: None,
            repo_filter: None,
            rerun_command: None,
            baseline: None,
            use_baseline: true,
            baseline_file: None,
            today: None,
            progress: None,
        }
    }
}

impl CheckOptions {
    /// The re-run command: the one given, else `lintel check` plus the scope flags.
    pub fn rerun(&self) -> String {
        if let Some(command) = &self.rerun_command {
            return command.clone();
        }
        let mut command = String::from("lintel check");
        match &self.scope {
            ScopeRequest::Staged => {}
            ScopeRequest::All => command.push_str(" --all"),
            ScopeRequest::Diff(reference) => command.push_str(&format!(" --diff {reference}")),
            ScopeRequest::Files(files) => {
                command.push_str(" --file");
                for file in files {
                    command.push(' ');
                    command.push_str(&crate::input::paths::relative_to(file, &self.project));
                }
            }
        }
        if let Some(alias) = &self.repo_filter {
            command.push_str(&format!(" --repo-filter {alias}"));
        }
        if self.strict {
            command.push_str(" --strict");
        }
        if self.new_only {
            command.push_str(" --new-only");
        }
        command
    }

    /// The flags of the re-run command after `lintel check` (` --all --spec x.ag`, empty for a
    /// staged check with defaults): what an `explain` command this check prints carries.
    pub fn check_flags(&self) -> String {
        check_flags(&self.rerun()).to_owned()
    }
}

/// The flags of a re-run command (`lintel check --all --spec x.ag`) after `lintel check`, each
/// with its leading space: ` --all --spec x.ag`.
pub fn check_flags(rerun_command: &str) -> &str {
    rerun_command
        .strip_prefix("lintel check")
        .unwrap_or_default()
}
