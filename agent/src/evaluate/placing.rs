//! The placing of `agent evaluate`: each run's results in contest time
//! ([`model_result`]), placed among the humans by `leaderboard::evaluate` (a feed's board,
//! or a Codeforces round with its ratings), then the runs of each model summarised with
//! a mean and a 95% interval ([`across_models`]).

use std::collections::BTreeMap;

use leaderboard::evaluate::{ModelResult, Options};
use leaderboard::place::{Placement, TiePolicy, Timing};
use leaderboard::standings::{ProblemResult, Rule};
use serde_json::json;

use super::runs::RunResult;
use super::standings::{Aligned, Contest, Humans};
use super::{EvaluateArgs, TieArg, TimingArg};

/// Each run placed among the humans: one JSON object per run, in the report's shape.
pub(super) fn each_run(
    args: &EvaluateArgs,
    contest: &Contest,
    aligned: &Aligned,
    runs: &[RunResult],
) -> anyhow::Result<Vec<serde_json::Value>> {
    let options = Options {
        tie_policy: match args.tie {
            TieArg::HumansAhead => TiePolicy::HumansAhead,
            TieArg::Shared => TiePolicy::Shared,
        },
        ..Options::default()
    };
    let timing = match args.timing {
        TimingArg::Measured => Timing::Measured,
        TimingArg::Instant => Timing::Instant,
    };
    let mut per_run = Vec::new();
    for run in runs {
        let results = model_result(
            run,
            &aligned.order,
            aligned.count,
            args.timing,
            args.time_scale,
            contest.minutes,
        );
        let model = ModelResult {
            rule: Some(contest.rule),
            timing,
            results: results.clone(),
            max_points: args.problem_points.clone(),
        };
        let (placement, ratings, score): (Placement, serde_json::Value, _) = match &aligned.humans {
            Humans::Feed(feed) => {
                let e = leaderboard::evaluate::in_feed(feed, &model, &options)?;
                (e.placement, serde_json::Value::Null, e.score)
            }
            Humans::Codeforces(rows) => {
                let e = leaderboard::evaluate::in_round(rows, &model, &options)?;
                (e.placement, serde_json::to_value(e.ratings)?, e.score)
            }
            Humans::Board(board) => {
                let e = leaderboard::evaluate::in_standings(board, &model, &options)?;
                (e.placement, serde_json::Value::Null, e.score)
            }
            Humans::Package(..) => anyhow::bail!("the contest package is not aligned yet"),
        };
        let solved = results.iter().filter(|r| r.solved).count();
        per_run.push(json!({
            "run": run.run,
            "model": run.model,
            "solved": solved,
            "points": score.points,
            "penalty": score.penalty,
            "results": results,
            "placement": placement,
            "ratings": ratings,
            "tokens": run.tokens,
            "tokens_per_solve": (solved > 0).then(|| run.tokens as f64 / solved as f64),
            "agent_problems": run.problems,
        }));
    }
    Ok(per_run)
}

/// One row per model over its runs (`each_run`'s objects): means and intervals of the
/// solved count, points (a points round's), percentile and ratings, and the ranks.
pub(super) fn across_models(per_run: &[serde_json::Value], rule: Rule) -> Vec<serde_json::Value> {
    let mut models: BTreeMap<String, Vec<&serde_json::Value>> = BTreeMap::new();
    for r in per_run {
        models
            .entry(r["model"].as_str().unwrap_or_default().to_owned())
            .or_default()
            .push(r);
    }
    let f = |v: &serde_json::Value| v.as_f64();
    let points_round = matches!(rule, Rule::Codeforces { .. });
    let mut table = Vec::new();
    for (model, rs) in &models {
        let col = |get: &dyn Fn(&serde_json::Value) -> Option<f64>| -> Vec<f64> {
            rs.iter().filter_map(|r| get(r)).collect()
        };
        let solved = interval(&col(&|r| f(&r["solved"])));
        let points = interval(&col(&|r| f(&r["points"])));
        let penalty = interval(&col(&|r| f(&r["penalty"])));
        let pct = interval(&col(&|r| f(&r["placement"]["percentile"])));
        let place = col(&|r| f(&r["placement"]["place_hi"]));
        let place_lo = col(&|r| f(&r["placement"]["place_lo"]));
        let codeelo = col(&|r| f(&r["ratings"]["codeelo_rating"]));
        let cf = col(&|r| f(&r["ratings"]["codeforces_performance"]));
        let tokens: u64 = rs.iter().filter_map(|r| r["tokens"].as_u64()).sum();
        let solves: f64 = col(&|r| f(&r["solved"])).iter().sum();
        table.push(json!({
            "model": model,
            "runs": rs.len(),
            "solved_mean": solved.0,
            "solved_interval": solved.1,
            "penalty_mean": (!points_round).then_some(penalty.0),
            "points_mean": points_round.then_some(points.0),
            "points_interval": if points_round { points.1 } else { None },
            "percentile_mean": pct.0,
            "percentile_interval": pct.1,
            "rank_best": place_lo.iter().copied().fold(f64::INFINITY, f64::min) as u64,
            "rank_worst": place.iter().copied().fold(0.0, f64::max) as u64,
            "codeelo_rating": (!codeelo.is_empty()).then(|| interval(&codeelo)),
            "codeforces_performance": (!cf.is_empty()).then(|| interval(&cf)),
            "tokens_per_solve": (solves > 0.0).then(|| tokens as f64 / solves),
        }));
    }
    table
}

