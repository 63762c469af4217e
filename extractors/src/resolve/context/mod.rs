//! The project-wide knowledge extractors need beyond one file: which files exist, how module
//! specifiers resolve (`tsconfig`/`jsconfig` `baseUrl` and `paths`, workspace packages), and which
//! databases ORM clients talk to (Prisma provider, Drizzle dialect).
//!
//! [`ProjectContext`] is built once per run and shared read-only by every worker. Building it
//! reads configuration files from disk, never outside the project root (`read`); everything
//! after that is in memory. Resolution itself is in `resolve`.

mod answers;
mod cargo;
mod csproj;
mod datastores;
mod gitignore;
mod go;
mod jsonc;
mod lookups;
mod next;
pub(crate) mod paths;
pub mod probes;
mod python;
mod read;
mod resolve;
mod semver;
mod spring;
mod webpack;
pub(crate) use spring::Datasource;
pub(crate) mod swift;
mod toml_lite;
mod tsconfig;
mod type_index;
mod workspace;

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::Path;
use std::sync::Arc;

pub(crate) use crate::facts::imports::Resolution;
pub use crate::gitattributes::GitAttributes;
#[cfg(test)]
pub(crate) use cargo::attribute_path_file;
pub(crate) use cargo::{attribute_path_target, Crate, Crates};
pub use csproj::is_project_input as csharp_project_input;
pub(crate) use csproj::ProjectUsings;
pub(crate) use lookups::Types;
pub use type_index::TypeDeclarations;
pub(crate) use type_index::{
    Declarations, ExtensionMethod, Globals, IndexOf, RustNames, TypeIndex, TypeQuestion,
};
pub(crate) use workspace::Request;

use crate::resolve::context::probes::{Probe, Setting};
use datastores::Datastores;
use tsconfig::{CompilerPaths, ConfigLoader};
use workspace::WorkspacePackage;

/// Project-wide resolution configuration, read once per run: TypeScript configs and workspace
/// packages, Python source roots, Go modules, Rust crates, Swift modules, the global usings of
/// C# project files, the root `.gitattributes` and the `.gitignore` files; and the Java/Kotlin and C# type indexes, filled with what each of those
/// files declares as it is extracted ([`ProjectContext::add_declarations`]).
#[derive(Debug, Default)]
pub struct ProjectContext {
    /// INVARIANT: project-relative paths with `/`, as the engine listed them.
    files: HashSet<String>,
    /// Every folder that holds one of `files`, at any depth (made on first use).
    folders: std::sync::OnceLock<HashSet<String>>,
    /// Effective `baseUrl`/`paths` of every `tsconfig.json`/`jsconfig.json`, by directory.
    configs: BTreeMap<String, Arc<CompilerPaths>>,
    /// Workspace packages by `name`.
    packages: BTreeMap<String, WorkspacePackage>,
    /// `package.json` `imports` maps (`#subpath` specifiers), deepest folder first.
    import_maps: Vec<workspace::ImportMap>,
    /// The entries every `package.json` names (`main`, `module`, `types`…), by folder, for
    /// imports of the folder itself (`require('./vendor')`).
    folder_entries: BTreeMap<String, Vec<String>>,
    datastores: Datastores,
    /// The Spring Boot modules' datasources.
    spring: spring::SpringDatasources,
    /// Python source roots and modules.
    python: python::PythonIndex,
    /// Go modules and package files.
    go: go::GoModules,
    /// Java and Kotlin packages and their types.
    jvm: TypeIndex,
    /// C# namespaces and their types.
    csharp: TypeIndex,
    /// The global usings of C# project files (`.csproj`, `Directory.Build.props`).
    csharp_projects: csproj::CSharpProjects,
    /// Rust crates.
    crates: Crates,
    /// What each extracted Rust file's module declares at its top level, by file.
    rust_modules: BTreeMap<String, RustNames>,
    /// Swift modules.
    swift: swift::SwiftModules,
    /// Next.js applications.
    next: next::NextApps,
    /// The `resolve.modules` folders of the webpack configurations.
    webpack: webpack::WebpackRoots,
    /// The `linguist-generated` patterns of the root `.gitattributes`.
    gitattributes: GitAttributes,
    /// The project's `.gitignore` files: where generated code and build output lie.
    gitignores: gitignore::GitIgnores,
    /// Every configuration file discovery read, for change detection.
    config_files: Vec<String>,
    /// Every path discovery asked for, read or not (a missing, oversized or non-UTF-8 file too).
    config_asks: Vec<String>,
    /// The generic `call`, `assignment` and `external` facts extracted (all by default; they
    /// exist for reviewed queries, and a check makes only those its queries may match).
    generic: AllByDefault,
    /// Whether each file's query passes are timed (`FileExtraction::queries`).
    query_timing: bool,
    /// Whether walks step over the statements that can add nothing (see
    /// [`ProjectContext::set_pruning`]).
    pruning: bool,
    /// In-project symbolic links: link path → target path (see [`ProjectContext::set_symlinks`]).
    symlinks: BTreeMap<String, String>,
    /// The namespaces of the C# `global using` directives of each C# project's files, worked
    /// out on the first [`ProjectContext::csharp_project_global_usings`] after the last
    /// declarations were added.
    csharp_project_globals: std::sync::OnceLock<BTreeMap<String, BTreeSet<String>>>,
    /// The C# `global using` aliases of each C# project's files (and of every file, under
    /// `None`), worked out on the first [`ProjectContext::csharp_project_global_aliases`] after
    /// the last declarations were added.
    csharp_project_aliases: std::sync::OnceLock<GlobalAliases>,
    /// The files the Rust `#[path]` attributes of the extracted files name, each with its
    /// declarations, worked out on the first [`ProjectContext::rust_path_declarations`] after the
    /// last declarations were added.
    rust_path_targets: std::sync::OnceLock<RustPathTargets>,
    /// The strings many facts of the run hold (an import's specifier and resolved file), kept
    /// once.
    interner: policies::facts::Interner,
    /// The answers about the C# projects (not about one file) given since the last change of
    /// the context ([`ProjectContext::project_answer`]): every file of a project asks them.
    project_answers: answers::Answers<ProjectQuestion>,
    /// The C# files whose declarations were added: a `.cs` file of the project that is not
    /// among them (one the spec excludes) may declare any namespace.
    csharp_read: HashSet<String>,
}

