; `using` directives (`import` and `external` facts) of C#. Edges to project types come from the
; types the file references (identifiers matched against the namespace type index), not from
; the directives alone.

; `using A.B;`, `global using A.B;`, `using X = A.B.C;`, `using static A.B.C;`.
(using_directive) @fact.import.statement
