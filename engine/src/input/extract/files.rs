//! The passes over the files: the first (read, parse, extract, or take a cached entry; read the
//! declarations of the other Java, Kotlin and C# files), then the second, which resolves the
//! facts that waited for the type indexes, storing every extracted file in the cache.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::{Mutex, TryLockError};

use extractors::probes::{recording, Probe};
use extractors::{first_pass, FileExtraction, FirstPass, ProjectContext, TypeDeclarations};
use policies::facts::FactKind;
use rayon::prelude::*;

use super::text::{declaration_text, skip_reason, source_text};
use crate::input::cache::{CachedOutcome, ExtractionCache, FileEntry};
use crate::input::scope::{read_file, Scope, Snapshot, SOURCE_LIMIT};

/// What the one parallel pass of [`extract_files`] gives for a file: an extracted file's first
/// outcome and declarations, or a cached entry that holds.
enum FirstJob {
    Extracted(Box<Fresh>),
    Cached(Box<Hit>),
}

/// A file extracted in this run.
struct Fresh {
    outcome: FirstOutcome,
    declarations: Option<TypeDeclarations>,
    /// What its extraction asked of the project (recorded only with a cache).
    probes: Vec<Probe>,
    /// Its cache key, when it may be stored.
    key: Option<String>,
}

/// A file whose entry the cache held and whose questions the project still answers the same
/// way (those about a whole structure are judged once every file's declarations are in).
struct Hit {
    entry: FileEntry,
    key: String,
    /// Older entries of the same content whose other questions hold too, for when `entry`'s
    /// lookups in the type indexes no longer do ([`refresh_typed`]).
    others: Vec<FileEntry>,
    /// Whether the disk's other entries of this content are still unread (`entry` came from
    /// the other side of a `--diff`, or is the newest on the disk and held): `others` is read
    /// from the disk when it is needed.
    stored_unread: bool,
}

/// What the first pass made of one owned file.
#[allow(
    clippy::large_enum_variant,
    reason = "only ever held inside `FirstJob::Extracted`'s box; boxing `FirstPass` too would cost an allocation per Java, Kotlin and C# file"
)]
enum FirstOutcome {
    /// The file's outcome: not source, skipped, generated, or extracted without the type
    /// indexes.
    Done(CachedOutcome),
    /// A Java, Kotlin or C# file whose facts wait for the type indexes.
    Pending(FirstPass),
}

/// The first pass over an owned file (`extractors::first_pass`), with what it declares for the
/// type indexes.
#[expect(
    clippy::too_many_arguments,
    reason = "one file's inputs, passed as they are rather than bundled for one caller"
)]
fn first_one(
    context: &ProjectContext,
    scope: &Scope,
    root: &Path,
    repository: Option<&git2::Repository>,
    file: &str,
    read: Option<std::io::Result<Vec<u8>>>,
    include_generated: bool,
    generic: &extractors::GenericFacts,
) -> (FirstOutcome, Option<TypeDeclarations>) {
    let done = |outcome| (FirstOutcome::Done(outcome), None);
    if extractors::Language::for_path(file).is_none() {
        return done(CachedOutcome::NotSource);
    }
    let read = read.unwrap_or_else(|| read_file(scope, root, repository, file, SOURCE_LIMIT));
    let bytes = match read {
        Ok(bytes) => bytes,
        Err(error) => return done(CachedOutcome::Skipped(format!("{UNREADABLE}: {error}"))),
    };
    if let Some(reason) = skip_reason(&bytes) {
        let declarations =
            declaration_text(bytes).and_then(|text| extractors::read_declarations(file, &text));
        return (
            FirstOutcome::Done(CachedOutcome::Skipped(reason)),
            declarations,
        );
    }
    let text = match source_text(file, bytes) {
        Ok(text) => text,
        Err(reason) => return done(CachedOutcome::Skipped(reason)),
    };
    if !include_generated && context.is_generated(file, &text) {
        return (
            FirstOutcome::Done(CachedOutcome::Generated),
            extractors::read_declarations(file, &text),
        );
    }
    let Some(mut pass) = first_pass(context, file, &text) else {
        return done(CachedOutcome::NotSource);
    };
    let declarations = pass.take_declarations();
    if pass.needs_types() {
        return (FirstOutcome::Pending(pass), declarations);
    }
    (
        FirstOutcome::Done(outcome_of(pass.finish(context), generic)),
        declarations,
    )
}

