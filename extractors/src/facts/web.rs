//! `route`, `http_call`, `checks_role` and `performs` facts of the languages other than
//! TypeScript and JavaScript, in one shape (the fact schema, `policies::facts`): the framework readers
//! (`crate::lang::csharp::aspnet`, `crate::lang::jvm::spring`, …) say what a construct serves, calls or checks, this
//! module writes the fact.
//!
//! Paths normalise with [`crate::facts::route_path::normalize`] (see `contract` in policies/LANGUAGE.md). A `performs` fact names the
//! operation of an HTTP verb (GET → read, POST → create, PUT and PATCH → update, DELETE →
//! delete) and, as `data`, the simple name of a parameter or return type of the handler, with
//! wrappers such as `Task<…>`, `ActionResult<…>`, `ResponseEntity<…>`, `Optional<…>`, `List<…>`
//! unwrapped: the extractor does not know the spec, so it emits one fact per candidate type and
//! the engine keeps those whose `data` is declared data.

use policies::facts::{Confidence, Fact, FactKind};
use tree_sitter::Node;

use crate::facts::route_path;
use crate::facts::{set, FactFactory};
use crate::syntax::ChildField;

/// A route a file serves.
#[derive(Debug, Clone)]
pub(crate) struct RouteSite<'tree> {
    /// The construct the evidence spans (the verb attribute, the registration call).
    pub node: Node<'tree>,
    /// The HTTP method in upper case, or `*`.
    pub method: String,
    /// The path as written, prefixes joined.
    pub path: String,
    /// The framework (`aspnet`, `spring`, `fastapi`, …).
    pub framework: &'static str,
    /// The handler (`OrdersController.Get`, `get_order`), when named.
    pub handler: Option<String>,
    /// The enclosing scope of the registration (the handler for decorated handlers).
    pub scope: Option<String>,
}

/// The `route` fact of a site.
pub(crate) fn route_fact(factory: &FactFactory<'_>, site: &RouteSite<'_>) -> Fact {
    let normalized = route_path::normalize(&site.path);
    let mut fact = factory.fact(
        FactKind::Route,
        site.node,
        Confidence::Definite,
        site.scope.clone(),
        format!("route `{} {}` ({})", site.method, site.path, site.framework),
    );
    fact.route = Some(normalized.as_str().into());
    set(&mut fact, "method", site.method.as_str());
    set(&mut fact, "path", site.path.as_str());
    set(&mut fact, "normalized", normalized);
    set(&mut fact, "framework", site.framework);
    if let Some(handler) = &site.handler {
        set(&mut fact, "handler", handler.as_str());
    }
    fact
}

/// Joins route segments with single slashes, with a leading slash (`api/orders` + `{id}` →
/// `/api/orders/{id}`).
pub(crate) fn join_path(segments: &[&str]) -> String {
    let parts: Vec<&str> = segments
        .iter()
        .map(|segment| segment.trim_matches('/'))
        .filter(|segment| !segment.is_empty())
        .collect();
    format!("/{}", parts.join("/"))
}

/// An HTTP request a file makes.
#[derive(Debug, Clone)]
pub(crate) struct HttpCallSite<'tree> {
    /// The call.
    pub node: Node<'tree>,
    /// The HTTP method in upper case, or `*`.
    pub method: String,
    /// The URL as written (interpolations kept).
    pub url: String,
    /// Whether the URL is a literal (with at most interpolated parameters), so its path is known.
    pub is_static: bool,
    /// The client (`HttpClient`, `requests`, `RestTemplate`, …).
    pub client: &'static str,
    /// The enclosing scope.
    pub scope: Option<String>,
}

