//! The contest database (sqlx, the only module that names it): SQLite in one file by
//! default, PostgreSQL when several judge hosts share a contest.
//!
//! Tables: `contests` (definitions), `jury` (what the jury changed: the clock, teams)
//! and `audit` (the jury's actions), `rejudgings` and `rejudged` (each rejudging and the
//! submissions it took, with the judgement counting before), `packages` (uploaded
//! problem packages, kept whole by the SHA-256 of their zip), `sessions` (the web page's logins), `submissions` (with the [`QueueState`]: `queued`,
//! `judging` under a worker's lease, `done`), `judgements`, `runs`, and `events` (the
//! CLICS event feed; an event's token is its sequence number). Judgement types are
//! stored as their CLICS ids and read back as [`problems::Verdict`]s; rows decode through
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
//!
//! The code: this file opens the database (with its tables) and holds the contests;
//! `rows` the row types; `events` the event log's writes and change notices; `queue`
//! the judging queue's writes (submissions, claims, leases, judgements); `rejudgings`
//! the rejudgings and what each changed; `packages` the uploaded packages;
//! `jury` the jury's changes and the audit log; `sessions` the web page's logins;
//! `reads` every query that only reads.

use std::sync::Arc;
use std::sync::atomic::AtomicI64;

use sqlx::AnyPool;
use sqlx::any::AnyPoolOptions;
use tokio::sync::Notify;

use crate::viewer::Viewer;

mod events;
mod jury;
mod packages;
mod queue;
mod reads;
mod rejudgings;
mod rows;
mod sessions;

