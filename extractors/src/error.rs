//! Errors of the extractor stage.
//!
//! Only internal problems are errors here: a bundled query that does not compile or uses a
//! capture outside the `@fact.<kind>.<field>` vocabulary. User input never produces an error;
//! broken source files are reported through [`crate::FileExtraction::parse_errors`].

use miette::Diagnostic;
use thiserror::Error;

/// An internal error of the extractors.
#[derive(Debug, Clone, PartialEq, Eq, Error, Diagnostic)]
#[non_exhaustive]
pub enum ExtractError {
    /// A bundled query does not compile against its grammar.
    #[error(transparent)]
    #[diagnostic(transparent)]
    QueryCompile(#[from] QueryCompileError),
    /// A bundled query uses a capture outside the closed vocabulary.
    #[error(transparent)]
    #[diagnostic(transparent)]
    UnknownCapture(#[from] UnknownCaptureError),
}

/// A bundled `.scm` query that tree-sitter rejects.
#[derive(Debug, Clone, PartialEq, Eq, Error, Diagnostic)]
#[error("query `{file}` does not compile for {language}: line {line}: {message}")]
#[diagnostic(
    code("query-compile"),
    help("fix the pattern in `extractors/queries/`")
)]
pub struct QueryCompileError {
    language: &'static str,
    file: &'static str,
    line: usize,
    message: String,
}

impl QueryCompileError {
    pub(crate) fn new(
        language: &'static str,
        file: &'static str,
        line: usize,
        message: String,
    ) -> Self {
        Self {
            language,
            file,
            line,
            message,
        }
    }

    /// The query file, relative to `extractors/queries/`.
    pub fn file(&self) -> &str {
        self.file
    }
}

/// A capture name that is not `@fact.<kind>.<field>` for a known kind and field.
#[derive(Debug, Clone, PartialEq, Eq, Error, Diagnostic)]
#[error("unknown capture `@{capture}` in the {language} query: expected one of {expected}")]
#[diagnostic(
    code("unknown-capture"),
    help("use a capture of the `@fact.<kind>.<field>` vocabulary")
)]
pub struct UnknownCaptureError {
    language: &'static str,
    capture: String,
    expected: String,
}

impl UnknownCaptureError {
    pub(crate) fn new(language: &'static str, capture: &str, expected: &[String]) -> Self {
        let expected = expected
            .iter()
            .map(|name| format!("`@{name}`"))
            .collect::<Vec<_>>()
            .join(", ");
        Self {
            language,
            capture: capture.to_owned(),
            expected,
        }
    }

    /// The offending capture name, without `@`.
    pub fn capture(&self) -> &str {
        &self.capture
    }
}