/// The `http_call` fact of a site: `path` is set for a static URL that is absolute
/// (`https://host/x`), rooted (`/x`) or relative to a base address (`api/x` → `/api/x`).
pub(crate) fn http_call_fact(factory: &FactFactory<'_>, site: &HttpCallSite<'_>) -> Fact {
    let path = site.is_static.then(|| static_path(&site.url)).flatten();
    let shown = path.as_deref().unwrap_or(&site.url);
    let mut fact = factory.fact(
        FactKind::HttpCall,
        site.node,
        Confidence::Definite,
        site.scope.clone(),
        format!("http call `{} {shown}` via `{}`", site.method, site.client),
    );
    set(&mut fact, "method", site.method.as_str());
    set(&mut fact, "url", crate::syntax::truncate(&site.url, 120));
    if let Some(path) = path {
        set(&mut fact, "path", path);
    }
    set(&mut fact, "client", site.client);
    let names = factory.url_configuration_names(&site.url);
    if !names.is_empty() {
        set(&mut fact, "urlFrom", names);
    }
    fact
}

/// A base URL and a URL after it, as HTTP clients join them: one `/` between, the base alone
/// for an empty URL.
pub(crate) fn joined_url(base: &str, url: &str) -> String {
    if url.is_empty() {
        return base.to_owned();
    }
    format!(
        "{}/{}",
        base.trim_end_matches('/'),
        url.trim_start_matches('/')
    )
}

/// A URL written as a `+` concatenation (Java, C#, Go), read left to right: a string literal
/// gives its value, any other operand a `{…}` hole holding its text
/// (`"https://host/orders/" + id` → `https://host/orders/{id}`, `baseUrl + "/orders"` →
/// `{baseUrl}/orders`). `literal` reads a language's string literal; `plus` splits a `+`
/// expression into its operands. `None` when no operand is a literal: nothing of the URL is known.
pub(crate) fn concatenated_url<'tree>(
    node: Node<'tree>,
    source: &str,
    literal: &dyn Fn(Node<'tree>) -> Option<String>,
    plus: &dyn Fn(Node<'tree>) -> Option<(Node<'tree>, Node<'tree>)>,
) -> Option<String> {
    // The operands left to right, with a stack rather than recursion (a chain of thousands of
    // `+` nests as deep). Bounded like every walk: past 64 operands, what is left of the chain
    // is kept as one operand.
    let mut parts = Vec::new();
    let mut pending = vec![node];
    while let Some(node) = pending.pop() {
        match plus(node).filter(|_| parts.len() + pending.len() < 64) {
            Some((left, right)) => {
                pending.push(right);
                pending.push(left);
            }
            None => parts.push(node),
        }
    }
    let mut url = String::new();
    let mut has_literal = false;
    for part in parts {
        match literal(part) {
            Some(value) => {
                has_literal = true;
                url.push_str(&value);
            }
            None => {
                url.push('{');
                url.push_str(&crate::syntax::compact_text(part, source, 80));
                url.push('}');
            }
        }
    }
    has_literal.then_some(url)
}

/// The operands of a `binary_expression` whose operator is `+` (the grammars of Java, C# and Go
/// name them `left`, `operator` and `right`), for [`concatenated_url`].
pub(crate) fn plus_operands<'tree>(
    node: Node<'tree>,
    source: &str,
) -> Option<(Node<'tree>, Node<'tree>)> {
    if node.kind() != "binary_expression"
        || node
            .child_field("operator")
            .is_none_or(|operator| crate::syntax::text(operator, source) != "+")
    {
        return None;
    }
    Some((node.child_field("left")?, node.child_field("right")?))
}

/// The string constants of a file from its bindings in order, `(name, value)`, the value
/// `None` where the name is bound to anything but a string: a name bound more than once is
/// left out, as its value at the request is not known.
pub(crate) fn constants_bound_once(
    bindings: impl IntoIterator<Item = (String, Option<String>)>,
) -> std::collections::BTreeMap<String, String> {
    let mut constants = std::collections::BTreeMap::new();
    let mut repeated = Vec::new();
    for (name, value) in bindings {
        match value {
            Some(value) => {
                if constants.insert(name.clone(), value).is_some() {
                    repeated.push(name);
                }
            }
            None => repeated.push(name),
        }
    }
    for name in repeated {
        constants.remove(&name);
    }
    constants
}