/// How a `file-skipped` reason for a file that could not be read starts: such an outcome says
/// nothing about the file's content, so it is never cached.
const UNREADABLE: &str = "cannot read file";

/// Whether an outcome may be cached: it follows from the file's content (not a read failure,
/// not an extractor's internal error).
fn is_cacheable(outcome: &FirstOutcome) -> bool {
    match outcome {
        FirstOutcome::Done(CachedOutcome::Skipped(reason)) => {
            !reason.starts_with(UNREADABLE) && !reason.starts_with(FAILED)
        }
        _ => true,
    }
}

/// The cached outcome of a file's extraction.
fn outcome_of(extraction: FileExtraction, generic: &extractors::GenericFacts) -> CachedOutcome {
    if let Some(reason) = extraction.skipped {
        return CachedOutcome::Skipped(reason);
    }
    let mut facts = extraction.facts;
    if !generic.wants_calls_or_assignments() && !generic.wants_externals() {
        // `call`, `assignment` and `external` facts exist for reviewed queries (and for
        // `graph --facts`): no policy family reads them. Extraction makes only those the run's
        // queries may match; without queries, any a reader made anyway is dropped here, per
        // file, so none piles up in memory (on kafka, externals are 35k of 84k facts). The
        // externals of a library the spec binds with `clients` stay: they are its uses; so do
        // those of the packages that tell server-only modules (the file graph reads them).
        facts.retain(|fact| match fact.kind {
            FactKind::Call | FactKind::Assignment => false,
            FactKind::External => {
                fact.property_str("package").is_some_and(|package| {
                    generic.bound_client(package).is_some()
                        || extractors::is_framework_marker(package)
                }) || fact
                    .property_str("specifier")
                    .is_some_and(|specifier| generic.bound_client(specifier).is_some())
            }
            _ => true,
        });
    }
    // Facts live for the whole run: give back what building them reserved.
    for fact in &mut facts {
        fact.id.shrink_to_fit();
        fact.properties.shrink_to_fit();
    }
    // `--debug-extractors`: one entry per query pass, with the facts of the kinds it matched.
    let queries = extraction
        .queries
        .iter()
        .map(|timing| {
            let emitted = facts
                .iter()
                .filter(|fact| {
                    timing
                        .matched_by_kind
                        .iter()
                        .any(|(kind, _)| *kind == fact.kind)
                })
                .count();
            serde_json::json!({
                "id": timing.id,
                "matched": timing.matched,
                "emitted": emitted,
                "elapsed_ms": timing.elapsed_us / 1000,
            })
        })
        .collect();
    // A new vector, not an in-place `collect`: that would keep the unboxed facts' allocation.
    let mut boxed = Vec::with_capacity(facts.len());
    boxed.extend(facts.into_iter().map(Box::new));
    CachedOutcome::Extracted {
        facts: boxed,
        language: extraction.language.name().to_owned(),
        parse_errors: extraction.parse_errors,
        first_parse_error: extraction.first_parse_error,
        queries,
        links: (!extraction.links.is_empty()).then(|| Box::new(extraction.links)),
    }
}

