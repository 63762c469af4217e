//! The SARIF 2.1.0 renderer, for code-scanning upload: one rule per policy rule (and per warning
//! code), one result per finding with its location, `partialFingerprints` from the finding id,
//! and `baselineState` from its status (new → `new`, existing → `unchanged`; omitted for `unchanged`).

use std::collections::BTreeMap;
use std::io::Write;

use serde_json::{json, Value};

use crate::report::hashed_id;
use crate::verdict::{Verdict, WaiverRef};

/// The SARIF rule id of a policy rule: readable, stable, unique per (declaration, rule text).
pub fn rule_id(declaration: &str, kind: &str, text: &str) -> String {
    let hash = hashed_id("", &format!("{declaration}\n{text}"));
    format!("{declaration}/{kind}/{}", hash.get(..8).unwrap_or(&hash))
}

fn baseline_state(status: &str) -> Option<&'static str> {
    match status {
        "new" => Some("new"),
        "existing" => Some("unchanged"),
        _ => None,
    }
}

fn location(file: &str, line: u32, column: Option<u32>) -> Value {
    let mut region = json!({ "startLine": line.max(1) });
    if let Some(column) = column {
        if let Some(region) = region.as_object_mut() {
            region.insert("startColumn".into(), json!(column.max(1)));
        }
    }
    json!({ "physicalLocation": { "artifactLocation": { "uri": file, "uriBaseId": "%SRCROOT%" }, "region": region } })
}

/// Sets `key` on a JSON object (no-op on anything else).
fn set(value: &mut Value, key: &str, field: Value) {
    if let Some(object) = value.as_object_mut() {
        object.insert(key.to_owned(), field);
    }
}

/// A waiver that holds is an in-source suppression, accepted, with its reason as justification;
/// the waiver (held or expired) and the baseline also show in the result's properties.
fn mark_accepted(result: &mut Value, baselined: Option<bool>, waiver: Option<&WaiverRef>) {
    if let Some(waiver) = waiver {
        if !waiver.expired {
            set(
                result,
                "suppressions",
                json!([{
                    "kind": "inSource",
                    "status": "accepted",
                    "justification": format!("{} (owner {}, until {})", waiver.reason, waiver.owner, waiver.until),
                    "location": location(&waiver.source.file, waiver.source.line, Some(waiver.source.column))
                }]),
            );
        }
        if let Some(properties) = result.get_mut("properties") {
            set(properties, "waiver", json!(waiver));
        }
    }
    if baselined == Some(true) {
        if let Some(properties) = result.get_mut("properties") {
            set(properties, "baselined", json!(true));
        }
    }
}

