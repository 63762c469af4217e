; Client constructions, calls, injections and base types (`accesses_technology` facts) of Java.
; The extractor qualifies type names through the file's imports and keeps known clients.

; `new RestTemplate()`.
(object_creation_expression
  type: (_) @fact.accesses_technology.type) @fact.accesses_technology.construction

; `DriverManager.getConnection(url)`, `WebClient.create(url)`.
(method_invocation
  object: (identifier) @fact.accesses_technology.type
  name: (identifier) @fact.accesses_technology.method) @fact.accesses_technology.call

; Constructor and method parameters: `OrderService(KafkaTemplate<String, String> kafka)`.
(formal_parameter
  type: (_) @fact.accesses_technology.type) @fact.accesses_technology.parameter

; Fields, injected by Spring: `private final JdbcTemplate jdbc;`.
(field_declaration
  type: (_) @fact.accesses_technology.type) @fact.accesses_technology.parameter

; Locals, a client a getter hands over: `JdbcTemplate template = service.getJdbcTemplate();`.
(local_variable_declaration
  type: (_) @fact.accesses_technology.type) @fact.accesses_technology.parameter

; Base types: `interface OrderRepository extends JpaRepository<Order, Long>`.
(superclass (_) @fact.accesses_technology.base)
(extends_interfaces (type_list (_) @fact.accesses_technology.base))
(super_interfaces (type_list (_) @fact.accesses_technology.base))
