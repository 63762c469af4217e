; Outgoing HTTP requests (`http_call` facts), shared by JavaScript and TypeScript.
; The extractor keeps calls whose callee is global `fetch` or bound to an HTTP client package.

; `fetch(url, init)`, `axios.get(url)`, `got.post(url)`, `api.get(url)` on an axios instance.
(call_expression
  function: [(identifier) (member_expression)] @fact.http_call.function
  arguments: (arguments . (_)) @fact.http_call.arguments) @fact.http_call.call
