//! Problem packages uploaded by the jury, kept whole in the database by the SHA-256 of
//! their zip (`packages`), so that every host sharing a PostgreSQL database can unpack
//! the same package; the upload's audit line is written in the same transaction.

use super::jury::insert_audit;
use super::{Dialect, Result, Store};

/// An uploaded package as the jury's pages list it (without its bytes).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PackageRow {
    /// The SHA-256 of the zip, in hex.
    pub sha256: String,
    /// The file name it was uploaded under.
    pub name: String,
    /// The zip's size in bytes.
    pub size: i64,
    /// When it was first uploaded (milliseconds since the epoch).
    pub time_ms: i64,
}

impl Store {
    /// The column type of a package's bytes.
    pub(super) fn bytes_type(&self) -> &'static str {
        match self.dialect {
            Dialect::Sqlite => "BLOB",
            Dialect::Postgres => "BYTEA",
        }
    }

    /// Keeps the zip `bytes` (whose SHA-256 is `row.sha256`) unless a zip with that
    /// SHA-256 is kept already, with the audit line of `actor`'s upload to `contest_id`.
    /// Returns whether it was new.
    pub async fn put_package(
        &self,
        contest_id: &str,
        actor: &str,
        row: &PackageRow,
        bytes: &[u8],
    ) -> Result<bool> {
        let mut tx = self.pool.begin().await?;
        self.lock_events(&mut tx).await?;
        let known = sqlx::query("SELECT sha256 FROM packages WHERE sha256 = $1")
            .bind(&row.sha256)
            .fetch_optional(&mut *tx)
            .await?
            .is_some();
        if !known {
            sqlx::query(
                "INSERT INTO packages (sha256, name, size, time_ms, bytes) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&row.sha256)
            .bind(&row.name)
            .bind(row.size)
            .bind(row.time_ms)
            .bind(bytes)
            .execute(&mut *tx)
            .await?;
        }
        let detail = format!("{} ({} bytes, sha256 {})", row.name, row.size, row.sha256);
        insert_audit(
            &mut tx,
            contest_id,
            actor,
            "upload_package",
            &detail,
            row.time_ms,
        )
        .await?;
        tx.commit().await?;
        Ok(!known)
    }

    /// The kept zip whose SHA-256 is `sha256`.
    pub async fn package_bytes(&self, sha256: &str) -> Result<Option<Vec<u8>>> {
        let bytes = sqlx::query_scalar("SELECT bytes FROM packages WHERE sha256 = $1")
            .bind(sha256)
            .fetch_optional(&self.pool)
            .await?;
        Ok(bytes)
    }

    /// One kept package's row.
    pub async fn package(&self, sha256: &str) -> Result<Option<PackageRow>> {
        let row =
            sqlx::query_as("SELECT sha256, name, size, time_ms FROM packages WHERE sha256 = $1")
                .bind(sha256)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row)
    }

    /// Every kept package, newest first.
    pub async fn packages(&self) -> Result<Vec<PackageRow>> {
        let rows = sqlx::query_as(
            "SELECT sha256, name, size, time_ms FROM packages ORDER BY time_ms DESC, sha256",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }
}
