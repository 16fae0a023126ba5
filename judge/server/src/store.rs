//! The contest database (sqlx, the only module that names it): SQLite in one file by
//! default, PostgreSQL when several judge hosts share a contest.
//!
//! Tables: `contests` (definitions), `submissions` (with the [`QueueState`]: `queued`,
//! `judging` under a worker's lease, `done`), `judgements`, `runs`, and `events` (the
//! CLICS event feed; an event's token is its sequence number). Judgement types are
//! stored as their CLICS ids and read back as [`Verdict`]s; rows decode through
//! `FromRow`.
//!
//! Durability rules: a submission and its `submissions` event are written in one
//! transaction before the HTTP answer; a judgement, its runs, their events and the
//! submission's `done` state are written in one transaction, and only by the worker that
//! still holds the lease, so a submission gets exactly one final judgement even when a
//! worker died or lost its lease mid-judging. On PostgreSQL, workers claim with
//! `FOR UPDATE SKIP LOCKED`, and transactions that add events take the `events` table's
//! lock first, so event tokens commit in increasing order and `since_token` never skips.
//!
//! Change notices: every transaction that writes events wakes [`Store::wait_written`]
//! in this process once committed, and on PostgreSQL also sends `NOTIFY` on the
//! [`CHANNEL`] channel (delivered at commit), which [`Store::listen`] turns into the same
//! wake-up on every other host. The reader of the event log (`live`) is the only waiter.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use problems::Verdict;
use sqlx::AnyPool;
use sqlx::any::AnyPoolOptions;
use tokio::sync::Notify;

use crate::viewer::Viewer;

/// What the store can fail with; `crate::error::ServerError` wraps it.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The database failed (the driver's error is the source).
    #[error("database")]
    Database(#[from] sqlx::Error),
    /// The database URL is not SQLite or PostgreSQL.
    #[error("database URL `{0}`: expected sqlite://FILE or postgres://...")]
    BadUrl(String),
    /// Not possible with this database.
    #[error("{0}")]
    Unsupported(String),
}

type Result<T, E = Error> = std::result::Result<T, E>;
type Transaction<'a> = sqlx::Transaction<'a, sqlx::Any>;

/// Which database is behind the URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// SQLite: one server process owns the file.
    Sqlite,
    /// PostgreSQL: several processes may share it.
    Postgres,
}

/// The PostgreSQL `NOTIFY` channel on which a committed event write is announced.
pub const CHANNEL: &str = "judge_events";

/// The database.
#[derive(Debug, Clone)]
pub struct Store {
    pool: AnyPool,
    dialect: Dialect,
    /// The URL the pool was opened with (the PostgreSQL listener opens its own connection).
    url: String,
    /// Woken after this process committed events (or, through [`Store::listen`], another
    /// host did).
    written: Arc<Notify>,
    /// The newest event token this process committed.
    last_written: Arc<AtomicI64>,
}

/// Where a submission is in the judging queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueState {
    /// Waiting for a worker.
    Queued,
    /// Taken by a worker, under its lease.
    Judging,
    /// Its final judgement is written.
    Done,
}

impl QueueState {
    /// The name stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            QueueState::Queued => "queued",
            QueueState::Judging => "judging",
            QueueState::Done => "done",
        }
    }
}

/// A value in the database that no variant of its type names.
#[derive(Debug, thiserror::Error)]
#[error("unknown {what} `{value}` in the database")]
pub struct UnknownValue {
    what: &'static str,
    value: String,
}

impl TryFrom<String> for QueueState {
    type Error = UnknownValue;

    fn try_from(value: String) -> Result<QueueState, UnknownValue> {
        [QueueState::Queued, QueueState::Judging, QueueState::Done]
            .into_iter()
            .find(|it| it.as_str() == value)
            .ok_or(UnknownValue {
                what: "queue state",
                value,
            })
    }
}

/// A judgement type as stored: its CLICS id (`AC`, `WA`, ...), decoded into a
/// [`Verdict`].
#[derive(Debug, sqlx::Type)]
#[sqlx(transparent)]
pub struct ClicsId(String);

impl TryFrom<ClicsId> for Verdict {
    type Error = UnknownValue;

    fn try_from(ClicsId(value): ClicsId) -> Result<Verdict, UnknownValue> {
        Verdict::ALL
            .into_iter()
            .find(|it| it.clics_id() == value)
            .ok_or(UnknownValue {
                what: "judgement type",
                value,
            })
    }
}

/// A submission as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SubmissionRow {
    /// Sequence number (queue order).
    pub seq: i64,
    /// CLICS id.
    pub id: String,
    /// Contest.
    pub contest_id: String,
    /// Team.
    pub team_id: String,
    /// Problem.
    pub problem_id: String,
    /// Language.
    pub language_id: String,
    /// Source text.
    pub source: String,
    /// Wall-clock time, Unix milliseconds.
    pub time_ms: i64,
    /// Milliseconds since the contest start.
    pub contest_time_ms: i64,
    /// Where it is in the queue.
    #[sqlx(try_from = "String")]
    pub state: QueueState,
    /// How many times a worker took it.
    pub attempts: i64,
}

