//! The parser's cursor over the token list: lookahead, consumption, expectations and error
//! recording. Reading past the end yields the `Eof` token, never a panic.

use super::{Failed, ParseResult};
use crate::error::{Code, SpecError};
use crate::syntax::ast::{Ident, StringLiteral};
use crate::syntax::token::{Token, TokenKind};
use crate::syntax::Span;

/// The parser state for one file.
pub struct Parser<'t> {
    tokens: &'t [Token],
    eof: Token,
    pos: usize,
    errors: Vec<SpecError>,
    /// Errors past [`MAX_ERRORS_PER_FILE`], counted, not kept.
    suppressed: usize,
    has_reported_eof: bool,
    /// The last `{` reported as unclosed: a failed rule and its block may both meet the same
    /// declaration, and the brace is reported once.
    reported_unclosed: Option<Span>,
}

/// A file's parser keeps at most this many errors: a file of a million broken lines costs no
/// more memory than a short one.
const MAX_ERRORS_PER_FILE: usize = 1_000;

impl<'t> Parser<'t> {
    /// A parser at the first token.
    pub fn new(tokens: &'t [Token]) -> Self {
        let eof = tokens
            .last()
            .filter(|token| token.kind == TokenKind::Eof)
            .cloned()
            .unwrap_or_else(|| {
                let span = tokens.last().map(|token| token.span).unwrap_or_default();
                let span = Span {
                    start: span.end,
                    ..span
                };
                Token {
                    kind: TokenKind::Eof,
                    text: String::new(),
                    value: String::new(),
                    span,
                    starts_line: true,
                    depth: 0,
                }
            });
        Self {
            tokens,
            eof,
            pos: 0,
            errors: Vec::new(),
            suppressed: 0,
            has_reported_eof: false,
            reported_unclosed: None,
        }
    }

    /// The recorded errors, and how many more were counted but not kept.
    pub fn into_errors(self) -> (Vec<SpecError>, usize) {
        (self.errors, self.suppressed)
    }

    /// The index of the current token.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The current token.
    pub fn current(&self) -> &Token {
        self.nth(0)
    }

    /// The token `ahead` positions after the current one.
    pub fn nth(&self, ahead: usize) -> &Token {
        self.tokens.get(self.pos + ahead).unwrap_or(&self.eof)
    }

    /// True when the current token has this kind.
    pub fn at(&self, kind: TokenKind) -> bool {
        self.current().kind == kind
    }

    /// True when the current token is the word `word`.
    pub fn at_word(&self, word: &str) -> bool {
        self.current().is_word(word)
    }

    /// Consumes the current token (never moves past `Eof`).
    pub fn bump(&mut self) -> Token {
        let token = self.current().clone();
        if token.kind != TokenKind::Eof {
            self.pos += 1;
        }
        token
    }

    /// Consumes a token of this kind, if present.
    pub fn eat(&mut self, kind: TokenKind) -> Option<Token> {
        if self.at(kind) {
            Some(self.bump())
        } else {
            None
        }
    }

    /// Consumes the word `word`, if present.
    pub fn eat_word(&mut self, word: &str) -> Option<Ident> {
        if self.at_word(word) {
            Some(ident(&self.bump()))
        } else {
            None
        }
    }

    /// Skips optional `;` separators.
    pub fn skip_separators(&mut self) {
        while self.eat(TokenKind::Semicolon).is_some() {}
    }

    /// Records a diagnostic.
    pub fn push_error(&mut self, error: SpecError) {
        if self.errors.len() < MAX_ERRORS_PER_FILE {
            self.errors.push(error);
        } else {
            self.suppressed += 1;
        }
    }

    /// Records a diagnostic with this code, span and message.
    pub fn report(&mut self, code: Code, span: Span, message: String) {
        self.push_error(SpecError::new(code, span, message));
    }

    /// True when the token at `index` starts a declaration: a declaration keyword first on its
    /// line, followed by a name or a string (`component Db`, `import "base.ag"`).
    fn starts_declaration_at(&self, index: usize) -> bool {
        let Some(token) = self.tokens.get(index) else {
            return false;
        };
        token.kind == TokenKind::Name
            && token.starts_line
            && super::DECLARATION_KEYWORDS.contains(&token.text.as_str())
            && self
                .tokens
                .get(index + 1)
                .is_some_and(|next| matches!(next.kind, TokenKind::Name | TokenKind::Str))
    }

