//! The training loop: each training step rolls out `problems_per_step` groups of G
//! episodes together through the agent, updating the policy as the update schedule plans
//! (`grpo::schedule`, the same plan the toy comparison follows), then
//! writes the step's metrics, a checkpoint and (every `eval_every` steps) a held-out
//! evaluation.
//!
//! Threads: the episodes run on a tokio runtime (their model is a [`Hook`] over the
//! shared [`LocalPolicy`], whose worker thread decodes every active sequence together);
//! this thread owns the trainable model and the optimizer, receives the episodes' turns
//! and ends, and makes the updates. After each update the new weights go to the sampler
//! (`LocalPolicy::update_weights`); sequences in flight finish on the weights they started
//! with and keep that version (the batcher's `OnWeights::Drain`), which the stored turn
//! records, so their behaviour logprobs stay exact and the staleness cap sees their age.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use agent::task::Task;
use tch::{Device, Kind};

use super::config::{Algorithm, ContextPart, TrainConfig};
use super::eval;
use super::hindsight::{self, Teacher};
use super::problems::{Problem, chosen_training, load_problems, step_problems};
use super::rollout::{EpisodeEnd, Event, Hook, Left, Rollouts, Turn, pipeline};
use crate::batching::OnWeights;
use crate::checkpoint::{self, TrainerState};
use crate::grpo::loss::{LossStats, Normalizer};
use crate::grpo::schedule::{self, Done, Ending, GroupEvents, Pick, Purpose, Settings, TurnEvent};
use crate::grpo::step::{self, Rollout};
use crate::metrics::{Metrics, plot};
use crate::model::Model;
use crate::optim::AdamW;
use crate::policy::LocalPolicy;
use crate::rng::mix;
use crate::tokenizer::ChatTokenizer;

/// Where a run reads and writes.
#[derive(Debug, Clone)]
pub struct RunPaths {
    /// The problem folder: package folders, and a `split.yaml` naming the training,
    /// validation and held-out ones (without it every package trains and nothing is held
    /// out).
    pub problems: PathBuf,
    /// The starting model (a Hugging Face folder).
    pub model: PathBuf,
    /// The output folder.
    pub out: PathBuf,
}

/// One step's figures (a line of `metrics.jsonl`).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct StepMetrics {
    /// The training step (from 1).
    pub step: u64,
    /// The policy version after it.
    pub version: u64,
    /// The problems rolled out.
    pub problems: Vec<String>,
    /// Episodes run.
    pub episodes: usize,
    /// Episodes that left their group on a judge (or sandbox) error.
    pub judge_errors: usize,
    /// Episodes that left on a model or recording failure.
    pub failed: usize,
    /// Groups with fewer than 2 episodes left (no update).
    pub groups_dissolved: usize,
    /// Fraction of scored episodes reaching each tier, and their mean final reward.
    pub tier_compiled: f64,
    /// Samples tier.
    pub tier_samples: f64,
    /// Own-tests tier.
    pub tier_own_tests: f64,
    /// Stress tier.
    pub tier_stress: f64,
    /// Mean final reward.
    pub final_reward: f64,
    /// Fraction of episodes accepted.
    pub pass_rate: f64,
    /// Optimizer updates made (provisional, corrections, finals).
    pub updates: usize,
    /// Updates skipped because every advantage was zero.
    pub updates_skipped: usize,
    /// Corrections applied (turns) and dropped as stale.
    pub corrections: usize,
    /// Dropped as older than the staleness cap.
    pub corrections_stale: usize,
    /// The mean loss of the updates.
    pub loss: f64,
    /// The loss of each update, in order.
    pub losses: Vec<f64>,
    /// Token-weighted k3 KL to the reference (0 without one).
    pub kl: f64,
    /// Clip fractions.
    pub clip_low: f64,
    /// Above.
    pub clip_high: f64,
    /// Ratio statistics against the proximal policy.
    pub ratio_mean: f64,
    /// Smallest.
    pub ratio_min: f64,
    /// Largest.
    pub ratio_max: f64,
    /// Behaviour ratio mean (current over the sampler's logprobs).
    pub behaviour_ratio_mean: f64,
    /// Fraction of tokens whose behaviour ratio was truncated (TIS).
    pub tis_truncated: f64,
    /// The mean per-token reverse KL to the hindsight teacher (`grpo::distill`; 0
    /// without one).
    #[serde(default)]
    pub distill_kl: f64,
    /// Largest gradient norm before clipping.
    pub grad_norm_max: f64,
    /// Learning rate of the last update.
    pub lr: f64,
    /// Reply tokens generated.
    pub generated_tokens: u64,
    /// Reply tokens per second of the step's wall time.
    pub tokens_per_s: f64,
    /// The step's wall time.
    pub wall_s: f64,
    /// Time in updates (this thread: forward, backward, optimizer, weight hand-over).
    pub optimize_s: f64,
    /// Time episodes waited for the model, summed over episodes.
    pub generate_s: f64,
    /// Time episodes waited for the sandbox and judge, summed over episodes.
    pub judge_s: f64,
    /// Held-out pass rate, when evaluated this step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval_pass_rate: Option<f64>,
}

