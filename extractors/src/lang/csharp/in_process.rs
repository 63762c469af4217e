//! HttpClients that call the project's own application in the test process: those an ASP.NET
//! Core test host makes (`WebApplicationFactory<T>.CreateClient()`, `TestServer.CreateClient()`,
//! `new HttpClient(server.CreateHandler())`). Their requests never leave the process, so their
//! `HttpClient` is no `external_api` access.
//!
//! Read from the file alone: a field, property, parameter or local is such a client when the
//! file assigns it (or initialises it with) a `Create…Client(…)` call on a test host, TestHost's
//! `host.GetTestClient()`, an `HttpClient` built on a test host's handler, or a name that is such
//! a client (`_client = client`). A test host is a `…Server` member or name (`factory.Server`),
//! or a name the file declares with a type `TestServer`, `WebApplicationFactory<T>` or a type
//! named `…ApplicationFactory` (the convention for the project's own subclasses), or assigns
//! `new` of one. An `HttpClient` parameter beside a test host parameter (`LoginHelper(
//! ApiApplicationFactory factory, HttpClient client)`), or of a member of a test host class, is
//! the host's client too.
//! `IHttpClientFactory.CreateClient("name")` makes real outbound clients and is never one.
//!
//! A test's mock is no access either, of any client: a field, property or local the file
//! assigns a mock (`Substitute.For<IHttpClientFactory>()`, `A.Fake<T>()`, Moq's
//! `new Mock<T>().Object` or `mock.Object` of a `Mock<T>`), and an `HttpClient` built on a mocked
//! or fake handler: such a mock, a `Mock…`/`Fake…`/`Stub…` handler type (RichardSzalay.MockHttp's
//! `MockHttpMessageHandler`), a class of the file that derives from `HttpMessageHandler` itself
//! (it answers the requests: `new HttpClient(this)` inside it too), or a name assigned or declared
//! as one; `handler.ToHttpClient()` of such a handler is such a client.

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
    /// The file's classes that derive from `HttpMessageHandler` itself.
    fake_handlers: HashSet<String>,
    /// Whether the file was read (it may hold a test host or a mock).
    read: bool,
    /// The `HttpClient` parameters beside a test host, by node id.
    host_parameters: HashSet<usize>,
    /// The names assigned an in-process client or a mock, with where each assignment starts.
    client_targets: Vec<(String, usize)>,
}

impl InProcess {
    /// Reads the file; empty unless its text may hold a test host.
    pub fn read(root: Node<'_>, source: &str) -> Self {
        let mut found = Self::default();
        let may_host = ((source.contains("Client(") || source.contains("CreateHandler"))
            && (source.contains("Factory") || source.contains("Server")))
            || ["ApplicationFactory", "TestServer", "GetTestClient"]
                .iter()
                .any(|hint| source.contains(hint));
        let may_mock = ["Mock", "Fake", "Stub", "Substitute", "HttpMessageHandler"]
            .iter()
            .any(|hint| source.contains(hint));
        if !may_host && !may_mock {
            return found;
        }
        found.read = true;
        let mut assignments: Vec<(Node<'_>, Node<'_>)> = Vec::new();
        let mut parameter_lists = Vec::new();
        for node in crate::syntax::descendants(root) {
            found.read_declaration(node, source, &mut assignments);
            match node.kind() {
                "class_declaration" if derives_from_message_handler(node, source) => {
                    if let Some(name) = node.child_field("name") {
                        found
                            .fake_handlers
                            .insert(syntax::text(name, source).to_owned());
                    }
                }
                "parameter_list" => parameter_lists.push(node),
                _ => {}
            }
        }
        // A name assigned a new test host is one (`var factory = new ApiApplicationFactory()`).
        for (target, value) in &assignments {
            let value = unwrapped(*value);
            if value.kind() == "object_creation_expression" {
                if let Some(kind) = value
                    .child_field("type")
                    .map(|kind| type_name(kind, source))
                    .filter(|kind| is_host_type(kind))
                {
                    found.types.insert(last_name(*target, source), kind);
                }
            }
        }
        // An `HttpClient` handed to code beside its test host (`LoginHelper(ApiApplicationFactory
        // factory, HttpClient client)`), or to a method of a test host class, is the host's.
        for list in parameter_lists {
            found.read_host_parameters(list, source);
        }
        // Handlers first: a client may be built on one.
        for (target, value) in &assignments {
            if found.is_handler(*value, source) {
                found.handlers.insert(last_name(*target, source));
            }
        }
        // A name assigned an in-process client is one too (`_client = client`), through a few
        // steps of such assignments.
        for _ in 0..4 {
            let before = found.clients.len();
            for (target, value) in &assignments {
                if found.is_client(*value, source) {
                    found.clients.insert(last_name(*target, source));
                }
            }
            if found.clients.len() == before {
                break;
            }
        }
        for (target, value) in &assignments {
            if found.is_client(*value, source) {
                found
                    .client_targets
                    .push((last_name(*target, source), target.start_byte()));
            }
        }
        found
    }

