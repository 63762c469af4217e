use super::*;
use crate::syntax::ast::{Decl, InvariantRule};
use crate::syntax::{lexer, FileId};
use crate::test_support::*;

fn parse_text(text: &str) -> Parsed {
    parse(&lexer::lex(FileId(0), text).tokens)
}

fn rule_texts(model: &crate::model::Model) -> Vec<&str> {
    model.rules.iter().map(|rule| rule.text.as_str()).collect()
}

#[test]
fn keywords_are_names_where_the_grammar_wants_a_name() {
    assert_clean(
        "node app : server\ncomponent flow { runs_on: app paths: \"f/**\" }\nenum Phase { before | after }\n\
         data Job { release: String phase: Phase }\ninvariant I { deny flow flow -> app }",
    );
}

#[test]
fn several_rules_may_share_a_line() {
    let model = assert_clean_with_prelude(
        "invariant I { deny flow Web -> db deny flow Api -> db ; deny reach Web -> db }",
    );
    assert_eq!(
        rule_texts(&model),
        [
            "deny flow Web -> db",
            "deny flow Api -> db",
            "deny reach Web -> db"
        ]
    );
}

#[test]
fn rule_text_is_canonical_and_source_is_the_first_token() {
    let model = assert_clean_with_prelude(
        "permission P on Order {\n  allow   Role.Admin\n    ->   delete\n}\ninvariant I { deny flow role presentation -> db }",
    );
    assert_eq!(
        rule_texts(&model),
        [
            "allow Role.Admin -> delete",
            "deny flow role presentation -> db"
        ]
    );
    let source = &model.rules.first().unwrap().source;
    assert_eq!(
        (source.file.as_str(), source.line, source.column),
        ("spec.ag", 13, 3)
    );
}

#[test]
fn node_braces_are_optional() {
    let model = assert_clean("node npm : package_registry\nnode pod : k8s_pod(prod)");
    assert_eq!(
        model.nodes.get(1).unwrap().type_parameter.as_deref(),
        Some("prod")
    );
}

#[test]
fn property_values_end_at_the_next_key() {
    let model =
        assert_clean("node db : postgres { protocol: tcp, http udp auth: jwt; compliance: gdpr }");
    let node = model.nodes.first().unwrap();
    assert_eq!(node.protocol, ["tcp", "http", "udp"]);
    assert_eq!(node.auth, ["jwt"]);
    assert_eq!(node.properties.get("compliance").unwrap(), &["gdpr"]);
}

#[test]
fn unexpected_token_names_what_was_expected() {
    let diagnostic = assert_diagnostic_with_prelude(
        "invariant I { deny flow Web via db }",
        "unexpected-token",
        1,
        29,
    );
    assert_eq!(diagnostic.message, "expected `->`, found `via`");
}

#[test]
fn unexpected_eof_inside_a_declaration() {
    let diagnostic = assert_diagnostic("service Billing { runs_on: app", "unexpected-eof", 1, 31);
    assert_eq!(diagnostic.message, "expected `}`, found end of file");
}

#[test]
fn unknown_declaration_suggests_a_keyword() {
    let diagnostic = assert_diagnostic(
        "nodes app : server { trust: trusted }\nnode db : postgres",
        "unknown-declaration",
        1,
        1,
    );
    assert_eq!(diagnostic.help.as_deref(), Some("did you mean `node`?"));
    let output = compile("nodes app : server { trust: trusted }\nnode db : postgres");
    assert_eq!(
        output.diagnostics.len(),
        1,
        "recovery resumes at the next declaration"
    );
}

#[test]
fn rule_errors_recover_at_the_next_rule_and_keep_earlier_rules() {
    let source =
        "invariant I {\n  deny flow Ghost -> db\n  deny flow -> db\n  deny reach Web -> Phantom\n}";
    let output = compile_with_prelude(source);
    let found: Vec<(&str, u32)> = output
        .diagnostics
        .iter()
        .map(|diagnostic| (diagnostic.code.as_str(), diagnostic.line - PRELUDE_LINES))
        .collect();
    assert_eq!(
        found,
        [
            ("unknown-entity", 2),
            ("unexpected-token", 3),
            ("unknown-entity", 4)
        ]
    );
}

