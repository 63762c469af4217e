//! Finding ids recomputed from the id rule of docs/VERDICT.md, independently of the engine: SHA-256 over
//! the compact JSON array `[type, invariant, rule.kind, rule.text, from, to, via, data,
//! operation, file, evidence_key]`, `viol_` and the first 16 hex digits.

use sha2::{Digest, Sha256};

use crate::check_example;

fn spec_id(parts: [&str; 11]) -> String {
    let text = serde_json::to_string(&parts).unwrap();
    let digest = Sha256::digest(text.as_bytes());
    let hex: String = digest.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("viol_{}", &hex[..16])
}

/// The id of the finding of `rule_text` at `file`, from the verdict.
fn id_of(verdict: &serde_json::Value, rule_text: &str, file: &str) -> String {
    let found: Vec<&serde_json::Value> = verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|violation| {
            violation["rule"]["text"] == rule_text && violation["detected"]["file"] == file
        })
        .collect();
    assert_eq!(found.len(), 1, "one finding of `{rule_text}` at {file}");
    found[0]["id"].as_str().unwrap().to_owned()
}

#[test]
fn ids_of_query_emitted_findings_key_the_query_id_once_before_the_graph_fact_key() {
    let verdict = check_example("checkout-machines");
    let consent = "android/app/src/main/kotlin/com/example/shop/consent/ConsentScreen.kt";
    let rule = "require event AcceptConsent preceded_by ShowConsent by Profile";
    // An event emitted from a call: query id + `:` + the call's qualified name.
    assert_eq!(
        id_of(&verdict, rule, consent),
        spec_id([
            "event_policy_violation",
            "Consent",
            "RequirePrecededBy",
            rule,
            "AndroidApp",
            "",
            "",
            "",
            "",
            consent,
            "AcceptConsentCalls:acceptConsent",
        ])
    );
    // A transition emitted from an assignment: query id + `:` + object.property=value.
    let viewmodel = "android/app/src/main/kotlin/com/example/shop/checkout/CartViewModel.kt";
    let rule = "machine CartLife: Paid -> Filled is not allowed";
    assert_eq!(
        id_of(&verdict, rule, viewmodel),
        spec_id([
            "state_machine_violation",
            "CartLife",
            "AllowTransition",
            rule,
            "AndroidApp",
            "",
            "",
            "Cart",
            "",
            viewmodel,
            "CartPhaseTransitions:cart.phase=CartPhase.Filled",
        ])
    );
}

#[test]
fn ids_of_graph_fact_findings_key_the_construct() {
    let verdict = check_example("layered-api");
    let file = "src/controllers/orders.ts";
    let rule = "deny flow role presentation -> db";
    // accesses_technology: package + `:` + client.
    assert_eq!(
        id_of(&verdict, rule, file),
        spec_id([
            "flow_violation",
            "Layering",
            "DenyFlow",
            rule,
            "Controllers",
            "db",
            "",
            "",
            "",
            file,
            "pg:Pool",
        ])
    );
}
