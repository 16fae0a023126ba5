//! The `leaderboard` command line: Codeforces ratings from standings rows, a CLICS
//! scoreboard from an event feed, placing a model among humans (Codeforces round or ICPC
//! feed), CodeElo's summary over contests, statistics, and a benchmark.
//! Output is JSON (one object, or one line per row for scoreboards), or Markdown for
//! `rate` without `--json`. Exit code 0 on success, 2 on bad input.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, format_err};
use clap::{Parser, Subcommand};
use leaderboard::evaluate::{self, ModelResult, Options};
use leaderboard::place::{self, TiePolicy};
use leaderboard::{bench, clics, codeforces, numeric, report};
use serde_json::json;

#[derive(Parser)]
#[command(name = "leaderboard", about = "Standings, ratings and statistics")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Rating changes and performances for the rows of a round
    /// (`[handle, points, penalty, oldRating, delta]`): a JSON array with `handle`,
    /// `delta` and `performance` (null where unbounded), or a Markdown table.
    Rate {
        /// The rating system.
        #[arg(long, value_enum, default_value = "codeforces")]
        system: System,
        /// The rows file.
        #[arg(long, alias = "codeforces")]
        rows: PathBuf,
        /// Print JSON instead of a Markdown table.
        #[arg(long)]
        json: bool,
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
    /// Place a model's result among the humans of a contest: a Codeforces round (rows,
    /// with ratings) or an ICPC contest (a CLICS event feed, final standings, no ratings).
    Place {
        /// The rows file of a Codeforces round.
        #[arg(long, alias = "rows", required_unless_present = "event_feed")]
        standings: Option<PathBuf>,
        /// A CLICS event feed (ICPC rules of the feed).
        #[arg(long, conflicts_with = "standings")]
        event_feed: Option<PathBuf>,
        /// The model's result: JSON `{"rule": {...}, "timing": "measured"|"instant",
        /// "results": [...], "max_points": [...]}` (`rule` is taken from the feed with
        /// `--event-feed`).
        #[arg(long)]
        model: PathBuf,
        /// How humans with the model's exact score count.
        #[arg(long, value_enum, default_value = "humans-ahead")]
        ties: Ties,
        /// Uncertainty of each human's rating for the Elo-MMR performance (80 is
        /// Elo-MMR's floor for a seasoned player).
        #[arg(long, default_value_t = evaluate::DEFAULT_HUMAN_SIG)]
        human_sig: f64,
        /// Also write an SVG plot of the humans' ratings with the model's
        /// `codeelo_rating` marked (Codeforces rounds only).
        #[arg(long)]
        svg: Option<PathBuf>,
    },
    /// CodeElo's summary: the mean of per-contest ratings, a bootstrap interval over
    /// contests, and percentiles in a rating population.
    Codeelo {
        /// Per-contest `codeelo_rating`s, comma separated.
        #[arg(long, value_delimiter = ',', required = true)]
        ratings: Vec<f64>,
        /// The population: a JSON array of ratings, or a rows file (its old ratings).
        #[arg(long)]
        population: PathBuf,
        /// Confidence level.
        #[arg(long, default_value_t = 0.95)]
        level: f64,
        /// Bootstrap seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Mean with a bootstrap confidence interval, and the spread of repeated runs.
    Stats {
        /// Per-contest or per-run values, comma separated.
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
    /// Time the Codeforces rating of a synthetic round against the quadratic
    /// transcription of the formula, in one run.
    Bench {
        /// Contestants in the large round (tabulated implementation only).
        #[arg(long, default_value_t = 30_000)]
        n: usize,
        /// Contestants in the rounds both implementations rate, comma separated.
        #[arg(long, value_delimiter = ',', default_values_t = [1_000, 3_000, 10_000])]
        both: Vec<usize>,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum System {
    /// Mirzayanov's 2015 Codeforces formula; performance = old rating at which the
    /// change would be 0.
    Codeforces,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Ties {
    HumansAhead,
    Shared,
}

/// The seed of `leaderboard bench`'s synthetic rounds.
const BENCH_SEED: u64 = 7;

fn main() -> ExitCode {
    match run(Cli::parse().command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("leaderboard: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn read(path: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
}

fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Rate { system, rows, json } => rate(system, &rows, json),
        Command::Scoreboard { event_feed, frozen } => {
            let feed = clics::read_feed(&read(&event_feed)?, &event_feed.display().to_string())?;
            for row in feed.board(frozen)?.rows {
                println!("{}", serde_json::to_string(&row)?);
            }
            Ok(())
        }
        Command::Place {
            standings,
            event_feed,
            model,
            ties,
            human_sig,
            svg,
        } => {
            let tie_policy = match ties {
                Ties::HumansAhead => TiePolicy::HumansAhead,
                Ties::Shared => TiePolicy::Shared,
            };
            let options = Options {
                tie_policy,
                human_sig,
                ..Options::default()
            };
            let model_path = model;
            let model: ModelResult = serde_json::from_str(&read(&model_path)?)
                .with_context(|| format!("{}: not a model result", model_path.display()))?;
            match (standings, event_feed) {
                (_, Some(feed)) => place_in_feed(&feed, &model, &options),
                (Some(rows), None) => place_in_round(&rows, &model, &options, svg.as_deref()),
                (None, None) => Err(format_err!("give --standings or --event-feed")),
            }
        }
        Command::Codeelo {
            ratings,
            population,
            level,
            seed,
        } => {
            let value: serde_json::Value = serde_json::from_str(&read(&population)?)
                .with_context(|| format!("{}: not JSON", population.display()))?;
            let numbers: Option<Vec<f64>> = value
                .as_array()
                .and_then(|a| a.iter().map(serde_json::Value::as_f64).collect());
            let population_ratings = match numbers {
                Some(numbers) => numbers,
                None => codeforces::read_rows(&population)?
                    .iter()
                    .map(|r| f64::from(r.old_rating))
                    .collect(),
            };
            let summary = place::codeelo_summary(&ratings, &population_ratings, level, seed)
                .context("need at least one rating and a non-empty population")?;
            println!(
                "{}",
                json!({"codeelo": summary, "population_size": population_ratings.len()})
            );
            Ok(())
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
            Ok(())
        }
        Command::PassAtK { n, c, k } => {
            let value = numeric::pass_at_k(n, c, k).context("need c <= n and 1 <= k <= n")?;
            println!("{}", json!({"pass_at_k": value, "n": n, "c": c, "k": k}));
            Ok(())
        }
        Command::Bench { n, both } => {
            print_bench(n, &both);
            Ok(())
        }
    }
}

fn rate(system: System, rows: &Path, json: bool) -> anyhow::Result<()> {
    let System::Codeforces = system;
    let rows = codeforces::read_rows(rows)?;
    let deltas = codeforces::rating_changes(&rows);
    let perfs = codeforces::performances(&rows);
    let ranks = codeforces::ranks(&rows);
    if json {
        let out: Vec<_> = rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                json!({"handle": r.handle, "rank": ranks[i], "old_rating": r.old_rating,
                    "delta": deltas[i], "published_delta": r.delta, "performance": perfs[i]})
            })
            .collect();
        println!("{}", serde_json::Value::Array(out));
        return Ok(());
    }
    let known = rows.iter().filter(|r| r.delta.is_some()).count();
    let exact = rows
        .iter()
        .zip(&deltas)
        .filter(|(r, d)| r.delta == Some(**d))
        .count();
    println!(
        "Codeforces rating change (Mirzayanov 2015) and performance (the old rating at which the change would be 0)."
    );
    println!("Published changes reproduced exactly: {exact} of {known}.");
    println!();
    println!("| handle | rank | old rating | delta | published delta | performance |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (i, r) in rows.iter().enumerate() {
        let published = r.delta.map_or("".to_owned(), |d| d.to_string());
        let perf = perfs[i].map_or("unbounded".to_owned(), |p| p.to_string());
        println!(
            "| {} | {} | {} | {} | {published} | {perf} |",
            r.handle, ranks[i], r.old_rating, deltas[i]
        );
    }
    Ok(())
}

fn place_in_round(
    rows_path: &Path,
    model: &ModelResult,
    options: &Options,
    svg: Option<&Path>,
) -> anyhow::Result<()> {
    let rows = codeforces::read_rows(rows_path)?;
    let res = evaluate::in_round(&rows, model, options)?;
    let ratings = res.ratings;
    if let Some(svg) = svg {
        let title = format!(
            "{}: {} rated humans; model at place {}",
            rows_path
                .file_name()
                .map_or(rows_path.display().to_string(), |n| n
                    .to_string_lossy()
                    .into_owned()),
            rows.len(),
            res.placement.place_hi
        );
        let human_ratings: Vec<f64> = rows.iter().map(|r| f64::from(r.old_rating)).collect();
        let marker = ("codeelo_rating", ratings.codeelo_rating);
        let plot = report::rating_plot(&title, &human_ratings, Some(marker));
        std::fs::write(svg, plot).with_context(|| format!("writing {}", svg.display()))?;
    }
    // The command's output predates `codeforces_delta`, which it leaves out.
    println!(
        "{}",
        json!({"score": res.score, "timing": res.timing, "tie_policy": res.tie_policy,
            "placement": res.placement,
            "ratings": {"codeelo_rating": ratings.codeelo_rating,
                "codeforces_performance": ratings.codeforces_performance,
                "elo_mmr_performance": ratings.elo_mmr_performance,
                "elo_mmr_human_sig": ratings.elo_mmr_human_sig}})
    );
    Ok(())
}

fn place_in_feed(feed: &Path, model: &ModelResult, options: &Options) -> anyhow::Result<()> {
    let feed = clics::read_feed(&read(feed)?, &feed.display().to_string())?;
    let res = evaluate::in_feed(&feed, model, options)?;
    println!(
        "{}",
        json!({"score": res.score, "timing": res.timing, "tie_policy": res.tie_policy,
            "rule": res.rule, "placement": res.placement, "ratings": null})
    );
    Ok(())
}

fn print_bench(n: usize, both: &[usize]) {
    println!("Codeforces rating of a synthetic round (seconds)");
    println!(
        "{:>12} {:>14} {:>14} {:>10} {:>14}",
        "contestants", "tabulated", "quadratic", "ratio", "same changes"
    );
    for &size in both {
        let it = bench::compare(size, BENCH_SEED);
        let (fast, slow, same) = (it.tabulated_seconds, it.quadratic_seconds, it.same_changes);
        println!(
            "{size:>12} {fast:>14.3} {slow:>14.3} {:>10.1} {same:>14}",
            slow / fast
        );
    }
    let large = bench::large_round(n, BENCH_SEED);
    let (fast, perf) = (large.changes_seconds, large.performances_seconds);
    println!("{n:>12} {fast:>14.3} {:>14} {:>10} {:>14}", "-", "-", "-");
    println!("{n} contestants: performances of all of them in {perf:.3} s");
}
