//! `invariant` (`language.md` §2.7): 18 surface forms, 11 rule kinds.
//!
//! # What it checks
//! Plain endpoints are declared entities (`unknown-entity`); `role`, `layer` and `resource`
//! selectors select something (`unknown-role`, `unknown-resource`, `selector-matches-nothing`);
//! data names are data (`unknown-data`); contracts and components exist, and the component
//! implements the contract (`contract-not-implemented`). Warnings: `self-referential-rule`
//! for an explicit `A -> A`, `via-is-endpoint` for a via set that holds an endpoint.
//!
//! # Why
//! A rule that names nothing would silently never fire.
//!
//! # Passing example
//! `invariant Layering { deny flow Web -> db  require flow Api -> db via Repo }`
//!
//! # Failing example
//! `invariant Layering { deny flow Wbe -> db }` gives `unknown-entity` with "did you mean `Web`?".
//!
//! # SMT encoding
//! See [`crate::smt`]: DenyFlow is `(not (edge A B))`, DenyReach `(not (reach A B))`, and the
//! via forms use the `free` closure that avoids the via set.

use crate::check::Checker;
use crate::error::Code;
use crate::model::{DeclarationKind, RuleBody, RuleKind};
use crate::syntax::ast::{EndpointSyntax, Ident, InvariantRule, ParsedRule, RuleBlock};

impl Checker<'_> {
    /// Checks an invariant and adds its concrete rules to the model.
    pub fn check_invariant(&mut self, block: &RuleBlock<InvariantRule>) {
        self.declare(DeclarationKind::Invariant, &block.name);
        for parsed in &block.rules {
            for (kind, body) in self.check_invariant_rule(parsed) {
                self.push_rule(kind, DeclarationKind::Invariant, &block.name, parsed, body);
            }
        }
    }

    fn check_invariant_rule(
        &mut self,
        parsed: &ParsedRule<InvariantRule>,
    ) -> Vec<(RuleKind, RuleBody)> {
        match &parsed.rule {
            InvariantRule::Pair { kind, from, to } => {
                let pairs = self.expand_pairs(from, to, parsed.span).unwrap_or_default();
                pairs
                    .into_iter()
                    .map(|(from, to)| (*kind, RuleBody::Pair { from, to }))
                    .collect()
            }
            InvariantRule::FlowVia { from, to, via } => {
                let pairs = self.expand_pairs(from, to, parsed.span);
                let via_set = self.expand_endpoint(via);
                let (Some(pairs), Some(via_set)) = (pairs, via_set) else {
                    return Vec::new();
                };
                let endpoints = pairs.iter().flat_map(|(from, to)| [from, to]);
                self.warn_via_is_endpoint(via, &via_set.names, endpoints);
                pairs
                    .into_iter()
                    .map(|(from, to)| {
                        (
                            RuleKind::RequireFlowVia,
                            RuleBody::PairVia {
                                from,
                                to,
                                via: via_set.names.clone(),
                            },
                        )
                    })
                    .collect()
            }
            InvariantRule::DataFlow { data, to, via } => {
                let is_data = self.resolve_data(data).is_some();
                let targets = self.expand_endpoint(to);
                let via_set = via.as_ref().map(|via| (via, self.expand_endpoint(via)));
                let (Some(targets), true) = (targets, is_data) else {
                    return Vec::new();
                };
                let (kind, via_names) = match via_set {
                    None => (RuleKind::DenyDataFlow, Vec::new()),
                    Some((_, None)) => return Vec::new(),
                    Some((via, Some(via_set))) => {
                        self.warn_via_is_endpoint(via, &via_set.names, targets.names.iter());
                        (RuleKind::RequireDataFlowVia, via_set.names)
                    }
                };
                targets
                    .names
                    .into_iter()
                    .map(|to| {
                        (
                            kind,
                            RuleBody::DataTo {
                                data: data.text.clone(),
                                to,
                                via: via_names.clone(),
                            },
                        )
                    })
                    .collect()
            }
            InvariantRule::Operation {
                operation,
                data,
                entity,
            } => {
                let is_data = data
                    .as_ref()
                    .is_none_or(|data| self.resolve_data(data).is_some());
                if !self.resolve_entity(entity) || !is_data {
                    return Vec::new();
                }
                let kind = if data.is_some() {
                    RuleKind::RequireOperationOnDataIn
                } else {
                    RuleKind::RequireOperationIn
                };
                let body = RuleBody::OperationIn {
                    operation: operation.text.clone(),
                    data: data.as_ref().map(|data| data.text.clone()),
                    entity: entity.text.clone(),
                };
                vec![(kind, body)]
            }
            InvariantRule::Dependency {
                from,
                to,
                interface,
            } => {
                let pairs = self.expand_pairs(from, to, parsed.span).unwrap_or_default();
                pairs
                    .into_iter()
                    .map(|(from, to)| {
                        let body = RuleBody::Dependency {
                            from,
                            to,
                            interface: interface.text.clone(),
                        };
                        (RuleKind::RequireDependencyViaInterface, body)
                    })
                    .collect()
            }
            InvariantRule::Contract {
                contract,
                component,
            } => self.check_contract_rule(contract, component),
        }
    }

    fn check_contract_rule(
        &mut self,
        contract: &Ident,
        component: &Ident,
    ) -> Vec<(RuleKind, RuleBody)> {
        let is_contract = self.resolve_contract(contract);
        if !self.resolve_component(component) || !is_contract {
            return Vec::new();
        }
        let implements = self
            .symbols
            .components
            .get(component.text.as_str())
            .is_some_and(|declared| {
                declared
                    .listed("implements")
                    .any(|listed| listed.text == contract.text)
            });
        if !implements {
            let message = format!(
                "component `{}` does not implement `{}`",
                component.text, contract.text
            );
            self.report(Code::ContractNotImplemented, component.span, message);
            return Vec::new();
        }
        let body = RuleBody::ContractImplementedBy {
            contract: contract.text.clone(),
            component: component.text.clone(),
        };
        vec![(RuleKind::RequireContractImplementedBy, body)]
    }

    fn warn_via_is_endpoint<'n>(
        &mut self,
        via: &EndpointSyntax,
        via_names: &[String],
        mut endpoints: impl Iterator<Item = &'n String>,
    ) {
        if let Some(endpoint) = endpoints.find(|endpoint| via_names.contains(endpoint)) {
            let message = format!(
                "via `{endpoint}` is an endpoint of this rule and can never be passed through"
            );
            self.report(Code::ViaIsEndpoint, via.span(), message);
        }
    }
}

#[cfg(test)]
mod tests;
