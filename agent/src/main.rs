//! The `agent` binary: `agent solve` runs the solve loop on problem packages offline
//! against any OpenAI-compatible model server and writes a run folder (manifest and
//! trajectories); `agent report` summarises a run folder or shows one problem's
//! trajectory; `agent play` takes part in a live contest; `agent demo` runs the main
//! job on one machine ([`demo`]); `agent evaluate` places a model in a real past contest
//! ([`evaluate`]).
//!
//! Exit codes: 0 when the command did its work (whatever was solved), 2 when it could
//! not (a model server that does not answer its health check, a run folder of another
//! run, a sandbox that is missing).

mod demo;
mod evaluate;

use std::path::PathBuf;
use std::sync::Arc;

use agent::budget::RunLedger;
use agent::client::{ClientConfig, OpenAiClient};
use agent::local::{LocalJudge, WorkbenchRunner};
use agent::model::ChatModel;
use agent::pipeline::{Budget, Pipeline};
use agent::report;
use agent::series::{self, Batch, Done, Item, Progressbar};
use agent::trajectory::{FORMAT, Manifest, ModelInfo, ProblemEntry, RunDir};
use anyhow::{Context, bail};
use clap::{Args, Parser, Subcommand};
use judge::sandbox::{BackendKind, SandboxConfig};
use judge::workbench::Workbench;

#[derive(Parser)]
#[command(
    name = "agent",
    version,
    about = "The arena's agent: solve problems with a model, report runs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the solve loop on problem packages offline (local judge) and record a run.
    Solve(Box<SolveArgs>),
    /// Summarise a run folder, or show one problem's trajectory.
    Report(ReportArgs),
    /// Take part in a live contest on a contest server (CLICS API) as a team.
    Play(Box<PlayCmd>),
    /// The main job on one machine: a live demo contest (judge serve, scripted teams,
    /// guest seats) with the model playing, then the standings and a report.
    Demo(Box<demo::DemoArgs>),
    /// Place a model in a real past contest: solve its packages offline, then rank the
    /// result among the contest's humans (CLICS feed or Codeforces rows).
    Evaluate(Box<evaluate::EvaluateArgs>),
}

#[derive(Args)]
struct PlayCmd {
    /// The contest, the team, the play's time and budget.
    #[command(flatten)]
    play: agent::play::PlayArgs,
    /// The run folder (made when missing; a play started again with it continues).
    #[arg(long)]
    out: PathBuf,
    /// `full`, `short`, or a pipeline file (YAML or JSON).
    #[arg(long, default_value = "full")]
    pipeline: String,
    /// Write in this language (else the pipeline's, else the model's choice).
    #[arg(long, value_parser = ["cpp", "python3"])]
    language: Option<String>,
    /// The seed (sampling and generator seeds derive from it).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The sandbox backend the agent runs its own code in.
    #[arg(long, value_enum, default_value_t = BackendKind::Docker)]
    backend: BackendKind,
    /// The most tokens per reply (overrides the pipeline's).
    #[arg(long)]
    max_tokens: Option<u32>,
    /// Where to reach the model.
    #[command(flatten)]
    client: ClientConfig,
}

#[derive(Args)]
struct SolveArgs {
    /// A problem package folder.
    #[arg(long, conflicts_with = "problems")]
    problem: Option<PathBuf>,
    /// Several package folders, or folders of packages.
    #[arg(long, num_args = 1..)]
    problems: Vec<PathBuf>,
    /// The run folder (made when missing; a run started again with it resumes).
    #[arg(long)]
    out: PathBuf,
    /// Problems solved at the same time.
    #[arg(long = "concurrency", id = "problem_concurrency", default_value_t = 1)]
    concurrency: usize,
    /// `full`, `short`, or a pipeline file (YAML or JSON).
    #[arg(long, default_value = "full")]
    pipeline: String,
    /// Write in this language (else the pipeline's, else the model's choice).
    #[arg(long, value_parser = ["cpp", "python3"])]
    language: Option<String>,
    /// The seed (sampling and generator seeds derive from it).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The sandbox backend.
    #[arg(long, value_enum, default_value_t = BackendKind::Docker)]
    backend: BackendKind,
    /// The most tokens per reply (overrides the pipeline's).
    #[arg(long)]
    max_tokens: Option<u32>,
    /// The sampling temperature (overrides the pipeline's).
    #[arg(long)]
    temperature: Option<f32>,
    /// The run's budget: model calls over every problem.
    #[arg(long)]
    run_model_calls: Option<u64>,
    /// The run's budget: tokens over every problem.
    #[arg(long)]
    run_tokens: Option<u64>,
    /// The run's budget: wall time in seconds.
    #[arg(long)]
    run_wall_seconds: Option<u64>,
    /// The run's budget: submissions over every problem.
    #[arg(long)]
    run_submissions: Option<u64>,
    /// Where to reach the model.
    #[command(flatten)]
    client: ClientConfig,
}

