//! Project paths: the project file list (gitignore-aware walk plus tracked files) and the one
//! file → component mapping (see `component` in policies/LANGUAGE.md), used everywhere.
//!
//! Every path that leaves this module is project-relative with `/` separators.

use std::collections::BTreeSet;
use std::path::{Component as PathComponent, Path, PathBuf};

use globset::{Glob, GlobBuilder, GlobMatcher, GlobSet, GlobSetBuilder};
use policies::model::Model;

/// Converts a relative path to the `/`-separated form used in output.
pub fn to_slash(path: &Path) -> String {
    let parts: Vec<String> = path
        .components()
        .filter_map(|part| match part {
            PathComponent::Normal(name) => Some(name.to_string_lossy().into_owned()),
            PathComponent::ParentDir => Some("..".to_owned()),
            _ => None,
        })
        .collect();
    parts.join("/")
}

/// Lexically normalises a path (removes `.` and resolves `..` against earlier segments).
pub fn normalize(path: &Path) -> PathBuf {
    let mut normalized = PathBuf::new();
    for part in path.components() {
        match part {
            PathComponent::CurDir => {}
            PathComponent::ParentDir => {
                if !normalized.pop() {
                    normalized.push("..");
                }
            }
            other => normalized.push(other.as_os_str()),
        }
    }
    normalized
}

/// `path` relative to `root`, with `..` segments when it lies outside; both are made absolute first.
pub fn relative_to(path: &Path, root: &Path) -> String {
    let absolute = |p: &Path| {
        if p.is_absolute() {
            normalize(p)
        } else {
            normalize(&std::env::current_dir().unwrap_or_default().join(p))
        }
    };
    let (path, root) = (absolute(path), absolute(root));
    let path_parts: Vec<_> = path.components().collect();
    let root_parts: Vec<_> = root.components().collect();
    let common = path_parts
        .iter()
        .zip(&root_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut relative = PathBuf::new();
    for _ in common..root_parts.len() {
        relative.push("..");
    }
    for part in path_parts.iter().skip(common) {
        relative.push(part.as_os_str());
    }
    to_slash(&relative)
}

/// What [`walk_project`] finds.
#[derive(Debug, Default)]
pub struct Listing {
    /// Project files, project-relative, sorted.
    pub files: Vec<String>,
    /// Symbolic links met (not followed): link path → its target text.
    pub symlinks: Vec<(String, String)>,
    /// What the walk could not enter or list (an unreadable folder, a path too long to open):
    /// project-relative path and reason, reported as `file-skipped` warnings.
    pub unreadable: Vec<(String, String)>,
}

/// Lists the project's files: files git tracks (when `tracked` is given) plus every file the
/// gitignore-aware walk finds. Symlinks are never followed, only listed with their target text,
/// and `.git` is skipped. In a git project a nested repository (a folder holding `.git`: a
/// submodule's checkout, a clone inside the tree) is opaque, as git treats it.
pub fn walk_project(root: &Path, tracked: &[String]) -> Listing {
    let mut files: BTreeSet<String> = tracked.iter().cloned().collect();
    let mut symlinks = Vec::new();
    let in_git = !tracked.is_empty();
    let walker = ignore::WalkBuilder::new(root)
        .hidden(false)
        .follow_links(false)
        .require_git(false)
        .parents(false)
        .filter_entry(move |entry| {
            let nested_repository = in_git
                && entry.depth() > 0
                && entry.file_type().is_some_and(|kind| kind.is_dir())
                && entry.path().join(".git").exists();
            entry.file_name() != ".git" && !nested_repository
        })
        .build();
    let mut unreadable = Vec::new();
    for entry in walker {
        let entry = match entry {
            Ok(entry) => entry,
            Err(error) => {
                // Nothing is dropped silently: a folder the walk cannot read may hold violations.
                if let Some((path, reason)) = walk_error(&error) {
                    let relative = path
                        .strip_prefix(root)
                        .map_or_else(|_| path.display().to_string(), to_slash);
                    unreadable.push((relative, reason));
                }
                continue;
            }
        };
        let Some(kind) = entry.file_type() else {
            continue;
        };
        let Ok(relative) = entry.path().strip_prefix(root) else {
            continue;
        };
        if kind.is_file() {
            files.insert(to_slash(relative));
        } else if kind.is_symlink() {
            if let Ok(target) = std::fs::read_link(entry.path()) {
                // An absolute target keeps its leading `/`: it is not a path in the project.
                let shown = if target.has_root() {
                    format!("/{}", to_slash(&target))
                } else {
                    to_slash(&target)
                };
                symlinks.push((to_slash(relative), shown));
            }
        } else if !kind.is_dir() {
            // A FIFO, socket or device is never read, and never dropped silently.
            unreadable.push((
                to_slash(relative),
                format!("not a regular file: {}", special_kind(kind)),
            ));
        }
    }
    symlinks.sort();
    unreadable.sort();
    unreadable.dedup();
    Listing {
        files: files.into_iter().collect(),
        symlinks,
        unreadable,
    }
}

/// What a special file is, for a message.
fn special_kind(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
    }
    let _ = kind;
    "a special file"
}

