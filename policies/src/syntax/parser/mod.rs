//! The recovering parser of the language of policies/LANGUAGE.md: tokens in, declarations and parse errors out.
//!
//! The parser never recurses on braces; the only recursion is into type arguments, which is
//! bounded by the nesting limit (see docs/LIMITS.md), so no input can overflow the stack.
//! Each declaration header and each rule reports at most one parse error; after it the parser
//! skips to a synchronisation point ([`Parser::recover_declaration`], [`Parser::recover_rule`]) and goes on.

mod contract;
mod cursor;
mod decls;
mod invariant;
mod policies;
mod types;
mod waive;
mod workflow;

use super::ast::{Decl, ParsedRule};
use super::token::{Token, TokenKind};
use crate::error::{Code, SpecError};

pub use cursor::Parser;

/// The result of parsing one file.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    /// Declarations in source order, including those cut short by an error.
    pub decls: Vec<Decl>,
    /// Parse errors in source order (at most 1,000).
    pub errors: Vec<SpecError>,
    /// Parse errors past the first 1,000, counted but not kept.
    pub suppressed: usize,
}

/// Parses a token list that ends with `Eof`.
pub fn parse(tokens: &[Token]) -> Parsed {
    let mut parser = Parser::new(tokens);
    let mut decls = Vec::new();
    loop {
        parser.skip_separators();
        if parser.at(TokenKind::Eof) {
            break;
        }
        let start = parser.position();
        if let Some(decl) = parser.parse_declaration() {
            decls.push(decl);
        }
        // INVARIANT: every iteration consumes at least one token, so the loop ends.
        if parser.position() == start {
            parser.bump();
        }
    }
    let (errors, suppressed) = parser.into_errors();
    Parsed {
        decls,
        errors,
        suppressed,
    }
}

/// The words that start a declaration (the section headings of policies/LANGUAGE.md).
pub const DECLARATION_KEYWORDS: [&str; 24] = [
    "import",
    "node",
    "resource",
    "enum",
    "data",
    "component",
    "invariant",
    "machine",
    "permission",
    "value_policy",
    "operation_policy",
    "event_policy",
    "contract",
    "plugin",
    "repo",
    "workflow_policy",
    "di_policy",
    "data_policy",
    "trust_policy",
    "change_policy",
    "exclude",
    "service",
    "test",
    "waive",
];

/// Words people write for a declaration the language names otherwise, with the keyword to
/// suggest: rules live in an `invariant` (also the module-boundary forms), code in a
/// `component`, skipped files in `exclude`.
const DECLARATION_SYNONYMS: [(&str, &str); 11] = [
    ("boundary", "invariant"),
    ("boundaries", "invariant"),
    ("constraint", "invariant"),
    ("constraints", "invariant"),
    ("policy", "invariant"),
    ("rule", "invariant"),
    ("rules", "invariant"),
    ("layer", "component"),
    ("module", "component"),
    ("package", "component"),
    ("ignore", "exclude"),
];

/// The words that always start a rule inside a rule block ([`crate::syntax::token`]).
pub const RULE_KEYWORDS: [&str; 4] = ["allow", "deny", "require", "ensure"];

/// Marks a parse that failed; its diagnostic is already recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failed;

/// The result of one parse step.
pub type ParseResult<T> = Result<T, Failed>;

