//! Invariant rules (see `invariant` in policies/LANGUAGE.md): 18 surface forms, and endpoint selectors.

use super::cursor::ident;
use super::{ParseResult, Parser, RULE_KEYWORDS};
use crate::model::RuleKind;
use crate::syntax::ast::{EndpointSyntax, GroupSyntax, InvariantRule, SelectorKind};
use crate::syntax::token::TokenKind;

const DENY_FORMS: [&str; 12] = [
    "flow",
    "reach",
    "dataflow",
    "path_without_via",
    "data_path_without_via",
    "unauthenticated",
    "unencrypted",
    "operation",
    "dependency",
    "undeclared",
    "unresolved",
    "cycle",
];

const REQUIRE_FORMS: [&str; 7] = [
    "flow",
    "dataflow",
    "auth",
    "encryption",
    "operation",
    "dependency",
    "contract",
];

impl Parser<'_> {
    /// One invariant rule, starting at `deny` or `require`.
    pub(super) fn parse_invariant_rule(&mut self) -> ParseResult<InvariantRule> {
        if self.eat_word("deny").is_some() {
            let form = self.expect_one_of(&DENY_FORMS)?;
            match form.text.as_str() {
                "flow" => self.parse_pair(RuleKind::DenyFlow),
                "reach" => self.parse_pair(RuleKind::DenyReach),
                "dataflow" => self.parse_data_flow(false),
                "path_without_via" => self.parse_flow_via(),
                "data_path_without_via" => self.parse_data_flow(true),
                "unauthenticated" => {
                    self.expect_word("flow")?;
                    self.parse_pair(RuleKind::DenyUnauthenticatedFlow)
                }
                "unencrypted" => {
                    self.expect_word("flow")?;
                    self.parse_pair(RuleKind::DenyUnencryptedFlow)
                }
                "operation" => self.parse_operation("outside"),
                "undeclared" => {
                    self.expect_word("dependencies")?;
                    self.expect_word("in")?;
                    let scope = self.parse_group()?;
                    Ok(InvariantRule::Undeclared { scope })
                }
                "unresolved" => {
                    self.expect_word("imports")?;
                    self.expect_word("in")?;
                    let scope = self.parse_group()?;
                    Ok(InvariantRule::Unresolved { scope })
                }
                "cycle" => {
                    let connective = self.expect_one_of(&["among", "within"])?;
                    if connective.text == "within" {
                        let scope = self.parse_group()?;
                        return Ok(InvariantRule::CycleWithin { scope });
                    }
                    // `files` is the file form unless a list of groups follows (a component
                    // named `files` among others).
                    if self.at_word("files") && self.nth(1).kind != TokenKind::Comma {
                        self.bump();
                        let mut scopes = Vec::new();
                        if self.eat_word("in").is_some() {
                            scopes.push(self.parse_group()?);
                            while self.eat(TokenKind::Comma).is_some() {
                                scopes.push(self.parse_group()?);
                            }
                        }
                        return Ok(InvariantRule::CycleFiles { scopes });
                    }
                    let mut groups = vec![self.parse_group()?];
                    while self.eat(TokenKind::Comma).is_some() {
                        groups.push(self.parse_group()?);
                    }
                    Ok(InvariantRule::CycleAmong { groups })
                }
                _ => self.parse_dependency(&["without", "interface"]),
            }
        } else {
            self.expect_word("require")?;
            let form = self.expect_one_of(&REQUIRE_FORMS)?;
            match form.text.as_str() {
                "flow" => self.parse_flow_via(),
                "dataflow" => self.parse_data_flow(true),
                "auth" => {
                    self.expect_word("on")?;
                    self.expect_word("flow")?;
                    self.parse_pair(RuleKind::DenyUnauthenticatedFlow)
                }
                "encryption" => {
                    self.expect_word("on")?;
                    self.expect_word("flow")?;
                    self.parse_pair(RuleKind::DenyUnencryptedFlow)
                }
                "operation" => self.parse_operation("in"),
                "dependency" => self.parse_dependency(&["via", "interface"]),
                _ => {
                    let contract = self.expect_rule_name("a contract name")?;
                    self.expect_word("implemented_by")?;
                    let component = self.expect_rule_name("a component name")?;
                    Ok(InvariantRule::Contract {
                        contract,
                        component,
                    })
                }
            }
        }
    }

    fn parse_pair(&mut self, kind: RuleKind) -> ParseResult<InvariantRule> {
        let from = self.parse_endpoint()?;
        self.expect(TokenKind::Arrow)?;
        let to = self.parse_endpoint()?;
        Ok(InvariantRule::Pair { kind, from, to })
    }

    fn parse_flow_via(&mut self) -> ParseResult<InvariantRule> {
        let from = self.parse_endpoint()?;
        self.expect(TokenKind::Arrow)?;
        let to = self.parse_endpoint()?;
        self.expect_word("via")?;
        let via = self.parse_endpoint()?;
        Ok(InvariantRule::FlowVia { from, to, via })
    }

    fn parse_data_flow(&mut self, has_via: bool) -> ParseResult<InvariantRule> {
        let data = self.expect_rule_name("a data name")?;
        self.expect(TokenKind::Arrow)?;
        let to = self.parse_endpoint()?;
        let via = if has_via {
            self.expect_word("via")?;
            Some(self.parse_endpoint()?)
        } else {
            None
        };
        Ok(InvariantRule::DataFlow { data, to, via })
    }

    /// `OP [ "on" D ] placement E`, where `placement` is `in` or `outside`.
    fn parse_operation(&mut self, placement: &str) -> ParseResult<InvariantRule> {
        let operation = self.expect_rule_name("an operation name")?;
        let next = self.expect_one_of(&["on", placement])?;
        let data = if next.text == "on" {
            let data = self.expect_rule_name("a data name")?;
            self.expect_word(placement)?;
            Some(data)
        } else {
            None
        };
        let entity = self.expect_rule_name("an entity name")?;
        Ok(InvariantRule::Operation {
            operation,
            data,
            entity,
        })
    }

    fn parse_dependency(&mut self, connective: &[&str; 2]) -> ParseResult<InvariantRule> {
        let from = self.parse_endpoint()?;
        self.expect(TokenKind::Arrow)?;
        let to = self.parse_endpoint()?;
        for word in connective {
            self.expect_word(word)?;
        }
        let interface = self.expect_rule_name("an interface name")?;
        Ok(InvariantRule::Dependency {
            from,
            to,
            interface,
        })
    }

    /// `"*" | ( "layer" | "role" ) "*" | ep`: a position of the boundary rules.
    fn parse_group(&mut self) -> ParseResult<GroupSyntax> {
        if let Some(star) = self.eat(TokenKind::Star) {
            return Ok(GroupSyntax::Every(star.span));
        }
        let kind = match self.current().text.as_str() {
            "layer" => Some(SelectorKind::Layer),
            "role" => Some(SelectorKind::Role),
            _ => None,
        };
        if let (Some(kind), TokenKind::Star) = (kind, self.nth(1).kind) {
            let keyword = self.bump();
            let star = self.bump();
            let span = keyword.span.to(star.span);
            return Ok(GroupSyntax::EverySelector { kind, span });
        }
        self.parse_endpoint().map(GroupSyntax::Endpoint)
    }

    /// `"role" NAME | "layer" NAME | "resource" NAME | NAME` (a contextual keyword, [`crate::syntax::token`]).
    pub(super) fn parse_endpoint(&mut self) -> ParseResult<EndpointSyntax> {
        let token = self.current();
        let kind = match token.text.as_str() {
            "role" => Some(SelectorKind::Role),
            "layer" => Some(SelectorKind::Layer),
            "resource" => Some(SelectorKind::Resource),
            _ => None,
        };
        let next = self.nth(1);
        let starts_selector = token.kind == TokenKind::Name
            && next.kind == TokenKind::Name
            && !RULE_KEYWORDS.contains(&next.text.as_str());
        match kind {
            Some(kind) if starts_selector => {
                let keyword = self.bump();
                let value = ident(&self.bump());
                let span = keyword.span.to(value.span);
                Ok(EndpointSyntax::Selector { kind, value, span })
            }
            _ => Ok(EndpointSyntax::Name(
                self.expect_rule_name("an entity name")?,
            )),
        }
    }
}
