; Package imports (`import` and `external` facts) of Go, one per import spec.

; `import "net/http"`, `import db "example.com/shop/db"`, `import _ "github.com/lib/pq"`.
(import_spec
  path: [(interpreted_string_literal) (raw_string_literal)] @fact.import.specifier) @fact.import.statement
