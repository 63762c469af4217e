; Generic graph facts for reviewed queries (`call` and `assignment`) of Kotlin. The extractor
; splits the callee and the assigned member (`crate::graph`).

; Calls: `submit(order)`, `orders.submit(order)`, `items.forEach { … }`. A trailing lambda after
; parentheses (`foo(a) { … }`) wraps the call in another call; only the inner one is a fact.
(call_expression
  .
  [(identifier) (navigation_expression)] @fact.call.function
  .
  [(value_arguments) (annotated_lambda)] @fact.call.arguments) @fact.call.call

; Plain assignments to a member: `order.status = OrderStatus.Active`.
(assignment
  left: (navigation_expression) @fact.assignment.target
  operator: "="
  right: (_) @fact.assignment.value) @fact.assignment.statement
