//! One optimizer step of GRPO over stored rollouts: micro-batches (bounded by rollouts and
//! by padded tokens; gradients accumulate over them), the step's global
//! token and sequence counts, the reference model's log-probabilities, `ppo_epochs` passes
//! against a fixed proximal policy, and the statistics of [`super::loss`] merged.
//!
//! A [`Rollout`] is token-in, token-out: the exact ids the sampler produced, which of them
//! are the model's own (action) tokens, each action token's behaviour log-probability and
//! its advantage. Observation tokens stay in the sequence (the model conditions on them)
//! with mask 0.

use std::ops::Range;

use tch::Tensor;

use super::GrpoError;
use super::distill::advantage;
use super::logprob::{sequence_logprobs, training_logprobs};
use super::loss::{
    Aggregation, LossConfig, LossInputs, LossStats, Normalizer, aggregation_weights, policy_loss,
};
use crate::model::Model;
use crate::optim::{AdamW, StepStats};

/// One trajectory (or one turn's row) to train on.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rollout {
    /// Every token id, prompt and observations included.
    pub tokens: Vec<i64>,
    /// Whether each token is the model's own (it must be false for the first token).
    pub action: Vec<bool>,
    /// The behaviour log-probability of each token (read only where `action`).
    pub behaviour_logp: Vec<f64>,
    /// The advantage of each token (read only where `action`).
    pub advantage: Vec<f64>,
    /// A teacher's log-probability of each token, laid out on this row
    /// (`super::distill::align`; read only where `action`): with a `distill_weight`,
    /// the per-token reverse KL to it joins the advantage (`super::distill`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teacher_logp: Option<Vec<f64>>,
}

impl Rollout {
    /// A row of a fixed batch: `tokens` with its action mask, one advantage for every
    /// action token, and the behaviour log-probabilities read from row `row` of `logp`
    /// (`sequence_logprobs` of the batch, `[rows, len - 1]`: position `k - 1` scores
    /// token `k`).
    pub fn fixed(
        tokens: Vec<i64>,
        action: Vec<bool>,
        advantage: f64,
        logp: &Tensor,
        row: usize,
    ) -> Rollout {
        let mut behaviour_logp = vec![0.0; tokens.len()];
        for (k, b) in behaviour_logp.iter_mut().enumerate().skip(1) {
            *b = logp.double_value(&[row as i64, k as i64 - 1]);
        }
        Rollout {
            advantage: action
                .iter()
                .map(|on| if *on { advantage } else { 0.0 })
                .collect(),
            tokens,
            action,
            behaviour_logp,
            teacher_logp: None,
        }
    }
}

/// Settings of an optimizer step.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StepConfig {
    /// The per-token loss.
    pub loss: LossConfig,
    /// Its aggregation.
    pub aggregation: Aggregation,
    /// Rollouts per forward pass, at most.
    pub micro_batch: usize,
    /// Padded tokens per forward pass (rows x the longest row), at most; a longer row
    /// makes a micro-batch of its own.
    pub micro_batch_tokens: usize,
    /// Updates per batch against the same proximal policy (1: on-policy, ratio 1).
    pub ppo_epochs: usize,
    /// The weight of the reverse KL to the rows' teacher (`super::distill`; 0: none, and
    /// rows' teacher log-probabilities are not read).
    #[serde(default)]
    pub distill_weight: f64,
}

impl Default for StepConfig {
    fn default() -> Self {
        StepConfig {
            loss: LossConfig::default(),
            aggregation: Aggregation::TokenMean,
            micro_batch: 16,
            micro_batch_tokens: 16_384,
            ppo_epochs: 1,
            distill_weight: 0.0,
        }
    }
}

/// Consecutive rollouts grouped into micro-batches of at most `rows` rollouts and at most
/// `tokens` padded positions (rows x the longest of them), each holding at least one.
pub fn micro_batches(rollouts: &[Rollout], rows: usize, tokens: usize) -> Vec<Range<usize>> {
    ranges_by_length(rollouts.iter().map(|r| r.tokens.len()), rows, tokens)
}

