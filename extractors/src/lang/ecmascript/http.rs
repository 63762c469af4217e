//! `http_call` facts: requests made with the global `fetch`, `node-fetch`, `undici`, `axios`,
//! `got`, `ky` and `superagent` (`request.del` is its DELETE, `request('PUT', url)` names its
//! method), directly or through an instance (`const api = axios.create(…)`, `ky.create(…)`,
//! `api.extend(…)`, `superagent.agent()`; `api.get('/x')`, after axios's `baseURL` or ky's
//! `prefixUrl`), and
//! with Angular's `HttpClient` where a file injects it (`constructor(private http: HttpClient)`,
//! `http = inject(HttpClient)`; `this.http.get<T>('/x')`, `this.http.request('PATCH', url)`),
//! client `HttpClient`.
//!
//! The method comes from the verb (`axios.post`), else from the options object (`{ method: 'PUT' }`,
//! `*` when it is not a literal), else `GET`. The URL is the argument as written; `path` is set
//! when the URL's path is known: a literal absolute URL or `/path`, a template or concatenation
//! whose text after a leading dynamic base starts with `/` (`${API}/orders/${id}` →
//! `/orders/{}`). Dynamic segments normalise to `{}` (`route_path`).

use policies::facts::{Confidence, Fact, FactKind};
use tree_sitter::Node;

