//! Located query diagnostics and their stable codes.
//!
//! The shape mirrors the JSON diagnostics (see `error`, `message` and `diagnostics` in docs/VERDICT.md) so the engine can convert each one field by field;
//! this crate depends only on the fact schema, so it keeps its own type.

use super::yaml::Span;

/// One load or check-time diagnostic of a reviewed query, located in a query file
/// (or, for `query-invalid-fact`, at the graph fact the query matched).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct QueryDiagnostic {
    /// Stable kebab-case code, e.g. `query-missing-key`.
    pub code: String,
    /// True for errors (any error stops the check); false for warnings.
    pub is_error: bool,
    /// One line, lowercase start, names in backticks, no final period.
    pub message: String,
    /// Project-relative path with `/` separators.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column in Unicode scalar values.
    pub column: u32,
    /// 0-based byte offset of the start.
    pub offset: usize,
    /// 0-based exclusive byte offset of the end (at least `offset`).
    pub end_offset: usize,
    /// How to fix it, e.g. "did you mean `owner`?".
    pub help: Option<String>,
    /// Related locations: (file, line, column, message), e.g. "first defined here".
    pub related: Vec<(String, u32, u32, String)>,
}

impl QueryDiagnostic {
    /// The severity's wire name: `error` or `warning`.
    pub fn severity(&self) -> &'static str {
        if self.is_error {
            "error"
        } else {
            "warning"
        }
    }

    /// The human format's first line: `path:line:col: error[code]: message`.
    pub fn headline(&self) -> String {
        format!(
            "{}:{}:{}: {}[{}]: {}",
            self.file,
            self.line,
            self.column,
            self.severity(),
            self.code,
            self.message
        )
    }
}

/// Every code this module raises. Codes are public API: never rename or reuse one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Code {
    YamlInvalid,
    NotAMapping,
    MissingKey,
    InvalidValue,
    DuplicateId,
    UnknownKey,
    UnknownEmitKind,
    MissingEmitField,
    InvalidEmitField,
    UnknownEmitField,
    InvalidMatch,
    InvalidGlob,
    MatchesEverything,
    InvalidFact,
}

impl Code {
    /// Every code, for the uniqueness test.
    #[cfg(test)]
    pub(crate) const ALL: [Code; 14] = [
        Self::YamlInvalid,
        Self::NotAMapping,
        Self::MissingKey,
        Self::InvalidValue,
        Self::DuplicateId,
        Self::UnknownKey,
        Self::UnknownEmitKind,
        Self::MissingEmitField,
        Self::InvalidEmitField,
        Self::UnknownEmitField,
        Self::InvalidMatch,
        Self::InvalidGlob,
        Self::MatchesEverything,
        Self::InvalidFact,
    ];

    /// The stable kebab-case code.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::YamlInvalid => "query-yaml-invalid",
            Self::NotAMapping => "query-not-a-mapping",
            Self::MissingKey => "query-missing-key",
            Self::InvalidValue => "query-invalid-value",
            Self::DuplicateId => "query-duplicate-id",
            Self::UnknownKey => "query-unknown-key",
            Self::UnknownEmitKind => "query-unknown-emit-kind",
            Self::MissingEmitField => "query-missing-emit-field",
            Self::InvalidEmitField => "query-invalid-emit-field",
            Self::UnknownEmitField => "query-unknown-emit-field",
            Self::InvalidMatch => "query-invalid-match",
            Self::InvalidGlob => "query-invalid-glob",
            Self::MatchesEverything => "query-matches-everything",
            Self::InvalidFact => "query-invalid-fact",
        }
    }

    /// Errors stop the check; warnings are reported and the check goes on.
    pub(crate) fn is_error(self) -> bool {
        !matches!(
            self,
            Self::UnknownKey | Self::UnknownEmitField | Self::MatchesEverything | Self::InvalidFact
        )
    }
}

