; Routers and HTTP clients of Go (`route` and `http_call` facts).

; Gin, Echo, chi, Beego and net/http registrations: `r.GET("/x", h)`, `e.POST(…)`, `r.Get(…)`,
; `web.Router("/x", &C{}, "get:Find")`, `http.HandleFunc("/x", h)`, `mux.Handle("GET /x", h)`.
(call_expression
  function: (selector_expression
    operand: (_) @fact.route.receiver
    field: (field_identifier) @fact.route.method)
  arguments: (argument_list) @fact.route.arguments
  (#any-of? @fact.route.method
    "GET" "POST" "PUT" "PATCH" "DELETE" "HEAD" "OPTIONS" "Any"
    "Get" "Post" "Put" "Patch" "Delete" "Head" "Options"
    "Handle" "HandleFunc" "Router")) @fact.route.call

; net/http requests: `http.Get(url)`, `http.Post(url, …)`, `http.NewRequest("GET", url, body)`.
(call_expression
  function: (selector_expression
    operand: (identifier) @fact.http_call.receiver
    field: (field_identifier) @fact.http_call.method)
  arguments: (argument_list) @fact.http_call.arguments
  (#eq? @fact.http_call.receiver "http")
  (#any-of? @fact.http_call.method "Get" "Post" "Head" "PostForm" "NewRequest" "NewRequestWithContext")) @fact.http_call.call
