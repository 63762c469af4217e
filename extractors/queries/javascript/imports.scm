; Module imports (`import` and `external` facts), shared by JavaScript and TypeScript.
; The extractor reads names, aliases and `type` markers from the captured statement or call.

; Static and side-effect imports: `import … from 'x'`, `import 'x'`.
(import_statement
  source: (string) @fact.import.specifier) @fact.import.statement

; Re-exports: `export … from 'x'`.
(export_statement
  source: (string) @fact.import.specifier) @fact.import.statement

; CommonJS: `require('x')` with one string literal (a template literal without substitutions
; counts; the extractor drops those with substitutions).
(call_expression
  function: (identifier) @fact.import.function
  arguments: (arguments . [(string) (template_string)] @fact.import.specifier .)
  (#eq? @fact.import.function "require")) @fact.import.call

; `require` whose string follows comments (`require(/* webpackChunkName: "x" */ './x')`).
(call_expression
  function: (identifier) @fact.import.function
  arguments: (arguments . (comment)+ . [(string) (template_string)] @fact.import.specifier .)
  (#eq? @fact.import.function "require")) @fact.import.call

; Dynamic imports: `import('x')` with a string literal (or a template literal, as above).
(call_expression
  function: (import)
  arguments: (arguments . [(string) (template_string)] @fact.import.specifier)) @fact.import.call

; Dynamic imports whose string follows comments (`import(/* webpackChunkName: "x" */ './x')`).
(call_expression
  function: (import)
  arguments: (arguments . (comment)+ . [(string) (template_string)] @fact.import.specifier))
  @fact.import.call
