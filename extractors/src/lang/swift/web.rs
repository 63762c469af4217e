//! Web facts of Swift files: Vapor routes and `URLSession` requests.
//!
//! - `route`, Vapor (files that `import Vapor`): `app.get("orders", ":id") { req in … }` and
//!   `routes.post("orders", use: create)` (`get`, `post`, `put`, `patch`, `delete`) with a
//!   trailing closure or a `use:` handler; the string arguments are the path segments. Prefixes
//!   come from `x.grouped("api")` (inline, or bound with `let` in the file) and from the closure
//!   parameter of `x.group("api") { api in … }`. Handler: the `use:` argument.
//! - `http_call`, Vapor: `app.client.get("https://…")` and `req.client.post(URI(string: "…"))`
//!   (the verbs of routes, on a receiver named `client`), a literal URL's path known; client
//!   `Vapor`. Such a call is no route, trailing closure or not.
//! - `http_call`: `URLSession` calls (`data`, `dataTask`, `download`, `downloadTask`, `upload`,
//!   `uploadTask`, `bytes`) on a receiver whose name mentions `session`, whose first argument is
//!   `URL(string: "…")` or `URLRequest(url: URL(string: "…"))`, inline or bound with `let`/`var`
//!   in the file. The method is the request's `x.httpMethod = "POST"` assignment in the file,
//!   else GET; only literal URLs count. Client `URLSession`.
//! - `http_call`, Alamofire: `AF.request("https://…/orders/\(id)", method: .delete)` (or on a
//!   receiver whose name mentions `session`, such as `Session.default`), the method its `method:`
//!   argument, else GET; the URL a string literal or a request as above. Client `Alamofire`.

use std::collections::BTreeMap;

use policies::facts::{Fact, FactKind};
use tree_sitter::Node;

use crate::facts::calls_and_assignments::FileSyntax;
use crate::facts::web::{self, join_path, HttpCallSite, RouteSite};
use crate::facts::FactFactory;
use crate::query::{Field, QueryHit};
use crate::syntax::ChildField;
use crate::syntax::{self, named_children};

/// How deep group receivers and bindings are followed.
const MAX_DEPTH: usize = 8;

/// The web facts of a Swift file.
pub(crate) fn facts(
    factory: &FactFactory<'_>,
    hits: &[QueryHit<'_>],
    file: &FileSyntax<'_, '_>,
    imports_vapor: bool,
) -> Vec<Fact> {
    let source = file.source;
    let mut bindings: Option<Bindings<'_>> = None;
    let mut facts = Vec::new();
    for hit in hits {
        match hit.kind {
            FactKind::Route if imports_vapor => {
                // `app.client.get("https://…")` is a request Vapor's client makes, not a route.
                if let Some(site) = client_call(hit, file) {
                    facts.push(web::http_call_fact(factory, &site));
                    continue;
                }
                let bindings = bindings.get_or_insert_with(|| Bindings::of(file.root, source));
                if let Some(site) = route(hit, file, bindings) {
                    facts.push(web::route_fact(factory, &site));
                }
            }
            FactKind::HttpCall => {
                let bindings = bindings.get_or_insert_with(|| Bindings::of(file.root, source));
                if let Some(site) = http_call(hit, file, bindings) {
                    facts.push(web::http_call_fact(factory, &site));
                }
            }
            _ => {}
        }
    }
    facts
}

/// The `let`/`var` bindings of a file (first one wins) and the `x.httpMethod = "…"` writes.
struct Bindings<'tree> {
    values: BTreeMap<String, Node<'tree>>,
    methods: BTreeMap<String, String>,
}

