//! The generic graph facts that reviewed queries (`.agq.yml`, `crate::agq`) promote into
//! domain facts: `call` and `assignment` (`policies::facts`), for every tree-sitter language that lists a
//! [`CallsAndAssignmentsGrammar`].
//!
//! The languages with a grammar adapter are TypeScript/JavaScript, C#, Java, Kotlin, Python, Go,
//! Rust and Swift.
//! Each language's `graph.scm` captures calls (`@fact.call.call` with the callee as
//! `@fact.call.function`, or a receiver and a method name when the grammar separates them) and
//! plain `=` assignments to a member (`@fact.assignment.statement`, `.target`, `.value`). The
//! grammar adapter splits member accesses, reads argument lists, and describes the control flow
//! the assignment guard needs (`if`, `switch`/`when`/`match` arms, early exits): the guard is
//! read from the syntax tree around the assignment (`assignments`), never from source text.
//!
//! Conventions shared by every language:
//! - `E.M` (an enum member, for `argumentEnum`/`argumentMember`, `valueEnum`/`valueMember` and the
//!   guard) is a member access whose object is a chain of plain names and whose last name starts
//!   with an upper-case letter: `OrderStatus.Draft`, `Models.OrderStatus.Draft` (enum
//!   `OrderStatus`); `this.status` or `order.status` are not. Kotlin's `is OrderState.Draft`
//!   reads the same way. Rust's `OrderStatus::Paid` (and `crate::m::OrderStatus::Paid`) is
//!   enum `OrderStatus`, member `Paid`; the `value`/`arguments` texts keep `::` as written.
//!   Go has no enums: a constant declared with a type in the same file (`Paid OrderStatus =
//!   iota`, and the constants after it) is member `Paid` of enum `OrderStatus`.
//!   Swift's `.paid` names no enum: it is member `paid` of the enum the file declares for the
//!   assigned property (`var status: OrderStatus`), else `valueMember`/`previousMember`/
//!   `argumentMember` are set without `valueEnum`/`guardEnum`/`argumentEnum`.
//! - A bare case label (Java's `case DRAFT:`) names a member of the enum of the assigned value.
//! - `call` facts: the callee is the method name (type arguments dropped), the receiver the
//!   object expression as written; `qualified` is `receiver.callee`, or the callee alone.
//!   `argumentEnum`/`argumentMember` come from the first argument, at any position, of the form
//!   `E.M` (`submitOrder(cartId, CartPhase.Review)`: `CartPhase`/`Review`). A call
//!   whose callee is itself a call (`a.b().c()`) has the inner call as its receiver. Dynamic
//!   `import()` and decorator calls (`@Get(':id')`) are not calls; Kotlin constructor calls
//!   (`OkHttpClient.Builder()`) are, since the syntax cannot tell them apart.
//! - `assignment` facts: only plain `=` to a member (`o.p = v`); compound assignments, writes to
//!   local variables and object initialisers are not assignments. `value` is the right-hand
//!   side as written. In Java a JavaBean setter call `o.setStatus(v)` (one argument, on a
//!   receiver) is the write `o.status = v` too (property `setter` names the method), and a getter
//!   `o.getStatus()` (`isX()`) reads `o.status` in the guard's conditions.
//! - Texts are compacted (runs of whitespace become one space) and cut to 120 characters.

mod assignments;
mod calls;

use policies::facts::{Fact, FactKind};
use tree_sitter::Node;

use crate::facts::FactFactory;
use crate::query::QueryHit;
use crate::syntax;
use crate::syntax::ChildField;

/// The longest text kept in a property (arguments, values, receivers).
pub(crate) const TEXT_LIMIT: usize = 120;

/// What a condition says, as far as the assignment guard cares.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Condition<'tree> {
    /// `a && b` (`a and b`).
    And(Node<'tree>, Node<'tree>),
    /// `!a` (`not a`).
    Not(Node<'tree>),
    /// `left == right` (`===`, Python's `is`), or with `is_negated` `!=` (`!==`, `is not`).
    Equal {
        /// The left operand.
        left: Node<'tree>,
        /// The right operand.
        right: Node<'tree>,
        /// Whether the comparison is an inequality.
        is_negated: bool,
    },
    /// A pattern test `subject is E.K` (C#, Kotlin), or with `is_negated` `is not`/`!is`.
    Is {
        /// The tested expression.
        subject: Node<'tree>,
        /// The pattern (an enum member or a type named like one).
        pattern: Node<'tree>,
        /// Whether the test is negated.
        is_negated: bool,
    },
    /// Anything else, disjunctions included: never a guard.
    Other,
}