/// [`with_constants`], building the file's constants with `build` only when `url` has a hole
/// (most URLs have none) and keeping them in `cache` for the file's other URLs.
pub(crate) fn with_lazy_constants(
    url: String,
    cache: &mut Option<std::collections::BTreeMap<String, String>>,
    build: impl FnOnce() -> std::collections::BTreeMap<String, String>,
) -> String {
    if !url.contains('{') {
        return url;
    }
    with_constants(&url, cache.get_or_insert_with(build))
}

/// `url` with each `{Name}` hole that names a string constant of the file replaced by its value
/// (`{Base}/{id}` with C#'s `const string Base = "api/orders"` → `api/orders/{id}`).
pub(crate) fn with_constants(
    url: &str,
    constants: &std::collections::BTreeMap<String, String>,
) -> String {
    if constants.is_empty() {
        return url.to_owned();
    }
    let mut resolved = String::with_capacity(url.len());
    let mut rest = url;
    while let Some(open) = rest.find('{') {
        let (before, hole) = rest.split_at(open);
        resolved.push_str(before);
        let name = hole
            .get(1..)
            .and_then(|inner| inner.split_once('}'))
            .filter(|(name, _)| {
                !name.is_empty()
                    && name
                        .chars()
                        .all(|character| character.is_alphanumeric() || character == '_')
            });
        match name.and_then(|(name, after)| Some((constants.get(name)?, after))) {
            Some((value, after)) => {
                resolved.push_str(value);
                rest = after;
            }
            None => {
                resolved.push('{');
                rest = hole.get(1..).unwrap_or_default();
            }
        }
    }
    resolved.push_str(rest);
    resolved
}

/// The normalised path of a URL: a full URL contributes its path, and a URL that starts with a
/// hole followed by `/` (`{baseUrl}/orders`, `${API}/orders`) has a dynamic base and that path.
pub(crate) fn static_path(url: &str) -> Option<String> {
    let url = url.trim();
    if url.is_empty() || url.contains(char::is_whitespace) {
        return None;
    }
    let url = after_dynamic_base(url)?;
    let url = url.as_ref();
    let after_scheme = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    let path = match after_scheme {
        Some(rest) => rest
            .find('/')
            .and_then(|index| rest.get(index..))
            .unwrap_or("/"),
        None if url.contains("://") => return None,
        None => url,
    };
    Some(route_path::normalize(path))
}

