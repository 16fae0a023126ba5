//! The workbench: running code for the agent's solve loop, through one interface.
//!
//! [`Workbench`] compiles a program once ([`Workbench::compile`], cached like the judge's
//! builds), then runs it on inputs of the caller's own ([`Workbench::run_inputs`]: a
//! generator with a seed argument, a brute force, the candidate), judges it on test cases
//! made on the fly through the problem's own output validator
//! ([`Workbench::judge_cases`]), on the package's samples ([`Workbench::judge_samples`])
//! and, offline only, on its hidden data ([`Workbench::judge_hidden`]), and asks the
//! package's input validators about generated inputs ([`Workbench::validate_inputs`]).
//!
//! Per-input cost is the judge's: each call opens one sandbox and runs every input of the
//! call in it through one supervisor job (never one sandbox per input). Judging reuses
//! the grading path itself: [`Workbench::judge_cases`] judges a copy of the problem whose
//! test data is the given cases (written to a temporary folder), so the default validator
//! with its flags, a custom validator (Kattis or testlib), an interactor and the verdict
//! rules are exactly those of [`crate::judge`].
//!
//! A wrong answer, a time-out, a crash or a compile error is data; `Err` ([`Error`]) is the
//! workbench itself failing (the sandbox is missing, a validator does not compile, a
//! request it cannot carry out).
//!
//! Hidden test data never enters a prompt: [`HiddenReport`] carries verdicts, times and
//! memory only, never an input, an answer, an output or a validator's message.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use problems::{Problem, TestCase, TestGroup, Verdict};
use serde::Serialize;

use crate::grade::{self, CompileInfo, Options, Submission, TestResult};
use crate::sandbox::{
    BackendKind, Job, JobLimits, MEMORY_HEADROOM, RunIo, RunReport, SANDBOX_UID, Sandbox,
    SandboxConfig, Workspace, sandbox_env,
};
use crate::{Error, Result};

/// The most bytes of a validator's feedback (or a judge's message) kept per test.
pub const FEEDBACK_BYTES: usize = 2048;

/// The most bytes of the end of a program's standard error kept per run.
pub const STDERR_TAIL_BYTES: usize = 4096;

/// The most bytes of a sample's input, answer and output kept in a [`SampleResult`],
/// and of a program's output in a [`CaseResult`].
pub const TEXT_BYTES: usize = 64 * 1024;

/// Runs and judges programs for the agent: one sandbox per call, every input in it.
///
/// Cheap to share: every method takes `&self` and calls may run at the same time (each
/// has its own sandbox; the build cache is written by atomic renames).
#[derive(Debug)]
pub struct Workbench {
    config: SandboxConfig,
    backend: BackendKind,
    cache: Cache,
}

/// Where builds are cached: the caller's folder, or one of the workbench's own that lives
/// as long as it does.
#[derive(Debug)]
enum Cache {
    Given(PathBuf),
    Own(tempfile::TempDir),
}

impl Cache {
    fn path(&self) -> &Path {
        match self {
            Cache::Given(path) => path,
            Cache::Own(dir) => dir.path(),
        }
    }
}

/// The outcome of [`Workbench::compile`]: the program, or the compiler's message.
#[derive(Debug, Clone)]
pub enum Compiled {
    /// It compiled (or its build came from the cache).
    Ok(Program),
    /// It did not compile: the compiler's output (its first 64 KiB), with a note when
    /// the compiler was killed at its time or memory limit.
    Failed {
        /// What the compiler said.
        message: String,
    },
}

impl Compiled {
    /// The program, when it compiled.
    pub fn program(self) -> Option<Program> {
        match self {
            Compiled::Ok(program) => Some(program),
            Compiled::Failed { .. } => None,
        }
    }
}

/// A program that compiled: its source and language, and how its compile went. Running
/// it takes its build from the workbench's cache (compiling again only if the cache lost
/// it).
#[derive(Debug, Clone)]
pub struct Program {
    /// Shared: a program is cheap to clone.
    submission: Arc<Submission>,
    /// The compile step (time, whether it came from the cache, warnings).
    pub compile: CompileInfo,
}

impl Program {
    /// The language id (`cpp`, `python3`).
    pub fn language(&self) -> &str {
        &self.submission.language.id
    }

    /// The source text.
    pub fn source(&self) -> &str {
        &self.submission.source
    }
}

/// One input of [`Workbench::run_inputs`]: the standard input and extra arguments.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RunInput {
    /// The program's standard input.
    pub stdin: String,
    /// Arguments after the program's command (a generator's seed); none may contain a
    /// newline or a NUL byte.
    pub args: Vec<String>,
}

