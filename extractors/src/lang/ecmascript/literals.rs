//! Reading literal values out of JavaScript/TypeScript syntax: string literals, template strings
//! and `+` concatenations with their dynamic parts marked, object-literal properties, argument lists.

use tree_sitter::Node;

use crate::syntax::ChildField;
use crate::syntax::{self, named_children};

/// The marker that stands for a dynamic part in [`Interpolated::text`].
pub(super) const DYNAMIC: &str = "${}";

/// The value of a string literal, escapes decoded.
pub(super) fn string_value(node: Node<'_>, source: &str) -> String {
    let mut value = String::new();
    for child in named_children(node) {
        let text = syntax::text(child, source);
        match child.kind() {
            "escape_sequence" => value.push_str(&decode_escape(text)),
            _ => value.push_str(text),
        }
    }
    value
}

fn decode_escape(escape: &str) -> String {
    let body = escape.strip_prefix('\\').unwrap_or(escape);
    let simple = match body {
        "n" => Some('\n'),
        "t" => Some('\t'),
        "r" => Some('\r'),
        "0" => Some('\0'),
        "b" => Some('\u{8}'),
        "f" => Some('\u{c}'),
        "v" => Some('\u{b}'),
        _ => None,
    };
    if let Some(character) = simple {
        return character.to_string();
    }
    let hex = body
        .strip_prefix("u{")
        .and_then(|rest| rest.strip_suffix('}'))
        .or_else(|| body.strip_prefix('u'))
        .or_else(|| body.strip_prefix('x'));
    if let Some(character) = hex
        .and_then(|digits| u32::from_str_radix(digits, 16).ok())
        .and_then(char::from_u32)
    {
        return character.to_string();
    }
    // Line continuations vanish; any other escaped character stands for itself.
    body.trim_start_matches(['\n', '\r']).to_owned()
}

/// A string built from literal and dynamic parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Interpolated {
    /// The text as written, without quotes (template substitutions keep their `${…}` source).
    pub written: String,
    /// The literal parts with every dynamic part replaced by [`DYNAMIC`].
    pub text: String,
}

/// Reads a string literal, a template string or a `+` concatenation of them; `None` for any other
/// expression.
pub(super) fn interpolated(node: Node<'_>, source: &str) -> Option<Interpolated> {
    interpolated_with(node, source, &Constants::default())
}

/// [`interpolated`], with the names of `constants` read as their values where they stand
/// alone in a substitution or as an operand (`${API}/orders`, `API + '/orders'`).
pub(super) fn interpolated_with(
    node: Node<'_>,
    source: &str,
    constants: &Constants<'_>,
) -> Option<Interpolated> {
    let value = interpolated_within(node, source, constants, MAX_CONCATENATION_DEPTH)?;
    // A concatenation of dynamic parts only (`a + b`) is no string the file writes.
    let only_dynamic = value.text.replace(DYNAMIC, "").is_empty();
    (!(only_dynamic && node.kind() == "binary_expression")).then_some(value)
}

/// The string constants a file declares at its top level: `const API = '/api'` (exported or
/// not), a string or a template string without substitutions; [`Constants::with_locals`], also
/// the `const`s of the function or block where a name is read.
#[derive(Debug, Default)]
pub(super) struct Constants<'tree>(
    std::collections::BTreeMap<String, String>,
    Option<Local<'tree>>,
);

/// What a name read inside a function or block needs: the file's tree, and the names written
/// after `const` anywhere in its text (a name that is not among them has no local constant, and
/// costs no walk of its scopes).
#[derive(Debug, Clone)]
struct Local<'tree> {
    root: Node<'tree>,
    names: std::sync::Arc<std::collections::BTreeSet<String>>,
    /// The value node of the `const` a name read at a node stands for, in its scopes.
    lookup: LocalLookup,
    /// The lookups left to the file: each walks from the root to the name, so a generated file
    /// of thousands of reads (a deep `+` chain) stops reading local constants after a while.
    left: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

/// Where the `const` a name read inside a function or block is declared: `(root, name, source)`
/// to the declaration's value ([`super::traced::local_const`]).
pub(super) type LocalLookup = for<'n> fn(Node<'n>, Node<'n>, &str) -> Option<Node<'n>>;

/// How many names read inside functions or blocks one file may look up.
const MAX_LOCAL_LOOKUPS: usize = 256;

