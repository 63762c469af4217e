; TypeScript-only import forms (`import` and `external` facts).

; Import-equals: `import x = require('y')`.
(import_statement
  (import_require_clause
    source: (string) @fact.import.specifier)) @fact.import.statement