    /// Records the `HttpClient` parameters of a parameter list that also takes a test host, or
    /// that belongs to a member of a test host class, as in-process clients.
    fn read_host_parameters(&mut self, list: Node<'_>, source: &str) {
        let parameters: Vec<(String, String)> = named_children(list)
            .into_iter()
            .filter(|parameter| parameter.kind() == "parameter")
            .filter_map(|parameter| {
                let name = syntax::text(parameter.child_field("name")?, source).to_owned();
                Some((name, type_name(parameter.child_field("type")?, source)))
            })
            .collect();
        let is_http = |kind: &str| kind.rsplit('.').next().unwrap_or(kind) == "HttpClient";
        if !parameters.iter().any(|(_, kind)| is_http(kind)) {
            return;
        }
        let beside_host = parameters.iter().any(|(_, kind)| is_host_type(kind));
        if !beside_host && !enclosing_class_is_host(list, source) {
            return;
        }
        for parameter in named_children(list)
            .into_iter()
            .filter(|parameter| parameter.kind() == "parameter")
        {
            let kind = parameter
                .child_field("type")
                .map(|kind| type_name(kind, source));
            let name = parameter.child_field("name");
            if let (Some(kind), Some(name)) = (kind, name) {
                if is_http(&kind) {
                    self.host_parameters.insert(parameter.id());
                    self.clients.insert(syntax::text(name, source).to_owned());
                }
            }
        }
    }

    /// Whether a client site is in-process or mocked: a declaration of a name the file assigns
    /// an in-process client or a mock, or (`http`: the site is an `HttpClient`) an `HttpClient`
    /// built on a test host's or a mocked handler.
    pub fn holds(&self, site: Node<'_>, source: &str, http: bool) -> bool {
        if !self.read {
            return false;
        }
        if site.kind() == "object_creation_expression" {
            return http && self.is_client(site, source);
        }
        if site.kind() == "parameter" {
            return self.holds_parameter(site, source);
        }
        declared_names(site, source)
            .iter()
            .any(|name| self.clients.contains(name))
    }

