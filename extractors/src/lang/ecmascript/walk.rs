//! One walk over the named nodes of a file's tree that does the work of the
//! TypeScript/JavaScript query and of the name-use analysis at once.
//!
//! Running the compiled query costs more than twice a plain cursor walk whatever its patterns
//! (the query cursor computes fields, supertypes and sibling status for every node), and the use
//! analysis walked the tree a second time. This walk recognises the patterns of
//! `queries/javascript/*.scm` and `queries/typescript/*.scm` by hand and returns the same
//! [`QueryHit`]s, in the same order for each fact kind (extractors read the hits kind by kind): a
//! query match is reported when the walk enters the last node of its pattern, so a hit waits in
//! `pending` until the walk enters that node (hits that finish on the same node keep the order of
//! their roots, outer first, then of their patterns). A match whose last node is entered with no
//! other named node in between is reported at that earlier node: a call's callee right after the
//! call, and its first argument right after its argument list. The query files stay the
//! reference: a test runs both on every fixture and compares the hits of each kind.
//!
//! On the way it records how names are used (`usage`) and, for every hit's root, the innermost
//! function, class or object around it (`ScopeFrames`), so that `evidence.scope` needs no walk
//! from the root per fact.
//!
//! The walk does not descend into subtrees that cannot hold anything it looks for ([`Triggers`]):
//! every pattern root spells a character or word of its own (a call `(` or a template, `new`,
//! a decorator `@`, a statement `import`/`export`, an assignment `=`), and the name uses matter
//! only for the names imports bind (and `fetch`), which a byte scan finds. Subtrees with syntax
//! errors, and subtrees holding the last node of a pending match, are always entered.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use policies::facts::FactKind;
use tree_sitter::{Node, Tree};

use super::usage::{self, Metadata, Usage};
use crate::language::Language;
use crate::query::{Field, QueryHit};
use crate::syntax;

/// The node kinds the walk tells apart; everything else is `Other`. Kinds are compared by name
/// (as `Node::kind` would), so one entry may stand for several symbol ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Other,
    ImportStatement,
    ExportStatement,
    ImportRequireClause,
    Comment,
    CallExpression,
    NewExpression,
    MemberExpression,
    AssignmentExpression,
    Decorator,
    MethodDefinition,
    FormalParameters,
    RequiredParameter,
    OptionalParameter,
    TypeAnnotation,
    Arguments,
    Identifier,
    TypeIdentifier,
    NestedTypeIdentifier,
    PropertyIdentifier,
    ShorthandPropertyIdentifier,
    ShorthandPropertyIdentifierPattern,
    String,
    Object,
    Import,
    /// `type_annotation`, `type_arguments`, … (`usage::TYPE_CONTEXTS`) other than those above.
    TypeContext,
    /// A class (`class_declaration`, `class`, `abstract_class_declaration`).
    Class,
    /// `function_declaration`, `generator_function_declaration`.
    FunctionDeclaration,
    /// `function_expression`, `arrow_function`, `generator_function`.
    FunctionExpression,
    VariableDeclarator,
    AssignmentPattern,
}

impl Kind {
    fn of_name(name: &str) -> Kind {
        match name {
            "import_statement" => Kind::ImportStatement,
            "export_statement" => Kind::ExportStatement,
            "import_require_clause" => Kind::ImportRequireClause,
            "comment" => Kind::Comment,
            "call_expression" => Kind::CallExpression,
            "new_expression" => Kind::NewExpression,
            "member_expression" => Kind::MemberExpression,
            "assignment_expression" => Kind::AssignmentExpression,
            "decorator" => Kind::Decorator,
            "method_definition" => Kind::MethodDefinition,
            "formal_parameters" => Kind::FormalParameters,
            "required_parameter" => Kind::RequiredParameter,
            "optional_parameter" => Kind::OptionalParameter,
            "type_annotation" => Kind::TypeAnnotation,
            "arguments" => Kind::Arguments,
            "identifier" => Kind::Identifier,
            "type_identifier" => Kind::TypeIdentifier,
            "nested_type_identifier" => Kind::NestedTypeIdentifier,
            "property_identifier" => Kind::PropertyIdentifier,
            "shorthand_property_identifier" => Kind::ShorthandPropertyIdentifier,
            "shorthand_property_identifier_pattern" => Kind::ShorthandPropertyIdentifierPattern,
            "string" => Kind::String,
            "object" => Kind::Object,
            "import" => Kind::Import,
            "class_declaration" | "class" | "abstract_class_declaration" => Kind::Class,
            "function_declaration" | "generator_function_declaration" => Kind::FunctionDeclaration,
            "function_expression" | "arrow_function" | "generator_function" => {
                Kind::FunctionExpression
            }
            "variable_declarator" => Kind::VariableDeclarator,
            "assignment_pattern" => Kind::AssignmentPattern,
            name if super::usage::TYPE_CONTEXTS.contains(&name) => Kind::TypeContext,
            _ => Kind::Other,
        }
    }

    /// Whether the whole subtree of a node of this kind is a type position.
    fn is_type_context(self) -> bool {
        // `type_annotation` and `nested_type_identifier` have kinds of their own.
        matches!(
            self,
            Kind::TypeContext | Kind::TypeAnnotation | Kind::NestedTypeIdentifier
        )
    }