#[derive(Default)]
struct Acc {
    stats: LossStats,
    first: bool,
}

impl StepMetrics {
    fn take(&mut self, loss: f64, s: &LossStats, grad: f64, lr: f64, acc: &mut Acc) {
        self.updates += 1;
        self.losses.push(loss);
        self.grad_norm_max = self.grad_norm_max.max(grad);
        self.lr = lr;
        let a = &mut acc.stats;
        let total = a.tokens + s.tokens;
        if s.tokens > 0.0 {
            let mix = |x: f64, y: f64| (x * a.tokens + y * s.tokens) / total;
            a.kl = mix(a.kl, s.kl);
            a.clip_low_fraction = mix(a.clip_low_fraction, s.clip_low_fraction);
            a.clip_high_fraction = mix(a.clip_high_fraction, s.clip_high_fraction);
            a.ratio_mean = mix(a.ratio_mean, s.ratio_mean);
            a.behaviour_ratio_mean = mix(a.behaviour_ratio_mean, s.behaviour_ratio_mean);
            a.tis_truncated_fraction = mix(a.tis_truncated_fraction, s.tis_truncated_fraction);
            a.distill_kl = mix(a.distill_kl, s.distill_kl);
            if acc.first {
                a.ratio_min = a.ratio_min.min(s.ratio_min);
                a.ratio_max = a.ratio_max.max(s.ratio_max);
            } else {
                a.ratio_min = s.ratio_min;
                a.ratio_max = s.ratio_max;
                acc.first = true;
            }
            a.tokens = total;
        }
        self.kl = a.kl;
        self.clip_low = a.clip_low_fraction;
        self.clip_high = a.clip_high_fraction;
        self.ratio_mean = a.ratio_mean;
        self.ratio_min = a.ratio_min;
        self.ratio_max = a.ratio_max;
        self.behaviour_ratio_mean = a.behaviour_ratio_mean;
        self.tis_truncated = a.tis_truncated_fraction;
        self.distill_kl = a.distill_kl;
    }
}

/// One group's state during a step.
struct Group {
    /// The problem its episodes solve.
    task: Arc<Task>,
    /// What the schedule sees: each episode's turns (level, version, action tokens) and
    /// how it ended.
    events: GroupEvents,
    /// What the schedule's plans have done.
    done: Done,
    /// How many turns the episodes may play (the provisional updates made; `usize::MAX`
    /// once the group needs no more).
    gate: tokio::sync::watch::Sender<usize>,
    turns: Vec<Vec<Turn>>,
    ends: Vec<Option<EpisodeEnd>>,
}

