//! Workspace automation: the checks that keep the repository honest, run as ordinary
//! `#[test]`s (`cargo test -p ci`) and by the test command (`ci/test`).
//!
//! - [`arch`]: the dependency direction of DESIGN.md, read from `cargo metadata`.
//! - [`tidy`]: source hygiene that rustc and clippy do not check (module docs).
//! - [`require`]: the one rule for tests whose heavy part is missing (fail under CI).

pub mod arch;
pub mod require;
pub mod tidy;

use std::path::PathBuf;

/// The cache folder `ci/setup` installs into: `ARENA_CACHE`, else `~/.cache/arena`;
/// `None` when neither `ARENA_CACHE` nor `HOME` is set.
pub fn cache_dir() -> Option<PathBuf> {
    cache_dir_from(std::env::var_os("ARENA_CACHE"), std::env::var_os("HOME"))
}

fn cache_dir_from(
    arena_cache: Option<std::ffi::OsString>,
    home: Option<std::ffi::OsString>,
) -> Option<PathBuf> {
    arena_cache
        .map(PathBuf::from)
        .or_else(|| home.map(|h| PathBuf::from(h).join(".cache/arena")))
}

/// The workspace root (the folder holding the root `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("invariant: the ci crate lives one folder below the workspace root")
        .to_path_buf()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_is_arena_cache_else_under_home() {
        assert_eq!(
            cache_dir_from(Some("/c".into()), Some("/h".into())),
            Some(PathBuf::from("/c"))
        );
        assert_eq!(
            cache_dir_from(None, Some("/h".into())),
            Some(PathBuf::from("/h/.cache/arena"))
        );
        assert_eq!(cache_dir_from(None, None), None);
    }
}
