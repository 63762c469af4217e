//! Compiled queries and the closed capture vocabulary `@fact.<kind>.<field>` (style §6).
//!
//! Each language's query files are concatenated and compiled once into one [`CompiledQuery`]
//! (a `LazyLock` in the language module), shared by every thread. Compiling checks every capture
//! name against [`FactKind`] and the fields the extractors understand, so a typo in a `.scm`
//! file is an error that names the expected captures. Running a query uses a thread-local
//! `QueryCursor` and returns the matches as plain values for the language's extractor.
//!
//! The `.scm` files are the reference for what each language matches; the extractors find the
//! same matches with one hand-written cursor walk per language (`walk.rs` in each language's
//! folder under `lang/`), because on real repositories the query cursor cost 20–40% on top of
//! the parse and a walk a few percent, and compiling a query cost up to 90 ms per run.
//! A test per language runs query and walk on every fixture and compares their matches (and
//! `LINTEL_<LANGUAGE>_WALK_CORPUS=<dir>` does the same on any directory). An extractor reaches
//! its walk through a [`QueryHandle`], which, when the engine asks for `--debug-extractors`,
//! times each pass ([`QueryTiming`]).

use std::cell::RefCell;
use std::time::Instant;

use policies::facts::FactKind;
use tree_sitter::{Node, Query};
#[cfg(test)]
use tree_sitter::{QueryCursor, StreamingIterator, Tree};

use crate::error::{ExtractError, QueryCompileError, UnknownCaptureError};

/// The part a captured node plays in the construct a pattern matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Field {
    /// A whole import or export statement.
    Statement,
    /// A whole call expression.
    Call,
    /// A module specifier string.
    Specifier,
    /// The callee of a call.
    Function,
    /// A whole `new` expression.
    Construction,
    /// The callee of a `new` expression.
    Constructor,
    /// A method or verb name.
    Method,
    /// A parameter declaration.
    Parameter,
    /// A type reference.
    Type,
    /// An argument list.
    Arguments,
    /// The object a method is called on.
    Receiver,
    /// An options object argument.
    Options,
    /// A whole decorator.
    Decorator,
    /// A base type a class extends or implements.
    Base,
    /// The assigned place (left-hand side) of an assignment.
    Target,
    /// The assigned value (right-hand side) of an assignment.
    Value,
}

impl Field {
    fn as_str(self) -> &'static str {
        match self {
            Self::Statement => "statement",
            Self::Call => "call",
            Self::Specifier => "specifier",
            Self::Function => "function",
            Self::Construction => "construction",
            Self::Constructor => "constructor",
            Self::Method => "method",
            Self::Parameter => "parameter",
            Self::Type => "type",
            Self::Arguments => "arguments",
            Self::Receiver => "receiver",
            Self::Options => "options",
            Self::Decorator => "decorator",
            Self::Base => "base",
            Self::Target => "target",
            Self::Value => "value",
        }
    }
}

/// The closed vocabulary: the fields each fact kind's patterns may capture.
const VOCABULARY: &[(FactKind, &[Field])] = &[
    (
        FactKind::Import,
        &[
            Field::Statement,
            Field::Call,
            Field::Specifier,
            Field::Function,
        ],
    ),
    (
        FactKind::AccessesTechnology,
        &[
            Field::Construction,
            Field::Constructor,
            Field::Call,
            Field::Function,
            Field::Method,
            Field::Parameter,
            Field::Type,
            Field::Base,
        ],
    ),
    (
        FactKind::HttpCall,
        &[
            Field::Call,
            Field::Function,
            Field::Receiver,
            Field::Method,
            Field::Arguments,
        ],
    ),
    (
        FactKind::ConstructorInjection,
        &[Field::Parameter, Field::Type],
    ),
    (
        FactKind::DiRegistration,
        &[Field::Call, Field::Method, Field::Arguments],
    ),
    (
        FactKind::ServiceResolution,
        &[Field::Call, Field::Method, Field::Arguments],
    ),
    (
        FactKind::ChecksRole,
        &[
            Field::Call,
            Field::Method,
            Field::Arguments,
            Field::Decorator,
        ],
    ),
    (
        FactKind::Call,
        &[
            Field::Call,
            Field::Function,
            Field::Receiver,
            Field::Method,
            Field::Arguments,
        ],
    ),
    (
        FactKind::Assignment,
        &[Field::Statement, Field::Target, Field::Value],
    ),
    (
        FactKind::Route,
        &[
            Field::Call,
            Field::Receiver,
            Field::Method,
            Field::Arguments,
            Field::Options,
            Field::Decorator,
        ],
    ),
];

/// Every capture name queries may use, without `@`, e.g. `fact.import.specifier`.
pub fn capture_vocabulary() -> Vec<String> {
    VOCABULARY
        .iter()
        .flat_map(|(kind, fields)| {
            fields
                .iter()
                .map(move |field| format!("fact.{}.{}", kind.as_str(), field.as_str()))
        })
        .collect()
}

