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
use crate::{ExtractionInput, Language};

mod packed;
mod prune;
#[cfg(test)]
pub(crate) use packed::test_anchors;
pub(crate) use packed::{ChainPacker, PackedChains, PackedNames, Reader, Writer};
pub(crate) use prune::{Prune, JAVA_KEYWORDS};

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

/// The scopes of a file's nodes that the walk knew ([`Anchors::walked_scopes`]).
pub(crate) struct WalkedScopes<'a> {
    ids: Vec<(usize, u32)>,
    scopes: Vec<Box<str>>,
    root: Node<'a>,
    source: &'a str,
    name_of: ScopeNamer,
}

impl WalkedScopes<'_> {
    /// The scope of `node`: the walk's when it visited it and the node is not empty, else as
    /// `source_scope::enclosing` works it out.
    pub fn scope_of(&self, node: Node<'_>) -> Option<String> {
        let id = node.id();
        let walked = self
            .ids
            .binary_search_by(|(known, _)| known.cmp(&id))
            .ok()
            .and_then(|index| self.ids.get(index))
            .filter(|_| node.start_byte() < node.end_byte());
        match walked {
            Some((_, NO_SCOPE)) => None,
            Some((_, scope)) => self
                .scopes
                .get(usize::try_from(*scope).unwrap_or(usize::MAX))
                .map(|scope| scope.to_string()),
            None => source_scope::enclosing(node, self.root, self.source, self.name_of),
        }
    }
}

/// Makes the anchors of one file's nodes, their scope strings interned.
pub(crate) struct Anchors<'a> {
    root: Node<'a>,
    source: &'a str,
    /// The positions of the file's nodes.
    columns: crate::syntax::Columns<'a>,
    name_of: ScopeNamer,
    scopes: Vec<Box<str>>,
    /// The ancestors of the node whose scope was last worked out (`syntax::ancestors_into`).
    chain: Vec<Node<'a>>,
}

impl<'a> Anchors<'a> {
    /// Anchors for the tree under `root`, whose scopes `name_of` names (as
    /// `source_scope::enclosing` reads them).
    pub fn new(root: Node<'a>, source: &'a str, name_of: ScopeNamer) -> Self {
        Self {
            root,
            source,
            columns: crate::syntax::Columns::new(source),
            name_of,
            scopes: Vec::new(),
            chain: Vec::new(),
        }
    }

    /// The anchor of a node, its scope worked out from the tree (`source_scope::enclosing`).
    pub fn at(&mut self, node: Node<'a>) -> Anchor {
        let scope = self.scope_of(node);
        self.at_scope(node, scope)
    }

    /// The anchor of a node inside the declarations whose interned scope `scope` the walk gave
    /// ([`Anchors::walk_scoped`]); an empty node (`MISSING`) is placed as [`Anchors::at`] places
    /// it, by its position, as the walk places the first uses.
    pub fn at_walked(&mut self, node: Node<'a>, scope: u32) -> Anchor {
        let scope = self.walked_scope_of(node, scope);
        self.at_scope(node, scope)
    }

    /// The interned scope of a node inside the declarations whose interned scope `scope` the
    /// walk gave, placed as [`Anchors::at_walked`] places it.
    pub fn walked_scope_of(&mut self, node: Node<'a>, scope: u32) -> u32 {
        self.walked_scope(node, &[(0, scope)])
    }

    /// The anchor of a node, with its scope as the extractor worked it out.
    pub fn with_scope(&mut self, node: Node<'a>, scope: Option<String>) -> Anchor {
        let scope = self.intern(scope);
        self.at_scope(node, scope)
    }

    /// The anchor of a node whose interned scope is known ([`Anchors::scope_of`],
    /// [`Anchors::walk`]).
    pub fn at_scope(&self, node: Node<'a>, scope: u32) -> Anchor {
        let (start, end) = self.columns.span(node);
        Anchor {
            start,
            end,
            start_byte: to_u32(node.start_byte()),
            scope,
        }
    }

