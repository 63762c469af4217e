//! HttpClients that call the project's own application in the test process: those an ASP.NET
//! Core test host makes (`WebApplicationFactory<T>.CreateClient()`, `TestServer.CreateClient()`,
//! `new HttpClient(server.CreateHandler())`). Their requests never leave the process, so their
//! `HttpClient` is no `external_api` access.
//!
//! Read from the file alone: a field, property, parameter or local is such a client when the
//! file assigns it (or initialises it with) a `Create…Client(…)` call on a test host, or an
//! `HttpClient` built on a test host's handler. A test host is a `…Server` member or name
//! (`factory.Server`), or a name the file declares with a type `TestServer`,
//! `WebApplicationFactory<T>` or a type named `…ApplicationFactory` (the convention for the
//! project's own subclasses). `IHttpClientFactory.CreateClient("name")` makes real outbound
//! clients and is never one.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use crate::syntax::{self, named_children, ChildField};

/// The names of the file's in-process clients and handlers.
#[derive(Debug, Default)]
pub(super) struct InProcess {
    /// Fields, properties and locals assigned an in-process client.
    clients: HashSet<String>,
    /// Locals and fields assigned a test host's handler.
    handlers: HashSet<String>,
    /// Declared name → type name (without generic arguments), as written.
    types: HashMap<String, String>,
}

impl InProcess {
    /// Reads the file; empty unless its text may hold a test host.
    pub fn read(root: Node<'_>, source: &str) -> Self {
        let mut found = Self::default();
        if !(source.contains("Client(") || source.contains("CreateHandler"))
            || !(source.contains("Factory") || source.contains("Server"))
        {
            return found;
        }
        let mut assignments: Vec<(Node<'_>, Node<'_>)> = Vec::new();
        for node in crate::syntax::descendants(root) {
            found.read_declaration(node, source, &mut assignments);
        }
        // Handlers first: a client may be built on one.
        for (target, value) in &assignments {
            if found.is_handler(*value, source) {
                found.handlers.insert(last_name(*target, source));
            }
        }
        for (target, value) in &assignments {
            if found.is_client(*value, source) {
                found.clients.insert(last_name(*target, source));
            }
        }
        found
    }

    /// Whether a client site is in-process: a declaration of a name the file assigns an
    /// in-process client, or an `HttpClient` built on a test host's handler.
    pub fn holds(&self, site: Node<'_>, source: &str) -> bool {
        if self.clients.is_empty() && self.handlers.is_empty() {
            return false;
        }
        if site.kind() == "object_creation_expression" {
            return self.is_client(site, source);
        }
        declared_names(site, source)
            .iter()
            .any(|name| self.clients.contains(name))
    }

