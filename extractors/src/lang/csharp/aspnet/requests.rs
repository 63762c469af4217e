//! `http_call` facts of C#: `HttpClient` calls and `HttpRequestMessage`s, Refit interfaces,
//! RestSharp requests and Flurl requests (`flurl.rs`).

use super::*;

pub(super) fn http_call<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
    constants: &mut Option<std::collections::BTreeMap<String, String>>,
) -> Option<HttpCallSite<'tree>> {
    let source = file.source;
    let call = hit.node(Field::Call)?;
    if call.kind() == "attribute" {
        return refit_call(call, hit.node(Field::Method)?, file);
    }
    let mut client = "HttpClient";
    let (method, url) = match hit.node(Field::Receiver) {
        Some(receiver) => {
            let name = simple_name(hit.node(Field::Method)?, source);
            // Flurl's `DownloadFileAsync(folder, name)` is a GET of the URL it is called on.
            let verb = ["Get", "Post", "Put", "Patch", "Delete"]
                .into_iter()
                .find(|verb| {
                    name.starts_with(verb) || (*verb == "Get" && name == "DownloadFileAsync")
                })?;
            let arguments = crate::lang::csharp::calls_and_assignments::CSharp
                .arguments(hit.node(Field::Arguments)?);
            if let Some(url) = super::flurl::request_url(receiver, &name, &arguments, file) {
                client = "Flurl";
                (verb.to_uppercase(), url)
            } else if name == "DownloadFileAsync" {
                return None;
            } else {
                http_client_call(receiver, verb, *arguments.first()?, source)?
            }
        }
        // `new HttpRequestMessage(…)`, `new RestRequest(…)`.
        None => {
            let kind = syntax::text(hit.node(Field::Method)?, source);
            if kind.ends_with("RestRequest") {
                client = "RestSharp";
                rest_request(call, source)?
            } else {
                request_message(call, source)?
            }
        }
    };
    let url = web::with_lazy_constants(url, constants, || {
        web::constants_bound_once(
            crate::syntax::descendants(file.root)
                .filter(|node| node.kind() == "field_declaration")
                .flat_map(|field| crate::lang::csharp::const_strings(field, source))
                .map(|(name, value)| (name, Some(value))),
        )
    });
    Some(HttpCallSite {
        node: call,
        method,
        url,
        is_static: true,
        client,
        scope: (file.scope_of)(call),
    })
}

/// The method and URL of an `HttpClient` call `receiver.<verb>…(first, …)`: the first argument
/// is the URL, when the receiver's name mentions `http` or `client` or the URL starts with `/`
/// or `http`.
fn http_client_call(
    receiver: Node<'_>,
    verb: &str,
    first: Node<'_>,
    source: &str,
) -> Option<(String, String)> {
    let url = url_value(first, source)?;
    let receiver = syntax::text(receiver, source).to_lowercase();
    let is_client = receiver.contains("http") || receiver.contains("client");
    if !is_client && !url.starts_with('/') && !url.starts_with("http") {
        return None;
    }
    Some((verb.to_uppercase(), url))
}

/// A Refit request: `[Get("/users/{id}")]` (`Post`, `Put`, `Patch`, `Delete`, `Head`,
/// `Options`) on a method of an interface, with a string path; client `Refit`, the path relative
/// to the client's base address.
pub(super) fn refit_call<'tree>(
    attribute: Node<'tree>,
    name: Node<'tree>,
    file: &FileSyntax<'_, 'tree>,
) -> Option<HttpCallSite<'tree>> {
    let source = file.source;
    syntax::interface_of_method_marker(attribute)?;
    let (_, path) = attribute_arguments(attribute, source)
        .into_iter()
        .find(|(argument, _)| argument.is_none())?;
    let url = string_value(path, source)?;
    Some(HttpCallSite {
        node: attribute,
        method: syntax::text(name, source).to_uppercase(),
        url,
        is_static: true,
        client: "Refit",
        scope: (file.scope_of)(attribute),
    })
}

