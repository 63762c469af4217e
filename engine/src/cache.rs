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
//! is a miss.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Bumped when the cached shape or the extractors' meaning changes.
const CACHE_FORMAT: u32 = 2;

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
        facts: Vec<policies::facts::Fact>,
        /// Language name.
        language: String,
        /// Error nodes.
        parse_errors: usize,
        /// First error node (line, column).
        first_parse_error: Option<(u32, u32)>,
        /// Query timings (`--debug-extractors` only, which never uses the cache).
        #[serde(default)]
        queries: Vec<serde_json::Value>,
        /// Cross-file routing records, linked after every file is extracted.
        #[serde(default)]
        links: extractors::RouteLinks,
    },
    /// Left out, with the reason.
    Skipped(String),
    /// A generated file.
    Generated,
    /// Not a source file of any extractor.
    NotSource,
}

#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    format: u32,
    version: String,
    key: String,
    outcomes: Vec<(String, CachedOutcome)>,
}

impl ExtractionCache {
    /// The user's cache directory, when one can be named.
    pub fn locate() -> Option<Self> {
        let base = std::env::var_os("XDG_CACHE_HOME")
            .filter(|value| !value.is_empty())
            .map(PathBuf::from)
            .or_else(|| {
                std::env::var_os("HOME")
                    .filter(|value| !value.is_empty())
                    .map(|home| PathBuf::from(home).join(".cache"))
            })?;
        Some(Self {
            directory: base.join("lintel").join("extraction"),
        })
    }

    /// A cache rooted at `directory` (tests).
    pub fn at(directory: &Path) -> Self {
        Self {
            directory: directory.to_path_buf(),
        }
    }

    /// The key of a snapshot: lintel's version, the options that change extraction, every
    /// project file with its identity, and the files to extract.
    pub fn key(
        identities: &[(String, String)],
        extracted: &[String],
        include_generated: bool,
        keep_generic: bool,
    ) -> String {
        let mut hasher = Sha256::new();
        hasher.update(format!(
            "lintel {} cache {CACHE_FORMAT} generated={include_generated} generic={keep_generic}\n",
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
        let bytes = std::fs::read(self.path(key)).ok()?;
        let entry: Entry = serde_json::from_slice(&bytes).ok()?;
        (entry.format == CACHE_FORMAT
            && entry.version == env!("CARGO_PKG_VERSION")
            && entry.key == key)
            .then_some(entry.outcomes)
    }

    /// Stores outcomes under `key`; failures are ignored (the cache is an optimisation).
    pub fn store(&self, key: &str, outcomes: &[(String, CachedOutcome)]) {
        let entry = Entry {
            format: CACHE_FORMAT,
            version: env!("CARGO_PKG_VERSION").to_owned(),
            key: key.to_owned(),
            outcomes: outcomes.to_vec(),
        };
        let Ok(text) = serde_json::to_vec(&entry) else {
            return;
        };
        if std::fs::create_dir_all(&self.directory).is_err() {
            return;
        }
        let temporary = self
            .directory
            .join(format!(".{key}.{}.tmp", std::process::id()));
        if std::fs::write(&temporary, text).is_ok()
            && std::fs::rename(&temporary, self.path(key)).is_err()
        {
            let _ = std::fs::remove_file(&temporary);
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
