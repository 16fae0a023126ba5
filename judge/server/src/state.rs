//! What every route and worker shares ([`AppState`]): the database, the contests being
//! served, the judging settings, the wake-ups, the scoreboards in memory and the live
//! event broadcast (whose reader `open` starts).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use tokio::sync::Notify;

use judge::grade::Options;
use judge::sandbox::SandboxConfig;

use crate::ServeOptions;
use crate::board::{self, BoardCache, Ready};
use crate::clics;
use crate::contest::{Contest, ContestSpec, Served};
use crate::error::ServerError;
use crate::jury::ProblemRow;
use crate::live::{self, Live, Reader};
use crate::store::{Dialect, NewEvent, Store};
use crate::uploads;
use crate::viewer::Viewer;

/// What every handler and worker shares.
#[derive(Debug)]
pub struct AppState {
    /// The database.
    pub store: Store,
    contests: Arc<Served>,
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
    /// Largest request body (bytes), on every route.
    pub max_body: usize,
    /// Woken when a submission is queued.
    pub queue_changed: Arc<Notify>,
    /// The scoreboards, built once per change.
    pub boards: Arc<BoardCache>,
    /// Committed events as they are read, for streaming clients.
    pub live: Arc<Live>,
    /// Whether the session cookie is marked `Secure`.
    pub secure_cookies: bool,
    /// Login attempts per address, for the web page's rate limit.
    pub logins: crate::session::LoginLimiter,
    /// The uploaded packages whose own submissions this host judged (or judges).
    pub verifications: Arc<uploads::Verifications>,
    /// Held while a contest's state changes (the ticker's check and write, a jury
    /// action), so this process never writes a state older than one it just wrote.
    pub clock: tokio::sync::Mutex<()>,
}

impl AppState {
    /// Opens the database, serves the contests stored there and then those of
    /// `opts.contests` (which may update them), on SQLite queues again what the last
    /// process was judging, and starts the event log's reader (`live::follow`, with the
    /// PostgreSQL `LISTEN` task). Starts no worker and no listener.
    pub async fn open(
        opts: &ServeOptions,
        sandbox: SandboxConfig,
    ) -> Result<Arc<AppState>, ServerError> {
        let store = Store::open(&opts.db).await?;
        let host = std::fs::read_to_string("/etc/hostname").unwrap_or_default();
        let state = Arc::new(AppState {
            store,
            contests: Arc::default(),
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
            max_body: opts.max_body,
            queue_changed: Arc::default(),
            boards: Arc::default(),
            live: Arc::default(),
            clock: tokio::sync::Mutex::default(),
            secure_cookies: opts.secure_cookies,
            logins: crate::session::LoginLimiter::default(),
            verifications: Arc::default(),
        });
        for (id, spec) in state.store.contests().await? {
            let what = format!("stored contest {id}");
            let spec: ContestSpec =
                serde_json::from_str(&spec).map_err(|e| ServerError::BadContest {
                    what: what.clone(),
                    problems: vec![e.to_string()],
                })?;
            let loaded = Contest::load(spec, Path::new("/"), &what)?;
            state
                .serve_contest(state.with_time_limits(loaded).await?)
                .await?;
        }
        for path in &opts.contests {
            state.add_contest(Contest::from_file(path)?).await?;
        }
        if state.store.dialect() == Dialect::Sqlite {
            // One process owns a SQLite file: what it was judging when it died is retaken now.
            let n = state.store.requeue_all_judging().await?;
            if n > 0 {
                eprintln!(
                    "judge serve: {n} submission(s) interrupted by the last stop are queued again"
                );
            }
        }
        state.live.start_at(state.store.newest_token().await?);
        state.store.listen();
        tokio::spawn(live::follow(Reader {
            store: state.store.clone(),
            contests: Arc::clone(&state.contests),
            boards: Arc::clone(&state.boards),
            live: Arc::clone(&state.live),
            queue_changed: Arc::clone(&state.queue_changed),
        }));
        Ok(state)
    }

    /// [`Contest::derive_time_limits`] as a server does it: with the contest as this
    /// server's database stores it (when it does), its sandbox and judging options, and
    /// the cache the judge's commands share ([`judge::timelimit::default_cache`]).
    pub async fn with_time_limits(
        &self,
        contest: Arc<Contest>,
    ) -> Result<Arc<Contest>, ServerError> {
        let mut stored = None;
        for (id, text) in self.store.contests().await? {
            if id == contest.spec.id {
                stored = serde_json::from_str::<ContestSpec>(&text).ok();
            }
        }
        let cache = judge::timelimit::default_cache();
        Ok(Contest::derive_time_limits(
            contest,
            stored.as_ref(),
            &self.sandbox,
            &self.options,
            Some(&cache),
        )
        .await)
    }

    /// The contest with id `id`.
    pub fn contest(&self, id: &str) -> Option<Arc<Contest>> {
        self.contests.get(id)
    }

    /// Every contest, by id.
    pub fn all_contests(&self) -> Vec<Arc<Contest>> {
        self.contests.all()
    }

