; Routes and HTTP requests of Kotlin (`route`, `http_call`; `performs` follows from Spring
; handler routes). The extractor (`crate::kotlin_web`) checks the context of each match.

; Spring handler mappings: `@GetMapping("/{id}")`, `@PostMapping`, `@RequestMapping(…)`.
(annotation
  (constructor_invocation
    (user_type (identifier) @fact.route.method))
  (#match? @fact.route.method "^(Get|Post|Put|Patch|Delete|Request)Mapping$")) @fact.route.decorator
(annotation
  (user_type (identifier) @fact.route.method)
  (#match? @fact.route.method "^(Get|Post|Put|Patch|Delete|Request)Mapping$")) @fact.route.decorator

; Ktor routing: `get("/x") { … }`, `post { … }` (the call before the trailing lambda).
(call_expression
  .
  (identifier) @fact.route.method
  .
  [(value_arguments) (annotated_lambda)] @fact.route.arguments
  (#any-of? @fact.route.method "get" "post" "put" "patch" "delete" "head" "options")) @fact.route.call

; Ktor typed resources: `get<Articles> { … }`, which the grammar reads as `(get < Articles) > { … }`.
(binary_expression
  left: (binary_expression
    left: (identifier) @fact.route.method
    right: (_) @fact.route.receiver)
  right: (lambda_literal) @fact.route.arguments
  (#any-of? @fact.route.method "get" "post" "put" "patch" "delete" "head" "options")) @fact.route.call

; Retrofit: `@GET("orders/{id}")`, `@HTTP(method = "DELETE", path = "x")` on an interface
; function, and a bare `@GET` whose function takes a `@Url` parameter.
(annotation
  (constructor_invocation
    (user_type (identifier) @fact.http_call.method)
    (value_arguments) @fact.http_call.arguments)
  (#any-of? @fact.http_call.method "GET" "POST" "PUT" "PATCH" "DELETE" "HEAD" "HTTP")) @fact.http_call.call
(annotation
  (user_type (identifier) @fact.http_call.method)
  (#any-of? @fact.http_call.method "GET" "POST" "PUT" "PATCH" "DELETE" "HEAD")) @fact.http_call.call

; Ktor client: `client.get("/x")`; OkHttp: `Request.Builder().url("…")`.
(call_expression
  (navigation_expression
    (_) @fact.http_call.receiver
    .
    (identifier) @fact.http_call.method
    .)
  (value_arguments) @fact.http_call.arguments
  (#any-of? @fact.http_call.method "get" "post" "put" "patch" "delete" "head" "url")) @fact.http_call.call