/// A record of one episode (a line of `rollouts/step-N.jsonl`).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct EpisodeRecord {
    /// The problem.
    pub problem: String,
    /// The episode within its group.
    pub episode: usize,
    /// Each turn's ladder level.
    pub levels: Vec<f64>,
    /// Each turn's reply tokens.
    pub generated: Vec<usize>,
    /// The tiers reached by the end of each turn.
    pub tiers: Vec<Vec<String>>,
    /// Whether the sandbox or judge had given a result by the end of each turn.
    pub judged: Vec<bool>,
    /// Each turn's policy version.
    pub versions: Vec<u64>,
    /// The final reward (`null`: it left its group).
    pub final_reward: Option<f64>,
    /// Why it left, if it did.
    pub left: Option<Left>,
    /// The provisional advantage each turn was updated with (agentic).
    pub provisional: Vec<Option<f64>>,
    /// The final advantage of each turn (all algorithms; outcome: the episode's).
    pub final_advantage: Vec<f64>,
    /// Accepted.
    pub solved: bool,
    /// The agent's end.
    pub end: serde_json::Value,
}

/// A training run in progress.
pub struct Trainer {
    config: TrainConfig,
    paths: RunPaths,
    model: Model,
    reference: Option<Model>,
    /// Hindsight self-distillation's teacher (`distill`), which scores every turn.
    teacher: Option<Teacher>,
    optimizer: AdamW,
    rollouts: Rollouts,
    /// When each update happens, on which turns, with which advantage.
    schedule: Settings,
    train: Vec<Arc<Task>>,
    held_out: Vec<Problem>,
    state: TrainerState,
    metrics: Metrics,
    /// When this invocation started (the time budget's clock).
    started: Instant,
    /// Set when the time budget ran out during the last step.
    budget_spent: bool,
    /// Where the next update's batch is written (`trainer train --dump-update`), once.
    dump_update: Option<PathBuf>,
}

/// The sampler's copy of the learner: its weights held in the learner's compute format.
fn twin(model: &Model, device: Device) -> anyhow::Result<Model> {
    let mut copy = Model::new(model.config.clone(), device);
    copy.vs.copy(&model.vs)?;
    copy.hold_in(model.compute());
    Ok(copy)
}

/// Where a run starts: its starting model and a fresh state, or (with `resume`) the
/// latest checkpoint in `paths.out` and its state, whose configuration must be one
/// `config` may resume. A run folder that holds a checkpoint without `resume`, or none
/// with it, is an error naming it. Shared by GRPO and the warm start (`super::sft`).
pub(crate) fn start_or_resume(
    config: &TrainConfig,
    paths: &RunPaths,
    resume: bool,
) -> anyhow::Result<(PathBuf, TrainerState)> {
    let latest = checkpoint::latest(&paths.out)?;
    let (model_dir, state) = match (resume, latest) {
        (true, Some(dir)) => {
            let state = checkpoint::read_state(&dir)?;
            (dir, state)
        }
        (true, None) => anyhow::bail!(
            "--resume: {} holds no checkpoint (no `latest` file)",
            paths.out.display()
        ),
        (false, Some(dir)) => anyhow::bail!(
            "{} already holds a run (checkpoint {}): pass --resume or another --out",
            paths.out.display(),
            dir.display()
        ),
        (false, None) => (
            paths.model.clone(),
            TrainerState {
                step: 0,
                version: 0,
                seed: config.seed,
                base_model: paths.model.clone(),
                best_eval: None,
                config: serde_json::to_value(config)?,
            },
        ),
    };
    if resume
        && !serde_json::from_value::<TrainConfig>(state.config.clone())
            .is_ok_and(|saved| saved.resumable_with(config))
    {
        anyhow::bail!(
            "--resume: the configuration differs from the one the run started with (see {}/trainer_state.json)",
            model_dir.display()
        );
    }
    Ok((model_dir, state))
}

