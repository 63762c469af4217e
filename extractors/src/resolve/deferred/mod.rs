//! Resolution deferred until the project's type indexes are complete, so that every Java, Kotlin
//! and C# file is parsed once.
//!
//! The first pass over such a file reads what it declares (for the index) and extracts every
//! fact that does not need the index. What does (imports and type uses resolved through the
//! index, clients qualified through wildcard imports, Kotlin typed resources declared in other
//! files, C# `const string` role names) is kept as [`Part`]s: names, strings and [`Anchor`]s
//! instead of syntax nodes, so neither the tree nor the source text outlives the first pass.
//! Once every file has been read and the indexes built, [`finish`] turns the parts into facts
//! at the places they had among the file's other facts: the result is the one a single pass
//! with the complete index gives.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use policies::facts::Fact;
use tree_sitter::Node;

use crate::facts::FactFactory;
use crate::resolve::context::ProjectContext;
use crate::resolve::links::RouteLinks;
use crate::source_scope::{self, ScopeNamer};
use crate::syntax::{self, Fnv};
use crate::walk::{
    push_named_children, push_named_children_with_fields, Ancestor, FieldAt, FieldRead, Pending,
};

mod anchors;
pub(crate) mod chains;
mod packed;
mod prune;

pub(crate) use anchors::*;

pub(crate) use crate::facts::anchor::{Anchor, NO_SCOPE};
#[cfg(test)]
pub(crate) use packed::test_anchors;
pub(crate) use packed::{ChainPacker, PackedChains, PackedNames, Reader, Writer};
pub(crate) use prune::{Prune, JAVA_KEYWORDS};

/// A part of a file's facts that waits for the type indexes: each language that defers work
/// implements it for what it keeps (Java and Kotlin imports and uses, Kotlin typed resources
/// declared in other files, C# `using`s and type uses, C# role names that name a `const string`).
pub(crate) trait Part: Send {
    /// Adds the part's facts to `facts`, now that the type indexes are complete.
    fn finish(self: Box<Self>, finishing: &mut Finishing<'_>, facts: &mut Vec<Fact>);
}

/// The facts of one file as its extractor makes them, and the parts that wait, each placed
/// after the facts made before it.
pub(crate) struct Output<'a> {
    /// The facts made so far, in extraction order.
    pub facts: Vec<Fact>,
    /// The anchors of the file's nodes.
    pub anchors: Anchors<'a>,
    parts: Vec<(usize, Box<dyn Part>)>,
}

impl<'a> Output<'a> {
    /// An empty output.
    pub fn new(anchors: Anchors<'a>) -> Self {
        Self {
            facts: Vec::new(),
            anchors,
            parts: Vec::new(),
        }
    }

    /// Defers a part to the second pass, after the facts made so far.
    pub fn defer(&mut self, part: Box<dyn Part>) {
        self.parts.push((self.facts.len(), part));
    }

    /// The facts made; the parts, if any, are handed to `deferred` (the file's
    /// `ExtractionInput::deferred`) for the second pass.
    pub fn into_facts(mut self, deferred: &RefCell<Option<Deferred>>) -> Vec<Fact> {
        if !self.parts.is_empty() {
            // The facts wait with the parts for the second pass.
            self.facts.shrink_to_fit();
            if let Ok(mut deferred) = deferred.try_borrow_mut() {
                *deferred = Some(Deferred {
                    parts: self.parts,
                    scopes: self.anchors.scopes,
                });
            }
        }
        self.facts
    }
}

/// The parts of a file that wait for the type indexes, and the scopes their anchors name.
#[derive(Default)]
pub(crate) struct Deferred {
    /// Each part with the number of the file's other facts made before it.
    parts: Vec<(usize, Box<dyn Part>)>,
    scopes: Vec<Box<str>>,
}

/// What parts need in the second pass over one file.
pub(crate) struct Finishing<'a> {
    /// Makes the file's facts (positions come from anchors: there is no source).
    pub factory: FactFactory<'a>,
    /// The project-relative path of the file.
    pub path: &'a str,
    /// The project, with its complete type indexes.
    pub context: &'a ProjectContext,
    scopes: &'a [Box<str>],
    /// Kotlin: the project types the file names, by simple name, with their files (from its
    /// import sites), for typed resources declared elsewhere.
    pub types: BTreeMap<String, String>,
    /// The file's cross-file routing records.
    pub links: &'a mut RouteLinks,
}

impl Finishing<'_> {
    /// The enclosing scope of an anchor.
    pub fn scope(&self, anchor: Anchor) -> Option<String> {
        self.scopes
            .get(anchor.scope as usize)
            .map(|scope| scope.to_string())
    }
}

/// The facts of a file once the type indexes are complete: `ready` (the facts of the first
/// pass) with the facts of each part inserted where the part was deferred.
pub(crate) fn finish(
    deferred: Deferred,
    ready: Vec<Fact>,
    language: &'static str,
    extractor: &'static str,
    path: &str,
    context: &ProjectContext,
    links: &mut RouteLinks,
) -> Vec<Fact> {
    let mut finishing = Finishing {
        factory: FactFactory::for_file(language, extractor, path, "")
            .sharing(context.interner(), context.generic()),
        path,
        context,
        scopes: &deferred.scopes,
        types: BTreeMap::new(),
        links,
    };
    let mut facts = Vec::with_capacity(ready.len());
    let mut ready = ready.into_iter();
    let mut taken = 0;
    for (position, part) in deferred.parts {
        facts.extend(ready.by_ref().take(position.saturating_sub(taken)));
        taken = taken.max(position);
        part.finish(&mut finishing, &mut facts);
    }
    facts.extend(ready);
    facts
}

#[cfg(test)]
mod tests;
