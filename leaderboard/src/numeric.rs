//! Statistics (the one module that uses statrs): bootstrap confidence intervals over
//! contests, the unbiased pass@k estimator, the spread of repeated runs, and Welch's
//! t-test of the difference between two sets of runs.

use rand::Rng;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::Serialize;
use statrs::distribution::{ContinuousCDF, StudentsT};
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

/// Welch's t-test of `mean(a) - mean(b)` for two independent samples with possibly
/// different variances.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Welch {
    /// `mean(a) - mean(b)`.
    pub difference: f64,
    /// The t statistic: the difference over its standard error.
    pub t: f64,
    /// The Welch–Satterthwaite degrees of freedom.
    pub df: f64,
    /// The two-sided p-value of "no difference".
    pub p: f64,
    /// Lower bound of the difference's confidence interval.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
    /// Its confidence level, e.g. 0.95.
    pub level: f64,
}

/// Welch's t-test and the `level` confidence interval of the difference of means (each
/// sample needs at least 2 values; `None` when either has fewer, or when both are constant,
/// so the standard error is 0).
pub fn welch(a: &[f64], b: &[f64], level: f64) -> Option<Welch> {
    let (sa, sb) = (spread(a)?, spread(b)?);
    if !(0.0..1.0).contains(&level) {
        return None;
    }
    let (va, vb) = (sa.variance / a.len() as f64, sb.variance / b.len() as f64);
    let se = (va + vb).sqrt();
    if se.is_nan() || se <= 0.0 {
        return None;
    }
    let difference = sa.mean - sb.mean;
    let t = difference / se;
    let df = (va + vb).powi(2)
        / (va.powi(2) / (a.len() as f64 - 1.0) + vb.powi(2) / (b.len() as f64 - 1.0));
    let dist = StudentsT::new(0.0, 1.0, df).ok()?;
    let p = 2.0 * (1.0 - dist.cdf(t.abs()));
    let q = dist.inverse_cdf(1.0 - (1.0 - level) / 2.0);
    Some(Welch {
        difference,
        t,
        df,
        p,
        lo: difference - q * se,
        hi: difference + q * se,
        level,
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

    #[test]
    fn welch_matches_a_worked_example() {
        // Reference values from scipy 1.17: stats.ttest_ind(a, b, equal_var=False), its
        // statistic, pvalue, df and confidence_interval(0.95).
        let a = [19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0];
        let b = [
            28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7, 23.2, 17.5, 20.6, 18.0,
            23.9, 21.6, 24.3, 20.4, 24.0, 13.2,
        ];
        let w = welch(&a, &b, 0.95).expect("defined");
        let close = |x: f64, y: f64, tol: f64| assert!((x - y).abs() < tol, "{x} vs {y}");
        close(w.difference, 19.37 - 21.59, 1e-9);
        close(w.t, -2.219_240_915_823_623, 1e-9);
        close(w.df, 24.496_223_124_201_244, 1e-9);
        close(w.p, 0.035_972_271_029_796_92, 1e-7);
        close(w.lo, -4.282_393_535_504_645, 1e-7);
        close(w.hi, -0.157_606_464_495_352_76, 1e-7);
        // Swapping the samples flips the sign, not the p-value.
        let v = welch(&b, &a, 0.95).expect("defined");
        close(v.t, -w.t, 1e-12);
        close(v.p, w.p, 1e-12);
        assert!(welch(&[1.0], &b, 0.95).is_none());
        assert!(welch(&[1.0, 1.0], &[2.0, 2.0], 0.95).is_none());
    }
}
