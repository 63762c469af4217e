//! Python module resolution: source roots and the files a dotted module name can mean.
//!
//! Configured roots: for each `pyproject.toml`, `setup.cfg` or `setup.py` folder D, the `where`
//! of `[tool.setuptools.packages.find]`/`[options.packages.find]`, the `""` entry of
//! `package-dir`/`package_dir`, Poetry's `packages … from`, the parents of Hatch's wheel
//! `packages`, `D/src` when it holds Python files (the src/ layout), then D itself. A configured
//! root below D is a *named root*.
//!
//! Source roots, tried in this order for an absolute import:
//! 1. the importer's own root: the folder above its outermost package (the nearest folder
//!    without `__init__.py`), which is where Python finds it when run as a package, or the
//!    deepest named root above that folder (so that `src/ns/pkg/m.py` in a namespace package
//!    `ns` is imported from `src`);
//! 2. the configured roots that hold the importer, and the named roots (deepest configuration
//!    first);
//! 3. the project root;
//! 4. weak roots: the folders of the configurations that do not hold the importer (a test
//!    fixture's project), then the tree: every other folder above an outermost package, but
//!    none inside a named root (a namespace package there), nearest to the importer first
//!    (longest common folder prefix, then bytewise). A weak root only answers with a regular
//!    package that has the module, so a loose `build.py` in a fixture folder is not the `build`
//!    distribution.
//!
//! In a root, `a.b` is `a/b.py`, `a/b/__init__.py` or `a/b.pyi`. The first root with a top-level
//! module or regular package `a` decides; a folder of Python files without `__init__.py` is a
//! namespace package, whose portions in later roots are searched too. The file is the deepest
//! existing prefix of the name: `import a.b.c` where `c` is no module is `a/b`; `from a.b import
//! c` is `a/b/c` when that is a module, else `a/b`, which must exist. Nothing matching gives
//! `External { package: a }`.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::paths::{file_name, is_plain, is_within, join, parent_dir};
use super::read::ConfigReader;
use super::toml_lite;
use super::Resolution;

/// Where Python modules live in the project.
#[derive(Debug, Default)]
pub(crate) struct PythonIndex {
    /// Python files (`.py`, `.pyi`).
    files: Vec<String>,
    /// The file each module path names (`a/b` → `a/b.py`, else `a/b/__init__.py`, `a/b.pyi`,
    /// `a/b/__init__.pyi`, in that order of preference).
    modules: HashMap<String, (u8, String)>,
    /// Regular packages: folders with an `__init__.py` or `__init__.pyi`.
    packages: HashSet<String>,
    /// Folders holding Python files at any depth below them.
    folders: HashSet<String>,
    /// Configured source roots, in discovery order (deepest configuration first).
    configured_roots: Vec<String>,
    /// The configured roots a configuration names below its own folder (`where`,
    /// `package-dir`, `from`, Hatch's packages, a `src/` layout).
    named_roots: Vec<String>,
    /// Folders directly above an outermost package or a top-level module.
    implicit_roots: BTreeSet<String>,
    /// For a top-level name `a`, the implicit roots (in their order) where `a` is a regular
    /// package: the only implicit roots a weak lookup of `a` can answer from.
    implicit_packages: HashMap<String, Vec<String>>,
}

