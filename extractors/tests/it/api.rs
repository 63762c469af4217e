//! The public API on inline sources: language detection, parse errors, positions, ids,
//! robustness and thread safety.

use extractors::{extract_file, Language, ProjectContext};
use policies::facts::FactKind;

/// (confidence, line) of each `accesses_technology` fact of a file extracted in `context`.
fn accesses_of(context: &ProjectContext, path: &str, source: &str) -> Vec<(String, u32)> {
    extract_file(context, path, source)
        .unwrap()
        .facts
        .iter()
        .filter(|fact| fact.kind == FactKind::AccessesTechnology)
        .map(|fact| (fact.confidence.as_str().to_owned(), fact.evidence.line))
        .collect()
}

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
        ("a.py", Some(Language::Python)),
        ("a.go", Some(Language::Go)),
        ("A.java", Some(Language::Java)),
        ("A.kt", Some(Language::Kotlin)),
        ("build.gradle.kts", Some(Language::Kotlin)),
        ("A.cs", Some(Language::CSharp)),
        ("lib.rs", Some(Language::Rust)),
        ("A.swift", Some(Language::Swift)),
        (".github/workflows/ci.yml", Some(Language::GitHubActions)),
        (
            ".github/workflows/release.yaml",
            Some(Language::GitHubActions),
        ),
        (".github/workflows/nested/ci.yml", None),
        ("app/.github/workflows/ci.yml", None),
        ("config.yml", None),
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

/// A NUL byte inside a string or a comment is text like any other to tsc and JavaScript
/// engines, while tree-sitter's lexers take it for the end of the input and lose the rest of the
/// file to error nodes: langfuse's JSON-index bench script marks its child's output with
/// `"\0RESULT\0"` and had 18 error nodes from its first line. Such a file is read as if each NUL
/// were a space; facts keep the file's own text.
#[test]
fn a_nul_byte_in_a_string_does_not_end_the_file() {
    let source = "import { a } from './a';\n\
                  const marker = \"\0RESULT\0\";\n\
                  // a comment with a \0 in it\n\
                  export const find = (out) => out.indexOf(marker);\n\
                  export const load = () => fetch('/api/load');\n";
    for path in ["bench.ts", "bench.js"] {
        let extraction = extract_file(&ProjectContext::default(), path, source).unwrap();
        assert_eq!(
            (extraction.parse_errors, extraction.first_parse_error),
            (0, None),
            "{path}"
        );
    }
    let facts = facts_of("bench.ts", source);
    let marker = facts
        .iter()
        .find(|fact| fact.kind == FactKind::Call && fact.evidence.line == 4)
        .unwrap();
    assert_eq!(marker.property_str("qualified"), Some("out.indexOf"));
    assert!(facts
        .iter()
        .any(|fact| fact.kind == FactKind::HttpCall && fact.evidence.line == 5));
}

