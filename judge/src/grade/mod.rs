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
//!
//! [`judge`] holds one judgement's context (`Ctx`: the problem, the submission, how its
//! output is checked, the sandbox and its host folders) and takes it through the steps,
//! one module each: `compile` (the builds and their cache), `plan` (the test job: files,
//! runs with their validator or interactor steps, limits), `check` (a run's verdict:
//! measurements, output, validator and interactor) and `score` (points on scored
//! problems).
//!
//! The clock and output rules, stated for users by [`rules`] (`judge languages` prints
//! them): CPU time decides TLE against the time limit; the wall-clock limit is the time
//! limit plus 1 s or 10%, whichever is more ([`wall_limit_ms`], DOMjudge's overshoot),
//! not counting the time the program waited for a CPU (its run delay), and a program
//! killed there is TLE; standard output is bounded by the output limit (OLE);
//! standard error is kept up to 64 KiB and the rest dropped, never OLE; the work folder is
//! read-only to the program (the package format's `allow_file_writing: false`), and what
//! it writes in `/tmp` or `/dev/shm` (bounded by their 64 MiB tmpfs and the memory
//! cgroup) is removed after each test.

mod check;
mod compile;
mod input;
mod plan;
mod score;

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use problems::{Problem, TestCase, Verdict};
use serde::Serialize;

pub use check::classify;
pub use input::{InputCheck, InputValidation, VALID_INPUT, validate_inputs};
pub use plan::wall_limit_ms;
pub use score::{GroupScore, case_maxima, group_score, is_scored};

/// The clock and output rules every submission runs under, as text for users (`judge
/// languages`, the docs).
pub fn rules() -> String {
    let kept_kib = crate::sandbox::STDERR_KEPT_BYTES / 1024;
    let default_output_mib = problems::package::DEFAULT_LIMITS.output_bytes >> 20;
    format!(
        "Rules of every run:\n\
         - time: CPU time (user + system, every thread and child) above the time limit is TLE;\n\
         - wall clock: the time limit plus 1 s or 10% of it, whichever is more (DOMjudge's \
         overshoot); a program still running then is killed and TLE, even if it used little CPU \
         (sleeping or waiting for input counts; the time it waited for a CPU that other work \
         held, the kernel's run delay, does not);\n\
         - standard output: above the problem's output limit ({default_output_mib} MiB unless \
         `limits.output` says otherwise) is OLE, and the program is stopped as it writes past \
         it (the kernel's file-size limit). This is Kattis' rule (its verdicts include Output \
         Limit Exceeded); DOMjudge instead cuts the output at its limit and lets the program \
         run on, so a program that floods its output until the time limit is TLE there. \
         Stopping at once frees the core sooner and names the cause;\n\
         - standard error: the first {kept_kib} KiB are kept for the report, the rest is read \
         and dropped; it never counts towards OLE;\n\
         - files: the work folder is read-only to the program (the package format's \
         `allow_file_writing: false`); /tmp and /dev/shm are writable (64 MiB tmpfs, counted \
         in the memory limit) and emptied after every test, so nothing written survives a run;\n\
         - memory: the kernel's limit (the problem's memory plus 64 MiB for the judge, no \
         swap); an OOM kill or a peak above the limit is MLE;\n\
         - signals: the program starts with every signal at its default, as under a shell \
         (writing to a closed pipe, an interactor that has left, kills it with SIGPIPE);\n\
         - multi-pass problems: each pass starts the program afresh (and the interactor, on \
         an interactive problem), its limits apply to each pass, the output validator (or \
         interactor) gets that pass's input (the `nextpass.in` it wrote) as its input file, \
         and a validator that asks for more than `limits.validation_passes` passes (default \
         2) is a judge error;\n\
         - cores: each submission's sandbox, with every program in it, runs on cores of its \
         own (one unless `--cpus` says more), fixed by the cgroup's cpuset, so that runs judged \
         at once never share a core; a judge process opens at most as many sandboxes at once \
         as it has cores (those its own affinity allows) and the others wait;\n\
         - Java and Kotlin: the heap (`-Xmx`) is the problem's memory limit and the main \
         thread's stack (`-Xss`) too, at most 1 GiB; the JVM keeps its default JIT, as \
         Kattis and DOMjudge run it."
    )
}

