//! Routers handed to project functions and routers project functions return: the mounts that
//! `crate::resolve::links` applies across files and packages.

use super::*;

/// The router a route receiver hangs off when its group chain starts at a parameter of the
/// enclosing function (`func Register(rg *gin.RouterGroup) { users := rg.Group("/users");
/// users.GET(…) }`): that parameter of that function, keyed by its package directory (`dir/`),
/// since Go callers name functions by package, and named by [`parameter_key`].
pub(super) fn parameter_router(
    receiver: Node<'_>,
    file: &FileSyntax<'_, '_>,
    bindings: &BTreeMap<String, Node<'_>>,
    own_dir: &str,
) -> Option<RouterRef> {
    let source = file.source;
    let root = chain_root(receiver, source, bindings, MAX_GROUP_DEPTH)?;
    let name = syntax::text(root, source);
    let function = syntax::ancestors(file.root, receiver)
        .into_iter()
        .rev()
        .find(|node| matches!(node.kind(), "function_declaration" | "method_declaration"))?;
    let key = declared_name(function, source)?;
    // The parameters by position: a declaration of several names takes a position each, one
    // without a name one.
    let position = field_child(function, Child::Parameters)
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|parameter| {
            matches!(
                parameter.kind(),
                "parameter_declaration" | "variadic_parameter_declaration"
            )
        })
        .flat_map(|parameter| {
            let mut cursor = parameter.walk();
            let names: Vec<Option<&str>> = parameter
                .children_by_field_name("name", &mut cursor)
                .map(|name| Some(syntax::text(name, source)))
                .collect();
            if names.is_empty() {
                vec![None]
            } else {
                names
            }
        })
        .position(|parameter| parameter == Some(name))?;
    Some(RouterRef::Imported {
        file: format!("{own_dir}/"),
        name: parameter_key(&key, position),
    })
}

/// How a router parameter is named in mounts: the function (`Register`, `Type.Method`) and the
/// parameter's position, so that only the argument at that position of a call mounts it
/// (`Register(auth, v1)` hands on `v1` as `Register#1`, and `auth`, a parameter of the caller
/// too, mounts nothing that routes hang off).
pub(super) fn parameter_key(function: &str, position: usize) -> String {
    format!("{function}#{position}")
}

/// The name callers give a function or method declaration: `Register`, or `Type.Method` for a
/// method (its receiver's type, pointer or not, type arguments dropped), as
/// [`project_function`] names the method a call on a value of that type reaches.
fn declared_name(declaration: Node<'_>, source: &str) -> Option<String> {
    let name = syntax::text(field_child(declaration, Child::Name)?, source);
    match declaration.kind() {
        "function_declaration" => Some(name.to_owned()),
        "method_declaration" => {
            let receiver = field_child(declaration, Child::Receiver)
                .map(named_children)
                .unwrap_or_default()
                .into_iter()
                .find(|parameter| parameter.kind() == "parameter_declaration")?;
            let (_, type_name) = type_name(field_child(receiver, Child::Type)?, source)?;
            Some(format!("{type_name}.{name}"))
        }
        _ => None,
    }
}

/// A named type as written, through `*` and type arguments: `(None, "T")` for `T`,
/// `(Some("pkg"), "T")` for `pkg.T`.
fn type_name<'source>(
    node: Node<'_>,
    source: &'source str,
) -> Option<(Option<&'source str>, &'source str)> {
    match node.kind() {
        "pointer_type" | "parenthesized_type" => named_children(node)
            .into_iter()
            .next()
            .and_then(|inner| type_name(inner, source)),
        "generic_type" => type_name(field_child(node, Child::Type)?, source),
        "type_identifier" => Some((None, syntax::text(node, source))),
        "qualified_type" => Some((
            Some(syntax::text(field_child(node, Child::Package)?, source)),
            syntax::text(field_child(node, Child::Name)?, source),
        )),
        _ => None,
    }
}