/// Constructs the TypeScript grammar does not know still give type-only imports, and count as
/// no parse errors: `export type * from` (TypeScript 5.0) and `typeof import('x')` in a call's
/// type arguments, which the grammar reads as comparisons followed by an `ERROR`.
#[test]
fn type_only_imports_survive_grammar_gaps() {
    let source = "export type * from './types';\n\
                  export type * as shapes from './shapes';\n\
                  export * from './values';\n\
                  const m = await importOriginal<typeof import('./mocked')>();\n\
                  const n = await import('./loaded');\n";
    let extraction = extract_file(&ProjectContext::default(), "setup.ts", source).unwrap();
    assert_eq!(extraction.parse_errors, 0);
    let type_only: Vec<(String, bool)> = extraction
        .facts
        .iter()
        .filter(|fact| fact.kind == FactKind::Import)
        .map(|fact| {
            let property = |name: &str| fact.properties.get(name);
            (
                property("specifier")
                    .and_then(|value| value.as_str())
                    .unwrap_or_default()
                    .to_owned(),
                property("typeOnly")
                    .and_then(|value| value.as_bool())
                    .unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        type_only,
        [
            ("./types".to_owned(), true),
            ("./shapes".to_owned(), true),
            ("./values".to_owned(), false),
            ("./mocked".to_owned(), true),
            ("./loaded".to_owned(), false),
        ]
    );
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
    let long_concatenation = format!("fetch('/a'{});", " + x".repeat(20_000));
    let long_chain = format!("import a from 'axios';\na{}();", ".b".repeat(20_000));
    for input in [long_concatenation, long_chain] {
        let extraction = extract_file(&ProjectContext::default(), "deep.ts", &input).unwrap();
        assert_eq!(extraction.parse_errors, 0);
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

fn import_resolution(
    context: &ProjectContext,
    file: &str,
    source: &str,
) -> Vec<(FactKind, Option<String>)> {
    extract_file(context, file, source)
        .unwrap()
        .facts
        .into_iter()
        .map(|fact| (fact.kind, fact.property_str("resolved").map(str::to_owned)))
        .collect()
}

#[test]
fn configuration_can_come_from_a_snapshot_reader() {
    let files: Vec<String> = [
        "tsconfig.json",
        "tsconfig.base.json",
        "src/app.ts",
        "src/lib/db.ts",
    ]
    .map(str::to_owned)
    .to_vec();
    let context = ProjectContext::discover_with(&files, |path| match path {
        "tsconfig.json" => Some(r#"{ "extends": "./tsconfig.base" }"#.to_owned()),
        "tsconfig.base.json" => {
            Some(r#"{ "compilerOptions": { "paths": { "@lib/*": ["./src/lib/*"] } } }"#.to_owned())
        }
        _ => None,
    });
    assert_eq!(
        import_resolution(&context, "src/app.ts", "import { db } from '@lib/db';"),
        [(FactKind::Import, Some("src/lib/db.ts".to_owned()))]
    );
    assert_eq!(
        context.config_files(),
        ["tsconfig.base.json", "tsconfig.json"]
    );
}

#[cfg(unix)]
#[test]
fn configuration_behind_a_symlink_out_of_the_root_is_not_read() {
    let base =
        std::env::temp_dir().join(format!("lintel-extractors-symlink-{}", std::process::id()));
    let root = base.join("project");
    let outside = base.join("outside");
    std::fs::create_dir_all(root.join("src/lib")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let config = r#"{ "compilerOptions": { "paths": { "@lib/*": ["./src/lib/*"] } } }"#;
    std::fs::write(outside.join("tsconfig.json"), config).unwrap();
    std::fs::write(root.join("src/lib/db.ts"), "export const db = 1;").unwrap();
    std::os::unix::fs::symlink(outside.join("tsconfig.json"), root.join("tsconfig.json")).unwrap();
    let files: Vec<String> = ["tsconfig.json", "src/app.ts", "src/lib/db.ts"]
        .map(str::to_owned)
        .to_vec();
    let context = ProjectContext::discover(&root, &files);
    let resolution = import_resolution(&context, "src/app.ts", "import { db } from '@lib/db';");
    std::fs::remove_dir_all(&base).unwrap();
    // Without the config, `@lib/db` is a bare scoped package.
    assert_eq!(resolution, [(FactKind::External, None)]);
    assert!(context.config_files().is_empty());
}

#[test]
fn every_language_survives_odd_input() {
    let inputs = [
        String::new(),
        "\u{feff}".to_owned(),
        "(".repeat(5000),
        "[".repeat(5000),
        "{".repeat(5000),
        "import".to_owned(),
        "from . import".to_owned(),
        "from ....... import x".to_owned(),
        "use crate::{".repeat(200),
        "use super::super::super::x;".to_owned(),
        "using = ;".to_owned(),
        "import \"\"".to_owned(),
        "package ;".to_owned(),
        "\0\u{1} import x".to_owned(),
        "on: [".to_owned(),
        "- - - -".to_owned(),
        "jobs: { a: { steps: [ { run: 1 } ] } }".to_owned(),
        "&a [*a, *a]".to_owned(),
    ];
    let paths = [
        "a.py",
        "a.go",
        "A.java",
        "A.kt",
        "A.cs",
        "src/lib.rs",
        "A.swift",
        ".github/workflows/ci.yml",
    ];
    for input in &inputs {
        for path in paths {
            let _ = extract_file(&ProjectContext::default(), path, input);
        }
    }
}

/// Expressions nested thousands deep (a URL concatenated from thousands of parts, calls within
/// calls, parentheses) are read without recursion that deep: no stack overflow in any language,
/// even on a thread with a small stack.
#[test]
fn every_language_survives_deeply_nested_expressions() {
    let concatenation = vec!["\"/a\""; 3_000].join(" + ");
    let calls = format!("{}1{}", "f(".repeat(1_000), ")".repeat(1_000));
    let parentheses = format!("{}1{}", "(".repeat(1_000), ")".repeat(1_000));
    let sources: Vec<(&str, String)> = [&concatenation, &calls, &parentheses]
        .into_iter()
        .flat_map(|expression| {
            [
                ("a.ts", format!("fetch({expression});")),
                ("a.py", format!("import requests\nrequests.get({expression})\n")),
                (
                    "a.go",
                    format!("package main\nimport \"net/http\"\nfunc f() {{ http.Get({expression}) }}\n"),
                ),
                (
                    "A.java",
                    format!("class A {{ void f() {{ rest.getForObject({expression}, String.class); }} }}"),
                ),
                ("A.kt", format!("fun f() {{ client.get({expression}) }}")),
                ("A.cs", format!("class A {{ void F() {{ _http.GetAsync({expression}); }} }}")),
                ("src/lib.rs", format!("fn f() {{ reqwest::get({expression}); }}")),
                ("A.swift", format!("func f() {{ AF.request({expression}) }}")),
            ]
        })
        .collect();
    let requests = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            sources
                .iter()
                .map(|(path, source)| {
                    let extraction = extract_file(&ProjectContext::default(), path, source)
                        .unwrap_or_else(|| panic!("{path} is extracted"));
                    extraction
                        .facts
                        .iter()
                        .filter(|fact| fact.kind == policies::facts::FactKind::HttpCall)
                        .count()
                })
                .sum::<usize>()
        })
        .expect("a thread")
        .join()
        .expect("no panic");
    // The concatenated URLs are still requests (past 64 parts, the rest of the chain is one
    // hole); so is `fetch` of a call.
    assert!(requests >= 5, "{requests} requests");
}

#[test]
fn a_malformed_workflow_is_skipped_with_a_located_reason() {
    let extraction = extract_file(
        &ProjectContext::default(),
        ".github/workflows/ci.yml",
        "on: push\njobs:\n  build: [\n",
    )
    .unwrap();
    assert!(extraction.facts.is_empty());
    let reason = extraction.skipped.unwrap();
    assert!(reason.starts_with("invalid YAML at line"), "{reason}");
    let scalar = extract_file(
        &ProjectContext::default(),
        ".github/workflows/a.yml",
        "hello",
    )
    .unwrap();
    assert!(scalar.skipped.unwrap().contains("not a YAML mapping"));
    let empty = extract_file(&ProjectContext::default(), ".github/workflows/a.yml", "").unwrap();
    assert!(empty.skipped.is_some());
}

#[test]
fn facts_of_every_language_carry_its_name_and_extractor() {
    let cases = [
        ("a.py", "import os\n", "python", "python"),
        ("a.go", "package a\nimport \"fmt\"\n", "go", "go"),
        ("A.java", "import java.util.List;\n", "java", "java"),
        ("A.kt", "import kotlin.math.max\n", "kotlin", "kotlin"),
        ("A.cs", "using System;\n", "csharp", "csharp"),
        ("src/lib.rs", "use std::fmt;\n", "rust", "rust"),
        ("A.swift", "import UIKit\n", "swift", "swift"),
        (
            ".github/workflows/a.yml",
            "on: push\n",
            "yaml",
            "github-actions",
        ),
    ];
    for (path, source, language, extractor) in cases {
        let facts = facts_of(path, source);
        assert_eq!(facts.len(), 1, "{path}: {facts:?}");
        let fact = &facts[0];
        assert_eq!(fact.property_str("language"), Some(language), "{path}");
        assert_eq!(fact.evidence.extractor, extractor, "{path}");
        assert!(
            fact.id.starts_with(&format!("{extractor}:{path}:")),
            "{}",
            fact.id
        );
        assert!(!fact.evidence.message.is_empty());
    }
    let workflow = facts_of(".github/workflows/a.yml", "on: push\n");
    assert_eq!(
        workflow[0].evidence.strategy,
        policies::facts::Strategy::Config
    );
}

#[test]
fn generated_files_follow_the_root_gitattributes() {
    let files: Vec<String> = [".gitattributes", "api/gen/client.ts", "api/main.ts"]
        .map(str::to_owned)
        .to_vec();
    let context = ProjectContext::discover_with(&files, |path| {
        (path == ".gitattributes").then(|| "api/gen/** linguist-generated\n".to_owned())
    });
    assert!(context.is_generated("api/gen/client.ts", ""));
    assert!(!context.is_generated("api/main.ts", "export {};"));
    assert!(extractors::is_generated(
        "Api/Migrations/ShopDbModelSnapshot.cs",
        "",
        context.gitattributes()
    ));
    assert_eq!(context.config_files(), [".gitattributes"]);
}

#[test]
fn generic_call_and_assignment_facts_can_be_switched_off() {
    let files = vec!["src/cart.ts".to_owned()];
    let source = "export function pay(cart: Cart) {\n  if (cart.phase === Phase.Filled) {\n    cart.phase = Phase.Paid;\n  }\n  notify(cart);\n}\n";
    let mut context = extractors::ProjectContext::discover_with(&files, |_| None);
    let kinds = |context: &extractors::ProjectContext| -> Vec<policies::facts::FactKind> {
        extractors::extract_file(context, "src/cart.ts", source)
            .unwrap()
            .facts
            .iter()
            .map(|fact| fact.kind)
            .collect()
    };
    let with = kinds(&context);
    assert!(
        with.contains(&policies::facts::FactKind::Call)
            && with.contains(&policies::facts::FactKind::Assignment)
    );
    context.set_generic_facts(false);
    let without = kinds(&context);
    assert!(
        !without.contains(&policies::facts::FactKind::Call)
            && !without.contains(&policies::facts::FactKind::Assignment)
    );
}

/// `external` facts are made only where generic facts are kept (no policy reads them), in
/// every language; the `import` facts beside them are the same either way.
#[test]
fn external_facts_are_made_only_where_generic_facts_are_kept() {
    use policies::facts::FactKind;
    let files: Vec<String> = [
        "app/main.py",
        "app/main.go",
        "src/main.rs",
        "Sources/App/main.swift",
        "web/main.ts",
        "app/Main.java",
        "app/Program.cs",
        "app/util.py",
    ]
    .map(str::to_owned)
    .to_vec();
    let sources = [
        ("app/main.py", "import requests\nfrom app import util\n"),
        (
            "app/main.go",
            "package main\n\nimport \"github.com/lib/pq\"\n",
        ),
        ("src/main.rs", "use serde::Serialize;\nmod db;\n"),
        ("Sources/App/main.swift", "import Alamofire\n"),
        (
            "web/main.ts",
            "import express from 'express';\nimport { x } from './x';\n",
        ),
        (
            "app/Main.java",
            "package app;\n\nimport org.slf4j.Logger;\n\nclass Main {}\n",
        ),
        ("app/Program.cs", "using System.Linq;\n\nclass Program {}\n"),
    ];
    let mut context = ProjectContext::discover_with(&files, |_| None);
    let facts = |context: &ProjectContext, path: &str, source: &str| -> Vec<(FactKind, String)> {
        extractors::extract_file(context, path, source)
            .unwrap()
            .facts
            .iter()
            .filter(|fact| matches!(fact.kind, FactKind::Import | FactKind::External))
            .map(|fact| (fact.kind, fact.id.clone()))
            .collect()
    };
    let with: Vec<_> = sources
        .iter()
        .map(|(path, source)| facts(&context, path, source))
        .collect();
    context.set_generic_facts(false);
    let without: Vec<_> = sources
        .iter()
        .map(|(path, source)| facts(&context, path, source))
        .collect();
    for (((path, _), with), without) in sources.iter().zip(&with).zip(&without) {
        assert!(
            with.iter().any(|(kind, _)| *kind == FactKind::External),
            "{path}: {with:?}"
        );
        let imports: Vec<_> = with
            .iter()
            .filter(|(kind, _)| *kind == FactKind::Import)
            .cloned()
            .collect();
        assert_eq!(*without, imports, "{path}");
    }
}

#[test]
fn java_kotlin_and_csharp_imports_resolve_once_the_declarations_are_added() {
    let main =
        "package com.acme.app;\n\nimport com.acme.lib.Shared;\n\nclass Main { Shared shared; }\n";
    let program = "using Acme.Lib;\n\nclass Program { Widget widget; }\n";
    let resolved = |context: &ProjectContext| {
        [("app/Main.java", main), ("app/Program.cs", program)].map(|(path, source)| {
            import_resolution(context, path, source)
                .into_iter()
                .find_map(|(kind, resolved)| (kind == FactKind::Import).then_some(resolved))
                .flatten()
        })
    };
    let mut context = ProjectContext::default();
    // Without the declarations, `com.acme.lib` is a library and `Widget` is no project type.
    assert_eq!(resolved(&context), [None, None]);
    for (path, source) in [
        ("lib/Shared.kt", "package com.acme.lib\n\nclass Shared\n"),
        (
            "lib/Widget.cs",
            "namespace Acme.Lib { public class Widget {} }\n",
        ),
    ] {
        let declarations = extractors::read_declarations(path, source).unwrap();
        context.add_declarations(path, declarations);
    }
    assert_eq!(
        resolved(&context),
        [
            Some("lib/Shared.kt".to_owned()),
            Some("lib/Widget.cs".to_owned())
        ]
    );
    assert!(extractors::read_declarations("lib/shared.ts", "export class Shared {}").is_none());
}

/// A run whose reviewed queries ask for some calls and writes makes only those generic facts,
/// each with the id it has when every fact is made: `a.save().flush()` and `a.save()` start at
/// the same place and are told apart by their order, so the call of `flush` is the `#1` there
/// even when the call of `save` is not made.
#[test]
fn queries_choose_the_generic_facts_made_and_their_ids_stay() {
    let queries = "id: Saves\nowner: t\nversion: 1\nconfidence: definite\n\
                   match: { kind: call, callee: [flush, persist] }\n\
                   emit: { kind: event, event: Saved, scope: Order }\n---\n\
                   id: Status\nowner: t\nversion: 1\nconfidence: definite\n\
                   match: { kind: assignment, property: status }\n\
                   emit: { kind: event, event: Moved, scope: Order }\n";
    let (set, diagnostics) = extractors::agq::load_query_texts(&[(
        ".lintel/queries/q.agq.yml".to_owned(),
        queries.to_owned(),
    )]);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let sources = [
        (
            "web/order.ts",
            "export function f(a: any, o: any) {\n  a.save().flush();\n  a.persist(o);\n  o.status = 1;\n  o.total = 2;\n}\n",
        ),
        (
            "app/order.py",
            "def f(a, o):\n    a.save().flush()\n    a.persist(o)\n    o.status = 1\n    o.total = 2\n",
        ),
        (
            "app/Order.java",
            "class Order { void f(A a, O o) { a.save().flush(); a.persist(o); o.status = 1; o.total = 2; } }\n",
        ),
        (
            "app/Order.cs",
            "class Order { void F(A a, O o) { a.save().flush(); a.persist(o); o.status = 1; o.total = 2; } }\n",
        ),
        (
            "app/order.go",
            "package app\n\nfunc f(a A, o *O) {\n\ta.save().flush()\n\ta.persist(o)\n\to.status = 1\n\to.total = 2\n}\n",
        ),
    ];
    let files: Vec<String> = sources.iter().map(|(path, _)| (*path).to_owned()).collect();
    let mut context = ProjectContext::discover_with(&files, |_| None);
    let generic = |context: &ProjectContext, path: &str, source: &str| -> Vec<(String, String)> {
        extract_file(context, path, source)
            .unwrap()
            .facts
            .iter()
            .filter(|fact| matches!(fact.kind, FactKind::Call | FactKind::Assignment))
            .map(|fact| {
                let name = fact
                    .property_str("callee")
                    .or_else(|| fact.property_str("property"))
                    .unwrap_or_default();
                (fact.id.clone(), name.to_owned())
            })
            .collect()
    };
    let every: Vec<_> = sources
        .iter()
        .map(|(path, source)| generic(&context, path, source))
        .collect();
    context.set_generic(set.generic_facts());
    for ((path, source), every) in sources.iter().zip(every) {
        let chosen = generic(&context, path, source);
        let expected: Vec<_> = every
            .iter()
            .filter(|(_, name)| matches!(name.as_str(), "flush" | "persist" | "status"))
            .cloned()
            .collect();
        assert_eq!(chosen, expected, "{path}: every fact {every:?}");
        let names: Vec<&str> = chosen.iter().map(|(_, name)| name.as_str()).collect();
        assert_eq!(names, ["flush", "persist", "status"], "{path}");
        assert!(chosen[0].0.ends_with(":call#1"), "{path}: {chosen:?}");
    }
    // Without queries that ask for them, none is made.
    context.set_generic(extractors::agq::QuerySet::default().generic_facts());
    for (path, source) in sources {
        assert!(generic(&context, path, source).is_empty(), "{path}");
    }
}

/// A Java walk without the generic facts steps over the statements that can add nothing, and
/// only those: a statement with a name first used there, a lowercase qualified name
/// (`com.acme.billing.Invoice`), a local class or record, a client or an HTTP call is walked
/// even when every name in it was used before. The facts are those of a walk of every statement.
#[test]
fn a_java_walk_steps_over_no_statement_that_adds_a_fact() {
    let service = "package com.acme.app;\n\
        \n\
        import org.apache.kafka.clients.producer.KafkaProducer;\n\
        import org.springframework.web.client.RestTemplate;\n\
        \n\
        public class Service {\n\
        \x20   void names(Invoice issue, Object com, Object acme, Object billing, Object record,\n\
        \x20           Object Audit, Object Ledger, Object template, Object put, Object x,\n\
        \x20           Object KafkaProducer, Object send) {\n\
        \x20       x = issue;\n\
        \x20   }\n\
        \n\
        \x20   void uses(RestTemplate template) {\n\
        \x20       com.acme.billing.Invoice.issue();\n\
        \x20       x = record.issue(template);\n\
        \x20       class Ledger { }\n\
        \x20       record Audit(Object x) { }\n\
        \x20       template.put(\"/invoices/1\", x);\n\
        \x20       x = new KafkaProducer(x);\n\
        \x20       KafkaProducer.send(x);\n\
        \x20   }\n\
        }\n";
    let invoice = "package com.acme.billing;\n\npublic class Invoice {\n    public static void issue() { }\n}\n";
    let audit = "package com.acme.app;\n\npublic class Audit { }\n";
    let ledger = "package com.acme.app;\n\npublic class Ledger { }\n";
    let files: Vec<String> = [
        "src/main/java/com/acme/app/Service.java",
        "src/main/java/com/acme/app/Audit.java",
        "src/main/java/com/acme/app/Ledger.java",
        "src/main/java/com/acme/billing/Invoice.java",
    ]
    .map(str::to_owned)
    .to_vec();
    let read = |path: &str| {
        Some(
            match path {
                "src/main/java/com/acme/app/Service.java" => service,
                "src/main/java/com/acme/app/Audit.java" => audit,
                "src/main/java/com/acme/app/Ledger.java" => ledger,
                _ => invoice,
            }
            .to_owned(),
        )
    };
    let facts = |pruning: bool| -> Vec<String> {
        let mut context = ProjectContext::discover_with(&files, |_| None);
        context.set_generic_facts(false);
        context.set_pruning(pruning);
        let mut facts: Vec<String> = extractors::extract_files(&mut context, &files, read)
            .into_iter()
            .flat_map(|(_, extraction)| extraction.facts)
            .map(|fact| serde_json::to_string(&fact).unwrap())
            .collect();
        facts.sort();
        facts
    };
    let walked = facts(false);
    assert_eq!(facts(true), walked);
    let has = |needle: &str| walked.iter().any(|fact| fact.contains(needle));
    // The qualified use reaches Invoice (its simple name is used before, unresolved).
    assert!(
        has("qualified use of `com.acme.billing.Invoice`"),
        "{walked:#?}"
    );
    // The local class and record shadow the same-package `Ledger` and `Audit`: no edges.
    assert!(!has("Ledger.java") && !has("Audit.java"), "{walked:#?}");
    assert!(has("Invoice.java"), "{walked:#?}");
    assert!(has("\"http_call\""), "{walked:#?}");
    assert!(has("construction of `KafkaProducer`"), "{walked:#?}");
}

/// A Rust `use` path may start at any name in scope (Rust 2018's uniform paths): an enum the
/// file declares (`use Mode::*;`) is the file's own, one another `use` brings in (`use
/// crate::ast::Kind;` then `use Kind::*;`) resolves through that `use`, and neither is an
/// external package named after the enum.
#[test]
fn a_rust_use_of_an_enum_in_scope_is_no_external_package() {
    let lib = "mod ast;\n\
        use crate::ast::Kind;\n\
        \n\
        pub enum Mode { Fast, Slow }\n\
        \n\
        pub fn fast(mode: Mode) -> bool {\n\
        \x20   use Mode::*;\n\
        \x20   matches!(mode, Fast)\n\
        }\n\
        \n\
        pub fn leaf(kind: Kind) -> bool {\n\
        \x20   use Kind::*;\n\
        \x20   matches!(kind, Leaf)\n\
        }\n\
        \n\
        pub fn ready() {\n\
        \x20   use std::task::Poll;\n\
        \x20   use Poll::Ready;\n\
        }\n";
    let facts = one_crate_facts(lib, ("src/ast.rs", "pub enum Kind { Leaf, Node }\n"));
    let at_line = |line: u32| {
        facts
            .iter()
            .find(|fact| *fact.evidence.file == *"src/lib.rs" && fact.evidence.line == line)
            .unwrap_or_else(|| panic!("no fact at line {line}: {facts:#?}"))
    };
    let resolved = |line: u32| {
        at_line(line)
            .properties
            .get("resolved")
            .and_then(|value| value.as_str())
            .map(str::to_owned)
    };
    assert_eq!(resolved(7).as_deref(), Some("src/lib.rs"));
    assert_eq!(resolved(12).as_deref(), Some("src/ast.rs"));
    let ready = at_line(18);
    assert_eq!(ready.kind, FactKind::External);
    assert_eq!(
        ready
            .properties
            .get("package")
            .and_then(|value| value.as_str()),
        Some("std")
    );
}

/// A library the spec binds with `clients` is a client even when the catalogue does not know
/// it: in TypeScript/JavaScript what a file constructs, calls or extends of its import is a
/// definite use, in Python a call of a path inside it (the other languages: the `bound-clients`
/// fixtures); a file that only imports it has a probable use, and its `external` fact is made
/// although no query asks for externals.
#[test]
fn bound_client_libraries_are_clients() {
    let mut context = ProjectContext::default();
    context.set_generic(extractors::GenericFacts::NONE.with_bound_clients([
        "sequelize".to_owned(),
        "bull".to_owned(),
        "celery".to_owned(),
    ]));
    let accesses = |path: &str, source: &str| -> Vec<(String, u32, String)> {
        extract_file(&context, path, source)
            .unwrap()
            .facts
            .iter()
            .filter(|fact| matches!(fact.kind, FactKind::AccessesTechnology | FactKind::External))
            .map(|fact| {
                (
                    format!("{} {}", fact.kind.as_str(), fact.confidence.as_str()),
                    fact.evidence.line,
                    fact.property_str("package").unwrap_or_default().to_owned(),
                )
            })
            .collect()
    };
    let fact = |kind: &str, line: u32, package: &str| (kind.to_owned(), line, package.to_owned());
    assert_eq!(
        accesses(
            "src/db.ts",
            "import { Sequelize } from 'sequelize';\nimport express from 'express';\nexport const db = new Sequelize('postgres://x');\n",
        ),
        [
            fact("external definite", 1, "sequelize"),
            fact("accesses_technology definite", 3, "sequelize"),
        ]
    );
    assert_eq!(
        accesses(
            "src/jobs.js",
            "const Queue = require('bull');\nmodule.exports = new Queue('mail');\n",
        ),
        [
            fact("external definite", 1, "bull"),
            fact("accesses_technology definite", 2, "bull"),
        ]
    );
    assert_eq!(
        accesses(
            "src/types.ts",
            "import { Model } from 'sequelize';\nexport const bases = [Model];\n"
        ),
        [
            fact("external definite", 1, "sequelize"),
            fact("accesses_technology probable", 1, "sequelize"),
        ]
    );
    assert_eq!(
        accesses(
            "src/models.ts",
            "import { Model } from 'sequelize';\nexport class User extends Model {}\n"
        ),
        [
            fact("external definite", 1, "sequelize"),
            fact("accesses_technology definite", 2, "sequelize"),
        ]
    );
    assert_eq!(
        accesses("tasks.py", "import celery\napp = celery.Celery('jobs')\n"),
        [
            fact("external definite", 1, "celery"),
            fact("accesses_technology definite", 2, "celery"),
        ]
    );
    assert_eq!(
        accesses("other.py", "import celery\n"),
        [
            fact("external definite", 1, "celery"),
            fact("accesses_technology probable", 1, "celery"),
        ]
    );
}

/// The error classes of a bound library the catalogue does not know are no client: formbricks
/// binds the AI SDK (`ai`) to its model endpoint, and `APICallError.isInstance(error)` in its
/// error mapping was a definite access of the model, as was dub's
/// `new WorkflowRetryAfterError(…)` of a bound `@upstash/workflow`. (The catalogue has known
/// `ai` since, and its entry, whose calls are the model calls, judges the same.) An import of nothing but
/// error classes brings no client either (no probable use); a call of the library beside them
/// still is a use.
#[test]
fn a_bound_library_s_error_classes_are_no_client() {
    let mut context = ProjectContext::default();
    context.set_generic(
        extractors::GenericFacts::NONE
            .with_bound_clients(["ai".to_owned(), "@upstash/workflow".to_owned()]),
    );
    let accesses = |path: &str, source: &str| accesses_of(&context, path, source);
    let fact = |confidence: &str, line: u32| (confidence.to_owned(), line);
    let errors = "import { APICallError, RetryError } from 'ai';
export const isApi = (e: unknown) => APICallError.isInstance(e) || RetryError.isInstance(e);
";
    assert_eq!(accesses("ai/errors.ts", errors), []);
    // Its `external` fact says so, for the engine, which makes a probable access of a file's
    // first import of a bound library.
    let external = extract_file(&context, "ai/errors.ts", errors)
        .unwrap()
        .facts
        .into_iter()
        .find(|fact| fact.kind == FactKind::External)
        .unwrap();
    assert_eq!(
        external
            .properties
            .get("noClient")
            .and_then(|value| value.as_bool()),
        Some(true)
    );
    assert_eq!(
        accesses(
            "jobs/retry.ts",
            "import { WorkflowRetryAfterError } from '@upstash/workflow';
export const later = () => { throw new WorkflowRetryAfterError('wait', 10); };
",
        ),
        []
    );
    assert_eq!(
        accesses(
            "ai/text.ts",
            "import { APICallError, generateText } from 'ai';
export const ask = async (model: any) => {
  try { return await generateText({ model, prompt: 'x' }); }
  catch (e) { if (APICallError.isInstance(e)) return null; throw e; }
};
",
        ),
        [fact("definite", 3)]
    );
}

/// A library the spec binds that the catalogue knows to export plain values beside its client
/// (its `probable_names`) keeps that knowledge: documenso binds `@prisma/client` to its
/// database, and its browser components import the enums the schema generates and build
/// `new Prisma.Decimal(…)` (a number type): neither is an access. The client itself, its
/// transaction type and a bare import of `PrismaClient` still are. Likewise the catalogue judges
/// the other uses of a bound library it knows: `types.setTypeParser(…)` of a bound `pg` sets a
/// parser and opens no connection (its import is a probable use), while `new Pool()` is one;
/// in Go, `redis.NewScript(…)` of a bound go-redis (bound with its major version) makes no
/// connection either, and its import and its `redis.NewClient(…)` have one fact each, not
/// the catalogue's and the binding's; in Java, Alibaba OSS's `BinaryUtil.toBase64String(…)` encodes bytes, while
/// `new OSSClient(…)` is a client; in Swift, Alamofire's `HTTPHeaders(…)` and `URLEncoding`
/// are request values, while `AF.request(…)` is a call of its client.
#[test]
fn a_bound_catalogue_library_keeps_its_plain_values_out() {
    let mut context = ProjectContext::default();
    context.set_generic(extractors::GenericFacts::NONE.with_bound_clients([
        "@prisma/client".to_owned(),
        "bullmq".to_owned(),
        "pg".to_owned(),
        "github.com/redis/go-redis/v9".to_owned(),
        "com.aliyun.oss".to_owned(),
        "Alamofire".to_owned(),
        "StackExchange.Redis".to_owned(),
        "RabbitMQ.Client".to_owned(),
    ]));
    let accesses = |path: &str, source: &str| accesses_of(&context, path, source);
    let fact = |confidence: &str, line: u32| (confidence.to_owned(), line);
    assert_eq!(
        accesses(
            "ui/fields.tsx",
            "import { FieldType, Prisma } from '@prisma/client';
             export const kinds = [FieldType.SIGNATURE];
             export const at = (x: number) => ({ positionX: new Prisma.Decimal(x) });
",
        ),
        []
    );
    assert_eq!(
        accesses(
            "ui/roles.tsx",
            "import { RecipientRole } from '@prisma/client';
export const role = RecipientRole.SIGNER;
",
        ),
        []
    );
    assert_eq!(
        accesses(
            "db/client.ts",
            "import { PrismaClient, Prisma } from '@prisma/client';
             export const prisma = new PrismaClient();
             export const run = async (tx: Prisma.TransactionClient) => tx;
",
        ),
        [fact("definite", 2), fact("definite", 3)]
    );
    assert_eq!(
        accesses(
            "db/reexport.ts",
            "import { PrismaClient } from '@prisma/client';
export const make = () => PrismaClient;
",
        ),
        [fact("probable", 1)]
    );
    // A function's parameter is a use only when typed with a client type of the catalogue
    // (novu's `createQueue(topic, queueOptions: QueueOptions)` takes options, no queue).
    assert_eq!(
        accesses(
            "jobs/queue.ts",
            "import { Queue, QueueOptions } from 'bullmq';\n\
             export function make(options: QueueOptions) {\n\
             \x20 return new Queue('q', options);\n\
             }\n\
             export const take = (queue: Queue) => queue;\n",
        ),
        [fact("definite", 3), fact("definite", 5)]
    );
    // Bound libraries the catalogue knows, in each language: a use the catalogue sees as no
    // client leaves the file's import probable; a client stays definite.
    // A fact's confidence and line.
    type Access = (String, u32);
    let cases: [(&str, &str, &[Access]); 12] = [
        (
            "src/pools.ts",
            "import { Pool } from 'pg';\nexport const kinds = [Pool];\n",
            &[fact("probable", 1)],
        ),
        // Only the type parsers of pg, which open no connection, are no access at all.
        (
            "src/types.ts",
            "import { types } from 'pg';\ntypes.setTypeParser(1700, (v: string) => parseFloat(v));\n",
            &[],
        ),
        (
            "src/db.ts",
            "import { Pool } from 'pg';\nexport const pool = new Pool();\n",
            &[fact("definite", 2)],
        ),
        (
            "pkg/script.go",
            "package pkg\n\nimport \"github.com/redis/go-redis/v9\"\n\nvar incr = redis.NewScript(\"return 1\")\n",
            &[fact("probable", 3)],
        ),
        (
            "pkg/client.go",
            "package pkg\n\nimport \"github.com/redis/go-redis/v9\"\n\nfunc Open() *redis.Client { return redis.NewClient(&redis.Options{}) }\n",
            &[fact("definite", 5)],
        ),
        (
            "src/main/java/shop/Sign.java",
            "package shop;\nimport com.aliyun.oss.common.utils.BinaryUtil;\npublic class Sign {\n  String of(byte[] b) { return BinaryUtil.toBase64String(b); }\n}\n",
            &[fact("probable", 2)],
        ),
        (
            "src/main/java/shop/Files.java",
            "package shop;\nimport com.aliyun.oss.OSSClient;\npublic class Files {\n  OSSClient open() { return new OSSClient(\"e\", \"k\", \"s\"); }\n}\n",
            &[fact("definite", 4)],
        ),
        (
            "Sources/App/Headers.swift",
            "import Alamofire\nlet headers = HTTPHeaders([\"a\": \"b\"])\nlet encoding = URLEncoding.default\n",
            &[fact("probable", 1)],
        ),
        (
            "Sources/App/Fetch.swift",
            "import Alamofire\nfunc load() { AF.request(\"https://example.com\").response { _ in } }\n",
            &[fact("definite", 2)],
        ),
        (
            "Shop/Keys.cs",
            "using StackExchange.Redis;\nnamespace Shop;\npublic class Keys\n{\n    public object Key(string name) => new RedisKey(name);\n}\n",
            &[fact("probable", 1)],
        ),
        (
            "Shop/Connect.cs",
            "using Microsoft.AspNetCore.Mvc;\nusing StackExchange.Redis;\nnamespace Shop;\npublic class Connect : ControllerBase\n{\n    public object Open() => ConnectionMultiplexer.Connect(\"localhost\");\n}\n",
            &[fact("definite", 6)],
        ),
        (
            "Shop/Bus.cs",
            "using RabbitMQ.Client;\nnamespace Shop;\npublic class Bus\n{\n    private readonly IConnection _connection;\n    public void Send(IModel channel)\n    {\n        var factory = new ConnectionFactory();\n        var properties = new BasicProperties();\n    }\n}\n",
            &[fact("definite", 5), fact("definite", 6), fact("definite", 8)],
        ),
    ];
    for (path, source, expected) in cases {
        assert_eq!(accesses(path, source), expected, "{path}");
    }
}

#[test]
fn a_rust_use_in_test_only_code_is_marked_test_only() {
    let lib = "mod helpers;\n\
        use crate::helpers::build;\n\
        \n\
        #[cfg(test)]\n\
        mod tests {\n\
        \x20   use crate::helpers::check;\n\
        }\n\
        \n\
        #[cfg(all(test, not(loom)))]\n\
        mod more {\n\
        \x20   use crate::helpers::more;\n\
        }\n\
        \n\
        #[cfg(not(test))]\n\
        mod real {\n\
        \x20   use crate::helpers::real;\n\
        }\n\
        \n\
        #[cfg(all(feature = \"x\", not(test)))]\n\
        use crate::helpers::featured;\n";
    let facts = one_crate_facts(lib, ("src/helpers.rs", "pub fn build() {}\n"));
    let test_only = |line: u32| {
        facts
            .iter()
            .find(|fact| {
                *fact.evidence.file == *"src/lib.rs"
                    && fact.evidence.line == line
                    && fact.kind == policies::facts::FactKind::Import
            })
            .unwrap_or_else(|| panic!("no import at line {line}: {facts:#?}"))
            .property_flag("testOnly")
    };
    assert!(!test_only(2), "a plain use");
    assert!(test_only(6), "inside #[cfg(test)] mod tests");
    assert!(test_only(11), "inside #[cfg(all(test, not(loom)))]");
    assert!(!test_only(16), "inside #[cfg(not(test))]");
    assert!(!test_only(20), "#[cfg(all(feature, not(test)))]");
}

/// The facts of a one-crate Rust project: `Cargo.toml`, `src/lib.rs` and one module file.
fn one_crate_facts(lib: &str, module: (&str, &str)) -> Vec<policies::facts::Fact> {
    let files: Vec<String> = ["Cargo.toml", "src/lib.rs", module.0]
        .map(str::to_owned)
        .to_vec();
    let read = |path: &str| {
        Some(
            match path {
                "Cargo.toml" => "[package]\nname = \"shapes\"\nversion = \"0.1.0\"\n",
                "src/lib.rs" => lib,
                _ => module.1,
            }
            .to_owned(),
        )
    };
    let mut context = ProjectContext::discover_with(&files, read);
    extractors::extract_files(&mut context, &files, read)
        .into_iter()
        .flat_map(|(_, extraction)| extraction.facts)
        .collect()
}