impl Trainer {
    /// Starts a run (or resumes the last checkpoint in `paths.out` with `resume`), the
    /// matrix products in `compute` (`crate::precision`): the learner keeps float32
    /// master weights and rounds them where they are used; the sampler and the KL
    /// reference hold theirs in `compute`.
    pub fn new(
        config: TrainConfig,
        paths: RunPaths,
        device: Device,
        compute: Kind,
        resume: bool,
    ) -> anyhow::Result<Trainer> {
        let started = Instant::now();
        config.validate()?;
        match config.algorithm {
            Algorithm::Sft => anyhow::bail!(
                "algorithm sft is the supervised warm start: run it with train::sft::Warmstart (trainer train does)"
            ),
            Algorithm::Rft => anyhow::bail!(
                "algorithm rft is rejection sampling: run it with train::rft::run (trainer train does)"
            ),
            _ => {}
        }
        std::fs::create_dir_all(&paths.out)?;
        let (model_dir, state) = start_or_resume(&config, &paths, resume)?;
        let pipeline = pipeline(&config)?;
        let problems = load_problems(&paths.problems)?;
        let train = chosen_training(&problems, &config)?;
        // The teacher's reference solutions are found and checked before training starts.
        let references = match config.distillation() {
            Some(d) if d.has(ContextPart::Reference) => {
                let language = pipeline.language.as_deref().ok_or_else(|| {
                    anyhow::anyhow!(
                        "distill.context reference needs the pipeline's language (`language:` in {}): the reference solutions are chosen by it",
                        pipeline.name
                    )
                })?;
                hindsight::references(&train, &problems, language)?
            }
            _ => Default::default(),
        };
        let held_out = problems.held_out;
        let mut model = Model::load(&model_dir, device)
            .map_err(|e| anyhow::anyhow!("model {}: {e}", model_dir.display()))?;
        model.set_compute(compute);
        model.set_checkpointing(config.activation_checkpointing);
        let reference = if config.kl_beta > 0.0 {
            Some(
                Model::load_as(&state.base_model, device, compute)
                    .map_err(|e| anyhow::anyhow!("reference model: {e}"))?,
            )
        } else {
            None
        };
        let horizon = pipeline.budget.model_calls.unwrap_or(1) as usize;
        let schedule = config.schedule(horizon)?;
        let updates_per_step = config.updates_per_step(horizon);
        let mut optimizer = AdamW::new(
            &model.vs,
            config.optim(config.steps * updates_per_step as u64),
        )?;
        if state.step > 0 {
            checkpoint::load_optimizer(&model_dir, &mut optimizer)?;
        }
        let tokenizer_dir = checkpoint::tokenizer_dir(&model_dir)?;
        let tokenizer = ChatTokenizer::load(&tokenizer_dir)
            .map_err(|e| anyhow::anyhow!("tokenizer {}: {e}", tokenizer_dir.display()))?;
        let name = paths
            .model
            .file_name()
            .map_or("policy".to_owned(), |n| n.to_string_lossy().into_owned());
        let policy = Arc::new(LocalPolicy::new(
            name,
            twin(&model, device)?,
            tokenizer,
            config.max_batch,
            OnWeights::Drain,
            state.version,
        ));
        let teacher = match config.distillation() {
            Some(d) => Some(Teacher::new(
                d,
                &state.base_model,
                device,
                compute,
                ChatTokenizer::load(&tokenizer_dir)
                    .map_err(|e| anyhow::anyhow!("tokenizer {}: {e}", tokenizer_dir.display()))?,
                references,
                pipeline.language.as_deref(),
            )?),
            None => None,
        };
        let rollouts = Rollouts::new(pipeline, policy)?;
        let metrics = Metrics::open(&paths.out.join("metrics.jsonl"), state.step)?;
        Ok(Trainer {
            config,
            paths,
            model,
            reference,
            teacher,
            optimizer,
            rollouts,
            schedule,
            train,
            held_out,
            state,
            metrics,
            started,
            budget_spent: false,
            dump_update: None,
        })
    }

    /// Writes the next update's batch (its rollouts: token ids, action mask, behaviour
    /// log-probabilities and advantages, and the step's settings) to `path` as JSON, so
    /// that `trainer bench --replay` runs the same update in both precisions.
    pub fn dump_next_update(&mut self, path: PathBuf) {
        self.dump_update = Some(path);
    }

    /// The step the run has finished.
    pub fn step(&self) -> u64 {
        self.state.step
    }

