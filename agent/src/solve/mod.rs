//! The solve loop: one episode of one task through a [`Pipeline`], every stage a
//! recorded [`Step`] with its [`Signals`], sent to the [`Observer`] as it is made.
//!
//! [`solve`] is the library entry point the `agent solve` command, `agent play` and the
//! trainer's rollouts share: it takes the model (`&dyn ChatModel`: an HTTP endpoint or a
//! local policy), the [`Runner`] and [`Submitter`], the task, the pipeline, the run's
//! budget ledger, a seed and the observer, and returns the [`Outcome`] (also sent to the
//! observer). It never fails: a model that cannot be reached, a budget spent, a sandbox
//! that fails or an observer that cannot record ends the episode with that reason.
//!
//! The stages (see [`Stage`]): `restate` and `approaches` grow the conversation; `code`
//! asks for the program (once more when the reply has none); `tests` asks for a
//! generator and a brute force, checks the brute force on the samples, keeps the
//! generated inputs the input validator accepts, and makes own tests (input, brute-force
//! answer) and maximum-size inputs; `check` runs the samples, the own tests (trusted
//! only when the brute force passed every sample) and the maximum-size inputs, and on a
//! failure asks for a fix with the smallest failing case, under the **revert rule**
//! ([`revision_kept`]): a revision that breaks a test the program passed before, or no
//! longer compiles, is reverted; `submit` submits and, on a rejection, goes back to
//! `check` with the verdict while the budget lasts.
//!
//! Time is split three ways per step ([`crate::step::Timing`]): waiting for the model,
//! waiting for the sandbox or judge, and the agent's own work (the rest).
//!
//! The code: this file holds the episode's private state (`State`, its fields grouped as
//! the candidate, the own-test bench and the submissions) and the conversation (asking,
//! recording a step); each stage after the conversation has its file: `code`,
//! `own_tests` (the `tests` stage), `check` and `submit`.

mod check;
mod code;
mod own_tests;
mod submit;

use std::collections::HashSet;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use problems::Verdict;

use crate::budget::{Exhausted, Ledger, Resource, RunLedger};
use crate::extract::{Extraction, extract};
use crate::model::{ChatModel, ChatRequest, Message, Sampling, Usage};
use crate::pipeline::{Pipeline, Stage};
use crate::prompt::{self, Failure};
use crate::runner::{Case, Limits, Program, RunInput, Runner, Submitter};
use crate::step::{Count, End, ModelCall, Observer, Outcome, Signals, Step, TestRecord, Timing};
use crate::task::Task;

/// Everything one episode needs.
pub struct Episode<'a> {
    /// The model.
    pub model: &'a dyn ChatModel,
    /// Runs code in the sandbox.
    pub runner: &'a dyn Runner,
    /// Submits (local judge offline, contest server live).
    pub submitter: &'a dyn Submitter,
    /// The task.
    pub task: &'a Task,
    /// The stages and settings.
    pub pipeline: &'a Pipeline,
    /// The run's shared budget, if any (the problem's is in the pipeline).
    pub run_ledger: Option<&'a RunLedger>,
    /// The seed: sampling seeds and generator seeds derive from it.
    pub seed: u64,
    /// Receives each step and the outcome.
    pub observer: &'a dyn Observer,
    /// The run's id, for the records.
    pub run: String,
    /// The attempt number, for the records (1 unless the problem is started again).
    pub attempt: u32,
}

/// The revert rule: a revision is kept when it compiles (or the program it replaces did
/// not either) and passes every test the program before it passed. `before` and `after`
/// are the per-test results over the same tests, `None` when that program did not
/// compile.
pub fn revision_kept(before: Option<&[bool]>, after: Option<&[bool]>) -> bool {
    match (before, after) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(b), Some(a)) => b
            .iter()
            .zip(a.iter().chain(std::iter::repeat(&false)))
            .all(|(was, is)| !was || *is),
    }
}

