//! lintel's engine: scope (git2), file → component mapping, extraction driver, flow graph,
//! rule slices, Z3 solving, the schema_version 2 verdict, renderers and the CLI.
//!
//! Only this crate touches Z3, git2, stdout/stderr and process exit codes. The binary
//! (`main.rs`) and the end-to-end tests use only what is exported here; the folder map is in
//! docs/ARCHITECTURE.md.

mod check;
mod cli;
mod error;
mod families;
mod graph;
mod input;
mod render;
mod report;
mod solve;
mod terminal;
pub mod verdict;

pub use check::{run_check, run_check_handing_back};
pub use cli::commands::schema::{explain_schema, verdict_schema};
pub use cli::exit::{ExitStatus, WatchedOutput};
pub use cli::{run, run_os, Cli, Command};
pub use graph::targets::category_types;
pub use input::cache::ExtractionCache;
pub use input::options::CheckOptions;
pub use input::scope::ScopeRequest;
pub use input::spec::load_spec;
pub use render::sarif::document as sarif_document;
pub use report::{hashed_id, CheckRun};
pub use solve::{Limits, RecordingSolver, SliceStatus, Solver, Z3Solver};
pub use terminal::set_terminals;
