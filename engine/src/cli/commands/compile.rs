//! `lintel compile FILE.ag [--out architecture.o] [--json]`: type-checks a spec and writes the artifact.

use clap::Args;
use std::io::Write;
use std::path::PathBuf;

use serde::Serialize;

use crate::cli::exit::ExitStatus;
use crate::input::paths::relative_to;
use crate::input::spec::{Artifact, ArtifactRule, ARTIFACT_VERSION};

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

/// `compile --json` output.
#[derive(Debug, Serialize)]
struct CompileReport {
    schema_version: u32,
    ok: bool,
    diagnostics: Vec<policies::Diagnostic>,
}

/// Where `compile` writes without `--out`: under lintel's cache folder, never in the source
/// tree (a build product in the repository would show in `git status` and could be committed
/// stale), in a folder named after the spec's absolute path, so specs of two projects do not
/// share one file: `~/.cache/lintel/artifacts/<16 hex>/architecture.o`.
pub fn default_artifact_path(spec: &std::path::Path) -> PathBuf {
    let absolute = std::path::absolute(spec).unwrap_or_else(|_| spec.to_path_buf());
    let folder = crate::report::hashed_id("", &absolute.to_string_lossy());
    let name = spec
        .with_extension("o")
        .file_name()
        .map_or_else(|| "architecture.o".into(), ToOwned::to_owned);
    crate::input::cache::lintel_cache_home()
        .unwrap_or_else(|| std::env::temp_dir().join("lintel"))
        .join("artifacts")
        .join(folder)
        .join(name)
}

/// `compile --json` when the compile cannot finish (an `--out` path that cannot be written, a
/// bug in lintel): the same `{schema_version, ok, diagnostics}` document, `ok` false, with one
/// error diagnostic carrying the engine's code at the start of the spec file.
pub(crate) fn write_error_report(
    stdout: &mut dyn Write,
    error: &crate::error::EngineError,
    spec_file: &str,
) {
    let report = CompileReport {
        schema_version: 2,
        ok: false,
        diagnostics: vec![policies::Diagnostic {
            code: error.code(),
            severity: policies::diagnostic::Severity::Error,
            message: error.to_string(),
            file: spec_file.to_owned(),
            line: 1,
            column: 1,
            offset: 0,
            end_offset: 0,
            help: None,
            related: Vec::new(),
        }],
    };
    let _ = crate::render::json::write(stdout, &report);
}

/// Runs `compile`.
pub fn compile_command(
    arguments: &CompileArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> ExitStatus {
    let root = arguments
        .project
        .clone()
        .unwrap_or_else(|| PathBuf::from("."));
    let output = policies::compile_spec(&arguments.file, &root);
    let ok = output.model.is_some()
        && !output
            .diagnostics
            .iter()
            .any(policies::Diagnostic::is_error);
    if let (true, Some(model)) = (ok, &output.model) {
        let out = arguments
            .out
            .clone()
            .unwrap_or_else(|| default_artifact_path(&arguments.file));
        let artifact = Artifact {
            lintel_artifact: ARTIFACT_VERSION,
            tool_version: env!("CARGO_PKG_VERSION").to_owned(),
            sources: model.files.clone(),
            model: model.clone(),
            warnings: output.diagnostics.clone(),
            rule_smt: model
                .rules
                .iter()
                .map(|rule| ArtifactRule {
                    declaration: rule.declaration.clone(),
                    text: rule.text.clone(),
                    kind: rule.kind.code().to_owned(),
                    source: rule.source.to_string(),
                    smt: policies::smt::permanent_constraint(rule, model).map(|slice| slice.text),
                })
                .collect(),
        };
        let written = serde_json::to_string_pretty(&artifact)
            .map_err(std::io::Error::other)
            .and_then(|text| {
                if arguments.out.is_none() {
                    if let Some(folder) = out.parent() {
                        std::fs::create_dir_all(folder)?;
                    }
                }
                std::fs::write(&out, text + "\n")
            });
        if let Err(error) = written {
            // An `--out` path that cannot be written is a bad argument; with `--json`, stdout
            // still holds one JSON document, the error verdict.
            let error = crate::error::EngineError::Usage(format!(
                "cannot write `{}`: {error}",
                relative_to(&out, &root)
            ));
            if arguments.json {
                write_error_report(stdout, &error, &relative_to(&arguments.file, &root));
            } else {
                crate::render::text::write_error(stderr, &error);
            }
            return ExitStatus::Error;
        }
    }
    if arguments.json {
        let report = CompileReport {
            schema_version: 2,
            ok,
            diagnostics: output.diagnostics,
        };
        let _ = crate::render::json::write(stdout, &report);
    } else {
        let _ = crate::render::text::write_diagnostics(stderr, &output.diagnostics, Some(&root));
        if ok {
            let written = match &arguments.out {
                Some(out) => format!("wrote `{}`", relative_to(out, &root)),
                None => format!(
                    "wrote {} (outside the project; `--out FILE` writes it elsewhere)",
                    default_artifact_path(&arguments.file).display()
                ),
            };
            let _ = writeln!(
                stderr,
                "ok: `{}` compiled; {written}",
                relative_to(&arguments.file, &root)
            );
        }
    }
    if ok {
        ExitStatus::Pass
    } else {
        ExitStatus::Error
    }
}