impl RunInput {
    /// An input given on standard input, without arguments.
    pub fn stdin(text: impl Into<String>) -> RunInput {
        RunInput {
            stdin: text.into(),
            args: Vec::new(),
        }
    }

    /// No standard input, the arguments `args` (a generator's seed).
    pub fn args<S: Into<String>>(args: impl IntoIterator<Item = S>) -> RunInput {
        RunInput {
            stdin: String::new(),
            args: args.into_iter().map(Into::into).collect(),
        }
    }
}

/// Limits of each run of [`Workbench::run_inputs`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RunLimits {
    /// CPU time per input; the wall-clock limit is it plus 1 s or 10% (`grade::wall_limit_ms`).
    pub time: Duration,
    /// Peak memory per input, in bytes (enforced by the kernel).
    pub memory_bytes: u64,
    /// Output per input, in bytes: more is [`RunStatus::OutputLimit`].
    pub output_bytes: u64,
    /// The most bytes of each output returned in [`RunOutcome::stdout`].
    pub capture_bytes: usize,
}

impl Default for RunLimits {
    /// 2 s, 1 GiB, 64 MiB of output, 16 MiB returned.
    fn default() -> RunLimits {
        RunLimits {
            time: Duration::from_secs(2),
            memory_bytes: 1 << 30,
            output_bytes: 64 << 20,
            capture_bytes: 16 << 20,
        }
    }
}

impl RunLimits {
    /// The problem's time, memory and output limits (the candidate's), returning whole
    /// outputs up to the output limit (at most 64 MiB).
    pub fn of(problem: &Problem) -> RunLimits {
        RunLimits {
            time: problem.limits.time,
            memory_bytes: problem.limits.memory_bytes,
            output_bytes: problem.limits.output_bytes,
            capture_bytes: problem.limits.output_bytes.min(64 << 20) as usize,
        }
    }

    /// The judge's limits with these in place of the problem's.
    fn as_limits(&self) -> problems::Limits {
        problems::Limits {
            time: self.time,
            memory_bytes: self.memory_bytes,
            output_bytes: self.output_bytes,
            ..problems::package::DEFAULT_LIMITS
        }
    }
}

/// How a run ended, by the judge's rules (time beats memory beats output beats a crash).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// Exited with 0 within the limits.
    Ok,
    /// Killed at the wall-clock limit, or CPU time above the limit.
    TimeLimit,
    /// Killed by the kernel at the memory limit, or a peak above it.
    MemoryLimit,
    /// A non-zero exit or a signal.
    RuntimeError,
    /// Output above the limit.
    OutputLimit,
}

impl RunStatus {
    fn of(verdict: Verdict) -> RunStatus {
        match verdict {
            Verdict::TLE => RunStatus::TimeLimit,
            Verdict::MLE => RunStatus::MemoryLimit,
            Verdict::OLE => RunStatus::OutputLimit,
            _ => RunStatus::RuntimeError,
        }
    }
}

/// One input's run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunOutcome {
    /// The input's position in the call, from 0.
    pub index: usize,
    /// How it ended.
    pub status: RunStatus,
    /// Why, when not [`RunStatus::Ok`] (`exit code 3`, `killed by signal 11`).
    pub message: String,
    /// Standard output, its first [`RunLimits::capture_bytes`] (invalid UTF-8 replaced).
    pub stdout: String,
    /// Bytes written to standard output.
    pub stdout_bytes: u64,
    /// Whether `stdout` is cut short of what was written.
    pub stdout_truncated: bool,
    /// The last [`STDERR_TAIL_BYTES`] of standard error.
    pub stderr_tail: String,
    /// Exit code, when it exited.
    pub exit_code: Option<i32>,
    /// Signal, when it was killed.
    pub signal: Option<i32>,
    /// CPU time in milliseconds (user + system, every thread and child).
    pub cpu_ms: f64,
    /// Wall time in milliseconds.
    pub wall_ms: f64,
    /// Peak memory in KiB.
    pub peak_kib: u64,
}

/// A test case made on the fly: an input and an answer (a brute force's output, say).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Case {
    /// The input.
    pub input: String,
    /// The answer the output validator compares with (for an interactor: its input).
    pub answer: String,
}

