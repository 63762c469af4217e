//! Dependency injection facts of C# (see `di_policy` in policies/LANGUAGE.md).
//!
//! - `constructor_injection`: each parameter of a constructor or primary constructor (classes,
//!   records, structs) whose type is not a predefined type; `class` is the declaring type,
//!   `parameterType` its type as [`super::simple_type`] writes it.
//! - `di_registration`: `Add{Singleton,Scoped,Transient}` and `TryAdd…` in the generic forms
//!   `<IS, S>` and `<S>`, the `typeof(IS), typeof(S)` and `typeof(S)` forms, a factory lambda
//!   whose body is `new S(…)` or an instance `new S(…)` (implementation `S`), and
//!   `AddDbContext<T>` (scoped). A factory that is not a `new` leaves `implementation` out.
//! - `service_resolution`: `GetService<T>()`, `GetRequiredService<T>()`, `GetServices<T>()`,
//!   `GetService(typeof(T))`, and a constructor parameter of type `IServiceProvider` (service
//!   `IServiceProvider`, method `inject`).

use policies::facts::{Confidence, Fact, FactKind};
use tree_sitter::Node;

use super::simple_type;
use crate::facts::calls_and_assignments::{CallsAndAssignmentsGrammar, FileSyntax};
use crate::facts::{set, FactFactory};
use crate::lang::csharp::calls_and_assignments::{simple_name, CSharp};
use crate::lang::csharp::walk::{field_child, Child};
use crate::query::{Field, QueryHit};
use crate::source_scope;
use crate::syntax::ChildField;
use crate::syntax::{self, named_children};
use crate::walk::Ancestor;

/// Type declarations that may have a (primary) constructor.
const TYPE_DECLARATIONS: [&str; 4] = [
    "class_declaration",
    "record_declaration",
    "struct_declaration",
    "record_struct_declaration",
];

/// The parameters of constructors and primary constructors of a C# file, each by its node id
/// with its ancestors (root first, parent last) as the file's walk met it: the other
/// parameters inject nothing, and reading a parameter's ancestors again from the root costs
/// more than the rest of its fact.
#[derive(Debug, Default)]
pub(crate) struct ConstructorParameters<'tree>(Vec<(usize, Box<[Node<'tree>]>)>);

impl<'tree> ConstructorParameters<'tree> {
    /// Keeps `parameter` (reached by the walk below `ancestors`, with their fields) when it is
    /// the parameter of a constructor or primary constructor.
    pub(crate) fn visit(&mut self, parameter: Node<'tree>, ancestors: &[Ancestor<'tree>]) {
        let declaration = ancestors
            .len()
            .checked_sub(2)
            .and_then(|index| ancestors.get(index));
        if declaration.is_some_and(|(declaration, _)| declares_constructor(declaration.kind())) {
            self.0.push((
                parameter.id(),
                ancestors.iter().map(|(ancestor, _)| *ancestor).collect(),
            ));
        }
    }

    fn ancestors_of(&self, parameter: Node<'_>) -> Option<&[Node<'tree>]> {
        self.0
            .iter()
            .find(|(id, _)| *id == parameter.id())
            .map(|(_, ancestors)| &ancestors[..])
    }
}

/// Whether a declaration of `kind` takes the parameters of a constructor.
fn declares_constructor(kind: &str) -> bool {
    kind == "constructor_declaration" || TYPE_DECLARATIONS.contains(&kind)
}

