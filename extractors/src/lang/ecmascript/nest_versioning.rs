//! NestJS URI versioning: `app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' })`
//! puts a version segment between the global prefix and every controller route's path
//! (`/api/v1/cats`), the version a handler or its controller declares (`@Version('2')`,
//! `@Controller({ path: 'cats', version: '2' })`) or else the default; `VERSION_NEUTRAL`
//! (declared, or as the default) serves the route without one, and so does a route when no
//! default is given. Without URI versioning a declared version leaves the path alone.
//!
//! The bootstrap file that enables versioning is not the controllers' file, so each file records
//! what it knows in its `RouteLinks` (`nest_versioning`, `nest_routes`) and [`link_versions`]
//! applies it once every file is extracted, before the mount prefixes (`setGlobalPrefix`) are.
//! A route takes the versioning of the bootstrap file nearest it (the longest common folder),
//! as a repository may hold several Nest applications.

use std::borrow::BorrowMut;
use std::collections::{BTreeMap, BTreeSet};

use policies::facts::{Fact, FactKind};
use tree_sitter::Node;

use super::literals::{arguments, object_property, static_string};
use super::FileView;
use crate::facts::web::join_path;
use crate::resolve::links::{give_paths, NestRoute, NestVersioning, RouteLinks};
use crate::syntax::{self, named_children, ChildField};

/// The name of Nest's version that stands for no version.
const NEUTRAL: &str = "VERSION_NEUTRAL";

/// The URI versioning `app.enableVersioning(options)` turns on, from its arguments; none for
/// another type (a header or media type carries the version outside the path).
pub(super) fn versioning(view: &FileView<'_, '_>, list: Node<'_>) -> Option<NestVersioning> {
    let source = view.source();
    let options = *arguments(list).first()?;
    let kind = object_property(options, "type", source)?;
    if !syntax::text(kind, source).ends_with("URI") {
        return None;
    }
    let defaults = match object_property(options, "defaultVersion", source) {
        Some(value) => versions_of(value, source)?,
        None => Vec::new(),
    };
    let prefix = match object_property(options, "prefix", source) {
        Some(value) if value.kind() == "false" => String::new(),
        Some(value) => static_string(value, source)?,
        None => "v".to_owned(),
    };
    Some(NestVersioning { defaults, prefix })
}

/// The versions a controller route declares, read from the handler's `@Version(…)`, else its
/// controller's `version` option: `Some(None)` for none (the default applies), `None` when
/// they cannot be read (a constant of another file).
pub(super) fn declared_versions(
    method: Node<'_>,
    class: Node<'_>,
    source: &str,
) -> Option<Option<Vec<String>>> {
    let method_decorators = decorators_before(method).chain(
        named_children(method)
            .into_iter()
            .filter(|node| node.kind() == "decorator"),
    );
    for decorator in method_decorators {
        if let Some(list) = call_of(decorator, "Version", source) {
            return versions_of(*arguments(list).first()?, source).map(Some);
        }
    }
    let wrapper = class
        .parent()
        .filter(|parent| parent.kind() == "export_statement");
    let class_decorators = named_children(class)
        .into_iter()
        .chain(wrapper.map(named_children).unwrap_or_default())
        .filter(|node| node.kind() == "decorator");
    for decorator in class_decorators {
        let Some(list) = call_of(decorator, "Controller", source) else {
            continue;
        };
        let version = arguments(list)
            .first()
            .and_then(|options| object_property(*options, "version", source));
        return match version {
            Some(version) => versions_of(version, source).map(Some),
            None => Some(None),
        };
    }
    Some(None)
}

