//! `http_call` facts: `requests`, `httpx`, `aiohttp` and `urllib3` calls, on the modules and on
//! the clients a file or a class binds, with their base URLs.

use super::*;

/// The names a file binds to a `requests`, `httpx`, `aiohttp` or `urllib3` client, with that
/// module: `session = requests.Session()`, `client = httpx.Client(…)`,
/// `http = urllib3.PoolManager()`,
/// `with httpx.Client() as client`, `async with httpx.AsyncClient(…) as client`,
/// `async with aiohttp.ClientSession() as session` (or `ClientSession()` imported from it).
/// Each binding holds in the function it is made in (or the module), and a name bound in
/// several functions may hold a different client in each.
pub(super) fn client_bindings(root: Node<'_>, source: &str) -> ClientBindings {
    // Every constructor below names one of these in its text: a file without them (most files
    // with a `.get(…)` call) binds no client, and its tree is not walked again.
    if !["requests.", "httpx.", "ClientSession", "urllib3."]
        .iter()
        .any(|constructor| source.contains(constructor))
    {
        return ClientBindings::default();
    }
    let imports_aiohttp = source.contains("aiohttp");
    let client_of = |value: Node<'_>| {
        (value.kind() == "call").then_some(())?;
        match syntax::text(value.child_field("function")?, source) {
            "requests.Session" | "requests.session" => Some("requests"),
            "httpx.Client" | "httpx.AsyncClient" => Some("httpx"),
            "aiohttp.ClientSession" => Some("aiohttp"),
            "ClientSession" if imports_aiohttp => Some("aiohttp"),
            "urllib3.PoolManager" => Some("urllib3"),
            _ => None,
        }
    };
    // `httpx.Client(base_url="https://api.example.com")`: its base URL, a string, an f-string
    // or a name (a hole, as a leading one in a URL).
    let base_of = |value: Node<'_>| {
        let value = keyword_value(value.child_field("arguments")?, "base_url", source)?;
        interpolated(value, source).or_else(|| {
            matches!(value.kind(), "identifier" | "attribute")
                .then(|| format!("{{{}}}", syntax::text(value, source)))
        })
    };
    let mut bindings: BTreeMap<String, Vec<Bound>> = BTreeMap::new();
    for node in syntax::descendants(root) {
        let (name, value) = match node.kind() {
            "assignment" => (node.child_field("left"), node.child_field("right")),
            "as_pattern" => (
                node.child_field("alias")
                    .and_then(|alias| named_children(alias).into_iter().next()),
                named_children(node).into_iter().next(),
            ),
            _ => continue,
        };
        // `self.client = httpx.AsyncClient(…)` holds in the class, in every method.
        let attribute = name.filter(|name| {
            name.kind() == "attribute"
                && name
                    .child_field("object")
                    .is_some_and(|object| syntax::text(object, source) == "self")
        });
        let (Some(name), Some((value, client))) = (
            name.filter(|name| name.kind() == "identifier")
                .or(attribute),
            value.and_then(|value| Some((value, client_of(value)?))),
        ) else {
            continue;
        };
        let holder = if attribute.is_some() {
            "class_definition"
        } else {
            "function_definition"
        };
        let scope = syntax::ancestors(root, node)
            .into_iter()
            .rev()
            .find(|ancestor| ancestor.kind() == holder)
            .unwrap_or(root);
        bindings
            .entry(syntax::text(name, source).to_owned())
            .or_default()
            .push(Bound {
                start: scope.start_byte(),
                end: scope.end_byte(),
                client,
                base: base_of(value),
            });
    }
    ClientBindings(bindings)
}

/// One binding of a name to a client: the byte range of the function, class (for `self.x`) or
/// module it holds in, the client and its base URL.
pub(super) struct Bound {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) client: &'static str,
    pub(super) base: Option<String>,
}

/// [`client_bindings`]: for each name, its bindings.
#[derive(Default)]
pub(super) struct ClientBindings(pub(super) BTreeMap<String, Vec<Bound>>);

impl ClientBindings {
    /// The client `name` holds at `node`, with its base URL: the binding of the innermost
    /// function (or class) around it that binds the name, else the module's.
    pub(super) fn at(&self, name: &str, node: Node<'_>) -> Option<(&'static str, Option<&str>)> {
        let at = node.start_byte();
        self.0
            .get(name)?
            .iter()
            .filter(|bound| bound.start <= at && at < bound.end)
            .min_by_key(|bound| bound.end - bound.start)
            .map(|bound| (bound.client, bound.base.as_deref()))
    }
}

/// The module-level names a file assigns a plain string once (`BASE_URL = "https://x/api"`).
pub(super) fn module_constants(root: Node<'_>, source: &str) -> BTreeMap<String, String> {
    let bindings = named_children(root)
        .into_iter()
        .filter(|statement| statement.kind() == "expression_statement")
        .flat_map(named_children)
        .filter(|node| node.kind() == "assignment")
        .filter_map(|assignment| {
            let name = assignment
                .child_field("left")
                .filter(|left| left.kind() == "identifier")?;
            let value = assignment.child_field("right")?;
            Some((
                syntax::text(name, source).to_owned(),
                string_value(value, source),
            ))
        });
    web::constants_bound_once(bindings)
}

pub(super) fn http_call<'tree>(
    hit: &QueryHit<'tree>,
    file: &FileSyntax<'_, 'tree>,
    clients: &ClientBindings,
    constants: &mut Option<BTreeMap<String, String>>,
) -> Option<HttpCallSite<'tree>> {
    let source = file.source;
    let call = hit.node(Field::Call)?;
    let (client, base) = match syntax::text(hit.node(Field::Receiver)?, source) {
        "requests" => ("requests", None),
        "httpx" => ("httpx", None),
        "aiohttp" => ("aiohttp", None),
        // urllib3 2's module-level `urllib3.request("POST", url)` (pretalx's update check).
        "urllib3" => ("urllib3", None),
        name => clients.at(name, call)?,
    };
    let verb = syntax::text(hit.node(Field::Method)?, source);
    let arguments = positional(hit.node(Field::Arguments)?);
    let (method, url_node) = if verb == "request" {
        let method = arguments
            .first()
            .and_then(|method| string_value(*method, source))
            .map_or_else(|| "*".to_owned(), |method| method.to_uppercase());
        (method, arguments.get(1)?)
    } else {
        (verb.to_uppercase(), arguments.first()?)
    };
    let mut url = interpolated(*url_node, source)?;
    // A client's base URL comes before a relative URL (httpx and aiohttp join them).
    if let Some(base) = base {
        let absolute = url.starts_with("http://") || url.starts_with("https://");
        if !absolute && !url.starts_with('{') {
            url = web::joined_url(base, &url);
        }
    }
    let url = web::with_lazy_constants(url, constants, || module_constants(file.root, source));
    Some(HttpCallSite {
        node: call,
        method,
        url,
        is_static: true,
        client,
        scope: (file.scope_of)(call),
    })
}
