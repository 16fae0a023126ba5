//! Taking a contest away: the export (a zip any CLICS tool reads: the whole event feed
//! as an admin sees it in `event-feed.ndjson`, the contest object in `contest.json`, and
//! each submission's source under `submissions/<id>/`) and the backup of a SQLite
//! database (a consistent copy of the live file, `VACUUM INTO`, that `judge serve --db`
//! opens as it is: restoring is serving the copy).

use std::io::Write;

use crate::clics;
use crate::contest::Contest;
use crate::error::ServerError;
use crate::live;
use crate::state::AppState;
use crate::viewer::Viewer;

/// The export of `contest` as zip bytes (the archive is built off the async threads).
pub async fn export(state: &AppState, contest: &Contest) -> Result<Vec<u8>, ServerError> {
    let cid = &contest.spec.id;
    let events = state
        .store
        .events_since(cid, 0, &Viewer::Admin, i64::MAX)
        .await?;
    let feed: String = events
        .iter()
        .map(|e| live::feed_line(e.seq, &e.kind, e.obj_id.as_deref(), e.data.as_deref()))
        .collect();
    let contest_json = serde_json::to_vec_pretty(&clics::contest(contest)).unwrap_or_default();
    let mut sources = Vec::new();
    for s in state.store.submissions(cid, &Viewer::Admin).await? {
        let name = judge::lang::by_id(&s.language_id)
            .map(|l| l.source_name(&s.source))
            .unwrap_or_else(|_| format!("source.{}", s.language_id));
        sources.push((format!("submissions/{}/{name}", s.id), s.source));
    }
    let what = format!("export of {cid}");
    tokio::task::spawn_blocking(move || {
        let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default();
        let mut files = vec![
            ("event-feed.ndjson".to_owned(), feed.into_bytes()),
            ("contest.json".to_owned(), contest_json),
        ];
        files.extend(sources.into_iter().map(|(n, s)| (n, s.into_bytes())));
        for (name, bytes) in files {
            zip.start_file(name, options)
                .map_err(std::io::Error::other)?;
            zip.write_all(&bytes)?;
        }
        Ok(zip.finish().map_err(std::io::Error::other)?.into_inner())
    })
    .await
    .map_err(|e| std::io::Error::other(e.to_string()))
    .and_then(|r| r)
    .map_err(|source| ServerError::Io {
        path: what.into(),
        source,
    })
}

/// A consistent copy of the SQLite database as bytes (on PostgreSQL: `Unsupported`, back
/// it up with `pg_dump`).
pub async fn backup(state: &AppState) -> Result<Vec<u8>, ServerError> {
    let dir = tempfile::tempdir().map_err(|source| ServerError::Io {
        path: std::env::temp_dir(),
        source,
    })?;
    let path = dir.path().join("backup.sqlite");
    state.store.backup_into(&path).await?;
    tokio::fs::read(&path)
        .await
        .map_err(|source| ServerError::Io { path, source })
}