/// The project type of the value a method is called on (`api` in `api.Register(v1)`), by its
/// package directory: a parameter or receiver of an enclosing function typed with it
/// (`api *router.APIRouter`, as wire hands routers in), or a variable of the enclosing function
/// declared with it (`var api router.APIRouter`) or bound to its composite literal
/// (`api := &router.APIRouter{}`) before the call. A value of any other origin has no known type.
fn value_type(
    value: Node<'_>,
    file: &FileSyntax<'_, '_>,
    package_dirs: &BTreeMap<String, String>,
    own_dir: &str,
) -> Option<(String, String)> {
    let source = file.source;
    if value.kind() != "identifier" {
        return None;
    }
    let name = syntax::text(value, source);
    let typed = |node: Node<'_>| -> Option<(String, String)> {
        let (package, type_name) = type_name(node, source)?;
        let directory = match package {
            Some(package) => package_dirs.get(package)?.clone(),
            None => own_dir.to_owned(),
        };
        Some((directory, type_name.to_owned()))
    };
    for function in syntax::ancestors(file.root, value).into_iter().rev() {
        if !matches!(
            function.kind(),
            "function_declaration" | "method_declaration" | "func_literal"
        ) {
            continue;
        }
        let parameters = [Child::Receiver, Child::Parameters]
            .into_iter()
            .filter_map(|list| field_child(function, list))
            .flat_map(named_children)
            .filter(|parameter| parameter.kind() == "parameter_declaration");
        for parameter in parameters {
            let mut cursor = parameter.walk();
            let declares = parameter
                .children_by_field_name("name", &mut cursor)
                .any(|parameter| syntax::text(parameter, source) == name);
            if declares {
                return field_child(parameter, Child::Type).and_then(typed);
            }
        }
        // A variable of the function, declared before the call.
        let declared = syntax::descendants(function)
            .take_while(|node| node.start_byte() < value.start_byte())
            .filter_map(|node| match node.kind() {
                "var_spec" => {
                    let index = named_children(node)
                        .into_iter()
                        .filter(|child| child.kind() == "identifier")
                        .position(|child| syntax::text(child, source) == name)?;
                    match field_child(node, Child::Type) {
                        Some(written) => Some(typed(written)),
                        None => Some(
                            field_child(node, Child::Value)
                                .map(named_children)
                                .and_then(|values| values.get(index).copied())
                                .and_then(|literal| literal_type(literal, source))
                                .and_then(typed),
                        ),
                    }
                }
                "short_var_declaration" => {
                    let names = field_child(node, Child::Left).map(named_children)?;
                    let index = names
                        .iter()
                        .position(|child| syntax::text(*child, source) == name)?;
                    Some(
                        field_child(node, Child::Right)
                            .map(named_children)
                            .and_then(|values| values.get(index).copied())
                            .and_then(|literal| literal_type(literal, source))
                            .and_then(typed),
                    )
                }
                _ => None,
            })
            .last();
        if let Some(found) = declared {
            return found;
        }
        if function.kind() != "func_literal" {
            break;
        }
    }
    None
}

/// The type of a composite literal, or of its address (`&router.APIRouter{…}`).
fn literal_type<'tree>(value: Node<'tree>, source: &str) -> Option<Node<'tree>> {
    match value.kind() {
        "composite_literal" => field_child(value, Child::Type),
        "unary_expression" if syntax::text(value, source).starts_with('&') => named_children(value)
            .into_iter()
            .next()
            .and_then(|operand| literal_type(operand, source)),
        _ => None,
    }
}

/// The calls that hand a router to a function of the project (`routes.Register(v1)`,
/// `registerUsers(api.Group("/users"))`): each is a mount of that function, keyed by its
/// package directory, under the router the argument's chain starts at, with the argument's group
/// prefix. An argument counts when it is a group chain, or a variable or parameter whose chain
/// starts at a parameter of the enclosing function, or bound to `gin.Default()`-style
/// constructors (`Default`, `New`, `NewRouter`, `NewServeMux`).
///
/// chi's `r.Mount("/api", api.Routes())` mounts the router a function of the project returns
/// (`func Routes() chi.Router { r := chi.NewRouter(); …; return r }`) at its prefix.
pub(super) fn mounts(
    calls: &[Node<'_>],
    file: &FileSyntax<'_, '_>,
    context: (&BTreeMap<String, Node<'_>>, &[Node<'_>], &Returns),
    package_dirs: &BTreeMap<String, String>,
    own_dir: &str,
) -> Vec<RouterMount> {
    calls
        .iter()
        .flat_map(|call| {
            let mut found = mount_of(*call, file, context.0, package_dirs, own_dir);
            found.extend(returned_mount_of(
                *call,
                file,
                context,
                package_dirs,
                own_dir,
            ));
            found
        })
        .collect()
}

