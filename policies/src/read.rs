//! The one way lintel reads a file from disk: only a regular file, and never more than its size
//! limit plus one byte.
//!
//! Every file lintel reads (specs and their imports, artifacts, reviewed queries, resolver
//! configurations, sources, and the source lines of code frames) goes through
//! [`read_regular_file`]. A FIFO would block the run forever, a device such as `/dev/zero` would
//! never end, and a `/proc` file would put the machine's secrets (the environment) into a
//! message that CI may post on a public pull request: none of them is a file of a project.
//!
//! The checks, in order: the path (symlinks followed, as the caller decides whether a symlink may
//! be followed at all) names a regular file; the open handle is still a regular file; at most
//! `limit + 1` bytes are read, so a caller sees that a file is too large without holding it; a
//! file whose content is longer than the size the file system reports (`/proc` and `/sys` files
//! report 0 or 4,096 bytes) is refused.

use std::io::Read;
use std::path::Path;

/// Reads `path` when it is a regular file: at most `limit + 1` bytes, so that a caller compares
/// the length with `limit` to tell a file that is too large.
///
/// A FIFO, socket, device or directory is refused before it is opened (an `InvalidInput` error
/// whose text names what it is), and so is a file that holds more than its reported size
/// (a `/proc` or `/sys` file).
pub fn read_regular_file(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    let metadata = std::fs::metadata(path)?;
    refuse_unless_regular(&metadata)?;
    read_checked(path, limit)
}

/// Reads `path` as [`read_regular_file`] does, but never through a symbolic link: a link at
/// `path` is refused (an `InvalidInput` error, "symbolic link not followed"). One look at the
/// path serves both checks: this reads a project's own files, thousands in a run.
pub fn read_regular_file_no_follow(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    let metadata = std::fs::symlink_metadata(path)?;
    if metadata.file_type().is_symlink() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "symbolic link not followed",
        ));
    }
    refuse_unless_regular(&metadata)?;
    read_checked(path, limit)
}

/// Opens and reads `path`, whose metadata the caller found to be a regular file's.
fn read_checked(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    // The path may have been swapped between the two calls: check the handle itself.
    let opened = file.metadata()?;
    refuse_unless_regular(&opened)?;
    let reported = opened.len();
    let mut bytes = Vec::with_capacity(
        usize::try_from(reported.min(limit.saturating_add(1))).unwrap_or_default(),
    );
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    let read = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if read > reported {
        return Err(not_regular(
            "a file whose content is longer than its reported size (such as a `/proc` file)",
        ));
    }
    Ok(bytes)
}

/// True when `error` is the refusal of a path that is not a regular file.
pub fn is_not_regular(error: &std::io::Error) -> bool {
    error.kind() == std::io::ErrorKind::InvalidInput
        && error.to_string().starts_with(NOT_REGULAR_PREFIX)
}

const NOT_REGULAR_PREFIX: &str = "not a regular file";

fn not_regular(what: &str) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("{NOT_REGULAR_PREFIX}: {what}"),
    )
}

fn refuse_unless_regular(metadata: &std::fs::Metadata) -> std::io::Result<()> {
    let file_type = metadata.file_type();
    if file_type.is_file() {
        return Ok(());
    }
    Err(not_regular(kind_name(file_type)))
}

/// What a file that is not regular is, for a message.
fn kind_name(file_type: std::fs::FileType) -> &'static str {
    if file_type.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
    }
    "a special file"
}

/// True when `path` lies under `root` as written but a symbolic link takes it out of `root`
/// (its canonical path is not under the canonical root). A path that cannot be resolved does not
/// leave the root: reading it fails on its own.
pub fn leaves_root(path: &Path, root: &Path) -> bool {
    let lexical_root = crate::paths::absolute(root);
    if !crate::paths::absolute(path).starts_with(&lexical_root) {
        return false;
    }
    match (path.canonicalize(), root.canonicalize()) {
        (Ok(canonical), Ok(canonical_root)) => !canonical.starts_with(canonical_root),
        _ => false,
    }
}

/// A short, escaped excerpt of text from a file that may not be the user's, for a message: at
/// most `max_chars` characters, with control characters and backticks escaped.
pub fn excerpt(text: &str, max_chars: usize) -> String {
    let mut shown: String = text
        .chars()
        .take(max_chars)
        .flat_map(char::escape_debug)
        .collect::<String>()
        .replace('`', "\\`");
    if text.chars().nth(max_chars).is_some() {
        shown.push('…');
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_read_up_to_its_limit_plus_one_byte() {
        let directory = tempfile::tempdir().unwrap();
        let path = directory.path().join("a.txt");
        std::fs::write(&path, "0123456789").unwrap();
        assert_eq!(read_regular_file(&path, 100).unwrap(), b"0123456789");
        assert_eq!(read_regular_file(&path, 4).unwrap(), b"01234");
    }

    #[test]
    fn a_symbolic_link_is_not_followed_when_the_caller_says_so() {
        let directory = tempfile::tempdir().unwrap();
        let path = directory.path().join("a.txt");
        std::fs::write(&path, "0123456789").unwrap();
        assert_eq!(
            read_regular_file_no_follow(&path, 100).unwrap(),
            b"0123456789"
        );
        assert_eq!(read_regular_file_no_follow(&path, 4).unwrap(), b"01234");
        #[cfg(unix)]
        {
            let link = directory.path().join("link.txt");
            std::os::unix::fs::symlink(&path, &link).unwrap();
            assert_eq!(read_regular_file(&link, 100).unwrap(), b"0123456789");
            let error = read_regular_file_no_follow(&link, 100).unwrap_err();
            assert_eq!(error.to_string(), "symbolic link not followed");
        }
        let error = read_regular_file_no_follow(directory.path(), 100).unwrap_err();
        assert!(is_not_regular(&error), "{error}");
    }

    #[test]
    fn a_directory_is_refused() {
        let directory = tempfile::tempdir().unwrap();
        let error = read_regular_file(directory.path(), 100).unwrap_err();
        assert!(is_not_regular(&error), "{error}");
        assert!(error.to_string().contains("a directory"), "{error}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn devices_and_proc_files_are_refused() {
        let error = read_regular_file(Path::new("/dev/zero"), 100).unwrap_err();
        assert!(error.to_string().contains("a character device"), "{error}");
        let error = read_regular_file(Path::new("/proc/self/environ"), 1 << 20).unwrap_err();
        assert!(is_not_regular(&error), "{error}");
        assert!(error.to_string().contains("/proc"), "{error}");
    }

    #[test]
    fn an_excerpt_is_short_and_escaped() {
        assert_eq!(excerpt("a\nb`c", 10), "a\\nb\\`c");
        assert_eq!(excerpt("abcdef", 3), "abc…");
    }
}
