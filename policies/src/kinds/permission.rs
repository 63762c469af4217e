//! `permission`: role-gated operations on data or a component.
//!
//! # What it checks
//! The target is data or a component (`unknown-target`); in `E.V`, `E` is an enum
//! (`not-an-enum`) and `V` a member (`enum-value-unknown`); a `when f` field is a field of the
//! data target (`unknown-field`; a component target has no fields).
//!
//! # Why
//! A permission over an unknown role could never be satisfied by any role check.
//!
//! # Passing example
//! `permission OrderAccess on Order { allow Role.Admin -> delete ; deny Role.Member -> delete }`
//!
//! # Failing example
//! `allow Roles.Admin -> delete` gives `not-an-enum` when `Roles` is not an enum.
//!
//! # SMT encoding
//! See [`crate::smt`]: allow rules are encoded closed-world, deny rules as forbidden grants.

use crate::check::Checker;
use crate::error::Code;
use crate::model::{DeclarationKind, Permission, RuleBody, RuleKind, TargetKind};
use crate::syntax::ast::{Ident, PermissionDecl};

impl Checker<'_> {
    /// Checks a permission and adds it and its rules to the model.
    pub fn check_permission(&mut self, decl: &PermissionDecl) {
        self.declare(DeclarationKind::Permission, &decl.name);
        let target_kind = self.data_or_component(&decl.target.text);
        match target_kind {
            Some(target_kind) => {
                let location = self.location(decl.name.span);
                self.model.permissions.push(Permission {
                    name: decl.name.text.clone(),
                    target: decl.target.text.clone(),
                    target_kind,
                    location,
                });
            }
            None => {
                let suggestion = self.suggest_data_or_component(&decl.target.text);
                let message = format!(
                    "unknown permission target `{}`: expected data or a component",
                    decl.target.text
                );
                self.report_with_suggestion(
                    Code::UnknownTarget,
                    decl.target.span,
                    message,
                    suggestion.as_deref(),
                );
            }
        }
        for parsed in &decl.rules {
            let rule = &parsed.rule;
            let mut is_valid = true;
            if let Some((enum_name, value)) = &rule.role {
                is_valid = match self.resolve_enum(enum_name) {
                    Some(declared) => self.resolve_member(declared, value),
                    None => false,
                };
            }
            if let (Some(field), Some(target_kind)) = (&rule.when, target_kind) {
                is_valid &= self.check_when_field(&decl.target, target_kind, field);
            }
            let Some(target_kind) = target_kind.filter(|_| is_valid) else {
                continue;
            };
            let kind = if rule.is_allow {
                RuleKind::AllowPermission
            } else {
                RuleKind::DenyPermission
            };
            let operations = match &rule.operations {
                None => vec!["*".to_owned()],
                Some(operations) => operations
                    .iter()
                    .map(|operation| operation.text.clone())
                    .collect(),
            };
            let body = RuleBody::Permission {
                target: decl.target.text.clone(),
                target_kind,
                role_enum: rule
                    .role
                    .as_ref()
                    .map(|(enum_name, _)| enum_name.text.clone()),
                role: rule.role.as_ref().map(|(_, value)| value.text.clone()),
                operations,
                when_field: rule.when.as_ref().map(|field| field.text.clone()),
            };
            self.push_rule(kind, DeclarationKind::Permission, &decl.name, parsed, body);
        }
    }

    fn check_when_field(&mut self, target: &Ident, target_kind: TargetKind, field: &Ident) -> bool {
        if target_kind == TargetKind::Component {
            let message = format!(
                "component `{}` has no field `{}`: `when` needs a data target",
                target.text, field.text
            );
            self.report(Code::UnknownField, field.span, message);
            return false;
        }
        let Some(data) = self.symbols.data.get(target.text.as_str()).copied() else {
            return false;
        };
        let fields = || {
            data.fields
                .iter()
                .filter(|candidate| !crate::check::is_label(candidate))
        };
        if fields().any(|candidate| candidate.name.text == field.text) {
            return true;
        }
        let suggestion = self.suggest(
            &field.text,
            fields().map(|candidate| candidate.name.text.as_str()),
        );
        let message = format!("data `{}` has no field `{}`", target.text, field.text);
        self.report_with_suggestion(Code::UnknownField, field.span, message, suggestion);
        false
    }
}

#[cfg(test)]
mod tests;
