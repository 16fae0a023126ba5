//! Standings: entrants with a score and a penalty, ranked under a contest's rules, with
//! ties kept as rank ranges.
//!
//! Scoring rules:
//! - ICPC: solved count, then total penalty (minutes of each first accept plus
//!   `penalty_minutes` per rejected attempt before it; compile errors do not count), then
//!   the time of the last accept (earlier is better). Entrants equal on all three share a
//!   place.
//! - IOI: the best score per subtask over all submissions, summed per problem; ties share.
//! - Codeforces: points of each solved problem decay with time,
//!   `max(0.3 x, x - floor(120 x t / (250 d)) - 50 w)` for a problem worth `x` solved at
//!   minute `t` of a `d`-minute round after `w` rejected attempts.
//! - Extended ICPC (Codeforces educational, Div. 3 and Div. 4 rounds): solved count,
//!   then penalty (10 minutes per rejected attempt there); no last-accept tiebreak, so
//!   entrants equal on both share a place.

use serde::{Deserialize, Serialize};

/// One entrant's result on one problem.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProblemResult {
    /// Whether it was solved (pass-fail problems).
    #[serde(default)]
    pub solved: bool,
    /// Rejected attempts before the accept (or in all, when unsolved); compile errors excluded.
    #[serde(default)]
    pub rejected: u32,
    /// Minute of the accept, counted from the start.
    #[serde(default)]
    pub accept_minute: Option<u32>,
    /// Points (IOI and Codeforces points rounds), when the rule gives points.
    #[serde(default)]
    pub points: Option<f64>,
}

/// How a contest is scored.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum Rule {
    /// ICPC: solved, penalty, last accept.
    Icpc {
        /// Minutes per rejected attempt before an accept (20 at ICPC, 10 on Codeforces
        /// educational rounds).
        penalty_minutes: u32,
    },
    /// Extended ICPC (Codeforces educational rounds): solved, penalty; ties share.
    ExtendedIcpc {
        /// Minutes per rejected attempt before an accept (10 on Codeforces).
        penalty_minutes: u32,
    },
    /// IOI: sum of points, no penalty.
    Ioi,
    /// Codeforces points round.
    Codeforces {
        /// Round length in minutes.
        duration_minutes: u32,
    },
}

/// The totals an entrant is ranked by.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Score {
    /// Solved problems (ICPC) or points (IOI, Codeforces); higher is better.
    pub points: f64,
    /// Penalty minutes (ICPC); lower is better; 0 elsewhere.
    pub penalty: f64,
    /// Minute of the last accept (ICPC tiebreak); lower is better.
    pub last_accept: f64,
}

/// Points of a Codeforces problem worth `max_points`, solved at `minute` of a round of
/// `duration` minutes after `rejected` rejected attempts.
pub fn codeforces_points(max_points: f64, minute: u32, duration: u32, rejected: u32) -> f64 {
    let decay =
        (120.0 * max_points * f64::from(minute) / (250.0 * f64::from(duration.max(1)))).floor();
    (max_points - decay - 50.0 * f64::from(rejected)).max(0.3 * max_points)
}

impl Rule {
    /// The score of one entrant's results. For Codeforces rounds, `max_points[i]` is the
    /// worth of problem `i` (a `points` already given on a result is used as is).
    pub fn score(&self, results: &[ProblemResult], max_points: &[f64]) -> Score {
        match *self {
            Rule::Icpc { penalty_minutes } | Rule::ExtendedIcpc { penalty_minutes } => {
                let mut score = Score {
                    points: 0.0,
                    penalty: 0.0,
                    last_accept: 0.0,
                };
                for it in results.iter().filter(|r| r.solved) {
                    let minute = f64::from(it.accept_minute.unwrap_or(0));
                    score.points += 1.0;
                    score.penalty += minute + f64::from(penalty_minutes * it.rejected);
                    score.last_accept = score.last_accept.max(minute);
                }
                score
            }
            Rule::Ioi => Score {
                points: results.iter().filter_map(|r| r.points).sum(),
                penalty: 0.0,
                last_accept: 0.0,
            },
            Rule::Codeforces { duration_minutes } => {
                let points = results
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| r.solved)
                    .map(|(idx, r)| {
                        r.points.unwrap_or_else(|| {
                            let worth = max_points.get(idx).copied().unwrap_or(0.0);
                            codeforces_points(
                                worth,
                                r.accept_minute.unwrap_or(0),
                                duration_minutes,
                                r.rejected,
                            )
                        })
                    })
                    .sum();
                Score {
                    points,
                    penalty: 0.0,
                    last_accept: 0.0,
                }
            }
        }
    }

    /// Whether the last-accept tiebreak applies.
    fn uses_last_accept(&self) -> bool {
        matches!(self, Rule::Icpc { .. })
    }
}

/// IOI task score: the best score of each subtask over all submissions, summed.
/// `submissions[s][t]` is submission `s`'s score on subtask `t`; a submission that
/// reports fewer subtasks counts 0 on the missing ones.
pub fn ioi_task_score(submissions: &[Vec<f64>]) -> f64 {
    let subtasks = submissions.iter().map(Vec::len).max().unwrap_or(0);
    (0..subtasks)
        .map(|t| {
            submissions
                .iter()
                .map(|s| s.get(t).copied().unwrap_or(0.0))
                .fold(0.0, f64::max)
        })
        .sum()
}