/// The parts of an `if`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Branch<'tree> {
    /// The condition, parentheses included.
    pub condition: Node<'tree>,
    /// The then-branch.
    pub consequence: Node<'tree>,
}

/// One arm of a `switch`, `when` or `match`.
#[derive(Debug, Clone)]
pub(crate) struct Arm<'tree> {
    /// The switched-on expression; `None` for a Kotlin `when` without subject, whose labels are
    /// conditions.
    pub subject: Option<Node<'tree>>,
    /// The case labels of the arm (none for `default`/`else`).
    pub labels: Vec<Node<'tree>>,
    /// Whether the previous arm falls through into this one (`case A: case B: …`).
    pub is_fallthrough_target: bool,
}

/// How one grammar spells the constructs the generic facts read.
pub(crate) trait CallsAndAssignmentsGrammar {
    /// The `(object, property)` of a member access (`o.status`, `this.order.status`).
    fn member<'tree>(&self, node: Node<'tree>) -> Option<(Node<'tree>, Node<'tree>)>;

    /// Whether a call of `callee` is a call fact (not, say, a dynamic `import()`).
    fn is_callee(&self, callee: Node<'_>) -> bool {
        !callee.kind().is_empty()
    }

    /// The arguments of an argument-list node, each unwrapped to its expression.
    fn arguments<'tree>(&self, list: Node<'tree>) -> Vec<Node<'tree>>;

    /// The name of a callee or property node without type arguments (`AddScoped<I, S>` →
    /// `AddScoped`).
    fn name(&self, node: Node<'_>, source: &str) -> String {
        syntax::compact_text(node, source, TEXT_LIMIT)
    }

    /// What a condition says.
    fn condition<'tree>(&self, node: Node<'tree>, source: &str) -> Condition<'tree>;

    /// The parts of `node` when it is an `if`.
    fn branch<'tree>(&self, node: Node<'tree>) -> Option<Branch<'tree>>;

    /// The arm `node` is, when it is an arm of a `switch`, `when` or `match`.
    fn arm<'tree>(&self, node: Node<'tree>) -> Option<Arm<'tree>>;

    /// Whether `node` chooses between branches (an `if`, a `switch` or its body, a ternary), so
    /// that its children are alternatives rather than a sequence.
    fn is_branching(&self, node: Node<'_>) -> bool;

    /// Whether `node` leaves the function: `return`, `throw`, or a block ending in one.
    fn is_exit(&self, node: Node<'_>) -> bool;

    /// Whether `node` starts a new function body (guards never cross one).
    fn is_function(&self, node: Node<'_>) -> bool;

    /// A bare enum-member label (`DRAFT` in Java's `case DRAFT:`, `.draft` in Swift).
    fn bare_member(&self, node: Node<'_>, source: &str) -> Option<String> {
        (node.kind() == "identifier").then(|| syntax::text(node, source).to_owned())
    }

    /// `(path, name)` of a call through a path (Rust's `Order::new`), qualified with `::`.
    fn path<'tree>(&self, _node: Node<'tree>) -> Option<(Node<'tree>, Node<'tree>)> {
        None
    }

    /// The member of an enum-case shorthand whose enum the syntax does not name (Swift's
    /// `.paid`).
    fn shorthand_member(&self, _node: Node<'_>, _source: &str) -> Option<String> {
        None
    }

    /// The enum of the shorthand members assigned to `property`, when the file declares it
    /// (Swift's `var status: OrderStatus`).
    fn shorthand_enum(&self, _property: &str) -> Option<String> {
        None
    }

    /// `(object, property, value)` when `call` is a JavaBean setter `o.setStatus(v)` (Java),
    /// read as the write `o.status = v`.
    fn setter<'tree>(
        &self,
        _call: Node<'tree>,
        _source: &str,
    ) -> Option<(Node<'tree>, String, Node<'tree>)> {
        None
    }

    /// `(object, property)` when `node` is a JavaBean getter `o.getStatus()` / `o.isActive()`
    /// (Java), read as `o.status` in guards.
    fn getter<'tree>(&self, _node: Node<'tree>, _source: &str) -> Option<(Node<'tree>, String)> {
        None
    }

    /// `(E, M)` when `node` is an enum member `E.M`.
    fn enum_member(&self, node: Node<'_>, source: &str) -> Option<(String, String)> {
        let (object, property) = self.member(node)?;
        let chain = syntax::compact_text(object, source, TEXT_LIMIT);
        enum_parts(&chain, &self.name(property, source))
    }
}

