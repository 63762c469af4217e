; Generic graph facts for reviewed queries (`call` and `assignment`) of Java.

; Calls: `submit(order)`, `orders.submit(order)`, `this.repo.save(o)`.
(method_invocation
  object: (_)? @fact.call.receiver
  name: (identifier) @fact.call.method
  arguments: (argument_list) @fact.call.arguments) @fact.call.call

; Plain assignments to a field: `order.status = OrderStatus.ACTIVE`.
(assignment_expression
  left: (field_access) @fact.assignment.target
  operator: "="
  right: (_) @fact.assignment.value) @fact.assignment.statement
