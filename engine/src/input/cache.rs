//! The extraction cache (`--no-cache` of `lintel check` in docs/CLI.md): each file's extraction, kept per file, so a
//! run re-parses only the files that changed since a run it shares the cache with (a staged
//! check after one edit, the two sides of `--diff`, a CI job with the previous commit's cache).
//!
//! A file's facts depend on its bytes and on what its extraction asked of the project (how its
//! imports resolve, which config applies: [`extractors::probes`]). An entry is keyed by what
//! depends on the bytes alone: the file's path and content (its git blob id, which for a
//! work-tree file is computed from the bytes read, never from size and modification time), and
//! the options that change extraction (lintel's version and build, `--include-generated`, the
//! generic facts the run's queries want, the root `.gitattributes`). It holds the file's outcome,
//! what it declares for the type indexes, and the questions it asked with their answers. It is
//! used only when the current project answers every question the same way; a question about a
//! whole structure (the Java, Kotlin and C# type indexes, C# projects, Rust crates) holds only
//! when the whole project's shape (its file list, symbolic links, resolution configs and every
//! file's declarations) is what it was. Anything else is a miss, never a stale hit: the cache
//! never changes output.
//!
//! It lives in `$XDG_CACHE_HOME/lintel` (an absolute path only, as the XDG specification says;
//! else `~/.cache/lintel`), never inside the project. Entries are written atomically (a
//! temporary file, then rename), so concurrent runs share it safely; an entry that is corrupt,
//! unreadable, oversized or not a regular file (a FIFO is never opened for a blocking read) is a
//! miss. The directory is bounded: after a run that stored entries, at most every
//! [`PRUNE_INTERVAL`], the least recently used entries beyond [`MAX_BYTES`] in all are deleted
//! (a hit refreshes an entry's modification time when it is older than a day), and so are
//! temporary files that an interrupted run left behind.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use extractors::probes::Probe;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Bumped when the cached shape or the extractors' meaning changes.
pub const CACHE_FORMAT: u32 = 70;

/// At most this many bytes of entries are kept.
pub const MAX_BYTES: u64 = 512 << 20;

/// An entry larger than this is not read (a file's facts are far smaller).
const MAX_ENTRY_BYTES: u64 = 64 << 20;

/// The directory is pruned at most this often (a run that stored nothing never prunes).
pub const PRUNE_INTERVAL: Duration = Duration::from_secs(600);

/// A temporary file older than this was left by an interrupted run.
const STALE_TEMPORARY: Duration = Duration::from_secs(3600);

/// A hit refreshes an entry's modification time (its place in the eviction order) when it is
/// older than this: not at every hit, which would write to the file system once per file.
const REFRESH_AFTER: Duration = Duration::from_secs(24 * 3600);

/// The running binary's size and modification time. Two builds of one version (a build from
/// source between releases) may extract differently, so neither reuses the other's entries;
/// empty where the binary cannot be found, which leaves the version alone to tell them apart.
pub fn build_identity() -> &'static str {
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

/// The cache directory, and a run's memory of the entries it read or wrote.
#[derive(Debug, Clone)]
pub struct ExtractionCache {
    directory: PathBuf,
    /// Whether entries are read from and written to `directory`.
    disk: bool,
    /// Whether an entry goes to `directory` only when memory cannot keep it (a run's own
    /// directory under `--no-cache --diff`).
    spill_only: bool,
    /// Under `spill_only`: the one file of the run that holds what memory cannot keep, when it
    /// could be made (else one file per entry, as in a shared directory).
    spill: Option<std::sync::Arc<Spill>>,
    memory: Option<std::sync::Arc<Memory>>,
}

/// The entries a `--diff` run without a cache could not keep in memory, written one after
/// another into one unnamed file of the run's own directory (gone with the run), with where
/// each is: thousands of small files would cost more in the file system than their bytes.
#[derive(Debug)]
struct Spill {
    file: std::sync::Mutex<std::fs::File>,
    /// Key → (offset, length) of its entry's text.
    index: std::sync::Mutex<std::collections::HashMap<String, (u64, usize)>>,
}

impl Spill {
    /// Appends an entry's text under `key` (a later one replaces it).
    fn write(&self, key: &str, text: &[u8]) {
        use std::io::{Seek, Write};
        let Ok(mut file) = self.file.lock() else {
            return;
        };
        let Ok(offset) = file.seek(std::io::SeekFrom::End(0)) else {
            return;
        };
        if file.write_all(text).is_ok() {
            if let Ok(mut index) = self.index.lock() {
                index.insert(key.to_owned(), (offset, text.len()));
            }
        }
    }

    /// The text written under `key`.
    fn read(&self, key: &str) -> Option<Vec<u8>> {
        use std::io::{Read as _, Seek};
        let (offset, length) = *self.index.lock().ok()?.get(key)?;
        let mut file = self.file.lock().ok()?;
        file.seek(std::io::SeekFrom::Start(offset)).ok()?;
        let mut text = vec![0; length];
        file.read_exact(&mut text).ok()?;
        Some(text)
    }
}

/// The entries one side of `--diff` (the merge base, extracted first) hands to the other: each
/// is taken (moved, not copied) by the head's first lookup of its key.
#[derive(Debug, Default)]
struct Memory {
    entries: std::sync::Mutex<std::collections::HashMap<String, FileEntry>>,
    remembering: std::sync::atomic::AtomicBool,
    /// The weight of the entries kept so far ([`FileEntry::weight`]), against [`MEMORY_FACTS`].
    facts: std::sync::atomic::AtomicUsize,
}

/// At most this many facts ([`FileEntry::weight`]) are kept in memory for the head of a
/// `--diff` (some MB): past it, the head reads its entries from the disk again, so that the
/// run's peak memory does not hold the project's facts twice. With 20,000, a `--diff` of
/// bitwarden/server without a cache peaked at 108 MB; with 8,000, at 101 MB.
const MEMORY_FACTS: usize = 8_000;

/// About the length of one lookup in the type indexes as the cache writes it.
const STORED_PROBE_BYTES: usize = 55;

/// The most entries kept under one key ([`ExtractionCache::store`]).
const MAX_VARIANTS: usize = 4;

/// One file's cached outcome.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum CachedOutcome {
    /// Extracted facts.
    Extracted {
        /// The facts, as the extractor returned them (written as rows: `stored_facts`).
        #[serde(with = "crate::input::stored_facts")]
        #[expect(
            clippy::vec_box,
            reason = "facts are boxed so that gathering them moves pointers, never the facts"
        )]
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

