//! Project-relative display paths: `/` separators, leading `..` segments
//! for files outside the project root, never an absolute path.

use std::path::{Component, Path, PathBuf};

/// The path of `path` relative to `project_root`, with `/` separators.
///
/// Both paths are made absolute and normalised lexically; when that needs `..` segments, the
/// canonical (symlink-resolved) paths are tried too and the shorter answer wins.
/// If the two share no root at all, only the file name is returned.
pub fn display_path(path: &Path, project_root: &Path) -> String {
    let lexical = relative_path(&absolute(path), &absolute(project_root));
    let canonical = match (path.canonicalize(), project_root.canonicalize()) {
        (Ok(path), Ok(root)) => relative_path(&path, &root),
        _ => None,
    };
    let best = match (lexical, canonical) {
        (Some(lexical), Some(canonical)) => {
            if parent_segments(&canonical) < parent_segments(&lexical) {
                canonical
            } else {
                lexical
            }
        }
        (Some(found), None) | (None, Some(found)) => found,
        (None, None) => path.file_name().map(PathBuf::from).unwrap_or_default(),
    };
    to_slash(&best)
}

/// `path` made absolute against the current directory and normalised lexically.
pub fn absolute(path: &Path) -> PathBuf {
    let joined = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    normalize(&joined)
}

/// Removes `.` segments and folds `..` into the preceding segment, without touching the disk.
pub fn normalize(path: &Path) -> PathBuf {
    let mut normalized = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                let can_pop = matches!(
                    normalized.components().next_back(),
                    Some(Component::Normal(_))
                );
                if can_pop {
                    normalized.pop();
                } else if !normalized.has_root() {
                    normalized.push("..");
                }
            }
            other => normalized.push(other.as_os_str()),
        }
    }
    normalized
}

/// `path` relative to `base`; both must be absolute and normalised. `None` when they have
/// different roots (such as two Windows drives).
pub fn relative_path(path: &Path, base: &Path) -> Option<PathBuf> {
    let path_components: Vec<Component<'_>> = path.components().collect();
    let base_components: Vec<Component<'_>> = base.components().collect();
    let root_matches = match (path_components.first(), base_components.first()) {
        (Some(left), Some(right)) => left == right,
        _ => false,
    };
    if !root_matches {
        return None;
    }
    let common = path_components
        .iter()
        .zip(&base_components)
        .take_while(|(left, right)| left == right)
        .count();
    let mut relative = PathBuf::new();
    for _ in base_components.iter().skip(common) {
        relative.push("..");
    }
    for component in path_components.iter().skip(common) {
        relative.push(component.as_os_str());
    }
    Some(relative)
}

/// The path with `/` separators.
pub fn to_slash(path: &Path) -> String {
    let parts: Vec<String> = path
        .components()
        .filter_map(|component| match component {
            Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
            Component::ParentDir => Some("..".to_owned()),
            Component::CurDir | Component::RootDir | Component::Prefix(_) => None,
        })
        .collect();
    parts.join("/")
}

fn parent_segments(path: &Path) -> usize {
    path.components()
        .filter(|component| matches!(component, Component::ParentDir))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_the_root_is_plain() {
        assert_eq!(
            display_path(Path::new("/p/specs/a.ag"), Path::new("/p")),
            "specs/a.ag"
        );
    }

    #[test]
    fn outside_the_root_gets_parent_segments() {
        assert_eq!(
            display_path(Path::new("/p/../q/a.ag"), Path::new("/p/r")),
            "../../q/a.ag"
        );
    }

    #[test]
    fn normalize_folds_parents() {
        assert_eq!(
            normalize(Path::new("/a/b/../c/./d")),
            PathBuf::from("/a/c/d")
        );
        assert_eq!(normalize(Path::new("../x")), PathBuf::from("../x"));
    }
}
