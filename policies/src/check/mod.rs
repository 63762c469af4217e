//! The type checker of the language of policies/LANGUAGE.md: resolves every name of the merged declarations,
//! reports every check diagnostic, and builds the checked [`Model`].
//!
//! Names are collected first ([`Symbols`]), so declarations may be used before they are declared.
//! Shared checks live here (entities, components, types, values, endpoint selectors); the rule
//! blocks of each policy kind are checked in [`crate::kinds`].

mod component;
mod endpoints;
mod exclude;
mod globs;
mod infra;
mod names;
mod resolve;
mod types;
mod values;

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};

use crate::error::{Code, SpecError};
use crate::model::{
    Declaration, DeclarationKind, Model, Repo, Rule, RuleBody, RuleKind, SourceLocation, Trust,
};
use crate::syntax::ast::{Decl, Ident, ParsedRule, StringLiteral};
use crate::syntax::Span;

pub use endpoints::ExpandedEndpoint;
pub use globs::{expand_braces, glob_problem, strip_dot_slash};
pub use names::{ModelKind, Symbols};
pub use types::{is_label, lower_type};

/// Checks merged declarations. `files` maps file ids to project-relative paths.
/// The returned model is meaningful only when no returned diagnostic is an error.
pub fn check(decls: &[Decl], files: &[String]) -> (Model, Vec<SpecError>) {
    let (symbols, errors) = Symbols::collect(decls);
    let labels = Labels::collect(&symbols);
    let mut checker = Checker {
        files,
        symbols,
        labels,
        errors,
        model: Model::default(),
        suggestion_budget: Cell::new(SUGGESTION_BUDGET),
        plugin_names: BTreeSet::new(),
        client_bindings: BTreeMap::new(),
        pending_component_rules: Vec::new(),
    };
    for decl in decls {
        checker.check_decl(decl);
    }
    checker.check_waivers(decls);
    checker.push_pending_component_rules();
    checker.check_ambiguous_paths();
    (checker.model, checker.errors)
}

/// How many candidate names all "did you mean" suggestions of one compilation may compare,
/// so that a huge adversarial spec cannot make suggestions quadratic.
const SUGGESTION_BUDGET: usize = 2_000_000;

/// Labels and trust levels that some declaration uses.
#[derive(Debug, Default)]
pub struct Labels {
    /// `classification` labels of data.
    pub classifications: BTreeSet<String>,
    /// `jurisdiction` labels of data.
    pub jurisdictions: BTreeSet<String>,
    /// Trust levels that some node or resource declares.
    pub trust_levels: BTreeSet<Trust>,
}

impl Labels {
    fn collect(symbols: &Symbols<'_>) -> Self {
        let mut labels = Labels::default();
        for data in symbols.data.values() {
            for field in data.fields.iter().filter(|field| is_label(field)) {
                let value = field
                    .type_expr
                    .terms
                    .first()
                    .map(|term| term.name.text.clone())
                    .unwrap_or_default();
                match field.name.text.as_str() {
                    "classification" => labels.classifications.insert(value),
                    _ => labels.jurisdictions.insert(value),
                };
            }
        }
        for entity in symbols.nodes.values().chain(symbols.resources.values()) {
            let trust = entity
                .properties
                .iter()
                .find(|property| property.key.text == "trust");
            let level = trust
                .and_then(|property| property.values.first())
                .and_then(|value| Trust::parse(&value.text));
            labels.trust_levels.extend(level);
        }
        labels
    }
}

/// The checker's state: the symbol table, the diagnostics so far and the model being built.
pub struct Checker<'a> {
    /// Project-relative paths by file id.
    pub files: &'a [String],
    /// Every declared name.
    pub symbols: Symbols<'a>,
    /// Labels and trust levels in use.
    pub labels: Labels,
    /// Diagnostics so far.
    pub errors: Vec<SpecError>,
    /// The model being built.
    pub model: Model,
    suggestion_budget: Cell<usize>,
    plugin_names: BTreeSet<String>,
    /// The entity each library of a `clients` list is bound to (`duplicate-client-binding`).
    client_bindings: BTreeMap<String, (String, Span)>,
    /// The rules of the components' `depends_on` and `public` keys, added after every
    /// declaration is checked (`crate::kinds::boundary`).
    pub pending_component_rules: Vec<Rule>,
}

