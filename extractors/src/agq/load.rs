//! Finding, reading and validating the query files of a project (under `.lintel/queries/`).
//!
//! Query files live under `.lintel/queries/` and, for compatibility, `.aglang/extractors/`,
//! at any depth. They are read in bytewise order of their project-relative path; every error
//! of every file is collected, and ids are unique across both trees.

use std::collections::BTreeMap;
use std::path::Path;

use super::diagnostic::{located, Code, QueryDiagnostic, Sink};
use super::query::{decode_query, document_id, ReviewedQuery};
use super::yaml::{parse_documents, Span};

/// The folders that hold query files, relative to the project root.
pub const QUERY_DIRECTORIES: [&str; 2] = [".lintel/queries/", ".aglang/extractors/"];

/// Query files larger than this are rejected rather than parsed.
const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// The validated queries of a project, in (file, document) order.
#[derive(Debug, Clone, Default)]
pub struct QuerySet {
    queries: Vec<ReviewedQuery>,
}

impl QuerySet {
    /// Every query, in (file, document) order.
    pub fn queries(&self) -> &[ReviewedQuery] {
        &self.queries
    }

    /// The query with this id.
    pub fn get(&self, id: &str) -> Option<&ReviewedQuery> {
        self.queries.iter().find(|query| query.id() == id)
    }

    /// The number of queries.
    pub fn len(&self) -> usize {
        self.queries.len()
    }

    /// True when the project has no queries.
    pub fn is_empty(&self) -> bool {
        self.queries.is_empty()
    }

    /// The generic facts (`call`, `assignment`, `external`) these queries may match, so that
    /// extraction makes only those (see [`crate::generic::GenericFacts`]).
    pub fn generic_facts(&self) -> crate::generic::GenericFacts {
        let shapes: Vec<crate::generic::MatchShape> = self
            .queries
            .iter()
            .map(ReviewedQuery::match_shape)
            .collect();
        crate::generic::GenericFacts::for_matches(&shapes)
    }
}

/// True when a project-relative path names a query file: `*.agq.yml` or `*.agq.yaml` at any
/// depth under one of [`QUERY_DIRECTORIES`].
pub fn is_query_file(path: &str) -> bool {
    QUERY_DIRECTORIES
        .iter()
        .any(|directory| path.starts_with(directory))
        && (path.ends_with(".agq.yml") || path.ends_with(".agq.yaml"))
        && !path
            .split('/')
            .any(|segment| segment.is_empty() || segment == "." || segment == "..")
}

/// Loads `<root>/.lintel/queries/**/*.agq.y(a)ml` and `<root>/.aglang/extractors/**/*.agq.y(a)ml`.
///
/// `files` is the project's file list (project-relative, `/` separators); the query files among
/// them are read from disk under `root` in bytewise order of path. A file that is, or lies under,
/// a symbolic link is not read. All errors of all files are returned together, each located at
/// its YAML node, sorted by file, offset and code. Any error stops the check; warnings
/// do not.
pub fn load_queries(root: &Path, files: &[String]) -> (QuerySet, Vec<QueryDiagnostic>) {
    let read = |path: &str| {
        if crosses_symlink(root, path) {
            return None;
        }
        // Only a regular file, and at most 4 MiB plus one byte of it.
        Some(policies::read::read_regular_file(
            &root.join(path),
            MAX_FILE_BYTES,
        ))
    };
    load_queries_with(files, &read)
}

/// [`load_queries`], reading each query file through `read` (a snapshot of the project, such as
/// the commit a diff checks): `None` leaves the file out, an error is the file's diagnostic.
pub fn load_queries_with(
    files: &[String],
    read: &dyn Fn(&str) -> Option<std::io::Result<Vec<u8>>>,
) -> (QuerySet, Vec<QueryDiagnostic>) {
    let mut paths: Vec<&str> = files
        .iter()
        .map(String::as_str)
        .filter(|path| is_query_file(path))
        .collect();
    paths.sort_unstable();
    paths.dedup();
    let mut sources = Vec::new();
    let mut diagnostics = Vec::new();
    for path in paths {
        let Some(bytes) = read(path) else {
            continue;
        };
        match query_text(bytes) {
            Ok(text) => sources.push((path.to_owned(), text)),
            Err((span, message)) => {
                diagnostics.push(located(Code::YamlInvalid, path, span, message));
            }
        }
    }
    let (queries, loaded) = load_query_texts(&sources);
    diagnostics.extend(loaded);
    sort_diagnostics(&mut diagnostics);
    (queries, diagnostics)
}

