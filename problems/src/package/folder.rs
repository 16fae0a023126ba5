//! Reading a package's folders: entries in name order without hidden files, file names as
//! text, and relative paths written with `/` separators.

use std::path::{Path, PathBuf};

/// Entries of a folder in name order, skipping hidden files; empty when it is absent.
pub(super) fn list_entries(dir: &Path) -> Vec<PathBuf> {
    sorted_entries(dir).unwrap_or_default()
}

/// Entries of a folder in name order, skipping hidden files (names starting with `.`).
pub(super) fn sorted_entries(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut res = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if !path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        {
            res.push(path);
        }
    }
    res.sort();
    Ok(res)
}

/// The last component of `path` as text (lossy), empty when there is none.
pub(super) fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A relative path with `/` separators.
pub(super) fn slash_path(path: &Path) -> String {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}
