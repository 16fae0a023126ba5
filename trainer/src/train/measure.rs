//! The measures of an evaluation, per problem and over problems, each with its 95%
//! interval.
//!
//! A problem's scored episodes (judge errors left out) are `n` draws of the model on it;
//! `c` of them solved it (every hidden test passed). Per problem:
//! - **pass@1** is `c / n`.
//! - **pass@k** (k = 1, 2, 4, 8; only for k <= n) is the unbiased estimator of the chance
//!   that at least one of k draws solves it, `1 - C(n-c, k) / C(n, k)` (Chen et al. 2021),
//!   [`pass_at_k`]; pass@1 is its k = 1 case.
//! - **tests passed** is the mean over the episodes of the fraction of the hidden tests
//!   that the episode's last submission passed (0 for an episode that never submitted);
//!   it moves when a program gets closer to correct before it is correct.
//! - **compiled** is the share of the episodes whose program compiled.
//!
//! A problem's own interval: the Wilson score interval of its draws for pass@1 and the
//! compiled share ([`wilson`]); for pass@k the Wilson interval of the solve rate `p`
//! mapped through `1 - (1 - p)^k`, the quantity the estimator estimates; for tests passed
//! a bootstrap over the problem's episodes (which, like any percentile bootstrap, is a
//! single point when every episode scored the same).
//!
//! Over problems ([`Measures`]) each measure is the mean of the problems' values (pass@k
//! only where every problem of the group has at least k scored episodes), with a
//! bootstrap interval over problems ([`super::bootstrap::single`]: [`RESAMPLES`]
//! resamples, seed [`SEED`]), for all problems and for the in-family and out-of-family
//! ones apart ([`Summary`]): a held-out problem is in-family when its family occurs among
//! the training problems' families.

use std::collections::BTreeMap;

use super::bootstrap::{self, Interval, LEVEL};

/// The k of pass@k.
pub const KS: [usize; 4] = [1, 2, 4, 8];

/// Bootstrap resamples of an evaluation's intervals.
pub const RESAMPLES: usize = 10_000;

/// The bootstrap's seed of an evaluation's intervals (fixed, so an evaluation's
/// intervals depend on its results only).
pub const SEED: u64 = 0x5EED_E7A1;

/// The normal quantile of the two-sided 95% level.
const Z95: f64 = 1.959_963_984_540_054;

/// The unbiased estimator of pass@k from `c` solved of `n` draws: `1 - C(n-c, k) / C(n, k)`
/// (`None` when k is 0 or more than n, or c more than n). Computed as a product of
/// ratios, so large n does not overflow.
pub fn pass_at_k(n: usize, c: usize, k: usize) -> Option<f64> {
    if k == 0 || k > n || c > n {
        return None;
    }
    if n - c < k {
        return Some(1.0);
    }
    // C(n-c, k) / C(n, k) = prod over i < k of (n - c - i) / (n - i).
    let unsolved: f64 = (0..k)
        .map(|i| (n - c - i) as f64 / (n - i) as f64)
        .product();
    Some(1.0 - unsolved)
}

/// The Wilson score interval (95%) of `successes` of `n` draws, with the observed rate
/// as its estimate (`n` must be at least 1).
pub fn wilson(successes: usize, n: usize) -> Interval {
    let n_f = n as f64;
    let p = successes as f64 / n_f;
    let z2 = Z95 * Z95;
    let scale = 1.0 + z2 / n_f;
    let center = (p + z2 / (2.0 * n_f)) / scale;
    let half = Z95 / scale * (p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt();
    Interval {
        estimate: p,
        low: (center - half).max(0.0),
        high: (center + half).min(1.0),
    }
}

/// One problem's measures with their intervals.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ProblemMeasures {
    /// The solved share of the episodes.
    pub pass_at_1: Interval,
    /// The mean fraction of hidden tests passed.
    pub tests_passed: Interval,
    /// The share of the episodes whose program compiled.
    pub compiled: Interval,
    /// pass@k by k (k at most the scored episodes).
    pub pass_at_k: BTreeMap<usize, Interval>,
}