#[derive(Args)]
struct ReportArgs {
    /// The run folder.
    run_dir: PathBuf,
    /// Show this problem's trajectory.
    #[arg(long)]
    problem: Option<String>,
    /// JSON instead of text.
    #[arg(long)]
    json: bool,
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => tokio::runtime::Runtime::new()
            .context("cannot start the async runtime")
            .and_then(|rt| rt.block_on(solve(*args))),
        Command::Report(args) => report_cmd(&args),
        Command::Play(args) => tokio::runtime::Runtime::new()
            .context("cannot start the async runtime")
            .and_then(|rt| rt.block_on(play(*args))),
        Command::Demo(args) => demo::demo(&args),
        Command::Evaluate(args) => tokio::runtime::Runtime::new()
            .context("cannot start the async runtime")
            .and_then(|rt| rt.block_on(evaluate::evaluate(&args))),
    };
    if let Err(err) = result {
        eprintln!("agent: {err:#}");
        std::process::exit(2);
    }
}

/// Package folders: a folder with `problem.yaml` is one; any other folder stands for its
/// subfolders that are.
fn package_dirs(args: &SolveArgs) -> anyhow::Result<Vec<PathBuf>> {
    let mut given: Vec<PathBuf> = args.problem.iter().cloned().collect();
    given.extend(args.problems.iter().cloned());
    if given.is_empty() {
        bail!("name a problem: --problem DIR or --problems DIR...");
    }
    let mut dirs = Vec::new();
    for dir in given {
        if dir.join("problem.yaml").is_file() || !dir.is_dir() {
            dirs.push(dir);
            continue;
        }
        let mut inner: Vec<PathBuf> = std::fs::read_dir(&dir)
            .with_context(|| format!("cannot read {}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("problem.yaml").is_file())
            .collect();
        if inner.is_empty() {
            // Not a package and holds none: let loading say what is wrong with it.
            dirs.push(dir);
        } else {
            inner.sort();
            dirs.extend(inner);
        }
    }
    Ok(dirs)
}

fn version() -> String {
    let v = env!("CARGO_PKG_VERSION");
    match option_env!("ARENA_GIT_COMMIT") {
        Some(commit) => format!("{v} ({commit})"),
        None => v.to_owned(),
    }
}

async fn solve(args: SolveArgs) -> anyhow::Result<()> {
    let mut pipeline = Pipeline::named(&args.pipeline).context("--pipeline")?;
    if let Some(lang) = &args.language {
        pipeline.language = Some(lang.clone());
    }
    if let Some(n) = args.max_tokens {
        pipeline.sampling.max_tokens = n;
    }
    if let Some(t) = args.temperature {
        pipeline.sampling.temperature = t;
    }
    let run_budget = Budget {
        model_calls: args.run_model_calls,
        tokens: args.run_tokens,
        wall_seconds: args.run_wall_seconds,
        submissions: args.run_submissions,
    };
    let items: Vec<Item> = package_dirs(&args)?.into_iter().map(Item::load).collect();
    for item in &items {
        if let Err(err) = &item.task {
            eprintln!(
                "agent: {} does not load (recorded as unloadable): {err}",
                item.source.display()
            );
        }
    }

    let client = OpenAiClient::new(args.client.clone()).context("model client")?;
    let run = RunDir::create(&args.out)
        .with_context(|| format!("cannot make the run folder {}", args.out.display()))?;
    let manifest = Manifest {
        format: FORMAT,
        run: format!(
            "{}-{}",
            args.out
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("run"),
            chrono::Utc::now().format("%Y%m%dT%H%M%SZ")
        ),
        created: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        version: version(),
        model: ModelInfo {
            name: client.name().to_owned(),
            endpoint: client.endpoint(),
            client: serde_json::to_value(&args.client).context("client settings")?,
        },
        seed: args.seed,
        pipeline: pipeline.clone(),
        run_budget: run_budget.clone(),
        backend: args.backend.name().to_owned(),
        concurrency: args.concurrency,
        problems: items
            .iter()
            .map(|i| ProblemEntry {
                id: i.id.clone(),
                source: i.source.display().to_string(),
            })
            .collect(),
    };
    let manifest = run.start(manifest)?;
    for item in &items {
        if let agent::trajectory::Progress::Finished(o) = run.progress(&item.id)? {
            eprintln!(
                "agent: {} finished in an earlier start of this run ({}): skipped",
                item.id,
                if o.solved { "solved" } else { "not solved" }
            );
        }
    }

    client.check().await.with_context(|| {
        format!(
            "the model server {} does not answer its health check (nothing was run)",
            client.endpoint()
        )
    })?;

    let config = SandboxConfig::discover().context("sandbox")?;
    let bench = Workbench::new(config, args.backend, None).context("sandbox workbench")?;
    let runner = WorkbenchRunner::new(Arc::new(bench));
    let judge = LocalJudge::new(runner.clone());
    let ledger = RunLedger::new(run_budget);
    let progress = Progressbar;
    let batch = Batch {
        model: &client,
        runner: &runner,
        submitter: &judge,
        pipeline: &pipeline,
        ledger: &ledger,
        run: &run,
        run_id: manifest.run.clone(),
        seed: args.seed,
        concurrency: args.concurrency,
        watcher: Some(&progress),
    };
    let done = series::run_all(&batch, &items).await?;
    let ran = done.iter().filter(|d| matches!(d, Done::Ran(_))).count();
    println!(
        "{ran} problem(s) run, {} skipped as finished; run folder {}",
        done.len() - ran,
        args.out.display()
    );
    let summary = report::summarize(&run)?;
    print!("{}", report::render_summary(&summary));
    Ok(())
}

/// `agent play`: the model client and the sandbox as for `agent solve`, then
/// `agent::play::play` until the contest's end, the play's time or its budget.
async fn play(args: PlayCmd) -> anyhow::Result<()> {
    let mut pipeline = Pipeline::named(&args.pipeline).context("--pipeline")?;
    if let Some(lang) = &args.language {
        pipeline.language = Some(lang.clone());
    }
    if let Some(n) = args.max_tokens {
        pipeline.sampling.max_tokens = n;
    }
    let client = OpenAiClient::new(args.client.clone()).context("model client")?;
    client.check().await.with_context(|| {
        format!(
            "the model server {} does not answer its health check (nothing was played)",
            client.endpoint()
        )
    })?;
    let sandbox = SandboxConfig::discover().context("sandbox")?;
    let bench = Workbench::new(sandbox, args.backend, None).context("sandbox workbench")?;
    let runner = WorkbenchRunner::new(Arc::new(bench));
    let run = format!(
        "play-{}-{}",
        args.play.contest,
        chrono::Utc::now().format("%Y%m%dT%H%M%SZ")
    );
    let config = args
        .play
        .config(args.out.clone(), pipeline.clone(), args.seed);
    let manifest = Manifest {
        format: FORMAT,
        run,
        created: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        version: version(),
        model: ModelInfo {
            name: client.name().to_owned(),
            endpoint: client.endpoint(),
            client: serde_json::to_value(&args.client).context("client settings")?,
        },
        seed: args.seed,
        pipeline,
        run_budget: config.budget.clone(),
        backend: args.backend.name().to_owned(),
        concurrency: 1,
        problems: Vec::new(),
    };
    let summary = agent::play::play(&client, &runner, &config, manifest)
        .await
        .with_context(|| {
            format!(
                "agent play: contest {} at {}",
                args.play.contest, args.play.server
            )
        })?;
    println!(
        "stopped: {}; solved {} of {} ({}); {} submission(s), {} visit(s); run folder {}",
        serde_json::to_value(&summary.reason)
            .ok()
            .and_then(|v| v["kind"].as_str().map(str::to_owned))
            .unwrap_or_default(),
        summary.solved().len(),
        summary.problems.len(),
        summary.solved().join(", "),
        summary.submissions,
        summary.visits,
        args.out.display()
    );
    use agent::play::StopReason;
    match &summary.reason {
        StopReason::ModelFailed { error }
        | StopReason::RunnerFailed { error }
        | StopReason::RecordFailed { error }
        | StopReason::ContestServer { error }
        | StopReason::Refused { error } => bail!("the play stopped early: {error}"),
        _ => Ok(()),
    }
}

fn report_cmd(args: &ReportArgs) -> anyhow::Result<()> {
    let run = RunDir::open(&args.run_dir)?;
    match (&args.problem, args.json) {
        (Some(id), json) => {
            if !run.trajectory_path(id).is_file() {
                bail!(
                    "{}: no trajectory for problem {id} (problems: {})",
                    args.run_dir.display(),
                    run.problems()?.join(", ")
                );
            }
            if json {
                let (lines, _) = run.read(id)?;
                println!("{}", serde_json::to_string_pretty(&lines)?);
            } else {
                print!("{}", report::render_problem(&run, id)?);
            }
        }
        (None, true) => println!(
            "{}",
            serde_json::to_string_pretty(&report::summarize(&run)?)?
        ),
        (None, false) => print!("{}", report::render_summary(&report::summarize(&run)?)),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
        let cli = Cli::try_parse_from([
            "agent",
            "solve",
            "--problem",
            "p",
            "--model-url",
            "http://x",
            "--model-name",
            "m",
            "--out",
            "o",
            "--concurrency",
            "3",
        ])
        .expect("parses");
        match cli.command {
            Command::Solve(args) => {
                assert_eq!(args.concurrency, 3);
                assert_eq!(args.client.model, "m");
            }
            _ => panic!("solve"),
        }
        let cli = Cli::try_parse_from([
            "agent",
            "play",
            "--server",
            "http://127.0.0.1:8080",
            "--contest",
            "demo",
            "--team",
            "secret",
            "--model-url",
            "http://x",
            "--model-name",
            "m",
            "--out",
            "o",
            "--duration",
            "60",
        ])
        .expect("parses");
        let Command::Play(args) = cli.command else {
            panic!("play")
        };
        assert_eq!(args.play.duration_seconds, Some(60));
        assert_eq!(args.play.token, "secret");
    }
}