/// The names written right after a `const` keyword in `source` (`const route = …`).
fn const_names(source: &str) -> std::collections::BTreeSet<String> {
    let is_name = |character: char| character.is_alphanumeric() || matches!(character, '_' | '$');
    let mut names = std::collections::BTreeSet::new();
    for (start, _) in source.match_indices("const") {
        let before = source[..start].chars().next_back();
        if before.is_some_and(is_name) {
            continue;
        }
        let rest = &source[start + "const".len()..];
        let trimmed = rest.trim_start();
        if trimmed.len() == rest.len() {
            continue;
        }
        let end = trimmed
            .find(|character: char| !is_name(character))
            .unwrap_or(trimmed.len());
        if end > 0 {
            names.insert(trimmed[..end].to_owned());
        }
    }
    names
}

impl<'tree> Constants<'tree> {
    /// The constants of the program `root`; a name declared twice is left out.
    pub(super) fn of(root: Node<'tree>, source: &str) -> Self {
        let mut values = std::collections::BTreeMap::new();
        let mut repeated = std::collections::BTreeSet::new();
        let declarations =
            named_children(root)
                .into_iter()
                .flat_map(|statement| match statement.kind() {
                    "export_statement" => {
                        statement.child_field("declaration").into_iter().collect()
                    }
                    _ => vec![statement],
                });
        for declaration in declarations {
            if !is_const_declaration(declaration, source) {
                continue;
            }
            for (name, declarator) in named_declarators(declaration, source) {
                let name = name.to_owned();
                let value = declarator
                    .child_field("value")
                    .and_then(|value| static_string(value, source));
                match value {
                    Some(value) if !repeated.contains(&name) => {
                        if values.insert(name.clone(), value).is_some() {
                            values.remove(&name);
                            repeated.insert(name);
                        }
                    }
                    _ => {
                        values.remove(&name);
                        repeated.insert(name);
                    }
                }
            }
        }
        Self(values, None)
    }

