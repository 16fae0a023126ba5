//! Grading: compile once (cached), run every test in one sandbox, decide each test's
//! verdict as its run finishes, and aggregate.
//!
//! A test's verdict, strongest first (see `problems::Verdict::precedence`): the program
//! could not be started is a judge error (`Err`); killed at the wall-clock limit or CPU
//! time above the limit is TLE; the cgroup's OOM kill during the test or a peak above the
//! memory limit is MLE; SIGXFSZ (the output rlimit) or output above the limit is OLE; any
//! other signal or a non-zero exit is RTE; otherwise the output is checked (AC or WA).
//! The submission's verdict is the verdict of the first test that is not AC, in judging
//! order (samples first); the score of a pass-fail problem is 1 for AC and 0 otherwise.

use std::path::{Path, PathBuf};

use problems::{Problem, Validation, Verdict};
use serde::Serialize;
use sha2::Digest;

use crate::lang::Language;
use crate::sandbox::{
    BackendKind, Job, JobEnd, JobLimits, MEMORY_HEADROOM, RunIo, RunReport, SANDBOX_UID, Sandbox,
    SandboxConfig, VALIDATOR_UID, ValidatorStep, Workspace, sandbox_env,
};
use crate::{Error, Result};

/// What to judge.
#[derive(Debug, Clone)]
pub struct Submission {
    /// Where the source came from (for messages).
    pub path: PathBuf,
    /// The source text.
    pub source: String,
    /// Its language.
    pub language: Language,
}

impl Submission {
    /// Reads a source file, with its language from the extension or `lang`.
    pub fn from_file(path: &Path, lang: Option<&str>, code_limit: u64) -> Result<Submission> {
        let language = match lang {
            Some(id) => crate::lang::by_id(id)?,
            None => crate::lang::for_path(path)?,
        };
        let meta = std::fs::metadata(path).map_err(|source| Error::Io {
            what: "cannot read",
            path: path.to_path_buf(),
            source,
        })?;
        if meta.len() > code_limit {
            return Err(Error::SourceTooLarge {
                path: path.to_path_buf(),
                size: meta.len(),
                limit: code_limit,
            });
        }
        let source = std::fs::read_to_string(path).map_err(|source| Error::Io {
            what: "cannot read",
            path: path.to_path_buf(),
            source,
        })?;
        Ok(Submission {
            path: path.to_path_buf(),
            source,
            language,
        })
    }
}

/// How to judge.
#[derive(Debug, Clone)]
pub struct Options {
    /// The sandbox backend.
    pub backend: BackendKind,
    /// Run every test even after a failure (training wants all results).
    pub run_all: bool,
    /// Folder of the compile cache; `None` disables caching.
    pub cache_dir: Option<PathBuf>,
}

/// The compile step's outcome.
#[derive(Debug, Clone, Serialize)]
pub struct CompileInfo {
    /// Whether the build came from the cache.
    pub cached: bool,
    /// Whether it succeeded.
    pub ok: bool,
    /// The compiler's output (first 64 KiB).
    pub log: String,
    /// CPU time of the compile, when it ran.
    pub cpu_ms: f64,
    /// Wall time of the compile, when it ran.
    pub wall_ms: f64,
}

/// One test's result, delivered as soon as the test finishes.
#[derive(Debug, Clone, Serialize)]
pub struct TestResult {
    /// Position in judging order, from 0.
    pub index: usize,
    /// The test case's name (`secret/03-big`).
    pub name: String,
    /// Its verdict.
    pub verdict: Verdict,
    /// CPU time in milliseconds.
    pub cpu_ms: f64,
    /// Wall time in milliseconds.
    pub wall_ms: f64,
    /// Peak memory in KiB.
    pub peak_kib: u64,
    /// Bytes of output.
    pub output_bytes: u64,
    /// Exit code, when the program exited.
    pub exit_code: Option<i32>,
    /// Signal, when it was killed.
    pub signal: Option<i32>,
    /// The checker's or the judge's explanation.
    pub message: String,
}

/// The whole submission's result.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The verdict.
    pub verdict: Verdict,
    /// 1 for AC and 0 otherwise on pass-fail problems; the points on scored problems
    /// (see [`group_score`]).
    pub score: f64,
    /// The most points the problem gives, on scored problems.
    pub max_score: Option<f64>,
    /// Tests that got AC.
    pub passed: usize,
    /// Tests in the problem.
    pub total: usize,
    /// The language id.
    pub language: String,
    /// The compile step.
    pub compile: CompileInfo,
    /// Results of the tests that ran, in order.
    pub tests: Vec<TestResult>,
}

