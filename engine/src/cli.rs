//! The command line (`shared/spec/cli.md`): argument parsing with clap, dispatch, and exit codes.
//!
//! [`run`] takes its writers as arguments, so tests drive the whole CLI in-process.
//! Exit codes: 0 pass, 1 violation (or an undecided slice), 2 error.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::check::{run_check, CheckOptions};
use crate::error::EngineError;
use crate::paths::relative_to;
use crate::render;
use crate::scope::ScopeRequest;
use crate::solve::Z3Solver;

/// lintel: architecture policies for your repository, proven by Z3.
#[derive(Debug, Parser)]
#[command(name = "lintel", version, about, long_about = None)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// Commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check the scope against the spec (the main job).
    Check(CheckArgs),
    /// Same as `check --file PATH…` (kept for aglc users).
    CheckFile(CheckArgs),
    /// Re-run the scope and explain one finding.
    Explain(ExplainArgs),
    /// Parse and type-check a spec; write the compiled artifact.
    Compile(CompileArgs),
    /// The extracted component graph with violations marked.
    Graph(GraphArgs),
    /// Write the agent brief: components and rules in plain words, and how to check a change.
    EmitContext {
        /// Output file (default: stdout).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Project and spec.
        #[command(flatten)]
        spec: OutputArgs,
    },
    /// Record today's blocking findings in the baseline file, so that `check` blocks only new ones.
    ///
    /// Checks every file (as `check --all`) and writes each blocking finding that no waiver
    /// covers to `.lintel/baseline.json` (or `--baseline FILE`): its id, type, rule, location and
    /// message, one per line in a stable order, for the team to commit. Run it again to drop the
    /// findings that were fixed; `check --all` warns about them (`stale-baseline-entry`).
    Baseline(BaselineArgs),
    /// Write a starter `architecture.ag`: without `--from`, proposed from what the repository
    /// shows; `--from tach.toml` translates a Tach config, `--from .dependency-cruiser.js`
    /// dependency-cruiser's `forbidden` rules.
    ///
    /// Without `--from`, the components are the repository's units (workspace packages, crates,
    /// Gradle and Maven modules, `.csproj` projects, Go and Python packages, SwiftPM targets,
    /// top-level source folders), the nodes the infrastructure its code uses, and the rules
    /// `deny flow`s that hold today: the layering of the component graph and UI away from data
    /// stores, each after a comment with its evidence (docs/INIT.md).
    Init {
        /// Project root.
        #[arg(long)]
        project: Option<PathBuf>,
        /// The configuration to translate: a `tach.toml`, or a `.dependency-cruiser.js`/`.cjs`/`.json`.
        #[arg(long)]
        from: Option<PathBuf>,
        /// Where to write the spec (default: `architecture.ag` in the project root).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Overwrite an existing spec.
        #[arg(long)]
        force: bool,
        /// Print the spec to stdout instead of writing a file.
        #[arg(long, conflicts_with_all = ["out", "force"])]
        print: bool,
    },
    /// Parse-only floor for benchmarks: parses the files `check` would extract, nothing else.
    #[command(hide = true)]
    BenchParse(CheckArgs),
    /// Print the JSON Schema of the verdict or the explain document.
    Schema {
        /// `verdict` or `explain`.
        which: String,
    },
}

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
    /// HTML (`graph` only; planned).
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

/// Whether the process's stdout and stderr are terminals, as the binary found them
/// ([`set_terminals`]). In-process callers of [`run`] write to buffers, so both stay false
/// for them: no colour under `--color auto`, no progress line.
static STDOUT_IS_TERMINAL: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);
static STDERR_IS_TERMINAL: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Tells the CLI which of the process's streams are terminals; `main` calls it before [`run`].
pub fn set_terminals(stdout: bool, stderr: bool) {
    STDOUT_IS_TERMINAL.store(stdout, std::sync::atomic::Ordering::Relaxed);
    STDERR_IS_TERMINAL.store(stderr, std::sync::atomic::Ordering::Relaxed);
}

/// True when the binary's stderr is a terminal ([`set_terminals`]).
pub fn stderr_is_terminal() -> bool {
    STDERR_IS_TERMINAL.load(std::sync::atomic::Ordering::Relaxed)
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
fn parse_date(text: &str) -> Result<String, String> {
    if policies::model::is_calendar_date(text) {
        Ok(text.to_owned())
    } else {
        Err(format!("`{text}` is not a date written YYYY-MM-DD"))
    }
}

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
}

/// The project and spec of a command that reads only the spec.
#[derive(Debug, Clone, Args)]
pub struct OutputArgs {
    /// The project root (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// The spec: a `.ag` file or a compiled artifact.
    #[arg(long, value_name = "FILE", alias = "arch")]
    pub spec: Option<PathBuf>,
}

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

