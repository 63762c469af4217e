//! Project paths: the project file list (gitignore-aware walk plus tracked files) and the one
//! file → component mapping of `language.md` §3.3, used everywhere.
//!
//! Every path that leaves this module is project-relative with `/` separators.

use std::collections::BTreeSet;
use std::path::{Component as PathComponent, Path, PathBuf};

use globset::{GlobBuilder, GlobMatcher};
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
    for entry in walker.flatten() {
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
                symlinks.push((to_slash(relative), to_slash(&target)));
            }
        }
    }
    symlinks.sort();
    Listing {
        files: files.into_iter().collect(),
        symlinks,
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

struct ComponentGlobs {
    name: String,
    alternatives: Vec<Alternative>,
}

/// The result of mapping one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ownership {
    /// The owner component.
    pub owner: String,
    /// Other components that matched with the same specificity (declared later).
    pub tied_with: Vec<String>,
}

/// The file → component mapping (`language.md` §3.3).
pub struct ComponentMap {
    components: Vec<ComponentGlobs>,
}

impl ComponentMap {
    /// Compiles every component's globs. Globs that do not compile are skipped (the checker rejects them).
    pub fn new(model: &Model) -> Self {
        let components = model
            .components
            .iter()
            .map(|component| {
                let alternatives = component
                    .paths
                    .iter()
                    .flat_map(|pattern| {
                        expand_braces(pattern.strip_prefix("./").unwrap_or(pattern))
                    })
                    .filter_map(|alternative| {
                        let alternative = if alternative.ends_with('/') {
                            format!("{alternative}**")
                        } else {
                            alternative
                        };
                        let matcher = GlobBuilder::new(&alternative)
                            .literal_separator(true)
                            .build()
                            .ok()?
                            .compile_matcher();
                        Some(Alternative {
                            matcher,
                            specificity: literal_prefix_len(&alternative),
                        })
                    })
                    .collect();
                ComponentGlobs {
                    name: component.name.clone(),
                    alternatives,
                }
            })
            .collect();
        Self { components }
    }

    /// The owner of a project-relative file, with the components it tied with.
    pub fn ownership(&self, file: &str) -> Option<Ownership> {
        let mut best: Option<(usize, &str)> = None;
        let mut tied_with = Vec::new();
        for component in &self.components {
            let specificity = component
                .alternatives
                .iter()
                .filter(|alternative| alternative.matcher.is_match(file))
                .map(|alternative| alternative.specificity)
                .max();
            let Some(specificity) = specificity else {
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

    /// The owner of a project-relative file.
    pub fn owner(&self, file: &str) -> Option<String> {
        self.ownership(file).map(|ownership| ownership.owner)
    }

    /// True when some glob of `component` matches some of `files`.
    pub fn matches_any(&self, component: &str, files: &[String]) -> bool {
        self.components
            .iter()
            .filter(|globs| globs.name == component)
            .flat_map(|globs| &globs.alternatives)
            .any(|alternative| files.iter().any(|file| alternative.matcher.is_match(file)))
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
