//! What `check` asks the solver is what the verdict reports, and each answer stands on its own:
//! the recording backend (`style.md` §8) sees every slice and what Z3 said about it.

use std::collections::BTreeMap;

use engine::hashed_id;
use engine::ScopeRequest;
use engine::{run_check, CheckOptions};
use engine::{Limits, RecordingSolver, SliceStatus, Solver, Z3Solver};

#[test]
fn the_verdict_reports_each_slice_the_solver_was_asked_with_the_answer_it_gave() {
    let mut unsat_seen = 0;
    for example in [
        "layered-api",
        "di-service",
        "monorepo-reach",
        "data-privacy",
    ] {
        let recorder = RecordingSolver::new(Z3Solver);
        let mut options = CheckOptions::new(tests::example(example));
        options.scope = ScopeRequest::All;
        options.threads = Some(2);
        let run = run_check(&options, &recorder).unwrap();
        let recorded = recorder.recorded();
        assert!(
            !recorded.is_empty(),
            "{example}: no slice reached the solver"
        );

        // Every slice the solver answered is in the diagnostics, with that answer; no other is.
        let answered: BTreeMap<String, &str> = recorded
            .iter()
            .map(|entry| {
                (
                    hashed_id("slice_", &entry.slice.text),
                    entry.outcome.status.as_str(),
                )
            })
            .collect();
        let reported: BTreeMap<String, &str> = run
            .verdict
            .solver_diagnostics
            .iter()
            .map(|diagnostic| (diagnostic.id.clone(), diagnostic.status))
            .collect();
        assert_eq!(answered, reported, "{example}");
        assert_eq!(run.verdict.stats.slices, answered.len(), "{example}");

        // Each violation's proof is the core of an unsat slice the solver was given.
        for violation in &run.verdict.violations {
            let proof = &violation.z3_proof;
            let entry = recorded
                .iter()
                .find(|entry| hashed_id("slice_", &entry.slice.text) == proof.slice)
                .unwrap_or_else(|| panic!("{example}: {} cites an unsolved slice", violation.id));
            assert_eq!(entry.outcome.status, SliceStatus::Unsat, "{example}");
            let literals: Vec<&str> = proof
                .unsat_core
                .iter()
                .map(|name| name.split(' ').next().unwrap())
                .collect();
            assert_eq!(literals, entry.outcome.core, "{example}: {}", violation.id);
            let script = &run.details[&violation.id].smt_script;
            assert!(
                script.starts_with(&entry.slice.text),
                "{example}: the replayable script is the solved slice"
            );
            unsat_seen += 1;
        }

        // Solved again alone, in a fresh context, each slice gets the same answer and core.
        let limits = Limits {
            rlimit: options.rlimit,
            timeout_ms: options.timeout_ms,
        };
        for entry in &recorded {
            let alone = Z3Solver.solve(&entry.slice, limits);
            assert_eq!(
                (alone.status, &alone.core),
                (entry.outcome.status, &entry.outcome.core),
                "{example}: a slice's answer depends on its batch"
            );
        }
    }
    assert!(unsat_seen >= 4, "only {unsat_seen} violations compared");
}