    /// Whether an identifier under a node of this kind may be a name it declares.
    fn may_declare(self) -> bool {
        matches!(
            self,
            Kind::VariableDeclarator
                | Kind::FunctionDeclaration
                | Kind::Class
                | Kind::RequiredParameter
                | Kind::OptionalParameter
                | Kind::FormalParameters
                | Kind::AssignmentPattern
                | Kind::FunctionExpression
        )
    }

    /// Whether a node of this kind contributes to `evidence.scope` (see `scope`).
    fn opens_scope(self) -> bool {
        matches!(
            self,
            Kind::MethodDefinition
                | Kind::FunctionDeclaration
                | Kind::FunctionExpression
                | Kind::Class
                | Kind::Object
        )
    }
}

/// The kinds and fields of one grammar, by id.
struct Grammar {
    kinds: Vec<Kind>,
    function: Option<u16>,
    arguments: Option<u16>,
    constructor: Option<u16>,
    source: Option<u16>,
    object: Option<u16>,
    property: Option<u16>,
    left: Option<u16>,
    right: Option<u16>,
    name: Option<u16>,
    parameters: Option<u16>,
    type_field: Option<u16>,
}

impl Grammar {
    fn new(language: &tree_sitter::Language) -> Grammar {
        let count = u16::try_from(language.node_kind_count()).unwrap_or(u16::MAX);
        let kinds = (0..count)
            .map(|id| {
                language
                    .node_kind_for_id(id)
                    .map_or(Kind::Other, Kind::of_name)
            })
            .collect();
        let field = |name: &str| language.field_id_for_name(name).map(u16::from);
        Grammar {
            kinds,
            function: field("function"),
            arguments: field("arguments"),
            constructor: field("constructor"),
            source: field("source"),
            object: field("object"),
            property: field("property"),
            left: field("left"),
            right: field("right"),
            name: field("name"),
            parameters: field("parameters"),
            type_field: field("type"),
        }
    }

    /// The cached grammar of `language`, one of TypeScript, TSX and JavaScript.
    fn cached(language: Language) -> Option<&'static OnceLock<Grammar>> {
        static TYPESCRIPT: OnceLock<Grammar> = OnceLock::new();
        static TSX: OnceLock<Grammar> = OnceLock::new();
        static JAVASCRIPT: OnceLock<Grammar> = OnceLock::new();
        match language {
            Language::TypeScript => Some(&TYPESCRIPT),
            Language::Tsx => Some(&TSX),
            Language::JavaScript => Some(&JAVASCRIPT),
            _ => None,
        }
    }

    fn kind(&self, node: Node<'_>) -> Kind {
        self.kinds
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or(Kind::Other)
    }

    /// The kind of a named node (query patterns name only named nodes); `Other` otherwise.
    fn named_kind(&self, node: Node<'_>) -> Kind {
        if node.is_named() {
            self.kind(node)
        } else {
            Kind::Other
        }
    }

    fn child<'tree>(&self, node: Node<'tree>, field: Option<u16>) -> Option<Node<'tree>> {
        node.child_by_field_id(field?)
    }
}

/// Whether an identifier is the name a declaration introduces: the `name` of a variable,
/// function or class declaration, the `pattern` of a parameter, any identifier directly in a
/// parameter list, the `left` of a default, the `parameter` of an arrow function.
fn is_declaration(identifier: Node<'_>, parent: &Level<'_>) -> bool {
    if !parent.kind.may_declare() {
        return false;
    }
    let is_field = |field: &str| {
        parent
            .node
            .child_by_field_name(field)
            .is_some_and(|named| named.id() == identifier.id())
    };
    match parent.node.kind() {
        "variable_declarator"
        | "function_declaration"
        | "generator_function_declaration"
        | "class_declaration" => is_field("name"),
        "required_parameter" | "optional_parameter" => is_field("pattern"),
        "formal_parameters" => true,
        "assignment_pattern" => is_field("left"),
        "arrow_function" => is_field("parameter"),
        _ => false,
    }
}

/// A module specifier `require`/`import()` patterns accept: a string or a template literal.
fn is_specifier_literal(grammar: &Grammar, node: Node<'_>) -> bool {
    grammar.named_kind(node) == Kind::String || node.kind() == "template_string"
}

/// A node a wildcard pattern `(_)` matches: named, not an `ERROR`.
fn is_wildcard(node: Node<'_>) -> bool {
    node.is_named() && !node.is_error()
}

/// The named children of a node, without a cursor (these nodes have few children).
pub(super) fn named_children(node: Node<'_>) -> impl Iterator<Item = Node<'_>> {
    (0..node.named_child_count()).map_while(move |index| node.named_child(index))
}

/// The functions, classes and object literals around the hits' roots, for `evidence.scope`.
#[derive(Debug, Default)]
pub(super) struct ScopeFrames<'tree> {
    /// One entry per function, class, method or object literal met, with its parent node and
    /// the frame around it.
    frames: Vec<Frame<'tree>>,
    /// The innermost frame among the ancestors of each hit root (absent: none).
    by_node: HashMap<usize, Option<u32>>,
}

#[derive(Debug, Clone, Copy)]
struct Frame<'tree> {
    node: Node<'tree>,
    parent: Option<Node<'tree>>,
    outer: Option<u32>,
}

impl<'tree> ScopeFrames<'tree> {
    /// The innermost frame around `node`'s ancestors when the walk recorded it.
    pub fn frame_of(&self, node: Node<'_>) -> Option<Option<u32>> {
        self.by_node.get(&node.id()).copied()
    }