/// The project function a call names, by its package directory: `routes()` in the file's own
/// package, `api.Routes()` in the package the file imports as `api`, and `x.Register()` on a
/// value `x` of a project type `T` (see [`value_type`]) the method `T.Register` of `T`'s package.
pub(super) fn project_function(
    call: Node<'_>,
    file: &FileSyntax<'_, '_>,
    package_dirs: &BTreeMap<String, String>,
    own_dir: &str,
) -> Option<(String, String)> {
    let source = file.source;
    let function = field_child(call, Child::Function)?;
    match function.kind() {
        "identifier" => Some((
            own_dir.to_owned(),
            syntax::text(function, source).to_owned(),
        )),
        "selector_expression" => {
            let operand = field_child(function, Child::Operand)?;
            let field = syntax::text(field_child(function, Child::Field)?, source);
            if let Some((directory, type_name)) = value_type(operand, file, package_dirs, own_dir) {
                return Some((directory, format!("{type_name}.{field}")));
            }
            let directory = package_dirs.get(syntax::text(operand, source))?;
            Some((directory.clone(), field.to_owned()))
        }
        _ => None,
    }
}

/// chi's `x.Mount("/p", f())` with `f` a function of the project: a mount of the router `f`
/// returns under the router `x` is (a parameter's, a returned one's, or a constructed
/// variable's), at `x`'s prefixes and `/p`.
pub(super) fn returned_mount_of(
    call: Node<'_>,
    file: &FileSyntax<'_, '_>,
    (bindings, statements, returns): (&BTreeMap<String, Node<'_>>, &[Node<'_>], &Returns),
    package_dirs: &BTreeMap<String, String>,
    own_dir: &str,
) -> Option<RouterMount> {
    let source = file.source;
    let function = field_child(call, Child::Function)
        .filter(|function| function.kind() == "selector_expression")?;
    if syntax::text(field_child(function, Child::Field)?, source) != "Mount" {
        return None;
    }
    let receiver = field_child(function, Child::Operand)?;
    let arguments: Vec<Node<'_>> = field_child(call, Child::Arguments)
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|argument| argument.kind() != "comment")
        .collect();
    let [pattern, handler] = arguments.as_slice() else {
        return None;
    };
    let pattern = string_value(*pattern, source)?;
    if handler.kind() != "call_expression" {
        return None;
    }
    let (directory, name) = project_function(*handler, file, package_dirs, own_dir)?;
    let parent = parameter_router(receiver, file, bindings, own_dir)
        .or_else(|| returned_router(receiver, file, (bindings, statements, returns), own_dir))
        .or_else(|| {
            let root = chain_root(receiver, source, bindings, MAX_GROUP_DEPTH)?;
            let root_name = syntax::text(root, source);
            bindings
                .get(root_name)
                .is_some_and(|value| is_constructor(*value, source))
                .then(|| RouterRef::Local(root_name.to_owned()))
        })?;
    let prefix = join_path(&[
        &closure_prefix(file, call, receiver),
        &group_prefix(receiver, source, bindings, MAX_GROUP_DEPTH),
        &pattern,
    ]);
    Some(RouterMount {
        parent,
        prefix,
        replaces_own_prefix: false,
        child: RouterRef::Imported {
            file: format!("{directory}/"),
            name,
        },
        prefix_constant: None,
    })
}

/// Whether a value is a router constructor call (`gin.Default()`, `echo.New()`,
/// `chi.NewRouter()`, `http.NewServeMux()`).
pub(super) fn is_constructor(value: Node<'_>, source: &str) -> bool {
    value.kind() == "call_expression"
        && field_child(value, Child::Function)
            .map(|callee| syntax::text(callee, source))
            .and_then(|callee| callee.rsplit('.').next())
            .is_some_and(|last| matches!(last, "Default" | "New" | "NewRouter" | "NewServeMux"))
}

