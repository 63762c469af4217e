//! Renderers over the one verdict model: each format is one file.

pub mod json;
pub mod text;
