//! The report of `agent evaluate`: the policies in words, `evaluation.json` (the
//! standings, the policies, the table across models and every run) and
//! `evaluation.md` (the same as a table), which is also printed.

use leaderboard::standings::Rule;
use serde_json::json;

use super::runs::RunResult;
use super::standings::Contest;
use super::{EvaluateArgs, TieArg, TimingArg};

/// The policies of the evaluation, as the report states them.
struct Policies {
    timing: String,
    attempt: String,
    tie: &'static str,
    contamination: String,
}

/// Writes `evaluation.json` and `evaluation.md` under `--out` and prints the latter.
pub(super) fn write(
    args: &EvaluateArgs,
    contest: &Contest,
    restriction: Option<&String>,
    first: &RunResult,
    per_run: &[serde_json::Value],
    table: &[serde_json::Value],
) -> anyhow::Result<()> {
    let humans_count = per_run
        .first()
        .and_then(|r| r["placement"]["humans"].as_u64())
        .unwrap_or(0);
    let policies = policies(args, contest);
    let report = report(
        args,
        contest,
        restriction,
        first,
        humans_count,
        &policies,
        per_run,
        table,
    );
    std::fs::write(
        args.out.join("evaluation.json"),
        serde_json::to_string_pretty(&report)? + "\n",
    )?;
    let md = markdown(
        contest,
        restriction,
        humans_count,
        &policies,
        &report,
        table,
    )?;
    std::fs::write(args.out.join("evaluation.md"), &md)?;
    print!("{md}");
    Ok(())
}

/// The policies in words as JSON (`timing_policy`, `attempt_policy`, `tie_policy`,
/// `contamination`), for a report of several contests.
pub(super) fn policies_json(args: &EvaluateArgs, contest: &Contest) -> serde_json::Value {
    let p = policies(args, contest);
    json!({
        "timing_policy": p.timing,
        "attempt_policy": p.attempt,
        "tie_policy": p.tie,
        "contamination": p.contamination,
    })
}

/// The policies in words: timing, attempts, ties, and the contamination note from the
/// contest's date and the model's stated training cut-off.
fn policies(args: &EvaluateArgs, contest: &Contest) -> Policies {
    let timing_text = match args.timing {
        TimingArg::Measured => format!(
            "measured: the agent works the problems in the given order, one at a time; a \
             submission's contest minute is floor(agent wall seconds from the run's start \
             x {} / 60) (earlier problems' episodes counted in full); accepts at or after \
             minute {} do not count",
            args.time_scale, contest.minutes
        ),
        TimingArg::Instant => {
            "instant (CodeElo): every accept at minute 0; only rejections cost".to_owned()
        }
    };
    let mut attempt_text = "each judged submission before the first accept is a rejection \
         (compile errors and judge errors excluded); the pipeline's per-problem budget caps \
         the submissions"
        .to_owned();
    if args.codeforces.is_some() {
        attempt_text.push_str(&format!(
            "; {}. Codeforces charges no rejection on the first test, but the local judge \
             runs every test and records no first failure, so every rejection is charged",
            if matches!(contest.rule, Rule::Codeforces { .. }) {
                "each rejection before the accept costs 50 points (a problem never scores \
                 below 30% of its points)"
            } else {
                "each costs the penalty minutes"
            }
        ));
    }
    let tie_text = match args.tie {
        TieArg::HumansAhead => "humans with exactly the model's score rank ahead of it (CodeElo)",
        TieArg::Shared => "humans with exactly the model's score share its place",
    };
    let contamination = match (&contest.date, &args.training_cutoff) {
        (Some(d), Some(c)) => format!(
            "the contest took place at {d}; the model's stated training cut-off is {c}: \
             {}",
            if c.as_str() >= &d[..d.len().min(10)] {
                "the cut-off is after the contest, so its problems, standings and public \
                 solutions may be in the training data (treat the placement as an upper bound)"
            } else {
                "the cut-off is before the contest"
            }
        ),
        (Some(d), None) => format!(
            "the contest took place at {d}; no training cut-off was given (--training-cutoff): \
             a model trained after that date may have seen the problems and their solutions"
        ),
        (None, Some(c)) => {
            format!("the model's stated training cut-off is {c}; the standings state no date")
        }
        (None, None) => {
            "no contest date and no training cut-off given: contamination unknown".to_owned()
        }
    };
    Policies {
        timing: timing_text,
        attempt: attempt_text,
        tie: tie_text,
        contamination,
    }
}

