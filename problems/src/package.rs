//! Problem packages in the Kattis/ICPC format (legacy and the common parts of 2025-09):
//! the types a loaded package is made of, and [`load`].
//!
//! SKELETON: the types are the contract between `problems` and `judge`; `load` is being
//! written (see issue 3).

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::Verdict;
use crate::default_validator::DefaultFlags;

/// A loaded problem package.
#[derive(Debug, Clone, Serialize)]
pub struct Problem {
    /// The package folder.
    pub root: PathBuf,
    /// The short name: the package folder's name.
    pub short_name: String,
    /// The problem's display name from `problem.yaml`.
    pub name: String,
    /// Limits that apply to every run of a submission.
    pub limits: Limits,
    /// How output is checked.
    pub validation: Validation,
    /// Hex SHA-256 of the package's content (paths and bytes, in a fixed order).
    pub sha256: String,
    /// The statement file (`statement/problem.en.md` or the legacy `problem_statement/`).
    pub statement: Option<PathBuf>,
    /// `data/sample`.
    pub sample: TestGroup,
    /// `data/secret`, with nested groups.
    pub secret: TestGroup,
    /// Files under `input_validators/`.
    pub input_validators: Vec<PathBuf>,
    /// The folder or file under `output_validators/`, when the package has one.
    pub output_validator: Option<PathBuf>,
    /// Reference solutions under `submissions/<folder>/`.
    pub submissions: Vec<ReferenceSubmission>,
}

impl Problem {
    /// Every test case in judging order: samples first, then secret groups depth-first,
    /// each folder's cases in lexicographic order of their names.
    pub fn test_cases(&self) -> Vec<&TestCase> {
        let mut res = Vec::new();
        self.sample.collect_cases(&mut res);
        self.secret.collect_cases(&mut res);
        res
    }
}

/// Limits for running (and compiling) a submission.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    /// CPU time per test case (all threads counted); wall time is a multiple of it.
    pub time: Duration,
    /// Peak memory per test case, in bytes, enforced by the kernel.
    pub memory_bytes: u64,
    /// Output per test case, in bytes.
    pub output_bytes: u64,
    /// Wall time for compiling.
    pub compilation_time: Duration,
    /// Memory for compiling, in bytes.
    pub compilation_memory_bytes: u64,
    /// Largest accepted source, in bytes.
    pub code_bytes: u64,
}

/// How a submission's output is checked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Validation {
    /// The Kattis default output validator with its flags.
    Default(DefaultFlags),
    /// A custom output validator from `output_validators/`.
    Custom {
        /// Extra arguments passed to the validator.
        flags: Vec<String>,
        /// The validator is the interactor.
        interactive: bool,
        /// The validator writes `score.txt`.
        score: bool,
    },
}

/// A folder of test cases, possibly with subgroups (`data/secret/<group>/`).
#[derive(Debug, Clone, Default, Serialize)]
pub struct TestGroup {
    /// Path relative to `data/`, with `/` separators: `sample`, `secret`, `secret/group1`.
    pub name: String,
    /// Test cases directly in this folder.
    pub cases: Vec<TestCase>,
    /// Subfolders.
    pub groups: Vec<TestGroup>,
    /// Points for this group (scored problems), from its `testdata.yaml`.
    pub score: Option<f64>,
}

impl TestGroup {
    fn collect_cases<'a>(&'a self, out: &mut Vec<&'a TestCase>) {
        out.extend(self.cases.iter());
        for group in &self.groups {
            group.collect_cases(out);
        }
    }
}

/// One test case: an `.in` file and its `.ans` file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TestCase {
    /// Path relative to `data/` without the extension: `secret/group1/03-random`.
    pub name: String,
    /// The `.in` file.
    pub input: PathBuf,
    /// The `.ans` file.
    pub answer: PathBuf,
    /// Whether it is under `data/sample`.
    pub is_sample: bool,
}

/// A reference solution and the verdicts its folder allows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReferenceSubmission {
    /// The source file (or folder, for multi-file submissions).
    pub path: PathBuf,
    /// The folder under `submissions/`: `accepted`, `wrong_answer`, ...
    pub folder: String,
    /// The verdicts this folder allows.
    pub expected: Vec<Verdict>,
}

/// How serious a [`Diagnostic`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Severity {
    /// The package cannot be judged correctly.
    Error,
    /// Suspicious but usable.
    Warning,
}

/// One problem found in a package, with the file it concerns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// How serious it is.
    pub severity: Severity,
    /// The file or folder concerned.
    pub path: PathBuf,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let level = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{level}: {}: {}", self.path.display(), self.message)
    }
}

/// Loads the package in `dir`, returning the problem and every lesser problem found.
///
/// Returns `Err` only when the package cannot be judged at all, and then lists every
/// problem found, not only the first.
pub fn load(dir: &Path) -> crate::Result<(Problem, Vec<Diagnostic>)> {
    Err(crate::Error::Invalid {
        path: dir.to_path_buf(),
        diagnostics: vec![Diagnostic {
            severity: Severity::Error,
            path: dir.to_path_buf(),
            message: "package loading is not written yet".to_owned(),
        }],
    })
}
