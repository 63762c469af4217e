//! lintel's engine: scope (git2), file → component mapping, extraction driver, flow graph,
//! rule slices, Z3 solving, the schema_version 2 verdict, renderers and the CLI.
//!
//! Only this crate touches Z3, git2, stdout/stderr and process exit codes.

pub mod error;
pub mod graph;
pub mod paths;
pub mod scope;
pub mod solve;
pub mod verdict;