/// The path and the reason of a walk error that lost part of the project, if it names a path.
fn walk_error(error: &ignore::Error) -> Option<(PathBuf, String)> {
    match error {
        ignore::Error::WithPath { path, err } => {
            let reason = match err.as_ref() {
                ignore::Error::Io(io) => io.to_string(),
                other => other.to_string(),
            };
            Some((path.clone(), reason))
        }
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            walk_error(err)
        }
        ignore::Error::Loop { child, .. } => Some((child.clone(), "file system loop".to_owned())),
        _ => None,
    }
}

/// Expands non-nested `{a,b}` alternatives.
fn expand_braces(pattern: &str) -> Vec<String> {
    let Some(open) = pattern.find('{') else {
        return vec![pattern.to_owned()];
    };
    let Some(close_offset) = pattern.get(open..).and_then(|rest| rest.find('}')) else {
        return vec![pattern.to_owned()];
    };
    let close = open + close_offset;
    let (Some(head), Some(body), Some(tail)) = (
        pattern.get(..open),
        pattern.get(open + 1..close),
        pattern.get(close + 1..),
    ) else {
        return vec![pattern.to_owned()];
    };
    body.split(',')
        .flat_map(|choice| expand_braces(&format!("{head}{choice}{tail}")))
        .collect()
}

/// The bytes of an alternative before its first `*`, `?` or `[`.
fn literal_prefix_len(alternative: &str) -> usize {
    alternative
        .find(['*', '?', '['])
        .unwrap_or(alternative.len())
}

struct Alternative {
    matcher: GlobMatcher,
    specificity: usize,
}

/// The alternatives of one glob as written (a leading `./` removed, braces expanded, a trailing
/// `/` meaning the whole folder), each with its specificity. Globs that do not compile are
/// skipped (the checker rejects them).
fn alternative_globs(pattern: &str) -> impl Iterator<Item = (Glob, usize)> {
    // A glob over the size limits is never expanded (the checker and the artifact loader
    // refuse it; this keeps the expansion bounded whatever the model holds).
    let pattern = if policies::limits::glob_size_problem(pattern).is_some() {
        ""
    } else {
        pattern
    };
    expand_braces(pattern.strip_prefix("./").unwrap_or(pattern))
        .into_iter()
        .filter_map(|alternative| {
            let alternative = if alternative.ends_with('/') {
                format!("{alternative}**")
            } else {
                alternative
            };
            let glob = GlobBuilder::new(&alternative)
                .literal_separator(true)
                .build()
                .ok()?;
            Some((glob, literal_prefix_len(&alternative)))
        })
}

/// Globs whose specificity does not matter (`exclude` globs, a component's `!` globs), matched
/// together.
pub(crate) struct GlobList(GlobSet);

impl GlobList {
    pub(crate) fn new<'a>(patterns: impl IntoIterator<Item = &'a str>) -> Self {
        let mut builder = GlobSetBuilder::new();
        for (glob, _) in patterns.into_iter().flat_map(alternative_globs) {
            builder.add(glob);
        }
        // Each glob compiled alone above, so the set builds; if it did not, it would match nothing.
        Self(builder.build().unwrap_or_else(|_| GlobSet::empty()))
    }

    pub(crate) fn is_match(&self, file: &str) -> bool {
        !self.0.is_empty() && self.0.is_match(file)
    }
}