#[test]
fn each_rule_reports_at_most_one_parse_error() {
    let output = compile_with_prelude("invariant I { deny flow -> -> -> }");
    assert_eq!(output.diagnostics.len(), 1);
}

#[test]
fn a_declaration_error_skips_to_the_next_line_start_keyword() {
    let source = "node a : server { trust: }\nnode b : serverr";
    let output = compile(source);
    let codes: Vec<&str> = output
        .diagnostics
        .iter()
        .map(|diagnostic| diagnostic.code.as_str())
        .collect();
    assert_eq!(codes, ["unexpected-token", "unknown-node-type"]);
}

#[test]
fn a_truncated_component_is_still_registered() {
    let output = compile("node app : server\ncomponent Api { runs_on: app paths: \"a/**\" owner }\ninvariant I { deny flow Api -> app }");
    let codes: Vec<&str> = output
        .diagnostics
        .iter()
        .map(|diagnostic| diagnostic.code.as_str())
        .collect();
    assert_eq!(codes, ["unexpected-token"]);
}

#[test]
fn selectors_need_a_following_word() {
    let parsed = parse_text("invariant I { deny flow role presentation -> resource }");
    let Some(Decl::Invariant(block)) = parsed.decls.first() else {
        panic!("no invariant")
    };
    let rule = &block.rules.first().unwrap().rule;
    assert!(matches!(
        rule,
        InvariantRule::Pair {
            to: crate::syntax::ast::EndpointSyntax::Name(_),
            ..
        }
    ));
}

#[test]
fn every_invariant_form_parses() {
    let forms = [
        "deny flow Web -> db",
        "deny reach Web -> db",
        "deny dataflow Profile -> partner",
        "require flow Api -> db via Repo",
        "deny path_without_via Api -> db via Repo",
        "require dataflow Profile -> db via Repo",
        "deny data_path_without_via Profile -> db via Repo",
        "require auth on flow Web -> Api",
        "deny unauthenticated flow Web -> Api",
        "require encryption on flow Web -> Api",
        "deny unencrypted flow Web -> Api",
        "require operation submit in Api",
        "deny operation submit outside Api",
        "require operation submit on Order in Api",
        "deny operation submit on Order outside Api",
        "require dependency Web -> Api via interface IApi",
        "deny dependency Web -> Api without interface IApi",
        "require contract Orders implemented_by Api",
    ];
    let source = format!(
        "contract Orders {{ GET \"/o\" }}\ninvariant I {{\n{}\n}}",
        forms.join("\n")
    );
    let source = source.replace("role: application", "role: application implements: Orders");
    let model = assert_clean(&format!(
        "{}{source}",
        PRELUDE.replace("role: application", "role: application implements: Orders")
    ));
    assert_eq!(rule_texts(&model), forms);
}

#[test]
fn contract_returns_are_kept_verbatim() {
    let model = assert_clean(
        "contract C { GET \"/a\" -> Map<String, List<Int>>[] POST \"/b\" -> { id: String } }",
    );
    let contract = model.contracts.first().unwrap();
    let returns: Vec<Option<String>> = contract
        .endpoints
        .iter()
        .map(|endpoint| match &endpoint.shape {
            crate::model::EndpointShape::Http { returns, .. } => returns.clone(),
            _ => None,
        })
        .collect();
    assert_eq!(
        returns,
        [
            Some("Map<String,List<Int>>[]".to_owned()),
            Some("{id:String}".to_owned())
        ]
    );
}

#[test]
fn quote_list_reads_naturally() {
    assert_eq!(quote_list(&["a"]), "`a`");
    assert_eq!(quote_list(&["a", "b", "c"]), "`a`, `b` or `c`");
}

#[test]
fn a_node_with_a_broken_header_is_still_registered() {
    let output = compile("node app server\ncomponent A { runs_on: app paths: \"a\" }");
    let codes: Vec<&str> = output
        .diagnostics
        .iter()
        .map(|diagnostic| diagnostic.code.as_str())
        .collect();
    assert_eq!(codes, ["unexpected-token"]);
}