/// Runs the extractors over `files` in parallel: configs are read from the same snapshot as the
/// sources, and each rayon worker opens its own repository handle for git snapshots. Returns
/// each file's outcome and how many came from `cache`.
///
/// Each source file is read and parsed once. The first pass extracts what needs no type index
/// and reads what every Java, Kotlin and C# file declares (`files` are every file the spec does
/// not exclude, owned or not: imports may name any of their types); the declarations fill the
/// type indexes in file order, then the second pass resolves the waiting facts without trees or
/// sources.
///
/// With a cache, a file whose entry (keyed by its path and content) answers every recorded
/// question as the project does now is not read at all (nor parsed); an entry that asked about a
/// whole structure holds only when the project's shape ([`project_shape`]) is unchanged, and
/// is otherwise extracted again before any declaration enters the indexes, as in a run without
/// the cache. Every file extracted is stored.
#[expect(
    clippy::too_many_arguments,
    reason = "the run's inputs, passed as they are rather than bundled for one caller"
)]
pub(super) fn extract_files(
    root: &Path,
    scope: &Scope,
    files: &[String],
    include_generated: bool,
    generic: &extractors::GenericFacts,
    debug: bool,
    cache: Option<&ExtractionCache>,
    progress: Option<&crate::input::progress::Progress>,
) -> (Vec<(String, CachedOutcome)>, usize) {
    let needs_repository = scope.snapshot != Snapshot::Worktree;
    let mut context = project_context(root, scope, generic, debug);
    let repositories = Repositories::new(scope.git_root.as_deref().filter(|_| needs_repository));
    let options = cache.map(|_| {
        let gitattributes = content_identity(scope, root, &repositories, ".gitattributes");
        ExtractionCache::options_key(include_generated, generic, &gitattributes)
    });
    let cache = cache.zip(options.as_deref());
    let shared = &context;
    if let Some(progress) = progress {
        progress.add_files(files.len());
    }
    let first = |context: &ProjectContext,
                 file: &str,
                 read: Option<std::io::Result<Vec<u8>>>,
                 key: Option<String>| {
        repositories.with(|repository| {
            let extract = || {
                guarded(
                    || {
                        first_one(
                            context,
                            scope,
                            root,
                            repository,
                            file,
                            read,
                            include_generated,
                            generic,
                        )
                    },
                    |reason| (FirstOutcome::Done(CachedOutcome::Skipped(reason)), None),
                )
            };
            // The project questions a file asks are recorded only for the cache that keeps
            // them: without one, recording would only spend time formatting answers.
            let ((outcome, declarations), probes) = if cache.is_some() {
                recording(extract)
            } else {
                (extract(), Vec::new())
            };
            let key = key.filter(|_| is_cacheable(&outcome));
            if let Some(progress) = progress {
                progress.file_done();
            }
            Fresh {
                outcome,
                declarations,
                probes,
                key,
            }
        })
    };
    let mut done: Vec<FirstJob> = files
        .par_iter()
        // One file per rayon job: the files' costs differ a hundredfold, and with rayon's
        // adaptive splitting one worker could be left alone on a long run of them at the end.
        .with_max_len(1)
        .map(|file| {
            let job = JobInput {
                scope,
                root,
                cache,
                shared,
                progress,
            };
            first_job(file, &job, &first)
        })
        .collect();
    // The content of every path configuration discovery asked for, once (a work-tree file is
    // read again to know it): the project's shape is made of it, and a work-tree check whose
    // findings are kept for later runs records it.
    let configs: BTreeMap<&str, String> = if cache.is_some() {
        context
            .config_asks()
            .iter()
            .map(|path| {
                let id = content_identity(scope, root, &repositories, path);
                (path.as_str(), id)
            })
            .collect()
    } else {
        BTreeMap::new()
    };
    if let (Some(reads), Snapshot::Worktree) = (&scope.reads, &scope.snapshot) {
        for (file, id) in &configs {
            reads.record(file, (!id.is_empty()).then(|| id.clone()));
        }
    }
    let declared = gather_declarations(files, &mut done);
    // The project's shape, for the entries that ask about a whole structure (a fresh file may
    // ask only in its second pass).
    let (shape, outer) = cache
        .map(|_| project_shape(scope, &context, &configs, &declared))
        .unzip();
    if let Some(shape) = &shape {
        refresh_stale(&mut done, files, shape, cache, shared, &first);
    }
    for (file, declarations) in declared {
        context.add_declarations(file, declarations);
    }
    let types_shape = shape.as_ref().map(|(types, _)| types.as_str());
    let parts = super::parts::Current::new(&context);
    if cache.is_some() {
        refresh_typed(
            &mut done,
            files,
            &context,
            cache,
            types_shape.zip(outer.as_deref()),
            &parts,
            &first,
        );
    }
    if let (Some((cache, options)), Some(types), Some(outer)) = (cache, types_shape, &outer) {
        parts.store(cache, options, types, outer);
    }
    second_pass(files, done, &context, cache, shape.as_ref(), generic)
}

