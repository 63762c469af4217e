; TypeScript-only client uses (`accesses_technology` facts).

; Constructor injection: `constructor(private readonly prisma: PrismaClient)`; a generic type
; is its name (`users: Repository<User>` injects a `Repository`), and a union, parenthesized or
; object type (`redis: Redis | Cluster`, `pool?: Pool | undefined`, `deps: { db: Pool }`)
; injects each type it names, which the extractor reads from the captured type.
(method_definition
  name: (property_identifier) @fact.accesses_technology.method
  parameters: (formal_parameters
    [
      (required_parameter
        type: (type_annotation
          [(type_identifier) (nested_type_identifier) (union_type) (parenthesized_type) (object_type)] @fact.accesses_technology.type))
      (optional_parameter
        type: (type_annotation
          [(type_identifier) (nested_type_identifier) (union_type) (parenthesized_type) (object_type)] @fact.accesses_technology.type))
      (required_parameter
        type: (type_annotation
          (generic_type
            name: [(type_identifier) (nested_type_identifier)] @fact.accesses_technology.type)))
      (optional_parameter
        type: (type_annotation
          (generic_type
            name: [(type_identifier) (nested_type_identifier)] @fact.accesses_technology.type)))
    ] @fact.accesses_technology.parameter)
  (#eq? @fact.accesses_technology.method "constructor"))

; A class that extends a client class: `class Cache extends Redis {}`.
(extends_clause
  value: [(identifier) (member_expression)] @fact.accesses_technology.base)
