; Client constructions and calls, injections and base types (`accesses_technology` facts) of
; Kotlin. A constructor call has no `new`, so every call is read as a possible construction.

; `OkHttpClient()`, `Retrofit.Builder()`, `Room.databaseBuilder(…)`, `HttpClient(CIO)`.
(call_expression
  .
  [(identifier) (navigation_expression)] @fact.accesses_technology.function) @fact.accesses_technology.call

; Constructor injection: `class Api(private val client: OkHttpClient)`.
(class_parameter
  (user_type) @fact.accesses_technology.type) @fact.accesses_technology.parameter

; Base types: `abstract class AppDatabase : RoomDatabase()`.
(delegation_specifier
  (constructor_invocation
    (user_type) @fact.accesses_technology.base))
(delegation_specifier
  (user_type) @fact.accesses_technology.base)