/// The project context of a run, read from the work tree or, for a git snapshot, from its blobs.
fn project_context(
    root: &Path,
    scope: &Scope,
    generic: &extractors::GenericFacts,
    debug: bool,
) -> ProjectContext {
    let mut context = if scope.snapshot != Snapshot::Worktree {
        let repository = scope
            .git_root
            .as_ref()
            .and_then(|path| git2::Repository::open(path).ok());
        ProjectContext::discover_with(&scope.project_files, |path| {
            read_file(scope, root, repository.as_ref(), path, SOURCE_LIMIT)
                .ok()
                .and_then(|bytes| String::from_utf8(bytes).ok())
        })
    } else {
        ProjectContext::discover(root, &scope.project_files)
    };
    context.set_symlinks(scope.symlinks.clone());
    context.set_generic(generic.clone());
    context.set_query_timing(debug);
    context
}

/// Extracts one file now, against a project context: its path, its bytes when already read,
/// and its cache key.
type Extract<'a> = dyn Fn(&ProjectContext, &str, Option<std::io::Result<Vec<u8>>>, Option<String>) -> Fresh
    + Sync
    + 'a;

/// What one job of the first pass reads besides its file.
struct JobInput<'a> {
    scope: &'a Scope,
    root: &'a Path,
    cache: Option<(&'a ExtractionCache, &'a str)>,
    shared: &'a ProjectContext,
    progress: Option<&'a crate::input::progress::Progress>,
}

/// One job of the first pass: a cached entry that still holds, or a file extracted now by
/// `first` (with its cache key when the cache is on).
fn first_job(file: &str, job: &JobInput<'_>, first: &Extract<'_>) -> FirstJob {
    let JobInput {
        scope,
        root,
        cache,
        shared,
        progress,
        ..
    } = *job;
    let Some((cache, options)) = cache.filter(|_| extractors::Language::for_path(file).is_some())
    else {
        return FirstJob::Extracted(Box::new(first(shared, file, None, None)));
    };
    // A work-tree file is read to know its content (size and modification time may
    // stay the same across an edit); a git snapshot names each file's blob.
    let (content, read) = match &scope.snapshot {
        Snapshot::Worktree => {
            let read = read_file(scope, root, None, file, SOURCE_LIMIT);
            let content = read
                .as_ref()
                .ok()
                .map(|bytes| crate::input::cache::content_id(bytes));
            if let Some(reads) = &scope.reads {
                reads.record(file, content.clone());
            }
            (content, Some(read))
        }
        _ => (scope.blobs.get(file).map(ToString::to_string), None),
    };
    let Some(key) = content.map(|content| ExtractionCache::key(options, file, &content)) else {
        return FirstJob::Extracted(Box::new(first(shared, file, read, None)));
    };
    // The questions about whole structures and the type indexes are judged once every file's
    // declarations are in.
    let holds_now = |entry: &FileEntry| answers_hold(entry, shared);
    // The entry the other side of a `--diff` remembered is tried first; the disk's entries of
    // that content, which are only needed when its lookups in the type indexes no longer hold,
    // are read then ([`refresh_typed`]), not for every file.
    let (entry, others, stored_unread) = match cache.take_remembered(&key) {
        Some(entry) if holds_now(&entry) => {
            let unread = !entry.typed.is_empty();
            (Some(entry), Vec::new(), unread)
        }
        // The newest entry is read first; the older ones only when it no longer holds, or when
        // its lookups in the type indexes do not ([`refresh_typed`]).
        _ => match cache.read_newest(&key, file) {
            Some((entry, older)) if holds_now(&entry) => (Some(entry), Vec::new(), older),
            Some((_, true)) => {
                let mut holding = cache.read_stored(&key, file).into_iter().filter(holds_now);
                (holding.next(), holding.collect(), false)
            }
            _ => (None, Vec::new(), false),
        },
    };
    match entry {
        Some(entry) => {
            if let Some(progress) = progress {
                progress.file_done();
            }
            FirstJob::Cached(Box::new(Hit {
                entry,
                key,
                others,
                stored_unread,
            }))
        }
        None => FirstJob::Extracted(Box::new(first(shared, file, read, Some(key)))),
    }
}