/// The method and URL of `new HttpRequestMessage(method, url)`, or of the `Method` and
/// `RequestUri` its initializer sets; `None` unless both are known. The method is a member of
/// `HttpMethod` (`HttpMethod.Post`) or a literal one (`new HttpMethod("PATCH")`); the URL is a
/// URL argument or `new Uri(url)` (`new Uri(baseUri, "api/x")` is `{baseUri}/api/x`).
pub(super) fn request_message(creation: Node<'_>, source: &str) -> Option<(String, String)> {
    let (mut method, mut url) = (None, None);
    if let Some(arguments) = creation.child_field("arguments") {
        let arguments = crate::lang::csharp::calls_and_assignments::CSharp.arguments(arguments);
        method = arguments
            .first()
            .and_then(|node| http_method(*node, source));
        url = arguments.get(1).and_then(|node| request_uri(*node, source));
    }
    for (property, value) in initializer_assignments(creation, source) {
        match property {
            "Method" => method = http_method(value, source),
            "RequestUri" => url = request_uri(value, source),
            _ => {}
        }
    }
    Some((method?, url?))
}

/// The properties an object initializer sets, with their values: `new X { A = 1, B = y }` →
/// `[("A", 1), ("B", y)]`.
pub(super) fn initializer_assignments<'tree, 's>(
    creation: Node<'tree>,
    source: &'s str,
) -> Vec<(&'s str, Node<'tree>)> {
    let initializer = creation.child_field("initializer");
    initializer
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|assignment| {
            let left = assignment.child_field("left")?;
            let right = assignment.child_field("right")?;
            Some((syntax::text(left, source), right))
        })
        .collect()
}

/// An HTTP method as a request message names it: `HttpMethod.Get`, `new HttpMethod("PATCH")`,
/// `HttpMethod.Parse("PATCH")`; in upper case.
pub(super) fn http_method(node: Node<'_>, source: &str) -> Option<String> {
    const METHODS: [&str; 8] = [
        "Get", "Post", "Put", "Patch", "Delete", "Head", "Options", "Trace",
    ];
    let literal_argument = |node: Node<'_>| {
        let arguments = node.child_field("arguments")?;
        let first = crate::lang::csharp::calls_and_assignments::CSharp
            .arguments(arguments)
            .into_iter()
            .next()?;
        string_value(first, source)
            .map(|method| method.trim().to_uppercase())
            .filter(|method| !method.is_empty() && method.chars().all(|c| c.is_ascii_alphabetic()))
    };
    match node.kind() {
        "member_access_expression" => {
            let (owner, name) = syntax::text(node, source).rsplit_once('.')?;
            let owner = owner.trim();
            (owner == "HttpMethod" || owner.ends_with(".HttpMethod"))
                .then(|| METHODS.into_iter().find(|method| *method == name.trim()))
                .flatten()
                .map(str::to_uppercase)
        }
        "object_creation_expression" => node
            .child_field("type")
            .filter(|kind| syntax::text(*kind, source).ends_with("HttpMethod"))
            .and_then(|_| literal_argument(node)),
        "invocation_expression" => node
            .child_field("function")
            .filter(|function| syntax::text(*function, source).ends_with("HttpMethod.Parse"))
            .and_then(|_| literal_argument(node)),
        _ => None,
    }
}

/// The method and URL of a RestSharp request: `new RestRequest(resource[, method])`, or the
/// `Resource` and `Method` its initializer sets. The resource is a URL argument or a `Uri`
/// ([`request_uri`]); the method a member of RestSharp's `Method` (`Method.Post`, or `Method.POST`
/// before RestSharp 107). A request handed straight to a client call takes that call's method
/// ([`rest_sent_with`]): `client.PostAsync(new RestRequest("x"))` is a POST whatever the request
/// says; so does a request kept in a local variable that a later statement of its block sends
/// ([`rest_sent_later`]). `None` when the resource or the method is only known at run time, and
/// for a request that names no method and that no call of its block sends (or two send
/// differently): the call that sends it decides.
pub(super) fn rest_request(creation: Node<'_>, source: &str) -> Option<(String, String)> {
    let mut method = None;
    let mut url = None;
    if let Some(arguments) = creation.child_field("arguments") {
        let arguments = crate::lang::csharp::calls_and_assignments::CSharp.arguments(arguments);
        url = arguments
            .first()
            .and_then(|node| request_uri(*node, source));
        if let Some(named) = arguments.get(1) {
            method = Some(rest_method(*named, source));
        }
    }
    for (property, value) in initializer_assignments(creation, source) {
        match property {
            "Method" => method = Some(rest_method(value, source)),
            "Resource" => url = request_uri(value, source),
            _ => {}
        }
    }
    let sent = match rest_sent_with(creation, source) {
        Some(sent) => Some(sent),
        None => match rest_sent_later(creation, source) {
            Later::Sent(sent, assigned) => {
                // `request.Method = Method.Post;` between the construction and the send.
                if let Some(assigned) = assigned {
                    method = Some(assigned);
                }
                Some(sent)
            }
            Later::NotSent => None,
            Later::Unknown => return None,
        },
    };
    let method = match sent {
        Some(Sent::Verb(verb)) => Some(verb),
        Some(Sent::AsRequested) => method.unwrap_or(Some("GET".to_owned())),
        None => method.flatten(),
    };
    Some((method?, url?))
}

