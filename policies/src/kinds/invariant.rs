//! `invariant`: 18 surface forms, 11 rule kinds (and the four boundary forms of the next section).
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
//! # Edges
//! A flow edge starts at a file and comes from one fact of it:
//! - an import, to the file it resolves to; a type-only import (TypeScript's `import type`, or
//!   an import the compiler elides because its names are used only as types) makes none;
//! - a constructor injection, to the file that declares the injected type, when the project
//!   declares it exactly once. Code depends on the type it names: a use case that injects
//!   `IOrderRepository`, declared in the domain, depends on the domain, even when the DI
//!   container registers an infrastructure class for it. A type declared outside the project
//!   (`IConfiguration`, `IDistributedCache`), or declared more than once in it, gives no edge.
//!   Which implementation the container registers is what `di_policy` judges, never a flow
//!   or reach rule;
//! - a database, cache, queue, storage or HTTP client, to the node or resource of its technology;
//! - an HTTP call, to the files that serve its route (of a component that implements a contract
//!   declaring it), else to its target node or resource;
//! - a reviewed query's `flow` fact, to its target component's files or its target entity.
//!
//! The component edge A -> B exists when a file owned by A has an edge into a file owned by B or
//! into the entity B. `deny flow A -> B` is judged on these edges: every fact that makes the
//! edge is a finding, located at that fact.
//!
//! # Chains
//! `deny reach`, `require flow … via` (`deny path_without_via`), `deny dataflow` and
//! `require dataflow … via` (`deny data_path_without_via`) are judged on chains of files, and so
//! are the `data_policy` and `trust_policy` rules. Every file of the project that is not
//! excluded is read, whether a component owns it or not: a file no component owns is never the
//! subject of a finding, but chains pass through it. A chain from A to B is a sequence of edges
//! from a file of A to a file of B, or to the entity B, whose files in between belong to neither
//! A nor B (they may belong to other components, or to none).
//!
//! Component edges that no chain of files joins are not a path. When `app/x.ts` imports
//! `shared/a.ts` and `shared/b.ts` imports `server/y.ts`, App has an edge to Shared and Shared
//! one to Server, yet no code of App can run into Server, so `deny reach App -> Server` holds.
//! It fails once `shared/a.ts` imports `shared/b.ts`.
//!
//! Code that runs on a client (a component whose node is an `edge_desktop`, `edge_mobile`,
//! `edge_embedded` or `edge_wearable`: a browser, an app, a device) never loads a server-only
//! module through another module, as the framework leaves it out of the client's build: a
//! chain from such a component enters one only from the component's own files (an import the
//! build rejects). Server-only modules are the files that import the `server-only` package; in
//! a project that uses Remix or React Router's framework (`@remix-run/*`, `@react-router/*`),
//! the `*.server.*` files and those under a `.server/` folder; in a SvelteKit one, the
//! `*.server.*` files and those under `lib/server/`. A browser component that imports a Remix
//! route module, whose loader uses `db.server.ts`, does not reach the database that way.
//!
//! `deny reach` and `require flow … via` give one finding per pair of endpoints, the dataflow
//! forms one per data, handler and target. A finding's witness is the shortest chain, ties
//! broken by the smaller sequence of file paths. `detected.path` lists the components and entities along
//! it (files no component owns left out, repeats merged), and `detected.files` lists its files in
//! order, ending with the target node or resource when the chain ends at one. The finding is
//! located at the chain's first edge. When the check is narrowed to some files (staged changes,
//! `--file`), the chain must use an edge whose fact lies in them, and the finding is located at
//! the first such edge: the change that closes the path. Under `--diff`, a chain through an edge
//! the merge base does not have comes first: the finding is then `new`, even when the pair was
//! already violated on the base (so `--new-only` does not hide a pull request that opens another
//! forbidden path), and it is located at that edge.
//!
//! `require flow A -> B via V` is violated by a chain from A to B that avoids V: no file strictly
//! inside it is owned by a member of V, and no entity strictly inside it is one.
//!
//! # Passing example
//! `invariant Layering { deny flow Web -> db  require flow Api -> db via Repo }`
//!
//! # Failing example
//! `invariant Layering { deny flow Wbe -> db }` gives `unknown-entity` with "did you mean `Web`?".
//!
//! # SMT encoding
//! See [`crate::smt`]: DenyFlow is `(not (edge A B))` with the one edge fact. A chain rule is
//! `(not (reach A B))` (`free` for a chain that avoids the via set) with the witness chain:
//! each hop's edge fact, the `owned_by` facts that map its files to their components, and the
//! instance of the path axiom at each hop. No quantifier is left to instantiate, so a chain of
//! 1,000 files is proved as fast as one of two, and the unsat core lists every hop.

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
        if let Some(rules) = self.check_boundary_rule(&parsed.rule) {
            return rules;
        }
        match &parsed.rule {
            InvariantRule::Undeclared { .. }
            | InvariantRule::Unresolved { .. }
            | InvariantRule::CycleAmong { .. }
            | InvariantRule::CycleWithin { .. }
            | InvariantRule::CycleFiles { .. } => Vec::new(),
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
