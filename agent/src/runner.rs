//! Running code for the loop: the [`Runner`] trait (compile, run on inputs, judge on
//! cases, validate inputs) and the [`Submitter`] trait (submit and read the verdict).
//!
//! The loop only speaks these two traits, so the same loop runs offline (a runner over
//! `judge::workbench`, a submitter that judges against the package's hidden tests),
//! live (the contest client's submitter) and in unit tests (fakes). Each answer is data:
//! a compile error, a wrong answer or a time-out is an outcome; `Err` means running the
//! code failed (the sandbox, the judge, the contest server), which the loop records and
//! which ends the episode.

use futures_util::future::BoxFuture;
use problems::Verdict;
use serde::{Deserialize, Serialize};

use crate::task::Task;

/// A program: a judge language id and its source.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Program {
    /// The judge language id (`cpp`, `python3`, ...).
    pub language: String,
    /// The source.
    pub source: String,
}

/// How a compilation went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompileOutcome {
    /// Whether it compiled.
    pub ok: bool,
    /// The compiler's output (the error, when it failed).
    pub log: String,
}

/// One input to run a program on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunInput {
    /// Standard input.
    pub stdin: String,
    /// Command-line arguments (a generator's seed).
    pub args: Vec<String>,
}

/// One run of a program.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunOutcome {
    /// What it printed (cut at the output limit).
    pub stdout: String,
    /// Its exit code, when it exited.
    pub exit_code: Option<i32>,
    /// The verdict of the run alone: AC when it ended normally within the limits (the
    /// output is not checked), else TLE, MLE, OLE or RTE.
    pub status: Verdict,
    /// CPU time in milliseconds.
    pub cpu_ms: f64,
    /// Peak memory in KiB.
    pub peak_kib: u64,
}

impl RunOutcome {
    /// Whether it ended normally within the limits.
    pub fn ok(&self) -> bool {
        self.status == Verdict::AC
    }
}

/// Which limits a run has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limits {
    /// The task's own (the candidate).
    Task,
    /// Generous ones for the agent's tools (a generator, a brute force): 5 s, 1 GiB.
    Tool,
}

/// A test made on the fly: an input and the answer to check the output against.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Case {
    /// A name for the record (`sample 1`, `stress 7`).
    pub name: String,
    /// Standard input.
    pub input: String,
    /// The answer, checked by the problem's own output validator.
    pub answer: String,
}

/// A program judged on one case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseOutcome {
    /// The case's name.
    pub name: String,
    /// The verdict on this case.
    pub verdict: Verdict,
    /// What the program printed (cut for the record).
    pub output: String,
    /// The validator's message, if any.
    pub message: String,
    /// CPU time in milliseconds.
    pub cpu_ms: f64,
    /// Peak memory in KiB.
    pub peak_kib: u64,
}

/// Runs code in the sandbox for one task.
pub trait Runner: Send + Sync {
    /// Compile a program (a compile error is an outcome).
    fn compile<'a>(
        &'a self,
        task: &'a Task,
        program: &'a Program,
    ) -> BoxFuture<'a, Result<CompileOutcome, RunError>>;

    /// Run a program on each input under `limits`, in one sandbox.
    fn run<'a>(
        &'a self,
        task: &'a Task,
        program: &'a Program,
        inputs: &'a [RunInput],
        limits: Limits,
    ) -> BoxFuture<'a, Result<Vec<RunOutcome>, RunError>>;

    /// Judge a program on cases through the task's output validator.
    fn judge<'a>(
        &'a self,
        task: &'a Task,
        program: &'a Program,
        cases: &'a [Case],
    ) -> BoxFuture<'a, Result<Vec<CaseOutcome>, RunError>>;

    /// Whether each input passes the task's input validators; `None` when the task has
    /// none (then every input counts).
    fn validate_inputs<'a>(
        &'a self,
        task: &'a Task,
        inputs: &'a [String],
    ) -> BoxFuture<'a, Result<Option<Vec<bool>>, RunError>>;
}

/// Running code failed (not the program: the sandbox or the judge).
#[derive(Debug, Clone, thiserror::Error)]
#[error("running code failed: {0}")]
pub struct RunError(pub String);

/// The judgement of one submission.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    /// The verdict.
    pub verdict: Verdict,
    /// Hidden tests passed, when known (offline).
    pub passed: Option<usize>,
    /// Hidden tests in all, when known (offline).
    pub total: Option<usize>,
    /// What the judge said that a contestant may see (a compile error's log).
    pub message: String,
    /// The submission's id at the contest server, when live.
    pub submission_id: Option<String>,
}

/// Submits a program and waits for its judgement: the local judge offline, the contest
/// server live.
pub trait Submitter: Send + Sync {
    /// Submit and wait for the verdict.
    fn submit<'a>(
        &'a self,
        task: &'a Task,
        program: &'a Program,
    ) -> BoxFuture<'a, Result<Judgement, RunError>>;
}