/// How outputs are checked.
enum Checker {
    /// The default validator; flags per test case.
    Default,
    /// A custom output validator, compiled like a submission.
    Custom {
        /// Its source and language.
        unit: Box<Submission>,
        /// Its calling convention.
        convention: Convention,
        /// Arguments from `problem.yaml`.
        flags: Vec<String>,
        /// The validator is the interactor, talking with the program through pipes.
        interactive: bool,
    },
}

/// How a custom validator is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Convention {
    /// Kattis: `validator input answer feedback_dir [args] < team_output`; 42 accepts,
    /// 43 rejects, anything else is a judge error.
    Kattis,
    /// Codeforces testlib: `checker input output answer`; 0 OK, 1 WA, 2 PE (a WA),
    /// 3 FAIL (a judge error), 7 partial points (a WA on pass-fail problems).
    Testlib,
}

/// The single source file of a package's output validator: `output_validators/` (legacy)
/// or `output_validator/` (2025-09), with the source directly inside or in one subfolder.
pub fn validator_source(problem: &Problem) -> Result<PathBuf> {
    let root = problem.output_validator.clone().ok_or_else(|| {
        Error::Unsupported(format!(
            "problem {} asks for a custom validator but has none",
            problem.short_name
        ))
    })?;
    let mut candidates = Vec::new();
    let mut folders = vec![root.clone()];
    if let Ok(entries) = std::fs::read_dir(&root) {
        folders.extend(entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()));
    }
    for folder in folders {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_file() && crate::lang::for_path(&path).is_ok() {
                candidates.push(path);
            }
        }
    }
    match candidates.as_slice() {
        [one] => Ok(one.clone()),
        _ => Err(Error::Unsupported(format!(
            "{}: expected exactly one validator source (.c, .cpp, .py, .java), found {}",
            root.display(),
            candidates.len()
        ))),
    }
}

/// Judges `submission` on `problem`, calling `on_test` as each test finishes.
///
/// Wrong answers, time-outs and compile errors are verdicts inside `Ok`; `Err` means the
/// judge failed.
pub async fn judge(
    problem: &Problem,
    submission: &Submission,
    config: &SandboxConfig,
    options: &Options,
    on_test: &mut (dyn FnMut(&TestResult) + Send),
) -> Result<Report> {
    let checker = match &problem.validation {
        Validation::Default(_) => Checker::Default,
        Validation::Custom {
            flags, interactive, ..
        } => {
            let path = validator_source(problem)?;
            let unit = Submission::from_file(&path, None, u64::MAX)?;
            let convention = if problem_convention_is_testlib(problem) {
                Convention::Testlib
            } else {
                Convention::Kattis
            };
            Checker::Custom {
                unit: Box::new(unit),
                convention,
                flags: flags.clone(),
                interactive: *interactive,
            }
        }
    };
    let size = submission.source.len() as u64;
    if size > problem.limits.code_bytes {
        return Err(Error::SourceTooLarge {
            path: submission.path.clone(),
            size,
            limit: problem.limits.code_bytes,
        });
    }
    let mut ws = Workspace::new()?;
    let mut sandbox = Sandbox::open(options.backend, config, &ws).await?;
    let res = judge_in(
        problem,
        submission,
        &checker,
        config,
        options,
        &mut ws,
        &mut sandbox,
        on_test,
    )
    .await;
    sandbox.close().await;
    res
}

/// Whether `problem.yaml` selects the testlib convention (`validator_convention: testlib`).
fn problem_convention_is_testlib(problem: &Problem) -> bool {
    let text = std::fs::read_to_string(problem.root.join("problem.yaml")).unwrap_or_default();
    serde_yaml::from_str::<serde_yaml::Value>(&text)
        .ok()
        .and_then(|v| {
            v.get("validator_convention")
                .and_then(|c| c.as_str().map(str::to_owned))
        })
        .is_some_and(|c| c == "testlib")
}

/// Limits of an output validator's run.
const VALIDATOR_LIMITS: JobLimits = JobLimits {
    cpu_ms: 30_000,
    wall_ms: 60_000,
    output_bytes: 8 << 20,
    stack_bytes: 64 << 20,
    processes: 64,
    open_files: 256,
};

