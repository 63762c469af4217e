//! Counting a tree's parse errors, without the gaps of its grammar that the compiler accepts.

use super::*;

/// The parse errors of a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct ParseErrors {
    /// The number of `ERROR` and `MISSING` nodes.
    pub count: usize,
    /// The 1-based line and column of the first one in document order.
    pub first: Option<(u32, u32)>,
}

/// Counts `ERROR` and `MISSING` nodes, descending only into subtrees that contain errors.
///
/// Linear in the nodes it visits, however many errors a file has: each node is taken with its
/// parent (`Node::parent` walks down from the root, so asking it for every error of a file of
/// thousands made the count quadratic), and only the first error's column is counted.
pub(crate) fn count_parse_errors(tree: &Tree, source: &str) -> ParseErrors {
    let mut count = 0;
    let mut first: Option<Node<'_>> = None;
    let mut pending = vec![(tree.root_node(), None)];
    let mut cursor = tree.walk();
    while let Some((node, parent)) = pending.pop() {
        if (node.is_error() || node.is_missing()) && !is_grammar_gap(node, parent, source) {
            count += 1;
            if first.is_none_or(|first| node.start_byte() < first.start_byte()) {
                first = Some(node);
            }
        }
        if node.has_error() {
            pending.extend(
                node.children(&mut cursor)
                    .filter(Node::has_error)
                    .map(|child| (child, Some(node))),
            );
        }
    }
    ParseErrors {
        count,
        first: first.map(|node| start_position(node, source)),
    }
}

/// Whether an error node stands for valid code that the grammar cannot parse, with the tree
/// around it as the code means it, so that it is no syntax error of the file (`parent` is the
/// node's parent):
/// - TypeScript's generic tagged template, `` styled.div<Props>`…` ``: tree-sitter-typescript
///   0.23 reads it as a call of `styled.div<Props>!` with the template as its arguments, the
///   `!` missing. (With type arguments it cannot take for a comparison, such as `<{ a: A }>`;
///   `` f<T>`…` `` parses, as comparisons.)
/// - Swift's empty tuple `()` ([`is_empty_swift_tuple`]).
/// - A bare `&` in JSX text (`<p>Terms & conditions</p>`), which JSX reads as text and
///   tree-sitter's JSX only as the start of a character reference: an `ERROR` child of the
///   element that begins with the `&` and holds text only (no `{`, `}`, `<` or `>`).
/// - A bare `&` in a JSX attribute string (`href="/s?a=1&b=2"`), likewise
///   ([`is_jsx_attribute_ampersand`]).
/// - TypeScript forms tree-sitter-typescript 0.23 does not know, each recognised by the whole
///   shape the parser leaves: `export type * from` ([`is_type_star_export`]), variance modifiers
///   on type parameters ([`is_variance_modifier`]) and an array of an import type
///   (`import('m').T[]`, [`is_import_type_array`]).
/// - Rust's foreign type with a visibility in an `extern` block, `pub type Modal;`
///   ([`is_extern_type`]), and stacked attributes on a parameter ([`is_stacked_attribute`]).
pub(super) fn is_grammar_gap(node: Node<'_>, parent: Option<Node<'_>>, source: &str) -> bool {
    if node.is_error() {
        let in_element =
            parent.is_some_and(|parent| matches!(parent.kind(), "jsx_element" | "jsx_fragment"));
        let text = self::text(node, source);
        return (in_element && text.starts_with('&') && !text.contains(['{', '}', '<', '>']))
            || is_jsx_attribute_ampersand(node, parent, source)
            || is_type_star_export(node, parent, source)
            || is_variance_modifier(node, parent, source)
            || is_import_type_array(node, parent, source)
            || is_typeof_import_call(node, source)
            || is_extern_type(node, parent, source)
            || is_stacked_attribute(node, parent);
    }
    if node.is_missing() && node.kind() != "!" {
        return is_import_type_array(node, parent, source);
    }
    if !node.is_missing() {
        return false;
    }
    if let Some(bang) = parent.filter(|parent| parent.kind() == "bang") {
        return is_empty_swift_tuple(bang, source);
    }
    let Some(assertion) = parent.filter(|parent| parent.kind() == "non_null_expression") else {
        return false;
    };
    let instantiated = assertion
        .named_child(0)
        .is_some_and(|child| child.kind() == "instantiation_expression");
    let tagged = assertion.parent().is_some_and(|call| {
        call.kind() == "call_expression"
            && call.child_field("function") == Some(assertion)
            && call
                .child_field("arguments")
                .is_some_and(|arguments| arguments.kind() == "template_string")
    });
    instantiated && tagged
}

