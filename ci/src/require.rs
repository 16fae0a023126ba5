//! The one rule for tests that need a heavy part of the machine (Docker, bubblewrap,
//! libtorch, the venv, the model, PostgreSQL, Chromium, the shared data): under CI a
//! missing part fails the test; elsewhere the test says what is missing and returns.
//!
//! Every crate's tests take it as a dev-dependency on `ci`, so the rule is decided here
//! and nowhere else.

/// Whether this runs under CI: `CI` is set and is neither empty, `false` nor `0`.
pub fn in_ci() -> bool {
    ci_value(std::env::var_os("CI").as_deref())
}

fn ci_value(value: Option<&std::ffi::OsStr>) -> bool {
    value.is_some_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// Whether a test that needs `part` may go on: `missing` is `None` when the part is here,
/// or says why it is not. Under CI a missing part panics (a failure, not a skip);
/// elsewhere it prints a note and returns `false`, and the test returns early.
pub fn present(part: &str, missing: Option<&str>) -> bool {
    match decide(part, missing, in_ci()) {
        Decision::GoOn => true,
        Decision::Skip(note) => {
            eprintln!("{note}");
            false
        }
        Decision::Fail(message) => panic!("{message}"),
    }
}

/// Whether bubblewrap is installed, by [`present`]'s rule: the one check of every test
/// that runs the bubblewrap sandbox.
pub fn bwrap() -> bool {
    present("bubblewrap", bwrap_missing(std::path::Path::new(BWRAP)))
}

/// Whether a Docker daemon answers (`docker info`), by [`present`]'s rule: the one check
/// of every test that runs the Docker sandbox.
pub fn docker() -> bool {
    let answers = std::process::Command::new("docker")
        .arg("info")
        .output()
        .is_ok_and(|o| o.status.success());
    present(
        "docker",
        (!answers).then_some("no Docker daemon answers (run ci/setup)"),
    )
}

/// Where `ci/setup` installs bubblewrap (Debian's `bubblewrap` package).
const BWRAP: &str = "/usr/bin/bwrap";

fn bwrap_missing(path: &std::path::Path) -> Option<&'static str> {
    (!path.is_file()).then_some("bubblewrap is not installed (run ci/setup)")
}

/// What a test does about a part: go on, skip with a note, or fail with a message.
#[derive(Debug, PartialEq, Eq)]
enum Decision {
    GoOn,
    Skip(String),
    Fail(String),
}

fn decide(part: &str, missing: Option<&str>, ci: bool) -> Decision {
    match missing {
        None => Decision::GoOn,
        Some(why) if ci => Decision::Fail(format!(
            "{part}: {why}; CI=true, so this is a failure, not a skip"
        )),
        Some(why) => Decision::Skip(format!("skipping the part that needs {part}: {why}")),
    }
}

/// The path in the environment variable `name` when it is set and exists; otherwise
/// [`present`] decides (a panic under CI, `None` elsewhere).
pub fn env_path(name: &str) -> Option<std::path::PathBuf> {
    let found = std::env::var_os(name)
        .map(std::path::PathBuf::from)
        .filter(|path| path.exists());
    match found {
        Some(path) => Some(path),
        None => {
            present(name, Some("not set or not found (run ci/setup)"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn ci_is_any_value_but_empty_false_and_zero() {
        assert!(!ci_value(None));
        assert!(!ci_value(Some(OsStr::new(""))));
        assert!(!ci_value(Some(OsStr::new("false"))));
        assert!(!ci_value(Some(OsStr::new("0"))));
        assert!(ci_value(Some(OsStr::new("true"))));
        assert!(ci_value(Some(OsStr::new("1"))));
    }

    #[test]
    fn a_present_part_goes_on_everywhere() {
        assert_eq!(decide("docker", None, true), Decision::GoOn);
        assert_eq!(decide("docker", None, false), Decision::GoOn);
    }

    #[test]
    fn a_missing_part_is_a_skip_outside_ci() {
        assert_eq!(
            decide("docker", Some("no daemon answers"), false),
            Decision::Skip("skipping the part that needs docker: no daemon answers".into())
        );
    }

    #[test]
    fn a_missing_part_fails_under_ci() {
        assert_eq!(
            decide("docker", Some("no daemon answers"), true),
            Decision::Fail(
                "docker: no daemon answers; CI=true, so this is a failure, not a skip".into()
            )
        );
    }

    #[test]
    fn bubblewrap_is_missing_where_its_binary_is_not_a_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let binary = dir.path().join("bwrap");
        assert_eq!(
            bwrap_missing(&binary),
            Some("bubblewrap is not installed (run ci/setup)")
        );
        std::fs::write(&binary, "").expect("write");
        assert_eq!(bwrap_missing(&binary), None);
        assert_eq!(
            bwrap_missing(dir.path()),
            Some("bubblewrap is not installed (run ci/setup)")
        );
    }
}
