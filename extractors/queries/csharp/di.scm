; Dependency injection of C# (`constructor_injection`, `di_registration`, `service_resolution`).
; The extractor keeps the parameters of constructors and primary constructors.

; Constructor parameters: `OrdersController(IOrders orders)`, `class Api(IOrders orders)`.
(parameter
  type: (_) @fact.constructor_injection.type) @fact.constructor_injection.parameter

; Registrations: `services.AddScoped<IOrders, Orders>()`, `TryAddSingleton(typeof(I), typeof(S))`,
; `AddDbContext<ShopDb>(…)` (scoped).
(invocation_expression
  function: (member_access_expression
    name: (_) @fact.di_registration.method)
  arguments: (argument_list) @fact.di_registration.arguments
  (#match? @fact.di_registration.method "^((TryAdd|Add)(Singleton|Scoped|Transient)|AddDbContext)([^A-Za-z]|$)")) @fact.di_registration.call

; Service location: `sp.GetService<T>()`, `GetRequiredService<T>()`, `GetService(typeof(T))`.
(invocation_expression
  function: (member_access_expression
    name: (_) @fact.service_resolution.method)
  arguments: (argument_list) @fact.service_resolution.arguments
  (#match? @fact.service_resolution.method "^Get(Required)?Services?([^A-Za-z]|$)")) @fact.service_resolution.call
