//! Spring facts of Java files: routes and the `performs` facts of handlers, role checks, and
//! `RestTemplate`/`WebClient` requests.
//!
//! - `route`: a handler method's `@GetMapping` (`Post`, `Put`, `Patch`, `Delete`) or
//!   `@RequestMapping` (its `method = RequestMethod.X`, else `*`), each of its paths (`value`,
//!   `path` or the positional value; none is the empty path) under each path of the class's
//!   `@RequestMapping`. Framework `spring`, handler and scope `Class.method`.
//! - `performs`: per route, the operation of its verb on each parameter type and the return
//!   type, unwrapped (`crate::facts::web`).
//! - `checks_role`: the roles of `hasRole('X')`, `hasAnyRole('X', 'Y')`, `hasAuthority('ROLE_X')`
//!   and `hasAnyAuthority(…)` in `@PreAuthorize`, and the values of `@RolesAllowed` and
//!   `@Secured`; a `ROLE_` prefix is dropped (Spring adds it to role names). Scope: the class,
//!   or `Class.method` on a method. A value built from the project's string constants waits
//!   for the Java type index (`crate::lang::jvm::roles`).
//! - `http_call`: `RestTemplate`'s `getForObject`/`getForEntity` (GET), `postFor…` (POST), `put`,
//!   `delete`, `patchForObject` and `exchange(url, HttpMethod.X, …)`; `WebClient`'s
//!   `client.get().uri("/x")`. The first argument must be a string, and the receiver's name must
//!   mention `rest`, `template`, `client` or `web`, or the URL start with `/` or `http`. A
//!   `final String` field of the file with a literal value stands for that value in the URL
//!   (`BASE + "/orders"`).
//! - `http_call`, `java.net.http`: `HttpRequest.newBuilder(URI.create("…"))` with its chained
//!   `.uri(…)` and verb (`.POST(…)`, `.method("PATCH", …)`; GET by default), at `newBuilder`;
//!   client `HttpClient`.
//! - `http_call`, Spring's HTTP interfaces: `@GetExchange("/x")` (`Post`, `Put`, `Patch`,
//!   `Delete`, or `@HttpExchange(method = "GET", value = "/x")`) on an interface method, under the
//!   interface's `@HttpExchange("/base")`; client `HttpExchange`.
//! - `http_call`, Spring Cloud OpenFeign: the mapping annotations of the methods of a
//!   `@FeignClient` interface are requests it makes, not routes: one per verb and path, under the
//!   client's `path` (and its `url` when a literal, not a `${…}` placeholder), client `Feign`.
//! - `http_call`, Retrofit (in a file importing `retrofit2`): `@GET("orders/{id}")` (`POST`,
//!   `PUT`, `PATCH`, `DELETE`, `HEAD`, `OPTIONS`) on a method, client `retrofit`; the path is
//!   relative to the base URL. `@HTTP(method = "X", path = "…")` takes its method from `method`;
//!   a verb without a path on a method with a `@Url` parameter is a request to that dynamic URL
//!   (`url` `{name}`, no path).

use policies::facts::{Fact, FactKind};
use tree_sitter::Node;

use crate::facts::FactFactory;
use crate::syntax::ChildField;
use std::collections::BTreeMap;

use crate::facts::calls_and_assignments::FileSyntax;
use crate::facts::web::{self, join_path, HttpCallSite, RouteSite};
use crate::lang::jvm::roles::{self, Operand};
use crate::query::{Field, QueryHit};
use crate::resolve::deferred::Output;
use crate::syntax::{self, named_children};

/// The Spring facts of a Java file.
pub(crate) fn facts<'tree>(
    factory: &FactFactory<'_>,
    hits: &[QueryHit<'tree>],
    file: &FileSyntax<'_, 'tree>,
    out: &mut Output<'tree>,
) {
    // The file's `final String` fields, for URLs built from them (`BASE + "/orders"`).
    let mut constants: Option<BTreeMap<String, String>> = None;
    for hit in hits {
        match hit.kind {
            FactKind::Route => out.facts.extend(handler_facts(factory, hit, file)),
            FactKind::ChecksRole => role_facts(factory, hit, file, out),
            FactKind::HttpCall => {
                if let Some(site) = http_call(hit, file, &mut constants) {
                    out.facts.push(web::http_call_fact(factory, &site));
                }
            }
            _ => {}
        }
    }
}