/// `url` without a leading `{…}` or `${…}` hole that a `/` follows; `None` when it starts with a
/// hole that no `/` follows (the path itself is not known). A hole that names a host or base
/// address (`{hostname}pets/visits`, `{baseUrl}orders`: a name with `host`, `url`, `uri`, `base`,
/// `endpoint`, `server` or `address` in it) followed by a path segment is a base that ends with
/// `/`: the path is `/pets/visits`.
pub(crate) fn after_dynamic_base(url: &str) -> Option<std::borrow::Cow<'_, str>> {
    let Some(hole) = url.strip_prefix("${").or_else(|| url.strip_prefix('{')) else {
        return Some(url.into());
    };
    let mut depth = 1_usize;
    for (index, character) in hole.char_indices() {
        match character {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    let rest = hole.get(index + 1..)?;
                    if rest.starts_with('/') {
                        return Some(rest.into());
                    }
                    return (names_base(hole.get(..index)?) && starts_segment(rest))
                        .then(|| format!("/{rest}").into());
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether a URL's leading hole names a host or base address (`hostname`, `baseUrl`, `API_URI`,
/// `endpoint`, `server`, `address`), which a path segment may follow directly.
pub(crate) fn names_base(hole: &str) -> bool {
    const BASE_NAMES: [&str; 7] = [
        "host", "url", "uri", "base", "endpoint", "server", "address",
    ];
    let name = hole.to_ascii_lowercase();
    BASE_NAMES.iter().any(|base| name.contains(base))
}

/// Whether what follows a leading hole starts a path segment (`pets/visits`), not a scheme, a
/// port or an extension.
pub(crate) fn starts_segment(rest: &str) -> bool {
    rest.chars()
        .next()
        .is_some_and(|first| first.is_ascii_alphanumeric())
        && !rest.contains("://")
}

/// The `checks_role` fact of a role check.
pub(crate) fn role_fact(
    factory: &FactFactory<'_>,
    node: impl crate::facts::Located,
    role: &str,
    construct: &str,
    scope: Option<String>,
) -> Fact {
    let mut fact = factory.fact(
        FactKind::ChecksRole,
        node,
        Confidence::Definite,
        scope,
        format!("{construct} checks role `{role}`"),
    );
    set(&mut fact, "role", role);
    fact
}

/// The operation an HTTP method performs, for `performs` facts.
pub(crate) fn operation_of(method: &str) -> Option<&'static str> {
    match method {
        "GET" => Some("read"),
        "POST" => Some("create"),
        "PUT" | "PATCH" => Some("update"),
        "DELETE" => Some("delete"),
        _ => None,
    }
}

/// The `performs` facts of a handler: one per distinct candidate data type.
pub(crate) fn performs_facts(
    factory: &FactFactory<'_>,
    node: Node<'_>,
    handler: &str,
    method: &str,
    data_types: &[String],
) -> Vec<Fact> {
    performs_facts_with(
        factory,
        node,
        PerformsOf {
            handler,
            scope: Some(handler.to_owned()),
            confidence: Confidence::Definite,
        },
        method,
        data_types,
    )
}

/// Who performs an operation, for [`performs_facts_with`].
pub(crate) struct PerformsOf<'a> {
    /// The handler as the message names it (`OrdersController.Get`, `MapDelete /api/x`).
    pub handler: &'a str,
    /// The fact's scope (the handler, or the scope of an inline handler's registration).
    pub scope: Option<String>,
    /// `probable` when the data is inferred (a controller's name) rather than declared.
    pub confidence: Confidence,
}

/// [`performs_facts`] with an explicit scope and confidence.
pub(crate) fn performs_facts_with(
    factory: &FactFactory<'_>,
    node: Node<'_>,
    of: PerformsOf<'_>,
    method: &str,
    data_types: &[String],
) -> Vec<Fact> {
    let Some(operation) = operation_of(method) else {
        return Vec::new();
    };
    let handler = of.handler;
    let mut seen: Vec<&str> = Vec::new();
    let mut facts = Vec::new();
    for data in data_types {
        if data.is_empty() || seen.contains(&data.as_str()) {
            continue;
        }
        seen.push(data);
        let mut fact = factory.fact(
            FactKind::Performs,
            node,
            of.confidence,
            of.scope.clone(),
            format!("`{method}` handler `{handler}` performs `{operation}` on `{data}`"),
        );
        set(&mut fact, "operation", operation);
        set(&mut fact, "data", data.as_str());
        facts.push(fact);
    }
    facts
}

/// Generic wrappers whose type argument is the data a handler works on.
const WRAPPERS: [&str; 26] = [
    "Promise",
    "Observable",
    "Array",
    "Task",
    "ValueTask",
    "ActionResult",
    "Result",
    "Results",
    "Ok",
    "List",
    "IList",
    "IEnumerable",
    "ICollection",
    "IReadOnlyList",
    "IReadOnlyCollection",
    "IAsyncEnumerable",
    "ResponseEntity",
    "Optional",
    "Mono",
    "Flux",
    "Collection",
    "Set",
    "Page",
    "IRepository",
    "IReadRepository",
    "DbSet",
];