    /// The scopes of nodes as `source_scope::enclosing` reads them, looked up first among
    /// `walked` (node ids with the interned scopes the walk gave them, [`Walked::scoped`]),
    /// else worked out from the tree. A walked scope is taken for a node that is not empty: an
    /// empty one (`MISSING`) is placed by its position.
    pub fn walked_scopes(&self, walked: Vec<(usize, u32)>) -> WalkedScopes<'a> {
        let mut ids = walked;
        ids.sort_unstable();
        WalkedScopes {
            ids,
            scopes: self.scopes.clone(),
            root: self.root,
            source: self.source,
            name_of: self.name_of,
        }
    }

    /// The interned scope of a node, worked out from the tree.
    pub fn scope_of(&mut self, node: Node<'a>) -> u32 {
        syntax::ancestors_into(self.root, node, &mut self.chain);
        let scope = source_scope::within(&self.chain, self.source, self.name_of);
        self.intern(scope)
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

    /// One cursor walk over the tree, not into nodes of a `kinds.chains.skipped` kind: the
    /// first use of each name of a `kinds.names` kind (as `syntax::first_uses` finds them) and
    /// the dotted chains (as `jvm::dotted_chains` finds them), each with its interned scope,
    /// read from the declarations the walk is inside: those are the node's ancestors. An empty
    /// node (`MISSING`) gets its scope from `source_scope::enclosing`, which places it by its
    /// position.
    #[cfg(test)]
    pub fn walk(&mut self, kinds: &WalkKinds<'_>) -> Walked<'a> {
        self.walk_with(kinds, |_, _, _| {})
    }

    /// [`Anchors::walk`], calling `visit(node, field, ancestors)` for every named node of the
    /// tree on the way (a language's query matcher: one pass does both). A node of a `skipped`
    /// kind is visited, but the walk does not enter it: no pattern of the matchers ends inside an
    /// import or package declaration, and those are read from their own nodes.
    pub fn walk_with(
        &mut self,
        kinds: &WalkKinds<'_>,
        mut visit: impl FnMut(Node<'a>, Option<&'static str>, &[Ancestor<'a>]),
    ) -> Walked<'a> {
        self.walk_scoped(kinds, None, |node, field, ancestors, _| {
            visit(node, field, ancestors);
        })
    }

    /// [`Anchors::walk_with`], with what the walk knows of each visited node as `visit`'s last
    /// argument: the interned scope of the declarations around it (for [`Anchors::at_walked`])
    /// and its and its parent's kind ids, read once per node. With `prune`, a child of a
    /// [`WalkKinds::prune_parents`] kind that [`Prune::skippable`] finds can add nothing is
    /// neither visited nor entered: `visit` must then find nothing in such a statement either.
    pub fn walk_scoped(
        &mut self,
        kinds: &WalkKinds<'_>,
        prune: Option<&Prune>,
        mut visit: impl FnMut(Node<'a>, Option<&'static str>, &[Ancestor<'a>], Visited),
    ) -> Walked<'a> {
        let ids = kinds
            .ids
            .get_or_init(|| KindIds::of(&self.root.language(), kinds));
        let mut walked = Walked {
            uses: BTreeMap::new(),
            chains: Vec::new(),
            scoped: Vec::new(),
        };
        // The first use of each name, looked up by hash for every name node and sorted once.
        // Sized for the names of a file of this length, so that it is seldom grown.
        let mut first_uses: HashMap<&'a str, (Node<'a>, u32), Fnv> =
            HashMap::with_capacity_and_hasher(
                (self.source.len() / 96).clamp(16, 8192),
                Fnv::default(),
            );
        let mut chain_nodes = Vec::new();
        // The scope-opening declarations around the current node: (depth, interned scope).
        let mut open: Vec<(usize, u32)> = Vec::new();
        // The depth of the dotted chain the walk is inside: no chain is looked for below it.
        let mut in_chain: Option<usize> = None;
        // The chain being read as the walk goes below its root, and the nodes met below it.
        let mut reading: Option<ChainRead<'a>> = None;
        let mut met: Vec<Met<'a>> = Vec::new();
        // The depth of the skipped node the walk is inside: nothing is read below it.
        let mut in_skipped: Option<usize> = None;
        let mut ancestors: Vec<Ancestor<'a>> = Vec::new();
        // The kind ids of `ancestors`.
        let mut ancestor_kinds: Vec<u16> = Vec::new();
        // Only named nodes are visited and read (every kind the walk looks for, and every
        // pattern node of the matchers, is named), as in `walk::preorder`.
        let mut pending: Vec<Pending<'a>> = vec![(self.root, None, 0)];
        while let Some((node, field, depth)) = pending.pop() {
            while open.last().is_some_and(|(at, _)| *at >= depth) {
                open.pop();
            }
            let kind_id = node.kind_id();
            let flags = ids.flags.get(usize::from(kind_id)).copied().unwrap_or(0);
            let innermost = open.last().map_or(NO_SCOPE, |(_, scope)| *scope);
            if let Some(chain) = reading.as_mut() {
                if depth <= chain.depth {
                    // Past the chain's subtree.
                    if let Some(chain) = reading.take() {
                        in_chain =
                            self.close_chain(chain, &met, ids, &mut walked, &mut chain_nodes);
                    }
                } else if chain.read(node, depth, &ids.chain_ids, self.source) {
                    let in_ignored = chain.closed_below.is_some_and(|below| depth > below);
                    met.push((node, depth, flags, innermost, in_ignored));
                } else {
                    // Not a chain after all: the nodes met below its root are read as the walk
                    // would have read them had it not taken the root for one.
                    reading = None;
                    in_chain =
                        self.replay_chains(&met, &ids.chain_ids, &mut walked, &mut chain_nodes);
                }
            }
            if in_chain.is_some_and(|at| depth <= at) {
                in_chain = None;
            }
            if in_skipped.is_some_and(|at| depth <= at) {
                in_skipped = None;
            }
            ancestors.truncate(depth);
            ancestor_kinds.truncate(depth);
            if let Some(prune) = prune {
                let parent_flags = ancestor_kinds
                    .last()
                    .and_then(|parent| ids.flags.get(usize::from(*parent)))
                    .copied()
                    .unwrap_or(0);
                if parent_flags & KindIds::PRUNE_PARENT != 0
                    && reading.is_none()
                    && in_chain.is_none()
                    && in_skipped.is_none()
                    && !node.has_error()
                    && prune.skippable(syntax::text(node, self.source), &first_uses)
                {
                    continue;
                }
            }
            if flags & KindIds::SCOPED != 0 {
                walked.scoped.push((node.id(), innermost));
            }
            visit(
                node,
                field,
                &ancestors,
                Visited {
                    scope: innermost,
                    kind_id,
                    parent_kind_id: ancestor_kinds.last().copied(),
                },
            );
            // A member's name (`x.Timeout`) is no use of a type of that name, nor is a name of
            // a chain being read: in the chain, or in a chain of its ignored parts, which are
            // read when it closes ([`Anchors::close_chain`]).
            let in_read_chain = reading.is_some();
            let flags = if flags & KindIds::NAME != 0
                && ids.is_member_name(ancestor_kinds.last().copied(), field, in_read_chain)
            {
                flags & !KindIds::NAME
            } else {
                flags
            };
            if in_skipped.is_none() && flags & KindIds::READ != 0 {
                let mut state = WalkState {
                    first_uses: &mut first_uses,
                    reading: &mut reading,
                    met: &mut met,
                    open: &mut open,
                    in_chain: &mut in_chain,
                    in_skipped: &mut in_skipped,
                };
                self.read_walked(node, flags, depth, ids, &mut state);
            }
            // Nothing below a skipped node (an import, a package header) is read or matched.
            if in_skipped == Some(depth) {
                continue;
            }
            // Finding a field scans the parent's children: fields are read only under the
            // parents whose fields the language's visitors read, and only those fields, each
            // found once (`Node::field_name_for_named_child` would scan for every child).
            let pushed = if ids.every_field {
                push_named_children(node, true, depth + 1, &mut pending)
            } else if flags & KindIds::FIELD_PARENT != 0 {
                let fields = ids
                    .fields
                    .get(usize::from(kind_id))
                    .map_or(&[][..], |fields| &fields[..]);
                push_named_children_with_fields(node, fields, depth + 1, &mut pending)
            } else {
                push_named_children(node, false, depth + 1, &mut pending)
            };
            if pushed {
                ancestors.push((node, field));
                ancestor_kinds.push(kind_id);
            }
        }
        if let Some(chain) = reading.take() {
            self.close_chain(chain, &met, ids, &mut walked, &mut chain_nodes);
        }
        walked.uses = first_uses
            .into_iter()
            .map(|(name, first)| (Cow::Borrowed(name), first))
            .collect();
        walked
    }

    /// What the walk reads at the named node `node` at `depth`: a first use, a dotted chain, a
    /// scope it opens, a skipped subtree it starts.
    fn read_walked(
        &mut self,
        node: Node<'a>,
        flags: u8,
        depth: usize,
        ids: &KindIds,
        state: &mut WalkState<'_, 'a>,
    ) {
        let WalkState {
            first_uses,
            reading,
            met,
            open,
            in_chain,
            in_skipped,
        } = state;
        if flags & KindIds::NAME != 0 {
            let name = syntax::text(node, self.source);
            // An empty name (a `MISSING` identifier of broken code) names no type.
            if !name.is_empty() && !first_uses.contains_key(name) {
                let scope = self.walked_scope(node, open);
                first_uses.insert(name, (node, scope));
            }
        }
        // A chain is read as the walk goes below its root (`ChainRead`), as
        // `jvm::chain_segments` would read it: no node is listed twice.
        if in_chain.is_none() && flags & KindIds::CHAIN != 0 {
            let text = syntax::text(node, self.source);
            // A leaf alone is one segment, no chain.
            if !crate::lang::jvm::cannot_be_chain(text)
                && !ids.chain_ids.leaf.contains(&node.kind_id())
            {
                **reading = Some(ChainRead {
                    node,
                    depth,
                    innermost: open.last().map_or(NO_SCOPE, |(_, scope)| *scope),
                    // Not sized by the dots of `text`: below a long chain of calls each
                    // member access starts a read, and counting them all would be quadratic.
                    segments: Vec::new(),
                    closed_below: None,
                });
                met.clear();
                **in_chain = Some(depth);
            }
        }
        if flags & KindIds::SCOPE != 0 {
            if let Some(name) = (self.name_of)(node, self.source) {
                let full = match open
                    .last()
                    .and_then(|(_, outer)| self.scopes.get(*outer as usize))
                {
                    // Sized exactly: a `format!` here grew its buffer for most scopes.
                    Some(outer) => [outer, ".", name.as_str()].concat(),
                    None => name,
                };
                let interned = self.intern(Some(full));
                open.push((depth, interned));
            }
        }
        if flags & KindIds::SKIPPED != 0 {
            **in_skipped = Some(depth);
        }
    }
}

/// The state of one [`Anchors::walk_with`] that [`Anchors::read_walked`] updates.
struct WalkState<'w, 'a> {
    /// The first use of each name so far.
    first_uses: &'w mut HashMap<&'a str, (Node<'a>, u32), Fnv>,
    /// The dotted chain being read below its root.
    reading: &'w mut Option<ChainRead<'a>>,
    /// The nodes met below that root.
    met: &'w mut Vec<Met<'a>>,
    /// The scope-opening declarations around the current node: (depth, interned scope).
    open: &'w mut Vec<(usize, u32)>,
    /// The depth of the dotted chain the walk is inside.
    in_chain: &'w mut Option<usize>,
    /// The depth of the skipped node the walk is inside.
    in_skipped: &'w mut Option<usize>,
}

/// What [`Anchors::walk_scoped`] tells its visitor of a node besides the node, its field and
/// its ancestors.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Visited {
    /// The interned scope of the declarations around the node.
    pub scope: u32,
    /// The node's kind id.
    pub kind_id: u16,
    /// Its parent's kind id (`None` at the root).
    pub parent_kind_id: Option<u16>,
}

/// A named node the walk met below the root of the chain it reads: the node, its depth, its
/// [`KindIds`] flags, the interned scope of the innermost declaration open around it, and
/// whether it is inside an ignored part of the chain (`x.Get<A.B>()`'s type arguments).
type Met<'a> = (Node<'a>, usize, u8, u32, bool);

/// A dotted chain read as the walk goes below its root, which `jvm::chain_segments` would read
/// in a walk of its own: the same nodes in the same order (the named ones in preorder), so the
/// segments are the leaves' texts and the chain is none once a node of another kind is met.
struct ChainRead<'a> {
    node: Node<'a>,
    depth: usize,
    /// The interned scope of the innermost declaration open around the root.
    innermost: u32,
    segments: Vec<String>,
    /// The depth of the leaf, ignored part or comment the walk is below: not read.
    closed_below: Option<usize>,
}

