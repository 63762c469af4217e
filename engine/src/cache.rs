//! The extraction cache (`cli.md` `--no-cache`): per-snapshot memoisation of the extractors'
//! per-file outcomes, so re-running a check on the same code (a CI retry, `explain` after
//! `check`, the two sides of `--diff`) skips parsing.
//!
//! A file's facts depend on its content and on the whole project (import resolution probes
//! other files, reads resolution configs and, for Java, Kotlin and C#, a type index over every
//! source), so the key covers the whole snapshot: every project file's path and identity (the
//! git blob id for index and commit snapshots; size, modification time and inode in the work
//! tree), the files to extract, the extractor set and lintel's version. Any change anywhere is a
//! miss, never a stale hit; the cache never changes output.
//!
//! It lives in `$XDG_CACHE_HOME/lintel` (else `~/.cache/lintel`), never inside the project.
//! Entries are written atomically (temporary file, then rename); a corrupt or unreadable entry
//! is a miss. The directory is bounded: after each store, the least recently used entries (a hit
//! refreshes an entry's modification time) beyond [`MAX_ENTRIES`] or [`MAX_BYTES`] in all are
//! deleted, and so are temporary files that an interrupted run left behind.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Bumped when the cached shape or the extractors' meaning changes.
const CACHE_FORMAT: u32 = 3;

/// At most this many snapshots are kept.
pub const MAX_ENTRIES: usize = 16;

/// At most this many bytes of entries are kept (the newest entry is always kept).
pub const MAX_BYTES: u64 = 1 << 30;

/// A temporary file older than this was left by an interrupted run.
const STALE_TEMPORARY: std::time::Duration = std::time::Duration::from_secs(3600);

/// The running binary's size and modification time. Two builds of one version (a build from
/// source between releases) may extract differently, so neither reuses the other's entries;
/// empty where the binary cannot be found, which leaves the version alone to tell them apart.
fn build_identity() -> &'static str {
    static IDENTITY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    IDENTITY.get_or_init(|| {
        std::env::current_exe()
            .and_then(std::fs::metadata)
            .map(|metadata| {
                let modified = metadata
                    .modified()
                    .ok()
                    .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |since| since.as_nanos());
                format!("{}:{modified}", metadata.len())
            })
            .unwrap_or_default()
    })
}

/// The cache directory.
#[derive(Debug, Clone)]
pub struct ExtractionCache {
    directory: PathBuf,
}

/// One file's cached outcome.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum CachedOutcome {
    /// Extracted facts.
    Extracted {
        /// The facts, as the extractor returned them.
        facts: Vec<Box<policies::facts::Fact>>,
        /// Language name.
        language: String,
        /// Error nodes.
        parse_errors: usize,
        /// First error node (line, column).
        first_parse_error: Option<(u32, u32)>,
        /// Query timings (`--debug-extractors` only, which never uses the cache).
        #[serde(default)]
        queries: Vec<serde_json::Value>,
        /// Cross-file routing records, linked after every file is extracted (boxed: most
        /// files have none).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        links: Option<Box<extractors::RouteLinks>>,
    },
    /// Left out, with the reason.
    Skipped(String),
    /// A generated file.
    Generated,
    /// Not a source file of any extractor.
    NotSource,
}

#[derive(Debug, Deserialize)]
struct Entry {
    format: u32,
    version: String,
    key: String,
    outcomes: CompactOutcomes,
}

/// The outcomes of an entry, each file's facts made compact as soon as that file is read: its
/// facts share one path, and extractor names and `language` values are the extractors' own
/// static strings. So the strings JSON gives every fact never pile up for the whole project.
#[derive(Debug)]
struct CompactOutcomes(Vec<(String, CachedOutcome)>);

impl<'de> Deserialize<'de> for CompactOutcomes {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Outcomes;
        impl<'de> serde::de::Visitor<'de> for Outcomes {
            type Value = CompactOutcomes;

            fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                formatter.write_str("a list of (file, outcome) pairs")
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut items: A,
            ) -> Result<Self::Value, A::Error> {
                let mut outcomes = Vec::with_capacity(items.size_hint().unwrap_or(0));
                while let Some((file, mut outcome)) =
                    items.next_element::<(String, CachedOutcome)>()?
                {
                    if let CachedOutcome::Extracted { facts, .. } = &mut outcome {
                        compact(&file, facts);
                    }
                    outcomes.push((file, outcome));
                }
                Ok(CompactOutcomes(outcomes))
            }
        }
        deserializer.deserialize_seq(Outcomes)
    }
}

