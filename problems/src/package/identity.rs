//! A package's identity: the SHA-256 over its regular files, as the documentation of
//! [`crate::package`] defines it.

use std::path::Path;

use sha2::{Digest, Sha256};

use super::diagnostics::Ctx;
use super::folder;

/// The package identity, as defined in the documentation of [`crate::package`].
pub fn content_sha256(root: &Path) -> std::io::Result<String> {
    let mut files = Vec::new();
    collect_files(root, root, &mut files)?;
    files.sort();
    let mut hasher = Sha256::new();
    for relative in files {
        let bytes = std::fs::read(root.join(&relative))?;
        hasher.update(relative.as_bytes());
        hasher.update([0]);
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    Ok(hex::encode(hasher.finalize()))
}

/// [`content_sha256`] of the package in `root`; empty, with an error, when a file cannot
/// be read.
pub(super) fn hash_or_report(ctx: &mut Ctx, root: &Path) -> String {
    match content_sha256(root) {
        Ok(it) => it,
        Err(err) => {
            ctx.error(root, format!("cannot hash the package: {err}"));
            String::new()
        }
    }
}

/// Adds the path relative to `root`, with `/` separators, of every regular file below
/// `dir` to `out`; symbolic links are not followed and do not count.
fn collect_files(root: &Path, dir: &Path, out: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let path = entry.path();
        if kind.is_dir() {
            collect_files(root, &path, out)?;
        } else if kind.is_file() {
            out.push(folder::slash_path(path.strip_prefix(root).unwrap_or(&path)));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{good_package, write};
    use super::content_sha256;

    #[test]
    fn identity_changes_with_content_and_not_with_location() {
        let one = good_package();
        let two = good_package();
        let a = content_sha256(one.path()).expect("hash");
        assert_eq!(a, content_sha256(two.path()).expect("hash"));
        write(two.path(), "data/secret/a.ans", "3\n");
        assert_ne!(a, content_sha256(two.path()).expect("hash"));
    }
}