/// A submission to add.
#[derive(Debug, Clone)]
pub struct NewSubmission {
    /// A client-chosen id (admins only), else the sequence number.
    pub id: Option<String>,
    /// Contest.
    pub contest_id: String,
    /// Team.
    pub team_id: String,
    /// Problem.
    pub problem_id: String,
    /// Language.
    pub language_id: String,
    /// Source text.
    pub source: String,
    /// Wall-clock time, Unix milliseconds.
    pub time_ms: i64,
    /// Milliseconds since the contest start.
    pub contest_time_ms: i64,
}

/// A judgement as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct JudgementRow {
    /// Sequence number.
    pub seq: i64,
    /// CLICS id.
    pub id: String,
    /// The submission.
    pub submission_id: String,
    /// The judgement type (CLICS `judgement_type_id`).
    #[sqlx(rename = "judgement_type_id", try_from = "ClicsId")]
    pub verdict: Verdict,
    /// Points (1/0 on pass-fail problems).
    pub score: f64,
    /// Points per top-level secret group (IOI), as JSON.
    pub subtask_scores: String,
    /// Start, Unix ms.
    pub start_ms: i64,
    /// End, Unix ms.
    pub end_ms: i64,
    /// Longest test run, seconds.
    pub max_run_time: f64,
}

/// A run (one test) as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RunRow {
    /// CLICS id.
    pub id: String,
    /// Its judgement.
    pub judgement_id: String,
    /// Position, from 1.
    pub ordinal: i64,
    /// The judgement type (CLICS `judgement_type_id`).
    #[sqlx(rename = "judgement_type_id", try_from = "ClicsId")]
    pub verdict: Verdict,
    /// When it finished, Unix ms.
    pub time_ms: i64,
    /// CPU time in seconds.
    pub run_time: f64,
}

/// An event of the feed.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EventRow {
    /// The token.
    pub seq: i64,
    /// CLICS type (`submissions`, ...).
    #[sqlx(rename = "type")]
    pub kind: String,
    /// Object id, or `None` for singletons (`contest`, `state`).
    pub obj_id: Option<String>,
    /// The object as JSON, or `None` for a deletion.
    pub data: Option<String>,
}

/// An event of any contest as the log's reader sees it: with its contest and the team
/// whose private data it is.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LogEvent {
    /// The token.
    pub seq: i64,
    /// The contest.
    pub contest_id: String,
    /// CLICS type (`submissions`, ...).
    #[sqlx(rename = "type")]
    pub kind: String,
    /// Object id, or `None` for singletons (`contest`, `state`).
    pub obj_id: Option<String>,
    /// The team whose private data this is (`None`: public).
    pub team_id: Option<String>,
    /// The object as JSON, or `None` for a deletion.
    pub data: Option<String>,
}

/// A clarification as stored (and as it is added: `seq` and `id` are assigned then).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ClarificationRow {
    /// Sequence number.
    pub seq: i64,
    /// CLICS id.
    pub id: String,
    /// The team that asked (`None`: the jury wrote it).
    pub from_team_id: Option<String>,
    /// The team it is for (`None`: everyone, when the jury wrote it; the jury, when a
    /// team did).
    pub to_team_id: Option<String>,
    /// The clarification it answers.
    pub reply_to_id: Option<String>,
    /// Its problem (`None`: general).
    pub problem_id: Option<String>,
    /// The text.
    pub text: String,
    /// Wall-clock time, Unix milliseconds.
    pub time_ms: i64,
    /// Milliseconds since the contest start.
    pub contest_time_ms: i64,
}

/// Which done submissions a rejudging takes: those matching every field given.
#[derive(Debug, Clone, Default)]
pub struct RejudgeFilter {
    /// One submission.
    pub submission_id: Option<String>,
    /// Every submission of a problem.
    pub problem_id: Option<String>,
    /// Every submission of a team.
    pub team_id: Option<String>,
}

/// Who may see an event: everyone, or the team it concerns (and admins).
#[derive(Debug, Clone)]
pub struct NewEvent {
    /// CLICS type.
    pub kind: String,
    /// Object id.
    pub obj_id: Option<String>,
    /// The team whose private data this is, if any.
    pub team_id: Option<String>,
    /// The object as JSON.
    pub data: Option<serde_json::Value>,
}

/// What a worker finishes with.
#[derive(Debug, Clone)]
pub struct Finished {
    /// The judgement (its `seq` and `id` are assigned here).
    pub judgement: JudgementRow,
    /// Its runs, in order (ids assigned here).
    pub runs: Vec<RunRow>,
}

/// How many submissions are in each queue state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QueueCounts {
    /// Waiting.
    pub queued: i64,
    /// Being judged.
    pub judging: i64,
    /// Judged.
    pub done: i64,
}

/// The binds of the visibility filter `($all = 1 OR team_id = $team)`: admins see every
/// row, a team its own (and, for events, the public ones), the public none of the team
/// rows (`team_id = NULL` is never true).
fn visibility(viewer: &Viewer) -> (i64, Option<&str>) {
    match viewer {
        Viewer::Admin => (1, None),
        Viewer::Team(team) => (0, Some(team)),
        Viewer::Public => (0, None),
    }
}

