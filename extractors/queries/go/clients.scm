; Client calls and constructions (`accesses_technology` facts) of Go.
; The extractor qualifies `pkg.Name` through the file's imports and keeps known clients.

; `sql.Open("postgres", dsn)`, `redis.NewClient(…)`, `http.Get(url)`.
(call_expression
  function: (selector_expression) @fact.accesses_technology.function) @fact.accesses_technology.call

; `&http.Client{Timeout: …}`.
(composite_literal
  type: (qualified_type) @fact.accesses_technology.type) @fact.accesses_technology.construction
