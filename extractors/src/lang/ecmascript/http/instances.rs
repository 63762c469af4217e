//! Client instances: `axios.create(…)`, `ky.create(…)`, Angular's injected `HttpClient` and
//! the like, made in this file or imported, with their base URLs.

use super::*;

/// The `baseURL` of each client instance of the file made with a config object
/// (`const api = axios.create({ baseURL: '/api' })`, `this.http = axios.create({ … })`), by the
/// instance's key.
pub(super) fn instance_bases<'a>(view: &FileView<'a, '_>) -> HashMap<String, Node<'a>> {
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

/// What a request through an instance of another file reads: the instance (the file and the
/// name it exports it under), the method called and the HTTP method. `api.get(url)` with
/// `import { api } from './api'` reads `api`; with `import api from './api'` (or `require`),
/// the file's default export. Only the HTTP verbs (and superagent's `del`) are read.
pub(super) fn imported_instance(
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

/// Notes, for `crate::resolve::links`, the request clients of a file that may export them: those kept in
/// variables (not in `this.` fields), with their base URLs.
pub(super) fn record_instances<'a>(
    view: &FileView<'a, '_>,
    instances: &Instances,
    bases: &mut Option<HashMap<String, Node<'a>>>,
    constants: &mut Option<Constants<'a>>,
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
                    .get_or_insert_with(|| file_constants(view.input.tree.root_node(), source));
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
pub(super) fn made_instances(view: &FileView<'_, '_>) -> Instances {
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
pub(super) fn is_function(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "arrow_function" | "function_expression" | "function"
    )
}

/// Angular's HTTP package.
pub(super) const ANGULAR_HTTP: &str = "@angular/common/http";

/// The receivers that hold an Angular `HttpClient` in a file that imports it: a constructor
/// parameter of that type (`http`, and `this.http` for a parameter property such as
/// `private readonly http: HttpClient`), a class field of that type or set to
/// `inject(HttpClient)` (`this.http`), and a variable set to `inject(HttpClient)`.
pub(super) fn angular_instances(view: &FileView<'_, '_>) -> Vec<String> {
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
