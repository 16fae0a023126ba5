//! The contest database (sqlx, the only module that names it): SQLite in one file by
//! default, PostgreSQL when several judge hosts share a contest.
//!
//! Tables: `contests` (definitions), `submissions` (with the queue state: `queued`,
//! `judging` under a worker's lease, `done`), `judgements`, `runs`, and `events` (the
//! CLICS event feed; an event's token is its sequence number).
//!
//! Durability rules: a submission and its `submissions` event are written in one
//! transaction before the HTTP answer; a judgement, its runs, their events and the
//! submission's `done` state are written in one transaction, and only by the worker that
//! still holds the lease, so a submission gets exactly one final judgement even when a
//! worker died or lost its lease mid-judging. On PostgreSQL, workers claim with
//! `FOR UPDATE SKIP LOCKED`, and transactions that add events take the `events` table's
//! lock first, so event tokens commit in increasing order and `since_token` never skips.

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};

use super::error::ServerError;

/// Which database is behind the URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// SQLite: one server process owns the file.
    Sqlite,
    /// PostgreSQL: several processes may share it.
    Postgres,
}

/// The database.
#[derive(Debug, Clone)]
pub struct Store {
    pool: AnyPool,
    dialect: Dialect,
}

#[allow(clippy::needless_pass_by_value)] // used as `map_err(db)`
fn db(err: sqlx::Error) -> ServerError {
    ServerError::Database(err.to_string())
}

/// A submission as stored.
#[derive(Debug, Clone)]
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
    /// `queued`, `judging` or `done`.
    pub state: String,
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
#[derive(Debug, Clone)]
pub struct JudgementRow {
    /// Sequence number.
    pub seq: i64,
    /// CLICS id.
    pub id: String,
    /// The submission.
    pub submission_id: String,
    /// CLICS judgement type.
    pub judgement_type_id: String,
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
#[derive(Debug, Clone)]
pub struct RunRow {
    /// CLICS id.
    pub id: String,
    /// Its judgement.
    pub judgement_id: String,
    /// Position, from 1.
    pub ordinal: i64,
    /// CLICS judgement type.
    pub judgement_type_id: String,
    /// When it finished, Unix ms.
    pub time_ms: i64,
    /// CPU time in seconds.
    pub run_time: f64,
}

/// An event of the feed.
#[derive(Debug, Clone)]
pub struct EventRow {
    /// The token.
    pub seq: i64,
    /// CLICS type (`submissions`, ...).
    pub kind: String,
    /// Object id, or `None` for singletons (`contest`, `state`).
    pub obj_id: Option<String>,
    /// The object as JSON, or `None` for a deletion.
    pub data: Option<String>,
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

/// Who is asking for events or submissions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Viewer {
    /// Sees everything.
    Admin,
    /// Sees public data and its own.
    Team(String),
    /// Sees public data only.
    Public,
}

impl Viewer {
    /// The binds of the visibility filter `($all = 1 OR team_id = $team)`: admins see
    /// every row, a team its own (and, for events, the public ones), the public none of
    /// the team rows (`team_id = NULL` is never true).
    fn filter(&self) -> (i64, Option<&str>) {
        match self {
            Viewer::Admin => (1, None),
            Viewer::Team(team) => (0, Some(team)),
            Viewer::Public => (0, None),
        }
    }
}

impl Store {
    /// Opens (and creates) the database at `url`: `sqlite://FILE` (or a bare path) or
    /// `postgres://...`.
    pub async fn open(url: &str) -> Result<Store, ServerError> {
        sqlx::any::install_default_drivers();
        let (dialect, url) = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            (Dialect::Postgres, url.to_owned())
        } else if let Some(path) = url.strip_prefix("sqlite://") {
            (Dialect::Sqlite, format!("sqlite://{path}?mode=rwc"))
        } else if url.contains("://") {
            return Err(ServerError::BadDatabaseUrl(url.to_owned()));
        } else {
            (Dialect::Sqlite, format!("sqlite://{url}?mode=rwc"))
        };
        let pool = AnyPoolOptions::new()
            .max_connections(if dialect == Dialect::Sqlite { 4 } else { 8 })
            .connect(&url)
            .await
            .map_err(db)?;
        let store = Store { pool, dialect };
        store.migrate().await?;
        Ok(store)
    }