use crate::lang::Language;
use crate::sandbox::{
    BackendKind, JobEnd, MEMORY_HEADROOM, RunReport, Sandbox, SandboxConfig, Workspace,
};
use crate::{Error, Result};
use check::Checker;
use compile::Unit;

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
    /// How many passes the program ran on this test: more than 1 only on multi-pass
    /// problems (left out of the JSON then), whose CPU time, wall time and peak memory
    /// are the largest of any pass (the limits apply to each pass).
    #[serde(skip_serializing_if = "is_one")]
    pub passes: u32,
    /// The beginning of the program's output (its first [`OUTPUT_KEPT_BYTES`] bytes, as
    /// UTF-8 with any invalid bytes replaced) on a test that was not accepted, for the
    /// jury to read beside the input and the answer; `None` on an accepted test. Left
    /// out of the JSON when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_head: Option<String>,
}

/// How much of a failed test's output a [`TestResult`] keeps.
pub const OUTPUT_KEPT_BYTES: usize = 4096;

/// The first `limit` bytes of the file at `path` as text (invalid UTF-8 replaced, a
/// character cut at the end dropped), and whether the file holds more.
pub fn read_head(path: &std::path::Path, limit: usize) -> std::io::Result<(String, bool)> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(limit as u64 + 1)
        .read_to_end(&mut bytes)?;
    let more = bytes.len() > limit;
    bytes.truncate(limit);
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let text = if bytes.len() == limit {
        // A multi-byte character cut by the limit shows as one replacement at the end.
        text.strip_suffix('\u{fffd}')
            .map_or(text.clone(), str::to_owned)
    } else {
        text
    };
    Ok((text, more))
}

/// [`read_head`]'s text; empty when the file cannot be read.
fn file_head(path: &std::path::Path, limit: usize) -> String {
    read_head(path, limit)
        .map(|(text, _)| text)
        .unwrap_or_default()
}

fn is_one(n: &u32) -> bool {
    *n == 1
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
    /// On scored problems, the points of each group directly below `data/secret` (IOI
    /// subtasks), in judging order; they add up to `score` when `data/secret` sums them
    /// (the default). Empty on pass-fail problems and when `data/secret` has no groups;
    /// left out of the JSON when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<GroupScore>,
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
    judge_keeping_outputs(problem, submission, config, options, on_test)
        .await
        .map(|(report, _)| report)
}

/// [`judge`], also returning the judgement's host folders, so that a caller in the crate
/// (the workbench) can read what each test wrote: run `i`'s standard output is
/// `out/<i:04>.out` under [`Workspace::host_out`].
pub(crate) async fn judge_keeping_outputs(
    problem: &Problem,
    submission: &Submission,
    config: &SandboxConfig,
    options: &Options,
    on_test: &mut (dyn FnMut(&TestResult) + Send),
) -> Result<(Report, Workspace)> {
    let checker = Checker::of(problem)?;
    let size = submission.source.len() as u64;
    if size > problem.limits.code_bytes {
        return Err(Error::SourceTooLarge {
            path: submission.path.clone(),
            size,
            limit: problem.limits.code_bytes,
        });
    }
    let ws = Workspace::pooled(&config.workspaces)?;
    let sandbox = Sandbox::open(options.backend, config, &ws).await?;
    let mut ctx = Ctx {
        problem,
        submission,
        checker: &checker,
        config,
        options,
        ws,
        sandbox,
    };
    let res = ctx.grade(on_test).await;
    ctx.sandbox.close().await;
    ctx.ws.sandbox_closed();
    res.map(|report| (report, ctx.ws))
}

