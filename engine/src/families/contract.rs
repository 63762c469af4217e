//! Contracts (see `contract` in policies/LANGUAGE.md): `implements` is checked against `route` facts
//! (`implements_undeclared` and `implements_missing`, errors proved by slices against the
//! declared endpoint set) and `consumes` against `http_call` facts (`consumes_undeclared` and
//! `consumes_method_mismatch`, warnings that need no proof).

use std::collections::BTreeSet;

use policies::facts::{Confidence, Fact, FactKind};
use policies::model::{Component, EndpointShape, Model, RuleKind, SourceLocation};
use policies::smt::{HttpEndpoint, SliceBuilder};

use crate::graph::file_graph::endpoint_of;

use super::{
    fact_name, Candidate, Citation, Context, ContractShape, Evaluation, Family, Shape, Site,
    SliceCause, Unproved,
};

/// The family (driven by `implements`/`consumes`, not by a rule kind).
pub const FAMILY: Family = Family {
    kinds: &[],
    evaluate,
};

/// One declared HTTP endpoint.
#[derive(Debug, Clone)]
struct Declared {
    contract: String,
    method: String,
    path: String,
    location: SourceLocation,
}

fn declared_endpoints(model: &Model, contracts: &[String]) -> Vec<Declared> {
    contracts
        .iter()
        .filter_map(|name| model.contract(name))
        .flat_map(|contract| {
            contract
                .endpoints
                .iter()
                .filter_map(|endpoint| match &endpoint.shape {
                    EndpointShape::Http {
                        method,
                        normalized_path,
                        ..
                    } => Some(Declared {
                        contract: contract.name.clone(),
                        method: method.to_uppercase(),
                        path: normalized_path.clone(),
                        location: endpoint.location.clone(),
                    }),
                    _ => None,
                })
        })
        .collect()
}

fn methods_match(extracted: &str, declared: &str) -> bool {
    extracted == "*" || extracted == declared
}

fn smt_endpoint(method: &str, path: &str) -> HttpEndpoint {
    HttpEndpoint {
        method: (method != "*").then(|| method.to_owned()),
        path: path.to_owned(),
    }
}

/// Fills the `target` of `http_call` facts that have none: the single component whose
/// implemented contracts declare the call's method and normalised path (see Edges under `invariant` in policies/LANGUAGE.md).
pub fn fill_http_call_targets(model: &Model, facts: &mut [Box<Fact>]) {
    for fact in facts.iter_mut() {
        if fact.kind != FactKind::HttpCall || fact.target.is_some() {
            continue;
        }
        let Some((method, path)) = endpoint_of(fact) else {
            continue;
        };
        let implementers: BTreeSet<&str> = model
            .components
            .iter()
            .filter(|component| {
                declared_endpoints(model, &component.implements)
                    .iter()
                    .any(|declared| {
                        declared.path == path && methods_match(&method, &declared.method)
                    })
            })
            .map(|component| component.name.as_str())
            .collect();
        if let (1, Some(only)) = (implementers.len(), implementers.first()) {
            fact.target = Some((*only).into());
        }
    }
}

fn evaluate(context: &Context<'_>, evaluation: &mut Evaluation) {
    for component in &context.model.components {
        if !component.implements.is_empty() {
            implements(context, component, evaluation);
        }
        if !component.consumes.is_empty() {
            consumes(context, component, evaluation);
        }
    }
}

fn contract_citation(
    model: &Model,
    contract: &str,
    location: Option<&SourceLocation>,
    text: String,
) -> Citation {
    let source = location
        .cloned()
        .or_else(|| {
            model
                .contract(contract)
                .map(|declared| declared.location.clone())
        })
        .unwrap_or_else(|| SourceLocation {
            file: String::new(),
            line: 1,
            column: 1,
        });
    Citation {
        kind: RuleKind::RequireContractImplementedBy,
        text,
        source,
        declaration: contract.to_owned(),
    }
}

fn implements(context: &Context<'_>, component: &Component, evaluation: &mut Evaluation) {
    let declared = declared_endpoints(context.model, &component.implements);
    let routes: Vec<(usize, &Fact, String, String)> = context
        .facts
        .of_kind(FactKind::Route)
        .filter(|(_, fact)| fact.subject.as_deref() == Some(component.name.as_str()))
        .filter_map(|(index, fact)| {
            let (method, path) = endpoint_of(fact)?;
            Some((index, fact, method, path))
        })
        .collect();
    implements_undeclared(context, component, &declared, &routes, evaluation);
    implements_missing(context, component, &declared, &routes, evaluation);
}