    /// The database kind.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    async fn migrate(&self) -> Result<(), ServerError> {
        let pk = match self.dialect {
            Dialect::Sqlite => "seq INTEGER PRIMARY KEY AUTOINCREMENT",
            Dialect::Postgres => "seq BIGSERIAL PRIMARY KEY",
        };
        if self.dialect == Dialect::Sqlite {
            sqlx::query("PRAGMA journal_mode=WAL")
                .execute(&self.pool)
                .await
                .map_err(db)?;
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
        ];
        for sql in statements {
            // Concurrent first starts on PostgreSQL can race on CREATE ... IF NOT EXISTS.
            if let Err(err) = sqlx::query(&sql).execute(&self.pool).await {
                let text = err.to_string();
                if !(text.contains("already exists") || text.contains("duplicate key")) {
                    return Err(db(err));
                }
            }
        }
        Ok(())
    }

    /// Stores a contest definition (JSON), replacing an earlier one with the same id.
    /// Returns whether it was new; a new contest also gets its opening events.
    pub async fn put_contest(
        &self,
        id: &str,
        spec: &str,
        opening: Vec<NewEvent>,
    ) -> Result<bool, ServerError> {
        let mut tx = self.pool.begin().await.map_err(db)?;
        self.lock_events(&mut tx).await?;
        let existing = sqlx::query("SELECT spec FROM contests WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db)?;
        let new = existing.is_none();
        if new {
            sqlx::query("INSERT INTO contests (id, spec) VALUES ($1, $2)")
                .bind(id)
                .bind(spec)
                .execute(&mut *tx)
                .await
                .map_err(db)?;
            for event in opening {
                insert_event(&mut tx, id, &event).await?;
            }
        } else {
            sqlx::query("UPDATE contests SET spec = $2 WHERE id = $1")
                .bind(id)
                .bind(spec)
                .execute(&mut *tx)
                .await
                .map_err(db)?;
        }
        tx.commit().await.map_err(db)?;
        Ok(new)
    }

    /// Every stored contest definition, as `(id, spec JSON)`.
    pub async fn contests(&self) -> Result<Vec<(String, String)>, ServerError> {
        let rows = sqlx::query("SELECT id, spec FROM contests ORDER BY id")
            .fetch_all(&self.pool)
            .await
            .map_err(db)?;
        rows.iter()
            .map(|r| Ok((r.try_get("id").map_err(db)?, r.try_get("spec").map_err(db)?)))
            .collect()
    }

    async fn lock_events(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    ) -> Result<(), ServerError> {
        if self.dialect == Dialect::Postgres {
            sqlx::query("LOCK TABLE events IN EXCLUSIVE MODE")
                .execute(&mut **tx)
                .await
                .map_err(db)?;
        }
        Ok(())
    }

    /// Adds events outside any other change (state changes).
    pub async fn add_events(
        &self,
        contest_id: &str,
        events: &[NewEvent],
    ) -> Result<(), ServerError> {
        let mut tx = self.pool.begin().await.map_err(db)?;
        self.lock_events(&mut tx).await?;
        for event in events {
            insert_event(&mut tx, contest_id, event).await?;
        }
        tx.commit().await.map_err(db)
    }

    /// Stores a new submission and its event (built by `event` from the stored row) in
    /// one transaction; returns the row. A client-chosen id already used is `Ok(None)`.
    pub async fn insert_submission(
        &self,
        new: &NewSubmission,
        event: impl FnOnce(&SubmissionRow) -> NewEvent,
    ) -> Result<Option<SubmissionRow>, ServerError> {
        let mut tx = self.pool.begin().await.map_err(db)?;
        self.lock_events(&mut tx).await?;
        if let Some(id) = &new.id {
            let taken =
                sqlx::query("SELECT seq FROM submissions WHERE contest_id = $1 AND id = $2")
                    .bind(&new.contest_id)
                    .bind(id)
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(db)?;
            if taken.is_some() {
                return Ok(None);
            }
        }
        let placeholder = new
            .id
            .clone()
            .unwrap_or_else(|| format!("pending-{}", rand::random::<u64>()));
        let row = sqlx::query(
            "INSERT INTO submissions (id, contest_id, team_id, problem_id, language_id, source, \
             time_ms, contest_time_ms, state) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued') \
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
        .fetch_one(&mut *tx)
        .await
        .map_err(db)?;
        let seq: i64 = row.try_get("seq").map_err(db)?;
        let id = match &new.id {
            Some(id) => id.clone(),
            None => {
                let id = seq.to_string();
                sqlx::query("UPDATE submissions SET id = $1 WHERE seq = $2")
                    .bind(&id)
                    .bind(seq)
                    .execute(&mut *tx)
                    .await
                    .map_err(db)?;
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
            state: "queued".to_owned(),
            attempts: 0,
        };
        insert_event(&mut tx, &new.contest_id, &event(&stored)).await?;
        tx.commit().await.map_err(db)?;
        Ok(Some(stored))
    }

    /// How many submissions `team` made since `since_ms` (Unix ms).
    pub async fn submissions_since(
        &self,
        contest_id: &str,
        team_id: &str,
        since_ms: i64,
    ) -> Result<i64, ServerError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM submissions WHERE contest_id = $1 AND team_id = $2 AND time_ms >= $3",
        )
        .bind(contest_id)
        .bind(team_id)
        .bind(since_ms)
        .fetch_one(&self.pool)
        .await
        .map_err(db)?;
        row.try_get("n").map_err(db)
    }

    /// Takes the oldest submission that is queued or whose lease expired, for `worker`
    /// until `lease_until` (Unix ms).
    pub async fn claim(
        &self,
        worker: &str,
        now_ms: i64,
        lease_until: i64,
    ) -> Result<Option<SubmissionRow>, ServerError> {
        let lock = match self.dialect {
            Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
            Dialect::Sqlite => "",
        };
        let sql = format!(
            "UPDATE submissions SET state = 'judging', worker = $1, lease_until = $2, attempts = attempts + 1 \
             WHERE seq = (SELECT seq FROM submissions WHERE state = 'queued' \
             OR (state = 'judging' AND lease_until < $3) ORDER BY seq LIMIT 1{lock}) \
             RETURNING {}",
            submission_columns("source")
        );
        let row = sqlx::query(&sql)
            .bind(worker)
            .bind(lease_until)
            .bind(now_ms)
            .fetch_optional(&self.pool)
            .await
            .map_err(db)?;
        row.as_ref().map(submission_row).transpose()
    }

    /// Extends `worker`'s lease on submission `seq`; false when it no longer holds it.
    pub async fn renew(
        &self,
        seq: i64,
        worker: &str,
        lease_until: i64,
    ) -> Result<bool, ServerError> {
        let done = sqlx::query(
            "UPDATE submissions SET lease_until = $1 WHERE seq = $2 AND worker = $3 AND state = 'judging'",
        )
        .bind(lease_until)
        .bind(seq)
        .bind(worker)
        .execute(&self.pool)
        .await
        .map_err(db)?;
        Ok(done.rows_affected() == 1)
    }

    /// Puts every submission being judged back in the queue (SQLite at start: one
    /// process owns the file, so whatever it was judging died with it).
    pub async fn requeue_all_judging(&self) -> Result<u64, ServerError> {
        let done = sqlx::query(
            "UPDATE submissions SET state = 'queued', worker = NULL WHERE state = 'judging'",
        )
        .execute(&self.pool)
        .await
        .map_err(db)?;
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
    ) -> Result<bool, ServerError> {
        let mut tx = self.pool.begin().await.map_err(db)?;
        let state = if requeue { "queued" } else { "done" };
        let owned = sqlx::query(
            "UPDATE submissions SET state = $1, worker = NULL WHERE seq = $2 AND worker = $3 AND state = 'judging'",
        )
        .bind(state)
        .bind(seq)
        .bind(worker)
        .execute(&mut *tx)
        .await
        .map_err(db)?;
        if owned.rows_affected() != 1 {
            tx.rollback().await.map_err(db)?;
            return Ok(false);
        }
        self.lock_events(&mut tx).await?;
        let j = &mut finished.judgement;
        let row = sqlx::query(
            "INSERT INTO judgements (id, contest_id, submission_id, judgement_type_id, score, subtask_scores, \
             start_ms, end_ms, max_run_time, worker) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING seq",
        )
        .bind(format!("pending-{}", rand::random::<u64>()))
        .bind(contest_id)
        .bind(&j.submission_id)
        .bind(&j.judgement_type_id)
        .bind(j.score)
        .bind(&j.subtask_scores)
        .bind(j.start_ms)
        .bind(j.end_ms)
        .bind(j.max_run_time)
        .bind(worker)
        .fetch_one(&mut *tx)
        .await
        .map_err(db)?;
        j.seq = row.try_get("seq").map_err(db)?;
        j.id = j.seq.to_string();
        sqlx::query("UPDATE judgements SET id = $1 WHERE seq = $2")
            .bind(&j.id)
            .bind(j.seq)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
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
            .bind(&run.judgement_type_id)
            .bind(run.time_ms)
            .bind(run.run_time)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
        }
        for event in events(&finished.judgement, &finished.runs) {
            insert_event(&mut tx, contest_id, &event).await?;
        }
        tx.commit().await.map_err(db)?;
        Ok(true)
    }

    /// The submissions of a contest in order, those `viewer` may see.
    pub async fn submissions(
        &self,
        contest_id: &str,
        viewer: &Viewer,
    ) -> Result<Vec<SubmissionRow>, ServerError> {
        self.select_submissions(contest_id, viewer, "source").await
    }

    /// The submissions of a contest without their source text (for the scoreboard).
    pub async fn submissions_for_scoring(
        &self,
        contest_id: &str,
    ) -> Result<Vec<SubmissionRow>, ServerError> {
        self.select_submissions(contest_id, &Viewer::Admin, "'' AS source")
            .await
    }

    async fn select_submissions(
        &self,
        contest_id: &str,
        viewer: &Viewer,
        source: &str,
    ) -> Result<Vec<SubmissionRow>, ServerError> {
        let (all, team) = viewer.filter();
        let rows = sqlx::query(&format!(
            "SELECT {} FROM submissions WHERE contest_id = $1 AND ($2 = 1 OR team_id = $3) ORDER BY seq",
            submission_columns(source)
        ))
        .bind(contest_id)
        .bind(all)
        .bind(team)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        rows.iter().map(submission_row).collect()
    }

    /// The newest event token of a contest (0 when none): every change that moves the
    /// scoreboard writes an event, so an unchanged token means an unchanged board.
    pub async fn last_token(&self, contest_id: &str) -> Result<i64, ServerError> {
        let row =
            sqlx::query("SELECT COALESCE(MAX(seq), 0) AS seq FROM events WHERE contest_id = $1")
                .bind(contest_id)
                .fetch_one(&self.pool)
                .await
                .map_err(db)?;
        row.try_get("seq").map_err(db)
    }

    /// Every judgement of a contest, in order.
    pub async fn judgements(&self, contest_id: &str) -> Result<Vec<JudgementRow>, ServerError> {
        let rows = sqlx::query(
            "SELECT seq, id, submission_id, judgement_type_id, score, subtask_scores, start_ms, end_ms, \
             max_run_time FROM judgements WHERE contest_id = $1 ORDER BY seq",
        )
        .bind(contest_id)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        rows.iter()
            .map(|r| {
                Ok(JudgementRow {
                    seq: r.try_get("seq").map_err(db)?,
                    id: r.try_get("id").map_err(db)?,
                    submission_id: r.try_get("submission_id").map_err(db)?,
                    judgement_type_id: r.try_get("judgement_type_id").map_err(db)?,
                    score: r.try_get("score").map_err(db)?,
                    subtask_scores: r.try_get("subtask_scores").map_err(db)?,
                    start_ms: r.try_get("start_ms").map_err(db)?,
                    end_ms: r.try_get("end_ms").map_err(db)?,
                    max_run_time: r.try_get("max_run_time").map_err(db)?,
                })
            })
            .collect()
    }

    /// Every run of a contest, in order.
    pub async fn runs(&self, contest_id: &str) -> Result<Vec<RunRow>, ServerError> {
        let rows = sqlx::query(
            "SELECT id, judgement_id, ordinal, judgement_type_id, time_ms, run_time FROM runs \
             WHERE contest_id = $1 ORDER BY seq",
        )
        .bind(contest_id)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        rows.iter()
            .map(|r| {
                Ok(RunRow {
                    id: r.try_get("id").map_err(db)?,
                    judgement_id: r.try_get("judgement_id").map_err(db)?,
                    ordinal: r.try_get("ordinal").map_err(db)?,
                    judgement_type_id: r.try_get("judgement_type_id").map_err(db)?,
                    time_ms: r.try_get("time_ms").map_err(db)?,
                    run_time: r.try_get("run_time").map_err(db)?,
                })
            })
            .collect()
    }

    /// Events after token `after` that `viewer` may see, at most `limit`.
    pub async fn events_since(
        &self,
        contest_id: &str,
        after: i64,
        viewer: &Viewer,
        limit: i64,
    ) -> Result<Vec<EventRow>, ServerError> {
        let (all, team) = viewer.filter();
        let rows = sqlx::query(
            "SELECT seq, type, obj_id, data FROM events WHERE contest_id = $1 AND seq > $2 \
             AND ($3 = 1 OR team_id IS NULL OR team_id = $4) ORDER BY seq LIMIT $5",
        )
        .bind(contest_id)
        .bind(after)
        .bind(all)
        .bind(team)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        rows.iter()
            .map(|r| {
                Ok(EventRow {
                    seq: r.try_get("seq").map_err(db)?,
                    kind: r.try_get("type").map_err(db)?,
                    obj_id: r.try_get("obj_id").map_err(db)?,
                    data: r.try_get("data").map_err(db)?,
                })
            })
            .collect()
    }

    /// The data of the newest event of `kind` (for `state`: what the feed last said).
    pub async fn last_event(
        &self,
        contest_id: &str,
        kind: &str,
    ) -> Result<Option<String>, ServerError> {
        let row = sqlx::query(
            "SELECT data FROM events WHERE contest_id = $1 AND type = $2 ORDER BY seq DESC LIMIT 1",
        )
        .bind(contest_id)
        .bind(kind)
        .fetch_optional(&self.pool)
        .await
        .map_err(db)?;
        match row {
            Some(r) => r.try_get("data").map_err(db),
            None => Ok(None),
        }
    }

    /// Counts of submissions by queue state, as `(queued, judging, done)`.
    pub async fn queue_counts(&self) -> Result<(i64, i64, i64), ServerError> {
        let rows = sqlx::query("SELECT state, COUNT(*) AS n FROM submissions GROUP BY state")
            .fetch_all(&self.pool)
            .await
            .map_err(db)?;
        let mut res = (0, 0, 0);
        for r in rows {
            let state: String = r.try_get("state").map_err(db)?;
            let n: i64 = r.try_get("n").map_err(db)?;
            match state.as_str() {
                "queued" => res.0 = n,
                "judging" => res.1 = n,
                _ => res.2 += n,
            }
        }
        Ok(res)
    }
}