/// Whether the project answers every question of `entry` but those about whole structures
/// (judged against the project's shape) and its lookups in the type indexes (judged once every
/// file's declarations are in) as it did when the entry was made.
fn answers_hold(entry: &FileEntry, context: &ProjectContext) -> bool {
    entry
        .probes
        .iter()
        .all(|probe| matches!(probe, Probe::Whole | Probe::Files) || probe.holds(context))
}

/// The type declarations of the first pass, in file order (so that the indexes do not depend on
/// the thread count): those of the extracted or cached files of `done` (one per file of
/// `files`).
fn gather_declarations<'f>(
    files: &'f [String],
    done: &mut [FirstJob],
) -> Vec<(&'f str, TypeDeclarations)> {
    let mut declared: Vec<(&str, TypeDeclarations)> = Vec::new();
    for (file, job) in files.iter().zip(done.iter_mut()) {
        let declarations = match job {
            // A fresh file's declarations are also stored with it.
            FirstJob::Extracted(fresh) if fresh.key.is_some() => fresh.declarations.clone(),
            FirstJob::Extracted(fresh) => fresh.declarations.take(),
            FirstJob::Cached(hit) => hit.entry.declarations.clone(),
        };
        declared.extend(declarations.map(|declarations| (file.as_str(), declarations)));
    }
    declared.sort_by(|a, b| a.0.cmp(b.0));
    declared
}

/// Under a cache, after the first pass: a cached entry that asked about a whole structure of the
/// project holds only when the project's `shape` is the one it was made in; otherwise the entry
/// kept for this shape is taken, or the file is extracted again.
fn refresh_stale(
    done: &mut [FirstJob],
    files: &[String],
    shape: &(String, String),
    cache: Option<(&ExtractionCache, &str)>,
    shared: &ProjectContext,
    first: &Extract<'_>,
) {
    // An entry whose whole structures changed is extracted again, as in a run without the
    // cache: before any declaration enters the indexes (its own are already in `declared`).
    done.par_iter_mut()
        .with_max_len(1)
        .zip(files.par_iter())
        .for_each(|(job, file)| {
            let stale = match job {
                FirstJob::Cached(hit) => {
                    let (types, files) = shape;
                    hit.entry.asks_whole()
                        && hit.entry.shape.as_deref()
                            != Some(crate::input::cache::shape_for(
                                &hit.entry.probes,
                                types,
                                files,
                            ))
                }
                _ => false,
            };
            if let (true, FirstJob::Cached(hit)) = (stale, &mut *job) {
                // The entry this content had in a project of this shape, if one is kept
                // (the two sides of a `--diff` that adds a type each keep theirs).
                let (types, files) = shape;
                let wanted = crate::input::cache::shape_for(&hit.entry.probes, types, files);
                let shaped = cache.and_then(|(cache, _)| {
                    cache
                        .load(&ExtractionCache::shaped_key(&hit.key, wanted), file)
                        .filter(|entry| {
                            entry.shape.as_deref() == Some(wanted) && answers_hold(entry, shared)
                        })
                });
                if let Some(entry) = shaped {
                    hit.entry = entry;
                    return;
                }
                let key = hit.key.clone();
                let mut fresh = first(shared, file, None, Some(key));
                // The same declarations (they follow from the content), already in
                // `declared`, are stored with it again.
                fresh.declarations = hit.entry.declarations.take();
                *job = FirstJob::Extracted(Box::new(fresh));
            }
        });
}