    /// Records a declaration's names and types, and its initialisers and assignments.
    fn read_declaration<'tree>(
        &mut self,
        node: Node<'tree>,
        source: &str,
        assignments: &mut Vec<(Node<'tree>, Node<'tree>)>,
    ) {
        match node.kind() {
            "parameter" | "property_declaration" => {
                if let (Some(name), Some(kind)) =
                    (node.child_field("name"), node.child_field("type"))
                {
                    self.types.insert(
                        syntax::text(name, source).to_owned(),
                        type_name(kind, source),
                    );
                }
                if let (Some(name), Some(value)) =
                    (node.child_field("name"), node.child_field("value"))
                {
                    assignments.push((name, value));
                }
            }
            "variable_declaration" => {
                let kind = node.child_field("type").map(|kind| type_name(kind, source));
                for declarator in named_children(node)
                    .into_iter()
                    .filter(|child| child.kind() == "variable_declarator")
                {
                    let Some(name) = declarator.child_field("name") else {
                        continue;
                    };
                    if let Some(kind) = &kind {
                        self.types
                            .insert(syntax::text(name, source).to_owned(), kind.clone());
                    }
                    if let Some(value) = named_children(declarator)
                        .into_iter()
                        .rfind(|child| child.id() != name.id())
                    {
                        assignments.push((name, value));
                    }
                }
            }
            "assignment_expression" => {
                if let (Some(left), Some(right)) =
                    (node.child_field("left"), node.child_field("right"))
                {
                    assignments.push((left, right));
                }
            }
            _ => {}
        }
    }

    /// Whether an expression makes an in-process client: `host.Create…Client(…)`, or
    /// `new HttpClient(handler)` on a test host's handler.
    fn is_client(&self, value: Node<'_>, source: &str) -> bool {
        let value = unwrapped(value);
        match value.kind() {
            "invocation_expression" => self
                .host_call(value, source)
                .is_some_and(|method| method.starts_with("Create") && method.ends_with("Client")),
            "object_creation_expression" => {
                let first = value
                    .child_field("arguments")
                    .and_then(|arguments| named_children(arguments).into_iter().next())
                    .and_then(|argument| named_children(argument).pop());
                first.is_some_and(|first| self.is_handler(first, source))
            }
            _ => false,
        }
    }

    /// Whether an expression is a test host's handler: `host.CreateHandler(…)`, or a name
    /// assigned one.
    fn is_handler(&self, value: Node<'_>, source: &str) -> bool {
        let value = unwrapped(value);
        match value.kind() {
            "invocation_expression" => self
                .host_call(value, source)
                .is_some_and(|method| method == "CreateHandler"),
            "identifier" | "member_access_expression" => {
                self.handlers.contains(&last_name(value, source))
            }
            _ => false,
        }
    }

    /// The method of a call on a test host (`factory.CreateClient()` → `CreateClient`).
    fn host_call<'s>(&self, call: Node<'_>, source: &'s str) -> Option<&'s str> {
        let function = call.child_field("function")?;
        if function.kind() != "member_access_expression" {
            return None;
        }
        let receiver = unwrapped(function.child_field("expression")?);
        let method = syntax::text(function.child_field("name")?, source);
        self.is_host(receiver, source).then_some(method)
    }

    /// Whether an expression is a test host: a `…Server` name or member (`factory.Server`),
    /// `new T(…)` or a name declared with a test host type.
    fn is_host(&self, receiver: Node<'_>, source: &str) -> bool {
        match receiver.kind() {
            "object_creation_expression" => receiver
                .child_field("type")
                .is_some_and(|kind| is_host_type(&type_name(kind, source))),
            "identifier" | "member_access_expression" | "this_expression" => {
                let name = last_name(receiver, source);
                name.ends_with("Server")
                    || self.types.get(&name).is_some_and(|kind| is_host_type(kind))
            }
            _ => false,
        }
    }
}

/// Whether a type is an ASP.NET Core test host (`TestServer`, `WebApplicationFactory<T>`, or a
/// project type named `…ApplicationFactory`), and not `IHttpClientFactory`.
fn is_host_type(name: &str) -> bool {
    let name = name.rsplit('.').next().unwrap_or(name);
    name == "TestServer" || name.ends_with("ApplicationFactory")
}

/// An expression without `await`, parentheses, casts and `!`.
fn unwrapped(mut node: Node<'_>) -> Node<'_> {
    while matches!(
        node.kind(),
        "await_expression" | "parenthesized_expression" | "postfix_unary_expression"
    ) {
        match named_children(node).pop() {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

/// The last name of a target or receiver (`this._client` → `_client`, `Client` → `Client`).
fn last_name(node: Node<'_>, source: &str) -> String {
    match node.kind() {
        "member_access_expression" => node
            .child_field("name")
            .map_or_else(String::new, |name| syntax::text(name, source).to_owned()),
        _ => syntax::text(node, source).to_owned(),
    }
}

/// A type's name without generic arguments (`WebApplicationFactory<Program>` →
/// `WebApplicationFactory`).
fn type_name(node: Node<'_>, source: &str) -> String {
    let text = syntax::text(node, source);
    text.split('<').next().unwrap_or(text).trim().to_owned()
}

/// The names a client site declares: a parameter's or property's name, a field's declarators.
fn declared_names(site: Node<'_>, source: &str) -> Vec<String> {
    match site.kind() {
        "parameter" | "property_declaration" => site
            .child_field("name")
            .map(|name| vec![syntax::text(name, source).to_owned()])
            .unwrap_or_default(),
        "field_declaration" => named_children(site)
            .into_iter()
            .filter(|child| child.kind() == "variable_declaration")
            .flat_map(named_children)
            .filter(|child| child.kind() == "variable_declarator")
            .filter_map(|declarator| declarator.child_field("name"))
            .map(|name| syntax::text(name, source).to_owned())
            .collect(),
        _ => Vec::new(),
    }
}
