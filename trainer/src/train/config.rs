//! The training run's configuration file (YAML or JSON; every field optional, defaults
//! below). Each field is documented here and in the README's training section.

use std::path::Path;

use crate::grpo::advantage::{AdvantageConfig, Baseline};
use crate::grpo::credit::{CreditConfig, Scale};
use crate::grpo::loss::{Aggregation, LossConfig, RatioLevel};
use crate::grpo::reward::{FinalReward, RewardWeights};
use crate::grpo::schedule::{Rule, Settings};
use crate::grpo::step::StepConfig;
use crate::lora::LoraConfig;
use crate::optim::{OptimConfig, Schedule};

/// Which GRPO the run trains with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    /// Agentic GRPO: a provisional update per turn as soon as the group has played it,
    /// a correction per turn when the final verdicts arrive (`grpo::credit`).
    Agentic,
    /// Outcome-only GRPO: one update per group at the final verdict, every turn's tokens
    /// with the episode's group-relative final reward.
    Outcome,
    /// Process-reward GRPO: every stage reward and the final verdict, one update per group
    /// at the end with the return-to-go advantages (DeepSeekMath's process supervision).
    Process,
    /// The supervised warm start (`super::sft`): the training problems' accepted
    /// reference solutions as replies to the agent's own code request, the loss on the
    /// reply's tokens only; no rollouts, no judge.
    Sft,
    /// Rejection-sampling fine-tuning (`super::rft`), keep-the-positives: each round
    /// samples programs for the training problems through the agent's loop with the last
    /// round's model, judges them, and trains from the starting weights (the warm start's)
    /// on every accepted program so far, with the warm start's loss and settings (`sft`).
    Rft,
    /// Hindsight self-distillation: outcome GRPO with the `distill` block (its defaults
    /// when the file has none): a teacher given the judge's feedback (and, on training
    /// problems, the reference solution) scores the student's own tokens, and the
    /// per-token reverse KL joins the outcome term (`crate::grpo::distill`,
    /// `super::hindsight`).
    Hindsight,
}

/// Which model scores the student's tokens (`distill.teacher`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TeacherKind {
    /// The starting weights, frozen for the whole run (a resumed run's too).
    Initial,
    /// An exponential moving average of the student, starting at the starting weights:
    /// after each update `teacher = ema_decay * teacher + (1 - ema_decay) * student`.
    Ema,
}

/// A piece of privileged context the teacher's prompt gets (`distill.context`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum ContextPart {
    /// The compiler's error, when the turn's program did not compile.
    CompileError,
    /// The first failing sample: its input, the expected and the actual output.
    FailingSample,
    /// The judge's verdict on the turn's submission, when it made one.
    Verdict,
    /// The package's accepted reference solution (training problems only; a training
    /// problem without one in the pipeline's language is an error before training).
    Reference,
}

/// Hindsight self-distillation's settings (`distill:`, read by every GRPO algorithm that
/// carries the block; `algorithm: hindsight` uses the defaults without one).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DistillConfig {
    /// `initial` (the starting weights, frozen) or `ema`.
    pub teacher: TeacherKind,
    /// The EMA's decay per update (`teacher: ema` only), in [0, 1).
    pub ema_decay: f64,
    /// What the teacher's prompt gets that the student's never has.
    pub context: Vec<ContextPart>,
    /// The weight of the per-token reverse KL against the GRPO term (> 0).
    pub weight: f64,
    /// The teacher's top-k for the union-of-top-k estimator; 0 (the only value built)
    /// is the sampled-token estimator, which reads the sampled token's log-probability
    /// only (`crate::grpo::distill` says why).
    pub top_k: usize,
    /// A teacher at another server instead of the starting weights: the API base
    /// (`http://HOST:PORT/v1`) of a server that scores prompts through `/completions`
    /// with `echo: true`, `max_tokens: 0` and `logprobs` (vLLM, `trainer serve`); it must
    /// share the student's tokenizer, which is checked before training starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teacher_url: Option<String>,
    /// The model name sent to `teacher_url` (vLLM needs the one it serves).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teacher_model: Option<String>,
}

impl Default for DistillConfig {
    fn default() -> Self {
        DistillConfig {
            teacher: TeacherKind::Initial,
            ema_decay: 0.99,
            context: vec![
                ContextPart::CompileError,
                ContextPart::FailingSample,
                ContextPart::Verdict,
                ContextPart::Reference,
            ],
            weight: 1.0,
            top_k: 0,
            teacher_url: None,
            teacher_model: None,
        }
    }
}

impl DistillConfig {
    /// Whether the teacher's prompt gets `part`.
    pub fn has(&self, part: ContextPart) -> bool {
        self.context.contains(&part)
    }

