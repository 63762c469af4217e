//! What the hand-written query walks (`*_walk`) share: the preorder over every named node of a
//! tree, with its field in its parent and its ancestors ([`preorder`]; Java, Kotlin and
//! C# are fed the same way by [`crate::resolve::deferred::Anchors::walk_with`], which reads first uses,
//! dotted chains and scopes in the same pass), and the tables that map a grammar's kind ids to a
//! walk's kinds.

#[cfg(test)]
pub(crate) mod query_parity;

use tree_sitter::{Node, Tree};

use crate::query::QueryHit;

/// One ancestor of a node: the ancestor and its field in its own parent.
pub(crate) type Ancestor<'tree> = (Node<'tree>, Option<&'static str>);

/// Calls `visit(node, field, ancestors)` for every named node of `tree` in preorder;
/// `ancestors` are the node's ancestors with their fields, the parent last. Only named nodes
/// are visited (see [`push_named_children`]): no pattern of the walks ends on an anonymous
/// token. A node's field is read only when its parent's kind (in the walk's [`kind_table`]
/// `kinds`) is among `field_parents`: finding a field scans the parent's field map, and a
/// matcher reads the fields under a few kinds of parent only; elsewhere the field is reported
/// as `None`. `visit` answers whether to enter the node: a walk does not enter a node below
/// which no pattern can end (a Rust token tree holds only tokens).
pub(crate) fn preorder<'tree, K: Copy + PartialEq>(
    tree: &'tree Tree,
    kinds: &[K],
    field_parents: &[K],
    mut visit: impl FnMut(Node<'tree>, Option<&'static str>, &[Ancestor<'tree>]) -> bool,
) {
    let mut ancestors: Vec<Ancestor<'tree>> = Vec::new();
    let mut pending: Vec<Pending<'tree>> = vec![(tree.root_node(), None, 0)];
    while let Some((node, field, depth)) = pending.pop() {
        ancestors.truncate(depth);
        if visit(node, field, &ancestors) {
            let fields = kinds
                .get(usize::from(node.kind_id()))
                .is_some_and(|kind| field_parents.contains(kind));
            if push_named_children(node, fields, depth + 1, &mut pending) {
                ancestors.push((node, field));
            }
        }
    }
}

/// A named node the walk has still to visit: the node, its field (when asked for), its depth.
pub(crate) type Pending<'tree> = (Node<'tree>, Option<&'static str>, usize);

/// Nodes with more named children than this have them listed by a cursor: `named_child(i)`
/// scans the children from the first, which would be quadratic in a wide node (a table of
/// thousands of entries), while a cursor's steps cost more on the narrow nodes that make up
/// most of a tree.
pub(crate) const WIDE: usize = 32;

/// Pushes the named children of `node` at `depth` onto `pending`, the first on top, each with
/// its field when `fields`; false when it has none. Named children are tree-sitter's: those of
/// hidden rules are lifted into their parent, and the field of a lifted child is its own or else
/// that of the nearest hidden ancestor with one, as a cursor reports it. (A named node below an
/// anonymous one is not a named child; no grammar lintel uses makes one: the anonymous nodes with
/// children, such as Python's `is not`, hold only tokens.)
pub(crate) fn push_named_children<'tree>(
    node: Node<'tree>,
    fields: bool,
    depth: usize,
    pending: &mut Vec<Pending<'tree>>,
) -> bool {
    let count = node.named_child_count();
    if count == 0 {
        return false;
    }
    let start = pending.len();
    if count <= WIDE {
        for index in 0..count {
            if let Some(child) = node.named_child(index) {
                let field = if fields {
                    u32::try_from(index)
                        .ok()
                        .and_then(|index| node.field_name_for_named_child(index))
                } else {
                    None
                };
                pending.push((child, field, depth));
            }
        }
    } else {
        let mut cursor = node.walk();
        let mut more = cursor.goto_first_child();
        while more {
            let child = cursor.node();
            if child.is_named() {
                let field = if fields { cursor.field_name() } else { None };
                pending.push((child, field, depth));
            }
            more = cursor.goto_next_sibling();
        }
    }
    if let Some(pushed) = pending.get_mut(start..) {
        pushed.reverse();
    }
    true
}

