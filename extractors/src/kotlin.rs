//! The Kotlin extractor: imports and same-package uses resolved through the Java/Kotlin type
//! index (`crate::jvm`; top-level functions, properties and type aliases are indexed too, since
//! Kotlin imports them), and infrastructure clients (Retrofit, OkHttp, Room, the Ktor client,
//! and the Java clients).

use std::collections::BTreeMap;

use policies::facts::{Fact, FactKind};
use tree_sitter::{Node, Tree};

use crate::clients::{ClientImport, ClientMatcher, ClientRule, ClientSite, ClientUse};
use crate::context::{Declarations, Resolution, TypeIndex};
use crate::facts_out::FactFactory;
use crate::graph;
use crate::imports_out;
use crate::jvm::{self, JvmImport, JAVA_CLIENTS};
use crate::query::{Field, QueryHit};
use crate::source_scope;
use crate::syntax::{self, has_token, named_children};
use crate::ExtractionInput;

/// Extracts the facts of one Kotlin file (unsorted).
pub(crate) fn extract(input: &ExtractionInput<'_>) -> Vec<Fact> {
    let source = input.source;
    let hits = input.query.hits(input.tree, source);
    let factory = FactFactory::new(input);
    let root = input.tree.root_node();
    let scope_of = |node: Node<'_>| source_scope::enclosing(node, root, source, scope_name);
    let imports: Vec<JvmImport<'_>> = hits
        .iter()
        .filter(|hit| hit.kind == FactKind::Import)
        .filter_map(|hit| read_import(hit.node(Field::Statement)?, source))
        .collect();
    let package = package_of(root, source);
    let uses = syntax::first_uses(root, source, &["identifier"], &["import", "package_header"]);
    let chains = jvm::dotted_chains(
        root,
        source,
        &jvm::ChainKinds {
            chain: &["navigation_expression", "user_type"],
            leaf: &["identifier"],
            ignored: &["type_arguments"],
            skipped: &["import", "package_header"],
        },
    );
    let index = input.context.jvm_types();
    let file = jvm::JvmFile {
        path: input.path,
        package: &package,
        imports: &imports,
        uses: &uses,
        chains: &chains,
        is_java: false,
    };
    let import_sites = jvm::import_sites(index, &file);
    // The project types the file names, by simple name, for typed Ktor resources.
    let types: BTreeMap<String, String> = import_sites
        .iter()
        .filter_map(|site| match &site.resolution {
            Resolution::File(file) => {
                let name = site.specifier.rsplit('.').next().unwrap_or(&site.specifier);
                Some((name.to_owned(), file.clone()))
            }
            _ => None,
        })
        .collect();
    let mut facts: Vec<Fact> = import_sites
        .iter()
        .map(|site| imports_out::fact(&factory, site, scope_of(site.node)))
        .collect();
    let sites: Vec<ClientSite<'_>> = hits
        .iter()
        .filter(|hit| hit.kind == FactKind::AccessesTechnology)
        .filter_map(|hit| client_site(hit, source, &imports, index))
        .collect();
    let client_imports: Vec<ClientImport<'_>> = imports
        .iter()
        .map(|import| ClientImport {
            node: import.node,
            path: import.path.clone(),
        })
        .collect();
    let rules: Vec<ClientRule> = KOTLIN_CLIENTS
        .iter()
        .chain(JAVA_CLIENTS.iter())
        .copied()
        .collect();
    let matcher = ClientMatcher {
        rules: &rules,
        separator: ".",
    };
    facts.extend(matcher.facts(&factory, &sites, &client_imports, &scope_of));
    let file = graph::FileSyntax {
        source,
        root,
        scope_of: &scope_of,
    };
    if input.context.generic_facts() {
        facts.extend(graph::facts(&factory, &graph::kotlin::Kotlin, &hits, &file));
    }
    facts.extend(crate::kotlin_web::facts(
        input, &factory, &hits, &file, &types,
    ));
    facts
}