/// A problem's measures from its scored episodes: `solved` and `compiled` counts and
/// each episode's fraction of hidden tests passed (`None` without a scored episode).
pub fn problem_measures(solved: usize, compiled: usize, tests: &[f64]) -> Option<ProblemMeasures> {
    let n = tests.len();
    if n == 0 {
        return None;
    }
    let rate = wilson(solved, n);
    let pass_at_k = KS
        .iter()
        .filter_map(|&k| {
            let estimate = pass_at_k(n, solved, k)?;
            if k == 1 {
                return Some((k, rate));
            }
            let map = |p: f64| 1.0 - (1.0 - p).powi(k as i32);
            // The unbiased estimate can lie a little outside the mapped interval (it is
            // not the plug-in 1 - (1 - c/n)^k): the interval is widened to hold it.
            Some((
                k,
                Interval {
                    estimate,
                    low: map(rate.low).min(estimate),
                    high: map(rate.high).max(estimate),
                },
            ))
        })
        .collect();
    Some(ProblemMeasures {
        pass_at_1: rate,
        tests_passed: bootstrap::single(tests, RESAMPLES, SEED)
            .expect("invariant: fractions of tests are finite and there is one"),
        compiled: wilson(compiled, n),
        pass_at_k,
    })
}

/// One problem as the measures over problems see it.
#[derive(Debug, Clone, PartialEq)]
pub struct ProblemValues {
    /// Scored episodes.
    pub samples: usize,
    /// Solved ones.
    pub passed: usize,
    /// Ones whose program compiled.
    pub compiled: usize,
    /// The mean fraction of hidden tests passed (`None` in files written before it was
    /// recorded).
    pub tests_passed: Option<f64>,
}

impl ProblemValues {
    /// The problem's value of `measure` (`None`: not defined for it).
    pub fn value(&self, measure: Measure) -> Option<f64> {
        if self.samples == 0 {
            return None;
        }
        let n = self.samples as f64;
        match measure {
            Measure::PassAtK(k) => pass_at_k(self.samples, self.passed, k),
            Measure::TestsPassed => self.tests_passed,
            Measure::Compiled => Some(self.compiled as f64 / n),
        }
    }
}

/// A measure over problems.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// pass@k (pass@1 is `PassAtK(1)`).
    PassAtK(usize),
    /// The mean fraction of hidden tests passed.
    TestsPassed,
    /// The compiled share.
    Compiled,
}

impl Measure {
    /// Every measure, pass@1 first.
    pub fn all() -> Vec<Measure> {
        let mut all: Vec<Measure> = KS.iter().map(|&k| Measure::PassAtK(k)).collect();
        all.insert(1, Measure::TestsPassed);
        all.insert(2, Measure::Compiled);
        all
    }

    /// Its name in reports: `pass_at_1`, `tests_passed`, `compiled`, `pass_at_2`, ...
    pub fn name(self) -> String {
        match self {
            Measure::PassAtK(k) => format!("pass_at_{k}"),
            Measure::TestsPassed => "tests_passed".to_owned(),
            Measure::Compiled => "compiled".to_owned(),
        }
    }

    /// The problems' values, or `None` when a problem lacks one (a group's mean is over
    /// all its problems or not given).
    pub fn values(self, problems: &[&ProblemValues]) -> Option<Vec<f64>> {
        problems.iter().map(|p| p.value(self)).collect()
    }
}

/// The measures of a group of problems (their means, with bootstrap intervals over the
/// problems).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Measures {
    /// Problems with a scored episode (the others are left out).
    pub problems: usize,
    /// The mean solved share.
    pub pass_at_1: Interval,
    /// The mean fraction of hidden tests passed.
    pub tests_passed: Option<Interval>,
    /// The mean compiled share.
    pub compiled: Interval,
    /// The mean pass@k by k (k where every problem has at least k scored episodes).
    pub pass_at_k: BTreeMap<usize, Interval>,
}