impl ChainRead<'_> {
    /// Reads the named node `node` at `depth` below the root; false when it shows the root is
    /// no chain.
    fn read(
        &mut self,
        node: Node<'_>,
        depth: usize,
        kinds: &crate::lang::jvm::ChainIds,
        source: &str,
    ) -> bool {
        if let Some(below) = self.closed_below {
            if depth > below {
                return true;
            }
            self.closed_below = None;
        }
        if node.is_extra() {
            self.closed_below = Some(depth);
            return true;
        }
        let kind = node.kind_id();
        if kinds.ignored.contains(&kind) {
            self.closed_below = Some(depth);
        } else if kinds.leaf.contains(&kind) {
            self.segments.push(syntax::text(node, source).to_owned());
            self.closed_below = Some(depth);
        } else if !kinds.chain.contains(&kind) {
            return false;
        }
        true
    }
}

impl<'a> Anchors<'a> {
    /// Keeps a chain read to its end when it has two segments or more; with fewer, it is no
    /// chain, and the nodes `met` below it are read as for a root that is none (a chain may
    /// stand in its ignored parts: `Repository<Core.Entities.Project>`). A kept chain's ignored
    /// parts are read so too in a language whose qualified names are resolved as chains
    /// ([`WalkKinds::chain_member_names`]: `Substitute.For<Core.Billing.IQuery>()`). The walk's
    /// `in_chain` after it.
    fn close_chain(
        &mut self,
        chain: ChainRead<'a>,
        met: &[Met<'a>],
        ids: &KindIds,
        walked: &mut Walked<'a>,
        buffer: &mut Vec<Node<'a>>,
    ) -> Option<usize> {
        let kinds = &ids.chain_ids;
        if chain.segments.len() < 2 {
            return self.replay_chains(met, kinds, walked, buffer);
        }
        let scope = self.walked_scope(chain.node, &[(0, chain.innermost)]);
        walked.chains.push((chain.segments, chain.node, scope));
        if ids.reads_ignored_chains {
            let ignored: Vec<Met<'a>> = met.iter().copied().filter(|entry| entry.4).collect();
            if !ignored.is_empty() {
                self.replay_chains(&ignored, kinds, walked, buffer);
            }
        }
        Some(chain.depth)
    }

    /// The chains among the nodes `met` below a root that is no chain, looked for as the walk
    /// looks for them (a chain at each chain node not inside one found before); the depth of the
    /// last one found, for the walk's `in_chain`.
    fn replay_chains(
        &mut self,
        met: &[Met<'a>],
        kinds: &crate::lang::jvm::ChainIds,
        walked: &mut Walked<'a>,
        buffer: &mut Vec<Node<'a>>,
    ) -> Option<usize> {
        let mut in_chain: Option<usize> = None;
        for (node, depth, flags, innermost, _) in met.iter().copied() {
            if in_chain.is_some_and(|at| depth <= at) {
                in_chain = None;
            }
            if in_chain.is_some() || flags & KindIds::CHAIN == 0 {
                continue;
            }
            let Some(segments) = crate::lang::jvm::chain_segments(node, self.source, kinds, buffer)
            else {
                continue;
            };
            if segments.len() >= 2 {
                let scope = self.walked_scope(node, &[(0, innermost)]);
                walked.chains.push((segments, node, scope));
                in_chain = Some(depth);
            }
        }
        in_chain
    }

    /// The scope of a node the walk reached inside the `open` declarations.
    fn walked_scope(&mut self, node: Node<'a>, open: &[(usize, u32)]) -> u32 {
        if node.start_byte() == node.end_byte() {
            self.scope_of(node)
        } else {
            open.last().map_or(NO_SCOPE, |(_, scope)| *scope)
        }
    }
}

/// The node kinds of one [`Anchors::walk`], a `static` per language.
pub(crate) struct WalkKinds<'k> {
    /// The name nodes whose first uses count.
    pub names: &'k [&'k str],
    /// The declarations that may open a scope: every kind the language's scope namer names.
    pub scopes: &'k [&'k str],
    /// The dotted chains; nothing inside a node of a `skipped` kind is read.
    pub chains: &'k crate::lang::jvm::ChainKinds<'k>,
    /// The parents whose children's fields the language's visitors read, each with those
    /// fields; `None`: every node's field is asked for.
    pub field_parents: Option<&'k [(&'k str, &'k [FieldAt<'k>])]>,
    /// The (parent kind, field) of names that name a member, never a type (C#'s `x.Timeout`):
    /// not uses, so that a later use of the name as a type is its first. Each field must be one
    /// that `field_parents` reads.
    pub member_names: &'k [(&'k str, &'k str)],
    /// The (parent kind, field) of names that the dotted chain read around them resolves as a
    /// whole (C#'s `Acme.Http.Timeout` as a type): no uses while the walk reads a chain, whose
    /// ignored parts (`x.Get<Acme.Http.Timeout>()`) are read for chains when it closes; uses
    /// elsewhere.
    pub chain_member_names: &'k [(&'k str, &'k str)],
    /// The nodes whose scopes the walk records ([`Walked::scoped`]): those the language's facts
    /// ask the scope of (calls, assignments, annotations), so that [`Anchors::walked_scopes`]
    /// looks them up instead of working them out from the root again.
    pub scoped: &'k [&'k str],
    /// The statement lists whose statements a walk with a [`Prune`] may step over (a block's,
    /// a class body's).
    pub prune_parents: &'k [&'k str],
    /// The kind ids of those names in the language's grammar, looked up on the first walk
    /// instead of once per file.
    pub ids: OnceLock<KindIds>,
}

