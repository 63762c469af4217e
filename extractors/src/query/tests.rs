//! Capture validation and error reporting of query compilation.

use std::sync::LazyLock;

use super::*;
use crate::lang::{compiled, compiled_without_generic};
use crate::language::Language;

type Compiled = LazyLock<Result<CompiledQuery, ExtractError>>;

static UNKNOWN_CAPTURE_QUERY: Compiled = LazyLock::new(|| {
    CompiledQuery::compile(
        "javascript",
        &[QueryFile {
            name: "javascript/bad.scm",
            text: "(identifier) @fact.import.nonsense\n",
        }],
        Some(tree_sitter_javascript::LANGUAGE.into()),
        true,
    )
});

static BROKEN_PATTERN_QUERY: Compiled = LazyLock::new(|| {
    CompiledQuery::compile(
        "javascript",
        &[
            QueryFile {
                name: "javascript/good.scm",
                text: "(identifier) @fact.import.specifier\n",
            },
            QueryFile {
                name: "javascript/broken.scm",
                text: "; a comment line\n(no_such_node) @fact.import.specifier\n",
            },
        ],
        Some(tree_sitter_javascript::LANGUAGE.into()),
        true,
    )
});

#[test]
fn unknown_captures_are_rejected_with_the_expected_names() {
    let Err(ExtractError::UnknownCapture(error)) = &*UNKNOWN_CAPTURE_QUERY else {
        panic!("expected an unknown-capture error");
    };
    assert_eq!(error.capture(), "fact.import.nonsense");
    let message = error.to_string();
    assert!(message.contains("`@fact.import.specifier`"), "{message}");
    assert!(message.contains("`@fact.route.decorator`"), "{message}");
}

#[test]
fn compile_errors_name_the_query_file_and_its_line() {
    let Err(ExtractError::QueryCompile(error)) = &*BROKEN_PATTERN_QUERY else {
        panic!("expected a compile error");
    };
    assert_eq!(error.file(), "javascript/broken.scm");
    assert!(error.to_string().contains("line 2"), "{error}");
}

#[test]
fn captures_parse_only_within_the_vocabulary() {
    assert_eq!(
        parse_capture("fact.import.specifier"),
        Some((FactKind::Import, Field::Specifier))
    );
    assert_eq!(parse_capture("fact.workflow_job.call"), None);
    assert_eq!(parse_capture("fact.nonsense.call"), None);
    assert_eq!(parse_capture("import.specifier"), None);
    assert!(capture_vocabulary().contains(&"fact.http_call.arguments".to_owned()));
}

fn fixture_sources(root: &std::path::Path, found: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    let mut entries: Vec<std::path::PathBuf> =
        entries.flatten().map(|entry| entry.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            fixture_sources(&path, found);
        } else if Language::for_path(&path.to_string_lossy())
            .is_some_and(|language| language.spec().tree_sitter().is_some())
        {
            found.push(path);
        }
    }
}

/// A hit as its kind and captured byte ranges.
fn describe(hit: &QueryHit<'_>) -> String {
    let captures: Vec<String> = hit
        .captures()
        .iter()
        .map(|(field, node)| format!("{field:?}@{}..{}", node.start_byte(), node.end_byte()))
        .collect();
    format!("{:?} {}", hit.kind, captures.join(" "))
}

/// Without generic facts each language matches its query minus `graph.scm`: on every fixture,
/// that query finds exactly the full query's hits that are not `call`/`assignment`, in order.
#[test]
fn the_query_without_generic_patterns_finds_every_other_hit_in_order() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files = Vec::new();
    fixture_sources(&root, &mut files);
    let mut languages = std::collections::BTreeSet::new();
    let (mut generic_hits, mut other_hits) = (0, 0);
    for path in &files {
        let name = path.to_string_lossy().into_owned();
        let (Some(language), Ok(source)) =
            (Language::for_path(&name), std::fs::read_to_string(path))
        else {
            continue;
        };
        let Some(backend) = language.spec().tree_sitter() else {
            continue;
        };
        let full = compiled(language).unwrap().unwrap();
        let without = compiled_without_generic(language).unwrap().unwrap();
        assert!(
            without.query.pattern_count() < full.query.pattern_count(),
            "{name}: the query without graph.scm keeps every pattern"
        );
        let tree = crate::syntax::parse(backend.grammar, &source).unwrap();
        let all = full.hits(&tree, &source);
        let expected: Vec<String> = all
            .iter()
            .filter(|hit| !matches!(hit.kind, FactKind::Call | FactKind::Assignment))
            .map(describe)
            .collect();
        let actual: Vec<String> = without.hits(&tree, &source).iter().map(describe).collect();
        assert_eq!(actual, expected, "{name}");
        generic_hits += all.len() - expected.len();
        other_hits += expected.len();
        languages.insert(language.name());
    }
    assert!(languages.len() >= 8, "languages checked: {languages:?}");
    assert!(
        generic_hits > 100 && other_hits > 100,
        "{generic_hits} generic hits, {other_hits} other hits"
    );
}

#[test]
fn a_hit_keeps_every_capture_in_pattern_order_past_the_ones_held_in_place() {
    let source = "a; b; c; d; e; f;";
    let tree = crate::syntax::parse(|| tree_sitter_javascript::LANGUAGE.into(), source)
        .expect("javascript parses");
    let root = tree.root_node();
    let statements: Vec<Node<'_>> = (0..root.named_child_count())
        .filter_map(|index| root.named_child(index))
        .collect();
    assert_eq!(statements.len(), 6);
    let fields = [
        Field::Call,
        Field::Receiver,
        Field::Method,
        Field::Arguments,
        Field::Value,
        Field::Method,
    ];
    let hit = QueryHit::new(
        FactKind::Call,
        fields.iter().copied().zip(statements.iter().copied()),
    );
    let captured: Vec<(Field, usize)> = hit
        .captures()
        .into_iter()
        .map(|(field, node)| (field, node.start_byte()))
        .collect();
    assert_eq!(
        captured,
        vec![
            (Field::Call, 0),
            (Field::Receiver, 3),
            (Field::Method, 6),
            (Field::Arguments, 9),
            (Field::Value, 12),
            (Field::Method, 15),
        ]
    );
    // The first node captured as a field, even when the field comes again past the fourth.
    assert_eq!(
        hit.node(Field::Method).map(|node| node.start_byte()),
        Some(6)
    );
    assert_eq!(
        hit.node(Field::Value).map(|node| node.start_byte()),
        Some(12)
    );
    assert_eq!(hit.node(Field::Type), None);
}
