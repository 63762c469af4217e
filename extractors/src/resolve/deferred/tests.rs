use std::collections::BTreeMap;

use super::chains::ChainKinds;
use super::{Anchors, ChainPacker, KindIds, PackedNames, WalkKinds};
use crate::language::Language;
use crate::source_scope;
use crate::syntax;

const JAVA: &str = "package a.b;\n\nimport java.util.List;\n\nclass Outer {\n  java.util.Map<String, x.y.Z> field = a.b.C.make();\n  class Inner {\n    void run(List<String> items) {\n      Runnable r = new Runnable() {\n        public void run() { items.clear(); }\n      };\n      int y = this.x + Outer.this.x;\n    }\n  }\n  Outer() { helper(); }\n  static void helper() {}\n}\n\ninterface Port { void send(String m); }\n";

/// Missing tokens: empty `MISSING` nodes at the end of a method and of a class.
const BROKEN: &str =
    "class A {\n  void f() { int x = q.r }\n  class B { void g() { return } }\n  int z = p.\n}\n";

const SCOPES: [&str; 4] = [
    "class_declaration",
    "interface_declaration",
    "method_declaration",
    "constructor_declaration",
];

fn java_scope(node: tree_sitter::Node<'_>, source: &str) -> Option<String> {
    if SCOPES.contains(&node.kind()) {
        source_scope::field_text(node, "name", source)
    } else {
        None
    }
}

static KINDS: WalkKinds<'static> = WalkKinds {
    names: &["type_identifier", "identifier"],
    scopes: &SCOPES,
    chains: &ChainKinds {
        chain: &[
            "scoped_type_identifier",
            "field_access",
            "scoped_identifier",
        ],
        leaf: &["type_identifier", "identifier"],
        ignored: &[],
        skipped: &["import_declaration", "package_declaration"],
    },
    field_parents: None,
    member_names: &[],
    chain_member_names: &[],
    later_segments: &[],
    scoped: &[],
    prune_parents: &[],
    ids: std::sync::OnceLock::new(),
};

fn parse(source: &str) -> tree_sitter::Tree {
    let grammar = Language::Java
        .spec()
        .tree_sitter()
        .map(|backend| backend.grammar);
    grammar
        .and_then(|grammar| syntax::parse(grammar, source))
        .expect("the Java grammar parses")
}

fn scope_text(anchors: &Anchors<'_>, scope: u32) -> Option<String> {
    anchors
        .scopes
        .get(scope as usize)
        .map(|scope| scope.to_string())
}

#[test]
fn the_walk_finds_the_first_uses_and_chains_with_the_scopes_the_tree_gives() {
    for source in [JAVA, BROKEN] {
        let tree = parse(source);
        let root = tree.root_node();
        let mut anchors = Anchors::new(root, source, java_scope);
        let walked = anchors.walk(&KINDS);
        let expected = syntax::first_uses(root, source, KINDS.names, KINDS.chains.skipped);
        assert_eq!(
            walked
                .uses
                .iter()
                .map(|(name, (node, _))| (name.as_ref(), node.id()))
                .collect::<Vec<_>>(),
            expected
                .iter()
                .map(|(name, node)| (name.as_str(), node.id()))
                .collect::<Vec<_>>()
        );
        let places = walked
            .uses
            .values()
            .map(|(node, scope)| (*node, *scope))
            .chain(walked.chains.iter().map(|(_, node, scope)| (*node, *scope)));
        for (node, scope) in places {
            assert_eq!(
                scope_text(&anchors, scope),
                source_scope::enclosing(node, root, source, java_scope),
                "{} at {:?}",
                node.kind(),
                node.start_position()
            );
        }
        // One string per distinct scope.
        let mut distinct = anchors.scopes.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), anchors.scopes.len());
    }
    let tree = parse(JAVA);
    let mut anchors = Anchors::new(tree.root_node(), JAVA, java_scope);
    let walked = anchors.walk(&KINDS);
    let chains: Vec<(String, Option<String>)> = walked
        .chains
        .iter()
        .map(|(segments, _, scope)| (segments.join("."), scope_text(&anchors, *scope)))
        .collect();
    let outer = Some("Outer".to_owned());
    assert_eq!(
        chains,
        [
            ("java.util.Map".to_owned(), outer.clone()),
            ("x.y.Z".to_owned(), outer.clone()),
            ("a.b.C".to_owned(), outer),
        ]
    );
    assert!(anchors
        .scopes
        .iter()
        .any(|scope| &**scope == "Outer.Inner.run.run"));
}

