; Client calls and constructions (`accesses_technology` facts) of Go.
; The extractor qualifies `pkg.Name` through the file's imports and keeps known clients.

; `sql.Open("postgres", dsn)`, `redis.NewClient(…)`, `http.Get(url)`.
(call_expression
  function: (selector_expression) @fact.accesses_technology.function) @fact.accesses_technology.call

; `&http.Client{Timeout: …}`.
(composite_literal
  type: (qualified_type) @fact.accesses_technology.type) @fact.accesses_technology.construction

; A parameter of a function, method or function literal, or a struct field, of a client type:
; `func NewRepo(db *sql.DB)`, `type Repo struct { client *firestore.Client }` (the client is
; injected). Interface methods and function types have no body that could use it.
(function_declaration
  parameters: (parameter_list
    (parameter_declaration
      type: (qualified_type) @fact.accesses_technology.type) @fact.accesses_technology.parameter))
(function_declaration
  parameters: (parameter_list
    (parameter_declaration
      type: (pointer_type (qualified_type) @fact.accesses_technology.type)) @fact.accesses_technology.parameter))
(method_declaration
  parameters: (parameter_list
    (parameter_declaration
      type: (qualified_type) @fact.accesses_technology.type) @fact.accesses_technology.parameter))
(method_declaration
  parameters: (parameter_list
    (parameter_declaration
      type: (pointer_type (qualified_type) @fact.accesses_technology.type)) @fact.accesses_technology.parameter))
(func_literal
  parameters: (parameter_list
    (parameter_declaration
      type: (qualified_type) @fact.accesses_technology.type) @fact.accesses_technology.parameter))
(func_literal
  parameters: (parameter_list
    (parameter_declaration
      type: (pointer_type (qualified_type) @fact.accesses_technology.type)) @fact.accesses_technology.parameter))
(field_declaration
  type: (qualified_type) @fact.accesses_technology.type) @fact.accesses_technology.parameter
(field_declaration
  type: (pointer_type (qualified_type) @fact.accesses_technology.type)) @fact.accesses_technology.parameter