    /// Checks the ranges, naming the option.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(self.weight.is_finite() && self.weight > 0.0) {
            return Err(bad(
                "distill.weight",
                format!("must be a positive number, not {}", self.weight),
            ));
        }
        if !(self.ema_decay.is_finite() && (0.0..1.0).contains(&self.ema_decay)) {
            return Err(bad(
                "distill.ema_decay",
                format!("must be in [0, 1), not {}", self.ema_decay),
            ));
        }
        if self.top_k != 0 {
            return Err(bad(
                "distill.top_k",
                format!(
                    "{}: the top-k union estimator is not built; 0 is the sampled-token estimator",
                    self.top_k
                ),
            ));
        }
        if let Some(url) = &self.teacher_url
            && self.teacher == TeacherKind::Ema
        {
            return Err(bad(
                "distill.teacher_url",
                format!(
                    "{url}: a teacher at another server has no weights to average: teacher ema goes without teacher_url"
                ),
            ));
        }
        if self.teacher_model.is_some() && self.teacher_url.is_none() {
            return Err(bad(
                "distill.teacher_model",
                "names the model of a teacher_url, and there is none",
            ));
        }
        let mut seen = std::collections::BTreeSet::new();
        for part in &self.context {
            if !seen.insert(*part) {
                return Err(bad("distill.context", format!("{part:?} is listed twice")));
            }
        }
        Ok(())
    }
}

/// Which sampled programs rejection sampling keeps (`rft.keep`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Keep {
    /// Programs the judge accepted (every hidden test passed).
    Accepted,
    /// Those, and programs that passed every sample test.
    SamplesPassed,
}

/// Rejection sampling's settings (`algorithm: rft`; `super::rft`).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RftConfig {
    /// Rounds of sampling and training.
    pub rounds: u32,
    /// G: programs sampled per problem in a round.
    pub samples: usize,
    /// Training problems sampled per round, a seeded choice that changes with the round
    /// (0: every training problem).
    pub problems: usize,
    /// Which programs become training examples.
    pub keep: Keep,
}

impl Default for RftConfig {
    fn default() -> Self {
        RftConfig {
            rounds: 1,
            samples: 4,
            problems: 0,
            keep: Keep::Accepted,
        }
    }
}

/// The supervised warm start's settings (`algorithm: sft`; `super::sft`).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SftConfig {
    /// Passes over the training examples.
    pub epochs: u64,
    /// Tokens (prompt and reply, as computed) per optimizer update, at least: examples
    /// join an update in the epoch's order until their tokens reach this.
    pub batch_tokens: usize,
    /// Training problems held aside (chosen by the seed, never trained on) whose
    /// examples' loss is the run's validation loss.
    pub held_aside: usize,
    /// The validation loss every this many updates (and after the last; 0: only after
    /// the last).
    pub validate_every: u64,
}

impl Default for SftConfig {
    fn default() -> Self {
        SftConfig {
            epochs: 3,
            batch_tokens: 4096,
            held_aside: 4,
            validate_every: 10,
        }
    }
}

