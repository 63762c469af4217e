//! Reviewed `.agq.yml` queries (`.lintel/queries/**/*.agq.yml`): loading with located diagnostics, match
//! semantics, the nine emit kinds, `$var` substitution, provenance and determinism.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use extractors::agq::{
    is_query_file, load_queries, load_query_texts, run_queries, QueryDiagnostic, QueryRun, QuerySet,
};
use policies::facts::{
    fact_id, Confidence, DomainFactBody, Evidence, Fact, FactKind, PropertyValue, Strategy,
};

// ---------------------------------------------------------------------------------------------
// Helpers

const HEADER: &str = "id: Q\nowner: team\nversion: 1\nconfidence: definite\n";

fn load(text: &str) -> (QuerySet, Vec<QueryDiagnostic>) {
    load_query_texts(&[(".lintel/queries/q.agq.yml".to_owned(), text.to_owned())])
}

/// Loads a file that must be valid (warnings allowed).
fn load_ok(text: &str) -> QuerySet {
    let (set, diagnostics) = load(text);
    let errors: Vec<_> = diagnostics.iter().filter(|d| d.is_error).collect();
    assert!(errors.is_empty(), "unexpected errors: {errors:#?}");
    set
}

/// The (code, line, column) of every diagnostic.
fn located(diagnostics: &[QueryDiagnostic]) -> Vec<(&str, u32, u32)> {
    diagnostics
        .iter()
        .map(|d| (d.code.as_str(), d.line, d.column))
        .collect()
}

/// Loads `text` and asserts that exactly one diagnostic was raised; returns it.
fn single_diagnostic(text: &str) -> QueryDiagnostic {
    let (_, diagnostics) = load(text);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    diagnostics.into_iter().next().unwrap()
}

fn query(match_block: &str, emit_block: &str) -> String {
    format!("{HEADER}match:\n{match_block}emit:\n{emit_block}")
}

struct FactBuilder(Fact);

impl FactBuilder {
    fn new(kind: FactKind, file: &str, line: u32) -> Self {
        Self(Fact {
            id: fact_id("typescript", file, line, 1, kind),
            kind,
            subject: Some("Api".into()),
            target: None,
            technology: None,
            model: None,
            route: None,
            properties: [("language".to_owned(), "typescript".into())]
                .into_iter()
                .collect(),
            confidence: Confidence::Definite,
            evidence: Evidence {
                extractor: "typescript".into(),
                strategy: Strategy::Ast,
                file: file.into(),
                line,
                column: 1,
                end_line: line,
                end_column: 20,
                scope: Some("OrdersService.ship".into()),
                message: format!("{} at line {line}", kind.as_str()).into(),
            },
        })
    }

    fn prop(mut self, name: &'static str, value: impl Into<PropertyValue>) -> Self {
        self.0.properties.insert(name, value.into());
        self
    }

    fn list(self, name: &'static str, items: &[&str]) -> Self {
        let items: Vec<String> = items.iter().map(|item| (*item).to_owned()).collect();
        self.prop(name, items)
    }

    fn with(mut self, edit: impl FnOnce(&mut Fact)) -> Self {
        edit(&mut self.0);
        self
    }

    fn build(self) -> Fact {
        self.0
    }
}

fn assignment(file: &str, line: u32) -> FactBuilder {
    FactBuilder::new(FactKind::Assignment, file, line)
        .prop("object", "order")
        .prop("property", "status")
        .prop("value", "OrderStatus.Shipped")
        .prop("valueEnum", "OrderStatus")
        .prop("valueMember", "Shipped")
}

fn call(file: &str, line: u32) -> FactBuilder {
    FactBuilder::new(FactKind::Call, file, line)
        .prop("callee", "save")
        .prop("method", "save")
        .prop("receiver", "repo")
        .prop("qualified", "repo.save")
        .prop("argumentCount", 2_i64)
        .list("arguments", &["order", "tx"])
}

/// Runs the queries of `text` over `facts` and returns the run (traces of matches only).
fn run(text: &str, facts: &[Fact]) -> QueryRun {
    run_queries(&load_ok(text), facts, false)
}

