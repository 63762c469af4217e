//! The lexer: turns one file's text into tokens with spans, reporting
//! every lexical error and carrying on.
//!
//! Size and UTF-8 checks happen before lexing, in [`crate::load`]; this module takes `&str`.
//! The token list always ends with one [`TokenKind::Eof`] token.

mod numeric;

use numeric::{is_number, is_unit};

use super::token::{Token, TokenKind};
use super::{FileId, Span};
use crate::error::{Code, SpecError};

/// Braces, brackets, parentheses and type arguments may nest this deep (see docs/LIMITS.md).
pub const MAX_NESTING: u32 = 64;

/// The result of lexing one file.
#[derive(Debug, Clone, Default)]
pub struct Lexed {
    /// The tokens, ending with `Eof`.
    pub tokens: Vec<Token>,
    /// Lexical errors, in source order (at most 1,000).
    pub errors: Vec<SpecError>,
    /// Lexical errors past the first 1,000, counted but not kept.
    pub suppressed: usize,
}

/// Lexes `text` as file `file`.
pub fn lex(file: FileId, text: &str) -> Lexed {
    let mut lexer = Lexer::new(file, text);
    lexer.run();
    Lexed {
        tokens: lexer.tokens,
        errors: lexer.errors,
        suppressed: lexer.suppressed,
    }
}

struct Lexer<'s> {
    file: FileId,
    text: &'s str,
    pos: usize,
    line: u32,
    column: u32,
    at_line_start: bool,
    depth: u32,
    tokens: Vec<Token>,
    errors: Vec<SpecError>,
    /// Errors past [`MAX_ERRORS_PER_FILE`], counted, not kept.
    suppressed: usize,
}

/// A file's lexer keeps at most this many errors.
const MAX_ERRORS_PER_FILE: usize = 1_000;

impl<'s> Lexer<'s> {
    fn new(file: FileId, text: &'s str) -> Self {
        // A leading byte-order mark is skipped; it does not count as a column.
        let pos = if text.starts_with('\u{feff}') {
            '\u{feff}'.len_utf8()
        } else {
            0
        };
        Self {
            file,
            text,
            pos,
            line: 1,
            column: 1,
            at_line_start: true,
            depth: 0,
            tokens: Vec::new(),
            errors: Vec::new(),
            suppressed: 0,
        }
    }

    fn peek(&self) -> Option<char> {
        self.text
            .get(self.pos..)
            .and_then(|rest| rest.chars().next())
    }

    fn peek_byte(&self, ahead: usize) -> Option<u8> {
        self.text.as_bytes().get(self.pos + ahead).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let next = self.peek()?;
        self.pos += next.len_utf8();
        if next == '\n' {
            self.line += 1;
            self.column = 1;
            self.at_line_start = true;
        } else {
            self.column += 1;
        }
        Some(next)
    }

    fn span_from(&self, start: usize, line: u32, column: u32) -> Span {
        Span {
            file: self.file,
            start,
            end: self.pos,
            line,
            column,
        }
    }

    fn here(&self) -> (usize, u32, u32) {
        (self.pos, self.line, self.column)
    }

    /// Records an error; past [`MAX_ERRORS_PER_FILE`] only counts it, so that a file of
    /// millions of stray characters costs no more memory than a short one.
    fn error(&mut self, code: Code, span: Span, message: String) {
        if self.errors.len() < MAX_ERRORS_PER_FILE {
            self.errors.push(SpecError::new(code, span, message));
        } else {
            self.suppressed += 1;
        }
    }