/// Where a walk finds the child in a field it reads under a field parent.
#[derive(Debug, Clone, Copy)]
pub(crate) enum FieldAt<'k> {
    /// The parent's first named child unless it is an extra: the grammar's rule starts with
    /// the field, or with tokens only before it.
    First(&'k str),
    /// The parent's last named child unless it is an extra: the rule ends with the field, or
    /// with tokens only after it.
    Last(&'k str),
    /// Wherever the parent's field map puts it.
    Any(&'k str),
}

/// A [`FieldAt`] with the field's id and name in a grammar.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FieldRead {
    id: u16,
    name: &'static str,
    at: Position,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Position {
    First,
    Last,
    Any,
}

impl FieldRead {
    /// `at` in `language`; `None` when the grammar has no such field.
    pub fn of(language: &tree_sitter::Language, at: FieldAt<'_>) -> Option<Self> {
        let (name, at) = match at {
            FieldAt::First(name) => (name, Position::First),
            FieldAt::Last(name) => (name, Position::Last),
            FieldAt::Any(name) => (name, Position::Any),
        };
        let id = language.field_id_for_name(name)?.get();
        Some(Self {
            id,
            name: language.field_name_for_id(id)?,
            at,
        })
    }
}

/// [`push_named_children`] with the children in `fields` reported in them, every other child
/// with no field. A field at the first or last named child is read from its place when the
/// parent has no error below it and that child is no extra (a comment between the field and
/// the tokens before or after it), else, like a field anywhere, by id, found once.
pub(crate) fn push_named_children_with_fields<'tree>(
    node: Node<'tree>,
    fields: &[FieldRead],
    depth: usize,
    pending: &mut Vec<Pending<'tree>>,
) -> bool {
    let start = pending.len();
    if !push_named_children(node, false, depth, pending) {
        return false;
    }
    let Some(pushed) = pending.get_mut(start..) else {
        return true;
    };
    // The first child is pushed last, to be visited first.
    let last = pushed.len().saturating_sub(1);
    let in_place = || !node.has_error();
    for read in fields {
        let at = match read.at {
            Position::First if in_place() => Some(last),
            Position::Last if in_place() => Some(0),
            _ => None,
        };
        // A comment may stand between the field and the tokens before or after it.
        let at = at.filter(|index| {
            pushed
                .get(*index)
                .is_some_and(|(child, _, _)| !child.is_extra())
        });
        let index = match at {
            Some(index) => Some(index),
            None => node.child_by_field_id(read.id).and_then(|child| {
                pushed
                    .iter()
                    .position(|(pushed, _, _)| pushed.id() == child.id())
            }),
        };
        if let Some(entry) = index.and_then(|index| pushed.get_mut(index)) {
            entry.1.get_or_insert(read.name);
        }
    }
    true
}

/// Checks that [`push_named_children_with_fields`] gives the children of `node` the fields of
/// `fields` that asking every child for its field gives them; how many fields it compared.
#[cfg(test)]
pub(crate) fn check_fields_of(node: Node<'_>, fields: &[FieldRead]) -> Result<usize, String> {
    let (mut every, mut read) = (Vec::new(), Vec::new());
    push_named_children(node, true, 1, &mut every);
    push_named_children_with_fields(node, fields, 1, &mut read);
    let expected: Vec<_> = every
        .iter()
        .map(|(child, field, _)| {
            let wanted = field.filter(|name| fields.iter().any(|read| read.name == *name));
            (child.id(), wanted)
        })
        .collect();
    let found: Vec<_> = read
        .iter()
        .map(|(child, field, _)| (child.id(), *field))
        .collect();
    if found != expected {
        return Err(format!(
            "{} at {}: {found:?} != {expected:?}",
            node.kind(),
            node.start_position()
        ));
    }
    Ok(expected.iter().filter(|(_, field)| field.is_some()).count())
}

/// A grammar's node kind ids mapped to a walk's own kinds: `classify` names each named kind
/// (one name may have several ids); anonymous kinds are `other`.
pub(crate) fn kind_table<K: Copy>(
    language: &tree_sitter::Language,
    other: K,
    classify: impl Fn(&str) -> K,
) -> Vec<K> {
    (0..language.node_kind_count())
        .map(|id| {
            let id = u16::try_from(id).unwrap_or(u16::MAX);
            if language.node_kind_is_named(id) {
                classify(language.node_kind_for_id(id).unwrap_or_default())
            } else {
                other
            }
        })
        .collect()
}

/// Declares `enum Child` (the fields a matcher reads children from) and
/// `fn field_child(node, Child) -> Option<Node>`, which reads the child by field id: the ids are
/// worked out once per grammar, where `Node::child_by_field_name` looks the name up among all
/// the grammar's field names on every call. A name the grammar lacks has id 0, which no field
/// has, so its child is `None`.
macro_rules! field_table {
    ($language:expr; $($child:ident => $name:literal),+ $(,)?) => {
        /// The fields the matcher reads children from.
        #[derive(Clone, Copy)]
        pub(crate) enum Child {
            $($child),+
        }

        /// The child of `node` in `field`.
        pub(crate) fn field_child(
            node: tree_sitter::Node<'_>,
            field: Child,
        ) -> Option<tree_sitter::Node<'_>> {
            static IDS: std::sync::OnceLock<Vec<u16>> = std::sync::OnceLock::new();
            let ids = IDS.get_or_init(|| {
                let language: tree_sitter::Language = $language;
                [$($name),+]
                    .iter()
                    .map(|name| language.field_id_for_name(name).map_or(0, |id| id.get()))
                    .collect()
            });
            match ids.get(field as usize).copied().unwrap_or(0) {
                0 => None,
                id => node.child_by_field_id(id),
            }
        }
    };
}
pub(crate) use field_table;

