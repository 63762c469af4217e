//! `http_call` facts: requests made with the global `fetch`, `node-fetch`, `undici`, `axios`,
//! `got`, `ky` and `superagent` (`request.del` is its DELETE, `request('PUT', url)` names its
//! method), directly or through an instance (`const api = axios.create(…)`, `ky.create(…)`,
//! `api.extend(…)`, `superagent.agent()`; `api.get('/x')`, after axios's `baseURL` or ky's
//! `prefixUrl`),
//! SWR's `useSWR(key, fetcher)` (and `swr/immutable`'s), a GET of its key when the key is a URL
//! (`swr/mutation`'s `useSWRMutation(key, trigger)`, a request of any method),
//! and with Angular's `HttpClient` where a file injects it (`constructor(private http: HttpClient)`,
//! `http = inject(HttpClient)`; `this.http.get<T>('/x')`, `this.http.request('PATCH', url)`),
//! client `HttpClient`.
//!
//! The method comes from the verb (`axios.post`), else from the options object (`{ method: 'PUT' }`,
//! `*` when it is not a literal), else `GET`. The URL is the argument as written; `path` is set
//! when the URL's path is known: a literal absolute URL or `/path`, a template or concatenation
//! whose text after a leading dynamic base starts with `/` (`${API}/orders/${id}` →
//! `/orders/{}`). Dynamic segments normalise to `{}` (`route_path`).

mod instances;
mod own_origin;
mod wrappers;

pub(crate) use instances::instance_client;
use instances::*;
use wrappers::*;

use policies::facts::{Confidence, Fact, FactKind};
use tree_sitter::Node;

use super::clients::{instance_key, is_global_fetch, Instances};
use super::imports::bindings::Imported;
use super::literals::{
    arguments, field_initializer, interpolated_with, object_property, returned_by_method,
    static_string, Constants, Interpolated, DYNAMIC,
};
use super::FileView;
use crate::facts::set;
use crate::facts::web::joined_url;
use crate::query::{Field, QueryHit};
use crate::resolve::context::Resolution;
use crate::resolve::links::{
    ClientInstance, InstanceRequest, RequestWrapper, RouterRef, UrlConstant, WrapperArgument,
    WrapperCall, WrapperMethod,
};
use crate::syntax::ChildField;
use crate::{facts::route_path, syntax};
use std::borrow::Cow;
use std::collections::HashMap;

/// Where a request's URL and method are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// `fetch(url, { method })`: method in the second argument, `GET` by default.
    UrlThenOptions,
    /// `axios.get(url)`: the method is the verb.
    Verb(&'static str),
    /// `axios(url, config)` or `axios({ url, method })` (request's `request({ uri, method })`).
    UrlOrConfig,
    /// Angular's `http.request('POST', url)`: the method, then the URL.
    MethodThenUrl,
    /// superagent's `request('POST', url)`, or `request(url)` for a GET.
    MethodThenUrlOrUrl,
    /// SWR's `useSWR(key, fetcher)`: a GET of the key when it is a URL ([`swr_key`]).
    Key,
    /// SWR's `useSWRMutation(key, trigger)`: a request of the key when it is a URL, its method
    /// the trigger's (`*`).
    MutationKey,
}

/// A recognised request function: the client name for the fact and where its arguments are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Request {
    client: &'static str,
    shape: Shape,
}

