//! Flurl requests (`Flurl.Http`): a verb method called on a URL, a string or a Flurl `Url`,
//! directly or through the builders that set the request's headers, timeout, query or path:
//! `(baseUrl + "/api/license/check").WithHeader("x", y).WithTimeout(t).PostJsonAsync(body)`,
//! `url.AppendPathSegment(id).GetJsonAsync<T>()`, `client.Request("api", "x").PutJsonAsync(b)`.
//! Only in a file that imports `Flurl` or `Flurl.Http`, where the calls are Flurl's extension
//! methods.

use super::*;

/// Flurl's builders that keep the URL of the request they are called on.
const KEEPS_URL: [&str; 24] = [
    "WithHeader",
    "WithHeaders",
    "WithTimeout",
    "WithOAuthBearerToken",
    "WithBasicAuth",
    "WithCookie",
    "WithCookies",
    "WithAutoRedirect",
    "WithSettings",
    "WithClient",
    "AllowHttpStatus",
    "AllowAnyHttpStatus",
    "SetQueryParam",
    "SetQueryParams",
    "AppendQueryParam",
    "RemoveQueryParam",
    "RemoveQueryParams",
    "SetFragment",
    "RemoveFragment",
    "ResetToRoot",
    "ConfigureRequest",
    "BeforeCall",
    "AfterCall",
    "OnError",
];

/// The URL of a Flurl request whose verb method `name` (`GetJsonAsync`, `PostJsonAsync`,
/// `DeleteAsync`, …) is called on `receiver` with `arguments`, or `None` when the call is not
/// one. The URL is the chain's root (a string, a `+` or interpolation of strings, `new Url(x)`;
/// any other root a `{…}` hole) with the path segments `AppendPathSegment(s)` and a client's
/// `Request(…)` add. A root that is no string (a variable) is a request only through a builder
/// (`url.AllowHttpStatus("2xx").GetStreamAsync()`) or a method that sends a body or nothing but
/// `Get…` (`url.PostJsonAsync(body)`, `url.DeleteAsync()`), or `DownloadFileAsync` (a GET):
/// `response.GetJsonAsync<T>()` reads a Flurl response, and `http.DeleteAsync(url)` is
/// `HttpClient`'s.
pub(super) fn request_url(
    receiver: Node<'_>,
    name: &str,
    arguments: &[Node<'_>],
    file: &FileSyntax<'_, '_>,
) -> Option<String> {
    let source = file.source;
    if !imports_flurl(file.root, source) {
        return None;
    }
    // Segments each builder adds, outermost first.
    let mut added: Vec<Vec<String>> = Vec::new();
    let mut built = false;
    let mut node = receiver;
    for _ in 0..64 {
        node = unparenthesized(node);
        let Some((target, builder, list)) = builder_call(node, source) else {
            break;
        };
        let list = crate::lang::csharp::calls_and_assignments::CSharp.arguments(list);
        let segments: &[Node<'_>] = match builder.as_str() {
            "AppendPathSegment" => list.get(..1).unwrap_or_default(),
            "AppendPathSegments" | "Request" => &list,
            _ => &[],
        };
        added.push(
            segments
                .iter()
                .map(|segment| part_value(*segment, source))
                .collect(),
        );
        built = true;
        node = target;
    }
    let (root_url, is_url) = root_url(node, source);
    let sends_without_reading = name == "DownloadFileAsync"
        || !name.starts_with("Get")
            && (arguments.is_empty()
                || [
                    "JsonAsync",
                    "StringAsync",
                    "UrlEncodedAsync",
                    "MultipartAsync",
                ]
                .iter()
                .any(|suffix| name.ends_with(suffix) && !name.ends_with("AsJsonAsync")));
    if !(built || is_url || sends_without_reading) {
        return None;
    }
    Some(
        added
            .into_iter()
            .rev()
            .flatten()
            .fold(root_url, |url, segment| web::joined_url(&url, &segment)),
    )
}

/// Whether the file imports Flurl's namespaces (`using Flurl;`, `using Flurl.Http;`, also
/// `global using`), at its top or in a namespace.
fn imports_flurl(root: Node<'_>, source: &str) -> bool {
    let mut pending = vec![(root, 0)];
    while let Some((node, depth)) = pending.pop() {
        for child in named_children(node) {
            match child.kind() {
                "using_directive" => {
                    let text = syntax::text(child, source);
                    let name = text
                        .trim_end_matches(';')
                        .split_whitespace()
                        .filter(|word| !matches!(*word, "global" | "using" | "static"))
                        .collect::<String>();
                    if name == "Flurl" || name.starts_with("Flurl.") {
                        return true;
                    }
                }
                "namespace_declaration"
                | "file_scoped_namespace_declaration"
                | "declaration_list"
                    if depth < 3 =>
                {
                    pending.push((child, depth + 1));
                }
                _ => {}
            }
        }
    }
    false
}

/// `(x)` → `x`, through nested parentheses.
fn unparenthesized(mut node: Node<'_>) -> Node<'_> {
    while node.kind() == "parenthesized_expression" {
        match node.named_child(0) {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

/// A call of one of Flurl's builders: (what it is called on, its name, its argument list).
fn builder_call<'tree>(
    node: Node<'tree>,
    source: &str,
) -> Option<(Node<'tree>, String, Node<'tree>)> {
    if node.kind() != "invocation_expression" {
        return None;
    }
    let function = node.child_field("function")?;
    if function.kind() != "member_access_expression" {
        return None;
    }
    let name = simple_name(function.child_field("name")?, source);
    let known = KEEPS_URL.contains(&name.as_str())
        || matches!(
            name.as_str(),
            "AppendPathSegment" | "AppendPathSegments" | "Request"
        );
    known.then_some((
        function.child_field("expression")?,
        name,
        node.child_field("arguments")?,
    ))
}

/// The URL a chain's root stands for, and whether the root is a URL (a string, or a Flurl `Url`
/// made of one) rather than any other expression, which is a `{…}` hole.
fn root_url(root: Node<'_>, source: &str) -> (String, bool) {
    if root.kind() == "object_creation_expression"
        && root
            .child_field("type")
            .is_some_and(|kind| matches!(syntax::text(kind, source), "Url" | "Flurl.Url"))
    {
        let first = root.child_field("arguments").and_then(|list| {
            crate::lang::csharp::calls_and_assignments::CSharp
                .arguments(list)
                .into_iter()
                .next()
        });
        return (
            first.map_or_else(String::new, |first| part_value(first, source)),
            true,
        );
    }
    match url_value(root, source) {
        Some(url) => (url, true),
        None => (hole(root, source), false),
    }
}

/// A URL or path segment: its value when it is made of strings, else a `{…}` hole.
fn part_value(node: Node<'_>, source: &str) -> String {
    url_value(node, source).unwrap_or_else(|| hole(node, source))
}

fn hole(node: Node<'_>, source: &str) -> String {
    format!("{{{}}}", syntax::compact_text(node, source, 80))
}
