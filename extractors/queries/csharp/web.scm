; ASP.NET Core: routes, role checks and HttpClient requests of C#
; (`route`, `checks_role`, `http_call`; `performs` follows from controller routes).

; Controller actions: `[HttpGet("{id}")]`, `[Route("x")]` on a method.
(attribute
  name: (_) @fact.route.method
  (#match? @fact.route.method "^(Http(Get|Post|Put|Patch|Delete|Head|Options)|Route)$")) @fact.route.decorator

; Minimal APIs: `app.MapGet("/x", handler)`, `group.MapPost(…)`, `app.Map("/x", …)`.
(invocation_expression
  function: (member_access_expression
    expression: (_) @fact.route.receiver
    name: (identifier) @fact.route.method)
  arguments: (argument_list) @fact.route.arguments
  (#match? @fact.route.method "^Map(Get|Post|Put|Patch|Delete)?$")) @fact.route.call

; `[Authorize(Roles = "Admin,Manager")]` on a controller or an action.
(attribute
  name: (_) @fact.checks_role.method
  (#eq? @fact.checks_role.method "Authorize")) @fact.checks_role.decorator

; `User.IsInRole("Admin")`.
(invocation_expression
  function: (member_access_expression
    name: (identifier) @fact.checks_role.method)
  arguments: (argument_list) @fact.checks_role.arguments
  (#eq? @fact.checks_role.method "IsInRole")) @fact.checks_role.call

; HttpClient requests: `http.GetAsync("/x")`, `PostAsJsonAsync`, `GetFromJsonAsync<T>`; Flurl's
; `url.GetJsonAsync<T>()`, `PostJsonAsync`, `GetBytesAsync`, `PostUrlEncodedAsync`, `PostMultipartAsync`,
; `DownloadFileAsync`.
(invocation_expression
  function: (member_access_expression
    expression: (_) @fact.http_call.receiver
    name: (_) @fact.http_call.method)
  arguments: (argument_list) @fact.http_call.arguments
  (#match? @fact.http_call.method "^((Get|Post|Put|Patch|Delete)(Async|AsJsonAsync|FromJsonAsync|StringAsync|StreamAsync|ByteArrayAsync|JsonAsync|BytesAsync|UrlEncodedAsync|MultipartAsync)([^A-Za-z]|$)|DownloadFileAsync$)")) @fact.http_call.call

; A request message, sent with `SendAsync`: `new HttpRequestMessage(HttpMethod.Post, "/x")`, or
; with `Method` and `RequestUri` set by its initializer.
(object_creation_expression
  type: (_) @fact.http_call.method
  (#match? @fact.http_call.method "^(System\\.Net\\.Http\\.)?HttpRequestMessage$")) @fact.http_call.call

; Refit: `[Get("/users/{id}")]` on a method of an interface, a request the client makes.
(attribute
  name: (_) @fact.http_call.method
  (#match? @fact.http_call.method "^(Get|Post|Put|Patch|Delete|Head|Options)$")) @fact.http_call.call

; A RestSharp request: `new RestRequest("users/{id}", Method.Get)`, GET when it names no method, or
; with `Resource` and `Method` set by its initializer.
(object_creation_expression
  type: (_) @fact.http_call.method
  (#match? @fact.http_call.method "^(RestSharp\\.)?RestRequest$")) @fact.http_call.call
