//! `route` facts of raw Node servers: `http.createServer((req, res) => { … })` (also `https`,
//! `http2`, `createServer` imported by name, and a handler passed by name and declared in the
//! file).
//!
//! Inside the handler, an `if` whose condition (or a `&&` conjunct of it) compares the request's
//! path with a string starting with `/` is a route: `req.url === '/x'`, `url.pathname === '/x'`
//! (any `….pathname`), or a variable named `pathname`, `path` or `url`. A prefix test of the
//! path, `url.pathname.startsWith('/api/runs/')` (or `req.url.startsWith('/static')`), serves the
//! paths below the prefix: it is the route `/api/runs/{}`, the prefix with one parameter segment
//! (a bare `'/'` prefix says nothing and is no route), followed by the suffix of an `endsWith`
//! conjunct (`… && url.pathname.endsWith('/logs')`: `/api/runs/{}/logs`). The method comes from a
//! conjunct `req.method === 'GET'` (or a variable named `method`) of the same condition or of an
//! enclosing `if` whose then-branch holds it; an `if` on the path alone with `if`s on the method
//! inside gives one route per method, else method `*`. A `switch` on the path gives one route per
//! `case '/x':`. `==` and `===` count, either side; `else` branches inherit nothing. Framework
//! `node:http`, scope the enclosing function, no handler name.

use policies::facts::Fact;
use tree_sitter::Node;

use super::literals::{arguments, static_string};
use super::FileView;
use crate::facts::web::{self, RouteSite};
use crate::query::{Field, QueryHit};
use crate::syntax::ChildField;
use crate::syntax::{self, named_children};

/// Packages whose `createServer` serves requests.
const SERVER_PACKAGES: [&str; 3] = ["http", "https", "http2"];

/// How deep the handler's syntax is followed.
const MAX_DEPTH: usize = 64;

/// The request conditions known where a statement runs.
#[derive(Debug, Clone, Default)]
struct Known {
    method: Option<String>,
    path: Option<String>,
}

struct Reader<'view, 'a, 'tree> {
    view: &'view FileView<'a, 'tree>,
    request: String,
    routes: Vec<RouteSite<'tree>>,
}

/// The routes of the file's `createServer` handlers.
pub(super) fn extract(view: &FileView<'_, '_>, hits: &[&QueryHit<'_>]) -> Vec<Fact> {
    let serves = view.imports.iter().any(|record| {
        record
            .external_package()
            .is_some_and(|package| SERVER_PACKAGES.contains(&package))
    });
    if !serves {
        return Vec::new();
    }
    let source = view.source();
    let mut facts = Vec::new();
    for call in hits.iter().filter_map(|hit| hit.node(Field::Call)) {
        let Some(function) = call.child_field("function") else {
            continue;
        };
        let is_create_server = view
            .bindings
            .resolve(function, source)
            .filter(|target| target.export_path == "createServer")
            .and_then(|target| view.imports.get(target.import))
            .and_then(|record| record.external_package())
            .is_some_and(|package| SERVER_PACKAGES.contains(&package));
        if !is_create_server {
            continue;
        }
        let Some(handler) = call
            .child_field("arguments")
            .and_then(|list| arguments(list).into_iter().last())
            .and_then(|last| handler_function(view, last))
        else {
            continue;
        };
        let Some(request) = first_parameter(handler, source) else {
            continue;
        };
        let Some(body) = handler.child_field("body") else {
            continue;
        };
        let mut reader = Reader {
            view,
            request,
            routes: Vec::new(),
        };
        reader.walk(body, &Known::default(), 0);
        facts.extend(
            reader
                .routes
                .iter()
                .map(|site| web::route_fact(&view.factory, site)),
        );
    }
    facts
}

/// The function a handler argument is: inline, or declared in the file under that name.
fn handler_function<'tree>(
    view: &FileView<'_, 'tree>,
    argument: Node<'tree>,
) -> Option<Node<'tree>> {
    match argument.kind() {
        "arrow_function" | "function_expression" | "function" => Some(argument),
        "identifier" => {
            let source = view.source();
            let name = syntax::text(argument, source);
            super::literals::top_level_functions(argument, name, source)
                .into_iter()
                .next()
        }
        _ => None,
    }
}

