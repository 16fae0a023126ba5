//! Codeforces: standings import and the rating formula exactly as Mirzayanov published
//! it ("Open Codeforces Rating System", 2015): seeds, the geometric mean of rank and
//! seed, halving the gap, two corrections, integer truncation; and the performance
//! rating (the old rating at which the computed change would be 0).
//!
//! Ranks for the rating are the *worst* place of a tie group, as Codeforces does.
//! The win probability of rating `a` against `b` is `1 / (1 + 10^((b - a) / 400))`.

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::{Error, Result};

/// One rated contestant of a round.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Handle.
    pub handle: String,
    /// Points (points rounds) or solved count (educational rounds).
    pub points: f64,
    /// Penalty minutes (educational rounds; 0 elsewhere).
    pub penalty: f64,
    /// Rating before the round, as used by the calculation.
    pub old_rating: i32,
    /// The published change, when known.
    pub delta: Option<i32>,
}

/// Reads the row format `[handle, points, penalty, oldRating, delta]` (a JSON array of
/// arrays), as in `shared/data/codeforces/*-data.json`.
pub fn read_rows(path: &Path) -> Result<Vec<Row>> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_rows(&text, &path.display().to_string())
}

/// Parses the row format; `what` names the source in errors.
pub fn parse_rows(text: &str, what: &str) -> Result<Vec<Row>> {
    let value: Value = serde_json::from_str(text).map_err(|err| Error::file(what, err))?;
    let rows = value
        .as_array()
        .ok_or_else(|| Error::file(what, "expected a JSON array of rows"))?;
    rows.iter()
        .enumerate()
        .map(|(idx, row)| {
            let at = |field, message: String| Error::row(what, idx + 1, field, message);
            let cells = row.as_array().filter(|c| c.len() >= 4).ok_or_else(|| {
                at(
                    "row",
                    "expected [handle, points, penalty, oldRating, delta]".to_owned(),
                )
            })?;
            let number = |i: usize, name: &'static str| {
                cells[i]
                    .as_f64()
                    .ok_or_else(|| at(name, format!("not a number: {}", cells[i])))
            };
            Ok(Row {
                handle: cells[0]
                    .as_str()
                    .ok_or_else(|| at("handle", format!("not a string: {}", cells[0])))?
                    .to_owned(),
                points: number(1, "points")?,
                penalty: number(2, "penalty")?,
                old_rating: number(3, "oldRating")? as i32,
                delta: match cells.get(4) {
                    None | Some(Value::Null) => None,
                    Some(cell) => Some(
                        cell.as_i64()
                            .and_then(|d| i32::try_from(d).ok())
                            .ok_or_else(|| at("delta", format!("not an integer: {cell}")))?,
                    ),
                },
            })
        })
        .collect()
}

/// Joins the Codeforces API's `contest.standings` and `contest.ratingChanges` results
/// (the whole API responses or their `result` fields) into rows, keeping only rated
/// contestants, as CodeElo does.
///
/// The API's `oldRating` is the *displayed* rating: for accounts made since May 2020 with
/// fewer than six rated rounds it understates the rating the formula used (which starts
/// at 1400), so changes recomputed from these rows differ for those accounts.
pub fn from_api(standings: &Value, rating_changes: &Value) -> Result<Vec<Row>> {
    let standings = standings.get("result").unwrap_or(standings);
    let changes = rating_changes.get("result").unwrap_or(rating_changes);
    let changes = changes
        .as_array()
        .ok_or_else(|| Error::file("contest.ratingChanges", "expected an array"))?;
    let mut by_handle = std::collections::HashMap::new();
    for (idx, change) in changes.iter().enumerate() {
        let handle = change["handle"]
            .as_str()
            .ok_or_else(|| Error::row("contest.ratingChanges", idx + 1, "handle", "missing"))?;
        let old = change["oldRating"]
            .as_i64()
            .ok_or_else(|| Error::row("contest.ratingChanges", idx + 1, "oldRating", "missing"))?;
        let new = change["newRating"].as_i64().unwrap_or(old);
        by_handle.insert(handle.to_owned(), (old as i32, (new - old) as i32));
    }
    let rows = standings["rows"]
        .as_array()
        .ok_or_else(|| Error::file("contest.standings", "no rows"))?;
    let mut res = Vec::new();
    for (idx, row) in rows.iter().enumerate() {
        let at = |field| Error::row("contest.standings", idx + 1, field, "missing");
        let handle = row["party"]["members"][0]["handle"]
            .as_str()
            .ok_or_else(|| at("party.members[0].handle"))?;
        let Some(&(old_rating, delta)) = by_handle.get(handle) else {
            continue;
        };
        res.push(Row {
            handle: handle.to_owned(),
            points: row["points"].as_f64().ok_or_else(|| at("points"))?,
            penalty: row["penalty"].as_f64().unwrap_or(0.0),
            old_rating,
            delta: Some(delta),
        });
    }
    Ok(res)
}

