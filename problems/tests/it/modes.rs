//! Loading for judging is lenient, loading for authoring is strict: the same packages
//! loaded with [`LoadMode::Judge`] and [`LoadMode::Author`]; and the six real legacy
//! packages of `../shared/data/contests/rmrc-2022-23/` (icpc/na-rocky-mountain-2022-2023-public,
//! MIT), which give a time multiplier in `problem.yaml` and the limit in `.timelimit`.

use std::path::{Path, PathBuf};

use problems::{Error, LoadMode, Severity, TimeLimitSource, load_with};

use crate::broken::write;

/// A legacy package as problemtools' users write them: a multiplier and no limit, and
/// submission folders the judge does not know.
fn legacy(root: &Path) {
    for (path, text) in [
        (
            "problem.yaml",
            "name: Echo\nlimits:\n  time_multiplier: 3\n",
        ),
        ("data/sample/1.in", "1\n"),
        ("data/sample/1.ans", "1\n"),
        ("data/secret/1.in", "2\n"),
        ("data/secret/1.ans", "2\n"),
        ("submissions/accepted/echo.py", "print(input())\n"),
        ("submissions/slow_accepted/slow.py", "print(input())\n"),
        ("submissions/check_manually/odd.py", "print(input())\n"),
    ] {
        write(root, path, text);
    }
}

/// `Ok` with the warnings, or every diagnostic of `Err`, one line each.
fn outcome(root: &Path, mode: LoadMode) -> (bool, Vec<String>) {
    match load_with(root, mode) {
        Ok((problem, warnings)) => {
            assert!(
                problem
                    .submissions
                    .iter()
                    .all(|s| !s.folder.contains("manually"))
            );
            (true, warnings.iter().map(ToString::to_string).collect())
        }
        Err(Error::Invalid { diagnostics, .. }) => {
            (false, diagnostics.iter().map(ToString::to_string).collect())
        }
        Err(err) => panic!("{err}"),
    }
}

#[test]
fn unknown_submission_folders_are_skipped_in_both_modes() {
    let dir = tempfile::tempdir().expect("tempdir");
    legacy(dir.path());
    for mode in [LoadMode::Judge, LoadMode::Author] {
        let (ok, lines) = outcome(dir.path(), mode);
        assert!(ok, "{mode:?}: {lines:?}");
        let skipped: Vec<&String> = lines.iter().filter(|l| l.contains("skipped")).collect();
        assert_eq!(skipped.len(), 2, "{mode:?}: {lines:?}");
        assert!(skipped[0].starts_with("warning: submissions/check_manually: "));
        assert!(skipped[1].starts_with("warning: submissions/slow_accepted: "));
    }
}

#[test]
fn samples_only_judge_but_do_not_author() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    legacy(root);
    std::fs::remove_dir_all(root.join("data/secret")).expect("rm");
    let (ok, lines) = outcome(root, LoadMode::Judge);
    assert!(ok, "{lines:?}");
    assert!(
        lines.contains(
            &"warning: data/secret: missing: every package needs secret test data; judging uses the samples only"
                .to_owned()
        ),
        "{lines:?}"
    );
    let (ok, lines) = outcome(root, LoadMode::Author);
    assert!(!ok);
    assert!(
        lines.contains(
            &"error: data/secret: missing: every package needs secret test data".to_owned()
        )
    );

    // Without samples either, nothing can be judged.
    std::fs::remove_dir_all(root.join("data/sample")).expect("rm");
    let (ok, lines) = outcome(root, LoadMode::Judge);
    assert!(!ok, "{lines:?}");
}

#[test]
fn what_judging_does_not_read_is_a_warning_when_judging() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    legacy(root);
    // An expected score on a problem that is not scored, and a partially accepted folder.
    write(
        root,
        "submissions/accepted/echo.py",
        "# @EXPECTED_SCORE@: 3\nprint(input())\n",
    );
    write(
        root,
        "submissions/partially_accepted/p.py",
        "print(input())\n",
    );
    let (ok, judge_lines) = outcome(root, LoadMode::Judge);
    assert!(ok, "{judge_lines:?}");
    let (ok, author_lines) = outcome(root, LoadMode::Author);
    assert!(!ok);
    // The same findings, named by the same files, only the severity differs.
    let strip = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .map(|l| {
                l.trim_start_matches("warning: ")
                    .trim_start_matches("error: ")
                    .to_owned()
            })
            .collect()
    };
    assert_eq!(strip(&judge_lines), strip(&author_lines));
    assert!(
        author_lines
            .iter()
            .any(|l| l.starts_with("error: submissions/partially_accepted: ")),
        "{author_lines:?}"
    );
}

#[test]
fn what_stops_judging_is_an_error_in_both_modes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    legacy(root);
    write(root, "data/secret/2.in", "3\n");
    write(
        root,
        "problem.yaml",
        "name: Echo\nlimits:\n  time_multiplier: 0\n",
    );
    for mode in [LoadMode::Judge, LoadMode::Author] {
        let (ok, lines) = outcome(root, mode);
        assert!(!ok);
        let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("error")).collect();
        assert_eq!(
            errors,
            [
                "error: problem.yaml: limit `time_multiplier` must be a positive number, found 0",
                "error: data/secret/2.in: test case has no answer file 2.ans",
            ],
            "{mode:?}"
        );
    }
}

fn rmrc() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/contests/rmrc-2022-23")
}

#[test]
fn the_real_legacy_packages_load_for_judging_with_their_multipliers() {
    let expected = [
        ("branchmanager", 2.4, 4),
        ("champernownecount", 1.5, 1),
        ("colortubes", 2.5, 1),
        ("foodprocessor", 1.8, 1),
        ("sunandmoon", 1.5, 1),
        ("trianglecontainment", 3.0, 3),
    ];
    if !rmrc().is_dir() {
        eprintln!("skipped: {} is not there", rmrc().display());
        return;
    }
    for (name, multiplier, seconds) in expected {
        let dir = rmrc().join(name);
        let (problem, warnings) = match load_with(&dir, LoadMode::Judge) {
            Ok(it) => it,
            // colortubes declares a custom validator it does not ship: that stops judging.
            Err(Error::Invalid { diagnostics, .. }) if name == "colortubes" => {
                assert!(
                    diagnostics.iter().any(|d| d.severity == Severity::Error
                        && d.path.starts_with("output_validators")),
                    "{diagnostics:?}"
                );
                continue;
            }
            Err(err) => panic!("{name}: {err}"),
        };
        let limits = problem.limits;
        assert_eq!(limits.time_source, TimeLimitSource::TimeLimitFile, "{name}");
        assert_eq!(
            limits.time,
            std::time::Duration::from_secs(seconds),
            "{name}"
        );
        assert_eq!(
            limits.time_multipliers.ac_to_time_limit, multiplier,
            "{name}"
        );
        assert!(limits.time_multipliers.given, "{name}");
        assert_eq!(limits.time_multipliers.time_limit_to_tle, 2.0, "{name}");
        assert!(
            warnings.iter().all(|w| w.severity == Severity::Warning),
            "{name}: {warnings:?}"
        );
    }
}