    /// True when the current token starts a declaration (see `starts_declaration_at`).
    pub fn at_declaration_start(&self) -> bool {
        self.starts_declaration_at(self.pos)
    }

    /// The innermost `{` before the current token that no `}` closes, looking back no further
    /// than the start of the current declaration (so every look is bounded by one declaration).
    fn unclosed_brace(&self) -> Option<Span> {
        let mut balance = 0_u32;
        for index in (0..self.pos).rev() {
            let token = self.tokens.get(index)?;
            match token.kind {
                TokenKind::RightBrace => balance += 1,
                TokenKind::LeftBrace if balance == 0 => return Some(token.span),
                TokenKind::LeftBrace => balance -= 1,
                _ if self.starts_declaration_at(index) => return None,
                _ => {}
            }
        }
        None
    }

    /// At a declaration that starts inside a block: reports `unclosed-brace` at the `{` that is
    /// still open (not "expected …" at the next declaration) and fails; the parser then resumes
    /// at that declaration. `None` when no `{` is open.
    fn fail_unclosed(&mut self) -> Option<Failed> {
        let brace = self.unclosed_brace()?;
        if self.reported_unclosed == Some(brace) {
            return Some(Failed);
        }
        self.reported_unclosed = Some(brace);
        let keyword = self.current().clone();
        let name = self.nth(1).text.clone();
        let message = format!(
            "`{{` is not closed before `{} {name}` on line {}",
            keyword.text, keyword.span.line
        );
        let error = SpecError::new(Code::UnclosedBrace, brace, message)
            .with_help("add the missing `}` where this block ends")
            .with_related(keyword.span, "the next declaration starts here");
        self.push_error(error);
        Some(Failed)
    }

    /// Consumes the name that starts an item of a block (a key, a field, a property) or fails;
    /// a declaration there means the block's `}` is missing.
    pub fn expect_item_name(&mut self, what: &str) -> ParseResult<Ident> {
        if self.at_declaration_start() {
            if let Some(failed) = self.fail_unclosed() {
                return Err(failed);
            }
        }
        self.expect_name(what)
    }

    /// At a declaration inside a block, reports the unclosed `{` and fails; `Ok` otherwise.
    pub fn check_block_continues(&mut self) -> ParseResult<()> {
        if self.at_declaration_start() {
            if let Some(failed) = self.fail_unclosed() {
                return Err(failed);
            }
        }
        Ok(())
    }

    /// Records "expected X, found Y" at the current token and fails.
    /// At the end of the file this is `unexpected-eof`, reported once per file, with a note at
    /// the `{` that is still open. When the current token starts a declaration, or the previous
    /// one did and was taken for a key or name (`component Db` read as the key `component`), the
    /// block before it lacks its `}`: that is reported instead, at the `{`.
    pub fn fail<T>(&mut self, expected: &str) -> ParseResult<T> {
        if self.at_declaration_start() {
            if let Some(failed) = self.fail_unclosed() {
                return Err(failed);
            }
        }
        if self.pos > 0 && self.starts_declaration_at(self.pos - 1) {
            self.pos -= 1;
            if let Some(failed) = self.fail_unclosed() {
                return Err(failed);
            }
            self.pos += 1;
        }
        let token = self.current().clone();
        let message = format!("expected {expected}, found {}", token.describe());
        if token.kind == TokenKind::Eof {
            if !self.has_reported_eof {
                self.has_reported_eof = true;
                let mut error = SpecError::new(Code::UnexpectedEof, token.span, message);
                if let Some(brace) = self.unclosed_brace() {
                    error = error.with_related(brace, "this `{` is not closed");
                }
                self.push_error(error);
            }
        } else {
            self.report(Code::UnexpectedToken, token.span, message);
        }
        Err(Failed)
    }

