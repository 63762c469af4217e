//! What a file's extraction asked of the project: the questions it put to the
//! [`ProjectContext`](crate::resolve::context::ProjectContext) (how an import resolves, which config applies) with
//! the answers it got.
//!
//! A file's facts depend on its bytes and on these answers only, so a caller that keeps a file's
//! facts keyed by its content (the engine's per-file cache) may reuse them in another project
//! state exactly when every recorded question still gets the same answer
//! ([`Probe::holds`]). Questions about whole structures (the Java, Kotlin and C# type indexes,
//! C# project files) are recorded as [`Probe::Whole`], and about Rust crates, which also depend
//! on the project's file list, as [`Probe::Files`]: the caller decides whether the whole project
//! is unchanged.
//!
//! Recording is per thread ([`recording`]): the extractors run a file on one thread from start
//! to end (each pass), so each file's questions are its own.

use std::cell::RefCell;

use serde::{Deserialize, Serialize};

use crate::resolve::context::{ProjectContext, Request};

/// One question a file's extraction asked of the project, with the answer it got (the answer's
/// debug text).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Probe {
    /// A JavaScript/TypeScript module specifier (`require`: CommonJS conditions).
    Module {
        /// The importing file.
        importer: String,
        /// The specifier.
        specifier: String,
        /// Whether it was a `require`.
        require: bool,
        /// The answer.
        answer: String,
    },
    /// A Python import.
    Python {
        /// The importing file.
        importer: String,
        /// Leading dots.
        level: usize,
        /// The module.
        module: String,
        /// The imported name (`from m import name`).
        name: Option<String>,
        /// The answer.
        answer: String,
    },
    /// A Go import path.
    Go {
        /// The importing file.
        importer: String,
        /// The import path.
        path: String,
        /// The answer.
        answer: String,
    },
    /// A Swift module import.
    Swift {
        /// The module.
        module: String,
        /// The answer.
        answer: String,
    },
    /// The folder of a Swift module.
    SwiftFolder {
        /// The module.
        module: String,
        /// The answer.
        answer: String,
    },
    /// A per-file setting of the project's configuration (the nearest tsconfig, Prisma or
    /// Drizzle config, Next.js application).
    Setting {
        /// Which setting.
        setting: Setting,
        /// The file asked about.
        file: String,
        /// The answer.
        answer: String,
    },
    /// A whole project structure built from configs and declarations was read (the Java,
    /// Kotlin and C# type indexes, C# projects).
    Whole,
    /// A whole project structure that also depends on the project's file list was read (Rust
    /// crates).
    Files,
}

/// A per-file setting ([`Probe::Setting`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Setting {
    /// `verbatimModuleSyntax` and its predecessors.
    PreservesImports,
    /// `strictNullChecks`.
    StrictNullChecks,
    /// The Prisma schema's category.
    Prisma,
    /// The Drizzle config's category.
    Drizzle,
    /// The Django settings' database category.
    Django,
    /// The Spring Boot datasources of a module.
    SpringDatasource,
    /// The Next.js application folder.
    NextRoot,
}

impl Probe {
    /// Whether `context` answers this question as it was answered when it was recorded;
    /// always false for [`Probe::Whole`], which only the caller can judge.
    pub fn holds(&self, context: &ProjectContext) -> bool {
        let answer = match self {
            Probe::Module {
                importer,
                specifier,
                require,
                ..
            } => {
                let request = if *require {
                    Request::Require
                } else {
                    Request::Import
                };
                context
                    .resolve_unrecorded(importer, specifier, request)
                    .answer()
            }
            Probe::Python {
                importer,
                level,
                module,
                name,
                ..
            } => context
                .resolve_python_unrecorded(importer, *level, module, name.as_deref())
                .answer(),
            Probe::Go { importer, path, .. } => {
                context.resolve_go_unrecorded(importer, path).answer()
            }
            Probe::Swift { module, .. } => context.resolve_swift_unrecorded(module).answer(),
            Probe::SwiftFolder { module, .. } => {
                text(&context.swift_module_folder_unrecorded(module))
            }
            Probe::Setting { setting, file, .. } => context.setting_unrecorded(*setting, file),
            Probe::Whole | Probe::Files => return false,
        };
        self.answer() == Some(answer.as_str())
    }

