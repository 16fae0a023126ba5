//! Live contest play (`agent play`): the agent takes part in a contest on a contest server
//! as a team would, through the CLICS API ([`crate::client::contest`]).
//!
//! [`play`] reads the contest, checks the team token, waits for the start (when it comes
//! within the play's time), reads every problem's statement and samples (each written
//! as a package of what a participant knows, [`package`]), and takes the server's record
//! of the team's own submissions as the truth: solved problems are skipped, rejections
//! counted, pending submissions waited for, so a play started again continues where the
//! server says it is. Then, until the contest ends, the play's time or the run's budget
//! is spent, or every problem is solved: it reads the scoreboard, picks the next problem
//! and the visit's time and submissions ([`strategy`]), and runs the solve loop
//! ([`crate::solve::solve`]) on it with a [`crate::runner::Submitter`] that posts to the
//! server and polls the team's judgements until the verdict comes.
//!
//! Records, in the run folder (the layout of `agent solve`'s, [`crate::trajectory`]):
//! `manifest.json` with the contest's problems, and each visit's steps and outcome as one
//! attempt in `trajectories/<problem>.jsonl`; the play's own decisions go to `play.jsonl`, one [`PlayEvent`]
//! a line, flushed as written (the problems read, the server's record, each order with
//! the board's solve counts, each visit's plan and outcome, each submission with its
//! verdict, and why the play stopped); `problems/<id>/` holds each problem's package.
//!
//! The code follows the play's steps: `play_in` opens the contest (`open_contest`), then
//! asks for the next visit (`next_visit`, which also says when to stop), makes it
//! (`visit`), and stops on a visit's end when `stop_after` says so. The play's record is
//! in `log` (`play.jsonl`), the team's record as the server has it in `record`, and the
//! submitter that posts and polls in `submit`.

mod log;
pub mod package;
mod record;
pub mod runner;
pub mod strategy;
mod submit;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use leaderboard::clics::JudgementType;
use serde::{Deserialize, Serialize};

use crate::budget::{RunLedger, Scope};
use crate::client::contest::{ContestClient, ContestError};
use crate::model::ChatModel;
use crate::pipeline::{Budget, Pipeline};
use crate::runner::Runner;
use crate::solve::{Episode, solve};
use crate::step::{End, Outcome};
use crate::task::Task;
use crate::trajectory::{Manifest, ProblemEntry, Progress, RunDir};
use log::earlier_visits;
use record::{refresh, wait_pending};
use submit::ServerSubmitter;

pub use log::{PLAY_LOG, PlayEvent, PlayLog, read_log};
pub use record::{record_of, verdict_of};
use strategy::{Clock, ProblemState, TimeConfig, Visit};

/// What `agent play` needs besides the model and the runner (no `Debug`: it holds the
/// team token).
#[derive(Clone)]
pub struct PlayConfig {
    /// The contest server (`http://host:port`).
    pub server: String,
    /// The contest id.
    pub contest: String,
    /// The team's bearer token (never recorded).
    pub token: String,
    /// The run folder.
    pub out: PathBuf,
    /// The loop's stages and per-problem settings (its budget caps each visit).
    pub pipeline: Pipeline,
    /// The whole play's budget (model calls, tokens, submissions; wall time too).
    pub budget: Budget,
    /// The play's own time limit, from its start (the contest's end stops it anyway).
    pub duration: Option<Duration>,
    /// Visit lengths and rejections per visit.
    pub time: TimeConfig,
    /// How often to ask for a judgement.
    pub poll: Duration,
    /// How long to wait for one submission's judgement.
    pub judgement_patience: Duration,
    /// The memory limit assumed for the problems (the API states none), in MiB.
    pub memory_mib: u64,
    /// The seed; each visit's derives from it.
    pub seed: u64,
    /// Each HTTP request's timeout.
    pub request_timeout: Duration,
}

