//! Request wrappers: functions that pass one of their parameters on as a request's URL (and
//! maybe its method), recorded for the calls of them in this and other files.

use super::*;

/// The marker of a wrapper's URL parameter in its URL's text.
pub(super) const PARAMETER: &str = "\u{1}";

/// Where the method of a request comes from, as [`WrapperMethod`] (with parameter names to
/// resolve): its shape and arguments.
pub(super) enum MethodSource<'tree> {
    Fixed(String),
    /// A name (`method`), read as a parameter holding the method.
    Name(&'tree str),
    /// A name holding the options (`init`, `{ ...init }`, `init.method`).
    Options(&'tree str),
}

pub(super) fn wrapper_method<'tree>(
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
        Shape::Key => MethodSource::Fixed("GET".to_owned()),
        Shape::MutationKey => MethodSource::Fixed("*".to_owned()),
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
pub(super) fn record_wrapper(
    view: &FileView<'_, '_>,
    call: Node<'_>,
    url: Node<'_>,
    method: MethodSource<'_>,
    (client, base): (&str, Option<&Interpolated>),
    constants: &Constants<'_>,
) {
    let source = view.source();
    let Some((names, parameters)) = enclosing_top_level_function(call, source) else {
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
    let Ok(mut shared) = view.input.links.try_borrow_mut() else {
        return;
    };
    for name in names {
        if shared.wrappers.iter().any(|known| known.name == name) {
            continue;
        }
        shared.wrappers.push(RequestWrapper {
            name,
            client: client.to_owned(),
            url_parameter,
            url_written: url_written.clone(),
            parameter: parameter.to_owned(),
            url_text: url_text.clone(),
            method: method.clone(),
            base: base.map(|base| (base.written.clone(), base.text.clone())),
        });
    }
}

/// The names and parameter names of the top-level function `node` is in: `function f(a, b)`,
/// `const f = (a, b) => …` or `const f = function (a, b) { … }`, exported or not, a member
/// of a top-level object (`const api = { get: (a) => … }`, named `api.get`), or a method of a
/// top-level class: a static one by the class (`Api.get`), another by each instance of the
/// class the file keeps at its top level (`const api = new Api()`, `api.get`;
/// `export default new Api()`, `default.get`).
pub(super) fn enclosing_top_level_function<'a>(
    node: Node<'_>,
    source: &'a str,
) -> Option<(Vec<String>, Vec<&'a str>)> {
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
    let (names, holder) = match function.kind() {
        "function_declaration" | "generator_function_declaration" => {
            let name = function
                .child_field("name")
                .filter(|name| name.kind() == "identifier")?;
            (vec![syntax::text(name, source).to_owned()], function)
        }
        "method_definition" => {
            let parent = function.parent()?;
            match parent.kind() {
                "object" => {
                    let (name, holder) =
                        member_of_object(function.child_field("name")?, parent, source)?;
                    (vec![name], holder)
                }
                "class_body" => class_method_names(function, parent, source)?,
                _ => return None,
            }
        }
        "arrow_function" | "function_expression" | "function" => {
            let parent = function.parent()?;
            match parent.kind() {
                "variable_declarator" => {
                    let name = parent
                        .child_field("name")
                        .filter(|name| name.kind() == "identifier")?;
                    (
                        vec![syntax::text(name, source).to_owned()],
                        parent.parent()?,
                    )
                }
                "pair" => {
                    let (name, holder) = member_of_object(
                        parent.child_field("key")?,
                        parent.parent().filter(|object| object.kind() == "object")?,
                        source,
                    )?;
                    (vec![name], holder)
                }
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
    Some((names, parameters))
}

/// The names a method of a class is called by, and the class (whose place says whether it is
/// at the top level): a static method's `Class.method`, and an instance method's
/// `instance.method` for each top-level variable the file sets to a `new Class(…)`
/// (`default.method` for `export default new Class(…)` or `module.exports = new Class(…)`).
/// Getters, setters, constructors and private methods are called by no such name.
fn class_method_names<'t>(
    method: Node<'t>,
    body: Node<'t>,
    source: &str,
) -> Option<(Vec<String>, Node<'t>)> {
    let class = body
        .parent()
        .filter(|class| class.kind() == "class_declaration")?;
    let class_name = syntax::text(class.child_field("name")?, source);
    let member = method
        .child_field("name")
        .filter(|name| name.kind() == "property_identifier")?;
    let member = syntax::text(member, source);
    if member == "constructor"
        || syntax::has_token(method, "get")
        || syntax::has_token(method, "set")
    {
        return None;
    }
    if syntax::has_token(method, "static") {
        return Some((vec![format!("{class_name}.{member}")], class));
    }
    let root = class.parent().and_then(|parent| match parent.kind() {
        "export_statement" => parent.parent(),
        _ => Some(parent),
    })?;
    let is_new_of_class = |value: Node<'_>| {
        value.kind() == "new_expression"
            && value
                .child_field("constructor")
                .is_some_and(|constructor| syntax::text(constructor, source) == class_name)
    };
    let mut holders = Vec::new();
    for statement in syntax::named_children(root) {
        let statement = match statement.kind() {
            "export_statement" => {
                if let Some(value) = statement.child_field("value") {
                    if is_new_of_class(value) {
                        holders.push("default".to_owned());
                    }
                    continue;
                }
                match statement.child_field("declaration") {
                    Some(declaration) => declaration,
                    None => continue,
                }
            }
            _ => statement,
        };
        match statement.kind() {
            "lexical_declaration" | "variable_declaration" => {
                for declarator in syntax::named_children(statement) {
                    let (Some(name), Some(value)) = (
                        declarator.child_field("name"),
                        declarator.child_field("value"),
                    ) else {
                        continue;
                    };
                    if name.kind() == "identifier" && is_new_of_class(value) {
                        holders.push(syntax::text(name, source).to_owned());
                    }
                }
            }
            // `module.exports = new Api()`.
            "expression_statement"
                if super::super::module_exports_value(statement, source)
                    .is_some_and(is_new_of_class) =>
            {
                holders.push("default".to_owned());
            }
            _ => {}
        }
    }
    holders.sort();
    holders.dedup();
    let names = holders
        .into_iter()
        .map(|holder| format!("{holder}.{member}"))
        .collect::<Vec<_>>();
    (!names.is_empty()).then_some((names, class))
}

/// Notes, for `crate::resolve::links`, a call that may call a request wrapper of the file or of another
/// project file: a call of a name (or of a namespace import's member) with an argument that
/// reads as a URL path (a literal or template with a `/` in it).
pub(super) fn record_wrapper_call<'tree>(
    view: &FileView<'tree, '_>,
    call: Node<'_>,
    function: Node<'_>,
    argument_list: Node<'_>,
    constants: &mut Option<Constants<'tree>>,
) {
    const READ_ARGUMENTS: usize = 4;
    let source = view.source();
    // A verb of an object (`request.get(apiUrl)`) may be given the URL in a constant.
    let verb_call = function.kind() == "member_expression"
        && function.child_field("property").is_some_and(|property| {
            let property = syntax::text(property, source);
            property == "del" || is_http_verb(property)
        });
    // Read from the text first: most calls have no quoted argument with a `/` in it.
    let written = syntax::text(argument_list, source);
    let quoted_path = written.contains('/') && written.contains(['\'', '"', '`']);
    if !quoted_path && !verb_call {
        return;
    }
    let arguments = arguments(argument_list);
    let may_be_url =
        |argument: &Node<'_>, constants: &mut Option<Constants<'tree>>| match argument.kind() {
            "string" | "template_string" | "binary_expression" => {
                syntax::text(*argument, source).contains('/')
            }
            // `const apiUrl = '/api/x'`.
            "identifier" if verb_call => constants
                .get_or_insert_with(|| file_constants(view.input.tree.root_node(), source))
                .known(*argument, source)
                .is_some_and(|value| value.contains('/')),
            _ => false,
        };
    if !arguments
        .iter()
        .take(READ_ARGUMENTS)
        .any(|argument| may_be_url(argument, constants))
    {
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
        constants.get_or_insert_with(|| file_constants(view.input.tree.root_node(), source));
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