/// Reads the `http_call` facts of a file from the call matches.
pub(super) fn extract(
    view: &FileView<'_, '_>,
    hits: &[&QueryHit<'_>],
    instances: &Instances,
) -> Vec<Fact> {
    let source = view.source();
    let mut facts = Vec::new();
    let instances = file_instances(view, instances);
    let instances: &Instances = &instances;
    let (may_request, may_import_instance) = request_sources(view, instances);
    let hits = if may_request || may_import_instance {
        hits
    } else {
        &[]
    };
    // `const API = '/api'` … `fetch(`${API}/orders`)`: the path is `/api/orders`.
    let mut constants: Option<Constants<'_>> = None;
    let mut bases: Option<HashMap<String, Node<'_>>> = None;
    record_instances(view, instances, &mut bases, &mut constants);
    for hit in hits {
        let (Some(call), Some(function), Some(argument_list)) = (
            hit.node(Field::Call),
            hit.node(Field::Function),
            hit.node(Field::Arguments),
        ) else {
            continue;
        };
        // A request through a client instance another project file exports is kept for
        // `crate::resolve::links`, which makes it a fact once that file's instance is known.
        let classified = if may_request {
            classify(view, function, instances)
        } else {
            None
        };
        let (request, through) = match classified {
            Some(request) => (request, None),
            None => match imported_instance(view, function) {
                Some((instance, member, verb)) => {
                    // `api.get(…)` may as well call a member of an exported object of request
                    // wrappers: `crate::resolve::links` keeps whichever the other file has.
                    record_wrapper_call(view, call, function, argument_list, &mut constants);
                    (
                        Request {
                            client: "",
                            shape: Shape::Verb(verb),
                        },
                        Some((instance, member)),
                    )
                }
                None => {
                    record_wrapper_call(view, call, function, argument_list, &mut constants);
                    continue;
                }
            },
        };
        let arguments = arguments(argument_list);
        let Some(&first) = arguments.first() else {
            continue;
        };
        let (url_node, method) = url_and_method(request.shape, &arguments, first, source);
        let Some(url_node) = url_node else {
            continue;
        };
        let constants =
            constants.get_or_insert_with(|| file_constants(view.input.tree.root_node(), source));
        // An instance's `baseURL` comes before a URL that is not absolute.
        let base = receiver_of(function, source)
            .and_then(|receiver| {
                bases
                    .get_or_insert_with(|| instance_bases(view))
                    .get(&receiver)
                    .copied()
            })
            .and_then(|base| Some((base, base_value(base, source, constants)?)));
        if through.is_none() {
            record_wrapper(
                view,
                call,
                url_node,
                wrapper_method(request.shape, &arguments, source),
                (request.client, base.as_ref().map(|(_, base)| base)),
                constants,
            );
        }
        let on_own_origin = own_origin::built_on_own_origin(url_node, source);
        // `this.http.get(this.getResourceUrl(id))`: the URL the class's method returns, when it
        // is a string, template or concatenation the file reads.
        let url_node = returned_by_method(url_node, source)
            .filter(|returned| interpolated_with(*returned, source, constants).is_some())
            .unwrap_or(url_node);
        let interpolated = interpolated_with(url_node, source, constants);
        let url_text = interpolated.as_ref().map(|value| value.text.clone());
        let (url, path, text) = url_and_path(interpolated, base.as_ref(), url_node, source);
        let mut fact = request_fact(view, call, &method, &url, path, text, request.client);
        if on_own_origin && !url.starts_with('/') {
            set(&mut fact, "relativeUrl", true);
        }
        record_url_constants(view, call, url_node, constants);
        if let Some((instance, member)) = through {
            if let Ok(mut shared) = view.input.links.try_borrow_mut() {
                shared.instance_requests.push(InstanceRequest {
                    instance,
                    member,
                    url_text,
                    fact,
                });
            }
            continue;
        }
        set(&mut fact, "client", request.client);
        facts.push(fact);
        if let Some((base, _)) = base {
            record_url_constants(view, call, base, constants);
        }
    }
    // The names other files import the file's instances and wrappers under (once a file).
    if let Ok(mut shared) = view.input.links.try_borrow_mut() {
        let exported = !shared.instances.is_empty() || !shared.wrappers.is_empty();
        if exported && shared.exports.is_empty() {
            shared.exports = super::mounts::exports(view);
        }
    }
    facts
}

/// The file's client instances: `instances`, with Angular's injected `HttpClient`s
/// (`constructor(private http: HttpClient)`, `http = inject(HttpClient)`) and the instances the
/// file makes (`const api = ky.create({ prefixUrl })`, `api.extend(…)`, `superagent.agent()`).
fn file_instances<'i>(view: &FileView<'_, '_>, instances: &'i Instances) -> Cow<'i, Instances> {
    let angular = angular_instances(view);
    let made = made_instances(view);
    if angular.is_empty() && made.is_empty() {
        return Cow::Borrowed(instances);
    }
    let mut all = instances.clone();
    for key in angular {
        all.entry(key).or_insert(ANGULAR_HTTP);
    }
    for (key, package) in made {
        all.entry(key).or_insert(package);
    }
    Cow::Owned(all)
}