    /// Whether a parameter is in-process or mocked: one beside a test host, or one its own
    /// method assigns such a client (`authed = _authed` of an `out` parameter). A parameter
    /// of the same name elsewhere in the file is another's.
    fn holds_parameter(&self, parameter: Node<'_>, source: &str) -> bool {
        if self.host_parameters.contains(&parameter.id()) {
            return true;
        }
        let Some(name) = parameter.child_field("name") else {
            return false;
        };
        let name = syntax::text(name, source);
        let Some(member) = parameter.parent().and_then(|list| list.parent()) else {
            return false;
        };
        let range = member.byte_range();
        self.client_targets
            .iter()
            .any(|(target, start)| target == name && range.contains(start))
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

    /// Whether an expression makes an in-process or mocked client: `host.Create…Client(…)`,
    /// `new HttpClient(handler)` on a test host's or mocked handler, `handler.ToHttpClient()`
    /// of a mocked handler, or a mock.
    fn is_client(&self, value: Node<'_>, source: &str) -> bool {
        let value = unwrapped(value);
        if is_mock(value, source, &self.types) {
            return true;
        }
        match value.kind() {
            "invocation_expression" => {
                let on_host = self.host_call(value, source).is_some_and(|method| {
                    method.starts_with("Create") && method.ends_with("Client")
                });
                on_host
                    || is_test_client_call(value, source)
                    || self.is_mocked_handler_client(value, source)
            }
            "identifier" | "member_access_expression" => {
                self.clients.contains(&last_name(value, source))
            }
            "object_creation_expression" => {
                let first = value
                    .child_field("arguments")
                    .and_then(|arguments| named_children(arguments).into_iter().next())
                    .and_then(|argument| {
                        // `this` is an unnamed node of the grammar.
                        named_children(argument).pop().or_else(|| {
                            argument
                                .child(argument.child_count().saturating_sub(1))
                                .filter(|last| last.kind() == "this")
                        })
                    });
                first.is_some_and(|first| self.is_handler(first, source))
            }
            _ => false,
        }
    }

    /// Whether an expression is a test host's handler (`host.CreateHandler(…)`) or a mocked or
    /// fake one (a mock, `new MockHttpMessageHandler()`, `new` of a class of the file that
    /// derives from `HttpMessageHandler`, `this` inside one), or a name assigned or declared as
    /// one.
    fn is_handler(&self, value: Node<'_>, source: &str) -> bool {
        let value = unwrapped(value);
        if is_mock(value, source, &self.types) {
            return true;
        }
        match value.kind() {
            "invocation_expression" => self
                .host_call(value, source)
                .is_some_and(|method| method == "CreateHandler"),
            "object_creation_expression" => value
                .child_field("type")
                .is_some_and(|kind| self.is_fake_handler_type(&type_name(kind, source))),
            "this" | "this_expression" => enclosing_class(value, source)
                .is_some_and(|class| self.is_fake_handler_type(&class)),
            "identifier" | "member_access_expression" => {
                let name = last_name(value, source);
                self.handlers.contains(&name)
                    || self
                        .types
                        .get(&name)
                        .is_some_and(|kind| self.is_fake_handler_type(kind))
            }
            _ => false,
        }
    }

    /// Whether a type is a mocked or fake handler: named `Mock…`, `Fake…` or `Stub…`, or a
    /// class of the file that derives from `HttpMessageHandler` itself.
    fn is_fake_handler_type(&self, name: &str) -> bool {
        let name = name.rsplit('.').next().unwrap_or(name);
        ["Mock", "Fake", "Stub"]
            .iter()
            .any(|prefix| name.starts_with(prefix))
            || self.fake_handlers.contains(name)
    }

    /// `handler.ToHttpClient()` of a mocked or fake handler (RichardSzalay.MockHttp's, and the
    /// same helper on a project's own mock).
    fn is_mocked_handler_client(&self, call: Node<'_>, source: &str) -> bool {
        let Some(function) = call
            .child_field("function")
            .filter(|function| function.kind() == "member_access_expression")
        else {
            return false;
        };
        let is_to_client = function
            .child_field("name")
            .is_some_and(|name| syntax::text(name, source) == "ToHttpClient");
        is_to_client
            && function
                .child_field("expression")
                .is_some_and(|receiver| self.is_handler(receiver, source))
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

/// Whether an expression is a mock: `Substitute.For<T>(…)` (and `ForPartsOf`), `A.Fake<T>()`,
/// or Moq's `.Object` of `new Mock<T>(…)` or of a name declared `Mock<T>`.
fn is_mock(value: Node<'_>, source: &str, types: &HashMap<String, String>) -> bool {
    match value.kind() {
        "invocation_expression" => {
            let Some(function) = value.child_field("function") else {
                return false;
            };
            let written = syntax::text(function, source);
            let callee = written.split('<').next().unwrap_or(written).trim();
            let callee = callee.strip_prefix("NSubstitute.").unwrap_or(callee);
            let callee = callee.strip_prefix("FakeItEasy.").unwrap_or(callee);
            matches!(
                callee,
                "Substitute.For" | "Substitute.ForPartsOf" | "A.Fake"
            )
        }
        "member_access_expression" => {
            let is_object = value
                .child_field("name")
                .is_some_and(|name| syntax::text(name, source) == "Object");
            let Some(receiver) = value.child_field("expression").map(unwrapped) else {
                return false;
            };
            let is_moq = |kind: &str| kind.rsplit('.').next().unwrap_or(kind) == "Mock";
            is_object
                && match receiver.kind() {
                    "object_creation_expression" => receiver
                        .child_field("type")
                        .is_some_and(|kind| is_moq(&type_name(kind, source))),
                    "identifier" | "member_access_expression" => types
                        .get(&last_name(receiver, source))
                        .is_some_and(|kind| is_moq(kind)),
                    _ => false,
                }
        }
        _ => false,
    }
}

/// `host.GetTestClient()`: ASP.NET Core TestHost's client of a host it started.
fn is_test_client_call(call: Node<'_>, source: &str) -> bool {
    call.child_field("function")
        .filter(|function| function.kind() == "member_access_expression")
        .and_then(|function| function.child_field("name"))
        .is_some_and(|name| syntax::text(name, source) == "GetTestClient")
}

/// Whether the class around a node is a test host: named as one (`…ApplicationFactory`), or
/// deriving from one (`WebApplicationFactory<Program>`).
fn enclosing_class_is_host(node: Node<'_>, source: &str) -> bool {
    let mut current = node.parent();
    while let Some(ancestor) = current {
        if ancestor.kind() == "class_declaration" {
            let named = ancestor
                .child_field("name")
                .is_some_and(|name| is_host_type(syntax::text(name, source)));
            let derives = named_children(ancestor)
                .into_iter()
                .filter(|child| child.kind() == "base_list")
                .flat_map(named_children)
                .any(|base| is_host_type(&type_name(base, source)));
            return named || derives;
        }
        current = ancestor.parent();
    }
    false
}

/// Whether a class declaration names `HttpMessageHandler` itself among its bases (not
/// `DelegatingHandler` or `HttpClientHandler`, which send requests on).
fn derives_from_message_handler(class: Node<'_>, source: &str) -> bool {
    named_children(class)
        .into_iter()
        .filter(|child| child.kind() == "base_list")
        .flat_map(named_children)
        .any(|base| {
            let name = type_name(base, source);
            name.rsplit('.').next().unwrap_or(&name) == "HttpMessageHandler"
        })
}

/// The name of the class around a node.
fn enclosing_class(node: Node<'_>, source: &str) -> Option<String> {
    let mut current = node.parent();
    while let Some(ancestor) = current {
        if ancestor.kind() == "class_declaration" {
            let name = ancestor.child_field("name")?;
            return Some(syntax::text(name, source).to_owned());
        }
        current = ancestor.parent();
    }
    None
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