/// Worst places of tie groups: rows ranked by points (desc) then penalty (asc).
pub fn ranks(rows: &[Row]) -> Vec<usize> {
    let rule = crate::standings::Rule::ExtendedIcpc { penalty_minutes: 0 };
    let scores: Vec<_> = rows
        .iter()
        .map(|r| crate::standings::Score {
            points: r.points,
            penalty: r.penalty,
            last_accept: 0.0,
        })
        .collect();
    crate::standings::places(&rule, &scores)
        .into_iter()
        .map(|p| p.hi)
        .collect()
}

/// Probability that rating `a` beats rating `b`.
pub fn win_probability(a: f64, b: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((b - a) / 400.0))
}

/// The tabulated ratings: the formula's search (1..8000) and the performance's search
/// (`PERFORMANCE_RANGE`), so that neither ever sums over the field.
const LO: i32 = PERFORMANCE_RANGE.0;
const HI: i32 = PERFORMANCE_RANGE.1;

/// Where the performance is searched.
const PERFORMANCE_RANGE: (i32, i32) = (-4000, 12000);

/// Seeds against a field of ratings, tabulated for every integer rating in `LO..=HI`.
struct Field {
    /// Distinct ratings and how many contestants have each.
    counts: Vec<(i32, f64)>,
    /// `1 + sum over the field of P(other beats r)`, for r = LO..=HI.
    seed_table: Vec<f64>,
}

impl Field {
    fn new(ratings: &[i32]) -> Field {
        let mut map = std::collections::BTreeMap::new();
        for r in ratings {
            *map.entry(*r).or_insert(0.0) += 1.0;
        }
        let counts: Vec<(i32, f64)> = map.into_iter().collect();
        // Every pair (table rating, field rating) differs by an integer in
        // `LO - max..=HI - min`: tabulate the win probability once per difference, so
        // the table costs one addition per pair instead of one power. The values are
        // bit-identical to `win_probability(other, r)`.
        let (min, max) = match (counts.first(), counts.last()) {
            (Some(&(min, _)), Some(&(max, _))) => (min, max),
            _ => (0, 0),
        };
        let lowest_difference = LO - max;
        let by_difference: Vec<f64> = (lowest_difference..=HI - min)
            .map(|d| win_probability(0.0, f64::from(d)))
            .collect();
        let seed_table = (LO..=HI)
            .map(|r| {
                1.0 + counts
                    .iter()
                    .map(|&(other, n)| n * by_difference[(r - other - lowest_difference) as usize])
                    .sum::<f64>()
            })
            .collect();
        Field { counts, seed_table }
    }

    /// `1 + sum over the whole field of P(other beats rating)`.
    fn seed(&self, rating: i32) -> f64 {
        if (LO..=HI).contains(&rating) {
            self.seed_table[(rating - LO) as usize]
        } else {
            1.0 + self
                .counts
                .iter()
                .map(|&(o, n)| n * win_probability(f64::from(o), f64::from(rating)))
                .sum::<f64>()
        }
    }

    /// The seed of a contestant rated `rating` against the field without `own` (their
    /// own rating, which is in the field once).
    fn seed_without(&self, rating: i32, own: i32) -> f64 {
        self.seed(rating) - win_probability(f64::from(own), f64::from(rating))
    }

    /// The largest rating in 1..8000 whose seed (without `own`) is at least `m`.
    fn rating_for_seed(&self, m: f64, own: i32) -> i32 {
        let (mut lo, mut hi) = (1, 8000);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if self.seed_without(mid, own) < m {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        lo
    }
}

/// A round ready to be rated: the field's seed table, each contestant's rank, and the
/// round's total correction.
struct Round {
    ratings: Vec<i32>,
    field: Field,
    ranks: Vec<usize>,
    correction: i32,
}

impl Round {
    /// `rows` must not be empty.
    fn new(rows: &[Row]) -> Round {
        let ratings: Vec<i32> = rows.iter().map(|r| r.old_rating).collect();
        let mut round = Round {
            field: Field::new(&ratings),
            ranks: ranks(rows),
            ratings,
            correction: 0,
        };
        let raw: Vec<i32> = (0..rows.len())
            .map(|i| round.uncorrected_change(i, round.ratings[i]))
            .collect();
        let (first, second) = corrections(&round.ratings, &raw);
        round.correction = first + second;
        round
    }

