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
use crate::standings::{Rule, Score, compare};

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