/// The grammar's kind ids of a [`WalkKinds`] (one name may stand for several ids).
#[derive(Debug)]
pub(crate) struct KindIds {
    /// For each kind id, which of [`KindIds::NAME`], [`KindIds::SCOPE`], [`KindIds::CHAIN`] and
    /// [`KindIds::SKIPPED`] its name is (one table lookup per node, not four list scans).
    flags: Vec<u8>,
    /// Whether every node's field is asked for (no `field_parents`).
    every_field: bool,
    /// For each kind id of a field parent, the fields read under it.
    fields: Vec<Box<[FieldRead]>>,
    /// The ids of the chains' leaves and ignored parts, for [`crate::lang::jvm::chain_segments`].
    pub chain_ids: crate::lang::jvm::ChainIds,
    /// [`WalkKinds::member_names`] and [`WalkKinds::chain_member_names`] by parent kind id,
    /// each with whether it is a chain's (a member name only inside a chain read).
    member_names: Vec<(u16, Box<str>, bool)>,
    /// Whether a kept chain's ignored parts are read for chains (a language with
    /// [`WalkKinds::chain_member_names`]).
    reads_ignored_chains: bool,
}

impl KindIds {
    const NAME: u8 = 1;
    const SCOPE: u8 = 2;
    const CHAIN: u8 = 4;
    const SKIPPED: u8 = 8;
    const FIELD_PARENT: u8 = 16;
    const SCOPED: u8 = 32;
    const PRUNE_PARENT: u8 = 64;
    /// The flags that make the walk read a node.
    const READ: u8 = Self::NAME | Self::SCOPE | Self::CHAIN | Self::SKIPPED;