    /// The change of contestant `i` before the corrections, had they been rated `rating`
    /// (the others unchanged): half the gap to the rating whose seed is the geometric
    /// mean of their rank and seed.
    fn uncorrected_change(&self, i: usize, rating: i32) -> i32 {
        let own = self.ratings[i];
        let m = (self.ranks[i] as f64 * self.field.seed_without(rating, own)).sqrt();
        (self.field.rating_for_seed(m, own) - rating) / 2
    }

    fn change(&self, i: usize, rating: i32) -> i32 {
        self.uncorrected_change(i, rating) + self.correction
    }

    /// See [`performances`].
    fn performance(&self, i: usize) -> Option<i32> {
        if self.ranks[i] == 1 {
            return None;
        }
        let delta_at = |rating| self.change(i, rating);
        let (mut lo, mut hi) = PERFORMANCE_RANGE;
        if delta_at(hi) > 0 {
            return None;
        }
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if delta_at(mid) <= 0 {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        Some(hi)
    }
}

/// Rating changes of a round, in the order of `rows`.
pub fn rating_changes(rows: &[Row]) -> Vec<i32> {
    if rows.is_empty() {
        return Vec::new();
    }
    let round = Round::new(rows);
    (0..rows.len())
        .map(|i| round.change(i, round.ratings[i]))
        .collect()
}

/// The two corrections: the sum of changes is made slightly negative, then the top
/// `min(n, 4 round(sqrt n))` by old rating are kept from inflating (between -10 and 0).
fn corrections(ratings: &[i32], deltas: &[i32]) -> (i32, i32) {
    let n = deltas.len() as i32;
    let sum: i32 = deltas.iter().sum();
    let first = -sum / n - 1;
    let mut order: Vec<usize> = (0..deltas.len()).collect();
    order.sort_by(|&a, &b| ratings[b].cmp(&ratings[a]));
    let top = (n).min(4 * f64::from(n).sqrt().round() as i32);
    let top_sum: i32 = order[..top as usize]
        .iter()
        .map(|&i| deltas[i] + first)
        .sum();
    let second = (-top_sum / top).clamp(-10, 0);
    (first, second)
}

/// Performance of each contestant: the smallest old rating at which their computed
/// change (with the round's corrections held fixed) would be at most 0; `None` (unbounded)
/// for a contestant alone in first place. Alone in first place, the needed rating is the
/// top of the formula's search range (8000), so a finite answer would only measure that
/// bound; published performance tables write "Infinity" there.
pub fn performances(rows: &[Row]) -> Vec<Option<i32>> {
    if rows.is_empty() {
        return Vec::new();
    }
    let round = Round::new(rows);
    (0..rows.len()).map(|i| round.performance(i)).collect()
}

/// One contestant's rating change and performance in a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct EntrantRating {
    /// The change from their old rating, as [`rating_changes`] gives it.
    pub delta: i32,
    /// The performance, as [`performances`] gives it (`None`: unbounded).
    pub performance: Option<i32>,
}

/// The change and performance of `rows[index]` alone: the same numbers as
/// [`rating_changes`] and [`performances`] give at `index`, for the cost of preparing the
/// round once. `None` when `index` is out of range.
pub fn entrant_rating(rows: &[Row], index: usize) -> Option<EntrantRating> {
    if index >= rows.len() {
        return None;
    }
    let round = Round::new(rows);
    Some(EntrantRating {
        delta: round.change(index, round.ratings[index]),
        performance: round.performance(index),
    })
}

/// The straightforward transcription of the published algorithm, `O(n^2 log R)`: each
/// seed sums over every other contestant, and each step of each binary search sums
/// again. It is the cross-check of [`rating_changes`] (which tabulates seeds once per
/// distinct rating) and the baseline of its benchmark; use [`rating_changes`].
pub fn rating_changes_quadratic(rows: &[Row]) -> Vec<i32> {
    let n = rows.len();
    if n == 0 {
        return Vec::new();
    }
    let ranks = ranks(rows);
    let seed_against_others = |rating: i32, me: usize| {
        1.0 + rows
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != me)
            .map(|(_, other)| win_probability(f64::from(other.old_rating), f64::from(rating)))
            .sum::<f64>()
    };
    let mut deltas: Vec<i32> = rows
        .iter()
        .enumerate()
        .map(|(me, row)| {
            let m = (ranks[me] as f64 * seed_against_others(row.old_rating, me)).sqrt();
            let (mut lo, mut hi) = (1, 8000);
            while hi - lo > 1 {
                let mid = (lo + hi) / 2;
                if seed_against_others(mid, me) < m {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            (lo - row.old_rating) / 2
        })
        .collect();
    let n = n as i32;
    let first = -deltas.iter().sum::<i32>() / n - 1;
    for d in &mut deltas {
        *d += first;
    }
    let mut by_rating: Vec<(i32, i32)> = rows
        .iter()
        .map(|r| r.old_rating)
        .zip(deltas.iter().copied())
        .collect();
    by_rating.sort_by_key(|&(rating, _)| std::cmp::Reverse(rating));
    let top = n.min(4 * f64::from(n).sqrt().round() as i32);
    let top_sum: i32 = by_rating[..top as usize].iter().map(|&(_, d)| d).sum();
    let second = (-top_sum / top).clamp(-10, 0);
    deltas.iter().map(|d| d + second).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(handle: &str, points: f64, rating: i32) -> Row {
        Row {
            handle: handle.to_owned(),
            points,
            penalty: 0.0,
            old_rating: rating,
            delta: None,
        }
    }

    #[test]
    fn the_winner_of_two_gains_and_the_loser_loses() {
        let deltas = rating_changes(&[row("a", 10.0, 1500), row("b", 5.0, 1500)]);
        assert!(deltas[0] > 0 && deltas[1] < 0, "{deltas:?}");
        let deltas = rating_changes(&[row("weak", 10.0, 1200), row("strong", 5.0, 2000)]);
        assert!(deltas[0] > 0 && deltas[1] < 0, "{deltas:?}");
    }

    #[test]
    fn tied_entrants_get_the_same_change_whatever_the_order() {
        let rows = vec![
            row("a", 10.0, 1600),
            row("b", 7.0, 1600),
            row("c", 7.0, 1600),
            row("d", 1.0, 1400),
        ];
        let deltas = rating_changes(&rows);
        assert_eq!(deltas[1], deltas[2]);
        let swapped = vec![
            rows[0].clone(),
            rows[2].clone(),
            rows[1].clone(),
            rows[3].clone(),
        ];
        assert_eq!(rating_changes(&swapped), deltas);
        assert_eq!(ranks(&rows), vec![1, 3, 3, 4]);
    }

    /// A seeded random round: `n` contestants, few distinct scores (so many ties).
    fn random_round(seed: u64, n: usize) -> Vec<Row> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        (0..n)
            .map(|i| Row {
                handle: format!("p{i}"),
                points: f64::from(rng.random_range(0..8)),
                penalty: f64::from(rng.random_range(0..3)),
                old_rating: rng.random_range(-100..3600),
                delta: None,
            })
            .collect()
    }

    #[test]
    fn tabulated_and_quadratic_agree_on_random_rounds() {
        for seed in 0..6 {
            let rows = random_round(seed, 2 + 37 * seed as usize);
            assert_eq!(
                rating_changes(&rows),
                rating_changes_quadratic(&rows),
                "seed {seed}"
            );
        }
    }

    #[test]
    fn one_entrant_is_rated_as_in_the_whole_round() {
        let rows = random_round(4, 150);
        let deltas = rating_changes(&rows);
        let perfs = performances(&rows);
        for index in [0, 1, 74, 149] {
            let it = entrant_rating(&rows, index).expect("in range");
            assert_eq!((it.delta, it.performance), (deltas[index], perfs[index]));
        }
        assert_eq!(entrant_rating(&rows, 150), None);
    }

    #[test]
    fn the_winner_of_two_never_loses_rating() {
        for winner in (0..=4000).step_by(250) {
            for loser in (0..=4000).step_by(250) {
                let rows = [row("w", 2.0, winner), row("l", 1.0, loser)];
                let deltas = rating_changes(&rows);
                assert!(
                    deltas[0] >= 0 && deltas[0] >= deltas[1],
                    "winner {winner}, loser {loser}: {deltas:?}"
                );
            }
        }
    }

    #[test]
    fn shuffling_a_round_permutes_its_changes() {
        use rand::SeedableRng;
        use rand::seq::SliceRandom;
        let rows = random_round(11, 120);
        let deltas = rating_changes(&rows);
        let perfs = performances(&rows);
        let mut order: Vec<usize> = (0..rows.len()).collect();
        order.shuffle(&mut rand::rngs::StdRng::seed_from_u64(3));
        let shuffled: Vec<Row> = order.iter().map(|&i| rows[i].clone()).collect();
        let want: Vec<i32> = order.iter().map(|&i| deltas[i]).collect();
        assert_eq!(rating_changes(&shuffled), want);
        let want: Vec<Option<i32>> = order.iter().map(|&i| perfs[i]).collect();
        assert_eq!(performances(&shuffled), want);
        // Entrants tied on score with the same old rating get the same change.
        for i in 0..rows.len() {
            for j in 0..rows.len() {
                let (a, b) = (&rows[i], &rows[j]);
                if (a.points, a.penalty, a.old_rating) == (b.points, b.penalty, b.old_rating) {
                    assert_eq!(deltas[i], deltas[j], "{} and {}", a.handle, b.handle);
                }
            }
        }
    }

    fn check(rows: &[Row], expect: &expect_test::Expect) {
        let deltas = rating_changes(rows);
        let perfs = performances(rows);
        let ranks = ranks(rows);
        let table: String = rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let perf = perfs[i].map_or("unbounded".to_owned(), |p| p.to_string());
                format!(
                    "{} rank {} old {} delta {} performance {perf}\n",
                    r.handle, ranks[i], r.old_rating, deltas[i]
                )
            })
            .collect();
        expect.assert_eq(&table);
    }

    #[test]
    fn golden_small_rounds() {
        check(
            &[
                row("top", 3000.0, 1500),
                row("mid1", 2000.0, 1900),
                row("mid2", 2000.0, 1300),
                row("low", 500.0, 2100),
                row("zero", 0.0, 1500),
            ],
            &expect_test::expect![[r#"
                top rank 1 old 1500 delta 274 performance unbounded
                mid1 rank 3 old 1900 delta -96 performance 1533
                mid2 rank 3 old 1300 delta 125 performance 1722
                low rank 4 old 2100 delta -198 performance 1278
                zero rank 5 old 1500 delta -110 performance -8
            "#]],
        );
        check(
            &[
                row("new", 1.0, 1400),
                row("old", 1.0, 1400),
                row("last", 0.0, 1400),
            ],
            &expect_test::expect![[r#"
                new rank 2 old 1400 delta 27 performance 1508
                old rank 2 old 1400 delta 27 performance 1508
                last rank 3 old 1400 delta -57 performance 55
            "#]],
        );
    }

    #[test]
    fn api_standings_and_rating_changes_join_on_rated_handles() {
        let standings = serde_json::json!({"status": "OK", "result": {"rows": [
            {"party": {"members": [{"handle": "alice"}]}, "rank": 1, "points": 1500.0, "penalty": 0},
            {"party": {"members": [{"handle": "unrated"}]}, "rank": 2, "points": 900.0, "penalty": 0},
            {"party": {"members": [{"handle": "bob"}]}, "rank": 3, "points": 400.0, "penalty": 0}
        ]}});
        let changes = serde_json::json!({"status": "OK", "result": [
            {"handle": "alice", "rank": 1, "oldRating": 1600, "newRating": 1650},
            {"handle": "bob", "rank": 2, "oldRating": 1700, "newRating": 1660}
        ]});
        let rows = from_api(&standings, &changes).expect("joins");
        assert_eq!(rows.len(), 2);
        assert_eq!(
            rows[0],
            Row {
                handle: "alice".into(),
                points: 1500.0,
                penalty: 0.0,
                old_rating: 1600,
                delta: Some(50)
            }
        );
        assert_eq!(rows[1].delta, Some(-40));
    }

    #[test]
    fn bad_rows_name_the_row() {
        let err = parse_rows(
            r#"[["a", 1, 0, 1500, 3], ["b", "x", 0, 1500, 1]]"#,
            "f.json",
        )
        .expect_err("bad");
        assert_eq!(
            err.to_string(),
            "f.json: row 2, `points`: not a number: \"x\""
        );
        let err = parse_rows(r#"[["a", 1, 0, 1500, 2.5]]"#, "f.json").expect_err("bad");
        assert_eq!(
            err.to_string(),
            "f.json: row 1, `delta`: not an integer: 2.5"
        );
        let err = parse_rows("{}", "f.json").expect_err("bad");
        assert_eq!(err.to_string(), "f.json: expected a JSON array of rows");
    }
}
