//! Rollouts through the real agent: each episode runs `agent::solve::solve` with a
//! [`Hook`] that is both its model (the [`LocalPolicy`], in process) and its observer.
//!
//! A **turn** is one model reply. Its tokens (the prompt's ids, the reply's ids, each
//! reply token's behaviour logprob and the policy version that produced it) are stored
//! when the reply arrives; the turn ends when the episode asks the model again or ends,
//! and by then every step the loop recorded after the reply (compile, samples, own tests,
//! stress, submission) has been observed, so the turn's reward level (the verification
//! ladder of [`crate::grpo::reward`]) is known. The hook then sends the turn to the
//! trainer and, under Agentic GRPO, waits at its group's **gate** until the trainer has
//! made the group's provisional update for that turn: the group's next turn is generated
//! by the updated policy, while other groups keep the decoder busy.
//!
//! [`Rollouts`] is the machinery every episode runs on, shared by training and
//! evaluation: the agent's pipeline as the configuration sets it, the [`LocalPolicy`],
//! a tokio runtime, the bubblewrap workbench and the local judge.

use std::sync::{Arc, Mutex};

use agent::local::{LocalJudge, WorkbenchRunner};
use agent::model::{ChatModel, ChatReply, ChatRequest, ModelError};
use agent::pipeline::Pipeline;
use agent::step::{End, Observer, Outcome, Signals, Step};
use agent::task::Task;
use futures_util::future::BoxFuture;

use super::config::TrainConfig;
use crate::grpo::reward::{Final, Ladder, RewardWeights, final_reward};
use crate::policy::LocalPolicy;

/// The agent's pipeline of a run: `config.pipeline` with the configuration's sampling
/// (`max_tokens`, `temperature`) and model-call budget.
pub fn pipeline(config: &TrainConfig) -> anyhow::Result<Pipeline> {
    let mut pipeline = Pipeline::named(&config.pipeline)
        .map_err(|e| anyhow::anyhow!("pipeline {}: {e}", config.pipeline))?;
    pipeline.sampling.max_tokens = config.max_tokens;
    pipeline.sampling.temperature = config.temperature;
    if let Some(n) = config.model_calls {
        pipeline.budget.model_calls = Some(n);
    }
    if pipeline.budget.model_calls.is_none() {
        anyhow::bail!("the pipeline has no model-call budget: set model_calls");
    }
    Ok(pipeline)
}

/// Where episodes run: the agent's solve loop on a tokio runtime with the policy in
/// process, the bubblewrap workbench for its own tests and the local judge for
/// submissions.
pub struct Rollouts {
    /// The sampler every episode's [`Hook`] asks.
    pub policy: Arc<LocalPolicy>,
    /// The agent's pipeline.
    pub pipeline: Arc<Pipeline>,
    rt: tokio::runtime::Runtime,
    runner: Arc<WorkbenchRunner>,
    judge: Arc<LocalJudge>,
}

impl Rollouts {
    /// Starts the runtime and the sandbox (bubblewrap over the discovered root
    /// filesystem).
    pub fn new(pipeline: Pipeline, policy: Arc<LocalPolicy>) -> anyhow::Result<Rollouts> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        let bench = {
            let _guard = rt.enter();
            let sandbox = judge::sandbox::SandboxConfig::discover()
                .map_err(|e| anyhow::anyhow!("sandbox: {e}"))?;
            judge::workbench::Workbench::new(sandbox, judge::sandbox::BackendKind::Bwrap, None)
                .map_err(|e| anyhow::anyhow!("sandbox workbench: {e}"))?
        };
        let runner = WorkbenchRunner::new(Arc::new(bench));
        let judge = Arc::new(LocalJudge::new(runner.clone()));
        Ok(Rollouts {
            policy,
            pipeline: Arc::new(pipeline),
            rt,
            runner: Arc::new(runner),
            judge,
        })
    }

    /// Starts one episode of `task` with `hook` as its model and observer.
    pub fn spawn(
        &self,
        hook: Arc<Hook>,
        task: Arc<Task>,
        seed: u64,
        run: &str,
    ) -> tokio::task::JoinHandle<Outcome> {
        let runner = self.runner.clone();
        let judge = self.judge.clone();
        let pipeline = self.pipeline.clone();
        let run = run.to_owned();
        self.rt.spawn(async move {
            agent::solve::solve(agent::solve::Episode {
                model: &*hook,
                runner: &*runner,
                submitter: &*judge,
                task: &task,
                pipeline: &pipeline,
                run_ledger: None,
                seed,
                observer: &*hook,
                run,
                attempt: 1,
            })
            .await
        })
    }

    /// Waits for episodes started with [`Rollouts::spawn`].
    pub fn join(&self, handles: Vec<tokio::task::JoinHandle<Outcome>>) -> anyhow::Result<()> {
        self.outcomes(handles).map(drop)
    }

    /// Waits for episodes started with [`Rollouts::spawn`] and returns their outcomes
    /// (each with the last program the loop held), in the order of `handles`.
    pub fn outcomes(
        &self,
        handles: Vec<tokio::task::JoinHandle<Outcome>>,
    ) -> anyhow::Result<Vec<Outcome>> {
        handles
            .into_iter()
            .map(|h| {
                self.rt
                    .block_on(h)
                    .map_err(|e| anyhow::anyhow!("an episode panicked: {e}"))
            })
            .collect()
    }
}