    /// Whether a name in `field` of a parent of kind `parent` names a member; `in_chain`:
    /// whether the walk reads a chain that takes the name in.
    fn is_member_name(&self, parent: Option<u16>, field: Option<&str>, in_chain: bool) -> bool {
        match (parent, field) {
            (Some(parent), Some(field)) => {
                self.member_names.iter().any(|(id, name, chain_only)| {
                    *id == parent && **name == *field && (in_chain || !chain_only)
                })
            }
            _ => false,
        }
    }

    fn of(language: &tree_sitter::Language, kinds: &WalkKinds<'_>) -> Self {
        let count = u16::try_from(language.node_kind_count()).unwrap_or(u16::MAX);
        let mut ids = Self {
            flags: vec![0; usize::from(count)],
            every_field: kinds.field_parents.is_none(),
            fields: vec![Box::default(); usize::from(count)],
            chain_ids: crate::lang::jvm::ChainIds::default(),
            member_names: Vec::new(),
            reads_ignored_chains: !kinds.chain_member_names.is_empty(),
        };
        let parents: Vec<&str> = kinds
            .field_parents
            .unwrap_or_default()
            .iter()
            .map(|(parent, _)| *parent)
            .collect();
        for id in 0..count {
            let Some(kind) = language.node_kind_for_id(id) else {
                continue;
            };
            for (list, flag) in [
                (kinds.names, Self::NAME),
                (kinds.scopes, Self::SCOPE),
                (kinds.chains.chain, Self::CHAIN),
                (kinds.chains.skipped, Self::SKIPPED),
                (&parents, Self::FIELD_PARENT),
                (kinds.scoped, Self::SCOPED),
                (kinds.prune_parents, Self::PRUNE_PARENT),
            ] {
                if list.contains(&kind) {
                    if let Some(flags) = ids.flags.get_mut(usize::from(id)) {
                        *flags |= flag;
                    }
                }
            }
            for (_, names) in kinds
                .field_parents
                .unwrap_or_default()
                .iter()
                .filter(|(parent, _)| *parent == kind)
            {
                let fields: Vec<FieldRead> = names
                    .iter()
                    .filter_map(|at| FieldRead::of(language, *at))
                    .collect();
                if let Some(slot) = ids.fields.get_mut(usize::from(id)) {
                    *slot = fields.into_boxed_slice();
                }
            }
            for (names, chain_only) in [
                (kinds.member_names, false),
                (kinds.chain_member_names, true),
            ] {
                for (_, field) in names.iter().filter(|(parent, _)| *parent == kind) {
                    ids.member_names.push((id, (*field).into(), chain_only));
                }
            }
            for (list, found) in [
                (kinds.chains.chain, &mut ids.chain_ids.chain),
                (kinds.chains.leaf, &mut ids.chain_ids.leaf),
                (kinds.chains.ignored, &mut ids.chain_ids.ignored),
            ] {
                if list.contains(&kind) {
                    found.push(id);
                }
            }
        }
        ids
    }
}

#[cfg(test)]
impl WalkKinds<'_> {
    /// Checks that under every field parent of `tree` the fields read as configured (in place
    /// or by id) are those that asking every child for its field gives, for the configured
    /// names; how many fields were compared.
    pub(crate) fn check_fields(&self, tree: &tree_sitter::Tree) -> Result<usize, String> {
        let ids = KindIds::of(&tree.language(), self);
        let mut compared = 0;
        for node in syntax::descendants(tree.root_node()) {
            let Some(fields) = ids.fields.get(usize::from(node.kind_id())) else {
                continue;
            };
            if fields.is_empty() {
                continue;
            }
            compared += crate::walk::check_fields_of(node, fields)?;
        }
        Ok(compared)
    }
}

/// What one [`Anchors::walk`] finds.
pub(crate) struct Walked<'a> {
    /// The first use of each name, with its interned scope.
    pub uses: BTreeMap<Cow<'a, str>, (Node<'a>, u32)>,
    /// The dotted chains in order: segments, node, interned scope.
    pub chains: Vec<(Vec<String>, Node<'a>, u32)>,
    /// The ids of the nodes of a `scoped` kind with their interned scopes, in walk order.
    pub scoped: Vec<(usize, u32)>,
}

/// Distinct names with the anchor of their first use, sorted bytewise (as a `BTreeMap` of
/// them iterates), in one buffer: a [`PackedNames`] unpacked for a file's second pass.
#[derive(Debug, Default)]
pub(crate) struct NameAnchors {
    text: String,
    /// (end of the name in `text`, the anchor of its first use), sorted by name.
    entries: Vec<(u32, Anchor)>,
}