    /// Runs until `config.steps` (or `until`, if smaller) steps are done, or until the step
    /// during which the time budget ran out, printing a status line per step to stderr.
    pub fn run(&mut self, until: Option<u64>) -> anyhow::Result<()> {
        let last = until.unwrap_or(self.config.steps).min(self.config.steps);
        while self.state.step < last {
            let m = self.train_step()?;
            eprintln!(
                "step {}/{} v{}: pass {:.2} reward {:.3} compiled {:.2} samples {:.2} | loss {:+.4} kl {:.4} clip {:.3}/{:.3} tis {:.3} | {} updates ({} skipped) corr {}+{} stale | je {} | {:.0} tok/s | wall {:.1}s opt {:.1}s{}",
                m.step,
                self.config.steps,
                m.version,
                m.pass_rate,
                m.final_reward,
                m.tier_compiled,
                m.tier_samples,
                m.loss,
                m.kl,
                m.clip_low,
                m.clip_high,
                m.tis_truncated,
                m.updates,
                m.updates_skipped,
                m.corrections,
                m.corrections_stale,
                m.judge_errors,
                m.tokens_per_s,
                m.wall_s,
                m.optimize_s,
                m.eval_pass_rate
                    .map_or(String::new(), |p| format!(" | held-out pass {p:.2}")),
            );
            if self.budget_spent {
                eprintln!(
                    "time budget of {} min spent ({:.1} min since the start): stopping after step {} of {}, with its checkpoint",
                    self.config.time_budget_minutes.unwrap_or_default(),
                    self.started.elapsed().as_secs_f64() / 60.0,
                    m.step,
                    self.config.steps
                );
                break;
            }
        }
        Ok(())
    }

    /// Whether the time budget ran out (the run stopped before its last step).
    pub fn budget_spent(&self) -> bool {
        self.budget_spent
    }

    fn seed_of(&self, step: u64, group: usize, episode: usize) -> u64 {
        mix(self.config.seed ^ mix(step ^ mix((group as u64) << 32 | episode as u64)))
    }

    /// One training step: roll out, update, record, checkpoint, evaluate.
    pub fn train_step(&mut self) -> anyhow::Result<StepMetrics> {
        let started = Instant::now();
        let step = self.state.step + 1;
        let chosen = step_problems(
            self.config.seed,
            step,
            self.config.problems_per_step,
            self.train.len(),
        );
        let g = self.config.group_size;
        let (tx, rx) = std::sync::mpsc::channel();
        let mut groups = Vec::new();
        let mut handles = Vec::new();
        for (gi, &p) in chosen.iter().enumerate() {
            let (gate, gate_rx) = tokio::sync::watch::channel(0usize);
            groups.push(Group {
                task: self.train[p].clone(),
                events: GroupEvents::new(g),
                done: Done::default(),
                gate,
                turns: vec![Vec::new(); g],
                ends: vec![None; g],
            });
            let gated = self.config.algorithm == Algorithm::Agentic;
            for e in 0..g {
                let hook = Arc::new(Hook::new(
                    self.rollouts.policy.clone(),
                    gi,
                    e,
                    self.config.rewards,
                    tx.clone(),
                    gated.then(|| gate_rx.clone()),
                ));
                handles.push(self.rollouts.spawn(
                    hook,
                    self.train[p].clone(),
                    self.seed_of(step, gi, e),
                    "train",
                ));
            }
        }
        drop(tx);
        let mut m = StepMetrics {
            step,
            problems: chosen.iter().map(|p| self.train[*p].id.clone()).collect(),
            episodes: g * chosen.len(),
            ..StepMetrics::default()
        };
        let mut acc = Acc::default();
        while let Ok(event) = rx.recv() {
            let gi = match &event {
                Event::Turn { group, .. } | Event::End { group, .. } => *group,
            };
            self.take(&mut groups[gi], event)?;
            self.advance(&mut groups[gi], &mut m, &mut acc)?;
        }
        self.rollouts.join(handles)?;
        // Any group still open (every episode ended) is finished now.
        for group in &mut groups {
            self.advance(group, &mut m, &mut acc)?;
        }
        self.summarise(&groups, &chosen, started, &mut m)?;
        self.state.step = step;
        self.state.version = self.optimizer.steps();
        m.version = self.state.version;
        if self.config.eval_every > 0 && step.is_multiple_of(self.config.eval_every) {
            m.eval_pass_rate = Some(self.evaluate(step)?);
        }
        self.budget_spent = self.config.budget_spent(self.started.elapsed());
        let last = step == self.config.steps || self.budget_spent;
        if step.is_multiple_of(self.config.checkpoint_every) || last {
            let improved = match (m.eval_pass_rate, self.state.best_eval) {
                (Some(p), Some(b)) => p > b,
                (Some(_), None) => true,
                _ => false,
            };
            if improved {
                self.state.best_eval = m.eval_pass_rate;
            }
            let dir = checkpoint::save(
                &self.paths.out,
                &self.model,
                &self.optimizer,
                &self.state,
                &self.state.base_model,
                self.config.keep_checkpoints,
            )?;
            if improved {
                checkpoint::keep_best(&self.paths.out, &dir)?;
            }
        }
        self.metrics.write(&serde_json::to_value(&m)?)?;
        plot(
            &self.paths.out.join("metrics.jsonl"),
            &self.paths.out.join("metrics.svg"),
        )?;
        Ok(m)
    }

