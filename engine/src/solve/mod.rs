//! Solving rule slices: a [`Solver`] trait with the Z3 backend and a recording one for tests
//! (the slices' text is `policies::smt`'s).
//!
//! Slices are solved in batches of consecutive ones (the same batches for any thread count; one
//! batch for a small run), each batch in a fresh Z3 context on a short-lived thread of its own that
//! the rayon worker waits for: the `z3` crate's thread-local default context of that thread is made
//! for the batch and dropped when the thread ends. So Z3 objects never cross threads, and a worker
//! holds one context (about 17 MB, zero-filled when made) only while it solves: none stays behind
//! on the pool's threads. The first batch of a check may take a thread whose context was made
//! ahead ([`prewarm`], while the check reads the spec and lists the project, for a small project
//! only), which starts as any other: every context is readied by solving one fixed slice when it
//! is made ([`ready_solver`]). A batch's slices share that solver, each loaded in a scope of its
//! own that is popped once it is decided ([`solve_in`]).
//! No answer depends on the rest of the batch: sat and unsat are facts about the slice, the
//! resource limit counts from the start of each check, and the core is canonical:
//! [`minimal_core`] reduces Z3's core to the one minimal core that deletion in literal order
//! gives, using Z3's cores only as certificates.
//! The parameters: `model=false` (the check never reads a model) and
//! `tactic.default_tactic=smt`: with assumptions Z3 always answers with its incremental SMT
//! core, and the setting spares building Z3's default tactic tree (about 6 ms a solver), which
//! the check never runs.
//! After loading the text, the solver's assertion count must equal the encoder's; any mismatch
//! (a script Z3 could not parse loads nothing and would answer sat) makes the slice `error`.

use std::collections::BTreeSet;
use std::sync::{mpsc, Mutex, Once, PoisonError};
use std::time::{Duration, Instant};

use policies::smt::{Slice, SliceBuilder};
use rayon::prelude::*;

/// The outcome of one slice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SliceStatus {
    /// The rule holds for the slice's facts.
    Sat,
    /// The facts contradict the rule: a proven violation.
    Unsat,
    /// The solver stopped (resource limit or timeout).
    Unknown,
    /// The slice could not be loaded.
    Error,
}

impl SliceStatus {
    /// Wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Sat => "sat",
            Self::Unsat => "unsat",
            Self::Unknown => "unknown",
            Self::Error => "error",
        }
    }
}

/// Limits for one slice.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Z3 resource limit (deterministic).
    pub rlimit: u32,
    /// Wall-clock safety net.
    pub timeout_ms: u32,
}

/// What solving one slice gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolveOutcome {
    /// Status.
    pub status: SliceStatus,
    /// For unsat: the literals (unquoted, `a!N`) of the core, in literal order.
    pub core: Vec<String>,
    /// For unknown/error: why.
    pub reason: Option<String>,
    /// Resource units used, when Z3 reports them.
    pub rlimit_used: Option<u64>,
    /// Wall time.
    pub elapsed_ms: u64,
}

/// A slice solver.
pub trait Solver: Sync {
    /// Solves one slice.
    fn solve(&self, slice: &Slice, limits: Limits) -> SolveOutcome;

    /// Called when a check starts, before the project is read: a backend may make ready what
    /// its first batch will need.
    fn warm_up(&self) {}

    /// Solves consecutive slices, in order; the outcomes are in input order. A backend may share
    /// set-up between them, as long as no answer depends on what else is in the batch.
    fn solve_batch(&self, slices: &[&Slice], limits: Limits) -> Vec<SolveOutcome> {
        slices
            .iter()
            .map(|slice| self.solve(slice, limits))
            .collect()
    }
}

/// The Z3 backend (system libz3, linked dynamically).
#[derive(Debug, Default, Clone, Copy)]
pub struct Z3Solver;

fn literal_order(literal: &str) -> u64 {
    literal
        .strip_prefix("a!")
        .and_then(|number| number.parse().ok())
        .unwrap_or(u64::MAX)
}

/// Sets the process-wide Z3 parameters once, before the first context is made.
fn configure_z3() {
    static CONFIGURED: Once = Once::new();
    CONFIGURED.call_once(|| {
        z3::set_global_param("model", "false");
        z3::set_global_param("tactic.default_tactic", "smt");
    });
}

/// Stack of a solving thread: Z3 recurses over terms, so it gets more than a default thread
/// (only the pages it touches are resident).
const SOLVER_STACK_BYTES: usize = 64 * 1024 * 1024;

/// A solver thread started before it is needed, with its fresh Z3 context made: it runs the
/// one job sent to it, then ends with its context (see [`prewarm`]).
struct Warm {
    jobs: mpsc::Sender<WarmJob>,
}

