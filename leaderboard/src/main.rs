//! The `leaderboard` command line: Codeforces ratings from standings rows, a CLICS
//! scoreboard from an event feed, placing a model among humans, and statistics.
//! Output is JSON (one object, or one line per row for scoreboards). Exit code 0 on
//! success, 2 on bad input.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use leaderboard::place::{TiePolicy, codeelo_rating, place};
use leaderboard::standings::{ProblemResult, Rule, Score};
use leaderboard::{clics, codeforces, numeric};
use serde::Deserialize;
use serde_json::json;

#[derive(Parser)]
#[command(name = "leaderboard", about = "Standings, ratings and statistics")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Codeforces rating changes and performances for standings rows
    /// (`[handle, points, penalty, oldRating, delta]`).
    Codeforces {
        /// The rows file.
        #[arg(long)]
        rows: PathBuf,
    },
    /// The ICPC scoreboard rebuilt from a CLICS event feed, one JSON line per team.
    Scoreboard {
        /// The NDJSON event feed.
        #[arg(long)]
        event_feed: PathBuf,
        /// Show the frozen (public) scoreboard.
        #[arg(long)]
        frozen: bool,
    },
    /// Place a model's result among the humans of a Codeforces round.
    Place {
        /// The rows file of the round.
        #[arg(long)]
        rows: PathBuf,
        /// The model's result: JSON `{"rule": {...}, "results": [...], "max_points": [...]}`.
        #[arg(long)]
        model: PathBuf,
        /// How humans with the model's exact score count.
        #[arg(long, value_enum, default_value = "humans-ahead")]
        ties: Ties,
    },
    /// Mean with a bootstrap confidence interval, spread, and pass@k.
    Stats {
        /// Per-contest values (e.g. ratings), comma separated.
        #[arg(long, value_delimiter = ',')]
        values: Vec<f64>,
        /// Confidence level.
        #[arg(long, default_value_t = 0.95)]
        level: f64,
        /// Bootstrap seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// The unbiased pass@k estimate for c correct out of n samples.
    PassAtK {
        /// Samples.
        #[arg(long)]
        n: u64,
        /// Correct samples.
        #[arg(long)]
        c: u64,
        /// k.
        #[arg(long)]
        k: u64,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Ties {
    HumansAhead,
    Shared,
}

/// A model's result in a round.
#[derive(Deserialize)]
struct ModelResult {
    rule: Rule,
    results: Vec<ProblemResult>,
    #[serde(default)]
    max_points: Vec<f64>,
}

fn main() -> ExitCode {
    match run(Cli::parse().command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("leaderboard: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Codeforces { rows } => {
            let rows = codeforces::read_rows(&rows)?;
            let deltas = codeforces::rating_changes(&rows);
            let perfs = codeforces::performances(&rows);
            let ranks = codeforces::ranks(&rows);
            let exact = rows
                .iter()
                .zip(&deltas)
                .filter(|(r, d)| r.delta == Some(**d))
                .count();
            let known = rows.iter().filter(|r| r.delta.is_some()).count();
            let out: Vec<_> = rows
                .iter()
                .enumerate()
                .map(|(i, r)| json!({"handle": r.handle, "rank": ranks[i], "old_rating": r.old_rating,
                    "codeforces_delta": deltas[i], "published_delta": r.delta, "codeforces_performance": perfs[i]}))
                .collect();
            println!(
                "{}",
                json!({"rows": out, "published_deltas": known, "exact": exact})
            );
        }
        Command::Scoreboard { event_feed, frozen } => {
            let text = std::fs::read_to_string(&event_feed)
                .with_context(|| format!("reading {}", event_feed.display()))?;
            let feed = clics::read_feed(&text, &event_feed.display().to_string())?;
            let until = frozen.then_some(feed.duration - feed.freeze);
            for row in feed.scoreboard(until)? {
                println!("{}", serde_json::to_string(&row)?);
            }
        }
        Command::Place { rows, model, ties } => {
            let rows = codeforces::read_rows(&rows)?;
            let text = std::fs::read_to_string(&model)
                .with_context(|| format!("reading {}", model.display()))?;
            let model: ModelResult = serde_json::from_str(&text)
                .with_context(|| format!("{}: not a model result", model.display()))?;
            let score = model.rule.score(&model.results, &model.max_points);
            let humans: Vec<Score> = rows
                .iter()
                .map(|r| Score {
                    points: r.points,
                    penalty: r.penalty,
                    last_accept: 0.0,
                })
                .collect();
            let policy = match ties {
                Ties::HumansAhead => TiePolicy::HumansAhead,
                Ties::Shared => TiePolicy::Shared,
            };
            let placement = place(&model.rule, &humans, &score, policy);
            let ratings: Vec<f64> = rows.iter().map(|r| f64::from(r.old_rating)).collect();
            let cap = ratings.iter().copied().fold(0.0, f64::max) + 100.0;
            let codeelo = codeelo_rating(&ratings, placement.place_hi as f64, 0.0, cap);
            // Codeforces performance: the model joins the round as one more contestant.
            let mut with_model = rows.clone();
            with_model.push(codeforces::Row {
                handle: "(model)".to_owned(),
                points: score.points,
                penalty: score.penalty,
                old_rating: 1400,
                delta: None,
            });
            let performance = codeforces::performances(&with_model)
                .last()
                .copied()
                .flatten();
            println!(
                "{}",
                json!({"score": score, "placement": placement, "tie_policy": policy,
                    "codeelo_rating": codeelo, "codeforces_performance": performance})
            );
        }
        Command::Stats {
            values,
            level,
            seed,
        } => {
            let interval = numeric::bootstrap_mean(&values, level, 10_000, seed)
                .context("--values needs at least one value and --level must be in (0, 1)")?;
            println!(
                "{}",
                json!({"bootstrap_mean": interval, "spread": numeric::spread(&values)})
            );
        }
        Command::PassAtK { n, c, k } => {
            let value = numeric::pass_at_k(n, c, k).context("need c <= n and 1 <= k <= n")?;
            println!("{}", json!({"pass_at_k": value, "n": n, "c": c, "k": k}));
        }
    }
    Ok(())
}
