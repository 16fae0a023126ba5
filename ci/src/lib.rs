//! Workspace automation: the checks that keep the repository honest, run as ordinary
//! `#[test]`s (`cargo test -p ci`) and by the test command (`ci/test`).
//!
//! - [`arch`]: the dependency direction of DESIGN.md, read from `cargo metadata`.
//! - [`tidy`]: source hygiene that rustc and clippy do not check (module docs).
//! - [`require`]: the one rule for tests whose heavy part is missing (fail under CI).
//!
//! The cache folder is `judge::cache_dir`, which these tests use as every program does.

pub mod arch;
pub mod require;
pub mod tidy;

use std::path::PathBuf;

/// The workspace root (the folder holding the root `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("invariant: the ci crate lives one folder below the workspace root")
        .to_path_buf()
}
