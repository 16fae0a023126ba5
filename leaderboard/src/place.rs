//! Placing a model among the humans of a contest, and the ratings derived from its place.
//!
//! The model's score is computed under the contest's rules from its per-problem results.
//! Tie policy ([`TiePolicy`]): a human with exactly the model's score is either counted
//! ahead of the model (`HumansAhead`, CodeElo's choice, the conservative one) or tied with
//! it (`Shared`). The output names the humans strictly ahead and tied, the 1-based place
//! range, and the percentile (the share of humans the model beat, ties counted half).
//!
//! Ratings, each under its own name so that nobody confuses them:
//! - `codeelo_rating`: CodeElo's expected-place rating: the rating `R` at which
//!   `1 + sum_i P(human i beats R)` equals the model's place (1-based, the worst place of
//!   its tie group), found by bisection; CodeElo's own code uses the 0-based count of humans
//!   ahead, which is one place more generous: [`codeelo_rating`] takes the place as given.
//! - `codeforces_performance`: the old rating at which the Codeforces formula would give
//!   the model a change of 0 in this round ([`crate::codeforces::performances`]).

use serde::{Deserialize, Serialize};

use crate::codeforces::win_probability;
use crate::numeric::{Interval, bootstrap_mean};
use crate::standings::{ProblemResult, Rule, Score, compare};
use crate::{Error, Result};

/// When the model's accepts happened: the policy must be declared, since it moves the
/// model's place (a model does not spend a human's minutes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Timing {
    /// Accept minutes as measured in a live run; every solved result carries one.
    Measured,
    /// Every accept at minute 0, as CodeElo does: only rejected attempts cost (10 or 20
    /// penalty minutes each under ICPC rules, 50 points each on a Codeforces points round).
    Instant,
}

/// The model's results with accept times set by `timing`; under `Measured`, a solved
/// result without `accept_minute` is an error naming the problem.
pub fn apply_timing(results: &[ProblemResult], timing: Timing) -> Result<Vec<ProblemResult>> {
    results
        .iter()
        .enumerate()
        .map(|(problem, it)| {
            let mut it = it.clone();
            if it.solved {
                match timing {
                    Timing::Instant => it.accept_minute = Some(0),
                    Timing::Measured if it.accept_minute.is_none() => {
                        return Err(Error::MissingAcceptTime { problem });
                    }
                    Timing::Measured => {}
                }
            }
            Ok(it)
        })
        .collect()
}

/// Whether humans with exactly the model's score are ahead of it or tied with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TiePolicy {
    /// Equal humans rank ahead of the model (CodeElo).
    HumansAhead,
    /// Equal humans share the model's place.
    Shared,
}

/// Where the model lands.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Placement {
    /// Humans strictly ahead.
    pub ahead: usize,
    /// Humans with the same score (ahead under `HumansAhead`, tied under `Shared`).
    pub equal: usize,
    /// Humans in the standings.
    pub humans: usize,
    /// Best 1-based place.
    pub place_lo: usize,
    /// Worst 1-based place (the one ratings use).
    pub place_hi: usize,
    /// Percent of humans the model beat, equal ones counted half (`Shared`) or as
    /// beating the model (`HumansAhead`).
    pub percentile: f64,
}

/// Places `model` among `humans` under `rule`.
pub fn place(rule: &Rule, humans: &[Score], model: &Score, policy: TiePolicy) -> Placement {
    let ahead = humans
        .iter()
        .filter(|h| compare(rule, h, model).is_lt())
        .count();
    let equal = humans
        .iter()
        .filter(|h| compare(rule, h, model).is_eq())
        .count();
    let n = humans.len();
    let (place_lo, place_hi, beaten) = match policy {
        TiePolicy::HumansAhead => (
            ahead + equal + 1,
            ahead + equal + 1,
            (n - ahead - equal) as f64,
        ),
        TiePolicy::Shared => (
            ahead + 1,
            ahead + equal + 1,
            (n - ahead - equal) as f64 + equal as f64 / 2.0,
        ),
    };
    let percentile = if n == 0 {
        100.0
    } else {
        100.0 * beaten / n as f64
    };
    Placement {
        ahead,
        equal,
        humans: n,
        place_lo,
        place_hi,
        percentile,
    }
}

/// CodeElo's summary over contests: the mean of the per-contest expected-place ratings,
/// a bootstrap interval over contests, and the mean's percentile in a rating population
/// the caller supplies (CodeElo used all rated Codeforces users).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CodeEloSummary {
    /// Contests averaged.
    pub contests: usize,
    /// Mean of the per-contest `codeelo_rating`s.
    pub codeelo_mean_rating: f64,
    /// Percentile bootstrap interval of that mean over contests (none for one contest).
    pub codeelo_mean_interval: Option<Interval>,
    /// Percent of the population strictly below the mean.
    pub percentile: f64,
    /// The percentiles of the interval's ends.
    pub percentile_interval: Option<(f64, f64)>,
}

/// Summarises per-contest CodeElo ratings; `None` without contests or population.
pub fn codeelo_summary(
    per_contest: &[f64],
    population: &[f64],
    level: f64,
    seed: u64,
) -> Option<CodeEloSummary> {
    if per_contest.is_empty() || population.is_empty() {
        return None;
    }
    let mean = per_contest.iter().sum::<f64>() / per_contest.len() as f64;
    let interval = if per_contest.len() > 1 {
        bootstrap_mean(per_contest, level, 10_000, seed)
    } else {
        None
    };
    Some(CodeEloSummary {
        contests: per_contest.len(),
        codeelo_mean_rating: mean,
        codeelo_mean_interval: interval,
        percentile: rating_percentile(population, mean),
        percentile_interval: interval.map(|i| {
            (
                rating_percentile(population, i.lo),
                rating_percentile(population, i.hi),
            )
        }),
    })
}

