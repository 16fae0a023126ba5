//! GRPO and Agentic GRPO: the pieces of the trainer that do not need rollouts.
//!
//! - [`advantage`]: group-relative advantages of outcome rewards (GRPO's mean and std,
//!   Dr. GRPO's unscaled difference, a leave-one-out baseline) and DAPO's dynamic sampling.
//! - [`loss`]: the clipped importance-ratio surrogate per token or per sequence (GSPO),
//!   symmetric or clip-higher (DAPO), truncated importance sampling against the behaviour
//!   policy, the k3 KL to a frozen reference, and the three aggregations (token mean over
//!   the optimizer step, sequence mean, Dr. GRPO's constant length).
//! - [`credit`]: Agentic GRPO's turn-level credit assignment (provisional advantages at
//!   each turn, corrections when the final verdict arrives, the staleness cap), pure Rust;
//!   its module documentation states the objective step by step.
//! - [`distill`]: hindsight self-distillation's per-token reverse KL to a teacher on the
//!   student's tokens (the sampled-token estimator, as a per-token advantage), the
//!   teacher's scoring and its EMA.
//! - [`reward`]: rewards from the agent's verification ladder (stage tiers with weights as
//!   levels, the final verdict all-or-nothing or per test, a judge error as no reward).
//! - [`logprob`]: teacher-forced log-probabilities of sequences under the policy.
//! - [`step`]: one optimizer step over stored rollouts (micro-batches aggregated with the
//!   step's global counts, the reference model, PPO epochs against a fixed proximal policy).
//! - [`schedule`]: when each update happens, on which turns, with which advantage and
//!   normaliser, for every algorithm: one pure function over a group's events, called by
//!   `trainer train` and the toy comparison alike.
//!
//! Multi-turn rule kept throughout: observation tokens (judge feedback, statements) have
//! mask 0, so they carry no loss, but they never cut a return: returns are over turns, and
//! a token's advantage is its turn's.

pub mod advantage;
pub mod credit;
pub mod distill;
pub mod logprob;
pub mod loss;
pub mod reward;
pub mod schedule;
pub mod step;

/// A malformed input or setting of the GRPO computations, naming what and where.
#[derive(Debug, thiserror::Error)]
pub enum GrpoError {
    /// A group has fewer than two episodes, so no episode has anything to compare with.
    #[error("a group needs at least 2 episodes, it has {size}")]
    GroupTooSmall {
        /// Its size.
        size: usize,
    },
    /// A reward or advantage is NaN or infinite.
    #[error("{what} {index} is not finite ({value})")]
    NotFinite {
        /// What kind of value.
        what: &'static str,
        /// Its index.
        index: usize,
        /// The value.
        value: f64,
    },
    /// A tensor has the wrong shape.
    #[error("{name} has shape {got:?}, {want:?} expected")]
    Shape {
        /// The input.
        name: &'static str,
        /// Its shape.
        got: Vec<i64>,
        /// The shape expected (-1: any size).
        want: Vec<i64>,
    },
    /// An input the settings need is absent.
    #[error("{what} is needed because {why}")]
    Missing {
        /// The input.
        what: &'static str,
        /// The setting that needs it.
        why: &'static str,
    },
    /// A setting or input is out of range.
    #[error("{name}: {message}")]
    Setting {
        /// The setting.
        name: &'static str,
        /// What is wrong.
        message: String,
    },
}