/// Compares two scores: `Less` when `a` ranks ahead of `b`.
pub fn compare(rule: &Rule, a: &Score, b: &Score) -> std::cmp::Ordering {
    let by_points = b.points.total_cmp(&a.points);
    let by_penalty = a.penalty.total_cmp(&b.penalty);
    let by_last = if rule.uses_last_accept() {
        a.last_accept.total_cmp(&b.last_accept)
    } else {
        std::cmp::Ordering::Equal
    };
    by_points.then(by_penalty).then(by_last)
}

/// A place shared by tied entrants: `lo..=hi` (1-based). ICPC and Codeforces show `lo`
/// (four teams tied 17th: all 17th, the next 21st); the Codeforces rating uses `hi`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    /// Best place of the tie group.
    pub lo: usize,
    /// Worst place of the tie group.
    pub hi: usize,
}

/// Places of entrants given their scores (in any order); the result is indexed like
/// `scores`.
pub fn places(rule: &Rule, scores: &[Score]) -> Vec<Place> {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&a, &b| compare(rule, &scores[a], &scores[b]));
    let mut res = vec![Place { lo: 0, hi: 0 }; scores.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && compare(rule, &scores[order[start]], &scores[order[end]]).is_eq()
        {
            end += 1;
        }
        for &idx in &order[start..end] {
            res[idx] = Place {
                lo: start + 1,
                hi: end,
            };
        }
        start = end;
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    fn icpc(solved: &[(u32, u32)]) -> Vec<ProblemResult> {
        solved
            .iter()
            .map(|&(minute, rejected)| ProblemResult {
                solved: true,
                rejected,
                accept_minute: Some(minute),
                points: None,
            })
            .collect()
    }

    #[test]
    fn icpc_penalty_and_tiebreak() {
        let rule = Rule::Icpc {
            penalty_minutes: 20,
        };
        let a = rule.score(&icpc(&[(10, 1), (50, 0)]), &[]);
        assert_eq!(
            a,
            Score {
                points: 2.0,
                penalty: 80.0,
                last_accept: 50.0
            }
        );
        let b = rule.score(&icpc(&[(30, 0), (50, 0)]), &[]);
        // Same solved and penalty: the earlier last accept wins; equal last accepts tie.
        let c = rule.score(&icpc(&[(40, 0), (40, 0)]), &[]);
        let d = rule.score(&icpc(&[(20, 0), (60, 0)]), &[]);
        let places = places(&rule, &[a, b, c, d]);
        assert_eq!(places[2], Place { lo: 1, hi: 1 });
        assert_eq!(places[0], Place { lo: 2, hi: 3 });
        assert_eq!(places[1], Place { lo: 2, hi: 3 });
        assert_eq!(places[3], Place { lo: 4, hi: 4 });
    }

    #[test]
    fn extended_icpc_has_no_last_accept_tiebreak() {
        let rule = Rule::ExtendedIcpc {
            penalty_minutes: 10,
        };
        let a = rule.score(&icpc(&[(10, 1), (50, 0)]), &[]);
        let b = rule.score(&icpc(&[(30, 0), (40, 0)]), &[]);
        assert_eq!((a.points, a.penalty), (2.0, 70.0));
        assert_eq!(places(&rule, &[a, b]), vec![Place { lo: 1, hi: 2 }; 2]);
        let icpc_rule = Rule::Icpc {
            penalty_minutes: 10,
        };
        assert_eq!(
            places(&icpc_rule, &[a, b]),
            vec![Place { lo: 2, hi: 2 }, Place { lo: 1, hi: 1 }]
        );
    }

    #[test]
    fn ties_are_permutation_invariant() {
        let rule = Rule::Ioi;
        let s = |p: f64| Score {
            points: p,
            penalty: 0.0,
            last_accept: 0.0,
        };
        let one = places(&rule, &[s(5.0), s(7.0), s(5.0), s(1.0)]);
        let two = places(&rule, &[s(1.0), s(5.0), s(7.0), s(5.0)]);
        assert_eq!(one[0], two[1]);
        assert_eq!(one[2], two[3]);
        assert_eq!(one[1], Place { lo: 1, hi: 1 });
        assert_eq!(one[0], Place { lo: 2, hi: 3 });
    }

    #[test]
    fn ioi_takes_the_best_of_each_subtask() {
        // Two partial submissions combine to full marks, as in IOI since 2017.
        assert_eq!(
            ioi_task_score(&[vec![20.0, 0.0, 30.0], vec![0.0, 50.0, 10.0]]),
            100.0
        );
        assert_eq!(ioi_task_score(&[vec![20.0], vec![0.0, 50.0]]), 70.0);
        assert_eq!(ioi_task_score(&[]), 0.0);
    }

    #[test]
    fn codeforces_points_decay_and_floor() {
        // A 500-point problem loses 2 points a minute in a 2-hour round.
        assert_eq!(codeforces_points(500.0, 10, 120, 0), 480.0);
        assert_eq!(codeforces_points(500.0, 10, 120, 1), 430.0);
        assert_eq!(codeforces_points(500.0, 119, 120, 3), 150.0);
        let rule = Rule::Codeforces {
            duration_minutes: 120,
        };
        let results = vec![
            ProblemResult {
                solved: true,
                rejected: 0,
                accept_minute: Some(10),
                points: None,
            },
            ProblemResult {
                solved: false,
                rejected: 2,
                accept_minute: None,
                points: None,
            },
        ];
        assert_eq!(rule.score(&results, &[500.0, 1000.0]).points, 480.0);
    }
}
