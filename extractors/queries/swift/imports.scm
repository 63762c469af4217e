; Module imports (`import` and `external` facts) of Swift.

; `import Networking`, `@testable import App`, `import struct Foundation.URL`.
(import_declaration) @fact.import.statement
