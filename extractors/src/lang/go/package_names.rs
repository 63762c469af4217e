//! Go imports of project packages, taken to the files that declare the names an importer uses
//! (heroiclabs/nakama's `migrate/migrate.go` imports its `server` package of some 150 files for
//! `server.NewJSONLogger` alone, declared in `server/logger.go`; the import resolved to the
//! package's first file, `server/api.go`, and made the migration tool depend on the API layer
//! that a spec carves out of the package by file name).
//!
//! One file's extraction sees only its own side, so each file records two things: on each
//! import of a project package that it binds to a name (no blank `_` or dot `.` import), the
//! exported names it refers to through that name (`uses`: `pkg.Func(…)`, `pkg.Type{…}`,
//! `pkg.Var`, and `pkg.Type` wherever a type is written: fields, parameters, results,
//! conversions, type arguments), and in its [`RouteLinks`] the exported names it declares at
//! the package level (`package_names`: functions, types, variables and constants; methods are
//! reached through their types). Once every file is extracted, [`link`] moves each such import
//! to the files of the package's folder that declare the names it uses: one fact per declaring
//! file, with `resolved` that file and `names` the names it declares (every file that declares a
//! name: `x_linux.go` and `x_windows.go` alike), as Rust's re-exported names are followed. A
//! `_test.go` file's declarations count only for the test files of the same folder (the
//! package's own tests and its `_test` package).
//!
//! The import stays where it resolved (the package's first file, `uses` kept), and the engine
//! keeps linking it to every file of the package, when the file uses no name through it, or
//! when some name it uses is declared by no extracted file of the folder: a package lintel did
//! not read whole (files the spec excludes, generated or skipped files, whose names lintel does
//! not know), a local name the package is not imported under (a package clause unlike its
//! folder's name), or a variable that hides the package's name. Every file of the snapshot is
//! extracted whatever the scope (`--diff`, staged), so a narrowed scope changes nothing here.

use std::borrow::BorrowMut;
use std::collections::{BTreeMap, BTreeSet};

use policies::facts::{Fact, FactKind, PropertyValue, Text};
use tree_sitter::Node;

use crate::facts::FactFactory;
use crate::resolve::links::{free_id, RouteLinks};
use crate::syntax;

/// Whether a Go name is exported (starts with an upper-case letter).
fn is_exported(name: &str) -> bool {
    name.chars().next().is_some_and(char::is_uppercase)
}

/// The exported names the file declares at the package level, sorted.
pub(crate) fn declared(root: Node<'_>, source: &str) -> Vec<String> {
    let mut names = BTreeSet::new();
    let mut add = |node: Option<Node<'_>>| {
        if let Some(node) = node {
            let name = syntax::text(node, source);
            if is_exported(name) {
                names.insert(name.to_owned());
            }
        }
    };
    let mut cursor = root.walk();
    for declaration in root.named_children(&mut cursor) {
        match declaration.kind() {
            "function_declaration" => add(declaration.child_by_field_name("name")),
            "type_declaration" => {
                for spec in syntax::named_children(declaration) {
                    add(spec.child_by_field_name("name"));
                }
            }
            "var_declaration" | "const_declaration" => {
                let mut specs = Vec::new();
                for child in syntax::named_children(declaration) {
                    if child.kind() == "var_spec_list" {
                        specs.extend(syntax::named_children(child));
                    } else {
                        specs.push(child);
                    }
                }
                for spec in specs {
                    let mut names_cursor = spec.walk();
                    for name in spec.children_by_field_name("name", &mut names_cursor) {
                        add(Some(name));
                    }
                }
            }
            _ => {}
        }
    }
    names.into_iter().collect()
}

/// Sets `uses` on the import facts at `imports` (an index into `facts` with the package's local
/// name): the exported names the file refers to through that name, `referred` by local name
/// (see `Referred`).
pub(crate) fn note_uses(
    factory: &FactFactory<'_>,
    facts: &mut [Fact],
    imports: &[(usize, String)],
    referred: &BTreeMap<&str, BTreeSet<&str>>,
) {
    for (index, local) in imports {
        let Some(fact) = facts.get_mut(*index) else {
            continue;
        };
        let names: Box<[Text]> = referred
            .get(local.as_str())
            .into_iter()
            .flatten()
            .filter(|name| is_exported(name))
            .map(|name| factory.shared(name))
            .collect();
        if !names.is_empty() {
            fact.properties.insert("uses", PropertyValue::List(names));
        }
    }
}

