//! Module boundaries: `depends_on`, `public`, `deny undeclared dependencies`, `deny cycle`, `deny unresolved imports`.
//!
//! ```text
//! comp_entry = … | "depends_on" ":" ( name_list | "[" "]" ) | "public" ":" globs ;
//! inv_rule   = … | "deny" "undeclared" "dependencies" "in" group
//!                | "deny" "cycle" "among" group { "," group }
//!                | "deny" "cycle" "within" group
//!                | "deny" "cycle" "among" "files" [ "in" group { "," group } ]
//!                | "deny" "unresolved" "imports" "in" group ;
//! group      = "*" | "layer" "*" | "role" "*" | ep ;
//! ```
//!
//! # What it checks
//! `depends_on` lists declared entities (`unknown-entity`, with "did you mean"); listing the
//! component itself gives the warning `self-referential-rule`; `depends_on: []` is an empty
//! list. `public` takes one or more globs, as `paths` does but without `!` (`invalid-glob`).
//! In the rules, a `group` names components: a component (`unknown-component`, with "did you
//! mean"), `layer L` or `role r` (`selector-matches-nothing`, `unknown-role`), `*` (every
//! component), or `layer *` / `role *` (every component that has a layer or role). In
//! `deny cycle among`, each item is one vertex of the cycle search: a component, `layer L` (its
//! components together), and `*`, `layer *`, `role *` one vertex per component, layer or role.
//! A component in two of them gives `cycle-group-overlap`; fewer than two vertices give the
//! warning `rule-never-fires`. After `among`, the word `files` starts the file form unless a
//! comma follows it (then it is a component named `files`).
//!
//! # Why
//! Module-boundary tools (Tach, Nx, dependency-cruiser, Packwerk) keep four promises: a module
//! uses only what it declares, outside code uses only its public files, modules form no cycle,
//! and every internal import resolves. With `deny` rules alone a team must list every forbidden
//! pair, and a new component is unconstrained until someone adds one.
//!
//! # Semantics
//! All four are judged on the component edges and the file graph of `invariant`.
//! - **Closed components.** A component with `depends_on` is closed, and so is every component a
//!   `deny undeclared dependencies in …` rule selects (with no `depends_on` it may depend on
//!   nothing). A closed component's edge to another component, node or resource that its
//!   `depends_on` does not list is a `dependency_violation` (rule kind `DependsOn`), one per
//!   fact that makes the edge, located at the fact. The finding cites the invariant rule that
//!   closes the component, else its `depends_on` (`rule.text` `depends_on: Domain, Shared`,
//!   `invariant` the component's name). A component without either stays open.
//! - **Public interfaces.** For a component B with `public`, an import in a file owned by
//!   another component A whose edges into B's files reach none that a `public` glob matches is
//!   an `interface_violation` (rule kind `PublicInterface`), located at the import, with
//!   `detected.files` the files it reaches and `detected.public_files` B's public files. Only
//!   imports that make an edge count (a type-only import makes none; a Go or Swift import reaches
//!   every file of its package or module, and is public when one of them is); files no component
//!   owns are never the subject of a finding.
//! - **Cycles.** `deny cycle among …` builds the graph of its vertices: X → Y when a component
//!   of X has an edge to a component of Y (X ≠ Y). `deny cycle within C` builds the graph of
//!   C's files and the edges between them, one graph per component the group selects (`deny
//!   cycle within *` looks inside each component). `deny cycle among files in G, …` builds one
//!   graph of the files of every selected component together, so a cycle of files that runs
//!   through several components is found as well; `deny cycle among files` takes every file of
//!   the project, owned or not (what dependency-cruiser's `no-circular` checks). A cycle of
//!   components that no cycle of files makes (`a.ts → b/x.ts`, `b/y.ts → a.ts`) is a cycle for
//!   `among` components and none for the file forms. Strongly connected sets are found with Tarjan's
//!   algorithm, linear in the edges. Each set of two or more vertices is one `cycle_violation`
//!   (rule kind `DenyCycle`): `detected.members` lists the set sorted, `detected.path` the
//!   shortest cycle through its smallest member, ties broken by the smaller sequence of names
//!   (`detected.files` too for file cycles), and the finding is located at the cycle's first
//!   edge. Its id hashes the sorted members, so another cycle is another finding.
//! - **Unresolved imports.** `deny unresolved imports in …` makes each import in a file of a
//!   selected component that is meant to be inside the project (a relative path, a path alias, a
//!   package or module the project declares, a Rust `mod` or a `use` path through a module of
//!   the crate, a C# namespace under a project's root namespace) but resolves to no file an
//!   `unresolved_import_violation` (rule kind `DenyUnresolvedImport`), located at the import.
//!   `graph --facts` shows such an import as an `import` fact without `resolved`. An import of a
//!   file lintel does not read, in a language it does not extract (a Scala class imported from
//!   Java) or `exclude`d (a test helper imported by a benchmark), is unresolved too: exclude its
//!   importers as well, or leave the rule out for those components. Generated code that the
//!   repository does not hold is no missing file: a TypeScript or JavaScript import that leads
//!   where one of the project's `.gitignore` files puts it (`@acme/db/generated/types` when
//!   `generated/` is ignored, a path alias into an ignored `dist/`) is an `import` fact with
//!   `generated: true` and no finding, and so are the route types React Router and SvelteKit
//!   generate (`./+types/root`, `./$types`), which are the framework's modules. So is a Go
//!   import of a package of the module whose folder a `.gitignore` ignores, and a Java or
//!   Kotlin import of a project type no source file declares whose file would lie in a
//!   generated-sources folder of the importer's module (the folder above its `src/`) that a
//!   `.gitignore` ignores: `src/generated/java` (Kafka's message classes), `build/generated`
//!   (Gradle), `target/generated-sources` (Maven), `src/main/generated`, `generated`, `gen`.
//!   As lintel cannot know which types a build writes, in such a module every missing project
//!   type counts as generated.
//!
//! Every finding is blocking at its confidence (probable ones are warnings unless `--strict`),
//! and its `fix_class` is `move_dependency`. Ids: a dependency, interface or unresolved finding
//! is keyed by its file and import, as a `flow_violation` is; a cycle finding by its members
//! (in the `via` position of the id). Under `--diff`, a cycle is `new` when its member set was
//! not a cycle on the base, or when one of its edges is new (the base had no edge between those
//! two vertices): a pull request that closes another loop is new work.
//!
//! # Passing example
//! ```text
//! component Api    { runs_on: app  paths: "api/**"  layer: Web  depends_on: Domain }
//! component Domain { runs_on: app  paths: "domain/**"  layer: Core  public: "domain/index.ts" }
//! invariant Boundaries {
//!   deny cycle among layer *
//!   deny unresolved imports in *
//! }
//! ```
//! with `api/orders.ts` importing `../domain/index.ts`.
//!
//! # Failing example
//! `depends_on: Domian` gives `unknown-entity` with "did you mean `Domain`?"; `deny cycle
//! among Api, layer Web` gives `cycle-group-overlap` when `Api` is in layer `Web`. On the code
//! side, `api/orders.ts` importing `../domain/internal/repo.ts` is an `interface_violation` of
//! `Domain` (fix: import `domain/index.ts`), and `domain/index.ts` importing `../api/orders.ts`
//! is a `dependency_violation` of a closed `Domain` and a `cycle_violation` of
//! `deny cycle among layer *`.
//!
//! # SMT encoding
//! See [`crate::smt`]: DependsOn is the closed world
//! `(forall ((x Entity)) (=> (edge C x) (or (= x D1) …)))` with the edge fact and
//! `(distinct …)` over the names; PublicInterface is
//! `(forall ((f Entity) (t Entity)) (=> (and (edge f t) (owned_by t B) (not (owned_by f B))) (public t)))`
//! with the import's edges, the mapping facts and `(not (public t))` for each file reached;
//! DenyCycle is `(forall ((x Entity)) (not (cycle_reach x x)))` with the witness cycle's edge
//! facts (and `(in_group C G)` mapping facts for layer and role vertices) and the ground
//! instances of the closure along it; the file forms restricted to components hold for
//! `(forall ((x Entity)) (=> (or (owned_by x C1) …) (not (cycle_reach x x))))` with the
//! `(owned_by f C)` of the cycle's first file; DenyUnresolvedImport is
//! `(forall ((f Entity) (s Specifier)) (=> (owned_by f C) (not (unresolved f s))))` with the
//! import's `(unresolved f s)` and `(owned_by f C)`.

