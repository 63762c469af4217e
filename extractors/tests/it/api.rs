//! The public API on inline sources: language detection, parse errors, positions, ids,
//! robustness and thread safety.

use extractors::{extract_file, Language, ProjectContext};
use policies::facts::FactKind;

fn facts_of(path: &str, source: &str) -> Vec<policies::facts::Fact> {
    let context = ProjectContext::default();
    extract_file(&context, path, source).unwrap().facts
}

#[test]
fn languages_are_chosen_by_extension() {
    let cases = [
        ("src/a.ts", Some(Language::TypeScript)),
        ("src/a.d.ts", Some(Language::TypeScript)),
        ("src/a.mts", Some(Language::TypeScript)),
        ("src/a.cts", Some(Language::TypeScript)),
        ("src/a.tsx", Some(Language::Tsx)),
        ("a.js", Some(Language::JavaScript)),
        ("a.jsx", Some(Language::JavaScript)),
        ("a.mjs", Some(Language::JavaScript)),
        ("a.cjs", Some(Language::JavaScript)),
        ("a.py", None),
        ("Makefile", None),
        ("src.ts/readme", None),
    ];
    for (path, expected) in cases {
        assert_eq!(Language::for_path(path), expected, "{path}");
    }
    assert_eq!(Language::TypeScript.name(), "typescript");
    assert_eq!(Language::Tsx.name(), "typescript");
    assert_eq!(Language::JavaScript.name(), "javascript");
    assert!(extract_file(&ProjectContext::default(), "notes.md", "# hi").is_none());
}

#[test]
fn parse_errors_are_counted_and_located() {
    let source = "import { a } from './a';\nconst x = ;\nfunction (\n";
    let extraction = extract_file(&ProjectContext::default(), "broken.ts", source).unwrap();
    assert!(extraction.parse_errors >= 1);
    assert_eq!(extraction.first_parse_error.map(|(line, _)| line), Some(2));
    // The import before the error is still extracted.
    assert_eq!(extraction.facts.len(), 1);
    assert_eq!(extraction.facts[0].kind, FactKind::Import);

    let clean = extract_file(
        &ProjectContext::default(),
        "clean.js",
        "export const a = 1;\n",
    )
    .unwrap();
    assert_eq!((clean.parse_errors, clean.first_parse_error), (0, None));
}

#[test]
fn columns_count_unicode_scalar_values() {
    let source = "const café = '☕'; import('./é');\n";
    let facts = facts_of("src/a.ts", source);
    assert_eq!(facts.len(), 1);
    let evidence = &facts[0].evidence;
    assert_eq!((evidence.line, evidence.column), (1, 19));
    // End columns are exclusive (the column after the construct), as in SARIF.
    assert_eq!((evidence.end_line, evidence.end_column), (1, 32));
    assert_eq!(facts[0].id, "typescript:src/a.ts:1:19:import");
}

#[test]
fn every_fact_has_language_and_typescript_extractor() {
    for (path, language) in [
        ("a.ts", "typescript"),
        ("a.tsx", "typescript"),
        ("a.js", "javascript"),
    ] {
        let facts = facts_of(path, "import pg from 'pg';\nfetch('/x');\n");
        assert!(!facts.is_empty());
        for fact in facts {
            assert_eq!(fact.property_str("language"), Some(language), "{path}");
            assert_eq!(fact.evidence.extractor, "typescript");
            assert!(fact.id.starts_with(&format!("typescript:{path}:")));
            assert!(fact.subject.is_none() && fact.target.is_none());
        }
    }
}

#[test]
fn facts_are_sorted_and_repeated_positions_get_distinct_ids() {
    let source = "import Fastify from 'fastify';\nconst fastify = Fastify();\nfastify.route({ method: ['GET', 'HEAD'], url: '/status', handler: status });\n";
    let facts = facts_of("server.ts", source);
    let routes: Vec<&str> = facts
        .iter()
        .filter(|fact| fact.kind == FactKind::Route)
        .map(|fact| fact.id.as_str())
        .collect();
    assert_eq!(
        routes,
        [
            "typescript:server.ts:3:1:route",
            "typescript:server.ts:3:1:route#1"
        ]
    );
    let keys: Vec<_> = facts
        .iter()
        .map(|fact| (fact.evidence.line, fact.evidence.column, fact.kind))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
}

#[test]
fn odd_input_never_panics() {
    let inputs = [
        String::new(),
        "\u{feff}".to_owned(),
        "(".repeat(5000),
        "import".to_owned(),
        "require(".to_owned(),
        "import('')".to_owned(),
        "require('')".to_owned(),
        "new".to_owned(),
        "@Get(".to_owned(),
        "app.get(`/${`".to_owned(),
        "\0\u{1}\u{2} import x from '\u{0}'".to_owned(),
        "fetch(`${a}${b}`, { method })".to_owned(),
        "import x from '../../../../../../etc/passwd';".to_owned(),
        "const { a: { b } } = require('pg');".to_owned(),
        "x = '\\u{110000}\\uZZZZ\\x'; require('\\u0070g')".to_owned(),
    ];
    for input in &inputs {
        for path in ["a.ts", "a.tsx", "a.js"] {
            let _ = extract_file(&ProjectContext::default(), path, input);
        }
    }
    let escaped = facts_of("a.js", "require('\\u0070g');");
    assert_eq!(escaped[0].property_str("package"), Some("pg"));
}

#[test]
fn extraction_is_the_same_on_every_thread() {
    let source = "import { Pool } from 'pg';\nexport const pool = new Pool();\nexport const load = () => fetch('/api/orders');\n";
    let expected = facts_of("db.ts", source);
    let handles: Vec<_> = (0..4)
        .map(|_| std::thread::spawn(move || facts_of("db.ts", source)))
        .collect();
    for handle in handles {
        assert_eq!(handle.join().unwrap(), expected);
    }
}
