//! The GRPO family's per-token policy loss in tch, and how it is aggregated.
//!
//! Inputs are `[batch, positions]` tensors aligned on the same positions: `logp` is the
//! current policy's log-probability of each token (with gradient), `old_logp` the
//! proximal policy's (the PPO anchor, detached; `None` means the current weights, so the
//! ratio is 1 with the on-policy gradient), `behaviour_logp` the sampler's (stored at
//! generation), `ref_logp` the frozen reference model's, `advantages` each token's
//! advantage and `mask` 1 on action tokens (the model's own), 0 on prompt, observation and
//! padding tokens.
//!
//! Per action token, with `u` the importance ratio against the proximal policy:
//! - token level (GRPO, DAPO): `u = exp(logp - old_logp)`;
//! - sequence level (GSPO, in its GSPO-token form): `u = sg[s_i] * exp(logp - sg[logp])`
//!   with `s_i = exp(mean_t (logp - old_logp))` over the sequence's action tokens, so its
//!   value is `s_i` and clipping acts on the whole sequence;
//! - `surrogate = min(u A, clip(u, 1 - clip_low, 1 + clip_high) A)` (symmetric when both
//!   are equal; DAPO's clip-higher when `clip_high > clip_low`);
//! - truncated importance sampling (TIS) against the behaviour policy:
//!   `w = min(exp(old_logp - behaviour_logp), tis_cap)`, detached;
//! - k3 KL to the reference: `k3 = exp(ref - logp) - (ref - logp) - 1` (>= 0);
//! - `l = -w * surrogate + kl_beta * k3`.
//!
//! The loss is `sum_{i,t} c_{i,t} l_{i,t}` with the weights `c` of [`aggregation_weights`]:
//! - [`Aggregation::TokenMean`] (DAPO): `c = m / N_tokens`, the global count of action
//!   tokens in the optimizer step (not per trajectory, so more turns do not weigh less);
//! - [`Aggregation::SequenceMean`] (DeepSeekMath's GRPO, GSPO): `c = m / (|o_i| N_seq)`;
//! - [`Aggregation::ConstantLength`] (Dr. GRPO): `c = m / (L N_seq)` with a constant `L`.
//!
//! `N_tokens` and `N_seq` come from a [`Normalizer`]: counted over the whole optimizer
//! step when gradients are accumulated over micro-batches, so the sum of the
//! micro-batches' losses is the loss of the step.

use tch::{Kind, Tensor};

use super::GrpoError;

/// Where the importance ratio is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RatioLevel {
    /// Per token (GRPO, DAPO).
    Token,
    /// Per sequence, the geometric mean of the token ratios (GSPO).
    Sequence,
}

/// How per-token losses become the loss.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Aggregation {
    /// Sum over action tokens divided by their global count (DAPO).
    TokenMean,
    /// Each sequence's mean over its action tokens, averaged over sequences (GRPO).
    SequenceMean,
    /// Sum over action tokens divided by `length` times the number of sequences (Dr. GRPO).
    ConstantLength {
        /// The constant, usually the most tokens a completion may have.
        length: f64,
    },
}

/// The settings of the policy loss.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LossConfig {
    /// Lower clip: the ratio is kept above `1 - clip_low`.
    pub clip_low: f64,
    /// Upper clip: the ratio is kept below `1 + clip_high`.
    pub clip_high: f64,
    /// Token or sequence ratio.
    pub ratio: RatioLevel,
    /// Weight of the k3 KL term (0: no reference model needed).
    pub kl_beta: f64,
    /// Truncation of the importance weight against the behaviour policy (`None`: no
    /// weight; the ratio statistics are still reported when behaviour logprobs are given).
    pub tis_cap: Option<f64>,
}

impl Default for LossConfig {
    fn default() -> Self {
        LossConfig {
            clip_low: 0.2,
            clip_high: 0.2,
            ratio: RatioLevel::Token,
            kl_beta: 0.0,
            tis_cap: Some(2.0),
        }
    }
}