struct ComponentGlobs {
    name: String,
    /// The positive globs' alternatives: they add files and give specificity.
    alternatives: Vec<Alternative>,
    /// The `!` globs (see `component` in policies/LANGUAGE.md): a file they match is not in the component.
    negated: GlobList,
}

impl ComponentGlobs {
    /// The component's specificity for `file` (see `component` in policies/LANGUAGE.md), when `file` is in its paths: some positive
    /// glob matches it and no `!` glob does.
    fn specificity(&self, file: &str) -> Option<usize> {
        let specificity = self
            .alternatives
            .iter()
            .filter(|alternative| alternative.matcher.is_match(file))
            .map(|alternative| alternative.specificity)
            .max()?;
        (!self.negated.is_match(file)).then_some(specificity)
    }

    /// True when a positive glob matches `file` and a `!` glob takes it out.
    fn removes(&self, file: &str) -> bool {
        self.negated.is_match(file)
            && self
                .alternatives
                .iter()
                .any(|alternative| alternative.matcher.is_match(file))
    }
}

/// The result of mapping one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ownership {
    /// The owner component.
    pub owner: String,
    /// Other components that matched with the same specificity (declared later).
    pub tied_with: Vec<String>,
}

/// The file → component mapping (see `component` in policies/LANGUAGE.md), with the spec's exclusions (see `component` and `exclude` in policies/LANGUAGE.md).
pub struct ComponentMap {
    components: Vec<ComponentGlobs>,
    /// Every component's positive alternatives in one set, matched once per file; `None` if the
    /// set did not build (each alternative is then matched alone).
    positive: Option<GlobSet>,
    /// For each alternative of `positive`: its component (an index of `components`) and its
    /// specificity.
    positive_owners: Vec<(usize, usize)>,
    /// The `exclude` globs.
    excluded: GlobList,
    /// True when the spec has an `exclude` declaration or a `!` glob.
    has_exclusions: bool,
}

impl ComponentMap {
    /// Compiles every component's globs and the `exclude` globs. Globs that do not compile are
    /// skipped (the checker rejects them).
    pub fn new(model: &Model) -> Self {
        let components = model
            .components
            .iter()
            .map(|component| ComponentGlobs {
                name: component.name.clone(),
                alternatives: component
                    .positive_paths()
                    .flat_map(alternative_globs)
                    .map(|(glob, specificity)| Alternative {
                        matcher: glob.compile_matcher(),
                        specificity,
                    })
                    .collect(),
                negated: GlobList::new(component.negated_paths()),
            })
            .collect::<Vec<ComponentGlobs>>();
        let mut builder = GlobSetBuilder::new();
        let mut positive_owners = Vec::new();
        for (index, component) in model.components.iter().enumerate() {
            for (glob, specificity) in component.positive_paths().flat_map(alternative_globs) {
                builder.add(glob);
                positive_owners.push((index, specificity));
            }
        }
        Self {
            components,
            positive: builder.build().ok(),
            positive_owners,
            excluded: GlobList::new(model.excludes.iter().map(String::as_str)),
            has_exclusions: model.has_exclusions(),
        }
    }

    /// True when an `exclude` glob matches the project-relative file (see `exclude` in policies/LANGUAGE.md): it is not read,
    /// has no owner, and no chain passes through it.
    pub fn is_excluded(&self, file: &str) -> bool {
        self.excluded.is_match(file)
    }

    /// True when the spec leaves files out (`exclude` or a `!` glob): the verdict then counts
    /// them in `stats.files_excluded`.
    pub fn has_exclusions(&self) -> bool {
        self.has_exclusions
    }

    /// True when the spec leaves the file out: an `exclude` glob matches it, or it has no owner
    /// because a component's `!` glob took it out of that component's paths. These are the
    /// files `stats.files_excluded` counts.
    #[cfg(test)]
    pub fn is_left_out(&self, file: &str) -> bool {
        self.is_excluded(file) || (self.ownership(file).is_none() && self.is_removed(file))
    }

    /// True when a component's `!` glob takes the file out of that component's paths (see `component` in policies/LANGUAGE.md),
    /// whether or not another component owns it.
    pub fn is_removed(&self, file: &str) -> bool {
        self.components
            .iter()
            .any(|component| component.removes(file))
    }

