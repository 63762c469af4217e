; Web frameworks and HTTP clients of Python (`route` and `http_call` facts).

; FastAPI and Flask decorators: `@app.get("/x")`, `@router.post("/x")`, `@app.route("/x", methods=[…])`.
(decorator
  (call
    function: (attribute
      object: (identifier) @fact.route.receiver
      attribute: (identifier) @fact.route.method)
    arguments: (argument_list) @fact.route.arguments
    (#any-of? @fact.route.method "get" "post" "put" "patch" "delete" "head" "options" "route" "api_route"))) @fact.route.decorator

; Django URL patterns: `path("orders/<int:pk>/", views.detail)`, `re_path(r"^x/$", view)`.
(call
  function: (identifier) @fact.route.method
  arguments: (argument_list) @fact.route.arguments
  (#any-of? @fact.route.method "path" "re_path")) @fact.route.call

; Router mounts, whose prefixes `crate::links` applies across files:
; `app.include_router(items.router, prefix="/items")`, `app.register_blueprint(bp, url_prefix="/x")`;
; and routes registered by a call: `app.add_url_rule("/x", view_func=f)`,
; `router.add_api_route("/x", f, methods=["POST"])`.
(call
  function: (attribute
    object: (_) @fact.route.receiver
    attribute: (identifier) @fact.route.method)
  arguments: (argument_list) @fact.route.arguments
  (#any-of? @fact.route.method "include_router" "register_blueprint" "add_url_rule" "add_api_route")) @fact.route.call

; requests and httpx: `requests.get(url)`, `httpx.post(url, json=…)`, `requests.request("GET", url)`,
; and the same verbs on any name or attribute of a name, which `python_web` keeps when the file
; binds it to a client (`session = requests.Session()`, `async with httpx.AsyncClient() as client`,
; `self.http = httpx.AsyncClient()`).
(call
  function: (attribute
    object: [
      (identifier)
      (attribute object: (identifier))
    ] @fact.http_call.receiver
    attribute: (identifier) @fact.http_call.method)
  arguments: (argument_list) @fact.http_call.arguments
  (#any-of? @fact.http_call.method "get" "post" "put" "patch" "delete" "head" "options" "request")) @fact.http_call.call