/// A bare `&` in a JSX attribute string, `href="https://x.com?a=1&utm_medium=web"`: JSX reads
/// it as text, tree-sitter's JSX only as the start of a character reference (`&amp;`), and
/// leaves the rest of the string from the `&` an `ERROR` child of the attribute's `string`,
/// which is whole (it ends with the quote it starts with). Such an error holds no quote, brace
/// or angle bracket.
pub(super) fn is_jsx_attribute_ampersand(
    error: Node<'_>,
    parent: Option<Node<'_>>,
    source: &str,
) -> bool {
    let Some(string) = parent.filter(|parent| parent.kind() == "string") else {
        return false;
    };
    let text = self::text(error, source);
    if !text.starts_with('&') || text.contains(['{', '}', '<', '>', '"', '\'']) {
        return false;
    }
    let written = self::text(string, source);
    let closed = written.len() >= 2
        && written
            .chars()
            .next()
            .is_some_and(|quote| matches!(quote, '"' | '\'') && written.ends_with(quote));
    closed
        && string
            .parent()
            .is_some_and(|attribute| attribute.kind() == "jsx_attribute")
}

/// Rust's foreign type with a visibility, `pub type Modal;` in an `extern` block (the JavaScript
/// classes a wasm-bindgen `extern "C"` block imports, as lldap's Yew front end does):
/// tree-sitter-rust 0.24 reads a foreign type there only without one (`type Modal;`), and leaves
/// `pub type Modal` an `ERROR` of the block's declarations, the `;` after it an empty statement.
pub(super) fn is_extern_type(error: Node<'_>, parent: Option<Node<'_>>, source: &str) -> bool {
    let in_extern_block = parent.is_some_and(|list| {
        list.kind() == "declaration_list"
            && list
                .parent()
                .is_some_and(|block| block.kind() == "foreign_mod_item")
    });
    if !in_extern_block {
        return false;
    }
    let [visibility, name] = named_children(error)[..] else {
        return false;
    };
    let words: Vec<&str> = text(error, source).split_whitespace().collect();
    let visibility_words = text(visibility, source).split_whitespace().count();
    visibility.kind() == "visibility_modifier"
        && name.kind() == "identifier"
        && words.get(visibility_words) == Some(&"type")
        && words.get(visibility_words + 1) == Some(&text(name, source))
        && words.len() == visibility_words + 2
}

/// Two attributes on a Rust parameter (rstest's `#[future(awt)] #[from(empty_db)] db: Sqlite`,
/// atuin's tests): tree-sitter-rust 0.24 takes one attribute before a parameter, and leaves the
/// first of two an `ERROR` of the parameter list that holds attributes only, followed by the
/// second attribute and the parameter, read whole. (Three leave a tree less clear, still an
/// error.)
pub(super) fn is_stacked_attribute(error: Node<'_>, parent: Option<Node<'_>>) -> bool {
    let mut cursor = error.walk();
    parent.is_some_and(|list| list.kind() == "parameters")
        && error.child_count() > 0
        && error
            .children(&mut cursor)
            .all(|child| child.kind() == "attribute_item")
        && error
            .next_named_sibling()
            .is_some_and(|next| next.kind() == "attribute_item")
}

/// Swift's empty tuple, `()` (the `Void` value, as in `promise.succeed(())`), which
/// tree-sitter-swift 0.7 reads as a tuple holding a `!` that is missing.
pub(super) fn is_empty_swift_tuple(bang: Node<'_>, source: &str) -> bool {
    bang.byte_range().is_empty()
        && bang.parent().is_some_and(|tuple| {
            tuple.kind() == "tuple_expression"
                && tuple.named_child_count() == 1
                && text(tuple, source)
                    .chars()
                    .filter(|character| !character.is_whitespace())
                    .eq("()".chars())
        })
}

/// A call with no arguments and a module's type as its type argument,
/// `` importOriginal<typeof import('./x')>() `` (vitest's `vi.mock` factories): the grammar reads
/// `importOriginal < typeof import('./x')` as a comparison, and the `>()` after it as an `ERROR`.
pub(super) fn is_typeof_import_call(error: Node<'_>, source: &str) -> bool {
    // Compared without copying: the error may span much of a broken file, and a file may have
    // thousands of errors.
    let is_unspaced = |text: &str, expected: &str| {
        text.chars()
            .filter(|character| !character.is_whitespace())
            .eq(expected.chars())
    };
    if !is_unspaced(text(error, source), ">()") {
        return false;
    }
    // The type argument, from the last `<` within a bounded distance before the error.
    let before = source.get(..error.start_byte()).unwrap_or_default();
    let window = before.len().saturating_sub(MAX_TYPE_ARGUMENT);
    let Some(open) = before
        .as_bytes()
        .get(window..)
        .and_then(|bytes| bytes.iter().rposition(|byte| *byte == b'<'))
    else {
        return false;
    };
    let argument: String = before
        .get(window + open + 1..)
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    argument
        .strip_prefix("typeofimport(")
        .and_then(|rest| rest.strip_suffix(')'))
        .is_some_and(|module| {
            let mut characters = module.chars();
            match (characters.next(), characters.next_back()) {
                (Some(quote @ ('\'' | '"' | '`')), Some(close)) => {
                    close == quote && !characters.as_str().contains(quote)
                }
                _ => false,
            }
        })
}

