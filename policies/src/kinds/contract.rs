//! `contract`: declared interface shapes, and the HTTP path normalisation of the contract checks.
//!
//! # What it checks
//! HTTP paths start with `/` (`invalid-route`, W); no two HTTP endpoints share a method and
//! normalised path (`duplicate-endpoint`, W). Argument and return types are recorded only.
//!
//! # Why
//! Routes are matched on normalised paths; a path without `/`, or a repeat, is almost always
//! a typo.
//!
//! # Passing example
//! `contract OrdersApi { GET "/api/orders" -> Order[] ; POST "/api/orders/{id}" }`
//!
//! # Failing example
//! `GET "/api/orders/{id}"` next to `GET "/api/orders/:key"` gives `duplicate-endpoint`.
//!
//! # SMT encoding
//! See [`crate::smt`]: the declared endpoint set is closed-world for `implements_undeclared`.

use std::collections::BTreeMap;

use crate::check::Checker;
use crate::error::{Code, SpecError};
use crate::model::{Contract, ContractEndpoint, EndpointArgument, EndpointShape};
use crate::syntax::ast::{ContractDecl, EndpointDecl};
use crate::syntax::Span;

/// Normalises an HTTP path (see `contract` in policies/LANGUAGE.md): drops the query string and fragment; replaces `{x}`,
/// `{x:type}`, `${x}`, `:x`, `<x>` and `<type:x>` with `{}`; lowercases; collapses repeated
/// `/`; drops a trailing `/` except for the root.
pub fn normalize_http_path(path: &str) -> String {
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let mut normalized = String::with_capacity(path.len());
    let mut chars = path.chars().peekable();
    let mut at_segment_start = true;
    while let Some(next) = chars.next() {
        let closer = match next {
            '$' if chars.peek() == Some(&'{') => {
                chars.next();
                Some('}')
            }
            '{' => Some('}'),
            '<' => Some('>'),
            ':' if at_segment_start => None,
            _ => {
                at_segment_start = next == '/';
                normalized.extend(next.to_lowercase());
                continue;
            }
        };
        match closer {
            Some(closer) => {
                for skipped in chars.by_ref() {
                    if skipped == closer {
                        break;
                    }
                }
            }
            None => {
                while chars.peek().is_some_and(|peeked| *peeked != '/') {
                    chars.next();
                }
            }
        }
        normalized.push_str("{}");
        at_segment_start = false;
    }
    let mut collapsed = String::with_capacity(normalized.len());
    for character in normalized.chars() {
        if !(character == '/' && collapsed.ends_with('/')) {
            collapsed.push(character);
        }
    }
    while collapsed.len() > 1 && collapsed.ends_with('/') {
        collapsed.pop();
    }
    collapsed
}

impl Checker<'_> {
    /// Checks a contract and adds it to the model.
    pub fn check_contract(&mut self, decl: &ContractDecl) {
        let mut seen: BTreeMap<(String, String), Span> = BTreeMap::new();
        let mut endpoints = Vec::new();
        for endpoint in &decl.endpoints {
            let (shape, span) = match endpoint {
                EndpointDecl::Http {
                    method,
                    path,
                    returns,
                } => {
                    if !path.value.starts_with('/') {
                        let message = format!("route `{}` should start with `/`", path.value);
                        self.report(Code::InvalidRoute, path.span, message);
                    }
                    let normalized_path = normalize_http_path(&path.value);
                    let key = (method.text.clone(), normalized_path.clone());
                    if let Some(first) = seen.get(&key) {
                        let message = format!(
                            "`{} {}` is declared twice in `{}`",
                            method.text, normalized_path, decl.name.text
                        );
                        let error = SpecError::new(Code::DuplicateEndpoint, method.span, message)
                            .with_related(*first, "first declared here");
                        self.errors.push(error);
                    } else {
                        seen.insert(key, method.span);
                    }
                    let shape = EndpointShape::Http {
                        method: method.text.clone(),
                        path: path.value.clone(),
                        normalized_path,
                        returns: returns.clone(),
                    };
                    (shape, method.span)
                }
                EndpointDecl::GraphQl {
                    operation,
                    name,
                    arguments,
                    returns,
                } => {
                    let arguments = arguments
                        .iter()
                        .map(|(name, type_text)| EndpointArgument {
                            name: name.text.clone(),
                            type_text: type_text.clone(),
                        })
                        .collect();
                    let shape = EndpointShape::Graphql {
                        operation: operation.text.clone(),
                        name: name.text.clone(),
                        arguments,
                        returns: returns.clone(),
                    };
                    (shape, operation.span)
                }
                EndpointDecl::Rpc {
                    keyword,
                    name,
                    request,
                    response,
                } => {
                    let shape = EndpointShape::Rpc {
                        name: name.text.clone(),
                        request: request.text.clone(),
                        response: response.text.clone(),
                    };
                    (shape, keyword.span)
                }
                EndpointDecl::Message { direction, topic } => {
                    let shape = EndpointShape::Message {
                        direction: direction.text.clone(),
                        topic: topic.value.clone(),
                    };
                    (shape, direction.span)
                }
            };
            let location = self.location(span);
            endpoints.push(ContractEndpoint { shape, location });
        }
        let location = self.location(decl.name.span);
        self.model.contracts.push(Contract {
            name: decl.name.text.clone(),
            endpoints,
            location,
        });
    }
}

#[cfg(test)]
mod normalize_tests {
    use super::normalize_http_path;

    #[test]
    fn placeholders_become_braces() {
        assert_eq!(normalize_http_path("/api/orders/{id}"), "/api/orders/{}");
        assert_eq!(
            normalize_http_path("/api/orders/:id/items"),
            "/api/orders/{}/items"
        );
        assert_eq!(normalize_http_path("/api/${x}/<int:y>"), "/api/{}/{}");
        assert_eq!(normalize_http_path("/API//Orders/?q=1#f"), "/api/orders");
        assert_eq!(normalize_http_path("/"), "/");
        assert_eq!(normalize_http_path("/a/{x:int}"), "/a/{}");
    }
}

#[cfg(test)]
mod tests;