    /// The frames from `frame` outwards, each with its node's parent.
    pub fn chain(
        &self,
        frame: Option<u32>,
    ) -> impl Iterator<Item = (Node<'tree>, Option<Node<'tree>>)> + '_ {
        let mut next = frame;
        std::iter::from_fn(move || {
            let frame = self.frames.get(usize::try_from(next?).ok()?)?;
            next = frame.outer;
            Some((frame.node, frame.parent))
        })
    }
}

/// What the walk found.
pub(super) struct Walked<'tree, 'source> {
    /// The query matches, in the query's order.
    pub hits: Vec<QueryHit<'tree>>,
    /// How the file uses names.
    pub usage: Usage<'source>,
    /// The scopes around the hits.
    pub scopes: ScopeFrames<'tree>,
    /// Whether subtrees were skipped ([`Triggers`]): `usage` then knows only the names imports
    /// bind and `fetch`.
    #[cfg_attr(not(test), expect(dead_code, reason = "read by the tests"))]
    pub pruned: bool,
}

/// One node on the path from the root to the walk's position.
struct Level<'tree> {
    node: Node<'tree>,
    kind: Kind,
    /// Inside a type position.
    in_type: bool,
    /// The innermost scope frame among this node and its ancestors.
    frame: Option<u32>,
}

/// A match waiting for the walk to enter its last node.
struct Pending<'tree> {
    finish: usize,
    /// The byte range of the last node, so that the walk descends to it.
    finish_range: (usize, usize),
    hit: QueryHit<'tree>,
}

/// The byte offsets in a file where something the walk looks for may start: a subtree without
/// one (and without errors) holds no pattern root and no use of a name that matters.
pub(super) struct Triggers {
    /// Sorted.
    positions: Vec<usize>,
    /// The index [`Triggers::first_from`] last answered: the walk asks in document order (a
    /// node's start, then the ends and starts after it), so the next answer is at most a few
    /// steps on, and a binary search each time cost 5% of the walk.
    hint: std::cell::Cell<usize>,
}

impl Triggers {
    /// Scans `source`; `None` when every subtree must be entered (the file has an import
    /// statement that is not at the top level, or binds a name the scan cannot spell).
    ///
    /// The uses the walk records matter for the names import statements bind (is the import
    /// type-only?) and for `fetch`: the names a `require(…)` or `import(…)` call binds are never
    /// asked about, and the calls themselves are pattern roots with a trigger of their own.
    fn scan(source: &str, root: Node<'_>, grammar: &Grammar, generic: bool) -> Option<Triggers> {
        // The names whose uses matter: those top-level import statements bind (every identifier
        // in them, to be safe) and `fetch`.
        let mut statements: Vec<(usize, usize)> = Vec::new();
        let mut names: HashSet<&[u8], Fnv> = HashSet::default();
        names.insert(b"fetch");
        let mut cursor = root.walk();
        if cursor.goto_first_child() {
            loop {
                let child = cursor.node();
                if grammar.kind(child) == Kind::ImportStatement {
                    statements.push((child.start_byte(), child.end_byte()));
                    // The statement's nodes in order, with the same cursor, back on the
                    // statement at the end.
                    let mut depth = 0_usize;
                    'statement: loop {
                        let node = cursor.node();
                        if grammar.named_kind(node) == Kind::Identifier {
                            names.insert(source.get(node.byte_range())?.as_bytes());
                        }
                        if cursor.goto_first_child() {
                            depth += 1;
                            continue;
                        }
                        loop {
                            if depth == 0 {
                                break 'statement;
                            }
                            if cursor.goto_next_sibling() {
                                break;
                            }
                            cursor.goto_parent();
                            depth -= 1;
                        }
                    }
                }
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        // For each first byte, the lengths of the names that start with it (bit `n` for length
        // `n`, bit 63 for any longer): a word is looked up only when one may be it.
        let mut lengths = [0_u64; 256];
        for name in &names {
            let first = *name.first()?;
            if let Some(slot) = lengths.get_mut(usize::from(first)) {
                *slot |= length_bit(name.len());
            }
        }
        let bytes = source.as_bytes();
        let mut positions = Vec::new();
        let mut statement = statements.iter().peekable();
        // Each `import` outside the statements costs a descent from the root, as deep as the
        // tree: past a few, the file is walked whole instead, so the scan stays linear.
        let mut lookups_left = 32_usize;
        let mut index = 0;
        loop {
            let rest = bytes.get(index..).unwrap_or_default();
            let Some(skipped) = rest.iter().position(|byte| class_of(*byte) != OTHER) else {
                break;
            };
            index += skipped;
            let Some(&byte) = bytes.get(index) else {
                break;
            };
            match class_of(byte) {
                WORD => {
                    let start = index;
                    let rest = bytes.get(start..).unwrap_or_default();
                    let length = rest
                        .iter()
                        .position(|byte| class_of(*byte) != WORD)
                        .unwrap_or(rest.len());
                    index += length;
                    let word = rest.get(..length).unwrap_or_default();
                    match word {
                        b"require" => positions.push(start),
                        b"import" => {
                            while statement.next_if(|(_, end)| *end <= start).is_some() {}
                            let inside = statement
                                .peek()
                                .is_some_and(|(statement_start, _)| *statement_start <= start);
                            if !inside {
                                lookups_left = lookups_left.checked_sub(1)?;
                                if !starts_no_statement(root, start, length) {
                                    return None;
                                }
                            }
                            positions.push(start);
                        }
                        b"new" | b"export" => positions.push(start),
                        _ => {
                            let may_be_name = lengths
                                .get(usize::from(byte))
                                .is_some_and(|lengths| lengths & length_bit(word.len()) != 0);
                            if may_be_name && names.contains(word) {
                                positions.push(start);
                            }
                        }
                    }
                    continue;
                }
                TRIGGER => positions.push(index),
                EQUALS if generic => positions.push(index),
                _ => {}
            }
            index += 1;
        }
        Some(Triggers {
            positions,
            hint: std::cell::Cell::new(0),
        })
    }

    /// Whether a trigger starts in `start..end`.
    fn any_within(&self, start: usize, end: usize) -> bool {
        self.first_from(start)
            .is_some_and(|position| position < end)
    }

    /// The first trigger at or after `from`: a few steps on from the last answer when that is
    /// before `from`, else a binary search.
    fn first_from(&self, from: usize) -> Option<usize> {
        const STEPS: usize = 8;
        let positions = &self.positions;
        let hint = self.hint.get();
        let before = |index: usize| {
            positions
                .get(index)
                .is_some_and(|position| *position < from)
        };
        let from_hint = (hint == 0 || before(hint - 1))
            .then(|| (hint..hint + STEPS).find(|index| !before(*index)))
            .flatten();
        let index =
            from_hint.unwrap_or_else(|| positions.partition_point(|position| *position < from));
        self.hint.set(index);
        positions.get(index).copied()
    }
}

/// Whether the word `import` at `start`, outside the file's top-level import statements,
/// starts no import statement: it is in a comment, a string, a regular expression or JSX text,
/// a property's name (`options.import`), `import.meta`, or an `import(…)` call (a type's too). An
/// import statement elsewhere (in a namespace or an ambient module) binds names the scan does
/// not collect, so any other such word keeps the walk from pruning the file. The lookup goes
/// down from the root: [`Triggers::scan`] makes a few a file at most.
fn starts_no_statement(root: Node<'_>, start: usize, length: usize) -> bool {
    root.named_descendant_for_byte_range(start, start + length)
        .is_some_and(|node| {
            matches!(
                node.kind(),
                "comment"
                    | "string_fragment"
                    | "regex_pattern"
                    | "jsx_text"
                    | "property_identifier"
                    | "meta_property"
                    | "import"
            ) && !node.has_error()
        })
}

const OTHER: u8 = 0;
const WORD: u8 = 1;
const TRIGGER: u8 = 2;
const EQUALS: u8 = 3;

/// What a byte is to the scan: an identifier byte (ASCII letters, digits, `_`, `$`, `\\` and
/// every non-ASCII byte, so that an identifier's text is always one whole word), a character that
/// starts a pattern root (`(`, a backquote, `@`; `=` for generic facts), or anything else.
const fn byte_class(byte: u8) -> u8 {
    match byte {
        b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' | b'$' | b'\\' | 0x80..=0xff => WORD,
        b'(' | b'`' | b'@' => TRIGGER,
        b'=' => EQUALS,
        _ => OTHER,
    }
}

/// [`byte_class`] of every byte, looked up.
static BYTE_CLASSES: [u8; 256] = {
    let mut classes = [OTHER; 256];
    let mut byte = 0;
    while byte < 256 {
        #[allow(
            clippy::cast_possible_truncation,
            clippy::indexing_slicing,
            reason = "`byte` is below 256, the table's length (no `get_mut` in a constant)"
        )]
        {
            classes[byte] = byte_class(byte as u8);
        }
        byte += 1;
    }
    classes
};