    /// Serves `contest` with the jury's changes as the database holds them (its clock,
    /// its teams, its problems).
    async fn serve_contest(&self, contest: Arc<Contest>) -> Result<(), ServerError> {
        contest.reload_jury(&self.store).await?;
        let contest = self.with_jury_problems(contest).await?;
        self.contests.insert(contest);
        Ok(())
    }

    /// `contest` with the problems the jury's `rows` give it: itself when it was built
    /// with those rows, else loaded again (each added package unpacked on this host
    /// first, its time limit derived when it gives none) sharing its jury state.
    pub async fn contest_with_problems(
        &self,
        contest: &Arc<Contest>,
        rows: &[(String, ProblemRow)],
    ) -> Result<Arc<Contest>, ServerError> {
        if rows == contest.jury_problems.as_slice() {
            return Ok(Arc::clone(contest));
        }
        let what = format!("contest {} with the jury's problems", contest.spec.id);
        let bad = |why: String| ServerError::BadContest {
            what: what.clone(),
            problems: vec![why],
        };
        let mut folders = HashMap::new();
        for (id, row) in rows.iter().filter(|(_, row)| !row.removed) {
            if let Some(sha) = &row.sha256 {
                let dir = uploads::unpacked(&self.store, sha)
                    .await
                    .map_err(|e| bad(format!("problem {id}: package {sha}: {}", e.message)))?;
                folders.insert(sha.clone(), dir);
            }
        }
        let spec = contest.spec_with_jury_problems(rows, |sha| folders.get(sha).cloned());
        let named = what.clone();
        let loaded =
            tokio::task::spawn_blocking(move || Contest::load(spec, Path::new("/"), &named))
                .await
                .map_err(|join| bad(format!("loading the problems: {join}")))??;
        let loaded = self.with_time_limits(loaded).await?;
        let mut rebuilt = Arc::unwrap_or_clone(loaded);
        rebuilt.jury = contest.jury.clone();
        rebuilt.file_problems = contest.file_problems.clone();
        rebuilt.jury_problems = rows.to_vec();
        Ok(Arc::new(rebuilt))
    }

    /// `contest` with the problems its jury state (as last read) gives it.
    async fn with_jury_problems(&self, contest: Arc<Contest>) -> Result<Arc<Contest>, ServerError> {
        let rows = contest.jury.get().problems.clone();
        self.contest_with_problems(&contest, &rows).await
    }

    /// Serves `contest` (loaded again) in place of the one with its id, and rebuilds its
    /// boards.
    pub async fn serve_again(&self, contest: Arc<Contest>) -> Result<(), ServerError> {
        self.contests.insert(Arc::clone(&contest));
        board::rebuild(&self.store, &self.boards, &contest).await?;
        Ok(())
    }

    /// Serves contest `contest` loaded again when the jury's problems changed since it
    /// was built (here or on another host), and rebuilds its boards; answers the contest
    /// served.
    pub async fn follow_jury_problems(
        &self,
        contest: &Arc<Contest>,
    ) -> Result<Arc<Contest>, ServerError> {
        let rebuilt = self.with_jury_problems(Arc::clone(contest)).await?;
        if !Arc::ptr_eq(&rebuilt, contest) {
            self.serve_again(Arc::clone(&rebuilt)).await?;
        }
        Ok(rebuilt)
    }

    /// The board `who` may see of `contest` now, as ready bytes ([`board::ready`]), after
    /// the event log's reader has seen what this process wrote (read-your-writes; up to
    /// five seconds).
    pub async fn board(&self, contest: &Contest, who: &Viewer) -> Result<Arc<Ready>, ServerError> {
        self.live
            .caught_up(self.store.last_written(), Duration::from_secs(5))
            .await;
        let cid = &contest.spec.id;
        let served = self.contest(cid).ok_or_else(|| ServerError::BadContest {
            what: cid.clone(),
            problems: vec!["not served".into()],
        })?;
        board::ready(&self.store, &self.boards, &served, who).await
    }

    /// Stores `contest` (with its opening events when new) and serves it, its missing time
    /// limits derived first (the stored contest's values, else the cache, else measured).
    pub async fn add_contest(&self, contest: Arc<Contest>) -> Result<bool, ServerError> {
        let contest = self.with_time_limits(contest).await?;
        let spec =
            serde_json::to_string(&contest.spec).map_err(|source| ServerError::StoreContest {
                id: contest.spec.id.clone(),
                source,
            })?;
        let mut opening = vec![NewEvent {
            kind: "contest".into(),
            obj_id: Some(contest.spec.id.clone()),
            team_id: None,
            data: Some(clics::to_value(&clics::contest(&contest))),
        }];
        for (kind, objects) in [
            (
                "judgement-types",
                clics::to_values(&clics::judgement_types()),
            ),
            ("languages", clics::to_values(&clics::languages(&contest))),
            // Statement and sample files only once started (the state ticker adds them
            // at the start otherwise).
            (
                "problems",
                clics::to_values(&clics::problems(
                    &contest,
                    Utc::now() >= contest.start_time(),
                )),
            ),
            ("teams", clics::to_values(&clics::teams(&contest))),
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
        self.serve_contest(contest).await?;
        Ok(new)
    }
}