/// One model turn of an episode, as the trainer stores it.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    /// The prompt's ids followed by the reply's ids.
    pub tokens: Vec<i64>,
    /// Whether each token is the model's own (the reply).
    pub action: Vec<bool>,
    /// Each token's behaviour logprob (0 for prompt tokens).
    pub behaviour_logp: Vec<f64>,
    /// The policy version that produced the reply (its oldest token's).
    pub version: u64,
    /// The ladder level the episode had reached when the turn ended.
    pub level: f64,
    /// The tiers reached by then (`compiled`, `samples`, `own_tests`, `stress`).
    pub tiers: Vec<String>,
    /// Whether the sandbox or judge had given any result by then (a compile, a test run,
    /// a verdict).
    pub judged: bool,
    /// The conversation the reply answers (what the prompt's ids render).
    pub messages: Vec<agent::model::Message>,
    /// What the sandbox and the judge said about the reply's program, until the turn
    /// ended (hindsight self-distillation's privileged context, `super::hindsight`).
    pub feedback: Feedback,
    /// The teacher's log-probability of each token (`crate::grpo::distill::align`), once
    /// a teacher has scored the turn.
    pub teacher_logp: Option<Vec<f64>>,
}

/// One case the turn's program failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseFailure {
    /// The case's name (a sample's is the package's: `1`, `2`, ...).
    pub name: String,
    /// Its verdict (CLICS id).
    pub verdict: String,
    /// What the program printed (as the agent recorded it, cut).
    pub output: String,
}

/// The judge's feedback on one turn's program, as the episode's steps recorded it after
/// the reply.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Feedback {
    /// The compiler's output, when the program did not compile.
    pub compile_error: Option<String>,
    /// The cases the program failed, in the order run (the first few).
    pub failures: Vec<CaseFailure>,
    /// The judge's verdict on a submission (CLICS id).
    pub verdict: Option<String>,
}

/// Failing cases kept per turn.
const FAILURES_KEPT: usize = 16;

impl Feedback {
    /// Takes in what `step` recorded.
    pub fn observe(&mut self, step: &Step) {
        if step.signals.compiled == Some(false) && self.compile_error.is_none() {
            self.compile_error = Some(step.compile_log.clone().unwrap_or_default());
        }
        for t in &step.tests {
            if let agent::step::TestRecord::Case { program, outcome } = t
                && program == "candidate"
                && outcome.verdict != problems::Verdict::AC
                && self.failures.len() < FAILURES_KEPT
            {
                self.failures.push(CaseFailure {
                    name: outcome.name.clone(),
                    verdict: outcome.verdict.clics_id().to_owned(),
                    output: outcome.output.clone(),
                });
            }
        }
        if let Some(v) = step.signals.verdict {
            self.verdict = Some(v.clics_id().to_owned());
        }
    }
}

/// The names of the tiers `ladder` has reached.
pub fn tier_names(ladder: &Ladder) -> Vec<String> {
    [
        (ladder.compiled, "compiled"),
        (ladder.samples, "samples"),
        (ladder.own_tests, "own_tests"),
        (ladder.stress, "stress"),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .map(|(_, n)| (*n).to_owned())
    .collect()
}

impl Turn {
    /// Reply tokens.
    pub fn generated(&self) -> usize {
        self.action.iter().filter(|a| **a).count()
    }
}

/// Why an episode has no final reward: it leaves its group.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Left {
    /// The judge (or the sandbox) failed: no reward, never a 0.
    JudgeError,
    /// The model or the recording failed.
    Failed,
}

