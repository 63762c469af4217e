; Generic graph facts for reviewed queries (`call` and `assignment`) of Go. The extractor
; splits the callee and the assigned field (`crate::graph`).

; Calls: `submit(order)`, `orders.Submit(ctx, order)`.
(call_expression
  function: (_) @fact.call.function
  arguments: (argument_list) @fact.call.arguments) @fact.call.call

; Plain single assignments to a field: `order.Status = StatusActive`.
(assignment_statement
  left: (expression_list
    .
    (selector_expression) @fact.assignment.target
    .)
  operator: "="
  right: (expression_list
    .
    (_) @fact.assignment.value
    .)) @fact.assignment.statement