/// The measures of `problems` (those without a scored episode left out; `None` when
/// none is left), with `resamples` bootstrap resamples from `seed`.
pub fn measures(problems: &[&ProblemValues], resamples: usize, seed: u64) -> Option<Measures> {
    let scored: Vec<&ProblemValues> = problems.iter().copied().filter(|p| p.samples > 0).collect();
    if scored.is_empty() {
        return None;
    }
    let interval = |m: Measure| {
        let values = m.values(&scored)?;
        Some(
            bootstrap::single(&values, resamples, seed)
                .expect("invariant: finite values of at least one problem"),
        )
    };
    Some(Measures {
        problems: scored.len(),
        pass_at_1: interval(Measure::PassAtK(1))?,
        tests_passed: interval(Measure::TestsPassed),
        compiled: interval(Measure::Compiled)?,
        pass_at_k: KS
            .iter()
            .filter_map(|&k| Some((k, interval(Measure::PassAtK(k))?)))
            .collect(),
    })
}

/// An evaluation's measures over problems: overall, in-family and out-of-family.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Summary {
    /// How the intervals were made.
    pub method: String,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// The bootstrap's seed.
    pub seed: u64,
    /// The intervals' coverage.
    pub level: f64,
    /// Every problem (`None`: no problem had a scored episode).
    pub overall: Option<Measures>,
    /// The problems whose family occurs in training (`None`: none, or unknown).
    pub in_family: Option<Measures>,
    /// The problems whose family never occurs in training.
    pub out_of_family: Option<Measures>,
}

