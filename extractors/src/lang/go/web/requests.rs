//! `http_call` facts of Go: net/http (`http.Get`, `http.NewRequest`, an `http.Client`) and resty
//! request chains.

use super::*;

/// The file's top-level string constants (`const base = "http://orders/api"`, also inside a
/// `const ( … )` block); a name declared twice is left out.
pub(super) fn package_constants(root: Node<'_>, source: &str) -> BTreeMap<String, String> {
    let mut bindings = Vec::new();
    for spec in named_children(root)
        .into_iter()
        .filter(|node| node.kind() == "const_declaration")
        .flat_map(named_children)
        .filter(|node| node.kind() == "const_spec")
    {
        let names = named_children(spec)
            .into_iter()
            .filter(|child| child.kind() == "identifier");
        let values = spec
            .child_field("value")
            .map(named_children)
            .unwrap_or_default();
        bindings.extend(names.zip(values).map(|(name, value)| {
            (
                syntax::text(name, source).to_owned(),
                string_value(value, source),
            )
        }));
    }
    web::constants_bound_once(bindings)
}

pub(super) fn http_call<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
    constants: &mut Option<BTreeMap<String, String>>,
) -> Option<HttpCallSite<'tree>> {
    let source = file.source;
    let call = hit.node(Field::Call)?;
    let name = syntax::text(hit.node(Field::Method)?, source);
    let arguments: Vec<Node<'_>> = named_children(hit.node(Field::Arguments)?)
        .into_iter()
        .filter(|argument| argument.kind() != "comment")
        .collect();
    // A literal method, or net/http's constant (`http.MethodPost`).
    let method_of = |node: Node<'_>| {
        string_value(node, source)
            .or_else(|| {
                syntax::text(node, source)
                    .strip_prefix("http.Method")
                    .map(str::to_owned)
            })
            .map(|method| method.to_uppercase())
    };
    let (method, url_node) = match name {
        "NewRequest" => (method_of(*arguments.first()?), arguments.get(1)?),
        "NewRequestWithContext" => (method_of(*arguments.get(1)?), arguments.get(2)?),
        "PostForm" => (Some("POST".to_owned()), arguments.first()?),
        verb => (Some(verb.to_uppercase()), arguments.first()?),
    };
    let url = web::with_lazy_constants(url_value(*url_node, source)?, constants, || {
        package_constants(file.root, source)
    });
    Some(HttpCallSite {
        node: call,
        method: method.unwrap_or_else(|| "*".to_owned()),
        url,
        is_static: true,
        client: "net/http",
        scope: (file.scope_of)(call),
    })
}

/// A request of an `http.Client` value: `client.Get(url)`, `c.httpClient.Post(url, type, body)`,
/// `client.Head(url)` on a receiver whose last name mentions `client`, with a URL (a string, or a
/// concatenation starting with one or with a name) as its first argument; the call, method and
/// URL node.
pub(super) fn client_call<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
) -> Option<(Node<'tree>, String, Node<'tree>)> {
    let source = file.source;
    let call = hit.node(Field::Call)?;
    let method = match syntax::text(hit.node(Field::Method)?, source) {
        "Get" => "GET",
        "Post" => "POST",
        "Head" => "HEAD",
        _ => return None,
    };
    let receiver = syntax::text(hit.node(Field::Receiver)?, source);
    let last = receiver.rsplit('.').next().unwrap_or(receiver);
    if !last.to_lowercase().contains("client") {
        return None;
    }
    let first = named_children(hit.node(Field::Arguments)?)
        .into_iter()
        .find(|argument| argument.kind() != "comment")?;
    let url = url_value(first, source)?;
    (url.starts_with("http") || url.starts_with('/') || url.starts_with('{')).then_some(())?;
    Some((call, method.to_owned(), first))
}

