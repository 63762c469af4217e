//! The extraction driver: reads every owned source file of the snapshot once, in parallel, runs the
//! extractors, and fills `subject`/`target` with the one file → component mapping (see `component` in policies/LANGUAGE.md).
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

use crate::input::paths::ComponentMap;
use crate::input::scope::{read_file, Scope, Snapshot, MAX_FILE_BYTES, SOURCE_LIMIT};
use crate::verdict::{ExtractorDebug, Warning};

/// What extraction produced.
#[derive(Debug, Default)]
pub struct Extraction {
    /// Every graph fact, sorted by id, with `subject`/`target` filled. Each fact is boxed, so
    /// that gathering the files' facts into this one vector moves pointers: the facts of a large
    /// project are never held twice.
    #[expect(
        clippy::vec_box,
        reason = "facts are boxed so that gathering them moves pointers, never the facts"
    )]
    pub facts: Vec<Box<Fact>>,
    /// `file-skipped`, `parse-errors` and `ambiguous-component-mapping` warnings.
    pub warnings: Vec<Warning>,
    /// Files extracted.
    pub files_scanned: usize,
    /// Files skipped.
    pub files_skipped: usize,
    /// Generated files left out.
    pub files_generated: usize,
    /// Files whose outcome came from the extraction cache rather than a parse.
    pub files_cached: usize,
    /// Files the spec leaves out (an `exclude` glob matches them, or a `!` glob took them out of
    /// a component and no other component owns them); `None` when the spec has neither.
    pub files_excluded: Option<usize>,
    /// Per-file details, with `--debug-extractors` only.
    pub debug: Vec<ExtractorDebug>,
    /// Owner of every owned project file.
    pub owners: BTreeMap<String, String>,
}

use crate::input::cache::{CachedOutcome, ExtractionCache, FileEntry};
use extractors::probes::{recording, Probe};

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
    Extracted(Box<Fresh>),
    Cached(Box<Hit>),
    Declared(Option<TypeDeclarations>),
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