/// `(E, M)` from an object chain and a member name, when the chain is plain names ending in an
/// upper-case one.
pub(crate) fn enum_parts(chain: &str, member: &str) -> Option<(String, String)> {
    let is_chain = !chain.is_empty()
        && chain
            .chars()
            .all(|character| character.is_alphanumeric() || matches!(character, '_' | '.' | ':'));
    let enum_name = chain.rsplit(['.', ':']).next()?;
    let is_member = !member.is_empty()
        && member
            .chars()
            .all(|character| character.is_alphanumeric() || character == '_');
    (is_chain && is_member && enum_name.chars().next()?.is_uppercase())
        .then(|| (enum_name.to_owned(), member.to_owned()))
}

/// A C-family `binary_expression` (fields `left`, `operator`, `right`) as a condition: `&&` is a
/// conjunction, an operator of `equal` an equality and one of `not_equal` a negated equality.
pub(crate) fn binary_condition<'tree>(
    node: Node<'tree>,
    source: &str,
    equal: &[&str],
    not_equal: &[&str],
) -> Condition<'tree> {
    let (Some(left), Some(operator), Some(right)) = (
        node.child_field("left"),
        node.child_field("operator"),
        node.child_field("right"),
    ) else {
        return Condition::Other;
    };
    let operator = syntax::text(operator, source);
    if operator == "&&" {
        Condition::And(left, right)
    } else if equal.contains(&operator) || not_equal.contains(&operator) {
        Condition::Equal {
            left,
            right,
            is_negated: not_equal.contains(&operator),
        }
    } else {
        Condition::Other
    }
}

/// A `unary_expression` whose `operator` is `!` as a negation of the child in `operand_field`.
pub(crate) fn not_condition<'tree>(
    node: Node<'tree>,
    source: &str,
    operand_field: &str,
) -> Condition<'tree> {
    match (
        node.child_field("operator"),
        node.child_by_field_name(operand_field),
    ) {
        (Some(operator), Some(operand)) if syntax::text(operator, source) == "!" => {
            Condition::Not(operand)
        }
        _ => Condition::Other,
    }
}

/// `node` without the parentheses around it.
pub(crate) fn unwrap_parentheses(node: Node<'_>) -> Node<'_> {
    let mut current = node;
    while current.kind() == "parenthesized_expression" {
        match syntax::named_children(current)
            .into_iter()
            .find(|child| child.kind() != "comment")
        {
            Some(inner) => current = inner,
            None => break,
        }
    }
    current
}

/// The last statement of a block, comments left out.
pub(crate) fn last_statement(block: Node<'_>) -> Option<Node<'_>> {
    syntax::named_children(block)
        .into_iter()
        .rfind(|child| !child.kind().contains("comment"))
}

/// The `call` and `assignment` facts of a file, from its `call` and `assignment` query hits.
pub(crate) fn facts(
    factory: &FactFactory<'_>,
    grammar: &dyn CallsAndAssignmentsGrammar,
    hits: &[QueryHit<'_>],
    file: &FileSyntax<'_, '_>,
) -> Vec<Fact> {
    let call_hits: Vec<&QueryHit<'_>> = hits
        .iter()
        .filter(|hit| hit.kind == FactKind::Call)
        .collect();
    let assignment_hits: Vec<&QueryHit<'_>> = hits
        .iter()
        .filter(|hit| hit.kind == FactKind::Assignment)
        .collect();
    let mut facts = calls::facts(factory, grammar, &call_hits, file);
    facts.extend(assignments::facts(
        factory,
        grammar,
        &assignment_hits,
        &call_hits,
        file,
    ));
    facts
}

/// The rank of each generic fact among those of its kind at its position, in the order they
/// are made: the `#n` of its id (the fact schema, `policies::facts`). Facts of one kind at one position (the
/// calls `a.b().c()` and `a.b()` both start at `a`) are told apart by their order, so a fact the
/// run's queries do not need still counts, and the facts made keep the ids they have when
/// every fact is made.
#[derive(Default)]
pub(super) struct Ranks(std::collections::HashMap<usize, u32>);

impl Ranks {
    /// The rank of the next fact at `node`'s position.
    pub(super) fn next(&mut self, node: Node<'_>) -> u32 {
        let count = self.0.entry(node.start_byte()).or_insert(0);
        let rank = *count;
        *count += 1;
        rank
    }

    /// Gives `fact` its `#rank` now: `facts::finish` numbers only the facts it is given.
    pub(super) fn mark(fact: &mut Fact, rank: u32) {
        if rank > 0 {
            fact.id = format!("{}#{rank}", fact.id);
        }
    }
}

/// The parsed file the generic facts read.
pub(crate) struct FileSyntax<'a, 'tree> {
    /// The file's text.
    pub source: &'a str,
    /// The root of its syntax tree.
    pub root: Node<'tree>,
    /// The enclosing scope of a node (the language's dotted path).
    pub scope_of: &'a dyn Fn(Node<'_>) -> Option<String>,
}
