use std::collections::BTreeSet;

use super::Code;

#[test]
fn codes_are_unique_and_kebab_case() {
    let mut seen = BTreeSet::new();
    for code in Code::ALL {
        let name = code.as_str();
        assert!(seen.insert(name), "duplicate code {name}");
        assert!(
            name.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{name}"
        );
    }
    assert_eq!(seen.len(), Code::ALL.len());
}

#[test]
fn eighteen_duplicate_codes() {
    let duplicates = Code::ALL
        .iter()
        .filter(|code| code.as_str().starts_with("duplicate-"))
        .count();
    // 18 namespace codes plus duplicate-key, duplicate-enum-value, duplicate-field,
    // duplicate-machine-target, duplicate-endpoint and duplicate-client-binding.
    assert_eq!(duplicates, 18 + 6);
}

#[test]
fn code_list_snapshot() {
    let lines: Vec<String> = Code::ALL
        .iter()
        .map(|code| format!("{} {:?}", code.as_str(), code.severity()))
        .collect();
    insta::assert_snapshot!(lines.join("\n"));
}