/// Whether the file's calls may be requests: (through the global `fetch`, a client instance or
/// an import of a request package; through an instance a project file it imports may export).
/// With neither, no call needs reading.
fn request_sources(view: &FileView<'_, '_>, instances: &Instances) -> (bool, bool) {
    let may_request = view.source().contains("fetch")
        || !instances.is_empty()
        || view.imports.iter().any(|record| {
            record
                .external_package()
                .is_some_and(|package| REQUEST_PACKAGES.contains(&package))
        });
    let may_import_instance = view
        .imports
        .iter()
        .any(|record| !record.is_type_only && matches!(record.resolution, Resolution::File(_)));
    (may_request, may_import_instance)
}

/// The `http_call` fact of a request (its `client` is set later when the request goes through
/// another file's instance). `text` is the URL as read, with the file's constants and the
/// instance's base filled in: relative there, the request calls its own origin (`relativeUrl`);
/// absolute and unlike `url` as written, it is the `resolvedUrl` that `urls` globs bind.
fn request_fact(
    view: &FileView<'_, '_>,
    call: Node<'_>,
    method: &str,
    url: &str,
    path: Option<String>,
    text: Option<String>,
    client: &str,
) -> Fact {
    let shown = path.as_deref().unwrap_or(url);
    let mut fact = view.factory.fact(
        FactKind::HttpCall,
        call,
        Confidence::Definite,
        view.scope_of(call),
        format!("http call `{method} {shown}` via `{}`", client),
    );
    set(&mut fact, "method", method);
    set(&mut fact, "url", syntax::truncate(url, 120));
    if let Some(text) = text {
        note_url_text(&mut fact, url, &text);
    }
    if let Some(path) = path {
        set(&mut fact, "path", path);
    }
    let names = view.factory.url_configuration_names(url);
    if !names.is_empty() {
        set(&mut fact, "urlFrom", names);
    }
    fact
}

/// Where a request's URL is among its `arguments` (`first` is the first of them), and its
/// method.
fn url_and_method<'tree>(
    shape: Shape,
    arguments: &[Node<'tree>],
    first: Node<'tree>,
    source: &str,
) -> (Option<Node<'tree>>, String) {
    match shape {
        Shape::UrlThenOptions => (Some(first), method_from(arguments.get(1).copied(), source)),
        Shape::Verb(verb) => (Some(first), verb.to_uppercase()),
        Shape::UrlOrConfig if first.kind() == "object" => (
            object_property(first, "url", source).or_else(|| object_property(first, "uri", source)),
            method_from(Some(first), source),
        ),
        Shape::UrlOrConfig => (Some(first), method_from(arguments.get(1).copied(), source)),
        Shape::MethodThenUrl => (
            arguments.get(1).copied(),
            static_string(first, source)
                .map_or_else(|| "*".to_owned(), |method| method.to_uppercase()),
        ),
        Shape::Key => (swr_key(first, source), "GET".to_owned()),
        Shape::MutationKey => (swr_key(first, source), "*".to_owned()),
        // superagent's `request('POST', url)`; `request(url)` and `request(url, callback)`
        // are GETs.
        Shape::MethodThenUrlOrUrl => match arguments.get(1) {
            Some(second) if !is_function(*second) => (
                Some(*second),
                static_string(first, source)
                    .map_or_else(|| "*".to_owned(), |method| method.to_uppercase()),
            ),
            _ => (Some(first), "GET".to_owned()),
        },
    }
}

