//! Unit tests of the located YAML tree, scalar typing, templates and the code registry; the
//! public behaviour (loading, matching, emitting) is tested in `tests/it/agq.rs`.

use std::collections::BTreeSet;

use super::diagnostic::{closest, Code};
use super::template::Template;
use super::yaml::{parse_documents, Node, ScalarKind, Value, MAX_DEPTH};

fn single_root(text: &str) -> Node {
    let (documents, problems) = parse_documents(text);
    assert_eq!(problems, []);
    assert_eq!(documents.len(), 1);
    documents.into_iter().next().unwrap().root
}

fn scalar_kind(text: &str) -> ScalarKind {
    match single_root(&format!("k: {text}\n")).value {
        Value::Mapping(entries) => match &entries[0].value.value {
            Value::Scalar(scalar) => scalar.kind,
            other => panic!("not a scalar: {other:?}"),
        },
        other => panic!("not a mapping: {other:?}"),
    }
}

#[test]
fn codes_are_unique_and_prefixed() {
    let codes: BTreeSet<&str> = Code::ALL.iter().map(|code| code.as_str()).collect();
    assert_eq!(codes.len(), Code::ALL.len());
    assert!(codes.iter().all(|code| code.starts_with("query-")));
    let warnings: Vec<&str> = Code::ALL
        .iter()
        .filter(|code| !code.is_error())
        .map(|code| code.as_str())
        .collect();
    assert_eq!(
        warnings,
        [
            "query-unknown-key",
            "query-unknown-emit-field",
            "query-matches-everything",
            "query-invalid-fact"
        ]
    );
}

#[test]
fn nodes_carry_one_based_lines_columns_and_byte_offsets() {
    let root = single_root("id: é\nmatch:\n  kind: \"x\"\n  n: [1, b]\n");
    let Value::Mapping(entries) = &root.value else {
        panic!("not a mapping")
    };
    // A block mapping starts at its first key, not where the parser's marker points.
    assert_eq!(
        (root.span.line, root.span.column, root.span.offset),
        (1, 1, 0)
    );
    let id = &entries[0];
    assert_eq!((id.key_span.line, id.key_span.column), (1, 1));
    assert_eq!((id.value.span.line, id.value.span.column), (1, 5));
    assert_eq!((id.value.span.offset, id.value.span.end_offset), (4, 6));
    let Value::Mapping(inner) = &entries[1].value.value else {
        panic!("match is not a mapping")
    };
    let kind = &inner[0].value;
    assert_eq!((kind.span.line, kind.span.column), (3, 9));
    // Offsets are bytes: `é` is two bytes but one column.
    assert_eq!(kind.span.offset, "id: é\nmatch:\n  kind: ".len());
    assert_eq!(kind.span.end_offset - kind.span.offset, 3);
    let Value::Sequence(items) = &inner[1].value.value else {
        panic!("n is not a sequence")
    };
    assert_eq!((items[1].span.line, items[1].span.column), (4, 10));
}

#[test]
fn a_byte_order_mark_is_skipped_but_counted_in_offsets() {
    let root = single_root("\u{feff}id: a\n");
    let Value::Mapping(entries) = &root.value else {
        panic!("not a mapping")
    };
    assert_eq!(entries[0].key, "id");
    assert_eq!(entries[0].value.span.offset, 7);
    assert_eq!(entries[0].value.span.column, 5);
}

#[test]
fn crlf_line_breaks_are_one_break() {
    let root = single_root("a: 1\r\nb: 2\r\n");
    let Value::Mapping(entries) = &root.value else {
        panic!("not a mapping")
    };
    assert_eq!(
        (entries[1].key_span.line, entries[1].key_span.offset),
        (2, 6)
    );
}

#[test]
fn plain_scalars_follow_the_core_schema() {
    assert_eq!(scalar_kind("5"), ScalarKind::Int(5));
    assert_eq!(scalar_kind("-5"), ScalarKind::Int(-5));
    assert_eq!(scalar_kind("0x10"), ScalarKind::Int(16));
    assert_eq!(scalar_kind("0o17"), ScalarKind::Int(15));
    assert_eq!(scalar_kind("2.5"), ScalarKind::Float(2.5));
    assert_eq!(scalar_kind("1e3"), ScalarKind::Float(1000.0));
    assert_eq!(scalar_kind(".5"), ScalarKind::Float(0.5));
    assert_eq!(scalar_kind("-.inf"), ScalarKind::Float(f64::NEG_INFINITY));
    assert_eq!(scalar_kind("true"), ScalarKind::Bool(true));
    assert_eq!(scalar_kind("FALSE"), ScalarKind::Bool(false));
    assert_eq!(scalar_kind("~"), ScalarKind::Null);
    assert_eq!(scalar_kind("null"), ScalarKind::Null);
    assert_eq!(scalar_kind(""), ScalarKind::Null);
    assert_eq!(scalar_kind("yes"), ScalarKind::Str);
    assert_eq!(scalar_kind("1.2.3"), ScalarKind::Str);
    assert_eq!(scalar_kind("0x"), ScalarKind::Str);
    assert_eq!(scalar_kind("'5'"), ScalarKind::Str);
    assert_eq!(scalar_kind("\"true\""), ScalarKind::Str);
    assert_eq!(scalar_kind("!!str 5"), ScalarKind::Str);
    assert_eq!(
        scalar_kind("99999999999999999999"),
        ScalarKind::Float(99_999_999_999_999_999_999.0)
    );
}