    fn take(&mut self, group: &mut Group, event: Event) -> anyhow::Result<()> {
        match event {
            Event::Turn {
                episode, mut turn, ..
            } => {
                if let Some(teacher) = &self.teacher
                    && !group.done.dissolved
                {
                    teacher.score_turn(&group.task, &mut turn)?;
                }
                if group.ends[episode].is_none() && !group.done.dissolved {
                    let event = TurnEvent {
                        level: turn.level,
                        version: turn.version,
                        action_tokens: turn.generated(),
                    };
                    group.events.turn(episode, event)?;
                }
                group.turns[episode].push(*turn);
            }
            Event::End { episode, end, .. } => {
                let ending = match end.reward {
                    Ok(r) => Ending::Verdict(r),
                    Err(_) => Ending::Left,
                };
                group.events.end(episode, ending)?;
                group.ends[episode] = Some(*end);
            }
        }
        Ok(())
    }

    /// The rows of some picks: each turn's stored tokens, its action tokens with the
    /// pick's advantage, and (with `teacher`) the hindsight teacher's log-probabilities.
    fn rows(group: &Group, picks: &[Pick], teacher: bool) -> Vec<Rollout> {
        picks
            .iter()
            .filter_map(|k| {
                let turn = group.turns[k.episode].get(k.turn)?;
                Some(Rollout {
                    tokens: turn.tokens.clone(),
                    action: turn.action.clone(),
                    behaviour_logp: turn.behaviour_logp.clone(),
                    advantage: turn
                        .action
                        .iter()
                        .map(|on| if *on { k.advantage } else { 0.0 })
                        .collect(),
                    teacher_logp: if teacher {
                        turn.teacher_logp.clone()
                    } else {
                        None
                    },
                })
            })
            .collect()
    }

    /// One optimizer update over some batches, each under its normaliser
    /// (`grpo::step::update`), then the new weights go to the sampler.
    fn update(
        &mut self,
        batches: &[(Vec<Rollout>, Normalizer)],
        m: &mut StepMetrics,
        acc: &mut Acc,
    ) -> anyhow::Result<()> {
        let began = Instant::now();
        let config = self.config.step();
        if let Some(path) = self.dump_update.take() {
            let rows: Vec<&Rollout> = batches.iter().flat_map(|(rows, _)| rows).collect();
            let text = serde_json::to_string(&serde_json::json!({
                "step": self.state.step + 1,
                "step_config": config,
                "rollouts": rows,
            }))?;
            std::fs::write(&path, text + "\n")
                .map_err(|e| anyhow::anyhow!("--dump-update {}: {e}", path.display()))?;
        }
        let report = step::update(
            &self.model,
            self.reference.as_ref(),
            &mut self.optimizer,
            batches,
            &config,
        )?;
        if let Some(teacher) = &self.teacher {
            teacher.after_update(&self.model)?;
        }
        let version = self.optimizer.steps();
        self.rollouts
            .policy
            .update_weights(&self.model.vs, version)
            .map_err(|e| anyhow::anyhow!("handing the weights to the sampler: {e}"))?;
        m.optimize_s += began.elapsed().as_secs_f64();
        let (grad, lr) = report
            .updates
            .last()
            .map_or((0.0, 0.0), |u| (u.grad_norm, u.lr));
        m.take(report.loss, &report.stats, grad, lr, acc);
        Ok(())
    }

