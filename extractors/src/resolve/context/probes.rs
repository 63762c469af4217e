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
use std::collections::HashSet;

use serde::{Deserialize, Serialize};

pub use crate::resolve::context::type_index::{IndexOf, TypeQuestion};
pub use crate::resolve::context::ProjectQuestion;
use crate::resolve::context::{ProjectContext, Request};

/// One question a file's extraction asked of the project, with the answer it got (the answer's
/// debug text). The lookups in the type indexes are written under short names: a Java, Kotlin
/// or C# file asks some hundred, and the cache reads them at every run.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
    /// Whether a Java or Kotlin type of the project that no source file declares lies where a
    /// `.gitignore` keeps generated code (`ProjectContext::jvm_generated`).
    JvmGenerated {
        /// The importing file.
        importer: String,
        /// The type's path.
        path: String,
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
    /// A lookup in a type index (Java and Kotlin, or C#), answered once every file's
    /// declarations are in ([`Probe::needs_types`]).
    #[serde(rename = "T")]
    Types {
        /// The index.
        #[serde(rename = "i")]
        index: IndexOf,
        /// The lookup.
        #[serde(rename = "q")]
        question: TypeQuestion,
        /// The answer.
        #[serde(rename = "a")]
        answer: String,
    },
    /// A question about the C# projects (`csproj`) and the `global using` directives of their
    /// files, answered once every file's declarations are in.
    #[serde(rename = "P")]
    CSharpProject {
        /// The question.
        #[serde(rename = "q")]
        question: ProjectQuestion,
        /// The answer.
        #[serde(rename = "a")]
        answer: String,
    },
    /// A whole project structure was read (the names Rust modules declare), judged by the
    /// caller.
    Whole,
    /// A whole project structure that also depends on the project's file list was read (Rust
    /// crates).
    Files,
}

