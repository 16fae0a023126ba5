//! `trainer train`: GRPO from judge feedback with rollouts through the real agent.
//!
//! - [`config`]: the configuration file (algorithm `agentic | outcome | process`, G, the
//!   optimizer and its schedule, the loss options, reward weights, budgets).
//! - [`rollout`]: each episode's [`rollout::Hook`], the agent's model (the in-process
//!   [`crate::policy::LocalPolicy`]) and observer at once: every reply becomes a stored
//!   turn (token ids, action mask, behaviour logprobs, policy version) whose reward level
//!   is the verification ladder after it; a judge error takes the episode out of its group.
//! - [`run`]: the loop. Agentic GRPO: when every episode of a group has finished turn `t`
//!   (or stopped), the provisional update for turn `t` at once (`grpo::credit` +
//!   `grpo::step`) while the episodes wait at the group's gate; the final verdicts'
//!   correction update when the group is complete, stale corrections dropped and counted.
//!   Outcome GRPO: one update per group at the final verdict. Process GRPO: the stage
//!   rewards and the verdict as return-to-go advantages, one update per group at the end.
//!   Metrics (`crate::metrics`), checkpoints (`crate::checkpoint`), held-out evaluation,
//!   a wall-time budget.
//! - [`problems`]: the training and held-out problems of a problem folder, the
//!   configuration's choice among them, and the seeded order the loop visits them in.
//! - [`eval`]: K episodes per problem through the same machinery ([`rollout::Rollouts`]),
//!   no training: the loop's held-out evaluation and `trainer eval`; [`measure`] its
//!   measures and intervals, [`episode`] its per-episode records (resuming), [`cache`]
//!   its key and the cache of finished evaluations.
//! - [`sft`]: `algorithm: sft`, the supervised warm start: the training problems'
//!   reference solutions as replies to the agent's own code request, the loss on the
//!   reply's tokens; and the held-out reference solutions' NLL measure.
//! - [`leak`]: near-duplicates of held-out statements and solutions in training data.
//! - [`report`]: `trainer report`, the before/after comparison of a run with intervals
//!   from [`bootstrap`] (a paired bootstrap over problems) for every measure.

pub mod bootstrap;
pub mod cache;
pub mod config;
pub mod episode;
pub mod eval;
pub mod leak;
pub mod measure;
pub mod problems;
pub mod report;
pub mod rollout;
pub mod run;
pub mod sft;

pub use config::{Algorithm, TrainConfig};
pub use run::{RunPaths, StepMetrics, Trainer};
