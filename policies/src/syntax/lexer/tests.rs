use super::*;
use crate::test_support::*;

fn kinds(text: &str) -> Vec<TokenKind> {
    lex(FileId(0), text)
        .tokens
        .iter()
        .map(|token| token.kind)
        .collect()
}

#[test]
fn arrow_wins_over_negative_numbers() {
    assert_eq!(
        kinds("A->1"),
        [
            TokenKind::Name,
            TokenKind::Arrow,
            TokenKind::Number,
            TokenKind::Eof
        ]
    );
    assert_eq!(kinds("-1.5"), [TokenKind::Number, TokenKind::Eof]);
}

#[test]
fn numeric_runs_are_numbers_units_or_raw() {
    assert_eq!(
        kinds("12 100ms 5S 1.5gb 1.2.3 2fa"),
        [
            TokenKind::Number,
            TokenKind::Unit,
            TokenKind::Unit,
            TokenKind::Unit,
            TokenKind::Raw,
            TokenKind::Raw,
            TokenKind::Eof
        ]
    );
}

#[test]
fn two_character_punctuation_is_matched_first() {
    assert_eq!(
        kinds("== != <= >= < > = @ *"),
        [
            TokenKind::EqEq,
            TokenKind::NotEq,
            TokenKind::LessEq,
            TokenKind::GreaterEq,
            TokenKind::Less,
            TokenKind::Greater,
            TokenKind::Equals,
            TokenKind::At,
            TokenKind::Star,
            TokenKind::Eof
        ]
    );
}

#[test]
fn strings_unescape_and_keep_their_source_text() {
    let lexed = lex(FileId(0), r#""a\"b\\c\nd""#);
    let token = lexed.tokens.first().unwrap();
    assert_eq!(token.value, "a\"b\\c\nd");
    assert_eq!(token.text, r#""a\"b\\c\nd""#);
    assert!(lexed.errors.is_empty());
}

#[test]
fn columns_count_unicode_scalars_and_skip_the_bom() {
    let lexed = lex(FileId(0), "\u{feff}\"é\" x\r\n  y");
    let spans: Vec<(u32, u32)> = lexed
        .tokens
        .iter()
        .map(|token| (token.span.line, token.span.column))
        .collect();
    assert_eq!(spans, [(1, 1), (1, 5), (2, 3), (2, 4)]);
}

#[test]
fn comments_are_skipped_and_block_comments_do_not_nest() {
    assert_eq!(
        kinds("a // b \n /* c /* d */ e"),
        [TokenKind::Name, TokenKind::Name, TokenKind::Eof]
    );
    assert_eq!(
        kinds(r#""// not a comment""#),
        [TokenKind::Str, TokenKind::Eof]
    );
}

#[test]
fn tokens_know_whether_they_start_a_line() {
    let lexed = lex(FileId(0), "a b\n  c");
    let starts: Vec<bool> = lexed.tokens.iter().map(|token| token.starts_line).collect();
    assert_eq!(starts, [true, false, true, false]);
}

#[test]
fn clean_token_text_passes() {
    assert_clean("node app : server { trust: trusted  note: \"a # b\" size: 1.2.3 limit: 100ms }");
}

#[test]
fn invalid_character_hash() {
    let diagnostic = assert_diagnostic("node app : server\n# comment", "invalid-character", 2, 1);
    assert_eq!(diagnostic.message, "unexpected character `#`");
}

#[test]
fn invalid_character_non_ascii_name() {
    let diagnostic = assert_diagnostic("node café : server", "invalid-character", 1, 9);
    assert_eq!(
        diagnostic.message,
        "non-ASCII character `é`: names are ASCII"
    );
}

#[test]
fn invalid_character_lone_symbols() {
    assert_diagnostic("node app : server { a: b - c }", "invalid-character", 1, 26);
    assert_diagnostic("node app : server ! ", "invalid-character", 1, 19);
    assert_diagnostic("node app : server / ", "invalid-character", 1, 19);
}

#[test]
fn unterminated_string_at_the_opening_quote() {
    let diagnostic = assert_diagnostic(
        "plugin \"abc\nnode app : server",
        "unterminated-string",
        1,
        8,
    );
    assert_eq!(
        diagnostic.message,
        "string is not closed before the end of the line"
    );
}

#[test]
fn unterminated_string_at_end_of_file() {
    assert_diagnostic("plugin \"abc", "unterminated-string", 1, 8);
}

#[test]
fn invalid_escape_at_the_backslash() {
    let diagnostic = assert_diagnostic("plugin \"a\\tb\"", "invalid-escape", 1, 10);
    assert_eq!(
        diagnostic.message,
        "unknown escape `\\t`: use `\\\"`, `\\\\` or `\\n`"
    );
}

#[test]
fn unterminated_comment_at_its_opener() {
    assert_diagnostic(
        "node app : server\n  /* never closed",
        "unterminated-comment",
        2,
        3,
    );
}

#[test]
fn invalid_number_for_a_signed_non_number() {
    let diagnostic = assert_diagnostic("node app : server { v: -1.2.3 }", "invalid-number", 1, 24);
    assert_eq!(diagnostic.message, "invalid number `-1.2.3`");
}

#[test]
fn nesting_too_deep_at_the_opener_past_the_limit() {
    let source = format!("service S {}", "{".repeat(70));
    // The service's own `{` is level 1, so the 65th opener is at column 11 + 64.
    let diagnostic = assert_diagnostic(&source, "nesting-too-deep", 1, 11 + 64);
    assert_eq!(diagnostic.message, "nesting is deeper than 64 levels");
}

#[test]
fn nesting_of_64_levels_is_fine() {
    let source = format!("service S {}{}", "{".repeat(64), "}".repeat(64));
    let output = compile(&source);
    assert!(output
        .diagnostics
        .iter()
        .all(|diagnostic| diagnostic.code == "unsupported-declaration"));
}

#[test]
fn type_arguments_count_towards_nesting() {
    let depth = 70;
    let source = format!(
        "data D {{ f: {}Int{} }}",
        "List<".repeat(depth),
        ">".repeat(depth)
    );
    // `{` is level 1, so the 64th `<` (column 13 + 63 * 5 + 4) passes the limit.
    assert_diagnostic(&source, "nesting-too-deep", 1, 13 + 63 * 5 + 4);
}

#[test]
fn file_too_large_is_not_lexed() {
    let source = format!("plugin \"x\"\n{}", " ".repeat(4 * 1024 * 1024));
    let output = compile(&source);
    assert_eq!(output.diagnostics.len(), 1);
    let diagnostic = output.diagnostics.first().unwrap();
    assert_eq!(
        (diagnostic.code.as_str(), diagnostic.line, diagnostic.column),
        ("file-too-large", 1, 1)
    );
    assert_eq!(diagnostic.message, "file `spec.ag` is larger than 4 MiB");
}
