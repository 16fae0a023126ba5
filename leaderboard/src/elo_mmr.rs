//! Elo-MMR performance (phase 1 of Ebtekar and Liu, "Elo-MMR: A Rating System for
//! Massive Multiplayer Competitions", WWW 2021), logistic model: the performance `p` of
//! one entrant is the zero of
//! `Q(p) = sum_{j ahead or tied} -F_j(p) / s_j + sum_{j behind or tied} (1 - F_j(p)) / s_j`,
//! where `F_j(p) = 1 / (1 + exp(-(p - mu_j) / s_j))` and `s_j = sqrt(3) / pi *
//! sqrt(sig_j^2 + beta^2)`. A tie counts as a win and a loss.
//!
//! `Q` decreases strictly in `p`, so bisection finds the zero. With every `sig_j = 0` and
//! [`ELO_BETA`], `F_j` is the Elo win probability and, without ties, the zero is the
//! rating whose expected place `1 + sum_j P(j beats p)` equals the actual place: the same
//! number as [`crate::place::codeelo_rating`]; the uncertainties are what Elo-MMR adds
//! (an uncertain opponent weighs less).
//!
//! Only phase 1 is here: no belief update, no history.

use serde::{Deserialize, Serialize};

use crate::place::TiePolicy;
use crate::standings::{Rule, Score, compare};

/// The `beta` at which, with no uncertainty, the logistic curve is the Elo curve
/// (`400 pi / (sqrt 3 ln 10)`, about 315.1), Elo-MMR's default.
pub const ELO_BETA: f64 =
    400.0 * std::f64::consts::PI / (1.732_050_807_568_877_2 * std::f64::consts::LN_10);

/// The search range of the performance, as in Elo-MMR's solver.
pub const BOUNDS: (f64, f64) = (-6000.0, 9000.0);

/// What is believed of an opponent's skill: mean and standard deviation.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Belief {
    /// Mean rating.
    pub mu: f64,
    /// Uncertainty (standard deviation).
    pub sig: f64,
}

/// How an opponent finished relative to the entrant being rated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The opponent ranked ahead (the entrant lost to them).
    Ahead,
    /// The opponent tied with the entrant.
    Tied,
    /// The opponent ranked behind (the entrant beat them).
    Behind,
}

/// How each human finished against the model, for the Elo-MMR performance: a human with
/// the model's exact score is `Ahead` under `HumansAhead`, `Tied` under `Shared`.
pub fn outcomes(rule: &Rule, humans: &[Score], model: &Score, policy: TiePolicy) -> Vec<Outcome> {
    humans
        .iter()
        .map(|h| match (compare(rule, h, model), policy) {
            (std::cmp::Ordering::Less, _) => Outcome::Ahead,
            (std::cmp::Ordering::Equal, TiePolicy::HumansAhead) => Outcome::Ahead,
            (std::cmp::Ordering::Equal, TiePolicy::Shared) => Outcome::Tied,
            (std::cmp::Ordering::Greater, _) => Outcome::Behind,
        })
        .collect()
}

/// `Q(p)` above.
fn q(opponents: &[(Belief, Outcome)], beta: f64, p: f64) -> f64 {
    let scale = 3f64.sqrt() / std::f64::consts::PI;
    opponents
        .iter()
        .map(|&(belief, outcome)| {
            let s = scale * belief.sig.hypot(beta);
            let f = 1.0 / (1.0 + (-(p - belief.mu) / s).exp());
            match outcome {
                Outcome::Ahead => -f / s,
                Outcome::Behind => (1.0 - f) / s,
                Outcome::Tied => (1.0 - 2.0 * f) / s,
            }
        })
        .sum()
}

