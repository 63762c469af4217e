//! The Kotlin extractor: imports and same-package uses resolved through the Java/Kotlin type
//! index (`crate::lang::jvm`; top-level functions, properties and type aliases are indexed too, since
//! Kotlin imports them), and infrastructure clients (Retrofit, OkHttp, Room, the Ktor client,
//! and the Java clients).

pub(crate) mod calls_and_assignments;
pub(crate) mod spec;
pub(crate) mod walk;
pub(crate) mod web;

use std::sync::OnceLock;
use std::time::Instant;

use policies::facts::{Fact, FactKind};
use tree_sitter::{Node, Tree};

use crate::facts::clients::{ClientMatcher, ClientRule, ClientUse};
use crate::lang::jvm::{self, ImportNames, JvmImport, PendingClient, PendingJvm};
use crate::language::ExtractionInput;
use crate::query::{Field, QueryHit};
use crate::resolve::context::Declarations;
use crate::resolve::deferred::{Anchors, Output, PackedNames, WalkKinds};
use crate::source_scope;
use crate::syntax::ChildField;
use crate::syntax::{self, has_token, named_children};

/// `source` with each context parameter list that starts a line rewritten in place, or `None`
/// when it has none. tree-sitter-kotlin-ng reads neither the named context parameters of Kotlin
/// 2.2 nor, among a class's members or with type arguments, the context receivers before them.
/// A list of plain types reads as an annotation that names them, so the file still uses them
/// (`context(scope: Scope)` reads `@ontext(       Scope)`); any other list (type arguments,
/// function types) is blanked, and only a use of its types there is lost. `crate::parse_source`
/// parses this text only when the file as written has errors, and keeps its tree only when it
/// has fewer.
pub(crate) fn without_context_parameters(source: &str) -> Option<String> {
    if !source.contains("context(") {
        return None;
    }
    let mut text = String::with_capacity(source.len());
    let mut changed = false;
    for line in source.split_inclusive('\n') {
        match context_list(line) {
            Some(rewritten) => {
                changed = true;
                text.push_str(&rewritten);
            }
            None => text.push_str(line),
        }
    }
    changed.then_some(text)
}

/// `source` with the `$` prefix of each multi-dollar string literal (Kotlin 2.1's `$$"…"` and
/// `$$"""…"""`, which tree-sitter-kotlin-ng cannot read) blanked in place, or `None` when it has
/// none. The literal stays a string of the same text: its `$$name` holes read as a `$` and a
/// template, and nothing a fact reads from a string changes. A prefix is a run of two or more
/// `$` before a quote that does not follow a letter, a digit, `_` or a quote (`"a$$"` ends a
/// string, it starts none). `crate::parse_source` parses this text only when the file as
/// written has errors, and keeps its tree only when it has fewer.
pub(crate) fn without_multi_dollar_prefixes(source: &str) -> Option<String> {
    if !source.contains("$$\"") {
        return None;
    }
    let mut bytes = source.as_bytes().to_vec();
    let mut changed = false;
    let mut from = 0;
    while let Some(found) = source.get(from..).and_then(|rest| rest.find("$$\"")) {
        let quote = from + found + 2;
        let start = source
            .get(..quote)
            .map_or(quote, |before| before.trim_end_matches('$').len());
        let starts_literal = start
            .checked_sub(1)
            .and_then(|before| source.as_bytes().get(before))
            .is_none_or(|byte| !(byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'"')));
        if starts_literal {
            for byte in bytes.get_mut(start..quote)? {
                *byte = b' ';
            }
            changed = true;
        }
        from = quote + 1;
    }
    // Only ASCII bytes became spaces: the text is still UTF-8.
    changed.then(|| String::from_utf8(bytes).ok()).flatten()
}

/// `source` with the annotations (and `actual`/`expect` and other modifiers next to them) that
/// start a property accessor's or a constructor's line, or stand alone on the line before it,
/// blanked in place; `None` when it has none. tree-sitter-kotlin-ng ends a declaration at a line
/// that starts with an annotation or `actual`: it reads neither `@Synchronized get() = …`
/// followed by an annotated setter, nor `class A\n  @Inject constructor(…)`, nor
/// `actual constructor(…)` on the line after its class. Only the annotations' names are lost (as
/// uses of their types). `crate::parse_source` parses this text only when the file as written
/// has errors, and keeps its tree only when it has fewer.
pub(crate) fn without_accessor_annotations(source: &str) -> Option<String> {
    if !source.contains('@') && !source.contains("actual") && !source.contains("expect") {
        return None;
    }
    let lines: Vec<&str> = source.split_inclusive('\n').collect();
    let mut text = String::with_capacity(source.len());
    let mut changed = false;
    for (index, line) in lines.iter().enumerate() {
        let indent = line.len() - line.trim_start().len();
        let body = line.get(indent..).unwrap_or_default();
        let blanked = leading_marks(body).and_then(|(length, marked)| {
            let rest = body.get(length..)?;
            let before_member = starts_member(rest)
                // A line of annotations only, before an accessor's or a constructor's line.
                || (rest.trim().is_empty()
                    && lines.get(index + 1).is_some_and(|next| {
                        let next = next.trim_start();
                        let skipped = leading_marks(next).map_or(0, |(length, _)| length);
                        next.get(skipped..).is_some_and(starts_member)
                    }));
            (marked && length > 0 && before_member).then_some(length)
        });
        match blanked {
            Some(length) => {
                changed = true;
                text.push_str(line.get(..indent).unwrap_or_default());
                text.extend(std::iter::repeat_n(' ', length));
                text.push_str(line.get(indent + length..).unwrap_or_default());
            }
            None => text.push_str(line),
        }
    }
    changed.then_some(text)
}