/// The value of a Java string literal.
fn string_value(node: Node<'_>, source: &str) -> Option<String> {
    (node.kind() == "string_literal").then(|| {
        named_children(node)
            .into_iter()
            .map(|part| syntax::text(part, source))
            .collect()
    })
}

/// The strings of an annotation value: a string or an array of strings.
fn strings(node: Node<'_>, source: &str) -> Vec<String> {
    match node.kind() {
        "element_value_array_initializer" => named_children(node)
            .into_iter()
            .filter_map(|element| string_value(element, source))
            .collect(),
        _ => string_value(node, source).into_iter().collect(),
    }
}

/// The `(key, value)` elements of an annotation; the positional value has key `value`.
fn elements<'tree>(annotation: Node<'tree>, source: &str) -> Vec<(String, Node<'tree>)> {
    let Some(list) = annotation.child_field("arguments") else {
        return Vec::new();
    };
    named_children(list)
        .into_iter()
        .filter(|element| !element.kind().contains("comment"))
        .filter_map(|element| {
            if element.kind() == "element_value_pair" {
                let key = syntax::text(element.child_field("key")?, source).to_owned();
                Some((key, element.child_field("value")?))
            } else {
                Some(("value".to_owned(), element))
            }
        })
        .collect()
}

/// The paths of a mapping annotation (`value`, `path`, or positional); the empty path if none.
fn mapping_paths(annotation: Node<'_>, source: &str) -> Vec<String> {
    let paths: Vec<String> = elements(annotation, source)
        .into_iter()
        .filter(|(key, _)| key == "value" || key == "path")
        .flat_map(|(_, value)| strings(value, source))
        .collect();
    if paths.is_empty() {
        vec![String::new()]
    } else {
        paths
    }
}

