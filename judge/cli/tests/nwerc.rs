//! The eight NWERC 2023 packages of `../shared/data/contests/nwerc-2023/` (read in place,
//! never copied into the repository; see that folder's README for their source and
//! licence): one accepted and one rejected author submission of each, judged by the real
//! `judge` binary on bubblewrap, each chosen for a cause issue 32 found (Python calling
//! `exit()`, `.py3` files, Kotlin, the `build`/`run` output validator of higherarithmetic,
//! the interactive verdict order of lateraldamage).
//!
//! The packages give no time limit (legacy `time_multiplier`): deriving one runs every
//! accepted submission, minutes of work, so the test judges a temporary copy of each
//! package with a `.timelimit` file: the contest statement's limit where it was published
//! (fixingfractions 5 s, isolatedisland 8 s), else the limit `judge verify` derives (2 x
//! the slowest accepted submission, rounded up to whole seconds).
//!
//! Under `CI=true` missing bubblewrap or missing shared data fails the test; elsewhere the
//! test says what is missing and returns.

mod common;

use std::path::Path;

use common::{available, copy_tree, present, run_report};

/// The packages.
const NWERC: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/data/contests/nwerc-2023"
);

/// (package, time limit in seconds, submission, the verdict it must get).
const CASES: [(&str, u32, &str, &str); 16] = [
    (
        "datepicker",
        1,
        "accepted/ragnar-rows-subset-transcribed.cpp",
        "AC",
    ),
    (
        "datepicker",
        1,
        "time_limit_exceeded/ragnar-combinations-transcribed.cpp",
        "TLE",
    ),
    ("exponentiation", 4, "accepted/paul.cpp", "AC"),
    (
        "exponentiation",
        4,
        "wrong_answer/dai-polynomial-hashing.cpp",
        "WA",
    ),
    // Both call the builtin exit() after printing.
    ("fixingfractions", 5, "accepted/paul.py", "AC"),
    (
        "fixingfractions",
        5,
        "wrong_answer/paul-not-substring.py",
        "WA",
    ),
    // The output validator is a `build` script and a `run` script running two validators.
    ("higherarithmetic", 2, "accepted/paul.cpp", "AC"),
    ("higherarithmetic", 2, "wrong_answer/wrong_format.cpp", "WA"),
    // `.py3`.
    ("isolatedisland", 8, "accepted/mzuenni.py3", "AC"),
    ("isolatedisland", 8, "wrong_answer/reinier_x_y.cpp", "WA"),
    // Kotlin (kotlinc from the npm registry).
    ("joggingtour", 6, "accepted/kunyavskiy.kt", "AC"),
    ("joggingtour", 6, "wrong_answer/jeroen_ternary.java", "WA"),
    ("klompendans", 6, "accepted/paul.cpp", "AC"),
    ("klompendans", 6, "wrong_answer/paul-start-ab.cpp", "WA"),
    // Interactive: exit() after the last answer; a crash while talking is RTE.
    ("lateraldamage", 1, "accepted/maarten.py", "AC"),
    (
        "lateraldamage",
        1,
        "run_time_error/jeroen_horizontal.java",
        "RTE",
    ),
];

#[test]
fn nwerc_2023_one_accepted_and_one_rejected_per_package_bwrap() {
    let data = Path::new(NWERC);
    let missing = (!data.is_dir()).then_some("the shared data is not at ../shared/data");
    if !present("nwerc-2023 packages", missing) || !available("bwrap") {
        return;
    }
    let copies = tempfile::tempdir().expect("tempdir");
    let mut got = Vec::new();
    for (package, seconds, submission, _) in CASES {
        let copy = copies.path().join(package);
        if !copy.is_dir() {
            copy_tree(&data.join(package), &copy);
            std::fs::write(copy.join(".timelimit"), format!("{seconds}\n")).expect("write");
        }
        // The submission is judged where it is, in the shared data.
        let source = data.join(package).join("submissions").join(submission);
        let (_, report) = run_report(&[
            "run",
            "--backend",
            "bwrap",
            "--json",
            "--problem",
            copy.to_str().expect("utf-8"),
            source.to_str().expect("utf-8"),
        ]);
        got.push((
            package,
            submission,
            report["verdict"].as_str().unwrap_or_default().to_owned(),
        ));
    }
    let want: Vec<_> = CASES
        .iter()
        .map(|(p, _, s, v)| (*p, *s, (*v).to_owned()))
        .collect();
    assert_eq!(got, want);
}
