//! The contest server (`judge serve`): private contests over HTTP with the CLICS Contest
//! API under `/api`, a judging queue in the database served by a pool of workers, and a
//! scoreboard computed by the `leaderboard` crate's rules.
//!
//! - `routes`: the HTTP service (the only module naming axum): `app` composes `api`
//!   (the CLICS routes and the event feed) and `web` (the page for humans) under one
//!   body-size limit;
//! - `viewer`: who is asking (admin, team, public), a leaf that the store and boards filter
//!   by; `auth`: the viewer from a bearer or basic credential; `session`: the web page's
//!   logins (session cookies, CSRF tokens, the login rate limit);
//! - `submit`: accepting a submission (checks, window, rate limit) and storing it with its
//!   event;
//! - `board`: the scoreboard a caller may see (frozen or not), built once per change and
//!   kept as ready bytes (JSON, gzip, `ETag`);
//! - `live`: the event log's one reader per process and the bounded broadcast of
//!   committed events that streaming clients read;
//! - `state`: `AppState`, what the routes and workers share, and the contests served;
//! - `contest`: the contest definition (file or `POST /api/contests`) and its problems;
//! - `store`: the database (SQLite file or PostgreSQL), the only module naming sqlx;
//! - `worker`: the judging queue's workers (leases, retries after judge errors);
//! - `scoreboard`: ICPC and IOI boards with the freeze;
//! - `statement`: what a participant may read of a problem (statement HTML and PDF,
//!   samples) and from when;
//! - `control`: the contest's clock as the jury changes it (start, delay, freeze, thaw,
//!   end early, finalize) and which change is allowed when;
//! - `operations`: rejudging, clarifications, awards and the jury's control of the clock;
//! - `unzip`: an uploaded problem package unpacked within stated limits, unsafe entries
//!   refused by name; `uploads`: uploaded packages kept in the database by SHA-256,
//!   unpacked on each host and loaded with the judge's checks;
//! - `export`: the contest as a zip of its event feed and sources; a SQLite backup;
//! - `priority`: the HTTP runtime whose threads run below judging's priority;
//! - `clics`: the CLICS objects; `error`: `ServerError` (wrapping the store's own
//!   `store::Error`) and `ApiError`; `log`: how an error and its causes are logged.

pub mod actions;
pub mod auth;
pub mod board;
pub mod clics;
pub mod contest;
pub mod control;
pub mod error;
pub mod export;
pub mod jury;
pub mod live;
pub mod log;
pub mod operations;
pub mod priority;
pub mod routes;
pub mod scoreboard;
pub mod session;
pub mod state;
pub mod statement;
pub mod store;
pub mod submit;
pub mod unzip;
pub mod uploads;
pub mod viewer;
pub mod worker;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;

use contest::Contest;
use error::ServerError;
use judge::grade::Options;
use judge::sandbox::SandboxConfig;
use store::NewEvent;

pub use routes::app;
pub use state::AppState;

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
    /// Largest request body (bytes), on every route of the API and the web page.
    pub max_body: usize,
    /// How many nice steps below the rest of the process HTTP is served (`priority`; 0:
    /// at the same priority as judging).
    pub http_nice: u8,
    /// Marks the session cookie `Secure` (a server behind an HTTPS proxy; `judge serve`
    /// itself speaks plain HTTP).
    pub secure_cookies: bool,
}

/// The CPU allowance of the server's sandboxes: `sandbox.cpus` when the command named one,
/// else the `cpus` of the contest files given at start (they must agree), else
/// [`judge::sandbox::DEFAULT_CPUS`]. One server judges every contest with one allowance.
pub fn sandbox_cpus(contests: &[PathBuf], sandbox: &SandboxConfig) -> Result<u32, ServerError> {
    if let Some(cpus) = sandbox.cpus {
        return Ok(cpus);
    }
    let mut found: Option<(u32, &PathBuf)> = None;
    for path in contests {
        let cpus = contest::ContestSpec::read(path)?.cpus;
        match found {
            Some((other, first)) if other != cpus => {
                return Err(ServerError::BadContest {
                    what: path.display().to_string(),
                    problems: vec![format!(
                        "cpus: {cpus} here but {other} in {}; one server judges with one CPU \
                         allowance (give --cpus)",
                        first.display()
                    )],
                });
            }
            _ => found = Some((cpus, path)),
        }
    }
    Ok(found.map_or(judge::sandbox::DEFAULT_CPUS, |(cpus, _)| cpus))
}

