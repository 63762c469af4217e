; Generic graph facts for reviewed queries (`call` and `assignment`), shared by JavaScript and
; TypeScript. The extractor splits the callee and the assigned member (`crate::graph`).

; Calls: `submit(order)`, `orders.submit(order)`, `this.repo.save(o)`, tagged templates.
(call_expression
  function: (_) @fact.call.function
  arguments: (_) @fact.call.arguments) @fact.call.call

; Plain assignments to a member: `order.status = OrderStatus.Active`.
(assignment_expression
  left: (member_expression) @fact.assignment.target
  right: (_) @fact.assignment.value) @fact.assignment.statement
