//! Check scopes (the scope flags of `lintel check` in docs/CLI.md) via git2: which project state is read, and which files are in scope.
//!
//! - staged (default): the project as staged in the index; the scope is the index entries that differ from HEAD.
//! - `--all`: the working tree (tracked files plus untracked files that are not ignored); every file is in scope.
//! - `--diff REF`: the HEAD commit read from git objects; the scope is what changed between the merge base and HEAD.
//! - `--file PATH…`: the working tree; the scope is the named files.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use git2::{Delta, DiffFindOptions, DiffOptions, ErrorCode, Oid, Repository};

use crate::error::EngineError;
use crate::input::paths::{normalize, relative_to, to_slash, walk_project};

/// Largest source file lintel reads.
pub(crate) const MAX_FILE_BYTES: usize = 2 * 1024 * 1024;

/// [`MAX_FILE_BYTES`] as a read limit: a source read gets at most one byte more.
pub(crate) const SOURCE_LIMIT: u64 = MAX_FILE_BYTES as u64;

/// What the user asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScopeRequest {
    /// The default.
    Staged,
    /// `--all`.
    All,
    /// `--diff REF`.
    Diff(String),
    /// `--file PATH…`, as given (relative to the current directory).
    Files(Vec<PathBuf>),
}

/// Where file contents come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Snapshot {
    /// The file system under the project root.
    Worktree,
    /// The git index.
    Index,
    /// A commit's tree.
    Commit(Oid),
}

/// Reads a project file (by project-relative path) from a git snapshot: `None` when the snapshot
/// does not hold it.
pub type SnapshotReader<'a> = &'a dyn Fn(&str) -> Option<std::io::Result<Vec<u8>>>;

/// A resolved scope.
#[derive(Debug, Clone)]
pub struct Scope {
    /// `git_ref`, `staged`, `all` or `files`.
    pub mode: &'static str,
    /// The ref as given, `staged`, `workspace` or `files`.
    pub base: String,
    /// The merge base, for `--diff`.
    pub base_commit: Option<String>,
    /// HEAD, when there is one.
    pub head_commit: Option<String>,
    /// The scope's files, project-relative, sorted.
    pub changed_files: Vec<String>,
    /// Every project file of the snapshot, project-relative, sorted.
    pub project_files: Vec<String>,
    /// Where contents come from.
    pub snapshot: Snapshot,
    /// The git work tree root, when in a repository.
    pub git_root: Option<PathBuf>,
    /// The project root relative to the git work tree root, with `/` (empty when equal).
    pub git_prefix: String,
    /// Submodule paths met (project-relative), which are not checked.
    pub submodules: Vec<String>,
    /// Blob ids of the project files, for index and commit snapshots.
    pub blobs: BTreeMap<String, Oid>,
    /// Symbolic links of the snapshot that point inside the project: link path → target path,
    /// both project-relative (the target worked out lexically from the link's folder). Links are
    /// never read or walked through; import resolution maps a path through them, as Node does.
    pub symlinks: BTreeMap<String, String>,
    /// Paths the listing could not take, with the reason: a folder the walk cannot read, a path
    /// too long to open, a symbolic link that leads out of the project (never followed). Each is
    /// a `file-skipped` warning: nothing is dropped silently.
    pub unreadable: Vec<(String, String)>,
    /// For a git snapshot: whether each project folder a read went through is a real folder of
    /// the work tree (no symbolic link on the way from the project root), worked out as reads
    /// reach it ([`read_file`]).
    pub real_folders: std::sync::Arc<RealFolders>,
    /// When set, extraction records here the content id of every work-tree file it reads (see
    /// [`crate::input::summary`]).
    pub reads: Option<std::sync::Arc<ReadLog>>,
}

impl Scope {
    /// True when every file is in scope (`--all`).
    pub fn is_everything(&self) -> bool {
        self.mode == "all"
    }