/// Gives the facts of `file` one shared path and the extractors' static names.
fn compact(file: &str, facts: &mut [Box<policies::facts::Fact>]) {
    let shared: std::sync::Arc<str> = std::sync::Arc::from(file);
    let specs = extractors::Language::ALL.map(|language| language.spec());
    for fact in facts {
        if *fact.evidence.file == *shared {
            fact.evidence.file = std::sync::Arc::clone(&shared);
        }
        if let Some(spec) = specs
            .iter()
            .find(|spec| spec.extractor == fact.evidence.extractor)
        {
            fact.evidence.extractor = std::borrow::Cow::Borrowed(spec.extractor);
        }
        let language = fact.property_str("language");
        if let Some(spec) = specs.iter().find(|spec| Some(spec.name) == language) {
            fact.properties
                .insert("language", policies::facts::PropertyValue::fixed(spec.name));
        }
    }
}

/// An [`Entry`] as written: it borrows the outcomes, which are streamed to the file, so storing
/// copies neither the facts nor their JSON text in memory.
#[derive(Debug, Serialize)]
struct EntryRef<'a> {
    format: u32,
    version: &'a str,
    key: &'a str,
    outcomes: &'a [(String, CachedOutcome)],
}

/// lintel's folder in the user's cache directory (`$XDG_CACHE_HOME/lintel`, else
/// `~/.cache/lintel`), when one can be named; never inside a project.
pub fn lintel_cache_home() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|value| !value.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|value| !value.is_empty())
                .map(|home| PathBuf::from(home).join(".cache"))
        })?;
    Some(base.join("lintel"))
}

impl ExtractionCache {
    /// The user's cache directory, when one can be named.
    pub fn locate() -> Option<Self> {
        Some(Self {
            directory: lintel_cache_home()?.join("extraction"),
        })
    }

    /// A cache rooted at `directory` (tests).
    pub fn at(directory: &Path) -> Self {
        Self {
            directory: directory.to_path_buf(),
        }
    }

    /// The key of a snapshot: lintel's version and build, the options that change extraction,
    /// every project file with its identity, and the files to extract.
    pub fn key(
        identities: &[(String, String)],
        extracted: &[String],
        include_generated: bool,
        generic: &extractors::GenericFacts,
    ) -> String {
        Self::key_for_build(
            build_identity(),
            identities,
            extracted,
            include_generated,
            generic,
        )
    }

    /// [`ExtractionCache::key`] for the lintel binary whose identity is `build`.
    fn key_for_build(
        build: &str,
        identities: &[(String, String)],
        extracted: &[String],
        include_generated: bool,
        generic: &extractors::GenericFacts,
    ) -> String {
        let mut hasher = Sha256::new();
        hasher.update(format!(
            "lintel {} build {build} cache {CACHE_FORMAT} generated={include_generated} generic={generic}\n",
            env!("CARGO_PKG_VERSION")
        ));
        for (path, identity) in identities {
            hasher.update(path.as_bytes());
            hasher.update(b"\0");
            hasher.update(identity.as_bytes());
            hasher.update(b"\n");
        }
        hasher.update(b"extract\n");
        for path in extracted {
            hasher.update(path.as_bytes());
            hasher.update(b"\n");
        }
        hasher
            .finalize()
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect()
    }

    fn path(&self, key: &str) -> PathBuf {
        self.directory.join(format!("{key}.json"))
    }

    /// The outcomes stored under `key`, if a valid entry exists.
    pub fn load(&self, key: &str) -> Option<Vec<(String, CachedOutcome)>> {
        let path = self.path(key);
        let file = std::fs::File::open(&path).ok()?;
        // Read through a buffer: the whole JSON text is never held next to the outcomes.
        let entry: Entry = serde_json::from_reader(std::io::BufReader::new(file)).ok()?;
        let valid = entry.format == CACHE_FORMAT
            && entry.version == env!("CARGO_PKG_VERSION")
            && entry.key == key;
        if valid {
            // Mark the entry as recently used for the eviction order; failure only makes it older.
            if let Ok(file) = std::fs::File::options().append(true).open(&path) {
                let _ = file.set_modified(std::time::SystemTime::now());
            }
        }
        valid.then_some(entry.outcomes.0)
    }