/// How an episode ended, for the trainer.
#[derive(Debug, Clone, PartialEq)]
pub struct EpisodeEnd {
    /// The final reward, or why there is none.
    pub reward: Result<f64, Left>,
    /// The tiers reached.
    pub ladder: Ladder,
    /// Accepted by the local judge.
    pub solved: bool,
    /// Hidden tests the last submission passed, of all (offline; `None`: no submission).
    pub hidden: Option<agent::step::Count>,
    /// Model and judge time in seconds summed over the steps.
    pub model_s: f64,
    /// The judge's share.
    pub judge_s: f64,
    /// Why it ended (the agent's `End`, as JSON).
    pub end: serde_json::Value,
}

/// What an episode tells the trainer.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A turn ended.
    Turn {
        /// The group.
        group: usize,
        /// The episode within it.
        episode: usize,
        /// The turn.
        turn: Box<Turn>,
    },
    /// The episode ended (after its last turn's event).
    End {
        /// The group.
        group: usize,
        /// The episode within it.
        episode: usize,
        /// How.
        end: Box<EpisodeEnd>,
    },
}

#[derive(Default)]
struct State {
    ladder: Ladder,
    signals: Vec<Signals>,
    pending: Option<Turn>,
    turns: usize,
    judged: bool,
}

/// The model and observer of one episode.
pub struct Hook {
    policy: Arc<LocalPolicy>,
    group: usize,
    episode: usize,
    weights: RewardWeights,
    events: std::sync::mpsc::Sender<Event>,
    gate: Option<tokio::sync::watch::Receiver<usize>>,
    state: Mutex<State>,
}

impl Hook {
    /// Episode `episode` of group `group`, sending to `events`; with a `gate` (the number
    /// of turns the group's trainer has processed), each new turn waits for the last.
    pub fn new(
        policy: Arc<LocalPolicy>,
        group: usize,
        episode: usize,
        weights: RewardWeights,
        events: std::sync::mpsc::Sender<Event>,
        gate: Option<tokio::sync::watch::Receiver<usize>>,
    ) -> Hook {
        Hook {
            policy,
            group,
            episode,
            weights,
            events,
            gate,
            state: Mutex::new(State::default()),
        }
    }

    /// Ends the pending turn (its level is the ladder's now) and returns its index.
    fn finish_turn(&self) -> Option<usize> {
        let mut state = self.state.lock().ok()?;
        let mut turn = state.pending.take()?;
        turn.level = state.ladder.level(&self.weights) + 0.0;
        turn.tiers = tier_names(&state.ladder);
        turn.judged = state.judged;
        let index = state.turns;
        state.turns += 1;
        drop(state);
        let _ = self.events.send(Event::Turn {
            group: self.group,
            episode: self.episode,
            turn: Box::new(turn),
        });
        Some(index)
    }
}

fn turn_of(reply: &ChatReply) -> Result<Turn, ModelError> {
    let prompt = reply
        .prompt_token_ids
        .as_ref()
        .ok_or_else(|| ModelError::Local("the reply has no prompt token ids".to_owned()))?;
    let completion = reply
        .completions
        .first()
        .ok_or_else(|| ModelError::Local("the reply has no completion".to_owned()))?;
    let tokens = completion
        .tokens
        .as_ref()
        .ok_or_else(|| ModelError::Local("the reply has no token ids".to_owned()))?;
    let mut turn = Turn {
        tokens: prompt.iter().map(|t| i64::from(*t)).collect(),
        action: vec![false; prompt.len()],
        behaviour_logp: vec![0.0; prompt.len()],
        version: reply.policy_version.unwrap_or(0),
        level: 0.0,
        tiers: Vec::new(),
        judged: false,
        messages: Vec::new(),
        feedback: Feedback::default(),
        teacher_logp: None,
    };
    for t in tokens {
        let id =
            t.id.ok_or_else(|| ModelError::Local("a reply token has no id".to_owned()))?;
        turn.tokens.push(i64::from(id));
        turn.action.push(true);
        turn.behaviour_logp.push(f64::from(t.logprob));
    }
    Ok(turn)
}

impl ChatModel for Hook {
    fn name(&self) -> &str {
        self.policy.name()
    }

    fn endpoint(&self) -> String {
        self.policy.endpoint()
    }

