//! `waive` declarations (`kinds::waiver`): a reviewed exception to a rule or to one finding.

use super::{ParseResult, Parser};
use crate::syntax::ast::{Decl, Ident, WaiveDecl};
use crate::syntax::token::TokenKind;

impl Parser<'_> {
    /// `TARGET [ STRING ] "until" DATE "owner" STRING "reason" STRING` after `waive`.
    pub(super) fn parse_waive(&mut self) -> ParseResult<Decl> {
        let target = self.expect_name("a finding id or an invariant, policy or contract name")?;
        let rule = if self.at(TokenKind::Str) {
            Some(self.expect_string()?)
        } else {
            None
        };
        self.expect_word("until")?;
        let until = self.parse_date()?;
        self.expect_word("owner")?;
        let owner = self.expect_string()?;
        self.expect_word("reason")?;
        let reason = self.expect_string()?;
        Ok(Decl::Waive(WaiveDecl {
            target,
            rule,
            until,
            owner,
            reason,
        }))
    }

    /// A date: `"2027-03-31"`, or the same written bare, which lexes as the numbers `2027`,
    /// `-03` and `-31` with nothing between them. Whether it is a calendar day is checked later.
    fn parse_date(&mut self) -> ParseResult<Ident> {
        if self.at(TokenKind::Str) {
            let literal = self.expect_string()?;
            return Ok(Ident {
                text: literal.value,
                span: literal.span,
            });
        }
        if !self.at(TokenKind::Number) {
            return self.fail("a date `YYYY-MM-DD`");
        }
        let first = self.bump();
        let mut date = Ident {
            text: first.text,
            span: first.span,
        };
        for _ in 0..2 {
            let next = self.current();
            if next.kind != TokenKind::Number
                || next.span.start != date.span.end
                || !next.text.starts_with('-')
            {
                break;
            }
            let next = self.bump();
            date.text.push_str(&next.text);
            date.span = date.span.to(next.span);
        }
        Ok(date)
    }
}