/// The folder of a project-relative path.
fn folder(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(folder, _)| folder)
}

/// Each folder's declaring files of each name, with whether the file is a `_test.go`.
type Declarers<'l> = BTreeMap<&'l str, BTreeMap<&'l str, Vec<(&'l str, bool)>>>;

/// Moves each Go import that lists `uses` to the files of its package that declare those names
/// (see the module documentation).
pub fn link<F: BorrowMut<Fact> + From<Fact>>(
    facts: &mut Vec<F>,
    links: &BTreeMap<String, RouteLinks>,
) {
    let mut declarers: Declarers<'_> = BTreeMap::new();
    for (file, links) in links {
        let is_test = file.ends_with("_test.go");
        for name in &links.package_names {
            declarers
                .entry(folder(file))
                .or_default()
                .entry(name)
                .or_default()
                .push((file, is_test));
        }
    }
    if declarers.is_empty() {
        return;
    }
    // Each fact to move, with the names it uses by declaring file.
    let mut changes: Vec<(usize, BTreeMap<String, Vec<Text>>)> = Vec::new();
    for (index, fact) in facts.iter().enumerate() {
        let fact: &Fact = fact.borrow();
        if fact.kind != FactKind::Import || fact.property_str("language") != Some("go") {
            continue;
        }
        let (Some(resolved), Some(PropertyValue::List(uses))) =
            (fact.property_str("resolved"), fact.properties.get("uses"))
        else {
            continue;
        };
        let package = folder(resolved);
        let Some(declared) = declarers.get(package) else {
            continue;
        };
        let importer = &*fact.evidence.file;
        let sees_tests = importer.ends_with("_test.go") && folder(importer) == package;
        let mut ends: BTreeMap<String, Vec<Text>> = BTreeMap::new();
        let every_name_declared = uses.iter().all(|name| {
            let mut found = false;
            for (file, is_test) in declared.get(name.as_str()).into_iter().flatten() {
                if !is_test || sees_tests {
                    found = true;
                    ends.entry((*file).to_owned())
                        .or_default()
                        .push(name.clone());
                }
            }
            found
        });
        if every_name_declared && !ends.is_empty() {
            changes.push((index, ends));
        }
    }
    apply(facts, changes);
}

/// Points each changed fact at its first declaring file (the one it resolved to when that
/// declares some of its names) and adds a fact for each other declaring file.
fn apply<F: BorrowMut<Fact> + From<Fact>>(
    facts: &mut Vec<F>,
    changes: Vec<(usize, BTreeMap<String, Vec<Text>>)>,
) {
    if changes.is_empty() {
        return;
    }
    // New ids are `id#n` of a changed fact, whose ids name its file: only those files' ids can
    // be taken.
    let files: BTreeSet<String> = changes
        .iter()
        .filter(|(_, ends)| ends.len() > 1)
        .filter_map(|(index, _)| facts.get(*index))
        .map(|fact| fact.borrow().evidence.file.to_string())
        .collect();
    let mut taken: BTreeSet<String> = facts
        .iter()
        .map(|fact| fact.borrow())
        .filter(|fact| files.contains(&*fact.evidence.file))
        .map(|fact| fact.id.clone())
        .collect();
    let mut added: Vec<Fact> = Vec::new();
    for (index, ends) in changes {
        let Some(fact) = facts.get_mut(index) else {
            continue;
        };
        let fact: &mut Fact = fact.borrow_mut();
        let own = fact.property_str("resolved").unwrap_or_default().to_owned();
        let mut ends: Vec<(String, Vec<Text>)> = ends.into_iter().collect();
        ends.sort_by_key(|(end, _)| *end != own);
        fact.properties.remove("uses");
        let original = fact.clone();
        for (position, (end, names)) in ends.into_iter().enumerate() {
            let target = if position == 0 {
                &mut *fact
            } else {
                let mut copy = original.clone();
                copy.id = free_id(&original.id, &taken);
                taken.insert(copy.id.clone());
                added.push(copy);
                let Some(copy) = added.last_mut() else {
                    continue;
                };
                copy
            };
            target
                .properties
                .insert("resolved", PropertyValue::Str(Text::from(end.as_str())));
            target
                .properties
                .insert("names", PropertyValue::List(names.into_boxed_slice()));
        }
    }
    facts.extend(added.into_iter().map(F::from));
}
