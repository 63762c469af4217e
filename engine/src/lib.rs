//! lintel's engine: scope (git2), file → component mapping, extraction driver, flow graph,
//! rule slices, Z3 solving, the schema_version 2 verdict, renderers and the CLI.
//!
//! Only this crate touches Z3, git2, stdout/stderr and process exit codes.

pub mod agent;
pub mod baseline;
pub mod baseline_command;
pub mod bench;
pub mod cache;
pub mod chains;
pub mod check;
pub mod cli;
pub mod compile;
pub mod config;
pub mod emit_context;
pub mod error;
pub mod evaluate;
pub mod explain;
pub mod extract;
pub mod families;
pub mod graph;
pub mod graph_command;
pub mod init;
pub mod paths;
pub mod progress;
pub mod queries;
pub mod render;
pub mod report;
pub mod schema;
pub mod scope;
pub mod solve;
pub mod suppress;
pub mod targets;
pub mod vacuous;
pub mod verdict;