/// The facts of an unowned file that chains use (see Chains under `invariant` in policies/LANGUAGE.md): flow edges.
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
/// Workflow files are extracted whether or not a component owns them (see the rule's section of policies/LANGUAGE.md).
/// A file an `exclude` glob matches (see `exclude` in policies/LANGUAGE.md) is not read at all, not even as a workflow.
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
    progress: Option<&crate::input::progress::Progress>,
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
        // (see Chains under `invariant` in policies/LANGUAGE.md), and workflow files are read whoever owns them.
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
    let (outcomes, cached) = extract_files(
        root,
        scope,
        map,
        &owned,
        include_generated,
        generic,
        debug,
        cache,
        progress,
    );
    extraction.files_cached = cached;
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
/// sources, and each rayon worker opens its own repository handle for git snapshots. Returns
/// each file's outcome and how many came from `cache`.
///
/// Each source file is read and parsed once. The first pass extracts what needs no type index
/// and reads what every Java, Kotlin and C# file of the project declares (owned or not,
/// extracted or not: imports may name its types); the declarations fill the type indexes in
/// file order, then the second pass resolves the waiting facts without trees or sources.
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
fn extract_files(
    root: &Path,
    scope: &Scope,
    map: &ComponentMap,
    files: &[String],
    include_generated: bool,
    generic: &extractors::GenericFacts,
    debug: bool,
    cache: Option<&ExtractionCache>,
    progress: Option<&crate::input::progress::Progress>,
) -> (Vec<(String, CachedOutcome)>, usize) {
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
    let options = cache.map(|_| {
        let gitattributes = content_identity(scope, root, &repositories, ".gitattributes");
        ExtractionCache::options_key(include_generated, generic, &gitattributes)
    });
    let cache = cache.zip(options.as_deref());
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
    let first = |file: &str, read: Option<std::io::Result<Vec<u8>>>, key: Option<String>| {
        repositories.with(|repository| {
            let extract = || {
                guarded(
                    || {
                        first_one(
                            shared,
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
    let mut done: Vec<FirstJob> = jobs
        .par_iter()
        // One file per rayon job: the files' costs differ a hundredfold, and with rayon's
        // adaptive splitting one worker could be left alone on a long run of them at the end.
        .with_max_len(1)
        .map(|(file, extracted)| {
            if !*extracted {
                // A file only read for its declarations declares nothing if its reader fails.
                let declarations = repositories.with(|repository| {
                    guarded(
                        || {
                            read_file(scope, root, repository, file, SOURCE_LIMIT)
                                .ok()
                                .and_then(declaration_text)
                                .and_then(|text| extractors::read_declarations(file, &text))
                        },
                        |_| None,
                    )
                });
                return FirstJob::Declared(declarations);
            }
            let Some((cache, options)) =
                cache.filter(|_| extractors::Language::for_path(file).is_some())
            else {
                return FirstJob::Extracted(Box::new(first(file, None, None)));
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
                    (content, Some(read))
                }
                _ => (
                    scope.blobs.get(file.as_str()).map(ToString::to_string),
                    None,
                ),
            };
            let Some(key) = content.map(|content| ExtractionCache::key(options, file, &content))
            else {
                return FirstJob::Extracted(Box::new(first(file, read, None)));
            };
            match cache.load(&key, file) {
                Some(entry)
                    if entry.probes.iter().all(|probe| {
                        matches!(probe, Probe::Whole | Probe::Files) || probe.holds(shared)
                    }) =>
                {
                    if let Some(progress) = progress {
                        progress.file_done();
                    }
                    FirstJob::Cached(Box::new(Hit { entry, key }))
                }
                _ => FirstJob::Extracted(Box::new(first(file, read, Some(key)))),
            }
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
    for (file, job) in files.iter().zip(done.iter_mut()) {
        let declarations = match job {
            // A fresh file's declarations are also stored with it.
            FirstJob::Extracted(fresh) if fresh.key.is_some() => fresh.declarations.clone(),
            FirstJob::Extracted(fresh) => fresh.declarations.take(),
            FirstJob::Cached(hit) => hit.entry.declarations.clone(),
            FirstJob::Declared(_) => None,
        };
        declared.extend(declarations.map(|declarations| (file.as_str(), declarations)));
    }
    // In file order, so that the indexes do not depend on the thread count.
    declared.sort_by(|a, b| a.0.cmp(b.0));
    // The project's shape, for the entries that ask about a whole structure (a fresh file may
    // ask only in its second pass).
    let shape = cache.map(|_| project_shape(scope, root, &repositories, &context, &declared));
    if let Some(shape) = &shape {
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
                                entry.shape.as_deref() == Some(wanted)
                                    && entry.probes.iter().all(|probe| {
                                        matches!(probe, Probe::Whole | Probe::Files)
                                            || probe.holds(shared)
                                    })
                            })
                    });
                    if let Some(entry) = shaped {
                        hit.entry = entry;
                        return;
                    }
                    let key = hit.key.clone();
                    let mut fresh = first(file, None, Some(key));
                    // The same declarations (they follow from the content), already in
                    // `declared`, are stored with it again.
                    fresh.declarations = hit.entry.declarations.take();
                    *job = FirstJob::Extracted(Box::new(fresh));
                }
            });
    }
    for (file, declarations) in declared {
        context.add_declarations(file, declarations);
    }
    let context = &context;
    let stored = std::sync::atomic::AtomicBool::new(false);
    let outcomes: Vec<(String, CachedOutcome, bool)> = files
        .iter()
        .zip(done)
        .collect::<Vec<_>>()
        .into_par_iter()
        .with_max_len(1)
        .map(|(file, job)| {
            let fresh = match job {
                FirstJob::Cached(hit) => {
                    if let Some((cache, _)) = cache.filter(|(cache, _)| cache.is_remembering()) {
                        let _ = cache.remember(&hit.key, &hit.entry);
                    }
                    return (file.clone(), hit.entry.outcome, true);
                }
                FirstJob::Extracted(fresh) => *fresh,
                FirstJob::Declared(_) => return (file.clone(), CachedOutcome::NotSource, false),
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
                    let (outcome, more) = recording(|| {
                        guarded(
                            || outcome_of(pass.finish(context), generic),
                            CachedOutcome::Skipped,
                        )
                    });
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
            let shape = shape
                .as_ref()
                .filter(|_| crate::input::cache::asks_whole(&probes))
                .map(|(types, files)| crate::input::cache::shape_for(&probes, types, files).to_owned());
            let entry = FileEntry {
                outcome,
                declarations,
                probes,
                shape,
            };
            cache.store(&key, file, &entry);
            if let Some(shape) = &entry.shape {
                cache.store(&ExtractionCache::shaped_key(&key, shape), file, &entry);
            }
            stored.store(true, std::sync::atomic::Ordering::Relaxed);
            (file.clone(), entry.outcome, false)
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
/// projects, the symbolic links, the content of every resolution config discovery read and
/// what every file declares; for Rust crates, that and every project file's path. Returns both
/// digests (types, files).
fn project_shape(
    scope: &Scope,
    root: &Path,
    repositories: &Repositories<'_>,
    context: &ProjectContext,
    declared: &[(&str, TypeDeclarations)],
) -> (String, String) {
    let mut parts: Vec<Vec<u8>> = Vec::new();
    parts.push(b"links".to_vec());
    for (link, target) in &scope.symlinks {
        parts.push(format!("{link} -> {target}").into_bytes());
    }
    parts.push(b"configs".to_vec());
    for config in context.config_files() {
        parts.push(config.as_bytes().to_vec());
        parts.push(content_identity(scope, root, repositories, config).into_bytes());
    }
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
    (types, files)
}

/// How the reason of a file whose extraction panicked starts.
const FAILED: &str = "lintel's extractor failed on it";

/// Runs one file's extraction; if an extractor panics (a bug in lintel, never a property of the
/// file's text that it may rely on), the file gets `failed`'s outcome with the reason instead of
/// the whole check stopping: a `file-skipped` warning that names the internal error, so nothing
/// is lost silently and the other files' findings still stand. The panic message itself also
/// goes to stderr, through the default hook, for the bug report.
fn guarded<T>(extract: impl FnOnce() -> T, failed: impl FnOnce(String) -> T) -> T {
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
