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
//!   A custom output validator is one source file (`.c`, `.cpp`, `.cc`, `.py`, `.java`)
//!   directly in that folder or in one subfolder ([`Problem::output_validator_source`]).
//! - `submissions/<folder>/`: each entry is one submission, expected to get one of the
//!   verdicts of [`Verdict::for_submission_folder`].
//!
//! # Defaults
//!
//! Where `problem.yaml` is silent ([`DEFAULT_LIMITS`]): time limit 1 s (with a warning:
//! the spec derives it from the accepted submissions, which needs a judge; legacy packages
//! may give it in a `.timelimit` file, as DOMjudge and problemtools write it), memory
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
//! error (the package cannot be judged correctly) makes `load` return
//! [`crate::Error::Invalid`] with all of them; warnings come back beside the problem.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::Verdict;
use crate::default_validator::DefaultFlags;
use crate::expectation::ScoreRange;

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
                ..
            } => Validation::Custom {
                flags: args.clone(),
                interactive: *interactive,
                score: *score,
                convention: *convention,
            },
        }
    }

    /// The single source file of the custom output validator: the one file with extension
    /// `c`, `cpp`, `cc`, `py` or `java` directly in `output_validators/` (legacy) or
    /// `output_validator/` (2025-09) or in one of its subfolders (hidden entries skipped).
    ///
    /// `None` when the package has no such folder or it holds zero or several sources;
    /// [`load`] reports the latter as an error for a problem with custom validation.
    pub fn output_validator_source(&self) -> Option<PathBuf> {
        match validator_sources(self.output_validator.as_deref()?).as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        }
    }
}

/// Extensions of output validator sources.
const VALIDATOR_EXTENSIONS: &[&str] = &["c", "cpp", "cc", "py", "java"];

/// Every validator source file in `root` (a folder, or the source file itself) and in its
/// immediate subfolders, in path order.
fn validator_sources(root: &Path) -> Vec<PathBuf> {
    let is_source = |path: &Path| {
        path.is_file()
            && path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| VALIDATOR_EXTENSIONS.contains(&e))
    };
    if root.is_file() {
        return if is_source(root) {
            vec![root.to_path_buf()]
        } else {
            Vec::new()
        };
    }
    let mut res = Vec::new();
    for entry in list_entries(root) {
        if entry.is_dir() {
            res.extend(list_entries(&entry).into_iter().filter(|p| is_source(p)));
        } else if is_source(&entry) {
            res.push(entry);
        }
    }
    res.sort();
    res
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
        /// How the validator is called (`validator_convention` in `problem.yaml`).
        convention: ValidatorConvention,
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

/// Default limits, used where `problem.yaml` is silent.
pub const DEFAULT_LIMITS: Limits = Limits {
    time: Duration::from_secs(1),
    memory_bytes: 2048 * MIB,
    output_bytes: 8 * MIB,
    compilation_time: Duration::from_secs(60),
    compilation_memory_bytes: 2048 * MIB,
    code_bytes: 128 * 1024,
};

const MIB: u64 = 1024 * 1024;

const LEGACY_KEYS: &[&str] = &[
    "problem_format_version",
    "type",
    "name",
    "uuid",
    "author",
    "source",
    "source_url",
    "license",
    "rights_owner",
    "limits",
    "validation",
    "validator_flags",
    "validator_convention",
    "grading",
    "keywords",
];

const MODERN_KEYS: &[&str] = &[
    "problem_format_version",
    "type",
    "name",
    "uuid",
    "version",
    "credits",
    "source",
    "license",
    "rights_owner",
    "embargo_until",
    "limits",
    "keywords",
    "languages",
    "allow_file_writing",
    "constants",
    "validator_convention",
];

const LIMIT_KEYS: &[&str] = &[
    "time_limit",
    "time_multiplier",
    "time_safety_margin",
    "time_multipliers",
    "time_resolution",
    "memory",
    "output",
    "code",
    "compilation_time",
    "compilation_memory",
    "validation_time",
    "validation_memory",
    "validation_output",
    "validation_passes",
];

/// Collects diagnostics while a package is read.
struct Ctx {
    root: PathBuf,
    diagnostics: Vec<Diagnostic>,
    /// Legacy `validator_flags`, which come before a group's own flags.
    base_flags: Vec<String>,
    /// Each group config that sets validator arguments, with the full arguments it gives.
    group_args: Vec<(PathBuf, Vec<String>)>,
}

impl Ctx {
    fn error(&mut self, path: &Path, message: impl Into<String>) {
        self.push(Severity::Error, path, message.into());
    }

    fn warning(&mut self, path: &Path, message: impl Into<String>) {
        self.push(Severity::Warning, path, message.into());
    }

    fn push(&mut self, severity: Severity, path: &Path, message: String) {
        let path = path
            .strip_prefix(&self.root)
            .map(Path::to_path_buf)
            .unwrap_or_else(|_| path.to_path_buf());
        self.diagnostics.push(Diagnostic {
            severity,
            path,
            message,
        });
    }

    fn read_yaml(&mut self, path: &Path) -> Option<serde_yaml::Value> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(err) => {
                self.error(path, format!("cannot read: {err}"));
                return None;
            }
        };
        if text.trim().is_empty() {
            return Some(serde_yaml::Value::Mapping(Default::default()));
        }
        match serde_yaml::from_str::<serde_yaml::Value>(&text) {
            Ok(serde_yaml::Value::Null) => Some(serde_yaml::Value::Mapping(Default::default())),
            Ok(value @ serde_yaml::Value::Mapping(_)) => Some(value),
            Ok(_) => {
                self.error(path, "expected a YAML mapping at the top level");
                None
            }
            Err(err) => {
                let at = err
                    .location()
                    .map(|loc| format!(" at line {}, column {}", loc.line(), loc.column()))
                    .unwrap_or_default();
                self.error(path, format!("malformed YAML{at}: {err}"));
                None
            }
        }
    }
}

