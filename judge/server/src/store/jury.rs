//! What the jury changed in a running contest, and the audit log: `jury` holds rows of
//! the jury's own state per contest, each a `kind` (`control`: the clock; `team`: a team
//! added or disabled), an `item` (empty for the clock, the team's id) and JSON `data` that
//! the server's modules read (`crate::control`, `crate::teams`); `audit` holds one row
//! per jury action (who, what, when).
//!
//! A jury change reads the contest's rows, decides and writes them back inside one
//! transaction that holds the `events` lock (PostgreSQL), so two hosts' jury actions
//! never both apply to the same state, and the rows, the audit line and the events
//! commit together.

use super::{Result, Store, Transaction, insert_event};
use crate::store::NewEvent;

/// One row of the jury's state.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct JuryRow {
    /// `control` or `team`.
    pub kind: String,
    /// Which one (empty for the clock; a team's id).
    pub item: String,
    /// Its state (JSON).
    pub data: String,
}

/// One line of the audit log.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct AuditRow {
    /// Its order.
    pub seq: i64,
    /// Who acted (`admin`, or the session's user).
    pub actor: String,
    /// What was done (`start_now`, `freeze`, `add_team`, ...).
    pub action: String,
    /// The details (a new start time, the team named).
    pub detail: String,
    /// When (milliseconds since the epoch).
    pub time_ms: i64,
}

/// What a jury change writes: rows (inserted or replaced), its audit line and its events.
#[derive(Debug, Clone)]
pub struct JuryWrite {
    /// The rows written.
    pub rows: Vec<JuryRow>,
    /// Who acted.
    pub actor: String,
    /// What was done.
    pub action: String,
    /// Details for the audit log.
    pub detail: String,
    /// When.
    pub time_ms: i64,
    /// The events it implies.
    pub events: Vec<NewEvent>,
}

impl Store {
    /// The jury's rows of `contest_id`, by kind and key.
    pub async fn jury_rows(&self, contest_id: &str) -> Result<Vec<JuryRow>> {
        let rows = sqlx::query_as(
            "SELECT kind, item, data FROM jury WHERE contest_id = $1 ORDER BY kind, item",
        )
        .bind(contest_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// Reads the contest's jury rows, lets `decide` turn them into a write (or refuse
    /// with its error, writing nothing) and writes the rows, the audit line and the
    /// events in one transaction. Returns what `decide` returned.
    pub async fn jury_change<E>(
        &self,
        contest_id: &str,
        decide: impl FnOnce(Vec<JuryRow>) -> std::result::Result<JuryWrite, E>,
    ) -> Result<std::result::Result<JuryWrite, E>> {
        let mut tx = self.pool.begin().await?;
        self.lock_events(&mut tx).await?;
        let current: Vec<JuryRow> = sqlx::query_as(
            "SELECT kind, item, data FROM jury WHERE contest_id = $1 ORDER BY kind, item",
        )
        .bind(contest_id)
        .fetch_all(&mut *tx)
        .await?;
        let write = match decide(current) {
            Ok(write) => write,
            Err(refused) => {
                tx.rollback().await?;
                return Ok(Err(refused));
            }
        };
        for row in &write.rows {
            // Every jury change holds the events lock, so update-then-insert cannot race.
            let updated = sqlx::query(
                "UPDATE jury SET data = $4 WHERE contest_id = $1 AND kind = $2 AND item = $3",
            )
            .bind(contest_id)
            .bind(&row.kind)
            .bind(&row.item)
            .bind(&row.data)
            .execute(&mut *tx)
            .await?;
            if updated.rows_affected() == 0 {
                sqlx::query(
                    "INSERT INTO jury (contest_id, kind, item, data) VALUES ($1, $2, $3, $4)",
                )
                .bind(contest_id)
                .bind(&row.kind)
                .bind(&row.item)
                .bind(&row.data)
                .execute(&mut *tx)
                .await?;
            }
        }
        insert_audit(
            &mut tx,
            contest_id,
            &write.actor,
            &write.action,
            &write.detail,
            write.time_ms,
        )
        .await?;
        let mut last = 0;
        for event in &write.events {
            last = insert_event(&mut tx, contest_id, event).await?;
        }
        self.commit_events(tx, last).await?;
        Ok(Ok(write))
    }

    /// The audit log of `contest_id`, oldest first.
    pub async fn audit(&self, contest_id: &str) -> Result<Vec<AuditRow>> {
        let rows = sqlx::query_as(
            "SELECT seq, actor, action, detail, time_ms FROM audit WHERE contest_id = $1 \
             ORDER BY seq",
        )
        .bind(contest_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }
}

/// Writes one line of the audit log inside `tx`.
pub(super) async fn insert_audit(
    tx: &mut Transaction<'_>,
    contest_id: &str,
    actor: &str,
    action: &str,
    detail: &str,
    time_ms: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO audit (contest_id, actor, action, detail, time_ms) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(contest_id)
    .bind(actor)
    .bind(action)
    .bind(detail)
    .bind(time_ms)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