/// The decorators written before a TypeScript class member (siblings in the class body).
fn decorators_before(member: Node<'_>) -> impl Iterator<Item = Node<'_>> {
    std::iter::successors(member.prev_named_sibling(), |node| {
        node.prev_named_sibling()
    })
    .take_while(|node| matches!(node.kind(), "decorator" | "comment"))
    .filter(|node| node.kind() == "decorator")
}

/// The arguments of a decorator that calls `name` (`@Version('2')`).
fn call_of<'tree>(decorator: Node<'tree>, name: &str, source: &str) -> Option<Node<'tree>> {
    let call = named_children(decorator)
        .into_iter()
        .find(|node| node.kind() == "call_expression")?;
    (syntax::text(call.child_field("function")?, source) == name)
        .then(|| call.child_field("arguments"))
        .flatten()
}

/// The versions a value names: a string, `VERSION_NEUTRAL` (the empty version), or an array
/// of them; none when one cannot be read.
fn versions_of(value: Node<'_>, source: &str) -> Option<Vec<String>> {
    let one = |node: Node<'_>| {
        let text = syntax::text(node, source);
        if text == NEUTRAL || text.ends_with(&format!(".{NEUTRAL}")) {
            return Some(String::new());
        }
        static_string(node, source)
    };
    if value.kind() == "array" {
        named_children(value)
            .into_iter()
            .filter(|node| node.kind() != "comment")
            .map(one)
            .collect()
    } else {
        one(value).map(|version| vec![version])
    }
}

/// Puts the version segments into the paths of the Nest controller routes, a copy of a route
/// per further version, when a file of the project enables URI versioning.
pub(crate) fn link_versions<F>(facts: &mut Vec<F>, links: &BTreeMap<String, RouteLinks>)
where
    F: BorrowMut<Fact> + From<Fact>,
{
    let bootstraps: Vec<(&str, &NestVersioning)> = links
        .iter()
        .filter_map(|(file, links)| Some((file.as_str(), links.nest_versioning.as_ref()?)))
        .collect();
    if bootstraps.is_empty() {
        return;
    }
    let mut taken: BTreeSet<String> = facts.iter().map(|fact| fact.borrow().id.clone()).collect();
    let mut added = Vec::new();
    for fact in facts.iter_mut() {
        let fact: &mut Fact = fact.borrow_mut();
        if fact.kind != FactKind::Route {
            continue;
        }
        let file = &*fact.evidence.file;
        let Some(route) = links.get(file).and_then(|file_links| {
            file_links.nest_routes.iter().find(|route| {
                route.line == fact.evidence.line && route.column == fact.evidence.column
            })
        }) else {
            continue;
        };
        let Some(versioning) = nearest(&bootstraps, file) else {
            continue;
        };
        let paths = versioned_paths(fact, route, versioning);
        if !paths.is_empty() {
            give_paths(fact, &paths, "versioned", &mut taken, &mut added);
        }
    }
    facts.extend(added);
}

/// The versioning of the bootstrap file that shares the most leading folders with `file`.
fn nearest<'a>(
    bootstraps: &[(&str, &'a NestVersioning)],
    file: &str,
) -> Option<&'a NestVersioning> {
    let shared = |bootstrap: &str| {
        bootstrap
            .split('/')
            .zip(file.split('/'))
            .take_while(|(a, b)| a == b)
            .count()
    };
    let most = bootstraps.iter().map(|(path, _)| shared(path)).max()?;
    bootstraps
        .iter()
        .find(|(path, _)| shared(path) == most)
        .map(|(_, versioning)| *versioning)
}

/// A route's paths under its versions, sorted; empty when they leave its path as it is.
fn versioned_paths(fact: &Fact, route: &NestRoute, versioning: &NestVersioning) -> Vec<String> {
    let written = fact.property_str("path").unwrap_or("/").to_owned();
    let versions = route.versions.as_ref().unwrap_or(&versioning.defaults);
    let mut paths: Vec<String> = versions
        .iter()
        .map(|version| {
            if version.is_empty() {
                written.clone()
            } else {
                join_path(&[&format!("{}{version}", versioning.prefix), &written])
            }
        })
        .collect();
    paths.sort();
    paths.dedup();
    if paths.is_empty() || paths == [written] {
        return Vec::new();
    }
    paths
}