/// The submission columns that [`submission_row`] reads, with `source` as the expression
/// for the source text (`'' AS source` leaves it out).
fn submission_columns(source: &str) -> String {
    format!(
        "seq, id, contest_id, team_id, problem_id, language_id, {source}, time_ms, \
         contest_time_ms, state, attempts"
    )
}

fn submission_row(r: &AnyRow) -> Result<SubmissionRow, ServerError> {
    Ok(SubmissionRow {
        seq: r.try_get("seq").map_err(db)?,
        id: r.try_get("id").map_err(db)?,
        contest_id: r.try_get("contest_id").map_err(db)?,
        team_id: r.try_get("team_id").map_err(db)?,
        problem_id: r.try_get("problem_id").map_err(db)?,
        language_id: r.try_get("language_id").map_err(db)?,
        source: r.try_get("source").map_err(db)?,
        time_ms: r.try_get("time_ms").map_err(db)?,
        contest_time_ms: r.try_get("contest_time_ms").map_err(db)?,
        state: r.try_get("state").map_err(db)?,
        attempts: r.try_get("attempts").map_err(db)?,
    })
}

async fn insert_event(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    contest_id: &str,
    event: &NewEvent,
) -> Result<(), ServerError> {
    sqlx::query(
        "INSERT INTO events (contest_id, type, obj_id, team_id, data) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(contest_id)
    .bind(&event.kind)
    .bind(&event.obj_id)
    .bind(&event.team_id)
    .bind(event.data.as_ref().map(|d| d.to_string()))
    .execute(&mut **tx)
    .await
    .map_err(db)?;
    Ok(())
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
                judgement_type_id: "AC".into(),
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
                judgement_type_id: "AC".into(),
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
        assert_eq!(store.queue_counts().await.unwrap(), (1, 0, 1));

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
}