type WarmJob = Box<dyn FnOnce(&z3::Solver) + Send>;

impl Warm {
    /// Starts the thread, which makes its context at once; `None` if it cannot be started.
    fn start() -> Option<Self> {
        let (jobs, waiting) = mpsc::channel::<WarmJob>();
        std::thread::Builder::new()
            .name("lintel-z3".into())
            .stack_size(SOLVER_STACK_BYTES)
            .spawn(move || {
                configure_z3();
                let solver = ready_solver();
                if let Ok(job) = waiting.recv() {
                    job(&solver);
                }
            })
            .ok()?;
        Some(Self { jobs })
    }

    /// Solves `slices` in the thread's context, as [`in_fresh_context`] would in a new one;
    /// `None` when the thread ended before it could take the job (the caller makes a fresh
    /// one). The slices are copied to it, as the thread outlives this call's borrows.
    fn solve(self, slices: &[&Slice], limits: Limits) -> Option<Vec<SolveOutcome>> {
        let owned: Vec<Slice> = slices.iter().map(|slice| (*slice).clone()).collect();
        let count = owned.len();
        let (send, solved) = mpsc::channel();
        let job: WarmJob = Box::new(move |solver| {
            let outcomes = solve_in(solver, owned.iter(), limits);
            // The caller waits for this, so it is still there.
            let _ = send.send(outcomes);
        });
        self.jobs.send(job).ok()?;
        Some(solved.recv().unwrap_or_else(|_| {
            vec![SolveOutcome::error("the solver stopped unexpectedly (panic)".into()); count]
        }))
    }
}

/// The warm solver thread of the process, if one is waiting.
static WARM: Mutex<Option<Warm>> = Mutex::new(None);

/// Starts a solver thread that makes its Z3 context now, while the check is still reading the
/// spec and listing the project, with a core to spare: making a context takes about 9 ms, which
/// a small project's check would otherwise spend after extraction, on one core. The first batch
/// solved takes it ([`Z3Solver`]); until then it waits with its context (about 17 MB). At most
/// one waits.
pub fn prewarm() {
    let mut slot = WARM.lock().unwrap_or_else(PoisonError::into_inner);
    if slot.is_none() {
        *slot = Warm::start();
    }
}

/// Solves `slices` on the warm solver thread when one is waiting ([`Warm::solve`]).
fn solve_warm(slices: &[&Slice], limits: Limits) -> Option<Vec<SolveOutcome>> {
    let warm = WARM.lock().unwrap_or_else(PoisonError::into_inner).take()?;
    warm.solve(slices, limits)
}

/// Makes the thread's Z3 context and a solver in it, readied by solving one fixed slice: Z3 sets
/// up its SMT-LIB reader on first use, once per process (about 10 ms), and a solver's machinery
/// on its first load, which the first real slice would otherwise pay. Every context the checks
/// solve in is readied the same way, made ahead or not, so each starts from the same state.
fn ready_solver() -> z3::Solver {
    let slice = two_hop_reach();
    let solver = z3::Solver::new();
    let _ = solve_in(
        &solver,
        [&slice].into_iter(),
        Limits {
            rlimit: 5_000_000,
            timeout_ms: 10_000,
        },
    );
    solver
}

/// The slice of `deny reach A -> C` against the edges `A -> B` and `B -> C` (unsat).
fn two_hop_reach() -> Slice {
    let mut builder = SliceBuilder::new("deny reach A -> C");
    builder.deny_reach("rule".into(), "A", "C");
    builder.reach_closure();
    builder.edge_fact("ab".into(), None, "A", "B");
    builder.edge_fact("bc".into(), None, "B", "C");
    builder.distinct_entities();
    builder.finish()
}

/// Runs `solve` on a new thread, so in a fresh Z3 context that ends with the thread, with the
/// solver [`ready_solver`] made there. A thread that cannot be started or that panics makes each
/// of the `count` slices `error`.
fn in_fresh_context(
    count: usize,
    solve: impl FnOnce(&z3::Solver) -> Vec<SolveOutcome> + Send,
) -> Vec<SolveOutcome> {
    configure_z3();
    let failed = |reason: String| vec![SolveOutcome::error(reason); count];
    std::thread::scope(|scope| {
        match std::thread::Builder::new()
            .name("lintel-z3".into())
            .stack_size(SOLVER_STACK_BYTES)
            .spawn_scoped(scope, || solve(&ready_solver()))
        {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|_| failed("the solver stopped unexpectedly (panic)".into())),
            Err(error) => failed(format!("could not start a solver thread: {error}")),
        }
    })
}