/// The ids of the graph facts a single `match` block selects.
fn matched_ids(match_block: &str, facts: &[Fact]) -> Vec<String> {
    let text = query(match_block, "  kind: event\n  event: Seen\n");
    run(&text, facts)
        .facts
        .iter()
        .map(|fact| fact.query.graph_fact_id.clone())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// §5.9 example, provenance, confidence

const EXAMPLE: &str = "\
id: OrderStatusTransitions
owner: payments
version: 2
confidence: definite
match:
  kind: assignment
  property: status
  valueEnum: OrderStatus
  file: \"api/**\"
emit:
  kind: transition
  data: Order
  field: status
  from: \"$previousMember\"
  to: \"$valueMember\"
";

#[test]
fn the_spec_example_promotes_a_guarded_assignment_to_a_transition() {
    let guarded = assignment("api/orders/ship.ts", 12)
        .prop("previousMember", "Paid")
        .prop("guardEnum", "OrderStatus")
        .build();
    let (set, diagnostics) = load_query_texts(&[(
        ".lintel/queries/orders.agq.yml".to_owned(),
        EXAMPLE.to_owned(),
    )]);
    assert_eq!(diagnostics, []);
    let query = &set.queries()[0];
    assert_eq!(
        (
            query.id(),
            query.owner(),
            query.version(),
            query.emit_kind()
        ),
        ("OrderStatusTransitions", "payments", 2, "transition")
    );
    assert_eq!(query.location(), (1, 5));

    let run = run_queries(&set, std::slice::from_ref(&guarded), false);
    assert_eq!(run.facts.len(), 1);
    let fact = &run.facts[0];
    assert_eq!(
        fact.body,
        DomainFactBody::Transition {
            data: "Order".into(),
            field: "status".into(),
            from: Some("Paid".into()),
            to: "Shipped".into(),
        }
    );
    assert_eq!(
        fact.id,
        "OrderStatusTransitions:typescript:api/orders/ship.ts:12:1:assignment"
    );
    assert_eq!(fact.confidence, Confidence::Definite);
    assert_eq!(fact.subject_component.as_deref(), Some("Api"));
    assert_eq!(fact.query.id, "OrderStatusTransitions");
    assert_eq!(fact.query.version, 2);
    assert_eq!(fact.query.file, ".lintel/queries/orders.agq.yml");
    assert_eq!(fact.query.graph_fact_id, guarded.id);
    assert_eq!(
        &*fact.evidence.message,
        "query `OrderStatusTransitions` v2 emitted transition from assignment: assignment at line 12"
    );
    assert_eq!(
        (
            &*fact.evidence.file,
            fact.evidence.line,
            fact.evidence.column,
            fact.evidence.scope.as_deref()
        ),
        ("api/orders/ship.ts", 12, 1, Some("OrdersService.ship"))
    );
    assert_eq!(
        fact.evidence_key,
        "OrderStatusTransitions:order.status=OrderStatus.Shipped"
    );
    assert_eq!(
        fact.evidence_key,
        format!("OrderStatusTransitions:{}", guarded.evidence_key())
    );
    let trace = &run.traces[0];
    assert_eq!(trace.outcome, fact.id);
    assert_eq!(
        trace.substitutions,
        BTreeMap::from([
            ("previousMember".to_owned(), "Paid".to_owned()),
            ("valueMember".to_owned(), "Shipped".to_owned()),
        ])
    );
}

#[test]
fn the_spec_example_writes_unguarded_transitions_and_skips_missing_targets() {
    let facts = [
        assignment("api/a.ts", 1).build(),
        assignment("web/a.ts", 1).build(),
        assignment("api/b.ts", 1)
            .with(|fact| {
                fact.properties.remove("valueMember");
            })
            .build(),
        assignment("api/c.ts", 1).prop("property", "total").build(),
    ];
    let run = run(EXAMPLE, &facts);
    assert_eq!(run.facts.len(), 1);
    assert_eq!(
        run.facts[0].body,
        DomainFactBody::Transition {
            data: "Order".into(),
            field: "status".into(),
            from: None,
            to: "Shipped".into(),
        }
    );
    let outcomes: Vec<(&str, &str)> = run
        .traces
        .iter()
        .map(|trace| (trace.graph_fact.as_str(), trace.outcome.as_str()))
        .collect();
    assert_eq!(
        outcomes,
        [
            (
                "typescript:api/a.ts:1:1:assignment",
                "OrderStatusTransitions:typescript:api/a.ts:1:1:assignment"
            ),
            (
                "typescript:api/b.ts:1:1:assignment",
                "missing capture(s): `valueMember`"
            ),
        ]
    );
    let counts = &run.counts[0];
    assert_eq!(
        (
            counts.considered,
            counts.matched,
            counts.emitted,
            counts.skipped
        ),
        (4, 2, 1, 1)
    );
}

#[test]
fn emitted_confidence_is_the_minimum_of_query_and_graph_fact() {
    let text = |confidence: &str| {
        format!(
            "id: Q\nowner: t\nversion: 1\nconfidence: {confidence}\nmatch:\n  kind: call\nemit:\n  kind: event\n  event: Saved\n"
        )
    };
    let probable_fact = call("a.ts", 1)
        .with(|fact| fact.confidence = Confidence::Probable)
        .build();
    let possible_fact = call("b.ts", 1)
        .with(|fact| fact.confidence = Confidence::Possible)
        .build();
    let definite_fact = call("c.ts", 1).build();
    let facts = [probable_fact, possible_fact, definite_fact];
    let confidences = |confidence: &str| -> Vec<Confidence> {
        run(&text(confidence), &facts)
            .facts
            .iter()
            .map(|fact| fact.confidence)
            .collect()
    };
    use Confidence::{Definite, Possible, Probable};
    assert_eq!(confidences("definite"), [Probable, Possible, Definite]);
    assert_eq!(confidences("probable"), [Probable, Possible, Probable]);
    assert_eq!(confidences("possible"), [Possible, Possible, Possible]);
}

// ---------------------------------------------------------------------------------------------
// Loading: documents, files, duplicate ids

#[test]
fn a_file_holds_several_documents_and_empty_ones_are_skipped() {
    let text = format!(
        "{}---\n\n---\n# nothing here\n---\n{}",
        query("  kind: call\n", "  kind: event\n  event: A\n"),
        query("  kind: call\n", "  kind: event\n  event: B\n").replace("id: Q", "id: Q2")
    );
    let set = load_ok(&text);
    let ids: Vec<(&str, usize)> = set
        .queries()
        .iter()
        .map(|query| (query.id(), query.document()))
        .collect();
    assert_eq!(ids, [("Q", 0), ("Q2", 3)]);
    assert_eq!(set.queries()[1].location(), (15, 5));
}

#[test]
fn queries_run_in_file_then_document_order_whatever_the_input_order() {
    let file = |id: &str| {
        query("  kind: call\n", "  kind: event\n  event: E\n")
            .replace("id: Q", &format!("id: {id}"))
    };
    let sources = [
        (
            ".lintel/queries/b.agq.yml".to_owned(),
            format!("{}---\n{}", file("B1"), file("B2")),
        ),
        (".aglang/extractors/z.agq.yaml".to_owned(), file("Z")),
        (".lintel/queries/a/x.agq.yml".to_owned(), file("A")),
    ];
    let (set, diagnostics) = load_query_texts(&sources);
    assert_eq!(diagnostics, []);
    let ids: Vec<&str> = set.queries().iter().map(|query| query.id()).collect();
    // Bytewise order of path: `.aglang` < `.lintel`, and `a/x` < `b`.
    assert_eq!(ids, ["Z", "A", "B1", "B2"]);
    let reversed: Vec<_> = sources.iter().rev().cloned().collect();
    let (again, _) = load_query_texts(&reversed);
    let again_ids: Vec<&str> = again.queries().iter().map(|query| query.id()).collect();
    assert_eq!(ids, again_ids);
}

#[test]
fn duplicate_ids_across_both_trees_name_both_locations() {
    let text = query("  kind: call\n", "  kind: event\n  event: E\n");
    let (set, diagnostics) = load_query_texts(&[
        (
            ".lintel/queries/deep/er/b.agq.yml".to_owned(),
            format!("description: x\n{text}"),
        ),
        (".aglang/extractors/a.agq.yml".to_owned(), text.clone()),
    ]);
    assert_eq!(set.len(), 1);
    assert_eq!(set.queries()[0].file(), ".aglang/extractors/a.agq.yml");
    assert_eq!(diagnostics.len(), 1);
    let duplicate = &diagnostics[0];
    assert_eq!(duplicate.code, "query-duplicate-id");
    assert!(duplicate.is_error);
    assert_eq!(duplicate.message, "duplicate query id `Q`");
    assert_eq!(
        (duplicate.file.as_str(), duplicate.line, duplicate.column),
        (".lintel/queries/deep/er/b.agq.yml", 2, 5)
    );
    assert_eq!(
        duplicate.related,
        [(
            ".aglang/extractors/a.agq.yml".to_owned(),
            1,
            5,
            "first defined here".to_owned()
        )]
    );
    assert!(duplicate.help.is_some());
}

#[test]
fn duplicate_ids_within_one_file_are_reported_too() {
    let text = query("  kind: call\n", "  kind: event\n  event: E\n");
    let (set, diagnostics) = load(&format!("{text}---\n{text}"));
    assert_eq!(set.len(), 1);
    assert_eq!(located(&diagnostics), [("query-duplicate-id", 11, 5)]);
}

#[test]
fn a_duplicate_id_is_reported_with_the_duplicate_s_other_errors() {
    let text = query("  kind: call\n", "  kind: event\n  event: E\n");
    let broken = text.replace("owner: team", "owner: \"\"");
    let (set, diagnostics) = load(&format!("{text}---\n{broken}"));
    assert_eq!(set.len(), 1);
    let codes: Vec<&str> = located(&diagnostics)
        .into_iter()
        .map(|(code, _, _)| code)
        .collect();
    assert!(codes.contains(&"query-duplicate-id"), "{codes:?}");
    assert!(codes.len() >= 2, "the duplicate's own error too: {codes:?}");
}

#[test]
fn query_files_are_found_in_both_trees_at_any_depth() {
    assert!(is_query_file(".lintel/queries/a.agq.yml"));
    assert!(is_query_file(".lintel/queries/x/y/z.agq.yaml"));
    assert!(is_query_file(".aglang/extractors/deep/a.agq.yml"));
    assert!(!is_query_file(".lintel/queries/a.yml"));
    assert!(!is_query_file("queries/a.agq.yml"));
    assert!(!is_query_file("src/.lintel/queries/a.agq.yml"));
    assert!(!is_query_file(".lintel/queries/../a.agq.yml"));
}

fn scratch_project(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("agq")
        .join(name);
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    root
}

fn write(root: &Path, path: &str, contents: &[u8]) {
    let full = root.join(path);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(full, contents).unwrap();
}

#[test]
fn load_queries_reads_the_listed_query_files_from_disk() {
    let root = scratch_project("disk");
    let body = |id: &str| {
        query("  kind: call\n", "  kind: event\n  event: E\n")
            .replace("id: Q", &format!("id: {id}"))
    };
    write(&root, ".lintel/queries/a.agq.yml", body("A").as_bytes());
    write(
        &root,
        ".lintel/queries/sub/b.agq.yaml",
        body("B").as_bytes(),
    );
    write(&root, ".aglang/extractors/c.agq.yml", body("C").as_bytes());
    write(&root, ".lintel/queries/notes.yml", b"not: a query");
    write(&root, "docs/d.agq.yml", body("D").as_bytes());
    write(
        &root,
        ".lintel/queries/latin1.agq.yml",
        b"id: Q\nowner: caf\xe9\n",
    );
    let mut files: Vec<String> = [
        "docs/d.agq.yml",
        ".lintel/queries/sub/b.agq.yaml",
        ".lintel/queries/notes.yml",
        ".lintel/queries/a.agq.yml",
        ".aglang/extractors/c.agq.yml",
        ".lintel/queries/latin1.agq.yml",
        ".lintel/queries/gone.agq.yml",
    ]
    .map(String::from)
    .to_vec();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(root.join("docs"), root.join(".lintel/queries/linked")).unwrap();
        files.push(".lintel/queries/linked/d.agq.yml".into());
    }
    let (set, diagnostics) = load_queries(&root, &files);
    let ids: Vec<&str> = set.queries().iter().map(|query| query.id()).collect();
    assert_eq!(ids, ["C", "A", "B"]);
    let problems: Vec<(&str, &str, u32, u32)> = diagnostics
        .iter()
        .map(|d| (d.file.as_str(), d.code.as_str(), d.line, d.column))
        .collect();
    assert_eq!(
        problems,
        [
            (".lintel/queries/gone.agq.yml", "query-yaml-invalid", 1, 1),
            (
                ".lintel/queries/latin1.agq.yml",
                "query-yaml-invalid",
                2,
                11
            ),
        ]
    );
    assert!(diagnostics[0]
        .message
        .starts_with("cannot read query file: "));
    assert_eq!(
        diagnostics[1].message,
        "query file is not valid UTF-8: invalid byte at offset `16`"
    );
}

