//! `machine`: allowed and denied transitions of one enum field.
//!
//! # What it checks
//! The data exists (`unknown-data`) and has the field (`unknown-field`), whose type is an enum
//! or `Optional<enum>` (`not-an-enum-field`); every state other than `*` is a member
//! (`enum-value-unknown`); no other machine governs the field (`duplicate-machine-target`).
//! Warnings: `self-transition-rule` for `X -> X` (dropped: it has no effect) and
//! `conflicting-transition-rules` when a concrete pair is both allowed and denied.
//!
//! # Why
//! A machine over a misspelt state would allow or deny nothing.
//!
//! # Passing example
//! `machine OrderLife on Order.status { allow transition Draft -> Active  deny transition Archived -> * }`
//!
//! # Failing example
//! `allow transition Draft -> Shipped` gives `enum-value-unknown` when `Shipped` is not a member.
//!
//! # SMT encoding
//! See [`crate::smt`]: allow-lists are closed-world; an unguarded write starts from a distinct
//! `*` constant outside the enum.

use std::collections::BTreeSet;

use crate::check::{lower_type, Checker};
use crate::error::Code;
use crate::model::{DeclarationKind, Machine, RuleBody, RuleKind, TypeExpr};
use crate::syntax::ast::{EnumDecl, MachineDecl, StateSyntax};

impl<'a> Checker<'a> {
    /// Checks a machine and adds it and its rules to the model.
    pub fn check_machine(&mut self, decl: &MachineDecl) {
        self.declare(DeclarationKind::Machine, &decl.name);
        let Some(governed) = self.machine_enum(decl) else {
            return;
        };
        if let Some(other) = self
            .model
            .machines
            .iter()
            .find(|machine| machine.data == decl.data.text && machine.field == decl.field.text)
        {
            let message = format!(
                "`{}.{}` is already governed by machine `{}`",
                decl.data.text, decl.field.text, other.name
            );
            self.report(Code::DuplicateMachineTarget, decl.data.span, message);
        }
        let mut allowed = BTreeSet::new();
        let mut denied = BTreeSet::new();
        let mut is_closed = false;
        for parsed in &decl.rules {
            let rule = &parsed.rule;
            let states_known = [&rule.from, &rule.to].into_iter().all(|state| match state {
                StateSyntax::Any(_) => true,
                StateSyntax::Name(name) => self.resolve_member(governed, name),
            });
            if !states_known {
                continue;
            }
            let (from, to) = (rule.from.text().to_owned(), rule.to.text().to_owned());
            if from == to && from != "*" {
                let message = format!("transition `{from} -> {to}` has no effect");
                self.report(Code::SelfTransitionRule, parsed.span, message);
                continue;
            }
            let pair = (from.clone(), to.clone());
            let is_concrete = from != "*" && to != "*";
            let (this, other) = if rule.is_allow {
                (&mut allowed, &denied)
            } else {
                (&mut denied, &allowed)
            };
            if is_concrete && other.contains(&pair) && !this.contains(&pair) {
                let message = format!("`{from} -> {to}` is both allowed and denied: deny wins");
                self.report(Code::ConflictingTransitionRules, parsed.span, message);
            }
            this.insert(pair);
            is_closed |= rule.is_allow;
            let kind = if rule.is_allow {
                RuleKind::AllowTransition
            } else {
                RuleKind::DenyTransition
            };
            let body = RuleBody::Transition {
                machine: decl.name.text.clone(),
                data: decl.data.text.clone(),
                field: decl.field.text.clone(),
                from,
                to,
            };
            self.push_rule(kind, DeclarationKind::Machine, &decl.name, parsed, body);
        }
        let location = self.location(decl.name.span);
        self.model.machines.push(Machine {
            name: decl.name.text.clone(),
            data: decl.data.text.clone(),
            field: decl.field.text.clone(),
            enum_name: governed.name.text.clone(),
            is_closed,
            location,
        });
    }

    /// The enum of the governed field, with `unknown-data`, `unknown-field` or `not-an-enum-field`.
    fn machine_enum(&mut self, decl: &MachineDecl) -> Option<&'a EnumDecl> {
        let data = self.resolve_data(&decl.data)?;
        let fields = || {
            data.fields
                .iter()
                .filter(|field| !crate::check::is_label(field))
        };
        let Some(field) = fields().find(|field| field.name.text == decl.field.text) else {
            let suggestion = self.suggest(
                &decl.field.text,
                fields().map(|field| field.name.text.as_str()),
            );
            let message = format!(
                "data `{}` has no field `{}`",
                decl.data.text, decl.field.text
            );
            self.report_with_suggestion(Code::UnknownField, decl.field.span, message, suggestion);
            return None;
        };
        let field_type = lower_type(&self.symbols, &field.type_expr).ok()?;
        let unwrapped = match &field_type {
            TypeExpr::Optional { inner } => inner.as_ref(),
            other => other,
        };
        if let TypeExpr::Enum { name } = unwrapped {
            return self.symbols.enums.get(name.as_str()).copied();
        }
        let message = format!(
            "field `{}.{}` has type `{field_type}`: a machine needs an enum field",
            decl.data.text, decl.field.text
        );
        self.report(Code::NotAnEnumField, decl.field.span, message);
        None
    }
}

#[cfg(test)]
mod tests;
