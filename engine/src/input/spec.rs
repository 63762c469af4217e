//! Finding and loading the spec (`--spec` of `lintel check` in docs/CLI.md): a `.ag` source compiled in memory,
//! or a compiled artifact (JSON with `"lintel_artifact": 1`), never half-loaded.

use std::path::{Path, PathBuf};

use policies::model::{Model, RuleBody, WorkflowCondition};
use policies::Diagnostic;
use serde::{Deserialize, Serialize};

use crate::error::EngineError;
use crate::input::paths::relative_to;

/// The artifact schema version this build reads and writes.
pub const ARTIFACT_VERSION: u32 = 1;

/// A compiled artifact larger than this is refused (`spec-unreadable`): the artifact of a spec
/// at its own 4 MiB limit is far smaller.
pub const MAX_ARTIFACT_BYTES: u64 = 64 * 1024 * 1024;

/// Longest excerpt of an artifact's content that an error message quotes.
const MAX_QUOTED_CHARS: usize = 120;

/// A loaded, valid spec.
#[derive(Debug, Clone)]
pub struct LoadedSpec {
    /// The checked model.
    pub model: Model,
    /// The spec or artifact path, project-relative.
    pub artifact: String,
    /// Every spec source file (project-relative), for the "spec changed" scope rule.
    pub spec_files: Vec<String>,
    /// Spec warnings (reported in `warnings[]` under their own codes).
    pub warnings: Vec<Diagnostic>,
    /// The project's reviewed queries (loaded after the spec).
    pub queries: crate::input::queries::LoadedQueries,
}

/// The compiled artifact written by `lintel compile`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Artifact {
    /// Schema version of the artifact.
    pub lintel_artifact: u32,
    /// The tool version that wrote it.
    pub tool_version: String,
    /// Spec source files, project-relative.
    pub sources: Vec<String>,
    /// The checked model.
    pub model: Model,
    /// Spec warnings.
    pub warnings: Vec<Diagnostic>,
    /// SMT-LIB text per rule, by `declaration: text`.
    pub rule_smt: Vec<ArtifactRule>,
}

/// One rule of the artifact with its permanent constraint in SMT-LIB.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ArtifactRule {
    /// Declaration name.
    pub declaration: String,
    /// Rule text.
    pub text: String,
    /// Rule kind code.
    pub kind: String,
    /// Where the rule is written.
    pub source: String,
    /// The rule's permanent constraint as SMT-LIB text (`policies::smt::permanent_constraint`);
    /// `null` for the compile-time kind RequireContractImplementedBy.
    #[serde(default)]
    pub smt: Option<String>,
}

fn find_spec_in(
    root: &Path,
    spec: Option<&Path>,
    files: &SpecFiles<'_>,
) -> Result<PathBuf, EngineError> {
    if let Some(spec) = spec {
        return Ok(spec.to_path_buf());
    }
    ["architecture.ag", "architecture.o"]
        .into_iter()
        .map(|name| root.join(name))
        .find(|path| files.exists(path))
        .ok_or_else(|| EngineError::SpecNotFound(root.display().to_string()))
}

/// Where spec files (the spec, its imports, an artifact) are read from: the snapshot a check
/// reads the project from, for the files of the project it holds (under `--diff` the HEAD
/// commit, staged the index: uncommitted edits are not the spec checked), else the disk (a spec
/// outside the project, a file never committed, and every file of a work-tree check).
pub struct SpecFiles<'a> {
    snapshot: Option<(&'a Path, crate::input::scope::SnapshotReader<'a>)>,
}

impl<'a> SpecFiles<'a> {
    /// Every file from disk.
    pub fn disk() -> Self {
        Self { snapshot: None }
    }

    /// The files of the project under `root` that `read` has (by project-relative path) from
    /// it, the rest from disk.
    pub fn snapshot(root: &'a Path, read: crate::input::scope::SnapshotReader<'a>) -> Self {
        Self {
            snapshot: Some((root, read)),
        }
    }