#[allow(clippy::too_many_arguments)] // reason: one private step of judge(), called once
async fn judge_in(
    problem: &Problem,
    submission: &Submission,
    checker: &Checker,
    config: &SandboxConfig,
    options: &Options,
    ws: &mut Workspace,
    sandbox: &mut Sandbox,
    on_test: &mut (dyn FnMut(&TestResult) + Send),
) -> Result<Report> {
    let lang = &submission.language;
    let limits = problem.limits;
    let memory_mib = limits.memory_bytes.div_ceil(1024 * 1024);
    let cases = problem.test_cases();
    let total = cases.len();
    let (compile_info, build) = compile(
        submission,
        Unit::Submission,
        config,
        options,
        ws,
        sandbox,
        &limits,
    )
    .await?;
    let mut report = Report {
        verdict: Verdict::CE,
        score: 0.0,
        passed: 0,
        total,
        language: lang.id.clone(),
        compile: compile_info,
        tests: Vec::new(),
        max_score: None,
    };
    let Some(build) = build else {
        return Ok(report);
    };
    let mut copy_in: Vec<(PathBuf, PathBuf, Option<u32>)> = build
        .iter()
        .map(|name| {
            (
                Unit::Submission.src_dir().join("build").join(name),
                Path::new("/box").join(name),
                None,
            )
        })
        .collect();
    let mut validator_command = None;
    if let Checker::Custom {
        unit,
        convention,
        flags,
        interactive,
    } = checker
    {
        let (info, vbuild) =
            compile(unit, Unit::Validator, config, options, ws, sandbox, &limits).await?;
        let Some(vbuild) = vbuild else {
            return Err(Error::Unsupported(format!(
                "the output validator does not compile:\n{}",
                info.log
            )));
        };
        copy_in.extend(vbuild.iter().map(|name| {
            (
                Unit::Validator.src_dir().join("build").join(name),
                Path::new("/validator").join(name),
                Some(VALIDATOR_UID),
            )
        }));
        validator_command = Some((
            unit.language.command(&unit.language.run, &unit.source, 256),
            // Interactors follow the Kattis convention.
            if *interactive {
                Convention::Kattis
            } else {
                *convention
            },
            flags.clone(),
        ));
    }
    let interactive = matches!(
        checker,
        Checker::Custom {
            interactive: true,
            ..
        }
    );
    let mut runs = Vec::with_capacity(total);
    for (idx, case) in cases.iter().enumerate() {
        let stdin = ws.add_input(&format!("{idx:04}.in"), &case.input)?;
        let stdout: PathBuf = format!("/judge/out/{idx:04}.out").into();
        let validator = match &validator_command {
            None => None,
            Some((run, convention, flags)) => {
                let input = ws.add_for_validator(&format!("{idx:04}.in"), &case.input)?;
                let answer = ws.add_for_validator(&format!("{idx:04}.ans"), &case.answer)?;
                let feedback: PathBuf = format!("/judge/out/fb-{idx:04}/").into();
                let mut command = run.clone();
                let (stdin, feedback_dir, give_output) = match convention {
                    Convention::Kattis => {
                        command.extend(
                            [input, answer, feedback.clone()].map(|p| p.display().to_string()),
                        );
                        command.extend(flags.iter().cloned());
                        // An interactor reads the program's output through a pipe.
                        let stdin = (!interactive).then(|| stdout.clone());
                        (stdin, Some(feedback), false)
                    }
                    Convention::Testlib => {
                        command.extend(
                            [input, stdout.clone(), answer].map(|p| p.display().to_string()),
                        );
                        (None, None, true)
                    }
                };
                Some(ValidatorStep {
                    command,
                    uid: VALIDATOR_UID,
                    gid: VALIDATOR_UID,
                    workdir: "/validator".into(),
                    stdin,
                    stdout: format!("/judge/out/{idx:04}.vout").into(),
                    stderr: format!("/judge/out/{idx:04}.verr").into(),
                    feedback_dir,
                    give_output,
                    limits: VALIDATOR_LIMITS,
                })
            }
        };
        let (validator, interactor) = if interactive {
            (None, validator)
        } else {
            (validator, None)
        };
        runs.push(RunIo {
            stdin: Some(stdin),
            stdout,
            stderr: format!("/judge/out/{idx:04}.err").into(),
            validator,
            interactor,
        });
    }
    let time_ms = limits.time.as_millis() as u64;
    let job = Job {
        uid: SANDBOX_UID,
        gid: SANDBOX_UID,
        workdir: "/box".into(),
        copy_in,
        command: lang.command(&lang.run, &submission.source, memory_mib),
        env: sandbox_env(),
        limits: JobLimits {
            cpu_ms: time_ms,
            wall_ms: 2 * time_ms + 1000,
            output_bytes: limits.output_bytes,
            stack_bytes: limits.memory_bytes,
            processes: 512,
            open_files: 512,
        },
        oom_file: None,
        runs,
        copy_out: None,
    };
    let mut results = Vec::new();
    let mut failure: Option<Error> = None;
    // A score needs every test's result.
    let run_all = options.run_all || is_scored(problem);
    let out_dir = ws.host_out();
    let convention = validator_command.as_ref().map(|(_, c, _)| *c);
    let mut on_report = |run: RunReport| -> bool {
        let Some(case) = cases.get(run.index) else {
            failure = Some(Error::Sandbox {
                backend: options.backend.name(),
                why: format!("unknown run {}", run.index),
            });
            return false;
        };
        let decided = if interactive {
            interactive_verdict(&run, &limits, &out_dir).map(Some)
        } else {
            classify(&run, &limits)
        };
        let (verdict, message) = match decided {
            Ok(Some(it)) => it,
            Ok(None) => match convention {
                None => {
                    let flags = match problem.validation_for(case) {
                        Validation::Default(flags) => flags,
                        Validation::Custom { .. } => {
                            problems::default_validator::DefaultFlags::default()
                        }
                    };
                    check_output(
                        &out_dir.join(format!("{:04}.out", run.index)),
                        &case.answer,
                        &flags,
                    )
                }
                Some(convention) => validator_verdict(&run, convention, &out_dir),
            },
            Err(why) => {
                failure = Some(Error::Sandbox {
                    backend: options.backend.name(),
                    why,
                });
                return false;
            }
        };
        let result = TestResult {
            index: run.index,
            name: case.name.clone(),
            verdict,
            cpu_ms: run.cpu_ms,
            wall_ms: run.wall_ms,
            peak_kib: run.peak_kib,
            output_bytes: run.stdout_bytes,
            exit_code: run.exit_code,
            signal: run.signal,
            message,
        };
        on_test(&result);
        results.push(result);
        verdict == Verdict::AC || run_all
    };
    let end = sandbox
        .exec(
            ws,
            job,
            limits.memory_bytes + MEMORY_HEADROOM,
            &mut on_report,
        )
        .await?;
    if let Some(err) = failure {
        return Err(err);
    }
    if end == JobEnd::Completed && results.len() != total {
        return Err(Error::Sandbox {
            backend: options.backend.name(),
            why: format!("{} of {total} tests reported", results.len()),
        });
    }
    report.passed = results.iter().filter(|r| r.verdict == Verdict::AC).count();
    report.verdict = results
        .iter()
        .map(|r| r.verdict)
        .find(|v| *v != Verdict::AC)
        .unwrap_or(Verdict::AC);
    if is_scored(problem) {
        let verdicts: std::collections::HashMap<&str, Verdict> = results
            .iter()
            .map(|r| (r.name.as_str(), r.verdict))
            .collect();
        let (score, max) = group_score(&problem.secret, &verdicts, 100.0);
        report.score = score;
        report.max_score = Some(max);
    } else {
        report.score = if report.verdict == Verdict::AC {
            1.0
        } else {
            0.0
        };
    }
    report.tests = results;
    Ok(report)
}

