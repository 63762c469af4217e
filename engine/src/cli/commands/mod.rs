//! One module per `lintel` command, each owning its arguments.

pub mod baseline;
pub mod bench_parse;
pub mod check;
pub mod compile;
pub mod emit_context;
pub mod explain;
pub mod graph;
pub mod init;
pub mod schema;