/// (code, line, column, message) of every diagnostic of `source`.
fn located(source: &str) -> Vec<(String, u32, u32, String)> {
    compile(source)
        .diagnostics
        .iter()
        .map(|diagnostic| {
            (
                diagnostic.code.clone(),
                diagnostic.line,
                diagnostic.column,
                diagnostic.message.clone(),
            )
        })
        .collect()
}

#[test]
fn a_missing_closing_brace_is_reported_at_the_open_brace_and_the_next_declaration_parses() {
    let source = "node app : server\n\
                  component Api { runs_on: app paths: \"api/**\"\n\
                  component Db { runs_on: app paths: \"db/**\" }\n\
                  invariant L { deny flow Api -> Db\n\
                  \n\
                  invariant M { deny flow Db -> Api }\n\
                  node db : postgres { trust: trusted\n\
                  node x : server\n\
                  data Order { total: Money\n\
                  enum Phase { Draft | Done }\n";
    let expected = |line: u32, column: u32, next: &str, next_line: u32| {
        (
            "unclosed-brace".to_owned(),
            line,
            column,
            format!("`{{` is not closed before `{next}` on line {next_line}"),
        )
    };
    // No cascade: `Db`, `M`, `x` and `Phase` are declared and checked.
    assert_eq!(
        located(source),
        [
            expected(2, 15, "component Db", 3),
            expected(4, 13, "invariant M", 6),
            expected(7, 20, "node x", 8),
            expected(9, 12, "enum Phase", 10),
        ]
    );
    let output = compile(source);
    let first = output.diagnostics.first().unwrap();
    assert_eq!(
        first.help.as_deref(),
        Some("add the missing `}` where this block ends")
    );
    assert_eq!(first.related.len(), 1);
    assert_eq!(
        (first.related[0].line, first.related[0].message.as_str()),
        (3, "the next declaration starts here")
    );
}

#[test]
fn a_rule_cut_short_by_the_next_declaration_reports_its_open_brace_once() {
    assert_eq!(
        located(
            "node app : server\ninvariant I { deny flow app ->\ncomponent B { runs_on: app paths: \"b/**\" }\n"
        ),
        [(
            "unclosed-brace".to_owned(),
            2,
            13,
            "`{` is not closed before `component B` on line 3".to_owned()
        )]
    );
}

#[test]
fn a_block_left_open_at_the_end_of_the_file_names_its_brace() {
    let output = compile("node app : server\ninvariant L {\n  deny flow app -> app\n");
    let eof = output
        .diagnostics
        .iter()
        .find(|diagnostic| diagnostic.code == "unexpected-eof")
        .unwrap();
    assert_eq!(eof.message, "expected `}`, found end of file");
    assert_eq!(
        eof.related
            .iter()
            .map(|related| (related.line, related.column, related.message.as_str()))
            .collect::<Vec<_>>(),
        [(2, 13, "this `{` is not closed")]
    );
}

#[test]
fn keywords_inside_a_closed_block_are_still_names() {
    // A key or value named like a declaration is not a new declaration: it is not followed by a
    // name, or it is not the first token of its line.
    assert_clean(
        "node app : server { data: x\n repo: y }\ncomponent A { runs_on: app paths: \"a/**\" layer:\ndata }\n",
    );
}

#[test]
fn unbracketed_globs_say_a_list_takes_brackets() {
    let diagnostic = assert_diagnostic(
        "node app : server\ncomponent Web { runs_on: app  paths: \"web/**\", \"ui/**\" }",
        "unexpected-token",
        2,
        46,
    );
    assert_eq!(diagnostic.message, "expected a key or `}`, found `,`");
    assert_eq!(
        diagnostic.help.as_deref(),
        Some("several globs are a list in brackets: `paths: [\"a/**\", \"b/**\"]`")
    );
}

#[test]
fn a_declaration_synonym_suggests_the_keyword() {
    for (word, keyword) in [
        ("boundary", "invariant"),
        ("rules", "invariant"),
        ("module", "component"),
    ] {
        let diagnostic = assert_diagnostic(
            &format!("{word} B {{ deny cycle among * }}"),
            "unknown-declaration",
            1,
            1,
        );
        assert_eq!(
            diagnostic.help.as_deref(),
            Some(format!("did you mean `{keyword}`?").as_str()),
            "{word}"
        );
    }
}