// ---------------------------------------------------------------------------------------------
// Load errors, each with its location

#[test]
fn yaml_syntax_errors_are_located_at_the_parser_position() {
    let diagnostic = single_diagnostic("id: a\n b: c\n");
    assert_eq!(
        (diagnostic.code.as_str(), diagnostic.line, diagnostic.column),
        ("query-yaml-invalid", 2, 3)
    );
    assert!(diagnostic.is_error);
    assert!(diagnostic.message.starts_with("invalid YAML: "));
    assert_eq!(
        diagnostic.headline(),
        format!(
            ".lintel/queries/q.agq.yml:2:3: error[query-yaml-invalid]: {}",
            diagnostic.message
        )
    );
}

#[test]
fn yaml_aliases_and_duplicate_keys_are_rejected() {
    let text = format!("{HEADER}match: &m\n  kind: call\nemit: *m\n");
    assert_eq!(located(&load(&text).1), [("query-yaml-invalid", 7, 7)]);
    let text =
        format!("{HEADER}owner: again\nmatch:\n  kind: call\nemit:\n  kind: event\n  event: E\n");
    let diagnostic = single_diagnostic(&text);
    assert_eq!(
        (diagnostic.code.as_str(), diagnostic.line, diagnostic.column),
        ("query-yaml-invalid", 5, 1)
    );
    assert_eq!(diagnostic.message, "invalid YAML: duplicate key `owner`");
    assert_eq!(diagnostic.related[0].1, 2);
}

#[test]
fn a_document_that_is_not_a_mapping_is_an_error() {
    let diagnostic = single_diagnostic("# comment\n- id: Q\n- owner: t\n");
    assert_eq!(
        (diagnostic.code.as_str(), diagnostic.line, diagnostic.column),
        ("query-not-a-mapping", 2, 1)
    );
    assert_eq!(
        diagnostic.message,
        "query document is a sequence, not a mapping"
    );
    let (_, diagnostics) = load("just text\n");
    assert_eq!(located(&diagnostics), [("query-not-a-mapping", 1, 1)]);
}

