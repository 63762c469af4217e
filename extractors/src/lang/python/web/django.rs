//! Django's `urlpatterns`: `path(…)` and `re_path(…)` routes, and the `include(…)` mounts that
//! `crate::resolve::links` applies across files.

use super::*;

/// A Django URL pattern: a view served at a path, or an `include()` mounted at a prefix.
pub(super) struct DjangoPattern<'tree> {
    pub(super) call: Node<'tree>,
    pub(super) view: DjangoView<'tree>,
}

pub(super) enum DjangoView<'tree> {
    Site(RouteSite<'tree>),
    /// The `include()` argument and the prefix as written.
    Include(Node<'tree>, String),
}

pub(super) fn django_route<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
    routers: &Routers<'_>,
) -> Option<DjangoPattern<'tree>> {
    if !routers.modules.contains(&"django") {
        return None;
    }
    let source = file.source;
    let call = hit.node(Field::Call)?;
    let arguments = positional(hit.node(Field::Arguments)?);
    let written = string_value(*arguments.first()?, source)?;
    let path = if hit
        .node(Field::Method)
        .is_some_and(|method| syntax::text(method, source) == "re_path")
    {
        regex_path(&written)?
    } else {
        written
    };
    let view = arguments.get(1)?;
    let included = (view.kind() == "call")
        .then(|| {
            view.child_field("function")
                .filter(|function| syntax::text(*function, source) == "include")
                .and_then(|_| view.child_field("arguments"))
        })
        .flatten();
    if let Some(list) = included {
        let first = positional(list).into_iter().next()?;
        return Some(DjangoPattern {
            call,
            view: DjangoView::Include(first, path),
        });
    }
    Some(DjangoPattern {
        call,
        view: DjangoView::Site(RouteSite {
            node: call,
            method: "*".to_owned(),
            path: join_path(&[&path]),
            framework: "django",
            handler: view_name(*view, source),
            scope: (file.scope_of)(call),
        }),
    })
}

/// The view of a URL pattern or a registered route as written: a function (`views.detail`),
/// or the class of a class-based view (`OrderApi.as_view()` → `OrderApi`).
pub(super) fn view_name(view: Node<'_>, source: &str) -> Option<String> {
    match view.kind() {
        "identifier" | "attribute" => Some(syntax::compact_text(view, source, 120)),
        "call" => {
            let function = view
                .child_field("function")
                .filter(|function| function.kind() == "attribute")?;
            let is_as_view = function
                .child_field("attribute")
                .is_some_and(|attribute| syntax::text(attribute, source) == "as_view");
            let class = function.child_field("object")?;
            (is_as_view && matches!(class.kind(), "identifier" | "attribute"))
                .then(|| syntax::compact_text(class, source, 120))
        }
        _ => None,
    }
}

/// The path a `re_path` regular expression matches, when it is a plain path with named groups:
/// `^orders/(?P<pk>[0-9]+)/$` → `orders/<pk>/`; `None` for any other regular expression.
pub(super) fn regex_path(pattern: &str) -> Option<String> {
    let pattern = pattern.strip_prefix('^').unwrap_or(pattern);
    let pattern = pattern.strip_suffix('$').unwrap_or(pattern);
    let mut path = String::new();
    let mut characters = pattern.chars().peekable();
    while let Some(character) = characters.next() {
        match character {
            '(' => {
                let rest: String = characters.clone().take(3).collect();
                if rest != "?P<" {
                    return None;
                }
                characters.nth(2);
                let name: String = characters.by_ref().take_while(|c| *c != '>').collect();
                let mut depth = 1usize;
                for inner in characters.by_ref() {
                    match inner {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                if depth != 0 || name.is_empty() {
                    return None;
                }
                path.push('<');
                path.push_str(&name);
                path.push('>');
            }
            '\\' => match characters.next() {
                Some(escaped @ ('.' | '/' | '-')) => path.push(escaped),
                _ => return None,
            },
            '/' if characters.peek() == Some(&'?') => {
                characters.next();
                path.push('/');
            }
            '[' | ']' | '*' | '+' | '?' | '|' | '{' | '}' | '.' | ')' | '$' | '^' => return None,
            _ => path.push(character),
        }
    }
    Some(path)
}

/// The variable a URL pattern's list is assigned to (`urlpatterns = [...]`, `urlpatterns +=
/// [...]`, `api_patterns = [...]`), or the name of the inline list of an `include([...])` around
/// it; `urlpatterns` when there is none.
pub(super) fn patterns_list(call: Node<'_>, source: &str) -> String {
    let mut current = call.parent();
    while let Some(node) = current {
        if let Some(include) = inline_include(node, source) {
            return inline_name(include);
        }
        if matches!(node.kind(), "assignment" | "augmented_assignment") {
            if let Some(left) = node
                .child_field("left")
                .filter(|left| left.kind() == "identifier")
            {
                return syntax::text(left, source).to_owned();
            }
            break;
        }
        if matches!(node.kind(), "function_definition" | "class_definition") {
            break;
        }
        current = node.parent();
    }
    "urlpatterns".to_owned()
}

/// The `include()` call whose inline list `node` is (`include([...])`, `include(([...], "ns"))`).
pub(super) fn inline_include<'tree>(node: Node<'tree>, source: &str) -> Option<Node<'tree>> {
    if node.kind() != "list" {
        return None;
    }
    let mut parent = node.parent()?;
    if parent.kind() == "tuple" {
        parent = parent.parent()?;
    }
    let call = parent
        .parent()
        .filter(|_| parent.kind() == "argument_list")?;
    call.child_field("function")
        .is_some_and(|function| syntax::text(function, source) == "include")
        .then_some(call)
}