/// Consecutive sequences of the given lengths grouped as [`micro_batches`] groups
/// rollouts (the warm start's examples use it too).
pub fn ranges_by_length(
    lengths: impl IntoIterator<Item = usize>,
    rows: usize,
    tokens: usize,
) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut longest = 0;
    let mut n = 0;
    for (i, len) in lengths.into_iter().enumerate() {
        n = i + 1;
        let wider = longest.max(len);
        let count = i - start + 1;
        if count > 1 && (count > rows.max(1) || count * wider > tokens) {
            out.push(start..i);
            start = i;
            longest = len;
        } else {
            longest = wider;
        }
    }
    if start < n {
        out.push(start..n);
    }
    out
}

/// What a step did: the loss, the merged statistics and the optimizer's report of each
/// update.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct StepReport {
    /// The loss of the last pass.
    pub loss: f64,
    /// Statistics of the last pass over every micro-batch (token-weighted means, extremes).
    pub stats: LossStats,
    /// One per update (`ppo_epochs` of them).
    pub updates: Vec<StepStats>,
}

fn check(rollouts: &[Rollout]) -> Result<(), GrpoError> {
    if rollouts.is_empty() {
        return Err(GrpoError::Setting {
            name: "rollouts",
            message: "no rollouts".to_owned(),
        });
    }
    for (i, r) in rollouts.iter().enumerate() {
        let n = r.tokens.len();
        if r.action.len() != n || r.behaviour_logp.len() != n || r.advantage.len() != n {
            return Err(GrpoError::Setting {
                name: "rollouts",
                message: format!(
                    "rollout {i}: {n} tokens but {} action flags, {} behaviour logprobs, {} advantages",
                    r.action.len(),
                    r.behaviour_logp.len(),
                    r.advantage.len()
                ),
            });
        }
        if let Some(t) = &r.teacher_logp
            && t.len() != n
        {
            return Err(GrpoError::Setting {
                name: "rollouts",
                message: format!("rollout {i}: {n} tokens but {} teacher logprobs", t.len()),
            });
        }
        if r.action.first() == Some(&true) {
            return Err(GrpoError::Setting {
                name: "rollouts",
                message: format!("rollout {i}: the first token cannot be an action"),
            });
        }
    }
    Ok(())
}

/// The target-aligned `[batch, longest - 1]` tensors of some rollouts: mask, behaviour
/// logprobs and advantages.
fn targets(rollouts: &[Rollout], device: tch::Device) -> (Tensor, Tensor, Tensor) {
    let width = rollouts.iter().map(|r| r.tokens.len()).max().unwrap_or(1) - 1;
    let mut mask = Vec::new();
    let mut behaviour = Vec::new();
    let mut adv = Vec::new();
    for r in rollouts {
        for j in 1..=width {
            let on = r.action.get(j).copied().unwrap_or(false);
            mask.push(if on { 1.0f32 } else { 0.0 });
            behaviour.push(if on { r.behaviour_logp[j] as f32 } else { 0.0 });
            adv.push(if on { r.advantage[j] as f32 } else { 0.0 });
        }
    }
    let shape = [rollouts.len() as i64, width as i64];
    let t = |v: Vec<f32>| Tensor::from_slice(&v).view(shape).to_device(device);
    (t(mask), t(behaviour), t(adv))
}

/// The target-aligned `[batch, longest - 1]` teacher log-probabilities of some rollouts
/// and where they apply (action tokens of rows with a teacher); `None` when no row has
/// one.
fn teacher_targets(rollouts: &[Rollout], device: tch::Device) -> Option<(Tensor, Tensor)> {
    if rollouts.iter().all(|r| r.teacher_logp.is_none()) {
        return None;
    }
    let width = rollouts.iter().map(|r| r.tokens.len()).max().unwrap_or(1) - 1;
    let mut on = Vec::new();
    let mut teacher = Vec::new();
    for r in rollouts {
        for j in 1..=width {
            let t = r
                .teacher_logp
                .as_ref()
                .filter(|_| r.action.get(j).copied().unwrap_or(false))
                .map(|t| t[j]);
            on.push(if t.is_some() { 1.0f32 } else { 0.0 });
            teacher.push(t.unwrap_or(0.0) as f32);
        }
    }
    let shape = [rollouts.len() as i64, width as i64];
    let t = |v: Vec<f32>| Tensor::from_slice(&v).view(shape).to_device(device);
    Some((t(teacher), t(on)))
}

