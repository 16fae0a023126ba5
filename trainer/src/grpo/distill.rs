//! Hindsight self-distillation's objective: the per-token reverse KL from the student to
//! a teacher, on the student's own sampled tokens, added to the GRPO term.
//!
//! The teacher is the same network given privileged context (the judge's feedback on the
//! very program the student wrote, the reference solution; `crate::train::hindsight`
//! builds its prompt). It reads the student's reply after its own, longer prompt, so
//! its log-probability of each reply token is taken at the position where that token
//! follows the teacher's prompt ([`align`]) and stored beside the row
//! (`step::Rollout::teacher_logp`): the teacher is frozen (or an EMA that moves only
//! between updates), so one scoring pass serves every epoch of the update.
//!
//! **The estimator: the sampled-token form.** For a reply token `y_t` drawn from the
//! student, `KL(pi_s || pi_t) = E_{y ~ pi_s}[log pi_s(y) - log pi_t(y)]`, and its gradient
//! is `E[(log pi_s(y) - log pi_t(y)) grad log pi_s(y)]` (the score-function term; the
//! other, `E[grad log pi_s]`, is zero). So `-(log pi_s(y_t) - log pi_t(y_t))`, detached,
//! is a per-token advantage, and adding `weight` times it to the GRPO advantage of the
//! same token makes the clipped surrogate's gradient (on policy, ratio 1) that of
//! `GRPO + weight * reverse KL`: [`advantage`]. Why this form rather than the KL over the
//! union of both models' top-k with a tail bucket:
//! - it is the unbiased single-sample estimate of the reverse KL's gradient on exactly
//!   the tokens the student sampled (on-policy distillation, Thinking Machines 2025),
//!   while a top-k union with one tail bucket is biased by how the tail is lumped;
//! - it needs one number per token from the teacher, the sampled token's log-probability,
//!   which any scorer gives (a remote `/v1/completions` with `echo: true` returns it for
//!   every prompt token even with `logprobs: 0`), where the top-k form needs both models'
//!   full distributions at every reply position (`[tokens, 49152]` floats for SmolLM2,
//!   twice, on a 2-core machine);
//! - it goes through the clipped surrogate, the importance weights (TIS) and the
//!   aggregation that the GRPO term already uses, so the two terms are normalised alike
//!   and nothing else in the update changes.
//!
//! Its cost is variance: one sample per token. With the teacher's context equal to the
//! student's and the teacher's weights the student's, `log pi_s = log pi_t` on every
//! token and the term is exactly zero.

use std::collections::HashMap;

use tch::{Kind, Tensor};

use super::GrpoError;
use super::logprob::sequence_logprobs;
use crate::model::Model;

/// The distillation advantage of each position, `weight * (teacher - sg(logp))` where
/// `on` is 1 (tokens with a teacher log-probability), 0 elsewhere; with the sum of the
/// log-ratios `logp - teacher` over those tokens and their count (the reverse KL's
/// estimate is their quotient). All tensors `[batch, positions]`.
pub fn advantage(logp: &Tensor, teacher: &Tensor, on: &Tensor, weight: f64) -> (Tensor, f64, f64) {
    let kind = logp.kind();
    let on = on.to_kind(kind);
    let off = on.le(0.0);
    let student = logp.detach().masked_fill(&off, 0.0);
    let teacher = teacher.to_kind(kind).masked_fill(&off, 0.0);
    let log_ratio = (&student - &teacher) * &on;
    let sum = log_ratio.sum(Kind::Double).double_value(&[]);
    let count = on.sum(Kind::Double).double_value(&[]);
    (-(log_ratio * weight), sum, count)
}

/// The teacher's log-probabilities laid out on the student's row: `student_len`
/// entries, 0 on the student's prompt, and on reply token `j` (student position
/// `student_prompt + j`) the teacher's log-probability of that token after its own
/// prompt of `teacher_prompt` tokens, read from `teacher_row` (`sequence_logprobs`'
/// layout: entry `k - 1` scores token `k`).
pub fn align(
    student_prompt: usize,
    student_len: usize,
    teacher_prompt: usize,
    teacher_row: &[f64],
) -> Vec<f64> {
    let mut out = vec![0.0; student_len];
    for (j, slot) in out.iter_mut().enumerate().skip(student_prompt) {
        let k = teacher_prompt + (j - student_prompt);
        if let Some(v) = k.checked_sub(1).and_then(|i| teacher_row.get(i)) {
            *slot = *v;
        }
    }
    out
}

