//! Problem packages in the Kattis/ICPC format (legacy and the common parts of 2025-09):
//! the types a loaded package is made of, and [`load`].
//!
//! # What is read
//!
//! - `problem.yaml`: `problem_format_version` (absent means `legacy`), `name` (a string or
//!   a map from language codes, English preferred), `type` (2025-09) or `validation` and
//!   `validator_flags` (legacy), and `limits`. Unknown keys are warnings. Our extension
//!   `validator_convention` (both formats) says how a custom output validator is called:
//!   `kattis` (the default) or `testlib` (see [`ValidatorConvention`]).
//! - The statement: `statement/problem.<lang>.{md,tex,pdf}`, or legacy `problem_statement/`.
//! - `data/sample/` and `data/secret/`, with nested groups. Each folder may hold a group
//!   config (`testdata.yaml` in legacy, `test_group.yaml` in 2025-09) with a score, an
//!   aggregation and output validator arguments. The config in `data/` itself gives the
//!   problem's arguments; a group's arguments hold for its cases and subgroups until a
//!   deeper config replaces them; legacy `validator_flags` always come first.
//! - `input_validators/`, `output_validators/` (legacy) or `output_validator/` (2025-09).
//!   A custom output validator (or interactor) is a program: the files of that folder or
//!   of its one subfolder (sources and headers, the language from the files, or `build`
//!   and `run` scripts), or a single source file ([`Problem::output_validator_program`]);
//!   input validators likewise ([`Problem::input_validator_programs`]).
//! - `submissions/<folder>/`: each entry is one submission, expected to get one of the
//!   verdicts of [`Verdict::for_submission_folder`]; other folders are skipped.
//!
//! # Defaults
//!
//! Where `problem.yaml` is silent ([`DEFAULT_LIMITS`]): time limit 1 s (with a warning:
//! the formats derive it from the accepted submissions, which needs a judge, and
//! `judge::timelimit` does; legacy packages may give it in a `.timelimit` file, as
//! DOMjudge and problemtools write it; [`Limits::time_source`] says which), time
//! multipliers 5 and 2 (legacy `time_multiplier`, `time_safety_margin`) or 2 and 1.5
//! (`time_multipliers` of 2023-07 and 2025-09), time resolution 1 s, memory
//! 2048 MiB (the spec's default), output 8 MiB, code 128 KiB, compilation time 60 s,
//! compilation memory 2048 MiB. `memory`, `output` and `compilation_memory` are in MiB,
//! `code` in KiB, times in seconds; fractions are allowed.
//!
//! # Judging order
//!
//! [`Problem::test_cases`]: the samples first, then the secret data depth-first; within a
//! folder, its `.in` files and subfolders together in byte order of their file names (as
//! when sorting the paths: `a.in`, then `b/` with its cases, then `c.in`). The 2025-09
//! format allows either cases or groups in one folder; legacy allows both.
//!
//! # Identity
//!
//! [`Problem::sha256`] ([`content_sha256`]) is the lowercase hex SHA-256 over every
//! regular file below the package folder (hidden files such as `.timelimit` included;
//! symbolic links are not followed and do not count; folders and file modes do not
//! count), taken in byte order of their relative paths written with `/` separators. Each
//! file contributes, in this order: its relative path as UTF-8, one zero byte, its length
//! in bytes as 8 little-endian bytes, and its content. Moving or copying the folder keeps
//! the identity; changing, adding, removing or renaming any file changes it.
//!
//! # Problems found
//!
//! [`load`] never stops at the first problem: every [`Diagnostic`] names its file. An
//! error makes `load` return [`crate::Error::Invalid`] with all of them; warnings come
//! back beside the problem. What is an error depends on the [`LoadMode`]: for judging
//! ([`load_for_judging`]) only what stops judging; for authoring ([`load`]) every check.
//! Unknown `submissions/` folders (`slow_accepted`, `check_manually`, ...) are skipped
//! with a warning in both.

mod diagnostics;
#[cfg(test)]
mod fixture;
mod folder;
mod header;
mod identity;
mod statement;
mod submissions;
mod testdata;
mod validators;
mod yaml;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::Verdict;
use crate::default_validator::DefaultFlags;
use crate::expectation::ScoreRange;
use diagnostics::Ctx;