/// The counts of every rollout of a step together.
pub fn normalizer(rollouts: &[Rollout]) -> Normalizer {
    let tokens = rollouts
        .iter()
        .map(|r| r.action.iter().filter(|a| **a).count())
        .sum::<usize>();
    let sequences = rollouts
        .iter()
        .filter(|r| r.action.iter().any(|a| *a))
        .count();
    Normalizer {
        tokens: tokens as f64,
        sequences: sequences as f64,
    }
}

fn merge(acc: &mut LossStats, s: &LossStats, first: bool) {
    let total = acc.tokens + s.tokens;
    if s.tokens == 0.0 {
        return;
    }
    let mix = |a: f64, b: f64| (a * acc.tokens + b * s.tokens) / total;
    acc.ratio_mean = mix(acc.ratio_mean, s.ratio_mean);
    acc.clip_low_fraction = mix(acc.clip_low_fraction, s.clip_low_fraction);
    acc.clip_high_fraction = mix(acc.clip_high_fraction, s.clip_high_fraction);
    acc.kl = mix(acc.kl, s.kl);
    acc.behaviour_ratio_mean = mix(acc.behaviour_ratio_mean, s.behaviour_ratio_mean);
    acc.tis_truncated_fraction = mix(acc.tis_truncated_fraction, s.tis_truncated_fraction);
    acc.distill_kl = mix(acc.distill_kl, s.distill_kl);
    if first || acc.tokens == 0.0 {
        acc.ratio_min = s.ratio_min;
        acc.ratio_max = s.ratio_max;
        acc.behaviour_ratio_min = s.behaviour_ratio_min;
        acc.behaviour_ratio_max = s.behaviour_ratio_max;
    } else {
        acc.ratio_min = acc.ratio_min.min(s.ratio_min);
        acc.ratio_max = acc.ratio_max.max(s.ratio_max);
        acc.behaviour_ratio_min = acc.behaviour_ratio_min.min(s.behaviour_ratio_min);
        acc.behaviour_ratio_max = acc.behaviour_ratio_max.max(s.behaviour_ratio_max);
    }
    acc.tokens = total;
}

/// Per micro-batch, the log-probabilities under `model` without gradient (the proximal
/// policy's, or the reference model's).
fn frozen_logprobs(
    model: &Model,
    rollouts: &[Rollout],
    config: &StepConfig,
) -> Result<Vec<Tensor>, GrpoError> {
    tch::no_grad(|| {
        micro_batches(rollouts, config.micro_batch, config.micro_batch_tokens)
            .into_iter()
            .map(|range| {
                let seqs: Vec<Vec<i64>> =
                    rollouts[range].iter().map(|r| r.tokens.clone()).collect();
                sequence_logprobs(model, &seqs)
            })
            .collect()
    })
}