/// `implements_undeclared`: a route in scope that no declared endpoint matches.
fn implements_undeclared(
    context: &Context<'_>,
    component: &Component,
    declared: &[Declared],
    routes: &[(usize, &Fact, String, String)],
    evaluation: &mut Evaluation,
) {
    let declared_smt: Vec<HttpEndpoint> = declared
        .iter()
        .map(|endpoint| smt_endpoint(&endpoint.method, &endpoint.path))
        .collect();
    let first_contract = component.implements.first().cloned().unwrap_or_default();
    for (index, fact, method, path) in routes {
        if !context.in_scope(*index) || fact.confidence < Confidence::Probable {
            continue;
        }
        let is_declared = declared
            .iter()
            .any(|endpoint| endpoint.path == *path && methods_match(method, &endpoint.method));
        if is_declared {
            continue;
        }
        let Some(site) = Site::of(&context.facts, *index) else {
            continue;
        };
        let text = format!(
            "{} implements {}",
            component.name,
            component.implements.join(", ")
        );
        let mut builder = SliceBuilder::new(&format!("{first_contract}: {text}"));
        builder.declared_endpoints(
            format!(
                "contract {}: the endpoints of {} are exactly the declared ones",
                first_contract, component.name
            ),
            &component.name,
            &declared_smt,
        );
        builder.route_fact(
            fact_name(super::FactRef::Graph(fact)),
            Some(fact.id.clone()),
            &component.name,
            &smt_endpoint(method, path),
        );
        builder.distinct_names();
        let extracted = format!("{method} {path}");
        let shape = ContractShape {
            contract: first_contract.clone(),
            component: component.name.clone(),
            role: "implements",
            declared: None,
            extracted: Some(extracted.clone()),
            method: method.clone(),
            path: path.clone(),
            contract_assertion: format!(
                "`{}` implements {}, whose endpoints are {}",
                component.name,
                component.implements.join(", "),
                describe(declared)
            ),
            extractor_result: format!("route `{extracted}` at {}:{}", site.file, site.line),
            explanation: format!("no implemented contract declares `{extracted}`"),
        };
        let message = format!(
            "`{}` serves `{extracted}`, which no contract it implements ({}) declares",
            component.name,
            component.implements.join(", ")
        );
        let suggested_fix = format!(
            "serve only declared endpoints in `{}`: remove or rename the route at {}:{}, or implement a contract that declares `{extracted}`",
            component.name, site.file, site.line
        );
        evaluation.candidates.push(Candidate {
            rules: Vec::new(),
            citation: contract_citation(
                context.model,
                &first_contract,
                None,
                first_contract.clone(),
            ),
            violation_type: "implements_undeclared",
            shape: Shape::Contract(shape),
            confidence: fact.confidence,
            site,
            occurrences: Vec::new(),
            chain: vec![*index],
            per_pair: false,
            message,
            suggested_fix,
            slice: builder.finish(),
            components: vec![component.name.clone()],
            data: None,
            path_depth: None,
            fanout: None,
            cause: SliceCause::Generic,
        });
    }
}