/// Run one episode.
pub async fn solve(episode: Episode<'_>) -> Outcome {
    let started = Instant::now();
    let mut state = State::new(&episode);
    let end = match state.run_stages().await {
        Ok(()) if state.submissions.solved => End::Solved,
        Ok(()) => End::PipelineDone,
        Err(end) => end,
    };
    let outcome = Outcome {
        run: episode.run.clone(),
        problem: episode.task.id.clone(),
        attempt: episode.attempt,
        solved: state.submissions.solved,
        verdict: state.submissions.verdict,
        hidden: state.submissions.hidden,
        end: end.clone(),
        steps: state.step_no,
        model_calls: state.ledger.model_calls,
        submissions: state.ledger.submissions,
        usage: state.usage,
        // The agent's own time is the rest of the episode's wall time: its work between
        // and around the steps, recording included.
        timing: Timing {
            agent_ms: (ms(started.elapsed()) - state.timing.model_ms - state.timing.judge_ms)
                .max(0.0),
            ..state.timing
        },
        wall_ms: ms(started.elapsed()),
        program: state.candidate.program.clone(),
    };
    match episode.observer.outcome(&outcome) {
        Ok(()) => outcome,
        Err(error) => Outcome {
            end: End::RecordFailed { error },
            ..outcome
        },
    }
}

type Flow<T> = Result<T, End>;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// A step being made.
struct Pending {
    stage: Stage,
    action: &'static str,
    started: Instant,
    started_ms: u64,
    call: Option<ModelCall>,
    extraction: Option<Extraction>,
    program: Option<Program>,
    compile_log: Option<String>,
    tests: Vec<TestRecord>,
    signals: Signals,
    usage: Usage,
    model: Duration,
    judge: Duration,
    note: String,
}

impl Pending {
    fn new(stage: Stage, action: &'static str) -> Pending {
        Pending {
            stage,
            action,
            started: Instant::now(),
            started_ms: now_ms(),
            call: None,
            extraction: None,
            program: None,
            compile_log: None,
            tests: Vec::new(),
            signals: Signals::default(),
            usage: Usage::default(),
            model: Duration::ZERO,
            judge: Duration::ZERO,
            note: String::new(),
        }
    }
}

/// The results of running the candidate on every test the loop holds.
struct Checked {
    /// Pass or fail per anchor test (samples, trusted own tests, maximum-size inputs).
    passed: Vec<bool>,
    /// The smallest failing test, for the debug prompt.
    failure: Option<Failure>,
}

struct State<'e, 'a> {
    ep: &'e Episode<'a>,
    ledger: Ledger<'a>,
    step_no: u32,
    calls: u64,
    /// The conversation every request starts from (system, problem, restatement,
    /// approaches).
    base: Vec<Message>,
    language: Option<String>,
    /// The program in hand and what is known of it.
    candidate: Candidate,
    /// The agent's own tests: the generator, the brute force and the cases they made.
    bench: Bench,
    /// What was submitted and what the judge said.
    submissions: Submissions,
    usage: Usage,
    timing: Timing,
    /// The model budget that ran out, if one did.
    exhausted: Option<Exhausted>,
}

/// The program in hand.
#[derive(Default)]
struct Candidate {
    program: Option<Program>,
    /// Its per-test results (`None`: it does not compile).
    results: Option<Vec<bool>>,
    failure: Option<Failure>,
    /// Whether it has been checked since it was written.
    checked: bool,
}

/// The own-test bench: a generator and a brute force (trusted once it passes every
/// sample), the cases they made, and maximum-size inputs for time.
#[derive(Default)]
struct Bench {
    generator: Option<Program>,
    brute: Option<Program>,
    brute_trusted: bool,
    own_cases: Vec<Case>,
    stress_cases: Vec<Case>,
    max_inputs: Vec<String>,
}

/// The submissions: the sources sent, and the judge's answer to the last.
#[derive(Default)]
struct Submissions {
    submitted: HashSet<String>,
    solved: bool,
    verdict: Option<Verdict>,
    hidden: Option<Count>,
}

/// The conversation every episode starts from: the system message, the worked example
/// when the pipeline has one, and the problem.
fn opening(task: &Task, pipeline: &Pipeline) -> Vec<Message> {
    let mut problem = prompt::problem(task);
    problem.push('\n');
    let mut base = vec![Message::system(prompt::system())];
    if pipeline.worked_example {
        let [statement, ask, reply] = prompt::worked_example(pipeline.language.as_deref());
        base.push(Message::user(statement));
        base.push(Message::user(ask));
        base.push(Message::assistant(reply));
    }
    base.push(Message::user(problem));
    base
}

/// Why a pipeline's first model call is not its code request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the pipeline's first model call is the {0:?} stage, not code: its code request follows a reply of the model's own"
)]
pub struct NotFirstCall(pub Stage);

