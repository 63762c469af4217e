; Spring: routes, role checks and RestTemplate/WebClient requests of Java
; (`route`, `checks_role`, `http_call`; `performs` follows from handler routes).

; Handler mappings on methods: `@GetMapping("/{id}")`, `@PostMapping`, `@RequestMapping(…)`.
; Class-level `@RequestMapping` prefixes are read by the extractor.
(annotation
  name: (identifier) @fact.route.method
  (#match? @fact.route.method "^(Get|Post|Put|Patch|Delete|Request)Mapping$")) @fact.route.decorator
(marker_annotation
  name: (identifier) @fact.route.method
  (#match? @fact.route.method "^(Get|Post|Put|Patch|Delete|Request)Mapping$")) @fact.route.decorator

; `@PreAuthorize("hasRole('ADMIN')")`, `@RolesAllowed({"ADMIN"})`, `@Secured("ROLE_ADMIN")`.
(annotation
  name: (identifier) @fact.checks_role.method
  arguments: (annotation_argument_list) @fact.checks_role.arguments
  (#any-of? @fact.checks_role.method "PreAuthorize" "RolesAllowed" "Secured")) @fact.checks_role.decorator

; RestTemplate: `rest.getForObject("/x", T.class)`, `postForEntity`, `put`, `delete`, `exchange`.
(method_invocation
  object: (_) @fact.http_call.receiver
  name: (identifier) @fact.http_call.method
  arguments: (argument_list) @fact.http_call.arguments
  (#match? @fact.http_call.method "^(getFor(Object|Entity)|postFor(Object|Entity|Location)|put|delete|patchForObject|exchange)$")) @fact.http_call.call

; WebClient: `client.get().uri("/x")`.
(method_invocation
  object: (method_invocation
    object: (_) @fact.http_call.receiver
    name: (identifier) @fact.http_call.function
    (#any-of? @fact.http_call.function "get" "post" "put" "patch" "delete"))
  name: (identifier) @fact.http_call.method
  arguments: (argument_list) @fact.http_call.arguments
  (#eq? @fact.http_call.method "uri")) @fact.http_call.call

; java.net.http: `HttpRequest.newBuilder(URI.create("http://x/y"))`, `.uri(…)`, `.POST(…)` up its chain.
(method_invocation
  object: (identifier) @fact.http_call.receiver
  name: (identifier) @fact.http_call.method
  arguments: (argument_list) @fact.http_call.arguments
  (#eq? @fact.http_call.receiver "HttpRequest")
  (#eq? @fact.http_call.method "newBuilder")) @fact.http_call.call

; Retrofit: `@GET("orders/{id}")`, `@HTTP(method = "DELETE", path = "x")` on an interface method,
; and a bare `@GET` whose method takes a `@Url` parameter (the extractor requires a `retrofit2`
; import, so JAX-RS's `@GET` is not one).
; Spring's HTTP interfaces: `@GetExchange("/x")` (`Post`, `Put`, `Patch`, `Delete`, or
; `@HttpExchange(method = "GET", value = "/x")`) on a method of an interface.
(annotation
  name: (identifier) @fact.http_call.method
  arguments: (annotation_argument_list) @fact.http_call.arguments
  (#any-of? @fact.http_call.method "GET" "POST" "PUT" "PATCH" "DELETE" "HEAD" "OPTIONS" "HTTP"
    "GetExchange" "PostExchange" "PutExchange" "PatchExchange" "DeleteExchange" "HttpExchange")) @fact.http_call.call
(marker_annotation
  name: (identifier) @fact.http_call.method
  (#any-of? @fact.http_call.method "GET" "POST" "PUT" "PATCH" "DELETE" "HEAD" "OPTIONS"
    "GetExchange" "PostExchange" "PutExchange" "PatchExchange" "DeleteExchange")) @fact.http_call.call