/// `evaluation.json`.
#[allow(
    clippy::too_many_arguments,
    reason = "the report's parts, each written once into its JSON"
)]
fn report(
    args: &EvaluateArgs,
    contest: &Contest,
    restriction: Option<&String>,
    first: &RunResult,
    humans_count: u64,
    policies: &Policies,
    per_run: &[serde_json::Value],
    table: &[serde_json::Value],
) -> serde_json::Value {
    json!({
        "standings": contest.source,
        "rule": contest.rule,
        "contest_minutes": contest.minutes,
        "humans": humans_count,
        "problems": first.problems.iter().map(|p| &p.id).collect::<Vec<_>>(),
        "restriction": restriction,
        "timing_policy": policies.timing,
        "time_scale": args.time_scale,
        "attempt_policy": policies.attempt,
        "tie_policy": policies.tie,
        "contamination": policies.contamination,
        "interval": "mean over runs with a 95% normal-approximation interval (mean +- 1.96 sd/sqrt(n)); none for one run",
        "models": table,
        "runs": per_run,
    })
}

/// `evaluation.md`: the table across models, then the policies.
fn markdown(
    contest: &Contest,
    restriction: Option<&String>,
    humans_count: u64,
    policies: &Policies,
    report: &serde_json::Value,
    table: &[serde_json::Value],
) -> anyhow::Result<String> {
    let points_round = matches!(contest.rule, Rule::Codeforces { .. });
    let mut md = format!(
        "# Evaluation against human standings\n\nStandings: {}; {humans_count} humans; \
         rule {}; {} minutes.\n\n",
        contest.source,
        serde_json::to_string(&contest.rule)?,
        contest.minutes
    );
    if let Some(r) = restriction {
        md.push_str(&format!("Restriction: {r}.\n\n"));
    }
    md.push_str("| model | runs | solved | rank (best-worst, humans and the model) | percentile of humans beaten | codeelo_rating | codeforces_performance | tokens/solve |\n|---|---|---|---|---|---|---|---|\n");
    let show =
        |mean: &serde_json::Value, iv: &serde_json::Value| match (mean.as_f64(), iv.as_array()) {
            (Some(m), Some(b)) => format!(
                "{m:.1} [{:.1}, {:.1}]",
                b[0].as_f64().unwrap_or(0.0),
                b[1].as_f64().unwrap_or(0.0)
            ),
            (Some(m), None) => format!("{m:.1}"),
            _ => "-".to_owned(),
        };
    for row in table {
        let pair = |v: &serde_json::Value| show(&v[0], &v[1]);
        let mut solved = show(&row["solved_mean"], &row["solved_interval"]);
        if points_round {
            let points = show(&row["points_mean"], &row["points_interval"]);
            solved.push_str(&format!(" ({points} points)"));
        }
        md.push_str(&format!(
            "| {} | {} | {solved} | {}-{} of {} | {} | {} | {} | {} |\n",
            row["model"].as_str().unwrap_or_default(),
            row["runs"],
            row["rank_best"],
            row["rank_worst"],
            humans_count + 1,
            show(&row["percentile_mean"], &row["percentile_interval"]),
            pair(&row["codeelo_rating"]),
            pair(&row["codeforces_performance"]),
            row["tokens_per_solve"]
                .as_f64()
                .map_or_else(|| "-".to_owned(), |t| format!("{t:.0}")),
        ));
    }
    md.push_str(&format!(
        "\nTiming policy: {}.\n\nAttempt policy: {}.\n\nTie policy: {}.\n\n\
         Intervals: {}.\n\nContamination: {}.\n",
        policies.timing,
        report["attempt_policy"].as_str().unwrap_or_default(),
        policies.tie,
        report["interval"].as_str().unwrap_or_default(),
        policies.contamination,
    ));
    Ok(md)
}
