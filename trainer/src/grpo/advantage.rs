//! Group-relative advantages for outcome rewards, and DAPO's dynamic sampling.
//!
//! A group is the G episodes of one problem. With rewards `r_1..r_G`:
//! - [`Baseline::Mean`]: `A_i = r_i - mean(r)` (DeepSeekMath's GRPO).
//! - [`Baseline::LeaveOneOut`]: `A_i = r_i - mean_{j != i} r_j = G/(G-1) (r_i - mean(r))`
//!   (RLOO; the baseline of `i` does not depend on `r_i`).
//! - [`Scale::GroupStd`] divides by `std(r) + eps`, the sample standard deviation with
//!   Bessel's correction (as `torch.std` and trl); [`Scale::None`] keeps the difference
//!   (Dr. GRPO: no question-difficulty bias).
//!
//! Dynamic sampling (DAPO) drops the groups whose rewards do not vary: their advantages are
//! all zero and they only dilute the batch. "Do not vary" is a standard deviation at most
//! `min_std`, not an exact equality, so float noise does not keep a flat group.

use super::GrpoError;

/// What a reward is compared against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Baseline {
    /// The group mean, the episode itself included.
    Mean,
    /// The mean of the other episodes of the group.
    LeaveOneOut,
}

/// How the difference is scaled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scale {
    /// Divided by the group's standard deviation plus `eps` (GRPO, DAPO).
    GroupStd,
    /// Not scaled (Dr. GRPO).
    None,
}

/// The settings of [`group_advantages`].
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AdvantageConfig {
    /// The baseline.
    pub baseline: Baseline,
    /// The scale.
    pub scale: Scale,
    /// Added to the standard deviation before dividing.
    pub eps: f64,
}

impl Default for AdvantageConfig {
    fn default() -> Self {
        AdvantageConfig {
            baseline: Baseline::Mean,
            scale: Scale::GroupStd,
            eps: 1e-6,
        }
    }
}

/// The mean of `xs` (0 for none).
pub fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// The sample standard deviation of `xs` (Bessel's correction; 0 for fewer than two).
pub fn std(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let m = mean(xs);
    (xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() - 1) as f64).sqrt()
}

/// The advantage of each episode of one group from its reward.
///
/// A group needs at least two episodes, and every reward must be finite (a judge error is
/// not a reward: the caller removes that episode from the group first).
pub fn group_advantages(rewards: &[f64], config: &AdvantageConfig) -> Result<Vec<f64>, GrpoError> {
    let g = rewards.len();
    if g < 2 {
        return Err(GrpoError::GroupTooSmall { size: g });
    }
    if let Some(index) = rewards.iter().position(|r| !r.is_finite()) {
        return Err(GrpoError::NotFinite {
            what: "reward",
            index,
            value: rewards[index],
        });
    }
    let total: f64 = rewards.iter().sum();
    let m = total / g as f64;
    let denom = match config.scale {
        Scale::GroupStd => std(rewards) + config.eps,
        Scale::None => 1.0,
    };
    Ok(rewards
        .iter()
        .map(|r| {
            let base = match config.baseline {
                Baseline::Mean => m,
                Baseline::LeaveOneOut => (total - r) / (g - 1) as f64,
            };
            (r - base) / denom
        })
        .collect())
}

/// What dynamic sampling kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filtered {
    /// Indices of the groups kept, in order.
    pub kept: Vec<usize>,
    /// How many groups were dropped because their rewards did not vary.
    pub dropped: usize,
}

/// DAPO's dynamic sampling: keeps the groups whose reward standard deviation exceeds
/// `min_std`, and counts the others.
pub fn filter_groups(groups: &[Vec<f64>], min_std: f64) -> Filtered {
    let kept: Vec<usize> = (0..groups.len())
        .filter(|&i| std(&groups[i]) > min_std)
        .collect();
    Filtered {
        dropped: groups.len() - kept.len(),
        kept,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f64], b: &[f64]) {
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(b) {
            assert!((x - y).abs() < 1e-9, "{a:?} != {b:?}");
        }
    }

    #[test]
    fn grpo_dr_grpo_and_leave_one_out_by_hand() {
        let r = [1.0, 0.0, 0.0, 1.0];
        // mean 0.5, sample std sqrt(1/3) = 0.57735...
        let s = (1.0f64 / 3.0).sqrt();
        let grpo = group_advantages(&r, &AdvantageConfig::default()).expect("valid");
        close(
            &grpo,
            &[
                0.5 / (s + 1e-6),
                -0.5 / (s + 1e-6),
                -0.5 / (s + 1e-6),
                0.5 / (s + 1e-6),
            ],
        );
        let dr = AdvantageConfig {
            scale: Scale::None,
            ..Default::default()
        };
        close(
            &group_advantages(&r, &dr).expect("valid"),
            &[0.5, -0.5, -0.5, 0.5],
        );
        let loo = AdvantageConfig {
            baseline: Baseline::LeaveOneOut,
            scale: Scale::None,
            eps: 0.0,
        };
        // 1 - mean(0, 0, 1) = 2/3; 0 - mean(1, 0, 1) = -2/3.
        close(
            &group_advantages(&r, &loo).expect("valid"),
            &[2.0 / 3.0, -2.0 / 3.0, -2.0 / 3.0, 2.0 / 3.0],
        );
    }

    #[test]
    fn flat_groups_are_dropped_and_counted_with_a_threshold() {
        let groups = vec![
            vec![1.0, 1.0, 1.0],
            vec![0.0, 1.0, 0.0],
            vec![0.3, 0.3 + 1e-12, 0.3],
            vec![0.0, 0.0, 0.0],
        ];
        let f = filter_groups(&groups, 1e-6);
        assert_eq!(f.kept, vec![1]);
        assert_eq!(f.dropped, 3);
        // A flat group has zero advantages, never NaN.
        let a = group_advantages(&groups[0], &AdvantageConfig::default()).expect("valid");
        close(&a, &[0.0, 0.0, 0.0]);
    }

    #[test]
    fn bad_groups_are_errors_naming_the_reward() {
        let err = group_advantages(&[1.0], &AdvantageConfig::default()).expect_err("one");
        assert_eq!(
            err.to_string(),
            "a group needs at least 2 episodes, it has 1"
        );
        let err = group_advantages(&[1.0, f64::NAN], &AdvantageConfig::default()).expect_err("nan");
        assert_eq!(err.to_string(), "reward 1 is not finite (NaN)");
    }
}
