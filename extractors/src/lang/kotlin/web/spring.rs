//! Spring annotations in Kotlin: `@RequestMapping`/`@GetMapping`… routes and the `performs` of
//! their handlers, and Feign client interfaces, read as Java's are (`crate::lang::jvm::spring`).

use super::*;

/// One annotation: its name and the node of its arguments (a `value_arguments`, or the
/// parenthesised expression of an annotation the grammar read as an expression).
pub(super) struct Annotation<'tree> {
    pub(super) node: Node<'tree>,
    pub(super) name: String,
    pub(super) arguments: Vec<(String, Node<'tree>)>,
}

pub(super) fn annotation<'tree>(node: Node<'tree>, source: &str) -> Option<Annotation<'tree>> {
    let head = named_children(node).into_iter().next()?;
    let (user_type, arguments) = match head.kind() {
        "constructor_invocation" => {
            let children = named_children(head);
            let list = children
                .iter()
                .find(|child| child.kind() == "value_arguments")
                .map(|list| elements(*list, source))
                .unwrap_or_default();
            (*children.first()?, list)
        }
        _ => (head, Vec::new()),
    };
    let name = named_children(user_type)
        .into_iter()
        .rfind(|child| child.kind() == "identifier")
        .map(|name| syntax::text(name, source).to_owned())?;
    Some(Annotation {
        node,
        name,
        arguments,
    })
}

/// The annotations of a declaration: its modifiers, or the annotated expression just before it.
pub(super) fn annotations_of<'tree>(
    declaration: Node<'tree>,
    source: &str,
) -> Vec<Annotation<'tree>> {
    let mut found: Vec<Annotation<'tree>> = named_children(declaration)
        .into_iter()
        .filter(|child| child.kind() == "modifiers")
        .flat_map(named_children)
        .filter(|child| child.kind() == "annotation")
        .filter_map(|child| annotation(child, source))
        .collect();
    let mut current = declaration
        .prev_named_sibling()
        .filter(|previous| previous.kind() == "annotated_expression");
    while let Some(expression) = current {
        let children = named_children(expression);
        let mut next = None;
        for (index, child) in children.iter().enumerate() {
            if child.kind() != "annotation" {
                continue;
            }
            if let Some(mut read) = annotation(*child, source) {
                // `@RequestMapping("/p")` before a class: the arguments are the next expression.
                let following = children.get(index + 1).copied();
                if let Some(value) = following
                    .filter(|value| value.kind() == "parenthesized_expression")
                    .and_then(|value| named_children(value).into_iter().next())
                {
                    read.arguments.push(("value".to_owned(), value));
                }
                found.push(read);
            }
        }
        if let Some(inner) = children
            .iter()
            .find(|child| child.kind() == "annotated_expression")
        {
            next = Some(*inner);
        }
        current = next;
    }
    found
}

/// The paths of a mapping annotation; the empty path if none.
pub(super) fn mapping_paths(annotation: &Annotation<'_>, source: &str) -> Vec<String> {
    let paths: Vec<String> = annotation
        .arguments
        .iter()
        .filter(|(key, _)| key == "value" || key == "path")
        .flat_map(|(_, value)| strings(*value, source))
        .collect();
    if paths.is_empty() {
        vec![String::new()]
    } else {
        paths
    }
}