/// Under a cache, once every file's declarations are in the type indexes: a cached entry whose
/// lookups in them ([`Probe::needs_types`]) no longer get the answers it was made with is
/// extracted again (its declarations, which follow from its content, are already in).
fn refresh_typed(
    done: &mut [FirstJob],
    files: &[String],
    context: &ProjectContext,
    cache: Option<(&ExtractionCache, &str)>,
    shape: Option<(&str, &str)>,
    parts: &super::parts::Current<'_>,
    first: &Extract<'_>,
) {
    let judged = crate::input::cache::Judged::default();
    let types_shape = shape.map(|(types, _)| types);
    // The parts of the declarations that changed since the shapes of the entries to judge.
    let changed = match (cache, shape) {
        (Some((cache, options)), Some((types, outer))) => {
            let shapes: BTreeSet<String> = done
                .iter()
                .filter_map(|job| match job {
                    FirstJob::Cached(hit) if hit.entry.parts.is_some() => hit
                        .entry
                        .shape
                        .as_deref()
                        .filter(|shape| *shape != types)
                        .map(str::to_owned),
                    _ => None,
                })
                .collect();
            if shapes.is_empty() {
                super::parts::Changed::default()
            } else {
                super::parts::Changed::since(cache, options, (types, outer), shapes, parts)
            }
        }
        _ => super::parts::Changed::default(),
    };
    done.par_iter_mut()
        .with_max_len(1)
        .zip(files.par_iter())
        .for_each(|(job, file)| {
            let FirstJob::Cached(hit) = &mut *job else {
                return;
            };
            // An entry made in a project of the same shape (the same declarations, configs and
            // links) got the same answers: its lookups need no asking again.
            let holds = |entry: &FileEntry| {
                (types_shape.is_some() && entry.shape.as_deref() == types_shape)
                    || changed.holds(entry)
                    || entry.typed.hold_judged(context, &judged)
            };
            // Lookups that the first pass left on the disk are read now, alone.
            let deferred = matches!(hit.entry.typed, crate::input::cache::TypedProbes::Deferred);
            let holds_deferred = || {
                deferred
                    && cache
                        .and_then(|(cache, _)| {
                            cache.read_newest_lookups(&hit.key, hit.entry.shape.as_deref())
                        })
                        .is_some_and(|typed| typed.hold_judged(context, &judged))
            };
            if holds(&hit.entry) || holds_deferred() {
                // Only the outcome is read from here on: what was kept to judge the entry, or
                // to store a fresh extraction with, goes now rather than with the whole pass.
                hit.entry.typed = crate::input::cache::TypedProbes::default();
                hit.entry.declarations = None;
                hit.entry.parts = None;
                hit.others = Vec::new();
                return;
            }
            // An entry whose lookups do not hold is read again, whole, with the others.
            if std::mem::take(&mut hit.stored_unread) || deferred {
                if let Some((cache, _)) = cache {
                    hit.others = cache
                        .read_stored(&hit.key, file)
                        .into_iter()
                        .filter(|entry| answers_hold(entry, context))
                        .collect();
                }
            }
            if let Some(at) = hit.others.iter().position(holds) {
                hit.entry = hit.others.swap_remove(at);
                return;
            }
            let key = hit.key.clone();
            let mut fresh = first(context, file, None, Some(key));
            fresh.declarations = hit.entry.declarations.take();
            *job = FirstJob::Extracted(Box::new(fresh));
        });
}

