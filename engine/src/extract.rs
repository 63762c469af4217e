//! The extraction driver: reads every owned source file of the snapshot once, in parallel, runs the
//! extractors, and fills `subject`/`target` with the one file → component mapping (§3.3).
//!
//! A file lintel cannot take (unreadable, not UTF-8, a NUL byte in its first 8 KiB, larger than
//! 2 MiB) becomes a `file-skipped` warning; a file with tree-sitter error nodes is kept and gets a
//! `parse-errors` warning. Nothing is dropped silently.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Mutex, TryLockError};

use extractors::{first_pass, FileExtraction, FirstPass, ProjectContext, TypeDeclarations};
use policies::facts::{Fact, FactKind};
use rayon::prelude::*;

use crate::paths::ComponentMap;
use crate::scope::{read_file, Scope, Snapshot};
use crate::verdict::{ExtractorDebug, Warning};

/// Largest source file lintel reads.
pub(crate) const MAX_FILE_BYTES: usize = 2 * 1024 * 1024;

/// [`MAX_FILE_BYTES`] as a read limit: a source read gets at most one byte more.
pub(crate) const SOURCE_LIMIT: u64 = MAX_FILE_BYTES as u64;

/// What extraction produced.
#[derive(Debug, Default)]
pub struct Extraction {
    /// Every graph fact, sorted by id, with `subject`/`target` filled. Each fact is boxed, so
    /// that gathering the files' facts into this one vector moves pointers: the facts of a large
    /// project are never held twice.
    pub facts: Vec<Box<Fact>>,
    /// `file-skipped`, `parse-errors` and `ambiguous-component-mapping` warnings.
    pub warnings: Vec<Warning>,
    /// Files extracted.
    pub files_scanned: usize,
    /// Files skipped.
    pub files_skipped: usize,
    /// Generated files left out.
    pub files_generated: usize,
    /// Files the spec leaves out (an `exclude` glob matches them, or a `!` glob took them out of
    /// a component and no other component owns them); `None` when the spec has neither.
    pub files_excluded: Option<usize>,
    /// Per-file details, with `--debug-extractors` only.
    pub debug: Vec<ExtractorDebug>,
    /// Owner of every owned project file.
    pub owners: BTreeMap<String, String>,
}

use crate::cache::{worktree_identity, CachedOutcome, ExtractionCache};

/// Stack of a worker thread. The walks over a tree keep their own stacks, and the readers of an
/// expression that recurse on its parts are bounded, but a file's tree may nest thousands deep:
/// a margin over the default 2 MiB costs nothing until touched (only the pages used are
/// resident).
pub(crate) const WORKER_STACK_BYTES: usize = 32 * 1024 * 1024;

/// Why a file is not extracted whatever its language: larger than 2 MiB, or binary-looking.
pub(crate) fn skip_reason(bytes: &[u8]) -> Option<String> {
    if bytes.len() > MAX_FILE_BYTES {
        return Some("file is larger than 2 MiB".to_owned());
    }
    // `contains` on bytes is a vectorised memchr, not a loop over each byte.
    let head = bytes.get(..8 * 1024).unwrap_or(bytes);
    if head.contains(&0) {
        return Some("file looks binary: NUL byte in its first 8 KiB".to_owned());
    }
    None
}

/// What the one parallel pass of [`extract_files`] gives for a file: an extracted file's first
/// outcome and declarations, or the declarations of a file that is only read for them.
enum FirstJob {
    Extracted(Box<(FirstOutcome, Option<TypeDeclarations>)>),
    Declared(Option<TypeDeclarations>),
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

/// The text of a source file: UTF-8, or, for a Python file whose PEP 263 declaration on its first
/// or second line names Latin-1 or Windows-1252 (`# -*- coding: latin-1 -*-`), its bytes decoded
/// one character each, so lines and columns stay those of the file. Anything else that is not
/// UTF-8 is skipped with the offset of the first invalid byte.
fn source_text(file: &str, bytes: Vec<u8>) -> Result<String, String> {
    let error = match String::from_utf8(bytes) {
        Ok(text) => return Ok(text),
        Err(error) => error,
    };
    let offset = error.utf8_error().valid_up_to();
    let bytes = error.into_bytes();
    let is_python = file.ends_with(".py") || file.ends_with(".pyi");
    match declared_python_encoding(&bytes).filter(|_| is_python) {
        Some(SingleByte::Latin1) => Ok(bytes.iter().map(|byte| char::from(*byte)).collect()),
        Some(SingleByte::Windows1252) => Ok(bytes.iter().map(|byte| windows_1252(*byte)).collect()),
        None => Err(format!(
            "file is not valid UTF-8: invalid byte at offset {offset}"
        )),
    }
}

/// A single-byte encoding lintel decodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SingleByte {
    Latin1,
    Windows1252,
}