/// `compile` arguments.
#[derive(Debug, Args)]
pub struct CompileArgs {
    /// The spec source.
    pub file: PathBuf,
    /// Where to write the artifact (default: lintel's cache folder, `~/.cache/lintel/artifacts/…`,
    /// never the source tree; the path is printed).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print `{schema_version, ok, diagnostics}`.
    #[arg(long)]
    pub json: bool,
    /// The project root (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
}

/// `graph` arguments.
#[derive(Debug, Args)]
pub struct GraphArgs {
    /// Scope and check flags.
    #[command(flatten)]
    pub check: CheckArgs,
    /// List every graph fact.
    #[arg(long)]
    pub facts: bool,
    /// Write to a file instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// The process outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// 0
    Pass,
    /// 1
    Violation,
    /// 2
    Error,
}

/// Stdout as the binary writes it: remembers the first write error, so that output lost to a
/// full device (`> /dev/full`) ends the run with exit 2 and a message on stderr, while a closed
/// pipe (`lintel check | head`) still stops quietly with the verdict's code.
pub struct WatchedOutput<W: Write> {
    inner: W,
    failure: Option<std::io::Error>,
}

impl<W: Write> WatchedOutput<W> {
    /// Watches `inner`.
    pub fn new(inner: W) -> Self {
        Self {
            inner,
            failure: None,
        }
    }

    fn watch<T>(&mut self, result: std::io::Result<T>) -> std::io::Result<T> {
        if let Err(error) = &result {
            if self.failure.is_none() {
                self.failure = Some(std::io::Error::new(error.kind(), error.to_string()));
            }
        }
        result
    }

    /// Flushes, and turns `status` into exit 2 (with a message on `stderr`) when output was lost
    /// for another reason than a closed pipe.
    pub fn finish(mut self, status: ExitStatus, stderr: &mut dyn Write) -> ExitStatus {
        let flushed = self.inner.flush();
        let _ = self.watch(flushed);
        match self.failure {
            Some(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
                let _ = writeln!(
                    stderr,
                    "error[output-lost]: cannot write the output to stdout: {error}"
                );
                ExitStatus::Error
            }
            _ => status,
        }
    }
}

