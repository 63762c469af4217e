//! Routes and HTTP requests of Go files.
//!
//! - Routes: `r.GET("/x", h)` (Gin and Echo verbs, `Any` serves `*`), chi's `r.Get("/x", h)`,
//!   and net/http's `HandleFunc`/`Handle` (`http.HandleFunc("/x", h)`, `mux.Handle(…)`, with
//!   Go 1.22 method patterns `"GET /x"`; otherwise `*`). The first argument must be a string
//!   starting with `/` (after the method of a pattern), and there must be a handler argument.
//!   Gin/Echo group prefixes bound in the same file (`api := r.Group("/api")`) are applied.
//!   The framework is `net/http` for `http.Handle`/`http.HandleFunc`, else `gin`, `echo` or
//!   `chi` when the file imports it, else `net/http` for `Handle`/`HandleFunc` on a mux; other
//!   verb calls in files without a router import are not routes.
//!   Handler: the handler argument when it is a name or selector.
//! - `http_call`: `http.Get`, `http.Post`, `http.Head`, `http.PostForm` and
//!   `http.NewRequest[WithContext]` with a literal method; client `net/http`.

use std::collections::BTreeMap;

use policies::facts::{Fact, FactKind};
use tree_sitter::Node;

use crate::facts_out::FactFactory;
use crate::graph::FileSyntax;
use crate::query::{Field, QueryHit};
use crate::syntax::{self, named_children};
use crate::web_out::{self, join_path, HttpCallSite, RouteSite};

/// How deep group receivers are followed.
const MAX_GROUP_DEPTH: usize = 16;

/// The route and `http_call` facts of a Go file.
pub(crate) fn facts(
    factory: &FactFactory<'_>,
    hits: &[QueryHit<'_>],
    file: &FileSyntax<'_, '_>,
) -> Vec<Fact> {
    let imports = imports(file.root, file.source);
    let framework = ["gin", "echo", "chi"].into_iter().find(|framework| {
        imports.iter().any(|path| match *framework {
            "gin" => path.contains("gin-gonic/gin"),
            "echo" => path.contains("labstack/echo"),
            _ => path.contains("go-chi/chi"),
        })
    });
    let mut groups: Option<BTreeMap<String, Node<'_>>> = None;
    let mut facts = Vec::new();
    for hit in hits {
        match hit.kind {
            FactKind::Route => {
                if let Some(site) = route(hit, file, framework, &mut groups) {
                    facts.push(web_out::route_fact(factory, &site));
                }
            }
            FactKind::HttpCall => {
                if let Some(site) = http_call(hit, file) {
                    facts.push(web_out::http_call_fact(factory, &site));
                }
            }
            _ => {}
        }
    }
    facts
}

fn imports<'a>(root: Node<'_>, source: &'a str) -> Vec<&'a str> {
    let mut paths = Vec::new();
    for declaration in named_children(root)
        .into_iter()
        .filter(|child| child.kind() == "import_declaration")
    {
        let mut pending = vec![declaration];
        while let Some(node) = pending.pop() {
            if node.kind() == "import_spec" {
                if let Some(path) = node.child_by_field_name("path") {
                    paths.push(syntax::text(path, source).trim_matches(['"', '`']));
                }
            } else {
                pending.extend(named_children(node));
            }
        }
    }
    paths
}

/// The value of a Go string literal (interpreted or raw).
fn string_value(node: Node<'_>, source: &str) -> Option<String> {
    match node.kind() {
        "interpreted_string_literal" => Some(
            named_children(node)
                .into_iter()
                .map(|part| syntax::text(part, source))
                .collect(),
        ),
        "raw_string_literal" => Some(syntax::text(node, source).trim_matches('`').to_owned()),
        _ => None,
    }
}

fn route<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
    framework: Option<&'static str>,
    groups: &mut Option<BTreeMap<String, Node<'tree>>>,
) -> Option<RouteSite<'tree>> {
    let source = file.source;
    let (call, receiver, name) = (
        hit.node(Field::Call)?,
        hit.node(Field::Receiver)?,
        syntax::text(hit.node(Field::Method)?, source),
    );
    let arguments: Vec<Node<'_>> = named_children(hit.node(Field::Arguments)?)
        .into_iter()
        .filter(|argument| argument.kind() != "comment")
        .collect();
    let (first, handler) = (arguments.first()?, arguments.last()?);
    if arguments.len() < 2 {
        return None;
    }
    let pattern = string_value(*first, source)?;
    let is_net_http = name == "Handle" || name == "HandleFunc";
    let (method, path) = if is_net_http {
        match pattern.split_once(' ') {
            Some((method, path)) => (method.to_owned(), path.trim().to_owned()),
            None => ("*".to_owned(), pattern),
        }
    } else {
        let method = match name {
            "Any" => "*".to_owned(),
            verb => verb.to_uppercase(),
        };
        (method, pattern)
    };
    if !path.starts_with('/') {
        return None;
    }
    let is_http_package =
        receiver.kind() == "identifier" && syntax::text(receiver, source) == "http";
    let framework = match framework {
        _ if is_net_http && is_http_package => "net/http",
        Some(framework) => framework,
        None if is_net_http => "net/http",
        None => return None,
    };
    let declarations = groups.get_or_insert_with(|| group_bindings(file.root, source));
    let prefix = group_prefix(receiver, source, declarations, MAX_GROUP_DEPTH);
    Some(RouteSite {
        node: call,
        method,
        path: join_path(&[&prefix, &path]),
        framework,
        handler: matches!(handler.kind(), "identifier" | "selector_expression")
            .then(|| syntax::compact_text(*handler, source, 120)),
        scope: (file.scope_of)(call),
    })
}

