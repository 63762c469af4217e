//! The one walk over a Java, Kotlin or C# tree that finds what the second pass needs kept
//! ([`Anchors`]): the first use of each name, the dotted chains and the scopes, with the anchors
//! that stand for their nodes once the tree is gone.

use super::*;

pub(super) fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// The scopes of a file's nodes that the walk knew ([`Anchors::walked_scopes`]).
pub(crate) struct WalkedScopes<'a> {
    pub(super) ids: Vec<(usize, u32)>,
    pub(super) scopes: Vec<Box<str>>,
    pub(super) root: Node<'a>,
    pub(super) source: &'a str,
    pub(super) name_of: ScopeNamer,
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
    pub(super) root: Node<'a>,
    pub(super) source: &'a str,
    /// The positions of the file's nodes.
    pub(super) columns: crate::syntax::Columns<'a>,
    pub(super) name_of: ScopeNamer,
    pub(super) scopes: Vec<Box<str>>,
    /// The ancestors of the node whose scope was last worked out (`syntax::ancestors_into`).
    pub(super) chain: Vec<Node<'a>>,
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

    pub(super) fn intern(&mut self, scope: Option<String>) -> u32 {
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
                && (ids.is_member_name(ancestor_kinds.last().copied(), field, in_read_chain)
                    || ids.is_later_segment(
                        ancestor_kinds.last().copied(),
                        ancestors.last().map(|(parent, _)| *parent),
                        node,
                    )) {
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
    pub(super) fn read_walked(
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
            if !chains::cannot_be_chain(text) && !ids.chain_ids.leaf.contains(&node.kind_id()) {
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
pub(super) struct WalkState<'w, 'a> {
    /// The first use of each name so far.
    pub(super) first_uses: &'w mut HashMap<&'a str, (Node<'a>, u32), Fnv>,
    /// The dotted chain being read below its root.
    pub(super) reading: &'w mut Option<ChainRead<'a>>,
    /// The nodes met below that root.
    pub(super) met: &'w mut Vec<Met<'a>>,
    /// The scope-opening declarations around the current node: (depth, interned scope).
    pub(super) open: &'w mut Vec<(usize, u32)>,
    /// The depth of the dotted chain the walk is inside.
    pub(super) in_chain: &'w mut Option<usize>,
    /// The depth of the skipped node the walk is inside.
    pub(super) in_skipped: &'w mut Option<usize>,
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
pub(super) type Met<'a> = (Node<'a>, usize, u8, u32, bool);

/// A dotted chain read as the walk goes below its root, which `jvm::chain_segments` would read
/// in a walk of its own: the same nodes in the same order (the named ones in preorder), so the
/// segments are the leaves' texts and the chain is none once a node of another kind is met.
pub(super) struct ChainRead<'a> {
    pub(super) node: Node<'a>,
    pub(super) depth: usize,
    /// The interned scope of the innermost declaration open around the root.
    pub(super) innermost: u32,
    pub(super) segments: Vec<String>,
    /// The depth of the leaf, ignored part or comment the walk is below: not read.
    pub(super) closed_below: Option<usize>,
}

impl ChainRead<'_> {
    /// Reads the named node `node` at `depth` below the root; false when it shows the root is
    /// no chain.
    pub(super) fn read(
        &mut self,
        node: Node<'_>,
        depth: usize,
        kinds: &chains::ChainIds,
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

/// The node kinds of one [`Anchors::walk`], a `static` per language.
pub(crate) struct WalkKinds<'k> {
    /// The name nodes whose first uses count.
    pub names: &'k [&'k str],
    /// The declarations that may open a scope: every kind the language's scope namer names.
    pub scopes: &'k [&'k str],
    /// The dotted chains; nothing inside a node of a `skipped` kind is read.
    pub chains: &'k chains::ChainKinds<'k>,
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
    /// The parents whose names after the first name a member of the first, never a type of
    /// their own (Java's `Subscription.Subscriber` is the nested class, no use of a top-level
    /// `Subscriber` of the package): no uses. For parents whose segments carry no field.
    pub later_segments: &'k [&'k str],
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
    pub(super) flags: Vec<u8>,
    /// Whether every node's field is asked for (no `field_parents`).
    pub(super) every_field: bool,
    /// For each kind id of a field parent, the fields read under it.
    pub(super) fields: Vec<Box<[FieldRead]>>,
    /// The ids of the chains' leaves and ignored parts, for [`chains::chain_segments`].
    pub chain_ids: chains::ChainIds,
    /// [`WalkKinds::member_names`] and [`WalkKinds::chain_member_names`] by parent kind id,
    /// each with whether it is a chain's (a member name only inside a chain read).
    pub(super) member_names: Vec<(u16, Box<str>, bool)>,
    /// [`WalkKinds::later_segments`] by kind id.
    pub(super) later_segments: Vec<u16>,
    /// Whether a kept chain's ignored parts are read for chains (a language with
    /// [`WalkKinds::chain_member_names`]).
    pub(super) reads_ignored_chains: bool,
}

impl KindIds {
    pub(super) const NAME: u8 = 1;
    pub(super) const SCOPE: u8 = 2;
    pub(super) const CHAIN: u8 = 4;
    pub(super) const SKIPPED: u8 = 8;
    pub(super) const FIELD_PARENT: u8 = 16;
    pub(super) const SCOPED: u8 = 32;
    pub(super) const PRUNE_PARENT: u8 = 64;
    /// The flags that make the walk read a node.
    pub(super) const READ: u8 = Self::NAME | Self::SCOPE | Self::CHAIN | Self::SKIPPED;

    /// Whether `node`, a child of `parent_node` (of kind `parent`), is a later segment of a
    /// [`WalkKinds::later_segments`] parent: not its first named child. The parent's first
    /// named child is found from the parent (tree-sitter's `prev_named_sibling` walks the
    /// parent's children from the start, quadratic under a node of thousands of children, as
    /// error recovery makes of 4,000 `@A` in Kotlin).
    pub(super) fn is_later_segment(
        &self,
        parent: Option<u16>,
        parent_node: Option<Node<'_>>,
        node: Node<'_>,
    ) -> bool {
        parent.is_some_and(|parent| self.later_segments.contains(&parent))
            && parent_node
                .and_then(|parent| parent.named_child(0))
                .is_some_and(|first| first.id() != node.id())
    }

    /// Whether a name in `field` of a parent of kind `parent` names a member; `in_chain`:
    /// whether the walk reads a chain that takes the name in.
    pub(super) fn is_member_name(
        &self,
        parent: Option<u16>,
        field: Option<&str>,
        in_chain: bool,
    ) -> bool {
        match (parent, field) {
            (Some(parent), Some(field)) => {
                self.member_names.iter().any(|(id, name, chain_only)| {
                    *id == parent && **name == *field && (in_chain || !chain_only)
                })
            }
            _ => false,
        }
    }

    pub(super) fn of(language: &tree_sitter::Language, kinds: &WalkKinds<'_>) -> Self {
        let count = u16::try_from(language.node_kind_count()).unwrap_or(u16::MAX);
        let mut ids = Self {
            flags: vec![0; usize::from(count)],
            every_field: kinds.field_parents.is_none(),
            fields: vec![Box::default(); usize::from(count)],
            chain_ids: chains::ChainIds::default(),
            member_names: Vec::new(),
            later_segments: Vec::new(),
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
            if kinds.later_segments.contains(&kind) {
                ids.later_segments.push(id);
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
    pub(super) text: String,
    /// (end of the name in `text`, the anchor of its first use), sorted by name.
    pub(super) entries: Vec<(u32, Anchor)>,
}

impl NameAnchors {
    pub(super) fn name(&self, position: usize) -> &str {
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

    pub(super) fn position(&self, name: &str) -> Option<usize> {
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
    pub(super) text: String,
    /// (end of the chain in `text`, its anchor).
    pub(super) entries: Vec<(u32, Anchor)>,
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

impl<'a> Anchors<'a> {
    /// Keeps a chain read to its end when it has two segments or more; with fewer, it is no
    /// chain, and the nodes `met` below it are read as for a root that is none (a chain may
    /// stand in its ignored parts: `Repository<Core.Entities.Project>`). A kept chain's ignored
    /// parts are read so too in a language whose qualified names are resolved as chains
    /// ([`WalkKinds::chain_member_names`]: `Substitute.For<Core.Billing.IQuery>()`). The walk's
    /// `in_chain` after it.
    pub(super) fn close_chain(
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
    pub(super) fn replay_chains(
        &mut self,
        met: &[Met<'a>],
        kinds: &chains::ChainIds,
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
            let Some(segments) = chains::chain_segments(node, self.source, kinds, buffer) else {
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
    pub(super) fn walked_scope(&mut self, node: Node<'a>, open: &[(usize, u32)]) -> u32 {
        if node.start_byte() == node.end_byte() {
            self.scope_of(node)
        } else {
            open.last().map_or(NO_SCOPE, |(_, scope)| *scope)
        }
    }
}
