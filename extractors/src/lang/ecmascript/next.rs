//! Next.js route handlers: `route` facts of files that Next routes by their place on disk, in a
//! project that uses Next (`crate::resolve::context::ProjectContext::next_root`).
//!
//! - App Router: `app/**/route.(ts|js|tsx|jsx)` (or under `src/app`) serves each HTTP method it
//!   exports: `export async function GET(…)`, `export const POST = …`, `export const { GET, POST
//!   } = handlers`, `export { handler as PUT }` (also re-exported `from` another module). The
//!   path comes from the folders: `[id]` is a parameter (`{id}`), `[...slug]` a catch-all
//!   (`{...slug}`), `[[...slug]]` an optional catch-all (also serving the folder above it, so two
//!   facts); route groups `(group)` and parallel-route slots `@slot` add nothing to the path;
//!   private folders `_x` and intercepting routes `(.)x` are not routed at all (`%5Fx` is the
//!   segment `_x`).
//! - Pages Router: `pages/api/**` (or `src/pages/api`) serves its default export at the file's
//!   path (`index` is the folder itself; files named `_x` are not routes). Its method is `*`,
//!   unless the file compares `req.method` with string literals (`req.method === 'POST'`,
//!   `req.method !== 'GET'`, `switch (req.method) { case 'GET': … }`): then one fact per method
//!   named. Test files (`*.test.*`, `*.spec.*`) and declaration files are left out.
//!
//! Framework `next`; the handler is the exported function (`GET`) or the local one exported
//! under the method's name (`handler`).

use policies::facts::{Confidence, Fact, FactKind};
use tree_sitter::Node;

use super::literals::static_string;
use super::FileView;
use crate::facts::route_path;
use crate::facts::set;
use crate::syntax::ChildField;
use crate::syntax::{self, named_children};

/// The methods an App Router route handler may export.
const METHODS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/// Next's default page extensions.
const EXTENSIONS: [&str; 4] = ["tsx", "ts", "jsx", "js"];

/// Which router a file belongs to, with its URL paths.
enum Routed {
    App(Vec<String>),
    Pages(Vec<String>),
}

/// The `route` facts of a Next route file; none for any other file.
pub(super) fn extract(view: &FileView<'_, '_>) -> Vec<Fact> {
    let file = view.input.path;
    let Some(root) = view.input.context.next_root(file) else {
        return Vec::new();
    };
    let Some(routed) = routed(file, root) else {
        return Vec::new();
    };
    let source = view.source();
    let program = view.input.tree.root_node();
    match routed {
        Routed::App(paths) => {
            let mut facts = Vec::new();
            for (method, node, handler) in app_exports(program, source) {
                for path in &paths {
                    facts.push(fact(view, node, &method, path, &handler));
                }
            }
            facts
        }
        Routed::Pages(paths) => {
            let Some((node, handler)) = default_export(program, source) else {
                return Vec::new();
            };
            let mut methods = Vec::new();
            compared_methods(program, source, &mut methods);
            methods.sort();
            methods.dedup();
            if methods.is_empty() {
                methods.push("*".to_owned());
            }
            let mut facts = Vec::new();
            for method in &methods {
                for path in &paths {
                    facts.push(fact(view, node, method, path, &handler));
                }
            }
            facts
        }
    }
}

fn fact(view: &FileView<'_, '_>, node: Node<'_>, method: &str, path: &str, handler: &str) -> Fact {
    let normalized = route_path::normalize(path);
    let mut fact = view.factory.fact(
        FactKind::Route,
        node,
        Confidence::Definite,
        view.scope_of(node),
        format!("route `{method} {path}` (next)"),
    );
    fact.route = Some(normalized.as_str().into());
    set(&mut fact, "method", method);
    set(&mut fact, "path", path);
    set(&mut fact, "normalized", normalized);
    set(&mut fact, "framework", "next");
    set(&mut fact, "handler", handler);
    fact
}

