//! The walk finds exactly what the query files describe: every fixture (and, with
//! `LINTEL_WALK_CORPUS=<dir>`, every TypeScript/JavaScript file under a directory) is matched both
//! ways and compared hit by hit, in order; the name uses and scopes are compared with the
//! straightforward readings they replace.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use policies::facts::FactKind;
use tree_sitter::{Node, Tree};

use super::{scope, usage, walk};
use crate::language::Language;
use crate::query::QueryHit;
use crate::syntax;
use crate::syntax::ChildField;

fn sources(root: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|entry| entry.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if path.file_name().is_some_and(|name| name != "node_modules") {
                sources(&path, found);
            }
        } else if Language::for_path(&path.to_string_lossy()).is_some_and(|language| {
            matches!(
                language,
                Language::TypeScript | Language::Tsx | Language::JavaScript
            )
        }) {
            found.push(path);
        }
    }
}

/// The hits, kind by kind (each kind in order): what the extractors read.
fn describe(hits: &[QueryHit<'_>]) -> Vec<String> {
    let mut hits: Vec<&QueryHit<'_>> = hits.iter().collect();
    hits.sort_by_key(|hit| hit.kind);
    hits.iter()
        .map(|hit| {
            let captures: Vec<String> = hit
                .captures()
                .iter()
                .map(|(field, node)| {
                    format!("{field:?}@{}..{}", node.start_byte(), node.end_byte())
                })
                .collect();
            format!("{:?} {}", hit.kind, captures.join(" "))
        })
        .collect()
}

/// The name-use analysis the walk replaces, kept as the reference.
struct Reference {
    value_uses: HashSet<String>,
    type_uses: HashSet<String>,
    declared: HashSet<String>,
    nullable_metadata_uses: HashSet<String>,
}

fn reference_usage(tree: &Tree, source: &str) -> Reference {
    let mut usage = Reference {
        value_uses: HashSet::new(),
        type_uses: HashSet::new(),
        declared: HashSet::new(),
        nullable_metadata_uses: HashSet::new(),
    };
    let mut pending: Vec<(Node<'_>, Option<Node<'_>>, bool)> =
        vec![(tree.root_node(), None, false)];
    while let Some((node, parent, in_type)) = pending.pop() {
        let kind = node.kind();
        let is_reexport = kind == "export_statement" && node.child_field("source").is_some();
        if kind == "import_statement" || kind == "comment" || is_reexport {
            continue;
        }
        let in_type = in_type || usage::TYPE_CONTEXTS.contains(&kind);
        match kind {
            "identifier" | "type_identifier" | "shorthand_property_identifier" => {
                let name = syntax::text(node, source).to_owned();
                if parent.is_some_and(|parent| reference_is_declaration(node, parent)) {
                    usage.declared.insert(name.clone());
                }
                if kind == "type_identifier" || in_type {
                    let ancestors = std::iter::successors(node.parent(), Node::parent);
                    match usage::metadata_reference(node, ancestors, source) {
                        usage::Metadata::Serialized => {
                            usage.value_uses.insert(name);
                        }
                        usage::Metadata::SerializedIfNullable => {
                            usage.nullable_metadata_uses.insert(name.clone());
                            usage.type_uses.insert(name);
                        }
                        usage::Metadata::No => {
                            usage.type_uses.insert(name);
                        }
                    }
                } else {
                    usage.value_uses.insert(name);
                }
            }
            "shorthand_property_identifier_pattern" => {
                usage.declared.insert(syntax::text(node, source).to_owned());
            }
            _ => {
                let mut cursor = node.walk();
                pending.extend(
                    node.children(&mut cursor)
                        .map(|child| (child, Some(node), in_type)),
                );
            }
        }
    }
    usage
}

fn reference_is_declaration(identifier: Node<'_>, parent: Node<'_>) -> bool {
    let is_field = |field: &str| {
        parent
            .child_by_field_name(field)
            .is_some_and(|named| named.id() == identifier.id())
    };
    match parent.kind() {
        "variable_declarator"
        | "function_declaration"
        | "generator_function_declaration"
        | "class_declaration" => is_field("name"),
        "required_parameter" | "optional_parameter" => is_field("pattern"),
        "formal_parameters" => true,
        "assignment_pattern" => is_field("left"),
        "arrow_function" => is_field("parameter"),
        _ => false,
    }
}

fn sorted(set: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut names: Vec<String> = set.into_iter().collect();
    names.sort();
    names
}

/// Compares the walk with the query, the reference uses and the root-walk scopes on one file.
fn check(path: &Path) -> Result<usize, String> {
    let name = path.to_string_lossy().into_owned();
    let Ok(source) = std::fs::read_to_string(path) else {
        return Ok(0);
    };
    let language = Language::for_path(&name).ok_or("no language")?;
    let Some(crate::language::Backend::TreeSitter(backend)) =
        Some(&language.spec().backend).filter(|_| true)
    else {
        return Err(format!("{name}: not a tree-sitter language"));
    };
    let tree = syntax::parse(backend.grammar, &source).ok_or("no tree")?;
    let compiled = crate::lang::compiled(language)
        .ok_or("no query")?
        .map_err(|error| error.to_string())?;
    let all_hits = compiled.hits(&tree, &source);
    let expected = describe(&all_hits);
    let without_generic: Vec<QueryHit<'_>> = all_hits
        .iter()
        .filter(|hit| !matches!(hit.kind, FactKind::Call | FactKind::Assignment))
        .cloned()
        .collect();
    let walked_without_generic = walk::walk(language, &tree, &source, false);
    if describe(&walked_without_generic.hits) != describe(&without_generic) {
        return Err(format!("{name}: hits without generic facts differ"));
    }
    let walked = walk::walk(language, &tree, &source, true);
    let actual = describe(&walked.hits);
    if expected != actual {
        let first = expected
            .iter()
            .zip(&actual)
            .position(|(left, right)| left != right)
            .unwrap_or(expected.len().min(actual.len()));
        return Err(format!(
            "{name}: hits differ at {first} (query {} hits, walk {}):\n  query: {:?}\n  walk:  {:?}",
            expected.len(),
            actual.len(),
            expected.get(first),
            actual.get(first)
        ));
    }
    let reference = reference_usage(&tree, &source);
    for walked in [&walked, &walked_without_generic] {
        compare_usage(&name, &tree, &source, &all_hits, walked, &reference)?;
    }
    let root = tree.root_node();
    for hit in &walked.hits {
        for (_, node) in hit.captures() {
            let Some(frame) = walked.scopes.frame_of(node) else {
                continue;
            };
            let from_frames = scope::scope_of_ancestors(walked.scopes.chain(frame), &source);
            let from_root = scope::enclosing_scope(node, root, &source);
            if from_frames != from_root {
                return Err(format!(
                    "{name}: scope of {}..{} differs: {from_frames:?} vs {from_root:?}",
                    node.start_byte(),
                    node.end_byte()
                ));
            }
        }
    }
    Ok(expected.len())
}

/// Compares the walk's name uses with the reference: all of them, or when the walk skipped
/// subtrees, those of the names imports bind and `fetch`.
fn compare_usage(
    name: &str,
    tree: &Tree,
    source: &str,
    hits: &[QueryHit<'_>],
    walked: &walk::Walked<'_, '_>,
    reference: &Reference,
) -> Result<(), String> {
    let owned =
        |set: &HashSet<&str, super::walk::Fnv>| sorted(set.iter().map(|name| (*name).to_owned()));
    if !walked.pruned {
        for (what, walk_set, reference_set) in [
            (
                "value uses",
                &walked.usage.value_uses,
                &reference.value_uses,
            ),
            ("type uses", &walked.usage.type_uses, &reference.type_uses),
            ("declared", &walked.usage.declared, &reference.declared),
            (
                "nullable metadata uses",
                &walked.usage.nullable_metadata_uses,
                &reference.nullable_metadata_uses,
            ),
        ] {
            if owned(walk_set) != sorted(reference_set.iter().cloned()) {
                return Err(format!("{name}: {what} differ"));
            }
        }
        return Ok(());
    }
    // Pruning needs every import statement to be a top-level one. The names a `require(…)` or
    // `import(…)` call binds are never asked about (`imports::is_used_as_type_only` reads the
    // uses of statements' names only).
    let root = tree.root_node();
    let mut names: Vec<String> = vec!["fetch".to_owned()];
    for hit in hits.iter().filter(|hit| hit.kind == FactKind::Import) {
        let Some(statement) = hit.node(crate::query::Field::Statement) else {
            continue;
        };
        if statement.parent().map(|parent| parent.id()) != Some(root.id()) {
            return Err(format!("{name}: pruned although an import is nested"));
        }
        let mut cursor = statement.walk();
        let mut pending = vec![statement];
        while let Some(node) = pending.pop() {
            if node.is_named() && node.kind() == "identifier" {
                names.push(syntax::text(node, source).to_owned());
            }
            pending.extend(node.children(&mut cursor));
        }
    }
    for binding in names {
        let walk_type_only = walked.usage.is_never_a_value(&binding, true);
        let reference_type_only = !reference.value_uses.contains(&binding);
        let walk_loose_type_only = walked.usage.is_never_a_value(&binding, false);
        let reference_loose_type_only =
            reference_type_only && !reference.nullable_metadata_uses.contains(&binding);
        let walk_declared = walked.usage.is_declared(&binding);
        let reference_declared = reference.declared.contains(&binding);
        if walk_type_only != reference_type_only
            || walk_loose_type_only != reference_loose_type_only
            || walk_declared != reference_declared
        {
            return Err(format!("{name}: uses of `{binding}` differ"));
        }
    }
    Ok(())
}

fn check_all(root: &Path) -> (usize, usize) {
    let mut files = Vec::new();
    sources(root, &mut files);
    let mut failures = Vec::new();
    let mut hits = 0;
    for file in &files {
        match check(file) {
            Ok(count) => hits += count,
            Err(failure) => failures.push(failure),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    (files.len(), hits)
}

#[test]
fn the_walk_matches_the_query_on_every_fixture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let (files, hits) = check_all(&root);
    assert!(files > 50 && hits > 300, "{files} files, {hits} hits");
}

#[test]
fn the_walk_matches_the_query_on_a_corpus() {
    let Some(root) = std::env::var_os("LINTEL_WALK_CORPUS") else {
        return;
    };
    let (files, hits) = check_all(Path::new(&root));
    assert!(files > 0, "no TypeScript or JavaScript under the corpus");
    let _ = hits;
}

#[test]
fn hits_inside_decorated_classes_and_chains_keep_the_query_order() {
    let source = r#"
import { Controller, Get } from '@nestjs/common';
export const x = require('a'), y = import('b');
@Controller('orders')
export class Orders {
  constructor(private readonly a: A, b?: B.C) {}
  @Get(':id') @Roles('admin') find(id: T): U { return router.route('/x').get(h).post(h); }
}
app.get('/a', h).post('/b', h).route({ url: '/c', method: 'GET' });
fetch(/* first */ url)(again)`tagged`;
o.p = q.r = s;
"#;
    let language = Language::TypeScript;
    let tree = syntax::parse(
        || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        source,
    )
    .unwrap_or_else(|| panic!("no tree"));
    let compiled = match crate::lang::compiled(language) {
        Some(Ok(compiled)) => compiled,
        _ => panic!("no query"),
    };
    let expected = describe(&compiled.hits(&tree, source));
    let walked = walk::walk(language, &tree, source, true);
    assert_eq!(describe(&walked.hits), expected);
    assert!(expected.len() > 20, "{}", expected.len());
}

#[test]
fn a_file_is_pruned_unless_an_import_statement_stands_below_the_top_level() {
    let walked = |source: &str| {
        let tree = syntax::parse(
            || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            source,
        )
        .unwrap_or_else(|| panic!("no tree"));
        let compiled = match crate::lang::compiled(Language::TypeScript) {
            Some(Ok(compiled)) => compiled,
            _ => panic!("no query"),
        };
        let walked = walk::walk(Language::TypeScript, &tree, source, true);
        // Pruned or not, the walk finds what the query does.
        assert_eq!(
            describe(&walked.hits),
            describe(&compiled.hits(&tree, source))
        );
        walked.pruned
    };
    // `require` and `import` that start no statement: in a comment, a string, a property's
    // name, `import.meta`, calls.
    assert!(walked(
        "import a from 'a';\n// we require `a` and import nothing else\nconst s = 'import';\n\
         const env = import.meta.env;\nconst lazy = () => import('./x');\n\
         const r = require('y');\nopts.require = 1;\na(r);\n"
    ));
    // Past a few such words, each a descent from the root, the file is walked whole.
    let many = format!(
        "import a from 'a';\nexport const x = {};\na();\n",
        vec!["import.meta.x"; 40].join(" + ")
    );
    assert!(!walked(&many));
    // An import statement in an ambient module or a namespace binds names the scan does not read.
    assert!(!walked(
        "import a from 'a';\ndeclare module 'm' {\n  import b from 'b';\n}\na();\n"
    ));
    assert!(!walked(
        "namespace N {\n  import x = require('y');\n  x();\n}\n"
    ));
}

#[test]
fn wide_nodes_are_walked_in_order() {
    // More named children than `walk::WIDE` in the program, an array and an argument
    // list, with matches inside and between them.
    let calls: Vec<String> = (0..40)
        .map(|index| format!("f{index}(require('m{index}'))"))
        .collect();
    let statements: Vec<String> = (0..40)
        .map(|index| format!("app.get('/r{index}', h{index});"))
        .collect();
    let source = format!(
        "import a from 'a';\nconst list = [{}];\ng({});\n{}\no.p = q;\n",
        calls.join(", "),
        calls.join(", "),
        statements.join("\n")
    );
    let language = Language::TypeScript;
    let tree = syntax::parse(
        || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        &source,
    )
    .unwrap_or_else(|| panic!("no tree"));
    let compiled = match crate::lang::compiled(language) {
        Some(Ok(compiled)) => compiled,
        _ => panic!("no query"),
    };
    let expected = describe(&compiled.hits(&tree, &source));
    let walked = walk::walk(language, &tree, &source, true);
    assert_eq!(describe(&walked.hits), expected);
    assert!(expected.len() > 200, "{}", expected.len());
}

#[test]
fn query_passes_are_timed_only_when_asked() {
    let source = "import { Pool } from 'pg';\nconst pool = new Pool();\nfetch('/x');\n";
    let mut context = crate::resolve::context::ProjectContext::default();
    let quiet = crate::extract_file(&context, "src/a.ts", source)
        .unwrap_or_else(|| panic!("no extraction"));
    assert!(quiet.queries.is_empty());
    context.set_query_timing(true);
    let timed = crate::extract_file(&context, "src/a.ts", source)
        .unwrap_or_else(|| panic!("no extraction"));
    assert_eq!(timed.facts, quiet.facts);
    let [walk] = timed.queries.as_slice() else {
        panic!("one pass expected: {:?}", timed.queries);
    };
    assert_eq!(walk.id, "typescript.walk");
    let by_kind: std::collections::BTreeMap<FactKind, usize> =
        walk.matched_by_kind.iter().copied().collect();
    assert_eq!(by_kind.get(&FactKind::Import), Some(&1));
    assert_eq!(by_kind.get(&FactKind::AccessesTechnology), Some(&2));
    assert_eq!(by_kind.get(&FactKind::HttpCall), Some(&1));
    assert_eq!(walk.matched, by_kind.values().sum::<usize>());
    let java = crate::extract_file(&context, "src/A.java", "class A { void f() { g(1); } }\n")
        .unwrap_or_else(|| panic!("no extraction"));
    let [query] = java.queries.as_slice() else {
        panic!("one pass expected: {:?}", java.queries);
    };
    assert_eq!(query.id, "java.walk");
    assert!(query.matched >= 1, "{query:?}");
}
