//! The generated halves of `docs/VERDICT.md` (the field reference, from the JSON Schemas the binary
//! prints) and `docs/CLI.md` (every command's help text): each file keeps its hand-written part above
//! a marker line and must end with what the binary prints now. `LINTEL_BLESS=1` rewrites them.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde_json::Value;

use super::lintel;

/// The line after which a reference page is generated.
const MARKER: &str = "<!-- Everything below is generated from";

fn docs(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("docs")
        .join(name)
}

fn stdout_of(args: &[&str]) -> String {
    let output = lintel()
        .args(args)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "lintel {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Compares (or with `LINTEL_BLESS` rewrites) the generated part of a page.
fn check_page(name: &str, generated: &str) {
    let path = docs(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let Some(at) = text.find(MARKER) else {
        panic!("docs/{name} has no `{MARKER}` line")
    };
    let marker_end = at + text[at..].find('\n').map_or(text.len() - at, |n| n + 1);
    let expected = format!("{}\n{generated}", &text[..marker_end]);
    if std::env::var_os("LINTEL_BLESS").is_some() {
        std::fs::write(&path, &expected).unwrap();
        return;
    }
    assert!(
        text == expected,
        "docs/{name} is out of date: run `LINTEL_BLESS=1 cargo test -p engine --test it reference_docs`"
    );
}

#[test]
fn the_verdict_reference_lists_every_field_of_both_schemas() {
    let verdict: Value = serde_json::from_str(&stdout_of(&["schema", "verdict"])).unwrap();
    let explain: Value = serde_json::from_str(&stdout_of(&["schema", "explain"])).unwrap();
    let mut page = String::from("## Field reference\n");
    for (title, schema) in [
        ("The verdict", &verdict),
        ("The explain document", &explain),
    ] {
        writeln!(page, "\n### {title}\n").unwrap();
        render_schema(schema, &mut page);
    }
    // Every top-level verdict field has its own hand-written section too.
    let text = std::fs::read_to_string(docs("VERDICT.md")).unwrap();
    let hand_written = &text[..text.find(MARKER).unwrap()];
    for field in verdict["properties"].as_object().unwrap().keys() {
        let heading = hand_written
            .lines()
            .any(|line| line.starts_with("### ") && line.contains(&format!("`{field}`")));
        assert!(heading, "docs/VERDICT.md has no section on `{field}`");
    }
    check_page("VERDICT.md", &page);
}

#[test]
fn the_json_schemas_in_docs_are_the_ones_the_binary_prints() {
    for name in ["verdict", "explain"] {
        let printed = stdout_of(&["schema", name]);
        let path = docs("schemas").join(format!("{name}.schema.json"));
        if std::env::var_os("LINTEL_BLESS").is_some() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &printed).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == printed,
            "docs/schemas/{name}.schema.json is out of date: run `LINTEL_BLESS=1 cargo test -p engine --test it reference_docs`"
        );
    }
}

#[test]
fn the_cli_reference_holds_every_commands_help() {
    let top = stdout_of(&["--help"]);
    let mut page = format!("## `lintel --help`\n\n```text\n{}\n```\n", top.trim_end());
    let commands: Vec<&str> = top
        .lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .filter_map(|line| line.split_whitespace().next())
        .filter(|command| *command != "help")
        .collect();
    assert!(
        commands.contains(&"check") && commands.contains(&"explain"),
        "{commands:?}"
    );
    for command in commands {
        let help = stdout_of(&[command, "--help"]);
        write!(
            page,
            "\n## `lintel {command}`\n\n```text\n{}\n```\n",
            help.trim_end()
        )
        .unwrap();
    }
    check_page("CLI.md", &page);
}

/// One table per object type: the root first, then the definitions by name.
fn render_schema(schema: &Value, page: &mut String) {
    let title = schema["title"].as_str().unwrap_or("Document");
    let mut objects = vec![(title.to_owned(), schema)];
    if let Some(definitions) = schema["$defs"].as_object() {
        objects.extend(
            definitions
                .iter()
                .map(|(name, definition)| (name.clone(), definition)),
        );
    }
    for (name, object) in objects {
        if object["properties"].is_object() {
            render_object(&name, object, page);
            continue;
        }
        // A union (the explain document is found or not found).
        writeln!(
            page,
            "<a id=\"{}\"></a>**{name}**: {}, one of {}.\n",
            anchor(&name),
            one_line(object["description"].as_str().unwrap_or_default()),
            type_of(object)
        )
        .unwrap();
    }
}