/// The command line of `agent play` (besides the model's flags, the sandbox backend and
/// the pipeline, which `agent solve` shares).
/// No `Debug`: it holds the team token.
#[derive(Clone, clap::Args)]
pub struct PlayArgs {
    /// The contest server's base URL (`http://host:port`).
    #[arg(long)]
    pub server: String,
    /// The contest id.
    #[arg(long)]
    pub contest: String,
    /// The team's token (or set ARENA_TEAM_TOKEN); never written to a record.
    #[arg(long = "team", env = "ARENA_TEAM_TOKEN", hide_env_values = true)]
    pub token: String,
    /// The play's own time limit in seconds from its start (the contest's end stops it
    /// anyway).
    #[arg(long = "duration")]
    pub duration_seconds: Option<u64>,
    /// The whole play's budget of model calls.
    #[arg(long = "budget-calls")]
    pub budget_calls: Option<u64>,
    /// The whole play's budget of tokens.
    #[arg(long = "budget-tokens")]
    pub budget_tokens: Option<u64>,
    /// The whole play's budget of submissions.
    #[arg(long = "budget-submissions")]
    pub budget_submissions: Option<u64>,
    /// No visit to a problem starts with fewer seconds left.
    #[arg(long = "min-visit", default_value_t = 30)]
    pub min_visit_seconds: u64,
    /// The longest visit to one problem, in seconds.
    #[arg(long = "max-visit", default_value_t = 900)]
    pub max_visit_seconds: u64,
    /// Rejections a visit takes before the play moves on (outside the end game).
    #[arg(long = "rejections-per-visit", default_value_t = 2)]
    pub rejections_per_visit: u32,
    /// How often to ask for a judgement, in milliseconds.
    #[arg(long = "poll-ms", default_value_t = 500)]
    pub poll_ms: u64,
    /// How long to wait for one judgement, in seconds.
    #[arg(long = "judgement-patience", default_value_t = 600)]
    pub judgement_patience_seconds: u64,
    /// The memory limit assumed for every problem (the API states none), in MiB.
    #[arg(long = "memory-mib", default_value_t = 1024)]
    pub memory_mib: u64,
    /// Each request to the contest server times out after this many seconds.
    #[arg(long = "contest-timeout", default_value_t = 30)]
    pub request_timeout_seconds: u64,
}

impl PlayArgs {
    /// The play's configuration, with the run folder, pipeline and seed the command
    /// shares with `agent solve`.
    pub fn config(&self, out: PathBuf, pipeline: Pipeline, seed: u64) -> PlayConfig {
        PlayConfig {
            server: self.server.clone(),
            contest: self.contest.clone(),
            token: self.token.clone(),
            out,
            pipeline,
            budget: Budget {
                model_calls: self.budget_calls,
                tokens: self.budget_tokens,
                wall_seconds: self.duration_seconds,
                submissions: self.budget_submissions,
            },
            duration: self.duration_seconds.map(Duration::from_secs),
            time: TimeConfig {
                min_visit: Duration::from_secs(self.min_visit_seconds),
                max_visit: Duration::from_secs(self.max_visit_seconds.max(1)),
                rejections_per_visit: self.rejections_per_visit.max(1),
            },
            poll: Duration::from_millis(self.poll_ms.max(50)),
            judgement_patience: Duration::from_secs(self.judgement_patience_seconds),
            memory_mib: self.memory_mib,
            seed,
            request_timeout: Duration::from_secs(self.request_timeout_seconds.max(1)),
        }
    }
}

