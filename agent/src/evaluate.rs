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

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use agent::budget::RunLedger;
use agent::client::{ClientConfig, OpenAiClient};
use agent::local::{LocalJudge, WorkbenchRunner};
use agent::model::ChatModel;
use agent::pipeline::{Budget, Pipeline, Stage};
use agent::report;
use agent::series::{self, Batch, Item, Progressbar};
use agent::trajectory::{FORMAT, Line, Manifest, ModelInfo, ProblemEntry, RunDir};
use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use judge::sandbox::{BackendKind, SandboxConfig};
use judge::workbench::Workbench;
use leaderboard::clics::Feed;
use leaderboard::codeforces::Row;
use leaderboard::evaluate::{ModelResult, Options};
use leaderboard::place::{Placement, TiePolicy, Timing};
use leaderboard::standings::{ProblemResult, Rule};
use problems::Verdict;
use serde::Serialize;
use serde_json::json;

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
    #[arg(long, num_args = 1.., required_unless_present = "from")]
    problems: Vec<PathBuf>,
    /// The humans' standings: a CLICS event feed (any form: NDJSON, 2020-03 or 2023-06).
    #[arg(
        long,
        conflicts_with = "codeforces",
        required_unless_present = "codeforces"
    )]
    feed: Option<PathBuf>,
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

/// The humans' side.
enum Humans {
    Feed(Box<Feed>),
    Codeforces(Vec<Row>),
}

/// One standings problem: (id, label, name).
type StandingsProblem = (String, String, String);

fn normalize(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase()
}