/// The model's result in standings order: `order[k]` is the standings index of the
/// run's `k`-th problem; problems of the standings the run lacks are unsolved. Accepts
/// after `minutes` do not count.
pub(super) fn model_result(
    run: &RunResult,
    order: &[usize],
    count: usize,
    timing: TimingArg,
    scale: f64,
    minutes: u32,
) -> Vec<ProblemResult> {
    let mut results = vec![ProblemResult::default(); count];
    for (k, p) in run.problems.iter().enumerate() {
        let Some(&index) = order.get(k) else { continue };
        let minute = p.accept_seconds.map(|s| (s * scale / 60.0).floor() as u32);
        let in_time = match timing {
            TimingArg::Instant => p.solved,
            TimingArg::Measured => minute.is_some_and(|m| m < minutes),
        };
        results[index] = ProblemResult {
            solved: in_time,
            rejected: p.rejected,
            accept_minute: if in_time { minute } else { None },
            points: None,
        };
    }
    results
}

/// Mean, and a 95% interval (normal approximation over the runs; `None` for one run).
pub(super) fn interval(values: &[f64]) -> (f64, Option<(f64, f64)>) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n.max(1.0);
    if values.len() < 2 {
        return (mean, None);
    }
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = 1.96 * (var / n).sqrt();
    (mean, Some((mean - half, mean + half)))
}

#[cfg(test)]
mod tests {
    use super::super::runs::ProblemRun;
    use super::*;
    use std::path::PathBuf;

    fn run(problems: Vec<ProblemRun>) -> RunResult {
        RunResult {
            run: PathBuf::from("r"),
            model: "m".into(),
            problems,
            tokens: 0,
        }
    }

    #[test]
    fn measured_time_maps_to_minutes_and_late_accepts_do_not_count() {
        let r = run(vec![
            ProblemRun {
                id: "a".into(),
                solved: true,
                rejected: 1,
                accept_seconds: Some(125.0),
            },
            ProblemRun {
                id: "b".into(),
                solved: true,
                rejected: 0,
                accept_seconds: Some(3000.0),
            },
        ]);
        let results = model_result(&r, &[2, 0], 3, TimingArg::Measured, 1.0, 45);
        assert_eq!(results[2].accept_minute, Some(2));
        assert_eq!(results[2].rejected, 1);
        assert!(results[2].solved);
        assert!(!results[0].solved, "minute 50 is after a 45-minute contest");
        assert!(!results[1].solved);
        let scaled = model_result(&r, &[2, 0], 3, TimingArg::Measured, 0.5, 45);
        assert_eq!(scaled[0].accept_minute, Some(25));
        let instant = model_result(&r, &[2, 0], 3, TimingArg::Instant, 1.0, 45);
        assert!(instant[0].solved && instant[2].solved);
    }

    #[test]
    fn a_points_round_scores_the_run_by_decayed_points() {
        let r = run(vec![
            ProblemRun {
                id: "a".into(),
                solved: true,
                rejected: 1,
                accept_seconds: Some(610.0),
            },
            ProblemRun {
                id: "b".into(),
                solved: false,
                rejected: 2,
                accept_seconds: None,
            },
        ]);
        // The two packages are problems C and A of a three-problem round.
        let results = model_result(&r, &[2, 0], 3, TimingArg::Measured, 1.0, 120);
        let rule = Rule::Codeforces {
            duration_minutes: 120,
        };
        // C, 1500 points at minute 10 after one rejection: 1500 - 60 - 50.
        let score = rule.score(&results, &[500.0, 1000.0, 1500.0]);
        assert_eq!(score.points, 1390.0);
        // Instant (as in_round applies it): minute 0, only the rejection costs.
        let instant = model_result(&r, &[2, 0], 3, TimingArg::Instant, 1.0, 120);
        let instant = leaderboard::place::apply_timing(&instant, Timing::Instant).expect("timed");
        assert_eq!(
            rule.score(&instant, &[500.0, 1000.0, 1500.0]).points,
            1450.0
        );
    }

    #[test]
    fn intervals_need_two_runs() {
        assert_eq!(interval(&[3.0]), (3.0, None));
        let (m, iv) = interval(&[2.0, 4.0]);
        assert_eq!(m, 3.0);
        let (lo, hi) = iv.expect("an interval");
        assert!(lo < 3.0 && hi > 3.0);
    }
}