/// Everything a training run is configured with.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrainConfig {
    /// `agentic`, `outcome` or `process`.
    pub algorithm: Algorithm,
    /// G: episodes per problem (at least 2).
    pub group_size: usize,
    /// Problems (groups) rolled out together in one training step.
    pub problems_per_step: usize,
    /// Training steps in the run (the learning-rate schedule's length too).
    pub steps: u64,
    /// The run's seed: problem order and every episode's sampling seed derive from it
    /// and the step number, so a resumed run replays the same data.
    pub seed: u64,
    /// The agent's pipeline: `short`, `full` or a pipeline file.
    pub pipeline: String,
    /// Model calls per episode (the agent's budget, and the credit horizon); `null`: the
    /// pipeline's.
    pub model_calls: Option<u64>,
    /// The most tokens per reply.
    pub max_tokens: u32,
    /// Sampling temperature of rollouts.
    pub temperature: f32,
    /// Sequences the decoder runs together (continuous batching).
    pub max_batch: usize,
    /// Peak learning rate.
    pub lr: f64,
    /// AdamW's decoupled weight decay (matrices only).
    pub weight_decay: f64,
    /// Optimizer updates of linear warm-up.
    pub warmup_steps: u64,
    /// `constant`, `linear` or `cosine` after warm-up, over `steps` training steps' worth of
    /// updates (an estimate: `steps` x updates per step).
    pub schedule: Schedule,
    /// The rate at the schedule's end, as a fraction of the peak.
    pub min_lr_ratio: f64,
    /// Clip the gradient's global L2 norm to this (`null`: no clipping).
    pub max_grad_norm: Option<f64>,
    /// PPO clip below 1 (`1 - clip_low`).
    pub clip_low: f64,
    /// PPO clip above 1 (`1 + clip_high`; DAPO's clip-higher when above `clip_low`).
    pub clip_high: f64,
    /// `token` ratio, or GSPO's `sequence` ratio.
    pub ratio: RatioLevel,
    /// Weight of the k3 KL to the frozen reference model (the starting weights); 0: none,
    /// and no reference model is kept.
    pub kl_beta: f64,
    /// Truncated importance sampling: the behaviour ratio's cap (`null`: no correction).
    pub tis_cap: Option<f64>,
    /// `token_mean` (over the update's action tokens), `sequence_mean`, or
    /// `{constant_length: {length: N}}` (Dr. GRPO).
    pub aggregation: Aggregation,
    /// Rows (turns) per forward pass, at most (gradients accumulate over an update's
    /// micro-batches).
    pub micro_batch: usize,
    /// Padded tokens per forward pass (rows x the longest row), at most: long turns make
    /// smaller micro-batches, a turn longer than this one of its own.
    pub micro_batch_tokens: usize,
    /// Passes over each update's rows against the same proximal policy.
    pub ppo_epochs: usize,
    /// Advantage scaling: `none` (Dr. GRPO) or `group_std`.
    pub advantage_scale: Scale,
    /// Agentic: a correction of a turn generated more than this many policy versions ago
    /// is dropped (and counted).
    pub staleness_cap: u64,
    /// DAPO's dynamic sampling: an update whose advantages are all zero (the group's
    /// rewards do not vary) is skipped (and counted). When false, such an update still
    /// runs (it moves the weights only through the KL term and the optimizer's momentum).
    pub drop_uniform: bool,
    /// The reward tiers' weights and the final reward's rule (`grpo::reward`): fields
    /// `compiled`, `samples`, `own_tests`, `stress`, `final_reward` (`all_hidden` or
    /// `per_test`), `final_weight`.
    pub rewards: RewardWeights,
    /// Held-out evaluation every this many steps (0: never); the best checkpoint by
    /// held-out pass rate is kept in `OUT/best`.
    pub eval_every: u64,
    /// Held-out problems evaluated (the first N of the held-out list; 0: all).
    pub eval_problems: usize,
    /// Episodes per held-out problem in the training-time evaluation (its pass rate is
    /// the mean over problems of each one's solved fraction, as `trainer eval`'s pass@1).
    pub eval_samples: usize,
    /// A wall-time budget for one invocation of `trainer train`, in minutes (`null`: none):
    /// the run stops after the step during which it ran out, with a checkpoint of that
    /// step. The schedule keeps `steps` as its length; `--resume` starts a new budget.
    pub time_budget_minutes: Option<f64>,
    /// `sft` and `rft` only, with `time_budget_minutes`: fit the learning-rate schedule to
    /// the updates the budget holds rather than to the plan's. After each update the run
    /// estimates, from its seconds per update so far, how many updates the budget will let
    /// it make, and the schedule's decay ends there (never later than the plan's end), so a
    /// run the budget stops early still anneals. Off: the decay ends at the plan's last
    /// update, wherever the budget stops the run.
    pub fit_schedule_to_budget: bool,
    /// A checkpoint every this many steps (the last step always gets one).
    pub checkpoint_every: u64,
    /// Checkpoints kept in `OUT/checkpoints` (the newest; at least 1).
    pub keep_checkpoints: usize,
    /// Train on these problems only (package names; empty: every training problem).
    /// Each must be on the training list of the problem folder's `split.yaml` (or a
    /// package of a folder without one): a validation, held-out or unknown name is an
    /// error, so a curriculum cannot leak them into training.
    pub training_problems: Vec<String>,
    /// The supervised warm start's settings (read with `algorithm: sft`, and by `rft` for
    /// its training).
    pub sft: SftConfig,
    /// Rejection sampling's settings (read with `algorithm: rft` only).
    pub rft: RftConfig,
    /// Hindsight self-distillation (`DistillConfig`): any GRPO algorithm may carry it;
    /// `algorithm: hindsight` is outcome GRPO with it (its defaults when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distill: Option<DistillConfig>,
    /// LoRA adapters instead of full fine-tuning (`crate::lora::LoraConfig`: rank, alpha,
    /// targets); absent: every weight trains. Read by `sft` and `rft` (the others sample
    /// from and score against a copy of the learner's own variables, which adapters are
    /// not part of yet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lora: Option<LoraConfig>,
    /// Activation checkpointing of the learner's training passes (GRPO, `sft`, `rft`):
    /// only each layer's input is kept, and the layers run again in the backward pass
    /// (`Model::forward_checkpointed`): less memory for a second forward pass of the
    /// layers.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub activation_checkpointing: bool,
}