/// `source` with a `;` in place of the last indent character of each line that starts with a
/// call of `get` with arguments (`get("/orders") { … }`, `get<Service>()`) after a complete
/// line, or `None` when it has none. tree-sitter-kotlin-ng reads such a line after a property
/// declaration (`val service: S by inject()`, `val x = 1`) as that property's getter, which
/// never takes arguments, and so loses the call and, with it, a Ktor route: a local property
/// before `get("…")` is how most Ktor routing functions start. The `;` ends the declaration, as
/// the line break does for the compiler. A line after one that ends with an operator, a comma
/// or an opening bracket continues an expression and is left alone. `crate::parse_source`
/// parses this text only when the file as written has errors, and keeps its tree only when it
/// has fewer.
pub(crate) fn with_calls_after_properties(source: &str) -> Option<String> {
    if !source.contains("get(") && !source.contains("get<") {
        return None;
    }
    let mut text = String::with_capacity(source.len());
    let mut changed = false;
    let mut previous_end: Option<char> = None;
    for line in source.split_inclusive('\n') {
        let body = line.trim_start();
        let indent = line.len() - body.len();
        let is_get_call = body.strip_prefix("get").is_some_and(|rest| {
            rest.starts_with('<') || (rest.starts_with('(') && !rest.starts_with("()"))
        });
        let follows_complete_line = previous_end.is_some_and(|end| {
            end.is_alphanumeric() || matches!(end, '_' | ')' | ']' | '}' | '"' | '\'' | '>')
        });
        if is_get_call && indent > 0 && follows_complete_line {
            changed = true;
            text.push_str(line.get(..indent - 1).unwrap_or_default());
            text.push(';');
            text.push_str(body);
        } else {
            text.push_str(line);
        }
        let code = body.trim_end();
        if !code.is_empty() && !code.starts_with("//") {
            previous_end = code.chars().last();
        }
    }
    changed.then_some(text)
}

/// `source` with each explicit backing field (Kotlin 2.3's `field = …` on the line after a
/// property declared without an initializer) read as a getter: `field =` becomes `get() =`, of
/// the same length, or `None` when it has none. tree-sitter-kotlin-ng cannot read the explicit
/// backing field; as a getter the value's expression keeps its calls and the names it uses. A
/// `field = value` inside an accessor's body (the line before it is no property declaration)
/// is left alone. `crate::parse_source` parses this text only when the file as written has
/// errors, and keeps its tree only when it has fewer.
pub(crate) fn with_backing_fields_as_getters(source: &str) -> Option<String> {
    if !source.contains("field =") {
        return None;
    }
    let mut text = String::with_capacity(source.len());
    let mut changed = false;
    let mut previous_declares = false;
    for line in source.split_inclusive('\n') {
        let body = line.trim_start();
        let indent = line.len() - body.len();
        if previous_declares && body.starts_with("field =") {
            changed = true;
            text.push_str(line.get(..indent).unwrap_or_default());
            text.push_str("get() =");
            text.push_str(body.get("field =".len()..).unwrap_or_default());
        } else {
            text.push_str(line);
        }
        let code = body.trim_end();
        if !code.is_empty() && !code.starts_with("//") && !code.starts_with('@') {
            previous_declares = declares_property_without_value(code);
        }
    }
    changed.then_some(text)
}

/// Whether a line declares a property with a type and no initializer or delegate
/// (`private val state: StateFlow<State>`).
fn declares_property_without_value(code: &str) -> bool {
    let words: Vec<&str> = code.split_whitespace().collect();
    let Some(keyword) = words.iter().position(|word| matches!(*word, "val" | "var")) else {
        return false;
    };
    words.get(..keyword).is_some_and(|modifiers| {
        modifiers
            .iter()
            .all(|word| word.chars().all(char::is_alphabetic))
    }) && code.contains(':')
        && !code.contains('=')
        && !code.contains(" by ")
        && !code.ends_with('{')
}