/// The second pass: each fresh file's facts that waited for the type indexes are resolved, and
/// every file extracted is stored in the cache; a cached file is kept as the cache holds it.
/// Returns every file's outcome, and how many files' facts came from the cache.
fn second_pass(
    files: &[String],
    done: Vec<FirstJob>,
    context: &ProjectContext,
    cache: Option<(&ExtractionCache, &str)>,
    shape: Option<&(String, String)>,
    generic: &extractors::GenericFacts,
) -> (Vec<(String, CachedOutcome)>, usize) {
    let stored = std::sync::atomic::AtomicBool::new(false);
    let outcomes: Vec<(String, CachedOutcome, bool)> = files
        .iter()
        .zip(done)
        .collect::<Vec<_>>()
        .into_par_iter()
        .with_max_len(1)
        .map(|(file, job)| {
            let fresh = match job {
                // An entry read from the disk is not kept in memory for the other side of a
                // `--diff`: that side reads it from the disk as this one did. Keeping it cost
                // more memory than the read costs time (apache/kafka: 19 MB of 107 at the peak,
                // against 20 ms).
                FirstJob::Cached(hit) => return (file.clone(), hit.entry.outcome, true),
                FirstJob::Extracted(fresh) => *fresh,
            };
            let Fresh {
                outcome,
                declarations,
                mut probes,
                key,
            } = fresh;
            let outcome = match outcome {
                FirstOutcome::Done(outcome) => outcome,
                FirstOutcome::Pending(pass) => {
                    let finish = || {
                        guarded(
                            || outcome_of(pass.finish(context), generic),
                            CachedOutcome::Skipped,
                        )
                    };
                    // As in the first pass, the questions are recorded only for a cache that
                    // keeps them: a Java or C# file asks the type indexes some hundred.
                    let (outcome, more) = if cache.is_some() {
                        recording(finish)
                    } else {
                        (finish(), Vec::new())
                    };
                    let failed = matches!(&outcome, CachedOutcome::Skipped(reason) if reason.starts_with(FAILED));
                    if failed {
                        return (file.clone(), outcome, false);
                    }
                    for probe in more {
                        if !probes.contains(&probe) {
                            probes.push(probe);
                        }
                    }
                    outcome
                }
            };
            let Some(((cache, _), key)) = cache.zip(key) else {
                return (file.clone(), outcome, false);
            };
            // The shape is kept with an entry that asked about a whole structure (it holds only in
            // that shape) or looked up types (in that shape its lookups need no asking again).
            let shape = shape
                .as_ref()
                .filter(|_| {
                    crate::input::cache::asks_whole(&probes)
                        || probes.iter().any(Probe::needs_types)
                })
                .map(|(types, files)| crate::input::cache::shape_for(&probes, types, files).to_owned());
            let entry = FileEntry::new(outcome, declarations, probes, shape);
            let shaped = entry
                .shape
                .as_ref()
                .filter(|_| entry.asks_whole())
                .map(|shape| ExtractionCache::shaped_key(&key, shape));
            let outcome = cache.keep_extracted(&key, file, entry, shaped.as_deref());
            stored.store(true, std::sync::atomic::Ordering::Relaxed);
            (file.clone(), outcome, false)
        })
        .collect();
    if let Some((cache, _)) = cache.filter(|_| stored.into_inner()) {
        cache.prune_if_due();
    }
    // Files whose facts came from the cache: those it holds as extracted (a file that is not a
    // source of any extractor, or skipped, has no facts to come from anywhere).
    let cached = outcomes
        .iter()
        .filter(|(_, outcome, cached)| {
            *cached && matches!(outcome, CachedOutcome::Extracted { .. })
        })
        .count();
    let outcomes = outcomes
        .into_iter()
        .map(|(file, outcome, _)| (file, outcome))
        .collect();
    (outcomes, cached)
}

/// The content identity of a project file (its blob id; empty when it is not in the snapshot
/// or cannot be read).
fn content_identity(
    scope: &Scope,
    root: &Path,
    repositories: &Repositories<'_>,
    file: &str,
) -> String {
    match &scope.snapshot {
        Snapshot::Worktree => read_file(scope, root, None, file, SOURCE_LIMIT)
            .map(|bytes| crate::input::cache::content_id(&bytes))
            .unwrap_or_default(),
        _ => {
            let _ = repositories;
            scope
                .blobs
                .get(file)
                .map(ToString::to_string)
                .unwrap_or_default()
        }
    }
}

