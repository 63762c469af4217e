//! `lintel init`: writes a starter `architecture.ag` for a human to review.
//!
//! `--from FILE` translates another tool's configuration; the translator is chosen by the file's
//! name ([`Source::of`]), so a new one is a module and one match arm. Without `--from`, a starter
//! spec is proposed from what the repository shows ([`starter`]: units from [`layout`], nodes and
//! rules from the extracted graph in [`proposals`]; docs/INIT.md).

mod cruiser;
mod known_violations;
mod layout;
mod proposals;
mod starter;
mod tach;
mod tach_ignores;

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::cli::exit::ExitStatus;
use crate::error::EngineError;
use crate::input::paths::relative_to;

/// The configurations `--from` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// Tach's `tach.toml`.
    Tach,
    /// A dependency-cruiser configuration (`.dependency-cruiser.js`, `.cjs`, `.mjs` or `.json`).
    DependencyCruiser,
}

impl Source {
    /// The translator for a configuration file, by its name.
    fn of(path: &Path) -> Option<Self> {
        let name = path.file_name()?.to_str()?;
        if name == "tach.toml" {
            return Some(Self::Tach);
        }
        let is_script = [".js", ".cjs", ".mjs", ".json"]
            .iter()
            .any(|extension| name.ends_with(extension));
        (name.contains("dependency-cruiser") && is_script).then_some(Self::DependencyCruiser)
    }
}

/// What `init` was asked to do.
#[derive(Debug, Clone)]
pub struct InitOptions {
    /// The project root.
    pub project: PathBuf,
    /// `--from`: the configuration to translate.
    pub from: Option<PathBuf>,
    /// `--out`: where to write the spec (default `<project>/architecture.ag`).
    pub out: Option<PathBuf>,
    /// `--force`: overwrite an existing spec.
    pub force: bool,
    /// `--print`: write the spec to stdout instead of a file.
    pub print: bool,
}

/// The spec text `init` writes.
pub fn spec_text(options: &InitOptions) -> Result<String, EngineError> {
    let Some(from) = &options.from else {
        return starter::starter_spec(&options.project);
    };
    let Some(source) = Source::of(from) else {
        return Err(EngineError::Usage(format!(
            "--from `{}`: lintel translates `tach.toml` and dependency-cruiser configurations (`.dependency-cruiser.js`, `.cjs`, `.mjs`, `.json`)",
            from.display()
        )));
    };
    let text = std::fs::read_to_string(from).map_err(|error| {
        EngineError::Usage(format!("cannot read `{}`: {error}", from.display()))
    })?;
    let name = relative_to(from, &options.project);
    match source {
        Source::Tach => tach::translate(&text, &name, &options.project)
            .and_then(|spec| waive_tach_ignores(spec, &options.project)),
        Source::DependencyCruiser => cruiser::translate(&text, &name, &options.project)
            .and_then(|spec| waive_known_violations(spec, &options.project, from)),
    }
}

/// The translated Tach spec with a waiver for each finding that `# tach-ignore` directives
/// silence in Tach ([`tach_ignores`]): the project is checked against the spec only when some
/// Python file holds a directive.
fn waive_tach_ignores(spec: String, project: &Path) -> Result<String, EngineError> {
    let Ok(scope) = crate::input::scope::resolve(project, &crate::input::scope::ScopeRequest::All)
    else {
        return Ok(spec);
    };
    if !tach_ignores::any_directive(project, &scope.project_files) {
        return Ok(spec);
    }
    with_waivers(
        spec,
        project,
        "`# tach-ignore` directives: Tach skips the imports they mark",
        |_| (),
        |violations, (), until| tach_ignores::waivers(project, violations, until),
    )
}