/// The teacher's log-probability of every token of each sequence (`[len - 1]` per row,
/// entry `k - 1` scoring token `k`), without gradient, in one forward pass (the caller
/// sizes the batch).
pub fn score(teacher: &Model, seqs: &[Vec<i64>]) -> Result<Vec<Vec<f64>>, GrpoError> {
    let logp = tch::no_grad(|| sequence_logprobs(teacher, seqs))?
        .to_kind(Kind::Double)
        .to_device(tch::Device::Cpu);
    seqs.iter()
        .enumerate()
        .map(|(i, s)| {
            let n = s.len().saturating_sub(1) as i64;
            Vec::<f64>::try_from(logp.get(i as i64).narrow(0, 0, n)).map_err(|e| {
                GrpoError::Setting {
                    name: "teacher",
                    message: e.to_string(),
                }
            })
        })
        .collect()
}

/// One step of the teacher's moving average: every variable becomes
/// `decay * teacher + (1 - decay) * student`. The two models must have the same
/// variables (the same configuration).
pub fn ema(teacher: &Model, student: &Model, decay: f64) -> Result<(), GrpoError> {
    let students: HashMap<String, Tensor> = student.vs.variables().into_iter().collect();
    tch::no_grad(|| {
        for (name, mut t) in teacher.vs.variables() {
            let s = students.get(&name).ok_or_else(|| GrpoError::Setting {
                name: "teacher",
                message: format!("the EMA teacher has {name}, the student does not"),
            })?;
            let mixed = t.to_kind(Kind::Float) * decay + s.to_kind(Kind::Float) * (1.0 - decay);
            t.copy_(&mixed.to_kind(t.kind()));
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_teacher_row_is_read_where_each_reply_token_follows_its_prompt() {
        // Student: prompt of 3, reply of 2 (positions 3, 4). Teacher: prompt of 5, so its
        // reply tokens are at 5 and 6, scored by entries 4 and 5.
        let teacher_row = [0.0, 0.0, 0.0, 0.0, -1.5, -2.5];
        assert_eq!(
            align(3, 5, 5, &teacher_row),
            vec![0.0, 0.0, 0.0, -1.5, -2.5]
        );
        // A short row leaves the missing entries at 0 rather than reading past it.
        assert_eq!(
            align(3, 5, 5, &teacher_row[..5]),
            vec![0.0, 0.0, 0.0, -1.5, 0.0]
        );
    }

    #[test]
    fn the_advantage_is_the_weighted_negative_log_ratio_on_distilled_tokens_only() {
        let logp = Tensor::from_slice(&[-1.0f32, -2.0, -3.0]).view([1, 3]);
        let teacher = Tensor::from_slice(&[-0.5f32, -4.0, f32::NEG_INFINITY]).view([1, 3]);
        let on = Tensor::from_slice(&[1.0f32, 1.0, 0.0]).view([1, 3]);
        let (adv, sum, count) = advantage(&logp, &teacher, &on, 2.0);
        let adv: Vec<f32> = adv.view([-1]).try_into().expect("values");
        assert_eq!(adv, vec![1.0, -4.0, 0.0]);
        assert_eq!((sum, count), (-0.5 + 2.0, 2.0));
        // The same numbers: no signal.
        let (adv, sum, _) = advantage(&logp, &logp, &on, 2.0);
        assert_eq!(adv.abs().sum(Kind::Double).double_value(&[]), 0.0);
        assert_eq!(sum, 0.0);
    }

    #[test]
    fn the_moving_average_moves_the_teacher_toward_the_student_by_one_minus_the_decay() {
        let config: crate::config::Config = serde_json::from_value(serde_json::json!({
            "model_type": "llama", "vocab_size": 12, "hidden_size": 8, "intermediate_size": 16,
            "num_hidden_layers": 1, "num_attention_heads": 2, "num_key_value_heads": 1,
            "rms_norm_eps": 1e-6, "rope_theta": 10000.0, "max_position_embeddings": 16,
            "tie_word_embeddings": true
        }))
        .expect("config");
        tch::manual_seed(1);
        let teacher = Model::new(config.clone(), tch::Device::Cpu);
        let student = Model::new(config, tch::Device::Cpu);
        let before: HashMap<String, Tensor> = teacher
            .vs
            .variables()
            .into_iter()
            .map(|(n, t)| (n, t.copy()))
            .collect();
        ema(&teacher, &student, 0.75).expect("ema");
        let students: HashMap<String, Tensor> = student.vs.variables().into_iter().collect();
        let mut moved = 0;
        for (name, t) in teacher.vs.variables() {
            let want = &before[&name] * 0.75 + &students[&name] * 0.25;
            let diff = (&t - want).abs().max().double_value(&[]);
            assert!(diff < 1e-6, "{name}: {diff}");
            moved += usize::from((&t - &before[&name]).abs().max().double_value(&[]) > 0.0);
        }
        assert!(moved > 0);
    }
}