/// The annotations in a declaration's modifiers.
fn annotations_of(declaration: Node<'_>) -> Vec<Node<'_>> {
    named_children(declaration)
        .into_iter()
        .filter(|child| child.kind() == "modifiers")
        .flat_map(named_children)
        .filter(|child| matches!(child.kind(), "annotation" | "marker_annotation"))
        .collect()
}

fn annotation_name<'source>(annotation: Node<'_>, source: &'source str) -> &'source str {
    annotation
        .child_field("name")
        .map(|name| syntax::text(name, source))
        .unwrap_or_default()
}

fn handler_facts(
    factory: &FactFactory<'_>,
    hit: &QueryHit<'_>,
    file: &FileSyntax<'_, '_>,
) -> Vec<Fact> {
    let source = file.source;
    let Some(annotation) = hit.node(Field::Decorator) else {
        return Vec::new();
    };
    let Some(method) = annotation
        .parent()
        .and_then(|modifiers| modifiers.parent())
        .filter(|declaration| declaration.kind() == "method_declaration")
    else {
        return Vec::new();
    };
    let Some(class) = method.parent().and_then(|body| body.parent()) else {
        return Vec::new();
    };
    let (Some(class_name), Some(method_name)) = (
        class
            .child_field("name")
            .map(|name| syntax::text(name, source)),
        method
            .child_field("name")
            .map(|name| syntax::text(name, source)),
    ) else {
        return Vec::new();
    };
    let name = annotation_name(annotation, source);
    let verbs: Vec<String> = match name.strip_suffix("Mapping") {
        Some("Request") => {
            let verbs: Vec<String> = elements(annotation, source)
                .into_iter()
                .filter(|(key, _)| key == "method")
                .flat_map(|(_, value)| match value.kind() {
                    "element_value_array_initializer" => named_children(value),
                    _ => vec![value],
                })
                .map(|verb| {
                    let text = syntax::text(verb, source);
                    text.rsplit('.').next().unwrap_or(text).to_uppercase()
                })
                .collect();
            if verbs.is_empty() {
                vec!["*".to_owned()]
            } else {
                verbs
            }
        }
        Some(verb) => vec![verb.to_uppercase()],
        None => return Vec::new(),
    };
    // A Feign client interface declares the requests it makes, not routes it serves.
    if let Some(feign) = feign_client(class, source) {
        return verbs
            .iter()
            .flat_map(|verb| {
                mapping_paths(annotation, source)
                    .into_iter()
                    .map(|path| HttpCallSite {
                        node: annotation,
                        method: verb.clone(),
                        url: feign_url(&feign, &path),
                        is_static: true,
                        client: "Feign",
                        scope: (file.scope_of)(annotation),
                    })
                    .collect::<Vec<_>>()
            })
            .map(|site| web::http_call_fact(factory, &site))
            .collect();
    }
    let prefixes: Vec<String> = annotations_of(class)
        .into_iter()
        .find(|class_annotation| annotation_name(*class_annotation, source) == "RequestMapping")
        .map_or_else(
            || vec![String::new()],
            |mapping| mapping_paths(mapping, source),
        );
    let handler = format!("{class_name}.{method_name}");
    let data = handler_data(method, source);
    let mut facts = Vec::new();
    for verb in &verbs {
        for prefix in &prefixes {
            for path in mapping_paths(annotation, source) {
                let site = RouteSite {
                    node: annotation,
                    method: verb.clone(),
                    path: join_path(&[prefix, &path]),
                    framework: "spring",
                    handler: Some(handler.clone()),
                    scope: (file.scope_of)(annotation),
                };
                facts.push(web::route_fact(factory, &site));
            }
        }
        facts.extend(web::performs_facts(
            factory, annotation, &handler, verb, &data,
        ));
    }
    facts
}

/// What a Spring Cloud OpenFeign client interface (`@FeignClient(name = "inventory",
/// url = "…", path = "/api")`) puts before its methods' paths.
pub(crate) struct FeignClient {
    /// Its `url`, when a literal; a property placeholder (`${inventory.url}`) or none leaves the
    /// base URL to the configuration.
    pub url: Option<String>,
    /// Its `path`.
    pub path: String,
}

/// The `@FeignClient` of an interface.
fn feign_client(class: Node<'_>, source: &str) -> Option<FeignClient> {
    if class.kind() != "interface_declaration" {
        return None;
    }
    let annotation = annotations_of(class).into_iter().find(|annotation| {
        let name = annotation_name(*annotation, source);
        name == "FeignClient" || name.ends_with(".FeignClient")
    })?;
    let element = |key: &str| {
        elements(annotation, source)
            .into_iter()
            .find(|(name, _)| name == key)
            .and_then(|(_, value)| string_value(value, source))
    };
    Some(FeignClient {
        url: element("url").filter(|url| is_literal_url(url)),
        path: element("path").unwrap_or_default(),
    })
}

/// Whether a Feign client's `url` is a URL rather than a property placeholder (`${x.url}`, which
/// Kotlin writes `\${x.url}` and lintel reads as a `{…}` hole).
pub(crate) fn is_literal_url(url: &str) -> bool {
    !url.contains('{') && !url.is_empty()
}

/// The URL of a Feign client method's request: the client's literal `url`, its `path`, then the
/// method's path (`/api` + `/items/{id}`); without a literal `url`, a path from the root of the
/// configured base URL.
pub(crate) fn feign_url(client: &FeignClient, path: &str) -> String {
    let path = join_path(&[&client.path, path]);
    match &client.url {
        Some(url) => format!("{}{path}", url.trim_end_matches('/')),
        None => path,
    }
}

/// The candidate data types of a handler: its parameters' types, then its return type.
fn handler_data(method: Node<'_>, source: &str) -> Vec<String> {
    let parameters = method
        .child_field("parameters")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|parameter| parameter.kind() == "formal_parameter")
        .filter_map(|parameter| parameter.child_field("type"));
    let returned = method.child_field("type");
    parameters
        .chain(returned)
        .filter_map(|type_node| web::data_type(syntax::text(type_node, source)))
        .collect()
}

/// The role facts of a role annotation (`crate::lang::jvm::roles`); one whose values name
/// constants waits for the Java type index.
fn role_facts<'tree>(
    factory: &FactFactory<'_>,
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
    out: &mut Output<'tree>,
) {
    let source = file.source;
    let Some(annotation) = hit.node(Field::Decorator) else {
        return;
    };
    let name = annotation_name(annotation, source);
    let values: Vec<Vec<Operand>> = elements(annotation, source)
        .into_iter()
        .filter(|(key, _)| key == "value")
        .flat_map(|(_, value)| match value.kind() {
            "element_value_array_initializer" => named_children(value),
            _ => vec![value],
        })
        .filter_map(|value| roles::operands(value, source))
        .collect();
    let names_constant = values
        .iter()
        .flatten()
        .any(|operand| matches!(operand, Operand::Name(_)));
    if names_constant {
        let node = out
            .anchors
            .with_scope(annotation, (file.scope_of)(annotation));
        out.defer(Box::new(roles::PendingRoles {
            node,
            annotation: name.to_owned(),
            values,
        }));
        return;
    }
    let construct = format!("`@{name}`");
    for (role, _) in roles::roles(name, &values, &|_| None) {
        out.facts.push(web::role_fact(
            factory,
            annotation,
            &role,
            &construct,
            (file.scope_of)(annotation),
        ));
    }
}