impl<W: Write> Write for WatchedOutput<W> {
    fn write(&mut self, buffer: &[u8]) -> std::io::Result<usize> {
        let written = self.inner.write(buffer);
        self.watch(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let flushed = self.inner.flush();
        self.watch(flushed)
    }
}

impl ExitStatus {
    /// The process exit code.
    pub fn code(self) -> i32 {
        match self {
            Self::Pass => 0,
            Self::Violation => 1,
            Self::Error => 2,
        }
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
                crate::cache::ExtractionCache::locate()
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

fn shell_word(word: &str) -> String {
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

/// True when argv asks for JSON, so that even a usage error prints the JSON document.
fn argv_wants_json(argv: &[String]) -> bool {
    argv.iter().enumerate().any(|(index, argument)| {
        argument == "--json"
            || argument == "--format=json"
            || (argument == "--format" && argv.get(index + 1).is_some_and(|next| next == "json"))
    })
}

/// The scope argv asks for, for the verdict of a usage error (`diff` carries the requested mode,
/// cli.md): its `diff.mode`, `diff.base` and the re-run command with the scope flags as given.
fn argv_scope(argv: &[String]) -> (&'static str, String, String) {
    let value_of = |flag: &str| {
        argv.iter().enumerate().find_map(|(index, argument)| {
            if argument == flag {
                argv.get(index + 1).cloned()
            } else {
                argument
                    .strip_prefix(flag)
                    .and_then(|rest| rest.strip_prefix('='))
                    .map(str::to_owned)
            }
        })
    };
    if argv.iter().any(|argument| argument == "--all") {
        return ("all", "workspace".into(), "lintel check --all".into());
    }
    if let Some(reference) = value_of("--diff") {
        let rerun = format!("lintel check --diff {}", shell_word(&reference));
        return ("git_ref", reference, rerun);
    }
    let files: Vec<&String> = argv
        .iter()
        .skip_while(|argument| *argument != "--file")
        .skip(1)
        .take_while(|argument| !argument.starts_with('-'))
        .collect();
    if !files.is_empty() {
        let words: Vec<String> = files.iter().map(|file| shell_word(file)).collect();
        return (
            "files",
            "files".into(),
            format!("lintel check --file {}", words.join(" ")),
        );
    }
    ("staged", "staged".into(), "lintel check".into())
}

/// A clap error's message without its `error: ` prefix, usage block and help hint, on one line
/// (`the following required arguments were not provided: --violation <ID>`).
fn usage_message(error: &clap::Error) -> String {
    let text = error.to_string();
    let message = text
        .lines()
        .take_while(|line| !line.starts_with("Usage:") && !line.starts_with("For more information"))
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let message = message.trim_start_matches("error: ");
    if message.is_empty() {
        "invalid arguments".to_owned()
    } else {
        message.to_owned()
    }
}

/// Runs the CLI over the process arguments as the OS gives them: an argument that is not UTF-8
/// (`--project $'\xff'`) is a `usage-error`, in JSON when argv asks for JSON, never a panic.
pub fn run_os(
    argv: Vec<std::ffi::OsString>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> ExitStatus {
    let lossy: Vec<String> = argv
        .iter()
        .map(|argument| argument.to_string_lossy().into_owned())
        .collect();
    let Some(position) = argv.iter().position(|argument| argument.to_str().is_none()) else {
        return run(lossy, stdout, stderr);
    };
    let shown = policies::read::excerpt(lossy.get(position).map_or("", String::as_str), 80);
    let error = EngineError::Usage(format!(
        "argument {position} is not valid UTF-8: `{shown}` (lintel reads UTF-8 paths and values)"
    ));
    if argv_wants_json(&lossy) {
        let (mode, base, rerun) = argv_scope(&lossy);
        let verdict = render::json::error_verdict(&error, mode, base, &rerun);
        let _ = render::json::write(stdout, &verdict);
    } else {
        render::text::write_error(stderr, &error);
    }
    ExitStatus::Error
}

/// Runs the CLI over `argv` (including the program name).
pub fn run(argv: Vec<String>, stdout: &mut dyn Write, stderr: &mut dyn Write) -> ExitStatus {
    let cli = match Cli::try_parse_from(&argv) {
        Ok(cli) => cli,
        Err(error) => {
            use clap::error::ErrorKind;
            if matches!(
                error.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = write!(stdout, "{error}");
                return if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    ExitStatus::Error
                } else {
                    ExitStatus::Pass
                };
            }
            if argv_wants_json(&argv) {
                let (mode, base, rerun) = argv_scope(&argv);
                let verdict = render::json::error_verdict(
                    &EngineError::Usage(usage_message(&error)),
                    mode,
                    base,
                    &rerun,
                );
                let _ = render::json::write(stdout, &verdict);
            } else {
                let _ = write!(stderr, "{error}");
            }
            return ExitStatus::Error;
        }
    };
    let command = cli.command;
    unless_it_panics(&argv, stdout, stderr, move |stdout, stderr| {
        dispatch(command, stdout, stderr)
    })
}

/// Runs `command`; if it panics (a bug in lintel), reports an `internal-error` as any other error
/// is reported: with `--json`, one error verdict on stdout, else the error on stderr; exit 2. The
/// panic message also goes to stderr, through the default hook.
fn unless_it_panics(
    argv: &[String],
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
    command: impl FnOnce(&mut dyn Write, &mut dyn Write) -> ExitStatus,
) -> ExitStatus {
    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        command(&mut *stdout, &mut *stderr)
    }));
    match ran {
        Ok(status) => status,
        Err(payload) => {
            let error = EngineError::Internal(format!(
                "lintel stopped unexpectedly: {}; please report it",
                crate::error::panic_message(payload.as_ref())
            ));
            if argv_wants_json(argv) && argv.get(1).is_some_and(|command| command == "compile") {
                // `compile --json` prints its own document shape, errors included.
                let spec_file = argv
                    .iter()
                    .skip(2)
                    .find(|argument| !argument.starts_with('-'))
                    .map_or("", String::as_str);
                crate::compile::write_error_report(stdout, &error, spec_file);
            } else if argv_wants_json(argv) {
                let (mode, base, rerun) = argv_scope(argv);
                let verdict = render::json::error_verdict(&error, mode, base, &rerun);
                let _ = render::json::write(stdout, &verdict);
            } else {
                render::text::write_error(stderr, &error);
            }
            ExitStatus::Error
        }
    }
}

fn dispatch(command: Command, stdout: &mut dyn Write, stderr: &mut dyn Write) -> ExitStatus {
    match command {
        Command::Check(arguments) => check_command(&arguments, stdout, stderr),
        Command::CheckFile(arguments) => {
            if arguments.file.is_empty() {
                return report_error(
                    &arguments,
                    &EngineError::Usage("`check-file` needs `--file PATH…`".into()),
                    stdout,
                    stderr,
                );
            }
            check_command(&arguments, stdout, stderr)
        }
        Command::Explain(arguments) => crate::explain::explain_command(&arguments, stdout, stderr),
        Command::Compile(arguments) => crate::compile::compile_command(&arguments, stdout, stderr),
        Command::Graph(arguments) => {
            crate::graph_command::graph_command(&arguments, stdout, stderr)
        }
        Command::EmitContext { out, spec } => {
            crate::emit_context::emit_context_command(&spec, out.as_ref(), stdout, stderr)
        }
        Command::Baseline(arguments) => {
            crate::baseline_command::baseline_command(&arguments, stdout, stderr)
        }
        Command::Init {
            project,
            from,
            out,
            force,
            print,
        } => crate::init::init_command(
            &crate::init::InitOptions {
                project: project.unwrap_or_else(|| PathBuf::from(".")),
                from,
                out,
                force,
                print,
            },
            stdout,
            stderr,
        ),
        Command::BenchParse(arguments) => {
            crate::bench::bench_parse_command(&arguments, stdout, stderr)
        }
        Command::Schema { which } => crate::schema::schema_command(&which, stdout, stderr),
    }
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
        verdict.artifact = crate::config::spec_artifact(&options.project, options.spec.as_deref());
        let _ = render::json::write(stdout, &verdict);
    } else {
        render::text::write_error_in(stderr, error, Some(&arguments.project_root()));
    }
    ExitStatus::Error
}