/// A program's result on one [`Case`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseResult {
    /// The case's position in the call, from 0.
    pub index: usize,
    /// The judge's verdict (CE on every case when the program does not compile under the
    /// problem's limits).
    pub verdict: Verdict,
    /// The output validator's feedback, or the judge's reason (its first
    /// [`FEEDBACK_BYTES`]).
    pub feedback: String,
    /// The program's output, its first [`TEXT_BYTES`] (empty on an interactive problem).
    pub output: String,
    /// CPU time in milliseconds.
    pub cpu_ms: f64,
    /// Wall time in milliseconds.
    pub wall_ms: f64,
    /// Peak memory in KiB.
    pub peak_kib: u64,
    /// Exit code, when it exited.
    pub exit_code: Option<i32>,
    /// Signal, when it was killed.
    pub signal: Option<i32>,
}

/// A program's result on one sample: the sample's text may go into a prompt.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SampleResult {
    /// The test case's name (`sample/1`).
    pub name: String,
    /// The judge's verdict.
    pub verdict: Verdict,
    /// The validator's feedback or the judge's reason (first [`FEEDBACK_BYTES`]).
    pub feedback: String,
    /// The sample's input (first [`TEXT_BYTES`]).
    pub input: String,
    /// The sample's answer (first [`TEXT_BYTES`]).
    pub answer: String,
    /// The program's output (first [`TEXT_BYTES`]).
    pub output: String,
    /// CPU time in milliseconds.
    pub cpu_ms: f64,
    /// Wall time in milliseconds.
    pub wall_ms: f64,
    /// Peak memory in KiB.
    pub peak_kib: u64,
    /// Exit code, when it exited.
    pub exit_code: Option<i32>,
    /// Signal, when it was killed.
    pub signal: Option<i32>,
}

/// A program's judgement on the package's samples, every sample run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SampleReport {
    /// The verdict of the first sample that is not AC (AC when there are no samples; CE
    /// when the program does not compile under the problem's limits).
    pub verdict: Verdict,
    /// Samples accepted.
    pub passed: usize,
    /// Samples in the package.
    pub total: usize,
    /// The compiler's output when the verdict is CE (its first [`FEEDBACK_BYTES`]).
    pub compile_message: String,
    /// One result per sample, in judging order.
    pub tests: Vec<SampleResult>,
}

/// A program's result on one test of the full package: verdict, times and memory only
/// (not even the test's name, which may describe it: `secret/04-max-negative`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HiddenResult {
    /// Position in judging order, from 0 (samples first).
    pub index: usize,
    /// Whether it is a sample.
    pub sample: bool,
    /// The judge's verdict.
    pub verdict: Verdict,
    /// CPU time in milliseconds.
    pub cpu_ms: f64,
    /// Wall time in milliseconds.
    pub wall_ms: f64,
    /// Peak memory in KiB.
    pub peak_kib: u64,
}

/// A program's judgement on the whole package (samples, then secret data), every test
/// run, as the local judge gives it. It holds no test data, no output and no validator
/// message, and nothing built from it may go into a prompt but these figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HiddenReport {
    /// The judge's verdict on the submission.
    pub verdict: Verdict,
    /// 1 or 0 on pass-fail problems; the points on scored ones.
    pub score: f64,
    /// Tests accepted.
    pub passed: usize,
    /// Tests in the package.
    pub total: usize,
    /// One result per test, in judging order (none on CE).
    pub tests: Vec<HiddenResult>,
}

/// What the package's input validators said about one input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InputCheckResult {
    /// The input's position in the call, from 0.
    pub index: usize,
    /// Every validator accepted it (true when the package has none).
    pub valid: bool,
    /// The validators that ran (`input_validators/validate.py (Python 3: validate.py)`);
    /// entries the judge does not build (a `.ctd` file) are not among them.
    pub validators: Vec<String>,
    /// The first rejection's validator and reason (empty when valid).
    pub message: String,
}

impl Workbench {
    /// A workbench on `backend`; builds are cached in `cache_dir`, or when `None` in a
    /// temporary folder of its own, removed when it is dropped.
    pub fn new(
        config: SandboxConfig,
        backend: BackendKind,
        cache_dir: Option<PathBuf>,
    ) -> Result<Workbench> {
        let cache = match cache_dir {
            Some(dir) => Cache::Given(dir),
            None => Cache::Own(
                tempfile::Builder::new()
                    .prefix("workbench-cache-")
                    .tempdir()
                    .map_err(|source| Error::Io {
                        what: "cannot create a build cache in",
                        path: std::env::temp_dir(),
                        source,
                    })?,
            ),
        };
        Ok(Workbench {
            config,
            backend,
            cache,
        })
    }

    /// The backend it runs on.
    pub fn backend(&self) -> BackendKind {
        self.backend
    }

    fn options(&self, run_all: bool) -> Options {
        Options {
            backend: self.backend,
            run_all,
            cache_dir: Some(self.cache.path().to_path_buf()),
        }
    }