use events::insert_event;
pub use jury::{AuditRow, JuryRow, JuryWrite};
pub use packages::PackageRow;
pub use rejudgings::{After, RejudgeRecord, RejudgedRow, RejudgingRow};
pub use rows::{
    ClarificationRow, ClicsId, EventRow, Finished, JudgementRow, JuryRun, ListedSubmission,
    LogEvent, NewEvent, NewSubmission, QueueCounts, QueueState, RejudgeFilter, RunDetail, RunRow,
    SubmissionFilter, SubmissionRow, UnknownValue,
};
pub use sessions::SessionRow;

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
            "CREATE INDEX IF NOT EXISTS submissions_by_contest ON submissions (contest_id, seq)"
                .to_owned(),
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
            "CREATE INDEX IF NOT EXISTS judgements_by_submission ON judgements (contest_id, submission_id, seq)"
                .to_owned(),
            format!(
                "CREATE TABLE IF NOT EXISTS clarifications ({pk}, id TEXT NOT NULL, contest_id TEXT NOT NULL, \
                 from_team_id TEXT, to_team_id TEXT, reply_to_id TEXT, problem_id TEXT, text TEXT NOT NULL, \
                 time_ms BIGINT NOT NULL, contest_time_ms BIGINT NOT NULL, UNIQUE (contest_id, id))"
            ),
            "CREATE TABLE IF NOT EXISTS jury (contest_id TEXT NOT NULL, kind TEXT NOT NULL, \
             item TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (contest_id, kind, item))"
                .to_owned(),
            "CREATE TABLE IF NOT EXISTS sessions (id_hash TEXT PRIMARY KEY, contest_id TEXT NOT NULL, \
             subject TEXT NOT NULL, csrf TEXT NOT NULL, expires_ms BIGINT NOT NULL)"
                .to_owned(),
            format!(
                "CREATE TABLE IF NOT EXISTS audit ({pk}, contest_id TEXT NOT NULL, actor TEXT NOT NULL, \
                 action TEXT NOT NULL, detail TEXT NOT NULL, time_ms BIGINT NOT NULL)"
            ),
            format!(
                "CREATE TABLE IF NOT EXISTS rejudgings ({pk}, contest_id TEXT NOT NULL, \
                 actor TEXT NOT NULL, what TEXT NOT NULL, time_ms BIGINT NOT NULL)"
            ),
            "CREATE TABLE IF NOT EXISTS rejudged (contest_id TEXT NOT NULL, \
             rejudging_seq BIGINT NOT NULL, submission_id TEXT NOT NULL, \
             old_judgement TEXT NOT NULL, old_verdict TEXT NOT NULL, \
             PRIMARY KEY (rejudging_seq, submission_id))"
                .to_owned(),
            "CREATE INDEX IF NOT EXISTS rejudged_by_submission ON rejudged \
             (contest_id, submission_id, rejudging_seq)"
                .to_owned(),
            format!(
                "CREATE TABLE IF NOT EXISTS packages (sha256 TEXT PRIMARY KEY, name TEXT NOT NULL, \
                 size BIGINT NOT NULL, time_ms BIGINT NOT NULL, bytes {} NOT NULL)",
                self.bytes_type()
            ),
        ];
        // Columns added since the tables were first made: a database made by an older
        // server gets them when opened (its old rows read the defaults).
        let added = [
            "ALTER TABLE judgements ADD COLUMN compile_log TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE runs ADD COLUMN test_name TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE runs ADD COLUMN wall_time DOUBLE PRECISION NOT NULL DEFAULT 0",
            "ALTER TABLE runs ADD COLUMN memory_kib BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE runs ADD COLUMN message TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE runs ADD COLUMN output_head TEXT",
        ];
        // PostgreSQL says IF NOT EXISTS (its ALTER TABLE locks the table, so two hosts
        // opening at once add each column once); SQLite cannot, and answers "duplicate
        // column" instead.
        let added = added.map(|sql| match self.dialect {
            Dialect::Postgres => sql.replace("ADD COLUMN", "ADD COLUMN IF NOT EXISTS"),
            Dialect::Sqlite => sql.to_owned(),
        });
        for sql in statements.iter().chain(&added) {
            // Concurrent first starts on PostgreSQL can race on CREATE ... IF NOT EXISTS;
            // a column that is there already is the migration done before.
            if let Err(err) = sqlx::query(sql).execute(&self.pool).await {
                let text = err.to_string();
                if !(text.contains("already exists")
                    || text.contains("duplicate key")
                    || text.contains("duplicate column"))
                {
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
}

/// The submission columns that `SubmissionRow` decodes, with `source` as the expression
/// for the source text (`'' AS source` leaves it out).
fn submission_columns(source: &str) -> String {
    format!(
        "seq, id, contest_id, team_id, problem_id, language_id, {source}, time_ms, \
         contest_time_ms, state, attempts"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use problems::Verdict;

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

    fn record() -> RejudgeRecord {
        RejudgeRecord {
            actor: "test".into(),
            what: "one".into(),
            time_ms: 5,
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
            details: vec![RunDetail {
                test_name: "secret/1".into(),
                wall_time: 0.2,
                memory_kib: 2048,
                message: "wrong on line 1".into(),
                output_head: Some("42\n".into()),
            }],
            compile_log: "warning: unused".into(),
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
    async fn an_older_database_gains_the_run_details_when_opened() {
        // The runs and judgements tables as the server made them before the details: a
        // judged submission in them.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.sqlite");
        let url = format!("sqlite://{}?mode=rwc", path.display());
        sqlx::any::install_default_drivers();
        let old = AnyPoolOptions::new().connect(&url).await.unwrap();
        for sql in [
            "CREATE TABLE judgements (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, \
             contest_id TEXT NOT NULL, submission_id TEXT NOT NULL, judgement_type_id TEXT NOT NULL, \
             score DOUBLE PRECISION NOT NULL, subtask_scores TEXT NOT NULL, start_ms BIGINT NOT NULL, \
             end_ms BIGINT NOT NULL, max_run_time DOUBLE PRECISION NOT NULL, worker TEXT NOT NULL, \
             UNIQUE (contest_id, id))",
            "CREATE TABLE runs (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, \
             contest_id TEXT NOT NULL, judgement_id TEXT NOT NULL, ordinal BIGINT NOT NULL, \
             judgement_type_id TEXT NOT NULL, time_ms BIGINT NOT NULL, run_time DOUBLE PRECISION NOT NULL, \
             UNIQUE (contest_id, id))",
            "INSERT INTO judgements VALUES (1, '1', 'c', '1', 'WA', 0, '[]', 1, 2, 0.1, 'w')",
            "INSERT INTO runs VALUES (1, '1-1', 'c', '1', 1, 'WA', 2, 0.1)",
        ] {
            sqlx::query(sql).execute(&old).await.unwrap();
        }
        old.close().await;

        let store = Store::open(&path.display().to_string()).await.unwrap();
        // The old run reads as before, its details empty.
        let runs = store.jury_runs("c", "1").await.unwrap();
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].run.verdict, Verdict::WA);
        assert_eq!(runs[0].detail, RunDetail::default());
        assert_eq!(store.compile_log("c", "1").await.unwrap(), "");
        // A new judgement keeps them; opening again changes nothing.
        drop(store);
        let store = Store::open(&path.display().to_string()).await.unwrap();
        store
            .insert_submission(&new_sub("t1"), event)
            .await
            .unwrap()
            .unwrap();
        let taken = store.claim("w1", 100, 200).await.unwrap().unwrap();
        let done = store.finish(
            "c",
            taken.seq,
            "w1",
            judgement(&taken.id),
            false,
            |_, _| vec![],
        );
        assert!(done.await.unwrap());
        let newest = store.judgements("c").await.unwrap().pop().unwrap();
        let runs = store.jury_runs("c", &newest.id).await.unwrap();
        assert_eq!(runs[0].detail, judgement(&taken.id).details[0]);
        assert_eq!(
            store.compile_log("c", &newest.id).await.unwrap(),
            "warning: unused"
        );
    }

    #[tokio::test]
    async fn the_jury_s_list_filters_pages_and_shows_the_newest_verdict() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("db.sqlite").display().to_string())
            .await
            .unwrap();
        for team in ["t1", "t2", "t1"] {
            store
                .insert_submission(&new_sub(team), event)
                .await
                .unwrap()
                .unwrap();
        }
        // 1: WA then AC (rejudged); 2: WA; 3: queued.
        for (verdict, seq_of) in [(Verdict::WA, "1"), (Verdict::WA, "2")] {
            let taken = store.claim("w", 100, 200).await.unwrap().unwrap();
            assert_eq!(taken.id, seq_of);
            let mut j = judgement(&taken.id);
            j.judgement.verdict = verdict;
            assert!(
                store
                    .finish("c", taken.seq, "w", j, false, |_, _| vec![])
                    .await
                    .unwrap()
            );
        }
        let filter = RejudgeFilter {
            submission_id: Some("1".into()),
            ..RejudgeFilter::default()
        };
        store.rejudge("c", &filter, &record(), event).await.unwrap();
        let taken = store.claim("w", 300, 400).await.unwrap().unwrap();
        assert_eq!(taken.id, "1");
        let done = store.finish("c", taken.seq, "w", judgement("1"), false, |_, _| vec![]);
        assert!(done.await.unwrap());

        let page = |f: SubmissionFilter, limit: i64, offset: i64| {
            let store = store.clone();
            async move { store.submission_page("c", &f, limit, offset).await.unwrap() }
        };
        let (all, total) = page(SubmissionFilter::default(), 10, 0).await;
        let seen: Vec<(&str, &str, i64)> = all
            .iter()
            .map(|s| (s.id.as_str(), s.verdict.as_str(), s.judgements))
            .collect();
        assert_eq!(seen, [("3", "pending", 0), ("2", "WA", 1), ("1", "AC", 2)]);
        assert_eq!(total, 3);
        let by = |team: &str, verdict: &str| SubmissionFilter {
            team_id: team.into(),
            verdict: verdict.into(),
            ..SubmissionFilter::default()
        };
        let (t1, total) = page(by("t1", ""), 10, 0).await;
        assert_eq!((t1.len(), total), (2, 2));
        let (wa, total) = page(by("", "WA"), 10, 0).await;
        assert_eq!((wa[0].id.as_str(), total), ("2", 1), "1's newest is AC");
        let (pending, _) = page(by("", "pending"), 10, 0).await;
        assert_eq!(pending[0].id, "3");
        let (second, total) = page(SubmissionFilter::default(), 2, 2).await;
        assert_eq!((second.len(), second[0].id.as_str(), total), (1, "1", 3));
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
        assert_eq!(
            store
                .rejudge("c", &filter, &record(), event)
                .await
                .unwrap()
                .1
                .len(),
            1
        );
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
