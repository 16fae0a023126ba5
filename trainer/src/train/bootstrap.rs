//! The bootstrap behind the intervals of `trainer eval` ([`single`]) and `trainer report`
//! ([`paired`]).
//!
//! The unit is the problem: each problem has a rate before and after (its solved fraction
//! over its samples). A resample draws as many problems as there are, with replacement,
//! keeping each problem's two rates together (paired), and takes the mean before, the
//! mean after and their difference. A 95% interval is the 2.5th and 97.5th percentiles of
//! the resampled statistics (linear interpolation between order statistics). The draws
//! come from a seeded splitmix64 stream, so a seed gives the same intervals.
//!
//! [`single`] is the same over one evaluation: a resample draws problems with replacement
//! and takes the mean of their values (a measure per problem, e.g. its solved fraction).
//!
//! Pairing is what makes the difference's interval narrow when the same problems are easy
//! or hard for both models; the interval speaks of the population of problems the set
//! stands for, not of the sampling noise within a problem (each rate is taken as it is).

use crate::rng::mix;

/// A statistic with its interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Interval {
    /// The statistic on the problems as they are.
    pub estimate: f64,
    /// The interval's lower end.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
}

/// The paired bootstrap's three intervals.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Paired {
    /// The mean rate before.
    pub before: Interval,
    /// The mean rate after.
    pub after: Interval,
    /// After minus before.
    pub difference: Interval,
}

/// Input the bootstrap cannot use.
#[derive(Debug, thiserror::Error)]
#[error("bootstrap: {0}")]
pub struct BootstrapError(String);

/// The coverage of the intervals.
pub const LEVEL: f64 = 0.95;

/// The `p`-quantile of sorted `values` (linear interpolation between order statistics).
fn quantile(sorted: &[f64], p: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * p;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    sum / n as f64
}

fn interval(estimate: f64, mut draws: Vec<f64>) -> Interval {
    draws.sort_by(f64::total_cmp);
    let tail = (1.0 - LEVEL) / 2.0;
    Interval {
        estimate,
        low: quantile(&draws, tail),
        high: quantile(&draws, 1.0 - tail),
    }
}

/// Calls `each` with the indices of `resamples` resamples of `n` items drawn with
/// replacement from the seeded stream.
fn resample(n: usize, resamples: usize, seed: u64, mut each: impl FnMut(&[usize])) {
    let mut state = mix(seed);
    let mut picks = vec![0usize; n];
    for _ in 0..resamples {
        for pick in &mut picks {
            state = mix(state);
            // The high bits of a 64x64 product: an index in 0..n.
            *pick = ((u128::from(state) * n as u128) >> 64) as usize;
        }
        each(&picks);
    }
}

/// The bootstrap of the mean of `values` (one per problem) with `resamples` resamples
/// drawn from `seed`.
pub fn single(values: &[f64], resamples: usize, seed: u64) -> Result<Interval, BootstrapError> {
    if values.is_empty() {
        return Err(BootstrapError("no problems".to_owned()));
    }
    if resamples == 0 {
        return Err(BootstrapError("resamples must be at least 1".to_owned()));
    }
    if let Some(v) = values.iter().find(|v| !v.is_finite()) {
        return Err(BootstrapError(format!("a value is not a number: {v}")));
    }
    let mut draws = Vec::with_capacity(resamples);
    resample(values.len(), resamples, seed, |picks| {
        draws.push(mean(picks.iter().map(|&i| values[i])));
    });
    Ok(interval(mean(values.iter().copied()), draws))
}