    /// Compiles `source` in `language` (an id of the language table: `cpp`, `python3`)
    /// in a sandbox, or takes its build from the cache. A compile error is
    /// [`Compiled::Failed`]; `Err` is an unknown language or the sandbox failing.
    pub async fn compile(&self, language: &str, source: &str) -> Result<Compiled> {
        self.compile_under(language, source, &problems::package::DEFAULT_LIMITS)
            .await
    }

    /// [`Workbench::compile`] under `limits`' compile time and memory (a service that
    /// bounds its compiles below the package format's 60 s and 2 GiB).
    pub async fn compile_under(
        &self,
        language: &str,
        source: &str,
        limits: &problems::Limits,
    ) -> Result<Compiled> {
        let language = crate::lang::by_id(language)?;
        let submission = Submission {
            path: PathBuf::from(language.source_name(source)),
            source: source.to_owned(),
            language,
        };
        let mut ws = Workspace::new()?;
        let mut sandbox = Sandbox::open(self.backend, &self.config, &ws).await?;
        let built = grade::build_submission(
            &submission,
            limits,
            &self.config,
            &self.options(true),
            &mut ws,
            &mut sandbox,
        )
        .await;
        sandbox.close().await;
        let built = built?;
        Ok(match built.copy_in {
            Some(_) => Compiled::Ok(Program {
                submission: Arc::new(submission),
                compile: built.compile,
            }),
            None => Compiled::Failed {
                message: built.compile.log,
            },
        })
    }

    /// Runs `program` on every input in one sandbox (one supervisor job), each with its
    /// standard input and extra arguments, under `limits`; one outcome per input, in
    /// order. A time-out or a crash on one input is that input's status and does not
    /// touch the others.
    ///
    /// Inputs with arguments run through `/bin/sh`, which reads them from a file and then
    /// becomes the program (its start is counted in the run's time: about a millisecond);
    /// when no input has arguments the program runs directly, as the judge runs it.
    pub async fn run_inputs(
        &self,
        program: &Program,
        inputs: &[RunInput],
        limits: &RunLimits,
    ) -> Result<Vec<RunOutcome>> {
        if inputs.is_empty() {
            return Ok(Vec::new());
        }
        if let Some((idx, arg)) = inputs.iter().enumerate().find_map(|(idx, input)| {
            input
                .args
                .iter()
                .find(|arg| arg.contains(['\n', '\0']))
                .map(|arg| (idx, arg))
        }) {
            return Err(Error::Request(format!(
                "argument {arg:?} of input {idx} holds a newline or a NUL byte"
            )));
        }
        let mut ws = Workspace::pooled(&self.config.workspaces)?;
        let mut sandbox = Sandbox::open(self.backend, &self.config, &ws).await?;
        let res = self
            .run_in(&mut ws, &mut sandbox, program, inputs, limits)
            .await;
        sandbox.close().await;
        ws.sandbox_closed();
        res
    }