/// A Rust module declared with a `#[path]` attribute: the inline modules around the declaration
/// and the attribute's path as written.
pub(crate) type PathModule<'a> = (&'a [String], &'a str);

/// The files Rust `#[path]` attributes name → each declaring file with the module path of the
/// declaration within it (the inline modules around it, then its name).
type RustPathTargets = BTreeMap<String, Vec<(String, Vec<String>)>>;

/// The C# `global using` aliases by project folder (`None`: every file's), alias → target.
type GlobalAliases = BTreeMap<Option<String>, BTreeMap<String, String>>;

impl ProjectContext {
    /// Reads the resolution configuration of the project at `root`, whose files are `files`
    /// (project-relative, `/` separators): `tsconfig.json`/`jsconfig.json` with `extends`,
    /// workspace `package.json` files, `*.prisma` schemas and `drizzle.config.*`, `pyproject.toml`
    /// and `setup.cfg`, `go.mod` and `go.work`, `Cargo.toml`, `Package.swift`, `.csproj` files with
    /// the `Directory.Build.props` above them, the root `.gitattributes` and every `.gitignore`. No source file is read: the Java/Kotlin and C# type indexes start
    /// empty (see [`ProjectContext::add_declarations`]).
    /// Unreadable or malformed configuration is ignored; discovery never fails.
    pub fn discover(root: &Path, files: &[String]) -> ProjectContext {
        Self::build(&read::ConfigReader::from_disk(root), files)
    }

    /// Switches every generic `call`, `assignment` and `external` fact on or off (on by
    /// default).
    pub fn set_generic_facts(&mut self, enabled: bool) {
        self.set_generic(crate::generic::GenericFacts::all_or_none(enabled));
    }

    /// Sets the generic facts extracted: those the run's reviewed queries may match.
    pub fn set_generic(&mut self, generic: crate::generic::GenericFacts) {
        self.generic = AllByDefault(generic);
    }

    /// The generic facts extracted.
    pub fn generic(&self) -> &crate::generic::GenericFacts {
        &self.generic.0
    }

    /// Whether any generic `call` or `assignment` fact may be extracted: the walks find the
    /// calls and assignments only then.
    pub fn generic_facts(&self) -> bool {
        self.generic.0.wants_calls_or_assignments()
    }

    /// Switches the timing of each file's query passes on or off (off by default): when on,
    /// [`crate::FileExtraction::queries`] lists them, for `--debug-extractors`.
    pub fn set_query_timing(&mut self, enabled: bool) {
        self.query_timing = enabled;
    }

    /// Switches on or off (on by default) the stepping over of statements that can add no fact:
    /// without the generic facts, a Java walk does not visit a statement whose names the file
    /// used before and that holds nothing a pattern starts with. The facts are the same either
    /// way; off is for tests that show it.
    pub fn set_pruning(&mut self, enabled: bool) {
        self.pruning = enabled;
    }

    /// Whether walks may step over statements (see [`ProjectContext::set_pruning`]).
    pub fn pruning(&self) -> bool {
        self.pruning
    }

    /// Whether each file's query passes are timed.
    pub fn query_timing(&self) -> bool {
        self.query_timing
    }

    /// Like [`ProjectContext::discover`], but reads configuration through `read` (given a
    /// project-relative path, its text), e.g. from a git snapshot instead of the worktree.
    pub fn discover_with(
        files: &[String],
        read: impl Fn(&str) -> Option<String>,
    ) -> ProjectContext {
        Self::build(&read::ConfigReader::from_source(read), files)
    }