/// Whether a problem is scored: some secret group declares a score, or its validator
/// writes `score.txt`.
pub fn is_scored(problem: &Problem) -> bool {
    fn any_score(group: &problems::TestGroup) -> bool {
        group.score.is_some() || group.groups.iter().any(any_score)
    }
    matches!(problem.validation, Validation::Custom { score: true, .. })
        || any_score(&problem.secret)
}

/// A test group's points and its maximum, from the verdicts of its cases (by name).
///
/// The group's maximum is its `score` (`max_score`) or, when it has none, `default_max`
/// (100 for `data/secret`). Parts are the group's subgroups (each with its own maximum;
/// those without one share what is left of the group's maximum equally) and its cases
/// (sharing what is left equally). `sum` (the default) adds the parts' points; `min` and
/// `pass-fail` give the group its maximum times the smallest fraction any part reached
/// (all or nothing for pass-fail cases); `max` and `avg` (legacy) take the largest or the
/// mean fraction. A case counts in full when AC and nothing otherwise; a case that did
/// not run counts nothing.
pub fn group_score(
    group: &problems::TestGroup,
    verdicts: &std::collections::HashMap<&str, Verdict>,
    default_max: f64,
) -> (f64, f64) {
    use problems::package::Aggregation;
    let max = group.score.unwrap_or(default_max);
    let declared: f64 = group.groups.iter().filter_map(|g| g.score).sum();
    let undeclared = group.groups.iter().filter(|g| g.score.is_none()).count() + group.cases.len();
    let share = if undeclared == 0 {
        0.0
    } else {
        ((max - declared).max(0.0)) / undeclared as f64
    };
    // (points, maximum) of every part.
    let mut parts: Vec<(f64, f64)> = group
        .groups
        .iter()
        .map(|g| group_score(g, verdicts, share))
        .collect();
    parts.extend(group.cases.iter().map(|case| {
        let ok = verdicts.get(case.name.as_str()) == Some(&Verdict::AC);
        (if ok { share } else { 0.0 }, share)
    }));
    let fraction = |(points, max): &(f64, f64)| if *max > 0.0 { points / max } else { 1.0 };
    let score = match group.aggregation.unwrap_or(Aggregation::Sum) {
        Aggregation::Sum => parts.iter().map(|p| p.0).sum(),
        Aggregation::Min | Aggregation::PassFail => {
            max * parts.iter().map(fraction).fold(1.0, f64::min)
        }
        Aggregation::Max => max * parts.iter().map(fraction).fold(0.0, f64::max),
        Aggregation::Avg => {
            if parts.is_empty() {
                max
            } else {
                max * parts.iter().map(fraction).sum::<f64>() / parts.len() as f64
            }
        }
    };
    (score, max)
}

