//! Contracts and their endpoints (see `contract` in policies/LANGUAGE.md).

use super::cursor::ident;
use super::{ParseResult, Parser};
use crate::syntax::ast::{ContractDecl, Decl, EndpointDecl};
use crate::syntax::token::TokenKind;

/// The HTTP methods (see `contract` in policies/LANGUAGE.md).
pub const HTTP_METHODS: [&str; 7] = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];

/// Words that start an endpoint; a return type ends before them.
const ENDPOINT_STARTERS: [&str; 13] = [
    "GET",
    "POST",
    "PUT",
    "DELETE",
    "PATCH",
    "HEAD",
    "OPTIONS",
    "query",
    "mutation",
    "subscription",
    "rpc",
    "publishes",
    "subscribes",
];

impl Parser<'_> {
    /// `NAME "{" { endpoint sep } "}"` after `contract`.
    pub(super) fn parse_contract(&mut self) -> (Option<Decl>, ParseResult<()>) {
        let name = match self.expect_name("a name") {
            Ok(name) => name,
            Err(failed) => return (None, Err(failed)),
        };
        let mut decl = ContractDecl {
            name,
            endpoints: Vec::new(),
        };
        let result = self.parse_endpoints(&mut decl.endpoints);
        (Some(Decl::Contract(decl)), result)
    }

    fn parse_endpoints(&mut self, endpoints: &mut Vec<EndpointDecl>) -> ParseResult<()> {
        self.expect(TokenKind::LeftBrace)?;
        loop {
            self.skip_separators();
            if self.eat(TokenKind::RightBrace).is_some() {
                return Ok(());
            }
            endpoints.push(self.parse_contract_endpoint()?);
        }
    }

    fn parse_contract_endpoint(&mut self) -> ParseResult<EndpointDecl> {
        let word = self.current().clone();
        if word.kind == TokenKind::Name && HTTP_METHODS.contains(&word.text.as_str()) {
            let method = ident(&self.bump());
            let path = self.expect_string()?;
            let returns = self.parse_optional_return()?;
            return Ok(EndpointDecl::Http {
                method,
                path,
                returns,
            });
        }
        match word.text.as_str() {
            "query" | "mutation" | "subscription" if word.kind == TokenKind::Name => {
                let operation = ident(&self.bump());
                let name = self.expect_name("a name")?;
                let arguments = self.parse_arguments()?;
                let returns = self.parse_optional_return()?;
                Ok(EndpointDecl::GraphQl {
                    operation,
                    name,
                    arguments,
                    returns,
                })
            }
            "rpc" if word.kind == TokenKind::Name => {
                let keyword = ident(&self.bump());
                let name = self.expect_name("a name")?;
                self.expect(TokenKind::LeftParen)?;
                let request = self.expect_name("a request type")?;
                self.expect(TokenKind::RightParen)?;
                self.expect(TokenKind::Arrow)?;
                let response = self.expect_name("a response type")?;
                Ok(EndpointDecl::Rpc {
                    keyword,
                    name,
                    request,
                    response,
                })
            }
            "publishes" | "subscribes" if word.kind == TokenKind::Name => {
                let direction = ident(&self.bump());
                self.expect(TokenKind::Colon)?;
                let topic = self.expect_string()?;
                Ok(EndpointDecl::Message { direction, topic })
            }
            _ => self.fail("an endpoint or `}`"),
        }
    }

    /// `[ "(" [ arg { "," arg } ] ")" ]` with `arg = NAME ":" type_expr`.
    fn parse_arguments(&mut self) -> ParseResult<Vec<(crate::syntax::ast::Ident, String)>> {
        let mut arguments = Vec::new();
        if self.eat(TokenKind::LeftParen).is_none() {
            return Ok(arguments);
        }
        if self.eat(TokenKind::RightParen).is_some() {
            return Ok(arguments);
        }
        loop {
            let name = self.expect_name("an argument name")?;
            self.expect(TokenKind::Colon)?;
            let start = self.position();
            self.parse_type_expr(0)?;
            arguments.push((name, self.compact_text_since(start)));
            if self.eat(TokenKind::RightParen).is_some() {
                return Ok(arguments);
            }
            if self.eat(TokenKind::Comma).is_none() {
                return self.fail("`,` or `)`");
            }
        }
    }

    /// `[ "->" token { token } ]`: the return runs up to `;`, `}` or a word that starts an
    /// endpoint, and is kept verbatim with its tokens joined without spaces.
    fn parse_optional_return(&mut self) -> ParseResult<Option<String>> {
        if self.eat(TokenKind::Arrow).is_none() {
            return Ok(None);
        }
        let start = self.position();
        let mut depth = 0_u32;
        loop {
            let token = self.current();
            let ends_return = match token.kind {
                TokenKind::Eof => true,
                TokenKind::Semicolon => depth == 0,
                TokenKind::RightBrace => depth == 0,
                TokenKind::Name => depth == 0 && ENDPOINT_STARTERS.contains(&token.text.as_str()),
                _ => false,
            };
            if ends_return {
                break;
            }
            match token.kind {
                TokenKind::LeftBrace => depth += 1,
                TokenKind::RightBrace => depth = depth.saturating_sub(1),
                _ => {}
            }
            self.bump();
        }
        if self.position() == start {
            return self.fail("a return type");
        }
        Ok(Some(self.compact_text_since(start)))
    }
}
