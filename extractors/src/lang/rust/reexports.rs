//! Rust names re-exported through another module, across files: `use crate::CONFIG;` in
//! `src/db/models/user.rs`, where the crate root only binds `CONFIG` with `pub use
//! config::CONFIG;`, uses `src/config.rs`, which declares it, not the crate root (vaultwarden's
//! models import `crate::CONFIG` and `crate::Error` through `src/main.rs`; with the root its own
//! component, each such import was a dependency on the server's entry point).
//!
//! One file's extraction sees only its own `use` declarations, so this runs over every file's
//! facts once they are in, like [`super::test_modules`]: a `use` fact resolved to a module file
//! whose top-level `use` declarations bind some of its names (a `use` outside any function or
//! inline module, not compiled for tests only, resolved to another project file) is moved, for
//! those names, to the files those declarations resolve to, and on through their own re-exports
//! (up to eight modules deep and 64 bindings a name; a walk cut short leaves the name where it
//! was); the fact says through which files in `reexportedBy`. Names the module
//! declares itself stay with it; a `use` that keeps some names and re-exports others becomes one
//! fact per file, a name joining the fact of the same `use` that already resolves to its file.
//!
//! Only what the facts show without doubt is followed: a `use` that renames (`as`) or whose text
//! was cut re-exports nothing here (its names are the paths' last segments, not the names it
//! binds), a glob re-export (`pub use models::*;`) is not followed, nor a re-export of an
//! outside crate (the import stays on the module that binds it), nor a name the path reaches
//! past another name of the module (`nested`: `crate::Mode::Fast` names a variant of the enum,
//! `crate::renamed::Item` an item of what `renamed` is, whatever the module binds).
//! A file lintel did not extract (a narrowed `--diff` scope) re-exports nothing.

use std::borrow::BorrowMut;
use std::collections::{BTreeMap, BTreeSet};

use policies::facts::{Fact, FactKind, PropertyValue, Text};

/// How many re-exporting modules one name is followed through.
const MAX_FOLLOWED: usize = 8;

/// What a file's top-level `use` declarations bind: each name with the files it resolves to.
type Bindings = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

/// The names of one fact that end in one file, with the re-exporting files on the way.
type End = (Vec<Text>, Vec<String>);

/// One fact's names by the file they end in (its own file for those it keeps).
type Ends = BTreeMap<String, End>;

/// Moves the names of Rust `use` facts that a module only re-exports to the files that declare
/// them (see the module documentation).
pub fn follow_reexports<F: BorrowMut<Fact> + From<Fact>>(facts: &mut Vec<F>) {
    let bindings = bindings(facts);
    if bindings.is_empty() {
        return;
    }
    // Each fact to change, with its names by the file they end in (its own file for those it
    // keeps) and the re-exporting files on the way.
    let mut changes: Vec<(usize, Ends)> = Vec::new();
    for (index, fact) in facts.iter().enumerate() {
        let fact: &Fact = fact.borrow();
        if !is_use(fact) {
            continue;
        }
        let Some(resolved) = fact.property_str("resolved") else {
            continue;
        };
        let Some(bound) = bindings.get(resolved) else {
            continue;
        };
        let nested = list(fact, "nested");
        let mut ends = Ends::new();
        let mut moved = false;
        for name in names_of(fact) {
            let mut walk = Walk::default();
            if bound.contains_key(name.as_str()) && !nested.contains(&name) {
                walk.follow(&bindings, resolved, &name, &mut Vec::new());
            }
            let mut reached = walk.reached;
            if !walk.cut && reached.iter().any(|(end, _)| end != resolved) {
                moved = true;
            } else {
                reached = vec![(resolved.to_owned(), Vec::new())];
            }
            for (end, via) in reached {
                let entry = ends.entry(end).or_default();
                if !entry.0.iter().any(|known| known.as_str() == name.as_str()) {
                    entry.0.push(name.clone());
                }
                for file in via {
                    if !entry.1.contains(&file) {
                        entry.1.push(file);
                    }
                }
            }
        }
        if moved {
            changes.push((index, ends));
        }
    }
    apply(facts, changes);
}

/// Each file's top-level `use` bindings that lead to another project file.
fn bindings<F: BorrowMut<Fact>>(facts: &[F]) -> Bindings {
    let mut bindings = Bindings::new();
    for fact in facts {
        let fact: &Fact = fact.borrow();
        if !is_use(fact) || fact.evidence.scope.is_some() || fact.property_flag("testOnly") {
            continue;
        }
        let (Some(resolved), Some(specifier)) = (
            fact.property_str("resolved"),
            fact.property_str("specifier"),
        ) else {
            continue;
        };
        let file = &*fact.evidence.file;
        if resolved == file
            || specifier.split_whitespace().any(|word| word == "as")
            || specifier.chars().count() >= super::SPECIFIER_LIMIT
        {
            continue;
        }
        for name in names_of(fact) {
            if is_bindable(&name) {
                bindings
                    .entry(file.to_owned())
                    .or_default()
                    .entry(name.to_string())
                    .or_default()
                    .insert(resolved.to_owned());
            }
        }
    }
    bindings
}