/// The messages of the episode's first code request, exactly as [`solve`] sends them
/// (the opening conversation and the stage's instruction), for a pipeline whose first
/// model call is the code stage: what supervised training renders a reference solution
/// against, so the model learns to answer the very request it will be asked.
pub fn first_code_request(task: &Task, pipeline: &Pipeline) -> Result<Vec<Message>, NotFirstCall> {
    if let Some(stage) = pipeline
        .stages
        .iter()
        .copied()
        .find(|s| {
            matches!(
                s,
                Stage::Restate | Stage::Approaches | Stage::Code | Stage::Tests
            )
        })
        .filter(|s| *s != Stage::Code)
    {
        return Err(NotFirstCall(stage));
    }
    let mut messages = opening(task, pipeline);
    messages.push(Message::user(prompt::code(pipeline.language.as_deref())));
    Ok(messages)
}

impl<'e, 'a> State<'e, 'a> {
    fn new(ep: &'e Episode<'a>) -> Self {
        let base = opening(ep.task, ep.pipeline);
        State {
            ep,
            ledger: Ledger::new(ep.pipeline.budget.clone(), ep.run_ledger),
            step_no: 0,
            calls: 0,
            base,
            language: ep.pipeline.language.clone(),
            candidate: Candidate::default(),
            bench: Bench::default(),
            submissions: Submissions::default(),
            usage: Usage::default(),
            timing: Timing::default(),
            exhausted: None,
        }
    }

    async fn run_stages(&mut self) -> Flow<()> {
        if self.ep.task.samples.is_empty() {
            let mut p = Pending::new(self.ep.pipeline.stages[0], "skip");
            p.note = "the problem has no samples: the sample signal is 0 of 0 and only own tests and the verdict can tell".into();
            self.record(p)?;
        }
        for stage in self.ep.pipeline.stages.clone() {
            // With the model's budget spent, only a submission is left to make.
            if self.exhausted.is_some() && stage != Stage::Submit {
                continue;
            }
            let flow = match stage {
                Stage::Restate => self.converse(stage, prompt::restate()).await,
                Stage::Approaches => self.converse(stage, prompt::approaches()).await,
                Stage::Code => self.code().await,
                Stage::Tests => self.tests().await,
                Stage::Check => self.check(None).await,
                Stage::Submit => self.submit().await,
            };
            self.soften(flow)?;
            if self.submissions.solved {
                break;
            }
        }
        match self.exhausted {
            Some(exhausted) if !self.submissions.solved => Err(End::Budget { exhausted }),
            _ => Ok(()),
        }
    }

    /// A spent model budget (calls or tokens) ends the asking, not the episode: the
    /// program in hand may still be submitted. Everything else ends the episode.
    fn soften(&mut self, flow: Flow<()>) -> Flow<()> {
        match flow {
            Err(End::Budget { exhausted })
                if matches!(exhausted.resource, Resource::ModelCalls | Resource::Tokens) =>
            {
                self.exhausted = Some(exhausted);
                Ok(())
            }
            other => other,
        }
    }

    /// Record a step: timing, totals, the observer.
    fn record(&mut self, p: Pending) -> Flow<()> {
        self.step_no += 1;
        let total = p.started.elapsed();
        let timing = Timing {
            model_ms: ms(p.model),
            judge_ms: ms(p.judge),
            agent_ms: ms(total.saturating_sub(p.model + p.judge)),
        };
        self.timing.add(&timing);
        let step = Step {
            run: self.ep.run.clone(),
            problem: self.ep.task.id.clone(),
            attempt: self.ep.attempt,
            step: self.step_no,
            stage: p.stage,
            action: p.action.to_owned(),
            started_ms: p.started_ms,
            call: p.call,
            extraction: p.extraction,
            program: p.program,
            compile_log: p.compile_log,
            tests: p.tests,
            signals: p.signals,
            usage: p.usage,
            timing,
            note: p.note,
        };
        self.ep
            .observer
            .step(&step)
            .map_err(|error| End::RecordFailed { error })
    }