/// Why the play stopped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StopReason {
    /// Every problem is solved.
    AllSolved,
    /// The contest is over.
    ContestEnded,
    /// The play's own time is spent (`--duration`), or too little of it is left for a
    /// visit.
    PlayTime,
    /// The run's budget is spent.
    Budget {
        /// What ran out.
        what: String,
    },
    /// Nothing left to try: every open problem has a submission the server has not
    /// judged within the patience.
    Waiting,
    /// The model could not be reached.
    ModelFailed {
        /// The error.
        error: String,
    },
    /// Running code or the contest server failed twice in a row.
    RunnerFailed {
        /// The error.
        error: String,
    },
    /// The play could not begin or go on (the contest server unreachable, the token
    /// refused, the contest over or not starting in time, a language not allowed).
    Refused {
        /// The error.
        error: String,
    },
    /// The contest server failed mid-play (unreachable, refusing): what was recorded
    /// stays, and a play started again continues from the server's record.
    ContestServer {
        /// The error.
        error: String,
    },
    /// A record could not be written.
    RecordFailed {
        /// The error.
        error: String,
    },
}

/// What a play did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlaySummary {
    /// Why it stopped.
    pub reason: StopReason,
    /// Each problem's final state.
    pub problems: Vec<ProblemState>,
    /// Submissions the team has made (the server's record).
    pub submissions: usize,
    /// Visits made by this process.
    pub visits: u32,
}

impl PlaySummary {
    /// The problems solved.
    pub fn solved(&self) -> Vec<String> {
        self.problems
            .iter()
            .filter(|p| p.solved)
            .map(|p| p.id.clone())
            .collect()
    }
}

