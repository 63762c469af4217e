; Client constructions, calls, injections and base types (`accesses_technology` facts) of C#.
; Matched by type and method name: global and implicit usings make namespaces unreliable.

; `new NpgsqlConnection(…)`, `new MongoClient(…)`, `new HttpClient()`.
(object_creation_expression
  type: (_) @fact.accesses_technology.type) @fact.accesses_technology.construction

; `ConnectionMultiplexer.Connect(…)`, `options.UseNpgsql(…)`.
(invocation_expression
  function: (member_access_expression
    expression: (_) @fact.accesses_technology.type
    name: (_) @fact.accesses_technology.method)) @fact.accesses_technology.call

; Constructor injection and other parameters: `OrdersController(IConnectionMultiplexer redis)`.
(parameter
  type: (_) @fact.accesses_technology.type) @fact.accesses_technology.parameter

; Fields and properties: `private readonly HttpClient _http;`, `public IMongoDatabase Db { get; }`.
(field_declaration
  (variable_declaration
    type: (_) @fact.accesses_technology.type)) @fact.accesses_technology.parameter
(property_declaration
  type: (_) @fact.accesses_technology.type) @fact.accesses_technology.parameter

; Base types: `class ShopDb : DbContext`.
(base_list
  (_) @fact.accesses_technology.base)