pub use diagnostics::{Diagnostic, Severity};
pub use identity::content_sha256;
pub use validators::{ProgramLanguage, ValidatorProgram};

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
    /// The problem gives points: `type: scoring` (2025-09), `validation: custom score`
    /// (legacy), or some secret group declares a score.
    pub scoring: bool,
}

impl Problem {
    /// Every test case in judging order: samples first, then the secret data depth-first,
    /// each folder's entries (`.in` files and subfolders alike) in lexicographic order of
    /// their file names, so that the first failing case is the first in path order.
    pub fn test_cases(&self) -> Vec<&TestCase> {
        let mut res = Vec::new();
        self.sample.collect_cases(&mut res);
        self.secret.collect_cases(&mut res);
        res
    }

    /// How the output of `case` is checked: [`Problem::validation`], with the arguments of
    /// the case's test group when its config gives some.
    ///
    /// Group arguments that the default validator rejects were reported by [`load`]; here
    /// they fall back to the problem's flags.
    pub fn validation_for(&self, case: &TestCase) -> Validation {
        let Some(args) = &case.output_validator_args else {
            return self.validation.clone();
        };
        match &self.validation {
            Validation::Default(flags) => {
                Validation::Default(crate::default_validator::parse_flags(args).unwrap_or(*flags))
            }
            Validation::Custom {
                interactive,
                score,
                convention,
                passes,
                ..
            } => Validation::Custom {
                flags: args.clone(),
                interactive: *interactive,
                score: *score,
                convention: *convention,
                passes: *passes,
            },
        }
    }

    /// The custom output validator's source when it is a single file: the one file with
    /// extension `c`, `cpp`, `cc`, `py` or `java` directly in `output_validators/`
    /// (legacy) or `output_validator/` (2025-09) or in one of its subfolders (hidden
    /// entries skipped); `None` when there is no such folder or it holds several sources.
    /// The judge builds the whole program ([`Problem::output_validator_program`]); this
    /// is for tools that show the one file.
    pub fn output_validator_source(&self) -> Option<PathBuf> {
        match validators::sources(self.output_validator.as_deref()?).as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        }
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
    /// Where [`Limits::time`] came from.
    #[serde(default)]
    pub time_source: TimeLimitSource,
    /// How a time limit is derived from the slowest accepted submission, and how far
    /// above it a `time_limit_exceeded` submission must be (see [`TimeMultipliers`]).
    #[serde(default)]
    pub time_multipliers: TimeMultipliers,
    /// What a derived time limit is rounded up to a multiple of, in seconds
    /// (`limits.time_resolution`, 1 by default).
    #[serde(default = "one_second")]
    pub time_resolution: f64,
}

fn one_second() -> f64 {
    1.0
}

/// Where a problem's time limit came from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum TimeLimitSource {
    /// `limits.time_limit` in `problem.yaml`.
    #[serde(rename = "problem.yaml")]
    ProblemYaml,
    /// The legacy `.timelimit` file beside `problem.yaml` (DOMjudge, problemtools).
    #[serde(rename = ".timelimit")]
    TimeLimitFile,
    /// Derived by the judge from the slowest accepted submission times
    /// [`TimeMultipliers::ac_to_time_limit`].
    #[serde(rename = "derived")]
    Derived,
    /// The package gives none and none was derived: [`DEFAULT_LIMITS`]' 1 second.
    #[default]
    #[serde(rename = "default")]
    Default,
}

impl std::fmt::Display for TimeLimitSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TimeLimitSource::ProblemYaml => "problem.yaml",
            TimeLimitSource::TimeLimitFile => ".timelimit",
            TimeLimitSource::Derived => "derived",
            TimeLimitSource::Default => "default",
        })
    }
}

/// The two factors of a derived time limit: legacy `limits.time_multiplier` and
/// `limits.time_safety_margin` (defaults 5 and 2), or `limits.time_multipliers` of
/// 2023-07 and 2025-09 (`ac_to_time_limit`, `time_limit_to_tle`, defaults 2 and 1.5).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TimeMultipliers {
    /// The time limit is at least the slowest accepted submission's time times this.
    pub ac_to_time_limit: f64,
    /// A `time_limit_exceeded` submission must run at least the time limit times this.
    pub time_limit_to_tle: f64,
    /// The package gave at least one of the two (otherwise they are the format's
    /// defaults).
    #[serde(default)]
    pub given: bool,
}