fn check_command(
    arguments: &CheckArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> ExitStatus {
    if matches!(
        arguments.format,
        Some(Format::Dot | Format::Mermaid | Format::Html)
    ) && !arguments.wants_json()
    {
        let error =
            EngineError::Usage("`--format dot|mermaid|html` applies to `lintel graph`".into());
        return report_error(arguments, &error, stdout, stderr);
    }
    let mut options = arguments.to_options();
    let checked =
        crate::progress::with_progress(&mut options, |options| run_check(options, &Z3Solver));
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
                            STDOUT_IS_TERMINAL.load(std::sync::atomic::Ordering::Relaxed),
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

#[cfg(test)]
mod tests {
    use super::{unless_it_panics, ColorChoice, ExitStatus};

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

    fn argv(arguments: &[&str]) -> Vec<String> {
        arguments
            .iter()
            .map(|argument| (*argument).to_owned())
            .collect()
    }

    #[test]
    fn a_command_that_panics_reports_one_internal_error_in_the_requested_format() {
        let json = argv(&["lintel", "check", "--all", "--json"]);
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        let status = unless_it_panics(&json, &mut stdout, &mut stderr, |stdout, _| {
            let _ = stdout.flush();
            panic!("index 7 out of range")
        });
        assert_eq!(status, ExitStatus::Error);
        let verdict: serde_json::Value =
            serde_json::from_slice(&stdout).expect("one JSON document");
        assert_eq!(verdict["verdict"], "error");
        assert_eq!(verdict["error"]["code"], "internal-error");
        assert_eq!(
            verdict["error"]["message"],
            "internal error: lintel stopped unexpectedly: index 7 out of range; please report it"
        );
        assert_eq!(verdict["diff"]["mode"], "all");
        assert!(stderr.is_empty());

        let text = argv(&["lintel", "check", "--all"]);
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        let status = unless_it_panics(&text, &mut stdout, &mut stderr, |_, _| {
            panic!("{}", String::from("owned message"))
        });
        assert_eq!(status, ExitStatus::Error);
        assert!(stdout.is_empty());
        let message = String::from_utf8(stderr).expect("UTF-8");
        assert!(
            message.contains("internal-error")
                && message.contains("lintel stopped unexpectedly: owned message"),
            "{message}"
        );
        // `compile --json` keeps its own document shape for an internal error too.
        let compile = argv(&["lintel", "compile", "spec/architecture.ag", "--json"]);
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        let status = unless_it_panics(&compile, &mut stdout, &mut stderr, |_, _| {
            panic!("compile bug")
        });
        assert_eq!(status, ExitStatus::Error);
        let report: serde_json::Value = serde_json::from_slice(&stdout).expect("one JSON document");
        assert_eq!(report["schema_version"], 2);
        assert_eq!(report["ok"], false);
        assert!(report.get("verdict").is_none(), "{report}");
        assert_eq!(report["diagnostics"][0]["code"], "internal-error");
        assert_eq!(report["diagnostics"][0]["file"], "spec/architecture.ag");
        // A command that does not panic keeps its own status and output.
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        let status = unless_it_panics(&text, &mut stdout, &mut stderr, |stdout, _| {
            let _ = stdout.write_all(b"done");
            ExitStatus::Violation
        });
        assert_eq!(
            (status, stdout.as_slice()),
            (ExitStatus::Violation, &b"done"[..])
        );
    }
}
