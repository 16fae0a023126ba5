//! `trainer train`: GRPO from judge feedback with rollouts through the real agent.
//!
//! - [`config`]: the configuration file (algorithm `agentic | outcome | process |
//!   hindsight`, the `distill` block, G, the
//!   optimizer and its schedule, the loss options, reward weights, budgets).
//! - [`rollout`]: each episode's [`rollout::Hook`], the agent's model (the in-process
//!   [`crate::policy::LocalPolicy`]) and observer at once: every reply becomes a stored
//!   turn (token ids, action mask, behaviour logprobs, policy version) whose reward level
//!   is the verification ladder after it; a judge error takes the episode out of its group.
//! - [`run`]: the loop. Each group's turns and ends go to `grpo::schedule`, which plans
//!   every update (Agentic GRPO: turn `t`'s provisional update as soon as every episode
//!   has played it or stopped, while the episodes wait at the group's gate, and the
//!   corrections when the group is complete; outcome and process GRPO: one update per
//!   group at the end); the loop makes them with `grpo::step::update`. Metrics (`crate::metrics`), checkpoints (`crate::checkpoint`), held-out evaluation,
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
//! - [`rft`]: `algorithm: rft`, rejection sampling: rounds of sampling the training
//!   problems through [`rollout::Rollouts`], keeping the accepted programs, and the warm
//!   start's training (from the starting weights) on every one kept so far.
//! - [`hindsight`]: hindsight self-distillation's teacher (`distill:`, `algorithm:
//!   hindsight`): the judge's feedback on the turn's program and the training problem's
//!   reference solution in a prompt the student never sees, and its scoring of the
//!   student's tokens, which `run` adds to the GRPO update (`crate::grpo::distill`).
//! - [`remote`]: a hindsight teacher at another server (`distill.teacher_url`), scoring
//!   through `/completions` with `echo`, its tokenizer checked against the student's.
//! - [`leak`]: near-duplicates of held-out statements and solutions in training data.
//! - [`report`]: `trainer report`, the before/after comparison of a run with intervals
//!   from [`bootstrap`] (a paired bootstrap over problems) for every measure.

pub mod bootstrap;
pub mod cache;
pub mod config;
pub mod episode;
pub mod eval;
pub mod hindsight;
pub mod leak;
pub mod measure;
pub mod problems;
pub mod remote;
pub mod report;
pub mod rft;
pub mod rollout;
pub mod run;
pub mod sft;

pub use config::{Algorithm, TrainConfig};
pub use run::{RunPaths, StepMetrics, Trainer};