/// The summary of `problems`, each with whether it is in-family (`None`: unknown, counted
/// in `overall` only).
pub fn summary(problems: &[(ProblemValues, Option<bool>)]) -> Summary {
    let group = |want: Option<bool>| {
        let chosen: Vec<&ProblemValues> = problems
            .iter()
            .filter(|(_, in_family)| want.is_none() || *in_family == want)
            .map(|(p, _)| p)
            .collect();
        measures(&chosen, RESAMPLES, SEED)
    };
    Summary {
        method: format!(
            "mean over problems of each problem's value from its samples; percentile bootstrap over problems, {RESAMPLES} resamples, seed {SEED}"
        ),
        resamples: RESAMPLES,
        seed: SEED,
        level: LEVEL,
        overall: group(None),
        in_family: group(Some(true)),
        out_of_family: group(Some(false)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-9, "{a} != {b}");
    }

    #[test]
    fn pass_at_k_against_hand_computed_values() {
        // n = 8, c = 1, k = 2: 1 - C(7,2)/C(8,2) = 1 - 21/28.
        close(pass_at_k(8, 1, 2).expect("defined"), 0.25);
        // n = 8, c = 2, k = 4: 1 - C(6,4)/C(8,4) = 1 - 15/70.
        close(pass_at_k(8, 2, 4).expect("defined"), 55.0 / 70.0);
        // n = 10, c = 3, k = 8: C(7,8) = 0, so certain.
        close(pass_at_k(10, 3, 8).expect("defined"), 1.0);
        // n = 20, c = 2, k = 8: 1 - C(18,8)/C(20,8) = 1 - 43758/125970.
        close(
            pass_at_k(20, 2, 8).expect("defined"),
            1.0 - 43758.0 / 125_970.0,
        );
        // pass@1 is the solved share; none solved is 0; all solved is 1.
        close(pass_at_k(8, 3, 1).expect("defined"), 3.0 / 8.0);
        close(pass_at_k(8, 0, 8).expect("defined"), 0.0);
        close(pass_at_k(8, 8, 8).expect("defined"), 1.0);
        // One solved of eight, eight draws: it is among them.
        close(pass_at_k(8, 1, 8).expect("defined"), 1.0);
        assert_eq!(pass_at_k(4, 1, 8), None, "k above n");
        assert_eq!(pass_at_k(4, 1, 0), None);
        assert_eq!(pass_at_k(4, 5, 1), None);
    }

    #[test]
    fn wilson_intervals_against_known_values() {
        // 0 of 8: [0, 0.3244] (the upper end is z^2 / (n + z^2)).
        let none = wilson(0, 8);
        close(none.low, 0.0);
        close(none.high, Z95 * Z95 / (8.0 + Z95 * Z95));
        assert!((none.high - 0.3244).abs() < 1e-4, "{none:?}");
        // 8 of 8 mirrors it.
        let all = wilson(8, 8);
        close(all.high, 1.0);
        close(all.low, 1.0 - none.high);
        // 5 of 10: symmetric around 0.5, [0.2366, 0.7634].
        let half = wilson(5, 10);
        close(half.estimate, 0.5);
        assert!((half.low - 0.2366).abs() < 1e-4, "{half:?}");
        close(half.low + half.high, 1.0);
    }

    #[test]
    fn a_problems_measures_and_their_intervals() {
        let m =
            problem_measures(1, 6, &[1.0, 0.5, 0.0, 0.0, 0.25, 0.25, 0.0, 0.0]).expect("scored");
        close(m.pass_at_1.estimate, 0.125);
        close(m.compiled.estimate, 0.75);
        close(m.tests_passed.estimate, 0.25);
        assert!(
            m.tests_passed.low < 0.25 && m.tests_passed.high > 0.25,
            "{m:?}"
        );
        assert_eq!(m.pass_at_k.keys().copied().collect::<Vec<_>>(), KS);
        close(m.pass_at_k[&2].estimate, 0.25);
        close(m.pass_at_k[&8].estimate, 1.0);
        for (k, i) in &m.pass_at_k {
            assert!(
                i.low <= i.estimate && i.estimate <= i.high,
                "pass@{k}: {i:?}"
            );
        }
        assert_eq!(m.pass_at_k[&1], m.pass_at_1);
        // Four episodes: no pass@8.
        let short = problem_measures(0, 0, &[0.0; 4]).expect("scored");
        assert_eq!(
            short.pass_at_k.keys().copied().collect::<Vec<_>>(),
            [1, 2, 4]
        );
        assert_eq!(problem_measures(0, 0, &[]), None);
    }

    fn values(samples: usize, passed: usize, tests: Option<f64>) -> ProblemValues {
        ProblemValues {
            samples,
            passed,
            compiled: samples,
            tests_passed: tests,
        }
    }

    #[test]
    fn group_measures_are_means_over_problems_by_family() {
        let problems = [
            (values(8, 2, Some(0.5)), Some(true)),
            (values(8, 0, Some(0.0)), Some(true)),
            (values(8, 8, Some(1.0)), Some(false)),
            // No scored episode: left out everywhere.
            (values(0, 0, None), Some(false)),
        ];
        let s = summary(&problems);
        let all = s.overall.expect("overall");
        assert_eq!(all.problems, 3);
        close(all.pass_at_1.estimate, (0.25 + 0.0 + 1.0) / 3.0);
        close(all.tests_passed.expect("tests").estimate, 0.5);
        close(all.compiled.estimate, 1.0);
        close(
            all.pass_at_k[&2].estimate,
            (pass_at_k(8, 2, 2).expect("defined") + 1.0) / 3.0,
        );
        let inside = s.in_family.expect("in-family");
        assert_eq!(inside.problems, 2);
        close(inside.pass_at_1.estimate, 0.125);
        let outside = s.out_of_family.expect("out-of-family");
        assert_eq!(outside.problems, 1);
        assert_eq!(
            outside.pass_at_1,
            Interval {
                estimate: 1.0,
                low: 1.0,
                high: 1.0
            }
        );
        assert!(s.method.contains("10000 resamples"), "{}", s.method);
        // A problem with fewer episodes than k, or without the tests fraction (an old
        // file), leaves that measure out of the group rather than biasing it.
        let mixed = [values(8, 1, Some(0.1)), values(4, 1, None)];
        let m = measures(&[&mixed[0], &mixed[1]], 100, 1).expect("scored");
        assert_eq!(m.pass_at_k.keys().copied().collect::<Vec<_>>(), [1, 2, 4]);
        assert_eq!(m.tests_passed, None);
        assert_eq!(measures(&[&values(0, 0, None)], 100, 1), None);
        assert_eq!(
            Measure::all().iter().map(|m| m.name()).collect::<Vec<_>>(),
            [
                "pass_at_1",
                "tests_passed",
                "compiled",
                "pass_at_2",
                "pass_at_4",
                "pass_at_8"
            ]
        );
    }
}
