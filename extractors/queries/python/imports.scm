; Module imports (`import` and `external` facts) of Python.
; The extractor reads module names, imported names, aliases and relative levels from the statement.

; `import a.b`, `import a.b as c, d`.
(import_statement) @fact.import.statement

; `from a.b import c`, `from ..x import (y as z)`, `from . import m`, `from a import *`.
(import_from_statement) @fact.import.statement