    /// These constants, and the `const`s of the function or block where a name is read (of the
    /// tree `root`), which `lookup` finds.
    pub(super) fn with_locals(self, root: Node<'tree>, source: &str, lookup: LocalLookup) -> Self {
        let local = Local {
            root,
            names: std::sync::Arc::new(const_names(source)),
            lookup,
            left: std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(MAX_LOCAL_LOOKUPS)),
        };
        Self(self.0, Some(local))
    }

    /// The constants the program `root` exports whose values look like URLs or paths (`/api`,
    /// `https://host/api`), under their exported names: `export const API = '/api'`,
    /// `export { API, BASE as API_BASE }`, and the string properties of an exported constant
    /// object (`export const environment = { apiUrl: 'https://…' }` as `environment.apiUrl`).
    pub(super) fn exported_urls(root: Node<'tree>, source: &str) -> Vec<(String, String)> {
        let constants = Self::of(root, source);
        let mut exported = Vec::new();
        let mut properties = Vec::new();
        // Paths on a base the file computes at run time (`basePath + '/api/state'`, with
        // `const basePath = getBasePath()`): `${basePath}/api/state`, a path of some host.
        let mut on_dynamic_base: std::collections::BTreeMap<String, String> =
            std::collections::BTreeMap::new();
        for statement in named_children(root)
            .into_iter()
            .filter(|statement| statement.kind() == "export_statement")
        {
            if let Some(declaration) = statement.child_field("declaration") {
                let is_const = is_const_declaration(declaration, source);
                for (name, declarator) in named_declarators(declaration, source) {
                    exported.push((name.to_owned(), name.to_owned()));
                    if let Some(value) = declarator
                        .child_field("value")
                        .filter(|_| is_const && !constants.0.contains_key(name))
                        .and_then(|value| path_on_dynamic_base(value, source, &constants))
                    {
                        on_dynamic_base.insert(name.to_owned(), value);
                    }
                    if let Some(object) = declarator
                        .child_field("value")
                        .filter(|_| is_const)
                        .map(without_type_assertion)
                    {
                        object_strings(object, name, source, 3, &mut properties);
                    }
                }
                continue;
            }
            // `export { a, b as c }` without `from`: the file's own names.
            if statement.child_field("source").is_some() {
                continue;
            }
            for clause in named_children(statement)
                .into_iter()
                .filter(|child| child.kind() == "export_clause")
            {
                for specifier in named_children(clause) {
                    let Some(local) = specifier.child_field("name") else {
                        continue;
                    };
                    let local = syntax::text(local, source);
                    let name = specifier
                        .child_field("alias")
                        .map_or(local, |alias| syntax::text(alias, source));
                    exported.push((name.to_owned(), local.to_owned()));
                }
            }
        }
        let dynamic = exported
            .iter()
            .filter_map(|(name, local)| Some((name.clone(), on_dynamic_base.get(local)?.clone())))
            .collect::<Vec<_>>();
        exported
            .into_iter()
            .filter_map(|(name, local)| Some((name, constants.0.get(&local)?.clone())))
            .chain(properties)
            .filter(|(_, value)| value.starts_with('/') || value.contains("://"))
            .chain(dynamic)
            .collect()
    }

    /// The value of the identifier `node`, when it names a constant.
    /// These constants and `name` standing for `value` (a request wrapper's URL parameter).
    pub(super) fn with(&self, name: &str, value: &str) -> Self {
        let mut values = self.0.clone();
        values.insert(name.to_owned(), value.to_owned());
        Self(values, self.1.clone())
    }

    /// The value `node` stands for in the file (a constant's name, or a field read as `this.x`),
    /// when it is known there.
    pub(super) fn known(&self, node: Node<'_>, source: &str) -> Option<String> {
        self.value_of(node, source, MAX_CONCATENATION_DEPTH)
            .map(std::borrow::Cow::into_owned)
    }

    /// The value of `node`: a constant's name (of the file's top level, else of the enclosing
    /// function or block), or `this.x` where `x` is a field of the enclosing
    /// class that a string initialises and nothing assigns again ([`field_initializer`]).
    /// `depth` bounds the fields read through other fields (`a = this.b`, `b = this.a`).
    fn value_of(
        &self,
        node: Node<'_>,
        source: &str,
        depth: usize,
    ) -> Option<std::borrow::Cow<'_, str>> {
        match node.kind() {
            "identifier" => match self.0.get(syntax::text(node, source)) {
                Some(value) => Some(std::borrow::Cow::Borrowed(value.as_str())),
                // A `const` of the enclosing function or block (`const route = '/api/x'`).
                None => {
                    let local = self.1.as_ref()?;
                    let name = syntax::text(node, source);
                    if !local.names.contains(name) {
                        return None;
                    }
                    let ordering = std::sync::atomic::Ordering::Relaxed;
                    let left = local.left.load(ordering);
                    if left == 0 {
                        return None;
                    }
                    local.left.store(left - 1, ordering);
                    let value = (local.lookup)(local.root, node, source)?;
                    let text = interpolated_within(value, source, self, depth)?.text;
                    // A value with dynamic parts stands for its pattern when it starts with a
                    // literal (`/api/domains/${domain}` is a path of the own origin); one that
                    // starts with a hole (`${host}/api`) says nothing of where it leads.
                    (!text.starts_with(DYNAMIC)).then_some(std::borrow::Cow::Owned(text))
                }
            },
            "member_expression" => {
                let value = field_initializer(node, source)?;
                let text = interpolated_within(value, source, self, depth)?.text;
                (!text.contains(DYNAMIC)).then_some(std::borrow::Cow::Owned(text))
            }
            _ => None,
        }
    }
}

/// The initial value of the field that `this.name` (`node`) reads, when the enclosing class
/// declares it with a value (`private baseUrl = environment.apiUrl + 'config/'`, as Angular
/// services write their API's address) and no code of the class assigns `this.name` again.
pub(super) fn field_initializer<'tree>(node: Node<'tree>, source: &str) -> Option<Node<'tree>> {
    if node.kind() != "member_expression" || node.child_field("object")?.kind() != "this" {
        return None;
    }
    let property = node.child_field("property")?;
    let name = syntax::text(property, source);
    let mut ancestor = node.parent();
    let body = loop {
        let current = ancestor?;
        if current.kind() == "class_body" {
            break current;
        }
        ancestor = current.parent();
    };
    let mut fields = named_children(body).into_iter().filter(|member| {
        member.kind() == "public_field_definition"
            && member
                .child_field("name")
                .is_some_and(|field| syntax::text(field, source) == name)
    });
    let value = fields.next()?.child_field("value")?;
    if fields.next().is_some()
        || assigns_field(syntax::text(body, source), name)
        || subclass_bodies(body, source)
            .into_iter()
            .any(|subclass| assigns_field(syntax::text(subclass, source), name))
    {
        return None;
    }
    Some(value)
}