#[test]
fn missing_required_keys_are_reported_at_the_document() {
    let (set, diagnostics) = load("\n\nid: Q\nversion: 1\n");
    assert!(set.is_empty());
    let found: Vec<(&str, u32, u32, &str)> = diagnostics
        .iter()
        .map(|d| (d.code.as_str(), d.line, d.column, d.message.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("query-missing-key", 3, 1, "query `Q` has no `confidence`"),
            ("query-missing-key", 3, 1, "query `Q` has no `emit`"),
            ("query-missing-key", 3, 1, "query `Q` has no `match`"),
            ("query-missing-key", 3, 1, "query `Q` has no `owner`"),
        ]
    );
}

#[test]
fn invalid_top_level_values_are_located_at_the_value() {
    let cases = [
        ("id: \"\"\n", "id: Q\n", 1, 5, "`id` is empty"),
        (
            "id: a b\n",
            "id: Q\n",
            1,
            5,
            "invalid query id `a b`: use only letters, digits, `_`, `.` and `-`",
        ),
        (
            "id: 12\n",
            "id: Q\n",
            1,
            5,
            "`id` must be a string, found a number",
        ),
        ("owner: \"  \"\n", "owner: team\n", 2, 8, "`owner` is empty"),
        (
            "version: 0\n",
            "version: 1\n",
            3,
            10,
            "`version` must be at least 1 and at most 4294967295, found `0`",
        ),
        (
            "version: \"2\"\n",
            "version: 1\n",
            3,
            10,
            "`version` must be an integer, found a string",
        ),
        (
            "version: 1.5\n",
            "version: 1\n",
            3,
            10,
            "`version` must be an integer, found a number",
        ),
        (
            "confidence: sure\n",
            "confidence: definite\n",
            4,
            13,
            "unknown confidence `sure`",
        ),
    ];
    for (replacement, original, line, column, message) in cases {
        let text =
            query("  kind: call\n", "  kind: event\n  event: E\n").replace(original, replacement);
        let diagnostic = single_diagnostic(&text);
        assert_eq!(
            (
                diagnostic.code.as_str(),
                diagnostic.line,
                diagnostic.column,
                diagnostic.message.as_str()
            ),
            ("query-invalid-value", line, column, message),
            "{replacement}"
        );
    }
    let text = query("  kind: call\n", "  kind: event\n  event: E\n")
        .replace("match:\n  kind: call\n", "match: [kind, call]\n");
    let diagnostic = single_diagnostic(&text);
    assert_eq!(
        (diagnostic.code.as_str(), diagnostic.line, diagnostic.column),
        ("query-invalid-value", 5, 8)
    );
    assert_eq!(
        diagnostic.message,
        "`match` must be a mapping of fact fields to values, found a sequence"
    );
}

#[test]
fn unknown_top_level_keys_warn_and_the_query_still_loads() {
    let text = format!(
        "{}ownr: someone\ndescription: promotes calls\n",
        query("  kind: call\n", "  kind: event\n  event: E\n")
    );
    let (set, diagnostics) = load(&text);
    assert_eq!(set.len(), 1);
    assert_eq!(set.queries()[0].description(), Some("promotes calls"));
    assert_eq!(located(&diagnostics), [("query-unknown-key", 10, 1)]);
    assert!(!diagnostics[0].is_error);
    assert_eq!(
        diagnostics[0].message,
        "unknown key `ownr` in query is ignored"
    );
    assert_eq!(
        diagnostics[0].help.as_deref(),
        Some("did you mean `owner`?")
    );
}

#[test]
fn emit_kind_errors() {
    let diagnostic = single_diagnostic(&query("  kind: call\n", "  kind: transtion\n"));
    assert_eq!(
        (diagnostic.code.as_str(), diagnostic.line, diagnostic.column),
        ("query-unknown-emit-kind", 8, 9)
    );
    assert_eq!(diagnostic.message, "unknown emit kind `transtion`");
    assert_eq!(
        diagnostic.help.as_deref(),
        Some("did you mean `transition`?")
    );

    let diagnostic = single_diagnostic(&query("  kind: call\n", "  event: E\n"));
    assert_eq!(
        (diagnostic.code.as_str(), diagnostic.line, diagnostic.column),
        ("query-missing-emit-field", 8, 3)
    );
    assert_eq!(diagnostic.message, "`emit` has no `kind`");
}

#[test]
fn missing_emit_fields_are_reported_at_the_emit_block() {
    let (_, diagnostics) = load(&query(
        "  kind: call\n",
        "  kind: transition\n  data: Order\n",
    ));
    let found: Vec<(&str, u32, u32, &str)> = diagnostics
        .iter()
        .map(|d| (d.code.as_str(), d.line, d.column, d.message.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "query-missing-emit-field",
                8,
                3,
                "`transition` emit has no `field`"
            ),
            (
                "query-missing-emit-field",
                8,
                3,
                "`transition` emit has no `to`"
            ),
        ]
    );
    let (_, diagnostics) = load(&query(
        "  kind: call\n",
        "  kind: value\n  subject: Order\n  relation: \"==\"\n  value: 1\n",
    ));
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(
        diagnostics[0].message,
        "`value` emit needs `path` or `field`"
    );
    let (_, diagnostics) = load(&query(
        "  kind: call\n",
        "  kind: auth\n  from: A\n  to: B\n",
    ));
    assert_eq!(diagnostics[0].message, "`auth` emit has no `authenticated`");
}