/// The verdict of an interactive run: a time-out is TLE; an interactor that crashed or
/// exited with neither 42 nor 43 is a judge error; a rejection (43) is WA whatever the
/// program did next (once the interactor leaves, the program dies of a broken pipe or an
/// early end of input, and which of the two processes the kernel reaps first is a race,
/// so the order of their ends cannot be the rule); an acceptance (42) is AC when the
/// program also ended normally, and the program's own failure (RTE, MLE) otherwise.
fn interactive_verdict(
    run: &RunReport,
    limits: &problems::Limits,
    out_dir: &Path,
) -> std::result::Result<(Verdict, String), String> {
    if let Some(err) = &run.exec_error {
        return Err(format!("the program could not be started: {err}"));
    }
    let program = classify(run, limits)?;
    if let Some((Verdict::TLE, message)) = &program {
        return Ok((Verdict::TLE, message.clone()));
    }
    let (verdict, message) = validator_verdict(run, Convention::Kattis, out_dir);
    match verdict {
        Verdict::JE => Ok((Verdict::JE, message)),
        Verdict::WA => Ok((Verdict::WA, message)),
        _ => Ok(program.unwrap_or((verdict, message))),
    }
}

/// The verdict of a custom validator's run: its exit code under its convention, with its
/// messages. A validator that crashed, timed out or exited otherwise is a judge error.
fn validator_verdict(run: &RunReport, convention: Convention, out_dir: &Path) -> (Verdict, String) {
    let Some(step) = &run.validator else {
        return (Verdict::JE, "the output validator did not run".to_owned());
    };
    let read = |name: String| {
        let mut text = std::fs::read(out_dir.join(name)).unwrap_or_default();
        text.truncate(4096);
        String::from_utf8_lossy(&text).trim().to_owned()
    };
    if let Some(err) = &step.exec_error {
        return (
            Verdict::JE,
            format!("the output validator could not start: {err}"),
        );
    }
    if step.wall_timeout || step.signal.is_some() {
        return (
            Verdict::JE,
            format!(
                "the output validator crashed or timed out (signal {:?})",
                step.signal
            ),
        );
    }
    let idx = run.index;
    match convention {
        Convention::Kattis => {
            let judge = read(format!("fb-{idx:04}/judgemessage.txt"));
            let team = read(format!("fb-{idx:04}/teammessage.txt"));
            let message = [judge, team]
                .into_iter()
                .filter(|m| !m.is_empty())
                .collect::<Vec<_>>()
                .join(" / ");
            match step.exit_code {
                Some(42) => (Verdict::AC, message),
                Some(43) => (Verdict::WA, message),
                code => (
                    Verdict::JE,
                    format!(
                        "the output validator exited with {code:?} (42 or 43 expected): {message}"
                    ),
                ),
            }
        }
        Convention::Testlib => {
            let message = read(format!("{idx:04}.verr"));
            match step.exit_code {
                Some(0) => (Verdict::AC, message),
                Some(1) => (Verdict::WA, message),
                Some(2) => (Verdict::WA, format!("presentation error: {message}")),
                Some(7) => (Verdict::WA, format!("partially correct: {message}")),
                Some(3) => (Verdict::JE, format!("the checker failed: {message}")),
                code => (
                    Verdict::JE,
                    format!("the checker exited with {code:?}: {message}"),
                ),
            }
        }
    }
}