/// What the cache keeps of one file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FileEntry {
    /// The file's outcome.
    pub outcome: CachedOutcome,
    /// What the file declares for the type indexes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declarations: Option<extractors::TypeDeclarations>,
    /// The questions its extraction asked of the project, with their answers, but for its
    /// lookups in the type indexes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub probes: Vec<Probe>,
    /// Its lookups in the type indexes ([`Probe::needs_types`]), with their answers.
    #[serde(default, skip_serializing_if = "TypedProbes::is_empty")]
    pub typed: TypedProbes,
    /// The project's shape ([`ExtractionCache`]) when a probe asked about a whole structure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
    /// The parts of the project's declarations its lookups in the type indexes read
    /// ([`Probe::declaration_part`]), as [`part_hash`]es in hex, sorted: in another project
    /// state whose declarations differ from those of its shape only in other parts, every
    /// lookup gets the answer it got, so the lookups need no asking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parts: Option<PartHashes>,
}

impl FileEntry {
    /// The entry of an extraction that asked `probes`.
    pub fn new(
        outcome: CachedOutcome,
        declarations: Option<extractors::TypeDeclarations>,
        probes: Vec<Probe>,
        shape: Option<String>,
    ) -> Self {
        let (typed, probes): (Vec<Probe>, Vec<Probe>) =
            probes.into_iter().partition(Probe::needs_types);
        let parts = (!typed.is_empty()).then(|| {
            let hashes: std::collections::BTreeSet<u64> = typed
                .iter()
                .filter_map(Probe::declaration_part)
                .map(|part| part_hash(&part))
                .collect();
            PartHashes(hashes.into_iter().collect())
        });
        Self {
            outcome,
            declarations,
            probes,
            typed: TypedProbes::Parsed(typed),
            shape,
            parts,
        }
    }

    /// Whether none of the parts its lookups read is among `changed` ([`part_hash`]es, sorted);
    /// `false` for an entry that does not say which parts it read.
    pub fn reads_none_of(&self, changed: &[u64]) -> bool {
        self.parts.as_ref().is_some_and(|parts| {
            parts
                .0
                .iter()
                .all(|hash| changed.binary_search(hash).is_err())
        })
    }

    /// What keeping the entry in memory costs, counted in facts: its facts, and its recorded
    /// questions at three to a fact (a C# or Java file asks the type indexes some hundred,
    /// which for bitwarden/server weigh more than its facts).
    fn weight(&self) -> usize {
        let facts = match &self.outcome {
            CachedOutcome::Extracted { facts, .. } => facts.len(),
            _ => 0,
        };
        let typed = match &self.typed {
            TypedProbes::Parsed(probes) => probes.len(),
            TypedProbes::Stored(text) => text.get().len() / STORED_PROBE_BYTES,
            TypedProbes::Deferred => 0,
        };
        facts
            .saturating_add(self.probes.len().saturating_add(typed) / 3)
            .max(1)
    }

    /// Whether a question asked about a whole structure.
    pub fn asks_whole(&self) -> bool {
        asks_whole(&self.probes)
    }
}

/// Whether each lookup in the type indexes, as the cache writes it, gets its recorded answer in
/// one project state ([`TypedProbes::hold_judged`]), shared by the workers of a run.
#[derive(Debug)]
pub struct Judged {
    shards: [std::sync::Mutex<std::collections::HashMap<Box<str>, bool>>; 16],
}

impl Default for Judged {
    fn default() -> Self {
        Self {
            shards: std::array::from_fn(|_| std::sync::Mutex::default()),
        }
    }
}

impl Judged {
    fn shard(
        &self,
        text: &str,
    ) -> Option<&std::sync::Mutex<std::collections::HashMap<Box<str>, bool>>> {
        use std::hash::Hasher;
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        hasher.write(text.as_bytes());
        let index = usize::try_from(hasher.finish() % 16).unwrap_or(0);
        self.shards.get(index)
    }

    fn get(&self, text: &str) -> Option<bool> {
        self.shard(text)?.lock().ok()?.get(text).copied()
    }

    fn insert(&self, text: &str, holds: bool) {
        if let Some(mut shard) = self.shard(text).and_then(|shard| shard.lock().ok()) {
            shard.insert(text.into(), holds);
        }
    }
}

/// An entry's lookups in the type indexes. Read from the disk they stay the cache's text until
/// they must be judged: an entry made in a project of the same shape needs no judging
/// (`refresh_typed` in `input/extract/files.rs`), and they are most of a Java, Kotlin or C#
/// entry's text (58% of a 3,000-file C# project's cache), which parsing took most of a cached
/// run's time and memory.
#[derive(Debug, Clone)]
pub enum TypedProbes {
    /// As the extraction recorded them.
    Parsed(Vec<Probe>),
    /// As the cache holds them (a JSON array of probes).
    Stored(Box<serde_json::value::RawValue>),
    /// Left on the disk by [`ExtractionCache::read_newest`]: an entry made in a project of the
    /// same shape needs no judging, and one that does is read again
    /// (`refresh_typed` in `input/extract/files.rs`). Such an entry is never written.
    Deferred,
}

impl Default for TypedProbes {
    fn default() -> Self {
        Self::Parsed(Vec::new())
    }
}

impl TypedProbes {
    /// Whether the extraction looked nothing up.
    pub fn is_empty(&self) -> bool {
        match self {
            Self::Parsed(probes) => probes.is_empty(),
            Self::Stored(text) => text.get().trim() == "[]",
            Self::Deferred => false,
        }
    }

    /// The lookups; `None` when the stored text is not a list of probes (the entry then holds
    /// in no project: the file is extracted again).
    pub fn probes(&self) -> Option<std::borrow::Cow<'_, [Probe]>> {
        match self {
            Self::Parsed(probes) => Some(std::borrow::Cow::Borrowed(probes)),
            Self::Stored(text) => serde_json::from_str::<Vec<Probe>>(text.get())
                .ok()
                .map(std::borrow::Cow::Owned),
            Self::Deferred => None,
        }
    }

    /// Whether every lookup gets the answer it got.
    pub fn hold(&self, context: &extractors::ProjectContext) -> bool {
        self.probes()
            .is_some_and(|probes| probes.iter().all(|probe| probe.holds(context)))
    }

    /// [`TypedProbes::hold`], with the answers judged so far in this project state: a lookup as
    /// the cache holds it is parsed and asked once, however many files made it (the files of a
    /// namespace ask much the same).
    pub fn hold_judged(&self, context: &extractors::ProjectContext, judged: &Judged) -> bool {
        let Self::Stored(text) = self else {
            return self.hold(context);
        };
        let Ok(lookups) = serde_json::from_str::<Vec<&serde_json::value::RawValue>>(text.get())
        else {
            return false;
        };
        lookups.iter().all(|lookup| {
            let text = lookup.get();
            if let Some(holds) = judged.get(text) {
                return holds;
            }
            let holds = serde_json::from_str::<Probe>(text).is_ok_and(|probe| probe.holds(context));
            judged.insert(text, holds);
            holds
        })
    }

    /// The lookups as the cache writes them, to compare two entries' lookups.
    fn text(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Self::Parsed(probes) => {
                std::borrow::Cow::Owned(serde_json::to_string(probes).unwrap_or_default())
            }
            Self::Stored(text) => std::borrow::Cow::Borrowed(text.get()),
            Self::Deferred => std::borrow::Cow::Borrowed(""),
        }
    }
}

