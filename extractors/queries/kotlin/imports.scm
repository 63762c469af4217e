; Imports (`import` and `external` facts) of Kotlin.
; The extractor reads the path, `.*` and `as` alias; same-package uses come from identifiers.

; `import a.b.C`, `import a.b.*`, `import a.b.C as D`.
(import) @fact.import.statement