/// A resty request: a verb (`Get`, `Post`, `Put`, `Patch`, `Delete`, `Head`, `Options`) with one
/// URL argument called on a request chain that starts at `x.R()`; the call, method and URL node.
pub(super) fn resty_call<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
) -> Option<(Node<'tree>, String, Node<'tree>)> {
    let source = file.source;
    let call = hit.node(Field::Call)?;
    let verb = syntax::text(hit.node(Field::Method)?, source);
    if !matches!(
        verb,
        "Get" | "Post" | "Put" | "Patch" | "Delete" | "Head" | "Options"
    ) {
        return None;
    }
    let arguments: Vec<Node<'_>> = named_children(hit.node(Field::Arguments)?)
        .into_iter()
        .filter(|argument| argument.kind() != "comment")
        .collect();
    let [url] = arguments.as_slice() else {
        return None;
    };
    // Down the receiver's chain of calls to `.R()`, through the variables the request is kept in
    // (`req := client.R().SetHeader(…)`, then `req.Get(url)`).
    let mut current = hit.node(Field::Receiver)?;
    let mut before = call;
    for _ in 0..MAX_CHAIN_STEPS {
        if current.kind() == "identifier" {
            let function = enclosing_function(file.root, before)?;
            if declared_request(function, current, before, source) {
                return Some((call, verb.to_uppercase(), *url));
            }
            let (value, binding) = bound_value(function, current, before, source)?;
            current = value;
            before = binding;
            continue;
        }
        let function = field_child(current, Child::Function)
            .filter(|function| function.kind() == "selector_expression")?;
        if field_child(function, Child::Field)
            .is_some_and(|field| syntax::text(field, source) == "R")
        {
            return Some((call, verb.to_uppercase(), *url));
        }
        current = field_child(function, Child::Operand)?;
    }
    None
}

/// Whether `name` is a parameter of `function` (the function or function literal around
/// `before`), or a variable it declares before `before`, of type `*resty.Request`
/// (`req *resty.Request`).
pub(super) fn declared_request(
    function: Node<'_>,
    name: Node<'_>,
    before: Node<'_>,
    source: &str,
) -> bool {
    let name = syntax::text(name, source);
    syntax::descendants(function)
        .take_while(|node| node.start_byte() < before.start_byte())
        .filter(|node| matches!(node.kind(), "parameter_declaration" | "var_spec"))
        .any(|declaration| {
            let typed = field_child(declaration, Child::Type).is_some_and(|kind| {
                syntax::text(kind, source)
                    .trim_start_matches('*')
                    .ends_with("resty.Request")
            });
            typed
                && named_children(declaration).into_iter().any(|child| {
                    child.kind() == "identifier" && syntax::text(child, source) == name
                })
        })
}

/// The innermost function declaration, method declaration or function literal around `node`.
pub(super) fn enclosing_function<'tree>(
    root: Node<'tree>,
    node: Node<'tree>,
) -> Option<Node<'tree>> {
    syntax::ancestors(root, node)
        .into_iter()
        .rev()
        .find(|node| {
            matches!(
                node.kind(),
                "function_declaration" | "method_declaration" | "func_literal"
            )
        })
}

/// The value the variable `name` holds where `before` starts: that of the last statement of
/// `function` (the function or function literal around `before`) that binds it before
/// `before` (`name := v`, `name, err = v, nil`, `var name = v`), with that statement. `None`
/// when nothing there binds it, or binds it from a call of several results.
pub(super) fn bound_value<'tree>(
    function: Node<'tree>,
    name: Node<'tree>,
    before: Node<'tree>,
    source: &str,
) -> Option<(Node<'tree>, Node<'tree>)> {
    let name = syntax::text(name, source);
    let mut bound = None;
    for statement in syntax::descendants(function) {
        if statement.start_byte() >= before.start_byte() {
            break;
        }
        let (names, values) = match statement.kind() {
            "short_var_declaration" | "assignment_statement" => (
                field_child(statement, Child::Left).map(named_children),
                field_child(statement, Child::Right).map(named_children),
            ),
            "var_spec" => (
                Some(
                    named_children(statement)
                        .into_iter()
                        .filter(|child| {
                            child.kind() == "identifier"
                                && field_child(statement, Child::Type)
                                    .is_none_or(|kind| kind.id() != child.id())
                        })
                        .collect(),
                ),
                field_child(statement, Child::Value).map(named_children),
            ),
            _ => continue,
        };
        let (Some(names), Some(values)) = (names, values) else {
            continue;
        };
        let Some(index) = names
            .iter()
            .position(|bound| bound.kind() == "identifier" && syntax::text(*bound, source) == name)
        else {
            continue;
        };
        bound = (names.len() == values.len())
            .then(|| values.get(index).copied())
            .flatten()
            .map(|value| (value, statement));
    }
    bound
}

/// A URL argument: a string literal, or a `+` concatenation of literals and other operands
/// (`crate::facts::web::concatenated_url`); a leading hole is the base URL.
pub(super) fn url_value<'tree>(node: Node<'tree>, source: &str) -> Option<String> {
    let plus = |node: Node<'tree>| web::plus_operands(node, source);
    web::concatenated_url(node, source, &|part| string_value(part, source), &plus)
}
