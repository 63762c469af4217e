//! `component`: a named set of source files, the unit every code-level rule talks about.
//!
//! # What it checks
//! `runs_on` names a node (`unknown-node`) and `paths` is one glob or a non-empty list of globs
//! that compile, are relative and have no `..` segment (`invalid-glob`; so is a glob longer
//! than 4,096 bytes, or whose `{…}` groups expand to more than 256 alternatives, wherever a glob
//! is written: paths, `exclude`, workflow patterns, `urls`, queries); both are required
//! (`missing-required-key`). A glob that starts with `!` removes files: a file is in the
//! component when some other glob matches it and no `!` glob does
//! (`paths: ["server/**", "!server/**/*.test.ts"]`); only the positive globs count for
//! specificity, and a component whose globs are all `!` is an `invalid-glob`. `role` is in the
//! role vocabulary (`unknown-role`), `repo` names a repo (`unknown-repo`),
//! `implements`/`consumes` name contracts (`unknown-contract`), `handles` names data
//! (`unknown-data`). A repeated scalar key gives `duplicate-key`, an unknown key the
//! warning `unknown-component-key`, and equally specific overlapping globs the warning
//! `ambiguous-paths` (none when a `!` glob of one component removes every file of the other's
//! glob: `paths: "src/pkg/**/dao/**"` beside `paths: ["src/pkg/**", "!src/pkg/**/dao/**"]`).
//!
//! # Why
//! Every file belongs to at most one component (the most specific glob wins), so every fact
//! the extractors find has at most one subject. A file no component owns is still read: it is
//! never the subject of a finding, but the chains that path rules follow pass through it (see
//! `invariant`). A file a `!` glob takes out of its component is such a file, unless another
//! component's globs match it; to leave a file out of the check altogether, `exclude` it.
//!
//! # Passing example
//! `component Api { runs_on: app  paths: ["api/**", "shared/api/**"]  role: application  handles: Profile }`;
//! `component Server { runs_on: app  paths: ["server/**", "!server/**/*.test.ts"] }` leaves the
//! server's tests to no component (or to one whose globs match them).
//!
//! # Failing example
//! `component Worker { paths: "worker/**" }` gives `missing-required-key` for `runs_on`;
//! `paths: "/srv/**"` gives `invalid-glob`, and so does `paths: "!server/**/*.test.ts"`
//! (every glob is a `!` glob).
//!
//! # SMT encoding
//! Each component is a constant of the uninterpreted sort `Entity`; `handles: D` becomes the
//! tracked fact `(handles C D)` in data-flow slices.

use std::collections::BTreeMap;

use super::globs::{component_glob_problem, normalized_component_glob};
use super::Checker;
use crate::error::{Code, SpecError};
use crate::model::{Component, DeclarationKind, Rule, RuleBody, RuleKind};
use crate::syntax::ast::{ComponentDecl, ComponentEntry, EntryValue, Ident, StringLiteral};
use crate::syntax::Span;
use crate::vocab::{self, ROLES};

/// Where a component's `depends_on` and `public` are written, and their text.
#[derive(Default)]
struct ComponentBoundary {
    depends_on_key: Option<Span>,
    depends_on_text: Vec<String>,
    public_key: Option<Span>,
    public_text: Vec<String>,
}

