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
//! A second test judges a sample of them (each language's accepted, time-limit and
//! run-time-error submissions, where the packages have one) while processes the judge
//! does not run keep every core busy: the verdicts must not move.
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

/// Judges each case on bubblewrap (in a copy of its package with its time limit) and
/// returns (package, submission, verdict) for each.
fn judge_cases(
    data: &Path,
    cases: &[(&'static str, u32, &'static str, &'static str)],
) -> Vec<(&'static str, &'static str, String)> {
    let copies = tempfile::tempdir().expect("tempdir");
    let mut got = Vec::new();
    for &(package, seconds, submission, _) in cases {
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
    got
}

/// The verdicts the cases' folders name.
fn wanted(
    cases: &[(&'static str, u32, &'static str, &'static str)],
) -> Vec<(&'static str, &'static str, String)> {
    cases
        .iter()
        .map(|(p, _, s, v)| (*p, *s, (*v).to_owned()))
        .collect()
}

/// Whether the shared data and bubblewrap are here (by `ci::require`'s rule).
fn ready(data: &Path) -> bool {
    let missing = (!data.is_dir()).then_some("the shared data is not at ../shared/data");
    present("nwerc-2023 packages", missing) && available("bwrap")
}

#[test]
fn nwerc_2023_one_accepted_and_one_rejected_per_package_bwrap() {
    let data = Path::new(NWERC);
    if !ready(data) {
        return;
    }
    assert_eq!(judge_cases(data, &CASES), wanted(&CASES));
}

/// Under load: an accepted submission of each language the packages hold (C, C++,
/// Python, Java, Kotlin), each language's time-limit and run-time-error submissions where
/// the packages have one (C++ and Python TLE, Python and Java RTE).
const LOADED: [(&str, u32, &str, &str); 10] = [
    ("datepicker", 1, "accepted/d_va.java", "AC"),
    (
        "datepicker",
        1,
        "time_limit_exceeded/ragnar-combinations-transcribed.cpp",
        "TLE",
    ),
    (
        "datepicker",
        1,
        "time_limit_exceeded/ragnar-combinations.py",
        "TLE",
    ),
    ("exponentiation", 4, "accepted/paul.cpp", "AC"),
    ("exponentiation", 4, "accepted/kunyavskiy.kt", "AC"),
    ("fixingfractions", 5, "accepted/paul.py", "AC"),
    (
        "higherarithmetic",
        2,
        "run_time_error/mees-fails-on-single-one.py",
        "RTE",
    ),
    ("joggingtour", 6, "accepted/jeroen.c", "AC"),
    ("lateraldamage", 1, "accepted/maarten.py", "AC"),
    (
        "lateraldamage",
        1,
        "run_time_error/jeroen_vertical.java",
        "RTE",
    ),
];

/// Processes that keep every core busy (not judged), killed when dropped.
struct Load(Vec<std::process::Child>);

impl Load {
    fn start() -> Load {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Load(
            (0..cores)
                .map(|_| {
                    std::process::Command::new("sh")
                        .args(["-c", "while :; do :; done"])
                        .spawn()
                        .expect("start a load process")
                })
                .collect(),
        )
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Verdicts hold under load: with every core kept busy by processes the judge does not
/// run, each submission gets the verdict of its folder, as on the quiet machine (the
/// test above). CPU time is the limit; the wall clock, a backstop, does not count the
/// time a run waited for its core.
#[test]
fn nwerc_2023_verdicts_hold_while_every_core_is_busy_bwrap() {
    let data = Path::new(NWERC);
    if !ready(data) {
        return;
    }
    let load = Load::start();
    let got = judge_cases(data, &LOADED);
    drop(load);
    assert_eq!(got, wanted(&LOADED));
}