/// Runs forward and backward over every micro-batch, accumulating gradients in `model`'s
/// variables (no update): the loss is the step's loss, each micro-batch aggregated with
/// `normalizer` (the step's global counts). `old` holds the proximal log-probabilities
/// per micro-batch (`None`: the current weights).
pub fn accumulate(
    model: &Model,
    reference: Option<&Model>,
    rollouts: &[Rollout],
    config: &StepConfig,
    normalizer: Normalizer,
    old: Option<&[Tensor]>,
) -> Result<(f64, LossStats), GrpoError> {
    check(rollouts)?;
    let reference_logp = match (reference, config.loss.kl_beta > 0.0) {
        (Some(r), true) => Some(frozen_logprobs(r, rollouts, config)?),
        (None, true) => {
            return Err(GrpoError::Missing {
                what: "a reference model",
                why: "kl_beta > 0",
            });
        }
        _ => None,
    };
    let device = model.vs.device();
    let mut total = 0.0;
    let mut stats = LossStats::default();
    let ranges = micro_batches(rollouts, config.micro_batch, config.micro_batch_tokens);
    for (k, range) in ranges.into_iter().enumerate() {
        let chunk = &rollouts[range];
        let seqs: Vec<Vec<i64>> = chunk.iter().map(|r| r.tokens.clone()).collect();
        let (logp, recompute) = training_logprobs(model, &seqs)?;
        let (mask, behaviour, mut adv) = targets(chunk, device);
        let mut distill_kl = 0.0;
        if config.distill_weight > 0.0
            && let Some((teacher, on)) = teacher_targets(chunk, device)
        {
            let (extra, sum, count) = advantage(&logp, &teacher, &on, config.distill_weight);
            adv += extra;
            let actions = mask.sum(tch::Kind::Double).double_value(&[]);
            if actions > 0.0 && count > 0.0 {
                // Per action token, so that merging by tokens gives the step's mean.
                distill_kl = sum / actions;
            }
        }
        let weights = aggregation_weights(&mask, config.aggregation, normalizer)?;
        let inputs = LossInputs {
            logp: &logp,
            old_logp: old.map(|o| &o[k]),
            behaviour_logp: Some(&behaviour),
            ref_logp: reference_logp.as_ref().map(|r| &r[k]),
            advantages: &adv,
            mask: &mask,
        };
        let (loss, mut s) = policy_loss(&inputs, &config.loss, &weights)?;
        s.distill_kl = distill_kl;
        loss.backward();
        if let Some(r) = recompute {
            r.backward();
        }
        total += loss.double_value(&[]);
        merge(&mut stats, &s, k == 0);
    }
    Ok((total, stats))
}

/// One batch of rollouts: `ppo_epochs` updates of `optimizer`, each over every
/// micro-batch. `normalizer` overrides the batch's own counts (a correction reuses its
/// provisional update's).
pub fn optimizer_step(
    model: &Model,
    reference: Option<&Model>,
    optimizer: &mut AdamW,
    rollouts: &[Rollout],
    config: &StepConfig,
    normalizer_override: Option<Normalizer>,
) -> Result<StepReport, GrpoError> {
    check(rollouts)?;
    let norm = normalizer_override.unwrap_or_else(|| normalizer(rollouts));
    if norm.tokens == 0.0 {
        return Err(GrpoError::Setting {
            name: "rollouts",
            message: "no action tokens to train on".to_owned(),
        });
    }
    let epochs = config.ppo_epochs.max(1);
    let old = if epochs > 1 {
        Some(frozen_logprobs(model, rollouts, config)?)
    } else {
        None
    };
    let mut updates = Vec::with_capacity(epochs);
    let mut last = (0.0, LossStats::default());
    for _ in 0..epochs {
        optimizer.zero_grad();
        last = accumulate(model, reference, rollouts, config, norm, old.as_deref())?;
        updates.push(optimizer.step());
    }
    Ok(StepReport {
        loss: last.0,
        stats: last.1,
        updates,
    })
}

