//! A toy two-stage task with a tiny policy, small enough to train in seconds on a CPU:
//! the ground on which `tests/grpo_toy.rs` checks that every GRPO option improves, and on
//! which [`compare`] measures outcome-only, process-reward and Agentic GRPO against each
//! other.
//!
//! The task: the prompt is `BOS P_k` ([`PROBLEMS`] problems). Turn 1: the model answers one
//! token; the stage is reached when it is `A_k` ([`first`], stage level [`STAGE_LEVEL`]).
//! The environment checks it and replies [`OK`] or [`BAD`] (an observation token, mask 0).
//! Turn 2: one more token; the final verdict is 1 when turn 1 was right and turn 2 is
//! `A_{(k+1) mod 4}` ([`second`]). The task's reward is stage level plus verdict, and the
//! [`score`] is its exact expectation `0.5 p1 + p1 p2` averaged over the problems, from the
//! model's probabilities (no sampling noise in the measure; at most [`MAX_SCORE`]).
//!
//! Sampling uses libtorch's global generator: a caller that wants a reproducible run
//! seeds it (`tch::manual_seed`) and keeps other torch work off the thread meanwhile.

pub mod compare;

use tch::{Device, Kind, Tensor};

use crate::config::Config;
use crate::grpo::step::Rollout;
use crate::model::{Cache, Model, causal_mask};

/// The first token of every prompt.
pub const BOS: i64 = 1;
/// The environment's reply when turn 1 reached the stage.
pub const OK: i64 = 10;
/// The environment's reply when it did not.
pub const BAD: i64 = 11;
/// Problems (prompts) of the task.
pub const PROBLEMS: i64 = 4;
/// The stage's reward level.
pub const STAGE_LEVEL: f64 = 0.5;
/// The largest expected reward: the stage level plus a verdict of 1.
pub const MAX_SCORE: f64 = STAGE_LEVEL + 1.0;
/// Turns per episode.
pub const TURNS: usize = 2;

/// The prompt token of problem `k`.
pub fn prompt(k: i64) -> i64 {
    2 + k
}

/// The right turn-1 answer of problem `k`.
pub fn first(k: i64) -> i64 {
    6 + k
}

/// The right turn-2 answer of problem `k`.
pub fn second(k: i64) -> i64 {
    6 + (k + 1) % PROBLEMS
}

/// A one-layer Llama of vocabulary 12, its weights drawn from libtorch's generator seeded
/// with `seed`.
pub fn tiny_model(seed: i64) -> Model {
    tch::manual_seed(seed);
    let config: Config = serde_json::from_value(serde_json::json!({
        "model_type": "llama", "vocab_size": 12, "hidden_size": 32, "intermediate_size": 64,
        "num_hidden_layers": 1, "num_attention_heads": 4, "num_key_value_heads": 2,
        "rms_norm_eps": 1e-6, "rope_theta": 10000.0, "max_position_embeddings": 16,
        "tie_word_embeddings": false
    }))
    .expect("invariant: the tiny model's configuration is valid");
    Model::new(config, Device::Cpu)
}

/// Log-probabilities `[batch, vocab]` of the next token after each prefix (all of one
/// length).
pub fn next_logprobs(model: &Model, prefixes: &[Vec<i64>]) -> Tensor {
    tch::no_grad(|| {
        let flat: Vec<i64> = prefixes.iter().flatten().copied().collect();
        let (b, t) = (prefixes.len() as i64, prefixes[0].len() as i64);
        let ids = Tensor::from_slice(&flat).view([b, t]);
        let positions = Tensor::arange(t, (Kind::Int64, Device::Cpu))
            .view([1, t])
            .expand([b, t], true);
        let mask = causal_mask(&Tensor::ones([b, t], (Kind::Int64, Device::Cpu)), t);
        model
            .forward(&ids, &positions, &mask, &mut Cache::default())
            .select(1, t - 1)
            .log_softmax(-1, Kind::Float)
    })
}