impl NameAnchors {
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

    /// How many names there are.
    pub fn len(&self) -> usize {
        self.entries.len()
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

/// Dotted chains of names (`com.acme.Foo`) with anchors, in order, in one buffer: a
/// [`PackedChains`] unpacked for a file's second pass.
#[derive(Debug, Default)]
pub(crate) struct Chains {
    /// The segments of every chain, each chain's joined by `\n` (which no name holds).
    text: String,
    /// (end of the chain in `text`, its anchor).
    entries: Vec<(u32, Anchor)>,
}

impl Chains {
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
    Jvm(Box<crate::lang::jvm::PendingJvm>),
    /// A Kotlin typed-resource route whose resource another file may declare.
    KtorResource(Box<crate::lang::kotlin::web::PendingResource>),
    /// C# `using`s and type uses.
    CSharp(Box<crate::lang::csharp::PendingUses>),
    /// The roles of a C# `[Authorize(Roles = …)]` that names a `const string`.
    Roles(Box<crate::lang::csharp::aspnet::PendingRoles>),
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
    pub fn into_facts(mut self, input: &ExtractionInput<'_>) -> Vec<Fact> {
        if !self.parts.is_empty() {
            // The facts wait with the parts for the second pass.
            self.facts.shrink_to_fit();
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
        factory: FactFactory::for_file(language, path, "").sharing(context),
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

    use super::{Anchors, ChainPacker, KindIds, PackedNames, WalkKinds};
    use crate::lang::jvm::ChainKinds;
    use crate::source_scope;
    use crate::syntax;
    use crate::Language;

    const JAVA: &str = "package a.b;\n\nimport java.util.List;\n\nclass Outer {\n  java.util.Map<String, x.y.Z> field = a.b.C.make();\n  class Inner {\n    void run(List<String> items) {\n      Runnable r = new Runnable() {\n        public void run() { items.clear(); }\n      };\n      int y = this.x + Outer.this.x;\n    }\n  }\n  Outer() { helper(); }\n  static void helper() {}\n}\n\ninterface Port { void send(String m); }\n";

    /// Missing tokens: empty `MISSING` nodes at the end of a method and of a class.
    const BROKEN: &str = "class A {\n  void f() { int x = q.r }\n  class B { void g() { return } }\n  int z = p.\n}\n";

    const SCOPES: [&str; 4] = [
        "class_declaration",
        "interface_declaration",
        "method_declaration",
        "constructor_declaration",
    ];

    fn java_scope(node: tree_sitter::Node<'_>, source: &str) -> Option<String> {
        if SCOPES.contains(&node.kind()) {
            source_scope::field_text(node, "name", source)
        } else {
            None
        }
    }

    static KINDS: WalkKinds<'static> = WalkKinds {
        names: &["type_identifier", "identifier"],
        scopes: &SCOPES,
        chains: &ChainKinds {
            chain: &[
                "scoped_type_identifier",
                "field_access",
                "scoped_identifier",
            ],
            leaf: &["type_identifier", "identifier"],
            ignored: &[],
            skipped: &["import_declaration", "package_declaration"],
        },
        field_parents: None,
        member_names: &[],
        chain_member_names: &[],
        scoped: &[],
        prune_parents: &[],
        ids: std::sync::OnceLock::new(),
    };

    fn parse(source: &str) -> tree_sitter::Tree {
        let grammar = Language::Java
            .spec()
            .tree_sitter()
            .map(|backend| backend.grammar);
        grammar
            .and_then(|grammar| syntax::parse(grammar, source))
            .expect("the Java grammar parses")
    }

    fn scope_text(anchors: &Anchors<'_>, scope: u32) -> Option<String> {
        anchors
            .scopes
            .get(scope as usize)
            .map(|scope| scope.to_string())
    }

    #[test]
    fn the_walk_finds_the_first_uses_and_chains_with_the_scopes_the_tree_gives() {
        for source in [JAVA, BROKEN] {
            let tree = parse(source);
            let root = tree.root_node();
            let mut anchors = Anchors::new(root, source, java_scope);
            let walked = anchors.walk(&KINDS);
            let expected = syntax::first_uses(root, source, KINDS.names, KINDS.chains.skipped);
            assert_eq!(
                walked
                    .uses
                    .iter()
                    .map(|(name, (node, _))| (name.as_ref(), node.id()))
                    .collect::<Vec<_>>(),
                expected
                    .iter()
                    .map(|(name, node)| (name.as_str(), node.id()))
                    .collect::<Vec<_>>()
            );
            let places = walked
                .uses
                .values()
                .map(|(node, scope)| (*node, *scope))
                .chain(walked.chains.iter().map(|(_, node, scope)| (*node, *scope)));
            for (node, scope) in places {
                assert_eq!(
                    scope_text(&anchors, scope),
                    source_scope::enclosing(node, root, source, java_scope),
                    "{} at {:?}",
                    node.kind(),
                    node.start_position()
                );
            }
            // One string per distinct scope.
            let mut distinct = anchors.scopes.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), anchors.scopes.len());
        }
        let tree = parse(JAVA);
        let mut anchors = Anchors::new(tree.root_node(), JAVA, java_scope);
        let walked = anchors.walk(&KINDS);
        let chains: Vec<(String, Option<String>)> = walked
            .chains
            .iter()
            .map(|(segments, _, scope)| (segments.join("."), scope_text(&anchors, *scope)))
            .collect();
        let outer = Some("Outer".to_owned());
        assert_eq!(
            chains,
            [
                ("java.util.Map".to_owned(), outer.clone()),
                ("x.y.Z".to_owned(), outer.clone()),
                ("a.b.C".to_owned(), outer),
            ]
        );
        assert!(anchors
            .scopes
            .iter()
            .any(|scope| &**scope == "Outer.Inner.run.run"));
    }

    #[test]
    fn a_missing_identifier_is_no_use_of_a_name() {
        // `int = 1` leaves the field's name an empty `MISSING` identifier: no type is named by
        // it, and finding the scope of an empty node (for a first use) searches the tree.
        let source = "class A {\n  int = 1;\n  P p = q.r;\n}\n";
        let tree = parse(source);
        let root = tree.root_node();
        let missing = syntax::descendants(root)
            .filter(|node| node.is_missing() && node.kind() == "identifier")
            .count();
        assert_eq!(missing, 1);
        let mut anchors = Anchors::new(root, source, java_scope);
        let uses = anchors.walk(&KINDS).uses;
        assert!(!uses.contains_key(""));
        assert!(["P", "p", "q"].iter().all(|name| uses.contains_key(*name)));
        let expected = syntax::first_uses(root, source, KINDS.names, KINDS.chains.skipped);
        assert!(!expected.contains_key(""));
    }

    #[test]
    fn first_uses_are_found_by_name_in_name_order() {
        let tree = parse(JAVA);
        let root = tree.root_node();
        let mut anchors = Anchors::new(root, JAVA, java_scope);
        let uses = anchors.walk(&KINDS).uses;
        let expected: BTreeMap<String, (u32, u32)> = uses
            .iter()
            .map(|(name, (node, _))| (name.to_string(), syntax::start_position(*node, JAVA)))
            .collect();
        let names = PackedNames::new(uses, &anchors).unpack();
        let listed: BTreeMap<String, (u32, u32)> = names
            .iter()
            .map(|(name, anchor)| (name.to_owned(), anchor.start))
            .collect();
        assert_eq!(listed, expected);
        assert!(names.iter().map(|(name, _)| name).is_sorted());
        for (name, start) in &expected {
            assert!(names.get(name).is_some());
            assert_eq!(names.get(name).map(|anchor| anchor.start), Some(*start));
        }
        assert!(names.get("Missing").is_none());
        assert!(names.get("").is_none());
    }

    /// The chains as the descent of each chain node finds them (`jvm::chain_segments`), in
    /// preorder, no node inside a chain found before looked at and nothing inside a skipped
    /// node: what the walk, which reads chains as it goes, must find.
    fn chains_by_descent(
        tree: &tree_sitter::Tree,
        source: &str,
        kinds: &WalkKinds<'_>,
    ) -> Vec<(Vec<String>, usize)> {
        let ids = KindIds::of(&tree.language(), kinds);
        let flags_of = |node: tree_sitter::Node<'_>| {
            ids.flags
                .get(usize::from(node.kind_id()))
                .copied()
                .unwrap_or(0)
        };
        let (mut found, mut buffer) = (Vec::new(), Vec::new());
        let mut pending = vec![(tree.root_node(), 0_usize)];
        let mut in_chain: Option<usize> = None;
        // Inside an ignored part of the chain found (C#): its depth, and that of the chain found
        // in it, below which none is looked for.
        let (mut ignored_at, mut inner_chain): (Option<usize>, Option<usize>) = (None, None);
        while let Some((node, depth)) = pending.pop() {
            if in_chain.is_some_and(|at| depth <= at) {
                in_chain = None;
            }
            if ignored_at.is_some_and(|at| depth <= at) || in_chain.is_none() {
                ignored_at = None;
            }
            if inner_chain.is_some_and(|at| depth <= at) || ignored_at.is_none() {
                inner_chain = None;
            }
            let flags = flags_of(node);
            let chain_here = |buffer: &mut Vec<_>| {
                crate::lang::jvm::chain_segments(node, source, &ids.chain_ids, buffer)
                    .filter(|segments| segments.len() >= 2)
            };
            if in_chain.is_none() && flags & KindIds::CHAIN != 0 {
                if let Some(segments) = chain_here(&mut buffer) {
                    found.push((segments, node.id()));
                    in_chain = Some(depth);
                }
            } else if ids.reads_ignored_chains && in_chain.is_some() {
                if ignored_at.is_none() && ids.chain_ids.ignored.contains(&node.kind_id()) {
                    ignored_at = Some(depth);
                } else if ignored_at.is_some()
                    && inner_chain.is_none()
                    && flags & KindIds::CHAIN != 0
                {
                    if let Some(segments) = chain_here(&mut buffer) {
                        found.push((segments, node.id()));
                        inner_chain = Some(depth);
                    }
                }
            }
            if flags & KindIds::SKIPPED != 0 {
                continue;
            }
            for index in (0..node.named_child_count()).rev() {
                pending.extend(node.named_child(index).map(|child| (child, depth + 1)));
            }
        }
        found
    }