/// Loads queries from in-memory `(project-relative path, text)` pairs, with the same rules as
/// [`load_queries`] (the paths are not filtered).
pub fn load_query_texts(sources: &[(String, String)]) -> (QuerySet, Vec<QueryDiagnostic>) {
    let mut ordered: Vec<&(String, String)> = sources.iter().collect();
    ordered.sort_by(|left, right| left.0.cmp(&right.0));
    let mut queries: Vec<ReviewedQuery> = Vec::new();
    let mut diagnostics = Vec::new();
    let mut first_ids: BTreeMap<String, (String, Span)> = BTreeMap::new();
    for (path, text) in ordered {
        let mut sink = Sink::new(path, &mut diagnostics);
        let (documents, problems) = parse_documents(text);
        for problem in problems {
            let mut diagnostic = sink.diagnostic(Code::YamlInvalid, problem.span, problem.message);
            if let Some((span, message)) = problem.related {
                diagnostic = diagnostic.with_related(path, span, &message);
            }
            sink.push(diagnostic);
        }
        for document in &documents {
            // Duplicates are found among every document with an id, so that a duplicate with
            // errors of its own is reported as one too; each document's own errors still are.
            let mut is_duplicate = false;
            if let Some((id, span)) = document_id(document) {
                match first_ids.get(&id) {
                    Some((first_file, first_span)) => {
                        is_duplicate = true;
                        sink.push(
                            sink.diagnostic(
                                Code::DuplicateId,
                                span,
                                format!("duplicate query id `{id}`"),
                            )
                            .with_related(first_file, *first_span, "first defined here")
                            .with_help(
                                "query ids are unique across `.lintel/queries/` and `.aglang/extractors/`",
                            ),
                        );
                    }
                    None => {
                        first_ids.insert(id, (path.clone(), span));
                    }
                }
            }
            let Some(query) = decode_query(document, &mut sink) else {
                continue;
            };
            if !is_duplicate {
                queries.push(query);
            }
        }
    }
    sort_diagnostics(&mut diagnostics);
    (QuerySet { queries }, diagnostics)
}

/// Sorts by file, then byte offset, then code, then message for a total order.
fn sort_diagnostics(diagnostics: &mut [QueryDiagnostic]) {
    diagnostics.sort_by(|left, right| {
        (&left.file, left.offset, &left.code, &left.message).cmp(&(
            &right.file,
            right.offset,
            &right.code,
            &right.message,
        ))
    });
}

/// True when the file or any folder between it and the root is a symbolic link.
fn crosses_symlink(root: &Path, path: &str) -> bool {
    let mut current = root.to_path_buf();
    path.split('/').any(|segment| {
        current.push(segment);
        std::fs::symlink_metadata(&current).is_ok_and(|metadata| metadata.file_type().is_symlink())
    })
}

/// Reads a query file as UTF-8; the error is located (at the first invalid byte for bad UTF-8).
fn query_text(read: std::io::Result<Vec<u8>>) -> Result<String, (Span, String)> {
    let start = Span {
        line: 1,
        column: 1,
        offset: 0,
        end_offset: 0,
    };
    let bytes = read.map_err(|error| (start, format!("cannot read query file: {error}")))?;
    if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > MAX_FILE_BYTES {
        return Err((start, "query file is larger than 4 MiB".to_owned()));
    }
    String::from_utf8(bytes).map_err(|error| {
        let valid_up_to = error.utf8_error().valid_up_to();
        let prefix = error
            .as_bytes()
            .get(..valid_up_to)
            .and_then(|bytes| std::str::from_utf8(bytes).ok())
            .unwrap_or_default();
        let line_start = prefix.rfind('\n').map_or(0, |index| index + 1);
        let span = Span {
            line: u32::try_from(prefix.matches('\n').count() + 1).unwrap_or(u32::MAX),
            column: u32::try_from(prefix.get(line_start..).unwrap_or_default().chars().count() + 1)
                .unwrap_or(u32::MAX),
            offset: valid_up_to,
            end_offset: valid_up_to + 1,
        };
        (
            span,
            format!("query file is not valid UTF-8: invalid byte at offset `{valid_up_to}`"),
        )
    })
}