/// The length of the annotations and modifiers `line` (without its indent) starts with, with the
/// spaces after them, and whether they hold an annotation, `actual` or `expect`; `None` when an
/// annotation is not closed on the line.
fn leading_marks(line: &str) -> Option<(usize, bool)> {
    const MODIFIERS: [&str; 9] = [
        "actual",
        "expect",
        "internal",
        "private",
        "public",
        "protected",
        "override",
        "inline",
        "external",
    ];
    let mut at = 0;
    let mut marked = false;
    loop {
        let rest = line.get(at..)?;
        if rest.starts_with('@') {
            // `@Name`, `@a.b.Name`, `@get:Name`, then arguments closed on the line.
            let name = rest
                .get(1..)?
                .bytes()
                .take_while(|byte| {
                    byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'.' | b':')
                })
                .count();
            if name == 0 {
                return None;
            }
            at += 1 + name;
            if line.as_bytes().get(at) == Some(&b'(') {
                at += closing_parenthesis(line.get(at..)?, 0)? + 1;
            }
            marked = true;
        } else if let Some(word) = MODIFIERS
            .iter()
            .find(|word| rest.starts_with(**word) && rest.as_bytes().get(word.len()) == Some(&b' '))
        {
            marked |= matches!(*word, "actual" | "expect");
            at += word.len();
        } else {
            return Some((at, marked));
        }
        at += line
            .get(at..)?
            .bytes()
            .take_while(|byte| *byte == b' ')
            .count();
    }
}

/// Whether `rest` starts with a property accessor (`get`, `set`) or `constructor`.
fn starts_member(rest: &str) -> bool {
    let follows = |keyword: &str, allowed: &[u8]| {
        rest.strip_prefix(keyword).is_some_and(|after| {
            after.is_empty()
                || after
                    .bytes()
                    .next()
                    .is_some_and(|byte| allowed.contains(&byte))
        })
    };
    follows("get", b"( =\r\n") || follows("set", b"( =\r\n") || follows("constructor", b"( ")
}

/// The offset in `text` of the `)` that closes the parentheses open before it (`depth` of them,
/// counting those `text` opens too); `None` when the text does not close them.
fn closing_parenthesis(text: &str, depth: usize) -> Option<usize> {
    let mut depth = depth;
    text.bytes().position(|byte| {
        match byte {
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            _ => return false,
        }
        depth == 0
    })
}

/// `line` with the context parameter list it starts with rewritten (see
/// [`without_context_parameters`]), if it starts with one closed on the line.
fn context_list(line: &str) -> Option<String> {
    let indent = line.len() - line.trim_start().len();
    if !line.get(indent..)?.starts_with("context(") {
        return None;
    }
    let open = indent + "context(".len();
    let close = open + closing_parenthesis(line.get(open..)?, 1)?;
    let inside = line.get(open..close)?;
    let mut bytes = line.as_bytes().to_vec();
    if inside
        .bytes()
        .any(|byte| matches!(byte, b'<' | b'(' | b'-' | b'@' | b'"' | b'/'))
    {
        for byte in bytes.get_mut(indent..=close)? {
            *byte = b' ';
        }
    } else {
        *bytes.get_mut(indent)? = b'@';
        let mut start = open;
        for parameter in inside.split(',') {
            if let Some((name, _)) = parameter.split_once(':') {
                let end = start + name.len() + 1;
                for byte in bytes.get_mut(start..end)? {
                    *byte = b' ';
                }
            }
            start += parameter.len() + 1;
        }
    }
    // Only ASCII bytes became others: the line is still UTF-8.
    String::from_utf8(bytes).ok()
}