impl Store {
    /// Opens (and creates) the database at `url`: `sqlite://FILE` (or a bare path) or
    /// `postgres://...`.
    pub async fn open(url: &str) -> Result<Store> {
        sqlx::any::install_default_drivers();
        let (dialect, url) = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            (Dialect::Postgres, url.to_owned())
        } else if let Some(path) = url.strip_prefix("sqlite://") {
            (Dialect::Sqlite, format!("sqlite://{path}?mode=rwc"))
        } else if url.contains("://") {
            return Err(Error::BadUrl(url.to_owned()));
        } else {
            (Dialect::Sqlite, format!("sqlite://{url}?mode=rwc"))
        };
        let pool = AnyPoolOptions::new()
            .max_connections(if dialect == Dialect::Sqlite { 4 } else { 8 })
            .connect(&url)
            .await?;
        let store = Store {
            pool,
            dialect,
            url,
            written: Arc::new(Notify::new()),
            last_written: Arc::new(AtomicI64::new(0)),
        };
        store.migrate().await?;
        Ok(store)
    }

    /// The database kind.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    async fn migrate(&self) -> Result<()> {
        let pk = match self.dialect {
            Dialect::Sqlite => "seq INTEGER PRIMARY KEY AUTOINCREMENT",
            Dialect::Postgres => "seq BIGSERIAL PRIMARY KEY",
        };
        if self.dialect == Dialect::Sqlite {
            sqlx::query("PRAGMA journal_mode=WAL")
                .execute(&self.pool)
                .await?;
        }
        let statements = [
            "CREATE TABLE IF NOT EXISTS contests (id TEXT PRIMARY KEY, spec TEXT NOT NULL)"
                .to_owned(),
            format!(
                "CREATE TABLE IF NOT EXISTS submissions ({pk}, id TEXT NOT NULL, contest_id TEXT NOT NULL, \
                 team_id TEXT NOT NULL, problem_id TEXT NOT NULL, language_id TEXT NOT NULL, \
                 source TEXT NOT NULL, time_ms BIGINT NOT NULL, contest_time_ms BIGINT NOT NULL, \
                 state TEXT NOT NULL, worker TEXT, lease_until BIGINT NOT NULL DEFAULT 0, \
                 attempts BIGINT NOT NULL DEFAULT 0, UNIQUE (contest_id, id))"
            ),
            "CREATE INDEX IF NOT EXISTS submissions_queue ON submissions (state, seq)".to_owned(),
            format!(
                "CREATE TABLE IF NOT EXISTS judgements ({pk}, id TEXT NOT NULL, contest_id TEXT NOT NULL, \
                 submission_id TEXT NOT NULL, judgement_type_id TEXT NOT NULL, \
                 score DOUBLE PRECISION NOT NULL, subtask_scores TEXT NOT NULL, \
                 start_ms BIGINT NOT NULL, end_ms BIGINT NOT NULL, \
                 max_run_time DOUBLE PRECISION NOT NULL, worker TEXT NOT NULL, UNIQUE (contest_id, id))"
            ),
            format!(
                "CREATE TABLE IF NOT EXISTS runs ({pk}, id TEXT NOT NULL, contest_id TEXT NOT NULL, \
                 judgement_id TEXT NOT NULL, ordinal BIGINT NOT NULL, judgement_type_id TEXT NOT NULL, \
                 time_ms BIGINT NOT NULL, run_time DOUBLE PRECISION NOT NULL, UNIQUE (contest_id, id))"
            ),
            format!(
                "CREATE TABLE IF NOT EXISTS events ({pk}, contest_id TEXT NOT NULL, type TEXT NOT NULL, \
                 obj_id TEXT, team_id TEXT, data TEXT)"
            ),
            "CREATE INDEX IF NOT EXISTS events_by_contest ON events (contest_id, seq)".to_owned(),
            format!(
                "CREATE TABLE IF NOT EXISTS clarifications ({pk}, id TEXT NOT NULL, contest_id TEXT NOT NULL, \
                 from_team_id TEXT, to_team_id TEXT, reply_to_id TEXT, problem_id TEXT, text TEXT NOT NULL, \
                 time_ms BIGINT NOT NULL, contest_time_ms BIGINT NOT NULL, UNIQUE (contest_id, id))"
            ),
        ];
        for sql in statements {
            // Concurrent first starts on PostgreSQL can race on CREATE ... IF NOT EXISTS.
            if let Err(err) = sqlx::query(&sql).execute(&self.pool).await {
                let text = err.to_string();
                if !(text.contains("already exists") || text.contains("duplicate key")) {
                    return Err(err.into());
                }
            }
        }
        Ok(())
    }

    /// Stores a contest definition (JSON), replacing an earlier one with the same id.
    /// Returns whether it was new; a new contest also gets its opening events.
    pub async fn put_contest(&self, id: &str, spec: &str, opening: Vec<NewEvent>) -> Result<bool> {
        let mut tx = self.pool.begin().await?;
        self.lock_events(&mut tx).await?;
        let existing = sqlx::query("SELECT spec FROM contests WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
        let new = existing.is_none();
        let sql = if new {
            "INSERT INTO contests (id, spec) VALUES ($1, $2)"
        } else {
            "UPDATE contests SET spec = $2 WHERE id = $1"
        };
        sqlx::query(sql)
            .bind(id)
            .bind(spec)
            .execute(&mut *tx)
            .await?;
        let mut last = 0;
        if new {
            for event in opening {
                last = insert_event(&mut tx, id, &event).await?;
            }
        }
        self.commit_events(tx, last).await?;
        Ok(new)
    }

    /// Every stored contest definition, as `(id, spec JSON)`.
    pub async fn contests(&self) -> Result<Vec<(String, String)>> {
        let rows = sqlx::query_as("SELECT id, spec FROM contests ORDER BY id")
            .fetch_all(&self.pool)
            .await?;
        Ok(rows)
    }

    /// Takes the `events` table's lock (PostgreSQL) and queues the `NOTIFY` that other
    /// hosts receive when the transaction commits. Every transaction that writes events
    /// calls it first.
    async fn lock_events(&self, tx: &mut Transaction<'_>) -> Result<()> {
        if self.dialect == Dialect::Postgres {
            sqlx::query("LOCK TABLE events IN EXCLUSIVE MODE")
                .execute(&mut **tx)
                .await?;
            sqlx::query(&format!("NOTIFY {CHANNEL}"))
                .execute(&mut **tx)
                .await?;
        }
        Ok(())
    }

    /// Commits `tx`, which wrote events up to token `last`, and wakes the log's reader.
    async fn commit_events(&self, tx: Transaction<'_>, last: i64) -> Result<()> {
        tx.commit().await?;
        self.last_written.fetch_max(last, Ordering::SeqCst);
        self.written.notify_one();
        Ok(())
    }

    /// The newest event token this process committed (0 before its first write): a
    /// reader that has seen it reflects every write this process acknowledged.
    pub fn last_written(&self) -> i64 {
        self.last_written.load(Ordering::SeqCst)
    }

    /// Waits until events were committed since the last wake-up (by this process, or by
    /// another host when [`Store::listen`] runs), or `timeout` passed.
    pub async fn wait_written(&self, timeout: Duration) {
        let _ = tokio::time::timeout(timeout, self.written.notified()).await;
    }

    /// On PostgreSQL, starts a task that holds a `LISTEN` connection and wakes
    /// [`Store::wait_written`] on each `NOTIFY` of another host's events (reconnecting
    /// after a failure, when it wakes the reader too: notices may have been missed). A
    /// no-op on SQLite, whose one process sees its own writes.
    pub fn listen(&self) {
        if self.dialect != Dialect::Postgres {
            return;
        }
        let url = self.url.clone();
        let written = Arc::clone(&self.written);
        tokio::spawn(async move {
            loop {
                match listen_once(&url, &written).await {
                    Ok(()) => {}
                    Err(err) => eprintln!(
                        "judge serve: LISTEN {CHANNEL}: {}",
                        crate::log::chain(&Error::from(err))
                    ),
                }
                written.notify_one();
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
    }

    /// Adds events outside any other change (state changes).
    pub async fn add_events(&self, contest_id: &str, events: &[NewEvent]) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        self.lock_events(&mut tx).await?;
        let mut last = 0;
        for event in events {
            last = insert_event(&mut tx, contest_id, event).await?;
        }
        self.commit_events(tx, last).await
    }

    /// Stores a new submission and its event (built by `event` from the stored row) in
    /// one transaction; returns the row. A client-chosen id already used is `Ok(None)`.
    pub async fn insert_submission(
        &self,
        new: &NewSubmission,
        event: impl FnOnce(&SubmissionRow) -> NewEvent,
    ) -> Result<Option<SubmissionRow>> {
        let mut tx = self.pool.begin().await?;
        self.lock_events(&mut tx).await?;
        if let Some(id) = &new.id {
            let taken =
                sqlx::query("SELECT seq FROM submissions WHERE contest_id = $1 AND id = $2")
                    .bind(&new.contest_id)
                    .bind(id)
                    .fetch_optional(&mut *tx)
                    .await?;
            if taken.is_some() {
                return Ok(None);
            }
        }
        let placeholder = new
            .id
            .clone()
            .unwrap_or_else(|| format!("pending-{}", rand::random::<u64>()));
        let state = QueueState::Queued;
        let seq: i64 = sqlx::query_scalar(
            "INSERT INTO submissions (id, contest_id, team_id, problem_id, language_id, source, \
             time_ms, contest_time_ms, state) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
             RETURNING seq",
        )
        .bind(&placeholder)
        .bind(&new.contest_id)
        .bind(&new.team_id)
        .bind(&new.problem_id)
        .bind(&new.language_id)
        .bind(&new.source)
        .bind(new.time_ms)
        .bind(new.contest_time_ms)
        .bind(state.as_str())
        .fetch_one(&mut *tx)
        .await?;
        let id = match &new.id {
            Some(id) => id.clone(),
            None => {
                let id = seq.to_string();
                sqlx::query("UPDATE submissions SET id = $1 WHERE seq = $2")
                    .bind(&id)
                    .bind(seq)
                    .execute(&mut *tx)
                    .await?;
                id
            }
        };
        let stored = SubmissionRow {
            seq,
            id,
            contest_id: new.contest_id.clone(),
            team_id: new.team_id.clone(),
            problem_id: new.problem_id.clone(),
            language_id: new.language_id.clone(),
            source: new.source.clone(),
            time_ms: new.time_ms,
            contest_time_ms: new.contest_time_ms,
            state,
            attempts: 0,
        };
        let last = insert_event(&mut tx, &new.contest_id, &event(&stored)).await?;
        self.commit_events(tx, last).await?;
        Ok(Some(stored))
    }

    /// How many submissions `team` made since `since_ms` (Unix ms).
    pub async fn submissions_since(
        &self,
        contest_id: &str,
        team_id: &str,
        since_ms: i64,
    ) -> Result<i64> {
        let n = sqlx::query_scalar(
            "SELECT COUNT(*) FROM submissions WHERE contest_id = $1 AND team_id = $2 AND time_ms >= $3",
        )
        .bind(contest_id)
        .bind(team_id)
        .bind(since_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok(n)
    }

    /// Whether a submission of the contest is not `done` yet (queued or being judged).
    pub async fn any_pending(&self, contest_id: &str) -> Result<bool> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM submissions WHERE contest_id = $1 AND state <> $2",
        )
        .bind(contest_id)
        .bind(QueueState::Done.as_str())
        .fetch_one(&self.pool)
        .await?;
        Ok(n > 0)
    }

    /// Takes the oldest submission that is queued or whose lease expired, for `worker`
    /// until `lease_until` (Unix ms).
    pub async fn claim(
        &self,
        worker: &str,
        now_ms: i64,
        lease_until: i64,
    ) -> Result<Option<SubmissionRow>> {
        let lock = match self.dialect {
            Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
            Dialect::Sqlite => "",
        };
        let sql = format!(
            "UPDATE submissions SET state = $1, worker = $2, lease_until = $3, attempts = attempts + 1 \
             WHERE seq = (SELECT seq FROM submissions WHERE state = $4 \
             OR (state = $5 AND lease_until < $6) ORDER BY seq LIMIT 1{lock}) \
             RETURNING {}",
            submission_columns("source")
        );
        let row = sqlx::query_as(&sql)
            .bind(QueueState::Judging.as_str())
            .bind(worker)
            .bind(lease_until)
            .bind(QueueState::Queued.as_str())
            .bind(QueueState::Judging.as_str())
            .bind(now_ms)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row)
    }

    /// Extends `worker`'s lease on submission `seq`; false when it no longer holds it.
    pub async fn renew(&self, seq: i64, worker: &str, lease_until: i64) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE submissions SET lease_until = $1 WHERE seq = $2 AND worker = $3 AND state = $4",
        )
        .bind(lease_until)
        .bind(seq)
        .bind(worker)
        .bind(QueueState::Judging.as_str())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Puts every submission being judged back in the queue (SQLite at start: one
    /// process owns the file, so whatever it was judging died with it).
    pub async fn requeue_all_judging(&self) -> Result<u64> {
        let done = sqlx::query("UPDATE submissions SET state = $1, worker = NULL WHERE state = $2")
            .bind(QueueState::Queued.as_str())
            .bind(QueueState::Judging.as_str())
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// Records `finished` for submission `seq` if `worker` still holds it, and sets the
    /// submission `done` (or back to `queued` when `requeue`, after a judge error).
    /// `events` builds the events from the stored judgement and runs. Returns false (and
    /// writes nothing) when the lease was lost.
    pub async fn finish(
        &self,
        contest_id: &str,
        seq: i64,
        worker: &str,
        mut finished: Finished,
        requeue: bool,
        events: impl FnOnce(&JudgementRow, &[RunRow]) -> Vec<NewEvent>,
    ) -> Result<bool> {
        let mut tx = self.pool.begin().await?;
        let state = if requeue {
            QueueState::Queued
        } else {
            QueueState::Done
        };
        let owned = sqlx::query(
            "UPDATE submissions SET state = $1, worker = NULL WHERE seq = $2 AND worker = $3 AND state = $4",
        )
        .bind(state.as_str())
        .bind(seq)
        .bind(worker)
        .bind(QueueState::Judging.as_str())
        .execute(&mut *tx)
        .await?;
        if owned.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        self.lock_events(&mut tx).await?;
        let j = &mut finished.judgement;
        j.seq = sqlx::query_scalar(
            "INSERT INTO judgements (id, contest_id, submission_id, judgement_type_id, score, subtask_scores, \
             start_ms, end_ms, max_run_time, worker) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING seq",
        )
        .bind(format!("pending-{}", rand::random::<u64>()))
        .bind(contest_id)
        .bind(&j.submission_id)
        .bind(j.verdict.clics_id())
        .bind(j.score)
        .bind(&j.subtask_scores)
        .bind(j.start_ms)
        .bind(j.end_ms)
        .bind(j.max_run_time)
        .bind(worker)
        .fetch_one(&mut *tx)
        .await?;
        j.id = j.seq.to_string();
        sqlx::query("UPDATE judgements SET id = $1 WHERE seq = $2")
            .bind(&j.id)
            .bind(j.seq)
            .execute(&mut *tx)
            .await?;
        for run in &mut finished.runs {
            run.judgement_id = j.id.clone();
            run.id = format!("{}-{}", j.id, run.ordinal);
            sqlx::query(
                "INSERT INTO runs (id, contest_id, judgement_id, ordinal, judgement_type_id, time_ms, run_time) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(&run.id)
            .bind(contest_id)
            .bind(&run.judgement_id)
            .bind(run.ordinal)
            .bind(run.verdict.clics_id())
            .bind(run.time_ms)
            .bind(run.run_time)
            .execute(&mut *tx)
            .await?;
        }
        let mut last = 0;
        for event in events(&finished.judgement, &finished.runs) {
            last = insert_event(&mut tx, contest_id, &event).await?;
        }
        self.commit_events(tx, last).await?;
        Ok(true)
    }

    /// The submissions of a contest in order, those `viewer` may see.
    pub async fn submissions(
        &self,
        contest_id: &str,
        viewer: &Viewer,
    ) -> Result<Vec<SubmissionRow>> {
        self.select_submissions(contest_id, viewer, "source").await
    }

    /// The submissions of a contest without their source text (for the scoreboard).
    pub async fn submissions_for_scoring(&self, contest_id: &str) -> Result<Vec<SubmissionRow>> {
        self.select_submissions(contest_id, &Viewer::Admin, "'' AS source")
            .await
    }

    async fn select_submissions(
        &self,
        contest_id: &str,
        viewer: &Viewer,
        source: &str,
    ) -> Result<Vec<SubmissionRow>> {
        let (all, team) = visibility(viewer);
        let rows = sqlx::query_as(&format!(
            "SELECT {} FROM submissions WHERE contest_id = $1 AND ($2 = 1 OR team_id = $3) ORDER BY seq",
            submission_columns(source)
        ))
        .bind(contest_id)
        .bind(all)
        .bind(team)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// Queues again the judged (`done`) submissions of `contest_id` that `filter`
    /// selects, with their takes counted from zero, and writes the event `event` builds
    /// for each, in one transaction; returns them. Their old judgements stay; the one
    /// the workers write next is the newest, which the scoreboard counts.
    pub async fn rejudge(
        &self,
        contest_id: &str,
        filter: &RejudgeFilter,
        event: impl Fn(&SubmissionRow) -> NewEvent,
    ) -> Result<Vec<SubmissionRow>> {
        let mut tx = self.pool.begin().await?;
        self.lock_events(&mut tx).await?;
        // '' matches any value (a NULL bind would leave PostgreSQL without its type).
        let any = |v: &Option<String>| v.clone().unwrap_or_default();
        let rows: Vec<SubmissionRow> = sqlx::query_as(&format!(
            "UPDATE submissions SET state = $1, worker = NULL, lease_until = 0, attempts = 0 \
             WHERE contest_id = $2 AND state = $3 AND ($4 = '' OR id = $4) \
             AND ($5 = '' OR problem_id = $5) AND ($6 = '' OR team_id = $6) RETURNING {}",
            submission_columns("'' AS source")
        ))
        .bind(QueueState::Queued.as_str())
        .bind(contest_id)
        .bind(QueueState::Done.as_str())
        .bind(any(&filter.submission_id))
        .bind(any(&filter.problem_id))
        .bind(any(&filter.team_id))
        .fetch_all(&mut *tx)
        .await?;
        let mut rows = rows;
        rows.sort_by_key(|r| r.seq);
        let mut last = 0;
        for row in &rows {
            last = insert_event(&mut tx, contest_id, &event(row)).await?;
        }
        self.commit_events(tx, last).await?;
        Ok(rows)
    }

    /// Stores a clarification (its id is its sequence number) and the event `event`
    /// builds from the stored row, in one transaction.
    pub async fn insert_clarification(
        &self,
        contest_id: &str,
        mut new: ClarificationRow,
        event: impl FnOnce(&ClarificationRow) -> NewEvent,
    ) -> Result<ClarificationRow> {
        let mut tx = self.pool.begin().await?;
        self.lock_events(&mut tx).await?;
        new.seq = sqlx::query_scalar(
            "INSERT INTO clarifications (id, contest_id, from_team_id, to_team_id, reply_to_id, \
             problem_id, text, time_ms, contest_time_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
             RETURNING seq",
        )
        .bind(format!("pending-{}", rand::random::<u64>()))
        .bind(contest_id)
        .bind(&new.from_team_id)
        .bind(&new.to_team_id)
        .bind(&new.reply_to_id)
        .bind(&new.problem_id)
        .bind(&new.text)
        .bind(new.time_ms)
        .bind(new.contest_time_ms)
        .fetch_one(&mut *tx)
        .await?;
        new.id = new.seq.to_string();
        sqlx::query("UPDATE clarifications SET id = $1 WHERE seq = $2")
            .bind(&new.id)
            .bind(new.seq)
            .execute(&mut *tx)
            .await?;
        let last = insert_event(&mut tx, contest_id, &event(&new)).await?;
        self.commit_events(tx, last).await?;
        Ok(new)
    }

    /// The clarifications of a contest that `viewer` may read, in order: admins all; a
    /// team what it asked, what the jury wrote to it, and what the jury wrote to
    /// everyone; the public what the jury wrote to everyone.
    pub async fn clarifications(
        &self,
        contest_id: &str,
        viewer: &Viewer,
    ) -> Result<Vec<ClarificationRow>> {
        let (all, team) = visibility(viewer);
        let rows = sqlx::query_as(
            "SELECT seq, id, from_team_id, to_team_id, reply_to_id, problem_id, text, time_ms, \
             contest_time_ms FROM clarifications WHERE contest_id = $1 AND ($2 = 1 \
             OR from_team_id = $3 OR to_team_id = $3 \
             OR (from_team_id IS NULL AND to_team_id IS NULL)) ORDER BY seq",
        )
        .bind(contest_id)
        .bind(all)
        .bind(team)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// Writes a consistent copy of the SQLite database to `path` (`VACUUM INTO`: a
    /// snapshot taken in one read transaction, while the server keeps writing).
    /// PostgreSQL is backed up with its own tools (`pg_dump`).
    pub async fn backup_into(&self, path: &std::path::Path) -> Result<()> {
        if self.dialect != Dialect::Sqlite {
            return Err(Error::Unsupported(
                "a backup over the API is of SQLite; back PostgreSQL up with pg_dump".into(),
            ));
        }
        sqlx::query("VACUUM INTO $1")
            .bind(path.display().to_string())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The newest event token of a contest (0 when none): every change that moves the
    /// scoreboard writes an event, so an unchanged token means an unchanged board.
    pub async fn last_token(&self, contest_id: &str) -> Result<i64> {
        let seq =
            sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM events WHERE contest_id = $1")
                .bind(contest_id)
                .fetch_one(&self.pool)
                .await?;
        Ok(seq)
    }

    /// Every judgement of a contest, in order.
    pub async fn judgements(&self, contest_id: &str) -> Result<Vec<JudgementRow>> {
        let rows = sqlx::query_as(
            "SELECT seq, id, submission_id, judgement_type_id, score, subtask_scores, start_ms, end_ms, \
             max_run_time FROM judgements WHERE contest_id = $1 ORDER BY seq",
        )
        .bind(contest_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// Every run of a contest, in order.
    pub async fn runs(&self, contest_id: &str) -> Result<Vec<RunRow>> {
        let rows = sqlx::query_as(
            "SELECT id, judgement_id, ordinal, judgement_type_id, time_ms, run_time FROM runs \
             WHERE contest_id = $1 ORDER BY seq",
        )
        .bind(contest_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// Events after token `after` that `viewer` may see, at most `limit`.
    pub async fn events_since(
        &self,
        contest_id: &str,
        after: i64,
        viewer: &Viewer,
        limit: i64,
    ) -> Result<Vec<EventRow>> {
        let (all, team) = visibility(viewer);
        let rows = sqlx::query_as(
            "SELECT seq, type, obj_id, data FROM events WHERE contest_id = $1 AND seq > $2 \
             AND ($3 = 1 OR team_id IS NULL OR team_id = $4) ORDER BY seq LIMIT $5",
        )
        .bind(contest_id)
        .bind(after)
        .bind(all)
        .bind(team)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// Events of every contest after token `after`, at most `limit`, in token order,
    /// with whom each concerns (what the in-memory feed publishes).
    pub async fn events_after(&self, after: i64, limit: i64) -> Result<Vec<LogEvent>> {
        let rows = sqlx::query_as(
            "SELECT seq, contest_id, type, obj_id, team_id, data FROM events WHERE seq > $1 \
             ORDER BY seq LIMIT $2",
        )
        .bind(after)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// The newest event token of any contest (0 when none).
    pub async fn newest_token(&self) -> Result<i64> {
        let seq = sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM events")
            .fetch_one(&self.pool)
            .await?;
        Ok(seq)
    }

    /// The data of the newest event of `kind` (for `state`: what the feed last said).
    pub async fn last_event(&self, contest_id: &str, kind: &str) -> Result<Option<String>> {
        let data: Option<Option<String>> = sqlx::query_scalar(
            "SELECT data FROM events WHERE contest_id = $1 AND type = $2 ORDER BY seq DESC LIMIT 1",
        )
        .bind(contest_id)
        .bind(kind)
        .fetch_optional(&self.pool)
        .await?;
        Ok(data.flatten())
    }

    /// How many submissions are in each queue state.
    pub async fn queue_counts(&self) -> Result<QueueCounts> {
        let rows: Vec<(String, i64)> =
            sqlx::query_as("SELECT state, COUNT(*) FROM submissions GROUP BY state")
                .fetch_all(&self.pool)
                .await?;
        let mut res = QueueCounts::default();
        for (state, n) in rows {
            let count = match QueueState::try_from(state) {
                Ok(QueueState::Queued) => &mut res.queued,
                Ok(QueueState::Judging) => &mut res.judging,
                Ok(QueueState::Done) | Err(_) => &mut res.done,
            };
            *count += n;
        }
        Ok(res)
    }
}

/// The submission columns that `SubmissionRow` decodes, with `source` as the expression
/// for the source text (`'' AS source` leaves it out).
fn submission_columns(source: &str) -> String {
    format!(
        "seq, id, contest_id, team_id, problem_id, language_id, {source}, time_ms, \
         contest_time_ms, state, attempts"
    )
}

/// Inserts one event; returns its token.
async fn insert_event(tx: &mut Transaction<'_>, contest_id: &str, event: &NewEvent) -> Result<i64> {
    let seq = sqlx::query_scalar(
        "INSERT INTO events (contest_id, type, obj_id, team_id, data) VALUES ($1, $2, $3, $4, $5) \
         RETURNING seq",
    )
    .bind(contest_id)
    .bind(&event.kind)
    .bind(&event.obj_id)
    .bind(&event.team_id)
    .bind(event.data.as_ref().map(|d| d.to_string()))
    .fetch_one(&mut **tx)
    .await?;
    Ok(seq)
}

/// Holds one `LISTEN` connection until it fails, waking `written` on each notice.
async fn listen_once(url: &str, written: &Notify) -> Result<(), sqlx::Error> {
    let mut listener = sqlx::postgres::PgListener::connect(url).await?;
    listener.listen(CHANNEL).await?;
    // Whatever was written while this connection was being opened.
    written.notify_one();
    loop {
        listener.recv().await?;
        written.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_sub(team: &str) -> NewSubmission {
        NewSubmission {
            id: None,
            contest_id: "c".into(),
            team_id: team.into(),
            problem_id: "p".into(),
            language_id: "c".into(),
            source: "int main(){}".into(),
            time_ms: 1000,
            contest_time_ms: 10,
        }
    }

    fn event(row: &SubmissionRow) -> NewEvent {
        NewEvent {
            kind: "submissions".into(),
            obj_id: Some(row.id.clone()),
            team_id: Some(row.team_id.clone()),
            data: Some(serde_json::json!({"id": row.id})),
        }
    }

    fn judgement(sub: &str) -> Finished {
        Finished {
            judgement: JudgementRow {
                seq: 0,
                id: String::new(),
                submission_id: sub.into(),
                verdict: Verdict::AC,
                score: 1.0,
                subtask_scores: "[]".into(),
                start_ms: 1,
                end_ms: 2,
                max_run_time: 0.1,
            },
            runs: vec![RunRow {
                id: String::new(),
                judgement_id: String::new(),
                ordinal: 1,
                verdict: Verdict::AC,
                time_ms: 2,
                run_time: 0.1,
            }],
        }
    }

    #[tokio::test]
    async fn a_lost_lease_writes_nothing_and_the_queue_goes_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("db.sqlite").display().to_string())
            .await
            .unwrap();
        let a = store
            .insert_submission(&new_sub("t1"), event)
            .await
            .unwrap()
            .unwrap();
        let b = store
            .insert_submission(&new_sub("t2"), event)
            .await
            .unwrap()
            .unwrap();
        assert_eq!((a.id.as_str(), b.id.as_str()), ("1", "2"));
        // A client-chosen id that is taken is refused without writing.
        let mut dup = new_sub("t1");
        dup.id = Some("2".into());
        assert!(
            store
                .insert_submission(&dup, event)
                .await
                .unwrap()
                .is_none()
        );

        let first = store.claim("w1", 100, 200).await.unwrap().unwrap();
        assert_eq!(first.id, "1");
        // w1's lease expires; w2 takes submission 1 again before submission 2.
        let again = store.claim("w2", 300, 400).await.unwrap().unwrap();
        assert_eq!(again.id, "1");
        assert_eq!(again.attempts, 2);
        assert!(!store.renew(first.seq, "w1", 500).await.unwrap());
        let lost = store
            .finish("c", first.seq, "w1", judgement("1"), false, |_, _| vec![])
            .await
            .unwrap();
        assert!(!lost, "the old worker lost its lease");
        assert!(store.judgements("c").await.unwrap().is_empty());
        let ok = store
            .finish("c", again.seq, "w2", judgement("1"), false, |j, _| {
                vec![NewEvent {
                    kind: "judgements".into(),
                    obj_id: Some(j.id.clone()),
                    team_id: Some("t1".into()),
                    data: None,
                }]
            })
            .await
            .unwrap();
        assert!(ok);
        let js = store.judgements("c").await.unwrap();
        assert_eq!(js.len(), 1);
        assert_eq!(
            store.runs("c").await.unwrap()[0].id,
            format!("{}-1", js[0].id)
        );
        let next = store.claim("w2", 300, 400).await.unwrap().unwrap();
        assert_eq!(next.id, "2");
        assert!(store.claim("w2", 300, 400).await.unwrap().is_none());
        assert_eq!(store.requeue_all_judging().await.unwrap(), 1);
        assert_eq!(
            store.queue_counts().await.unwrap(),
            QueueCounts {
                queued: 1,
                judging: 0,
                done: 1
            }
        );

        // Teams see their own events and submissions only; the public sees neither.
        let t1 = Viewer::Team("t1".into());
        let ev = store.events_since("c", 0, &t1, 100).await.unwrap();
        assert_eq!(ev.len(), 2, "{ev:?}");
        assert!(
            store
                .events_since("c", 0, &Viewer::Public, 100)
                .await
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            store
                .events_since("c", 0, &Viewer::Admin, 100)
                .await
                .unwrap()
                .len(),
            3
        );
        assert_eq!(store.submissions("c", &t1).await.unwrap().len(), 1);
        assert!(
            store
                .submissions("c", &Viewer::Public)
                .await
                .unwrap()
                .is_empty()
        );
    }

    #[tokio::test]
    async fn judgements_are_listed_in_the_order_they_were_written() {
        // `leaderboard::clics::counting_judgements`, the rule the board, the API and the
        // agent use, takes the last judgement listed of a submission as the newest. So
        // the store lists them in the order they were written: a rejudgement's judgement
        // comes after the one it replaces, even when it claims an earlier start.
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("db.sqlite").display().to_string())
            .await
            .unwrap();
        store
            .insert_submission(&new_sub("t1"), event)
            .await
            .unwrap()
            .unwrap();
        let mut first = judgement("1");
        first.judgement.verdict = Verdict::WA;
        first.judgement.start_ms = 50;
        let taken = store.claim("w1", 100, 200).await.unwrap().unwrap();
        let done = store.finish("c", taken.seq, "w1", first, false, |_, _| vec![]);
        assert!(done.await.unwrap());
        let filter = RejudgeFilter {
            submission_id: Some("1".into()),
            ..RejudgeFilter::default()
        };
        assert_eq!(store.rejudge("c", &filter, event).await.unwrap().len(), 1);
        let mut second = judgement("1");
        second.judgement.start_ms = 5;
        let taken = store.claim("w2", 300, 400).await.unwrap().unwrap();
        let done = store.finish("c", taken.seq, "w2", second, false, |_, _| vec![]);
        assert!(done.await.unwrap());

        let verdicts: Vec<Verdict> = store
            .judgements("c")
            .await
            .unwrap()
            .iter()
            .map(|j| j.verdict)
            .collect();
        assert_eq!(verdicts, [Verdict::WA, Verdict::AC]);
    }
}
