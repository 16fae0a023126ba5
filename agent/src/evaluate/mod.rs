//! `agent evaluate`: a model placed in a real past contest. The agent solves the contest's
//! problem packages offline (the solve loop of `agent solve`, one problem after another,
//! `--runs` times with different seeds), each run's results become a
//! [`leaderboard::evaluate::ModelResult`] in simulated contest time, and the leaderboard
//! places it among the contest's humans: a CLICS event feed (ICPC rules, its penalty and
//! length; the standings restricted to the problems given when they are fewer) or
//! Codeforces rows with ratings (the ratings by name): an ICPC-style round (educational,
//! Div. 3 and 4: solved, then penalty) or, with `--problem-points`, a points round
//! (Codeforces' `type: "CF"`: each problem's points decay by the minute, 50 off per
//! rejection, never below 30%; [`leaderboard::standings::codeforces_points`]). `--from` re-evaluates earlier run folders, and several models' runs make a
//! table across models.
//!
//! The policies, all stated in the report:
//! - timing (`measured`): the agent works the problems in the given order, one at a time;
//!   a submission's contest time is the agent's wall time from the start of the run to
//!   the submission (the earlier problems' episodes in full), times `--time-scale`; an
//!   accept after the contest's length does not count. `instant` (CodeElo's): every
//!   accept at minute 0.
//! - attempts: each judged submission before the first accept is a rejection (compile
//!   errors excluded, as ICPC counts them); the pipeline's per-problem budget caps them.
//!   Codeforces does not charge a rejection on the first test; the local judge runs every
//!   test and records no first failure, so every judged rejection is charged.
//! - ties: humans with exactly the model's score rank ahead of it (`humans-ahead`, CodeElo)
//!   or share its place (`shared`).
//!
//! `--contest PACKAGES=STANDINGS[@GROUP]`, repeated, evaluates several contests in one
//! report ([`contests`]): each contest's packages against its standings (a CLICS contest
//! package, one group of its teams, or a feed), then the mean percentile and the solves
//! by difficulty band across them.
//!
//! The command is cut where it divides, one file per step: [`standings`] reads the
//! humans' side and aligns the packages with it, [`runs`] solves and reads the runs,
//! [`placing`] places each run and summarises each model, [`render`] writes the
//! report, and [`contests`] does all of it for each contest and sums up across them.

mod contests;
mod placing;
mod render;
mod runs;
mod standings;

use std::path::PathBuf;

use agent::client::ClientConfig;
use clap::{Args, ValueEnum};
use judge::sandbox::BackendKind;

/// The timing policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum TimingArg {
    /// The agent's measured wall time, scaled, as contest time.
    Measured,
    /// Every accept at minute 0 (CodeElo).
    Instant,
}

/// The tie policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum TieArg {
    /// Equal humans rank ahead of the model.
    HumansAhead,
    /// Equal humans share its place.
    Shared,
}

/// `agent evaluate`'s command line.
#[derive(Args)]
pub(crate) struct EvaluateArgs {
    /// The contest's problem packages (folders, or folders of packages), in the order the
    /// agent works them.
    #[arg(long, num_args = 1.., required_unless_present_any = ["from", "contests"], conflicts_with = "contests")]
    problems: Vec<PathBuf>,
    /// The humans' standings: a CLICS event feed (any form: NDJSON, 2020-03 or 2023-06).
    #[arg(
        long,
        conflicts_with_all = ["codeforces", "contests"],
        required_unless_present_any = ["codeforces", "contests"]
    )]
    feed: Option<PathBuf>,
    /// A contest, repeatable: `PACKAGES=STANDINGS[@GROUP]`: its problem packages (a
    /// package, or a folder of them), and the humans' standings, a CLICS contest package
    /// (a folder or a zip; `@GROUP` limits the humans to that group, e.g. `@contestants`)
    /// or a CLICS event feed. One report over all of them.
    #[arg(
        long = "contest",
        value_name = "PACKAGES=STANDINGS[@GROUP]",
        conflicts_with = "codeforces"
    )]
    contests: Vec<String>,
    /// The humans' standings: Codeforces rows with ratings
    /// (`[[handle, points, penalty, oldRating, delta], ...]`): an ICPC-style round
    /// (points = solved), or a points round with `--problem-points`.
    #[arg(long)]
    codeforces: Option<PathBuf>,
    /// A Codeforces points round (`type: "CF"` in the API's standings): each problem's
    /// points, in the round's order (A, B, ...); the packages are its first problems in
    /// order, or placed by `--match PACKAGE=LABEL`.
    #[arg(long, num_args = 1.., requires = "codeforces", value_name = "POINTS")]
    problem_points: Vec<f64>,
    /// Minutes per rejection on an ICPC-style Codeforces round (educational rounds: 10).
    #[arg(long, default_value_t = 10)]
    penalty_minutes: u32,
    /// The contest's length in minutes for Codeforces rows (a feed states its own); on a
    /// points round it also sets how fast points decay.
    #[arg(long, default_value_t = 120)]
    contest_minutes: u32,
    /// A package's problem in the standings: `PACKAGE=LABEL` or `PACKAGE=ID` (default:
    /// matched by name or id).
    #[arg(long = "match", value_name = "PACKAGE=PROBLEM")]
    matches: Vec<String>,
    /// The run folders go under this folder (`run-1`, `run-2`, ...), with
    /// `evaluation.json` and `evaluation.md`.
    #[arg(long)]
    out: PathBuf,
    /// Runs (each with the seed plus its index): the intervals come from them.
    #[arg(long, default_value_t = 1)]
    runs: u32,
    /// Evaluate these earlier run folders instead of running (several models: a table
    /// across them).
    #[arg(long, num_args = 1..)]
    from: Vec<PathBuf>,
    /// The timing policy.
    #[arg(long, value_enum, default_value_t = TimingArg::Measured)]
    timing: TimingArg,
    /// Contest seconds per second of the agent's wall time (measured timing).
    #[arg(long, default_value_t = 1.0)]
    time_scale: f64,
    /// The tie policy.
    #[arg(long, value_enum, default_value_t = TieArg::HumansAhead)]
    tie: TieArg,
    /// The model's stated training cut-off (a date), for the contamination note.
    #[arg(long)]
    training_cutoff: Option<String>,
    /// `full`, `short`, or a pipeline file.
    #[arg(long, default_value = "full")]
    pipeline: String,
    /// The most tokens per reply (overrides the pipeline's).
    #[arg(long)]
    max_tokens: Option<u32>,
    /// The seed of the first run.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The sandbox backend.
    #[arg(long, value_enum, default_value_t = BackendKind::Docker)]
    backend: BackendKind,
    /// Where to reach the model.
    #[command(flatten)]
    client: ClientConfig,
}

/// Runs `agent evaluate`: the humans' standings, the runs, their placing, the report.
pub(crate) async fn evaluate(args: &EvaluateArgs) -> anyhow::Result<()> {
    if !args.contests.is_empty() {
        return contests::evaluate(args).await;
    }
    let standings::Standings {
        humans,
        problems,
        contest,
    } = standings::read(args)?;
    let runs = runs::gather(args).await?;
    let first = &runs[0];
    let packages = runs::package_names(first);
    let aligned = standings::align(humans, &problems, &packages, &args.matches)?;
    let per_run = placing::each_run(args, &contest, &aligned, &runs)?;
    let table = placing::across_models(&per_run, contest.rule);
    render::write(
        args,
        &contest,
        aligned.restriction.as_ref(),
        first,
        &per_run,
        &table,
    )
}
