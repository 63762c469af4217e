; Client constructions and calls (`accesses_technology` facts), shared by JavaScript and TypeScript.
; The extractor keeps only those whose callee is bound to a client package (or is global `fetch`).

; Constructions: `new Pool()`, `new pg.Pool()`.
(new_expression
  constructor: [(identifier) (member_expression)] @fact.accesses_technology.constructor) @fact.accesses_technology.construction

; Calls: `createClient()`, `mongoose.connect()`, `fetch(url)`.
(call_expression
  function: [(identifier) (member_expression)] @fact.accesses_technology.function) @fact.accesses_technology.call