/// The DI facts of a C# file.
pub(super) fn facts(
    factory: &FactFactory<'_>,
    hits: &[QueryHit<'_>],
    file: &FileSyntax<'_, '_>,
    constructor_parameters: &ConstructorParameters<'_>,
) -> Vec<Fact> {
    let mut facts = Vec::new();
    for hit in hits {
        match hit.kind {
            FactKind::ConstructorInjection => {
                facts.extend(injection(factory, hit, file, constructor_parameters));
            }
            FactKind::DiRegistration => facts.extend(registration(factory, hit, file)),
            FactKind::ServiceResolution => facts.extend(resolution(factory, hit, file)),
            _ => {}
        }
    }
    facts
}

fn injection(
    factory: &FactFactory<'_>,
    hit: &QueryHit<'_>,
    file: &FileSyntax<'_, '_>,
    constructor_parameters: &ConstructorParameters<'_>,
) -> Vec<Fact> {
    let source = file.source;
    let (Some(parameter), Some(type_node)) = (hit.node(Field::Parameter), hit.node(Field::Type))
    else {
        return Vec::new();
    };
    if is_predefined(type_node) {
        return Vec::new();
    }
    // The parameter's ancestors, parent last, as the walk met them (`Node::parent` reads them
    // from the root on every call); a parameter of anything but a constructor injects nothing.
    let Some(ancestors) = constructor_parameters.ancestors_of(parameter) else {
        return Vec::new();
    };
    let above = |levels: usize| {
        ancestors
            .len()
            .checked_sub(levels)
            .and_then(|index| ancestors.get(index))
            .copied()
    };
    let Some(declaration) = above(2) else {
        return Vec::new();
    };
    debug_assert!(declares_constructor(declaration.kind()));
    let class = match declaration.kind() {
        "constructor_declaration" => above(4).and_then(|class| class.child_field("name")),
        kind if TYPE_DECLARATIONS.contains(&kind) => declaration.child_field("name"),
        _ => None,
    };
    let Some(class) = class.map(|name| syntax::text(name, source)) else {
        return Vec::new();
    };
    // A constructor bears its type's name. C# 14's `extension(IRestClient client) { … }` block,
    // which tree-sitter-c-sharp 0.23 reads as a constructor named `extension`, injects nothing.
    if declaration.kind() == "constructor_declaration"
        && declaration
            .child_field("name")
            .is_some_and(|name| syntax::text(name, source) != class)
    {
        return Vec::new();
    }
    let parameter_name = parameter
        .child_field("name")
        .map(|name| syntax::text(name, source))
        .unwrap_or_default();
    let parameter_type = simple_type(type_node, source);
    // The scope from the ancestors read above, as `file.scope_of` would work it out.
    let scope = source_scope::within(ancestors, source, crate::lang::csharp::scope_name);
    let mut fact = factory.fact(
        FactKind::ConstructorInjection,
        parameter,
        Confidence::Definite,
        scope.clone(),
        format!("constructor of `{class}` injects `{parameter_type} {parameter_name}`"),
    );
    set(&mut fact, "class", class);
    set(&mut fact, "parameter", parameter_name);
    set(&mut fact, "parameterType", parameter_type.as_str());
    let mut facts = vec![fact];
    if parameter_type == "IServiceProvider" {
        facts.push(resolution_fact(
            factory,
            parameter,
            "IServiceProvider",
            "inject",
            scope,
        ));
    }
    facts
}

fn is_predefined(type_node: Node<'_>) -> bool {
    match type_node.kind() {
        "predefined_type" => true,
        "nullable_type" | "array_type" => named_children(type_node)
            .into_iter()
            .next()
            .is_some_and(is_predefined),
        _ => false,
    }
}

/// The type arguments of a generic method name (`AddScoped<I, S>` → `I`, `S`).
fn type_arguments<'tree>(name: Node<'tree>) -> Vec<Node<'tree>> {
    if name.kind() != "generic_name" {
        return Vec::new();
    }
    named_children(name)
        .into_iter()
        .find(|child| child.kind() == "type_argument_list")
        .map(named_children)
        .unwrap_or_default()
}

