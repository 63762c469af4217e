//! Building facts in the shape `policies::facts` (the fact schema) requires, and putting a file's facts in order.
//!
//! Every fact gets its id, evidence (extractor, `ast` strategy, 1-based span in Unicode scalar
//! values, scope, message) and the `language` property here, so extractors only add what is
//! specific to the construct. `subject` and `target` stay empty: the engine fills them.

pub(crate) mod anchor;
pub(crate) mod calls_and_assignments;
pub(crate) mod clients;
pub(crate) mod imports;
pub(crate) mod route_path;
pub(crate) mod web;

use policies::facts::{
    disambiguate_ids, fact_id, Confidence, Evidence, Fact, FactKind, Properties, PropertyValue,
    Strategy, Text,
};
use std::borrow::Cow;
use std::sync::Arc;

use tree_sitter::Node;

use crate::syntax;
use anchor::Anchor;

/// Every generic fact, for factories made outside a run.
static ALL_GENERIC: crate::generic::GenericFacts = crate::generic::GenericFacts::ALL;
/// Where a fact's evidence lies: a syntax node, or the [`Anchor`] kept of one when the tree is
/// gone (`crate::resolve::deferred`).
pub(crate) trait Located: Copy {
    /// The 1-based (line, column) of the start and of the end (exclusive), the columns counted
    /// in Unicode scalar values, by `columns` of the file's source.
    fn span(self, columns: &syntax::Columns<'_>) -> ((u32, u32), (u32, u32));
}

impl Located for Node<'_> {
    fn span(self, columns: &syntax::Columns<'_>) -> ((u32, u32), (u32, u32)) {
        columns.span(self)
    }
}

impl Located for Anchor {
    fn span(self, _: &syntax::Columns<'_>) -> ((u32, u32), (u32, u32)) {
        (self.start, self.end)
    }
}

/// Creates facts for one file.
pub(crate) struct FactFactory<'a> {
    extractor: &'static str,
    language: &'static str,
    file: &'a str,
    /// The path every fact of this factory shares.
    shared_file: Arc<str>,
    /// The positions of the file's nodes.
    columns: syntax::Columns<'a>,
    /// Where strings many facts hold are shared, when the factory works for a project.
    interner: Option<&'a policies::facts::Interner>,
    /// The generic facts made (`call`, `assignment`, `external`): those the run's reviewed
    /// queries may match (`ProjectContext::generic`).
    generic: &'a crate::generic::GenericFacts,
    /// What the file's request URLs found of its configuration names, kept between requests.
    url_names: web::UrlNamesMemo,
}

impl<'a> FactFactory<'a> {
    /// The configuration names a request URL of this file reads
    /// ([`web::url_configuration_names_in`]), with what the file's earlier requests found.
    pub fn url_configuration_names(&self, url: &str) -> Vec<String> {
        web::url_configuration_names_with(url, self.source(), &self.url_names)
    }

    /// This factory, sharing the strings many facts hold through the project's `interner`, and
    /// making the `generic` facts the project's reviewed queries may match.
    pub fn sharing(
        self,
        interner: &'a policies::facts::Interner,
        generic: &'a crate::generic::GenericFacts,
    ) -> Self {
        Self {
            interner: Some(interner),
            generic,
            ..self
        }
    }

    /// `text`, shared with the equal strings of the run (an import's specifier, resolved file or
    /// message, the same in every file that imports the module or type) where the factory works
    /// for a project, else owned.
    pub fn shared(&self, text: &str) -> Text {
        match self.interner {
            Some(interner) => Text::Shared(interner.intern(text)),
            None => Text::from(text),
        }
    }

    /// The file's text.
    pub fn source(&self) -> &'a str {
        self.columns.source()
    }

    /// The generic facts made: reviewed queries, `graph --facts` and `--debug-extractors` read
    /// them, and no policy does.
    pub fn generic(&self) -> &crate::generic::GenericFacts {
        self.generic
    }

    /// [`FactFactory::shared`] as a property value.
    pub fn shared_text(&self, text: &str) -> PropertyValue {
        PropertyValue::Str(self.shared(text))
    }

    /// A factory for a file of the language named `language`, read by `extractor` (every
    /// generic fact).
    pub fn for_file(
        language: &'static str,
        extractor: &'static str,
        file: &'a str,
        source: &'a str,
    ) -> Self {
        Self {
            extractor,
            language,
            file,
            shared_file: Arc::from(file),
            columns: syntax::Columns::new(source),
            interner: None,
            generic: &ALL_GENERIC,
            url_names: web::UrlNamesMemo::default(),
        }
    }

    /// The 1-based (line, column) of the start and of the end (exclusive) of `node`, as the
    /// evidence of a fact at it has them.
    pub fn span(&self, node: impl Located) -> ((u32, u32), (u32, u32)) {
        node.span(&self.columns)
    }

    /// A fact of `kind` whose evidence spans `node` (a syntax node, or the [`Anchor`] kept of
    /// one), with the `language` property set. The end position is exclusive (the column after
    /// the construct), as SARIF regions are.
    pub fn fact(
        &self,
        kind: FactKind,
        node: impl Located,
        confidence: Confidence,
        scope: Option<String>,
        message: impl Into<Text>,
    ) -> Fact {
        self.fact_at(
            kind,
            Strategy::Ast,
            node.span(&self.columns),
            confidence,
            scope,
            message,
        )
    }

    /// A fact of `kind` whose evidence spans `(start, end)` (1-based line and column pairs, the
    /// end exclusive), found with `strategy`, with the `language` property set.
    pub fn fact_at(
        &self,
        kind: FactKind,
        strategy: Strategy,
        ((line, column), (end_line, end_column)): ((u32, u32), (u32, u32)),
        confidence: Confidence,
        scope: Option<String>,
        message: impl Into<Text>,
    ) -> Fact {
        let mut properties = Properties::new();
        properties.insert("language", PropertyValue::fixed(self.language));
        Fact {
            id: fact_id(self.extractor, self.file, line, column, kind),
            kind,
            subject: None,
            target: None,
            technology: None,
            model: None,
            route: None,
            properties,
            confidence,
            evidence: Evidence {
                extractor: Cow::Borrowed(self.extractor),
                strategy,
                file: Arc::clone(&self.shared_file),
                line,
                column,
                end_line,
                end_column,
                scope: scope.map(String::into_boxed_str),
                message: message.into(),
            },
        }
    }
}

/// Sets a request's `path`, or removes it when the URL gives none (once constants fill it in).
pub(crate) fn set_path(fact: &mut Fact, path: Option<&str>) {
    match path {
        Some(path) => {
            fact.properties.insert("path", PropertyValue::from(path));
        }
        None => {
            fact.properties.remove("path");
        }
    }
}

/// Sets a property on a fact.
pub(crate) fn set(fact: &mut Fact, name: &'static str, value: impl Into<PropertyValue>) {
    fact.properties.insert(name, value.into());
}

/// Gives `http_call` facts the configuration names their URLs are built from, sorts a file's
/// facts by (line, column, kind), keeping extraction order among equals, and makes their ids
/// unique.
pub(crate) fn finish(facts: &mut [Fact]) {
    for fact in facts.iter_mut() {
        crate::facts::web::note_url_names(fact);
    }
    facts.sort_by_key(|fact| (fact.evidence.line, fact.evidence.column, fact.kind));
    disambiguate_ids(facts);
}