#[test]
fn a_missing_identifier_is_no_use_of_a_name() {
    // `int = 1` leaves the field's name an empty `MISSING` identifier: no type is named by
    // it, and finding the scope of an empty node (for a first use) searches the tree.
    let source = "class A {\n  int = 1;\n  P p = q.r;\n}\n";
    let tree = parse(source);
    let root = tree.root_node();
    let missing = syntax::descendants(root)
        .filter(|node| node.is_missing() && node.kind() == "identifier")
        .count();
    assert_eq!(missing, 1);
    let mut anchors = Anchors::new(root, source, java_scope);
    let uses = anchors.walk(&KINDS).uses;
    assert!(!uses.contains_key(""));
    assert!(["P", "p", "q"].iter().all(|name| uses.contains_key(*name)));
    let expected = syntax::first_uses(root, source, KINDS.names, KINDS.chains.skipped);
    assert!(!expected.contains_key(""));
}

#[test]
fn first_uses_are_found_by_name_in_name_order() {
    let tree = parse(JAVA);
    let root = tree.root_node();
    let mut anchors = Anchors::new(root, JAVA, java_scope);
    let uses = anchors.walk(&KINDS).uses;
    let expected: BTreeMap<String, (u32, u32)> = uses
        .iter()
        .map(|(name, (node, _))| (name.to_string(), syntax::start_position(*node, JAVA)))
        .collect();
    let names = PackedNames::new(uses, &anchors).unpack();
    let listed: BTreeMap<String, (u32, u32)> = names
        .iter()
        .map(|(name, anchor)| (name.to_owned(), anchor.start))
        .collect();
    assert_eq!(listed, expected);
    assert!(names.iter().map(|(name, _)| name).is_sorted());
    for (name, start) in &expected {
        assert!(names.get(name).is_some());
        assert_eq!(names.get(name).map(|anchor| anchor.start), Some(*start));
    }
    assert!(names.get("Missing").is_none());
    assert!(names.get("").is_none());
}

/// The chains as the descent of each chain node finds them (`jvm::chain_segments`), in
/// preorder, no node inside a chain found before looked at and nothing inside a skipped
/// node: what the walk, which reads chains as it goes, must find.
fn chains_by_descent(
    tree: &tree_sitter::Tree,
    source: &str,
    kinds: &WalkKinds<'_>,
) -> Vec<(Vec<String>, usize)> {
    let ids = KindIds::of(&tree.language(), kinds);
    let flags_of = |node: tree_sitter::Node<'_>| {
        ids.flags
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or(0)
    };
    let (mut found, mut buffer) = (Vec::new(), Vec::new());
    let mut pending = vec![(tree.root_node(), 0_usize)];
    let mut in_chain: Option<usize> = None;
    // Inside an ignored part of the chain found (C#): its depth, and that of the chain found
    // in it, below which none is looked for.
    let (mut ignored_at, mut inner_chain): (Option<usize>, Option<usize>) = (None, None);
    while let Some((node, depth)) = pending.pop() {
        if in_chain.is_some_and(|at| depth <= at) {
            in_chain = None;
        }
        if ignored_at.is_some_and(|at| depth <= at) || in_chain.is_none() {
            ignored_at = None;
        }
        if inner_chain.is_some_and(|at| depth <= at) || ignored_at.is_none() {
            inner_chain = None;
        }
        let flags = flags_of(node);
        let chain_here = |buffer: &mut Vec<_>| {
            super::chains::chain_segments(node, source, &ids.chain_ids, buffer)
                .filter(|segments| segments.len() >= 2)
        };
        if in_chain.is_none() && flags & KindIds::CHAIN != 0 {
            if let Some(segments) = chain_here(&mut buffer) {
                found.push((segments, node.id()));
                in_chain = Some(depth);
            }
        } else if ids.reads_ignored_chains && in_chain.is_some() {
            if ignored_at.is_none() && ids.chain_ids.ignored.contains(&node.kind_id()) {
                ignored_at = Some(depth);
            } else if ignored_at.is_some() && inner_chain.is_none() && flags & KindIds::CHAIN != 0 {
                if let Some(segments) = chain_here(&mut buffer) {
                    found.push((segments, node.id()));
                    inner_chain = Some(depth);
                }
            }
        }
        if flags & KindIds::SKIPPED != 0 {
            continue;
        }
        for index in (0..node.named_child_count()).rev() {
            pending.extend(node.named_child(index).map(|child| (child, depth + 1)));
        }
    }
    found
}

