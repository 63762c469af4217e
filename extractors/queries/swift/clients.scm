; Client calls and shared instances (`accesses_technology` facts) of Swift.
; Initialisers have no `new`, so every call is read as a possible construction.

; `URLSession(configuration: …)`, `AF.request(url)`, `NSPersistentContainer(name: "Shop")`,
; `SecItemAdd(query, nil)`.
(call_expression
  .
  [(simple_identifier) (navigation_expression)] @fact.accesses_technology.function) @fact.accesses_technology.call

; Shared instances: `URLSession.shared`, `UserDefaults.standard`.
(navigation_expression
  target: (simple_identifier) @fact.accesses_technology.type
  suffix: (navigation_suffix
    suffix: (simple_identifier) @fact.accesses_technology.method)) @fact.accesses_technology.construction