pub(super) fn spring_facts(
    factory: &FactFactory<'_>,
    hit: &QueryHit<'_>,
    file: &FileSyntax<'_, '_>,
) -> Vec<Fact> {
    let source = file.source;
    let Some(read) = hit
        .node(Field::Decorator)
        .and_then(|node| annotation(node, source))
    else {
        return Vec::new();
    };
    let Some(function) = read
        .node
        .parent()
        .and_then(|modifiers| modifiers.parent())
        .filter(|declaration| declaration.kind() == "function_declaration")
    else {
        return Vec::new();
    };
    let Some(class) = function
        .parent()
        .and_then(|body| body.parent())
        .filter(|class| class.kind() == "class_declaration")
    else {
        return Vec::new();
    };
    let name_of = |node: Node<'_>| {
        node.child_field("name")
            .map(|name| syntax::text(name, source))
    };
    let (Some(class_name), Some(function_name)) = (name_of(class), name_of(function)) else {
        return Vec::new();
    };
    let verbs: Vec<String> = match read.name.strip_suffix("Mapping") {
        Some("Request") => {
            let verbs: Vec<String> = read
                .arguments
                .iter()
                .filter(|(key, _)| key == "method")
                .flat_map(|(_, value)| match value.kind() {
                    "collection_literal" => named_children(*value),
                    _ => vec![*value],
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
        let mut facts = Vec::new();
        for verb in &verbs {
            for path in mapping_paths(&read, source) {
                let site = HttpCallSite {
                    node: read.node,
                    method: verb.clone(),
                    url: crate::lang::jvm::spring::feign_url(&feign, &path),
                    is_static: true,
                    client: "Feign",
                    scope: (file.scope_of)(read.node),
                };
                facts.push(web::http_call_fact(factory, &site));
            }
        }
        return facts;
    }
    let prefixes = annotations_of(class, source)
        .into_iter()
        .find(|class_annotation| class_annotation.name == "RequestMapping")
        .map_or_else(
            || vec![String::new()],
            |mapping| mapping_paths(&mapping, source),
        );
    let handler = format!("{class_name}.{function_name}");
    let data = handler_data(function, source);
    let mut facts = Vec::new();
    for verb in &verbs {
        for prefix in &prefixes {
            for path in mapping_paths(&read, source) {
                let site = RouteSite {
                    node: read.node,
                    method: verb.clone(),
                    path: join_path(&[prefix, &path]),
                    framework: "spring",
                    handler: Some(handler.clone()),
                    scope: (file.scope_of)(read.node),
                };
                facts.push(web::route_fact(factory, &site));
            }
        }
        facts.extend(web::performs_facts(
            factory, read.node, &handler, verb, &data,
        ));
    }
    facts
}

/// The `@FeignClient` of a Kotlin interface (`crate::lang::jvm::spring::FeignClient`).
pub(super) fn feign_client(
    class: Node<'_>,
    source: &str,
) -> Option<crate::lang::jvm::spring::FeignClient> {
    if !has_token(class, "interface") {
        return None;
    }
    let annotation = annotations_of(class, source)
        .into_iter()
        .find(|annotation| {
            annotation.name == "FeignClient" || annotation.name.ends_with(".FeignClient")
        })?;
    let argument = |key: &str| {
        annotation
            .arguments
            .iter()
            .find(|(name, _)| name == key)
            .and_then(|(_, value)| string_value(*value, source))
    };
    Some(crate::lang::jvm::spring::FeignClient {
        url: argument("url").filter(|url| crate::lang::jvm::spring::is_literal_url(url)),
        path: argument("path").unwrap_or_default(),
    })
}

/// The candidate data types of a handler: its parameter types and its return type.
pub(super) fn handler_data(function: Node<'_>, source: &str) -> Vec<String> {
    let children = named_children(function);
    let parameters = children
        .iter()
        .filter(|child| child.kind() == "function_value_parameters")
        .flat_map(|list| named_children(*list))
        .filter(|parameter| parameter.kind() == "parameter")
        .filter_map(|parameter| {
            named_children(parameter)
                .into_iter()
                .find(|child| matches!(child.kind(), "user_type" | "nullable_type"))
        });
    let returned = children
        .iter()
        .skip_while(|child| child.kind() != "function_value_parameters")
        .find(|child| matches!(child.kind(), "user_type" | "nullable_type"))
        .copied();
    parameters
        .chain(returned)
        .filter_map(|type_node| web::data_type(syntax::text(type_node, source)))
        .collect()
}