/// Extracts the facts of one Kotlin file (unsorted); what needs the type index waits for the
/// second pass (`crate::resolve::deferred`).
pub(crate) fn extract(input: &ExtractionInput<'_>) -> Vec<Fact> {
    let source = input.source;
    let factory = input.fact_factory();
    let root = input.tree.root_node();
    let mut out = Output::new(Anchors::new(root, source, scope_name));
    // One walk finds the query's matches, the first uses, the dotted chains and their scopes.
    let mut matcher = crate::lang::kotlin::walk::matcher(source, input.context.generic_facts());
    let started = input.query.is_timed().then(Instant::now);
    // It also collects the names the file declares itself.
    let mut declared_here = Vec::new();
    let walked = out
        .anchors
        .walk_with(&WALK_KINDS, |node, field, ancestors| {
            matcher.visit(node, field, ancestors);
            local_declaration(node, ancestors.len(), source, &mut declared_here);
        });
    let hits = matcher.hits;
    input.query.record_walk(&hits, started);
    // The facts of calls, assignments and annotations name their scopes, which the walk knew.
    let walked_scopes = out.anchors.walked_scopes(walked.scoped);
    let scope_of = |node: Node<'_>| walked_scopes.scope_of(node);
    let mut imports: Vec<JvmImport> = Vec::new();
    for hit in hits.iter().filter(|hit| hit.kind == FactKind::Import) {
        if let Some(import) = hit
            .node(Field::Statement)
            .and_then(|statement| read_import(statement, source, &mut out.anchors))
        {
            imports.push(import);
        }
    }
    let package = package_of(root, source);
    let mut uses = walked.uses;
    // A name the file declares itself (a local, parameter, member or named-argument label)
    // refers to that declaration, not to a same-package top-level one.
    for name in &declared_here {
        uses.remove(name.as_str());
    }
    // Looked up once per client site: a long file declares thousands of names.
    let declared: std::collections::HashSet<&str> =
        declared_here.iter().map(String::as_str).collect();
    let rules: &'static [ClientRule] = crate::catalogue::catalogue().libraries("kotlin");
    let matcher = ClientMatcher {
        rules,
        separator: ".",
    };
    let names = ImportNames::new(&imports);
    let mut clients = Vec::new();
    for site in hits
        .iter()
        .filter(|hit| hit.kind == FactKind::AccessesTechnology)
        .filter_map(|hit| client_site(hit, source))
        // A name the file declares (a parameter `f` called as `f(item)`, a type parameter `T`)
        // is no library's.
        .filter(|site| !declared.contains(jvm::head(&site.2)))
    {
        clients.extend(PendingClient::new(
            site,
            &names,
            &matcher,
            factory.generic(),
            |node| out.anchors.with_scope(node, scope_of(node)),
        ));
    }
    // MyBatis mappers, as in Java: an interface annotated `@Mapper` is one (its annotation is a
    // client site the imports qualify), any other may be one through a `@MapperScan` of its
    // package.
    let mut interfaces = Vec::new();
    for (name, is_annotated) in interface_names(root, source) {
        let anchor = out.anchors.with_scope(name, scope_of(name));
        if is_annotated {
            clients.push(PendingClient {
                node: anchor,
                use_kind: ClientUse::Annotate,
                name: "Mapper".to_owned(),
                argument: None,
            });
        } else {
            interfaces.push(anchor);
        }
    }
    // Annotations the catalogue lists (`@RabbitListener`, `@KafkaListener`) on a class or its
    // functions make it a client, as in Java.
    for (name, annotation) in client_annotations(root, source, &matcher) {
        clients.push(PendingClient {
            node: out.anchors.with_scope(annotation, scope_of(annotation)),
            use_kind: ClientUse::Annotate,
            name,
            argument: None,
        });
    }
    let pending = PendingJvm {
        package,
        uses: PackedNames::new(uses, &out.anchors),
        chains: jvm::resolvable_chains(&walked.chains, &out.anchors),
        imports,
        is_java: false,
        clients,
        interfaces,
        rules,
        reads_datasource_settings: jvm::reads_datasource_settings(source),
    };
    out.defer(Box::new(pending));
    let file = crate::facts::calls_and_assignments::FileSyntax {
        source,
        root,
        scope_of: &scope_of,
    };
    if input.context.generic_facts() {
        out.facts.extend(crate::facts::calls_and_assignments::facts(
            &factory,
            &crate::lang::kotlin::calls_and_assignments::Kotlin,
            &hits,
            &file,
        ));
    }
    crate::lang::kotlin::web::facts(input, &factory, &hits, &file, &mut out);
    out.into_facts(&input.deferred)
}

/// A possible client site: its node, use and name as written.
fn client_site<'tree>(
    hit: &QueryHit<'tree>,
    source: &str,
) -> Option<(Node<'tree>, ClientUse, String, Option<String>)> {
    let (node, use_kind, name) = if let Some(base) = hit.node(Field::Base) {
        (base, ClientUse::Extend, type_name(base, source))
    } else if let Some(call) = hit.node(Field::Call) {
        let callee = syntax::unspaced_text(hit.node(Field::Function)?, source, 200);
        let is_plain_chain = callee
            .chars()
            .all(|character| character.is_alphanumeric() || character == '_' || character == '.');
        if !is_plain_chain {
            return None;
        }
        let argument = first_string_argument(call, source);
        return Some((call, ClientUse::Call, callee, argument));
    } else {
        let parameter = hit.node(Field::Parameter)?;
        (
            parameter,
            ClientUse::Inject,
            type_name(hit.node(Field::Type)?, source),
        )
    };
    Some((node, use_kind, name, None))
}

/// The first argument of a call when it is a plain string literal; for a template
/// (`"jdbc:postgresql://$host/app"`), its literal text before the first template when that
/// holds a scheme (a `:`), which is all a connection URL's category needs.
fn first_string_argument(call: Node<'_>, source: &str) -> Option<String> {
    let arguments = named_children(call)
        .into_iter()
        .find_map(|child| match child.kind() {
            "value_arguments" => Some(child),
            "call_suffix" => named_children(child)
                .into_iter()
                .find(|inner| inner.kind() == "value_arguments"),
            _ => None,
        })?;
    let first = named_children(arguments)
        .into_iter()
        .find(|argument| argument.kind() == "value_argument")?;
    let literal = named_children(first)
        .into_iter()
        .find(|child| child.kind() == "string_literal")?;
    let parts = named_children(literal);
    let prefix: String = parts
        .iter()
        .take_while(|part| part.kind() == "string_content")
        .map(|part| syntax::text(*part, source))
        .collect();
    let is_plain = parts.iter().all(|part| part.kind() == "string_content");
    (is_plain || prefix.contains(':')).then_some(prefix)
}

