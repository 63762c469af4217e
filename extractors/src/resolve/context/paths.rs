//! Lexical operations on project-relative paths (`/` separators, no leading `/`, `""` for the
//! root). Nothing here touches the file system, and no result ever leaves the root.

/// The directory part of a project-relative path: `a/b/c.ts` → `a/b`, `c.ts` → `""`.
pub(crate) fn parent_dir(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(directory, _)| directory)
}

/// The last segment of a path: `a/b/c.ts` → `c.ts`.
pub(crate) fn file_name(path: &str) -> &str {
    path.rsplit_once('/').map_or(path, |(_, name)| name)
}

/// Joins a relative path onto a project-relative directory and normalises `.`, `..` and empty
/// segments. `None` when the result would leave the project root or `relative` is absolute.
pub(crate) fn join(directory: &str, relative: &str) -> Option<String> {
    if relative.starts_with('/') {
        return None;
    }
    // Most joins put a name or a few under a folder: nothing to normalise, one allocation.
    if is_plain(directory) && is_plain(relative) {
        return Some(match (directory.is_empty(), relative.is_empty()) {
            (true, _) => relative.to_owned(),
            (false, true) => directory.to_owned(),
            (false, false) => {
                let mut joined = String::with_capacity(directory.len() + 1 + relative.len());
                joined.push_str(directory);
                joined.push('/');
                joined.push_str(relative);
                joined
            }
        });
    }
    let mut segments: Vec<&str> = directory
        .split('/')
        .filter(|segment| !segment.is_empty())
        .collect();
    for segment in relative.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop()?;
            }
            _ => segments.push(segment),
        }
    }
    Some(segments.join("/"))
}

/// Whether every segment of `path` is a name (none empty, `.` or `..`): `join` would keep it as
/// it is. The root `""` is plain.
pub(crate) fn is_plain(path: &str) -> bool {
    path.is_empty()
        || path
            .split('/')
            .all(|segment| !segment.is_empty() && segment != "." && segment != "..")
}

/// The directories containing a file, nearest first, ending with the root `""`.
pub(crate) fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    let mut next = Some(parent_dir(path));
    std::iter::from_fn(move || {
        let current = next?;
        next = if current.is_empty() {
            None
        } else {
            Some(parent_dir(current))
        };
        Some(current)
    })
}

/// Whether `path` lies inside `directory` (the root contains everything).
pub(crate) fn is_within(path: &str, directory: &str) -> bool {
    directory.is_empty()
        || path
            .strip_prefix(directory)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_normalises_and_refuses_to_leave_the_root() {
        assert_eq!(join("a/b", "../c/./d.ts").as_deref(), Some("a/c/d.ts"));
        assert_eq!(join("", "./x").as_deref(), Some("x"));
        assert_eq!(join("a", "..").as_deref(), Some(""));
        assert_eq!(join("", "../x"), None);
        assert_eq!(join("a", "/etc/passwd"), None);
        // Plain paths are put together as they are; anything else is normalised.
        assert_eq!(join("a/b", "c/d").as_deref(), Some("a/b/c/d"));
        assert_eq!(join("", "c").as_deref(), Some("c"));
        assert_eq!(join("a", "").as_deref(), Some("a"));
        assert_eq!(join("", "").as_deref(), Some(""));
        assert_eq!(join("a/", "b").as_deref(), Some("a/b"));
        assert_eq!(join("a//b", "c").as_deref(), Some("a/b/c"));
        assert_eq!(join("a", "b/").as_deref(), Some("a/b"));
        assert_eq!(join("a", ".").as_deref(), Some("a"));
    }

    #[test]
    fn ancestors_walk_up_to_the_root() {
        assert_eq!(ancestors("a/b/c.ts").collect::<Vec<_>>(), ["a/b", "a", ""]);
        assert_eq!(ancestors("c.ts").collect::<Vec<_>>(), [""]);
        assert!(is_within("a/b.ts", "a"));
        assert!(!is_within("ab/c.ts", "a"));
    }
}
