//! SMT-LIB emission: every rule slice becomes one self-contained SMT-LIB `String`.
//!
//! The text is `Send`, diffable and snapshot-testable without a solver; the engine loads it
//! into a per-thread Z3 context and solves it with `check_assumptions` (`style.md` §8,
//! `language.md` §3.8).
//!
//! # Tracked assertions
//! Every assertion φ of a slice is tracked by an indicator literal:
//! `(declare-const |a!N| Bool)` then `(assert (=> |a!N| φ))`, numbered from 0 in emission order.
//! [`Slice::tracked`] maps each literal back to the rule, axiom or fact it encodes.
//! The slice is solved assuming every literal; the unsat core is the set of returned literals.
//! `:named` is never used (Z3 4.8.12 drops it when a script is loaded from text).
//! Every `assert` of the text is tracked, so the number of assertions the solver must hold
//! after loading is exactly [`Slice::assertion_count`].
//!
//! # Names
//! Names are quoted symbols after percent-escaping `|`, `\`, `%` and every byte outside
//! printable ASCII (`%` and two uppercase hex digits), so distinct names never collide and the
//! text always parses. Each sort has its own prefix (`entity:`, `data:`), so an entity and a
//! data type with the same name are distinct constants. Names are constants of uninterpreted
//! sorts, never `String` literals.
//!
//! # Encodings (fact → SMT)
//! Sorts: `Entity` (nodes, resources, components), `Data` (declared data types).
//! Relations: `(edge Entity Entity)` is one flow edge of `language.md` §3.5;
//! `(reach Entity Entity)` its transitive closure; `(free Entity Entity)` reach whose interior
//! avoids the via set; `(via Entity)` membership in a via set; `(handles Entity Data)` the
//! `handles` declarations.
//!
//! | source | tracked assertion |
//! |---|---|
//! | flow edge fact A→B | `(edge A B)` |
//! | `handles: D` on H | `(handles H D)` |
//! | entity names | `(distinct e1 … en)` over the entities of the slice |
//! | reach closure | `(forall ((x Entity) (y Entity)) (=> (edge x y) (reach x y)))` and `(forall ((x Entity) (y Entity) (z Entity)) (=> (and (edge x y) (reach y z)) (reach x z)))` |
//! | via closure | as reach, with `(not (via y))` on the middle entity, over `free` |
//! | via set V | `(forall ((x Entity)) (= (via x) (or (= x V1) …)))` |
//!
//! | rule kind | permanent constraint |
//! |---|---|
//! | DenyFlow(A, B) | `(not (edge A B))` |
//! | DenyReach(A, B) | reach closure, `(not (reach A B))` |
//! | RequireFlowVia(A, B, V) | via closure, via set, `(not (free A B))` |
//! | DenyDataFlow(D, T) | reach closure, `(forall ((h Entity)) (=> (handles h D) (not (reach h T))))` |
//! | RequireDataFlowVia(D, T, V) | via closure, via set, `(forall ((h Entity)) (=> (and (handles h D) (not (via h))) (not (free h T))))` |
//!
//! A slice holds the rule's constraint and the facts of one candidate witness; it is UNSAT
//! exactly when those facts contradict the rule, and the unsat core names them.

mod slice;
mod symbol;

pub use slice::{AssertionRole, Slice, SliceBuilder, TrackedAssertion};
pub use symbol::{data_symbol, entity_symbol, quote_symbol};

#[cfg(test)]
mod tests;
