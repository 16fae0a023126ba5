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

use problems::{Problem, Validation, ValidatorConvention, Verdict};
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
    /// The test's points on a scored problem (secret tests only): its maximum when
    /// accepted, or what the validator's `score.txt`, `score_multiplier.txt` or testlib
    /// partial result gave; 0 otherwise. `None` on samples and pass-fail problems.
    pub score: Option<f64>,
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
        convention: ValidatorConvention,
        /// Arguments from `problem.yaml`.
        flags: Vec<String>,
        /// The validator is the interactor, talking with the program through pipes.
        interactive: bool,
    },
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
            flags,
            interactive,
            convention,
            ..
        } => {
            // `load` has checked that there is exactly one source.
            let path = problem.output_validator_source().ok_or_else(|| {
                Error::Unsupported(format!(
                    "problem {} has no single output validator source",
                    problem.short_name
                ))
            })?;
            let unit = Submission::from_file(&path, None, u64::MAX)?;
            Checker::Custom {
                unit: Box::new(unit),
                convention: *convention,
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
                ValidatorConvention::Kattis
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
                    ValidatorConvention::Kattis => {
                        command.extend(
                            [input, answer, feedback.clone()].map(|p| p.display().to_string()),
                        );
                        command.extend(flags.iter().cloned());
                        // An interactor reads the program's output through a pipe.
                        let stdin = (!interactive).then(|| stdout.clone());
                        (stdin, Some(feedback), false)
                    }
                    ValidatorConvention::Testlib => {
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
    let scored = is_scored(problem);
    // A score needs every test's result.
    let run_all = options.run_all || scored;
    // The most points each secret case can give (empty on pass-fail problems).
    let mut case_max = std::collections::HashMap::new();
    if scored {
        case_maxima(&problem.secret, 100.0, &mut case_max);
    }
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
                .map(|it| it.map(|(verdict, message)| Checked::plain(verdict, message)))
        };
        let checked = match decided {
            Ok(Some(it)) => it,
            Ok(None) => match convention {
                None => {
                    let flags = match problem.validation_for(case) {
                        Validation::Default(flags) => flags,
                        Validation::Custom { .. } => {
                            problems::default_validator::DefaultFlags::default()
                        }
                    };
                    let (verdict, message) = check_output(
                        &out_dir.join(format!("{:04}.out", run.index)),
                        &case.answer,
                        &flags,
                    );
                    Checked::plain(verdict, message)
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
        let (verdict, message, score) = match case_max.get(case.name.as_str()) {
            Some(max) => test_score(checked, *max),
            None => (checked.verdict, checked.message, None),
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
            score,
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
    if scored {
        let outcomes: std::collections::HashMap<&str, (Verdict, f64)> = results
            .iter()
            .map(|r| (r.name.as_str(), (r.verdict, r.score.unwrap_or(0.0))))
            .collect();
        let (score, max) = group_score(&problem.secret, &outcomes, 100.0);
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

/// Whether a problem is scored (see `problems::Problem::scoring`), or its validator
/// writes `score.txt`.
pub fn is_scored(problem: &Problem) -> bool {
    problem.scoring || matches!(problem.validation, Validation::Custom { score: true, .. })
}

/// The maximum of a part (a case or a subgroup without its own score) of `group`, whose
/// maximum is `max`: under `sum`, what is left of `max` after the subgroups with their own
/// score, shared equally among the other parts; under `min`, `max`, `avg` and
/// `pass-fail`, `max` itself (a case of a `min` group can reach the group's points).
fn part_max(group: &problems::TestGroup, max: f64) -> f64 {
    use problems::package::Aggregation;
    if !matches!(
        group.aggregation.unwrap_or(Aggregation::Sum),
        Aggregation::Sum
    ) {
        return max;
    }
    let declared: f64 = group.groups.iter().filter_map(|g| g.score).sum();
    let undeclared = group.groups.iter().filter(|g| g.score.is_none()).count() + group.cases.len();
    if undeclared == 0 {
        0.0
    } else {
        (max - declared).max(0.0) / undeclared as f64
    }
}

/// The most points each case below `group` can give, by case name; `max` is the group's
/// maximum when it declares none (100 for `data/secret`).
pub fn case_maxima(
    group: &problems::TestGroup,
    max: f64,
    out: &mut std::collections::HashMap<String, f64>,
) {
    let max = group.score.unwrap_or(max);
    let part = part_max(group, max);
    for sub in &group.groups {
        case_maxima(sub, part, out);
    }
    for case in &group.cases {
        out.insert(case.name.clone(), part);
    }
}

/// A test group's points and its maximum, from its cases' verdicts and points (by name;
/// a case that did not run counts nothing).
///
/// The group's maximum is its `score` (`max_score`) or, when it has none, `default_max`
/// (100 for `data/secret`); its parts (subgroups and cases) have the maxima of
/// [`case_maxima`]. `sum` (the default) adds the parts' points; `min` gives the group its
/// maximum times the smallest fraction any part reached, `max` and `avg` (legacy) the
/// largest or the mean fraction; `pass-fail` gives the maximum when every case below the
/// group is AC and nothing otherwise.
pub fn group_score(
    group: &problems::TestGroup,
    outcomes: &std::collections::HashMap<&str, (Verdict, f64)>,
    default_max: f64,
) -> (f64, f64) {
    use problems::package::Aggregation;
    let max = group.score.unwrap_or(default_max);
    let part = part_max(group, max);
    // (points, maximum) of every part.
    let mut parts: Vec<(f64, f64)> = group
        .groups
        .iter()
        .map(|g| group_score(g, outcomes, part))
        .collect();
    parts.extend(group.cases.iter().map(|case| {
        let points = outcomes.get(case.name.as_str()).map_or(0.0, |it| it.1);
        (points, part)
    }));
    let fraction = |(points, max): &(f64, f64)| if *max > 0.0 { points / max } else { 1.0 };
    let score = match group.aggregation.unwrap_or(Aggregation::Sum) {
        Aggregation::Sum => parts.iter().map(|p| p.0).sum(),
        Aggregation::Min => max * parts.iter().map(fraction).fold(1.0, f64::min),
        Aggregation::PassFail => {
            fn all_accepted(
                group: &problems::TestGroup,
                outcomes: &std::collections::HashMap<&str, (Verdict, f64)>,
            ) -> bool {
                group.cases.iter().all(|case| {
                    outcomes.get(case.name.as_str()).map(|it| it.0) == Some(Verdict::AC)
                }) && group.groups.iter().all(|g| all_accepted(g, outcomes))
            }
            if all_accepted(group, outcomes) {
                max
            } else {
                0.0
            }
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

/// A test's verdict and message, with the points a custom validator claimed.
#[derive(Debug, Clone, PartialEq)]
struct Checked {
    verdict: Verdict,
    message: String,
    claim: Option<Claim>,
}

impl Checked {
    fn plain(verdict: Verdict, message: String) -> Checked {
        Checked {
            verdict,
            message,
            claim: None,
        }
    }
}

/// Points a custom validator gave a test.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Claim {
    /// Kattis `score.txt`, or the points of a testlib checker's exit code 7.
    Points(f64),
    /// Kattis `score_multiplier.txt`: a fraction of the test's maximum.
    Multiplier(f64),
}

/// A secret test's verdict, message and points on a scored problem whose test can give at
/// most `max` points: an accepted test gets `max`, or what the validator's `score.txt`
/// (`score_multiplier.txt` times `max`) says; a testlib partial result (a WA) keeps its
/// points; any other test gets 0. Points above `max` make the test a judge error.
fn test_score(checked: Checked, max: f64) -> (Verdict, String, Option<f64>) {
    let Checked {
        verdict,
        message,
        claim,
    } = checked;
    let points = match (verdict, claim) {
        (Verdict::AC | Verdict::WA, Some(Claim::Points(points))) => points,
        (Verdict::AC, Some(Claim::Multiplier(fraction))) => fraction * max,
        (Verdict::AC, None) => max,
        _ => 0.0,
    };
    if points > max + problems::ScoreRange::TOLERANCE {
        return (
            Verdict::JE,
            format!(
                "the validator gave {points} points, above the test's maximum of {max}: {message}"
            ),
            Some(0.0),
        );
    }
    (verdict, message, Some(points))
}

/// The verdict of an interactive run, by who failed first (the Kattis rule):
/// - an interactor that crashed, timed out or exited with neither 42 nor 43 is a judge
///   error, whatever the program did;
/// - a program killed at the wall-clock limit or over the CPU limit is TLE;
/// - when the interactor ended first, its rejection (43) is WA whatever the program did
///   afterwards (it dies of the end of its input or a broken pipe), and its acceptance
///   (42) leaves the program's own end to decide (MLE, OLE, RTE, or AC);
/// - when the program ended first, a limit it hit (MLE, OLE) is its verdict; otherwise it
///   stopped early (normally or not) and the interactor's verdict decides: a rejection is
///   WA, an acceptance AC, or RTE when the program's end was abnormal.
///
/// The order is causal: the supervisor lets neither process see the other's end before
/// it has reaped it (see `run_interactive` in the supervisor).
fn interactive_verdict(
    run: &RunReport,
    limits: &problems::Limits,
    out_dir: &Path,
) -> std::result::Result<Checked, String> {
    if let Some(err) = &run.exec_error {
        return Err(format!("the program could not be started: {err}"));
    }
    let program = classify(run, limits)?;
    let interactor = validator_verdict(run, ValidatorConvention::Kattis, out_dir);
    if interactor.verdict == Verdict::JE {
        return Ok(interactor);
    }
    if let Some((Verdict::TLE, message)) = &program {
        return Ok(Checked::plain(Verdict::TLE, message.clone()));
    }
    let interactor_first = run.validator.as_ref().is_some_and(|v| v.ended_first);
    let program = match program {
        Some((verdict @ (Verdict::MLE | Verdict::OLE), message)) if !interactor_first => {
            return Ok(Checked::plain(verdict, message));
        }
        other => other,
    };
    match (interactor.verdict, program) {
        (Verdict::AC, Some((verdict, message))) => Ok(Checked::plain(
            verdict,
            format!("{message} (after the interactor accepted)"),
        )),
        _ => Ok(interactor),
    }
}

/// The verdict of a custom validator's run: its exit code under its convention, with its
/// messages and the points it gave (Kattis `score.txt` or `score_multiplier.txt` in the
/// feedback folder of an accepted test; testlib's exit code 7 with the points first in its
/// message). A validator that crashed, timed out, exited otherwise or wrote an unreadable
/// score is a judge error.
fn validator_verdict(run: &RunReport, convention: ValidatorConvention, out_dir: &Path) -> Checked {
    let je = |message: String| Checked::plain(Verdict::JE, message);
    let Some(step) = &run.validator else {
        return je("the output validator did not run".to_owned());
    };
    let read = |name: String| {
        let mut text = std::fs::read(out_dir.join(name)).unwrap_or_default();
        text.truncate(4096);
        String::from_utf8_lossy(&text).trim().to_owned()
    };
    if let Some(err) = &step.exec_error {
        return je(format!("the output validator could not start: {err}"));
    }
    if step.wall_timeout || step.signal.is_some() {
        return je(format!(
            "the output validator crashed or timed out (signal {:?})",
            step.signal
        ));
    }
    let idx = run.index;
    match convention {
        ValidatorConvention::Kattis => {
            let judge = read(format!("fb-{idx:04}/judgemessage.txt"));
            let team = read(format!("fb-{idx:04}/teammessage.txt"));
            let message = [judge, team]
                .into_iter()
                .filter(|m| !m.is_empty())
                .collect::<Vec<_>>()
                .join(" / ");
            let verdict = match step.exit_code {
                Some(42) => Verdict::AC,
                Some(43) => Verdict::WA,
                code => {
                    return je(format!(
                        "the output validator exited with {code:?} (42 or 43 expected): {message}"
                    ));
                }
            };
            let feedback = out_dir.join(format!("fb-{idx:04}"));
            match kattis_claim(&feedback) {
                Ok(None) => Checked::plain(verdict, message),
                Ok(Some(_)) if verdict == Verdict::WA => je(format!(
                    "the output validator rejected but wrote a score: {message}"
                )),
                Ok(claim) => Checked {
                    verdict,
                    message,
                    claim,
                },
                Err(why) => je(format!("{why}: {message}")),
            }
        }
        ValidatorConvention::Testlib => {
            let message = read(format!("{idx:04}.verr"));
            match step.exit_code {
                Some(0) => Checked::plain(Verdict::AC, message),
                Some(1) => Checked::plain(Verdict::WA, message),
                Some(2) => Checked::plain(Verdict::WA, format!("presentation error: {message}")),
                Some(7) => match testlib_points(&message) {
                    Some(points) => Checked {
                        verdict: Verdict::WA,
                        message: format!("partially correct: {message}"),
                        claim: Some(Claim::Points(points)),
                    },
                    None => je(format!(
                        "the checker exited with 7 (partial) without points first in its message: {message}"
                    )),
                },
                Some(3) => je(format!("the checker failed: {message}")),
                code => je(format!("the checker exited with {code:?}: {message}")),
            }
        }
    }
}

/// The points of a Kattis feedback folder: `score.txt` (a non-negative number) or
/// `score_multiplier.txt` (a number from 0 to 1), not both.
fn kattis_claim(feedback: &Path) -> std::result::Result<Option<Claim>, String> {
    let number = |name: &str| -> std::result::Result<Option<f64>, String> {
        let Ok(text) = std::fs::read(feedback.join(name)) else {
            return Ok(None);
        };
        let text = String::from_utf8_lossy(&text[..text.len().min(256)])
            .trim()
            .to_owned();
        match text.parse::<f64>() {
            Ok(x) if x.is_finite() && x >= 0.0 => Ok(Some(x)),
            _ => Err(format!("{name} holds {text:?}, not a non-negative number")),
        }
    };
    match (number("score.txt")?, number("score_multiplier.txt")?) {
        (Some(_), Some(_)) => {
            Err("the validator wrote both score.txt and score_multiplier.txt".to_owned())
        }
        (Some(points), None) => Ok(Some(Claim::Points(points))),
        (None, Some(fraction)) if fraction <= 1.0 => Ok(Some(Claim::Multiplier(fraction))),
        (None, Some(fraction)) => Err(format!("score_multiplier.txt holds {fraction}, above 1")),
        (None, None) => Ok(None),
    }
}

/// The points of a testlib partial result: the first word of the checker's message
/// (testlib's `quitp` writes `points <value> <message>`, or the value alone first).
fn testlib_points(message: &str) -> Option<f64> {
    let message = message.trim_start();
    let rest = message.strip_prefix("points").unwrap_or(message);
    rest.split_whitespace()
        .next()?
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x >= 0.0)
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
        let mut maxima = std::collections::HashMap::new();
        case_maxima(&secret, 100.0, &mut maxima);
        // A case of a min group can give the group's points; the sum group shares its 50.
        assert_eq!(
            (maxima["a1"], maxima["b2"], maxima["c3"]),
            (20.0, 30.0, 12.5)
        );
        let names = ["a1", "a2", "b1", "b2", "c1", "c2", "c3", "c4"];
        let outcomes = |ok: &[&str]| -> std::collections::HashMap<&'static str, (Verdict, f64)> {
            names
                .into_iter()
                .map(|n| {
                    let verdict = if ok.contains(&n) {
                        Verdict::AC
                    } else {
                        Verdict::WA
                    };
                    let points = if verdict == Verdict::AC {
                        maxima[n]
                    } else {
                        0.0
                    };
                    (n, (verdict, points))
                })
                .collect()
        };
        let all = outcomes(&names);
        assert_eq!(group_score(&secret, &all, 100.0), (100.0, 100.0));
        // Group 1 complete, group 2 broken (min: nothing), half of the sum group.
        let some = outcomes(&["a1", "a2", "b1", "c1", "c3"]);
        assert_eq!(group_score(&secret, &some, 100.0), (45.0, 100.0));
        assert_eq!(group_score(&secret, &outcomes(&[]), 100.0), (0.0, 100.0));
        // Validator points: a min group takes its weakest case's fraction.
        let mut partial = all.clone();
        partial.insert("a2", (Verdict::AC, 5.0));
        partial.insert("c4", (Verdict::WA, 2.5));
        assert_eq!(
            group_score(&secret, &partial, 100.0),
            (5.0 + 30.0 + 37.5 + 2.5, 100.0)
        );
    }

    #[test]
    fn pass_fail_groups_need_every_case() {
        let mut group = problems::TestGroup {
            name: "secret/1".to_owned(),
            cases: vec![case("x"), case("y")],
            groups: vec![],
            score: Some(40.0),
            aggregation: Some(problems::package::Aggregation::PassFail),
            output_validator_args: None,
        };
        let outcomes = |y: Verdict| {
            std::collections::HashMap::from([("x", (Verdict::AC, 40.0)), ("y", (y, 0.0))])
        };
        assert_eq!(
            group_score(&group, &outcomes(Verdict::AC), 100.0),
            (40.0, 40.0)
        );
        assert_eq!(
            group_score(&group, &outcomes(Verdict::TLE), 100.0),
            (0.0, 40.0)
        );
        group.aggregation = Some(problems::package::Aggregation::Sum);
        assert_eq!(
            group_score(&group, &outcomes(Verdict::TLE), 100.0),
            (40.0, 40.0)
        );
    }

    #[test]
    fn validator_points_become_the_test_score() {
        let checked = |verdict, claim| Checked {
            verdict,
            message: String::new(),
            claim,
        };
        let score = |verdict, claim| {
            let (verdict, _, points) = test_score(checked(verdict, claim), 20.0);
            (verdict, points)
        };
        assert_eq!(score(Verdict::AC, None), (Verdict::AC, Some(20.0)));
        assert_eq!(
            score(Verdict::AC, Some(Claim::Points(7.5))),
            (Verdict::AC, Some(7.5))
        );
        assert_eq!(
            score(Verdict::AC, Some(Claim::Multiplier(0.25))),
            (Verdict::AC, Some(5.0))
        );
        assert_eq!(
            score(Verdict::WA, Some(Claim::Points(3.0))),
            (Verdict::WA, Some(3.0))
        );
        assert_eq!(score(Verdict::WA, None), (Verdict::WA, Some(0.0)));
        assert_eq!(score(Verdict::TLE, None), (Verdict::TLE, Some(0.0)));
        assert_eq!(
            score(Verdict::AC, Some(Claim::Points(21.0))),
            (Verdict::JE, Some(0.0))
        );
        assert_eq!(testlib_points("points 12.5 almost there"), Some(12.5));
        assert_eq!(testlib_points("0.5 half"), Some(0.5));
        assert_eq!(testlib_points("partially right"), None);
    }

    #[test]
    fn kattis_score_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        let claim = |files: &[(&str, &str)]| {
            for name in ["score.txt", "score_multiplier.txt"] {
                let _ = std::fs::remove_file(dir.path().join(name));
            }
            for (name, text) in files {
                std::fs::write(dir.path().join(name), text).expect("write");
            }
            kattis_claim(dir.path())
        };
        assert_eq!(claim(&[]), Ok(None));
        assert_eq!(
            claim(&[("score.txt", "12\n")]),
            Ok(Some(Claim::Points(12.0)))
        );
        assert_eq!(
            claim(&[("score_multiplier.txt", "0.5")]),
            Ok(Some(Claim::Multiplier(0.5)))
        );
        assert!(claim(&[("score.txt", "lots")]).is_err());
        assert!(claim(&[("score.txt", "-1")]).is_err());
        assert!(claim(&[("score_multiplier.txt", "1.5")]).is_err());
        assert!(claim(&[("score.txt", "1"), ("score_multiplier.txt", "0.5")]).is_err());
    }

    fn interactive_run(
        exit_code: Option<i32>,
        signal: Option<i32>,
        interactor_exit: i32,
        interactor_first: bool,
    ) -> RunReport {
        run(|r| {
            r.exit_code = exit_code;
            r.signal = signal;
            r.validator = Some(crate::sandbox::StepReport {
                exit_code: Some(interactor_exit),
                signal: None,
                cpu_ms: 1.0,
                wall_ms: 1.0,
                wall_timeout: false,
                exec_error: None,
                ended_first: interactor_first,
            });
        })
    }

    #[test]
    fn interactive_verdicts_follow_who_failed_first() {
        let limits = problems::Limits {
            time: Duration::from_secs(1),
            memory_bytes: 64 << 20,
            output_bytes: 1 << 20,
            ..problems::package::DEFAULT_LIMITS
        };
        let out = tempfile::tempdir().expect("tempdir");
        let verdict = |r: RunReport| {
            interactive_verdict(&r, &limits, out.path())
                .expect("started")
                .verdict
        };
        let segv = (None, Some(libc::SIGSEGV));
        // (program exit, program signal, interactor exit, interactor first, verdict)
        let table = [
            (Some(0), None, 42, true, Verdict::AC),
            (Some(0), None, 42, false, Verdict::AC),
            // The interactor rejects, then the program dies of it: WA.
            (Some(1), None, 43, true, Verdict::WA),
            (segv.0, segv.1, 43, true, Verdict::WA),
            // The program stops early (normally or not): the interactor decides.
            (Some(0), None, 43, false, Verdict::WA),
            (Some(3), None, 43, false, Verdict::WA),
            (segv.0, segv.1, 43, false, Verdict::WA),
            // Accepted, but the program then fails (or failed): its own verdict.
            (Some(3), None, 42, true, Verdict::RTE),
            (segv.0, segv.1, 42, false, Verdict::RTE),
            // The interactor's own failure is the judge's.
            (Some(0), None, 0, true, Verdict::JE),
            (Some(3), None, 1, false, Verdict::JE),
        ];
        for (exit, signal, interactor, first, want) in table {
            assert_eq!(
                verdict(interactive_run(exit, signal, interactor, first)),
                want,
                "{exit:?} {signal:?} {interactor} {first}"
            );
        }
        // Limits: TLE always; MLE when the program hit it first.
        let mut tle = interactive_run(None, Some(9), 43, true);
        tle.wall_timeout = true;
        assert_eq!(verdict(tle), Verdict::TLE);
        let mut mle = interactive_run(None, Some(9), 43, false);
        mle.oom_kill = true;
        assert_eq!(verdict(mle.clone()), Verdict::MLE);
        mle.validator.as_mut().expect("validator").ended_first = true;
        assert_eq!(verdict(mle), Verdict::WA);
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