use super::bindings::Imported;
use super::clients::{instance_key, is_global_fetch, Instances};
use super::literals::{
    arguments, interpolated_with, object_property, static_string, Constants, Interpolated, DYNAMIC,
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
use std::collections::HashMap;

/// Where a request's URL and method are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// `fetch(url, { method })`: method in the second argument, `GET` by default.
    UrlThenOptions,
    /// `axios.get(url)`: the method is the verb.
    Verb(&'static str),
    /// `axios(url, config)` or `axios({ url, method })`.
    UrlOrConfig,
    /// Angular's `http.request('POST', url)`: the method, then the URL.
    MethodThenUrl,
    /// superagent's `request('POST', url)`, or `request(url)` for a GET.
    MethodThenUrlOrUrl,
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
    // Angular's `HttpClient`, injected (`constructor(private http: HttpClient)`,
    // `http = inject(HttpClient)`): its instances are request clients too.
    let angular = angular_instances(view);
    // `const api = ky.create({ prefixUrl })`, `api.extend(…)`, `superagent.agent()`.
    let made = made_instances(view);
    let with_more;
    let instances = if angular.is_empty() && made.is_empty() {
        instances
    } else {
        let mut all = instances.clone();
        for key in angular {
            all.entry(key).or_insert(ANGULAR_HTTP);
        }
        for (key, package) in made {
            all.entry(key).or_insert(package);
        }
        with_more = all;
        &with_more
    };
    // A request goes through the global `fetch`, a client instance or an import of a request
    // package (or of a project file, which may export an instance); without any, no call needs
    // reading.
    let may_request = source.contains("fetch")
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
    let hits = if may_request || may_import_instance {
        hits
    } else {
        &[]
    };
    // `const API = '/api'` … `fetch(`${API}/orders`)`: the path is `/api/orders`.
    let mut constants: Option<Constants> = None;
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
        let (url_node, method) = match request.shape {
            Shape::UrlThenOptions => (Some(first), method_from(arguments.get(1).copied(), source)),
            Shape::Verb(verb) => (Some(first), verb.to_uppercase()),
            Shape::UrlOrConfig if first.kind() == "object" => (
                object_property(first, "url", source),
                method_from(Some(first), source),
            ),
            Shape::UrlOrConfig => (Some(first), method_from(arguments.get(1).copied(), source)),
            Shape::MethodThenUrl => (
                arguments.get(1).copied(),
                static_string(first, source)
                    .map_or_else(|| "*".to_owned(), |method| method.to_uppercase()),
            ),
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
        };
        let Some(url_node) = url_node else {
            continue;
        };
        let constants =
            constants.get_or_insert_with(|| Constants::of(view.input.tree.root_node(), source));
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
        let interpolated = interpolated_with(url_node, source, constants);
        let url_text = interpolated.as_ref().map(|value| value.text.clone());
        // Whether the URL, with the file's constants and the instance's base filled in, is
        // relative (`${BASE}/api/x` with `const BASE = ''`, `baseURL: ''`): the code's own origin.
        let mut relative = false;
        let (url, path) = match interpolated {
            Some(value) => {
                let (written, text) = based_url(
                    base.as_ref()
                        .map(|(_, base)| (base.written.as_str(), base.text.as_str())),
                    value.written,
                    Some(value.text),
                );
                let text = text.unwrap_or_default();
                relative = text.starts_with('/') && !text.starts_with("//");
                let path = static_path(&text).or_else(|| base_named_path(&written, &text));
                (written, path)
            }
            None => (syntax::compact_text(url_node, source, 120), None),
        };
        let shown = path.as_deref().unwrap_or(&url);
        let mut fact = view.factory.fact(
            FactKind::HttpCall,
            call,
            Confidence::Definite,
            view.scope_of(call),
            format!("http call `{method} {shown}` via `{}`", request.client),
        );
        set(&mut fact, "method", method.as_str());
        set(&mut fact, "url", syntax::truncate(&url, 120));
        if relative && !url.starts_with('/') {
            fact.properties
                .insert("relativeUrl", policies::facts::PropertyValue::Bool(true));
        }
        if let Some(path) = path {
            set(&mut fact, "path", path);
        }
        let names = crate::facts::web::url_configuration_names_in(&url, source);
        if !names.is_empty() {
            set(&mut fact, "urlFrom", names);
        }
        record_url_constants(view, call, url_node);
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
            record_url_constants(view, call, base);
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
fn base_value(base: Node<'_>, source: &str, constants: &Constants) -> Option<Interpolated> {
    interpolated_with(base, source, constants).or_else(|| {
        matches!(base.kind(), "identifier" | "member_expression").then(|| Interpolated {
            written: format!("${{{}}}", syntax::text(base, source)),
            text: DYNAMIC.to_owned(),
        })
    })
}

/// The `baseURL` of each client instance of the file made with a config object
/// (`const api = axios.create({ baseURL: '/api' })`, `this.http = axios.create({ … })`), by the
/// instance's key.
fn instance_bases<'a>(view: &FileView<'a, '_>) -> HashMap<String, Node<'a>> {
    let source = view.source();
    let mut bases = HashMap::new();
    if !source.contains("baseURL") && !source.contains("prefixUrl") {
        return bases;
    }
    for node in syntax::descendants(view.input.tree.root_node()) {
        if node.kind() != "call_expression" {
            continue;
        }
        let is_create = node.child_field("function").is_some_and(|function| {
            let function = syntax::text(function, source);
            function.ends_with(".create") || function.ends_with(".extend")
        });
        // axios's `baseURL`, ky's `prefixUrl`.
        let base = is_create
            .then(|| node.child_field("arguments"))
            .flatten()
            .and_then(|list| arguments(list).first().copied())
            .and_then(|config| {
                object_property(config, "baseURL", source)
                    .or_else(|| object_property(config, "prefixUrl", source))
            });
        if let Some((key, base)) = base.and_then(|base| Some((instance_key(node, source)?, base))) {
            bases.entry(key).or_insert(base);
        }
    }
    bases
}

/// Notes, for `crate::resolve::links`, the substitutions of a request's URL that name a constant another
/// project file exports (`${API_URL}/orders`, `cfg.API_URL + '/x'` with `API_URL` or `cfg`
/// imported from it), with the name it is exported under.
fn record_url_constants(view: &FileView<'_, '_>, call: Node<'_>, url: Node<'_>) {
    let source = view.source();
    let mut reads = Vec::new();
    let mut pending = vec![url];
    while let Some(node) = pending.pop() {
        match node.kind() {
            "template_string" | "binary_expression" | "parenthesized_expression" => {
                pending.extend(syntax::named_children(node));
            }
            "template_substitution" => pending.extend(
                syntax::named_children(node)
                    .into_iter()
                    .filter(|inner| matches!(inner.kind(), "identifier" | "member_expression")),
            ),
            "identifier" | "member_expression" => reads.push(node),
            _ => {}
        }
    }
    let (line, column) = syntax::start_position(call, source);
    let found: Vec<UrlConstant> = reads
        .into_iter()
        .filter_map(|node| {
            let target = view.bindings.resolve(node, source)?;
            let Resolution::File(file) = &view.imports.get(target.import)?.resolution else {
                return None;
            };
            let written = if node
                .parent()
                .is_some_and(|parent| parent.kind() == "template_substitution")
            {
                syntax::text(node, source).to_owned()
            } else {
                syntax::compact_text(node, source, 80)
            };
            Some(UrlConstant {
                line,
                column,
                written,
                constant: RouterRef::Imported {
                    file: file.clone(),
                    name: target.export_path,
                },
            })
        })
        .collect();
    if !found.is_empty() {
        if let Ok(mut shared) = view.input.links.try_borrow_mut() {
            shared.url_constants.extend(found);
        }
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
        let package = view.imports.get(target.import)?.external_package()?;
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

/// What a request through an instance of another file reads: the instance (the file and the
/// name it exports it under), the method called and the HTTP method. `api.get(url)` with
/// `import { api } from './api'` reads `api`; with `import api from './api'` (or `require`),
/// the file's default export. Only the HTTP verbs (and superagent's `del`) are read.
fn imported_instance(
    view: &FileView<'_, '_>,
    function: Node<'_>,
) -> Option<(RouterRef, String, &'static str)> {
    let source = view.source();
    // Read from the text first: most calls end in no verb.
    let (_, written) = syntax::text(function, source).rsplit_once('.')?;
    if written.trim() != "del" && static_verb(written.trim()).is_none() {
        return None;
    }
    (function.kind() == "member_expression").then_some(())?;
    let member = syntax::text(function.child_field("property")?, source);
    let verb = if member == "del" {
        "delete"
    } else {
        static_verb(member)?
    };
    let target = view.bindings.resolve(function, source)?;
    let record = view.imports.get(target.import)?;
    let Resolution::File(file) = &record.resolution else {
        return None;
    };
    if record.is_type_only {
        return None;
    }
    let name = match target.export_path.rsplit_once('.') {
        Some((name, called)) if called == member => name.to_owned(),
        None if target.export_path == member => "default".to_owned(),
        _ => return None,
    };
    Some((
        RouterRef::Imported {
            file: file.clone(),
            name,
        },
        member.to_owned(),
        verb,
    ))
}

/// The marker of a wrapper's URL parameter in its URL's text.
const PARAMETER: &str = "\u{1}";

/// Where the method of a request comes from, as [`WrapperMethod`] (with parameter names to
/// resolve): its shape and arguments.
enum MethodSource<'tree> {
    Fixed(String),
    /// A name (`method`), read as a parameter holding the method.
    Name(&'tree str),
    /// A name holding the options (`init`, `{ ...init }`, `init.method`).
    Options(&'tree str),
}

fn wrapper_method<'tree>(
    shape: Shape,
    arguments: &[Node<'tree>],
    source: &'tree str,
) -> MethodSource<'tree> {
    // `method`, or `{ method }`'s shorthand.
    let name_of = |node: Node<'tree>| {
        matches!(node.kind(), "identifier" | "shorthand_property_identifier")
            .then(|| syntax::text(node, source))
    };
    match shape {
        Shape::Verb(verb) => MethodSource::Fixed(verb.to_uppercase()),
        Shape::MethodThenUrl | Shape::MethodThenUrlOrUrl => match arguments.first() {
            Some(first) => match (static_string(*first, source), name_of(*first)) {
                (Some(method), _) => MethodSource::Fixed(method.to_uppercase()),
                (None, Some(name)) => MethodSource::Name(name),
                (None, None) => MethodSource::Fixed("*".to_owned()),
            },
            None => MethodSource::Fixed("*".to_owned()),
        },
        Shape::UrlThenOptions | Shape::UrlOrConfig => {
            // `axios({ method, url })`: the config is the options.
            let config = arguments
                .first()
                .copied()
                .filter(|first| shape == Shape::UrlOrConfig && first.kind() == "object");
            let Some(options) = config.or_else(|| arguments.get(1).copied()) else {
                return MethodSource::Fixed("GET".to_owned());
            };
            if let Some(name) = name_of(options) {
                return MethodSource::Options(name);
            }
            if options.kind() != "object" {
                return MethodSource::Fixed("*".to_owned());
            }
            // `options.method || 'GET'`, `init.method ?? 'GET'`: the options' method.
            let method =
                object_property(options, "method", source).map(|method| match method.kind() {
                    "binary_expression"
                        if method
                            .child_field("operator")
                            .is_some_and(|operator| matches!(operator.kind(), "||" | "??")) =>
                    {
                        method.child_field("left").unwrap_or(method)
                    }
                    _ => method,
                });
            match method {
                Some(method) => match (static_string(method, source), name_of(method)) {
                    (Some(method), _) => MethodSource::Fixed(method.to_uppercase()),
                    (None, Some(name)) => MethodSource::Name(name),
                    // `init.method`.
                    (None, None) => method
                        .child_field("object")
                        .filter(|_| method.kind() == "member_expression")
                        .and_then(name_of)
                        .map_or(MethodSource::Fixed("*".to_owned()), MethodSource::Options),
                },
                // `{ ...init, headers }`: the caller's options, GET without a method.
                None => syntax::named_children(options)
                    .into_iter()
                    .filter(|member| member.kind() == "spread_element")
                    .find_map(|spread| syntax::named_children(spread).into_iter().next())
                    .and_then(name_of)
                    .map_or(MethodSource::Fixed("GET".to_owned()), MethodSource::Options),
            }
        }
    }
}

/// Notes, for `crate::resolve::links`, the top-level function around `call` as a request wrapper when
/// the request's URL is built from one of its parameters (`${API}${path}`, `API + path`,
/// `path`), with the base URL of the instance it requests through (`api.get(path)` with
/// `api = axios.create({ baseURL })`).
fn record_wrapper(
    view: &FileView<'_, '_>,
    call: Node<'_>,
    url: Node<'_>,
    method: MethodSource<'_>,
    (client, base): (&str, Option<&Interpolated>),
    constants: &Constants,
) {
    let source = view.source();
    let Some((name, parameters)) = enclosing_top_level_function(call, source) else {
        return;
    };
    let index_of = |name: &str| parameters.iter().position(|parameter| *parameter == name);
    let (url_parameter, parameter, url_written, url_text) = if url.kind() == "identifier" {
        let parameter = syntax::text(url, source);
        let Some(index) = index_of(parameter) else {
            return;
        };
        (
            index,
            parameter,
            format!("${{{parameter}}}"),
            Some(PARAMETER.to_owned()),
        )
    } else {
        let Some(value) = interpolated_with(url, source, constants) else {
            return;
        };
        let mut used = parameters
            .iter()
            .enumerate()
            .filter(|(_, parameter)| value.written.contains(&format!("${{{parameter}}}")));
        let (Some((index, parameter)), None) = (used.next(), used.next()) else {
            return;
        };
        let text = interpolated_with(url, source, &constants.with(parameter, PARAMETER))
            .map(|marked| marked.text)
            .filter(|text| text.contains(PARAMETER));
        (index, *parameter, value.written, text)
    };
    let method = match method {
        MethodSource::Fixed(method) => WrapperMethod::Fixed(method),
        MethodSource::Name(name) => match index_of(name) {
            Some(index) => WrapperMethod::Parameter(index),
            None => WrapperMethod::Fixed("*".to_owned()),
        },
        MethodSource::Options(name) => match index_of(name) {
            Some(index) => WrapperMethod::Options(index),
            None => WrapperMethod::Fixed("*".to_owned()),
        },
    };
    let wrapper = RequestWrapper {
        name: name.to_owned(),
        client: client.to_owned(),
        url_parameter,
        url_written,
        parameter: parameter.to_owned(),
        url_text,
        method,
        base: base.map(|base| (base.written.clone(), base.text.clone())),
    };
    if let Ok(mut shared) = view.input.links.try_borrow_mut() {
        if !shared
            .wrappers
            .iter()
            .any(|known| known.name == wrapper.name)
        {
            shared.wrappers.push(wrapper);
        }
    }
}

/// The name and parameter names of the top-level function `node` is in: `function f(a, b)`,
/// `const f = (a, b) => …` or `const f = function (a, b) { … }`, exported or not, or a member
/// of a top-level object (`const api = { get: (a) => … }`, named `api.get`).
fn enclosing_top_level_function<'a>(
    node: Node<'_>,
    source: &'a str,
) -> Option<(String, Vec<&'a str>)> {
    let mut function = None;
    let mut current = node;
    while let Some(parent) = current.parent() {
        if matches!(
            parent.kind(),
            "function_declaration"
                | "arrow_function"
                | "function_expression"
                | "function"
                | "method_definition"
                | "generator_function_declaration"
        ) {
            function = Some(parent);
        }
        current = parent;
        if function.is_some() {
            break;
        }
    }
    let function = function?;
    // A member of a top-level object (`const requests = { get: url => …, del(url) { … } }`) is
    // named `requests.get`.
    fn member_of_object<'t>(
        key: Node<'t>,
        object: Node<'t>,
        source: &str,
    ) -> Option<(String, Node<'t>)> {
        let declarator = object
            .parent()
            .filter(|parent| parent.kind() == "variable_declarator")?;
        let variable = declarator
            .child_field("name")
            .filter(|name| name.kind() == "identifier")?;
        (key.kind() == "property_identifier").then_some(())?;
        Some((
            format!(
                "{}.{}",
                syntax::text(variable, source),
                syntax::text(key, source)
            ),
            declarator.parent()?,
        ))
    }
    let (name, holder) = match function.kind() {
        "function_declaration" | "generator_function_declaration" => {
            let name = function
                .child_field("name")
                .filter(|name| name.kind() == "identifier")?;
            (syntax::text(name, source).to_owned(), function)
        }
        "method_definition" => {
            let object = function
                .parent()
                .filter(|parent| parent.kind() == "object")?;
            member_of_object(function.child_field("name")?, object, source)?
        }
        "arrow_function" | "function_expression" | "function" => {
            let parent = function.parent()?;
            match parent.kind() {
                "variable_declarator" => {
                    let name = parent
                        .child_field("name")
                        .filter(|name| name.kind() == "identifier")?;
                    (syntax::text(name, source).to_owned(), parent.parent()?)
                }
                "pair" => member_of_object(
                    parent.child_field("key")?,
                    parent.parent().filter(|object| object.kind() == "object")?,
                    source,
                )?,
                _ => return None,
            }
        }
        _ => return None,
    };
    let top_level = holder.parent().is_some_and(|parent| {
        parent.kind() == "program"
            || (parent.kind() == "export_statement"
                && parent.parent().is_some_and(|root| root.kind() == "program"))
    });
    if !top_level {
        return None;
    }
    let parameters = function.child_field("parameters").map_or_else(
        // `path => fetch(path)`.
        || {
            function
                .child_field("parameter")
                .map(|parameter| vec![syntax::text(parameter, source)])
                .unwrap_or_default()
        },
        |list| {
            syntax::named_children(list)
                .into_iter()
                .filter(|parameter| parameter.kind() != "comment")
                .map(|parameter| {
                    let pattern = match parameter.kind() {
                        "required_parameter" | "optional_parameter" => {
                            parameter.child_field("pattern")
                        }
                        "assignment_pattern" => parameter.child_field("left"),
                        _ => Some(parameter),
                    };
                    pattern
                        .filter(|pattern| pattern.kind() == "identifier")
                        .map_or("", |pattern| syntax::text(pattern, source))
                })
                .collect()
        },
    );
    Some((name, parameters))
}

/// Notes, for `crate::resolve::links`, a call that may call a request wrapper of the file or of another
/// project file: a call of a name (or of a namespace import's member) with an argument that
/// reads as a URL path (a literal or template with a `/` in it).
fn record_wrapper_call(
    view: &FileView<'_, '_>,
    call: Node<'_>,
    function: Node<'_>,
    argument_list: Node<'_>,
    constants: &mut Option<Constants>,
) {
    const READ_ARGUMENTS: usize = 4;
    let source = view.source();
    // Read from the text first: most calls have no quoted argument with a `/` in it.
    let written = syntax::text(argument_list, source);
    if !written.contains('/') || !written.contains(['\'', '"', '`']) {
        return;
    }
    let arguments = arguments(argument_list);
    let may_be_url = |argument: &Node<'_>| {
        matches!(
            argument.kind(),
            "string" | "template_string" | "binary_expression"
        ) && syntax::text(*argument, source).contains('/')
    };
    if !arguments.iter().take(READ_ARGUMENTS).any(may_be_url) {
        return;
    }
    let wrapper = match view.bindings.resolve(function, source) {
        Some(target) => {
            let record = view.imports.get(target.import);
            let Some(Resolution::File(file)) = record.map(|record| &record.resolution) else {
                return;
            };
            // `request(…)`, or a member of an exported object: `api.get(…)`.
            if target.export_path.matches('.').count() > 1 {
                return;
            }
            RouterRef::Imported {
                file: file.clone(),
                name: target.export_path,
            }
        }
        None if function.kind() == "identifier" => {
            RouterRef::Local(syntax::text(function, source).to_owned())
        }
        // `requests.get(…)` of an object of the file.
        None if function.kind() == "member_expression"
            && function
                .child_field("object")
                .is_some_and(|object| object.kind() == "identifier") =>
        {
            RouterRef::Local(syntax::compact_text(function, source, 120))
        }
        None => return,
    };
    let constants =
        constants.get_or_insert_with(|| Constants::of(view.input.tree.root_node(), source));
    let arguments: Vec<WrapperArgument> = arguments
        .into_iter()
        .take(READ_ARGUMENTS)
        .map(|argument| WrapperArgument {
            url: interpolated_with(argument, source, constants)
                .map(|value| (value.written, value.text)),
            method: match argument.kind() {
                "object" => Some(method_from(Some(argument), source)),
                _ => static_string(argument, source).map(|method| method.to_uppercase()),
            },
        })
        .collect();
    let reads_as_path = arguments.iter().any(|argument| {
        argument
            .url
            .as_ref()
            .is_some_and(|(_, text)| text.contains('/') && !text.contains(char::is_whitespace))
    });
    if !reads_as_path {
        return;
    }
    let fact = view.factory.fact(
        FactKind::HttpCall,
        call,
        Confidence::Definite,
        view.scope_of(call),
        String::new(),
    );
    if let Ok(mut shared) = view.input.links.try_borrow_mut() {
        shared.wrapper_calls.push(WrapperCall {
            wrapper,
            arguments,
            fact,
        });
    }
}

