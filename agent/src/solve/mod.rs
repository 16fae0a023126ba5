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
        Ok(()) if state.solved => End::Solved,
        Ok(()) => End::PipelineDone,
        Err(end) => end,
    };
    let outcome = Outcome {
        run: episode.run.clone(),
        problem: episode.task.id.clone(),
        attempt: episode.attempt,
        solved: state.solved,
        verdict: state.verdict,
        hidden: state.hidden,
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
        program: state.candidate.clone(),
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
    candidate: Option<Program>,
    /// The candidate's per-test results (`None`: it does not compile).
    candidate_results: Option<Vec<bool>>,
    candidate_failure: Option<Failure>,
    checked: bool,
    generator: Option<Program>,
    brute: Option<Program>,
    brute_trusted: bool,
    own_cases: Vec<Case>,
    stress_cases: Vec<Case>,
    max_inputs: Vec<String>,
    submitted: HashSet<String>,
    solved: bool,
    verdict: Option<Verdict>,
    hidden: Option<Count>,
    usage: Usage,
    timing: Timing,
    /// The model budget that ran out, if one did.
    exhausted: Option<Exhausted>,
}

impl<'e, 'a> State<'e, 'a> {
    fn new(ep: &'e Episode<'a>) -> Self {
        let mut problem = prompt::problem(ep.task);
        problem.push('\n');
        let mut base = vec![Message::system(prompt::system())];
        if ep.pipeline.worked_example {
            let [statement, ask, reply] = prompt::worked_example(ep.pipeline.language.as_deref());
            base.push(Message::user(statement));
            base.push(Message::user(ask));
            base.push(Message::assistant(reply));
        }
        base.push(Message::user(problem));
        State {
            ep,
            ledger: Ledger::new(ep.pipeline.budget.clone(), ep.run_ledger),
            step_no: 0,
            calls: 0,
            base,
            language: ep.pipeline.language.clone(),
            candidate: None,
            candidate_results: None,
            candidate_failure: None,
            checked: false,
            generator: None,
            brute: None,
            brute_trusted: false,
            own_cases: Vec::new(),
            stress_cases: Vec::new(),
            max_inputs: Vec::new(),
            submitted: HashSet::new(),
            solved: false,
            verdict: None,
            hidden: None,
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
            if self.solved {
                break;
            }
        }
        match self.exhausted {
            Some(exhausted) if !self.solved => Err(End::Budget { exhausted }),
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

    /// The `code` stage.
    async fn code(&mut self) -> Flow<()> {
        let mut ask = prompt::code(self.language.as_deref());
        for round in 0..2 {
            let mut p = Pending::new(Stage::Code, "ask");
            let mut messages = self.base.clone();
            messages.push(Message::user(ask.clone()));
            let wanted = self.language.clone();
            let flow = self.ask_program(&mut p, messages, wanted.as_deref()).await;
            let program = match flow {
                Ok(program) => program,
                Err(end) => return self.finish(p, Err(end)),
            };
            match program {
                Some(program) => {
                    let flow = self.compile(&mut p, &program).await;
                    let (ok, log) = match flow {
                        Ok(v) => v,
                        Err(end) => return self.finish(p, Err(end)),
                    };
                    self.language = Some(program.language.clone());
                    self.candidate = Some(program);
                    self.checked = false;
                    self.candidate_results = None;
                    self.candidate_failure = (!ok).then_some(Failure::Compile { log });
                    return self.record(p);
                }
                None => {
                    let reason = match &p.extraction {
                        Some(Extraction::NoCode { reason, .. }) => reason.clone(),
                        _ => String::new(),
                    };
                    if round == 0 {
                        p.note.push_str("; asking once more");
                    }
                    self.record(p)?;
                    ask = prompt::no_code(&reason, self.language.as_deref());
                }
            }
        }
        Ok(())
    }

    /// The `tests` stage.
    async fn tests(&mut self) -> Flow<()> {
        let task = self.ep.task;
        // The generator.
        let mut p = Pending::new(Stage::Tests, "generator");
        let mut messages = self.base.clone();
        messages.push(Message::user(prompt::generator()));
        let flow = self.ask_program(&mut p, messages, Some("python3")).await;
        let generator = match flow {
            Ok(g) => g,
            Err(end) => return self.finish(p, Err(end)),
        };
        if let Some(g) = &generator {
            let flow = self.compile(&mut p, g).await;
            match flow {
                Ok((true, _)) => self.generator = generator.clone(),
                Ok((false, _)) => p.note = "the generator does not compile".into(),
                Err(end) => return self.finish(p, Err(end)),
            }
        }
        self.record(p)?;

        // The brute force, checked on the samples.
        let mut p = Pending::new(Stage::Tests, "brute");
        let mut messages = self.base.clone();
        messages.push(Message::user(prompt::brute()));
        let flow = self.ask_program(&mut p, messages, Some("python3")).await;
        let brute = match flow {
            Ok(b) => b,
            Err(end) => return self.finish(p, Err(end)),
        };
        if let Some(b) = &brute {
            match self.compile(&mut p, b).await {
                Ok((true, _)) => {
                    let cases = sample_cases(task);
                    let at = Instant::now();
                    let result = self.ep.runner.judge(task, b, &cases).await;
                    p.judge += at.elapsed();
                    match result {
                        Ok(outcomes) => {
                            let passed =
                                outcomes.iter().filter(|o| o.verdict == Verdict::AC).count();
                            let count = Count {
                                passed,
                                total: cases.len(),
                            };
                            p.signals.brute_samples = Some(count);
                            // No samples: nothing to trust it on.
                            self.brute_trusted = count.all();
                            if !self.brute_trusted {
                                p.note = "the brute force does not pass every sample: its answers are not trusted as tests".into();
                            }
                            p.tests
                                .extend(outcomes.into_iter().map(|outcome| TestRecord::Case {
                                    program: "brute".into(),
                                    outcome: short_case(outcome),
                                }));
                            self.brute = brute.clone();
                        }
                        Err(e) => {
                            return self.finish(
                                p,
                                Err(End::RunnerFailed {
                                    error: e.to_string(),
                                }),
                            );
                        }
                    }
                }
                Ok((false, _)) => p.note = "the brute force does not compile".into(),
                Err(end) => return self.finish(p, Err(end)),
            }
        }
        self.record(p)?;

        // Generated inputs: validated, answered by the brute force.
        let Some(generator) = self.generator.clone() else {
            return Ok(());
        };
        let mut p = Pending::new(Stage::Tests, "generate");
        let flow = self.generate(&mut p, &generator).await;
        self.finish(p, flow)
    }

    async fn generate(&mut self, p: &mut Pending, generator: &Program) -> Flow<()> {
        let task = self.ep.task;
        let n = self.ep.pipeline.stress_inputs as u64;
        let m = self.ep.pipeline.max_inputs as u64;
        let base_seed = self.ep.seed.wrapping_mul(7919);
        let mut runs: Vec<RunInput> = (0..n)
            .map(|i| RunInput {
                stdin: String::new(),
                args: vec![(base_seed.wrapping_add(i) % 1_000_000_007).to_string()],
            })
            .collect();
        runs.extend((0..m).map(|i| RunInput {
            stdin: String::new(),
            args: vec![
                (base_seed.wrapping_add(n + i) % 1_000_000_007).to_string(),
                "max".to_owned(),
            ],
        }));
        let at = Instant::now();
        let result = self
            .ep
            .runner
            .run(task, generator, &runs, Limits::Tool)
            .await;
        p.judge += at.elapsed();
        let outcomes = result.map_err(|e| End::RunnerFailed {
            error: e.to_string(),
        })?;
        let mut inputs = Vec::new(); // (is_max, input)
        for (i, o) in outcomes.iter().enumerate() {
            let is_max = i as u64 >= n;
            p.tests.push(TestRecord::Run {
                program: "generator".into(),
                name: format!(
                    "{} {}",
                    if is_max { "max" } else { "seed" },
                    runs[i].args[0]
                ),
                outcome: short_run(o.clone()),
            });
            if o.ok() && !o.stdout.trim().is_empty() {
                inputs.push((is_max, o.stdout.clone()));
            }
        }
        let texts: Vec<String> = inputs.iter().map(|(_, s)| s.clone()).collect();
        let at = Instant::now();
        let result = self.ep.runner.validate_inputs(task, &texts).await;
        p.judge += at.elapsed();
        // A package whose input validators cannot run (one does not build in the
        // sandbox) leaves the inputs unchecked: kept, and no validity signal.
        let valid = match result {
            Ok(Some(valid)) => {
                p.signals.valid_inputs = Some(Count {
                    passed: valid.iter().filter(|v| **v).count(),
                    total: outcomes.len(),
                });
                valid
            }
            Ok(None) => {
                p.signals.valid_inputs = Some(Count {
                    passed: texts.len(),
                    total: outcomes.len(),
                });
                vec![true; texts.len()]
            }
            Err(e) => {
                p.note =
                    format!("the input validators could not run ({e}); inputs kept unchecked; ");
                vec![true; texts.len()]
            }
        };
        let small: Vec<String> = inputs
            .iter()
            .zip(&valid)
            .filter(|((is_max, _), ok)| !is_max && **ok)
            .map(|((_, s), _)| s.clone())
            .collect();
        self.max_inputs = inputs
            .iter()
            .zip(&valid)
            .filter(|((is_max, _), ok)| *is_max && **ok)
            .map(|((_, s), _)| s.clone())
            .collect();
        // Answers from the brute force.
        if let Some(brute) = self.brute.clone() {
            let runs: Vec<RunInput> = small
                .iter()
                .map(|s| RunInput {
                    stdin: s.clone(),
                    args: Vec::new(),
                })
                .collect();
            let at = Instant::now();
            let result = self.ep.runner.run(task, &brute, &runs, Limits::Tool).await;
            p.judge += at.elapsed();
            let answers = result.map_err(|e| End::RunnerFailed {
                error: e.to_string(),
            })?;
            let mut cases = Vec::new();
            for (i, (input, answer)) in small.iter().zip(&answers).enumerate() {
                p.tests.push(TestRecord::Run {
                    program: "brute".into(),
                    name: format!("own {}", i + 1),
                    outcome: short_run(answer.clone()),
                });
                if answer.ok() {
                    cases.push(Case {
                        name: format!("own test {}", i + 1),
                        input: input.clone(),
                        answer: answer.stdout.clone(),
                    });
                }
            }
            self.stress_cases = cases.clone();
            if self.brute_trusted {
                self.own_cases = cases;
            }
            p.note += &format!(
                "{} own tests ({}), {} maximum-size inputs",
                self.stress_cases.len(),
                if self.brute_trusted {
                    "trusted"
                } else {
                    "not trusted: the brute force fails a sample"
                },
                self.max_inputs.len()
            );
        }
        Ok(())
    }

    /// Run the candidate on every test into `p`; `None` when it does not compile.
    async fn run_all(&mut self, p: &mut Pending, program: &Program) -> Flow<Option<Checked>> {
        let task = self.ep.task;
        let (ok, _log) = self.compile(p, program).await?;
        if !ok {
            return Ok(None);
        }
        let samples = sample_cases(task);
        let mut cases = samples.clone();
        cases.extend(self.stress_cases.iter().cloned());
        let at = Instant::now();
        let result = self.ep.runner.judge(task, program, &cases).await;
        p.judge += at.elapsed();
        let outcomes = result.map_err(|e| End::RunnerFailed {
            error: e.to_string(),
        })?;
        let ns = samples.len();
        let passed: Vec<bool> = outcomes.iter().map(|o| o.verdict == Verdict::AC).collect();
        p.signals.samples = Some(Count {
            passed: passed[..ns.min(passed.len())]
                .iter()
                .filter(|x| **x)
                .count(),
            total: ns,
        });
        if !self.stress_cases.is_empty() {
            let agree = passed[ns.min(passed.len())..]
                .iter()
                .filter(|x| **x)
                .count();
            let count = Count {
                passed: agree,
                total: self.stress_cases.len(),
            };
            p.signals.stress = Some(count);
            if self.brute_trusted {
                p.signals.own_tests = Some(count);
            }
        }
        // Anchors: samples, then trusted own tests.
        let anchors = if self.brute_trusted { cases.len() } else { ns };
        let mut results: Vec<bool> = passed.iter().take(anchors).copied().collect();
        // The smallest failing anchor.
        let failure = cases
            .iter()
            .zip(&outcomes)
            .take(anchors)
            .filter(|(_, o)| o.verdict != Verdict::AC)
            .min_by_key(|(c, _)| c.input.len())
            .map(|(c, o)| Failure::Case {
                name: c.name.clone(),
                input: c.input.clone(),
                expected: c.answer.clone(),
                got: o.output.clone(),
                verdict: o.verdict.clics_id().to_owned(),
                message: o.message.clone(),
            });
        p.tests
            .extend(outcomes.into_iter().map(|outcome| TestRecord::Case {
                program: "candidate".into(),
                outcome: short_case(outcome),
            }));
        // Maximum-size inputs, for time.
        let mut slow = None;
        if !self.max_inputs.is_empty() {
            let runs: Vec<RunInput> = self
                .max_inputs
                .iter()
                .map(|s| RunInput {
                    stdin: s.clone(),
                    args: Vec::new(),
                })
                .collect();
            let at = Instant::now();
            let result = self.ep.runner.run(task, program, &runs, Limits::Task).await;
            p.judge += at.elapsed();
            let outs = result.map_err(|e| End::RunnerFailed {
                error: e.to_string(),
            })?;
            let within: Vec<bool> = outs
                .iter()
                .map(|o| !matches!(o.status, Verdict::TLE | Verdict::MLE))
                .collect();
            p.signals.max_inputs = Some(Count {
                passed: within.iter().filter(|x| **x).count(),
                total: within.len(),
            });
            for (i, (o, input)) in outs.iter().zip(&self.max_inputs).enumerate() {
                if slow.is_none() && !within[i] {
                    slow = Some(Failure::Slow {
                        bytes: input.len(),
                        head: input.chars().take(200).collect(),
                        status: o.status.clics_id().to_owned(),
                    });
                }
                p.tests.push(TestRecord::Run {
                    program: "candidate".into(),
                    name: format!("max {}", i + 1),
                    outcome: short_run(o.clone()),
                });
            }
            results.extend(within);
        }
        Ok(Some(Checked {
            passed: results,
            failure: failure.or(slow),
        }))
    }

    /// The `check` stage: run everything; debug while something fails (or the judge
    /// rejected the program: `verdict`), under the revert rule.
    async fn check(&mut self, mut verdict: Option<Failure>) -> Flow<()> {
        // Check the current candidate once.
        if !self.checked
            && let Some(program) = self.candidate.clone()
        {
            let mut p = Pending::new(Stage::Check, "run");
            p.program = Some(program.clone());
            let flow = self.run_all(&mut p, &program).await;
            let checked = match flow {
                Ok(c) => c,
                Err(end) => return self.finish(p, Err(end)),
            };
            self.set_candidate_results(checked, &p);
            self.checked = true;
            self.record(p)?;
        }
        for _round in 0..self.ep.pipeline.debug_rounds {
            let failure = match (&self.candidate, verdict.take(), &self.candidate_failure) {
                (_, Some(v), _) => Some(v),
                (Some(_), None, f) => f.clone(),
                (None, None, _) => None,
            };
            if self.candidate.is_some() && failure.is_none() {
                return Ok(());
            }
            // Ask for a revision (or, with no candidate, for the program again).
            let mut p = Pending::new(Stage::Check, "debug");
            let mut messages = self.base.clone();
            let (ask, wanted) = match (&self.candidate, &failure) {
                (Some(program), Some(f)) => (
                    prompt::debug(&program.source, &program.language, f),
                    Some(program.language.clone()),
                ),
                _ => (
                    prompt::no_code("no program yet", self.language.as_deref()),
                    self.language.clone(),
                ),
            };
            messages.push(Message::user(ask));
            let flow = self.ask_program(&mut p, messages, wanted.as_deref()).await;
            let revision = match flow {
                Ok(r) => r,
                Err(end) => return self.finish(p, Err(end)),
            };
            self.record(p)?;
            let Some(revision) = revision else {
                continue;
            };
            if Some(&revision) == self.candidate.as_ref() {
                let mut p = Pending::new(Stage::Check, "revert");
                p.signals.reverted = Some(true);
                p.note = "the revision is the same program".into();
                self.record(p)?;
                continue;
            }
            let mut p = Pending::new(Stage::Check, "run");
            p.program = Some(revision.clone());
            let flow = self.run_all(&mut p, &revision).await;
            let checked = match flow {
                Ok(c) => c,
                Err(end) => return self.finish(p, Err(end)),
            };
            let before = if self.candidate.is_some() {
                self.candidate_results.as_deref()
            } else {
                None
            };
            let after = checked.as_ref().map(|c| c.passed.as_slice());
            let keep = self.candidate.is_none() || revision_kept(before, after);
            p.signals.reverted = Some(!keep);
            if keep {
                self.language = Some(revision.language.clone());
                self.candidate = Some(revision);
                self.set_candidate_results(checked, &p);
                self.checked = true;
            } else if checked.is_none() {
                p.note =
                    "reverted: the revision does not compile and the program before it did".into();
            } else {
                p.note = "reverted: the revision fails a test the program before it passed".into();
            }
            self.record(p)?;
        }
        Ok(())
    }

    fn set_candidate_results(&mut self, checked: Option<Checked>, p: &Pending) {
        match checked {
            Some(c) => {
                self.candidate_results = Some(c.passed);
                self.candidate_failure = c.failure;
            }
            None => {
                self.candidate_results = None;
                self.candidate_failure = Some(Failure::Compile {
                    log: p.compile_log.clone().unwrap_or_default(),
                });
            }
        }
    }

    /// The `submit` stage.
    async fn submit(&mut self) -> Flow<()> {
        loop {
            let mut p = Pending::new(Stage::Submit, "submit");
            let Some(program) = self.candidate.clone() else {
                p.action = "skip";
                p.note = "nothing to submit: no program".into();
                return self.record(p);
            };
            if self.candidate_results.is_none() && self.checked {
                p.action = "skip";
                p.note = "not submitted: the program does not compile".into();
                return self.record(p);
            }
            if self.submitted.contains(&program.source) {
                p.action = "skip";
                p.note = "not submitted again: the same program was judged already".into();
                return self.record(p);
            }
            if !self.ep.pipeline.submit_failing && self.candidate_failure.is_some() {
                p.action = "skip";
                p.note = "not submitted: it fails a test of its own (submit_failing is off)".into();
                return self.record(p);
            }
            if let Err(exhausted) = self.ledger.may_submit() {
                p.action = "skip";
                p.note = format!("not submitted: {exhausted}");
                self.record(p)?;
                return Err(End::Budget { exhausted });
            }
            p.program = Some(program.clone());
            let at = Instant::now();
            let result = self.ep.submitter.submit(self.ep.task, &program).await;
            p.judge += at.elapsed();
            self.ledger.spend_submission();
            self.submitted.insert(program.source.clone());
            let judgement = match result {
                Ok(j) => j,
                Err(e) => {
                    p.note = e.to_string();
                    return self.finish(
                        p,
                        Err(End::RunnerFailed {
                            error: e.to_string(),
                        }),
                    );
                }
            };
            p.signals.verdict = Some(judgement.verdict);
            if let (Some(passed), Some(total)) = (judgement.passed, judgement.total) {
                p.signals.hidden = Some(Count { passed, total });
                self.hidden = Some(Count { passed, total });
            }
            if let Some(id) = &judgement.submission_id {
                p.note = format!("submission {id}");
            }
            self.verdict = Some(judgement.verdict);
            self.solved = judgement.verdict == Verdict::AC;
            self.record(p)?;
            if self.solved || !self.ep.pipeline.has(Stage::Check) {
                return Ok(());
            }
            // Rejected: back to check with the verdict, while the budget lasts.
            if self.exhausted.is_some() {
                return Ok(());
            }
            self.ledger
                .may_submit()
                .map_err(|exhausted| End::Budget { exhausted })?;
            let failure = Failure::Verdict {
                verdict: judgement.verdict.clics_id().to_owned(),
                message: judgement.message.clone(),
            };
            let flow = self.check(Some(failure)).await;
            self.soften(flow)?;
            if self
                .candidate
                .as_ref()
                .is_some_and(|c| self.submitted.contains(&c.source))
            {
                return Ok(());
            }
        }
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