#[test]
fn empty_documents_are_skipped_and_indices_count_them() {
    let (documents, problems) = parse_documents("a: 1\n---\n---\n# only a comment\n---\nb: 2\n");
    assert_eq!(problems, []);
    let indices: Vec<usize> = documents.iter().map(|document| document.index).collect();
    assert_eq!(indices, [0, 3]);
    assert_eq!(documents[1].root.span.line, 6);
}

#[test]
fn aliases_are_rejected_at_the_alias() {
    let (documents, problems) = parse_documents("a: &x [1, 2]\nb: *x\n---\nc: 3\n");
    assert_eq!(problems.len(), 1);
    assert!(problems[0].message.contains("aliases"), "{problems:?}");
    assert_eq!((problems[0].span.line, problems[0].span.column), (2, 4));
    // The poisoned document is dropped; the next one is kept.
    assert_eq!(documents.len(), 1);
    assert_eq!(documents[0].index, 1);
}

#[test]
fn a_billion_laughs_file_costs_nothing() {
    let mut text = String::from("a: &a [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n");
    for level in 1..10 {
        let previous = char::from(b'a' + level - 1);
        let name = char::from(b'a' + level);
        text.push_str(&format!(
            "{name}: &{name} [*{previous}, *{previous}, *{previous}, *{previous}]\n"
        ));
    }
    let (documents, problems) = parse_documents(&text);
    assert!(documents.is_empty());
    assert_eq!(problems.len(), 36);
}

#[test]
fn nesting_is_bounded() {
    let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 5), "]".repeat(MAX_DEPTH + 5));
    let (documents, problems) = parse_documents(&deep);
    assert!(documents.is_empty());
    assert!(!problems.is_empty());
    let block: String = (0..MAX_DEPTH + 2)
        .map(|depth| format!("{}k{depth}:\n", "  ".repeat(depth)))
        .collect();
    let (documents, problems) = parse_documents(&block);
    assert!(documents.is_empty());
    assert_eq!(problems.len(), 1);
    assert!(
        problems[0].message.contains("deeper than 64"),
        "{problems:?}"
    );
}

#[test]
fn duplicate_keys_are_reported_with_the_first_one() {
    let (documents, problems) = parse_documents("a: 1\nb: 2\na: 3\n");
    assert!(documents.is_empty());
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].message, "invalid YAML: duplicate key `a`");
    assert_eq!(problems[0].span.line, 3);
    let (first, note) = problems[0].related.clone().unwrap();
    assert_eq!(
        (first.line, first.column, note.as_str()),
        (1, 1, "first given here")
    );
}

#[test]
fn collection_keys_are_rejected() {
    let (documents, problems) = parse_documents("? [a, b]\n: c\n");
    assert!(documents.is_empty());
    assert_eq!(
        problems[0].message,
        "invalid YAML: mapping keys must be scalars"
    );
}

#[test]
fn syntax_errors_keep_the_documents_before_them() {
    let (documents, problems) = parse_documents("a: 1\n---\nb: [\n");
    assert_eq!(documents.len(), 1);
    assert_eq!(problems.len(), 1);
    assert!(problems[0].message.starts_with("invalid YAML: "));
}

#[test]
fn odd_inputs_never_panic() {
    for text in [
        "",
        "\u{feff}",
        "---",
        "...",
        "- - - -",
        "{",
        "}",
        "[",
        "&a",
        "*a",
        "!!",
        "? ",
        ":",
        "\t",
        "a: |\n  x\n b",
        "%YAML 1.2\n---\n",
        "%TAG ! x\n",
        "a: 'b",
        "\r",
        "\0",
        "é: ü\n",
    ] {
        let _ = parse_documents(text);
    }
}

#[test]
fn templates_split_captures_and_unescape_dollars() {
    assert_eq!(Template::parse("Order").literal().as_deref(), Some("Order"));
    assert_eq!(Template::parse("a$$b").literal().as_deref(), Some("a$b"));
    assert_eq!(Template::parse("$$x").literal().as_deref(), Some("$x"));
    assert_eq!(
        Template::parse("cost $5").literal().as_deref(),
        Some("cost $5")
    );
    assert_eq!(Template::parse("end $").literal().as_deref(), Some("end $"));
    assert_eq!(Template::parse("$receiver.$callee").literal(), None);
    assert_eq!(Template::parse("$_x1").literal(), None);
}

#[test]
fn suggestions_pick_the_closest_name_within_two_edits() {
    assert_eq!(closest("ownr", &["owner", "emit"]), Some("owner"));
    assert_eq!(
        closest("transtion", &["transition", "flow"]),
        Some("transition")
    );
    assert_eq!(closest("zzzzzz", &["owner", "emit"]), None);
    // Ties go to the lexicographically first name.
    assert_eq!(closest("ab", &["ac", "aa"]), Some("aa"));
}
