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

use std::collections::BTreeMap;

use policies::facts::Fact;
use tree_sitter::Node;

use crate::context::ProjectContext;
use crate::facts_out::{FactFactory, Located};
use crate::links::RouteLinks;
use crate::source_scope::{self, ScopeNamer};
use crate::syntax;
use crate::{ExtractionInput, Language};

/// What [`FactFactory::fact`] reads from a node, kept without the tree: the 1-based start and
/// (exclusive) end positions, the start byte (to compare first uses) and the enclosing scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Anchor {
    /// The 1-based (line, column) of the start.
    pub start: (u32, u32),
    /// The 1-based (line, column) after the end.
    pub end: (u32, u32),
    start_byte: u32,
    /// Index into the file's scopes ([`Deferred::scopes`]), [`NO_SCOPE`] for none.
    scope: u32,
}

/// The scope index of an anchor outside every named declaration.
const NO_SCOPE: u32 = u32::MAX;

impl Anchor {
    /// The byte offset of the start, to find the earliest of several uses.
    pub fn start_byte(self) -> u32 {
        self.start_byte
    }
}

fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// Makes the anchors of one file's nodes, their scope strings interned.
pub(crate) struct Anchors<'a> {
    root: Node<'a>,
    source: &'a str,
    name_of: ScopeNamer,
    /// The file's named scope-opening declarations in pre-order: (start byte, end byte, name).
    /// Built on first use.
    table: Option<Vec<(usize, usize, String)>>,
    /// The interned scope of each table entry as the innermost declaration, once worked out.
    entry_scopes: BTreeMap<usize, u32>,
    scopes: Vec<Box<str>>,
}

impl<'a> Anchors<'a> {
    /// Anchors for the tree under `root`, whose scopes `name_of` names (as
    /// `source_scope::enclosing` reads them).
    pub fn new(root: Node<'a>, source: &'a str, name_of: ScopeNamer) -> Self {
        Self {
            root,
            source,
            name_of,
            table: None,
            entry_scopes: BTreeMap::new(),
            scopes: Vec::new(),
        }
    }

    /// The anchor of a node that holds no scope-opening declaration (a name, a dotted chain, an
    /// import directive), its scope read from the file's table of declarations: those whose
    /// range holds the node's are its ancestors, since sibling ranges never overlap. An empty
    /// node (a `MISSING` one) is not placed by its range: its scope is worked out from the tree.
    pub fn at(&mut self, node: Node<'a>) -> Anchor {
        let (start, end) = (node.start_byte(), node.end_byte());
        let scope = if start == end {
            let scope = source_scope::enclosing(node, self.root, self.source, self.name_of);
            self.intern(scope)
        } else {
            self.table_scope(start, end)
        };
        self.anchor(node, scope)
    }

    /// The anchor of any node, with its scope as the extractor worked it out.
    pub fn with_scope(&mut self, node: Node<'a>, scope: Option<String>) -> Anchor {
        let scope = self.intern(scope);
        self.anchor(node, scope)
    }

    fn anchor(&self, node: Node<'a>, scope: u32) -> Anchor {
        let (start, end) = node.span(self.source);
        Anchor {
            start,
            end,
            start_byte: to_u32(node.start_byte()),
            scope,
        }
    }

    fn table_scope(&mut self, start: usize, end: usize) -> u32 {
        let (root, source, name_of) = (self.root, self.source, self.name_of);
        let table = self.table.get_or_insert_with(|| {
            syntax::descendants(root)
                .filter_map(|node| {
                    name_of(node, source).map(|name| (node.start_byte(), node.end_byte(), name))
                })
                .collect()
        });
        let holds = |(from, to, _): &&(usize, usize, String)| *from <= start && end <= *to;
        // The declarations holding the node are a chain of ancestors: the last in pre-order is
        // the innermost, and it decides the scope.
        let Some(innermost) = table.iter().rposition(|entry| holds(&entry)) else {
            return NO_SCOPE;
        };
        if let Some(known) = self.entry_scopes.get(&innermost) {
            return *known;
        }
        let names: Vec<&str> = table
            .iter()
            .take(innermost + 1)
            .filter(holds)
            .map(|(_, _, name)| name.as_str())
            .collect();
        let scope = names.join(".");
        let interned = self.intern(Some(scope));
        self.entry_scopes.insert(innermost, interned);
        interned
    }

    fn intern(&mut self, scope: Option<String>) -> u32 {
        let Some(scope) = scope else {
            return NO_SCOPE;
        };
        if let Some(known) = self.scopes.iter().position(|known| **known == *scope) {
            return to_u32(known);
        }
        self.scopes.push(scope.into_boxed_str());
        to_u32(self.scopes.len() - 1)
    }
}

/// Distinct names with the anchor of their first use, sorted bytewise (as a `BTreeMap` of
/// them iterates), in one buffer.
#[derive(Debug, Default)]
pub(crate) struct NameAnchors {
    text: String,
    /// (end of the name in `text`, the anchor of its first use), sorted by name.
    entries: Vec<(u32, Anchor)>,
}

