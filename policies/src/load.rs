//! `import`: one spec from several files.
//!
//! The loader reads, lexes and parses the root file and every file it imports, depth-first,
//! and merges their declarations in DFS order.
//!
//! # What it checks
//! The path is relative and ends in `.ag` (`invalid-import-path`), the file can be read
//! (`import-not-found`), and no import leads back to a file on the current import stack
//! (`import-cycle`, naming the cycle). Only a regular file is read: a FIFO, a device or a
//! `/proc` file gives `import-not-found` (for the root file too), and so does an import that lies
//! in the project as written but that a symbolic link takes out of it (an import string that
//! leaves the project with `..` names its file, and is read).
//!
//! # Why
//! Large architectures split their spec by area; imports merge the files into one spec
//! with one namespace, and a file reached twice is loaded once.
//!
//! # Passing example
//! `import "base/topology.ag"`, where that file declares `node app`, and a root component uses `runs_on: app`.
//!
//! # Failing example
//! `a.ag` imports `b.ag` and `b.ag` imports `a.ag`: `import-cycle` (`` `a.ag` -> `b.ag` -> `a.ag` ``).
//!
//! # SMT encoding
//! None: imports are resolved before any rule is compiled.
//!
//! Files are identified by canonical path, so a file reached twice is loaded once. An import
//! of a file on the current DFS stack is a cycle. The walk uses an explicit stack, so a long
//! import chain cannot overflow the call stack.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::error::{Code, SpecError};
use crate::paths;
use crate::syntax::ast::{Decl, StringLiteral};
use crate::syntax::{lexer, parser, FileId, Span};

/// A spec file larger than this is not lexed (see docs/LIMITS.md).
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Where the root file comes from.
pub enum RootSource<'a> {
    /// Read from disk.
    Disk(&'a Path),
    /// Given in memory, with the on-disk location its imports resolve against.
    Memory {
        /// The name to report.
        display: &'a str,
        /// Where the file would be; its directory resolves imports.
        location: PathBuf,
        /// The text.
        text: &'a str,
    },
}

/// Every loaded file and the merged declarations.
#[derive(Debug, Default)]
pub struct Loaded {
    /// Project-relative file names, indexed by [`FileId`], in the order first loaded (root first).
    pub files: Vec<String>,
    /// Declarations in merged order: a file's imports, then its own declarations.
    pub decls: Vec<Decl>,
    /// Load, lexical and parse errors.
    pub errors: Vec<SpecError>,
    /// Lexical and parse errors past each file's first 1,000 of each, counted but not kept.
    pub suppressed: usize,
}

struct Frame {
    canonical: PathBuf,
    lexical: PathBuf,
    decls: Vec<Decl>,
    imports: Vec<StringLiteral>,
    next_import: usize,
}

/// Reads a spec file's bytes (at most 4 MiB plus one byte are needed): from disk, or from a
/// snapshot the caller chooses (the engine reads the files of the project from the commit or the
/// index it checks).
pub type SpecReader<'a> = &'a dyn Fn(&Path) -> std::io::Result<Vec<u8>>;

/// Reads a file from disk, at most 4 MiB plus one byte.
/// Only a regular file is read ([`crate::read`]).
pub fn read_from_disk(path: &Path) -> std::io::Result<Vec<u8>> {
    crate::read::read_regular_file(path, MAX_FILE_BYTES)
}

/// Loads the root file and its imports from disk.
pub fn load(root: RootSource<'_>, project_root: &Path) -> Loaded {
    load_with(root, project_root, &read_from_disk)
}

/// Loads the root file and its imports, reading files through `read`.
pub fn load_with(root: RootSource<'_>, project_root: &Path, read: SpecReader<'_>) -> Loaded {
    let mut loaded = Loaded::default();
    let (lexical, display, text) = read_root(root, project_root, read, &mut loaded.errors);
    loaded.files.push(display);
    let root_dir = lexical.parent().map(Path::to_path_buf).unwrap_or_default();
    let canonical = lexical.canonicalize().unwrap_or_else(|_| lexical.clone());
    let mut seen: HashSet<PathBuf> = HashSet::from([canonical.clone()]);
    let mut stack = vec![open_frame(
        FileId(0),
        canonical,
        lexical,
        text.as_deref(),
        &mut loaded.errors,
        &mut loaded.suppressed,
    )];

    while let Some(top) = stack.last_mut() {
        let Some(import) = top.imports.get(top.next_import).cloned() else {
            if let Some(frame) = stack.pop() {
                loaded.decls.extend(frame.decls);
            }
            continue;
        };
        top.next_import += 1;
        if !is_valid_import_path(&import.value) {
            let message = format!(
                "import path `{}` must be relative and end in `.ag`",
                import.value
            );
            loaded.errors.push(SpecError::new(
                Code::InvalidImportPath,
                import.span,
                message,
            ));
            continue;
        }
        let directory = top
            .lexical
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let target = paths::normalize(&directory.join(&import.value));
        let canonical = match target.canonicalize() {
            Ok(canonical) => canonical,
            Err(error) => {
                let message = format!("cannot read imported file `{}`: {error}", import.value);
                loaded
                    .errors
                    .push(SpecError::new(Code::ImportNotFound, import.span, message));
                continue;
            }
        };
        // An import inside the project as written is the project's file: a symbolic link that
        // takes it out of the project is not followed (an import string that itself leaves the
        // project, with `..`, names its file and is read).
        if crate::read::leaves_root(&target, project_root) {
            let message = format!(
                "cannot read imported file `{}`: a symbolic link that leads out of the project is not followed",
                import.value
            );
            loaded
                .errors
                .push(SpecError::new(Code::ImportNotFound, import.span, message));
            continue;
        }
        if let Some(position) = stack.iter().position(|frame| frame.canonical == canonical) {
            let cycle: Vec<String> = stack
                .iter()
                .skip(position)
                .map(|frame| &frame.lexical)
                .chain(stack.get(position).map(|frame| &frame.lexical))
                .map(|path| format!("`{}`", cycle_name(path, &root_dir)))
                .collect();
            let message = format!("import cycle: {}", cycle.join(" -> "));
            loaded
                .errors
                .push(SpecError::new(Code::ImportCycle, import.span, message));
            continue;
        }
        if !seen.insert(canonical.clone()) {
            continue;
        }
        let file = FileId(u32::try_from(loaded.files.len()).unwrap_or(u32::MAX));
        let display = paths::display_path(&target, project_root);
        let bytes = read_spec(
            read,
            &target,
            import.span,
            "imported file",
            &import.value,
            &mut loaded.errors,
        );
        // Size and encoding errors belong to the imported file, not to the import.
        let text = bytes
            .and_then(|bytes| check_size_and_encoding(&bytes, file, &display, &mut loaded.errors));
        loaded.files.push(display);
        stack.push(open_frame(
            file,
            canonical,
            target,
            text.as_deref(),
            &mut loaded.errors,
            &mut loaded.suppressed,
        ));
    }
    loaded
}