    /// Stores outcomes under `key`; failures are ignored (the cache is an optimisation).
    pub fn store(&self, key: &str, outcomes: &[(String, CachedOutcome)]) {
        let entry = EntryRef {
            format: CACHE_FORMAT,
            version: env!("CARGO_PKG_VERSION"),
            key,
            outcomes,
        };
        if std::fs::create_dir_all(&self.directory).is_err() {
            return;
        }
        let temporary = self
            .directory
            .join(format!(".{key}.{}.tmp", std::process::id()));
        let written = std::fs::File::create(&temporary).is_ok_and(|file| {
            let mut writer = std::io::BufWriter::new(file);
            serde_json::to_writer(&mut writer, &entry).is_ok()
                && std::io::Write::flush(&mut writer).is_ok()
        });
        if !(written && std::fs::rename(&temporary, self.path(key)).is_ok()) {
            let _ = std::fs::remove_file(&temporary);
        }
        self.prune(key);
    }

    /// Deletes the least recently used entries beyond the bounds, keeping `keep`, and stale
    /// temporary files. Failures are ignored: another run may be pruning at the same time.
    fn prune(&self, keep: &str) {
        let Ok(listing) = std::fs::read_dir(&self.directory) else {
            return;
        };
        let now = std::time::SystemTime::now();
        let mut entries: Vec<(std::time::SystemTime, String, u64, PathBuf)> = Vec::new();
        for item in listing.flatten() {
            let path = item.path();
            let name = item.file_name().to_string_lossy().into_owned();
            let Ok(metadata) = item.metadata() else {
                continue;
            };
            let modified = metadata.modified().unwrap_or(std::time::UNIX_EPOCH);
            if name.starts_with('.') && name.ends_with(".tmp") {
                let age = now.duration_since(modified).unwrap_or_default();
                if age > STALE_TEMPORARY {
                    let _ = std::fs::remove_file(&path);
                }
            } else if metadata.is_file() && name.ends_with(".json") {
                entries.push((modified, name, metadata.len(), path));
            }
        }
        // Newest first; the entry just written or read always stays.
        let kept = format!("{keep}.json");
        entries.sort_by(|a, b| {
            (b.1 == kept)
                .cmp(&(a.1 == kept))
                .then(b.0.cmp(&a.0))
                .then(a.1.cmp(&b.1))
        });
        let mut total = 0_u64;
        for (index, (_, _, size, path)) in entries.iter().enumerate() {
            total = total.saturating_add(*size);
            if index > 0 && (index >= MAX_ENTRIES || total > MAX_BYTES) {
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

/// The identity of a work-tree file: size, modification time (ns) and inode; empty when it cannot be read.
pub fn worktree_identity(path: &Path) -> String {
    let Ok(metadata) = std::fs::symlink_metadata(path) else {
        return String::new();
    };
    let modified = metadata
        .modified()
        .ok()
        .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |duration| duration.as_nanos());
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&metadata);
    #[cfg(not(unix))]
    let inode = 0_u64;
    format!("{}:{modified}:{inode}", metadata.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcomes(label: &str) -> Vec<(String, CachedOutcome)> {
        vec![(label.to_owned(), CachedOutcome::Skipped(label.to_owned()))]
    }

    fn age(path: &Path, seconds_ago: u64) {
        let time = std::time::SystemTime::now() - std::time::Duration::from_secs(seconds_ago);
        std::fs::File::options()
            .append(true)
            .open(path)
            .unwrap()
            .set_modified(time)
            .unwrap();
    }

    #[test]
    fn two_builds_of_one_version_do_not_share_entries() {
        let identities = vec![("src/a.ts".to_owned(), "blob".to_owned())];
        let extracted = vec!["src/a.ts".to_owned()];
        let key = |build: &str| {
            ExtractionCache::key_for_build(
                build,
                &identities,
                &extracted,
                false,
                &extractors::GenericFacts::NONE,
            )
        };
        assert_eq!(key("100:1"), key("100:1"));
        assert_ne!(key("100:1"), key("100:2"));
        assert_ne!(key("100:1"), key("101:1"));
        // The running test binary has an identity.
        assert!(!build_identity().is_empty());
        assert_eq!(
            ExtractionCache::key(
                &identities,
                &extracted,
                false,
                &extractors::GenericFacts::NONE
            ),
            key(build_identity())
        );
    }

    #[test]
    fn the_least_recently_used_entries_beyond_the_bound_are_evicted() {
        let directory = tempfile::tempdir().unwrap();
        let cache = ExtractionCache::at(directory.path());
        let keys: Vec<String> = (0..MAX_ENTRIES + 3).map(|n| format!("k{n:02}")).collect();
        for (n, key) in keys.iter().enumerate() {
            cache.store(key, &outcomes(key));
            // Older keys are older on disk, whatever the file system's timestamp resolution.
            age(&cache.path(key), 10_000 - u64::try_from(n).unwrap() * 10);
        }
        // A hit makes the oldest surviving entry the most recently used one.
        let oldest_kept = &keys[3];
        assert!(cache.load(oldest_kept).is_some());
        cache.store("fresh", &outcomes("fresh"));
        let mut names: Vec<String> = std::fs::read_dir(directory.path())
            .unwrap()
            .map(|item| item.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names.len(), MAX_ENTRIES);
        assert!(names.contains(&"fresh.json".to_owned()));
        assert!(names.contains(&format!("{oldest_kept}.json")));
        for evicted in &keys[..5] {
            if evicted != oldest_kept {
                assert!(cache.load(evicted).is_none(), "{evicted} should be evicted");
            }
        }
        assert!(cache.load(&keys[MAX_ENTRIES + 2]).is_some());
    }

    #[test]
    fn loaded_facts_share_their_path_and_the_extractors_static_names() {
        use policies::facts::{Confidence, Evidence, Fact, FactKind, PropertyValue, Strategy};
        let fact = |line: u32| {
            let mut properties = policies::facts::Properties::new();
            properties.insert("language", PropertyValue::from("python"));
            properties.insert("specifier", PropertyValue::from("os"));
            Box::new(Fact {
                id: format!("python:app/a.py:{line}:1:external"),
                kind: FactKind::External,
                subject: None,
                target: None,
                technology: None,
                model: None,
                route: None,
                properties,
                confidence: Confidence::Definite,
                evidence: Evidence {
                    extractor: "python".into(),
                    strategy: Strategy::Ast,
                    file: "app/a.py".into(),
                    line,
                    column: 1,
                    end_line: line,
                    end_column: 10,
                    scope: None,
                    message: "import `os`".into(),
                },
            })
        };
        let stored = vec![(
            "app/a.py".to_owned(),
            CachedOutcome::Extracted {
                facts: vec![fact(1), fact(2)],
                language: "python".to_owned(),
                parse_errors: 0,
                first_parse_error: None,
                queries: Vec::new(),
                links: None,
            },
        )];
        let directory = tempfile::tempdir().unwrap();
        let cache = ExtractionCache::at(directory.path());
        cache.store("key", &stored);
        let loaded = cache.load("key").unwrap();
        let [(_, CachedOutcome::Extracted { facts, .. })] = loaded.as_slice() else {
            panic!("one extracted file expected, got {loaded:?}");
        };
        let [first, second] = facts.as_slice() else {
            panic!("two facts expected");
        };
        // The same facts, with one path for the file and borrowed names.
        assert_eq!(**first, *fact(1));
        assert_eq!(**second, *fact(2));
        assert!(std::sync::Arc::ptr_eq(
            &first.evidence.file,
            &second.evidence.file
        ));
        assert!(matches!(
            first.evidence.extractor,
            std::borrow::Cow::Borrowed("python")
        ));
        assert!(matches!(
            first.properties.get("language"),
            Some(PropertyValue::Str(policies::facts::Text::Fixed("python")))
        ));
    }

    #[test]
    fn stale_temporary_files_are_removed_and_fresh_ones_kept() {
        let directory = tempfile::tempdir().unwrap();
        let cache = ExtractionCache::at(directory.path());
        let stale = directory.path().join(".abc.1.tmp");
        let fresh = directory.path().join(".def.2.tmp");
        std::fs::write(&stale, "x").unwrap();
        std::fs::write(&fresh, "x").unwrap();
        age(&stale, 2 * 3600);
        cache.store("key", &outcomes("key"));
        assert!(!stale.exists());
        assert!(fresh.exists());
        assert!(cache.load("key").is_some());
    }
}
