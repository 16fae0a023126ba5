//! The benchmark of the Codeforces rating: seeded synthetic rounds, rated by the tabulated
//! implementation ([`codeforces::rating_changes`]) and by the quadratic transcription of
//! the formula ([`codeforces::rating_changes_quadratic`]), timed in one run.
//!
//! The timings are wall-clock seconds of this process; the rounds are the same for a
//! given seed on every machine.

use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;

use crate::codeforces::{self, Row};

/// A seeded synthetic round of `n` contestants: old ratings roughly bell-shaped around
/// 1500 (the sum of four uniform draws from 0..750), points in steps of 10 below 3000, so
/// many contestants tie.
pub fn synthetic_round(n: usize, seed: u64) -> Vec<Row> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|i| {
            let bell: i32 = (0..4).map(|_| rng.random_range(0..750)).sum();
            Row {
                handle: format!("c{i}"),
                points: f64::from(rng.random_range(0..3000) / 10 * 10),
                penalty: 0.0,
                old_rating: bell,
                delta: None,
            }
        })
        .collect()
}

/// Both implementations on one synthetic round.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Comparison {
    /// Contestants in the round.
    pub contestants: usize,
    /// Seconds of [`codeforces::rating_changes`].
    pub tabulated_seconds: f64,
    /// Seconds of [`codeforces::rating_changes_quadratic`].
    pub quadratic_seconds: f64,
    /// Whether both gave the same changes.
    pub same_changes: bool,
}

/// Rates the synthetic round of `contestants` (seeded by `seed`) with both
/// implementations.
pub fn compare(contestants: usize, seed: u64) -> Comparison {
    let rows = synthetic_round(contestants, seed);
    let (fast, tabulated_seconds) = timed(|| codeforces::rating_changes(&rows));
    let (slow, quadratic_seconds) = timed(|| codeforces::rating_changes_quadratic(&rows));
    Comparison {
        contestants,
        tabulated_seconds,
        quadratic_seconds,
        same_changes: fast == slow,
    }
}

/// The tabulated implementation alone on one (large) synthetic round.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LargeRound {
    /// Contestants in the round.
    pub contestants: usize,
    /// Seconds of [`codeforces::rating_changes`].
    pub changes_seconds: f64,
    /// Seconds of [`codeforces::performances`] for every contestant.
    pub performances_seconds: f64,
}

/// Rates the synthetic round of `contestants` (seeded by `seed`) with the tabulated
/// implementation, changes and performances.
pub fn large_round(contestants: usize, seed: u64) -> LargeRound {
    let rows = synthetic_round(contestants, seed);
    let ((), changes_seconds) = timed(|| drop(codeforces::rating_changes(&rows)));
    let ((), performances_seconds) = timed(|| drop(codeforces::performances(&rows)));
    LargeRound {
        contestants,
        changes_seconds,
        performances_seconds,
    }
}

/// What `f` returns, and the seconds it took.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = Instant::now();
    let res = f();
    (res, start.elapsed().as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthetic_rounds_are_seeded_and_in_range() {
        let round = synthetic_round(200, 7);
        assert_eq!(round, synthetic_round(200, 7));
        assert_ne!(round, synthetic_round(200, 8));
        assert_eq!(round[199].handle, "c199");
        for row in &round {
            assert!((0..3000).contains(&row.old_rating), "{row:?}");
            assert!(row.points < 3000.0 && row.points % 10.0 == 0.0, "{row:?}");
        }
    }

    #[test]
    fn both_implementations_agree_on_a_small_round() {
        let it = compare(60, 7);
        assert_eq!(it.contestants, 60);
        assert!(it.same_changes);
        // The seconds are measurements, not specifications: BENCHMARKS.md reports them,
        // and no test asserts a time.
        assert_eq!(large_round(80, 7).contestants, 80);
    }
}