/// The router a route or mount receiver hangs off when the enclosing function builds it and
/// returns it (`func Routes() chi.Router { r := chi.NewRouter(); r.Get(…); return r }`), also
/// from inside the closures of its `r.Route("/p", func(r chi.Router) {…})` and `r.Group(…)`:
/// that function, keyed by its package directory (`dir/`), as [`parameter_router`] keys it.
pub(super) fn returned_router(
    receiver: Node<'_>,
    file: &FileSyntax<'_, '_>,
    (bindings, statements, returns): (&BTreeMap<String, Node<'_>>, &[Node<'_>], &Returns),
    own_dir: &str,
) -> Option<RouterRef> {
    let source = file.source;
    let root = chain_root(receiver, source, bindings, MAX_GROUP_DEPTH)?;
    let mut name = syntax::text(root, source);
    let ancestors = syntax::ancestors(file.root, receiver);
    // Out of the closures that declare the name and are the handlers of `x.Route`/`x.Group`.
    for (index, ancestor) in ancestors.iter().enumerate().rev() {
        if ancestor.kind() == "function_declaration" {
            break;
        }
        if ancestor.kind() != "func_literal" || !declares_parameter(*ancestor, name, source) {
            continue;
        }
        let operand = index
            .checked_sub(2)
            .and_then(|at| ancestors.get(at))
            .filter(|node| node.kind() == "call_expression")
            .and_then(|call| field_child(*call, Child::Function))
            .filter(|function| function.kind() == "selector_expression")
            .filter(|function| {
                field_child(*function, Child::Field)
                    .is_some_and(|field| matches!(syntax::text(field, source), "Route" | "Group"))
            })
            .and_then(|function| field_child(function, Child::Operand))
            .filter(|operand| operand.kind() == "identifier")?;
        name = syntax::text(operand, source);
    }
    let function = ancestors
        .iter()
        .rev()
        .find(|node| node.kind() == "function_declaration")?;
    let within = |node: &Node<'_>| {
        node.start_byte() >= function.start_byte() && node.end_byte() <= function.end_byte()
    };
    // Built in the function …
    let built = statements
        .iter()
        .filter(|statement| within(statement))
        .any(|statement| {
            let left = field_child(*statement, Child::Left).map(named_children);
            let right = field_child(*statement, Child::Right).map(named_children);
            matches!(
                (left.as_deref(), right.as_deref()),
                (Some([bound]), Some([value]))
                    if syntax::text(*bound, source) == name && is_constructor(*value, source)
            )
        });
    // … and returned by it.
    let returned = built
        && returns
            .of(*function, source)
            .iter()
            .any(|value| value == name);
    returned.then(|| RouterRef::Imported {
        file: format!("{own_dir}/"),
        name: field_child(*function, Child::Name)
            .map(|name| syntax::text(name, source).to_owned())
            .unwrap_or_default(),
    })
}

/// The names each function of a file returns (`return r`, `return r, nil`), read once per
/// function however many routes and mounts ask ([`returned_router`]).
#[derive(Default)]
pub(super) struct Returns(pub(super) std::cell::RefCell<BTreeMap<usize, Vec<String>>>);

impl Returns {
    pub(super) fn of(&self, function: Node<'_>, source: &str) -> Vec<String> {
        self.0
            .borrow_mut()
            .entry(function.id())
            .or_insert_with(|| {
                syntax::descendants(function)
                    .filter(|node| node.kind() == "return_statement")
                    .flat_map(named_children)
                    .flat_map(|list| {
                        if list.kind() == "expression_list" {
                            named_children(list)
                        } else {
                            vec![list]
                        }
                    })
                    .filter(|value| value.kind() == "identifier")
                    .map(|value| syntax::text(value, source).to_owned())
                    .collect()
            })
            .clone()
    }
}

/// Whether a function literal declares a parameter `name`.
pub(super) fn declares_parameter(literal: Node<'_>, name: &str, source: &str) -> bool {
    literal
        .child_field("parameters")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .flat_map(|parameter| {
            named_children(parameter)
                .into_iter()
                .filter(|child| child.kind() == "identifier")
        })
        .any(|parameter| syntax::text(parameter, source) == name)
}

pub(super) fn mount_of(
    call: Node<'_>,
    file: &FileSyntax<'_, '_>,
    bindings: &BTreeMap<String, Node<'_>>,
    package_dirs: &BTreeMap<String, String>,
    own_dir: &str,
) -> Vec<RouterMount> {
    let source = file.source;
    let arguments: Vec<Node<'_>> = field_child(call, Child::Arguments)
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|argument| argument.kind() != "comment")
        .collect();
    // Most calls hand on no router: the callee is looked up only for one that does.
    let mut callee: Option<Option<(String, String)>> = None;
    let mut found = Vec::new();
    for (position, argument) in arguments.into_iter().enumerate() {
        let Some(root) = chain_root(argument, source, bindings, MAX_GROUP_DEPTH) else {
            continue;
        };
        let root_name = syntax::text(root, source);
        let parent = match parameter_router(argument, file, bindings, own_dir) {
            Some(parent) => parent,
            None => {
                let constructed = bindings
                    .get(root_name)
                    .is_some_and(|value| is_constructor(*value, source));
                if !constructed {
                    continue;
                }
                RouterRef::Local(root_name.to_owned())
            }
        };
        let Some((directory, name)) = callee
            .get_or_insert_with(|| project_function(call, file, package_dirs, own_dir))
            .as_ref()
        else {
            return Vec::new();
        };
        found.push(RouterMount {
            parent,
            prefix: group_prefix(argument, source, bindings, MAX_GROUP_DEPTH),
            replaces_own_prefix: false,
            child: RouterRef::Imported {
                file: format!("{directory}/"),
                name: parameter_key(name, position),
            },
            prefix_constant: None,
        });
    }
    found
}
