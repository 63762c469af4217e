//! The user-facing language reference (`policies/LANGUAGE.md`) is generated from the module docs of
//! the declaration kinds, so the two cannot drift: a test regenerates it and fails when the file
//! differs (`LINTEL_BLESS=1 cargo test -p policies reference` rewrites it).
//!
//! Declarations without a kind module of their own: `plugin "name"` names an external extractor
//! that lintel never runs (each gives the check-time warning `plugin-not-enabled`; an empty name
//! is `invalid-plugin-name`); `repo Alias "url" branch = "main"` declares a repository alias that
//! components tag with `repo: Alias` and `--repo-filter Alias` selects (an empty URL is
//! `invalid-repo-url`, a repeated name `duplicate-repo`); `service` and `test` declarations are
//! accepted with the warning `unsupported-declaration` and otherwise ignored.

/// The modules whose docs make up the reference, in reading order.
const SOURCES: &[&str] = &[
    include_str!("load.rs"),
    include_str!("check/infra.rs"),
    include_str!("check/types.rs"),
    include_str!("check/component.rs"),
    include_str!("check/exclude.rs"),
    include_str!("kinds/invariant.rs"),
    include_str!("kinds/boundary.rs"),
    include_str!("kinds/machine.rs"),
    include_str!("kinds/permission.rs"),
    include_str!("kinds/value_policy.rs"),
    include_str!("kinds/operation_policy.rs"),
    include_str!("kinds/event_policy.rs"),
    include_str!("kinds/contract.rs"),
    include_str!("kinds/workflow_policy.rs"),
    include_str!("kinds/di_policy.rs"),
    include_str!("kinds/data_policy.rs"),
    include_str!("kinds/trust_policy.rs"),
    include_str!("kinds/change_policy.rs"),
    include_str!("kinds/waiver.rs"),
    include_str!("reference.rs"),
];

/// The leading `//!` lines of a module source, without the markers.
fn module_doc(source: &str) -> Vec<String> {
    source
        .lines()
        .take_while(|line| line.starts_with("//!"))
        .map(|line| {
            line.trim_start_matches("//!")
                .strip_prefix(' ')
                .unwrap_or(line.trim_start_matches("//!"))
                .to_owned()
        })
        .collect()
}

/// Renders the reference: one section per module, its first doc line as the heading.
pub fn render() -> String {
    let mut text = String::from(
        "# The `.ag` language reference\n\n\
         Generated from the module docs in `policies/src/` by `cargo test -p policies reference`; do not edit by hand.\n\
         One section per declaration: what the type checker checks, why, an example that passes and one that fails, \
         and how its rules are encoded for Z3. How flows become edges and paths become chains of files is under `invariant`.\n",
    );
    for source in SOURCES {
        let doc = module_doc(source);
        let Some((title, body)) = doc.split_first() else {
            continue;
        };
        // This module's own first paragraph is about the generator, not the language.
        let (title, body) = if title.starts_with("The user-facing language reference") {
            let declarations = body
                .iter()
                .position(|line| line.trim().is_empty())
                .map_or(body, |blank| body.get(blank..).unwrap_or_default());
            (
                "Other declarations: `plugin`, `repo`, `service` and `test`".to_owned(),
                declarations,
            )
        } else {
            (title.clone(), body)
        };
        text.push_str(&format!("\n## {title}\n"));
        let mut previous_blank = false;
        for line in body {
            let line = match line.strip_prefix("# ") {
                Some(heading) => format!("### {heading}"),
                // A rustdoc link means nothing on this page: name the folder instead.
                None => line.replace("[`crate::smt`]", "`policies/src/smt/`"),
            };
            let blank = line.trim().is_empty();
            if !(blank && previous_blank) {
                text.push_str(&line);
                text.push('\n');
            }
            previous_blank = blank;
        }
    }
    text
}

#[cfg(test)]
mod tests {
    #[test]
    fn language_reference_is_generated_from_the_module_docs() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("LANGUAGE.md");
        let expected = super::render();
        if std::env::var_os("LINTEL_BLESS").is_some() {
            std::fs::write(&path, &expected).unwrap();
        }
        let actual = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(actual == expected, "policies/LANGUAGE.md is out of date: run `LINTEL_BLESS=1 cargo test -p policies reference`");
        for heading in [
            "### What it checks",
            "### Passing example",
            "### Failing example",
            "### SMT encoding",
        ] {
            assert!(
                expected.matches(heading).count() >= 15,
                "every declaration section has `{heading}`"
            );
        }
    }
}