/// The longest `typeof import('…')` type argument [`is_typeof_import_call`] reads back for.
pub(super) const MAX_TYPE_ARGUMENT: usize = 512;

/// `export type * from './x'` and `export type * as ns from './x'` (TypeScript 5.0): an `ERROR`
/// holding just `type` in an `export_statement` that has its `*` (or `* as ns`) and its source.
pub(super) fn is_type_star_export(error: Node<'_>, parent: Option<Node<'_>>, source: &str) -> bool {
    let Some(statement) = parent.filter(|parent| parent.kind() == "export_statement") else {
        return false;
    };
    text(error, source) == "type"
        && statement.child_field("source").is_some()
        && error
            .next_sibling()
            .is_some_and(|next| matches!(next.kind(), "*" | "namespace_export"))
}

/// Variance modifiers on type parameters (`<in T>`, `<out O = unknown>`, `<in out T>`,
/// TypeScript 4.7): an `ERROR` of identifiers in the type parameters that, with the parameter
/// the parser made of a modifier, reads as modifiers followed by one name.
pub(super) fn is_variance_modifier(
    error: Node<'_>,
    parent: Option<Node<'_>>,
    source: &str,
) -> bool {
    let Some(parent) = parent else {
        return false;
    };
    let children = named_children(error);
    if children.is_empty() || children.iter().any(|child| child.kind() != "identifier") {
        return false;
    }
    let words: Vec<&str> = children.iter().map(|child| text(*child, source)).collect();
    let is_modifier = |word: &str| matches!(word, "in" | "out");
    // The modifiers then the name (`T`), or modifiers only when the parameter follows.
    let (name, modifiers) = match words.split_last() {
        Some((last, rest)) if !is_modifier(last) => (Some(*last), rest),
        _ => (None, words.as_slice()),
    };
    if !modifiers.iter().all(|word| is_modifier(word)) {
        return false;
    }
    let bare_modifier = |parameter: Node<'_>| {
        parameter.kind() == "type_parameter" && is_modifier(text(parameter, source))
    };
    match (parent.kind(), name) {
        // `<in T = never>`: the parameter is named `in`, its real name in the error.
        ("type_parameter", Some(_)) => parent
            .child_field("name")
            .is_some_and(|named| is_modifier(text(named, source))),
        // `<in out T>`: a parameter `in`, then `out T` in the error.
        ("type_parameters", Some(_)) => error.prev_named_sibling().is_some_and(bare_modifier),
        // `<out Output = unknown>`: `out` alone, then the parameter.
        ("type_parameters", None) => error
            .next_named_sibling()
            .is_some_and(|next| next.kind() == "type_parameter"),
        _ => false,
    }
}

/// An array of an import type, `import('m').T[]`, which the grammar reads as the expression
/// `import('m').T` followed by `[]`: in a parameter, property or return type as an `ERROR` of that
/// expression before an empty tuple type; in a variable's type as a `;` missing before the `[]`;
/// after `as` or `satisfies` as an index missing from `[]`.
pub(super) fn is_import_type_array(node: Node<'_>, parent: Option<Node<'_>>, source: &str) -> bool {
    let is_import_member = |expression: Node<'_>| {
        expression.kind() == "member_expression"
            && expression
                .child_field("object")
                .filter(|object| object.kind() == "call_expression")
                .and_then(|call| call.child_field("function"))
                .is_some_and(|function| function.kind() == "import")
    };
    let Some(parent) = parent else {
        return false;
    };
    let rest = source.get(node.end_byte()..).unwrap_or_default();
    let brackets_follow = |rest: &str| {
        rest.trim_start()
            .strip_prefix('[')
            .is_some_and(|after| after.trim_start().starts_with(']'))
    };
    if node.is_error() {
        let children = named_children(node);
        return parent.kind() == "type_annotation"
            && matches!(children.as_slice(), [only] if is_import_member(*only))
            && node.next_named_sibling().is_some_and(|next| {
                next.kind() == "tuple_type" && named_children(next).is_empty()
            });
    }
    match (node.kind(), parent.kind()) {
        (";", "lexical_declaration" | "variable_declaration") => {
            node.prev_named_sibling().is_some_and(|declarator| {
                declarator
                    .child_field("type")
                    .and_then(|annotation| annotation.named_child(0))
                    .is_some_and(is_import_member)
                    && declarator.child_field("value").is_none()
            }) && brackets_follow(rest)
        }
        ("identifier", "subscript_expression") => {
            text(parent, source).ends_with(']')
                && parent
                    .child_field("object")
                    .filter(|object| {
                        matches!(object.kind(), "as_expression" | "satisfies_expression")
                    })
                    .and_then(|object| object.named_child(1))
                    .is_some_and(is_import_member)
                && source
                    .get(..node.start_byte())
                    .is_some_and(|before| before.trim_end().ends_with('['))
        }
        _ => false,
    }
}
