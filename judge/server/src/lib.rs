//! The contest server (`judge serve`): private contests over HTTP with the CLICS Contest
//! API under `/api`, a judging queue in the database served by a pool of workers, and a
//! scoreboard computed by the `leaderboard` crate's rules.
//!
//! - `contest`: the contest definition (file or `POST /api/contests`) and its problems;
//! - `store`: the database (SQLite file or PostgreSQL), the only module naming sqlx;
//! - `worker`: the judging queue's workers (leases, retries after judge errors);
//! - `scoreboard`: ICPC and IOI boards with the freeze;
//! - `clics`: the CLICS objects; `api`: the HTTP routes, auth and rate limits;
//! - `web`: the server-rendered page for humans.

pub mod api;
pub mod clics;
pub mod contest;
pub mod error;
pub mod scoreboard;
pub mod store;
pub mod web;
pub mod worker;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use chrono::Utc;
use tokio::sync::Notify;

use judge::grade::Options;
use judge::sandbox::SandboxConfig;
use contest::Contest;
use error::ServerError;
use store::{NewEvent, Store};

/// How `judge serve` runs.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Contest files to load (and store) at start.
    pub contests: Vec<PathBuf>,
    /// Database URL: `sqlite://FILE`, a bare path, or `postgres://...`.
    pub db: String,
    /// Where to listen (`127.0.0.1:0` picks a free port).
    pub listen: String,
    /// Judging workers in this process (0: serve only).
    pub workers: usize,
    /// How judging runs.
    pub judge: Options,
    /// The admin's token.
    pub admin_token: String,
    /// How long a worker's claim on a submission lasts without renewal.
    pub lease: Duration,
    /// How many times a submission is taken before a judge error stands.
    pub max_attempts: i64,
    /// Largest request body (bytes).
    pub max_body: usize,
}

/// A computed scoreboard: the event token it was computed at, its CLICS rows, and
/// whether a submission was pending.
pub type CachedBoard = (i64, serde_json::Value, bool);

/// What every handler and worker shares.
#[derive(Debug)]
pub struct AppState {
    /// The database.
    pub store: Store,
    contests: RwLock<HashMap<String, Arc<Contest>>>,
    /// The admin's token.
    pub admin_token: String,
    /// The sandbox.
    pub sandbox: SandboxConfig,
    /// Judging options.
    pub options: Options,
    /// This process's name in leases (`host:pid:random`).
    pub instance: String,
    /// Lease length.
    pub lease: Duration,
    /// Takes before a judge error stands.
    pub max_attempts: i64,
    /// Woken when a submission is queued.
    pub queue_changed: Notify,
    /// Woken when events were written by this process.
    pub events_changed: Notify,
    /// Computed scoreboards by (contest, frozen view): the event token they were
    /// computed at, the rows and whether anything was pending.
    pub boards: std::sync::Mutex<HashMap<(String, bool), CachedBoard>>,
}

impl AppState {
    /// The contest with id `id`.
    pub fn contest(&self, id: &str) -> Option<Arc<Contest>> {
        self.contests
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(id)
            .cloned()
    }

    /// Every contest, by id.
    pub fn all_contests(&self) -> Vec<Arc<Contest>> {
        let map = self
            .contests
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut all: Vec<_> = map.values().cloned().collect();
        all.sort_by(|a, b| a.spec.id.cmp(&b.spec.id));
        all
    }

    /// Stores `contest` (with its opening events when new) and serves it.
    pub async fn add_contest(&self, contest: Arc<Contest>) -> Result<bool, ServerError> {
        let spec = serde_json::to_string(&contest.spec)
            .map_err(|e| ServerError::Database(e.to_string()))?;
        let mut opening = vec![NewEvent {
            kind: "contest".into(),
            obj_id: Some(contest.spec.id.clone()),
            team_id: None,
            data: Some(clics::contest(&contest)),
        }];
        for (kind, objects) in [
            ("judgement-types", clics::judgement_types()),
            ("languages", clics::languages(&contest)),
            ("problems", clics::problems(&contest)),
            ("teams", clics::teams(&contest)),
        ] {
            opening.extend(objects.into_iter().map(|data| NewEvent {
                kind: kind.into(),
                obj_id: data["id"].as_str().map(str::to_owned),
                team_id: None,
                data: Some(data),
            }));
        }
        let new = self
            .store
            .put_contest(&contest.spec.id, &spec, opening)
            .await?;
        self.contests
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(contest.spec.id.clone(), contest);
        self.events_changed.notify_waiters();
        Ok(new)
    }
}