/// Notes, for `crate::resolve::links`, the request clients of a file that may export them: those kept in
/// variables (not in `this.` fields), with their base URLs.
fn record_instances<'a>(
    view: &FileView<'a, '_>,
    instances: &Instances,
    bases: &mut Option<HashMap<String, Node<'a>>>,
    constants: &mut Option<Constants>,
) {
    let source = view.source();
    if instances.is_empty() || !(source.contains("export") || source.contains("module.exports")) {
        return;
    }
    // CommonJS exports are exports by their names: `module.exports = …` is the default one.
    let exported_name = |key: &str| -> Option<String> {
        match key {
            "module.exports" => Some("default".to_owned()),
            _ => match key
                .strip_prefix("module.exports.")
                .or_else(|| key.strip_prefix("exports."))
            {
                Some(name) => (!name.contains('.')).then(|| name.to_owned()),
                None => (!key.contains('.')).then(|| key.to_owned()),
            },
        }
    };
    let mut kept: Vec<(String, &String, &'static str)> = instances
        .iter()
        .filter(|(_, package)| REQUEST_PACKAGES.contains(*package))
        .filter_map(|(key, package)| Some((exported_name(key)?, key, *package)))
        .collect();
    if kept.is_empty() {
        return;
    }
    kept.sort();
    let bases = bases.get_or_insert_with(|| instance_bases(view));
    let found: Vec<ClientInstance> = kept
        .into_iter()
        .map(|(name, key, package)| ClientInstance {
            name,
            package: package.to_owned(),
            base: bases.get(key).and_then(|base| {
                let constants = constants
                    .get_or_insert_with(|| Constants::of(view.input.tree.root_node(), source));
                let value = base_value(*base, source, constants)?;
                Some((value.written, value.text))
            }),
        })
        .collect();
    if let Ok(mut shared) = view.input.links.try_borrow_mut() {
        shared.instances.extend(found);
    }
}

/// The client name of a request through an instance of `package` (`axios`, `ky`) calling
/// `member` (`get`), for `crate::resolve::links`; `None` when that is no request of the package.
pub(crate) fn instance_client(package: &str, member: &str) -> Option<&'static str> {
    let request = package_request(package, member)?;
    matches!(request.shape, Shape::Verb(_)).then_some(request.client)
}