/// The encoding a PEP 263 declaration names (`coding[:=]\s*NAME` in a comment on line 1 or 2),
/// when it is one lintel decodes.
fn declared_python_encoding(bytes: &[u8]) -> Option<SingleByte> {
    bytes.split(|byte| *byte == b'\n').take(2).find_map(|line| {
        let line = String::from_utf8_lossy(line);
        let comment = line
            .trim_start_matches([' ', '\t', '\x0c'])
            .strip_prefix('#')?;
        let at = comment.find("coding")?;
        let rest = comment.get(at + "coding".len()..)?;
        let rest = rest
            .strip_prefix([':', '='])?
            .trim_start_matches([' ', '\t']);
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            .map(|c| {
                if c == '_' {
                    '-'
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect();
        match name.as_str() {
            "latin-1" | "latin1" | "iso-8859-1" | "iso8859-1" | "iso-latin-1" | "l1" | "cp819"
            | "8859" | "latin" => Some(SingleByte::Latin1),
            "cp1252" | "windows-1252" => Some(SingleByte::Windows1252),
            _ => None,
        }
    })
}

/// A Windows-1252 byte as a character: Latin-1 but for the printable characters at 0x80–0x9F
/// (bytes the code page leaves undefined keep their Latin-1 control character).
fn windows_1252(byte: u8) -> char {
    const HIGH: [char; 32] = [
        '\u{20AC}', '\u{81}', '\u{201A}', '\u{192}', '\u{201E}', '\u{2026}', '\u{2020}',
        '\u{2021}', '\u{2C6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8D}', '\u{17D}',
        '\u{8F}', '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}',
        '\u{2014}', '\u{2DC}', '\u{2122}', '\u{161}', '\u{203A}', '\u{153}', '\u{9D}', '\u{17E}',
        '\u{178}',
    ];
    byte.checked_sub(0x80)
        .and_then(|index| HIGH.get(usize::from(index)))
        .copied()
        .unwrap_or(char::from(byte))
}

/// The text of a file as a type index reads it: any readable UTF-8 file of at most 2 MiB
/// (a binary-looking or generated file still declares types that imports may name).
fn declaration_text(bytes: Vec<u8>) -> Option<String> {
    if bytes.len() > MAX_FILE_BYTES {
        return None;
    }
    String::from_utf8(bytes).ok()
}

/// The first pass over an owned file (`extractors::first_pass`), with what it declares for the
/// type indexes.
fn first_one(
    context: &ProjectContext,
    scope: &Scope,
    root: &Path,
    repository: Option<&git2::Repository>,
    file: &str,
    include_generated: bool,
    generic: &extractors::GenericFacts,
) -> (FirstOutcome, Option<TypeDeclarations>) {
    let done = |outcome| (FirstOutcome::Done(outcome), None);
    if extractors::Language::for_path(file).is_none() {
        return done(CachedOutcome::NotSource);
    }
    let bytes = match read_file(scope, root, repository, file, SOURCE_LIMIT) {
        Ok(bytes) => bytes,
        Err(error) => return done(CachedOutcome::Skipped(format!("cannot read file: {error}"))),
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
        // externals of a library the spec binds with `clients` stay: they are its uses.
        facts.retain(|fact| match fact.kind {
            FactKind::Call | FactKind::Assignment => false,
            FactKind::External => fact
                .property_str("package")
                .is_some_and(|package| generic.bound_client(package).is_some()),
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

/// The facts of an unowned file that chains use (`language.md` §3.6): flow edges.
fn is_chain_fact(fact: &Fact) -> bool {
    matches!(
        fact.kind,
        FactKind::Import
            | FactKind::ConstructorInjection
            | FactKind::AccessesTechnology
            | FactKind::HttpCall
    )
}

/// Extracts every file of the scope's snapshot: owned files for every rule, unowned ones for
/// the flow facts of chains.
/// Workflow files are extracted whether or not a component owns them (`language.md` §3.7).
/// A file an `exclude` glob matches (§2.6a) is not read at all, not even as a workflow.
#[expect(
    clippy::too_many_arguments,
    reason = "each is one setting of the run, passed through from `CheckOptions` unchanged"
)]
pub fn extract_project(
    root: &Path,
    scope: &Scope,
    map: &ComponentMap,
    include_generated: bool,
    generic: &extractors::GenericFacts,
    debug: bool,
    cache: Option<&ExtractionCache>,
    progress: Option<&crate::progress::Progress>,
) -> Extraction {
    // Timings are only meaningful when measured: `--debug-extractors` never reads the cache.
    let cache = cache.filter(|_| !debug);
    let mut extraction = Extraction::default();
    let mut owned = Vec::new();
    let mut excluded = 0;
    for file in &scope.project_files {
        if map.is_excluded(file) {
            excluded += 1;
            continue;
        }
        if let Some(ownership) = map.ownership(file) {
            if !ownership.tied_with.is_empty() {
                let mut tied = vec![ownership.owner.clone()];
                tied.extend(ownership.tied_with.iter().cloned());
                extraction.warnings.push(Warning {
                    code: "ambiguous-component-mapping".into(),
                    message: format!(
                        "`{file}` is matched equally by {}: `{}` (declared first) owns it",
                        tied.iter()
                            .map(|name| format!("`{name}`"))
                            .collect::<Vec<_>>()
                            .join(", "),
                        ownership.owner
                    ),
                    file: Some(file.clone()),
                    ..Warning::default()
                });
            }
            extraction.owners.insert(file.clone(), ownership.owner);
        } else {
            // A file a `!` glob took out of its component, and no other owns.
            excluded += usize::from(map.is_removed(file));
        }
        // Every file is extracted, owned or not: an unowned file's flow facts serve chains
        // (`language.md` §3.6), and workflow files are read whoever owns them.
        owned.push(file.clone());
    }
    extraction.files_excluded = map.has_exclusions().then_some(excluded);
    // What the listing could not take (an unreadable folder, a path too long to open, a link
    // out of the project) is reported: it may hold a violation.
    for (path, reason) in &scope.unreadable {
        if map.is_excluded(path) {
            continue;
        }
        extraction.files_skipped += 1;
        extraction.warnings.push(Warning {
            code: "file-skipped".into(),
            message: format!("`{path}` was not checked: {reason}"),
            file: Some(path.clone()),
            ..Warning::default()
        });
    }
    let key = cache.map(|_| {
        let mut identities: Vec<(String, String)> = scope
            .project_files
            .par_iter()
            .map(|file| {
                // An excluded file is never read: what it holds does not matter, that it is
                // excluded does (a Java file's declarations are read whether or not it is owned).
                let identity = match &scope.snapshot {
                    _ if map.is_excluded(file) => "excluded".to_owned(),
                    Snapshot::Worktree => worktree_identity(&root.join(file)),
                    _ => scope
                        .blobs
                        .get(file)
                        .map(ToString::to_string)
                        .unwrap_or_default(),
                };
                (file.clone(), identity)
            })
            .collect();
        // Symbolic links change how imports resolve, so they are part of the snapshot.
        identities.extend(
            scope
                .symlinks
                .iter()
                .map(|(link, target)| (format!("{link} -> {target}"), "symlink".to_owned())),
        );
        ExtractionCache::key(&identities, &owned, include_generated, generic)
    });
    let cached = cache
        .zip(key.as_deref())
        .and_then(|(cache, key)| cache.load(key));
    let outcomes = match cached {
        Some(outcomes) => outcomes,
        None => {
            let outcomes = extract_files(
                root,
                scope,
                map,
                &owned,
                include_generated,
                generic,
                debug,
                progress,
            );
            if let (Some(cache), Some(key)) = (cache, key.as_deref()) {
                cache.store(key, &outcomes);
            }
            outcomes
        }
    };
    let mut route_links = BTreeMap::new();
    let total: usize = outcomes
        .iter()
        .map(|(_, outcome)| match outcome {
            CachedOutcome::Extracted { facts, .. } => facts.len(),
            _ => 0,
        })
        .sum();
    extraction.facts.reserve_exact(total);
    for (file, outcome) in outcomes {
        // A file no component owns serves chains only: its flow facts are kept, without a
        // subject, and nothing of it is reported (workflow files are judged whoever owns them).
        let serves_chains_only = !extraction.owners.contains_key(&file)
            && extractors::Language::for_path(&file) != Some(extractors::Language::GitHubActions);
        if serves_chains_only {
            if let CachedOutcome::Extracted { facts, .. } = outcome {
                extraction
                    .facts
                    .extend(facts.into_iter().filter(|fact| is_chain_fact(fact)));
                extraction.files_scanned += 1;
            }
            continue;
        }
        match outcome {
            CachedOutcome::Extracted {
                facts,
                language,
                parse_errors,
                first_parse_error,
                queries,
                links,
            } => {
                if let Some(links) = links {
                    route_links.insert(file.clone(), *links);
                }
                extraction.files_scanned += 1;
                if let Some((line, column)) = first_parse_error {
                    let count = parse_errors;
                    extraction.warnings.push(Warning {
                        code: "parse-errors".into(),
                        message: format!("`{file}` has {count} syntax error node(s); the first is at {line}:{column}, facts from the rest of the file are kept"),
                        file: Some(file.clone()),
                        line: Some(line),
                        ..Warning::default()
                    });
                }
                if debug {
                    let mut facts_by_kind = BTreeMap::new();
                    for fact in &facts {
                        *facts_by_kind
                            .entry(fact.kind.as_str().to_owned())
                            .or_insert(0) += 1;
                    }
                    extraction.debug.push(ExtractorDebug {
                        file: file.clone(),
                        language,
                        parse_errors,
                        facts_by_kind,
                        queries,
                    });
                }
                // The facts already share their path: the extractors' factories and the cache
                // (`cache::compact`) give them one.
                extraction.facts.extend(facts);
            }
            CachedOutcome::Skipped(reason) => {
                extraction.files_skipped += 1;
                extraction.warnings.push(Warning {
                    code: "file-skipped".into(),
                    message: format!("`{file}` was not checked: {reason}"),
                    file: Some(file),
                    ..Warning::default()
                });
            }
            CachedOutcome::Generated => extraction.files_generated += 1,
            CachedOutcome::NotSource => {}
        }
    }
    // Mount prefixes that cross files (`app.use('/api', users)` with `users` imported).
    extractors::link_routes(&mut extraction.facts, &route_links);
    // Each component's name is one shared string, whatever number of facts name it.
    let mut names: BTreeMap<&str, Arc<str>> = BTreeMap::new();
    // Looked up twice for most facts: by hash, not by comparing paths down a tree.
    let owner_of: HashMap<&str, Arc<str>> = extraction
        .owners
        .iter()
        .map(|(file, owner)| {
            let name = names
                .entry(owner.as_str())
                .or_insert_with(|| Arc::from(owner.as_str()));
            (file.as_str(), Arc::clone(name))
        })
        .collect();
    // A file's facts stand together: each chunk looks a file's owner up once.
    extraction.facts.par_chunks_mut(512).for_each(|facts| {
        let mut last: Option<(&str, Option<&Arc<str>>)> = None;
        for fact in facts {
            let file = &*fact.evidence.file;
            let subject = match last {
                Some((known, subject)) if known == file => subject,
                _ => {
                    let subject = owner_of.get(file);
                    last = Some((file, subject));
                    subject
                }
            };
            fact.subject = subject.cloned();
            if fact.kind == FactKind::Import {
                fact.target = fact
                    .property_str("resolved")
                    .and_then(|resolved| owner_of.get(resolved).cloned());
            }
        }
    });
    // Ids are unique, so an unstable sort gives the one order (and needs no buffer).
    extraction
        .facts
        .par_sort_unstable_by(|a, b| a.id.cmp(&b.id));
    extraction
}

/// Runs the extractors over `files` in parallel: configs are read from the same snapshot as the
/// sources, and each rayon worker opens its own repository handle for git snapshots.
///
/// Each source file is read and parsed once. The first pass extracts what needs no type index
/// and reads what every Java, Kotlin and C# file of the project declares (owned or not,
/// extracted or not: imports may name its types); the declarations fill the type indexes in
/// file order, then the second pass resolves the waiting facts without trees or sources.
#[expect(
    clippy::too_many_arguments,
    reason = "each is one setting of the run, passed through from `extract_project` unchanged"
)]
fn extract_files(
    root: &Path,
    scope: &Scope,
    map: &ComponentMap,
    files: &[String],
    include_generated: bool,
    generic: &extractors::GenericFacts,
    debug: bool,
    progress: Option<&crate::progress::Progress>,
) -> Vec<(String, CachedOutcome)> {
    let needs_repository = scope.snapshot != Snapshot::Worktree;
    let mut context = if needs_repository {
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
    let repositories = Repositories::new(scope.git_root.as_deref().filter(|_| needs_repository));
    let shared = &context;
    // The project's other Java, Kotlin and C# files declare types too (excluded files are never
    // read). They are read in the same parallel pass as the extracted files, after them: one
    // pass balances the two threads better than two passes that each wait for their slowest file.
    let owned: HashSet<&str> = files.iter().map(String::as_str).collect();
    let others: Vec<&String> = scope
        .project_files
        .iter()
        .filter(|file| {
            !owned.contains(file.as_str())
                && extractors::reads_declarations(file)
                && !map.is_excluded(file)
        })
        .collect();
    let jobs: Vec<(&String, bool)> = files
        .iter()
        .map(|file| (file, true))
        .chain(others.iter().map(|file| (*file, false)))
        .collect();
    if let Some(progress) = progress {
        progress.add_files(files.len());
    }
    let mut done: Vec<FirstJob> = jobs
        .par_iter()
        // One file per rayon job: the files' costs differ a hundredfold, and with rayon's
        // adaptive splitting one worker could be left alone on a long run of them at the end.
        .with_max_len(1)
        .map(|(file, extracted)| {
            let job = repositories.with(|repository| {
                if *extracted {
                    let first = guarded(
                        || {
                            first_one(
                                shared,
                                scope,
                                root,
                                repository,
                                file,
                                include_generated,
                                generic,
                            )
                        },
                        |reason| (FirstOutcome::Done(CachedOutcome::Skipped(reason)), None),
                    );
                    FirstJob::Extracted(Box::new(first))
                } else {
                    // A file only read for its declarations declares nothing if its reader fails.
                    let declarations = guarded(
                        || {
                            read_file(scope, root, repository, file, SOURCE_LIMIT)
                                .ok()
                                .and_then(declaration_text)
                                .and_then(|text| extractors::read_declarations(file, &text))
                        },
                        |_| None,
                    );
                    FirstJob::Declared(declarations)
                }
            });
            if let (Some(progress), true) = (progress, *extracted) {
                progress.file_done();
            }
            job
        })
        .collect();
    let declared_others = done.split_off(files.len().min(done.len()));
    let mut declared: Vec<(&str, TypeDeclarations)> = others
        .iter()
        .zip(declared_others)
        .filter_map(|(file, job)| match job {
            FirstJob::Declared(Some(declarations)) => Some((file.as_str(), declarations)),
            _ => None,
        })
        .collect();
    // The first outcomes stay boxed until the second pass takes each: unboxing them here
    // would hold them twice at the fullest point of the run.
    let mut outcomes = Vec::with_capacity(done.len());
    for (file, job) in files.iter().zip(done) {
        if let FirstJob::Extracted(mut first) = job {
            declared.extend(
                first
                    .1
                    .take()
                    .map(|declarations| (file.as_str(), declarations)),
            );
            outcomes.push((file, first));
        }
    }
    // In file order, so that the indexes do not depend on the thread count.
    declared.sort_by(|a, b| a.0.cmp(b.0));
    for (file, declarations) in declared {
        context.add_declarations(file, declarations);
    }
    let context = &context;
    outcomes
        .into_par_iter()
        .with_max_len(1)
        .map(|(file, first)| {
            let (outcome, _) = *first;
            let outcome = match outcome {
                FirstOutcome::Done(outcome) => outcome,
                FirstOutcome::Pending(pass) => guarded(
                    || outcome_of(pass.finish(context), generic),
                    CachedOutcome::Skipped,
                ),
            };
            (file.clone(), outcome)
        })
        .collect()
}

/// Runs one file's extraction; if an extractor panics (a bug in lintel, never a property of the
/// file's text that it may rely on), the file gets `failed`'s outcome with the reason instead of
/// the whole check stopping: a `file-skipped` warning that names the internal error, so nothing
/// is lost silently and the other files' findings still stand. The panic message itself also
/// goes to stderr, through the default hook, for the bug report.
fn guarded<T>(extract: impl FnOnce() -> T, failed: impl FnOnce(String) -> T) -> T {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(extract)) {
        Ok(outcome) => outcome,
        Err(payload) => failed(format!(
            "lintel's extractor failed on it (internal error: {}); please report it",
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

#[cfg(test)]
mod tests {
    use super::{declared_python_encoding, guarded, skip_reason, source_text, SingleByte};

    #[test]
    fn an_extractor_that_panics_gives_the_file_its_failed_outcome_with_the_message() {
        let failed = |reason: String| Err(reason);
        assert_eq!(guarded(|| Ok(7), failed), Ok(7));
        let text = "broken";
        let reason = guarded(
            || -> Result<u8, String> { panic!("index out of bounds in `{text}`") },
            failed,
        );
        assert_eq!(
            reason,
            Err("lintel's extractor failed on it (internal error: index out of bounds in `broken`); please report it".to_owned())
        );
        let reason = guarded(|| -> Result<u8, String> { panic!("plain") }, failed);
        assert!(reason.unwrap_err().contains("(internal error: plain)"));
    }

    #[test]
    fn a_nul_byte_in_the_first_8_kib_marks_a_file_binary_and_one_after_does_not() {
        let mut bytes = vec![b'x'; 10 * 1024];
        assert_eq!(skip_reason(&bytes), None);
        bytes[8 * 1024] = 0;
        assert_eq!(
            skip_reason(&bytes),
            None,
            "the first byte past 8 KiB is not read"
        );
        bytes[8 * 1024 - 1] = 0;
        assert!(skip_reason(&bytes).is_some_and(|reason| reason.contains("NUL byte")));
        assert!(
            skip_reason(b"\0").is_some(),
            "a file shorter than 8 KiB is read whole"
        );
        assert_eq!(skip_reason(b""), None);
    }

    #[test]
    fn pep_263_declarations_on_the_first_two_lines_name_the_encoding() {
        assert_eq!(
            declared_python_encoding(b"# -*- coding: latin-1 -*-\nx = 1\n"),
            Some(SingleByte::Latin1)
        );
        assert_eq!(
            declared_python_encoding(b"#!/usr/bin/env python\n# vim: set fileencoding=CP1252 :\n"),
            Some(SingleByte::Windows1252)
        );
        assert_eq!(
            declared_python_encoding(b"\n\n# coding: latin-1\n"),
            None,
            "only the first two lines count"
        );
        assert_eq!(declared_python_encoding(b"x = 'coding: latin-1'\n"), None);
        assert_eq!(declared_python_encoding(b"# coding: utf-8\n"), None);
    }

    #[test]
    fn declared_single_byte_python_is_decoded_and_anything_else_is_skipped() {
        assert_eq!(
            source_text(
                "a.py",
                b"# coding: cp1252\ns = '\x93caf\xe9\x94'\n".to_vec()
            )
            .unwrap(),
            "# coding: cp1252\ns = '\u{201C}caf\u{e9}\u{201D}'\n"
        );
        assert_eq!(
            source_text("a.py", b"s = 'caf\xe9'\n".to_vec()).unwrap_err(),
            "file is not valid UTF-8: invalid byte at offset 8"
        );
        assert!(
            source_text(
                "a.ts",
                b"// coding: latin-1\nconst s = 'caf\xe9';\n".to_vec()
            )
            .is_err(),
            "only Python declares its encoding"
        );
    }
}
