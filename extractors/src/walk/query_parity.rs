//! Test support for the hand-written walks that replace a language's query
//! (`lang/python/walk.rs`, `lang/go/walk.rs`, …): both are run on the same source and their hits compared kind by
//! kind, in order, with and without the generic patterns, and then in their one order across
//! kinds (which readers that take several kinds in one pass, such as the web readers, see).

use std::path::{Path, PathBuf};

use policies::facts::FactKind;
use tree_sitter::Tree;

use crate::language::Language;
use crate::query::QueryHit;
use crate::syntax;

/// A walk: the hits of a tree, with or without the generic patterns.
pub(crate) type Walk = for<'tree> fn(&'tree Tree, &'tree str, bool) -> Vec<QueryHit<'tree>>;

pub(crate) fn sources(root: &Path, language: Language, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|entry| entry.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, language, found);
        } else if Language::for_path(&path.to_string_lossy()) == Some(language) {
            found.push(path);
        }
    }
}

/// The hits, kind by kind (each kind in order), with their captures by field.
fn describe(hits: &[QueryHit<'_>]) -> Vec<String> {
    let mut hits: Vec<&QueryHit<'_>> = hits.iter().collect();
    hits.sort_by_key(|hit| hit.kind);
    describe_in_order(&hits)
}

/// The hits in their order, with their captures by field.
fn describe_in_order(hits: &[&QueryHit<'_>]) -> Vec<String> {
    hits.iter()
        .map(|hit| {
            let mut captures: Vec<String> = hit
                .captures()
                .iter()
                .map(|(field, node)| {
                    format!("{field:?}@{}..{}", node.start_byte(), node.end_byte())
                })
                .collect();
            captures.sort();
            format!("{:?} {}", hit.kind, captures.join(" "))
        })
        .collect()
}

/// The route and HTTP-call hits in their joint order.
fn web_order(hits: &[QueryHit<'_>]) -> Vec<String> {
    hits.iter()
        .filter(|hit| matches!(hit.kind, FactKind::Route | FactKind::HttpCall))
        .map(|hit| {
            let first = hit.captures().first().map(|(_, node)| node.start_byte());
            format!("{:?}@{first:?}", hit.kind)
        })
        .collect()
}

/// Compares the walk with the language's query on one source; the number of query hits.
pub(crate) fn compare(
    language: Language,
    walk: Walk,
    name: &str,
    source: &str,
) -> Result<usize, String> {
    let Some(crate::language::Backend::TreeSitter(backend)) = Some(&language.spec().backend) else {
        return Err(format!("{name}: not a tree-sitter language"));
    };
    let tree = syntax::parse(backend.grammar, source).ok_or("no tree")?;
    let compiled = crate::lang::compiled(language)
        .ok_or("no query")?
        .map_err(|error| error.to_string())?;
    let all = compiled.hits(&tree, source);
    let without_generic: Vec<QueryHit<'_>> = all
        .iter()
        .filter(|hit| !matches!(hit.kind, FactKind::Call | FactKind::Assignment))
        .cloned()
        .collect();
    for (expected, generic) in [(&all, true), (&without_generic, false)] {
        let walked = walk(&tree, source, generic);
        let (expected_hits, actual) = (describe(expected), describe(&walked));
        if expected_hits != actual {
            let first = expected_hits
                .iter()
                .zip(&actual)
                .position(|(left, right)| left != right)
                .unwrap_or(expected_hits.len().min(actual.len()));
            return Err(format!(
                "{name} (generic {generic}): hits differ at {first} (query {}, walk {}):\n  query: {:?}\n  walk:  {:?}",
                expected_hits.len(),
                actual.len(),
                expected_hits.get(first),
                actual.get(first)
            ));
        }
        if web_order(expected) != web_order(&walked) {
            return Err(format!(
                "{name}: routes and HTTP calls come in another order"
            ));
        }
        // The walks keep the query's order across kinds too (readers such as `spring` take
        // several kinds in one pass).
        let in_order = |hits: &[QueryHit<'_>]| describe_in_order(&hits.iter().collect::<Vec<_>>());
        if in_order(expected) != in_order(&walked) {
            return Err(format!(
                "{name}: the hits of different kinds interleave differently"
            ));
        }
    }
    Ok(all.len())
}

/// Compares the walk with the query on every file of `language` under `root`: (files, hits).
pub(crate) fn compare_all(root: &Path, language: Language, walk: Walk) -> (usize, usize) {
    let mut files = Vec::new();
    sources(root, language, &mut files);
    let mut failures = Vec::new();
    let mut hits = 0;
    for file in &files {
        let name = file.to_string_lossy().into_owned();
        let Ok(source) = std::fs::read_to_string(file) else {
            continue;
        };
        match compare(language, walk, &name, &source) {
            Ok(count) => hits += count,
            Err(failure) => failures.push(failure),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    (files.len(), hits)
}

/// The two comparisons every walk's tests make: on every fixture of its language (which must
/// hold more than `$min_files` files and `$min_hits` query hits), and on every file of the
/// language under the directory named by the environment variable `$corpus`, when it is set.
macro_rules! compare_fixtures_and_corpus {
    ($language:expr, $corpus:literal, $min_files:expr, $min_hits:expr) => {
        #[test]
        fn the_walk_matches_the_query_on_every_fixture() {
            let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
            let (files, hits) =
                crate::walk::query_parity::compare_all(&root, $language, super::hits);
            assert!(
                files > $min_files && hits > $min_hits,
                "{files} files, {hits} hits"
            );
        }

        #[test]
        fn the_walk_matches_the_query_on_a_corpus() {
            let Some(root) = std::env::var_os($corpus) else {
                return;
            };
            let (files, _) = crate::walk::query_parity::compare_all(
                std::path::Path::new(&root),
                $language,
                super::hits,
            );
            assert!(files > 0, "no sources of the language under the corpus");
        }
    };
}
pub(crate) use compare_fixtures_and_corpus;

/// Checks a language's field reads (`deferred::WalkKinds::check_fields`) on every fixture of
/// the language, on `extra` sources (with parse errors) and, with the corpus variable set, on
/// every file of the language under that directory; how many fields were compared.
pub(crate) fn check_fields_everywhere(
    language: Language,
    kinds: &crate::resolve::deferred::WalkKinds<'_>,
    corpus: &str,
    extra: &[&str],
) -> usize {
    let mut files = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"),
        language,
        &mut files,
    );
    if let Some(root) = std::env::var_os(corpus) {
        sources(Path::new(&root), language, &mut files);
    }
    let mut texts: Vec<(String, String)> = files
        .iter()
        .filter_map(|file| {
            let text = std::fs::read_to_string(file).ok()?;
            Some((file.to_string_lossy().into_owned(), text))
        })
        .collect();
    texts.extend(
        extra
            .iter()
            .map(|text| ("inline".to_owned(), (*text).to_owned())),
    );
    let grammar = language
        .spec()
        .tree_sitter()
        .expect("a tree-sitter language")
        .grammar;
    let mut failures = Vec::new();
    let mut compared = 0;
    for (name, text) in &texts {
        let Some(tree) = crate::syntax::parse(grammar, text) else {
            continue;
        };
        match kinds.check_fields(&tree) {
            Ok(count) => compared += count,
            Err(failure) => failures.push(format!("{name}: {failure}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    compared
}

/// The test that a language's field reads are those of the field map
/// ([`check_fields_everywhere`]): on every fixture, on `$broken` sources (with parse errors and
/// comments) and on the corpus of `$corpus`; more than `$min` fields must be compared.
macro_rules! check_fields_test {
    ($language:expr, $kinds:expr, $corpus:literal, $min:expr, $broken:expr) => {
        /// The fields the walk reads in place (first or last named child) are where the
        /// grammar's field map puts them.
        #[test]
        fn fields_read_in_place_are_those_of_the_field_map() {
            let compared = crate::walk::query_parity::check_fields_everywhere(
                $language, $kinds, $corpus, &$broken,
            );
            assert!(compared > $min, "{compared} fields compared");
        }
    };
}
pub(crate) use check_fields_test;