/// The type of `typeof(T)`.
fn typeof_type(node: Node<'_>) -> Option<Node<'_>> {
    (node.kind() == "typeof_expression").then(|| field_child(node, Child::Type))?
}

/// The type a factory or instance argument constructs: `new S(…)`, `sp => new S(…)`.
fn constructed_type(node: Node<'_>) -> Option<Node<'_>> {
    match node.kind() {
        "object_creation_expression" => field_child(node, Child::Type),
        "lambda_expression" | "anonymous_method_expression" => {
            constructed_type(node.child_field("body")?)
        }
        _ => None,
    }
}

fn registration(
    factory: &FactFactory<'_>,
    hit: &QueryHit<'_>,
    file: &FileSyntax<'_, '_>,
) -> Option<Fact> {
    let source = file.source;
    let (call, name_node, list) = (
        hit.node(Field::Call)?,
        hit.node(Field::Method)?,
        hit.node(Field::Arguments)?,
    );
    let method = simple_name(name_node, source);
    let lifetime = if method == "AddDbContext" {
        "scoped"
    } else {
        ["Singleton", "Scoped", "Transient"]
            .into_iter()
            .find(|lifetime| method.ends_with(lifetime))
            .map(|lifetime| match lifetime {
                "Singleton" => "singleton",
                "Scoped" => "scoped",
                _ => "transient",
            })?
    };
    let types = type_arguments(name_node);
    let arguments = CSharp.arguments(list);
    let type_text = |node: Node<'_>| simple_type(node, source);
    let (service, implementation) = match (types.as_slice(), arguments.as_slice()) {
        ([service, implementation], _) => (type_text(*service), Some(type_text(*implementation))),
        ([service], _) if method == "AddDbContext" => {
            (type_text(*service), Some(type_text(*service)))
        }
        ([service], []) => (type_text(*service), Some(type_text(*service))),
        ([service], [factory_argument, ..]) => (
            type_text(*service),
            constructed_type(*factory_argument).map(type_text),
        ),
        ([], [first, rest @ ..]) => match (typeof_type(*first), rest.first()) {
            (Some(service), None) => (type_text(service), Some(type_text(service))),
            (Some(service), Some(second)) => (
                type_text(service),
                typeof_type(*second)
                    .or_else(|| constructed_type(*second))
                    .map(type_text),
            ),
            (None, _) => {
                let instance = constructed_type(*first)?;
                (type_text(instance), Some(type_text(instance)))
            }
        },
        _ => return None,
    };
    let shown = implementation.as_deref().unwrap_or("?");
    let mut fact = factory.fact(
        FactKind::DiRegistration,
        call,
        Confidence::Definite,
        (file.scope_of)(call),
        format!("`{method}` registers `{service}` as `{shown}` ({lifetime})"),
    );
    set(&mut fact, "service", service);
    if let Some(implementation) = implementation {
        set(&mut fact, "implementation", implementation);
    }
    set(&mut fact, "lifetime", lifetime);
    set(&mut fact, "method", method);
    Some(fact)
}

fn resolution(
    factory: &FactFactory<'_>,
    hit: &QueryHit<'_>,
    file: &FileSyntax<'_, '_>,
) -> Option<Fact> {
    let source = file.source;
    let (call, name_node) = (hit.node(Field::Call)?, hit.node(Field::Method)?);
    let method = simple_name(name_node, source);
    let service = match type_arguments(name_node).first() {
        Some(service) => simple_type(*service, source),
        None => {
            let first = CSharp
                .arguments(hit.node(Field::Arguments)?)
                .into_iter()
                .next()?;
            simple_type(typeof_type(first)?, source)
        }
    };
    Some(resolution_fact(
        factory,
        call,
        &service,
        &method,
        (file.scope_of)(call),
    ))
}

fn resolution_fact(
    factory: &FactFactory<'_>,
    node: Node<'_>,
    service: &str,
    method: &str,
    scope: Option<String>,
) -> Fact {
    let message = if method == "inject" {
        format!("injection of the service locator `{service}`")
    } else {
        format!("`{method}` resolves `{service}` from the service provider")
    };
    let mut fact = factory.fact(
        FactKind::ServiceResolution,
        node,
        Confidence::Definite,
        scope,
        message,
    );
    set(&mut fact, "service", service);
    set(&mut fact, "method", method);
    fact
}