impl Serialize for TypedProbes {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Parsed(probes) => probes.serialize(serializer),
            Self::Stored(text) => text.serialize(serializer),
            // Its lookups are not in memory: writing the entry would lose them.
            Self::Deferred => Err(serde::ser::Error::custom("lookups left unread")),
        }
    }
}

impl<'de> Deserialize<'de> for TypedProbes {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Box::<serde_json::value::RawValue>::deserialize(deserializer).map(Self::Stored)
    }
}

/// The hash an entry keeps of each part of the declarations its lookups read
/// ([`FileEntry::parts`]): 64-bit FNV-1a of the part's name. Two parts with one hash only make
/// an entry ask its lookups when either changed.
pub fn part_hash(part: &str) -> u64 {
    part.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The [`part_hash`]es of the parts an entry's lookups read ([`FileEntry::parts`]), sorted;
/// written as one string of 16 hex digits each, which reads back faster than a list of numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartHashes(Box<[u64]>);

impl Serialize for PartHashes {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let text: String = self.0.iter().map(|hash| format!("{hash:016x}")).collect();
        serializer.serialize_str(&text)
    }
}

impl<'de> Deserialize<'de> for PartHashes {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Hex;
        impl serde::de::Visitor<'_> for Hex {
            type Value = PartHashes;
            fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                formatter.write_str("part hashes in hex")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<PartHashes, E> {
                let bytes = text.as_bytes();
                if !bytes.len().is_multiple_of(16) {
                    return Err(E::custom("part hashes of 16 hex digits each"));
                }
                let mut hashes = Vec::with_capacity(bytes.len() / 16);
                for chunk in bytes.chunks_exact(16) {
                    let mut hash: u64 = 0;
                    for &digit in chunk {
                        let value = match digit {
                            b'0'..=b'9' => digit - b'0',
                            b'a'..=b'f' => digit - b'a' + 10,
                            _ => return Err(E::custom("a part hash that is no hex")),
                        };
                        hash = (hash << 4) | u64::from(value);
                    }
                    hashes.push(hash);
                }
                // Sorted, as `reads_none_of` searches them.
                if !hashes.is_sorted() {
                    return Err(E::custom("part hashes out of order"));
                }
                Ok(PartHashes(hashes.into_boxed_slice()))
            }
        }
        deserializer.deserialize_str(Hex)
    }
}

/// Whether any of `probes` asked about a whole structure.
pub fn asks_whole(probes: &[Probe]) -> bool {
    probes
        .iter()
        .any(|probe| matches!(probe, Probe::Whole | Probe::Files))
}

/// The project's shape an entry with `probes` depends on: `files` (with the file list) when a
/// question needs it, else `types`.
pub fn shape_for<'a>(probes: &[Probe], types: &'a str, files: &'a str) -> &'a str {
    if probes.contains(&Probe::Files) {
        files
    } else {
        types
    }
}

/// The first line of a stored entry: its identity and the newest entry but for its lookups in
/// the type indexes. The lookups follow on the second line, with the shape they were made in
/// ([`Lookups`]), and the older entries on the third (a JSON array of [`FileEntry`]): reading
/// the newest entry (`read_newest`) parses the first line alone, since the lookups are needed
/// only when the project's shape differs, and the older entries only when the newest no longer
/// holds. Compact JSON holds no line break, so each line is found by the next `\n`.
#[derive(Debug, Deserialize)]
struct Head {
    format: u32,
    version: String,
    key: String,
    file: String,
    entry: EntryHead,
    /// How many older entries the third line holds.
    #[serde(default)]
    variants: usize,
}

/// A [`FileEntry`] without its lookups in the type indexes, as the first line holds it.
#[derive(Debug, Deserialize)]
struct EntryHead {
    outcome: CachedOutcome,
    #[serde(default)]
    declarations: Option<extractors::TypeDeclarations>,
    #[serde(default)]
    probes: Vec<Probe>,
    /// Whether the second line holds lookups.
    #[serde(default)]
    typed: bool,
    #[serde(default)]
    shape: Option<String>,
    #[serde(default)]
    parts: Option<PartHashes>,
}

/// The second line of a stored entry: the newest entry's lookups in the type indexes and the
/// project shape it was made in.
#[derive(Debug, Deserialize)]
struct Lookups {
    #[serde(default)]
    shape: Option<String>,
    typed: TypedProbes,
}

/// [`Head`] as written: it borrows the file's entry.
#[derive(Debug, Serialize)]
struct HeadRef<'a> {
    format: u32,
    version: &'a str,
    key: &'a str,
    file: &'a str,
    entry: EntryHeadRef<'a>,
    #[serde(skip_serializing_if = "is_zero")]
    variants: usize,
}

/// [`EntryHead`] as written.
#[derive(Debug, Serialize)]
struct EntryHeadRef<'a> {
    outcome: &'a CachedOutcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    declarations: &'a Option<extractors::TypeDeclarations>,
    #[serde(skip_serializing_if = "<[Probe]>::is_empty")]
    probes: &'a [Probe],
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    typed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    shape: &'a Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    parts: &'a Option<PartHashes>,
}

/// [`Lookups`] as written.
#[derive(Debug, Serialize)]
struct LookupsRef<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    shape: &'a Option<String>,
    typed: &'a TypedProbes,
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

/// The three lines of a stored entry ([`Head`]); `None` when they are not there.
fn lines(bytes: &[u8]) -> Option<(&[u8], &[u8], &[u8])> {
    let first = memchr::memchr(b'\n', bytes)?;
    let (head, rest) = (bytes.get(..first)?, bytes.get(first + 1..)?);
    let second = memchr::memchr(b'\n', rest)?;
    Some((head, rest.get(..second)?, rest.get(second + 1..)?))
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

/// Hex SHA-256 of `parts`, each followed by a NUL.
pub fn digest<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part);
        hasher.update(b"\0");
    }
    hex(&hasher.finalize())
}