/// The kind of `node` in a [`kind_table`]; `other` for anonymous nodes. The table already
/// maps every anonymous kind id to `other` (a node is named exactly when its kind id is, aliases
/// included), so no separate `is_named` call is needed.
pub(crate) fn kind_in<K: Copy>(node: Node<'_>, table: &[K], other: K) -> K {
    table
        .get(usize::from(node.kind_id()))
        .copied()
        .unwrap_or(other)
}

/// Whether a query's `(_)` wildcard matches `node`: any named node but an `ERROR`.
pub(crate) fn wild(node: Node<'_>) -> bool {
    node.is_named() && !node.is_error()
}

/// A language's query patterns matched node by node (Java, Kotlin, C#: each module implements
/// `visit` for its own `K`, the kinds of its [`kind_table`]).
pub(crate) struct Matcher<'tree, 's, K: 'static> {
    /// The hits so far, in the query's order.
    pub hits: Vec<QueryHit<'tree>>,
    /// The file's text.
    pub source: &'s str,
    /// Whether the generic `call`/`assignment` patterns are matched too.
    pub generic: bool,
    /// The language's kind table.
    pub kinds: &'static [K],
    /// The named siblings the walk has passed, for matchers that ask (Kotlin's).
    pub siblings: Siblings<'tree>,
    /// The children in fields of the parent the matcher last read fields of (Java's).
    pub parent_fields: ParentFields<'tree>,
}

/// The children a matcher read from the fields of one parent, by field slot: the named children
/// of a parent are visited one after another, each may ask for the same fields of it (every
/// child of a Java call asks for the call's `object` or `name`), and `child_by_field_id` finds a
/// field by scanning the parent's children. Reading a field of another parent starts afresh.
#[derive(Default)]
pub(crate) struct ParentFields<'tree> {
    parent: Option<usize>,
    read: [Option<Option<Node<'tree>>>; 4],
}

impl<'tree> ParentFields<'tree> {
    /// The child of `parent` in field `slot` (below 4; any other is read every time), read by
    /// `read` the first time it is asked for.
    pub fn get(
        &mut self,
        parent: Node<'tree>,
        slot: usize,
        read: impl FnOnce() -> Option<Node<'tree>>,
    ) -> Option<Node<'tree>> {
        if self.parent != Some(parent.id()) {
            self.parent = Some(parent.id());
            self.read = [None; 4];
        }
        match self.read.get_mut(slot) {
            Some(Some(child)) => *child,
            Some(entry) => *entry.insert(read()),
            None => read(),
        }
    }
}