/// Builds the SARIF document; the `explain` commands in rule help and result properties carry
/// `check_flags`, the flags of the check (`crate::input::options::check_flags`).
pub fn document(verdict: &Verdict, check_flags: &str) -> Value {
    let explain_help = format!(
        "`{}` shows the proof",
        crate::report::agent_context::explain_command("<id>", check_flags)
    );
    let mut rules: BTreeMap<String, Value> = BTreeMap::new();
    let mut results = Vec::new();
    for violation in &verdict.violations {
        let id = rule_id(
            &violation.invariant,
            violation.rule.kind,
            &violation.rule.text,
        );
        let source = &violation.rule.source;
        rules.entry(id.clone()).or_insert_with(|| {
            json!({
                "id": id,
                "name": violation.rule.kind,
                "shortDescription": { "text": format!("{}: {}", violation.invariant, violation.rule.text) },
                "fullDescription": { "text": format!("`{}` in `{}`, written at {}:{}:{}", violation.rule.text, violation.invariant, source.file, source.line, source.column) },
                "help": { "text": format!("This rule is declared in {}:{}. Change the code so that it no longer contradicts the rule; {explain_help} (`<id>` is the result's `lintelId`).", source.file, source.line) },
                "defaultConfiguration": { "level": "error" },
                "properties": { "tags": ["architecture", violation.violation_type] }
            })
        });
        let detected = &violation.detected;
        let mut result = json!({
            "ruleId": id,
            "level": if violation.blocking { "error" } else { "note" },
            "message": { "text": violation.message },
            "locations": [location(&detected.file, detected.line, detected.column)],
            "partialFingerprints": { "lintelFindingId/v1": violation.id },
            "properties": { "lintelId": violation.id, "type": violation.violation_type, "confidence": detected.confidence, "slice": violation.z3_proof.slice, "explain": crate::report::agent_context::explain_command(&violation.id, check_flags) }
        });
        if let Some(state) = baseline_state(violation.status) {
            set(&mut result, "baselineState", json!(state));
        }
        mark_accepted(&mut result, violation.baselined, violation.waiver.as_ref());
        if let Some(occurrences) = &detected.occurrences {
            let related_locations = Value::Array(
                occurrences
                    .iter()
                    .enumerate()
                    .map(|(index, occurrence)| {
                        let mut related = location(&occurrence.file, occurrence.line, None);
                        set(&mut related, "id", json!(index + 1));
                        related
                    })
                    .collect(),
            );
            set(&mut result, "relatedLocations", related_locations);
        }
        results.push(result);
    }
    for entry in crate::render::other_entries(verdict) {
        let id = format!("entry/{}", entry.entry_type);
        rules.entry(id.clone()).or_insert_with(|| {
            json!({
                "id": id,
                "name": entry.entry_type,
                "shortDescription": { "text": format!("lintel `{}` finding", entry.entry_type) },
                "help": { "text": format!("{explain_help} (`<id>` is the result's `lintelId`).") },
                "defaultConfiguration": { "level": "error" }
            })
        });
        let mut result = json!({
            "ruleId": id,
            "level": if entry.blocking { "error" } else { "warning" },
            "message": { "text": entry.message },
            "locations": [location(&entry.file, entry.line, None)],
            "partialFingerprints": { "lintelFindingId/v1": entry.id },
            "properties": { "lintelId": entry.id, "type": entry.entry_type, "explain": crate::report::agent_context::explain_command(&entry.id, check_flags) }
        });
        if let Some(state) = baseline_state(entry.status) {
            set(&mut result, "baselineState", json!(state));
        }
        mark_accepted(&mut result, entry.baselined, entry.waiver.as_ref());
        results.push(result);
    }
    for warning in &verdict.warnings {
        let id = format!("warning/{}", warning.code);
        rules.entry(id.clone()).or_insert_with(|| {
            json!({
                "id": id,
                "name": warning.code,
                "shortDescription": { "text": format!("lintel warning `{}`", warning.code) },
                "defaultConfiguration": { "level": "warning" }
            })
        });
        let mut result =
            json!({ "ruleId": id, "level": "warning", "message": { "text": warning.message } });
        if let Some(file) = &warning.file {
            set(
                &mut result,
                "locations",
                json!([location(file, warning.line.unwrap_or(1), None)]),
            );
        }
        results.push(result);
    }
    let rule_index: BTreeMap<String, usize> = rules
        .keys()
        .enumerate()
        .map(|(index, id)| (id.clone(), index))
        .collect();
    for result in &mut results {
        if let Some(index) = result["ruleId"].as_str().and_then(|id| rule_index.get(id)) {
            result["ruleIndex"] = json!(index);
        }
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "lintel",
                "version": verdict.tool.version,
                "semanticVersion": verdict.tool.version,
                "rules": rules.into_values().collect::<Vec<_>>()
            } },
            "originalUriBaseIds": { "%SRCROOT%": { "description": { "text": "The project root." } } },
            "results": results,
            "properties": { "verdict": verdict.verdict, "artifact": verdict.artifact }
        }]
    })
}

/// Writes the SARIF document.
pub fn write(out: &mut dyn Write, verdict: &Verdict, check_flags: &str) -> std::io::Result<()> {
    crate::render::json::write(out, &document(verdict, check_flags))
}