/// The tensors of one (micro-)batch, all `[batch, positions]`.
#[derive(Debug, Clone, Copy)]
pub struct LossInputs<'a> {
    /// Current log-probabilities (differentiated).
    pub logp: &'a Tensor,
    /// Proximal log-probabilities; `None` is `logp` detached.
    pub old_logp: Option<&'a Tensor>,
    /// Behaviour (sampling) log-probabilities.
    pub behaviour_logp: Option<&'a Tensor>,
    /// Reference-model log-probabilities (needed when `kl_beta > 0`).
    pub ref_logp: Option<&'a Tensor>,
    /// Each token's advantage.
    pub advantages: &'a Tensor,
    /// 1 on action tokens, 0 elsewhere.
    pub mask: &'a Tensor,
}

/// Global counts the aggregation divides by.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Normalizer {
    /// Action tokens in the optimizer step.
    pub tokens: f64,
    /// Sequences with at least one action token in the optimizer step.
    pub sequences: f64,
}

impl Normalizer {
    /// The counts of one mask `[batch, positions]`.
    pub fn of(mask: &Tensor) -> Normalizer {
        let m = mask.to_kind(Kind::Double);
        Normalizer {
            tokens: m.sum(Kind::Double).double_value(&[]),
            sequences: m
                .sum_dim_intlist(1, false, Kind::Double)
                .gt(0.0)
                .sum(Kind::Double)
                .double_value(&[]),
        }
    }

    /// The counts of several micro-batches together.
    pub fn merge(self, other: Normalizer) -> Normalizer {
        Normalizer {
            tokens: self.tokens + other.tokens,
            sequences: self.sequences + other.sequences,
        }
    }
}

/// What one loss computation saw (over action tokens).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct LossStats {
    /// Action tokens.
    pub tokens: f64,
    /// Mean, least and greatest importance ratio against the proximal policy.
    pub ratio_mean: f64,
    /// Least ratio.
    pub ratio_min: f64,
    /// Greatest ratio.
    pub ratio_max: f64,
    /// Fraction of action tokens clipped below (negative advantage, ratio under `1 - clip_low`).
    pub clip_low_fraction: f64,
    /// Fraction clipped above (positive advantage, ratio over `1 + clip_high`).
    pub clip_high_fraction: f64,
    /// Mean k3 KL to the reference (0 without one).
    pub kl: f64,
    /// Mean proximal/behaviour ratio (1 without behaviour logprobs).
    pub behaviour_ratio_mean: f64,
    /// Least proximal/behaviour ratio.
    pub behaviour_ratio_min: f64,
    /// Greatest proximal/behaviour ratio.
    pub behaviour_ratio_max: f64,
    /// Fraction of action tokens whose behaviour ratio was truncated at `tis_cap`.
    pub tis_truncated_fraction: f64,
    /// The reverse KL to a teacher (`super::distill`), the mean log-ratio over the
    /// action tokens the teacher scored, per action token (0 without a teacher).
    pub distill_kl: f64,
}

/// Limits on log-ratios before `exp`, so a far-off token cannot overflow.
const MAX_LOG_RATIO: f64 = 20.0;

fn check_shape(name: &'static str, t: &Tensor, want: &[i64]) -> Result<(), GrpoError> {
    if t.size() != want {
        return Err(GrpoError::Shape {
            name,
            got: t.size(),
            want: want.to_vec(),
        });
    }
    Ok(())
}

/// Masked statistics `(mean, min, max)` of `x` over `mask` (zeros when nothing is masked in).
fn masked_stats(x: &Tensor, mask: &Tensor, count: f64) -> (f64, f64, f64) {
    if count == 0.0 {
        return (0.0, 0.0, 0.0);
    }
    let on = mask.gt(0.0);
    let vals = x.masked_select(&on);
    (
        vals.sum(Kind::Double).double_value(&[]) / count,
        vals.min().double_value(&[]),
        vals.max().double_value(&[]),
    )
}