    fn build(reader: &read::ConfigReader<'_>, files: &[String]) -> ProjectContext {
        let sorted: BTreeSet<&str> = files.iter().map(String::as_str).collect();
        let packages = workspace::discover(reader, sorted.iter().copied());
        let package_folders = packages
            .iter()
            .map(|(name, package)| (name.clone(), package.folder.clone()))
            .collect();
        let configs = ConfigLoader::new(reader, package_folders).load_all(
            sorted
                .iter()
                .copied()
                .filter(|path| !path.split('/').any(|segment| segment == "node_modules")),
        );
        let import_maps = workspace::discover_import_maps(reader, sorted.iter().copied());
        let folder_entries = workspace::discover_folder_entries(reader, sorted.iter().copied());
        let datastores = Datastores::discover(reader, sorted.iter().copied());
        let spring = spring::SpringDatasources::discover(reader, sorted.iter().copied());
        let python = python::PythonIndex::discover(reader, sorted.iter().copied());
        let go = go::GoModules::discover(reader, sorted.iter().copied());
        let crates = Crates::discover(reader, sorted.iter().copied());
        let swift = swift::SwiftModules::discover(reader, sorted.iter().copied());
        let next = next::NextApps::discover(reader, sorted.iter().copied());
        let webpack = webpack::WebpackRoots::discover(reader, sorted.iter().copied());
        let csharp_projects = csproj::CSharpProjects::discover(reader, sorted.iter().copied());
        let gitignores = gitignore::GitIgnores::discover(reader, sorted.iter().copied());
        let gitattributes = if sorted.contains(".gitattributes") {
            reader
                .read(".gitattributes")
                .map(|text| GitAttributes::parse(&text))
                .unwrap_or_default()
        } else {
            GitAttributes::default()
        };
        ProjectContext {
            files: files.iter().cloned().collect(),
            folders: std::sync::OnceLock::new(),
            configs,
            packages,
            datastores,
            spring,
            python,
            go,
            jvm: TypeIndex::default(),
            csharp: TypeIndex::default(),
            csharp_projects,
            crates,
            rust_modules: BTreeMap::new(),
            swift,
            next,
            webpack,
            gitattributes,
            gitignores,
            import_maps,
            folder_entries,
            config_files: reader.read_paths(),
            config_asks: reader.asked_paths(),
            generic: AllByDefault::default(),
            query_timing: false,
            pruning: true,
            symlinks: BTreeMap::new(),
            csharp_project_globals: std::sync::OnceLock::new(),
            rust_path_targets: std::sync::OnceLock::new(),
            csharp_project_aliases: std::sync::OnceLock::new(),
            project_answers: answers::Answers::default(),
            interner: policies::facts::Interner::default(),
            csharp_read: HashSet::new(),
        }
    }

    /// The run's shared strings (see [`policies::facts::Interner`]).
    pub(crate) fn interner(&self) -> &policies::facts::Interner {
        &self.interner
    }

    /// The project-relative configuration files discovery read (sorted), including `extends`
    /// targets: a change to any of them can change how every file resolves.
    pub fn config_files(&self) -> &[String] {
        &self.config_files
    }

    /// Every project-relative path discovery asked for (sorted), whether or not it could be
    /// read: what the project's configuration was made from.
    pub fn config_asks(&self) -> &[String] {
        &self.config_asks
    }

    /// The `linguist-generated` patterns of the root `.gitattributes`, for [`crate::is_generated`].
    pub fn gitattributes(&self) -> &GitAttributes {
        &self.gitattributes
    }

    /// Whether a project file is generated code ([`crate::is_generated`] with this project's
    /// `.gitattributes`).
    pub fn is_generated(&self, path: &str, source: &str) -> bool {
        crate::generated::is_generated(path, source, &self.gitattributes)
    }

    /// Resolves a Python import from `importer` (see `python`).
    pub(crate) fn resolve_python(
        &self,
        importer: &str,
        level: usize,
        module: &str,
        name: Option<&str>,
    ) -> Resolution {
        let answer = self.resolve_python_unrecorded(importer, level, module, name);
        crate::resolve::context::probes::record(|| Probe::Python {
            importer: importer.to_owned(),
            level,
            module: module.to_owned(),
            name: name.map(str::to_owned),
            answer: answer.answer(),
        });
        answer
    }

    /// [`ProjectContext::resolve_python`], not recorded.
    pub(crate) fn resolve_python_unrecorded(
        &self,
        importer: &str,
        level: usize,
        module: &str,
        name: Option<&str>,
    ) -> Resolution {
        self.python.resolve(importer, level, module, name)
    }

    /// Resolves a Go import path in the build of `importer`'s module (see `go`).
    pub(crate) fn resolve_go(&self, importer: &str, import_path: &str) -> Resolution {
        let answer = self.resolve_go_unrecorded(importer, import_path);
        crate::resolve::context::probes::record(|| Probe::Go {
            importer: importer.to_owned(),
            path: import_path.to_owned(),
            answer: answer.answer(),
        });
        answer
    }

    /// [`ProjectContext::resolve_go`], not recorded.
    pub(crate) fn resolve_go_unrecorded(&self, importer: &str, import_path: &str) -> Resolution {
        // A package folder is ignored when a `.go` file in it would be (a folder rule such as
        // `src/server/v2.0/models/`); a rule for some files alone (`*.pb.go`) says nothing of
        // the package.
        let ignored = |package: &str| {
            paths::join(package, "generated.go").is_some_and(|file| self.gitignores.ignores(&file))
        };
        self.go.resolve(importer, import_path, &ignored)
    }

    /// Whether a Java or Kotlin import of `type_path` (`org.acme.message.Header`, a type of the
    /// project's packages that no source file declares) names code the build generates where a
    /// `.gitignore` keeps it out of the repository: the type's file under one of the generated
    /// source folders of the importer's module (the folder above its `src/`) that an ignore rule
    /// covers. Kafka generates its `org.apache.kafka.common.message` classes into
    /// `clients/src/generated/java`, which its `**/src/generated` rule ignores; Gradle and Maven
    /// write annotation processors' and protobuf's output under `build/generated` and
    /// `target/generated-sources`.
    pub(crate) fn jvm_generated(&self, importer: &str, type_path: &str) -> bool {
        let answer = self.jvm_generated_unrecorded(importer, type_path);
        crate::resolve::context::probes::record(|| Probe::JvmGenerated {
            importer: importer.to_owned(),
            path: type_path.to_owned(),
            answer: crate::resolve::context::probes::text(&answer),
        });
        answer
    }

