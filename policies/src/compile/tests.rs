//! Robustness: deterministic random and byte-mutated inputs never panic, and every output
//! keeps the compile contract (model exactly when error-free, sorted, located diagnostics).

use crate::compile::{compile_source, CompileOutput};
use crate::test_support::PRELUDE;

/// A tiny deterministic xorshift64 generator.
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        let mut value = self.0;
        value ^= value << 13;
        value ^= value >> 7;
        value ^= value << 17;
        self.0 = value;
        value
    }

    fn below(&mut self, bound: usize) -> usize {
        usize::try_from(self.next() % u64::try_from(bound.max(1)).unwrap()).unwrap()
    }
}

const CORPUS_TAIL: &str = r#"
invariant Layering { deny flow role presentation -> db ; require flow Api -> db via Repo ; deny dataflow Profile -> resource secure_storage }
machine OrderLife on Order.status { allow transition Draft -> Active allow transition * -> Draft deny transition Archived -> * }
permission OrderAccess on Order { allow Role.Admin -> delete ; deny Role.Member -> delete | read when total }
value_policy OrderShape { require Order.items.length == 1 when Order.status == Draft ; require Order.total >= 0 }
operation_policy Submit { require before submitOrder Order.status == Draft ; ensure after submitOrder Order.status == Active }
event_policy Consent { require event AcceptConsent preceded_by ShowConsent by Profile }
contract OrdersApi { GET "/api/orders" -> Order[] ; POST "/api/orders/{id}" query q(a: Map<String, Int>) -> X rpc G(A) -> B publishes: "t" }
node npm : package_registry
workflow_policy Ship { allow publish Web -> npm when tag "v*" deny permission * contents: write when pull_request require before * "a" -> "b" }
di_policy Di { deny inject Web -> Repo ; deny lifetime singleton -> scoped ; deny resolve * from Api }
data_policy Privacy { deny classification pii -> untrusted ; deny jurisdiction eu -> partner }
trust_policy Edge { require auth untrusted -> trusted ; deny flow trusted -> untrusted when data pii }
change_policy Fresh { require touched Web when touched Api }
plugin "@acme/x" repo Backend "github.com/acme/backend" branch = "main"
service Billing { runs_on: app { x } } /* c */ // d
"#;

const FRAGMENTS: [&str; 40] = [
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "<",
    ">",
    "->",
    ":",
    ";",
    ",",
    "|",
    ".",
    "*",
    "=",
    "==",
    "\"",
    "\"x\"",
    "/*",
    "//",
    "\n",
    " ",
    "-1",
    "1.2.3",
    "5ms",
    "deny",
    "require",
    "allow",
    "ensure",
    "node",
    "component",
    "role",
    "layer",
    "resource",
    "List<",
    "Optional<",
    "é",
    "#",
    "\\",
];

fn check_contract(source: &str, output: &CompileOutput) {
    let has_errors = output
        .diagnostics
        .iter()
        .any(|diagnostic| diagnostic.is_error());
    assert_eq!(
        output.model.is_some(),
        !has_errors,
        "model iff no error, for {source:?}"
    );
    for diagnostic in &output.diagnostics {
        assert!(
            diagnostic.line >= 1 && diagnostic.column >= 1,
            "{diagnostic:?}"
        );
        assert!(
            diagnostic.offset <= diagnostic.end_offset.max(diagnostic.offset),
            "{diagnostic:?}"
        );
        assert!(
            diagnostic.offset <= source.len(),
            "{diagnostic:?} beyond {}",
            source.len()
        );
        assert_eq!(diagnostic.file, "spec.ag");
    }
    let offsets: Vec<(usize, &str)> = output
        .diagnostics
        .iter()
        .map(|diagnostic| (diagnostic.offset, diagnostic.code.as_str()))
        .collect();
    let mut sorted = offsets.clone();
    sorted.sort();
    assert_eq!(offsets, sorted, "diagnostics are sorted");
}

fn mutate(random: &mut Xorshift, seed: &[u8]) -> Vec<u8> {
    let mut bytes = seed.to_vec();
    for _ in 0..=random.below(8) {
        let position = random.below(bytes.len() + 1);
        match random.below(5) {
            0 if position < bytes.len() => {
                bytes.remove(position);
            }
            1 => {
                let fragment = FRAGMENTS.get(random.below(FRAGMENTS.len())).unwrap();
                bytes.splice(position..position, fragment.bytes());
            }
            2 if position < bytes.len() => {
                *bytes.get_mut(position).unwrap() = u8::try_from(random.below(256)).unwrap();
            }
            3 => {
                let end = (position + random.below(40)).min(bytes.len());
                let chunk: Vec<u8> = bytes.get(position..end).unwrap().to_vec();
                let target = random.below(bytes.len() + 1);
                bytes.splice(target..target, chunk);
            }
            _ => {
                let end = (position + random.below(20)).min(bytes.len());
                bytes.drain(position..end);
            }
        }
    }
    bytes
}

#[test]
fn random_mutations_never_panic() {
    let seed = format!("{PRELUDE}{CORPUS_TAIL}");
    let mut random = Xorshift(0x9e37_79b9_7f4a_7c15);
    for _ in 0..1_500 {
        let bytes = mutate(&mut random, seed.as_bytes());
        let source = String::from_utf8_lossy(&bytes);
        let output = compile_source("spec.ag", &source);
        check_contract(&source, &output);
    }
}

#[test]
fn random_token_soup_never_panics() {
    let mut random = Xorshift(0x2545_f491_4f6c_dd1d);
    for _ in 0..500 {
        let length = random.below(60);
        let source: String = (0..length)
            .map(|_| {
                let fragment = FRAGMENTS.get(random.below(FRAGMENTS.len())).unwrap();
                format!("{fragment} ")
            })
            .collect();
        let output = compile_source("spec.ag", &source);
        check_contract(&source, &output);
    }
}

#[test]
fn the_corpus_itself_compiles() {
    let source = format!("{PRELUDE}{CORPUS_TAIL}");
    let output = compile_source("spec.ag", &source);
    let codes: Vec<&str> = output
        .diagnostics
        .iter()
        .map(|diagnostic| diagnostic.code.as_str())
        .collect();
    assert_eq!(codes, ["unsupported-declaration"]);
}

#[test]
fn pathological_nesting_does_not_overflow_the_stack() {
    let braces = "{".repeat(200_000);
    let output = compile_source("spec.ag", &format!("service S {braces}"));
    assert!(output
        .diagnostics
        .iter()
        .any(|diagnostic| diagnostic.code == "nesting-too-deep"));
    let generics = format!("data D {{ f: {} }}", "List<".repeat(200_000));
    let output = compile_source("spec.ag", &generics);
    assert!(output
        .diagnostics
        .iter()
        .any(|diagnostic| diagnostic.code == "nesting-too-deep"));
    let brackets = format!("component C {{ paths: {} }}", "[".repeat(100_000));
    let output = compile_source("spec.ag", &brackets);
    assert!(output.model.is_none());
}

#[test]
fn long_inputs_stay_fast_enough() {
    let rule = "deny flow Web -> db\n";
    let source = format!("{PRELUDE}invariant I {{\n{}}}", rule.repeat(20_000));
    let output = compile_source("spec.ag", &source);
    assert_eq!(output.model.unwrap().rules.len(), 20_000);
}
