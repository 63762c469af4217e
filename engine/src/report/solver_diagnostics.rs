//! `solver_diagnostics`: one per slice, and the `suggested_refactor` of a slow or undecided one.

use crate::families::SliceCause;
use crate::verdict::SolverDiagnostic;

/// `suggested_refactor`: the text of the first cause that applies (docs/VERDICT.md).
pub(super) fn suggested_refactor(diagnostic: &SolverDiagnostic, cause: &SliceCause) -> String {
    match cause {
        SliceCause::DiRegistrations => {
            return format!(
                "many DI registrations in one slice ({} facts): split the composition root by component",
                diagnostic.fact_count
            );
        }
        SliceCause::StateWrites(data) => {
            return format!(
                "many writes to {data} ({} facts): route them through one transition function",
                diagnostic.fact_count
            );
        }
        SliceCause::Generic => {}
    }
    if diagnostic.path_depth.is_some_and(|depth| depth >= 8) {
        return format!(
            "long dependency paths ({} hops): add a boundary component, or state the rule between nearer components",
            diagnostic.path_depth.unwrap_or_default()
        );
    }
    if diagnostic.fanout.is_some_and(|fanout| fanout >= 16) {
        return format!(
            "high fan-out ({} edges from one component): split that component, or select fewer components in the rule",
            diagnostic.fanout.unwrap_or_default()
        );
    }
    format!(
        "large slice ({} facts): split {} into narrower rules",
        diagnostic.fact_count, diagnostic.declaration
    )
}
