//! Capture validation and error reporting of query compilation.

use std::sync::LazyLock;

use super::*;
use crate::lang::{Backend, QueryFile, TreeSitterBackend};

type Compiled = LazyLock<Result<CompiledQuery, ExtractError>>;

static UNKNOWN_CAPTURE: LanguageSpec = LanguageSpec {
    name: "javascript",
    extractor: "typescript",
    extensions: &[],
    queries: &[QueryFile {
        name: "javascript/bad.scm",
        text: "(identifier) @fact.import.nonsense\n",
    }],
    backend: Backend::TreeSitter(TreeSitterBackend {
        grammar: || tree_sitter_javascript::LANGUAGE.into(),
        extract: |_| Vec::new(),
        compiled: &UNKNOWN_CAPTURE_QUERY,
    }),
};
static UNKNOWN_CAPTURE_QUERY: Compiled = LazyLock::new(|| CompiledQuery::compile(&UNKNOWN_CAPTURE));

static BROKEN_PATTERN: LanguageSpec = LanguageSpec {
    name: "javascript",
    extractor: "typescript",
    extensions: &[],
    queries: &[
        QueryFile {
            name: "javascript/good.scm",
            text: "(identifier) @fact.import.specifier\n",
        },
        QueryFile {
            name: "javascript/broken.scm",
            text: "; a comment line\n(no_such_node) @fact.import.specifier\n",
        },
    ],
    backend: Backend::TreeSitter(TreeSitterBackend {
        grammar: || tree_sitter_javascript::LANGUAGE.into(),
        extract: |_| Vec::new(),
        compiled: &BROKEN_PATTERN_QUERY,
    }),
};
static BROKEN_PATTERN_QUERY: Compiled = LazyLock::new(|| CompiledQuery::compile(&BROKEN_PATTERN));

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