fn render_object(name: &str, object: &Value, page: &mut String) {
    writeln!(page, "<a id=\"{}\"></a>**{name}**", anchor(name)).unwrap();
    if let Some(description) = object["description"].as_str() {
        writeln!(page, "{}", one_line(description)).unwrap();
    }
    page.push_str("\n| field | type | meaning |\n|---|---|---|\n");
    let required: Vec<&str> = object["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    for (field, property) in object["properties"].as_object().into_iter().flatten() {
        let optional = if required.contains(&field.as_str()) {
            ""
        } else {
            " (optional)"
        };
        let description = property["description"]
            .as_str()
            .map(one_line)
            .unwrap_or_default();
        assert!(
            !["language.md", "verdict-v2", "cli.md", "§"]
                .iter()
                .any(|outside| description.contains(outside)),
            "{name}.{field}: a schema description points outside the repository: {description}"
        );
        writeln!(
            page,
            "| `{field}`{optional} | {} | {} |",
            type_of(property),
            description.replace('|', "\\|")
        )
        .unwrap();
    }
    page.push('\n');
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn anchor(name: &str) -> String {
    format!(
        "schema-{}",
        name.to_lowercase()
            .replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    )
}

/// A property's type, as `string`, `Warning[]`, `string \| null`, with links to definitions.
fn type_of(property: &Value) -> String {
    if let Some(reference) = property["$ref"].as_str() {
        let name = reference.rsplit('/').next().unwrap_or(reference);
        return format!("[{name}](#{})", anchor(name));
    }
    if let Some(variants) = property["anyOf"]
        .as_array()
        .or_else(|| property["oneOf"].as_array())
    {
        return variants
            .iter()
            .map(type_of)
            .collect::<Vec<_>>()
            .join(" \\| ");
    }
    let kinds: Vec<&str> = match &property["type"] {
        Value::String(kind) => vec![kind.as_str()],
        Value::Array(kinds) => kinds.iter().filter_map(Value::as_str).collect(),
        _ => return "any".to_owned(),
    };
    kinds
        .into_iter()
        .map(|kind| match kind {
            "array" => format!("{}[]", type_of(&property["items"])),
            "object" if property["additionalProperties"].is_object() => {
                format!("map of {}", type_of(&property["additionalProperties"]))
            }
            other => other.to_owned(),
        })
        .collect::<Vec<_>>()
        .join(" \\| ")
}

#[test]
fn the_vocabulary_reference_lists_every_closed_word_and_category() {
    // The node types keep the groups their declaration marks with comments.
    let vocab_source = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../policies/src/vocab.rs"),
    )
    .unwrap();
    let block = &vocab_source[vocab_source.find("pub const NODE_TYPES").unwrap()..];
    let block = &block[..block.find("];").unwrap()];
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for line in block.lines().skip(1) {
        let line = line.trim();
        if let Some(group) = line.strip_prefix("// ") {
            groups.push((group.to_owned(), Vec::new()));
        } else if let Some(word) = line
            .strip_prefix('"')
            .and_then(|rest| rest.split('"').next())
        {
            if groups.is_empty() {
                groups.push(("other".to_owned(), Vec::new()));
            }
            groups.last_mut().unwrap().1.push(word.to_owned());
        }
    }
    let grouped: Vec<&str> = groups
        .iter()
        .flat_map(|(_, words)| words.iter().map(String::as_str))
        .collect();
    assert_eq!(
        grouped,
        policies::vocab::NODE_TYPES.to_vec(),
        "every node type is read from vocab.rs, in order"
    );

    let mut page = String::from("## Node types\n\n| group | types |\n|---|---|\n");
    for (group, words) in &groups {
        writeln!(
            page,
            "| {group} | {} |",
            code_list(words.iter().map(String::as_str))
        )
        .unwrap();
    }
    for (title, words) in [
        ("Resource types", &policies::vocab::RESOURCE_TYPES[..]),
        ("Component roles", &policies::vocab::ROLES[..]),
        ("Trust levels", &policies::vocab::TRUST_LEVELS[..]),
        ("Connectivity", &policies::vocab::CONNECTIVITY[..]),
        ("Protocols", &policies::vocab::PROTOCOLS[..]),
        ("Auth", &policies::vocab::AUTH[..]),
        (
            "Workflow permissions",
            &policies::vocab::WORKFLOW_PERMISSIONS[..],
        ),
        ("Primitive types", &policies::vocab::PRIMITIVE_TYPES[..]),
    ] {
        writeln!(page, "\n## {title}\n\n{}", code_list(words.iter().copied())).unwrap();
    }
    // The categories the catalogue gives `accesses_technology` facts, and the entity types each meets.
    let mut categories: Vec<&str> = extractors::catalogue::categories()
        .into_iter()
        .map(|(_, category)| category)
        .collect();
    categories.sort_unstable();
    categories.dedup();
    page.push_str("\n## Technology categories\n\n| category | meets nodes and resources of type |\n|---|---|\n");
    for category in categories {
        let types = engine::category_types(category);
        writeln!(page, "| `{category}` | {} |", code_list(types.into_iter())).unwrap();
    }
    check_page("VOCABULARY.md", &page);
}

fn code_list<'a>(words: impl Iterator<Item = &'a str>) -> String {
    words
        .map(|word| format!("`{word}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
