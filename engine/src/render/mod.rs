//! Renderers over the one verdict model: each format is one file.

pub mod github;
pub mod json;
pub mod sarif;
pub mod text;
