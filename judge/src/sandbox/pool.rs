//! Work folders kept for the next submission instead of deleted.
//!
//! A judgement writes two files per test under its work folder's `out/` (the program's
//! standard output and error). Creating a file allocates an inode, and deleting the
//! folder after the judgement frees them all again. On a file system that makes that
//! expensive (ext4 without a journal skips every inode freed in the last seconds, one
//! inode-table lookup each: measured as most of the judge's cost per test on the CI
//! machine, BENCHMARKS.md), judging submission after submission pays it on every test.
//! A pool keeps a few finished work folders; the next judgement takes one, and the
//! supervisor truncates the output files it finds there instead of creating new ones.
//!
//! A folder goes back to the pool only when its sandbox has been closed (nothing can
//! write in it any more) and it has been emptied: every entry of `in/`, `src/`, `ans/`
//! and `validator/` removed, and under `out/` every regular file cut to nothing and
//! handed back to root with mode 0600 (a validator may have been given one), every other
//! entry (a feedback folder, a build's copy) removed. A folder that cannot be emptied is
//! deleted. The pool belongs to a [`super::SandboxConfig`] and its clones; the kept
//! folders are deleted with the last of them.

use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;
use std::sync::{Arc, Mutex};

use tempfile::TempDir;

/// How many finished work folders a pool keeps.
const KEPT: usize = 8;

/// The work folders waiting for the next judgement (shared by the clones of one
/// [`super::SandboxConfig`]).
#[derive(Debug, Clone, Default)]
pub struct WorkspacePool(Arc<Mutex<Vec<TempDir>>>);

impl WorkspacePool {
    /// A kept folder, if the pool has one.
    pub(crate) fn take(&self) -> Option<TempDir> {
        self.0.lock().ok()?.pop()
    }

    /// Empties `dir` and keeps it, or deletes it when the pool is full or it cannot be
    /// emptied.
    pub(crate) fn give(&self, dir: TempDir) {
        if self.0.lock().map_or(true, |kept| kept.len() >= KEPT) {
            return;
        }
        if empty(dir.path()).is_err() {
            return;
        }
        if let Ok(mut kept) = self.0.lock()
            && kept.len() < KEPT
        {
            kept.push(dir);
        }
    }

    /// How many folders the pool holds now.
    pub fn len(&self) -> usize {
        self.0.lock().map_or(0, |kept| kept.len())
    }

    /// Whether the pool holds no folder.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Empties a work folder for the next judgement (see the module doc).
fn empty(root: &Path) -> std::io::Result<()> {
    for sub in ["in", "src", "ans", "validator"] {
        for entry in std::fs::read_dir(root.join(sub))? {
            remove(&entry?.path())?;
        }
    }
    for entry in std::fs::read_dir(root.join("out"))? {
        let entry = entry?;
        let path = entry.path();
        let meta = std::fs::symlink_metadata(&path)?;
        if !meta.file_type().is_file() {
            remove(&path)?;
            continue;
        }
        if meta.len() > 0 {
            std::fs::OpenOptions::new()
                .write(true)
                .truncate(true)
                .custom_flags(libc::O_NOFOLLOW)
                .open(&path)?;
        }
        if meta.uid() != 0 || meta.gid() != 0 {
            std::os::unix::fs::lchown(&path, Some(0), Some(0))?;
        }
        if meta.mode() & 0o7777 != 0o600 {
            std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
        }
    }
    Ok(())
}

/// Removes a file, a link (never what it points to) or a whole folder.
fn remove(path: &Path) -> std::io::Result<()> {
    if std::fs::symlink_metadata(path)?.file_type().is_dir() {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder() -> TempDir {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["in", "out", "src", "ans", "validator"] {
            std::fs::create_dir(dir.path().join(sub)).unwrap();
        }
        dir
    }

    #[test]
    fn a_kept_folder_keeps_its_output_files_empty_and_nothing_else() {
        let dir = folder();
        let root = dir.path().to_path_buf();
        std::fs::write(root.join("in/0000.in"), "1\n").unwrap();
        std::fs::write(root.join("in/job-1.json"), "{}").unwrap();
        std::fs::create_dir(root.join("src/build")).unwrap();
        std::fs::write(root.join("src/build/main"), "x").unwrap();
        std::fs::write(root.join("out/0000.out"), "secret output\n").unwrap();
        std::fs::write(root.join("out/0000.err"), "").unwrap();
        std::fs::set_permissions(
            root.join("out/0000.out"),
            std::os::unix::fs::PermissionsExt::from_mode(0o644),
        )
        .unwrap();
        std::fs::create_dir(root.join("out/0000.feedback")).unwrap();
        std::fs::write(root.join("out/0000.feedback/judgemessage.txt"), "no").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", root.join("out/link")).unwrap();

        let pool = WorkspacePool::default();
        pool.give(dir);
        assert_eq!(pool.len(), 1);
        assert!(std::fs::read_dir(root.join("in")).unwrap().next().is_none());
        assert!(
            std::fs::read_dir(root.join("src"))
                .unwrap()
                .next()
                .is_none()
        );
        let mut left: Vec<String> = std::fs::read_dir(root.join("out"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["0000.err", "0000.out"]);
        let meta = std::fs::metadata(root.join("out/0000.out")).unwrap();
        assert_eq!(meta.len(), 0, "the old output is cut to nothing");
        assert_eq!(meta.mode() & 0o7777, 0o600);
        assert!(
            Path::new("/etc/passwd").exists(),
            "a link is removed, not followed"
        );
        let again = pool.take().expect("the folder is kept");
        assert_eq!(again.path(), root);
        assert!(pool.is_empty());
    }

    #[test]
    fn a_full_pool_deletes_what_it_is_given() {
        let pool = WorkspacePool::default();
        let mut paths = Vec::new();
        for _ in 0..KEPT + 1 {
            let dir = folder();
            paths.push(dir.path().to_path_buf());
            pool.give(dir);
        }
        assert_eq!(pool.len(), KEPT);
        assert!(!paths[KEPT].exists(), "the ninth folder is deleted");
        drop(pool);
        assert!(
            paths.iter().all(|p| !p.exists()),
            "the last clone deletes the kept"
        );
    }

    #[test]
    fn a_folder_that_cannot_be_emptied_is_deleted() {
        let dir = folder();
        let root = dir.path().to_path_buf();
        std::fs::remove_dir(root.join("ans")).unwrap();
        let pool = WorkspacePool::default();
        pool.give(dir);
        assert!(pool.is_empty());
        assert!(!root.exists());
    }
}
