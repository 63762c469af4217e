//! Type expressions (see `enum` and `data` in policies/LANGUAGE.md) and value expressions (see `value_policy` in policies/LANGUAGE.md).
//!
//! Type arguments are the parser's only recursion; the depth is checked against the nesting
//! limit before each level, so recursion is bounded.

use super::cursor::ident;
use super::{Failed, ParseResult, Parser};
use crate::error::Code;
use crate::model::Relation;
use crate::syntax::ast::{LiteralSyntax, StringLiteral, TypeSyntax, TypeTerm, ValueExprSyntax};
use crate::syntax::lexer::MAX_NESTING;
use crate::syntax::token::TokenKind;

impl Parser<'_> {
    /// `type_term { "|" type_term }`; `level` counts the enclosing `<…>`.
    pub(super) fn parse_type_expr(&mut self, level: u32) -> ParseResult<TypeSyntax> {
        let first = self.current().span;
        let mut terms = vec![self.parse_type_term(level)?];
        while self.eat(TokenKind::Pipe).is_some() {
            terms.push(self.parse_type_term(level)?);
        }
        let span = first.to(self.previous_span());
        Ok(TypeSyntax { terms, span })
    }

    /// `NAME [ "<" type_expr [ "," type_expr ] ">" ] { "[" "]" }`
    fn parse_type_term(&mut self, level: u32) -> ParseResult<TypeTerm> {
        let name = self.expect_name("a type")?;
        let arguments = if self.at(TokenKind::Less) {
            let opener = self.current().clone();
            if opener.depth + level + 1 > MAX_NESTING {
                self.report(
                    Code::NestingTooDeep,
                    opener.span,
                    format!("nesting is deeper than {MAX_NESTING} levels"),
                );
                return Err(Failed);
            }
            self.bump();
            let mut arguments = vec![self.parse_type_expr(level + 1)?];
            if self.eat(TokenKind::Comma).is_some() {
                arguments.push(self.parse_type_expr(level + 1)?);
            }
            if self.eat(TokenKind::Greater).is_none() {
                return self.fail("`>`");
            }
            Some(arguments)
        } else {
            None
        };
        let mut array_depth = 0_u32;
        while self.at(TokenKind::LeftBracket) && self.nth(1).kind == TokenKind::RightBracket {
            self.bump();
            self.bump();
            array_depth += 1;
        }
        Ok(TypeTerm {
            name,
            arguments,
            array_depth,
        })
    }

    /// `NAME "." NAME { "." NAME } rel literal`
    pub(super) fn parse_value_expr(&mut self) -> ParseResult<ValueExprSyntax> {
        let data = self.expect_rule_name("a data name")?;
        self.expect(TokenKind::Dot)?;
        let mut path = vec![self.expect_name("a field name")?];
        while self.eat(TokenKind::Dot).is_some() {
            path.push(self.expect_name("a field name")?);
        }
        let relation_token = self.current().clone();
        let relation = match relation_token.kind {
            TokenKind::EqEq => Relation::Eq,
            TokenKind::NotEq => Relation::Ne,
            TokenKind::GreaterEq => Relation::Ge,
            TokenKind::LessEq => Relation::Le,
            TokenKind::Greater => Relation::Gt,
            TokenKind::Less => Relation::Lt,
            _ => return self.fail("`==`, `!=`, `>=`, `<=`, `>` or `<`"),
        };
        self.bump();
        let literal = self.parse_literal()?;
        let span = data.span.to(literal.span());
        Ok(ValueExprSyntax {
            data,
            path,
            relation: (relation, relation_token.span),
            literal,
            span,
        })
    }

    /// `NUMBER | STRING | "true" | "false" | "null" | NAME`
    fn parse_literal(&mut self) -> ParseResult<LiteralSyntax> {
        let token = self.current().clone();
        let literal = match token.kind {
            TokenKind::Number => LiteralSyntax::Number(ident(&token)),
            TokenKind::Str => LiteralSyntax::Str(StringLiteral {
                value: token.value.clone(),
                span: token.span,
            }),
            TokenKind::Name if token.text == "true" => LiteralSyntax::Bool(true, token.span),
            TokenKind::Name if token.text == "false" => LiteralSyntax::Bool(false, token.span),
            TokenKind::Name if token.text == "null" => LiteralSyntax::Null(token.span),
            TokenKind::Name if !self.at_rule_keyword() => LiteralSyntax::Name(ident(&token)),
            _ => return self.fail("a value"),
        };
        self.bump();
        Ok(literal)
    }
}