/// The name of a `user_type` without type arguments or nullability.
fn type_name(node: Node<'_>, source: &str) -> String {
    named_children(node)
        .into_iter()
        .filter(|child| child.kind() == "identifier")
        .map(|child| syntax::text(child, source))
        .collect::<Vec<_>>()
        .join(".")
}

/// Adds the name `node` declares below the top level (a property, function, parameter, lambda
/// or loop variable) or its named-argument label; `depth` is the node's depth in the tree.
/// Top-level declarations are left out: the index knows them. Called for every node of the
/// file's one walk.
fn local_declaration(node: Node<'_>, depth: usize, source: &str, names: &mut Vec<String>) {
    // By kind id: this runs for every node, and `Node::kind` measures and checks the name's text.
    let kind = crate::walk::kind_in(node, declaring_kinds(), Declaring::Other);
    let name = match kind {
        Declaring::Other => return,
        Declaring::Variable | Declaring::Parameter => {
            let mut cursor = node.walk();
            let identifier = node
                .named_children(&mut cursor)
                .find(|child| child.kind() == "identifier");
            identifier
        }
        // A class or object declared inside another shadows a same-package type of its name.
        Declaring::Function | Declaring::Type if depth > 1 => node.child_field("name"),
        Declaring::Function | Declaring::Type => None,
        // A label is `name = value`: a lone argument has one child and no `=` to look for.
        Declaring::ValueArgument if node.child_count() > 1 && has_token(node, "=") => {
            node.named_child(0)
        }
        Declaring::ValueArgument => None,
    };
    // A top-level property's variable sits at depth 2, below its declaration.
    let is_top_level_property = kind == Declaring::Variable && depth == 2;
    if let Some(name) = name.filter(|name| name.kind() == "identifier") {
        if !is_top_level_property {
            names.push(syntax::text(name, source).to_owned());
        }
    }
}

/// The node kinds [`local_declaration`] tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Declaring {
    Other,
    /// `variable_declaration`.
    Variable,
    /// `parameter`, `class_parameter`, `type_parameter`.
    Parameter,
    /// `function_declaration`.
    Function,
    /// `value_argument`.
    ValueArgument,
    /// `class_declaration`, `object_declaration`.
    Type,
}

/// The Kotlin grammar's kind ids mapped to [`Declaring`], worked out once.
fn declaring_kinds() -> &'static [Declaring] {
    static KINDS: std::sync::OnceLock<Vec<Declaring>> = std::sync::OnceLock::new();
    KINDS.get_or_init(|| {
        crate::walk::kind_table(
            &tree_sitter_kotlin_ng::LANGUAGE.into(),
            Declaring::Other,
            |name| match name {
                "variable_declaration" => Declaring::Variable,
                "parameter" | "class_parameter" | "type_parameter" => Declaring::Parameter,
                "function_declaration" => Declaring::Function,
                "value_argument" => Declaring::ValueArgument,
                "class_declaration" | "object_declaration" => Declaring::Type,
                _ => Declaring::Other,
            },
        )
    })
}

/// Reads `import a.b.C`, `import a.b.*`, `import a.b.C as D`.
fn read_import<'tree>(
    directive: Node<'tree>,
    source: &str,
    anchors: &mut Anchors<'tree>,
) -> Option<JvmImport> {
    let children = named_children(directive);
    let path = children.first()?;
    let alias = if has_token(directive, "as") {
        children
            .get(1)
            .map(|alias| syntax::text(*alias, source).to_owned())
    } else {
        None
    };
    Some(JvmImport {
        node: anchors.at(directive),
        path: syntax::unspaced_text(*path, source, 400),
        is_wildcard: has_token(directive, "*"),
        alias,
    })
}

/// The package of a file (`""` without a header).
fn package_of(root: Node<'_>, source: &str) -> String {
    syntax::first_named_child(root, "package_header")
        .and_then(|header| named_children(header).into_iter().next())
        .map(|name| syntax::unspaced_text(name, source, 400))
        .unwrap_or_default()
}

/// The package and top-level declarations of a Kotlin file (classes, objects, interfaces, type
/// aliases, functions, properties), for the type index.
pub(crate) fn declarations(tree: &Tree, source: &str) -> Declarations {
    let root = tree.root_node();
    let package = package_of(root, source);
    let mut names = Vec::new();
    // Error recovery can lift a broken class's members to the top level; in formatted Kotlin a
    // member's line is indented, a top-level declaration's is not (`recovered_declarations`).
    let has_error = root.has_error();
    for node in named_children(root) {
        if has_error && !starts_unindented(node, source) {
            continue;
        }
        match node.kind() {
            "annotated_expression" | "assignment" => {
                names.extend(misparsed_declaration(node, source));
            }
            "ERROR" => names.extend(recovered_declarations(node, source)),
            "file_annotation" => names.extend(jvm_name(node, source)),
            _ => names.extend(declaration_name(node, source)),
        }
    }
    if has_error {
        // The header of a class whose declaration the parser gave up on stays at the top level
        // as tokens: `public class PropertySpec` before a constructor it cannot read.
        names.extend(keyword_declarations(root, source));
    }
    names
        .into_iter()
        .map(|name| (package.clone(), name))
        .collect()
}

