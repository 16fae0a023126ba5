//! The records of an episode: each [`Step`] with its [`Signals`] as it happens, and the
//! [`Outcome`] at the end; an [`Observer`] receives both as they are made.
//!
//! These are the trajectory lines (see README, "Trajectories") and what the trainer
//! turns into rewards: a step's signals are its immediate rewards' inputs, the outcome's
//! verdict the delayed one. A step is one thing the loop did: one model call (with what
//! it made of the reply), one round of running tests, one revert, one submission.

use std::sync::Mutex;

use problems::Verdict;
use serde::{Deserialize, Serialize};

use crate::budget::Exhausted;
use crate::extract::Extraction;
use crate::model::{ChatReply, Message, Usage};
use crate::pipeline::Stage;
use crate::runner::{CaseOutcome, RunOutcome};

/// `passed` of `total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Count {
    /// How many passed (or agreed, or were valid).
    pub passed: usize,
    /// Of how many.
    pub total: usize,
}

impl Count {
    /// All of them (and at least one).
    pub fn all(&self) -> bool {
        self.total > 0 && self.passed == self.total
    }
}

/// The verifiable signals of a step: each present only when the step measured it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Signals {
    /// The reply held code (`Some(false)`: a reply without code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_extracted: Option<bool>,
    /// The program compiled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compiled: Option<bool>,
    /// Samples passed by the candidate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<Count>,
    /// Samples passed by the brute force (own tests count only when it passes all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brute_samples: Option<Count>,
    /// Generated inputs the input validator accepted (all, when the problem has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid_inputs: Option<Count>,
    /// Own tests passed by the candidate (inputs generated and checked, answers from the
    /// brute force); only when the brute force passes every sample.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own_tests: Option<Count>,
    /// Stress agreement: generated inputs on which the candidate's output is accepted
    /// against the brute force's, of those where the brute force ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stress: Option<Count>,
    /// Maximum-size inputs the candidate ran within the time limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_inputs: Option<Count>,
    /// The revision broke an earlier passing test and was reverted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverted: Option<bool>,
    /// The verdict of a submission.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// Hidden tests passed (offline only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<Count>,
}

/// One model call: what was sent and what came back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelCall {
    /// The messages sent, oldest first.
    pub messages: Vec<Message>,
    /// The sampling settings sent.
    pub sampling: crate::model::Sampling,
    /// The reply (with token ids, logprobs and policy version when the model gave them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply: Option<ChatReply>,
    /// Why there is no reply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Sandbox results of one test in a step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TestRecord {
    /// A program judged on a case.
    Case {
        /// What ran (`candidate`, `brute`).
        program: String,
        /// The case's outcome.
        #[serde(flatten)]
        outcome: CaseOutcome,
    },
    /// A program run on an input, output not checked (a generator, a brute force making
    /// answers, a maximum-size input).
    Run {
        /// What ran (`generator`, `brute`, `candidate`).
        program: String,
        /// The input's name.
        name: String,
        /// The outcome (stdout cut for the record).
        #[serde(flatten)]
        outcome: RunOutcome,
    },
}

/// Where a step's time went, in milliseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Waiting for the model.
    pub model_ms: f64,
    /// Waiting for the sandbox, the judge or the contest server.
    pub judge_ms: f64,
    /// The agent's own work (prompts, extraction, bookkeeping, recording).
    pub agent_ms: f64,
}

impl Timing {
    /// All of it.
    pub fn total_ms(&self) -> f64 {
        self.model_ms + self.judge_ms + self.agent_ms
    }

    /// Add another's.
    pub fn add(&mut self, other: &Timing) {
        self.model_ms += other.model_ms;
        self.judge_ms += other.judge_ms;
        self.agent_ms += other.agent_ms;
    }
}