/// The paired bootstrap of `before[i]`, `after[i]` (problem i's rates) with `resamples`
/// resamples drawn from `seed`.
pub fn paired(
    before: &[f64],
    after: &[f64],
    resamples: usize,
    seed: u64,
) -> Result<Paired, BootstrapError> {
    if before.len() != after.len() {
        return Err(BootstrapError(format!(
            "{} rates before and {} after: they must be paired",
            before.len(),
            after.len()
        )));
    }
    if before.is_empty() {
        return Err(BootstrapError("no problems".to_owned()));
    }
    if resamples == 0 {
        return Err(BootstrapError("resamples must be at least 1".to_owned()));
    }
    if let Some(v) = before.iter().chain(after).find(|v| !v.is_finite()) {
        return Err(BootstrapError(format!("a rate is not a number: {v}")));
    }
    let (mut b, mut a, mut d) = (
        Vec::with_capacity(resamples),
        Vec::with_capacity(resamples),
        Vec::with_capacity(resamples),
    );
    resample(before.len(), resamples, seed, |picks| {
        let mb = mean(picks.iter().map(|&i| before[i]));
        let ma = mean(picks.iter().map(|&i| after[i]));
        b.push(mb);
        a.push(ma);
        d.push(ma - mb);
    });
    let mb = mean(before.iter().copied());
    let ma = mean(after.iter().copied());
    Ok(Paired {
        before: interval(mb, b),
        after: interval(ma, a),
        difference: interval(ma - mb, d),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_rates_give_a_zero_difference_with_a_zero_interval() {
        let rates = [0.0, 0.25, 0.5, 1.0, 0.75];
        let p = paired(&rates, &rates, 2000, 3).expect("bootstrap");
        assert_eq!(
            p.difference,
            Interval {
                estimate: 0.0,
                low: 0.0,
                high: 0.0
            }
        );
        assert_eq!(p.before, p.after);
        assert!((p.before.estimate - 0.5).abs() < 1e-12);
        assert!(p.before.low < 0.5 && p.before.high > 0.5, "{p:?}");
        assert!(p.before.low >= 0.0 && p.before.high <= 1.0, "{p:?}");
    }

    #[test]
    fn every_problem_improving_puts_the_interval_above_zero() {
        let before = [0.0, 0.1, 0.5, 0.2, 0.0, 0.9];
        let after = [0.2, 0.3, 0.6, 0.5, 0.1, 1.0];
        let p = paired(&before, &after, 5000, 11).expect("bootstrap");
        // Every resample's difference is a mean of positive gains: at least the least, 0.1.
        assert!(p.difference.low >= 0.1 - 1e-12, "{p:?}");
        assert!(p.difference.high <= 0.3 + 1e-12, "{p:?}");
        assert!((p.difference.estimate - 1.0 / 6.0).abs() < 1e-12, "{p:?}");
    }

    #[test]
    fn a_seed_gives_the_same_intervals_and_another_seed_others() {
        let before = [0.0, 0.5, 1.0, 0.25, 0.0, 0.75, 0.5];
        let after = [0.5, 0.5, 0.75, 0.25, 0.25, 1.0, 0.0];
        let one = paired(&before, &after, 1000, 42).expect("bootstrap");
        assert_eq!(one, paired(&before, &after, 1000, 42).expect("bootstrap"));
        assert_ne!(one, paired(&before, &after, 1000, 43).expect("bootstrap"));
        assert!(one.difference.low < one.difference.estimate);
        assert!(one.difference.estimate < one.difference.high);
    }

    #[test]
    fn the_single_bootstrap_on_known_data() {
        // Equal values: every resample's mean is that value.
        let flat = single(&[0.25; 6], 1000, 1).expect("bootstrap");
        assert_eq!(
            flat,
            Interval {
                estimate: 0.25,
                low: 0.25,
                high: 0.25
            }
        );
        // Half zeros, half ones over 40 problems: the mean of 40 fair coins, whose 95%
        // interval is about 0.5 +- 1.96 * sqrt(0.25 / 40) = [0.345, 0.655].
        let coins: Vec<f64> = (0..40).map(|i| f64::from(i % 2)).collect();
        let i = single(&coins, 10_000, 7).expect("bootstrap");
        assert!((i.estimate - 0.5).abs() < 1e-12, "{i:?}");
        assert!(
            (i.low - 0.345).abs() < 0.03 && (i.high - 0.655).abs() < 0.03,
            "{i:?}"
        );
        assert_eq!(i, single(&coins, 10_000, 7).expect("bootstrap"), "seeded");
        // A single bootstrap draws the same problems as a paired one with the same seed.
        let p = paired(&coins, &coins, 10_000, 7).expect("bootstrap");
        assert_eq!(p.before, i);
        assert!(single(&[], 10, 1).is_err());
        assert!(single(&[0.5], 0, 1).is_err());
        assert!(single(&[f64::INFINITY], 10, 1).is_err());
    }

    #[test]
    fn the_quantile_interpolates_and_bad_input_is_named() {
        let sorted = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(quantile(&sorted, 0.0), 1.0);
        assert_eq!(quantile(&sorted, 0.5), 3.0);
        assert_eq!(quantile(&sorted, 0.125), 1.5);
        assert_eq!(quantile(&sorted, 1.0), 5.0);
        let err = paired(&[0.5], &[0.5, 0.5], 10, 1).expect_err("unpaired");
        assert!(err.to_string().contains("paired"), "{err}");
        assert!(paired(&[], &[], 10, 1).is_err());
        assert!(paired(&[0.5], &[0.5], 0, 1).is_err());
        assert!(paired(&[f64::NAN], &[0.5], 10, 1).is_err());
    }
}