/// The verdict a run's measurements decide without looking at its output, or `None`
/// when it ran normally; `Err` when the program could not be started.
pub fn classify(
    run: &RunReport,
    limits: &problems::Limits,
) -> std::result::Result<Option<(Verdict, String)>, String> {
    if let Some(err) = &run.exec_error {
        return Err(format!("the program could not be started: {err}"));
    }
    let time_ms = limits.time.as_secs_f64() * 1000.0;
    if run.wall_timeout {
        return Ok(Some((
            Verdict::TLE,
            format!("killed at the wall-clock limit after {:.0} ms", run.wall_ms),
        )));
    }
    if run.cpu_ms > time_ms {
        return Ok(Some((
            Verdict::TLE,
            format!(
                "CPU time {:.0} ms above the limit of {time_ms:.0} ms",
                run.cpu_ms
            ),
        )));
    }
    let limit_kib = limits.memory_bytes / 1024;
    if run.oom_kill {
        return Ok(Some((
            Verdict::MLE,
            "killed by the kernel at the memory limit".to_owned(),
        )));
    }
    if run.peak_kib > limit_kib {
        return Ok(Some((
            Verdict::MLE,
            format!(
                "peak memory {} KiB above the limit of {limit_kib} KiB",
                run.peak_kib
            ),
        )));
    }
    if run.signal == Some(libc::SIGXFSZ) || run.stdout_bytes > limits.output_bytes {
        return Ok(Some((
            Verdict::OLE,
            format!("output above the limit of {} bytes", limits.output_bytes),
        )));
    }
    if let Some(sig) = run.signal {
        return Ok(Some((Verdict::RTE, format!("killed by signal {sig}"))));
    }
    match run.exit_code {
        Some(0) => Ok(None),
        Some(code) => Ok(Some((Verdict::RTE, format!("exit code {code}")))),
        None => Ok(Some((
            Verdict::RTE,
            "ended without an exit code".to_owned(),
        ))),
    }
}

fn check_output(
    output: &Path,
    answer: &Path,
    flags: &problems::default_validator::DefaultFlags,
) -> (Verdict, String) {
    let (team, judge) = match (std::fs::read(output), std::fs::read(answer)) {
        (Ok(team), Ok(judge)) => (team, judge),
        (Err(err), _) => {
            return (
                Verdict::JE,
                format!("cannot read the output {}: {err}", output.display()),
            );
        }
        (_, Err(err)) => {
            return (
                Verdict::JE,
                format!("cannot read the answer {}: {err}", answer.display()),
            );
        }
    };
    match problems::default_validator::check(&judge, &team, flags) {
        problems::default_validator::Outcome::Accepted => (Verdict::AC, String::new()),
        problems::default_validator::Outcome::WrongAnswer(msg) => (Verdict::WA, msg),
    }
}

/// What is being compiled: the submission or the output validator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Submission,
    Validator,
}

impl Unit {
    fn tag(self) -> &'static str {
        match self {
            Unit::Submission => "submission",
            Unit::Validator => "validator",
        }
    }

    /// The sandbox folder holding the unit's source and build.
    fn src_dir(self) -> PathBuf {
        Path::new("/judge/src").join(self.tag())
    }

    fn workdir(self) -> &'static str {
        match self {
            Unit::Submission => "/box",
            Unit::Validator => "/validator",
        }
    }

    fn uid(self) -> u32 {
        match self {
            Unit::Submission => SANDBOX_UID,
            Unit::Validator => VALIDATOR_UID,
        }
    }
}

