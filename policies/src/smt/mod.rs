//! SMT-LIB emission: every rule slice becomes one self-contained SMT-LIB `String`.
//!
//! The text is `Send`, diffable and snapshot-testable without a solver; the engine loads it
//! into a per-thread Z3 context and solves it with `check_assumptions`.
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
//! Relations: `(edge Entity Entity)` is one flow edge (see Edges under `invariant` in policies/LANGUAGE.md) between entities,
//! or one edge of a chain (see Chains there) between files of the file graph, which are `Entity` constants `|file:<path>|`);
//! `(reach Entity Entity)` a chain; `(free Entity Entity)` a chain whose interior avoids the via
//! set; `(unauth_reach Entity Entity)` a chain on which no vertex after the first has auth;
//! `(via Entity)` membership in a via set; `(owned_by Entity Entity)` a file's component;
//! `(handles Entity Data)` the `handles` declarations.
//!
//! Path rules are proved on one witness chain with the ground instances of the path axioms along
//! it (`chain.rs`): no quantifier is left for Z3 to instantiate, so a 1,000-file chain is proved
//! as fast as a two-file one.
//!
//! | source | tracked assertion |
//! |---|---|
//! | flow edge fact A→B | `(edge A B)` |
//! | `handles: D` on H | `(handles H D)` |
//! | entity names | `(distinct e1 … en)` over the entities of the slice |
//! | file f of component C on a chain | `(owned_by f C)` |
//! | a witness chain f0 → … → t | its edge facts and the ground path axioms along it (`chain.rs`) |
//! | a component C outside the via set V (axiom) | `(not (via C))` |
//!
//! | rule kind | permanent constraint |
//! |---|---|
//! | DenyFlow(A, B) | `(not (edge A B))` |
//! | DenyReach(A, B) | `(not (reach A B))` |
//! | RequireFlowVia(A, B, V) | `(not (free A B))` |
//! | DenyDataFlow(D, T) | `(forall ((h Entity)) (=> (handles h D) (not (reach h T))))` |
//! | RequireDataFlowVia(D, T, V) | `(forall ((h Entity)) (=> (and (handles h D) (not (via h))) (not (free h T))))` |
//!
//! ## Further families
//! Further sorts are uninterpreted, one per kind of name (`Trust`, `Label`, `File`, `Method`,
//! `Path`, `Condition`, `Action`, `Job`, `Permission`, `Step`, `Service`, `Lifetime`, `Act`,
//! `Operation`, `Role`, `State`, `Occurrence`, `Event`, `Scope`, `Interface`), with
//! `(distinct …)` axioms over the names a slice uses ([`SliceBuilder::distinct_names`]); values
//! are the datatype `Val` = `(num Real) | (str String) | (bool Bool) | nil`.
//!
//! | source | tracked fact assertion |
//! |---|---|
//! | trust of entity E (spec) | `(= (trust E) τ)` |
//! | label of data D (spec) | `(= (classification D) L)`, `(= (jurisdiction D) L)` |
//! | entity E without auth (spec) | `(not (has_auth E))` |
//! | changed file F owned by C | `(and (changed F) (owns F C))` |
//! | no changed file owned by R (closed world) | `(not (touched R))` |
//! | `route` fact (method m or `*`, path p) in C | `(serves C m p)`; `*` is a method constant outside the `distinct` axiom |
//! | the routes of C (closed world) | `(forall ((m Method) (p Path)) (=> (serves C m p) (or …)))` |
//! | workflow action fact | `(acts W A T)` |
//! | workflow condition (from its triggers) | `(holds W C)` or `(not (holds W C))` |
//! | effective grant of a job | `(and (job_in J W) (= (level J P) n))`, `none` 0, `read` 1, `write` 2 |
//! | step with the later text | `(has_after S)` |
//! | no earlier step (closed world) | `(forall ((p Step)) (=> (has_before p) (or (= p P1) …)))` and `(not (earlier Pi S))` |
//! | inject edge A→B | `(inject A B)` |
//! | registration of S with lifetime L | `(= (lifetime S) L)` |
//! | service edge S1→S2 | `(depends S1 S2)` |
//! | service resolution of S in C | `(resolves C S)` |
//! | governed `performs` fact X of op | `(and (governed X) (does X op))` |
//! | applicable role checks of X (closed world) | `(forall ((r Role)) (= (granted X r) (or (= r R1) …)))` |
//! | enum states (axiom) | `(and (forall ((s State)) (= (member s) (or …))) (not (member *)))` |
//! | transition fact (s?, t) | `(writes s t)`, `s` = the distinguished `*` for an unguarded write |
//! | value fact `D.p rel v` | `rel` over the variable of `D.p` (below) |
//! | event fact e in scope S | `(and (occurs e E) (in_scope e S))`, S = `(data_scope D)` or `(entity_scope C)` |
//! | no preceding event (closed world) | `(forall ((p Occurrence)) (=> (and (occurs p P) (in_scope p S)) (or …)))` and `(not (precedes Pi e))` |
//! | `auth`/`encryption` fact | `(unauthenticated A B)`, `(unencrypted A B)` |
//! | `operation` fact | `(placed OP C)`, `(placed_on OP D C)` |
//! | `dependency` fact | `(depends_via A B I)`, `I` = the distinguished `no-interface:none` when absent |
//!
//! | rule kind | permanent constraint |
//! |---|---|
//! | DenyClassification(cls, τ) | `(forall ((h Entity) (d Data) (t Entity)) (not (and (handles h d) (= (classification d) cls) (= (trust t) τ) (reach h t))))` |
//! | DenyJurisdiction(j, E) | `(forall ((h Entity) (d Data)) (not (and (handles h d) (= (jurisdiction d) j) (reach h E))))` |
//! | DenyFlowWhenData(τ1, τ2, cls) | as DenyClassification with `(= (trust h) τ1)` |
//! | RequireAuth(τ1, τ2) | `(forall ((x Entity) (y Entity)) (not (and (= (trust x) τ1) (= (trust y) τ2) (not (= x y)) (unauth_reach x y))))` |
//! | RequireTouched(R, T) | axiom `(forall ((f File) (c Entity)) (=> (and (changed f) (owns f c)) (touched c)))`, `(=> (touched T) (touched R))` |
//! | contract `implements` (route) | `(forall ((m Method) (p Path)) (=> (serves C m p) (or (and (= m M1) (= p P1)) …)))` over the declared endpoints (closed world) |
//! | contract completeness | `(serves C M P)` for the declared endpoint |
//! | WorkflowAction deny | `(forall ((w Entity)) (not (and (acts w A T) [(= w W)] [(holds w C)])))` |
//! | WorkflowAction allow-list | `(forall ((w Entity)) (=> (acts w A T) (or …matching allow rules…)))` (closed world) |
//! | WorkflowPermission deny | `(forall ((j Job) (w Entity)) (not (and (job_in j w) [(= w W)] [(holds w C)] (>= (level j P) a))))`, `P` quantified for `*` |
//! | WorkflowPermission allow-list | `(forall ((j Job) (w Entity)) (=> (and (job_in j w) (>= (level j P) 1)) (or (and [match] (<= (level j P) a)) …)))` |
//! | WorkflowStepOrder | `(forall ((s Step)) (=> (has_after s) (exists ((p Step)) (and (has_before p) (earlier p s)))))` |
//! | DenyInject(A, B) | `(not (inject A B))` |
//! | DenyInjectReach(A, B) | closure of `inject`, `(not (inject_reach A B))` |
//! | DenyLifetime(L1, L2) | `(forall ((x Service) (y Service)) (not (and (depends x y) (= (lifetime x) L1) (= (lifetime y) L2))))` |
//! | DenyLifetimeReach(L1, L2) | closure of `depends`, as DenyLifetime over `depends_reach` |
//! | DenyResolve(S, C) | `(not (resolves C S))`; for `*`, `(forall ((s Service)) (not (resolves C s)))` |
//! | AllowPermission (all allow rules of the operation) | `(forall ((x Act) (o Operation)) (=> (and (governed x) (does x o) cover) (or (granted x R1) …)))` (closed world) |
//! | AllowPermission (the `*` allow rules, every operation no allow rule names) | as above with cover `(not (or (= o O1) …))` over the named operations |
//! | DenyPermission | `(forall ((x Act) (o Operation)) (not (and (governed x) (does x o) cover [(granted x R)])))` |
//! | DenyTransition(f, t) | `(forall ((s State) (t State)) (not (and (writes s t) (not (= s t)) [(= s f)] [(= t t')])))` |
//! | AllowTransition (closed machine) | `(forall ((s State) (t State)) (=> (and (writes s t) (not (= s t))) (or …allow rules…)))` |
//! | RequireValue(req, when?) | `req` over `Val`, or `(=> when req)` |
//! | RequireBefore / EnsureAfter | the condition over `Val` |
//! | RequirePrecededBy(E, P, S) | `(forall ((e Occurrence)) (=> (and (occurs e E) (in_scope e S)) (exists ((p Occurrence)) (and (occurs p P) (in_scope p S) (precedes p e)))))` |
//! | DenyUnauthenticatedFlow / DenyUnencryptedFlow | `(not (unauthenticated A B))` / `(not (unencrypted A B))` |
//! | RequireOperationIn / OnDataIn | `(forall ((c Entity)) (=> (placed OP c) (= c C)))` / with `placed_on OP D` |
//! | RequireDependencyViaInterface(A, B, I) | `(forall ((i Interface)) (=> (depends_via A B i) (= i I)))` |
//! | DependsOn(C, D1…Dn) | `(forall ((x Entity)) (=> (edge C x) (or (= x D1) …)))` (closed world), with `(distinct …)` |
//! | PublicInterface(B) | `(forall ((f Entity) (t Entity)) (=> (and (edge f t) (owned_by t B) (not (owned_by f B))) (public t)))` |
//! | DenyCycle among vertices | `(forall ((x Entity)) (not (cycle_reach x x)))` with the ground closure along the witness cycle (`module.rs`) |
//! | DenyCycle within C | `(forall ((x Entity)) (=> (owned_by x C) (not (cycle_reach x x))))` |
//! | DenyUnresolvedImport(C) | `(forall ((f Entity) (s Specifier)) (=> (owned_by f C) (not (unresolved f s))))` |
//!
//! Values: `==` is `(= x v)`, `!=` `(not (= x v))`, an ordering `(and ((_ is num) x) (< (num_of x) n))`;
//! strings are literals with `"` doubled and every character outside printable ASCII (and `\`)
//! written `\u{…}`; decimals are `Real` literals.
//!
//! A slice holds the rule's constraint and the facts of one candidate witness; it is UNSAT
//! exactly when those facts contradict the rule, and the unsat core names them.
//!
//! # Permanent constraints
//! [`permanent_constraint`] renders a rule's part of its slices alone, without facts: the rule
//! assertion(s) above plus the axioms the engine adds to every slice of that kind, built by the
//! same builder calls. The compiled artifact stores its text per rule.

mod boundary;
mod chain;
mod change_policy;
mod contract;
mod data_policy;
mod di_policy;
mod event_policy;
mod invariant_facts;
mod machine;
mod permission;
mod rules;
mod slice;
mod symbol;
mod trust_policy;
mod value_policy;
mod workflow_policy;

pub use boundary::{CycleHop, CycleVertex};
pub use chain::{file_symbol, ChainHop, ChainRelation, ChainVertex};
pub use contract::HttpEndpoint;
pub use event_policy::EventScope;
pub use rules::{permanent_constraint, rule_name};
pub use slice::{AssertionRole, Slice, SliceBuilder, TrackedAssertion};
pub use symbol::{data_symbol, entity_symbol, quote_symbol};
pub use value_policy::{relation_is_ordering, string_literal, value_constraint, SmtValue};
pub use workflow_policy::WorkflowMatch;

#[cfg(test)]
mod tests;
