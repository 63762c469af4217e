//! The command line (docs/CLI.md): argument parsing with clap, dispatch, and exit codes.
//!
//! [`run`] takes its writers as arguments, so tests drive the whole CLI in-process.
//! Exit codes: 0 pass, 1 violation (or an undecided slice), 2 error.

use std::io::Write;
use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::cli::commands::baseline::BaselineArgs;
use crate::cli::commands::check::{check_command, report_error, shell_word, CheckArgs, Format};
use crate::cli::commands::compile::CompileArgs;
use crate::cli::commands::emit_context::OutputArgs;
use crate::cli::commands::explain::ExplainArgs;
use crate::cli::commands::graph::GraphArgs;
use crate::cli::exit::ExitStatus;
use crate::error::EngineError;
use crate::render;

pub mod commands;
pub mod exit;

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
    /// Without `--from`, the components are the repository's units (workspace packages, Nx
    /// projects, crates, Gradle and Maven modules, `.csproj` projects, Go and Python packages,
    /// SwiftPM targets, top-level source folders), the nodes the infrastructure its code uses, and the rules
    /// `deny flow`s that hold today: the layering of the component graph and UI away from data
    /// stores, each after a comment with its evidence (docs/INIT.md). With `--from`, the
    /// exceptions the old tool accepted (`# tach-ignore` comments, dependency-cruiser's known
    /// violations) become waivers of the findings they cover, each for a year
    /// (docs/MIGRATING.md).
    Init {
        /// Project root.
        #[arg(long)]
        project: Option<PathBuf>,
        /// The configuration to translate: a `tach.toml`, or a `.dependency-cruiser.js`/`.cjs`/`.mjs`/`.json`.
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

/// True when argv asks for JSON, so that even a usage error prints the JSON document.
fn argv_wants_json(argv: &[String]) -> bool {
    argv.iter().enumerate().any(|(index, argument)| {
        argument == "--json"
            || argument == "--format=json"
            || (argument == "--format" && argv.get(index + 1).is_some_and(|next| next == "json"))
    })
}

/// The scope argv asks for, for the verdict of a usage error (`diff` carries the requested mode,
/// docs/CLI.md): its `diff.mode`, `diff.base` and the re-run command with the scope flags as given.
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
                crate::cli::commands::compile::write_error_report(stdout, &error, spec_file);
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
        Command::Check(arguments) => check_or_html(&arguments, stdout, stderr),
        Command::CheckFile(arguments) => {
            if arguments.file.is_empty() {
                return report_error(
                    &arguments,
                    &EngineError::Usage("`check-file` needs `--file PATH…`".into()),
                    stdout,
                    stderr,
                );
            }
            check_or_html(&arguments, stdout, stderr)
        }
        Command::Explain(arguments) => {
            crate::cli::commands::explain::explain_command(&arguments, stdout, stderr)
        }
        Command::Compile(arguments) => {
            crate::cli::commands::compile::compile_command(&arguments, stdout, stderr)
        }
        Command::Graph(arguments) => {
            crate::cli::commands::graph::graph_command(&arguments, stdout, stderr)
        }
        Command::EmitContext { out, spec } => {
            crate::cli::commands::emit_context::emit_context_command(
                &spec,
                out.as_ref(),
                stdout,
                stderr,
            )
        }
        Command::Baseline(arguments) => {
            crate::cli::commands::baseline::baseline_command(&arguments, stdout, stderr)
        }
        Command::Init {
            project,
            from,
            out,
            force,
            print,
        } => crate::cli::commands::init::init_command(
            &crate::cli::commands::init::InitOptions {
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
            crate::cli::commands::bench_parse::bench_parse_command(&arguments, stdout, stderr)
        }
        Command::Schema { which } => {
            crate::cli::commands::schema::schema_command(&which, stdout, stderr)
        }
    }
}

/// `check`, or with `--format html` its HTML report, which the `graph` command draws.
fn check_or_html(
    arguments: &CheckArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> ExitStatus {
    if arguments.format == Some(Format::Html) && !arguments.wants_json() {
        return crate::cli::commands::graph::check_html(arguments, stdout, stderr);
    }
    check_command(arguments, stdout, stderr)
}

#[cfg(test)]
mod tests {
    use super::unless_it_panics;
    use crate::cli::exit::ExitStatus;

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