/// Compiles (or takes the build from the cache); the build's files end up in
/// `/judge/src/<unit>/build/`; returns their names, or `None` on a compile error.
async fn compile(
    submission: &Submission,
    unit: Unit,
    config: &SandboxConfig,
    options: &Options,
    ws: &mut Workspace,
    sandbox: &mut Sandbox,
    limits: &problems::Limits,
) -> Result<(CompileInfo, Option<Vec<String>>)> {
    let lang = &submission.language;
    let source_name = lang.source_name(&submission.source);
    let command = lang.command(
        &lang.compile,
        &submission.source,
        limits.memory_bytes.div_ceil(1024 * 1024),
    );
    let mut hasher = sha2::Sha256::new();
    for part in [
        config.recipe_hash.as_str(),
        lang.id.as_str(),
        &command.join("\u{1f}"),
        &source_name,
        &submission.source,
    ] {
        hasher.update(part.as_bytes());
        hasher.update([0]);
    }
    let key = hex::encode(hasher.finalize());
    let host_unit = ws.host_src().join(unit.tag());
    let host_build = host_unit.join("build");
    std::fs::create_dir_all(&host_build).map_err(|source| Error::Io {
        what: "cannot create",
        path: host_build.clone(),
        source,
    })?;
    if unit == Unit::Validator {
        // The submission may not read the validator (nor anything it reads).
        use std::os::unix::fs::PermissionsExt;
        for dir in [&host_unit, &host_build] {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
                .and_then(|()| {
                    std::os::unix::fs::chown(dir, Some(VALIDATOR_UID), Some(VALIDATOR_UID))
                })
                .map_err(|source| Error::Io {
                    what: "cannot protect",
                    path: dir.clone(),
                    source,
                })?;
        }
    }
    let cached = options
        .cache_dir
        .as_ref()
        .map(|dir| dir.join(&key))
        .filter(|dir| dir.join(".complete").is_file());
    if let Some(dir) = cached {
        let names = copy_files(&dir, &host_build)?;
        let info = CompileInfo {
            cached: true,
            ok: true,
            log: String::new(),
            cpu_ms: 0.0,
            wall_ms: 0.0,
        };
        return Ok((info, Some(names)));
    }
    std::fs::write(host_unit.join(&source_name), submission.source.as_bytes()).map_err(
        |source| Error::Io {
            what: "cannot write",
            path: host_unit.join(&source_name),
            source,
        },
    )?;
    let compile_ms = limits.compilation_time.as_millis() as u64;
    let log = format!("/judge/out/{}-compile.log", unit.tag());
    let out_build = format!("/judge/out/{}-build", unit.tag());
    let job = Job {
        uid: unit.uid(),
        gid: unit.uid(),
        workdir: unit.workdir().into(),
        copy_in: vec![(
            unit.src_dir().join(&source_name),
            Path::new(unit.workdir()).join(&source_name),
            None,
        )],
        command,
        env: sandbox_env(),
        limits: JobLimits {
            cpu_ms: compile_ms,
            wall_ms: compile_ms,
            output_bytes: 256 * 1024 * 1024,
            stack_bytes: 64 * 1024 * 1024,
            processes: 512,
            open_files: 1024,
        },
        oom_file: None,
        runs: vec![RunIo {
            stdin: None,
            stdout: log.clone().into(),
            stderr: log.clone().into(),
            validator: None,
            interactor: None,
        }],
        copy_out: Some(out_build.clone().into()),
    };
    let mut report = None;
    sandbox
        .exec(
            ws,
            job,
            limits.compilation_memory_bytes.min(4 << 30),
            &mut |run| {
                report = Some(run);
                true
            },
        )
        .await?;
    let run = report.ok_or_else(|| Error::Sandbox {
        backend: options.backend.name(),
        why: "no compile report".to_owned(),
    })?;
    if let Some(err) = &run.exec_error {
        return Err(Error::Sandbox {
            backend: options.backend.name(),
            why: format!("cannot start the compiler: {err}"),
        });
    }
    let mut log = std::fs::read(ws.host_out_file(Path::new(&log))).unwrap_or_default();
    log.truncate(64 * 1024);
    let mut log = String::from_utf8_lossy(&log).into_owned();
    let ok = run.exit_code == Some(0) && !run.wall_timeout;
    if run.wall_timeout {
        log.push_str(&format!(
            "\ncompilation killed at the limit of {compile_ms} ms"
        ));
    } else if run.oom_kill {
        log.push_str("\ncompilation killed at the memory limit");
    }
    let info = CompileInfo {
        cached: false,
        ok,
        log,
        cpu_ms: run.cpu_ms,
        wall_ms: run.wall_ms,
    };
    if !ok {
        return Ok((info, None));
    }
    let build_dir = ws.host_out_file(Path::new(&out_build));
    let names = copy_files(&build_dir, &host_build)?;
    if let Some(cache) = &options.cache_dir {
        store_in_cache(&build_dir, &cache.join(&key));
    }
    Ok((info, Some(names)))
}

