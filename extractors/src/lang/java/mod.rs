//! The Java extractor: imports and same-package type uses resolved through the project's type
//! index (`crate::lang::jvm`), and infrastructure clients (JDBC, Spring Data repositories, Kafka,
//! `RestTemplate`, `WebClient`).

pub(crate) mod calls_and_assignments;
pub(crate) mod spec;
pub(crate) mod walk;

use std::borrow::Cow;
use std::sync::OnceLock;
use std::time::Instant;

use policies::facts::{Fact, FactKind};
use tree_sitter::{Node, Tree};

use crate::facts::clients::{ClientMatcher, ClientUse};
use crate::lang::jvm::{self, ImportNames, JvmImport, PendingClient, PendingJvm};
use crate::language::ExtractionInput;
use crate::query::{Field, QueryHit};
use crate::resolve::context::Declarations;
use crate::resolve::deferred::{Anchors, Output, PackedNames, Prune, WalkKinds};
use crate::source_scope;
use crate::syntax::ChildField;
use crate::syntax::{self, named_children};
use crate::walk::FieldAt::{Any, First, Last};

/// The statements a Java walk may step over: the trigger words are the matcher's and the last
/// names of the clients' types and calls.
fn prune() -> &'static Prune {
    static PRUNE: OnceLock<Prune> = OnceLock::new();
    PRUNE.get_or_init(|| {
        let clients = ClientMatcher {
            rules: crate::catalogue::catalogue().libraries("java"),
            separator: ".",
        };
        Prune::new(
            &crate::resolve::deferred::JAVA_KEYWORDS,
            crate::lang::java::walk::trigger_words().chain(clients.last_segments()),
        )
    })
}

/// Extracts the facts of one Java file (unsorted); what needs the type index waits for the
/// second pass (`crate::resolve::deferred`).
pub(crate) fn extract(input: &ExtractionInput<'_>) -> Vec<Fact> {
    let source = input.source;
    let factory = input.fact_factory();
    let root = input.tree.root_node();
    let mut out = Output::new(Anchors::new(root, source, scope_name));
    // One walk finds the query's matches, the first uses, the dotted chains and their scopes.
    let mut matcher = crate::lang::java::walk::matcher(source, input.context.generic_facts());
    let started = input.query.is_timed().then(Instant::now);
    // It also collects the types declared inside others (members and local classes), and the
    // type parameters (`T` of `class Box<T>`), which are no type of any package.
    let mut nested = Vec::new();
    let mut shadowing: Vec<String> = Vec::new();
    // Without the generic facts (every call and assignment), a statement that can add nothing
    // is stepped over; not when the spec binds libraries, whose uses any statement may hold.
    let generic = factory.generic();
    let prune =
        (input.context.pruning() && !input.context.generic_facts() && !generic.has_bound_clients())
            .then(prune);
    let walked = out
        .anchors
        .walk_scoped(&WALK_KINDS, prune, |node, field, ancestors, visited| {
            matcher.visit_ids(
                node,
                field,
                ancestors,
                visited.kind_id,
                visited.parent_kind_id,
            );
            if ancestors.len() > 1 {
                nested.extend(declared_type_name(node, visited.kind_id, source));
            }
            shadowing.extend(type_parameter_name(node, visited.kind_id, source));
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
    // A type the file declares inside another (`A.Builder`) shadows a same-package or
    // on-demand-imported type of that name where the file uses it (JLS §6.4.1).
    for name in nested.iter().chain(&shadowing) {
        uses.remove(name.as_str());
    }
    // The annotations of a `package-info.java` package declaration use types too.
    for declaration in named_children(root)
        .into_iter()
        .filter(|child| child.kind() == "package_declaration")
    {
        for annotation in named_children(declaration)
            .into_iter()
            .filter(|child| matches!(child.kind(), "annotation" | "marker_annotation"))
        {
            for (name, node) in syntax::first_uses(annotation, source, &["identifier"], &[]) {
                uses.entry(Cow::Owned(name))
                    .or_insert_with(|| (node, out.anchors.scope_of(node)));
            }
        }
    }
    let matcher = ClientMatcher {
        rules: crate::catalogue::catalogue().libraries("java"),
        separator: ".",
    };
    let names = ImportNames::new(&imports);
    let mut clients = Vec::new();
    // The byte ranges of the sites kept, and which of them are locals.
    let mut spans: Vec<(std::ops::Range<usize>, bool)> = Vec::new();
    for site in hits
        .iter()
        .filter(|hit| hit.kind == FactKind::AccessesTechnology)
        .filter_map(|hit| client_site(hit, source, &matcher, generic.has_bound_clients()))
        .filter(|site| !shadowing.iter().any(|name| *name == jvm::head(&site.2)))
    {
        let (node, use_kind) = (site.0, site.1);
        // A local holds a client only when its type is one of the catalogue's clients: a local
        // of some other type of a bound library (its `AMQP.BasicProperties`) holds a value.
        let is_local = node.kind() == "local_variable_declaration";
        if is_local
            && !names
                .candidates(&site.2)
                .iter()
                .any(|path| matcher.matches_any(use_kind, path, true))
        {
            continue;
        }
        // The first string argument is read only for a call some rule may match.
        if let Some(mut client) = PendingClient::new(site, &names, &matcher, generic, |node| {
            out.anchors.with_scope(node, scope_of(node))
        }) {
            if use_kind == ClientUse::Call {
                client.argument = first_string_argument(node, source);
            }
            spans.push((node.byte_range(), is_local));
            clients.push(client);
        }
    }
    // A local whose value is itself a client site (`RestTemplate rest = new RestTemplate();`,
    // `Connection c = DriverManager.getConnection(url);`) is that one use, not two.
    let holds_a_site = |local: &std::ops::Range<usize>| {
        spans
            .iter()
            .any(|(span, is_local)| !is_local && local.start <= span.start && span.end <= local.end)
    };
    let kept: Vec<bool> = spans
        .iter()
        .map(|(span, is_local)| !(*is_local && holds_a_site(span)))
        .collect();
    let mut kept = kept.into_iter();
    clients.retain(|_| kept.next().unwrap_or(true));
    // MyBatis mappers: an interface annotated `@Mapper` is one (its annotation is a client site
    // the imports qualify), any other may be one through a `@MapperScan` of its package.
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
    // methods make it a client.
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
        is_java: true,
        clients,
        interfaces,
        rules: crate::catalogue::catalogue().libraries("java"),
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
            &crate::lang::java::calls_and_assignments::Java,
            &hits,
            &file,
        ));
    }
    crate::lang::jvm::spring::facts(&factory, &hits, &file, &mut out);
    out.into_facts(&input.deferred)
}

