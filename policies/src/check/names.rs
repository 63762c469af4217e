//! Name collection: the model-name namespace shared by nodes, resources,
//! components, enums and data, one namespace per other declaration kind, and the
//! `duplicate-*`, `name-conflict` and `reserved-name` diagnostics.
//!
//! The first declaration of a name is the one registered; later ones are reported.

use std::collections::BTreeMap;

use crate::error::{Code, SpecError};
use crate::syntax::ast::{
    ComponentDecl, ContractDecl, DataDecl, Decl, EnumDecl, Ident, InfraDecl, RepoDecl,
};
use crate::syntax::Span;
use crate::vocab::PRIMITIVE_TYPES;

/// The kinds that share the model-name namespace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelKind {
    /// A node.
    Node,
    /// A resource.
    Resource,
    /// A component.
    Component,
    /// An enum.
    Enum,
    /// A data declaration.
    Data,
}

impl ModelKind {
    /// "a node", "an enum", …
    pub fn with_article(self) -> &'static str {
        match self {
            Self::Node => "a node",
            Self::Resource => "a resource",
            Self::Component => "a component",
            Self::Enum => "an enum",
            Self::Data => "data",
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Self::Node => "node",
            Self::Resource => "resource",
            Self::Component => "component",
            Self::Enum => "enum",
            Self::Data => "data",
        }
    }

    fn duplicate_code(self) -> Code {
        match self {
            Self::Node => Code::DuplicateNode,
            Self::Resource => Code::DuplicateResource,
            Self::Component => Code::DuplicateComponent,
            Self::Enum => Code::DuplicateEnum,
            Self::Data => Code::DuplicateData,
        }
    }

    /// True for nodes, resources and components.
    pub fn is_entity(self) -> bool {
        matches!(self, Self::Node | Self::Resource | Self::Component)
    }
}

/// Every declared name, first declaration wins.
#[derive(Debug, Default)]
pub struct Symbols<'a> {
    model_names: BTreeMap<&'a str, ModelKind>,
    /// Nodes by name.
    pub nodes: BTreeMap<&'a str, &'a InfraDecl>,
    /// Resources by name.
    pub resources: BTreeMap<&'a str, &'a InfraDecl>,
    /// Resources in declaration order.
    pub resource_order: Vec<&'a InfraDecl>,
    /// Components by name.
    pub components: BTreeMap<&'a str, &'a ComponentDecl>,
    /// Components in declaration order.
    pub component_order: Vec<&'a ComponentDecl>,
    /// Enums by name.
    pub enums: BTreeMap<&'a str, &'a EnumDecl>,
    /// Data by name.
    pub data: BTreeMap<&'a str, &'a DataDecl>,
    /// Contracts by name.
    pub contracts: BTreeMap<&'a str, &'a ContractDecl>,
    /// Repos by name.
    pub repos: BTreeMap<&'a str, &'a RepoDecl>,
    other_names: BTreeMap<(&'static str, &'a str), Span>,
}

impl<'a> Symbols<'a> {
    /// Collects every name of `decls` (merged order) and reports repeats and conflicts.
    pub fn collect(decls: &'a [Decl]) -> (Self, Vec<SpecError>) {
        let mut symbols = Symbols::default();
        let mut errors = Vec::new();
        let mut first_spans: BTreeMap<&'a str, (ModelKind, Span)> = BTreeMap::new();
        for decl in decls {
            let (kind, name) = match decl {
                Decl::Node(node) => (ModelKind::Node, &node.name),
                Decl::Resource(resource) => (ModelKind::Resource, &resource.name),
                Decl::Component(component) => (ModelKind::Component, &component.name),
                Decl::Enum(declared) => (ModelKind::Enum, &declared.name),
                Decl::Data(data) => (ModelKind::Data, &data.name),
                other => {
                    symbols.collect_other(other, &mut errors);
                    continue;
                }
            };
            if kind.is_entity() && matches!(name.text.as_str(), "role" | "layer" | "resource") {
                let message = format!(
                    "entity `{}` cannot be named in a rule endpoint: the word starts a selector",
                    name.text
                );
                errors.push(SpecError::new(Code::ReservedName, name.span, message));
            }
            if matches!(kind, ModelKind::Enum | ModelKind::Data)
                && PRIMITIVE_TYPES.contains(&name.text.as_str())
            {
                let message = format!(
                    "`{}` is a primitive type and cannot be declared as {}",
                    name.text,
                    kind.with_article()
                );
                errors.push(SpecError::new(Code::NameConflict, name.span, message));
                continue;
            }
            if let Some((first_kind, first_span)) = first_spans.get(name.text.as_str()) {
                errors.push(conflict(*first_kind, *first_span, kind, name));
                continue;
            }
            first_spans.insert(&name.text, (kind, name.span));
            symbols.register(decl, kind, &name.text);
        }
        (symbols, errors)
    }

