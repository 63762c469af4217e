//! The project-wide knowledge extractors need beyond one file: which files exist, how module
//! specifiers resolve (`tsconfig`/`jsconfig` `baseUrl` and `paths`, workspace packages), and which
//! databases ORM clients talk to (Prisma provider, Drizzle dialect).
//!
//! [`ProjectContext`] is built once per run and shared read-only by every worker. Building it
//! reads configuration files from disk, never outside the project root (`read`); everything
//! after that is in memory. Resolution itself is in `resolve`.

mod datastores;
mod jsonc;
mod paths;
mod read;
mod resolve;
mod tsconfig;
mod workspace;

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::Path;
use std::sync::Arc;

pub(crate) use resolve::Resolution;

use datastores::Datastores;
use tsconfig::{CompilerPaths, ConfigLoader};
use workspace::WorkspacePackage;

/// Project-wide resolution configuration, read once per run.
#[derive(Debug, Default)]
pub struct ProjectContext {
    /// INVARIANT: project-relative paths with `/`, as the engine listed them.
    files: HashSet<String>,
    /// Effective `baseUrl`/`paths` of every `tsconfig.json`/`jsconfig.json`, by directory.
    configs: BTreeMap<String, Arc<CompilerPaths>>,
    /// Workspace packages by `name`.
    packages: BTreeMap<String, WorkspacePackage>,
    datastores: Datastores,
    /// Every configuration file discovery read, for change detection.
    config_files: Vec<String>,
}

impl ProjectContext {
    /// Reads the resolution configuration of the project at `root`, whose files are `files`
    /// (project-relative, `/` separators): `tsconfig.json`/`jsconfig.json` with `extends`,
    /// workspace `package.json` files, `*.prisma` schemas and `drizzle.config.*`.
    /// Unreadable or malformed configuration is ignored; discovery never fails.
    pub fn discover(root: &Path, files: &[String]) -> ProjectContext {
        Self::build(&read::ConfigReader::from_disk(root), files)
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
        let configs = ConfigLoader::new(reader).load_all(
            sorted
                .iter()
                .copied()
                .filter(|path| !path.split('/').any(|segment| segment == "node_modules")),
        );
        let packages = workspace::discover(reader, sorted.iter().copied());
        let datastores = Datastores::discover(reader, sorted.iter().copied());
        ProjectContext {
            files: files.iter().cloned().collect(),
            configs,
            packages,
            datastores,
            config_files: reader.read_paths(),
        }
    }

    /// The project-relative configuration files discovery read (sorted), including `extends`
    /// targets: a change to any of them can change how every file resolves.
    pub fn config_files(&self) -> &[String] {
        &self.config_files
    }

    /// Whether `path` is one of the project's files.
    pub(crate) fn has_file(&self, path: &str) -> bool {
        self.files.contains(path)
    }

    /// The options of the nearest `tsconfig.json`/`jsconfig.json` above a file.
    fn compiler_paths(&self, file: &str) -> Option<&CompilerPaths> {
        paths::ancestors(file).find_map(|directory| self.configs.get(directory).map(Arc::as_ref))
    }

    /// The technology category of the Prisma schema that applies to `file`.
    pub(crate) fn prisma_category(&self, file: &str) -> Option<&str> {
        self.datastores.prisma_category(file)
    }

    /// The technology category of the Drizzle config that applies to `file`.
    pub(crate) fn drizzle_category(&self, file: &str) -> Option<&str> {
        self.datastores.drizzle_category(file)
    }
}