    /// One model call into `p`; the reply's text.
    async fn ask(&mut self, p: &mut Pending, messages: Vec<Message>) -> Flow<String> {
        if let Err(exhausted) = self.ledger.may_call() {
            p.note = format!("no model call: {exhausted}");
            return Err(End::Budget { exhausted });
        }
        let settings = &self.ep.pipeline.sampling;
        self.calls += 1;
        let sampling = Sampling {
            temperature: settings.temperature,
            top_p: settings.top_p,
            max_tokens: self.ledger.cap_tokens(settings.max_tokens),
            stop: Vec::new(),
            seed: Some(
                self.ep
                    .seed
                    .wrapping_mul(1_000_003)
                    .wrapping_add(self.calls),
            ),
            n: 1,
            logprobs: true,
        };
        let request = ChatRequest { messages, sampling };
        let asked = Instant::now();
        let result = self.ep.model.chat(&request).await;
        p.model += asked.elapsed();
        let ChatRequest { messages, sampling } = request;
        match result {
            Ok(reply) => {
                let tokens = reply.usage.prompt_tokens + reply.usage.completion_tokens;
                self.ledger.spend_call(tokens);
                p.usage = reply.usage;
                self.usage.prompt_tokens += reply.usage.prompt_tokens;
                self.usage.completion_tokens += reply.usage.completion_tokens;
                self.usage.counted_locally |= reply.usage.counted_locally;
                let text = reply
                    .completions
                    .first()
                    .map(|c| c.text.clone())
                    .unwrap_or_default();
                if reply.completions.is_empty() {
                    p.note = "the model answered with no completion".into();
                }
                p.call = Some(ModelCall {
                    messages,
                    sampling,
                    reply: Some(reply),
                    error: None,
                });
                Ok(text)
            }
            Err(err) => {
                self.ledger.spend_call(0);
                let error = err.to_string();
                p.call = Some(ModelCall {
                    messages,
                    sampling,
                    reply: None,
                    error: Some(error.clone()),
                });
                Err(End::ModelFailed { error })
            }
        }
    }

    /// Record `p` whatever `flow` says, then pass `flow` on.
    fn finish<T>(&mut self, p: Pending, flow: Flow<T>) -> Flow<T> {
        self.record(p)?;
        flow
    }

    /// A stage that only grows the conversation.
    async fn converse(&mut self, stage: Stage, ask: String) -> Flow<()> {
        let mut p = Pending::new(stage, "ask");
        let mut messages = self.base.clone();
        messages.push(Message::user(ask.clone()));
        let reply = self.ask(&mut p, messages).await;
        if let Ok(text) = &reply {
            self.base.push(Message::user(ask));
            self.base.push(Message::assistant(text.clone()));
        }
        self.finish(p, reply.map(|_| ()))
    }

    /// Ask for a program; record the extraction. `None` when the reply held none.
    async fn ask_program(
        &mut self,
        p: &mut Pending,
        messages: Vec<Message>,
        wanted: Option<&str>,
    ) -> Flow<Option<Program>> {
        let text = self.ask(p, messages).await?;
        let extraction = extract(&text, wanted);
        p.signals.code_extracted = Some(extraction.code().is_some());
        let program = extraction.code().map(|(language, code)| Program {
            language: language.to_owned(),
            source: code.to_owned(),
        });
        if let Extraction::NoCode { reason, .. } = &extraction {
            p.note = format!("no code: {reason}");
        }
        p.extraction = Some(extraction);
        p.program = program.clone();
        Ok(program)
    }

    /// Compile into `p`; whether it compiled, and the log.
    async fn compile(&self, p: &mut Pending, program: &Program) -> Flow<(bool, String)> {
        let at = Instant::now();
        let result = self.ep.runner.compile(self.ep.task, program).await;
        p.judge += at.elapsed();
        let outcome = result.map_err(|e| End::RunnerFailed {
            error: e.to_string(),
        })?;
        p.signals.compiled = Some(outcome.ok);
        if !outcome.ok {
            p.compile_log = Some(outcome.log.clone());
        }
        Ok((outcome.ok, outcome.log))
    }
}

fn sample_cases(task: &Task) -> Vec<Case> {
    task.samples
        .iter()
        .enumerate()
        .map(|(i, s)| Case {
            name: format!("sample {}", i + 1),
            input: s.input.clone(),
            answer: s.answer.clone(),
        })
        .collect()
}

/// The most characters of a program's output kept in a record.
const RECORD_CHARS: usize = 4000;

fn short_case(mut o: crate::runner::CaseOutcome) -> crate::runner::CaseOutcome {
    o.output = prompt::cut(&o.output, RECORD_CHARS);
    o
}

fn short_run(mut o: crate::runner::RunOutcome) -> crate::runner::RunOutcome {
    o.stdout = prompt::cut(&o.stdout, RECORD_CHARS);
    o
}

#[cfg(test)]
mod tests;