/// The context-wide resource count Z3 reports through `solver`'s statistics.
fn resource_count(solver: &z3::Solver) -> Option<u64> {
    solver
        .get_statistics()
        .value("rlimit count")
        .map(|value| match value {
            z3::StatisticsValue::UInt(count) => u64::from(count),
            z3::StatisticsValue::Double(count) => count as u64,
        })
}

/// Solves `slices` in order with `solver`, which holds no assertion: each slice is loaded in a
/// scope of its own (`push`), popped once it is decided, so the solver holds one slice at a time
/// and is set up once (Z3 builds a solver's machinery on its first load: about a third of a
/// small slice's time).
fn solve_in<'s>(
    solver: &z3::Solver,
    slices: impl Iterator<Item = &'s Slice>,
    limits: Limits,
) -> Vec<SolveOutcome> {
    let mut params = z3::Params::new();
    params.set_u32("rlimit", limits.rlimit);
    params.set_u32("timeout", limits.timeout_ms);
    solver.set_params(&params);
    slices
        .map(|slice| {
            solver.push();
            let outcome = solve_here(solver, slice, limits);
            solver.pop(1);
            outcome
        })
        .collect()
}

/// Solves one slice in `solver`, which holds no other assertion.
fn solve_here(solver: &z3::Solver, slice: &Slice, limits: Limits) -> SolveOutcome {
    let started = Instant::now();
    let mut outcome = decide(solver, slice, limits, started);
    outcome.elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    // A core that is empty or names literals the slice does not have cannot be a proof: fail closed.
    if outcome.status == SliceStatus::Unsat
        && (outcome.core.is_empty()
            || outcome
                .core
                .iter()
                .any(|literal| slice.assertion(literal).is_none()))
    {
        outcome.status = SliceStatus::Error;
        outcome.reason = Some(format!(
            "the unsat core does not map to tracked assertions: {:?}",
            outcome.core
        ));
    }
    outcome
}

fn decide(solver: &z3::Solver, slice: &Slice, limits: Limits, started: Instant) -> SolveOutcome {
    if slice.text.contains('\0') {
        return SolveOutcome::error("slice text contains a NUL byte".into());
    }
    solver.from_string(slice.text.as_str());
    let loaded = solver.get_assertions().len();
    let expected = slice.assertion_count();
    if loaded != expected {
        return SolveOutcome::error(format!(
            "load check failed: the solver holds {loaded} assertions, the encoder emitted {expected}"
        ));
    }
    let literals = assumption_literals(slice);
    let assumptions: Vec<z3::ast::Bool> = literals.iter().map(|(_, ast)| ast.clone()).collect();
    // The count is the context's: what this slice used is the difference (the limit itself
    // is counted from where the check starts).
    let before = resource_count(solver).unwrap_or(0);
    let result = solver.check_assumptions(&assumptions);
    let rlimit_used = resource_count(solver).map(|after| after.saturating_sub(before));
    match result {
        z3::SatResult::Sat => SolveOutcome::decided(SliceStatus::Sat, Vec::new(), rlimit_used),
        z3::SatResult::Unsat => {
            let necessary: BTreeSet<&str> = slice
                .tracked
                .iter()
                .filter(|tracked| tracked.necessary)
                .map(|tracked| tracked.literal.as_str())
                .collect();
            let core = minimal_core(solver, &literals, &necessary, u64::from(limits.rlimit));
            SolveOutcome::decided(SliceStatus::Unsat, core, rlimit_used)
        }
        z3::SatResult::Unknown => {
            let reason = solver.get_reason_unknown().unwrap_or_default();
            // Z3 4.8.12 says `canceled` for both limits: the wall clock tells them apart.
            let timed_out = started.elapsed().as_millis() >= u128::from(limits.timeout_ms);
            let reason = if reason.contains("timeout") || (reason.contains("canceled") && timed_out)
            {
                "timeout".to_owned()
            } else if reason.contains("resource")
                || reason.contains("rlimit")
                || reason.contains("canceled")
            {
                "rlimit".to_owned()
            } else if reason.is_empty() {
                "unknown".to_owned()
            } else {
                reason
            };
            SolveOutcome {
                status: SliceStatus::Unknown,
                core: Vec::new(),
                reason: Some(reason),
                rlimit_used,
                elapsed_ms: 0,
            }
        }
    }
}

/// The slice's tracked literals as Z3 constants of the current context, in literal order.
fn assumption_literals(slice: &Slice) -> Vec<(&str, z3::ast::Bool)> {
    let mut literals: Vec<(&str, z3::ast::Bool)> = slice
        .tracked
        .iter()
        .map(|tracked| {
            (
                tracked.literal.as_str(),
                z3::ast::Bool::new_const(tracked.literal.as_str()),
            )
        })
        .collect();
    literals.sort_by_key(|(literal, _)| literal_order(literal));
    literals
}