fn class_of(byte: u8) -> u8 {
    BYTE_CLASSES
        .get(usize::from(byte))
        .copied()
        .unwrap_or(OTHER)
}

/// The bit of a name's length in [`Triggers::scan`]'s length sets.
fn length_bit(length: usize) -> u64 {
    1 << length.min(63)
}

pub(super) use crate::syntax::Fnv;

struct Walker<'g, 'tree, 'source> {
    grammar: &'g Grammar,
    /// `None`: enter every subtree.
    triggers: Option<Triggers>,
    source: &'source str,
    generic: bool,
    hits: Vec<QueryHit<'tree>>,
    pending: Vec<Pending<'tree>>,
    usage: Usage<'source>,
    scopes: ScopeFrames<'tree>,
}

/// Walks `tree` once: the query hits (without the generic `call` and `assignment` ones unless
/// `generic`), the name uses and the scope frames.
pub(super) fn walk<'tree, 'source>(
    language: Language,
    tree: &'tree Tree,
    source: &'source str,
    generic: bool,
) -> Walked<'tree, 'source> {
    let uncached;
    let grammar = match Grammar::cached(language) {
        Some(cell) => cell.get_or_init(|| Grammar::new(&tree.language())),
        None => {
            uncached = Grammar::new(&tree.language());
            &uncached
        }
    };
    let triggers = Triggers::scan(source, tree.root_node(), grammar, generic);
    let pruned = triggers.is_some();
    let mut walker = Walker {
        grammar,
        triggers,
        source,
        generic,
        hits: Vec::new(),
        pending: Vec::new(),
        usage: Usage::default(),
        scopes: ScopeFrames::default(),
    };
    let mut levels: Vec<Level<'tree>> = Vec::new();
    // The named nodes the walk is inside, each with the next of its named children to read; the
    // last of `levels` is the last of them.
    let mut inside: Vec<Children<'tree>> = Vec::new();
    walker.visit(tree.root_node(), &mut levels, &mut inside);
    while let Some(children) = inside.last_mut() {
        // Nothing after the child just left matters: the rest of the parent is not read.
        let rest_matters = children
            .left_at
            .is_none_or(|end| walker.matters_after(end, levels.last()));
        let child = if rest_matters { children.next() } else { None };
        match child {
            Some(child) => {
                children.left_at = Some(child.end_byte());
                walker.visit(child, &mut levels, &mut inside);
            }
            None => {
                inside.pop();
                levels.pop();
            }
        }
    }
    let Walker {
        hits,
        usage,
        scopes,
        ..
    } = walker;
    Walked {
        hits,
        usage,
        scopes,
        pruned,
    }
}