/// The names of the `class X` / `object X` / `fun x` … token pairs among `node`'s own children,
/// on unindented lines.
fn keyword_declarations(node: Node<'_>, source: &str) -> Vec<String> {
    let children = {
        let mut cursor = node.walk();
        node.children(&mut cursor).collect::<Vec<_>>()
    };
    children
        .iter()
        .enumerate()
        .filter(|(_, keyword)| starts_unindented(**keyword, source))
        .filter_map(|(position, keyword)| {
            keyword_pair(*keyword, children.get(position + 1).copied(), source)
        })
        .collect()
}

/// The name `next` gives when `keyword` is a declaration keyword token (`class`, `fun` …) and
/// `next` an identifier: a declaration the parser read as tokens.
fn keyword_pair(keyword: Node<'_>, next: Option<Node<'_>>, source: &str) -> Option<String> {
    (!keyword.is_named() && DECLARATION_KEYWORDS.contains(&keyword.kind()))
        .then_some(next)
        .flatten()
        .filter(|name| name.kind() == "identifier")
        .map(|name| syntax::text(name, source).to_owned())
}

/// The facade class name of `@file:JvmName("Texts")`, through which Java calls the file's
/// top-level functions.
fn jvm_name(annotation: Node<'_>, source: &str) -> Option<String> {
    let invocation = named_children(annotation)
        .into_iter()
        .find(|child| child.kind() == "constructor_invocation")?;
    let children = named_children(invocation);
    let is_jvm_name = children
        .first()
        .is_some_and(|kind| syntax::text(*kind, source).rsplit('.').next() == Some("JvmName"));
    if !is_jvm_name {
        return None;
    }
    let arguments = children.get(1)?;
    let argument = named_children(*arguments).into_iter().next()?;
    let literal = named_children(argument).into_iter().next()?;
    let content = named_children(literal)
        .into_iter()
        .find(|child| child.kind() == "string_content")?;
    Some(syntax::text(content, source).to_owned())
}

/// The name of a well-formed declaration node.
fn declaration_name(declaration: Node<'_>, source: &str) -> Option<String> {
    match declaration.kind() {
        "class_declaration" | "object_declaration" | "function_declaration" => {
            source_scope::field_text(declaration, "name", source)
        }
        "type_alias" => source_scope::field_text(declaration, "type", source),
        "property_declaration" => named_children(declaration)
            .into_iter()
            .find(|child| child.kind() == "variable_declaration")
            .and_then(|variable| named_children(variable).into_iter().next())
            .map(|name| syntax::text(name, source).to_owned()),
        _ => None,
    }
}

/// The keywords after which a declaration's name follows.
const DECLARATION_KEYWORDS: [&str; 6] = ["class", "interface", "object", "val", "var", "fun"];

/// The name of an annotated top-level declaration the grammar reads as an expression: an
/// `annotation class X` or `class X` followed by an annotated constructor, read as an infix
/// expression `annotation class X`, or `const val X = 1` read as an assignment to one.
fn misparsed_declaration(expression: Node<'_>, source: &str) -> Option<String> {
    let mut current = expression;
    if current.kind() == "assignment" {
        current = current.child_field("left")?;
    }
    if current.kind() != "annotated_expression" {
        return None;
    }
    while current.kind() == "annotated_expression" {
        current = named_children(current).into_iter().last()?;
    }
    if current.kind() != "infix_expression" {
        return None;
    }
    let words: Vec<&str> = named_children(current)
        .into_iter()
        .map_while(|child| (child.kind() == "identifier").then(|| syntax::text(child, source)))
        .collect();
    let keyword = words
        .iter()
        .position(|word| DECLARATION_KEYWORDS.contains(word))?;
    words.get(keyword + 1).map(|name| (*name).to_owned())
}

/// Whether the line `node` starts on begins without indentation.
fn starts_unindented(node: Node<'_>, source: &str) -> bool {
    let before = source.get(..node.start_byte()).unwrap_or_default();
    let line = before
        .rfind('\n')
        .and_then(|newline| before.get(newline + 1..))
        .unwrap_or(before);
    !line.starts_with([' ', '\t'])
}

/// The top-level declarations inside a parse error at the top level: the declarations and the
/// `class X` / `object X` / `fun x` … token pairs outside any braces, on a line that starts
/// unindented. Members stay out: the braces around them may lie inside the recovered nodes,
/// where no count of the error's own braces sees them, but a member's line is indented in
/// formatted Kotlin (kotlinpoet's `PropertySpec.kt` declared `Builder`, `toString`, `name` …).
fn recovered_declarations(error: Node<'_>, source: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut depth = 0_usize;
    let children = {
        let mut cursor = error.walk();
        error.children(&mut cursor).collect::<Vec<_>>()
    };
    for (position, child) in children.iter().enumerate() {
        match child.kind() {
            "{" => depth += 1,
            "}" => depth = depth.saturating_sub(1),
            _ if depth == 0 && starts_unindented(*child, source) => names.extend(
                keyword_pair(*child, children.get(position + 1).copied(), source)
                    .or_else(|| declaration_name(*child, source)),
            ),
            _ => {}
        }
    }
    names
}