/// The named nodes a preorder walk has passed at each depth, so that a matcher knows a node's
/// index among its parent's named children and the named child before it without asking the
/// parent (`Node::named_child` steps through the children from the first one each time).
#[derive(Default)]
pub(crate) struct Siblings<'tree> {
    levels: Vec<Option<(Node<'tree>, u32)>>,
}

impl<'tree> Siblings<'tree> {
    /// Records the named node `node` with `depth` visible ancestors, visited in preorder, and
    /// returns its index among its parent's named children and the named child before it.
    pub fn enter(&mut self, node: Node<'tree>, depth: usize) -> (u32, Option<Node<'tree>>) {
        let previous = self.levels.get(depth).copied().flatten();
        self.levels.truncate(depth);
        self.levels.resize(depth, None);
        let index = previous.map_or(0, |(_, index)| index + 1);
        self.levels.push(Some((node, index)));
        (index, previous.map(|(node, _)| node))
    }
}

impl<'s, K> Matcher<'_, 's, K> {
    /// A matcher for a file with text `source`.
    pub fn new(source: &'s str, generic: bool, kinds: &'static [K]) -> Self {
        Self {
            hits: Vec::new(),
            source,
            generic,
            kinds,
            siblings: Siblings::default(),
            parent_fields: ParentFields::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A parent's fields are read once while the matcher asks about that parent, and afresh
    /// once it asks about another; each read gives the child in that field.
    #[test]
    fn parent_fields_are_read_once_per_parent() {
        let language: tree_sitter::Language = tree_sitter_java::LANGUAGE.into();
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&language).expect("grammar");
        let source = "class C { void m() { a.b(c); d.e(f); } }";
        let tree = parser.parse(source, None).expect("tree");
        let calls: Vec<Node<'_>> = crate::syntax::descendants(tree.root_node())
            .filter(|node| node.kind() == "method_invocation")
            .collect();
        let [first, second] = calls[..] else {
            panic!("two calls: {calls:?}");
        };
        let field_names = ["object", "name"];
        let mut fields = ParentFields::default();
        let mut reads = 0;
        let mut asked = Vec::new();
        for (call, slot) in [(first, 0), (first, 0), (first, 1), (second, 0), (first, 0)]
            .into_iter()
            .chain([(first, 7), (first, 7)])
        {
            let name = field_names.get(slot).copied().unwrap_or("name");
            let child = fields.get(call, slot, || {
                reads += 1;
                call.child_by_field_name(name)
            });
            asked.push(child.map(|child| &source[child.byte_range()]));
        }
        assert_eq!(
            asked,
            ["a", "a", "b", "d", "a", "b", "b"].map(Some).to_vec()
        );
        // `first`'s object once, its name once, `second`'s object, `first`'s object again, and
        // the slot past the cache every time.
        assert_eq!(reads, 6);
    }

    /// Children pushed with only `wanted` fields read by id get exactly the fields that reading
    /// every child's field gives them, for every node of a C# and a Java tree.
    #[test]
    fn fields_read_by_id_are_those_of_every_child() {
        let cases: [(tree_sitter::Language, &str); 2] = [
            (
                tree_sitter_c_sharp::LANGUAGE.into(),
                "namespace A.B { class C : D { [Route(\"x\")] public int P { get; } \
                 C(IFoo foo /* c */, int y = 2) { x.Y = new Z(); a?.B(c); M<T>(d)(e); } } }",
            ),
            (
                tree_sitter_java::LANGUAGE.into(),
                "class C { @Get(\"/a\") @Marker void m(final int a) { x.y = new Z(a); } }",
            ),
        ];
        let wanted_names = ["type", "name", "right", "function", "arguments"];
        for (language, source) in cases {
            let mut parser = tree_sitter::Parser::new();
            parser.set_language(&language).expect("grammar");
            let tree = parser.parse(source, None).expect("tree");
            let wanted: Vec<FieldRead> = wanted_names
                .iter()
                .filter_map(|name| FieldRead::of(&language, FieldAt::Any(name)))
                .collect();
            let mut checked = 0;
            for node in crate::syntax::descendants(tree.root_node()) {
                checked +=
                    check_fields_of(node, &wanted).unwrap_or_else(|failure| panic!("{failure}"));
            }
            assert!(checked >= 5, "{checked} fields checked");
        }
    }
}