    fn register(&mut self, decl: &'a Decl, kind: ModelKind, name: &'a str) {
        self.model_names.insert(name, kind);
        match decl {
            Decl::Node(node) => {
                self.nodes.insert(name, node);
            }
            Decl::Resource(resource) => {
                self.resources.insert(name, resource);
                self.resource_order.push(resource);
            }
            Decl::Component(component) => {
                self.components.insert(name, component);
                self.component_order.push(component);
            }
            Decl::Enum(declared) => {
                self.enums.insert(name, declared);
            }
            Decl::Data(data) => {
                self.data.insert(name, data);
            }
            _ => {}
        }
    }

    fn collect_other(&mut self, decl: &'a Decl, errors: &mut Vec<SpecError>) {
        let Some((noun, code)) = namespace(decl) else {
            return;
        };
        let Some(name) = decl.name() else { return };
        if let Some(first) = self.other_names.get(&(noun, name.text.as_str())) {
            let error =
                SpecError::new(code, name.span, format!("duplicate {noun} `{}`", name.text))
                    .with_related(*first, "first declared here");
            errors.push(error);
            return;
        }
        self.other_names.insert((noun, &name.text), name.span);
        match decl {
            Decl::Contract(contract) => {
                self.contracts.insert(&name.text, contract);
            }
            Decl::Repo(repo) => {
                self.repos.insert(&name.text, repo);
            }
            _ => {}
        }
    }

    /// The model kind of a declared name.
    pub fn model_kind(&self, name: &str) -> Option<ModelKind> {
        self.model_names.get(name).copied()
    }

    /// True when `name` is a declared node, resource or component.
    pub fn is_entity(&self, name: &str) -> bool {
        self.model_kind(name).is_some_and(ModelKind::is_entity)
    }

    /// Every entity name.
    pub fn entity_names(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.model_names
            .iter()
            .filter(|(_, kind)| kind.is_entity())
            .map(|(name, _)| *name)
    }

    /// Every name of one model kind.
    pub fn names_of(&self, wanted: ModelKind) -> impl Iterator<Item = &'a str> + '_ {
        self.model_names
            .iter()
            .filter(move |(_, kind)| **kind == wanted)
            .map(|(name, _)| *name)
    }
}

fn conflict(first_kind: ModelKind, first_span: Span, kind: ModelKind, name: &Ident) -> SpecError {
    if first_kind == kind {
        SpecError::new(
            kind.duplicate_code(),
            name.span,
            format!("duplicate {} `{}`", kind.noun(), name.text),
        )
        .with_related(first_span, "first declared here")
    } else {
        let message = format!(
            "`{}` is declared as both {} and {}",
            name.text,
            first_kind.with_article(),
            kind.with_article()
        );
        SpecError::new(Code::NameConflict, name.span, message)
            .with_related(first_span, "first declared here")
    }
}

/// The namespace noun and duplicate code of a non-model declaration.
fn namespace(decl: &Decl) -> Option<(&'static str, Code)> {
    Some(match decl {
        Decl::Invariant(_) => ("invariant", Code::DuplicateInvariant),
        Decl::Machine(_) => ("machine", Code::DuplicateMachine),
        Decl::Permission(_) => ("permission", Code::DuplicatePermission),
        Decl::Contract(_) => ("contract", Code::DuplicateContract),
        Decl::Repo(_) => ("repo", Code::DuplicateRepo),
        Decl::ValuePolicy(_) => ("value policy", Code::DuplicateValuePolicy),
        Decl::OperationPolicy(_) => ("operation policy", Code::DuplicateOperationPolicy),
        Decl::EventPolicy(_) => ("event policy", Code::DuplicateEventPolicy),
        Decl::WorkflowPolicy(_) => ("workflow policy", Code::DuplicateWorkflowPolicy),
        Decl::DiPolicy(_) => ("DI policy", Code::DuplicateDiPolicy),
        Decl::DataPolicy(_) => ("data policy", Code::DuplicateDataPolicy),
        Decl::TrustPolicy(_) => ("trust policy", Code::DuplicateTrustPolicy),
        Decl::ChangePolicy(_) => ("change policy", Code::DuplicateChangePolicy),
        _ => return None,
    })
}
