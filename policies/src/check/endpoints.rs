//! Endpoint positions and selectors (see `invariant` in policies/LANGUAGE.md): plain entity names, and `role`,
//! `layer` and `resource` selectors expanded to entities in declaration order.

use super::Checker;
use crate::error::Code;
use crate::syntax::ast::{EndpointSyntax, SelectorKind};
use crate::syntax::Span;
use crate::vocab::{RESOURCE_TYPES, ROLES};

/// An endpoint expanded to the entities it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpandedEndpoint {
    /// Entity names, in declaration order, without repeats.
    pub names: Vec<String>,
}

impl Checker<'_> {
    /// Expands an endpoint; `None` (with a diagnostic) when it names or selects nothing.
    pub fn expand_endpoint(&mut self, endpoint: &EndpointSyntax) -> Option<ExpandedEndpoint> {
        let (kind, value, span) = match endpoint {
            EndpointSyntax::Name(name) => {
                return self.resolve_entity(name).then(|| ExpandedEndpoint {
                    names: vec![name.text.clone()],
                });
            }
            EndpointSyntax::Selector { kind, value, span } => (*kind, value, *span),
        };
        let names: Vec<String> = match kind {
            SelectorKind::Role => {
                if !ROLES.contains(&value.text.as_str()) {
                    self.report_unknown_role(value);
                    return None;
                }
                self.components_with("role", &value.text)
            }
            SelectorKind::Layer => self.components_with("layer", &value.text),
            SelectorKind::Resource => {
                let is_name = self.symbols.resources.contains_key(value.text.as_str());
                if !is_name && !RESOURCE_TYPES.contains(&value.text.as_str()) {
                    let candidates = self.symbols.resources.keys().copied().chain(RESOURCE_TYPES);
                    let suggestion = self.suggest(&value.text, candidates).map(str::to_owned);
                    let message = format!(
                        "unknown resource `{}`: not a declared resource or resource type",
                        value.text
                    );
                    self.report_with_suggestion(
                        Code::UnknownResource,
                        value.span,
                        message,
                        suggestion.as_deref(),
                    );
                    return None;
                }
                self.symbols
                    .resource_order
                    .iter()
                    .filter(|resource| {
                        resource.name.text == value.text || resource.type_name.text == value.text
                    })
                    .map(|resource| resource.name.text.clone())
                    .collect()
            }
        };
        if names.is_empty() {
            let noun = if kind == SelectorKind::Resource {
                "resource"
            } else {
                "component"
            };
            let message = format!(
                "selector `{} {}` matches no {noun}",
                kind.keyword(),
                value.text
            );
            self.report(Code::SelectorMatchesNothing, span, message);
            return None;
        }
        let mut seen = std::collections::BTreeSet::new();
        let unique: Vec<String> = names
            .into_iter()
            .filter(|name| seen.insert(name.clone()))
            .collect();
        Some(ExpandedEndpoint { names: unique })
    }

    fn components_with(&self, key: &str, value: &str) -> Vec<String> {
        self.symbols
            .component_order
            .iter()
            .filter(|component| {
                component
                    .scalar(key)
                    .is_some_and(|found| found.text == value)
            })
            .map(|component| component.name.text.clone())
            .collect()
    }

    /// Expands `from -> to` to the cross product of concrete pairs, dropping `A -> A` pairs.
    /// An explicit `A -> A` gives `self-referential-rule` (W) at `rule_span`.
    pub fn expand_pairs(
        &mut self,
        from: &EndpointSyntax,
        to: &EndpointSyntax,
        rule_span: Span,
    ) -> Option<Vec<(String, String)>> {
        let sources = self.expand_endpoint(from);
        let targets = self.expand_endpoint(to);
        if let (EndpointSyntax::Name(left), EndpointSyntax::Name(right)) = (from, to) {
            if left.text == right.text {
                let message = format!("rule relates `{}` to itself", left.text);
                self.report(Code::SelfReferentialRule, rule_span, message);
            }
        }
        let (sources, targets) = (sources?, targets?);
        let mut pairs = Vec::new();
        for source in &sources.names {
            for target in targets.names.iter().filter(|target| *target != source) {
                pairs.push((source.clone(), target.clone()));
            }
        }
        Some(pairs)
    }
}
