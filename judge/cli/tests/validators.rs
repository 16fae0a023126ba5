//! End-to-end tests of custom validators' scores, testlib partial points, the interactive
//! "who failed first" rule and `judge verify`'s expected scores: the real `judge` binary on
//! both sandboxes (Docker and bubblewrap). Under `CI=true` a missing backend fails the
//! test; elsewhere the test says what is missing and returns.

mod common;

use common::{available, judge, run_on, write};

/// The per-test scores of a report, in judging order.
fn test_scores(report: &serde_json::Value) -> Vec<Option<f64>> {
    report["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .map(|t| t["score"].as_f64())
        .collect()
}

/// A scored 2025-09 package "print twice n": one sample, group `1` (40 points, `min`, one
/// case) and group `2` (60 points, `sum`, two cases of 30), checked by `checker` in
/// `output_validator/` with the given convention line.
fn doubling_package(checker: &str, convention: &str, scoring: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let kind = if scoring { "type: scoring\n" } else { "" };
    write(
        root,
        "problem.yaml",
        &format!(
            "problem_format_version: 2025-09\nname: Double\nuuid: d\n{kind}{convention}limits:\n  time_limit: 1\n"
        ),
    );
    write(root, "data/sample/1.in", "1\n");
    write(root, "data/sample/1.ans", "2\n");
    let cases = [
        ("1", "a", 40, "min", 5),
        ("2", "b", 60, "sum", 7),
        ("2", "c", 60, "sum", 9),
    ];
    for (group, case, points, aggregation, n) in cases {
        if scoring {
            write(
                root,
                &format!("data/secret/{group}/test_group.yaml"),
                &format!("max_score: {points}\nscore_aggregation: {aggregation}\n"),
            );
        }
        write(
            root,
            &format!("data/secret/{group}/{case}.in"),
            &format!("{n}\n"),
        );
        write(
            root,
            &format!("data/secret/{group}/{case}.ans"),
            &format!("{}\n", 2 * n),
        );
    }
    write(root, "output_validator/check.py", checker);
    dir
}

/// Kattis convention: the right answer is accepted with full points; one more is accepted
/// with half the points (`score_multiplier.txt`); two more with 10 points (`score.txt`);
/// three more claims 1000 points (above any test's maximum); four more is rejected with a
/// score file; anything else is rejected.
const KATTIS_SCORER: &str = r#"import sys
answer = int(open(sys.argv[2]).read())
feedback = sys.argv[3]
tokens = sys.stdin.read().split()
def write(name, text):
    open(feedback + name, "w").write(text)
if len(tokens) != 1 or not tokens[0].lstrip("-").isdigit():
    write("judgemessage.txt", "expected one integer")
    sys.exit(43)
extra = int(tokens[0]) - answer
if extra == 0:
    sys.exit(42)
if extra == 1:
    write("score_multiplier.txt", "0.5\n")
    sys.exit(42)
if extra == 2:
    write("score.txt", "10\n")
    sys.exit(42)
if extra == 3:
    write("score.txt", "1000\n")
    sys.exit(42)
if extra == 4:
    write("score.txt", "5\n")
    sys.exit(43)
write("judgemessage.txt", f"off by {extra}")
sys.exit(43)
"#;

/// Added to the answer, then the verdict, exit code, total score and per-test scores.
type Expected = (i64, &'static str, i32, f64, [Option<f64>; 4]);

fn kattis_scores(backend: &str) {
    if !available(backend) {
        return;
    }
    let package = doubling_package(KATTIS_SCORER, "", true);
    let root = package.path();
    let plus = |extra: i64| format!("print(2 * int(input()) + {extra})\n");
    // (extra, verdict, exit code, total score, per-test scores)
    let table: [Expected; 4] = [
        (
            0,
            "AC",
            0,
            100.0,
            [None, Some(40.0), Some(30.0), Some(30.0)],
        ),
        (1, "AC", 0, 50.0, [None, Some(20.0), Some(15.0), Some(15.0)]),
        (2, "AC", 0, 30.0, [None, Some(10.0), Some(10.0), Some(10.0)]),
        (7, "WA", 1, 0.0, [None, Some(0.0), Some(0.0), Some(0.0)]),
    ];
    for (extra, verdict, code, score, scores) in table {
        let (got_code, report) = run_on(backend, root, "double.py", &plus(extra));
        assert_eq!(report["verdict"], verdict, "{backend} +{extra}: {report}");
        assert_eq!(got_code, Some(code), "{backend} +{extra}: {report}");
        assert_eq!(
            report["score"].as_f64(),
            Some(score),
            "{backend} +{extra}: {report}"
        );
        assert_eq!(report["max_score"].as_f64(), Some(100.0), "{report}");
        assert_eq!(test_scores(&report), scores, "{backend} +{extra}: {report}");
    }
    // Points above the test's maximum, and a score on a rejected test, are judge errors.
    for extra in [3, 4] {
        let (code, report) = run_on(backend, root, "double.py", &plus(extra));
        assert_eq!(report["verdict"], "JE", "{backend} +{extra}: {report}");
        assert_eq!(code, Some(2), "{backend} +{extra}: {report}");
    }
}

#[test]
fn kattis_score_files_docker() {
    kattis_scores("docker");
}

#[test]
fn kattis_score_files_bwrap() {
    kattis_scores("bwrap");
}

/// testlib convention: the right answer is OK (0); one more is a partial result (7) worth
/// 5 points; anything else is a wrong answer (1).
const TESTLIB_PARTIAL: &str = r#"import sys
answer = int(open(sys.argv[3]).read())
tokens = open(sys.argv[2]).read().split()
if len(tokens) != 1 or not tokens[0].lstrip("-").isdigit():
    sys.stderr.write("expected one integer")
    sys.exit(1)
extra = int(tokens[0]) - answer
if extra == 0:
    sys.exit(0)
if extra == 1:
    sys.stderr.write("points 5 one too many")
    sys.exit(7)
sys.stderr.write(f"off by {extra}")
sys.exit(1)
"#;

fn testlib_points(backend: &str) {
    if !available(backend) {
        return;
    }
    let convention = "validator_convention: testlib\n";
    let scored = doubling_package(TESTLIB_PARTIAL, convention, true);
    let one_more = "print(2 * int(input()) + 1)\n";
    let (code, report) = run_on(backend, scored.path(), "double.py", one_more);
    // A partial result is a wrong answer that keeps its points: 5 of group 1's 40 (a min
    // group takes its case's fraction) plus 5 + 5 in the sum group.
    assert_eq!(
        (report["verdict"].as_str(), code),
        (Some("WA"), Some(1)),
        "{report}"
    );
    assert_eq!(report["score"].as_f64(), Some(15.0), "{backend}: {report}");
    assert_eq!(
        test_scores(&report),
        vec![None, Some(5.0), Some(5.0), Some(5.0)],
        "{report}"
    );
    let message = report["tests"][1]["message"].as_str().unwrap_or_default();
    assert!(message.contains("one too many"), "{report}");
    let (_, report) = run_on(
        backend,
        scored.path(),
        "double.py",
        "print(2 * int(input()))\n",
    );
    assert_eq!(report["score"].as_f64(), Some(100.0), "{backend}: {report}");
    // On a pass-fail problem the same partial result is only a wrong answer.
    let pass_fail = doubling_package(TESTLIB_PARTIAL, convention, false);
    let (_, report) = run_on(backend, pass_fail.path(), "double.py", one_more);
    assert_eq!(report["verdict"], "WA", "{report}");
    assert_eq!(report["score"].as_f64(), Some(0.0), "{report}");
    assert_eq!(test_scores(&report), vec![None; 4], "{report}");
}

#[test]
fn testlib_partial_points_docker() {
    testlib_points("docker");
}

#[test]
fn testlib_partial_points_bwrap() {
    testlib_points("bwrap");
}

/// Guess a number in 1..=n with at most 30 questions; more than 22 questions halve the
/// test's points (`score_multiplier.txt`).
const SCORING_INTERACTOR: &str = r#"import os, sys
n, secret = map(int, open(sys.argv[1]).read().split())
feedback = sys.argv[3]
def reject(message):
    open(feedback + "judgemessage.txt", "w").write(message)
    # What could not be written to a program that left is dropped.
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    sys.exit(43)
def say(text):
    try:
        print(text, flush=True)
    except BrokenPipeError:
        reject("the program left")
say(n)
questions = 0
while True:
    line = sys.stdin.readline()
    if not line:
        reject("the program ended without an answer")
    parts = line.split()
    if len(parts) != 2 or parts[0] not in ("?", "!") or not parts[1].isdigit():
        reject("malformed line")
    x = int(parts[1])
    if parts[0] == "!":
        if x != secret:
            reject(f"answered {x}")
        if questions > 22:
            open(feedback + "score_multiplier.txt", "w").write("0.5")
        sys.exit(42)
    questions += 1
    if questions > 30:
        reject("more than 30 questions")
    say("<" if secret < x else (">" if secret > x else "="))
"#;

/// Binary search after `wasted` useless questions, then `after` (Python) once answered.
fn guesser(wasted: usize, after: &str) -> String {
    format!(
        "import os, signal, sys, time\nn = int(input())\nfor _ in range({wasted}):\n    print('? 1', flush=True)\n    input()\nlo, hi = 1, n\nwhile True:\n    mid = (lo + hi) // 2\n    print('?', mid, flush=True)\n    r = input().strip()\n    if r == '=':\n        print('!', mid, flush=True)\n        break\n    if r == '<':\n        hi = mid - 1\n    else:\n        lo = mid + 1\n{after}\n"
    )
}

fn interactive(backend: &str) {
    if !available(backend) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    write(
        root,
        "problem.yaml",
        "problem_format_version: 2025-09\nname: Guess\nuuid: g\ntype: [scoring, interactive]\nlimits:\n  time_limit: 1\n",
    );
    for x in [1, 999_999] {
        write(
            root,
            &format!("data/secret/{x}.in"),
            &format!("1000000 {x}\n"),
        );
        write(root, &format!("data/secret/{x}.ans"), &format!("{x}\n"));
    }
    write(root, "output_validator/interactor.py", SCORING_INTERACTOR);
    let over_limit_then_crash =
        "n = int(input())\nwhile True:\n    print('? 1', flush=True)\n    input()\n";
    let crash_early = "import os, signal\nn = int(input())\nprint('? 5', flush=True)\nos.kill(os.getpid(), signal.SIGSEGV)\n";
    let cases: [(&str, String, &str, f64); 6] = [
        ("binary search", guesser(0, ""), "AC", 100.0),
        // Accepted with more than 22 questions: half the points of each test.
        ("wasteful", guesser(5, ""), "AC", 50.0),
        // The interactor rejects the 31st question and leaves; the program then dies of
        // the end of its input (EOFError): the rejection came first, so WA.
        (
            "over the limit",
            over_limit_then_crash.to_owned(),
            "WA",
            0.0,
        ),
        // The program crashes first: its own end decides (RTE), in problemtools' order,
        // whatever the interactor said after.
        ("crash early", crash_early.to_owned(), "RTE", 0.0),
        // Accepted, then the program fails: its own verdict.
        (
            "crash after",
            guesser(0, "os.kill(os.getpid(), signal.SIGSEGV)"),
            "RTE",
            0.0,
        ),
        ("hang after", guesser(0, "time.sleep(30)"), "TLE", 0.0),
    ];
    for (what, source, verdict, score) in cases {
        let (_, report) = run_on(backend, root, "guess.py", &source);
        assert_eq!(report["verdict"], verdict, "{backend} {what}: {report}");
        assert_eq!(
            report["score"].as_f64(),
            Some(score),
            "{backend} {what}: {report}"
        );
        for test in report["tests"].as_array().expect("tests") {
            // Every per-test result has the same fields as on any other problem.
            for field in [
                "index", "name", "verdict", "cpu_ms", "wall_ms", "peak_kib", "message",
            ] {
                assert!(test.get(field).is_some(), "{field} missing: {test}");
            }
            assert!(test["score"].is_number(), "{test}");
        }
    }
}

#[test]
fn interactive_who_failed_first_docker() {
    interactive("docker");
}

#[test]
fn interactive_who_failed_first_bwrap() {
    interactive("bwrap");
}

fn verify_scores(backend: &str) {
    if !available(backend) {
        return;
    }
    let package = doubling_package(KATTIS_SCORER, "", true);
    let root = package.path();
    // Groups 1 and 2 right up to 7: 40 + 30 points.
    write(
        root,
        "submissions/accepted/double.py",
        "print(2 * int(input()))\n",
    );
    write(
        root,
        "submissions/partially_accepted/small.py",
        "# @EXPECTED_SCORE@: 70\nn = int(input())\nprint(2 * n if n <= 7 else 0)\n",
    );
    write(
        root,
        "submissions/partially_accepted/half.py",
        "print(2 * int(input()) + 1)\n",
    );
    write(
        root,
        "submissions/submissions.yaml",
        "partially_accepted/half.py:\n  score: [45, 55]\n",
    );
    let verify = || {
        let out = judge(&[
            "verify",
            "--backend",
            backend,
            root.to_str().expect("utf-8"),
        ]);
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        (out.status.code(), stdout)
    };
    let (code, stdout) = verify();
    assert_eq!(code, Some(0), "{backend}:\n{stdout}");
    assert!(stdout.contains("0 mismatches, 0 judge errors"), "{stdout}");
    // A range the submission misses is a mismatch; so is a partially accepted submission
    // with every point.
    write(
        root,
        "submissions/submissions.yaml",
        "partially_accepted/half.py:\n  score: [60, 100]\n",
    );
    write(
        root,
        "submissions/partially_accepted/full.py",
        "print(2 * int(input()))\n",
    );
    let (code, stdout) = verify();
    assert_eq!(code, Some(1), "{backend}:\n{stdout}");
    assert!(stdout.contains("2 mismatches, 0 judge errors"), "{stdout}");
    let mismatched: Vec<&str> = stdout.lines().filter(|l| l.ends_with("MISMATCH")).collect();
    assert!(
        mismatched[0].contains("full.py") && mismatched[1].contains("half.py"),
        "{stdout}"
    );
}

#[test]
fn verify_checks_expected_scores_docker() {
    verify_scores("docker");
}

#[test]
fn verify_checks_expected_scores_bwrap() {
    verify_scores("bwrap");
}
