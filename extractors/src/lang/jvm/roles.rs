//! The roles of Spring Security's annotations: `hasRole('X')`, `hasAnyRole(…)`,
//! `hasAuthority('ROLE_X')` and `hasAnyAuthority(…)` in a `@PreAuthorize` expression, and the
//! values of `@RolesAllowed` and `@Secured`; a `ROLE_` prefix is dropped. A value built from
//! the project's string constants (`"hasAuthority(\"" + AuthoritiesConstants.ADMIN + "\")"`,
//! `@Secured(AuthoritiesConstants.ADMIN)`, as JHipster generates its resources) waits for the
//! Java type index (`crate::resolve::deferred`): a constant it holds (a `static final String`
//! field with a literal value) stands for its value, and a name it does not know leaves the role
//! as written, probable.

use policies::facts::{Confidence, Fact};
use tree_sitter::Node;

use crate::facts::web;
use crate::resolve::deferred::{Anchor, Finishing};
use crate::syntax::{self, named_children, ChildField};

/// One operand of an annotation value: a string literal's text, or a name as written.
#[derive(Debug, Clone)]
pub(crate) enum Operand {
    Text(String),
    Name(String),
}

/// The operands of an annotation value made of string literals and names joined by `+`
/// (`"hasRole('" + Roles.ADMIN + "')"`), left to right; `None` for any other expression.
pub(crate) fn operands(node: Node<'_>, source: &str) -> Option<Vec<Operand>> {
    let mut found = Vec::new();
    let mut pending = vec![node];
    while let Some(node) = pending.pop() {
        if found.len() + pending.len() > 64 {
            return None;
        }
        match node.kind() {
            "binary_expression"
                if node
                    .child_field("operator")
                    .is_some_and(|operator| syntax::text(operator, source) == "+") =>
            {
                pending.push(node.child_field("right")?);
                pending.push(node.child_field("left")?);
            }
            "parenthesized_expression" => pending.push(node.named_child(0)?),
            // `\"` is `"`: `"hasAuthority(\"" + …`.
            "string_literal" => found.push(Operand::Text(
                named_children(node)
                    .into_iter()
                    .map(|part| {
                        let text = syntax::text(part, source);
                        match part.kind() {
                            "escape_sequence" => text.strip_prefix('\\').unwrap_or(text),
                            _ => text,
                        }
                    })
                    .collect(),
            )),
            "identifier" | "field_access" => {
                found.push(Operand::Name(syntax::unspaced_text(node, source, 200)));
            }
            _ => return None,
        }
    }
    Some(found)
}

/// The value of operands with `constant` giving each name's value: (text, whether every name
/// had one); a name without one is kept as written.
fn joined(operands: &[Operand], constant: &dyn Fn(&str) -> Option<String>) -> (String, bool) {
    let mut text = String::new();
    let mut resolved = true;
    for operand in operands {
        match operand {
            Operand::Text(value) => text.push_str(value),
            Operand::Name(name) => match constant(name) {
                Some(value) => text.push_str(&value),
                None => {
                    resolved = false;
                    text.push_str(name);
                }
            },
        }
    }
    (text, resolved)
}

/// The roles an annotation's values check, each with its confidence: a `@PreAuthorize`
/// expression's role checks, another annotation's values; `ROLE_` dropped.
pub(crate) fn roles(
    annotation: &str,
    values: &[Vec<Operand>],
    constant: &dyn Fn(&str) -> Option<String>,
) -> Vec<(String, Confidence)> {
    values
        .iter()
        .flat_map(|operands| {
            let (text, resolved) = joined(operands, constant);
            let confidence = match resolved {
                true => Confidence::Definite,
                false => Confidence::Probable,
            };
            let found = match annotation == "PreAuthorize" {
                true => expression_roles(&text),
                false => vec![text],
            };
            found.into_iter().map(move |role| (role, confidence))
        })
        .map(|(role, confidence)| {
            let role = role.strip_prefix("ROLE_").unwrap_or(&role).to_owned();
            (role, confidence)
        })
        .filter(|(role, _)| !role.is_empty())
        .collect()
}

/// The roles a Spring Security expression checks: the quoted arguments of `hasRole`,
/// `hasAnyRole`, `hasAuthority` and `hasAnyAuthority`.
pub(crate) fn expression_roles(expression: &str) -> Vec<String> {
    let mut roles = Vec::new();
    let mut rest = expression;
    while let Some(start) = rest.find("has") {
        let after = rest.get(start + 3..).unwrap_or_default();
        let is_role_check = ["Role(", "AnyRole(", "Authority(", "AnyAuthority("]
            .iter()
            .any(|function| after.starts_with(function));
        let Some(open) = after.find('(') else {
            break;
        };
        let arguments = after.get(open + 1..).unwrap_or_default();
        let close = arguments.find(')').unwrap_or(arguments.len());
        if is_role_check {
            roles.extend(
                arguments
                    .get(..close)
                    .unwrap_or_default()
                    .split(',')
                    .map(|argument| argument.trim().trim_matches(['\'', '"']).to_owned())
                    .filter(|role| !role.is_empty()),
            );
        }
        rest = arguments.get(close..).unwrap_or_default();
    }
    roles
}

/// The role facts of an annotation whose values name constants, kept from the first pass until
/// the Java type index is complete.
#[derive(Debug)]
pub(crate) struct PendingRoles {
    /// The annotation.
    pub node: Anchor,
    /// Its name as written (`PreAuthorize`, `Secured`, `RolesAllowed`).
    pub annotation: String,
    /// Each value's operands.
    pub values: Vec<Vec<Operand>>,
}

impl crate::resolve::deferred::Part for PendingRoles {
    fn finish(self: Box<Self>, finishing: &mut Finishing<'_>, facts: &mut Vec<Fact>) {
        let types = finishing.context.jvm_types();
        let found = roles(&self.annotation, &self.values, &|written| {
            types.string_constant(written).map(str::to_owned)
        });
        let construct = format!("`@{}`", self.annotation);
        let scope = finishing.scope(self.node);
        facts.extend(found.iter().map(|(role, confidence)| {
            let mut fact = web::role_fact(
                &finishing.factory,
                self.node,
                role,
                &construct,
                scope.clone(),
            );
            fact.confidence = *confidence;
            fact
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::{expression_roles, roles, Operand};
    use policies::facts::Confidence;

    #[test]
    fn expression_roles_reads_role_checks() {
        assert_eq!(expression_roles("hasAuthority('ROLE_X')"), ["ROLE_X"]);
    }

    #[test]
    fn constants_fill_in_roles_and_unknown_names_stay_probable() {
        let values = vec![vec![
            Operand::Text("hasAuthority(\"".into()),
            Operand::Name("AuthoritiesConstants.ADMIN".into()),
            Operand::Text("\")".into()),
        ]];
        let known =
            |name: &str| (name == "AuthoritiesConstants.ADMIN").then(|| "ROLE_ADMIN".into());
        assert_eq!(
            roles("PreAuthorize", &values, &known),
            [("ADMIN".to_owned(), Confidence::Definite)]
        );
        assert_eq!(
            roles("PreAuthorize", &values, &|_| None),
            [(
                "AuthoritiesConstants.ADMIN".to_owned(),
                Confidence::Probable
            )]
        );
    }
}