impl TimeMultipliers {
    /// The 2023-07 and 2025-09 defaults.
    pub const MODERN: TimeMultipliers = TimeMultipliers {
        ac_to_time_limit: 2.0,
        time_limit_to_tle: 1.5,
        given: false,
    };
    /// The legacy defaults (`time_multiplier: 5`, `time_safety_margin: 2`).
    pub const LEGACY: TimeMultipliers = TimeMultipliers {
        ac_to_time_limit: 5.0,
        time_limit_to_tle: 2.0,
        given: false,
    };
}

impl Default for TimeMultipliers {
    fn default() -> TimeMultipliers {
        TimeMultipliers::MODERN
    }
}

impl Limits {
    /// The time limit derived from the slowest accepted submission's CPU time `slowest`,
    /// as problemtools computes it (`verifyproblem`, `_compute_time_limit`) and the
    /// 2025-09 format describes it: `slowest × ac_to_time_limit`, rounded up to a
    /// multiple of `time_resolution`, and at least one `time_resolution`.
    pub fn derive_time(&self, slowest: Duration) -> Duration {
        let resolution = if self.time_resolution.is_finite() && self.time_resolution > 0.0 {
            self.time_resolution
        } else {
            1.0
        };
        let exact = slowest.as_secs_f64() * self.time_multipliers.ac_to_time_limit;
        // A product such as 0.3 × 5 = 1.5000000000000002 must not round up a step.
        let steps = ((exact / resolution) - 1e-9).ceil().max(1.0);
        Duration::try_from_secs_f64(steps * resolution).unwrap_or(Duration::MAX)
    }

    /// The time a `time_limit_exceeded` submission must at least take:
    /// the time limit times `time_limit_to_tle`.
    pub fn tle_bound(&self) -> Duration {
        self.time
            .mul_f64(self.time_multipliers.time_limit_to_tle.max(1.0))
    }
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
        /// How the validator is called (`validator_convention` in `problem.yaml`).
        convention: ValidatorConvention,
        /// The most passes the submission may run on one test case: 1, or for a
        /// multi-pass problem (`type: multi-pass`, legacy `validation: custom
        /// multi-pass`) `limits.validation_passes` (default 2). On each pass but the last
        /// the validator may accept and write `nextpass.in` to its feedback folder, the
        /// next pass's input.
        passes: u32,
    },
}

/// How a custom output validator is called: `validator_convention` in `problem.yaml`, an
/// extension of ours accepted in both formats.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ValidatorConvention {
    /// The Kattis/ICPC convention: `validator input answer feedback_dir [args] <
    /// team_output`; exit 42 accepts, 43 rejects, anything else is a judge error; the
    /// reason goes to `feedback_dir/judgemessage.txt`.
    #[default]
    Kattis,
    /// The Codeforces testlib convention: `checker input output answer` (the team output
    /// is a file); exit 0 OK, 1 wrong answer, 2 presentation error (a wrong answer),
    /// 3 the checker failed (a judge error), 7 partial points; the message on stderr.
    Testlib,
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
    /// How the results of this group's cases and subgroups combine, from its config
    /// (`score_aggregation` in 2025-09, `scoring.aggregation` in 2023-07, or the aggregation
    /// word of legacy `grader_flags`); `None` when its config is silent.
    pub aggregation: Option<Aggregation>,
    /// The output validator arguments of this group's cases when they differ from the
    /// problem's (`output_validator_args`, legacy `output_validator_flags`), inherited by
    /// subgroups; `None` means the problem's own ([`Problem::validation`]).
    pub output_validator_args: Option<Vec<String>>,
}

/// How the results in a test group combine into the group's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Aggregation {
    /// All cases must be accepted: the group gets its full score or nothing.
    PassFail,
    /// The sum of the parts.
    Sum,
    /// The minimum of the parts.
    Min,
    /// The maximum of the parts (legacy only).
    Max,
    /// The average of the parts (legacy only).
    Avg,
}

impl Aggregation {
    /// Parses `pass-fail`, `sum`, `min`, `max` or `avg`.
    pub fn from_word(word: &str) -> Option<Aggregation> {
        Some(match word {
            "pass-fail" => Aggregation::PassFail,
            "sum" => Aggregation::Sum,
            "min" => Aggregation::Min,
            "max" => Aggregation::Max,
            "avg" => Aggregation::Avg,
            _ => return None,
        })
    }
}