    /// Consumes a token of this kind or fails.
    pub fn expect(&mut self, kind: TokenKind) -> ParseResult<Token> {
        match self.eat(kind) {
            Some(token) => Ok(token),
            None => self.fail(&format!("`{}`", kind.symbol().unwrap_or("?"))),
        }
    }

    /// Consumes the keyword `word` or fails.
    pub fn expect_word(&mut self, word: &str) -> ParseResult<Ident> {
        match self.eat_word(word) {
            Some(ident) => Ok(ident),
            None => self.fail(&format!("`{word}`")),
        }
    }

    /// Consumes one of these keywords or fails.
    pub fn expect_one_of(&mut self, words: &[&str]) -> ParseResult<Ident> {
        if words.iter().any(|word| self.at_word(word)) {
            Ok(ident(&self.bump()))
        } else {
            self.fail(&super::quote_list(words))
        }
    }

    /// Consumes any word (a name position) or fails with "expected `what`".
    pub fn expect_name(&mut self, what: &str) -> ParseResult<Ident> {
        if self.at(TokenKind::Name) {
            Ok(ident(&self.bump()))
        } else {
            self.fail(what)
        }
    }

    /// Consumes a word that is not a rule keyword (inside rule blocks).
    pub fn expect_rule_name(&mut self, what: &str) -> ParseResult<Ident> {
        if self.at(TokenKind::Name) && !self.at_rule_keyword() && !self.at_declaration_start() {
            Ok(ident(&self.bump()))
        } else {
            self.fail(what)
        }
    }

    /// True at `allow`, `deny`, `require` or `ensure`.
    pub fn at_rule_keyword(&self) -> bool {
        super::RULE_KEYWORDS.iter().any(|word| self.at_word(word))
    }

    /// Consumes a string or fails.
    pub fn expect_string(&mut self) -> ParseResult<StringLiteral> {
        if self.at(TokenKind::Str) {
            let token = self.bump();
            Ok(StringLiteral {
                value: token.value,
                span: token.span,
            })
        } else {
            self.fail("a string")
        }
    }

    /// The net number of `{` over `}` from `start` up to the current token.
    pub fn brace_balance_since(&self, start: usize) -> u32 {
        let mut depth = 0_u32;
        for token in self.tokens.get(start..self.pos).unwrap_or_default() {
            match token.kind {
                TokenKind::LeftBrace => depth += 1,
                TokenKind::RightBrace => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        depth
    }

    /// The tokens from `start` to the current one, and the span from the first to the last.
    ///
    /// The text is canonical, independent of the source layout: tokens are joined by single
    /// spaces, except that `.` joins its neighbours directly (`Role.Admin`, `Order.items.length`)
    /// and `:` and `,` attach to the token before it (`contents: write`, `among Api, Domain`).
    pub fn text_since(&self, start: usize) -> (String, Span) {
        let tokens = self.tokens.get(start..self.pos).unwrap_or_default();
        let mut text = String::new();
        let mut previous: Option<TokenKind> = None;
        for token in tokens {
            let is_tight = matches!(
                token.kind,
                TokenKind::Dot | TokenKind::Colon | TokenKind::Comma
            ) || previous == Some(TokenKind::Dot);
            if previous.is_some() && !is_tight {
                text.push(' ');
            }
            text.push_str(&token.text);
            previous = Some(token.kind);
        }
        let span = match (tokens.first(), tokens.last()) {
            (Some(first), Some(last)) => first.span.to(last.span),
            _ => self.current().span,
        };
        (text, span)
    }

    /// The tokens from `start` to the current one, joined without spaces.
    pub fn compact_text_since(&self, start: usize) -> String {
        self.tokens
            .get(start..self.pos)
            .unwrap_or_default()
            .iter()
            .map(|token| token.text.as_str())
            .collect()
    }

    /// The span of the previous token (or the current one at the start).
    pub fn previous_span(&self) -> Span {
        self.pos
            .checked_sub(1)
            .and_then(|index| self.tokens.get(index))
            .map_or(self.current().span, |token| token.span)
    }
}

/// The word of a token as an [`Ident`] (strings give their unescaped value).
pub fn ident(token: &Token) -> Ident {
    Ident {
        text: token.value.clone(),
        span: token.span,
    }
}