/// The URL expression a method of the class returns, where a request's URL is a call of it
/// (`this.http.get(this.getResourceUrl(id))`): the one statement of the method's body is
/// `return <expression>` (its fields are then read as [`field_initializer`] reads them, its
/// parameters are dynamic). A method the class declares more than once, a getter or setter,
/// and one a subclass in the same file declares again are not read.
pub(super) fn returned_by_method<'tree>(call: Node<'tree>, source: &str) -> Option<Node<'tree>> {
    if call.kind() != "call_expression" {
        return None;
    }
    let function = call.child_field("function")?;
    if function.kind() != "member_expression" || function.child_field("object")?.kind() != "this" {
        return None;
    }
    let name = syntax::text(function.child_field("property")?, source);
    let mut ancestor = call.parent();
    let body = loop {
        let current = ancestor?;
        if current.kind() == "class_body" {
            break current;
        }
        ancestor = current.parent();
    };
    let declares = |body: Node<'tree>| -> Vec<Node<'tree>> {
        named_children(body)
            .into_iter()
            .filter(|member| {
                member.kind() == "method_definition"
                    && member
                        .child_field("name")
                        .is_some_and(|method| syntax::text(method, source) == name)
            })
            .collect()
    };
    let [method] = declares(body).try_into().ok()?;
    let method: Node<'tree> = method;
    let mut cursor = method.walk();
    let is_accessor = method
        .children(&mut cursor)
        .any(|token| matches!(token.kind(), "get" | "set" | "static"));
    if is_accessor
        || subclass_bodies(body, source)
            .into_iter()
            .any(|subclass| !declares(subclass).is_empty())
    {
        return None;
    }
    let statements: Vec<Node<'tree>> = named_children(method.child_field("body")?)
        .into_iter()
        .filter(|statement| statement.kind() != "comment")
        .collect();
    let [statement] = statements.as_slice() else {
        return None;
    };
    if statement.kind() != "return_statement" {
        return None;
    }
    named_children(*statement)
        .into_iter()
        .find(|value| value.kind() != "comment")
}

/// The bodies of the classes of the same file (top level, exported or not) that extend the
/// class whose body is `body` by name (`class TagService extends ResourceService`).
fn subclass_bodies<'tree>(body: Node<'tree>, source: &str) -> Vec<Node<'tree>> {
    let Some(name) = body
        .parent()
        .and_then(|class| class.child_field("name"))
        .map(|name| syntax::text(name, source))
    else {
        return Vec::new();
    };
    let mut root = body;
    while let Some(parent) = root.parent() {
        root = parent;
    }
    let mut bodies = Vec::new();
    for statement in named_children(root) {
        let class = if statement.kind() == "export_statement" {
            match statement.child_field("declaration") {
                Some(declaration) => declaration,
                None => continue,
            }
        } else {
            statement
        };
        if !matches!(
            class.kind(),
            "class_declaration" | "abstract_class_declaration"
        ) {
            continue;
        }
        let extends = named_children(class)
            .into_iter()
            .filter(|child| child.kind() == "class_heritage")
            .flat_map(|heritage| {
                // TypeScript wraps `extends X` in an `extends_clause`; JavaScript does not.
                let clauses: Vec<Node<'tree>> = named_children(heritage)
                    .into_iter()
                    .filter(|clause| clause.kind() == "extends_clause")
                    .collect();
                if clauses.is_empty() {
                    named_children(heritage)
                } else {
                    clauses
                        .into_iter()
                        .filter_map(|clause| clause.child_field("value"))
                        .collect()
                }
            })
            .any(|base| syntax::text(base, source) == name);
        if extends {
            bodies.extend(class.child_field("body"));
        }
    }
    bodies
}

/// Whether the class body `source` assigns `this.name` anywhere (`this.name = …`,
/// `this.name += …`).
fn assigns_field(source: &str, name: &str) -> bool {
    let needle = format!("this.{name}");
    source.match_indices(&needle).any(|(start, _)| {
        let rest = source.get(start + needle.len()..).unwrap_or_default();
        if rest.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$') {
            return false;
        }
        let rest = rest.trim_start();
        let operator: String = rest.chars().take(3).collect();
        (operator.starts_with('=') && !operator.starts_with("=="))
            || ["+=", "-=", "??=", "||=", "&&="]
                .iter()
                .any(|compound| operator.starts_with(compound))
    })
}

