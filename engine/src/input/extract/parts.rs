//! Cached Java, Kotlin and C# files whose lookups in the type indexes need no asking again
//! although the project's declarations changed.
//!
//! A cached entry made in a project of another shape holds only if each of its lookups gets the
//! answer it got. Asking them all again took a quarter of a `--diff` with the base's cache on a
//! 5,000-file C# project, although a pull request changes the declarations of a few names. So
//! every run that makes entries in a shape keeps, beside them, what each part of that shape's
//! declarations held ([`ProjectContext::declaration_parts`]: a declared name's packages and
//! files, a package's types, …), and each entry names the parts its lookups read
//! ([`FileEntry::parts`]). A later run compares the parts of the entry's shape with its own;
//! an entry that reads none of the parts that differ holds without asking, when the rest of
//! the shape (links, configuration files, the files the C# build generates code from) is the
//! same. Anything else, a missing or unreadable document included, asks the lookups as before.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;

use extractors::ProjectContext;
use serde::{Deserialize, Serialize};

use crate::input::cache::{part_hash, ExtractionCache, FileEntry};

/// The format of a parts document; another one is a miss.
const FORMAT: u32 = 1;

/// What each part of a shape's declarations held, as stored beside the entries.
#[derive(Serialize, Deserialize)]
struct Document {
    format: u32,
    /// The rest of the shape: links, configuration files and generating files.
    outer: String,
    parts: BTreeMap<String, String>,
}

/// The key of the parts document of the shape `types`, under a run's cache `options` (which
/// name lintel's build: another build may read parts otherwise).
fn document_key(options: &str, types: &str) -> String {
    ExtractionCache::shaped_key(options, &format!("declaration parts {types}"))
}

/// The key of the parts that differ between the shapes `old` and `new` (when the rest of both
/// shapes is the same), kept so that the runs after the first in a shape need not compare.
fn changes_key(options: &str, old: &str, new: &str) -> String {
    ExtractionCache::shaped_key(options, &format!("declaration changes {old} {new}"))
}

/// What [`changes_key`] keeps: the hashes of the parts that differ, sorted.
#[derive(Serialize, Deserialize)]
struct Changes {
    format: u32,
    old: String,
    new: String,
    changed: Vec<u64>,
}

/// This run's declaration parts, computed once when needed.
pub(super) struct Current<'a> {
    context: &'a ProjectContext,
    parts: OnceLock<BTreeMap<String, String>>,
}

impl<'a> Current<'a> {
    pub(super) fn new(context: &'a ProjectContext) -> Self {
        Self {
            context,
            parts: OnceLock::new(),
        }
    }

    fn parts(&self) -> &BTreeMap<String, String> {
        self.parts.get_or_init(|| self.context.declaration_parts())
    }

    /// Keeps this run's parts for the shape `types`, unless they are kept already or the
    /// project has no type index.
    pub(super) fn store(&self, cache: &ExtractionCache, options: &str, types: &str, outer: &str) {
        let key = document_key(options, types);
        if !cache.is_shared() || cache.has_document(&key) {
            return;
        }
        let parts = self.parts();
        // Only the fixed parts: no file declares a type.
        if !parts.keys().any(|part| part.contains(' ')) {
            return;
        }
        let document = Document {
            format: FORMAT,
            outer: outer.to_owned(),
            parts: parts.clone(),
        };
        if let Ok(bytes) = serde_json::to_vec(&document) {
            cache.store_document(&key, &bytes);
        }
    }
}

/// For each shape of the entries being judged, the hashes of the parts whose contents differ
/// now, sorted; a shape whose parts are unknown, or whose rest differs, is absent.
#[derive(Default)]
pub(super) struct Changed {
    by_shape: HashMap<String, Vec<u64>>,
}

impl Changed {
    /// The parts that changed since each of `shapes`, for a run of shape `types` whose rest is
    /// `outer`.
    pub(super) fn since(
        cache: &ExtractionCache,
        options: &str,
        (types, outer): (&str, &str),
        shapes: BTreeSet<String>,
        current: &Current<'_>,
    ) -> Self {
        let mut by_shape = HashMap::new();
        for shape in shapes {
            let key = changes_key(options, &shape, types);
            let kept = cache
                .load_document(&key)
                .and_then(|bytes| serde_json::from_slice::<Changes>(&bytes).ok())
                .filter(|changes| {
                    changes.format == FORMAT && changes.old == shape && changes.new == types
                });
            if let Some(changes) = kept {
                by_shape.insert(shape, changes.changed);
                continue;
            }
            let Some(bytes) = cache.load_document(&document_key(options, &shape)) else {
                continue;
            };
            let Ok(document) = serde_json::from_slice::<Document>(&bytes) else {
                continue;
            };
            if document.format != FORMAT || document.outer != outer {
                continue;
            }
            let changes = Changes {
                format: FORMAT,
                old: shape,
                new: types.to_owned(),
                changed: differing(&document.parts, current.parts()),
            };
            if let Ok(bytes) = serde_json::to_vec(&changes) {
                cache.store_document(&key, &bytes);
            }
            by_shape.insert(changes.old, changes.changed);
        }
        Self { by_shape }
    }

    /// Whether `entry`'s lookups get the answers they got: its shape's parts are known and it
    /// reads none that changed.
    pub(super) fn holds(&self, entry: &FileEntry) -> bool {
        entry
            .shape
            .as_deref()
            .and_then(|shape| self.by_shape.get(shape))
            .is_some_and(|changed| entry.reads_none_of(changed))
    }
}

/// The hashes of the parts present in only one of `old` and `new`, or with other contents,
/// sorted.
fn differing(old: &BTreeMap<String, String>, new: &BTreeMap<String, String>) -> Vec<u64> {
    let mut changed = BTreeSet::new();
    for (part, contents) in old {
        if new.get(part) != Some(contents) {
            changed.insert(part_hash(part));
        }
    }
    for part in new.keys() {
        if !old.contains_key(part) {
            changed.insert(part_hash(part));
        }
    }
    changed.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_that_differ_or_exist_on_one_side_only_are_changed() {
        let map = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
            pairs
                .iter()
                .map(|(part, contents)| ((*part).to_owned(), (*contents).to_owned()))
                .collect()
        };
        let old = map(&[("CN Order", "a"), ("CN Gone", "b"), ("CK", "c")]);
        let new = map(&[("CN Order", "a"), ("CN New", "d"), ("CK", "e")]);
        let changed = differing(&old, &new);
        let expected: Vec<u64> = ["CN Gone", "CN New", "CK"]
            .iter()
            .map(|part| part_hash(part))
            .collect::<BTreeSet<u64>>()
            .into_iter()
            .collect();
        assert_eq!(changed, expected);
    }
}