/// Loads the package in `dir`, returning the problem and its warnings.
///
/// Returns `Err` when the package cannot be judged correctly, listing every problem
/// found (errors and warnings), not only the first.
pub fn load(dir: &Path) -> crate::Result<(Problem, Vec<Diagnostic>)> {
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
    let root = dir.to_path_buf();
    let mut ctx = Ctx {
        root: root.clone(),
        diagnostics: Vec::new(),
        base_flags: Vec::new(),
        group_args: Vec::new(),
    };
    let short_name = root
        .canonicalize()
        .ok()
        .and_then(|it| it.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| root.display().to_string());

    let yaml_path = root.join("problem.yaml");
    let yaml = if yaml_path.is_file() {
        ctx.read_yaml(&yaml_path)
    } else {
        ctx.error(&yaml_path, "missing: every package needs a problem.yaml");
        None
    };
    let header_start = ctx.diagnostics.len();
    let header = read_header(
        &mut ctx,
        &yaml_path,
        yaml.as_ref()
            .unwrap_or(&serde_yaml::Value::Mapping(Default::default())),
        &short_name,
    );
    if yaml.is_none() {
        // Without a readable problem.yaml every default is a guess: its error is enough.
        ctx.diagnostics.truncate(header_start);
    }

    let data = root.join("data");
    // The config in `data/` itself applies to every group: its arguments become the
    // problem's. A group's arguments replace those of the groups above it; legacy
    // `validator_flags` from problem.yaml always come first.
    let mut flags = header.validator_flags.clone();
    let mut flags_source = yaml_path.clone();
    ctx.base_flags = header.validator_flags.clone();
    for name in ["testdata.yaml", "test_group.yaml"] {
        let path = data.join(name);
        if path.is_file()
            && let Some(args) = read_group_config(&mut ctx, &path, &mut TestGroup::default())
        {
            flags = [header.validator_flags.clone(), args].concat();
            flags_source = path;
        }
    }
    let sample = read_group(&mut ctx, &data.join("sample"), "sample", true, false, None);
    let secret = read_group(&mut ctx, &data.join("secret"), "secret", false, true, None);
    if secret.cases.is_empty() && secret.groups.is_empty() && data.join("secret").is_dir() {
        ctx.error(&data.join("secret"), "has no test cases");
    }

    let output_validator = ["output_validators", "output_validator"]
        .iter()
        .map(|name| root.join(name))
        .find(|path| path.exists());
    let validation = if header.custom {
        match &output_validator {
            None => ctx.error(
                &root.join("output_validators"),
                "the problem uses a custom validator but has none",
            ),
            Some(path) => {
                let sources = validator_sources(path);
                if sources.len() != 1 {
                    let found = sources
                        .iter()
                        .map(|p| p.strip_prefix(&root).unwrap_or(p).display().to_string())
                        .collect::<Vec<_>>();
                    ctx.error(
                        path,
                        format!(
                            "expected exactly one validator source (.{}) in the folder or one \
                             subfolder, found {}{}",
                            VALIDATOR_EXTENSIONS.join(", ."),
                            sources.len(),
                            if found.is_empty() {
                                String::new()
                            } else {
                                format!(": {}", found.join(", "))
                            }
                        ),
                    );
                }
            }
        }
        Validation::Custom {
            flags,
            interactive: header.interactive,
            score: header.score,
            convention: header.convention,
        }
    } else {
        if header.convention_given {
            ctx.warning(
                &yaml_path,
                "`validator_convention` has no effect without a custom output validator",
            );
        }
        match crate::default_validator::parse_flags(&flags) {
            Ok(parsed) => Validation::Default(parsed),
            Err(message) => {
                ctx.error(&flags_source, format!("validator flags: {message}"));
                Validation::Default(DefaultFlags::default())
            }
        }
    };
    if matches!(validation, Validation::Default(_)) {
        for (path, args) in std::mem::take(&mut ctx.group_args) {
            if let Err(message) = crate::default_validator::parse_flags(&args) {
                ctx.error(&path, format!("validator flags: {message}"));
            }
        }
    }

    let statement = find_statement(&mut ctx, &root);
    let input_validators = list_entries(&root.join("input_validators"));
    if input_validators.is_empty() {
        ctx.warning(
            &root.join("input_validators"),
            "no input validators: test data is not checked",
        );
    }
    fn any_score(group: &TestGroup) -> bool {
        group.score.is_some() || group.groups.iter().any(any_score)
    }
    let scoring = header.score || any_score(&secret);
    let submissions = read_submissions(&mut ctx, &root.join("submissions"), scoring);

    let sha256 = match content_sha256(&root) {
        Ok(it) => it,
        Err(err) => {
            ctx.error(&root, format!("cannot hash the package: {err}"));
            String::new()
        }
    };

    let problem = Problem {
        root: root.clone(),
        short_name,
        name: header.name,
        limits: header.limits,
        validation,
        sha256,
        statement,
        sample,
        secret,
        input_validators,
        output_validator,
        submissions,
        scoring,
    };
    if ctx
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error)
    {
        return Err(crate::Error::Invalid {
            path: root,
            diagnostics: ctx.diagnostics,
        });
    }
    Ok((problem, ctx.diagnostics))
}