/// `implements_missing`: for an implementing component with a file in scope, every declared
/// endpoint that no route in its files matches.
fn implements_missing(
    context: &Context<'_>,
    component: &Component,
    declared: &[Declared],
    routes: &[(usize, &Fact, String, String)],
    evaluation: &mut Evaluation,
) {
    let has_file_in_scope = context
        .owners
        .iter()
        .any(|(file, owner)| owner == &component.name && context.scope.contains_file(file));
    if !has_file_in_scope {
        return;
    }
    let extracted_smt: Vec<HttpEndpoint> = routes
        .iter()
        .map(|(_, _, method, path)| smt_endpoint(method, path))
        .collect();
    for endpoint in declared {
        let is_served = routes.iter().any(|(_, _, method, path)| {
            *path == endpoint.path && methods_match(method, &endpoint.method)
        });
        if is_served {
            continue;
        }
        let declared_text = format!("{} {}", endpoint.method, endpoint.path);
        let text = format!("{} implements {}", component.name, endpoint.contract);
        let mut builder =
            SliceBuilder::new(&format!("{}: {text}: {declared_text}", endpoint.contract));
        builder.require_endpoint(
            format!(
                "contract {}: {} serves {declared_text}",
                endpoint.contract, component.name
            ),
            &component.name,
            &smt_endpoint(&endpoint.method, &endpoint.path),
        );
        builder.extracted_routes(
            format!(
                "fact the routes of {} are exactly {{{}}}",
                component.name,
                routes
                    .iter()
                    .map(|(_, _, method, path)| format!("{method} {path}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            &component.name,
            &extracted_smt,
        );
        builder.distinct_names();
        let site = Site::spec(
            &endpoint.location,
            format!(
                "endpoint `{declared_text}` of contract `{}`",
                endpoint.contract
            ),
            String::new(),
        );
        let shape = ContractShape {
            contract: endpoint.contract.clone(),
            component: component.name.clone(),
            role: "implements",
            declared: Some(declared_text.clone()),
            extracted: None,
            method: endpoint.method.clone(),
            path: endpoint.path.clone(),
            contract_assertion: format!(
                "`{}` declares `{declared_text}` and `{}` implements it",
                endpoint.contract, component.name
            ),
            extractor_result: format!(
                "{} route(s) in the files of `{}`, none for `{declared_text}`",
                routes.len(),
                component.name
            ),
            explanation: format!("`{}` does not serve `{declared_text}`", component.name),
        };
        let message = format!(
            "`{}` implements `{}` but serves no route for `{declared_text}`",
            component.name, endpoint.contract
        );
        let suggested_fix = format!(
            "add a `{declared_text}` route to a file of `{}` (a handler registered with the framework's router)",
            component.name
        );
        evaluation.candidates.push(Candidate {
            rules: Vec::new(),
            citation: contract_citation(
                context.model,
                &endpoint.contract,
                Some(&endpoint.location),
                declared_text,
            ),
            violation_type: "implements_missing",
            shape: Shape::Contract(shape),
            confidence: Confidence::Definite,
            site,
            occurrences: Vec::new(),
            chain: Vec::new(),
            per_pair: false,
            message,
            suggested_fix,
            slice: builder.finish(),
            components: vec![component.name.clone()],
            data: None,
            path_depth: None,
            fanout: None,
            cause: SliceCause::Generic,
        });
    }
}

fn describe(declared: &[Declared]) -> String {
    if declared.is_empty() {
        return "no HTTP endpoint".to_owned();
    }
    declared
        .iter()
        .map(|endpoint| format!("`{} {}`", endpoint.method, endpoint.path))
        .collect::<Vec<_>>()
        .join(", ")
}

fn consumes(context: &Context<'_>, component: &Component, evaluation: &mut Evaluation) {
    let declared = declared_endpoints(context.model, &component.consumes);
    for (index, fact) in context.facts.of_kind(FactKind::HttpCall) {
        if fact.subject.as_deref() != Some(component.name.as_str()) || !context.in_scope(index) {
            continue;
        }
        // Only static paths are checked; a full URL contributes its path.
        let Some((method, path)) = endpoint_of(fact) else {
            continue;
        };
        if declared
            .iter()
            .any(|endpoint| endpoint.path == path && methods_match(&method, &endpoint.method))
        {
            continue;
        }
        let same_path: Vec<&Declared> = declared
            .iter()
            .filter(|endpoint| endpoint.path == path)
            .collect();
        let Some(site) = Site::of(&context.facts, index) else {
            continue;
        };
        let extracted = format!("{method} {path}");
        let (violation_type, contract, declared_text, explanation) = match same_path.first() {
            Some(endpoint) => (
                "consumes_method_mismatch",
                endpoint.contract.clone(),
                Some(format!("{} {}", endpoint.method, endpoint.path)),
                format!(
                    "`{path}` is declared only with {}",
                    same_path
                        .iter()
                        .map(|endpoint| endpoint.method.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ),
            None => (
                "consumes_undeclared",
                component.consumes.first().cloned().unwrap_or_default(),
                None,
                format!("no consumed contract declares `{path}`"),
            ),
        };
        let message = format!(
            "`{}` calls `{extracted}`: {explanation} ({})",
            component.name,
            component.consumes.join(", ")
        );
        evaluation.contract_warnings.push(Unproved {
            violation_type,
            shape: ContractShape {
                contract,
                component: component.name.clone(),
                role: "consumes",
                declared: declared_text,
                extracted: Some(extracted.clone()),
                method,
                path,
                contract_assertion: format!(
                    "`{}` consumes {}, whose endpoints are {}",
                    component.name,
                    component.consumes.join(", "),
                    describe(&declared)
                ),
                extractor_result: format!("http call `{extracted}` at {}:{}", site.file, site.line),
                explanation,
            },
            site,
            message,
        });
    }
}