/// The instances of request packages that are no client packages of the catalogue (docs/CATALOGUE.md) (so
/// that [`super::clients`] does not keep them): ky's `ky.create(…)` and `ky.extend(…)`, an
/// instance's own `api.extend(…)`, superagent's `superagent.agent()`, and superagent wrapped by
/// `superagent-promise` (`superagentPromise(superagent, Promise)`), by the instance's key.
fn made_instances(view: &FileView<'_, '_>) -> Instances {
    let source = view.source();
    let mut made = Instances::new();
    if !view.imports.iter().any(|record| {
        record
            .external_package()
            .is_some_and(|package| matches!(package, "ky" | "superagent" | "superagent-promise"))
    }) {
        return made;
    }
    // The request matches need an argument, and `superagent.agent()` has none: the file's calls
    // are read (only in files that import either package).
    for call in syntax::descendants(view.input.tree.root_node()) {
        if call.kind() != "call_expression" {
            continue;
        }
        let Some(function) = call.child_field("function") else {
            continue;
        };
        let package = match view.bindings.resolve(function, source) {
            Some(target) => view
                .imports
                .get(target.import)
                .and_then(|record| record.external_package())
                .filter(|package| {
                    matches!(
                        (*package, target.export_path.as_str()),
                        ("ky", "create" | "extend")
                            | ("superagent", "agent")
                            | ("superagent-promise", "default")
                    )
                })
                // `superagentPromise(superagent, Promise)` is superagent with promises.
                .map(|package| package.trim_end_matches("-promise")),
            // `api.extend({ … })` of a ky instance.
            None => receiver_of(function, source)
                .filter(|_| {
                    function
                        .child_field("property")
                        .is_some_and(|property| syntax::text(property, source) == "extend")
                })
                .and_then(|receiver| made.get(&receiver).copied())
                .filter(|package| *package == "ky"),
        };
        let package = package
            .and_then(|package| REQUEST_PACKAGES.into_iter().find(|known| *known == package));
        let (Some(package), Some(key)) = (package, instance_key(call, source)) else {
            continue;
        };
        made.entry(key).or_insert(package);
    }
    made
}