    async fn run_in(
        &self,
        ws: &mut Workspace,
        sandbox: &mut Sandbox,
        program: &Program,
        inputs: &[RunInput],
        limits: &RunLimits,
    ) -> Result<Vec<RunOutcome>> {
        let backend = self.backend.name();
        let judge_limits = limits.as_limits();
        let built = grade::build_submission(
            &program.submission,
            &judge_limits,
            &self.config,
            &self.options(true),
            ws,
            sandbox,
        )
        .await?;
        let Some(copy_in) = built.copy_in else {
            return Err(Error::Sandbox {
                backend,
                why: format!(
                    "the program compiled before but not now: {}",
                    cap(&built.compile.log, FEEDBACK_BYTES)
                ),
            });
        };
        let with_args = inputs.iter().any(|input| !input.args.is_empty());
        let args_dir = ws.host_src().join("args");
        if with_args {
            create_dir(&args_dir)?;
        }
        let mut runs = Vec::with_capacity(inputs.len());
        for (idx, input) in inputs.iter().enumerate() {
            let host = ws.host_in().join(format!("{idx:04}.in"));
            write(&host, input.stdin.as_bytes())?;
            if with_args {
                let mut text = String::new();
                for arg in &input.args {
                    text.push_str(arg);
                    text.push('\n');
                }
                write(&args_dir.join(format!("{idx:04}")), text.as_bytes())?;
            }
            runs.push(RunIo {
                stdin: Some(format!("/judge/in/{idx:04}.in").into()),
                stdout: format!("/judge/out/{idx:04}.out").into(),
                stderr: format!("/judge/out/{idx:04}.err").into(),
                validator: None,
                interactor: None,
            });
        }
        let lang = &program.submission.language;
        let memory_mib = limits.memory_bytes.div_ceil(1024 * 1024);
        let mut command = lang.command(&lang.run, &program.submission.source, memory_mib);
        if with_args {
            command = with_args_wrapper(command);
        }
        let time_ms = limits.time.as_millis() as u64;
        let job = Job {
            uid: SANDBOX_UID,
            gid: SANDBOX_UID,
            workdir: built.workdir.into(),
            copy_in,
            command,
            env: sandbox_env(),
            limits: JobLimits {
                cpu_ms: time_ms,
                wall_ms: crate::grade::wall_limit_ms(time_ms),
                output_bytes: limits.output_bytes,
                stack_bytes: limits.memory_bytes,
                processes: crate::sandbox::USER_PROCESSES,
                open_files: 512,
            },
            oom_file: None,
            runs,
            copy_out: None,
            discard_writes: false,
        };
        let mut reports: Vec<RunReport> = Vec::with_capacity(inputs.len());
        sandbox
            .exec(ws, job, limits.memory_bytes + MEMORY_HEADROOM, &mut |run| {
                reports.push(run);
                ControlFlow::Continue(())
            })
            .await?;
        if reports.len() != inputs.len() {
            return Err(Error::Sandbox {
                backend,
                why: format!("{} of {} runs reported", reports.len(), inputs.len()),
            });
        }
        let out_dir = ws.host_out();
        reports
            .into_iter()
            .map(|run| {
                let (status, message) = match grade::classify(&run, &judge_limits) {
                    Err(why) => return Err(Error::Sandbox { backend, why }),
                    Ok(None) => (RunStatus::Ok, String::new()),
                    Ok(Some((verdict, message))) => (RunStatus::of(verdict), message),
                };
                let (stdout, stdout_truncated) = read_head(
                    &out_dir.join(format!("{:04}.out", run.index)),
                    limits.capture_bytes,
                );
                Ok(RunOutcome {
                    index: run.index,
                    status,
                    message,
                    stdout,
                    stdout_bytes: run.stdout_bytes,
                    stdout_truncated,
                    stderr_tail: read_tail(
                        &out_dir.join(format!("{:04}.err", run.index)),
                        STDERR_TAIL_BYTES,
                    ),
                    exit_code: run.exit_code,
                    signal: run.signal,
                    cpu_ms: run.cpu_ms,
                    wall_ms: run.wall_ms,
                    peak_kib: run.peak_kib,
                })
            })
            .collect()
    }

    /// Judges `program` on `cases` made on the fly, through `problem`'s own output
    /// validator (the default one with the problem's flags, e.g. a float tolerance, or
    /// its custom validator, which accepts any correct answer) under the problem's
    /// limits, every case run, in one sandbox. One result per case, in order.
    pub async fn judge_cases(
        &self,
        problem: &Problem,
        program: &Program,
        cases: &[Case],
    ) -> Result<Vec<CaseResult>> {
        if cases.is_empty() {
            return Ok(Vec::new());
        }
        let data = tempfile::Builder::new()
            .prefix("workbench-cases-")
            .tempdir()
            .map_err(|source| Error::Io {
                what: "cannot create a test data folder in",
                path: std::env::temp_dir(),
                source,
            })?;
        let texts: Vec<(&str, &str)> = cases
            .iter()
            .map(|c| (c.input.as_str(), c.answer.as_str()))
            .collect();
        let made = write_cases(data.path(), &texts, problem)?;
        let made = with_data(problem, Vec::new(), made);
        let (report, ws) = grade::judge_keeping_outputs(
            &made,
            &program.submission,
            &self.config,
            &self.options(true),
            &mut |_| {},
        )
        .await?;
        if !report.compile.ok {
            let feedback = cap(&report.compile.log, FEEDBACK_BYTES);
            return Ok((0..cases.len())
                .map(|index| CaseResult {
                    index,
                    verdict: Verdict::CE,
                    feedback: feedback.clone(),
                    output: String::new(),
                    cpu_ms: 0.0,
                    wall_ms: 0.0,
                    peak_kib: 0,
                    exit_code: None,
                    signal: None,
                })
                .collect());
        }
        complete(&report.tests, cases.len(), self.backend)?;
        Ok(report
            .tests
            .iter()
            .map(|test| CaseResult {
                index: test.index,
                verdict: test.verdict,
                feedback: cap(&test.message, FEEDBACK_BYTES),
                output: output_of(&ws, test.index),
                cpu_ms: test.cpu_ms,
                wall_ms: test.wall_ms,
                peak_kib: test.peak_kib,
                exit_code: test.exit_code,
                signal: test.signal,
            })
            .collect())
    }

