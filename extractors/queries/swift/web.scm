; Routes and HTTP requests of Swift (`route`, `http_call`); `crate::swift_web` reads the path
; segments, group prefixes and request URLs.

; Vapor: `app.get("orders", ":id") { req in … }`, `routes.post("orders", use: create)`.
(call_expression
  (navigation_expression
    target: (_) @fact.route.receiver
    suffix: (navigation_suffix
      suffix: (simple_identifier) @fact.route.method))
  (call_suffix) @fact.route.arguments
  (#any-of? @fact.route.method "get" "post" "put" "patch" "delete")) @fact.route.call

; URLSession: `URLSession.shared.data(from: url)`, `session.dataTask(with: request)`; Alamofire:
; `AF.request("https://…", method: .post)`.
(call_expression
  (navigation_expression
    target: (_) @fact.http_call.receiver
    suffix: (navigation_suffix
      suffix: (simple_identifier) @fact.http_call.method))
  (call_suffix) @fact.http_call.arguments
  (#any-of? @fact.http_call.method
    "data" "dataTask" "download" "downloadTask" "upload" "uploadTask" "bytes" "request")) @fact.http_call.call
