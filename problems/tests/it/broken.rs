//! Broken packages built in a temporary folder: `load` must report every problem at once,
//! each with its file.

use std::path::Path;

use expect_test::{Expect, expect};
use problems::{Error, Severity, Validation};

/// Writes `text` to `path` below `root`, making its folders.
pub(crate) fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().expect("has a parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn write_all(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        write(root, path, text);
    }
}

/// A minimal valid 2025-09 package.
fn valid(root: &Path) {
    write_all(
        root,
        &[
            (
                "problem.yaml",
                "problem_format_version: 2025-09\nname: Echo\nuuid: 1\nlimits:\n  time_limit: 1\n",
            ),
            ("statement/problem.en.md", "# Echo\n"),
            ("data/sample/1.in", "1\n"),
            ("data/sample/1.ans", "1\n"),
            ("data/secret/1.in", "2\n"),
            ("data/secret/1.ans", "2\n"),
            ("input_validators/v.py", "raise SystemExit(42)\n"),
            ("submissions/accepted/echo.py", "print(input())\n"),
        ],
    );
}

/// Loads `root` and renders the outcome: `ok` and the warnings, or every diagnostic.
fn check(root: &Path, expect: &Expect) {
    let lines: Vec<String> = match problems::load(root) {
        Ok((_, warnings)) => {
            assert!(warnings.iter().all(|d| d.severity == Severity::Warning));
            std::iter::once("ok".to_owned())
                .chain(warnings.iter().map(ToString::to_string))
                .collect()
        }
        Err(Error::Invalid { diagnostics, .. }) => {
            assert!(
                diagnostics.iter().any(|d| d.severity == Severity::Error),
                "Invalid without an error"
            );
            diagnostics.iter().map(ToString::to_string).collect()
        }
        Err(err) => vec![format!("failed: {err}")],
    };
    expect.assert_eq(&lines.join("\n"));
}

#[test]
fn the_valid_package_loads_cleanly() {
    let dir = tempfile::tempdir().expect("tempdir");
    valid(dir.path());
    check(dir.path(), &expect!["ok"]);
}