    /// Makes every update the schedule plans for the group now (`grpo::schedule::plan`,
    /// again after each plan with updates), then opens the group's gate as far as its
    /// provisional updates go (all the way once it needs no more).
    fn advance(
        &mut self,
        group: &mut Group,
        m: &mut StepMetrics,
        acc: &mut Acc,
    ) -> anyhow::Result<()> {
        loop {
            let was_dissolved = group.done.dissolved;
            let plan = schedule::plan(
                &group.events,
                &group.done,
                &self.schedule,
                self.optimizer.steps(),
            )?;
            group.done = plan.done;
            m.corrections += plan.corrections;
            m.corrections_stale += plan.stale;
            m.updates_skipped += plan.skipped_uniform;
            if group.done.dissolved && !was_dissolved {
                m.groups_dissolved += 1;
            }
            for u in &plan.updates {
                // A turn's reverse KL to the teacher joins one update: its provisional one
                // under Agentic GRPO (a correction revisits the turn), the group's one
                // update otherwise.
                let teacher = !matches!(u.purpose, Purpose::Correction);
                let batches: Vec<(Vec<Rollout>, Normalizer)> = u
                    .parts
                    .iter()
                    .map(|p| (Self::rows(group, &p.picks, teacher), p.normalizer))
                    .collect();
                self.update(&batches, m, acc)?;
            }
            let open = if group.done.over() {
                usize::MAX
            } else {
                group.done.provisional.len()
            };
            group.gate.send_if_modified(|v| {
                let changed = *v != open;
                *v = open;
                changed
            });
            if plan.updates.is_empty() {
                return Ok(());
            }
        }
    }

    fn summarise(
        &mut self,
        groups: &[Group],
        chosen: &[usize],
        started: Instant,
        m: &mut StepMetrics,
    ) -> anyhow::Result<()> {
        let mut scored = 0.0;
        let (mut c, mut s, mut o, mut st, mut f, mut solved) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
        let mut records = Vec::new();
        for (gi, group) in groups.iter().enumerate() {
            let finals = if group.done.dissolved {
                None
            } else {
                schedule::final_advantages(&group.events, &self.schedule).ok()
            };
            for (e, end) in group.ends.iter().enumerate() {
                let Some(end) = end else { continue };
                m.generated_tokens += group.turns[e]
                    .iter()
                    .map(|t| t.generated() as u64)
                    .sum::<u64>();
                m.generate_s += end.model_s;
                m.judge_s += end.judge_s;
                match &end.reward {
                    Ok(r) => {
                        scored += 1.0;
                        c += f64::from(u8::from(end.ladder.compiled));
                        s += f64::from(u8::from(end.ladder.samples));
                        o += f64::from(u8::from(end.ladder.own_tests));
                        st += f64::from(u8::from(end.ladder.stress));
                        f += r;
                    }
                    Err(Left::JudgeError) => m.judge_errors += 1,
                    Err(Left::Failed) => m.failed += 1,
                }
                solved += f64::from(u8::from(end.solved));
                records.push(EpisodeRecord {
                    problem: self.train[chosen[gi]].id.clone(),
                    episode: e,
                    levels: group.turns[e].iter().map(|t| t.level).collect(),
                    generated: group.turns[e].iter().map(Turn::generated).collect(),
                    tiers: group.turns[e].iter().map(|t| t.tiers.clone()).collect(),
                    judged: group.turns[e].iter().map(|t| t.judged).collect(),
                    versions: group.turns[e].iter().map(|t| t.version).collect(),
                    final_reward: end.reward.as_ref().ok().copied(),
                    left: end.reward.as_ref().err().cloned(),
                    provisional: group
                        .done
                        .provisional
                        .iter()
                        .map(|p| p.advantages.get(e).copied().flatten())
                        .collect(),
                    final_advantage: finals
                        .as_ref()
                        .and_then(|f| f.get(e).cloned())
                        .unwrap_or_default(),
                    solved: end.solved,
                    end: end.end.clone(),
                });
            }
        }
        let per = |x: f64| if scored > 0.0 { x / scored } else { 0.0 };
        m.tier_compiled = per(c);
        m.tier_samples = per(s);
        m.tier_own_tests = per(o);
        m.tier_stress = per(st);
        m.final_reward = per(f);
        m.pass_rate = solved / m.episodes.max(1) as f64;
        m.loss = if m.losses.is_empty() {
            0.0
        } else {
            m.losses.iter().sum::<f64>() / m.losses.len() as f64
        };
        m.wall_s = started.elapsed().as_secs_f64();
        m.tokens_per_s = m.generated_tokens as f64 / m.wall_s.max(1e-9);
        let dir = self.paths.out.join("rollouts");
        std::fs::create_dir_all(&dir)?;
        let mut text = String::new();
        for r in &records {
            text.push_str(&serde_json::to_string(r)?);
            text.push('\n');
        }
        std::fs::write(dir.join(format!("step-{:06}.jsonl", m.step)), text)?;
        Ok(())
    }