/// The declarations that name scopes: classes, objects and functions.
const SCOPE_KINDS: [&str; 3] = [
    "class_declaration",
    "object_declaration",
    "function_declaration",
];

/// Classes, objects and functions name scopes.
pub(crate) fn scope_name(node: Node<'_>, source: &str) -> Option<String> {
    if SCOPE_KINDS.contains(&node.kind()) {
        source_scope::field_text(node, "name", source)
    } else {
        None
    }
}

/// The kinds of the one walk that finds first uses, dotted chains and scopes.
/// The extractor's walk of `tree` alone, with `visit` called on the way (for the matcher's
/// comparison with the query files).
#[cfg(test)]
pub(crate) fn walk<'tree>(
    tree: &'tree Tree,
    source: &'tree str,
    visit: impl FnMut(Node<'tree>, Option<&'static str>, &[crate::walk::Ancestor<'tree>]),
) {
    Anchors::new(tree.root_node(), source, scope_name).walk_with(&WALK_KINDS, visit);
}

pub(crate) static WALK_KINDS: WalkKinds<'static> = WalkKinds {
    names: &["identifier"],
    scopes: &SCOPE_KINDS,
    chains: &jvm::ChainKinds {
        chain: &["navigation_expression", "user_type"],
        leaf: &["identifier"],
        ignored: &["type_arguments"],
        skipped: &["import", "package_header"],
    },
    // The matcher reads the `right` of a binary expression and of an assignment, no other
    // field (`crate::lang::kotlin::walk`).
    field_parents: Some(&[
        ("binary_expression", &[crate::walk::FieldAt::Any("right")]),
        ("assignment", &[crate::walk::FieldAt::Any("right")]),
    ]),
    member_names: &[],
    chain_member_names: &[],
    // `Outer.Inner`: the nested type, no use of a top-level `Inner` of the package.
    later_segments: &["user_type"],
    // The nodes whose facts name their scopes: calls, assignments, annotations.
    scoped: &["call_expression", "assignment", "annotation"],
    prune_parents: &[],
    ids: OnceLock::new(),
};

/// What a Kotlin file declares, for the project's type index. A Kotlin script
/// (`build.gradle.kts`, `*.main.kts`) declares nothing other files can import: its top-level
/// `val`s are the script's own, not members of one default package that every build script of
/// the project shares.
pub(crate) fn type_declarations(
    path: &str,
    tree: &Tree,
    source: &str,
) -> Option<crate::resolve::context::TypeDeclarations> {
    if path.ends_with(".kts") {
        return None;
    }
    Some(crate::resolve::context::TypeDeclarations::jvm_scanning(
        declarations(tree, source),
        mapper_scan_packages(tree.root_node(), source),
    ))
}

/// The annotations in a declaration's `modifiers`, each with its name as written (`Mapper`,
/// `org.apache.ibatis.annotations.Mapper`).
fn annotations<'tree>(declaration: Node<'tree>, source: &str) -> Vec<(String, Node<'tree>)> {
    named_children(declaration)
        .into_iter()
        .filter(|child| child.kind() == "modifiers")
        .flat_map(named_children)
        .filter(|child| child.kind() == "annotation")
        .filter_map(|annotation| {
            let first = named_children(annotation).into_iter().next()?;
            let written = match first.kind() {
                "user_type" => first,
                "constructor_invocation" => syntax::first_named_child(first, "user_type")?,
                _ => return None,
            };
            Some((syntax::unspaced_text(written, source, 200), annotation))
        })
        .collect()
}

/// The annotations of the file's top-level classes (not interfaces) and of their functions whose
/// name ends a catalogue type (`annotation.KafkaListener`): each with its name as written and its
/// node. MyBatis's `@Mapper` on an interface is read by `interface_names`, and its `@MapperScan`
/// configures mappers without being one.
fn client_annotations<'tree>(
    root: Node<'tree>,
    source: &str,
    matcher: &ClientMatcher<'_>,
) -> Vec<(String, Node<'tree>)> {
    let mut found = Vec::new();
    for class in named_children(root).into_iter().filter(|declaration| {
        declaration.kind() == "class_declaration" && !has_token(*declaration, "interface")
    }) {
        let functions = named_children(class)
            .into_iter()
            .filter(|child| child.kind() == "class_body")
            .flat_map(named_children)
            .filter(|member| member.kind() == "function_declaration");
        for declaration in std::iter::once(class).chain(functions) {
            found.extend(
                annotations(declaration, source)
                    .into_iter()
                    .filter(|(name, _)| jvm::is_client_annotation(matcher, name)),
            );
        }
    }
    found
}