    /// The snapshot's answer for `path`, when it lies in the project and the snapshot has it.
    fn snapshot_file(&self, path: &Path) -> Option<std::io::Result<Vec<u8>>> {
        let (root, read) = self.snapshot?;
        let relative = relative_to(path, root);
        if relative.starts_with("../") || relative == ".." {
            return None;
        }
        read(&relative)
    }

    /// Whether the file exists.
    pub fn exists(&self, path: &Path) -> bool {
        // Whatever it is: a FIFO or a device named `architecture.ag` is found, then refused
        // when read (`policies::read`), not passed over for another spec.
        self.snapshot_file(path).is_some_and(|read| read.is_ok()) || std::fs::metadata(path).is_ok()
    }

    /// The file's bytes.
    ///
    /// From disk, only a regular file is read, and at most its limit plus one byte: 4 MiB for a
    /// spec source (whose limit the loader reports), [`MAX_ARTIFACT_BYTES`] for an artifact.
    pub fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        match self.snapshot_file(path) {
            Some(read) => read,
            None => {
                let limit = if is_artifact_path(path) {
                    MAX_ARTIFACT_BYTES
                } else {
                    policies::load::MAX_FILE_BYTES
                };
                policies::read::read_regular_file(path, limit)
            }
        }
    }
}

fn is_artifact_path(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|extension| extension.to_str()),
        Some("o" | "json")
    )
}

/// The spec a run uses, project-relative, as a verdict's `artifact` names it: the one named,
/// else the one found on disk; empty when there is none. An error verdict names it too, so that
/// a broken spec is reported with the file it came from.
pub fn spec_artifact(root: &Path, spec: Option<&Path>) -> String {
    find_spec_in(root, spec, &SpecFiles::disk())
        .map(|path| relative_to(&path, root))
        .unwrap_or_default()
}

/// Loads and checks the spec from disk.
pub fn load_spec(root: &Path, spec: Option<&Path>) -> Result<LoadedSpec, EngineError> {
    load_spec_from(root, spec, &SpecFiles::disk())
}

/// Loads and checks the spec, reading its files from `files`.
pub fn load_spec_from(
    root: &Path,
    spec: Option<&Path>,
    files: &SpecFiles<'_>,
) -> Result<LoadedSpec, EngineError> {
    let path = find_spec_in(root, spec, files)?;
    let artifact = relative_to(&path, root);
    // The default spec is the project's own file: a symbolic link that leads out of the project
    // is not followed (a spec outside the project is used only when `--spec` names it).
    // (A spec the checked git snapshot holds is read from its blob, not through the link.)
    if spec.is_none()
        && files.snapshot_file(&path).is_none()
        && policies::read::leaves_root(&path, root)
    {
        return Err(EngineError::SpecUnreadable {
            path: artifact,
            reason: "a symbolic link that leads out of the project is not followed: name the spec with `--spec`".into(),
        });
    }
    if !files.exists(&path) {
        return Err(EngineError::SpecUnreadable {
            path: artifact,
            reason: "no such file".into(),
        });
    }
    if is_artifact_path(&path) {
        return load_artifact(&path, artifact, files);
    }
    let read = |path: &Path| files.read(path);
    let output = policies::compile_spec_with(&path, root, &read);
    match output.model {
        Some(model) if !output.diagnostics.iter().any(Diagnostic::is_error) => {
            let spec_files = model.files.clone();
            Ok(LoadedSpec {
                model,
                artifact,
                spec_files,
                warnings: output.diagnostics,
                queries: crate::input::queries::LoadedQueries::default(),
            })
        }
        _ => {
            if output.diagnostics.is_empty() {
                return Err(EngineError::SpecUnreadable {
                    path: artifact,
                    reason: "the spec could not be loaded".into(),
                });
            }
            Err(EngineError::Spec(output.diagnostics))
        }
    }
}