fn first_parameter(function: Node<'_>, source: &str) -> Option<String> {
    if let Some(single) = function.child_field("parameter") {
        return Some(syntax::text(single, source).to_owned());
    }
    let first = named_children(function.child_field("parameters")?)
        .into_iter()
        .find(|parameter| parameter.kind() != "comment")?;
    let pattern = first.child_field("pattern").unwrap_or(first);
    (pattern.kind() == "identifier").then(|| syntax::text(pattern, source).to_owned())
}

impl<'tree> Reader<'_, '_, 'tree> {
    /// Walks a statement; returns whether it produced a route.
    fn walk(&mut self, node: Node<'tree>, known: &Known, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        match node.kind() {
            "if_statement" => self.if_statement(node, known, depth),
            "switch_statement" => self.switch_statement(node, known, depth),
            _ => {
                let mut found = false;
                for child in named_children(node) {
                    found |= self.walk(child, known, depth + 1);
                }
                found
            }
        }
    }

    fn if_statement(&mut self, node: Node<'tree>, known: &Known, depth: usize) -> bool {
        let mut found = false;
        if let Some(alternative) = node.child_field("alternative") {
            found |= self.walk(alternative, known, depth + 1);
        }
        let (Some(condition), Some(consequence)) = (
            node.child_field("condition"),
            node.child_field("consequence"),
        ) else {
            return found;
        };
        let (method, path) = self.conditions(condition);
        if method.is_none() && path.is_none() {
            return self.walk(consequence, known, depth + 1) || found;
        }
        let inner = Known {
            method: method.clone().or_else(|| known.method.clone()),
            path: path.clone().or_else(|| known.path.clone()),
        };
        let Some(route_path) = inner.path.clone() else {
            // A method alone: the path may come from inside.
            return self.walk(consequence, &inner, depth + 1) || found;
        };
        if inner.method.is_none() && self.walk(consequence, &inner, depth + 1) {
            return true;
        }
        if inner.method.is_some() {
            self.walk(consequence, &inner, depth + 1);
        }
        self.push(
            condition,
            inner.method.as_deref().unwrap_or("*"),
            &route_path,
        );
        true
    }

    fn switch_statement(&mut self, node: Node<'tree>, known: &Known, depth: usize) -> bool {
        let source = self.view.source();
        let (Some(value), Some(body)) = (node.child_field("value"), node.child_field("body"))
        else {
            return false;
        };
        let value = unwrap_parentheses(value);
        let switches_path = self.is_path(value);
        let mut found = false;
        for case in named_children(body) {
            let label = case
                .child_field("value")
                .and_then(|label| static_string(label, source))
                .filter(|label| label.starts_with('/'));
            let inner = match (&label, switches_path) {
                (Some(label), true) => Known {
                    method: known.method.clone(),
                    path: Some(label.clone()),
                },
                _ => known.clone(),
            };
            let mut inside = false;
            for statement in named_children(case) {
                if Some(statement.id()) != case.child_field("value").map(|v| v.id()) {
                    inside |= self.walk(statement, &inner, depth + 1);
                }
            }
            found |= inside;
            if let (Some(label), true, false) = (&label, switches_path, inside) {
                let method = known.method.as_deref().unwrap_or("*").to_owned();
                self.push(case, &method, label);
                found = true;
            }
        }
        found
    }

    fn push(&mut self, node: Node<'tree>, method: &str, path: &str) {
        self.routes.push(RouteSite {
            node,
            method: method.to_owned(),
            path: path.to_owned(),
            framework: "node:http",
            handler: None,
            scope: self.view.scope_of(node),
        });
    }

    /// The method and path a condition tests, from its `&&` conjuncts.
    fn conditions(&self, condition: Node<'_>) -> (Option<String>, Option<String>) {
        let mut method = None;
        let mut path = None;
        let (mut prefix, mut suffix) = (None, None);
        for conjunct in conjuncts(unwrap_parentheses(condition)) {
            if let Some((test, literal)) = self.affix_test(conjunct) {
                if test == "startsWith" {
                    prefix = Some(literal);
                } else {
                    suffix = Some(literal);
                }
                continue;
            }
            let Some((subject, literal)) = self.equality(conjunct) else {
                continue;
            };
            if self.is_method(subject) {
                method = Some(literal.to_uppercase());
            } else if self.is_path(subject) && literal.starts_with('/') {
                path = Some(literal);
            }
        }
        if let (None, Some(prefix)) = (&path, prefix) {
            path = Some(format!(
                "{}/{{}}{}",
                prefix.trim_end_matches('/'),
                suffix.unwrap_or_default()
            ));
        }
        (method, path)
    }

    /// `subject === 'literal'` (either side, `==` too).
    fn equality<'n>(&self, node: Node<'n>) -> Option<(Node<'n>, String)> {
        if node.kind() != "binary_expression" {
            return None;
        }
        let source = self.view.source();
        let operator = node.child_field("operator")?;
        if !matches!(syntax::text(operator, source), "===" | "==") {
            return None;
        }
        let left = unwrap_parentheses(node.child_field("left")?);
        let right = unwrap_parentheses(node.child_field("right")?);
        match (static_string(left, source), static_string(right, source)) {
            (None, Some(literal)) if left.kind() != "string" => Some((left, literal)),
            (Some(literal), None) => Some((right, literal)),
            _ => None,
        }
    }

    /// A prefix or suffix test of the path, `path.startsWith('/x/')` or `path.endsWith('/y')`:
    /// the method's name and the literal, which starts with `/` and names more than `/`.
    fn affix_test(&self, node: Node<'_>) -> Option<(&'static str, String)> {
        if node.kind() != "call_expression" {
            return None;
        }
        let source = self.view.source();
        let function = node.child_field("function")?;
        if function.kind() != "member_expression" {
            return None;
        }
        let test = match function
            .child_field("property")
            .map(|property| syntax::text(property, source))
        {
            Some("startsWith") => "startsWith",
            Some("endsWith") => "endsWith",
            _ => return None,
        };
        let subject = unwrap_parentheses(function.child_field("object")?);
        let [argument] = arguments(node.child_field("arguments")?)[..] else {
            return None;
        };
        let literal = static_string(argument, source)?;
        (self.is_path(subject) && literal.starts_with('/') && !literal.trim_matches('/').is_empty())
            .then_some((test, literal))
    }

    fn is_method(&self, subject: Node<'_>) -> bool {
        let source = self.view.source();
        match subject.kind() {
            "identifier" => syntax::text(subject, source) == "method",
            "member_expression" => {
                syntax::compact_text(subject, source, 120) == format!("{}.method", self.request)
            }
            _ => false,
        }
    }

    fn is_path(&self, subject: Node<'_>) -> bool {
        let source = self.view.source();
        match subject.kind() {
            "identifier" => matches!(syntax::text(subject, source), "pathname" | "path" | "url"),
            "member_expression" => {
                let property = subject
                    .child_field("property")
                    .map(|property| syntax::text(property, source));
                property == Some("pathname")
                    || syntax::compact_text(subject, source, 120) == format!("{}.url", self.request)
            }
            _ => false,
        }
    }
}

fn unwrap_parentheses(mut node: Node<'_>) -> Node<'_> {
    while node.kind() == "parenthesized_expression" {
        match node.named_child(0) {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

/// The `&&` conjuncts of a condition.
fn conjuncts(node: Node<'_>) -> Vec<Node<'_>> {
    let node = unwrap_parentheses(node);
    let is_and = node.kind() == "binary_expression"
        && node
            .child_field("operator")
            .is_some_and(|operator| operator.kind() == "&&");
    if !is_and {
        return vec![node];
    }
    let mut found = Vec::new();
    for side in ["left", "right"] {
        if let Some(child) = node.child_by_field_name(side) {
            found.extend(conjuncts(child));
        }
    }
    found
}
