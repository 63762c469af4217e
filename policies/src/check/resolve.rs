//! Name resolution against the symbol table, with the `unknown-*` diagnostics ([`crate::error::Code`]) and their
//! "did you mean" suggestions ([`crate::vocab`]).

use super::names::ModelKind;
use super::Checker;
use crate::error::Code;
use crate::model::Trust;
use crate::syntax::ast::{DataDecl, EnumDecl, Ident};
use crate::vocab::{self, TRUST_LEVELS};

impl<'a> Checker<'a> {
    /// A declared node, resource or component; else `unknown-entity`.
    pub fn resolve_entity(&mut self, name: &Ident) -> bool {
        if self.symbols.is_entity(&name.text) {
            return true;
        }
        let suggestion = self.suggest(&name.text, self.symbols.entity_names());
        let message = format!(
            "unknown entity `{}`: not a declared node, resource or component",
            name.text
        );
        self.report_with_suggestion(Code::UnknownEntity, name.span, message, suggestion);
        false
    }

    /// A declared name of one model kind; else `code`, naming the kind it has if any.
    fn resolve_model(&mut self, name: &Ident, wanted: ModelKind, code: Code, noun: &str) -> bool {
        match self.symbols.model_kind(&name.text) {
            Some(kind) if kind == wanted => true,
            Some(kind) => {
                let message = format!(
                    "`{}` is {}, not {}",
                    name.text,
                    kind.with_article(),
                    wanted.with_article()
                );
                self.report(code, name.span, message);
                false
            }
            None => {
                let suggestion = self.suggest(&name.text, self.symbols.names_of(wanted));
                let message = format!("unknown {noun} `{}`", name.text);
                self.report_with_suggestion(code, name.span, message, suggestion);
                false
            }
        }
    }

    /// A declared node; else `unknown-node`.
    pub fn resolve_node(&mut self, name: &Ident) -> bool {
        self.resolve_model(name, ModelKind::Node, Code::UnknownNode, "node")
    }

    /// A declared component; else `unknown-component`.
    pub fn resolve_component(&mut self, name: &Ident) -> bool {
        self.resolve_model(
            name,
            ModelKind::Component,
            Code::UnknownComponent,
            "component",
        )
    }

    /// A declared data type; else `unknown-data`.
    pub fn resolve_data(&mut self, name: &Ident) -> Option<&'a DataDecl> {
        if self.resolve_model(name, ModelKind::Data, Code::UnknownData, "data") {
            self.symbols.data.get(name.text.as_str()).copied()
        } else {
            None
        }
    }

    /// A declared enum; else `not-an-enum`.
    pub fn resolve_enum(&mut self, name: &Ident) -> Option<&'a EnumDecl> {
        if let Some(found) = self.symbols.enums.get(name.text.as_str()).copied() {
            return Some(found);
        }
        let suggestion = self.suggest(&name.text, self.symbols.names_of(ModelKind::Enum));
        let message = format!("`{}` is not a declared enum", name.text);
        self.report_with_suggestion(Code::NotAnEnum, name.span, message, suggestion);
        None
    }

    /// A member of `declared`; else `enum-value-unknown`.
    pub fn resolve_member(&mut self, declared: &EnumDecl, value: &Ident) -> bool {
        if declared
            .values
            .iter()
            .any(|member| member.text == value.text)
        {
            return true;
        }
        let suggestion = self.suggest(
            &value.text,
            declared.values.iter().map(|member| member.text.as_str()),
        );
        let message = format!(
            "`{}` is not a value of enum `{}`",
            value.text, declared.name.text
        );
        self.report_with_suggestion(Code::EnumValueUnknown, value.span, message, suggestion);
        false
    }

    /// A declared contract; else `unknown-contract`.
    pub fn resolve_contract(&mut self, name: &Ident) -> bool {
        if self.symbols.contracts.contains_key(name.text.as_str()) {
            return true;
        }
        let suggestion = self.suggest(&name.text, self.symbols.contracts.keys().copied());
        let message = format!("unknown contract `{}`", name.text);
        self.report_with_suggestion(Code::UnknownContract, name.span, message, suggestion);
        false
    }

    /// A declared repo; else `unknown-repo`.
    pub fn resolve_repo(&mut self, name: &Ident) -> bool {
        if self.symbols.repos.contains_key(name.text.as_str()) {
            return true;
        }
        let suggestion = self.suggest(&name.text, self.symbols.repos.keys().copied());
        let message = format!("unknown repo `{}`", name.text);
        self.report_with_suggestion(Code::UnknownRepo, name.span, message, suggestion);
        false
    }

    /// A trust level used in a rule: `invalid-trust` when outside the vocabulary, and
    /// `trust-level-unused` (W) when no entity has it.
    pub fn resolve_rule_trust(&mut self, name: &Ident) -> Option<Trust> {
        let trust = self.resolve_trust_value(name)?;
        if !self.labels.trust_levels.contains(&trust) {
            let message = format!("no entity is `{}`: the rule cannot fire", name.text);
            self.report(Code::TrustLevelUnused, name.span, message);
        }
        Some(trust)
    }

    /// A trust value; else `invalid-trust`.
    pub fn resolve_trust_value(&mut self, name: &Ident) -> Option<Trust> {
        let trust = Trust::parse(&name.text);
        if trust.is_none() {
            let suggestion = vocab::suggest_vocabulary(&name.text, &TRUST_LEVELS);
            let message = format!(
                "invalid trust `{}`: expected trusted, untrusted or semi_trusted",
                name.text
            );
            self.report_with_suggestion(Code::InvalidTrust, name.span, message, suggestion);
        }
        trust
    }

    /// A classification that some data uses; else `unknown-classification`.
    pub fn resolve_classification(&mut self, name: &Ident) -> bool {
        if self.labels.classifications.contains(&name.text) {
            return true;
        }
        let suggestion = self.suggest(
            &name.text,
            self.labels.classifications.iter().map(String::as_str),
        );
        let suggestion = suggestion.map(str::to_owned);
        let message = format!("no data is classified `{}`", name.text);
        self.report_with_suggestion(
            Code::UnknownClassification,
            name.span,
            message,
            suggestion.as_deref(),
        );
        false
    }

    /// A jurisdiction that some data uses; else `unknown-jurisdiction`.
    pub fn resolve_jurisdiction(&mut self, name: &Ident) -> bool {
        if self.labels.jurisdictions.contains(&name.text) {
            return true;
        }
        let suggestion = self.suggest(
            &name.text,
            self.labels.jurisdictions.iter().map(String::as_str),
        );
        let suggestion = suggestion.map(str::to_owned);
        let message = format!("no data has jurisdiction `{}`", name.text);
        self.report_with_suggestion(
            Code::UnknownJurisdiction,
            name.span,
            message,
            suggestion.as_deref(),
        );
        false
    }

    /// Data or a component (event scopes and permission targets).
    pub fn data_or_component(&self, name: &str) -> Option<crate::model::TargetKind> {
        match self.symbols.model_kind(name) {
            Some(ModelKind::Data) => Some(crate::model::TargetKind::Data),
            Some(ModelKind::Component) => Some(crate::model::TargetKind::Component),
            _ => None,
        }
    }

    /// The names that may be data or a component, for suggestions.
    pub fn suggest_data_or_component(&self, name: &str) -> Option<String> {
        let candidates = self
            .symbols
            .names_of(ModelKind::Data)
            .chain(self.symbols.names_of(ModelKind::Component));
        self.suggest(name, candidates).map(str::to_owned)
    }
}
