//! The event log's writes: every transaction that writes events takes the `events`
//! table's lock first (PostgreSQL), so tokens commit in order; a commit wakes this
//! process's reader and, on PostgreSQL, every other host's (`NOTIFY`, [`Store::listen`]).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use tokio::sync::Notify;

use super::{CHANNEL, ClarificationRow, Dialect, Error, NewEvent, Result, Store, Transaction};

impl Store {
    /// Takes the `events` table's lock (PostgreSQL; SQLite's write lock) and queues the
    /// `NOTIFY` that other hosts receive when the transaction commits. Every transaction
    /// that writes events calls it first.
    pub(super) async fn lock_events(&self, tx: &mut Transaction<'_>) -> Result<()> {
        if self.dialect == Dialect::Sqlite {
            // Take SQLite's write lock now, before the transaction reads: a transaction
            // that read first and writes later cannot wait for another writer (SQLite
            // answers "database is locked" at once), while one that asks for the lock
            // first waits its busy timeout. A write that matches no row takes it.
            sqlx::query("DELETE FROM events WHERE seq < 0")
                .execute(&mut **tx)
                .await?;
        }
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
    pub(super) async fn commit_events(&self, tx: Transaction<'_>, last: i64) -> Result<()> {
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
}

/// Inserts one event; returns its token.
pub(super) async fn insert_event(
    tx: &mut Transaction<'_>,
    contest_id: &str,
    event: &NewEvent,
) -> Result<i64> {
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