/// The URL an SWR key names: the key, or the value a condition gives it (`id && `/api/x/${id}``,
/// `id ? `/api/x/${id}` : null`, the other branch `null` or `undefined`), when it is a string or
/// template that starts as a URL does (`/api/…`, `https://…`). Any other key names a cache
/// entry, whatever the fetcher does with it.
fn swr_key<'tree>(key: Node<'tree>, source: &str) -> Option<Node<'tree>> {
    let is_nothing = |node: Node<'_>| matches!(node.kind(), "null" | "undefined");
    let key = match key.kind() {
        "parenthesized_expression" => return swr_key(key.named_child(0)?, source),
        "binary_expression"
            if key
                .child_field("operator")
                .is_some_and(|operator| operator.kind() == "&&") =>
        {
            key.child_field("right")?
        }
        "ternary_expression" => {
            let (consequence, alternative) = (
                key.child_field("consequence")?,
                key.child_field("alternative")?,
            );
            match (is_nothing(consequence), is_nothing(alternative)) {
                (false, true) => consequence,
                (true, false) => alternative,
                _ => return None,
            }
        }
        _ => key,
    };
    if !matches!(key.kind(), "string" | "template_string") {
        return None;
    }
    let text = syntax::text(key, source);
    let body = text.get(1..).unwrap_or_default();
    (body.starts_with('/') || body.starts_with("http://") || body.starts_with("https://"))
        .then_some(key)
}

/// A request's URL as written (after the instance's `base`), its path when known, and its text
/// once the file's constants and the base are filled in (`${BASE}/api/x` with `const BASE = ''`,
/// `baseURL: ''` is `/api/x`, the code's own origin).
fn url_and_path(
    interpolated: Option<Interpolated>,
    base: Option<&(Node<'_>, Interpolated)>,
    url_node: Node<'_>,
    source: &str,
) -> (String, Option<String>, Option<String>) {
    match interpolated {
        Some(value) => {
            let (written, text) = based_url(
                base.map(|(_, base)| (base.written.as_str(), base.text.as_str())),
                value.written,
                Some(value.text),
            );
            let text = text.unwrap_or_default();
            let path = static_path(&text).or_else(|| base_named_path(&written, &text));
            (written, path, Some(text))
        }
        None => (syntax::compact_text(url_node, source, 120), None, None),
    }
}

/// What a request's URL `text` (its constants filled in) says beyond `url` as written: a
/// relative text calls the code's own origin (`relativeUrl`, when `url` does not show it), and
/// an absolute one with a known host that `url` does not spell is its `resolvedUrl`
/// (`${BASE}/x` with `const BASE = 'https://partner.example'`), which `urls` globs bind. Also
/// what `crate::resolve::links` notes once other files' constants fill a URL.
pub(crate) fn note_url_text(fact: &mut Fact, url: &str, text: &str) {
    use policies::facts::PropertyValue;
    if text.starts_with('/') && !text.starts_with("//") {
        if !url.starts_with('/') {
            fact.properties
                .insert("relativeUrl", PropertyValue::Bool(true));
        }
    } else if is_absolute(text)
        && has_static_host(text)
        && !(is_absolute(url) && has_static_host(url))
    {
        fact.properties.insert(
            "resolvedUrl",
            PropertyValue::from(syntax::truncate(text, 120).as_str()),
        );
    }
}

/// Whether an absolute URL text names its host without a substitution (`https://${HOST}/x`
/// and `https://${}/x` do not).
fn has_static_host(text: &str) -> bool {
    let after_scheme = text.split_once("//").map_or(text, |(_, rest)| rest);
    let host = after_scheme.split('/').next().unwrap_or_default();
    !host.is_empty() && !host.contains("${")
}

/// The instance a request is made through: `api` of `api.get(…)`.
fn receiver_of(function: Node<'_>, source: &str) -> Option<String> {
    (function.kind() == "member_expression").then_some(())?;
    Some(syntax::compact_text(
        function.child_field("object")?,
        source,
        120,
    ))
}

/// Whether a URL text is absolute (`https://…`), so no base URL comes before it.
fn is_absolute(text: &str) -> bool {
    text.starts_with("http://") || text.starts_with("https://") || text.starts_with("//")
}

/// A URL (as written, and as read for its path when known) after a client's base URL, as axios
/// and ky join them: the base first, one `/` between, unless the URL is absolute or not read.
/// Also what `crate::resolve::links` applies to requests made through another file's instance.
pub(crate) fn based_url(
    base: Option<(&str, &str)>,
    written: String,
    text: Option<String>,
) -> (String, Option<String>) {
    match (base, text) {
        (Some((base_written, base_text)), Some(text)) if !is_absolute(&text) => (
            joined_url(base_written, &written),
            Some(joined_url(base_text, &text)),
        ),
        (_, text) => (written, text),
    }
}

/// The value of a client's base URL node: a string or template, else a name (of another file's
/// constant, or an environment variable) as a dynamic base that `crate::resolve::links` may fill in.
/// The constants a file's URLs read: its top-level ones, and the `const`s of the function or
/// block where a name is read.
fn file_constants<'tree>(root: Node<'tree>, source: &str) -> Constants<'tree> {
    Constants::of(root, source).with_locals(root, source, super::traced::local_const)
}