/// Types that are never data: framework plumbing and primitives.
const NOT_DATA: [&str; 26] = [
    "IActionResult",
    "ActionResult",
    "IResult",
    "Task",
    "ValueTask",
    "CancellationToken",
    "HttpContext",
    "HttpRequest",
    "HttpResponse",
    "IFormFile",
    "String",
    "Integer",
    "Long",
    "Boolean",
    "Object",
    "Void",
    "UUID",
    "Guid",
    "DateTime",
    "HttpServletRequest",
    "HttpServletResponse",
    "Principal",
    "Authentication",
    "Model",
    "BindingResult",
    "Pageable",
];

/// The data type a type text names, wrappers unwrapped and namespaces dropped
/// (`Task<ActionResult<IEnumerable<Shop.Order>>>` → `Order`); `None` for primitives, plumbing,
/// arrays of primitives and type parameters of several arguments.
pub(crate) fn data_type(type_text: &str) -> Option<String> {
    let mut current: String = type_text
        .chars()
        .filter(|character| !character.is_whitespace())
        .collect();
    loop {
        current = current
            .trim_end_matches('?')
            .trim_end_matches("[]")
            .to_owned();
        let Some((outer, inner)) = current.split_once('<') else {
            break;
        };
        let outer = last_segment(outer);
        let inner = inner.strip_suffix('>')?;
        if !WRAPPERS.contains(&outer) || inner.contains(',') {
            return None;
        }
        current = inner.to_owned();
    }
    let name = last_segment(&current);
    let is_name = name.chars().next().is_some_and(char::is_uppercase)
        && name
            .chars()
            .all(|character| character.is_alphanumeric() || character == '_');
    (is_name && !NOT_DATA.contains(&name)).then(|| name.to_owned())
}

fn last_segment(path: &str) -> &str {
    path.rsplit(['.', ':']).next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::{constants_bound_once, data_type, join_path, static_path, with_constants};

    #[test]
    fn data_type_unwraps_wrappers_and_drops_plumbing() {
        assert_eq!(
            data_type("Task<ActionResult<IEnumerable<Shop.Order>>>").as_deref(),
            Some("Order")
        );
        assert_eq!(data_type("ResponseEntity<Order>").as_deref(), Some("Order"));
        assert_eq!(data_type("Optional<Order>").as_deref(), Some("Order"));
        assert_eq!(data_type("Order?").as_deref(), Some("Order"));
        assert_eq!(data_type("IActionResult"), None);
        assert_eq!(data_type("int"), None);
        assert_eq!(data_type("Dictionary<string, Order>"), None);
        assert_eq!(data_type("Task"), None);
    }

    #[test]
    fn paths_join_and_urls_give_their_paths() {
        assert_eq!(join_path(&["api/orders/", "/{id}"]), "/api/orders/{id}");
        assert_eq!(join_path(&["", ""]), "/");
        assert_eq!(
            static_path("https://x.io/api/Orders?q=1").as_deref(),
            Some("/api/orders")
        );
        assert_eq!(static_path("api/orders").as_deref(), Some("/api/orders"));
        assert_eq!(static_path("ftp://x/y"), None);
        // A leading hole is a dynamic base: before a `/`, or before a path segment when it
        // names a host or base address (which then ends with `/`).
        assert_eq!(static_path("{base}/orders").as_deref(), Some("/orders"));
        assert_eq!(
            static_path("{hostname}pets/visits?petId={petId}").as_deref(),
            Some("/pets/visits")
        );
        assert_eq!(static_path("{vetsHostname}vets").as_deref(), Some("/vets"));
        assert_eq!(
            static_path("{apiBaseUrl}v2/orders").as_deref(),
            Some("/v2/orders")
        );
        assert_eq!(static_path("{id}/orders").as_deref(), Some("/orders"));
        assert_eq!(static_path("{id}.json"), None);
        assert_eq!(static_path("{prefix}orders"), None);
        assert_eq!(static_path("{host}"), None);
        assert_eq!(static_path("{scheme}://host/x"), None);
        assert_eq!(static_path("{hostUrl}:8080/x"), None);
    }

    /// Only whole `{Name}` holes naming a constant are replaced; format specifiers, unknown
    /// names and stray braces stay as written.
    #[test]
    fn url_holes_naming_constants_take_their_values() {
        let constants = [("Base", "api/orders"), ("Host", "https://shop.io")]
            .map(|(name, value)| (name.to_owned(), value.to_owned()))
            .into_iter()
            .collect();
        let cases = [
            ("{Base}/{id}", "api/orders/{id}"),
            ("{Host}/{Base}", "https://shop.io/api/orders"),
            ("{Base:D}/x", "{Base:D}/x"),
            ("{id}/{Other}", "{id}/{Other}"),
            ("a{b", "a{b"),
            ("{}/{Base}", "{}/api/orders"),
            ("", ""),
        ];
        for (url, expected) in cases {
            assert_eq!(with_constants(url, &constants), expected, "{url}");
        }
        assert_eq!(with_constants("{Base}", &Default::default()), "{Base}");
    }

    /// A name bound once to a string is a constant; bound twice, or to anything else, it is not.
    #[test]
    fn constants_are_names_bound_once_to_a_string() {
        let bindings = [
            ("API", Some("/api")),
            ("HOST", Some("https://a")),
            ("HOST", Some("https://b")),
            ("PORT", None),
            ("NAME", Some("x")),
            ("NAME", None),
        ]
        .map(|(name, value)| (name.to_owned(), value.map(str::to_owned)));
        let constants = constants_bound_once(bindings);
        let names: Vec<&str> = constants.keys().map(String::as_str).collect();
        assert_eq!(names, ["API"]);
        assert_eq!(constants.get("API").map(String::as_str), Some("/api"));
    }
}