/// Parses a capture name of the vocabulary.
fn parse_capture(name: &str) -> Option<(FactKind, Field)> {
    let rest = name.strip_prefix("fact.")?;
    let (kind_name, field_name) = rest.split_once('.')?;
    let kind = FactKind::from_name(kind_name)?;
    let (_, fields) = VOCABULARY.iter().find(|(known, _)| *known == kind)?;
    let field = fields.iter().find(|field| field.as_str() == field_name)?;
    Some((kind, *field))
}

/// One language's query, compiled once, with its captures mapped to the vocabulary. The
/// extractors match with hand-written walks; the compiled query is their reference in tests.
pub(crate) struct CompiledQuery {
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "matched only by the walk tests")
    )]
    query: Query,
    /// INVARIANT: one entry per capture index of `query`, all from the vocabulary.
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "matched only by the walk tests")
    )]
    captures: Vec<(FactKind, Field)>,
}

/// One match: the fact kind its pattern feeds and the captured nodes.
#[derive(Debug, Clone)]
pub(crate) struct QueryHit<'tree> {
    /// The fact kind named by the pattern's captures.
    pub kind: FactKind,
    captures: Captures<'tree>,
}

/// A hit's captures, in pattern order: the first four are held in place, so that the walks'
/// hits (one to five captures each) allocate nothing of their own.
#[derive(Debug, Clone, Default)]
struct Captures<'tree> {
    first: [Option<(Field, Node<'tree>)>; 4],
    more: Vec<(Field, Node<'tree>)>,
}

impl<'tree> Captures<'tree> {
    fn push(&mut self, capture: (Field, Node<'tree>)) {
        match self.first.iter_mut().find(|slot| slot.is_none()) {
            Some(slot) => *slot = Some(capture),
            None => self.more.push(capture),
        }
    }

    fn iter(&self) -> impl Iterator<Item = &(Field, Node<'tree>)> {
        self.first
            .iter()
            .map_while(Option::as_ref)
            .chain(&self.more)
    }
}

impl<'tree> QueryHit<'tree> {
    /// The generic `assignment` hit of `statement`: `target = value`.
    pub(crate) fn assignment(
        statement: Node<'tree>,
        target: Node<'tree>,
        value: Node<'tree>,
    ) -> Self {
        Self::new(
            FactKind::Assignment,
            [
                (Field::Statement, statement),
                (Field::Target, target),
                (Field::Value, value),
            ],
        )
    }

    /// A match of a pattern feeding `kind` with these captures, in pattern order.
    pub fn new(kind: FactKind, captures: impl IntoIterator<Item = (Field, Node<'tree>)>) -> Self {
        let mut held = Captures::default();
        for capture in captures {
            held.push(capture);
        }
        Self {
            kind,
            captures: held,
        }
    }

    /// Every capture, in pattern order.
    #[cfg(test)]
    pub fn captures(&self) -> Vec<(Field, Node<'tree>)> {
        self.captures.iter().copied().collect()
    }

    /// The first node captured as `field`.
    pub fn node(&self, field: Field) -> Option<Node<'tree>> {
        self.captures
            .iter()
            .find(|(captured, _)| *captured == field)
            .map(|(_, node)| *node)
    }
}

#[cfg(test)]
thread_local! {
    static CURSOR: RefCell<QueryCursor> = RefCell::new(QueryCursor::new());
}

impl CompiledQuery {
    /// Concatenates and compiles the query files of the language named `language` for `grammar` (`None`:
    /// the language has no tree-sitter grammar), then checks every capture name; without
    /// `generic`, the `graph.scm` file (the patterns of the generic `call` and `assignment`
    /// facts, and nothing else) is left out.
    pub(crate) fn compile(
        language: &'static str,
        queries: &'static [QueryFile],
        grammar: Option<tree_sitter::Language>,
        generic: bool,
    ) -> Result<CompiledQuery, ExtractError> {
        let mut text = String::new();
        let mut file_starts = Vec::new();
        for file in queries
            .iter()
            .filter(|file| generic || !is_generic_file(file.name))
        {
            file_starts.push((text.lines().count(), file.name));
            text.push_str(file.text);
            text.push('\n');
        }
        let Some(grammar) = grammar else {
            return Err(QueryCompileError::new(
                language,
                "?",
                0,
                "no tree-sitter grammar".to_owned(),
            )
            .into());
        };
        let query = Query::new(&grammar, &text).map_err(|error| {
            let (start, file) = file_starts
                .iter()
                .rev()
                .find(|(start, _)| *start <= error.row)
                .copied()
                .unwrap_or((0, "?"));
            QueryCompileError::new(language, file, error.row - start + 1, error.message)
        })?;
        let captures = query
            .capture_names()
            .iter()
            .map(|name| {
                parse_capture(name)
                    .ok_or_else(|| UnknownCaptureError::new(language, name, &capture_vocabulary()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(CompiledQuery { query, captures })
    }

    /// Runs the query over a whole tree and returns every match, in document order.
    #[cfg(test)]
    pub(crate) fn hits<'tree>(&self, tree: &'tree Tree, source: &str) -> Vec<QueryHit<'tree>> {
        CURSOR.with(|cell| match cell.try_borrow_mut() {
            Ok(mut cursor) => self.collect_hits(&mut cursor, tree, source),
            // Only a re-entrant call could find the cursor borrowed; give it its own cursor.
            Err(_) => self.collect_hits(&mut QueryCursor::new(), tree, source),
        })
    }

    #[cfg(test)]
    fn collect_hits<'tree>(
        &self,
        cursor: &mut QueryCursor,
        tree: &'tree Tree,
        source: &str,
    ) -> Vec<QueryHit<'tree>> {
        let mut hits = Vec::new();
        let mut matches = cursor.matches(&self.query, tree.root_node(), source.as_bytes());
        while let Some(found) = matches.next() {
            let mut kind = None;
            let mut captures = Captures::default();
            for capture in found.captures {
                let Some(&(capture_kind, field)) = self.captures.get(capture.index as usize) else {
                    continue;
                };
                kind.get_or_insert(capture_kind);
                captures.push((field, capture.node));
            }
            if let Some(kind) = kind {
                hits.push(QueryHit { kind, captures });
            }
        }
        hits
    }
}

/// One pass that found a file's query matches, for `--debug-extractors`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryTiming {
    /// What ran: `<language>.walk` for the walk that finds the matches of the language's query
    /// files (`<language>.scm` for a compiled query, which no extractor runs today).
    pub id: String,
    /// The matches found (after text predicates such as `#eq?`).
    pub matched: usize,
    /// The matches per fact kind of their pattern, kinds without a match left out, in
    /// [`FactKind`] order.
    pub matched_by_kind: Vec<(FactKind, usize)>,
    /// Wall time of the pass in microseconds (for the walk: the whole walk, name-use analysis
    /// included).
    pub elapsed_us: u64,
}

impl QueryTiming {
    /// The timing of a pass named `id` that found `hits` since `started`.
    pub(crate) fn of_hits(id: String, hits: &[QueryHit<'_>], started: Instant) -> QueryTiming {
        let mut by_kind = std::collections::BTreeMap::new();
        for hit in hits {
            *by_kind.entry(hit.kind).or_insert(0) += 1;
        }
        QueryTiming {
            id,
            matched: hits.len(),
            matched_by_kind: by_kind.into_iter().collect(),
            elapsed_us: u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX),
        }
    }
}

/// A language's query as an extractor sees it: compiled on first use, and timed when asked.
pub(crate) struct QueryHandle {
    /// The language's name, for timing ids.
    language: &'static str,
    /// `Some` when passes are timed.
    timings: Option<RefCell<Vec<QueryTiming>>>,
}

impl QueryHandle {
    /// The passes over a file of the language named `language`; `timed` records a
    /// [`QueryTiming`] per pass.
    pub(crate) fn new(language: &'static str, timed: bool) -> Self {
        Self {
            language,
            timings: timed.then(|| RefCell::new(Vec::new())),
        }
    }

    /// Runs a hand-written walk that finds the query's matches without it (`<language>.walk`),
    /// timed when asked.
    pub(crate) fn walked<'tree>(
        &self,
        walk: impl FnOnce() -> Vec<QueryHit<'tree>>,
    ) -> Vec<QueryHit<'tree>> {
        let started = self.is_timed().then(Instant::now);
        let hits = walk();
        self.record_walk(&hits, started);
        hits
    }

    /// Records a walk that ran since `started` (`None` when passes are not timed) and found
    /// `hits`, as `<language>.walk`.
    pub(crate) fn record_walk(&self, hits: &[QueryHit<'_>], started: Option<Instant>) {
        if let Some(started) = started {
            self.record(QueryTiming::of_hits(
                format!("{}.walk", self.language()),
                hits,
                started,
            ));
        }
    }

    /// Whether passes are timed.
    pub(crate) fn is_timed(&self) -> bool {
        self.timings.is_some()
    }

    /// The language's name, for timing ids.
    pub(crate) fn language(&self) -> &'static str {
        self.language
    }

    /// Records a pass that found matches without the query (the TypeScript/JavaScript walk).
    pub(crate) fn record(&self, timing: QueryTiming) {
        if let Some(timings) = &self.timings {
            if let Ok(mut timings) = timings.try_borrow_mut() {
                timings.push(timing);
            }
        }
    }

    /// The passes recorded, in order.
    pub(crate) fn into_timings(self) -> Vec<QueryTiming> {
        self.timings.map(RefCell::into_inner).unwrap_or_default()
    }
}

/// Whether a query file holds the generic `call`/`assignment` patterns (and only those).
fn is_generic_file(name: &str) -> bool {
    name.ends_with("/graph.scm")
}

/// One query file of a language, named relative to `extractors/queries/`.
#[derive(Debug, Clone, Copy)]
pub struct QueryFile {
    /// Path relative to `extractors/queries/`, e.g. `javascript/imports.scm`.
    pub name: &'static str,
    /// The file's text.
    pub text: &'static str,
}

#[cfg(test)]
mod tests;
