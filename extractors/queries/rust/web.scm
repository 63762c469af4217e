; Routes and HTTP requests of Rust (`route`, `http_call`); `crate::rust_web` reads the method
; routers, prefixes and URLs.

; Axum `.route("/x", get(h))`, Actix `App::route("/x", web::get().to(h))`,
; `web::resource("/x").route(web::get().to(h))` and `web::resource("/x").to(h)`.
(call_expression
  function: (field_expression
    value: (_) @fact.route.receiver
    field: (field_identifier) @fact.route.method)
  arguments: (arguments) @fact.route.arguments
  (#any-of? @fact.route.method "route" "to")) @fact.route.call

; Actix attribute routes: `#[get("/orders/{id}")]`.
(attribute_item
  (attribute
    (identifier) @fact.route.method
    arguments: (token_tree) @fact.route.arguments)
  (#any-of? @fact.route.method "get" "post" "put" "patch" "delete" "head")) @fact.route.decorator

; reqwest: `reqwest::get(url)`, `reqwest::blocking::get(url)`.
(call_expression
  function: (scoped_identifier
    path: (_) @fact.http_call.receiver
    name: (identifier) @fact.http_call.method)
  arguments: (arguments) @fact.http_call.arguments
  (#match? @fact.http_call.receiver "^reqwest")
  (#eq? @fact.http_call.method "get")) @fact.http_call.call

; reqwest clients: `client.get(url)`, `client.post(format!("{}/x", base))`.
(call_expression
  function: (field_expression
    value: (_) @fact.http_call.receiver
    field: (field_identifier) @fact.http_call.method)
  arguments: (arguments) @fact.http_call.arguments
  (#any-of? @fact.http_call.method "get" "post" "put" "patch" "delete" "head")) @fact.http_call.call
