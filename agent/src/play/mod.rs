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

pub mod package;
pub mod runner;
pub mod strategy;

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use futures_util::future::BoxFuture;
use leaderboard::clics::{JudgementType, Submission};
use problems::Verdict;
use serde::{Deserialize, Serialize};

use crate::budget::{RunLedger, Scope};
use crate::client::contest::{ContestClient, ContestError};
use crate::model::ChatModel;
use crate::pipeline::{Budget, Pipeline};
use crate::runner::{Judgement, Program, RunError, Runner, Submitter};
use crate::solve::{Episode, solve};
use crate::step::{End, Outcome};
use crate::task::Task;
use crate::trajectory::{Manifest, ProblemEntry, Progress, RunDir};

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

/// One line of `play.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum PlayEvent {
    /// The play started (or started again on the same run folder).
    Start {
        /// The run.
        run: String,
        /// The contest server.
        server: String,
        /// The contest id.
        contest: String,
        /// Its name.
        name: String,
        /// Wall clock, Unix milliseconds.
        at_ms: u64,
        /// Whether `play.jsonl` already held a play.
        resumed: bool,
    },
    /// A problem as read.
    Problem {
        /// Its id.
        problem: String,
        /// Its label.
        label: String,
        /// Its name.
        name: String,
        /// Statement length in characters.
        statement_chars: usize,
        /// Where the statement came from (`contest`, or `none` for a PDF-only one).
        statement_format: String,
        /// Samples offered.
        samples: usize,
        /// A problem worth a note (no samples, no text statement).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    /// The server's record of a problem when the play (re)starts.
    Record {
        /// The problem's state.
        state: ProblemState,
    },
    /// The order chosen before a visit.
    Order {
        /// Contest time in milliseconds.
        contest_ms: i64,
        /// Solves per problem on the board (other teams).
        solves: BTreeMap<String, u32>,
        /// The open problems, in the order chosen.
        order: Vec<String>,
    },
    /// A visit begins.
    Visit {
        /// The problem.
        problem: String,
        /// The attempt number (visits so far plus one).
        attempt: u32,
        /// Its plan.
        plan: Visit,
    },
    /// A submission and its verdict.
    Submission {
        /// The problem.
        problem: String,
        /// The server's submission id.
        id: String,
        /// The language id.
        language: String,
        /// Contest time of the submission in milliseconds.
        contest_ms: i64,
        /// The judgement type id (`AC`, `WA`, ...), `None` when not judged in time.
        judgement: Option<String>,
        /// How long the verdict took, in milliseconds.
        waited_ms: u64,
    },
    /// A visit ended.
    VisitEnd {
        /// The loop's outcome.
        outcome: Box<Outcome>,
    },
    /// The play stopped.
    Stop {
        /// Why.
        reason: StopReason,
        /// Problems solved (the server's record).
        solved: Vec<String>,
        /// Submissions the team has made (the server's record).
        submissions: usize,
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

/// The name of the play's own record in the run folder.
pub const PLAY_LOG: &str = "play.jsonl";

/// `play.jsonl`: appended to, one event a line, flushed as written.
#[derive(Debug)]
pub struct PlayLog {
    path: PathBuf,
    file: Mutex<std::fs::File>,
}

impl PlayLog {
    /// Opens (creating) the log in `dir` for appending.
    pub fn open(dir: &Path) -> Result<PlayLog, PlayError> {
        let path = dir.join(PLAY_LOG);
        let record = |source| PlayError::Record {
            path: path.clone(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(|source| PlayError::Record {
            path: dir.to_path_buf(),
            source,
        })?;
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(record)?;
        Ok(PlayLog {
            path,
            file: Mutex::new(file),
        })
    }

    /// Appends `event` and flushes it.
    pub fn write(&self, event: &PlayEvent) -> Result<(), PlayError> {
        let mut line = serde_json::to_string(event).map_err(|err| PlayError::Record {
            path: self.path.clone(),
            source: std::io::Error::other(err),
        })?;
        line.push('\n');
        let mut file = self.file.lock().map_err(|_| PlayError::Record {
            path: self.path.clone(),
            source: std::io::Error::other("the log's lock is poisoned"),
        })?;
        file.write_all(line.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|source| PlayError::Record {
                path: self.path.clone(),
                source,
            })
    }
}

/// The events of `play.jsonl` in `dir` (none when there is no such file); a line that
/// is not an event (cut by a kill mid-write) is skipped.
pub fn read_log(dir: &Path) -> Result<Vec<PlayEvent>, PlayError> {
    let path = dir.join(PLAY_LOG);
    let file = match std::fs::File::open(&path) {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => return Err(PlayError::Record { path, source }),
    };
    let mut events = Vec::new();
    for line in std::io::BufReader::new(file).lines() {
        let line = line.map_err(|source| PlayError::Record {
            path: path.clone(),
            source,
        })?;
        if let Ok(event) = serde_json::from_str(&line) {
            events.push(event);
        }
    }
    Ok(events)
}

/// Visits left unsolved per problem, by an earlier play's `play.jsonl`.
fn earlier_visits(events: &[PlayEvent]) -> BTreeMap<String, u32> {
    let mut visits = BTreeMap::new();
    for event in events {
        if let PlayEvent::VisitEnd { outcome } = event
            && !outcome.solved
        {
            *visits.entry(outcome.problem.clone()).or_insert(0) += 1;
        }
    }
    visits
}

fn unix_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

fn until(from_ms: i64, to_ms: i64) -> Duration {
    Duration::from_millis(u64::try_from(to_ms - from_ms).unwrap_or(0))
}

/// A CLICS judgement type id as a verdict: the contest's own types say which solve;
/// the spec's codes map to ours, other rejections count as wrong answers.
pub fn verdict_of(type_id: &str, types: &[JudgementType]) -> Verdict {
    if let Some(known) = Verdict::from_short(type_id) {
        return known;
    }
    if types.iter().any(|t| t.id == type_id && t.solved) {
        return Verdict::AC;
    }
    match type_id {
        "RE" | "RTE" => Verdict::RTE,
        "CTL" => Verdict::CE,
        "TLE" | "TL" => Verdict::TLE,
        "MLE" | "ML" => Verdict::MLE,
        "OLE" | "OL" => Verdict::OLE,
        _ => Verdict::WA,
    }
}

/// The team's own record per problem from its submissions and their judgements.
pub fn record_of(
    problems: &mut [ProblemState],
    submissions: &[Submission],
    judgements: &[leaderboard::clics::Judgement],
    types: &[JudgementType],
) {
    for problem in problems.iter_mut() {
        problem.solved = false;
        problem.rejected = 0;
        problem.free_rejections = 0;
        problem.pending = 0;
    }
    let counting = leaderboard::clics::counting_judgements(judgements);
    let mut ordered: Vec<&Submission> = submissions.iter().collect();
    ordered.sort_by_key(|s| (s.contest_time, s.id.clone()));
    for submission in ordered {
        let Some(problem) = problems.iter_mut().find(|p| p.id == submission.problem_id) else {
            continue;
        };
        let judged = counting
            .get(submission.id.as_str())
            .and_then(|j| j.judgement_type_id.as_deref());
        match judged {
            None => problem.pending += 1,
            Some(_) if problem.solved => {}
            Some(id) => {
                let solved = types
                    .iter()
                    .find(|t| t.id == id)
                    .map_or(id == "AC", |t| t.solved);
                let penalised = types
                    .iter()
                    .find(|t| t.id == id)
                    .map_or(!solved && !matches!(id, "CE" | "JE"), |t| t.is_penalised());
                if solved {
                    problem.solved = true;
                } else if penalised {
                    problem.rejected += 1;
                } else {
                    problem.free_rejections += 1;
                }
            }
        }
    }
}

/// Posts to the contest server and waits for the verdict.
struct ServerSubmitter<'a> {
    client: &'a ContestClient,
    types: &'a [JudgementType],
    log: &'a PlayLog,
    poll: Duration,
    patience: Duration,
}

impl Submitter for ServerSubmitter<'_> {
    fn submit<'a>(
        &'a self,
        task: &'a Task,
        program: &'a Program,
    ) -> BoxFuture<'a, Result<Judgement, RunError>> {
        Box::pin(async move {
            let posted = loop {
                match self
                    .client
                    .submit(&task.id, &program.language, &program.source)
                    .await
                {
                    Ok(posted) => break posted,
                    Err(ContestError::RateLimited { retry_after, .. }) => {
                        tokio::time::sleep(retry_after.unwrap_or(Duration::from_secs(10))).await;
                    }
                    Err(err) => return Err(RunError(err.to_string())),
                }
            };
            let asked = Instant::now();
            let judged = self
                .client
                .wait_for_judgement(&posted.id, self.poll, self.patience)
                .await
                .map_err(|err| RunError(err.to_string()))?;
            let waited_ms = u64::try_from(asked.elapsed().as_millis()).unwrap_or(u64::MAX);
            let judgement = judged.and_then(|j| j.judgement_type_id);
            self.log
                .write(&PlayEvent::Submission {
                    problem: task.id.clone(),
                    id: posted.id.clone(),
                    language: program.language.clone(),
                    contest_ms: posted.contest_time.millis(),
                    judgement: judgement.clone(),
                    waited_ms,
                })
                .map_err(|err| RunError(err.to_string()))?;
            let Some(type_id) = judgement else {
                return Err(RunError(format!(
                    "submission {} was not judged within {:?}",
                    posted.id, self.patience
                )));
            };
            Ok(Judgement {
                verdict: verdict_of(&type_id, self.types),
                passed: None,
                total: None,
                message: String::new(),
                submission_id: Some(posted.id),
            })
        })
    }
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

/// It is long because it has not been cut yet: issue 30 cuts it into opening the
/// contest, one visit and the stop reason.
async fn play_in(ctx: &Ctx<'_>, manifest: Manifest) -> Result<PlaySummary, PlayError> {
    let Ctx {
        model,
        runner,
        config,
        log,
        run_dir,
        ref run_id,
        ref earlier,
        play_deadline,
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

    let runner = runner::LiveRunner::new(runner);
    let ledger = RunLedger::new(config.budget.clone());
    let mut visits = 0u32;
    let mut runner_failures = 0u32;
    let reason = loop {
        // Pending submissions (a play killed while one was judged) first.
        if states.iter().any(|s| s.pending > 0) {
            let waited = wait_pending(
                &client,
                config,
                &mut states,
                &types,
                &mut team_id,
                &schedule,
            )
            .await;
            if let Err(err) = waited {
                break StopReason::ContestServer {
                    error: err.to_string(),
                };
            }
        }
        let now = unix_ms();
        let ended = match client.state().await {
            Ok(state) => state.ended.is_some(),
            Err(err) => {
                break StopReason::ContestServer {
                    error: err.to_string(),
                };
            }
        };
        if now >= schedule.end_ms || ended {
            break StopReason::ContestEnded;
        }
        if states.iter().all(|s| s.solved) {
            break StopReason::AllSolved;
        }
        let contest_left = until(now, schedule.end_ms);
        let left = match play_deadline {
            Some(deadline) => contest_left.min(deadline.saturating_duration_since(Instant::now())),
            None => contest_left,
        };
        let solves = match client.scoreboard().await {
            Ok(board) => strategy::solve_counts(&board, team_id.as_deref()),
            Err(_) => BTreeMap::new(),
        };
        let per_visit = config.time.rejections_per_visit;
        let order: Vec<String> = strategy::order(&states, &solves, per_visit)
            .into_iter()
            .map(|p| p.id.clone())
            .collect();
        log.write(&PlayEvent::Order {
            contest_ms: now - schedule.start_ms,
            solves,
            order: order.clone(),
        })?;
        let Some(next) = order.first() else {
            break StopReason::Waiting;
        };
        let clock = Clock {
            left,
            contest_left,
            duration: schedule.duration,
            penalty_minutes: schedule.penalty_minutes,
        };
        let Some(plan) = strategy::plan_visit(&config.time, &clock, order.len()) else {
            break if left < contest_left {
                StopReason::PlayTime
            } else {
                StopReason::ContestEnded
            };
        };
        let index = states
            .iter()
            .position(|s| &s.id == next)
            .expect("invariant: the order holds the play's problems");
        let attempt = match run_dir.progress(next)? {
            Progress::New => 1,
            Progress::Unfinished { next_attempt } => next_attempt,
            Progress::Finished(last) => last.attempt + 1,
        };
        let observer = run_dir.writer(next)?;
        log.write(&PlayEvent::Visit {
            problem: next.clone(),
            attempt,
            plan: plan.clone(),
        })?;
        let visit_pipeline = visit_pipeline(&pipeline, &plan);
        let submitter = ServerSubmitter {
            client: &client,
            types: &types,
            log,
            poll: config.poll,
            patience: config.judgement_patience,
        };
        let outcome = solve(Episode {
            model,
            runner: &runner,
            submitter: &submitter,
            task: &tasks[index],
            pipeline: &visit_pipeline,
            run_ledger: Some(&ledger),
            seed: config.seed.wrapping_add(u64::from(visits)),
            observer: &observer,
            run: run_id.clone(),
            attempt,
        })
        .await;
        visits += 1;
        log.write(&PlayEvent::VisitEnd {
            outcome: Box::new(outcome.clone()),
        })?;
        if let Err(err) = refresh(&client, &mut states, &types, &mut team_id).await {
            break StopReason::ContestServer {
                error: err.to_string(),
            };
        }
        if !states[index].solved {
            states[index].visits += 1;
        }
        match &outcome.end {
            End::Budget { exhausted } if exhausted.scope == Scope::Run => {
                break StopReason::Budget {
                    what: exhausted.to_string(),
                };
            }
            End::ModelFailed { error } => {
                break StopReason::ModelFailed {
                    error: error.clone(),
                };
            }
            End::RecordFailed { error } => {
                break StopReason::RecordFailed {
                    error: error.clone(),
                };
            }
            End::RunnerFailed { error } => {
                runner_failures += 1;
                if runner_failures >= 2 {
                    break StopReason::RunnerFailed {
                        error: error.clone(),
                    };
                }
            }
            _ => runner_failures = 0,
        }
    };
    let submissions = client.submissions().await.map_or(0, |s| s.len());
    let summary = PlaySummary {
        reason: reason.clone(),
        problems: states,
        submissions,
        visits,
    };
    log.write(&PlayEvent::Stop {
        reason,
        solved: summary.solved(),
        submissions,
    })?;
    Ok(summary)
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

/// Reads the team's record from the server into `states` (and learns the team's id).
async fn refresh(
    client: &ContestClient,
    states: &mut [ProblemState],
    types: &[JudgementType],
    team_id: &mut Option<String>,
) -> Result<(), ContestError> {
    let submissions = client.submissions().await?;
    let judgements = client.judgements().await?;
    if team_id.is_none() {
        *team_id = submissions.first().map(|s| s.team_id.clone());
    }
    record_of(states, &submissions, &judgements, types);
    Ok(())
}

/// Waits (polling) until no submission is pending, the patience is spent or the contest
/// has ended.
async fn wait_pending(
    client: &ContestClient,
    config: &PlayConfig,
    states: &mut [ProblemState],
    types: &[JudgementType],
    team_id: &mut Option<String>,
    schedule: &Schedule,
) -> Result<(), ContestError> {
    let deadline = Instant::now() + config.judgement_patience;
    loop {
        refresh(client, states, types, team_id).await?;
        if states.iter().all(|s| s.pending == 0)
            || Instant::now() >= deadline
            || unix_ms() >= schedule.end_ms
        {
            return Ok(());
        }
        tokio::time::sleep(config.poll).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use leaderboard::clics::{RelTime, Time};

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