/// A per-file setting ([`Probe::Setting`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
    /// The Django settings' cache store.
    DjangoCache,
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
            Probe::JvmGenerated { importer, path, .. } => {
                text(&context.jvm_generated_unrecorded(importer, path))
            }
            Probe::SwiftFolder { module, .. } => {
                text(&context.swift_module_folder_unrecorded(module))
            }
            Probe::Setting { setting, file, .. } => context.setting_unrecorded(*setting, file),
            Probe::Types {
                index, question, ..
            } => context.type_answer(*index, question),
            Probe::CSharpProject { question, .. } => context.project_answer(question),
            Probe::Whole | Probe::Files => return false,
        };
        self.answer() == Some(answer.as_str())
    }

    /// Whether the question is about the type indexes, which hold only once every file's
    /// declarations are in: the caller asks [`Probe::holds`] then, not before.
    pub fn needs_types(&self) -> bool {
        matches!(self, Probe::Types { .. } | Probe::CSharpProject { .. })
    }

    /// The part of the project's declarations whose contents the answer depends on
    /// ([`ProjectContext::declaration_parts`]); `None` for a question that reads none of them
    /// (the C# project structure comes from the project files alone) or that is no lookup in
    /// the type indexes.
    pub fn declaration_part(&self) -> Option<String> {
        match self {
            Probe::Types {
                index, question, ..
            } => Some(question.part(index.tag())),
            Probe::CSharpProject { question, .. } => match question {
                ProjectQuestion::GlobalUsings(_) | ProjectQuestion::GlobalAliases(_) => {
                    Some(format!("{}G", IndexOf::CSharp.tag()))
                }
                ProjectQuestion::NamespaceIsTheProjects(_) => {
                    Some(format!("{}K", IndexOf::CSharp.tag()))
                }
                ProjectQuestion::Usings(_)
                | ProjectQuestion::ProjectOf(_)
                | ProjectQuestion::ProjectSees(..)
                | ProjectQuestion::Sees(..)
                | ProjectQuestion::CompileRemoved(_)
                | ProjectQuestion::MayBeUnread(_) => None,
            },
            _ => None,
        }
    }

    fn answer(&self) -> Option<&str> {
        match self {
            Probe::Module { answer, .. }
            | Probe::Python { answer, .. }
            | Probe::Go { answer, .. }
            | Probe::Swift { answer, .. }
            | Probe::SwiftFolder { answer, .. }
            | Probe::JvmGenerated { answer, .. }
            | Probe::Setting { answer, .. }
            | Probe::Types { answer, .. }
            | Probe::CSharpProject { answer, .. } => Some(answer),
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
    static RECORDING: RefCell<Vec<Frame>> = const { RefCell::new(Vec::new()) };
}

/// The questions of one file, in the order first asked, and the same as a set (a Java file
/// may ask some hundred).
#[derive(Default)]
struct Frame {
    probes: Vec<Probe>,
    asked: HashSet<Probe>,
}

/// Runs `extract` and returns what it returned with the questions it asked of the project, each
/// once, in the order first asked.
pub fn recording<T>(extract: impl FnOnce() -> T) -> (T, Vec<Probe>) {
    RECORDING.with(|stack| stack.borrow_mut().push(Frame::default()));
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
            .map(|frame| std::mem::take(&mut frame.probes))
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
            if frame.asked.insert(probe.clone()) {
                frame.probes.push(probe);
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

    /// A project of Java files whose declarations are in the type index, as after the first pass.
    fn typed(files: &[(&str, &str)]) -> ProjectContext {
        let paths: Vec<&str> = files.iter().map(|(path, _)| *path).collect();
        let mut project = context(&paths);
        for (path, text) in files {
            if let Some(declarations) = crate::read_declarations(path, text) {
                project.add_declarations(path, declarations);
            }
        }
        project
    }

    #[test]
    fn java_type_lookups_are_questions_that_hold_until_the_types_looked_up_change() {
        let a = ("src/A.java", "package p;\nimport q.B;\nclass A { B b; }\n");
        let b = ("src/q/B.java", "package q;\npublic class B {}\n");
        let project = typed(&[a, b]);
        let extract = |project: &ProjectContext| {
            recording(|| crate::extract_file(project, a.0, a.1).map(|file| file.facts.len()))
        };
        let (facts, probes) = extract(&project);
        assert!(facts.is_some());
        assert!(
            probes.iter().any(|probe| matches!(
                probe,
                Probe::Types { index: IndexOf::Jvm, question: TypeQuestion::Name(name), answer }
                    if name == "B" && answer == "q\0src/q/B.java\n"
            )),
            "{probes:?}"
        );
        assert!(!probes.contains(&Probe::Whole), "{probes:?}");
        assert!(probes.iter().all(|probe| probe.holds(&project)));
        // A type added in another package changes no answer the file got.
        let other = ("src/r/C.java", "package r;\npublic class C {}\n");
        assert!(probes
            .iter()
            .all(|probe| probe.holds(&typed(&[a, b, other]))));
        // The imported type moved to another file: the answer changes.
        let moved = ("src/q/Moved.java", "package q;\npublic class B {}\n");
        assert!(probes.iter().any(|probe| !probe.holds(&typed(&[a, moved]))));
        // A type added to the file's own package changes that package's answer.
        let sibling = ("src/p/D.java", "package p;\npublic class D {}\n");
        assert!(probes
            .iter()
            .any(|probe| !probe.holds(&typed(&[a, b, sibling]))));
        assert!(probes.iter().all(Probe::needs_types));
    }

    #[test]
    fn csharp_lookups_are_questions_that_hold_until_the_types_or_projects_looked_up_change() {
        let a = (
            "Api/Handler.cs",
            "using Shop.Core;\nnamespace Shop.Api { public class Handler { Store store; } }\n",
        );
        let b = (
            "Core/Store.cs",
            "namespace Shop.Core { public class Store {} }\n",
        );
        let project = typed(&[a, b]);
        let (_, probes) = recording(|| crate::extract_file(&project, a.0, a.1));
        assert!(
            probes.iter().any(|probe| matches!(
                probe,
                Probe::Types {
                    index: IndexOf::CSharp,
                    ..
                }
            )),
            "{probes:?}"
        );
        assert!(!probes.contains(&Probe::Whole), "{probes:?}");
        assert!(probes.iter().all(Probe::needs_types));
        assert!(probes.iter().all(|probe| probe.holds(&project)));
        // A type in a namespace the file never looks at changes no answer.
        let other = (
            "Billing/Invoice.cs",
            "namespace Acme.Billing { public class Invoice {} }\n",
        );
        assert!(probes
            .iter()
            .all(|probe| probe.holds(&typed(&[a, b, other]))));
        // The type it uses moved to another file: an answer changes.
        let moved = (
            "Core/Moved.cs",
            "namespace Shop.Core { public class Store {} }\n",
        );
        assert!(probes.iter().any(|probe| !probe.holds(&typed(&[a, moved]))));
        // A `global using` added in its project changes what its names may mean.
        let global = ("Api/Usings.cs", "global using Shop.Core;\n");
        assert!(probes
            .iter()
            .any(|probe| !probe.holds(&typed(&[a, b, global]))));
        // A type added to a namespace it uses but that it does not name changes nothing: the
        // file depends on the types it names, not on the rest of each namespace it sees.
        let unnamed = (
            "Core/Basket.cs",
            "namespace Shop.Core { public class Basket {} }\n",
        );
        assert!(probes
            .iter()
            .all(|probe| probe.holds(&typed(&[a, b, unnamed]))));
        // One that it names (`Store`, now declared in its own namespace too) does.
        let shadow = (
            "Api/Store.cs",
            "namespace Shop.Api { public class Store {} }\n",
        );
        assert!(probes
            .iter()
            .any(|probe| !probe.holds(&typed(&[a, b, shadow]))));
    }
}
