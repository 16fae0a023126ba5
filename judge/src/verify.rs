//! `judge verify`: every reference submission of a package must get a verdict that its
//! `submissions/<folder>/` allows (Kattis' folders, plus our own
//! `memory_limit_exceeded`, `output_limit_exceeded` and `compile_error`), and on scored
//! problems a total score in its expected range (`problems::ReferenceSubmission::score`;
//! a `partially_accepted` submission without one must score above 0 and below the
//! maximum). A package without a time limit gets the one derived from its accepted
//! submissions ([`crate::timelimit`]). Before the submissions, every input validator runs
//! on every test input ([`crate::grade::validate_inputs`]); an input it rejects is a
//! failure of the package.
//!
//! Python submissions (`.py`) run with the interpreter [`crate::lang::python_for`] picks:
//! the caller's (`judge verify --python`), else PyPy (`pypy3`) for a legacy package, since
//! problemtools runs Python 3 with PyPy and the authors set their limits that way, and
//! CPython (`python3`) for a 2023-07 or 2025-09 package. A derived time limit is measured
//! with the same one. [`Verification::python`] and [`Row::language`] say which ran.

use std::path::{Path, PathBuf};

use futures_util::StreamExt;
use problems::{ScoreRange, Verdict};
use serde::Serialize;

use crate::grade::{InputValidation, Options, Submission, judge, validate_inputs};
use crate::sandbox::SandboxConfig;
use crate::timelimit::{self, Provenance};

/// One reference submission's check.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// The package's short name.
    pub problem: String,
    /// The submission, relative to the package.
    pub submission: PathBuf,
    /// The verdicts its folder allows.
    pub expected: Vec<Verdict>,
    /// The verdict it got (`JE` when the judge failed).
    pub got: Verdict,
    /// The judge's error, when it failed.
    pub error: Option<String>,
    /// Slowest test's CPU time in milliseconds.
    pub max_cpu_ms: f64,
    /// The folder under `submissions/`.
    pub folder: String,
    /// The score it must get (scored problems).
    pub expected_score: Option<ScoreRange>,
    /// The score it got and the problem's maximum, on scored problems.
    pub score: Option<(f64, f64)>,
    /// The id of the language it ran as (`pypy3` for a legacy package's Python).
    pub language: String,
}

impl Row {
    /// Whether the verdict is one the folder allows and the score is in its range.
    pub fn ok(&self) -> bool {
        self.error.is_none() && self.expected.contains(&self.got) && self.score_ok()
    }

    /// Whether the score meets the expectation: its range when it has one; above 0 and
    /// below the maximum for a `partially_accepted` submission without one.
    pub fn score_ok(&self) -> bool {
        match (self.expected_score, self.score) {
            (Some(range), Some((score, _))) => range.contains(score),
            (Some(_), None) => false,
            (None, Some((score, max))) if self.folder == "partially_accepted" => {
                score > ScoreRange::TOLERANCE && score < max - ScoreRange::TOLERANCE
            }
            (None, None) => self.folder != "partially_accepted",
            (None, Some(_)) => true,
        }
    }
}

/// What `verify` found: where the time limit came from, and one row per reference
/// submission.
#[derive(Debug, Clone, Serialize)]
pub struct Verification {
    /// The time limit the submissions ran under, and where it came from.
    pub time_limit: Provenance,
    /// The input validators' verdicts on every test input.
    pub inputs: InputValidation,
    /// Each reference submission's check.
    pub rows: Vec<Row>,
    /// The package's `problem_format_version` (`legacy` when it names none).
    pub format: String,
    /// The language id that ran the package's Python submissions (`pypy3` or `python3`).
    pub python: String,
}

/// Judges every reference submission of the package in `dir` (loaded for its author:
/// every check), `parallel` at a time, its `.py` files as `python` names or
/// [`crate::lang::python_for`] picks. A package without a time limit gets one derived
/// from its accepted submissions first ([`crate::timelimit::resolve`], cached under
/// `timelimits`). `Err` carries the package's problems when it cannot be loaded.
pub async fn verify(
    dir: &Path,
    config: &SandboxConfig,
    options: &Options,
    parallel: usize,
    timelimits: Option<&Path>,
    python: Option<&str>,
) -> crate::Result<Verification> {
    let (mut problem, _warnings) = problems::load(dir)?;
    let format = crate::lang::package_format(dir);
    let python = crate::lang::python_for(dir, python)?;
    let inputs = validate_inputs(&problem, config, options).await?;
    let time_limit = timelimit::resolve(&mut problem, config, options, timelimits, python).await?;
    let problem = &problem;
    let rows = futures_util::stream::iter(problem.submissions.iter())
        .map(|reference| async move {
            let relative = reference
                .path
                .strip_prefix(&problem.root)
                .unwrap_or(&reference.path)
                .to_path_buf();
            let mut row = Row {
                problem: problem.short_name.clone(),
                submission: relative,
                expected: reference.expected.clone(),
                got: Verdict::JE,
                error: None,
                max_cpu_ms: 0.0,
                folder: reference.folder.clone(),
                expected_score: reference.score,
                score: None,
                language: String::new(),
            };
            let lang = crate::lang::reference_language(&reference.path, python);
            let res = match Submission::from_file(&reference.path, lang, problem.limits.code_bytes)
            {
                Ok(submission) => {
                    row.language = submission.language.id.clone();
                    judge(problem, &submission, config, options, &mut |_| {}).await
                }
                Err(err) => Err(err),
            };
            match res {
                Ok(report) => {
                    row.got = report.verdict;
                    row.max_cpu_ms = report.tests.iter().map(|t| t.cpu_ms).fold(0.0, f64::max);
                    row.score = report.max_score.map(|max| (report.score, max));
                }
                Err(err) => row.error = Some(err.with_causes()),
            }
            row
        })
        .buffered(parallel.max(1))
        .collect::<Vec<_>>()
        .await;
    Ok(Verification {
        time_limit,
        inputs,
        rows,
        format,
        python: python.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(folder: &str, expected_score: Option<ScoreRange>, score: Option<(f64, f64)>) -> Row {
        Row {
            problem: "p".to_owned(),
            submission: "s.py".into(),
            expected: vec![Verdict::WA],
            got: Verdict::WA,
            error: None,
            max_cpu_ms: 0.0,
            folder: folder.to_owned(),
            expected_score,
            score,
            language: "python3".to_owned(),
        }
    }

    #[test]
    fn scores_must_fall_in_the_expected_range() {
        let range = Some(ScoreRange {
            min: 20.0,
            max: 50.0,
        });
        let table = [
            ("wrong_answer", None, None, true),
            ("wrong_answer", None, Some((0.0, 100.0)), true),
            ("wrong_answer", range, Some((50.0, 100.0)), true),
            ("wrong_answer", range, Some((50.5, 100.0)), false),
            ("wrong_answer", range, None, false),
            ("partially_accepted", range, Some((20.0, 100.0)), true),
            ("partially_accepted", None, Some((20.0, 100.0)), true),
            ("partially_accepted", None, Some((0.0, 100.0)), false),
            ("partially_accepted", None, Some((100.0, 100.0)), false),
            ("partially_accepted", None, None, false),
        ];
        for (folder, expected, got, ok) in table {
            assert_eq!(
                row(folder, expected, got).ok(),
                ok,
                "{folder} {expected:?} {got:?}"
            );
        }
    }
}