    /// The owner of a project-relative file, with the components it tied with; `None` for a
    /// file no component's paths hold, and for an excluded file.
    pub fn ownership(&self, file: &str) -> Option<Ownership> {
        if self.is_excluded(file) {
            return None;
        }
        let mut best: Option<(usize, &str)> = None;
        let mut tied_with = Vec::new();
        for (component, specificity) in self.specificities(file) {
            let Some(component) = self.components.get(component) else {
                continue;
            };
            match best {
                Some((best_specificity, _)) if specificity < best_specificity => {}
                Some((best_specificity, _)) if specificity == best_specificity => {
                    tied_with.push(component.name.clone());
                }
                _ => {
                    best = Some((specificity, &component.name));
                    tied_with.clear();
                }
            }
        }
        best.map(|(_, owner)| Ownership {
            owner: owner.to_owned(),
            tied_with,
        })
    }

    /// The components whose paths hold `file`, in declaration order, each with its
    /// specificity for it (see `component` in policies/LANGUAGE.md): the positive globs of
    /// every component are matched at once, then the `!` globs of those that matched.
    fn specificities(&self, file: &str) -> Vec<(usize, usize)> {
        let Some(positive) = &self.positive else {
            return self
                .components
                .iter()
                .enumerate()
                .filter_map(|(index, component)| Some((index, component.specificity(file)?)))
                .collect();
        };
        let mut matched: Vec<(usize, usize)> = positive
            .matches(file)
            .into_iter()
            .filter_map(|glob| self.positive_owners.get(glob).copied())
            .collect();
        // The most specific alternative of each component.
        matched.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        matched.dedup_by_key(|(component, _)| *component);
        matched.retain(|(component, _)| {
            self.components
                .get(*component)
                .is_some_and(|globs| !globs.negated.is_match(file))
        });
        matched
    }

    /// The owner of a project-relative file.
    pub fn owner(&self, file: &str) -> Option<String> {
        self.ownership(file).map(|ownership| ownership.owner)
    }