/// Lowercase hex of `bytes`, written into one string (a `format!` per byte costs more than
/// the hash of a short key).
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        for nibble in [byte >> 4, byte & 0x0f] {
            text.push(char::from(
                DIGITS.get(usize::from(nibble)).copied().unwrap_or(b'0'),
            ));
        }
    }
    text
}

/// The git blob id of `bytes`: a work-tree file's content identity, the same as the blob id of
/// that content in a commit or the index, so the scopes share entries. It is hashed with plain
/// SHA-1 (the processor's SHA instructions when it has them), not the collision-detecting
/// SHA-1 of libgit2, which took 14% of a cached check of a 3,000-file project; the blob ids of
/// a commit or the index come from git, which detects collisions when it writes them.
pub fn content_id(bytes: &[u8]) -> String {
    use sha1::Digest as _;
    let mut hasher = sha1::Sha1::new();
    hasher.update(format!("blob {}\0", bytes.len()).as_bytes());
    hasher.update(bytes);
    hex(&hasher.finalize())
}

/// Opens `path` for reading only if it is a regular file (never through a symbolic link, never
/// blocking on a FIFO), with its metadata from the open handle.
///
/// The path is looked at (`lstat`) before it is opened, so that nothing but a regular file is
/// ever opened (opening some devices acts on them); the handle is then checked again, as the
/// path may have been replaced in between. A cached run opens an entry per file of the project:
/// with the read and the close this is five system calls, where it was seven.
fn open_regular(path: &Path) -> Option<(std::fs::File, std::fs::Metadata)> {
    if !std::fs::symlink_metadata(path).ok()?.is_file() {
        return None;
    }
    let mut options = std::fs::File::options();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        libc::O_NONBLOCK | libc::O_NOFOLLOW,
    );
    let file = options.open(path).ok()?;
    let metadata = file.metadata().ok()?;
    metadata.is_file().then_some((file, metadata))
}

/// The whole content of an entry file opened by [`open_regular`], when it is within
/// [`MAX_ENTRY_BYTES`]: entries are written once and renamed into place, so the size the handle
/// reported is the content's, read with one call (a file cut short meanwhile is a miss).
fn read_entry_file(mut file: std::fs::File, metadata: &std::fs::Metadata) -> Option<Vec<u8>> {
    if metadata.len() > MAX_ENTRY_BYTES {
        return None;
    }
    let mut bytes = vec![0; usize::try_from(metadata.len()).ok()?];
    file.read_exact(&mut bytes).ok()?;
    Some(bytes)
}

/// lintel's folder in the user's cache directory (`$XDG_CACHE_HOME/lintel`, else
/// `$HOME/.cache/lintel`), when one can be named by an absolute path; never inside a project.
pub fn lintel_cache_home() -> Option<PathBuf> {
    // A relative `XDG_CACHE_HOME` (or `HOME`) is ignored, as the XDG specification says: it
    // would put the cache inside whatever folder lintel runs in, a project included.
    let absolute = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|path| path.is_absolute())
    };
    let base =
        absolute("XDG_CACHE_HOME").or_else(|| absolute("HOME").map(|home| home.join(".cache")))?;
    Some(base.join("lintel"))
}

impl ExtractionCache {
    /// The user's cache directory, when one can be named: `$XDG_CACHE_HOME/lintel` when that is
    /// an absolute path (a relative one is ignored, as the XDG specification says), else
    /// `$HOME/.cache/lintel` when `HOME` is absolute.
    pub fn locate() -> Option<Self> {
        Some(Self {
            directory: lintel_cache_home()?.join("files"),
            disk: true,
            spill_only: false,
            spill: None,
            memory: None,
        })
    }

    /// A cache rooted at `directory`.
    pub fn at(directory: &Path) -> Self {
        Self {
            directory: directory.to_path_buf(),
            disk: true,
            spill_only: false,
            spill: None,
            memory: None,
        }
    }

    /// A cache in memory only, for one `--diff` run under `--no-cache`: see
    /// [`ExtractionCache::remembering`].
    pub fn in_memory() -> Self {
        Self {
            directory: PathBuf::new(),
            disk: false,
            spill_only: false,
            spill: None,
            memory: None,
        }
        .remembering()
    }

    /// This cache, with a memory for one `--diff` run: every entry the merge base's extraction
    /// makes is also kept in memory, within a bound (until [`ExtractionCache::stop_remembering`]),
    /// and a lookup takes its key's entry from there before the disk, so a blob the two sides
    /// share is extracted once. An entry the base read from the disk is read there again.
    pub fn remembering(&self) -> Self {
        let memory = Memory::default();
        memory
            .remembering
            .store(true, std::sync::atomic::Ordering::Relaxed);
        Self {
            memory: Some(std::sync::Arc::new(memory)),
            ..self.clone()
        }
    }

