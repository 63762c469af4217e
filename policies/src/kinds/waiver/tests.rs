use crate::model::{Waiver, WaiverTarget};
use crate::test_support::*;

const LAYERS: &str = "invariant Layers { deny flow Web -> db  deny flow Web -> Repo }\n";

fn waivers(source: &str) -> Vec<Waiver> {
    assert_clean_with_prelude(&format!("{LAYERS}{source}")).waivers
}

#[test]
fn passing_waivers_of_a_rule_a_declaration_and_a_finding() {
    let found = waivers(
        "waive Layers \"deny flow  Web ->  db\" until 2027-03-31 owner \"payments\" reason \"legacy export, ticket 812\"\n\
         waive Layers until \"2026-12-31\" owner \"web\" reason \"moving\"\n\
         waive viol_3f2a9c0d1e2b4a5f until 2027-01-01 owner \"payments\" reason \"ticket 812\"\n",
    );
    let targets: Vec<&WaiverTarget> = found.iter().map(|waiver| &waiver.target).collect();
    assert_eq!(
        targets,
        [
            &WaiverTarget::Rule {
                declaration: "Layers".into(),
                rule: Some("deny flow Web -> db".into())
            },
            &WaiverTarget::Rule {
                declaration: "Layers".into(),
                rule: None
            },
            &WaiverTarget::Finding {
                id: "viol_3f2a9c0d1e2b4a5f".into()
            },
        ]
    );
    let first = &found[0];
    assert_eq!(
        (
            first.until.as_str(),
            first.owner.as_str(),
            first.reason.as_str()
        ),
        ("2027-03-31", "payments", "legacy export, ticket 812")
    );
    assert_eq!((first.source.line, first.source.column), (13, 7));
    assert_eq!(found[1].until, "2026-12-31");
}

#[test]
fn a_waiver_may_come_before_the_rule_it_names() {
    let model = assert_clean_with_prelude(&format!(
        "waive Layers \"deny flow Web -> Repo\" until 2027-03-31 owner \"o\" reason \"r\"\n{LAYERS}"
    ));
    assert_eq!(model.waivers.len(), 1);
}

#[test]
fn failing_waivers_name_what_is_wrong() {
    let diagnostic = assert_diagnostic_with_prelude(
        &format!("{LAYERS}waive Layer until 2027-03-31 owner \"o\" reason \"r\""),
        "unknown-waiver-target",
        2,
        7,
    );
    assert_eq!(
        diagnostic.message,
        "unknown waiver target `Layer`: not a finding id (`viol_` and 16 hex digits) or a declared invariant, policy or contract"
    );
    assert_eq!(diagnostic.help.as_deref(), Some("did you mean `Layers`?"));

    let diagnostic = assert_diagnostic_with_prelude(
        &format!("{LAYERS}waive Layers \"deny flow Web -> Db\" until 2027-03-31 owner \"o\" reason \"r\""),
        "unknown-waiver-rule",
        2,
        14,
    );
    assert_eq!(
        diagnostic.message,
        "`Layers` has no rule `deny flow Web -> Db`"
    );
    assert_eq!(
        diagnostic.help.as_deref(),
        Some("its rules are `deny flow Web -> db`, `deny flow Web -> Repo`")
    );

    let diagnostic = assert_diagnostic_with_prelude(
        &format!("{LAYERS}waive Layers until 2027-02-30 owner \"o\" reason \"r\""),
        "invalid-waiver-date",
        2,
        20,
    );
    assert_eq!(
        diagnostic.message,
        "invalid waiver date `2027-02-30`: expected a calendar day written YYYY-MM-DD"
    );
    let diagnostic = assert_diagnostic_with_prelude(
        &format!("{LAYERS}waive Layers until 2027-03-31 owner \"o\" reason \" \""),
        "empty-waiver-field",
        2,
        48,
    );
    assert_eq!(diagnostic.message, "the waiver's `reason` is empty");
    assert_diagnostic_with_prelude(
        &format!("{LAYERS}waive viol_3f2a9c0d1e2b4a5f \"deny flow Web -> db\" until 2027-03-31 owner \"o\" reason \"r\""),
        "unknown-waiver-rule",
        2,
        29,
    );
    // The clauses come in order: until, owner, reason.
    let diagnostic = assert_diagnostic_with_prelude(
        &format!("{LAYERS}waive Layers owner \"o\" until 2027-03-31 reason \"r\""),
        "unexpected-token",
        2,
        14,
    );
    assert!(
        diagnostic.message.starts_with("expected `until`"),
        "{}",
        diagnostic.message
    );
    // A date with spaces in it is not one date.
    assert_diagnostic_with_prelude(
        &format!("{LAYERS}waive Layers until 2027 -03-31 owner \"o\" reason \"r\""),
        "unexpected-token",
        2,
        25,
    );
}

#[test]
fn finding_ids_are_viol_and_sixteen_lowercase_hex_digits() {
    use super::is_finding_id;
    assert!(is_finding_id("viol_3f2a9c0d1e2b4a5f"));
    assert!(!is_finding_id("viol_3F2A9C0D1E2B4A5F"));
    assert!(!is_finding_id("viol_3f2a9c0d1e2b4a5"));
    assert!(!is_finding_id("Layers"));
}
