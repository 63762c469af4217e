//! Rust module files compiled for tests only, across files: a file that `#[cfg(test)] mod
//! tests;` declares (`tokio/src/fs/file/tests.rs`) is test code, and so is every file it
//! declares in turn. Its `use` declarations are no edge of the crate (a dev-dependency such as
//! `tokio-test` is no dependency of `tokio`), as those inside `#[cfg(test)]` code in a file are
//! not: their import facts get `testOnly`.
//!
//! One file's extraction sees only its own attributes, so this runs over every file's facts once
//! they are in: a file is test code when every `mod` declaration that reaches it is test-only
//! (`testOnly` on the declaration's fact) or is made in test code. A file no declaration lintel
//! sees reaches (`cfg_loom! { mod loom_multi_thread; }`: a macro's body is not read) is test code
//! when the module file of its folder is (`runtime/tests/mod.rs` for
//! `runtime/tests/loom_multi_thread.rs`): a module is compiled only with its parent.

use std::collections::{BTreeMap, BTreeSet};

use policies::facts::{Fact, FactKind, PropertyValue};

/// The message prefix of a `mod name;` declaration's fact (`crate::lang::rust`).
pub(crate) const MODULE_DECLARATION: &str = "module declaration";

/// Marks `testOnly` the Rust import facts of the files only test code declares.
pub fn mark_test_modules<F: std::borrow::BorrowMut<Fact>>(facts: &mut [F]) {
    // Each declared file with the files that declare it, and whether that declaration is
    // test-only.
    let mut declared_by: BTreeMap<String, Vec<(String, bool)>> = BTreeMap::new();
    let mut files: BTreeSet<&str> = BTreeSet::new();
    for fact in facts.iter() {
        let fact: &Fact = fact.borrow();
        if !is_rust_import(fact) {
            continue;
        }
        files.insert(&fact.evidence.file);
        if !fact.evidence.message.starts_with(MODULE_DECLARATION) {
            continue;
        }
        if let Some(child) = fact.property_str("resolved") {
            declared_by.entry(child.to_owned()).or_default().push((
                fact.evidence.file.to_string(),
                fact.property_flag("testOnly"),
            ));
        }
    }
    if !declared_by
        .values()
        .flatten()
        .any(|(_, test_only)| *test_only)
    {
        return;
    }
    // The files no declaration reaches, with the module files of their folders.
    let undeclared: Vec<(&str, [String; 2])> = files
        .iter()
        .filter(|file| !declared_by.contains_key(**file))
        .map(|file| (*file, folder_modules(file)))
        .collect();
    // Grows until no file joins: at most one pass per file.
    let mut test_files: BTreeSet<String> = BTreeSet::new();
    loop {
        let before = test_files.len();
        for (child, parents) in &declared_by {
            if !test_files.contains(child)
                && parents
                    .iter()
                    .all(|(parent, test_only)| *test_only || test_files.contains(parent))
            {
                test_files.insert(child.clone());
            }
        }
        for (file, parents) in &undeclared {
            if !test_files.contains(*file)
                && parents.iter().any(|parent| test_files.contains(parent))
            {
                test_files.insert((*file).to_owned());
            }
        }
        if test_files.len() == before {
            break;
        }
    }
    if test_files.is_empty() {
        return;
    }
    for fact in facts.iter_mut() {
        let fact: &mut Fact = fact.borrow_mut();
        if is_rust_import(fact)
            && !fact.property_flag("testOnly")
            && test_files.contains(&*fact.evidence.file)
        {
            fact.properties
                .insert("testOnly", PropertyValue::Bool(true));
        }
    }
}

/// The files that may hold the module of a file's folder: `a/b/mod.rs` and `a/b.rs` for
/// `a/b/c.rs` (and for `a/b/c/mod.rs`).
fn folder_modules(file: &str) -> [String; 2] {
    let folder = file.rsplit_once('/').map_or("", |(folder, _)| folder);
    let folder = if file.ends_with("/mod.rs") || file == "mod.rs" {
        folder.rsplit_once('/').map_or("", |(above, _)| above)
    } else {
        folder
    };
    [format!("{folder}/mod.rs"), format!("{folder}.rs")]
}

fn is_rust_import(fact: &Fact) -> bool {
    fact.kind == FactKind::Import && fact.property_str("language") == Some("rust")
}