impl Checker<'_> {
    /// Checks a component and adds it to the model.
    pub fn check_component(&mut self, decl: &ComponentDecl) {
        let mut component = Component {
            name: decl.name.text.clone(),
            runs_on: String::new(),
            paths: Vec::new(),
            role: None,
            layer: None,
            repo: None,
            implements: Vec::new(),
            consumes: Vec::new(),
            handles: Vec::new(),
            depends_on: None,
            public: Vec::new(),
            location: self.location(decl.name.span),
        };
        let mut boundary = ComponentBoundary::default();
        let mut scalar_keys: BTreeMap<&str, Span> = BTreeMap::new();
        let mut has_paths = false;
        let mut has_positive_glob = false;
        let mut first_negated: Option<Span> = None;
        for entry in &decl.entries {
            let key = entry.key.text.as_str();
            if let EntryValue::Name(value) = &entry.value {
                if let Some(first) = scalar_keys.get(key) {
                    let message =
                        format!("`{key}` is given twice in component `{}`", decl.name.text);
                    let error = SpecError::new(Code::DuplicateKey, entry.key.span, message)
                        .with_related(*first, "first given here");
                    self.errors.push(error);
                    continue;
                }
                scalar_keys.insert(key, entry.key.span);
                self.apply_scalar(&mut component, key, value);
                continue;
            }
            match &entry.value {
                EntryValue::Globs(globs) if key == "public" => {
                    self.apply_public(&mut component, &mut boundary, entry, globs);
                }
                EntryValue::Names(names) if key == "depends_on" => {
                    self.apply_depends_on(&mut component, &mut boundary, entry, names);
                }
                EntryValue::Globs(globs) => {
                    has_paths = true;
                    for glob in globs {
                        if let Some(problem) = component_glob_problem(&glob.value) {
                            self.report(Code::InvalidGlob, glob.span, problem);
                        }
                        if glob.value.starts_with('!') {
                            first_negated.get_or_insert(glob.span);
                        } else {
                            has_positive_glob = true;
                        }
                        component.paths.push(normalized_component_glob(&glob.value));
                    }
                }
                EntryValue::Names(names) => self.apply_list(&mut component, key, names),
                EntryValue::Other(_) | EntryValue::Name(_) => {
                    let message = format!(
                        "unknown key `{key}` in component `{}` is ignored",
                        decl.name.text
                    );
                    self.report(Code::UnknownComponentKey, entry.key.span, message);
                }
            }
        }
        if let (false, Some(span)) = (has_positive_glob, first_negated) {
            let message = format!(
                "every glob in the paths of component `{}` starts with `!`, so it owns no file",
                decl.name.text
            );
            let help = "a `!` glob removes files from the component's other globs: list the files it owns first, as in `paths: [\"server/**\", \"!server/**/*.test.ts\"]`; to leave files out of the whole project, use `exclude \"glob\"`";
            self.errors
                .push(SpecError::new(Code::InvalidGlob, span, message).with_help(help));
        }
        for list in [
            &mut component.implements,
            &mut component.consumes,
            &mut component.handles,
        ] {
            let mut seen = std::collections::BTreeSet::new();
            list.retain(|name| seen.insert(name.clone()));
        }
        if !decl.is_truncated {
            for (key, present) in [
                ("runs_on", scalar_keys.contains_key("runs_on")),
                ("paths", has_paths),
            ] {
                if !present {
                    let message = format!("component `{}` has no `{key}`", decl.name.text);
                    self.report(Code::MissingRequiredKey, decl.name.span, message);
                }
            }
        }
        self.push_component_rules(&component, boundary);
        self.model.components.push(component);
    }

    fn apply_public(
        &mut self,
        component: &mut Component,
        boundary: &mut ComponentBoundary,
        entry: &ComponentEntry,
        globs: &[StringLiteral],
    ) {
        boundary.public_key.get_or_insert(entry.key.span);
        for glob in globs {
            let problem = if glob.value.starts_with('!') {
                Some(format!(
                    "invalid glob `{}`: `public` lists the public files, it cannot remove any",
                    glob.value
                ))
            } else {
                component_glob_problem(&glob.value)
            };
            if let Some(problem) = problem {
                self.report(Code::InvalidGlob, glob.span, problem);
                continue;
            }
            boundary.public_text.push(format!("{:?}", glob.value));
            component
                .public
                .push(normalized_component_glob(&glob.value));
        }
    }

    fn apply_depends_on(
        &mut self,
        component: &mut Component,
        boundary: &mut ComponentBoundary,
        entry: &ComponentEntry,
        names: &[Ident],
    ) {
        boundary.depends_on_key.get_or_insert(entry.key.span);
        let allowed = component.depends_on.get_or_insert_with(Vec::new);
        let mut listed = Vec::new();
        for name in names {
            boundary.depends_on_text.push(name.text.clone());
            if name.text == component.name {
                let message = format!(
                    "`depends_on` of `{}` lists the component itself, which it may always use",
                    component.name
                );
                self.report(Code::SelfReferentialRule, name.span, message);
                continue;
            }
            if self.resolve_entity(name) && !listed.contains(&name.text) {
                listed.push(name.text.clone());
            }
        }
        for name in listed {
            if !allowed.contains(&name) {
                allowed.push(name);
            }
        }
    }

    /// The component's own rules: its `depends_on` (DependsOn) and `public` (PublicInterface).
    /// A DependsOn rule waits until every invariant is checked: a component that a
    /// `deny undeclared dependencies` rule closes is cited by that rule instead.
    fn push_component_rules(&mut self, component: &Component, boundary: ComponentBoundary) {
        if let (Some(span), Some(allowed)) = (boundary.depends_on_key, &component.depends_on) {
            let text = if boundary.depends_on_text.is_empty() {
                "depends_on: []".to_owned()
            } else {
                format!("depends_on: {}", boundary.depends_on_text.join(", "))
            };
            self.pending_component_rules.push(Rule {
                kind: RuleKind::DependsOn,
                declaration_kind: DeclarationKind::Component,
                declaration: component.name.clone(),
                text,
                source: self.location(span),
                body: RuleBody::Closed {
                    component: component.name.clone(),
                    allowed: allowed.clone(),
                },
            });
        }
        if let (Some(span), false) = (boundary.public_key, component.public.is_empty()) {
            self.pending_component_rules.push(Rule {
                kind: RuleKind::PublicInterface,
                declaration_kind: DeclarationKind::Component,
                declaration: component.name.clone(),
                text: format!("public: {}", boundary.public_text.join(", ")),
                source: self.location(span),
                body: RuleBody::Public {
                    component: component.name.clone(),
                    globs: component.public.clone(),
                },
            });
        }
    }

    fn apply_scalar(&mut self, component: &mut Component, key: &str, value: &Ident) {
        match key {
            "runs_on" => {
                self.resolve_node(value);
                component.runs_on = value.text.clone();
            }
            "role" => {
                if !ROLES.contains(&value.text.as_str()) {
                    self.report_unknown_role(value);
                }
                component.role = Some(value.text.clone());
            }
            "layer" => component.layer = Some(value.text.clone()),
            _ => {
                self.resolve_repo(value);
                component.repo = Some(value.text.clone());
            }
        }
    }

    fn apply_list(&mut self, component: &mut Component, key: &str, names: &[Ident]) {
        for name in names {
            let (is_known, list) = match key {
                "implements" => (self.resolve_contract(name), &mut component.implements),
                "consumes" => (self.resolve_contract(name), &mut component.consumes),
                _ => (self.resolve_data(name).is_some(), &mut component.handles),
            };
            if is_known {
                list.push(name.text.clone());
            }
        }
    }

    /// Reports `unknown-role` for a value outside the role vocabulary.
    pub fn report_unknown_role(&mut self, value: &Ident) {
        let suggestion = vocab::suggest_vocabulary(&value.text, &ROLES);
        let message = format!(
            "unknown role `{}`: expected {}",
            value.text,
            vocab::plain_list(&ROLES)
        );
        self.report_with_suggestion(Code::UnknownRole, value.span, message, suggestion);
    }
}