#[test]
fn invalid_emit_fields_are_located_at_the_value() {
    let cases = [
        ("  kind: flow\n  from: A\n  to: 5\n", 10, 7, "`emit.to` must be a string, found a number"),
        ("  kind: flow\n  from: A\n  to: \"\"\n", 10, 7, "`emit.to` is empty"),
        ("  kind: flow\n  from: A\n  to: [B]\n", 10, 7, "`emit.to` must be a string, found a sequence"),
        ("  kind: auth\n  from: A\n  to: B\n  authenticated: \"false\"\n", 11, 18, "`emit.authenticated` must be `false`, found `false`"),
        ("  kind: encryption\n  from: A\n  to: B\n  encrypted: true\n", 11, 14, "`emit.encrypted` must be `false`, found `true`"),
        ("  kind: value\n  subject: Order\n  path: total\n  relation: \"~=\"\n  value: 0\n", 11, 13, "invalid relation `~=`: expected `==`, `!=`, `>=`, `<=`, `>` or `<`"),
        ("  kind: operation_event\n  operation: Ship\n  phase: during\n  subject: Order\n  path: total\n  relation: \">=\"\n  value: 0\n", 10, 10, "invalid phase `during`: expected `before` or `after`"),
        ("  kind: value\n  subject: Order\n  path: items..length\n  relation: \"==\"\n  value: 0\n", 10, 9, "`emit.path` `items..length` is not a dotted path such as `items.length`"),
        ("  kind: value\n  subject: Order\n  path: total\n  field: total\n  relation: \"==\"\n  value: 0\n", 11, 3, "`value` emit has both `path` and `field`"),
        ("  kind: value\n  subject: Order\n  path: total\n  relation: \"==\"\n  value: {a: 1}\n", 12, 10, "`emit.value` must be a string, a number, a Boolean or null, found a mapping"),
    ];
    for (emit, line, column, message) in cases {
        let diagnostic = single_diagnostic(&query("  kind: call\n", emit));
        assert_eq!(
            (
                diagnostic.code.as_str(),
                diagnostic.line,
                diagnostic.column,
                diagnostic.message.as_str()
            ),
            ("query-invalid-emit-field", line, column, message),
            "{emit}"
        );
    }
}

#[test]
fn unknown_emit_fields_warn() {
    let text = query(
        "  kind: call\n",
        "  kind: flow\n  from: A\n  to: B\n  interface: I\n",
    );
    let (set, diagnostics) = load(&text);
    assert_eq!(set.len(), 1);
    assert_eq!(located(&diagnostics), [("query-unknown-emit-field", 11, 3)]);
    assert!(!diagnostics[0].is_error);
    assert_eq!(
        diagnostics[0].message,
        "unknown field `interface` in `flow` emit is ignored"
    );
}

#[test]
fn invalid_match_values_are_located_at_the_value() {
    let cases = [
        (
            "  kind: {a: 1}\n",
            6,
            9,
            "`match.kind` is a mapping: match values are scalars or lists of scalars",
        ),
        (
            "  kind:\n",
            6,
            3,
            "`match.kind` is null: an absent field never matches",
        ),
        (
            "  kind: ~\n",
            6,
            9,
            "`match.kind` is null: an absent field never matches",
        ),
        (
            "  kind: []\n",
            6,
            9,
            "`match.kind` is an empty list: it would match nothing",
        ),
        (
            "  kind: [call, {a: 1}]\n",
            6,
            16,
            "`match.kind` lists a mapping: list items must be strings, numbers or Booleans",
        ),
        (
            "  kind: [call, null]\n",
            6,
            16,
            "`match.kind` lists null: list items must be strings, numbers or Booleans",
        ),
    ];
    for (match_block, line, column, message) in cases {
        let diagnostic = single_diagnostic(&query(match_block, "  kind: event\n  event: E\n"));
        assert_eq!(
            (
                diagnostic.code.as_str(),
                diagnostic.line,
                diagnostic.column,
                diagnostic.message.as_str()
            ),
            ("query-invalid-match", line, column, message),
            "{match_block}"
        );
    }
}

#[test]
fn invalid_file_globs_are_located_at_the_glob() {
    let cases = [
        ("  file: \"api/[\"\n", 6, 9),
        ("  file: /srv/**\n", 6, 9),
        ("  file: \"../x/**\"\n", 6, 9),
        ("  file: \"{a,{b,c}}/**\"\n", 6, 9),
        ("  file: [\"api/**\", \"\"]\n", 6, 20),
        ("  file: 5\n", 6, 9),
    ];
    for (match_block, line, column) in cases {
        let diagnostic = single_diagnostic(&query(match_block, "  kind: event\n  event: E\n"));
        assert_eq!(
            (diagnostic.code.as_str(), diagnostic.line, diagnostic.column),
            ("query-invalid-glob", line, column),
            "{match_block}"
        );
    }
}

#[test]
fn an_empty_match_warns_that_it_matches_everything() {
    let text = query("", "  kind: event\n  event: E\n").replace("match:\n", "match: {}\n");
    let (set, diagnostics) = load(&text);
    assert_eq!(located(&diagnostics), [("query-matches-everything", 5, 8)]);
    assert!(!diagnostics[0].is_error);
    let facts = [call("a.ts", 1).build(), assignment("b.ts", 2).build()];
    assert_eq!(run_queries(&set, &facts, false).facts.len(), 2);
}