/// Whether a declaration is a `const` one.
fn is_const_declaration(declaration: Node<'_>, source: &str) -> bool {
    declaration.kind() == "lexical_declaration"
        && declaration
            .child_field("kind")
            .is_some_and(|kind| syntax::text(kind, source) == "const")
}

/// The declarators of a declaration that bind a plain name, with the name.
fn named_declarators<'tree, 's>(
    declaration: Node<'tree>,
    source: &'s str,
) -> Vec<(&'s str, Node<'tree>)> {
    named_children(declaration)
        .into_iter()
        .filter(|child| child.kind() == "variable_declarator")
        .filter_map(|declarator| {
            let name = declarator
                .child_field("name")
                .filter(|name| name.kind() == "identifier")?;
            Some((syntax::text(name, source), declarator))
        })
        .collect()
}

/// An expression without its `as const` or `satisfies T`.
fn without_type_assertion(node: Node<'_>) -> Node<'_> {
    match node.kind() {
        "as_expression" | "satisfies_expression" => named_children(node)
            .into_iter()
            .next()
            .map_or(node, without_type_assertion),
        _ => node,
    }
}

/// The string properties of an object literal as `prefix.key` (nested objects as
/// `prefix.key.inner`, `depth` levels down).
fn object_strings(
    object: Node<'_>,
    prefix: &str,
    source: &str,
    depth: usize,
    found: &mut Vec<(String, String)>,
) {
    let Some(depth) = depth.checked_sub(1) else {
        return;
    };
    if object.kind() != "object" {
        return;
    }
    for pair in named_children(object)
        .into_iter()
        .filter(|member| member.kind() == "pair")
    {
        let (Some(key), Some(value)) = (pair.child_field("key"), pair.child_field("value")) else {
            continue;
        };
        let key = match key.kind() {
            "property_identifier" => syntax::text(key, source).to_owned(),
            "string" => string_value(key, source),
            _ => continue,
        };
        let name = format!("{prefix}.{key}");
        let value = without_type_assertion(value);
        match static_string(value, source) {
            Some(text) => found.push((name, text)),
            None => object_strings(value, &name, source, depth, found),
        }
    }
}

/// How deep `+` concatenations are followed; deeper ones read as dynamic (and the recursion
/// stays far from the stack limit on minified input).
const MAX_CONCATENATION_DEPTH: usize = 32;

fn interpolated_within(
    node: Node<'_>,
    source: &str,
    constants: &Constants<'_>,
    depth: usize,
) -> Option<Interpolated> {
    let depth = depth.checked_sub(1)?;
    if let Some(value) = constants.value_of(node, source, depth) {
        return Some(Interpolated {
            written: format!("${{{}}}", syntax::text(node, source)),
            text: value.into_owned(),
        });
    }
    match node.kind() {
        "string" => {
            let value = string_value(node, source);
            Some(Interpolated {
                written: value.clone(),
                text: value,
            })
        }
        "template_string" => {
            let written = syntax::text(node, source);
            let written = written.strip_prefix('`').unwrap_or(written);
            let written = written.strip_suffix('`').unwrap_or(written).to_owned();
            let mut text = String::new();
            for child in named_children(node) {
                match child.kind() {
                    "template_substitution" => {
                        let constant = named_children(child)
                            .into_iter()
                            .find(|inner| inner.kind() != "comment")
                            .and_then(|inner| constants.value_of(inner, source, depth));
                        text.push_str(constant.as_deref().unwrap_or(DYNAMIC));
                    }
                    "escape_sequence" => text.push_str(&decode_escape(syntax::text(child, source))),
                    _ => text.push_str(syntax::text(child, source)),
                }
            }
            Some(Interpolated { written, text })
        }
        "binary_expression"
            if node
                .child_field("operator")
                .is_some_and(|operator| operator.kind() == "+") =>
        {
            let left = node.child_field("left")?;
            let right = node.child_field("right")?;
            let part = |side: Node<'_>| {
                interpolated_within(side, source, constants, depth).unwrap_or_else(|| {
                    Interpolated {
                        written: format!("${{{}}}", syntax::compact_text(side, source, 80)),
                        text: DYNAMIC.to_owned(),
                    }
                })
            };
            // Each dynamic operand stays a part of its own (`${base}${path}/x`), so that a
            // constant of another file can take its place (`crate::resolve::links`); a concatenation of
            // dynamic parts only is left out by [`interpolated_with`].
            let (left, right) = (part(left), part(right));
            Some(Interpolated {
                written: left.written + &right.written,
                text: left.text + &right.text,
            })
        }
        "parenthesized_expression" => named_children(node)
            .into_iter()
            .find(|child| child.kind() != "comment")
            .and_then(|inner| interpolated_within(inner, source, constants, depth)),
        _ => None,
    }
}