    /// The UTF-8 text of a project file as this snapshot holds it (the checked git blob under the
    /// staged and `--diff` scopes, the work tree's regular file otherwise), for code frames:
    /// `None` for a file that cannot be read, is not UTF-8 or is larger than a source may be.
    pub fn text_reader<'a>(&'a self, root: &'a Path) -> impl Fn(&str) -> Option<String> + 'a {
        let repository = match self.snapshot {
            Snapshot::Worktree => None,
            Snapshot::Index | Snapshot::Commit(_) => self
                .git_root
                .as_ref()
                .and_then(|path| Repository::open(path).ok()),
        };
        move |file: &str| {
            let limit = SOURCE_LIMIT;
            let bytes = read_file(self, root, repository.as_ref(), file, limit).ok()?;
            if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > limit {
                return None;
            }
            String::from_utf8(bytes).ok()
        }
    }
}

/// HEAD's commit; `None` when HEAD is unborn (a new repository). A HEAD git cannot read (a
/// corrupt `.git/HEAD`, a ref to a missing object) is a `git-error` for the staged and `--diff`
/// scopes, which compare with it: taking it for unborn would check every file as new. `--all`
/// and `--file` read the work tree and only name HEAD, so for them it is just absent.
fn head_commit<'r>(
    repository: &'r Repository,
    request: &ScopeRequest,
) -> Result<Option<git2::Commit<'r>>, EngineError> {
    let compares_with_head = matches!(request, ScopeRequest::Staged | ScopeRequest::Diff(_));
    let head = match repository.head() {
        Ok(head) => head,
        Err(error) if error.code() == ErrorCode::UnbornBranch => return Ok(None),
        Err(error) if compares_with_head => {
            return Err(EngineError::Git(format!(
                "cannot read HEAD: {}",
                error.message()
            )))
        }
        Err(_) => return Ok(None),
    };
    match head.peel_to_commit() {
        Ok(commit) => Ok(Some(commit)),
        Err(error) if compares_with_head => Err(EngineError::Git(format!(
            "HEAD does not name a commit: {}",
            error.message()
        ))),
        Err(_) => Ok(None),
    }
}

/// Why a symbolic link is not in the snapshot's links.
const LINK_OUT: &str = "a symbolic link that leads out of the project is not followed";

fn git_error(error: &git2::Error) -> EngineError {
    EngineError::Git(error.message().to_owned())
}

/// Opens the repository that contains `root`, if any.
pub fn open_repository(root: &Path) -> Option<Repository> {
    Repository::discover(root)
        .ok()
        .filter(|repository| repository.workdir().is_some())
}

/// Resolves the scope for `request` over the project at `root`.
pub fn resolve(root: &Path, request: &ScopeRequest) -> Result<Scope, EngineError> {
    let repository = open_repository(root);
    let git_root = repository
        .as_ref()
        .and_then(|repository| repository.workdir().map(normalize_absolute));
    let root_absolute = normalize_absolute(root);
    let git_prefix = git_root
        .as_ref()
        .map(|git_root| relative_to(&root_absolute, git_root))
        .unwrap_or_default();
    let to_project = |git_path: &str| -> Option<String> {
        if git_prefix.is_empty() {
            Some(git_path.to_owned())
        } else {
            git_path
                .strip_prefix(&format!("{git_prefix}/"))
                .map(str::to_owned)
        }
    };
    let head = match &repository {
        Some(repository) => head_commit(repository, request)?,
        None => None,
    };
    let head_commit = head.as_ref().map(|commit| commit.id().to_string());
    let mut scope = Scope {
        mode: "all",
        base: "workspace".into(),
        base_commit: None,
        head_commit,
        changed_files: Vec::new(),
        project_files: Vec::new(),
        snapshot: Snapshot::Worktree,
        git_root: git_root.clone(),
        git_prefix: git_prefix.clone(),
        submodules: Vec::new(),
        blobs: BTreeMap::new(),
        symlinks: BTreeMap::new(),
        unreadable: Vec::new(),
        real_folders: std::sync::Arc::default(),
        reads: None,
    };
    match request {
        ScopeRequest::All | ScopeRequest::Files(_) => {
            list_worktree(
                &mut scope,
                repository.as_ref(),
                root,
                &root_absolute,
                request,
                &to_project,
            )?;
        }
        ScopeRequest::Staged => {
            list_index(&mut scope, repository.as_ref(), head.as_ref(), &to_project)?
        }
        ScopeRequest::Diff(reference) => {
            list_diff(
                &mut scope,
                repository.as_ref(),
                head,
                reference,
                &to_project,
            )?;
        }
    }
    scope.project_files.sort();
    scope.project_files.dedup();
    scope.submodules.sort();
    scope.unreadable.sort();
    scope.unreadable.dedup();
    Ok(scope)
}

