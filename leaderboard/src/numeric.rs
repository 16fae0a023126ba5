//! Statistics (the one module that uses statrs): bootstrap confidence intervals over
//! contests, the unbiased pass@k estimator, and the spread of repeated runs.

use rand::Rng;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::Serialize;
use statrs::statistics::{Data, OrderStatistics, Statistics};

/// A mean with a percentile-bootstrap confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    /// The sample mean.
    pub mean: f64,
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
    /// Confidence level, e.g. 0.95.
    pub level: f64,
}

/// Percentile bootstrap of the mean of `values` (e.g. per-contest ratings): `resamples`
/// resamples with replacement from a seeded generator, so the result is reproducible.
pub fn bootstrap_mean(values: &[f64], level: f64, resamples: usize, seed: u64) -> Option<Interval> {
    if values.is_empty() || !(0.0..1.0).contains(&level) || resamples == 0 {
        return None;
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let means: Vec<f64> = (0..resamples)
        .map(|_| {
            (0..values.len())
                .map(|_| values[rng.random_range(0..values.len())])
                .sum::<f64>()
                / values.len() as f64
        })
        .collect();
    let mut data = Data::new(means);
    let alpha = (1.0 - level) / 2.0;
    Some(Interval {
        mean: values.mean(),
        lo: data.quantile(alpha),
        hi: data.quantile(1.0 - alpha),
        level,
    })
}

/// The unbiased pass@k estimator of the Codex paper: `1 - C(n - c, k) / C(n, k)` for `c`
/// correct samples out of `n`, in the stable product form `1 - prod_{i=n-c+1}^{n} (1 - k/i)`.
pub fn pass_at_k(n: u64, c: u64, k: u64) -> Option<f64> {
    if c > n || k == 0 || k > n {
        return None;
    }
    if n - c < k {
        return Some(1.0);
    }
    let prod: f64 = ((n - c + 1)..=n)
        .map(|i| 1.0 - k as f64 / i as f64)
        .product();
    Some(1.0 - prod)
}

/// Mean, sample variance and standard deviation of repeated runs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spread {
    /// Mean.
    pub mean: f64,
    /// Unbiased sample variance (n - 1 in the denominator).
    pub variance: f64,
    /// Its square root.
    pub std_dev: f64,
}

/// The spread of repeated runs (at least two).
pub fn spread(values: &[f64]) -> Option<Spread> {
    if values.len() < 2 {
        return None;
    }
    Some(Spread {
        mean: values.mean(),
        variance: values.variance(),
        std_dev: values.std_dev(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binom(n: u64, k: u64) -> f64 {
        (0..k).map(|i| (n - i) as f64 / (i + 1) as f64).product()
    }

    #[test]
    fn pass_at_k_matches_the_binomial_form() {
        for (n, c, k) in [
            (10, 3, 1),
            (10, 3, 5),
            (200, 13, 10),
            (5, 0, 2),
            (20, 19, 2),
        ] {
            let direct = 1.0 - binom(n - c, k) / binom(n, k);
            let got = pass_at_k(n, c, k).expect("defined");
            assert!(
                (got - direct).abs() < 1e-12,
                "n={n} c={c} k={k}: {got} vs {direct}"
            );
        }
        assert!((pass_at_k(10, 3, 1).expect("defined") - 0.3).abs() < 1e-15);
        assert_eq!(pass_at_k(10, 9, 2), Some(1.0));
        assert_eq!(pass_at_k(3, 4, 1), None);
    }

    #[test]
    fn bootstrap_is_reproducible_and_brackets_the_mean() {
        let ratings = [1200.0, 1350.0, 1100.0, 1500.0, 1280.0, 1420.0, 1190.0];
        let one = bootstrap_mean(&ratings, 0.95, 2000, 7).expect("interval");
        let two = bootstrap_mean(&ratings, 0.95, 2000, 7).expect("interval");
        assert_eq!(one, two);
        assert!(one.lo < one.mean && one.mean < one.hi, "{one:?}");
        assert!(one.lo > 1100.0 && one.hi < 1500.0, "{one:?}");
        // More contests with the same spread give a narrower interval.
        let more: Vec<f64> = ratings.iter().cycle().take(70).copied().collect();
        let narrow = bootstrap_mean(&more, 0.95, 2000, 7).expect("interval");
        assert!(narrow.hi - narrow.lo < one.hi - one.lo);
    }

    #[test]
    fn spread_of_runs() {
        let s = spread(&[1.0, 2.0, 3.0, 4.0]).expect("spread");
        assert_eq!(s.mean, 2.5);
        assert!((s.variance - 5.0 / 3.0).abs() < 1e-12);
        assert!(spread(&[1.0]).is_none());
    }
}