    fn run(&mut self) {
        while let Some(next) = self.peek() {
            match next {
                ' ' | '\t' | '\u{c}' | '\r' | '\n' => {
                    self.bump();
                }
                '/' if self.peek_byte(1) == Some(b'/') => self.skip_line_comment(),
                '/' if self.peek_byte(1) == Some(b'*') => self.skip_block_comment(),
                '"' => self.lex_string(),
                '-' if self.peek_byte(1) == Some(b'>') => self.punctuation(TokenKind::Arrow, 2),
                '-' if self.peek_byte(1).is_some_and(|byte| byte.is_ascii_digit()) => {
                    self.lex_number()
                }
                '0'..='9' => self.lex_number(),
                'a'..='z' | 'A'..='Z' | '_' => self.lex_word(),
                _ => self.lex_symbol(next),
            }
        }
        let (start, line, column) = self.here();
        let span = self.span_from(start, line, column);
        self.tokens.push(Token {
            kind: TokenKind::Eof,
            text: String::new(),
            value: String::new(),
            span,
            starts_line: self.at_line_start,
            depth: self.depth,
        });
    }

    fn push_token(
        &mut self,
        kind: TokenKind,
        start: usize,
        line: u32,
        column: u32,
        value: Option<String>,
    ) {
        let span = self.span_from(start, line, column);
        let text = self
            .text
            .get(start..self.pos)
            .unwrap_or_default()
            .to_owned();
        let value = value.unwrap_or_else(|| text.clone());
        let depth = self.depth;
        self.tokens.push(Token {
            kind,
            text,
            value,
            span,
            starts_line: self.at_line_start,
            depth,
        });
        self.at_line_start = false;
    }

    fn skip_line_comment(&mut self) {
        while let Some(next) = self.peek() {
            if next == '\n' {
                break;
            }
            self.bump();
        }
    }

    fn skip_block_comment(&mut self) {
        let (start, line, column) = self.here();
        self.bump();
        self.bump();
        loop {
            if self.peek_byte(0) == Some(b'*') && self.peek_byte(1) == Some(b'/') {
                self.bump();
                self.bump();
                return;
            }
            if self.bump().is_none() {
                let span = Span {
                    file: self.file,
                    start,
                    end: start + 2,
                    line,
                    column,
                };
                self.error(
                    Code::UnterminatedComment,
                    span,
                    "block comment is not closed".to_owned(),
                );
                return;
            }
        }
    }

    fn lex_string(&mut self) {
        let (start, line, column) = self.here();
        self.bump();
        let mut value = String::new();
        loop {
            let Some(next) = self.peek() else {
                self.unterminated_string(start, line, column);
                break;
            };
            match next {
                '\n' => {
                    self.unterminated_string(start, line, column);
                    break;
                }
                '\r' if self.peek_byte(1) == Some(b'\n') => {
                    self.unterminated_string(start, line, column);
                    break;
                }
                '"' => {
                    self.bump();
                    break;
                }
                '\\' => self.lex_escape(&mut value),
                _ if next.is_control() && next != '\t' => {
                    let (char_start, char_line, char_column) = self.here();
                    self.bump();
                    let span = self.span_from(char_start, char_line, char_column);
                    let message = format!(
                        "unexpected control character `{}` in string",
                        next.escape_unicode()
                    );
                    self.error(Code::InvalidCharacter, span, message);
                }
                _ => {
                    self.bump();
                    value.push(next);
                }
            }
        }
        self.push_token(TokenKind::Str, start, line, column, Some(value));
    }

    fn unterminated_string(&mut self, start: usize, line: u32, column: u32) {
        let span = Span {
            file: self.file,
            start,
            end: start + 1,
            line,
            column,
        };
        self.error(
            Code::UnterminatedString,
            span,
            "string is not closed before the end of the line".to_owned(),
        );
    }

    fn lex_escape(&mut self, value: &mut String) {
        let (start, line, column) = self.here();
        self.bump();
        match self.peek() {
            Some('"') => value.push('"'),
            Some('\\') => value.push('\\'),
            Some('n') => value.push('\n'),
            // A backslash at the end of the line: the string is unterminated, reported by the caller.
            None | Some('\n' | '\r') => return,
            Some(other) => {
                let end = self.pos + other.len_utf8();
                let span = Span {
                    file: self.file,
                    start,
                    end,
                    line,
                    column,
                };
                let message = format!("unknown escape `\\{other}`: use `\\\"`, `\\\\` or `\\n`");
                self.error(Code::InvalidEscape, span, message);
                value.push(other);
            }
        }
        self.bump();
    }