/// A possible client site: its node, use and name as written (the first string argument of a
/// call is read once a rule may match it). Java has no import aliases, so a name's qualified
/// path ends in the name's own last segment: a site whose last segment ends no rule's tail is
/// dropped here, before its name is built, unless the spec binds libraries (`has_bound_clients`),
/// any of whose names a site may use.
fn client_site<'tree>(
    hit: &QueryHit<'tree>,
    source: &str,
    matcher: &ClientMatcher<'_>,
    has_bound_clients: bool,
) -> Option<(Node<'tree>, ClientUse, String, Option<String>)> {
    let may_match =
        |use_kind: ClientUse, last: &str| has_bound_clients || matcher.may_end_with(use_kind, last);
    let typed = |node: Node<'tree>, use_kind: ClientUse| {
        let name = type_name(node, source);
        may_match(use_kind, matcher.last_segment(&name))
            .then(|| (node, use_kind, name.into_owned()))
    };
    let (node, use_kind, name) = if let Some(base) = hit.node(Field::Base) {
        typed(base, ClientUse::Extend)?
    } else if let Some(construction) = hit.node(Field::Construction) {
        let (_, use_kind, name) = typed(hit.node(Field::Type)?, ClientUse::Construct)?;
        (construction, use_kind, name)
    } else if let Some(call) = hit.node(Field::Call) {
        let method = syntax::text(hit.node(Field::Method)?, source);
        if !may_match(ClientUse::Call, method) {
            return None;
        }
        let receiver = syntax::text(hit.node(Field::Type)?, source);
        (call, ClientUse::Call, format!("{receiver}.{method}"))
    } else {
        let parameter = hit.node(Field::Parameter)?;
        let use_kind = if parameter.kind() == "local_variable_declaration" {
            ClientUse::Hold
        } else {
            ClientUse::Inject
        };
        let (_, use_kind, name) = typed(hit.node(Field::Type)?, use_kind)?;
        (parameter, use_kind, name)
    };
    Some((node, use_kind, name, None))
}

