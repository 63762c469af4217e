//! Tokens. The lexer emits one class, `Name`, for identifiers and
//! keywords alike; the parser decides by position whether a word is a keyword.

use super::Span;

/// The class of a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// A word: `[A-Za-z_][A-Za-z0-9_]*`.
    Name,
    /// A one-line string; the token's `value` holds the unescaped text.
    Str,
    /// An exact decimal, possibly negative.
    Number,
    /// A number with a unit, such as `100ms`.
    Unit,
    /// Any other numeric run, such as `1.2.3`.
    Raw,
    /// `->`
    Arrow,
    /// `==`
    EqEq,
    /// `!=`
    NotEq,
    /// `<=`
    LessEq,
    /// `>=`
    GreaterEq,
    /// `{`
    LeftBrace,
    /// `}`
    RightBrace,
    /// `(`
    LeftParen,
    /// `)`
    RightParen,
    /// `[`
    LeftBracket,
    /// `]`
    RightBracket,
    /// `:`
    Colon,
    /// `;`
    Semicolon,
    /// `,`
    Comma,
    /// `|`
    Pipe,
    /// `.`
    Dot,
    /// `<`
    Less,
    /// `>`
    Greater,
    /// `=`
    Equals,
    /// `@`
    At,
    /// `*`
    Star,
    /// The end of the file (always the last token).
    Eof,
}

impl TokenKind {
    /// How the token is written, for punctuation; `None` for classes with variable text.
    pub fn symbol(self) -> Option<&'static str> {
        Some(match self {
            Self::Arrow => "->",
            Self::EqEq => "==",
            Self::NotEq => "!=",
            Self::LessEq => "<=",
            Self::GreaterEq => ">=",
            Self::LeftBrace => "{",
            Self::RightBrace => "}",
            Self::LeftParen => "(",
            Self::RightParen => ")",
            Self::LeftBracket => "[",
            Self::RightBracket => "]",
            Self::Colon => ":",
            Self::Semicolon => ";",
            Self::Comma => ",",
            Self::Pipe => "|",
            Self::Dot => ".",
            Self::Less => "<",
            Self::Greater => ">",
            Self::Equals => "=",
            Self::At => "@",
            Self::Star => "*",
            Self::Name | Self::Str | Self::Number | Self::Unit | Self::Raw | Self::Eof => {
                return None
            }
        })
    }
}

/// One token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// Its class.
    pub kind: TokenKind,
    /// The source text, quotes included for strings.
    pub text: String,
    /// The value: unescaped content for strings, else the text.
    pub value: String,
    /// Where it is.
    pub span: Span,
    /// True when no other token precedes it on its line.
    pub starts_line: bool,
    /// How many braces, brackets and parentheses enclose it.
    pub depth: u32,
}

impl Token {
    /// True for the word `word`.
    pub fn is_word(&self, word: &str) -> bool {
        self.kind == TokenKind::Name && self.text == word
    }

    /// How a diagnostic names the token: its text in backticks, or "end of file".
    pub fn describe(&self) -> String {
        if self.kind == TokenKind::Eof {
            "end of file".to_owned()
        } else {
            format!("`{}`", self.text)
        }
    }
}