fn base_value(base: Node<'_>, source: &str, constants: &Constants<'_>) -> Option<Interpolated> {
    interpolated_with(base, source, constants).or_else(|| {
        matches!(base.kind(), "identifier" | "member_expression").then(|| Interpolated {
            written: format!("${{{}}}", syntax::text(base, source)),
            text: DYNAMIC.to_owned(),
        })
    })
}

/// Notes, for `crate::resolve::links`, the substitutions of a request's URL that name a constant another
/// project file exports (`${API_URL}/orders`, `cfg.API_URL + '/x'` with `API_URL` or `cfg`
/// imported from it), with the name it is exported under.
fn record_url_constants(
    view: &FileView<'_, '_>,
    call: Node<'_>,
    url: Node<'_>,
    constants: &Constants<'_>,
) {
    let source = view.source();
    // Each read with whether it is a template's substitution (known from the walk: asking a
    // node for its parent walks down from the root, quadratic in a long `+` chain).
    let mut reads = Vec::new();
    let mut pending = vec![(url, false)];
    while let Some((node, substituted)) = pending.pop() {
        match node.kind() {
            "template_string" | "binary_expression" | "parenthesized_expression" => {
                pending.extend(
                    syntax::named_children(node)
                        .into_iter()
                        .map(|child| (child, false)),
                );
            }
            "template_substitution" => pending.extend(
                syntax::named_children(node)
                    .into_iter()
                    .filter(|inner| matches!(inner.kind(), "identifier" | "member_expression"))
                    .map(|inner| (inner, true)),
            ),
            "identifier" | "member_expression" => reads.push((node, substituted)),
            _ => {}
        }
    }
    let (line, column) = syntax::start_position(call, source);
    let mut found: Vec<UrlConstant> = Vec::new();
    let mut known: Vec<UrlConstant> = Vec::new();
    for (node, substituted) in reads {
        let written = if substituted {
            syntax::text(node, source).to_owned()
        } else {
            syntax::compact_text(node, source, 80)
        };
        // A class field read as `this.baseUrl` stands for its initial value.
        let (constant, suffix) = field_constant(node, source).unwrap_or((node, String::new()));
        let imported = view.bindings.resolve(constant, source).and_then(|target| {
            match &view.imports.get(target.import)?.resolution {
                Resolution::File(file) => Some((file.clone(), target.export_path)),
                _ => None,
            }
        });
        let Some((file, name)) = imported else {
            // A value the file knows (`${this.resourceName}`, `resourceName = 'tags'`) goes in
            // with another file's constants.
            if let Some(value) = constants.known(node, source) {
                known.push(UrlConstant {
                    line,
                    column,
                    written,
                    constant: RouterRef::Local(String::new()),
                    suffix: String::new(),
                    value: Some(value),
                });
            }
            continue;
        };
        found.push(UrlConstant {
            line,
            column,
            written,
            constant: RouterRef::Imported { file, name },
            suffix,
            value: None,
        });
    }
    if !found.is_empty() {
        found.extend(known);
        if let Ok(mut shared) = view.input.links.try_borrow_mut() {
            shared.url_constants.extend(found);
        }
    }
}