fn client_site<'tree>(
    hit: &QueryHit<'tree>,
    source: &str,
    imports: &[JvmImport<'_>],
    index: &TypeIndex,
) -> Option<ClientSite<'tree>> {
    let (node, use_kind, name) = if let Some(base) = hit.node(Field::Base) {
        (base, ClientUse::Extend, type_name(base, source))
    } else if let Some(call) = hit.node(Field::Call) {
        let callee = syntax::compact_text(hit.node(Field::Function)?, source, 200).replace(' ', "");
        let is_plain_chain = callee
            .chars()
            .all(|character| character.is_alphanumeric() || character == '_' || character == '.');
        if !is_plain_chain {
            return None;
        }
        (call, ClientUse::Call, callee)
    } else {
        let parameter = hit.node(Field::Parameter)?;
        (
            parameter,
            ClientUse::Inject,
            type_name(hit.node(Field::Type)?, source),
        )
    };
    Some(ClientSite {
        node,
        use_kind,
        path: jvm::qualify(&name, imports, index)?,
        is_qualified: true,
        argument: None,
    })
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

/// Reads `import a.b.C`, `import a.b.*`, `import a.b.C as D`.
fn read_import<'tree>(directive: Node<'tree>, source: &str) -> Option<JvmImport<'tree>> {
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
        node: directive,
        path: syntax::compact_text(*path, source, 400).replace(' ', ""),
        is_wildcard: has_token(directive, "*"),
        alias,
    })
}

/// The package of a file (`""` without a header).
fn package_of(root: Node<'_>, source: &str) -> String {
    named_children(root)
        .into_iter()
        .find(|child| child.kind() == "package_header")
        .and_then(|header| named_children(header).into_iter().next())
        .map(|name| syntax::compact_text(name, source, 400).replace(' ', ""))
        .unwrap_or_default()
}

/// The package and top-level declarations of a Kotlin file (classes, objects, interfaces, type
/// aliases, functions, properties), for the type index.
pub(crate) fn declarations(tree: &Tree, source: &str) -> Declarations {
    let root = tree.root_node();
    let package = package_of(root, source);
    named_children(root)
        .into_iter()
        .filter_map(|declaration| match declaration.kind() {
            "class_declaration" | "object_declaration" | "function_declaration" => {
                source_scope::field_text(declaration, "name", source)
            }
            "type_alias" => source_scope::field_text(declaration, "type", source),
            "annotated_expression" => misparsed_annotation_class(declaration, source),
            "property_declaration" => named_children(declaration)
                .into_iter()
                .find(|child| child.kind() == "variable_declaration")
                .and_then(|variable| named_children(variable).into_iter().next())
                .map(|name| syntax::text(name, source).to_owned()),
            _ => None,
        })
        .map(|name| (package.clone(), name))
        .collect()
}

/// The name of an annotated `annotation class X` without a body or parameters, which the
/// grammar reads as an annotated infix expression `annotation class X`.
fn misparsed_annotation_class(expression: Node<'_>, source: &str) -> Option<String> {
    let mut current = expression;
    while current.kind() == "annotated_expression" {
        current = named_children(current).into_iter().last()?;
    }
    if current.kind() != "infix_expression" {
        return None;
    }
    let words: Vec<&str> = named_children(current)
        .into_iter()
        .map(|child| {
            if child.kind() == "identifier" {
                syntax::text(child, source)
            } else {
                ""
            }
        })
        .collect();
    match words.as_slice() {
        [.., "annotation", "class", name] if !name.is_empty() => Some((*name).to_owned()),
        _ => None,
    }
}

/// Classes, objects and functions name scopes.
fn scope_name(node: Node<'_>, source: &str) -> Option<String> {
    match node.kind() {
        "class_declaration" | "object_declaration" | "function_declaration" => {
            source_scope::field_text(node, "name", source)
        }
        _ => None,
    }
}

/// Kotlin clients, before the Java ones.
const KOTLIN_CLIENTS: [ClientRule; 4] = [
    ClientRule {
        calls: &["Retrofit.Builder"],
        types: &["Retrofit"],
        ..ClientRule::new("retrofit", "external_api", &["retrofit2"])
    },
    ClientRule {
        calls: &["OkHttpClient", "OkHttpClient.Builder"],
        types: &["OkHttpClient"],
        ..ClientRule::new("okhttp", "external_api", &["okhttp3"])
    },
    ClientRule {
        calls: &["Room.databaseBuilder", "Room.inMemoryDatabaseBuilder"],
        types: &["RoomDatabase"],
        ..ClientRule::new("room", "local_database", &["androidx.room"])
    },
    ClientRule {
        calls: &["HttpClient"],
        types: &["HttpClient"],
        ..ClientRule::new("ktor-client", "external_api", &["io.ktor.client"])
    },
];