/// What the whole structures of the project are built from: for the type indexes and C#
/// projects, the symbolic links, the content of every resolution config discovery read, the
/// files the C# build generates code from and what every file declares; for Rust crates, that
/// and every project file's path. Returns both digests (types, files), and the digest of what
/// the lookups in the type indexes read besides the declarations ([`super::parts`]).
fn project_shape(
    scope: &Scope,
    context: &ProjectContext,
    configs: &BTreeMap<&str, String>,
    declared: &[(&str, TypeDeclarations)],
) -> ((String, String), String) {
    let links: Vec<Vec<u8>> = std::iter::once(b"links".to_vec())
        .chain(
            scope
                .symlinks
                .iter()
                .map(|(link, target)| format!("{link} -> {target}").into_bytes()),
        )
        .collect();
    let mut parts = links.clone();
    parts.push(b"configs".to_vec());
    for config in context.config_files() {
        parts.push(config.as_bytes().to_vec());
        // Discovery asked for every file it read.
        let id = configs.get(config.as_str()).map_or("", String::as_str);
        parts.push(id.as_bytes().to_vec());
    }
    // The C# projects: the project files, the props files above them, and which Razor, XAML
    // and `.proto` files a project has (where its build generates code, so where an unknown
    // namespace is no unresolved import). They and the links are all that the lookups in the
    // type indexes read besides the declarations (`lookups`), not the other configuration files.
    let mut lookups = links;
    parts.push(b"csharp projects".to_vec());
    lookups.push(b"csharp projects".to_vec());
    for file in &scope.project_files {
        if extractors::csharp_project_input(file) {
            let id = configs.get(file.as_str()).map_or("", String::as_str);
            for digest in [&mut parts, &mut lookups] {
                digest.push(file.as_bytes().to_vec());
                digest.push(id.as_bytes().to_vec());
            }
        }
    }
    // The C# files not read (the spec excludes them): one may declare a namespace its folder
    // names, so a `using` of it is no unresolved import (`csharp_namespace_may_be_unread`).
    let read: std::collections::HashSet<&str> = declared.iter().map(|(file, _)| *file).collect();
    parts.push(b"csharp unread".to_vec());
    lookups.push(b"csharp unread".to_vec());
    for file in &scope.project_files {
        if file.ends_with(".cs") && !read.contains(file.as_str()) {
            parts.push(file.as_bytes().to_vec());
            lookups.push(file.as_bytes().to_vec());
        }
    }
    let outer = crate::input::cache::digest(lookups.iter().map(Vec::as_slice));
    parts.push(b"declarations".to_vec());
    for (file, declarations) in declared {
        parts.push(file.as_bytes().to_vec());
        parts.push(serde_json::to_vec(declarations).unwrap_or_default());
    }
    let types = crate::input::cache::digest(parts.iter().map(Vec::as_slice));
    let files = crate::input::cache::digest(
        [types.as_bytes(), b"files".as_slice()]
            .into_iter()
            .chain(scope.project_files.iter().map(String::as_bytes)),
    );
    ((types, files), outer)
}

/// How the reason of a file whose extraction panicked starts.
const FAILED: &str = "lintel's extractor failed on it";

/// Runs one file's extraction; if an extractor panics (a bug in lintel, never a property of the
/// file's text that it may rely on), the file gets `failed`'s outcome with the reason instead of
/// the whole check stopping: a `file-skipped` warning that names the internal error, so nothing
/// is lost silently and the other files' findings still stand. The panic message itself also
/// goes to stderr, through the default hook, for the bug report.
pub(super) fn guarded<T>(extract: impl FnOnce() -> T, failed: impl FnOnce(String) -> T) -> T {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(extract)) {
        Ok(outcome) => outcome,
        Err(payload) => failed(format!(
            "{FAILED} (internal error: {}); please report it",
            crate::error::panic_message(payload.as_ref())
        )),
    }
}

/// One git handle per rayon worker, opened at the worker's first file of a git snapshot: a
/// `git2::Repository` may not be shared between threads, and opening one per file would cost
/// more than reading the file.
struct Repositories<'a> {
    /// The repository, when the snapshot is read from git.
    root: Option<&'a Path>,
    /// The handle of each worker of the current pool, by its index.
    slots: Vec<Mutex<Option<git2::Repository>>>,
}

impl<'a> Repositories<'a> {
    fn new(root: Option<&'a Path>) -> Self {
        let workers = if root.is_some() {
            rayon::current_num_threads()
        } else {
            0
        };
        Self {
            root,
            slots: (0..workers).map(|_| Mutex::new(None)).collect(),
        }
    }

    /// Calls `read` with this worker's handle (`None` for a worktree snapshot, or when the
    /// repository cannot be opened). A worker that is already reading (a job it stole while
    /// waiting inside `read`) opens a handle of its own rather than wait for itself.
    fn with<T>(&self, read: impl FnOnce(Option<&git2::Repository>) -> T) -> T {
        let Some(root) = self.root else {
            return read(None);
        };
        let slot = rayon::current_thread_index().and_then(|index| self.slots.get(index));
        let held = slot.and_then(|slot| match slot.try_lock() {
            Ok(handle) => Some(handle),
            Err(TryLockError::Poisoned(poisoned)) => Some(poisoned.into_inner()),
            Err(TryLockError::WouldBlock) => None,
        });
        match held {
            Some(mut handle) => {
                if handle.is_none() {
                    *handle = git2::Repository::open(root).ok();
                }
                read(handle.as_ref())
            }
            None => read(git2::Repository::open(root).ok().as_ref()),
        }
    }
}