/// The `final String` fields of a Java file with a literal value (`static final String BASE =
/// "http://orders/api"`); a name declared twice is left out.
fn string_constants(root: Node<'_>, source: &str) -> BTreeMap<String, String> {
    let mut bindings = Vec::new();
    for field in syntax::descendants(root).filter(|node| node.kind() == "field_declaration") {
        let is_final = named_children(field)
            .into_iter()
            .filter(|child| child.kind() == "modifiers")
            .any(|modifiers| has_final(modifiers, source));
        let is_string = field.child_field("type").is_some_and(|kind| {
            matches!(syntax::text(kind, source), "String" | "java.lang.String")
        });
        if !(is_final && is_string) {
            continue;
        }
        bindings.extend(
            named_children(field)
                .into_iter()
                .filter(|child| child.kind() == "variable_declarator")
                .filter_map(|declarator| {
                    let name = declarator.child_field("name")?;
                    Some((
                        syntax::text(name, source).to_owned(),
                        declarator
                            .child_field("value")
                            .and_then(|value| string_value(value, source)),
                    ))
                }),
        );
    }
    web::constants_bound_once(bindings)
}

/// Whether a `modifiers` node holds `final`.
fn has_final(modifiers: Node<'_>, source: &str) -> bool {
    let mut cursor = modifiers.walk();
    let found = modifiers
        .children(&mut cursor)
        .any(|modifier| syntax::text(modifier, source) == "final");
    found
}

fn http_call<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
    constants: &mut Option<BTreeMap<String, String>>,
) -> Option<HttpCallSite<'tree>> {
    let source = file.source;
    let call = hit.node(Field::Call)?;
    let name = syntax::text(hit.node(Field::Method)?, source);
    if matches!(call.kind(), "annotation" | "marker_annotation") {
        if name.ends_with("Exchange") {
            return exchange_call(call, name, file);
        }
        return retrofit_call(call, name, hit.node(Field::Arguments), file);
    }
    if name == "newBuilder" {
        return java_net_request(call, file, constants);
    }
    let arguments: Vec<Node<'_>> = named_children(hit.node(Field::Arguments)?)
        .into_iter()
        .filter(|argument| !argument.kind().contains("comment"))
        .collect();
    let url = web::with_lazy_constants(url_value(*arguments.first()?, source)?, constants, || {
        string_constants(file.root, source)
    });
    let (method, client) = if let Some(verb) = hit.node(Field::Function) {
        (syntax::text(verb, source).to_uppercase(), "WebClient")
    } else {
        let method = match name {
            "put" => "PUT".to_owned(),
            "delete" => "DELETE".to_owned(),
            "patchForObject" => "PATCH".to_owned(),
            "exchange" => arguments
                .get(1)
                .map(|verb| {
                    let text = syntax::text(*verb, source);
                    text.rsplit('.').next().unwrap_or(text).to_uppercase()
                })
                .unwrap_or_else(|| "*".to_owned()),
            getter if getter.starts_with("get") => "GET".to_owned(),
            _ => "POST".to_owned(),
        };
        (method, "RestTemplate")
    };
    let receiver = syntax::text(hit.node(Field::Receiver)?, source);
    let is_client = if hit.node(Field::Function).is_some() {
        let receiver = receiver.to_lowercase();
        ["rest", "template", "client", "web"]
            .iter()
            .any(|word| receiver.contains(word))
    } else {
        names_a_rest_client(receiver)
    };
    // `put` and `delete` are also a map's, a cache's, a store's: on another receiver only a
    // URL makes the call a request (`templateParam.put("instance", …)`, `map.put("httpVersion",
    // …)` are none).
    let is_url = url.starts_with('/') || url.starts_with("http://") || url.starts_with("https://");
    if !is_client && !is_url {
        return None;
    }
    Some(HttpCallSite {
        node: call,
        method,
        url,
        is_static: true,
        client,
        scope: (file.scope_of)(call),
    })
}

