//! Reading configuration files, confined to the project.
//!
//! From disk, a path is read only when it is project-relative, stays under the root after
//! normalisation, and its canonical form (symlinks followed) is still under the canonical root:
//! a symlink that points out of the project is never read. Oversized and non-UTF-8 files read as
//! absent. A caller may supply its own source instead (a git snapshot); the same path checks
//! apply before it is asked.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::path::Path;

/// Configuration files larger than this are ignored.
const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// Gives the text of a project-relative path, if there is one.
type TextSource<'a> = Box<dyn Fn(&str) -> Option<String> + 'a>;

/// Reads project-relative configuration files and remembers which ones it read.
pub(crate) struct ConfigReader<'a> {
    source: TextSource<'a>,
    /// Every path successfully read, for change detection.
    read_paths: RefCell<BTreeSet<String>>,
    /// Every path asked for, read or not.
    asked_paths: RefCell<BTreeSet<String>>,
}

impl<'a> ConfigReader<'a> {
    /// A reader for files on disk under `root`.
    pub fn from_disk(root: &'a Path) -> Self {
        let canonical_root = root.canonicalize().ok();
        Self::from_source(move |relative| {
            let canonical_root = canonical_root.as_ref()?;
            let canonical = root.join(relative).canonicalize().ok()?;
            if !canonical.starts_with(canonical_root) {
                return None;
            }
            // Only a regular file, and at most 1 MiB plus one byte of it (`read_within` drops
            // a longer one).
            let bytes = policies::read::read_regular_file(&canonical, MAX_CONFIG_BYTES).ok()?;
            String::from_utf8(bytes).ok()
        })
    }

    /// A reader that asks `source` for the text of a project-relative path.
    pub fn from_source(source: impl Fn(&str) -> Option<String> + 'a) -> Self {
        Self {
            source: Box::new(source),
            read_paths: RefCell::default(),
            asked_paths: RefCell::default(),
        }
    }

    /// The text of a project-relative configuration file, or `None` when it is missing, outside
    /// the project, too large or not UTF-8. The path is remembered for change detection.
    pub fn read(&self, relative: &str) -> Option<String> {
        if let Ok(mut asked_paths) = self.asked_paths.try_borrow_mut() {
            asked_paths.insert(relative.to_owned());
        }
        let text = self.read_within(relative, MAX_CONFIG_BYTES)?;
        if let Ok(mut read_paths) = self.read_paths.try_borrow_mut() {
            read_paths.insert(relative.to_owned());
        }
        Some(text)
    }

    fn read_within(&self, relative: &str, limit: u64) -> Option<String> {
        if relative.is_empty()
            || relative.starts_with('/')
            || relative
                .split('/')
                .any(|segment| segment == ".." || segment == ".")
        {
            return None;
        }
        (self.source)(relative).filter(|text| text.len() as u64 <= limit)
    }

    /// The paths asked for so far, whether or not they could be read, sorted.
    pub fn asked_paths(&self) -> Vec<String> {
        self.asked_paths
            .try_borrow()
            .map(|asked_paths| asked_paths.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// The project-relative paths read so far, sorted.
    pub fn read_paths(&self) -> Vec<String> {
        self.read_paths
            .try_borrow()
            .map(|read_paths| read_paths.iter().cloned().collect())
            .unwrap_or_default()
    }
}
