//! What a whole-project check found, kept beside the extraction cache so that the merge-base
//! side of a later `--diff` need not check the same tree again.
//!
//! Under `--diff` the merge base is checked as a whole with the head's spec: the ids of its
//! findings decide which of the head's are `existing`, and its file-graph edges which chains the
//! change opens. In CI the cache usually comes from a `check --all` of the base commit, which
//! found exactly that. So a whole-project check with the user's cache (`--all`, or the base side
//! of `--diff`) keeps a summary: the ids of its findings, its file-graph edges, and every project
//! file it read with its content id (git's blob id, computed from the bytes read for a work-tree
//! file). The summary's key is everything else its findings follow from: lintel's version and
//! build, the options that change findings, the spec and the reviewed queries, and the project's
//! listing (its files, symbolic links, submodules and the paths it could not list).
//!
//! The base side of `--diff` uses a summary only when every file the summary lists has the same
//! content in the base tree and git found no rename between the base and the head (renamed files
//! are checked under their head paths). Anything else is a miss and the base is checked as
//! before, so a summary never changes output. A run with a slice the solver did not decide keeps
//! none.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::input::cache::{digest, ExtractionCache};
use crate::input::options::CheckOptions;
use crate::input::scope::{ReadLog, Scope};
use crate::input::spec::LoadedSpec;

/// Bumped when a summary's shape or meaning changes.
const SUMMARY_FORMAT: u32 = 1;

/// The findings of a whole-project check, as kept.
#[derive(Debug, Serialize, Deserialize)]
struct Summary {
    format: u32,
    key: String,
    /// Every project file the check read, with its content id.
    reads: BTreeMap<String, Option<String>>,
    /// The ids of its findings (violations, contract and workflow violations and warnings).
    ids: BTreeSet<String>,
    /// Its file-graph edges: the names, then each edge as two indexes into them.
    names: Vec<String>,
    edges: Vec<(u32, u32)>,
}

/// What a whole-project check found: its finding ids and file-graph edges.
#[derive(Debug, Default)]
pub struct Found {
    /// The ids of its findings.
    pub ids: BTreeSet<String>,
    /// Its file-graph edges, as names and pairs of indexes into them.
    pub names: Vec<String>,
    /// The edges.
    pub edges: Vec<(u32, u32)>,
}

/// The key of the summary of checking `scope` as a whole with `spec` under `options`.
pub fn key(options: &CheckOptions, spec: &LoadedSpec, scope: &Scope) -> String {
    let mut parts: Vec<Vec<u8>> = vec![
        format!(
            "lintel {} build {} cache {} summary {SUMMARY_FORMAT}",
            env!("CARGO_PKG_VERSION"),
            crate::input::cache::build_identity(),
            crate::input::cache::CACHE_FORMAT,
        )
        .into_bytes(),
        format!(
            "strict={} generated={} all-facts={} rlimit={} timeout={} filter={:?}",
            options.strict,
            options.include_generated,
            options.keep_all_facts,
            options.rlimit,
            options.timeout_ms,
            options.repo_filter,
        )
        .into_bytes(),
        b"spec".to_vec(),
        serde_json::to_vec(&spec.model).unwrap_or_default(),
        spec.artifact.clone().into_bytes(),
    ];
    parts.extend(spec.spec_files.iter().map(|file| file.clone().into_bytes()));
    parts.push(b"queries".to_vec());
    parts.push(format!("{:?}", spec.queries.set).into_bytes());
    parts.push(b"files".to_vec());
    parts.extend(
        scope
            .project_files
            .iter()
            .map(|file| file.clone().into_bytes()),
    );
    parts.push(b"links".to_vec());
    parts.extend(
        scope
            .symlinks
            .iter()
            .map(|(link, target)| format!("{link} -> {target}").into_bytes()),
    );
    parts.push(b"submodules".to_vec());
    let submodules: BTreeSet<&String> = scope.submodules.iter().collect();
    parts.extend(submodules.into_iter().map(|path| path.clone().into_bytes()));
    parts.push(b"unlisted".to_vec());
    let unlisted: BTreeSet<String> = scope
        .unreadable
        .iter()
        .map(|(path, reason)| format!("{path}: {reason}"))
        .collect();
    parts.extend(unlisted.into_iter().map(String::into_bytes));
    let key = digest(parts.iter().map(Vec::as_slice));
    ExtractionCache::shaped_key(&key, "summary")
}

/// The summary stored under `key` whose every read file has, in `scope` (a git snapshot), the
/// content it was read with.
pub fn load(cache: &ExtractionCache, key: &str, scope: &Scope) -> Option<Found> {
    let bytes = cache.load_document(key)?;
    let summary: Summary = serde_json::from_slice(&bytes).ok()?;
    if summary.format != SUMMARY_FORMAT || summary.key != key {
        return None;
    }
    let same = summary
        .reads
        .iter()
        .all(|(file, id)| scope.blobs.get(file).map(ToString::to_string).as_ref() == id.as_ref());
    let names = u32::try_from(summary.names.len()).ok()?;
    let edges_valid = summary
        .edges
        .iter()
        .all(|(from, to)| *from < names && *to < names);
    (same && edges_valid).then_some(Found {
        ids: summary.ids,
        names: summary.names,
        edges: summary.edges,
    })
}

/// Keeps what a whole-project check found under `key`: `reads` are the files it read (for a
/// work-tree check, its [`ReadLog`]; for a git snapshot, every blob of the scope).
pub fn store(cache: &ExtractionCache, key: &str, reads: Reads<'_>, found: &Found) {
    let reads = match reads {
        Reads::Logged(log) => match log.sorted() {
            Some(reads) => reads,
            None => return,
        },
        Reads::Snapshot(scope) => scope
            .blobs
            .iter()
            .map(|(file, id)| (file.clone(), Some(id.to_string())))
            .collect(),
    };
    let summary = Summary {
        format: SUMMARY_FORMAT,
        key: key.to_owned(),
        reads,
        ids: found.ids.clone(),
        names: found.names.clone(),
        edges: found.edges.clone(),
    };
    if let Ok(bytes) = serde_json::to_vec(&summary) {
        cache.store_document(key, &bytes);
    }
}

/// What a summary's check read.
pub enum Reads<'a> {
    /// The files a work-tree check logged.
    Logged(&'a ReadLog),
    /// Every file of a git snapshot.
    Snapshot(&'a Scope),
}