/// Source files of the fixtures under `folder` with extension `extension`, sorted.
/// The scope [`super::WalkedScopes`] gives each named node of the C#, Java and Kotlin
/// fixtures (and of broken files with empty nodes) is the one the tree gives it, whether the
/// walk recorded it (a node of a `scoped` kind) or not.
#[test]
fn walked_scopes_are_those_the_tree_gives() {
    let languages: [(Language, &WalkKinds<'static>, super::ScopeNamer, &str, &str); 3] = [
        (
            Language::CSharp,
            &crate::lang::csharp::WALK_KINDS,
            crate::lang::csharp::scope_name,
            "csharp",
            "namespace A { class B { void F() { G(1; x = ; } class C { void H() { I( } } }",
        ),
        (
            Language::Java,
            &crate::lang::java::WALK_KINDS,
            crate::lang::java::scope_name,
            "java",
            "class A { void f() { g(1; x = ; } class B { @X( void h() { i( } } }",
        ),
        (
            Language::Kotlin,
            &crate::lang::kotlin::WALK_KINDS,
            crate::lang::kotlin::scope_name,
            "kotlin",
            "class A { fun f() { g(1; x = } class B { @X( fun h() { i( } } }",
        ),
    ];
    for (language, kinds, name_of, folder, broken) in languages {
        let grammar = language
            .spec()
            .tree_sitter()
            .map(|backend| backend.grammar)
            .expect("the language has a grammar");
        let extension = language.spec().extensions.first().copied().unwrap_or("");
        let mut sources = fixture_sources(folder, extension);
        sources.push(broken.to_owned());
        let (mut compared, mut recorded) = (0, 0);
        for source in &sources {
            let tree = syntax::parse(grammar, source).expect("the grammar parses");
            let root = tree.root_node();
            let mut anchors = Anchors::new(root, source, name_of);
            let mut visited = Vec::new();
            let walked = anchors.walk_with(kinds, |node, _, _| visited.push(node));
            recorded += walked.scoped.len();
            let scopes = anchors.walked_scopes(walked.scoped);
            for node in visited {
                assert_eq!(
                    scopes.scope_of(node),
                    source_scope::enclosing(node, root, source, name_of),
                    "{folder}: {} at {:?}",
                    node.kind(),
                    node.start_position()
                );
                compared += 1;
            }
        }
        assert!(compared > 500, "{folder}: compared {compared} nodes");
        assert!(recorded > 20, "{folder}: recorded {recorded} scopes");
    }
}

fn fixture_sources(folder: &str, extension: &str) -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(folder);
    let mut files = Vec::new();
    let mut folders = vec![root];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("the fixtures are readable") {
            let path = entry.expect("a fixture entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|found| found == extension) {
                files.push(path);
            }
        }
    }
    files.sort();
    files
        .iter()
        .map(|path| std::fs::read_to_string(path).expect("a fixture is text"))
        .collect()
}