/// The name a class field read as `this.x` is initialised with, and the string its initialiser
/// appends: `private baseUrl = environment.apiUrl + 'config/'` gives `environment.apiUrl` and
/// `config/` (see [`field_initializer`]).
fn field_constant<'tree>(node: Node<'tree>, source: &str) -> Option<(Node<'tree>, String)> {
    let value = field_initializer(node, source)?;
    match value.kind() {
        "identifier" | "member_expression" => Some((value, String::new())),
        "binary_expression"
            if value
                .child_field("operator")
                .is_some_and(|operator| operator.kind() == "+") =>
        {
            let left = value.child_field("left")?;
            let suffix = static_string(value.child_field("right")?, source)?;
            matches!(left.kind(), "identifier" | "member_expression").then_some((left, suffix))
        }
        _ => None,
    }
}

/// The path of a URL as a request fact writes it (`https://host/api/${id}` → `/api/{}`; a
/// leading substitution is the base URL), after [`crate::resolve::links`] put constants of other files in.
pub(crate) fn url_path(url: &str) -> Option<String> {
    let mut text = String::new();
    let mut rest = url;
    while let Some(start) = rest.find("${") {
        text.push_str(rest.get(..start).unwrap_or_default());
        text.push_str(DYNAMIC);
        let after = rest.get(start..).unwrap_or_default();
        rest = after
            .find('}')
            .and_then(|end| after.get(end + 1..))
            .unwrap_or("");
    }
    text.push_str(rest);
    static_path(&text)
}

/// Recognises a request function by binding, by instance, or as the global `fetch`.
fn classify(view: &FileView<'_, '_>, function: Node<'_>, instances: &Instances) -> Option<Request> {
    let source = view.source();
    if is_global_fetch(view, function) {
        return Some(Request {
            client: "fetch",
            shape: Shape::UrlThenOptions,
        });
    }
    if let Some(target) = view.bindings.resolve(function, source) {
        let record = view.imports.get(target.import)?;
        let package = record.external_package()?;
        // SWR's hooks by entry point: `swr` and `swr/immutable` fetch their key;
        // `swr/mutation` sends it with whatever method its trigger function uses; the others
        // (`swr/infinite` takes a key function, `swr/subscription` subscribes) are no request.
        if package == "swr" {
            let shape = match record.specifier.as_str() {
                "swr" | "swr/immutable" => Shape::Key,
                "swr/mutation" => Shape::MutationKey,
                _ => return None,
            };
            return (target.export_path == "default").then_some(Request {
                client: "swr",
                shape,
            });
        }
        return package_request(package, &target.export_path);
    }
    let (receiver, export_path) = match function.kind() {
        "member_expression" => (
            syntax::compact_text(function.child_field("object")?, source, 120),
            syntax::text(function.child_field("property")?, source),
        ),
        _ => (syntax::compact_text(function, source, 120), "default"),
    };
    let package = instances.get(&receiver)?;
    package_request(package, export_path)
}

/// The packages [`package_request`] knows.
const REQUEST_PACKAGES: [&str; 10] = [
    "node-fetch",
    "undici",
    "axios",
    "got",
    "ky",
    "superagent",
    "swr",
    "request",
    "request-promise",
    "request-promise-native",
];