impl NameAnchors {
    /// The first uses of a file's names.
    pub fn new<'a>(uses: BTreeMap<String, Node<'a>>, anchors: &mut Anchors<'a>) -> Self {
        let mut names = Self {
            text: String::with_capacity(uses.keys().map(String::len).sum()),
            entries: Vec::with_capacity(uses.len()),
        };
        for (name, node) in uses {
            names.text.push_str(&name);
            let anchor = anchors.at(node);
            names.entries.push((to_u32(names.text.len()), anchor));
        }
        names
    }

    fn name(&self, position: usize) -> &str {
        let start = match position.checked_sub(1) {
            Some(previous) => self
                .entries
                .get(previous)
                .map_or(0, |(end, _)| *end as usize),
            None => 0,
        };
        let end = self
            .entries
            .get(position)
            .map_or(start, |(end, _)| *end as usize);
        self.text.get(start..end).unwrap_or_default()
    }

    /// The anchor of the first use of `name`.
    pub fn get(&self, name: &str) -> Option<Anchor> {
        let position = self.position(name)?;
        self.entries.get(position).map(|(_, anchor)| *anchor)
    }

    /// Whether the file uses `name`.
    pub fn contains_key(&self, name: &str) -> bool {
        self.position(name).is_some()
    }

    fn position(&self, name: &str) -> Option<usize> {
        let (mut low, mut high) = (0, self.entries.len());
        while low < high {
            let middle = low + (high - low) / 2;
            match self.name(middle).cmp(name) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return Some(middle),
            }
        }
        None
    }

    /// Every name with the anchor of its first use, sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, Anchor)> + '_ {
        self.entries
            .iter()
            .enumerate()
            .map(|(position, (_, anchor))| (self.name(position), *anchor))
    }
}

/// Dotted chains of names (`com.acme.Foo`) with anchors, in order, in one buffer.
#[derive(Debug, Default)]
pub(crate) struct Chains {
    /// The segments of every chain, each chain's joined by `\n` (which no name holds).
    text: String,
    /// (end of the chain in `text`, its anchor).
    entries: Vec<(u32, Anchor)>,
}

impl Chains {
    /// Keeps `chains` (from `jvm::dotted_chains`).
    pub fn new<'a>(chains: &[(Vec<String>, Node<'a>)], anchors: &mut Anchors<'a>) -> Self {
        let mut kept = Self::default();
        for (segments, node) in chains {
            kept.push(segments, anchors.at(*node));
        }
        kept
    }

    /// Adds a chain.
    pub fn push(&mut self, segments: &[String], anchor: Anchor) {
        for (position, segment) in segments.iter().enumerate() {
            if position > 0 {
                self.text.push('\n');
            }
            self.text.push_str(segment);
        }
        self.entries.push((to_u32(self.text.len()), anchor));
    }

    /// The chains in order: their segments and anchors.
    pub fn iter(&self) -> impl Iterator<Item = (Vec<&str>, Anchor)> + '_ {
        let mut start = 0;
        self.entries.iter().map(move |(end, anchor)| {
            let end = *end as usize;
            let text = self.text.get(start..end).unwrap_or_default();
            start = end;
            (text.split('\n').collect(), *anchor)
        })
    }
}

/// A part of a file's facts that waits for the type indexes.
pub(crate) enum Part {
    /// Java and Kotlin imports, same-package and qualified uses, and clients.
    Jvm(Box<crate::jvm::PendingJvm>),
    /// A Kotlin typed-resource route whose resource another file may declare.
    KtorResource(Box<crate::kotlin_web::PendingResource>),
    /// C# `using`s and type uses.
    CSharp(Box<crate::csharp::PendingUses>),
    /// The roles of a C# `[Authorize(Roles = …)]` that names a `const string`.
    Roles(Box<crate::aspnet::PendingRoles>),
}