impl PythonIndex {
    /// Indexes the Python files among `files` and reads packaging configuration.
    pub fn discover<'f>(reader: &ConfigReader<'_>, files: impl Iterator<Item = &'f str>) -> Self {
        let mut index = Self::default();
        let mut config_folders = BTreeSet::new();
        for path in files {
            let name = file_name(path);
            if matches!(name, "pyproject.toml" | "setup.cfg" | "setup.py") {
                config_folders.insert(parent_dir(path).to_owned());
            }
            if name.ends_with(".py") || name.ends_with(".pyi") {
                index.add_module_file(path);
                let mut folder = parent_dir(path);
                while index.folders.insert(folder.to_owned()) && !folder.is_empty() {
                    folder = parent_dir(folder);
                }
            }
        }
        // Deeper configurations first, so a nested project's roots win over the top one.
        let mut folders: Vec<String> = config_folders.into_iter().collect();
        folders.sort_by_key(|folder| std::cmp::Reverse(folder.matches('/').count() + 1));
        for folder in folders {
            for (root, named) in index.configured_roots_of(reader, &folder) {
                if named && !index.named_roots.contains(&root) {
                    index.named_roots.push(root.clone());
                }
                if !index.configured_roots.contains(&root) {
                    index.configured_roots.push(root);
                }
            }
        }
        // A folder inside a configured source root is a namespace package there, not a root.
        let mut implicit = BTreeSet::new();
        for path in &index.files {
            let root = index.package_root(path);
            if !index
                .named_roots
                .iter()
                .any(|named| root != *named && is_within(&root, named))
            {
                implicit.insert(root);
            }
        }
        index.implicit_roots = implicit;
        for package in &index.packages {
            let root = parent_dir(package);
            if index.implicit_roots.contains(root) {
                index
                    .implicit_packages
                    .entry(file_name(package).to_owned())
                    .or_default()
                    .push(root.to_owned());
            }
        }
        for roots in index.implicit_packages.values_mut() {
            roots.sort();
            roots.dedup();
        }
        index
    }

    /// Records a Python file under every module path it can be the file of.
    fn add_module_file(&mut self, path: &str) {
        let mut candidates: Vec<(&str, u8)> = Vec::with_capacity(2);
        if let Some(base) = path.strip_suffix(".py") {
            candidates.push((base, 0));
            if let Some(package) = path.strip_suffix("/__init__.py") {
                candidates.push((package, 1));
                self.packages.insert(package.to_owned());
            }
        } else if let Some(base) = path.strip_suffix(".pyi") {
            candidates.push((base, 2));
            if let Some(package) = path.strip_suffix("/__init__.pyi") {
                candidates.push((package, 3));
                self.packages.insert(package.to_owned());
            }
        }
        for (base, rank) in candidates {
            let entry = self
                .modules
                .entry(base.to_owned())
                .or_insert_with(|| (rank, path.to_owned()));
            if rank < entry.0 {
                *entry = (rank, path.to_owned());
            }
        }
        self.files.push(path.to_owned());
    }

    /// The roots a configuration folder gives, each with whether the configuration names it.
    fn configured_roots_of(&self, reader: &ConfigReader<'_>, folder: &str) -> Vec<(String, bool)> {
        let mut relative_roots: Vec<String> = Vec::new();
        let read_config = |name: &str| {
            let path = join(folder, name)?;
            reader.read(&path).map(|text| toml_lite::entries(&text))
        };
        if let Some(entries) = read_config("pyproject.toml") {
            for entry in &entries {
                match (entry.section.as_str(), entry.key.as_str()) {
                    ("tool.setuptools.packages.find", "where") => {
                        relative_roots.extend(toml_lite::strings(&entry.value));
                    }
                    ("tool.setuptools", "package-dir") => relative_roots.extend(
                        toml_lite::pairs(&entry.value)
                            .into_iter()
                            .filter(|(key, _)| key.is_empty())
                            .map(|(_, value)| value),
                    ),
                    ("tool.poetry", "packages") => relative_roots.extend(
                        toml_lite::pairs(&entry.value)
                            .into_iter()
                            .filter(|(key, _)| key == "from")
                            .map(|(_, value)| value),
                    ),
                    ("tool.hatch.build.targets.wheel", "packages") => relative_roots.extend(
                        toml_lite::strings(&entry.value)
                            .iter()
                            .map(|package| parent_dir(package).to_owned()),
                    ),
                    _ => {}
                }
            }
        }
        if let Some(entries) = read_config("setup.cfg") {
            for entry in &entries {
                match (entry.section.as_str(), entry.key.as_str()) {
                    ("options.packages.find", "where") => {
                        relative_roots.push(entry.value.trim().to_owned());
                    }
                    ("options", "package_dir") => {
                        for line in entry.value.lines() {
                            if let Some((key, value)) = line.split_once('=') {
                                if key.trim().is_empty() {
                                    relative_roots.push(value.trim().to_owned());
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        if self
            .folders
            .contains(&join(folder, "src").unwrap_or_default())
        {
            relative_roots.push("src".to_owned());
        }
        let mut roots: Vec<(String, bool)> = relative_roots
            .iter()
            .filter_map(|relative| join(folder, relative))
            .map(|root| {
                let below = root != folder;
                (root, below)
            })
            .collect();
        roots.push((folder.to_owned(), false));
        roots
    }

    /// The root `importer` is imported from: the deepest configured root a configuration names
    /// below its own folder (`src/`…) that holds the folder over the importer's outermost
    /// package, which makes namespace packages under `src/` work; else that folder.
    fn own_root(&self, importer: &str) -> String {
        let package_root = self.package_root(importer);
        self.named_roots
            .iter()
            .filter(|root| is_within(&package_root, root))
            .max_by_key(|root| root.split('/').filter(|part| !part.is_empty()).count())
            .cloned()
            .unwrap_or(package_root)
    }

    /// The folder above the outermost package containing `path`. A folder without
    /// `__init__.py` right inside a regular package is a namespace package within it
    /// (`acme/providers/` in `acme/`): `acme/providers/openai.py` is `acme.providers.openai`, and
    /// its `import openai` is not itself.
    fn package_root(&self, path: &str) -> String {
        let mut folder = parent_dir(path);
        while !folder.is_empty()
            && (self.is_regular_package(folder) || self.is_regular_package(parent_dir(folder)))
        {
            folder = parent_dir(folder);
        }
        if self.is_regular_package(folder) {
            // A package at the project root: the root is above it, which is outside; use "".
            return String::new();
        }
        folder.to_owned()
    }

    fn is_regular_package(&self, folder: &str) -> bool {
        !folder.is_empty() && self.packages.contains(folder)
    }

    /// The file of module `segments` (already joined under a root), if there is one.
    fn module_file(&self, base: &str) -> Option<String> {
        self.module_path(base).map(str::to_owned)
    }

    /// [`PythonIndex::module_file`], borrowed.
    fn module_path(&self, base: &str) -> Option<&str> {
        self.modules.get(base).map(|(_, file)| file.as_str())
    }

    /// The deepest existing module among the prefixes of `segments` under `root`.
    fn deepest(&self, root: &str, segments: &[&str]) -> Option<String> {
        // The whole path is joined once and its prefixes looked up as slices of it, when joining
        // each prefix would give that slice (a root and segments that need no normalising).
        if is_plain(root)
            && segments
                .iter()
                .all(|segment| !segment.is_empty() && is_plain(segment))
        {
            let whole = join(root, &segments.join("/"))?;
            let mut end = whole.len();
            for segment in segments.iter().rev() {
                if let Some(file) = whole.get(..end).and_then(|base| self.module_path(base)) {
                    return Some(file.to_owned());
                }
                // The prefix without its last segment (and the `/` before it).
                end = end.saturating_sub(segment.len() + 1);
            }
            return None;
        }
        (1..=segments.len()).rev().find_map(|length| {
            let relative = segments.get(..length)?.join("/");
            self.module_file(&join(root, &relative)?)
        })
    }

    /// Resolves `from <level dots><module> import <name>` (level 0: `import module`; `name` is
    /// the imported name when it may be a submodule).
    pub fn resolve(
        &self,
        importer: &str,
        level: usize,
        module: &str,
        name: Option<&str>,
    ) -> Resolution {
        let mut segments: Vec<&str> = module.split('.').filter(|s| !s.is_empty()).collect();
        if let Some(name) = name.filter(|name| *name != "*") {
            segments.push(name);
        }
        // `from m import n`: `n` may be a submodule, else `m` itself must exist. `import a.b.c`:
        // the deepest existing module (`c` may be an attribute the package sets).
        let wanted_depth = match name {
            Some("*") => segments.len(),
            Some(_) => segments.len() - 1,
            None if level == 0 => 1,
            None => segments.len(),
        };
        let accept = |found: Option<String>, root: &str| -> Option<String> {
            let found = found?;
            (module_depth(&found, root) >= wanted_depth).then_some(found)
        };
        if level > 0 {
            let mut base = parent_dir(importer).to_owned();
            for _ in 1..level {
                if base.is_empty() {
                    return Resolution::Internal;
                }
                base = parent_dir(&base).to_owned();
            }
            let found = accept(self.deepest(&base, &segments), &base).or_else(|| {
                // `from . import name` where `name` is not a submodule: the package itself.
                (module.is_empty() && !base.is_empty())
                    .then(|| self.module_file(&base))
                    .flatten()
            });
            return found.map_or(Resolution::Internal, Resolution::File);
        }
        let Some(first) = segments.first().copied() else {
            return Resolution::Internal;
        };
        // A regular top-level module or package decides; a namespace package (a folder of
        // Python files without `__init__.py`) may have portions in several roots, so the search
        // goes on when a portion lacks the module, and a name no portion has comes from another
        // distribution of the namespace (`poetry.core`). A weak root only answers with a regular
        // package that has the module: a loose `build.py` in some fixture folder is not the
        // `build` distribution, nor a fixture's `tests` package the project's.
        let mut in_namespace = false;
        let strong = self.strong_roots(importer);
        for root in &strong {
            let Some(base) = join(root, first) else {
                continue;
            };
            if self.module_path(&base).is_some() {
                return accept(self.deepest(root, &segments), root)
                    .map_or(Resolution::Internal, Resolution::File);
            }
            if self.folders.contains(&base) {
                if let Some(found) = accept(self.deepest(root, &segments), root) {
                    return Resolution::File(found);
                }
                in_namespace = true;
            }
        }
        let mut in_weak_package = false;
        // A folder that is not on the path cannot shadow the standard library: a weak root
        // never answers for its names (mypy's vendored `typeshed/stdlib/os/`, a test fixture's
        // `json/` package).
        let weak_roots = if is_standard_library(first) {
            Vec::new()
        } else {
            self.weak_roots(importer, first, &strong)
        };
        for root in weak_roots {
            if let Some(found) = accept(self.deepest(root, &segments), root) {
                return Resolution::File(found);
            }
            in_weak_package = true;
        }
        if in_weak_package && !in_namespace {
            return Resolution::Internal;
        }
        let package = if in_namespace {
            segments
                .iter()
                .take(2)
                .copied()
                .collect::<Vec<_>>()
                .join(".")
        } else {
            first.to_owned()
        };
        Resolution::External { package }
    }

    /// The roots an absolute import from `importer` is looked up in first: the own root, the
    /// configured roots that hold the importer or that a configuration names, the project root.
    fn strong_roots(&self, importer: &str) -> Vec<String> {
        let mut roots = vec![self.own_root(importer)];
        for root in self
            .configured_roots
            .iter()
            .filter(|root| self.is_strong_root(importer, root))
            .chain(std::iter::once(&String::new()))
        {
            if !roots.contains(root) {
                roots.push(root.clone());
            }
        }
        roots
    }

    fn is_strong_root(&self, importer: &str, root: &String) -> bool {
        is_within(importer, root) || self.named_roots.contains(root)
    }

    /// The weak roots, in order, where `first` is a regular package (the only ones a weak root
    /// answers with): the folders of the configurations that do not hold the importer (a test
    /// fixture's `pyproject.toml`), then the tree's implicit roots nearest the importer first;
    /// none that is already among the `strong` roots.
    /// A package whose `__init__` is only a stub (`.pyi`) answers only a stub's import: the
    /// interpreter never loads a stub (typeshed's third-party stubs).
    fn weak_roots<'a>(&'a self, importer: &str, first: &str, strong: &[String]) -> Vec<&'a str> {
        let importer_is_stub = importer.ends_with(".pyi");
        let is_package_root = |root: &str| {
            join(root, first).is_some_and(|base| {
                self.is_regular_package(&base)
                    && (importer_is_stub
                        || self
                            .module_path(&base)
                            .is_some_and(|init| !init.ends_with(".pyi")))
            })
        };
        let mut implicit: Vec<&String> = if first.contains('/') {
            self.implicit_roots.iter().collect()
        } else {
            self.implicit_packages
                .get(first)
                .map(|roots| roots.iter().collect())
                .unwrap_or_default()
        };
        let importer_folder = parent_dir(importer);
        implicit
            .sort_by_key(|root| std::cmp::Reverse(common_prefix_segments(root, importer_folder)));
        let mut roots: Vec<&str> = Vec::new();
        for root in self
            .configured_roots
            .iter()
            .filter(|root| !self.is_strong_root(importer, root))
            .chain(implicit)
        {
            if !strong.contains(root) && !roots.contains(&root.as_str()) && is_package_root(root) {
                roots.push(root);
            }
        }
        roots
    }
}

/// Whether `name` is a top-level module of the standard library (`sys.stdlib_module_names` of
/// Python 3.11, which still lists the modules later versions removed, and the few added since).
fn is_standard_library(name: &str) -> bool {
    STANDARD_LIBRARY.binary_search(&name).is_ok()
}

/// The top-level modules of the standard library, sorted.
const STANDARD_LIBRARY: [&str; 315] = [
    "__future__",
    "_abc",
    "_aix_support",
    "_ast",
    "_asyncio",
    "_bisect",
    "_blake2",
    "_bootsubprocess",
    "_bz2",
    "_codecs",
    "_codecs_cn",
    "_codecs_hk",
    "_codecs_iso2022",
    "_codecs_jp",
    "_codecs_kr",
    "_codecs_tw",
    "_collections",
    "_collections_abc",
    "_colorize",
    "_compat_pickle",
    "_compression",
    "_contextvars",
    "_crypt",
    "_csv",
    "_ctypes",
    "_curses",
    "_curses_panel",
    "_datetime",
    "_dbm",
    "_decimal",
    "_elementtree",
    "_frozen_importlib",
    "_frozen_importlib_external",
    "_functools",
    "_gdbm",
    "_hashlib",
    "_heapq",
    "_imp",
    "_interpchannels",
    "_interpqueues",
    "_interpreters",
    "_io",
    "_json",
    "_locale",
    "_lsprof",
    "_lzma",
    "_markupbase",
    "_md5",
    "_msi",
    "_multibytecodec",
    "_multiprocessing",
    "_opcode",
    "_opcode_metadata",
    "_operator",
    "_osx_support",
    "_overlapped",
    "_pickle",
    "_posixshmem",
    "_posixsubprocess",
    "_py_abc",
    "_pydecimal",
    "_pyio",
    "_pyrepl",
    "_queue",
    "_random",
    "_scproxy",
    "_sha1",
    "_sha256",
    "_sha3",
    "_sha512",
    "_signal",
    "_sitebuiltins",
    "_socket",
    "_sqlite3",
    "_sre",
    "_ssl",
    "_stat",
    "_statistics",
    "_string",
    "_strptime",
    "_struct",
    "_suggestions",
    "_symtable",
    "_sysconfig",
    "_thread",
    "_threading_local",
    "_tkinter",
    "_tokenize",
    "_tracemalloc",
    "_typing",
    "_uuid",
    "_warnings",
    "_weakref",
    "_weakrefset",
    "_winapi",
    "_zoneinfo",
    "abc",
    "aifc",
    "annotationlib",
    "antigravity",
    "argparse",
    "array",
    "ast",
    "asynchat",
    "asyncio",
    "asyncore",
    "atexit",
    "audioop",
    "base64",
    "bdb",
    "binascii",
    "bisect",
    "builtins",
    "bz2",
    "cProfile",
    "calendar",
    "cgi",
    "cgitb",
    "chunk",
    "cmath",
    "cmd",
    "code",
    "codecs",
    "codeop",
    "collections",
    "colorsys",
    "compileall",
    "compression",
    "concurrent",
    "configparser",
    "contextlib",
    "contextvars",
    "copy",
    "copyreg",
    "crypt",
    "csv",
    "ctypes",
    "curses",
    "dataclasses",
    "datetime",
    "dbm",
    "decimal",
    "difflib",
    "dis",
    "distutils",
    "doctest",
    "email",
    "encodings",
    "ensurepip",
    "enum",
    "errno",
    "faulthandler",
    "fcntl",
    "filecmp",
    "fileinput",
    "fnmatch",
    "fractions",
    "ftplib",
    "functools",
    "gc",
    "genericpath",
    "getopt",
    "getpass",
    "gettext",
    "glob",
    "graphlib",
    "grp",
    "gzip",
    "hashlib",
    "heapq",
    "hmac",
    "html",
    "http",
    "idlelib",
    "imaplib",
    "imghdr",
    "imp",
    "importlib",
    "inspect",
    "io",
    "ipaddress",
    "itertools",
    "json",
    "keyword",
    "lib2to3",
    "linecache",
    "locale",
    "logging",
    "lzma",
    "mailbox",
    "mailcap",
    "marshal",
    "math",
    "mimetypes",
    "mmap",
    "modulefinder",
    "msilib",
    "msvcrt",
    "multiprocessing",
    "netrc",
    "nis",
    "nntplib",
    "nt",
    "ntpath",
    "nturl2path",
    "numbers",
    "opcode",
    "operator",
    "optparse",
    "os",
    "ossaudiodev",
    "pathlib",
    "pdb",
    "pickle",
    "pickletools",
    "pipes",
    "pkgutil",
    "platform",
    "plistlib",
    "poplib",
    "posix",
    "posixpath",
    "pprint",
    "profile",
    "pstats",
    "pty",
    "pwd",
    "py_compile",
    "pyclbr",
    "pydoc",
    "pydoc_data",
    "pyexpat",
    "queue",
    "quopri",
    "random",
    "re",
    "readline",
    "reprlib",
    "resource",
    "rlcompleter",
    "runpy",
    "sched",
    "secrets",
    "select",
    "selectors",
    "shelve",
    "shlex",
    "shutil",
    "signal",
    "site",
    "smtpd",
    "smtplib",
    "sndhdr",
    "socket",
    "socketserver",
    "spwd",
    "sqlite3",
    "sre_compile",
    "sre_constants",
    "sre_parse",
    "ssl",
    "stat",
    "statistics",
    "string",
    "stringprep",
    "struct",
    "subprocess",
    "sunau",
    "symtable",
    "sys",
    "sysconfig",
    "syslog",
    "tabnanny",
    "tarfile",
    "telnetlib",
    "tempfile",
    "termios",
    "textwrap",
    "this",
    "threading",
    "time",
    "timeit",
    "tkinter",
    "token",
    "tokenize",
    "tomllib",
    "trace",
    "traceback",
    "tracemalloc",
    "tty",
    "turtle",
    "turtledemo",
    "types",
    "typing",
    "unicodedata",
    "unittest",
    "urllib",
    "uu",
    "uuid",
    "venv",
    "warnings",
    "wave",
    "weakref",
    "webbrowser",
    "winreg",
    "winsound",
    "wsgiref",
    "xdrlib",
    "xml",
    "xmlrpc",
    "zipapp",
    "zipfile",
    "zipimport",
    "zlib",
    "zoneinfo",
];

/// How many module segments a file under `root` stands for (`a/b.py` and `a/b/__init__.py` → 2).
fn module_depth(file: &str, root: &str) -> usize {
    let relative = if root.is_empty() {
        file
    } else {
        file.strip_prefix(root)
            .map_or(file, |rest| rest.trim_start_matches('/'))
    };
    let segments = relative.split('/').count();
    if file_name(file).starts_with("__init__.") {
        segments - 1
    } else {
        segments
    }
}

fn common_prefix_segments(left: &str, right: &str) -> usize {
    left.split('/')
        .zip(right.split('/'))
        .take_while(|(a, b)| a == b && !a.is_empty())
        .count()
}
