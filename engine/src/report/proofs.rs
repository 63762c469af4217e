//! The proof of an entry: the slice's permanent constraints, its fact assertions and the unsat
//! core, in the shape of the entry's array (`z3_proof`, or a change entry's proof).

use policies::smt::{AssertionRole, Slice};

use crate::solve::SolveOutcome;
use crate::verdict::{ChangeProof, Z3Proof};

fn formulas(slice: &Slice, keep: &dyn Fn(&policies::smt::TrackedAssertion) -> bool) -> String {
    slice
        .tracked
        .iter()
        .filter(|tracked| keep(tracked))
        .map(|tracked| format!("(assert (=> |{}| {}))", tracked.literal, tracked.formula))
        .collect::<Vec<_>>()
        .join("\n")
}

fn unsat_core(slice: &Slice, outcome: &SolveOutcome) -> Vec<String> {
    outcome
        .core
        .iter()
        .filter_map(|literal| slice.assertion(literal))
        .map(|tracked| format!("{} {}", tracked.literal, tracked.name))
        .collect()
}

pub(super) fn z3_proof(slice: &Slice, outcome: &SolveOutcome, slice_id: &str) -> Z3Proof {
    Z3Proof {
        permanent_constraint: formulas(slice, &|tracked| tracked.role != AssertionRole::Fact),
        delta_assertion: formulas(slice, &|tracked| tracked.role == AssertionRole::Fact),
        unsat_core: unsat_core(slice, outcome),
        slice: slice_id.to_owned(),
    }
}

pub(super) fn change_proof(slice: &Slice, outcome: &SolveOutcome, slice_id: &str) -> ChangeProof {
    let is_missing =
        |tracked: &policies::smt::TrackedAssertion| tracked.formula.starts_with("(not (touched ");
    ChangeProof {
        policy_constraint: formulas(slice, &|tracked| tracked.role != AssertionRole::Fact),
        trigger_assertion: formulas(slice, &|tracked| {
            tracked.role == AssertionRole::Fact && !is_missing(tracked)
        }),
        missing_assertion: formulas(slice, &|tracked| {
            tracked.role == AssertionRole::Fact && is_missing(tracked)
        }),
        unsat_core: unsat_core(slice, outcome),
        slice: slice_id.to_owned(),
    }
}