#[test]
fn chains_read_as_the_walk_goes_are_those_each_chain_node_reads() {
    // Chains in the ignored type arguments of a one-segment chain, below roots that turn
    // out to be no chain after a chain node, around comments, in broken code.
    const CSHARP: &str = "namespace N.M;\nclass R : Repository<Core.Entities.Secret, Secret, Guid>, IR\n{\n  void F() {\n    var x = System.Console.Out;\n    A.B<int>.C.D();\n    Foo<Bar.Baz>.Qux = a.b /* c */ .c;\n    x = this.y.z;\n    var q = a?.b.c;\n    var w = p.q<r.s.T>.u;\n    var e = global::System.String.Empty;\n    z = m.n.\n  }\n}\n";
    const JAVA_MORE: &str = "class A { void f() { java.util.List<a.b.C> x = a.b.c(d.e.f); Object o = a.b[0].c.d; g(/* c */ h.i.j); k.l. } }\n";
    const KOTLIN: &str = "class A { fun f() { val x: kotlin.collections.List<a.b.C> = a.b.c(d.e.f); val y = p.q<r.s.T>().u.v; w.x?.y } }\n";
    let languages = [
        (
            Language::CSharp,
            "csharp",
            "cs",
            &crate::lang::csharp::WALK_KINDS,
            CSHARP,
            crate::lang::csharp::scope_name as source_scope::ScopeNamer,
        ),
        (
            Language::Java,
            "java",
            "java",
            &crate::lang::java::WALK_KINDS,
            JAVA_MORE,
            crate::lang::java::scope_name,
        ),
        (
            Language::Kotlin,
            "kotlin",
            "kt",
            &crate::lang::kotlin::WALK_KINDS,
            KOTLIN,
            crate::lang::kotlin::scope_name,
        ),
    ];
    let mut compared = 0;
    for (language, folder, extension, kinds, extra, scope_name) in languages {
        let grammar = language
            .spec()
            .tree_sitter()
            .map(|backend| backend.grammar)
            .expect("a tree-sitter language");
        let mut sources = fixture_sources(folder, extension);
        sources.push(extra.to_owned());
        for source in &sources {
            let tree = syntax::parse(grammar, source).expect("the fixture parses");
            let root = tree.root_node();
            let mut anchors = Anchors::new(root, source, scope_name);
            let walked = anchors.walk(kinds);
            let read: Vec<(Vec<String>, usize)> = walked
                .chains
                .iter()
                .map(|(segments, node, _)| (segments.clone(), node.id()))
                .collect();
            assert_eq!(read, chains_by_descent(&tree, source, kinds), "{source}");
            for (_, node, scope) in &walked.chains {
                assert_eq!(
                    scope_text(&anchors, *scope),
                    source_scope::enclosing(*node, root, source, scope_name)
                );
            }
            compared += read.len();
        }
    }
    assert!(compared > 100, "{compared}");
}

#[test]
fn chains_keep_their_segments_and_order() {
    let tree = parse(JAVA);
    let root = tree.root_node();
    let mut anchors = Anchors::new(root, JAVA, java_scope);
    let mut packed = ChainPacker::default();
    let written: [&[&str]; 4] = [&["com", "acme", "Foo"], &["", "x"], &["a"], &["", ""]];
    for segments in written {
        let segments: Vec<String> = segments.iter().map(|s| (*s).to_owned()).collect();
        packed.push(&segments, anchors.at(root));
    }
    let chains = packed.finish().unpack();
    let read: Vec<Vec<&str>> = chains.iter().map(|(segments, _)| segments).collect();
    assert_eq!(read, written.map(<[&str]>::to_vec).to_vec());
}
