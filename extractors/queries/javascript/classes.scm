; JavaScript-only client uses (`accesses_technology` facts): loaded by the JavaScript grammar
; alone, whose `class_heritage` holds the base expression itself (the TypeScript grammars wrap it
; in an `extends_clause`, matched in `typescript/clients.scm`).

; A class that extends a client class: `class Cache extends Redis {}`.
(class_heritage
  [(identifier) (member_expression)] @fact.accesses_technology.base)
