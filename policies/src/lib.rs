#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod diagnostic;
pub mod facts;
pub mod model;
pub mod smt;

pub use diagnostic::{Diagnostic, Severity};
pub use model::Model;
