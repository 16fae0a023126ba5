//! The judge: compiles and runs submissions against a problem's tests inside a sandbox
//! (Docker or bubblewrap), under time, memory and output limits enforced by the kernel,
//! and decides verdicts.
//!
//! Entry point: [`grade::judge`]. A wrong answer, a time-out or a compile error is a
//! verdict inside `Ok`; `Err` ([`Error`]) means the judge itself failed.

mod error;
pub mod grade;
pub mod lang;
pub mod probe;
pub mod sandbox;
pub mod supervisor;
pub mod timelimit;
pub mod verify;
pub mod workbench;

pub use error::{Error, Result};
pub use grade::{Options, Report, Submission, TestResult, judge};
/// The vocabulary the judge speaks (packages, verdicts, limits), re-exported so that a
/// caller that only judges (the `judge` binary) needs no dependency of its own on it.
pub use problems;
pub use workbench::Workbench;

use std::ffi::OsString;
use std::path::PathBuf;

/// The cache folder every program of the workspace shares and `ci/setup` installs into
/// (compiled programs, derived time limits, root filesystems, the embedded supervisor,
/// the converted model): `$ARENA_CACHE`, else `$HOME/.cache/arena`, else
/// `/root/.cache/arena`. This is the one place the rule is written.
pub fn cache_dir() -> PathBuf {
    cache_dir_from(std::env::var_os("ARENA_CACHE"), std::env::var_os("HOME"))
}

/// The compile cache that `judge run`, `judge verify`, the contest server's workers and
/// `agent evaluate`'s derivations share: `compiled` in the cache folder ([`cache_dir`]).
pub fn compile_cache_dir() -> PathBuf {
    cache_dir().join("compiled")
}

fn cache_dir_from(arena_cache: Option<OsString>, home: Option<OsString>) -> PathBuf {
    match arena_cache {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(home.unwrap_or_else(|| "/root".into())).join(".cache/arena"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_is_arena_cache_else_under_home_else_under_root() {
        let cache = |arena: Option<&str>, home: Option<&str>| {
            cache_dir_from(arena.map(OsString::from), home.map(OsString::from))
        };
        assert_eq!(cache(Some("/c"), Some("/h")), PathBuf::from("/c"));
        assert_eq!(cache(None, Some("/h")), PathBuf::from("/h/.cache/arena"));
        assert_eq!(cache(None, None), PathBuf::from("/root/.cache/arena"));
    }
}