impl Parser<'_> {
    fn parse_declaration(&mut self) -> Option<Decl> {
        let start = self.position();
        let keyword = self.current().clone();
        if keyword.kind != TokenKind::Name {
            let message = format!("expected a declaration, found {}", keyword.describe());
            self.report(Code::UnexpectedToken, keyword.span, message);
            self.recover_declaration(start);
            return None;
        }
        if !DECLARATION_KEYWORDS.contains(&keyword.text.as_str()) {
            self.unknown_declaration(&keyword);
            self.recover_declaration(start);
            return None;
        }
        self.bump();
        let (decl, result) = self.parse_declaration_body(&keyword);
        if result.is_err() {
            self.recover_declaration(start);
        }
        decl
    }

    fn parse_declaration_body(&mut self, keyword: &Token) -> (Option<Decl>, ParseResult<()>) {
        match keyword.text.as_str() {
            "import" => wrap(self.expect_string().map(Decl::Import)),
            "plugin" => wrap(self.expect_string().map(Decl::Plugin)),
            "node" => self.parse_infra(Decl::Node),
            "resource" => self.parse_infra(Decl::Resource),
            "enum" => self.parse_enum(),
            "data" => self.parse_data(),
            "component" => self.parse_component(),
            "contract" => self.parse_contract(),
            "repo" => wrap(self.parse_repo()),
            "exclude" => wrap(self.parse_exclude()),
            "waive" => wrap(self.parse_waive()),
            "service" | "test" => wrap(self.parse_ignored(cursor::ident(keyword))),
            "invariant" => self.parse_rule_block(
                Decl::Invariant,
                &["deny", "require"],
                Self::parse_invariant_rule,
            ),
            "machine" => self.parse_machine(),
            "permission" => self.parse_permission(),
            "value_policy" => {
                self.parse_rule_block(Decl::ValuePolicy, &["require"], Self::parse_value_rule)
            }
            "operation_policy" => self.parse_rule_block(
                Decl::OperationPolicy,
                &["require", "ensure"],
                Self::parse_operation_rule,
            ),
            "event_policy" => {
                self.parse_rule_block(Decl::EventPolicy, &["require"], Self::parse_event_rule)
            }
            "workflow_policy" => self.parse_rule_block(
                Decl::WorkflowPolicy,
                &["allow", "deny", "require"],
                Self::parse_workflow_rule,
            ),
            "di_policy" => self.parse_rule_block(Decl::DiPolicy, &["deny"], Self::parse_di_rule),
            "data_policy" => {
                self.parse_rule_block(Decl::DataPolicy, &["deny"], Self::parse_data_policy_rule)
            }
            "trust_policy" => self.parse_rule_block(
                Decl::TrustPolicy,
                &["require", "deny"],
                Self::parse_trust_rule,
            ),
            _ => self.parse_rule_block(Decl::ChangePolicy, &["require"], Self::parse_change_rule),
        }
    }

    /// `unknown-declaration`, with the nearest keyword, else the keyword of a synonym
    /// (`boundary` → `invariant`).
    fn unknown_declaration(&mut self, keyword: &Token) {
        let mut error = SpecError::new(
            Code::UnknownDeclaration,
            keyword.span,
            format!(
                "unknown declaration `{}`: expected `node`, `component`, `invariant`, …",
                keyword.text
            ),
        );
        if let Some(suggestion) =
            crate::vocab::suggest(&keyword.text, DECLARATION_KEYWORDS.iter().copied())
        {
            error = error.with_suggestion(Some(suggestion));
        } else if let Some((_, keyword)) = DECLARATION_SYNONYMS
            .iter()
            .find(|(word, _)| word.eq_ignore_ascii_case(&keyword.text))
        {
            error = error.with_suggestion(Some(keyword));
        }
        self.push_error(error);
    }

    /// Skips to just after the `}` that closes the current declaration, or to the next
    /// declaration keyword that starts a line, whichever comes first.
    fn recover_declaration(&mut self, declaration_start: usize) {
        let mut depth = self.brace_balance_since(declaration_start);
        loop {
            let token = self.current();
            match token.kind {
                TokenKind::Eof => return,
                TokenKind::Name
                    if token.starts_line
                        && self.position() > declaration_start
                        && DECLARATION_KEYWORDS.contains(&token.text.as_str()) =>
                {
                    return;
                }
                TokenKind::LeftBrace => depth += 1,
                TokenKind::RightBrace => {
                    if depth <= 1 {
                        self.bump();
                        return;
                    }
                    depth -= 1;
                }
                _ => {}
            }
            self.bump();
        }
    }

    /// Parses `NAME "{" { rule sep } "}"` for a block whose rules start with `starters`.
    fn parse_rule_block<R>(
        &mut self,
        make: fn(super::ast::RuleBlock<R>) -> Decl,
        starters: &[&str],
        parse_rule: fn(&mut Self) -> ParseResult<R>,
    ) -> (Option<Decl>, ParseResult<()>) {
        let name = match self.expect_name("a name") {
            Ok(name) => name,
            Err(failed) => return (None, Err(failed)),
        };
        let mut block = super::ast::RuleBlock {
            name,
            rules: Vec::new(),
        };
        let result = self
            .expect(TokenKind::LeftBrace)
            .and_then(|_| self.parse_rules(starters, parse_rule, &mut block.rules));
        (Some(make(block)), result)
    }

    /// Parses rules up to and including the closing `}`; the `{` is already consumed.
    /// Rules that fail are skipped and the rest are kept.
    fn parse_rules<R>(
        &mut self,
        starters: &[&str],
        parse_rule: fn(&mut Self) -> ParseResult<R>,
        rules: &mut Vec<ParsedRule<R>>,
    ) -> ParseResult<()> {
        loop {
            self.skip_separators();
            if self.eat(TokenKind::RightBrace).is_some() {
                return Ok(());
            }
            if self.at(TokenKind::Eof) {
                return self.fail("`}`");
            }
            self.check_block_continues()?;
            let start = self.position();
            let starts_rule = starters.iter().any(|word| self.at_word(word));
            let parsed = if starts_rule {
                parse_rule(self)
            } else {
                self.fail(&quote_list(starters))
            };
            match parsed {
                Ok(rule) => {
                    let (text, span) = self.text_since(start);
                    rules.push(ParsedRule { text, span, rule });
                }
                Err(Failed) => self.recover_rule(start),
            }
        }
    }

    /// Skips to the next token at the same brace depth that starts a rule or closes the block.
    fn recover_rule(&mut self, rule_start: usize) {
        let mut depth = 0_u32;
        if self.position() == rule_start && !self.at(TokenKind::RightBrace) {
            self.bump_tracking_depth(&mut depth);
        }
        loop {
            let token = self.current();
            match token.kind {
                TokenKind::Eof => return,
                TokenKind::RightBrace if depth == 0 => return,
                TokenKind::Name if depth == 0 && RULE_KEYWORDS.contains(&token.text.as_str()) => {
                    return
                }
                // A declaration: this block's `}` is missing (`parse_rules` reports it).
                TokenKind::Name if self.at_declaration_start() => return,
                _ => self.bump_tracking_depth(&mut depth),
            }
        }
    }

    fn bump_tracking_depth(&mut self, depth: &mut u32) {
        match self.current().kind {
            TokenKind::LeftBrace => *depth += 1,
            TokenKind::RightBrace => *depth = depth.saturating_sub(1),
            _ => {}
        }
        self.bump();
    }
}

fn wrap(result: ParseResult<Decl>) -> (Option<Decl>, ParseResult<()>) {
    match result {
        Ok(decl) => (Some(decl), Ok(())),
        Err(failed) => (None, Err(failed)),
    }
}

/// "`a`, `b` or `c`"
pub fn quote_list(words: &[&str]) -> String {
    let quoted: Vec<String> = words.iter().map(|word| format!("`{word}`")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests;