/// `spec` checked on `project`, with the waivers `waivers` makes of its findings appended under
/// a comment that says why (`reason`) and for how long: each holds for a year, as lintel's
/// exceptions expire so that they are looked at again. `inspect` reads what `waivers` needs of
/// the run's analysis. The spec is unchanged when there is no waiver to write.
fn with_waivers<T: Send>(
    spec: String,
    project: &Path,
    reason: &str,
    inspect: impl FnOnce(&crate::report::Analysis) -> T + Send,
    waivers: impl FnOnce(&[crate::verdict::ArchitectureViolation], T, &str) -> Vec<String>,
) -> Result<String, EngineError> {
    // The scratch folder lives until the check has read the spec in it.
    let checked = starter::scratch_spec(&spec).and_then(|(_folder, path)| {
        crate::check::run_check_with(
            &starter::check_options(project, &path),
            &crate::solve::Z3Solver,
            inspect,
        )
    });
    // The translation stands without its waivers: a check that cannot run says why in the spec.
    let (run, inspected) = match checked {
        Ok(checked) => checked,
        Err(error) => {
            return Ok(format!(
                "{spec}\n// {reason}, but the project could not be checked to find their findings ({}): waive them after `lintel check --all`.\n",
                error.to_string().replace('\n', " ")
            ))
        }
    };
    let today: String = crate::report::timestamp_now().chars().take(10).collect();
    let until = tach_ignores::a_year_after(&today);
    let waivers = waivers(&run.verdict.violations, inspected, &until);
    if waivers.is_empty() {
        return Ok(spec);
    }
    Ok(format!(
        "{spec}\n// {reason}: each finding of such imports is waived until {until}, a year on\n// (lintel's exceptions expire, so that they are looked at again).\n{}\n",
        waivers.join("\n")
    ))
}

/// The translated dependency-cruiser spec with a waiver for each finding of an import that the
/// project's known violations list ([`known_violations`]): read beside the configuration, else
/// at the project root; the project is checked only when the file lists some.
fn waive_known_violations(
    spec: String,
    project: &Path,
    config: &Path,
) -> Result<String, EngineError> {
    let beside = config
        .parent()
        .map(|folder| folder.join(known_violations::FILE_NAME));
    let Some(text) = beside
        .into_iter()
        .chain([project.join(known_violations::FILE_NAME)])
        .find_map(|path| policies::read::read_regular_file(&path, 64 << 20).ok())
        .and_then(|bytes| String::from_utf8(bytes).ok())
    else {
        return Ok(spec);
    };
    let known = known_violations::read(&text);
    if known.is_empty() {
        return Ok(spec);
    }
    let reason = format!(
        "The known violations of `{}`: `depcruise --ignore-known` skips them",
        known_violations::FILE_NAME
    );
    with_waivers(
        spec,
        project,
        &reason,
        |analysis| known_violations::imports(&analysis.extraction.facts),
        |violations, imports, until| known_violations::waivers(violations, &imports, &known, until),
    )
}

/// Runs `init`: writes the spec (to stdout with `--print`), or reports a coded error (exit 2).
pub fn init_command(
    options: &InitOptions,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> ExitStatus {
    let out = options
        .out
        .clone()
        .unwrap_or_else(|| options.project.join("architecture.ag"));
    let refused = |out: &Path| {
        EngineError::Usage(format!(
            "`{}` exists: pass `--force` to overwrite it, `--out FILE`, or `--print`",
            relative_to(out, &options.project)
        ))
    };
    if options.print {
        return match spec_text(options).and_then(|text| {
            stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
                .map_err(|error| EngineError::Usage(format!("cannot write the spec: {error}")))
        }) {
            Ok(()) => ExitStatus::Pass,
            Err(error) => {
                crate::render::text::write_error(stderr, &error);
                ExitStatus::Error
            }
        };
    }
    // Refused before the repository is read: proposing a spec runs a whole check.
    let written = (if out.exists() && !options.force {
        Err(refused(&out))
    } else {
        Ok(())
    })
    .and_then(|()| spec_text(options))
    .and_then(|text| {
        if out.exists() && !options.force {
            return Err(refused(&out));
        }
        std::fs::write(&out, text).map_err(|error| {
            EngineError::Usage(format!(
                "cannot write `{}`: {error}",
                relative_to(&out, &options.project)
            ))
        })
    });
    match written {
        Ok(()) => {
            let _ = writeln!(
                stderr,
                "wrote `{}`: review it, then run `lintel check --all`",
                relative_to(&out, &options.project)
            );
            ExitStatus::Pass
        }
        Err(error) => {
            crate::render::text::write_error(stderr, &error);
            ExitStatus::Error
        }
    }
}