use std::collections::BTreeMap;

use crate::check::Checker;
use crate::error::{Code, SpecError};
use crate::model::{CycleGroup, DeclarationKind, RuleBody, RuleKind};
use crate::syntax::ast::{EndpointSyntax, GroupSyntax, InvariantRule, SelectorKind};

impl Checker<'_> {
    /// The concrete rules of a boundary form of an invariant (`None` for other forms).
    pub fn check_boundary_rule(
        &mut self,
        rule: &InvariantRule,
    ) -> Option<Vec<(RuleKind, RuleBody)>> {
        let rules = match rule {
            InvariantRule::Undeclared { scope } => self
                .group_components(scope)
                .into_iter()
                .map(|component| {
                    let allowed = self.declared_dependencies(&component);
                    (RuleKind::DependsOn, RuleBody::Closed { component, allowed })
                })
                .collect(),
            InvariantRule::Unresolved { scope } => self
                .group_components(scope)
                .into_iter()
                .map(|component| {
                    (
                        RuleKind::DenyUnresolvedImport,
                        RuleBody::Unresolved { component },
                    )
                })
                .collect(),
            InvariantRule::CycleWithin { scope } => self
                .group_components(scope)
                .into_iter()
                .map(|component| (RuleKind::DenyCycle, RuleBody::CycleWithin { component }))
                .collect(),
            InvariantRule::CycleFiles { scopes } => {
                let components = (!scopes.is_empty()).then(|| {
                    let mut components: Vec<String> = scopes
                        .iter()
                        .flat_map(|scope| self.group_components(scope))
                        .collect();
                    components.sort();
                    components.dedup();
                    components
                });
                if components.as_ref().is_some_and(Vec::is_empty) {
                    return Some(Vec::new());
                }
                vec![(RuleKind::DenyCycle, RuleBody::CycleFiles { components })]
            }
            InvariantRule::CycleAmong { groups } => self
                .cycle_groups(groups)
                .map(|groups| vec![(RuleKind::DenyCycle, RuleBody::Cycle { groups })])
                .unwrap_or_default(),
            _ => return None,
        };
        Some(rules)
    }

    /// The entities a component's `depends_on` lists (declared ones only).
    fn declared_dependencies(&self, component: &str) -> Vec<String> {
        let Some(declared) = self.symbols.components.get(component) else {
            return Vec::new();
        };
        let mut allowed: Vec<String> = Vec::new();
        for name in declared.listed("depends_on") {
            if name.text != component
                && self.symbols.is_entity(&name.text)
                && !allowed.contains(&name.text)
            {
                allowed.push(name.text.clone());
            }
        }
        allowed
    }

    /// The components a group position selects, in declaration order (empty, with a
    /// diagnostic, when it selects none).
    fn group_components(&mut self, group: &GroupSyntax) -> Vec<String> {
        match group {
            GroupSyntax::Every(_) => self
                .symbols
                .component_order
                .iter()
                .map(|component| component.name.text.clone())
                .collect(),
            GroupSyntax::EverySelector { kind, span } => {
                let names: Vec<String> = self
                    .symbols
                    .component_order
                    .iter()
                    .filter(|component| component.scalar(kind.keyword()).is_some())
                    .map(|component| component.name.text.clone())
                    .collect();
                if names.is_empty() {
                    let message = format!(
                        "selector `{} *` matches no component: no component has a `{}`",
                        kind.keyword(),
                        kind.keyword()
                    );
                    self.report(Code::SelectorMatchesNothing, *span, message);
                }
                names
            }
            GroupSyntax::Endpoint(EndpointSyntax::Name(name)) => {
                if self.resolve_component(name) {
                    vec![name.text.clone()]
                } else {
                    Vec::new()
                }
            }
            GroupSyntax::Endpoint(
                endpoint @ EndpointSyntax::Selector {
                    kind: SelectorKind::Resource,
                    span,
                    ..
                },
            ) => {
                let message = format!(
                    "`{}` selects resources, but this position takes components",
                    self.symbols_text(endpoint)
                );
                self.report(Code::UnknownComponent, *span, message);
                Vec::new()
            }
            GroupSyntax::Endpoint(endpoint) => self
                .expand_endpoint(endpoint)
                .map(|expanded| expanded.names)
                .unwrap_or_default(),
        }
    }

    fn symbols_text(&self, endpoint: &EndpointSyntax) -> String {
        match endpoint {
            EndpointSyntax::Name(name) => name.text.clone(),
            EndpointSyntax::Selector { kind, value, .. } => {
                format!("{} {}", kind.keyword(), value.text)
            }
        }
    }

    /// The vertices of `deny cycle among …`: `None` when a position selects nothing or a
    /// component is in two of them.
    fn cycle_groups(&mut self, groups: &[GroupSyntax]) -> Option<Vec<CycleGroup>> {
        let mut vertices: Vec<(CycleGroup, crate::syntax::Span)> = Vec::new();
        let mut is_valid = true;
        for group in groups {
            let span = group.span();
            match group {
                GroupSyntax::Every(_) => {
                    for component in self.group_components(group) {
                        let vertex = CycleGroup {
                            name: component.clone(),
                            components: vec![component],
                        };
                        vertices.push((vertex, span));
                    }
                }
                GroupSyntax::EverySelector { kind, .. } => {
                    let mut by_value: Vec<(String, Vec<String>)> = Vec::new();
                    for component in &self.symbols.component_order {
                        let Some(value) = component.scalar(kind.keyword()) else {
                            continue;
                        };
                        let name = component.name.text.clone();
                        match by_value.iter_mut().find(|(found, _)| *found == value.text) {
                            Some((_, members)) => members.push(name),
                            None => by_value.push((value.text.clone(), vec![name])),
                        }
                    }
                    if by_value.is_empty() {
                        is_valid &= !self.group_components(group).is_empty();
                    }
                    for (value, components) in by_value {
                        let vertex = CycleGroup {
                            name: format!("{} {value}", kind.keyword()),
                            components,
                        };
                        vertices.push((vertex, span));
                    }
                }
                GroupSyntax::Endpoint(endpoint) => {
                    let components = self.group_components(group);
                    if components.is_empty() {
                        is_valid = false;
                        continue;
                    }
                    let vertex = CycleGroup {
                        name: self.symbols_text(endpoint),
                        components,
                    };
                    vertices.push((vertex, span));
                }
            }
        }
        let mut owner: BTreeMap<String, String> = BTreeMap::new();
        for (vertex, span) in &vertices {
            for component in &vertex.components {
                if let Some(first) = owner.insert(component.clone(), vertex.name.clone()) {
                    let message = format!(
                        "component `{component}` is in two vertices of this rule: `{first}` and `{}`",
                        vertex.name
                    );
                    let help = "a cycle is searched among disjoint vertices: list each component once, as itself or through one layer or role";
                    self.errors.push(
                        SpecError::new(Code::CycleGroupOverlap, *span, message).with_help(help),
                    );
                    is_valid = false;
                }
            }
        }
        if !is_valid {
            return None;
        }
        if vertices.len() < 2 {
            if let Some(span) = groups.first().map(GroupSyntax::span) {
                let message =
                    "a cycle needs two vertices, and this rule has fewer: it can never fire"
                        .to_owned();
                self.report(Code::RuleNeverFires, span, message);
            }
        }
        Some(vertices.into_iter().map(|(vertex, _)| vertex).collect())
    }

    /// Adds the rules of the components' `depends_on` and `public` keys, once every invariant
    /// is checked: a component that a `deny undeclared dependencies` rule closes is cited by it.
    pub fn push_pending_component_rules(&mut self) {
        let closed_by_rules: Vec<String> = self
            .model
            .rules
            .iter()
            .filter(|rule| rule.declaration_kind != DeclarationKind::Component)
            .filter_map(|rule| match &rule.body {
                RuleBody::Closed { component, .. } => Some(component.clone()),
                _ => None,
            })
            .collect();
        let pending = std::mem::take(&mut self.pending_component_rules);
        for rule in pending {
            let superseded = matches!(&rule.body, RuleBody::Closed { component, .. }
                if closed_by_rules.contains(component));
            if !superseded {
                self.model.rules.push(rule);
            }
        }
    }
}

#[cfg(test)]
mod tests;
