//! Engine errors: everything that stops a run, each with the stable code of see `error`, `message` and `diagnostics` in docs/VERDICT.md.

use policies::Diagnostic;

/// An error that stops a check (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// Bad arguments.
    #[error("{0}")]
    Usage(String),
    /// No spec given or found.
    #[error("no spec found: expected `architecture.ag` or `architecture.o` in `{0}`, or pass `--spec FILE`")]
    SpecNotFound(String),
    /// The spec cannot be read.
    #[error("cannot read spec `{path}`: {reason}")]
    SpecUnreadable {
        /// Project-relative path.
        path: String,
        /// OS error text.
        reason: String,
    },
    /// The spec has errors; every diagnostic is carried.
    #[error("{}", first_error_message(.0))]
    Spec(Vec<Diagnostic>),
    /// Reviewed queries failed to load; every load diagnostic is carried.
    #[error("{}", first_error_message(.0))]
    Queries(Vec<Diagnostic>),
    /// Not a lintel artifact.
    #[error("`{path}` is not a lintel artifact: {reason}")]
    ArtifactInvalid {
        /// Project-relative path.
        path: String,
        /// Why.
        reason: String,
    },
    /// Artifact of another schema version.
    #[error("`{path}` has artifact schema version {found}, this lintel reads version {expected}")]
    ArtifactVersionMismatch {
        /// Project-relative path.
        path: String,
        /// The version found.
        found: String,
        /// The version this build reads.
        expected: u32,
    },
    /// The baseline file cannot be read or is not a lintel baseline.
    #[error("`{path}` is not a lintel baseline: {reason}")]
    BaselineInvalid {
        /// Project-relative path.
        path: String,
        /// Why.
        reason: String,
    },
    /// A git scope outside a repository.
    #[error("`{0}` is not inside a git repository: use `--all` or `--file` outside git")]
    NotAGitRepository(String),
    /// A ref git cannot resolve.
    #[error("unknown git ref `{0}`")]
    UnknownRef(String),
    /// REF and HEAD share no history.
    #[error("`{0}` and HEAD have no common history")]
    NoMergeBase(String),
    /// The merge base is missing from a shallow clone.
    #[error("the merge base of `{0}` and HEAD is missing from this shallow clone: fetch full history (`fetch-depth: 0` in actions/checkout) or fetch the base commit")]
    MissingMergeBase(String),
    /// A `--file` path outside the project.
    #[error("`{0}` is outside the project root")]
    PathOutsideProject(String),
    /// A planned command or format.
    #[error("{0} is not implemented yet")]
    NotImplemented(String),
    /// A git failure that is not one of the cases above: the repository cannot be read (a
    /// corrupt HEAD or index), `git-error`.
    #[error("git: {0}")]
    Git(String),
    /// A bug in lintel.
    #[error("internal error: {0}")]
    Internal(String),
}

/// The message a panic was raised with, for an `internal-error` report.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|message| (*message).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_owned())
}

fn first_error_message(diagnostics: &[Diagnostic]) -> String {
    diagnostics
        .iter()
        .find(|diagnostic| diagnostic.is_error())
        .map(|diagnostic| diagnostic.message.clone())
        .unwrap_or_else(|| "the spec has errors".to_owned())
}

impl EngineError {
    /// The stable code.
    pub fn code(&self) -> String {
        match self {
            Self::Usage(_) => "usage-error".into(),
            Self::SpecNotFound(_) => "spec-not-found".into(),
            Self::SpecUnreadable { .. } => "spec-unreadable".into(),
            Self::Spec(diagnostics) | Self::Queries(diagnostics) => diagnostics
                .iter()
                .find(|diagnostic| diagnostic.is_error())
                .map(|diagnostic| diagnostic.code.clone())
                .unwrap_or_else(|| "spec-invalid".into()),
            Self::ArtifactInvalid { .. } => "artifact-invalid".into(),
            Self::ArtifactVersionMismatch { .. } => "artifact-version-mismatch".into(),
            Self::BaselineInvalid { .. } => "baseline-invalid".into(),
            Self::NotAGitRepository(_) => "not-a-git-repository".into(),
            Self::UnknownRef(_) => "unknown-ref".into(),
            Self::NoMergeBase(_) => "no-merge-base".into(),
            Self::MissingMergeBase(_) => "missing-merge-base".into(),
            Self::PathOutsideProject(_) => "path-outside-project".into(),
            Self::NotImplemented(_) => "not-implemented".into(),
            Self::Git(_) => "git-error".into(),
            Self::Internal(_) => "internal-error".into(),
        }
    }

    /// The first error diagnostic's location, for spec errors.
    pub fn location(&self) -> Option<(String, u32, u32)> {
        match self {
            Self::Spec(diagnostics) | Self::Queries(diagnostics) => diagnostics
                .iter()
                .find(|diagnostic| diagnostic.is_error())
                .map(|diagnostic| (diagnostic.file.clone(), diagnostic.line, diagnostic.column)),
            _ => None,
        }
    }

    /// Every spec diagnostic, for spec errors.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        match self {
            Self::Spec(diagnostics) | Self::Queries(diagnostics) => diagnostics.clone(),
            _ => Vec::new(),
        }
    }
}