/// `--all` and `--file`: the work tree, listed by a gitignore-aware walk plus the tracked files.
fn list_worktree(
    scope: &mut Scope,
    repository: Option<&Repository>,
    root: &Path,
    root_absolute: &Path,
    request: &ScopeRequest,
    to_project: &dyn Fn(&str) -> Option<String>,
) -> Result<(), EngineError> {
    let mut tracked = Vec::new();
    if let Some(repository) = repository {
        let index = repository.index().map_err(|error| git_error(&error))?;
        for entry in index.iter() {
            let path = String::from_utf8_lossy(&entry.path).into_owned();
            let Some(path) = to_project(&path) else {
                continue;
            };
            match entry.mode {
                0o160000 => scope.submodules.push(path),
                0o120000 => {}
                _ => tracked.push(path),
            }
        }
    }
    // A tracked file that is gone, or is now a folder, is not in the work tree; one that
    // cannot be looked at (an unreadable folder, a path too long) stays listed, so that
    // reading it gives a `file-skipped` warning rather than a silent pass.
    tracked.retain(|path| match std::fs::metadata(root.join(path)) {
        Ok(metadata) => !metadata.is_dir(),
        Err(error) => error.kind() != std::io::ErrorKind::NotFound,
    });
    let listing = walk_project(root, &tracked);
    scope.project_files = listing.files;
    scope.unreadable = listing.unreadable;
    for (link, target) in listing.symlinks {
        match link_target(&link, &target) {
            Some(inside) => {
                scope.symlinks.insert(link, inside);
            }
            None => scope.unreadable.push((link, LINK_OUT.to_owned())),
        }
    }
    if let ScopeRequest::Files(paths) = request {
        scope.mode = "files";
        scope.base = "files".into();
        let mut named = BTreeSet::new();
        for path in paths {
            named.insert(file_in_project(path, root_absolute)?);
        }
        scope.changed_files = named.into_iter().collect();
    } else {
        scope.changed_files = scope.project_files.clone();
    }
    Ok(())
}

/// Staged (the default): the index, with the files that differ from HEAD as the changes.
fn list_index(
    scope: &mut Scope,
    repository: Option<&Repository>,
    head: Option<&git2::Commit<'_>>,
    to_project: &dyn Fn(&str) -> Option<String>,
) -> Result<(), EngineError> {
    let Some(repository) = repository else {
        return Err(EngineError::NotAGitRepository(".".into()));
    };
    scope.mode = "staged";
    scope.base = "staged".into();
    scope.snapshot = Snapshot::Index;
    let index = repository.index().map_err(|error| git_error(&error))?;
    for entry in index.iter() {
        let path = String::from_utf8_lossy(&entry.path).into_owned();
        let Some(path) = to_project(&path) else {
            continue;
        };
        match entry.mode {
            0o160000 => scope.submodules.push(path),
            0o120000 => match symlink_blob(repository, entry.id, &path) {
                Some(target) => {
                    scope.symlinks.insert(path, target);
                }
                None => scope.unreadable.push((path, LINK_OUT.to_owned())),
            },
            _ => {
                scope.blobs.insert(path.clone(), entry.id);
                scope.project_files.push(path);
            }
        }
    }
    let head_tree = head.and_then(|commit| commit.tree().ok());
    let mut options = DiffOptions::new();
    options.ignore_submodules(true);
    let mut diff = repository
        .diff_tree_to_index(head_tree.as_ref(), Some(&index), Some(&mut options))
        .map_err(|error| git_error(&error))?;
    scope.changed_files = changed_paths(&mut diff, to_project)?;
    Ok(())
}

