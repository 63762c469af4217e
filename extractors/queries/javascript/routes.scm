; HTTP routes a file serves (`route` facts), shared by JavaScript and TypeScript.

; Express, Fastify, Koa and Hono: `app.get('/x', handler)`, `router.route('/x').post(handler)`;
; and the mounts of routers: `app.use('/api', router)`, Hono's `app.route('/api', books)`,
; Fastify's `app.register(plugin, { prefix: '/v1' })`; NestJS `app.setGlobalPrefix('api')` and `app.enableVersioning(…)`.
(call_expression
  function: (member_expression
    object: (_) @fact.route.receiver
    property: (property_identifier) @fact.route.method)
  arguments: (arguments) @fact.route.arguments
  (#any-of? @fact.route.method "get" "post" "put" "patch" "delete" "del" "options" "head" "all" "use" "route" "register" "setGlobalPrefix" "enableVersioning")) @fact.route.call

; Fastify's full declaration: `fastify.route({ method: 'GET', url: '/x', handler })`.
(call_expression
  function: (member_expression
    object: (_) @fact.route.receiver
    property: (property_identifier) @fact.route.method)
  arguments: (arguments . (object) @fact.route.options)
  (#eq? @fact.route.method "route")) @fact.route.call

; Decorated handlers (NestJS, routing-controllers): `@Get(':id')` on a controller method.
(decorator
  (call_expression
    function: (identifier) @fact.route.method
    arguments: (arguments) @fact.route.arguments)
  (#any-of? @fact.route.method "Get" "Post" "Put" "Patch" "Delete" "Options" "Head" "All")) @fact.route.decorator

; NestJS role metadata (`checks_role` facts): `@Roles('admin')`, `@Roles(Role.Admin)`.
(decorator
  (call_expression
    function: (identifier) @fact.checks_role.method
    arguments: (arguments) @fact.checks_role.arguments)
  (#eq? @fact.checks_role.method "Roles")) @fact.checks_role.decorator
