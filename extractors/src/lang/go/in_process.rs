//! Requests to a test server the file starts itself (`httptest.NewServer(handler)`): they call
//! the project's own handler in the test process, so their `net/http` calls and clients are no
//! `external_api` access.
//!
//! Read from the file alone: a server is a name assigned a `httptest.NewServer`,
//! `NewTLSServer` or `NewUnstartedServer` call (`srv`, `s.server`); a URL that names its `URL`
//! (`srv.URL + "/x"`) is the server's, and so is a request built on it (`http.NewRequest(…,
//! srv.URL, …)`). A package-level call (`http.Get`, `http.DefaultClient.Do`) is in-process when
//! its arguments name such a URL or request; a `http.Client{}` when it is handed to a call with
//! such a URL (`fetch(ts.URL, &http.Client{})`), or kept in a name all of whose method calls
//! take one.

use std::collections::HashSet;

use tree_sitter::Node;

use crate::syntax;

/// The test servers and requests of a file.
#[derive(Debug, Default)]
pub(super) struct InProcess {
    /// Names holding a test server (`srv`, `s.server`).
    servers: Vec<String>,
    /// Names holding a request to one.
    requests: HashSet<String>,
    /// Every call of the file (its start, callee and arguments), for the uses of a client kept
    /// in a name.
    calls: Vec<(usize, String, String)>,
}

/// The constructors of `net/http/httptest` servers.
const SERVERS: [&str; 3] = ["NewServer", "NewTLSServer", "NewUnstartedServer"];

impl InProcess {
    /// Reads the file, whose `net/http/httptest` import is bound to `httptest` (its local
    /// name); empty when it has none.
    pub fn read(root: Node<'_>, source: &str, httptest: Option<&str>) -> Self {
        let mut found = Self::default();
        let Some(httptest) = httptest else {
            return found;
        };
        let mut assignments: Vec<(Node<'_>, Node<'_>)> = Vec::new();
        let mut calls = Vec::new();
        for node in crate::syntax::descendants(root) {
            match node.kind() {
                "short_var_declaration" | "assignment_statement" => {
                    if let (Some(left), Some(right)) = (
                        node.child_by_field_name("left"),
                        node.child_by_field_name("right"),
                    ) {
                        pair_up(left, right, &mut assignments);
                    }
                }
                "var_spec" => {
                    let names: Vec<Node<'_>> = {
                        let mut names_cursor = node.walk();
                        node.children_by_field_name("name", &mut names_cursor)
                            .collect()
                    };
                    if let (Some(name), Some(value)) =
                        (names.first(), node.child_by_field_name("value"))
                    {
                        pair_up(*name, value, &mut assignments);
                    }
                }
                "call_expression" => calls.push(node),
                _ => {}
            }
        }
        for (target, value) in &assignments {
            if let Some((package, function)) = callee(*value, source) {
                if package == httptest && SERVERS.contains(&function) {
                    found.servers.push(syntax::text(*target, source).to_owned());
                }
            }
        }
        if found.servers.is_empty() {
            return found;
        }
        for (target, value) in &assignments {
            let is_request = callee(*value, source).is_some_and(|(_, function)| {
                matches!(function, "NewRequest" | "NewRequestWithContext")
            });
            if is_request && found.names_server(syntax::text(*value, source)) {
                found
                    .requests
                    .insert(syntax::text(*target, source).to_owned());
            }
        }
        found.calls = calls
            .into_iter()
            .filter_map(|call| {
                let function = call.child_by_field_name("function")?;
                let arguments = call.child_by_field_name("arguments")?;
                Some((
                    call.start_byte(),
                    syntax::text(function, source).to_owned(),
                    syntax::text(arguments, source).to_owned(),
                ))
            })
            .collect();
        found
    }

    /// Whether a client site (a `net/http` call or `http.Client{}`) reaches a test server.
    pub fn holds(&self, site: Node<'_>, source: &str) -> bool {
        if self.servers.is_empty() {
            return false;
        }
        if site.kind() == "call_expression" {
            return site
                .child_by_field_name("arguments")
                .is_some_and(|arguments| self.names_server(syntax::text(arguments, source)));
        }
        // A composite literal, maybe under `&`.
        let mut value = site;
        while let Some(parent) = value.parent() {
            if parent.kind() == "unary_expression" || parent.kind() == "parenthesized_expression" {
                value = parent;
            } else {
                break;
            }
        }
        let Some(parent) = value.parent() else {
            return false;
        };
        match parent.kind() {
            // Handed to a call along with the server's URL.
            "argument_list" => self.names_server(syntax::text(parent, source)),
            // Kept in a name: every call of its methods takes the server's URL or request.
            "expression_list" => {
                let Some(statement) = parent.parent() else {
                    return false;
                };
                let Some(left) = statement.child_by_field_name("left") else {
                    return false;
                };
                let index = (0..parent.named_child_count())
                    .find(|index| parent.named_child(*index).map(|n| n.id()) == Some(value.id()));
                let Some(name) = index.and_then(|index| left.named_child(index)) else {
                    return false;
                };
                // The calls of its methods in the same function.
                let mut body = statement;
                while let Some(parent) = body.parent() {
                    body = parent;
                    if matches!(
                        body.kind(),
                        "function_declaration" | "method_declaration" | "func_literal"
                    ) {
                        break;
                    }
                }
                let prefix = format!("{}.", syntax::text(name, source));
                let uses: Vec<&(usize, String, String)> = self
                    .calls
                    .iter()
                    .filter(|(start, function, _)| {
                        body.byte_range().contains(start) && function.starts_with(&prefix)
                    })
                    .collect();
                !uses.is_empty()
                    && uses
                        .iter()
                        .all(|(_, _, arguments)| self.names_server(arguments))
            }
            _ => false,
        }
    }

    /// Whether a text names a test server's URL or a request to one.
    fn names_server(&self, text: &str) -> bool {
        self.servers
            .iter()
            .any(|server| mentions(text, &format!("{server}.URL")))
            || self.requests.iter().any(|request| mentions(text, request))
    }
}

/// Pairs the names of an assignment with its values, one to one.
fn pair_up<'tree>(
    left: Node<'tree>,
    right: Node<'tree>,
    pairs: &mut Vec<(Node<'tree>, Node<'tree>)>,
) {
    let count = left.named_child_count().min(right.named_child_count());
    if left.kind() != "expression_list" {
        pairs.push((left, right));
        return;
    }
    for index in 0..count {
        if let (Some(name), Some(value)) = (left.named_child(index), right.named_child(index)) {
            pairs.push((name, value));
        }
    }
}

/// The package and function of a call `pkg.Function(…)`.
fn callee<'s>(value: Node<'_>, source: &'s str) -> Option<(&'s str, &'s str)> {
    if value.kind() != "call_expression" {
        return None;
    }
    let function = value.child_by_field_name("function")?;
    if function.kind() != "selector_expression" {
        return None;
    }
    let operand = function.child_by_field_name("operand")?;
    let field = function.child_by_field_name("field")?;
    Some((syntax::text(operand, source), syntax::text(field, source)))
}

/// Whether `text` holds `name` as a whole name (not the tail of a longer one).
fn mentions(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(index, _)| {
        let before = text
            .get(..index)
            .and_then(|before| before.chars().next_back());
        let after = text
            .get(index + name.len()..)
            .and_then(|after| after.chars().next());
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}
