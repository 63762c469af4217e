//! Syntax of the `.ag` language: spans, tokens, the lexer, the syntax tree
//! and the recovering parser of the language of policies/LANGUAGE.md.
//!
//! Nothing here knows about other files or declared names: imports are loaded by
//! [`crate::load`] and names are resolved by [`crate::check`].

pub mod ast;
pub mod lexer;
pub mod parser;
pub mod token;

pub use crate::span::{FileId, Span};
