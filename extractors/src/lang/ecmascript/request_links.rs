//! The cross-file steps of TypeScript and JavaScript requests: requests through a client
//! instance or a wrapper function another file declares, and URLs that read constants of other
//! files (`crate::resolve::links` records what each file holds).

use std::borrow::BorrowMut;
use std::collections::{BTreeMap, BTreeSet};

use policies::facts::{Fact, FactKind, PropertyValue};

use crate::resolve::links::{
    constant_value, free_id, resolve_target, RequestWrapper, RouteLinks, RouterRef, UrlConstant,
    WrapperMethod,
};

/// Adds the requests made through client instances of other files ([`InstanceRequest`]) whose
/// instance that file exports, with the instance's client and its base URL before a URL that is
/// not absolute, and the calls of request wrappers ([`RequestWrapper`]): the wrapper's URL with
/// the call's argument in its parameter's place (after the base URL of the instance the wrapper
/// requests through), and the method the wrapper or the call names. A pending request whose
/// instance or wrapper no file has, or a wrapper call whose URL argument is no literal or
/// template, is none. The facts are added in file order, with ids no fact holds yet.
pub(crate) fn link_requests<F>(facts: &mut Vec<F>, links: &BTreeMap<String, RouteLinks>)
where
    F: BorrowMut<Fact> + From<Fact>,
{
    let mut taken: BTreeSet<String> = facts.iter().map(|fact| fact.borrow().id.clone()).collect();
    for (file, file_links) in links {
        for request in &file_links.instance_requests {
            let (instance_file, name) = resolve_target(links, file, &request.instance);
            let Some(instance) = links.get(&instance_file).and_then(|links| {
                links
                    .instances
                    .iter()
                    .find(|instance| instance.name == name)
            }) else {
                continue;
            };
            let Some(client) = super::instance_client(&instance.package, &request.member) else {
                continue;
            };
            let mut fact = request.fact.clone();
            let written = fact.property_str("url").unwrap_or_default().to_owned();
            let (url, text) = super::based_url(
                as_pair(instance.base.as_ref()),
                written,
                request.url_text.clone(),
            );
            let method = fact.property_str("method").unwrap_or("*").to_owned();
            let path = text.as_deref().and_then(super::static_path);
            finish_request(
                &mut fact,
                &method,
                &url,
                path.as_deref(),
                client,
                &mut taken,
            );
            if let Some(text) = &text {
                super::note_url_text(&mut fact, &url, text);
            }
            facts.push(F::from(fact));
        }
        for call in &file_links.wrapper_calls {
            let Some(wrapper) = find_wrapper(links, file, &call.wrapper) else {
                continue;
            };
            let Some((written, text)) = call
                .arguments
                .get(wrapper.url_parameter)
                .and_then(|argument| argument.url.as_ref())
            else {
                continue;
            };
            let (url, text) = super::based_url(
                as_pair(wrapper.base.as_ref()),
                wrapper
                    .url_written
                    .replace(&format!("${{{}}}", wrapper.parameter), written),
                wrapper
                    .url_text
                    .as_ref()
                    .map(|wrapper_text| wrapper_text.replace('\u{1}', text)),
            );
            let method = match &wrapper.method {
                WrapperMethod::Fixed(method) => method.clone(),
                WrapperMethod::Parameter(index) => call
                    .arguments
                    .get(*index)
                    .and_then(|argument| argument.method.clone())
                    .unwrap_or_else(|| "*".to_owned()),
                WrapperMethod::Options(index) => match call.arguments.get(*index) {
                    None => "GET".to_owned(),
                    Some(argument) => argument.method.clone().unwrap_or_else(|| "*".to_owned()),
                },
            };
            let mut fact = call.fact.clone();
            let path = text.as_deref().and_then(super::static_path);
            finish_request(
                &mut fact,
                &method,
                &url,
                path.as_deref(),
                &wrapper.client,
                &mut taken,
            );
            if let Some(text) = &text {
                super::note_url_text(&mut fact, &url, text);
            }
            facts.push(F::from(fact));
        }
    }
}