/// Reads of an environment variable or configuration key by name, as they appear in a request
/// URL's text: the text up to the quoted name (`os.environ["X"]`, `os.Getenv("X")`,
/// `configuration["X"]`, `System.getenv("X")`, `env::var("X")`).
const QUOTED_NAME_READS: [&str; 14] = [
    "process.env[",
    "environ[",
    "environ.get(",
    "getenv(",
    "Getenv(",
    "LookupEnv(",
    "onfiguration[",
    "onfig[",
    "GetValue<string>(",
    "GetEnvironmentVariable(",
    "getProperty(",
    "env::var(",
    "environment[",
    "Environment.get(",
];

/// Reads of an environment variable as a member (`process.env.X`, `import.meta.env.X`).
const MEMBER_NAME_READS: [&str; 2] = ["process.env.", "import.meta.env."];

/// The environment variables and configuration keys a request URL is built from, read from the
/// URL's text (`${process.env.ALERTMANAGER_URL}/api` gives `ALERTMANAGER_URL`,
/// `f"{os.environ['PAYMENTS_URL']}/charges"` gives `PAYMENTS_URL`, `configuration["Payments:BaseUrl"]
/// + "/x"` gives `Payments:BaseUrl`), in order, without repeats. The engine resolves the call to
/// the entity whose `urls` list one of them (see `node` and `resource` in policies/LANGUAGE.md).
pub(crate) fn url_configuration_names(url: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut push = |name: &str| {
        if !name.is_empty() && !names.iter().any(|known| known == name) {
            names.push(name.to_owned());
        }
    };
    for read in MEMBER_NAME_READS {
        for (start, _) in url.match_indices(read) {
            let rest = url.get(start + read.len()..).unwrap_or_default();
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            push(rest.get(..end).unwrap_or_default());
        }
    }
    for read in QUOTED_NAME_READS {
        for (start, _) in url.match_indices(read) {
            let rest = url
                .get(start + read.len()..)
                .unwrap_or_default()
                .trim_start();
            let Some(quote) = rest
                .chars()
                .next()
                .filter(|c| matches!(c, '"' | '\'' | '`'))
            else {
                continue;
            };
            let inner = rest.get(1..).unwrap_or_default();
            if let Some(end) = inner.find(quote) {
                push(inner.get(..end).unwrap_or_default());
            }
        }
    }
    names
}

