//! The runs of `agent evaluate`: the agent solving the contest's packages offline with
//! `agent solve`'s loop (one problem after another, each run with its own seed), and
//! each run folder read back as the model's result per problem ([`RunResult`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use agent::budget::RunLedger;
use agent::client::OpenAiClient;
use agent::local::{LocalJudge, WorkbenchRunner};
use agent::model::ChatModel;
use agent::pipeline::{Budget, Pipeline, Stage};
use agent::report;
use agent::series::{self, Batch, Item, Progressbar};
use agent::trajectory::{FORMAT, Line, Manifest, ModelInfo, ProblemEntry, RunDir};
use anyhow::{Context, bail};
use judge::sandbox::SandboxConfig;
use judge::workbench::Workbench;
use problems::Verdict;
use serde::Serialize;

use super::EvaluateArgs;

/// The runs to evaluate: `--from`'s folders, else `--runs` new runs under `--out`, each
/// read back; they must hold the same problems in the same order (never empty).
pub(super) async fn gather(args: &EvaluateArgs) -> anyhow::Result<Vec<RunResult>> {
    let dirs = if args.from.is_empty() {
        package_dirs(&args.problems)?
    } else {
        Vec::new()
    };
    gather_in(args, &dirs, &args.out, &args.from, &TimeLimits::new()).await
}

/// Time limits that replace a package's own, by package id (a contest's `problems.json`).
pub(super) type TimeLimits = std::collections::BTreeMap<String, std::time::Duration>;

/// The runs of the packages `dirs` under `out` (`--runs` of them, the limits in `limits`
/// replacing the packages' own), or the earlier run folders `from` when there are any.
pub(super) async fn gather_in(
    args: &EvaluateArgs,
    dirs: &[PathBuf],
    root: &Path,
    from: &[PathBuf],
    limits: &TimeLimits,
) -> anyhow::Result<Vec<RunResult>> {
    std::fs::create_dir_all(root).with_context(|| format!("cannot make {}", root.display()))?;
    let mut run_dirs = from.to_vec();
    if run_dirs.is_empty() {
        for k in 0..args.runs.max(1) {
            let out = root.join(format!("run-{}", k + 1));
            eprintln!(
                "agent evaluate: run {} of {} ({} problems) into {}",
                k + 1,
                args.runs.max(1),
                dirs.len(),
                out.display()
            );
            solve_run(args, dirs, &out, args.seed + u64::from(k), limits).await?;
            run_dirs.push(out);
        }
    }
    let runs: Vec<RunResult> = run_dirs
        .iter()
        .map(|d| read_run(d))
        .collect::<anyhow::Result<_>>()?;
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
    Ok(runs)
}

/// Each problem of `first` (in work order) as `(id, name)`: the name from its package
/// when the run's manifest still leads to it, else the id.
pub(super) fn package_names(first: &RunResult) -> Vec<(String, String)> {
    first
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
        .collect()
}

/// A run's results, problem by problem in the given order (`ids`).
#[derive(Debug, Clone, Serialize)]
pub(super) struct RunResult {
    /// The run folder.
    pub(super) run: PathBuf,
    /// The model's name.
    pub(super) model: String,
    /// Per problem: solved, rejections before the accept, accept second of agent time.
    pub(super) problems: Vec<ProblemRun>,
    /// Tokens (prompt and completion) over the run.
    pub(super) tokens: u64,
}

/// One problem of a run.
#[derive(Debug, Clone, Serialize)]
pub(super) struct ProblemRun {
    pub(super) id: String,
    pub(super) solved: bool,
    pub(super) rejected: u32,
    /// Agent seconds from the run's start to the accepted submission.
    pub(super) accept_seconds: Option<f64>,
}

/// The problems of an earlier run folder (its manifest's ids, in work order).
pub(super) fn run_problem_ids(dir: &Path) -> anyhow::Result<Vec<String>> {
    let run = RunDir::open(dir).with_context(|| format!("run folder {}", dir.display()))?;
    let manifest = run
        .manifest()?
        .with_context(|| format!("run folder {}: no manifest", dir.display()))?;
    Ok(manifest.problems.iter().map(|p| p.id.clone()).collect())
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

/// Runs `agent solve`'s loop on the packages into `out`.
async fn solve_run(
    args: &EvaluateArgs,
    dirs: &[PathBuf],
    out: &Path,
    seed: u64,
    limits: &TimeLimits,
) -> anyhow::Result<()> {
    let mut pipeline = Pipeline::named(&args.pipeline).context("--pipeline")?;
    if let Some(n) = args.max_tokens {
        pipeline.sampling.max_tokens = n;
    }
    let mut items: Vec<Item> = dirs.iter().cloned().map(Item::load).collect();
    for item in &mut items {
        let id = item.id.clone();
        match &mut item.task {
            Err(err) => bail!("{} does not load: {err}", item.source.display()),
            Ok(task) => {
                if let Some(&limit) = limits.get(&id) {
                    task.time_limit = limit;
                    if let Some(package) = &mut task.package {
                        package.limits.time = limit;
                    }
                }
            }
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
    // The model's Python runs as each package's one Python, as a contest's team's does.
    let runner = WorkbenchRunner::new(Arc::new(bench)).with_package_python();
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

/// The package folders of `given` (packages, or folders of packages), in order.
pub(super) fn package_dirs(given: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
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