/// Whether `node` is a function (a callback argument).
fn is_function(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "arrow_function" | "function_expression" | "function"
    )
}

/// Angular's HTTP package.
const ANGULAR_HTTP: &str = "@angular/common/http";

/// The receivers that hold an Angular `HttpClient` in a file that imports it: a constructor
/// parameter of that type (`http`, and `this.http` for a parameter property such as
/// `private readonly http: HttpClient`), a class field of that type or set to
/// `inject(HttpClient)` (`this.http`), and a variable set to `inject(HttpClient)`.
fn angular_instances(view: &FileView<'_, '_>) -> Vec<String> {
    let source = view.source();
    let classes: Vec<&str> = view
        .imports
        .iter()
        .filter(|record| record.external_package().is_some() && record.specifier == ANGULAR_HTTP)
        .flat_map(|record| &record.bindings)
        .filter(|binding| binding.imported == Imported::Named("HttpClient".to_owned()))
        .map(|binding| binding.local.as_str())
        .collect();
    if classes.is_empty() {
        return Vec::new();
    }
    let is_client_type = |node: Node<'_>| {
        node.child_field("type")
            .and_then(|annotation| syntax::named_children(annotation).into_iter().next())
            .is_some_and(|kind| classes.contains(&syntax::text(kind, source)))
    };
    let injects_client = |node: Node<'_>| {
        node.child_field("value").is_some_and(|value| {
            value.kind() == "call_expression"
                && value
                    .child_field("function")
                    .is_some_and(|function| syntax::text(function, source) == "inject")
                && value
                    .child_field("arguments")
                    .map(syntax::named_children)
                    .is_some_and(|arguments| {
                        arguments
                            .first()
                            .is_some_and(|first| classes.contains(&syntax::text(*first, source)))
                    })
        })
    };
    let mut found = Vec::new();
    for node in syntax::descendants(view.input.tree.root_node()) {
        match node.kind() {
            "required_parameter" | "optional_parameter" if is_client_type(node) => {
                let Some(name) = node.child_field("pattern") else {
                    continue;
                };
                let name = syntax::text(name, source);
                let is_property = syntax::named_children(node)
                    .iter()
                    .any(|child| child.kind() == "accessibility_modifier")
                    || syntax::has_token(node, "readonly");
                if is_property {
                    found.push(format!("this.{name}"));
                }
                found.push(name.to_owned());
            }
            "public_field_definition" if is_client_type(node) || injects_client(node) => {
                if let Some(name) = node.child_field("name") {
                    found.push(format!("this.{}", syntax::text(name, source)));
                }
            }
            "variable_declarator" if injects_client(node) => {
                if let Some(name) = node.child_field("name") {
                    found.push(syntax::text(name, source).to_owned());
                }
            }
            _ => {}
        }
    }
    found
}

/// The packages [`package_request`] knows.
const REQUEST_PACKAGES: [&str; 6] = ["node-fetch", "undici", "axios", "got", "ky", "superagent"];

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
        // A leading dynamic base, written in one part or several (`${base}${prefix}/x`).
        Some(text.trim_start_matches(DYNAMIC))
            .filter(|rest| rest.len() < text.len() && rest.starts_with('/'))?
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