/// A submission's build in a sandbox, for a caller in the crate that runs it on inputs of
/// its own (the workbench): compiled as [`judge`] compiles it (same recipe, same cache),
/// with the copy-ins of its build files into its work folder and its run command.
pub(crate) struct SubmissionBuild {
    /// The compile step.
    pub(crate) compile: CompileInfo,
    /// `(from, to, owner)` copy-ins of the build, or `None` when it did not compile.
    pub(crate) copy_in: Option<Vec<(PathBuf, PathBuf, Option<u32>)>>,
    /// The work folder the submission runs in.
    pub(crate) workdir: &'static str,
}

/// Compiles `submission` under `limits` in `sandbox` (or takes its build from the cache
/// in `options`), as the judge's compile step does.
pub(crate) async fn build_submission(
    submission: &Submission,
    limits: &problems::Limits,
    config: &SandboxConfig,
    options: &Options,
    ws: &mut Workspace,
    sandbox: &mut Sandbox,
) -> Result<SubmissionBuild> {
    let recipe = compile::Recipe::submission(submission, limits);
    let mut env = compile::BuildEnv {
        config,
        cache_dir: options.cache_dir.as_deref(),
        backend: options.backend.name(),
        limits,
        ws,
        sandbox,
    };
    let (compile, names) = env.compile(&recipe, Unit::Submission).await?;
    Ok(SubmissionBuild {
        compile,
        copy_in: names.map(|names| plan::build_files(Unit::Submission, &names, None)),
        workdir: Unit::Submission.workdir(),
    })
}

/// One judgement: what is judged and how, and the sandbox it runs in. Its steps are
/// methods in the step modules (`compile`, `plan`).
struct Ctx<'a> {
    problem: &'a Problem,
    submission: &'a Submission,
    checker: &'a Checker,
    config: &'a SandboxConfig,
    options: &'a Options,
    /// The sandbox's host folders.
    ws: Workspace,
    sandbox: Sandbox,
}

impl Ctx<'_> {
    /// Compiles the submission (and the output validator), runs every test in one job and
    /// aggregates the results.
    async fn grade(&mut self, on_test: &mut (dyn FnMut(&TestResult) + Send)) -> Result<Report> {
        let cases = self.problem.test_cases();
        let recipe = compile::Recipe::submission(self.submission, &self.problem.limits);
        let (compile, build) = self.compile(&recipe, Unit::Submission).await?;
        let report = Report {
            verdict: Verdict::CE,
            score: 0.0,
            max_score: None,
            groups: score::groups_without_tests(self.problem),
            passed: 0,
            total: cases.len(),
            language: self.submission.language.id.clone(),
            compile,
            tests: Vec::new(),
        };
        let Some(build) = build else {
            return Ok(report);
        };
        let validator_build = self.compile_validator().await?;
        let job = self.test_job(&cases, &build, validator_build.as_deref())?;
        let scored = is_scored(self.problem);
        let mut tests = Tests {
            problem: self.problem,
            checker: self.checker,
            backend: self.options.backend,
            cases: &cases,
            out_dir: self.ws.host_out(),
            case_max: score::secret_case_maxima(self.problem),
            // A score needs every test's result.
            run_all: self.options.run_all || scored,
            on_test,
            results: Vec::with_capacity(cases.len()),
            failure: None,
        };
        let memory_bytes = self.problem.limits.memory_bytes + MEMORY_HEADROOM;
        let end = self
            .sandbox
            .exec(&mut self.ws, job, memory_bytes, &mut |run| {
                tests.on_run(&run)
            })
            .await?;
        tests.finish(end, report)
    }
}

/// The test job's results, gathered as its runs come in.
struct Tests<'a> {
    problem: &'a Problem,
    checker: &'a Checker,
    backend: BackendKind,
    /// The test cases in judging order: run `i` is case `i`.
    cases: &'a [&'a TestCase],
    /// The host folder of the job's outputs.
    out_dir: PathBuf,
    /// The most points each secret case can give (empty on pass-fail problems).
    case_max: HashMap<String, f64>,
    /// Go on after a test that is not AC.
    run_all: bool,
    on_test: &'a mut (dyn FnMut(&TestResult) + Send),
    results: Vec<TestResult>,
    /// Why the judge failed, which stops the job.
    failure: Option<Error>,
}