/// Why a deserialised artifact's model is not one `lintel compile` could have written: a glob
/// the checker refuses (too long, too many alternatives, not compilable), or a rule that names an
/// entity the model does not declare. An artifact is never half-loaded.
fn artifact_problem(model: &Model) -> Option<String> {
    let globs = model
        .components
        .iter()
        .flat_map(|component| component.paths.iter())
        .map(|glob| glob.strip_prefix('!').unwrap_or(glob))
        .chain(model.excludes.iter().map(String::as_str));
    for glob in globs {
        if let Some(problem) = policies::check::glob_problem(glob) {
            return Some(policies::read::excerpt(&problem, MAX_QUOTED_CHARS));
        }
    }
    let declared = |name: &str| {
        model.component(name).is_some()
            || model.nodes.iter().any(|node| node.name == name)
            || model.resources.iter().any(|resource| resource.name == name)
    };
    for rule in &model.rules {
        let (endpoints, condition): (Vec<&str>, _) = match &rule.body {
            RuleBody::Pair { from, to } | RuleBody::Dependency { from, to, .. } => {
                (vec![from, to], None)
            }
            RuleBody::PairVia { from, to, via } => (
                [from, to]
                    .into_iter()
                    .chain(via.iter())
                    .map(String::as_str)
                    .collect(),
                None,
            ),
            RuleBody::WorkflowAction { condition, .. }
            | RuleBody::WorkflowPermission { condition, .. } => (Vec::new(), condition.as_ref()),
            _ => (Vec::new(), None),
        };
        if let Some(name) = endpoints.into_iter().find(|name| !declared(name)) {
            return Some(format!(
                "rule `{}` names `{}`, which the artifact does not declare",
                policies::read::excerpt(&rule.text, MAX_QUOTED_CHARS),
                policies::read::excerpt(name, MAX_QUOTED_CHARS)
            ));
        }
        if let Some(WorkflowCondition::Branch { pattern } | WorkflowCondition::Tag { pattern }) =
            condition
        {
            if let Some(problem) = policies::limits::glob_size_problem(pattern) {
                return Some(format!(
                    "rule `{}`: {problem}",
                    policies::read::excerpt(&rule.text, MAX_QUOTED_CHARS)
                ));
            }
        }
    }
    None
}

fn load_artifact(
    path: &Path,
    artifact: String,
    files: &SpecFiles<'_>,
) -> Result<LoadedSpec, EngineError> {
    let unreadable = |reason: String| EngineError::SpecUnreadable {
        path: artifact.clone(),
        reason,
    };
    let bytes = files
        .read(path)
        .map_err(|error| unreadable(error.to_string()))?;
    if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > MAX_ARTIFACT_BYTES {
        return Err(unreadable(format!(
            "the artifact is larger than {} MiB",
            MAX_ARTIFACT_BYTES >> 20
        )));
    }
    let text = String::from_utf8(bytes).map_err(|error| unreadable(error.to_string()))?;
    // Messages quote at most a short, escaped excerpt of the file: an artifact is not a spec,
    // and may be anything (`/proc` files are refused before this).
    let quoted = |message: String| policies::read::excerpt(&message, MAX_QUOTED_CHARS);
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|error| EngineError::ArtifactInvalid {
            path: artifact.clone(),
            reason: format!("not JSON: {}", quoted(error.to_string())),
        })?;
    let Some(version) = value.get("lintel_artifact") else {
        return Err(EngineError::ArtifactInvalid {
            path: artifact,
            reason: "no `lintel_artifact` key".into(),
        });
    };
    if version.as_u64() != Some(u64::from(ARTIFACT_VERSION)) {
        return Err(EngineError::ArtifactVersionMismatch {
            path: artifact,
            found: quoted(version.to_string()),
            expected: ARTIFACT_VERSION,
        });
    }
    let loaded: Artifact =
        serde_json::from_value(value).map_err(|error| EngineError::ArtifactInvalid {
            path: artifact.clone(),
            reason: quoted(error.to_string()),
        })?;
    if let Some(reason) = artifact_problem(&loaded.model) {
        return Err(EngineError::ArtifactInvalid {
            path: artifact,
            reason,
        });
    }
    Ok(LoadedSpec {
        model: loaded.model,
        artifact,
        spec_files: loaded.sources,
        warnings: loaded.warnings,
        queries: crate::input::queries::LoadedQueries::default(),
    })
}