/// `--diff REF`: HEAD's tree, with the files changed since the merge base of REF and HEAD.
fn list_diff(
    scope: &mut Scope,
    repository: Option<&Repository>,
    head: Option<git2::Commit<'_>>,
    reference: &str,
    to_project: &dyn Fn(&str) -> Option<String>,
) -> Result<(), EngineError> {
    let Some(repository) = repository else {
        return Err(EngineError::NotAGitRepository(".".into()));
    };
    scope.mode = "git_ref";
    scope.base = reference.to_owned();
    let head = head.ok_or_else(|| EngineError::UnknownRef("HEAD".into()))?;
    let target = repository
        .revparse_single(reference)
        .and_then(|object| object.peel_to_commit())
        .map_err(|_| EngineError::UnknownRef(reference.to_owned()))?;
    let merge_base = match repository.merge_base(target.id(), head.id()) {
        Ok(oid) => oid,
        Err(error) if error.code() == ErrorCode::NotFound => {
            return Err(if repository.is_shallow() {
                EngineError::MissingMergeBase(reference.to_owned())
            } else {
                EngineError::NoMergeBase(reference.to_owned())
            });
        }
        Err(error) => return Err(git_error(&error)),
    };
    let base_tree = repository
        .find_commit(merge_base)
        .and_then(|commit| commit.tree())
        .map_err(|_| EngineError::MissingMergeBase(reference.to_owned()))?;
    let head_tree = head.tree().map_err(|error| git_error(&error))?;
    scope.base_commit = Some(merge_base.to_string());
    scope.snapshot = Snapshot::Commit(head.id());
    list_tree(repository, &head_tree, to_project, scope)?;
    let mut options = DiffOptions::new();
    options.ignore_submodules(true);
    let mut diff = repository
        .diff_tree_to_tree(Some(&base_tree), Some(&head_tree), Some(&mut options))
        .map_err(|error| git_error(&error))?;
    scope.changed_files = changed_paths(&mut diff, to_project)?;
    Ok(())
}

/// Lists the blobs of a tree into `scope.project_files`/`scope.blobs`, and its submodules.
fn list_tree(
    repository: &Repository,
    tree: &git2::Tree<'_>,
    to_project: &dyn Fn(&str) -> Option<String>,
    scope: &mut Scope,
) -> Result<(), EngineError> {
    tree.walk(git2::TreeWalkMode::PreOrder, |directory, entry| {
        let path = format!("{directory}{}", entry.name().unwrap_or_default());
        if let Some(path) = to_project(&path) {
            match entry.filemode() {
                0o160000 => scope.submodules.push(path),
                0o100644 | 0o100755 => {
                    scope.blobs.insert(path.clone(), entry.id());
                    scope.project_files.push(path);
                }
                0o120000 => match symlink_blob(repository, entry.id(), &path) {
                    Some(target) => {
                        scope.symlinks.insert(path, target);
                    }
                    None => scope.unreadable.push((path, LINK_OUT.to_owned())),
                },
                _ => {}
            }
        }
        git2::TreeWalkResult::Ok
    })
    .map_err(|error| git_error(&error))
}