/// How many bindings one name's walk through the re-exports visits at most (`cfg` alternatives
/// at every level multiply the ways).
const MAX_VISITS: usize = 64;

/// One name's walk through the re-exports ([`Walk::follow`]).
#[derive(Default)]
struct Walk {
    /// The files the name ends in, with the re-exporting files on the way.
    reached: Vec<(String, Vec<String>)>,
    /// The bindings visited.
    visits: usize,
    /// Whether the walk was cut short: the name then stays where the `use` resolves.
    cut: bool,
}

impl Walk {
    /// Follows `name`, bound in `file`, through the re-exports (the re-exporting files so far
    /// in `via`), depth first; `file` itself is an end when it binds no such name.
    fn follow(&mut self, bindings: &Bindings, file: &str, name: &str, via: &mut Vec<String>) {
        if self.cut {
            return;
        }
        self.visits += 1;
        if self.visits > MAX_VISITS || via.len() >= MAX_FOLLOWED {
            self.cut = true;
            return;
        }
        let targets = bindings
            .get(file)
            .and_then(|bound| bound.get(name))
            .filter(|_| !via.iter().any(|known| known == file));
        match targets {
            Some(targets) => {
                via.push(file.to_owned());
                for target in targets {
                    self.follow(bindings, target, name, via);
                }
                via.pop();
            }
            None => {
                if !self.reached.iter().any(|(end, _)| end == file) {
                    self.reached.push((file.to_owned(), via.clone()));
                }
            }
        }
    }
}

/// Rewrites the facts: the names of a changed fact that end in a file another fact of the same
/// `use` already resolves to join that fact; the others stay in the changed fact (those it keeps
/// first) or make new facts. A changed fact left with no names goes.
fn apply<F: BorrowMut<Fact> + From<Fact>>(facts: &mut Vec<F>, changes: Vec<(usize, Ends)>) {
    let changed: BTreeSet<usize> = changes.iter().map(|(index, _)| *index).collect();
    // The `use` facts of each statement that do not move, for the names that join them.
    let mut statements: BTreeMap<(String, u32, u32), Vec<usize>> = BTreeMap::new();
    for (index, fact) in facts.iter().enumerate() {
        let fact: &Fact = fact.borrow();
        if is_use(fact) && !changed.contains(&index) {
            statements.entry(statement(fact)).or_default().push(index);
        }
    }
    let mut ids: Option<BTreeSet<String>> = None;
    let mut added: Vec<Fact> = Vec::new();
    let mut emptied: BTreeSet<usize> = BTreeSet::new();
    for (index, ends) in changes {
        let Some(original) = facts.get(index).map(|fact| fact.borrow().clone()) else {
            continue;
        };
        let own = original.property_str("resolved").unwrap_or_default();
        let siblings = statements
            .get(&statement(&original))
            .map_or(&[][..], Vec::as_slice);
        // The names the fact keeps first, then the others by file.
        let mut ends: Vec<(String, End)> = ends.into_iter().collect();
        ends.sort_by_key(|(end, _)| end != own);
        let mut in_place = false;
        for (end, (names, via)) in ends {
            let sibling = siblings.iter().copied().find(|&other| {
                facts.get(other).is_some_and(|fact| {
                    fact.borrow().property_str("resolved") == Some(end.as_str())
                })
            });
            if let Some(fact) = sibling.and_then(|other| facts.get_mut(other)) {
                let fact: &mut Fact = fact.borrow_mut();
                let mut all: Vec<Text> = names_of(fact);
                for name in names {
                    if !all.iter().any(|known| known.as_str() == name.as_str()) {
                        all.push(name);
                    }
                }
                fact.properties
                    .insert("names", PropertyValue::List(all.into_boxed_slice()));
                add_via(fact, &via);
            } else if let Some(fact) = facts.get_mut(index).filter(|_| !in_place) {
                set_end(fact.borrow_mut(), &end, names, via);
                in_place = true;
            } else {
                let ids = ids.get_or_insert_with(|| {
                    facts.iter().map(|fact| fact.borrow().id.clone()).collect()
                });
                let mut fact = original.clone();
                fact.id = fresh_id(ids, &original.id);
                set_end(&mut fact, &end, names, via);
                added.push(fact);
            }
        }
        if !in_place {
            emptied.insert(index);
        }
    }
    if !emptied.is_empty() {
        let mut index = 0;
        facts.retain(|_| {
            index += 1;
            !emptied.contains(&(index - 1))
        });
    }
    facts.extend(added.into_iter().map(F::from));
}

/// Points `fact` at `end` with `names`, through the re-exporting files `via`.
fn set_end(fact: &mut Fact, end: &str, names: Vec<Text>, via: Vec<String>) {
    fact.properties
        .insert("resolved", PropertyValue::Str(Text::from(end)));
    fact.properties
        .insert("names", PropertyValue::List(names.into_boxed_slice()));
    add_via(fact, &via);
}

