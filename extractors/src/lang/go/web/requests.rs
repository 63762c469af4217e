//! `http_call` facts of Go: net/http (`http.Get`, `http.NewRequest`, an `http.Client`) and resty
//! request chains.

use super::*;

/// The file's top-level string constants (`const base = "http://orders/api"`, also inside a
/// `const ( … )` block); a name declared twice is left out.
pub(crate) fn package_constants(root: Node<'_>, source: &str) -> BTreeMap<String, String> {
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
    constants: &BTreeMap<String, String>,
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
    let url = resolved_url(*url_node, file, constants)?;
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
    constants: &BTreeMap<String, String>,
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
    let url = url_value(first, source).or_else(|| constant_value(first, file.source, constants))?;
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

/// A request's URL: [`url_value`] with the file's string constants filled in, or the value of
/// the string constant the argument names alone (`http.NewRequest(method, apiBaseUrl, body)`
/// with `const apiBaseUrl = "https://…"`).
pub(super) fn resolved_url(
    node: Node<'_>,
    file: &FileSyntax<'_, '_>,
    constants: &BTreeMap<String, String>,
) -> Option<String> {
    match url_value(node, file.source) {
        Some(url) if url.contains('{') => Some(web::with_constants(&url, constants)),
        Some(url) => Some(url),
        None => constant_value(node, file.source, constants),
    }
}

/// The value of the file's top-level string constant that `node` names, when it is a name.
fn constant_value(
    node: Node<'_>,
    source: &str,
    constants: &BTreeMap<String, String>,
) -> Option<String> {
    (node.kind() == "identifier").then_some(())?;
    constants.get(syntax::text(node, source)).cloned()
}

/// A URL argument: a string literal, a `fmt.Sprintf` whose format is one ([`sprintf_template`]),
/// or a `+` concatenation of those and other operands (`crate::facts::web::concatenated_url`);
/// a leading hole is the base URL.
pub(super) fn url_value<'tree>(node: Node<'tree>, source: &str) -> Option<String> {
    let plus = |node: Node<'tree>| web::plus_operands(node, source);
    let literal =
        |part: Node<'tree>| string_value(part, source).or_else(|| sprintf_template(part, source));
    web::concatenated_url(node, source, &literal, &plus)
}

/// `fmt.Sprintf("%s/artist/%d/related", apiBaseURL, id)` as a URL template: each verb becomes a
/// hole named by its argument (`{apiBaseURL}/artist/{id}/related`), which the file's constants
/// may fill in, and `%%` a `%`. Only a format with some text of its own besides the verbs, and
/// one argument for each verb (no explicit `%[n]` index, no `*` width), is read.
fn sprintf_template(node: Node<'_>, source: &str) -> Option<String> {
    if node.kind() != "call_expression" {
        return None;
    }
    let function = field_child(node, Child::Function)?;
    if syntax::text(function, source) != "fmt.Sprintf" {
        return None;
    }
    let arguments: Vec<Node<'_>> = named_children(field_child(node, Child::Arguments)?)
        .into_iter()
        .filter(|argument| argument.kind() != "comment")
        .collect();
    let (format, values) = arguments.split_first()?;
    let format = string_value(*format, source)?;
    let mut values = values.iter();
    let mut template = String::with_capacity(format.len());
    let mut has_text = false;
    let mut characters = format.chars().peekable();
    while let Some(character) = characters.next() {
        if character != '%' {
            has_text = true;
            template.push(character);
            continue;
        }
        if characters.peek() == Some(&'%') {
            characters.next();
            has_text = true;
            template.push('%');
            continue;
        }
        // Flags, width and precision, then the verb.
        while characters
            .peek()
            .is_some_and(|next| matches!(next, '+' | '-' | '#' | ' ' | '.' | '0'..='9'))
        {
            characters.next();
        }
        if !characters.next()?.is_ascii_alphabetic() {
            return None;
        }
        let value = values.next()?;
        template.push('{');
        template.push_str(&syntax::compact_text(*value, source, 80));
        template.push('}');
    }
    (has_text && values.next().is_none()).then_some(template)
}