#[test]
fn malformed_yaml_and_broken_data_are_reported_together() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    valid(root);
    write_all(
        root,
        &[
            (
                "problem.yaml",
                "problem_format_version: 2025-09\nname: Echo\nlimits: [1, 2\n",
            ),
            ("data/sample/2.in", "no answer\n"),
            ("data/sample/3.ans", "no input\n"),
            ("submissions/too_slow/a.py", ""),
        ],
    );
    std::fs::remove_dir_all(root.join("data/secret")).expect("rm");
    check(
        root,
        &expect![[r#"
            error: problem.yaml: malformed YAML at line 4, column 1: did not find expected ',' or ']' at line 4 column 1, while parsing a flow sequence at line 3 column 9
            error: data/sample/2.in: test case has no answer file 2.ans
            warning: data/sample/3.ans: answer file without an input file 3.in
            error: data/secret: missing: every package needs secret test data
            warning: submissions/too_slow: unknown submissions folder, skipped: the judge knows accepted, wrong_answer, time_limit_exceeded, run_time_error, memory_limit_exceeded, output_limit_exceeded, compile_error, rejected, brute_force and partially_accepted"#]],
    );
}

#[test]
fn bad_values_and_unknown_keys_name_their_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    valid(root);
    write(
        root,
        "problem.yaml",
        "problem_format_version: 2025-09\nname: Echo\nuuid: 1\ncolour: blue\ntype: [pass-fail, quiz]\n\
         limits:\n  time_limit: 0\n  memory: lots\n  speed: 3\n",
    );
    write_all(
        root,
        &[
            (
                "data/test_group.yaml",
                "output_validator_args: [float_tolerance]\n",
            ),
            (
                "data/secret/g1/test_group.yaml",
                "score_aggregation: median\nmax_score: -1\nhint: none\n",
            ),
            ("data/secret/g1/a.in", "1\n"),
            ("data/secret/g1/a.ans", "1\n"),
            (
                "data/secret/g2/test_group.yaml",
                "output_validator_args: [ignore_case]\n",
            ),
            ("data/secret/g2/a.in", "1\n"),
            ("data/secret/g2/a.ans", "1\n"),
        ],
    );
    std::fs::remove_dir_all(root.join("statement")).expect("rm");
    check(
        root,
        &expect![[r#"
            warning: problem.yaml: unknown key `colour` for format 2025-09
            error: problem.yaml: unknown problem type `quiz`
            error: problem.yaml: limit `time_limit` must be a positive number, found 0
            error: problem.yaml: limit `memory` must be a positive number, found lots
            warning: problem.yaml: unknown limit `speed`
            warning: problem.yaml: no time limit (limits.time_limit or .timelimit): the judge derives it from the slowest accepted submission times 2, or uses 1 second without one
            warning: data/secret/g1/test_group.yaml: unknown test group key `hint`
            error: data/secret/g1/test_group.yaml: the group score must be a non-negative number, found Number(-1)
            error: data/secret/g1/test_group.yaml: unknown score aggregation `median` (pass-fail, sum, min, max or avg)
            error: data/test_group.yaml: validator flags: flag `float_tolerance` needs a value
            error: data/secret/g2/test_group.yaml: validator flags: unknown default validator flag `ignore_case` (known: case_sensitive, space_change_sensitive, float_absolute_tolerance, float_relative_tolerance, float_tolerance)
            warning: statement: no statement (statement/problem.<lang>.md, .tex or .pdf)"#]],
    );
}

#[test]
fn group_arguments_apply_to_their_cases() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    valid(root);
    write_all(
        root,
        &[
            (
                "data/test_group.yaml",
                "output_validator_args: [case_sensitive]\n",
            ),
            (
                "data/secret/1-exact/test_group.yaml",
                "max_score: 40\nscore_aggregation: min\n",
            ),
            ("data/secret/1-exact/a.in", "1\n"),
            ("data/secret/1-exact/a.ans", "1\n"),
            (
                "data/secret/2-loose/test_group.yaml",
                "output_validator_args: float_tolerance 0.5\n",
            ),
            ("data/secret/2-loose/deeper/b.in", "1\n"),
            ("data/secret/2-loose/deeper/b.ans", "1\n"),
        ],
    );
    std::fs::remove_file(root.join("data/secret/1.in")).expect("rm");
    std::fs::remove_file(root.join("data/secret/1.ans")).expect("rm");
    let (problem, warnings) = problems::load(root).expect("loads");
    assert_eq!(warnings, vec![]);
    let rendered: Vec<String> = problem
        .test_cases()
        .iter()
        .map(|case| {
            let flags = match problem.validation_for(case) {
                Validation::Default(flags) => flags,
                Validation::Custom { .. } => panic!("default validation"),
            };
            format!(
                "{} case_sensitive={} abs={:?} rel={:?}",
                case.name,
                flags.case_sensitive,
                flags.float_absolute_tolerance,
                flags.float_relative_tolerance
            )
        })
        .collect();
    expect![[r#"
        sample/1 case_sensitive=true abs=None rel=None
        secret/1-exact/a case_sensitive=true abs=None rel=None
        secret/2-loose/deeper/b case_sensitive=false abs=Some(0.5) rel=Some(0.5)"#]]
    .assert_eq(&rendered.join("\n"));
    let exact = &problem.secret.groups[0];
    assert_eq!(
        (exact.score, exact.aggregation),
        (Some(40.0), Some(problems::Aggregation::Min))
    );
}

#[test]
fn legacy_group_flags_follow_validator_flags() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    valid(root);
    write_all(
        root,
        &[
            (
                "problem.yaml",
                "name: Echo\nvalidator_flags: case_sensitive\n",
            ),
            (".timelimit", "2.5\n"),
            (
                "data/secret/testdata.yaml",
                "output_validator_flags: space_change_sensitive\ngrader_flags: min first_error\n",
            ),
        ],
    );
    let (problem, warnings) = problems::load(root).expect("loads");
    assert_eq!(warnings, vec![]);
    assert_eq!(problem.limits.time, std::time::Duration::from_millis(2500));
    let case = problem.test_cases()[1];
    assert_eq!(
        case.output_validator_args,
        Some(vec![
            "case_sensitive".to_owned(),
            "space_change_sensitive".to_owned()
        ])
    );
    let Validation::Default(flags) = problem.validation_for(case) else {
        panic!("default validation")
    };
    assert!(flags.case_sensitive && flags.space_change_sensitive);
    assert_eq!(problem.secret.aggregation, Some(problems::Aggregation::Min));
}

#[test]
fn a_missing_folder_is_an_io_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("nope");
    let err = problems::load(&missing).expect_err("no folder");
    assert!(
        matches!(err, Error::Io { ref path, .. } if path == &missing),
        "{err}"
    );
    // The message names the folder; the cause comes once, as the source.
    assert_eq!(
        err.to_string(),
        format!("cannot read {}", missing.display())
    );
    let cause = std::error::Error::source(&err).expect("the I/O error is the source");
    assert_eq!(
        cause
            .downcast_ref::<std::io::Error>()
            .map(std::io::Error::kind),
        Some(std::io::ErrorKind::NotFound)
    );
}

#[test]
fn cases_and_groups_interleave_in_path_order() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    valid(root);
    write(root, "problem.yaml", "name: Echo\n");
    write(root, ".timelimit", "1\n");
    for path in ["a", "b/x", "b/c/y", "b/z", "c", "b.5", "0"] {
        write(root, &format!("data/secret/{path}.in"), "1\n");
        write(root, &format!("data/secret/{path}.ans"), "1\n");
    }
    let (problem, _) = problems::load(root).expect("loads");
    let names: Vec<&str> = problem
        .test_cases()
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    expect![
        "sample/1 secret/0 secret/1 secret/a secret/b/c/y secret/b/x secret/b/z secret/b.5 secret/c"
    ]
    .assert_eq(&names.join(" "));
}