impl<'tree> Bindings<'tree> {
    fn of(root: Node<'tree>, source: &str) -> Self {
        let mut bindings = Bindings {
            values: BTreeMap::new(),
            methods: BTreeMap::new(),
        };
        let kinds = binding_kinds();
        for node in syntax::descendants(root) {
            // By kind id: this runs for every node, and `Node::kind` measures and checks the
            // name's text.
            match crate::walk::kind_in(node, kinds, BindingKind::Other) {
                BindingKind::Property => {
                    let name = node
                        .child_field("name")
                        .and_then(|pattern| pattern.child_field("bound_identifier"));
                    if let (Some(name), Some(value)) = (name, node.child_field("value")) {
                        bindings
                            .values
                            .entry(syntax::text(name, source).to_owned())
                            .or_insert(value);
                    }
                }
                BindingKind::Assignment => {
                    let target = node
                        .child_field("target")
                        .and_then(|target| named_children(target).into_iter().next())
                        .and_then(|target| member(target, source));
                    let value = node
                        .child_field("result")
                        .and_then(|value| string_value(value, source));
                    if let (Some((object, "httpMethod")), Some(value)) = (target, value) {
                        bindings
                            .methods
                            .entry(syntax::text(object, source).to_owned())
                            .or_insert(value.to_uppercase());
                    }
                }
                _ => {}
            }
        }
        bindings
    }
}

/// The node kinds [`Bindings::of`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BindingKind {
    Other,
    Property,
    Assignment,
}

/// Swift node kind ids → [`BindingKind`], worked out once.
fn binding_kinds() -> &'static [BindingKind] {
    static KINDS: std::sync::OnceLock<Vec<BindingKind>> = std::sync::OnceLock::new();
    KINDS.get_or_init(|| {
        crate::walk::kind_table(
            &tree_sitter_swift::LANGUAGE.into(),
            BindingKind::Other,
            |name| match name {
                "property_declaration" => BindingKind::Property,
                "assignment" => BindingKind::Assignment,
                _ => BindingKind::Other,
            },
        )
    })
}

/// `(target, name)` of a navigation `target.name`.
fn member<'tree, 'source>(
    node: Node<'tree>,
    source: &'source str,
) -> Option<(Node<'tree>, &'source str)> {
    (node.kind() == "navigation_expression").then_some(())?;
    let target = node.child_field("target")?;
    let name = node.child_field("suffix")?.child_field("suffix")?;
    Some((target, syntax::text(name, source)))
}

/// The value of a string literal, interpolations written `{…}`.
pub(crate) fn string_value(node: Node<'_>, source: &str) -> Option<String> {
    (node.kind() == "line_string_literal").then_some(())?;
    let mut value = String::new();
    for part in named_children(node) {
        match part.kind() {
            "line_str_text" | "str_escaped_char" => value.push_str(syntax::text(part, source)),
            _ => {
                let inner = syntax::compact_text(part, source, 80);
                let inner = inner.trim_start_matches("\\(").trim_end_matches(')');
                value.push('{');
                value.push_str(inner);
                value.push('}');
            }
        }
    }
    Some(value)
}