/// Copies the regular files of `from` into `to`; returns their names, sorted.
fn copy_files(from: &Path, to: &Path) -> Result<Vec<String>> {
    let io = |path: &Path, source| Error::Io {
        what: "cannot copy build file",
        path: path.to_path_buf(),
        source,
    };
    let mut names = Vec::new();
    for entry in std::fs::read_dir(from).map_err(|e| io(from, e))? {
        let entry = entry.map_err(|e| io(from, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.')
            || !entry
                .file_type()
                .map_err(|e| io(&entry.path(), e))?
                .is_file()
        {
            continue;
        }
        std::fs::copy(entry.path(), to.join(&name)).map_err(|e| io(&entry.path(), e))?;
        names.push(name);
    }
    names.sort();
    Ok(names)
}

/// Stores a build in the cache (best effort: a failure only costs a later recompile).
fn store_in_cache(build: &Path, dest: &Path) {
    let Some(parent) = dest.parent() else { return };
    if std::fs::create_dir_all(parent).is_err() {
        return;
    }
    let Ok(tmp) = tempfile::Builder::new().prefix(".tmp-").tempdir_in(parent) else {
        return;
    };
    if copy_files(build, tmp.path()).is_ok()
        && std::fs::write(tmp.path().join(".complete"), b"").is_ok()
    {
        let tmp = tmp.keep();
        if std::fs::rename(&tmp, dest).is_err() {
            let _ = std::fs::remove_dir_all(&tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn run(f: impl FnOnce(&mut RunReport)) -> RunReport {
        let mut it = RunReport {
            index: 0,
            exit_code: Some(0),
            signal: None,
            cpu_ms: 100.0,
            wall_ms: 120.0,
            peak_kib: 1000,
            stdout_bytes: 10,
            oom_kill: false,
            wall_timeout: false,
            exec_error: None,
            validator: None,
        };
        f(&mut it);
        it
    }

    fn verdict(r: &RunReport) -> Option<Verdict> {
        let limits = problems::Limits {
            time: Duration::from_secs(1),
            memory_bytes: 64 << 20,
            output_bytes: 1 << 20,
            ..problems::package::DEFAULT_LIMITS
        };
        classify(r, &limits).expect("starts").map(|(v, _)| v)
    }

    fn case(name: &str) -> problems::TestCase {
        problems::TestCase {
            name: name.to_owned(),
            input: name.into(),
            answer: name.into(),
            is_sample: false,
            output_validator_args: None,
        }
    }

    #[test]
    fn scored_groups_sum_and_min() {
        use problems::package::Aggregation;
        let group =
            |name: &str, score: Option<f64>, aggregation, cases: &[&str]| problems::TestGroup {
                name: name.to_owned(),
                cases: cases.iter().map(|c| case(c)).collect(),
                groups: vec![],
                score,
                aggregation,
                output_validator_args: None,
            };
        let secret = problems::TestGroup {
            name: "secret".to_owned(),
            cases: vec![],
            groups: vec![
                group(
                    "secret/1",
                    Some(20.0),
                    Some(Aggregation::Min),
                    &["a1", "a2"],
                ),
                group(
                    "secret/2",
                    Some(30.0),
                    Some(Aggregation::Min),
                    &["b1", "b2"],
                ),
                group("secret/3", Some(50.0), None, &["c1", "c2", "c3", "c4"]),
            ],
            score: None,
            aggregation: None,
            output_validator_args: None,
        };
        let verdicts = |ok: &[&'static str]| -> std::collections::HashMap<&'static str, Verdict> {
            ["a1", "a2", "b1", "b2", "c1", "c2", "c3", "c4"]
                .into_iter()
                .map(|n| {
                    (
                        n,
                        if ok.contains(&n) {
                            Verdict::AC
                        } else {
                            Verdict::WA
                        },
                    )
                })
                .collect()
        };
        let all = verdicts(&["a1", "a2", "b1", "b2", "c1", "c2", "c3", "c4"]);
        assert_eq!(group_score(&secret, &all, 100.0), (100.0, 100.0));
        // Group 1 complete, group 2 broken (min: nothing), half of the sum group.
        let some = verdicts(&["a1", "a2", "b1", "c1", "c3"]);
        assert_eq!(group_score(&secret, &some, 100.0), (45.0, 100.0));
        assert_eq!(group_score(&secret, &verdicts(&[]), 100.0), (0.0, 100.0));
    }

    #[test]
    fn classification_follows_the_precedence() {
        assert_eq!(verdict(&run(|_| {})), None);
        assert_eq!(verdict(&run(|r| r.exit_code = Some(1))), Some(Verdict::RTE));
        assert_eq!(
            verdict(&run(|r| {
                r.exit_code = None;
                r.signal = Some(libc::SIGSEGV)
            })),
            Some(Verdict::RTE)
        );
        // An OOM kill shows as SIGKILL but is MLE.
        assert_eq!(
            verdict(&run(|r| {
                r.signal = Some(9);
                r.exit_code = None;
                r.oom_kill = true
            })),
            Some(Verdict::MLE)
        );
        assert_eq!(
            verdict(&run(|r| r.peak_kib = 64 * 1024 + 1)),
            Some(Verdict::MLE)
        );
        assert_eq!(
            verdict(&run(|r| {
                r.signal = Some(libc::SIGXFSZ);
                r.exit_code = None
            })),
            Some(Verdict::OLE)
        );
        // Time beats memory and output.
        assert_eq!(
            verdict(&run(|r| {
                r.cpu_ms = 1001.0;
                r.oom_kill = true
            })),
            Some(Verdict::TLE)
        );
        assert_eq!(
            verdict(&run(|r| {
                r.wall_timeout = true;
                r.signal = Some(9)
            })),
            Some(Verdict::TLE)
        );
        let limits = problems::package::DEFAULT_LIMITS;
        assert!(
            classify(
                &run(|r| r.exec_error = Some("execve errno 2".into())),
                &limits
            )
            .is_err()
        );
    }
}
