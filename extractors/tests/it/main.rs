//! The one integration-test binary of `extractors` (style §12): fixtures with annotations,
//! query compilation, the public API's edge cases, and the crate's dependency rule.

// clippy.toml re-allows these inside `#[test]` functions only; the harness helpers are test code too.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    reason = "test harness code: a panic is a test failure"
)]

mod agq;
mod annotations;
mod api;
mod fixtures;
mod hostile;
mod queries;
mod snapshots;
mod tidy;
