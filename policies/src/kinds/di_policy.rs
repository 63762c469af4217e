//! `di_policy`: dependency-injection boundaries.
//!
//! # What it checks
//! Component names are components (`unknown-component`); lifetimes are `singleton`, `scoped`
//! or `transient` (a parse error otherwise); the service name is free-form, `*` for any.
//!
//! # Why
//! An inject rule between unknown components could never see an inject edge.
//!
//! # Registrations and flows
//! `di_policy` judges the wiring of the DI container, and flow rules never do. `deny inject A -> B`
//! follows registrations: a constructor of A that injects a service whose registered
//! implementation (`AddScoped<IOrderRepository, OrderRepository>()`) is declared in B is a
//! finding, even when A names only the interface. A flow or reach rule sees the type the
//! constructor names instead: injecting `IOrderRepository` is an edge to the file that declares
//! `IOrderRepository`, so a use case may depend on a domain port that the composition root wires
//! to infrastructure, while a controller that gets the same port injected breaks
//! `deny inject Api -> Infrastructure`. `deny lifetime` and `deny lifetime_reach` follow the
//! registered implementations' constructors from service to service.
//!
//! # Passing example
//! `di_policy Di { deny inject Web -> Repo ; deny lifetime singleton -> scoped }`
//!
//! # Failing example
//! `deny inject Web -> Repos` gives `unknown-component`.
//!
//! # SMT encoding
//! See [`crate::smt`]: inject edges as `edge`, lifetime chains as a service graph.

use crate::check::Checker;
use crate::model::{DeclarationKind, RuleBody, RuleKind};
use crate::syntax::ast::{DiRule, RuleBlock};

impl Checker<'_> {
    /// Checks a DI policy and adds its rules to the model.
    pub fn check_di_policy(&mut self, block: &RuleBlock<DiRule>) {
        self.declare(DeclarationKind::DiPolicy, &block.name);
        for parsed in &block.rules {
            let checked = match &parsed.rule {
                DiRule::Inject { is_reach, from, to } => {
                    let is_from_known = self.resolve_component(from);
                    let is_to_known = self.resolve_component(to);
                    let kind = if *is_reach {
                        RuleKind::DenyInjectReach
                    } else {
                        RuleKind::DenyInject
                    };
                    (is_from_known && is_to_known).then(|| {
                        (
                            kind,
                            RuleBody::Pair {
                                from: from.text.clone(),
                                to: to.text.clone(),
                            },
                        )
                    })
                }
                DiRule::Lifetime { is_reach, from, to } => {
                    let kind = if *is_reach {
                        RuleKind::DenyLifetimeReach
                    } else {
                        RuleKind::DenyLifetime
                    };
                    Some((
                        kind,
                        RuleBody::Lifetime {
                            from: *from,
                            to: *to,
                        },
                    ))
                }
                DiRule::Resolve { service, component } => {
                    self.resolve_component(component).then(|| {
                        let service = service
                            .as_ref()
                            .map_or_else(|| "*".to_owned(), |service| service.text.clone());
                        (
                            RuleKind::DenyResolve,
                            RuleBody::Resolve {
                                service,
                                component: component.text.clone(),
                            },
                        )
                    })
                }
            };
            if let Some((kind, body)) = checked {
                self.push_rule(kind, DeclarationKind::DiPolicy, &block.name, parsed, body);
            }
        }
    }
}

#[cfg(test)]
mod tests;