/// Runs the server until the process is stopped. Prints `listening on ADDR` once bound.
/// The workers judge on the caller's runtime; HTTP is served on a runtime of its own at
/// `opts.http_nice` steps lower priority (`priority`).
pub async fn serve(opts: ServeOptions, mut sandbox: SandboxConfig) -> Result<(), ServerError> {
    sandbox.cpus = Some(sandbox_cpus(&opts.contests, &sandbox)?);
    let state = AppState::open(&opts, sandbox).await?;
    worker::spawn(&state, opts.workers);
    tokio::spawn(state_ticker(Arc::clone(&state)));

    let listen_error = |addr: &str| {
        let addr = addr.to_owned();
        move |source: std::io::Error| ServerError::Listen { addr, source }
    };
    // Bound here, registered with the HTTP runtime's reactor there.
    let listener = std::net::TcpListener::bind(&opts.listen)
        .and_then(|l| l.set_nonblocking(true).map(|()| l))
        .map_err(listen_error(&opts.listen))?;
    let addr: SocketAddr = listener.local_addr().map_err(listen_error(&opts.listen))?;
    let http = priority::http_runtime(opts.http_nice).map_err(listen_error(&addr.to_string()))?;
    println!("listening on {addr}");
    let app = app(state);
    let served = http.spawn(async move {
        routes::serve(tokio::net::TcpListener::from_std(listener)?, app).await
    });
    let result = served.await;
    // Not dropped in place: dropping a runtime waits, which an async context may not.
    http.shutdown_background();
    result
        .unwrap_or_else(|join| {
            Err(std::io::Error::other(format!(
                "the HTTP task ended: {join}"
            )))
        })
        .map_err(listen_error(&addr.to_string()))
}

/// Writes a `state` event whenever a contest's state changes with the clock (started,
/// frozen, ended, thawed, finalized).
async fn state_ticker(state: Arc<AppState>) {
    loop {
        write_state_events(&state).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// Writes a `state` event for each contest whose state changed since its last one (what
/// the server's ticker does twice a second); errors are logged.
pub async fn write_state_events(state: &AppState) {
    for contest in state.all_contests() {
        if let Err(err) = tick(state, &contest).await {
            eprintln!(
                "judge serve: state of {}: {}",
                contest.spec.id,
                error::chain(&err)
            );
        }
    }
}

async fn tick(state: &AppState, contest: &Arc<Contest>) -> Result<(), ServerError> {
    // One state change at a time in this process (the jury's actions hold it too).
    let _one = state.clock.lock().await;
    // The last state written first, then the clock: a jury action committed in between
    // (on another host) makes this write its state again, never an older one.
    let last = state.store.last_event(&contest.spec.id, "state").await?;
    let last: Option<leaderboard::clics::State> = last.and_then(|t| serde_json::from_str(&t).ok());
    contest.reload_jury(&state.store).await?;
    // The jury's problems changed (here or on another host): served loaded again.
    let contest = &state.follow_jury_problems(contest).await?;
    // Only an ended contest can be finalized, so only then does pending work matter.
    let pending =
        Utc::now() < contest.end_time() || state.store.any_pending(&contest.spec.id).await?;
    let now = clics::state(contest, Utc::now(), pending);
    if last.as_ref() != Some(&now) {
        let starts_now =
            last.as_ref().is_some_and(|l| l.started.is_none()) && now.started.is_some();
        let events = state_events(contest, starts_now, &now);
        state.store.add_events(&contest.spec.id, &events).await?;
    }
    Ok(())
}

/// The events of a change of `contest`'s state to `now`: the `state` event, after the
/// problems again with their statement and sample files when it `starts_now` (a contest
/// added after its start had them in its opening events).
pub(crate) fn state_events(
    contest: &Contest,
    starts_now: bool,
    now: &leaderboard::clics::State,
) -> Vec<NewEvent> {
    let mut events = Vec::new();
    if starts_now {
        events.extend(
            clics::problems(contest, true)
                .into_iter()
                .map(|problem| NewEvent {
                    kind: "problems".into(),
                    obj_id: Some(problem.id.clone()),
                    team_id: None,
                    data: Some(clics::to_value(&problem)),
                }),
        );
    }
    events.push(NewEvent {
        kind: "state".into(),
        obj_id: None,
        team_id: None,
        data: Some(clics::to_value(now)),
    });
    events
}