impl Tests<'_> {
    /// Decides one run's verdict and points, and tells `on_test`; stops the job after a
    /// failed test (unless every test must run) or a failure of the judge.
    fn on_run(&mut self, run: &RunReport) -> ControlFlow<()> {
        let Some(case) = self.cases.get(run.index) else {
            return self.fail(format!("unknown run {}", run.index));
        };
        let checked = match check::check_run(run, case, self.problem, self.checker, &self.out_dir) {
            Ok(it) => it,
            Err(why) => return self.fail(why),
        };
        let (verdict, message, score) = match self.case_max.get(case.name.as_str()) {
            Some(max) => score::test_score(checked, *max),
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
            passes: run.passes,
            output_head: (verdict != Verdict::AC).then(|| {
                file_head(
                    &self.out_dir.join(format!("{:04}.out", run.index)),
                    OUTPUT_KEPT_BYTES,
                )
            }),
        };
        (self.on_test)(&result);
        self.results.push(result);
        if verdict == Verdict::AC || self.run_all {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    }

    fn fail(&mut self, why: String) -> ControlFlow<()> {
        self.failure = Some(Error::Sandbox {
            backend: self.backend.name(),
            why,
        });
        ControlFlow::Break(())
    }

    /// The report once the job ended: the verdict of the first test that is not AC, and
    /// the score.
    fn finish(self, end: JobEnd, mut report: Report) -> Result<Report> {
        if let Some(err) = self.failure {
            return Err(err);
        }
        let results = self.results;
        if end == JobEnd::Completed && results.len() != self.cases.len() {
            return Err(Error::Sandbox {
                backend: self.backend.name(),
                why: format!("{} of {} tests reported", results.len(), self.cases.len()),
            });
        }
        report.passed = results.iter().filter(|r| r.verdict == Verdict::AC).count();
        report.verdict = results
            .iter()
            .map(|r| r.verdict)
            .find(|v| *v != Verdict::AC)
            .unwrap_or(Verdict::AC);
        let points = score::submission_points(self.problem, report.verdict, &results);
        report.score = points.score;
        report.max_score = points.max_score;
        report.groups = points.groups;
        report.tests = results;
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_test_keeps_the_head_of_the_output_whole_characters_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("0000.out");
        std::fs::write(&path, "héllo wörld").unwrap();
        assert_eq!(file_head(&path, 100), "héllo wörld");
        // "h" and the first byte of "é": the cut character is dropped, not shown as junk.
        assert_eq!(file_head(&path, 2), "h");
        assert_eq!(file_head(&path, 3), "hé");
        std::fs::write(&path, b"a\xffb").unwrap();
        assert_eq!(file_head(&path, 100), "a\u{fffd}b");
        assert_eq!(file_head(&dir.path().join("missing"), 10), "");
    }

    fn report(groups: Vec<GroupScore>) -> Report {
        Report {
            verdict: Verdict::AC,
            score: 1.0,
            max_score: None,
            groups,
            passed: 0,
            total: 0,
            language: "cpp".to_owned(),
            compile: CompileInfo {
                cached: true,
                ok: true,
                log: String::new(),
                cpu_ms: 0.0,
                wall_ms: 0.0,
            },
            tests: Vec::new(),
        }
    }

    #[test]
    fn group_scores_are_in_the_json_only_when_there_are_some() {
        let json = |r: &Report| serde_json::to_string(r).expect("serializes");
        // A pass-fail report's JSON is what it was before `groups` existed.
        assert_eq!(
            json(&report(Vec::new())),
            r#"{"verdict":"AC","score":1.0,"max_score":null,"passed":0,"total":0,"language":"cpp","compile":{"cached":true,"ok":true,"log":"","cpu_ms":0.0,"wall_ms":0.0},"tests":[]}"#
        );
        let scored = report(vec![GroupScore {
            name: "secret/1".to_owned(),
            score: 20.0,
            max: 40.0,
        }]);
        assert!(
            json(&scored).contains(r#""groups":[{"name":"secret/1","score":20.0,"max":40.0}]"#),
            "{}",
            json(&scored)
        );
    }
}