    fn chat<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> BoxFuture<'a, Result<ChatReply, ModelError>> {
        Box::pin(async move {
            if let (Some(done), Some(gate)) = (self.finish_turn(), &self.gate) {
                let mut gate = gate.clone();
                // A closed gate (the trainer stopped) lets the episode go on.
                let _ = gate.wait_for(|processed| *processed > done).await;
            }
            let reply = self.policy.chat(request).await?;
            let mut turn = turn_of(&reply)?;
            turn.messages = request.messages.clone();
            if let Ok(mut state) = self.state.lock() {
                state.pending = Some(turn);
            }
            Ok(reply)
        })
    }
}

impl Observer for Hook {
    fn step(&self, step: &Step) -> Result<(), String> {
        let mut state = self.state.lock().map_err(|_| "poisoned".to_owned())?;
        state.ladder.observe(&step.signals);
        let s = &step.signals;
        state.judged |= s.compiled.is_some() || s.samples.is_some() || s.verdict.is_some();
        if let Some(turn) = state.pending.as_mut() {
            turn.feedback.observe(step);
        }
        state.signals.push(step.signals.clone());
        Ok(())
    }

    fn outcome(&self, outcome: &Outcome) -> Result<(), String> {
        self.finish_turn();
        let state = self.state.lock().map_err(|_| "poisoned".to_owned())?;
        let reward = match (&outcome.end, final_reward(&state.signals, &self.weights)) {
            (End::RunnerFailed { .. }, _) | (_, Final::JudgeError) => Err(Left::JudgeError),
            (End::ModelFailed { .. } | End::RecordFailed { .. } | End::Unloadable { .. }, _) => {
                Err(Left::Failed)
            }
            (_, Final::Reward(r)) => Ok(r),
        };
        let end = EpisodeEnd {
            reward,
            ladder: state.ladder,
            solved: outcome.solved,
            hidden: outcome.hidden,
            model_s: outcome.timing.model_ms / 1000.0,
            judge_s: outcome.timing.judge_ms / 1000.0,
            end: serde_json::to_value(&outcome.end).unwrap_or_default(),
        };
        let _ = self.events.send(Event::End {
            group: self.group,
            episode: self.episode,
            end: Box::new(end),
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent::pipeline::Stage;
    use agent::runner::CaseOutcome;
    use agent::step::TestRecord;
    use problems::Verdict;

    fn step(signals: Signals, compile_log: Option<&str>, tests: Vec<TestRecord>) -> Step {
        Step {
            run: "r".to_owned(),
            problem: "p".to_owned(),
            attempt: 1,
            step: 1,
            stage: Stage::Check,
            action: "run".to_owned(),
            started_ms: 0,
            call: None,
            extraction: None,
            program: None,
            compile_log: compile_log.map(str::to_owned),
            tests,
            signals,
            usage: Default::default(),
            timing: Default::default(),
            note: String::new(),
        }
    }

    fn case(program: &str, name: &str, verdict: Verdict, output: &str) -> TestRecord {
        TestRecord::Case {
            program: program.to_owned(),
            outcome: CaseOutcome {
                name: name.to_owned(),
                verdict,
                output: output.to_owned(),
                message: String::new(),
                cpu_ms: 1.0,
                peak_kib: 1,
            },
        }
    }

    /// The feedback a teacher reads: the first failed compile's log, the candidate's
    /// failing cases (not its passing ones, not a brute force's), the last verdict.
    #[test]
    fn feedback_keeps_the_compile_error_the_failing_cases_and_the_verdict() {
        let mut f = Feedback::default();
        f.observe(&step(
            Signals {
                compiled: Some(false),
                ..Signals::default()
            },
            Some("error: expected ';'"),
            Vec::new(),
        ));
        f.observe(&step(
            Signals {
                compiled: Some(true),
                ..Signals::default()
            },
            Some("a later log"),
            vec![
                case("candidate", "1", Verdict::AC, "3\n"),
                case("brute", "2", Verdict::WA, "9\n"),
                case("candidate", "2", Verdict::WA, "8\n"),
            ],
        ));
        f.observe(&step(
            Signals {
                verdict: Some(Verdict::TLE),
                ..Signals::default()
            },
            None,
            Vec::new(),
        ));
        assert_eq!(f.compile_error.as_deref(), Some("error: expected ';'"));
        assert_eq!(
            f.failures,
            vec![CaseFailure {
                name: "2".to_owned(),
                verdict: "WA".to_owned(),
                output: "8\n".to_owned(),
            }]
        );
        assert_eq!(f.verdict.as_deref(), Some("TLE"));
    }
}