/// Whether a RestTemplate call's receiver names a client: one of its segments (`this.rest`,
/// `getRestTemplate()`) ends in the word `rest`, `template`, `client` or `web` (`restTemplate`,
/// `restClient`, `REST_TEMPLATE`), not merely holds it (`templateParam`, `clientIds`).
fn names_a_rest_client(receiver: &str) -> bool {
    receiver.split('.').any(|segment| {
        let name = segment.split('(').next().unwrap_or(segment).trim();
        // The last word of a `snake_case` or `UPPER_CASE` name, else of a `camelCase` one.
        let piece = name
            .rsplit('_')
            .find(|piece| !piece.is_empty())
            .unwrap_or(name);
        let last_word = if piece.chars().any(char::is_lowercase) {
            piece
                .char_indices()
                .rev()
                .find(|(_, c)| c.is_uppercase())
                .map_or(piece, |(at, _)| &piece[at..])
        } else {
            piece
        };
        ["rest", "template", "client", "web"].contains(&last_word.to_lowercase().as_str())
    })
}

/// A request of a Spring HTTP interface: `@GetExchange("/x")` (`Post`, `Put`, `Patch`,
/// `Delete`; `@HttpExchange(method = "GET", value = "/x")`) on a method of an interface, under
/// the interface's own `@HttpExchange("/base")` (its `value` or `url`); client `HttpExchange`.
fn exchange_call<'tree>(
    annotation: Node<'tree>,
    name: &str,
    file: &FileSyntax<'_, 'tree>,
) -> Option<HttpCallSite<'tree>> {
    let source = file.source;
    let interface = syntax::interface_of_method_marker(annotation)?;
    let element = |annotation: Node<'_>, keys: &[&str]| {
        elements(annotation, source)
            .into_iter()
            .find(|(key, _)| keys.contains(&key.as_str()))
            .and_then(|(_, value)| string_value(value, source))
    };
    let verb = match name.strip_suffix("Exchange")? {
        "Http" => element(annotation, &["method"])
            .map_or_else(|| "*".to_owned(), |verb| verb.to_uppercase()),
        verb => verb.to_uppercase(),
    };
    let path = element(annotation, &["value", "url"]).unwrap_or_default();
    let base = annotations_of(interface)
        .into_iter()
        .find(|outer| annotation_name(*outer, source) == "HttpExchange")
        .and_then(|outer| element(outer, &["value", "url"]))
        .unwrap_or_default();
    Some(HttpCallSite {
        node: annotation,
        method: verb,
        url: join_path(&[&base, &path]),
        is_static: true,
        client: "HttpExchange",
        scope: (file.scope_of)(annotation),
    })
}

/// The arguments of a call, comments left out.
fn call_arguments(call: Node<'_>) -> Vec<Node<'_>> {
    call.child_field("arguments")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|argument| !argument.kind().contains("comment"))
        .collect()
}

/// A `java.net.http` request: `HttpRequest.newBuilder(uri)` and the calls chained on it —
/// `.uri(uri)`, `.GET()`, `.POST(…)`, `.PUT(…)`, `.DELETE()`, `.method("PATCH", …)` — where the
/// URI is `URI.create("…")` or `new URI("…")` with a string URL; the method GET unless a call
/// names another. Client `HttpClient`, at the `newBuilder` call.
fn java_net_request<'tree>(
    call: Node<'tree>,
    file: &FileSyntax<'_, 'tree>,
    constants: &mut Option<BTreeMap<String, String>>,
) -> Option<HttpCallSite<'tree>> {
    let source = file.source;
    let uri = |node: Node<'tree>| -> Option<Node<'tree>> {
        let inner = match node.kind() {
            "method_invocation" => {
                let owner = node.child_field("object")?;
                let name = node.child_field("name")?;
                (syntax::text(owner, source) == "URI" && syntax::text(name, source) == "create")
                    .then_some(())?;
                call_arguments(node)
            }
            "object_creation_expression" => {
                let kind = node.child_field("type")?;
                (syntax::text(kind, source) == "URI").then_some(())?;
                call_arguments(node)
            }
            _ => return None,
        };
        inner.first().copied()
    };
    let mut url = call_arguments(call)
        .first()
        .and_then(|argument| uri(*argument));
    let mut method = "GET".to_owned();
    let mut current = call;
    while let Some(parent) = current.parent().filter(|parent| {
        parent.kind() == "method_invocation"
            && parent
                .child_field("object")
                .is_some_and(|object| object.id() == current.id())
    }) {
        let name = parent
            .child_field("name")
            .map(|name| syntax::text(name, source))
            .unwrap_or_default();
        let arguments = call_arguments(parent);
        match name {
            "uri" => {
                url = arguments
                    .first()
                    .and_then(|argument| uri(*argument))
                    .or(url)
            }
            "GET" | "POST" | "PUT" | "DELETE" | "HEAD" => name.clone_into(&mut method),
            "method" => {
                method = arguments
                    .first()
                    .and_then(|verb| string_value(*verb, source))
                    .map_or_else(|| "*".to_owned(), |verb| verb.to_uppercase());
            }
            _ => {}
        }
        current = parent;
    }
    let url = web::with_lazy_constants(url_value(url?, source)?, constants, || {
        string_constants(file.root, source)
    });
    Some(HttpCallSite {
        node: call,
        method,
        url,
        is_static: true,
        client: "HttpClient",
        scope: (file.scope_of)(call),
    })
}

