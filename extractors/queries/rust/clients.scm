; Client calls (`accesses_technology` facts) of Rust: associated functions and free functions
; named by path, qualified through the file's `use` declarations.

; `PgPoolOptions::new()`, `reqwest::get(url)`, `redis::Client::open(url)`, `Database::connect(url)`.
(call_expression
  function: [(scoped_identifier) (identifier)] @fact.accesses_technology.function) @fact.accesses_technology.call