/// The request wrapper a call names (`request.get` of the file, or another file's export): by
/// its name, else by the member of the local name the file exports the object under
/// (`default.get` with `export default request` is `request.get`). A member of a default or
/// namespace import (`request.get` after `import request from './request'`) reads as the
/// module's export (`get`), else as a member of its default export (`default.get`), as
/// requests through instances read it.
fn find_wrapper<'l>(
    links: &'l BTreeMap<String, RouteLinks>,
    file: &str,
    called: &RouterRef,
) -> Option<&'l RequestWrapper> {
    let (wrapper_file, name) = resolve_target(links, file, called);
    let file_links = links.get(&wrapper_file)?;
    let named = |name: &str| {
        file_links
            .wrappers
            .iter()
            .find(|wrapper| wrapper.name == name)
    };
    if let Some(wrapper) = named(&name) {
        return Some(wrapper);
    }
    let RouterRef::Imported { name, .. } = called else {
        return None;
    };
    let mut candidates = vec![name.clone()];
    if !name.contains('.') {
        candidates.push(format!("default.{name}"));
    }
    candidates.iter().find_map(|candidate| {
        if candidate != name {
            if let Some(wrapper) = named(candidate) {
                return Some(wrapper);
            }
        }
        let (object, member) = candidate.split_once('.')?;
        let local = file_links
            .exports
            .iter()
            .find(|export| export.exported == object)?;
        named(&format!("{}.{member}", local.local))
    })
}

/// A base URL kept as (written, read), borrowed.
fn as_pair(base: Option<&(String, String)>) -> Option<(&str, &str)> {
    base.map(|(written, text)| (written.as_str(), text.as_str()))
}

/// Gives a request fact that `crate::resolve::links` completes its method, URL, path (none when not
/// known), client and message, and an id no fact holds yet.
fn finish_request(
    fact: &mut Fact,
    method: &str,
    url: &str,
    path: Option<&str>,
    client: &str,
    taken: &mut BTreeSet<String>,
) {
    let shown = path.unwrap_or(url);
    fact.evidence.message = format!("http call `{method} {shown}` via `{client}`").into();
    fact.properties
        .insert("method", PropertyValue::from(method));
    fact.properties.insert(
        "url",
        PropertyValue::from(crate::syntax::truncate(url, 120).as_str()),
    );
    crate::facts::web::note_url_names(fact);
    match path {
        Some(path) => {
            fact.properties.insert("path", PropertyValue::from(path));
        }
        None => {
            fact.properties.remove("path");
        }
    }
    fact.properties
        .insert("client", PropertyValue::from(client));
    if taken.contains(&fact.id) {
        fact.id = free_id(&fact.id, taken);
    }
    taken.insert(fact.id.clone());
}

/// Gives the requests whose URLs read constants of other files ([`UrlConstant`]) the path of the
/// URL with the constants' values in place of their substitutions, as a file's own constants
/// are read (`url` stays as written; a relative value makes the request `relativeUrl`, an
/// absolute one its `resolvedUrl`); a constant no file records stays a dynamic part.
pub(crate) fn link_url_constants<F: BorrowMut<Fact>>(
    facts: &mut [F],
    links: &BTreeMap<String, RouteLinks>,
) {
    for fact in facts.iter_mut() {
        let fact: &mut Fact = fact.borrow_mut();
        if fact.kind != FactKind::HttpCall {
            continue;
        }
        let file = &*fact.evidence.file;
        let Some(file_links) = links.get(file) else {
            continue;
        };
        let (line, column) = (fact.evidence.line, fact.evidence.column);
        let Some(written) = fact.property_str("url").map(str::to_owned) else {
            continue;
        };
        let mut url = written.clone();
        let reads: Vec<&UrlConstant> = file_links
            .url_constants
            .iter()
            .filter(|read| read.line == line && read.column == column)
            .collect();
        for read in &reads {
            if read.value.is_some() {
                continue;
            }
            if let Some(value) = constant_value(links, file, &read.constant) {
                let value = format!("{value}{}", read.suffix);
                if url == read.written {
                    // The whole URL is the read (`this.http.get(this.baseUrl)`).
                    url = value;
                } else {
                    url = url.replace(&format!("${{{}}}", read.written), &value);
                }
            }
        }
        if url == written {
            continue;
        }
        // The substitutions the file itself knows, once another file's constant is in.
        for read in &reads {
            if let Some(value) = &read.value {
                url = url.replace(&format!("${{{}}}", read.written), value);
            }
        }
        let path = super::url_path(&url);
        super::note_url_text(fact, &written, &url);
        let method = fact.property_str("method").unwrap_or("*").to_owned();
        let client = fact.property_str("client").unwrap_or_default().to_owned();
        let shown = path.as_deref().unwrap_or(&written);
        fact.evidence.message = format!("http call `{method} {shown}` via `{client}`").into();
        crate::facts::set_path(fact, path.as_deref());
    }
}