fn package_request(package: &str, export_path: &str) -> Option<Request> {
    let (client, shape) = match (package, export_path) {
        (ANGULAR_HTTP, "request") => ("HttpClient", Shape::MethodThenUrl),
        (ANGULAR_HTTP, verb) if is_http_verb(verb) => {
            ("HttpClient", Shape::Verb(static_verb(verb)?))
        }
        ("node-fetch", "default") | ("undici", "fetch") => ("fetch", Shape::UrlThenOptions),
        ("undici", "request") => ("undici", Shape::UrlThenOptions),
        ("axios", "default" | "request") => ("axios", Shape::UrlOrConfig),
        ("axios", verb) if is_http_verb(verb) => ("axios", Shape::Verb(static_verb(verb)?)),
        ("got", "default") => ("got", Shape::UrlThenOptions),
        ("got", verb) if is_http_verb(verb) => ("got", Shape::Verb(static_verb(verb)?)),
        ("ky", "default") => ("ky", Shape::UrlThenOptions),
        ("ky", verb) if is_http_verb(verb) => ("ky", Shape::Verb(static_verb(verb)?)),
        // superagent's `request.del(url)` is its `delete`.
        ("superagent", "default") => ("superagent", Shape::MethodThenUrlOrUrl),
        ("superagent", "del") => ("superagent", Shape::Verb("delete")),
        ("superagent", verb) if is_http_verb(verb) => {
            ("superagent", Shape::Verb(static_verb(verb)?))
        }
        // request (and its promise wrappers): `request(url, options)` or `request({ uri,
        // method })`; `request.del(url)` is its `delete`.
        ("request" | "request-promise" | "request-promise-native", "default") => {
            ("request", Shape::UrlOrConfig)
        }
        ("request" | "request-promise" | "request-promise-native", "del") => {
            ("request", Shape::Verb("delete"))
        }
        ("request" | "request-promise" | "request-promise-native", verb) if is_http_verb(verb) => {
            ("request", Shape::Verb(static_verb(verb)?))
        }
        _ => return None,
    };
    Some(Request { client, shape })
}

fn static_verb(verb: &str) -> Option<&'static str> {
    ["get", "post", "put", "patch", "delete", "head", "options"]
        .into_iter()
        .find(|known| *known == verb)
}

/// The method in an options object: its literal `method`, `*` when not literal, else `GET`.
fn method_from(options: Option<Node<'_>>, source: &str) -> String {
    let Some(method) = options.and_then(|options| object_property(options, "method", source))
    else {
        return "GET".to_owned();
    };
    static_string(method, source).map_or_else(|| "*".to_owned(), |method| method.to_uppercase())
}

/// The path of a URL whose leading substitution names a host or base address glued to a path
/// segment (`${API_HOST}users/${id}`, as `facts::web` reads `{hostname}pets` in the other
/// languages): the base ends with `/`, and the path is `/users/{}`.
fn base_named_path(written: &str, text: &str) -> Option<String> {
    let name = written.strip_prefix("${")?.split('}').next()?;
    let rest = text.strip_prefix(DYNAMIC)?;
    (crate::facts::web::names_base(name) && crate::facts::web::starts_segment(rest))
        .then(|| static_path(&format!("/{rest}")))
        .flatten()
}

/// The normalised path of a URL text (dynamic parts marked), when it is known; also what
/// `crate::resolve::links` gives the requests it completes.
pub(crate) fn static_path(text: &str) -> Option<String> {
    let after_scheme = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"));
    let path = if let Some(after_scheme) = after_scheme {
        // `https://host${path}`: the path is all dynamic.
        let host = after_scheme.split('/').next().unwrap_or_default();
        if host.contains(DYNAMIC) && !after_scheme.starts_with(DYNAMIC) {
            return None;
        }
        after_scheme
            .find('/')
            .and_then(|index| after_scheme.get(index..))
            .unwrap_or("/")
    } else if text.starts_with('/') {
        text
    } else {
        // A leading dynamic base, written in one part or several (`${base}${prefix}/x`); after
        // several parts, a bare `/` (`${base}${id}/`) says nothing of the path: the later
        // parts may be segments.
        let rest = text.trim_start_matches(DYNAMIC);
        let parts = (text.len() - rest.len()) / DYNAMIC.len();
        let bare = rest.split(['?', '#']).next() == Some("/");
        Some(rest).filter(|rest| parts > 0 && rest.starts_with('/') && !(bare && parts > 1))?
    };
    // `/api${path}`: a dynamic end glued to a segment is the rest of the path, not a segment.
    let before_query = path.split(['?', '#']).next().unwrap_or_default();
    if let Some(head) = before_query.strip_suffix(DYNAMIC) {
        if !head.is_empty() && !head.ends_with('/') && !head.ends_with(DYNAMIC) {
            return None;
        }
    }
    Some(route_path::normalize(path))
}

/// Whether `name` is an HTTP verb method (`get`, `post`, …).
fn is_http_verb(name: &str) -> bool {
    ["get", "post", "put", "patch", "delete", "head", "options"].contains(&name)
}