impl TestGroup {
    /// Depth-first: the folder's entries (case files and subfolders together) in byte order
    /// of their file names, a subfolder's cases where the subfolder comes in that order.
    fn collect_cases<'a>(&'a self, out: &mut Vec<&'a TestCase>) {
        let file_name = |path: &Path| {
            path.file_name()
                .map(|it| it.to_os_string())
                .unwrap_or_default()
        };
        let mut cases = self.cases.iter().peekable();
        for group in &self.groups {
            let group_dir = file_name(Path::new(&group.name));
            while let Some(case) = cases.next_if(|case| file_name(&case.input) < group_dir) {
                out.push(case);
            }
            group.collect_cases(out);
        }
        out.extend(cases);
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
    /// The output validator arguments of its group, when they differ from the problem's
    /// (see [`TestGroup::output_validator_args`] and [`Problem::validation_for`]).
    pub output_validator_args: Option<Vec<String>>,
}

/// A reference solution, the verdicts its folder allows and the score it must get.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReferenceSubmission {
    /// The source file (or folder, for multi-file submissions).
    pub path: PathBuf,
    /// The folder under `submissions/`: `accepted`, `wrong_answer`, ...
    pub folder: String,
    /// The verdicts this folder allows.
    pub expected: Vec<Verdict>,
    /// The total score it must get (scored problems), from `submissions/submissions.yaml`
    /// or its `@EXPECTED_SCORE@` marker (see [`crate::expectation`]). A
    /// `partially_accepted` submission without one must score above 0 and below the
    /// maximum.
    pub score: Option<ScoreRange>,
}

/// Default limits, used where `problem.yaml` is silent.
pub const DEFAULT_LIMITS: Limits = Limits {
    time: Duration::from_secs(1),
    memory_bytes: 2048 * MIB,
    output_bytes: 8 * MIB,
    compilation_time: Duration::from_secs(60),
    compilation_memory_bytes: 2048 * MIB,
    code_bytes: 128 * 1024,
    time_source: TimeLimitSource::Default,
    time_multipliers: TimeMultipliers::MODERN,
    time_resolution: 1.0,
};

/// What a package is loaded for: which problems stop it from loading.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum LoadMode {
    /// Judging submissions (`judge run`, the contest server, the agent): only what
    /// stops judging is an error (no test case, unreadable test data or limits, a custom
    /// validator that is missing). Problems with the reference submissions, the
    /// statement or the input validators, and a package with samples only, are warnings.
    Judge,
    /// Writing or checking one's own package (`judge verify`): every check is an error
    /// where the format says so. Unknown submission folders are skipped with a warning
    /// in both modes.
    #[default]
    Author,
}

const MIB: u64 = 1024 * 1024;

/// Loads the package in `dir` for its author ([`LoadMode::Author`]: every check),
/// returning the problem and its warnings.
///
/// Returns `Err` when the package is not valid, listing every problem found (errors and
/// warnings), not only the first.
pub fn load(dir: &Path) -> crate::Result<(Problem, Vec<Diagnostic>)> {
    load_with(dir, LoadMode::Author)
}

/// Loads the package in `dir` to judge submissions against it ([`LoadMode::Judge`]):
/// `Err` only when it cannot be judged.
pub fn load_for_judging(dir: &Path) -> crate::Result<(Problem, Vec<Diagnostic>)> {
    load_with(dir, LoadMode::Judge)
}

/// Loads the package in `dir` for `mode`, returning the problem and its warnings;
/// `Err` lists every problem found (errors and warnings), not only the first.
pub fn load_with(dir: &Path, mode: LoadMode) -> crate::Result<(Problem, Vec<Diagnostic>)> {
    check_is_folder(dir)?;
    let root = dir.to_path_buf();
    let mut ctx = Ctx::new(root.clone(), mode);
    let short_name = short_name(&root);
    let header = header::read(&mut ctx, &root, &short_name);
    let data = testdata::read(&mut ctx, &root.join("data"), &header.validator_flags);
    let output_validator = validators::find_output_validator(&root);
    let validation = validators::validation(
        &mut ctx,
        &root,
        &header,
        data.problem_args,
        output_validator.as_deref(),
    );
    if matches!(validation, Validation::Default(_)) {
        validators::check_group_flags(&mut ctx, &data.group_args);
    }
    let scoring = header.score || testdata::any_score(&data.secret);
    // What judging does not read: under `LoadMode::Judge` its errors are warnings.
    let mark = ctx.mark();
    let statement = statement::find(&mut ctx, &root);
    let input_validators = validators::input_validators(&mut ctx, &root);
    let submissions = submissions::read(&mut ctx, &root.join("submissions"), scoring);
    ctx.only_for_authors_since(mark);
    let sha256 = identity::hash_or_report(&mut ctx, &root);
    ctx.finish(Problem {
        root,
        short_name,
        name: header.name,
        limits: header.limits,
        validation,
        sha256,
        statement,
        sample: data.sample,
        secret: data.secret,
        input_validators,
        output_validator,
        submissions,
        scoring,
    })
}