    /// Judges `program` on the package's samples through the normal grading path, every
    /// sample run; the results carry the samples' text (samples are public).
    pub async fn judge_samples(
        &self,
        problem: &Problem,
        program: &Program,
    ) -> Result<SampleReport> {
        if problem.sample.cases.is_empty() {
            return Ok(SampleReport {
                verdict: Verdict::AC,
                passed: 0,
                total: 0,
                compile_message: String::new(),
                tests: Vec::new(),
            });
        }
        let samples = with_data(problem, problem.sample.cases.clone(), Vec::new());
        let cases = samples.test_cases();
        let (report, ws) = grade::judge_keeping_outputs(
            &samples,
            &program.submission,
            &self.config,
            &self.options(true),
            &mut |_| {},
        )
        .await?;
        let compile_message = if report.compile.ok {
            String::new()
        } else {
            cap(&report.compile.log, FEEDBACK_BYTES)
        };
        if report.compile.ok {
            complete(&report.tests, cases.len(), self.backend)?;
        }
        let tests = report
            .tests
            .iter()
            .map(|test| {
                let case = cases[test.index];
                SampleResult {
                    name: test.name.clone(),
                    verdict: test.verdict,
                    feedback: cap(&test.message, FEEDBACK_BYTES),
                    input: read_head(&case.input, TEXT_BYTES).0,
                    answer: read_head(&case.answer, TEXT_BYTES).0,
                    output: output_of(&ws, test.index),
                    cpu_ms: test.cpu_ms,
                    wall_ms: test.wall_ms,
                    peak_kib: test.peak_kib,
                    exit_code: test.exit_code,
                    signal: test.signal,
                }
            })
            .collect();
        Ok(SampleReport {
            verdict: report.verdict,
            passed: report.passed,
            total: report.total,
            compile_message,
            tests,
        })
    }

    /// Offline only: judges `program` on the whole package (samples and secret data) as
    /// the local judge does, every test run.
    ///
    /// Hidden test data must never go into a prompt: the report holds verdicts, times and
    /// memory per test, never an input, an answer, an output or a validator's message.
    pub async fn judge_hidden(&self, problem: &Problem, program: &Program) -> Result<HiddenReport> {
        let cases = problem.test_cases();
        let report = crate::judge(
            problem,
            &program.submission,
            &self.config,
            &self.options(true),
            &mut |_| {},
        )
        .await?;
        Ok(HiddenReport {
            verdict: report.verdict,
            score: report.score,
            passed: report.passed,
            total: report.total,
            tests: report
                .tests
                .iter()
                .map(|test| HiddenResult {
                    index: test.index,
                    sample: cases.get(test.index).is_some_and(|case| case.is_sample),
                    verdict: test.verdict,
                    cpu_ms: test.cpu_ms,
                    wall_ms: test.wall_ms,
                    peak_kib: test.peak_kib,
                })
                .collect(),
        })
    }

    /// Runs every input validator of `problem` on each of `inputs` (one sandbox per
    /// validator, every input in it); one result per input, in order. An input is valid
    /// when every validator accepts it (exit code 42), and when the package has none.
    /// `Err` when a validator does not compile (naming it) or the sandbox fails.
    pub async fn validate_inputs(
        &self,
        problem: &Problem,
        inputs: &[String],
    ) -> Result<Vec<InputCheckResult>> {
        if inputs.is_empty() {
            return Ok(Vec::new());
        }
        let data = tempfile::Builder::new()
            .prefix("workbench-inputs-")
            .tempdir()
            .map_err(|source| Error::Io {
                what: "cannot create a test data folder in",
                path: std::env::temp_dir(),
                source,
            })?;
        let texts: Vec<(&str, &str)> = inputs.iter().map(|i| (i.as_str(), "")).collect();
        let made = write_cases(data.path(), &texts, problem)?;
        let names: Vec<String> = made.iter().map(|c| c.name.clone()).collect();
        let made = with_data(problem, Vec::new(), made);
        let found = grade::validate_inputs(&made, &self.config, &self.options(true)).await?;
        let mut res: Vec<InputCheckResult> = (0..inputs.len())
            .map(|index| InputCheckResult {
                index,
                valid: true,
                validators: Vec::new(),
                message: String::new(),
            })
            .collect();
        for check in &found.checks {
            let Some(index) = names.iter().position(|name| *name == check.case) else {
                return Err(Error::Sandbox {
                    backend: self.backend.name(),
                    why: format!("an input validator reported an unknown case {}", check.case),
                });
            };
            let it = &mut res[index];
            if !it.validators.contains(&check.validator) {
                it.validators.push(check.validator.clone());
            }
            if !check.valid && it.valid {
                it.valid = false;
                it.message = cap(
                    &format!("{}: {}", check.validator, check.message),
                    FEEDBACK_BYTES,
                );
            }
        }
        Ok(res)
    }
}

