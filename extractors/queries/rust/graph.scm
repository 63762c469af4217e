; Generic graph facts for reviewed queries (`call` and `assignment`) of Rust. The extractor
; splits the callee and the assigned field (`crate::graph`); macros are not calls.

; Calls: `submit(order)`, `orders.submit(order)`, `Order::new()`, `iter.collect::<Vec<_>>()`.
(call_expression
  function: (_) @fact.call.function
  arguments: (arguments) @fact.call.arguments) @fact.call.call

; Plain assignments to a field: `order.status = OrderStatus::Active`.
(assignment_expression
  left: (field_expression) @fact.assignment.target
  right: (_) @fact.assignment.value) @fact.assignment.statement