/// The `(label, value)` arguments of a call's `call_suffix`, and its trailing closure.
fn arguments<'tree>(
    suffix: Node<'tree>,
    source: &str,
) -> (Vec<(Option<String>, Node<'tree>)>, Option<Node<'tree>>) {
    let mut values = Vec::new();
    let mut closure = None;
    for child in named_children(suffix) {
        match child.kind() {
            "value_arguments" => {
                for argument in named_children(child) {
                    let label = argument
                        .child_field("name")
                        .map(|name| syntax::text(name, source).to_owned());
                    if let Some(value) = argument.child_field("value") {
                        values.push((label, value));
                    }
                }
            }
            "lambda_literal" => closure = Some(child),
            _ => {}
        }
    }
    (values, closure)
}

fn call_suffix(call: Node<'_>) -> Option<Node<'_>> {
    named_children(call)
        .into_iter()
        .find(|child| child.kind() == "call_suffix")
}

/// The unlabelled string arguments of a call, as path segments.
fn segments(values: &[(Option<String>, Node<'_>)], source: &str) -> Vec<String> {
    values
        .iter()
        .filter(|(label, _)| label.is_none())
        .filter_map(|(_, value)| string_value(*value, source))
        .collect()
}

fn route<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
    bindings: &Bindings<'tree>,
) -> Option<RouteSite<'tree>> {
    let source = file.source;
    let call = hit.node(Field::Call)?;
    let (values, closure) = arguments(hit.node(Field::Arguments)?, source);
    let handler = values
        .iter()
        .find(|(label, _)| label.as_deref() == Some("use"))
        .map(|(_, value)| syntax::compact_text(*value, source, 120));
    if handler.is_none() && closure.is_none() {
        return None;
    }
    let prefix = group_prefix(hit.node(Field::Receiver)?, file, bindings, MAX_DEPTH);
    let own = segments(&values, source);
    let mut parts: Vec<&str> = vec![prefix.as_str()];
    parts.extend(own.iter().map(String::as_str));
    Some(RouteSite {
        node: call,
        method: syntax::text(hit.node(Field::Method)?, source).to_uppercase(),
        path: join_path(&parts),
        framework: "vapor",
        handler,
        scope: (file.scope_of)(call),
    })
}

/// A request of Vapor's client: `get`/`post`/… on a receiver named `client` (`app.client`,
/// `req.client`), its URL the first unlabelled argument, a string or `URI(string: "…")`.
fn client_call<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
) -> Option<HttpCallSite<'tree>> {
    let source = file.source;
    let receiver = hit.node(Field::Receiver)?;
    let named = match receiver.kind() {
        "simple_identifier" => syntax::text(receiver, source),
        _ => member(receiver, source)?.1,
    };
    if named != "client" {
        return None;
    }
    let call = hit.node(Field::Call)?;
    let (values, _) = arguments(hit.node(Field::Arguments)?, source);
    let (_, first) = values.iter().find(|(label, _)| label.is_none())?;
    let literal = string_value(*first, source).or_else(|| {
        // `URI(string: "…")`.
        let suffix = call_suffix(*first)?;
        let (inner, _) = arguments(suffix, source);
        inner
            .iter()
            .find(|(label, _)| label.as_deref() == Some("string"))
            .and_then(|(_, value)| string_value(*value, source))
    });
    Some(HttpCallSite {
        node: call,
        method: syntax::text(hit.node(Field::Method)?, source).to_uppercase(),
        is_static: literal.is_some(),
        url: literal.unwrap_or_else(|| syntax::compact_text(*first, source, 120)),
        client: "Vapor",
        scope: (file.scope_of)(call),
    })
}

/// The prefix of a routes builder: `x.grouped("a", "b")`, a name bound to one, or the closure
/// parameter of `x.group("a") { p in … }`.
fn group_prefix(
    receiver: Node<'_>,
    file: &FileSyntax<'_, '_>,
    bindings: &Bindings<'_>,
    depth: usize,
) -> String {
    let source = file.source;
    let Some(depth) = depth.checked_sub(1) else {
        return String::new();
    };
    match receiver.kind() {
        "call_expression" => {
            let Some((target, name)) = named_children(receiver)
                .into_iter()
                .next()
                .and_then(|callee| member(callee, source))
            else {
                return String::new();
            };
            let outer = group_prefix(target, file, bindings, depth);
            if name != "grouped" {
                return outer;
            }
            let own = call_suffix(receiver)
                .map(|suffix| segments(&arguments(suffix, source).0, source))
                .unwrap_or_default();
            let mut parts: Vec<&str> = vec![outer.as_str()];
            parts.extend(own.iter().map(String::as_str));
            join_path(&parts)
        }
        "simple_identifier" => {
            let name = syntax::text(receiver, source);
            if let Some(prefix) = closure_group(receiver, name, file, bindings, depth) {
                return prefix;
            }
            bindings
                .values
                .get(name)
                .map(|value| group_prefix(*value, file, bindings, depth))
                .unwrap_or_default()
        }
        _ => String::new(),
    }
}

