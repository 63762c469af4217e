; `use` declarations and out-of-line modules (`import` and `external` facts) of Rust.
; The extractor expands use trees (`a::{b, c::D as E, *}`) and resolves each path.

; `use crate::db::Pool;`, `use super::model::*;`, `use shop_core::{Order, Money};`.
(use_declaration) @fact.import.statement

; `mod handlers;` (not `mod inline { … }`).
(mod_item
  name: (identifier) @fact.import.specifier
  !body) @fact.import.statement