/// One update over `batches`, each a list of rows aggregated under its own normaliser: a
/// single batch is an [`optimizer_step`] (its `ppo_epochs` passes); several are accumulated
/// in one pass and stepped once (the corrections of several turns, each turn's rows under
/// the normaliser of its provisional update). Empty batches are passed over. The update
/// `trainer train` and the toy comparison both make for each update of
/// [`super::schedule::plan`].
pub fn update(
    model: &Model,
    reference: Option<&Model>,
    optimizer: &mut AdamW,
    batches: &[(Vec<Rollout>, Normalizer)],
    config: &StepConfig,
) -> Result<StepReport, GrpoError> {
    if let [(rows, norm)] = batches {
        return optimizer_step(model, reference, optimizer, rows, config, Some(*norm));
    }
    optimizer.zero_grad();
    let mut loss = 0.0;
    let mut stats = LossStats::default();
    for (k, (rows, norm)) in batches.iter().filter(|(r, _)| !r.is_empty()).enumerate() {
        let (l, s) = accumulate(model, reference, rows, config, *norm, None)?;
        loss += l;
        merge(&mut stats, &s, k == 0);
    }
    Ok(StepReport {
        loss,
        stats,
        updates: vec![optimizer.step()],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grpo::distill::{align, score};
    use crate::optim::{AdamW, OptimConfig};

    fn rows(lengths: &[usize]) -> Vec<Rollout> {
        lengths
            .iter()
            .map(|n| Rollout {
                tokens: vec![1; *n],
                action: vec![false; *n],
                behaviour_logp: vec![0.0; *n],
                advantage: vec![0.0; *n],
                teacher_logp: None,
            })
            .collect()
    }

    #[test]
    fn micro_batches_are_bounded_by_rows_and_padded_tokens() {
        let r = rows(&[3, 4, 1, 5, 2, 2]);
        // Rows only.
        assert_eq!(micro_batches(&r, 4, usize::MAX), vec![0..4, 4..6]);
        // 8 padded tokens: [3, 4] is 2 x 4, [1, 5] would be 2 x 5.
        assert_eq!(micro_batches(&r, 16, 8), vec![0..2, 2..3, 3..4, 4..6]);
        // A row longer than the budget is a micro-batch of its own.
        assert_eq!(micro_batches(&rows(&[10, 1]), 16, 4), vec![0..1, 1..2]);
        assert!(micro_batches(&[], 4, 4).is_empty());
        assert_eq!(micro_batches(&r, 0, 0).len(), 6);
    }

    fn tiny(seed: i64) -> Model {
        tch::manual_seed(seed);
        let config: crate::config::Config = serde_json::from_value(serde_json::json!({
            "model_type": "llama", "vocab_size": 40, "hidden_size": 16, "intermediate_size": 32,
            "num_hidden_layers": 1, "num_attention_heads": 2, "num_key_value_heads": 1,
            "rms_norm_eps": 1e-6, "rope_theta": 10000.0, "max_position_embeddings": 64,
            "tie_word_embeddings": true
        }))
        .expect("config");
        Model::new(config, tch::Device::Cpu)
    }

    /// The student's rows (prompt of 3, a reply after it) and the teacher's: the same
    /// replies after a prompt with `note` inserted before its last token.
    fn batch(note: &[i64]) -> (Vec<Vec<i64>>, Vec<Vec<i64>>, usize, usize) {
        let prompt = vec![1, 5, 6];
        let replies = [vec![7, 9, 11, 3], vec![8, 10, 12, 4, 2]];
        let mut teacher_prompt = prompt[..2].to_vec();
        teacher_prompt.extend_from_slice(note);
        teacher_prompt.push(prompt[2]);
        let join = |p: &[i64], r: &[i64]| [p, r].concat();
        (
            replies.iter().map(|r| join(&prompt, r)).collect(),
            replies.iter().map(|r| join(&teacher_prompt, r)).collect(),
            prompt.len(),
            teacher_prompt.len(),
        )
    }

    /// The rows with their advantage (0: the distillation term alone) and the teacher's
    /// log-probabilities, scored by `teacher` on `teacher_seqs` and laid out on them.
    fn distill_rows(
        model: &Model,
        teacher: &Model,
        student: &[Vec<i64>],
        teacher_seqs: &[Vec<i64>],
        (prompt, teacher_prompt): (usize, usize),
        advantage: f64,
    ) -> Vec<Rollout> {
        let start = tch::no_grad(|| sequence_logprobs(model, student)).expect("logprobs");
        let scored = score(teacher, teacher_seqs).expect("score");
        student
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let action: Vec<bool> = (0..s.len()).map(|k| k >= prompt).collect();
                let mut row = Rollout::fixed(s.clone(), action, advantage, &start, i);
                row.teacher_logp = Some(align(prompt, s.len(), teacher_prompt, &scored[i]));
                row
            })
            .collect()
    }

    fn step(weight: f64) -> StepConfig {
        StepConfig {
            distill_weight: weight,
            ..StepConfig::default()
        }
    }

    /// A teacher with the student's context (and weights) adds nothing: the loss, its
    /// gradient and the reported KL are those of the GRPO term alone.
    #[test]
    fn the_term_is_zero_when_the_teacher_context_equals_the_student_context() {
        let model = tiny(3);
        let (student, _, prompt, _) = batch(&[]);
        let rows = distill_rows(&model, &model, &student, &student, (prompt, prompt), 0.5);
        let norm = normalizer(&rows);
        let grads = |weight: f64| {
            for v in model.vs.trainable_variables() {
                let mut g = v.grad();
                if g.defined() {
                    let _ = g.zero_();
                }
            }
            let (loss, stats) =
                accumulate(&model, None, &rows, &step(weight), norm, None).expect("loss");
            let g: Vec<Tensor> = model
                .vs
                .trainable_variables()
                .iter()
                .map(|v| v.grad().copy())
                .collect();
            (loss, stats, g)
        };
        let (plain, plain_stats, plain_grad) = grads(0.0);
        let (with, with_stats, with_grad) = grads(1.0);
        assert!((plain - with).abs() < 1e-6, "{plain} vs {with}");
        assert!(
            with_stats.distill_kl.abs() < 1e-6,
            "{}",
            with_stats.distill_kl
        );
        assert_eq!(plain_stats.distill_kl, 0.0);
        for (a, b) in plain_grad.iter().zip(&with_grad) {
            let diff = (a - b).abs().max().double_value(&[]);
            assert!(diff < 1e-6, "gradient differs by {diff}");
        }
        // The same holds of the layout: a teacher prompt equal to the student's puts the
        // teacher's numbers exactly on the student's reply tokens.
        let own = tch::no_grad(|| sequence_logprobs(&model, &student)).expect("own");
        let row0 = rows[0].teacher_logp.as_ref().expect("scored");
        for (k, v) in row0.iter().enumerate().skip(prompt) {
            assert!((v - own.double_value(&[0, k as i64 - 1])).abs() < 1e-6);
        }
    }

    /// Updates on a fixed batch with the distillation term alone (every GRPO advantage
    /// 0) move the student's log-probabilities of its tokens toward the teacher's, which
    /// reads a different prompt with different weights; with a context the term is not
    /// zero to start with.
    #[test]
    fn updates_move_the_student_log_probabilities_toward_the_teacher() {
        let model = tiny(5);
        let teacher = tiny(17);
        let (student, teacher_seqs, prompt, teacher_prompt) = batch(&[20, 21, 22]);
        let rows = distill_rows(
            &model,
            &teacher,
            &student,
            &teacher_seqs,
            (prompt, teacher_prompt),
            0.0,
        );
        let gap = |model: &Model| {
            let logp = tch::no_grad(|| sequence_logprobs(model, &student)).expect("logprobs");
            let (mut sum, mut n) = (0.0, 0.0);
            for (i, r) in rows.iter().enumerate() {
                let t = r.teacher_logp.as_ref().expect("scored");
                for (k, tk) in t.iter().enumerate().skip(prompt) {
                    sum += (logp.double_value(&[i as i64, k as i64 - 1]) - tk).abs();
                    n += 1.0;
                }
            }
            sum / n
        };
        let mut optimizer = AdamW::new(
            &model.vs,
            OptimConfig {
                lr: 2e-3,
                weight_decay: 0.0,
                ..OptimConfig::default()
            },
        )
        .expect("optimizer");
        let mut gaps = vec![gap(&model)];
        assert!(
            gaps[0] > 0.05,
            "the teacher differs to start with: {gaps:?}"
        );
        for _ in 0..12 {
            let report = optimizer_step(&model, None, &mut optimizer, &rows, &step(1.0), None)
                .expect("step");
            assert!(report.stats.distill_kl.is_finite());
            gaps.push(gap(&model));
        }
        assert!(
            gaps.windows(2).all(|w| w[1] <= w[0] + 1e-6) && gaps[12] < 0.5 * gaps[0],
            "{gaps:?}"
        );
        // Without the term the same updates (advantages 0) leave the gap where it is.
        let still = tiny(5);
        let mut optimizer = AdamW::new(&still.vs, OptimConfig::default()).expect("optimizer");
        let before = gap(&still);
        optimizer_step(&still, None, &mut optimizer, &rows, &step(0.0), None).expect("step");
        assert!((gap(&still) - before).abs() < 1e-4);
    }
}
