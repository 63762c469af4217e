; Generic graph facts for reviewed queries (`call` and `assignment`) of C#. The extractor splits
; the callee and the assigned member (`crate::graph`).

; Calls: `Submit(order)`, `orders.Submit(order)`, `services.AddScoped<I, S>()`, `a?.B()`.
(invocation_expression
  function: (_) @fact.call.function
  arguments: (argument_list) @fact.call.arguments) @fact.call.call

; Plain assignments to a member: `order.Status = OrderStatus.Active`.
(assignment_expression
  left: (member_access_expression) @fact.assignment.target
  operator: "="
  right: (_) @fact.assignment.value) @fact.assignment.statement