/// The named children of a node the walk is inside, read one at a time by index (a cursor's
/// steps cost several times a `named_child` call), or listed at once with a cursor for a wide
/// node (`walk::WIDE`), where indexing from the first child each time would be quadratic.
struct Children<'tree> {
    node: Node<'tree>,
    /// The index of the next child.
    next: usize,
    count: usize,
    /// A wide node's named children.
    listed: Vec<Node<'tree>>,
    /// The end of the child the walk last left, if any.
    left_at: Option<usize>,
}

impl<'tree> Children<'tree> {
    fn of(node: Node<'tree>) -> Self {
        let count = node.named_child_count();
        let listed = if count > crate::walk::WIDE {
            syntax::named_children(node)
        } else {
            Vec::new()
        };
        Self {
            node,
            next: 0,
            count: if listed.is_empty() {
                count
            } else {
                listed.len()
            },
            listed,
            left_at: None,
        }
    }

    fn next(&mut self) -> Option<Node<'tree>> {
        if self.next >= self.count {
            return None;
        }
        let child = if self.listed.is_empty() {
            self.node.named_child(self.next)
        } else {
            self.listed.get(self.next).copied()
        };
        self.next += 1;
        child
    }
}

impl<'tree, 'source> Walker<'_, 'tree, 'source> {
    /// Reaches the named node `node` (its parent is the last of `levels`): unless nothing in it
    /// matters, enters it and, if anything below it may matter, goes inside (`inside`). Only
    /// named nodes are reached: no pattern node is anonymous, and no anonymous node has named
    /// children in these grammars.
    fn visit(
        &mut self,
        node: Node<'tree>,
        levels: &mut Vec<Level<'tree>>,
        inside: &mut Vec<Children<'tree>>,
    ) {
        if self.is_prunable(node) {
            return;
        }
        let (level, descend) = self.enter(node, levels);
        if descend && !self.is_prunable(node) && self.may_descend(node) {
            levels.push(level);
            inside.push(Children::of(node));
        }
    }

    /// Visits `node` (its parent is the last of `levels`): finishes the matches that end here,
    /// starts those rooted here, records name uses. Returns the node's level and whether to
    /// descend into it.
    fn enter(&mut self, node: Node<'tree>, levels: &[Level<'tree>]) -> (Level<'tree>, bool) {
        if !self.pending.is_empty() {
            self.finish(node.id());
        }
        let kind = self.grammar.kind(node);
        let parent = levels.last();
        let parent_frame = parent.and_then(|parent| parent.frame);
        // The use analysis leaves out imports, comments and re-exports, and no pattern but
        // their own looks inside them.
        let skipped = match kind {
            Kind::ImportStatement | Kind::Comment => true,
            Kind::ExportStatement => self.grammar.child(node, self.grammar.source).is_some(),
            _ => false,
        };
        if node.is_named() {
            self.start_matches(node, kind, parent_frame);
        }
        let frame = if kind.opens_scope() && node.is_named() {
            let index = u32::try_from(self.scopes.frames.len()).ok();
            self.scopes.frames.push(Frame {
                node,
                parent: parent.map(|parent| parent.node),
                outer: parent_frame,
            });
            index
        } else {
            parent_frame
        };
        let mut level = Level {
            node,
            kind,
            in_type: false,
            frame,
        };
        if skipped {
            // No pattern but the statement's own looks inside, and those finished at once.
            return (level, false);
        }
        let in_type = parent.is_some_and(|parent| parent.in_type) || kind.is_type_context();
        level.in_type = in_type;
        match kind {
            Kind::Identifier | Kind::TypeIdentifier | Kind::ShorthandPropertyIdentifier => {
                let name = syntax::text(node, self.source);
                if parent.is_some_and(|parent| is_declaration(node, parent)) {
                    self.usage.declared.insert(name);
                }
                let is_type_position = kind == Kind::TypeIdentifier || in_type;
                let ancestors = levels.iter().rev().map(|level| level.node);
                if !is_type_position {
                    self.usage.value_uses.insert(name);
                } else {
                    match usage::metadata_reference(node, ancestors, self.source) {
                        Metadata::Serialized => {
                            self.usage.value_uses.insert(name);
                        }
                        Metadata::SerializedIfNullable => {
                            self.usage.nullable_metadata_uses.insert(name);
                            self.usage.type_uses.insert(name);
                        }
                        Metadata::No => {
                            self.usage.type_uses.insert(name);
                        }
                    }
                }
                (level, false)
            }
            Kind::ShorthandPropertyIdentifierPattern => {
                self.usage.declared.insert(syntax::text(node, self.source));
                (level, false)
            }
            _ => (level, true),
        }
    }

    /// Whether nothing below `node` matters: no trigger, no syntax error, no pending match's
    /// last node.
    fn is_prunable(&self, node: Node<'_>) -> bool {
        let Some(triggers) = &self.triggers else {
            return false;
        };
        let (start, end) = (node.start_byte(), node.end_byte());
        // A node's own opening `(` or backquote (and a template's closing one) starts no
        // pattern root inside it: such a root has a trigger of its own further in.
        let bytes = self.source.as_bytes();
        let opening = bytes.get(start).copied();
        let inner_start = if matches!(opening, Some(b'(' | b'`')) {
            start + 1
        } else {
            start
        };
        let inner_end = if opening == Some(b'`')
            && end > inner_start
            && bytes.get(end - 1).copied() == Some(b'`')
        {
            end - 1
        } else {
            end
        };
        !triggers.any_within(inner_start, inner_end)
            && !node.has_error()
            && !self
                .pending
                .iter()
                .any(|pending| pending.finish_range.0 >= start && pending.finish_range.1 <= end)
    }

    /// The first offset at or after `from` where something may matter: a trigger or the start of
    /// a pending match's last node.
    fn next_position(&self, from: usize) -> Option<usize> {
        let trigger = self
            .triggers
            .as_ref()
            .and_then(|triggers| triggers.first_from(from));
        let pending = self
            .pending
            .iter()
            .map(|pending| pending.finish_range.0)
            .filter(|start| *start >= from)
            .min();
        match (trigger, pending) {
            (Some(trigger), Some(pending)) => Some(trigger.min(pending)),
            (trigger, pending) => trigger.or(pending),
        }
    }

    /// Whether anything below `node` may matter: a trigger or a pending last node before its
    /// end (the children before the next one hold neither, and are stepped over as prunable).
    /// Inside a subtree with errors, which may hold zero-width missing nodes, always.
    fn may_descend(&self, node: Node<'tree>) -> bool {
        if self.triggers.is_none() || node.has_error() {
            return true;
        }
        self.next_position(node.start_byte())
            .is_some_and(|position| position < node.end_byte())
    }

    /// Whether anything after offset `from` inside `parent` may matter, so that the walk goes on
    /// to the next sibling instead of leaving the parent.
    fn matters_after(&self, from: usize, parent: Option<&Level<'tree>>) -> bool {
        let Some(parent) = parent else {
            return true;
        };
        if self.triggers.is_none() || parent.node.has_error() {
            return true;
        }
        self.next_position(from)
            .is_some_and(|position| position < parent.node.end_byte())
    }

    /// Moves the pending matches that end at node `id` to the hits, in their order.
    fn finish(&mut self, id: usize) {
        while let Some(index) = self.pending.iter().position(|pending| pending.finish == id) {
            let pending = self.pending.remove(index);
            self.hits.push(pending.hit);
        }
    }

    /// A match that ends where nothing else can end before it (inside an import statement the
    /// walk does not enter, at a call's callee): a hit at once.
    fn push_now(
        &mut self,
        kind: FactKind,
        captures: impl IntoIterator<Item = (Field, Node<'tree>)>,
    ) {
        self.hits.push(QueryHit::new(kind, captures));
    }

    fn push(
        &mut self,
        finish: Node<'tree>,
        kind: FactKind,
        captures: impl IntoIterator<Item = (Field, Node<'tree>)>,
    ) {
        self.pending.push(Pending {
            finish: finish.id(),
            finish_range: (finish.start_byte(), finish.end_byte()),
            hit: QueryHit::new(kind, captures),
        });
    }

    /// Starts the matches of every pattern rooted at `node`, in the order of the patterns in the
    /// query files.
    fn start_matches(&mut self, node: Node<'tree>, kind: Kind, frame: Option<u32>) {
        let before = self.pending.len() + self.hits.len();
        match kind {
            Kind::ImportStatement => self.import_statement(node),
            Kind::ExportStatement => {
                // `javascript/imports.scm`: re-exports.
                if let Some(source) = self.string_child(node, self.grammar.source) {
                    self.push_now(
                        FactKind::Import,
                        [(Field::Statement, node), (Field::Specifier, source)],
                    );
                }
            }
            Kind::CallExpression => self.call_expression(node),
            Kind::NewExpression => {
                // `javascript/clients.scm`: constructions (ending at the constructor, the first
                // named child).
                let grammar = self.grammar;
                if let Some(constructor) = grammar.child(node, grammar.constructor).filter(|c| {
                    matches!(
                        grammar.named_kind(*c),
                        Kind::Identifier | Kind::MemberExpression
                    )
                }) {
                    self.push_now(
                        FactKind::AccessesTechnology,
                        [
                            (Field::Construction, node),
                            (Field::Constructor, constructor),
                        ],
                    );
                }
            }
            Kind::Decorator => self.decorator(node),
            Kind::AssignmentExpression if self.generic => {
                // `javascript/graph.scm`: assignments to a member.
                let grammar = self.grammar;
                let left = grammar
                    .child(node, grammar.left)
                    .filter(|left| grammar.named_kind(*left) == Kind::MemberExpression);
                let right = grammar
                    .child(node, grammar.right)
                    .filter(|r| is_wildcard(*r));
                if let (Some(left), Some(right)) = (left, right) {
                    if left.end_byte() <= right.start_byte() {
                        self.push(
                            right,
                            FactKind::Assignment,
                            [
                                (Field::Statement, node),
                                (Field::Target, left),
                                (Field::Value, right),
                            ],
                        );
                    }
                }
            }
            Kind::MethodDefinition => {
                let method_frame = u32::try_from(self.scopes.frames.len()).ok();
                self.constructor_injection(node, method_frame);
            }
            _ => {}
        }
        if self.pending.len() + self.hits.len() > before {
            self.scopes.by_node.insert(node.id(), frame);
        }
    }

    /// The child in `field` when it is a string literal.
    fn string_child(&self, node: Node<'tree>, field: Option<u16>) -> Option<Node<'tree>> {
        self.grammar
            .child(node, field)
            .filter(|child| self.grammar.named_kind(*child) == Kind::String)
    }

    /// `javascript/imports.scm` static imports and `typescript/imports.scm` import-equals.
    fn import_statement(&mut self, node: Node<'tree>) {
        if let Some(source) = self.string_child(node, self.grammar.source) {
            self.push_now(
                FactKind::Import,
                [(Field::Statement, node), (Field::Specifier, source)],
            );
        }
        let clauses: Vec<Node<'tree>> = named_children(node)
            .filter(|child| self.grammar.kind(*child) == Kind::ImportRequireClause)
            .collect();
        for clause in clauses {
            if let Some(source) = self.string_child(clause, self.grammar.source) {
                self.push_now(
                    FactKind::Import,
                    [(Field::Statement, node), (Field::Specifier, source)],
                );
            }
        }
    }

    /// The patterns rooted at a call: `require`, `import()`, client calls, requests, routes and
    /// generic calls.
    fn call_expression(&mut self, call: Node<'tree>) {
        let grammar = self.grammar;
        let Some(function) = grammar.child(call, grammar.function) else {
            return;
        };
        let arguments = grammar
            .child(call, grammar.arguments)
            .filter(|arguments| arguments.start_byte() >= function.end_byte());
        let function_kind = grammar.named_kind(function);
        let argument_list = arguments.filter(|list| grammar.named_kind(*list) == Kind::Arguments);
        let has_argument = argument_list.is_some_and(|list| list.named_child_count() > 0);
        // Only `require`, `import()`, `.route(…)` and argument lists with errors need it.
        let first_argument = || argument_list.and_then(|list| list.named_child(0));
        // Matches that end at the first argument are reported at the argument list: no named
        // node is entered between the two.
        // `javascript/imports.scm`: `require('x')` with one string literal, also after comments
        // (`require(/* … */ 'x')`).
        if function_kind == Kind::Identifier && syntax::text(function, self.source) == "require" {
            let specifier = argument_list.and_then(|list| {
                named_children(list).find(|argument| grammar.kind(*argument) != Kind::Comment)
            });
            if let (Some(list), Some(specifier)) = (argument_list, specifier) {
                if is_specifier_literal(grammar, specifier)
                    && specifier.next_named_sibling().is_none()
                {
                    self.push(
                        list,
                        FactKind::Import,
                        [
                            (Field::Call, call),
                            (Field::Function, function),
                            (Field::Specifier, specifier),
                        ],
                    );
                }
            }
        }
        // `javascript/imports.scm`: `import('x')`, also after comments (`import(/* … */ 'x')`).
        if function_kind == Kind::Import {
            let specifier = argument_list.and_then(|list| {
                let mut cursor = list.walk();
                let first = list
                    .named_children(&mut cursor)
                    .find(|argument| argument.kind() != "comment");
                first
            });
            if let (Some(list), Some(specifier)) = (
                argument_list,
                specifier.filter(|first| is_specifier_literal(grammar, *first)),
            ) {
                self.push(
                    list,
                    FactKind::Import,
                    [(Field::Call, call), (Field::Specifier, specifier)],
                );
            }
        }
        let is_callee = matches!(function_kind, Kind::Identifier | Kind::MemberExpression);
        // `javascript/clients.scm`: calls (ending at the callee, the call's first child).
        if is_callee {
            self.push_now(
                FactKind::AccessesTechnology,
                [(Field::Call, call), (Field::Function, function)],
            );
        }
        // `javascript/http.scm`: calls with a first argument.
        if is_callee {
            // The first argument must not be an `ERROR`, which only a list with errors holds.
            let first_is_argument = has_argument
                && argument_list.is_some_and(|list| {
                    !list.has_error() || first_argument().is_some_and(|first| !first.is_error())
                });
            if let (Some(list), true) = (argument_list, first_is_argument) {
                self.push(
                    list,
                    FactKind::HttpCall,
                    [
                        (Field::Call, call),
                        (Field::Function, function),
                        (Field::Arguments, list),
                    ],
                );
            }
        }
        // `javascript/routes.scm`: `app.get('/x', …)` and `fastify.route({ … })`.
        if function_kind == Kind::MemberExpression {
            if let Some(list) = argument_list {
                self.route_call(call, function, list, first_argument);
            }
        }
        // `javascript/graph.scm`: every call.
        if self.generic && is_wildcard(function) {
            if let Some(arguments) = arguments.filter(|arguments| is_wildcard(*arguments)) {
                self.push(
                    arguments,
                    FactKind::Call,
                    [
                        (Field::Call, call),
                        (Field::Function, function),
                        (Field::Arguments, arguments),
                    ],
                );
            }
        }
    }

    fn route_call(
        &mut self,
        call: Node<'tree>,
        function: Node<'tree>,
        list: Node<'tree>,
        first_argument: impl Fn() -> Option<Node<'tree>>,
    ) {
        // Verbs, the mounts of `super::mounts` (`use`, `route`, `register`) and Nest's
        // `app.setGlobalPrefix('api')`.
        const VERBS: [&str; 13] = [
            "get",
            "post",
            "put",
            "patch",
            "delete",
            "del",
            "options",
            "head",
            "all",
            "use",
            "route",
            "register",
            "setGlobalPrefix",
        ];
        let grammar = self.grammar;
        let Some(receiver) = grammar
            .child(function, grammar.object)
            .filter(|o| is_wildcard(*o))
        else {
            return;
        };
        let Some(method) = grammar
            .child(function, grammar.property)
            .filter(|property| grammar.named_kind(*property) == Kind::PropertyIdentifier)
            .filter(|property| property.start_byte() >= receiver.end_byte())
        else {
            return;
        };
        let method_name = syntax::text(method, self.source);
        if VERBS.contains(&method_name) {
            self.push(
                list,
                FactKind::Route,
                [
                    (Field::Call, call),
                    (Field::Receiver, receiver),
                    (Field::Method, method),
                    (Field::Arguments, list),
                ],
            );
        }
        if method_name == "route" {
            if let Some(options) =
                first_argument().filter(|first| grammar.named_kind(*first) == Kind::Object)
            {
                self.push(
                    list,
                    FactKind::Route,
                    [
                        (Field::Call, call),
                        (Field::Receiver, receiver),
                        (Field::Method, method),
                        (Field::Options, options),
                    ],
                );
            }
        }
    }

    /// `javascript/routes.scm`: `@Get(':id')` routes and `@Roles(…)` role checks.
    fn decorator(&mut self, decorator: Node<'tree>) {
        const VERBS: [&str; 8] = [
            "Get", "Post", "Put", "Patch", "Delete", "Options", "Head", "All",
        ];
        let grammar = self.grammar;
        let calls: Vec<Node<'tree>> = named_children(decorator)
            .filter(|child| grammar.kind(*child) == Kind::CallExpression)
            .collect();
        for call in calls {
            let Some(function) = grammar
                .child(call, grammar.function)
                .filter(|function| grammar.named_kind(*function) == Kind::Identifier)
            else {
                continue;
            };
            let Some(list) = grammar
                .child(call, grammar.arguments)
                .filter(|list| grammar.named_kind(*list) == Kind::Arguments)
                .filter(|list| list.start_byte() >= function.end_byte())
            else {
                continue;
            };
            let name = syntax::text(function, self.source);
            let kind = if VERBS.contains(&name) {
                FactKind::Route
            } else if name == "Roles" {
                FactKind::ChecksRole
            } else {
                continue;
            };
            self.push(
                list,
                kind,
                [
                    (Field::Decorator, decorator),
                    (Field::Method, function),
                    (Field::Arguments, list),
                ],
            );
        }
    }

    /// `typescript/clients.scm`: `constructor(private readonly prisma: PrismaClient)`.
    fn constructor_injection(&mut self, method: Node<'tree>, method_frame: Option<u32>) {
        let grammar = self.grammar;
        let Some(name) = grammar
            .child(method, grammar.name)
            .filter(|name| grammar.named_kind(*name) == Kind::PropertyIdentifier)
        else {
            return;
        };
        if syntax::text(name, self.source) != "constructor" {
            return;
        }
        let Some(parameters) = grammar
            .child(method, grammar.parameters)
            .filter(|parameters| grammar.named_kind(*parameters) == Kind::FormalParameters)
            .filter(|parameters| parameters.start_byte() >= name.end_byte())
        else {
            return;
        };
        let mut found = Vec::new();
        for parameter in named_children(parameters) {
            if !matches!(
                grammar.kind(parameter),
                Kind::RequiredParameter | Kind::OptionalParameter
            ) {
                continue;
            }
            let Some(annotation) = grammar
                .child(parameter, grammar.type_field)
                .filter(|annotation| grammar.named_kind(*annotation) == Kind::TypeAnnotation)
            else {
                continue;
            };
            for type_node in named_children(annotation) {
                if matches!(
                    grammar.kind(type_node),
                    Kind::TypeIdentifier | Kind::NestedTypeIdentifier
                ) {
                    found.push((parameter, type_node));
                }
            }
        }
        for (parameter, type_node) in found {
            self.scopes.by_node.insert(parameter.id(), method_frame);
            self.push(
                type_node,
                FactKind::AccessesTechnology,
                [
                    (Field::Method, name),
                    (Field::Parameter, parameter),
                    (Field::Type, type_node),
                ],
            );
        }
    }
}

#[cfg(test)]
mod trigger_tests {
    use super::Triggers;

    /// `first_from` answers as a binary search does, for queries in document order with the
    /// walk's small steps back, and for queries that jump anywhere.
    #[test]
    fn the_first_trigger_from_an_offset_is_the_binary_search_one() {
        let positions: Vec<usize> = (0..200).map(|index| index * 7 + index % 3).collect();
        let triggers = Triggers {
            positions: positions.clone(),
            hint: std::cell::Cell::new(0),
        };
        let expected = |from: usize| {
            positions
                .get(positions.partition_point(|position| *position < from))
                .copied()
        };
        // Document order, each start asked again one byte on (a node's own parenthesis).
        for from in (0..1500).flat_map(|from| [from, from + 1, from]) {
            assert_eq!(triggers.first_from(from), expected(from), "{from}");
        }
        // Jumps back and far ahead.
        let mut from = 1_400;
        for _ in 0..500 {
            from = (from * 31 + 17) % 1_500;
            assert_eq!(triggers.first_from(from), expected(from), "{from}");
        }
    }
}