    /// Keeps no more entries in memory (those kept stay, for the head to take).
    pub fn stop_remembering(&self) {
        if let Some(memory) = &self.memory {
            memory
                .remembering
                .store(false, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// This cache (a run's own directory), writing an entry only when memory cannot keep it.
    pub fn spilling(&self) -> Self {
        let spill = tempfile::tempfile_in(&self.directory).ok().map(|file| {
            std::sync::Arc::new(Spill {
                file: std::sync::Mutex::new(file),
                index: std::sync::Mutex::default(),
            })
        });
        Self {
            spill_only: true,
            spill,
            ..self.clone()
        }
    }

    /// Counts `entry` against the memory's bound, while remembering; whether it may be kept.
    fn reserve(&self, entry: &FileEntry) -> bool {
        let Some(memory) = &self.memory else {
            return false;
        };
        if !memory
            .remembering
            .load(std::sync::atomic::Ordering::Relaxed)
        {
            return false;
        }
        let weight = entry.weight();
        memory
            .facts
            .fetch_add(weight, std::sync::atomic::Ordering::Relaxed)
            .saturating_add(weight)
            <= MEMORY_FACTS
    }

    /// Keeps `entry` in memory (moved: only its outcome is copied, for the caller) when
    /// `reserved`; returns the outcome.
    fn keep(&self, key: &str, entry: FileEntry, reserved: bool) -> CachedOutcome {
        let entries = self
            .memory
            .as_ref()
            .filter(|_| reserved)
            .and_then(|memory| memory.entries.lock().ok());
        match entries {
            Some(mut entries) => {
                let outcome = entry.outcome.clone();
                entries.insert(key.to_owned(), entry);
                outcome
            }
            None => entry.outcome,
        }
    }

    /// Stores a freshly extracted `entry` on the disk (also under `shaped`, the key of its
    /// project shape) and keeps it in memory for the other side of a `--diff`, while
    /// remembering and within the bound: moved, not copied, but for its facts, which the caller
    /// changes. A run's own directory ([`ExtractionCache::spilling`]) gets only what memory
    /// cannot keep. Returns the entry's outcome.
    pub fn keep_extracted(
        &self,
        key: &str,
        file: &str,
        entry: FileEntry,
        shaped: Option<&str>,
    ) -> CachedOutcome {
        let reserved = self.reserve(&entry);
        if !(reserved && self.spill_only) {
            self.store(key, file, &entry);
            if let Some(shaped) = shaped {
                self.store(shaped, file, &entry);
            }
        }
        self.keep(key, entry, reserved)
    }

    /// The options part of every key of a run: lintel's version and build, and the options
    /// that change extraction (`gitattributes`: the root `.gitattributes` as read).
    pub fn options_key(
        include_generated: bool,
        generic: &extractors::GenericFacts,
        gitattributes: &str,
    ) -> String {
        Self::options_key_for_build(build_identity(), include_generated, generic, gitattributes)
    }

    fn options_key_for_build(
        build: &str,
        include_generated: bool,
        generic: &extractors::GenericFacts,
        gitattributes: &str,
    ) -> String {
        let options = format!(
            "lintel {} build {build} cache {CACHE_FORMAT} generated={include_generated} generic={generic}",
            env!("CARGO_PKG_VERSION")
        );
        digest([options.as_bytes(), gitattributes.as_bytes()])
    }

    /// The key of a file: the run's options, its path and its content id.
    pub fn key(options: &str, file: &str, content: &str) -> String {
        digest([options.as_bytes(), file.as_bytes(), content.as_bytes()])
    }

    /// The second key of an entry that depends on the project's shape: the entry of a file
    /// under `key` in a project of shape `shape`.
    pub fn shaped_key(key: &str, shape: &str) -> String {
        digest([key.as_bytes(), b"shape", shape.as_bytes()])
    }

    fn path(&self, key: &str) -> PathBuf {
        let (shard, rest) = key.split_at(key.len().min(2));
        self.directory.join(shard).join(format!("{rest}.json"))
    }

    /// The entry of `file` stored under `key`, if a valid one exists: taken from memory while
    /// the other side of `--diff` has not taken it, else read from the disk.
    pub fn load(&self, key: &str, file: &str) -> Option<FileEntry> {
        self.take_remembered(key)
            .or_else(|| self.read_stored(key, file).into_iter().next())
    }

    /// The entry the other side of a `--diff` remembered under `key`, taken (moved) from memory.
    pub fn take_remembered(&self, key: &str) -> Option<FileEntry> {
        self.memory
            .as_ref()?
            .entries
            .lock()
            .ok()
            .and_then(|mut entries| entries.remove(key))
    }

    /// The entries of `file` stored on the disk under `key`, newest first (none for a cache in
    /// memory only).
    pub fn read_stored(&self, key: &str, file: &str) -> Vec<FileEntry> {
        if self.disk {
            self.read_variants(key, file)
        } else {
            Vec::new()
        }
    }

    /// The newest entry of `file` stored on the disk under `key`, and whether older ones are
    /// kept beside it ([`ExtractionCache::read_stored`] reads them all): only the entry's first
    /// line is parsed ([`Head`]), so its lookups in the type indexes stay on the disk
    /// ([`TypedProbes::Deferred`]) and the older entries unread.
    pub fn read_newest(&self, key: &str, file: &str) -> Option<(FileEntry, bool)> {
        if !self.disk {
            return None;
        }
        let bytes = self.read_bytes(key)?;
        let (head, _, _) = lines(&bytes)?;
        let (entry, variants) = Self::head_of(head, key, file)?;
        Some((entry, variants > 0))
    }

    /// The lookups in the type indexes that [`ExtractionCache::read_newest`] left on the disk,
    /// when the newest entry stored under `key` is still the one made in project shape `shape`
    /// (another run may have stored a newer one since): the entry's second line alone.
    pub fn read_newest_lookups(&self, key: &str, shape: Option<&str>) -> Option<TypedProbes> {
        if !self.disk {
            return None;
        }
        // The key names the file's path and content and lintel's build, so the first line,
        // which `read_newest` checked, need not be read again.
        let bytes = self.read_bytes(key)?;
        let (_, lookups, _) = lines(&bytes)?;
        let lookups: Lookups = serde_json::from_slice(lookups).ok()?;
        (lookups.shape.as_deref() == shape).then_some(lookups.typed)
    }

    /// The entries stored on the disk under `key` for `file`, newest first.
    fn read_variants(&self, key: &str, file: &str) -> Vec<FileEntry> {
        let Some(bytes) = self.read_bytes(key) else {
            return Vec::new();
        };
        let Some((head, lookups, older)) = lines(&bytes) else {
            return Vec::new();
        };
        let Some((mut entry, variants)) = Self::head_of(head, key, file) else {
            return Vec::new();
        };
        if matches!(entry.typed, TypedProbes::Deferred) {
            match serde_json::from_slice::<Lookups>(lookups) {
                Ok(lookups) if lookups.shape == entry.shape => entry.typed = lookups.typed,
                _ => return Vec::new(),
            }
        }
        let mut older: Vec<FileEntry> = if variants > 0 {
            match serde_json::from_slice(older) {
                Ok(older) => older,
                Err(_) => return Vec::new(),
            }
        } else {
            Vec::new()
        };
        for variant in &mut older {
            if let CachedOutcome::Extracted { facts, .. } = &mut variant.outcome {
                compact(file, facts);
            }
        }
        std::iter::once(entry).chain(older).collect()
    }

    /// The bytes stored under `key` (in the run's spill file, or the entry's file), if they are
    /// a regular file within the size bound.
    fn read_bytes(&self, key: &str) -> Option<Vec<u8>> {
        if let Some(spill) = &self.spill {
            return spill.read(key);
        }
        let path = self.path(key);
        let (handle, metadata) = open_regular(&path)?;
        let bytes = read_entry_file(handle, &metadata)?;
        // Keep the entry's place in the eviction order; failure only makes it older.
        let age = metadata
            .modified()
            .ok()
            .and_then(|modified| SystemTime::now().duration_since(modified).ok());
        if age.is_some_and(|age| age > REFRESH_AFTER) {
            if let Ok(writable) = std::fs::File::options().append(true).open(&path) {
                let _ = writable.set_modified(SystemTime::now());
            }
        }
        Some(bytes)
    }

    /// The newest entry of `file` under `key` that an entry's first line holds, if it is a
    /// valid one (its lookups left on the disk), and how many older entries follow it.
    fn head_of(head: &[u8], key: &str, file: &str) -> Option<(FileEntry, usize)> {
        let head: Head = serde_json::from_slice(head).ok()?;
        let valid = head.format == CACHE_FORMAT
            && head.version == env!("CARGO_PKG_VERSION")
            && head.key == key
            && head.file == file;
        if !valid {
            return None;
        }
        let EntryHead {
            mut outcome,
            declarations,
            probes,
            typed,
            shape,
            parts,
        } = head.entry;
        if let CachedOutcome::Extracted { facts, .. } = &mut outcome {
            compact(file, facts);
        }
        let typed = if typed {
            TypedProbes::Deferred
        } else {
            TypedProbes::default()
        };
        let entry = FileEntry {
            outcome,
            declarations,
            probes,
            typed,
            shape,
            parts,
        };
        Some((entry, head.variants))
    }

    /// Stores `file`'s entry under `key`; failures are ignored (the cache is an optimisation).
    /// An entry whose facts depend on lookups in the type indexes keeps beside it up to
    /// [`MAX_VARIANTS`] older entries that got other answers (the base and the head of a
    /// `--diff` that changes a looked-up type each keep theirs).
    pub fn store(&self, key: &str, file: &str, entry: &FileEntry) {
        if !self.disk || matches!(entry.typed, TypedProbes::Deferred) {
            // An entry whose lookups were left on the disk would lose them.
            return;
        }
        let variants: Vec<FileEntry> = if entry.typed.is_empty() {
            Vec::new()
        } else {
            let text = entry.typed.text();
            self.read_variants(key, file)
                .into_iter()
                .filter(|variant| variant.probes != entry.probes || variant.typed.text() != text)
                .take(MAX_VARIANTS - 1)
                .collect()
        };
        let head = HeadRef {
            format: CACHE_FORMAT,
            version: env!("CARGO_PKG_VERSION"),
            key,
            file,
            entry: EntryHeadRef {
                outcome: &entry.outcome,
                declarations: &entry.declarations,
                probes: &entry.probes,
                typed: !entry.typed.is_empty(),
                shape: &entry.shape,
                parts: &entry.parts,
            },
            variants: variants.len(),
        };
        let lookups = LookupsRef {
            shape: &entry.shape,
            typed: &entry.typed,
        };
        let write = |text: &mut Vec<u8>| -> bool {
            serde_json::to_writer(&mut *text, &head).is_ok()
                && {
                    text.push(b'\n');
                    entry.typed.is_empty() || serde_json::to_writer(&mut *text, &lookups).is_ok()
                }
                && {
                    text.push(b'\n');
                    variants.is_empty() || serde_json::to_writer(&mut *text, &variants).is_ok()
                }
                // Compact JSON has no line break; a stored text that had one would end a line.
                && text.iter().filter(|byte| **byte == b'\n').count() == 2
        };
        let mut text = Vec::new();
        if !write(&mut text) {
            return;
        }
        if let Some(spill) = &self.spill {
            spill.write(key, &text);
            return;
        }
        self.write_atomically(key, |writer| {
            std::io::Write::write_all(writer, &text).is_ok()
        });
    }

    /// Whether this cache keeps documents on the disk for later runs (the user's cache, not a
    /// run's own directory or memory).
    pub fn is_shared(&self) -> bool {
        self.disk && !self.spill_only && self.spill.is_none()
    }

    /// The document stored under `key` by [`ExtractionCache::store_document`], if a readable
    /// one exists (a corrupt one is the caller's miss).
    pub fn load_document(&self, key: &str) -> Option<Vec<u8>> {
        if !self.is_shared() {
            return None;
        }
        let (handle, metadata) = open_regular(&self.path(key))?;
        read_entry_file(handle, &metadata)
    }

    /// Whether a document is stored under `key` (it may still be unreadable).
    pub fn has_document(&self, key: &str) -> bool {
        self.is_shared()
            && std::fs::symlink_metadata(self.path(key)).is_ok_and(|metadata| metadata.is_file())
    }

    /// Stores `bytes` under `key` atomically, beside the entries (and pruned with them);
    /// failures are ignored.
    pub fn store_document(&self, key: &str, bytes: &[u8]) {
        if self.is_shared() {
            self.write_atomically(key, |writer| {
                std::io::Write::write_all(writer, bytes).is_ok()
            });
        }
    }

    /// Writes the file of `key` through a temporary file and a rename.
    fn write_atomically(
        &self,
        key: &str,
        write: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> bool,
    ) {
        static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let path = self.path(key);
        let Some(folder) = path.parent() else {
            return;
        };
        if std::fs::create_dir_all(folder).is_err() {
            return;
        }
        let serial = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let temporary = folder.join(format!(".{}.{}.{serial}.tmp", std::process::id(), key));
        let written = std::fs::File::options()
            .write(true)
            .create_new(true)
            .open(&temporary)
            .is_ok_and(|handle| {
                let mut writer = std::io::BufWriter::new(handle);
                write(&mut writer) && std::io::Write::flush(&mut writer).is_ok()
            });
        if !(written && std::fs::rename(&temporary, &path).is_ok()) {
            let _ = std::fs::remove_file(&temporary);
        }
    }

    /// Prunes the directory when the last pruning is older than [`PRUNE_INTERVAL`] (call after
    /// a run that stored entries).
    pub fn prune_if_due(&self) {
        if !self.disk || self.spill.is_some() {
            return;
        }
        let marker = self.directory.join(".pruned");
        let due = std::fs::metadata(&marker)
            .and_then(|metadata| metadata.modified())
            .ok()
            .and_then(|modified| SystemTime::now().duration_since(modified).ok())
            .is_none_or(|age| age > PRUNE_INTERVAL);
        if due {
            // Mark first: concurrent runs then skip pruning rather than all prune at once.
            let _ = std::fs::write(&marker, b"");
            self.prune(MAX_BYTES);
        }
    }

    /// Deletes the least recently used entries beyond `max_bytes`, and stale temporary files.
    /// Failures are ignored: another run may be pruning at the same time.
    pub fn prune(&self, max_bytes: u64) {
        let Ok(shards) = std::fs::read_dir(&self.directory) else {
            return;
        };
        let now = SystemTime::now();
        let mut entries: Vec<(SystemTime, PathBuf, u64)> = Vec::new();
        for shard in shards.flatten() {
            if !shard.file_type().is_ok_and(|kind| kind.is_dir()) {
                continue;
            }
            let Ok(listing) = std::fs::read_dir(shard.path()) else {
                continue;
            };
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
                } else if name.ends_with(".json") {
                    entries.push((modified, path, metadata.len()));
                }
            }
        }
        // Newest first.
        entries.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut total = 0_u64;
        for (_, path, size) in &entries {
            total = total.saturating_add(*size);
            if total > max_bytes {
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A work-tree file's content identity is git's blob id of that content, so that entries
    /// made from a commit's blobs serve the work tree and the other way round.
    #[test]
    fn content_ids_are_git_blob_ids() {
        let long: Vec<u8> = (0..10_000u32)
            .map(|i| u8::try_from(i * 31 % 251).unwrap_or(0))
            .collect();
        for bytes in [
            &b""[..],
            b"a",
            b"fn main() {}\n",
            &[0, 159, 146, 150],
            &long[..],
        ] {
            let git = git2::Oid::hash_object(git2::ObjectType::Blob, bytes)
                .expect("git hashes any bytes")
                .to_string();
            assert_eq!(content_id(bytes), git, "{} bytes", bytes.len());
        }
    }

    fn entry(reason: &str) -> FileEntry {
        FileEntry::new(
            CachedOutcome::Skipped(reason.to_owned()),
            None,
            Vec::new(),
            None,
        )
    }

    /// An entry of a Java file that looked up package `p` and got `answer`.
    fn typed(reason: &str, answer: &str) -> FileEntry {
        FileEntry::new(
            CachedOutcome::Skipped(reason.to_owned()),
            None,
            vec![Probe::Types {
                index: extractors::probes::IndexOf::Jvm,
                question: extractors::probes::TypeQuestion::Package("p".to_owned()),
                answer: answer.to_owned(),
            }],
            None,
        )
    }

    fn age(path: &Path, seconds_ago: u64) {
        let time = SystemTime::now() - Duration::from_secs(seconds_ago);
        std::fs::File::options()
            .append(true)
            .open(path)
            .unwrap()
            .set_modified(time)
            .unwrap();
    }

    fn reason(entry: Option<FileEntry>) -> Option<String> {
        match entry?.outcome {
            CachedOutcome::Skipped(reason) => Some(reason),
            _ => None,
        }
    }

    #[test]
    fn keys_differ_by_build_options_path_and_content() {
        let none = extractors::GenericFacts::NONE;
        let options = |build: &str, generated: bool, attributes: &str| {
            ExtractionCache::options_key_for_build(build, generated, &none, attributes)
        };
        assert_eq!(options("100:1", false, ""), options("100:1", false, ""));
        assert_ne!(options("100:1", false, ""), options("100:2", false, ""));
        assert_ne!(options("100:1", false, ""), options("101:1", false, ""));
        assert_ne!(options("100:1", false, ""), options("100:1", true, ""));
        assert_ne!(options("100:1", false, ""), options("100:1", false, "blob"));
        assert_ne!(
            ExtractionCache::options_key_for_build("1", false, &none, ""),
            ExtractionCache::options_key_for_build("1", false, &extractors::GenericFacts::ALL, "")
        );
        let base = options("1", false, "");
        let key = ExtractionCache::key(&base, "src/a.ts", "blob1");
        assert_eq!(key, ExtractionCache::key(&base, "src/a.ts", "blob1"));
        assert_ne!(key, ExtractionCache::key(&base, "src/b.ts", "blob1"));
        assert_ne!(key, ExtractionCache::key(&base, "src/a.ts", "blob2"));
        // The running test binary has an identity.
        assert!(!build_identity().is_empty());
        // A work-tree file's content id is its git blob id.
        assert_eq!(
            content_id(b"hello\n"),
            "ce013625030ba8dba906f756967f9e9ca394464a"
        );
    }

    #[test]
    fn an_entry_is_read_back_for_its_file_only() {
        let directory = tempfile::tempdir().unwrap();
        let cache = ExtractionCache::at(directory.path());
        cache.store("abcd", "src/a.ts", &entry("kept"));
        assert_eq!(
            reason(cache.load("abcd", "src/a.ts")).as_deref(),
            Some("kept")
        );
        assert!(cache.load("abcd", "src/b.ts").is_none());
        assert!(cache.load("abce", "src/a.ts").is_none());
    }

    /// A `--diff` run without a cache writes what memory cannot keep into one unnamed file of
    /// its own directory, and reads each entry back for its file only.
    #[test]
    fn a_run_without_a_cache_spills_into_one_unnamed_file() {
        let directory = tempfile::tempdir().unwrap();
        let cache = ExtractionCache::at(directory.path())
            .remembering()
            .spilling();
        cache.stop_remembering();
        for n in 0..50 {
            let key = format!("k{n}");
            let _ = cache.keep_extracted(&key, "src/a.ts", entry(&key), None);
        }
        let _ = cache.keep_extracted("k7", "src/a.ts", entry("k7 again"), None);
        for n in (0..50).filter(|n| *n != 7) {
            let key = format!("k{n}");
            assert_eq!(reason(cache.load(&key, "src/a.ts")), Some(key));
        }
        assert_eq!(
            reason(cache.load("k7", "src/a.ts")).as_deref(),
            Some("k7 again")
        );
        assert!(cache.load("k1", "src/b.ts").is_none());
        assert!(cache.load("k50", "src/a.ts").is_none());
        assert_eq!(std::fs::read_dir(directory.path()).unwrap().count(), 0);
    }

    #[test]
    fn entries_that_looked_up_types_keep_their_variants_and_others_are_replaced() {
        let directory = tempfile::tempdir().unwrap();
        let cache = ExtractionCache::at(directory.path());
        let reasons = |cache: &ExtractionCache| -> Vec<String> {
            cache
                .read_stored("k", "A.java")
                .into_iter()
                .filter_map(|variant| reason(Some(variant)))
                .collect()
        };
        // The base and the head of a range that changes package `p` each keep theirs, newest
        // first; storing the same answers again replaces that variant.
        cache.store("k", "A.java", &typed("base", "one"));
        cache.store("k", "A.java", &typed("head", "two"));
        assert_eq!(reasons(&cache), ["head", "base"]);
        cache.store("k", "A.java", &typed("base again", "one"));
        assert_eq!(reasons(&cache), ["base again", "head"]);
        // At most MAX_VARIANTS are kept.
        for n in 0..MAX_VARIANTS + 2 {
            cache.store("k", "A.java", &typed(&format!("v{n}"), &n.to_string()));
        }
        assert_eq!(reasons(&cache).len(), MAX_VARIANTS);
        assert_eq!(reasons(&cache).first().map(String::as_str), Some("v5"));
        // An entry that looked up no type replaces every variant.
        cache.store("k", "A.java", &entry("plain"));
        assert_eq!(reasons(&cache), ["plain"]);
    }

    #[test]
    fn the_newest_entry_is_read_without_its_lookups_or_older_entries_and_is_never_written_so() {
        let directory = tempfile::tempdir().unwrap();
        let cache = ExtractionCache::at(directory.path());
        cache.store("k", "A.java", &entry("plain"));
        let (newest, older) = cache.read_newest("k", "A.java").unwrap();
        assert_eq!(reason(Some(newest.clone())).as_deref(), Some("plain"));
        assert!(!older);
        assert!(newest.typed.is_empty(), "an entry that looked up no type");
        cache.store("k", "A.java", &typed("base", "one"));
        cache.store("k", "A.java", &typed("head", "two"));
        let (newest, older) = cache.read_newest("k", "A.java").unwrap();
        assert_eq!(reason(Some(newest.clone())).as_deref(), Some("head"));
        assert!(older, "the base's entry is kept beside it");
        assert!(matches!(newest.typed, TypedProbes::Deferred));
        assert!(
            newest.typed.probes().is_none(),
            "its lookups are not in memory"
        );
        // Written, such an entry would lose its lookups: it is not written at all.
        let path = cache.path("k");
        let before = std::fs::read(&path).unwrap();
        cache.store("k", "A.java", &newest);
        assert_eq!(std::fs::read(&path).unwrap(), before);
        let kept: Vec<Option<String>> = cache
            .read_stored("k", "A.java")
            .into_iter()
            .map(|variant| reason(Some(variant)))
            .collect();
        assert_eq!(
            kept,
            [
                Some("head".into()),
                Some("base".into()),
                Some("plain".into())
            ]
        );
        // A file that is not the entry's reads nothing.
        assert!(cache.read_newest("k", "B.java").is_none());
    }

    #[test]
    fn corrupt_oversized_and_non_regular_entries_are_misses() {
        let directory = tempfile::tempdir().unwrap();
        let cache = ExtractionCache::at(directory.path());
        cache.store("k1", "a", &entry("x"));
        let path = cache.path("k1");
        std::fs::write(&path, "{ not json").unwrap();
        assert!(cache.load("k1", "a").is_none());
        std::fs::write(&path, "").unwrap();
        assert!(cache.load("k1", "a").is_none());
        // A directory in place of an entry.
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        assert!(cache.load("k1", "a").is_none());
        // Writing over it fails quietly.
        cache.store("k1", "a", &entry("x"));
        assert!(cache.load("k1", "a").is_none());
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_in_place_of_an_entry_is_a_miss_not_a_hang() {
        let directory = tempfile::tempdir().unwrap();
        let cache = ExtractionCache::at(directory.path());
        cache.store("k2", "a", &entry("x"));
        let path = cache.path("k2");
        std::fs::remove_file(&path).unwrap();
        let status = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(status.success());
        let (sender, receiver) = std::sync::mpsc::channel();
        let loader = cache.clone();
        std::thread::spawn(move || {
            let _ = sender.send(loader.load("k2", "a").is_none());
        });
        assert_eq!(
            receiver.recv_timeout(Duration::from_secs(20)),
            Ok(true),
            "the load returns, as a miss"
        );
        // A symbolic link to a FIFO is not followed either.
        let link = cache.path("k2link");
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&path, &link).unwrap();
        assert!(cache.load("k2link", "a").is_none());
    }

    #[test]
    fn the_least_recently_used_entries_beyond_the_bound_are_evicted() {
        let directory = tempfile::tempdir().unwrap();
        let cache = ExtractionCache::at(directory.path());
        let keys: Vec<String> = (0..10).map(|n| format!("k{n:02}")).collect();
        for (n, key) in keys.iter().enumerate() {
            cache.store(key, "a", &entry(key));
            // Older keys are older on disk, whatever the file system's timestamp resolution.
            age(&cache.path(key), 10_000 - u64::try_from(n).unwrap() * 10);
        }
        let size = std::fs::metadata(cache.path("k00")).unwrap().len();
        cache.prune(size * 4);
        for (n, key) in keys.iter().enumerate() {
            assert_eq!(cache.load(key, "a").is_some(), n >= 6, "{key}");
        }
    }

    #[test]
    fn stale_temporary_files_are_removed_and_fresh_ones_kept() {
        let directory = tempfile::tempdir().unwrap();
        let cache = ExtractionCache::at(directory.path());
        cache.store("abcd", "a", &entry("x"));
        let folder = cache.path("abcd").parent().unwrap().to_path_buf();
        let stale = folder.join(".1.abcd.0.tmp");
        let fresh = folder.join(".2.abcd.0.tmp");
        std::fs::write(&stale, "x").unwrap();
        std::fs::write(&fresh, "x").unwrap();
        age(&stale, 2 * 3600);
        cache.prune(MAX_BYTES);
        assert!(!stale.exists());
        assert!(fresh.exists());
        assert!(cache.load("abcd", "a").is_some());
    }

    #[test]
    fn pruning_runs_at_most_once_per_interval() {
        let directory = tempfile::tempdir().unwrap();
        let cache = ExtractionCache::at(directory.path());
        cache.store("abcd", "a", &entry("x"));
        let folder = cache.path("abcd").parent().unwrap().to_path_buf();
        let stale = folder.join(".1.abcd.0.tmp");
        std::fs::write(&stale, "x").unwrap();
        age(&stale, 2 * 3600);
        cache.prune_if_due();
        assert!(!stale.exists(), "the first run prunes");
        std::fs::write(&stale, "x").unwrap();
        age(&stale, 2 * 3600);
        cache.prune_if_due();
        assert!(stale.exists(), "a run within the interval does not");
        age(
            &directory.path().join(".pruned"),
            PRUNE_INTERVAL.as_secs() + 60,
        );
        cache.prune_if_due();
        assert!(!stale.exists(), "a run after it does");
    }
}