    fn lex_number(&mut self) {
        let (start, line, column) = self.here();
        if self.peek() == Some('-') {
            self.bump();
        }
        while let Some(next) = self.peek() {
            if next.is_ascii_alphanumeric() || next == '_' || next == '.' {
                self.bump();
            } else {
                break;
            }
        }
        let text = self.text.get(start..self.pos).unwrap_or_default();
        let kind = if is_number(text) {
            TokenKind::Number
        } else if is_unit(text) {
            TokenKind::Unit
        } else {
            if text.starts_with('-') {
                let span = self.span_from(start, line, column);
                self.error(
                    Code::InvalidNumber,
                    span,
                    format!("invalid number `{text}`"),
                );
            }
            TokenKind::Raw
        };
        self.push_token(kind, start, line, column, None);
    }

    fn lex_word(&mut self) {
        let (start, line, column) = self.here();
        while let Some(next) = self.peek() {
            if next.is_ascii_alphanumeric() || next == '_' {
                self.bump();
            } else {
                break;
            }
        }
        self.push_token(TokenKind::Name, start, line, column, None);
    }

    fn punctuation(&mut self, kind: TokenKind, length: usize) {
        let (start, line, column) = self.here();
        for _ in 0..length {
            self.bump();
        }
        match kind {
            TokenKind::LeftBrace | TokenKind::LeftBracket | TokenKind::LeftParen => {
                self.push_token(kind, start, line, column, None);
                self.depth += 1;
                if self.depth == MAX_NESTING + 1 {
                    let span = self.span_from(start, line, column);
                    let message = format!("nesting is deeper than {MAX_NESTING} levels");
                    self.error(Code::NestingTooDeep, span, message);
                }
            }
            TokenKind::RightBrace | TokenKind::RightBracket | TokenKind::RightParen => {
                self.depth = self.depth.saturating_sub(1);
                self.push_token(kind, start, line, column, None);
            }
            _ => self.push_token(kind, start, line, column, None),
        }
    }

    fn lex_symbol(&mut self, next: char) {
        let second = self.peek_byte(1);
        let two = match (next, second) {
            ('=', Some(b'=')) => Some(TokenKind::EqEq),
            ('!', Some(b'=')) => Some(TokenKind::NotEq),
            ('<', Some(b'=')) => Some(TokenKind::LessEq),
            ('>', Some(b'=')) => Some(TokenKind::GreaterEq),
            _ => None,
        };
        if let Some(kind) = two {
            self.punctuation(kind, 2);
            return;
        }
        let single = match next {
            '{' => TokenKind::LeftBrace,
            '}' => TokenKind::RightBrace,
            '(' => TokenKind::LeftParen,
            ')' => TokenKind::RightParen,
            '[' => TokenKind::LeftBracket,
            ']' => TokenKind::RightBracket,
            ':' => TokenKind::Colon,
            ';' => TokenKind::Semicolon,
            ',' => TokenKind::Comma,
            '|' => TokenKind::Pipe,
            '.' => TokenKind::Dot,
            '<' => TokenKind::Less,
            '>' => TokenKind::Greater,
            '=' => TokenKind::Equals,
            '@' => TokenKind::At,
            '*' => TokenKind::Star,
            _ => {
                self.invalid_character(next);
                return;
            }
        };
        self.punctuation(single, 1);
    }

    fn invalid_character(&mut self, next: char) {
        let (start, line, column) = self.here();
        self.bump();
        let span = self.span_from(start, line, column);
        let message = if !next.is_ascii() {
            format!("non-ASCII character `{next}`: names are ASCII")
        } else if next.is_ascii_control() {
            format!("unexpected character `{}`", next.escape_unicode())
        } else {
            format!("unexpected character `{next}`")
        };
        self.error(Code::InvalidCharacter, span, message);
    }
}

#[cfg(test)]
mod tests;