/// The shell script that appends the run's arguments to the command and becomes it: the
/// run is told apart by its standard output's file name (`/judge/out/0003.out` reads
/// `/judge/src/args/0003`, one argument per line).
const ARGS_SCRIPT: &str = r#"f=$(readlink "/proc/$$/fd/1") || exit 126; f=${f##*/}; f=/judge/src/args/${f%.out}; while IFS= read -r a; do set -- "$@" "$a"; done < "$f"; exec "$@""#;

fn with_args_wrapper(command: Vec<String>) -> Vec<String> {
    let mut res = vec![
        "/bin/sh".to_owned(),
        "-c".to_owned(),
        ARGS_SCRIPT.to_owned(),
        "sh".to_owned(),
    ];
    res.extend(command);
    res
}

/// Writes each `(input, answer)` as `NNNN.in`/`NNNN.ans` in `dir`, as secret cases with
/// the output validator arguments of the problem's secret data.
fn write_cases(dir: &Path, texts: &[(&str, &str)], problem: &Problem) -> Result<Vec<TestCase>> {
    let mut cases = Vec::with_capacity(texts.len());
    for (idx, (input, answer)) in texts.iter().enumerate() {
        let input_path = dir.join(format!("{idx:04}.in"));
        let answer_path = dir.join(format!("{idx:04}.ans"));
        write(&input_path, input.as_bytes())?;
        write(&answer_path, answer.as_bytes())?;
        cases.push(TestCase {
            name: format!("secret/{idx:04}"),
            input: input_path,
            answer: answer_path,
            is_sample: false,
            output_validator_args: problem.secret.output_validator_args.clone(),
        });
    }
    Ok(cases)
}

/// A copy of `problem` whose test data is `sample` and `secret` (one group each, no
/// points): judged through the grading path as the problem itself would be.
fn with_data(problem: &Problem, sample: Vec<TestCase>, secret: Vec<TestCase>) -> Problem {
    let group = |name: &str, cases: Vec<TestCase>, args: Option<Vec<String>>| TestGroup {
        name: name.to_owned(),
        cases,
        groups: Vec::new(),
        score: None,
        aggregation: None,
        output_validator_args: args,
    };
    let mut made = problem.clone();
    made.sample = group(
        "sample",
        sample,
        problem.sample.output_validator_args.clone(),
    );
    made.secret = group(
        "secret",
        secret,
        problem.secret.output_validator_args.clone(),
    );
    made.scoring = false;
    made
}

/// Checks that the judge reported every test (it runs them all).
fn complete(tests: &[TestResult], want: usize, backend: BackendKind) -> Result<()> {
    if tests.len() == want && tests.iter().enumerate().all(|(i, t)| t.index == i) {
        return Ok(());
    }
    Err(Error::Sandbox {
        backend: backend.name(),
        why: format!("{} of {want} tests reported", tests.len()),
    })
}

/// Run `index`'s output in a judgement's folders (first [`TEXT_BYTES`]).
fn output_of(ws: &Workspace, index: usize) -> String {
    read_head(&ws.host_out().join(format!("{index:04}.out")), TEXT_BYTES).0
}

/// The first `limit` bytes of a file as text (invalid UTF-8 replaced), and whether it is
/// longer; an unreadable file reads as empty (a run that wrote nothing).
fn read_head(path: &Path, limit: usize) -> (String, bool) {
    use std::io::Read;
    let Ok(file) = std::fs::File::open(path) else {
        return (String::new(), false);
    };
    let mut bytes = Vec::new();
    let _ = file.take(limit as u64 + 1).read_to_end(&mut bytes);
    let truncated = bytes.len() > limit;
    bytes.truncate(limit);
    (String::from_utf8_lossy(&bytes).into_owned(), truncated)
}

/// The last `limit` bytes of a file as text.
fn read_tail(path: &Path, limit: usize) -> String {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut file) = std::fs::File::open(path) else {
        return String::new();
    };
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let start = len.saturating_sub(limit as u64);
    if file.seek(SeekFrom::Start(start)).is_err() {
        return String::new();
    }
    let mut bytes = Vec::new();
    let _ = file.take(limit as u64).read_to_end(&mut bytes);
    String::from_utf8_lossy(&bytes).into_owned()
}

/// `text` cut to at most `limit` bytes at a character boundary.
fn cap(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return text.to_owned();
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_owned()
}

fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).map_err(|source| Error::Io {
        what: "cannot write",
        path: path.to_path_buf(),
        source,
    })
}

fn create_dir(path: &Path) -> Result<()> {
    std::fs::create_dir_all(path).map_err(|source| Error::Io {
        what: "cannot create",
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workbench_and_its_futures_can_cross_threads() {
        fn send_sync<T: Send + Sync>(_: &T) {}
        fn send<T: Send>(_: &T) {}
        let config = SandboxConfig {
            image: "none".to_owned(),
            rootfs: "/nonexistent".into(),
            supervisor: "/nonexistent".into(),
            recipe_hash: "0".to_owned(),
            cpus: None,
            workspaces: Default::default(),
        };
        let bench = Workbench::new(config, BackendKind::Bwrap, None).expect("workbench");
        send_sync(&bench);
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../problems/packages/sum");
        let (problem, _) = problems::load(&root).expect("the bundled sum package loads");
        let program = Program {
            submission: Arc::new(Submission {
                path: "a.py".into(),
                source: String::new(),
                language: crate::lang::by_id("python3").expect("python3"),
            }),
            compile: CompileInfo {
                cached: true,
                ok: true,
                log: String::new(),
                cpu_ms: 0.0,
                wall_ms: 0.0,
            },
        };
        // Built, never polled: a loop may spawn each call on a runtime's threads.
        send(&bench.compile("python3", ""));
        send(&bench.run_inputs(&program, &[], &RunLimits::default()));
        send(&bench.judge_cases(&problem, &program, &[]));
        send(&bench.judge_samples(&problem, &program));
        send(&bench.judge_hidden(&problem, &program));
        send(&bench.validate_inputs(&problem, &[]));
    }

    #[test]
    fn cap_cuts_at_a_character_boundary() {
        assert_eq!(cap("abc", 5), "abc");
        assert_eq!(cap("abcdef", 3), "abc");
        // "é" is two bytes: a cut inside it backs off before it.
        assert_eq!(cap("aé", 2), "a");
    }

    #[test]
    fn heads_and_tails_of_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("f");
        std::fs::write(&path, "0123456789").expect("write");
        assert_eq!(read_head(&path, 4), ("0123".to_owned(), true));
        assert_eq!(read_head(&path, 10), ("0123456789".to_owned(), false));
        assert_eq!(read_tail(&path, 3), "789");
        assert_eq!(read_tail(&path, 30), "0123456789");
        assert_eq!(
            read_head(&dir.path().join("none"), 4),
            (String::new(), false)
        );
        assert_eq!(read_tail(&dir.path().join("none"), 4), "");
    }

    #[test]
    fn made_data_replaces_the_package_data_and_its_points() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../problems/packages/sum");
        let (problem, _) = problems::load(&root).expect("the bundled sum package loads");
        assert!(problem.test_cases().len() > 2);
        let dir = tempfile::tempdir().expect("tempdir");
        let cases =
            write_cases(dir.path(), &[("1 2\n", "3\n"), ("5\n", "")], &problem).expect("write");
        let made = with_data(&problem, Vec::new(), cases);
        let names: Vec<&str> = made.test_cases().iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["secret/0000", "secret/0001"]);
        assert!(!grade::is_scored(&made));
        assert_eq!(
            std::fs::read_to_string(&made.test_cases()[0].answer).expect("read"),
            "3\n"
        );
        assert_eq!(made.limits, problem.limits);
    }

    #[test]
    fn the_args_wrapper_puts_the_command_after_the_script() {
        let wrapped = with_args_wrapper(vec!["./a.out".to_owned()]);
        assert_eq!(wrapped[..2], ["/bin/sh".to_owned(), "-c".to_owned()]);
        assert_eq!(wrapped[3..], ["sh".to_owned(), "./a.out".to_owned()]);
    }

    #[test]
    fn the_args_script_passes_each_line_as_one_argument() {
        // The script itself, on the host: a fake stdout name picks the arguments file.
        let dir = tempfile::tempdir().expect("tempdir");
        let script = ARGS_SCRIPT.replace("/judge/src/args", &dir.path().display().to_string());
        std::fs::write(dir.path().join("0007"), "a b\n\n42\n").expect("write");
        let out_path = dir.path().join("0007.out");
        let out = std::fs::File::create(&out_path).expect("create");
        let status = std::process::Command::new("/bin/sh")
            .args(["-c", &script, "sh", "printf", "[%s]"])
            .stdout(out)
            .status()
            .expect("sh runs");
        assert!(status.success());
        assert_eq!(
            std::fs::read_to_string(&out_path).expect("read"),
            "[a b][][42]"
        );
    }
}
