//! Reading configuration files from disk, confined to the project root.
//!
//! A path is read only when it is project-relative, stays under the root after normalisation,
//! and its canonical form (symlinks followed) is still under the canonical root: a symlink that
//! points out of the project is never read. Oversized and non-UTF-8 files read as absent.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Configuration files larger than this are ignored.
const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// Reads project-relative configuration files under one root.
#[derive(Debug)]
pub(crate) struct ConfigReader {
    root: PathBuf,
    canonical_root: Option<PathBuf>,
    /// Every path successfully read, for change detection.
    read_paths: RefCell<BTreeSet<String>>,
}

impl ConfigReader {
    /// A reader for files under `root`.
    pub fn new(root: &Path) -> Self {
        Self {
            root: root.to_path_buf(),
            canonical_root: root.canonicalize().ok(),
            read_paths: RefCell::default(),
        }
    }

    /// The text of a project-relative file, or `None` when it is missing, outside the root,
    /// too large or not UTF-8.
    pub fn read(&self, relative: &str) -> Option<String> {
        let canonical_root = self.canonical_root.as_ref()?;
        if relative.is_empty()
            || relative.starts_with('/')
            || relative.split('/').any(|segment| segment == "..")
        {
            return None;
        }
        let canonical = self.root.join(relative).canonicalize().ok()?;
        if !canonical.starts_with(canonical_root) {
            return None;
        }
        let metadata = std::fs::metadata(&canonical).ok()?;
        if !metadata.is_file() || metadata.len() > MAX_CONFIG_BYTES {
            return None;
        }
        let text = std::fs::read_to_string(&canonical).ok()?;
        if let Ok(mut read_paths) = self.read_paths.try_borrow_mut() {
            read_paths.insert(relative.to_owned());
        }
        Some(text)
    }

    /// The project-relative paths read so far, sorted.
    pub fn read_paths(&self) -> Vec<String> {
        self.read_paths
            .try_borrow()
            .map(|read_paths| read_paths.iter().cloned().collect())
            .unwrap_or_default()
    }
}
