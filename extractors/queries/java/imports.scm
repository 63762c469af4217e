; Type imports (`import` and `external` facts) of Java.
; The extractor reads the path, `static` and `.*` from the declaration; same-package type uses
; are found from the file's identifiers, not by a pattern.

; `import a.b.C;`, `import static a.b.C.m;`, `import a.b.*;`.
(import_declaration) @fact.import.statement