/// Adds the re-exporting files `via` to the fact's `reexportedBy`.
fn add_via(fact: &mut Fact, via: &[String]) {
    if via.is_empty() {
        return;
    }
    let mut files: Vec<Text> = match fact.properties.get("reexportedBy") {
        Some(PropertyValue::List(known)) => known.to_vec(),
        _ => Vec::new(),
    };
    for file in via {
        if !files.iter().any(|known| known.as_str() == file) {
            files.push(Text::from(file.as_str()));
        }
    }
    fact.properties.insert(
        "reexportedBy",
        PropertyValue::List(files.into_boxed_slice()),
    );
}

/// An id no fact has (`ids`, which takes it): the original's position with the next free `#n`.
fn fresh_id(ids: &mut BTreeSet<String>, id: &str) -> String {
    let base = id.split_once('#').map_or(id, |(base, _)| base);
    let fresh = (1..)
        .map(|n| format!("{base}#{n}"))
        .find(|candidate| !ids.contains(candidate))
        .unwrap_or_else(|| base.to_owned());
    ids.insert(fresh.clone());
    fresh
}

/// Where a fact's statement is: its file, line and column.
fn statement(fact: &Fact) -> (String, u32, u32) {
    (
        fact.evidence.file.to_string(),
        fact.evidence.line,
        fact.evidence.column,
    )
}

/// A `use` declaration's import fact (not a `mod x;` declaration's).
fn is_use(fact: &Fact) -> bool {
    fact.kind == FactKind::Import
        && fact.property_str("language") == Some("rust")
        && fact.evidence.message.starts_with("use of ")
}

/// The fact's names.
fn names_of(fact: &Fact) -> Vec<Text> {
    list(fact, "names")
}

/// A list property of the fact (empty when absent).
fn list(fact: &Fact, property: &str) -> Vec<Text> {
    match fact.properties.get(property) {
        Some(PropertyValue::List(names)) => names.to_vec(),
        _ => Vec::new(),
    }
}

/// A name a `use` binds under itself: not a glob or a path keyword.
fn is_bindable(name: &str) -> bool {
    !matches!(name, "*" | "self" | "super" | "crate" | "")
}

#[cfg(test)]
mod tests {
    use super::{Bindings, Walk};

    /// Binds `name` in `file` to `targets`.
    fn bind(bindings: &mut Bindings, file: &str, name: &str, targets: &[String]) {
        bindings
            .entry(file.to_owned())
            .or_default()
            .entry(name.to_owned())
            .or_default()
            .extend(targets.iter().cloned());
    }

    #[test]
    fn a_name_is_followed_through_each_re_exporting_module_to_its_declaring_files() {
        let mut bindings = Bindings::new();
        bind(&mut bindings, "lib.rs", "Socket", &["net.rs".to_owned()]);
        bind(
            &mut bindings,
            "net.rs",
            "Socket",
            &["net/unix.rs".to_owned(), "net/windows.rs".to_owned()],
        );
        let mut walk = Walk::default();
        walk.follow(&bindings, "lib.rs", "Socket", &mut Vec::new());
        assert!(!walk.cut);
        let via = vec!["lib.rs".to_owned(), "net.rs".to_owned()];
        assert_eq!(
            walk.reached,
            [
                ("net/unix.rs".to_owned(), via.clone()),
                ("net/windows.rs".to_owned(), via)
            ]
        );
    }

    /// Ten `cfg` alternatives at each of five levels are 10^5 ways: the walk stops after a few
    /// dozen bindings, and the name stays where its `use` resolves; so does one deeper than
    /// eight re-exports.
    #[test]
    fn a_walk_through_alternatives_at_every_level_is_cut_short_in_bounded_time() {
        let mut bindings = Bindings::new();
        for level in 0..5 {
            let targets: Vec<String> = (0..10).map(|n| format!("l{}/{n}.rs", level + 1)).collect();
            let files: Vec<String> = if level == 0 {
                vec!["lib.rs".to_owned()]
            } else {
                (0..10).map(|n| format!("l{level}/{n}.rs")).collect()
            };
            for file in &files {
                bind(&mut bindings, file, "X", &targets);
            }
        }
        let mut walk = Walk::default();
        walk.follow(&bindings, "lib.rs", "X", &mut Vec::new());
        assert!(walk.cut);
        assert_eq!(walk.visits, super::MAX_VISITS + 1);
        let mut chain = Bindings::new();
        for level in 0..9 {
            bind(
                &mut chain,
                &format!("{level}.rs"),
                "X",
                &[format!("{}.rs", level + 1)],
            );
        }
        let mut walk = Walk::default();
        walk.follow(&chain, "0.rs", "X", &mut Vec::new());
        assert!(walk.cut);
    }
}
