//! Turning one matched graph fact into a domain fact body (`$var` substitution, `crate::agq::template`):
//! `$var` substitution, the missing-capture rules, and the post-substitution drops.
//!
//! Checks against the compiled spec (names, machines, enum members) belong to the engine.

use std::collections::BTreeMap;

use policies::facts::{DomainFactBody, Fact};

use super::emit::{quoted_list, Content, Emit, EmitKind, Need, PHASES, RELATIONS};
use super::yaml::Span;

/// What one matched graph fact gives.
#[derive(Debug, Clone)]
pub(crate) enum Emission {
    Emitted(DomainFactBody),
    /// No fact; the reason goes to the trace.
    Skipped(String),
    /// No fact, with a `query-invalid-fact` warning.
    Dropped {
        reason: String,
        field_span: Span,
    },
}

impl Emit {
    /// Substitutes the graph fact into every written field and builds the body.
    pub(crate) fn produce(
        &self,
        fact: &Fact,
        substitutions: &mut BTreeMap<String, String>,
    ) -> Emission {
        let mut values: BTreeMap<&'static str, String> = BTreeMap::new();
        let mut missing: Vec<String> = Vec::new();
        for field in &self.fields {
            let text = match &field.content {
                Content::False => continue,
                Content::Literal(text) => text.clone(),
                Content::Template(template) => match template.substitute(fact, substitutions) {
                    Ok(text) => text,
                    // No `from` capture: an unguarded write, not a skip.
                    Err(_) if field.need == Need::Unguarded => continue,
                    Err(names) => {
                        for name in names {
                            if !missing.contains(&name) {
                                missing.push(name);
                            }
                        }
                        continue;
                    }
                },
            };
            values.insert(field.name, text);
        }
        if !missing.is_empty() {
            let names: Vec<String> = missing.iter().map(|name| format!("`{name}`")).collect();
            return Emission::Skipped(format!("missing capture(s): {}", names.join(", ")));
        }
        for (name, allowed, what) in [
            ("relation", &RELATIONS[..], "an operator"),
            ("phase", &PHASES[..], "a phase"),
        ] {
            if let Some(text) = values.get(name) {
                if !allowed.contains(&text.as_str()) {
                    let field_span = self
                        .fields
                        .iter()
                        .find(|field| field.name == name)
                        .map(|field| field.span)
                        .unwrap_or_default();
                    return Emission::Dropped {
                        reason: format!(
                            "{name} `{text}` is not {what}: expected {}",
                            quoted_list(allowed)
                        ),
                        field_span,
                    };
                }
            }
        }
        let mut fields = Substituted(values);
        let body = fields.build(self.kind);
        Emission::Emitted(body)
    }
}

/// The substituted field texts of one emission.
struct Substituted(BTreeMap<&'static str, String>);

impl Substituted {
    /// An optional field's text.
    fn take(&mut self, name: &str) -> Option<String> {
        self.0.remove(name)
    }

    /// A required field's text (present after validation and substitution).
    fn required(&mut self, name: &str) -> String {
        self.take(name).unwrap_or_default()
    }

    /// The dotted path, written as `path` or `field`.
    fn path(&mut self) -> String {
        self.take("path")
            .or_else(|| self.take("field"))
            .unwrap_or_default()
    }

    fn build(&mut self, kind: EmitKind) -> DomainFactBody {
        match kind {
            EmitKind::Transition => DomainFactBody::Transition {
                data: self.required("data"),
                field: self.required("field"),
                from: self.take("from"),
                to: self.required("to"),
            },
            EmitKind::Flow => DomainFactBody::Flow {
                from: self.required("from"),
                to: self.required("to"),
            },
            EmitKind::Operation => DomainFactBody::Operation {
                operation: self.required("operation"),
                component: self.required("component"),
                data: self.take("data"),
            },
            EmitKind::Auth => DomainFactBody::Auth {
                from: self.required("from"),
                to: self.required("to"),
            },
            EmitKind::Encryption => DomainFactBody::Encryption {
                from: self.required("from"),
                to: self.required("to"),
            },
            EmitKind::Dependency => DomainFactBody::Dependency {
                from: self.required("from"),
                to: self.required("to"),
                interface: self.take("interface"),
            },
            EmitKind::Value => DomainFactBody::Value {
                subject: self.required("subject"),
                path: self.path(),
                relation: self.required("relation"),
                value: self.required("value"),
            },
            EmitKind::OperationEvent => DomainFactBody::OperationEvent {
                operation: self.required("operation"),
                phase: self.required("phase"),
                subject: self.required("subject"),
                path: self.path(),
                relation: self.required("relation"),
                value: self.required("value"),
            },
            EmitKind::Event => DomainFactBody::Event {
                event: self.required("event"),
                scope: self.take("scope"),
            },
        }
    }
}
