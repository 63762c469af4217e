//! The front end's entry points: load, lex, parse and check a spec, and turn every located
//! error into a sorted [`Diagnostic`] list.

use std::path::Path;

use crate::check;
use crate::diagnostic::{Diagnostic, RelatedLocation};
use crate::error::{Code, SpecError};
use crate::load::{self, Loaded, RootSource};
use crate::model::Model;
use crate::syntax::Span;

/// A compile reports at most this many diagnostics, then one `too-many-diagnostics` that counts
/// the rest.
pub const MAX_DIAGNOSTICS: usize = 200;

/// A diagnostic's message is cut after this many bytes.
pub const MAX_MESSAGE_BYTES: usize = 1_000;

/// The result of compiling a spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileOutput {
    /// The checked model; `Some` exactly when no diagnostic is an error.
    pub model: Option<Model>,
    /// Every diagnostic, sorted by file (merged order), byte offset, then code.
    pub diagnostics: Vec<Diagnostic>,
}

impl CompileOutput {
    /// True when some diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Loads `spec_path` and its imports from disk, lexes, parses and checks them.
///
/// `project_root` only makes file paths project-relative (with `/`, and `..` segments for
/// files outside it); no output holds an absolute path.
pub fn compile_spec(spec_path: &Path, project_root: &Path) -> CompileOutput {
    finish(load::load(RootSource::Disk(spec_path), project_root))
}

/// [`compile_spec`], reading the spec and its imports through `read` (a snapshot of the
/// project, such as the commit a diff checks).
pub fn compile_spec_with(
    spec_path: &Path,
    project_root: &Path,
    read: load::SpecReader<'_>,
) -> CompileOutput {
    finish(load::load_with(
        RootSource::Disk(spec_path),
        project_root,
        read,
    ))
}

/// Compiles in-memory text. `file_name` is the project-relative name to report; the project
/// root is the current directory, so imports resolve against `file_name`'s directory there.
pub fn compile_source(file_name: &str, source: &str) -> CompileOutput {
    compile_source_in(file_name, source, Path::new("."))
}

/// Compiles in-memory text as the file `file_name` under `project_root`; imports resolve
/// against the directory of `project_root/file_name` on disk.
pub fn compile_source_in(file_name: &str, source: &str, project_root: &Path) -> CompileOutput {
    let location = project_root.join(file_name);
    finish(load::load(
        RootSource::Memory {
            display: file_name,
            location,
            text: source,
        },
        project_root,
    ))
}

fn finish(loaded: Loaded) -> CompileOutput {
    let Loaded {
        files,
        decls,
        mut errors,
        suppressed,
    } = loaded;
    let (mut model, check_errors) = check::check(&decls, &files);
    errors.extend(check_errors);
    errors.sort_by(|left, right| {
        (left.span.file, left.span.start, left.code.as_str()).cmp(&(
            right.span.file,
            right.span.start,
            right.code.as_str(),
        ))
    });
    let has_errors = errors
        .iter()
        .any(|error| error.code.severity() == crate::diagnostic::Severity::Error);
    // A run reports its first diagnostics and counts the rest: a spec of a million stray
    // characters must not become a verdict of hundreds of megabytes.
    let hidden = errors.len().saturating_sub(MAX_DIAGNOSTICS) + suppressed;
    let mut diagnostics: Vec<Diagnostic> = errors
        .iter()
        .take(MAX_DIAGNOSTICS)
        .map(|error| to_diagnostic(error, &files))
        .collect();
    // A message quotes names from the spec; a name of megabytes is cut, so that the error
    // document stays small whatever the spec holds.
    for diagnostic in &mut diagnostics {
        if diagnostic.message.len() > MAX_MESSAGE_BYTES {
            let mut end = MAX_MESSAGE_BYTES;
            while !diagnostic.message.is_char_boundary(end) {
                end -= 1;
            }
            diagnostic.message.truncate(end);
            diagnostic.message.push('…');
        }
    }
    if let Some(first_hidden) = errors
        .get(MAX_DIAGNOSTICS)
        .or(errors.last().filter(|_| hidden > 0))
    {
        let message = format!(
            "{hidden} more diagnostic(s) are not reported (the first {MAX_DIAGNOSTICS} are)"
        );
        let summary = SpecError::new(Code::TooManyDiagnostics, first_hidden.span, message);
        diagnostics.push(to_diagnostic(&summary, &files));
    }
    model.files = files;
    CompileOutput {
        model: (!has_errors).then_some(model),
        diagnostics,
    }
}

fn file_name(files: &[String], span: Span) -> String {
    usize::try_from(span.file.0)
        .ok()
        .and_then(|index| files.get(index))
        .cloned()
        .unwrap_or_default()
}

fn to_diagnostic(error: &SpecError, files: &[String]) -> Diagnostic {
    Diagnostic {
        code: error.code.as_str().to_owned(),
        severity: error.code.severity(),
        message: error.message.clone(),
        file: file_name(files, error.span),
        line: error.span.line,
        column: error.span.column,
        offset: error.span.start,
        end_offset: error.span.end,
        help: error.help.clone(),
        related: error
            .related
            .iter()
            .map(|(span, message)| RelatedLocation {
                file: file_name(files, *span),
                line: span.line,
                column: span.column,
                message: message.clone(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests;