/// The name of a type node without type arguments (`KafkaTemplate<K, V>` → `KafkaTemplate`).
fn type_name<'source>(node: Node<'_>, source: &'source str) -> std::borrow::Cow<'source, str> {
    let node = if node.kind() == "generic_type" {
        node.named_child(0).unwrap_or(node)
    } else {
        node
    };
    syntax::unspaced(node, source, 200)
}

/// The first argument of a call when it is a string literal; for a concatenation that starts
/// with one (`"jdbc:postgresql://" + host + "/app"`), that literal when it holds a scheme (a
/// `:`), which is all a connection URL's category needs.
fn first_string_argument(call: Node<'_>, source: &str) -> Option<String> {
    let arguments = call.child_field("arguments")?;
    let first = named_children(arguments).into_iter().next()?;
    let mut leftmost = first;
    while leftmost.kind() == "binary_expression"
        && leftmost
            .child_field("operator")
            .is_some_and(|operator| syntax::text(operator, source) == "+")
    {
        leftmost = leftmost.child_field("left")?;
    }
    if leftmost.kind() != "string_literal" {
        return None;
    }
    let text = syntax::text(leftmost, source).trim_matches('"').to_owned();
    (leftmost == first || text.contains(':')).then_some(text)
}

/// Reads `import [static] a.b.C[.*];`.
fn read_import<'tree>(
    declaration: Node<'tree>,
    source: &str,
    anchors: &mut Anchors<'tree>,
) -> Option<JvmImport> {
    let children = named_children(declaration);
    let path = children
        .iter()
        .find(|child| matches!(child.kind(), "scoped_identifier" | "identifier"))?;
    Some(JvmImport {
        node: anchors.at(declaration),
        path: syntax::unspaced_text(*path, source, 400),
        is_wildcard: children.iter().any(|child| child.kind() == "asterisk"),
        alias: None,
    })
}

/// The package of a file (`""` for the default package).
fn package_of(root: Node<'_>, source: &str) -> String {
    syntax::first_named_child(root, "package_declaration")
        .and_then(|declaration| {
            named_children(declaration)
                .into_iter()
                .find(|child| matches!(child.kind(), "scoped_identifier" | "identifier"))
        })
        .map(|name| syntax::unspaced_text(name, source, 400))
        .unwrap_or_default()
}

/// The package and top-level type names of a Java file, for the type index.
pub(crate) fn declarations(tree: &Tree, source: &str) -> Declarations {
    let root = tree.root_node();
    let package = package_of(root, source);
    named_children(root)
        .into_iter()
        .filter(|child| TYPE_KINDS.contains(&child.kind()))
        .filter_map(|declaration| source_scope::field_text(declaration, "name", source))
        .map(|name| (package.clone(), name))
        .collect()
}

/// The declarations that name scopes: types, methods and constructors.
const SCOPE_KINDS: [&str; 6] = [
    "class_declaration",
    "interface_declaration",
    "enum_declaration",
    "record_declaration",
    "method_declaration",
    "constructor_declaration",
];

/// Types, methods and constructors name scopes (by kind id and field id: `Node::kind`
/// validates the name's UTF-8, and `Node::child_by_field_name` looks the field up by name).
pub(crate) fn scope_name(node: Node<'_>, source: &str) -> Option<String> {
    static NAMES_SCOPE: OnceLock<Vec<bool>> = OnceLock::new();
    let names_scope = NAMES_SCOPE.get_or_init(|| kinds_among(&SCOPE_KINDS));
    name_if_among(node, node.kind_id(), names_scope, source)
}

/// The name of a type declaration (a class, interface, enum, record or annotation type), read
/// by kind id: this runs for every node the walk visits.
fn declared_type_name(node: Node<'_>, kind_id: u16, source: &str) -> Option<String> {
    static DECLARES_TYPE: OnceLock<Vec<bool>> = OnceLock::new();
    let declares_type = DECLARES_TYPE.get_or_init(|| kinds_among(&TYPE_KINDS));
    name_if_among(node, kind_id, declares_type, source)
}