/// The prefix of `name` when it is the parameter of an enclosing `x.group("p") { name in … }`.
fn closure_group(
    node: Node<'_>,
    name: &str,
    file: &FileSyntax<'_, '_>,
    bindings: &Bindings<'_>,
    depth: usize,
) -> Option<String> {
    let source = file.source;
    let lambda = syntax::ancestors(file.root, node)
        .into_iter()
        .rev()
        .filter(|ancestor| ancestor.kind() == "lambda_literal")
        .find(|lambda| {
            let mut pending: Vec<Node<'_>> = lambda.child_field("type").into_iter().collect();
            while let Some(current) = pending.pop() {
                let is_name = current.kind() == "lambda_parameter"
                    && current
                        .child_field("name")
                        .is_some_and(|parameter| syntax::text(parameter, source) == name);
                if is_name {
                    return true;
                }
                pending.extend(named_children(current));
            }
            false
        })?;
    let call = lambda.parent()?.parent()?;
    let (target, method) = member(named_children(call).into_iter().next()?, source)?;
    (method == "group").then_some(())?;
    let outer = group_prefix(target, file, bindings, depth);
    let own = segments(&arguments(call_suffix(call)?, source).0, source);
    let mut parts: Vec<&str> = vec![outer.as_str()];
    parts.extend(own.iter().map(String::as_str));
    Some(join_path(&parts))
}

fn http_call<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
    bindings: &Bindings<'tree>,
) -> Option<HttpCallSite<'tree>> {
    let source = file.source;
    let call = hit.node(Field::Call)?;
    let receiver = syntax::text(hit.node(Field::Receiver)?, source);
    let (values, _) = arguments(hit.node(Field::Arguments)?, source);
    let (_, first) = values.first()?;
    // Alamofire: `AF.request(url, method: .post)`, or on a `Session` (`Session.default`).
    if syntax::text(hit.node(Field::Method)?, source) == "request" {
        let is_alamofire = receiver == "AF" || receiver.to_lowercase().contains("session");
        is_alamofire.then_some(())?;
        let (url, assigned) = match string_value(*first, source) {
            Some(url) => (url, None),
            None => request(*first, source, bindings, MAX_DEPTH)?,
        };
        let method = values
            .iter()
            .find(|(label, _)| label.as_deref() == Some("method"))
            .map(|(_, value)| syntax::text(*value, source).trim_start_matches('.'))
            .map(str::to_uppercase);
        return Some(HttpCallSite {
            node: call,
            method: method.or(assigned).unwrap_or_else(|| "GET".to_owned()),
            url,
            is_static: true,
            client: "Alamofire",
            scope: (file.scope_of)(call),
        });
    }
    receiver.to_lowercase().contains("session").then_some(())?;
    let (url, method) = request(*first, source, bindings, MAX_DEPTH)?;
    Some(HttpCallSite {
        node: call,
        method: method.unwrap_or_else(|| "GET".to_owned()),
        url,
        is_static: true,
        client: "URLSession",
        scope: (file.scope_of)(call),
    })
}

/// The literal URL and the assigned method of a request expression.
fn request(
    node: Node<'_>,
    source: &str,
    bindings: &Bindings<'_>,
    depth: usize,
) -> Option<(String, Option<String>)> {
    let depth = depth.checked_sub(1)?;
    match node.kind() {
        "postfix_expression" => request(node.child_field("target")?, source, bindings, depth),
        "simple_identifier" => {
            let name = syntax::text(node, source);
            let (url, method) = request(*bindings.values.get(name)?, source, bindings, depth)?;
            Some((url, bindings.methods.get(name).cloned().or(method)))
        }
        "call_expression" => {
            let callee = syntax::text(named_children(node).into_iter().next()?, source);
            let (values, _) = arguments(call_suffix(node)?, source);
            let (label, value) = values.first()?;
            match (callee, label.as_deref()) {
                ("URL", Some("string")) => Some((string_value(*value, source)?, None)),
                ("URLRequest", Some("url")) => request(*value, source, bindings, depth),
                _ => None,
            }
        }
        _ => None,
    }
}