/// The router of `file` in the Next application at `root`, with its paths.
fn routed(file: &str, root: &str) -> Option<Routed> {
    let relative = if root.is_empty() {
        file
    } else {
        file.strip_prefix(root)?.strip_prefix('/')?
    };
    let relative = relative.strip_prefix("src/").unwrap_or(relative);
    let (folders, name) = relative.rsplit_once('/')?;
    let (stem, extension) = name.rsplit_once('.')?;
    if !EXTENSIONS.contains(&extension)
        || stem.ends_with(".d")
        || [".test", ".spec"]
            .iter()
            .any(|marker| stem.contains(marker))
    {
        return None;
    }
    let mut segments = folders.split('/');
    match segments.next()? {
        "app" if stem == "route" => {
            let mut kept = Vec::new();
            for segment in segments {
                if segment.starts_with('_') || segment.starts_with("(.") {
                    return None;
                }
                let is_group = segment.starts_with('(') && segment.ends_with(')');
                if !(segment.starts_with('@') || is_group) {
                    kept.push(segment);
                }
            }
            Some(Routed::App(paths(&kept)))
        }
        "pages" if segments.next() == Some("api") => {
            if stem.starts_with('_') {
                return None;
            }
            let mut kept: Vec<&str> = std::iter::once("api").chain(segments).collect();
            if stem != "index" {
                kept.push(stem);
            }
            Some(Routed::Pages(paths(&kept)))
        }
        _ => None,
    }
}

/// The URL paths of route segments: `[id]` → `{id}`, `[...slug]` → `{...slug}`, and an optional
/// catch-all `[[...slug]]` gives the path both without and with `{...slug}`.
fn paths(segments: &[&str]) -> Vec<String> {
    let mut paths = vec![String::new()];
    for segment in segments {
        if let Some(name) = segment
            .strip_prefix("[[...")
            .and_then(|rest| rest.strip_suffix("]]"))
        {
            let mut longer: Vec<String> = paths
                .iter()
                .map(|path| format!("{path}/{{...{name}}}"))
                .collect();
            paths.append(&mut longer);
            continue;
        }
        let segment = match segment
            .strip_prefix('[')
            .and_then(|rest| rest.strip_suffix(']'))
        {
            Some(name) => format!("{{{name}}}"),
            // `%5Fx` is how a URL segment starting with `_` escapes the private-folder rule.
            None => match segment
                .strip_prefix("%5F")
                .or_else(|| segment.strip_prefix("%5f"))
            {
                Some(rest) => format!("_{rest}"),
                None => (*segment).to_owned(),
            },
        };
        for path in &mut paths {
            path.push('/');
            path.push_str(&segment);
        }
    }
    paths.into_iter().map(rooted).collect()
}

fn rooted(path: String) -> String {
    if path.is_empty() {
        "/".to_owned()
    } else {
        path
    }
}

/// The names an exported declaration exports, each with the value it is bound to when that
/// may name a handler: a function's name, and each variable a declaration binds (names of
/// an object pattern included: `export const { GET, POST } = handlers`).
fn declared_exports<'tree>(
    declaration: Node<'tree>,
    add: &mut dyn FnMut(Node<'tree>, Option<Node<'tree>>),
) {
    match declaration.kind() {
        "function_declaration" | "generator_function_declaration" => {
            if let Some(name) = declaration.child_field("name") {
                add(name, None);
            }
        }
        "lexical_declaration" | "variable_declaration" => {
            for declarator in named_children(declaration)
                .into_iter()
                .filter(|node| node.kind() == "variable_declarator")
            {
                let Some(name) = declarator.child_field("name") else {
                    continue;
                };
                match name.kind() {
                    "identifier" => add(name, declarator.child_field("value")),
                    "object_pattern" => pattern_exports(name, add),
                    _ => {}
                }
            }
        }
        _ => {}
    }
}

/// The names an exported object pattern binds: `{ GET }` and `{ handler: GET }` (bound to the
/// key's value).
fn pattern_exports<'tree>(
    pattern: Node<'tree>,
    add: &mut dyn FnMut(Node<'tree>, Option<Node<'tree>>),
) {
    for property in named_children(pattern) {
        match property.kind() {
            "shorthand_property_identifier_pattern" => add(property, None),
            "pair_pattern" => {
                if let Some(value) = property.child_field("value") {
                    add(value, property.child_field("key"));
                }
            }
            _ => {}
        }
    }
}