/// Runs the server until the process is stopped. Prints `listening on ADDR` once bound.
pub async fn serve(opts: ServeOptions, sandbox: SandboxConfig) -> Result<(), ServerError> {
    let store = Store::open(&opts.db).await?;
    let host = std::fs::read_to_string("/etc/hostname").unwrap_or_default();
    let state = Arc::new(AppState {
        store,
        contests: RwLock::new(HashMap::new()),
        admin_token: opts.admin_token.clone(),
        sandbox,
        options: opts.judge.clone(),
        instance: format!(
            "{}:{}:{:08x}",
            host.trim(),
            std::process::id(),
            rand::random::<u32>()
        ),
        lease: opts.lease,
        max_attempts: opts.max_attempts,
        queue_changed: Notify::new(),
        events_changed: Notify::new(),
        boards: std::sync::Mutex::new(HashMap::new()),
    });
    // Contests already in the database, then the files (which may update them).
    for (id, spec) in state.store.contests().await? {
        let spec: contest::ContestSpec =
            serde_json::from_str(&spec).map_err(|e| ServerError::BadContest {
                what: format!("stored contest {id}"),
                problems: vec![e.to_string()],
            })?;
        let loaded = Contest::load(
            spec,
            std::path::Path::new("/"),
            &format!("stored contest {id}"),
        )?;
        state
            .contests
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(id, loaded);
    }
    for path in &opts.contests {
        state.add_contest(Contest::from_file(path)?).await?;
    }
    if state.store.dialect() == store::Dialect::Sqlite {
        // One process owns a SQLite file: what it was judging when it died is retaken now.
        let n = state.store.requeue_all_judging().await?;
        if n > 0 {
            eprintln!(
                "judge serve: {n} submission(s) interrupted by the last stop are queued again"
            );
        }
    }
    worker::spawn(&state, opts.workers);
    tokio::spawn(state_ticker(Arc::clone(&state)));

    let listener = tokio::net::TcpListener::bind(&opts.listen)
        .await
        .map_err(|source| ServerError::Listen {
            addr: opts.listen.clone(),
            source,
        })?;
    let addr: SocketAddr = listener
        .local_addr()
        .map_err(|source| ServerError::Listen {
            addr: opts.listen.clone(),
            source,
        })?;
    println!("listening on {addr}");
    let app = api::router(Arc::clone(&state), opts.max_body);
    axum::serve(listener, app)
        .await
        .map_err(|source| ServerError::Listen {
            addr: addr.to_string(),
            source,
        })
}

/// Writes a `state` event whenever a contest's state changes with the clock (started,
/// frozen, ended, thawed, finalized).
async fn state_ticker(state: Arc<AppState>) {
    loop {
        for contest in state.all_contests() {
            if let Err(err) = tick(&state, &contest).await {
                eprintln!("judge serve: state of {}: {err}", contest.spec.id);
            }
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

async fn tick(state: &AppState, contest: &Contest) -> Result<(), ServerError> {
    // Only an ended contest can be finalized, so only then does pending work matter.
    let pending = Utc::now() < contest.end_time()
        || state
            .store
            .submissions_for_scoring(&contest.spec.id)
            .await?
            .iter()
            .any(|s| s.state != "done");
    let now = clics::state(contest, Utc::now(), pending);
    let last = state.store.last_event(&contest.spec.id, "state").await?;
    let last: Option<serde_json::Value> = last.and_then(|t| serde_json::from_str(&t).ok());
    if last.as_ref() != Some(&now) {
        state
            .store
            .add_events(
                &contest.spec.id,
                &[NewEvent {
                    kind: "state".into(),
                    obj_id: None,
                    team_id: None,
                    data: Some(now),
                }],
            )
            .await?;
        state.events_changed.notify_waiters();
    }
    Ok(())
}