/// How a client call sends the request it is handed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Sent {
    /// With this method, whatever the request names.
    Verb(String),
    /// With the request's own method, GET unless it names one.
    AsRequested,
}

/// How the call that `creation` is the first argument of sends it: `client.PostAsync(request)`,
/// `Post<T>`, `ExecutePostAsync`, `ExecuteGetTaskAsync` with their method; `Execute(request,
/// Method.Put)` with the one named; `Execute`, `ExecuteAsync` (and `ExecuteTaskAsync`) with the
/// request's. `None` when `creation` is not such an argument.
pub(super) fn rest_sent_with(creation: Node<'_>, source: &str) -> Option<Sent> {
    sent_as_first_argument(creation, source)
}

/// What follows a request kept in a local variable, as far as its method goes.
pub(super) enum Later {
    /// Every call of the block that sends the variable sends it so; with the method the block
    /// sets on it in between (`request.Method = Method.Post`), when it sets one.
    Sent(Sent, Option<Option<String>>),
    /// Nothing of the block sends it (it is returned, or handed to a helper).
    NotSent,
    /// Sends that disagree, or a method set that is not a `Method` member: no method is sure.
    Unknown,
}

/// How the request `creation` makes is sent when it is first kept in a local variable: `var
/// request = new RestRequest("x")`, maybe with RestSharp's fluent `Add…` calls chained on it
/// (`.AddJsonBody(body)`), then `client.PostAsync(request)` in a later statement of the same
/// block. Any `request.Method = …` of the block after the declaration counts as the method the
/// request names.
pub(super) fn rest_sent_later(creation: Node<'_>, source: &str) -> Later {
    // `new RestRequest("x").AddJsonBody(body).AddHeader(…)`: the request is the chain's value.
    let mut value = creation;
    while let Some((access, call)) = value
        .parent()
        .filter(|access| {
            access.kind() == "member_access_expression"
                && access.child_field("expression").map(|e| e.id()) == Some(value.id())
        })
        .and_then(|access| Some((access, access.parent()?)))
        .filter(|(_, call)| call.kind() == "invocation_expression")
    {
        let fluent = access
            .child_field("name")
            .is_some_and(|name| simple_name(name, source).starts_with("Add"));
        if !fluent {
            break;
        }
        value = call;
    }
    let Some(declarator) = value
        .parent()
        .filter(|declarator| declarator.kind() == "variable_declarator")
    else {
        return Later::NotSent;
    };
    let Some(statement) = declarator
        .parent()
        .and_then(|declaration| declaration.parent())
        .filter(|statement| statement.kind() == "local_declaration_statement")
    else {
        return Later::NotSent;
    };
    let Some(name) = declarator
        .child_field("name")
        .map(|name| syntax::text(name, source))
    else {
        return Later::NotSent;
    };
    let mut sends: Vec<Sent> = Vec::new();
    let mut assigned = None;
    let mut later = statement.next_named_sibling();
    while let Some(next) = later {
        for node in syntax::descendants(next) {
            match node.kind() {
                "identifier" if syntax::text(node, source) == name => {
                    if let Some(sent) = sent_as_first_argument(node, source) {
                        if !sends.contains(&sent) {
                            sends.push(sent);
                        }
                    }
                }
                "assignment_expression" => {
                    let sets_method = node.child_field("left").is_some_and(|left| {
                        left.kind() == "member_access_expression"
                            && syntax::text(left, source).split_once('.').is_some_and(
                                |(owner, member)| owner.trim() == name && member.trim() == "Method",
                            )
                    });
                    if sets_method {
                        let Some(method) = node
                            .child_field("right")
                            .and_then(|right| rest_method(right, source))
                        else {
                            return Later::Unknown;
                        };
                        assigned = Some(Some(method));
                    }
                }
                _ => {}
            }
        }
        later = next.next_named_sibling();
    }
    match sends.as_slice() {
        [] => Later::NotSent,
        [sent] => Later::Sent(sent.clone(), assigned),
        _ => Later::Unknown,
    }
}