/// An I/O error unless `dir` is a folder.
fn check_is_folder(dir: &Path) -> crate::Result<()> {
    let meta = std::fs::metadata(dir).map_err(|source| crate::Error::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    if !meta.is_dir() {
        return Err(crate::Error::Io {
            path: dir.to_path_buf(),
            source: std::io::Error::new(
                std::io::ErrorKind::NotADirectory,
                "a problem package is a folder",
            ),
        });
    }
    Ok(())
}

/// The package folder's own name (after resolving links and `..`), else `root` as given.
fn short_name(root: &Path) -> String {
    root.canonicalize()
        .ok()
        .and_then(|it| it.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| root.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::fixture::{good_package, with_problem_yaml, write};
    use super::*;

    #[test]
    fn loads_a_good_package_in_judging_order() {
        let dir = good_package();
        let (problem, diagnostics) = load(dir.path()).expect("loads");
        assert_eq!(diagnostics, vec![]);
        assert_eq!(problem.name, "Add");
        assert_eq!(problem.limits.time, Duration::from_secs(2));
        assert_eq!(problem.limits.memory_bytes, 64 * MIB);
        assert_eq!(problem.limits.output_bytes, DEFAULT_LIMITS.output_bytes);
        let names: Vec<&str> = problem
            .test_cases()
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        assert_eq!(
            names,
            vec!["sample/1", "secret/a", "secret/b", "secret/group1/x"]
        );
        assert!(problem.test_cases()[0].is_sample);
        assert_eq!(problem.submissions.len(), 2);
        assert_eq!(
            problem.submissions[1].expected,
            vec![Verdict::RTE, Verdict::MLE]
        );
        assert_eq!(
            problem.validation,
            Validation::Default(DefaultFlags::default())
        );
        assert_eq!(problem.sha256.len(), 64);
    }

    #[test]
    fn a_broken_package_reports_every_problem_with_its_file() {
        let dir = with_problem_yaml(
            "name: Broken\nvalidation: custom\nlimits:\n  memory: -3\n  colour: red\nfoo: 1\n",
        );
        let root = dir.path();
        write(root, "data/secret/lonely.in", "1\n");
        write(root, "submissions/slow/a.py", "");
        let Err(crate::Error::Invalid { diagnostics, .. }) = load(root) else {
            panic!("must fail")
        };
        let lines: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
        expect_test::expect![[r#"
            [
                "warning: problem.yaml: unknown key `foo` for format legacy",
                "error: problem.yaml: limit `memory` must be a positive number, found -3",
                "warning: problem.yaml: unknown limit `colour`",
                "warning: problem.yaml: no time limit (limits.time_limit or .timelimit): the judge derives it from the slowest accepted submission times 5, or uses 1 second without one",
                "error: data/secret/lonely.in: test case has no answer file lonely.ans",
                "error: output_validators: the problem uses a custom validator but has none",
                "warning: submissions/slow: unknown submissions folder, skipped: the judge knows accepted, wrong_answer, time_limit_exceeded, run_time_error, memory_limit_exceeded, output_limit_exceeded, compile_error, rejected, brute_force and partially_accepted",
            ]
        "#]]
        .assert_debug_eq(&lines);
    }

    #[test]
    fn missing_secret_data_and_problem_yaml_are_errors() {
        let dir = tempfile::tempdir().expect("tempdir");
        let Err(crate::Error::Invalid { diagnostics, .. }) = load(dir.path()) else {
            panic!("must fail")
        };
        let errors: Vec<String> = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(ToString::to_string)
            .collect();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].contains("problem.yaml: missing"));
        assert!(errors[1].contains("data/secret: missing"), "{errors:?}");
    }
}