/// One recorded step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The run's id.
    pub run: String,
    /// The problem's id.
    pub problem: String,
    /// The attempt (1, then 2 when an interrupted problem is started again).
    pub attempt: u32,
    /// The step's number within the attempt, from 1.
    pub step: u32,
    /// The stage it belongs to.
    pub stage: Stage,
    /// What it did: `ask` (a model call), `generator`, `brute`, `debug`, `run`
    /// (tests run), `revert`, `submit`, `skip` (a stage that could not run).
    pub action: String,
    /// Milliseconds since the Unix epoch when it started.
    pub started_ms: u64,
    /// The model call, if the step made one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<ModelCall>,
    /// What the reply's code extraction found, if the step extracted code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extraction: Option<Extraction>,
    /// The program the step made or ran (language and source), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<crate::runner::Program>,
    /// The compiler's log, when a compile failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compile_log: Option<String>,
    /// Sandbox results, one per test.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tests: Vec<TestRecord>,
    /// The step's signals.
    pub signals: Signals,
    /// Tokens spent by the step's model call.
    pub usage: Usage,
    /// Where its time went.
    pub timing: Timing,
    /// A note for a reader: what went wrong, what was decided.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// Why an episode ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum End {
    /// Accepted.
    Solved,
    /// The pipeline ran to its end without an accept.
    PipelineDone,
    /// A budget ran out.
    Budget {
        /// Which.
        #[serde(flatten)]
        exhausted: Exhausted,
    },
    /// The model could not be reached (after the client's retries).
    ModelFailed {
        /// The error.
        error: String,
    },
    /// Running code failed (sandbox, judge or contest server).
    RunnerFailed {
        /// The error.
        error: String,
    },
    /// The problem could not be loaded (a broken package): nothing was asked.
    Unloadable {
        /// Why.
        error: String,
    },
    /// The observer could not record a step (a full disk): the episode stops so that
    /// nothing goes unrecorded.
    RecordFailed {
        /// The error.
        error: String,
    },
}

/// An episode's end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The run's id.
    pub run: String,
    /// The problem's id.
    pub problem: String,
    /// The attempt.
    pub attempt: u32,
    /// Whether a submission was accepted.
    pub solved: bool,
    /// The last submission's verdict, if any.
    pub verdict: Option<Verdict>,
    /// Hidden tests passed by the last submission (offline).
    pub hidden: Option<Count>,
    /// Why it ended.
    pub end: End,
    /// Steps recorded.
    pub steps: u32,
    /// Model calls made.
    pub model_calls: u64,
    /// Submissions made.
    pub submissions: u64,
    /// Tokens spent.
    pub usage: Usage,
    /// Where the time went: model and judge time summed over the steps, the agent's own
    /// time the rest of the episode's wall time (recording included).
    pub timing: Timing,
    /// Wall time of the episode in milliseconds.
    pub wall_ms: f64,
    /// The last program the loop held (what it submitted last, or would have).
    pub program: Option<crate::runner::Program>,
}

/// Receives each step as it is recorded and the outcome at the end. The trajectory
/// writer is one; the trainer's reward bookkeeping another; a channel a third.
pub trait Observer: Send + Sync {
    /// A step was made. An `Err` stops the episode (`End::RecordFailed`).
    fn step(&self, step: &Step) -> Result<(), String>;
    /// The episode ended.
    fn outcome(&self, outcome: &Outcome) -> Result<(), String>;
}

/// An observer that keeps everything in memory (tests, small tools).
#[derive(Debug, Default)]
pub struct Collect {
    /// The steps so far.
    pub steps: Mutex<Vec<Step>>,
    /// The outcome, once there is one.
    pub outcome: Mutex<Option<Outcome>>,
}

impl Observer for Collect {
    fn step(&self, step: &Step) -> Result<(), String> {
        self.steps
            .lock()
            .map_err(|_| "poisoned".to_owned())?
            .push(step.clone());
        Ok(())
    }
    fn outcome(&self, outcome: &Outcome) -> Result<(), String> {
        *self.outcome.lock().map_err(|_| "poisoned".to_owned())? = Some(outcome.clone());
        Ok(())
    }
}

/// Every step and the outcome sent down a channel, as [`Event`]s (a closed channel is
/// not an error: the receiver stopped listening).
impl Observer for std::sync::mpsc::Sender<Event> {
    fn step(&self, step: &Step) -> Result<(), String> {
        let _ = self.send(Event::Step(Box::new(step.clone())));
        Ok(())
    }
    fn outcome(&self, outcome: &Outcome) -> Result<(), String> {
        let _ = self.send(Event::Outcome(Box::new(outcome.clone())));
        Ok(())
    }
}

/// A step or an outcome, for channels.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A step.
    Step(Box<Step>),
    /// The end.
    Outcome(Box<Outcome>),
}

/// Several observers, in order (the first error stops the rest).
pub struct Fanout<'a>(pub Vec<&'a dyn Observer>);

impl Observer for Fanout<'_> {
    fn step(&self, step: &Step) -> Result<(), String> {
        self.0.iter().try_for_each(|o| o.step(step))
    }
    fn outcome(&self, outcome: &Outcome) -> Result<(), String> {
        self.0.iter().try_for_each(|o| o.outcome(outcome))
    }
}