/// One sampled token per prefix and its log-probability (libtorch's generator).
pub fn sample(model: &Model, prefixes: &[Vec<i64>]) -> Vec<(i64, f64)> {
    let logp = next_logprobs(model, prefixes);
    let tokens = logp.exp().multinomial(1, true).view([-1]);
    let chosen = logp.gather(1, &tokens.view([-1, 1]), false).view([-1]);
    let tokens: Vec<i64> = Vec::try_from(tokens).expect("invariant: a 1-d int64 tensor");
    let chosen: Vec<f64> =
        Vec::try_from(chosen.to_kind(Kind::Double)).expect("invariant: a 1-d double tensor");
    tokens.into_iter().zip(chosen).collect()
}

/// The exact expected reward of the policy, averaged over the problems.
pub fn score(model: &Model) -> f64 {
    let p1: Vec<Vec<i64>> = (0..PROBLEMS).map(|k| vec![BOS, prompt(k)]).collect();
    let p2: Vec<Vec<i64>> = (0..PROBLEMS)
        .map(|k| vec![BOS, prompt(k), first(k), OK])
        .collect();
    let l1 = next_logprobs(model, &p1).exp();
    let l2 = next_logprobs(model, &p2).exp();
    (0..PROBLEMS)
        .map(|k| {
            let a = l1.double_value(&[k, first(k)]);
            let b = l2.double_value(&[k, second(k)]);
            STAGE_LEVEL * a + a * b
        })
        .sum::<f64>()
        / PROBLEMS as f64
}

/// One played episode: the problem and each turn's token with its behaviour logprob.
#[derive(Debug, Clone)]
pub struct Episode {
    /// The problem.
    pub k: i64,
    /// Turn 1's token and logprob.
    pub x: (i64, f64),
    /// Turn 2's token and logprob (`(0, 0.0)` until played).
    pub y: (i64, f64),
}

impl Episode {
    /// The stage level earned by turn 1 (and kept after it).
    pub fn stage(&self) -> f64 {
        if self.x.0 == first(self.k) {
            STAGE_LEVEL
        } else {
            0.0
        }
    }

    /// The final verdict: 1 when both turns are right.
    pub fn verdict(&self) -> f64 {
        if self.x.0 == first(self.k) && self.y.0 == second(self.k) {
            1.0
        } else {
            0.0
        }
    }

    /// The task's reward: stage level plus verdict.
    pub fn reward(&self) -> f64 {
        self.stage() + self.verdict()
    }

    /// The environment's reply to turn 1.
    pub fn obs(&self) -> i64 {
        if self.x.0 == first(self.k) { OK } else { BAD }
    }

    /// The whole episode's tokens.
    pub fn tokens(&self) -> Vec<i64> {
        vec![BOS, prompt(self.k), self.x.0, self.obs(), self.y.0]
    }

    /// The whole episode as one row with one advantage per turn (the observation masked).
    pub fn rollout(&self, a1: f64, a2: f64) -> Rollout {
        Rollout {
            tokens: self.tokens(),
            action: vec![false, false, true, false, true],
            behaviour_logp: vec![0.0, 0.0, self.x.1, 0.0, self.y.1],
            advantage: vec![0.0, 0.0, a1, 0.0, a2],
            teacher_logp: None,
        }
    }

    /// Turn `turn` (from 0) as its own row, the way `trainer train` stores a turn: the
    /// context up to and including the reply, only the reply's token an action.
    pub fn turn_row(&self, turn: usize, advantage: f64) -> Rollout {
        let full = self.rollout(advantage, advantage);
        let end = if turn == 0 { 3 } else { 5 };
        let mut row = Rollout {
            tokens: full.tokens[..end].to_vec(),
            action: full.action[..end].to_vec(),
            behaviour_logp: full.behaviour_logp[..end].to_vec(),
            advantage: full.advantage[..end].to_vec(),
            teacher_logp: None,
        };
        if turn != 0 {
            row.action[2] = false;
            row.advantage[2] = 0.0;
        }
        row
    }
}

