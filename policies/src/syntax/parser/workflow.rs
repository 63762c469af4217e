//! Workflow policy rules (see `workflow_policy` in policies/LANGUAGE.md).

use super::cursor::ident;
use super::{ParseResult, Parser};
use crate::syntax::ast::{WorkflowRef, WorkflowRule, WorkflowWhen};
use crate::syntax::token::TokenKind;

impl Parser<'_> {
    /// One workflow rule, starting at `allow`, `deny` or `require`.
    pub(super) fn parse_workflow_rule(&mut self) -> ParseResult<WorkflowRule> {
        if self.eat_word("require").is_some() {
            self.expect_word("before")?;
            let workflow = self.parse_workflow_ref()?;
            let before = self.expect_string()?;
            self.expect(TokenKind::Arrow)?;
            let after = self.expect_string()?;
            return Ok(WorkflowRule::StepOrder {
                workflow,
                before,
                after,
            });
        }
        let is_allow = self.expect_one_of(&["allow", "deny"])?.text == "allow";
        let form = self.expect_one_of(&["publish", "deploy", "release", "permission"])?;
        if form.text == "permission" {
            let workflow = self.parse_workflow_ref()?;
            let permission = match self.current().kind {
                TokenKind::Star => {
                    self.bump();
                    None
                }
                TokenKind::Str => Some(ident(&self.bump())),
                _ => Some(self.expect_rule_name("a permission name, string or `*`")?),
            };
            self.expect(TokenKind::Colon)?;
            let access = self.expect_rule_name("`read`, `write` or `none`")?;
            let when = self.parse_workflow_when()?;
            return Ok(WorkflowRule::Permission {
                is_allow,
                workflow,
                permission,
                access,
                when,
            });
        }
        let workflow = self.parse_workflow_ref()?;
        self.expect(TokenKind::Arrow)?;
        let target = self.expect_rule_name("a node name")?;
        let when = self.parse_workflow_when()?;
        Ok(WorkflowRule::Action {
            is_allow,
            action: form,
            workflow,
            target,
            when,
        })
    }

    /// `NAME | "*"`
    fn parse_workflow_ref(&mut self) -> ParseResult<WorkflowRef> {
        if self.eat(TokenKind::Star).is_some() {
            return Ok(None);
        }
        Ok(Some(self.expect_rule_name("a component name or `*`")?))
    }

    /// `[ "when" ( "branch" STRING | "tag" STRING | "pull_request" ) ]`
    fn parse_workflow_when(&mut self) -> ParseResult<Option<WorkflowWhen>> {
        if self.eat_word("when").is_none() {
            return Ok(None);
        }
        let condition = self.expect_one_of(&["branch", "tag", "pull_request"])?;
        Ok(Some(match condition.text.as_str() {
            "branch" => WorkflowWhen::Branch(self.expect_string()?),
            "tag" => WorkflowWhen::Tag(self.expect_string()?),
            _ => WorkflowWhen::PullRequest,
        }))
    }
}