/// The project path a symbolic link at `link` with the text `target` points to, when it stays
/// inside the project: worked out lexically from the link's folder; absolute targets and targets
/// that climb out of the project give `None`.
fn link_target(link: &str, target: &str) -> Option<String> {
    let target = target.replace('\\', "/");
    if target.starts_with('/') || target.contains(':') || target.is_empty() {
        return None;
    }
    let folder = link.rsplit_once('/').map_or("", |(folder, _)| folder);
    let mut parts: Vec<&str> = folder.split('/').filter(|part| !part.is_empty()).collect();
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// The in-project target of a symbolic link stored in git as a blob holding its target text.
fn symlink_blob(repository: &Repository, oid: Oid, link: &str) -> Option<String> {
    let blob = repository.find_blob(oid).ok()?;
    let target = std::str::from_utf8(blob.content()).ok()?;
    link_target(link, target)
}

/// The merge-base side of a `--diff` scope: the whole merge-base tree (as with `--all`), and the
/// map from base paths to head paths given by git's rename detection.
pub fn merge_base_scope(head: &Scope) -> Result<(Scope, BTreeMap<String, String>), EngineError> {
    let (Some(git_root), Some(base_commit), Snapshot::Commit(head_oid)) =
        (&head.git_root, &head.base_commit, &head.snapshot)
    else {
        return Err(EngineError::Internal(
            "the merge-base side needs a `--diff` scope".into(),
        ));
    };
    let repository = Repository::open(git_root).map_err(|error| git_error(&error))?;
    let base_oid = Oid::from_str(base_commit).map_err(|error| git_error(&error))?;
    let base_tree = repository
        .find_commit(base_oid)
        .and_then(|commit| commit.tree())
        .map_err(|error| git_error(&error))?;
    let head_tree = repository
        .find_commit(*head_oid)
        .and_then(|commit| commit.tree())
        .map_err(|error| git_error(&error))?;
    let prefix = head.git_prefix.clone();
    let to_project = move |git_path: &str| -> Option<String> {
        if prefix.is_empty() {
            Some(git_path.to_owned())
        } else {
            git_path
                .strip_prefix(&format!("{prefix}/"))
                .map(str::to_owned)
        }
    };
    let mut scope = Scope {
        mode: "all",
        base: "workspace".into(),
        base_commit: None,
        head_commit: Some(base_commit.clone()),
        changed_files: Vec::new(),
        project_files: Vec::new(),
        snapshot: Snapshot::Commit(base_oid),
        git_root: head.git_root.clone(),
        git_prefix: head.git_prefix.clone(),
        submodules: Vec::new(),
        blobs: BTreeMap::new(),
        symlinks: BTreeMap::new(),
        unreadable: Vec::new(),
        real_folders: std::sync::Arc::default(),
        reads: None,
    };
    list_tree(&repository, &base_tree, &to_project, &mut scope)?;
    scope.project_files.sort();
    scope.changed_files = scope.project_files.clone();
    let mut options = DiffOptions::new();
    options.ignore_submodules(true);
    let mut diff = repository
        .diff_tree_to_tree(Some(&base_tree), Some(&head_tree), Some(&mut options))
        .map_err(|error| git_error(&error))?;
    let mut find = DiffFindOptions::new();
    find.renames(true);
    diff.find_similar(Some(&mut find))
        .map_err(|error| git_error(&error))?;
    let mut renames = BTreeMap::new();
    for delta in diff.deltas() {
        if delta.status() != Delta::Renamed {
            continue;
        }
        let old = delta
            .old_file()
            .path()
            .map(to_slash)
            .and_then(|path| to_project(&path));
        let new = delta
            .new_file()
            .path()
            .map(to_slash)
            .and_then(|path| to_project(&path));
        if let (Some(old), Some(new)) = (old, new) {
            renames.insert(old, new);
        }
    }
    Ok((scope, renames))
}

fn changed_paths(
    diff: &mut git2::Diff<'_>,
    to_project: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<String>, EngineError> {
    let mut find = DiffFindOptions::new();
    find.renames(true);
    diff.find_similar(Some(&mut find))
        .map_err(|error| git_error(&error))?;
    let mut changed = BTreeSet::new();
    for delta in diff.deltas() {
        if matches!(
            delta.status(),
            Delta::Unmodified | Delta::Ignored | Delta::Untracked
        ) {
            continue;
        }
        for file in [delta.old_file(), delta.new_file()] {
            if file.mode() == git2::FileMode::Commit {
                continue;
            }
            if let Some(path) = file.path().map(to_slash).and_then(|path| to_project(&path)) {
                changed.insert(path);
            }
        }
    }
    Ok(changed.into_iter().collect())
}

fn normalize_absolute(path: &Path) -> PathBuf {
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    // Canonicalise when possible, so that symlinked temp dirs compare equal to git's work dir.
    absolute
        .canonicalize()
        .unwrap_or_else(|_| normalize(&absolute))
}

/// Makes a `--file` argument project-relative; it must lie inside the project.
fn file_in_project(path: &Path, root_absolute: &Path) -> Result<String, EngineError> {
    let absolute = std::env::current_dir().unwrap_or_default().join(path);
    let absolute = absolute
        .canonicalize()
        .unwrap_or_else(|_| normalize(&absolute));
    match absolute.strip_prefix(root_absolute) {
        Ok(relative) if !relative.as_os_str().is_empty() => Ok(to_slash(relative)),
        _ => Err(EngineError::PathOutsideProject(path.display().to_string())),
    }
}

/// Reads a file of the snapshot, at most `limit` bytes plus one (a caller that gets more knows
/// the file is too large). `repository` must be open when the snapshot is not the work tree.
///
/// From the work tree, only a regular file is read (`policies::read`): a symbolic link is not
/// followed, and a FIFO, device or `/proc` file is refused, so a hostile work tree can neither
/// hang the run nor make it read outside the project.
pub fn read_file(
    scope: &Scope,
    root: &Path,
    repository: Option<&Repository>,
    path: &str,
    limit: u64,
) -> std::io::Result<Vec<u8>> {
    let missing = || std::io::Error::new(std::io::ErrorKind::NotFound, "not in the git snapshot");
    match (&scope.snapshot, repository) {
        (Snapshot::Worktree, _) => {
            policies::read::read_regular_file_no_follow(&root.join(path), limit)
        }
        (Snapshot::Index | Snapshot::Commit(_), Some(repository)) => {
            let oid = scope.blobs.get(path).ok_or_else(missing)?;
            if let Some(bytes) = worktree_copy(scope, root, path, *oid, limit) {
                return Ok(bytes);
            }
            let blob = repository.find_blob(*oid).map_err(|_| missing())?;
            let content = blob.content();
            let kept = usize::try_from(limit.saturating_add(1)).unwrap_or(usize::MAX);
            Ok(content.get(..kept).unwrap_or(content).to_vec())
        }
        _ => Err(missing()),
    }
}

/// The work tree's copy of a file of a git snapshot, when it holds exactly the snapshot's blob
/// `oid` (its git blob id is computed from the bytes read): a pull request's head and base share
/// most files with the checked-out work tree, and reading a file is cheaper than inflating its
/// blob, and touches no page of the pack's index (which, mapped whole, held 35 MB of a `--diff`
/// on apache/kafka). Only a regular file no larger than `limit` is read, under folders that are
/// real folders of the project ([`Scope::real_folders`]): never a symbolic link, nothing outside
/// the project. Any other case, and any difference in content (an edit, a line-ending filter),
/// is `None`: the blob is read.
fn worktree_copy(scope: &Scope, root: &Path, path: &str, oid: Oid, limit: u64) -> Option<Vec<u8>> {
    let folder = path.rsplit_once('/').map_or("", |(folder, _)| folder);
    if !folder.is_empty() && !scope.real_folders.is_real(root, folder) {
        return None;
    }
    let bytes = policies::read::read_regular_file_no_follow(&root.join(path), limit).ok()?;
    if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > limit {
        return None;
    }
    let oid = oid.to_string();
    (crate::input::cache::content_id(&bytes) == oid).then_some(bytes)
}

/// Which project folders are real folders of the work tree: each is a folder, not a symbolic
/// link, and so is every folder above it. Worked out for the folders that reads go through and
/// remembered for the run: a `--diff` whose files are nearly all cached reads a handful of
/// files, and looks at their folders only.
#[derive(Debug, Default)]
pub struct RealFolders {
    known: std::sync::Mutex<std::collections::HashMap<String, bool>>,
}

impl RealFolders {
    /// Whether `folder` (project-relative, not empty) is a real folder under `root`.
    pub fn is_real(&self, root: &Path, folder: &str) -> bool {
        if let Some(known) = self.known(folder) {
            return known;
        }
        let parent_real = folder
            .rsplit_once('/')
            .is_none_or(|(parent, _)| self.is_real(root, parent));
        let real = parent_real
            && std::fs::symlink_metadata(root.join(folder))
                .is_ok_and(|metadata| metadata.file_type().is_dir());
        if let Ok(mut known) = self.known.lock() {
            known.insert(folder.to_owned(), real);
        }
        real
    }

    fn known(&self, folder: &str) -> Option<bool> {
        self.known.lock().ok()?.get(folder).copied()
    }
}

/// The project files a work-tree check read, with their content ids (`None`: could not be
/// read), for the summary of what it found ([`crate::input::summary`]).
#[derive(Debug, Default)]
pub struct ReadLog {
    reads: std::sync::Mutex<Vec<(String, Option<String>)>>,
}

impl ReadLog {
    /// Records that `file` was read with content id `id`.
    pub fn record(&self, file: &str, id: Option<String>) {
        if let Ok(mut reads) = self.reads.lock() {
            reads.push((file.to_owned(), id));
        }
    }

    /// The reads, sorted by path; `None` when one path was read with two contents (the file
    /// changed while it was read), which no summary may be made from.
    pub(crate) fn sorted(&self) -> Option<BTreeMap<String, Option<String>>> {
        let reads = self.reads.lock().ok()?;
        let mut sorted = BTreeMap::new();
        for (file, id) in reads.iter() {
            if let Some(earlier) = sorted.insert(file.clone(), id.clone()) {
                if earlier != *id {
                    return None;
                }
            }
        }
        Some(sorted)
    }
}

#[cfg(test)]
mod tests {
    use super::link_target;

    /// A git snapshot's file is taken from the work tree only when the bytes there are its blob,
    /// and never through a symbolic link or from a folder reached through one.
    #[test]
    #[cfg(unix)]
    fn a_snapshot_reads_the_work_tree_copy_only_when_it_is_the_blob_and_never_through_a_link() {
        use super::*;
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("y.txt"), "outside\n").unwrap();
        let project = tempfile::tempdir().unwrap();
        let root = project.path();
        std::fs::create_dir_all(root.join("a/deep")).unwrap();
        std::fs::write(root.join("a/deep/x.txt"), "inside\n").unwrap();
        std::fs::write(root.join("top.txt"), "top\n").unwrap();
        std::fs::create_dir_all(root.join("c")).unwrap();
        std::fs::write(root.join("c/z.txt"), "unread\n").unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("b")).unwrap();
        std::os::unix::fs::symlink(root.join("top.txt"), root.join("a/link.txt")).unwrap();
        let blob = |text: &str| Oid::hash_object(git2::ObjectType::Blob, text.as_bytes()).unwrap();
        let files: Vec<String> = [
            "a/deep/x.txt",
            "a/link.txt",
            "b/y.txt",
            "c/z.txt",
            "top.txt",
        ]
        .map(str::to_owned)
        .to_vec();
        let scope = Scope {
            mode: "git_ref",
            base: "HEAD".into(),
            base_commit: None,
            head_commit: None,
            changed_files: Vec::new(),
            project_files: files,
            snapshot: Snapshot::Commit(blob("commit")),
            git_root: Some(root.to_path_buf()),
            git_prefix: String::new(),
            submodules: Vec::new(),
            blobs: BTreeMap::new(),
            symlinks: BTreeMap::new(),
            unreadable: Vec::new(),
            real_folders: std::sync::Arc::default(),
            reads: None,
        };
        let read = |path: &str, text: &str| worktree_copy(&scope, root, path, blob(text), 1 << 20);
        assert_eq!(
            read("a/deep/x.txt", "inside\n").as_deref(),
            Some(&b"inside\n"[..])
        );
        assert_eq!(read("top.txt", "top\n").as_deref(), Some(&b"top\n"[..]));
        // Another content than the blob's (an uncommitted edit): the blob is read instead.
        assert_eq!(read("a/deep/x.txt", "committed\n"), None);
        // A folder that is a symbolic link to outside the project, and a linked file.
        assert_eq!(read("b/y.txt", "outside\n"), None);
        assert_eq!(read("a/link.txt", "top\n"), None);
        // Larger than the limit.
        assert_eq!(
            worktree_copy(&scope, root, "top.txt", blob("top\n"), 2),
            None
        );
        let folders = &scope.real_folders;
        assert_eq!(folders.known("a"), Some(true));
        assert_eq!(folders.known("a/deep"), Some(true));
        assert_eq!(folders.known("b"), Some(false));
        // Only the folders that reads went through were looked at.
        assert_eq!(folders.known("c"), None);
    }

    #[test]
    fn link_targets_are_worked_out_from_the_link_folder_and_never_leave_the_project() {
        assert_eq!(
            link_target("web/shared.ts", "../repo/orders.ts").as_deref(),
            Some("repo/orders.ts")
        );
        assert_eq!(link_target("web/lib", "./a/../b").as_deref(), Some("web/b"));
        assert_eq!(link_target("top.ts", "../outside.ts"), None);
        assert_eq!(link_target("web/x.ts", "../../outside.ts"), None);
        assert_eq!(link_target("web/x.ts", "/etc/passwd"), None);
        assert_eq!(link_target("web/x.ts", "C:/x"), None);
        assert_eq!(link_target("web/x", ".."), None);
    }
}
