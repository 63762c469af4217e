//! Solving rule slices: a [`Solver`] trait with the Z3 backend (`style.md` §8, `language.md` §3.8).
//!
//! Each slice is solved in a fresh Z3 context, on a short-lived thread of its own that the rayon
//! worker waits for: the `z3` crate's thread-local default context of that thread is made for
//! the slice and dropped when the thread ends. So Z3 objects never cross threads, no state
//! carries over from one slice to the next (the outcome, the core and the resource count depend
//! on the slice text only), and a worker holds one context (about 17 MB, zero-filled when made)
//! only while it solves: none stays behind on the pool's threads. Starting a thread costs tens
//! of microseconds; making the context, which every slice needs anyway, milliseconds.
//! The parameters: `model=false` (the check never reads a model) and
//! `tactic.default_tactic=smt`: with assumptions Z3 always answers with its incremental SMT
//! core, and the setting spares building Z3's default tactic tree (about 6 ms a solver), which
//! the check never runs.
//! After loading the text, the solver's assertion count must equal the encoder's; any mismatch
//! (a script Z3 could not parse loads nothing and would answer sat) makes the slice `error`.

use std::sync::Once;
use std::time::Instant;

use policies::smt::Slice;
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

/// Runs `solve` on a new thread, so in a fresh Z3 context that ends with the thread. A thread that
/// cannot be started or that panics makes the slice `error`.
fn in_fresh_context(solve: impl FnOnce() -> SolveOutcome + Send) -> SolveOutcome {
    configure_z3();
    std::thread::scope(|scope| {
        match std::thread::Builder::new()
            .name("lintel-z3".into())
            .stack_size(SOLVER_STACK_BYTES)
            .spawn_scoped(scope, solve)
        {
            Ok(handle) => handle.join().unwrap_or_else(|_| {
                SolveOutcome::error("the solver stopped unexpectedly (panic)".into())
            }),
            Err(error) => SolveOutcome::error(format!("could not start a solver thread: {error}")),
        }
    })
}

impl Solver for Z3Solver {
    fn solve(&self, slice: &Slice, limits: Limits) -> SolveOutcome {
        let started = Instant::now();
        let text = slice.text.clone();
        let expected = slice.assertion_count();
        let literals: Vec<String> = slice
            .tracked
            .iter()
            .map(|tracked| tracked.literal.clone())
            .collect();
        let mut outcome = in_fresh_context(move || {
            if text.contains('\0') {
                return SolveOutcome::error("slice text contains a NUL byte".into());
            }
            let solver = z3::Solver::new();
            let mut params = z3::Params::new();
            params.set_u32("rlimit", limits.rlimit);
            params.set_u32("timeout", limits.timeout_ms);
            solver.set_params(&params);
            solver.from_string(text);
            let loaded = solver.get_assertions().len();
            if loaded != expected {
                return SolveOutcome::error(format!(
                    "load check failed: the solver holds {loaded} assertions, the encoder emitted {expected}"
                ));
            }
            let assumptions: Vec<z3::ast::Bool> = literals
                .iter()
                .map(|literal| z3::ast::Bool::new_const(literal.as_str()))
                .collect();
            let result = solver.check_assumptions(&assumptions);
            let rlimit_used =
                solver
                    .get_statistics()
                    .value("rlimit count")
                    .map(|value| match value {
                        z3::StatisticsValue::UInt(count) => u64::from(count),
                        z3::StatisticsValue::Double(count) => count as u64,
                    });
            match result {
                z3::SatResult::Sat => {
                    SolveOutcome::decided(SliceStatus::Sat, Vec::new(), rlimit_used)
                }
                z3::SatResult::Unsat => {
                    let mut core: Vec<String> = solver
                        .get_unsat_core()
                        .iter()
                        .map(|literal| literal.to_string().trim_matches('|').to_owned())
                        .collect();
                    core.sort_by_key(|literal| literal_order(literal));
                    core.dedup();
                    SolveOutcome::decided(SliceStatus::Unsat, core, rlimit_used)
                }
                z3::SatResult::Unknown => {
                    let reason = solver.get_reason_unknown().unwrap_or_default();
                    // Z3 4.8.12 says `canceled` for both limits: the wall clock tells them apart.
                    let timed_out = started.elapsed().as_millis() >= u128::from(limits.timeout_ms);
                    let reason = if reason.contains("timeout")
                        || (reason.contains("canceled") && timed_out)
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
        });
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
}

impl SolveOutcome {
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

/// The fewest slices a worker thread takes on: every worker that solves holds a Z3 context
/// (about 17 MB) while it does, so a few slices are solved on one worker: a second one would
/// cost more memory than the time it saves.
const SLICES_PER_THREAD: usize = 8;

/// Solves every slice in parallel on the current rayon pool, at least [`SLICES_PER_THREAD`] per
/// thread; the result order is the input order.
pub fn solve_all(solver: &dyn Solver, slices: &[&Slice], limits: Limits) -> Vec<SolveOutcome> {
    slices
        .par_iter()
        .with_min_len(SLICES_PER_THREAD)
        .map(|slice| solver.solve(slice, limits))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use policies::smt::SliceBuilder;

    fn limits() -> Limits {
        Limits {
            rlimit: 5_000_000,
            timeout_ms: 10_000,
        }
    }

    #[test]
    fn contradicting_fact_is_unsat_with_rule_and_fact_in_core() {
        let mut builder = SliceBuilder::new("deny flow A -> B");
        builder.deny_edge("rule".into(), "A", "B");
        builder.edge_fact("fact".into(), Some("f".into()), "A", "B");
        let outcome = Z3Solver.solve(&builder.finish(), limits());
        assert_eq!(outcome.status, SliceStatus::Unsat, "{outcome:?}");
        assert_eq!(outcome.core, ["a!0", "a!1"]);
    }

    #[test]
    fn reach_through_two_hops_is_proved_by_the_closure() {
        let mut builder = SliceBuilder::new("deny reach A -> C");
        builder.deny_reach("rule".into(), "A", "C");
        builder.reach_closure();
        builder.edge_fact("ab".into(), None, "A", "B");
        builder.edge_fact("bc".into(), None, "B", "C");
        builder.distinct_entities();
        let slice = builder.finish();
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