/// `name := value` bindings of the file, first one wins.
fn group_bindings<'tree>(root: Node<'tree>, source: &str) -> BTreeMap<String, Node<'tree>> {
    let mut bindings = BTreeMap::new();
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if matches!(
            node.kind(),
            "short_var_declaration" | "assignment_statement"
        ) {
            let left = node.child_by_field_name("left").map(named_children);
            let right = node.child_by_field_name("right").map(named_children);
            if let (Some([name]), Some([value])) = (left.as_deref(), right.as_deref()) {
                bindings
                    .entry(syntax::text(*name, source).to_owned())
                    .or_insert(*value);
            }
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return bindings;
            }
        }
    }
}

/// The prefix of a receiver bound to `x.Group("/p")` (Gin, Echo) or `x.Route("/p", …)`.
fn group_prefix(
    receiver: Node<'_>,
    source: &str,
    bindings: &BTreeMap<String, Node<'_>>,
    depth: usize,
) -> String {
    let Some(depth) = depth.checked_sub(1) else {
        return String::new();
    };
    match receiver.kind() {
        "identifier" => bindings
            .get(syntax::text(receiver, source))
            .map(|value| group_prefix(*value, source, bindings, depth))
            .unwrap_or_default(),
        "call_expression" => {
            let Some(function) = receiver
                .child_by_field_name("function")
                .filter(|function| function.kind() == "selector_expression")
            else {
                return String::new();
            };
            let (Some(operand), Some(field)) = (
                function.child_by_field_name("operand"),
                function.child_by_field_name("field"),
            ) else {
                return String::new();
            };
            let outer = group_prefix(operand, source, bindings, depth);
            if syntax::text(field, source) != "Group" {
                return outer;
            }
            let own = receiver
                .child_by_field_name("arguments")
                .and_then(|list| named_children(list).into_iter().next())
                .and_then(|first| string_value(first, source))
                .unwrap_or_default();
            join_path(&[&outer, &own])
        }
        _ => String::new(),
    }
}

fn http_call<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
) -> Option<HttpCallSite<'tree>> {
    let source = file.source;
    let call = hit.node(Field::Call)?;
    let name = syntax::text(hit.node(Field::Method)?, source);
    let arguments: Vec<Node<'_>> = named_children(hit.node(Field::Arguments)?)
        .into_iter()
        .filter(|argument| argument.kind() != "comment")
        .collect();
    let (method, url_node) = match name {
        "NewRequest" => (
            string_value(*arguments.first()?, source).map(|method| method.to_uppercase()),
            arguments.get(1)?,
        ),
        "NewRequestWithContext" => (
            string_value(*arguments.get(1)?, source).map(|method| method.to_uppercase()),
            arguments.get(2)?,
        ),
        "PostForm" => (Some("POST".to_owned()), arguments.first()?),
        verb => (Some(verb.to_uppercase()), arguments.first()?),
    };
    let (url, is_static) = url_value(*url_node, source)?;
    Some(HttpCallSite {
        node: call,
        method: method.unwrap_or_else(|| "*".to_owned()),
        url,
        is_static,
        client: "net/http",
        scope: (file.scope_of)(call),
    })
}

/// A URL argument: a string literal, or a literal followed by `+ expression`.
fn url_value(node: Node<'_>, source: &str) -> Option<(String, bool)> {
    if let Some(value) = string_value(node, source) {
        return Some((value, true));
    }
    if node.kind() == "binary_expression"
        && node
            .child_by_field_name("operator")
            .is_some_and(|operator| syntax::text(operator, source) == "+")
    {
        let (start, is_static) = url_value(node.child_by_field_name("left")?, source)?;
        let rest = syntax::compact_text(node.child_by_field_name("right")?, source, 80);
        return Some((format!("{start}{{{rest}}}"), is_static));
    }
    None
}