/// The names of [`url_configuration_names`], also through the names a URL hole reads
/// (`const API = process.env.API_URL;` then `` `${API}/orders` ``, Python's
/// `BASE = os.environ["BASE_URL"]` then `f"{BASE}/orders"`, C#'s
/// `_baseUrl = configuration["Payments:BaseUrl"];` then `_baseUrl + "/charges"`, `self.`/`this.`
/// fields too): a line of the file that assigns the name, when exactly one does; and Spring's
/// `@Value("${payments.url}")` on the field or parameter of that name (the key up to its `:`
/// default).
#[cfg(test)]
pub(crate) fn url_configuration_names_in(url: &str, source: &str) -> Vec<String> {
    url_configuration_names_with(url, source, &UrlNamesMemo::default())
}

/// What [`url_configuration_names_with`] keeps of one file between its calls: whether the file
/// may read configuration at all, and each name's assignments. Without it, a file of thousands
/// of requests searched its whole text for each one (16,000 `fetch` calls: 1 s against a 90 ms
/// parse).
#[derive(Default)]
pub(crate) struct UrlNamesMemo {
    reads_configuration: std::cell::OnceCell<bool>,
    assigned: std::cell::RefCell<std::collections::HashMap<String, Vec<String>>>,
}

/// [`url_configuration_names_in`], with what earlier calls for the same file found in `memo`.
pub(crate) fn url_configuration_names_with(
    url: &str,
    source: &str,
    memo: &UrlNamesMemo,
) -> Vec<String> {
    let mut names = url_configuration_names(url);
    let reads_configuration = *memo.reads_configuration.get_or_init(|| {
        source.contains("env")
            || source.contains("onfig")
            || source.contains("nviron")
            || source.contains("@Value")
    });
    if !reads_configuration {
        return names;
    }
    for hole in url.split('{').skip(1) {
        let hole = hole.split('}').next().unwrap_or_default().trim();
        let name = ["this.", "self."]
            .into_iter()
            .find_map(|prefix| hole.strip_prefix(prefix))
            .unwrap_or(hole);
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let found = memo
            .assigned
            .borrow_mut()
            .entry(name.to_owned())
            .or_insert_with(|| {
                let mut found = assigned_names(name, source);
                found.extend(spring_value_key(name, source));
                found
            })
            .clone();
        for found in found {
            if !names.contains(&found) {
                names.push(found);
            }
        }
    }
    names
}

/// The configuration names read by the one assignment of `name` in `source`, if exactly one
/// line assigns it.
fn assigned_names(name: &str, source: &str) -> Vec<String> {
    let mut assignments = source.lines().filter_map(|line| {
        let line = line.trim_start();
        let line = line.strip_prefix("export ").unwrap_or(line);
        let rest = ["const ", "let ", "var ", "this.", "self.", ""]
            .into_iter()
            .find_map(|keyword| line.strip_prefix(keyword)?.strip_prefix(name))?;
        let rest = rest.trim_start();
        let rest = match rest.strip_prefix(':') {
            // A type annotation (`API: str = …`, `const API: string = …`).
            Some(typed) => typed.split_once('=')?.1,
            None => rest
                .strip_prefix('=')
                .filter(|rest| !rest.starts_with('='))?,
        };
        Some(rest)
    });
    match (assignments.next(), assignments.next()) {
        (Some(value), None) => url_configuration_names(value),
        _ => Vec::new(),
    }
}