/// The name of a type parameter (`T` of `class Box<T extends Comparable<T>>`).
fn type_parameter_name(node: Node<'_>, kind_id: u16, source: &str) -> Option<String> {
    static IS_TYPE_PARAMETER: OnceLock<Vec<bool>> = OnceLock::new();
    let is_type_parameter = IS_TYPE_PARAMETER.get_or_init(|| kinds_among(&["type_parameter"]));
    if !is_type_parameter
        .get(usize::from(kind_id))
        .copied()
        .unwrap_or(false)
    {
        return None;
    }
    named_children(node)
        .into_iter()
        .find(|child| child.kind() == "type_identifier")
        .map(|name| syntax::text(name, source).to_owned())
        .filter(|name| !name.is_empty())
}

/// For each kind id of the Java grammar, whether its kind is one of `kinds`.
fn kinds_among(kinds: &[&str]) -> Vec<bool> {
    crate::walk::kind_table(&tree_sitter_java::LANGUAGE.into(), false, |kind| {
        kinds.contains(&kind)
    })
}

/// The text of `node`'s `name` field when its kind id is marked in `among`, unless empty.
fn name_if_among(node: Node<'_>, kind_id: u16, among: &[bool], source: &str) -> Option<String> {
    if !among.get(usize::from(kind_id)).copied().unwrap_or(false) {
        return None;
    }
    crate::lang::java::walk::field_child(node, crate::lang::java::walk::Child::Name)
        .map(|name| syntax::text(name, source).to_owned())
        .filter(|name| !name.is_empty())
}

/// The declarations of types (top-level ones are the file's entries in the type index).
const TYPE_KINDS: [&str; 5] = [
    "class_declaration",
    "interface_declaration",
    "enum_declaration",
    "record_declaration",
    "annotation_type_declaration",
];

/// The kinds of the one walk that finds first uses, dotted chains and scopes.
/// The extractor's walk of `tree` alone, with `visit` called on the way (for the matcher's
/// comparison with the query files).
/// What a Java file declares, for the project's type index.
pub(crate) fn type_declarations(
    _path: &str,
    tree: &Tree,
    source: &str,
) -> Option<crate::resolve::context::TypeDeclarations> {
    Some(
        crate::resolve::context::TypeDeclarations::jvm_scanning(
            declarations(tree, source),
            mapper_scan_packages(tree.root_node(), source),
        )
        .with_jvm_constants(string_constants(tree.root_node(), source)),
    )
}

/// The `static final String` fields of a file's types with a literal value (in an interface
/// every field is one), by type path and name without the package: `AuthoritiesConstants.ADMIN`
/// → `ROLE_ADMIN`, `Roles.Admin.NAME` for a nested type's; for role checks that name them
/// (`crate::lang::jvm::roles`).
fn string_constants(root: Node<'_>, source: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut pending: Vec<(Node<'_>, String)> = named_children(root)
        .into_iter()
        .filter(|child| TYPE_KINDS.contains(&child.kind()))
        .map(|declaration| (declaration, String::new()))
        .collect();
    while let Some((declaration, outer)) = pending.pop() {
        let Some(name) = source_scope::field_text(declaration, "name", source) else {
            continue;
        };
        let path = match outer.is_empty() {
            true => name,
            false => format!("{outer}.{name}"),
        };
        let implicitly_constant = matches!(
            declaration.kind(),
            "interface_declaration" | "annotation_type_declaration"
        );
        let Some(body) = declaration.child_field("body") else {
            continue;
        };
        let members = named_children(body).into_iter().flat_map(|member| {
            match member.kind() {
                // An enum's fields and types follow its constants.
                "enum_body_declarations" => named_children(member),
                _ => vec![member],
            }
        });
        for member in members {
            if TYPE_KINDS.contains(&member.kind()) {
                pending.push((member, path.clone()));
                continue;
            }
            if !matches!(member.kind(), "field_declaration" | "constant_declaration") {
                continue;
            }
            let modifiers: Vec<&str> = named_children(member)
                .into_iter()
                .filter(|child| child.kind() == "modifiers")
                .flat_map(|modifiers| {
                    let mut cursor = modifiers.walk();
                    let words: Vec<&str> = modifiers
                        .children(&mut cursor)
                        .map(|modifier| syntax::text(modifier, source))
                        .collect();
                    words
                })
                .collect();
            let constant = implicitly_constant
                || (modifiers.contains(&"static") && modifiers.contains(&"final"));
            let is_string = member.child_field("type").is_some_and(|kind| {
                matches!(syntax::text(kind, source), "String" | "java.lang.String")
            });
            if !(constant && is_string) {
                continue;
            }
            for declarator in named_children(member) {
                if declarator.kind() != "variable_declarator" {
                    continue;
                }
                let value = declarator
                    .child_field("value")
                    .filter(|value| value.kind() == "string_literal");
                let (Some(field), Some(value)) = (declarator.child_field("name"), value) else {
                    continue;
                };
                let text: String = named_children(value)
                    .into_iter()
                    .map(|part| syntax::text(part, source))
                    .collect();
                found.push((format!("{path}.{}", syntax::text(field, source)), text));
            }
        }
    }
    found.sort();
    found
}

