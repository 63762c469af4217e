; Generic graph facts for reviewed queries (`call` and `assignment`) of Swift. The extractor
; splits the callee and the assigned member (`crate::graph`).

; Calls: `submit(order)`, `orders.submit(order, force: true)`, `items.forEach { … }`.
(call_expression
  .
  [(simple_identifier) (navigation_expression)] @fact.call.function
  .
  (call_suffix) @fact.call.arguments) @fact.call.call

; Plain assignments to a member: `order.status = .active`.
(assignment
  target: (directly_assignable_expression
    (navigation_expression) @fact.assignment.target)
  operator: "="
  result: (_) @fact.assignment.value) @fact.assignment.statement