    /// [`ProjectContext::jvm_generated`], not recorded.
    pub(crate) fn jvm_generated_unrecorded(&self, importer: &str, type_path: &str) -> bool {
        /// The generated source folders of a module, as the JVM build tools name them.
        const GENERATED_ROOTS: [&str; 8] = [
            "src/generated/java",
            "src/generated-test/java",
            "src/generated/kotlin",
            "src/main/generated",
            "generated",
            "gen",
            "build/generated",
            "target/generated-sources",
        ];
        let segments: Vec<&str> = type_path.split('.').collect();
        let Some(type_at) = segments
            .iter()
            .position(|segment| segment.starts_with(|c: char| c.is_ascii_uppercase()))
        else {
            return false;
        };
        let relative = segments.get(..=type_at).unwrap_or_default().join("/");
        let module = std::iter::once(0)
            .chain(importer.match_indices("/src/").map(|(at, _)| at + 1))
            .find(|at| {
                importer
                    .get(*at..)
                    .is_some_and(|rest| rest.starts_with("src/"))
            })
            .and_then(|at| importer.get(..at))
            .unwrap_or_default();
        GENERATED_ROOTS.iter().any(|root| {
            ["java", "kt"].iter().any(|extension| {
                self.gitignores
                    .ignores(&format!("{module}{root}/{relative}.{extension}"))
            })
        })
    }

    /// Resolves a Swift `import Module` (see `swift`).
    pub(crate) fn resolve_swift(&self, module: &str) -> Resolution {
        let answer = self.resolve_swift_unrecorded(module);
        crate::resolve::context::probes::record(|| Probe::Swift {
            module: module.to_owned(),
            answer: answer.answer(),
        });
        answer
    }

    /// [`ProjectContext::resolve_swift`], not recorded.
    pub(crate) fn resolve_swift_unrecorded(&self, module: &str) -> Resolution {
        self.swift.resolve(module)
    }

    /// The folder of a project Swift module (its files are the module).
    pub(crate) fn swift_module_folder(&self, module: &str) -> Option<&str> {
        let answer = self.swift_module_folder_unrecorded(module);
        crate::resolve::context::probes::record(|| Probe::SwiftFolder {
            module: module.to_owned(),
            answer: crate::resolve::context::probes::text(&answer),
        });
        answer
    }

    /// [`ProjectContext::swift_module_folder`], not recorded.
    pub(crate) fn swift_module_folder_unrecorded(&self, module: &str) -> Option<&str> {
        self.swift.folder(module)
    }

    /// The answer to a per-file setting question, as [`crate::resolve::context::probes`] records it.
    pub(crate) fn setting_unrecorded(&self, setting: Setting, file: &str) -> String {
        match setting {
            Setting::PreservesImports => {
                crate::resolve::context::probes::text(&self.preserves_imports_of(file))
            }
            Setting::StrictNullChecks => {
                crate::resolve::context::probes::text(&self.strict_null_checks_of(file))
            }
            Setting::Prisma => {
                crate::resolve::context::probes::text(&self.datastores.prisma_category(file))
            }
            Setting::Drizzle => {
                crate::resolve::context::probes::text(&self.datastores.drizzle_category(file))
            }
            Setting::Django => {
                crate::resolve::context::probes::text(&self.datastores.django_category(file))
            }
            Setting::DjangoCache => {
                crate::resolve::context::probes::text(&self.datastores.django_cache(file))
            }
            Setting::SpringDatasource => {
                crate::resolve::context::probes::text(&self.spring.of(file))
            }
            Setting::NextRoot => crate::resolve::context::probes::text(&self.next.root_of(file)),
        }
    }

    /// Records a per-file setting question.
    fn record_setting(&self, setting: Setting, file: &str) {
        if crate::resolve::context::probes::is_recording() {
            let answer = self.setting_unrecorded(setting, file);
            crate::resolve::context::probes::record(|| Probe::Setting {
                setting,
                file: file.to_owned(),
                answer,
            });
        }
    }

    /// Adds what a Java, Kotlin, C# or Rust file declares to the index of its language
    /// ([`crate::FirstPass::take_declarations`], [`crate::read_declarations`]). Add every such
    /// file of the project, extracted or not, before finishing any extraction
    /// ([`crate::FirstPass::finish`]): imports resolve against the whole index.
    pub fn add_declarations(&mut self, path: &str, declarations: TypeDeclarations) {
        self.csharp_project_globals.take();
        self.csharp_project_aliases.take();
        self.rust_path_targets.take();
        self.project_answers.forget();
        match declarations.0 {
            type_index::Declared::Jvm {
                declarations,
                mapper_packages,
                constants,
            } => self
                .jvm
                .add_jvm(path, declarations, mapper_packages, constants),
            type_index::Declared::CSharp {
                declarations,
                global_usings,
                global_aliases,
                constants,
                extensions,
            } => {
                self.csharp_read.insert(path.to_owned());
                self.csharp.add_csharp(
                    path,
                    declarations,
                    Globals {
                        usings: global_usings,
                        aliases: global_aliases,
                    },
                    constants,
                    extensions,
                )
            }
            type_index::Declared::Rust(names) => {
                self.rust_modules.insert(path.to_owned(), names);
            }
        }
    }