/// The router name of an inline `include([...])` list: `include@line:column`.
pub(super) fn inline_name(include: Node<'_>) -> String {
    let position = include.start_position();
    format!("include@{}:{}", position.row + 1, position.column + 1)
}

/// The URL patterns an `include()` argument names: the `urlpatterns` of a module named by a
/// string (`include("shop.urls")`, also `include(("shop.urls", "shop"))`) or imported
/// (`from shop import urls as shop_urls` … `include(shop_urls)`), a list of the file or
/// imported from another (`include(api_patterns)`), or an inline list (`include([path(…)])`).
pub(super) fn included_patterns(
    input: &ExtractionInput<'_>,
    argument: Node<'_>,
    imported: &BTreeMap<String, ImportedName>,
) -> Option<RouterRef> {
    let source = input.source;
    let patterns_of = |file: String| RouterRef::Imported {
        file,
        name: "urlpatterns".to_owned(),
    };
    match argument.kind() {
        "string" => {
            let module = string_value(argument, source)?;
            match input.context.resolve_python(input.path, 0, &module, None) {
                Resolution::File(file) => Some(patterns_of(file)),
                _ => None,
            }
        }
        "tuple" => included_patterns(input, *named_children(argument).first()?, imported),
        "list" => {
            inline_include(argument, source).map(|include| RouterRef::Local(inline_name(include)))
        }
        "identifier" => match imported.get(syntax::text(argument, source)) {
            Some(ImportedName::Module(file)) => Some(patterns_of(file.clone())),
            Some(ImportedName::Name(file, name)) => Some(RouterRef::Imported {
                file: file.clone(),
                name: name.clone(),
            }),
            None => Some(RouterRef::Local(syntax::text(argument, source).to_owned())),
        },
        "attribute" => {
            let object = argument.child_field("object")?;
            let attribute = argument.child_field("attribute")?;
            let is_urls = syntax::text(attribute, source) == "urls";
            match imported.get(syntax::text(object, source)) {
                Some(ImportedName::Module(file)) => Some(RouterRef::Imported {
                    file: file.clone(),
                    name: syntax::text(attribute, source).to_owned(),
                }),
                // A REST framework router's URLs (`include(router.urls)`): the router's routes,
                // of this file or of the one it is imported from.
                Some(ImportedName::Name(file, name)) if is_urls => Some(RouterRef::Imported {
                    file: file.clone(),
                    name: name.clone(),
                }),
                None if is_urls && object.kind() == "identifier" => {
                    Some(RouterRef::Local(syntax::text(object, source).to_owned()))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// The routers of Django REST framework a file binds (`router = routers.DefaultRouter()`,
/// `SimpleRouter()`), in a file that imports `rest_framework`.
pub(super) fn rest_routers<'r>(routers: &'r Routers<'_>) -> Vec<&'r str> {
    if !routers.modules.contains(&"rest_framework") {
        return Vec::new();
    }
    routers
        .bindings
        .iter()
        .filter(|(_, (constructor, _))| {
            matches!(constructor.as_str(), "DefaultRouter" | "SimpleRouter")
        })
        .map(|(name, _)| name.as_str())
        .collect()
}

/// The routes a Django REST framework router's module-level `router.register("orders",
/// OrderViewSet)` calls register: the viewset's list at the prefix (`orders/`) and its items
/// below it (`orders/<pk>/`), method `*` (the viewset class says which it serves), handler the
/// viewset as written; a prefix is a regular expression, read as `re_path`'s are ([`regex_path`]).
/// Each is a member of the router, which `include(router.urls)` mounts
/// ([`included_patterns`]) or `urlpatterns += router.urls` adds to a list ([`rest_mounts`]).
pub(super) fn rest_routes<'tree>(
    file: &FileSyntax<'_, 'tree>,
    rest_routers: &[&str],
) -> Vec<(String, RouteSite<'tree>)> {
    let source = file.source;
    let mut sites = Vec::new();
    for statement in named_children(file.root) {
        let Some(call) = (statement.kind() == "expression_statement")
            .then(|| statement.named_child(0))
            .flatten()
            .filter(|call| call.kind() == "call")
        else {
            continue;
        };
        let Some(function) = call
            .child_field("function")
            .filter(|function| function.kind() == "attribute")
        else {
            continue;
        };
        let (Some(object), Some(attribute)) = (
            function.child_field("object"),
            function.child_field("attribute"),
        ) else {
            continue;
        };
        let router = syntax::text(object, source);
        if syntax::text(attribute, source) != "register" || !rest_routers.contains(&router) {
            continue;
        }
        let Some(list) = call.child_field("arguments") else {
            continue;
        };
        let arguments = positional(list);
        // The prefix is a regular expression: a plain path with named groups reads as one.
        let prefix = arguments
            .first()
            .and_then(|prefix| string_value(*prefix, source))
            .or_else(|| keyword(list, "prefix", source))
            .and_then(|prefix| regex_path(&prefix));
        let viewset = arguments
            .get(1)
            .copied()
            .or_else(|| keyword_value(list, "viewset", source));
        let (Some(prefix), Some(viewset)) = (prefix, viewset) else {
            continue;
        };
        for path in [join_path(&[&prefix]), join_path(&[&prefix, "<pk>"])] {
            sites.push((
                router.to_owned(),
                RouteSite {
                    node: call,
                    method: "*".to_owned(),
                    path,
                    framework: "django",
                    handler: view_name(viewset, source),
                    scope: (file.scope_of)(call),
                },
            ));
        }
    }
    sites
}

/// The module-level additions of a router's URLs to a list of patterns: `urlpatterns +=
/// router.urls`, `urlpatterns = router.urls` or `urlpatterns = [...] + router.urls`, as
/// (list, router expression) pairs.
pub(super) fn rest_mounts<'tree>(root: Node<'tree>, source: &str) -> Vec<(String, Node<'tree>)> {
    let mut mounts = Vec::new();
    for statement in named_children(root) {
        let Some(assignment) = (statement.kind() == "expression_statement")
            .then(|| statement.named_child(0))
            .flatten()
            .filter(|node| matches!(node.kind(), "assignment" | "augmented_assignment"))
        else {
            continue;
        };
        let (Some(left), Some(right)) = (
            assignment
                .child_field("left")
                .filter(|left| left.kind() == "identifier"),
            assignment.child_field("right"),
        ) else {
            continue;
        };
        let mut operands = vec![right];
        while let Some(operand) = operands.pop() {
            match operand.kind() {
                "binary_operator" => {
                    operands.extend(operand.child_field("left"));
                    operands.extend(operand.child_field("right"));
                }
                "attribute"
                    if operand
                        .child_field("attribute")
                        .is_some_and(|attribute| syntax::text(attribute, source) == "urls") =>
                {
                    if let Some(router) = operand.child_field("object") {
                        mounts.push((syntax::text(left, source).to_owned(), router));
                    }
                }
                _ => {}
            }
        }
    }
    mounts
}
