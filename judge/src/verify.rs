//! `judge verify`: every reference submission of a package must get a verdict that its
//! `submissions/<folder>/` allows (Kattis' folders, plus our own
//! `memory_limit_exceeded`, `output_limit_exceeded` and `compile_error`).

use std::path::{Path, PathBuf};

use futures_util::StreamExt;
use problems::Verdict;
use serde::Serialize;

use crate::grade::{Options, Submission, judge};
use crate::sandbox::SandboxConfig;

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
}

impl Row {
    /// Whether the verdict is one the folder allows.
    pub fn ok(&self) -> bool {
        self.error.is_none() && self.expected.contains(&self.got)
    }
}

/// Judges every reference submission of the package in `dir`, `parallel` at a time.
/// `Err` carries the package's problems when it cannot be loaded.
pub async fn verify(
    dir: &Path,
    config: &SandboxConfig,
    options: &Options,
    parallel: usize,
) -> crate::Result<Vec<Row>> {
    let (problem, _warnings) = problems::load(dir)?;
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
            };
            let res = match Submission::from_file(&reference.path, None, problem.limits.code_bytes)
            {
                Ok(submission) => judge(problem, &submission, config, options, &mut |_| {}).await,
                Err(err) => Err(err),
            };
            match res {
                Ok(report) => {
                    row.got = report.verdict;
                    row.max_cpu_ms = report.tests.iter().map(|t| t.cpu_ms).fold(0.0, f64::max);
                }
                Err(err) => row.error = Some(err.to_string()),
            }
            row
        })
        .buffered(parallel.max(1))
        .collect::<Vec<_>>()
        .await;
    Ok(rows)
}