/// The root spec's lexical path, display name and text (`None`, with its errors, when it cannot
/// be read or is too large or not UTF-8).
fn read_root(
    root: RootSource<'_>,
    project_root: &Path,
    read: SpecReader<'_>,
    errors: &mut Vec<SpecError>,
) -> (PathBuf, String, Option<String>) {
    match root {
        RootSource::Disk(path) => {
            let display = paths::display_path(path, project_root);
            let lexical = paths::absolute(path);
            let span = Span::file_start(FileId(0));
            let text = read_spec(read, path, span, "spec file", &display, errors)
                .and_then(|bytes| check_size_and_encoding(&bytes, FileId(0), &display, errors));
            (lexical, display, text)
        }
        RootSource::Memory {
            display,
            location,
            text,
        } => {
            let text = check_size_and_encoding(text.as_bytes(), FileId(0), display, errors);
            (paths::absolute(&location), display.to_owned(), text)
        }
    }
}

fn open_frame(
    file: FileId,
    canonical: PathBuf,
    lexical: PathBuf,
    text: Option<&str>,
    errors: &mut Vec<SpecError>,
    suppressed: &mut usize,
) -> Frame {
    let decls = match text {
        Some(text) => {
            let lexed = lexer::lex(file, text);
            errors.extend(lexed.errors);
            *suppressed += lexed.suppressed;
            let parsed = parser::parse(&lexed.tokens);
            *suppressed += parsed.suppressed;
            errors.extend(parsed.errors);
            parsed.decls
        }
        None => Vec::new(),
    };
    let imports = decls
        .iter()
        .filter_map(|decl| match decl {
            Decl::Import(path) => Some(path.clone()),
            _ => None,
        })
        .collect();
    Frame {
        canonical,
        lexical,
        decls,
        imports,
        next_import: 0,
    }
}

/// Reads a spec file, at most 4 MiB plus one byte. A read error is reported at `span` as
/// `import-not-found`; `what` says whether this is the spec file or an import.
fn read_spec(
    read: SpecReader<'_>,
    path: &Path,
    span: Span,
    what: &str,
    shown_as: &str,
    errors: &mut Vec<SpecError>,
) -> Option<Vec<u8>> {
    match read(path) {
        Ok(bytes) => Some(bytes),
        Err(error) => {
            let message = format!("cannot read {what} `{shown_as}`: {error}");
            errors.push(SpecError::new(Code::ImportNotFound, span, message));
            None
        }
    }
}

/// Applies the size limit (see docs/LIMITS.md) and the UTF-8 check; returns the text when both pass.
fn check_size_and_encoding(
    bytes: &[u8],
    file: FileId,
    display: &str,
    errors: &mut Vec<SpecError>,
) -> Option<String> {
    if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > MAX_FILE_BYTES {
        let message = format!("file `{display}` is larger than 4 MiB");
        errors.push(SpecError::new(
            Code::FileTooLarge,
            Span::file_start(file),
            message,
        ));
        return None;
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Some(text.to_owned()),
        Err(error) => {
            let offset = error.valid_up_to();
            let valid =
                std::str::from_utf8(bytes.get(..offset).unwrap_or_default()).unwrap_or_default();
            let line = valid.matches('\n').count() + 1;
            let column = valid
                .rsplit('\n')
                .next()
                .map_or(0, |last| last.chars().count())
                + 1;
            let span = Span {
                file,
                start: offset,
                end: offset + 1,
                line: u32::try_from(line).unwrap_or(u32::MAX),
                column: u32::try_from(column).unwrap_or(u32::MAX),
            };
            let message = format!("file is not valid UTF-8: invalid byte at offset `{offset}`");
            errors.push(SpecError::new(Code::InvalidUtf8, span, message));
            None
        }
    }
}

/// An import path must be relative and end in `.ag`.
fn is_valid_import_path(path: &str) -> bool {
    let bytes = path.as_bytes();
    let is_absolute = path.starts_with('/')
        || path.starts_with('\\')
        || (bytes.get(1) == Some(&b':') && bytes.first().is_some_and(u8::is_ascii_alphabetic));
    !is_absolute && path.len() > ".ag".len() && path.ends_with(".ag")
}

fn cycle_name(path: &Path, root_dir: &Path) -> String {
    paths::relative_path(path, root_dir).map_or_else(
        || paths::to_slash(path),
        |relative| paths::to_slash(&relative),
    )
}

#[cfg(test)]
mod tests;