/// The per-token losses `l_{i,t}` (zero off the mask) and their statistics.
pub fn per_token_loss(
    inputs: &LossInputs<'_>,
    config: &LossConfig,
) -> Result<(Tensor, LossStats), GrpoError> {
    let shape = inputs.logp.size();
    if shape.len() != 2 {
        return Err(GrpoError::Shape {
            name: "logp",
            got: shape,
            want: vec![-1, -1],
        });
    }
    check_shape("advantages", inputs.advantages, &shape)?;
    check_shape("mask", inputs.mask, &shape)?;
    for (name, t) in [
        ("old_logp", inputs.old_logp),
        ("behaviour_logp", inputs.behaviour_logp),
        ("ref_logp", inputs.ref_logp),
    ] {
        if let Some(t) = t {
            check_shape(name, t, &shape)?;
        }
    }
    if config.kl_beta > 0.0 && inputs.ref_logp.is_none() {
        return Err(GrpoError::Missing {
            what: "ref_logp",
            why: "kl_beta > 0",
        });
    }
    if !(config.clip_low >= 0.0 && config.clip_low < 1.0 && config.clip_high >= 0.0) {
        return Err(GrpoError::Setting {
            name: "clip_low/clip_high",
            message: format!(
                "need 0 <= clip_low < 1 and clip_high >= 0, got {} and {}",
                config.clip_low, config.clip_high
            ),
        });
    }
    if let Some(cap) = config.tis_cap
        && (cap.is_nan() || cap <= 0.0)
    {
        return Err(GrpoError::Setting {
            name: "tis_cap",
            message: format!("must be positive, got {cap}"),
        });
    }
    let kind = inputs.logp.kind();
    let mask = inputs.mask.to_kind(kind);
    // Off the mask every input is replaced by 0 before any arithmetic, so a NaN or -inf
    // there (padding, a filtered token) never reaches the loss or its gradient.
    let off = mask.le(0.0);
    let clean = |x: &Tensor| x.to_kind(kind).masked_fill(&off, 0.0);
    let logp_masked = clean(inputs.logp);
    let logp = &logp_masked;
    let old = match inputs.old_logp {
        Some(old) => clean(old).detach(),
        None => logp.detach(),
    };
    let adv = clean(inputs.advantages);
    let tokens = mask.sum(Kind::Double).double_value(&[]);

    // log u, zero off the mask so padding never reaches exp.
    let log_u = match config.ratio {
        RatioLevel::Token => (logp - &old) * &mask,
        RatioLevel::Sequence => {
            let len = mask.sum_dim_intlist(1, true, kind).clamp_min(1.0);
            let seq = (((logp - &old) * &mask).sum_dim_intlist(1, true, kind) / len).detach();
            (logp - logp.detach() + seq) * &mask
        }
    }
    .clamp(-MAX_LOG_RATIO, MAX_LOG_RATIO);
    let u = log_u.exp();
    let clipped = u.clamp(1.0 - config.clip_low, 1.0 + config.clip_high);
    let surrogate = (&u * &adv).minimum(&(&clipped * &adv));

    let mut stats = LossStats {
        tokens,
        behaviour_ratio_mean: 1.0,
        behaviour_ratio_min: 1.0,
        behaviour_ratio_max: 1.0,
        ..Default::default()
    };
    let weight = match inputs.behaviour_logp {
        Some(behaviour) => {
            let log_w = ((&old - clean(behaviour)) * &mask)
                .clamp(-MAX_LOG_RATIO, MAX_LOG_RATIO)
                .detach();
            let w = log_w.exp();
            (
                stats.behaviour_ratio_mean,
                stats.behaviour_ratio_min,
                stats.behaviour_ratio_max,
            ) = masked_stats(&w, &mask, tokens);
            match config.tis_cap {
                Some(cap) => {
                    if tokens > 0.0 {
                        stats.tis_truncated_fraction =
                            (w.gt(cap) * &mask).sum(Kind::Double).double_value(&[]) / tokens;
                    }
                    Some(w.clamp_max(cap))
                }
                None => None,
            }
        }
        None => None,
    };
    let mut loss = match &weight {
        Some(w) => -(w * &surrogate),
        None => -surrogate,
    };
    if let Some(reference) = inputs.ref_logp {
        let d = ((clean(reference) - logp) * &mask).clamp(-MAX_LOG_RATIO, MAX_LOG_RATIO);
        let k3 = d.exp() - &d - 1.0;
        if tokens > 0.0 {
            stats.kl = (&k3 * &mask).sum(Kind::Double).double_value(&[]) / tokens;
        }
        if config.kl_beta > 0.0 {
            loss += k3 * config.kl_beta;
        }
    }
    let u_det = u.detach();
    (stats.ratio_mean, stats.ratio_min, stats.ratio_max) = masked_stats(&u_det, &mask, tokens);
    if tokens > 0.0 {
        let adv_d = adv.detach();
        let high = u_det.gt(1.0 + config.clip_high).logical_and(&adv_d.gt(0.0));
        let low = u_det.lt(1.0 - config.clip_low).logical_and(&adv_d.lt(0.0));
        stats.clip_high_fraction = (high.to_kind(kind) * &mask)
            .sum(Kind::Double)
            .double_value(&[])
            / tokens;
        stats.clip_low_fraction = (low.to_kind(kind) * &mask)
            .sum(Kind::Double)
            .double_value(&[])
            / tokens;
    }
    Ok((loss * &mask, stats))
}