    /// Whether the Rust file `file` declares `name` at the top level of its module: `None` when
    /// lintel did not read the file (not extracted) or its module may hold names it cannot list
    /// (a glob `use`, an `include!`).
    pub(crate) fn rust_module_declares(&self, file: &str, name: &str) -> Option<bool> {
        crate::resolve::context::probes::record(|| Probe::Whole);
        let names = self.rust_modules.get(file).filter(|names| !names.open)?;
        Some(
            names
                .names
                .binary_search_by(|known| known.as_str().cmp(name))
                .is_ok(),
        )
    }

    /// Whether the Rust file `file` lists `name` among the names its module declares at its top
    /// level (a glob `use` or an `include!` may add others): `false` when lintel did not read it.
    pub(crate) fn rust_module_lists(&self, file: &str, name: &str) -> bool {
        crate::resolve::context::probes::record(|| Probe::Whole);
        self.rust_modules.get(file).is_some_and(|names| {
            names
                .names
                .binary_search_by(|known| known.as_str().cmp(name))
                .is_ok()
        })
    }

    /// The declarations of the Rust `#[path]` modules whose attribute names `file`: each
    /// declaring file with the module path of the declaration within it (the inline modules
    /// around it, then its name). A declaring file is read as a `mod.rs` when it is one or a
    /// crate root.
    pub(crate) fn rust_path_declarations(&self, file: &str) -> &[(String, Vec<String>)] {
        self.rust_path_index().get(file).map_or(&[], Vec::as_slice)
    }

    /// The files Rust `#[path]` attributes name, sorted.
    pub(crate) fn rust_path_targets(&self) -> impl Iterator<Item = &str> {
        self.rust_path_index().keys().map(String::as_str)
    }

    fn rust_path_index(&self) -> &RustPathTargets {
        crate::resolve::context::probes::record(|| Probe::Whole);
        self.rust_path_targets.get_or_init(|| {
            let mut targets = RustPathTargets::new();
            for (file, names) in &self.rust_modules {
                for (module, path) in &names.path_modules {
                    let inline = module
                        .get(..module.len().saturating_sub(1))
                        .unwrap_or_default();
                    let is_mod_rs = paths::file_name(file) == "mod.rs"
                        || self
                            .crates
                            .containing(file)
                            .is_some_and(|krate| krate.root_file.as_deref() == Some(file.as_str()));
                    if let Some(target) =
                        attribute_path_target(file, is_mod_rs, inline, path, |target| {
                            self.crates.has_file(target)
                        })
                    {
                        targets
                            .entry(target)
                            .or_default()
                            .push((file.clone(), module.clone()));
                    }
                }
            }
            targets
        })
    }

    /// The modules the Rust file `file` declares with a `#[path]` attribute that the module
    /// path `through` (within the file) starts with: how many names of `through` the longest
    /// such module takes, and each declaration of it (a `cfg`-gated alternative declares one
    /// module twice) as the inline modules around it and the attribute's path as written.
    pub(crate) fn rust_path_modules(
        &self,
        file: &str,
        through: &[String],
    ) -> Option<(usize, Vec<PathModule<'_>>)> {
        crate::resolve::context::probes::record(|| Probe::Whole);
        let declared = &self.rust_modules.get(file)?.path_modules;
        let taken = declared
            .iter()
            .map(|(module, _)| module.len())
            .filter(|&length| {
                through.get(..length).is_some_and(|prefix| {
                    declared
                        .iter()
                        .any(|(module, _)| module.as_slice() == prefix)
                })
            })
            .max()?;
        let prefix = through.get(..taken)?;
        let found = declared
            .iter()
            .filter(|(module, _)| module.as_slice() == prefix)
            .map(|(module, path)| {
                (
                    module.get(..taken.saturating_sub(1)).unwrap_or_default(),
                    path.as_str(),
                )
            })
            .collect();
        Some((taken, found))
    }