/// Which standings problem each package is, by `--match` or by name/id.
fn match_problems(
    packages: &[(String, String)],
    standings: &[StandingsProblem],
    explicit: &[String],
) -> anyhow::Result<Vec<usize>> {
    let mut given = BTreeMap::new();
    for m in explicit {
        let (pkg, prob) = m
            .split_once('=')
            .with_context(|| format!("--match {m}: expected PACKAGE=PROBLEM"))?;
        given.insert(pkg.to_owned(), prob.to_owned());
    }
    let mut out = Vec::new();
    for (id, name) in packages {
        let found = if let Some(want) = given.get(id) {
            standings
                .iter()
                .position(|(pid, label, _)| pid == want || label == want)
        } else {
            standings.iter().position(|(pid, label, pname)| {
                // "C: Champernowne Count" names the problem after its label.
                let bare = pname
                    .strip_prefix(&format!("{label}:"))
                    .unwrap_or(pname)
                    .trim();
                let pid_bare = pid.rsplit_once('-').map_or(pid.as_str(), |(a, _)| a);
                [normalize(bare), normalize(pid), normalize(pid_bare)]
                    .iter()
                    .any(|n| !n.is_empty() && (*n == normalize(id) || *n == normalize(name)))
            })
        };
        let Some(index) = found else {
            bail!(
                "package {id} ({name}) matches no problem of the standings ({}): use --match {id}=LABEL",
                standings
                    .iter()
                    .map(|(pid, label, _)| format!("{label} {pid}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        };
        if out.contains(&index) {
            bail!(
                "two packages match problem {} of the standings",
                standings[index].1
            );
        }
        out.push(index);
    }
    Ok(out)
}

/// The feed restricted to `keep` (indices into its problems): the other problems, their
/// submissions and those submissions' judgements removed.
fn restrict(mut feed: Feed, keep: &[usize]) -> Feed {
    let ids: Vec<String> = keep.iter().map(|&i| feed.problems[i].id.clone()).collect();
    feed.problems.retain(|p| ids.contains(&p.id));
    feed.submissions.retain(|s| ids.contains(&s.problem_id));
    let subs: std::collections::BTreeSet<String> =
        feed.submissions.iter().map(|s| s.id.clone()).collect();
    feed.judgements.retain(|j| subs.contains(&j.submission_id));
    feed
}

/// The label of the `index`-th problem of a round: A, B, ...
fn label(index: usize) -> String {
    u8::try_from(index).ok().filter(|i| *i < 26).map_or_else(
        || format!("P{}", index + 1),
        |i| char::from(b'A' + i).to_string(),
    )
}

/// The most a row of an ICPC-style round can score: its points are a solved count.
const MAX_SOLVED: f64 = 26.0;

/// The rule of a Codeforces round's rows: a points round when each problem's points are
/// given, an ICPC-style round (`penalty_minutes` per rejection) otherwise. The rows must
/// agree: an ICPC-style row counts solved problems (a whole number, at most 26), while a
/// points round's solver holds at least 30% of a problem's points.
fn codeforces_rule(
    rows: &[Row],
    problem_points: &[f64],
    penalty_minutes: u32,
    minutes: u32,
) -> anyhow::Result<Rule> {
    let top = rows.iter().map(|r| r.points).fold(0.0, f64::max);
    let points_rows = top > MAX_SOLVED || rows.iter().any(|r| r.points.fract() != 0.0);
    if problem_points.is_empty() {
        if points_rows {
            bail!(
                "the rows score up to {top} points, so the round is scored by points \
                 (Codeforces `type: \"CF\"`): give each problem's points in the round's order \
                 with --problem-points (as the round announced them, e.g. 500 1000 1500)"
            );
        }
        return Ok(Rule::ExtendedIcpc { penalty_minutes });
    }
    if let Some(bad) = problem_points
        .iter()
        .find(|p| !(p.is_finite() && **p > 0.0))
    {
        bail!("--problem-points {bad}: each problem's points must be a positive number");
    }
    if !points_rows && top > 0.0 {
        bail!(
            "--problem-points is for a points round, but these rows count solved problems (at \
             most {top}) with penalty minutes: an ICPC-style round (educational, Div. 3 or 4); \
             leave --problem-points out"
        );
    }
    Ok(Rule::Codeforces {
        duration_minutes: minutes,
    })
}

/// A run's results, problem by problem in the given order (`ids`).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct RunResult {
    /// The run folder.
    run: PathBuf,
    /// The model's name.
    model: String,
    /// Per problem: solved, rejections before the accept, accept second of agent time.
    problems: Vec<ProblemRun>,
    /// Tokens (prompt and completion) over the run.
    tokens: u64,
}

#[derive(Debug, Clone, Serialize)]
struct ProblemRun {
    id: String,
    solved: bool,
    rejected: u32,
    /// Agent seconds from the run's start to the accepted submission.
    accept_seconds: Option<f64>,
}

/// Reads a run folder's results; `ids` are the problems in work order.
fn read_run(dir: &Path) -> anyhow::Result<RunResult> {
    let run = RunDir::open(dir).with_context(|| format!("run folder {}", dir.display()))?;
    let summary = report::summarize(&run)?;
    let ids: Vec<String> = summary
        .manifest
        .problems
        .iter()
        .map(|p| p.id.clone())
        .collect();
    let mut elapsed = 0.0;
    let mut problems = Vec::new();
    for id in &ids {
        let (lines, _) = if run.trajectory_path(id).is_file() {
            run.read(id)?
        } else {
            (Vec::new(), 0)
        };
        let mut rejected = 0;
        let mut accept = None;
        let mut first_ms = None;
        let mut wall = 0.0;
        for line in &lines {
            match line {
                Line::Step(step) => {
                    let start = *first_ms.get_or_insert(step.started_ms);
                    if accept.is_some() || step.stage != Stage::Submit {
                        continue;
                    }
                    match step.signals.verdict {
                        Some(Verdict::AC) => {
                            accept = Some(
                                elapsed + (step.started_ms.saturating_sub(start)) as f64 / 1000.0,
                            );
                        }
                        Some(Verdict::CE | Verdict::JE) | None => {}
                        Some(_) => rejected += 1,
                    }
                }
                Line::Outcome(o) => {
                    wall += o.wall_ms / 1000.0;
                    first_ms = None;
                }
            }
        }
        elapsed += wall;
        problems.push(ProblemRun {
            id: id.clone(),
            solved: accept.is_some(),
            rejected,
            accept_seconds: accept,
        });
    }
    Ok(RunResult {
        run: dir.to_path_buf(),
        model: summary.manifest.model.name.clone(),
        problems,
        tokens: summary.prompt_tokens + summary.completion_tokens,
    })
}

/// The model's result in standings order: `order[k]` is the standings index of the
/// run's `k`-th problem; problems of the standings the run lacks are unsolved. Accepts
/// after `minutes` do not count.
fn model_result(
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
fn interval(values: &[f64]) -> (f64, Option<(f64, f64)>) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n.max(1.0);
    if values.len() < 2 {
        return (mean, None);
    }
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = 1.96 * (var / n).sqrt();
    (mean, Some((mean - half, mean + half)))
}

/// Runs `agent solve`'s loop on the packages into `out`.
async fn solve_run(
    args: &EvaluateArgs,
    dirs: &[PathBuf],
    out: &Path,
    seed: u64,
) -> anyhow::Result<()> {
    let mut pipeline = Pipeline::named(&args.pipeline).context("--pipeline")?;
    if let Some(n) = args.max_tokens {
        pipeline.sampling.max_tokens = n;
    }
    let items: Vec<Item> = dirs.iter().cloned().map(Item::load).collect();
    for item in &items {
        if let Err(err) = &item.task {
            bail!("{} does not load: {err}", item.source.display());
        }
    }
    let client = OpenAiClient::new(args.client.clone()).context("model client")?;
    client.check().await.with_context(|| {
        format!(
            "the model server {} does not answer its health check",
            client.endpoint()
        )
    })?;
    let run = RunDir::create(out).with_context(|| format!("run folder {}", out.display()))?;
    let manifest = Manifest {
        format: FORMAT,
        run: format!("evaluate-{}", chrono::Utc::now().format("%Y%m%dT%H%M%SZ")),
        created: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        version: crate::version(),
        model: ModelInfo {
            name: client.name().to_owned(),
            endpoint: client.endpoint(),
            client: serde_json::to_value(&args.client)?,
        },
        seed,
        pipeline: pipeline.clone(),
        run_budget: Budget::default(),
        backend: args.backend.name().to_owned(),
        concurrency: 1,
        problems: items
            .iter()
            .map(|i| ProblemEntry {
                id: i.id.clone(),
                source: i.source.display().to_string(),
            })
            .collect(),
    };
    let manifest = run.start(manifest)?;
    let config = SandboxConfig::discover().context("sandbox")?;
    let bench = Workbench::new(config, args.backend, None).context("sandbox workbench")?;
    let runner = WorkbenchRunner::new(Arc::new(bench));
    let judge = LocalJudge::new(runner.clone());
    let ledger = RunLedger::new(Budget::default());
    let progress = Progressbar;
    let batch = Batch {
        model: &client,
        runner: &runner,
        submitter: &judge,
        pipeline: &pipeline,
        ledger: &ledger,
        run: &run,
        run_id: manifest.run.clone(),
        seed,
        concurrency: 1,
        watcher: Some(&progress),
    };
    series::run_all(&batch, &items).await?;
    Ok(())
}

fn package_dirs(given: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut dirs = Vec::new();
    for dir in given {
        if dir.join("problem.yaml").is_file() {
            dirs.push(dir.clone());
            continue;
        }
        let mut inner: Vec<PathBuf> = std::fs::read_dir(dir)
            .with_context(|| format!("--problems: cannot read {}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("problem.yaml").is_file())
            .collect();
        if inner.is_empty() {
            bail!("--problems {}: no problem packages there", dir.display());
        }
        inner.sort();
        dirs.extend(inner);
    }
    Ok(dirs)
}

/// Runs `agent evaluate`.
pub(crate) async fn evaluate(args: &EvaluateArgs) -> anyhow::Result<()> {
    // The humans.
    let (humans, standings, minutes, rule, date, source) = if let Some(path) = &args.feed {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("--feed: cannot read {}", path.display()))?;
        let feed = leaderboard::clics::read_feed(&text, &path.display().to_string())
            .with_context(|| format!("--feed {}", path.display()))?;
        let contest = feed.contest()?;
        let minutes = u32::try_from(contest.duration.millis() / 60_000).unwrap_or(0);
        let date = contest.start_time.map(|t| t.to_string());
        let rule = Rule::Icpc {
            penalty_minutes: feed.penalty_minutes()?,
        };
        let standings: Vec<StandingsProblem> = feed
            .problems
            .iter()
            .map(|p| (p.id.clone(), p.label.clone(), p.name.clone()))
            .collect();
        let source = format!("CLICS event feed {} ({})", path.display(), contest.name);
        (
            Humans::Feed(Box::new(feed)),
            standings,
            minutes,
            rule,
            date,
            source,
        )
    } else if let Some(path) = &args.codeforces {
        let rows = leaderboard::codeforces::read_rows(path)
            .with_context(|| format!("--codeforces {}", path.display()))?;
        let rule = codeforces_rule(
            &rows,
            &args.problem_points,
            args.penalty_minutes,
            args.contest_minutes,
        )
        .with_context(|| format!("--codeforces {}", path.display()))?;
        // A points round's problems by label (the rows name none).
        let standings: Vec<StandingsProblem> = (0..args.problem_points.len())
            .map(|i| {
                let label = label(i);
                (label.clone(), label, String::new())
            })
            .collect();
        (
            Humans::Codeforces(rows),
            standings,
            args.contest_minutes,
            rule,
            None,
            format!("Codeforces rows {}", path.display()),
        )
    } else {
        bail!("give the humans' standings: --feed FILE or --codeforces FILE");
    };

    // The runs.
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot make {}", args.out.display()))?;
    let mut run_dirs = args.from.clone();
    if run_dirs.is_empty() {
        let dirs = package_dirs(&args.problems)?;
        for k in 0..args.runs.max(1) {
            let out = args.out.join(format!("run-{}", k + 1));
            eprintln!(
                "agent evaluate: run {} of {} ({} problems) into {}",
                k + 1,
                args.runs.max(1),
                dirs.len(),
                out.display()
            );
            solve_run(args, &dirs, &out, args.seed + u64::from(k)).await?;
            run_dirs.push(out);
        }
    }
    let runs: Vec<RunResult> = run_dirs
        .iter()
        .map(|d| read_run(d))
        .collect::<anyhow::Result<_>>()?;

    // Which standings problem each package is (a feed names them; Codeforces rows do not,
    // so there the packages are the round's problems in order).
    let first = runs.first().context("no run to evaluate")?;
    let ids = |r: &RunResult| r.problems.iter().map(|p| p.id.clone()).collect::<Vec<_>>();
    if let Some(other) = runs.iter().find(|r| ids(r) != ids(first)) {
        bail!(
            "{} holds other problems than {} ({:?} against {:?}): runs evaluated together \
             must be of the same problems in the same order",
            other.run.display(),
            first.run.display(),
            ids(other),
            ids(first)
        );
    }
    let packages: Vec<(String, String)> = first
        .problems
        .iter()
        .map(|p| {
            let name = RunDir::open(&first.run)
                .ok()
                .and_then(|r| r.manifest().ok().flatten())
                .and_then(|m| {
                    m.problems
                        .iter()
                        .find(|e| e.id == p.id)
                        .and_then(|e| Item::load(PathBuf::from(&e.source)).task.ok())
                })
                .map_or_else(|| p.id.clone(), |t| t.name);
            (p.id.clone(), name)
        })
        .collect();
    let (humans, order, count, restricted) = match humans {
        Humans::Feed(feed) => {
            let order = match_problems(&packages, &standings, &args.matches)?;
            let mut keep = order.clone();
            keep.sort_unstable();
            let restricted = keep.len() < standings.len();
            let labels: Vec<String> = keep.iter().map(|&i| standings[i].1.clone()).collect();
            let feed = restrict(*feed, &keep);
            // Indices into the restricted feed's problems.
            let order: Vec<usize> = order
                .iter()
                .map(|i| keep.iter().position(|k| k == i).unwrap_or(0))
                .collect();
            let note = restricted.then(|| {
                format!(
                    "the humans' standings are restricted to the {} problems given ({} of {}): \
                     the other problems' submissions are left out and the board is rebuilt",
                    keep.len(),
                    labels.join(", "),
                    standings.len()
                )
            });
            (Humans::Feed(Box::new(feed)), order, keep.len(), note)
        }
        Humans::Codeforces(rows) if standings.is_empty() => {
            let n = packages.len();
            (Humans::Codeforces(rows), (0..n).collect(), n, None)
        }
        Humans::Codeforces(rows) => {
            // A points round: the model's points on the problems it was given; the rows
            // are totals, so the humans keep their points on the others.
            let (n, count) = (packages.len(), standings.len());
            if n > count {
                bail!(
                    "{n} packages for a round of {count} problems (--problem-points gives \
                     each problem's points)"
                );
            }
            let order = if args.matches.is_empty() {
                (0..n).collect()
            } else {
                match_problems(&packages, &standings, &args.matches)?
            };
            let note = (n < count).then(|| {
                let labels: Vec<&str> = order.iter().map(|&i| standings[i].1.as_str()).collect();
                format!(
                    "the model works {n} of the round's {count} problems ({}) and scores 0 on \
                     the others; the humans' rows are totals over all {count}, so they cannot \
                     be restricted",
                    labels.join(", ")
                )
            });
            (Humans::Codeforces(rows), order, count, note)
        }
    };

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
    for run in &runs {
        let results = model_result(run, &order, count, args.timing, args.time_scale, minutes);
        let model = ModelResult {
            rule: Some(rule),
            timing,
            results: results.clone(),
            max_points: args.problem_points.clone(),
        };
        let (placement, ratings, score): (Placement, serde_json::Value, _) = match &humans {
            Humans::Feed(feed) => {
                let e = leaderboard::evaluate::in_feed(feed, &model, &options)?;
                (e.placement, serde_json::Value::Null, e.score)
            }
            Humans::Codeforces(rows) => {
                let e = leaderboard::evaluate::in_round(rows, &model, &options)?;
                (e.placement, serde_json::to_value(e.ratings)?, e.score)
            }
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

    // Across runs, per model.
    let mut models: BTreeMap<String, Vec<&serde_json::Value>> = BTreeMap::new();
    for r in &per_run {
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

    let humans_count = per_run
        .first()
        .and_then(|r| r["placement"]["humans"].as_u64())
        .unwrap_or(0);
    let timing_text = match args.timing {
        TimingArg::Measured => format!(
            "measured: the agent works the problems in the given order, one at a time; a \
             submission's contest minute is floor(agent wall seconds from the run's start \
             x {} / 60) (earlier problems' episodes counted in full); accepts at or after \
             minute {minutes} do not count",
            args.time_scale
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
            if points_round {
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
    let contamination = match (&date, &args.training_cutoff) {
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
    let report = json!({
        "standings": source,
        "rule": rule,
        "contest_minutes": minutes,
        "humans": humans_count,
        "problems": first.problems.iter().map(|p| &p.id).collect::<Vec<_>>(),
        "restriction": restricted,
        "timing_policy": timing_text,
        "time_scale": args.time_scale,
        "attempt_policy": attempt_text,
        "tie_policy": tie_text,
        "contamination": contamination,
        "interval": "mean over runs with a 95% normal-approximation interval (mean +- 1.96 sd/sqrt(n)); none for one run",
        "models": table,
        "runs": per_run,
    });
    std::fs::write(
        args.out.join("evaluation.json"),
        serde_json::to_string_pretty(&report)? + "\n",
    )?;

    let mut md = format!(
        "# Evaluation against human standings\n\nStandings: {source}; {humans_count} humans; \
         rule {}; {minutes} minutes.\n\n",
        serde_json::to_string(&rule)?
    );
    if let Some(r) = &restricted {
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
    for row in &table {
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
        "\nTiming policy: {timing_text}.\n\nAttempt policy: {}.\n\nTie policy: {tie_text}.\n\n\
         Intervals: {}.\n\nContamination: {contamination}.\n",
        report["attempt_policy"].as_str().unwrap_or_default(),
        report["interval"].as_str().unwrap_or_default(),
    ));
    std::fs::write(args.out.join("evaluation.md"), &md)?;
    print!("{md}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sp(id: &str, label: &str, name: &str) -> StandingsProblem {
        (id.into(), label.into(), name.into())
    }

    #[test]
    fn packages_match_standings_problems_by_name_id_or_flag() {
        let standings = [
            sp("ThreeDice-1", "A", "A: Three Dice"),
            sp("ChampernowneCount-1", "C", "C: Champernowne Count"),
            sp("x", "D", "Something"),
        ];
        let packages = [
            (
                "champernownecount".to_owned(),
                "Champernowne Count".to_owned(),
            ),
            ("threedice".to_owned(), "Three Dice".to_owned()),
        ];
        assert_eq!(
            match_problems(&packages, &standings, &[]).expect("matches"),
            [1, 0]
        );
        let odd = [("mine".to_owned(), "Mine".to_owned())];
        let err = match_problems(&odd, &standings, &[]).expect_err("no match");
        assert!(err.to_string().contains("--match mine=LABEL"), "{err}");
        assert_eq!(
            match_problems(&odd, &standings, &["mine=D".to_owned()]).expect("by label"),
            [2]
        );
    }

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

    fn row(points: f64, penalty: f64) -> Row {
        Row {
            handle: "h".into(),
            points,
            penalty,
            old_rating: 1500,
            delta: None,
        }
    }

    #[test]
    fn codeforces_rows_and_problem_points_must_agree_on_the_rule() {
        let icpc = [row(3.0, 40.0), row(1.0, 5.0), row(0.0, 0.0)];
        let points = [row(2480.0, 0.0), row(498.0, 0.0), row(0.0, 0.0)];
        assert_eq!(
            codeforces_rule(&icpc, &[], 10, 120).expect("an ICPC-style round"),
            Rule::ExtendedIcpc {
                penalty_minutes: 10
            }
        );
        assert_eq!(
            codeforces_rule(&points, &[500.0, 1000.0], 10, 135).expect("a points round"),
            Rule::Codeforces {
                duration_minutes: 135
            }
        );
        let err = codeforces_rule(&points, &[], 10, 120).expect_err("points rows, no points");
        assert!(
            err.to_string().contains("up to 2480 points")
                && err.to_string().contains("--problem-points"),
            "{err}"
        );
        // A fractional score is a points round's too (hacks are whole, decay is not always).
        let half = [row(3.5, 0.0)];
        assert!(codeforces_rule(&half, &[], 10, 120).is_err());
        let err = codeforces_rule(&icpc, &[500.0], 10, 120).expect_err("solved counts, points");
        assert!(
            err.to_string().contains("leave --problem-points out"),
            "{err}"
        );
        let err = codeforces_rule(&points, &[500.0, -1.0], 10, 120).expect_err("negative");
        assert!(err.to_string().contains("--problem-points -1"), "{err}");
        assert_eq!(
            (label(0), label(25), label(26)),
            ("A".into(), "Z".into(), "P27".into())
        );
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