/// The key of a Spring `@Value("${key}")` on the field or parameter `name`: the annotation on the
/// line that declares the name (`@Value("${x}") String name`) or on the line before it.
fn spring_value_key(name: &str, source: &str) -> Option<String> {
    let declares = |line: &str| {
        line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|word| word == name)
            && (line.trim_end().ends_with(';')
                || line.contains(&format!("{name},"))
                || line.contains(&format!("{name})")))
    };
    let mut previous = "";
    for line in source.lines() {
        if declares(line) {
            for candidate in [line, previous] {
                if let Some(rest) = candidate.split_once("@Value(").map(|(_, rest)| rest) {
                    let key = rest.split_once("${")?.1;
                    let end = key.find(['}', ':'])?;
                    return key.get(..end).map(str::to_owned);
                }
            }
        }
        previous = line;
    }
    None
}

/// Gives an `http_call` fact without one the `urlFrom` list of [`url_configuration_names`] of
/// its `url`.
pub(crate) fn note_url_names(fact: &mut Fact) {
    if fact.kind != FactKind::HttpCall || fact.properties.contains_key("urlFrom") {
        return;
    }
    let Some(url) = fact.property_str("url") else {
        return;
    };
    if !url.contains("env") && !url.contains("onfig") && !url.contains("nviron") {
        return;
    }
    let names = url_configuration_names(url);
    if !names.is_empty() {
        set(fact, "urlFrom", names);
    }
}

#[cfg(test)]
mod url_name_tests {
    use super::url_configuration_names;

    #[test]
    fn the_names_a_url_is_built_from() {
        let cases: [(&str, &[&str]); 7] = [
            (
                "${process.env.ALERTMANAGER_URL}/api/v2/alerts",
                &["ALERTMANAGER_URL"],
            ),
            ("{os.environ['PAYMENTS_URL']}/charges", &["PAYMENTS_URL"]),
            (
                "{os.getenv(\"PAYMENTS_URL\", \"x\")}/charges",
                &["PAYMENTS_URL"],
            ),
            ("{os.Getenv(\"API\")}/x", &["API"]),
            (
                "{configuration[\"Payments:BaseUrl\"]}/x",
                &["Payments:BaseUrl"],
            ),
            ("{System.getenv(\"A\")}{import.meta.env.B}", &["B", "A"]),
            ("https://host/x", &[]),
        ];
        for (url, expected) in cases {
            assert_eq!(url_configuration_names(url), expected, "{url}");
        }
    }

    #[test]
    fn a_hole_reads_the_name_a_top_level_constant_is_built_from() {
        let source = "const API = process.env.API_URL;\nexport const x = 1;\n";
        assert_eq!(
            super::url_configuration_names_in("${API}/orders", source),
            ["API_URL"]
        );
        let source = "BASE: str = os.environ[\"BASE_URL\"]\nBASE == 1\n";
        assert_eq!(
            super::url_configuration_names_in("{BASE}/orders", source),
            ["BASE_URL"]
        );
        let twice = "let API = process.env.A;\nlet API = process.env.B;\n";
        assert!(super::url_configuration_names_in("${API}/x", twice).is_empty());
        let csharp = "    public Payments(IConfiguration configuration)\n    {\n        _baseUrl = configuration[\"Payments:BaseUrl\"];\n    }\n";
        assert_eq!(
            super::url_configuration_names_in("{_baseUrl}/charges", csharp),
            ["Payments:BaseUrl"]
        );
        let spring =
            "    @Value(\"${payments.url:http://localhost}\")\n    private String paymentsUrl;\n";
        assert_eq!(
            super::url_configuration_names_in("{paymentsUrl}/charges", spring),
            ["payments.url"]
        );
        let parameter = "    Client(@Value(\"${alerts.url}\") String alertsUrl) {}\n";
        assert_eq!(
            super::url_configuration_names_in("{this.alertsUrl}/x", parameter),
            ["alerts.url"]
        );
    }
}
