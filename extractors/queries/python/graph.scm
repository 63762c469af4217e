; Generic graph facts for reviewed queries (`call` and `assignment`) of Python. The extractor
; splits the callee and the assigned member (`crate::graph`).

; Calls: `submit(order)`, `orders.submit(order, force=True)`; decorators are left out.
(call
  function: (_) @fact.call.function
  arguments: (_) @fact.call.arguments) @fact.call.call

; Plain assignments to an attribute: `order.status = OrderStatus.ACTIVE`.
(assignment
  left: (attribute) @fact.assignment.target
  right: (_) @fact.assignment.value) @fact.assignment.statement