    /// The Java and Kotlin type index; each lookup is recorded ([`Types`]).
    pub(crate) fn jvm_types(&self) -> Types<'_> {
        Types::new(&self.jvm, IndexOf::Jvm)
    }

    /// The C# type index; each lookup is recorded ([`Types`]).
    pub(crate) fn csharp_types(&self) -> Types<'_> {
        Types::new(&self.csharp, IndexOf::CSharp)
    }

    /// The contents of every part of the type indexes that lookups read, by the part's name
    /// ([`Probe::declaration_part`]): what the project's files declare, part by part. The rest
    /// of what lookups read (the C# project files, the files the build generates code from)
    /// is the project's configuration, which the caller compares whole.
    pub fn declaration_parts(&self) -> BTreeMap<String, String> {
        let mut parts = BTreeMap::new();
        self.jvm.part_contents(IndexOf::Jvm.tag(), &mut parts);
        self.csharp.part_contents(IndexOf::CSharp.tag(), &mut parts);
        parts
    }

    /// The answer a type index gives `question` now, unrecorded ([`Probe::holds`]).
    pub(crate) fn type_answer(&self, index: IndexOf, question: &TypeQuestion) -> String {
        match index {
            IndexOf::Jvm => self.jvm.answer(question),
            IndexOf::CSharp => self.csharp.answer(question),
        }
    }

    /// Records a question about the C# projects with the answer the project gives now.
    fn record_project(&self, question: impl FnOnce() -> ProjectQuestion) {
        crate::resolve::context::probes::record(|| {
            let question = question();
            let answer = self.project_answer(&question);
            Probe::CSharpProject { question, answer }
        });
    }

    /// The answer the C# projects give `question` now, unrecorded ([`Probe::holds`]).
    pub(crate) fn project_answer(&self, question: &ProjectQuestion) -> String {
        // A question about one file is asked once a file: only those about a project are kept.
        if matches!(
            question,
            ProjectQuestion::Usings(_)
                | ProjectQuestion::ProjectOf(_)
                | ProjectQuestion::CompileRemoved(_)
        ) {
            return self.project_answer_afresh(question);
        }
        self.project_answers
            .get_or(question, || self.project_answer_afresh(question))
    }

    /// [`ProjectContext::project_answer`], computed.
    fn project_answer_afresh(&self, question: &ProjectQuestion) -> String {
        let text = match question {
            ProjectQuestion::Usings(file) => format!("{:?}", self.csharp_projects.usings_of(file)),
            ProjectQuestion::ProjectOf(file) => {
                format!("{:?}", self.csharp_projects.project_of(file))
            }
            ProjectQuestion::GlobalUsings(project) => {
                format!("{:?}", self.global_usings_of(project.as_deref()))
            }
            ProjectQuestion::GlobalAliases(project) => {
                format!("{:?}", self.global_aliases_of(project.as_deref()))
            }
            ProjectQuestion::ProjectSees(from, to) => {
                self.project_sees(from.as_deref(), to).to_string()
            }
            ProjectQuestion::Sees(from, to, is_public) => {
                self.sees(from, to, *is_public).to_string()
            }
            ProjectQuestion::CompileRemoved(file) => {
                self.csharp_projects.is_compile_removed(file).to_string()
            }
            ProjectQuestion::NamespaceIsTheProjects(namespace) => {
                self.namespace_is_the_projects(namespace).to_string()
            }
            ProjectQuestion::MayBeUnread(namespace) => {
                self.namespace_may_be_unread(namespace).to_string()
            }
        };
        type_index::answer_text(text)
    }

    /// The global usings the C# project file nearest above `file` gives it (`csproj`).
    pub(crate) fn csharp_project_usings(&self, file: &str) -> Option<&ProjectUsings> {
        self.record_project(|| ProjectQuestion::Usings(file.to_owned()));
        self.csharp_projects.usings_of(file)
    }

    /// The namespaces of the `global using` directives in the files of the C# project
    /// `project` (from [`ProjectContext::csharp_project_of`]); with no project, those of every
    /// file.
    pub(crate) fn csharp_project_global_usings(&self, project: Option<&str>) -> &BTreeSet<String> {
        self.record_project(|| ProjectQuestion::GlobalUsings(project.map(str::to_owned)));
        self.global_usings_of(project)
    }

    fn global_usings_of(&self, project: Option<&str>) -> &BTreeSet<String> {
        static NONE: BTreeSet<String> = BTreeSet::new();
        let Some(project) = project else {
            return self.csharp.global_usings();
        };
        self.csharp_project_globals
            .get_or_init(|| {
                let mut by_project: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
                for (file, namespaces) in self.csharp.global_usings_by_file() {
                    if let Some(project) = self.csharp_projects.project_of(file) {
                        by_project
                            .entry(project.to_owned())
                            .or_default()
                            .extend(namespaces.iter().cloned());
                    }
                }
                by_project
            })
            .get(project)
            .unwrap_or(&NONE)
    }

    /// The `global using` aliases (alias → what it names) in the files of the C# project
    /// `project` (from [`ProjectContext::csharp_project_of`]); with no project, those of every
    /// file. Where files give one alias different targets (a compile error), the first file's
    /// counts.
    pub(crate) fn csharp_project_global_aliases(
        &self,
        project: Option<&str>,
    ) -> &BTreeMap<String, String> {
        self.record_project(|| ProjectQuestion::GlobalAliases(project.map(str::to_owned)));
        self.global_aliases_of(project)
    }

    fn global_aliases_of(&self, project: Option<&str>) -> &BTreeMap<String, String> {
        static NONE: BTreeMap<String, String> = BTreeMap::new();
        let by_project = self.csharp_project_aliases.get_or_init(|| {
            let mut by_project: BTreeMap<Option<String>, BTreeMap<String, String>> =
                BTreeMap::new();
            for (file, aliases) in self.csharp.global_aliases_by_file() {
                let project = self.csharp_projects.project_of(file).map(str::to_owned);
                for key in [project, None] {
                    let entry = by_project.entry(key).or_default();
                    for (alias, target) in aliases {
                        entry.entry(alias.clone()).or_insert_with(|| target.clone());
                    }
                }
            }
            by_project
        });
        by_project.get(&project.map(str::to_owned)).unwrap_or(&NONE)
    }

    /// Whether code of the C# project `from` (from [`ProjectContext::csharp_project_of`]) can
    /// see the public types of the file `to` ([`csproj::CSharpProjects::sees`]).
    pub(crate) fn csharp_project_sees(&self, from: Option<&str>, to: &str) -> bool {
        self.record_project(|| {
            ProjectQuestion::ProjectSees(from.map(str::to_owned), to.to_owned())
        });
        self.project_sees(from, to)
    }

    fn project_sees(&self, from: Option<&str>, to: &str) -> bool {
        let projects = &self.csharp_projects;
        projects.sees(from, projects.project_of(to), true)
    }

    /// Whether `<Compile Remove>` takes the C# file `file` out of its project's build: its
    /// usings are not compiled, so none is unresolved.
    pub(crate) fn csharp_compile_removed(&self, file: &str) -> bool {
        self.record_project(|| ProjectQuestion::CompileRemoved(file.to_owned()));
        self.csharp_projects.is_compile_removed(file)
    }

    /// Whether a C# `using` of `namespace` is meant to be inside the project but names nothing:
    /// no file declares it or a namespace below it, and it lies under the root namespace of a
    /// project (`Bit.Core.Missing` under `Bit.Core`) whose files declare namespaces there. Not
    /// when the longest such root is one no read file declares in (a project excluded from the
    /// check, whose files lintel never reads), when the build generates code under it (Razor,
    /// XAML, gRPC), or when a `.proto` file's `csharp_namespace` is it or near it.
    pub(crate) fn csharp_namespace_is_missing(&self, namespace: &str) -> bool {
        !self.csharp_types().declares_or_encloses(namespace)
            && self.csharp_namespace_is_the_projects(namespace)
    }

    /// Whether the C# namespace `namespace` is the project's to declare, so a name missing
    /// there is an unresolved import: it lies under the root namespace of a project (the
    /// longest one) whose files declare namespaces there, whose build generates no code (Razor,
    /// XAML), and no `.proto` file's `csharp_namespace` is it or near it.
    pub(crate) fn csharp_namespace_is_the_projects(&self, namespace: &str) -> bool {
        self.record_project(|| ProjectQuestion::NamespaceIsTheProjects(namespace.to_owned()));
        self.namespace_is_the_projects(namespace)
    }

    fn namespace_is_the_projects(&self, namespace: &str) -> bool {
        !self.csharp_projects.generates(namespace)
            && self
                .csharp_projects
                .root_of(namespace)
                .is_some_and(|(root, open)| !open && self.csharp.declares_or_encloses(root))
    }

    /// Whether a C# file lintel does not read (one the spec excludes) lies where C#'s
    /// convention puts the files of `namespace` (`API/Data/Migrations/` for
    /// `API.Data.Migrations` in the project `API/`), so it may declare it: a `using` of it is
    /// then the project's, neither missing nor an outside package's.
    pub(crate) fn csharp_namespace_may_be_unread(&self, namespace: &str) -> bool {
        self.record_project(|| ProjectQuestion::MayBeUnread(namespace.to_owned()));
        self.namespace_may_be_unread(namespace)
    }

    fn namespace_may_be_unread(&self, namespace: &str) -> bool {
        self.csharp_projects
            .namespace_folders(namespace)
            .iter()
            .any(|folder| {
                self.files.iter().any(|file| {
                    file.ends_with(".cs")
                        && file
                            .strip_prefix(folder.as_str())
                            .is_some_and(|rest| rest.starts_with('/'))
                        && !self.csharp_read.contains(file)
                })
            })
    }

    /// The folder of the C# project nearest above `file` (`csproj`), if any.
    pub(crate) fn csharp_project_of<'f>(&self, file: &'f str) -> Option<&'f str> {
        self.record_project(|| ProjectQuestion::ProjectOf(file.to_owned()));
        self.csharp_projects.project_of(file)
    }

    /// Whether the C# file `from` can see a type of the file `to` (`public` or not) through
    /// its project's references (`csproj`).
    pub(crate) fn csharp_sees(&self, from: &str, to: &str, is_public: bool) -> bool {
        self.record_project(|| ProjectQuestion::Sees(from.to_owned(), to.to_owned(), is_public));
        self.sees(from, to, is_public)
    }

    fn sees(&self, from: &str, to: &str, is_public: bool) -> bool {
        let projects = &self.csharp_projects;
        projects.sees(
            projects.project_of(from),
            projects.project_of(to),
            is_public,
        )
    }

    /// The Rust crates.
    pub(crate) fn crates(&self) -> &Crates {
        crate::resolve::context::probes::record(|| Probe::Files);
        &self.crates
    }

    /// Declares the project's symbolic links that point inside it (link path → target path,
    /// both project-relative with `/`), which the caller lists without following them. Import
    /// resolution maps a candidate path through them to the real file, as Node does by default
    /// (`packages/a/shared.js` → `shared.js`, `packages/a/lib/x.ts` through a linked `lib`
    /// folder); the facts then name the real file.
    pub fn set_symlinks(&mut self, symlinks: BTreeMap<String, String>) {
        self.symlinks = symlinks;
        self.project_answers.forget();
    }

    /// The project file `path` names: itself, or the file it reaches through symbolic links
    /// (a linked file, or a path under a linked folder; chains of at most eight links).
    pub(crate) fn existing_file(&self, path: &str) -> Option<String> {
        if self.files.contains(path) {
            return Some(path.to_owned());
        }
        if self.symlinks.is_empty() {
            return None;
        }
        let mut current = path.to_owned();
        for _ in 0..8 {
            // The longest linked prefix (the whole path first, then its folders).
            let mut end = current.len();
            let rewritten = loop {
                let prefix = current.get(..end)?;
                if let Some(target) = self.symlinks.get(prefix) {
                    break format!("{target}{}", current.get(end..).unwrap_or_default());
                }
                end = prefix.rfind('/')?;
            };
            if self.files.contains(&rewritten) {
                return Some(rewritten);
            }
            current = rewritten;
        }
        None
    }

    /// The folder of the Next.js application `file` belongs to (`next`), if any.
    pub(crate) fn next_root(&self, file: &str) -> Option<&str> {
        self.record_setting(Setting::NextRoot, file);
        self.next.root_of(file)
    }

    /// Whether the TypeScript compiler keeps `file`'s import statements as written
    /// (`verbatimModuleSyntax` and its predecessors in the nearest config), so an import whose
    /// names are used only as types still loads its module at run time.
    pub(crate) fn preserves_imports(&self, file: &str) -> bool {
        self.record_setting(Setting::PreservesImports, file);
        self.preserves_imports_of(file)
    }

    fn preserves_imports_of(&self, file: &str) -> bool {
        self.compiler_paths(file)
            .and_then(|config| config.preserves_imports)
            .unwrap_or(false)
    }

    /// Whether `file`'s nearest config checks nulls strictly (`strictNullChecks`, else
    /// `strict`), which decides how decorator metadata serializes `Dto | null`.
    pub(crate) fn strict_null_checks(&self, file: &str) -> bool {
        self.record_setting(Setting::StrictNullChecks, file);
        self.strict_null_checks_of(file)
    }

    fn strict_null_checks_of(&self, file: &str) -> bool {
        self.compiler_paths(file)
            .and_then(|config| config.strict_null_checks)
            .unwrap_or(false)
    }

    /// The options of the nearest `tsconfig.json`/`jsconfig.json` above a file.
    fn compiler_paths(&self, file: &str) -> Option<&CompilerPaths> {
        paths::ancestors(file).find_map(|directory| self.configs.get(directory).map(Arc::as_ref))
    }

    /// The technology category of the Prisma schema that applies to `file`.
    pub(crate) fn prisma_category(&self, file: &str) -> Option<&str> {
        self.record_setting(Setting::Prisma, file);
        self.datastores.prisma_category(file)
    }

    /// The technology category of the Drizzle config that applies to `file`.
    pub(crate) fn drizzle_category(&self, file: &str) -> Option<&str> {
        self.record_setting(Setting::Drizzle, file);
        self.datastores.drizzle_category(file)
    }

    /// The category of the Django database engine that applies to `file`.
    pub(crate) fn django_category(&self, file: &str) -> Option<&str> {
        self.record_setting(Setting::Django, file);
        self.datastores.django_category(file)
    }

    /// The store of the Django cache that applies to `file`, with its library when the
    /// settings name one.
    pub(crate) fn django_cache(&self, file: &str) -> Option<(&str, Option<&str>)> {
        self.record_setting(Setting::DjangoCache, file);
        self.datastores.django_cache(file)
    }

    /// The datasources the Spring Boot configuration of `file`'s module names, by profile.
    pub(crate) fn spring_datasources(&self, file: &str) -> Vec<&Datasource> {
        self.record_setting(Setting::SpringDatasource, file);
        self.spring.of(file)
    }
}