/// The HTTP methods a route file exports: (method, evidence node, handler).
fn app_exports<'tree>(program: Node<'tree>, source: &str) -> Vec<(String, Node<'tree>, String)> {
    let mut found = Vec::new();
    let mut add = |exported: Node<'tree>, handler: Option<Node<'tree>>| {
        let name = syntax::text(exported, source);
        if METHODS.contains(&name) {
            let handler = handler
                .filter(|node| matches!(node.kind(), "identifier" | "member_expression"))
                .map_or(name, |node| syntax::text(node, source));
            found.push((name.to_owned(), exported, handler.to_owned()));
        }
    };
    for statement in named_children(program)
        .into_iter()
        .filter(|node| node.kind() == "export_statement")
    {
        if syntax::has_token(statement, "default") {
            continue;
        }
        if let Some(declaration) = statement.child_field("declaration") {
            declared_exports(declaration, &mut add);
        }
        for clause in named_children(statement)
            .into_iter()
            .filter(|node| node.kind() == "export_clause")
        {
            for specifier in named_children(clause) {
                let name = specifier.child_field("name");
                match (name, specifier.child_field("alias")) {
                    (Some(name), Some(alias)) => add(alias, Some(name)),
                    (Some(name), None) => add(name, None),
                    _ => {}
                }
            }
        }
    }
    found
}

/// The default export of a Pages Router API file: (evidence node, handler name).
fn default_export<'tree>(program: Node<'tree>, source: &str) -> Option<(Node<'tree>, String)> {
    for statement in named_children(program) {
        match statement.kind() {
            "export_statement" if syntax::has_token(statement, "default") => {
                let exported = statement
                    .child_field("declaration")
                    .or_else(|| statement.child_field("value"))?;
                let handler = handler_name(exported, program, source);
                return Some((statement, handler));
            }
            "expression_statement" => {
                if let Some(right) = super::module_exports_value(statement, source) {
                    return Some((statement, handler_name(right, program, source)));
                }
            }
            _ => {}
        }
    }
    None
}

/// The name of an exported handler: a function's or identifier's name; for a call, the
/// function of the file it wraps (`withAuth(handler)` → `handler`), else the function called
/// (`NextAuth(authOptions)` → `NextAuth`); else `default`.
fn handler_name(exported: Node<'_>, program: Node<'_>, source: &str) -> String {
    match exported.kind() {
        "identifier" => syntax::text(exported, source).to_owned(),
        "call_expression" => exported
            .child_field("arguments")
            .and_then(|list| named_children(list).into_iter().next())
            .filter(|argument| argument.kind() == "identifier")
            .map(|argument| syntax::text(argument, source))
            .filter(|name| declares_function(program, name, source))
            .or_else(|| {
                exported
                    .child_field("function")
                    .filter(|function| {
                        matches!(function.kind(), "identifier" | "member_expression")
                    })
                    .map(|function| syntax::text(function, source))
            })
            .map_or_else(|| "default".to_owned(), str::to_owned),
        _ => exported.child_field("name").map_or_else(
            || "default".to_owned(),
            |name| syntax::text(name, source).to_owned(),
        ),
    }
}

/// Whether the file declares a top-level function `name` (`function name`, `const name = (…) =>`).
fn declares_function(program: Node<'_>, name: &str, source: &str) -> bool {
    named_children(program).into_iter().any(|statement| {
        let statement = match statement.kind() {
            "export_statement" => match statement.child_field("declaration") {
                Some(declaration) => declaration,
                None => return false,
            },
            _ => statement,
        };
        match statement.kind() {
            "function_declaration" | "generator_function_declaration" => statement
                .child_field("name")
                .is_some_and(|declared| syntax::text(declared, source) == name),
            "lexical_declaration" | "variable_declaration" => named_children(statement)
                .into_iter()
                .filter(|node| node.kind() == "variable_declarator")
                .any(|declarator| {
                    declarator
                        .child_field("name")
                        .is_some_and(|declared| syntax::text(declared, source) == name)
                        && declarator.child_field("value").is_some_and(|value| {
                            matches!(
                                value.kind(),
                                "arrow_function" | "function_expression" | "function"
                            )
                        })
                }),
            _ => false,
        }
    })
}