    /// The held-out pass rate (`eval::evaluate`): `eval_samples` episodes of each of the
    /// first `eval_problems` held-out problems, no training.
    fn evaluate(&mut self, step: u64) -> anyhow::Result<f64> {
        let count = match self.config.eval_problems {
            0 => self.held_out.len(),
            n => n.min(self.held_out.len()),
        };
        if count == 0 {
            return Ok(0.0);
        }
        let results = eval::evaluate(
            &self.rollouts,
            &self.held_out[..count],
            self.config.eval_samples,
            mix(self.config.seed ^ 0xE7A1 ^ step),
            self.config.rewards,
            &mut |_| {},
        )?;
        Ok(eval::pass_at_1(&results))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grpo::logprob::sequence_logprobs;
    use crate::grpo::step::{accumulate, normalizer, optimizer_step};
    use crate::optim::OptimConfig;

    /// The clipped surrogate of a fixed batch against its fixed starting log-probabilities
    /// falls over a few updates of the step the loop uses.
    #[test]
    fn the_loss_falls_on_a_fixed_batch() {
        let config: crate::config::Config = serde_json::from_value(serde_json::json!({
            "model_type": "llama", "vocab_size": 40, "hidden_size": 16, "intermediate_size": 32,
            "num_hidden_layers": 1, "num_attention_heads": 2, "num_key_value_heads": 1,
            "rms_norm_eps": 1e-6, "rope_theta": 10000.0, "max_position_embeddings": 64,
            "tie_word_embeddings": true
        }))
        .expect("config");
        let model = Model::new(config, Device::Cpu);
        // Its weights from its own generator: tests in parallel reseed the global one.
        crate::model::fill_seeded(&model.vs, 11);
        let seqs: Vec<Vec<i64>> = vec![vec![1, 5, 7, 9, 11, 3], vec![1, 5, 8, 10, 12, 4]];
        let start = tch::no_grad(|| sequence_logprobs(&model, &seqs)).expect("logprobs");
        let rows: Vec<Rollout> = seqs
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let action: Vec<bool> = (0..s.len()).map(|k| k >= 2).collect();
                let a = if i == 0 { 1.0 } else { -1.0 };
                Rollout::fixed(s.clone(), action, a, &start, i)
            })
            .collect();
        let step = TrainConfig::default().step();
        let norm = normalizer(&rows);
        let old = [start.shallow_clone()];
        let surrogate = |model: &Model| {
            accumulate(model, None, &rows, &step, norm, Some(&old))
                .expect("loss")
                .0
        };
        let mut opt = AdamW::new(
            &model.vs,
            OptimConfig {
                lr: 1e-3,
                ..OptimConfig::default()
            },
        )
        .expect("optimizer");
        // Measuring the loss accumulates its gradient: cleared before each update.
        let mut losses = vec![surrogate(&model)];
        opt.zero_grad();
        for _ in 0..3 {
            optimizer_step(&model, None, &mut opt, &rows, &step, None).expect("step");
            losses.push(surrogate(&model));
            opt.zero_grad();
        }
        assert!(
            losses.windows(2).all(|w| w[1] < w[0]) && losses[3] < losses[0] - 0.05,
            "{losses:?}"
        );
    }
}