    /// Source files of the fixtures under `folder` with extension `extension`, sorted.
    /// The scope [`super::WalkedScopes`] gives each named node of the C#, Java and Kotlin
    /// fixtures (and of broken files with empty nodes) is the one the tree gives it, whether the
    /// walk recorded it (a node of a `scoped` kind) or not.
    #[test]
    fn walked_scopes_are_those_the_tree_gives() {
        let languages: [(Language, &WalkKinds<'static>, super::ScopeNamer, &str, &str); 3] = [
            (
                Language::CSharp,
                &crate::lang::csharp::WALK_KINDS,
                crate::lang::csharp::scope_name,
                "csharp",
                "namespace A { class B { void F() { G(1; x = ; } class C { void H() { I( } } }",
            ),
            (
                Language::Java,
                &crate::lang::java::WALK_KINDS,
                crate::lang::java::scope_name,
                "java",
                "class A { void f() { g(1; x = ; } class B { @X( void h() { i( } } }",
            ),
            (
                Language::Kotlin,
                &crate::lang::kotlin::WALK_KINDS,
                crate::lang::kotlin::scope_name,
                "kotlin",
                "class A { fun f() { g(1; x = } class B { @X( fun h() { i( } } }",
            ),
        ];
        for (language, kinds, name_of, folder, broken) in languages {
            let grammar = language
                .spec()
                .tree_sitter()
                .map(|backend| backend.grammar)
                .expect("the language has a grammar");
            let extension = language.spec().extensions.first().copied().unwrap_or("");
            let mut sources = fixture_sources(folder, extension);
            sources.push(broken.to_owned());
            let (mut compared, mut recorded) = (0, 0);
            for source in &sources {
                let tree = syntax::parse(grammar, source).expect("the grammar parses");
                let root = tree.root_node();
                let mut anchors = Anchors::new(root, source, name_of);
                let mut visited = Vec::new();
                let walked = anchors.walk_with(kinds, |node, _, _| visited.push(node));
                recorded += walked.scoped.len();
                let scopes = anchors.walked_scopes(walked.scoped);
                for node in visited {
                    assert_eq!(
                        scopes.scope_of(node),
                        source_scope::enclosing(node, root, source, name_of),
                        "{folder}: {} at {:?}",
                        node.kind(),
                        node.start_position()
                    );
                    compared += 1;
                }
            }
            assert!(compared > 500, "{folder}: compared {compared} nodes");
            assert!(recorded > 20, "{folder}: recorded {recorded} scopes");
        }
    }

    fn fixture_sources(folder: &str, extension: &str) -> Vec<String> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(folder);
        let mut files = Vec::new();
        let mut folders = vec![root];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).expect("the fixtures are readable") {
                let path = entry.expect("a fixture entry").path();
                if path.is_dir() {
                    folders.push(path);
                } else if path.extension().is_some_and(|found| found == extension) {
                    files.push(path);
                }
            }
        }
        files.sort();
        files
            .iter()
            .map(|path| std::fs::read_to_string(path).expect("a fixture is text"))
            .collect()
    }

    #[test]
    fn chains_read_as_the_walk_goes_are_those_each_chain_node_reads() {
        // Chains in the ignored type arguments of a one-segment chain, below roots that turn
        // out to be no chain after a chain node, around comments, in broken code.
        const CSHARP: &str = "namespace N.M;\nclass R : Repository<Core.Entities.Secret, Secret, Guid>, IR\n{\n  void F() {\n    var x = System.Console.Out;\n    A.B<int>.C.D();\n    Foo<Bar.Baz>.Qux = a.b /* c */ .c;\n    x = this.y.z;\n    var q = a?.b.c;\n    var w = p.q<r.s.T>.u;\n    var e = global::System.String.Empty;\n    z = m.n.\n  }\n}\n";
        const JAVA_MORE: &str = "class A { void f() { java.util.List<a.b.C> x = a.b.c(d.e.f); Object o = a.b[0].c.d; g(/* c */ h.i.j); k.l. } }\n";
        const KOTLIN: &str = "class A { fun f() { val x: kotlin.collections.List<a.b.C> = a.b.c(d.e.f); val y = p.q<r.s.T>().u.v; w.x?.y } }\n";
        let languages = [
            (
                Language::CSharp,
                "csharp",
                "cs",
                &crate::lang::csharp::WALK_KINDS,
                CSHARP,
                crate::lang::csharp::scope_name as source_scope::ScopeNamer,
            ),
            (
                Language::Java,
                "java",
                "java",
                &crate::lang::java::WALK_KINDS,
                JAVA_MORE,
                crate::lang::java::scope_name,
            ),
            (
                Language::Kotlin,
                "kotlin",
                "kt",
                &crate::lang::kotlin::WALK_KINDS,
                KOTLIN,
                crate::lang::kotlin::scope_name,
            ),
        ];
        let mut compared = 0;
        for (language, folder, extension, kinds, extra, scope_name) in languages {
            let grammar = language
                .spec()
                .tree_sitter()
                .map(|backend| backend.grammar)
                .expect("a tree-sitter language");
            let mut sources = fixture_sources(folder, extension);
            sources.push(extra.to_owned());
            for source in &sources {
                let tree = syntax::parse(grammar, source).expect("the fixture parses");
                let root = tree.root_node();
                let mut anchors = Anchors::new(root, source, scope_name);
                let walked = anchors.walk(kinds);
                let read: Vec<(Vec<String>, usize)> = walked
                    .chains
                    .iter()
                    .map(|(segments, node, _)| (segments.clone(), node.id()))
                    .collect();
                assert_eq!(read, chains_by_descent(&tree, source, kinds), "{source}");
                for (_, node, scope) in &walked.chains {
                    assert_eq!(
                        scope_text(&anchors, *scope),
                        source_scope::enclosing(*node, root, source, scope_name)
                    );
                }
                compared += read.len();
            }
        }
        assert!(compared > 100, "{compared}");
    }

    #[test]
    fn chains_keep_their_segments_and_order() {
        let tree = parse(JAVA);
        let root = tree.root_node();
        let mut anchors = Anchors::new(root, JAVA, java_scope);
        let mut packed = ChainPacker::default();
        let written: [&[&str]; 4] = [&["com", "acme", "Foo"], &["", "x"], &["a"], &["", ""]];
        for segments in written {
            let segments: Vec<String> = segments.iter().map(|s| (*s).to_owned()).collect();
            packed.push(&segments, anchors.at(root));
        }
        let chains = packed.finish().unpack();
        let read: Vec<Vec<&str>> = chains.iter().map(|(segments, _)| segments).collect();
        assert_eq!(read, written.map(<[&str]>::to_vec).to_vec());
    }
}