/// The annotations of a declaration (in its `modifiers`), each with its name as written
/// (`Mapper`, `org.apache.ibatis.annotations.Mapper`).
fn annotations<'tree>(declaration: Node<'tree>, source: &str) -> Vec<(String, Node<'tree>)> {
    named_children(declaration)
        .into_iter()
        .filter(|child| child.kind() == "modifiers")
        .flat_map(named_children)
        .filter(|child| matches!(child.kind(), "annotation" | "marker_annotation"))
        .filter_map(|annotation| {
            let name = annotation.child_field("name")?;
            Some((syntax::unspaced_text(name, source, 200), annotation))
        })
        .collect()
}

/// The packages the MyBatis `@MapperScan` annotations of the file's top-level classes name:
/// `@MapperScan("a.mapper")`, `@MapperScan({"a.mapper", "a.dao"})`, and the `value` and
/// `basePackages` elements.
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
            let Some(arguments) = annotation.child_field("arguments") else {
                continue;
            };
            let mut values = Vec::new();
            for argument in named_children(arguments) {
                if argument.kind() != "element_value_pair" {
                    values.push(argument);
                    continue;
                }
                let key = argument
                    .child_field("key")
                    .map(|key| syntax::text(key, source));
                if matches!(key, Some("value" | "basePackages")) {
                    values.extend(argument.child_field("value"));
                }
            }
            for value in values {
                let literals = if value.kind() == "element_value_array_initializer" {
                    named_children(value)
                } else {
                    vec![value]
                };
                packages.extend(
                    literals
                        .into_iter()
                        .filter(|literal| literal.kind() == "string_literal")
                        .map(|literal| syntax::text(literal, source).trim_matches('"').to_owned())
                        .filter(|package| !package.is_empty()),
                );
            }
        }
    }
    packages
}