#[test]
fn all_errors_of_all_files_are_reported_together_in_order() {
    let (set, diagnostics) = load_query_texts(&[
        (".lintel/queries/b.agq.yml".to_owned(), "id: [\n".to_owned()),
        (
            ".lintel/queries/a.agq.yml".to_owned(),
            format!("{}---\n- x\n", query("  kind: {}\n", "  kind: nope\n")),
        ),
    ]);
    assert!(set.is_empty());
    let found: Vec<(&str, &str, u32)> = diagnostics
        .iter()
        .map(|d| (d.file.as_str(), d.code.as_str(), d.line))
        .collect();
    assert_eq!(
        found,
        [
            (".lintel/queries/a.agq.yml", "query-invalid-match", 6),
            (".lintel/queries/a.agq.yml", "query-unknown-emit-kind", 8),
            (".lintel/queries/a.agq.yml", "query-not-a-mapping", 10),
            (".lintel/queries/b.agq.yml", "query-yaml-invalid", 2),
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Match semantics

#[test]
fn scalars_compare_with_their_types() {
    let facts = [
        call("a.ts", 1).prop("async", true).build(),
        call("b.ts", 1)
            .prop("argumentCount", 3_i64)
            .prop("async", "true")
            .build(),
    ];
    assert_eq!(
        matched_ids("  argumentCount: 2\n", &facts),
        ["typescript:a.ts:1:1:call"]
    );
    assert_eq!(
        matched_ids("  argumentCount: 2.0\n", &facts),
        ["typescript:a.ts:1:1:call"]
    );
    assert_eq!(
        matched_ids("  argumentCount: \"2\"\n", &facts),
        Vec::<String>::new()
    );
    assert_eq!(
        matched_ids("  argumentCount: 2.5\n", &facts),
        Vec::<String>::new()
    );
    assert_eq!(
        matched_ids("  async: true\n", &facts),
        ["typescript:a.ts:1:1:call"]
    );
    assert_eq!(
        matched_ids("  async: \"true\"\n", &facts),
        ["typescript:b.ts:1:1:call"]
    );
    // Strings compare exactly and case-sensitively.
    assert_eq!(
        matched_ids("  callee: Save\n", &facts),
        Vec::<String>::new()
    );
}

#[test]
fn arrays_mean_any_of_and_keys_are_a_conjunction() {
    let facts = [
        call("a.ts", 1).build(),
        assignment("b.ts", 1).build(),
        FactBuilder::new(FactKind::Import, "c.ts", 1)
            .prop("specifier", "./db")
            .build(),
    ];
    assert_eq!(
        matched_ids("  kind: [call, import]\n", &facts),
        ["typescript:a.ts:1:1:call", "typescript:c.ts:1:1:import"]
    );
    assert_eq!(
        matched_ids("  kind: [call, import]\n  callee: save\n", &facts),
        ["typescript:a.ts:1:1:call"]
    );
    // An absent field never matches.
    assert_eq!(
        matched_ids("  receiver: [repo, db]\n  kind: import\n", &facts),
        Vec::<String>::new()
    );
}

#[test]
fn list_properties_match_when_they_contain_a_value() {
    let facts = [
        FactBuilder::new(FactKind::Import, "a.ts", 1)
            .list("names", &["Order", "Repo"])
            .build(),
        FactBuilder::new(FactKind::Import, "b.ts", 1)
            .list("names", &[])
            .build(),
    ];
    assert_eq!(
        matched_ids("  names: Repo\n", &facts),
        ["typescript:a.ts:1:1:import"]
    );
    assert_eq!(
        matched_ids("  names: [X, Order]\n", &facts),
        ["typescript:a.ts:1:1:import"]
    );
    assert_eq!(matched_ids("  names: Cart\n", &facts), Vec::<String>::new());
    assert_eq!(matched_ids("  names: 1\n", &facts), Vec::<String>::new());
}

#[test]
fn top_level_and_evidence_keys_read_the_fact_itself() {
    let facts = [
        FactBuilder::new(FactKind::AccessesTechnology, "a.ts", 1)
            .with(|fact| {
                fact.technology = Some("postgres".into());
                fact.target = Some("Db".into());
                fact.model = Some("Order".into());
            })
            .build(),
        FactBuilder::new(FactKind::Route, "b.ts", 1)
            .with(|fact| {
                fact.route = Some("/orders/:id".into());
                fact.subject = Some("Web".into());
                fact.evidence.strategy = Strategy::Config;
            })
            .prop("subject", "Api")
            .build(),
    ];
    let a = "typescript:a.ts:1:1:accesses_technology";
    let b = "typescript:b.ts:1:1:route";
    assert_eq!(matched_ids("  technology: postgres\n", &facts), [a]);
    assert_eq!(matched_ids("  target: Db\n", &facts), [a]);
    assert_eq!(matched_ids("  model: Order\n", &facts), [a]);
    assert_eq!(matched_ids("  route: /orders/:id\n", &facts), [b]);
    // `subject` is the owner component, not a property of that name.
    assert_eq!(matched_ids("  subject: Web\n", &facts), [b]);
    assert_eq!(matched_ids("  subject: Api\n", &facts), [a]);
    assert_eq!(matched_ids("  strategy: config\n", &facts), [b]);
    assert_eq!(matched_ids("  strategy: ast\n", &facts), [a]);
    assert_eq!(matched_ids("  language: typescript\n", &facts), [a, b]);
}

#[test]
fn extractor_matches_the_name_or_a_declared_alias() {
    let facts = [call("a.ts", 1).build()];
    let id = "typescript:a.ts:1:1:call";
    assert_eq!(matched_ids("  extractor: typescript\n", &facts), [id]);
    assert_eq!(
        matched_ids("  extractor: TypeScript/Node.js server analyzer\n", &facts),
        [id]
    );
    assert_eq!(
        matched_ids(
            "  extractor: [Go AST/regex analyzer, TypeScript/Node.js server analyzer]\n",
            &facts
        ),
        [id]
    );
    assert_eq!(
        matched_ids("  extractor: Python AST/regex analyzer\n", &facts),
        Vec::<String>::new()
    );
    assert_eq!(
        matched_ids("  extractor: TypeScript\n", &facts),
        Vec::<String>::new()
    );
    let python = [call("a.py", 1)
        .with(|fact| fact.evidence.extractor = "python".into())
        .build()];
    assert_eq!(
        matched_ids("  extractor: Python AST/regex analyzer\n", &python),
        ["typescript:a.py:1:1:call"]
    );
}

#[test]
fn file_globs_use_the_component_glob_syntax() {
    let facts = [
        call("api/orders.ts", 1).build(),
        call("api/orders/ship.ts", 1).build(),
        call("web/.hidden.ts", 1).build(),
        call("lib/api/x.ts", 1).build(),
    ];
    let [top, nested, hidden, lib] = [
        "typescript:api/orders.ts:1:1:call",
        "typescript:api/orders/ship.ts:1:1:call",
        "typescript:web/.hidden.ts:1:1:call",
        "typescript:lib/api/x.ts:1:1:call",
    ];
    assert_eq!(matched_ids("  file: \"api/**\"\n", &facts), [top, nested]);
    assert_eq!(matched_ids("  file: \"api/*\"\n", &facts), [top]);
    assert_eq!(matched_ids("  file: api/\n", &facts), [top, nested]);
    assert_eq!(matched_ids("  file: ./api/orders.ts\n", &facts), [top]);
    assert_eq!(matched_ids("  file: \"web/*.ts\"\n", &facts), [hidden]);
    assert_eq!(
        matched_ids("  file: \"{web,lib}/**\"\n", &facts),
        [lib, hidden]
    );
    assert_eq!(
        matched_ids("  file: \"**/api/**\"\n", &facts),
        [top, nested, lib]
    );
    assert_eq!(
        matched_ids("  file: [\"web/**\", \"api/*.ts\"]\n", &facts),
        [top, hidden]
    );
    assert_eq!(
        matched_ids("  file: \"api/orders/ship.t?\"\n", &facts),
        [nested]
    );
}

#[test]
fn non_matching_traces_are_kept_only_when_asked() {
    let set = load_ok(&query(
        "  kind: call\n  callee: save\n",
        "  kind: event\n  event: E\n",
    ));
    let facts = [
        call("a.ts", 1).build(),
        call("b.ts", 1).prop("callee", "load").build(),
        assignment("c.ts", 1).build(),
    ];
    let quiet = run_queries(&set, &facts, false);
    assert_eq!(quiet.traces.len(), 1);
    let debug = run_queries(&set, &facts, true);
    let outcomes: Vec<&str> = debug
        .traces
        .iter()
        .map(|trace| trace.outcome.as_str())
        .collect();
    assert_eq!(
        outcomes,
        [
            "Q:typescript:a.ts:1:1:call",
            "not matched: `callee`",
            "not matched: `kind`"
        ]
    );
    assert_eq!(quiet.facts, debug.facts);
    assert_eq!(quiet.counts, debug.counts);
}

// ---------------------------------------------------------------------------------------------
// Emit kinds and substitution

#[test]
fn every_emit_kind_builds_its_body() {
    let emits = [
        ("transition", "  data: Order\n  field: status\n  to: Shipped\n"),
        ("flow", "  from: Api\n  to: $receiver\n"),
        ("operation", "  operation: $callee\n  component: Api\n  data: Order\n"),
        ("auth", "  from: Api\n  to: Db\n  authenticated: false\n"),
        ("encryption", "  from: Api\n  to: Db\n  encrypted: false\n"),
        ("dependency", "  from: Api\n  to: Db\n  interface: I$receiver\n"),
        ("value", "  subject: Order\n  field: items.length\n  relation: \">=\"\n  value: 1\n"),
        (
            "operation_event",
            "  operation: Ship\n  phase: after\n  subject: Order\n  path: status\n  relation: \"==\"\n  value: \"OrderStatus.Shipped\"\n",
        ),
        ("event", "  event: Saved\n  scope: $receiver\n"),
    ];
    let text: Vec<String> = emits
        .iter()
        .map(|(kind, fields)| {
            query("  kind: call\n", &format!("  kind: {kind}\n{fields}"))
                .replace("id: Q", &format!("id: {kind}"))
        })
        .collect();
    let run = run(&text.join("---\n"), &[call("a.ts", 1).build()]);
    let bodies: Vec<DomainFactBody> = run.facts.into_iter().map(|fact| fact.body).collect();
    assert_eq!(
        bodies,
        [
            DomainFactBody::Transition {
                data: "Order".into(),
                field: "status".into(),
                from: None,
                to: "Shipped".into()
            },
            DomainFactBody::Flow {
                from: "Api".into(),
                to: "repo".into()
            },
            DomainFactBody::Operation {
                operation: "save".into(),
                component: "Api".into(),
                data: Some("Order".into())
            },
            DomainFactBody::Auth {
                from: "Api".into(),
                to: "Db".into()
            },
            DomainFactBody::Encryption {
                from: "Api".into(),
                to: "Db".into()
            },
            DomainFactBody::Dependency {
                from: "Api".into(),
                to: "Db".into(),
                interface: Some("Irepo".into())
            },
            DomainFactBody::Value {
                subject: "Order".into(),
                path: "items.length".into(),
                relation: ">=".into(),
                value: "1".into()
            },
            DomainFactBody::OperationEvent {
                operation: "Ship".into(),
                phase: "after".into(),
                subject: "Order".into(),
                path: "status".into(),
                relation: "==".into(),
                value: "OrderStatus.Shipped".into()
            },
            DomainFactBody::Event {
                event: "Saved".into(),
                scope: Some("repo".into())
            },
        ]
    );
}

#[test]
fn optional_fields_not_written_are_absent() {
    let emits = [
        "  kind: operation\n  operation: Ship\n  component: Api\n",
        "  kind: dependency\n  from: Api\n  to: Db\n",
        "  kind: event\n  event: Saved\n",
    ];
    let text: Vec<String> = emits
        .iter()
        .enumerate()
        .map(|(index, emit)| {
            query("  kind: call\n", emit).replace("id: Q", &format!("id: Q{index}"))
        })
        .collect();
    let run = run(&text.join("---\n"), &[call("a.ts", 1).build()]);
    let bodies: Vec<DomainFactBody> = run.facts.into_iter().map(|fact| fact.body).collect();
    assert_eq!(
        bodies,
        [
            DomainFactBody::Operation {
                operation: "Ship".into(),
                component: "Api".into(),
                data: None
            },
            DomainFactBody::Dependency {
                from: "Api".into(),
                to: "Db".into(),
                interface: None
            },
            DomainFactBody::Event {
                event: "Saved".into(),
                scope: None
            },
        ]
    );
}

#[test]
fn value_literals_become_text() {
    let emit = |value: &str| {
        format!("  kind: value\n  subject: Order\n  path: total\n  relation: \"==\"\n  value: {value}\n")
    };
    let value_of = |value: &str| -> String {
        let run = run(
            &query("  kind: call\n", &emit(value)),
            &[call("a.ts", 1).build()],
        );
        match &run.facts[0].body {
            DomainFactBody::Value { value, .. } => value.clone(),
            other => panic!("not a value fact: {other:?}"),
        }
    };
    assert_eq!(value_of("null"), "null");
    assert_eq!(value_of("~"), "null");
    assert_eq!(value_of("false"), "false");
    assert_eq!(value_of("-5"), "-5");
    assert_eq!(value_of("0x10"), "16");
    assert_eq!(value_of("12.50"), "12.50");
    assert_eq!(value_of("1e3"), "1000");
    assert_eq!(value_of("\"text\""), "text");
    assert_eq!(value_of("$argumentCount"), "2");
}

#[test]
fn substitution_reads_fields_like_match_keys() {
    let fact = call("api/a.ts", 7)
        .list("arguments", &["order", "tx"])
        .prop("awaited", false)
        .with(|fact| fact.target = Some("Db".into()))
        .build();
    let text = query(
        "  kind: call\n",
        "  kind: event\n  event: \"$receiver.$callee($arguments, $argumentCount, $awaited) $$1 $kind $subject->$target in $file by $extractor/$strategy\"\n",
    );
    let run = run(&text, &[fact]);
    assert_eq!(
        run.facts[0].body,
        DomainFactBody::Event {
            event: "repo.save(order, 2, false) $1 call Api->Db in api/a.ts by typescript/ast"
                .into(),
            scope: None
        }
    );
    let substitutions: Vec<(&str, &str)> = run.traces[0]
        .substitutions
        .iter()
        .map(|(name, value)| (name.as_str(), value.as_str()))
        .collect();
    assert_eq!(
        substitutions,
        [
            ("argumentCount", "2"),
            ("arguments", "order"),
            ("awaited", "false"),
            ("callee", "save"),
            ("extractor", "typescript"),
            ("file", "api/a.ts"),
            ("kind", "call"),
            ("receiver", "repo"),
            ("strategy", "ast"),
            ("subject", "Api"),
            ("target", "Db"),
        ]
    );
}

#[test]
fn missing_captures_skip_required_fields_and_written_optional_ones() {
    let facts = [call("a.ts", 1)
        .prop("receiver", "")
        .list("arguments", &[])
        .build()];
    let cases = [
        // Required fields: every missing name is listed once, in order of appearance.
        (
            "  kind: flow\n  from: $receiver\n  to: $nothing.$receiver\n",
            "missing capture(s): `receiver`, `nothing`",
        ),
        (
            "  kind: event\n  event: $arguments\n",
            "missing capture(s): `arguments`",
        ),
        // Optional fields the query wrote: a precondition that was not met.
        (
            "  kind: operation\n  operation: Save\n  component: Api\n  data: $model\n",
            "missing capture(s): `model`",
        ),
        (
            "  kind: dependency\n  from: Api\n  to: Db\n  interface: $nothing\n",
            "missing capture(s): `nothing`",
        ),
        (
            "  kind: event\n  event: Saved\n  scope: $target\n",
            "missing capture(s): `target`",
        ),
    ];
    for (emit, outcome) in cases {
        let run = run(&query("  kind: call\n", emit), &facts);
        assert!(run.facts.is_empty(), "{emit}");
        assert_eq!(run.traces[0].outcome, outcome, "{emit}");
        assert_eq!(run.counts[0].skipped, 1);
    }
    // A transition's `from` is different: no capture means an unguarded write.
    let run = run(
        &query("  kind: call\n", "  kind: transition\n  data: Order\n  field: status\n  from: $previousMember\n  to: Shipped\n"),
        &facts,
    );
    assert_eq!(
        run.facts[0].body,
        DomainFactBody::Transition {
            data: "Order".into(),
            field: "status".into(),
            from: None,
            to: "Shipped".into()
        }
    );
}

#[test]
fn bad_relations_and_phases_after_substitution_drop_the_fact_with_a_warning() {
    let facts = [call("src/a.ts", 3)
        .prop("op", "~=")
        .prop("when", "during")
        .build()];
    let text = format!(
        "{}---\n{}",
        query(
            "  kind: call\n",
            "  kind: value\n  subject: Order\n  path: total\n  relation: $op\n  value: 0\n"
        )
        .replace("id: Q", "id: Rel"),
        query(
            "  kind: call\n",
            "  kind: operation_event\n  operation: Ship\n  phase: $when\n  subject: Order\n  path: total\n  relation: \"==\"\n  value: 0\n"
        )
        .replace("id: Q", "id: Phase"),
    );
    let run = run_queries(
        &load_query_texts(&[(".lintel/queries/v.agq.yml".to_owned(), text)]).0,
        &facts,
        false,
    );
    assert!(run.facts.is_empty());
    let outcomes: Vec<&str> = run
        .traces
        .iter()
        .map(|trace| trace.outcome.as_str())
        .collect();
    assert_eq!(
        outcomes,
        [
            "dropped: relation `~=` is not an operator: expected `==`, `!=`, `>=`, `<=`, `>` or `<`",
            "dropped: phase `during` is not a phase: expected `before` or `after`",
        ]
    );
    let warnings: Vec<(&str, bool, &str, u32, u32)> = run
        .warnings
        .iter()
        .map(|w| {
            (
                w.code.as_str(),
                w.is_error,
                w.file.as_str(),
                w.line,
                w.column,
            )
        })
        .collect();
    assert_eq!(
        warnings,
        [
            (
                "query-invalid-fact",
                false,
                ".lintel/queries/v.agq.yml",
                11,
                13
            ),
            (
                "query-invalid-fact",
                false,
                ".lintel/queries/v.agq.yml",
                23,
                10
            ),
        ]
    );
    assert_eq!(
        run.warnings[0].message,
        "query `Rel` dropped the fact from `typescript:src/a.ts:3:1:call`: relation `~=` is not an operator: expected `==`, `!=`, `>=`, `<=`, `>` or `<`"
    );
    assert_eq!(
        run.warnings[0].related,
        [(
            "src/a.ts".to_owned(),
            3,
            1,
            "graph fact matched here".to_owned()
        )]
    );
    assert_eq!(run.counts[0].skipped, 1);
}

#[test]
fn literal_fields_are_exposed_for_the_spec_checks() {
    let set = load_ok(&query(
        "  kind: call\n",
        "  kind: transition\n  data: Order\n  field: status\n  from: $previousMember\n  to: \"Ship$$ped\"\n",
    ));
    let fields: Vec<(&str, String, u32, u32)> = set.queries()[0]
        .literal_fields()
        .into_iter()
        .map(|field| (field.field, field.value, field.line, field.column))
        .collect();
    assert_eq!(
        fields,
        [
            ("data", "Order".to_owned(), 9, 9),
            ("field", "status".to_owned(), 10, 10),
            ("to", "Ship$ped".to_owned(), 12, 7),
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Determinism

#[test]
fn output_does_not_depend_on_fact_order() {
    let text = format!(
        "{}---\n{}",
        query(
            "  kind: [call, assignment]\n",
            "  kind: event\n  event: $kind\n"
        ),
        query(
            "  kind: call\n",
            "  kind: flow\n  from: Api\n  to: $receiver\n"
        )
        .replace("id: Q", "id: P"),
    );
    let set = load_ok(&text);
    let mut facts = vec![
        call("b.ts", 2).build(),
        assignment("a.ts", 9).build(),
        call("a.ts", 10).build(),
        call("a.ts", 1).build(),
    ];
    let forward = run_queries(&set, &facts, true);
    facts.reverse();
    let backward = run_queries(&set, &facts, true);
    assert_eq!(forward, backward);
    let ids: Vec<&str> = forward.facts.iter().map(|fact| fact.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "Q:typescript:a.ts:10:1:call",
            "Q:typescript:a.ts:1:1:call",
            "Q:typescript:a.ts:9:1:assignment",
            "Q:typescript:b.ts:2:1:call",
            "P:typescript:a.ts:10:1:call",
            "P:typescript:a.ts:1:1:call",
            "P:typescript:b.ts:2:1:call",
        ]
    );
    let counts: Vec<(&str, usize, usize)> = forward
        .counts
        .iter()
        .map(|count| (count.query.as_str(), count.considered, count.emitted))
        .collect();
    assert_eq!(counts, [("Q", 4, 4), ("P", 4, 3)]);
}