    fn answer(&self) -> Option<&str> {
        match self {
            Probe::Module { answer, .. }
            | Probe::Python { answer, .. }
            | Probe::Go { answer, .. }
            | Probe::Swift { answer, .. }
            | Probe::SwiftFolder { answer, .. }
            | Probe::Setting { answer, .. } => Some(answer),
            Probe::Whole | Probe::Files => None,
        }
    }
}

/// The text an answer is recorded as.
pub(crate) fn text(answer: &impl std::fmt::Debug) -> String {
    format!("{answer:?}")
}

thread_local! {
    /// The questions of the files being extracted on this thread, innermost last.
    static RECORDING: RefCell<Vec<Vec<Probe>>> = const { RefCell::new(Vec::new()) };
}

/// Runs `extract` and returns what it returned with the questions it asked of the project, each
/// once, in the order first asked.
pub fn recording<T>(extract: impl FnOnce() -> T) -> (T, Vec<Probe>) {
    RECORDING.with(|stack| stack.borrow_mut().push(Vec::new()));
    // Popped whether or not `extract` unwinds, so a panicking file leaves no frame behind.
    struct Pop;
    impl Drop for Pop {
        fn drop(&mut self) {
            RECORDING.with(|stack| {
                stack.borrow_mut().pop();
            });
        }
    }
    let pop = Pop;
    let value = extract();
    let probes = RECORDING.with(|stack| {
        stack
            .borrow_mut()
            .last_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    });
    drop(pop);
    (value, probes)
}

/// Whether a question is being recorded on this thread (so answers are only formatted then).
pub(crate) fn is_recording() -> bool {
    RECORDING.with(|stack| !stack.borrow().is_empty())
}

/// Records a question, unless it was asked before.
pub(crate) fn record(probe: impl FnOnce() -> Probe) {
    if !is_recording() {
        return;
    }
    let probe = probe();
    RECORDING.with(|stack| {
        if let Some(frame) = stack.borrow_mut().last_mut() {
            if !frame.contains(&probe) {
                frame.push(probe);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context(files: &[&str]) -> ProjectContext {
        let files: Vec<String> = files.iter().map(|file| (*file).to_owned()).collect();
        ProjectContext::discover_with(&files, |_| None)
    }

    #[test]
    fn a_files_import_questions_are_recorded_and_hold_until_the_answer_changes() {
        let before = context(&["app/__init__.py", "app/a.py", "app/b.py"]);
        let (extraction, probes) = recording(|| {
            crate::extract_file(&before, "app/a.py", "from app import b\nimport os\n")
        });
        assert!(extraction.is_some());
        assert!(
            probes
                .iter()
                .any(|probe| matches!(probe, Probe::Python { module, .. } if module == "app")),
            "{probes:?}"
        );
        assert!(probes.iter().all(|probe| probe.holds(&before)));
        // Another file added elsewhere changes no answer.
        let unrelated = context(&["app/__init__.py", "app/a.py", "app/b.py", "lib/c.py"]);
        assert!(probes.iter().all(|probe| probe.holds(&unrelated)));
        // The imported module gone: an answer changes.
        let moved = context(&["app/__init__.py", "app/a.py", "app/c.py"]);
        assert!(probes.iter().any(|probe| !probe.holds(&moved)));
        // Nothing is recorded outside `recording`, and frames do not leak into each other.
        assert!(!is_recording());
        let (_, outer) = recording(|| {
            let (_, inner) = recording(|| before.resolve_python("app/a.py", 0, "app", None));
            assert_eq!(inner.len(), 1);
        });
        assert!(outer.is_empty());
    }

    #[test]
    fn reading_a_type_index_is_a_question_about_the_whole_project() {
        let project = context(&["src/A.java", "src/B.java"]);
        let (_, probes) = recording(|| {
            crate::extract_file(
                &project,
                "src/A.java",
                "package p;\nimport q.B;\nclass A { B b; }\n",
            )
        });
        assert!(probes.contains(&Probe::Whole), "{probes:?}");
        assert!(!Probe::Whole.holds(&project), "only the caller judges it");
    }
}