/// How the client call that `request` (an expression) is the first argument of sends it; see
/// [`rest_sent_with`].
pub(super) fn sent_as_first_argument(request: Node<'_>, source: &str) -> Option<Sent> {
    const VERBS: [&str; 7] = ["Get", "Post", "Put", "Patch", "Delete", "Head", "Options"];
    let argument = request
        .parent()
        .filter(|argument| argument.kind() == "argument")?;
    let list = argument
        .parent()
        .filter(|list| list.kind() == "argument_list")?;
    let arguments = crate::lang::csharp::calls_and_assignments::CSharp.arguments(list);
    if arguments.first().map(Node::id) != Some(request.id()) {
        return None;
    }
    let call = list
        .parent()
        .filter(|call| call.kind() == "invocation_expression")?;
    let function = call
        .child_field("function")
        .filter(|function| function.kind() == "member_access_expression")?;
    let name = crate::lang::csharp::calls_and_assignments::simple_name(
        function.child_field("name")?,
        source,
    );
    // `ExecutePostTaskAsync` → `Post`, `ExecuteAsync` → ``.
    let bare = name.strip_prefix("Execute").unwrap_or(&name);
    let bare = bare.strip_suffix("Async").unwrap_or(bare);
    let bare = bare.strip_suffix("Task").unwrap_or(bare);
    if let Some(verb) = VERBS.into_iter().find(|verb| *verb == bare) {
        return Some(Sent::Verb(verb.to_uppercase()));
    }
    if !name.starts_with("Execute") || !bare.is_empty() {
        return None;
    }
    // A second argument that is no `Method` member is a cancellation token or the like.
    Some(
        arguments
            .get(1)
            .and_then(|named| rest_method(*named, source))
            .map_or(Sent::AsRequested, Sent::Verb),
    )
}

/// A member of RestSharp's `Method` enum (`Method.Get`, `RestSharp.Method.POST`), upper case.
pub(super) fn rest_method(node: Node<'_>, source: &str) -> Option<String> {
    const METHODS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
    if node.kind() != "member_access_expression" {
        return None;
    }
    let (owner, name) = syntax::text(node, source).rsplit_once('.')?;
    let owner = owner.trim();
    if owner != "Method" && owner != "RestSharp.Method" {
        return None;
    }
    let name = name.trim().to_uppercase();
    METHODS.contains(&name.as_str()).then_some(name)
}

/// A request message's URL: a URL argument, `new Uri(url[, kind])` or `new Uri(baseUri, url)`.
pub(super) fn request_uri(node: Node<'_>, source: &str) -> Option<String> {
    if node.kind() != "object_creation_expression" {
        return url_value(node, source);
    }
    let kind = node.child_field("type")?;
    if !matches!(syntax::text(kind, source), "Uri" | "System.Uri") {
        return None;
    }
    let arguments = crate::lang::csharp::calls_and_assignments::CSharp
        .arguments(node.child_field("arguments")?);
    match arguments.as_slice() {
        [url] => url_value(*url, source),
        [first, second] if syntax::text(*second, source).contains("UriKind") => {
            url_value(*first, source)
        }
        [base, relative] => {
            let relative = url_value(*relative, source)?;
            Some(format!(
                "{{{}}}/{}",
                syntax::text(*base, source),
                relative.trim_start_matches('/')
            ))
        }
        _ => None,
    }
}

/// A URL argument: a string literal, an interpolated string, or a `+` concatenation of them
/// with other operands (`crate::facts::web::concatenated_url`); a leading hole is the base URL.
pub(super) fn url_value<'tree>(node: Node<'tree>, source: &str) -> Option<String> {
    // `"https://host/orders/" + id`, `baseUrl + "/orders"`: literals and holes.
    let plus = |node: Node<'tree>| web::plus_operands(node, source);
    let literal =
        |part: Node<'tree>| string_value(part, source).or_else(|| interpolated_value(part, source));
    web::concatenated_url(node, source, &literal, &plus)
}

/// The text of an interpolated string (`$"{baseUrl}/orders/{id}"`) between its quotes, holes
/// kept as written.
pub(super) fn interpolated_value(node: Node<'_>, source: &str) -> Option<String> {
    if node.kind() != "interpolated_string_expression" {
        return None;
    }
    let text = syntax::text(node, source);
    let inner = text
        .trim_start_matches(['$', '@'])
        .strip_prefix('"')?
        .strip_suffix('"')?;
    Some(inner.to_owned())
}
