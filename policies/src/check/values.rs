//! Value expressions (see `value_policy` in policies/LANGUAGE.md): path typing through data fields, `Optional` and
//! list `length`, and literal typing against the path type.

use super::types::lower_type;
use super::Checker;
use crate::error::Code;
use crate::model::{Literal, PathType, TypeExpr, ValueDomain, ValueExpr};
use crate::syntax::ast::{Ident, LiteralSyntax, ValueExprSyntax};
use crate::vocab::NUMERIC_TYPES;

/// The type reached so far along a path.
enum Reached {
    /// A declared type.
    Type(TypeExpr),
    /// The `length` of a list (an `Int`).
    Length,
}

impl Checker<'_> {
    /// Checks `D.path rel literal`; `None` when some part does not type-check.
    pub fn check_value_expr(&mut self, expr: &ValueExprSyntax) -> Option<ValueExpr> {
        self.resolve_data(&expr.data)?;
        let mut reached = Reached::Type(TypeExpr::Data {
            name: expr.data.text.clone(),
        });
        let mut optional = false;
        let mut path_text = expr.data.text.clone();
        for segment in &expr.path {
            reached = self.step(reached, &mut optional, segment, &path_text)?;
            path_text.push('.');
            path_text.push_str(&segment.text);
        }
        if let Reached::Type(found) = reached {
            reached = Reached::Type(unwrap_optional(found, &mut optional));
        }
        let (type_name, domain) = describe(&reached);
        let (relation, relation_span) = expr.relation;
        if relation.is_ordering() && domain != ValueDomain::Numeric {
            let message = format!(
                "`{}` needs a numeric field, but `{path_text}` is `{type_name}`",
                relation.as_str()
            );
            self.report(Code::OrderingOnNonNumeric, relation_span, message);
            return None;
        }
        let literal =
            self.check_literal(&expr.literal, &reached, optional, &type_name, &path_text)?;
        Some(ValueExpr {
            data: expr.data.text.clone(),
            path: expr
                .path
                .iter()
                .map(|segment| segment.text.clone())
                .collect(),
            relation,
            literal,
            path_type: PathType {
                type_name,
                domain,
                optional,
            },
        })
    }

    fn step(
        &mut self,
        reached: Reached,
        optional: &mut bool,
        segment: &Ident,
        path_text: &str,
    ) -> Option<Reached> {
        let current = match reached {
            Reached::Type(found) => unwrap_optional(found, optional),
            Reached::Length => {
                let message = format!(
                    "cannot read `{}` from `{path_text}` of type `Int`",
                    segment.text
                );
                self.report(Code::FieldOnNonData, segment.span, message);
                return None;
            }
        };
        if let TypeExpr::Data { name } = &current {
            let data = self.symbols.data.get(name.as_str()).copied()?;
            let field = data
                .fields
                .iter()
                .find(|field| field.name.text == segment.text && !super::is_label(field));
            if let Some(field) = field {
                return lower_type(&self.symbols, &field.type_expr)
                    .ok()
                    .map(Reached::Type);
            }
            if segment.text == "length" {
                self.report_length_on_non_list(segment, path_text, &current.to_string());
            } else {
                let names = data
                    .fields
                    .iter()
                    .filter(|field| !super::is_label(field))
                    .map(|field| field.name.text.as_str());
                let suggestion = self.suggest(&segment.text, names);
                let message = format!("data `{name}` has no field `{}`", segment.text);
                self.report_with_suggestion(Code::UnknownField, segment.span, message, suggestion);
            }
            return None;
        }
        if segment.text == "length" {
            if matches!(current, TypeExpr::List { .. }) {
                return Some(Reached::Length);
            }
            self.report_length_on_non_list(segment, path_text, &current.to_string());
            return None;
        }
        let message = format!(
            "cannot read `{}` from `{path_text}` of type `{current}`",
            segment.text
        );
        self.report(Code::FieldOnNonData, segment.span, message);
        None
    }

    fn report_length_on_non_list(&mut self, segment: &Ident, path_text: &str, type_name: &str) {
        let message = format!("`length` applies to lists, but `{path_text}` is `{type_name}`");
        self.report(Code::LengthOnNonList, segment.span, message);
    }

    fn check_literal(
        &mut self,
        literal: &LiteralSyntax,
        reached: &Reached,
        optional: bool,
        type_name: &str,
        path_text: &str,
    ) -> Option<Literal> {
        let (_, domain) = describe(reached);
        let normalized = match literal {
            LiteralSyntax::Number(number) => Literal::Number(number.text.clone()),
            LiteralSyntax::Str(string) => Literal::String(string.value.clone()),
            LiteralSyntax::Name(name) => Literal::String(name.text.clone()),
            LiteralSyntax::Bool(value, _) => Literal::Bool(*value),
            LiteralSyntax::Null(_) => Literal::Null,
        };
        if let (Reached::Type(TypeExpr::Enum { name }), Literal::String(member)) =
            (reached, &normalized)
        {
            let declared = self.symbols.enums.get(name.as_str()).copied()?;
            let value = Ident {
                text: member.clone(),
                span: literal.span(),
            };
            return self.resolve_member(declared, &value).then_some(normalized);
        }
        let fits = match (&normalized, domain) {
            (Literal::Null, _) => optional,
            (_, ValueDomain::Json | ValueDomain::Union) => true,
            (Literal::Number(_), ValueDomain::Numeric) => true,
            (Literal::Bool(_), ValueDomain::Bool) => true,
            (Literal::String(_), ValueDomain::Text) => true,
            _ => false,
        };
        if !fits {
            let kind = match &normalized {
                Literal::Number(_) => "a number",
                Literal::String(_) => "a string",
                Literal::Bool(_) => "a Boolean",
                Literal::Null => "null",
            };
            let message = format!("comparing `{type_name}` field `{path_text}` with {kind}");
            self.report(Code::ValueTypeMismatch, literal.span(), message);
        }
        Some(normalized)
    }
}

fn unwrap_optional(mut found: TypeExpr, optional: &mut bool) -> TypeExpr {
    while let TypeExpr::Optional { inner } = found {
        *optional = true;
        found = *inner;
    }
    found
}

/// The type name and domain of a reached type.
fn describe(reached: &Reached) -> (String, ValueDomain) {
    let found = match reached {
        Reached::Length => return ("Int".to_owned(), ValueDomain::Numeric),
        Reached::Type(found) => found,
    };
    let domain = match found {
        TypeExpr::Primitive { name } if NUMERIC_TYPES.contains(&name.as_str()) => {
            ValueDomain::Numeric
        }
        TypeExpr::Primitive { name } if name == "Bool" => ValueDomain::Bool,
        TypeExpr::Primitive { name } if name == "Json" => ValueDomain::Json,
        TypeExpr::Primitive { .. } => ValueDomain::Text,
        TypeExpr::Enum { .. } => ValueDomain::Enum,
        TypeExpr::Data { .. } => ValueDomain::Data,
        TypeExpr::List { .. } => ValueDomain::List,
        TypeExpr::Map { .. } => ValueDomain::Map,
        TypeExpr::Union { .. } => ValueDomain::Union,
        TypeExpr::Optional { .. } => ValueDomain::Union,
    };
    (found.to_string(), domain)
}