/// The string literals `x.method` is compared with, anywhere under `node`.
fn compared_methods(node: Node<'_>, source: &str, methods: &mut Vec<String>) {
    let is_method = |candidate: Node<'_>| {
        candidate.kind() == "member_expression"
            && candidate
                .child_field("property")
                .is_some_and(|property| syntax::text(property, source) == "method")
    };
    let mut add = |literal: Node<'_>| {
        if let Some(value) = static_string(literal, source) {
            let upper = value.to_uppercase();
            if METHODS.contains(&upper.as_str()) {
                methods.push(upper);
            }
        }
    };
    match node.kind() {
        "binary_expression" => {
            let operator = node
                .child_field("operator")
                .map(|operator| syntax::text(operator, source));
            if matches!(operator, Some("===" | "==" | "!==" | "!=")) {
                if let (Some(left), Some(right)) =
                    (node.child_field("left"), node.child_field("right"))
                {
                    if is_method(left) {
                        add(right);
                    } else if is_method(right) {
                        add(left);
                    }
                }
            }
        }
        "switch_statement" => {
            let on_method = node
                .child_field("value")
                .and_then(|value| value.named_child(0))
                .is_some_and(is_method);
            if on_method {
                if let Some(body) = node.child_field("body") {
                    for case in named_children(body)
                        .into_iter()
                        .filter(|case| case.kind() == "switch_case")
                    {
                        if let Some(value) = case.child_field("value") {
                            add(value);
                        }
                    }
                }
            }
        }
        _ => {}
    }
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        compared_methods(child, source, methods);
    }
}

#[cfg(test)]
mod tests {
    use super::{routed, Routed};

    fn app(file: &str, root: &str) -> Vec<String> {
        match routed(file, root) {
            Some(Routed::App(paths)) => paths,
            _ => Vec::new(),
        }
    }

    #[test]
    fn app_router_paths_follow_the_folders() {
        assert_eq!(app("app/route.ts", ""), ["/"]);
        assert_eq!(
            app("web/src/app/api/users/[id]/route.ts", "web"),
            ["/api/users/{id}"]
        );
        assert_eq!(app("app/(shop)/@modal/cart/route.js", ""), ["/cart"]);
        assert_eq!(
            app("app/docs/[[...slug]]/route.ts", ""),
            ["/docs", "/docs/{...slug}"]
        );
        assert!(app("app/_lib/route.ts", "").is_empty());
        assert_eq!(app("app/%5Fnext/route.ts", ""), ["/_next"]);
        assert!(app("app/(.)photo/route.ts", "").is_empty());
        assert!(app("app/api/page.tsx", "").is_empty());
        assert!(app("app/api/route.test.ts", "").is_empty());
    }

    #[test]
    fn pages_router_api_paths_drop_index() {
        let path = |file: &str| match routed(file, "") {
            Some(Routed::Pages(paths)) => paths,
            _ => Vec::new(),
        };
        assert_eq!(path("pages/api/index.ts"), ["/api"]);
        assert_eq!(path("src/pages/api/posts/[pid].js"), ["/api/posts/{pid}"]);
        assert_eq!(
            path("pages/api/auth/[...nextauth].ts"),
            ["/api/auth/{...nextauth}"]
        );
        assert_eq!(path("pages/api/[[...all]].ts"), ["/api", "/api/{...all}"]);
        assert!(path("pages/api/_utils.ts").is_empty());
        assert!(path("pages/api/x.d.ts").is_empty());
        assert!(path("pages/api/x.test.ts").is_empty());
        assert!(path("pages/about.tsx").is_empty());
    }
}
