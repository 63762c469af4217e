; Client calls (`accesses_technology` facts) of Python: constructors are calls too.
; The extractor qualifies the callee through the file's imports and keeps known clients.

; `psycopg2.connect(…)`, `MongoClient(…)`, `boto3.client("s3")`, `requests.get(…)`.
(call
  function: [(identifier) (attribute)] @fact.accesses_technology.function) @fact.accesses_technology.call