/// The annotations of the file's top-level classes and of their methods whose name ends a
/// catalogue type (`annotation.RabbitListener`): each with its name as written and its node.
/// MyBatis's `@Mapper` on an interface is read by `interface_names`, and its `@MapperScan`
/// configures mappers without being one.
fn client_annotations<'tree>(
    root: Node<'tree>,
    source: &str,
    matcher: &ClientMatcher<'_>,
) -> Vec<(String, Node<'tree>)> {
    let mut found = Vec::new();
    for class in named_children(root)
        .into_iter()
        .filter(|declaration| declaration.kind() == "class_declaration")
    {
        let methods = class
            .child_field("body")
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .filter(|member| member.kind() == "method_declaration");
        for declaration in std::iter::once(class).chain(methods) {
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
        .filter(|declaration| declaration.kind() == "interface_declaration")
        .filter_map(|declaration| {
            let name = declaration.child_field("name")?;
            let is_annotated = annotations(declaration, source)
                .iter()
                .any(|(written, _)| jvm::names_annotation(written, jvm::MAPPER));
            Some((name, is_annotated))
        })
        .collect()
}

#[cfg(test)]
pub(crate) fn walk<'tree>(
    tree: &'tree Tree,
    source: &'tree str,
    visit: impl FnMut(Node<'tree>, Option<&'static str>, &[crate::walk::Ancestor<'tree>]),
) {
    Anchors::new(tree.root_node(), source, scope_name).walk_with(&WALK_KINDS, visit);
}

pub(crate) static WALK_KINDS: WalkKinds<'static> = WalkKinds {
    names: &["type_identifier", "identifier"],
    scopes: &SCOPE_KINDS,
    chains: &jvm::ChainKinds {
        chain: &[
            "scoped_type_identifier",
            "field_access",
            "scoped_identifier",
        ],
        leaf: &["type_identifier", "identifier"],
        ignored: &[],
        skipped: &["import_declaration", "package_declaration"],
    },
    // The parents whose children's fields the matcher reads (`crate::lang::java::walk`), with where
    // the grammar puts them (`tree-sitter-java`'s `grammar.js`).
    field_parents: Some(&[
        ("object_creation_expression", &[Any("type")]),
        ("formal_parameter", &[Any("type")]),
        ("field_declaration", &[Any("type")]),
        ("local_variable_declaration", &[Any("type")]),
        ("assignment_expression", &[Last("right")]),
        ("annotation", &[First("name"), Last("arguments")]),
        ("marker_annotation", &[First("name")]),
    ]),
    member_names: &[],
    chain_member_names: &[],
    // `Outer.Inner`: the nested type, no use of a top-level `Inner` of the package.
    later_segments: &["scoped_type_identifier"],
    // The nodes whose facts name their scopes: calls, constructions, assignments, annotations.
    scoped: &[
        "method_invocation",
        "object_creation_expression",
        "assignment_expression",
        "annotation",
        "marker_annotation",
    ],
    // The statement lists whose statements a walk may step over (`deferred::Prune`).
    prune_parents: &[
        "block",
        "constructor_body",
        "class_body",
        "interface_body",
        "switch_block_statement_group",
    ],
    ids: OnceLock::new(),
};

/// `source` with the type annotations of each varargs parameter blanked in place (JSpecify's
/// `String @Nullable ... items`, the nullness of the elements, which tree-sitter-java cannot
/// read: halo's API module had two files with parse errors), or `None` when it has none. Only
/// the annotations' names are lost (as uses of their types). `crate::parse_source` parses this
/// text only when the file as written has errors, and keeps its tree only when it has fewer.
pub(crate) fn without_vararg_annotations(source: &str) -> Option<String> {
    if !source.contains("...") || !source.contains('@') {
        return None;
    }
    let bytes = source.as_bytes();
    let mut text = bytes.to_vec();
    let mut changed = false;
    for (dots, _) in source.match_indices("...") {
        let mut end = dots;
        // The annotations right before the `...`, last first: `@A`, `@a.b.C`, `@Size(max = 2)`.
        while let Some(start) = annotation_before(bytes, end) {
            for byte in text.get_mut(start..end)? {
                if !byte.is_ascii_whitespace() {
                    *byte = b' ';
                }
            }
            changed = true;
            end = start;
        }
    }
    // Only ASCII bytes of annotations became spaces: the text is still UTF-8 (an argument with
    // other letters ends the annotation's search, see `annotation_before`).
    changed.then(|| String::from_utf8(text).ok()).flatten()
}

/// Where the annotation that ends right before `end` (blanks aside) starts, at its `@`.
fn annotation_before(bytes: &[u8], end: usize) -> Option<usize> {
    let mut at = end;
    while at > 0 && bytes.get(at - 1).is_some_and(u8::is_ascii_whitespace) {
        at -= 1;
    }
    if bytes.get(at.checked_sub(1)?) == Some(&b')') {
        // Its arguments, plain ASCII without nested parentheses: `(max = 2)`, `("x")`.
        let open = bytes
            .get(..at - 1)?
            .iter()
            .rposition(|byte| *byte == b'(')?;
        if bytes
            .get(open..at)?
            .iter()
            .any(|byte| !byte.is_ascii() || matches!(byte, b';' | b'{' | b'}'))
        {
            return None;
        }
        at = open;
        while at > 0 && bytes.get(at - 1).is_some_and(u8::is_ascii_whitespace) {
            at -= 1;
        }
    }
    let name_end = at;
    while at > 0
        && bytes
            .get(at - 1)
            .is_some_and(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'$' | b'.'))
    {
        at -= 1;
    }
    (at < name_end && bytes.get(at.checked_sub(1)?) == Some(&b'@')).then(|| at - 1)
}

#[cfg(test)]
mod field_tests {
    crate::walk::query_parity::check_fields_test!(
        crate::language::Language::Java,
        &super::WALK_KINDS,
        "LINTEL_JAVA_WALK_CORPUS",
        20,
        [
            "class A { @Get( void f() { x.y = ; @M int z = ; } }",
            "class A { @Get(/* c */ \"a\") @M /* c */ void f() { x /* c */ = /* c */ y; } }",
            "class A { @ /* c */ Get /* c */ (\"a\") @ /* c */ M void f() { } }",
        ]
    );
}
