//! The web page's login sessions: `sessions` holds one row per session, keyed by the
//! SHA-256 of its id (the cookie's value is never stored), with who it is (`admin`, or
//! `team:ID`), its CSRF token and when it expires. Sessions survive a restart and are
//! seen by every host sharing a PostgreSQL database; logging out deletes the row, and
//! expired rows are deleted whenever a session is made.

use super::{Result, Store};

/// A session as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SessionRow {
    /// The contest it logged in to.
    pub contest_id: String,
    /// `admin`, or `team:ID`.
    pub subject: String,
    /// The token every form of the session must carry.
    pub csrf: String,
    /// When it ends (milliseconds since the epoch).
    pub expires_ms: i64,
}

impl Store {
    /// Stores a new session under `id_hash` (deleting the expired ones first).
    pub async fn create_session(&self, id_hash: &str, row: &SessionRow, now_ms: i64) -> Result<()> {
        sqlx::query("DELETE FROM sessions WHERE expires_ms <= $1")
            .bind(now_ms)
            .execute(&self.pool)
            .await?;
        sqlx::query(
            "INSERT INTO sessions (id_hash, contest_id, subject, csrf, expires_ms) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id_hash)
        .bind(&row.contest_id)
        .bind(&row.subject)
        .bind(&row.csrf)
        .bind(row.expires_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The session under `id_hash`, unless it has expired by `now_ms`.
    pub async fn session(&self, id_hash: &str, now_ms: i64) -> Result<Option<SessionRow>> {
        let row = sqlx::query_as(
            "SELECT contest_id, subject, csrf, expires_ms FROM sessions \
             WHERE id_hash = $1 AND expires_ms > $2",
        )
        .bind(id_hash)
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row)
    }

    /// Ends the session under `id_hash` (logging out).
    pub async fn end_session(&self, id_hash: &str) -> Result<()> {
        sqlx::query("DELETE FROM sessions WHERE id_hash = $1")
            .bind(id_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