/// The rating `R` with `1 + sum_i P(r_i beats R) = place`, by bisection on `[lo, hi]`
/// (CodeElo searches integers in `[0, max rating + 100]`; this is the continuous
/// solution, clamped to the bounds given).
pub fn codeelo_rating(human_ratings: &[f64], place: f64, lo: f64, hi: f64) -> f64 {
    let expected = |r: f64| {
        1.0 + human_ratings
            .iter()
            .map(|&h| win_probability(h, r))
            .sum::<f64>()
    };
    let (mut lo, mut hi) = (lo, hi);
    if expected(hi) >= place {
        return hi;
    }
    if expected(lo) <= place {
        return lo;
    }
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if expected(mid) > place {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// Percent of `population` strictly below `rating` (CodeElo's `bisect_left` percentile).
pub fn rating_percentile(population: &[f64], rating: f64) -> f64 {
    if population.is_empty() {
        return 0.0;
    }
    100.0 * population.iter().filter(|&&r| r < rating).count() as f64 / population.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(points: f64, penalty: f64) -> Score {
        Score {
            points,
            penalty,
            last_accept: 0.0,
        }
    }

    #[test]
    fn placing_with_each_tie_policy() {
        let rule = Rule::Icpc {
            penalty_minutes: 20,
        };
        let humans = [
            s(5.0, 100.0),
            s(3.0, 50.0),
            s(3.0, 50.0),
            s(3.0, 60.0),
            s(1.0, 10.0),
        ];
        let model = s(3.0, 50.0);
        let ahead = place(&rule, &humans, &model, TiePolicy::HumansAhead);
        assert_eq!(
            (ahead.ahead, ahead.equal, ahead.place_lo, ahead.place_hi),
            (1, 2, 4, 4)
        );
        assert_eq!(ahead.percentile, 40.0);
        let shared = place(&rule, &humans, &model, TiePolicy::Shared);
        assert_eq!((shared.place_lo, shared.place_hi), (2, 4));
        assert_eq!(shared.percentile, 60.0);
    }

    #[test]
    fn timing_policies() {
        let solved = |minute| ProblemResult {
            solved: true,
            rejected: 2,
            accept_minute: minute,
            points: None,
        };
        let results = vec![solved(Some(30)), ProblemResult::default()];
        let instant = apply_timing(&results, Timing::Instant).expect("instant");
        assert_eq!(instant[0].accept_minute, Some(0));
        assert_eq!(instant[1], ProblemResult::default());
        let rule = Rule::Icpc {
            penalty_minutes: 10,
        };
        // Instant: only the two rejected attempts cost; measured: 30 minutes more.
        assert_eq!(rule.score(&instant, &[]).penalty, 20.0);
        let measured = apply_timing(&results, Timing::Measured).expect("measured");
        assert_eq!(rule.score(&measured, &[]).penalty, 50.0);
        let err = apply_timing(&[ProblemResult::default(), solved(None)], Timing::Measured)
            .expect_err("no time");
        assert!(
            err.to_string().starts_with("model result, problem 1 "),
            "{err}"
        );
    }

    #[test]
    fn codeelo_summary_over_contests() {
        let population: Vec<f64> = (0..1000).map(f64::from).map(|i| 500.0 + 2.0 * i).collect();
        let one = codeelo_summary(&[1300.0], &population, 0.95, 1).expect("summary");
        assert_eq!(one.codeelo_mean_rating, 1300.0);
        assert_eq!(one.percentile, 40.0);
        assert!(one.codeelo_mean_interval.is_none());
        let many = codeelo_summary(&[1100.0, 1300.0, 1500.0, 1250.0], &population, 0.95, 1)
            .expect("summary");
        let interval = many.codeelo_mean_interval.expect("interval");
        let (lo, hi) = many.percentile_interval.expect("percentiles");
        assert!(interval.lo < 1287.5 && 1287.5 < interval.hi, "{interval:?}");
        assert!(lo < many.percentile && many.percentile < hi, "{many:?}");
        assert!(codeelo_summary(&[], &population, 0.95, 1).is_none());
    }

    #[test]
    fn expected_place_rating() {
        // Against one human rated 1500, place 1.5 means an even match.
        let r = codeelo_rating(&[1500.0], 1.5, 0.0, 4000.0);
        assert!((r - 1500.0).abs() < 1e-6, "{r}");
        // A better place needs a higher rating; the bounds clamp.
        let humans: Vec<f64> = (0..100).map(|i| 1000.0 + 10.0 * f64::from(i)).collect();
        let good = codeelo_rating(&humans, 10.0, 0.0, 4000.0);
        let bad = codeelo_rating(&humans, 90.0, 0.0, 4000.0);
        assert!(good > bad);
        assert_eq!(codeelo_rating(&humans, 1.0, 0.0, 2100.0), 2100.0);
        assert_eq!(rating_percentile(&[1.0, 2.0, 3.0, 4.0], 3.0), 50.0);
    }
}