/// The literals of a core returned by the last check, unquoted.
fn returned_core(solver: &z3::Solver) -> BTreeSet<String> {
    solver
        .get_unsat_core()
        .iter()
        .map(|literal| literal.to_string().trim_matches('|').to_owned())
        .collect()
}

/// The canonical minimal core of an unsat slice: deletion in literal order over all the slice's
/// literals (`literals`, sorted), keeping a literal exactly when the others left without it are
/// satisfiable. Z3's cores only certify: a literal outside the last core is dropped without a
/// check, because the set left still holds that core and so is unsat. Every decision is the truth
/// of "the set without this literal is unsat", never a choice of Z3's, so the core is the same
/// whatever Z3 returned, in any context; it is minimal (dropping any literal makes it
/// satisfiable). A check that ends `unknown` keeps its literal.
///
/// The checks together may use `budget` resource units (the slice's limit: minimising costs at
/// most about one more solve); once they have, the literals still to decide that the last core
/// names are kept unchecked. The core is then still a core (it holds the last one), only maybe
/// not minimal, and it is the same on every run, as the resource count is.
///
/// A literal in `necessary` (a step of a ground chain, needed by construction: dropping it
/// leaves the chain's conclusion underivable) is kept without a check when the core holds it,
/// which is what its check would answer: a 1,000-file chain is minimised without 3,000 checks.
fn minimal_core(
    solver: &z3::Solver,
    literals: &[(&str, z3::ast::Bool)],
    necessary: &BTreeSet<&str>,
    budget: u64,
) -> Vec<String> {
    let start = resource_count(solver).unwrap_or(0);
    let mut witness = returned_core(solver);
    let mut kept = vec![true; literals.len()];
    for (position, (literal, _)) in literals.iter().enumerate() {
        if !witness.contains(*literal) {
            if let Some(flag) = kept.get_mut(position) {
                *flag = false;
            }
            continue;
        }
        if necessary.contains(literal) {
            continue;
        }
        let spent = resource_count(solver).map_or(0, |now| now.saturating_sub(start));
        if spent >= budget {
            continue;
        }
        if let Some(flag) = kept.get_mut(position) {
            *flag = false;
        }
        let remaining: Vec<z3::ast::Bool> = literals
            .iter()
            .zip(&kept)
            .filter(|(_, keep)| **keep)
            .map(|((_, ast), _)| ast.clone())
            .collect();
        if solver.check_assumptions(&remaining) == z3::SatResult::Unsat {
            witness = returned_core(solver);
        } else if let Some(flag) = kept.get_mut(position) {
            *flag = true;
        }
    }
    literals
        .iter()
        .zip(&kept)
        .filter(|(_, keep)| **keep)
        .map(|((literal, _), _)| (*literal).to_owned())
        .collect()
}

impl Solver for Z3Solver {
    fn warm_up(&self) {
        prewarm();
    }

    fn solve(&self, slice: &Slice, limits: Limits) -> SolveOutcome {
        self.solve_batch(&[slice], limits)
            .pop()
            .unwrap_or_else(|| SolveOutcome::error("the solver gave no outcome".into()))
    }

    /// The slices share one fresh Z3 context and solver, a scope each; as cores are canonical
    /// ([`minimal_core`]) and limits count from each check's start, an answer does not depend
    /// on the rest of the batch.
    fn solve_batch(&self, slices: &[&Slice], limits: Limits) -> Vec<SolveOutcome> {
        if slices.is_empty() {
            return Vec::new();
        }
        if let Some(outcomes) = solve_warm(slices, limits) {
            return outcomes;
        }
        in_fresh_context(slices.len(), |solver| {
            solve_in(solver, slices.iter().copied(), limits)
        })
    }
}

/// One slice as a [`RecordingSolver`] saw it, with what the wrapped backend answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    /// The slice, as the engine handed it over.
    pub slice: Slice,
    /// The wrapped backend's outcome, as returned to the engine.
    pub outcome: SolveOutcome,
}

/// A backend for tests: hands each slice to the backend it wraps and records the
/// slice and the outcome, so a test can see exactly what the engine asked and was told, and
/// replay it. Batches stay batches: the wrapped backend's set-up is shared as in a real run.
#[derive(Debug, Default)]
pub struct RecordingSolver<S> {
    inner: S,
    log: std::sync::Mutex<Vec<Recorded>>,
}