/// The value of a string literal or of a template string without substitutions.
pub(super) fn static_string(node: Node<'_>, source: &str) -> Option<String> {
    let value = interpolated(node, source)?;
    (!value.text.contains(DYNAMIC)).then_some(value.text)
}

/// The value of a constant that is a path on a base only known at run time, as a request's URL
/// writes it (`${basePath}/api/state` for `basePath + '/api/state'` or `` `${basePath}/api/state` ``):
/// a leading name or call, then a literal path of at least one segment.
fn path_on_dynamic_base(
    value: Node<'_>,
    source: &str,
    constants: &Constants<'_>,
) -> Option<String> {
    let value = interpolated_with(value, source, constants)?;
    let rest = value.text.strip_prefix(DYNAMIC)?;
    let literal = rest.split(DYNAMIC).next().unwrap_or_default();
    let has_segment = literal.strip_prefix('/').is_some_and(|path| {
        path.chars()
            .next()
            .is_some_and(|first| first.is_alphanumeric() || first == '_')
    });
    (has_segment && value.written.starts_with("${")).then_some(value.written)
}

/// The arguments of an `arguments` node, comments left out.
pub(super) fn arguments(node: Node<'_>) -> Vec<Node<'_>> {
    named_children(node)
        .into_iter()
        .filter(|argument| argument.kind() != "comment")
        .collect()
}

/// The value of property `name` in an object literal (`{ name: value }` or shorthand `{ name }`).
pub(super) fn object_property<'tree>(
    object: Node<'tree>,
    name: &str,
    source: &str,
) -> Option<Node<'tree>> {
    if object.kind() != "object" {
        return None;
    }
    named_children(object)
        .into_iter()
        .find_map(|member| match member.kind() {
            "pair" => {
                let key = member.child_field("key")?;
                let key_text = match key.kind() {
                    "string" => string_value(key, source),
                    _ => syntax::text(key, source).to_owned(),
                };
                (key_text == name)
                    .then(|| member.child_field("value"))
                    .flatten()
            }
            "shorthand_property_identifier" => {
                (syntax::text(member, source) == name).then_some(member)
            }
            _ => None,
        })
}

/// The name a property key or member name spells (`foo`, `'foo'`, `#foo`).
pub(super) fn property_name(node: Node<'_>, source: &str) -> String {
    match node.kind() {
        "string" => string_value(node, source),
        _ => syntax::text(node, source).to_owned(),
    }
}

/// The functions the file declares at its top level under `name` (`function name(…)`, `const
/// name = (…) => …`, `const name = function (…) {…}`), exported or not, in order. `node` is any
/// node of the file.
pub(super) fn top_level_functions<'tree>(
    node: Node<'tree>,
    name: &str,
    source: &str,
) -> Vec<Node<'tree>> {
    let program = std::iter::successors(Some(node), |node| node.parent())
        .last()
        .unwrap_or(node);
    named_children(program)
        .into_iter()
        .filter_map(|statement| {
            let statement = match statement.kind() {
                "export_statement" => statement.child_field("declaration")?,
                _ => statement,
            };
            match statement.kind() {
                "function_declaration" => statement
                    .child_field("name")
                    .is_some_and(|declared| syntax::text(declared, source) == name)
                    .then_some(statement),
                "lexical_declaration" | "variable_declaration" => {
                    declared_value(statement, name, source).filter(|value| {
                        matches!(
                            value.kind(),
                            "arrow_function" | "function_expression" | "function"
                        )
                    })
                }
                _ => None,
            }
        })
        .collect()
}

/// The value a `const`, `let` or `var` statement gives `name`.
pub(super) fn declared_value<'tree>(
    statement: Node<'tree>,
    name: &str,
    source: &str,
) -> Option<Node<'tree>> {
    named_children(statement)
        .into_iter()
        .find_map(|declarator| {
            (declarator.kind() == "variable_declarator"
                && declarator
                    .child_field("name")
                    .is_some_and(|declared| syntax::text(declared, source) == name))
            .then(|| declarator.child_field("value"))
            .flatten()
        })
}