impl Default for TrainConfig {
    fn default() -> Self {
        let optim = OptimConfig::default();
        let loss = LossConfig::default();
        TrainConfig {
            algorithm: Algorithm::Agentic,
            group_size: 4,
            problems_per_step: 2,
            steps: 20,
            seed: 1,
            pipeline: "short".to_owned(),
            model_calls: Some(4),
            max_tokens: 256,
            temperature: 1.0,
            max_batch: 16,
            lr: 1e-6,
            weight_decay: optim.weight_decay,
            warmup_steps: 2,
            schedule: Schedule::Constant,
            min_lr_ratio: optim.min_lr_ratio,
            max_grad_norm: Some(1.0),
            clip_low: loss.clip_low,
            clip_high: 0.28,
            ratio: RatioLevel::Token,
            kl_beta: 0.0,
            tis_cap: loss.tis_cap,
            aggregation: Aggregation::TokenMean,
            micro_batch: 4,
            micro_batch_tokens: 8192,
            ppo_epochs: 1,
            advantage_scale: Scale::None,
            staleness_cap: 4,
            drop_uniform: true,
            rewards: RewardWeights::default(),
            eval_every: 0,
            eval_problems: 0,
            eval_samples: 1,
            time_budget_minutes: None,
            fit_schedule_to_budget: false,
            checkpoint_every: 1,
            keep_checkpoints: 1,
            training_problems: Vec::new(),
            sft: SftConfig::default(),
            rft: RftConfig::default(),
            distill: None,
            lora: None,
            activation_checkpointing: false,
        }
    }
}

/// A configuration that cannot be used, naming the field.
#[derive(Debug, thiserror::Error)]
#[error("training config {field}: {message}")]
pub struct ConfigError {
    /// The field (or the file).
    pub field: String,
    /// What is wrong.
    pub message: String,
}

fn bad(field: &str, message: impl Into<String>) -> ConfigError {
    ConfigError {
        field: field.to_owned(),
        message: message.into(),
    }
}