/// The file's top-level interfaces that MyBatis makes mappers: each with its name node and
/// whether it is annotated `@Mapper` (else it is one when a `@MapperScan` names its package).
fn interface_names<'tree>(root: Node<'tree>, source: &str) -> Vec<(Node<'tree>, bool)> {
    named_children(root)
        .into_iter()
        .filter(|declaration| {
            declaration.kind() == "class_declaration" && has_token(*declaration, "interface")
        })
        .filter_map(|declaration| {
            let name = declaration.child_field("name")?;
            let is_annotated = annotations(declaration, source)
                .iter()
                .any(|(written, _)| jvm::names_annotation(written, jvm::MAPPER));
            Some((name, is_annotated))
        })
        .collect()
}

/// The packages the MyBatis `@MapperScan` annotations of the file's top-level classes name:
/// `@MapperScan("a.mapper", "a.dao")` (the `value` vararg), and the `value` and `basePackages`
/// arguments as an array literal (`["a.mapper"]`) or `arrayOf("a.mapper")`.
fn mapper_scan_packages(root: Node<'_>, source: &str) -> Vec<String> {
    if !source.contains("MapperScan") {
        return Vec::new();
    }
    let mut packages = Vec::new();
    for declaration in named_children(root) {
        for (name, annotation) in annotations(declaration, source) {
            if !jvm::names_annotation(&name, jvm::MAPPER_SCAN) {
                continue;
            }
            let arguments = named_children(annotation)
                .into_iter()
                .next()
                .and_then(|invocation| syntax::first_named_child(invocation, "value_arguments"));
            for argument in arguments.map(named_children).unwrap_or_default() {
                let parts = named_children(argument);
                let value = if has_token(argument, "=") {
                    let key = parts.first().map(|key| syntax::text(*key, source));
                    if !matches!(key, Some("value" | "basePackages")) {
                        continue;
                    }
                    parts.get(1).copied()
                } else {
                    parts.first().copied()
                };
                packages.extend(value.map_or_else(Vec::new, |value| string_values(value, source)));
            }
        }
    }
    packages
}

/// The plain string literals of an annotation argument: the literal itself, or those of an
/// array literal (`["a", "b"]`) or an `arrayOf("a", "b")` call.
fn string_values(value: Node<'_>, source: &str) -> Vec<String> {
    let literals = match value.kind() {
        "string_literal" => vec![value],
        "collection_literal" => named_children(value),
        "call_expression" => syntax::first_named_child(value, "value_arguments")
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|argument| named_children(argument).into_iter().next())
            .collect(),
        _ => Vec::new(),
    };
    literals
        .into_iter()
        .filter(|literal| literal.kind() == "string_literal")
        .map(|literal| syntax::text(literal, source).trim_matches('"').to_owned())
        .filter(|package| !package.is_empty() && !package.contains('$'))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::declarations;
    use crate::syntax;

    fn declared(source: &str) -> Vec<String> {
        let grammar = crate::language::Language::Kotlin
            .spec()
            .tree_sitter()
            .map(|backend| backend.grammar);
        let tree = grammar
            .and_then(|grammar| syntax::parse(grammar, source))
            .expect("the Kotlin grammar parses");
        declarations(&tree, source)
            .into_iter()
            .map(|(package, name)| format!("{package}.{name}"))
            .collect()
    }

    #[test]
    fn mapper_scan_packages_are_read_from_every_argument_form() {
        let grammar = crate::language::Language::Kotlin
            .spec()
            .tree_sitter()
            .map(|backend| backend.grammar)
            .expect("the Kotlin grammar");
        let source = "package a\n\n@MapperScan(\"a.m\", \"a.n\")\nclass A\n\n@org.mybatis.spring.annotation.MapperScan(value = arrayOf(\"b.m\"))\nclass B\n\n@MapperScan(basePackages = [\"c.m\", \"c.$x\"], sqlSessionFactoryRef = \"f\")\nclass C\n\n@Other(\"d.m\")\nclass D\n";
        let tree = syntax::parse(grammar, source).expect("parses");
        assert_eq!(
            super::mapper_scan_packages(tree.root_node(), source),
            ["a.m", "a.n", "b.m", "c.m"]
        );
    }

    #[test]
    fn a_class_inside_a_top_level_parse_error_is_declared_without_its_members() {
        // Getters without a property: the grammar wraps the whole class in an ERROR node.
        let source = "package a.b\n\nclass Limits {\n  private var flags: Int = 0\n\n  get() {\n  }\n  get() {\n  }\n  fun reset() {\n  }\n}\n\nfun top(): Int = 1\n";
        let names = declared(source);
        // Its member `flags` is no top-level declaration.
        assert_eq!(names, vec!["a.b.Limits".to_owned()]);
    }

    #[test]
    fn an_annotated_class_with_an_annotated_constructor_is_declared() {
        let source = "package a.b\n\n@Suppress(\"x\")\n@Marker\nclass Adapter\n  @Deprecated(\"no\")\n  internal constructor() : Base {\n}\n";
        assert_eq!(declared(source), vec!["a.b.Adapter".to_owned()]);
    }
}
