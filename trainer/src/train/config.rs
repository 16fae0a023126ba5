//! The training run's configuration file (YAML or JSON; every field optional, defaults
//! below). Each field is documented here and in the README's training section.

use std::path::Path;

use crate::grpo::credit::{CreditConfig, Scale};
use crate::grpo::loss::{Aggregation, LossConfig, RatioLevel};
use crate::grpo::reward::{FinalReward, RewardWeights};
use crate::grpo::step::StepConfig;
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
    /// Rows (turns) per forward pass.
    pub micro_batch: usize,
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
    /// A checkpoint every this many steps (the last step always gets one).
    pub checkpoint_every: u64,
    /// Checkpoints kept in `OUT/checkpoints` (the newest; at least 1).
    pub keep_checkpoints: usize,
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
            ppo_epochs: 1,
            advantage_scale: Scale::None,
            staleness_cap: 4,
            drop_uniform: true,
            rewards: RewardWeights::default(),
            eval_every: 0,
            eval_problems: 0,
            checkpoint_every: 1,
            keep_checkpoints: 1,
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
        if self.max_tokens == 0 || self.max_batch == 0 || self.micro_batch == 0 {
            return Err(bad(
                "max_tokens/max_batch/micro_batch",
                "must be at least 1",
            ));
        }
        if self.model_calls == Some(0) {
            return Err(bad("model_calls", "must be at least 1"));
        }
        if self.checkpoint_every == 0 {
            return Err(bad("checkpoint_every", "must be at least 1"));
        }
        self.optim(1)
            .validate()
            .map_err(|e| bad("lr/schedule", e.to_string()))?;
        Ok(())
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
            aggregation: self.aggregation,
            micro_batch: self.micro_batch,
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

    /// Whether the final reward gives partial credit.
    pub fn per_test(&self) -> bool {
        self.rewards.final_reward == FinalReward::PerTest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