/// Collects the diagnostics of one query file.
pub(crate) struct Sink<'a> {
    file: &'a str,
    diagnostics: &'a mut Vec<QueryDiagnostic>,
    /// The errors among `diagnostics`, kept as they are pushed: counting them on each ask made
    /// a file of thousands of broken documents quadratic (10,000 took 17 s).
    errors: usize,
}

impl<'a> Sink<'a> {
    pub(crate) fn new(file: &'a str, diagnostics: &'a mut Vec<QueryDiagnostic>) -> Self {
        let errors = diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.is_error)
            .count();
        Self {
            file,
            diagnostics,
            errors,
        }
    }

    /// The file the diagnostics are located in.
    pub(crate) fn file(&self) -> &'a str {
        self.file
    }

    /// The number of errors reported so far (warnings excluded).
    pub(crate) fn error_count(&self) -> usize {
        self.errors
    }

    /// Reports a diagnostic at `span` in this file.
    pub(crate) fn report(&mut self, code: Code, span: Span, message: impl Into<String>) {
        self.push(self.diagnostic(code, span, message));
    }

    /// Builds a diagnostic at `span` in this file, for [`Sink::push`] after adding help or notes.
    pub(crate) fn diagnostic(
        &self,
        code: Code,
        span: Span,
        message: impl Into<String>,
    ) -> QueryDiagnostic {
        located(code, self.file, span, message.into())
    }

    /// Reports a diagnostic built with [`Sink::diagnostic`].
    pub(crate) fn push(&mut self, diagnostic: QueryDiagnostic) {
        self.errors += usize::from(diagnostic.is_error);
        self.diagnostics.push(diagnostic);
    }
}

/// A diagnostic at `span` in `file`.
pub(crate) fn located(code: Code, file: &str, span: Span, message: String) -> QueryDiagnostic {
    QueryDiagnostic {
        code: code.as_str().to_owned(),
        is_error: code.is_error(),
        message,
        file: file.to_owned(),
        line: span.line,
        column: span.column,
        offset: span.offset,
        end_offset: span.end_offset.max(span.offset),
        help: None,
        related: Vec::new(),
    }
}

impl QueryDiagnostic {
    /// Adds a help line.
    pub(crate) fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Adds a help line when there is one.
    pub(crate) fn with_optional_help(mut self, help: Option<String>) -> Self {
        self.help = help;
        self
    }

    /// Adds a related location.
    pub(crate) fn with_related(mut self, file: &str, span: Span, message: &str) -> Self {
        self.related
            .push((file.to_owned(), span.line, span.column, message.to_owned()));
        self
    }
}

/// The candidate closest to `word` by edit distance, if at most 2 (ties: lexicographically first).
pub(crate) fn closest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let mut best: Option<(usize, &'a str)> = None;
    for &candidate in candidates {
        let distance = edit_distance(word, candidate);
        if distance > 2 || distance == 0 {
            continue;
        }
        let better = match best {
            None => true,
            Some((best_distance, best_name)) => {
                distance < best_distance || (distance == best_distance && candidate < best_name)
            }
        };
        if better {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, name)| name)
}

/// Levenshtein distance over Unicode scalar values.
fn edit_distance(left: &str, right: &str) -> usize {
    let right: Vec<char> = right.chars().collect();
    let mut previous: Vec<usize> = (0..=right.len()).collect();
    let mut current = vec![0; right.len() + 1];
    for (i, left_char) in left.chars().enumerate() {
        let mut diagonal = i;
        let mut above_left = i + 1;
        current.clear();
        current.push(above_left);
        for (j, right_char) in right.iter().enumerate() {
            let above = previous.get(j + 1).copied().unwrap_or(usize::MAX);
            let substitution = diagonal + usize::from(left_char != *right_char);
            let value = substitution
                .min(above.saturating_add(1))
                .min(above_left + 1);
            current.push(value);
            diagonal = above;
            above_left = value;
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous.last().copied().unwrap_or(0)
}
