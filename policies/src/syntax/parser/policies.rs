//! Rule blocks other than invariants and workflow policies (see `machine` to
//! `event_policy` and `di_policy` to `change_policy` in policies/LANGUAGE.md): machines, permissions, value, operation, event, DI, data, trust and change
//! policies.

use super::{ParseResult, Parser};
use crate::model::{Lifetime, OperationPhase};
use crate::syntax::ast::{
    ChangeRule, DataPolicyRule, Decl, DiRule, EventRule, Ident, MachineDecl, OperationRule,
    PermissionDecl, PermissionRule, StateSyntax, TransitionRule, TrustRule, ValueRule,
};
use crate::syntax::token::TokenKind;

impl Parser<'_> {
    /// `NAME "on" NAME "." NAME "{" … "}"` after `machine`.
    pub(super) fn parse_machine(&mut self) -> (Option<Decl>, ParseResult<()>) {
        let header = (|| {
            let name = self.expect_name("a name")?;
            self.expect_word("on")?;
            let data = self.expect_name("a data name")?;
            self.expect(TokenKind::Dot)?;
            let field = self.expect_name("a field name")?;
            Ok(MachineDecl {
                name,
                data,
                field,
                rules: Vec::new(),
            })
        })();
        let mut decl = match header {
            Ok(decl) => decl,
            Err(failed) => return (None, Err(failed)),
        };
        let result = self.expect(TokenKind::LeftBrace).and_then(|_| {
            self.parse_rules(
                &["allow", "deny"],
                Self::parse_transition_rule,
                &mut decl.rules,
            )
        });
        (Some(Decl::Machine(decl)), result)
    }

    fn parse_transition_rule(&mut self) -> ParseResult<TransitionRule> {
        let is_allow = self.expect_one_of(&["allow", "deny"])?.text == "allow";
        self.expect_word("transition")?;
        let from = self.parse_state()?;
        self.expect(TokenKind::Arrow)?;
        let to = self.parse_state()?;
        Ok(TransitionRule { is_allow, from, to })
    }

    fn parse_state(&mut self) -> ParseResult<StateSyntax> {
        if let Some(star) = self.eat(TokenKind::Star) {
            return Ok(StateSyntax::Any(star.span));
        }
        Ok(StateSyntax::Name(self.expect_rule_name("a state or `*`")?))
    }

    /// `NAME "on" NAME "{" … "}"` after `permission`.
    pub(super) fn parse_permission(&mut self) -> (Option<Decl>, ParseResult<()>) {
        let header = (|| {
            let name = self.expect_name("a name")?;
            self.expect_word("on")?;
            let target = self.expect_name("a data or component name")?;
            Ok(PermissionDecl {
                name,
                target,
                rules: Vec::new(),
            })
        })();
        let mut decl = match header {
            Ok(decl) => decl,
            Err(failed) => return (None, Err(failed)),
        };
        let result = self.expect(TokenKind::LeftBrace).and_then(|_| {
            self.parse_rules(
                &["allow", "deny"],
                Self::parse_permission_rule,
                &mut decl.rules,
            )
        });
        (Some(Decl::Permission(decl)), result)
    }

    fn parse_permission_rule(&mut self) -> ParseResult<PermissionRule> {
        let is_allow = self.expect_one_of(&["allow", "deny"])?.text == "allow";
        let role = if self.eat(TokenKind::Star).is_some() {
            None
        } else {
            let enum_name = self.expect_rule_name("a role `Enum.Value` or `*`")?;
            self.expect(TokenKind::Dot)?;
            let value = self.expect_name("an enum value")?;
            Some((enum_name, value))
        };
        self.expect(TokenKind::Arrow)?;
        let operations = if self.eat(TokenKind::Star).is_some() {
            None
        } else {
            let mut operations = vec![self.expect_rule_name("an operation or `*`")?];
            while self.eat(TokenKind::Pipe).is_some() {
                operations.push(self.expect_rule_name("an operation")?);
            }
            Some(operations)
        };
        let when = self.parse_when_name("a field name")?;
        Ok(PermissionRule {
            is_allow,
            role,
            operations,
            when,
        })
    }

    fn parse_when_name(&mut self, what: &str) -> ParseResult<Option<Ident>> {
        if self.eat_word("when").is_some() {
            Ok(Some(self.expect_rule_name(what)?))
        } else {
            Ok(None)
        }
    }

    /// `require value_expr [ when value_expr ]`
    pub(super) fn parse_value_rule(&mut self) -> ParseResult<ValueRule> {
        self.expect_word("require")?;
        let require = self.parse_value_expr()?;
        let when = if self.eat_word("when").is_some() {
            Some(self.parse_value_expr()?)
        } else {
            None
        };
        Ok(ValueRule { require, when })
    }

    /// `require before OP EXPR` or `ensure after OP EXPR`
    pub(super) fn parse_operation_rule(&mut self) -> ParseResult<OperationRule> {
        let phase = if self.eat_word("require").is_some() {
            self.expect_word("before")?;
            OperationPhase::Before
        } else {
            self.expect_word("ensure")?;
            self.expect_word("after")?;
            OperationPhase::After
        };
        let operation = self.expect_rule_name("an operation name")?;
        let condition = self.parse_value_expr()?;
        Ok(OperationRule {
            phase,
            operation,
            condition,
        })
    }

    /// `require event E preceded_by P by S`
    pub(super) fn parse_event_rule(&mut self) -> ParseResult<EventRule> {
        self.expect_word("require")?;
        self.expect_word("event")?;
        let event = self.expect_rule_name("an event name")?;
        self.expect_word("preceded_by")?;
        let preceded_by = self.expect_rule_name("an event name")?;
        self.expect_word("by")?;
        let scope = self.expect_rule_name("a data or component name")?;
        Ok(EventRule {
            event,
            preceded_by,
            scope,
        })
    }

    /// `deny inject|inject_reach|lifetime|lifetime_reach|resolve …`
    pub(super) fn parse_di_rule(&mut self) -> ParseResult<DiRule> {
        self.expect_word("deny")?;
        let form = self.expect_one_of(&[
            "inject",
            "inject_reach",
            "lifetime",
            "lifetime_reach",
            "resolve",
        ])?;
        match form.text.as_str() {
            "inject" | "inject_reach" => {
                let from = self.expect_rule_name("a component name")?;
                self.expect(TokenKind::Arrow)?;
                let to = self.expect_rule_name("a component name")?;
                Ok(DiRule::Inject {
                    is_reach: form.text == "inject_reach",
                    from,
                    to,
                })
            }
            "lifetime" | "lifetime_reach" => {
                let from = self.parse_lifetime()?;
                self.expect(TokenKind::Arrow)?;
                let to = self.parse_lifetime()?;
                Ok(DiRule::Lifetime {
                    is_reach: form.text == "lifetime_reach",
                    from,
                    to,
                })
            }
            _ => {
                let service = if self.eat(TokenKind::Star).is_some() {
                    None
                } else {
                    Some(self.expect_rule_name("a service name or `*`")?)
                };
                self.expect_word("from")?;
                let component = self.expect_rule_name("a component name")?;
                Ok(DiRule::Resolve { service, component })
            }
        }
    }

    fn parse_lifetime(&mut self) -> ParseResult<Lifetime> {
        let word = self.expect_one_of(&["singleton", "scoped", "transient"])?;
        match Lifetime::parse(&word.text) {
            Some(lifetime) => Ok(lifetime),
            None => self.fail("a lifetime"),
        }
    }

    /// `deny classification C -> T` or `deny jurisdiction J -> E`
    pub(super) fn parse_data_policy_rule(&mut self) -> ParseResult<DataPolicyRule> {
        self.expect_word("deny")?;
        let form = self.expect_one_of(&["classification", "jurisdiction"])?;
        let label = self.expect_rule_name("a label")?;
        self.expect(TokenKind::Arrow)?;
        if form.text == "classification" {
            let trust = self.expect_rule_name("a trust level")?;
            Ok(DataPolicyRule::Classification { label, trust })
        } else {
            let entity = self.expect_rule_name("an entity name")?;
            Ok(DataPolicyRule::Jurisdiction { label, entity })
        }
    }

    /// `require auth T -> T` or `deny flow T -> T when data C`
    pub(super) fn parse_trust_rule(&mut self) -> ParseResult<TrustRule> {
        let is_require = self.expect_one_of(&["require", "deny"])?.text == "require";
        self.expect_word(if is_require { "auth" } else { "flow" })?;
        let from = self.expect_rule_name("a trust level")?;
        self.expect(TokenKind::Arrow)?;
        let to = self.expect_rule_name("a trust level")?;
        if is_require {
            return Ok(TrustRule::RequireAuth { from, to });
        }
        self.expect_word("when")?;
        self.expect_word("data")?;
        let classification = self.expect_rule_name("a classification")?;
        Ok(TrustRule::DenyFlowWhenData {
            from,
            to,
            classification,
        })
    }

    /// `require touched R when touched T`
    pub(super) fn parse_change_rule(&mut self) -> ParseResult<ChangeRule> {
        self.expect_word("require")?;
        self.expect_word("touched")?;
        let required = self.expect_rule_name("a component name")?;
        self.expect_word("when")?;
        self.expect_word("touched")?;
        let trigger = self.expect_rule_name("a component name")?;
        Ok(ChangeRule { required, trigger })
    }
}
