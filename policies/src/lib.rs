#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod bindings;
pub mod check;
pub mod compile;
pub mod diagnostic;
pub mod error;
pub mod facts;
pub mod kinds;
pub mod limits;
pub mod load;
pub mod model;
pub mod paths;
pub mod read;
#[cfg(test)]
mod reference;
pub mod smt;
pub mod span;
pub mod syntax;
#[cfg(test)]
mod test_support;
pub mod vocab;

pub use compile::{
    compile_source, compile_source_in, compile_spec, compile_spec_with, CompileOutput,
};
pub use diagnostic::{Diagnostic, Severity};
pub use kinds::contract::normalize_http_path;
pub use model::Model;