/// A Retrofit request in a file importing `retrofit2`: `@GET("x")`, `@HTTP(method = "DELETE",
/// path = "x")`, or a verb without a path on a method with a `@Url` parameter (a dynamic URL,
/// `{name}`, no path).
fn retrofit_call<'tree>(
    annotation: Node<'tree>,
    name: &str,
    arguments: Option<Node<'_>>,
    file: &FileSyntax<'_, 'tree>,
) -> Option<HttpCallSite<'tree>> {
    let source = file.source;
    if !imports_retrofit(file.root, source) {
        return None;
    }
    let pairs: Vec<(String, Node<'_>)> = arguments
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|argument| {
            if argument.kind() == "element_value_pair" {
                let key = argument.child_field("key")?;
                let value = argument.child_field("value")?;
                Some((syntax::text(key, source).to_owned(), value))
            } else if argument.kind().contains("comment") {
                None
            } else {
                Some(("value".to_owned(), argument))
            }
        })
        .collect();
    let value_of = |wanted: &str| {
        pairs
            .iter()
            .find(|(key, _)| key == wanted)
            .and_then(|(_, value)| string_value(*value, source))
    };
    let (method, url) = if name == "HTTP" {
        (value_of("method")?.to_uppercase(), value_of("path"))
    } else {
        (name.to_owned(), value_of("value"))
    };
    let (url, is_static) = match url.filter(|url| !url.is_empty()) {
        Some(url) => (url, true),
        None => (format!("{{{}}}", url_parameter(annotation, source)?), false),
    };
    Some(HttpCallSite {
        node: annotation,
        method,
        url,
        is_static,
        client: "retrofit",
        scope: (file.scope_of)(annotation),
    })
}

/// Whether the file imports from `retrofit2`.
fn imports_retrofit(root: Node<'_>, source: &str) -> bool {
    named_children(root)
        .into_iter()
        .filter(|node| node.kind() == "import_declaration")
        .any(|import| {
            named_children(import)
                .into_iter()
                .any(|name| syntax::text(name, source).starts_with("retrofit2."))
        })
}

/// The name of the `@Url` parameter of the method an annotation is on.
fn url_parameter(annotation: Node<'_>, source: &str) -> Option<String> {
    let method = annotation
        .parent()
        .filter(|modifiers| modifiers.kind() == "modifiers")?
        .parent()
        .filter(|method| method.kind() == "method_declaration")?;
    let parameters = method.child_field("parameters")?;
    named_children(parameters)
        .into_iter()
        .filter(|parameter| parameter.kind() == "formal_parameter")
        .find(|parameter| {
            named_children(*parameter)
                .into_iter()
                .filter(|child| child.kind() == "modifiers")
                .flat_map(named_children)
                .any(|modifier| {
                    modifier.kind().ends_with("annotation")
                        && modifier
                            .child_field("name")
                            .is_some_and(|name| syntax::text(name, source) == "Url")
                })
        })
        .and_then(|parameter| parameter.child_field("name"))
        .map(|name| syntax::text(name, source).to_owned())
}

/// A URL argument: a string literal, or a `+` concatenation of literals and other operands
/// (`crate::facts::web::concatenated_url`); a leading hole is the base URL.
fn url_value<'tree>(node: Node<'tree>, source: &str) -> Option<String> {
    let plus = |node: Node<'tree>| web::plus_operands(node, source);
    web::concatenated_url(node, source, &|part| string_value(part, source), &plus)
}

#[cfg(test)]
mod tests {
    use crate::lang::jvm::roles::expression_roles;

    #[test]
    fn expression_roles_reads_role_and_authority_checks() {
        assert_eq!(
            expression_roles("hasRole('ADMIN') or hasAnyRole('A', \"B\") and isAuthenticated()"),
            ["ADMIN", "A", "B"]
        );
        assert_eq!(expression_roles("hasAuthority('ROLE_X')"), ["ROLE_X"]);
        assert!(expression_roles("permitAll()").is_empty());
    }
}