/// What stops a play before it can begin, or its records.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The contest server refused or failed (unreachable, token, not started, ended).
    #[error(transparent)]
    Contest(#[from] ContestError),
    /// A problem's package could not be written or loaded.
    #[error(transparent)]
    Package(#[from] package::PackageError),
    /// The pipeline's language is not allowed in the contest.
    #[error(
        "the pipeline's language `{language}` is not allowed in contest `{contest}` (allowed: {allowed})"
    )]
    Language {
        /// The language asked for.
        language: String,
        /// The contest.
        contest: String,
        /// The languages allowed.
        allowed: String,
    },
    /// The contest states no start time, so its end is unknown.
    #[error("contest `{0}` states no start time")]
    NoStartTime(String),
    /// The run folder (manifest, trajectories) refused or failed.
    #[error(transparent)]
    Run(#[from] crate::Error),
    /// `play.jsonl` could not be written or read.
    #[error("{path}: {source}")]
    Record {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

fn unix_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

fn until(from_ms: i64, to_ms: i64) -> Duration {
    Duration::from_millis(u64::try_from(to_ms - from_ms).unwrap_or(0))
}

/// The contest's start and end in Unix milliseconds, and its penalty minutes.
struct Schedule {
    start_ms: i64,
    end_ms: i64,
    duration: Duration,
    penalty_minutes: u32,
}

/// Plays the contest with `model`, running code through `runner`. The run folder is
/// `config.out`: `manifest` (the caller's, its problems filled in here from the contest)
/// is written or, on a resume, checked; each visit's steps and outcome are appended to
/// the problem's trajectory (`trajectories/<problem>.jsonl`, one attempt per visit).
/// `Err` only when the play cannot begin or its records cannot be written; everything
/// after the start ends in a [`PlaySummary`] with its [`StopReason`], recorded in
/// `play.jsonl`.
pub async fn play(
    model: &dyn ChatModel,
    runner: &dyn Runner,
    config: &PlayConfig,
    manifest: Manifest,
) -> Result<PlaySummary, PlayError> {
    let began = Instant::now();
    let play_deadline = config.duration.map(|d| began + d);
    let run_dir = RunDir::create(&config.out)?;
    // The manifest in force: this one, or on a resume the first one (same model,
    // pipeline and seed, or the run folder is refused).
    let manifest = run_dir.start(manifest)?;
    let run_id = manifest.run.clone();
    let earlier = read_log(&config.out)?;
    let log = PlayLog::open(&config.out)?;
    let ctx = Ctx {
        model,
        runner,
        config,
        log: &log,
        run_dir: &run_dir,
        run_id,
        earlier,
        play_deadline,
    };
    let result = play_in(&ctx, manifest).await;
    if let Err(err) = &result
        && !matches!(err, PlayError::Record { .. })
    {
        // Why the play could not go on is recorded too (the error is returned as well).
        log.write(&PlayEvent::Stop {
            reason: StopReason::Refused {
                error: err.to_string(),
            },
            solved: Vec::new(),
            submissions: 0,
        })?;
    }
    result
}

/// What the play's steps share.
struct Ctx<'a> {
    model: &'a dyn ChatModel,
    runner: &'a dyn Runner,
    config: &'a PlayConfig,
    log: &'a PlayLog,
    run_dir: &'a RunDir,
    run_id: String,
    earlier: Vec<PlayEvent>,
    play_deadline: Option<Instant>,
}

/// The play once opened: the contest, its problems as tasks, and the team's record.
struct Opened {
    client: ContestClient,
    schedule: Schedule,
    /// The pipeline, its language settled by the contest's languages.
    pipeline: Pipeline,
    types: Vec<JudgementType>,
    tasks: Vec<Task>,
    /// The server's record of each problem, in the contest's order.
    states: Vec<ProblemState>,
    team_id: Option<String>,
}

/// What to do next: visit a problem (its index and plan), or stop.
enum Next {
    Visit(usize, Visit),
    Stop(StopReason),
}

/// The play after its records are open: open the contest, then visit problems until a
/// stop reason, then record the summary.
async fn play_in(ctx: &Ctx<'_>, manifest: Manifest) -> Result<PlaySummary, PlayError> {
    let mut open = open_contest(ctx, manifest).await?;
    let runner = runner::LiveRunner::new(ctx.runner);
    let ledger = RunLedger::new(ctx.config.budget.clone());
    let mut visits = 0u32;
    let mut runner_failures = 0u32;
    let reason = loop {
        let (index, plan) = match next_visit(ctx, &mut open).await? {
            Next::Visit(index, plan) => (index, plan),
            Next::Stop(reason) => break reason,
        };
        let outcome = visit(ctx, &open, &runner, &ledger, index, &plan, visits).await?;
        visits += 1;
        let Opened {
            client,
            states,
            types,
            team_id,
            ..
        } = &mut open;
        if let Err(err) = refresh(client, states, types, team_id).await {
            break StopReason::ContestServer {
                error: err.to_string(),
            };
        }
        if !open.states[index].solved {
            open.states[index].visits += 1;
        }
        if let Some(reason) = stop_after(&outcome.end, &mut runner_failures) {
            break reason;
        }
    };
    let submissions = open.client.submissions().await.map_or(0, |s| s.len());
    let summary = PlaySummary {
        reason: reason.clone(),
        problems: open.states,
        submissions,
        visits,
    };
    ctx.log.write(&PlayEvent::Stop {
        reason,
        solved: summary.solved(),
        submissions,
    })?;
    Ok(summary)
}

/// Opens the contest: reads it, checks the token, waits for the start, settles the
/// language, writes each problem as a task, fills in the manifest's problems, and reads
/// the team's record (with the visits an earlier play left unsolved).
async fn open_contest(ctx: &Ctx<'_>, manifest: Manifest) -> Result<Opened, PlayError> {
    let Ctx {
        config,
        log,
        run_dir,
        ref run_id,
        ref earlier,
        play_deadline,
        ..
    } = *ctx;
    let client = ContestClient::new(
        &config.server,
        &config.contest,
        &config.token,
        config.request_timeout,
    )?;
    let contest = client.contest().await?;
    log.write(&PlayEvent::Start {
        run: run_id.clone(),
        server: client.api_root().to_owned(),
        contest: contest.id.clone(),
        name: contest.name.clone(),
        at_ms: u64::try_from(unix_ms()).unwrap_or(0),
        resumed: !earlier.is_empty(),
    })?;
    client.check_token().await?;
    let start_ms = contest
        .start_time
        .map(|t| t.unix_millis())
        .ok_or_else(|| PlayError::NoStartTime(contest.id.clone()))?;
    let schedule = Schedule {
        start_ms,
        end_ms: start_ms + contest.duration.millis(),
        duration: Duration::from_millis(u64::try_from(contest.duration.millis()).unwrap_or(0)),
        penalty_minutes: contest.penalty_time.unwrap_or(20),
    };
    wait_for_start(&client, &contest, &schedule, play_deadline).await?;

    let allowed: Vec<String> = client
        .languages()
        .await?
        .into_iter()
        .map(|l| l.id)
        .collect();
    let mut pipeline = config.pipeline.clone();
    match &pipeline.language {
        Some(language) if !allowed.contains(language) => {
            return Err(PlayError::Language {
                language: language.clone(),
                contest: contest.id.clone(),
                allowed: allowed.join(", "),
            });
        }
        Some(_) => {}
        None => {
            // The model chooses among the languages the loop writes; when the contest
            // allows only one of them, that one.
            let usable: Vec<&str> = crate::extract::LANGUAGES
                .iter()
                .copied()
                .filter(|l| allowed.iter().any(|a| a == l))
                .collect();
            if let [only] = usable.as_slice() {
                pipeline.language = Some((*only).to_owned());
            }
        }
    }
    let types = client.judgement_types().await?;

    let mut tasks = Vec::new();
    let mut states = Vec::new();
    for problem in client.problems().await? {
        let text = client.read_problem(&problem).await?;
        let dir = config.out.join("problems").join(&problem.id);
        let task = package::write_task(&text, &dir, config.memory_mib)?;
        let note = match (text.samples.is_empty(), task.statement_format.as_str()) {
            (true, _) => Some(
                ContestError::NoSamples {
                    contest: contest.id.clone(),
                    problem: problem.id.clone(),
                }
                .to_string()
                    + "; the loop goes on without them",
            ),
            (false, "none") => Some("no text statement; the samples are all the agent has".into()),
            _ => None,
        };
        log.write(&PlayEvent::Problem {
            problem: problem.id.clone(),
            label: problem.label.clone(),
            name: problem.name.clone(),
            statement_chars: task.statement.chars().count(),
            statement_format: task.statement_format.clone(),
            samples: task.samples.len(),
            note,
        })?;
        states.push(ProblemState::new(
            &problem.id,
            &problem.label,
            problem.ordinal,
            task.statement.chars().count(),
        ));
        tasks.push(task);
    }

    let problems = states
        .iter()
        .map(|s| ProblemEntry {
            id: s.id.clone(),
            source: format!(
                "{}/contests/{}/problems/{}",
                client.api_root(),
                contest.id,
                s.id
            ),
        })
        .collect();
    run_dir.start(Manifest {
        problems,
        ..manifest
    })?;

    let visits_before = earlier_visits(earlier);
    for state in &mut states {
        state.visits = visits_before.get(&state.id).copied().unwrap_or(0);
    }
    let mut team_id = None;
    refresh(&client, &mut states, &types, &mut team_id).await?;
    for state in &states {
        log.write(&PlayEvent::Record {
            state: state.clone(),
        })?;
    }

    Ok(Opened {
        client,
        schedule,
        pipeline,
        types,
        tasks,
        states,
        team_id,
    })
}

/// Decides the next visit: waits for pending submissions, then stops when the contest
/// has ended, every problem is solved, or no time is left for a visit; otherwise orders
/// the problems by the board (recorded) and plans a visit to the first.
async fn next_visit(ctx: &Ctx<'_>, open: &mut Opened) -> Result<Next, PlayError> {
    let config = ctx.config;
    let Opened {
        client,
        schedule,
        types,
        states,
        team_id,
        ..
    } = open;
    // Pending submissions (a play killed while one was judged) first.
    if states.iter().any(|s| s.pending > 0) {
        let waited = wait_pending(client, config, states, types, team_id, schedule).await;
        if let Err(err) = waited {
            return Ok(Next::Stop(StopReason::ContestServer {
                error: err.to_string(),
            }));
        }
    }
    let now = unix_ms();
    let ended = match client.state().await {
        Ok(state) => state.ended.is_some(),
        Err(err) => {
            return Ok(Next::Stop(StopReason::ContestServer {
                error: err.to_string(),
            }));
        }
    };
    if now >= schedule.end_ms || ended {
        return Ok(Next::Stop(StopReason::ContestEnded));
    }
    if states.iter().all(|s| s.solved) {
        return Ok(Next::Stop(StopReason::AllSolved));
    }
    let contest_left = until(now, schedule.end_ms);
    let left = match ctx.play_deadline {
        Some(deadline) => contest_left.min(deadline.saturating_duration_since(Instant::now())),
        None => contest_left,
    };
    let solves = match client.scoreboard().await {
        Ok(board) => strategy::solve_counts(&board, team_id.as_deref()),
        Err(_) => BTreeMap::new(),
    };
    let per_visit = config.time.rejections_per_visit;
    let order: Vec<String> = strategy::order(states, &solves, per_visit)
        .into_iter()
        .map(|p| p.id.clone())
        .collect();
    ctx.log.write(&PlayEvent::Order {
        contest_ms: now - schedule.start_ms,
        solves,
        order: order.clone(),
    })?;
    let Some(next) = order.first() else {
        return Ok(Next::Stop(StopReason::Waiting));
    };
    let clock = Clock {
        left,
        contest_left,
        duration: schedule.duration,
        penalty_minutes: schedule.penalty_minutes,
    };
    let Some(plan) = strategy::plan_visit(&config.time, &clock, order.len()) else {
        return Ok(Next::Stop(if left < contest_left {
            StopReason::PlayTime
        } else {
            StopReason::ContestEnded
        }));
    };
    let index = states
        .iter()
        .position(|s| &s.id == next)
        .expect("invariant: the order holds the play's problems");
    Ok(Next::Visit(index, plan))
}

/// One visit: the solve loop on problem `index` under the visit's plan, its steps
/// appended to the problem's trajectory as the next attempt, its submissions posted to
/// the server.
async fn visit(
    ctx: &Ctx<'_>,
    open: &Opened,
    runner: &runner::LiveRunner<'_>,
    ledger: &RunLedger,
    index: usize,
    plan: &Visit,
    visits: u32,
) -> Result<Outcome, PlayError> {
    let next = &open.states[index].id;
    let attempt = match ctx.run_dir.progress(next)? {
        Progress::New => 1,
        Progress::Unfinished { next_attempt } => next_attempt,
        Progress::Finished(last) => last.attempt + 1,
    };
    let observer = ctx.run_dir.writer(next)?;
    ctx.log.write(&PlayEvent::Visit {
        problem: next.clone(),
        attempt,
        plan: plan.clone(),
    })?;
    let visit_pipeline = visit_pipeline(&open.pipeline, plan);
    let submitter = ServerSubmitter {
        client: &open.client,
        types: &open.types,
        log: ctx.log,
        poll: ctx.config.poll,
        patience: ctx.config.judgement_patience,
    };
    let outcome = solve(Episode {
        model: ctx.model,
        runner,
        submitter: &submitter,
        task: &open.tasks[index],
        pipeline: &visit_pipeline,
        run_ledger: Some(ledger),
        seed: ctx.config.seed.wrapping_add(u64::from(visits)),
        observer: &observer,
        run: ctx.run_id.clone(),
        attempt,
    })
    .await;
    ctx.log.write(&PlayEvent::VisitEnd {
        outcome: Box::new(outcome.clone()),
    })?;
    Ok(outcome)
}

/// Why a visit's end stops the play, if it does: the run's budget spent, the model
/// or the records failed, or the sandbox failed on two visits in a row
/// (`runner_failures` counts them; any other end resets it).
fn stop_after(end: &End, runner_failures: &mut u32) -> Option<StopReason> {
    match end {
        End::Budget { exhausted } if exhausted.scope == Scope::Run => Some(StopReason::Budget {
            what: exhausted.to_string(),
        }),
        End::ModelFailed { error } => Some(StopReason::ModelFailed {
            error: error.clone(),
        }),
        End::RecordFailed { error } => Some(StopReason::RecordFailed {
            error: error.clone(),
        }),
        End::RunnerFailed { error } => {
            *runner_failures += 1;
            (*runner_failures >= 2).then(|| StopReason::RunnerFailed {
                error: error.clone(),
            })
        }
        _ => {
            *runner_failures = 0;
            None
        }
    }
}

/// The pipeline of one visit: the pipeline's settings, its budget cut to the visit's
/// time and submissions, and the visit's rule on submitting a failing program.
pub fn visit_pipeline(pipeline: &Pipeline, plan: &Visit) -> Pipeline {
    let mut visit = pipeline.clone();
    let wall = plan.wall.as_secs().max(1);
    visit.budget.wall_seconds = Some(visit.budget.wall_seconds.map_or(wall, |w| w.min(wall)));
    if let Some(limit) = plan.submissions {
        visit.budget.submissions = Some(visit.budget.submissions.map_or(limit, |s| s.min(limit)));
    }
    visit.submit_failing = plan.submit_failing;
    visit
}

/// Waits for the contest to start when it starts within the play's time; else the
/// contest's state decides: over, or not started.
async fn wait_for_start(
    client: &ContestClient,
    contest: &leaderboard::clics::Contest,
    schedule: &Schedule,
    play_deadline: Option<Instant>,
) -> Result<(), ContestError> {
    loop {
        let state = client.state().await?;
        if state.ended.is_some() || unix_ms() >= schedule.end_ms {
            return Err(ContestError::Ended {
                contest: contest.id.clone(),
                ended_at: state.ended.or(contest.start_time.map(|t| {
                    leaderboard::clics::Time::from_unix_millis(
                        t.unix_millis() + contest.duration.millis(),
                    )
                })),
            });
        }
        if state.started.is_some() {
            return Ok(());
        }
        let wait = until(unix_ms(), schedule.start_ms);
        let starts_in_time = play_deadline.is_none_or(|d| Instant::now() + wait < d);
        if !starts_in_time {
            return Err(ContestError::NotStarted {
                contest: contest.id.clone(),
                starts_at: contest.start_time,
            });
        }
        tokio::time::sleep(wait.clamp(Duration::from_millis(200), Duration::from_secs(5))).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use leaderboard::clics::Submission;
    use leaderboard::clics::{RelTime, Time};
    use problems::Verdict;

    fn submission(id: &str, problem: &str, minute: i64) -> Submission {
        Submission {
            id: id.into(),
            language_id: "cpp".into(),
            problem_id: problem.into(),
            team_id: "t1".into(),
            time: Time::from_unix_millis(minute * 60_000),
            contest_time: RelTime::from_minutes(minute),
            entry_point: None,
            files: Vec::new(),
            reaction: None,
        }
    }

    fn judged(id: &str, submission: &str, verdict: &str) -> leaderboard::clics::Judgement {
        leaderboard::clics::Judgement {
            id: id.into(),
            submission_id: submission.into(),
            judgement_type_id: Some(verdict.into()),
            start_time: Time::from_unix_millis(0),
            start_contest_time: RelTime::ZERO,
            end_time: None,
            end_contest_time: None,
            max_run_time: None,
            score: None,
        }
    }

    fn types() -> Vec<JudgementType> {
        ["AC", "WA", "TLE", "CE", "JE"]
            .iter()
            .map(|id| JudgementType::new(*id, *id, *id == "AC"))
            .collect()
    }

    #[test]
    fn the_servers_record_counts_tries_until_the_accept() {
        let mut states = vec![
            ProblemState::new("a", "A", 0, 10),
            ProblemState::new("b", "B", 1, 10),
            ProblemState::new("c", "C", 2, 10),
        ];
        let submissions = [
            submission("s1", "a", 1),
            submission("s2", "a", 2),
            submission("s3", "a", 3),
            submission("s4", "a", 4), // after the accept: not counted
            submission("s5", "b", 5),
            submission("s6", "b", 6),
            submission("s7", "c", 7), // not judged yet
            submission("s8", "x", 8), // a problem the play does not know
        ];
        let judgements = [
            judged("j1", "s1", "WA"),
            judged("j2", "s2", "CE"),
            judged("j3", "s3", "AC"),
            judged("j4", "s4", "WA"),
            judged("j5", "s5", "TLE"),
            judged("j6", "s6", "JE"),
        ];
        record_of(&mut states, &submissions, &judgements, &types());
        let summary: Vec<_> = states
            .iter()
            .map(|s| {
                (
                    s.id.as_str(),
                    s.solved,
                    s.rejected,
                    s.free_rejections,
                    s.pending,
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                ("a", true, 1, 1, 0),
                ("b", false, 1, 1, 0),
                ("c", false, 0, 0, 1)
            ]
        );
    }

    #[test]
    fn verdicts_from_judgement_types() {
        let mut types = types();
        types.push(JudgementType::new("OK", "okay", true));
        assert_eq!(verdict_of("AC", &types), Verdict::AC);
        assert_eq!(verdict_of("OK", &types), Verdict::AC);
        assert_eq!(verdict_of("RE", &types), Verdict::RTE);
        assert_eq!(verdict_of("CTL", &types), Verdict::CE);
        assert_eq!(verdict_of("NO", &types), Verdict::WA);
    }

    #[test]
    fn a_visit_cuts_the_pipeline_budget() {
        let pipeline = Pipeline::short();
        let early = Visit {
            wall: Duration::from_secs(120),
            submissions: Some(1),
            submit_failing: false,
            end_game: false,
        };
        let cut = visit_pipeline(&pipeline, &early);
        assert_eq!(cut.budget.wall_seconds, Some(120));
        assert_eq!(cut.budget.submissions, Some(1));
        assert!(!cut.submit_failing);
        assert_eq!(cut.stages, pipeline.stages);
        let late = Visit {
            wall: Duration::from_secs(5000),
            submissions: None,
            submit_failing: true,
            end_game: true,
        };
        let cut = visit_pipeline(&pipeline, &late);
        assert_eq!(cut.budget.wall_seconds, pipeline.budget.wall_seconds);
        assert_eq!(cut.budget.submissions, pipeline.budget.submissions);
        assert!(cut.submit_failing);
    }

    #[test]
    fn the_log_is_read_back_and_counts_visits_left_unsolved() {
        let dir = tempfile::tempdir().unwrap();
        let log = PlayLog::open(dir.path()).unwrap();
        let outcome = |problem: &str, solved: bool| Outcome {
            run: "r".into(),
            problem: problem.into(),
            attempt: 1,
            solved,
            verdict: None,
            hidden: None,
            end: End::PipelineDone,
            steps: 0,
            model_calls: 0,
            submissions: 0,
            usage: crate::model::Usage::default(),
            timing: crate::step::Timing::default(),
            wall_ms: 0.0,
            program: None,
        };
        for (problem, solved) in [("a", false), ("a", false), ("b", true), ("c", false)] {
            log.write(&PlayEvent::VisitEnd {
                outcome: Box::new(outcome(problem, solved)),
            })
            .unwrap();
        }
        drop(log);
        // A line cut by a kill is skipped.
        let path = dir.path().join(PLAY_LOG);
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("{\"event\":\"visit_e");
        std::fs::write(&path, text).unwrap();
        let events = read_log(dir.path()).unwrap();
        assert_eq!(events.len(), 4);
        assert_eq!(
            earlier_visits(&events),
            BTreeMap::from([("a".into(), 2), ("c".into(), 1)])
        );
        assert!(read_log(&dir.path().join("none")).unwrap().is_empty());
    }
}