/// The facts of one file as its extractor makes them, and the parts that wait, each placed
/// after the facts made before it.
pub(crate) struct Output<'a> {
    /// The facts made so far, in extraction order.
    pub facts: Vec<Fact>,
    /// The anchors of the file's nodes.
    pub anchors: Anchors<'a>,
    parts: Vec<(usize, Part)>,
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
    pub fn defer(&mut self, part: Part) {
        self.parts.push((self.facts.len(), part));
    }

    /// The facts made; the parts, if any, are handed to `input` for the second pass.
    pub fn into_facts(self, input: &ExtractionInput<'_>) -> Vec<Fact> {
        if !self.parts.is_empty() {
            if let Ok(mut deferred) = input.deferred.try_borrow_mut() {
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
    parts: Vec<(usize, Part)>,
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
    language: Language,
    path: &str,
    context: &ProjectContext,
    links: &mut RouteLinks,
) -> Vec<Fact> {
    let mut finishing = Finishing {
        factory: FactFactory::for_file(language, path, ""),
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
        match part {
            Part::Jvm(part) => part.finish(&mut finishing, &mut facts),
            Part::KtorResource(part) => part.finish(&mut finishing, &mut facts),
            Part::CSharp(part) => part.finish(&finishing, &mut facts),
            Part::Roles(part) => part.finish(&finishing, &mut facts),
        }
    }
    facts.extend(ready);
    facts
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::{Anchors, Chains, NameAnchors};
    use crate::facts_out::Located;
    use crate::source_scope;
    use crate::syntax;
    use crate::Language;

    const JAVA: &str = "package a.b;\n\nimport java.util.List;\n\nclass Outer {\n  int x = 1;\n  class Inner {\n    void run(List<String> items) {\n      Runnable r = new Runnable() {\n        public void run() { items.clear(); }\n      };\n      int y = x + 1;\n    }\n  }\n  Outer() { helper(); }\n  static void helper() {}\n}\n\ninterface Port { void send(String m); }\n";

    fn java_scope(node: tree_sitter::Node<'_>, source: &str) -> Option<String> {
        match node.kind() {
            "class_declaration"
            | "interface_declaration"
            | "method_declaration"
            | "constructor_declaration" => source_scope::field_text(node, "name", source),
            _ => None,
        }
    }

    fn parse(source: &str) -> tree_sitter::Tree {
        let grammar = Language::Java
            .spec()
            .tree_sitter()
            .map(|backend| backend.grammar);
        grammar
            .and_then(|grammar| syntax::parse(grammar, source))
            .expect("the Java grammar parses")
    }

    /// Missing semicolons: empty `MISSING` tokens at the end of a method and of a class.
    const BROKEN: &str =
        "class A {\n  void f() { int x = 1 }\n  class B { void g() { return } }\n  int z = 2\n}\n";

    #[test]
    fn the_scope_of_every_token_is_the_one_the_tree_gives() {
        let mut empty = 0;
        for source in [JAVA, BROKEN] {
            let tree = parse(source);
            let root = tree.root_node();
            let mut anchors = Anchors::new(root, source, java_scope);
            let mut checked = 0;
            for node in syntax::descendants(root).filter(|node| node.child_count() == 0) {
                let anchor = anchors.at(node);
                let scope = anchors
                    .scopes
                    .get(anchor.scope as usize)
                    .map(|scope| scope.to_string());
                assert_eq!(
                    scope,
                    source_scope::enclosing(node, root, source, java_scope),
                    "{} at {:?}",
                    node.kind(),
                    node.start_position()
                );
                assert_eq!((anchor.start, anchor.end), node.span(source));
                assert_eq!(anchor.start_byte() as usize, node.start_byte());
                checked += 1;
                empty += usize::from(node.start_byte() == node.end_byte());
            }
            assert!(checked > 20);
        }
        assert!(empty >= 2, "the broken source has missing tokens");
        let tree = parse(JAVA);
        let mut anchors = Anchors::new(tree.root_node(), JAVA, java_scope);
        for node in syntax::descendants(tree.root_node()) {
            anchors.at(node);
        }
        // One string per distinct scope.
        let mut distinct = anchors.scopes.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), anchors.scopes.len());
        assert!(anchors
            .scopes
            .iter()
            .any(|scope| &**scope == "Outer.Inner.run.run"));
    }

    #[test]
    fn first_uses_are_found_by_name_in_name_order() {
        let tree = parse(JAVA);
        let root = tree.root_node();
        let uses = syntax::first_uses(root, JAVA, &["identifier", "type_identifier"], &[]);
        let expected: BTreeMap<String, (u32, u32)> = uses
            .iter()
            .map(|(name, node)| (name.clone(), syntax::start_position(*node, JAVA)))
            .collect();
        let mut anchors = Anchors::new(root, JAVA, java_scope);
        let names = NameAnchors::new(uses, &mut anchors);
        let listed: BTreeMap<String, (u32, u32)> = names
            .iter()
            .map(|(name, anchor)| (name.to_owned(), anchor.start))
            .collect();
        assert_eq!(listed, expected);
        assert!(names.iter().map(|(name, _)| name).is_sorted());
        for (name, start) in &expected {
            assert!(names.contains_key(name));
            assert_eq!(names.get(name).map(|anchor| anchor.start), Some(*start));
        }
        assert!(!names.contains_key("Missing"));
        assert!(names.get("").is_none());
    }

    #[test]
    fn chains_keep_their_segments_and_order() {
        let tree = parse(JAVA);
        let root = tree.root_node();
        let mut anchors = Anchors::new(root, JAVA, java_scope);
        let node = root;
        let mut chains = Chains::default();
        let written: [&[&str]; 4] = [&["com", "acme", "Foo"], &["", "x"], &["a"], &["", ""]];
        for segments in written {
            let segments: Vec<String> = segments.iter().map(|s| (*s).to_owned()).collect();
            chains.push(&segments, anchors.at(node));
        }
        let read: Vec<Vec<&str>> = chains.iter().map(|(segments, _)| segments).collect();
        assert_eq!(read, written.map(<[&str]>::to_vec).to_vec());
    }
}