/// The Elo-MMR performance of an entrant against `opponents`, with per-contest noise
/// `beta` (use [`ELO_BETA`] for Elo's scale). `None` when it is unbounded: the entrant
/// beat everyone, or lost to everyone (or there are no opponents). The result is
/// clamped to [`BOUNDS`].
pub fn performance(opponents: &[(Belief, Outcome)], beta: f64) -> Option<f64> {
    let lost_or_tied = opponents.iter().any(|(_, o)| *o != Outcome::Behind);
    let won_or_tied = opponents.iter().any(|(_, o)| *o != Outcome::Ahead);
    if !lost_or_tied || !won_or_tied {
        return None;
    }
    let (mut lo, mut hi) = BOUNDS;
    if q(opponents, beta, hi) >= 0.0 {
        return Some(hi);
    }
    if q(opponents, beta, lo) <= 0.0 {
        return Some(lo);
    }
    while hi - lo > 1e-7 {
        let mid = (lo + hi) / 2.0;
        if q(opponents, beta, mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some((lo + hi) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_follow_the_tie_policy() {
        let rule = Rule::Ioi;
        let s = |points: f64, penalty: f64| Score {
            points,
            penalty,
            last_accept: 0.0,
        };
        let humans = [s(9.0, 0.0), s(5.0, 0.0), s(1.0, 0.0)];
        let model = s(5.0, 0.0);
        assert_eq!(
            outcomes(&rule, &humans, &model, TiePolicy::HumansAhead),
            vec![Outcome::Ahead, Outcome::Ahead, Outcome::Behind]
        );
        assert_eq!(
            outcomes(&rule, &humans, &model, TiePolicy::Shared),
            vec![Outcome::Ahead, Outcome::Tied, Outcome::Behind]
        );
    }

    fn field(ratings: &[f64], sig: f64, ahead: usize) -> Vec<(Belief, Outcome)> {
        ratings
            .iter()
            .enumerate()
            .map(|(i, &mu)| {
                let outcome = if i < ahead {
                    Outcome::Ahead
                } else {
                    Outcome::Behind
                };
                (Belief { mu, sig }, outcome)
            })
            .collect()
    }

    #[test]
    fn without_uncertainty_it_is_the_expected_place_rating() {
        let ratings: Vec<f64> = (0..200).map(|i| 800.0 + 9.0 * f64::from(i)).collect();
        for ahead in [1, 17, 100, 150, 199] {
            let mmr = performance(&field(&ratings, 0.0, ahead), ELO_BETA).expect("bounded");
            let codeelo =
                crate::place::codeelo_rating(&ratings, (ahead + 1) as f64, BOUNDS.0, BOUNDS.1);
            assert!((mmr - codeelo).abs() < 1e-4, "{ahead}: {mmr} vs {codeelo}");
        }
    }

    #[test]
    fn better_places_perform_better_and_extremes_are_unbounded() {
        let ratings: Vec<f64> = (0..50).map(|i| 1000.0 + 30.0 * f64::from(i)).collect();
        let perfs: Vec<f64> = (1..50)
            .map(|ahead| performance(&field(&ratings, 120.0, ahead), ELO_BETA).expect("bounded"))
            .collect();
        assert!(perfs.windows(2).all(|w| w[0] > w[1]), "{perfs:?}");
        assert_eq!(performance(&field(&ratings, 120.0, 0), ELO_BETA), None);
        assert_eq!(performance(&field(&ratings, 120.0, 50), ELO_BETA), None);
        assert_eq!(performance(&[], ELO_BETA), None);
    }

    #[test]
    fn a_tie_with_an_equal_is_an_even_result() {
        let even = [(
            Belief {
                mu: 1700.0,
                sig: 80.0,
            },
            Outcome::Tied,
        )];
        let p = performance(&even, ELO_BETA).expect("bounded");
        assert!((p - 1700.0).abs() < 1e-6, "{p}");
        // Beating one and losing to the other of two equals is also even.
        let split = [(even[0].0, Outcome::Ahead), (even[0].0, Outcome::Behind)];
        let p = performance(&split, ELO_BETA).expect("bounded");
        assert!((p - 1700.0).abs() < 1e-6, "{p}");
    }

    #[test]
    fn uncertainty_flattens_an_opponents_curve() {
        // Lost to a sure 2000, beat a 1000 whose rating is either sure or very uncertain.
        // Sure: the performance is midway. Uncertain: that opponent's curve is flatter,
        // so beating them was less certain an outcome, and the zero moves up.
        let sure = |mu| Belief { mu, sig: 0.0 };
        let with_sure_win = [
            (sure(2000.0), Outcome::Ahead),
            (sure(1000.0), Outcome::Behind),
        ];
        let with_doubtful_win = [
            (sure(2000.0), Outcome::Ahead),
            (
                Belief {
                    mu: 1000.0,
                    sig: 500.0,
                },
                Outcome::Behind,
            ),
        ];
        let a = performance(&with_sure_win, ELO_BETA).expect("bounded");
        let b = performance(&with_doubtful_win, ELO_BETA).expect("bounded");
        assert!((a - 1500.0).abs() < 1e-6, "{a}");
        assert!(b > a, "{a} {b}");
    }
}
