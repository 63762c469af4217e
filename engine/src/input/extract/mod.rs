//! The extraction driver: reads every owned source file of the snapshot once, in parallel, runs the
//! extractors, and fills `subject`/`target` with the one file → component mapping (see `component` in policies/LANGUAGE.md).
//!
//! A file lintel cannot take (unreadable, not UTF-8, a NUL byte in its first 8 KiB, larger than
//! 2 MiB) becomes a `file-skipped` warning; a file with tree-sitter error nodes is kept and gets a
//! `parse-errors` warning. Nothing is dropped silently.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

use policies::facts::{Fact, FactKind};
use rayon::prelude::*;

use crate::input::cache::{CachedOutcome, ExtractionCache};
use crate::input::paths::ComponentMap;
use crate::input::scope::Scope;
use crate::verdict::{ExtractorDebug, Warning};

mod files;
mod parts;
mod text;

use files::extract_files;
pub(crate) use text::skip_reason;

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

/// Stack of a worker thread. The walks over a tree keep their own stacks, and the readers of an
/// expression that recurse on its parts are bounded, but a file's tree may nest thousands deep:
/// a margin over the default 2 MiB costs nothing until touched (only the pages used are
/// resident).
pub(crate) const WORKER_STACK_BYTES: usize = 32 * 1024 * 1024;

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
    let owned = owned_files(scope, map, &mut extraction);
    let (outcomes, cached) = extract_files(
        root,
        scope,
        &owned,
        include_generated,
        generic,
        debug,
        cache,
        progress,
    );
    extraction.files_cached = cached;
    let route_links = gather(&mut extraction, outcomes, debug);
    // Mount prefixes that cross files (`app.use('/api', users)` with `users` imported).
    extractors::link_routes(&mut extraction.facts, &route_links);
    // A Rust name a module only re-exports (`pub use config::CONFIG;`) is its declaring file's.
    extractors::follow_rust_reexports(&mut extraction.facts);
    // A Rust file that only `#[cfg(test)] mod x;` declares is test code.
    extractors::mark_rust_test_modules(&mut extraction.facts);
    fill_subjects(&mut extraction);
    // Ids are unique, so an unstable sort gives the one order (and needs no buffer).
    extraction
        .facts
        .par_sort_unstable_by(|a, b| a.id.cmp(&b.id));
    extraction
}

/// Every file that is not excluded, to be extracted (owned or not), with the owners of the owned
/// ones, the `ambiguous-component-mapping` warnings, `files_excluded`, and the files the listing
/// could not take as `file-skipped`.
fn owned_files(scope: &Scope, map: &ComponentMap, extraction: &mut Extraction) -> Vec<String> {
    /// What the spec makes of one listed file.
    enum Judged {
        /// `exclude`d: never read.
        Excluded,
        /// Owned by a component.
        Owned(crate::input::paths::Ownership),
        /// Owned by none; `true` when a `!` glob took it out of its component.
        Unowned(bool),
    }
    // Matching every file against every component's globs is the one part of listing that
    // grows with the spec; it runs on the workers, the bookkeeping after it in order.
    let judged: Vec<Judged> = scope
        .project_files
        .par_iter()
        .map(|file| match map.ownership(file) {
            // `ownership` leaves excluded files out, so only an unowned one is asked again.
            Some(ownership) => Judged::Owned(ownership),
            None if map.is_excluded(file) => Judged::Excluded,
            None => Judged::Unowned(map.is_removed(file)),
        })
        .collect();
    let mut owned = Vec::new();
    let mut excluded = 0;
    for (file, judged) in scope.project_files.iter().zip(judged) {
        match judged {
            Judged::Excluded => {
                excluded += 1;
                continue;
            }
            Judged::Owned(ownership) => {
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
            }
            // A file a `!` glob took out of its component, and no other owns.
            Judged::Unowned(removed) => excluded += usize::from(removed),
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
    owned
}

/// Gathers each file's outcome into the extraction (facts, warnings, counts, debug details);
/// returns the route links of the files that have some.
fn gather(
    extraction: &mut Extraction,
    outcomes: Vec<(String, CachedOutcome)>,
    debug: bool,
) -> BTreeMap<String, extractors::RouteLinks> {
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
        // What it holds for other files' facts stays too: the URL constants it exports, its
        // client instances and request wrappers, mount prefixes, client classes, EF Core
        // providers (a shared `config.ts` no component owns still fills the URLs that read it).
        let serves_chains_only = !extraction.owners.contains_key(&file)
            && extractors::Language::for_path(&file) != Some(extractors::Language::GitHubActions);
        if serves_chains_only {
            if let CachedOutcome::Extracted { facts, links, .. } = outcome {
                extraction
                    .facts
                    .extend(facts.into_iter().filter(|fact| is_chain_fact(fact)));
                if let Some(links) = links {
                    route_links.insert(file.clone(), *links);
                }
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
    route_links
}

/// Fills each fact's `subject` (the owner of its file) and an import's `target` (the owner of
/// the file it resolves to).
fn fill_subjects(extraction: &mut Extraction) {
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
}

#[cfg(test)]
mod tests {
    use super::files::guarded;
    use super::text::{declared_python_encoding, skip_reason, source_text, SingleByte};

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