impl<S: Solver> RecordingSolver<S> {
    /// Records what `inner` is asked and answers.
    pub fn new(inner: S) -> Self {
        Self {
            inner,
            log: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// Everything recorded so far, in the order the batches finished (which, with more than
    /// one worker, depends on the schedule: sort before comparing runs).
    pub fn recorded(&self) -> Vec<Recorded> {
        self.log
            .lock()
            .map(|log| log.clone())
            .unwrap_or_else(|poisoned| poisoned.into_inner().clone())
    }

    fn record(&self, slices: &[&Slice], outcomes: &[SolveOutcome]) {
        let mut log = self
            .log
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        log.extend(
            slices
                .iter()
                .zip(outcomes)
                .map(|(slice, outcome)| Recorded {
                    slice: (*slice).clone(),
                    outcome: outcome.clone(),
                }),
        );
    }
}

impl<S: Solver> Solver for RecordingSolver<S> {
    fn warm_up(&self) {
        self.inner.warm_up();
    }

    fn solve(&self, slice: &Slice, limits: Limits) -> SolveOutcome {
        let outcome = self.inner.solve(slice, limits);
        self.record(&[slice], std::slice::from_ref(&outcome));
        outcome
    }

    fn solve_batch(&self, slices: &[&Slice], limits: Limits) -> Vec<SolveOutcome> {
        let outcomes = self.inner.solve_batch(slices, limits);
        self.record(slices, &outcomes);
        outcomes
    }
}

impl SolveOutcome {
    fn unknown(reason: String) -> Self {
        Self {
            status: SliceStatus::Unknown,
            core: Vec::new(),
            reason: Some(reason),
            rlimit_used: None,
            elapsed_ms: 0,
        }
    }

    fn error(reason: String) -> Self {
        Self {
            status: SliceStatus::Error,
            core: Vec::new(),
            reason: Some(reason),
            rlimit_used: None,
            elapsed_ms: 0,
        }
    }

    fn decided(status: SliceStatus, core: Vec<String>, rlimit_used: Option<u64>) -> Self {
        Self {
            status,
            core,
            reason: None,
            rlimit_used,
            elapsed_ms: 0,
        }
    }
}

/// Slices solved one after another in one fresh Z3 context. A context takes milliseconds and
/// about 17 MB to make, a small slice microseconds to solve; batches of consecutive slices (in
/// input order, so the same for any thread count) spare most of the making, and a worker holds
/// one context at a time.
const SLICES_PER_CONTEXT: usize = 64;

/// Up to this many slices, with up to [`SEQUENTIAL_TEXT_BYTES`] of text in all, are solved as
/// one batch in one context: then a single context is ever made (about 17 MB less than with a
/// second worker, and 7–10 ms less than making one per [`SLICES_PER_CONTEXT`]), and solving
/// them takes a fraction of a second (a small slice takes under a millisecond, most of it Z3's
/// set-up for reading the text and the checks that minimise its core).
const SEQUENTIAL_SLICES: usize = 1024;

/// See [`SEQUENTIAL_SLICES`]: the text a slice holds grows with the facts and closures it asks
/// Z3 to reason about, so a few large slices are worth a second worker.
const SEQUENTIAL_TEXT_BYTES: usize = 2 * 1024 * 1024;

/// Solves every slice: a small run ([`SEQUENTIAL_SLICES`]) as one batch, else in batches of
/// [`SLICES_PER_CONTEXT`] in parallel on the current rayon pool. Either way the batches depend
/// on the slices only, never on the thread count. The result order is the input order.
/// `solved` is told how many slices each finished batch held (for the progress line).
///
/// `budget` bounds the whole solving phase by the wall clock: a batch that would start after it
/// has run out is not solved, and each of its slices is `unknown` with reason `budget`, so that
/// a spec of thousands of slices fails closed in bounded time (like the per-slice timeout, this
/// safety net depends on the machine; the resource limit is what decides on realistic input).
pub fn solve_all_reporting(
    solver: &dyn Solver,
    slices: &[&Slice],
    limits: Limits,
    budget: Duration,
    solved: &(dyn Fn(usize) + Sync),
) -> Vec<SolveOutcome> {
    let deadline = Instant::now().checked_add(budget);
    let text_bytes: usize = slices.iter().map(|slice| slice.text.len()).sum();
    let within_budget = |batch: &[&Slice]| {
        if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            let reason = format!(
                "budget: the solving phase ran out of its {} ms budget (`--solve-budget-ms`) before this slice",
                budget.as_millis()
            );
            return batch
                .iter()
                .map(|_| SolveOutcome::unknown(reason.clone()))
                .collect();
        }
        solver.solve_batch(batch, limits)
    };
    let batches: Vec<Vec<SolveOutcome>> =
        if slices.len() <= SEQUENTIAL_SLICES && text_bytes <= SEQUENTIAL_TEXT_BYTES {
            let outcomes = within_budget(slices);
            solved(slices.len());
            vec![outcomes]
        } else {
            slices
                .par_chunks(SLICES_PER_CONTEXT)
                .map(|batch| {
                    let outcomes = within_budget(batch);
                    solved(batch.len());
                    outcomes
                })
                .collect()
        };
    batches.into_iter().flatten().collect()
}

/// The default of `--solve-budget-ms`: five minutes for the whole solving phase.
pub const DEFAULT_SOLVE_BUDGET_MS: u64 = 300_000;

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            rlimit: 5_000_000,
            timeout_ms: 10_000,
        }
    }

    /// `deny flow A -> B` against one `A -> B` edge fact per name, solved.
    fn deny_flow_against(facts: &[&str]) -> SolveOutcome {
        let mut builder = SliceBuilder::new("deny flow A -> B");
        builder.deny_edge("rule".into(), "A", "B");
        for name in facts {
            builder.edge_fact((*name).into(), Some((*name).into()), "A", "B");
        }
        let outcome = Z3Solver.solve(&builder.finish(), limits());
        assert_eq!(outcome.status, SliceStatus::Unsat, "{outcome:?}");
        outcome
    }

    /// A context made ahead, before the slices exist, answers as a fresh one does: the same
    /// statuses and cores, in order.
    #[test]
    fn a_context_made_ahead_answers_as_a_fresh_one() {
        let mut violated = SliceBuilder::new("deny flow A -> B");
        violated.deny_edge("rule".into(), "A", "B");
        violated.edge_fact("first".into(), Some("first".into()), "A", "B");
        violated.edge_fact("second".into(), Some("second".into()), "A", "B");
        let mut held = SliceBuilder::new("deny flow A -> C");
        held.deny_edge("rule".into(), "A", "C");
        held.edge_fact("fact".into(), Some("fact".into()), "A", "B");
        let slices = [violated.finish(), held.finish()];
        let slices: Vec<&Slice> = slices.iter().collect();
        let answers = |outcomes: Vec<SolveOutcome>| -> Vec<(SliceStatus, Vec<String>)> {
            outcomes
                .into_iter()
                .map(|outcome| (outcome.status, outcome.core))
                .collect()
        };
        let warm = Warm::start().expect("a solver thread");
        let ahead = warm
            .solve(&slices, limits())
            .expect("the thread takes the job");
        let fresh = in_fresh_context(slices.len(), |solver| {
            solve_in(solver, slices.iter().copied(), limits())
        });
        assert_eq!(answers(ahead.clone()), answers(fresh));
        assert_eq!(
            answers(ahead),
            [
                (SliceStatus::Unsat, vec!["a!0".to_owned(), "a!2".to_owned()]),
                (SliceStatus::Sat, Vec::new()),
            ]
        );
    }

    #[test]
    fn contradicting_fact_is_unsat_with_rule_and_fact_in_core() {
        assert_eq!(deny_flow_against(&["fact"]).core, ["a!0", "a!1"]);
    }

    #[test]
    fn the_core_is_the_minimal_one_deletion_in_literal_order_gives() {
        // Two facts contradict the rule each: deletion in literal order drops the first (the
        // rest still contradict) and keeps the last, whatever core Z3 returned.
        assert_eq!(deny_flow_against(&["first", "second"]).core, ["a!0", "a!2"]);
    }

    #[test]
    fn with_no_budget_left_the_core_is_the_last_certificate() {
        let mut builder = SliceBuilder::new("deny flow A -> B");
        builder.deny_edge("rule".into(), "A", "B");
        for name in ["first", "second", "third"] {
            builder.edge_fact(name.into(), Some(name.into()), "A", "B");
        }
        let slice = builder.finish();
        // On the test's own thread, in its default context.
        configure_z3();
        let solver = z3::Solver::new();
        solver.from_string(slice.text.as_str());
        let literals = assumption_literals(&slice);
        let all: Vec<z3::ast::Bool> = literals.iter().map(|(_, ast)| ast.clone()).collect();
        assert_eq!(solver.check_assumptions(&all), z3::SatResult::Unsat);
        let certificate: Vec<String> = literals
            .iter()
            .filter(|(literal, _)| returned_core(&solver).contains(*literal))
            .map(|(literal, _)| (*literal).to_owned())
            .collect();
        assert_eq!(
            minimal_core(&solver, &literals, &BTreeSet::new(), 0),
            certificate
        );
        // With a budget, the same certificate is cut down to the canonical core.
        assert_eq!(
            minimal_core(&solver, &literals, &BTreeSet::new(), u64::MAX),
            ["a!0", "a!3"]
        );
    }

    #[test]
    fn a_batch_answers_each_slice_as_it_is_answered_alone() {
        let slice = |facts: &[(&str, &str)], rule: (&str, &str)| {
            let mut builder = SliceBuilder::new("deny reach");
            builder.deny_reach("rule".into(), rule.0, rule.1);
            builder.reach_closure();
            for (from, to) in facts {
                builder.edge_fact(format!("{from}->{to}"), None, from, to);
            }
            builder.distinct_entities();
            builder.finish()
        };
        let slices = [
            slice(&[("A", "B"), ("B", "C"), ("A", "C")], ("A", "C")),
            slice(&[("X", "Y")], ("Y", "X")),
            slice(&[("P", "Q"), ("Q", "R"), ("R", "S")], ("P", "S")),
            slice(&[("A", "B"), ("B", "C"), ("A", "C")], ("A", "C")),
        ];
        let batch: Vec<&Slice> = slices.iter().collect();
        let together = Z3Solver.solve_batch(&batch, limits());
        let alone: Vec<SolveOutcome> = slices.iter().map(|s| Z3Solver.solve(s, limits())).collect();
        let answers = |outcomes: &[SolveOutcome]| -> Vec<(SliceStatus, Vec<String>)> {
            outcomes
                .iter()
                .map(|o| (o.status, o.core.clone()))
                .collect()
        };
        assert_eq!(answers(&together), answers(&alone));
        assert_eq!(
            together.iter().map(|o| o.status).collect::<Vec<_>>(),
            [
                SliceStatus::Unsat,
                SliceStatus::Sat,
                SliceStatus::Unsat,
                SliceStatus::Unsat
            ]
        );
        assert_eq!(together[0].core, together[3].core);
    }

    #[test]
    fn reach_through_two_hops_is_proved_by_the_closure() {
        let slice = two_hop_reach();
        let outcome = Z3Solver.solve(&slice, limits());
        assert_eq!(outcome.status, SliceStatus::Unsat, "{outcome:?}");
        assert!(outcome.core.contains(&"a!0".to_owned()));
        assert!(
            outcome.core.contains(&"a!3".to_owned()) && outcome.core.contains(&"a!4".to_owned())
        );
    }

    #[test]
    fn bypass_through_via_member_is_sat_and_around_it_unsat() {
        let build = |edges: &[(&str, &str)]| {
            let mut builder = SliceBuilder::new("require flow A -> B via V");
            builder.deny_bypass("rule".into(), "A", "B");
            builder.via_closure(&["V".to_owned()]);
            for (from, to) in edges {
                builder.edge_fact(format!("{from}->{to}"), None, from, to);
            }
            builder.distinct_entities();
            builder.finish()
        };
        let through = Z3Solver.solve(&build(&[("A", "V"), ("V", "B")]), limits());
        assert_eq!(through.status, SliceStatus::Sat);
        let around = Z3Solver.solve(&build(&[("A", "W"), ("W", "B")]), limits());
        assert_eq!(around.status, SliceStatus::Unsat);
    }

    /// `deny reach App -> Server` (or a bypass of `{Gate}`) against a ground chain of `hops`
    /// edges through unowned files, each interior file owned by `interior_owner` if given.
    fn chain_slice(hops: usize, via: Option<&[String]>, interior_owner: Option<&str>) -> Slice {
        use policies::smt::{ChainHop, ChainRelation, ChainVertex};
        let paths: Vec<String> = (0..=hops).map(|index| format!("f{index:04}.ts")).collect();
        let vertices: Vec<ChainVertex<'_>> = paths
            .iter()
            .enumerate()
            .map(|(index, path)| ChainVertex::File {
                path,
                owner: if index == 0 {
                    Some("App")
                } else if index == hops {
                    Some("Server")
                } else {
                    interior_owner
                },
            })
            .collect();
        let chain: Vec<ChainHop> = (0..hops)
            .map(|index| ChainHop {
                name: format!("fact {index}"),
                fact_id: Some(format!("f{index}")),
            })
            .collect();
        let mut builder = SliceBuilder::new("chain");
        let relation = match via {
            Some(via) => {
                builder.deny_bypass("rule".into(), "App", "Server");
                ChainRelation::Bypass { via }
            }
            None => {
                builder.deny_reach("rule".into(), "App", "Server");
                ChainRelation::Reach
            }
        };
        builder.chain(relation, "App", "Server", &vertices, &chain);
        builder.finish()
    }

    /// The ground chain leaves Z3 nothing to instantiate: 1,000 hops are proved like 2, and
    /// every assertion is in the core (the rule and each step).
    #[test]
    fn a_thousand_file_chain_is_proved_with_every_step_in_its_core() {
        for hops in [1, 2, 30, 1_000] {
            let slice = chain_slice(hops, None, None);
            let outcome = Z3Solver.solve(&slice, limits());
            assert_eq!(outcome.status, SliceStatus::Unsat, "{hops}: {outcome:?}");
            assert_eq!(outcome.core.len(), slice.assertion_count(), "{hops}");
        }
        let via = ["Gate".to_owned()];
        let slice = chain_slice(1_000, Some(&via), Some("Shared"));
        let outcome = Z3Solver.solve(&slice, limits());
        assert_eq!(outcome.status, SliceStatus::Unsat, "{outcome:?}");
        assert_eq!(outcome.core.len(), slice.assertion_count());
    }

    /// Keeping a chain step without a check gives the core that deletion with a check per
    /// literal gives.
    #[test]
    fn chain_steps_kept_unchecked_are_the_core_deletion_gives() {
        let via = ["Gate".to_owned()];
        for (via, owner) in [
            (None, None),
            (Some(&via[..]), None),
            (Some(&via[..]), Some("Shared")),
        ] {
            let slice = chain_slice(5, via, owner);
            let checked = in_fresh_context(1, |solver| {
                solver.from_string(slice.text.as_str());
                let literals = assumption_literals(&slice);
                let assumptions: Vec<z3::ast::Bool> =
                    literals.iter().map(|(_, ast)| ast.clone()).collect();
                assert_eq!(solver.check_assumptions(&assumptions), z3::SatResult::Unsat);
                let core = minimal_core(solver, &literals, &BTreeSet::new(), u64::MAX);
                vec![SolveOutcome::decided(SliceStatus::Unsat, core, None)]
            });
            let unchecked = Z3Solver.solve(&slice, limits());
            assert_eq!(
                checked.first().map(|outcome| &outcome.core),
                Some(&unchecked.core)
            );
        }
    }

    #[test]
    fn a_script_that_does_not_parse_fails_closed() {
        let mut builder = SliceBuilder::new("broken");
        builder.deny_edge("rule".into(), "A", "B");
        let mut slice = builder.finish();
        slice.text.push_str("(assert (edge |entity:A|\n");
        let outcome = Z3Solver.solve(&slice, limits());
        assert_eq!(outcome.status, SliceStatus::Error, "{outcome:?}");
    }

    #[test]
    fn a_slice_that_does_not_load_leaves_the_next_of_its_batch_answered_as_alone() {
        let mut broken = SliceBuilder::new("broken");
        broken.deny_edge("rule".into(), "A", "B");
        broken.edge_fact("fact".into(), Some("fact".into()), "A", "B");
        let mut broken = broken.finish();
        broken.text.push_str("(assert (edge |entity:A|\n");
        let mut held = SliceBuilder::new("deny flow A -> C");
        held.deny_edge("rule".into(), "A", "C");
        held.edge_fact("fact".into(), Some("fact".into()), "A", "B");
        let held = held.finish();
        let mut violated = SliceBuilder::new("deny flow A -> B");
        violated.deny_edge("rule".into(), "A", "B");
        violated.edge_fact("fact".into(), Some("fact".into()), "A", "B");
        let violated = violated.finish();
        let outcomes = Z3Solver.solve_batch(&[&broken, &held, &violated, &broken], limits());
        let answers: Vec<(SliceStatus, Vec<String>)> = outcomes
            .into_iter()
            .map(|outcome| (outcome.status, outcome.core))
            .collect();
        assert_eq!(
            answers,
            [
                (SliceStatus::Error, Vec::new()),
                (SliceStatus::Sat, Vec::new()),
                (SliceStatus::Unsat, vec!["a!0".to_owned(), "a!1".to_owned()]),
                (SliceStatus::Error, Vec::new()),
            ]
        );
    }

    #[test]
    fn a_tiny_resource_limit_gives_unknown() {
        let mut builder = SliceBuilder::new("deny reach A -> C");
        builder.deny_reach("rule".into(), "A", "C");
        builder.reach_closure();
        builder.edge_fact("ab".into(), None, "A", "B");
        builder.edge_fact("bc".into(), None, "B", "C");
        let outcome = Z3Solver.solve(
            &builder.finish(),
            Limits {
                rlimit: 1,
                timeout_ms: 10_000,
            },
        );
        assert_eq!(outcome.status, SliceStatus::Unknown, "{outcome:?}");
        assert_eq!(outcome.reason.as_deref(), Some("rlimit"));
    }
}