impl<'a> Checker<'a> {
    fn check_decl(&mut self, decl: &'a Decl) {
        match decl {
            Decl::Import(_) => {}
            Decl::Node(node) => {
                let entity = self.check_infra(node, true);
                self.model.nodes.push(entity);
            }
            Decl::Resource(resource) => {
                let entity = self.check_infra(resource, false);
                self.model.resources.push(entity);
            }
            Decl::Enum(declared) => self.check_enum(declared),
            Decl::Data(data) => self.check_data(data),
            Decl::Component(component) => self.check_component(component),
            Decl::Contract(contract) => self.check_contract(contract),
            Decl::Plugin(name) => self.check_plugin(name),
            Decl::Exclude(globs) => self.check_exclude(globs),
            // Checked after every other declaration (`check_waivers`).
            Decl::Waive(_) => {}
            Decl::Repo(repo) => {
                if repo.url.value.trim().is_empty() {
                    let message = format!("repo `{}` has an empty URL", repo.name.text);
                    self.report(Code::InvalidRepoUrl, repo.url.span, message);
                }
                let location = self.location(repo.name.span);
                let branch = repo.branch.as_ref().map(|branch| branch.value.clone());
                self.model.repos.push(Repo {
                    name: repo.name.text.clone(),
                    url: repo.url.value.clone(),
                    branch,
                    location,
                });
            }
            Decl::Invariant(block) => self.check_invariant(block),
            Decl::Machine(machine) => self.check_machine(machine),
            Decl::Permission(permission) => self.check_permission(permission),
            Decl::ValuePolicy(block) => self.check_value_policy(block),
            Decl::OperationPolicy(block) => self.check_operation_policy(block),
            Decl::EventPolicy(block) => self.check_event_policy(block),
            Decl::WorkflowPolicy(block) => self.check_workflow_policy(block),
            Decl::DiPolicy(block) => self.check_di_policy(block),
            Decl::DataPolicy(block) => self.check_data_policy(block),
            Decl::TrustPolicy(block) => self.check_trust_policy(block),
            Decl::ChangePolicy(block) => self.check_change_policy(block),
            Decl::Ignored { keyword, name } => {
                let message = format!(
                    "`{}` declarations are not supported: `{}` is ignored",
                    keyword.text, name.text
                );
                self.report(Code::UnsupportedDeclaration, keyword.span, message);
            }
        }
    }

    fn check_plugin(&mut self, name: &StringLiteral) {
        if name.value.trim().is_empty() {
            self.report(
                Code::InvalidPluginName,
                name.span,
                "plugin name is empty".to_owned(),
            );
        } else if self.plugin_names.insert(name.value.clone()) {
            self.model.plugins.push(name.value.clone());
        }
    }

    /// The closest candidate by edit distance (at most 2), within the compilation's budget.
    pub fn suggest<'c>(
        &self,
        name: &str,
        candidates: impl IntoIterator<Item = &'c str>,
    ) -> Option<&'c str> {
        let remaining = self.suggestion_budget.get();
        let mut considered = 0_usize;
        let counted = candidates
            .into_iter()
            .take(remaining)
            .inspect(|_| considered += 1);
        let suggestion = crate::vocab::suggest(name, counted);
        self.suggestion_budget
            .set(remaining.saturating_sub(considered));
        suggestion
    }

    /// The project-relative location of a span.
    pub fn location(&self, span: Span) -> SourceLocation {
        let file = usize::try_from(span.file.0)
            .ok()
            .and_then(|index| self.files.get(index))
            .cloned()
            .unwrap_or_default();
        SourceLocation {
            file,
            line: span.line,
            column: span.column,
        }
    }

    /// Records a diagnostic.
    pub fn report(&mut self, code: Code, span: Span, message: String) {
        self.errors.push(SpecError::new(code, span, message));
    }

    /// Records a diagnostic with a "did you mean" help.
    pub fn report_with_suggestion(
        &mut self,
        code: Code,
        span: Span,
        message: String,
        suggestion: Option<&str>,
    ) {
        self.errors
            .push(SpecError::new(code, span, message).with_suggestion(suggestion));
    }

    /// Records a rule-holding declaration.
    pub fn declare(&mut self, kind: DeclarationKind, name: &Ident) {
        let location = self.location(name.span);
        self.model.declarations.push(Declaration {
            kind,
            name: name.text.clone(),
            location,
        });
    }

    /// Adds one concrete rule to the model.
    pub fn push_rule<R>(
        &mut self,
        kind: RuleKind,
        declaration_kind: DeclarationKind,
        declaration: &Ident,
        parsed: &ParsedRule<R>,
        body: RuleBody,
    ) {
        let source = self.location(parsed.span);
        self.model.rules.push(Rule {
            kind,
            declaration_kind,
            declaration: declaration.text.clone(),
            text: parsed.text.clone(),
            source,
            body,
        });
    }
}

#[cfg(test)]
mod tests;