/// Turn 1 of `group` episodes of every problem (outer index: problem), sampled by `model`.
pub fn first_turns(model: &Model, group: usize) -> Vec<Vec<Episode>> {
    let starts: Vec<Vec<i64>> = (0..PROBLEMS)
        .flat_map(|k| std::iter::repeat_n(vec![BOS, prompt(k)], group))
        .collect();
    let xs = sample(model, &starts);
    let mut groups: Vec<Vec<Episode>> = vec![Vec::new(); PROBLEMS as usize];
    for (i, x) in xs.into_iter().enumerate() {
        let k = (i / group) as i64;
        groups[k as usize].push(Episode { k, x, y: (0, 0.0) });
    }
    groups
}

/// Turn 2 of every episode, sampled by `model` after each one's observation.
pub fn second_turns(model: &Model, groups: &mut [Vec<Episode>]) {
    let prefixes: Vec<Vec<i64>> = groups
        .iter()
        .flatten()
        .map(|e| vec![BOS, prompt(e.k), e.x.0, e.obs()])
        .collect();
    let ys = sample(model, &prefixes);
    for (e, y) in groups.iter_mut().flatten().zip(ys) {
        e.y = y;
    }
}

/// `group` episodes of every problem, both turns by `model`.
pub fn play(model: &Model, group: usize) -> Vec<Vec<Episode>> {
    let mut groups = first_turns(model, group);
    second_turns(model, &mut groups);
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewards_rows_and_the_exact_score() {
        let right = Episode {
            k: 3,
            x: (first(3), -0.5),
            y: (second(3), -0.25),
        };
        assert_eq!(second(3), first(0));
        assert_eq!(
            (right.stage(), right.verdict(), right.reward()),
            (0.5, 1.0, 1.5)
        );
        assert_eq!(right.obs(), OK);
        let half = Episode {
            y: (first(3), -1.0),
            ..right.clone()
        };
        assert_eq!((half.reward(), half.obs()), (0.5, OK));
        let wrong = Episode {
            x: (first(2), -2.0),
            ..right.clone()
        };
        assert_eq!((wrong.reward(), wrong.obs()), (0.0, BAD));
        let t0 = right.turn_row(0, 2.0);
        assert_eq!(t0.tokens, vec![BOS, prompt(3), first(3)]);
        assert_eq!(t0.action, vec![false, false, true]);
        assert_eq!(t0.advantage, vec![0.0, 0.0, 2.0]);
        let t1 = right.turn_row(1, -1.0);
        assert_eq!(t1.tokens, right.tokens());
        assert_eq!(t1.action, vec![false, false, false, false, true]);
        assert_eq!(t1.advantage, vec![0.0, 0.0, 0.0, 0.0, -1.0]);
        assert_eq!(t1.behaviour_logp[4], -0.25);
        // The score is the mean over problems of 0.5 p1 + p1 p2.
        let model = tiny_model(3);
        let by_hand: f64 = (0..PROBLEMS)
            .map(|k| {
                let l1 = next_logprobs(&model, &[vec![BOS, prompt(k)]]).exp();
                let l2 = next_logprobs(&model, &[vec![BOS, prompt(k), first(k), OK]]).exp();
                let (a, b) = (
                    l1.double_value(&[0, first(k)]),
                    l2.double_value(&[0, second(k)]),
                );
                0.5 * a + a * b
            })
            .sum::<f64>()
            / 4.0;
        let s = score(&model);
        assert!(s > 0.0 && (s - by_hand).abs() < 1e-6, "{s} vs {by_hand}");
        let groups = play(&model, 3);
        assert_eq!(groups.len(), PROBLEMS as usize);
        assert!(groups.iter().enumerate().all(|(k, g)| {
            g.len() == 3
                && g.iter()
                    .all(|e| e.k == k as i64 && e.x.1 < 0.0 && e.y.1 < 0.0)
        }));
    }
}