impl TrainConfig {
    /// Reads a YAML (or JSON) file.
    pub fn load(path: &Path) -> Result<TrainConfig, ConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| bad(&path.display().to_string(), e.to_string()))?;
        let config: TrainConfig = serde_yaml::from_str(&text)
            .map_err(|e| bad(&path.display().to_string(), e.to_string()))?;
        config.validate()?;
        Ok(config)
    }

    /// Checks the ranges.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.group_size < 2 {
            return Err(bad("group_size", "must be at least 2"));
        }
        if self.problems_per_step == 0 {
            return Err(bad("problems_per_step", "must be at least 1"));
        }
        if self.steps == 0 {
            return Err(bad("steps", "must be at least 1"));
        }
        if !(self.temperature.is_finite() && self.temperature >= 0.0) {
            return Err(bad(
                "temperature",
                format!(
                    "must be a finite number, at least 0 (0: greedy), not {}",
                    self.temperature
                ),
            ));
        }
        if self.max_tokens == 0
            || self.max_batch == 0
            || self.micro_batch == 0
            || self.micro_batch_tokens == 0
        {
            return Err(bad(
                "max_tokens/max_batch/micro_batch/micro_batch_tokens",
                "must be at least 1",
            ));
        }
        if self.model_calls == Some(0) {
            return Err(bad("model_calls", "must be at least 1"));
        }
        if self.eval_samples == 0 {
            return Err(bad("eval_samples", "must be at least 1"));
        }
        if let Some(m) = self.time_budget_minutes
            && !(m.is_finite() && m > 0.0)
        {
            return Err(bad(
                "time_budget_minutes",
                format!("must be a positive number of minutes, not {m}"),
            ));
        }
        if self.fit_schedule_to_budget {
            self.only_supervised(
                "fit_schedule_to_budget",
                "plans its steps without a time budget's fit",
            )?;
            if self.time_budget_minutes.is_none() {
                return Err(bad(
                    "fit_schedule_to_budget",
                    "needs time_budget_minutes: without a budget there is nothing to fit the schedule to",
                ));
            }
        }
        if self.rft.rounds == 0 || self.rft.samples == 0 {
            return Err(bad("rft.rounds/rft.samples", "must be at least 1"));
        }
        if self.checkpoint_every == 0 {
            return Err(bad("checkpoint_every", "must be at least 1"));
        }
        let mut seen = std::collections::BTreeSet::new();
        for name in &self.training_problems {
            if !seen.insert(name.as_str()) {
                return Err(bad(
                    "training_problems",
                    format!("{name:?} is listed twice"),
                ));
            }
        }
        if let Some(d) = &self.distill {
            if matches!(self.algorithm, Algorithm::Sft | Algorithm::Rft) {
                return Err(bad(
                    "distill",
                    format!(
                        "algorithm {:?} samples no rollouts for a teacher to score: distill goes with agentic, outcome, process or hindsight",
                        self.algorithm
                    ),
                ));
            }
            d.validate()?;
        }
        if let Some(l) = &self.lora {
            self.only_supervised(
                "lora",
                "does not train LoRA adapters yet (its sampler and reference copy the model's own variables)",
            )?;
            l.validate().map_err(|e| bad("lora", e.to_string()))?;
        }
        self.optim(1)
            .validate()
            .map_err(|e| bad("lr/schedule", e.to_string()))?;
        Ok(())
    }

    /// The self-distillation the run trains with: the `distill` block, or its defaults
    /// under `algorithm: hindsight`; `None` without either.
    pub fn distillation(&self) -> Option<DistillConfig> {
        match (&self.distill, self.algorithm) {
            (Some(d), _) => Some(d.clone()),
            (None, Algorithm::Hindsight) => Some(DistillConfig::default()),
            (None, _) => None,
        }
    }

    /// Refuses `field`, which only `sft` and `rft` read, under another algorithm: the
    /// error says why that algorithm cannot (`why`) and what the field goes with.
    fn only_supervised(&self, field: &str, why: &str) -> Result<(), ConfigError> {
        if matches!(self.algorithm, Algorithm::Sft | Algorithm::Rft) {
            return Ok(());
        }
        Err(bad(
            field,
            format!(
                "algorithm {:?} {why}: {field} goes with sft or rft",
                self.algorithm
            ),
        ))
    }

    /// The optimizer's settings for a run of about `updates` optimizer updates.
    pub fn optim(&self, updates: u64) -> OptimConfig {
        OptimConfig {
            lr: self.lr,
            weight_decay: self.weight_decay,
            warmup_steps: self.warmup_steps,
            total_steps: updates.max(self.warmup_steps + 1),
            schedule: self.schedule,
            min_lr_ratio: self.min_lr_ratio,
            max_grad_norm: self.max_grad_norm,
            ..OptimConfig::default()
        }
    }

    /// The step's settings.
    pub fn step(&self) -> StepConfig {
        StepConfig {
            loss: LossConfig {
                clip_low: self.clip_low,
                clip_high: self.clip_high,
                ratio: self.ratio,
                kl_beta: self.kl_beta,
                tis_cap: self.tis_cap,
            },
            distill_weight: self.distillation().map_or(0.0, |d| d.weight),
            aggregation: self.aggregation,
            micro_batch: self.micro_batch,
            micro_batch_tokens: self.micro_batch_tokens,
            ppo_epochs: self.ppo_epochs,
        }
    }

    /// The credit settings for a horizon of `horizon` turns.
    pub fn credit(&self, horizon: usize) -> CreditConfig {
        CreditConfig {
            horizon,
            scale: self.advantage_scale,
            eps: 1e-6,
            staleness_cap: self.staleness_cap,
        }
    }

    /// The update schedule's settings (`grpo::schedule`) for a horizon of `horizon`
    /// turns; an error for `sft` and `rft`, which schedule no GRPO updates.
    pub fn schedule(&self, horizon: usize) -> Result<Settings, ConfigError> {
        let rule = match self.algorithm {
            Algorithm::Agentic => Rule::Agentic,
            Algorithm::Outcome | Algorithm::Hindsight => Rule::Outcome(self.outcome_advantage()),
            Algorithm::Process => Rule::Process,
            Algorithm::Sft => {
                return Err(bad(
                    "algorithm",
                    "sft is the supervised warm start: it has no rollouts to schedule GRPO updates for",
                ));
            }
            Algorithm::Rft => {
                return Err(bad(
                    "algorithm",
                    "rft trains on accepted programs with the warm start's loss: it schedules no GRPO updates",
                ));
            }
        };
        // With a teacher, a group whose rewards do not vary still has the teacher's
        // per-token signal: its update is not skipped.
        Ok(Settings {
            rule,
            credit: self.credit(horizon),
            drop_uniform: self.drop_uniform && self.distillation().is_none(),
        })
    }

    /// Whether the time budget is spent after `elapsed` of wall time.
    pub fn budget_spent(&self, elapsed: std::time::Duration) -> bool {
        self.time_budget_minutes
            .is_some_and(|m| elapsed.as_secs_f64() >= m * 60.0)
    }

    /// Whether `other` may resume a run started with `self`: every field equal but the
    /// time budget (which counts per invocation).
    pub fn resumable_with(&self, other: &TrainConfig) -> bool {
        let without_budget = |c: &TrainConfig| TrainConfig {
            time_budget_minutes: None,
            ..c.clone()
        };
        without_budget(self) == without_budget(other)
    }

    /// Outcome GRPO's advantage settings: leave-one-out over the group's final rewards,
    /// scaled as `advantage_scale` says.
    pub fn outcome_advantage(&self) -> AdvantageConfig {
        AdvantageConfig {
            baseline: Baseline::LeaveOneOut,
            scale: match self.advantage_scale {
                Scale::None => crate::grpo::advantage::Scale::None,
                Scale::GroupStd => crate::grpo::advantage::Scale::GroupStd,
            },
            eps: 1e-6,
        }
    }

    /// The optimizer updates a training step is expected to make with a horizon of
    /// `horizon` turns (the learning-rate schedule's length is `steps` times this):
    /// agentic, a provisional update and a correction per turn and group; the others, one
    /// update per group.
    pub fn updates_per_step(&self, horizon: usize) -> usize {
        let per_group = match self.algorithm {
            Algorithm::Agentic => 2 * horizon,
            Algorithm::Outcome
            | Algorithm::Process
            | Algorithm::Hindsight
            | Algorithm::Sft
            | Algorithm::Rft => 1,
        };
        per_group * self.problems_per_step
    }

    /// Whether the final reward gives partial credit.
    pub fn per_test(&self) -> bool {
        self.rewards.final_reward == FinalReward::PerTest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The update schedule is for the GRPO algorithms only: sft is refused, never
    /// scheduled as if it were one of them.
    #[test]
    fn sft_has_no_update_schedule() {
        let config = |algorithm| TrainConfig {
            algorithm,
            ..TrainConfig::default()
        };
        let err = config(Algorithm::Sft).schedule(4).unwrap_err();
        assert!(
            err.to_string().contains("sft is the supervised warm start"),
            "{err}"
        );
        let process = config(Algorithm::Process).schedule(4).expect("process");
        assert_eq!((process.rule, process.credit.horizon), (Rule::Process, 4));
    }

    #[test]
    fn a_partial_file_keeps_the_defaults_and_unknown_fields_are_named() {
        let c: TrainConfig =
            serde_yaml::from_str("algorithm: outcome\ngroup_size: 8\n").expect("parses");
        assert_eq!(c.algorithm, Algorithm::Outcome);
        assert_eq!(c.group_size, 8);
        assert_eq!(c.steps, TrainConfig::default().steps);
        let err = serde_yaml::from_str::<TrainConfig>("grup_size: 8\n").expect_err("unknown");
        assert!(err.to_string().contains("grup_size"), "{err}");
        let c = TrainConfig {
            group_size: 1,
            ..TrainConfig::default()
        };
        assert!(
            c.validate()
                .expect_err("G=1")
                .to_string()
                .contains("group_size")
        );
    }

    /// A sampling temperature below 0 or not a number is named; 0 (greedy) is valid.
    #[test]
    fn the_temperature_is_a_finite_number_at_least_zero() {
        let with = |temperature| TrainConfig {
            temperature,
            ..TrainConfig::default()
        };
        with(0.0).validate().expect("greedy");
        with(0.2).validate().expect("low");
        for bad in [-0.1, f32::NAN, f32::INFINITY] {
            let err = with(bad).validate().expect_err("refused").to_string();
            assert!(err.contains("temperature"), "{bad}: {err}");
        }
    }

    #[test]
    fn the_distill_block_names_an_unknown_option_and_hindsight_is_outcome_grpo_with_it() {
        let err = serde_yaml::from_str::<TrainConfig>("distill:\n  wieght: 0.5\n")
            .expect_err("unknown")
            .to_string();
        assert!(err.contains("wieght"), "{err}");
        let err = serde_yaml::from_str::<TrainConfig>("distill:\n  context: [hint]\n")
            .expect_err("unknown part")
            .to_string();
        assert!(err.contains("hint"), "{err}");
        // Any GRPO algorithm may carry it.
        let c: TrainConfig = serde_yaml::from_str(
            "algorithm: agentic\ndistill:\n  weight: 0.25\n  context: [compile_error, reference]\n  teacher: ema\n",
        )
        .expect("parses");
        c.validate().expect("valid");
        let d = c.distillation().expect("carried");
        assert_eq!((d.weight, d.teacher), (0.25, TeacherKind::Ema));
        assert!(d.has(ContextPart::Reference) && !d.has(ContextPart::Verdict));
        assert_eq!(c.step().distill_weight, 0.25);
        assert_eq!(c.schedule(4).expect("agentic").rule, Rule::Agentic);
        // Hindsight: outcome GRPO, the block's defaults, and a uniform group still
        // updates (the teacher's signal does not need the rewards to vary).
        let h: TrainConfig = serde_yaml::from_str("algorithm: hindsight\n").expect("parses");
        h.validate().expect("valid");
        assert_eq!(h.distillation(), Some(DistillConfig::default()));
        let s = h.schedule(4).expect("hindsight");
        assert_eq!(s.rule, Rule::Outcome(h.outcome_advantage()));
        assert!(!s.drop_uniform);
        assert_eq!(h.updates_per_step(4), h.problems_per_step);
        let outcome = TrainConfig {
            algorithm: Algorithm::Outcome,
            ..TrainConfig::default()
        };
        assert_eq!(outcome.distillation(), None);
        assert!(outcome.schedule(4).expect("outcome").drop_uniform);
        assert_eq!(outcome.step().distill_weight, 0.0);
        // Refusals name the option.
        for (text, name) in [
            ("algorithm: sft\ndistill: {}\n", "distill"),
            ("algorithm: rft\ndistill: {}\n", "distill"),
            ("distill:\n  weight: 0\n", "distill.weight"),
            ("distill:\n  top_k: 20\n", "distill.top_k"),
            ("distill:\n  ema_decay: 1.0\n", "distill.ema_decay"),
            (
                "distill:\n  context: [verdict, verdict]\n",
                "distill.context",
            ),
        ] {
            let c: TrainConfig = serde_yaml::from_str(text).expect(text);
            let err = c.validate().expect_err(text).to_string();
            assert!(
                err.contains(&format!("training config {name}:")),
                "{text}: {err}"
            );
        }
    }

    #[test]
    fn the_ci_hindsight_stage_is_a_valid_hindsight_configuration() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ci/hindsight.yaml");
        let c = TrainConfig::load(&path).expect("ci/hindsight.yaml");
        assert_eq!(c.algorithm, Algorithm::Hindsight);
        let d = c.distillation().expect("a distill block");
        assert!(d.has(ContextPart::Reference) && d.has(ContextPart::FailingSample));
    }

    #[test]
    fn every_ci_stage_is_a_valid_configuration_and_the_lora_ones_carry_adapters() {
        let ci = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ci");
        for (file, algorithm, lora) in [
            ("warmstart.yaml", Algorithm::Sft, false),
            ("warmstart-lora.yaml", Algorithm::Sft, true),
            ("rft.yaml", Algorithm::Rft, false),
            ("rft-lora.yaml", Algorithm::Rft, true),
            ("train.yaml", Algorithm::Agentic, false),
            ("agentic.yaml", Algorithm::Agentic, false),
            ("agentic-debug.yaml", Algorithm::Agentic, false),
            ("outcome.yaml", Algorithm::Outcome, false),
            ("hindsight.yaml", Algorithm::Hindsight, false),
        ] {
            let c = TrainConfig::load(&ci.join(file)).expect(file);
            assert_eq!(c.algorithm, algorithm, "{file}");
            assert_eq!(c.lora.is_some(), lora, "{file}");
        }
        // A LoRA stage differs from its full fine-tuning twin in the adapters and the rate.
        let full = TrainConfig::load(&ci.join("warmstart.yaml")).expect("warmstart");
        let lora = TrainConfig::load(&ci.join("warmstart-lora.yaml")).expect("lora");
        assert_eq!(
            (lora.temperature, lora.max_tokens),
            (full.temperature, full.max_tokens)
        );
        assert_eq!(lora.pipeline, full.pipeline);
        assert_eq!(lora.time_budget_minutes, full.time_budget_minutes);
        assert!(lora.lr > full.lr);
        // The comparison's two Agentic GRPO rows differ in the pipeline alone.
        let one = TrainConfig::load(&ci.join("agentic.yaml")).expect("agentic");
        let debug = TrainConfig::load(&ci.join("agentic-debug.yaml")).expect("agentic-debug");
        assert_ne!(one.pipeline, debug.pipeline);
        assert_eq!(
            TrainConfig {
                pipeline: debug.pipeline.clone(),
                ..one.clone()
            },
            debug
        );
        // The outcome and hindsight rows are the one-call row with another algorithm, and
        // hindsight adds the distill block.
        let outcome = TrainConfig::load(&ci.join("outcome.yaml")).expect("outcome");
        let hindsight = TrainConfig::load(&ci.join("hindsight.yaml")).expect("hindsight");
        assert!(hindsight.distill.is_some() && outcome.distill.is_none());
        for row in [&outcome, &hindsight] {
            let same = TrainConfig {
                algorithm: row.algorithm,
                distill: row.distill.clone(),
                ..one.clone()
            };
            assert_eq!(&same, row, "{:?}", row.algorithm);
        }
    }

    #[test]
    fn training_problems_default_to_all_and_a_repeated_name_is_named() {
        assert!(TrainConfig::default().training_problems.is_empty());
        let c: TrainConfig =
            serde_yaml::from_str("training_problems: [listsum, uppercase, listsum]\n")
                .expect("parses");
        let err = c.validate().expect_err("repeated").to_string();
        assert!(
            err.contains("training_problems") && err.contains("\"listsum\" is listed twice"),
            "{err}"
        );
    }

    #[test]
    fn the_schedule_of_updates_and_the_outcome_advantage_follow_the_algorithm() {
        let c = TrainConfig {
            problems_per_step: 3,
            ..TrainConfig::default()
        };
        assert_eq!(c.algorithm, Algorithm::Agentic);
        assert_eq!(c.updates_per_step(4), 3 * 2 * 4);
        for algorithm in [Algorithm::Outcome, Algorithm::Process] {
            assert_eq!(
                TrainConfig {
                    algorithm,
                    ..c.clone()
                }
                .updates_per_step(4),
                3
            );
        }
        let a = c.outcome_advantage();
        assert_eq!(a.baseline, Baseline::LeaveOneOut);
        assert_eq!(a.scale, crate::grpo::advantage::Scale::None);
        let scaled = TrainConfig {
            advantage_scale: Scale::GroupStd,
            ..c
        };
        assert_eq!(
            scaled.outcome_advantage().scale,
            crate::grpo::advantage::Scale::GroupStd
        );
    }

    #[test]
    fn fitting_the_schedule_needs_a_budget_and_a_supervised_algorithm() {
        let parse = |yaml: &str| serde_yaml::from_str::<TrainConfig>(yaml).expect("parses");
        let ok = parse("algorithm: sft\ntime_budget_minutes: 25\nfit_schedule_to_budget: true\n");
        assert!(ok.fit_schedule_to_budget);
        assert!(ok.validate().is_ok());
        let rft = parse("algorithm: rft\ntime_budget_minutes: 15\nfit_schedule_to_budget: true\n");
        assert!(rft.validate().is_ok());
        let no_budget = parse("algorithm: sft\nfit_schedule_to_budget: true\n")
            .validate()
            .expect_err("no budget to fit to")
            .to_string();
        assert!(no_budget.contains("fit_schedule_to_budget"), "{no_budget}");
        assert!(no_budget.contains("time_budget_minutes"), "{no_budget}");
        let grpo =
            parse("algorithm: outcome\ntime_budget_minutes: 5\nfit_schedule_to_budget: true\n")
                .validate()
                .expect_err("GRPO does not fit its schedule")
                .to_string();
        assert!(grpo.contains("fit_schedule_to_budget"), "{grpo}");
        assert!(!parse("algorithm: sft\n").fit_schedule_to_budget);
    }

    #[test]
    fn the_time_budget_is_optional_positive_and_spent_at_its_minutes() {
        let c: TrainConfig = serde_yaml::from_str("time_budget_minutes: 1.5\n").expect("parses");
        assert_eq!(c.time_budget_minutes, Some(1.5));
        assert!(c.validate().is_ok());
        assert!(!c.budget_spent(std::time::Duration::from_secs(89)));
        assert!(c.budget_spent(std::time::Duration::from_secs(90)));
        let none = TrainConfig::default();
        assert_eq!(none.time_budget_minutes, None);
        assert!(!none.budget_spent(std::time::Duration::from_secs(1_000_000)));
        for bad in ["0", "-2", ".nan"] {
            let c: TrainConfig =
                serde_yaml::from_str(&format!("time_budget_minutes: {bad}\n")).expect("parses");
            let err = c.validate().expect_err(bad).to_string();
            assert!(err.contains("time_budget_minutes"), "{bad}: {err}");
        }
        // A resumed run may change its budget, nothing else.
        assert!(none.resumable_with(&c));
        let other = TrainConfig {
            lr: 1.0,
            ..c.clone()
        };
        assert!(!none.resumable_with(&other));
    }

    #[test]
    fn a_config_saved_before_the_newer_fields_resumes_with_their_defaults() {
        let mut saved = serde_json::to_value(TrainConfig::default()).expect("json");
        let map = saved.as_object_mut().expect("an object");
        map.remove("time_budget_minutes");
        map.remove("eval_samples");
        let old: TrainConfig = serde_json::from_value(saved).expect("defaults fill in");
        assert!(old.resumable_with(&TrainConfig::default()));
    }
}