    /// True when some of `files` is in the paths of `component` (its `!` globs and the
    /// `exclude` globs applied), whether or not a more specific component owns it.
    pub fn matches_any(&self, component: &str, files: &[String]) -> bool {
        self.components
            .iter()
            .filter(|globs| globs.name == component)
            .any(|globs| {
                files
                    .iter()
                    .any(|file| globs.specificity(file).is_some() && !self.is_excluded(file))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use policies::model::{Component, SourceLocation};

    fn component(name: &str, paths: &[&str]) -> Component {
        Component {
            name: name.into(),
            runs_on: "app".into(),
            paths: paths.iter().map(|path| (*path).to_owned()).collect(),
            role: None,
            layer: None,
            repo: None,
            implements: vec![],
            consumes: vec![],
            handles: vec![],
            depends_on: None,
            public: vec![],
            location: SourceLocation {
                file: "architecture.ag".into(),
                line: 1,
                column: 1,
            },
        }
    }

    #[test]
    fn most_specific_glob_wins() {
        let model = Model {
            components: vec![
                component("Api", &["api/**", "shared/api/**"]),
                component("Repo", &["api/repo/**"]),
            ],
            ..Model::default()
        };
        let map = ComponentMap::new(&model);
        assert_eq!(map.owner("api/orders.ts").as_deref(), Some("Api"));
        assert_eq!(map.owner("api/repo/orders.ts").as_deref(), Some("Repo"));
        assert_eq!(map.owner("shared/api/x.ts").as_deref(), Some("Api"));
        assert_eq!(map.owner("web/x.ts"), None);
    }

    #[test]
    fn star_does_not_cross_slash_and_trailing_slash_means_subtree() {
        let model = Model {
            components: vec![
                component("Top", &["src/*.ts"]),
                component("Lib", &["lib/"]),
                component("Dot", &["./x/{a,b}/**"]),
            ],
            ..Model::default()
        };
        let map = ComponentMap::new(&model);
        assert_eq!(map.owner("src/a.ts").as_deref(), Some("Top"));
        assert_eq!(map.owner("src/deep/a.ts"), None);
        assert_eq!(map.owner("lib/deep/a.ts").as_deref(), Some("Lib"));
        assert_eq!(map.owner("x/b/c.ts").as_deref(), Some("Dot"));
        assert_eq!(map.owner("src/.hidden.ts").as_deref(), Some("Top"));
    }

    #[test]
    fn ties_go_to_the_first_declared_component() {
        let model = Model {
            components: vec![
                component("A", &["src/**"]),
                component("B", &["src/**/*.ts"]),
            ],
            ..Model::default()
        };
        let ownership = ComponentMap::new(&model).ownership("src/x.ts").unwrap();
        assert_eq!(ownership.owner, "A");
        assert_eq!(ownership.tied_with, ["B"]);
    }

    #[test]
    fn a_negated_glob_takes_files_out_of_its_component_only() {
        let model = Model {
            components: vec![
                component("Api", &["api/**", "!api/**/*.test.ts", "!./api/fixtures/"]),
                component("Tests", &["**/*.test.ts"]),
                component("Web", &["web/**", "!web/gen/**"]),
            ],
            ..Model::default()
        };
        let map = ComponentMap::new(&model);
        assert!(map.has_exclusions());
        assert_eq!(map.owner("api/orders.ts").as_deref(), Some("Api"));
        // Taken out of `Api` (whose positive glob is more specific), the test goes to `Tests`.
        assert_eq!(
            map.owner("api/deep/orders.test.ts").as_deref(),
            Some("Tests")
        );
        assert_eq!(map.owner("api/fixtures/data.ts"), None);
        assert_eq!(map.owner("web/gen/client.ts"), None);
        assert!(
            map.ownership("api/deep/orders.test.ts")
                .unwrap()
                .tied_with
                .is_empty(),
            "a component that removes a file does not tie for it"
        );
        assert!(
            !map.is_left_out("api/deep/orders.test.ts"),
            "another component owns it"
        );
        assert!(map.is_left_out("api/fixtures/data.ts"));
        assert!(map.is_left_out("web/gen/client.ts"));
        assert!(!map.is_left_out("docs/readme.md"), "no glob ever held it");
        assert!(
            !map.is_excluded("web/gen/client.ts"),
            "a `!` glob is no `exclude`"
        );
        assert!(map.matches_any("Web", &["web/gen/a.ts".into(), "web/b.ts".into()]));
        assert!(!map.matches_any("Web", &["web/gen/a.ts".into()]));
    }

    #[test]
    fn an_excluded_file_has_no_owner_whatever_its_globs() {
        let model = Model {
            components: vec![
                component("Api", &["api/**"]),
                component("Gen", &["api/gen/client.ts"]),
            ],
            excludes: vec!["api/gen/".into(), "**/*.{spec,test}.ts".into()],
            ..Model::default()
        };
        let map = ComponentMap::new(&model);
        assert!(map.has_exclusions());
        for file in [
            "api/gen/client.ts",
            "api/gen/deep/x.ts",
            "web/a.spec.ts",
            "a.test.ts",
        ] {
            assert!(map.is_excluded(file), "{file}");
            assert!(map.is_left_out(file), "{file}");
            assert_eq!(map.ownership(file), None, "{file}");
        }
        assert!(!map.is_excluded("api/generated.ts"));
        assert_eq!(map.owner("api/orders.ts").as_deref(), Some("Api"));
        assert!(!map.matches_any("Gen", &["api/gen/client.ts".into()]));
        assert!(map.matches_any("Api", &["api/gen/client.ts".into(), "api/x.ts".into()]));
        let plain = ComponentMap::new(&Model {
            components: vec![component("Api", &["api/**"])],
            ..Model::default()
        });
        assert!(!plain.has_exclusions());
        assert!(!plain.is_excluded("api/x.ts"));
        assert!(!plain.is_left_out("web/x.ts"));
    }

    #[test]
    fn relative_paths_use_dotdot_outside_the_root() {
        assert_eq!(
            relative_to(Path::new("/a/b/spec.ag"), Path::new("/a/c")),
            "../b/spec.ag"
        );
        assert_eq!(
            relative_to(Path::new("/a/c/x/y.ts"), Path::new("/a/c")),
            "x/y.ts"
        );
    }
}