/// What `problem.yaml` says, in our terms.
struct Header {
    name: String,
    limits: Limits,
    custom: bool,
    interactive: bool,
    score: bool,
    validator_flags: Vec<String>,
    convention: ValidatorConvention,
    /// `validator_convention` was in `problem.yaml`.
    convention_given: bool,
}

fn read_header(ctx: &mut Ctx, path: &Path, yaml: &serde_yaml::Value, short_name: &str) -> Header {
    let version = yaml
        .get("problem_format_version")
        .and_then(|v| v.as_str())
        .unwrap_or("legacy")
        .to_owned();
    let modern = match version.as_str() {
        "legacy" | "legacy-icpc" => false,
        "2025-09" | "2023-07-draft" | "2023-07" => true,
        other => {
            ctx.error(
                path,
                format!(
                    "problem_format_version `{other}` is not one of legacy, 2023-07-draft, 2025-09"
                ),
            );
            false
        }
    };
    if let Some(map) = yaml.as_mapping() {
        let known = if modern { MODERN_KEYS } else { LEGACY_KEYS };
        for key in map.keys() {
            let key = key.as_str().unwrap_or("<non-string key>");
            if !known.contains(&key) {
                ctx.warning(path, format!("unknown key `{key}` for format {version}"));
            }
        }
    }

    let name = match yaml.get("name") {
        Some(serde_yaml::Value::String(name)) => name.clone(),
        Some(serde_yaml::Value::Mapping(map)) => map
            .get("en")
            .or_else(|| map.values().next())
            .and_then(|v| v.as_str())
            .unwrap_or(short_name)
            .to_owned(),
        Some(_) => {
            ctx.error(
                path,
                "`name` must be a string or a map from language codes to strings",
            );
            short_name.to_owned()
        }
        None => {
            if modern {
                ctx.error(path, "`name` is required");
            } else {
                ctx.warning(path, "no `name`: using the folder name");
            }
            short_name.to_owned()
        }
    };
    if modern && yaml.get("uuid").is_none() {
        ctx.warning(path, "no `uuid`: the 2025-09 format requires one");
    }

    let types: Vec<String> = match yaml.get("type") {
        None => vec!["pass-fail".to_owned()],
        Some(value) => yaml_words(value),
    };
    for kind in &types {
        if ![
            "pass-fail",
            "scoring",
            "interactive",
            "multi-pass",
            "submit-answer",
        ]
        .contains(&kind.as_str())
        {
            ctx.error(path, format!("unknown problem type `{kind}`"));
        }
    }
    if types.iter().any(|t| t == "multi-pass") {
        ctx.warning(
            path,
            "type `multi-pass` is not supported by the judge: only the first pass runs",
        );
    }
    let mut interactive = types.iter().any(|t| t == "interactive");
    let mut score = types.iter().any(|t| t == "scoring");
    let mut custom = modern && (interactive || path.with_file_name("output_validator").exists());
    let mut validator_flags = Vec::new();
    if !modern {
        if let Some(value) = yaml.get("validation") {
            let words = yaml_words(value);
            match words.first().map(String::as_str) {
                Some("default") | None => {}
                Some("custom") => custom = true,
                Some(other) => ctx.error(
                    path,
                    format!("`validation: {other}` is neither default nor custom"),
                ),
            }
            for word in words.iter().skip(1) {
                match word.as_str() {
                    "interactive" => interactive = true,
                    "score" => score = true,
                    other => ctx.error(path, format!("unknown validation option `{other}`")),
                }
            }
        }
        if let Some(value) = yaml.get("validator_flags") {
            validator_flags = yaml_words(value);
        }
    }

    let convention_given = yaml.get("validator_convention").is_some();
    let convention = match yaml.get("validator_convention") {
        None => ValidatorConvention::Kattis,
        Some(serde_yaml::Value::String(s)) if s == "kattis" => ValidatorConvention::Kattis,
        Some(serde_yaml::Value::String(s)) if s == "testlib" => ValidatorConvention::Testlib,
        Some(other) => {
            let shown = match other {
                serde_yaml::Value::String(s) => s.clone(),
                other => serde_yaml::to_string(other)
                    .map(|s| s.trim().to_owned())
                    .unwrap_or_else(|_| format!("{other:?}")),
            };
            ctx.error(
                path,
                format!("`validator_convention: {shown}` is neither kattis nor testlib"),
            );
            ValidatorConvention::Kattis
        }
    };

    let mut limits = DEFAULT_LIMITS;
    let mut have_time = false;
    if let Some(value) = yaml.get("limits") {
        match value.as_mapping() {
            None => ctx.error(path, "`limits` must be a mapping"),
            Some(map) => {
                for (key, value) in map {
                    let key = key.as_str().unwrap_or("<non-string key>");
                    if !LIMIT_KEYS.contains(&key) {
                        ctx.warning(path, format!("unknown limit `{key}`"));
                        continue;
                    }
                    let Some(number) = value.as_f64().filter(|n| n.is_finite() && *n > 0.0) else {
                        if !matches!(key, "time_multipliers") {
                            ctx.error(
                                path,
                                format!("limit `{key}` must be a positive number, found {value:?}"),
                            );
                        }
                        continue;
                    };
                    match key {
                        "time_limit" | "compilation_time" => {
                            let Ok(duration) = Duration::try_from_secs_f64(number) else {
                                ctx.error(
                                    path,
                                    format!("limit `{key}` is too large: {number} seconds"),
                                );
                                continue;
                            };
                            if key == "time_limit" {
                                limits.time = duration;
                                have_time = true;
                            } else {
                                limits.compilation_time = duration;
                            }
                        }
                        "memory" => limits.memory_bytes = (number * MIB as f64) as u64,
                        "output" => limits.output_bytes = (number * MIB as f64) as u64,
                        "code" => limits.code_bytes = (number * 1024.0) as u64,
                        "compilation_memory" => {
                            limits.compilation_memory_bytes = (number * MIB as f64) as u64
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    let timelimit_file = path.with_file_name(".timelimit");
    if !have_time && timelimit_file.is_file() {
        match std::fs::read_to_string(&timelimit_file).map(|t| t.trim().parse::<f64>()) {
            Ok(Ok(seconds)) if seconds.is_finite() && seconds > 0.0 => {
                match Duration::try_from_secs_f64(seconds) {
                    Ok(duration) => {
                        limits.time = duration;
                        have_time = true;
                    }
                    Err(_) => ctx.error(&timelimit_file, format!("{seconds} seconds is too large")),
                }
            }
            _ => ctx.error(&timelimit_file, "must hold a positive number of seconds"),
        }
    }
    if !have_time {
        ctx.warning(
            path,
            "no time limit (limits.time_limit or .timelimit): using 1 second",
        );
    }
    Header {
        name,
        limits,
        custom,
        interactive,
        score,
        validator_flags,
        convention,
        convention_given,
    }
}

/// A YAML scalar or list as words: `"custom interactive"` and `[custom, interactive]`
/// both give `["custom", "interactive"]`.
fn yaml_words(value: &serde_yaml::Value) -> Vec<String> {
    match value {
        serde_yaml::Value::String(s) => s.split_whitespace().map(str::to_owned).collect(),
        serde_yaml::Value::Sequence(items) => items
            .iter()
            .flat_map(|it| match it {
                serde_yaml::Value::String(s) => vec![s.clone()],
                serde_yaml::Value::Number(n) => vec![n.to_string()],
                _ => vec![],
            })
            .collect(),
        serde_yaml::Value::Number(n) => vec![n.to_string()],
        _ => Vec::new(),
    }
}

/// Keys of a test group's config (`testdata.yaml` in legacy, `test_group.yaml` in 2025-09).
const GROUP_KEYS: &[&str] = &[
    // legacy
    "on_reject",
    "grading",
    "grader_flags",
    "input_validator_flags",
    "output_validator_flags",
    "accept_score",
    "reject_score",
    "range",
    // 2023-07 and 2025-09
    "args",
    "input_validator_args",
    "output_validator_args",
    "test_case_visualizer_args",
    "output_visualizer_args",
    "input_visualizer_args",
    "full_feedback",
    "max_score",
    "score_aggregation",
    "require_pass",
    "static_validation_score",
    "scoring",
    "score",
];

/// Reads one group's config file into `group`; returns the arguments it sets.
fn read_group_config(ctx: &mut Ctx, path: &Path, group: &mut TestGroup) -> Option<Vec<String>> {
    let value = ctx.read_yaml(path)?;
    for key in value
        .as_mapping()
        .map(|m| m.keys().collect::<Vec<_>>())
        .unwrap_or_default()
    {
        let key = key.as_str().unwrap_or("<non-string key>");
        if !GROUP_KEYS.contains(&key) {
            ctx.warning(path, format!("unknown test group key `{key}`"));
        }
    }
    let scoring = value.get("scoring");
    let score = value
        .get("max_score")
        .or_else(|| value.get("score"))
        .or_else(|| scoring.and_then(|it| it.get("score")));
    if let Some(score) = score {
        match score.as_f64() {
            Some(points) if points.is_finite() && points >= 0.0 => group.score = Some(points),
            _ => ctx.error(
                path,
                format!("the group score must be a non-negative number, found {score:?}"),
            ),
        }
    }
    let mut aggregation_words = Vec::new();
    if let Some(value) = value
        .get("score_aggregation")
        .or_else(|| scoring.and_then(|it| it.get("aggregation")))
    {
        aggregation_words = yaml_words(value);
        if aggregation_words.len() != 1 {
            ctx.error(
                path,
                format!("`score_aggregation` must be one word, found {value:?}"),
            );
        }
    } else if let Some(value) = value.get("grader_flags") {
        // Legacy grader flags mix the aggregation with verdict rules: keep the aggregation.
        aggregation_words = yaml_words(value)
            .into_iter()
            .filter(|w| Aggregation::from_word(w).is_some())
            .collect();
    }
    for word in aggregation_words {
        match Aggregation::from_word(&word) {
            Some(it) => group.aggregation = Some(it),
            None => ctx.error(
                path,
                format!("unknown score aggregation `{word}` (pass-fail, sum, min, max or avg)"),
            ),
        }
    }
    value
        .get("output_validator_args")
        .or_else(|| value.get("output_validator_flags"))
        .map(yaml_words)
}

fn read_group(
    ctx: &mut Ctx,
    dir: &Path,
    name: &str,
    is_sample: bool,
    required: bool,
    inherited_args: Option<Vec<String>>,
) -> TestGroup {
    let mut group = TestGroup {
        name: name.to_owned(),
        output_validator_args: inherited_args,
        ..TestGroup::default()
    };
    let entries = match sorted_entries(dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            if required {
                ctx.error(dir, "missing: every package needs secret test data");
            }
            return group;
        }
        Err(err) => {
            ctx.error(dir, format!("cannot read test data folder: {err}"));
            return group;
        }
    };
    for config in ["testdata.yaml", "test_group.yaml"] {
        let path = dir.join(config);
        if path.is_file()
            && let Some(args) = read_group_config(ctx, &path, &mut group)
        {
            let args = [ctx.base_flags.clone(), args].concat();
            ctx.group_args.push((path, args.clone()));
            group.output_validator_args = Some(args);
        }
    }
    for path in entries {
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if path.is_dir() {
            if file_name.ends_with(".files") {
                continue;
            }
            // A linked folder may lead back above itself (`link -> ..`): loading would go
            // round the loop, so test groups must be real folders.
            if path
                .symlink_metadata()
                .is_ok_and(|m| m.file_type().is_symlink())
            {
                ctx.error(
                    &path,
                    "is a symbolic link to a folder; a test group must be a real folder",
                );
                continue;
            }
            let sub = read_group(
                ctx,
                &path,
                &format!("{name}/{file_name}"),
                is_sample,
                false,
                group.output_validator_args.clone(),
            );
            group.groups.push(sub);
        } else if let Some(stem) = file_name.strip_suffix(".in") {
            let answer = path.with_file_name(format!("{stem}.ans"));
            if !answer.is_file() {
                ctx.error(&path, format!("test case has no answer file {stem}.ans"));
                continue;
            }
            group.cases.push(TestCase {
                name: format!("{name}/{stem}"),
                input: path.clone(),
                answer,
                is_sample,
                output_validator_args: group.output_validator_args.clone(),
            });
        } else if let Some(stem) = file_name.strip_suffix(".ans")
            && !path.with_file_name(format!("{stem}.in")).is_file()
        {
            ctx.warning(
                &path,
                format!("answer file without an input file {stem}.in"),
            );
        }
    }
    group
}

fn find_statement(ctx: &mut Ctx, root: &Path) -> Option<PathBuf> {
    for folder in ["statement", "problem_statement"] {
        let dir = root.join(folder);
        let Ok(entries) = sorted_entries(&dir) else {
            continue;
        };
        let found = entries.iter().find(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            name.starts_with("problem.")
                && [".md", ".tex", ".pdf"]
                    .iter()
                    .any(|ext| name.ends_with(ext))
        });
        if let Some(path) = found {
            return Some(path.clone());
        }
    }
    ctx.warning(
        &root.join("statement"),
        "no statement (statement/problem.<lang>.md, .tex or .pdf)",
    );
    None
}

fn read_submissions(ctx: &mut Ctx, dir: &Path, scoring: bool) -> Vec<ReferenceSubmission> {
    let mut res = Vec::new();
    let Ok(folders) = sorted_entries(dir) else {
        ctx.warning(dir, "no reference submissions");
        return res;
    };
    for folder in folders.into_iter().filter(|p| p.is_dir()) {
        let name = folder
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let Some(expected) = Verdict::for_submission_folder(&name) else {
            ctx.error(
                &folder,
                "unknown submissions folder: expected accepted, wrong_answer, time_limit_exceeded, \
                 run_time_error, memory_limit_exceeded, output_limit_exceeded, compile_error, \
                 rejected, brute_force or partially_accepted",
            );
            continue;
        };
        if name == "partially_accepted" && !scoring {
            ctx.error(
                &folder,
                "partially accepted submissions need a scored problem (`type: scoring` or group scores)",
            );
        }
        for path in list_entries(&folder) {
            res.push(ReferenceSubmission {
                path,
                folder: name.clone(),
                expected: expected.to_vec(),
                score: None,
            });
        }
    }
    if !res.iter().any(|s| s.folder == "accepted") {
        ctx.warning(dir, "no accepted submission");
    }
    read_expected_scores(ctx, dir, scoring, &mut res);
    res
}

/// Sets each submission's expected score from `submissions.yaml` and its
/// `@EXPECTED_SCORE@` marker (see [`crate::expectation`]).
fn read_expected_scores(
    ctx: &mut Ctx,
    dir: &Path,
    scoring: bool,
    submissions: &mut [ReferenceSubmission],
) {
    use crate::expectation::{glob_matches, marker_score, score_rules};
    let yaml_path = dir.join("submissions.yaml");
    let mut rules = Vec::new();
    if yaml_path.is_file()
        && let Some(value) = ctx.read_yaml(&yaml_path)
    {
        let (found_rules, found) = score_rules(&value);
        for (is_error, message) in found {
            if is_error {
                ctx.error(&yaml_path, message);
            } else {
                ctx.warning(&yaml_path, message);
            }
        }
        for rule in &found_rules {
            let matched = submissions.iter().any(|s| {
                s.path
                    .strip_prefix(dir)
                    .is_ok_and(|p| glob_matches(&rule.pattern, &slash_path(p)))
            });
            if !matched {
                ctx.warning(
                    &yaml_path,
                    format!("`{}` matches no submission", rule.pattern),
                );
            }
        }
        rules = found_rules;
    }
    for submission in submissions.iter_mut() {
        let relative = submission
            .path
            .strip_prefix(dir)
            .map(slash_path)
            .unwrap_or_default();
        // (where it comes from, the range)
        let mut sources: Vec<(String, PathBuf, ScoreRange)> = rules
            .iter()
            .filter(|rule| glob_matches(&rule.pattern, &relative))
            .map(|rule| {
                (
                    format!("`{}.score`", rule.pattern),
                    yaml_path.clone(),
                    rule.score,
                )
            })
            .collect();
        if submission.path.is_file()
            && let Ok(text) = std::fs::read_to_string(&submission.path)
        {
            match marker_score(&text) {
                None => {}
                Some(Ok(score)) => sources.push((
                    crate::expectation::SCORE_MARKER
                        .trim_end_matches(':')
                        .to_owned(),
                    submission.path.clone(),
                    score,
                )),
                Some(Err(message)) => ctx.error(&submission.path, message),
            }
        }
        let Some((first_name, first_path, first)) = sources.first().cloned() else {
            continue;
        };
        if !scoring {
            ctx.error(
                &first_path,
                format!(
                    "{first_name} gives {relative} an expected score, but the problem is not scored"
                ),
            );
            continue;
        }
        let mut range = first;
        for (name, path, score) in &sources[1..] {
            match range.intersect(*score) {
                Some(it) => range = it,
                None => {
                    ctx.error(
                        path,
                        format!(
                            "{name} expects {score} of {relative}, which {first_name} ({first}) rules out"
                        ),
                    );
                }
            }
        }
        submission.score = Some(range);
    }
}

/// A relative path with `/` separators.
fn slash_path(path: &Path) -> String {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Entries of a folder in name order, skipping hidden files; empty when it is absent.
fn list_entries(dir: &Path) -> Vec<PathBuf> {
    sorted_entries(dir).unwrap_or_default()
}

fn sorted_entries(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut res = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if !path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        {
            res.push(path);
        }
    }
    res.sort();
    Ok(res)
}

/// The package identity, as defined in the module documentation.
pub fn content_sha256(root: &Path) -> std::io::Result<String> {
    use sha2::{Digest, Sha256};
    let mut files = Vec::new();
    collect_files(root, root, &mut files)?;
    files.sort();
    let mut hasher = Sha256::new();
    for relative in files {
        let bytes = std::fs::read(root.join(&relative))?;
        hasher.update(relative.as_bytes());
        hasher.update([0]);
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    Ok(hex::encode(hasher.finalize()))
}

fn collect_files(root: &Path, dir: &Path, out: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let path = entry.path();
        if kind.is_dir() {
            collect_files(root, &path, out)?;
        } else if kind.is_file() {
            let relative = path.strip_prefix(root).unwrap_or(&path);
            let parts: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(parts.join("/"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, path: &str, text: &str) {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("has a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }

    fn good_package() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        write(
            root,
            "problem.yaml",
            "problem_format_version: 2025-09\nname: Add\nuuid: x\nlimits:\n  time_limit: 2\n  memory: 64\n",
        );
        write(root, "statement/problem.en.md", "# Add\n");
        write(root, "data/sample/1.in", "1 2\n");
        write(root, "data/sample/1.ans", "3\n");
        write(root, "data/secret/b.in", "2 2\n");
        write(root, "data/secret/b.ans", "4\n");
        write(root, "data/secret/a.in", "1 1\n");
        write(root, "data/secret/a.ans", "2\n");
        write(root, "data/secret/group1/x.in", "0 0\n");
        write(root, "data/secret/group1/x.ans", "0\n");
        write(root, "input_validators/check.py", "exit(42)\n");
        write(
            root,
            "submissions/accepted/a.py",
            "print(sum(map(int, input().split())))\n",
        );
        write(
            root,
            "submissions/run_time_error/crash.py",
            "raise SystemExit(1)\n",
        );
        dir
    }

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
    fn identity_changes_with_content_and_not_with_location() {
        let one = good_package();
        let two = good_package();
        let a = content_sha256(one.path()).expect("hash");
        assert_eq!(a, content_sha256(two.path()).expect("hash"));
        write(two.path(), "data/secret/a.ans", "3\n");
        assert_ne!(a, content_sha256(two.path()).expect("hash"));
    }

    #[test]
    fn a_broken_package_reports_every_problem_with_its_file() {
        let dir = good_package();
        let root = dir.path();
        write(
            root,
            "problem.yaml",
            "name: Broken\nvalidation: custom\nlimits:\n  memory: -3\n  colour: red\nfoo: 1\n",
        );
        write(root, "data/secret/lonely.in", "1\n");
        write(root, "submissions/slow/a.py", "");
        let Err(crate::Error::Invalid { diagnostics, .. }) = load(root) else {
            panic!("must fail")
        };
        let lines: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
        expect_test::expect![[r#"
            [
                "warning: problem.yaml: unknown key `foo` for format legacy",
                "error: problem.yaml: limit `memory` must be a positive number, found Number(-3)",
                "warning: problem.yaml: unknown limit `colour`",
                "warning: problem.yaml: no time limit (limits.time_limit or .timelimit): using 1 second",
                "error: data/secret/lonely.in: test case has no answer file lonely.ans",
                "error: output_validators: the problem uses a custom validator but has none",
                "error: submissions/slow: unknown submissions folder: expected accepted, wrong_answer, time_limit_exceeded, run_time_error, memory_limit_exceeded, output_limit_exceeded, compile_error, rejected, brute_force or partially_accepted",
            ]
        "#]]
        .assert_debug_eq(&lines);
    }

    #[test]
    fn malformed_yaml_names_line_and_column() {
        let dir = good_package();
        write(dir.path(), "problem.yaml", "name: [unclosed\nlimits: {\n");
        let Err(crate::Error::Invalid { diagnostics, .. }) = load(dir.path()) else {
            panic!("must fail")
        };
        assert_eq!(diagnostics[0].path, PathBuf::from("problem.yaml"));
        assert!(
            diagnostics[0]
                .message
                .starts_with("malformed YAML at line "),
            "{}",
            diagnostics[0].message
        );
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

    /// `good_package` turned into a legacy custom-validation package with `extra` lines in
    /// problem.yaml and no validator yet.
    fn custom_legacy(extra: &str) -> tempfile::TempDir {
        let dir = good_package();
        write(
            dir.path(),
            "problem.yaml",
            &format!("name: Any\nvalidation: custom\nlimits:\n  time_limit: 1\n{extra}"),
        );
        dir
    }

    fn errors(dir: &Path) -> Vec<String> {
        match load(dir) {
            Ok((_, diagnostics)) => diagnostics.iter().map(ToString::to_string).collect(),
            Err(crate::Error::Invalid { diagnostics, .. }) => {
                diagnostics.iter().map(ToString::to_string).collect()
            }
            Err(err) => vec![err.to_string()],
        }
    }

    #[test]
    fn validator_convention_in_both_formats() {
        let convention = |dir: &Path| {
            let (problem, diagnostics) = load(dir).expect("loads");
            assert_eq!(diagnostics, vec![]);
            let Validation::Custom { convention, .. } = problem.validation else {
                panic!("custom validation")
            };
            convention
        };
        for (extra, expected) in [
            ("", ValidatorConvention::Kattis),
            (
                "validator_convention: kattis\n",
                ValidatorConvention::Kattis,
            ),
            (
                "validator_convention: testlib\n",
                ValidatorConvention::Testlib,
            ),
        ] {
            let legacy = custom_legacy(extra);
            write(legacy.path(), "output_validators/check/check.cpp", "");
            assert_eq!(convention(legacy.path()), expected, "legacy {extra:?}");

            let modern = good_package();
            write(
                modern.path(),
                "problem.yaml",
                &format!(
                    "problem_format_version: 2025-09\nname: Any\nuuid: x\n{extra}limits:\n  time_limit: 1\n"
                ),
            );
            write(modern.path(), "output_validator/checker.cpp", "");
            assert_eq!(convention(modern.path()), expected, "2025-09 {extra:?}");
        }
    }

    #[test]
    fn unknown_validator_convention_is_an_error_naming_it() {
        for (value, shown) in [
            ("polygon", "polygon"),
            ("3", "3"),
            ("[testlib]", "- testlib"),
        ] {
            let dir = custom_legacy(&format!("validator_convention: {value}\n"));
            write(dir.path(), "output_validators/check.py", "");
            assert!(load(dir.path()).is_err(), "{value}");
            assert_eq!(
                errors(dir.path()),
                vec![format!(
                    "error: problem.yaml: `validator_convention: {shown}` is neither kattis nor testlib"
                )]
            );
        }
    }

    #[test]
    fn validator_convention_without_custom_validation_is_a_warning() {
        let dir = good_package();
        write(
            dir.path(),
            "problem.yaml",
            "problem_format_version: 2025-09\nname: Add\nuuid: x\nvalidator_convention: testlib\nlimits:\n  time_limit: 1\n",
        );
        let (_, diagnostics) = load(dir.path()).expect("loads");
        assert_eq!(
            diagnostics
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            vec![
                "warning: problem.yaml: `validator_convention` has no effect without a custom output validator"
            ]
        );
    }

    #[test]
    fn output_validator_source_directly_or_in_one_subfolder() {
        // (files under output_validators/, the source found)
        let table: &[(&[&str], &str)] = &[
            (&["validate.cpp"], "validate.cpp"),
            (
                &["check/validate.cc", "check/README.md", "check/testlib.h"],
                "check/validate.cc",
            ),
            (&["checker.py", ".hidden.cpp", "notes.txt"], "checker.py"),
            (&["Validator.java", "build/"], "Validator.java"),
            (&["sub/check.c"], "sub/check.c"),
        ];
        for (files, expected) in table {
            let dir = custom_legacy("");
            for file in *files {
                if let Some(folder) = file.strip_suffix('/') {
                    std::fs::create_dir_all(dir.path().join("output_validators").join(folder))
                        .expect("mkdir");
                } else {
                    write(dir.path(), &format!("output_validators/{file}"), "");
                }
            }
            let (problem, diagnostics) = load(dir.path()).expect("loads");
            assert_eq!(diagnostics, vec![], "{files:?}");
            assert_eq!(
                problem.output_validator_source(),
                Some(dir.path().join("output_validators").join(expected)),
                "{files:?}"
            );
        }
    }

    #[test]
    fn zero_or_several_validator_sources_are_errors() {
        let table: &[(&[&str], &str)] = &[
            (&["README.md"], "found 0"),
            (&["check/testlib.h"], "found 0"),
            (
                &["a.cpp", "b.py"],
                "found 2: output_validators/a.cpp, output_validators/b.py",
            ),
            (
                &["one/check.cpp", "two/check.cpp"],
                "found 2: output_validators/one/check.cpp, output_validators/two/check.cpp",
            ),
            (
                &["check.cpp", "sub/check.py"],
                "found 2: output_validators/check.cpp, output_validators/sub/check.py",
            ),
        ];
        for (files, found) in table {
            let dir = custom_legacy("");
            for file in *files {
                write(dir.path(), &format!("output_validators/{file}"), "");
            }
            assert_eq!(
                errors(dir.path()),
                vec![format!(
                    "error: output_validators: expected exactly one validator source (.c, .cpp, .cc, .py, .java) in the folder or one subfolder, {found}"
                )],
                "{files:?}"
            );
        }
        // Without a custom validation, the helper still answers from the folder.
        let dir = good_package();
        assert_eq!(
            load(dir.path()).expect("loads").0.output_validator_source(),
            None
        );
    }

    /// `good_package` made scored (two groups of 40 and 60 points) with `files` added.
    fn scored_package(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = good_package();
        write(
            dir.path(),
            "problem.yaml",
            "problem_format_version: 2025-09\nname: Add\nuuid: x\ntype: scoring\nlimits:\n  time_limit: 1\n",
        );
        std::fs::remove_dir_all(dir.path().join("data/secret")).expect("rm");
        for (group, points) in [("g1", 40), ("g2", 60)] {
            write(
                dir.path(),
                &format!("data/secret/{group}/test_group.yaml"),
                &format!("max_score: {points}\nscore_aggregation: min\n"),
            );
            write(dir.path(), &format!("data/secret/{group}/1.in"), "1 1\n");
            write(dir.path(), &format!("data/secret/{group}/1.ans"), "2\n");
        }
        for (path, text) in files {
            write(dir.path(), path, text);
        }
        dir
    }

    fn expected_scores(dir: &Path) -> Vec<String> {
        let (problem, diagnostics) = load(dir).expect("loads");
        assert_eq!(diagnostics, vec![]);
        assert!(problem.scoring);
        problem
            .submissions
            .iter()
            .map(|s| {
                let name = s
                    .path
                    .strip_prefix(dir.join("submissions"))
                    .expect("inside");
                let score = s.score.map(|it| it.to_string()).unwrap_or("-".into());
                format!("{} {score}", name.display())
            })
            .collect()
    }

    #[test]
    fn expected_scores_from_submissions_yaml_and_the_marker() {
        let dir = scored_package(&[
            (
                "submissions/partially_accepted/small.py",
                "# @EXPECTED_SCORE@: 40\nprint(2)\n",
            ),
            ("submissions/partially_accepted/half.cpp", "int main() {}\n"),
            ("submissions/wrong_answer/big.py", "print(0)\n"),
            (
                "submissions/submissions.yaml",
                "partially_accepted:\n  score: [30, 60]\npartially_accepted/half.cpp:\n  score: 60\n  authors: Someone\n'{accepted,wrong_answer}/a*.py':\n  score: 100\n",
            ),
        ]);
        assert_eq!(
            expected_scores(dir.path()),
            vec![
                "accepted/a.py 100",
                "partially_accepted/half.cpp 60",
                "partially_accepted/small.py 40",
                "run_time_error/crash.py -",
                "wrong_answer/big.py -",
            ]
        );
    }

    #[test]
    fn bad_expected_scores_name_file_and_field() {
        let dir = scored_package(&[
            (
                "submissions/partially_accepted/small.py",
                "# @EXPECTED_SCORE@: 90\n",
            ),
            (
                "submissions/partially_accepted/odd.py",
                "# @EXPECTED_SCORE@: many\n",
            ),
            (
                "submissions/submissions.yaml",
                "partially_accepted:\n  score: [30, 60]\naccepted:\n  score: [100]\nnothing/*:\n  score: 1\n",
            ),
        ]);
        expect_test::expect![[r#"
            [
                "error: submissions/submissions.yaml: `accepted.score`: must be a non-negative number or a list [low, high], found Sequence [Number(100)]",
                "warning: submissions/submissions.yaml: `nothing/*` matches no submission",
                "error: submissions/partially_accepted/odd.py: `@EXPECTED_SCORE@:` must be followed by a non-negative number, found \"many\"",
                "error: submissions/partially_accepted/small.py: @EXPECTED_SCORE@ expects 90 of partially_accepted/small.py, which `partially_accepted.score` ([30, 60]) rules out",
            ]
        "#]]
        .assert_debug_eq(&errors(dir.path()));
        // Scores and partially accepted submissions need a scored problem.
        let dir = good_package();
        write(
            dir.path(),
            "submissions/partially_accepted/p.py",
            "print(1)\n",
        );
        write(
            dir.path(),
            "submissions/submissions.yaml",
            "accepted:\n  score: 100\n",
        );
        expect_test::expect![[r#"
            [
                "error: submissions/partially_accepted: partially accepted submissions need a scored problem (`type: scoring` or group scores)",
                "error: submissions/submissions.yaml: `accepted.score` gives accepted/a.py an expected score, but the problem is not scored",
            ]
        "#]]
        .assert_debug_eq(&errors(dir.path()));
    }

    #[test]
    fn multi_pass_is_a_warning() {
        let dir = good_package();
        write(
            dir.path(),
            "problem.yaml",
            "problem_format_version: 2025-09\nname: Add\nuuid: x\ntype: multi-pass\nlimits:\n  time_limit: 1\n",
        );
        write(dir.path(), "output_validator/check.py", "");
        assert_eq!(
            errors(dir.path()),
            vec![
                "warning: problem.yaml: type `multi-pass` is not supported by the judge: only the first pass runs"
            ]
        );
    }

    #[test]
    fn legacy_flags_and_timelimit_file() {
        let dir = good_package();
        write(
            dir.path(),
            "problem.yaml",
            "name: Float\nvalidator_flags: float_tolerance 1e-6 case_sensitive\nlimits:\n  memory: 32\n",
        );
        write(dir.path(), ".timelimit", "3\n");
        let (problem, diagnostics) = load(dir.path()).expect("loads");
        assert_eq!(diagnostics, vec![]);
        assert_eq!(problem.limits.time, Duration::from_secs(3));
        let Validation::Default(flags) = problem.validation else {
            panic!("default validation")
        };
        assert!(flags.case_sensitive);
        assert_eq!(flags.float_absolute_tolerance, Some(1e-6));
        assert_eq!(flags.float_relative_tolerance, Some(1e-6));
    }
}