/// The generic facts of a context: every one unless set otherwise.
#[derive(Debug)]
struct AllByDefault(crate::generic::GenericFacts);

impl Default for AllByDefault {
    fn default() -> Self {
        Self(crate::generic::GenericFacts::ALL)
    }
}

/// A question about the C# projects and their `global using` directives
/// ([`crate::probes::Probe::CSharpProject`]).
// Short names: the cache writes a Java, Kotlin or C# file's lookups by the hundred.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ProjectQuestion {
    /// [`ProjectContext::csharp_project_usings`] of a file.
    #[serde(rename = "U")]
    Usings(String),
    /// [`ProjectContext::csharp_project_of`] a file.
    #[serde(rename = "PO")]
    ProjectOf(String),
    /// [`ProjectContext::csharp_project_global_usings`] of a project.
    #[serde(rename = "GU")]
    GlobalUsings(Option<String>),
    /// [`ProjectContext::csharp_project_global_aliases`] of a project.
    #[serde(rename = "GA")]
    GlobalAliases(Option<String>),
    /// [`ProjectContext::csharp_project_sees`]: a project, a file.
    #[serde(rename = "PS")]
    ProjectSees(Option<String>, String),
    /// [`ProjectContext::csharp_sees`]: two files, and whether the type is public.
    #[serde(rename = "S")]
    Sees(String, String, bool),
    /// [`ProjectContext::csharp_compile_removed`] of a file.
    #[serde(rename = "CR")]
    CompileRemoved(String),
    /// [`ProjectContext::csharp_namespace_is_the_projects`] of a namespace.
    #[serde(rename = "NP")]
    NamespaceIsTheProjects(String),
    /// [`ProjectContext::csharp_namespace_may_be_unread`] of a namespace.
    #[serde(rename = "MU")]
    MayBeUnread(String),
}
