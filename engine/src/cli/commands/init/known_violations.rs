//! dependency-cruiser's known violations, for `lintel init --from` a dependency-cruiser
//! configuration: a project that runs `depcruise --ignore-known` accepts the violations its
//! `.dependency-cruiser-known-violations.json` lists (written by `--output-type baseline`). The
//! translation checks the project against the spec it wrote and waives, by id, each finding
//! whose every import is a listed `dependency` violation (the importing file and the file it
//! resolves to, or the specifier that resolves to nothing). A listed cycle, or a finding of a
//! `reachable` rule, is left for the user: lintel's findings of those are not one import each.

use std::collections::{BTreeMap, BTreeSet};

use policies::facts::FactKind;

use crate::verdict::ArchitectureViolation;

/// The file `depcruise --ignore-known` reads by default.
pub const FILE_NAME: &str = ".dependency-cruiser-known-violations.json";

/// The finding types that stand for one import each.
const WAIVABLE: [&str; 4] = [
    "flow_violation",
    "dependency_violation",
    "interface_violation",
    "unresolved_import_violation",
];

/// The listed `dependency` violations: (importing file, imported file or specifier) → the
/// names of the rules they break.
pub fn read(text: &str) -> BTreeMap<(String, String), BTreeSet<String>> {
    let mut known: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    let Ok(serde_json::Value::Array(entries)) = serde_json::from_str(text) else {
        return known;
    };
    for entry in &entries {
        let field = |name: &str| entry.get(name).and_then(serde_json::Value::as_str);
        let (Some("dependency"), Some(from), Some(to)) =
            (field("type"), field("from"), field("to"))
        else {
            continue;
        };
        let rule = entry
            .get("rule")
            .and_then(|rule| rule.get("name"))
            .and_then(serde_json::Value::as_str)
            .unwrap_or("unnamed");
        known
            .entry((from.to_owned(), to.to_owned()))
            .or_default()
            .insert(rule.to_owned());
    }
    known
}

/// What an import at a place (file, line) leads to: the files it resolves to, and its
/// specifier.
pub type Imports = BTreeMap<(String, u32), Vec<String>>;

/// The import facts of a run, by place.
pub fn imports(facts: &[Box<policies::facts::Fact>]) -> Imports {
    let mut imports: Imports = BTreeMap::new();
    for fact in facts.iter().filter(|fact| fact.kind == FactKind::Import) {
        let place = (fact.evidence.file.to_string(), fact.evidence.line);
        let targets = imports.entry(place).or_default();
        for target in [
            fact.property_str("resolved"),
            fact.property_str("specifier"),
        ]
        .into_iter()
        .flatten()
        {
            targets.push(target.to_owned());
        }
    }
    imports
}

/// One waiver (spec text) per finding whose every import is a known violation; `until` is the
/// waivers' last day.
pub fn waivers(
    violations: &[ArchitectureViolation],
    imports: &Imports,
    known: &BTreeMap<(String, String), BTreeSet<String>>,
    until: &str,
) -> Vec<String> {
    let mut waivers = Vec::new();
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for violation in violations {
        if !WAIVABLE.contains(&violation.violation_type) || !seen.insert(&violation.id) {
            continue;
        }
        let detected = &violation.detected;
        let mut rules: BTreeSet<&str> = BTreeSet::new();
        let mut all_known = true;
        for (file, line) in detected.places() {
            let listed: Vec<&str> = imports
                .get(&(file.to_owned(), line))
                .into_iter()
                .flatten()
                .filter_map(|target| known.get(&(file.to_owned(), target.clone())))
                .flatten()
                .map(String::as_str)
                .collect();
            if listed.is_empty() {
                all_known = false;
                break;
            }
            rules.extend(listed);
        }
        if !all_known {
            continue;
        }
        waivers.push(format!(
            "waive {} until {until} owner \"dependency-cruiser\" reason \"known violation of {} in {FILE_NAME}\"",
            violation.id,
            rules.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    waivers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_dependency_entries_are_read_with_their_rules() {
        let known = read(
            r#"[
              { "type": "dependency", "from": "src/a.js", "to": "src/b.js", "rule": { "severity": "error", "name": "a-not-b" } },
              { "type": "dependency", "from": "src/a.js", "to": "src/b.js", "rule": { "severity": "warn", "name": "also" } },
              { "type": "cycle", "from": "src/b.js", "to": "src/a.js", "rule": { "name": "no-circular" }, "cycle": [] },
              { "type": "module", "from": "src/c.js", "to": "src/c.js", "rule": { "name": "no-orphans" } }
            ]"#,
        );
        assert_eq!(known.len(), 1);
        let rules = known
            .get(&("src/a.js".to_owned(), "src/b.js".to_owned()))
            .unwrap();
        assert_eq!(rules.iter().collect::<Vec<_>>(), ["a-not-b", "also"]);
        assert!(read("not json").is_empty());
    }
}
