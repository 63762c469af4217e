//! Nodes and resources (`language.md` §2.2, §2.3): type vocabularies and the validated
//! properties `trust`, `connectivity`, `protocol` and `auth`; other keys are free-form metadata.

use std::collections::BTreeMap;

use super::Checker;
use crate::error::{Code, SpecError};
use crate::model::InfraEntity;
use crate::syntax::ast::{Ident, InfraDecl, Property};
use crate::syntax::Span;
use crate::vocab::{self, AUTH, CONNECTIVITY, NODE_TYPES, PROTOCOLS, RESOURCE_TYPES};

impl Checker<'_> {
    /// Checks a node (`is_node`) or resource and returns its model entry.
    pub fn check_infra(&mut self, decl: &InfraDecl, is_node: bool) -> InfraEntity {
        let (vocabulary, code, noun): (&[&str], Code, &str) = if is_node {
            (&NODE_TYPES, Code::UnknownNodeType, "node")
        } else {
            (&RESOURCE_TYPES, Code::UnknownResourceType, "resource")
        };
        let type_name = &decl.type_name.text;
        if !type_name.is_empty() && !vocabulary.contains(&type_name.as_str()) {
            let suggestion = vocab::suggest_vocabulary(type_name, vocabulary);
            let message = format!("unknown {noun} type `{type_name}`");
            self.report_with_suggestion(code, decl.type_name.span, message, suggestion);
        }
        let mut entity = InfraEntity {
            name: decl.name.text.clone(),
            type_name: type_name.clone(),
            type_parameter: decl
                .type_parameter
                .as_ref()
                .map(|parameter| parameter.text.clone()),
            trust: None,
            auth: Vec::new(),
            protocol: Vec::new(),
            connectivity: None,
            properties: BTreeMap::new(),
            location: self.location(decl.name.span),
        };
        let mut seen: BTreeMap<&str, Span> = BTreeMap::new();
        for property in &decl.properties {
            let key = property.key.text.as_str();
            if let Some(first) = seen.get(key) {
                let message = format!("`{key}` is given twice in {noun} `{}`", decl.name.text);
                let error = SpecError::new(Code::DuplicateKey, property.key.span, message)
                    .with_related(*first, "first given here");
                self.errors.push(error);
                continue;
            }
            seen.insert(key, property.key.span);
            self.apply_property(&mut entity, property);
        }
        entity
    }

    fn apply_property(&mut self, entity: &mut InfraEntity, property: &Property) {
        match property.key.text.as_str() {
            "trust" => {
                if let Some(value) = self.single_value(property) {
                    entity.trust = self.resolve_trust_value(value);
                }
            }
            "connectivity" => {
                if let Some(value) = self.single_value(property) {
                    if self.in_vocabulary(
                        value,
                        &CONNECTIVITY,
                        Code::InvalidConnectivity,
                        "connectivity",
                    ) {
                        entity.connectivity = Some(value.text.clone());
                    }
                }
            }
            "protocol" => {
                for value in &property.values {
                    if self.in_vocabulary(value, &PROTOCOLS, Code::InvalidProtocol, "protocol") {
                        entity.protocol.push(value.text.clone());
                    }
                }
            }
            "auth" => {
                for value in &property.values {
                    if self.in_vocabulary(value, &AUTH, Code::InvalidAuth, "auth") {
                        entity.auth.push(value.text.clone());
                    }
                }
            }
            key => {
                let values = property
                    .values
                    .iter()
                    .map(|value| value.text.clone())
                    .collect();
                entity.properties.insert(key.to_owned(), values);
            }
        }
    }

    /// The only value of a single-valued key; else `invalid-property-value`.
    fn single_value<'p>(&mut self, property: &'p Property) -> Option<&'p Ident> {
        match property.values.as_slice() {
            [value] => Some(value),
            _ => {
                let message = format!("`{}` takes exactly one value", property.key.text);
                self.report(Code::InvalidPropertyValue, property.key.span, message);
                None
            }
        }
    }

    fn in_vocabulary(
        &mut self,
        value: &Ident,
        vocabulary: &[&str],
        code: Code,
        noun: &str,
    ) -> bool {
        if vocabulary.contains(&value.text.as_str()) {
            return true;
        }
        let suggestion = vocab::suggest_vocabulary(&value.text, vocabulary);
        let message = format!(
            "invalid {noun} `{}`: expected {}",
            value.text,
            vocab::plain_list(vocabulary)
        );
        self.report_with_suggestion(code, value.span, message, suggestion);
        false
    }
}