/// The weights `c_{i,t}` with `loss = sum c * l` (zero off the mask).
pub fn aggregation_weights(
    mask: &Tensor,
    aggregation: Aggregation,
    normalizer: Normalizer,
) -> Result<Tensor, GrpoError> {
    let m = if mask.is_floating_point() {
        mask.shallow_clone()
    } else {
        mask.to_kind(Kind::Float)
    };
    let kind = m.kind();
    let positive = |name: &'static str, v: f64| {
        if v > 0.0 && v.is_finite() {
            Ok(v)
        } else {
            Err(GrpoError::Setting {
                name,
                message: format!("must be a positive count, got {v}"),
            })
        }
    };
    Ok(match aggregation {
        Aggregation::TokenMean => m / positive("normalizer.tokens", normalizer.tokens)?,
        Aggregation::SequenceMean => {
            let len = m.sum_dim_intlist(1, true, kind).clamp_min(1.0);
            m / len / positive("normalizer.sequences", normalizer.sequences)?
        }
        Aggregation::ConstantLength { length } => {
            m / (positive("length", length)?
                * positive("normalizer.sequences", normalizer.sequences)?)
        }
    })
}

/// The loss of one (micro-)batch: [`per_token_loss`] aggregated with `weights`.
pub fn policy_loss(
    inputs: &LossInputs<'_>,
    config: &LossConfig,
    weights: &Tensor,
) -> Result<(Tensor, LossStats), GrpoError> {
    check_shape("weights", weights, &inputs.logp.size())?;
    let (per_token, stats) = per_token_loss(inputs, config)?;
    Ok((
        (per_token * weights.to_kind(inputs.logp.kind())).sum(inputs.logp.kind()),
        stats,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tch::Device;

    fn t(rows: &[&[f64]]) -> Tensor {
        let flat: Vec<f32> = rows
            .iter()
            .flat_map(|r| r.iter().map(|x| *x as f32))
            .collect();
        Tensor::from_slice(&flat).view([rows.len() as i64, rows[0].len() as i64])
    }

    fn leaf(rows: &[&[f64]]) -> Tensor {
        t(rows).set_requires_grad(true)
    }

    fn grads(loss: &Tensor, x: &Tensor) -> Vec<f64> {
        loss.backward();
        Vec::<f64>::try_from(x.grad().to_kind(Kind::Double).view([-1])).expect("grad")
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-5, "{a} != {b}");
    }

    fn run(
        logp: &Tensor,
        adv: &Tensor,
        mask: &Tensor,
        config: &LossConfig,
        aggregation: Aggregation,
    ) -> (f64, LossStats) {
        let inputs = LossInputs {
            logp,
            old_logp: Some(&logp.zeros_like()),
            behaviour_logp: None,
            ref_logp: None,
            advantages: adv,
            mask,
        };
        let w = aggregation_weights(mask, aggregation, Normalizer::of(mask)).expect("weights");
        let (loss, stats) = policy_loss(&inputs, config, &w).expect("loss");
        (loss.double_value(&[]), stats)
    }

    #[test]
    fn symmetric_and_clip_higher_token_losses_by_hand() {
        // Ratios 1.5, 0.5, 1 against old logprobs 0; advantages 1, -1, 2.
        let logp = leaf(&[&[1.5f64.ln(), 0.5f64.ln(), 0.0]]);
        let adv = t(&[&[1.0, -1.0, 2.0]]);
        let mask = t(&[&[1.0, 1.0, 1.0]]);
        let config = LossConfig {
            tis_cap: None,
            ..Default::default()
        };
        let inputs = LossInputs {
            logp: &logp,
            old_logp: Some(&logp.zeros_like()),
            behaviour_logp: None,
            ref_logp: None,
            advantages: &adv,
            mask: &mask,
        };
        let w = aggregation_weights(&mask, Aggregation::TokenMean, Normalizer::of(&mask))
            .expect("weights");
        let (loss, stats) = policy_loss(&inputs, &config, &w).expect("loss");
        // -(min(1.5, 1.2) * 1) + -(min(-0.5, -0.8)) + -(2) = -1.2 + 0.8 - 2 = -2.4; / 3.
        close(loss.double_value(&[]), -0.8);
        close(stats.clip_high_fraction, 1.0 / 3.0);
        close(stats.clip_low_fraction, 1.0 / 3.0);
        close(stats.ratio_max, 1.5);
        close(stats.ratio_min, 0.5);
        close(stats.ratio_mean, 1.0);
        // Clipped tokens carry no gradient; the third: d(-u A)/dlogp = -u A = -2, / 3.
        let g = grads(&loss, &logp);
        close(g[0], 0.0);
        close(g[1], 0.0);
        close(g[2], -2.0 / 3.0);

        // DAPO clip-higher: 1 + 0.6 lets the ratio 1.5 through.
        let higher = LossConfig {
            clip_high: 0.6,
            ..config
        };
        let logp = leaf(&[&[1.5f64.ln(), 0.5f64.ln(), 0.0]]);
        let (v, stats) = run(&logp, &adv, &mask, &higher, Aggregation::TokenMean);
        close(v, (-1.5 + 0.8 - 2.0) / 3.0);
        close(stats.clip_high_fraction, 0.0);
    }

    #[test]
    fn kl_k3_and_truncated_importance_weights_by_hand() {
        let logp = leaf(&[&[1.5f64.ln(), 0.0]]);
        let adv = t(&[&[0.0, 1.0]]);
        let mask = t(&[&[1.0, 1.0]]);
        let reference = t(&[&[0.0, 0.0]]);
        let behaviour = t(&[&[(1.0f64 / 3.0).ln(), 0.8f64.ln()]]);
        let config = LossConfig {
            kl_beta: 0.5,
            tis_cap: Some(2.0),
            ..Default::default()
        };
        let inputs = LossInputs {
            logp: &logp,
            old_logp: None,
            behaviour_logp: Some(&behaviour),
            ref_logp: Some(&reference),
            advantages: &adv,
            mask: &mask,
        };
        let w = aggregation_weights(&mask, Aggregation::TokenMean, Normalizer::of(&mask))
            .expect("weights");
        let (loss, stats) = policy_loss(&inputs, &config, &w).expect("loss");
        // old = logp detached, so u = 1, and the behaviour ratios are exp(ln 1.5 - ln(1/3))
        // = 4.5 (truncated at 2) and exp(0 - ln 0.8) = 1.25. Token 1: A = 0,
        // k3 = 1/1.5 + ln 1.5 - 1. Token 2: -(1.25 * 1) + k3(0) = -1.25. Token mean over 2.
        let k3 = 1.0 / 1.5 + 1.5f64.ln() - 1.0;
        close(loss.double_value(&[]), (0.5 * k3 - 1.25) / 2.0);
        close(stats.kl, k3 / 2.0);
        close(stats.tis_truncated_fraction, 0.5);
        close(stats.behaviour_ratio_max, 4.5);
        close(stats.behaviour_ratio_min, 1.25);
        // d k3 / d logp = 1 - exp(ref - logp) = 1 - 1/1.5; d(-w u A)/dlogp = -1.25.
        let g = grads(&loss, &logp);
        close(g[0], 0.5 * (1.0 - 1.0 / 1.5) / 2.0);
        close(g[1], -1.25 / 2.0);
    }

    #[test]
    fn gspo_clips_the_whole_sequence_and_weights_each_token_by_its_ratio() {
        let logp = leaf(&[&[2f64.ln(), 0.0], &[0.9f64.ln(), 0.0]]);
        let adv = t(&[&[1.0, 1.0], &[-1.0, -1.0]]);
        let mask = t(&[&[1.0, 1.0], &[1.0, 1.0]]);
        let config = LossConfig {
            ratio: RatioLevel::Sequence,
            tis_cap: None,
            ..Default::default()
        };
        let (v, stats) = run(&logp, &adv, &mask, &config, Aggregation::SequenceMean);
        let s2 = 0.9f64.sqrt();
        // Sequence 1: s = sqrt(2) clipped at 1.2 for both tokens; sequence 2: s = sqrt(0.9).
        close(v, (-1.2 + s2) / 2.0);
        close(stats.clip_high_fraction, 0.5);
        close(stats.ratio_max, 2f64.sqrt());
        let g = grads(
            &{
                let (v, _) = policy_loss(
                    &LossInputs {
                        logp: &logp,
                        old_logp: Some(&logp.zeros_like()),
                        behaviour_logp: None,
                        ref_logp: None,
                        advantages: &adv,
                        mask: &mask,
                    },
                    &config,
                    &aggregation_weights(&mask, Aggregation::SequenceMean, Normalizer::of(&mask))
                        .expect("weights"),
                )
                .expect("loss");
                v
            },
            &logp,
        );
        close(g[0], 0.0);
        close(g[1], 0.0);
        // d(-u A)/dlogp_t = s (A = -1), weight 1 / (2 tokens * 2 sequences).
        close(g[2], s2 / 4.0);
        close(g[3], s2 / 4.0);
    }

    #[test]
    fn aggregation_weights_by_hand_and_padding_carries_nothing() {
        let mask = t(&[&[1.0, 1.0, 1.0, 0.0], &[1.0, 0.0, 0.0, 0.0], &[0.0; 4]]);
        let n = Normalizer::of(&mask);
        assert_eq!(
            n,
            Normalizer {
                tokens: 4.0,
                sequences: 2.0
            }
        );
        let flat = |a: Aggregation| {
            Vec::<f64>::try_from(
                aggregation_weights(&mask, a, n)
                    .expect("weights")
                    .to_kind(Kind::Double)
                    .view([-1]),
            )
            .expect("vec")
        };
        let token = flat(Aggregation::TokenMean);
        let seq = flat(Aggregation::SequenceMean);
        let constant = flat(Aggregation::ConstantLength { length: 4.0 });
        for (i, m) in [1., 1., 1., 0., 1., 0., 0., 0., 0., 0., 0., 0.]
            .iter()
            .enumerate()
        {
            close(token[i], m * 0.25);
            close(constant[i], m / 8.0);
            let len = if i < 4 { 3.0 } else { 1.0 };
            close(seq[i], m / (len * 2.0));
        }
        // A NaN logprob on a padded position stays out of the loss.
        let logp = Tensor::from_slice(&[0.1f32, f32::NAN])
            .view([1, 2])
            .to_device(Device::Cpu);
        let mask = t(&[&[1.0, 0.0]]);
        let adv = t(&[&[1.0, 1.0]]);
        let (v, _) = run(
            &logp,
            &adv,
            &mask,
            &LossConfig::default(),
            Aggregation::TokenMean,
        );
        assert!(v.is_finite(), "{v}");
    }

    #[test]
    fn mismatched_shapes_and_missing_reference_are_named() {
        let logp = t(&[&[0.0, 0.0]]);
        let adv = t(&[&[0.0, 0.0, 0.0]]);
        let inputs = LossInputs {
            logp: &logp,
            old_logp: None,
            behaviour_logp: None,
            ref_logp: None,
            advantages: &adv,
            mask: &logp,
        };
        let err = per_token_loss(&inputs, &LossConfig::default()).expect_err("shape");
        assert_eq!(
            err.to_string(),
            "advantages has shape [1, 3], [1, 2] expected"
        );
        let inputs = LossInputs {
            advantages: &logp,
            ..inputs
        };
        let config = LossConfig {
            kl_beta: 0.1,
            ..Default::default()
        };
        let err = per_token_loss(&inputs, &config).expect_err("no reference");
        assert_eq!(err.to_string(), "ref_logp is needed because kl_beta > 0");
    }
}
